#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# patches/0001: the NFS client's proto= option takes the netid of any
# registered RPC transport. Here, with transports that exist today: tcp and
# rdma still mount (through the kernel's own option parser: mount -i skips
# mount.nfs), and a netid nobody registers fails cleanly with EINVAL and
# "Unrecognized transport protocol" (a patch that forced unknown idents
# through would reach the BUG() in nfs_init_timeout_values()).
# proto=rdma2 itself is tested with the client transport.
# patches/0002: nfsd's rdma listener loads rpcrdma.ko, whose backchannel
# class xprt_rdma_bc then sits on sunrpc's transport list; every lookup
# here of a netid registered after it (rdma2test) or of none
# (nosuchnetid) walks past it, and read beyond the object until the
# class got a terminated .netid list (a KASAN report, which fails the
# run).
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_nfsd_up rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"


t_check "proto=tcp mounts NFSv4.2" kmount vers=4.2,proto=tcp "$GUEST_IP:/"
t_check "proto=tcp mount uses tcp" grep -Eq " $mnt nfs4 .*proto=tcp[,\ ]" /proc/mounts
nfs_roundtrip "proto=tcp" "$mnt" 1
umount "$mnt"

t_check "proto=rdma mounts NFSv4.2" kmount vers=4.2,proto=rdma,port=$NFS_V1_PORT "$GUEST_IP:/"
t_check "proto=rdma mount uses rdma" grep -Eq " $mnt nfs4 .*proto=rdma[,\ ]" /proc/mounts
nfs_roundtrip "proto=rdma" "$mnt" 1
umount "$mnt"

t_check "proto=tcp mounts NFSv3" \
	kmount vers=3,proto=tcp,mountproto=tcp,nolock "$GUEST_IP:$EXPORT_DIR"
umount "$mnt"

# The parser itself, through fsopen/fsconfig (NFS reports parser errors in
# the fs_context log, not in dmesg): known netids are accepted, an
# unregistered one is refused with EINVAL and the parser's message.
probe=$(python3 "$(dirname "$0")/fsconfig_probe.py" nfs \
	proto=tcp proto=rdma proto=rdma6 proto=nosuchnetid 2>&1)
echo "$probe"
for p in tcp rdma rdma6; do
	t_check "parser accepts proto=$p" grep -qx "ok proto=$p" <<< "$probe"
done
t_check "parser refuses proto=nosuchnetid: EINVAL, Unrecognized transport protocol" \
	grep -q "^error proto=nosuchnetid: EINVAL: .*Unrecognized transport protocol" <<< "$probe"

# A netid the stock parser does not know, registered by a loaded transport
# (tests/modules/rpcrdma2_test_netid.ko, whose setup always fails): the
# parser takes it, and the mount reaches that transport and fails with its
# error, not with "bad option" and not in a BUG().
t_check "insmod the rdma2test transport fixture" \
	insmod "$RPCRDMA2_MODDIR/tests/modules/rpcrdma2_test_netid.ko"
t_check "parser accepts a registered netid: proto=rdma2test" \
	python3 "$(dirname "$0")/fsconfig_probe.py" nfs proto=rdma2test
for v in 4.2 3; do
	name="mount proto=rdma2test NFSv$v reaches the registered transport"
	extra=""
	[ "$v" = 3 ] && extra=",mountproto=tcp,nolock"
	if err=$(kmount "vers=$v,proto=rdma2test,port=20049$extra" "$GUEST_IP:/" 2>&1); then
		umount "$mnt"
		t_fail "$name" "mount succeeded through a transport that cannot connect"
	elif echo "$err" | grep -q 'bad option'; then
		t_fail "$name" "refused as an option: $err"
	else
		t_pass "$name"
	fi
done
t_check "rmmod the rdma2test transport fixture" rmmod rpcrdma2_test_netid

# unknown_netid VERS EXTRA: a real mount(2) with that netid must fail
# (util-linux reports the EINVAL as "bad option") and leave nothing
# mounted, for NFSv4.2 and NFSv3.
unknown_netid() {
	local name="mount proto=nosuchnetid NFSv$1 is refused cleanly" err
	if err=$(kmount "vers=$1,proto=nosuchnetid$2" "$GUEST_IP:/" 2>&1); then
		umount "$mnt"
		t_fail "$name" "mount succeeded"
	elif ! echo "$err" | grep -q 'bad option'; then
		t_fail "$name" "mount said: $err"
	elif grep -q " $mnt " /proc/mounts; then
		t_fail "$name" "something is mounted"
	else
		t_pass "$name"
	fi
}
unknown_netid 4.2 ""
unknown_netid 3 ",mountproto=tcp,nolock"

vm_nfsd_down
t_done
