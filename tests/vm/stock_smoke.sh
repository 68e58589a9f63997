#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's stock kernel as a user's host runs it (scripts/vm/run --flavour
# stock): the running kernel is Debian's build of the pinned version, none
# of our modules is offered or loaded, and its in-tree NFS/RDMA works on
# Soft-RoCE: nfsd with an rdma listener on the standard port 20049, an
# NFSv4.2 proto=rdma mount of it (no port=: the default) over rxe loopback,
# data written and verified, umount, and rpcrdma unloads once unused. At
# the end the kernel's taint says that every module it loaded was in-tree
# and carried a valid signature.
. "$(dirname "$0")/lib.sh"
# shellcheck source=../../config/kernel-version
. "$RPCRDMA2_TOP/config/kernel-version"

rel=$(uname -r)
echo "uname -r: $rel"
echo "/proc/version: $(cat /proc/version)"

# Debian's build: its maintainers' address and its package version,
# "... (debian-kernel@lists.debian.org) ... Debian 6.12.117-1~deb12u1 (date)"
debian_build() {
	grep -qF '(debian-kernel@lists.debian.org)' /proc/version &&
		grep -qF "Debian $KVER_DEB (" /proc/version
}
# our test kernels are 6.12.117-rpcrdma2, built by rpcrdma2@rpcrdma2
not_ours() { ! grep -q rpcrdma2 /proc/version; }
# none of our modules is offered (scripts/vm/run) or loaded
none_of_ours() {
	[ -z "${RPCRDMA2_MODDIR:-}" ] &&
		! grep -qE '^(rpcrdma2_[a-z_]*|svcrdma2|xprtrdma2) ' /proc/modules
}
# MODULE is loaded, from the stock package's tree, and in-tree
stock_module() {
	[ -d "/sys/module/$1" ] &&
		[[ $(modinfo -n "$1") == /lib/modules/$rel/kernel/* ]] &&
		[ "$(modinfo -F intree "$1")" = Y ]
}
# No module that is proprietary (P, bit 0), out of tree (O, bit 12) or
# unsigned or signed by a key the kernel does not trust (E, bit 13).
untainted_modules() {
	local t
	t=$(cat /proc/sys/kernel/tainted)
	echo "tainted: $t"
	[ $((t & (1 | 1 << 12 | 1 << 13))) -eq 0 ]
}

t_check "uname -r is Debian's $KVER_ABI-amd64" test "$rel" = "$KVER_ABI-amd64"
t_check "/proc/version is Debian's build of $KVER_DEB" debian_build
t_check "/proc/version is not an rpcrdma2 test kernel" not_ours
t_check "none of our modules offered or loaded" none_of_ours

vm_rxe_up
t_check "rdma_rxe from Debian's package" stock_module rdma_rxe
# No modprobe of rpcrdma: nfsd asks for "svcrdma", an alias of rpcrdma,
# when the listener is written to portlist, as on a user's host.
vm_nfsd_up rdma 20049
t_check "nfsd lists rdma 20049" grep -q '^rdma 20049$' /proc/fs/nfsd/portlist
t_check "rpcrdma autoloaded from Debian's package" stock_module rpcrdma
t_check "nfsd from Debian's package" stock_module nfsd

mnt=/tmp/mnt
mkdir -p "$mnt"
t_check "mount NFSv4.2 proto=rdma (default port)" \
	mount -t nfs -o vers=4.2,proto=rdma "$GUEST_IP:/" "$mnt"
t_check "NFSv4.2 mount is over rdma to port 20049" \
	grep -Eq "^$GUEST_IP:/ $mnt nfs4 .*proto=rdma,.*port=20049" /proc/mounts
t_check "nfs from Debian's package" stock_module nfs
fio_verify "NFSv4.2 rdma" randwrite 4k 4m
fio_verify "NFSv4.2 rdma" write 1m 16m
nfs_roundtrip "NFSv4.2 rdma" "$mnt" 8
t_check "umount NFSv4.2" umount "$mnt"

vm_nfsd_down
t_check "rpcrdma unloads once unused" rmmod_when_free rpcrdma
t_check "rdma link delete rxe0" rdma link delete rxe0
lsmod | tee "$RESULTS/lsmod"
t_check "every module loaded was in-tree and validly signed" untainted_modules
t_done
