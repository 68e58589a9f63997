#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client transport's chunks: FRWR registration, DDP (WRITE data in
# Read chunks, READ data in Write chunks), Long Calls (Position-Zero Read
# chunk), Long Replies (Reply chunk) and invalidation, against svcrdma2
# on 20049 (v2, which sends Send With Invalidate of rdma_inv_handle) and
# the in-tree svcrdma on 20050 (v1). READs use Write chunks in every
# NFS version: over proto=rdma2, as over proto=rdma, the NFS client
# (with patches/0001) sends READ, not READ_PLUS, whose replies could not
# be placed directly. Each case: 8 MiB round trip, a round trip of an
# odd length (XDR roundup in both directions), fio verify (sequential
# 1M), and on NFSv4.2 a 60 KB xattr (SETXATTR is a Long
# Call, GETXATTR a Long Reply) and a READDIR of 1000 long names after
# drop_caches; the client's counters and the server's agree. Then a
# reconnect while dd writes 1 MiB blocks on a hard mount: the WRITE
# retransmitted as the first Call of the new connection fits 1024 bytes
# with its data in a Read chunk, the data is intact and the connection
# is v2 again. Last, the device gone for good under a mount: umount -f
# returns and the module unloads. One case mounts over IPv6, and one
# meets a v2 server that refuses DDP chunks (svcrdma2 ddp=N), one moves
# 1 MiB payloads (with our client or svcrdma2 on either end), and one has
# our client's MRs map 32 pages, as on a device that maps no more. With the
# default 8192-byte buffers on both sides 4 KiB READs come inline on our
# RBSIZ; then a server that ignores it (rbsiz_case). Against
# both servers, a reply's inline bytes go into chunk memory only once
# every MR of its RPC is unmapped (order_case).
. "$(dirname "$0")/lib.sh"

vm_rxe_up
# A ULA on eth0 for the IPv6 case (rxe adds its GID).
ip -6 addr add fd00::15/64 dev eth0 nodad
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
vm_trace_on
vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

# xprt_stat NAME (lib.sh): the client's counters, by the names
# Documentation/xprtrdma2.rst gives them.
# 1000 names of 60 bytes, made on the server's side (creating them over
# NFS takes minutes under TCG): READDIR replies far over any inline
# threshold, read after drop_caches.
big_readdir() {
	local name=$1
	t_check "$name READDIR of 1000 long names after drop_caches" \
		python3 - "$EXPORT_DIR/dir" "$mnt/dir" 1000 <<'PY'
import os, shutil, sys
local, remote, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = ["a-rather-long-file-name-to-make-readdir-replies-big-%07d" % i
         for i in range(n)]
os.mkdir(local)
for f in names:
    open(os.path.join(local, f), "w").close()
open("/proc/sys/vm/drop_caches", "w").write("3")
try:
    assert sorted(os.listdir(remote)) == names, "readdir after drop_caches"
finally:
    shutil.rmtree(local)
PY
}

# odd_roundtrip NAME: 1000003 bytes through the mount and back after
# drop_caches: the last WRITE and READ carry a payload of odd length,
# whose XDR roundup is left out of the chunks (RFC 8166 §3.4.5, §3.4.6)
odd_roundtrip() {
	t_check "$1: 1000003 bytes round trip" python3 - "$mnt/odd" <<'PY'
import os, sys
data = os.urandom(1000003)
with open(sys.argv[1], "wb") as f:
    f.write(data)
    os.fsync(f.fileno())
open("/proc/sys/vm/drop_caches", "w").write("3")
with open(sys.argv[1], "rb") as f:
    assert f.read() == data, "odd-length data differs"
os.unlink(sys.argv[1])
PY
}

# big_xattr NAME: a 60 KB user xattr set and read back after
# drop_caches: SETXATTR's value is not DDP-eligible, so the Call is a
# Long Call; GETXATTR's reply comes in a Reply chunk. The value is read
# as getfattr(1) does, size first (a v1 server cannot do better than
# fail a GETXATTR into a small buffer: small_xattr_read below).
big_xattr() {
	t_check "$1: 60 KB xattr round trip" python3 - "$mnt/x" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
path, name = sys.argv[1].encode(), b"user.big"
value = os.urandom(60000)
open(path, "w").close()
os.setxattr(path, name, value)
open("/proc/sys/vm/drop_caches", "w").write("3")
size = libc.getxattr(path, name, None, 0)
assert size == len(value), "xattr size %d" % size
buf = ctypes.create_string_buffer(size)
assert libc.getxattr(path, name, buf, size) == size, "getxattr"
assert buf.raw == value, "xattr differs"
os.unlink(path)
PY
}

# small_xattr_read NAME: the same value read as Python's os.getxattr()
# does: a 128-byte buffer first, then 64 KiB after ERANGE. The first
# GETXATTR's reply is far over the Reply chunk its one page makes, and
# over the buffer: svcrdma2 answers RDMA2_ERR_REPLY_RESOURCE with the
# length it needs, which fails the RPC with -ERANGE, as the NFS client's
# decoder does over TCP (xprtrdma2_reply_resource: needed, buffer).
small_xattr_read() {
	local n0
	n0=$(trace_count xprtrdma2_reply_resource)
	t_check "$1: 60 KB xattr read into a 128-byte buffer first (ERANGE), then 64 KiB" \
		timeout 60 python3 - "$mnt/x" <<'PY'
import os, sys
path, name = sys.argv[1], "user.big"
value = os.urandom(60000)
open(path, "w").close()
os.setxattr(path, name, value)
open("/proc/sys/vm/drop_caches", "w").write("3")
assert os.getxattr(path, name) == value, "xattr differs"
os.unlink(path)
PY
	t_check "$1: ... the first refused with the length needed (tracepoint)" \
		[ "$(trace_count xprtrdma2_reply_resource)" -gt "$n0" ]
	grep -m1 'xprtrdma2_reply_resource:' /sys/kernel/tracing/trace
	# a reply larger than the whole buffer says nothing of our RBSIZ,
	# which the Call counted on: the threshold stays
	eq0 "$1: ... not taken for a refusal of our RBSIZ" rbsiz_refused
	t_check "$1: ... recv_inline still $(xprt_stat recv_inline)" \
		[ "$(xprt_stat recv_inline)" = "$(cat /sys/module/xprtrdma2/parameters/inline_size)" ]
}

# order_case NAME PORT: a reply's inline bytes go into chunk memory only
# after every MR of its RPC is unmapped. Against svcrdma2, a READDIR of a
# small directory and a LISTXATTRS come back inline to Calls that offered
# a Reply chunk (the server invalidates its first MR, the rest get
# LOCAL_INV); against both servers, a short READ's XDR pad goes after
# the data in the Write chunk's pages. From the trace: for every RPC
# whose reply was copied (xprtrdma2_reply_copy) while the Call had
# offered a Reply or Write chunk, each of its FROM_DEVICE MRs was
# unmapped (xprtrdma2_mr_unmap) before the copy, and there were such
# RPCs. rxe maps nothing (virtual DMA), so the bytes cannot show a wrong
# order: the trace does. Its clock is the "counter" one, one atomic count
# for every CPU: the guest's clocks tick in jiffies, and events of the
# same tick on two CPUs (the Receive completion's unmap of the MR the
# server invalidated, the LOCAL_INV completion's copy) came out of the
# merge in either order.
order_case() {
	local name=$1 port=$2 l
	echo counter > /sys/kernel/tracing/trace_clock
	echo > /sys/kernel/tracing/trace
	if ! kmount "vers=4.2,proto=rdma2,port=$port" "$GUEST_IP:/"; then
		t_fail "$name mounts" "mount failed"
		return
	fi
	t_check "$name: small READDIR, LISTXATTRS, short READ, data intact" \
		python3 - "$EXPORT_DIR" "$mnt" <<'PY'
import os, sys
local, remote = sys.argv[1], sys.argv[2]
os.mkdir(os.path.join(local, "small"))
names = ["f%d" % i for i in range(5)]
for f in names:
    open(os.path.join(local, "small", f), "w").close()
data = os.urandom(1001)
with open(os.path.join(local, "short"), "wb") as f:
    f.write(data)
os.setxattr(os.path.join(local, "short"), "user.a", b"1")
os.setxattr(os.path.join(local, "short"), "user.b", b"2")
for i in range(3):
    open("/proc/sys/vm/drop_caches", "w").write("3")
    assert sorted(os.listdir(os.path.join(remote, "small"))) == names, "readdir"
    with open(os.path.join(remote, "short"), "rb") as f:
        assert f.read() == data, "short read"
    got = os.listxattr(os.path.join(remote, "short"))
    assert {"user.a", "user.b"} <= set(got), "listxattr %r" % got
PY
	umount "$mnt"
	rm -rf "$EXPORT_DIR/small" "$EXPORT_DIR/short"
	l=$(python3 <<'PY'
import re
call = re.compile(r" xprtrdma2_call: task:\d+ xid=(0x[0-9a-f]+)")
unmap = re.compile(r" xprtrdma2_mr_unmap: .* xid=(0x[0-9a-f]+) dir=FROM_DEVICE")
copy = re.compile(r" xprtrdma2_reply_copy: task:\d+ xid=(0x[0-9a-f]+) \d+ (\d+)$")
unmapped, copied, checked, late, bare = {}, set(), 0, set(), set()
for line in open("/sys/kernel/tracing/trace"):
    m = call.search(line)
    if m:                                # a new transmission
        unmapped[m.group(1)] = 0
        copied.discard(m.group(1))
        continue
    m = unmap.search(line)
    if m:
        x = m.group(1)
        unmapped[x] = unmapped.get(x, 0) + 1
        if x in copied:
            late.add(x)
        continue
    m = copy.search(line)
    if m and int(m.group(2)) > 0:
        checked += 1
        if not unmapped.get(m.group(1)):
            bare.add(m.group(1))
        copied.add(m.group(1))
print(checked, len(late), len(bare), ",".join(sorted(late | bare)[:5]) or "-")
PY
)
	set -- $l
	echo "$name: $1 replies copied into chunk memory, $2 with an MR unmapped after the copy, $3 with none unmapped before it ($4)"
	t_check "$name: replies copied into chunk memory ($1)" [ "${1:-0}" -gt 0 ]
	t_check "$name: each after its MRs were unmapped ($2 late, $3 without an unmap: $4)" \
		[ "$2" = 0 -a "$3" = 0 ]
	[ "$2" = 0 ] || cat /sys/kernel/tracing/trace > "$RESULTS/trace-order-$port"
	# timestamps again for what follows
	echo global > /sys/kernel/tracing/trace_clock
}

# gt0 / eq0 NAME COUNTER: the client's COUNTER is above zero / zero
gt0() { t_check "$1 ($2 = $(xprt_stat "$2"))" [ "$(xprt_stat "$2")" -gt 0 ]; }
eq0() { t_check "$1 ($2 = $(xprt_stat "$2"))" [ "$(xprt_stat "$2")" = 0 ]; }

# op_field OP N: field N of OP's line for the mount on $mnt in
# mountstats (2 the calls, 5 the bytes sent, 6 received); 0 if none
op_field() {
	awk -v m=" $mnt " -v op="$1:" -v f="$2" '/^device /{on = index($0, m) > 0}
		on && $1 == op {print $f; found = 1} END {if (!found) print 0}' \
		/proc/self/mountstats
}
# op_count OP: how many OP calls the mount on $mnt sent
op_count() { op_field "$1" 2; }
# ratio N D: N / D in whole numbers, 0 if D is 0
ratio() { echo $(($2 > 0 ? $1 / $2 : 0)); }
# io_sizes: the mount on $mnt's rsize and wsize, "R W"
io_sizes() {
	sed -n "s|.* $mnt .*rsize=\([0-9]*\),wsize=\([0-9]*\).*|\1 \2|p" /proc/mounts
}

# svc_delta NAME: how much svcrdma2's counter NAME grew since snap
svc_delta() { echo $(($(svc_stat "$1") - ${snap[$1]})); }

# chunk_case NAME PORT VERS NFSVERS: mount, move data, check counters
chunk_case() {
	local name=$1 port=$2 vers=$3 nfsvers=$4 c src=$GUEST_IP:/ opts
	declare -A snap
	for c in read_chunks write_chunks reply_chunks send_with_inv; do
		snap[$c]=$(svc_stat $c)
	done
	opts=vers=$nfsvers,proto=rdma2,port=$port
	[ "$nfsvers" = 3 ] && src=$GUEST_IP:$EXPORT_DIR opts+=,mountproto=tcp,nolock
	if ! kmount "$opts" "$src"; then
		t_fail "$name mounts" "mount failed"
		return
	fi
	t_pass "$name mounts"
	rsize=$(io_sizes)
	t_check "$name: rsize wsize ($rsize) well over the inline threshold" \
		[ "${rsize% *}" -ge 65536 -a "${rsize#* }" -ge 65536 ]
	nfs_roundtrip "$name" "$mnt" 4
	odd_roundtrip "$name"
	# (random 4k I/O is tests/pair/interop.sh's, across the link, against
	# both servers)
	fio_verify "$name" write 1m 4m
	rm -f "$mnt"/write1m.*
	if [ "$nfsvers" = 4.2 ]; then
		big_xattr "$name"
		[ "$vers" = 2 ] && small_xattr_read "$name"
		big_readdir "$name"
	fi
	t_check "$name: version $vers" [ "$(xprt_stat vers)" = "$vers" ]
	t_check "$name: READs sent, no READ_PLUS ($(op_count READ), $(op_count READ_PLUS))" \
		[ "$(op_count READ)" -gt 0 -a "$(op_count READ_PLUS)" = 0 ]
	eq0 "$name: no reply discarded" bad_replies
	gt0 "$name: WRITE data sent in Read chunks" read_chunks
	gt0 "$name: MRs registered" mrs
	gt0 "$name: LOCAL_INV posted" local_inv
	eq0 "$name: no foreign remote invalidation" reminv_foreign
	eq0 "$name: no returned chunk refused" bad_reply_chunks
	gt0 "$name: Write chunks offered for READs" write_chunks
	gt0 "$name: READ data received in Write chunks" write_bytes
	if [ "$nfsvers" = 4.2 ]; then
		gt0 "$name: Long Calls sent" long_calls
		gt0 "$name: Reply chunks offered" reply_chunks
	fi
	if [ "$vers" = 2 ]; then
		gt0 "$name: remote invalidations matched" reminv_matched
		# every Read chunk we sent (Long Call or DDP) was read; every
		# Send With Invalidate invalidated one of the answered RPC's MRs
		t_check "$name: svcrdma2 read as many Read chunks as we sent ($(svc_delta read_chunks))" \
			[ "$(svc_delta read_chunks)" = "$(($(xprt_stat long_calls) + $(xprt_stat read_chunks)))" ]
		t_check "$name: svcrdma2's Sends With Invalidate all matched ($(svc_delta send_with_inv))" \
			[ "$(svc_delta send_with_inv)" = "$(xprt_stat reminv_matched)" ]
		t_check "$name: svcrdma2 wrote no more Reply chunks than offered ($(svc_delta reply_chunks))" \
			[ "$(svc_delta reply_chunks)" -le "$(xprt_stat reply_chunks)" ]
		t_check "$name: svcrdma2 wrote no more Write chunks than offered ($(svc_delta write_chunks))" \
			[ "$(svc_delta write_chunks)" -le "$(xprt_stat write_chunks)" ]
		t_check "$name: svcrdma2 wrote our Write chunks" \
			[ "$(svc_delta write_chunks)" -gt 0 ]
		if [ "$nfsvers" = 4.2 ]; then
			t_check "$name: svcrdma2 wrote our Reply chunks" \
				[ "$(svc_delta reply_chunks)" -gt 0 ]
		fi
	fi
	grep "^xprt " /proc/fs/xprtrdma2/stats
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}

chunk_case "rdma2 -> svcrdma2 (v2) NFSv4.2" "$NFS_V2_PORT" 2 4.2
chunk_case "rdma2 -> svcrdma2 (v2) NFSv3" "$NFS_V2_PORT" 2 3
t_check "tracepoints: MRs mapped" [ "$(trace_count xprtrdma2_mr_map)" -gt 0 ]
t_check "tracepoints: Long Calls" [ "$(trace_count xprtrdma2_long_call)" -gt 0 ]
t_check "tracepoints: DDP Read chunks" \
	[ "$(trace_count xprtrdma2_read_chunk)" -gt 0 ]
t_check "tracepoints: Write chunks offered and written" \
	[ "$(trace_count xprtrdma2_write_chunk)" -gt 0 -a \
	  "$(trace_count xprtrdma2_write_chunk_done)" -gt 0 ]
t_check "tracepoints: LOCAL_INV completions" \
	[ "$(trace_count xprtrdma2_wc_localinv)" -gt 0 ]
chunk_case "rdma2 -> in-tree svcrdma (v1) NFSv4.2" "$NFS_V1_PORT" 1 4.2
order_case "inline bytes after the unmap: svcrdma2 (v2)" "$NFS_V2_PORT"
order_case "inline bytes after the unmap: in-tree svcrdma (v1)" "$NFS_V1_PORT"

# guess_case NAME: reply guessing (Documentation/xprtrdma2.rst). On a v2
# connection, once RPCRDMA2_GUESS_RUN (8) replies in a row of an OPEN
# or a GETXATTR into a 64 KiB buffer came back small, the Calls of that
# procedure leave out the Reply chunk their buffers call for. A 60 KB
# value read after twelve small ones is a wrong guess: svcrdma2 refuses
# it with RDMA2_ERR_REPLY_RESOURCE, the client sends the Call again with
# the same XID and a Reply chunk (xprtrdma2_resend: code 8, nothing
# turned off; the NFSv4.1 session answers NFS4ERR_RETRY_UNCACHED_REP and
# the NFS client runs it again, one GETXATTR more), and the value
# arrives intact. With guess_replies=N no Call leaves its chunk out. Our
# client runs at inline_size 4096 here: at the default 8192 an OPEN's
# reply buffer fits inline, and an OPEN has no Reply chunk to leave out.
guess_case() {
	local name=$1 g0 m0 r0 o0 e0 x0 opens n
	local isz=/sys/module/xprtrdma2/parameters/inline_size isz0
	echo > /sys/kernel/tracing/trace
	isz0=$(cat $isz)
	echo 4096 > $isz
	e0=$(svc_stat err_reply_resource)
	if ! kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT" "$GUEST_IP:/"; then
		t_fail "$name mounts" "mount failed"
		echo "$isz0" > $isz
		return
	fi
	g0=$(xprt_stat reply_guesses) m0=$(xprt_stat reply_guess_misses)
	r0=$(xprt_stat reply_chunks) o0=$(op_count OPEN) x0=$(op_count GETXATTR)
	t_check "$name: 60 files created, 12 small xattrs and a 60 KB one read into 64 KiB" \
		timeout 300 python3 - "$EXPORT_DIR" "$mnt" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
local, remote = sys.argv[1], sys.argv[2]
for i in range(60):
    open(os.path.join(remote, "g%d" % i), "w").close()
def read(f, want):
    # a fresh file each time: the NFS client's xattr cache has nothing
    buf = ctypes.create_string_buffer(65536)
    n = libc.getxattr(os.path.join(remote, f).encode(), b"user.g", buf, 65536)
    assert n == len(want), "%s: getxattr %d, errno %d" % (f, n, ctypes.get_errno())
    assert buf.raw[:n] == want, "%s: value differs" % f
for i in range(12):
    open(os.path.join(local, "s%d" % i), "w").close()
    os.setxattr(os.path.join(local, "s%d" % i), "user.g", b"small value")
    read("s%d" % i, b"small value")
big = os.urandom(60000)
open(os.path.join(local, "big"), "w").close()
os.setxattr(os.path.join(local, "big"), "user.g", big)
read("big", big)
PY
	opens=$(($(op_count OPEN) - o0))
	n=$(grep -c 'xprtrdma2_resend:.* 8 0$' /sys/kernel/tracing/trace)
	echo "$name: $opens OPENs, $(($(op_count GETXATTR) - x0)) GETXATTRs, Reply chunks $(($(xprt_stat reply_chunks) - r0)), guesses $(($(xprt_stat reply_guesses) - g0)), misses $(($(xprt_stat reply_guess_misses) - m0)), resends $n"
	t_check "$name: OPENs sent ($opens)" [ "$opens" -ge 60 ]
	t_check "$name: Calls left their Reply chunks out ($(($(xprt_stat reply_guesses) - g0)))" \
		[ $(($(xprt_stat reply_guesses) - g0)) -ge $((opens - 8 + 4)) ]
	t_check "$name: fewer Reply chunks than OPENs ($(($(xprt_stat reply_chunks) - r0)))" \
		[ $(($(xprt_stat reply_chunks) - r0)) -lt "$opens" ]
	t_check "$name: the wrong guess refused and resent once ($(($(xprt_stat reply_guess_misses) - m0)), $n, $(($(svc_stat err_reply_resource) - e0)))" \
		[ $(($(xprt_stat reply_guess_misses) - m0)) = 1 -a "$n" = 1 \
		  -a $(($(svc_stat err_reply_resource) - e0)) = 1 ]
	t_check "$name: the NFS client ran the refused GETXATTR again ($(($(op_count GETXATTR) - x0)) for 13 reads)" \
		[ $(($(op_count GETXATTR) - x0)) -ge 14 ]
	eq0 "$name: no reply discarded" bad_replies
	eq0 "$name: no returned chunk refused" bad_reply_chunks
	echo N > /sys/module/xprtrdma2/parameters/guess_replies
	g0=$(xprt_stat reply_guesses) o0=$(op_count OPEN)
	t_check "$name: guess_replies=N: 10 more files" python3 - "$mnt" <<'PY'
import os, sys
for i in range(10):
    open(os.path.join(sys.argv[1], "n%d" % i), "w").close()
PY
	t_check "$name: guess_replies=N: no guess ($(($(op_count OPEN) - o0)) OPENs)" \
		[ "$(xprt_stat reply_guesses)" = "$g0" -a $(($(op_count OPEN) - o0)) -ge 10 ]
	echo Y > /sys/module/xprtrdma2/parameters/guess_replies
	umount "$mnt"
	echo "$isz0" > $isz
	rm -f "$EXPORT_DIR"/[gsn][0-9]* "$EXPORT_DIR/big"
}

guess_case "reply guessing: rdma2 -> svcrdma2 (v2)"

# rbsiz_case: the client's RBSIZ (draft §4.2.1). With inline_size 8192
# here and buf_size 8192 in svcrdma2 (both defaults), whose RDMA2_CONNPROP
# names an RBSIZ of its own and whose private data a Send Size of 8192,
# the client counts on svcrdma2 having read ours (recv_inline 8192): a
# 4 KiB READ's reply comes inline, with no Write chunk. With fail_function making
# svcrdma2 keep the default RBSIZ for us (svc_rdma2_take_rbsiz), as
# draft §5.3.4 allows a server, the first Call that counted on ours is
# refused with RDMA2_ERR_REPLY_RESOURCE and goes again with its chunk,
# and the connection counts on it no more (xprtrdma2_rbsiz_refused once,
# 8192 -> 4096; every READ in a Write chunk). The data is intact each
# time.
rbsiz_reads() {
	t_check "$1: 64 O_DIRECT 4 KiB reads, data intact" \
		bash -c "dd if='$mnt/rb' iflag=direct bs=4k count=64 status=none | cmp - '$EXPORT_DIR/rb'"
}
rbsiz_case() {
	local name="our RBSIZ: rdma2 -> svcrdma2 (v2), 8192 both sides" w0 e0 n
	t_check "$name: the defaults (inline_size, buf_size)" \
		[ "$(cat /sys/module/xprtrdma2/parameters/inline_size)" = 8192 -a \
		  "$(cat /sys/module/svcrdma2/parameters/buf_size)" = 8192 ]
	head -c 262144 /dev/urandom > "$EXPORT_DIR/rb"
	if kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT" "$GUEST_IP:/"; then
		w0=$(xprt_stat write_chunks)
		rbsiz_reads "$name"
		t_check "$name: recv_inline $(xprt_stat recv_inline)" \
			[ "$(xprt_stat recv_inline)" = 8192 ]
		t_check "$name: READs inline, no Write chunk ($(($(xprt_stat write_chunks) - w0)))" \
			[ "$(xprt_stat write_chunks)" = "$w0" ]
		eq0 "$name: nothing refused" rbsiz_refused
		eq0 "$name: no reply discarded" bad_replies
		umount "$mnt"
	else
		t_fail "$name mounts" "mount failed"
	fi

	name="our RBSIZ ignored (fail_function): rdma2 -> svcrdma2 (v2)"
	echo > /sys/kernel/tracing/trace
	e0=$(svc_stat err_reply_resource)
	if ! ff_arm svc_rdma2_take_rbsiz 22 -1; then
		t_fail "$name: fail_function svc_rdma2_take_rbsiz" "cannot inject"
	elif kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT" "$GUEST_IP:/"; then
		ff_disarm
		w0=$(xprt_stat write_chunks)
		rbsiz_reads "$name"
		n=$(grep -c 'xprtrdma2_rbsiz_refused:.* 8192 4096$' /sys/kernel/tracing/trace)
		t_check "$name: one Call refused and resent ($(xprt_stat rbsiz_refused), svcrdma2 $(($(svc_stat err_reply_resource) - e0)))" \
			[ "$(xprt_stat rbsiz_refused)" = 1 -a \
			  $(($(svc_stat err_reply_resource) - e0)) = 1 ]
		t_check "$name: the threshold dropped once, 8192 -> 4096 ($n)" \
			[ "$n" = 1 -a "$(xprt_stat recv_inline)" = 4096 ]
		t_check "$name: every READ in a Write chunk ($(($(xprt_stat write_chunks) - w0)))" \
			[ $(($(xprt_stat write_chunks) - w0)) -ge 64 ]
		eq0 "$name: no reply discarded" bad_replies
		umount "$mnt"
	else
		ff_disarm
		t_fail "$name mounts" "mount failed"
	fi
	rm -f "$EXPORT_DIR/rb"
}
rbsiz_case

# IPv6: the same transport to svcrdma2's IPv6 listener.
name="IPv6: rdma2 -> svcrdma2 (v2) NFSv4.1"
if mount -i -t nfs -o "vers=4.1,proto=rdma2,port=$NFS_V2_PORT,addr=fd00::15" \
	"[fd00::15]:/" "$mnt"; then
	t_pass "$name mounts"
	nfs_roundtrip "$name" "$mnt" 4
	odd_roundtrip "$name"
	t_check "$name: version 2" [ "$(xprt_stat vers)" = 2 ]
	gt0 "$name: WRITE data sent in Read chunks" read_chunks
	gt0 "$name: READ data received in Write chunks" write_bytes
	eq0 "$name: no reply discarded" bad_replies
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
else
	t_fail "$name mounts" "mount failed"
fi

# A v2 server without DDP (svcrdma2 ddp=N): draft §5.3.3 has it refuse a
# DDP Read chunk with RDMA2_ERR_READ_CHUNKS (max 0) and a Write chunk with
# RDMA2_ERR_REPLY_RESOURCE; our client resends the same XID as a Long
# Call, or with a Reply chunk (the xprtrdma2_resend tracepoint: code,
# then the chunks turned off, 1 Read, 2 Write), and the data is intact.
# rdma_max_chunks 0 says no Read chunk will ever do on that connection:
# once the first refusal is in (xprtrdma2_ddp_off), later WRITEs go as
# Long Calls without one.
name="rdma2 -> svcrdma2 ddp=N (v2) NFSv4.2"
declare -A snap
for c in read_chunks write_chunks err_read_chunks err_reply_resource; do
	snap[$c]=$(svc_stat $c)
done
echo N > /sys/module/svcrdma2/parameters/ddp
echo > /sys/kernel/tracing/trace
if kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT" "$GUEST_IP:/"; then
	t_pass "$name mounts"
	nfs_roundtrip "$name" "$mnt" 2
	t_check "$name: version 2" [ "$(xprt_stat vers)" = 2 ]
	n=$(grep -c 'xprtrdma2_resend:.* 4 1$' /sys/kernel/tracing/trace)
	t_check "$name: WRITEs refused (RDMA2_ERR_READ_CHUNKS) and resent as Long Calls ($n, $(svc_delta err_read_chunks))" \
		[ "$n" -gt 0 -a "$n" = "$(svc_delta err_read_chunks)" ]
	t_check "$name: the connection remembers the refusal (xprtrdma2_ddp_off once)" \
		[ "$(grep -c 'xprtrdma2_ddp_off:.* 4 1$' /sys/kernel/tracing/trace)" = 1 ]
	w0=$(op_count WRITE) l0=$(xprt_stat long_calls)
	dd if=/dev/urandom of="$mnt/more" bs=256k count=4 conv=fsync status=none
	rm -f "$mnt/more"
	t_check "$name: later WRITEs ($(($(op_count WRITE) - w0))) go as Long Calls ($(($(xprt_stat long_calls) - l0))) unrefused" \
		[ "$(grep -c 'xprtrdma2_resend:.* 4 1$' /sys/kernel/tracing/trace)" = "$n" \
		  -a $(($(op_count WRITE) - w0)) -ge 4 \
		  -a $(($(xprt_stat long_calls) - l0)) -ge $(($(op_count WRITE) - w0)) ]
	n=$(grep -c 'xprtrdma2_resend:.* 8 2$' /sys/kernel/tracing/trace)
	t_check "$name: READs refused (RDMA2_ERR_REPLY_RESOURCE) and resent with Reply chunks ($n, $(svc_delta err_reply_resource))" \
		[ "$n" -gt 0 -a "$n" = "$(svc_delta err_reply_resource)" ]
	t_check "$name: svcrdma2 read Long Calls only ($(svc_delta read_chunks) = long_calls)" \
		[ "$(svc_delta read_chunks)" = "$(xprt_stat long_calls)" ]
	t_check "$name: svcrdma2 wrote no Write chunk" [ "$(svc_delta write_chunks)" = 0 ]
	eq0 "$name: no reply discarded" bad_replies
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
else
	t_fail "$name mounts" "mount failed"
fi
echo Y > /sys/module/svcrdma2/parameters/ddp

# Reconnect while 1 MiB WRITEs are in flight on a hard mount: the
# retransmitted WRITE is the first Call on the new connection, which
# must fit 1024 bytes inline (draft §7): its data goes in a Read chunk.
name="reconnect during dd"
src=/tmp/reconnect.src
dd if=/dev/urandom of="$src" bs=1M count=8 status=none
want=$(sha256sum < "$src")
if kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,hard" "$GUEST_IP:/"; then
	c0=$(xprt_stat connects)
	dd if="$src" of="$mnt/rc" bs=1M oflag=direct status=none &
	ddpid=$!
	sleep 0.5
	rdma link delete rxe0
	sleep 3
	rdma link add rxe0 type rxe netdev eth0
	if wait "$ddpid"; then
		t_pass "$name: dd completes"
	else
		t_fail "$name: dd completes" "dd failed"
	fi
	echo 3 > /proc/sys/vm/drop_caches
	t_check "$name: data intact" [ "$(sha256sum < "$mnt/rc")" = "$want" ]
	t_check "$name: reconnected ($c0 -> $(xprt_stat connects) connects)" \
		[ "$(xprt_stat connects)" -gt "$c0" ]
	t_check "$name: still version 2 after the reconnect" \
		[ "$(xprt_stat vers)" = 2 ]
	eq0 "$name: no Call too big" too_big
	grep "^xprt " /proc/fs/xprtrdma2/stats
	rm -f "$mnt/rc"
	umount "$mnt"
else
	t_fail "$name mounts" "mount failed"
fi
rm -f "$src"

# An RPC that ends before its reply, its chunks still registered: umount
# -f kills the mount's RPCs (nfs_umount_begin, rpc_killall_tasks) while
# 1 MiB O_DIRECT WRITEs stream. One killed between its Send and its reply
# still has its Read chunk open to the server, so ->buf_free posts
# LOCAL_INV and waits for it before the pages can go
# (xprtrdma2_unmap_sync: MRs, then 1 for LOCAL_INV done). Whatever the
# server does with the dead rkey after that, the mount carries on. Its
# RDMA Read of that rkey fails, and both QPs go to the error state with no
# CM event; each side must close on its flushes (before they did, dd
# waited out the 60 s RPC timeout in 3 runs of 5).
name="an RPC killed with its chunks registered"
# mount unless still mounted (an umount -f that found nothing open unmounts)
mount_hard() {
	grep -q " $mnt " /proc/mounts ||
		kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,hard" "$GUEST_IP:/"
}
t0=$EPOCHSECONDS
if mount_hard; then
	echo "$name: mounted in $((EPOCHSECONDS - t0)) s"
	echo > /sys/kernel/tracing/trace
	slowest=0
	for try in 1 2 3 4 5; do
		mount_hard || break
		t0=$EPOCHSECONDS
		dd if=/dev/zero of="$mnt/kill" bs=1M count=64 oflag=direct \
			status=none 2>/dev/null &
		ddpid=$!
		sleep 1
		umount -f "$mnt" 2>/dev/null
		t1=$EPOCHSECONDS
		wait "$ddpid"
		rc=$?
		n=$(trace_count xprtrdma2_unmap_sync)
		secs=$((EPOCHSECONDS - t0))
		[ "$secs" -gt "$slowest" ] && slowest=$secs
		echo "$name: try $try: umount -f after $((t1 - t0)) s, dd exited $rc after $secs s, $n RPCs freed with MRs"
		[ "$secs" -gt 20 ] &&
			cat /sys/kernel/tracing/trace > "$RESULTS/trace-kill-slow-$try"
		[ "$n" -gt 0 ] && break
	done
	mount_hard
	t_check "$name: dd ended within 30 s each time, no RPC timeout (slowest ${slowest} s)" \
		test "$slowest" -le 30
	t_check "$name: ->buf_free invalidated its MRs ($n in $try tries)" \
		grep -Eq 'xprtrdma2_unmap_sync:.* [1-9][0-9]* 1$' /sys/kernel/tracing/trace
	grep -m3 'xprtrdma2_unmap_sync:' /sys/kernel/tracing/trace
	rm -f "$mnt/kill"
	nfs_roundtrip "$name: afterwards" "$mnt" 1
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
else
	t_fail "$name mounts" "mount failed"
fi

# 1 MiB payloads, as nfsd offers them on a server of 4 GiB or more (this
# guest's 2 GiB get 256 KiB, which the cases above use): our client to
# svcrdma2 (v2) and to the in-tree svcrdma (v1), and the in-tree client
# to svcrdma2. READs and WRITEs average more than the old 256 KiB
# (mountstats), their data went in chunks that large (the counters of
# the side that is ours), and it comes back intact: a 16 MiB round trip
# through the page cache, fio writing and verifying 4 MiB direct blocks.
# op_avg OP FIELD: bytes per OP call on $mnt so far (op_field)
op_avg() { ratio "$(op_field "$1" "$2")" "$(op_field "$1" 2)"; }
payload_case() {
	local name=$1 proto=$2 port=$3 c sizes avg
	declare -A snap
	for c in read_chunks read_bytes write_chunks write_bytes; do
		snap[$c]=$(svc_stat $c)
	done
	if ! kmount "vers=4.2,proto=$proto,port=$port" "$GUEST_IP:/"; then
		t_fail "$name mounts" "mount failed"
		return
	fi
	sizes=$(io_sizes)
	t_check "$name: rsize wsize 1 MiB ($sizes)" [ "$sizes" = "1048576 1048576" ]
	nfs_roundtrip "$name" "$mnt" 16
	fio_verify "$name" write 4m 16m
	rm -f "$mnt"/write4m.*
	avg="$(op_avg WRITE 5) $(op_avg READ 6)"
	t_check "$name: WRITE and READ bytes per call over 256 KiB ($avg)" \
		[ "${avg% *}" -gt 262144 -a "${avg#* }" -gt 262144 ]
	if [ "$port" = "$NFS_V2_PORT" ]; then
		avg="$(ratio "$(svc_delta read_bytes)" "$(svc_delta read_chunks)") $(ratio "$(svc_delta write_bytes)" "$(svc_delta write_chunks)")"
		t_check "$name: svcrdma2's Read and Write chunks over 256 KiB a chunk ($avg)" \
			[ "${avg% *}" -gt 262144 -a "${avg#* }" -gt 262144 ]
	else
		avg=$(ratio "$(xprt_stat write_bytes)" "$(xprt_stat write_chunks)")
		t_check "$name: READ data over 256 KiB a Write chunk ($avg)" \
			[ "$avg" -gt 262144 ]
	fi
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
}
vm_nfsd_down
NFSD_MAX_BLKSIZE=1048576 vm_nfsd_up rdma2 "$NFS_V2_PORT" rdma "$NFS_V1_PORT"
payload_case "1 MiB payloads: rdma2 -> svcrdma2 (v2)" rdma2 "$NFS_V2_PORT"
payload_case "1 MiB payloads: rdma2 -> in-tree svcrdma (v1)" rdma2 "$NFS_V1_PORT"
payload_case "1 MiB payloads: in-tree rdma -> svcrdma2 (v1)" rdma "$NFS_V2_PORT"

# A device whose MRs map fewer pages than a 1 MiB payload spans (rxe's
# map 512; mr_depth 32 stands in for such a device): our client's largest
# payload shrinks to what a chunk's MRs map beside the head's and the
# tail's, 63 pages (rpcrdma2_max_payload()), NFS sizes rsize and
# wsize to it, and no RPC fails to register (too_big), with DDP chunks
# and with Reply chunks for READs (svcrdma2 ddp=N), the data intact.
name="MRs of 32 pages"
# mr_case DDP: mount svcrdma2 with ddp=DDP (a connection takes it as it
# is accepted), check the sizes, move data, check no RPC was too big
mr_case() {
	local sizes
	echo "$1" > /sys/module/svcrdma2/parameters/ddp
	if ! kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT" "$GUEST_IP:/"; then
		t_fail "$name mounts" "mount failed"
		echo Y > /sys/module/svcrdma2/parameters/ddp
		return 1
	fi
	sizes=$(io_sizes)
	t_check "$name: rsize wsize 64 KiB .. 63 pages ($sizes)" \
		[ "${sizes% *}" -ge 65536 -a "${sizes% *}" -le 258048 \
		  -a "${sizes#* }" -ge 65536 -a "${sizes#* }" -le 258048 ]
	if [ "$1" = Y ]; then
		nfs_roundtrip "$name" "$mnt" 16
		fio_verify "$name" write 4m 16m
		rm -f "$mnt"/write4m.*
		gt0 "$name: READ data in Write chunks" write_bytes
	else
		nfs_roundtrip "$name, ddp=N" "$mnt" 4
		gt0 "$name, ddp=N: WRITEs in Long Calls" long_calls
		gt0 "$name, ddp=N: READs in Reply chunks" reply_chunks
	fi
	eq0 "$name: no RPC too big to register" too_big
	umount "$mnt"
	t_check "$name unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
	echo Y > /sys/module/svcrdma2/parameters/ddp
}
echo 32 > /sys/module/xprtrdma2/parameters/mr_depth
mr_case Y && mr_case N
echo 256 > /sys/module/xprtrdma2/parameters/mr_depth

# The device goes away for good under a mount: umount returns. NFSv4
# then still tries DESTROY_SESSION / DESTROY_CLIENTID, each for one RPC
# timeout with retransmissions (timeo=50,retrans=1 bounds that), and the
# module unloads once the NFS client has given up.
t_check "mount NFSv4.2 proto=rdma2 again" \
	kmount "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,timeo=50,retrans=1" \
		"$GUEST_IP:/"
echo data > "$mnt/file" && sync
t_check "rdma link delete rxe0 for good" rdma link delete rxe0
t_check "umount -f returns with the device gone" timeout 180 umount -f "$mnt"
t_check "nothing left mounted" bash -c "! grep -q ' $mnt ' /proc/mounts"
t_check "the client lets go of xprtrdma2: rmmod" rmmod_when_free xprtrdma2

vm_nfsd_down
t_done
