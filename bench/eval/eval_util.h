/*
 * eval_util.h — small helpers the evaluation files (bench/eval/) share.
 */
#ifndef H2EMV_EVAL_UTIL_H
#define H2EMV_EVAL_UTIL_H

#include "h2emv.h"

/* strdup that accepts NULL (returns NULL). */
char *ev_strdup(const char *s);
/* Remove a directory tree (a memory directory); silent when absent. */
void ev_rmtree(const char *path);

/* Fill `err` (may be NULL) with `status` and a printf-formatted message;
 * returns `status`. The evaluation's own error reporting: it sees the
 * library through include/h2emv.h only. */
int ev_fail(h2emv_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
