#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client against a hostile server: rpcrdma2-listen answers the
# kernel client's Calls (a mount's NULL ping and what follows) with every
# malformed or unwelcome reply it knows: each RDMA2_ERROR, a wrong XID,
# no RPCRDMA2_F_RESPONSE, the other version, a cut header, cut chunk
# lists, a Write chunk nobody offered, grants of 0 and 2^32-1 (in a
# reply, and in an RDMA2_ERROR, which grants nothing), Send With
# Invalidate of a key we never offered or of a live key not the RPC's
# (which closes the connection), an RDMA Read of one, an RDMA
# Write With Immediate, bogus private data, silence,
# malformed reverse-direction Calls, a callback left outstanding by a
# disconnect, callbacks arriving while a failed mount is torn down; then a short wire fuzz (rpcrdma2-listen-fuzz). Each mount must
# fail (the tool is no NFS server) within bounded time, nothing mounted,
# with the client's verdict seen in its tracepoints: the RPC failed with
# the errno the spec implies, or the reply was discarded (RFC 8166
# §4.5). Then a real mount
# of svcrdma2 works and the module unloads: nothing leaked or hung (the
# VM runner also fails on any KASAN/lockdep/kmemleak report).
. "$(dirname "$0")/lib.sh"

LISTEN=$RPCRDMA2_TOP/build/tools/rpcrdma2-listen
[ -x "$LISTEN" ] || die "rpcrdma2-listen: $LISTEN not built (run 'make tools' on the host)"
LISTEN_FUZZ=$RPCRDMA2_TOP/build/tools/rpcrdma2-listen-fuzz
[ -x "$LISTEN_FUZZ" ] || die "rpcrdma2-listen-fuzz: $LISTEN_FUZZ not built (run 'make tools' on the host)"

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
xprt_lifetimes_on || die "tracing: xprt lifetimes"
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"
# each listener on a port of its own, so no mount meets a transport (and
# the version it remembered, draft §7.2) that an earlier one left behind
HPORT=20060
trace=/sys/kernel/tracing/trace

# Each case below starts no process but the listener, the mount and one
# awk over the trace: a process costs ~0.5 s in this guest, and a case
# is a few seconds of work.
# mnt_busy: something is mounted on $mnt
mnt_busy() {
	local dir
	while read -r _ dir _; do
		[ "$dir" != "$mnt" ] || return 0
	done < /proc/mounts
	return 1
}
# trace_unmatched REGEX...: print the first REGEX no line of the trace
# matches (awk's ERE, as grep -E's); exit status 1 if there is one
trace_unmatched() {
	awk 'BEGIN { for (i = 1; i < ARGC; i++) re[i] = ARGV[i]; n = ARGC - 1; ARGC = 1 }
		{ for (i = 1; i <= n; i++) if (!(i in hit) && $0 ~ re[i]) hit[i] = 1 }
		END { for (i = 1; i <= n; i++) if (!(i in hit)) { print re[i]; exit 1 } }' \
		"$@" < "$trace"
}

# hostile MODE REGEX...: a listener in MODE; a soft NFSv4.2 mount through
# it must fail within 100 s leaving nothing mounted, and each REGEX must
# match a line of the trace taken during the attempt. HOSTILE_TIMEO, if
# set, replaces the mount's timeo=10 (a 1 s RPC timeout).
hostile() {
	local mode=$1 lpid rc re t0 ms msg
	shift
	HPORT=$((HPORT + 1))
	echo > "$trace"
	# (emptied first: a mode's earlier listener said it was listening)
	: > "/tmp/listen.$mode"
	"$LISTEN" --port "$HPORT" --hostile "$mode" --timeout 120 \
		> "/tmp/listen.$mode" 2>&1 &
	lpid=$!
	if ! wait_for listening "/tmp/listen.$mode"; then
		kill "$lpid" 2>/dev/null
		t_fail "hostile $mode" "the listener did not start: $(cat "/tmp/listen.$mode")"
		return
	fi
	t0=${EPOCHREALTIME/./}
	timeout 100 mount -i -t nfs -o \
		"vers=4.2,proto=rdma2,port=$HPORT,soft,timeo=${HOSTILE_TIMEO:-10},retrans=1,addr=$GUEST_IP" \
		"$GUEST_IP:/" "$mnt" 2> "/tmp/mount.$mode"
	rc=$?
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	if [ "$rc" = 0 ]; then
		umount "$mnt"
		t_fail "hostile $mode" "the mount succeeded"
		return
	fi
	if [ "$rc" = 124 ]; then
		t_fail "hostile $mode" "mount still hanging after 100 s"
		return
	fi
	if mnt_busy; then
		t_fail "hostile $mode" "something is mounted"
		return
	fi
	if [ $# -gt 0 ] && ! re=$(trace_unmatched "$@"); then
		t_fail "hostile $mode" "mount failed in $ms ms, but no trace line matches '$re'"
		grep -E 'xprtrdma2_(reply|fallback|version|established)' \
			"$trace" | head -n 6
		return
	fi
	msg=
	read -r -N 80 msg < "/tmp/mount.$mode"
	t_pass "hostile $mode: mount failed cleanly in $ms ms (${msg//$'\n'/ })"
}

reply_ok='xprtrdma2_reply: .* arg=[1-9]'
errno_is() { echo "xprtrdma2_reply: .* htype=RDMA2?_ERROR .* arg=-$1\$"; }
rejected='xprtrdma2_reply_rejected: '
# a Receive completing in error, not flushed (WR_FLUSH_ERR) at teardown
recv_err='xprtrdma2_wc_receive_err: .* status=(LOC|REM|MW|BAD|RETRY|RNR|INV|FATAL|RESP|GENERAL)[A-Z_]*_ERR '

hostile good 'xprtrdma2_version: .* vers=v2 ' "$reply_ok" \
	'xprtrdma2_connprop_recv: '
hostile v1only 'xprtrdma2_fallback: ' "$reply_ok"
# draft §7.2: a server that drops our first v2 Call (and answers v1).
# After the probe bound (5 s; the 60 s RPC timeout given here plays no
# part) the connection closes and the next one starts in v1, where the
# Call is answered; the mount then fails as every mount here does.
HOSTILE_TIMEO=600 hostile v2-silent 'xprtrdma2_probe_expired: .* vers=none try=v2 ' \
	'xprtrdma2_version: .* vers=v1 try=v1 ' "$reply_ok"
# ms from the first Call to the probe's end, and to the first answer
read -r probe_ms answer_ms <<<"$(awk '
	match($0, /[0-9]+\.[0-9]+: xprtrdma2_/) {
		t = substr($0, RSTART, RLENGTH) * 1000 }
	/ xprtrdma2_call: / && !c { c = t }
	/ xprtrdma2_probe_expired: / && !p { p = t }
	/ xprtrdma2_reply: .* arg=[1-9]/ && !r { r = t }
	END { printf "%d %d\n", p ? p - c : -1, r ? r - c : -1 }' "$trace")"
t_check "v2-silent: the probe gave up after 5 s ($probe_ms ms)" \
	[ "$probe_ms" -ge 4900 -a "$probe_ms" -lt 7000 ]
t_check "v2-silent: the Call was answered in v1 within 12 s ($answer_ms ms)" \
	[ "$answer_ms" -gt "$probe_ms" -a "$answer_ms" -lt 12000 ]
t_check "v2-silent: the v2 Call was dropped, the v1 connection served" \
	grep -q '^conn 2: version 1 fixed' /tmp/listen.v2-silent
# ERR_VERS 1..1 to our v2 Call means v1; the v1 Call then gets 2..2: no
# version in common, the RPC fails (draft §7.2), and no loop
hostile err-vers 'xprtrdma2_fallback: ' "$(errno_is 93)"
hostile err-bad-xdr "$(errno_is 5)"
hostile err-inval-htype "$(errno_is 5)"
hostile err-read-chunks "$(errno_is 5)"
hostile err-write-chunks "$(errno_is 5)"
hostile err-segments "$(errno_is 5)"
hostile err-write-resource "$(errno_is 5)"
# REPLY_RESOURCE needing 8192 bytes for a reply whose buffer is far
# smaller: -ERANGE, what the NFS client's decoder says over TCP
hostile err-reply-resource "$(errno_is 34)" \
	'xprtrdma2_reply_resource: .* 8192 [0-9]+$'
hostile err-system "$(errno_is 121)"
hostile err-unknown "$(errno_is 5)"
# draft §5.3.3: the receiver of an RDMA2_ERROR "MUST ignore" its
# rdma_credit; §7: one Call at a time until "a valid non-error" message
# grants credits. The first Call's answer, an error granting 2^32-1,
# fails the RPC and settles nothing: no version is fixed, and when the
# RPC gives its congestion slot back (sunrpc's xprt_put_cong) the
# window is still one request (cwnd 256, RPC_CWNDSCALE).
echo 1 > /sys/kernel/tracing/events/sunrpc/xprt_put_cong/enable
hostile err-credits-max "$(errno_is 121)"
echo 0 > /sys/kernel/tracing/events/sunrpc/xprt_put_cong/enable
t_check "err-credits-max: the RDMA2_ERROR fixed no version" \
	bash -c "! grep -q 'xprtrdma2_version: ' $trace"
cwnds=$(sed -n 's/.* xprt_put_cong: .* cwnd=\([0-9]*\).*/\1/p' "$trace" | sort -u | tr '\n' ' ')
t_check "err-credits-max: the window stayed at one request (cwnd: $cwnds)" \
	[ "$cwnds" = "256 " ]
hostile bad-xid 'xprtrdma2_no_rqst: '
hostile no-response-flag "$rejected.* reason=MSG_TYPE\$"
hostile bad-vers 'xprtrdma2_reply_vers: '
hostile short "$rejected.* reason=SHORT\$"
hostile truncated "$rejected.* reason=TRUNCATED\$"
hostile credits-0 "xprtrdma2_reply: .* credits=0 .* arg=[1-9]"
hostile credits-max "xprtrdma2_reply: .* credits=4294967295 .* arg=[1-9]"
hostile inv-bogus "$recv_err"
# draft §8.4, RFC 8797 §4.1: a server invalidates only what the RPC it
# answers offered. Each inv-* listener sends one message of its first
# connection by Send With Invalidate of a live key that is none of the
# answered RPC's (its own memory window: rxe finds it, so our Receive
# succeeds), on a reply, on a reply we discard (wrong XID), on its
# RDMA2_CONNPROP, on a reverse-direction Call. Memory another RPC relies
# on could be gone: we close the connection at once (not at the 10 s RPC
# timeout given here), and reconnect; later connections are served well.
inv_case() {
	local mode=$1
	shift
	HOSTILE_TIMEO=100 hostile "$mode" 'xprtrdma2_reminv_foreign: ' "$@"
	t_check "$mode: we closed the connection within 5 s of the Send With Invalidate" \
		awk '/the client disconnected [0-9]+ ms after the Send With Invalidate/ {
			ok = $6 < 5000 } END { exit !ok }' "/tmp/listen.$mode"
	t_check "$mode: and reconnected (conn 2)" \
		grep -q '^conn 2: established' "/tmp/listen.$mode"
	grep -E '^conn 1: |^conn 2: established' "/tmp/listen.$mode" |
		grep -v 'private data'
}
inv_case inv-foreign "$reply_ok"
inv_case inv-bad-xid 'xprtrdma2_no_rqst: '
inv_case inv-connprop 'xprtrdma2_version: .* vers=v2 '
inv_case inv-bc
t_check "inv-bc: the reverse Call by Send With Invalidate was not taken" \
	bash -c "! grep -q 'xprtrdma2_bc_call: .* xid=0xbe000000 ' $trace"
# RFC 8167: reverse-direction Calls we do not take are dropped, each for
# its reason (a Read list fails the requester's codec first); a good one
# is taken, or dropped while the mount has no callback service yet
hostile bc-bad "$reply_ok" \
	'xprtrdma2_bc_drop: .* xid=0xbc000000 .*dropped: chunks$' \
	'xprtrdma2_reply_rejected: .* xid=0xbc000001 ' \
	'xprtrdma2_bc_drop: .* xid=0xbc000002 .*dropped: size$' \
	'xprtrdma2_bc_drop: .* xid=0xbc000003 .*dropped: rpc header$' \
	'xprtrdma2_bc_drop: .* xid=0xbc000004 .*dropped: version$' \
	'xprtrdma2_bc_(call|drop): .* xid=0xbc000005 '
# A callback outstanding when the connection dies:
# bc-drop grants 1 credit, leaves the client's second Call (EXCHANGE_ID,
# after the callback service is up) unanswered, sends a well-formed
# CB_NULL Call instead and disconnects once the client has it. The Call
# is taken. Its reply takes no forward credit, so, as timing has it, it
# goes out on that connection before it dies (the listener has gone),
# or sunrpc fails the reply task when the connection goes (it never
# reaches us), or it reaches our send_request on the dead connection (a
# reply version of 0). Never on the next connection. Either way its
# rqst goes back to the pool, and the client reconnects (a second
# connection the listener serves as good does).
hostile bc-drop "$reply_ok" 'xprtrdma2_bc_call: .* xid=0xbd000000 '
t_check "bc-drop: the listener disconnected with its reverse Call unanswered" \
	grep -q '^conn 1: closed: dropped with a reverse-direction Call outstanding' \
		/tmp/listen.bc-drop
t_check "bc-drop: the client reconnected to it (conn 2)" \
	grep -q '^conn 2: established' /tmp/listen.bc-drop
t_check "bc-drop: its rqst went back to the pool (xprtrdma2_bc_free)" \
	wait_for grep -q 'xprtrdma2_bc_free: xid=0xbd000000 ' "$trace"
# (the first xprtrdma2_connect is the listener's connection, the second
# the reconnect)
t_check "bc-drop: no reply to it went out on a later connection" \
	awk '/ xprtrdma2_connect: / { c++ }
		/ xprtrdma2_bc_reply: .* xid=0xbd000000 [12] / && c > 1 { bad = 1 }
		END { exit bad }' "$trace"
if grep -Eq 'xprtrdma2_bc_reply: .* xid=0xbd000000 [12] ' "$trace"; then
	echo "bc-drop: the reply went out on its connection before it died"
elif grep -Eq 'xprtrdma2_bc_reply: .* xid=0xbd000000 0 [0-9]+$' "$trace"; then
	echo "bc-drop: the reply reached us and failed on the dead connection (version 0)"
else
	echo "bc-drop: sunrpc dropped the reply before it reached the transport"
fi
grep -E 'xprtrdma2_(bc_|connect)' "$trace" | head -n 8
# Reverse-direction Calls that keep coming while the client tears a
# failed mount down. bc-storm keeps 4 CB_NULL Calls outstanding from the
# client's second Call (its callback service is up by then) until the
# connection ends, and answers that Call PROC_UNAVAIL: the NFS client
# destroys its session (our ->bc_destroy), stops and frees its callback
# service, then lets go of the transport. A Call handed to the service
# as it stops stays in a queue no thread reads and its rqst holds the
# transport forever; one handed to it once freed writes freed memory
# (KASAN). Each mount gives the race one chance; 8 of them hit it
# almost every time without the fix (2 transports left and a KASAN
# use-after-free in the first run). None may be left, and ->bc_destroy
# must have found every Call it waited for given back (busy=0).
storm_ports=() storm_closed=0
for i in $(seq 8); do
	hostile bc-storm "$reply_ok" 'xprtrdma2_bc_call: .* xid=0xbf000000 '
	storm_ports+=("$HPORT")
	storm_closed=$((storm_closed + $(grep -c 'xprtrdma2_bc_drop: .*dropped: backchannel closed$' "$trace")))
done
storm_alive() {
	local p
	for p in "${storm_ports[@]}"; do
		awk -v a="addr=$GUEST_IP:$p" '
			/ xprtrdma2_setup: / && $NF == a { n++ }
			/ xprtrdma2_destroy: / && $NF == a { n-- }
			END { exit !(n > 0) }' "$XPRT_LIFETIMES/trace" && return 0
	done
	return 1
}
t_check "bc-storm: the transports of the 8 failed mounts were all destroyed" \
	wait_for eval '! storm_alive'
t_check "bc-storm: every closed backchannel had its Calls given back" \
	bash -c "grep -q 'xprtrdma2_bc_destroy: busy=0 ' $XPRT_LIFETIMES/trace &&
		! grep -q 'xprtrdma2_bc_destroy: busy=[1-9]' $XPRT_LIFETIMES/trace"
echo "bc-storm: $storm_closed reverse Calls dropped after the backchannel closed"
grep -h '^conn 1: bc-storm:' /tmp/listen.bc-storm | head -n 1
# A QP that fails with no CM event: read-bad-rkey answers the first Call
# with an RDMA Read of a key we never offered. Our responder NAKs it and
# both QPs go to the error state (IBA class C); nobody disconnects, and
# all we see is our posted Receives flush. A flush closes the transport
# (rpcrdma2_ep_close()), so we disconnect and reconnect at once, not when
# the RPC times out (timeo=600 here: 60 s, where a flush used to be taken
# for teardown already under way). The reconnect is served as good.
HOSTILE_TIMEO=600 hostile read-bad-rkey "$reply_ok" \
	'xprtrdma2_wc_receive_flush: .* status=WR_FLUSH_ERR '
t_check "read-bad-rkey: our responder refused the RDMA Read" \
	grep -q 'RDMA Read of rkey 0x57a1e000 failed: remote access error' \
		/tmp/listen.read-bad-rkey
t_check "read-bad-rkey: we disconnected within 10 s, not at the 60 s RPC timeout" \
	awk '/the client disconnected [0-9]+ ms after the RDMA Read/ {
		ok = $6 < 10000 } END { exit !ok }' /tmp/listen.read-bad-rkey
t_check "read-bad-rkey: the client reconnected (conn 2)" \
	grep -q '^conn 2: established' /tmp/listen.read-bad-rkey
grep -E 'RDMA Read|^conn 2: (established|closed)' /tmp/listen.read-bad-rkey
# A Receive that no Send filled: write-imm answers the first Call with a
# 0-byte RDMA Write With Immediate (no rkey needed, IBA C9-88). It
# consumes a Receive, which completes as RECV_RDMA_WITH_IMM with nothing
# in the buffer (and byte_len, for a Write of some length, would be the
# Write's). RPC-over-RDMA never sends one: we close at once, as for any
# broken server, and do not decode the buffer. The reconnect is served
# as good.
HOSTILE_TIMEO=600 hostile write-imm "$reply_ok" \
	'xprtrdma2_recv_bad_wc: .* opcode=129 byte_len=0$'
t_check "write-imm: we disconnected within 10 s, not at the 60 s RPC timeout" \
	awk '/the client disconnected [0-9]+ ms after the 0-byte RDMA Write/ {
		ok = $6 < 10000 } END { exit !ok }' /tmp/listen.write-imm
t_check "write-imm: the client reconnected (conn 2)" \
	grep -q '^conn 2: established' /tmp/listen.write-imm
grep -E 'RDMA Write|^conn 2: (established|closed)' /tmp/listen.write-imm
# RFC 8166 §4.3.2: no Write chunk comes back that the Call did not offer
hostile write-list 'xprtrdma2_bad_write_list: ' \
	'xprtrdma2_reply: .* htype=RDMA2?_MSG .* arg=-5$'
hostile bad-pdata-magic 'xprtrdma2_established: .* pdata=0 ' "$reply_ok"
hostile bad-pdata-vers2 'xprtrdma2_established: .* pdata=0 ' "$reply_ok"
hostile bad-pdata-short 'xprtrdma2_established: .* pdata=0 ' "$reply_ok"
hostile bad-pdata-size0 \
	'xprtrdma2_established: .* pdata=1 .* v1 send/recv=1024/1024 ' "$reply_ok"
# the largest sizes private data can name (256 KiB): no more than our
# own inline_size (8192 by default) is used
hostile bad-pdata-size255 \
	'xprtrdma2_established: .* pdata=1 .* v1 send/recv=8192/8192 ' "$reply_ok"
hostile silent 'xprtrdma2_call: '

# The client wire fuzz, a short run (make client-fuzz is the long one):
# every Call of a stream of mounts answered by a burst of messages
# mutated from the codec's corpus and from the Call's own chunks, none
# of which may crash, leak or hang the client (the VM runner checks the
# kernel log and kmemleak at the end). The seed is fixed; the listener
# prints how the client reacted. One listener: beside the other guest of
# make check the emulated CPUs are the bound, and parallel mounts then
# spend it on connections that time out before their first Call.
. "$(dirname "$0")/../fuzz/client_fuzz_lib.sh"
CFUZZ_JOBS=1 client_fuzz short 800 11 20150

# After all that, a real server: mount, data, unmount, and the module
# unloads once the NFS clients of the failed mounts are gone.
t_check "mount svcrdma2 after the hostile server" \
	mount -i -t nfs -o "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,addr=$GUEST_IP" \
		"$GUEST_IP:/" "$mnt"
nfs_roundtrip "svcrdma2 after the hostile server" "$mnt" 1
t_check "umount" umount "$mnt"
if rmmod_when_free xprtrdma2; then
	t_pass "rmmod xprtrdma2"
else
	t_fail "rmmod xprtrdma2" "still in use after 3 min: $(rpc_leftovers xprtrdma2)"
fi
vm_nfsd_down
t_done
