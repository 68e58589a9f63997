// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite rpcrdma2_codec: the kernel build of the RPC-over-RDMA v1/v2
 * header codec against the same hand-written vectors as the userspace
 * test (tests/vectors/codec_vectors.h).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include <rpcrdma2/codec.h>
#include "codec_vectors.h"

struct cvk {
	struct rpcrdma2_read_seg reads[CV_READS_CAP];
	struct rpcrdma2_read_chunk read_chunks[CV_READ_CHUNKS_CAP];
	struct rpcrdma2_chunk writes[CV_WRITES_CAP];
	struct rpcrdma2_seg segs[CV_SEGS_CAP];
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_reject rej;
};

/* test-managed memory: freed by KUnit even when an assertion fails */
static struct cvk *cvk_alloc(struct kunit *test,
			     const struct rpcrdma2_limits *lim)
{
	struct cvk *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_ASSERT_EQ(test, rpcrdma2_chunk_lists_init(&c->hdr.cl, lim,
							c->reads, CV_READS_CAP,
							c->read_chunks,
							CV_READ_CHUNKS_CAP,
							c->writes,
							CV_WRITES_CAP, c->segs,
							CV_SEGS_CAP), 0);
	return c;
}

static u8 *cvk_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, CV_BUF_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	return buf;
}

static void cv_vec_desc(const struct cv_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

static void cv_enc_bad_desc(const struct cv_enc_bad *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

static void cv_read_len_desc(const struct cv_read_len *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cv_valid, cv_valid, cv_vec_desc);
KUNIT_ARRAY_PARAM(cv_invalid, cv_invalid, cv_vec_desc);
KUNIT_ARRAY_PARAM(cv_enc_bad, cv_enc_bad, cv_enc_bad_desc);
KUNIT_ARRAY_PARAM(cv_read_len, cv_read_len, cv_read_len_desc);

/* Every v2 vector long enough to hold rdma_flags, valid ones first */
static const void *cv_v2_gen_params(const void *prev, char *desc)
{
	const struct cv_vec *v = prev ? (const struct cv_vec *)prev + 1 :
				      cv_valid;

	for (;; v++) {
		if (v == cv_valid + ARRAY_SIZE(cv_valid))
			v = cv_invalid;
		if (v == cv_invalid + ARRAY_SIZE(cv_invalid))
			return NULL;
		if (cv_is_v2(v))
			break;
	}
	cv_vec_desc(v, desc);
	return v;
}

/* Every field of a valid header decodes as worked out by hand */
static void codec_decode_valid(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	u8 *in = cvk_buf(test);
	const char *diff;
	u64 got, want;
	int rc;

	cv_bytes(v->words, v->nwords, in);

	rc = rpcrdma2_decode(in, cv_len(v), &c->hdr, &c->rej);

	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "reason %s",
			    rpcrdma2_reason_name(c->rej.reason));
	diff = cv_diff(v->exp, &c->hdr, &got, &want);
	KUNIT_EXPECT_TRUE_MSG(test, !diff, "%s: got 0x%llx want 0x%llx", diff,
			      got, want);
}

/* Encoding is byte-exact, from the decoder and from the table alike */
static void codec_encode_valid(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	const struct cv_expect *e = v->exp;
	const u32 *ewords = e->enc_words ? e->enc_words : v->words;
	u32 enwords = e->enc_words ? e->enc_nwords : e->hdr_len / 4;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	struct cvk *c2 = cvk_alloc(test, cv_lim(v));
	u8 *in = cvk_buf(test), *out = cvk_buf(test), *want = cvk_buf(test);
	int n, rc;

	cv_bytes(v->words, v->nwords, in);
	cv_bytes(ewords, enwords, want);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode(in, cv_len(v), &c->hdr, &c->rej),
			0);

	n = rpcrdma2_encode(&c->hdr, out, CV_BUF_SIZE);

	KUNIT_ASSERT_EQ(test, n, (int)(enwords * 4));
	KUNIT_EXPECT_MEMEQ(test, out, want, n);

	/* round trip: our header + the original RPC message */
	memcpy(out + n, in + e->hdr_len, e->rpc_len);
	rc = rpcrdma2_decode(out, n + e->rpc_len, &c2->hdr,
			     &c2->rej);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, c2->hdr.hdr_len, (u32)n);
	c2->hdr.hdr_len = c->hdr.hdr_len;
	KUNIT_EXPECT_TRUE_MSG(test, !cv_hdr_diff(&c2->hdr, &c->hdr), "%s",
			      cv_hdr_diff(&c2->hdr, &c->hdr));

	/* from the hand-made expectation */
	cv_fill(e, &c2->hdr);
	memset(out, 0, CV_BUF_SIZE);
	n = rpcrdma2_encode(&c2->hdr, out, CV_BUF_SIZE);
	KUNIT_ASSERT_EQ(test, n, (int)(enwords * 4));
	KUNIT_EXPECT_MEMEQ(test, out, want, n);
}

/* Any buffer shorter than the header: -EMSGSIZE and nothing written */
static void codec_encode_short(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	u8 *out = cvk_buf(test), *clean = cvk_buf(test);
	int need, len;

	cv_fill(v->exp, &c->hdr);
	need = rpcrdma2_encode(&c->hdr, out, CV_BUF_SIZE);
	KUNIT_ASSERT_GT(test, need, 0);

	for (len = 0; len < need; len++) {
		memset(out, 0, CV_BUF_SIZE);
		KUNIT_ASSERT_EQ_MSG(test, rpcrdma2_encode(&c->hdr, out, len),
				    -EMSGSIZE, "buffer of %d bytes", len);
		KUNIT_ASSERT_MEMEQ(test, out, clean, CV_BUF_SIZE);
	}
}

/* A valid header cut at any byte inside it is rejected as the spec says */
static void codec_truncate_valid(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	u8 *in = cvk_buf(test);
	bool discard;
	u32 cut, reason;
	int rc;

	cv_bytes(v->words, v->nwords, in);
	for (cut = 0; cut < v->exp->hdr_len; cut++) {
		reason = cv_truncated(v->exp, cut, &discard);

		rc = rpcrdma2_decode(in, cut, &c->hdr, &c->rej);
		if (cv_truncated_v1_err_vers(v->exp, cut)) {
			KUNIT_ASSERT_EQ_MSG(test, rc, 0, "cut %u", cut);
			KUNIT_ASSERT_TRUE(test, c->hdr.err.v1_layout);
			KUNIT_ASSERT_EQ(test, c->hdr.err.vers.low,
					v->exp->err.vers.low);
			KUNIT_ASSERT_EQ(test, c->hdr.err.vers.high,
					v->exp->err.vers.low);
			continue;
		}

		KUNIT_ASSERT_LT_MSG(test, rc, 0, "cut %u", cut);
		KUNIT_ASSERT_EQ_MSG(test, c->rej.reason, reason, "cut %u: %s",
				    cut, rpcrdma2_reason_name(c->rej.reason));
		KUNIT_ASSERT_EQ_MSG(test, c->rej.discard, discard, "cut %u",
				    cut);
		if (!discard)
			KUNIT_ASSERT_EQ_MSG(test, c->rej.reply.code,
					    (u32)RPCRDMA2_ERR_BAD_XDR,
					    "cut %u", cut);
	}
}

/* Each rejection rule: return code, reason, discard or the exact reply */
static void codec_decode_invalid(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	u8 *in = cvk_buf(test);
	int rc;

	cv_bytes(v->words, v->nwords, in);

	rc = rpcrdma2_decode(in, cv_len(v), &c->hdr, &c->rej);

	KUNIT_EXPECT_EQ(test, rc, v->rc);
	KUNIT_EXPECT_STREQ(test, rpcrdma2_reason_name(c->rej.reason),
			   rpcrdma2_reason_name(v->reason));
	KUNIT_EXPECT_EQ(test, c->rej.discard, v->discard);
	KUNIT_EXPECT_EQ(test, c->rej.reply.code, v->reply.code);
	KUNIT_EXPECT_EQ(test, c->rej.reply.vers.low, v->reply.vers.low);
	KUNIT_EXPECT_EQ(test, c->rej.reply.vers.high, v->reply.vers.high);
}

/* The error reply to a rejected header: byte-exact, and it decodes */
static void codec_reject_reply(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	struct cvk *c2 = cvk_alloc(test, &cv_lim_default);
	u8 *in = cvk_buf(test), *out = cvk_buf(test), *want = cvk_buf(test);
	int n;

	cv_bytes(v->words, v->nwords, in);
	rpcrdma2_decode(in, cv_len(v), &c->hdr, &c->rej);

	n = rpcrdma2_encode_reject(&c->hdr, &c->rej, CV_CREDITS, out,
				   CV_BUF_SIZE);

	if (v->discard) {
		KUNIT_EXPECT_EQ(test, n, -EINVAL);
		return;
	}
	KUNIT_ASSERT_GT(test, n, 0);
	if (v->reply_words) {
		cv_bytes(v->reply_words, v->reply_nwords, want);
		KUNIT_ASSERT_EQ(test, n, (int)(v->reply_nwords * 4));
		KUNIT_EXPECT_MEMEQ(test, out, want, n);
	}
	if (c->hdr.vers < RPCRDMA2_VERS_MIN || c->hdr.vers > RPCRDMA2_VERS_MAX)
		return;
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode(out, n, &c2->hdr, &c2->rej), 0);
	KUNIT_EXPECT_EQ(test, c2->hdr.htype, (u32)RPCRDMA2_HT_ERROR);
	KUNIT_EXPECT_EQ(test, c2->hdr.xid, c->hdr.xid);
	KUNIT_EXPECT_EQ(test, c2->hdr.credits, (u32)CV_CREDITS);
	KUNIT_EXPECT_EQ(test, c2->hdr.err.code, v->reply.code);
	KUNIT_EXPECT_EQ(test, c2->hdr.err.vers.low, v->reply.vers.low);
	KUNIT_EXPECT_EQ(test, c2->hdr.err.vers.high, v->reply.vers.high);
}

/*
 * A v2 reply is never answered (RFC 8166 §4.5): any v2 vector with
 * RPCRDMA2_F_RESPONSE forced on, cut at any length that keeps rdma_flags,
 * decodes or is discarded, with its reason, and has no error reply.
 */
static void codec_reply_never_answered(struct kunit *test)
{
	const struct cv_vec *v = test->param_value;
	struct cvk *c = cvk_alloc(test, cv_lim(v));
	u8 *in = cvk_buf(test), *out = cvk_buf(test);
	u32 cut;
	int rc;

	cv_bytes(v->words, v->nwords, in);
	cv_set_response(in);

	for (cut = RPCRDMA2_V2_PREFIX_SIZE; cut <= cv_len(v); cut++) {
		rc = rpcrdma2_decode(in, cut, &c->hdr, &c->rej);
		if (!rc)
			continue;
		KUNIT_ASSERT_TRUE_MSG(test, c->rej.discard,
				      "cut %u: %s answered with code %u", cut,
				      rpcrdma2_reason_name(c->rej.reason),
				      c->rej.reply.code);
		KUNIT_ASSERT_NE_MSG(test, c->rej.reason,
				    (u32)RPCRDMA2_REASON_NONE, "cut %u", cut);
		KUNIT_ASSERT_EQ_MSG(test,
				    rpcrdma2_encode_reject(&c->hdr, &c->rej,
							   CV_CREDITS, out,
							   CV_BUF_SIZE),
				    -EINVAL, "cut %u", cut);
	}
}

/* The encoder refuses what the specs forbid a sender to send */
static void codec_encode_refuses(struct kunit *test)
{
	const struct cv_enc_bad *b = test->param_value;
	struct cvk *c = cvk_alloc(test, &cv_lim_default);
	u8 *out = cvk_buf(test);

	cv_fill(b->base, &c->hdr);
	KUNIT_ASSERT_GT(test, rpcrdma2_encode(&c->hdr, out, CV_BUF_SIZE), 0);
	b->mutate(&c->hdr);

	KUNIT_EXPECT_EQ(test, rpcrdma2_encode(&c->hdr, out, CV_BUF_SIZE),
			-EINVAL);
}

/* A decoded Read chunk's length sums every segment with its position */
static void codec_read_chunk_length(struct kunit *test)
{
	const struct cv_read_len *r = test->param_value;
	struct cvk *c = cvk_alloc(test, &cv_lim_default);
	u8 *in = cvk_buf(test);

	cv_bytes(r->words, r->nwords, in);
	KUNIT_ASSERT_EQ(test, rpcrdma2_decode(in, r->nwords * 4, &c->hdr,
					      &c->rej), 0);

	KUNIT_EXPECT_EQ(test, cv_read_chunk_length(&c->hdr.cl, r->position),
			r->length);
}

/* Arrays smaller than the limits allow are refused once, at init */
static void codec_init_caps(struct kunit *test)
{
	struct cvk *c = cvk_alloc(test, &cv_lim_default);
	struct rpcrdma2_chunk_lists *cl = &c->hdr.cl;

	KUNIT_EXPECT_EQ(test, rpcrdma2_chunk_lists_init(cl, &cv_lim_default,
							c->reads, 31,
							c->read_chunks,
							CV_READ_CHUNKS_CAP,
							c->writes, 4, c->segs,
							40),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cl->lim.max_segs, 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_chunk_lists_init(cl, &cv_lim_default,
							c->reads, 32,
							c->read_chunks,
							CV_READ_CHUNKS_CAP,
							c->writes, 3, c->segs,
							40),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma2_chunk_lists_init(cl, &cv_lim_default,
							c->reads, 32,
							c->read_chunks,
							CV_READ_CHUNKS_CAP,
							c->writes, 4, c->segs,
							39),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma2_chunk_lists_init(cl, &cv_lim_default,
							c->reads, 32,
							c->read_chunks,
							CV_READ_CHUNKS_CAP - 1,
							c->writes, 4, c->segs,
							40),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma2_chunk_lists_init(cl, &cv_lim_default,
							c->reads, 32,
							c->read_chunks,
							CV_READ_CHUNKS_CAP,
							c->writes, 4, c->segs,
							40), 0);
	KUNIT_EXPECT_EQ(test, cl->lim.max_segs, cv_lim_default.max_segs);
}

/* The version range: zero means 1..2; empty or outside 1..2 is refused */
static void codec_init_vers(struct kunit *test)
{
	static const u32 bad[][2] = { { 0, 1 }, { 1, 0 }, { 2, 1 }, { 1, 3 },
				      { 3, 3 } };
	struct cvk *c = cvk_alloc(test, &cv_lim_default);
	struct rpcrdma2_chunk_lists *cl = &c->hdr.cl;
	struct rpcrdma2_limits lim = cv_lim_default;
	u32 i;

	KUNIT_EXPECT_EQ(test, cl->lim.vers_low, 1U);
	KUNIT_EXPECT_EQ(test, cl->lim.vers_high, 2U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_chunk_lists_init(cl, &cv_lim_v2_only,
							c->reads, CV_READS_CAP,
							c->read_chunks,
							CV_READ_CHUNKS_CAP,
							c->writes,
							CV_WRITES_CAP, c->segs,
							CV_SEGS_CAP), 0);
	KUNIT_EXPECT_EQ(test, cl->lim.vers_low, 2U);
	KUNIT_EXPECT_EQ(test, cl->lim.vers_high, 2U);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		lim.vers_low = bad[i][0];
		lim.vers_high = bad[i][1];
		KUNIT_EXPECT_EQ_MSG(test,
				    rpcrdma2_chunk_lists_init(cl, &lim,
							      c->reads,
							      CV_READS_CAP,
							      c->read_chunks,
							      CV_READ_CHUNKS_CAP,
							      c->writes,
							      CV_WRITES_CAP,
							      c->segs,
							      CV_SEGS_CAP),
				    -EINVAL, "range %u..%u", bad[i][0],
				    bad[i][1]);
		KUNIT_EXPECT_EQ(test, cl->lim.max_segs, 0U);
		KUNIT_EXPECT_EQ(test, cl->lim.vers_low, 1U);
		KUNIT_EXPECT_EQ(test, cl->lim.vers_high, 2U);
	}
}

static struct kunit_case rpcrdma2_codec_cases[] = {
	KUNIT_CASE(codec_init_caps),
	KUNIT_CASE(codec_init_vers),
	KUNIT_CASE_PARAM(codec_decode_valid, cv_valid_gen_params),
	KUNIT_CASE_PARAM(codec_encode_valid, cv_valid_gen_params),
	KUNIT_CASE_PARAM(codec_encode_short, cv_valid_gen_params),
	KUNIT_CASE_PARAM(codec_truncate_valid, cv_valid_gen_params),
	KUNIT_CASE_PARAM(codec_decode_invalid, cv_invalid_gen_params),
	KUNIT_CASE_PARAM(codec_reject_reply, cv_invalid_gen_params),
	KUNIT_CASE_PARAM(codec_reply_never_answered, cv_v2_gen_params),
	KUNIT_CASE_PARAM(codec_encode_refuses, cv_enc_bad_gen_params),
	KUNIT_CASE_PARAM(codec_read_chunk_length, cv_read_len_gen_params),
	{}
};

static struct kunit_suite rpcrdma2_codec_suite = {
	.name = "rpcrdma2_codec",
	.test_cases = rpcrdma2_codec_cases,
};

kunit_test_suite(rpcrdma2_codec_suite);

MODULE_DESCRIPTION("KUnit tests for the rpcrdma2 header codec");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
