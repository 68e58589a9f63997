/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of a tool on this library: the options more than one
 * program takes (port, version, credits, sizes, timeouts, listening and
 * fuzzing) are parsed here, each into the variable its program names,
 * and a program's own options by its callback.
 */
#ifndef _RPCRDMA2_TOOLS_OPTS_H
#define _RPCRDMA2_TOOLS_OPTS_H

#include <getopt.h>

#include "conn.h"
#include "corpus.h"

/* getopt_long() values of the shared long options; a program's own from OPT_OWN */
enum {
	OPT_VERS = 0x100,
	OPT_CREDITS,
	OPT_SIZE,
	OPT_BIND,
	OPT_MAXCONNS,
	OPT_FUZZ,
	OPT_SEED,
	OPT_CORPUS,
	OPT_OWN,
};

struct opt_spec {
	const char *shortopts;
	const struct option *own;	/* the program's own, a zero entry last */
	/* one of them: NULL when good, else why not */
	const char *(*own_opt)(int c, const char *arg);
	void (*help)(FILE *f);		/* -h, --help: then exit 0 */

	/* where the shared options go; NULL: the program takes none */
	u32 *port;			/* -p, --port N */
	u32 *vers;			/* --vers 1|2 */
	u32 *credits;			/* --credits N */
	u32 *size;			/* --size N */
	u32 *timeout_ms;		/* -t, --timeout S */
	bool *verbose;			/* -v, --verbose */
	const char **bind;		/* --bind ADDR */
	u32 *max_conns;			/* --max-conns N */
	u32 *fuzz;			/* --fuzz N */
	u32 *seed;			/* --seed S */
	bool *have_seed;
	const char **corpus;		/* --corpus DIR */
};

struct ping_opts;

void listen_opts_init(struct listen_opts *l);
void listen_opts_help(FILE *f);
void opts_listener(struct opt_spec *s, struct listen_opts *l);
void opts_requester(struct opt_spec *s, struct ping_opts *o);
void opts_fuzzer(struct opt_spec *s, struct fuzz_opts *f);
const char *opts_parse(int argc, char **argv, const struct opt_spec *s);
const char *opts_host(int argc, char **argv, const char **host);
int usage_error(const char *bad, const char *synopsis);

#endif /* _RPCRDMA2_TOOLS_OPTS_H */
