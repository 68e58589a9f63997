// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the RPC-over-RDMA v1/v2 header decoder.
 *
 * Decodes the input with small limits (so the limit paths are reached)
 * and arrays exactly as large as those limits require (so ASan sees any
 * write past them). Whatever decodes is encoded again, the original RPC
 * message appended, and decoded once more: the two headers must be
 * identical. A rejected header's error reply must encode, and, for v1 and
 * v2, decode as that error; a rejected v2 reply (RPCRDMA2_F_RESPONSE, read
 * here from the bytes) must be discarded, never answered. Any mismatch
 * abort()s.
 */
#include <stdlib.h>
#include <string.h>

#include <rpcrdma2/codec.h>
#include "../vectors/codec_vectors.h"

#define FZ_MAX_READ_CHUNKS	3
#define FZ_MAX_WRITE_CHUNKS	3
#define FZ_MAX_SEGS		4
#define FZ_READS	(FZ_MAX_READ_CHUNKS * FZ_MAX_SEGS)
#define FZ_WRITES	FZ_MAX_WRITE_CHUNKS
#define FZ_SEGS		((FZ_MAX_WRITE_CHUNKS + 1) * FZ_MAX_SEGS)

static const struct rpcrdma2_limits fz_lim = {
	.max_read_chunks = FZ_MAX_READ_CHUNKS,
	.max_write_chunks = FZ_MAX_WRITE_CHUNKS,
	.max_segs = FZ_MAX_SEGS,
};

struct fz_hdr {
	struct rpcrdma2_read_seg *reads;
	struct rpcrdma2_read_chunk *read_chunks;
	struct rpcrdma2_chunk *writes;
	struct rpcrdma2_seg *segs;
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_reject rej;
};

/* heap arrays of the exact size, so an overrun is an ASan report */
static void fz_init(struct fz_hdr *f)
{
	f->reads = malloc(sizeof(*f->reads) * FZ_READS);
	f->read_chunks = malloc(sizeof(*f->read_chunks) * FZ_MAX_READ_CHUNKS);
	f->writes = malloc(sizeof(*f->writes) * FZ_WRITES);
	f->segs = malloc(sizeof(*f->segs) * FZ_SEGS);
	if (!f->reads || !f->read_chunks || !f->writes || !f->segs)
		abort();
	if (rpcrdma2_chunk_lists_init(&f->hdr.cl, &fz_lim, f->reads, FZ_READS,
				      f->read_chunks, FZ_MAX_READ_CHUNKS,
				      f->writes, FZ_WRITES, f->segs, FZ_SEGS))
		abort();
}

static void fz_free(struct fz_hdr *f)
{
	free(f->reads);
	free(f->read_chunks);
	free(f->writes);
	free(f->segs);
}

static void check_reply(const struct fz_hdr *a)
{
	struct fz_hdr b;
	u8 out[64];
	int n, rc;

	n = rpcrdma2_encode_reject(&a->hdr, &a->rej, 1, out, sizeof(out));
	if (a->rej.discard) {
		if (n != -EINVAL)
			abort();
		return;
	}
	if (n <= 0)
		abort();
	if (a->hdr.vers != RPCRDMA2_VERS_1 && a->hdr.vers != RPCRDMA2_VERS_2)
		return;
	fz_init(&b);
	rc = rpcrdma2_decode(out, n, &b.hdr, &b.rej);
	if (rc || b.hdr.htype != RPCRDMA2_HT_ERROR ||
	    b.hdr.xid != a->hdr.xid || b.hdr.err.code != a->rej.reply.code ||
	    b.hdr.err.vers.low != a->rej.reply.vers.low ||
	    b.hdr.err.vers.high != a->rej.reply.vers.high)
		abort();
	fz_free(&b);
}

/* Does @buf say it is a v2 reply? Read independently of the decoder. */
static bool is_v2_reply(const u8 *buf, size_t size)
{
	return size >= RPCRDMA2_V2_PREFIX_SIZE &&
	       get_unaligned_be32(buf + 4) == RPCRDMA2_VERS_2 &&
	       (get_unaligned_be32(buf + 16) & RPCRDMA2_F_RESPONSE);
}

/* libFuzzer's entry point, named by symbol to keep kernel naming here */
int fuzz_codec_one(const u8 *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

int fuzz_codec_one(const u8 *data, size_t size)
{
	struct fz_hdr a, b;
	u8 *buf, *out;
	int n, rc;

	/* a private copy, so reads past the end hit a redzone */
	buf = malloc(size ? size : 1);
	out = malloc(size + 64);
	if (!buf || !out)
		abort();
	memcpy(buf, data, size);
	fz_init(&a);

	rc = rpcrdma2_decode(buf, size, &a.hdr, &a.rej);
	if (rc) {
		if (a.rej.reason == RPCRDMA2_REASON_NONE)
			abort();
		/* RFC 8166 §4.5: a reply with errors is silently discarded */
		if (is_v2_reply(buf, size) && !a.rej.discard)
			abort();
		check_reply(&a);
		goto out;
	}
	if (a.hdr.hdr_len > size || a.hdr.rpc_len > size - a.hdr.hdr_len)
		abort();

	/* encode → decode is the identity */
	n = rpcrdma2_encode(&a.hdr, out, size + 64);
	if (n <= 0)
		abort();
	memcpy(out + n, buf + a.hdr.hdr_len, a.hdr.rpc_len);
	fz_init(&b);
	rc = rpcrdma2_decode(out, n + a.hdr.rpc_len, &b.hdr, &b.rej);
	if (rc)
		abort();
	/* only CONNPROP may shrink: unknown properties are not re-sent */
	if (b.hdr.hdr_len != a.hdr.hdr_len) {
		if (a.hdr.htype != RPCRDMA2_HT_CONNPROP ||
		    b.hdr.hdr_len != (u32)n)
			abort();
		b.hdr.hdr_len = a.hdr.hdr_len;
	}
	if (cv_hdr_diff(&b.hdr, &a.hdr))
		abort();
	fz_free(&b);
out:
	fz_free(&a);
	free(out);
	free(buf);
	return 0;
}
