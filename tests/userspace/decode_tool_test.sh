#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Drive build/tools/rpcrdma2-decode with hex on stdin: every valid header
# type prints its fields, every rejection exits 1 with "reject: <NAME>".
# Prints one PASS:/FAIL: line per case; exits 1 if any failed.
#
# Usage: decode_tool_test.sh [TOOL]   (default: build/tools/rpcrdma2-decode)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tool=${1:-$top/build/tools/rpcrdma2-decode}
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$tool" ]; then
	echo "FAIL: decode tool: $tool not built"
	exit 1
fi

# t NAME EXIT "OPTIONS" "HEX" [EXPECTED-LINE...]
t() {
	local name=$1 want=$2 opts=$3 hex=$4 out rc line
	shift 4
	# shellcheck disable=SC2086 # OPTIONS is a word list
	out=$(printf '%s\n' "$hex" | "$tool" $opts 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $name: exit $rc, want $want: $(echo "$out" | tr '\n' '|')"
		failed=1
		return
	fi
	for line in "$@"; do
		if ! grep -qxF -- "$line" <<<"$out"; then
			echo "FAIL: $name: no line '$line' in: $(echo "$out" | tr '\n' '|')"
			failed=1
			return
		fi
	done
	echo "PASS: $name"
}

# --- valid headers, v1 (RFC 8166 §4.1.2) -------------------------------
t "tool: v1 RDMA_MSG" 0 "" \
	"11223344 00000001 00000020 00000000  00000000 00000000 00000000
	 11223344 00000000" \
	"version: 1" "xid: 0x11223344" "credits: 32" "type: RDMA_MSG (0)" \
	"read_chunks: 0" "write_chunks: 0" "reply: none" \
	"rpc_offset: 28" "rpc_length: 8"

t "tool: v1 RDMA_MSG with Read chunk" 0 "" \
	"22334455 00000001 00000040 00000000
	 00000001 00000080 0000c001 00001000 00000000 10000000
	 00000000 00000000 00000000  22334455 00000000" \
	"read_chunks: 1" "read_segments: 1" "read[0]: position 128" \
	"read[0]: handle 0x0000c001 length 4096 offset 0x0000000010000000"

t "tool: v1 RDMA_NOMSG Long Reply" 0 "" \
	"66778899 00000001 00000020 00000001 00000000 00000000
	 00000001 00000001 0000f001 00000e00 00000001 00000000" \
	"type: RDMA_NOMSG (1)" "reply: segments 1" \
	"reply.seg[0]: handle 0x0000f001 length 3584 offset 0x0000000100000000" \
	"rpc_offset: 48" "rpc_length: 0"

t "tool: v1 RDMA_ERROR ERR_VERS" 0 "" \
	"778899aa 00000001 00000001 00000004 00000001 00000001 00000001" \
	"type: RDMA_ERROR (4)" "error: ERR_VERS (1)" "vers_low: 1" \
	"vers_high: 1"

t "tool: v1 RDMA_ERROR ERR_CHUNK" 0 "" \
	"8899aabb 00000001 00000001 00000004 00000002" \
	"error: ERR_CHUNK (2)"

# --- valid headers, v2 (draft v2 §3, §5) -------------------------------
t "tool: v2 RDMA2_MSG READ call" 0 "" \
	"00c0ffee 00000002 00000080 00000000 00000000 0000a001
	 00000000
	 00000001 00000002 0000a001 00008000 00007f00 12340000
	                   0000a002 00008000 00007f00 12348000
	 00000000
	 00000001 00000001 0000b001 00000400 00007f00 56780000
	 00c0ffee 00000000 00000002 000186a3" \
	"version: 2" "type: RDMA2_MSG (0)" "flags: 0x00000000" \
	"inv_handle: 0x0000a001" "write_chunks: 1" "write[0]: segments 2" \
	"write[0].seg[1]: handle 0x0000a002 length 32768 offset 0x00007f0012348000" \
	"reply: segments 1" "rpc_offset: 96" "rpc_length: 16"

t "tool: v2 RDMA2_NOMSG reply" 0 "" \
	"0f0e0d0c 00000002 00000010 00000001 00000001 00000000
	 00000000 00000000 00000001 00000001 0000e003 00000f00 00000000 00600000" \
	"type: RDMA2_NOMSG (1)" "flags: 0x00000001 RESPONSE" \
	"reply.seg[0]: handle 0x0000e003 length 3840 offset 0x0000000000600000"

t "tool: v2 RDMA2_ERROR RDMA2_ERR_VERS" 0 "" \
	"5a5a0001 00000002 00000008 00000004 00000001 00000001 00000001 00000002" \
	"type: RDMA2_ERROR (4)" "error: RDMA2_ERR_VERS (1)" "vers_low: 1" \
	"vers_high: 2"

t "tool: ERR_VERS for a v2 Call in the RFC 8166 layout (in-tree svcrdma)" 0 "" \
	"5a5a0001 00000002 00000008 00000004 00000001 00000001 00000001" \
	"type: RDMA2_ERROR (4)" "error: RDMA2_ERR_VERS (1)" "vers_low: 1" \
	"vers_high: 1" "layout: RFC 8166 (no rdma_flags)"

t "tool: v2 RDMA2_ERROR RDMA2_ERR_WRITE_RESOURCE" 0 "" \
	"5a5a0001 00000002 00000008 00000004 00000001 00000007 00000001 00100000" \
	"error: RDMA2_ERR_WRITE_RESOURCE (7)" "chunk_index: 1" \
	"length_needed: 1048576"

t "tool: v2 RDMA2_ERROR RDMA2_ERR_READ_CHUNKS" 0 "" \
	"5a5a0001 00000002 00000008 00000004 00000001 00000004 00000000" \
	"error: RDMA2_ERR_READ_CHUNKS (4)" "max_chunks: 0"

t "tool: v2 RDMA2_ERROR RDMA2_ERR_SYSTEM" 0 "" \
	"5a5a0001 00000002 00000008 00000004 00000001 00000009" \
	"error: RDMA2_ERR_SYSTEM (9)"

t "tool: v2 RDMA2_CONNPROP" 0 "" \
	"00000000 00000002 00000001 00000005 00000000 00000003
	 00000001 00000004 00002000
	 00000063 00000002 abcd0000
	 00000002 00000000" \
	"type: RDMA2_CONNPROP (5)" "rbsiz: 8192 (sent)" \
	"brs: RDMA2_RVREQSUP_INLINE (sent empty: default)" "rpc_offset: 56"

# --- rejections: the error a responder sends ---------------------------
t "tool: reject rdma_vers 3 -> ERR_VERS" 1 "" \
	"13579bdf 00000003 00000020 00000000 00000000 00000000 00000000" \
	"reject: ERR_VERS" "reject_vers_low: 1" "reject_vers_high: 2" \
	"reason: VERS"

t "tool: reject v1 bad discriminator -> ERR_CHUNK" 1 "" \
	"11223344 00000001 00000020 00000000 00000002 00000000 00000000 11223344" \
	"reject: ERR_CHUNK" "reason: BAD_BOOL"

t "tool: reject v1 RDMA_NOMSG without chunks -> ERR_CHUNK" 1 "" \
	"11223344 00000001 00000020 00000001 00000000 00000000 00000000" \
	"reject: ERR_CHUNK" "reason: NOMSG_EMPTY"

t "tool: reject v1 RDMA_NOMSG with only a Read chunk at 8" 1 "" \
	"11223347 00000001 00000020 00000001
	 00000001 00000008 0000c001 00000100 00000000 10000000
	 00000000 00000000 00000000" \
	"reject: ERR_CHUNK" "reason: NOMSG_CHUNK"

t "tool: reject v2 RDMA2_NOMSG call with only a Reply chunk" 1 "" \
	"0f0e0d0d 00000002 00000010 00000001 00000000 00000000
	 00000000 00000000 00000001 00000001 0000e003 00001000 00000000 00600000" \
	"reject: RDMA2_ERR_BAD_XDR" "reason: NOMSG_CHUNK"

# a v2 reply (RESPONSE) is never answered (RFC 8166 §4.5): DISCARD
t "tool: reject v2 reply with a Read list -> DISCARD" 1 "" \
	"00c0fff0 00000002 00000080 00000000 00000001 00000000
	 00000001 00000010 0000c001 00000200 00000000 20000000
	 00000000 00000000 00000000 00c0fff0 00000001" \
	"reject: DISCARD" "reason: REPLY_READS"

t "tool: reject v2 reply with a reserved flag -> DISCARD" 1 "" \
	"01020306 00000002 00000020 00000000 80000001 00000000
	 00000000 00000000 00000000 01020306 00000001" \
	"reject: DISCARD" "reason: FLAGS"

t "tool: v2 reply with unmatched rdma_inv_handle is accepted" 0 "" \
	"00c0ffef 00000002 00000080 00000000 00000001 0000a001
	 00000000 00000000 00000000 00c0ffef 00000001" \
	"flags: 0x00000001 RESPONSE" "inv_handle: 0x0000a001" "rpc_length: 8"

t "tool: reject v1 RDMA_MSGP -> ERR_CHUNK" 1 "" \
	"0000abce 00000001 00000020 00000002 00000040 00000400 00000000 00000000 00000000" \
	"reject: ERR_CHUNK" "reason: RDMA_MSGP"

t "tool: reject v1 RDMA_DONE -> DISCARD" 1 "" \
	"0000abcf 00000001 00000020 00000003" \
	"reject: DISCARD" "reason: RDMA_DONE"

t "tool: reject short message -> DISCARD" 1 "" \
	"11223344 00000001 00000020" \
	"reject: DISCARD" "reason: SHORT"

t "tool: reject v2 truncated -> RDMA2_ERR_BAD_XDR" 1 "" \
	"01020304 00000002 00000020 00000000 00000000 00000000 00000000" \
	"reject: RDMA2_ERR_BAD_XDR" "reason: TRUNCATED"

t "tool: reject v2 rdma_inv_handle -> RDMA2_ERR_BAD_XDR" 1 "" \
	"01020304 00000002 00000020 00000000 00000000 00000001
	 00000000 00000000 00000000 01020304" \
	"reject: RDMA2_ERR_BAD_XDR" "reason: INV_HANDLE"

t "tool: reject v2 bad rbsiz length -> RDMA2_ERR_BAD_XDR" 1 "" \
	"00000000 00000002 00000001 00000005 00000000 00000001
	 00000001 00000002 10000000" \
	"reject: RDMA2_ERR_BAD_XDR" "reason: PROPVAL"

t "tool: reject v2 header type 7 -> RDMA2_ERR_INVAL_HTYPE" 1 "" \
	"01020304 00000002 00000020 00000007 00000000" \
	"reject: RDMA2_ERR_INVAL_HTYPE" "reason: HTYPE"

two_reads="0000beef 00000002 00000020 00000000 00000000 00000000
	00000001 00000080 00000001 00000004 00000000 00000000
	00000001 000000a0 00000002 00000004 00000000 00000000
	00000000 00000000 00000000 0000beef"
t "tool: reject 2 Read chunks, --max-read-chunks 1" 1 "--max-read-chunks 1" \
	"$two_reads" \
	"reject: RDMA2_ERR_READ_CHUNKS" "reject_max_chunks: 1" \
	"reason: READ_CHUNKS"
t "tool: accept 2 Read chunks by default" 0 "" "$two_reads" \
	"read_chunks: 2"

# RFC 8166 §4.3.1: grouped by Position, adjacent or not (128, 160, 128)
split_read="0000beef 00000002 00000020 00000000 00000000 00000000
	00000001 00000080 00000001 00000004 00000000 00000000
	00000001 000000a0 00000002 00000004 00000000 00000000
	00000001 00000080 00000003 00000004 00000000 00000000
	00000000 00000000 00000000 0000beef"
t "tool: a Read position may come back after another" 0 "" \
	"$split_read" \
	"read_chunks: 2" "read_segments: 3" \
	"read_chunk[0]: position 128 segments 2 length 8" \
	"read[1]: handle 0x00000003 length 4 offset 0x0000000000000000" \
	"read_chunk[1]: position 160 segments 1 length 4" \
	"read[2]: handle 0x00000002 length 4 offset 0x0000000000000000"
t "tool: segments of a Read position count when apart, -s 1" 1 "-s 1" \
	"$split_read" \
	"reject: RDMA2_ERR_SEGMENTS" "reject_max_segments: 1" \
	"reason: SEGMENTS"

two_writes="00005678 00000002 00000020 00000000 00000000 00000000 00000000
	00000001 00000001 00000001 00001000 00000000 00000000
	00000001 00000002 00000002 00001000 00000000 00000000
	                  00000003 00001000 00000000 00001000
	00000000 00000000 00005678"
t "tool: reject 2 Write chunks, -w 1" 1 "-w 1" "$two_writes" \
	"reject: RDMA2_ERR_WRITE_CHUNKS" "reject_max_chunks: 1" \
	"reason: WRITE_CHUNKS"
# draft v2 §5.3.3: no Write chunks at all -> RDMA2_ERR_REPLY_RESOURCE
t "tool: reject Write chunk, -w 0 -> RDMA2_ERR_REPLY_RESOURCE" 1 "-w 0" \
	"$two_writes" \
	"reject: RDMA2_ERR_REPLY_RESOURCE" "reject_length_needed: 0" \
	"reason: WRITE_CHUNKS"
t "tool: reject 2-segment chunk, --max-segs 1" 1 "--max-segs 1" \
	"$two_writes" \
	"reject: RDMA2_ERR_SEGMENTS" "reject_max_segments: 1" \
	"reason: SEGMENTS"
t "tool: v1 limit violation -> ERR_CHUNK" 1 "-s 1" \
	"33445566 00000001 00000080 00000000 00000000
	 00000001 00000002 0000a001 00008000 00007f00 12340000
	                   0000a002 00008000 00007f00 12348000
	 00000000 00000000 33445566" \
	"reject: ERR_CHUNK" "reason: SEGMENTS"

# --- input handling ----------------------------------------------------
t "tool: hex with 0x prefixes, commas and comments" 0 "" \
	"# v1 ERR_CHUNK
	 0x8899aabb, 0x00000001, 0x00000001, 0x00000004, # prefix
	 0x00000002" \
	"error: ERR_CHUNK (2)"
t "tool: odd hex digit count is an input error" 2 "" "0000000"
t "tool: non-hex input is an input error" 2 "" "zz"
t "tool: unknown option is a usage error" 2 "--bogus" ""
t "tool: --help exits 0" 0 "--help" "" \
	"  -s, --max-segs N        segments per chunk (default 16)"

printf '\x88\x99\xaa\xbb\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x04\x00\x00\x00\x02' \
	>"$tmp/err_chunk.bin"
t "tool: binary FILE argument" 0 "$tmp/err_chunk.bin" "" \
	"error: ERR_CHUNK (2)" "rpc_offset: 20"

# The hex reader holds 4 * 65536 bytes: exactly that much is accepted,
# one byte more is an input error.
{
	echo "8899aabb 00000001 00000001 00000004 00000002"
	head -c $((262144 - 45)) /dev/zero | tr '\0' ' '
} >"$tmp/max.hex"
t "tool: hex input of exactly 262144 bytes" 0 \
	"--hex $tmp/max.hex" "" "error: ERR_CHUNK (2)"
printf ' ' >>"$tmp/max.hex"
t "tool: hex input of 262145 bytes is too long" 2 "--hex $tmp/max.hex" ""
t "tool: 262144 hex bytes on stdin" 0 "" \
	"$(head -c 262143 "$tmp/max.hex")" "error: ERR_CHUNK (2)"

# --- RFC 8797 private data ---------------------------------------------
t "tool: --pdata valid message" 0 "--pdata" \
	"f6ab0e18 01 01 03 07" \
	"pdata: valid" "version: 1" "reminv: yes" "send_size: 4096" \
	"recv_size: 8192"
t "tool: --pdata identifier after padding" 0 "--pdata" \
	"00 00 00 f6ab0e18 01 00 00 ff 00 00" \
	"pdata: valid" "reminv: no" "send_size: 1024" "recv_size: 262144"
t "tool: --pdata no identifier -> defaults" 1 "--pdata" \
	"00000000 00000000" \
	"reject: NO_IDENTIFIER" "send_size: 1024" "recv_size: 1024"
t "tool: --pdata bad version" 1 "--pdata" \
	"f6ab0e18 02 01 03 03" \
	"reject: BAD_VERSION"
t "tool: --pdata message overruns the buffer" 1 "--pdata" \
	"f6ab0e18 01 01" \
	"reject: OVERRUN"

exit $failed
