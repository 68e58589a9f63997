#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# svcrdma2's backchannel (RFC 8167) with the in-tree v1 client (proto=rdma):
# for NFSv4.1 (4.2: tests/pair/interop.sh, Debian's stock client across
# the link), nfsd's callback client binds to the rdma2 connection
# (callback state UP; nfsd sends no CB_NULL probe for 4.1+), the client
# gets a read delegation, and a conflicting local open for write on the
# server breaks it: CB_COMPOUND (CB_SEQUENCE + CB_RECALL) goes out as a
# reverse-direction Call, the reply comes back, the client returns the
# delegation and the local open finishes in well under the 10 s lease,
# data intact. Reverse-direction replies nobody asked for are dropped.
# Then the link is lost under an idle mount: the backchannel closes with
# the connection, nothing hangs, umount works; lost again while the client
# holds a delegation: a conflicting open cannot recall it and finishes
# once nfsd revokes it (a lease later). Lost the moment a CB_RECALL goes
# out, until an iteration provably cut it with the Call unanswered: the
# waiting callback fails cleanly, the conflicting open finishes within
# lease + grace once the link is back. After nfsd stops the module
# unloads (every backchannel rpc_xprt let go of it). The VM runner
# fails the run on any KASAN/lockdep/hung-task report or kmemleak leak.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT"
nfsd_start=$EPOCHSECONDS

mnt=/tmp/mnt
mkdir -p "$mnt"

cb_up() { grep -qx 'callback state: UP' /proc/fs/nfsd/clients/*/info 2>/dev/null; }

# deleg_recall VERS: a read delegation and its recall, timed.
deleg_recall() {
	local v=$1 f="deleg-$1" want got t0 ms
	dd if=/dev/urandom of="$EXPORT_DIR/$f" bs=4k count=4 status=none
	want=$(sha256sum < "$EXPORT_DIR/$f" | cut -d' ' -f1)
	# lockd's grace (10 s from nfsd start) must be over
	while [ $((EPOCHSECONDS - nfsd_start)) -lt 12 ]; do sleep 1; done
	# the client opens read-only and keeps it open: a read delegation
	for _ in 1 2 3 4 5; do
		exec 3< "$mnt/$f"
		cat <&3 > /dev/null
		has_deleg && break
		exec 3<&-
		sleep 2
	done
	t_check "NFSv$v: the client holds a read delegation (clients/*/states)" has_deleg
	grep -h -B1 -A6 'type: deleg' /proc/fs/nfsd/clients/*/states
	# a local open for write breaks the lease: CB_RECALL, DELEGRETURN
	t0=$(date +%s%N)
	echo "appended on the server" >> "$EXPORT_DIR/$f"
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "NFSv$v: the conflicting local open took $ms ms"
	t_check "NFSv$v: the conflicting open finished in < 5 s ($ms ms)" \
		test "$ms" -lt 5000
	t_check "NFSv$v: the delegation was returned" wait_for bash -c '! grep -q "type: deleg" /proc/fs/nfsd/clients/*/states'
	exec 3<&-
	# data intact: the client sees the server's file, old bytes and new
	echo 3 > /proc/sys/vm/drop_caches
	got=$(head -c 16384 "$mnt/$f" | sha256sum | cut -d' ' -f1)
	t_check "NFSv$v: the first 16 KiB are intact through the client" \
		test "$want" = "$got"
	t_check "NFSv$v: the client reads the whole file, the append included" \
		cmp "$EXPORT_DIR/$f" "$mnt/$f"
	rm -f "$EXPORT_DIR/$f"
}

for v in 4.1; do
	t_check "mount NFSv$v proto=rdma on svcrdma2" \
		mount -t nfs -o "vers=$v,proto=rdma,port=$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"
	t_check "NFSv$v: nfsd's callback channel is UP (clients/*/info)" wait_for cb_up
	cat /proc/fs/nfsd/clients/*/info
	deleg_recall "$v"
	# (a data round trip on this mount: tests/vm/svcrdma2_v1.sh)
	t_check "umount NFSv$v" umount "$mnt"
	t_check "NFSv$v: the connection closed after umount" wait_for no_conns
done

cat /proc/fs/svcrdma2/stats
# nfsd 6.12 sends no CB_NULL probe for 4.1+ (nfsd4_run_cb_work): the
# callback is the CB_COMPOUND (CB_SEQUENCE + CB_RECALL)
svc_cb_stats "NFSv4.1"
for e in svcrdma2_cb_setup svcrdma2_cb_call svcrdma2_cb_reply svcrdma2_cb_close; do
	t_check "tracepoint $e fired" test "$(trace_count "$e")" -gt 0
done
t_check "the reverse-direction Calls went out in v1 (tracepoint)" \
	grep -q "svcrdma2_cb_call:.* vers=v1 " /sys/kernel/tracing/trace
# The in-tree client grants its backchannel slots (16) in every reply.
t_check "the client's reverse-direction credit grant was read (tracepoint)" \
	grep -Eq "svcrdma2_cb_reply:.* credits=[1-9][0-9]* window=[1-9]" /sys/kernel/tracing/trace
grep -m 6 "svcrdma2_cb_" /sys/kernel/tracing/trace

# Reverse-direction replies nobody asked for, from rpcrdma2-ping: each is
# dropped unanswered and counted, and the connection serves a NULL call.
PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
P_PREFIX=backchannel
[ -x "$PING" ] || die "rpcrdma2-ping: $PING not built (run 'make tools' on the host)"
# bad_reply NAME VERS WHY HEX [OPTIONS]: send HEX, expect no answer and a
# svcrdma2_drop saying WHY, then a NULL call on the same connection.
bad_reply() {
	local name=$1 vers=$2 why=$3 hex=$4 drops
	shift 4
	drops=$(grep -c "svcrdma2_drop:.*dropped: $why" /sys/kernel/tracing/trace)
	p_run "$name" -p "$NFS_V2_PORT" -t 5 --send-hex "$hex" --expect-no-reply \
		--then-ping -c 1 --after-negotiate "$@" "$GUEST_IP"
	p_expect "$name: dropped unanswered, then a NULL call is served" 0 \
		'^no reply$' "^1 calls, 1 replies, 0% lost, version $vers"
	t_check "$name: svcrdma2_drop says '$why'" \
		test "$(grep -c "svcrdma2_drop:.*dropped: $why" /sys/kernel/tracing/trace)" -gt "$drops"
}
bad0=$(svc_stat cb_bad_replies)
# v1: rdma_xid, vers 1, credit 16, RDMA_MSG, three empty chunk lists, then
# an RPC REPLY (xid, msg_type 1, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS)
bad_reply "v1 reply on a connection without a backchannel" 1 "no backchannel" \
	"5e000001 00000001 00000010 00000000 00000000 00000000 00000000 5e000001 00000001 00000000 00000000 00000000 00000000" --vers 1
# v2: RDMA2_MSG, rdma_flags RESPONSE, rdma_inv_handle 0, empty lists
bad_reply "v2 RESPONSE reply on a connection without a backchannel" 2 "no backchannel" \
	"5e000002 00000002 00000010 00000000 00000001 00000000 00000000 00000000 00000000 5e000002 00000001 00000000 00000000 00000000 00000000"
# v1 reply carrying a Write chunk (one segment: handle, length, offset)
bad_reply "v1 reply with a Write chunk" 1 "not inline" \
	"5e000003 00000001 00000010 00000000 00000000 00000001 00000001 00001234 00000100 00000000 00000000 00000000 00000000 5e000003 00000001 00000000 00000000 00000000 00000000" --vers 1
# v1 RPC message that is neither CALL nor REPLY (msg_type 7)
bad_reply "v1 message with RPC msg_type 7" 1 "not an RPC reply" \
	"5e000004 00000001 00000010 00000000 00000000 00000000 00000000 5e000004 00000007" --vers 1
t_check "svcrdma2 counted the four bad reverse-direction replies" \
	test "$(($(svc_stat cb_bad_replies) - bad0))" -eq 4

# The link lost under an idle NFSv4.1 mount: the connection and its
# backchannel close; the client reconnects once the link is back, the
# callback channel comes up again on the new connection, and umount works.
t_check "mount NFSv4.1 for the link loss" \
	mount -t nfs -o "vers=4.1,proto=rdma,port=$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"
t_check "callback channel UP before the link loss" wait_for cb_up
closes=$(trace_count svcrdma2_cb_close)
setups=$(trace_count svcrdma2_cb_setup)
t_check "rdma link delete rxe0 under the idle mount" rdma link delete rxe0
t_check "svcrdma2 tore the connection down" wait_for no_conns
t_check "the backchannel closed with it (svcrdma2_cb_close)" \
	test "$(trace_count svcrdma2_cb_close)" -gt "$closes"
t_check "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
t_check "rxe0 active again" wait_for bash -c 'rdma link show rxe0/1 | grep -q ACTIVE'
t_check "the mount works again after the link came back" \
	timeout 120 bash -c "ls '$mnt' > /dev/null"
t_check "callback channel UP again on the new connection" wait_for cb_up
t_check "nfsd bound a new backchannel to it (svcrdma2_cb_setup)" \
	test "$(trace_count svcrdma2_cb_setup)" -gt "$setups"
cat /proc/fs/nfsd/clients/*/info

# The link lost while the client holds a delegation, then a conflicting
# open: the recall cannot reach the client (the backchannel closed with
# the connection), so nfsd revokes the delegation after the lease (10 s)
# instead: the open finishes, nothing waits forever. Then the client comes
# back and sees the file as the server has it.
f=deleg-lost
dd if=/dev/urandom of="$EXPORT_DIR/$f" bs=4k count=4 status=none
exec 3< "$mnt/$f"
cat <&3 > /dev/null
t_check "a read delegation before the link loss" wait_for has_deleg
t_check "rdma link delete rxe0 while the client holds it" rdma link delete rxe0
t_check "svcrdma2 tore the connection down (delegation held)" wait_for no_conns
t0=$EPOCHSECONDS
t_check "the conflicting local open finishes without the client" \
	timeout 60 bash -c "echo 'appended while the client was away' >> '$EXPORT_DIR/$f'"
secs=$((EPOCHSECONDS - t0))
echo "the conflicting open took $secs s with the backchannel gone"
t_check "... within two leases ($secs s < 25 s)" test "$secs" -lt 25
t_check "rdma link add rxe0 (again)" rdma link add rxe0 type rxe netdev eth0
t_check "rxe0 active again (again)" wait_for bash -c 'rdma link show rxe0/1 | grep -q ACTIVE'
exec 3<&-
echo 3 > /proc/sys/vm/drop_caches
t_check "the client reads the file as the server has it" \
	timeout 120 cmp "$EXPORT_DIR/$f" "$mnt/$f"

# A callback outstanding when the connection dies (cb_cut in lib.sh): the
# link is deleted the moment svcrdma2 posts CB_RECALL. A try counts only
# if the connection died with the Call unanswered
# (cb_calls grew more than cb_replies); then nfsd's waiting callback
# fails (the backchannel closes with the connection) and is retried or
# given up on: the conflicting open finishes well within lease + grace
# (20 s) once the link is back, nothing hangs, the data are intact.
nfsd_cb_events() {
	local e
	for e in seq_status restart lost new_state recall_done; do
		echo "$1" > "/sys/kernel/tracing/events/nfsd/nfsd_cb_$e/enable"
	done
}
cut_gone() { t_check "$1: svcrdma2 tore the connection down" wait_for no_conns; }
cut_unanswered() {
	svcrdma2_unanswered || return 1
	# nfsd saw its CB_COMPOUND fail (CB_SEQUENCE status) and queued the
	# CB_RECALL again, or gave it up
	t_check "$1: nfsd's waiting callback failed, not left waiting (nfsd_cb_seq_status tk_status < 0 or nfsd_cb_restart)" \
		nfsd_cb_failed
	return 0
}
nfsd_cb_events 1
cb_cut "" svcrdma2_cb_call cut_unanswered gone=cut_gone \
	deleted="as svcrdma2 sent the callback" limit="20 s: lease + grace" since=back \
	reads="the file as the server has it" \
	outstanding="(cb_calls grew more than cb_replies)"
grep -E 'svcrdma2_cb_(call|send|reply|close)|nfsd_cb_(seq_status|restart|lost|new_state|recall_done)' \
	/sys/kernel/tracing/trace | tail -n 14
nfsd_cb_events 0
t_check "the mount still works after the cuts" timeout 120 ls "$mnt"
t_check "umount after the link loss" timeout 120 umount "$mnt"
cat /proc/fs/svcrdma2/stats

vm_nfsd_down
t_check "rmmod svcrdma2 after nfsd stopped (no backchannel holds it)" \
	rmmod_when_free svcrdma2
t_check "rmmod rpcrdma2_common" rmmod rpcrdma2_common
t_done
