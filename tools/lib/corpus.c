// SPDX-License-Identifier: GPL-2.0
/*
 * The wire fuzzers' corpus loader (corpus.h).
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
