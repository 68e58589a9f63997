#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# svcrdma2 takes a client's RDMA2_CONNPROP before the Calls behind it
# (draft v2 §5.3.4): no other nfsd thread gets the next message until
# the CONNPROP's properties are in, since our client sends Calls right
# behind it whose replies count on the RBSIZ it carries (a 4 KiB READ's
# reply inline, no Write chunk; xprtrdma2_chunks.sh's rbsiz_case).
#
# 4 KiB O_DIRECT reads at QD16 over our client on an NFSv3 mount; then,
# as in xprtrdma2_faults.sh, fail_function makes posting a LOCAL_INV
# chain fail once (a READDIRPLUS with a Reply chunk), and the client
# tears the connection down and makes a new one at once: the READs go
# again right behind our CONNPROP. The window svcrdma2 closes is
# microseconds wide, so the fixture tests/modules/rpcrdma2_test_delay.ko
# holds svcrdma2's take of the RBSIZ (svc_rdma2_take_rbsiz()) for 100
# ms, in which another nfsd thread, were it let take those READs, would
# answer them with RDMA2_ERR_REPLY_RESOURCE (and the connection would
# count on 4096 bytes: a Write chunk for every READ). The trace shows
# Calls sent between our CONNPROP and svcrdma2's take of it (the case's
# own check that it reached the window); none is refused. Two vCPUs
# (scripts/check.sh VM_SMP2): with one, the held thread would hold the
# whole guest, and no other thread could run in the window.
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
[ "$(nproc)" -ge 2 ] || die "svcrdma2_connprop: needs two CPUs (--smp 2)"

tr=/sys/kernel/tracing
# only the events the window is read from: the trace keeps all of the
# run
events="rpcrdma2/xprtrdma2_established rpcrdma2/xprtrdma2_version
	rpcrdma2/xprtrdma2_call rpcrdma2/svcrdma2_connprop_recv"

name="the Calls behind our CONNPROP wait for it"
head -c 16M /dev/urandom > "$EXPORT_DIR/cp"
mkdir "$EXPORT_DIR/cpdir" && touch "$EXPORT_DIR"/cpdir/f{1..5}
if ! kmount "vers=3,proto=rdma2,port=$NFS_V2_PORT,mountproto=tcp,nolock,hard" \
	"$GUEST_IP:$EXPORT_DIR"; then
	t_fail "$name: mounts" "mount failed"
	t_done
fi
ls "$mnt/cpdir" > /dev/null
echo 0 > "$tr/events/enable"
for e in $events; do echo 1 > "$tr/events/$e/enable"; done
echo global > "$tr/trace_clock"
echo > "$tr/trace"
c0=$(xprt_stat connects) r0=$(xprt_stat rbsiz_refused)
e0=$(svc_stat err_reply_resource) n0=$(xprt_stat replies)
t_check "$name: the fixture holds svc_rdma2_take_rbsiz" \
	insmod "$RPCRDMA2_MODDIR/tests/modules/rpcrdma2_test_delay.ko" \
	symbol=svc_rdma2_take_rbsiz ms=100
# (fio takes seconds to start under TCG, and in make check the steps up
# to the reconnect took 14 s of its I/O: it reads for a minute, so that
# its READs are there to go behind the CONNPROP)
fio --name=cp --directory="$mnt" --filename=cp --rw=randread --bs=4k \
	--ioengine=libaio --iodepth=16 --direct=1 --time_based \
	--runtime=60 --output=/dev/null > /dev/null 2>&1 &
fiopid=$!
reads_flow() { [ "$(xprt_stat replies)" -ge $((n0 + 100)) ]; }
t_check "$name: the reads flow" wait_for reads_flow
echo 3 > /proc/sys/vm/drop_caches
t_check "$name: rpcrdma2_post_localinv is injectable" \
	ff_arm rpcrdma2_post_localinv 12 1
t_check "$name: READDIR completes, listing intact" \
	timeout 120 python3 - "$mnt/cpdir" <<'PY'
import os, sys
assert sorted(os.listdir(sys.argv[1])) == ["f%d" % i for i in range(1, 6)]
PY
t_check "$name: the fault fired" \
	[ "$(cat /sys/kernel/debug/fail_function/times)" = 0 ]
ff_disarm
if wait "$fiopid"; then
	t_pass "$name: the reads complete"
else
	t_fail "$name: the reads complete" "fio failed"
fi
hits=$(cat /sys/module/rpcrdma2_test_delay/parameters/hits)
t_check "$name: reconnected ($c0 -> $(xprt_stat connects) connects), CONNPROP held ($hits)" \
	[ "$(xprt_stat connects)" -gt "$c0" -a "$hits" -ge 1 ]
# Calls sent from our version fixed on the new connection (our CONNPROP
# goes then) to svcrdma2's CONNPROP taken
n=$(python3 - "$tr/trace" <<'PY'
import re, sys
t0, n = None, 0
for line in open(sys.argv[1]):
    m = re.search(r" ([0-9.]+): (\w+):", line)
    if not m:
        continue
    ev = m.group(2)
    if ev == "xprtrdma2_established":
        t0, n = False, 0
    elif ev == "xprtrdma2_version" and t0 is False:
        t0 = True
    elif t0 and ev == "xprtrdma2_call":
        n += 1
    elif t0 and ev == "svcrdma2_connprop_recv":
        break
print(n)
PY
)
t_check "$name: Calls sent behind our CONNPROP before svcrdma2 took it ($n)" \
	[ "$n" -ge 1 ]
t_check "$name: none refused ($(xprt_stat rbsiz_refused); svcrdma2 $(($(svc_stat err_reply_resource) - e0))), recv_inline $(xprt_stat recv_inline)" \
	[ "$(xprt_stat rbsiz_refused)" = "$r0" -a \
	  "$(svc_stat err_reply_resource)" = "$e0" -a \
	  "$(xprt_stat recv_inline)" = 8192 ]
t_check "$name: rmmod the fixture" rmmod rpcrdma2_test_delay
t_check "$name: data intact" cmp "$mnt/cp" "$EXPORT_DIR/cp"
t_check "$name: unmounts" umount -i "$mnt"
rm -rf "$EXPORT_DIR/cp" "$EXPORT_DIR/cpdir"
t_done
