#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client transport's chunks (increment 2): FRWR registration, Long
# Calls (Position-Zero Read chunk), Long Replies (Reply chunk) and
# invalidation, against svcrdma2 on 20049 (v2, which sends Send With
# Invalidate of rdma_inv_handle) and the in-tree svcrdma on 20050 (v1):
# 8 MiB round trip, fio verify (random 4k, sequential 1M: 1 MiB WRITEs
# and READs all move through chunks), a READDIR of 1500 long names after
# drop_caches; mountstats and the server's counters agree. Then a
# reconnect while dd writes 1 MiB blocks on a hard mount: the WRITE
# retransmitted as the first Call of the new connection goes as a Long
# Call, the data is intact and the connection is v2 again. Last, the
# device gone for good under a mount: umount -f returns and the module
# unloads.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

# xprt_field N (lib.sh): our mountstats fields;
# Documentation/xprtrdma2.rst numbers them: 12 version, 17 bad replies,
# 27 long calls, 28 reply chunks, 29 MRs registered, 30 remote
# invalidations matched, 31 not matched, 32 local invalidations, 33 bad
# Reply chunks.
# 1500 names of 60 bytes, made on the server's side (creating them over
# NFS takes minutes under TCG): READDIR replies far over any inline
# threshold, read after drop_caches.
big_readdir() {
	local name=$1
	t_check "$name READDIR of 1500 long names after drop_caches" \
		python3 - "$EXPORT_DIR/dir" "$mnt/dir" 1500 <<'PY'
import os, shutil, sys
local, remote, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = ["a-rather-long-file-name-to-make-readdir-replies-big-%07d" % i
         for i in range(n)]
os.mkdir(local)
for f in names:
    open(os.path.join(local, f), "w").close()
open("/proc/sys/vm/drop_caches", "w").write("3")
try:
    assert sorted(os.listdir(remote)) == names, "readdir after drop_caches"
finally:
    shutil.rmtree(local)
PY
}

# gt0 / eq0 NAME FIELD: mountstats field FIELD is above zero / zero
gt0() { t_check "$1 (field $2 = $(xprt_field "$2"))" [ "$(xprt_field "$2")" -gt 0 ]; }
eq0() { t_check "$1 (field $2 = $(xprt_field "$2"))" [ "$(xprt_field "$2")" = 0 ]; }

# chunk_case NAME PORT VERS: mount NFSv4.2, move data, check counters
chunk_case() {
	local name=$1 port=$2 vers=$3 r0 c0 i0
	r0=$(svc_stat read_chunks) c0=$(svc_stat reply_chunks)
	i0=$(svc_stat send_with_inv)
	if ! kmount "vers=4.2,proto=rdma2,port=$port" "$GUEST_IP:/"; then
		t_fail "$name mounts" "mount failed"
		return
	fi
	t_pass "$name mounts"
	rsize=$(sed -n "s|.* $mnt .*rsize=\([0-9]*\),wsize=\([0-9]*\).*|\1 \2|p" /proc/mounts)
	t_check "$name: rsize wsize ($rsize) well over the inline threshold" \
		[ "${rsize% *}" -ge 65536 -a "${rsize#* }" -ge 65536 ]
	nfs_roundtrip "$name" "$mnt" 8
	fio_verify "$name" randrw 4k 2m
	fio_verify "$name" write 1m 8m
	rm -f "$mnt"/randrw4k.* "$mnt"/write1m.*
	big_readdir "$name"
	t_check "$name: version $vers" [ "$(xprt_field 12)" = "$vers" ]
	eq0 "$name: no reply discarded" 17
	gt0 "$name: Long Calls sent" 27
	gt0 "$name: Reply chunks offered" 28
	gt0 "$name: MRs registered" 29
	gt0 "$name: LOCAL_INV posted" 32
	eq0 "$name: no foreign remote invalidation" 31
	eq0 "$name: no Reply chunk refused" 33
	if [ "$vers" = 2 ]; then
		gt0 "$name: remote invalidations matched" 30
		# one Position-Zero Read chunk per Long Call; every Send With
		# Invalidate it sent invalidated one of the answered RPC's MRs
		t_check "$name: svcrdma2 read as many Read chunks as we sent Long Calls ($r0 -> $(svc_stat read_chunks))" \
			[ "$(($(svc_stat read_chunks) - r0))" = "$(xprt_field 27)" ]
		t_check "$name: svcrdma2 wrote our Reply chunks ($c0 -> $(svc_stat reply_chunks))" \
			[ "$(svc_stat reply_chunks)" -gt "$c0" ]
		t_check "$name: svcrdma2's Sends With Invalidate all matched ($i0 -> $(svc_stat send_with_inv))" \
			[ "$(($(svc_stat send_with_inv) - i0))" = "$(xprt_field 30)" ]
		t_check "$name: svcrdma2 wrote no more Reply chunks than offered" \
			[ "$(($(svc_stat reply_chunks) - c0))" -le "$(xprt_field 28)" ]
	fi
	grep "xprt:.*rdma2" /proc/self/mountstats
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

chunk_case "rdma2 -> svcrdma2 (v2)" "$NFS_V2_PORT" 2
t_check "tracepoints: MRs mapped" [ "$(trace_count xprtrdma2_mr_map)" -gt 0 ]
t_check "tracepoints: Long Calls" [ "$(trace_count xprtrdma2_long_call)" -gt 0 ]
t_check "tracepoints: LOCAL_INV completions" \
	[ "$(trace_count xprtrdma2_wc_localinv)" -gt 0 ]
chunk_case "rdma2 -> in-tree svcrdma (v1)" "$NFS_V1_PORT" 1

# Reconnect while 1 MiB WRITEs are in flight on a hard mount: the
# retransmitted WRITE is the first Call on the new connection, which
# must fit 1024 bytes inline (draft §7): it goes as a Long Call.
name="reconnect during dd"
src=/tmp/reconnect.src
dd if=/dev/urandom of="$src" bs=1M count=8 status=none
want=$(sha256sum < "$src")
if kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,hard" "$GUEST_IP:/"; then
	c0=$(xprt_field 4)
	dd if="$src" of="$mnt/rc" bs=1M oflag=direct status=none &
	ddpid=$!
	sleep 0.5
	rdma link delete rxe0
	sleep 3
	rdma link add rxe0 type rxe netdev eth0
	if wait "$ddpid"; then
		t_pass "$name: dd completes"
	else
		t_fail "$name: dd completes" "dd failed"
	fi
	echo 3 > /proc/sys/vm/drop_caches
	t_check "$name: data intact" [ "$(sha256sum < "$mnt/rc")" = "$want" ]
	t_check "$name: reconnected ($c0 -> $(xprt_field 4) connects)" \
		[ "$(xprt_field 4)" -gt "$c0" ]
	t_check "$name: still version 2 after the reconnect" \
		[ "$(xprt_field 12)" = 2 ]
	eq0 "$name: no Call too big" 24
	grep "xprt:.*rdma2" /proc/self/mountstats
	rm -f "$mnt/rc"
	umount "$mnt"
else
	t_fail "$name mounts" "mount failed"
fi
rm -f "$src"

# The device goes away for good under a mount: umount returns. NFSv4
# then still tries DESTROY_SESSION / DESTROY_CLIENTID, each for one RPC
# timeout with retransmissions (timeo=50,retrans=1 bounds that), and the
# module unloads once the NFS client has given up.
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
