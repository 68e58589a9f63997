#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make wire-fuzz [WIRE_FUZZ_COUNT=N] [WIRE_FUZZ_SEED=S]`: the long wire fuzz
# of svcrdma2 in one VM run on the debug kernel (tests/fuzz/wire_fuzz.sh).
# Prints PASS/FAIL lines and the fuzzer's summary; exits non-zero on failure
# or a kernel report. `make check` runs a short one (svcrdma2_ping.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
count=${WIRE_FUZZ_COUNT:-100000}
seed=${WIRE_FUZZ_SEED:-$(date +%s)}
"$top/scripts/setup-host.sh" > /dev/null || exit 1
make -s tools || exit 1
out=build/wire-fuzz
rm -rf "$out"
scripts/vm/run --quiet --timeout $((count / 5 + 1200)) --out "$out" \
	tests/fuzz/wire_fuzz.sh "$count" "$seed"
rc=$?
grep -E '^(PASS|FAIL): |^  \| fuzz: ' "$out/output" | sed 's/^  | //'
case $rc in
0) ;;
125) echo "FAIL: wire fuzz: kernel log has a report or no status (see $out)" ;;
124) echo "FAIL: wire fuzz: timed out (see $out)" ;;
*) echo "FAIL: wire fuzz: exited $rc (see $out)" ;;
esac
[ $rc -eq 0 ] && ! grep -q '^FAIL: ' "$out/output"
