#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build/tools/rpcrdma2-ping, a userspace RPC-over-RDMA requester on a real
# RC QP, against the in-tree (version 1 only) svcrdma on "rdma 20050":
# a v1 NULL ping; a v2 client's negotiation, which gets ERR_VERS and falls
# back to v1 on the same connection (draft-cel-nfsv4-rpcrdma-version-two
# §7.2); a window of calls within the granted credits; --send-hex cases
# byte-exact; and a port nobody listens on failing fast.
# The guest cannot build the tool: `make tools` (a dependency of `make
# check`'s userspace stage) builds it on the host first.
. "$(dirname "$0")/lib.sh"

PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
[ -x "$PING" ] || die "rpcrdma2-ping: $PING not built (run 'make tools' on the host)"

vm_rxe_up
vm_nfsd_up rdma "$NFS_V1_PORT"
t_check "nfsd lists rdma $NFS_V1_PORT" grep -q "^rdma $NFS_V1_PORT\$" /proc/fs/nfsd/portlist

rtt='time=[0-9]+\.[0-9]{3} ms$'

# --- v1 from the start --------------------------------------------------
p_run "v1 ping" --vers 1 --port "$NFS_V1_PORT" -c 5 "$GUEST_IP"
p_expect "ping --vers 1: 5 NULL round trips in version 1" 0 \
	'^private data received \([0-9]+ bytes\): version 1, R 0, send 4096, receive 4096$' \
	'^negotiate: NULL call as RDMA_MSG, rdma_vers 1$' \
	'^version: 1$' \
	'^inline threshold: send 4096, receive 4096$' \
	'^credits: requested 32, granted [1-9][0-9]*$' \
	'^5 calls, 5 replies, 0% lost, version 1' \
	'^rtt min/avg/max = [0-9.]+/[0-9.]+/[0-9.]+ ms$'
p_count "ping --vers 1: one reply line per call, each with its RTT" 5 \
	"^NULL reply from $GUEST_IP: seq=[1-5] .*vers=1 .*$rtt"
p_count "ping --vers 1: no version fallback" 0 '^fallback:'

# --- v2 client against a v1-only server --------------------------------
p_run "v2 fallback" --port "$NFS_V1_PORT" -c 5 "$GUEST_IP"
p_expect "ping (v2): ERR_VERS from the in-tree server, fallback to v1 on the same connection" 0 \
	'^negotiate: NULL call as RDMA2_MSG, rdma_vers 2$' \
	'^negotiate: ERR_VERS, server supports versions 1\.\.1' \
	'^fallback: version 2 -> 1 on this connection$' \
	'^negotiate: NULL call as RDMA_MSG, rdma_vers 1$' \
	'^version: 1 \(fell back from 2\)$' \
	'^credits: requested 32, granted [1-9][0-9]*$' \
	'^5 calls, 5 replies, 0% lost, version 1' \
	'^rtt min/avg/max = '
p_count "ping (v2): 5 NULL replies in version 1, with RTTs" 5 \
	"^NULL reply from $GUEST_IP: seq=[1-5] .*vers=1 .*$rtt"
# One connection only: a fallback that reconnected would show twice.
p_count "ping (v2): one connection" 1 '^connected: '

# -v dumps each message: the v2 call is 76 bytes (20-byte prefix, 16 of
# chunk lists, a 40-byte NULL call), the in-tree ERR_VERS 28, the v1 call 68.
p_run "verbose" -v --port "$NFS_V1_PORT" -c 1 "$GUEST_IP"
p_expect "ping -v: the messages as sent and received" 0 \
	'^sent \(76 bytes\): [0-9a-f]{8} 00000002 00000020 00000000 00000000 ' \
	'^received \(28 bytes\): [0-9a-f]{8} 00000002 [0-9a-f]{8} 00000004 00000001 00000001 00000001$' \
	'^sent \(68 bytes\): [0-9a-f]{8} 00000001 00000020 00000000 00000000 ' \
	'^  type: RDMA_MSG \(0\)$' '^  rpc_length: 24$'

# --- several calls in flight, bounded by the credits --------------------
p_run "window" --vers 1 --port "$NFS_V1_PORT" -c 40 -w 8 --credits 4 "$GUEST_IP"
# The in-tree server grants 64: the request (4) is the lower bound
# (RFC 8166 §3.3.1), and the window of 8 never fills.
p_expect "ping -w 8 --credits 4: 40 calls, at most 4 in flight" 0 \
	'^credits: requested 4, granted [1-9][0-9]*$' \
	'^40 calls, 40 replies, 0% lost, version 1, at most 4 in flight,'

# --- raw messages, byte-exact (RFC 8166 §4.5 as the in-tree server does it)
# A v2 RDMA2_MSG NULL call: the 7-word RFC 8166 ERR_VERS, rdma_vers echoed.
v2hdr="abcd0001 00000002 00000020 00000000 00000000 00000000 00000000 00000000 00000000"
v2call="$v2hdr abcd0001 00000000 00000002 000186a3 00000003 00000000 00000000 00000000 00000000 00000000"
p_run "raw v2 call" --port "$NFS_V1_PORT" --send-hex "$v2call" \
	--expect-hex "abcd0001 00000002 00000000 00000004 00000001 00000001 00000001" \
	--ignore-credits "$GUEST_IP"
p_expect "send-hex v2 RDMA2_MSG: in-tree ERR_VERS 1..1 in the RFC 8166 layout" 0 \
	'^reply matches --expect-hex \(credit word ignored\)$' \
	'^reply error: .*ERR_VERS \(1\), RFC 8166 layout$'
p_count "the shared codec decodes the in-tree ERR_VERS" 0 '^reply codec: rejected'

# An unknown version: ERR_VERS copying rdma_vers 3 (the codec, which
# accepts 1..2, rejects even that error: the tool shows the bytes).
p_run "raw v3" --port "$NFS_V1_PORT" \
	--send-hex "abcd0002 00000003 00000020 00000000 00000000 00000000 00000000" \
	--expect-hex "abcd0002 00000003 00000000 00000004 00000001 00000001 00000001" \
	--ignore-credits "$GUEST_IP"
p_expect "send-hex rdma_vers 3: ERR_VERS 1..1" 0 \
	'^reply matches --expect-hex' '^reply codec: rejected'

# v1 rdma_proc 7: ERR_CHUNK (RFC 8166 §4.5.2)
p_run "raw v1 proc 7" --port "$NFS_V1_PORT" \
	--send-hex "abcd0003 00000001 00000020 00000007 00000000 00000000 00000000" \
	--expect-hex "abcd0003 00000001 00000000 00000004 00000002" \
	--ignore-credits "$GUEST_IP"
p_expect "send-hex v1 rdma_proc 7: ERR_CHUNK" 0 \
	'^reply matches --expect-hex' '^reply error: ERR_CHUNK \(2\)$'

# v1 RDMA_DONE: discarded (RFC 8166 §4.6.2), no reply
p_run "raw v1 RDMA_DONE" --port "$NFS_V1_PORT" -t 2 --expect-no-reply \
	--send-hex "abcd0004 00000001 00000020 00000003 00000000 00000000 00000000" \
	"$GUEST_IP"
p_expect "send-hex v1 RDMA_DONE: no reply" 0 '^no reply$'

# --expect-hex really compares: a wrong expectation fails
p_run "raw mismatch" --port "$NFS_V1_PORT" \
	--send-hex "abcd0005 00000001 00000020 00000007 00000000 00000000 00000000" \
	--expect-hex "abcd0005 00000001 00000000 00000004 00000001" \
	--ignore-credits "$GUEST_IP"
p_expect "send-hex with a wrong --expect-hex exits 1" 1 \
	'the reply differs from --expect-hex'

# --- nobody listens ----------------------------------------------------
p_run "no listener" --port 20051 -t 5 "$GUEST_IP"
if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
	t_fail "ping to a port nobody listens on fails cleanly" "exit $rc"
elif [ "$secs" -gt 10 ]; then
	t_fail "ping to a port nobody listens on fails cleanly" "took ${secs} s"
elif ! grep -q 'rpcrdma2-ping: connecting to .*20051' <<<"$out"; then
	t_fail "ping to a port nobody listens on fails cleanly" "no clear message"
else
	t_pass "ping to a port nobody listens on fails cleanly (exit $rc, ${secs} s)"
fi

vm_nfsd_down
t_done
