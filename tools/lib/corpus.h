/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fuzz corpus on disk: every *.bin of a directory, sorted by name, as
 * the wire fuzzers mutate them (tests/fuzz/corpus/fuzz_codec by default,
 * the codec's libFuzzer seeds), and the fuzzers' random numbers.
 */
#ifndef _RPCRDMA2_TOOLS_CORPUS_H
#define _RPCRDMA2_TOOLS_CORPUS_H

#include "util.h"

#define CORPUS_MAX_MSG		1024	/* RFC 8166 §3.3.3: fits any Receive */
#define CORPUS_MAX_FILES	4096

/* A fuzzer's command line: --fuzz N, --seed S, --corpus DIR */
struct fuzz_opts {
	u32 fuzz;		/* messages */
	u32 seed;
	bool have_seed;
	const char *corpus;
};

struct corpus_file {
	char *name;
	u8 *buf;		/* CORPUS_MAX_MSG bytes */
	u32 len;
};

struct corpus {
	struct corpus_file *files;
	u32 nfiles;
	char *dir;		/* where they came from */
};

u32 fuzz_rand(u64 *rng);
u32 fuzz_below(u64 *rng, u32 n);
u32 corpus_splice(const struct corpus *c, u64 *rng, u8 *m, u32 len, u32 *at,
		  u32 *from);
int corpus_load(struct corpus *c, const char *dir);
void corpus_free(struct corpus *c);

#endif /* _RPCRDMA2_TOOLS_CORPUS_H */
