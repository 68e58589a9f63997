#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The check of a capture tests/pair/capture.sh recorded, on the host once
# both guests are off: tests/wireshark/trace_pcap.py decodes
# OUT/client/capture.pcap with tools/wireshark/rpcrdma2.lua under the
# host's tshark (Debian's, the one the guests run) and matches every
# message with what the client's and the server's tracepoints recorded
# (OUT/client/trace, OUT/server/trace). On the host it takes seconds; in
# a debug guest under TCG it took two minutes while both guests waited.
# Prints PASS:/FAIL: lines; exits 1 if any failed.
#
# Usage: capture_check.sh OUT   (the --out of scripts/vm/pair)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: capture_check.sh OUT}
pcap=$out/client/capture.pcap
res=$out/client/trace_pcap.out
# the kinds of message and chunk the capture must hold (capture.sh's workload)
want=msg,nomsg,connprop,read,write,reply,swi
failed=0

fail() {
	echo "FAIL: capture: $1: $2"
	failed=1
}

for f in "$pcap" "$out/client/trace" "$out/server/trace"; do
	if [ ! -s "$f" ]; then
		fail "every message on the wire agrees with what both sides traced" "no $f"
		exit 1
	fi
done
# (a HOME of its own: tshark reads no personal preferences of the host's)
home=$(mktemp -d)
HOME=$home python3 "$top/tests/wireshark/trace_pcap.py" --want "$want" --self-test \
	--records "$out/client/capture.expect" \
	"$pcap" "$out/client/trace" "$out/server/trace" > "$res" 2>&1
rm -rf "$home"
sed 's/^/  | /' "$res" | head -n 40
n=$(sed -n 's/^messages: \([0-9]*\) .*/\1/p' "$res")
if grep -q "^mismatch: \|^error: " "$res" || [ "${n:-0}" = 0 ]; then
	fail "every message on the wire (${n:-0}) agrees with what both sides traced" \
		"$(grep -c '^mismatch: ' "$res") mismatches; $(grep -m 1 '^mismatch: \|^error: ' "$res")"
else
	echo "PASS: capture: every message on the wire ($n) agrees with what both sides traced, and every traced one is on the wire"
fi
name="the capture holds RDMA2_MSG, RDMA2_NOMSG, RDMA2_CONNPROP, Read, Write and Reply chunks and Send With Invalidate"
if grep -q '^missing: ' "$res"; then
	fail "$name" "$(grep '^missing: ' "$res" | tr '\n' ' ')"
else
	echo "PASS: capture: $name"
fi
name="a wrong field in a trace fails the check (a reply's credits, an invalidated rkey)"
if grep -q '^self-test passed: ' "$res"; then
	echo "PASS: capture: $name"
else
	fail "$name" "$(grep -m 1 '^self-test' "$res")"
fi
exit $failed
