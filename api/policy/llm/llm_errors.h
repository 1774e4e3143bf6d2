/*
 * llm_errors.h — the llm transport's error messages (llm_errors.c): the
 * API key never appears in one, and what a server sent is shown only as a
 * short printable excerpt.
 */
#ifndef H2EMV_LLM_ERRORS_H
#define H2EMV_LLM_ERRORS_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* Fill `err` (may be NULL) with "llm: " + the formatted message, every
 * occurrence of `secret` (may be NULL or "") replaced by "[redacted]", and
 * return `status`. The message is formatted whole before it is cut to
 * fit, so a truncated message never ends in part of the secret. */
int llm_fail(const char *secret, h2emv_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same, also setting err->line. */
int llm_fail_line(const char *secret, h2emv_error *err, int status, uint64_t line,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Copy the first `max` bytes at most of the `n` bytes at `src` into dst
 * (cap >= 4) as printable text: control characters and invalid UTF-8
 * blanked, cut on a character boundary, "..." appended when anything was
 * left out. */
void llm_sanitize(char *dst, size_t cap, const char *src, size_t n, size_t max);

#endif
