/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transport header test vectors for the RPC-over-RDMA v1/v2 codec, shared
 * by tests/userspace/codec_test.c, kunit/rpcrdma2_codec_kunit.c and
 * tests/fuzz/fuzz_codec.c.
 *
 * Every word below was written by hand from the XDR in RFC 8166 §4.1.2
 * (v1) and draft-cel-nfsv4-rpcrdma-version-two-09 §6.3-§6.4 (v2), one
 * word per line in host order (the tests store them big-endian); none was
 * produced by the encoder under test.
 */
#ifndef _RPCRDMA2_CODEC_VECTORS_H
#define _RPCRDMA2_CODEC_VECTORS_H

#include <rpcrdma2/codec.h>

/* the credit value the tests pass to rpcrdma2_encode_reject() */
#define CV_CREDITS	0x20

/* array capacities the tests attach; enough for every limit used below */
#define CV_READS_CAP	64
#define CV_READ_CHUNKS_CAP	4
#define CV_WRITES_CAP	16
#define CV_SEGS_CAP	128
#define CV_BUF_SIZE	512

/* Default limits: 4 Read chunks, 4 Write chunks, 8 segments per chunk */
static const struct rpcrdma2_limits cv_lim_default = {
	.max_read_chunks = 4, .max_write_chunks = 4, .max_segs = 8,
};

static const struct rpcrdma2_limits cv_lim_one = {
	.max_read_chunks = 1, .max_write_chunks = 1, .max_segs = 1,
};

static const struct rpcrdma2_limits cv_lim_one_read = {
	.max_read_chunks = 1, .max_write_chunks = 4, .max_segs = 8,
};

static const struct rpcrdma2_limits cv_lim_one_write = {
	.max_read_chunks = 4, .max_write_chunks = 1, .max_segs = 8,
};

static const struct rpcrdma2_limits cv_lim_one_seg = {
	.max_read_chunks = 4, .max_write_chunks = 4, .max_segs = 1,
};

static const struct rpcrdma2_limits cv_lim_zero_reads = {
	.max_read_chunks = 0, .max_write_chunks = 4, .max_segs = 8,
};

/* a responder that takes no Write chunks at all (draft v2 §5.3.3) */
static const struct rpcrdma2_limits cv_lim_zero_writes = {
	.max_read_chunks = 4, .max_write_chunks = 0, .max_segs = 8,
};

/* two Read chunks (distinct positions) of up to three segments each */
static const struct rpcrdma2_limits cv_lim_two_reads = {
	.max_read_chunks = 2, .max_write_chunks = 4, .max_segs = 3,
};

/* two segments a chunk; a Read chunk's are counted over the whole list */
static const struct rpcrdma2_limits cv_lim_two_segs = {
	.max_read_chunks = 4, .max_write_chunks = 4, .max_segs = 2,
};

/* an endpoint that speaks version 1 only: ERR_VERS 1..1 */
static const struct rpcrdma2_limits cv_lim_v1_only = {
	.max_read_chunks = 4, .max_write_chunks = 4, .max_segs = 8,
	.vers_low = 1, .vers_high = 1,
};

/* an endpoint that speaks version 2 only: ERR_VERS 2..2 */
static const struct rpcrdma2_limits cv_lim_v2_only = {
	.max_read_chunks = 4, .max_write_chunks = 4, .max_segs = 8,
	.vers_low = 2, .vers_high = 2,
};

/**
 * struct cv_expect - what a valid vector must decode to
 * (fields as in &struct rpcrdma2_hdr; arrays as the decoder lays them out)
 */
struct cv_expect {
	u32 xid, vers, credits, htype, flags, hdr_len, rpc_len;
	u32 inv_handle;
	u32 nr_reads, nr_read_chunks, nr_writes, nr_segs;
	bool has_reply;
	struct rpcrdma2_chunk reply;
	const struct rpcrdma2_read_seg *reads;
	const struct rpcrdma2_read_chunk *read_chunks;	/* nr_read_chunks */
	const struct rpcrdma2_chunk *writes;
	const struct rpcrdma2_seg *segs;
	struct rpcrdma2_error err;
	struct rpcrdma2_props props;
	/* what rpcrdma2_encode() writes, when not the input header itself */
	const u32 *enc_words;
	u32 enc_nwords;
};

/**
 * struct cv_vec - one input and what decoding it must produce
 */
struct cv_vec {
	const char *name;
	const u32 *words;
	u32 nwords;
	u32 len;				/* bytes to decode; 0: all */
	const struct rpcrdma2_limits *lim;	/* NULL: cv_lim_default */
	int rc;
	const struct cv_expect *exp;		/* rc == 0 */
	u32 reason;				/* rc != 0 */
	bool discard;
	struct rpcrdma2_error reply;
	/* rpcrdma2_encode_reject(..., CV_CREDITS, ...) output, when given */
	const u32 *reply_words;
	u32 reply_nwords;
};

/* ------------------------------------------------------------------ */
/* Valid version 1 headers (RFC 8166 §4.1.2, §4.7)                     */
/* ------------------------------------------------------------------ */

static const u32 cv_w_v1_msg[] = {
	0x11223344,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x11223344,	/* RPC: xid (same as rdma_xid, §4.2.1) */
	0x00000000,	/* RPC: msg_type CALL */
	0x00000002,	/* RPC: rpcvers 2 */
	0x000186a3,	/* RPC: prog 100003 */
};

static const struct cv_expect cv_e_v1_msg = {
	.xid = 0x11223344, .vers = 1, .credits = 32,
	.htype = RPCRDMA2_V1_RDMA_MSG, .hdr_len = 28, .rpc_len = 16,
};

/* NFS WRITE-style call: two Read chunks, the first of two segments */
static const u32 cv_w_v1_msg_reads[] = {
	0x22334455,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000040,	/* rdma_credit = 64 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000001,	/* rdma_reads: present */
	0x00000080,	/*   position 128 */
	0x0000c001,	/*   handle */
	0x00001000,	/*   length 4096 */
	0x00000000,	/*   offset (high word) */
	0x10000000,	/*   offset (low word) */
	0x00000001,	/* next: present */
	0x00000080,	/*   position 128 (same Read chunk) */
	0x0000c002,	/*   handle */
	0x00000800,	/*   length 2048 */
	0x00000000,	/*   offset (high) */
	0x20000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000a0,	/*   position 160 (second Read chunk) */
	0x0000c003,	/*   handle */
	0x00000010,	/*   length 16 */
	0xffffffff,	/*   offset (high) */
	0xfffffff0,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x22334455,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
};

static const struct rpcrdma2_read_seg cv_r_v1_msg_reads[] = {
	{ 128, { 0xc001, 4096, 0x10000000ULL } },
	{ 128, { 0xc002, 2048, 0x20000000ULL } },
	{ 160, { 0xc003, 16, 0xfffffffffffffff0ULL } },
};

static const struct rpcrdma2_read_chunk cv_rc_v1_msg_reads[] = {
	{ 128, 0, 2, 6144 },
	{ 160, 2, 1, 16 },
};

static const struct cv_expect cv_e_v1_msg_reads = {
	.xid = 0x22334455, .vers = 1, .credits = 64,
	.htype = RPCRDMA2_V1_RDMA_MSG, .hdr_len = 100, .rpc_len = 8,
	.nr_reads = 3, .nr_read_chunks = 2, .reads = cv_r_v1_msg_reads,
	.read_chunks = cv_rc_v1_msg_reads,
};

/* NFS READ-style call: one Write chunk of two segments, a Reply chunk */
static const u32 cv_w_v1_msg_read_call[] = {
	0x33445566,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000080,	/* rdma_credit = 128 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000002,	/*   write chunk: 2 segments */
	0x0000a001,	/*     handle */
	0x00008000,	/*     length 32768 */
	0x00007f00,	/*     offset (high) */
	0x12340000,	/*     offset (low) */
	0x0000a002,	/*     handle */
	0x00008000,	/*     length 32768 */
	0x00007f00,	/*     offset (high) */
	0x12348000,	/*     offset (low) */
	0x00000000,	/* next: end of Write list */
	0x00000001,	/* rdma_reply: present */
	0x00000001,	/*   1 segment */
	0x0000b001,	/*     handle */
	0x00000400,	/*     length 1024 */
	0x00007f00,	/*     offset (high) */
	0x56780000,	/*     offset (low) */
	0x33445566,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
	0x00000002,	/* RPC: rpcvers */
	0x000186a3,	/* RPC: prog */
};

static const struct rpcrdma2_chunk cv_c_one_write2[] = { { 0, 2 } };

static const struct rpcrdma2_seg cv_s_read_call[] = {
	{ 0xa001, 32768, 0x00007f0012340000ULL },
	{ 0xa002, 32768, 0x00007f0012348000ULL },
	{ 0xb001, 1024, 0x00007f0056780000ULL },
};

static const struct cv_expect cv_e_v1_msg_read_call = {
	.xid = 0x33445566, .vers = 1, .credits = 128,
	.htype = RPCRDMA2_V1_RDMA_MSG, .hdr_len = 88, .rpc_len = 16,
	.nr_writes = 1, .writes = cv_c_one_write2,
	.nr_segs = 3, .segs = cv_s_read_call,
	.has_reply = true, .reply = { 2, 1 },
};

/* Reply with two Write chunks: one used, one empty (RFC 8166 §3.4.6) */
static const u32 cv_w_v1_msg_two_writes[] = {
	0x44556677,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000010,	/* rdma_credit = 16 (grant) */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000001,	/*   write chunk: 1 segment */
	0x0000d001,	/*     handle */
	0x00000123,	/*     length 291 (bytes actually written) */
	0x00000000,	/*     offset (high) */
	0x00001000,	/*     offset (low) */
	0x00000001,	/* next: present */
	0x00000000,	/*   write chunk: 0 segments (empty Write chunk) */
	0x00000000,	/* next: end of Write list */
	0x00000000,	/* rdma_reply: not present */
	0x44556677,	/* RPC: xid */
	0x00000001,	/* RPC: msg_type REPLY */
};

static const struct rpcrdma2_chunk cv_c_two_writes[] = { { 0, 1 }, { 1, 0 } };

static const struct rpcrdma2_seg cv_s_two_writes[] = {
	{ 0xd001, 0x123, 0x1000 },
};

static const struct cv_expect cv_e_v1_msg_two_writes = {
	.xid = 0x44556677, .vers = 1, .credits = 16,
	.htype = RPCRDMA2_V1_RDMA_MSG, .hdr_len = 60, .rpc_len = 8,
	.nr_writes = 2, .writes = cv_c_two_writes,
	.nr_segs = 1, .segs = cv_s_two_writes,
};

/* Long Call: Position-Zero Read chunk and a Reply chunk (§3.5.3) */
static const u32 cv_w_v1_nomsg_long_call[] = {
	0x55667788,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000001,	/* rdma_proc = RDMA_NOMSG */
	0x00000001,	/* rdma_reads: present */
	0x00000000,	/*   position 0 */
	0x0000e001,	/*   handle */
	0x00002000,	/*   length 8192 */
	0x00000000,	/*   offset (high) */
	0x00400000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000000,	/*   position 0 */
	0x0000e002,	/*   handle */
	0x00000104,	/*   length 260 */
	0x00000000,	/*   offset (high) */
	0x00500000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000001,	/* rdma_reply: present */
	0x00000002,	/*   2 segments */
	0x0000e003,	/*     handle */
	0x00001000,	/*     length 4096 */
	0x00000000,	/*     offset (high) */
	0x00600000,	/*     offset (low) */
	0x0000e004,	/*     handle */
	0x00001000,	/*     length 4096 */
	0x00000000,	/*     offset (high) */
	0x00700000,	/*     offset (low) */
};

static const struct rpcrdma2_read_seg cv_r_long_call[] = {
	{ 0, { 0xe001, 8192, 0x400000 } },
	{ 0, { 0xe002, 260, 0x500000 } },
};

static const struct rpcrdma2_read_chunk cv_rc_long_call[] = {
	{ 0, 0, 2, 8452 },
};

static const struct rpcrdma2_seg cv_s_long_call[] = {
	{ 0xe003, 4096, 0x600000 },
	{ 0xe004, 4096, 0x700000 },
};

static const struct cv_expect cv_e_v1_nomsg_long_call = {
	.xid = 0x55667788, .vers = 1, .credits = 32,
	.htype = RPCRDMA2_V1_RDMA_NOMSG, .hdr_len = 112,
	.nr_reads = 2, .nr_read_chunks = 1, .reads = cv_r_long_call,
	.read_chunks = cv_rc_long_call,
	.nr_segs = 2, .segs = cv_s_long_call,
	.has_reply = true, .reply = { 0, 2 },
};

/* Long Reply: only the Reply chunk */
static const u32 cv_w_v1_nomsg_long_reply[] = {
	0x66778899,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000001,	/* rdma_proc = RDMA_NOMSG */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000001,	/* rdma_reply: present */
	0x00000001,	/*   1 segment */
	0x0000f001,	/*     handle */
	0x00000e00,	/*     length 3584 */
	0x00000001,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
};

static const struct rpcrdma2_seg cv_s_long_reply[] = {
	{ 0xf001, 3584, 0x100000000ULL },
};

static const struct cv_expect cv_e_v1_nomsg_long_reply = {
	.xid = 0x66778899, .vers = 1, .credits = 32,
	.htype = RPCRDMA2_V1_RDMA_NOMSG, .hdr_len = 48,
	.nr_segs = 1, .segs = cv_s_long_reply,
	.has_reply = true, .reply = { 0, 1 },
};

static const u32 cv_w_v1_err_vers[] = {
	0x778899aa,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000001,	/* rdma_credit */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000001,	/* err = ERR_VERS */
	0x00000001,	/*   rdma_vers_low */
	0x00000001,	/*   rdma_vers_high */
};

static const struct cv_expect cv_e_v1_err_vers = {
	.xid = 0x778899aa, .vers = 1, .credits = 1,
	.htype = RPCRDMA2_V1_RDMA_ERROR, .hdr_len = 28,
	.err = { .code = RPCRDMA2_V1_ERR_VERS, .vers = { 1, 1 } },
};

static const u32 cv_w_v1_err_chunk[] = {
	0x8899aabb,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000001,	/* rdma_credit */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000002,	/* err = ERR_CHUNK (void arm) */
};

static const struct cv_expect cv_e_v1_err_chunk = {
	.xid = 0x8899aabb, .vers = 1, .credits = 1,
	.htype = RPCRDMA2_V1_RDMA_ERROR, .hdr_len = 20,
	.err = { .code = RPCRDMA2_V1_ERR_CHUNK },
};

/* Long Call, no Reply chunk: the Position-Zero Read chunk alone */
static const u32 cv_w_v1_nomsg_pzrc_only[] = {
	0x55667789,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000001,	/* rdma_proc = RDMA_NOMSG */
	0x00000001,	/* rdma_reads: present */
	0x00000000,	/*   position 0 (holds the Payload stream) */
	0x0000e001,	/*   handle */
	0x00000800,	/*   length 2048 */
	0x00000000,	/*   offset (high) */
	0x00400000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const struct rpcrdma2_read_seg cv_r_pzrc_only[] = {
	{ 0, { 0xe001, 2048, 0x400000 } },
};

static const struct rpcrdma2_read_chunk cv_rc_pzrc_only[] = {
	{ 0, 0, 1, 2048 },
};

static const struct cv_expect cv_e_v1_nomsg_pzrc_only = {
	.xid = 0x55667789, .vers = 1, .credits = 32,
	.htype = RPCRDMA2_V1_RDMA_NOMSG, .hdr_len = 52,
	.nr_reads = 1, .nr_read_chunks = 1, .reads = cv_r_pzrc_only,
	.read_chunks = cv_rc_pzrc_only,
};

/* ------------------------------------------------------------------ */
/* Valid version 2 headers (draft v2 §3, §5, §6)                       */
/* ------------------------------------------------------------------ */

static const u32 cv_w_v2_msg[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags: call */
	0x00000000,	/* rdma_inv_handle: none */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x01020304,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
	0x00000002,	/* RPC: rpcvers */
};

static const struct cv_expect cv_e_v2_msg = {
	.xid = 0x01020304, .vers = 2, .credits = 32,
	.htype = RPCRDMA2_HT_MSG, .hdr_len = 36, .rpc_len = 12,
};

/* The benchmark's header: NFS READ call, inv_handle on a Write segment */
static const u32 cv_w_v2_read_call[] = {
	0x00c0ffee,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000080,	/* rdma_credit = 128 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags: call */
	0x0000a001,	/* rdma_inv_handle = first Write segment's handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000002,	/*   write chunk: 2 segments */
	0x0000a001,	/*     handle */
	0x00008000,	/*     length 32768 */
	0x00007f00,	/*     offset (high) */
	0x12340000,	/*     offset (low) */
	0x0000a002,	/*     handle */
	0x00008000,	/*     length 32768 */
	0x00007f00,	/*     offset (high) */
	0x12348000,	/*     offset (low) */
	0x00000000,	/* next: end of Write list */
	0x00000001,	/* rdma_reply: present */
	0x00000001,	/*   1 segment */
	0x0000b001,	/*     handle */
	0x00000400,	/*     length 1024 */
	0x00007f00,	/*     offset (high) */
	0x56780000,	/*     offset (low) */
	0x00c0ffee,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
	0x00000002,	/* RPC: rpcvers */
	0x000186a3,	/* RPC: prog */
};

static const struct cv_expect cv_e_v2_read_call = {
	.xid = 0x00c0ffee, .vers = 2, .credits = 128,
	.htype = RPCRDMA2_HT_MSG, .hdr_len = 96, .rpc_len = 16,
	.inv_handle = 0xa001,
	.nr_writes = 1, .writes = cv_c_one_write2,
	.nr_segs = 3, .segs = cv_s_read_call,
	.has_reply = true, .reply = { 2, 1 },
};

/* NFS WRITE call: one Read chunk, inv_handle on its second segment */
static const u32 cv_w_v2_write_call[] = {
	0x0a0b0c0d,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000080,	/* rdma_credit = 128 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags: call */
	0x0000c002,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000074,	/*   position 116 */
	0x0000c001,	/*   handle */
	0x00010000,	/*   length 65536 */
	0x00000000,	/*   offset (high) */
	0x00010000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000074,	/*   position 116 */
	0x0000c002,	/*   handle */
	0x00000001,	/*   length 1 */
	0x00000000,	/*   offset (high) */
	0x00020000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x0a0b0c0d,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
};

static const struct rpcrdma2_read_seg cv_r_v2_write_call[] = {
	{ 116, { 0xc001, 65536, 0x10000 } },
	{ 116, { 0xc002, 1, 0x20000 } },
};

static const struct rpcrdma2_read_chunk cv_rc_v2_write_call[] = {
	{ 116, 0, 2, 65537 },
};

static const struct cv_expect cv_e_v2_write_call = {
	.xid = 0x0a0b0c0d, .vers = 2, .credits = 128,
	.htype = RPCRDMA2_HT_MSG, .hdr_len = 84, .rpc_len = 8,
	.inv_handle = 0xc002,
	.nr_reads = 2, .nr_read_chunks = 1, .reads = cv_r_v2_write_call,
	.read_chunks = cv_rc_v2_write_call,
};

/* READ reply: RESPONSE flag, the Write chunk sent back with its length */
static const u32 cv_w_v2_read_reply[] = {
	0x00c0ffee,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000080,	/* rdma_credit = 128 (grant) */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000001,	/*   write chunk: 1 segment */
	0x0000a001,	/*     handle */
	0x00002a00,	/*     length 10752 */
	0x00007f00,	/*     offset (high) */
	0x12340000,	/*     offset (low) */
	0x00000000,	/* next: end of Write list */
	0x00000000,	/* rdma_reply: not present */
	0x00c0ffee,	/* RPC: xid */
	0x00000001,	/* RPC: msg_type REPLY */
	0x00000000,	/* RPC: reply_stat MSG_ACCEPTED */
};

static const struct rpcrdma2_chunk cv_c_one_write1[] = { { 0, 1 } };

static const struct rpcrdma2_seg cv_s_v2_read_reply[] = {
	{ 0xa001, 10752, 0x00007f0012340000ULL },
};

static const struct cv_expect cv_e_v2_read_reply = {
	.xid = 0x00c0ffee, .vers = 2, .credits = 128,
	.htype = RPCRDMA2_HT_MSG, .flags = RPCRDMA2_F_RESPONSE,
	.hdr_len = 60, .rpc_len = 12,
	.nr_writes = 1, .writes = cv_c_one_write1,
	.nr_segs = 1, .segs = cv_s_v2_read_reply,
};

/* v2 does not tie rdma_xid to the RPC XID (draft v2 §10.1) */
static const u32 cv_w_v2_msg_other_xid[] = {
	0x00000001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags: call */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x00000099,	/* rdma_rpc_first_word (RPC xid differs) */
};

static const struct cv_expect cv_e_v2_msg_other_xid = {
	.xid = 1, .vers = 2, .credits = 1,
	.htype = RPCRDMA2_HT_MSG, .hdr_len = 36, .rpc_len = 4,
};

/*
 * A reply with a non-zero rdma_inv_handle that names no handle in it:
 * draft v2 §3.3 gives the field a meaning in Calls only.
 */
static const u32 cv_w_v2_reply_inv_handle[] = {
	0x00c0ffef,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000080,	/* rdma_credit = 128 (grant) */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x0000a001,	/* rdma_inv_handle: not checked in a reply */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x00c0ffef,	/* RPC: xid */
	0x00000001,	/* RPC: msg_type REPLY */
};

static const struct cv_expect cv_e_v2_reply_inv_handle = {
	.xid = 0x00c0ffef, .vers = 2, .credits = 128,
	.htype = RPCRDMA2_HT_MSG, .flags = RPCRDMA2_F_RESPONSE,
	.hdr_len = 36, .rpc_len = 8, .inv_handle = 0xa001,
};

/* Long Call: Position-Zero Read chunk, Reply chunk, inv_handle on it */
static const u32 cv_w_v2_nomsg_call[] = {
	0x0f0e0d0c,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000010,	/* rdma_credit = 16 */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000000,	/* rdma_flags: call */
	0x0000e003,	/* rdma_inv_handle = the Reply segment's handle */
	0x00000001,	/* rdma_reads: present */
	0x00000000,	/*   position 0 */
	0x0000e001,	/*   handle */
	0x00001800,	/*   length 6144 */
	0x00000000,	/*   offset (high) */
	0x00400000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000001,	/* rdma_reply: present */
	0x00000001,	/*   1 segment */
	0x0000e003,	/*     handle */
	0x00001000,	/*     length 4096 */
	0x00000000,	/*     offset (high) */
	0x00600000,	/*     offset (low) */
};

static const struct rpcrdma2_read_seg cv_r_v2_nomsg_call[] = {
	{ 0, { 0xe001, 6144, 0x400000 } },
};

static const struct rpcrdma2_read_chunk cv_rc_v2_nomsg_call[] = {
	{ 0, 0, 1, 6144 },
};

static const struct rpcrdma2_seg cv_s_v2_nomsg_call[] = {
	{ 0xe003, 4096, 0x600000 },
};

static const struct cv_expect cv_e_v2_nomsg_call = {
	.xid = 0x0f0e0d0c, .vers = 2, .credits = 16,
	.htype = RPCRDMA2_HT_NOMSG, .hdr_len = 80, .inv_handle = 0xe003,
	.nr_reads = 1, .nr_read_chunks = 1, .reads = cv_r_v2_nomsg_call,
	.read_chunks = cv_rc_v2_nomsg_call,
	.nr_segs = 1, .segs = cv_s_v2_nomsg_call,
	.has_reply = true, .reply = { 0, 1 },
};

/* Long Reply with a Write chunk and the Reply chunk */
static const u32 cv_w_v2_nomsg_reply[] = {
	0x0f0e0d0c,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000010,	/* rdma_credit = 16 */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000000,	/*   write chunk: 0 segments */
	0x00000000,	/* next: end of Write list */
	0x00000001,	/* rdma_reply: present */
	0x00000001,	/*   1 segment */
	0x0000e003,	/*     handle */
	0x00000f00,	/*     length 3840 */
	0x00000000,	/*     offset (high) */
	0x00600000,	/*     offset (low) */
};

static const struct rpcrdma2_chunk cv_c_empty_write[] = { { 0, 0 } };

static const struct rpcrdma2_seg cv_s_v2_nomsg_reply[] = {
	{ 0xe003, 3840, 0x600000 },
};

static const struct cv_expect cv_e_v2_nomsg_reply = {
	.xid = 0x0f0e0d0c, .vers = 2, .credits = 16,
	.htype = RPCRDMA2_HT_NOMSG, .flags = RPCRDMA2_F_RESPONSE,
	.hdr_len = 64,
	.nr_writes = 1, .writes = cv_c_empty_write,
	.nr_segs = 1, .segs = cv_s_v2_nomsg_reply,
	.has_reply = true, .reply = { 0, 1 },
};

/* RDMA2_ERROR, one vector per arm of rpcrdma2_error (draft v2 §5.3.3) */
#define CV_V2_ERR_EXPECT(len)					\
	.xid = 0x5a5a0001, .vers = 2, .credits = 8,		\
	.htype = RPCRDMA2_HT_ERROR, .flags = RPCRDMA2_F_RESPONSE,	\
	.hdr_len = (len)

/*
 * RFC 8166 §4.5's version-independent ERR_VERS for a version 2 Call, as
 * a v1-only responder (the in-tree svcrdma) sends it: no rdma_flags.
 */
static const u32 cv_w_v2_err_vers_v1_layout[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2, copied from the Call */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000001,	/* err = ERR_VERS */
	0x00000001,	/*   rdma_vers_low = 1 */
	0x00000001,	/*   rdma_vers_high = 1 */
};

static const struct cv_expect cv_e_v2_err_vers_v1_layout = {
	.xid = 0x5a5a0001, .vers = 2, .credits = 8,
	.htype = RPCRDMA2_HT_ERROR, .flags = 0, .hdr_len = 28,
	.err = { .code = RPCRDMA2_ERR_VERS, .v1_layout = true,
		 .vers = { 1, 1 } },
};

static const u32 cv_w_v2_err_vers[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000001,	/* rdma_err = RDMA2_ERR_VERS */
	0x00000001,	/*   rdma_vers_low */
	0x00000002,	/*   rdma_vers_high */
};

static const struct cv_expect cv_e_v2_err_vers = {
	CV_V2_ERR_EXPECT(32),
	.err = { .code = RPCRDMA2_ERR_VERS, .vers = { 1, 2 } },
};

static const u32 cv_w_v2_err_bad_xdr[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000002,	/* rdma_err = RDMA2_ERR_BAD_XDR (void) */
};

static const struct cv_expect cv_e_v2_err_bad_xdr = {
	CV_V2_ERR_EXPECT(24), .err = { .code = RPCRDMA2_ERR_BAD_XDR },
};

static const u32 cv_w_v2_err_inval_htype[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000003,	/* rdma_err = RDMA2_ERR_INVAL_HTYPE (void) */
};

static const struct cv_expect cv_e_v2_err_inval_htype = {
	CV_V2_ERR_EXPECT(24), .err = { .code = RPCRDMA2_ERR_INVAL_HTYPE },
};

static const u32 cv_w_v2_err_read_chunks[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000004,	/* rdma_err = RDMA2_ERR_READ_CHUNKS */
	0x00000000,	/*   rdma_max_chunks = 0 */
};

static const struct cv_expect cv_e_v2_err_read_chunks = {
	CV_V2_ERR_EXPECT(28),
	.err = { .code = RPCRDMA2_ERR_READ_CHUNKS, .max_chunks = 0 },
};

static const u32 cv_w_v2_err_write_chunks[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000005,	/* rdma_err = RDMA2_ERR_WRITE_CHUNKS */
	0x00000003,	/*   rdma_max_chunks = 3 */
};

static const struct cv_expect cv_e_v2_err_write_chunks = {
	CV_V2_ERR_EXPECT(28),
	.err = { .code = RPCRDMA2_ERR_WRITE_CHUNKS, .max_chunks = 3 },
};

static const u32 cv_w_v2_err_segments[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000006,	/* rdma_err = RDMA2_ERR_SEGMENTS */
	0x00000010,	/*   rdma_max_segments = 16 */
};

static const struct cv_expect cv_e_v2_err_segments = {
	CV_V2_ERR_EXPECT(28),
	.err = { .code = RPCRDMA2_ERR_SEGMENTS, .max_segs = 16 },
};

static const u32 cv_w_v2_err_write_resource[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000007,	/* rdma_err = RDMA2_ERR_WRITE_RESOURCE */
	0x00000001,	/*   rdma_chunk_index = 1 (first Write chunk) */
	0x00100000,	/*   rdma_length_needed = 1 MiB */
};

static const struct cv_expect cv_e_v2_err_write_resource = {
	CV_V2_ERR_EXPECT(32),
	.err = { .code = RPCRDMA2_ERR_WRITE_RESOURCE,
		 .write = { 1, 0x100000 } },
};

static const u32 cv_w_v2_err_reply_resource[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000008,	/* rdma_err = RDMA2_ERR_REPLY_RESOURCE */
	0x00002000,	/*   rdma_length_needed = 8192 */
};

static const struct cv_expect cv_e_v2_err_reply_resource = {
	CV_V2_ERR_EXPECT(28),
	.err = { .code = RPCRDMA2_ERR_REPLY_RESOURCE,
		 .length_needed = 8192 },
};

static const u32 cv_w_v2_err_system[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000009,	/* rdma_err = RDMA2_ERR_SYSTEM (void) */
};

static const struct cv_expect cv_e_v2_err_system = {
	CV_V2_ERR_EXPECT(24), .err = { .code = RPCRDMA2_ERR_SYSTEM },
};

static const u32 cv_w_v2_err_unknown[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000063,	/* rdma_err = 99: unknown, "default: void" arm */
};

static const struct cv_expect cv_e_v2_err_unknown = {
	CV_V2_ERR_EXPECT(24), .err = { .code = 99 },
};

/* RDMA2_CONNPROP (draft v2 §4.1, §4.2, §5.3.4) */
static const u32 cv_w_v2_connprop[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000002,	/* rdma_props: 2 propvals */
	0x00000001,	/*   rdma_which = RDMA2_PROPID_RBSIZ */
	0x00000004,	/*   rdma_data: 4 bytes */
	0x00002000,	/*     rpcrdma2_prop_rbsiz = 8192 */
	0x00000002,	/*   rdma_which = RDMA2_PROPID_BRS */
	0x00000004,	/*   rdma_data: 4 bytes */
	0x00000002,	/*     RDMA2_RVREQSUP_GENL */
};

static const struct cv_expect cv_e_v2_connprop = {
	.vers = 2, .credits = 1, .htype = RPCRDMA2_HT_CONNPROP,
	.hdr_len = 48,
	.props = { .present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS,
		   .rbsiz = 8192, .brs = RPCRDMA2_RVREQSUP_GENL },
};

/* zero-length rdma_data means "the default" (§4.1) */
static const u32 cv_w_v2_connprop_defaults[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000002,	/* rdma_props: 2 propvals */
	0x00000001,	/*   rdma_which = RDMA2_PROPID_RBSIZ */
	0x00000000,	/*   rdma_data: empty (default 4096) */
	0x00000002,	/*   rdma_which = RDMA2_PROPID_BRS */
	0x00000000,	/*   rdma_data: empty (default INLINE) */
};

static const struct cv_expect cv_e_v2_connprop_defaults = {
	.vers = 2, .credits = 1, .htype = RPCRDMA2_HT_CONNPROP,
	.flags = RPCRDMA2_F_RESPONSE, .hdr_len = 40,
	.props = { .present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS,
		   .dflt = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS,
		   .rbsiz = 4096, .brs = RPCRDMA2_RVREQSUP_INLINE },
};

/* unknown properties are skipped (§4.1), including their padding */
static const u32 cv_w_v2_connprop_unknown[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000004,	/* rdma_props: 4 propvals */
	0x00000100,	/*   rdma_which = 256 (unknown) */
	0x00000006,	/*   rdma_data: 6 bytes */
	0xdeadbeef,	/*     data */
	0xcafe0000,	/*     data, then 2 bytes XDR padding */
	0x00000002,	/*   rdma_which = RDMA2_PROPID_BRS */
	0x00000004,	/*   rdma_data: 4 bytes */
	0x00000000,	/*     RDMA2_RVREQSUP_NONE */
	0x00000007,	/*   rdma_which = 7 (unknown) */
	0x00000000,	/*   rdma_data: empty */
	0xffffffff,	/*   rdma_which = 0xffffffff (unknown) */
	0x00000001,	/*   rdma_data: 1 byte */
	0x01000000,	/*     data, then 3 bytes XDR padding */
};

static const u32 cv_enc_v2_connprop_unknown[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000001,	/* rdma_props: 1 propval (unknown ones dropped) */
	0x00000002,	/*   rdma_which = RDMA2_PROPID_BRS */
	0x00000004,	/*   rdma_data: 4 bytes */
	0x00000000,	/*     RDMA2_RVREQSUP_NONE */
};

static const struct cv_expect cv_e_v2_connprop_unknown = {
	.vers = 2, .credits = 1, .htype = RPCRDMA2_HT_CONNPROP,
	.hdr_len = 72,
	.props = { .present = RPCRDMA2_PROPF_BRS, .rbsiz = 4096,
		   .brs = RPCRDMA2_RVREQSUP_NONE },
	.enc_words = cv_enc_v2_connprop_unknown,
	.enc_nwords = ARRAY_SIZE(cv_enc_v2_connprop_unknown),
};

static const u32 cv_w_v2_connprop_empty[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_props: empty propset */
};

static const struct cv_expect cv_e_v2_connprop_empty = {
	.vers = 2, .credits = 1, .htype = RPCRDMA2_HT_CONNPROP,
	.hdr_len = 24, .props = { .rbsiz = 4096, .brs = 1 },
};

/*
 * RFC 8166 §4.3.1 groups Read segments "by their Position fields into
 * Read chunks", and §3.4.5 concatenates a chunk's segments "in list
 * order": they need not be adjacent. The decoder groups them: each
 * chunk's segments together in list order, the chunks in ascending
 * Position order, so what it encodes back differs from the input.
 */

/* one Read chunk at 128 split by another at 160: 128, 160, 128 */
static const u32 cv_w_v2_read_split[] = {
	0x0000beef,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000080,	/*   position 128 (first Read chunk) */
	0x00000001,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000a0,	/*   position 160 (second Read chunk) */
	0x00000002,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000080,	/*   position 128 again (first Read chunk) */
	0x00000003,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x0000beef,	/* RPC: xid */
};

static const struct rpcrdma2_read_seg cv_r_v2_read_split[] = {
	{ 128, { 1, 4, 0 } },
	{ 128, { 3, 4, 0 } },
	{ 160, { 2, 4, 0 } },
};

static const struct rpcrdma2_read_chunk cv_rc_v2_read_split[] = {
	{ 128, 0, 2, 8 },
	{ 160, 2, 1, 4 },
};

static const u32 cv_enc_v2_read_split[] = {
	0x0000beef,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000080,	/*   position 128 (first Read chunk) */
	0x00000001,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000080,	/*   position 128 again (first Read chunk) */
	0x00000003,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000a0,	/*   position 160 (second Read chunk) */
	0x00000002,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const struct cv_expect cv_e_v2_read_split = {
	.xid = 0xbeef, .vers = 2, .credits = 32,
	.htype = RPCRDMA2_HT_MSG, .hdr_len = 108, .rpc_len = 4,
	.nr_reads = 3, .nr_read_chunks = 2, .reads = cv_r_v2_read_split,
	.read_chunks = cv_rc_v2_read_split,
	.enc_words = cv_enc_v2_read_split,
	.enc_nwords = ARRAY_SIZE(cv_enc_v2_read_split),
};

/*
 * Positions 100, 200, 100, 200, 100: five runs but two Read chunks, the
 * one at 100 of three segments. Decoded with cv_lim_two_reads (it fits
 * exactly) and with cv_lim_two_segs (SEGMENTS at the fifth segment).
 */
static const u32 cv_w_v2_read_interleaved[] = {
	0x00001001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000064,	/*   position 100 (chunk 1, segment 1) */
	0x0000d001,	/*   handle */
	0x00000400,	/*   length 1024 */
	0x00000000,	/*   offset (high) */
	0x00010000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2, segment 1) */
	0x0000d002,	/*   handle */
	0x00000200,	/*   length 512 */
	0x00000000,	/*   offset (high) */
	0x00020000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 2) */
	0x0000d003,	/*   handle */
	0x00000400,	/*   length 1024 */
	0x00000000,	/*   offset (high) */
	0x00011000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2, segment 2) */
	0x0000d004,	/*   handle */
	0x00000100,	/*   length 256 */
	0x00000000,	/*   offset (high) */
	0x00021000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 3) */
	0x0000d005,	/*   handle */
	0x00000008,	/*   length 8 */
	0x00000000,	/*   offset (high) */
	0x00012000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x00001001,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
};

static const struct rpcrdma2_read_seg cv_r_v2_read_interleaved[] = {
	{ 100, { 0xd001, 1024, 0x10000 } },
	{ 100, { 0xd003, 1024, 0x11000 } },
	{ 100, { 0xd005, 8, 0x12000 } },
	{ 200, { 0xd002, 512, 0x20000 } },
	{ 200, { 0xd004, 256, 0x21000 } },
};

static const struct rpcrdma2_read_chunk cv_rc_v2_read_interleaved[] = {
	{ 100, 0, 3, 2056 },
	{ 200, 3, 2, 768 },
};

static const u32 cv_enc_v2_read_interleaved[] = {
	0x00001001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000064,	/*   position 100 (chunk 1, segment 1) */
	0x0000d001,	/*   handle */
	0x00000400,	/*   length 1024 */
	0x00000000,	/*   offset (high) */
	0x00010000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 2) */
	0x0000d003,	/*   handle */
	0x00000400,	/*   length 1024 */
	0x00000000,	/*   offset (high) */
	0x00011000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 3) */
	0x0000d005,	/*   handle */
	0x00000008,	/*   length 8 */
	0x00000000,	/*   offset (high) */
	0x00012000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2, segment 1) */
	0x0000d002,	/*   handle */
	0x00000200,	/*   length 512 */
	0x00000000,	/*   offset (high) */
	0x00020000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2, segment 2) */
	0x0000d004,	/*   handle */
	0x00000100,	/*   length 256 */
	0x00000000,	/*   offset (high) */
	0x00021000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const struct cv_expect cv_e_v2_read_interleaved = {
	.xid = 0x1001, .vers = 2, .credits = 32,
	.htype = RPCRDMA2_HT_MSG, .hdr_len = 156, .rpc_len = 8,
	.nr_reads = 5, .nr_read_chunks = 2,
	.reads = cv_r_v2_read_interleaved,
	.read_chunks = cv_rc_v2_read_interleaved,
	.enc_words = cv_enc_v2_read_interleaved,
	.enc_nwords = ARRAY_SIZE(cv_enc_v2_read_interleaved),
};

/*
 * Positions 100, 200, 100, 300: three Read chunks, the one at 100 longer
 * than 32 bits can count. Decoded with cv_lim_two_reads, the third
 * distinct position (300) is one too many.
 */
static const u32 cv_w_v1_read_three_pos[] = {
	0x00002002,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000001,	/* rdma_reads: present */
	0x00000064,	/*   position 100 (chunk 1) */
	0x0000e001,	/*   handle */
	0xfffff000,	/*   length 4294963200 */
	0x00000001,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2) */
	0x0000e002,	/*   handle */
	0x00000010,	/*   length 16 */
	0x00000000,	/*   offset (high) */
	0x00001000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1 again) */
	0x0000e003,	/*   handle */
	0x00002000,	/*   length 8192 */
	0x00000002,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x0000012c,	/*   position 300 (chunk 3) */
	0x0000e004,	/*   handle */
	0x00000004,	/*   length 4 */
	0x00000000,	/*   offset (high) */
	0x00002000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x00002002,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
};

static const struct rpcrdma2_read_seg cv_r_v1_read_three_pos[] = {
	{ 100, { 0xe001, 0xfffff000, 0x100000000ULL } },
	{ 100, { 0xe003, 8192, 0x200000000ULL } },
	{ 200, { 0xe002, 16, 0x1000 } },
	{ 300, { 0xe004, 4, 0x2000 } },
};

/* 0xfffff000 + 0x2000 does not wrap at 32 bits */
static const struct rpcrdma2_read_chunk cv_rc_v1_read_three_pos[] = {
	{ 100, 0, 2, 0x100001000ULL },
	{ 200, 2, 1, 16 },
	{ 300, 3, 1, 4 },
};

static const u32 cv_enc_v1_read_three_pos[] = {
	0x00002002,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000001,	/* rdma_reads: present */
	0x00000064,	/*   position 100 (chunk 1) */
	0x0000e001,	/*   handle */
	0xfffff000,	/*   length 4294963200 */
	0x00000001,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1 again) */
	0x0000e003,	/*   handle */
	0x00002000,	/*   length 8192 */
	0x00000002,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2) */
	0x0000e002,	/*   handle */
	0x00000010,	/*   length 16 */
	0x00000000,	/*   offset (high) */
	0x00001000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x0000012c,	/*   position 300 (chunk 3) */
	0x0000e004,	/*   handle */
	0x00000004,	/*   length 4 */
	0x00000000,	/*   offset (high) */
	0x00002000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const struct cv_expect cv_e_v1_read_three_pos = {
	.xid = 0x2002, .vers = 1, .credits = 32,
	.htype = RPCRDMA2_V1_RDMA_MSG, .hdr_len = 124, .rpc_len = 8,
	.nr_reads = 4, .nr_read_chunks = 3, .reads = cv_r_v1_read_three_pos,
	.read_chunks = cv_rc_v1_read_three_pos,
	.enc_words = cv_enc_v1_read_three_pos,
	.enc_nwords = ARRAY_SIZE(cv_enc_v1_read_three_pos),
};

/*
 * Positions 200, 100, 100: the chunk at 100 comes first in Position
 * order though its segments come last, so it goes in before the one at
 * 200 and each of its segments moves that one's up.
 */
static const u32 cv_w_v1_read_descending[] = {
	0x00003003,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000001,	/* rdma_reads: present */
	0x000000c8,	/*   position 200 (chunk 2) */
	0x0000f001,	/*   handle */
	0x00000100,	/*   length 256 */
	0x00000000,	/*   offset (high) */
	0x00001000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 1) */
	0x0000f002,	/*   handle */
	0x00000200,	/*   length 512 */
	0x00000000,	/*   offset (high) */
	0x00002000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 2) */
	0x0000f003,	/*   handle */
	0x00000008,	/*   length 8 */
	0x00000000,	/*   offset (high) */
	0x00003000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x00003003,	/* RPC: xid */
	0x00000000,	/* RPC: msg_type CALL */
};

static const struct rpcrdma2_read_seg cv_r_v1_read_descending[] = {
	{ 100, { 0xf002, 512, 0x2000 } },
	{ 100, { 0xf003, 8, 0x3000 } },
	{ 200, { 0xf001, 256, 0x1000 } },
};

static const struct rpcrdma2_read_chunk cv_rc_v1_read_descending[] = {
	{ 100, 0, 2, 520 },
	{ 200, 2, 1, 256 },
};

static const u32 cv_enc_v1_read_descending[] = {
	0x00003003,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = 32 */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000001,	/* rdma_reads: present */
	0x00000064,	/*   position 100 (chunk 1, segment 1) */
	0x0000f002,	/*   handle */
	0x00000200,	/*   length 512 */
	0x00000000,	/*   offset (high) */
	0x00002000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x00000064,	/*   position 100 (chunk 1, segment 2) */
	0x0000f003,	/*   handle */
	0x00000008,	/*   length 8 */
	0x00000000,	/*   offset (high) */
	0x00003000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c8,	/*   position 200 (chunk 2) */
	0x0000f001,	/*   handle */
	0x00000100,	/*   length 256 */
	0x00000000,	/*   offset (high) */
	0x00001000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const struct cv_expect cv_e_v1_read_descending = {
	.xid = 0x3003, .vers = 1, .credits = 32,
	.htype = RPCRDMA2_V1_RDMA_MSG, .hdr_len = 100, .rpc_len = 8,
	.nr_reads = 3, .nr_read_chunks = 2, .reads = cv_r_v1_read_descending,
	.read_chunks = cv_rc_v1_read_descending,
	.enc_words = cv_enc_v1_read_descending,
	.enc_nwords = ARRAY_SIZE(cv_enc_v1_read_descending),
};

static const struct cv_vec cv_valid[] = {
	{ "v1 RDMA_MSG no chunks", .words = cv_w_v1_msg,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg), .exp = &cv_e_v1_msg },
	{ "v1 RDMA_MSG two Read chunks", .words = cv_w_v1_msg_reads,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg_reads), .exp = &cv_e_v1_msg_reads },
	{ "v1 RDMA_MSG READ call: Write chunk + Reply chunk",
	  .words = cv_w_v1_msg_read_call,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg_read_call),
	  .exp = &cv_e_v1_msg_read_call },
	{ "v1 RDMA_MSG reply: used + empty Write chunk",
	  .words = cv_w_v1_msg_two_writes,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg_two_writes),
	  .exp = &cv_e_v1_msg_two_writes },
	{ "v1 RDMA_NOMSG Long Call", .words = cv_w_v1_nomsg_long_call,
	  .nwords = ARRAY_SIZE(cv_w_v1_nomsg_long_call),
	  .exp = &cv_e_v1_nomsg_long_call },
	{ "v1 RDMA_NOMSG Long Reply", .words = cv_w_v1_nomsg_long_reply,
	  .nwords = ARRAY_SIZE(cv_w_v1_nomsg_long_reply),
	  .exp = &cv_e_v1_nomsg_long_reply },
	{ "v1 RDMA_NOMSG Position-Zero Read chunk only",
	  .words = cv_w_v1_nomsg_pzrc_only,
	  .nwords = ARRAY_SIZE(cv_w_v1_nomsg_pzrc_only),
	  .exp = &cv_e_v1_nomsg_pzrc_only },
	{ "v1 RDMA_MSG at a v1-only endpoint (limits 1..1)",
	  .words = cv_w_v1_msg, .nwords = ARRAY_SIZE(cv_w_v1_msg),
	  .lim = &cv_lim_v1_only, .exp = &cv_e_v1_msg },
	{ "v1 RDMA_ERROR ERR_VERS", .words = cv_w_v1_err_vers,
	  .nwords = ARRAY_SIZE(cv_w_v1_err_vers), .exp = &cv_e_v1_err_vers },
	{ "v1 RDMA_ERROR ERR_CHUNK", .words = cv_w_v1_err_chunk,
	  .nwords = ARRAY_SIZE(cv_w_v1_err_chunk), .exp = &cv_e_v1_err_chunk },
	{ "v2 RDMA2_MSG no chunks", .words = cv_w_v2_msg,
	  .nwords = ARRAY_SIZE(cv_w_v2_msg), .exp = &cv_e_v2_msg },
	{ "v2 RDMA2_MSG READ call", .words = cv_w_v2_read_call,
	  .nwords = ARRAY_SIZE(cv_w_v2_read_call), .exp = &cv_e_v2_read_call },
	{ "v2 RDMA2_MSG WRITE call", .words = cv_w_v2_write_call,
	  .nwords = ARRAY_SIZE(cv_w_v2_write_call),
	  .exp = &cv_e_v2_write_call },
	{ "v2 RDMA2_MSG Read chunk at 128 split by one at 160",
	  .words = cv_w_v2_read_split, .nwords = ARRAY_SIZE(cv_w_v2_read_split),
	  .exp = &cv_e_v2_read_split },
	{ "v2 RDMA2_MSG Read positions 100 200 100 200 100, limit 2 chunks",
	  .words = cv_w_v2_read_interleaved,
	  .nwords = ARRAY_SIZE(cv_w_v2_read_interleaved),
	  .lim = &cv_lim_two_reads, .exp = &cv_e_v2_read_interleaved },
	{ "v1 RDMA_MSG Read positions 100 200 100 300",
	  .words = cv_w_v1_read_three_pos,
	  .nwords = ARRAY_SIZE(cv_w_v1_read_three_pos),
	  .exp = &cv_e_v1_read_three_pos },
	{ "v1 RDMA_MSG Read positions 200 100 100",
	  .words = cv_w_v1_read_descending,
	  .nwords = ARRAY_SIZE(cv_w_v1_read_descending),
	  .exp = &cv_e_v1_read_descending },
	{ "v2 RDMA2_MSG READ reply", .words = cv_w_v2_read_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_read_reply),
	  .exp = &cv_e_v2_read_reply },
	{ "v2 RDMA2_MSG rdma_xid independent of RPC xid",
	  .words = cv_w_v2_msg_other_xid,
	  .nwords = ARRAY_SIZE(cv_w_v2_msg_other_xid),
	  .exp = &cv_e_v2_msg_other_xid },
	{ "v2 RDMA2_MSG reply: rdma_inv_handle not checked (§3.3)",
	  .words = cv_w_v2_reply_inv_handle,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_inv_handle),
	  .exp = &cv_e_v2_reply_inv_handle },
	{ "v2 RDMA2_NOMSG Long Call", .words = cv_w_v2_nomsg_call,
	  .nwords = ARRAY_SIZE(cv_w_v2_nomsg_call),
	  .exp = &cv_e_v2_nomsg_call },
	{ "v2 RDMA2_NOMSG Long Reply", .words = cv_w_v2_nomsg_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_nomsg_reply),
	  .exp = &cv_e_v2_nomsg_reply },
	{ "v2 RDMA2_ERROR RDMA2_ERR_VERS", .words = cv_w_v2_err_vers,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_vers), .exp = &cv_e_v2_err_vers },
	{ "v2 RDMA2_ERROR RDMA2_ERR_BAD_XDR", .words = cv_w_v2_err_bad_xdr,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_bad_xdr),
	  .exp = &cv_e_v2_err_bad_xdr },
	{ "v2 RDMA2_ERROR RDMA2_ERR_INVAL_HTYPE",
	  .words = cv_w_v2_err_inval_htype,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_inval_htype),
	  .exp = &cv_e_v2_err_inval_htype },
	{ "v2 RDMA2_ERROR RDMA2_ERR_READ_CHUNKS",
	  .words = cv_w_v2_err_read_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_read_chunks),
	  .exp = &cv_e_v2_err_read_chunks },
	{ "v2 RDMA2_ERROR RDMA2_ERR_WRITE_CHUNKS",
	  .words = cv_w_v2_err_write_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_write_chunks),
	  .exp = &cv_e_v2_err_write_chunks },
	{ "v2 RDMA2_ERROR RDMA2_ERR_SEGMENTS", .words = cv_w_v2_err_segments,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_segments),
	  .exp = &cv_e_v2_err_segments },
	{ "v2 ERR_VERS in the RFC 8166 layout (from a v1-only server)",
	  .words = cv_w_v2_err_vers_v1_layout,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_vers_v1_layout),
	  .exp = &cv_e_v2_err_vers_v1_layout },
	{ "v2 RDMA2_ERROR RDMA2_ERR_WRITE_RESOURCE",
	  .words = cv_w_v2_err_write_resource,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_write_resource),
	  .exp = &cv_e_v2_err_write_resource },
	{ "v2 RDMA2_ERROR RDMA2_ERR_REPLY_RESOURCE",
	  .words = cv_w_v2_err_reply_resource,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_reply_resource),
	  .exp = &cv_e_v2_err_reply_resource },
	{ "v2 RDMA2_ERROR RDMA2_ERR_SYSTEM", .words = cv_w_v2_err_system,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_system),
	  .exp = &cv_e_v2_err_system },
	{ "v2 RDMA2_ERROR unknown code, void arm", .words = cv_w_v2_err_unknown,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_unknown),
	  .exp = &cv_e_v2_err_unknown },
	{ "v2 RDMA2_CONNPROP RBSIZ + BRS", .words = cv_w_v2_connprop,
	  .nwords = ARRAY_SIZE(cv_w_v2_connprop), .exp = &cv_e_v2_connprop },
	{ "v2 RDMA2_CONNPROP zero-length = defaults",
	  .words = cv_w_v2_connprop_defaults,
	  .nwords = ARRAY_SIZE(cv_w_v2_connprop_defaults),
	  .exp = &cv_e_v2_connprop_defaults },
	{ "v2 RDMA2_CONNPROP unknown properties skipped",
	  .words = cv_w_v2_connprop_unknown,
	  .nwords = ARRAY_SIZE(cv_w_v2_connprop_unknown),
	  .exp = &cv_e_v2_connprop_unknown },
	{ "v2 RDMA2_CONNPROP empty propset", .words = cv_w_v2_connprop_empty,
	  .nwords = ARRAY_SIZE(cv_w_v2_connprop_empty),
	  .exp = &cv_e_v2_connprop_empty },
};

/* ------------------------------------------------------------------ */
/* Headers the decoder must reject, one per rule                       */
/* ------------------------------------------------------------------ */

static const u32 cv_w_vers3[] = {
	0x13579bdf,	/* rdma_xid */
	0x00000003,	/* rdma_vers = 3: unsupported */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype */
	0x00000000,
	0x00000000,
	0x00000000,
};

static const u32 cv_rw_vers3[] = {
	0x13579bdf,	/* rdma_xid, copied */
	0x00000003,	/* rdma_vers, copied (RFC 8166 §4.5) */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000001,	/* err = ERR_VERS */
	0x00000001,	/*   rdma_vers_low = 1 */
	0x00000002,	/*   rdma_vers_high = 2 */
};

static const u32 cv_w_vers0_short[] = {
	0x13579bdf,	/* rdma_xid */
	0x00000000,	/* rdma_vers = 0 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype */
	0x00000000,	/* 20 bytes: below the 28-byte minimum */
};

static const u32 cv_w_v1_htype5[] = {
	0x0000abcd,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000005,	/* rdma_proc = 5: not a v1 procedure */
	0x00000000,
	0x00000000,
	0x00000000,
};

static const u32 cv_rw_v1_htype5[] = {
	0x0000abcd,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000002,	/* err = ERR_CHUNK */
};

static const u32 cv_w_v1_msgp[] = {
	0x0000abce,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000002,	/* rdma_proc = RDMA_MSGP */
	0x00000040,	/* rdma_align */
	0x00000400,	/* rdma_thresh */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
};

static const u32 cv_rw_v1_msgp[] = {
	0x0000abce,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000002,	/* err = ERR_CHUNK (RFC 8166 §4.6.1) */
};

static const u32 cv_w_v1_done[] = {
	0x0000abcf,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000003,	/* rdma_proc = RDMA_DONE (void body) */
};

static const u32 cv_w_v1_read_bad_bool[] = {
	0x11223344,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000002,	/* rdma_reads: 2 is not an XDR bool */
	0x00000000,
	0x00000000,
	0x11223344,	/* RPC: xid */
};

static const u32 cv_w_v2_write_bad_bool[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0xffffffff,	/* rdma_writes: not an XDR bool */
	0x00000000,
	0x01020304,
};

static const u32 cv_w_v2_reply_bad_bool[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000100,	/* rdma_reply: not an XDR bool */
	0x01020304,
};

static const u32 cv_rw_v2_bad_xdr[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000002,	/* rdma_err = RDMA2_ERR_BAD_XDR */
};

/* Three read segments at positions 128, 160, 192: three Read chunks */
static const u32 cv_w_v2_three_read_chunks[] = {
	0x0000beef,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000080,	/*   position 128 */
	0x00000001,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000a0,	/*   position 160 */
	0x00000002,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000001,	/* next: present */
	0x000000c0,	/*   position 192 */
	0x00000003,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000000,	/* next: end */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x0000beef,	/* RPC: xid */
};

static const u32 cv_rw_v2_read_chunks_1[] = {
	0x0000beef,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000004,	/* rdma_err = RDMA2_ERR_READ_CHUNKS */
	0x00000001,	/*   rdma_max_chunks = 1 */
};

static const u32 cv_rw_v2_read_chunks_0[] = {
	0x0000beef,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000004,	/* rdma_err = RDMA2_ERR_READ_CHUNKS */
	0x00000000,	/*   rdma_max_chunks = 0 (§5.3.3) */
};

static const u32 cv_rw_v2_segments_2[] = {
	0x00001001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000006,	/* rdma_err = RDMA2_ERR_SEGMENTS */
	0x00000002,	/*   rdma_max_segments = 2 */
};

static const u32 cv_rw_v1_read_three_pos[] = {
	0x00002002,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000002,	/* err = ERR_CHUNK */
};

static const u32 cv_w_v1_position_unaligned[] = {
	0x11223344,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000001,	/* rdma_reads: present */
	0x00000082,	/*   position 130: not a multiple of 4 */
	0x00000001,	/*   handle */
	0x00000004,	/*   length */
	0x00000000,	/*   offset (high) */
	0x00000000,	/*   offset (low) */
	0x00000000,	/* next: end */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x11223344,	/* RPC: xid */
};

/* Write list of two chunks, of 2 segments and 1 segment */
static const u32 cv_w_v2_two_write_chunks[] = {
	0x00005678,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000001,	/* rdma_writes: present */
	0x00000002,	/*   2 segments */
	0x00000001,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
	0x00000002,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00001000,	/*     offset (low) */
	0x00000001,	/* next: present */
	0x00000001,	/*   1 segment */
	0x00000003,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00002000,	/*     offset (low) */
	0x00000000,	/* next: end */
	0x00000000,	/* rdma_reply */
	0x00005678,	/* RPC: xid */
};

static const u32 cv_rw_v2_write_chunks_1[] = {
	0x00005678,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000005,	/* rdma_err = RDMA2_ERR_WRITE_CHUNKS */
	0x00000001,	/*   rdma_max_chunks = 1 */
};

static const u32 cv_rw_v2_segments_1[] = {
	0x00005678,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000006,	/* rdma_err = RDMA2_ERR_SEGMENTS */
	0x00000001,	/*   rdma_max_segments = 1 */
};

static const u32 cv_w_v2_reply_two_segs[] = {
	0x00005679,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000001,	/* rdma_reply: present */
	0x00000002,	/*   2 segments */
	0x00000001,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
	0x00000002,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00001000,	/*     offset (low) */
};

static const u32 cv_w_v2_huge_count[] = {
	0x00005678,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000001,	/* rdma_writes: present */
	0x10000001,	/*   segment count: 0x10000001 * 16 wraps to 16 */
	0x00000001,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
	0x00000000,	/* next: end */
	0x00000000,	/* rdma_reply */
	0x00005678,	/* RPC: xid */
};

static const u32 cv_w_v2_reply_count_overrun[] = {
	0x00005678,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000001,	/* rdma_reply: present */
	0x00000002,	/*   2 segments, but only 1 follows */
	0x00000001,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
};

static const u32 cv_w_v2_inv_mismatch[] = {
	0x00c0ffee,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000080,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x0000a003,	/* rdma_inv_handle: no segment has this handle */
	0x00000000,	/* rdma_reads */
	0x00000001,	/* rdma_writes: present */
	0x00000001,	/*   1 segment */
	0x0000a001,	/*     handle */
	0x00008000,	/*     length */
	0x00007f00,	/*     offset (high) */
	0x12340000,	/*     offset (low) */
	0x00000000,	/* next: end */
	0x00000000,	/* rdma_reply */
	0x00c0ffee,	/* RPC: xid */
	0x00000000,	/* RPC: CALL */
};

static const u32 cv_w_v2_inv_no_chunks[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags */
	0x00000001,	/* rdma_inv_handle: but no handles at all */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x01020304,	/* RPC: xid */
};

static const u32 cv_w_v1_nomsg_empty[] = {
	0x11223344,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_proc = RDMA_NOMSG */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present (RFC 8166 §4.5.2) */
};

static const u32 cv_w_v2_nomsg_empty[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000000,	/* rdma_flags */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const u32 cv_w_v1_xid_mismatch[] = {
	0x11223344,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_proc = RDMA_MSG */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x11223345,	/* RPC: xid differs from rdma_xid */
	0x00000000,	/* RPC: CALL */
};

static const u32 cv_w_v2_call_flagged_response[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE ... */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x01020304,	/* RPC: xid */
	0x00000000,	/* RPC: ... but msg_type CALL */
};

static const u32 cv_w_v2_reply_not_flagged[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000000,	/* rdma_flags: no RESPONSE ... */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x01020304,	/* RPC: xid */
	0x00000001,	/* RPC: ... but msg_type REPLY */
};

static const u32 cv_w_v2_reserved_flag[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x80000000,	/* rdma_flags: a reserved bit (§3.2) */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x01020304,	/* RPC: xid */
};

static const u32 cv_w_v2_err_reserved_flag[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000003,	/* rdma_flags: RESPONSE + a reserved bit */
	0x00000002,	/* rdma_err = RDMA2_ERR_BAD_XDR */
};

static const u32 cv_w_v2_htype2[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000002,	/* rdma_htype = 2: RDMA_MSGP is not a v2 type */
	0x00000000,	/* rdma_flags */
};

static const u32 cv_rw_v2_inval_htype[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000003,	/* rdma_err = RDMA2_ERR_INVAL_HTYPE */
};

static const u32 cv_w_v2_htype_max[] = {
	0x01020304,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0xffffffff,	/* rdma_htype: unknown */
};

static const u32 cv_w_v2_err_from_requester[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000000,	/* rdma_flags: RESPONSE missing (§3.2) */
	0x00000009,	/* rdma_err = RDMA2_ERR_SYSTEM */
};

static const u32 cv_w_v1_err_unknown[] = {
	0x8899aabb,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000001,	/* rdma_credit */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000003,	/* err = 3: not an rpc_rdma_errcode */
};

static const u32 cv_w_v2_rbsiz_short[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000001,	/* rdma_props: 1 propval */
	0x00000001,	/*   rdma_which = RDMA2_PROPID_RBSIZ */
	0x00000002,	/*   rdma_data: 2 bytes, too short for a uint32 */
	0x10000000,	/*     data + padding */
};

static const u32 cv_w_v2_rbsiz_long[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000001,	/* rdma_props: 1 propval */
	0x00000001,	/*   rdma_which = RDMA2_PROPID_RBSIZ */
	0x00000008,	/*   rdma_data: 8 bytes, not a uint32 */
	0x00000000,	/*     data */
	0x00002000,	/*     data */
};

static const u32 cv_w_v2_brs_bad_enum[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000001,	/* rdma_props: 1 propval */
	0x00000002,	/*   rdma_which = RDMA2_PROPID_BRS */
	0x00000004,	/*   rdma_data: 4 bytes */
	0x00000003,	/*     3: not an rpcrdma2_rvreqsup */
};

static const u32 cv_w_v2_propval_overrun[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x00000001,	/* rdma_props: 1 propval */
	0x00000100,	/*   rdma_which = 256 (unknown) */
	0x00000009,	/*   rdma_data: 9 bytes, 8 follow (§4.1) */
	0x00000000,	/*     data */
	0x00000000,	/*     data */
};

static const u32 cv_w_v2_propset_huge[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000001,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000000,	/* rdma_flags */
	0x40000000,	/* rdma_props: 2^30 propvals */
	0x00000001,	/*   rdma_which = RDMA2_PROPID_RBSIZ */
	0x00000000,	/*   rdma_data: empty */
};

/* 24 bytes: not the RFC 8166 layout either (that has 28) */
static const u32 cv_w_v2_err_vers_short_arm[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000001,	/* rdma_err = RDMA2_ERR_VERS; no arm */
};

/* 28 bytes whose arm is cut short, and as RFC 8166's layout 7..1 */
static const u32 cv_w_v2_err_write_resource_short_arm[] = {
	0x5a5a0001,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000007,	/* rdma_err = RDMA2_ERR_WRITE_RESOURCE */
	0x00000001,	/*   rdma_chunk_index; rdma_length_needed missing */
};

/* ERR_VERS from an endpoint whose limits say 1..1 */
static const u32 cv_rw_vers3_v1_only[] = {
	0x13579bdf,	/* rdma_xid, copied */
	0x00000003,	/* rdma_vers, copied (RFC 8166 §4.5) */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000001,	/* err = ERR_VERS */
	0x00000001,	/*   rdma_vers_low = 1 */
	0x00000001,	/*   rdma_vers_high = 1 */
};

/* draft v2 §7.2: the answer to v2 from a v1-only server, v2 layout */
static const u32 cv_rw_v2_msg_v1_only[] = {
	0x01020304,	/* rdma_xid, copied */
	0x00000002,	/* rdma_vers, copied */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000001,	/* rdma_err = RDMA2_ERR_VERS */
	0x00000001,	/*   rdma_vers_low = 1 */
	0x00000001,	/*   rdma_vers_high = 1 */
};

/* the answer to v1 from a v2-only endpoint (RFC 8166 §4.5.1) */
static const u32 cv_rw_v1_msg_v2_only[] = {
	0x11223344,	/* rdma_xid, copied */
	0x00000001,	/* rdma_vers, copied */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000001,	/* err = ERR_VERS */
	0x00000002,	/*   rdma_vers_low = 2 */
	0x00000002,	/*   rdma_vers_high = 2 */
};

/* draft v2 §5.3.3: no Write chunks at all -> RDMA2_ERR_REPLY_RESOURCE */
static const u32 cv_rw_v2_reply_resource_0[] = {
	0x00005678,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000008,	/* rdma_err = RDMA2_ERR_REPLY_RESOURCE */
	0x00000000,	/*   rdma_length_needed = 0 (caller may fill in) */
};

/* RFC 8166 §4.2.4: an empty Write chunk cannot hold the Payload stream */
static const u32 cv_w_v1_nomsg_write_only[] = {
	0x11223346,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_proc = RDMA_NOMSG */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000000,	/*   write chunk: 0 segments */
	0x00000000,	/* next: end of Write list */
	0x00000000,	/* rdma_reply: not present */
};

/* a Read chunk at position 8 holds one data item, not the message */
static const u32 cv_w_v1_nomsg_read_pos8[] = {
	0x11223347,	/* rdma_xid */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_proc = RDMA_NOMSG */
	0x00000001,	/* rdma_reads: present */
	0x00000008,	/*   position 8 */
	0x0000c001,	/*   handle */
	0x00000100,	/*   length 256 */
	0x00000000,	/*   offset (high) */
	0x10000000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

static const u32 cv_rw_v1_nomsg_read_pos8[] = {
	0x11223347,	/* rdma_xid, copied */
	0x00000001,	/* rdma_vers = 1 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000002,	/* err = ERR_CHUNK (RFC 8166 §4.5.2) */
};

/* draft v2 §3.2, §5.3.2: a Call (RESPONSE clear) needs a PZRC */
static const u32 cv_w_v2_nomsg_call_reply_only[] = {
	0x0f0e0d0d,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000010,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000000,	/* rdma_flags: call */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000001,	/* rdma_reply: present (but a Call is not in it) */
	0x00000001,	/*   1 segment */
	0x0000e003,	/*     handle */
	0x00001000,	/*     length 4096 */
	0x00000000,	/*     offset (high) */
	0x00600000,	/*     offset (low) */
};

static const u32 cv_rw_v2_nomsg_call_reply_only[] = {
	0x0f0e0d0d,	/* rdma_xid, copied */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit = CV_CREDITS */
	0x00000004,	/* rdma_htype = RDMA2_ERROR */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000002,	/* rdma_err = RDMA2_ERR_BAD_XDR */
};

/* draft v2 §3.2, §5.3.2: a Reply (RESPONSE set) needs the Reply chunk */
static const u32 cv_w_v2_nomsg_reply_write_only[] = {
	0x0f0e0d0e,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000010,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000001,	/* rdma_writes: present */
	0x00000001,	/*   write chunk: 1 segment */
	0x0000a001,	/*     handle */
	0x00002000,	/*     length 8192 */
	0x00000000,	/*     offset (high) */
	0x00700000,	/*     offset (low) */
	0x00000000,	/* next: end of Write list */
	0x00000000,	/* rdma_reply: not present */
};

/* RFC 8166 §4.3.1: "Responders MUST leave the Read list empty" */
static const u32 cv_w_v2_reply_with_read[] = {
	0x00c0fff0,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000080,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000001,	/* rdma_reads: present */
	0x00000010,	/*   position 16 */
	0x0000c001,	/*   handle */
	0x00000200,	/*   length 512 */
	0x00000000,	/*   offset (high) */
	0x20000000,	/*   offset (low) */
	0x00000000,	/* next: end of Read list */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
	0x00c0fff0,	/* RPC: xid */
	0x00000001,	/* RPC: msg_type REPLY */
};

/*
 * v2 replies (RPCRDMA2_F_RESPONSE set) that break a rule: a requester
 * "MUST silently discard" them (RFC 8166 §4.5), so the decoder says
 * discard whatever the rule, and keeps the reason. Each is the twin of a
 * Call above that earns an error reply.
 */
static const u32 cv_w_v2_htype2_reply[] = {
	0x01020305,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000002,	/* rdma_htype = 2: not a v2 type */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
};

static const u32 cv_w_v2_reserved_flag_reply[] = {
	0x01020306,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x80000001,	/* rdma_flags: RESPONSE + a reserved bit (§3.2) */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000000,	/* rdma_reply */
	0x01020306,	/* RPC: xid */
	0x00000001,	/* RPC: msg_type REPLY */
};

static const u32 cv_w_v2_write_bad_bool_reply[] = {
	0x01020307,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0xffffffff,	/* rdma_writes: not an XDR bool */
	0x00000000,
	0x01020307,
};

static const u32 cv_w_v2_reply_count_overrun_reply[] = {
	0x00005679,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000000,	/* rdma_writes */
	0x00000001,	/* rdma_reply: present */
	0x00000002,	/*   2 segments, but only 1 follows */
	0x00000001,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
};

/* a READ/READ reply returning two Write chunks, of 2 segments and 1 */
static const u32 cv_w_v2_two_write_chunks_reply[] = {
	0x0000567a,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000000,	/* rdma_htype = RDMA2_MSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads */
	0x00000001,	/* rdma_writes: present */
	0x00000002,	/*   2 segments */
	0x00000001,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00000000,	/*     offset (low) */
	0x00000002,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00001000,	/*     offset (low) */
	0x00000001,	/* next: present */
	0x00000001,	/*   1 segment */
	0x00000003,	/*     handle */
	0x00001000,	/*     length */
	0x00000000,	/*     offset (high) */
	0x00002000,	/*     offset (low) */
	0x00000000,	/* next: end */
	0x00000000,	/* rdma_reply */
	0x0000567a,	/* RPC: xid */
	0x00000001,	/* RPC: msg_type REPLY */
};

static const u32 cv_w_v2_nomsg_empty_reply[] = {
	0x01020308,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000020,	/* rdma_credit */
	0x00000001,	/* rdma_htype = RDMA2_NOMSG */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000000,	/* rdma_inv_handle */
	0x00000000,	/* rdma_reads: not present */
	0x00000000,	/* rdma_writes: not present */
	0x00000000,	/* rdma_reply: not present */
};

/* the server's RDMA2_CONNPROP (RESPONSE set, §3.2) with a bad BRS */
static const u32 cv_w_v2_brs_bad_enum_reply[] = {
	0x00000000,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000040,	/* rdma_credit */
	0x00000005,	/* rdma_htype = RDMA2_CONNPROP */
	0x00000001,	/* rdma_flags = RPCRDMA2_F_RESPONSE */
	0x00000001,	/* rdma_props: 1 propval */
	0x00000002,	/*   rdma_which = RDMA2_PROPID_BRS */
	0x00000004,	/*   rdma_data: 4 bytes */
	0x00000003,	/*     3: not an rpcrdma2_rvreqsup */
};

/*
 * RFC 8166 §4.5's ERR_VERS layout with an empty range: not that layout,
 * and as RDMA2_ERROR (rdma_flags 1 = RESPONSE) ERR_VERS without room for
 * its arm. An error that cannot be decoded is discarded (§4.5).
 */
static const u32 cv_w_v2_err_vers_v1_layout_bad[] = {
	0x5a5a0002,	/* rdma_xid */
	0x00000002,	/* rdma_vers = 2 */
	0x00000008,	/* rdma_credit */
	0x00000004,	/* rdma_proc = RDMA_ERROR */
	0x00000001,	/* err = ERR_VERS (rdma_flags = RESPONSE in v2) */
	0x00000001,	/*   rdma_vers_low = 1 (rdma_err ERR_VERS in v2) */
	0x00000000,	/*   rdma_vers_high = 0: low > high */
};

static const struct cv_vec cv_invalid[] = {
	{ "reject: 15 bytes, shorter than the fixed words",
	  .words = cv_w_v1_msg, .nwords = ARRAY_SIZE(cv_w_v1_msg), .len = 15,
	  .rc = -EIO, .reason = RPCRDMA2_REASON_SHORT, .discard = true },
	{ "reject: v1 RDMA_MSG of 24 bytes (RFC 8166 §4.5)",
	  .words = cv_w_v1_msg, .nwords = ARRAY_SIZE(cv_w_v1_msg), .len = 24,
	  .rc = -EIO, .reason = RPCRDMA2_REASON_SHORT, .discard = true },
	{ "reject: rdma_vers 3 -> ERR_VERS 1..2", .words = cv_w_vers3,
	  .nwords = ARRAY_SIZE(cv_w_vers3), .rc = -EPROTONOSUPPORT,
	  .reason = RPCRDMA2_REASON_VERS,
	  .reply = { .code = RPCRDMA2_ERR_VERS, .vers = { 1, 2 } },
	  .reply_words = cv_rw_vers3,
	  .reply_nwords = ARRAY_SIZE(cv_rw_vers3) },
	{ "reject: rdma_vers 3, limits 1..1 -> ERR_VERS 1..1",
	  .words = cv_w_vers3, .nwords = ARRAY_SIZE(cv_w_vers3),
	  .lim = &cv_lim_v1_only, .rc = -EPROTONOSUPPORT,
	  .reason = RPCRDMA2_REASON_VERS,
	  .reply = { .code = RPCRDMA2_ERR_VERS, .vers = { 1, 1 } },
	  .reply_words = cv_rw_vers3_v1_only,
	  .reply_nwords = ARRAY_SIZE(cv_rw_vers3_v1_only) },
	{ "reject: v2 RDMA2_MSG, limits 1..1 -> RDMA2_ERR_VERS 1..1",
	  .words = cv_w_v2_reply_not_flagged,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_not_flagged),
	  .lim = &cv_lim_v1_only, .rc = -EPROTONOSUPPORT,
	  .reason = RPCRDMA2_REASON_VERS,
	  .reply = { .code = RPCRDMA2_ERR_VERS, .vers = { 1, 1 } },
	  .reply_words = cv_rw_v2_msg_v1_only,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_msg_v1_only) },
	{ "reject: v1 RDMA_MSG, limits 2..2 -> ERR_VERS 2..2",
	  .words = cv_w_v1_msg, .nwords = ARRAY_SIZE(cv_w_v1_msg),
	  .lim = &cv_lim_v2_only, .rc = -EPROTONOSUPPORT,
	  .reason = RPCRDMA2_REASON_VERS,
	  .reply = { .code = RPCRDMA2_ERR_VERS, .vers = { 2, 2 } },
	  .reply_words = cv_rw_v1_msg_v2_only,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v1_msg_v2_only) },
	{ "reject: v2 RDMA2_ERROR, limits 1..1 is discarded",
	  .words = cv_w_v2_err_vers, .nwords = ARRAY_SIZE(cv_w_v2_err_vers),
	  .lim = &cv_lim_v1_only, .rc = -EPROTONOSUPPORT,
	  .reason = RPCRDMA2_REASON_VERS, .discard = true },
	{ "reject: rdma_vers 0 in 20 bytes is discarded",
	  .words = cv_w_vers0_short, .nwords = ARRAY_SIZE(cv_w_vers0_short),
	  .rc = -EIO, .reason = RPCRDMA2_REASON_SHORT, .discard = true },
	{ "reject: v1 rdma_proc 5 -> ERR_CHUNK", .words = cv_w_v1_htype5,
	  .nwords = ARRAY_SIZE(cv_w_v1_htype5), .rc = -EOPNOTSUPP,
	  .reason = RPCRDMA2_REASON_HTYPE,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK },
	  .reply_words = cv_rw_v1_htype5,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v1_htype5) },
	{ "reject: v1 RDMA_MSGP -> ERR_CHUNK", .words = cv_w_v1_msgp,
	  .nwords = ARRAY_SIZE(cv_w_v1_msgp), .rc = -EOPNOTSUPP,
	  .reason = RPCRDMA2_REASON_MSGP,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK },
	  .reply_words = cv_rw_v1_msgp,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v1_msgp) },
	{ "reject: v1 RDMA_DONE is discarded", .words = cv_w_v1_done,
	  .nwords = ARRAY_SIZE(cv_w_v1_done), .rc = -EOPNOTSUPP,
	  .reason = RPCRDMA2_REASON_DONE, .discard = true },
	{ "reject: v1 RDMA_MSG of 30 bytes -> ERR_CHUNK", .words = cv_w_v1_msg,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg), .len = 30, .rc = -EIO,
	  .reason = RPCRDMA2_REASON_UNALIGNED,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 RDMA2_MSG of 41 bytes -> BAD_XDR", .words = cv_w_v2_msg,
	  .nwords = ARRAY_SIZE(cv_w_v2_msg), .len = 41, .rc = -EIO,
	  .reason = RPCRDMA2_REASON_UNALIGNED,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v1 Read list discriminator 2 -> ERR_CHUNK",
	  .words = cv_w_v1_read_bad_bool,
	  .nwords = ARRAY_SIZE(cv_w_v1_read_bad_bool), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_BAD_BOOL,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 Write list discriminator -1 -> BAD_XDR",
	  .words = cv_w_v2_write_bad_bool,
	  .nwords = ARRAY_SIZE(cv_w_v2_write_bad_bool), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_BAD_BOOL,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR },
	  .reply_words = cv_rw_v2_bad_xdr,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_bad_xdr) },
	{ "reject: v2 Reply chunk discriminator 256 -> BAD_XDR",
	  .words = cv_w_v2_reply_bad_bool,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_bad_bool), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_BAD_BOOL,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 3 Read chunks, limit 1 -> READ_CHUNKS(1)",
	  .words = cv_w_v2_three_read_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_three_read_chunks), .lim = &cv_lim_one,
	  .rc = -E2BIG, .reason = RPCRDMA2_REASON_READ_CHUNKS,
	  .reply = { .code = RPCRDMA2_ERR_READ_CHUNKS, .max_chunks = 1 },
	  .reply_words = cv_rw_v2_read_chunks_1,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_read_chunks_1) },
	{ "reject: v2 Read chunk, limit 0 -> READ_CHUNKS(0)",
	  .words = cv_w_v2_three_read_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_three_read_chunks),
	  .lim = &cv_lim_zero_reads, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_READ_CHUNKS,
	  .reply = { .code = RPCRDMA2_ERR_READ_CHUNKS, .max_chunks = 0 },
	  .reply_words = cv_rw_v2_read_chunks_0,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_read_chunks_0) },
	{ "reject: v1 2 Read chunks, limit 1 -> ERR_CHUNK",
	  .words = cv_w_v1_msg_reads, .nwords = ARRAY_SIZE(cv_w_v1_msg_reads),
	  .lim = &cv_lim_one_read, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_READ_CHUNKS,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 Read chunk of 2 segments, limit 1 -> SEGMENTS(1)",
	  .words = cv_w_v2_write_call, .nwords = ARRAY_SIZE(cv_w_v2_write_call),
	  .lim = &cv_lim_one_seg, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_SEGMENTS,
	  .reply = { .code = RPCRDMA2_ERR_SEGMENTS, .max_segs = 1 } },
	{ "reject: v2 3 segments at 100, none adjacent, limit 2 -> SEGMENTS(2)",
	  .words = cv_w_v2_read_interleaved,
	  .nwords = ARRAY_SIZE(cv_w_v2_read_interleaved),
	  .lim = &cv_lim_two_segs, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_SEGMENTS,
	  .reply = { .code = RPCRDMA2_ERR_SEGMENTS, .max_segs = 2 },
	  .reply_words = cv_rw_v2_segments_2,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_segments_2) },
	{ "reject: v1 Read positions 100 200 100 300, limit 2 -> ERR_CHUNK",
	  .words = cv_w_v1_read_three_pos,
	  .nwords = ARRAY_SIZE(cv_w_v1_read_three_pos),
	  .lim = &cv_lim_two_reads, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_READ_CHUNKS,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK },
	  .reply_words = cv_rw_v1_read_three_pos,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v1_read_three_pos) },
	{ "reject: v2 2 Write chunks, limit 1 -> WRITE_CHUNKS(1)",
	  .words = cv_w_v2_two_write_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_two_write_chunks),
	  .lim = &cv_lim_one_write, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_WRITE_CHUNKS,
	  .reply = { .code = RPCRDMA2_ERR_WRITE_CHUNKS, .max_chunks = 1 },
	  .reply_words = cv_rw_v2_write_chunks_1,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_write_chunks_1) },
	{ "reject: v2 Write chunk of 2 segments, limit 1 -> SEGMENTS(1)",
	  .words = cv_w_v2_two_write_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_two_write_chunks),
	  .lim = &cv_lim_one_seg, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_SEGMENTS,
	  .reply = { .code = RPCRDMA2_ERR_SEGMENTS, .max_segs = 1 },
	  .reply_words = cv_rw_v2_segments_1,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_segments_1) },
	{ "reject: v2 Reply chunk of 2 segments, limit 1 -> SEGMENTS(1)",
	  .words = cv_w_v2_reply_two_segs,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_two_segs), .lim = &cv_lim_one_seg,
	  .rc = -E2BIG, .reason = RPCRDMA2_REASON_SEGMENTS,
	  .reply = { .code = RPCRDMA2_ERR_SEGMENTS, .max_segs = 1 } },
	{ "reject: v2 Write chunk, limit 0 -> REPLY_RESOURCE (§5.3.3)",
	  .words = cv_w_v2_two_write_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_two_write_chunks),
	  .lim = &cv_lim_zero_writes, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_WRITE_CHUNKS,
	  .reply = { .code = RPCRDMA2_ERR_REPLY_RESOURCE,
		     .length_needed = 0 },
	  .reply_words = cv_rw_v2_reply_resource_0,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_reply_resource_0) },
	{ "reject: v1 Write chunk, limit 0 -> ERR_CHUNK",
	  .words = cv_w_v1_msg_read_call,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg_read_call),
	  .lim = &cv_lim_zero_writes, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_WRITE_CHUNKS,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v1 Write chunk of 2 segments, limit 1 -> ERR_CHUNK",
	  .words = cv_w_v1_msg_read_call,
	  .nwords = ARRAY_SIZE(cv_w_v1_msg_read_call), .lim = &cv_lim_one,
	  .rc = -E2BIG, .reason = RPCRDMA2_REASON_SEGMENTS,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 segment count 0x10000001 -> BAD_XDR",
	  .words = cv_w_v2_huge_count, .nwords = ARRAY_SIZE(cv_w_v2_huge_count),
	  .rc = -EIO, .reason = RPCRDMA2_REASON_TRUNCATED,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 Reply chunk count overruns -> BAD_XDR",
	  .words = cv_w_v2_reply_count_overrun,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_count_overrun), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_TRUNCATED,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v1 Read position 130 -> ERR_CHUNK",
	  .words = cv_w_v1_position_unaligned,
	  .nwords = ARRAY_SIZE(cv_w_v1_position_unaligned), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_POSITION,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 rdma_inv_handle matches no handle -> BAD_XDR",
	  .words = cv_w_v2_inv_mismatch,
	  .nwords = ARRAY_SIZE(cv_w_v2_inv_mismatch), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_INV_HANDLE,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 rdma_inv_handle without any chunk -> BAD_XDR",
	  .words = cv_w_v2_inv_no_chunks,
	  .nwords = ARRAY_SIZE(cv_w_v2_inv_no_chunks), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_INV_HANDLE,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v1 RDMA_NOMSG without chunks -> ERR_CHUNK",
	  .words = cv_w_v1_nomsg_empty,
	  .nwords = ARRAY_SIZE(cv_w_v1_nomsg_empty), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_EMPTY,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 RDMA2_NOMSG without chunks -> BAD_XDR",
	  .words = cv_w_v2_nomsg_empty,
	  .nwords = ARRAY_SIZE(cv_w_v2_nomsg_empty), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_EMPTY,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v1 RDMA_NOMSG with only an empty Write chunk",
	  .words = cv_w_v1_nomsg_write_only,
	  .nwords = ARRAY_SIZE(cv_w_v1_nomsg_write_only), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_CHUNK,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v1 RDMA_NOMSG with only a Read chunk at 8",
	  .words = cv_w_v1_nomsg_read_pos8,
	  .nwords = ARRAY_SIZE(cv_w_v1_nomsg_read_pos8), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_CHUNK,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK },
	  .reply_words = cv_rw_v1_nomsg_read_pos8,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v1_nomsg_read_pos8) },
	{ "reject: v2 RDMA2_NOMSG call with only a Reply chunk",
	  .words = cv_w_v2_nomsg_call_reply_only,
	  .nwords = ARRAY_SIZE(cv_w_v2_nomsg_call_reply_only), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_CHUNK,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR },
	  .reply_words = cv_rw_v2_nomsg_call_reply_only,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_nomsg_call_reply_only) },
	{ "reject: v2 RDMA2_NOMSG reply without a Reply chunk is discarded",
	  .words = cv_w_v2_nomsg_reply_write_only,
	  .nwords = ARRAY_SIZE(cv_w_v2_nomsg_reply_write_only), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_CHUNK, .discard = true },
	{ "reject: v2 reply with a Read list is discarded (RFC 8166 §4.3.1)",
	  .words = cv_w_v2_reply_with_read,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_with_read), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_REPLY_READS, .discard = true },
	{ "reject: v1 RDMA_MSG without RPC message -> ERR_CHUNK",
	  .words = cv_w_v1_msg, .nwords = ARRAY_SIZE(cv_w_v1_msg), .len = 28,
	  .rc = -EIO, .reason = RPCRDMA2_REASON_NO_PAYLOAD,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 RDMA2_MSG without RPC message -> BAD_XDR",
	  .words = cv_w_v2_msg, .nwords = ARRAY_SIZE(cv_w_v2_msg), .len = 36,
	  .rc = -EIO, .reason = RPCRDMA2_REASON_NO_PAYLOAD,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v1 rdma_xid differs from RPC xid -> ERR_CHUNK",
	  .words = cv_w_v1_xid_mismatch,
	  .nwords = ARRAY_SIZE(cv_w_v1_xid_mismatch), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_XID_MISMATCH,
	  .reply = { .code = RPCRDMA2_V1_ERR_CHUNK } },
	{ "reject: v2 CALL flagged RESPONSE is discarded",
	  .words = cv_w_v2_call_flagged_response,
	  .nwords = ARRAY_SIZE(cv_w_v2_call_flagged_response), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_MSG_TYPE, .discard = true },
	{ "reject: v2 REPLY without RESPONSE -> BAD_XDR",
	  .words = cv_w_v2_reply_not_flagged,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_not_flagged), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_MSG_TYPE,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 reserved flag bit -> BAD_XDR",
	  .words = cv_w_v2_reserved_flag,
	  .nwords = ARRAY_SIZE(cv_w_v2_reserved_flag), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_FLAGS,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 RDMA2_ERROR with reserved flag is discarded",
	  .words = cv_w_v2_err_reserved_flag,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_reserved_flag), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_FLAGS, .discard = true },
	{ "reject: v2 rdma_htype 2 -> INVAL_HTYPE", .words = cv_w_v2_htype2,
	  .nwords = ARRAY_SIZE(cv_w_v2_htype2), .rc = -EOPNOTSUPP,
	  .reason = RPCRDMA2_REASON_HTYPE,
	  .reply = { .code = RPCRDMA2_ERR_INVAL_HTYPE },
	  .reply_words = cv_rw_v2_inval_htype,
	  .reply_nwords = ARRAY_SIZE(cv_rw_v2_inval_htype) },
	{ "reject: v2 rdma_htype 0xffffffff in 16 bytes -> INVAL_HTYPE",
	  .words = cv_w_v2_htype_max, .nwords = ARRAY_SIZE(cv_w_v2_htype_max),
	  .rc = -EOPNOTSUPP, .reason = RPCRDMA2_REASON_HTYPE,
	  .reply = { .code = RPCRDMA2_ERR_INVAL_HTYPE } },
	{ "reject: v2 RDMA2_ERROR from a requester is discarded",
	  .words = cv_w_v2_err_from_requester,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_from_requester), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOT_RESPONSE, .discard = true },
	{ "reject: v2 RDMA2_ERR_VERS without its arm is discarded",
	  .words = cv_w_v2_err_vers_short_arm,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_vers_short_arm), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_TRUNCATED, .discard = true },
	{ "reject: v2 RDMA2_ERR_WRITE_RESOURCE arm truncated is discarded",
	  .words = cv_w_v2_err_write_resource_short_arm,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_write_resource_short_arm),
	  .rc = -EIO, .reason = RPCRDMA2_REASON_TRUNCATED, .discard = true },
	{ "reject: v1 RDMA_ERROR unknown code is discarded",
	  .words = cv_w_v1_err_unknown,
	  .nwords = ARRAY_SIZE(cv_w_v1_err_unknown), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_BAD_ERROR, .discard = true },
	{ "reject: v1 RDMA_ERROR of 22 bytes is discarded",
	  .words = cv_w_v1_err_vers, .nwords = ARRAY_SIZE(cv_w_v1_err_vers),
	  .len = 22, .rc = -EIO, .reason = RPCRDMA2_REASON_UNALIGNED,
	  .discard = true },
	{ "reject: v2 RBSIZ with 2-byte rdma_data -> BAD_XDR",
	  .words = cv_w_v2_rbsiz_short,
	  .nwords = ARRAY_SIZE(cv_w_v2_rbsiz_short), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_PROPVAL,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 RBSIZ with 8-byte rdma_data -> BAD_XDR",
	  .words = cv_w_v2_rbsiz_long, .nwords = ARRAY_SIZE(cv_w_v2_rbsiz_long),
	  .rc = -EIO, .reason = RPCRDMA2_REASON_PROPVAL,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 BRS value 3 -> BAD_XDR", .words = cv_w_v2_brs_bad_enum,
	  .nwords = ARRAY_SIZE(cv_w_v2_brs_bad_enum), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_PROPVAL,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 rdma_data overruns the message -> BAD_XDR",
	  .words = cv_w_v2_propval_overrun,
	  .nwords = ARRAY_SIZE(cv_w_v2_propval_overrun), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_TRUNCATED,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	{ "reject: v2 propset count 2^30 -> BAD_XDR",
	  .words = cv_w_v2_propset_huge,
	  .nwords = ARRAY_SIZE(cv_w_v2_propset_huge), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_TRUNCATED,
	  .reply = { .code = RPCRDMA2_ERR_BAD_XDR } },
	/* v2 replies: the same rules, never answered (RFC 8166 §4.5) */
	{ "reject: v2 reply rdma_htype 2 is discarded",
	  .words = cv_w_v2_htype2_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_htype2_reply), .rc = -EOPNOTSUPP,
	  .reason = RPCRDMA2_REASON_HTYPE, .discard = true },
	{ "reject: v2 reply with a reserved flag bit is discarded",
	  .words = cv_w_v2_reserved_flag_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_reserved_flag_reply), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_FLAGS, .discard = true },
	{ "reject: v2 reply Write list discriminator -1 is discarded",
	  .words = cv_w_v2_write_bad_bool_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_write_bad_bool_reply), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_BAD_BOOL, .discard = true },
	{ "reject: v2 RDMA2_NOMSG reply, Reply chunk count overruns, is discarded",
	  .words = cv_w_v2_reply_count_overrun_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_reply_count_overrun_reply), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_TRUNCATED, .discard = true },
	{ "reject: v2 reply Write chunk of 2 segments, limit 1 is discarded",
	  .words = cv_w_v2_two_write_chunks_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_two_write_chunks_reply),
	  .lim = &cv_lim_one_seg, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_SEGMENTS, .discard = true },
	{ "reject: v2 reply 2 Write chunks, limit 1 is discarded",
	  .words = cv_w_v2_two_write_chunks_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_two_write_chunks_reply),
	  .lim = &cv_lim_one_write, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_WRITE_CHUNKS, .discard = true },
	{ "reject: v2 reply Write chunk, limit 0 is discarded",
	  .words = cv_w_v2_two_write_chunks_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_two_write_chunks_reply),
	  .lim = &cv_lim_zero_writes, .rc = -E2BIG,
	  .reason = RPCRDMA2_REASON_WRITE_CHUNKS, .discard = true },
	{ "reject: v2 RDMA2_NOMSG reply without chunks is discarded",
	  .words = cv_w_v2_nomsg_empty_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_nomsg_empty_reply), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_NOMSG_EMPTY, .discard = true },
	{ "reject: v2 RDMA2_MSG reply without RPC message is discarded",
	  .words = cv_w_v2_read_reply, .nwords = ARRAY_SIZE(cv_w_v2_read_reply),
	  .len = 60, .rc = -EIO, .reason = RPCRDMA2_REASON_NO_PAYLOAD,
	  .discard = true },
	{ "reject: v2 RDMA2_MSG reply of 61 bytes is discarded",
	  .words = cv_w_v2_read_reply, .nwords = ARRAY_SIZE(cv_w_v2_read_reply),
	  .len = 61, .rc = -EIO, .reason = RPCRDMA2_REASON_UNALIGNED,
	  .discard = true },
	{ "reject: v2 RDMA2_MSG reply, limits 1..1 is discarded",
	  .words = cv_w_v2_read_reply, .nwords = ARRAY_SIZE(cv_w_v2_read_reply),
	  .lim = &cv_lim_v1_only, .rc = -EPROTONOSUPPORT,
	  .reason = RPCRDMA2_REASON_VERS, .discard = true },
	{ "reject: v2 RDMA2_CONNPROP flagged RESPONSE, BRS 3 is discarded",
	  .words = cv_w_v2_brs_bad_enum_reply,
	  .nwords = ARRAY_SIZE(cv_w_v2_brs_bad_enum_reply), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_PROPVAL, .discard = true },
	{ "reject: v2 ERR_VERS 1..0 in the RFC 8166 layout is discarded",
	  .words = cv_w_v2_err_vers_v1_layout_bad,
	  .nwords = ARRAY_SIZE(cv_w_v2_err_vers_v1_layout_bad), .rc = -EIO,
	  .reason = RPCRDMA2_REASON_TRUNCATED, .discard = true },
};

/* ------------------------------------------------------------------ */
/* Helpers shared by the test drivers                                  */
/* ------------------------------------------------------------------ */

static inline u32 cv_len(const struct cv_vec *v)
{
	return v->len ? v->len : v->nwords * 4;
}

/* Store a vector's words big-endian into @buf (CV_BUF_SIZE bytes) */
static inline void cv_bytes(const u32 *words, u32 nwords, u8 *buf)
{
	u32 i;

	for (i = 0; i < nwords; i++)
		put_unaligned_be32(words[i], buf + 4 * i);
}

/* Is @v a v2 header long enough to hold rdma_flags? */
static inline bool cv_is_v2(const struct cv_vec *v)
{
	return v->nwords > 1 && v->words[1] == RPCRDMA2_VERS_2 &&
	       cv_len(v) >= RPCRDMA2_V2_PREFIX_SIZE;
}

/* Set RPCRDMA2_F_RESPONSE in the rdma_flags word of a v2 header in @buf */
static inline void cv_set_response(u8 *buf)
{
	u8 *flags = buf + RPCRDMA2_FIXED_SIZE;

	put_unaligned_be32(get_unaligned_be32(flags) | RPCRDMA2_F_RESPONSE,
			   flags);
}

static inline const struct rpcrdma2_limits *cv_lim(const struct cv_vec *v)
{
	return v->lim ? v->lim : &cv_lim_default;
}

static inline bool cv_ne(u64 a, u64 b, u64 *got, u64 *want)
{
	*got = a;
	*want = b;
	return a != b;
}

/**
 * cv_diff - compare a decoded header with its expectation
 * @e: expected values
 * @h: decoded header
 * @got: the mismatching value found
 * @want: the value expected
 *
 * Return: NULL if equal, else the name of the first field that differs.
 */
static inline const char *cv_diff(const struct cv_expect *e,
				  const struct rpcrdma2_hdr *h, u64 *got,
				  u64 *want)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	u32 i;

	if (cv_ne(h->xid, e->xid, got, want))
		return "xid";
	if (cv_ne(h->vers, e->vers, got, want))
		return "vers";
	if (cv_ne(h->credits, e->credits, got, want))
		return "credits";
	if (cv_ne(h->htype, e->htype, got, want))
		return "htype";
	if (cv_ne(h->flags, e->flags, got, want))
		return "flags";
	if (cv_ne(h->hdr_len, e->hdr_len, got, want))
		return "hdr_len";
	if (cv_ne(h->rpc_len, e->rpc_len, got, want))
		return "rpc_len";
	if (cv_ne(cl->inv_handle, e->inv_handle, got, want))
		return "inv_handle";
	if (cv_ne(cl->nr_reads, e->nr_reads, got, want))
		return "nr_reads";
	if (cv_ne(cl->nr_read_chunks, e->nr_read_chunks, got, want))
		return "nr_read_chunks";
	if (cv_ne(cl->nr_writes, e->nr_writes, got, want))
		return "nr_writes";
	if (cv_ne(cl->nr_segs, e->nr_segs, got, want))
		return "nr_segs";
	if (cv_ne(cl->has_reply, e->has_reply, got, want))
		return "has_reply";
	if (cv_ne(cl->reply.first, e->reply.first, got, want))
		return "reply.first";
	if (cv_ne(cl->reply.nsegs, e->reply.nsegs, got, want))
		return "reply.nsegs";
	for (i = 0; i < e->nr_reads; i++) {
		if (cv_ne(cl->reads[i].position, e->reads[i].position, got, want))
			return "read.position";
		if (cv_ne(cl->reads[i].seg.handle, e->reads[i].seg.handle, got, want))
			return "read.handle";
		if (cv_ne(cl->reads[i].seg.length, e->reads[i].seg.length, got, want))
			return "read.length";
		if (cv_ne(cl->reads[i].seg.offset, e->reads[i].seg.offset, got, want))
			return "read.offset";
	}
	for (i = 0; i < e->nr_read_chunks; i++) {
		if (!e->read_chunks)
			return "read_chunks: not in the expectation";
		if (cv_ne(cl->read_chunks[i].position,
			  e->read_chunks[i].position, got, want))
			return "read_chunk.position";
		if (cv_ne(cl->read_chunks[i].first, e->read_chunks[i].first,
			  got, want))
			return "read_chunk.first";
		if (cv_ne(cl->read_chunks[i].nsegs, e->read_chunks[i].nsegs,
			  got, want))
			return "read_chunk.nsegs";
		if (cv_ne(cl->read_chunks[i].length, e->read_chunks[i].length,
			  got, want))
			return "read_chunk.length";
	}
	for (i = 0; i < e->nr_writes; i++) {
		if (cv_ne(cl->writes[i].first, e->writes[i].first, got, want))
			return "write.first";
		if (cv_ne(cl->writes[i].nsegs, e->writes[i].nsegs, got, want))
			return "write.nsegs";
	}
	for (i = 0; i < e->nr_segs; i++) {
		if (cv_ne(cl->segs[i].handle, e->segs[i].handle, got, want))
			return "seg.handle";
		if (cv_ne(cl->segs[i].length, e->segs[i].length, got, want))
			return "seg.length";
		if (cv_ne(cl->segs[i].offset, e->segs[i].offset, got, want))
			return "seg.offset";
	}
	/* err and props are set only for the header type carrying them */
	if (e->htype == RPCRDMA2_HT_ERROR) {
		if (cv_ne(h->err.code, e->err.code, got, want))
			return "err.code";
		if (cv_ne(h->err.vers.low, e->err.vers.low, got, want))
			return "err.arm0";
		if (cv_ne(h->err.vers.high, e->err.vers.high, got, want))
			return "err.arm1";
		if (cv_ne(h->err.v1_layout, e->err.v1_layout, got, want))
			return "err.v1_layout";
	}
	if (e->htype == RPCRDMA2_HT_CONNPROP && e->vers == RPCRDMA2_VERS_2) {
		if (cv_ne(h->props.present, e->props.present, got, want))
			return "props.present";
		if (cv_ne(h->props.dflt, e->props.dflt, got, want))
			return "props.dflt";
		if (cv_ne(h->props.rbsiz, e->props.rbsiz, got, want))
			return "props.rbsiz";
		if (cv_ne(h->props.brs, e->props.brs, got, want))
			return "props.brs";
	}
	return NULL;
}

/**
 * cv_hdr_diff - compare two decoded headers (round trips, fuzzing)
 * @a: first header
 * @b: second header
 *
 * Return: NULL if equal, else the name of the first field that differs.
 */
static inline const char *cv_hdr_diff(const struct rpcrdma2_hdr *a,
				      const struct rpcrdma2_hdr *b)
{
	struct cv_expect e = {
		.xid = b->xid, .vers = b->vers, .credits = b->credits,
		.htype = b->htype, .flags = b->flags, .hdr_len = b->hdr_len,
		.rpc_len = b->rpc_len, .inv_handle = b->cl.inv_handle,
		.nr_reads = b->cl.nr_reads,
		.nr_read_chunks = b->cl.nr_read_chunks,
		.nr_writes = b->cl.nr_writes, .nr_segs = b->cl.nr_segs,
		.has_reply = b->cl.has_reply, .reply = b->cl.reply,
		.reads = b->cl.reads, .read_chunks = b->cl.read_chunks,
		.writes = b->cl.writes,
		.segs = b->cl.segs, .err = b->err, .props = b->props,
	};
	u64 got, want;

	return cv_diff(&e, a, &got, &want);
}

/**
 * cv_fill - build a header to encode from an expectation
 * @e: expected values
 * @h: header whose chunk list arrays are attached and large enough
 */
static inline void cv_fill(const struct cv_expect *e, struct rpcrdma2_hdr *h)
{
	struct rpcrdma2_chunk_lists *cl = &h->cl;
	u32 i;

	h->xid = e->xid;
	h->vers = e->vers;
	h->credits = e->credits;
	h->htype = e->htype;
	h->flags = e->flags;
	h->hdr_len = 0;
	h->rpc_len = 0;
	cl->inv_handle = e->inv_handle;
	cl->nr_reads = e->nr_reads;
	cl->nr_read_chunks = 0;
	cl->nr_writes = e->nr_writes;
	cl->nr_segs = e->nr_segs;
	cl->has_reply = e->has_reply;
	cl->reply = e->reply;
	for (i = 0; i < e->nr_reads; i++)
		cl->reads[i] = e->reads[i];
	for (i = 0; i < e->nr_writes; i++)
		cl->writes[i] = e->writes[i];
	for (i = 0; i < e->nr_segs; i++)
		cl->segs[i] = e->segs[i];
	h->err = e->err;
	h->props = e->props;
}

/**
 * cv_truncated_v1_err_vers - does a cut turn the vector into another one?
 * @e: the vector's expectation
 * @cut: bytes kept
 *
 * A v2 RDMA2_ERR_VERS low..high cut after rdma_vers_low (28 bytes) is,
 * byte for byte, RFC 8166's version-independent ERR_VERS low..low for a
 * version 2 Call, which decodes (&rpcrdma2_error.v1_layout).
 *
 * Return: true if decoding the cut must give ERR_VERS @e->err.vers.low
 * twice, in the RFC 8166 layout.
 */
static inline bool cv_truncated_v1_err_vers(const struct cv_expect *e,
					    u32 cut)
{
	return e->vers == RPCRDMA2_VERS_2 && e->htype == RPCRDMA2_HT_ERROR &&
	       e->err.code == RPCRDMA2_ERR_VERS && !e->err.v1_layout &&
	       cut == RPCRDMA2_V1_MIN_HDR_SIZE && e->err.vers.low;
}

/**
 * cv_truncated - the rejection a valid vector cut to @cut bytes earns
 * @e: the vector's expectation
 * @cut: bytes kept, less than @e->hdr_len
 * @discard: set to whether the message is dropped silently
 *
 * Return: the enum rpcrdma2_reason; the reply code, when not discarded,
 * is always 2 (ERR_CHUNK / RDMA2_ERR_BAD_XDR).
 */
static inline u32 cv_truncated(const struct cv_expect *e, u32 cut,
			       bool *discard)
{
	bool is_error = e->htype == RPCRDMA2_HT_ERROR;

	*discard = true;
	if (cut < RPCRDMA2_FIXED_SIZE)
		return RPCRDMA2_REASON_SHORT;
	if (e->vers == RPCRDMA2_VERS_1 && !is_error &&
	    cut < RPCRDMA2_V1_MIN_HDR_SIZE)
		return RPCRDMA2_REASON_SHORT;
	*discard = is_error;
	if (e->vers == RPCRDMA2_VERS_2 && cut < RPCRDMA2_V2_PREFIX_SIZE)
		return RPCRDMA2_REASON_TRUNCATED;
	/* a v2 reply that keeps rdma_flags is never answered */
	if (e->vers == RPCRDMA2_VERS_2 && (e->flags & RPCRDMA2_F_RESPONSE))
		*discard = true;
	if (cut % 4)
		return RPCRDMA2_REASON_UNALIGNED;
	return RPCRDMA2_REASON_TRUNCATED;
}

/* ------------------------------------------------------------------ */
/* Structures the encoder must refuse (-EINVAL), one per rule          */
/* ------------------------------------------------------------------ */

/**
 * struct cv_enc_bad - a valid expectation and how to break it
 */
struct cv_enc_bad {
	const char *name;
	const struct cv_expect *base;
	void (*mutate)(struct rpcrdma2_hdr *h);
};

static inline void cv_m_msgp(struct rpcrdma2_hdr *h)
{
	h->htype = RPCRDMA2_V1_RDMA_MSGP;
}

static inline void cv_m_done(struct rpcrdma2_hdr *h)
{
	h->htype = RPCRDMA2_V1_RDMA_DONE;
}

static inline void cv_m_htype5(struct rpcrdma2_hdr *h)
{
	h->htype = RPCRDMA2_HT_CONNPROP;
}

static inline void cv_m_htype2(struct rpcrdma2_hdr *h)
{
	h->htype = 2;
}

static inline void cv_m_flag2(struct rpcrdma2_hdr *h)
{
	h->flags |= 2;
}

static inline void cv_m_flag1(struct rpcrdma2_hdr *h)
{
	h->flags = RPCRDMA2_F_RESPONSE;
}

static inline void cv_m_noresponse(struct rpcrdma2_hdr *h)
{
	h->flags = 0;
}

static inline void cv_m_errcode3(struct rpcrdma2_hdr *h)
{
	h->err.code = 3;
}

static inline void cv_m_vers3(struct rpcrdma2_hdr *h)
{
	h->vers = 3;
}

static inline void cv_m_pos_unaligned(struct rpcrdma2_hdr *h)
{
	h->cl.reads[0].position = 130;
}

static inline void cv_m_no_reply(struct rpcrdma2_hdr *h)
{
	h->cl.has_reply = false;
}

static inline void cv_m_inv_bad(struct rpcrdma2_hdr *h)
{
	h->cl.inv_handle = 0xdead;
}

static inline void cv_m_inv_v1(struct rpcrdma2_hdr *h)
{
	h->cl.inv_handle = 1;
}

static inline void cv_m_write_range(struct rpcrdma2_hdr *h)
{
	h->cl.writes[0].nsegs = CV_SEGS_CAP;
}

static inline void cv_m_reply_range(struct rpcrdma2_hdr *h)
{
	h->cl.reply.first = CV_SEGS_CAP;
}

static inline void cv_m_nr_reads(struct rpcrdma2_hdr *h)
{
	h->cl.nr_reads = CV_READS_CAP + 1;
}

static inline void cv_m_nr_writes(struct rpcrdma2_hdr *h)
{
	h->cl.nr_writes = CV_WRITES_CAP + 1;
}

static inline void cv_m_prop_unknown(struct rpcrdma2_hdr *h)
{
	h->props.present |= 4;
}

static inline void cv_m_prop_dflt(struct rpcrdma2_hdr *h)
{
	h->props.present = 0;
}

static inline void cv_m_brs3(struct rpcrdma2_hdr *h)
{
	h->props.brs = 3;
}

/* a Write chunk in place of the Reply chunk of a Long Reply */
static inline void cv_m_reply_to_write(struct rpcrdma2_hdr *h)
{
	h->cl.has_reply = false;
	h->cl.nr_writes = 1;
	h->cl.writes[0] = h->cl.reply;
}

/* the Long Call's Read chunk moved from position 0 to 8 */
static inline void cv_m_pz_to_8(struct rpcrdma2_hdr *h)
{
	u32 i;

	for (i = 0; i < h->cl.nr_reads; i++)
		h->cl.reads[i].position = 8;
}

/* a Read segment added to a reply */
static inline void cv_m_reply_read(struct rpcrdma2_hdr *h)
{
	h->cl.nr_reads = 1;
	h->cl.reads[0].position = 16;
	h->cl.reads[0].seg.handle = 0xc001;
	h->cl.reads[0].seg.length = 512;
	h->cl.reads[0].seg.offset = 0x20000000;
}

static const struct cv_enc_bad cv_enc_bad[] = {
	{ "encode refuses v1 RDMA_MSGP", &cv_e_v1_msg, cv_m_msgp },
	{ "encode refuses v1 RDMA_DONE", &cv_e_v1_msg, cv_m_done },
	{ "encode refuses v1 header type 5", &cv_e_v1_msg, cv_m_htype5 },
	{ "encode refuses v2 header type 2", &cv_e_v2_msg, cv_m_htype2 },
	{ "encode refuses v2 reserved flag", &cv_e_v2_msg, cv_m_flag2 },
	{ "encode refuses flags in v1", &cv_e_v1_msg, cv_m_flag1 },
	{ "encode refuses RDMA2_ERROR without RESPONSE",
	  &cv_e_v2_err_vers, cv_m_noresponse },
	{ "encode refuses v1 error code 3", &cv_e_v1_err_chunk,
	  cv_m_errcode3 },
	{ "encode refuses RDMA_MSG in version 3", &cv_e_v1_msg, cv_m_vers3 },
	{ "encode refuses ERR_CHUNK in version 3", &cv_e_v1_err_chunk,
	  cv_m_vers3 },
	{ "encode refuses unaligned Read position", &cv_e_v1_msg_reads,
	  cv_m_pos_unaligned },
	{ "encode refuses RDMA_NOMSG without chunks",
	  &cv_e_v1_nomsg_long_reply, cv_m_no_reply },
	{ "encode refuses RDMA_NOMSG with only a Write chunk",
	  &cv_e_v1_nomsg_long_reply, cv_m_reply_to_write },
	{ "encode refuses RDMA_NOMSG with only a Read chunk at 8",
	  &cv_e_v1_nomsg_pzrc_only, cv_m_pz_to_8 },
	{ "encode refuses RDMA2_NOMSG call without Position-Zero Read",
	  &cv_e_v2_nomsg_call, cv_m_pz_to_8 },
	{ "encode refuses RDMA2_NOMSG reply without Reply chunk",
	  &cv_e_v2_nomsg_reply, cv_m_no_reply },
	{ "encode refuses Read list in a v2 reply", &cv_e_v2_read_reply,
	  cv_m_reply_read },
	{ "encode refuses unmatched rdma_inv_handle", &cv_e_v2_read_call,
	  cv_m_inv_bad },
	{ "encode refuses rdma_inv_handle in v1", &cv_e_v1_msg, cv_m_inv_v1 },
	{ "encode refuses Write chunk outside segs", &cv_e_v2_read_call,
	  cv_m_write_range },
	{ "encode refuses Reply chunk outside segs", &cv_e_v2_read_call,
	  cv_m_reply_range },
	{ "encode refuses nr_reads beyond reads_cap", &cv_e_v1_msg_reads,
	  cv_m_nr_reads },
	{ "encode refuses nr_writes beyond writes_cap", &cv_e_v2_read_call,
	  cv_m_nr_writes },
	{ "encode refuses unknown property bit", &cv_e_v2_connprop,
	  cv_m_prop_unknown },
	{ "encode refuses default bit of absent property",
	  &cv_e_v2_connprop_defaults, cv_m_prop_dflt },
	{ "encode refuses BRS value 3", &cv_e_v2_connprop, cv_m_brs3 },
};

/* ------------------------------------------------------------------ */
/* The decoder's Read chunk index, looked up by Position               */
/* ------------------------------------------------------------------ */

/**
 * struct cv_read_len - the length one Read chunk of a vector must have
 * @name: test name
 * @words: the vector, decoded with cv_lim_default
 * @nwords: its length in words
 * @position: the Read chunk's Position
 * @length: the length its index entry must have; 0: no entry
 */
struct cv_read_len {
	const char *name;
	const u32 *words;
	u32 nwords;
	u32 position;
	u64 length;
};

static const struct cv_read_len cv_read_len[] = {
	{ "read chunk length: two adjacent segments (4096 + 2048)",
	  cv_w_v1_msg_reads, ARRAY_SIZE(cv_w_v1_msg_reads), 128, 6144 },
	{ "read chunk length: one segment",
	  cv_w_v1_msg_reads, ARRAY_SIZE(cv_w_v1_msg_reads), 160, 16 },
	{ "read chunk length: three segments apart (1024 + 1024 + 8)",
	  cv_w_v2_read_interleaved, ARRAY_SIZE(cv_w_v2_read_interleaved),
	  100, 2056 },
	{ "read chunk length: two segments apart (512 + 256)",
	  cv_w_v2_read_interleaved, ARRAY_SIZE(cv_w_v2_read_interleaved),
	  200, 768 },
	{ "read chunk length: 0xfffff000 + 0x2000 does not wrap at 32 bits",
	  cv_w_v1_read_three_pos, ARRAY_SIZE(cv_w_v1_read_three_pos),
	  100, 0x100001000ULL },
	{ "read chunk length: no segment at the position",
	  cv_w_v1_read_three_pos, ARRAY_SIZE(cv_w_v1_read_three_pos), 0, 0 },
	{ "read chunk length: no Read list",
	  cv_w_v1_msg, ARRAY_SIZE(cv_w_v1_msg), 0, 0 },
};

/**
 * cv_read_chunk_length - a decoded Read chunk's length, by Position
 * @cl: chunk lists filled in by rpcrdma2_decode()
 * @position: the Position to look up
 *
 * Return: the length of the indexed chunk at @position; 0 if none is.
 */
static inline u64 cv_read_chunk_length(const struct rpcrdma2_chunk_lists *cl,
				       u32 position)
{
	u32 i;

	for (i = 0; i < cl->nr_read_chunks; i++)
		if (cl->read_chunks[i].position == position)
			return cl->read_chunks[i].length;
	return 0;
}

#endif /* _RPCRDMA2_CODEC_VECTORS_H */
