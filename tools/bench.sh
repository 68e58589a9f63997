#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: NFS over svcrdma2, the in-tree svcrdma and TCP, side by side
# in one VM run on the no-debug test kernel (KASAN+lockdep cost ~9x).
# BENCH_TIME (s per fio job, default 20) and META_FILES tune the run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/tools/setup-host.sh"
tools/kernel/build.sh nodebug > /dev/null
mkdir -p build/bench
tools/vm/run --flavour nodebug --timeout 1800 --out build/bench/vm --quiet \
	tests/bench/nfs_bench.sh
# the table, without the guest's set-up chatter
sed -n '/^| NFSv4.2/,$p' build/bench/vm/output
