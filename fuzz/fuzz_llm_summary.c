/*
 * fuzz_llm_summary.c — libFuzzer target for lp_summary, the reply to the
 * summary prompt. The bytes are the reply.
 *  - A summary that parses is non-empty, trimmed, valid UTF-8 and at most
 *    LP_MAX_SUMMARY bytes.
 *  - A reply that does not parse fails with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message, and no output.
 * Any violation traps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "fuzz/fuzz_llm_util.h"

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = fz_cstr(data, size);
	if (!reply)
		return 0;
	char *s = NULL;
	h2emv_error err = { 0 };
	int rc = lp_summary(reply, &s, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || s)
			__builtin_trap();
		return 0;
	}
	size_t n = s ? strlen(s) : 0;
	if (!n || n > LP_MAX_SUMMARY || !utf8_valid(s, n) || blank(s[0]) || blank(s[n - 1]))
		__builtin_trap();
	free(s);
	return 0;
}
