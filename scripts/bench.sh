#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench [BENCH_TIME=S] [META_FILES=N]`: NFSv4.2 over our client and
# server, the in-tree ones and TCP (five pairs, tests/bench/nfs_bench.sh),
# side by side in one VM run on the no-debug test kernel (KASAN+lockdep
# cost ~9x). BENCH_TIME is the seconds per fio job (default 10, plus 2 s of
# ramp), META_FILES the files of the metadata run (default 1000). With the
# defaults the whole run (perftest's wire figures; ten passes: five pairs,
# twice each, five fio jobs and the metadata run a pass; then memory per
# connection, eight paired rounds of the parallel load over our pair and
# the in-tree one, two traced metadata runs per RDMA pair, and three rounds
# of the metadata workload and of the parallel load under perf) took
# 21-25 min warm on a quiet 2-core host; the results stay in
# build/bench/vm (raw/ for tests/bench/report.py and meta_split.py).
# `make bench BENCH_PARTS=cpu [CPU_ROUNDS=N] [META_FILES=N]`: only the
# CPU split's perf runs (tests/bench/cpu_split.py), our pair and the
# in-tree one, N rounds each (default 3): a few minutes, for measuring a
# change to a transport's hot path; raw/perf-*.leaf.txt give each row's
# CPU by leaf function. CPU_AB="MODULE PARAM VALUE" (e.g. "xprtrdma2
# guess_replies N") adds our pair again with that parameter set, in the
# same rounds: a change with a switch measured against itself.
# SVC_PARAMS="PARAM=VALUE ..." loads svcrdma2 with those for the whole
# run (e.g. buf_size=8192 beside CPU_AB="xprtrdma2 inline_size 8192"),
# XPRT_PARAMS the same for xprtrdma2 (the full run's figures, memory
# per connection included, with both: XPRT_PARAMS=inline_size=8192).
# `make bench BENCH_PARTS=par`: the same with the parallel load (4 KiB
# random reads, 4 jobs at QD32) in place of the metadata workload; its
# leaf reports are raw/perf-par-*.leaf.txt (cpu_leaf.py's TAG par-v2).
# `make bench BENCH_PARTS=mem`: memory per connection alone, every RDMA
# pair (with SVC_PARAMS / XPRT_PARAMS as above).
# `make bench BENCH_PARTS=pairs [PAIR_ROUNDS=N]`: goal 2 alone, from N
# short paired rounds of the parallel load (default 8; a full run takes
# them too), our pair and the in-tree one seconds apart: a few minutes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/scripts/setup-host.sh"
scripts/kernel/build.sh nodebug > /dev/null
# the guest runs rpcrdma2-ping from build/tools: a fresh clone has none
make -s tools
mkdir -p build/bench
# other VMs on the host skew the figures: say how busy it was
load0=$(cut -d' ' -f1-3 /proc/loadavg)
run() {
	rc=0
	scripts/vm/run --flavour nodebug --smp 2 --host-clock --timeout 3000 \
		--out build/bench/vm --quiet tests/bench/nfs_bench.sh \
		"${BENCH_TIME:-10}" "${META_FILES:-1000}" "${BENCH_PARTS:-all}" \
		"${CPU_ROUNDS:-3}" "${CPU_AB:-}" "${SVC_PARAMS:-}" \
		"${XPRT_PARAMS:-}" "${PAIR_ROUNDS:-8}" || rc=$?
}
run
# QEMU 7.2's TCG can run a stale translation of kernel text that the
# guest is patching on the other vCPU, and a jump label flipped at boot
# then traps on its int3 (Documentation/testing.rst): once, before the
# bench has started, boot again
if [ "$rc" != 0 ] && [ ! -s build/bench/vm/output ] &&
	grep -q 'Oops: int3' build/bench/vm/console.log 2>/dev/null; then
	echo "bench: the guest's kernel trapped on int3 while booting; booting again"
	run
fi
echo "bench: host load average (1/5/15 min) before: $load0," \
	"after: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
# what went wrong in the guest, then the tables without its set-up chatter
grep -E '^bench: .*(failed|exited)|^FAIL' build/bench/vm/output || true
sed -n '/^bench: the ten passes/p; /^| the wire/,$p; /^bench: cpu split only/,$p; /^bench: memory per connection only/,$p; /^bench: paired rounds only/,$p' \
	build/bench/vm/output 2>/dev/null ||
	true
exit $rc
