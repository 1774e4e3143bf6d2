/*
 * test_judge_llm.c — the evaluation's LLM judge (bench/eval/judge_llm.h)
 * without a model: how it reads a reply (names, digits, JSON, markdown),
 * what it refuses, its schema, and the prompt it sends. The exchange with
 * a (fake) server is in test_llm_policy.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "bench/eval/judge.h"
#include "bench/eval/judge_llm.h"
#include "h2emv.h"

/* An error with `status` whose message is non-empty and holds `part`. */
static void expect_fail(int rc, const h2emv_error *err, int status, const char *part)
{
	assert_int_equal(rc, status);
	assert_int_equal(err->status, status);
	size_t n = strlen(err->message);
	assert_true(n > 0 && n < sizeof err->message);
	if (part && !strstr(err->message, part)) {
		print_error("message \"%s\" lacks \"%s\"\n", err->message, part);
		fail();
	}
}

static void test_judge_names_digits_and_json(void **state)
{
	(void)state;
	static const struct {
		const char *reply;
		int cat;
	} cases[] = {
		{ "Category: correct", J_CORRECT },
		{ "Reasoning: it says more than asked.\nCategory: correct_tmi", J_CORRECT_TMI },
		{ "Category: Partially correct - missing", J_PARTIAL_MISSING },
		{ "Category: **partially_correct_tmi** (extra details)", J_PARTIAL_TMI },
		{ "Category: 5", J_WRONG },
		{ "The answer misses the time.\n\nno_answer.", J_NO_ANSWER },
		{ "correct summarized", J_CORRECT_SUMMARIZED },
		{ "{\"reasoning\": \"r\", \"category\": \"wrong\"}", J_WRONG },
		{ "{\"category\": 0}", J_CORRECT },
		{ "{\"category\": \"6\"}", J_NO_ANSWER },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int c = -5;
		h2emv_error err;
		int rc = judge_llm_parse(&c, cases[i].reply, &err);
		if (rc)
			print_error("case %zu: %s\n", i, err.message);
		assert_int_equal(rc, H2EMV_OK);
		assert_int_equal(c, cases[i].cat);
	}
	for (int i = 0; i < J_FINE_COUNT; i++) {
		char buf[64];
		int c;
		h2emv_error err;
		snprintf(buf, sizeof buf, "Category: %s", judge_fine_name(i));
		assert_int_equal(judge_llm_parse(&c, buf, &err), H2EMV_OK);
		assert_int_equal(c, i);
	}
	int c;
	h2emv_error err;
	expect_fail(judge_llm_parse(&c, "Category: mostly right", &err), &err, H2EMV_EPARSE,
	            "category \"mostly right\" is not one of");
	assert_int_equal(c, -1);
	expect_fail(judge_llm_parse(&c, "Category: 7", &err), &err, H2EMV_EPARSE, "is not one of");
	expect_fail(judge_llm_parse(&c, "  \n ```\n```\n", &err), &err, H2EMV_EPARSE, "empty");
	expect_fail(judge_llm_parse(&c, "{\"category\": 9}", &err), &err, H2EMV_EPARSE, "needs \"category\"");
}

/* The schema a server constrains the reply to: every property required,
 * no other, reasoning before the verdict, the seven names; a reply under
 * it parses. */
static void test_judge_schema_is_strict_and_its_replies_parse(void **state)
{
	(void)state;
	json_error_t je;
	json_t *s = json_loads(judge_llm_schema, JSON_REJECT_DUPLICATES, &je);
	assert_non_null(s);
	assert_true(json_is_false(json_object_get(s, "additionalProperties")));
	json_t *req = json_object_get(s, "required");
	assert_int_equal(json_array_size(req), 2);
	assert_string_equal(json_string_value(json_array_get(req, 0)), "reasoning");
	json_t *names = json_object_get(json_object_get(json_object_get(s, "properties"), "category"),
	                                "enum");
	assert_int_equal(json_array_size(names), J_FINE_COUNT);
	for (int i = 0; i < J_FINE_COUNT; i++)
		assert_string_equal(json_string_value(json_array_get(names, (size_t)i)),
		                    judge_fine_name(i));
	json_decref(s);
	int c;
	h2emv_error err;
	assert_int_equal(judge_llm_parse(&c, "{\"reasoning\":\"r\",\"category\":\"correct_tmi\"}", &err),
	                 H2EMV_OK);
	assert_int_equal(c, J_CORRECT_TMI);
}

/* The prompt carries the question, the truth with its span and the answer. */
static void test_judge_prompt_names_question_truth_span_and_answer(void **state)
{
	(void)state;
	char *sys = NULL, *user = NULL;
	h2emv_error err = { 0 };
	/* 2024-09-23 10:03:13 .. 10:03:55 UTC */
	judge_llm_case c = { "When did you wash the mug?", "At 10:03.", "At ten past ten.",
		             1727085793000000ll, 1727085835000000ll };
	assert_int_equal(judge_llm_prompt(&sys, &user, &c, &err), H2EMV_OK);
	assert_non_null(strstr(sys, "partially_correct_missing"));
	assert_non_null(strstr(user, "q: \"When did you wash the mug?\""));
	assert_non_null(strstr(user, "gt: \"At 10:03.\""));
	assert_non_null(strstr(user, "gt refers to: 2024/09/23 10:03:13 - 10:03:55"));
	assert_non_null(strstr(user, "hyp: \"At ten past ten.\""));
	assert_non_null(strstr(user, "Category: <one category name>"));
	free(sys);
	free(user);
	judge_llm_case nospan = { "q", "t", "a", 0, 0 };
	assert_int_equal(judge_llm_prompt(&sys, &user, &nospan, &err), H2EMV_OK);
	assert_null(strstr(user, "refers to"));
	free(sys);
	free(user);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_names_digits_and_json),
		cmocka_unit_test(test_judge_schema_is_strict_and_its_replies_parse),
		cmocka_unit_test(test_judge_prompt_names_question_truth_span_and_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
