// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of the RFC 8797 CM private data library
 * (common/cm_pdata.c), driven by tests/vectors/cm_pdata_vectors.h.
 * Prints one "PASS: <case>" or "FAIL: <case>: <why>" line per case and
 * exits non-zero if any case failed. Input buffers are copied to heap
 * allocations of exactly their length so ASan catches any over-read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rpcrdma2/cm_pdata.h>
#include "../vectors/cm_pdata_vectors.h"

static int failures;

static void pass(const char *group, const char *name)
{
	printf("PASS: %s: %s\n", group, name);
}

static void fail(const char *group, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: %s: %s: ", group, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

static void *xmalloc(size_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

/* Returns NULL if @got equals @want, else a description of the difference. */
static const char *pdata_diff(const struct rpcrdma2_cm_pdata *got,
			      const struct rpcrdma2_cm_pdata *want)
{
	static char why[160];

	if (got->version == want->version && got->reminv == want->reminv &&
	    got->send_size == want->send_size &&
	    got->recv_size == want->recv_size)
		return NULL;
	snprintf(why, sizeof(why),
		 "got {v%u R%d %u/%u}, want {v%u R%d %u/%u}",
		 got->version, got->reminv, got->send_size, got->recv_size,
		 want->version, want->reminv, want->send_size,
		 want->recv_size);
	return why;
}

static void test_parse_vectors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cm_pdata_parse_vectors); i++) {
		const struct cm_pdata_parse_vector *v = &cm_pdata_parse_vectors[i];
		struct rpcrdma2_cm_pdata out;
		const char *why;
		u8 *buf = NULL;
		int ret;

		/* Arrange: exact-size copy; *out full of garbage */
		if (v->buf) {
			buf = xmalloc(v->len);
			memcpy(buf, v->buf, v->len);
		}
		memset(&out, 0xa5, sizeof(out));

		/* Act */
		ret = rpcrdma2_cm_pdata_parse(buf, v->len, &out);
		free(buf);

		/* Assert */
		why = pdata_diff(&out, &v->want);
		if (ret != v->ret)
			fail("parse", v->name, "returned %d, want %d", ret, v->ret);
		else if (why)
			fail("parse", v->name, "%s", why);
		else
			pass("parse", v->name);
	}
}

static void test_build_vectors(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cm_pdata_build_vectors); i++) {
		const struct cm_pdata_build_vector *v = &cm_pdata_build_vectors[i];
		u8 *buf = xmalloc(v->len);
		size_t written = v->ret > 0 ? (size_t)v->ret : 0;
		int ret;

		memset(buf, 0xa5, v->len);

		ret = rpcrdma2_cm_pdata_build(buf, v->len, v->reminv,
					      v->send_size, v->recv_size);

		if (ret != v->ret) {
			fail("build", v->name, "returned %d, want %d", ret, v->ret);
			goto next;
		}
		for (j = 0; j < written; j++)
			if (buf[j] != v->bytes[j])
				break;
		if (j < written) {
			fail("build", v->name, "byte %zu is 0x%02x, want 0x%02x",
			     j, buf[j], v->bytes[j]);
			goto next;
		}
		for (j = written; j < v->len; j++)
			if (buf[j] != 0xa5)
				break;
		if (j < v->len) {
			fail("build", v->name, "wrote byte %zu beyond the message", j);
			goto next;
		}
		pass("build", v->name);
next:
		free(buf);
	}
}

static void test_size_vectors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cm_pdata_size_vectors); i++) {
		const struct cm_pdata_size_vector *v = &cm_pdata_size_vectors[i];
		u8 enc = rpcrdma2_cm_pdata_size_encode(v->size);
		u32 dec = rpcrdma2_cm_pdata_size_decode(v->enc);

		if (enc != v->enc)
			fail("size", v->name, "encoded 0x%02x, want 0x%02x",
			     enc, v->enc);
		else if (dec != v->dec)
			fail("size", v->name, "decoded %u, want %u", dec, v->dec);
		else
			pass("size", v->name);
	}
}

static void test_size_all_octets(void)
{
	unsigned int v;

	for (v = 0; v <= 0xff; v++) {
		u32 size = rpcrdma2_cm_pdata_size_decode((u8)v);

		if (size != (v + 1) * 1024 ||
		    rpcrdma2_cm_pdata_size_encode(size) != v) {
			fail("size", "decode/encode all 256 octets",
			     "octet 0x%02x decodes to %u", v, size);
			return;
		}
	}
	pass("size", "decode/encode all 256 octets");
}

static void test_negotiate_vectors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cm_pdata_negotiate_vectors); i++) {
		const struct cm_pdata_negotiate_vector *v =
			&cm_pdata_negotiate_vectors[i];
		u32 snd = 0xdeadbeef, rcv = 0xdeadbeef;

		rpcrdma2_cm_pdata_negotiate(v->has_peer ? &v->peer : NULL,
					    v->own_send, v->own_recv,
					    v->def_inline, &snd, &rcv);

		if (snd != v->send_threshold || rcv != v->recv_threshold)
			fail("negotiate", v->name, "got %u/%u, want %u/%u",
			     snd, rcv, v->send_threshold, v->recv_threshold);
		else
			pass("negotiate", v->name);
	}
}

/*
 * Both ends of one connection, each running the rule from its own side:
 * the client's send threshold must be the server's receive threshold and
 * vice versa, whatever sizes either advertised.
 */
static void test_negotiate_both_ends(void)
{
	static const u32 sizes[] = { 0, 1024, 1500, 4096, 8192, 65536,
				     262144, 300000 };
	const size_t n = ARRAY_SIZE(sizes);
	size_t i;

	/* every combination of the four advertised sizes */
	for (i = 0; i < n * n * n * n; i++) {
		u32 c_send = sizes[i % n], c_recv = sizes[i / n % n];
		u32 s_send = sizes[i / (n * n) % n], s_recv = sizes[i / (n * n * n)];
		struct rpcrdma2_cm_pdata from_clnt, from_srv;
		u32 c_send_thr, c_recv_thr, s_send_thr, s_recv_thr;
		u8 cbuf[8], sbuf[8];

		rpcrdma2_cm_pdata_build(cbuf, sizeof(cbuf), true,
					c_send, c_recv);
		rpcrdma2_cm_pdata_build(sbuf, sizeof(sbuf), false,
					s_send, s_recv);
		if (rpcrdma2_cm_pdata_parse(cbuf, sizeof(cbuf), &from_clnt) ||
		    rpcrdma2_cm_pdata_parse(sbuf, sizeof(sbuf), &from_srv)) {
			fail("negotiate", "both ends agree", "parse failed");
			return;
		}
		rpcrdma2_cm_pdata_negotiate(&from_srv, c_send, c_recv,
					    RPCRDMA2_V1_DEF_INLINE,
					    &c_send_thr, &c_recv_thr);
		rpcrdma2_cm_pdata_negotiate(&from_clnt, s_send, s_recv,
					    RPCRDMA2_V1_DEF_INLINE,
					    &s_send_thr, &s_recv_thr);
		if (c_send_thr != s_recv_thr || s_send_thr != c_recv_thr) {
			fail("negotiate", "both ends agree",
			     "client %u/%u server %u/%u", c_send_thr, c_recv_thr,
			     s_send_thr, s_recv_thr);
			return;
		}
	}
	pass("negotiate", "both ends agree");
}

static void test_reminv_vectors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cm_pdata_reminv_vectors); i++) {
		const struct cm_pdata_reminv_vector *v =
			&cm_pdata_reminv_vectors[i];
		bool got = rpcrdma2_cm_pdata_reminv_ok(v->has_peer ? &v->peer : NULL,
						       v->own_reminv);

		if (got != v->want)
			fail("reminv", v->name, "got %d, want %d", got, v->want);
		else
			pass("reminv", v->name);
	}
}

/* Build at every offset of the listener's and the active side's buffers */
static void test_round_trip_offsets(size_t len, const char *name)
{
	struct rpcrdma2_cm_pdata out;
	size_t off;
	u8 *buf = xmalloc(len);

	for (off = 0; off + RPCRDMA2_CM_PDATA_SIZE <= len; off++) {
		u32 snd = (u32)(off + 1) * 1024, rcv = 262144 - (u32)off * 1024;
		int ret;

		memset(buf, 0, len);
		ret = rpcrdma2_cm_pdata_build(buf + off, len - off, off & 1,
					      snd, rcv);
		if (ret != RPCRDMA2_CM_PDATA_SIZE) {
			fail("round trip", name, "build at %zu returned %d",
			     off, ret);
			goto out;
		}
		ret = rpcrdma2_cm_pdata_parse(buf, len, &out);
		if (ret || out.version != 1 || out.reminv != (off & 1) ||
		    out.send_size != snd ||
		    out.recv_size != rcv) {
			fail("round trip", name, "offset %zu: ret %d {v%u R%d %u/%u}",
			     off, ret, out.version, out.reminv, out.send_size,
			     out.recv_size);
			goto out;
		}
	}
	pass("round trip", name);
out:
	free(buf);
}

/* Every prefix of a valid message: absent below 4 bytes, overrun below 8 */
static void test_every_truncation(void)
{
	struct rpcrdma2_cm_pdata out;
	size_t len;

	for (len = 0; len <= sizeof(cm_pdata_buf_4k_r); len++) {
		int want = len < 4 ? -ENOENT : len < 8 ? -EMSGSIZE : 0;
		u8 *buf = xmalloc(len);
		int ret;

		memcpy(buf, cm_pdata_buf_4k_r, len);
		ret = rpcrdma2_cm_pdata_parse(buf, len, &out);
		free(buf);
		if (ret != want) {
			fail("parse", "every truncation of a message",
			     "len %zu returned %d, want %d", len, ret, want);
			return;
		}
	}
	pass("parse", "every truncation of a message");
}

/* Hand vectors with reserved bits clear rebuild to the very same bytes */
static void test_rebuild_hand_vectors(void)
{
	static const u8 *const bufs[] = { cm_pdata_buf_1k, cm_pdata_buf_4k_r,
					  cm_pdata_buf_256k, cm_pdata_buf_mixed };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bufs); i++) {
		struct rpcrdma2_cm_pdata pd;
		u8 out[8];

		if (rpcrdma2_cm_pdata_parse(bufs[i], 8, &pd) ||
		    rpcrdma2_cm_pdata_build(out, sizeof(out), pd.reminv,
					    pd.send_size, pd.recv_size) != 8 ||
		    memcmp(out, bufs[i], 8)) {
			fail("round trip", "parse then build hand vectors",
			     "vector %zu differs", i);
			return;
		}
	}
	pass("round trip", "parse then build hand vectors");
}

int main(void)
{
	test_parse_vectors();
	test_every_truncation();
	test_build_vectors();
	test_size_vectors();
	test_size_all_octets();
	test_negotiate_vectors();
	test_negotiate_both_ends();
	test_reminv_vectors();
	test_round_trip_offsets(CM_PDATA_VEC_ROCE_LEN, "every offset of 56");
	test_round_trip_offsets(CM_PDATA_VEC_REP_LEN, "every offset of 196");
	test_rebuild_hand_vectors();
	return failures ? 1 : 0;
}
