// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers the rpcrdma2 tools share: deadlines on the monotonic
 * clock, option parsing, and printing in the one format the tests match
 * (rpcrdma2-decode prints headers the same way).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma2-hex.h"
#include "rpcrdma2-print.h"
#include "util.h"

const char *tool_name = "rpcrdma2";

/* A program's start: its name in error lines, stdout line-buffered */
void tool_start(const char *name)
{
	tool_name = name;
	setvbuf(stdout, NULL, _IOLBF, 0);
}

void now(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
}

double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6;
}

void deadline_in(struct timespec *dl, u32 ms)
{
	now(dl);
	dl->tv_sec += ms / 1000;
	dl->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (dl->tv_nsec >= 1000000000L) {
		dl->tv_sec++;
		dl->tv_nsec -= 1000000000L;
	}
}

/* Milliseconds left until @dl, rounded up; 0 when it has passed */
int ms_left(const struct timespec *dl)
{
	struct timespec t;
	double left;

	now(&t);
	left = ms_between(&t, dl);
	if (left <= 0)
		return 0;
	return left > 1e9 ? 1000000000 : (int)left + 1;
}

void print_hex(const char *what, const u8 *p, size_t len)
{
	size_t i;

	printf("%s (%zu bytes):", what, len);
	for (i = 0; i < len; i++)
		printf("%s%02x", i % 4 ? "" : " ", p[i]);
	printf("\n");
}

/* --send-hex / --expect-hex: at least one byte (rpcrdma2-hex.h) */
int parse_hex(const char *s, u8 **out, size_t *outlen)
{
	size_t len = strlen(s);
	const char *why;
	long n;
	u8 *buf;

	buf = malloc(len / 2 + 1);
	if (!buf)
		return -1;
	n = hex_parse(s, len, buf, len / 2 + 1, &why);
	if (n <= 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*outlen = (size_t)n;
	return 0;
}

int parse_u32(const char *s, u32 min, u32 max, u32 *out)
{
	char *end;
	unsigned long v;

	if (!*s)
		return -1;
	v = strtoul(s, &end, 0);
	if (*end || v < min || v > max)
		return -1;
	*out = (u32)v;
	return 0;
}

/* "A,B,...": exactly @n numbers, each in [@min, @max] */
int parse_u32_list(const char *arg, u32 *out, u32 n, u32 min, u32 max)
{
	char buf[64], *tok, *save = NULL, *str = buf;
	u32 i = 0;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	while ((tok = strtok_r(str, ",", &save))) {
		str = NULL;
		if (i == n || parse_u32(tok, min, max, &out[i++]))
			return -1;
	}
	return i == n ? 0 : -1;
}

int parse_seconds(const char *s, u32 *ms)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v > 0) || v > 3600)
		return -1;
	*ms = (u32)(v * 1000 + 0.5);
	return *ms ? 0 : -1;
}

const char *brs_name(u32 brs)
{
	static const char *const names[] = { "NONE", "INLINE", "GENL" };

	return brs < ARRAY_SIZE(names) ? names[brs] : "?";
}

const char *prop_state(const struct rpcrdma2_props *props, u32 bit)
{
	if (!(props->present & bit))
		return "not sent: default";
	return props->dflt & bit ? "sent empty: default" : "sent";
}

/*
 * One field per line, "<prefix>name: value", as rpcrdma2-decode prints.
 * A header the codec rejected (@decoded false) has only its fixed words
 * printed: the decoder leaves the rest unset.
 */
void print_hdr(const char *prefix, const struct rpcrdma2_hdr *h, bool decoded)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;

	printf("%sversion: %u\n", prefix, h->vers);
	printf("%sxid: 0x%08x\n", prefix, h->xid);
	printf("%scredits: %u\n", prefix, h->credits);
	printf("%stype: %s (%u)\n", prefix,
	       rpcrdma2_htype_name(h->vers, h->htype), h->htype);
	if (!decoded)
		return;
	if (h->vers == RPCRDMA2_VERS_2)
		printf("%sflags: 0x%08x%s\n", prefix, h->flags,
		       h->flags & RPCRDMA2_F_RESPONSE ? " RESPONSE" : "");
	switch (h->htype) {
	case RPCRDMA2_HT_ERROR:
		printf("%serror: %s (%u)%s\n", prefix,
		       rpcrdma2_errcode_name(h->vers, h->err.code),
		       h->err.code,
		       h->err.v1_layout ? ", RFC 8166 layout" : "");
		print_error_arm(prefix, h->vers, &h->err);
		return;
	case RPCRDMA2_HT_CONNPROP:
		printf("%srbsiz: %u (%s)\n", prefix, h->props.rbsiz,
		       prop_state(&h->props, RPCRDMA2_PROPF_RBSIZ));
		printf("%sbrs: RDMA2_RVREQSUP_%s (%s)\n", prefix,
		       brs_name(h->props.brs),
		       prop_state(&h->props, RPCRDMA2_PROPF_BRS));
		return;
	}
	if (h->vers == RPCRDMA2_VERS_2)
		printf("%sinv_handle: 0x%08x\n", prefix, cl->inv_handle);
	printf("%sread_segments: %u\n", prefix, cl->nr_reads);
	printf("%swrite_chunks: %u\n", prefix, cl->nr_writes);
	printf("%sreply_chunk: %s\n", prefix, cl->has_reply ? "yes" : "none");
	printf("%srpc_offset: %u\n", prefix, h->hdr_len);
	printf("%srpc_length: %u\n", prefix, h->rpc_len);
}

/* Why rpcrdma2_cm_pdata_parse() refused the peer's private data */
const char *pdata_error(int rc)
{
	switch (rc) {
	case -ENOENT:
		return "no RFC 8797 Format Identifier";
	case -EMSGSIZE:
		return "the message overruns the private data";
	case -EPROTO:
		return "unknown private-data version";
	}
	return "unknown error";
}
