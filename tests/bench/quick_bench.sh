#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A reduced `make bench` for iterating on the server (guest script,
# no-debug kernel): the in-tree client (proto=rdma, NFSv4.2) against
# svcrdma2 (r2) and the in-tree svcrdma (ref) only, ROUNDS rounds in the
# order r2 ref, ref r2, ...; WORKLOADS from seqwrite, seqread (1 MiB,
# QD4) and randread (4 KiB, QD16), BENCH_TIME s each. Prints each pass's
# Send Queue waits (the svcrdma2_sq_full / svcrdma_sq_full tracepoints),
# then per workload every pass's MB/s (IOPS for randread) and the ratio
# of the means, r2 : ref. On the host:
#   scripts/vm/run --flavour nodebug --host-clock --timeout 1200 \
#	tests/bench/quick_bench.sh [BENCH_TIME [ROUNDS [WORKLOADS]]]
. "$(dirname "$0")/../vm/lib.sh"

BENCH_TIME=${1:-5}
ROUNDS=${2:-2}
WORKLOADS=${3:-"seqwrite seqread"}

vm_rxe_up
vm_load_svcrdma2
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"
res=/tmp/bench
mkdir -p "$res"
# Send Queue waits of each server, counted per pass
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo 1 > /sys/kernel/tracing/events/rpcrdma2/svcrdma2_sq_full/enable
echo 1 > /sys/kernel/tracing/events/rpcrdma/svcrdma_sq_full/enable

one() {
	local tag=$1 port=$2 w a
	kmount "vers=4.2,proto=rdma,port=$port" "$GUEST_IP:/" || die "mount $tag"
	fio --name=lay --directory="$mnt" --rw=write --bs=1m --size=256m \
		--filename=data --output=/dev/null > /dev/null 2>&1
	for w in $WORKLOADS; do
		case $w in
		seqwrite) a="--rw=write --bs=1m --iodepth=4" ;;
		seqread) a="--rw=read --bs=1m --iodepth=4" ;;
		randread) a="--rw=randread --bs=4k --iodepth=16" ;;
		esac
		# shellcheck disable=SC2086
		fio --name="$tag-$w" --directory="$mnt" --direct=1 --time_based \
			--runtime="$BENCH_TIME" --ramp_time=1 --output-format=json \
			--filename=data --size=256m --ioengine=libaio $a \
			--output="$res/$tag-$w-$3.json" > /dev/null 2>&1 ||
			echo "fio $tag $w exited $?"
	done
	rm -f "$mnt/data"
	umount "$mnt"
	echo "pass $tag-$3: sq_full events: $(grep -c 'sq_full:' /sys/kernel/tracing/trace)"
	echo > /sys/kernel/tracing/trace
}

for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) -eq 1 ]; then
		one r2 "$NFS_V2_PORT" "$r"
		one ref "$NFS_V1_PORT" "$r"
	else
		one ref "$NFS_V1_PORT" "$r"
		one r2 "$NFS_V2_PORT" "$r"
	fi
done
python3 - "$res" "$WORKLOADS" <<'PY'
import json, glob, os, sys
res, wl = sys.argv[1], sys.argv[2].split()
for w in wl:
    v = {}
    for tag in ("r2", "ref"):
        xs = []
        for f in sorted(glob.glob(os.path.join(res, "%s-%s-*.json" % (tag, w)))):
            j = json.load(open(f))["jobs"][0]
            d = j["read"] if "read" in w else j["write"]
            xs.append(d["iops"] if w == "randread" else d["bw"] / 1024.0)
        v[tag] = xs
    m = {t: sum(x) / len(x) for t, x in v.items() if x}
    # each round's own ratio too: the host's load drifts between rounds
    rr = sorted(a / b for a, b in zip(v["r2"], v["ref"]) if b)
    print("%-9s r2 %s ref %s ratio %.3f (per round: %s; median %.3f)" % (w,
        " ".join("%.1f" % x for x in v["r2"]),
        " ".join("%.1f" % x for x in v["ref"]), m["r2"] / m["ref"],
        " ".join("%.2f" % x for x in rr), rr[len(rr) // 2]))
PY
head -1 /proc/fs/svcrdma2/stats
vm_nfsd_down
