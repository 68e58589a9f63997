// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the RFC 8797 CM private data library in
 * rpcrdma2_common.ko: the kernel build of the same code and the same
 * vectors (tests/vectors/cm_pdata_vectors.h) as the userspace test.
 * Input buffers are copied into allocations of exactly their length so
 * KASAN catches any over-read.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <rpcrdma2/cm_pdata.h>
#include "cm_pdata_vectors.h"

static void cm_pdata_parse_desc(const struct cm_pdata_parse_vector *v,
				char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cm_pdata_parse, cm_pdata_parse_vectors, cm_pdata_parse_desc);

static void cm_pdata_parse_test(struct kunit *test)
{
	const struct cm_pdata_parse_vector *v = test->param_value;
	struct rpcrdma2_cm_pdata out;
	u8 *buf = NULL;
	int ret;

	/* Arrange: exact-size copy; *out full of garbage */
	if (v->buf) {
		buf = kunit_kmalloc(test, v->len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
		memcpy(buf, v->buf, v->len);
	}
	memset(&out, 0xa5, sizeof(out));

	/* Act */
	ret = rpcrdma2_cm_pdata_parse(buf, v->len, &out);

	/* Assert */
	KUNIT_EXPECT_EQ(test, ret, v->ret);
	KUNIT_EXPECT_EQ(test, out.version, v->want.version);
	KUNIT_EXPECT_EQ(test, out.reminv, v->want.reminv);
	KUNIT_EXPECT_EQ(test, out.send_size, v->want.send_size);
	KUNIT_EXPECT_EQ(test, out.recv_size, v->want.recv_size);
}

static void cm_pdata_build_desc(const struct cm_pdata_build_vector *v,
				char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cm_pdata_build, cm_pdata_build_vectors, cm_pdata_build_desc);

static void cm_pdata_build_test(struct kunit *test)
{
	const struct cm_pdata_build_vector *v = test->param_value;
	size_t written = v->ret > 0 ? v->ret : 0;
	size_t i;
	u8 *buf;
	int ret;

	/* Arrange: an exact-size buffer full of a sentinel */
	buf = kunit_kmalloc(test, v->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	memset(buf, 0xa5, v->len);

	/* Act */
	ret = rpcrdma2_cm_pdata_build(buf, v->len, v->reminv,
				      v->send_size, v->recv_size);

	/* Assert: the message, and nothing written beyond it */
	KUNIT_ASSERT_EQ(test, ret, v->ret);
	KUNIT_EXPECT_MEMEQ(test, buf, v->bytes, written);
	for (i = written; i < v->len; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], 0xa5, "byte %zu written", i);
}

static void cm_pdata_size_desc(const struct cm_pdata_size_vector *v,
			       char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cm_pdata_size, cm_pdata_size_vectors, cm_pdata_size_desc);

static void cm_pdata_size_test(struct kunit *test)
{
	const struct cm_pdata_size_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma2_cm_pdata_size_encode(v->size), v->enc);
	KUNIT_EXPECT_EQ(test, rpcrdma2_cm_pdata_size_decode(v->enc), v->dec);
}

static void cm_pdata_negotiate_desc(const struct cm_pdata_negotiate_vector *v,
				    char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cm_pdata_negotiate, cm_pdata_negotiate_vectors,
		  cm_pdata_negotiate_desc);

static void cm_pdata_negotiate_test(struct kunit *test)
{
	const struct cm_pdata_negotiate_vector *v = test->param_value;
	u32 snd = 0xdeadbeef, rcv = 0xdeadbeef;

	rpcrdma2_cm_pdata_negotiate(v->has_peer ? &v->peer : NULL,
				    v->own_send, v->own_recv, v->def_inline,
				    &snd, &rcv);

	KUNIT_EXPECT_EQ(test, snd, v->send_threshold);
	KUNIT_EXPECT_EQ(test, rcv, v->recv_threshold);
}

static void cm_pdata_reminv_desc(const struct cm_pdata_reminv_vector *v,
				 char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cm_pdata_reminv, cm_pdata_reminv_vectors,
		  cm_pdata_reminv_desc);

static void cm_pdata_reminv_test(struct kunit *test)
{
	const struct cm_pdata_reminv_vector *v = test->param_value;

	KUNIT_EXPECT_EQ(test,
			rpcrdma2_cm_pdata_reminv_ok(v->has_peer ? &v->peer : NULL,
						    v->own_reminv),
			v->want);
}

/* Every prefix of a valid message: absent below 4 bytes, overrun below 8 */
static void cm_pdata_truncation_test(struct kunit *test)
{
	struct rpcrdma2_cm_pdata out;
	size_t len;

	for (len = 0; len <= sizeof(cm_pdata_buf_4k_r); len++) {
		int want = len < 4 ? -ENOENT : len < 8 ? -EMSGSIZE : 0;
		u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
		memcpy(buf, cm_pdata_buf_4k_r, len);
		KUNIT_EXPECT_EQ_MSG(test, rpcrdma2_cm_pdata_parse(buf, len, &out),
				    want, "len %zu", len);
	}
}

/* Build at every offset of the RoCE listener's 56-byte buffer, parse back */
static void cm_pdata_round_trip_test(struct kunit *test)
{
	struct rpcrdma2_cm_pdata out;
	size_t off;
	u8 *buf;

	buf = kunit_kmalloc(test, CM_PDATA_VEC_ROCE_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);

	for (off = 0; off + RPCRDMA2_CM_PDATA_SIZE <= CM_PDATA_VEC_ROCE_LEN; off++) {
		u32 snd = (off + 1) * 1024, rcv = 262144 - off * 1024;

		memset(buf, 0, CM_PDATA_VEC_ROCE_LEN);
		KUNIT_ASSERT_EQ(test,
				rpcrdma2_cm_pdata_build(buf + off,
							CM_PDATA_VEC_ROCE_LEN - off,
							off & 1, snd, rcv),
				RPCRDMA2_CM_PDATA_SIZE);

		KUNIT_ASSERT_EQ_MSG(test,
				    rpcrdma2_cm_pdata_parse(buf, CM_PDATA_VEC_ROCE_LEN,
							    &out),
				    0, "offset %zu", off);
		KUNIT_EXPECT_EQ(test, out.version, RPCRDMA2_CM_PDATA_VERSION);
		KUNIT_EXPECT_EQ(test, out.reminv, (bool)(off & 1));
		KUNIT_EXPECT_EQ(test, out.send_size, snd);
		KUNIT_EXPECT_EQ(test, out.recv_size, rcv);
	}
}

static struct kunit_case cm_pdata_test_cases[] = {
	KUNIT_CASE_PARAM(cm_pdata_parse_test, cm_pdata_parse_gen_params),
	KUNIT_CASE(cm_pdata_truncation_test),
	KUNIT_CASE_PARAM(cm_pdata_build_test, cm_pdata_build_gen_params),
	KUNIT_CASE_PARAM(cm_pdata_size_test, cm_pdata_size_gen_params),
	KUNIT_CASE_PARAM(cm_pdata_negotiate_test, cm_pdata_negotiate_gen_params),
	KUNIT_CASE_PARAM(cm_pdata_reminv_test, cm_pdata_reminv_gen_params),
	KUNIT_CASE(cm_pdata_round_trip_test),
	{}
};

static struct kunit_suite cm_pdata_test_suite = {
	.name = "rpcrdma2_cm_pdata",
	.test_cases = cm_pdata_test_cases,
};

kunit_test_suite(cm_pdata_test_suite);

MODULE_DESCRIPTION("KUnit tests for the rpcrdma2 RFC 8797 CM private data library");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
