#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A soak across the link of two guests (scripts/vm/pair): one NFSv4.2
# mount of the client (ours, or the stock kernel's with --client stock)
# on the server (svcrdma2, or the stock kernel's), mixed I/O for MINUTES
# (sequential and random writes verified by fio, and a metadata workload)
# while the client injects faults at random from SEED: netem loss or delay
# with reordering on both NICs, the link down (both NICs drop all they
# send) for longer than the QP's retry limit, the server's nfsd restarted.
# At the end a table: bytes written and verified, faults by kind,
# reconnects, RPCs retransmitted, errors (must be 0), and slab memory on
# both guests at the start and the end.
#
# Usage (make soak): scripts/vm/pair ... tests/pair/soak.sh [MINUTES [SEED]]
. "$(dirname "$0")/../vm/lib.sh"

SOAK_MIN=${1:-2}
SOAK_SEED=${2:-$((($(date +%s) % 32768)))}
LINK_DOWN_S=15
# how long the I/O may take to end once the soak is over
SOAK_DRAIN_S=300

pair_up
# (for the post-mortem of a stuck round)
vm_trace_on

# stuck_dump: this guest's RDMA state, for the post-mortem of a stuck
# round (a QP in the error state, the CM's GSI QP among them, shows here).
stuck_dump() {
	{
		rdma res show qp
		rdma res show cm_id
		ip -s link show link0
		grep -H . /sys/class/infiniband/rxe0/ports/1/hw_counters/* 2>/dev/null
		dmesg | tail -n 50
	} > "$RESULTS/rdma-stuck" 2>&1
}

slab_kb() { sed -n 's/^Slab: *\([0-9]*\) kB/\1/p' /proc/meminfo; }

# The server does what the client's commands say, until "stop".
server() {
	local n=0 kind secs
	pair_put slab.server.start "$(slab_kb)"
	while pair_await "cmd.$n" 900; do
		read -r kind secs < "$PAIR/cmd.$n"
		case $kind in
		stop)
			pair_put "ack.$n" ok
			break
			;;
		loss) link_netem loss 1% ;;
		delay) link_netem delay 5ms reorder 1% 50% ;;
		clear) link_netem ;;
		link-down)
			# (as tests/pair/faults.sh takes it down, and why)
			link_netem loss 100%
			sleep "$secs"
			link_netem
			;;
		dump)
			# the server's side of a stuck round
			stuck_dump
			;;
		nfsd-restart)
			rpc.nfsd 0
			sleep 2
			rpc.nfsd 4
			echo "$(pair_transport) $NFS_V2_PORT" > /proc/fs/nfsd/portlist ||
				t_fail "soak: nfsd listens again after a restart" "portlist refused"
			;;
		esac
		pair_put "ack.$n" ok
		n=$((n + 1))
	done
	pair_put slab.server.end "$(slab_kb)"
	pair_wait done 600
	pair_down
}

CMD=0
# command KIND [SECONDS]: have the server do KIND, and wait until it has.
command() {
	echo "$1 ${2:-0}" > "$PAIR/cmd.$CMD.tmp"
	mv "$PAIR/cmd.$CMD.tmp" "$PAIR/cmd.$CMD"
	pair_await "ack.$CMD" $((${2:-0} + 120)) || t_fail "soak: the server did '$1'" "no answer"
	CMD=$((CMD + 1))
}

# io_loop: rounds of mixed I/O until /tmp/soak-stop exists; each fio run's
# JSON in $RESULTS/soak-io, each failure a line in $RESULTS/soak-errors.
io_loop() {
	local r=0
	while [ ! -e /tmp/soak-stop ]; do
		fio --output-format=json --output="$RESULTS/soak-io/$r.json" \
			--directory="$mnt" --ioengine=psync --direct=1 \
			--verify=crc32c --do_verify=1 --verify_state_save=0 \
			--name=seq --rw=write --bs=256k --size=4m \
			--name=rand --rw=randrw --bs=4k --size=1m ||
			echo "round $r: fio exited $?" >> "$RESULTS/soak-errors"
		metadata_quiet "$r" 20 ||
			echo "round $r: metadata workload failed" >> "$RESULTS/soak-errors"
		r=$((r + 1))
	done
}

# metadata_quiet R N: the metadata workload without a check line.
metadata_quiet() {
	python3 - "$mnt/meta$1" "$2" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.mkdir(d)
for i in range(n):
    open(os.path.join(d, "f%d" % i), "w").write("x" * i)
for i in range(n):
    assert os.stat(os.path.join(d, "f%d" % i)).st_size == i
    os.rename(os.path.join(d, "f%d" % i), os.path.join(d, "g%d" % i))
assert len(os.listdir(d)) == n
for i in range(n):
    os.unlink(os.path.join(d, "g%d" % i))
os.rmdir(d)
PY
}

# rpc_retrans: the client's RPC retransmissions (/proc/net/rpc/nfs: "rpc
# calls retrans authrefresh").
rpc_retrans() { awk '$1 == "rpc" { print $3 }' /proc/net/rpc/nfs; }

# conn_count: connections the client's transport made (ours: its
# counters; the stock kernel's: mountstats' xprt connect count).
conn_count() {
	if vm_stock; then
		awk '$1 == "xprt:" { print $5; exit }' /proc/self/mountstats
	else
		xprt_stat connects
	fi
}

client() {
	local end kind secs n=0 iopid slab0 slab1 c0 c1 r0 bytes verified errors i p
	local -A faults=([loss]=0 [delay]=0 [link-down]=0 [nfsd-restart]=0)
	echo "soak: $SOAK_MIN min, seed $SOAK_SEED (make soak SOAK_SEED=$SOAK_SEED repeats it)"
	RANDOM=$SOAK_SEED
	pair_mount 4.2 || die "soak: NFSv4.2 mount across the link"
	mkdir -p "$RESULTS/soak-io"
	: > "$RESULTS/soak-errors"
	rm -f /tmp/soak-stop
	slab0=$(slab_kb) c0=$(conn_count) r0=$(rpc_retrans)
	io_loop &
	iopid=$!
	end=$(($(date +%s) + SOAK_MIN * 60))
	while [ "$(date +%s)" -lt "$end" ]; do
		sleep $((10 + RANDOM % 20))
		[ "$(date +%s)" -lt "$end" ] || break
		case $((RANDOM % 4)) in
		0) kind=loss ;;
		1) kind=delay ;;
		2) kind=link-down ;;
		3) kind=nfsd-restart ;;
		esac
		secs=$((10 + RANDOM % 10))
		echo "soak: $(date +%T) $kind"
		case $kind in
		loss|delay)
			if [ $kind = loss ]; then
				link_netem loss 1%
			else
				link_netem delay 5ms reorder 1% 50%
			fi
			command "$kind"
			sleep "$secs"
			link_netem
			command clear
			;;
		link-down)
			link_netem loss 100%
			command link-down "$LINK_DOWN_S"
			link_netem
			;;
		nfsd-restart) command nfsd-restart ;;
		esac
		faults[$kind]=$((faults[$kind] + 1))
		n=$((n + 1))
	done
	touch /tmp/soak-stop
	# the round under way ends within SOAK_DRAIN_S, or the I/O is stuck
	for ((i = 0; i < SOAK_DRAIN_S; i++)); do
		kill -0 "$iopid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$iopid" 2>/dev/null; then
		echo "the I/O did not end within $SOAK_DRAIN_S s of the soak's end" >> "$RESULTS/soak-errors"
		cat /sys/kernel/tracing/trace > "$RESULTS/trace-stuck"
		vm_stock || cat /proc/fs/xprtrdma2/stats > "$RESULTS/xprtrdma2-stats-stuck"
		for p in $(pgrep -x fio) $(pgrep -x python3); do
			echo "== $p $(cat "/proc/$p/comm")"
			cat "/proc/$p/stack"
		done > "$RESULTS/stacks-stuck" 2>&1
		stuck_dump
		command dump
		pkill -9 -x fio
		kill -9 "$iopid"
	fi
	wait "$iopid"
	command stop
	slab1=$(slab_kb)
	read -r bytes verified < <(python3 - "$RESULTS/soak-io" <<'PY'
import json, os, sys
w = v = 0
for f in os.listdir(sys.argv[1]):
    try:
        j = json.load(open(os.path.join(sys.argv[1], f)))
    except ValueError:
        continue
    for job in j["jobs"]:
        if job["error"] == 0:
            w += job["write"]["io_bytes"]
            v += job["read"]["io_bytes"]
print(w, v)
PY
)
	errors=$(wc -l < "$RESULTS/soak-errors")
	c1=$(conn_count)
	umount "$mnt"
	pair_await slab.server.end 300
	{
		echo "soak: $SOAK_MIN min, seed $SOAK_SEED, client $(pair_transport) ($(uname -r)), server $(pair_get transport.server)"
		printf '  %-34s %s\n' \
			"bytes written and verified" "$((bytes >> 20)) MiB written, $((verified >> 20)) MiB read back and verified" \
			"faults injected" "$n: loss ${faults[loss]}, delay+reorder ${faults[delay]}, link down ${faults[link-down]}, nfsd restart ${faults[nfsd-restart]}" \
			"reconnects" "$((c1 - c0))" \
			"RPCs retransmitted" "$(($(rpc_retrans) - r0))" \
			"errors" "$errors" \
			"client slab (kB)" "$slab0 -> $slab1 ($(((slab1 - slab0) * 60 / SOAK_MIN)) kB/h)" \
			"server slab (kB)" "$(pair_get slab.server.start) -> $(pair_get slab.server.end) ($((($(pair_get slab.server.end) - $(pair_get slab.server.start)) * 60 / SOAK_MIN)) kB/h)"
	} | tee "$RESULTS/soak-table"
	t_check "soak: $((bytes >> 20)) MiB written and verified through $n faults, no error" \
		[ "$errors" = 0 -a "$bytes" -gt 0 ]
	[ "$errors" = 0 ] || cat "$RESULTS/soak-errors"
	pair_wait done
}

pair_run
