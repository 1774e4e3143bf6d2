/*
 * eval_util.c — small helpers the evaluation files share.
 */
#include <stdlib.h>
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
