#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree v1 client (proto=rdma) against svcrdma2 ("rdma2 20049"):
# NFSv4.0, 4.1 and 4.2 mounts with data checked end to end; fio verify
# that forces Read chunks (WRITE payloads), Write chunks (READ payloads)
# and Reply chunks (big READDIR); a metadata workload on NFSv4.1 and 4.0;
# IPv6; the counters and tracepoints that prove each kind of transfer
# happened; then nfsd shutdown and rmmod. NFSv3, and random 4k I/O and
# the metadata workload on NFSv4.2, are tests/pair/interop.sh's: the
# stock kernel's in-tree client against svcrdma2 across the link.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
# A ULA on eth0 for the IPv6 mount (rxe adds its GID).
ip -6 addr add fd00::15/64 dev eth0 nodad
vm_load_svcrdma2
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT"
t_check "nfsd lists rdma2 $NFS_V2_PORT" \
	grep -q "^rdma2 $NFS_V2_PORT\$" /proc/fs/nfsd/portlist
t_check "rmmod svcrdma2 refused while nfsd listens on it" \
	bash -c '! rmmod svcrdma2 2>/dev/null'

mnt=/tmp/mnt
mkdir -p "$mnt"

mount_v() {
	local vers=$1 opts=$2 src=$3
	t_check "mount NFSv$vers proto=rdma on svcrdma2" \
		mount -t nfs -o "vers=$vers,proto=rdma,port=$NFS_V2_PORT$opts" "$src" "$mnt"
}

# NFSv4.2: the full workload.
mount_v 4.2 "" "$GUEST_IP:/"
t_check "NFSv4.2 mount is over rdma port $NFS_V2_PORT" \
	grep -Eq "^$GUEST_IP:/ $mnt nfs4 .*proto=rdma,.*port=$NFS_V2_PORT" /proc/mounts
nfs_roundtrip "NFSv4.2 svcrdma2" "$mnt" 4
# write, then read back and verify: O_DIRECT 1 MiB WRITEs and READs
fio_verify "NFSv4.2" write 1m 8m
# A 4000-byte symlink target goes as a DDP Read chunk inside a CREATE;
# READLINK brings it back through the Reply chunk.
target=$(printf 'd%.0s' $(seq 4000))
t_check "NFSv4.2 symlink with a 4000-byte target" ln -s "$target" "$mnt/longlink"
echo 3 > /proc/sys/vm/drop_caches
t_check "NFSv4.2 readlink returns all 4000 bytes" \
	test "$(readlink "$mnt/longlink")" = "$target"
rm -f "$mnt/longlink"
# A 6 KB NFSv4 ACL makes a SETATTR larger than the inline threshold with
# no DDP-eligible item: a Long Call (RDMA_NOMSG, Position-Zero Read chunk).
: > "$mnt/aclfile"
t_check "NFSv4.2 setxattr of a 6 KB ACL (Long Call)" python3 - "$mnt/aclfile" <<'PY'
import os, struct, sys
who = b"OWNER@"
ace = struct.pack(">IIII", 0, 0, 0x1, len(who)) + who + b"\0\0"
os.setxattr(sys.argv[1], "system.nfs4_acl", struct.pack(">I", 250) + ace * 250)
PY
rm -f "$mnt/aclfile"
t_check "umount NFSv4.2" umount "$mnt"

for v in 4.1 4.0; do
	mount_v "$v" "" "$GUEST_IP:/"
	nfs_roundtrip "NFSv$v svcrdma2" "$mnt" 1
	metadata "NFSv$v" 50
	t_check "umount NFSv$v" umount "$mnt"
done

# (NFSv3 of the in-tree client on svcrdma2: tests/pair/interop.sh with
# Debian's stock client, fio write and randrw and metadata across the link)

# IPv6: proto=rdma6 to the ULA.
t_check "mount NFSv4.2 proto=rdma6 on svcrdma2" \
	mount -t nfs -o "vers=4.2,proto=rdma6,port=$NFS_V2_PORT" "[fd00::15]:/" "$mnt"
nfs_roundtrip "NFSv4.2 IPv6 svcrdma2" "$mnt" 2
# A connection allocates the receive contexts it keeps posted (recv_cap /
# 2) and more only as Calls being served hold them; recv_cap is the bound
# for a client that ignores its grant (svcrdma2_ping.sh's floods).
line=$(grep '^conn .*fd00::15' /proc/fs/svcrdma2/stats | tail -1)
rc_n=$(sed -n 's/.* recv_ctxts=\([0-9]*\) .*/\1/p' <<<"$line")
rc_cap=$(sed -n 's/.* recv_cap=\([0-9]*\) .*/\1/p' <<<"$line")
t_check "receive contexts as the load needs: recv_ctxts=${rc_n:-?} of recv_cap=${rc_cap:-?}" \
	test -n "$rc_n" -a -n "$rc_cap" -a "${rc_n:-0}" -ge "$((${rc_cap:-0} / 2))" \
	-a "${rc_n:-0}" -lt "${rc_cap:-0}"
t_check "umount NFSv4.2 IPv6" umount "$mnt"

# What the counters and tracepoints say really happened.
cat /proc/fs/svcrdma2/stats
for c in msgs_v1 read_chunks write_chunks reply_chunks send_with_inv; do
	t_check "svcrdma2 counter $c > 0" test "$(svc_stat "$c")" -gt 0
done
t_check "no v2 messages from a v1 client" test "$(svc_stat msgs_v2)" -eq 0
for e in svcrdma2_accept svcrdma2_wc_recv svcrdma2_wc_send svcrdma2_wc_read \
	 svcrdma2_reply svcrdma2_decode_rqst; do
	t_check "tracepoint $e fired" test "$(trace_count "$e")" -gt 0
done
t_check "a Long Call arrived (RDMA_NOMSG with a Read chunk, tracepoint)" \
	grep -q "svcrdma2_decode_rqst:.* vers=v1 .*htype=RDMA_NOMSG read_chunks=1 .*rpc_len=0" /sys/kernel/tracing/trace
t_check "a reply went through a Reply chunk (tracepoint)" \
	grep -q "svcrdma2_reply:.*reply_chunk=1" /sys/kernel/tracing/trace
t_check "a reply used Send With Invalidate (tracepoint)" \
	grep -Eq "svcrdma2_reply:.*inv=0x[1-9a-f]" /sys/kernel/tracing/trace

vm_nfsd_down
t_check "rmmod svcrdma2 after nfsd stopped" rmmod svcrdma2
t_check "rmmod rpcrdma2_common" rmmod rpcrdma2_common
t_done
