/*
 * test_index.c — the term index (docs/index.md): counts are exact whatever
 * the token budget, every snapshot reads its own postings, gc erases a
 * forgotten goal's postings, check verifies the index against the facts,
 * a memory without one gets it at the next build, and a question through
 * it reads the goals its postings name, each once, without the summaries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/base/lex.h"
#include "api/mem/mem.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define H (3600 * US)
#define T0 1767571200ll * US /* 2026-01-05 00:00:00 UTC, a Monday */

typedef struct fx {
	char *dir;
	h2emv_mem *m;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f || !(f->m = tu_mem_tmp("index", &f->dir)))
		return -1;
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

static void build(h2emv_mem *m)
{
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, &o, &err))
		fail_msg("build: %s", err.message);
}

static void set_config(h2emv_mem *m, int forgetting, uint64_t qa_tokens)
{
	h2emv_config c;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	if (forgetting)
		c.forgetting = (h2emv_forgetting)forgetting;
	if (qa_tokens)
		c.qa_max_tokens = qa_tokens;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
}

static char *answer(h2emv_mem *m, const char *q, uint64_t snapshot)
{
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	o.snapshot = snapshot;
	h2emv_answer *a = NULL;
	h2emv_error err = { 0 };
	if (h2emv_ask(&a, m, q, &o, &err))
		fail_msg("ask: %s", err.message);
	char *s = strdup(a->text);
	h2emv_answer_free(a);
	return s;
}

static uint64_t newest(h2emv_mem *m)
{
	h2emv_snap *s;
	h2emv_snap_info info;
	assert_int_equal(h2emv_snap_open(&s, m, 0, NULL), H2EMV_OK);
	h2emv_snap_get_info(&info, s);
	h2emv_snap_close(s);
	return info.seq;
}

static int ready(h2emv_mem *m)
{
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, m->env, NULL), H2EMV_OK);
	int ok = eng_index_ready(r);
	eng_read_end(r);
	return ok;
}

static void days(h2emv_mem *m, int from, int to)
{
	for (int d = from; d < to; d++)
		tu_chores(m, T0, d);
}

/* 60 cup transports: read within a budget of a few goals, the walk of
 * old stopped early and said "At least"; the postings name every goal. */
static void test_count_is_exact_under_any_budget(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	days(f->m, 0, 60);
	build(f->m);
	char *full = answer(f->m, "How many times did you pick up the cup?", 0);
	set_config(f->m, 0, 120);
	char *cut = answer(f->m, "How many times did you pick up the cup?", 0);
	assert_string_equal(cut, full);
	assert_null(strstr(cut, "At least"));
	assert_non_null(strstr(full, "60 times"));
	free(full);
	free(cut);
}

/* "How many times did Bob ask you to tidy up": a second verb, but Bob's
 * words are asked for, so the goals that name him hold every answer and
 * the count is exact under a budget of a few goals. */
static void test_a_named_persons_requests_are_counted_exactly(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	static const char *who[] = { "Bob", "Alice" };
	for (int d = 0; d < 30; d++) {
		tu_chores(f->m, T0, d);
		for (int k = 0; k < 2; k++)
			tu_ingestf(f->m,
			           "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":"
			           "\"succeeded\"},\"persons\":[\"%s\"],\"speech\":{\"speaker\":\"%s\","
			           "\"text\":\"please tidy up\"}}",
			           (long long)(T0 + d * 24 * H + (12 + k) * H), who[(d + k) % 2 ? 1 : 0],
			           who[(d + k) % 2 ? 1 : 0]);
	}
	build(f->m);
	char *full = answer(f->m, "How many times did Bob ask you to tidy up?", 0);
	set_config(f->m, 0, 120);
	char *cut = answer(f->m, "How many times did Bob ask you to tidy up?", 0);
	assert_non_null(strstr(full, "30 times"));
	assert_string_equal(cut, full);
	free(full);
	free(cut);
}

/* "Who did you meet last": no word for the index to look up; the walk of
 * old read from the oldest goal on and, cut by the budget, named someone
 * met weeks before. Now it goes newest first and passes by every node
 * that ended before the newest person found: the same answer under any
 * budget. */
static void test_the_last_person_met_under_any_budget(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	static const char *who[] = { "Bob", "Alice", "Carol" };
	for (int d = 0; d < 30; d++) {
		tu_chores(f->m, T0, d);
		tu_ingestf(f->m,
		           "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":"
		           "\"succeeded\"},\"persons\":[\"%s\"]}",
		           (long long)(T0 + d * 24 * H + 12 * H), d == 29 ? "Zoe" : who[d % 3]);
	}
	build(f->m);
	char *full = answer(f->m, "Who did you meet last?", 0);
	set_config(f->m, 0, 120);
	char *cut = answer(f->m, "Who did you meet last?", 0);
	assert_non_null(strstr(full, "Zoe"));
	assert_string_equal(cut, full);
	free(full);
	free(cut);
}

/* "the keys": a plural noun, whose kinds in WordNet (a latchkey) match it
 * too; the index looks up every kind, so the count is exact under a small
 * budget and takes the latchkeys with the keys. */
static void test_a_category_is_counted_with_its_kinds(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	for (int d = 0; d < 30; d++) {
		tu_chores(f->m, T0, d);
		const char *o = d % 3 ? "keys" : "latchkey";
		tu_ingestf(f->m,
		           "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":"
		           "\"%s_0\"},\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\","
		           "\"type\":\"%s\"}]}",
		           (long long)(T0 + d * 24 * H + 12 * H), o, o, o);
	}
	build(f->m);
	char *full = answer(f->m, "How many times did you pick up the keys?", 0);
	set_config(f->m, 0, 120);
	char *cut = answer(f->m, "How many times did you pick up the keys?", 0);
	assert_non_null(strstr(full, wn_available() ? "30 times" : "20 times"));
	assert_string_equal(cut, full);
	free(full);
	free(cut);
}

static void test_each_snapshot_reads_its_own_postings(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	days(f->m, 0, 10);
	build(f->m);
	uint64_t first = newest(f->m);
	days(f->m, 10, 25);
	build(f->m);
	char *old = answer(f->m, "How many times did you pick up the plate?", first);
	char *now = answer(f->m, "How many times did you pick up the plate?", 0);
	assert_non_null(strstr(old, "10 times"));
	assert_non_null(strstr(now, "25 times"));
	free(old);
	free(now);
}

typedef struct count_ctx {
	uint64_t n;
} count_ctx;

static int count_one(void *ctx, const eng_posting *p, eng_ref ref)
{
	(void)p;
	(void)ref;
	((count_ctx *)ctx)->n++;
	return 0;
}

/* Postings of `word` in the store, every version. */
static uint64_t postings_of(h2emv_mem *m, const char *word)
{
	lex_word w[2];
	assert_int_equal(lex_split(word, strlen(word), w, 2), 1);
	eng_read *r;
	count_ctx c = { 0 };
	assert_int_equal(eng_read_begin(&r, m->env, NULL), H2EMV_OK);
	assert_int_equal(eng_index_scan(r, ridx_term(w[0].stem), INT64_MIN, INT64_MAX, 0, count_one,
	                                &c, NULL),
	                 H2EMV_OK);
	eng_read_end(r);
	return c.n;
}

static void test_gc_erases_a_forgotten_goals_postings(void **state)
{
	fx *f = *state;
	tu_ingestf(f->m,
	           "{\"t\":%lld,\"action\":{\"name\":\"Wipe\",\"args\":{\"object\":\"table_0\"},"
	           "\"status\":\"succeeded\"},\"location\":\"kitchen\",\"note\":\"quokkazebra\"}",
	           (long long)(T0 + 8 * H));
	build(f->m);
	assert_true(postings_of(f->m, "quokkazebra") > 0);
	days(f->m, 0, 30);
	build(f->m);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	h2emv_gc_result r = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_gc(&r, f->m, &o, &err), H2EMV_OK);
	assert_int_equal(postings_of(f->m, "quokkazebra"), 0);
	uint64_t n = 1;
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
}

/* An extractor that forgets every other term: the index no longer says
 * what the facts say. */
static int half_terms(eng_posting **out, size_t *n, const eng_node *node, void *ctx)
{
	int rc = ridx_postings(out, n, node, ctx);
	for (size_t i = 0; rc == H2EMV_OK && i < *n / 2; i++)
		(*out)[i] = (*out)[2 * i];
	if (rc == H2EMV_OK)
		*n /= 2;
	return rc;
}

static void count_rule(void *ctx, const h2emv_violation *v)
{
	if (!strcmp(v->rule, "index-terms"))
		(*(int *)ctx)++;
}

static void test_check_finds_an_index_that_disagrees(void **state)
{
	fx *f = *state;
	days(f->m, 0, 5);
	build(f->m);
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	int bad = 0;
	uint64_t n = 1;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
	eng_index_set_fn(f->m->env, half_terms, NULL);
	co.violation = count_rule;
	co.violation_ctx = &bad;
	assert_int_equal(h2emv_check(&n, f->m, &co, &err), H2EMV_OK);
	assert_true(n > 0);
	assert_true(bad > 0);
	eng_index_set_fn(f->m->env, ridx_postings, NULL);
}

/* A commit without the extractor (an older h2emv, a tool) leaves the
 * index incomplete: answers read the tree, and the next build rebuilds. */
static void test_a_missing_index_is_rebuilt_by_build(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	days(f->m, 0, 8);
	build(f->m);
	assert_true(ready(f->m));
	char *before = answer(f->m, "When did you last pick up the cup?", 0);
	eng_read *r;
	eng_snap s;
	assert_int_equal(eng_read_begin(&r, f->m->env, NULL), H2EMV_OK);
	assert_int_equal(eng_snap_get(&s, r, 0, NULL), H2EMV_OK);
	eng_read_end(r);
	eng_index_set_fn(f->m->env, NULL, NULL);
	eng_commit c = { .root = s.root, .t_now = s.t_now, .build_cursor = s.build_cursor,
		             .rules_version = s.rules_version, .n_nodes_tree = s.n_nodes };
	assert_int_equal(eng_commit_snapshot(NULL, f->m->env, &c, NULL), H2EMV_OK);
	assert_false(ready(f->m));
	char *walked = answer(f->m, "When did you last pick up the cup?", 0);
	assert_string_equal(walked, before);
	eng_index_set_fn(f->m->env, ridx_postings, NULL);
	days(f->m, 8, 9);
	build(f->m);
	assert_true(ready(f->m));
	char *after = answer(f->m, "How many times did you pick up the cup?", 0);
	assert_non_null(strstr(after, "9 times"));
	uint64_t n = 1;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
	free(before);
	free(walked);
	free(after);
}

static void test_salvage_rebuilds_the_index(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	days(f->m, 0, 6);
	build(f->m);
	char *before = answer(f->m, "How many times did you pick up the plate?", 0);
	h2emv_mem_close(f->m);
	f->m = NULL;
	char *dst = tu_fmt("%s/salvaged", f->dir);
	h2emv_salvage_result sr;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_salvage(&sr, f->dir, dst, NULL, NULL, &err), H2EMV_OK);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	assert_int_equal(h2emv_mem_open(&f->m, dst, &o, &err), H2EMV_OK);
	assert_true(ready(f->m));
	char *after = answer(f->m, "How many times did you pick up the plate?", 0);
	assert_string_equal(after, before);
	uint64_t n = 1;
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
	free(before);
	free(after);
	free(dst);
}

/* BM25 over notes: the note that says both words first; a snapshot from
 * before a note does not see it. */
static void test_rank_puts_the_telling_note_first(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	days(f->m, 0, 2);
	tu_ingestf(f->m,
	           "{\"t\":%lld,\"action\":{\"name\":\"Inspect\",\"args\":{\"object\":\"belt_3\"},"
	           "\"status\":\"succeeded\"},\"note\":\"the belt was cleaned\"}",
	           (long long)(T0 + 3 * 24 * H));
	build(f->m);
	uint64_t first = newest(f->m);
	tu_ingestf(f->m,
	           "{\"t\":%lld,\"action\":{\"name\":\"Inspect\",\"args\":{\"object\":\"belt_3\"},"
	           "\"status\":\"failed\"},\"note\":\"belt 3 jammed, a bolt was loose\"}",
	           (long long)(T0 + 4 * 24 * H));
	days(f->m, 5, 6);
	build(f->m);
	rquestion q;
	rq_parse(&q, "Why did the belt jam?", T0 + 10 * 24 * H);
	for (int pass = 0; pass < 2; pass++) {
		h2emv_snap *s;
		assert_int_equal(h2emv_snap_open(&s, f->m, pass ? first : 0, NULL), H2EMV_OK);
		ridx *ix = NULL;
		assert_int_equal(ridx_open(&ix, s), H2EMV_OK);
		assert_non_null(ix);
		ridx_hit *h = NULL;
		size_t n = 0;
		assert_int_equal(ridx_rank(&h, &n, ix, &q, 0, 0, T0 + 10 * 24 * H, 3), H2EMV_OK);
		assert_true(n >= 1);
		/* the jam (day 4) first; before it was written, the cleaning */
		assert_int_equal(h[0].t_first, pass ? T0 + 3 * 24 * H : T0 + 4 * 24 * H);
		free(h);
		ridx_close(ix);
		h2emv_snap_close(s);
	}
}

typedef struct seen_ctx {
	size_t goals, other;
} seen_ctx;

static int seen_goal(void *ctx, const h2emv_node *g, h2emv_error *err)
{
	(void)err;
	seen_ctx *c = ctx;
	if (h2emv_node_kind(g) == H2EMV_KIND_GOAL)
		c->goals++;
	else
		c->other++;
	return 0;
}

/* Through the index, a count reads the goals the postings name that its
 * snapshot sees, and nothing else: the older snapshot fewer. */
static void test_index_walk_reads_the_named_goals_alone(void **state)
{
	fx *f = *state;
	set_config(f->m, H2EMV_FORGET_NONE, 0);
	days(f->m, 0, 30);
	build(f->m);
	uint64_t first = newest(f->m);
	days(f->m, 30, 40);
	build(f->m);
	rquestion q;
	rq_parse(&q, "How many times did you pick up the cup?", T0 + 50 * 24 * H);
	size_t seen[2] = { 0 };
	for (int pass = 0; pass < 2; pass++) {
		h2emv_snap *s;
		assert_int_equal(h2emv_snap_open(&s, f->m, pass ? first : 0, NULL), H2EMV_OK);
		ridx *ix = NULL;
		assert_int_equal(ridx_open(&ix, s), H2EMV_OK);
		assert_int_equal(ridx_prepare(ix, &q, T0 + 50 * 24 * H), H2EMV_OK);
		assert_true(ridx_active(ix));
		seen_ctx c = { 0 };
		assert_int_equal(ridx_each_goal(ix, s, seen_goal, &c, NULL), H2EMV_OK);
		assert_int_equal(c.other, 0);
		seen[pass] = c.goals;
		ridx_close(ix);
		h2emv_snap_close(s);
	}
	/* (the cup's goals of 40 days, then of 30) */
	assert_true(seen[0] > 0);
	assert_int_equal(seen[0] * 3, seen[1] * 4);
}

/* A skill stack's goals hold goals, whose facts their parents hold too:
 * the walk reads the outermost only. Each transport counts once, and the
 * goals the index names are not read alone (they name each other). */
static void test_nested_goals_are_counted_once(void **state)
{
	fx *f = *state;
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, f->m, NULL), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	c.profile = H2EMV_PROFILE_SKILL_STACK;
	assert_int_equal(h2emv_config_set(f->m, &c, NULL), H2EMV_OK);
	for (int i = 0; i < 6; i++) {
		int64_t t = T0 + i * H;
		tu_ingestf(f->m,
		           "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":"
		           "\"cup_0\"},\"status\":\"succeeded\"},\"goal\":\"Tidy.Fetch.Pickup\"}",
		           (long long)t);
		tu_ingestf(f->m,
		           "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":"
		           "\"cup_0\",\"target\":\"sink_0\"},\"status\":\"succeeded\"},"
		           "\"goal\":\"Tidy.Fetch.Place\"}",
		           (long long)(t + 5 * US));
	}
	build(f->m);
	char *a = answer(f->m, "How many times did you pick up the cup?", 0);
	assert_non_null(strstr(a, "6 times"));
	free(a);
	rquestion q;
	rq_parse(&q, "How many times did you pick up the cup?", T0 + 24 * H);
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, f->m, 0, NULL), H2EMV_OK);
	ridx *ix = NULL;
	assert_int_equal(ridx_open(&ix, s), H2EMV_OK);
	assert_int_equal(ridx_prepare(ix, &q, T0 + 24 * H), H2EMV_OK);
	assert_true(ridx_active(ix));
	seen_ctx sc = { 0 };
	assert_int_equal(ridx_each_goal(ix, s, seen_goal, &sc, NULL), 1);
	assert_int_equal(sc.goals + sc.other, 0);
	ridx_close(ix);
	h2emv_snap_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_count_is_exact_under_any_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_each_snapshot_reads_its_own_postings, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_a_named_persons_requests_are_counted_exactly, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_a_category_is_counted_with_its_kinds, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_gc_erases_a_forgotten_goals_postings, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_check_finds_an_index_that_disagrees, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_a_missing_index_is_rebuilt_by_build, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_salvage_rebuilds_the_index, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_puts_the_telling_note_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_walk_reads_the_named_goals_alone, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_nested_goals_are_counted_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_last_person_met_under_any_budget, setup,
		                                teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
