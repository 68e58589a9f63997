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
# Then the same 4 KiB random read as a parallel load (4 jobs, QD32 each),
# with the guest's CPU time over the run divided by the RPCs the client
# sent: the transports' cost per RPC, which is what bounds IOPS on real
# RDMA hardware, where the wire costs microseconds. Before the passes,
# after an untimed metadata run per RDMA pair (warm_up), the wire's own
# ceiling on the same device (Debian's perftest: a Send's round trip,
# 1 MiB RDMA Read and Write bandwidth, the two bandwidths again after
# the passes) and rpcrdma2-ping's NULL round trip against each server.
# After the passes, what a connection costs in memory, both sides: each
# RDMA pair with one NFSv3 mount and with eight, the kernel's memory,
# slab, vmalloc and the RDMA core's QPs, CQs, MRs and PDs by owner,
# before and while mounted.
# Prints tables; figures, not a pass/fail test. Each pair runs twice, in
# the order v2 fb r2 ref tcp tcp ref r2 fb v2, and the tables give the
# mean (counters: the sum): whatever drifts during the run (the host, the
# guest warming up) weighs on all of them alike. A pair whose mount fails
# is marked in the table and the others go on. After the ten passes each
# RDMA pair runs the metadata workload twice more with tracepoints on
# (v2 fb r2 ref, then ref r2 fb v2), for tests/bench/meta_split.py's
# table of where an RPC's time goes (rxe, sunrpc, nfsd, and each
# transport's own code), and three times more under perf, for
# tests/bench/cpu_split.py's table of the CPU each transport takes per
# RPC; then the parallel load three times more per RDMA pair under perf, for
# the same table of that load and the share of the guest's CPU that is
# the transports' own.
# With PARTS "cpu" only the CPU split's perf runs: our pair and the
# in-tree one, CPU_ROUNDS times each, alternating, and that table, with
# a third report per run by parent and leaf symbol (where a row's own
# CPU goes); a change to one transport's hot path is measured so in a
# few minutes, and the rounds show the noise between runs. CPU_AB
# "MODULE PARAM VALUE" adds a third pair to those rounds, v2b: ours
# again with that module parameter set for its runs, which measures a
# change that has a switch against itself in the same run. PARTS "par"
# does the same with the parallel load in place of the metadata workload
# (its perf runs and cpu_split.py --par's table, leaf reports included).
# PARTS "mem" runs only the memory per connection, every RDMA pair, and
# prints that table: a change to what a connection allocates measured in
# a few minutes.
# Goal 2 also takes PAIR_ROUNDS short paired rounds of the parallel load
# (our pair, then the in-tree one, the order turned each round; half of
# BENCH_TIME each, no perf): a pass's two runs are minutes apart, and the
# host's speed moves the figures of one pair's runs in one VM run up to
# 1.9x, while two runs seconds apart see the same host. PARTS "pairs"
# runs only those rounds and prints goal 2 from them.
# SVC_PARAMS ("buf_size=8192", say) loads svcrdma2 with those module
# parameters for the whole run, so that CPU_AB can measure a client
# parameter that pays only where the server takes it too. XPRT_PARAMS
# does the same for xprtrdma2, for every part (memory per connection
# included) with our client so set.
# Usage (in the guest): nfs_bench.sh [BENCH_TIME [META_FILES [PARTS
# [CPU_ROUNDS [CPU_AB [SVC_PARAMS [XPRT_PARAMS [PAIR_ROUNDS]]]]]]]]
. "$(dirname "$0")/../vm/lib.sh"

BENCH_TIME=${1:-10}
META_FILES=${2:-1000}
PARTS=${3:-all}
CPU_ROUNDS=${4:-3}
CPU_AB=${5:-}
SVC_PARAMS=${6:-}
XPRT_PARAMS=${7:-}
PAIR_ROUNDS=${8:-8}
PAIR_TIME=$(((BENCH_TIME + 1) / 2))
case $PARTS in
all | cpu | par | mem | pairs) ;;
*) die "bench: PARTS is all, cpu, par, mem or pairs, not $PARTS" ;;
esac
[[ $PAIR_ROUNDS =~ ^[1-9][0-9]*$ ]] ||
	die "bench: PAIR_ROUNDS is a number of rounds, not '$PAIR_ROUNDS'"

vm_rxe_up
# shellcheck disable=SC2086 # one word per parameter
vm_load_svcrdma2 $SVC_PARAMS
# shellcheck disable=SC2086 # one word per parameter
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" $XPRT_PARAMS ||
	die "insmod xprtrdma2 $XPRT_PARAMS"
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
# rpc.nfsd already listens on TCP 2049
grep -q "^tcp 2049$" /proc/fs/nfsd/portlist || die "bench: no tcp 2049"

mnt=/tmp/mnt
mkdir -p "$mnt"
res=/tmp/bench
mkdir -p "$res"

# the parallel load: 4 KiB random reads, 4 jobs at QD32 each
PAR_FIO=(--filename=data --size=256m --rw=randread --bs=4k --ioengine=libaio
	 --iodepth=32 --numjobs=4 --group_reporting)

# lay_out TAG: the 256 MiB file the fio jobs read, written first so that
# reads measure reads
lay_out() {
	fio --name=lay --directory="$mnt" --rw=write --bs=1m --size=256m \
		--filename=data --output=/dev/null > /dev/null 2>&1 ||
		echo "bench: $1: lay-out fio exited $?"
}

# fio_run NAME ARGS...: one fio job, JSON output in $res/NAME.json
fio_run() {
	local name=$1
	shift
	fio --name="$name" --directory="$mnt" --direct=1 --time_based \
		--runtime="$BENCH_TIME" --ramp_time=2 --output-format=json \
		--output="$res/$name.json" "$@" > /dev/null 2>&1 ||
		echo "bench: fio $name exited $?"
}

# the guest's busy CPU time so far, in ticks (USER_HZ, 100 a second):
# every CPU's user, nice, system, irq and softirq time, not idle or iowait
cpu_ticks() {
	local -a f
	read -ra f < /proc/stat
	# cpu user nice system idle iowait irq softirq ...
	echo $((f[1] + f[2] + f[3] + f[6] + f[7]))
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

# bench_umount NAME DIR [OPTION...]: unmount DIR (with OPTIONs), lazily if
# that fails
bench_umount() {
	local name=$1 dir=$2
	shift 2
	umount "$@" "$dir" || {
		echo "bench: $name: umount failed; lazy unmount"
		umount -l "$dir"
	}
}

# qp_count: the QPs the RDMA core tracks now; qp_at_most N: no more than N
qp_count() { rdma res show qp | grep -c .; }
qp_at_most() { [ "$(qp_count)" -le "$1" ]; }

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
	lay_out "$tag"
	fio_run "$tag-randread" --filename=data --size=256m --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=16
	fio_run "$tag-seqread" --filename=data --size=256m --rw=read \
		--bs=1m --ioengine=libaio --iodepth=4
	fio_run "$tag-seqwrite" --filename=data --size=256m --rw=write \
		--bs=1m --ioengine=libaio --iodepth=4
	# the parallel load: CPU ticks and RPCs over the same interval
	xprt_line > "$res/$tag-par.xprt0"
	cpu_ticks > "$res/$tag-par.cpu0"
	fio_run "$tag-par" "${PAR_FIO[@]}"
	cpu_ticks > "$res/$tag-par.cpu1"
	xprt_line > "$res/$tag-par.xprt1"
	xprt_line > "$res/$tag-meta.xprt0"
	cat /proc/self/mountstats > "$res/$tag-meta.stats0"
	meta_run > "$res/$tag-meta"
	xprt_line > "$res/$tag-meta.xprt1"
	cat /proc/self/mountstats > "$res/$tag-meta.stats1"
	rm -f "$mnt/data"
	bench_umount "$tag" "$mnt"
}

# split_run TAG PROTO PORT [SUFFIX]: the metadata workload once more with
# the tracepoints of tests/bench/meta_split.py on, for its table of where
# an RPC's time goes, in split-TAG[SUFFIX].trace. Tracing slows it: not
# one of the passes above.
split_run() {
	local tag=$1 proto=$2 port=$3 sfx=$4 tr=/sys/kernel/tracing e
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		echo "bench: split $tag: mount -o vers=4.2,proto=$proto,port=$port failed"
		return
	fi
	echo > "$tr/trace"
	for e in $split_events; do echo 1 > "$tr/events/$e/enable"; done
	meta_run > "$res/split-$tag$sfx-meta"
	for e in $split_events; do echo 0 > "$tr/events/$e/enable"; done
	cp "$tr/trace" "$res/split-$tag$sfx.trace"
	bench_umount "split $tag" "$mnt"
}

# perf_modules: /proc/modules as perf needs it, bind-mounted over the
# real one until the caller's perf_report is done (perf_modules_done).
# Since Linux 6.4 a module's text, data and read-only data are allocated
# apart, and /proc/modules gives the text's address with the size of all
# three (kernel/module/procfs.c: module_total_size()); perf 6.1 maps
# [address, address + size), which can cover the text of a module placed
# next to it, whose samples then go unnamed (an offset in the first).
# Each size here stops at the next module's address. The addresses need
# kptr_restrict 0 (perf_setup); without them nothing is mounted.
perf_modules() {
	python3 - /proc/modules > /tmp/modules <<'PY' &&
import sys
mods = sorted((line.split() for line in open(sys.argv[1])),
              key=lambda f: int(f[5], 16))
if not mods or any(int(m[5], 16) == 0 for m in mods):
    sys.exit("no module addresses")
for m, nxt in zip(mods, mods[1:] + [None]):
    if nxt:
        m[1] = str(min(int(m[1]), int(nxt[5], 16) - int(m[5], 16)))
    print(" ".join(m))
PY
		mount --bind /tmp/modules /proc/modules ||
		echo "bench: perf: no corrected /proc/modules"
}

# perf_modules_done: the real /proc/modules again
perf_modules_done() {
	umount /proc/modules 2>/dev/null
}

# perf_report DATA BASE: perf.data DATA reported in BASE.txt (callees
# included, by symbol; our modules' symbols from kallsyms) and
# BASE.own.txt (by the nearest of $perf_parents above each sample: a
# row's own CPU, posting to rxe apart), with PARTS "cpu" or "par" also in
# BASE.leaf.txt (the same, by leaf symbol too, with sample counts);
# errors go to BASE.err
perf_report() {
	local data=$1 base=$2
	perf report -i "$data" --kallsyms=/tmp/kallsyms --children \
		--sort sym -g none --stdio > "$base.txt" 2>> "$base.err" ||
		echo "bench: perf report of $base exited $?"
	perf report -i "$data" --kallsyms=/tmp/kallsyms --no-children \
		--sort parent --parent "$perf_parents" -g none --stdio \
		> "$base.own.txt" 2>> "$base.err" ||
		echo "bench: perf report --sort parent of $base exited $?"
	[ "$PARTS" = all ] ||
		perf report -i "$data" --kallsyms=/tmp/kallsyms --no-children \
			--sort parent,sym --parent "$perf_parents" -g none \
			-n --stdio > "$base.leaf.txt" 2>> "$base.err" ||
		echo "bench: perf report --sort parent,sym of $base exited $?"
	rm -f "$data"
}

# perf_run LOAD TAG PROTO PORT [SUFFIX]: perf_meta_run (LOAD meta) or
# perf_par_run (LOAD par) of TAG; TAG v2b with CPU_AB's module parameter
# set, and set back after
perf_run() {
	local load=$1 tag=$2 was
	local -a ab
	shift
	if [ "$tag" = v2b ]; then
		read -ra ab <<<"$CPU_AB"
		was=$(cat "/sys/module/${ab[0]}/parameters/${ab[1]}")
		echo "${ab[2]}" > "/sys/module/${ab[0]}/parameters/${ab[1]}"
	fi
	"perf_${load}_run" "$@"
	[ "$tag" != v2b ] ||
		echo "$was" > "/sys/module/${ab[0]}/parameters/${ab[1]}"
}

# perf_meta_run TAG PROTO PORT [SUFFIX]: the metadata workload once more
# under perf (cpu-clock on every CPU, call graphs), reported in
# perf-TAG[SUFFIX].txt and .own.txt (perf_report), with the RPCs the
# client sent meanwhile in .rpcs
perf_meta_run() {
	local tag=$1 proto=$2 port=$3 sfx=$4 data=/tmp/perf.data
	local -a x0 x1
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		echo "bench: perf $tag: mount -o vers=4.2,proto=$proto,port=$port failed"
		return
	fi
	perf_modules
	read -ra x0 <<<"$(xprt_line)"
	perf record -N -q -a -g -e cpu-clock -F 4000 -o "$data" -- \
		bash -c "$(declare -f meta_run); mnt=$mnt META_FILES=$META_FILES meta_run" \
		> "$res/perf-$tag$sfx-meta" 2> "$res/perf-$tag$sfx.err" ||
		echo "bench: perf $tag: perf record exited $?"
	read -ra x1 <<<"$(xprt_line)"
	# mountstats' xprt line: sends is the 7th field after "xprt:"
	echo $((x1[6] - x0[6])) > "$res/perf-$tag$sfx.rpcs"
	perf_report "$data" "$res/perf-$tag$sfx"
	perf_modules_done
	bench_umount "perf $tag" "$mnt"
}

# perf_setup: what perf_report needs: the modules' symbols, and the entry
# points of cpu_split.py's rows
perf_setup() {
	echo 0 > /proc/sys/kernel/kptr_restrict
	cat /proc/kallsyms > /tmp/kallsyms
	perf_parents=$(python3 "$(dirname "$0")/cpu_split.py" --parents)
}

# perf_par_run TAG PROTO PORT [SUFFIX]: the parallel load once more under
# perf, reported in perf-par-TAG[SUFFIX].txt and .own.txt, with the RPCs
# the client sent in .rpcs and the guest's busy CPU ticks in .ticks, both
# over perf's run
perf_par_run() {
	local tag=$1 proto=$2 port=$3 sfx=$4 data=/tmp/perf.data c0
	local base=$res/perf-par-$tag$sfx
	local -a x0 x1
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		echo "bench: perf par $tag: mount -o vers=4.2,proto=$proto,port=$port failed"
		return
	fi
	lay_out "perf par $tag"
	perf_modules
	read -ra x0 <<<"$(xprt_line)"
	c0=$(cpu_ticks)
	perf record -N -q -a -g -e cpu-clock -F 2000 -o "$data" -- \
		fio --name=par --directory="$mnt" --direct=1 --time_based \
		--runtime="$BENCH_TIME" "${PAR_FIO[@]}" --output=/dev/null \
		> /dev/null 2> "$base.err" ||
		echo "bench: perf par $tag: perf record exited $?"
	echo $(($(cpu_ticks) - c0)) > "$base.ticks"
	read -ra x1 <<<"$(xprt_line)"
	echo $((x1[6] - x0[6])) > "$base.rpcs"
	perf_report "$data" "$base"
	perf_modules_done
	rm -f "$mnt/data"
	bench_umount "perf par $tag" "$mnt"
}

# mem_snap NAME: the guest's memory and the RDMA core's resources now, in
# $res/mem-NAME.* (after the page cache and reclaimable slab are dropped,
# so what is left is what the kernel holds)
mem_snap() {
	local k
	sync
	echo 3 > /proc/sys/vm/drop_caches
	cp /proc/meminfo "$res/mem-$1.meminfo"
	for k in qp cq mr pd; do
		rdma -j res show "$k" > "$res/mem-$1.$k.json" 2>&1 ||
			echo "bench: rdma res show $k exited $?"
	done
}

# mem_run TAG PROTO PORT: what a connection costs, both sides together:
# one NFSv3 mount of the pair, then MEM_CONNS of them, each to an address
# of its own (MEM_ADDRS), so that each has its own NFS client and
# connection (the 6.12 client gives nconnect to TCP and the in-tree
# netid "rdma" only, and NFSv4.1 finds one server behind two addresses);
# each mount read with direct I/O, so that it connects; a snapshot
# before the mounts and one while mounted. report.py takes the difference
# of the two rounds' growth: what does not grow with the mounts cancels.
MEM_CONNS=8
MEM_ADDRS=()
mem_run() {
	local tag=$1 proto=$2 port=$3 n i q0
	for n in 1 "$MEM_CONNS"; do
		q0=$(qp_count)
		mem_snap "$tag-$n-before"
		for ((i = 0; i < n; i++)); do
			mkdir -p "$mnt.$i"
			mount -i -t nfs -o "vers=3,proto=$proto,port=$port,nolock,addr=${MEM_ADDRS[i]}" \
				"${MEM_ADDRS[i]}:$EXPORT_DIR" "$mnt.$i" || {
				echo "bench: mem $tag: mount $i of $n (proto=$proto,port=$port) failed"
				break
			}
			dd if="$mnt.$i/mem" of=/dev/null bs=64k iflag=direct status=none
		done
		mem_snap "$tag-$n-mounted"
		for ((i = 0; i < n; i++)); do
			mountpoint -q "$mnt.$i" || continue
			# (-i: no umount.nfs, which knows no netid rdma2 here)
			bench_umount "mem $tag" "$mnt.$i" -i
		done
		# both sides let go of their QPs before the next snapshot
		wait_for qp_at_most "$q0" ||
			echo "bench: mem $tag: the QPs of $n mounts outlived them"
	done
}

# mem_part: memory per connection for every RDMA pair (a 1 MiB file to
# read, made before the snapshots; the server's addresses, from RFC
# 5737's TEST-NET-1 on eth0, where rxe takes each as a GID of its own)
mem_part() {
	local i t
	head -c 1M /dev/urandom > "$EXPORT_DIR/mem"
	for ((i = 1; i <= MEM_CONNS; i++)); do
		MEM_ADDRS+=("192.0.2.$i")
		ip addr add "192.0.2.$i/32" dev eth0 ||
			echo "bench: ip addr add 192.0.2.$i failed"
	done
	for t in "v2 rdma2 $NFS_V2_PORT" "fb rdma2 $NFS_V1_PORT" \
		"r2 rdma $NFS_V2_PORT" "ref rdma $NFS_V1_PORT"; do
		# shellcheck disable=SC2086
		mem_run $t
	done
	rm -f "$EXPORT_DIR/mem"
}

# pair_run TAG PROTO PORT ROUND: the parallel load for PAIR_TIME s, with
# the guest's busy CPU ticks and the RPCs the client sent over the same
# interval (ramp included), in pair-TAG-ROUND.*
pair_run() {
	local tag=$1 proto=$2 port=$3 base=$res/pair-$1-$4
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		echo "bench: pair $tag-$4: mount -o vers=4.2,proto=$proto,port=$port failed"
		return
	fi
	xprt_line > "$base.xprt0"
	cpu_ticks > "$base.cpu0"
	fio --name=pair --directory="$mnt" --direct=1 --time_based \
		--runtime="$PAIR_TIME" --ramp_time=1 --output-format=json \
		--output="$base.json" "${PAR_FIO[@]}" > /dev/null 2>&1 ||
		echo "bench: pair $tag-$4: fio exited $?"
	cpu_ticks > "$base.cpu1"
	xprt_line > "$base.xprt1"
	bench_umount "pair $tag-$4" "$mnt"
}

# pairs_part: PAIR_ROUNDS rounds of pair_run, our pair and the in-tree
# one, each round in the other order than the one before; the file they
# read is written once, in the export itself (the same pages in nfsd's
# page cache for every run)
pairs_part() {
	local i t tag proto port
	local -a order=("v2 rdma2 $NFS_V2_PORT" "ref rdma $NFS_V1_PORT")
	fio --name=lay --directory="$EXPORT_DIR" --rw=write --bs=1m \
		--size=256m --filename=data --output=/dev/null > /dev/null 2>&1 ||
		echo "bench: pairs: lay-out fio exited $?"
	for ((i = 1; i <= PAIR_ROUNDS; i++)); do
		for t in "${order[@]}"; do
			read -r tag proto port <<<"$t"
			pair_run "$tag" "$proto" "$port" "$i"
		done
		order=("${order[1]}" "${order[0]}")
	done
	rm -f "$EXPORT_DIR/data"
}

# the host's time, from the mtime the host gives a file on the results share
host_now() {
	: > "$RESULTS/.clock"
	stat -c %.Y "$RESULTS/.clock"
}

# perftest NAME CMD...: CMD's server in the background, then its client
# (the same CMD and this guest's address) once the server listens on
# perftest's TCP port for the exchange of QP numbers
perftest() {
	local name=$1 srv
	shift
	# (bounded: a server whose client never came would wait for ever)
	timeout 150 "$@" > "$res/perftest-$name-server.txt" 2>&1 &
	srv=$!
	wait_for bash -c "ss -Hltn 'sport = :18515' | grep -q ." ||
		echo "bench: perftest $name: the server does not listen"
	timeout 120 "$@" "$GUEST_IP" > "$res/perftest-$name.txt" 2>&1 ||
		echo "bench: perftest $name exited $?"
	wait "$srv" || echo "bench: perftest $name: the server exited $?"
}

# warm_up: a guest fresh from boot runs its first minutes slower (the
# first of three CPU-split rounds took up to 1.7x the CPU per RPC of the
# third, in every function alike; perftest's RDMA Read bandwidth right
# after boot was 38.8 MB/s, 131.2 after the passes, with none of rxe0's
# retransmission counters moving): one untimed metadata run per RDMA
# pair before anything is measured
warm_up() {
	local t tag proto port
	for t in "v2 rdma2 $NFS_V2_PORT" "ref rdma $NFS_V1_PORT"; do
		read -r tag proto port <<<"$t"
		if kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
			meta_run > /dev/null
			bench_umount "warm-up $tag" "$mnt"
		else
			echo "bench: warm-up $tag: mount -o vers=4.2,proto=$proto,port=$port failed"
		fi
	done
}

# results_kept: the module parameters the run loaded, said, and the raw
# results kept on the host (build/bench/vm/raw)
results_kept() {
	[ -z "$SVC_PARAMS" ] || echo "bench: svcrdma2 loaded with $SVC_PARAMS"
	[ -z "$XPRT_PARAMS" ] || echo "bench: xprtrdma2 loaded with $XPRT_PARAMS"
	rm -rf "$RESULTS/raw"
	cp -r "$res" "$RESULTS/raw"
}

# part_end CMD...: a part run alone ends: results_kept, CMD's tables,
# nfsd down
part_end() {
	results_kept
	"$@"
	vm_nfsd_down
	exit 0
}

if [ "$PARTS" = mem ]; then
	# what a first mount sets up once is not a connection's
	warm_up
	mem_part
	echo "bench: memory per connection only"
	part_end python3 "$(dirname "$0")/report.py" "$res" "$(date -u +%F)" \
		"$META_FILES" mem
fi

if [ "$PARTS" = pairs ]; then
	warm_up
	pairs_part
	echo "bench: paired rounds only, $PAIR_ROUNDS of $PAIR_TIME s a run"
	part_end python3 "$(dirname "$0")/report.py" "$res" "$(date -u +%F)" \
		"$META_FILES" pairs
fi

if [ "$PARTS" != all ]; then
	perf_setup
	warm_up
	pairs=("v2 rdma2 $NFS_V2_PORT" "ref rdma $NFS_V1_PORT")
	tags=(v2 ref)
	if [ -n "$CPU_AB" ]; then
		read -ra ab <<<"$CPU_AB"
		[ "${#ab[@]}" = 3 ] && [ -w "/sys/module/${ab[0]}/parameters/${ab[1]}" ] ||
			die "bench: CPU_AB is MODULE PARAM VALUE of a writable parameter, not '$CPU_AB'"
		pairs+=("v2b rdma2 $NFS_V2_PORT")
		tags=(v2 v2b ref)
	fi
	load=meta what="META_FILES=$META_FILES" split=()
	[ "$PARTS" = cpu ] ||
		load=par what="the parallel load, BENCH_TIME=$BENCH_TIME" split=(--par)
	# each round starts one pair later: every pair goes first, last and
	# between the others alike
	for ((i = 1; i <= CPU_ROUNDS; i++)); do
		for ((j = 0; j < ${#pairs[@]}; j++)); do
			read -r tag proto port <<<"${pairs[(i - 1 + j) % ${#pairs[@]}]}"
			perf_run "$load" "$tag" "$proto" "$port" "-$i"
		done
	done
	echo "bench: cpu split only, $CPU_ROUNDS rounds ($what)"
	[ -z "$CPU_AB" ] ||
		echo "bench: v2b is rdma2 -> svcrdma2 with ${ab[0]} ${ab[1]}=${ab[2]}"
	part_end python3 "$(dirname "$0")/cpu_split.py" "${split[@]}" "$res" \
		"${tags[@]}"
fi

warm_up
# The wire's ceiling: the same rxe device, no RPC, no NFS. NFS READ
# payloads go by RDMA Write, WRITE payloads by RDMA Read.
perftest send_lat ib_send_lat -d rxe0 -F -n 1000
perftest read_bw ib_read_bw -d rxe0 -F -s 1048576 -D "$BENCH_TIME" --report_gbits
perftest write_bw ib_write_bw -d rxe0 -F -s 1048576 -D "$BENCH_TIME" --report_gbits
# the RPC layer's floor: NULL calls one at a time, to either server, with
# rxe0's counters before and after each (its retransmissions and
# out-of-sequence packets say whether a slow call waited on the wire)
PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
rxe_counters() {
	grep -H . /sys/class/infiniband/rxe0/ports/1/hw_counters/* > "$1" 2>&1
}
rxe_counters "$res/ping-svcrdma2.rxe0"
"$PING" -p "$NFS_V2_PORT" -c 1000 "$GUEST_IP" > "$res/ping-svcrdma2.txt" 2>&1 ||
	echo "bench: rpcrdma2-ping svcrdma2 exited $?"
rxe_counters "$res/ping-svcrdma2.rxe1"
rxe_counters "$res/ping-svcrdma.rxe0"
"$PING" --vers 1 -p "$NFS_V1_PORT" -c 1000 "$GUEST_IP" > "$res/ping-svcrdma.txt" 2>&1 ||
	echo "bench: rpcrdma2-ping svcrdma exited $?"
rxe_counters "$res/ping-svcrdma.rxe1"

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
# the wire's bandwidth again: goal 3 sets the passes against the mean of
# both, which the guest's drift during the run weighs on alike
perftest read_bw-2 ib_read_bw -d rxe0 -F -s 1048576 -D "$BENCH_TIME" --report_gbits
perftest write_bw-2 ib_write_bw -d rxe0 -F -s 1048576 -D "$BENCH_TIME" --report_gbits
mem_part
pairs_part
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo global > /sys/kernel/tracing/trace_clock
echo 16384 > /sys/kernel/tracing/buffer_size_kb
split_events=$(python3 "$(dirname "$0")/meta_split.py" --events)
for t in "v2 rdma2 $NFS_V2_PORT" "fb rdma2 $NFS_V1_PORT" \
	"r2 rdma $NFS_V2_PORT" "ref rdma $NFS_V1_PORT" \
	"ref rdma $NFS_V1_PORT -2" "r2 rdma $NFS_V2_PORT -2" \
	"fb rdma2 $NFS_V1_PORT -2" "v2 rdma2 $NFS_V2_PORT -2"; do
	# shellcheck disable=SC2086
	split_run $t
done
perf_setup
# three rounds under perf, the order turned each time: cpu_split.py's
# median of the rounds needs a middle one
PERF_ROUNDS=("v2 rdma2 $NFS_V2_PORT" "fb rdma2 $NFS_V1_PORT"
	"r2 rdma $NFS_V2_PORT" "ref rdma $NFS_V1_PORT"
	"ref rdma $NFS_V1_PORT -2" "r2 rdma $NFS_V2_PORT -2"
	"fb rdma2 $NFS_V1_PORT -2" "v2 rdma2 $NFS_V2_PORT -2"
	"v2 rdma2 $NFS_V2_PORT -3" "fb rdma2 $NFS_V1_PORT -3"
	"r2 rdma $NFS_V2_PORT -3" "ref rdma $NFS_V1_PORT -3")
for t in "${PERF_ROUNDS[@]}"; do
	# shellcheck disable=SC2086
	perf_run meta $t
done
for t in "${PERF_ROUNDS[@]}"; do
	# shellcheck disable=SC2086
	perf_run par $t
done
# every rate here is measured with the guest's clock: say whether it kept
# time (scripts/vm/run --host-clock)
printf 'bench: the ten passes took %.0f s (host clock: %.0f s; %s clocksource)' \
	"$(bc <<<"$t1 - $t0")" "$(bc <<<"$h1 - $h0")" \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo " (BENCH_TIME=$BENCH_TIME, META_FILES=$META_FILES)"
results_kept
python3 "$(dirname "$0")/report.py" "$res" "$(date -u +%F)" "$META_FILES"
echo
python3 "$(dirname "$0")/meta_split.py" "$res" "$META_FILES" v2 fb r2 ref
echo
python3 "$(dirname "$0")/cpu_split.py" "$res" v2 fb r2 ref
echo
python3 "$(dirname "$0")/cpu_split.py" --par "$res" v2 fb r2 ref
head -1 /proc/fs/svcrdma2/stats
vm_nfsd_down
