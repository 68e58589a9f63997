#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Faults on the link between two guests (scripts/vm/pair) while fio
# writes and verifies through one NFSv4.2 mount of our client, against
# svcrdma2 or (--server stock) the stock kernel's in-tree server: tc netem
# loss (1%) and delay (5 ms) with reordering (1% of the packets go at
# once, ahead of those delayed) on both NICs, the link down (nothing
# crosses it) for longer than the QP's retry limit (transport retry_count
# 7 x a ~0.5 s local ACK timeout on RoCE) then up again, and the server's
# nfsd restarted.
#
# The link goes down as a dead cable or switch would take it: both NICs
# drop every frame they send (netem loss 100%), and stay up. Not with
# "ip link set down": that takes the link's routes away, and rxe then
# fails any Send it cannot route with a local QP error, which moves even
# the GSI QP (QP1, which carries the connection manager's MADs) to the
# error state for good: a server whose CM sent a MAD while its link was
# down never answers a connection request again (seen on Debian's stock
# kernel, in-tree client and server alike), which no NIC does. Each ends with fio reporting no error on the same mount (no
# remount); the time the mount took to recover (the first write after the
# fault ended) is printed and kept in $RESULTS/recovery-ms.
#
# RoCE wants a lossless, in-order network. A packet out of order is a
# sequence error: the responder NAKs it and the requester goes back to
# it (IBA 9.7.5.1.1), and with 25% of the packets reordered a 4 MiB fio
# run took 4 minutes across this link; 1% costs seconds.
. "$(dirname "$0")/../vm/lib.sh"

pair_up
vm_trace_on
echo 1 > /sys/kernel/tracing/events/rdma_cma/enable
LINK_DOWN_S=15
# the longest a mount may take to serve a write once a fault is over
RECOVER_S=120

# link_dark: this guest's NIC sends nothing for LINK_DOWN_S seconds (both
# guests do it at once: the link is down).
link_dark() {
	link_netem loss 100%
	sleep "$LINK_DOWN_S"
	link_netem
}

# server_fault CASE: what the server does at the middle of CASE.
server_fault() {
	case $1 in
	link-down) link_dark ;;
	nfsd-restart)
		rpc.nfsd 0
		sleep 2
		rpc.nfsd 4
		t_check "nfsd-restart: $(pair_transport) listens on $NFS_V2_PORT again" \
			bash -c "echo '$(pair_transport) $NFS_V2_PORT' > /proc/fs/nfsd/portlist"
		;;
	esac
}

# fault_case CASE SIZE [NETEM...]: one fault while fio writes and verifies
# SIZE; NETEM arguments apply on both guests for the whole run.
fault_case() {
	local c=$1 size=$2 pid rc t0 ms i
	shift 2
	[ $# -eq 0 ] || link_netem "$@"
	pair_wait "$c-go" 300 || { t_fail "$c" "the $(pair_peer) is gone"; return; }
	if [ "$RPCRDMA2_PAIR_ROLE" = server ]; then
		pair_wait "$c-mid" 300 && server_fault "$c"
		pair_wait "$c-done" 300
		pair_wait "$c-end" 900
		# the server's side of a case the client failed, for the post-mortem
		if [ -e "$PAIR/failed.$c" ]; then
			cat /sys/kernel/tracing/trace > "$RESULTS/trace-$c"
			vm_stock || cat /proc/fs/svcrdma2/stats > "$RESULTS/svcrdma2-stats-$c"
			for p in $(pgrep -x nfsd); do
				echo "== nfsd $p"
				cat "/proc/$p/stack"
			done > "$RESULTS/nfsd-stacks-$c"
		fi
	else
		t0=${EPOCHREALTIME/./}
		fio --name="$c" --directory="$mnt" --rw=write --bs=64k --size="$size" \
			--ioengine=psync --direct=1 --verify=crc32c --do_verify=1 \
			--verify_state_save=0 --output="$RESULTS/fio-$c.out" &
		pid=$!
		sleep 3
		pair_wait "$c-mid" 300
		[ "$c" != link-down ] || link_dark
		pair_wait "$c-done" 300
		# the first write once the fault is over
		t0=${EPOCHREALTIME/./}
		if timeout "$RECOVER_S" dd if=/dev/zero of="$mnt/probe" bs=4k count=1 \
			oflag=direct status=none; then
			ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
			t_pass "$c: the mount recovered: a write took $ms ms once the fault ended"
			echo "$c $ms" >> "$RESULTS/recovery-ms"
		else
			t_fail "$c: the mount recovered" "no write in $RECOVER_S s once the fault ended"
			pair_put "failed.$c" 1
		fi
		# (fio may be stuck where the probe was: give it as long)
		for ((i = 0; i < RECOVER_S; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		kill -9 "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		if [ "$rc" = 0 ]; then
			t_pass "$c: fio wrote and verified $size with no error on the same mount"
		else
			t_fail "$c: fio wrote and verified $size with no error on the same mount" "exit $rc"
			pair_put "failed.$c" 1
		fi
		# (a mount that never recovered does not block the next cases)
		timeout -k 5 30 rm -f "$mnt/$c".* "$mnt/probe"
		pair_wait "$c-end" 300
	fi
	[ $# -eq 0 ] || link_netem
}

if [ "$RPCRDMA2_PAIR_ROLE" = client ]; then
	pair_mount 4.2 || die "NFSv4.2 mount across the link"
	t_pass "NFSv4.2 $(pair_transport) mount across the link"
fi
# (arguments: the cases to run, all by default)
for c in ${@:-loss delay link-down nfsd-restart}; do
	case $c in
	loss) fault_case loss 2m loss 1% ;;
	delay) fault_case delay 2m delay 5ms reorder 1% 50% ;;
	*) fault_case "$c" 2m ;;
	esac
done
if [ "$RPCRDMA2_PAIR_ROLE" = client ]; then
	echo "recovery after each fault (ms):"
	sed 's/^/  | /' "$RESULTS/recovery-ms" 2>/dev/null
	umount "$mnt"
	t_check "the mount unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
fi
pair_wait done 600
pair_down
t_done
