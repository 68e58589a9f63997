/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 8797 CM private data test vectors, shared by the userspace unit test
 * (tests/userspace/cm_pdata_test.c) and the KUnit suite
 * (kunit/rpcrdma2_cm_pdata_kunit.c). Include once per test program.
 *
 * Every byte below was worked out by hand from RFC 8797 §4 (layout),
 * §4.2 (size encoding) and §5 (searching, defaults), not produced by
 * rpcrdma2_cm_pdata_build(). The message is:
 *
 *   f6 ab 0e 18   Format Identifier 0xf6ab0e18, network byte order
 *   VV            Version (1)
 *   FF            Reserved (7 bits) | R (0x01)
 *   SS            Send Size:    bytes = (SS + 1) * 1024
 *   RR            Receive Size: bytes = (RR + 1) * 1024
 *
 * Size octets used below: 0x00 = 1 KiB, 0x01 = 2 KiB, 0x03 = 4 KiB,
 * 0x07 = 8 KiB, 0x0f = 16 KiB, 0x1f = 32 KiB, 0xff = 256 KiB.
 */
#ifndef _RPCRDMA2_CM_PDATA_VECTORS_H
#define _RPCRDMA2_CM_PDATA_VECTORS_H

#include <rpcrdma2/cm_pdata.h>

/* The listener's buffer on IB/RoCE: 92 - 36 (cma_hdr) bytes, zero-padded */
#define CM_PDATA_VEC_ROCE_LEN	56
/* The active side's buffer: the whole REP private data */
#define CM_PDATA_VEC_REP_LEN	196

/* What RFC 8797 §5.1 says to assume without a valid message */
#define CM_PDATA_VEC_DEFAULTS \
	{ .version = 0, .reminv = false, .send_size = 1024, .recv_size = 1024 }

#define CM_PDATA_VEC_BUF(b)	.buf = (b), .len = sizeof(b)

/* ---- rpcrdma2_cm_pdata_parse() ---- */

static const u8 cm_pdata_buf_1k[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01,			/* version 1 */
	0x00,			/* R clear */
	0x00,			/* send 1 KiB */
	0x00,			/* recv 1 KiB */
};

static const u8 cm_pdata_buf_4k_r[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01,			/* version 1 */
	0x01,			/* R set */
	0x03,			/* send 4 KiB */
	0x03,			/* recv 4 KiB */
};

static const u8 cm_pdata_buf_256k[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01,			/* version 1 */
	0x00,			/* R clear */
	0xff,			/* send 256 KiB */
	0xff,			/* recv 256 KiB */
};

static const u8 cm_pdata_buf_mixed[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01,			/* version 1 */
	0x01,			/* R set */
	0x03,			/* send 4 KiB */
	0xff,			/* recv 256 KiB */
};

/* What the in-tree Linux client sends, as the RoCE listener receives it */
static const u8 cm_pdata_buf_roce_off0[CM_PDATA_VEC_ROCE_LEN] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier at offset 0 */
	0x01,			/* version 1 */
	0x01,			/* R set */
	0x03,			/* send 4 KiB */
	0x03,			/* recv 4 KiB */
	/* bytes 8..55: zero padding added by rdma_cm */
};

/* A server reply (R clear) as the active side receives it */
static const u8 cm_pdata_buf_rep_off0[CM_PDATA_VEC_REP_LEN] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier at offset 0 */
	0x01,			/* version 1 */
	0x00,			/* R clear */
	0x07,			/* send 8 KiB */
	0x03,			/* recv 4 KiB */
	/* bytes 8..195: zero */
};

/* Another layer's private data in front of ours: odd, unaligned offset */
static const u8 cm_pdata_buf_roce_off13[CM_PDATA_VEC_ROCE_LEN] = {
	0x80, 0x00, 0x00, 0x10,	/* 0..12: some other layer's data */
	0xde, 0xad, 0xbe, 0xef,
	0x00, 0x00, 0x00, 0x01,
	0x42,
	0xf6, 0xab, 0x0e, 0x18,	/* 13..16: identifier */
	0x01,			/* 17: version 1 */
	0x01,			/* 18: R set */
	0x1f,			/* 19: send 32 KiB */
	0x0f,			/* 20: recv 16 KiB */
	0x55, 0xaa,		/* 21..22: trailing bytes, not ours */
	/* 23..55: zero */
};

static const u8 cm_pdata_buf_off1_of9[] = {
	0x00,			/* 0: one byte before the message */
	0xf6, 0xab, 0x0e, 0x18,	/* 1..4: identifier */
	0x01,			/* 5: version 1 */
	0x00,			/* 6: R clear */
	0x01,			/* 7: send 2 KiB */
	0x00,			/* 8: recv 1 KiB */
};

/* The last offset at which the whole message still fits: 56 - 8 = 48 */
static const u8 cm_pdata_buf_roce_off48[CM_PDATA_VEC_ROCE_LEN] = {
	[48] = 0xf6, [49] = 0xab, [50] = 0x0e, [51] = 0x18,	/* identifier */
	[52] = 0x01,		/* version 1 */
	[53] = 0x00,		/* R clear */
	[54] = 0x00,		/* send 1 KiB */
	[55] = 0xff,		/* recv 256 KiB */
};

/* RFC 8797 §4: receivers MUST ignore the Reserved bits */
static const u8 cm_pdata_buf_rsvd_r[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01,			/* version 1 */
	0xff,			/* all reserved bits set, R set */
	0x01,			/* send 2 KiB */
	0x03,			/* recv 4 KiB */
};

static const u8 cm_pdata_buf_rsvd_nor[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01,			/* version 1 */
	0xfe,			/* all reserved bits set, R clear */
	0x03,			/* send 4 KiB */
	0x01,			/* recv 2 KiB */
};

/* RFC 8797 §5.2: the first identifier found is the one parsed */
static const u8 cm_pdata_buf_two_valid[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* 0: first identifier */
	0x01, 0x00, 0x00, 0x00,	/* 4: version 1, R clear, 1 KiB, 1 KiB */
	0xf6, 0xab, 0x0e, 0x18,	/* 8: second identifier */
	0x01, 0x01, 0x03, 0x03,	/* 12: version 1, R set, 4 KiB, 4 KiB */
};

/* A false start (0xf6 0xf6 ...) must not hide the identifier at 1 */
static const u8 cm_pdata_buf_false_start[] = {
	0xf6,			/* 0: looks like the start of an identifier */
	0xf6, 0xab, 0x0e, 0x18,	/* 1..4: identifier */
	0x01,			/* 5: version 1 */
	0x00,			/* 6: R clear */
	0x01,			/* 7: send 2 KiB */
	0x01,			/* 8: recv 2 KiB */
};

/* A peer that sends no private data: the listener sees zeros */
static const u8 cm_pdata_buf_roce_zero[CM_PDATA_VEC_ROCE_LEN] = { 0 };

/* Identifier written in host (little-endian) order by mistake */
static const u8 cm_pdata_buf_swapped[] = {
	0x18, 0x0e, 0xab, 0xf6,	/* 0xf6ab0e18 byte-swapped: not ours */
	0x01, 0x00, 0x00, 0x00,
};

/* Only the first three identifier octets fit before the end */
static const u8 cm_pdata_buf_roce_cut3[CM_PDATA_VEC_ROCE_LEN] = {
	[53] = 0xf6, [54] = 0xab, [55] = 0x0e,	/* 0x18 would be at 56 */
};

static const u8 cm_pdata_buf_3[] = { 0xf6, 0xab, 0x0e };

/* Identifier at len - 4: found, but version..recv lie past the end */
static const u8 cm_pdata_buf_roce_off52[CM_PDATA_VEC_ROCE_LEN] = {
	[52] = 0xf6, [53] = 0xab, [54] = 0x0e, [55] = 0x18,
};

/* Identifier at len - 7: version, flags, send present; recv missing */
static const u8 cm_pdata_buf_roce_off49[CM_PDATA_VEC_ROCE_LEN] = {
	[49] = 0xf6, [50] = 0xab, [51] = 0x0e, [52] = 0x18,	/* identifier */
	[53] = 0x01,		/* version 1 */
	[54] = 0x00,		/* R clear */
	[55] = 0x03,		/* send 4 KiB; recv would be at 56 */
};

/* Identifier at offset 50 of 56: the message would end at 58 */
static const u8 cm_pdata_buf_roce_off50[CM_PDATA_VEC_ROCE_LEN] = {
	[50] = 0xf6, [51] = 0xab, [52] = 0x0e, [53] = 0x18,	/* identifier */
	[54] = 0x01,		/* version 1 */
	[55] = 0x00,		/* R clear; send/recv would be at 56, 57 */
};

static const u8 cm_pdata_buf_7[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x01, 0x00, 0x00,	/* version 1, R clear, send 1 KiB; no recv */
};

static const u8 cm_pdata_buf_4[] = { 0xf6, 0xab, 0x0e, 0x18 };

static const u8 cm_pdata_buf_vers0[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x00,			/* version 0: not a version */
	0x00, 0x00, 0x00,
};

static const u8 cm_pdata_buf_vers2[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0x02,			/* version 2: not recognized (§6) */
	0x01, 0x03, 0x03,
};

static const u8 cm_pdata_buf_vers255[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* identifier */
	0xff,			/* version 255 */
	0x01, 0x03, 0x03,
};

/* The first identifier is parsed, even if a valid message follows */
static const u8 cm_pdata_buf_bad_then_good[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* 0: first identifier */
	0x07, 0x00, 0x00, 0x00,	/* 4: version 7 */
	0xf6, 0xab, 0x0e, 0x18,	/* 8: second identifier */
	0x01, 0x01, 0x03, 0x03,	/* 12: valid version 1 message */
};

/* Overlapping identifiers: the first one's version octet is 0xf6 */
static const u8 cm_pdata_buf_overlap[] = {
	0xf6, 0xab, 0x0e, 0x18,	/* 0: identifier */
	0xf6, 0xab, 0x0e, 0x18,	/* 4: "version" 0xf6 ... */
	0x01, 0x00, 0x00, 0x00,
};

/**
 * struct cm_pdata_parse_vector - one rpcrdma2_cm_pdata_parse() case
 * @name: case description
 * @buf: received private data (NULL: no buffer at all)
 * @len: bytes at @buf
 * @ret: expected return value
 * @want: expected contents of *out
 */
struct cm_pdata_parse_vector {
	const char *name;
	const u8 *buf;
	size_t len;
	int ret;
	struct rpcrdma2_cm_pdata want;
};

static const struct cm_pdata_parse_vector cm_pdata_parse_vectors[] = {
	{ "valid: offset 0 of 8, 1K/1K, no R", CM_PDATA_VEC_BUF(cm_pdata_buf_1k),
	  0, { 1, false, 1024, 1024 } },
	{ "valid: offset 0 of 8, 4K/4K, R", CM_PDATA_VEC_BUF(cm_pdata_buf_4k_r),
	  0, { 1, true, 4096, 4096 } },
	{ "valid: offset 0 of 8, 256K/256K", CM_PDATA_VEC_BUF(cm_pdata_buf_256k),
	  0, { 1, false, 262144, 262144 } },
	{ "valid: send 4K, recv 256K, R", CM_PDATA_VEC_BUF(cm_pdata_buf_mixed),
	  0, { 1, true, 4096, 262144 } },
	{ "valid: offset 0 of 56 zero-padded (RoCE listener)",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_off0),
	  0, { 1, true, 4096, 4096 } },
	{ "valid: offset 0 of 196 (active side)",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_rep_off0),
	  0, { 1, false, 8192, 4096 } },
	{ "valid: odd offset 13 of 56 behind other data",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_off13),
	  0, { 1, true, 32768, 16384 } },
	{ "valid: offset 1 of 9", CM_PDATA_VEC_BUF(cm_pdata_buf_off1_of9),
	  0, { 1, false, 2048, 1024 } },
	{ "valid: offset 48 of 56 (ends at len)",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_off48),
	  0, { 1, false, 1024, 262144 } },
	{ "valid: reserved bits ignored, R set",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_rsvd_r),
	  0, { 1, true, 2048, 4096 } },
	{ "valid: reserved bits ignored, R clear",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_rsvd_nor),
	  0, { 1, false, 4096, 2048 } },
	{ "valid: two identifiers, first wins",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_two_valid),
	  0, { 1, false, 1024, 1024 } },
	{ "valid: false start before identifier",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_false_start),
	  0, { 1, false, 2048, 2048 } },
	{ "absent: zero length", cm_pdata_buf_1k, 0,
	  -ENOENT, CM_PDATA_VEC_DEFAULTS },
	{ "absent: NULL buffer", NULL, 0,
	  -ENOENT, CM_PDATA_VEC_DEFAULTS },
	{ "absent: 56 zero bytes", CM_PDATA_VEC_BUF(cm_pdata_buf_roce_zero),
	  -ENOENT, CM_PDATA_VEC_DEFAULTS },
	{ "absent: byte-swapped identifier",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_swapped),
	  -ENOENT, CM_PDATA_VEC_DEFAULTS },
	{ "absent: identifier cut at end of 56",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_cut3),
	  -ENOENT, CM_PDATA_VEC_DEFAULTS },
	{ "absent: 3-byte buffer", CM_PDATA_VEC_BUF(cm_pdata_buf_3),
	  -ENOENT, CM_PDATA_VEC_DEFAULTS },
	{ "truncated: identifier at len-4 of 56",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_off52),
	  -EMSGSIZE, CM_PDATA_VEC_DEFAULTS },
	{ "truncated: identifier at len-7 of 56",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_off49),
	  -EMSGSIZE, CM_PDATA_VEC_DEFAULTS },
	{ "truncated: identifier at offset 50 of 56",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_roce_off50),
	  -EMSGSIZE, CM_PDATA_VEC_DEFAULTS },
	{ "truncated: 7-byte message", CM_PDATA_VEC_BUF(cm_pdata_buf_7),
	  -EMSGSIZE, CM_PDATA_VEC_DEFAULTS },
	{ "truncated: identifier only", CM_PDATA_VEC_BUF(cm_pdata_buf_4),
	  -EMSGSIZE, CM_PDATA_VEC_DEFAULTS },
	{ "truncated: valid message, len 7 of 8", cm_pdata_buf_1k, 7,
	  -EMSGSIZE, CM_PDATA_VEC_DEFAULTS },
	{ "version: 0", CM_PDATA_VEC_BUF(cm_pdata_buf_vers0),
	  -EPROTO, CM_PDATA_VEC_DEFAULTS },
	{ "version: 2", CM_PDATA_VEC_BUF(cm_pdata_buf_vers2),
	  -EPROTO, CM_PDATA_VEC_DEFAULTS },
	{ "version: 255", CM_PDATA_VEC_BUF(cm_pdata_buf_vers255),
	  -EPROTO, CM_PDATA_VEC_DEFAULTS },
	{ "version: bad first message hides a valid second",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_bad_then_good),
	  -EPROTO, CM_PDATA_VEC_DEFAULTS },
	{ "version: overlapping identifiers",
	  CM_PDATA_VEC_BUF(cm_pdata_buf_overlap),
	  -EPROTO, CM_PDATA_VEC_DEFAULTS },
};

/* ---- rpcrdma2_cm_pdata_build() ---- */

/**
 * struct cm_pdata_build_vector - one rpcrdma2_cm_pdata_build() case
 * @name: case description
 * @len: size of the output buffer
 * @reminv: R bit argument
 * @send_size: send size argument, bytes
 * @recv_size: receive size argument, bytes
 * @ret: expected return value
 * @bytes: expected first 8 bytes of the buffer when @ret is 8: identifier,
 *	version, flags, send size, receive size
 */
struct cm_pdata_build_vector {
	const char *name;
	size_t len;
	bool reminv;
	u32 send_size;
	u32 recv_size;
	int ret;
	u8 bytes[RPCRDMA2_CM_PDATA_SIZE];
};

static const struct cm_pdata_build_vector cm_pdata_build_vectors[] = {
	{ "1K/1K, no R", 8, false, 1024, 1024, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x00, 0x00 } },
	{ "4K/4K, R", 8, true, 4096, 4096, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03 } },
	{ "256K/256K", 8, false, 262144, 262144, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0xff, 0xff } },
	{ "send 8K, recv 32K, R", 8, true, 8192, 32768, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x07, 0x1f } },
	{ "clamp: 0 and 512 -> 1K", 8, false, 0, 512, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x00, 0x00 } },
	{ "round down: 1500 -> 1K, clamp 300000 -> 256K", 8, false,
	  1500, 300000, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x00, 0xff } },
	{ "round down: 262143 -> 255K, 4095 -> 3K", 8, true, 262143, 4095, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0xfe, 0x02 } },
	{ "clamp: 0xffffffff -> 256K", 8, false, 0xffffffff, 0xffffffff, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0xff, 0xff } },
	{ "56-byte buffer: writes 8", CM_PDATA_VEC_ROCE_LEN, true, 4096, 4096, 8,
	  { 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x03 } },
	{ "buffer of 7: -EMSGSIZE", 7, false, 1024, 1024, -EMSGSIZE, { 0 } },
	{ "buffer of 0: -EMSGSIZE", 0, false, 1024, 1024, -EMSGSIZE, { 0 } },
};

/* ---- rpcrdma2_cm_pdata_size_encode() / _size_decode() ---- */

/**
 * struct cm_pdata_size_vector - one size encoding case (RFC 8797 §4.2)
 * @name: case description
 * @size: bytes given to the encoder
 * @enc: expected encoded octet
 * @dec: expected decoding of @enc, bytes
 */
struct cm_pdata_size_vector {
	const char *name;
	u32 size;
	u8 enc;
	u32 dec;
};

static const struct cm_pdata_size_vector cm_pdata_size_vectors[] = {
	{ "0 clamps to 1K", 0, 0x00, 1024 },
	{ "512 clamps to 1K", 512, 0x00, 1024 },
	{ "1023 clamps to 1K", 1023, 0x00, 1024 },
	{ "1024 is 0x00", 1024, 0x00, 1024 },
	{ "1500 rounds down to 1K", 1500, 0x00, 1024 },
	{ "2047 rounds down to 1K", 2047, 0x00, 1024 },
	{ "2048 is 0x01", 2048, 0x01, 2048 },
	{ "4095 rounds down to 3K", 4095, 0x02, 3072 },
	{ "4096 is 0x03", 4096, 0x03, 4096 },
	{ "131072 is 0x7f", 131072, 0x7f, 131072 },
	{ "262143 rounds down to 255K", 262143, 0xfe, 261120 },
	{ "262144 is 0xff", 262144, 0xff, 262144 },
	{ "262145 clamps to 256K", 262145, 0xff, 262144 },
	{ "300000 clamps to 256K", 300000, 0xff, 262144 },
	{ "0xffffffff clamps to 256K", 0xffffffff, 0xff, 262144 },
};

/* ---- rpcrdma2_cm_pdata_negotiate() ---- */

/**
 * struct cm_pdata_negotiate_vector - one negotiation case
 * @name: case description
 * @has_peer: pass &@peer (else NULL: no private data received)
 * @peer: the peer's parsed private data
 * @own_send: our advertised send size
 * @own_recv: our advertised receive size
 * @def_inline: default for the peer's sizes without private data
 * @send_threshold: expected min(own send, peer receive)
 * @recv_threshold: expected min(peer send, own receive)
 */
struct cm_pdata_negotiate_vector {
	const char *name;
	bool has_peer;
	struct rpcrdma2_cm_pdata peer;
	u32 own_send;
	u32 own_recv;
	u32 def_inline;
	u32 send_threshold;
	u32 recv_threshold;
};

static const struct cm_pdata_negotiate_vector cm_pdata_negotiate_vectors[] = {
	{ "no private data, v1 default", false, { 0 },
	  4096, 4096, 1024, 1024, 1024 },
	{ "no private data, both v2", false, { 0 },
	  8192, 8192, 4096, 4096, 4096 },
	{ "no private data, v2, own send smaller", false, { 0 },
	  2048, 8192, 4096, 2048, 4096 },
	{ "invalid private data counts as absent (v2)", true,
	  CM_PDATA_VEC_DEFAULTS, 8192, 8192, 4096, 4096, 4096 },
	{ "invalid private data counts as absent (v1)", true,
	  CM_PDATA_VEC_DEFAULTS, 8192, 8192, 1024, 1024, 1024 },
	{ "received 1K/1K wins over v2 default", true,
	  { 1, false, 1024, 1024 }, 8192, 8192, 4096, 1024, 1024 },
	{ "Linux client 4K/4K, we 8K/8K", true,
	  { 1, true, 4096, 4096 }, 8192, 8192, 1024, 4096, 4096 },
	{ "asymmetric: peer 2K/64K, we 16K/1K", true,
	  { 1, false, 2048, 65536 }, 16384, 1024, 1024, 16384, 1024 },
	{ "peer 256K/256K, we 4K/32K", true,
	  { 1, false, 262144, 262144 }, 4096, 32768, 1024, 4096, 32768 },
	{ "own sizes as on the wire: 1500/300000", true,
	  { 1, false, 262144, 262144 }, 1500, 300000, 1024, 1024, 262144 },
	{ "own sizes clamped up: 0/512", true,
	  { 1, false, 4096, 4096 }, 0, 512, 1024, 1024, 1024 },
	{ "hand-filled peer out of range: 0/1000000", true,
	  { 1, false, 0, 1000000 }, 8192, 8192, 1024, 8192, 1024 },
};

/* ---- rpcrdma2_cm_pdata_reminv_ok() ---- */

/**
 * struct cm_pdata_reminv_vector - one remote invalidation case (§4.1)
 * @name: case description
 * @has_peer: pass &@peer (else NULL)
 * @peer: the peer's parsed private data
 * @own_reminv: whether we set the R bit
 * @want: expected result
 */
struct cm_pdata_reminv_vector {
	const char *name;
	bool has_peer;
	struct rpcrdma2_cm_pdata peer;
	bool own_reminv;
	bool want;
};

static const struct cm_pdata_reminv_vector cm_pdata_reminv_vectors[] = {
	{ "both set R", true, { 1, true, 1024, 1024 }, true, true },
	{ "only the peer set R", true, { 1, true, 1024, 1024 }, false, false },
	{ "only we set R", true, { 1, false, 1024, 1024 }, true, false },
	{ "no private data", false, { 0 }, true, false },
	{ "defaults never carry R", true, { 0, true, 1024, 1024 }, true, false },
};

#endif /* _RPCRDMA2_CM_PDATA_VECTORS_H */
