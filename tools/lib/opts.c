// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line parsing the tools share (opts.h).
 */
#include <stdlib.h>
#include <string.h>

#include <rpcrdma2/cm_pdata.h>

#include "negotiate.h"
#include "opts.h"

#define OPTS_MAX		64	/* long options of one program, at most */

/* The shared long options and the variable each needs, by offset */
static const struct {
	struct option opt;
	size_t dest;
} shared[] = {
	{ { "port", required_argument, NULL, 'p' },
	  offsetof(struct opt_spec, port) },
	{ { "vers", required_argument, NULL, OPT_VERS },
	  offsetof(struct opt_spec, vers) },
	{ { "credits", required_argument, NULL, OPT_CREDITS },
	  offsetof(struct opt_spec, credits) },
	{ { "size", required_argument, NULL, OPT_SIZE },
	  offsetof(struct opt_spec, size) },
	{ { "timeout", required_argument, NULL, 't' },
	  offsetof(struct opt_spec, timeout_ms) },
	{ { "verbose", no_argument, NULL, 'v' },
	  offsetof(struct opt_spec, verbose) },
	{ { "bind", required_argument, NULL, OPT_BIND },
	  offsetof(struct opt_spec, bind) },
	{ { "max-conns", required_argument, NULL, OPT_MAXCONNS },
	  offsetof(struct opt_spec, max_conns) },
	{ { "fuzz", required_argument, NULL, OPT_FUZZ },
	  offsetof(struct opt_spec, fuzz) },
	{ { "seed", required_argument, NULL, OPT_SEED },
	  offsetof(struct opt_spec, seed) },
	{ { "corpus", required_argument, NULL, OPT_CORPUS },
	  offsetof(struct opt_spec, corpus) },
};

static bool takes(const struct opt_spec *s, size_t dest)
{
	return *(void *const *)((const char *)s + dest);
}

/* The shared option @c; NULL when good, else why not */
static const char *shared_opt(const struct opt_spec *s, int c, const char *arg)
{
	switch (c) {
	case 'p':
		return parse_u32(arg, 1, 65535, s->port) ? "bad --port" : NULL;
	case OPT_VERS:
		return parse_u32(arg, 1, 2, s->vers) ?
		       "--vers must be 1 or 2" : NULL;
	case OPT_CREDITS:
		return parse_u32(arg, 1, MAX_CREDITS, s->credits) ?
		       "bad --credits" : NULL;
	case OPT_SIZE:
		if (parse_u32(arg, RPCRDMA2_CM_PDATA_MIN_SIZE,
			      RPCRDMA2_CM_PDATA_MAX_SIZE, s->size) ||
		    *s->size % RPCRDMA2_CM_PDATA_SIZE_UNIT)
			return "--size must be a multiple of 1024, 1024..262144";
		return NULL;
	case 't':
		return parse_seconds(arg, s->timeout_ms) ? "bad --timeout" : NULL;
	case 'v':
		*s->verbose = true;
		return NULL;
	case OPT_BIND:
		*s->bind = arg;
		return NULL;
	case OPT_MAXCONNS:
		return parse_u32(arg, 1, 1000000, s->max_conns) ?
		       "bad --max-conns" : NULL;
	case OPT_FUZZ:
		return parse_u32(arg, 1, 10000000, s->fuzz) ? "bad --fuzz" : NULL;
	case OPT_SEED:
		if (s->have_seed)
			*s->have_seed = true;
		return parse_u32(arg, 0, 0xffffffffU, s->seed) ? "bad --seed" : NULL;
	case OPT_CORPUS:
		*s->corpus = arg;
		return NULL;
	}
	return "";
}

void listen_opts_init(struct listen_opts *l)
{
	*l = (struct listen_opts){
		.port = DEF_PORT,
		.credits = DEF_CREDITS,
		.size = DEF_SIZE,
		.timeout_ms = DEF_TIMEOUT_MS,
	};
}

/* --help's lines for a listener's shared options */
void listen_opts_help(FILE *f)
{
	fprintf(f,
		"  -p, --port N          port to listen on (default %d)\n"
		"      --bind ADDR       listen on ADDR only (default: every\n"
		"                        IPv4 address)\n"
		"      --max-conns N     exit after N connections (default: never)\n"
		"  -t, --timeout S       exit after S seconds (default: never)\n"
		"      --credits N       the grant, with N + %d Receives posted\n"
		"                        (default %d)\n"
		"      --size N          the Receive and Send buffer size, RBSIZ\n"
		"                        and the private data's sizes (default %d)\n"
		"  -v, --verbose         dump every message sent and received\n"
		"  -h, --help            this text\n",
		DEF_PORT, SPARE_RECVS, DEF_CREDITS, DEF_SIZE);
}

/* A listener's shared options: --timeout is how long to serve */
void opts_listener(struct opt_spec *s, struct listen_opts *l)
{
	s->port = &l->port;
	s->credits = &l->credits;
	s->size = &l->size;
	s->timeout_ms = &l->listen_ms;
	s->verbose = &l->verbose;
	s->bind = &l->bind;
	s->max_conns = &l->max_conns;
}

/* A requester's shared options: --timeout is the wait for each reply */
void opts_requester(struct opt_spec *s, struct ping_opts *o)
{
	s->port = &o->port;
	s->vers = &o->vers;
	s->credits = &o->credits;
	s->size = &o->size;
	s->timeout_ms = &o->timeout_ms;
	s->verbose = &o->verbose;
}

void opts_fuzzer(struct opt_spec *s, struct fuzz_opts *f)
{
	s->fuzz = &f->fuzz;
	s->seed = &f->seed;
	s->have_seed = &f->have_seed;
	s->corpus = &f->corpus;
}

/**
 * opts_parse - parse a tool's command line
 * @argc: main()'s
 * @argv: main()'s; optind is left at the first operand
 * @s: the options it takes and where they go
 *
 * -h or --help prints @s->help and exits 0.
 *
 * Return: NULL, or why the command line is bad ("" when getopt_long()
 * has said it).
 */
const char *opts_parse(int argc, char **argv, const struct opt_spec *s)
{
	struct option lopts[OPTS_MAX + 1] = { 0 };
	const struct option *o;
	const char *bad = NULL;
	size_t n = 0, i;
	int c;

	for (i = 0; i < ARRAY_SIZE(shared); i++)
		if (takes(s, shared[i].dest))
			lopts[n++] = shared[i].opt;
	for (o = s->own; o && o->name && n < OPTS_MAX; o++)
		lopts[n++] = *o;
	lopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	while (!bad && (c = getopt_long(argc, argv, s->shortopts, lopts,
					NULL)) != -1) {
		if (c == 'h') {
			s->help(stdout);
			exit(0);
		}
		for (i = 0; i < ARRAY_SIZE(shared); i++)
			if (shared[i].opt.val == c && takes(s, shared[i].dest))
				break;
		if (i < ARRAY_SIZE(shared))
			bad = shared_opt(s, c, optarg);
		else if (c != '?' && s->own_opt)
			bad = s->own_opt(c, optarg);
		else
			bad = "";
	}
	return bad;
}

/* A requester's one operand, the server; NULL, or why not */
const char *opts_host(int argc, char **argv, const char **host)
{
	if (argc - optind != 1)
		return "exactly one HOST";
	*host = argv[optind];
	return NULL;
}

/* Say what is wrong with the command line, and its synopsis; -1 */
int usage_error(const char *bad, const char *synopsis)
{
	if (*bad)
		tool_err("%s", bad);
	fprintf(stderr, "Usage: %s %s (--help: the options)\n", tool_name,
		synopsis);
	return -1;
}
