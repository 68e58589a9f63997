#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The wire against the tracepoints: two guests (scripts/vm/pair), svcrdma2
# on the server and our client (proto=rdma2) on the other, both with the
# rpcrdma2 tracepoints on. The client records link0's RoCEv2 traffic (UDP
# 4791) with Debian's dumpcap into $RESULTS/capture.pcap while it mounts
# NFSv4.2, writes 64 KiB with direct I/O (a Read chunk), reads it back
# (a Write chunk, the reply sent With Invalidate), lists a directory of
# long names (a Reply chunk: RDMA2_NOMSG), makes and removes a file and
# a directory and unmounts. Each guest keeps its trace in $RESULTS/trace.
# Once both guests are off, tests/wireshark/capture_check.sh (make check,
# make capture) decodes the capture on the host with
# tools/wireshark/rpcrdma2.lua under tshark and matches every message with
# what its sender and its receiver traced: version, type, XID, credits,
# flags, chunk and segment counts, the Send With Invalidate rkey.
. "$(dirname "$0")/../vm/lib.sh"

# names for the directory listing: its READDIR reply outgrows the inline
# threshold (4 KiB) and comes back through the Reply chunk
NAMES=100

vm_stock && die "capture.sh: the rpcrdma2 tracepoints are on our kernels only"
pair_up
vm_trace_on
# a total order of the events across CPUs: the joins of trace_pcap.py
# (a Receive's completion, then its header) need it, and the guest's
# clock may tick in jiffies
echo counter > /sys/kernel/tracing/trace_clock

# trace_save: this guest's trace into $RESULTS, the clock back as it was
trace_save() {
	cp /sys/kernel/tracing/trace "$RESULTS/trace"
	echo local > /sys/kernel/tracing/trace_clock
}

server() {
	local i
	# made here, not across the link: the capture stays small
	mkdir "$EXPORT_DIR/names"
	for ((i = 0; i < NAMES; i++)); do
		: > "$EXPORT_DIR/names/file-with-a-rather-long-name-to-fill-readdir-$i"
	done
	pair_wait ready || die "the client never came"
	pair_wait captured 900 || t_fail "the client captured the exchange" "it never said so"
	trace_save
	pair_down
}

# workload: what the capture records, between mount and umount
workload() {
	local want got
	dd if=/dev/urandom of=/tmp/data bs=64k count=1 status=none
	want=$(sha256sum < /tmp/data)
	t_check "64 KiB written with direct I/O (a Read chunk)" \
		dd if=/tmp/data of="$mnt/data" bs=64k oflag=direct status=none
	echo 3 > /proc/sys/vm/drop_caches
	got=$(dd if="$mnt/data" bs=64k iflag=direct status=none | sha256sum)
	t_check "64 KiB read back with direct I/O (a Write chunk), the same SHA-256" \
		[ "$want" = "$got" ]
	echo 3 > /proc/sys/vm/drop_caches
	got=$(ls "$mnt/names" | wc -l)
	t_check "READDIR of $NAMES long names (a Reply chunk): $got" [ "$got" = "$NAMES" ]
	t_check "a few small operations: create, write, stat, rename, unlink, mkdir, rmdir" \
		bash -c "echo small > $mnt/small && stat $mnt/small > /dev/null &&
			mv $mnt/small $mnt/small2 && rm $mnt/small2 &&
			mkdir $mnt/d && rmdir $mnt/d && rm $mnt/data"
}

client() {
	local cap n
	pair_wait ready || die "the server never came"

	dumpcap -i link0 -f "udp port 4791" -P -w /tmp/capture.pcap 2> /tmp/dumpcap.err &
	cap=$!
	wait_for grep -q "^Capturing on" /tmp/dumpcap.err ||
		die "dumpcap did not start: $(tr '\n' ' ' < /tmp/dumpcap.err)"
	if pair_mount 4.2; then
		t_pass "NFSv4.2 rdma2 mount across the link"
		t_check "the connection speaks v2" [ "$(xprt_stat vers)" = 2 ]
		workload
		umount "$mnt"
		t_check "the mount unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
	else
		t_fail "NFSv4.2 rdma2 mount across the link" "mount failed"
	fi
	# the last replies on their way in
	sleep 2
	kill -INT "$cap"
	wait "$cap"
	cp /tmp/capture.pcap "$RESULTS/capture.pcap"
	# "Packets received/dropped on interface 'link0': 312/0 (...)"
	n=$(sed -n "s|^Packets received/dropped on interface 'link0': \([0-9]*/[0-9]*\) .*|\1|p" \
		/tmp/dumpcap.err)
	t_check "dumpcap recorded link0, no packet dropped (received/dropped: ${n:-?})" \
		[ -n "$n" -a "${n#*/}" = 0 ]
	trace_save
	pair_wait captured
}

pair_run
