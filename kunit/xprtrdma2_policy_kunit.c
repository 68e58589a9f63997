// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for xprtrdma2's pure decisions (xprtrdma2/policy.c): the
 * credit grant taken from an untrusted reply, both inline thresholds in
 * each phase of a connection, what a reply means for the version
 * (draft §7), the errno an RDMA2_ERROR fails its RPC with, when a Call
 * needs a Long Call or a Reply chunk, and whether a returned Reply chunk
 * is the one we offered.
 * Table-driven; each row names the spec rule it checks.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/wordpart.h>

#include "../xprtrdma2/xprt_rdma2.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void xprtrdma2_credits_test(struct kunit *test)
{
	/* RFC 8166 §3.3.1: zero would stall for ever; more is unusable */
	KUNIT_EXPECT_EQ(test, rpcrdma2_credits(0, 64), 1U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credits(1, 64), 1U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credits(32, 64), 32U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credits(64, 64), 64U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credits(65, 64), 64U);
	KUNIT_EXPECT_EQ(test, rpcrdma2_credits(0xffffffff, 64), 64U);
}

struct threshold_vector {
	const char *name;
	u32 vers;		/* 0: negotiating */
	u32 v1;			/* RFC 8797 threshold of that direction */
	u32 rbsiz;		/* the server's RBSIZ (send side) */
	u32 size;		/* our buffer */
	bool known;		/* v2: the server reads our RBSIZ */
	u32 want_send;
	u32 want_recv;
};

static const struct threshold_vector threshold_vectors[] = {
	{ "negotiating: the first Call fits 1024 (draft §7)", 0, 4096, 4096,
	  4096, false, 1024, 4096 },
	{ "negotiating without private data: 1024 both ways", 0, 1024, 4096,
	  4096, false, 1024, 1024 },
	{ "negotiating: what the server read of us does not count yet", 0,
	  8192, 8192, 8192, true, 1024, 4096 },
	{ "v1: RFC 8797 thresholds", 1, 4096, 4096, 8192, false, 4096, 4096 },
	{ "v1 without private data: RFC 8166 default 1024", 1, 1024, 65536,
	  8192, false, 1024, 1024 },
	{ "v1: RBSIZ is no v1 matter", 1, 4096, 65536, 8192, true, 4096,
	  4096 },
	{ "v2: the server's RBSIZ (draft §4.2.1)", 2, 1024, 8192, 16384,
	  false, 8192, 4096 },
	{ "v2: never more than our buffer", 2, 1024, 65536, 4096, false,
	  4096, 4096 },
	{ "v2 default RBSIZ 4096 (draft §7.1)", 2, 1024, 4096, 8192, false,
	  4096, 4096 },
	{ "v2: ours ignored unless known (draft §5.3.4)", 2, 8192, 8192,
	  8192, false, 8192, 4096 },
	{ "v2, ours known: what the server's Send Size allows", 2, 8192,
	  8192, 16384, true, 8192, 8192 },
	{ "v2, ours known, no private data: still the default", 2, 1024,
	  8192, 8192, true, 8192, 4096 },
	{ "v2, ours known: never more than our buffer", 2, 65536, 65536,
	  8192, true, 8192, 8192 },
};

static void threshold_desc(const struct threshold_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(threshold, threshold_vectors, threshold_desc);

static void xprtrdma2_threshold_test(struct kunit *test)
{
	const struct threshold_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma2_send_threshold(v->vers, v->v1, v->rbsiz,
						      v->size), v->want_send);
	KUNIT_EXPECT_EQ(test, rpcrdma2_recv_threshold(v->vers, v->v1, v->size,
						      v->known),
			v->want_recv);
}

struct verdict_vector {
	const char *name;
	u32 conn_vers;
	u32 try_vers;
	u32 vers;		/* of the reply */
	u32 htype;
	u32 code;		/* RDMA2_ERROR code */
	bool v1_layout;
	u32 low, high;		/* ERR_VERS range */
	u32 xid;		/* first Call is 0x100 */
	enum rpcrdma2_vers_verdict want;
};

#define FIRST_XID 0x100

static const struct verdict_vector verdict_vectors[] = {
	{ "v2 reply to the first Call fixes v2 (draft §7.1)", 0, 2, 2,
	  RPCRDMA2_HT_MSG, 0, false, 0, 0, FIRST_XID, RPCRDMA2_VERS_FIXED },
	{ "in-tree svcrdma ERR_VERS 1..1, RFC 8166 layout: fall back (§7.2)",
	  0, 2, 2, RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_VERS, true, 1, 1,
	  FIRST_XID, RPCRDMA2_VERS_FALLBACK },
	{ "ERR_VERS in v1 framing also falls back", 0, 2, 1,
	  RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_VERS, false, 1, 1, FIRST_XID,
	  RPCRDMA2_VERS_FALLBACK },
	{ "ERR_VERS for another xid: not ours to act on", 0, 2, 2,
	  RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_VERS, true, 1, 1, 0x200,
	  RPCRDMA2_VERS_DISCARD },
	{ "ERR_VERS 3..4: no version in common, the Call fails, none fixed",
	  0, 2, 2, RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_VERS, false, 3, 4,
	  FIRST_XID, RPCRDMA2_VERS_PENDING },
	{ "a v1 reply to a v2 Call is discarded (§7.3)", 0, 2, 1,
	  RPCRDMA2_HT_MSG, 0, false, 0, 0, FIRST_XID, RPCRDMA2_VERS_DISCARD },
	{ "an RDMA2_ERROR fixes no version (§5.3.3, §7)", 0, 2, 2,
	  RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_BAD_XDR, false, 0, 0, FIRST_XID,
	  RPCRDMA2_VERS_PENDING },
	{ "... nor does RDMA2_ERR_SYSTEM", 0, 2, 2, RPCRDMA2_HT_ERROR,
	  RPCRDMA2_ERR_SYSTEM, false, 0, 0, FIRST_XID,
	  RPCRDMA2_VERS_PENDING },
	{ "a v1 ERR_CHUNK while negotiating v1 fixes nothing", 0, 1, 1,
	  RPCRDMA2_HT_ERROR, RPCRDMA2_V1_ERR_CHUNK, false, 0, 0, FIRST_XID,
	  RPCRDMA2_VERS_PENDING },
	{ "remembered v1-only server: v1 reply fixes v1", 0, 1, 1,
	  RPCRDMA2_HT_MSG, 0, false, 0, 0, FIRST_XID, RPCRDMA2_VERS_FIXED },
	{ "remembered v1-only: ERR_VERS does not loop", 0, 1, 1,
	  RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_VERS, false, 1, 1, FIRST_XID,
	  RPCRDMA2_VERS_PENDING },
	{ "fixed v2: v2 reply used", 2, 2, 2, RPCRDMA2_HT_MSG, 0, false, 0,
	  0, 0x300, RPCRDMA2_VERS_USE },
	{ "fixed v2: v1 reply discarded (§7.3)", 2, 2, 1, RPCRDMA2_HT_MSG, 0,
	  false, 0, 0, 0x300, RPCRDMA2_VERS_DISCARD },
	{ "fixed v2: late RFC 8166-layout ERR_VERS discarded", 2, 2, 2,
	  RPCRDMA2_HT_ERROR, RPCRDMA2_ERR_VERS, true, 1, 1, 0x300,
	  RPCRDMA2_VERS_DISCARD },
	{ "fixed v1 after fallback: v1 reply used", 1, 2, 1, RPCRDMA2_HT_MSG,
	  0, false, 0, 0, FIRST_XID, RPCRDMA2_VERS_USE },
	{ "fixed v1: a v2 reply discarded (§7.3)", 1, 2, 2, RPCRDMA2_HT_MSG,
	  0, false, 0, 0, 0x300, RPCRDMA2_VERS_DISCARD },
};

static void verdict_desc(const struct verdict_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(verdict, verdict_vectors, verdict_desc);

static void xprtrdma2_verdict_test(struct kunit *test)
{
	const struct verdict_vector *v = test->param_value;
	struct rpcrdma2_hdr hdr = {};

	/* Arrange */
	hdr.xid = v->xid;
	hdr.vers = v->vers;
	hdr.htype = v->htype;
	hdr.err.code = v->code;
	hdr.err.v1_layout = v->v1_layout;
	hdr.err.vers.low = v->low;
	hdr.err.vers.high = v->high;

	/* Act, Assert */
	KUNIT_EXPECT_EQ(test, rpcrdma2_vers_verdict(v->conn_vers, v->try_vers,
						    FIRST_XID, &hdr), v->want);
}

static void xprtrdma2_verdict_stale_err_test(struct kunit *test)
{
	struct rpcrdma2_hdr hdr = {};

	/* the decoder leaves hdr->err alone for other types: ignore it */
	hdr.xid = 0x300;
	hdr.vers = 2;
	hdr.htype = RPCRDMA2_HT_MSG;
	hdr.err.code = RPCRDMA2_ERR_VERS;
	hdr.err.v1_layout = true;
	KUNIT_EXPECT_EQ(test, rpcrdma2_vers_verdict(2, 2, FIRST_XID, &hdr),
			RPCRDMA2_VERS_USE);
}

/* rpcrdma2_error_errno() of code @code, the other fields zero */
static int xprtrdma2_errno_of(u32 code)
{
	struct rpcrdma2_error err = { .code = code };

	return rpcrdma2_error_errno(&err, RPCRDMA2_VERS_2, true, 4200);
}

static void xprtrdma2_error_errno_test(struct kunit *test)
{
	/* draft §5.3.3 codes; none may be one sunrpc retries for ever */
	KUNIT_EXPECT_EQ(test, xprtrdma2_errno_of(RPCRDMA2_ERR_VERS),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, xprtrdma2_errno_of(RPCRDMA2_ERR_BAD_XDR), -EIO);
	KUNIT_EXPECT_EQ(test, xprtrdma2_errno_of(RPCRDMA2_ERR_INVAL_HTYPE),
			-EIO);
	KUNIT_EXPECT_EQ(test, xprtrdma2_errno_of(RPCRDMA2_ERR_SEGMENTS), -EIO);
	KUNIT_EXPECT_EQ(test, xprtrdma2_errno_of(RPCRDMA2_ERR_SYSTEM),
			-EREMOTEIO);
	KUNIT_EXPECT_EQ(test, xprtrdma2_errno_of(0x1234), -EIO);
}

/* v1 ERR_CHUNK (RFC 8166 §4.5.3) to a Call with or without DDP chunks */
static void xprtrdma2_err_chunk_errno_test(struct kunit *test)
{
	struct rpcrdma2_error err = { .code = RPCRDMA2_V1_ERR_CHUNK };
	struct rpcrdma2_error vers = { .code = RPCRDMA2_V1_ERR_VERS };

	/* inline or Reply chunk only: the reply overran the whole buffer */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_errno(&err, RPCRDMA2_VERS_1,
						   true, 4200), -ERANGE);
	/* a Read or Write chunk may be what it is about */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_errno(&err, RPCRDMA2_VERS_1,
						   false, 4200), -EIO);
	/* v2's BAD_XDR shares the code and means our header: no ERANGE */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_errno(&err, RPCRDMA2_VERS_2,
						   true, 4200), -EIO);
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_errno(&vers, RPCRDMA2_VERS_1,
						   true, 4200),
			-EPROTONOSUPPORT);
}

static void xprtrdma2_error_resend_test(struct kunit *test)
{
	const u32 both = RPCRDMA2_DDP_READ | RPCRDMA2_DDP_WRITE;
	const u32 v2 = RPCRDMA2_VERS_2;

	/* draft §5.3.3: resend with a Position-Zero Read chunk */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_READ_CHUNKS,
						    v2, both),
			RPCRDMA2_DDP_READ);
	/* ... but a Long Call that got it fails */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_READ_CHUNKS,
						    v2, RPCRDMA2_DDP_WRITE), 0);
	/* resend with no Write chunk and a Reply chunk */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_WRITE_CHUNKS,
						    v2, both),
			RPCRDMA2_DDP_WRITE);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_error_resend(RPCRDMA2_ERR_REPLY_RESOURCE, v2,
					      RPCRDMA2_DDP_WRITE),
			RPCRDMA2_DDP_WRITE);
	/* a Reply chunk already: nothing bigger to offer */
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_error_resend(RPCRDMA2_ERR_REPLY_RESOURCE, v2,
					      RPCRDMA2_DDP_READ), 0);
	KUNIT_EXPECT_EQ(test,
			rpcrdma2_error_resend(RPCRDMA2_ERR_WRITE_RESOURCE, v2,
					      both), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_SEGMENTS, v2,
						    both), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_SYSTEM, v2,
						    both), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_BAD_XDR, v2,
						    both), 0);
	/* v1 has no such codes: a resend is never the answer there */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_resend(RPCRDMA2_ERR_READ_CHUNKS,
						    RPCRDMA2_VERS_1, both), 0);
}

static void xprtrdma2_error_conn_off_test(struct kunit *test)
{
	struct rpcrdma2_error err = { .code = RPCRDMA2_ERR_READ_CHUNKS };

	/* draft §5.3.3: rdma_max_chunks 0, no Read chunk is ever taken */
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_conn_off(&err, RPCRDMA2_VERS_2),
			RPCRDMA2_DDP_READ);
	/* fewer Read chunks than this Call had: later Calls may fit */
	err.max_chunks = 1;
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_conn_off(&err, RPCRDMA2_VERS_2),
			0);
	/* REPLY_RESOURCE is also a Reply chunk too small for this reply */
	err.code = RPCRDMA2_ERR_REPLY_RESOURCE;
	err.length_needed = 0;
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_conn_off(&err, RPCRDMA2_VERS_2),
			0);
	err.code = RPCRDMA2_ERR_WRITE_CHUNKS;
	err.max_chunks = 0;
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_conn_off(&err, RPCRDMA2_VERS_2),
			0);
	/* no such code in v1 */
	err.code = RPCRDMA2_ERR_READ_CHUNKS;
	KUNIT_EXPECT_EQ(test, rpcrdma2_error_conn_off(&err, RPCRDMA2_VERS_1),
			0);
}

/* RDMA2_ERR_REPLY_RESOURCE needing @needed bytes for a @buflen buffer */
static int xprtrdma2_resource_errno(u32 needed, u32 buflen)
{
	struct rpcrdma2_error err = {
		.code = RPCRDMA2_ERR_REPLY_RESOURCE,
		.length_needed = needed,
	};

	return rpcrdma2_error_errno(&err, RPCRDMA2_VERS_2, true, buflen);
}

static void xprtrdma2_reply_resource_errno_test(struct kunit *test)
{
	/* a reply the buffer cannot take: what TCP's decoder would say */
	KUNIT_EXPECT_EQ(test, xprtrdma2_resource_errno(60100, 4200), -ERANGE);
	KUNIT_EXPECT_EQ(test, xprtrdma2_resource_errno(U32_MAX, 0), -ERANGE);
	/* it would fit the buffer: our Reply chunk fell short */
	KUNIT_EXPECT_EQ(test, xprtrdma2_resource_errno(4200, 4200), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, xprtrdma2_resource_errno(0, 4200), -EMSGSIZE);
}

/* a reply teaches the guess only with half the threshold to spare */
static void xprtrdma2_guess_fits_test(struct kunit *test)
{
	u32 room = 2048 - RPCRDMA2_REPLY_HDR_MAX;

	KUNIT_EXPECT_TRUE(test, rpcrdma2_guess_fits(0, 4096));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_guess_fits(room, 4096));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_fits(room + 4, 4096));
	KUNIT_EXPECT_TRUE(test, rpcrdma2_guess_fits(room + 2048, 8192));
	/* an untrusted length does not wrap round to small */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_fits(U32_MAX, 4096));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_fits(U32_MAX - 8, 4096));
}

/* the run a record needs before a guess, after @misses refusals */
static u32 guess_needs(u32 misses)
{
	return RPCRDMA2_GUESS_RUN << misses;
}

static void xprtrdma2_guess_run_test(struct kunit *test)
{
	const u32 tag = 0x1235, other = 0x5679;
	u64 rec = 0;
	u32 i;

	/* no guess until RPCRDMA2_GUESS_RUN replies in a row fit */
	for (i = 0; i < RPCRDMA2_GUESS_RUN; i++) {
		KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
		rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_FIT);
	}
	KUNIT_EXPECT_TRUE(test, rpcrdma2_guess_inline(rec, tag));
	/* another procedure's record says nothing of this one */
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, other));
	/* one large reply starts the run again, and costs no more */
	rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_LARGE);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
	for (i = 0; i < RPCRDMA2_GUESS_RUN - 1; i++)
		rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_FIT);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
	rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_FIT);
	KUNIT_EXPECT_TRUE(test, rpcrdma2_guess_inline(rec, tag));
	/* a procedure hashed to the same slot takes it over from scratch */
	rec = rpcrdma2_guess_next(rec, other, RPCRDMA2_GUESS_FIT);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, other));
	KUNIT_EXPECT_EQ(test, rec & 0xffff, 1ULL);
	/* the run stops at the cap, which is a fixed point */
	for (i = 0; i < 2 * RPCRDMA2_GUESS_CAP; i++)
		rec = rpcrdma2_guess_next(rec, other, RPCRDMA2_GUESS_FIT);
	KUNIT_EXPECT_EQ(test, rec & 0xff, (u64)RPCRDMA2_GUESS_CAP);
	KUNIT_EXPECT_EQ(test, rpcrdma2_guess_next(rec, other, RPCRDMA2_GUESS_FIT),
			rec);
}

/*
 * Each refusal doubles the run the next guess needs, so replies of Calls
 * in flight cannot have a procedure refused over and over; after
 * RPCRDMA2_GUESS_MISSES_MAX it never guesses again.
 */
static void xprtrdma2_guess_refused_test(struct kunit *test)
{
	const u32 tag = 0x2469;
	u64 rec = 0;
	u32 m, i;

	for (m = 0; m < RPCRDMA2_GUESS_MISSES_MAX; m++) {
		for (i = 0; i < guess_needs(m) - 1; i++)
			rec = rpcrdma2_guess_next(rec, tag,
						  RPCRDMA2_GUESS_FIT);
		KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
		rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_FIT);
		KUNIT_EXPECT_TRUE_MSG(test, rpcrdma2_guess_inline(rec, tag),
				      "after %u refusals", m);
		rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_REFUSED);
		KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
	}
	/* the last refusal: a full run at the cap is not enough */
	for (i = 0; i < 2 * RPCRDMA2_GUESS_CAP; i++)
		rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_FIT);
	KUNIT_EXPECT_FALSE(test, rpcrdma2_guess_inline(rec, tag));
	/* and more refusals change nothing */
	rec = rpcrdma2_guess_next(rec, tag, RPCRDMA2_GUESS_REFUSED);
	KUNIT_EXPECT_EQ(test, (rec >> 8) & 0xff, (u64)RPCRDMA2_GUESS_MISSES_MAX);
	/* a large reply is no refusal: it only starts the run again */
	rec = rpcrdma2_guess_next(0, tag, RPCRDMA2_GUESS_LARGE);
	KUNIT_EXPECT_EQ(test, (rec >> 8) & 0xff, 0ULL);
}

struct chunk_vector {
	const char *name;
	u32 inline_len;		/* header + RPC message, sent inline */
	u32 send_threshold;
	u32 rcv_buflen;		/* rq_rcv_buf.buflen */
	u32 recv_threshold;
	bool want_long_call;
	bool want_reply_chunk;
};

static const struct chunk_vector chunk_vectors[] = {
	{ "a small Call and reply stay inline", 200, 4096, 1000, 4096,
	  false, false },
	{ "a Call exactly at the threshold goes inline (RFC 8166 §3.3.2)",
	  4096, 4096, 100, 4096, false, false },
	{ "one byte over the threshold: Long Call (RFC 8166 §3.5.1)", 4097,
	  4096, 100, 4096, true, false },
	{ "a first Call over 1024 while negotiating: Long Call (draft §7)",
	  1100, 1024, 100, 1024, true, false },
	{ "the reply's header counts: buflen 4060 + 36 fits 4096", 100, 4096,
	  4060, 4096, false, false },
	{ "buflen 4061 + 36 does not: Reply chunk (RFC 8166 §3.5.3)", 100,
	  4096, 4061, 4096, false, true },
	{ "a 1 MiB READ reply: Reply chunk", 200, 4096, 1048576 + 500, 4096,
	  false, true },
	{ "a 1 MiB WRITE: Long Call and a small reply", 1048576 + 300, 4096,
	  200, 4096, true, false },
	{ "a huge buflen does not wrap", 100, 4096, 0xffffffff, 4096, false,
	  true },
};

static void chunk_desc(const struct chunk_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(chunk, chunk_vectors, chunk_desc);

static void xprtrdma2_chunk_test(struct kunit *test)
{
	const struct chunk_vector *v = test->param_value;
	bool long_call, reply_chunk;

	long_call = rpcrdma2_use_long_call(v->inline_len, v->send_threshold);
	reply_chunk = rpcrdma2_use_reply_chunk(v->rcv_buflen,
					       v->recv_threshold);

	KUNIT_EXPECT_EQ(test, long_call, v->want_long_call);
	KUNIT_EXPECT_EQ(test, reply_chunk, v->want_reply_chunk);
}

#define RCV_MAX	4
struct reply_chunk_vector {
	const char *name;
	u32 nr_offered;
	struct rpcrdma2_seg offered[RCV_MAX];
	u32 nr_returned;
	struct rpcrdma2_seg returned[RCV_MAX];
	int want;
	u32 want_written;
};

#define SEG(h, l)	{ .handle = (h), .length = (l), .offset = 0 }

static const struct reply_chunk_vector reply_chunk_vectors[] = {
	{ "all three segments, full", 3,
	  { SEG(1, 200), SEG(2, 4096), SEG(3, 100) }, 3,
	  { SEG(1, 200), SEG(2, 4096), SEG(3, 100) }, 0, 4396 },
	{ "a short reply: the head only, fewer segments (RFC 8166 §3.4.6)",
	  3, { SEG(1, 200), SEG(2, 4096), SEG(3, 100) }, 1,
	  { SEG(1, 120) }, 0, 120 },
	{ "into the pages, trailing segment returned empty", 3,
	  { SEG(1, 200), SEG(2, 4096), SEG(3, 100) }, 3,
	  { SEG(1, 200), SEG(2, 1000), SEG(3, 0) }, 0, 1200 },
	{ "no segment at all", 2, { SEG(1, 200), SEG(2, 4096) }, 0, {},
	  -EIO, 0 },
	{ "more segments than offered", 1, { SEG(1, 200) }, 2,
	  { SEG(1, 200), SEG(2, 10) }, -EIO, 0 },
	{ "a handle we did not offer", 2, { SEG(1, 200), SEG(2, 4096) }, 2,
	  { SEG(1, 200), SEG(7, 4096) }, -EIO, 0 },
	{ "our handles out of order", 2, { SEG(1, 200), SEG(2, 4096) }, 2,
	  { SEG(2, 200), SEG(1, 4096) }, -EIO, 0 },
	{ "longer than offered", 2, { SEG(1, 200), SEG(2, 4096) }, 2,
	  { SEG(1, 200), SEG(2, 4097) }, -EIO, 0 },
	{ "a hole: bytes after a short segment", 3,
	  { SEG(1, 200), SEG(2, 4096), SEG(3, 100) }, 3,
	  { SEG(1, 100), SEG(2, 4096), SEG(3, 0) }, -EIO, 0 },
	{ "an unused Write chunk: every segment empty (RFC 8166 §3.4.6)", 2,
	  { SEG(1, 4096), SEG(2, 4096) }, 2, { SEG(1, 0), SEG(2, 0) }, 0, 0 },
};

static void reply_chunk_desc(const struct reply_chunk_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reply_chunk, reply_chunk_vectors, reply_chunk_desc);

static void xprtrdma2_reply_chunk_test(struct kunit *test)
{
	const struct reply_chunk_vector *v = test->param_value;
	u32 written = 0xdeadbeef;
	int ret;

	ret = rpcrdma2_chunk_check(v->offered, v->nr_offered, v->returned,
				   v->nr_returned, &written);

	KUNIT_EXPECT_EQ(test, ret, v->want);
	if (!v->want)
		KUNIT_EXPECT_EQ(test, written, v->want_written);
}

/* RPCRDMA2_CALL_HDR_MAX is 272 bytes, RPCRDMA2_REPLY_HDR_WRITE_MAX 108 */
struct ddp_vector {
	const char *name;
	u32 nonpayload;		/* head + tail (less the roundup, for a Call) */
	u32 threshold;
	bool want_read_chunk;
	bool want_write_chunk;
};

static const struct ddp_vector ddp_vectors[] = {
	{ "an NFS WRITE's or READ's header fits 1024 in v1", 300, 1024,
	  true, true },
	{ "v2: 3824 + the largest Call header is 4096", 3824, 4096, true,
	  true },
	{ "v2: 3825 is a Long Call; the reply still fits", 3825, 4096, false,
	  true },
	{ "v2: 3988 + the largest Write-list reply header is 4096", 3988,
	  4096, false, true },
	{ "v2: 3989 needs a Reply chunk", 3989, 4096, false, false },
	{ "v1: 752 + the largest Call header is 1024", 752, 1024, true,
	  true },
	{ "v1: 917 besides the payload: a Long Call and a Reply chunk", 917,
	  1024, false, false },
	{ "a huge head does not wrap", 0xffffffff, 4096, false, false },
};

static void ddp_desc(const struct ddp_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddp, ddp_vectors, ddp_desc);

static void xprtrdma2_ddp_test(struct kunit *test)
{
	const struct ddp_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma2_use_read_chunk(v->nonpayload,
						      v->threshold),
			v->want_read_chunk);
	KUNIT_EXPECT_EQ(test, rpcrdma2_use_write_chunk(v->nonpayload,
						       v->threshold),
			v->want_write_chunk);
}

struct layout_vector {
	const char *name;
	u32 inline_len, head_len, written, buflen;
	int want;		/* total, or -EIO */
	u32 want_pos;
};

static const struct layout_vector layout_vectors[] = {
	{ "NFS READ: the inline part is shorter than the head estimate",
	  120, 200, 4096, 200 + 4096 + 4, 120 + 4096, 120 },
	{ "an odd payload gets its roundup back (RFC 8166 §3.4.6)",
	  120, 200, 4095, 200 + 4096 + 4, 120 + 4096, 120 },
	{ "an error reply: nothing written", 40, 200, 0, 200 + 4096 + 4, 40,
	  40 },
	{ "bytes after the payload follow it and its roundup",
	  260, 200, 1001, 200 + 4096 + 100, 260 + 1004, 200 },
	{ "exactly the buffer", 200, 200, 4096, 200 + 4096, 200 + 4096,
	  200 },
	{ "one word over the buffer", 204, 200, 4096, 200 + 4096, -EIO, 0 },
	{ "more inline than the buffer holds", 3000, 200, 4096,
	  200 + 4096 + 100, -EIO, 0 },
	{ "a head larger than the buffer", 10, 300, 0, 200, -EIO, 0 },
	{ "a huge length does not wrap", 100, 200, 0xfffffffc, 0xffffffff,
	  -EIO, 0 },
};

static void layout_desc(const struct layout_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(layout, layout_vectors, layout_desc);

static void xprtrdma2_ddp_layout_test(struct kunit *test)
{
	const struct layout_vector *v = test->param_value;
	u32 pos = 0xdeadbeef;
	int ret;

	ret = rpcrdma2_ddp_layout(v->inline_len, v->head_len, v->written,
				  v->buflen, &pos);
	KUNIT_EXPECT_EQ(test, ret, v->want);
	if (v->want >= 0)
		KUNIT_EXPECT_EQ(test, pos, v->want_pos);
}

/*
 * rpcrdma2_max_payload(): the pages two MRs map, less one for a payload
 * that does not start on a page boundary, capped at 1 MiB; and for every
 * depth, the largest payload fits a chunk of head, pages and tail at any
 * alignment while one page more would not (unless capped).
 */
static void xprtrdma2_max_payload_test(struct kunit *test)
{
	static const struct {
		u32 depth;
		u32 pages;	/* 0: capped at RPCRDMA2_MAX_PAYLOAD */
	} v[] = {
		{ 4, 7 }, { 32, 63 }, { 128, 255 }, { 129, 0 }, { 256, 0 },
		{ 512, 0 },
	};
	u32 depth, i, pages;

	KUNIT_EXPECT_EQ(test, rpcrdma2_max_payload(0), 0);
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		u32 want = v[i].pages ? v[i].pages << PAGE_SHIFT :
					RPCRDMA2_MAX_PAYLOAD;

		KUNIT_EXPECT_EQ_MSG(test, rpcrdma2_max_payload(v[i].depth),
				    want, "depth %u", v[i].depth);
	}
	for (depth = 1; depth <= 2 * RPCRDMA2_MAX_MR_DEPTH; depth++) {
		pages = rpcrdma2_max_payload(depth) >> PAGE_SHIFT;
		/* head, the pages it spans unaligned, tail */
		KUNIT_EXPECT_LE_MSG(test, 2 + DIV_ROUND_UP(pages + 1, depth),
				    RPCRDMA2_MAX_CHUNK_MRS, "depth %u", depth);
		if (pages < RPCRDMA2_MAX_PAYLOAD >> PAGE_SHIFT)
			KUNIT_EXPECT_GT_MSG(test,
					    2 + DIV_ROUND_UP(pages + 2, depth),
					    RPCRDMA2_MAX_CHUNK_MRS,
					    "depth %u", depth);
	}
}

static struct kunit_case xprtrdma2_policy_cases[] = {
	KUNIT_CASE(xprtrdma2_credits_test),
	KUNIT_CASE_PARAM(xprtrdma2_threshold_test, threshold_gen_params),
	KUNIT_CASE_PARAM(xprtrdma2_verdict_test, verdict_gen_params),
	KUNIT_CASE(xprtrdma2_verdict_stale_err_test),
	KUNIT_CASE(xprtrdma2_error_errno_test),
	KUNIT_CASE(xprtrdma2_err_chunk_errno_test),
	KUNIT_CASE(xprtrdma2_error_resend_test),
	KUNIT_CASE(xprtrdma2_error_conn_off_test),
	KUNIT_CASE(xprtrdma2_reply_resource_errno_test),
	KUNIT_CASE(xprtrdma2_guess_fits_test),
	KUNIT_CASE(xprtrdma2_guess_run_test),
	KUNIT_CASE(xprtrdma2_guess_refused_test),
	KUNIT_CASE_PARAM(xprtrdma2_chunk_test, chunk_gen_params),
	KUNIT_CASE_PARAM(xprtrdma2_reply_chunk_test, reply_chunk_gen_params),
	KUNIT_CASE_PARAM(xprtrdma2_ddp_test, ddp_gen_params),
	KUNIT_CASE_PARAM(xprtrdma2_ddp_layout_test, layout_gen_params),
	KUNIT_CASE(xprtrdma2_max_payload_test),
	{}
};

static struct kunit_suite xprtrdma2_policy_suite = {
	.name = "xprtrdma2_policy",
	.test_cases = xprtrdma2_policy_cases,
};

kunit_test_suite(xprtrdma2_policy_suite);

MODULE_DESCRIPTION("KUnit tests for xprtrdma2 client policy");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
