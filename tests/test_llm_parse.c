/*
 * test_llm_parse.c — the llm policy's reply parsers (llm_parse.h): each on
 * the text form the prompts ask for and on the JSON form of its schema;
 * the paper's grouping examples turned into full partitions; fences,
 * chatter and decorations around an answer; every validation error with
 * the message the model is shown; hostile replies (too long, deeply
 * nested, invalid UTF-8, huge numbers) refused cleanly; and the schemas
 * strict mode accepts, in the decision order of llm_client.h.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "api/policy/llm/llm_client.h"
#include "api/policy/llm/llm_parse.h"
#include "api/policy/prompts.h"
#include "api/base/utf8.h"

#define SEC 1000000ll
#define T0 (1727085600ll * SEC) /* 2024/09/23 10:00:00 UTC */

/* The parsers' decisions line up with the client's. */
_Static_assert(LP_GROUP == (int)LLM_D_GROUP && LP_SUMMARIZE == (int)LLM_D_SUMMARIZE &&
                       LP_RELEVANCE == (int)LLM_D_RELEVANCE && LP_LEARN == (int)LLM_D_LEARN &&
                       LP_QA == (int)LLM_D_QA && LP_ROUTE == (int)LLM_D_ROUTE &&
                       LP_COUNT == (int)LLM_D_JUDGE, /* the judge's parser: bench/eval */
               "enum lp_decision must follow enum llm_decision");

/* An error with `status` whose message is short, valid UTF-8 and holds
 * `part`. */
static void expect_fail(int rc, const h2emv_error *err, int status, const char *part)
{
	assert_int_equal(rc, status);
	assert_int_equal(err->status, status);
	size_t n = strlen(err->message);
	assert_true(n > 0 && n < sizeof err->message);
	assert_true(utf8_valid(err->message, n));
	if (part && !strstr(err->message, part)) {
		print_error("message \"%s\" lacks \"%s\"\n", err->message, part);
		fail();
	}
}

/* ------------------------------------------------------------- grouping -- */

/* A request of n items, old groups given as [first, last] index pairs
 * (oldest = 0) covering the first n - n_new items. */
typedef struct req_fix {
	pol_item items[32];
	pol_group old[32];
	char text[32][32], sum[32][32];
	pol_group_req req;
} req_fix;

static void make_req(req_fix *f, size_t n, size_t n_new, const size_t (*old)[2], size_t n_old)
{
	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < n; i++) {
		snprintf(f->text[i], sizeof f->text[i], "item %zu", n - 1 - i);
		f->items[i].text = f->text[i];
		f->items[i].level = 2;
		f->items[i].t_start = T0 + (int64_t)i * 60 * SEC;
		f->items[i].t_end = f->items[i].t_start + 30 * SEC;
	}
	for (size_t g = 0; g < n_old; g++) {
		snprintf(f->sum[g], sizeof f->sum[g], "old group %zu", g);
		f->old[g].first = old[g][0];
		f->old[g].last = old[g][1];
		f->old[g].summary = f->sum[g];
	}
	f->req.level = 2;
	f->req.items = f->items;
	f->req.n_items = n;
	f->req.old_groups = f->old;
	f->req.n_old = n_old;
	f->req.n_new = n_new;
}

/* The paper's prompt: items 6..0; groups (6), (5), (4-1); 0 is new. */
static void paper_req(req_fix *f)
{
	static const size_t old[][2] = { { 0, 0 }, { 1, 1 }, { 2, 5 } };
	make_req(f, 7, 1, old, 3);
}

static void expect_group(const pol_group_reply *r, size_t i, size_t first, size_t last,
                         const char *summary)
{
	assert_true(i < r->n);
	assert_int_equal(r->groups[i].first, first);
	assert_int_equal(r->groups[i].last, last);
	assert_string_equal(r->groups[i].summary, summary);
}

/* Every reply must be a partition of all items, in order. */
static void expect_partition(const pol_group_reply *r, size_t n)
{
	size_t next = 0;
	for (size_t i = 0; i < r->n; i++) {
		assert_int_equal(r->groups[i].first, next);
		assert_true(r->groups[i].last >= r->groups[i].first);
		assert_non_null(r->groups[i].summary);
		next = r->groups[i].last + 1;
	}
	assert_int_equal(next, n);
}

static void test_group_paper_merge_newest_into_last_group(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	h2emv_error err;
	const char *reply =
		"Reasoning: The current action is to toggle off the microwave, which continues "
		"\"# (4 - 1) I opened the microwave\".\n"
		"JSON: {\"4-0\": \"I cooked Potato_4 in the microwave\"}";
	assert_int_equal(lp_group(reply, &f.req, &r, &err), H2EMV_OK);
	assert_int_equal(r.n, 3);
	expect_group(&r, 0, 0, 0, "old group 0");
	expect_group(&r, 1, 1, 1, "old group 1");
	expect_group(&r, 2, 2, 6, "I cooked Potato_4 in the microwave");
	pol_groups_free(&r);
	assert_null(r.groups);
}

static void test_group_paper_new_group_and_regroup(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	h2emv_error err;
	assert_int_equal(lp_group("JSON: {\"0\": \"I toggled off the microwave\"}", &f.req, &r, &err),
	                 H2EMV_OK);
	assert_int_equal(r.n, 4);
	expect_group(&r, 2, 2, 5, "old group 2");
	expect_group(&r, 3, 6, 6, "I toggled off the microwave");
	pol_groups_free(&r);

	/* 5-3 takes group (5) whole and splits (4-1) with 2-0: a regrouping */
	assert_int_equal(lp_group("Reasoning: regroup.\nJSON: {\"5-3\": \"A\", \"2-0\": \"B\"}",
	                          &f.req, &r, &err),
	                 H2EMV_OK);
	assert_int_equal(r.n, 3);
	expect_group(&r, 0, 0, 0, "old group 0");
	expect_group(&r, 1, 1, 3, "A");
	expect_group(&r, 2, 4, 6, "B");
	pol_groups_free(&r);
}

static void test_group_schema_form_and_untouched_groups_copied(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	h2emv_error err;
	const char *reply = "{\"reasoning\": \"the newest continues the microwave\", "
	                    "\"groups\": [{\"range\": \"4-0\", \"summary\": \"  I cooked.  \"}]}";
	assert_int_equal(lp_group(reply, &f.req, &r, &err), H2EMV_OK);
	expect_partition(&r, 7);
	expect_group(&r, 0, 0, 0, "old group 0");
	expect_group(&r, 2, 2, 6, "I cooked."); /* trimmed */
	/* a copy, not the request's pointer */
	assert_ptr_not_equal(r.groups[0].summary, f.old[0].summary);
	pol_groups_free(&r);

	/* a group repeated unchanged is fine */
	assert_int_equal(lp_group("{\"groups\": [{\"range\": \"6\", \"summary\": \"old group 0\"},"
	                          "{\"range\": \"0\", \"summary\": \"new\"}]}",
	                          &f.req, &r, &err),
	                 H2EMV_OK);
	expect_partition(&r, 7);
	assert_int_equal(r.n, 4);
	pol_groups_free(&r);
}

static void test_group_tolerates_fences_chatter_and_labels(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	static const char *const replies[] = {
		"Sure! Here is my answer.\n```\nReasoning: the microwave.\nJSON: {\"4-0\": \"S\"}\n```\n"
		"Hope this helps.",
		"Reasoning: ranges like {4-1} stay.\n**JSON:** {\"4-0\": \"S\"}",
		"reasoning: x\njson: {\"4-0\": \"S\"}",
		"Reasoning: x\nJSON :\n```json\n{\n  \"4-0\": \"S\"\n}\n```",
		"```json\n{\"4-0\": \"S\"}\n```",
		"Reasoning: I will answer with JSON: a map.\nJSON: {\"4 - 0\": \"S\"}",
		"Reasoning: x\nJSON: {\"4\xe2\x80\x93" "0\": \"S\", \"reasoning\": \"mixed forms\"}",
		"Here it is:\n{\"4-0\": \"S\"}\nThat merges the newest item.",
		"Here it is:\n```json\n{\"reasoning\": \"r\", \"groups\": [{\"range\": \"4-0\", "
		"\"summary\": \"S\"}]}\n```",
	};
	for (size_t i = 0; i < sizeof replies / sizeof replies[0]; i++) {
		pol_group_reply r;
		h2emv_error err;
		int rc = lp_group(replies[i], &f.req, &r, &err);
		if (rc)
			print_error("reply %zu: %s\n", i, err.message);
		assert_int_equal(rc, H2EMV_OK);
		assert_int_equal(r.n, 3);
		expect_group(&r, 2, 2, 6, "S");
		pol_groups_free(&r);
	}
}

static void test_group_overlap_and_duplicates_are_refused(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	h2emv_error err;
	int rc = lp_group("JSON: {\"5-3\": \"a\", \"3-0\": \"b\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "range \"5-3\" overlaps range \"3-0\"");
	assert_null(r.groups);
	assert_int_equal(r.n, 0);
	/* a range inside a larger one, not next to it */
	rc = lp_group("JSON: {\"6-0\": \"a\", \"5\": \"b\", \"2-1\": \"c\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "range \"6-0\" overlaps range \"2-1\"");
	assert_non_null(strstr(err.message, "range \"6-0\" overlaps range \"5\""));
	rc = lp_group("{\"groups\": [{\"range\": \"0\", \"summary\": \"a\"},"
	              "{\"range\": \"0\", \"summary\": \"b\"}]}",
	              &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "range \"0\" appears twice");
	/* the map form: the JSON itself refuses a repeated key */
	rc = lp_group("JSON: {\"0\": \"a\", \"0\": \"b\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "duplicate");
}

static void test_group_new_items_must_be_covered(void **state)
{
	(void)state;
	static const size_t old[][2] = { { 0, 2 }, { 3, 4 } };
	req_fix f;
	make_req(&f, 7, 2, old, 2); /* groups 6-4, 3-2; new 1, 0 */
	pol_group_reply r;
	h2emv_error err;
	int rc = lp_group("JSON: {}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "the new items 1-0 are not covered");
	rc = lp_group("JSON: {\"1\": \"x\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "the new item 0 is not covered");
	assert_null(strstr(err.message, "items"));
	/* both new items in a range of their own each */
	assert_int_equal(lp_group("JSON: {\"1\": \"x\", \"0\": \"y\"}", &f.req, &r, &err), H2EMV_OK);
	assert_int_equal(r.n, 4);
	expect_partition(&r, 7);
	pol_groups_free(&r);
	/* nothing new: an empty map keeps every group */
	make_req(&f, 5, 0, old, 2);
	assert_int_equal(lp_group("JSON: {}", &f.req, &r, &err), H2EMV_OK);
	assert_int_equal(r.n, 2);
	expect_group(&r, 0, 0, 2, "old group 0");
	expect_group(&r, 1, 3, 4, "old group 1");
	pol_groups_free(&r);
}

static void test_group_cutting_a_previous_group_is_refused(void **state)
{
	(void)state;
	static const size_t old[][2] = { { 0, 2 }, { 3, 5 } };
	req_fix f;
	make_req(&f, 7, 1, old, 2); /* groups 6-4, 3-1; new 0 */
	pol_group_reply r;
	h2emv_error err;
	int rc = lp_group("JSON: {\"5-0\": \"x\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE,
	            "range \"5-0\" cuts the previous group \"6-4\"; include 6 or leave 5-4 out");
	/* a middle piece: both ends left over */
	static const size_t wide[][2] = { { 0, 5 } };
	make_req(&f, 7, 1, wide, 1); /* group 6-1; new 0 */
	rc = lp_group("JSON: {\"4-3\": \"x\", \"0\": \"y\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE,
	            "range \"4-3\" cuts the previous group \"6-1\"; include 6-5, 2-1 or leave 4-3 out");
	/* taking the whole group back in pieces is a regrouping */
	assert_int_equal(lp_group("JSON: {\"6-4\": \"a\", \"3-0\": \"b\"}", &f.req, &r, &err),
	                 H2EMV_OK);
	expect_partition(&r, 7);
	expect_group(&r, 0, 0, 2, "a");
	expect_group(&r, 1, 3, 6, "b");
	pol_groups_free(&r);
}

static void test_group_keys_numbers_and_summaries_are_checked(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	h2emv_error err;
	char big[LP_MAX_SUMMARY + 64];
	static const struct {
		const char *reply, *part;
	} cases[] = {
		{ "JSON: {\"a-b\": \"x\", \"0\": \"y\"}", "key \"a-b\" is not an item range" },
		{ "JSON: {\"4-\": \"x\", \"0\": \"y\"}", "key \"4-\" is not an item range" },
		{ "JSON: {\"-1\": \"x\", \"0\": \"y\"}", "key \"-1\" is not an item range" },
		{ "JSON: {\"0-4\": \"x\"}", "range \"0-4\" runs the wrong way; write \"4-0\"" },
		{ "JSON: {\"9-0\": \"x\"}", "range \"9-0\" is out of bounds: the items are numbered 6 to 0" },
		{ "JSON: {\"99999999999999999999999999-0\": \"x\"}", "is out of bounds" },
		{ "JSON: {\"0\": \"   \"}", "the summary of \"0\" is empty" },
		{ "JSON: {\"0\": 3}", "the value of \"0\" must be a string" },
		{ "JSON: {\"groups\": {\"0\": \"x\"}}", "\"groups\" must be a list" },
		{ "JSON: {\"groups\": [{\"range\": 0, \"summary\": \"x\"}]}", "groups[0] must be" },
		{ "Reasoning: I merge it.", "no JSON object in the reply" },
		{ "JSON: {\"0\": \"x\"", "the JSON does not parse" },
		{ "JSON: [\"0\"]", "no JSON object" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = lp_group(cases[i].reply, &f.req, &r, &err);
		expect_fail(rc, &err, H2EMV_EPARSE, cases[i].part);
		assert_null(r.groups);
	}
	/* several faults in one message, so one retry can fix them all */
	int rc = lp_group("JSON: {\"x\": \"a\", \"9\": \"b\", \"0\": \"\"}", &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "key \"x\" is not an item range");
	assert_non_null(strstr(err.message, "; range \"9\" is out of bounds"));
	assert_non_null(strstr(err.message, "; the summary of \"0\" is empty"));
	/* too long a summary */
	int n = snprintf(big, sizeof big, "JSON: {\"0\": \"");
	memset(big + n, 'a', LP_MAX_SUMMARY + 1);
	strcpy(big + n + LP_MAX_SUMMARY + 1, "\"}");
	rc = lp_group(big, &f.req, &r, &err);
	expect_fail(rc, &err, H2EMV_EPARSE, "the summary of \"0\" is too long (2001 bytes");
}

static void test_group_bad_arguments(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	h2emv_error err;
	expect_fail(lp_group(NULL, &f.req, &r, &err), &err, H2EMV_EINVAL, NULL);
	f.old[2].last = 4; /* the old groups no longer partition the old items */
	expect_fail(lp_group("JSON: {\"0\": \"x\"}", &f.req, &r, &err), &err, H2EMV_EINVAL, NULL);
	/* no items at all: only an empty map fits */
	make_req(&f, 0, 0, NULL, 0);
	assert_int_equal(lp_group("JSON: {}", &f.req, &r, &err), H2EMV_OK);
	assert_int_equal(r.n, 0);
	pol_groups_free(&r);
	expect_fail(lp_group("JSON: {\"0\": \"x\"}", &f.req, &r, &err), &err, H2EMV_EPARSE,
	            "there are no items");
}

/* -------------------------------------------------------------- summary -- */

static void test_summary_text_and_json(void **state)
{
	(void)state;
	char *s;
	h2emv_error err;
	assert_int_equal(lp_summary("Summary: I picked up a knife and sliced a potato.", &s, &err),
	                 H2EMV_OK);
	assert_string_equal(s, "I picked up a knife and sliced a potato.");
	free(s);
	assert_int_equal(lp_summary("Here you go.\n\n**Summary:**\n\"I washed the bowl.\"\n\nAnything "
	                            "else?",
	                            &s, &err),
	                 H2EMV_OK);
	assert_string_equal(s, "I washed the bowl.");
	free(s);
	assert_int_equal(lp_summary("```\nSummary: I washed\nthe bowl.\n```", &s, &err), H2EMV_OK);
	assert_string_equal(s, "I washed\nthe bowl.");
	free(s);
	assert_int_equal(lp_summary("{\"summary\": \" I cooked. \"}", &s, &err), H2EMV_OK);
	assert_string_equal(s, "I cooked.");
	free(s);
}

static void test_summary_errors(void **state)
{
	(void)state;
	char *s = (char *)1;
	h2emv_error err;
	expect_fail(lp_summary("I picked up a knife.", &s, &err), &err, H2EMV_EPARSE,
	            "no \"Summary:\" line");
	assert_null(s);
	expect_fail(lp_summary("Summary:   \n\n", &s, &err), &err, H2EMV_EPARSE,
	            "the summary is empty");
	expect_fail(lp_summary("Summary: \"\"", &s, &err), &err, H2EMV_EPARSE, "the summary is empty");
	expect_fail(lp_summary("Summary: I \xff\xfe did", &s, &err), &err, H2EMV_EPARSE,
	            "not valid UTF-8");
	expect_fail(lp_summary("{\"summary\": 3}", &s, &err), &err, H2EMV_EPARSE, "must be a string");
	expect_fail(lp_summary("{\"text\": \"x\"}", &s, &err), &err, H2EMV_EPARSE,
	            "the JSON has no \"summary\"");
	char *big = malloc(LP_MAX_SUMMARY + 32);
	assert_non_null(big);
	strcpy(big, "Summary: ");
	memset(big + 9, 'w', LP_MAX_SUMMARY + 1);
	big[9 + LP_MAX_SUMMARY + 1] = '\0';
	expect_fail(lp_summary(big, &s, &err), &err, H2EMV_EPARSE, "too long");
	free(big);
}

/* ------------------------------------------------------------ relevance -- */

static void test_relevance_numbers_and_inf(void **state)
{
	(void)state;
	static const struct {
		const char *reply;
		double alpha;
	} cases[] = {
		{ "Reasoning: a rule says keep.\nRelevance: 1", 1 },
		{ "Relevance: 3", 3 },
		{ "Relevance: 0.5", 0.5 },
		{ "Relevance: .25", 0.25 },
		{ "Relevance: 2.", 2 },
		{ "Relevance: 0", 0 },
		{ "**Relevance:** **4**", 4 },
		{ "Relevance: 1 (keep it one more lifetime)", 1 },
		{ "Reasoning: no rule applies. Relevance: 0", 0 },
		{ "Relevance: 5\nOn second thought:\nRelevance: 2", 2 },
		{ "Reasoning: x\nrelevance:\n7", 7 },
		{ "```\nRelevance: 12\n```", 12 },
		{ "{\"reasoning\": \"x\", \"relevance\": 2}", 2 },
		{ "{\"reasoning\": \"x\", \"relevance\": 0.75}", 0.75 },
		{ "{\"reasoning\": \"x\", \"relevance\": \"3\"}", 3 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double a = -1;
		h2emv_error err;
		int rc = lp_relevance(cases[i].reply, &a, &err);
		if (rc)
			print_error("case %zu: %s\n", i, err.message);
		assert_int_equal(rc, H2EMV_OK);
		assert_true(a == cases[i].alpha);
	}
	static const char *const infs[] = {
		"Relevance: inf", "Relevance: Inf.", "Relevance: INFINITY", "Relevance: infinity",
		"Relevance: \xe2\x88\x9e", "Relevance: `inf`", "{\"relevance\": \"inf\"}",
		"{\"reasoning\": \"keep\", \"relevance\": \"Infinity\"}",
	};
	for (size_t i = 0; i < sizeof infs / sizeof infs[0]; i++) {
		double a = 0;
		h2emv_error err;
		assert_int_equal(lp_relevance(infs[i], &a, &err), H2EMV_OK);
		assert_true(isinf(a) && a > 0);
	}
}

static void test_relevance_negative_garbage_and_missing(void **state)
{
	(void)state;
	static const struct {
		const char *reply, *part;
	} cases[] = {
		{ "Relevance: -1", "must be 0 or more, or inf; got \"-1\"" },
		{ "Relevance: high", "relevance \"high\" is not a number or inf" },
		{ "Relevance: nan", "is not a number or inf" },
		{ "Relevance: NaN", "is not a number or inf" },
		{ "Relevance: 1e3", "is not a number or inf" },
		{ "Relevance: info", "is not a number or inf" },
		{ "Relevance: <number>", "is not a number or inf" },
		{ "Relevance: .", "is not a number or inf" },
		{ "Relevance:", "is not a number or inf" },
		{ "Relevance: 12345678901234567890", "too large; answer inf" },
		{ "Relevance: 0,5", "write decimals with a point" },
		{ "Reasoning: keep it forever.", "no \"Relevance:\" line" },
		{ "", "no \"Relevance:\" line" },
		{ "{\"relevance\": -2}", "must be 0 or more" },
		{ "{\"relevance\": true}", "must be a number or \"inf\"" },
		{ "{\"reasoning\": \"x\"}", "no \"relevance\"" },
		{ "{\"relevance\": 1e999}", "does not parse" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double a = 5;
		h2emv_error err;
		expect_fail(lp_relevance(cases[i].reply, &a, &err), &err, H2EMV_EPARSE, cases[i].part);
		assert_true(a == 0);
	}
}

/* ---------------------------------------------------------------- rules -- */

static void expect_rules(const char *reply, const char *const *want, size_t n)
{
	pol_rule_list l;
	h2emv_error err;
	int rc = lp_rules(reply, &l, &err);
	if (rc)
		print_error("%s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	assert_int_equal(l.n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(l.items[i], want[i]);
	pol_rule_list_free(&l);
}

static void test_rules_numbered_list_variants(void **state)
{
	(void)state;
	static const char *const two[] = { "Remember where the knife goes.",
		                           "Forget the dishes." };
	expect_rules("1. Remember where the knife goes.\n2. Forget the dishes.", two, 2);
	expect_rules("Here are the updated rules:\n\n1) Remember where the knife goes.\n\n"
	             "2) Forget the dishes.\n\nLet me know if you want changes.",
	             two, 2);
	expect_rules("```\n1. Remember where the knife goes.\r\n2. Forget the dishes.\r\n```\n"
	             "I kept both rules.",
	             two, 2);
	/* the last list wins: a model that lists old and new rules */
	expect_rules("Old rules:\n1. Keep all.\n\nNew rules:\n1. Remember where the knife goes.\n"
	             "2. Forget the dishes.",
	             two, 2);
	/* duplicates and empty items go */
	expect_rules("1. Remember where the knife goes.\n2.\n3. Remember where the knife goes.\n"
	             "4. Forget the dishes.",
	             two, 2);
	/* an indented list */
	expect_rules("  1. Remember where the knife goes.\n  2. Forget the dishes.", two, 2);
	/* "1.5 kg" is no item */
	expect_rules("1. Remember 1.5 kg bags.\n1.5 kg is heavy.",
	             (const char *const[]){ "Remember 1.5 kg bags." }, 1);
}

static void test_rules_continuations_and_round_trip(void **state)
{
	(void)state;
	/* sub-points under a rule stay with it */
	expect_rules("1. For dishwasher tasks:\n   - when loading, remember the objects;\n"
	             "   - when unloading, remember the arm.\n2. Forget the dishes.",
	             (const char *const[]){ "For dishwasher tasks:\n- when loading, remember the "
		                            "objects;\n- when unloading, remember the arm.",
		                            "Forget the dishes." },
	             2);
	expect_rules("1. For dishwasher tasks:\n- when loading, remember the objects.\n2. Last.",
	             (const char *const[]){ "For dishwasher tasks:\n- when loading, remember the "
		                            "objects.",
		                            "Last." },
	             2);
	/* what pr_add_rules renders parses back to the same rules */
	static const char *const rules[] = { "Always remember the knife.",
		                             "For guests:\nremember names\nand faces.",
		                             "Forget the rest." };
	pol_rules in = { rules, 3 };
	pr_str b = { 0 };
	pr_add_rules(&b, &in);
	char *text = pr_str_take(&b);
	assert_non_null(text);
	expect_rules(text, rules, 3);
	free(text);
}

static void test_rules_bullets_none_and_json(void **state)
{
	(void)state;
	static const char *const two[] = { "Keep knives.", "Forget cups." };
	expect_rules("Rules:\n- Keep knives.\n* Forget cups.", two, 2);
	expect_rules("\xe2\x80\xa2 Keep knives.\n\xe2\x80\xa2 Forget cups.", two, 2);
	expect_rules("The user wants nothing kept.\n\nNone.", NULL, 0);
	expect_rules("(no rules)", NULL, 0);
	expect_rules("{\"rules\": []}", NULL, 0);
	expect_rules("{\"rules\": [\" Keep knives. \", \"Forget cups.\", \"Keep knives.\", \"\"]}",
	             two, 2);
	pol_rule_list l;
	h2emv_error err;
	expect_fail(lp_rules("I updated the rules as asked.", &l, &err), &err, H2EMV_EPARSE,
	            "no numbered list of rules");
	assert_null(l.items);
	expect_fail(lp_rules("{\"rules\": [1]}", &l, &err), &err, H2EMV_EPARSE,
	            "rules[0] must be a string");
	expect_fail(lp_rules("{\"rule\": []}", &l, &err), &err, H2EMV_EPARSE, "needs \"rules\"");
	expect_fail(lp_rules("1. Keep \xc0\xaf knives.", &l, &err), &err, H2EMV_EPARSE,
	            "rule 1 is not valid UTF-8");
}

static void test_rules_caps(void **state)
{
	(void)state;
	pol_rule_list l;
	h2emv_error err;
	char *buf = malloc(64 * 1024);
	assert_non_null(buf);
	size_t n = 0;
	for (int i = 1; i <= LP_MAX_RULES; i++)
		n += (size_t)sprintf(buf + n, "%d. Rule number %d.\n", i, i);
	assert_int_equal(lp_rules(buf, &l, &err), H2EMV_OK);
	assert_int_equal(l.n, LP_MAX_RULES);
	pol_rule_list_free(&l);
	sprintf(buf + n, "%d. One too many.\n", LP_MAX_RULES + 1);
	expect_fail(lp_rules(buf, &l, &err), &err, H2EMV_EPARSE, "too many rules (more than 64)");
	strcpy(buf, "1. ");
	memset(buf + 3, 'r', LP_MAX_RULE + 1);
	buf[3 + LP_MAX_RULE + 1] = '\0';
	expect_fail(lp_rules(buf, &l, &err), &err, H2EMV_EPARSE, "rule 1 is too long (1001 bytes");
	free(buf);
}

/* ------------------------------------------------------------------- QA -- */

typedef struct view_fix {
	pol_item nodes[4];
	pol_qa_view v;
} view_fix;

/* Nodes 12, 15 (forgotten), 20, 21; round 0 of 5. */
static void make_view(view_fix *f)
{
	memset(f, 0, sizeof *f);
	static const uint64_t ids[] = { 12, 15, 20, 21 };
	for (size_t i = 0; i < 4; i++) {
		f->nodes[i].id = ids[i];
		f->nodes[i].text = i == 1 ? "" : "something";
		f->nodes[i].forgotten = i == 1;
		f->nodes[i].t_start = T0 + (int64_t)i * 3600 * SEC;
		f->nodes[i].t_end = f->nodes[i].t_start + 1800 * SEC;
	}
	f->v.question = "Where did you put the knife?";
	f->v.now = T0 + 86400 * SEC;
	f->v.nodes = f->nodes;
	f->v.n = 4;
	f->v.round = 0;
	f->v.max_rounds = 5;
	f->v.history = "";
}

static void parse_qa(const char *reply, const pol_qa_view *v, pol_qa_action *a)
{
	h2emv_error err;
	int rc = lp_qa(reply, v, a, &err);
	if (rc)
		print_error("%s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
}

static void test_qa_text_actions(void **state)
{
	(void)state;
	view_fix f;
	make_view(&f);
	pol_qa_action a;
	parse_qa("Reasoning: the knife was used in the morning.\nAction: expand([12, 20])", &f.v, &a);
	assert_int_equal(a.kind, POL_QA_EXPAND);
	assert_int_equal(a.n_ids, 2);
	assert_int_equal(a.ids[0], 12);
	assert_int_equal(a.ids[1], 20);
	pol_qa_action_free(&a);
	parse_qa("Action: expand(12, 12, 21)", &f.v, &a); /* bare ids, duplicates dropped */
	assert_int_equal(a.n_ids, 2);
	assert_int_equal(a.ids[1], 21);
	pol_qa_action_free(&a);
	parse_qa("Action: EXPAND(ids=[\"20\"]) # look closer", &f.v, &a);
	assert_int_equal(a.kind, POL_QA_EXPAND);
	assert_int_equal(a.ids[0], 20);
	pol_qa_action_free(&a);

	parse_qa("Action: expand_range(\"2024/09/23 10:00\", \"2024/09/23 11:00\")", &f.v, &a);
	assert_int_equal(a.kind, POL_QA_RANGE);
	assert_true(a.t0 == T0);
	assert_true(a.t1 == T0 + 3660 * SEC - 1); /* to the end of the minute named */
	pol_qa_action_free(&a);
	parse_qa("Action: expand_range('2024-09-23', '2024-09-23')", &f.v, &a);
	assert_true(a.t0 == T0 - 10 * 3600 * SEC);
	assert_true(a.t1 == T0 + 14 * 3600 * SEC - 1); /* the whole day */
	pol_qa_action_free(&a);
	parse_qa("Action: expand_range(\"2024/09/23 10:00:30\", \"10:20\")", &f.v, &a);
	assert_true(a.t0 == T0 + 30 * SEC);
	assert_true(a.t1 == T0 + 21 * 60 * SEC - 1); /* t1 takes t0's date */
	pol_qa_action_free(&a);

	parse_qa("Action: search(\"knife \\\"chef\\\"\")", &f.v, &a);
	assert_int_equal(a.kind, POL_QA_SEARCH);
	assert_string_equal(a.text, "knife \"chef\"");
	assert_true(a.t1 == 0);
	pol_qa_action_free(&a);
	parse_qa("Action: search(\"knife\", \"2024/09/23 10:00\", \"2024/09/23 12:00\")", &f.v, &a);
	assert_true(a.t0 == T0 && a.t1 > a.t0);
	pol_qa_action_free(&a);

	parse_qa("Reasoning: found it.\nAction: answer(\"I put it in the drawer.\\nAt 10:05.\", [20])",
	         &f.v, &a);
	assert_int_equal(a.kind, POL_QA_ANSWER);
	assert_string_equal(a.text, "I put it in the drawer.\nAt 10:05.");
	assert_int_equal(a.n_ids, 1);
	assert_int_equal(a.forgotten, 0);
	pol_qa_action_free(&a);
	parse_qa("Action: answer('It\\'s in the drawer')", &f.v, &a);
	assert_string_equal(a.text, "It's in the drawer");
	assert_int_equal(a.n_ids, 0);
	pol_qa_action_free(&a);
}

static void test_qa_fences_bare_calls_and_json(void **state)
{
	(void)state;
	view_fix f;
	make_view(&f);
	pol_qa_action a;
	parse_qa("Reasoning: x\nAction:\n```python\nexpand([21])\n```", &f.v, &a);
	assert_int_equal(a.kind, POL_QA_EXPAND);
	assert_int_equal(a.ids[0], 21);
	pol_qa_action_free(&a);
	parse_qa("I should look deeper.\n```\nhistory.expand([12])\n```", &f.v, &a);
	assert_int_equal(a.ids[0], 12);
	pol_qa_action_free(&a);
	parse_qa("**Action:** `search(\"cup\")`", &f.v, &a);
	assert_string_equal(a.text, "cup");
	pol_qa_action_free(&a);
	parse_qa("{\"reasoning\": \"r\", \"action\": \"answer\", \"ids\": [12, 15], \"t0\": \"\", "
	         "\"t1\": \"\", \"text\": \"In the sink.\"}",
	         &f.v, &a);
	assert_int_equal(a.kind, POL_QA_ANSWER);
	assert_int_equal(a.n_ids, 2);
	assert_int_equal(a.forgotten, 1); /* 15 is forgotten */
	pol_qa_action_free(&a);
	parse_qa("{\"action\": \"expand_range\", \"ids\": [], \"t0\": \"2024/09/23 10:00\", "
	         "\"t1\": \"2024/09/23 10:30\", \"text\": \"\"}",
	         &f.v, &a);
	assert_int_equal(a.kind, POL_QA_RANGE);
	assert_true(a.t0 == T0);
	pol_qa_action_free(&a);
	parse_qa("{\"action\": \"expand\", \"ids\": [20], \"t0\": null, \"t1\": null, \"text\": null}",
	         &f.v, &a);
	assert_int_equal(a.kind, POL_QA_EXPAND);
	pol_qa_action_free(&a);
}

static void test_qa_forgotten_answers(void **state)
{
	(void)state;
	view_fix f;
	make_view(&f);
	pol_qa_action a;
	static const char *const says[] = {
		"Action: answer(\"I forgot where I put it.\", [])",
		"Action: answer(\"Sorry, I have FORGOTTEN that.\", [12])",
		"Action: answer(\"I no longer remember.\")",
		"Action: answer(\"I don\xe2\x80\x99t remember that morning.\", [20])",
		"Action: answer(\"The knife is in the drawer.\", [15])",
	};
	for (size_t i = 0; i < sizeof says / sizeof says[0]; i++) {
		parse_qa(says[i], &f.v, &a);
		assert_int_equal(a.forgotten, 1);
		pol_qa_action_free(&a);
	}
}

static void test_qa_errors(void **state)
{
	(void)state;
	view_fix f;
	make_view(&f);
	static const struct {
		const char *reply, *part;
	} cases[] = {
		{ "Action: expand([77])", "id 77 is not in the view" },
		{ "Action: answer(\"x\", [12, 99999999999999999999999])", "is not in the view" },
		{ "Action: expand([])", "expand needs at least one id" },
		{ "Action: expand(\"knife\")", "expand takes node ids" },
		{ "Action: expand([12", "closing \"]\"" },
		{ "Action: expand([12]", "needs a closing \")\"" },
		{ "Action: expand_range(\"2024/09/23 11:00\", \"2024/09/23 10:00\")",
		  "the range ends (\"2024/09/23 10:00\") before it starts (\"2024/09/23 11:00\")" },
		{ "Action: expand_range(\"10:00\", \"11:00\")", "time \"10:00\" needs a date" },
		{ "Action: expand_range(\"2024/13/01\", \"2024/13/02\")", "is not \"YYYY/MM/DD" },
		{ "Action: expand_range(\"2023/02/29 10:00\", \"2023/03/01\")", "is not \"YYYY/MM/DD" },
		{ "Action: expand_range(\"2024/09/23 10:00\")", "two times are needed" },
		{ "Action: expand_range()", "two times are needed" },
		{ "Action: search()", "the search text must be in quotes" },
		{ "Action: search(\"  \")", "the search text is empty" },
		{ "Action: answer(\"unterminated)", "the answer has no closing quote" },
		{ "Action: answer(\"\", [12])", "the answer is empty" },
		{ "Action: answer(\"\xff\")", "not valid UTF-8" },
		{ "Action: look(12)", "action \"look\" is not one of expand" },
		{ "Action: expand [12]", "needs its arguments in parentheses" },
		{ "Reasoning: I will expand node 12.", "no \"Action:\" line" },
		{ "{\"action\": \"jump\"}", "\"action\" must be one of" },
		{ "{\"action\": \"expand\", \"ids\": \"12\"}", "\"ids\" must be a list" },
		{ "{\"action\": \"expand_range\", \"t0\": \"\", \"t1\": \"\"}", "needs \"t0\" and \"t1\"" },
		{ "{\"action\": \"answer\", \"text\": 3}", "\"text\" must be a string" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pol_qa_action a;
		h2emv_error err;
		int rc = lp_qa(cases[i].reply, &f.v, &a, &err);
		expect_fail(rc, &err, H2EMV_EPARSE, cases[i].part);
		assert_null(a.ids);
		assert_null(a.text);
		assert_int_equal(a.kind, 0);
	}
	/* the last round must answer, as its prompt says */
	f.v.round = 4;
	pol_qa_action a;
	h2emv_error err;
	expect_fail(lp_qa("Action: expand([12])", &f.v, &a, &err), &err, H2EMV_EPARSE,
	            "this is the last step");
	parse_qa("Action: answer(\"In the drawer.\", [12])", &f.v, &a);
	pol_qa_action_free(&a);
	/* too many ids */
	char buf[4096];
	size_t n = (size_t)sprintf(buf, "Action: answer(\"x\", [");
	for (int i = 0; i <= LP_MAX_IDS; i++)
		n += (size_t)sprintf(buf + n, "12, ");
	strcpy(buf + n, "12])");
	expect_fail(lp_qa(buf, &f.v, &a, &err), &err, H2EMV_EPARSE, "too many ids");
	expect_fail(lp_qa("Action: expand([12])", NULL, &a, &err), &err, H2EMV_EINVAL, NULL);
}

/* ---------------------------------------------------------------- route -- */

static void test_route_text_and_json(void **state)
{
	(void)state;
	int route;
	char *reply;
	h2emv_error err;
	assert_int_equal(lp_route("Reasoning: asks about the past.\nRoute: question\nReply:", &route,
	                          &reply, &err),
	                 H2EMV_OK);
	assert_int_equal(route, POL_ROUTE_QUESTION);
	assert_null(reply);
	assert_int_equal(lp_route("Route: **Feedback**", &route, &reply, &err), H2EMV_OK);
	assert_int_equal(route, POL_ROUTE_FEEDBACK);
	assert_null(reply);
	assert_int_equal(lp_route("Reasoning: a greeting.\nRoute: other\nReply: Hello! How can I "
	                          "help?\nI remember what I did.\n\nBye",
	                          &route, &reply, &err),
	                 H2EMV_OK);
	assert_int_equal(route, POL_ROUTE_REPLY);
	assert_string_equal(reply, "Hello! How can I help?\nI remember what I did.");
	free(reply);
	/* the reply before the route */
	assert_int_equal(lp_route("Reply: \"Hi there.\"\nRoute: other", &route, &reply, &err),
	                 H2EMV_OK);
	assert_string_equal(reply, "Hi there.");
	free(reply);
	assert_int_equal(lp_route("{\"reasoning\": \"r\", \"route\": \"other\", \"reply\": \"Hi.\"}",
	                          &route, &reply, &err),
	                 H2EMV_OK);
	assert_int_equal(route, POL_ROUTE_REPLY);
	assert_string_equal(reply, "Hi.");
	free(reply);
	assert_int_equal(lp_route("{\"reasoning\": \"r\", \"route\": \"question\", \"reply\": \"\"}",
	                          &route, &reply, &err),
	                 H2EMV_OK);
	assert_int_equal(route, POL_ROUTE_QUESTION);
	assert_null(reply);
}

static void test_route_errors(void **state)
{
	(void)state;
	int route = 9;
	char *reply = (char *)1;
	h2emv_error err;
	expect_fail(lp_route("Route: other", &route, &reply, &err), &err, H2EMV_EPARSE,
	            "route \"other\" needs a reply");
	assert_int_equal(route, 0);
	assert_null(reply);
	expect_fail(lp_route("Route: other\nReply:   ", &route, &reply, &err), &err, H2EMV_EPARSE,
	            "needs a reply");
	expect_fail(lp_route("Route: command", &route, &reply, &err), &err, H2EMV_EPARSE,
	            "route \"command\" is not one of question, feedback, other");
	expect_fail(lp_route("It is a question.", &route, &reply, &err), &err, H2EMV_EPARSE,
	            "no \"Route:\" line");
	expect_fail(lp_route("{\"route\": \"other\", \"reply\": \"\"}", &route, &reply, &err), &err,
	            H2EMV_EPARSE, "needs a reply");
	expect_fail(lp_route("{\"route\": 1}", &route, &reply, &err), &err, H2EMV_EPARSE,
	            "needs \"route\"");
}

/* -------------------------------------------------------------- schemas -- */

/* Strict mode: every object lists each property as required and forbids
 * others. */
static void check_strict(json_t *s)
{
	if (!json_is_object(s))
		return;
	json_t *type = json_object_get(s, "type");
	if (type && json_is_string(type) && strcmp(json_string_value(type), "object") == 0) {
		json_t *props = json_object_get(s, "properties"), *req = json_object_get(s, "required");
		assert_true(json_is_object(props) && json_is_array(req));
		assert_true(json_is_false(json_object_get(s, "additionalProperties")));
		assert_int_equal(json_array_size(req), json_object_size(props));
		size_t i;
		json_t *r;
		json_array_foreach (req, i, r)
			assert_non_null(json_object_get(props, json_string_value(r)));
	}
	const char *k;
	json_t *v;
	json_object_foreach (s, k, v) {
		if (json_is_array(v)) {
			size_t i;
			json_t *e;
			json_array_foreach (v, i, e)
				check_strict(e);
		} else {
			check_strict(v);
		}
	}
}

static void test_schemas_are_strict_and_follow_the_decisions(void **state)
{
	(void)state;
	for (int d = 0; d < LP_COUNT; d++) {
		json_error_t je;
		json_t *s = json_loads(lp_schema(d), JSON_REJECT_DUPLICATES, &je);
		if (!s)
			print_error("schema %d: %s\n", d, je.text);
		assert_non_null(s);
		check_strict(s);
		/* reasoning first where there is one: a constrained model writes in
		 * schema order */
		const char *first = json_object_iter_key(json_object_iter(json_object_get(s, "properties")));
		assert_non_null(first);
		if (d != LP_SUMMARIZE && d != LP_LEARN)
			assert_string_equal(first, "reasoning");
		json_decref(s);
		assert_string_equal(lp_schema_name(d), llm_decision_name(d));
	}
	assert_null(lp_schema(LP_COUNT));
	assert_null(lp_schema(-1));
	assert_null(lp_schema_name(LP_COUNT));
}

/* What a schema-conforming reply says, each parser reads. */
static void test_schema_shaped_replies_parse(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	pol_group_reply g;
	h2emv_error err;
	assert_int_equal(lp_group("{\"reasoning\":\"r\",\"groups\":[{\"range\":\"0\",\"summary\":\"s\"}]}",
	                          &f.req, &g, &err),
	                 H2EMV_OK);
	pol_groups_free(&g);
	char *s;
	assert_int_equal(lp_summary("{\"summary\":\"s\"}", &s, &err), H2EMV_OK);
	free(s);
	double a;
	assert_int_equal(lp_relevance("{\"reasoning\":\"r\",\"relevance\":\"inf\"}", &a, &err),
	                 H2EMV_OK);
	pol_rule_list l;
	assert_int_equal(lp_rules("{\"rules\":[\"r\"]}", &l, &err), H2EMV_OK);
	pol_rule_list_free(&l);
	view_fix v;
	make_view(&v);
	pol_qa_action q;
	assert_int_equal(lp_qa("{\"reasoning\":\"r\",\"action\":\"search\",\"ids\":[],\"t0\":\"\","
	                       "\"t1\":\"\",\"text\":\"knife\"}",
	                       &v.v, &q, &err),
	                 H2EMV_OK);
	pol_qa_action_free(&q);
	int r;
	char *rep;
	assert_int_equal(lp_route("{\"reasoning\":\"r\",\"route\":\"feedback\",\"reply\":\"\"}", &r,
	                          &rep, &err),
	                 H2EMV_OK);
}

/* -------------------------------------------------------------- hostile -- */

static void test_hostile_replies_fail_cleanly(void **state)
{
	(void)state;
	req_fix f;
	paper_req(&f);
	view_fix v;
	make_view(&v);
	h2emv_error err;
	pol_group_reply g;
	double a;
	char *s;
	size_t big = LP_MAX_REPLY + 1;
	char *buf = malloc(big + 1);
	assert_non_null(buf);

	/* over the size limit */
	memset(buf, 'x', big);
	buf[big] = '\0';
	expect_fail(lp_group(buf, &f.req, &g, &err), &err, H2EMV_ELIMIT, NULL);
	expect_fail(lp_relevance(buf, &a, &err), &err, H2EMV_ELIMIT, NULL);

	/* deep nesting inside the JSON (jansson's depth limit) */
	size_t depth = 100000;
	strcpy(buf, "JSON: {\"0\": ");
	size_t n = strlen(buf);
	memset(buf + n, '[', depth);
	buf[n + depth] = '\0';
	expect_fail(lp_group(buf, &f.req, &g, &err), &err, H2EMV_EPARSE, "does not parse");

	/* invalid UTF-8 in the JSON, and in the error's quotation */
	expect_fail(lp_group("JSON: {\"0\": \"\xff\xfe\"}", &f.req, &g, &err), &err, H2EMV_EPARSE,
	            "does not parse");
	expect_fail(lp_route("Route: \xe2\x82", NULL, NULL, &err), &err, H2EMV_EINVAL, NULL);
	int r;
	char *rep;
	expect_fail(lp_route("Route: \xe2\x82zz", &r, &rep, &err), &err, H2EMV_EPARSE, "route \"");

	/* many labels, braces, quotes: still linear, still an error */
	n = 0;
	while (n + 16 < LP_MAX_REPLY) {
		memcpy(buf + n, "Relevance: \"{[\n", 15);
		n += 15;
	}
	buf[n] = '\0';
	expect_fail(lp_relevance(buf, &a, &err), &err, H2EMV_EPARSE, NULL);
	expect_fail(lp_group(buf, &f.req, &g, &err), &err, H2EMV_EPARSE, NULL);
	expect_fail(lp_summary(buf, &s, &err), &err, H2EMV_EPARSE, NULL);
	pol_qa_action q;
	expect_fail(lp_qa(buf, &v.v, &q, &err), &err, H2EMV_EPARSE, NULL);
	pol_rule_list l;
	n = 0;
	while (n + 8 < LP_MAX_REPLY) {
		memcpy(buf + n, "1. x\n", 5);
		n += 5;
	}
	buf[n] = '\0';
	assert_int_equal(lp_rules(buf, &l, &err), H2EMV_OK); /* one rule, deduplicated */
	assert_int_equal(l.n, 1);
	pol_rule_list_free(&l);
	free(buf);
}

/* Inputs the fuzzers found. */
static void test_regressions_from_fuzzing(void **state)
{
	(void)state;
	h2emv_error err;
	/* a continuation line starting with carriage returns: trimmed like any */
	expect_rules("Npo\n1. \n  \r\r\r.\n", (const char *const[]){ "." }, 1);
	expect_rules("{\"rules\": [\"a\\n \\r```\\n\\f b\"]}", (const char *const[]){ "a\nb" }, 1);
	/* no read past the end looking for "∞" or an en dash (the sanitizer
	 * build sees it: a key is its own allocation) */
	double a;
	expect_fail(lp_relevance("Relevance: \xe2", &a, &err), &err, H2EMV_EPARSE, NULL);
	req_fix f;
	paper_req(&f);
	pol_group_reply r;
	assert_int_equal(lp_group("{\"0\": \"x\"}", &f.req, &r, &err), H2EMV_OK);
	pol_groups_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_paper_merge_newest_into_last_group),
		cmocka_unit_test(test_group_paper_new_group_and_regroup),
		cmocka_unit_test(test_group_schema_form_and_untouched_groups_copied),
		cmocka_unit_test(test_group_tolerates_fences_chatter_and_labels),
		cmocka_unit_test(test_group_overlap_and_duplicates_are_refused),
		cmocka_unit_test(test_group_new_items_must_be_covered),
		cmocka_unit_test(test_group_cutting_a_previous_group_is_refused),
		cmocka_unit_test(test_group_keys_numbers_and_summaries_are_checked),
		cmocka_unit_test(test_group_bad_arguments),
		cmocka_unit_test(test_summary_text_and_json),
		cmocka_unit_test(test_summary_errors),
		cmocka_unit_test(test_relevance_numbers_and_inf),
		cmocka_unit_test(test_relevance_negative_garbage_and_missing),
		cmocka_unit_test(test_rules_numbered_list_variants),
		cmocka_unit_test(test_rules_continuations_and_round_trip),
		cmocka_unit_test(test_rules_bullets_none_and_json),
		cmocka_unit_test(test_rules_caps),
		cmocka_unit_test(test_qa_text_actions),
		cmocka_unit_test(test_qa_fences_bare_calls_and_json),
		cmocka_unit_test(test_qa_forgotten_answers),
		cmocka_unit_test(test_qa_errors),
		cmocka_unit_test(test_route_text_and_json),
		cmocka_unit_test(test_route_errors),
		cmocka_unit_test(test_schemas_are_strict_and_follow_the_decisions),
		cmocka_unit_test(test_schema_shaped_replies_parse),
		cmocka_unit_test(test_hostile_replies_fail_cleanly),
		cmocka_unit_test(test_regressions_from_fuzzing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
