#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xprtrdma2 under faults: the Soft-RoCE device deleted and re-added under
# a hard mount that keeps working (every operation completes, no error,
# the data checked), the transport reconnecting and staying in the
# version it negotiated; then the device gone for good under a mount,
# and umount still returns. The VM runner fails the run on any
# KASAN/lockdep/hung-task report or kmemleak leak.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_nfsd_up rdma2 "$NFS_V2_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

kmount() { mount -i -t nfs -o "$1,addr=$GUEST_IP" "$2" "$mnt"; }
xprt_field() {
	awk -v n="$1" '$1 == "xprt:" && $2 == "rdma2" { print $(n + 1); exit }' \
		/proc/self/mountstats
}

# 1. The device goes away for 5 s and comes back while a workload runs:
# small files written, read back and compared, renamed and removed, so
# every Call fits the 1024-byte first message of a new connection.
t_check "mount NFSv4.2 proto=rdma2 (hard)" \
	kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT" "$GUEST_IP:/"
connects=$(xprt_field 4)
python3 - "$mnt/work" 40 > /tmp/workload.out 2>&1 <<'PY' &
import os, sys, time
d, secs = sys.argv[1], float(sys.argv[2])
os.mkdir(d)
end, n = time.time() + secs, 0
while time.time() < end:
    p = os.path.join(d, "f%06d" % n)
    data = (b"%06d" % n) * 40
    with open(p, "wb") as f:
        f.write(data)
    with open(p, "rb") as f:
        assert f.read() == data, "read back " + p
    os.rename(p, p + ".r")
    os.unlink(p + ".r")
    n += 1
os.rmdir(d)
print("workload: %d files" % n)
PY
workload=$!
sleep 8
t_check "rdma link delete rxe0 under the workload" rdma link delete rxe0
sleep 5
t_check "rdma link add rxe0 again" rdma link add rxe0 type rxe netdev eth0
t_check "rxe0 active again" \
	wait_for bash -c 'rdma link show rxe0/1 | grep -q ACTIVE'
if wait "$workload"; then
	t_pass "the workload ran through the outage with no error ($(cat /tmp/workload.out))"
else
	t_fail "the workload ran through the outage with no error" "$(cat /tmp/workload.out)"
fi
t_check "the transport reconnected (connects $connects -> $(xprt_field 4))" \
	[ "$(xprt_field 4)" -gt "$connects" ]
t_check "still version 2 after the reconnect" [ "$(xprt_field 12)" = 2 ]
nfs_roundtrip "after the outage" "$mnt" 1
t_check "umount" umount "$mnt"

# 2. The device goes away for good under an idle mount: umount returns.
# NFSv4 then still tries DESTROY_SESSION / DESTROY_CLIENTID, each for
# one RPC timeout with retransmissions; timeo=50,retrans=1 bounds that.
t_check "mount NFSv4.2 proto=rdma2 again" \
	kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,timeo=50,retrans=1" \
		"$GUEST_IP:/"
echo data > "$mnt/file" && sync
t_check "rdma link delete rxe0 for good" rdma link delete rxe0
t_check "umount -f returns with the device gone" timeout 180 umount -f "$mnt"
t_check "nothing left mounted" bash -c "! grep -q ' $mnt ' /proc/mounts"

t_check "the client lets go of xprtrdma2: rmmod" rmmod_when_free xprtrdma2
vm_nfsd_down
t_done
