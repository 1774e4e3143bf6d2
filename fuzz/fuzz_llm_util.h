/*
 * fuzz_llm_util.h — what the reply-parser fuzz targets share: the bytes as
 * a C string, and the check every failed parse must pass.
 */
#ifndef H2EMV_FUZZ_LLM_UTIL_H
#define H2EMV_FUZZ_LLM_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"

/* The fuzzer's bytes, NUL-terminated (malloc'd; NULL when out of memory). */
static inline char *fz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* A failed parse: EPARSE, ELIMIT or ENOMEM, recorded in err, with a
 * non-empty UTF-8 message (it goes back to the model on the retry). */
static inline int fz_failure_ok(int rc, const h2emv_error *err)
{
	size_t n = strlen(err->message);
	return (rc == H2EMV_EPARSE || rc == H2EMV_ELIMIT || rc == H2EMV_ENOMEM) &&
	       err->status == rc && n && utf8_valid(err->message, n);
}

#endif
