#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The drop-in rpcrdma.ko (dropin/), installed as DKMS installs it: in
# updates/dkms beside the three rpcrdma2 modules, depmod run. Then:
# - modinfo and modprobe resolve rpcrdma and the in-tree module's aliases
#   (xprtrdma, svcrdma, rpcrdma6) to ours, dependencies included;
# - while the in-tree rpcrdma is loaded, ours cannot load beside it
#   (same module name: -EEXIST before any of its code runs), and the
#   in-tree module keeps working;
# - while another module has ident 256 or the svc class "rdma" (the
#   in-tree transport built in, another vendor's module), loading ours
#   fails with a message naming the clash and leaves nothing registered;
# - loaded, it serves what users already type: rpc.nfsd with nfs.conf
#   rdma=y (and rdma-port=20049) listens with svcrdma2, mount.nfs -o
#   proto=rdma mounts in v2 (port 20049 by default), NFSv3 and NFSv4.2
#   data verified, READ and not READ_PLUS (ident 256), nfsd's
#   NFSv4.1+ callbacks run over it (a delegation recall), nconnect=4
#   opens 4 connections, /proc/mounts says proto=rdma;
# - nfsd started as nfsdctl starts it (the nfsd netlink family's
#   LISTENER_SET "rdma", then THREADS_SET) listens with the drop-in and
#   serves v2; this kernel refuses a netlink listener named rdma2;
# - it cannot be unloaded under a mount; once unused it unloads, and
#   with the files removed (the package removed) modprobe gives the
#   in-tree module back.
. "$(dirname "$0")/lib.sh"

kver=$(uname -r)
M=$RPCRDMA2_MODDIR
mnt=/tmp/mnt
mkdir -p "$mnt"

# ours: the module in /sys/module has a version (the in-tree one has none)
dropin_loaded() { [ "$(cat /sys/module/rpcrdma/version 2>/dev/null)" = "$(cat "$RPCRDMA2_TOP/VERSION")" ]; }
intree_loaded() { [ -d /sys/module/rpcrdma ] && [ ! -e /sys/module/rpcrdma/version ]; }
refcnt() { cat "/sys/module/$1/refcnt"; }
# conn_vers N: every svcrdma2 connection runs version N
conn_vers() { grep '^conn ' /proc/fs/svcrdma2/stats | grep -qv " vers=$1 " && return 1; [ "$(conns)" -gt 0 ]; }

vm_rxe_up
modprobe sunrpc && modprobe rdma_cm && modprobe nfsd && modprobe nfsv4 && modprobe nfsv3 ||
	die "modprobe sunrpc rdma_cm nfsd nfs"

# A writable modules tree over the guest's, and the files as DKMS puts
# them (dkms.conf: DEST_MODULE_LOCATION /updates/dkms).
mkdir -p /run/mods/upper /run/mods/work
mount -t overlay overlay \
	-o lowerdir=/usr/lib/modules,upperdir=/run/mods/upper,workdir=/run/mods/work \
	/usr/lib/modules || die "overlay on /usr/lib/modules"
upd=/lib/modules/$kver/updates/dkms
mkdir -p "$upd"
cp "$M/common/rpcrdma2_common.ko" "$M/xprtrdma2/xprtrdma2.ko" \
	"$M/svcrdma2/svcrdma2.ko" "$M/dropin/rpcrdma.ko" "$upd/" || die "copy to updates/dkms"
t_check "depmod with the drop-in in updates/dkms" depmod -a "$kver"
for name in rpcrdma xprtrdma svcrdma rpcrdma6; do
	t_check "modinfo -n $name: updates/dkms/rpcrdma.ko" \
		test "$(modinfo -n "$name")" = "$upd/rpcrdma.ko"
done
t_check "modinfo rpcrdma: version $(cat "$RPCRDMA2_TOP/VERSION"), depends on xprtrdma2 and svcrdma2" \
	bash -c "modinfo rpcrdma | grep -qx 'version: *$(cat "$RPCRDMA2_TOP/VERSION")' &&
		modinfo -F depends rpcrdma | grep -qE '^(xprtrdma2,svcrdma2|svcrdma2,xprtrdma2)$'"

# The in-tree module loaded first, from its own file.
intree=/lib/modules/$kver/kernel/net/sunrpc/xprtrdma/rpcrdma.ko
t_check "the in-tree rpcrdma loads from its own file" insmod "$intree"
t_check "modprobe rpcrdma leaves the loaded in-tree module alone" \
	bash -c 'modprobe rpcrdma && [ -d /sys/module/rpcrdma ] && [ ! -e /sys/module/rpcrdma/version ]'
if out=$(insmod "$upd/rpcrdma.ko" 2>&1); then
	t_fail "the drop-in cannot load beside the in-tree rpcrdma" "insmod succeeded"
else
	echo "insmod: $out"
	t_check "the drop-in cannot load beside the in-tree rpcrdma (File exists)" \
		grep -q "File exists" <<< "$out"
fi
t_check "the in-tree rpcrdma is still the one loaded" intree_loaded
t_check "rmmod the in-tree rpcrdma" rmmod rpcrdma

# Squatters on the names: ident 256, then the svc class "rdma".
modprobe xprtrdma2 && modprobe svcrdma2 || die "modprobe xprtrdma2 svcrdma2"
fixture=$M/tests/modules/rpcrdma2_test_netid.ko
for squat in "ident=256" "svc_class=1"; do
	t_check "insmod a fixture holding $squat" insmod "$fixture" "$squat"
	dmesg -C
	if insmod "$upd/rpcrdma.ko" 2>/dev/null; then
		t_fail "with $squat taken, the drop-in refuses to load" "it loaded"
		rmmod rpcrdma
	else
		t_check "with $squat taken, the drop-in refuses to load and says why" \
			grep -q "rpcrdma: not loaded: another module already serves the RDMA transport" \
			<(dmesg)
	fi
	t_check "with $squat taken, nothing stays registered (xprtrdma2 and svcrdma2 unused)" \
		bash -c "[ ! -d /sys/module/rpcrdma ] && [ $(refcnt xprtrdma2) -eq 0 ] && [ $(refcnt svcrdma2) -eq 0 ]"
	t_check "rmmod the fixture ($squat)" rmmod rpcrdma2_test_netid
done
t_check "rmmod xprtrdma2 svcrdma2 rpcrdma2_common" rmmod xprtrdma2 svcrdma2 rpcrdma2_common

# As a boot would: rdma-core's udev rule asks for xprtrdma and svcrdma.
t_check "modprobe xprtrdma (the udev rule's name) loads the drop-in" \
	bash -c 'modprobe xprtrdma && modprobe svcrdma'
t_check "the loaded rpcrdma is the drop-in, with xprtrdma2 and svcrdma2" \
	bash -c "$(declare -f dropin_loaded); dropin_loaded && [ -d /sys/module/xprtrdma2 ] && [ -d /sys/module/svcrdma2 ]"
t_check "the drop-in says what it serves (dmesg)" \
	bash -c "dmesg | grep -q 'rpcrdma: rpcrdma2 .* serves netids rdma and rdma6'"

# nfsd as nfs.conf rdma=y starts it: rpc.nfsd writes "rdma 20049".
# (Debian 12's rpc.nfsd looks the default port up as "nfsrdma" in
# /etc/services, which netbase does not list: rdma-port is needed.)
cp /etc/nfs.conf /tmp/nfs.conf.orig
sed -i '/^\[nfsd\]/a rdma=y\nrdma-port=20049' /etc/nfs.conf
vm_trace_on
vm_nfsd_up
t_check "rpc.nfsd with rdma=y listens on rdma 20049" \
	grep -qx "rdma 20049" /proc/fs/nfsd/portlist
t_check "the drop-in holds the listeners (rpcrdma refcnt > 0)" test "$(refcnt rpcrdma)" -gt 0

t_check "mount.nfs -o proto=rdma,vers=4.2 (no port)" \
	mount -t nfs -o proto=rdma,vers=4.2 "$GUEST_IP:/" "$mnt"
t_check "/proc/mounts: proto=rdma,port=20049" \
	grep -Eq " $mnt nfs4 .*proto=rdma,port=20049[,\ ]" /proc/mounts
t_check "NFSv4.2 proto=rdma runs v2 (client)" test "$(xprt_stat vers)" = 2
t_check "NFSv4.2 proto=rdma runs v2 (svcrdma2)" conn_vers 2
# (fio through the same code in v2: tests/pair/interop.sh, two debug
# guests; the drop-in differs only in its name and transport ident)
nfs_roundtrip "NFSv4.2 proto=rdma drop-in" "$mnt" 1
# ident 256: the NFS client turns READ_PLUS off for RDMA (READ's data
# goes by RDMA Write straight into the pages)
t_check "NFSv4.2 on ident 256 reads with READ, never READ_PLUS (mountstats)" \
	bash -c "grep -Eq '^[[:space:]]+READ: [1-9]' /proc/self/mountstats && grep -Eq '^[[:space:]]+READ_PLUS: 0 ' /proc/self/mountstats"
t_check "mountstats names the transport rdma2's layout" \
	grep -q $'^\txprt:\trdma2 ' /proc/self/mountstats
# nfsd's callback client asks for XPRT_TRANSPORT_BC_RDMA: a recall
t_check "nfsd's callback channel is UP" \
	wait_for grep -qx 'callback state: UP' /proc/fs/nfsd/clients/*/info
echo data > "$EXPORT_DIR/deleg"
if t_check "the client holds a read delegation" hold_deleg; then
	echo "appended" >> "$EXPORT_DIR/deleg"
	t_check "a conflicting local open recalled it over the drop-in's backchannel" \
		wait_for bash -c '! grep -q "type: deleg" /proc/fs/nfsd/clients/*/states'
	exec 3<&-
fi
t_check "the recall went as reverse-direction Calls (cb_replies > 0)" \
	test "$(svc_stat cb_replies)" -gt 0
t_check "rmmod rpcrdma under a mount fails (in use)" bash -c '! rmmod rpcrdma 2>/dev/null'
t_check "umount NFSv4.2" umount "$mnt"

t_check "mount.nfs -o proto=rdma,vers=3" \
	mount -t nfs -o proto=rdma,vers=3,mountproto=tcp,nolock "$GUEST_IP:$EXPORT_DIR" "$mnt"
t_check "NFSv3 proto=rdma runs v2 (client)" test "$(xprt_stat vers)" = 2
nfs_roundtrip "NFSv3 proto=rdma drop-in" "$mnt" 1
t_check "umount NFSv3" umount "$mnt"

t_check "the earlier mounts' connections are gone" wait_for no_conns
t_check "mount.nfs -o proto=rdma,vers=4.2,nconnect=4" \
	mount -t nfs -o proto=rdma,vers=4.2,nconnect=4 "$GUEST_IP:/" "$mnt"
fio_verify "nconnect=4" randrw 4k 256k
# the client spreads RPCs over every transport of the switch
t_check "nconnect=4: 4 client transports, all v2" \
	bash -c '[ "$(grep -c "^xprt .* vers=2 " /proc/fs/xprtrdma2/stats)" -ge 4 ]'
t_check "nconnect=4: svcrdma2 serves 4 connections" test "$(conns)" -eq 4
t_check "umount nconnect=4" umount "$mnt"

# nfsd as nfsdctl starts it: the "nfsd" generic netlink family, whose
# LISTENER_SET takes only the names tcp, udp and rdma on this kernel.
# (Debian 12 has no nfsdctl; nfsd_netlink.py sends what it sends.)
nl() { python3 "$RPCRDMA2_TOP/tests/vm/nfsd_netlink.py" "$@"; }
rpc.nfsd 0
t_check "netlink: nfsd stopped, no listeners left" test -z "$(nl listeners)"
t_check "netlink: a listener named rdma2 is refused (EPROTONOSUPPORT)" \
	bash -c "$(declare -f nl); nl listen rdma2:0.0.0.0:$NFS_V2_PORT 2>&1 | grep -q EPROTONOSUPPORT"
t_check "netlink: LISTENER_SET tcp 2049 and rdma 20049 ([::] too)" \
	nl listen tcp:0.0.0.0:2049 tcp:[::]:2049 rdma:0.0.0.0:20049 rdma:[::]:20049
t_check "netlink: THREADS_SET 4 starts nfsd" nl threads 4
t_check "netlink: LISTENER_GET lists rdma 0.0.0.0 20049 and rdma :: 20049" \
	bash -c "$(declare -f nl); l=\$(nl listeners); grep -qx 'rdma 0.0.0.0 20049' <<< \"\$l\" && grep -qx 'rdma :: 20049' <<< \"\$l\""
t_check "netlink: the rdma listeners are the drop-in's (rpcrdma refcnt > 0)" \
	test "$(refcnt rpcrdma)" -gt 0
vm_nfsd_end_grace
t_check "netlink-started nfsd: mount.nfs -o proto=rdma,vers=4.2" \
	mount -t nfs -o proto=rdma,vers=4.2 "$GUEST_IP:/" "$mnt"
t_check "netlink-started nfsd: v2 (client)" test "$(xprt_stat vers)" = 2
t_check "netlink-started nfsd: v2 (svcrdma2)" conn_vers 2
nfs_roundtrip "netlink-started nfsd, proto=rdma" "$mnt" 1
t_check "umount (netlink-started nfsd)" umount "$mnt"

vm_nfsd_down
t_check "the drop-in unloads once unused" rmmod_when_free rpcrdma
t_check "rmmod xprtrdma2 svcrdma2 rpcrdma2_common" rmmod xprtrdma2 svcrdma2 rpcrdma2_common

# The package removed: the files go, depmod runs again.
rm -f "$upd"/*.ko
t_check "depmod without the drop-in" depmod -a "$kver"
t_check "modinfo -n rpcrdma: the in-tree file again" test "$(modinfo -n rpcrdma)" = "$intree"
t_check "modprobe rpcrdma loads the in-tree module" bash -c "modprobe rpcrdma && $(declare -f intree_loaded); intree_loaded"
# (the in-tree client with svcrdma2 on its own name, in v1:
# svcrdma2_v1.sh, and tests/pair/interop.sh with Debian's stock client)
cp /tmp/nfs.conf.orig /etc/nfs.conf
t_check "rmmod the in-tree rpcrdma" rmmod_when_free rpcrdma
t_done
