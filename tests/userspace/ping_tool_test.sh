#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The programs on tools/lib, on the host: the command line only (usage
# errors exit 2 before anything touches RDMA) of rpcrdma2-ping, the
# requester, rpcrdma2-listen, the responder, and the two wire fuzzers.
# The round trips themselves run in the test guest: tests/vm/ping_v1.sh,
# ping_listen.sh and others.
# Prints one PASS:/FAIL: line per case; exits 1 if any failed.
#
# Usage: ping_tool_test.sh [DIR]   (default: build/tools)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$top/build/tools}
failed=0

for tool in rpcrdma2-ping rpcrdma2-listen rpcrdma2-wire-fuzz rpcrdma2-listen-fuzz; do
	if [ ! -x "$dir/$tool" ]; then
		echo "FAIL: ping tool: $dir/$tool not built"
		exit 1
	fi
done
tool=$dir/rpcrdma2-ping

# t NAME EXIT REGEX ARGS...: the tool exits EXIT and prints a line
# matching REGEX (stdout and stderr together)
t() {
	local name=$1 want=$2 re=$3 out rc
	shift 3
	out=$(timeout 10 "$tool" "$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $name: exit $rc, want $want: $(echo "$out" | head -n 3 | tr '\n' '|')"
		failed=1
	elif ! grep -Eq -- "$re" <<<"$out"; then
		echo "FAIL: $name: no line matching '$re' in: $(echo "$out" | head -n 3 | tr '\n' '|')"
		failed=1
	else
		echo "PASS: $name"
	fi
}

t "ping tool: --help" 0 '^  -c, --count N' --help
t "ping tool: no HOST" 2 'exactly one HOST'
t "ping tool: two HOSTs" 2 'exactly one HOST' a b
t "ping tool: --vers 3" 2 '--vers must be 1 or 2' --vers 3 h
t "ping tool: --size not a multiple of 1024" 2 'multiple of 1024' --size 1000 h
t "ping tool: --size above 256 KiB" 2 'multiple of 1024' --size 263168 h
t "ping tool: --window 0" 2 'bad --window' -w 0 h
t "ping tool: --window above the maximum" 2 'bad --window' -w 257 h
t "ping tool: --timeout 0" 2 'bad --timeout' -t 0 h
t "ping tool: --port 0" 2 'bad --port' -p 0 h
t "ping tool: --count not a number" 2 'bad --count' -c x h
t "ping tool: odd hex digit count" 2 'bad --send-hex' --send-hex abc h
t "ping tool: hex byte split by a space" 2 'bad --send-hex' --send-hex "0 1" h
t "ping tool: non-hex character" 2 'bad --send-hex' --send-hex 0g h
t "ping tool: --expect-hex needs --send-hex" 2 'need --send-hex' \
	--expect-hex 00 h
t "ping tool: --ignore-credits needs --send-hex" 2 'need --send-hex' \
	--ignore-credits h
t "ping tool: --expect-hex and --expect-no-reply" 2 'exclude each other' \
	--send-hex 00000000 --expect-hex 00 --expect-no-reply h
t "ping tool: --send-hex longer than --size" 2 'exceeds --size' \
	--size 1024 --send-hex "$(printf '00%.0s' $(seq 1025))" h
t "ping tool: --help names --after-negotiate" 0 '^      --after-negotiate' --help
t "ping tool: --after-negotiate needs --send-hex" 2 'need --send-hex' \
	--after-negotiate h
t "ping tool: --then-ping needs --send-hex" 2 'need --send-hex' \
	--then-ping h
t "ping tool: --overrun with a window above the credits" 2 \
	'--overrun needs --window <= --credits' --overrun -w 40 --credits 32 h
t "ping tool: --help names --flood" 0 '^      --flood N' --help
t "ping tool: --flood 0" 2 'bad --flood' --flood 0 h
t "ping tool: --fat-reply 129" 2 '--fat-reply takes 1..128' --fat-reply 129 h
t "ping tool: --flood with --fat-reply" 2 'exclude the other modes' \
	--flood 10 --fat-reply 10 h
t "ping tool: --recv-size above --size" 2 '--recv-size must not exceed' \
	--recv-size 8192 h
t "ping tool: --fuzz is the wire fuzzer's" 2 "unrecognized option '--fuzz'" \
	--fuzz 10 h
t "ping tool: --long-call below a NULL call" 2 'multiple of 4, 40..65536' \
	--long-call 36 h
t "ping tool: --long-call not a multiple of 4" 2 'multiple of 4' --long-call 4001 h
t "ping tool: --long-call above 64 KiB" 2 'multiple of 4' --long-call 65540 h
t "ping tool: --write-chunk needs --read or --readlink" 2 \
	'--write-chunk needs --read or --readlink' --write-chunk h
t "ping tool: --inv needs chunks" 2 '--inv needs chunks' --inv h
t "ping tool: --read and --readlink" 2 'one of --readlink and --read' \
	--read a --readlink b h
t "ping tool: chunks with --send-hex" 2 'chunk options exclude --send-hex' \
	--long-call 40 --send-hex 00000000 h
t "ping tool: --help names --read" 0 '^      --read PATH' --help
t "ping tool: --write-chunk-len 0" 2 'bad --write-chunk-len' --write-chunk-len 0 h
t "ping tool: --write-chunk-len above 16 KiB" 2 'bad --write-chunk-len' \
	--write-chunk-len 16385 h
t "ping tool: --listen is rpcrdma2-listen" 2 "unrecognized option '--listen'" \
	--listen

tool=$dir/rpcrdma2-listen
t "listen tool: --help" 0 '^  -p, --port N ' --help
t "listen tool: --help lists the hostile modes" 0 '^  bad-pdata-short ' --help
t "listen tool: takes no HOST" 2 'rpcrdma2-listen takes no HOST' h
t "listen tool: no requester options" 2 "unrecognized option '--count'" \
	--count 3
t "listen tool: no -c" 2 "invalid option -- 'c'" -c 3
t "listen tool: no --send-hex" 2 "unrecognized option '--send-hex'" \
	--send-hex 00000000
t "listen tool: an unknown --hostile mode" 2 'unknown --hostile mode' \
	--hostile nice
t "listen tool: --max-conns 0" 2 'bad --max-conns' --max-conns 0
t "listen tool: --inv-rkey not a number" 2 'bad --inv-rkey' --inv-rkey x
t "listen tool: --timeout 0" 2 'bad --timeout' -t 0
t "listen tool: no --fuzz (rpcrdma2-listen-fuzz)" 2 \
	"unrecognized option '--fuzz'" --fuzz 10

tool=$dir/rpcrdma2-listen-fuzz
t "listen fuzz tool: --help" 0 '^      --fuzz N ' --help
t "listen fuzz tool: --fuzz is required" 2 '--fuzz N is required' --seed 3
t "listen fuzz tool: --fuzz 0" 2 'bad --fuzz' --fuzz 0
t "listen fuzz tool: takes no HOST" 2 'rpcrdma2-listen-fuzz takes no HOST' \
	--fuzz 10 h
t "listen fuzz tool: no --hostile" 2 "unrecognized option '--hostile'" \
	--fuzz 10 --hostile short

tool=$dir/rpcrdma2-wire-fuzz
t "wire fuzz tool: --help" 0 '^      --corpus DIR ' --help
t "wire fuzz tool: --fuzz is required" 2 '--fuzz N is required' h
t "wire fuzz tool: --fuzz 0" 2 'bad --fuzz' --fuzz 0 h
t "wire fuzz tool: no HOST" 2 'exactly one HOST' --fuzz 10
t "wire fuzz tool: no --send-hex" 2 "unrecognized option '--send-hex'" \
	--fuzz 10 --send-hex 00000000 h
t "wire fuzz tool: --seed not a number" 2 'bad --seed' --fuzz 10 --seed x h

exit $failed
