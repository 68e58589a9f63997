#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# svcrdma2 under faults: a flood of Calls with many RDMA Reads and a
# client that posts no Receives beside a working mount (no nfsd thread
# held), inline replies sent from nfsd's pages and copied when a page
# cannot be mapped, the Soft-RoCE link deleted while a client writes
# (nfsd survives, the connection is torn down and freed, the next client
# is served), and nfsd shut down under a connected client (rpc.nfsd 0
# closes everything; rmmod is clean). The VM runner fails the run on any
# KASAN/lockdep/hung-task report or kmemleak leak.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2 max_segs=64 buf_size=8192
vm_nfsd_up rdma2 "$NFS_V2_PORT"

mnt=/tmp/mnt
mkdir -p "$mnt"

has_conns() { [ "$(conns)" -ge 1 ]; }


# 0. Calls whose Read chunks have many small segments (4 chunks of 64
# segments of 4 bytes: 256 RDMA Reads each, so svcrdma2 takes 64 segments
# a chunk and 8 KiB Receives), 32 of them in flight on each of two
# connections at once, with 64 nfsd threads: eight Calls' Reads fill a
# connection's Send Queue. (With 128 Reads a Call, 16 or 64 threads,
# this bed's Reads completed fast enough that the old code got away.)
# No nfsd thread may wait on that Send Queue holding entries another
# needs (the Reads of a Call are posted all at once or not at all). A third connection stops posting Receives:
# the replies to it never complete, which must not hold nfsd threads
# either. Meanwhile another client's mount keeps doing I/O. Checked: no
# nfsd thread stays blocked (D) for 5 s, no operation of the I/O loop
# takes 30 s (rxe shares the guest's two emulated CPUs with the flood:
# the mount's own RDMA traffic waits for CPU, up to ~20 s seen; a
# deadlock stalls it for good),
# every flood Call is answered, and the trace shows the Send Queue
# really ran out (Calls waited).
PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
[ -x "$PING" ] || die "rpcrdma2-ping: $PING not built (run 'make tools' on the host)"
FLOOD_CONNS=2
FLOOD_CALLS=32
rpc.nfsd 64 || die "rpc.nfsd 64"
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo > /sys/kernel/tracing/trace
echo 1 > /sys/kernel/tracing/events/rpcrdma2/svcrdma2_read_park/enable
t_check "mount NFSv4.2 on svcrdma2 beside the flood" \
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"
# io_loop: write and read back 64 KiB until /tmp/io.stop appears; each
# operation's start in /tmp/io.t0 and the longest one (ms) in /tmp/io.max
io_loop() {
	local i=0 t0 d max=0
	while [ ! -e /tmp/io.stop ]; do
		t0=${EPOCHREALTIME/./}
		echo "$t0" > /tmp/io.t0
		dd if=/dev/urandom of="$mnt/io.$((i % 4))" bs=64k count=1 \
			conv=fsync status=none && cat "$mnt/io.$((i % 4))" > /dev/null ||
			echo "io error" >> /tmp/io.err
		d=$(((${EPOCHREALTIME/./} - t0) / 1000))
		[ "$d" -gt "$max" ] && max=$d && echo "$max" > /tmp/io.max
		i=$((i + 1))
	done
	echo "$i" > /tmp/io.count
}
rm -f /tmp/io.stop /tmp/io.err /tmp/io.count
echo 0 > /tmp/io.max
io_loop &
loop=$!
sleep 2
flood=()
for i in $(seq "$FLOOD_CONNS"); do
	"$PING" -p "$NFS_V2_PORT" --read-segs 4,64,4 --size 8192 --credits 64 -w 64 \
		-c "$FLOOD_CALLS" -t 60 \
		"$GUEST_IP" > "/tmp/flood.$i" 2>&1 &
	flood+=($!)
done
"$PING" -p "$NFS_V2_PORT" --no-repost -w 16 -c 64 -t 20 "$GUEST_IP" \
	> /tmp/norepost 2>&1 &
flood+=($!)
# the longest the loop's current operation has been running, in ms
io_now() { echo $(((${EPOCHREALTIME/./} - $(cat /tmp/io.t0)) / 1000)); }
# every 0.5 s: how long each nfsd thread has been blocked (D), in samples
nfsd_pids=$(pgrep -x nfsd)
declare -A dcount
stall=0 dmax=0
for i in $(seq 600); do
	running=0
	for pid in "${flood[@]}"; do kill -0 "$pid" 2>/dev/null && running=1; done
	[ "$running" = 0 ] && break
	n=$(io_now)
	[ "$n" -gt "$stall" ] && stall=$n
	for pid in $nfsd_pids; do
		st=
		read -r _ _ st _ < "/proc/$pid/stat" 2>/dev/null
		if [ "$st" = D ]; then
			dcount[$pid]=$((${dcount[$pid]:-0} + 1))
			[ "${dcount[$pid]}" -gt "$dmax" ] && dmax=${dcount[$pid]}
		else
			dcount[$pid]=0
		fi
	done
	sleep 0.5
done
for pid in "${flood[@]}"; do kill "$pid" 2>/dev/null; done
wait "${flood[@]}" 2>/dev/null
touch /tmp/io.stop
if timeout 60 bash -c "while kill -0 $loop 2>/dev/null; do sleep 0.2; done"; then
	t_pass "the I/O loop ended after the flood"
else
	t_fail "the I/O loop ended after the flood" "an operation has run $(io_now) ms"
fi
max=$(cat /tmp/io.max)
[ "$stall" -gt "$max" ] && max=$stall
for f in /tmp/flood.* /tmp/norepost; do
	echo "$f: $(grep -E 'calls, |rpcrdma2-ping: ' "$f" | tail -n 2 | tr '\n' ' ')"
done
replies=$(cat /tmp/flood.* | grep -c '^NULL reply')
parked=$(grep -c svcrdma2_read_park /sys/kernel/tracing/trace)
echo "read flood: $FLOOD_CONNS connections, $replies NULL replies, $parked Calls waited for the Send Queue; I/O loop: $(cat /tmp/io.count 2>/dev/null) operations, the longest $max ms; an nfsd thread blocked for $((dmax / 2)) s at most"
t_check "the flood filled the Send Queue (Calls waited: $parked)" test "$parked" -gt 0
t_check "every flood Call was answered ($replies)" \
	test "$replies" -eq $((FLOOD_CONNS * FLOOD_CALLS))
t_check "no nfsd thread blocked for 5 s (longest $((dmax / 2)) s)" test "$dmax" -lt 10
t_check "no I/O operation beside the flood took 30 s (longest $max ms)" test "$max" -lt 30000
t_check "no I/O error beside the flood" test ! -e /tmp/io.err
echo 0 > /sys/kernel/tracing/events/rpcrdma2/svcrdma2_read_park/enable
umount "$mnt"
rpc.nfsd 4

# 1. Inline replies from their pages. The in-tree client receives 4 KiB
# inline (RFC 8797), so the reply to a 2002-byte READ comes inline, and
# svcrdma2 sends the payload from nfsd's pages as gather entries of the
# Send (send_gathered); at these offsets most payloads cross a page, and
# the XDR pad goes from the tail. When a page cannot be mapped
# (fail_function on svc_rdma2_send_map_page) the reply is copied instead
# (send_map_errors). Either way the bytes read are the file's.
gather_reads=500
head -c $((gather_reads * 2002)) /dev/urandom > "$EXPORT_DIR/gather"
# gather_read: read the file through the mount in 2002-byte direct reads
gather_read() {
	cmp <(dd if="$mnt/gather" bs=2002 iflag=direct status=none) \
		"$EXPORT_DIR/gather"
}
t_check "mount NFSv4.2 (the in-tree client) for inline READ replies" \
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"
gathered=$(svc_stat send_gathered)
t_check "$gather_reads direct reads of 2002 bytes return the file" gather_read
gathered=$(($(svc_stat send_gathered) - gathered))
t_check "their replies went from nfsd's pages ($gathered)" \
	test "$gathered" -ge "$gather_reads"
t_check "svc_rdma2_send_map_page is injectable" \
	ff_arm svc_rdma2_send_map_page 5 -1
gathered=$(svc_stat send_gathered)
map_errors=$(svc_stat send_map_errors)
t_check "no page maps: the same reads return the file" gather_read
ff_disarm
map_errors=$(($(svc_stat send_map_errors) - map_errors))
gathered=$(($(svc_stat send_gathered) - gathered))
t_check "each reply was copied instead ($map_errors mapping errors, $gathered gathered)" \
	test "$map_errors" -ge "$gather_reads" -a "$gathered" -eq 0
umount "$mnt"
rm -f "$EXPORT_DIR/gather"

# 2. The device vanishes mid-I/O. A soft mount lets the writer give up.
t_check "mount NFSv4.2 (soft) on svcrdma2" \
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_V2_PORT,soft,timeo=20,retrans=2" \
		"$GUEST_IP:/" "$mnt"
dd if=/dev/urandom of="$mnt/big" bs=1M count=64 oflag=direct status=none &
writer=$!
sleep 3
# The mount's RPC timeout is 2 s (timeo=20): an RPC that outlasts it
# makes the client close and reconnect after its reconnect delay, so at
# one instant there may be no connection (once seen in a clean-clone
# run). The link must go while one is up.
t_check "svcrdma2 has a connection while the writer runs" wait_for has_conns
t_check "rdma link delete rxe0 mid-I/O" rdma link delete rxe0
t_check "svcrdma2 tore the connection down" wait_for no_conns
wait "$writer"
echo "writer exited $? after the device went away"
t_check "nfsd still listens on rdma2" grep -q "^rdma2 $NFS_V2_PORT\$" /proc/fs/nfsd/portlist
umount -f -l "$mnt"

# 3. The device comes back: a new client is served.
t_check "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
t_check "rxe0 active again" wait_for bash -c 'rdma link show rxe0/1 | grep -q ACTIVE'
t_check "mount NFSv4.2 on svcrdma2 after the device came back" \
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"
nfs_roundtrip "NFSv4.2 after device loss" "$mnt" 1

# 4. nfsd shuts down under a connected client, then comes back: the
# client reconnects to the new listener and unmounts normally.
t_check "rpc.nfsd 0 with a client connected" rpc.nfsd 0
t_check "every svcrdma2 connection closed" wait_for no_conns
t_check "rpc.nfsd restarts with rdma2" \
	bash -c "rpc.nfsd 4 && echo 'rdma2 $NFS_V2_PORT' > /proc/fs/nfsd/portlist"
t_check "the client reconnects and unmounts" timeout 120 umount "$mnt"
t_check "rpc.nfsd 0" rpc.nfsd 0
t_check "rmmod svcrdma2 after nfsd stopped" rmmod svcrdma2
exportfs -ua
pkill rpc.mountd
pkill rpcbind
t_done
