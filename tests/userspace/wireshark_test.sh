#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/wireshark/rpcrdma2.lua under the host's tshark (Debian 12: 4.0).
# build/wireshark/vectors_pcap writes the codec's test vectors as RoCEv2
# packets with what each must decode to, and NFSv3 WRITE Calls longer than
# the path MTU (tests/wireshark/vectors_pcap.c); tests/wireshark/check_pcap.py
# checks every field of every packet, in one pass and in two, then every
# prefix of the valid messages against what rpcrdma2_decode() makes of it;
# last, a copy of the dissector with one field wrong must fail the same
# check. Prints PASS:/FAIL: lines; exits 1 if any failed.
#
# Usage: wireshark_test.sh [GENERATOR]   (default: build/wireshark/vectors_pcap)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
gen=${1:-$top/build/wireshark/vectors_pcap}
check=$top/tests/wireshark/check_pcap.py
lua=$top/tools/wireshark/rpcrdma2.lua
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v tshark >/dev/null; then
	echo "FAIL: wireshark: tshark is not installed (scripts/setup-host.sh installs it)"
	exit 1
fi
if [ ! -x "$gen" ]; then
	echo "FAIL: wireshark: $gen not built (make userspace-test builds it)"
	exit 1
fi
if ! "$gen" "$tmp"; then
	echo "FAIL: wireshark: $gen could not write the captures"
	exit 1
fi

python3 "$check" "$tmp/vectors.pcap" "$tmp/vectors.expect" || failed=1
# tshark -2 dissects without a protocol tree first: the infiniband fields
# a longer message is put together from come only in the second pass
python3 "$check" --summary "the same in two passes (tshark -2)" \
	--tshark-arg=-2 --tshark-arg=--disable-heuristic \
	--tshark-arg=rpcrdma_infiniband "$tmp/vectors.pcap" "$tmp/vectors.expect" ||
	failed=1
python3 "$check" --summary "every prefix of the valid messages: the dissector agrees with rpcrdma2_decode()" \
	"$tmp/cuts.pcap" "$tmp/cuts.expect" || failed=1

# A dissector that reads each segment's length from its handle must fail
# exactly the records that have segments, on that field alone.
sed 's/st:add(hf.length, r(4, 4))/st:add(hf.length, r(0, 4))/' "$lua" >"$tmp/broken.lua"
want=$(awk '/^rpcrdma2.segment.length / && $2 != "-" {n++} END{print n+0}' \
	"$tmp/vectors.expect")
out=$(python3 "$check" --lua "$tmp/broken.lua" "$tmp/vectors.pcap" "$tmp/vectors.expect")
got=$(grep -c '^FAIL: ' <<<"$out")
other=$(grep '^FAIL: ' <<<"$out" | grep -v ': rpcrdma2.segment.length: got [^;]*$' | head -n 1)
if cmp -s "$lua" "$tmp/broken.lua"; then
	echo "FAIL: wireshark: a wrong field fails the check: the dissector could not be broken"
	failed=1
elif [ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ -z "$other" ]; then
	echo "PASS: wireshark: a wrong field fails the check ($got records with segments)"
else
	echo "FAIL: wireshark: a wrong field fails the check: $got records failed, want $want${other:+; $other}"
	failed=1
fi

exit $failed
