#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make client-fuzz [CLIENT_FUZZ_COUNT=N] [CLIENT_FUZZ_SEED=S]`: the long
# wire fuzz of xprtrdma2 in one VM run on the debug kernel
# (tests/fuzz/client_fuzz.sh). Prints PASS/FAIL lines and the listener's
# summary; exits non-zero on failure or a kernel report. `make check` runs
# a short one (xprtrdma2_hostile.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
count=${CLIENT_FUZZ_COUNT:-100000}
seed=${CLIENT_FUZZ_SEED:-$(date +%s)}
"$top/scripts/setup-host.sh" > /dev/null || exit 1
make -s tools || exit 1
out=build/client-fuzz
rm -rf "$out"
# 47 messages a second measured on a quiet host (debug kernel, TCG, four
# listeners), 5.5 beside another guest: the limit allows 4 (a hung mount
# is caught within 60 s by the fuzz itself; this is the backstop)
scripts/vm/run --quiet --timeout $((count / 4 + 1200)) --out "$out" \
	tests/fuzz/client_fuzz.sh "$count" "$seed"
rc=$?
grep -E '^(PASS|FAIL): |^  \| fuzz: ' "$out/output" | sed 's/^  | //'
case $rc in
0) ;;
125) echo "FAIL: client fuzz: kernel log has a report or no status (see $out)" ;;
124) echo "FAIL: client fuzz: timed out (see $out)" ;;
*) echo "FAIL: client fuzz: exited $rc (see $out)" ;;
esac
[ $rc -eq 0 ] && ! grep -q '^FAIL: ' "$out/output"
