/*
 * fuzz_llm_relevance.c — libFuzzer target for lp_relevance, the reply to
 * the relevance prompt. The bytes are the reply.
 *  - A reply that parses gives α >= 0 or +inf, never NaN.
 *  - α written back as "Relevance: <α>" parses to the same α (to the last
 *    digits a fixed-point print keeps).
 *  - A reply that does not parse fails with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message, and α = 0.
 * Any violation traps.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "fuzz/fuzz_llm_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = fz_cstr(data, size);
	if (!reply)
		return 0;
	double a = -1;
	h2emv_error err = { 0 };
	int rc = lp_relevance(reply, &a, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || a != 0)
			__builtin_trap();
		return 0;
	}
	if (isnan(a) || a < 0)
		__builtin_trap();
	char again[512];
	if (isinf(a))
		snprintf(again, sizeof again, "Reasoning: again.\nRelevance: inf");
	else if (a < 1e15)
		snprintf(again, sizeof again, "Reasoning: again.\nRelevance: %.17f", a);
	else
		return 0; /* the JSON form takes any number; the text form 15 digits */
	double b = -1;
	if (lp_relevance(again, &b, &err) != H2EMV_OK)
		__builtin_trap();
	if (isinf(a) ? !isinf(b) : fabs(a - b) > 1e-9 * (a > 1 ? a : 1))
		__builtin_trap();
	return 0;
}
