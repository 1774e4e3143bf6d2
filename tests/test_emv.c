/*
 * test_emv.c — the EMV loop: h2emv_ask with a policy that explores the tree
 * one step at a time (the llm policy's way; here scripted policies), on
 * trees built directly through the engine in the text grammar of
 * docs/tree.md: search, placeholders, answers from an older snapshot, the
 * round and token budgets, loop detection, the trace, damaged trees and a
 * tree of 10,000 goals. And the builtin policy on such a tree, which holds
 * no typed facts and no scenes to derive them from: nothing found (the
 * text explorer that once read it is gone; test_upgrade.c has trees built
 * before typed facts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "api/explore/emv.h"
#include "api/mem/mem.h"
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* ------------------------------------------------------- tree building -- */

/* "2024-09-23 10:03:55" (UTC) in µs. */
static int64_t T(const char *s)
{
	struct tm tm = { 0 };
	int n = sscanf(s, "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
	               &tm.tm_min, &tm.tm_sec);
	assert_true(n >= 3);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm) * 1000000;
}

/* Nodes of one commit; ids continue across commits. */
typedef struct tb {
	eng_node **nodes;
	size_t n, cap;
	uint64_t next_id;
} tb;

static eng_node *mk(tb *t, int level, int kind, int64_t t0, int64_t t1, const char *text)
{
	eng_node *e = calloc(1, sizeof *e);
	assert_non_null(e);
	e->id = t->next_id++;
	e->version = 1;
	e->level = (uint8_t)level;
	e->kind = (uint8_t)kind;
	e->t_start = t0;
	e->t_end = t1;
	e->expiry = H2EMV_TIME_NEVER;
	e->summary = strdup(text);
	assert_non_null(e->summary);
	e->summary_len = strlen(text);
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->nodes = realloc(t->nodes, t->cap * sizeof *t->nodes);
		assert_non_null(t->nodes);
	}
	t->nodes[t->n++] = e;
	return e;
}

static void adopt(eng_node *p, const eng_node *c)
{
	p->children = realloc(p->children, (p->n_children + 1) * sizeof *p->children);
	assert_non_null(p->children);
	p->children[p->n_children++] = (eng_ref){ c->id, c->version };
}

/* A parent spanning its children. */
static eng_node *group(tb *t, int level, int kind, const char *text, eng_node **kids, size_t n)
{
	eng_node *p = mk(t, level, kind, kids[0]->t_start, kids[n - 1]->t_end, text);
	for (size_t i = 0; i < n; i++)
		adopt(p, kids[i]);
	return p;
}

static uint64_t commit(tb *t, h2emv_mem *mem, const eng_node *root, int64_t t_now)
{
	uint64_t l3 = 0;
	for (size_t i = 0; i < t->n; i++)
		l3 += t->nodes[i]->level >= 3;
	eng_commit c = { 0 };
	c.nodes = t->nodes;
	c.n_nodes = t->n;
	c.root = (eng_ref){ root->id, root->version };
	c.t_now = t_now;
	c.n_nodes_tree = l3;
	c.next_node_id = t->next_id;
	uint64_t seq = 0;
	h2emv_error e = { 0 };
	int rc = eng_commit_snapshot(&seq, mem->env, &c, &e);
	if (rc)
		fail_msg("commit: %d %s", rc, e.message);
	for (size_t i = 0; i < t->n; i++) {
		free(t->nodes[i]->summary);
		free(t->nodes[i]->children);
		free(t->nodes[i]);
	}
	t->n = 0;
	return seq;
}

static void tb_free(tb *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->nodes[i]->summary);
		free(t->nodes[i]->children);
		free(t->nodes[i]);
	}
	free(t->nodes);
}

#define EV(t, a, b, text) mk(t, 2, H2EMV_KIND_EVENT, T(a), T(b), text)

/* Monday 2024-09-23: the knife goes to the countertop (Alice asked), then
 * the cup to the sink (Bob was there). Returns the day summary. With
 * `forget_knife` the knife goal is a placeholder. */
static eng_node *day23(tb *t, int forget_knife, uint64_t *knife_goal)
{
	eng_node *e[3], *g[2], *s[2];
	e[0] = EV(t, "2024-09-23 10:03:40", "2024-09-23 10:03:55",
	          "Action: none\nLocation: kitchen\nPersons: Alice\n"
	          "Speech: Alice: \"Please put the knife away.\"\n"
	          "Objects: knife_0 (knife, clean), cup_1 (cup, dirty)\nRelations: knife_0 on table_0");
	e[1] = EV(t, "2024-09-23 10:03:55", "2024-09-23 10:04:20",
	          "Action: Pickup(object=knife_0) succeeded\nLocation: kitchen\nPersons: Alice\n"
	          "Objects: knife_0 (knife, clean), cup_1 (cup, dirty)\n"
	          "Relations: knife_0 in robot_hand");
	e[2] = EV(t, "2024-09-23 10:04:20", "2024-09-23 10:05:00",
	          "Action: Place(object=knife_0, target=countertop_0) succeeded\nLocation: kitchen\n"
	          "Objects: knife_0 (knife, clean), cup_1 (cup, dirty), countertop_0 (countertop)\n"
	          "Relations: knife_0 on countertop_0");
	const char *goal_a =
		"Goal: MakeBreakfast.Transport\n"
		"Actions: none; Pickup(object=knife_0) succeeded; "
		"Place(object=knife_0, target=countertop_0) succeeded\n"
		"Location: kitchen\nPersons: Alice\n"
		"Speech: 10:03:40 Alice: \"Please put the knife away.\"\n"
		"Objects: knife_0 (knife, clean), cup_1 (cup, dirty), countertop_0 (countertop)\n"
		"Relations: knife_0 on countertop_0";
	if (forget_knife) {
		t->n -= 3; /* the placeholder dropped its children */
		for (int i = 0; i < 3; i++) {
			free(e[i]->summary);
			free(e[i]);
		}
		g[0] = mk(t, 3, H2EMV_KIND_FORGOTTEN, T("2024-09-23 10:03:40"),
		          T("2024-09-23 10:05:00"), "Goal: MakeBreakfast.Transport");
	} else {
		g[0] = group(t, 3, H2EMV_KIND_GOAL, goal_a, e, 3);
	}
	if (knife_goal)
		*knife_goal = g[0]->id;
	s[0] = group(t, 4, H2EMV_KIND_SUMMARY,
	             "I did MakeBreakfast.Transport (knife_0 to countertop_0); met Alice; "
	             "heard 1 utterances.",
	             g, 1);
	eng_node *f[2];
	f[0] = EV(t, "2024-09-23 10:10:00", "2024-09-23 10:11:00",
	          "Action: Pickup(object=cup_1) succeeded\nLocation: kitchen\nPersons: Bob\n"
	          "Objects: cup_1 (cup, dirty), sink_0 (sink)\nRelations: cup_1 in robot_hand");
	f[1] = EV(t, "2024-09-23 10:11:00", "2024-09-23 10:12:00",
	          "Action: Place(object=cup_1, target=sink_0) succeeded\nLocation: kitchen\n"
	          "Persons: Bob\nObjects: cup_1 (cup, dirty), sink_0 (sink), plant_0 (plant, "
	          "isFilled=true)\nRelations: cup_1 in sink_0");
	g[1] = group(t, 3, H2EMV_KIND_GOAL,
	             "Goal: Tidy.Move\nActions: Pickup(object=cup_1) succeeded; "
	             "Place(object=cup_1, target=sink_0) succeeded\nLocation: kitchen\n"
	             "Persons: Bob\nObjects: cup_1 (cup, dirty), sink_0 (sink), plant_0 (plant, "
	             "isFilled=true)\nRelations: cup_1 in sink_0",
	             f, 2);
	s[1] = group(t, 4, H2EMV_KIND_SUMMARY,
	             "I did Tidy.Move (cup_1 to sink_0); saw plant_0; met Bob.", &g[1], 1);
	return group(t, 5, H2EMV_KIND_SUMMARY,
	             "I did MakeBreakfast.Transport (knife_0 to countertop_0), Tidy.Move (cup_1 "
	             "to sink_0); was in the kitchen; met Alice, Bob; heard 1 utterances.",
	             s, 2);
}

/* Wednesday 2024-09-25: the knife goes into the drawer at 09:12:03. */
static eng_node *day25(tb *t)
{
	eng_node *e[2];
	e[0] = EV(t, "2024-09-25 09:12:03", "2024-09-25 09:13:00",
	          "Action: Pickup(object=knife_0) succeeded\nLocation: kitchen\n"
	          "Objects: knife_0 (knife, clean), drawer_1 (drawer, isOpen=true)\n"
	          "Relations: knife_0 in robot_hand");
	e[1] = EV(t, "2024-09-25 09:13:00", "2024-09-25 09:14:00",
	          "Action: Place(object=knife_0, target=drawer_1) succeeded\nLocation: kitchen\n"
	          "Objects: knife_0 (knife, clean), drawer_1 (drawer, isOpen=true)\n"
	          "Relations: knife_0 in drawer_1");
	eng_node *g = group(t, 3, H2EMV_KIND_GOAL,
	                    "Goal: Tidy.Transport\nActions: Pickup(object=knife_0) succeeded; "
	                    "Place(object=knife_0, target=drawer_1) succeeded\nLocation: kitchen\n"
	                    "Objects: knife_0 (knife, clean), drawer_1 (drawer, isOpen=true)\n"
	                    "Relations: knife_0 in drawer_1",
	                    e, 2);
	eng_node *s = group(t, 4, H2EMV_KIND_SUMMARY,
	                    "I did Tidy.Transport (knife_0 to drawer_1).", &g, 1);
	return group(t, 5, H2EMV_KIND_SUMMARY,
	             "I did Tidy.Transport (knife_0 to drawer_1); was in the kitchen.", &s, 1);
}

/* ------------------------------------------------------------ fixtures -- */

typedef struct fx {
	char *dir;
	h2emv_mem *mem;
	tb t;
	uint64_t knife_goal;
} fx;

static int fx_setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!(f->mem = tu_mem_tmp("emv", &f->dir)))
		return -1;
	f->t.next_id = 1;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	fx *f = *state;
	tb_free(&f->t);
	h2emv_mem_close(f->mem);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* One day (the 23rd) committed. */
static uint64_t commit_day23(fx *f, int forget_knife)
{
	eng_node *d = day23(&f->t, forget_knife, &f->knife_goal);
	eng_node *root = group(&f->t, 6, H2EMV_KIND_ROOT, "My history.", &d, 1);
	return commit(&f->t, f->mem, root, T("2024-09-23 18:00:00"));
}

/* Both days committed (new node ids). */
static uint64_t commit_two_days(fx *f)
{
	eng_node *d[2];
	d[0] = day23(&f->t, 0, &f->knife_goal);
	d[1] = day25(&f->t);
	eng_node *root = group(&f->t, 6, H2EMV_KIND_ROOT, "My history.", d, 2);
	return commit(&f->t, f->mem, root, T("2024-09-25 18:00:00"));
}

static h2emv_answer *ask_opts(fx *f, const char *q, const h2emv_ask_options *o)
{
	h2emv_answer *a = NULL;
	h2emv_error e = { 0 };
	int rc = h2emv_ask(&a, f->mem, q, o, &e);
	if (rc)
		fail_msg("ask '%s': %d %s", q, rc, e.message);
	assert_non_null(a);
	assert_non_null(a->text);
	return a;
}

static h2emv_answer *ask(fx *f, const char *q)
{
	return ask_opts(f, q, NULL);
}

static int has_evidence(const h2emv_answer *a, uint64_t id)
{
	for (size_t i = 0; i < a->n_evidence; i++)
		if (a->evidence[i].id == id)
			return 1;
	return 0;
}

/* ----------------------------------------------------------------- words -- */

static int mentions(const char *text, const char *query)
{
	emv_term t[8];
	size_t k = emv_terms(t, 8, query, strlen(query));
	return emv_mentions(text, strlen(text), t, k);
}

static void test_entity_words_match_ids_plurals_and_compounds(void **state)
{
	(void)state;
	assert_true(mentions("Objects: knife_0 (knife, clean)", "knives"));
	assert_true(mentions("Pickup(object=knife_0)", "the knife"));
	assert_true(mentions("Pickup(object=knife_0)", "knife_0"));
	assert_false(mentions("Pickup(object=knife_1)", "knife_0"));
	assert_true(mentions("Objects: keys_2 (keys)", "key"));
	assert_true(mentions("CoffeeMachine_0 (CoffeeMachine)", "coffee machine"));
	assert_true(mentions("on coffee_machine_1", "coffee machine"));
	assert_true(mentions("Place(Mug_0, CounterTop_1)", "countertop"));
	assert_true(mentions("knife_0 on counter_top_0", "countertop"));
	assert_true(mentions("I was loading the dishwasher.", "loaded dishwasher"));
	assert_true(mentions("I carried the boxes.", "carry box"));
	assert_false(mentions("Objects: cupboard_0 (cupboard)", "cup"));
	assert_false(mentions("the red mug", "blue mug"));
	assert_true(mentions("anything", ""));
}

/* ------------------------------------------------- policies under test -- */

typedef int (*step_fn)(void *, const pol_qa_view *, pol_qa_action *, pol_usage *,
                       h2emv_error *);

/* A scripted agent: the first round searches for `query`, the next answers
 * with the newest visible goal that mentions it ("goal ID at T", T its
 * start in µs, the goal as evidence), or "I have forgotten that." when
 * only placeholders were opened, or nothing. */
typedef struct seeker {
	const char *query;
	int searches;          /* rounds that search before answering */
} seeker;

static int seek_answer(const seeker *s, const pol_qa_view *v, pol_qa_action *out)
{
	const pol_item *best = NULL;
	int forgotten = 0;
	for (size_t i = 0; i < v->n; i++) {
		const pol_item *it = &v->nodes[i];
		forgotten |= it->forgotten;
		if (it->level == 3 && !it->forgotten && mentions(it->text, s->query) &&
		    (!best || it->t_start > best->t_start))
			best = it;
	}
	out->kind = POL_QA_ANSWER;
	char text[96] = "";
	if (best) {
		snprintf(text, sizeof text, "goal %llu at %lld", (unsigned long long)best->id,
		         (long long)best->t_start);
		if (!(out->ids = malloc(sizeof *out->ids)))
			return H2EMV_ENOMEM;
		out->ids[out->n_ids++] = best->id;
	} else if (forgotten) {
		snprintf(text, sizeof text, "I have forgotten that.");
		out->forgotten = 1;
	}
	return (out->text = strdup(text)) ? H2EMV_OK : H2EMV_ENOMEM;
}

static int seek_step(void *ctx, const pol_qa_view *v, pol_qa_action *out, pol_usage *u,
                     h2emv_error *err)
{
	(void)err;
	const seeker *s = ctx;
	memset(out, 0, sizeof *out);
	u->prompt_tokens += 10;
	u->calls++;
	if (v->round < s->searches && v->round + 1 < v->max_rounds) {
		out->kind = POL_QA_SEARCH;
		return (out->text = strdup(s->query)) ? H2EMV_OK : H2EMV_ENOMEM;
	}
	return seek_answer(s, v, out);
}

/* A qa step that expands every visible node it can, forever. */
static int always_expand(void *ctx, const pol_qa_view *v, pol_qa_action *out, pol_usage *u,
                         h2emv_error *err)
{
	(void)ctx;
	(void)err;
	memset(out, 0, sizeof *out);
	out->kind = POL_QA_EXPAND;
	out->ids = malloc((v->n ? v->n : 1) * sizeof *out->ids);
	for (size_t i = 0; out->ids && i < v->n; i++)
		out->ids[out->n_ids++] = v->nodes[i].id;
	u->prompt_tokens += 10;
	u->calls++;
	return out->ids ? H2EMV_OK : H2EMV_ENOMEM;
}

/* A qa step that expands a node that does not exist, forever. */
static int expand_nothing(void *ctx, const pol_qa_view *v, pol_qa_action *out, pol_usage *u,
                          h2emv_error *err)
{
	(void)ctx;
	(void)v;
	(void)err;
	memset(out, 0, sizeof *out);
	out->kind = POL_QA_EXPAND;
	out->ids = malloc(sizeof *out->ids);
	if (!out->ids)
		return H2EMV_ENOMEM;
	out->ids[out->n_ids++] = 999999;
	u->calls++;
	return H2EMV_OK;
}

/* Ask `q` with a policy whose qa_step is `step` (and ctx), `max_rounds`
 * rounds; returns h2emv_ask's status. */
static int ask_with(fx *f, step_fn step, void *ctx, unsigned max_rounds, const char *q,
                    const h2emv_ask_options *opts, h2emv_answer **out, h2emv_error *e)
{
	h2emv_policy test = *f->mem->policy, *saved = f->mem->policy;
	test.name = "test";
	test.qa_step = step;
	test.ctx = ctx;
	f->mem->policy = &test;
	unsigned saved_rounds = f->mem->cfg.qa_max_rounds;
	f->mem->cfg.qa_max_rounds = max_rounds;
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	o.trace = 1;
	if (opts)
		o = *opts;
	int rc = h2emv_ask(out, f->mem, q, &o, e);
	f->mem->policy = saved;
	f->mem->cfg.qa_max_rounds = saved_rounds;
	return rc;
}

static h2emv_answer *with_policy(fx *f, step_fn step, void *ctx, unsigned max_rounds,
                                 const char *q)
{
	h2emv_answer *a = NULL;
	h2emv_error e = { 0 };
	int rc = ask_with(f, step, ctx, max_rounds, q, NULL, &a, &e);
	if (rc)
		fail_msg("ask '%s': %d %s", q, rc, e.message);
	assert_non_null(a);
	assert_non_null(a->text);
	return a;
}

static h2emv_answer *seek(fx *f, const char *query, const h2emv_ask_options *opts)
{
	seeker s = { query, 1 };
	h2emv_answer *a = NULL;
	h2emv_error e = { 0 };
	int rc = ask_with(f, seek_step, &s, 10, query, opts, &a, &e);
	if (rc)
		fail_msg("seek '%s': %d %s", query, rc, e.message);
	return a;
}

static void assert_goal_at(const h2emv_answer *a, uint64_t id, int64_t t)
{
	char want[96];
	snprintf(want, sizeof want, "goal %llu at %lld", (unsigned long long)id, (long long)t);
	if (strcmp(a->text, want))
		fail_msg("'%s', wanted '%s'\ntrace:\n%s", a->text, want, a->trace ? a->trace : "");
	assert_true(has_evidence(a, id));
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* --------------------------------------------------------------- tests -- */

static void test_a_search_opens_the_way_to_the_matching_goal(void **state)
{
	fx *f = *state;
	commit_day23(f, 0);
	h2emv_answer *a = seek(f, "knife", NULL);
	assert_goal_at(a, f->knife_goal, T("2024-09-23 10:03:40"));
	assert_int_equal(a->rounds, 2);
	assert_int_equal(a->forgotten, 0);
	assert_true(a->tokens.prompt == 20 && a->tokens.calls == a->rounds);
	assert_non_null(strstr(a->trace, "round 1: search \"knife\" -> "));
	h2emv_answer_free(a);
	a = seek(f, "giraffe", NULL);
	assert_string_equal(a->text, "I could not find that in my memory.");
	assert_int_equal(a->n_evidence, 0);
	h2emv_answer_free(a);
}

static void test_a_search_that_finds_only_a_placeholder_opens_it(void **state)
{
	fx *f = *state;
	commit_day23(f, 1);
	h2emv_answer *a = seek(f, "spoon", NULL);
	if (strcmp(a->text, "I have forgotten that."))
		fail_msg("'%s'\n%s", a->text, a->trace);
	assert_int_equal(a->forgotten, 1);
	assert_non_null(strstr(a->trace, "opened the forgotten parts instead"));
	/* the placeholder's kept line is hidden from question answering */
	assert_null(strstr(a->trace, "MakeBreakfast"));
	h2emv_answer_free(a);
	/* what was not forgotten is still found */
	a = seek(f, "cup", NULL);
	assert_non_null(strstr(a->text, "goal "));
	h2emv_answer_free(a);
}

static void test_older_snapshot_does_not_see_newer_nodes(void **state)
{
	fx *f = *state;
	uint64_t s1 = commit_day23(f, 0);
	uint64_t day23_goal = f->knife_goal;
	uint64_t s2 = commit_two_days(f);
	assert_true(s2 > s1);
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	o.at = T("2024-09-24 12:00:00");
	h2emv_answer *a = seek(f, "knife", &o);
	assert_goal_at(a, day23_goal, T("2024-09-23 10:03:40"));
	assert_int_equal(a->snapshot, s1);
	h2emv_answer_free(a);
	o.at = 0;
	o.snapshot = s1;
	a = seek(f, "knife", &o);
	assert_int_equal(a->snapshot, s1);
	h2emv_answer_free(a);
	a = seek(f, "knife", NULL);
	assert_true(strstr(a->text, "at 1727255523000000") != NULL); /* 2024-09-25 09:12:03 */
	assert_int_equal(a->snapshot, s2);
	h2emv_answer_free(a);
	/* nothing is as old as the 22nd */
	o.snapshot = 0;
	o.at = T("2024-09-22 00:00:00");
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_ask(&a, f->mem, "Where is the knife?", &o, &e), H2EMV_ENOTFOUND);
	/* both at once is a caller's mistake */
	o.snapshot = s1;
	assert_int_equal(h2emv_ask(&a, f->mem, "Where is the knife?", &o, &e), H2EMV_EINVAL);
}

static void test_nothing_built_is_not_found(void **state)
{
	fx *f = *state;
	h2emv_answer *a = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_ask(&a, f->mem, "Where is the knife?", NULL, &e), H2EMV_ENOTFOUND);
	assert_null(a);
}

/* The builtin policy answers from typed facts only: a tree written as text
 * alone holds none and no scenes to derive them from (no upgrade helps),
 * so it finds nothing, in one round. */
static void test_builtin_finds_nothing_in_a_tree_of_text_alone(void **state)
{
	fx *f = *state;
	commit_two_days(f);
	h2emv_answer *a = ask(f, "Where did you put the knife?");
	assert_string_equal(a->text, "I could not find that in my memory.");
	assert_int_equal(a->rounds, 1);
	assert_int_equal(a->n_evidence, 0);
	h2emv_answer_free(a);
	h2emv_upgrade_result r;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_upgrade(&r, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(r.snapshot, 0);
}

static void test_round_budget_stops_a_policy_that_always_expands(void **state)
{
	fx *f = *state;
	commit_two_days(f);
	h2emv_answer *a = with_policy(f, always_expand, NULL, 3, "Where did you put the knife?");
	assert_int_equal(a->rounds, 3);
	assert_string_equal(a->text, "I could not find that in my memory.");
	assert_int_equal(a->tokens.calls, 3);
	assert_int_equal(a->tokens.prompt, 30);
	assert_int_equal(count_lines(a->trace), 3);
	assert_non_null(strstr(a->trace, "round 1: expand "));
	assert_non_null(strstr(a->trace, "budget used up"));
	h2emv_answer_free(a);
}

static void test_loop_detection_changes_strategy_then_answers(void **state)
{
	fx *f = *state;
	commit_two_days(f);
	h2emv_answer *a = with_policy(f, expand_nothing, NULL, 10, "Where did you put the knife?");
	/* 1 hint, 2 everything opened instead, 3 loop: round 4 must answer */
	assert_int_equal(a->rounds, 4);
	assert_non_null(strstr(a->trace, "round 1: expand 999999 -> nothing changed; try"));
	assert_non_null(strstr(a->trace, "opened every closed node instead"));
	assert_non_null(strstr(a->trace, "loop detected"));
	assert_non_null(strstr(a->trace, "round 4: "));
	h2emv_answer_free(a);
}

static void test_token_budget_makes_the_next_round_the_last(void **state)
{
	fx *f = *state;
	commit_two_days(f);
	f->mem->cfg.qa_max_tokens = 1;
	seeker s = { "knife", 5 };
	h2emv_answer *a = with_policy(f, seek_step, &s, 10, "knife");
	f->mem->cfg.qa_max_tokens = 20000;
	assert_int_equal(a->rounds, 2);
	assert_non_null(strstr(a->trace, "token budget reached"));
	assert_non_null(strstr(a->text, "goal "));
	h2emv_answer_free(a);
}

static void test_trace_has_one_line_per_round(void **state)
{
	fx *f = *state;
	commit_two_days(f);
	seeker s = { "knife", 2 };
	h2emv_answer *a = with_policy(f, seek_step, &s, 10, "knife");
	assert_int_equal(a->rounds, 3);
	assert_int_equal(count_lines(a->trace), a->rounds);
	assert_true(!strncmp(a->trace, "round 1: ", 9));
	assert_non_null(strstr(a->trace, "nodes visible"));
	assert_non_null(strstr(a->trace, "answer \"goal "));
	h2emv_answer_free(a);
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	a = seek(f, "knife", &o);
	assert_null(a->trace);
	h2emv_answer_free(a);
}

/* ----------------------------------------------------- damaged trees -- */

static void test_damaged_trees_are_survived(void **state)
{
	fx *f = *state;
	tb *t = &f->t;
	/* a summary that lists itself as its child, and text in no grammar */
	eng_node *loop = mk(t, 4, H2EMV_KIND_SUMMARY, 5, 1, "knife knife knife");
	adopt(loop, loop);
	eng_node *odd = mk(t, 0, H2EMV_KIND_EVENT, -5, -7, "Actions: ((( ; ; Place(=, ) Goal: \"\nObjects: (");
	eng_node *kids[2] = { loop, odd };
	eng_node *root = group(t, 6, H2EMV_KIND_ROOT, "", kids, 2);
	commit(t, f->mem, root, 10);
	static const char *const qs[] = {
		"Where did you put the knife?", "When did you first see the knife?", "Who said it?",
		"What objects did you see?", "", "?", "what did ( say", "When on 2024/13/45?",
		"What did you do yesterday?",
	};
	for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		h2emv_answer *a = ask(f, qs[i]); /* the builtin policy */
		assert_true(a->rounds <= 10);
		h2emv_answer_free(a);
		seeker s = { qs[i], 3 };
		a = with_policy(f, seek_step, &s, 10, qs[i]);
		assert_true(a->rounds <= 10);
		h2emv_answer_free(a);
		a = with_policy(f, always_expand, NULL, 10, qs[i]);
		assert_true(a->rounds <= 10);
		h2emv_answer_free(a);
	}
	/* a child that is not in the store: a corrupt tree, reported */
	eng_node *dangling = mk(t, 4, H2EMV_KIND_SUMMARY, 1, 2, "the knife");
	dangling->children = malloc(sizeof *dangling->children);
	dangling->children[0] = (eng_ref){ 424242, 1 };
	dangling->n_children = 1;
	root = group(t, 6, H2EMV_KIND_ROOT, "", &dangling, 1);
	commit(t, f->mem, root, 10);
	h2emv_answer *a = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(ask_with(f, always_expand, NULL, 10, "Where did you put the knife?", NULL,
	                          &a, &e),
	                 H2EMV_ECORRUPT);
	assert_null(a);
}

/* ------------------------------------------------- 10,000 nodes of L3+ -- */

static const char *const things[] = { "cup", "plate", "bowl", "sponge", "apple", "mug",
	"spoon", "pan", "bread", "towel" };
static const char *const places[] = { "sink", "table", "shelf", "cabinet", "fridge" };

/* 10 days x 10 parts x 10 hours x 10 goals (10,000 goals) under summaries
 * (1,110) that name their children's objects; the knife moves twice: on
 * day 1 to the shelf, on day 8 to the sink. One search finds both. */
static void test_ten_thousand_goals_are_searched(void **state)
{
	fx *f = *state;
	tb *t = &f->t;
	int64_t base = T("2024-03-01 08:00:00");
	eng_node *days[10];
	char text[512];
	for (int d = 0; d < 10; d++) {
		eng_node *parts[10];
		for (int p = 0; p < 10; p++) {
			eng_node *hours[10];
			for (int h = 0; h < 10; h++) {
				eng_node *goals[10];
				text[0] = 0;
				size_t tl = 0;
				for (int g = 0; g < 10; g++) {
					int k = d * 1000 + p * 100 + h * 10 + g;
					int64_t t0 = base + (int64_t)d * 86400000000ll + (int64_t)p * 3600000000ll +
					             (int64_t)h * 360000000ll + (int64_t)g * 30000000ll;
					const char *obj = things[k % 10], *to = places[k % 5];
					if (k == 1234)
						obj = "knife", to = "shelf";
					if (k == 8765)
						obj = "knife", to = "sink";
					char goal[400];
					snprintf(goal, sizeof goal,
					         "Goal: Tidy.Move\nActions: Pickup(object=%s_%d) succeeded; "
					         "Place(object=%s_%d, target=%s_0) succeeded\nLocation: kitchen\n"
					         "Objects: %s_%d (%s)\nRelations: %s_%d on %s_0",
					         obj, k, obj, k, to, obj, k, obj, obj, k, to);
					goals[g] = mk(t, 3, H2EMV_KIND_GOAL, t0, t0 + 20000000, goal);
					tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%s_%d to %s_0",
					                       g ? ", " : "I did Tidy.Move (", obj, k, to);
				}
				snprintf(text + tl, sizeof text - tl, ").");
				hours[h] = group(t, 4, H2EMV_KIND_SUMMARY, text, goals, 10);
			}
			int has_knife = (d == 1 && p == 2) || (d == 8 && p == 7);
			snprintf(text, sizeof text, "I did Tidy.Move (%s); was in the kitchen.",
			         has_knife ? "knife and 99 more" : "cup, plate, bowl and 97 more");
			parts[p] = group(t, 5, H2EMV_KIND_SUMMARY, text, hours, 10);
		}
		snprintf(text, sizeof text, "I did Tidy.Move (%scups and plates and 90 more).",
		         d == 1 || d == 8 ? "knife, " : "");
		days[d] = group(t, 6, H2EMV_KIND_SUMMARY, text, parts, 10);
	}
	eng_node *root = group(t, 7, H2EMV_KIND_ROOT, "Ten days of tidying.", days, 10);
	commit(t, f->mem, root, base + 11 * 86400000000ll);

	h2emv_snap *s;
	h2emv_snap_info info;
	assert_int_equal(h2emv_snap_open(&s, f->mem, 0, NULL), H2EMV_OK);
	h2emv_snap_get_info(&info, s);
	h2emv_snap_close(s);
	assert_true(info.n_nodes >= 10000);

	h2emv_answer *a = seek(f, "knife", NULL);
	int64_t t_last = base + 8 * 86400000000ll + 7 * 3600000000ll + 6 * 360000000ll +
	                 5 * 30000000ll;
	char want[64];
	snprintf(want, sizeof want, " at %lld", (long long)t_last);
	if (!strstr(a->text, want))
		fail_msg("'%s', wanted '%s'\n%s", a->text, want, a->trace);
	assert_int_equal(a->rounds, 2);
	h2emv_answer_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entity_words_match_ids_plurals_and_compounds),
		cmocka_unit_test_setup_teardown(test_a_search_opens_the_way_to_the_matching_goal,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_a_search_that_finds_only_a_placeholder_opens_it,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_older_snapshot_does_not_see_newer_nodes, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_nothing_built_is_not_found, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_builtin_finds_nothing_in_a_tree_of_text_alone,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_round_budget_stops_a_policy_that_always_expands,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_loop_detection_changes_strategy_then_answers,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_token_budget_makes_the_next_round_the_last,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_trace_has_one_line_per_round, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_damaged_trees_are_survived, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_ten_thousand_goals_are_searched, fx_setup,
		                                fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
