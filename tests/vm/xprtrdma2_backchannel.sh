#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The reverse direction on our client: NFSv4.1 and NFSv4.2 mounts with
# proto=rdma2 against the in-tree svcrdma on 20050 (v1), and NFSv4.1
# against svcrdma2 on 20049 (v2; tests/pair/interop.sh recalls over
# NFSv4.2 with svcrdma2 across the link), whose nfsd sends its callbacks
# (CB_SEQUENCE, CB_RECALL) as reverse-direction Calls on the forward
# connection (RFC 8167; in v2 without RPCRDMA2_F_RESPONSE, draft §3.2),
# which we answer in the connection's version. Each mount: nfsd's
# callback channel for the client comes UP; a read delegation the client
# holds is recalled by a conflicting open on the server's side, which
# then finishes well within the lease time (timed), with the data
# intact; our counters show the Calls taken and the replies sent, none
# dropped. The NFSv4.1 mount of the in-tree server then loses its
# connection with the channel idle: the client reconnects, the channel
# comes UP again and a second recall works. Then, with the in-tree
# svcrdma (NFSv4.2), the device is deleted while a callback is
# outstanding (cb_cut, lib.sh); umount and rmmod are clean (the VM runner fails on any KASAN, lockdep or kmemleak report).
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

# xprt_stat NAME (lib.sh), Documentation/xprtrdma2.rst: reverse_dropped
# (reverse-direction Calls not taken), bc_calls (taken), bc_replies
# (replies sent), bc_reply_errors (replies that could not be sent)
cb_state() { cat /proc/fs/nfsd/clients/*/info 2>/dev/null | sed -n 's/^callback state: //p'; }
cb_up() { [ "$(cb_state)" = UP ]; }
no_deleg() { ! has_deleg; }

# recall_case NAME: hold a read delegation, break it from the server side
recall_case() {
	local name=$1 t0 ms
	printf 'delegated data\n' > "$EXPORT_DIR/deleg"
	t_check "$name: the client holds a read delegation" hold_deleg
	t0=${EPOCHREALTIME/./}
	# a local writer conflicts: nfsd recalls the delegation (CB_RECALL)
	# and the open waits for DELEGRETURN, or for the lease break timeout
	timeout 60 bash -c "printf 'server data\n' >> $EXPORT_DIR/deleg"
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	t_check "$name: the conflicting open finished in $ms ms (< 8 s, the lease is 10 s: recalled, not timed out)" \
		[ "$ms" -lt 8000 ]
	t_check "$name: the delegation is returned" wait_for no_deleg
	exec 3<&-
	echo 3 > /proc/sys/vm/drop_caches
	t_check "$name: the client reads both writes" \
		[ "$(cat "$mnt/deleg")" = "$(printf 'delegated data\nserver data')" ]
	rm -f "$EXPORT_DIR/deleg"
}

# nfsd's failed callbacks, for cb_cut's evidence (nfsd_cb_failed)
for e in seq_status restart; do
	echo 1 > "/sys/kernel/tracing/events/nfsd/nfsd_cb_$e/enable"
done

# bc_case NAME PORT VERS NFSVERS [keep]: mount, callback channel UP, a
# recall, counters; unmount unless "keep"
bc_case() {
	local name=$1 port=$2 vers=$3 nfsvers=$4 keep=$5
	if ! kmount "vers=$nfsvers,proto=rdma2,port=$port" "$GUEST_IP:/"; then
		t_fail "$name mounts" "mount failed"
		return
	fi
	t_pass "$name mounts"
	t_check "$name: version $vers" [ "$(xprt_stat vers)" = "$vers" ]
	t_check "$name: nfsd's callback channel is UP" wait_for cb_up
	recall_case "$name"
	xprt_bc_stats "$name"
	grep "^xprt " /proc/fs/xprtrdma2/stats
	[ "$keep" = keep ] && return
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

# The connection lost with the channel idle, on the NFSv4.1 mount of the
# in-tree server (kept mounted): the NFS client reconnects and binds the
# new connection to its session (BIND_CONN_TO_SESSION), and nfsd's
# callbacks work again.
name="rdma2 -> in-tree svcrdma (v1) NFSv4.1"
bc_case "$name" "$NFS_V1_PORT" 1 4.1 keep
if grep -q " $mnt " /proc/mounts; then
	name="$name reconnect"
	c0=$(xprt_stat connects)
	rdma link delete rxe0
	sleep 2
	rdma link add rxe0 type rxe netdev eth0
	# (a new file: an RPC, where a stat could be answered from the cache)
	t_check "$name: the mount answers again" timeout 120 touch "$mnt/again"
	rm -f "$mnt/again"
	t_check "$name: reconnected ($c0 -> $(xprt_stat connects) connects)" \
		[ "$(xprt_stat connects)" -gt "$c0" ]
	t_check "$name: the callback channel comes UP again" wait_for cb_up
	recall_case "$name"
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
fi
# The connection lost with a callback outstanding, the device gone when
# our client takes the Call; its reply is held back until then
# (fail_function on rpcrdma2_bc_send_reply: cb_cut's hold= in lib.sh), so the
# Call is outstanding at the cut in every try.
# (svcrdma2's side of such a cut, when it sends the Call, does not depend
# on the version: tests/vm/svcrdma2_backchannel.sh)
name="rdma2 -> in-tree svcrdma (v1) NFSv4.2"
bc_case "$name" "$NFS_V1_PORT" 1 4.2 keep
if grep -q " $mnt " /proc/mounts; then
	cb_cut "$name" xprtrdma2_bc_call nfsd_cb_failed hold=rpcrdma2_bc_send_reply
	t_check "$name unmounts after the cut" timeout 120 umount "$mnt"
fi
# (NFSv4.2 with svcrdma2 in v2: tests/pair/interop.sh, across the link)
s0=$(svc_stat cb_calls) s1=$(svc_stat cb_replies)
name="rdma2 -> svcrdma2 (v2) NFSv4.1"
bc_case "$name" "$NFS_V2_PORT" 2 4.1
t_check "svcrdma2 sent callbacks and took our replies ($s0/$s1 -> $(svc_stat cb_calls)/$(svc_stat cb_replies))" \
	[ "$(svc_stat cb_calls)" -gt "$s0" -a "$(svc_stat cb_replies)" -gt "$s1" ]
t_check "svcrdma2 dropped none of our replies" [ "$(svc_stat cb_bad_replies)" = 0 ]
t_check "tracepoints: reverse-direction Calls" [ "$(trace_count xprtrdma2_bc_call)" -gt 0 ]
# (a version of 0 marks a reply that could not be sent)
t_check "tracepoints: their replies" \
	grep -Eq 'xprtrdma2_bc_reply: .* [12] [0-9]+$' /sys/kernel/tracing/trace
t_check "tracepoints: the backchannel set up" [ "$(trace_count xprtrdma2_bc_setup)" -gt 0 ]

t_check "rmmod xprtrdma2 once unused" rmmod_when_free xprtrdma2

vm_nfsd_down
t_done
