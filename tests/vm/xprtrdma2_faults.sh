#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client transport under faults the test bed cannot make on its own,
# injected with the kernel's fail_function (CONFIG_FAIL_FUNCTION in the
# debug test kernel; the helpers are marked ALLOW_ERROR_INJECTION): a
# LOCAL_INV chain that cannot be posted, an MR pool that cannot grow, a
# Send Queue with no room for a Call, and Send buffers that cannot be
# made.
# The VM runner fails the run on any KASAN/lockdep/hung-task report or
# kmemleak leak.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

# v3_mount NAME [OPTS]: the export over NFSv3 on rdma2 at $mnt, hard,
# with ",OPTS" more; a failure is NAME's, and returns 1
v3_mount() {
	kmount "vers=3,proto=rdma2,port=$NFS_V2_PORT,mountproto=tcp,nolock,hard$2" \
		"$GUEST_IP:$EXPORT_DIR" && return
	t_fail "$1: mounts" "mount failed"
	return 1
}

# linv_fail_case: posting the LOCAL_INV chain fails, as it can on a real
# device (fail_function makes rpcrdma2_post_localinv return -ENOMEM once,
# CONFIG_FAIL_FUNCTION in the debug test kernel). The RPC whose reply
# came must not complete while the server can still write its pages: the
# connection is torn down, and the same XID goes out again on the next
# connection and gets its answer there; the data is intact. The RPC is a
# READDIRPLUS answered inline to a Call with a Reply chunk of several
# MRs.
linv_fail_case() {
	local name="LOCAL_INV post fails" ff=/sys/kernel/debug/fail_function
	local c0 l
	echo > /sys/kernel/tracing/trace
	# NFSv3: a retransmission is simply carried out again (no session slot)
	v3_mount "$name" || return
	mkdir "$EXPORT_DIR/inj" && touch "$EXPORT_DIR"/inj/f{1..5}
	ls "$mnt/inj" > /dev/null
	c0=$(xprt_stat connects)
	echo 3 > /proc/sys/vm/drop_caches
	t_check "$name: rpcrdma2_post_localinv is injectable" \
		ff_arm rpcrdma2_post_localinv 12 1
	t_check "$name: READDIR completes, listing intact" \
		timeout 120 python3 - "$mnt/inj" <<'PY'
import os, sys
assert sorted(os.listdir(sys.argv[1])) == ["f%d" % i for i in range(1, 6)]
PY
	t_check "$name: the fault fired (times $(cat "$ff/times"))" \
		[ "$(cat "$ff/times")" = 0 ]
	ff_disarm
	l=$(python3 <<'PY'
import re
ev = re.compile(r" (xprtrdma2_[a-z_]+): (.*)$")
xid, last, phase = None, None, 0
# phase 1: the post failed; 2: the connection torn down; 3: a new one;
# 4: the XID sent again; 5: answered
for line in open("/sys/kernel/tracing/trace"):
    m = ev.search(line)
    if not m:
        continue
    name, rest = m.groups()
    x = re.search(r"xid=(0x[0-9a-f]+)", rest)
    x = x and x.group(1)
    if phase == 0 and name == "xprtrdma2_reply":
        last = x
    elif phase == 0 and name == "xprtrdma2_post_err" and rest.endswith("ret=-12"):
        xid, phase = last, 1
    elif phase == 1 and name == "xprtrdma2_disconnect":
        phase = 2
    elif phase == 2 and name == "xprtrdma2_established":
        phase = 3
    elif phase == 3 and name == "xprtrdma2_call" and x == xid:
        phase = 4
    elif phase == 4 and name == "xprtrdma2_reply" and x == xid:
        phase = 5
print(xid, phase)
PY
)
	set -- $l
	echo "$name: the RPC of xid $1 reached step $2 of 5 (post failed, torn down, reconnected, sent again, answered)"
	t_check "$name: the post failed for the reply of xid $1" [ "$2" -ge 1 ]
	t_check "$name: the connection was torn down and made again" \
		[ "$2" -ge 3 -a "$(xprt_stat connects)" -gt "$c0" ]
	t_check "$name: xid $1 sent again on the new connection and answered" \
		[ "$2" = 5 ]
	[ "$2" = 5 ] || cat /sys/kernel/tracing/trace > "$RESULTS/trace-linv-fail"
	grep -m2 'xprtrdma2_linv_failed:' /sys/kernel/tracing/trace
	nfs_roundtrip "$name: afterwards" "$mnt" 1
	rm -rf "$EXPORT_DIR/inj"
	umount "$mnt"
	t_check "$name: unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

# MRs the client holds in the device (rdma res show mr, owner xprtrdma2)
client_mrs() { rdma res show mr | grep -c 'comm \[xprtrdma2\]'; }

# verify_fio_args RW BS SIZE DEPTH: fio_args for two jobs of direct I/O
# on $mnt, RW of SIZE each in BS blocks at DEPTH, that write and verify
# (crc32c)
verify_fio_args() {
	fio_args=(--directory="$mnt" --rw="$1" --bs="$2" --size="$3"
		  --numjobs=2 --ioengine=libaio --iodepth="$4" --direct=1
		  --verify=crc32c --do_verify=1 --verify_state_save=0
		  --output=/dev/null)
}

# mr_pool_case: the client's MR pool starts with one batch
# (RPCRDMA2_MR_BATCH, 8 MRs, the most one RPC takes) and grows a batch at
# a time when RPCs find it empty, up to two chunks per slot. Direct I/O
# of 1 MiB at a queue depth of 32 needs one MR per RPC (a Read chunk for
# a WRITE, a Write chunk for a READ), more than a batch. While every
# allocation fails (fail_function on rpcrdma2_frwr_mr_create, as under
# memory pressure), RPCs that find the pool empty wait and go when others
# give their MRs back: the data is intact and the pool no larger. Then,
# without the fault, it grows, and the device holds what the counter says.
mr_pool_case() {
	local name="MR pool"
	local created waits errs
	v3_mount "$name" ,rsize=1048576,wsize=1048576 || return
	ls "$mnt" > /dev/null
	created=$(xprt_stat mrs_created)
	t_check "$name: one batch of 8 MRs at connect (mrs_created $created)" \
		[ "$created" = 8 ]
	t_check "$name: the device holds those 8 (rdma res show mr)" \
		[ "$(client_mrs)" = 8 ]
	verify_fio_args write 1M 16M 16

	t_check "$name: rpcrdma2_frwr_mr_create is injectable" \
		ff_arm rpcrdma2_frwr_mr_create 12 -1
	t_check "$name: no MR to be had: fio write+verify at depth 32 intact" \
		timeout 600 fio --name=starved "${fio_args[@]}"
	ff_disarm
	waits=$(xprt_stat no_mrs)
	errs=$(xprt_stat mr_refill_errors)
	created=$(xprt_stat mrs_created)
	echo "$name: starved: no_mrs=$waits mr_refill_errors=$errs mrs_created=$created"
	t_check "$name: sends waited for an MR" [ "$waits" -gt 0 ]
	t_check "$name: the refills failed" [ "$errs" -gt 0 ]
	t_check "$name: the pool did not grow" \
		[ "$created" = 8 -a "$(client_mrs)" = 8 ]

	t_check "$name: refills allowed: fio write+verify at depth 32 intact" \
		timeout 600 fio --name=fed "${fio_args[@]}"
	created=$(xprt_stat mrs_created)
	echo "$name: fed: no_mrs=$(xprt_stat no_mrs) mr_refill_errors=$(xprt_stat mr_refill_errors) mrs_created=$created device=$(client_mrs)"
	t_check "$name: the pool grew, a batch at a time, within two chunks per slot" \
		[ "$created" -gt 8 -a $((created % 8)) = 0 -a "$created" -le 512 ]
	t_check "$name: no refill failed once allowed" \
		[ "$(xprt_stat mr_refill_errors)" = "$errs" ]
	t_check "$name: the device holds what the counter says" \
		[ "$(client_mrs)" = "$created" ]
	rm -f "$mnt"/starved.* "$mnt"/fed.*
	umount "$mnt"
	t_check "$name: unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

# sq_full_case: the Send Queue has no room for a Call (fail_function
# makes rpcrdma2_sq_get say so, as when Sends and LOCAL_INVs in flight
# hold every entry): nothing is posted, the Call waits for write space
# and is marshaled and posted again. Our counters count Calls posted,
# not Calls marshaled: the Calls sent inline and as Long Calls are
# sunrpc's sends on the mount, to the one.
sq_full_case() {
	local name="Send Queue full" s0 c0 s1 c1 i
	v3_mount "$name" || return
	ls "$mnt" > /dev/null
	s0=$(xprt_sends)
	c0=$(($(xprt_stat calls) + $(xprt_stat long_calls)))
	t_check "$name: rpcrdma2_sq_get is injectable" \
		ff_arm rpcrdma2_sq_get 11 5
	# (a new file is a LOOKUP and a CREATE at least: no cache answers)
	for i in 1 2 3 4 5 6 7 8; do
		: > "$mnt/sq-full$i"
	done
	t_check "$name: every Call was sent (the injection ran out)" \
		[ "$(cat /sys/kernel/debug/fail_function/times)" = 0 ]
	ff_disarm
	s1=$(xprt_sends)
	c1=$(($(xprt_stat calls) + $(xprt_stat long_calls)))
	t_check "$name: Calls counted as posted ($((c1 - c0))) = sunrpc's sends ($((s1 - s0)))" \
		[ $((c1 - c0)) = $((s1 - s0)) -a $((s1 - s0)) -gt 0 ]
	rm -f "$mnt"/sq-full*
	umount "$mnt"
	t_check "$name: unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

# send_bufs_case: a connection makes Send buffers for one signaled batch
# of Sends (eight) when it starts, then one the first time it wants one
# and none is idle, up to one per Send it may have in flight (credits 64,
# and the extra and unsignaled ones, 83 in all). A mount that has sent
# its Calls one at a time holds the batch, or a few more. While no
# buffer can be made (fail_function on rpcrdma2_sendctx_make, as under
# memory pressure) Calls that find none idle go again after a delay and
# the others go with those there are: fio's data is intact and no buffer
# is added. Then, without the fault, a deep queue makes more, within the
# limit.
send_bufs_case() {
	local name="Send buffers" made fed errs
	v3_mount "$name" || return
	ls "$mnt" > /dev/null
	made=$(xprt_stat send_bufs)
	t_check "$name: the batch, or a few more, for Calls one at a time (send_bufs $made)" \
		[ "$made" -ge 8 -a "$made" -le 16 ]
	verify_fio_args randwrite 4k 4M 32
	t_check "$name: rpcrdma2_sendctx_make is injectable" \
		ff_arm rpcrdma2_sendctx_make 0 -1
	# (a Call that finds none idle waits a quarter second: 1 MiB a job)
	t_check "$name: none to be made: fio randwrite+verify at depth 64 intact" \
		timeout 600 fio --name=starved "${fio_args[@]}" --size=1M
	ff_disarm
	errs=$(xprt_stat send_buf_errors)
	echo "$name: starved: send_bufs=$(xprt_stat send_bufs) send_buf_errors=$errs no_sendctx=$(xprt_stat no_sendctx)"
	t_check "$name: Calls found none idle and none could be made" \
		[ "$errs" -gt 0 ]
	t_check "$name: none was added" [ "$(xprt_stat send_bufs)" = "$made" ]
	t_check "$name: made allowed: fio randwrite+verify at depth 64 intact" \
		timeout 600 fio --name=fed "${fio_args[@]}"
	fed=$(xprt_stat send_bufs)
	echo "$name: fed: send_bufs=$fed send_buf_errors=$(xprt_stat send_buf_errors) no_sendctx=$(xprt_stat no_sendctx)"
	t_check "$name: more were made ($made -> $fed), at most 83" \
		[ "$fed" -gt "$made" -a "$fed" -le 83 ]
	t_check "$name: none failed once allowed" \
		[ "$(xprt_stat send_buf_errors)" = "$errs" ]
	rm -f "$mnt"/starved.* "$mnt"/fed.*
	umount "$mnt"
	t_check "$name: unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

# xprt_sends: sunrpc's count of Calls transmitted on the rdma2 mount
# (the mountstats xprt: line's sends)
xprt_sends() {
	awk '$1 == "xprt:" && $2 == "rdma2" { n = $8 } END { print n }' \
		/proc/self/mountstats
}

linv_fail_case
mr_pool_case
sq_full_case
send_bufs_case
t_check "rmmod xprtrdma2 once unused" rmmod_when_free xprtrdma2
vm_nfsd_down
t_done
