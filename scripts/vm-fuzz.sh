#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make wire-fuzz` and `make client-fuzz`: a long wire fuzz in one VM run
# on the debug kernel. Prints PASS/FAIL lines and the fuzzer's summary;
# exits non-zero on failure or a kernel report. `make check` runs short
# ones (svcrdma2_ping.sh, xprtrdma2_hostile.sh).
#
# Usage: scripts/vm-fuzz.sh wire|client
#   wire    svcrdma2 from rpcrdma2-ping's requester fuzzer
#           (tests/fuzz/wire_fuzz.sh): WIRE_FUZZ_COUNT messages (default
#           100000) from WIRE_FUZZ_SEED (default: the time)
#   client  xprtrdma2 from the listener's fuzzer, four listeners
#           (tests/fuzz/client_fuzz.sh): CLIENT_FUZZ_COUNT replies
#           (default 100000) from CLIENT_FUZZ_SEED
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
case ${1:-} in
wire)
	count=${WIRE_FUZZ_COUNT:-100000}
	seed=${WIRE_FUZZ_SEED:-$(date +%s)}
	# messages a second the time limit allows
	rate=5
	;;
client)
	count=${CLIENT_FUZZ_COUNT:-100000}
	seed=${CLIENT_FUZZ_SEED:-$(date +%s)}
	# 47 a second measured on a quiet host (debug kernel, TCG, four
	# listeners), 5.5 beside another guest (a hung mount is caught
	# within 60 s by the fuzz itself; this is the backstop)
	rate=4
	;;
*)
	echo "usage: $0 wire|client" >&2
	exit 2
	;;
esac
what="$1 fuzz"
"$top/scripts/setup-host.sh" > /dev/null || exit 1
make -s tools || exit 1
out=build/$1-fuzz
rm -rf "$out"
scripts/vm/run --quiet --timeout $((count / rate + 1200)) --out "$out" \
	"tests/fuzz/${1}_fuzz.sh" "$count" "$seed"
rc=$?
grep -E '^(PASS|FAIL): |^  \| fuzz: ' "$out/output" | sed 's/^  | //'
case $rc in
0) ;;
125) echo "FAIL: $what: kernel log has a report or no status (see $out)" ;;
124) echo "FAIL: $what: timed out (see $out)" ;;
*) echo "FAIL: $what: exited $rc (see $out)" ;;
esac
[ $rc -eq 0 ] && ! grep -q '^FAIL: ' "$out/output"
