/*
 * strbuf.h — the one growable string of api/: text built piece by piece
 * (prompts, answers, traces, node texts) with a sticky out-of-memory flag,
 * so a renderer appends freely and checks once at the end.
 *
 * The type keeps the name it had in the prompt builders (pr_str), where it
 * started, so its many users did not change when it moved here.
 */
#ifndef H2EMV_API_STRBUF_H
#define H2EMV_API_STRBUF_H

#include <stddef.h>

/* A growable string. Zero-initialise it ({ 0 }) to start. The first failed
 * append sets `oom`; later appends do nothing. `s` is always NUL-terminated
 * once anything was added (NULL before). */
typedef struct pr_str {
	char *s;
	size_t len, cap;
	int oom;
} pr_str;

/* Append n bytes of s (which need not be NUL-terminated). */
void pr_str_add(pr_str *b, const char *s, size_t n);
/* Append a C string; NULL appends nothing. */
void pr_str_adds(pr_str *b, const char *s);
void pr_str_addf(pr_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append `s` as the inside of a JSON string (quotes not included). */
void pr_str_add_json(pr_str *b, const char *s);
/* The malloc'd text ("" when empty), or NULL if out of memory; `b` is
 * reset either way and the caller frees the text. */
char *pr_str_take(pr_str *b);
/* Free the text and reset `b` to empty. */
void pr_str_free(pr_str *b);

#endif
