#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rpcrdma2-listen, the responder a client transport is tested
# against, checked with rpcrdma2-ping, the requester on the same library,
# on the wire:
# 1. good: v2 with the server's RDMA2_CONNPROP first, v1, the other
#    version after the first Call fixed it (ERR_VERS 2..2, byte-exact), a
#    Long Call (RDMA2_ERR_READ_CHUNKS 0: no RDMA Read here), remote
#    invalidation of exactly the handle a call offered (v2 and v1), two
#    clients at once served one after the other; v1only: the in-tree
#    server's 7-word ERR_VERS and the client's fallback to v1.
# 2. Every hostile mode, with the verdict the specs ask of a requester:
#    each transport error fails its call (v2, and in v1 ERR_VERS and
#    ERR_CHUNK; other codes in a v1 RDMA_ERROR cannot be decoded and are
#    discarded); a reply with an XID nobody sent, without
#    RPCRDMA2_F_RESPONSE, in the other version, shorter than a header or
#    with its chunk lists cut short is discarded (RFC 8166 §4.5) and the
#    call times out; a grant of 0 is taken as 1, a grant of 2^32 - 1 as
#    the credits requested (§3.3.1); Send With Invalidate of a key never
#    offered fails the Receive on rxe; bogus private data means the
#    RFC 8797 §5.1 defaults, or the sizes it names; silence times out.
# Each listener serves --max-conns connections and must exit 0 by itself;
# its line per Call must name the XID the requester reports.
# The guest cannot build the tools: `make tools` builds them on the host.
. "$(dirname "$0")/lib.sh"

PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
[ -x "$PING" ] || die "rpcrdma2-ping: $PING not built (run 'make tools' on the host)"
LISTEN=$RPCRDMA2_TOP/build/tools/rpcrdma2-listen
[ -x "$LISTEN" ] || die "rpcrdma2-listen: $LISTEN not built (run 'make tools' on the host)"

vm_rxe_up

LPORT=20050	# l_start takes the next: 20051 and up (20049/20050 are nfsd's)
T=1.5		# seconds a requester waits for a reply it must not get

# Starting a process costs ~0.5 s in the debug guest (TCG, KASAN, a 9p
# root), so these helpers start nothing but the two tools: output
# is kept in arrays and matched with bash's own (extended) regexes, and a
# listener's output is read from a pipe: its first line says it listens,
# the end of it that it has exited.

# matches ARRAY REGEX: an element of ARRAY matches REGEX; the first such
# is left in $hit
matches() {
	local -n _lines=$1
	for hit in "${_lines[@]}"; do
		[[ $hit =~ $2 ]] && return 0
	done
	return 1
}

# check NAME ARRAY RC WANT-RC REGEX...: RC is WANT-RC and each REGEX
# matches a line of ARRAY
check() {
	local name=$1 arr=$2 got=$3 want=$4 re
	shift 4
	if [ "$got" != "$want" ]; then
		t_fail "$name" "exit $got, want $want"
		return
	fi
	for re in "$@"; do
		if ! matches "$arr" "$re"; then
			t_fail "$name" "no line matching '$re'"
			return
		fi
	done
	t_pass "$name"
}

# count NAME ARRAY N REGEX: exactly N lines of ARRAY match REGEX
count() {
	local -n _c=$2
	local l n=0
	for l in "${_c[@]}"; do
		[[ $l =~ $4 ]] && n=$((n + 1))
	done
	if [ "$n" = "$3" ]; then t_pass "$1"; else t_fail "$1" "$n lines, want $3"; fi
}

# run NAME ARGS...: rpcrdma2-ping ARGS; its lines in out[], status in $rc
run() {
	local name=$1 f t0=${EPOCHREALTIME%.*}
	shift
	f=$RESULTS/listen-${name//[ \/]/_}.out
	"$PING" "$@" > "$f" 2>&1
	rc=$?
	mapfile -t out < "$f"
	echo "-- $name: rpcrdma2-ping $* (exit $rc, $((${EPOCHREALTIME%.*} - t0)) s)"
	printf '  | %s\n' "${out[@]}"
}

# expect NAME WANT-RC REGEX...: of the last run
expect() {
	check "$1" out "$rc" "$2" "${@:3}"
}

# l_start NAME MODE CONNS [ARGS...]: rpcrdma2-listen --hostile MODE
# on the next port, in the background, until it has served CONNS
# connections (or 30 s); returns once it listens.
l_start() {
	local mode=$2 conns=$3 first
	lname=$1
	shift 3
	LPORT=$((LPORT + 1))
	# a coprocess: the guest has no /dev/fd for <(...); bash closes the
	# coprocess's fds when it exits, so read from a copy
	coproc LSN { exec "$LISTEN" --port "$LPORT" --hostile "$mode" \
		--max-conns "$conns" --timeout 30 "$@" 2>&1; }
	lpid=$LSN_PID
	exec {lfd}<&"${LSN[0]}"
	lres=()
	if IFS= read -r -u "$lfd" first; then
		lres=("$first")
	fi
	[[ $first == "listening on "* ]] ||
		t_fail "listener $lname" "did not listen: $first"
}

# l_wait: wait for the listener to exit by itself; its lines in lres[],
# its status in $lrc
l_wait() {
	local more
	mapfile -t -u "$lfd" more
	exec {lfd}<&-
	wait "$lpid"
	lrc=$?
	lres+=("${more[@]}")
	printf '%s\n' "${lres[@]}" > "$RESULTS/listen-server-${lname//[ \/]/_}.out"
	echo "-- listener $lname (exit $lrc)"
	printf '  > %s\n' "${lres[@]}"
}

# l_expect NAME REGEX...: the listener exited 0, stopped by --max-conns,
# and printed a line matching each REGEX
l_expect() {
	check "$1" lres "$lrc" 0 \
		'^listen: [0-9]+ connections, [0-9]+ calls; stopped by --max-conns$' "${@:2}"
}

# same_xid NAME PING-REGEX LISTEN-REGEX: the first XID on the requester's
# line matching PING-REGEX is on a listener line matching LISTEN-REGEX,
# where XID stands for it
same_xid() {
	local x=
	if matches out "$2" && [[ $hit =~ 0x[0-9a-f]{8} ]]; then
		x=${BASH_REMATCH[0]}
	fi
	if [ -n "$x" ] && matches lres "${3//XID/$x}"; then
		t_pass "$1"
	else
		t_fail "$1" "xid '$x' of '$2' not on a listener line '$3'"
	fi
}

pd_ok='^private data received \(196 bytes\): version 1, R 1, send 4096, receive 4096$'

# --- 1. good ---------------------------------------------------------------
l_start good good 6
run "good v2" --port "$LPORT" -c 5 -w 4 "$GUEST_IP"
expect "good, v2: 5 NULL calls, 4 in flight, the server's CONNPROP first" 0 \
	"$pd_ok" '^version: 2$' '^inline threshold: send 4096, receive 4096$' \
	'^connprop: RBSIZ 4096 \(sent\), BRS RDMA2_RVREQSUP_NONE \(sent\), credit field 32$' \
	'^connprop: xid 0x00000000, flags 0x00000001 RESPONSE, before the first reply$' \
	'^credits: requested 32, granted 32$' \
	'^5 calls, 5 replies, 0% lost, version 2, at most 4 in flight'
ping_v2=("${out[@]}")
run "good v1" --vers 1 --port "$LPORT" -c 3 "$GUEST_IP"
expect "good, v1: NULL calls in version 1" 0 \
	'^version: 1$' '^inline threshold: send 4096, receive 4096$' \
	'^3 calls, 3 replies, 0% lost, version 1'
count "good, v1: no CONNPROP" out 0 '^connprop: RBSIZ'
# After a v2 Call fixed the version, a v1 one: ERR_VERS 2..2 in v1
# (draft v2 §7.3, RFC 8166 §4.5: rdma_vers copied, 7 words, grant 32)
run "good v1 after v2" --port "$LPORT" --after-negotiate --then-ping -c 2 \
	--send-hex "abcd0001 00000001 00000020 00000000 00000000 00000000 00000000
		abcd0001 00000000 00000002 000186a3 00000003 00000000 00000000 00000000 00000000 00000000" \
	--expect-hex "abcd0001 00000001 00000020 00000004 00000001 00000002 00000002" \
	"$GUEST_IP"
expect "good: a v1 Call after v2 was fixed gets ERR_VERS 2..2, the connection goes on" 0 \
	'^reply matches --expect-hex$' '^2 calls, 2 replies, 0% lost, version 2'
# A Long Call: nothing here does RDMA Read (draft v2 §5.3.3)
run "good long call" --port "$LPORT" --long-call 2000 -c 1 "$GUEST_IP"
expect "good: a Long Call gets RDMA2_ERR_READ_CHUNKS, rdma_max_chunks 0" 1 \
	'server answered RDMA2_ERROR RDMA2_ERR_READ_CHUNKS$' '^error max_chunks: 0$'
# Remote invalidation of the handle the call named (v2) or offered (v1,
# both R bits set: RFC 8797 §4.1); the requester checks the key of each
run "good inv v2" --port "$LPORT" --reply-chunk --inv -c 4 "$GUEST_IP"
expect "good, v2: every reply by Send With Invalidate of the call's rdma_inv_handle" 0 \
	'^4 calls, 4 replies, 0% lost, version 2' \
	'^remote invalidation: 5 of 5 replies .*invalidated their call.s handle$'
run "good inv v1" --vers 1 --port "$LPORT" --reply-chunk --inv -c 4 "$GUEST_IP"
expect "good, v1 with both R bits: every reply invalidates the call's handle" 0 \
	'^remote invalidation: ours yes, server.s yes: server may use Send With Invalidate$' \
	'^remote invalidation: 5 of 5 replies .*invalidated their call.s handle$'
l_wait
l_expect "good: six connections served, one after another, each closed by its client" \
	'^conn 1: request from 10\.0\.2\.15 port [0-9]+, private data received \([0-9]+ bytes\): version 1, R 1, send 4096, receive 4096$' \
	'^conn 1: private data sent \(8 bytes\): f6ab0e18 01010303$' \
	'^conn 1: version 2 fixed by xid 0x[0-9a-f]{8}$' \
	'^connprop sent: RBSIZ 4096, BRS RDMA2_RVREQSUP_NONE$' \
	'^conn 1: connprop received: RBSIZ 4096 \(sent\), BRS RDMA2_RVREQSUP_NONE \(sent\)$' \
	'^conn 1: closed: the client disconnected; 6 calls$' \
	'^conn 2: version 1 fixed' '^conn 2: closed: the client disconnected; 4 calls$' \
	'^conn 3: xid 0xabcd0001 v1, rejected \(VERS\): sent RDMA_ERROR ERR_VERS vers_low 2 vers_high 2 \(28 bytes, credits 32\)$' \
	'^conn 4: xid 0x[0-9a-f]{8} v2, rejected \(READ_CHUNKS\): sent RDMA2_ERROR RDMA2_ERR_READ_CHUNKS max_chunks 0 \(28 bytes, credits 32\)$' \
	'^conn 5: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_MSG SUCCESS by Send With Invalidate of 0x[0-9a-f]{8} \(60 bytes, credits 32\)$' \
	'^conn 6: xid 0x[0-9a-f]{8} v1 proc 0: sent RDMA_MSG SUCCESS by Send With Invalidate of 0x[0-9a-f]{8} \(52 bytes, credits 32\)$' \
	'^listen: 6 connections, 23 calls; stopped by --max-conns$'
count "good, v2: one SUCCESS line per NULL call" lres 6 \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_MSG SUCCESS \(60 bytes, credits 32\)$'
out=("${ping_v2[@]}")
same_xid "good, v2: the listener answered the requester's XIDs" \
	'^NULL reply from .* seq=5 ' '^conn 1: xid XID v2 proc 0: sent RDMA2_MSG SUCCESS'

# Two clients at once: the second waits until the first is done
l_start "two clients" good 2
"$PING" --port "$LPORT" -c 5 -w 4 "$GUEST_IP" > "$RESULTS/listen-two_clients_1.out" 2>&1 &
bg=$!
run "two clients 2" --port "$LPORT" -c 5 -w 4 "$GUEST_IP"
expect "two clients: one client's 5 calls answered" 0 '^5 calls, 5 replies, 0% lost'
wait "$bg"
rc=$?
mapfile -t out < "$RESULTS/listen-two_clients_1.out"
expect "two clients: the other's 5 calls answered too" 0 '^5 calls, 5 replies, 0% lost'
l_wait
l_expect "good: two clients at once, served one after the other" \
	'^conn 1: closed: the client disconnected; 6 calls$' \
	'^conn 2: closed: the client disconnected; 6 calls$'

# --timeout with nobody connecting
l_start "timeout" good 1 --timeout 2
l_wait
check "rpcrdma2-listen --timeout 2: exits 0 on its own, nobody served" lres "$lrc" 0 \
	'^listen: 0 connections, 0 calls; stopped by --timeout$'

# --- v1only ----------------------------------------------------------------
l_start v1only v1only 1
run v1only -v --port "$LPORT" -c 3 "$GUEST_IP"
expect "v1only: the 7-word ERR_VERS 1..1, fallback to v1 on the same connection" 0 \
	'^received \(28 bytes\): [0-9a-f]{8} 00000002 00000020 00000004 00000001 00000001 00000001$' \
	'^negotiate: ERR_VERS, server supports versions 1\.\.1 \(RFC 8166 layout\)$' \
	'^fallback: version 2 -> 1 on this connection$' '^version: 1 \(fell back from 2\)$' \
	'^3 calls, 3 replies, 0% lost, version 1'
count "v1only: one connection" out 1 '^connected: '
l_wait
l_expect "v1only: the v2 Call rejected in the RFC 8166 layout, then v1 served" \
	'^conn 1: xid 0x[0-9a-f]{8} v2, rejected \(VERS\): sent RDMA_ERROR ERR_VERS vers_low 1 vers_high 1 \(RFC 8166 layout\) \(28 bytes, credits 32\)$' \
	'^conn 1: version 1 fixed' '^conn 1: closed: the client disconnected; 4 calls$'
same_xid "v1only: the ERR_VERS answered the requester's first call" \
	'^  xid: ' '^conn 1: xid XID v2, rejected \(VERS\)'

# --- 2. transport errors ------------------------------------------------------
# err_mode MODE V2-ERROR ARM-REGEX [V1-VERDICT]: a v2 client, whose call
# must fail with V2-ERROR; with V1-VERDICT a v1 client too, whose call
# must fail with that RDMA_ERROR, or (discard) time out: a code v1 cannot
# carry makes an RDMA_ERROR the requester cannot decode (RFC 8166 §4.5)
err_mode() {
	local mode=$1 v2err=$2 arm=$3 v1=$4
	l_start "$mode" "$mode" $((${v1:+1} + 1))
	run "$mode v2" --port "$LPORT" -t "$T" "$GUEST_IP"
	expect "$mode, v2: the call fails with $v2err" 1 \
		"xid 0x[0-9a-f]{8}: server answered RDMA2_ERROR $v2err\$" ${arm:+"$arm"}
	count "$mode, v2: no NULL reply" out 0 '^NULL reply'
	v2out=("${out[@]}")
	case $v1 in
	'') ;;
	discard)
		run "$mode v1" --vers 1 --port "$LPORT" -t "$T" "$GUEST_IP"
		expect "$mode, v1: a code v1 cannot carry is discarded, the call times out" 1 \
			'discarded a 20-byte message the codec rejects \(BAD_ERROR\)$' \
			'no reply within 1\.5 s \(messages were discarded\)$' ;;
	*)
		run "$mode v1" --vers 1 --port "$LPORT" -t "$T" "$GUEST_IP"
		expect "$mode, v1: the call fails with $v1" 1 \
			"xid 0x[0-9a-f]{8}: server answered RDMA_ERROR $v1\$" ;;
	esac
	l_wait
	l_expect "$mode: one error per call" \
		'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_ERROR '
	count "$mode: no version fixed, no CONNPROP" lres 0 'fixed by|^connprop sent'
	out=("${v2out[@]}")
	same_xid "$mode, v2: the error has the call's XID" \
		'server answered RDMA2_ERROR' '^conn 1: xid XID v2 proc 0: sent RDMA2_ERROR '
}
err_mode err-bad-xdr RDMA2_ERR_BAD_XDR '' ERR_CHUNK
err_mode err-inval-htype RDMA2_ERR_INVAL_HTYPE ''
err_mode err-read-chunks RDMA2_ERR_READ_CHUNKS '^error max_chunks: 0$'
err_mode err-write-chunks RDMA2_ERR_WRITE_CHUNKS '^error max_chunks: 4$'
err_mode err-segments RDMA2_ERR_SEGMENTS '^error max_segments: 32$'
err_mode err-write-resource RDMA2_ERR_WRITE_RESOURCE '^error chunk_index: 1$'
err_mode err-reply-resource RDMA2_ERR_REPLY_RESOURCE '^error length_needed: 8192$'
err_mode err-system RDMA2_ERR_SYSTEM '' discard
count "err-system: code 9 in a v1 RDMA_ERROR" lres 1 \
	'^conn 2: xid 0x[0-9a-f]{8} v1 proc 0: sent RDMA_ERROR code 9 \(ERR_CHUNK patched\) \(20 bytes, credits 32\); a requester.s codec rejects it \(BAD_ERROR\)$'
err_mode err-unknown UNKNOWN '' discard
count "err-unknown: code 99 in v2 and in v1" lres 2 \
	'sent RDMA2?_ERROR code 99 '

# ERR_VERS naming only the other version: v2 falls back to v1, which is
# refused too; the client gives up instead of looping (draft v2 §7.2)
l_start err-vers err-vers 2
run "err-vers v2" --port "$LPORT" -t "$T" "$GUEST_IP"
expect "err-vers, v2: fallback to v1, ERR_VERS 2..2, no version in common" 1 \
	'^negotiate: ERR_VERS, server supports versions 1\.\.1$' \
	'^fallback: version 2 -> 1 on this connection$' \
	'^negotiate: ERR_VERS, server supports versions 2\.\.2$' \
	'no transport version in common: we speak 1\.\.2, the server 2\.\.2$'
run "err-vers v1" --vers 1 --port "$LPORT" -t "$T" "$GUEST_IP"
expect "err-vers, v1: ERR_VERS 2..2, no version in common" 1 \
	'^negotiate: ERR_VERS, server supports versions 2\.\.2$' \
	'no transport version in common'
l_wait
l_expect "err-vers: ERR_VERS naming the other version each time" \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_ERROR RDMA2_ERR_VERS vers_low 1 vers_high 1 \(32 bytes, credits 32\)$' \
	'^conn 1: xid 0x[0-9a-f]{8} v1 proc 0: sent RDMA_ERROR ERR_VERS vers_low 2 vers_high 2 \(28 bytes, credits 32\)$' \
	'^conn 2: xid 0x[0-9a-f]{8} v1 proc 0: sent RDMA_ERROR ERR_VERS vers_low 2 vers_high 2 \(28 bytes, credits 32\)$'

# --- replies a requester must discard (RFC 8166 §4.5) -------------------------
# discard_mode MODE V2-REGEX V1-REGEX LISTEN-REGEX...: a v2 client and,
# with V1-REGEX, a v1 one discard the reply (saying so in a line matching
# V2-/V1-REGEX), and their call times out; the listener printed lines
# matching each LISTEN-REGEX
discard_mode() {
	local mode=$1 v2=$2 v1=$3
	shift 3
	l_start "$mode" "$mode" $((${v1:+1} + 1))
	run "$mode v2" --port "$LPORT" -t "$T" "$GUEST_IP"
	expect "$mode, v2 call: the reply is discarded, the call times out" 1 "$v2" \
		'no reply within 1\.5 s \(messages were discarded\)$'
	if [ -n "$v1" ]; then
		run "$mode v1" --vers 1 --port "$LPORT" -t "$T" "$GUEST_IP"
		expect "$mode, v1 call: the reply is discarded, the call times out" 1 "$v1" \
			'no reply within 1\.5 s \(messages were discarded\)$'
	fi
	l_wait
	l_expect "$mode: what the listener sent" "$@"
}
discard_mode bad-xid \
	'discarded a RDMA2_MSG with xid 0x[0-9a-f]{8}: no such call outstanding$' \
	'discarded a RDMA_MSG with xid 0x[0-9a-f]{8}: no such call outstanding$' \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_MSG SUCCESS with xid 0x[0-9a-f]{8} \(60 bytes, credits 32\)$'
same_xid "bad-xid: the XID discarded is the one the listener made up" \
	'discarded a RDMA_MSG with xid' '^conn 2: .* sent RDMA_MSG SUCCESS with xid XID '
discard_mode no-response-flag \
	'discarded a 60-byte message the codec rejects \(MSG_TYPE\)$' '' \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_MSG SUCCESS without RPCRDMA2_F_RESPONSE \(60 bytes, credits 32\); a requester.s codec rejects it \(MSG_TYPE\)$'
discard_mode bad-vers \
	'discarded a RDMA_MSG with xid 0x[0-9a-f]{8}: version 1, its call.s is 2$' \
	'discarded a RDMA2_MSG with xid 0x[0-9a-f]{8}: version 2, its call.s is 1$' \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA_MSG SUCCESS in version 1 \(52 bytes, credits 32\)$' \
	'^conn 2: xid 0x[0-9a-f]{8} v1 proc 0: sent RDMA2_MSG SUCCESS in version 2 \(60 bytes, credits 32\)$'
discard_mode short \
	'discarded a 12-byte message the codec rejects \(SHORT\)$' '' \
	'^conn 1: .* sent the first 12 bytes of RDMA2_MSG SUCCESS \(12 bytes, credits 32\); a requester.s codec rejects it \(SHORT\)$'
discard_mode truncated \
	'discarded a 56-byte message the codec rejects \(TRUNCATED\)$' \
	'discarded a 48-byte message the codec rejects \(TRUNCATED\)$' \
	'^conn 1: .* sent RDMA2_MSG, its Reply chunk cut after 1 of 2 segments \(56 bytes, credits 32\); a requester.s codec rejects it \(TRUNCATED\)$'
# RFC 8166 §4.3.2: a reply returns only the Write chunks its call
# offered; one that returns another fails its call
l_start write-list write-list 2
run "write-list v2" --port "$LPORT" -t "$T" "$GUEST_IP"
expect "write-list, v2 call: a Write chunk it never offered fails the call" 1 \
	'xid 0x[0-9a-f]{8}: the reply returns 1 Write chunks, the call offered 0$'
run "write-list v1" --vers 1 --port "$LPORT" -t "$T" "$GUEST_IP"
expect "write-list, v1 call: a Write chunk it never offered fails the call" 1 \
	'xid 0x[0-9a-f]{8}: the reply returns 1 Write chunks, the call offered 0$'
l_wait
l_expect "write-list: what the listener sent" \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_MSG SUCCESS with a Write chunk it never offered \(84 bytes, credits 32\)$' \
	'^conn 2: xid 0x[0-9a-f]{8} v1 proc 0: sent RDMA_MSG SUCCESS with a Write chunk it never offered \(76 bytes, credits 32\)$'

l_start silent silent 1
run silent --port "$LPORT" -t "$T" "$GUEST_IP"
expect "silent: the call times out" 1 'no reply within 1\.5 s$'
l_wait
l_expect "silent: nothing sent" '^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent nothing \(silent\)$' \
	'^conn 1: closed: the client disconnected; 1 calls$'

# --- credits (RFC 8166 §3.3.1) --------------------------------------------------
l_start credits-0 credits-0 1
run credits-0 --port "$LPORT" -c 6 -w 4 "$GUEST_IP"
expect "credits-0: each reply taken, a grant of 0 as 1: one call in flight" 0 \
	'^note: a grant of 0 credits \(RFC 8166 §3\.3\.1\) taken as 1$' \
	'^6 calls, 6 replies, 0% lost, version 2, at most 1 in flight' \
	'^zero grants: 7 replies granted 0 credits, each taken as 1$'
l_wait
l_expect "credits-0: the CONNPROP and every reply grant 0" \
	'^connprop sent' '^conn 1: closed: the client disconnected; 7 calls$'
count "credits-0: seven replies with credits 0" lres 7 'sent RDMA2_MSG SUCCESS \(60 bytes, credits 0\)$'

l_start credits-max credits-max 1
run credits-max --port "$LPORT" -c 20 -w 8 --credits 4 "$GUEST_IP"
expect "credits-max: never more in flight than requested" 0 \
	'^credits: requested 4, granted 4294967295$' \
	'^20 calls, 20 replies, 0% lost, version 2, at most 4 in flight'
l_wait
l_expect "credits-max: a grant of 2^32 - 1" \
	'sent RDMA2_MSG SUCCESS \(60 bytes, credits 4294967295\)$'

# --- Send With Invalidate of a key nobody offered --------------------------------
l_start inv-bogus inv-bogus 1
run inv-bogus --port "$LPORT" -t "$T" "$GUEST_IP"
# rxe fails the Receive (IB_WC_REM_INV_REQ_ERR): the key names no memory
expect "inv-bogus: the Receive fails, the call with it" 1 \
	'Receive completion failed: remote invalid request error'
count "inv-bogus: no NULL reply" out 0 '^NULL reply'
l_wait
l_expect "inv-bogus: the reply sent by Send With Invalidate of 0xbadbad01" \
	'^conn 1: xid 0x[0-9a-f]{8} v2 proc 0: sent RDMA2_MSG SUCCESS by Send With Invalidate of 0xbadbad01 '

# --- private data (RFC 8797) ---------------------------------------------------
# pd_mode MODE SENT-REGEX RECEIVED-REGEX THRESHOLD [PING-ARGS]: served like
# good; the requester takes the private data as RFC 8797 says
pd_mode() {
	local mode=$1 sent=$2 recv=$3 thr=$4 name
	shift 4
	name="$mode${1:+ $*}"
	l_start "$name" "$mode" 1
	run "$name" --port "$LPORT" -c 2 "$@" "$GUEST_IP"
	expect "$name: $recv" 0 "^private data received \(196 bytes\): $recv" \
		"^inline threshold: send $thr, receive $thr\$" '^2 calls, 2 replies, 0% lost'
	l_wait
	l_expect "$name: accepted with $sent" "^conn 1: private data sent $sent\$" \
		'^conn 1: closed: the client disconnected; 3 calls$'
}
pd_mode bad-pdata-magic '\(8 bytes\): f6ab0e19 01010303' \
	'none valid \(no RFC 8797 Format Identifier\): RFC 8797 §5\.1 defaults$' 4096
pd_mode bad-pdata-magic '\(8 bytes\): f6ab0e19 01010303' \
	'none valid \(no RFC 8797 Format Identifier\)' 1024 --vers 1
pd_mode bad-pdata-vers0 '\(8 bytes\): f6ab0e18 00010303' \
	'none valid \(unknown private-data version\)' 4096
pd_mode bad-pdata-vers2 '\(8 bytes\): f6ab0e18 02010303' \
	'none valid \(unknown private-data version\)' 4096
pd_mode bad-pdata-size0 '\(8 bytes\): f6ab0e18 01010000' \
	'version 1, R 1, send 1024, receive 1024$' 1024
pd_mode bad-pdata-size255 '\(8 bytes\): f6ab0e18 0101ffff' \
	'version 1, R 1, send 262144, receive 262144$' 4096
pd_mode bad-pdata-short '\(196 bytes\): (00000000 ){48}f6ab0e18' \
	'none valid \(the message overruns the private data\)' 4096

t_done
