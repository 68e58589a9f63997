#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench` guest script (no-debug kernel): the in-tree v1 client against
# (a) svcrdma2 ("rdma2 20049"), (b) the in-tree svcrdma ("rdma 20050") and
# (c) nfsd over TCP (2049), all NFSv4.2 in the same VM run. Prints one
# table; figures, not a pass/fail test. Each transport runs twice, in the
# order a b c c b a, and the table gives the mean: whatever drifts during
# the run (the host, the guest warming up) weighs on all three alike.
. "$(dirname "$0")/../vm/lib.sh"

BENCH_TIME=${BENCH_TIME:-10}
META_FILES=${META_FILES:-1000}

vm_rxe_up
vm_load_svcrdma2
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
		--output="$res/$name.json" "$@" > /dev/null 2>&1
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

one() {
	local tag=$1 proto=$2 port=$3
	# the pass (1 or 2) goes into the result file names
	pass=$(( $(ls "$res"/"$tag"-*-randread.json 2>/dev/null | wc -l) + 1 ))
	tag=$tag-$pass
	mount -t nfs -o "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/" "$mnt" ||
		die "bench: mount $tag"
	# lay the files out first so reads measure reads
	fio --name=lay --directory="$mnt" --rw=write --bs=1m --size=256m \
		--filename=data --output=/dev/null > /dev/null 2>&1
	fio_run "$tag-randread" --filename=data --size=256m --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=16
	fio_run "$tag-seqread" --filename=data --size=256m --rw=read \
		--bs=1m --ioengine=libaio --iodepth=4
	fio_run "$tag-seqwrite" --filename=data --size=256m --rw=write \
		--bs=1m --ioengine=libaio --iodepth=4
	meta_run > "$res/$tag-meta"
	rm -f "$mnt/data"
	umount "$mnt" || die "bench: umount $tag"
}

one rdma2 rdma "$NFS_V2_PORT"
one rdma rdma "$NFS_V1_PORT"
one tcp tcp 2049
one tcp tcp 2049
one rdma rdma "$NFS_V1_PORT"
one rdma2 rdma "$NFS_V2_PORT"

python3 - "$res" <<'PY'
import json, sys
res = sys.argv[1]
def fio1(tag, job, what):
    j = json.load(open("%s/%s-%s.json" % (res, tag, job)))["jobs"][0]
    side = j["read"] if j["read"]["io_bytes"] else j["write"]
    return side["iops"] if what == "iops" else side["bw"] / 1024.0
# the mean of the two passes
def fio(tag, job, what):
    return sum(fio1("%s-%d" % (tag, p), job, what) for p in (1, 2)) / 2
def meta(tag):
    return sum(float(open("%s/%s-%d-meta" % (res, tag, p)).read())
               for p in (1, 2)) / 2
rows = [
    ("4 KiB random read, QD16 (IOPS)", lambda t: fio(t, "randread", "iops")),
    ("1 MiB sequential read (MB/s)", lambda t: fio(t, "seqread", "bw") * 1.048576),
    ("1 MiB sequential write (MB/s)", lambda t: fio(t, "seqwrite", "bw") * 1.048576),
    ("metadata create+stat+unlink (ops/s)", meta),
]
print()
print("| NFSv4.2, in-tree v1 client | svcrdma2 (rdma2) | svcrdma (rdma) | TCP | svcrdma2 : svcrdma |")
print("|---|---|---|---|---|")
for name, f in rows:
    a, b, c = f("rdma2"), f("rdma"), f("tcp")
    print("| %s | %.1f | %.1f | %.1f | %.2f |" % (name, a, b, c, a / b if b else 0))
# each pass, so the spread shows
print()
for t in ("rdma2", "rdma", "tcp"):
    print("passes %s: " % t + "; ".join(
        "%.1f IOPS, %.1f/%.1f MB/s, %.1f ops/s" % (
            fio1("%s-%d" % (t, p), "randread", "iops"),
            fio1("%s-%d" % (t, p), "seqread", "bw") * 1.048576,
            fio1("%s-%d" % (t, p), "seqwrite", "bw") * 1.048576,
            float(open("%s/%s-%d-meta" % (res, t, p)).read()))
        for p in (1, 2)))
PY
cat /proc/fs/svcrdma2/stats | head -1
vm_nfsd_down
