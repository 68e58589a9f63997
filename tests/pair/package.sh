#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The package as users install it, on Debian's stock kernel in both
# guests (scripts/vm/pair --server stock --client stock): guest A (the
# "server" role) installs rpcrdma2-dkms_*.deb with apt-get, guest B (the
# "client" role) stays stock, in-tree rpcrdma only. On A:
# - without the kernel's headers the install leaves a clear message and
#   the in-tree module in place; with Debian's stock headers, DKMS builds
#   the modules and modinfo resolves rpcrdma, xprtrdma and svcrdma to the
#   drop-in;
# - nfsd started from nfs.conf (rdma=y, rdma-port=20049) listens with
#   svcrdma2; A's client mounts A's own export with proto=rdma and nothing
#   else (v2) and B's (v1 fallback), data verified; nconnect=4 to A gives
#   four v2 connections;
# B's stock client mounts A's export (v1 at A), data verified. Then A
# removes the package: the in-tree module is back, and mounts work in v1
# both ways.
# B is Debian's stock kernel as a user's host runs it: Debian's build of
# the pinned version, none of our modules offered or loaded. While A
# builds, B mounts its own in-tree server over rxe loopback (NFSv4.2
# proto=rdma on the default port, fio verify, a round trip); rdma_rxe,
# rpcrdma, nfsd and nfs come from the package's tree, rpcrdma unloads
# once unused, and at the end the kernel's taint says that every module
# it loaded was in-tree and validly signed.
. "$(dirname "$0")/../vm/lib.sh"
# shellcheck source=../../config/kernel-version
. "$RPCRDMA2_TOP/config/kernel-version"

mnt=/tmp/mnt
mkdir -p "$mnt"
version=$(cat "$RPCRDMA2_TOP/VERSION")
deb=$RPCRDMA2_TOP/build/deb/rpcrdma2-dkms_${version}_all.deb

vm_stock || die "package.sh runs on Debian's stock kernel in both guests"
vm_rxe_up link0
modprobe nfsd && modprobe nfsv4 && modprobe nfsv3 || die "modprobe nfsd nfs"

# roundtrip NAME SERVER_PATH OPTIONS: mount, a SHA-256 round trip, unmount
roundtrip() {
	local name=$1 src=$2 opts=$3
	if ! mount -t nfs -o "$opts" "$src" "$mnt"; then
		t_fail "$name: mount -o $opts" "mount failed"
		return 1
	fi
	t_pass "$name: mount -o $opts"
	nfs_roundtrip "$name" "$mnt" 2
}

# dropin_loaded: the loaded rpcrdma is ours (the in-tree one has no version)
dropin_loaded() { [ "$(cat /sys/module/rpcrdma/version 2>/dev/null)" = "$version" ]; }
# (Debian's modules are xz-compressed: rpcrdma.ko.xz)
intree_rpcrdma() {
	case $(modinfo -n rpcrdma) in
	"/lib/modules/$(uname -r)/kernel/net/sunrpc/xprtrdma/rpcrdma.ko"*) return 0 ;;
	esac
	return 1
}
# ccache_summary: what the compiler cache gave the build, if it had one
ccache_summary() {
	[ -n "${CCACHE_DIR:-}" ] || return 0
	ccache --print-stats | awk -F '\t' '
		$1 ~ /^(direct|preprocessed)_cache_hit$/ { hit += $2 }
		$1 == "cache_miss" { miss = $2 }
		END { printf "ccache: %d of %d compiled from the cache", hit, hit + miss }'
}
# conn_vers IP: the version of svcrdma2's connection from IP
conn_vers() { sed -n "s/^conn $1[^ ]* vers=\([0-9]*\) .*/\1/p" /proc/fs/svcrdma2/stats | head -n 1; }

# A writable /usr and modules tree, as on an installed system: dpkg
# unpacks into /usr/src and /usr/lib, DKMS installs into
# /lib/modules/KVER/updates/dkms. (The modules overlay guest-init made is
# kept below the new one: an overlay on /usr does not see mounts under
# it.)
writable_system() {
	mkdir -p /run/sys/mods /run/sys/usr/upper /run/sys/usr/work \
		/run/sys/modsrw/upper /run/sys/modsrw/work
	mount --bind /usr/lib/modules /run/sys/mods &&
		mount -t overlay overlay \
			-o lowerdir=/usr,upperdir=/run/sys/usr/upper,workdir=/run/sys/usr/work /usr &&
		mount -t overlay overlay \
			-o lowerdir=/run/sys/mods,upperdir=/run/sys/modsrw/upper,workdir=/run/sys/modsrw/work \
			/usr/lib/modules
}

server() {
	local kver hdr t0 out
	kver=$(uname -r)
	writable_system || die "a writable /usr and /usr/lib/modules"
	t_check "before the package, rpcrdma is the kernel's" intree_rpcrdma

	# No headers for the running kernel: DKMS cannot build.
	out=$(apt-get install -y "$deb" 2>&1)
	echo "$out" | tail -n 15
	t_check "apt-get install ./rpcrdma2-dkms_${version}_all.deb without headers: DKMS says they are missing" \
		grep -q "kernel headers for this kernel do not seem to be installed" <<< "$out"
	t_check "without headers, rpcrdma is still the kernel's" intree_rpcrdma

	# Debian's stock headers (the headers package's tree, unpacked in
	# the bed's cache), where DKMS looks for them.
	hdr=$(ls -d /root/.cache/rpcrdma2/headers/*/usr/src/linux-headers-"$kver" 2>/dev/null |
		head -n 1)
	[ -n "$hdr" ] || die "Debian's headers for $kver are not in the cache"
	ln -s "$hdr" "/lib/modules/$kver/build"
	# With the bed's compiler cache (scripts/vm/run --ccache), through
	# the switch Debian's headers have for it: the compiler runs ~20x
	# slower under TCG, and the same sources against the same headers
	# give the same objects.
	[ -z "${CCACHE_DIR:-}" ] || ccache --zero-stats > /dev/null
	t0=$EPOCHSECONDS
	out=$(DEBIAN_KERNEL_USE_CCACHE=${CCACHE_DIR:+1} dkms autoinstall -k "$kver" 2>&1)
	echo "$out" | tail -n 15
	echo "dkms autoinstall: $((EPOCHSECONDS - t0)) s${CCACHE_DIR:+,} $(ccache_summary)"
	t_check "with the headers, dkms autoinstall builds and installs rpcrdma2 $version" \
		bash -c "dkms status rpcrdma2 | grep -q '$version, $kver, .*: installed'"
	# (DKMS compresses them as the kernel's own are: rpcrdma.ko.xz)
	for m in rpcrdma xprtrdma svcrdma; do
		t_check "modinfo -n $m: updates/dkms/rpcrdma.ko*" \
			bash -c "case \$(modinfo -n $m) in /lib/modules/$kver/updates/dkms/rpcrdma.ko*) ;; *) false ;; esac"
	done

	# nfsd as nfs.conf says: rpc.nfsd writes "rdma 20049", which loads
	# svcrdma, the drop-in
	cp /etc/nfs.conf /tmp/nfs.conf.orig
	sed -i '/^\[nfsd\]/a rdma=y\nrdma-port=20049' /etc/nfs.conf
	vm_nfsd_up
	t_check "rpc.nfsd (nfs.conf rdma=y) listens on rdma 20049" \
		grep -qx "rdma 20049" /proc/fs/nfsd/portlist
	t_check "the loaded rpcrdma is the drop-in" dropin_loaded
	pair_wait up || die "the other guest never came up"

	# A's own client, proto=rdma and nothing else
	roundtrip "A mounts its own export, NFSv4.2" "$SERVER_IP:/" proto=rdma
	t_check "A to A: v2 (svcrdma2's connection)" test "$(conn_vers "$SERVER_IP")" = 2
	umount "$mnt"
	t_check "A's connections are gone" wait_for no_conns
	if mount -t nfs -o proto=rdma,nconnect=4 "$SERVER_IP:/" "$mnt"; then
		fio_verify "nconnect=4 to A" randrw 4k 1m
		t_check "nconnect=4: svcrdma2 serves 4 connections from A, all v2" \
			test "$(grep -c "^conn $SERVER_IP[^ ]* vers=2 " /proc/fs/svcrdma2/stats)" -eq 4
		umount "$mnt"
	else
		t_fail "mount -o proto=rdma,nconnect=4" "mount failed"
	fi
	roundtrip "A mounts B's export (in-tree server), NFSv4.2" "$CLIENT_IP:/" proto=rdma
	t_check "A to B: v1 (A's client fell back)" test "$(xprt_stat vers)" = 1
	umount "$mnt"
	roundtrip "A mounts B's export, NFSv3" "$CLIENT_IP:$EXPORT_DIR" proto=rdma,vers=3,nolock
	umount "$mnt"
	pair_wait "a-done"

	# B mounts A's export
	if pair_wait "b-mounted" 900; then
		t_check "B's stock client is served in v1 (svcrdma2's connection)" \
			test "$(conn_vers "$CLIENT_IP")" = 1
	fi
	pair_wait "b-checked"
	pair_wait "b-done" 900

	# Removal: the package goes, the in-tree module comes back
	vm_nfsd_down
	cp /tmp/nfs.conf.orig /etc/nfs.conf
	t_check "apt-get remove rpcrdma2-dkms" apt-get remove -y rpcrdma2-dkms
	# (its files are gone: modprobe -r would not find them)
	t_check "the loaded drop-in unloads (rmmod)" \
		rmmod rpcrdma svcrdma2 xprtrdma2 rpcrdma2_common
	t_check "after removal, rpcrdma is the kernel's" intree_rpcrdma
	vm_nfsd_up rdma 20049
	t_check "the in-tree rpcrdma serves again" \
		bash -c '[ -d /sys/module/rpcrdma ] && [ ! -e /sys/module/rpcrdma/version ]'
	pair_wait "removed"
	roundtrip "after removal, A mounts B's export (in-tree both sides)" "$CLIENT_IP:/" proto=rdma
	umount "$mnt"
	pair_wait "b-after-removal" 900
	vm_nfsd_down
}

# Debian's build: its maintainers' address and its package version,
# "... (debian-kernel@lists.debian.org) ... Debian 6.12.117-1~deb12u1 (date)"
debian_build() {
	grep -qF '(debian-kernel@lists.debian.org)' /proc/version &&
		grep -qF "Debian $KVER_DEB (" /proc/version
}
# none of our modules is offered (scripts/vm/run) or loaded, and the
# kernel is not one of our test kernels (6.12.117-rpcrdma2)
none_of_ours() {
	! grep -q rpcrdma2 /proc/version && [ -z "${RPCRDMA2_MODDIR:-}" ] &&
		! grep -qE '^(rpcrdma2_[a-z_]*|svcrdma2|xprtrdma2|rpcrdma2_test_[a-z_]*) ' /proc/modules
}
# MODULE is loaded, from the stock package's tree, and in-tree
stock_module() {
	[ -d "/sys/module/$1" ] &&
		[[ $(modinfo -n "$1") == /lib/modules/$(uname -r)/kernel/* ]] &&
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

client() {
	t_check "B: uname -r is Debian's $KVER_ABI-amd64" test "$(uname -r)" = "$KVER_ABI-amd64"
	t_check "B: /proc/version is Debian's build of $KVER_DEB" debian_build
	t_check "B: no rpcrdma2 kernel, none of our modules offered or loaded" none_of_ours
	t_check "B: rdma_rxe from Debian's package" stock_module rdma_rxe
	# No modprobe of rpcrdma: nfsd asks for "svcrdma", an alias of
	# rpcrdma, when the listener is written to portlist.
	vm_nfsd_up rdma 20049
	t_check "B: nfsd lists rdma 20049" grep -qx 'rdma 20049' /proc/fs/nfsd/portlist
	t_check "B: rpcrdma autoloaded from Debian's package" stock_module rpcrdma
	t_check "B: nfsd from Debian's package" stock_module nfsd

	# While A builds: B's client on B's server, over rxe loopback
	if mount -t nfs -o vers=4.2,proto=rdma "$CLIENT_IP:/" "$mnt"; then
		t_pass "B mounts itself: NFSv4.2 proto=rdma (default port)"
		t_check "B on itself: over rdma to port 20049" \
			grep -Eq "^$CLIENT_IP:/ $mnt nfs4 .*proto=rdma,.*port=20049" /proc/mounts
		t_check "B: nfs from Debian's package" stock_module nfs
		fio_verify "B on itself" randwrite 4k 4m
		fio_verify "B on itself" write 1m 16m
		nfs_roundtrip "B on itself" "$mnt" 8
		t_check "B on itself: umount" umount "$mnt"
	else
		t_fail "B mounts itself: NFSv4.2 proto=rdma (default port)" "mount failed"
	fi
	# (A reaches "up" after DKMS's build: ~450 s, longer on a busy host)
	pair_wait up 1500 || die "the other guest never came up"
	pair_wait "a-done" 1500
	t_check "B (stock) mounts A's export, NFSv4.2: mount -o proto=rdma" \
		mount -t nfs -o proto=rdma "$SERVER_IP:/" "$mnt"
	pair_wait "b-mounted" && pair_wait "b-checked"
	nfs_roundtrip "B (stock) on A's export, NFSv4.2" "$mnt" 2
	umount "$mnt"
	roundtrip "B (stock) mounts A's export, NFSv3" "$SERVER_IP:$EXPORT_DIR" proto=rdma,vers=3,nolock
	umount "$mnt"
	pair_wait "b-done"
	pair_wait "removed" 900
	roundtrip "after A's removal, B mounts A's export (in-tree both sides)" "$SERVER_IP:/" proto=rdma
	umount "$mnt"
	pair_wait "b-after-removal"
	vm_nfsd_down
	t_check "B: rpcrdma unloads once unused" rmmod_when_free rpcrdma
	lsmod > "$RESULTS/lsmod"
	t_check "B: every module loaded was in-tree and validly signed" untainted_modules
}

pair_run
