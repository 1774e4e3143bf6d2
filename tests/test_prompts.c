/*
 * test_prompts.c — the prompts every policy decision renders (prompts.h):
 * item numbering newest = 0, rules only when given, the trimming rule (a
 * prefix at a line or word boundary), the budget (whole oldest items go
 * first), UTC time formatting, the token estimate pinned on fixed
 * strings, and the estimate counted piece by piece (pr_group_tokens,
 * pr_summarize_tokens) equal to the rendered prompt's on random requests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/policy/prompts.h"

#define SEC 1000000ll
#define T0 (1727085600ll * SEC) /* 2024/09/23 10:00:00 UTC */

static const char *const RULES[] = {
	"Be willing to forget: keep an item only if a rule below says it matters.",
	"Always remember the location to where you transport a knife.",
};

static char *flat(const pr_prompt *p)
{
	char *s = pr_prompt_flat(p);
	assert_non_null(s);
	return s;
}

/* ---------------------------------------------------------------- time -- */

static void test_time_range_prints_seconds_minutes_or_dates(void **state)
{
	(void)state;
	char b[PR_TIME_MAX];
	assert_string_equal(pr_time_range(b, sizeof b, T0 + 13 * SEC, T0 + 55 * SEC, 1),
	                    "2024/09/23 10:00:13 - 10:00:55");
	assert_string_equal(pr_time_range(b, sizeof b, T0 + 13 * SEC, T0 + 55 * SEC, 0),
	                    "10:00:13 - 10:00:55");
	assert_string_equal(pr_time_range(b, sizeof b, T0, T0 + 180 * SEC, 1),
	                    "2024/09/23 10:00:00 - 10:03:00");
	assert_string_equal(pr_time_range(b, sizeof b, T0, T0 + 181 * SEC, 1),
	                    "2024/09/23 10:00 - 10:03");
	assert_string_equal(pr_time_range(b, sizeof b, T0, T0 + 3 * 86400 * SEC, 1),
	                    "2024/09/23 - 2024/09/26");
	/* across midnight, under a day: the end says its date */
	assert_string_equal(pr_time_range(b, sizeof b, T0 + 13 * 3600 * SEC, T0 + 15 * 3600 * SEC, 1),
	                    "2024/09/23 23:00 - 2024/09/24 01:00");
}

static void test_time_point_is_utc_and_handles_before_epoch(void **state)
{
	(void)state;
	char b[PR_TIME_MAX];
	assert_string_equal(pr_time_point(b, sizeof b, T0 + 3723 * SEC), "2024/09/23 11:02:03");
	assert_string_equal(pr_time_point(b, sizeof b, 0), "1970/01/01 00:00:00");
	assert_string_equal(pr_time_point(b, sizeof b, -1), "1969/12/31 23:59:59");
	assert_string_equal(pr_time_point(b, sizeof b, 951782400ll * SEC), "2000/02/29 00:00:00");
}

/* -------------------------------------------------------------- tokens -- */

static void test_token_estimate_is_pinned_on_fixed_strings(void **state)
{
	(void)state;
	assert_int_equal(tok_text(""), 0);
	assert_int_equal(tok_text(NULL), 0);
	assert_int_equal(tok_text("hello"), 1);
	assert_int_equal(tok_text("Hello, world!"), 4);
	/* 9 letters: two tokens; camel case splits */
	assert_int_equal(tok_text("Transport"), 2);
	assert_int_equal(tok_text("MakeBreakfast.Transport"), 6);
	/* digits by three */
	assert_int_equal(tok_text("2024/09/23 10:03:13"), 11);
	assert_int_equal(tok_text("1234567"), 3);
	/* one space is free, two spaces, a newline or a tab cost one */
	assert_int_equal(tok_text("a b"), 2);
	assert_int_equal(tok_text("a  b\n"), 4);
	assert_int_equal(tok_text("a\tb"), 3);
	/* UTF-8: one per character; a stray byte counts alone */
	assert_int_equal(tok_text("na\xc3\xafve"), 3);
	assert_int_equal(tok_text("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"), 3);
	assert_int_equal(tok_text("\xff\xfe"), 2);
	assert_int_equal(tok_text("I picked up a knife and sliced a potato."), 10);
	assert_int_equal(tok_count("hello world", 5), 1);
}

static void test_prompt_tokens_add_message_and_reply_overheads(void **state)
{
	(void)state;
	pr_prompt p = { 0 };
	assert_int_equal(tok_prompt(&p), TOK_PER_REPLY);
	assert_int_equal(pr_prompt_add(&p, "system", "hi", NULL), H2EMV_OK);
	assert_int_equal(pr_prompt_add(&p, "user", "yo there", NULL), H2EMV_OK);
	assert_int_equal(tok_prompt(&p), 3 + (4 + 1) + (4 + 2));
	pr_prompt_free(&p);
}

/* ------------------------------------------------------------ trimming -- */

static void test_trim_keeps_whole_lines_within_the_limits(void **state)
{
	(void)state;
	const char *t = "line one\nline two\nline three\nline four";
	int cut = 0;
	assert_int_equal(pr_trim(t, 3, 200, &cut), strlen("line one\nline two\nline three"));
	assert_true(cut);
	assert_int_equal(pr_trim(t, 10, 200, &cut), strlen(t));
	assert_false(cut);
	/* the byte limit stops at the last whole line that fits */
	assert_int_equal(pr_trim(t, 10, 20, &cut), strlen("line one\nline two"));
	assert_true(cut);
	/* an over-long first line is cut at a space, never inside a word */
	assert_int_equal(pr_trim("alpha beta gamma", 1, 12, &cut), strlen("alpha beta"));
	assert_true(cut);
	/* a first word longer than the limit is kept whole */
	assert_int_equal(pr_trim("supercalifragilistic word", 1, 5, &cut),
	                 strlen("supercalifragilistic"));
	assert_int_equal(pr_trim("", 3, 200, &cut), 0);
	assert_false(cut);
}

static void test_trim_never_cuts_mid_word_on_random_texts(void **state)
{
	(void)state;
	uint32_t x = 12345;
	char text[400];
	for (int round = 0; round < 2000; round++) {
		size_t n = 0, len;
		x = x * 1103515245u + 12345u;
		len = (x >> 8) % (sizeof text - 1);
		for (n = 0; n < len; n++) {
			x = x * 1103515245u + 12345u;
			unsigned r = (x >> 16) % 16;
			text[n] = r == 0 ? '\n' : r < 4 ? ' ' : (char)('a' + r);
		}
		text[n] = '\0';
		x = x * 1103515245u + 12345u;
		unsigned lines = 1 + (x >> 10) % 4;
		size_t chars = (x >> 14) % 250;
		int cut;
		size_t keep = pr_trim(text, lines, chars, &cut);
		assert_true(keep <= n);
		/* the kept prefix ends at a word boundary */
		assert_true(keep == n || text[keep] == ' ' || text[keep] == '\n');
		assert_true(keep == 0 || (text[keep - 1] != ' ' && text[keep - 1] != '\n'));
	}
}

/* ---------------------------------------------------------- group prompt -- */

typedef struct fixture {
	pol_item items[12];
	pol_group groups[6];
	char texts[12][400];
	pol_group_req req;
} fixture;

/* n_old old items in groups of two, then n_new new ones, a minute apart. */
static void make_req(fixture *f, size_t n_old, size_t n_new, const char *fmt)
{
	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < n_old + n_new; i++) {
		snprintf(f->texts[i], sizeof f->texts[i], fmt, i, i);
		f->items[i].id = 100 + i;
		f->items[i].level = 3;
		f->items[i].t_start = T0 + (int64_t)i * 60 * SEC;
		f->items[i].t_end = f->items[i].t_start + 30 * SEC;
		f->items[i].text = f->texts[i];
	}
	size_t g = 0;
	for (size_t i = 0; i < n_old; i += 2, g++) {
		f->groups[g].first = i;
		f->groups[g].last = i + 1 < n_old ? i + 1 : i;
		f->groups[g].summary = (char *)"I did a step.";
	}
	f->req.level = 3;
	f->req.items = f->items;
	f->req.n_items = n_old + n_new;
	f->req.old_groups = f->groups;
	f->req.n_old = g;
	f->req.n_new = n_new;
	f->req.now = T0 + 3600 * SEC;
}

static void test_group_prompt_numbers_items_newest_zero(void **state)
{
	(void)state;
	fixture f;
	make_req(&f, 4, 2, "Goal: G%zu\nActions: Pickup(object=thing_%zu) succeeded");
	pr_prompt p;
	assert_int_equal(pr_group(&p, &f.req, 0, NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_non_null(strstr(s, "Previous actions:\n# (5 - 4) I did a step.\n"
	                          "- 5: 2024/09/23 10:00:00 - 10:00:30: Goal: G0\n"
	                          "  Actions: Pickup(object=thing_0) succeeded\n"
	                          "- 4: 10:01:00 - 10:01:30: Goal: G1\n"));
	assert_non_null(strstr(s, "# (3 - 2) I did a step.\n- 3: 10:02:00 - 10:02:30: Goal: G2\n"));
	assert_non_null(strstr(s, "Current:\n- 1: 10:04:00 - 10:04:30: Goal: G4\n"));
	assert_non_null(strstr(s, "- 0: 10:05:00 - 10:05:30: Goal: G5\n"));
	assert_non_null(strstr(s, "{\"4-0\": \"...\"}"));
	assert_non_null(strstr(s, "Answer like this:\nReasoning: ...\nJSON: ..."));
	assert_string_equal(p.msgs[0].role, "system");
	free(s);
	pr_prompt_free(&p);
}

static void test_group_prompt_has_rules_only_when_given(void **state)
{
	(void)state;
	fixture f;
	make_req(&f, 2, 1, "Goal: G%zu %zu");
	pr_prompt p;
	assert_int_equal(pr_group(&p, &f.req, 0, NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_null(strstr(s, "transport a knife"));
	assert_null(strstr(s, "rules"));
	free(s);
	pr_prompt_free(&p);

	pol_rules r = { RULES, 2 };
	f.req.rules = &r;
	assert_int_equal(pr_group(&p, &f.req, 0, NULL), H2EMV_OK);
	s = flat(&p);
	assert_non_null(strstr(s, "1. Be willing to forget"));
	assert_non_null(strstr(s, "2. Always remember the location to where you transport a knife."));
	assert_non_null(strstr(s, "must still tell what actually happened"));
	free(s);
	pr_prompt_free(&p);
}

static void test_group_prompt_trims_old_items_and_shows_current_in_full(void **state)
{
	(void)state;
	fixture f;
	make_req(&f, 2, 1, "Goal: G%zu\nline2\nline3\nline4 %zu\nline5");
	pr_prompt p;
	assert_int_equal(pr_group(&p, &f.req, 0, NULL), H2EMV_OK);
	char *s = flat(&p);
	/* old: three lines and the mark */
	assert_non_null(
		strstr(s, "- 2: 2024/09/23 10:00:00 - 10:00:30: Goal: G0\n  line2\n  line3 ...\n"));
	/* current: every line */
	assert_non_null(
		strstr(s, "- 0: 10:02:00 - 10:02:30: Goal: G2\n  line2\n  line3\n  line4 2\n  line5"));
	free(s);
	pr_prompt_free(&p);
}

static void test_group_prompt_budget_drops_whole_oldest_items_first(void **state)
{
	(void)state;
	fixture f;
	make_req(&f, 10, 2, "BEGIN%02zu some words about item %zu and what the robot did END");
	pr_prompt full;
	assert_int_equal(pr_group(&full, &f.req, 0, NULL), H2EMV_OK);
	uint64_t all = tok_prompt(&full);
	pr_prompt_free(&full);
	for (uint64_t budget = all; budget > 100; budget -= 13) {
		pr_prompt p;
		assert_int_equal(pr_group(&p, &f.req, budget, NULL), H2EMV_OK);
		char *s = flat(&p);
		int dropped = 0, seen_kept = 0;
		for (int i = 0; i < 12; i++) {
			char b[16], e[64];
			snprintf(b, sizeof b, "BEGIN%02d", i);
			snprintf(e, sizeof e, "BEGIN%02d some words about item %d and what the robot did END", i, i);
			int has_b = strstr(s, b) != NULL, has_e = strstr(s, e) != NULL;
			assert_int_equal(has_b, has_e); /* whole or not at all */
			if (!has_b) {
				assert_false(seen_kept); /* only the oldest go */
				assert_true(i < 10);     /* current items stay */
				dropped++;
			} else {
				seen_kept = 1;
			}
		}
		if (dropped) {
			char note[48];
			snprintf(note, sizeof note, "(%d older item%s left out)", dropped, dropped == 1 ? "" : "s");
			assert_non_null(strstr(s, note));
		}
		if (dropped < 10)
			assert_true(tok_prompt(&p) <= budget);
		/* a group all of whose items went loses its header */
		if (dropped >= 2)
			assert_null(strstr(s, "# (11 - 10)"));
		free(s);
		pr_prompt_free(&p);
	}
}

static void test_group_prompt_refuses_a_broken_partition(void **state)
{
	(void)state;
	fixture f;
	make_req(&f, 4, 1, "G%zu %zu");
	f.groups[1].first = 3;
	pr_prompt p;
	h2emv_error err = { 0 };
	assert_int_equal(pr_group(&p, &f.req, 0, &err), H2EMV_EINVAL);
	assert_int_equal(p.n, 0);
	assert_non_null(strstr(err.message, "partition"));
}

/* ------------------------------------------------------- other prompts -- */

static void test_summary_prompt_asks_for_timing_only_above_goals(void **state)
{
	(void)state;
	fixture f;
	make_req(&f, 0, 3, "Goal: G%zu %zu");
	pr_prompt p;
	assert_int_equal(pr_summarize(&p, f.items, 3, 3, NULL, NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_non_null(strstr(s, "one concise sentence in the first person"));
	assert_null(strstr(s, "large gaps"));
	assert_non_null(strstr(s, "Summary: ..."));
	free(s);
	pr_prompt_free(&p);
	assert_int_equal(pr_summarize(&p, f.items, 3, 4, NULL, NULL), H2EMV_OK);
	s = flat(&p);
	assert_non_null(strstr(s, "large gaps"));
	free(s);
	pr_prompt_free(&p);
}

static void test_relevance_prompt_shows_rules_item_parent_and_now(void **state)
{
	(void)state;
	pol_item it = { 7, 4, T0, T0 + 3 * 3600 * SEC, "I did Transport (knife_0).", NULL, 0, NULL };
	pol_item par = { 3, 5, T0, T0 + 5 * 3600 * SEC, "I worked in the kitchen.", NULL, 0, NULL };
	pol_rules r = { RULES, 2 };
	pol_relevance_req req = { &it, &par, T0 + 86400 * SEC, &r };
	pr_prompt p;
	assert_int_equal(pr_relevance(&p, &req, NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_non_null(strstr(s, "1. Be willing to forget"));
	assert_non_null(strstr(s, "2. Always remember the location"));
	assert_non_null(strstr(s, "2024/09/23 10:00 - 13:00: I did Transport (knife_0)."));
	assert_non_null(strstr(s, "Parent item: 2024/09/23 10:00 - 15:00: I worked in the kitchen."));
	assert_non_null(strstr(s, "Now: 2024/09/24 10:00:00"));
	assert_non_null(strstr(s, "Reasoning: ...\nRelevance: <number or inf>"));
	assert_non_null(strstr(s, "forget it (Relevance: 0)"));
	free(s);
	pr_prompt_free(&p);
	req.parent = NULL;
	req.rules = NULL;
	assert_int_equal(pr_relevance(&p, &req, NULL), H2EMV_OK);
	s = flat(&p);
	assert_non_null(strstr(s, "Parent item: none"));
	assert_null(strstr(s, "1. "));
	free(s);
	pr_prompt_free(&p);
}

static void test_learn_prompt_numbers_rules_and_quotes_feedback(void **state)
{
	(void)state;
	pol_rules r = { RULES, 2 };
	pr_prompt p;
	assert_int_equal(pr_learn(&p, &r, "Please remember where you put the keys", NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_non_null(strstr(s, "Current rules:\n1. Be willing"));
	assert_non_null(strstr(s, "\n2. Always remember the location"));
	assert_non_null(strstr(s, "User feedback: \"Please remember where you put the keys\""));
	assert_non_null(strstr(s, "numbered list"));
	assert_non_null(strstr(s, "Copy every rule"));
	free(s);
	pr_prompt_free(&p);
}

static void test_route_prompt_names_three_routes(void **state)
{
	(void)state;
	pr_prompt p;
	assert_int_equal(pr_route(&p, "Where are my keys?", NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_non_null(strstr(s, "Utterance: \"Where are my keys?\""));
	assert_non_null(strstr(s, "(question)"));
	assert_non_null(strstr(s, "(feedback)"));
	assert_non_null(strstr(s, "(other)"));
	assert_non_null(strstr(s, "Route: question, feedback or other"));
	free(s);
	pr_prompt_free(&p);
}

static void test_qa_prompt_renders_view_and_orders_answer_on_last_round(void **state)
{
	(void)state;
	pol_item nodes[3] = {
		{ 11, 5, T0, T0 + 2 * 3600 * SEC, "I cooked breakfast.", NULL, 0, NULL },
		{ 12, 4, T0, T0 + 600 * SEC, "", NULL, 1, NULL },
		{ 13, 4, T0 + 3600 * SEC, T0 + 7200 * SEC, "I did Transport (knife_0).", NULL, 0, NULL },
	};
	int depth[3] = { 0, 1, 1 }, expanded[3] = { 1, 0, 0 }, kids[3] = { 1, 0, 1 };
	pol_qa_view v = { "Where is the knife?", T0 + 86400 * SEC, nodes, depth, expanded, kids,
		              3, 0, 10, "" };
	pr_prompt p;
	assert_int_equal(pr_qa_step(&p, &v, NULL), H2EMV_OK);
	char *s = flat(&p);
	assert_non_null(strstr(s, "Question: Where is the knife?\nNow: 2024/09/24 10:00:00"));
	assert_non_null(strstr(s, "Current view:\n[11] 2024/09/23 10:00 - 12:00: I cooked breakfast.\n"
	                          "  [12] 2024/09/23 10:00 - 10:10: (forgotten)\n"
	                          "  [13] 2024/09/23 11:00 - 12:00: I did Transport (knife_0).\n"
	                          "    ..."));
	assert_non_null(strstr(s, "expand(ids)"));
	assert_non_null(strstr(s, "expand_range(t0, t1)"));
	assert_non_null(strstr(s, "search(text)"));
	assert_non_null(strstr(s, "answer(text, ids)"));
	assert_non_null(strstr(s, "forgotten"));
	assert_null(strstr(s, "last step"));
	assert_null(strstr(s, "Previous steps"));
	free(s);
	pr_prompt_free(&p);
	v.round = 9;
	v.history = "expand([11]) -> 2 nodes shown";
	assert_int_equal(pr_qa_step(&p, &v, NULL), H2EMV_OK);
	s = flat(&p);
	assert_non_null(strstr(s, "last step"));
	assert_non_null(strstr(s, "Previous steps:\nexpand([11]) -> 2 nodes shown"));
	free(s);
	pr_prompt_free(&p);
}

static void test_range_keys_and_json_escaping(void **state)
{
	(void)state;
	char k[32];
	pr_range_key(k, sizeof k, 2, 6, 7);
	assert_string_equal(k, "4-0");
	pr_range_key(k, sizeof k, 6, 6, 7);
	assert_string_equal(k, "0");
	pr_range_key(k, sizeof k, 1, 3, 7);
	assert_string_equal(k, "5-3");
	pr_str b = { 0 };
	pr_str_add_json(&b, "a \"q\"\\\n\x01");
	char *s = pr_str_take(&b);
	assert_string_equal(s, "a \\\"q\\\"\\\\\\n\\u0001");
	free(s);
}

/* ------------------------------------------------ tokens without render -- */

static uint32_t next(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

/* A random text of what prompts hold: words (camel case, long ones),
 * identifiers, digits, single and repeated spaces, newlines with and
 * without indents, punctuation, UTF-8, stray and cut UTF-8 bytes. */
static void random_text(char *out, size_t cap, uint32_t *x)
{
	static const char *const bits[] = {
		"Goal", "Make", "Breakfast", "knife_0", ".", ":", " ", "  ", "   ", "\n", "\n  ",
		"2024/09/23", "10:03:13", "(", ")", "I ", "did", "Transport", "supercalifragilistic",
		"12", "1234567", "\xc3\xaf", "\xe6\x97\xa5", "\xff", "\x80", "\xc3", "\xe6\x97", "\t",
		"\"", ",", "; ", "-", " ...", "x", "CounterTop",
	};
	size_t n = 0, parts = next(x) % 160;
	for (size_t j = 0; j < parts; j++) {
		const char *b = bits[next(x) % (sizeof bits / sizeof *bits)];
		size_t l = strlen(b);
		if (n + l >= cap)
			break;
		memcpy(out + n, b, l);
		n += l;
	}
	out[n] = '\0';
}

static void test_token_estimate_is_additive_at_clean_splits(void **state)
{
	(void)state;
	uint32_t x = 4242;
	char t[1200];
	for (int round = 0; round < 3000; round++) {
		random_text(t, sizeof t, &x);
		size_t n = strlen(t);
		uint64_t all = tok_count(t, n);
		for (size_t i = 1; i < n; i++)
			if (tok_splits_clean((unsigned char)t[i - 1], (unsigned char)t[i]))
				assert_int_equal(all, tok_count(t, i) + tok_count(t + i, n - i));
	}
	/* and where it is not: runs and characters would be cut */
	assert_false(tok_splits_clean('a', 'b'));
	assert_false(tok_splits_clean('1', '2'));
	assert_false(tok_splits_clean(' ', ' '));
	assert_false(tok_splits_clean(0xc3, 0xaf));
	assert_true(tok_splits_clean('\n', 'a'));
	assert_true(tok_splits_clean('a', ':'));
}

/* Pieces that count as prompts.h says, remembering nothing but how often
 * they were asked for (as a cache would be). */
static uint64_t counted_text(void *arg, const char *text, int kind)
{
	++*(size_t *)arg;
	return pr_piece_tokens(text, kind);
}

static uint64_t counted_range(void *arg, int64_t t0, int64_t t1, int with_date, int kind)
{
	++*(size_t *)arg;
	return pr_range_tokens(t0, t1, with_date, kind);
}

static uint64_t counted_rules(void *arg, const pol_rules *rules)
{
	++*(size_t *)arg;
	return pr_rules_msg_tokens(rules);
}

typedef struct rand_req {
	pol_item items[40];
	pol_group groups[40];
	char texts[40][700];
	char sums[40][300];
	char rule_text[3][300];
	const char *rule_v[3];
	pol_rules rules;
	pol_group_req req;
} rand_req;

/* Random items (times within a minute, hours or days of each other, some
 * spans over a day), a random partition of the old ones, random rules. */
static void random_req(rand_req *r, uint32_t *x)
{
	memset(r, 0, sizeof *r);
	size_t n = 1 + next(x) % 40, n_new = next(x) % (n + 1);
	int64_t t = T0 + (int64_t)(next(x) % 1000) * 3600 * SEC;
	for (size_t i = 0; i < n; i++) {
		static const int64_t steps[] = { 5 * SEC, 90 * SEC, 3600 * SEC, 20 * 3600 * SEC,
			                             3 * 86400 * SEC };
		t += steps[next(x) % 5] * (int64_t)(next(x) % 3);
		r->items[i].id = i + 1;
		r->items[i].level = 3 + (int)(next(x) % 3);
		r->items[i].t_start = t;
		t += steps[next(x) % 5] * (int64_t)(next(x) % 2);
		r->items[i].t_end = t;
		random_text(r->texts[i], sizeof r->texts[i], x);
		r->items[i].text = next(x) % 17 ? r->texts[i] : NULL;
	}
	size_t n_old_items = n - n_new, g = 0;
	for (size_t i = 0; i < n_old_items; g++) {
		size_t len = 1 + next(x) % 6;
		r->groups[g].first = i;
		r->groups[g].last = i + len - 1 < n_old_items ? i + len - 1 : n_old_items - 1;
		random_text(r->sums[g], sizeof r->sums[g], x);
		r->groups[g].summary = next(x) % 11 ? r->sums[g] : NULL;
		i = r->groups[g].last + 1;
	}
	size_t n_rules = next(x) % 4;
	for (size_t k = 0; k < n_rules; k++) {
		random_text(r->rule_text[k], sizeof r->rule_text[k], x);
		r->rule_v[k] = next(x) % 7 ? r->rule_text[k] : NULL;
	}
	r->rules.items = r->rule_v;
	r->rules.n = n_rules;
	r->req.level = r->items[0].level;
	r->req.items = r->items;
	r->req.n_items = n;
	r->req.old_groups = r->groups;
	r->req.n_old = g;
	r->req.n_new = n_new;
	r->req.rules = next(x) % 3 ? &r->rules : NULL;
	r->req.now = t;
}

static void test_group_tokens_by_pieces_equal_the_rendered_prompt(void **state)
{
	(void)state;
	uint32_t x = 777;
	static rand_req r;
	size_t asked = 0;
	pr_pieces pc = { &asked, counted_text, counted_range, counted_rules };
	int dropped = 0;
	for (int round = 0; round < 1500; round++) {
		random_req(&r, &x);
		uint64_t budget = next(&x) % 3 ? 0 : 60 + next(&x) % 3000;
		pr_prompt p;
		assert_int_equal(pr_group(&p, &r.req, budget, NULL), H2EMV_OK);
		uint64_t want = tok_prompt(&p), a = 0, b = 0;
		char *f = flat(&p);
		dropped += strstr(f, "older item") != NULL;
		free(f);
		pr_prompt_free(&p);
		assert_int_equal(pr_group_tokens(&a, &r.req, budget, NULL, NULL), H2EMV_OK);
		assert_int_equal(pr_group_tokens(&b, &r.req, budget, &pc, NULL), H2EMV_OK);
		assert_int_equal(a, want);
		assert_int_equal(b, want);
	}
	assert_true(dropped > 50); /* the budget's search was exercised */
	assert_true(asked > 0);
	/* the same refusal as pr_group */
	r.groups[0].last = r.req.n_items + 5;
	r.req.n_old = 1;
	uint64_t t = 1;
	assert_int_equal(pr_group_tokens(&t, &r.req, 0, NULL, NULL), H2EMV_EINVAL);
	assert_int_equal(pr_group_tokens(&t, NULL, 0, NULL, NULL), H2EMV_EINVAL);
}

static void test_summary_tokens_by_pieces_equal_the_rendered_prompt(void **state)
{
	(void)state;
	uint32_t x = 31337;
	static rand_req r;
	size_t asked = 0;
	pr_pieces pc = { &asked, counted_text, counted_range, counted_rules };
	for (int round = 0; round < 1500; round++) {
		random_req(&r, &x);
		int level = 3 + (int)(next(&x) % 4);
		const pol_rules *rules = r.req.rules;
		pr_prompt p;
		assert_int_equal(pr_summarize(&p, r.items, r.req.n_items, level, rules, NULL), H2EMV_OK);
		uint64_t want = tok_prompt(&p), a = 0, b = 0;
		pr_prompt_free(&p);
		assert_int_equal(
			pr_summarize_tokens(&a, r.items, r.req.n_items, level, rules, NULL, NULL), H2EMV_OK);
		assert_int_equal(
			pr_summarize_tokens(&b, r.items, r.req.n_items, level, rules, &pc, NULL), H2EMV_OK);
		assert_int_equal(a, want);
		assert_int_equal(b, want);
	}
	uint64_t t;
	assert_int_equal(pr_summarize_tokens(&t, NULL, 2, 3, NULL, NULL, NULL), H2EMV_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_range_prints_seconds_minutes_or_dates),
		cmocka_unit_test(test_time_point_is_utc_and_handles_before_epoch),
		cmocka_unit_test(test_token_estimate_is_pinned_on_fixed_strings),
		cmocka_unit_test(test_prompt_tokens_add_message_and_reply_overheads),
		cmocka_unit_test(test_trim_keeps_whole_lines_within_the_limits),
		cmocka_unit_test(test_trim_never_cuts_mid_word_on_random_texts),
		cmocka_unit_test(test_group_prompt_numbers_items_newest_zero),
		cmocka_unit_test(test_group_prompt_has_rules_only_when_given),
		cmocka_unit_test(test_group_prompt_trims_old_items_and_shows_current_in_full),
		cmocka_unit_test(test_group_prompt_budget_drops_whole_oldest_items_first),
		cmocka_unit_test(test_group_prompt_refuses_a_broken_partition),
		cmocka_unit_test(test_summary_prompt_asks_for_timing_only_above_goals),
		cmocka_unit_test(test_relevance_prompt_shows_rules_item_parent_and_now),
		cmocka_unit_test(test_learn_prompt_numbers_rules_and_quotes_feedback),
		cmocka_unit_test(test_route_prompt_names_three_routes),
		cmocka_unit_test(test_qa_prompt_renders_view_and_orders_answer_on_last_round),
		cmocka_unit_test(test_range_keys_and_json_escaping),
		cmocka_unit_test(test_token_estimate_is_additive_at_clean_splits),
		cmocka_unit_test(test_group_tokens_by_pieces_equal_the_rendered_prompt),
		cmocka_unit_test(test_summary_tokens_by_pieces_equal_the_rendered_prompt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
