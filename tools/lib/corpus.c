// SPDX-License-Identifier: GPL-2.0
/*
 * The wire fuzzers' corpus loader and random numbers (corpus.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"

static int corpus_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct corpus_file *)a)->name,
		      ((const struct corpus_file *)b)->name);
}

/* xorshift64*: the same seed gives the same stream */
u32 fuzz_rand(u64 *rng)
{
	*rng ^= *rng >> 12;
	*rng ^= *rng << 25;
	*rng ^= *rng >> 27;
	return (u32)((*rng * 0x2545f4914f6cdd1dULL) >> 32);
}

/* Below @n; 0 when @n is */
u32 fuzz_below(u64 *rng, u32 n)
{
	return n ? fuzz_rand(rng) % n : 0;
}

/*
 * A splice: the first @at words of the message @m (@len bytes), then a
 * random corpus file's words from @from on, at most CORPUS_MAX_MSG bytes
 * in all. Returns the new length, or 0 when either is too short to cut.
 */
u32 corpus_splice(const struct corpus *c, u64 *rng, u8 *m, u32 len, u32 *at,
		  u32 *from)
{
	const struct corpus_file *g = &c->files[fuzz_below(rng, c->nfiles)];
	u32 n;

	if (len / 4 < 2 || g->len < 8)
		return 0;
	*at = 1 + fuzz_below(rng, len / 4 - 1);
	*from = 1 + fuzz_below(rng, g->len / 4 - 1);
	n = g->len - 4 * *from;
	if (4 * *at + n > CORPUS_MAX_MSG)
		n = CORPUS_MAX_MSG - 4 * *at;
	memcpy(m + 4 * *at, g->buf + 4 * *from, n);
	return 4 * *at + n;
}

/* The corpus next to this binary: build/tools/ -> tests/fuzz/corpus/fuzz_codec */
static char *corpus_default_dir(void)
{
	char exe[4096], *slash;
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (i = 0; i < 3; i++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	if (strlen(exe) + sizeof("/tests/fuzz/corpus/fuzz_codec") > sizeof(exe))
		return NULL;
	strcat(exe, "/tests/fuzz/corpus/fuzz_codec");
	return strdup(exe);
}

/* Read every *.bin of @dir (its first CORPUS_MAX_MSG bytes), sorted by name */
static int corpus_read(struct corpus *c, const char *dir)
{
	struct dirent *de;
	char path[4096];
	struct corpus_file *f;
	size_t n;
	DIR *d;
	FILE *fp;

	d = opendir(dir);
	if (!d) {
		tool_err("--corpus %s: %s", dir, strerror(errno));
		return -1;
	}
	c->files = calloc(CORPUS_MAX_FILES, sizeof(*c->files));
	if (!c->files) {
		closedir(d);
		return -1;
	}
	while ((de = readdir(d)) && c->nfiles < CORPUS_MAX_FILES) {
		n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".bin"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fp = fopen(path, "rb");
		if (!fp)
			continue;
		f = &c->files[c->nfiles];
		f->buf = malloc(CORPUS_MAX_MSG);
		f->name = strdup(de->d_name);
		if (!f->buf || !f->name) {
			fclose(fp);
			closedir(d);
			return -1;
		}
		f->len = (u32)fread(f->buf, 1, CORPUS_MAX_MSG, fp);
		fclose(fp);
		c->nfiles++;
	}
	closedir(d);
	if (!c->nfiles) {
		tool_err("--corpus %s: no *.bin files", dir);
		return -1;
	}
	qsort(c->files, c->nfiles, sizeof(*c->files), corpus_name_cmp);
	return 0;
}

/**
 * corpus_load - read a corpus
 * @c: zeroed; filled in
 * @dir: the directory, or NULL for the source tree's codec corpus
 *
 * Return: 0, or -1 having said why (and left @c for corpus_free()).
 */
int corpus_load(struct corpus *c, const char *dir)
{
	c->dir = dir ? strdup(dir) : corpus_default_dir();
	if (!c->dir) {
		c->dir = strdup(".");
		if (!c->dir)
			return -1;
	}
	return corpus_read(c, c->dir);
}

void corpus_free(struct corpus *c)
{
	u32 i;

	for (i = 0; i < c->nfiles; i++) {
		free(c->files[i].buf);
		free(c->files[i].name);
	}
	free(c->files);
	free(c->dir);
}
