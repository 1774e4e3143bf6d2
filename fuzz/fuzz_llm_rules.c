/*
 * fuzz_llm_rules.c — libFuzzer target for lp_rules, the reply to the
 * rule-learning prompt. The bytes are the reply.
 *  - A list that parses has at most LP_MAX_RULES distinct rules, each
 *    non-empty, trimmed, valid UTF-8, at most LP_MAX_RULE bytes.
 *  - The list rendered the way prompts show rules (pr_add_rules) parses
 *    back to the identical list (decode(encode(x)) == x).
 *  - A reply that does not parse fails with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message, and an empty list.
 * Any violation traps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "fuzz/fuzz_llm_util.h"
#include "api/policy/prompts.h"

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static void check_list(const pol_rule_list *l)
{
	if (l->n > LP_MAX_RULES)
		__builtin_trap();
	for (size_t i = 0; i < l->n; i++) {
		const char *r = l->items[i];
		size_t n = r ? strlen(r) : 0;
		if (!n || n > LP_MAX_RULE || !utf8_valid(r, n) || blank(r[0]) || blank(r[n - 1]))
			__builtin_trap();
		for (size_t j = 0; j < i; j++)
			if (strcmp(l->items[j], r) == 0)
				__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = fz_cstr(data, size);
	if (!reply)
		return 0;
	pol_rule_list l;
	h2emv_error err = { 0 };
	int rc = lp_rules(reply, &l, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || l.items || l.n)
			__builtin_trap();
		return 0;
	}
	check_list(&l);
	if (l.n) {
		pol_rules rules = { (const char *const *)l.items, l.n };
		pr_str b = { 0 };
		pr_add_rules(&b, &rules);
		char *text = pr_str_take(&b);
		pol_rule_list l2;
		if (!text || lp_rules(text, &l2, &err) != H2EMV_OK || l2.n != l.n)
			__builtin_trap();
		for (size_t i = 0; i < l.n; i++)
			if (strcmp(l.items[i], l2.items[i]) != 0)
				__builtin_trap();
		free(text);
		pol_rule_list_free(&l2);
	}
	pol_rule_list_free(&l);
	return 0;
}
