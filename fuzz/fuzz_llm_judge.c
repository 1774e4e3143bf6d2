/*
 * fuzz_llm_judge.c — libFuzzer target for judge_llm_parse, the
 * evaluation's LLM judge reading a verdict (bench/eval/judge_llm.h). The
 * bytes are the reply.
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

#include "bench/eval/judge.h"
#include "bench/eval/judge_llm.h"
#include "fuzz/fuzz_llm_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = fz_cstr(data, size);
	if (!reply)
		return 0;
	int c = -2;
	h2emv_error err = { 0 };
	int rc = judge_llm_parse(&c, reply, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || c != -1)
			__builtin_trap();
		return 0;
	}
	if (c < 0 || c >= J_FINE_COUNT)
		__builtin_trap();
	char again[64];
	snprintf(again, sizeof again, "Category: %s", judge_fine_name(c));
	int c2 = -2;
	if (judge_llm_parse(&c2, again, &err) != H2EMV_OK || c2 != c)
		__builtin_trap();
	return 0;
}
