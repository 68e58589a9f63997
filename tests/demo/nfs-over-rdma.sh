#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo` (see scripts/demo.sh): NFSv4.2 over our client
# transport (proto=rdma2) to our server (svcrdma2, "rdma2 20049") in
# RPC-over-RDMA Version 2, then the same copy over the in-tree transports
# (proto=rdma to "rdma 20050", Version 1) beside it, on Soft-RoCE.
. "$RPCRDMA2_TOP/tests/vm/lib.sh"
set -e

SIZE_MB=${1:-64}
mnt=/tmp/mnt
say() { printf '\n### %s\n' "$*"; }

say "Soft-RoCE device on eth0"
vm_rxe_up
rdma link show rxe0/1
ibv_devinfo -d rxe0 | grep -E 'hca_id|transport|state|active_mtu'

say "our modules: rpcrdma2_common, svcrdma2 (server), xprtrdma2 (client)"
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko"
grep -E '^(rpcrdma2_common|svcrdma2|xprtrdma2) ' /proc/modules | cut -d' ' -f1

say "nfsd exporting a tmpfs: rdma2 on $NFS_V2_PORT, in-tree rdma on $NFS_V1_PORT"
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
cat /proc/fs/nfsd/portlist

mkdir -p "$mnt"
dd if=/dev/urandom of=/tmp/src bs=1M count="$SIZE_MB" status=none
want=$(sha256sum < /tmp/src)
want=${want%% *}

# secs_since T0: seconds (3 decimals) since T0 (date +%s%N)
secs_since() { echo "scale=3; ($(date +%s%N) - $1) / 1000000000" | bc; }

# copy NAME: write $SIZE_MB MiB of random data to the mount (fsync), drop
# the page cache, read it back; MB/s of each and the checksum, in ROW
copy() {
	local t0 w r got
	say "$1: write $SIZE_MB MiB, drop the page cache, read it back"
	t0=$(date +%s%N)
	dd if=/tmp/src of="$mnt/file" bs=1M conv=fsync status=none
	w=$(secs_since "$t0")
	echo 3 > /proc/sys/vm/drop_caches
	t0=$(date +%s%N)
	dd if="$mnt/file" of=/tmp/back bs=1M status=none
	r=$(secs_since "$t0")
	got=$(sha256sum < /tmp/back)
	got=${got%% *}
	rm -f /tmp/back "$mnt/file"
	W=$(echo "scale=1; $SIZE_MB * 1.048576 / $w" | bc)
	R=$(echo "scale=1; $SIZE_MB * 1.048576 / $r" | bc)
	echo "write: $w s, $W MB/s; read: $r s, $R MB/s"
	echo "sha256 written: $want"
	echo "sha256 read:    $got"
	if [ "$got" = "$want" ]; then SUM=ok; else SUM=MISMATCH; fi
}

# our client cannot be mounted through mount.nfs: nfs-utils looks the
# netid up and does not know rdma2 (Documentation/xprtrdma2.rst); mount -i
# hands the options to the kernel as they are, with addr= given
cmd="mount -i -t nfs -o vers=4.2,proto=rdma2,port=$NFS_V2_PORT,addr=$GUEST_IP $GUEST_IP:/ $mnt"
say "$cmd"
$cmd
grep " $mnt " /proc/mounts
v2_vers=$(xprt_stat vers) v2_send=$(xprt_stat send_inline) v2_recv=$(xprt_stat recv_inline)
echo "/proc/fs/xprtrdma2/stats: version (vers) = $v2_vers," \
	"send inline threshold (send_inline) = $v2_send bytes," \
	"receive inline threshold (recv_inline) = $v2_recv bytes"
copy "rdma2 -> svcrdma2"
v2_w=$W v2_r=$R v2_sum=$SUM
say "transport statistics (mountstats xprt line: rdma2, fields in Documentation/xprtrdma2.rst)"
grep -m1 'xprt:' /proc/self/mountstats
say "the same counters by name (/proc/fs/xprtrdma2/stats)"
grep '^xprt ' /proc/fs/xprtrdma2/stats
umount "$mnt"

# the in-tree client shows its thresholds only in a tracepoint
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || true
echo > /sys/kernel/tracing/trace
echo 1 > /sys/kernel/tracing/events/rpcrdma/xprtrdma_inline_thresh/enable
cmd="mount -t nfs -o vers=4.2,proto=rdma,port=$NFS_V1_PORT $GUEST_IP:/ $mnt"
say "for comparison, the in-tree transports: $cmd"
$cmd
grep " $mnt " /proc/mounts
v1_th=$(sed -n 's|.*neg send/recv=\([0-9]*\)/\([0-9]*\).*|\1 \2|p' \
	/sys/kernel/tracing/trace | tail -n 1)
echo 0 > /sys/kernel/tracing/events/rpcrdma/xprtrdma_inline_thresh/enable
v1_send=${v1_th% *} v1_recv=${v1_th#* }
echo "in-tree client (tracepoint xprtrdma_inline_thresh): version 1," \
	"send inline threshold = ${v1_send:-?} bytes," \
	"receive inline threshold = ${v1_recv:-?} bytes"
copy "rdma -> svcrdma"
v1_w=$W v1_r=$R v1_sum=$SUM
umount "$mnt"
vm_nfsd_down

say "NFSv4.2, $SIZE_MB MiB of random data, Soft-RoCE loopback, no-debug kernel"
fmt='%-28s %-8s %-18s %-9s %-9s %s\n'
# shellcheck disable=SC2059
{
	printf "$fmt" transport version "inline send/recv" "write MB/s" \
		"read MB/s" "checksum"
	printf "$fmt" "rdma2 -> svcrdma2 (ours)" "$v2_vers" "$v2_send/$v2_recv" \
		"$v2_w" "$v2_r" "$v2_sum"
	printf "$fmt" "rdma -> svcrdma (in-tree)" 1 "${v1_send:-?}/${v1_recv:-?}" \
		"$v1_w" "$v1_r" "$v1_sum"
}
[ "$v2_sum" = ok ] && [ "$v1_sum" = ok ] && [ "$v2_vers" = 2 ]
say "demo done: NFSv4.2 over RPC-over-RDMA Version 2 on Soft-RoCE, data verified"
