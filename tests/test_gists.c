/*
 * test_gists.c — salient gists (DESIGN §6): a forgotten goal or summary
 * keeps its outcome facts within a byte budget (where carried objects
 * ended, who was met, what failed), and a question a week later is
 * answered from them "from my summaries" instead of "I have forgotten".
 *
 * The history: a serving robot's morning (a goal per task), every
 * lifetime an hour and forgetting by time only, so a week later every
 * node below the root is a placeholder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define H (3600 * US)
#define DAY (24 * H)
#define T0 (1727078400ll * US + 9 * H) /* 2024-09-23 09:00:00 */

typedef struct fx {
	char *dir;
	h2emv_mem *m;
} fx;

static void act(h2emv_mem *m, int64_t t, const char *goal, const char *name, const char *args,
                const char *status, const char *extra)
{
	tu_ingestf(m,
	           "{\"t\":%lld,\"goal\":\"%s\",\"action\":{\"name\":\"%s\",\"args\":{%s},"
	           "\"status\":\"%s\"},\"location\":\"kitchen\"%s}",
	           (long long)t, goal, name, args, status, extra ? extra : "");
}

/* Serve the milk to Ana, fail to grasp the cup twice, shelve many books. */
static void morning(h2emv_mem *m, int books)
{
	int64_t t = T0;
	act(m, t, "ServeMilk", "Grasp", "\"object\":\"milk\",\"from\":\"fridge\"", "succeeded", NULL);
	act(m, t += 20 * US, "ServeMilk", "HandOver", "\"object\":\"milk\",\"to\":\"Ana\"",
	    "succeeded", ",\"persons\":[\"Ana\"]");
	act(m, t += 20 * US, "FetchCup", "Grasp", "\"object\":\"cup\"", "failed", NULL);
	act(m, t += 20 * US, "FetchCup", "Open", "\"object\":\"cupboard\"", "succeeded", NULL);
	act(m, t += 20 * US, "FetchCup", "Grasp", "\"object\":\"cup\"", "failed", NULL);
	for (int i = 0; i < books; i++) {
		char args[96];
		snprintf(args, sizeof args, "\"object\":\"book %d\",\"to\":\"shelf %d\"", i, 100 + i);
		act(m, t += 20 * US, "ShelveBooks", "Place", args, "succeeded", NULL);
	}
	act(m, t + 30 * 60 * US, "Idle", "Idle", "", "running", NULL);
}

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->m = tu_mem_tmp("gists", &f->dir);
	assert_non_null(f->m);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_TIME;
	c.life_scene = c.life_event = c.life_goal = c.life_summary = H;
	assert_int_equal(h2emv_config_set(f->m, &c, NULL), H2EMV_OK);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	h2emv_mem_close(f->m);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void build_and_forget(h2emv_mem *m)
{
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	h2emv_build_result r = { 0 };
	if (h2emv_forget(&r, m, T0 + 7 * DAY, &err))
		fail_msg("forget: %s", err.message);
	assert_true(r.nodes_forgotten > 0);
	uint64_t bad = 1;
	assert_int_equal(h2emv_check(&bad, m, NULL, &err), H2EMV_OK);
	assert_int_equal(bad, 0);
}

static h2emv_answer *ask(h2emv_mem *m, const char *q)
{
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	o.at = T0 + 7 * DAY;
	h2emv_answer *a = NULL;
	h2emv_error err = { 0 };
	if (h2emv_ask(&a, m, q, &o, &err))
		fail_msg("ask '%s': %s", q, err.message);
	return a;
}

/* Every child of the root but the open frontier (the Idle goal still
 * being built) is a placeholder. */
static void assert_all_forgotten(h2emv_mem *m)
{
	h2emv_snap *s;
	const h2emv_node *root, *c;
	assert_int_equal(h2emv_snap_open(&s, m, 0, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	assert_true(h2emv_node_child_count(root) > 0);
	for (size_t i = 0; i + 1 < h2emv_node_child_count(root); i++) {
		assert_int_equal(h2emv_node_child(&c, s, root, i, NULL), H2EMV_OK);
		assert_int_equal(h2emv_node_kind(c), H2EMV_KIND_FORGOTTEN);
	}
	h2emv_snap_close(s);
}

static void test_a_week_later_the_gist_says_where_the_milk_went(void **state)
{
	fx *f = *state;
	morning(f->m, 3);
	build_and_forget(f->m);
	assert_all_forgotten(f->m);
	h2emv_answer *a = ask(f->m, "Who did you give the milk to?");
	if (!strstr(a->text, "Ana") || !strstr(a->text, "From my summaries") || a->forgotten)
		fail_msg("who got the milk: '%s'", a->text);
	h2emv_answer_free(a);
	a = ask(f->m, "Where did you put book 2?");
	if (!strstr(a->text, "shelf 102") || a->forgotten)
		fail_msg("where book 2 went: '%s'", a->text);
	h2emv_answer_free(a);
}

static void test_the_gist_keeps_failures_and_people(void **state)
{
	fx *f = *state;
	morning(f->m, 3);
	build_and_forget(f->m);
	h2emv_answer *a = ask(f->m, "What did you fail to grasp?");
	if (!strstr(a->text, "cup") || a->forgotten)
		fail_msg("what failed: '%s'", a->text);
	h2emv_answer_free(a);
	a = ask(f->m, "Who did you meet?");
	if (!strstr(a->text, "Ana") || a->forgotten)
		fail_msg("who was met: '%s'", a->text);
	h2emv_answer_free(a);
}

/* What was seen, when the gist had room to keep it, is answered from the
 * gist and says so; a question about a sight the gist never held stays
 * unanswered. */
static void test_what_was_seen_is_answered_from_the_gist(void **state)
{
	fx *f = *state;
	tu_ingestf(f->m, "{\"t\":%lld,\"goal\":\"Patrol\",\"action\":{\"name\":\"Look\",\"status\":"
	                 "\"succeeded\"},\"location\":\"hall\",\"objects\":[{\"id\":\"umbrella\","
	                 "\"type\":\"umbrella\"}]}",
	           (long long)T0);
	tu_ingestf(f->m, "{\"t\":%lld,\"goal\":\"Idle\",\"action\":{\"name\":\"Idle\",\"status\":"
	                 "\"running\"}}",
	           (long long)(T0 + H));
	build_and_forget(f->m);
	h2emv_answer *a = ask(f->m, "What did you see in the hall?");
	if (!strstr(a->text, "umbrella") || !strstr(a->text, "From my summaries") || a->forgotten)
		fail_msg("the kept sight: '%s'", a->text);
	h2emv_answer_free(a);
	a = ask(f->m, "Did you see a bicycle in the hall?");
	if (strncmp(a->text, "No", 2))
		fail_msg("a sight never kept: '%s'", a->text);
	h2emv_answer_free(a);
}

/* A note a forgotten goal's gist kept is read when nothing else answers
 * (the term index posts a placeholder's kept line only: evidence reads
 * the placeholders in scope): who asked for what, and a yes that only
 * the note holds. */
static void test_notes_a_gist_kept_answer_questions(void **state)
{
	fx *f = *state;
	/* (the goals go as the builder moves on; the summaries above stay) */
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_TIME;
	c.life_scene = c.life_event = c.life_goal = H;
	c.life_summary = 60 * DAY;
	assert_int_equal(h2emv_config_set(f->m, &c, NULL), H2EMV_OK);
	tu_ingestf(f->m, "{\"t\":%lld,\"location\":\"control room\",\"note\":\"Line B pressure low at "
	                 "3.1 bar; Ravi Menon asked for a reading every hour until it recovers.\"}",
	           (long long)T0);
	tu_ingestf(f->m, "{\"t\":%lld,\"location\":\"compressor room\",\"note\":\"Compressor 1 "
	                 "serviced by Luis: belt replaced, back in service.\"}",
	           (long long)(T0 + 2 * H));
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, f->m, NULL, &err))
		fail_msg("build: %s", err.message);
	tu_ingestf(f->m, "{\"t\":%lld,\"goal\":\"Idle\",\"action\":{\"name\":\"Idle\",\"status\":"
	                 "\"running\"}}",
	           (long long)(T0 + 2 * DAY));
	if (h2emv_build(NULL, f->m, NULL, &err))
		fail_msg("build: %s", err.message);
	uint64_t bad = 1;
	assert_int_equal(h2emv_check(&bad, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(bad, 0);
	h2emv_answer *a = ask(f->m, "Who asked for a reading every hour?");
	if (!strstr(a->text, "Ravi Menon"))
		fail_msg("who asked, from a kept note: '%s'", a->text);
	h2emv_answer_free(a);
	a = ask(f->m, "Is the compressor back in service?");
	if (strncmp(a->text, "Yes", 3))
		fail_msg("a yes from a kept note: '%s'", a->text);
	h2emv_answer_free(a);
}

/* Two hundred shelved books: the placeholders stay within their budget
 * (4 KiB at most, at the highest level) and still hold the failure and
 * the person, which outrank the books. */
static void test_the_gist_stays_within_its_budget(void **state)
{
	fx *f = *state;
	morning(f->m, 200);
	build_and_forget(f->m);
	h2emv_snap *s;
	const h2emv_node *root, *c;
	assert_int_equal(h2emv_snap_open(&s, f->m, 0, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	size_t total = 0;
	for (size_t i = 0; i < h2emv_node_child_count(root); i++) {
		size_t len = 0;
		assert_int_equal(h2emv_node_child(&c, s, root, i, NULL), H2EMV_OK);
		h2emv_node_payload(c, &len);
		assert_true(len <= 4096 + 16);
		total += len;
	}
	assert_true(total > 0);
	h2emv_snap_close(s);
	h2emv_answer *a = ask(f->m, "What did you fail to grasp?");
	if (!strstr(a->text, "cup"))
		fail_msg("the failure was not kept: '%s'", a->text);
	h2emv_answer_free(a);
	a = ask(f->m, "Who did you give the milk to?");
	if (!strstr(a->text, "Ana"))
		fail_msg("the person was not kept: '%s'", a->text);
	h2emv_answer_free(a);
}

/* A count answered from gists is a lower bound and says so. */
static void test_a_count_from_gists_says_at_least(void **state)
{
	fx *f = *state;
	morning(f->m, 3);
	build_and_forget(f->m);
	h2emv_answer *a = ask(f->m, "How many times did you fail to grasp the cup?");
	if (strncmp(a->text, "At least 2", 10) || !strstr(a->text, "forgotten"))
		fail_msg("count from gists: '%s'", a->text);
	h2emv_answer_free(a);
}

/* Does any placeholder below n keep both strings in its gist? */
static int gist_holds(h2emv_snap *s, const h2emv_node *n, const char *a, const char *b)
{
	size_t len = 0;
	const uint8_t *p = h2emv_node_payload(n, &len);
	if (h2emv_node_kind(n) == H2EMV_KIND_FORGOTTEN && p &&
	    memmem(p, len, a, strlen(a)) && memmem(p, len, b, strlen(b)))
		return 1;
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		if (h2emv_node_child(&c, s, n, i, NULL) == H2EMV_OK && gist_holds(s, c, a, b))
			return 1;
	}
	return 0;
}

/* Goals forgotten under a summary that lives on: their placeholders merge,
 * and the merged one keeps both gists. */
static void test_merged_placeholders_keep_both_gists(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("gists-merge", &dir);
	assert_non_null(m);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_TIME;
	c.life_scene = c.life_event = c.life_goal = H;
	c.life_summary = 30 * DAY;
	assert_int_equal(h2emv_config_set(m, &c, NULL), H2EMV_OK);
	morning(m, 3);
	build_and_forget(m);
	h2emv_snap *s;
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_open(&s, m, 0, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	assert_true(gist_holds(s, root, "milk", "shelf 102"));
	h2emv_snap_close(s);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* The summary above the goals says what came of them in a sentence, not
 * a list of skill names. */
static void test_a_summary_says_outcomes_in_a_sentence(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("gists-sentence", &dir);
	assert_non_null(m);
	morning(m, 1);
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	h2emv_snap *s;
	const h2emv_node *root, *top;
	assert_int_equal(h2emv_snap_open(&s, m, 0, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	assert_int_equal(h2emv_node_child(&top, s, root, 0, NULL), H2EMV_OK);
	const char *sum = h2emv_node_summary(top, NULL);
	if (!strstr(sum, "the milk from the fridge") || !strstr(sum, "the milk to Ana") || !strstr(sum, "could not grasp the cup twice") ||
	    strstr(sum, "I did "))
		fail_msg("summary: '%s'", sum);
	h2emv_snap_close(s);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_week_later_the_gist_says_where_the_milk_went,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_gist_keeps_failures_and_people, setup, teardown),
		cmocka_unit_test_setup_teardown(test_what_was_seen_is_answered_from_the_gist, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_gist_stays_within_its_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_count_from_gists_says_at_least, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notes_a_gist_kept_answer_questions, setup, teardown),
		cmocka_unit_test(test_merged_placeholders_keep_both_gists),
		cmocka_unit_test(test_a_summary_says_outcomes_in_a_sentence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
