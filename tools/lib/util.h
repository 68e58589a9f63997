/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every rpcrdma2 tool on rdma-core needs below the connection:
 * error lines under the program's name, XDR words, monotonic deadlines,
 * option parsing, and the printing of bytes and decoded headers that
 * tests read.
 */
#ifndef _RPCRDMA2_TOOLS_UTIL_H
#define _RPCRDMA2_TOOLS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include <rpcrdma2/codec.h>

/* The program's name in error lines; each main() sets it first */
extern const char *tool_name;

/* stdout is line-buffered (main), so this cannot overtake it */
#define tool_err(fmt, ...) \
	fprintf(stderr, "%s: " fmt "\n", tool_name, ##__VA_ARGS__)

static inline u32 get32(const u8 *p)
{
	return get_unaligned_be32(p);
}

static inline u8 *put32(u8 *p, u32 v)
{
	put_unaligned_be32(v, p);
	return p + 4;
}

void tool_start(const char *name);
void now(struct timespec *ts);
double ms_between(const struct timespec *a, const struct timespec *b);
void deadline_in(struct timespec *dl, u32 ms);
int ms_left(const struct timespec *dl);

int parse_u32(const char *s, u32 min, u32 max, u32 *out);
int parse_u32_list(const char *arg, u32 *out, u32 n, u32 min, u32 max);
int parse_seconds(const char *s, u32 *ms);
int parse_hex(const char *s, u8 **out, size_t *outlen);

void print_hex(const char *what, const u8 *p, size_t len);
const char *brs_name(u32 brs);
const char *prop_state(const struct rpcrdma2_props *props, u32 bit);
void print_hdr(const char *prefix, const struct rpcrdma2_hdr *h, bool decoded);
const char *pdata_error(int rc);

#endif /* _RPCRDMA2_TOOLS_UTIL_H */
