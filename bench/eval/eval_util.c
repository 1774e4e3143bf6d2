/*
 * eval_util.c — small helpers the evaluation files share.
 */
#include <ftw.h>
#include <stdarg.h>
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

int ev_fail(h2emv_error *err, int status, const char *fmt, ...)
{
	if (!err)
		return status;
	err->status = status; /* line, column and field stay as a call left them */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return status;
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
