// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for svcrdma2's pure decisions (svcrdma2/policy.c): which
 * handle a reply remotely invalidates, the inline threshold of a reply,
 * chunk capacity, the credit grant, and for the backchannel whether a
 * client takes reverse-direction Calls and the window its grant sets.
 * Table-driven; each row names the spec rule it checks.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../svcrdma2/svc_rdma2.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct inv_vector {
	const char *name;
	u32 vers;
	u32 inv_handle;		/* v2 rdma_inv_handle */
	u32 nr_reads;		/* Read segments, handles 0xr0.. */
	u32 nr_segs;		/* Write/Reply segments, handles 0xs0.. */
	bool reminv_ok;
	bool dev_reminv;
	u32 want;
};

static const struct inv_vector inv_vectors[] = {
	{ "v2 names a handle: draft §3.3", 2, 0x1234, 0, 1, false, true,
	  0x1234 },
	{ "v2 rdma_inv_handle 0 means plain Send", 2, 0, 0, 1, true, true, 0 },
	{ "v2 ignores the RFC 8797 R bit", 2, 0x77, 1, 0, false, true, 0x77 },
	{ "v2 device without MEM_MGT_EXTENSIONS", 2, 0x1234, 0, 1, true,
	  false, 0 },
	{ "v1 both R bits: first Write/Reply handle (RFC 8797 §4.1)", 1, 0,
	  1, 2, true, true, 0x5100 },
	{ "v1 both R bits, Read list only: its handle", 1, 0, 2, 0, true,
	  true, 0x4100 },
	{ "v1 both R bits, no chunk: plain Send", 1, 0, 0, 0, true, true, 0 },
	{ "v1 a peer cleared R: plain Send (RFC 8797 §4.1)", 1, 0, 1, 2,
	  false, true, 0 },
	{ "v1 device cannot invalidate", 1, 0, 1, 2, true, false, 0 },
};

static void inv_desc(const struct inv_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(inv, inv_vectors, inv_desc);

static void svcrdma2_inv_handle_test(struct kunit *test)
{
	const struct inv_vector *v = test->param_value;
	struct rpcrdma2_read_seg reads[4] = {};
	struct rpcrdma2_seg segs[4] = {};
	struct rpcrdma2_hdr hdr = {};
	u32 i;

	/* Arrange */
	hdr.vers = v->vers;
	hdr.cl.reads = reads;
	hdr.cl.segs = segs;
	hdr.cl.inv_handle = v->inv_handle;
	hdr.cl.nr_reads = v->nr_reads;
	hdr.cl.nr_segs = v->nr_segs;
	for (i = 0; i < ARRAY_SIZE(reads); i++)
		reads[i].seg.handle = 0x4100 + i;
	for (i = 0; i < ARRAY_SIZE(segs); i++)
		segs[i].handle = 0x5100 + i;

	/* Act, Assert */
	KUNIT_EXPECT_EQ(test, svc_rdma2_inv_handle(&hdr, v->reminv_ok,
						   v->dev_reminv), v->want);
}

struct limit_vector {
	const char *name;
	u32 vers, v1_inline, rbsiz, buf, want;
};

static const struct limit_vector limit_vectors[] = {
	{ "v1 uses the RFC 8797 threshold", 1, 1024, 8192, 4096, 1024 },
	{ "v1 4 KiB peer", 1, 4096, 1024, 4096, 4096 },
	{ "v2 uses the peer's RBSIZ (draft §4.2.1)", 2, 1024, 2048, 4096,
	  2048 },
	{ "v2 default RBSIZ 4096 (draft §8.3)", 2, 1024, 4096, 4096, 4096 },
	{ "v2 never beyond our Send buffer", 2, 1024, 65536, 8192, 8192 },
};

static void limit_desc(const struct limit_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(limit, limit_vectors, limit_desc);

static void svcrdma2_inline_limit_test(struct kunit *test)
{
	const struct limit_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, svc_rdma2_reply_inline_limit(v->vers,
							   v->v1_inline,
							   v->rbsiz, v->buf),
			v->want);
}

static void svcrdma2_grant_test(struct kunit *test)
{
	/* RFC 8166 §3.3.1: never more than posted, never zero */
	KUNIT_EXPECT_EQ(test, svc_rdma2_grant(64, 68), 64U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_grant(64, 10), 10U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_grant(5, 0), 1U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_grant(0, 8), 1U);
}

static void svcrdma2_chunk_length_test(struct kunit *test)
{
	struct rpcrdma2_seg segs[3] = {
		{ .length = 4096 }, { .length = 0xffffffff }, { .length = 7 },
	};
	struct rpcrdma2_chunk_lists cl = { .segs = segs, .nr_segs = 3 };
	struct rpcrdma2_chunk all = { .first = 0, .nsegs = 3 };
	struct rpcrdma2_chunk last = { .first = 2, .nsegs = 1 };
	struct rpcrdma2_chunk empty = { .first = 1, .nsegs = 0 };

	/* segment lengths are untrusted: the sum must not wrap */
	KUNIT_EXPECT_EQ(test, svc_rdma2_chunk_length(&cl, &all),
			4096ULL + 0xffffffffULL + 7);
	KUNIT_EXPECT_EQ(test, svc_rdma2_chunk_length(&cl, &last), 7ULL);
	KUNIT_EXPECT_EQ(test, svc_rdma2_chunk_length(&cl, &empty), 0ULL);
}

struct bc_accepts_vector {
	const char *name;
	u32 vers;
	u32 brs;
	bool want;
};

static const struct bc_accepts_vector bc_accepts_vectors[] = {
	{ "v1 always carries callbacks (RFC 8167)", 1, 0, true },
	{ "v2 default BRS INLINE (no CONNPROP): draft §4.2.2", 2, 1, true },
	{ "v2 BRS NONE: the client takes no reverse Calls", 2, 0, false },
	{ "v2 BRS GENL takes our inline Calls too", 2, 2, true },
	{ "v2 unknown BRS value: not NONE, so inline is fine", 2, 7, true },
	{ "version not fixed yet: no header to write", 0, 1, false },
	{ "a version we do not speak", 3, 1, false },
};

static void bc_accepts_desc(const struct bc_accepts_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bc_accepts, bc_accepts_vectors, bc_accepts_desc);

static void svcrdma2_bc_accepts_test(struct kunit *test)
{
	const struct bc_accepts_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, svc_rdma2_bc_peer_accepts(v->vers, v->brs),
			v->want);
}

static void svcrdma2_bc_window_test(struct kunit *test)
{
	/* RFC 8167 §4: the client's grant, never 0, never past our slots */
	KUNIT_EXPECT_EQ(test, svc_rdma2_bc_window(16, 8), 8U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_bc_window(3, 8), 3U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_bc_window(0, 8), 1U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_bc_window(0xffffffff, 8), 8U);
	KUNIT_EXPECT_EQ(test, svc_rdma2_bc_window(5, 0), 1U);
}

/* The Send Queue a connection's sizes ask of the device, before rdma_rw */
static u32 qp_send_wrs(const struct svc_rdma2_qp_sizes *s)
{
	return s->sq_depth + s->rw_ctxs;
}

static void svcrdma2_qp_size_test(struct kunit *test)
{
	/* the default credits on a device as large as rxe's (16 KiB WRs) */
	u32 payload_wrs = DIV_ROUND_UP(SVC_RDMA2_RW_LARGE_NENTS,
				       SVC_RDMA2_RW_SGES);
	struct svc_rdma2_qp_sizes s;

	svc_rdma2_qp_size(64, 16384, 32, 32, &s);
	KUNIT_EXPECT_EQ(test, s.max_requests, 64U);
	/* a Receive per credit and per callback reply, and some ahead */
	KUNIT_EXPECT_EQ(test, s.rq_depth,
			64U + SVC_RDMA2_EXTRA_RECVS + SVC_RDMA2_BC_REQS);
	KUNIT_EXPECT_EQ(test, s.recv_cap, 2 * s.rq_depth);
	/* a reply Send per credit, the callbacks, our own messages */
	KUNIT_EXPECT_EQ(test, s.sq_depth,
			64U + SVC_RDMA2_OWN_SENDS + SVC_RDMA2_BC_REQS);
	/* every Write chunk and the Reply chunk of every credit */
	KUNIT_EXPECT_EQ(test, s.rw_ctxs,
			64U * (SVC_RDMA2_MAX_WRITE_CHUNKS + 1));
	KUNIT_EXPECT_EQ(test, s.sges, (u32)SVC_RDMA2_RW_SGES);
	KUNIT_EXPECT_EQ(test, s.rw_wrs, 64 * payload_wrs);

	/* one gather entry per WR (as rxe once had): a WR per page */
	svc_rdma2_qp_size(64, 16384, 1, 32, &s);
	KUNIT_EXPECT_EQ(test, s.sges, 1U);
	KUNIT_EXPECT_EQ(test, s.rw_wrs, 64U * SVC_RDMA2_RW_LARGE_NENTS);
	/* a device that reports no Read scatter entries still gets one */
	svc_rdma2_qp_size(64, 16384, 32, 0, &s);
	KUNIT_EXPECT_EQ(test, s.sges, 1U);

	/* too few WRs for 64 credits: fewer credits, and they fit */
	svc_rdma2_qp_size(64, 256, 32, 32, &s);
	KUNIT_EXPECT_EQ(test, s.max_requests,
			256U / SVC_RDMA2_MIN_WRS_PER_CREDIT);
	KUNIT_EXPECT_LE(test, s.rq_depth, 256U);
	KUNIT_EXPECT_LE(test, qp_send_wrs(&s), 256U);
	KUNIT_EXPECT_EQ(test, s.rw_ctxs,
			s.max_requests * SVC_RDMA2_MIN_RW_CTXS);
	/* exactly enough WRs keeps every credit */
	svc_rdma2_qp_size(4, 4 * (2 + SVC_RDMA2_MAX_WRITE_CHUNKS) +
			  SVC_RDMA2_OWN_SENDS + SVC_RDMA2_BC_REQS, 32, 32, &s);
	KUNIT_EXPECT_EQ(test, s.max_requests, 4U);
	KUNIT_EXPECT_EQ(test, s.rw_ctxs, 4U * (SVC_RDMA2_MAX_WRITE_CHUNKS + 1));
	/* a degenerate device still gets one credit */
	svc_rdma2_qp_size(64, 4, 32, 32, &s);
	KUNIT_EXPECT_EQ(test, s.max_requests, 1U);
}

static struct kunit_case svcrdma2_policy_cases[] = {
	KUNIT_CASE_PARAM(svcrdma2_inv_handle_test, inv_gen_params),
	KUNIT_CASE_PARAM(svcrdma2_inline_limit_test, limit_gen_params),
	KUNIT_CASE(svcrdma2_grant_test),
	KUNIT_CASE(svcrdma2_chunk_length_test),
	KUNIT_CASE_PARAM(svcrdma2_bc_accepts_test, bc_accepts_gen_params),
	KUNIT_CASE(svcrdma2_bc_window_test),
	KUNIT_CASE(svcrdma2_qp_size_test),
	{}
};

static struct kunit_suite svcrdma2_policy_suite = {
	.name = "svcrdma2_policy",
	.test_cases = svcrdma2_policy_cases,
};

kunit_test_suite(svcrdma2_policy_suite);

MODULE_DESCRIPTION("KUnit tests for svcrdma2 reply policy");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
