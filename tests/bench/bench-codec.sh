#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Instructions per decode and per encode of a typical NFS READ call
# transport header (one Write chunk of two segments plus a Reply chunk), in
# RPC-over-RDMA v1 and v2, counted by valgrind --tool=callgrind inside
# rpcrdma2_decode() / rpcrdma2_encode() only (--toggle-collect) and divided
# by the iteration count. Says whether decode meets the target; speed is
# reported, never asserted, so only a broken benchmark fails.
#
# Usage: bench-codec.sh [BENCH-BINARY]   (default build/bench/bench-codec)
# Environment: BENCH_ITERS (default 10000), BENCH_DECODE_MAX (default 300)
set -euo pipefail
bin=${1:-build/bench/bench-codec}
iters=${BENCH_ITERS:-10000}
target=${BENCH_DECODE_MAX:-300}

if ! command -v valgrind >/dev/null; then
	echo "bench-codec: valgrind is not installed" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
for op in decode encode; do
	for vers in 1 2; do
		out=$tmp/callgrind.$op.$vers
		valgrind --tool=callgrind --callgrind-out-file="$out" \
			--toggle-collect="rpcrdma2_$op" \
			"$bin" "$op" "$vers" "$iters" >"$tmp/log" 2>&1 || {
			cat "$tmp/log" >&2
			exit 1
		}
		ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
		per=$((ir / iters))
		echo "$op v$vers READ call: $per instr/op"
		if [ "$op" = decode ] && [ "$per" -gt "$target" ]; then
			echo "bench-codec: decode v$vers is above the $target instr/op target"
		fi
	done
done
exit $rc
