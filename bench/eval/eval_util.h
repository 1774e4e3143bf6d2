/*
 * eval_util.h — small helpers the evaluation files (bench/eval/) share.
 */
#ifndef H2EMV_EVAL_UTIL_H
#define H2EMV_EVAL_UTIL_H

/* strdup that accepts NULL (returns NULL). */
char *ev_strdup(const char *s);
/* Remove a directory tree (a memory directory); silent when absent. */
void ev_rmtree(const char *path);

#endif
