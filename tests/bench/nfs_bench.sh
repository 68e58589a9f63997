#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench` guest script (no-debug kernel): NFSv4.2 over five
# client/server pairs in the same VM run:
#   v2   our client (proto=rdma2)   -> svcrdma2 ("rdma2 20049"), version 2
#   fb   our client (proto=rdma2)   -> in-tree svcrdma ("rdma 20050"), v1
#        after the fallback
#   r2   in-tree client (proto=rdma) -> svcrdma2, version 1
#   ref  in-tree client (proto=rdma) -> in-tree svcrdma, the reference
#   tcp  nfsd over TCP (2049)
# Workloads: 4 KiB random read QD16, 1 MiB sequential read and write (fio,
# BENCH_TIME s each, direct I/O), and create+stat+unlink of META_FILES
# files. For the metadata run the client's mountstats xprt line is taken
# before and after, and the table gives the RDMA operations per RPC.
# Prints tables; figures, not a pass/fail test. Each pair runs twice, in
# the order v2 fb r2 ref tcp tcp ref r2 fb v2, and the tables give the
# mean (counters: the sum): whatever drifts during the run (the host, the
# guest warming up) weighs on all of them alike. A pair whose mount fails
# is marked in the table and the others go on. After the ten passes each
# RDMA pair runs the metadata workload once more with tracepoints on, for
# tests/bench/meta_split.py's table of where an RPC's time goes (rxe,
# sunrpc, nfsd, and each transport's own code).
# Usage (in the guest): nfs_bench.sh [BENCH_TIME [META_FILES]]
. "$(dirname "$0")/../vm/lib.sh"

BENCH_TIME=${1:-10}
META_FILES=${2:-1000}

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
# rpc.nfsd already listens on TCP 2049
grep -q "^tcp 2049$" /proc/fs/nfsd/portlist || die "bench: no tcp 2049"

mnt=/tmp/mnt
mkdir -p "$mnt"
res=/tmp/bench
mkdir -p "$res"

# fio_run NAME ARGS...: one fio job, JSON output in $res/NAME.json
fio_run() {
	local name=$1
	shift
	fio --name="$name" --directory="$mnt" --direct=1 --time_based \
		--runtime="$BENCH_TIME" --ramp_time=2 --output-format=json \
		--output="$res/$name.json" "$@" > /dev/null 2>&1 ||
		echo "bench: fio $name exited $?"
}

# metadata ops/s: create+stat+unlink META_FILES files, one process
meta_run() {
	python3 - "$mnt/meta" "$META_FILES" <<'PY'
import os, sys, time
d, n = sys.argv[1], int(sys.argv[2])
os.mkdir(d)
t = time.monotonic()
for i in range(n):
    p = os.path.join(d, "f%d" % i)
    open(p, "w").close()
    os.stat(p)
    os.unlink(p)
print("%.1f" % (3 * n / (time.monotonic() - t)))
os.rmdir(d)
PY
}

# the mount's xprt: line of /proc/self/mountstats (one NFS mount at a time)
xprt_line() {
	awk '$1 == "xprt:" { $1 = ""; print; exit }' /proc/self/mountstats
}

# one TAG PROTO PORT: mount, lay out, the four workloads, unmount
one() {
	local tag=$1 proto=$2 port=$3 pass
	# the pass (1 or 2) goes into the result file names
	if [ -e "$res/$tag-1.mounted" ] || [ -e "$res/$tag-1.failed" ]; then
		pass=2
	else
		pass=1
	fi
	tag=$tag-$pass
	echo "bench: $tag: proto=$proto port=$port"
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		echo "bench: $tag: mount -o vers=4.2,proto=$proto,port=$port failed"
		touch "$res/$tag.failed"
		return
	fi
	xprt_line > "$res/$tag.mounted"
	# lay the file out first so reads measure reads
	fio --name=lay --directory="$mnt" --rw=write --bs=1m --size=256m \
		--filename=data --output=/dev/null > /dev/null 2>&1 ||
		echo "bench: $tag: lay-out fio exited $?"
	fio_run "$tag-randread" --filename=data --size=256m --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=16
	fio_run "$tag-seqread" --filename=data --size=256m --rw=read \
		--bs=1m --ioengine=libaio --iodepth=4
	fio_run "$tag-seqwrite" --filename=data --size=256m --rw=write \
		--bs=1m --ioengine=libaio --iodepth=4
	xprt_line > "$res/$tag-meta.xprt0"
	cat /proc/self/mountstats > "$res/$tag-meta.stats0"
	meta_run > "$res/$tag-meta"
	xprt_line > "$res/$tag-meta.xprt1"
	cat /proc/self/mountstats > "$res/$tag-meta.stats1"
	rm -f "$mnt/data"
	umount "$mnt" || {
		echo "bench: $tag: umount failed; lazy unmount"
		umount -l "$mnt"
	}
}

# split_run TAG PROTO PORT: the metadata workload once more with the
# tracepoints of tests/bench/meta_split.py on, for its table of where an
# RPC's time goes. Tracing slows it: not one of the passes above.
split_run() {
	local tag=$1 proto=$2 port=$3 tr=/sys/kernel/tracing e
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		echo "bench: split $tag: mount -o vers=4.2,proto=$proto,port=$port failed"
		return
	fi
	echo > "$tr/trace"
	for e in $split_events; do echo 1 > "$tr/events/$e/enable"; done
	meta_run > "$res/split-$tag-meta"
	for e in $split_events; do echo 0 > "$tr/events/$e/enable"; done
	cp "$tr/trace" "$res/split-$tag.trace"
	umount "$mnt" || {
		echo "bench: split $tag: umount failed; lazy unmount"
		umount -l "$mnt"
	}
}

# the host's time, from the mtime the host gives a file on the results share
host_now() {
	: > "$RESULTS/.clock"
	stat -c %.Y "$RESULTS/.clock"
}

t0=$(date +%s.%N) h0=$(host_now)
for t in "v2 rdma2 $NFS_V2_PORT" "fb rdma2 $NFS_V1_PORT" \
	"r2 rdma $NFS_V2_PORT" "ref rdma $NFS_V1_PORT" "tcp tcp 2049" \
	"tcp tcp 2049" "ref rdma $NFS_V1_PORT" "r2 rdma $NFS_V2_PORT" \
	"fb rdma2 $NFS_V1_PORT" "v2 rdma2 $NFS_V2_PORT"; do
	# shellcheck disable=SC2086
	one $t
done
t1=$(date +%s.%N) h1=$(host_now)
rm -f "$RESULTS/.clock"
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo global > /sys/kernel/tracing/trace_clock
echo 16384 > /sys/kernel/tracing/buffer_size_kb
split_events=$(python3 "$(dirname "$0")/meta_split.py" --events)
for t in "v2 rdma2 $NFS_V2_PORT" "fb rdma2 $NFS_V1_PORT" \
	"r2 rdma $NFS_V2_PORT" "ref rdma $NFS_V1_PORT"; do
	# shellcheck disable=SC2086
	split_run $t
done
# every rate here is measured with the guest's clock: say whether it kept
# time (scripts/vm/run --host-clock)
printf 'bench: the ten passes took %.0f s (host clock: %.0f s; %s clocksource)' \
	"$(bc <<<"$t1 - $t0")" "$(bc <<<"$h1 - $h0")" \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo " (BENCH_TIME=$BENCH_TIME, META_FILES=$META_FILES)"

rm -rf "$RESULTS/raw"
cp -r "$res" "$RESULTS/raw"
python3 "$(dirname "$0")/report.py" "$res" "$(date -u +%F)" "$META_FILES"
echo
python3 "$(dirname "$0")/meta_split.py" "$res" "$META_FILES" v2 fb r2 ref
head -1 /proc/fs/svcrdma2/stats
vm_nfsd_down
