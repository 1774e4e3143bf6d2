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

#include "api/policy/llm_parse.h"

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = malloc(size + 1);
	if (!reply)
		return 0;
	memcpy(reply, data, size);
	reply[size] = '\0';
	char *s = NULL;
	h2emv_error err = { 0 };
	int rc = lp_summary(reply, &s, &err);
	free(reply);
	if (rc) {
		size_t n = strlen(err.message);
		if ((rc != H2EMV_EPARSE && rc != H2EMV_ELIMIT && rc != H2EMV_ENOMEM) ||
		    err.status != rc || !n || !lp_utf8_ok(err.message, n) || s)
			__builtin_trap();
		return 0;
	}
	size_t n = s ? strlen(s) : 0;
	if (!n || n > LP_MAX_SUMMARY || !lp_utf8_ok(s, n) || blank(s[0]) || blank(s[n - 1]))
		__builtin_trap();
	free(s);
	return 0;
}
