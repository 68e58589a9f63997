#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The RPC-over-RDMA chunk paths, driven by build/tools/rpcrdma2-ping with
# real registered memory, against svcrdma2 ("rdma2 20049") in v2 and v1 and
# against the in-tree svcrdma ("rdma 20050", v1), the reference peer:
# - a Long Call: NULL calls of 12000 bytes in a Position-Zero Read chunk
#   (RFC 8166 §3.5.3), several segments, several calls in flight;
# - NFSv4.0 READ data landing in a two-segment Write chunk (§3.4.6), and a
#   whole reply in the Reply chunk (§3.5.3) when it exceeds the receive
#   size we advertise (RFC 8797 private data in v1, RBSIZ in v2);
# - a reply too big for both: RDMA2_ERR_REPLY_RESOURCE with the length
#   (draft v2 §5.3.3), ERR_CHUNK in v1 (RFC 8166 §4.5.3); READ data larger
#   than its Write chunk: RDMA2_ERR_WRITE_RESOURCE with index and length;
# - two Read chunks in one Call (two NFSv4 WRITEs), with and without
#   their XDR roundup in the chunks (§3.4.5);
# - remote invalidation: chunk memory behind type 2 memory windows, the
#   handle in rdma_inv_handle (draft v2 §3.3) or the R bit (RFC 8797 §4.1),
#   and every reply arriving by Send With Invalidate of exactly that handle.
# Every byte of data is compared with the file on the server.
# On Debian's stock kernel (check.sh's stock: stage) the script runs the
# in-tree svcrdma's cases alone, and on our kernel svcrdma2's alone: the
# reference needs no module of ours and no debug kernel.
. "$(dirname "$0")/lib.sh"

PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
P_PREFIX=chunks
[ -x "$PING" ] || die "rpcrdma2-ping: $PING not built (run 'make tools' on the host)"

vm_rxe_up
if vm_stock; then
	vm_nfsd_up rdma "$NFS_V1_PORT"
else
	vm_load_svcrdma2
	vm_nfsd_up rdma2 "$NFS_V2_PORT"
fi

# pattern N: N bytes of printable text that tell their offset apart
pattern() {
	python3 -c 'import sys
n = int(sys.argv[1])
s = "".join("%07d\n" % i for i in range(n // 8 + 1))
sys.stdout.write(s[:n].replace("\n", "."))' "$1"
}
mkdir -p "$EXPORT_DIR/dir"
pattern 100 > "$EXPORT_DIR/dir/small"
pattern 12000 > "$EXPORT_DIR/dir/f12k"
pattern 20000 > "$EXPORT_DIR/dir/f20k"
ln -s "$(pattern 4000)" "$EXPORT_DIR/longlink"
ln -s hello/target "$EXPORT_DIR/short"
want100=$(cat "$EXPORT_DIR/dir/small")
want12k=$(cat "$EXPORT_DIR/dir/f12k")
want16k=$(head -c 16384 "$EXPORT_DIR/dir/f20k")
want4000=$(readlink "$EXPORT_DIR/longlink")

# p_data NAME WANT: the last p_run exited 0 and its "data:" line is WANT
p_data() {
	local got
	got=$(sed -n 's/^data: //p' <<<"$out")
	if [ "$rc" != 0 ]; then
		t_fail "$1" "exit $rc"
	elif [ "$got" != "$2" ]; then
		t_fail "$1" "data differs: ${#got} bytes, want ${#2}"
	else
		t_pass "$1"
	fi
}

# server NAME PORT VERS: every case against one server and version
server() {
	local s=$1 port=$2 vers=$3 a inv_note= both=--reply-chunk
	a=(--vers "$vers" -p "$port")
	if [ "$s" = svcrdma ]; then
		# The in-tree svcrdma answers our R bit with Send With
		# Invalidate although its own R bit is clear. Offered a Write
		# and a Reply chunk at once (which the in-tree client never
		# does), it puts the READ data in both (the Reply chunk is
		# not reduced: RFC 8166 §3.5.3), and with a Long Call as well
		# it drops the connection; so it gets no Reply chunk there.
		inv_note="R bit is clear"
		both=
	fi

	p_run "$s long call" "${a[@]}" --long-call 12000 -c 3 "$GUEST_IP"
	p_expect "$s: 3 NULL Long Calls of 12000 bytes (Position-Zero Read chunk, 2 segments)" 0 \
		"3 calls, 3 replies" "long-call"
	p_count "$s: every Long Call answered" 3 "^NULL reply .* long-call"

	p_run "$s long calls window" "${a[@]}" --long-call 8192 -w 8 -c 48 "$GUEST_IP"
	p_expect "$s: 48 Long Calls, 8 in flight" 0 "48 calls, 48 replies" \
		"at most 8 in flight"

	p_run "$s read inline" "${a[@]}" --read dir/small "$GUEST_IP"
	p_data "$s: NFSv4 READ of 100 bytes inline" "$want100"
	p_expect "$s: the READ reply came inline, eof" 0 "100 bytes, eof, reply inline,"

	p_run "$s read write chunk" "${a[@]}" --read dir/f12k --write-chunk "$GUEST_IP"
	p_data "$s: NFSv4 READ of 12000 bytes into a Write chunk" "$want12k"
	p_expect "$s: the READ data came in the Write chunk" 0 \
		"12000 bytes, eof, reply inline, data in the Write chunk"

	p_run "$s read all chunks" "${a[@]}" --read dir/f20k --write-chunk \
		$both --long-call 40 "$GUEST_IP"
	p_data "$s: READ of 16384 of 20000 bytes, Long Call, Write ${both:+and Reply }chunk offered" "$want16k"
	p_expect "$s: 16384 bytes, not eof, Write chunk, Long Call" 0 \
		"16384 bytes, not eof, reply inline, data in the Write chunk, sent as a Long Call"

	p_run "$s read reply chunk" "${a[@]}" --read dir/f12k --reply-chunk --size 1024 "$GUEST_IP"
	p_data "$s: READ of 12000 bytes, all in the Reply chunk (1 KiB receive size)" "$want12k"
	p_expect "$s: the READ reply came in the Reply chunk" 0 "reply Reply chunk"

	p_run "$s readlink reply chunk" "${a[@]}" --readlink longlink --reply-chunk --size 1024 "$GUEST_IP"
	p_data "$s: READLINK of a 4000-byte target in the Reply chunk" "$want4000"

	p_run "$s readlink inline" "${a[@]}" --readlink short "$GUEST_IP"
	p_data "$s: READLINK of a short target inline" "hello/target"

	p_run "$s inv long calls" "${a[@]}" --long-call 12000 -c 3 --inv "$GUEST_IP"
	p_expect "$s: Long Calls through memory windows: every reply invalidates the call's handle" 0 \
		"3 calls, 3 replies" "remote invalidation: 4 of 4 replies" ${inv_note:+"$inv_note"}

	p_run "$s inv window" "${a[@]}" --long-call 8192 -w 8 -c 48 --inv --reply-chunk "$GUEST_IP"
	p_expect "$s: 48 Long Calls through windows, 8 in flight, all invalidated" 0 \
		"48 calls, 48 replies" "remote invalidation: 49 of 49 replies"

	p_run "$s inv read" "${a[@]}" --read dir/f12k --write-chunk $both --inv "$GUEST_IP"
	p_data "$s: READ into a Write chunk behind a window" "$want12k"
	p_expect "$s: the READ reply invalidated the window" 0 \
		"data in the Write chunk, handle invalidated by the server"

	p_run "$s inv reply chunk" "${a[@]}" --readlink longlink --reply-chunk --size 1024 --inv "$GUEST_IP"
	p_data "$s: READLINK in a Reply chunk behind a window" "$want4000"
	p_expect "$s: the Reply chunk's window was invalidated" 0 \
		"reply Reply chunk, handle invalidated by the server"
}

# a reply that fits neither our 1 KiB Receives nor a Reply chunk
reply_resource() {
	p_run "svcrdma2 v2 reply resource" --vers 2 --readlink longlink --size 1024 "$GUEST_IP"
	p_expect "svcrdma2 v2: a 4064-byte reply, no Reply chunk: RDMA2_ERR_REPLY_RESOURCE with the length" 1 \
		"RDMA2_ERROR RDMA2_ERR_REPLY_RESOURCE" "length_needed: 4064"
	p_run "svcrdma2 v1 reply resource" --vers 1 --readlink longlink --size 1024 "$GUEST_IP"
	p_expect "svcrdma2 v1: the same reply in v1: ERR_CHUNK" 1 "RDMA_ERROR ERR_CHUNK"
	# READ data larger than the Write chunk offered for it
	p_run "svcrdma2 v2 write resource" --vers 2 --read dir/f12k --write-chunk-len 4096 "$GUEST_IP"
	p_expect "svcrdma2 v2: 12000 bytes for a 4096-byte Write chunk: RDMA2_ERR_WRITE_RESOURCE, chunk 1, 12000" 1 \
		"RDMA2_ERROR RDMA2_ERR_WRITE_RESOURCE" "chunk_index: 1" "length_needed: 12000"
	p_run "svcrdma2 v1 write resource" --vers 1 --read dir/f12k --write-chunk-len 4096 "$GUEST_IP"
	p_expect "svcrdma2 v1: the same in v1: ERR_CHUNK" 1 "RDMA_ERROR ERR_CHUNK"
}

# Two Read chunks in one Call: a COMPOUND of two WRITEs whose data items
# (5001 and 3002 bytes: the first not a multiple of 4) travel in Read
# chunks of their own. The second chunk's Position counts the first data
# item and its roundup (RFC 8166 §3.4.5), and a chunk may carry its
# roundup or not; the file must hold both writes byte for byte (nfsd
# needs patches/0004 for that: without it, svc_fill_write_vector() writes
# the second WRITE from the start of the page its data begins in). The
# in-tree svcrdma is no reference here: it refuses the unpadded form.
two_writes() {
	local vers=$1 pad=$2 name
	name="svcrdma2 v$vers: two Read chunks (two WRITEs in one COMPOUND)${pad:+, chunks padded}"
	: > "$EXPORT_DIR/w2"
	p_run "svcrdma2 v$vers write2${pad:+ padded}" --vers "$vers" -p "$NFS_V2_PORT" \
		--write2 w2 $pad "$GUEST_IP"
	p_expect "$name: both WRITEs succeed" 0 "write2 w2: 5001\\+3002 bytes written"
	if python3 - "$EXPORT_DIR/w2" <<'PY'
import sys
want = bytes(((i * 2654435761) & 0xffffffff) >> 24 for i in range(8003))
got = open(sys.argv[1], "rb").read()
if got != want:
    bad = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), None)
    print("file: %d bytes, want %d; first difference at %s" % (len(got), len(want), bad))
    sys.exit(1)
PY
	then t_pass "$name: the file holds both, byte for byte"
	else t_fail "$name: the file holds both, byte for byte" "contents differ"
	fi
}
# nfsd 6.12's NFSv4 READLINK hands the transport the offset of the length
# word as the start of its payload (nfsd4_encode_readlink() passes
# length_offset to svc_encode_result_payload()), so a Write chunk offered
# for READLINK receives the length word and all but the last 4 bytes. The
# in-tree client never offers one for READLINK; neither may ours.
readlink_write_chunk() {
	p_run "$1 readlink write chunk" -p "$2" --readlink longlink --write-chunk "$GUEST_IP"
	p_expect "$1: nfsd's READLINK payload offset includes the length word (a Write chunk gets it)" 1 \
		"data length [0-9]+, the Write chunk received 4000"
}

if vm_stock; then
	server svcrdma "$NFS_V1_PORT" 2
	readlink_write_chunk svcrdma "$NFS_V1_PORT"
	vm_nfsd_down
	t_done
fi

for v in 2 1; do
	two_writes "$v" ""
	two_writes "$v" --chunk-pad
done

before=$(cat /proc/fs/svcrdma2/stats | head -1)
server svcrdma2-v2 "$NFS_V2_PORT" 2
server svcrdma2-v1 "$NFS_V2_PORT" 1
reply_resource
readlink_write_chunk svcrdma2 "$NFS_V2_PORT"

after=$(cat /proc/fs/svcrdma2/stats | head -1)
echo "svcrdma2 stats before: $before"
echo "svcrdma2 stats after:  $after"
# stat_delta NAME: how much global counter NAME grew during the cases
stat_delta() {
	local b a
	b=$(sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$before")
	a=$(sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$after")
	echo $((a - b))
}
for c in read_chunks write_chunks reply_chunks send_with_inv err_reply_resource \
	err_write_resource; do
	d=$(stat_delta $c)
	if [ "$d" -gt 0 ]; then t_pass "svcrdma2 counted $c ($d)"; else t_fail "svcrdma2 counted $c" "+$d"; fi
done

p_run "final ping" -c 2 "$GUEST_IP"
p_expect "svcrdma2 still serves NULL calls" 0 "2 calls, 2 replies"
vm_nfsd_down
