#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What bounds 1 MiB sequential I/O against perftest (guest script,
# no-debug kernel, two vCPUs): `make bench` runs fio's 1 MiB jobs at
# QD4 and perftest at its default depth (128 work requests). This runs,
# ROUNDS times, ib_read_bw and ib_write_bw at 4 and 128 in flight, then
# for our pair (v2) and the in-tree one (ref) 1 MiB sequential write and
# read at QD4 and QD16, each with how busy the guest's two vCPUs were
# (/proc/stat), and prints each figure's MB/s. On the host:
#   scripts/vm/run --flavour nodebug --smp 2 --host-clock --timeout 1800 \
#	tests/bench/depth_bench.sh [BENCH_TIME [ROUNDS]]
. "$(dirname "$0")/../vm/lib.sh"

BENCH_TIME=${1:-10}
ROUNDS=${2:-2}
vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

# ticks: busy and all ticks of both vCPUs so far
ticks() {
	local -a f
	read -ra f < /proc/stat
	echo $((f[1] + f[2] + f[3] + f[6] + f[7])) \
		$((f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7]))
}

# busy B0 A0: the share of the ticks since (B0, A0) that were busy
busy() {
	local -a s
	read -ra s <<<"$(ticks)"
	echo "$(((s[0] - $1) * 100 / (s[1] - $2 > 0 ? s[1] - $2 : 1)))%"
}

# wire NAME DEPTH: perftest's 1 MiB bandwidth with DEPTH in flight
wire() {
	local name=$1 depth=$2 srv bw
	local -a s
	timeout 150 "$name" -d rxe0 -F -s 1048576 -D "$BENCH_TIME" -t "$depth" \
		--report_gbits > /dev/null 2>&1 &
	srv=$!
	wait_for bash -c "ss -Hltn 'sport = :18515' | grep -q ." ||
		echo "depth: $name: the server does not listen"
	read -ra s <<<"$(ticks)"
	bw=$(timeout 120 "$name" -d rxe0 -F -s 1048576 -D "$BENCH_TIME" \
		-t "$depth" --report_gbits "$GUEST_IP" 2>&1 |
		awk '/#bytes/ { getline; print $4 * 125 }')
	echo "depth: $name, $depth in flight: ${bw:-?} MB/s, guest busy $(busy "${s[@]}")"
	wait "$srv" || true
}

# nfs TAG PROTO PORT: 1 MiB sequential write and read at QD4 and QD16
nfs() {
	local tag=$1 proto=$2 port=$3 rw qd bw
	local -a s
	kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/" ||
		die "depth: mount -o vers=4.2,proto=$proto,port=$port"
	fio --name=lay --directory="$mnt" --rw=write --bs=1m --size=256m \
		--filename=data --output=/dev/null > /dev/null 2>&1
	for rw in write read; do
		for qd in 4 16; do
			read -ra s <<<"$(ticks)"
			bw=$(fio --name=d --directory="$mnt" --filename=data \
				--size=256m --rw="$rw" --bs=1m --ioengine=libaio \
				--iodepth="$qd" --direct=1 --time_based \
				--runtime="$BENCH_TIME" --output-format=json |
				python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
side = j["write"] if j["write"]["io_bytes"] else j["read"]
print("%.1f" % (side["bw"] / 1024.0 * 1.048576))')
			echo "depth: $tag 1 MiB $rw, QD$qd: ${bw:-?} MB/s, guest busy $(busy "${s[@]}")"
		done
	done
	rm -f "$mnt/data"
	umount "$mnt"
}

for ((r = 1; r <= ROUNDS; r++)); do
	echo "depth: round $r"
	for d in 4 128; do
		wire ib_read_bw $d
		wire ib_write_bw $d
	done
	nfs v2 rdma2 "$NFS_V2_PORT"
	nfs ref rdma "$NFS_V1_PORT"
done
vm_nfsd_down
