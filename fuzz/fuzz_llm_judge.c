/*
 * fuzz_llm_judge.c — libFuzzer target for lp_judge, an LLM judge's
 * verdict. The bytes are the reply.
 *  - A verdict that parses is one of the categories, and its name written
 *    back as "Category: <name>" parses to the same category.
 *  - A reply that does not parse fails with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message, and category -1.
 * Any violation traps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm_parse.h"
#include "fuzz/fuzz_llm_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = fz_cstr(data, size);
	if (!reply)
		return 0;
	int c = -2;
	h2emv_error err = { 0 };
	int rc = lp_judge(reply, &c, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || c != -1)
			__builtin_trap();
		return 0;
	}
	if (c < 0 || c >= LP_J_COUNT)
		__builtin_trap();
	char again[64];
	snprintf(again, sizeof again, "Category: %s", lp_judge_name(c));
	int c2 = -2;
	if (lp_judge(again, &c2, &err) != H2EMV_OK || c2 != c)
		__builtin_trap();
	return 0;
}
