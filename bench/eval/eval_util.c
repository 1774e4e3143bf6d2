/*
 * eval_util.c — small helpers the evaluation files share.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "bench/eval/eval_util.h"

char *ev_strdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void ev_rmtree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	(void)nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
