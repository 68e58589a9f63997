// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of the RPC-over-RDMA v1/v2 header codec
 * (common/codec_*.c), driven by the hand-written vectors in
 * tests/vectors/codec_vectors.h. Prints one PASS:/FAIL: line per case and
 * exits non-zero if any case failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rpcrdma2/codec.h>
#include "../vectors/codec_vectors.h"

static unsigned int passed, failed;

static void result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		printf("PASS: %s\n", name);
		return;
	}
	failed++;
	printf("FAIL: %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

struct ctx {
	struct rpcrdma2_read_seg reads[CV_READS_CAP];
	struct rpcrdma2_read_chunk read_chunks[CV_READ_CHUNKS_CAP];
	struct rpcrdma2_chunk writes[CV_WRITES_CAP];
	struct rpcrdma2_seg segs[CV_SEGS_CAP];
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_reject rej;
};

static void ctx_init(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
}

static int ctx_decode(struct ctx *c, const u8 *buf, size_t len,
		      const struct rpcrdma2_limits *lim)
{
	if (rpcrdma2_chunk_lists_init(&c->hdr.cl, lim, c->reads, CV_READS_CAP,
				      c->read_chunks, CV_READ_CHUNKS_CAP,
				      c->writes, CV_WRITES_CAP, c->segs,
				      CV_SEGS_CAP))
		return -ENOSPC;	/* never a decoder result */
	return rpcrdma2_decode(buf, len, &c->hdr, &c->rej);
}

/* encoding needs the arrays attached; limits do not matter */
static void ctx_attach(struct ctx *c)
{
	rpcrdma2_chunk_lists_init(&c->hdr.cl, &cv_lim_default, c->reads,
				  CV_READS_CAP, c->read_chunks,
				  CV_READ_CHUNKS_CAP, c->writes, CV_WRITES_CAP,
				  c->segs, CV_SEGS_CAP);
}

static char name[256];

static const char *case_name(const char *what, const char *vec)
{
	snprintf(name, sizeof(name), "%s: %s", what, vec);
	return name;
}

/* decode a valid vector at every buffer alignment; compare every field */
static void test_valid_decode(const struct cv_vec *v)
{
	static struct ctx c;
	u8 raw[CV_BUF_SIZE + 4];
	const char *diff = NULL;
	u64 got = 0, want = 0;
	unsigned int shift;
	int rc = 0;

	for (shift = 0; shift < 4 && !diff && !rc; shift++) {
		ctx_init(&c);
		cv_bytes(v->words, v->nwords, raw + shift);
		rc = ctx_decode(&c, raw + shift, cv_len(v), cv_lim(v));
		if (!rc)
			diff = cv_diff(v->exp, &c.hdr, &got, &want);
	}
	if (rc)
		result(false, case_name("decode", v->name),
		       "rc %d reason %s", rc,
		       rpcrdma2_reason_name(c.rej.reason));
	else
		result(!diff, case_name("decode", v->name),
		       "%s: got 0x%llx want 0x%llx", diff,
		       (unsigned long long)got, (unsigned long long)want);
}

static bool bytes_equal(const u8 *a, const u32 *words, u32 nwords,
			int len, char *why, size_t whylen)
{
	u8 want[CV_BUF_SIZE];
	int i;

	if (len != (int)(nwords * 4)) {
		snprintf(why, whylen, "length %d, want %u", len, nwords * 4);
		return false;
	}
	cv_bytes(words, nwords, want);
	for (i = 0; i < len; i++) {
		if (a[i] != want[i]) {
			snprintf(why, whylen,
				 "byte %d (word %d) is 0x%02x, want 0x%02x",
				 i, i / 4, a[i], want[i]);
			return false;
		}
	}
	return true;
}

/*
 * Encode what the decoder produced, and the hand-made expectation, and
 * compare both with the hand-written bytes; then decode the encoding
 * (plus the original RPC message) and require the identical header.
 */
static void test_valid_encode(const struct cv_vec *v)
{
	static struct ctx c, c2;
	const struct cv_expect *e = v->exp;
	const u32 *ewords = e->enc_words ? e->enc_words : v->words;
	u32 enwords = e->enc_words ? e->enc_nwords : e->hdr_len / 4;
	u8 in[CV_BUF_SIZE], out[CV_BUF_SIZE];
	const char *diff;
	char why[128] = "";
	bool ok;
	int n, rc;

	ctx_init(&c);
	cv_bytes(v->words, v->nwords, in);
	rc = ctx_decode(&c, in, cv_len(v), cv_lim(v));
	memset(out, 0xa5, sizeof(out));
	n = rc ? rc : rpcrdma2_encode(&c.hdr, out, sizeof(out));
	ok = n > 0 && bytes_equal(out, ewords, enwords, n, why, sizeof(why));
	result(ok, case_name("encode decoded", v->name), "rc %d %s", n, why);

	/* round trip: header we wrote + the RPC message we were given */
	if (n > 0) {
		memcpy(out + n, in + e->hdr_len, e->rpc_len);
		ctx_init(&c2);
		rc = ctx_decode(&c2, out, n + e->rpc_len, cv_lim(v));
		/* re-encoding drops unknown properties: a shorter header */
		if (!rc && c2.hdr.hdr_len == (u32)n)
			c2.hdr.hdr_len = c.hdr.hdr_len;
		diff = rc ? "decode failed" : cv_hdr_diff(&c2.hdr, &c.hdr);
		result(!diff, case_name("round trip", v->name), "%s (rc %d)",
		       diff, rc);
	} else {
		result(false, case_name("round trip", v->name),
		       "nothing encoded");
	}

	/* the encoder fed from the table, not from the decoder */
	ctx_init(&c2);
	ctx_attach(&c2);
	cv_fill(e, &c2.hdr);
	memset(out, 0xa5, sizeof(out));
	n = rpcrdma2_encode(&c2.hdr, out, sizeof(out));
	ok = n > 0 && bytes_equal(out, ewords, enwords, n, why, sizeof(why));
	result(ok, case_name("encode from table", v->name), "rc %d %s", n,
	       why);
}

/*
 * rpcrdma2_encode()'s kernel-doc names the fields it never reads for a
 * header type; a sender may leave them unset (xprtrdma2 does, per Call).
 * Fill them with 0xa5 (a pointer no read survives, a bool UBSan rejects)
 * and the header must come out the same.
 */
static void test_encode_unread(const struct cv_vec *v)
{
	static struct ctx c;
	struct rpcrdma2_hdr *h = &c.hdr;
	struct rpcrdma2_chunk_lists *cl = &h->cl;
	const struct cv_expect *e = v->exp;
	const u32 *ewords = e->enc_words ? e->enc_words : v->words;
	u32 enwords = e->enc_words ? e->enc_nwords : e->hdr_len / 4;
	u8 out[CV_BUF_SIZE];
	char why[128] = "";
	bool ok;
	int n;

	ctx_init(&c);
	ctx_attach(&c);
	cv_fill(e, h);
	memset(&h->hdr_len, 0xa5, sizeof(h->hdr_len));
	memset(&h->rpc_len, 0xa5, sizeof(h->rpc_len));
	memset(&cl->read_chunks, 0xa5, sizeof(cl->read_chunks));
	memset(&cl->read_chunks_cap, 0xa5, sizeof(cl->read_chunks_cap));
	memset(&cl->nr_read_chunks, 0xa5, sizeof(cl->nr_read_chunks));
	memset(&cl->lim, 0xa5, sizeof(cl->lim));
	if (e->htype != RPCRDMA2_HT_ERROR)
		memset(&h->err, 0xa5, sizeof(h->err));
	if (e->htype != RPCRDMA2_HT_CONNPROP)
		memset(&h->props, 0xa5, sizeof(h->props));
	if (e->htype != RPCRDMA2_HT_MSG && e->htype != RPCRDMA2_HT_NOMSG)
		memset(cl, 0xa5, sizeof(*cl));
	memset(out, 0xa5, sizeof(out));
	n = rpcrdma2_encode(h, out, sizeof(out));
	ok = n > 0 && bytes_equal(out, ewords, enwords, n, why, sizeof(why));
	result(ok, case_name("encode leaves unread fields unread", v->name),
	       "rc %d %s", n, why);
}

/* every buffer shorter than the header: -EMSGSIZE, nothing written */
static void test_encode_short(const struct cv_vec *v)
{
	static struct ctx c;
	u8 out[CV_BUF_SIZE];
	int need, len, rc = 0, i;
	bool ok = true;

	ctx_init(&c);
	ctx_attach(&c);
	cv_fill(v->exp, &c.hdr);
	need = rpcrdma2_encode(&c.hdr, out, sizeof(out));
	for (len = 0; len < need && ok; len++) {
		memset(out, 0xa5, sizeof(out));
		rc = rpcrdma2_encode(&c.hdr, out, len);
		ok = rc == -EMSGSIZE;
		for (i = 0; i < (int)sizeof(out) && ok; i++)
			ok = out[i] == 0xa5;
	}
	result(ok && need > 0, case_name("encode -EMSGSIZE", v->name),
	       "need %d, buffer %d gave %d", need, len - 1, rc);
}

/* cut a valid header at every byte inside it */
static void test_truncations(const struct cv_vec *v)
{
	static struct ctx c;
	const struct cv_expect *e = v->exp;
	u8 in[CV_BUF_SIZE];
	bool discard, ok = true;
	u32 cut, reason = 0;
	int rc = 0;

	cv_bytes(v->words, v->nwords, in);
	for (cut = 0; cut < e->hdr_len && ok; cut++) {
		ctx_init(&c);
		rc = ctx_decode(&c, in, cut, cv_lim(v));
		if (cv_truncated_v1_err_vers(e, cut)) {
			ok = !rc && c.hdr.err.v1_layout &&
			     c.hdr.err.vers.low == e->err.vers.low &&
			     c.hdr.err.vers.high == e->err.vers.low;
			continue;
		}
		reason = cv_truncated(e, cut, &discard);
		ok = rc < 0 && c.rej.reason == reason &&
		     c.rej.discard == discard &&
		     (discard || c.rej.reply.code == RPCRDMA2_ERR_BAD_XDR);
	}
	result(ok, case_name("truncate at every byte", v->name),
	       "cut %u: rc %d reason %s discard %d code %u, want %s discard %d",
	       cut - 1, rc, rpcrdma2_reason_name(c.rej.reason),
	       c.rej.discard, c.rej.reply.code, rpcrdma2_reason_name(reason),
	       discard);
}

static void test_invalid(const struct cv_vec *v)
{
	static struct ctx c;
	u8 in[CV_BUF_SIZE];
	int rc;

	ctx_init(&c);
	cv_bytes(v->words, v->nwords, in);
	rc = ctx_decode(&c, in, cv_len(v), cv_lim(v));
	result(rc == v->rc && c.rej.reason == v->reason &&
	       c.rej.discard == v->discard &&
	       c.rej.reply.code == v->reply.code &&
	       c.rej.reply.vers.low == v->reply.vers.low &&
	       c.rej.reply.vers.high == v->reply.vers.high,
	       case_name("decode", v->name),
	       "rc %d reason %s discard %d reply %u/%u/%u; want rc %d %s %d %u/%u/%u",
	       rc, rpcrdma2_reason_name(c.rej.reason), c.rej.discard,
	       c.rej.reply.code, c.rej.reply.vers.low, c.rej.reply.vers.high,
	       v->rc, rpcrdma2_reason_name(v->reason), v->discard,
	       v->reply.code, v->reply.vers.low, v->reply.vers.high);
}

/* the answer to a rejected header, byte-exact and decodable */
static void test_reject_reply(const struct cv_vec *v)
{
	static struct ctx c, c2;
	u8 in[CV_BUF_SIZE], out[CV_BUF_SIZE];
	char why[128] = "";
	bool ok;
	int n, rc;

	ctx_init(&c);
	cv_bytes(v->words, v->nwords, in);
	ctx_decode(&c, in, cv_len(v), cv_lim(v));
	n = rpcrdma2_encode_reject(&c.hdr, &c.rej, CV_CREDITS, out,
				   sizeof(out));
	if (v->discard) {
		result(n == -EINVAL, case_name("no reply when discarding",
					       v->name), "rc %d", n);
		return;
	}
	ok = n > 0;
	if (ok && v->reply_words)
		ok = bytes_equal(out, v->reply_words, v->reply_nwords, n, why,
				 sizeof(why));
	if (ok && c.hdr.vers >= RPCRDMA2_VERS_MIN &&
	    c.hdr.vers <= RPCRDMA2_VERS_MAX) {
		ctx_init(&c2);
		rc = ctx_decode(&c2, out, n, &cv_lim_default);
		ok = !rc && c2.hdr.htype == RPCRDMA2_HT_ERROR &&
		     c2.hdr.xid == c.hdr.xid && c2.hdr.vers == c.hdr.vers &&
		     c2.hdr.credits == CV_CREDITS &&
		     c2.hdr.err.code == v->reply.code &&
		     c2.hdr.err.vers.low == v->reply.vers.low &&
		     c2.hdr.err.vers.high == v->reply.vers.high;
		if (!ok)
			snprintf(why, sizeof(why), "reply decodes to rc %d",
				 rc);
	}
	result(ok, case_name("reply", v->name), "rc %d %s", n, why);
}

/*
 * A v2 reply is never answered (RFC 8166 §4.5): @v with RPCRDMA2_F_RESPONSE
 * forced on, cut at any length that keeps rdma_flags, decodes or is
 * discarded, with its reason, and has no error reply.
 */
static void test_reply_never_answered(const struct cv_vec *v)
{
	static struct ctx c;
	u8 in[CV_BUF_SIZE], out[CV_BUF_SIZE];
	bool ok = true;
	u32 cut;
	int rc = 0, n = 0;

	cv_bytes(v->words, v->nwords, in);
	cv_set_response(in);
	for (cut = RPCRDMA2_V2_PREFIX_SIZE; cut <= cv_len(v) && ok; cut++) {
		ctx_init(&c);
		rc = ctx_decode(&c, in, cut, cv_lim(v));
		if (!rc)
			continue;
		n = rpcrdma2_encode_reject(&c.hdr, &c.rej, CV_CREDITS, out,
					   sizeof(out));
		ok = rc < 0 && c.rej.discard &&
		     c.rej.reason != RPCRDMA2_REASON_NONE && n == -EINVAL;
	}
	result(ok, case_name("reply never answered", v->name),
	       "cut %u: rc %d reason %s discard %d code %u, encode_reject %d",
	       cut - 1, rc, rpcrdma2_reason_name(c.rej.reason),
	       c.rej.discard, c.rej.reply.code, n);
}

static void test_encode_bad(const struct cv_enc_bad *b)
{
	static struct ctx c;
	u8 out[CV_BUF_SIZE];
	int rc, base;

	ctx_init(&c);
	ctx_attach(&c);
	cv_fill(b->base, &c.hdr);
	base = rpcrdma2_encode(&c.hdr, out, sizeof(out));
	b->mutate(&c.hdr);
	rc = rpcrdma2_encode(&c.hdr, out, sizeof(out));
	result(base > 0 && rc == -EINVAL, b->name,
	       "unmodified gave %d, modified gave %d", base, rc);
}

/* the decoded length of one Read chunk: every segment with its position */
static void test_read_chunk_length(const struct cv_read_len *r)
{
	static struct ctx c;
	u8 in[CV_BUF_SIZE];
	u64 len = 0;
	int rc;

	ctx_init(&c);
	cv_bytes(r->words, r->nwords, in);
	rc = ctx_decode(&c, in, r->nwords * 4, &cv_lim_default);
	if (!rc)
		len = cv_read_chunk_length(&c.hdr.cl, r->position);
	result(!rc && len == r->length, r->name, "rc %d, got %llu want %llu",
	       rc, (unsigned long long)len, (unsigned long long)r->length);
}

static void test_names(void)
{
	static const char *const v2[] = {
		NULL, "RDMA2_ERR_VERS", "RDMA2_ERR_BAD_XDR",
		"RDMA2_ERR_INVAL_HTYPE", "RDMA2_ERR_READ_CHUNKS",
		"RDMA2_ERR_WRITE_CHUNKS", "RDMA2_ERR_SEGMENTS",
		"RDMA2_ERR_WRITE_RESOURCE", "RDMA2_ERR_REPLY_RESOURCE",
		"RDMA2_ERR_SYSTEM",
	};
	bool ok = true;
	u32 i, j;

	for (i = 1; i < ARRAY_SIZE(v2); i++)
		ok &= !strcmp(rpcrdma2_errcode_name(2, i), v2[i]);
	ok &= !strcmp(rpcrdma2_errcode_name(2, 10), "UNKNOWN");
	ok &= !strcmp(rpcrdma2_errcode_name(1, 1), "ERR_VERS");
	ok &= !strcmp(rpcrdma2_errcode_name(1, 2), "ERR_CHUNK");
	ok &= !strcmp(rpcrdma2_errcode_name(3, 1), "ERR_VERS");
	ok &= !strcmp(rpcrdma2_errcode_name(1, 4), "UNKNOWN");
	result(ok, "names: error codes", "mismatch");

	ok = !strcmp(rpcrdma2_htype_name(1, 2), "RDMA_MSGP") &&
	     !strcmp(rpcrdma2_htype_name(1, 4), "RDMA_ERROR") &&
	     !strcmp(rpcrdma2_htype_name(1, 5), "UNKNOWN") &&
	     !strcmp(rpcrdma2_htype_name(2, 5), "RDMA2_CONNPROP") &&
	     !strcmp(rpcrdma2_htype_name(2, 2), "UNKNOWN") &&
	     !strcmp(rpcrdma2_htype_name(3, 0), "UNKNOWN");
	result(ok, "names: header types", "mismatch");

	ok = !strcmp(rpcrdma2_reason_name(RPCRDMA2_REASON_COUNT), "UNKNOWN");
	for (i = 0; i < RPCRDMA2_REASON_COUNT; i++)
		for (j = 0; j < i; j++)
			ok &= rpcrdma2_reason_name(i) &&
			      strcmp(rpcrdma2_reason_name(i),
				     rpcrdma2_reason_name(j));
	result(ok, "names: every reason has its own name", "duplicate");
}

/* arrays smaller than the limits allow are refused once, at init */
static void test_init_caps(void)
{
	static struct ctx c;
	bool ok;

	ctx_init(&c);
	ok = !rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_default, c.reads, 32,
					c.read_chunks, CV_READ_CHUNKS_CAP,
					c.writes, 4, c.segs, 40);
	ok &= rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_default, c.reads, 31,
					c.read_chunks, CV_READ_CHUNKS_CAP,
					c.writes, 4, c.segs, 40) == -EINVAL;
	ok &= rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_default, c.reads, 32,
					c.read_chunks, CV_READ_CHUNKS_CAP,
					c.writes, 3, c.segs, 40) == -EINVAL;
	ok &= rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_default, c.reads, 32,
					c.read_chunks, CV_READ_CHUNKS_CAP,
					c.writes, 4, c.segs, 39) == -EINVAL;
	ok &= rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_default, c.reads, 32,
					c.read_chunks, CV_READ_CHUNKS_CAP - 1,
					c.writes, 4, c.segs, 40) == -EINVAL;
	/* refused: the limits are zero, so no chunk gets in */
	ok &= c.hdr.cl.lim.max_read_chunks == 0 &&
	      c.hdr.cl.lim.max_write_chunks == 0 && c.hdr.cl.lim.max_segs == 0;
	result(ok, "init refuses arrays smaller than the limits", "accepted");
}

/* the version range: zero means 1..2; empty or outside 1..2 is refused */
static void test_init_vers(void)
{
	static const u32 bad[][2] = { { 0, 1 }, { 1, 0 }, { 2, 1 }, { 1, 3 },
				      { 3, 3 } };
	struct rpcrdma2_limits lim = cv_lim_default;
	static struct ctx c;
	bool ok;
	u32 i;

	ctx_init(&c);
	ok = !rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_default, c.reads,
					CV_READS_CAP, c.read_chunks,
					CV_READ_CHUNKS_CAP, c.writes,
					CV_WRITES_CAP, c.segs, CV_SEGS_CAP) &&
	     c.hdr.cl.lim.vers_low == 1 && c.hdr.cl.lim.vers_high == 2;
	ok &= !rpcrdma2_chunk_lists_init(&c.hdr.cl, &cv_lim_v2_only, c.reads,
					 CV_READS_CAP, c.read_chunks,
					 CV_READ_CHUNKS_CAP, c.writes,
					 CV_WRITES_CAP, c.segs, CV_SEGS_CAP) &&
	      c.hdr.cl.lim.vers_low == 2 && c.hdr.cl.lim.vers_high == 2;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		lim.vers_low = bad[i][0];
		lim.vers_high = bad[i][1];
		ok &= rpcrdma2_chunk_lists_init(&c.hdr.cl, &lim, c.reads,
						CV_READS_CAP, c.read_chunks,
						CV_READ_CHUNKS_CAP, c.writes,
						CV_WRITES_CAP, c.segs,
						CV_SEGS_CAP) == -EINVAL &&
		      c.hdr.cl.lim.vers_low == 1 &&
		      c.hdr.cl.lim.vers_high == 2 &&
		      c.hdr.cl.lim.max_segs == 0;
	}
	result(ok, "init: version range defaults to 1..2, bad ranges refused",
	       "mismatch");
}

/* decode @words (@n of them) into @c's header, set up beforehand */
static int ctx_decode_words(struct ctx *c, const u32 *words, u32 n)
{
	u8 in[CV_BUF_SIZE];

	cv_bytes(words, n, in);
	return rpcrdma2_decode(in, 4 * (size_t)n, &c->hdr, &c->rej);
}

static int decode_v1_msg(struct ctx *c)
{
	return ctx_decode_words(c, cv_w_v1_msg, ARRAY_SIZE(cv_w_v1_msg));
}

static int decode_v2_msg(struct ctx *c)
{
	return ctx_decode_words(c, cv_w_v2_msg, ARRAY_SIZE(cv_w_v2_msg));
}

/*
 * One init, many messages: the version range narrowed and widened again
 * in place, the arrays and chunk limits kept, and every count decoded
 * anew (as svcrdma2 decodes each Call)
 */
static void test_set_vers(void)
{
	static struct ctx c;
	struct rpcrdma2_chunk_lists *cl = &c.hdr.cl;
	bool ok;
	int rc;

	ctx_init(&c);
	ok = !rpcrdma2_chunk_lists_init(cl, &cv_lim_default, c.reads,
					CV_READS_CAP, c.read_chunks,
					CV_READ_CHUNKS_CAP, c.writes,
					CV_WRITES_CAP, c.segs, CV_SEGS_CAP);
	rpcrdma2_chunk_lists_set_vers(cl, RPCRDMA2_VERS_2);
	rc = decode_v1_msg(&c);
	ok &= rc == -EPROTONOSUPPORT && c.rej.reason == RPCRDMA2_REASON_VERS &&
	      c.rej.reply.vers.low == 2 && c.rej.reply.vers.high == 2;
	/* every kind of chunk and inv_handle, then a message with none */
	rc = ctx_decode_words(&c, cv_w_v2_write_call,
			      ARRAY_SIZE(cv_w_v2_write_call));
	ok &= !rc && cl->nr_reads && cl->nr_read_chunks && cl->inv_handle;
	rc = ctx_decode_words(&c, cv_w_v2_read_call,
			      ARRAY_SIZE(cv_w_v2_read_call));
	ok &= !rc && cl->nr_writes && cl->nr_segs && cl->has_reply &&
	      cl->reply.nsegs && cl->inv_handle;
	rc = decode_v2_msg(&c);
	ok &= !rc && !cl->nr_reads && !cl->nr_read_chunks && !cl->nr_writes &&
	      !cl->nr_segs && !cl->has_reply && !cl->reply.first &&
	      !cl->reply.nsegs && !cl->inv_handle;
	rpcrdma2_chunk_lists_set_vers(cl, RPCRDMA2_VERS_1);
	rc = decode_v2_msg(&c);
	ok &= rc == -EPROTONOSUPPORT && c.rej.reason == RPCRDMA2_REASON_VERS &&
	      c.rej.reply.vers.low == 1 && c.rej.reply.vers.high == 1;
	ok &= !decode_v1_msg(&c) && c.hdr.vers == 1;
	rpcrdma2_chunk_lists_set_vers(cl, 0);
	ok &= !decode_v2_msg(&c) && c.hdr.vers == 2;
	rc = decode_v1_msg(&c);
	ok &= !rc && c.hdr.vers == 1;
	ok &= cl->reads == c.reads && cl->reads_cap == CV_READS_CAP &&
	      cl->segs == c.segs && cl->segs_cap == CV_SEGS_CAP &&
	      cl->writes == c.writes && cl->read_chunks == c.read_chunks &&
	      cl->lim.max_read_chunks == cv_lim_default.max_read_chunks &&
	      cl->lim.max_write_chunks == cv_lim_default.max_write_chunks &&
	      cl->lim.max_segs == cv_lim_default.max_segs &&
	      cl->lim.vers_low == 1 && cl->lim.vers_high == 2;
	result(ok, "set_vers: one init, the versions narrowed and widened, counts decoded anew",
	       "mismatch (rc %d)", rc);
}

/* a length beyond 32 bits is refused before a byte is read */
static void test_len_overflow(void)
{
	static struct ctx c;
	u8 in[CV_BUF_SIZE];
	int rc;

	ctx_init(&c);
	cv_bytes(cv_w_v2_msg, ARRAY_SIZE(cv_w_v2_msg), in);
	rc = ctx_decode(&c, in, (size_t)1 << 32 | 40, &cv_lim_default);
	result(rc == -EINVAL && c.rej.reason == RPCRDMA2_REASON_CALLER,
	       "decode refuses a 33-bit length", "rc %d", rc);
}

int main(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cv_valid); i++) {
		test_valid_decode(&cv_valid[i]);
		test_valid_encode(&cv_valid[i]);
		test_encode_unread(&cv_valid[i]);
		test_encode_short(&cv_valid[i]);
		test_truncations(&cv_valid[i]);
		if (cv_is_v2(&cv_valid[i]))
			test_reply_never_answered(&cv_valid[i]);
	}
	for (i = 0; i < ARRAY_SIZE(cv_invalid); i++) {
		test_invalid(&cv_invalid[i]);
		test_reject_reply(&cv_invalid[i]);
		if (cv_is_v2(&cv_invalid[i]))
			test_reply_never_answered(&cv_invalid[i]);
	}
	for (i = 0; i < ARRAY_SIZE(cv_enc_bad); i++)
		test_encode_bad(&cv_enc_bad[i]);
	for (i = 0; i < ARRAY_SIZE(cv_read_len); i++)
		test_read_chunk_length(&cv_read_len[i]);
	test_names();
	test_init_caps();
	test_init_vers();
	test_set_vers();
	test_len_overflow();

	printf("codec_test: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
