/*
 * test_policy_builtin.c — the builtin policy's decisions: time-gap grouping
 * (joins close items, splits at a night, leaves untouched groups
 * byte-identical, always returns a partition), extractive summaries that
 * keep what rules mention, relevance from rules matched against a node,
 * rule learning (add, modify, remove, keep the rest), determinism, the
 * token accounting of every call, and the cache: a warm, a tiny (always
 * evicting) and a fresh policy answer byte for byte what the reference
 * (no cache, every call computed afresh) answers, from several threads too.
 */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/policy/builtin/builtin.h"
#include "api/policy/policy.h"
#include "api/policy/prompts.h"

#define SEC 1000000ll
#define MIN (60 * SEC)
#define HOUR (60 * MIN)
#define T0 (1727085600ll * SEC) /* 2024/09/23 10:00:00 UTC */

static const char DEFAULT_RULE[] =
	"Be willing to forget: an item is worth keeping only if a rule below says it matters, "
	"or it is clearly important; otherwise answer 0.";

static const char GOAL_KNIFE[] =
	"Goal: MakeBreakfast.Transport\n"
	"Actions: Pickup(object=knife_0) succeeded; Place(object=knife_0, target=countertop_0) "
	"succeeded\n"
	"Location: kitchen\n"
	"Persons: Alice\n"
	"Speech: 10:03:40 Alice: \"Please put the knife away.\"\n"
	"Objects: knife_0 (knife, clean), countertop_0 (countertop)\n"
	"Relations: knife_0 on countertop_0";

/* a cup goal with a knife in view: only the cup was moved */
static const char GOAL_CUP[] =
	"Goal: MakeBreakfast.Transport\n"
	"Actions: Pickup(object=cup_1) succeeded; Place(object=cup_1, target=sink_0) succeeded\n"
	"Location: kitchen\n"
	"Objects: cup_1 (cup, dirty), knife_0 (knife, clean), sink_0 (sink)\n"
	"Relations: cup_1 in sink_0";

static const char GOAL_PLANT[] =
	"Goal: WaterPlant\n"
	"Actions: Pour(object=plant_0) succeeded\n"
	"Location: living room\n"
	"Speech: 11:00:02 Bob: \"Thanks!\"\n"
	"Objects: plant_0 (plant, isFilled=true)";

static const char EVENT_ALICE[] =
	"Action: Wave(target=Alice) succeeded\n"
	"Location: hallway\n"
	"Persons: Alice\n"
	"Speech: Alice: \"Good morning, robot.\"\n"
	"Objects: door_0 (door, closed)";

static const char EVENT_ALONE[] =
	"Action: MoveTo(target=hallway) succeeded\n"
	"Location: hallway\n"
	"Speech: Robot: \"Moving to the hallway.\"\n"
	"Objects: door_0 (door, closed)";

static h2emv_policy *policy(void)
{
	h2emv_policy *p = NULL;
	assert_int_equal(pol_builtin_new(&p, NULL), H2EMV_OK);
	return p;
}

static pol_item item(uint64_t id, int level, int64_t t0, int64_t t1, const char *text)
{
	pol_item it = { id, level, t0, t1, text, text, 0, NULL };
	return it;
}

/* ------------------------------------------------------------- grouping -- */

typedef struct greq {
	pol_item items[64];
	pol_group old[64];
	char texts[64][128];
	pol_group_req req;
} greq;

/* Old items in the given group sizes, then n_new new items, at the times
 * given (start; each lasts 30 s). */
static void build(greq *g, const int64_t *starts, const size_t *sizes, size_t n_groups,
                  size_t n_new, int level)
{
	memset(g, 0, sizeof *g);
	size_t n = 0;
	for (size_t k = 0; k < n_groups; k++) {
		g->old[k].first = n;
		g->old[k].last = n + sizes[k] - 1;
		g->old[k].summary = (char *)(k % 2 ? "I did odd things." : "I did even things.");
		n += sizes[k];
	}
	for (size_t i = 0; i < n + n_new; i++) {
		snprintf(g->texts[i], sizeof g->texts[i], "Goal: Task%zu\nActions: Pickup(object=obj_%zu)",
		         i, i);
		g->items[i] = item(i + 1, level, starts[i], starts[i] + 30 * SEC, g->texts[i]);
	}
	g->req.level = level;
	g->req.items = g->items;
	g->req.n_items = n + n_new;
	g->req.old_groups = g->old;
	g->req.n_old = n_groups;
	g->req.n_new = n_new;
	g->req.now = starts[n + n_new - 1] + MIN;
}

static void test_group_joins_close_items_into_the_last_group(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	int64_t t[] = { T0, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN };
	size_t sizes[] = { 3 };
	greq g;
	build(&g, t, sizes, 1, 1, 3);
	pol_group_reply r = { 0 };
	pol_usage u = { 0 };
	assert_int_equal(p->group(p->ctx, &g.req, &r, &u, NULL), H2EMV_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.groups[0].first, 0);
	assert_int_equal(r.groups[0].last, 3);
	/* changed: summarised again from its four items */
	assert_string_not_equal(r.groups[0].summary, "I did even things.");
	assert_non_null(strstr(r.groups[0].summary, "Task3"));
	assert_int_equal(u.calls, 1);
	pol_groups_free(&r);
	pol_free(p);
}

static void test_group_splits_at_a_night_long_gap(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	for (int level = 3; level <= 5; level++) {
		/* the usual gaps inside the group are long (an hour) at level 5 */
		int64_t step = level == 5 ? HOUR : MIN;
		int64_t t[] = { T0, T0 + step, T0 + 2 * step, T0 + 2 * step + 14 * HOUR };
		size_t sizes[] = { 3 };
		greq g;
		build(&g, t, sizes, 1, 1, level);
		pol_group_reply r = { 0 };
		assert_int_equal(p->group(p->ctx, &g.req, &r, NULL, NULL), H2EMV_OK);
		assert_int_equal(r.n, 2);
		assert_int_equal(r.groups[0].last, 2);
		assert_string_equal(r.groups[0].summary, "I did even things.");
		assert_int_equal(r.groups[1].first, 3);
		assert_int_equal(r.groups[1].last, 3);
		pol_groups_free(&r);
	}
	pol_free(p);
}

static void test_group_caps_a_group_at_a_handful_of_items(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	int64_t t[10];
	for (int i = 0; i < 10; i++)
		t[i] = T0 + i * MIN;
	size_t sizes[] = { 5 };
	greq g;
	build(&g, t, sizes, 1, 5, 3);
	pol_group_reply r = { 0 };
	assert_int_equal(p->group(p->ctx, &g.req, &r, NULL, NULL), H2EMV_OK);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.groups[0].last, 5); /* six items */
	assert_int_equal(r.groups[1].first, 6);
	assert_int_equal(r.groups[1].last, 9);
	pol_groups_free(&r);
	pol_free(p);
}

static void test_group_leaves_untouched_groups_byte_identical(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	int64_t t[] = { T0, T0 + MIN, T0 + HOUR, T0 + HOUR + MIN, T0 + 2 * HOUR, T0 + 9 * HOUR };
	size_t sizes[] = { 2, 2, 1 };
	greq g;
	build(&g, t, sizes, 3, 1, 3);
	pol_group_reply r = { 0 };
	assert_int_equal(p->group(p->ctx, &g.req, &r, NULL, NULL), H2EMV_OK);
	assert_int_equal(r.n, 4);
	for (size_t k = 0; k < 3; k++) {
		assert_int_equal(r.groups[k].first, g.old[k].first);
		assert_int_equal(r.groups[k].last, g.old[k].last);
		assert_string_equal(r.groups[k].summary, g.old[k].summary);
		assert_ptr_not_equal(r.groups[k].summary, g.old[k].summary); /* a copy */
	}
	pol_groups_free(&r);
	pol_free(p);
}

static uint32_t rnd(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void test_group_always_returns_a_partition_of_all_items_in_order(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	static const int64_t gaps[] = { 0, 5 * SEC, 40 * SEC, 3 * MIN, 25 * MIN, 3 * HOUR, 10 * HOUR,
		                            3 * 24 * HOUR, -10 * SEC };
	uint32_t x = 7;
	for (int round = 0; round < 500; round++) {
		greq *g = calloc(1, sizeof *g);
		assert_non_null(g);
		int64_t t[64];
		size_t sizes[32], n_groups = rnd(&x) % 8, n = 0;
		for (size_t k = 0; k < n_groups; k++) {
			sizes[k] = 1 + rnd(&x) % 7;
			n += sizes[k];
		}
		size_t n_new = rnd(&x) % 9;
		if (n + n_new == 0)
			n_new = 1;
		int64_t now = T0 + (int64_t)(rnd(&x) % 1000) * SEC;
		for (size_t i = 0; i < n + n_new; i++) {
			t[i] = now;
			now += 30 * SEC + gaps[rnd(&x) % (sizeof gaps / sizeof *gaps)];
		}
		build(g, t, sizes, n_groups, n_new, 3 + (int)(rnd(&x) % 5));
		pol_group_reply r = { 0 };
		assert_int_equal(p->group(p->ctx, &g->req, &r, NULL, NULL), H2EMV_OK);
		size_t next = 0;
		for (size_t k = 0; k < r.n; k++) {
			assert_int_equal(r.groups[k].first, next);
			assert_true(r.groups[k].last >= r.groups[k].first);
			assert_non_null(r.groups[k].summary);
			assert_true(r.groups[k].summary[0] != '\0');
			next = r.groups[k].last + 1;
		}
		assert_int_equal(next, n + n_new);
		/* every old group but the last comes back as it was */
		for (size_t k = 0; k + 1 < n_groups; k++) {
			assert_int_equal(r.groups[k].last, g->old[k].last);
			assert_string_equal(r.groups[k].summary, g->old[k].summary);
		}
		pol_groups_free(&r);
		free(g);
	}
	pol_free(p);
}

static void test_group_is_deterministic_and_counts_the_prompt(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	int64_t t[] = { T0, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN, T0 + 20 * HOUR };
	size_t sizes[] = { 2 };
	greq g;
	build(&g, t, sizes, 1, 3, 3);
	const char *rules_v[] = { DEFAULT_RULE, "Always remember where you put a knife." };
	pol_rules rules = { rules_v, 2 };
	g.req.rules = &rules;
	pol_group_reply a = { 0 }, b = { 0 };
	pol_usage ua = { 0 }, ub = { 0 };
	assert_int_equal(p->group(p->ctx, &g.req, &a, &ua, NULL), H2EMV_OK);
	assert_int_equal(p->group(p->ctx, &g.req, &b, &ub, NULL), H2EMV_OK);
	assert_int_equal(a.n, b.n);
	for (size_t k = 0; k < a.n; k++) {
		assert_int_equal(a.groups[k].first, b.groups[k].first);
		assert_int_equal(a.groups[k].last, b.groups[k].last);
		assert_string_equal(a.groups[k].summary, b.groups[k].summary);
	}
	assert_memory_equal(&ua, &ub, sizeof ua);
	pr_prompt pr;
	assert_int_equal(pr_group(&pr, &g.req, 0, NULL), H2EMV_OK);
	assert_int_equal(ua.prompt_tokens, tok_prompt(&pr));
	assert_true(ua.completion_tokens > 0);
	assert_int_equal(ua.calls, 1);
	pr_prompt_free(&pr);
	pol_groups_free(&a);
	pol_groups_free(&b);
	pol_free(p);
}

static void test_group_refuses_old_groups_that_are_not_a_partition(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	int64_t t[] = { T0, T0 + MIN, T0 + 2 * MIN };
	size_t sizes[] = { 2 };
	greq g;
	build(&g, t, sizes, 1, 1, 3);
	g.old[0].last = 0;
	pol_group_reply r = { 0 };
	assert_int_equal(p->group(p->ctx, &g.req, &r, NULL, NULL), H2EMV_EINVAL);
	assert_int_equal(r.n, 0);
	pol_free(p);
}

/* ------------------------------------------------------------ summaries -- */

static void test_summary_of_goals_names_goals_objects_places_persons_speech(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	pol_item it[2] = { item(1, 3, T0, T0 + MIN, GOAL_KNIFE),
		               item(2, 3, T0 + 2 * MIN, T0 + 3 * MIN, GOAL_PLANT) };
	char *s = NULL;
	pol_usage u = { 0 };
	assert_int_equal(p->summarize(p->ctx, it, 2, 3, NULL, &s, &u, NULL), H2EMV_OK);
	assert_string_equal(s, "I did MakeBreakfast.Transport (knife_0 to countertop_0), WaterPlant "
	                       "(plant_0); was in the kitchen, living room; met Alice; heard 2 "
	                       "utterances.");
	pr_prompt pr;
	assert_int_equal(pr_summarize(&pr, it, 2, 3, NULL, NULL), H2EMV_OK);
	assert_int_equal(u.prompt_tokens, tok_prompt(&pr));
	char reply[512];
	snprintf(reply, sizeof reply, "Summary: %s", s);
	assert_int_equal(u.completion_tokens, tok_text(reply));
	assert_int_equal(u.calls, 1);
	pr_prompt_free(&pr);
	free(s);
	pol_free(p);
}

static void test_summary_above_goals_keeps_the_childrens_entities(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	pol_item kids[2] = {
		item(1, 4, T0, T0 + 10 * MIN,
		     "I did MakeBreakfast.Transport (knife_0 to countertop_0); saw cup_1; was in the "
		     "kitchen; met Alice; heard 1 utterance."),
		item(2, 4, T0 + 3 * HOUR, T0 + 3 * HOUR + 5 * MIN,
		     "I did WaterPlant (plant_0) and 2 more; was in the living room; heard 1 utterance."),
	};
	char *s = NULL;
	assert_int_equal(p->summarize(p->ctx, kids, 2, 4, NULL, &s, NULL, NULL), H2EMV_OK);
	assert_string_equal(s, "I did MakeBreakfast.Transport (knife_0 to countertop_0), WaterPlant "
	                       "(plant_0) and 2 more; saw cup_1; was in the kitchen, living room; "
	                       "met Alice; heard 2 utterances; spanning 2024/09/23 10:00 - 13:05.");
	free(s);
	/* free text from another policy is kept as a note */
	pol_item llm[1] = { item(3, 4, T0, T0 + MIN,
	                         "I cooked potato slices in the microwave. Then I waited.") };
	assert_int_equal(p->summarize(p->ctx, llm, 1, 4, NULL, &s, NULL, NULL), H2EMV_OK);
	assert_string_equal(s, "I cooked potato slices in the microwave.");
	free(s);
	pol_free(p);
}

static void test_summary_keeps_what_rules_mention_within_the_cap(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	static char texts[14][200];
	pol_item it[14];
	for (int i = 0; i < 14; i++) {
		if (i == 13)
			snprintf(texts[i], sizeof texts[i],
			         "Goal: TidyUp\nActions: Place(object=knife_0, target=drawer_0)");
		else
			snprintf(texts[i], sizeof texts[i],
			         "Goal: SomeRatherLongGoalName%d\nActions: Pickup(object=box_%d)", i, i);
		it[i] = item((uint64_t)i + 1, 3, T0 + i * MIN, T0 + i * MIN + 30 * SEC, texts[i]);
	}
	char *plain = NULL, *ruled = NULL;
	assert_int_equal(p->summarize(p->ctx, it, 14, 3, NULL, &plain, NULL, NULL), H2EMV_OK);
	const char *rv[] = { DEFAULT_RULE,
		                 "Always remember the location to where you transport a knife." };
	pol_rules rules = { rv, 2 };
	assert_int_equal(p->summarize(p->ctx, it, 14, 3, &rules, &ruled, NULL, NULL), H2EMV_OK);
	assert_true(strlen(plain) <= 300);
	assert_null(strstr(plain, "knife"));
	assert_non_null(strstr(plain, " more"));
	assert_non_null(strstr(ruled, "TidyUp (knife_0 to drawer_0)"));
	free(plain);
	free(ruled);
	pol_free(p);
}

static void test_summary_of_nothing_says_idle(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	pol_item it[1] = { item(1, 2, T0, T0 + MIN, "Action: none") };
	char *s = NULL;
	assert_int_equal(p->summarize(p->ctx, it, 1, 2, NULL, &s, NULL, NULL), H2EMV_OK);
	assert_string_equal(s, "I was idle.");
	free(s);
	pol_free(p);
}

/* ------------------------------------------------------------ relevance -- */

static double relevance(h2emv_policy *p, const char *rule, const char *text, int level)
{
	const char *rv[] = { DEFAULT_RULE, rule };
	pol_rules rules = { rv, rule ? 2 : 1 };
	pol_item it = item(9, level, T0, T0 + MIN, text);
	pol_item parent = item(8, level + 1, T0, T0 + HOUR, "I did MakeBreakfast (knife_0).");
	pol_relevance_req req = { &it, &parent, T0 + 48 * HOUR, &rules };
	double alpha = -1;
	pol_usage u = { 0 };
	assert_int_equal(p->relevance(p->ctx, &req, &alpha, &u, NULL), H2EMV_OK);
	pr_prompt pr;
	assert_int_equal(pr_relevance(&pr, &req, NULL), H2EMV_OK);
	assert_int_equal(u.prompt_tokens, tok_prompt(&pr));
	assert_int_equal(u.completion_tokens, tok_text(isinf(alpha) ? "Relevance: inf" : "Relevance: 0"));
	assert_int_equal(u.calls, 1);
	pr_prompt_free(&pr);
	return alpha;
}

static void test_relevance_keeps_a_transported_knife_and_forgets_a_cup(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	const char *rule = "Always remember the location to where you transport a knife.";
	assert_true(isinf(relevance(p, rule, GOAL_KNIFE, 3)));
	assert_true(relevance(p, rule, GOAL_CUP, 3) == 0); /* a knife in view is not transported */
	/* TEACh style positional arguments and plural, inflected words */
	assert_true(isinf(relevance(p, "You should remember where you placed the knives",
	                            "Action: Place(Knife_0, CounterTop_1) succeeded", 2)));
	/* a summary above goals matches through the entities it carries */
	assert_true(isinf(relevance(
		p, rule, "I did MakeBreakfast.Transport (knife_0 to countertop_0); was in the kitchen.", 4)));
	assert_true(relevance(p, rule, "I did WaterPlant (plant_0); was in the living room.", 4) == 0);
	/* the parent mentions a knife, but it is context only */
	assert_true(relevance(p, rule, GOAL_PLANT, 3) == 0);
	pol_free(p);
}

static void test_relevance_keeps_meeting_someone_only_with_a_person(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	const char *rule = "Always remember the exact time when you meet someone.";
	assert_true(isinf(relevance(p, rule, EVENT_ALICE, 2)));
	assert_true(relevance(p, rule, EVENT_ALONE, 2) == 0); /* the robot's own speech */
	assert_true(isinf(relevance(p, rule, "I did Wave; was in the hallway; met Alice.", 4)));
	assert_true(isinf(relevance(p, rule, "I interacted with a human in the kitchen.", 4)));
	assert_true(relevance(p, rule, "I did MoveTo (hallway); was in the hallway.", 4) == 0);
	pol_free(p);
}

static void test_relevance_forgets_without_a_keep_rule(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	assert_true(relevance(p, NULL, GOAL_KNIFE, 3) == 0); /* the default rule alone */
	assert_true(relevance(p, "You don't need to remember the knife.", GOAL_KNIFE, 3) == 0);
	/* valuables stand for keys, wallets, ... */
	assert_true(isinf(relevance(p, "Always record the time when you encounter a valuable item.",
	                            "Action: none\nObjects: keys_2 (keys)", 1)));
	/* no rules at all (rules must not condition relevance) */
	pol_item it = item(9, 3, T0, T0 + MIN, GOAL_KNIFE);
	pol_relevance_req req = { &it, NULL, T0 + 48 * HOUR, NULL };
	double alpha = -1;
	assert_int_equal(p->relevance(p->ctx, &req, &alpha, NULL, NULL), H2EMV_OK);
	assert_true(alpha == 0);
	pol_free(p);
}

/* -------------------------------------------------------------- learning -- */

static pol_rule_list learn(h2emv_policy *p, const char *const *old, size_t n, const char *fb)
{
	pol_rules rules = { old, n };
	pol_rule_list out = { 0 };
	pol_usage u = { 0 };
	assert_int_equal(p->learn(p->ctx, &rules, fb, &out, &u, NULL), H2EMV_OK);
	assert_int_equal(u.calls, 1);
	pr_prompt pr;
	assert_int_equal(pr_learn(&pr, &rules, fb, NULL), H2EMV_OK);
	assert_int_equal(u.prompt_tokens, tok_prompt(&pr));
	assert_true(u.completion_tokens > 0);
	pr_prompt_free(&pr);
	return out;
}

static void test_learn_adds_a_normalised_rule_and_keeps_the_rest(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	const char *old[] = { DEFAULT_RULE, "Always remember when you visit the laundry area." };
	pol_rule_list l = learn(p, old, 2,
	                        "You should always remember the location to where you transport a knife");
	assert_int_equal(l.n, 3);
	assert_string_equal(l.items[0], DEFAULT_RULE);
	assert_string_equal(l.items[1], old[1]);
	assert_string_equal(l.items[2], "Always remember the location to where you transport a knife.");
	pol_rule_list_free(&l);

	l = learn(p, old, 2, "Please remember where you put the keys!");
	assert_int_equal(l.n, 3);
	assert_string_equal(l.items[2], "Always remember where you put the keys.");
	pol_rule_list_free(&l);

	l = learn(p, old, 2, "never forget the exact time when you meet someone");
	assert_string_equal(l.items[2], "Always remember the exact time when you meet someone.");
	pol_rule_list_free(&l);

	/* from no rules at all */
	l = learn(p, NULL, 0, "always remember the exact time when you meet someone");
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0], "Always remember the exact time when you meet someone.");
	pol_rule_list_free(&l);
	pol_free(p);
}

static void test_learn_modifies_the_rule_about_the_same_things(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	const char *old[] = { DEFAULT_RULE, "Always remember the exact time when you meet someone.",
		                  "Always remember when you visit the laundry area.",
		                  "Always remember where you put the keys." };
	pol_rule_list l = learn(p, old, 4, "Always remember what you were doing when you meet a person");
	assert_int_equal(l.n, 4);
	assert_string_equal(l.items[0], DEFAULT_RULE);
	assert_string_equal(l.items[1], "Always remember what you were doing when you meet a person.");
	assert_string_equal(l.items[2], old[2]);
	assert_string_equal(l.items[3], old[3]);
	pol_rule_list_free(&l);
	/* "placed" and "put" are the same family: the keys rule is modified */
	l = learn(p, old, 4, "Please always remember the room where you placed the keys");
	assert_int_equal(l.n, 4);
	assert_string_equal(l.items[3], "Always remember the room where you placed the keys.");
	assert_string_equal(l.items[1], old[1]);
	pol_rule_list_free(&l);
	/* the same rule again: no change */
	l = learn(p, old, 4, "Always remember where you put the keys.");
	assert_int_equal(l.n, 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(l.items[i], old[i]);
	pol_rule_list_free(&l);
	pol_free(p);
}

static void test_learn_removes_rules_the_user_lets_go_of(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	const char *old[] = { DEFAULT_RULE, "Always remember where you put the keys.",
		                  "Always remember the exact time when you meet someone.",
		                  "Always record which keys you use for the front door." };
	pol_rule_list l = learn(p, old, 4, "You don't need to remember where you put the keys anymore.");
	assert_int_equal(l.n, 3);
	assert_string_equal(l.items[0], DEFAULT_RULE);
	assert_string_equal(l.items[1], old[2]);
	assert_string_equal(l.items[2], old[3]);
	pol_rule_list_free(&l);
	l = learn(p, old, 4, "Forget about the keys");
	assert_int_equal(l.n, 2);
	assert_string_equal(l.items[1], old[2]);
	pol_rule_list_free(&l);
	/* nothing matches: nothing changes, the default never goes */
	l = learn(p, old, 4, "You can forget everything about the garden");
	assert_int_equal(l.n, 4);
	assert_string_equal(l.items[0], DEFAULT_RULE);
	pol_rule_list_free(&l);
	pol_free(p);
}

static void test_learn_is_deterministic(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	const char *old[] = { DEFAULT_RULE, "Always remember where you put the keys." };
	pol_rule_list a = learn(p, old, 2, "I want you to always remember when you water the plant");
	pol_rule_list b = learn(p, old, 2, "I want you to always remember when you water the plant");
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.items[i], b.items[i]);
	assert_string_equal(a.items[2], "Always remember when you water the plant.");
	pol_rule_list_free(&a);
	pol_rule_list_free(&b);
	pol_free(p);
}

/* ------------------------------------------------------------- hostile -- */

static void test_hostile_texts_never_crash_any_decision(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	static const char *const pieces[] = {
		"Goal: ", "Action: ", "Actions: ", "Objects: ", "Persons: ", "Speech: ", "Location: ",
		"I did ", "; ", ", ", " (", ")", "[", "]", "\"", "=", " to ", " and 3 more", "\n",
		"knife_0", "Place(", "object=", "10:03:40 ", "\xc3", "\xff", ". I ", "heard 9",
		"met ", "saw ", "was in the ", "|", "spanning ", "(2 earlier) ",
	};
	const char *rv[] = { DEFAULT_RULE, "Always remember where you put the keys; or when you "
		                               "meet someone", "You may forget the cups." };
	pol_rules rules = { rv, 3 };
	uint32_t x = 99;
	for (int round = 0; round < 400; round++) {
		char texts[4][300];
		pol_item it[4];
		for (int k = 0; k < 4; k++) {
			size_t n = 0;
			int parts = (int)(rnd(&x) % 30);
			for (int j = 0; j < parts; j++) {
				const char *pc = pieces[rnd(&x) % (sizeof pieces / sizeof *pieces)];
				size_t l = strlen(pc);
				if (n + l >= sizeof texts[k])
					break;
				memcpy(texts[k] + n, pc, l);
				n += l;
			}
			texts[k][n] = '\0';
			it[k] = item((uint64_t)k + 1, 3 + (int)(rnd(&x) % 3), T0 + k * MIN,
			             T0 + k * MIN + 30 * SEC, texts[k]);
		}
		char *s = NULL;
		assert_int_equal(p->summarize(p->ctx, it, 4, it[0].level, &rules, &s, NULL, NULL),
		                 H2EMV_OK);
		assert_non_null(s);
		free(s);
		pol_relevance_req rr = { &it[0], &it[1], T0 + 48 * HOUR, &rules };
		double a;
		assert_int_equal(p->relevance(p->ctx, &rr, &a, NULL, NULL), H2EMV_OK);
		pol_group old = { 0, 1, texts[2] };
		pol_group_req gr = { 3, it, 4, &old, 1, 2, &rules, T0 + HOUR };
		pol_group_reply r = { 0 };
		assert_int_equal(p->group(p->ctx, &gr, &r, NULL, NULL), H2EMV_OK);
		pol_groups_free(&r);
		pol_rule_list l = { 0 };
		/* as feedback, with a keep word in front (else none is a rule):
		 * learned, or refused as not a rule */
		char fb[320];
		snprintf(fb, sizeof fb, "%s%s", round % 2 ? "remember " : "", texts[3]);
		int rc = p->learn(p->ctx, &rules, fb, &l, NULL, NULL);
		assert_true(rc == H2EMV_OK || rc == H2EMV_EINVAL);
		assert_true(rc == H2EMV_OK ? l.n >= 1 : l.n == 0 && !l.items);
		if (rc == H2EMV_OK)
			assert_string_equal(l.items[0], DEFAULT_RULE);
		pol_rule_list_free(&l);
	}
	pol_free(p);
}

/* ---------------------------------------------------------------- table -- */

/* Every slot but qa_step: the builtin policy answers from typed facts
 * (h2emv_ask reads them itself), it does not explore. */
static void test_builtin_fills_every_slot_of_the_table(void **state)
{
	(void)state;
	h2emv_policy *p = policy();
	assert_string_equal(p->name, "builtin");
	assert_non_null(p->group);
	assert_non_null(p->summarize);
	assert_non_null(p->relevance);
	assert_non_null(p->learn);
	assert_null(p->qa_step);
	assert_ptr_equal(p->route, pol_builtin_route);
	pol_free(p);
}

static void test_words_are_normalised_for_matching(void **state)
{
	(void)state;
	bi_words w = { 0 };
	const char *t = "CounterTop_2 knives keys dishes Potato|-01.50 MakeBreakfast.Transport";
	bi_words_of(&w, t, strlen(t));
	const char *want[] = { "countertop", "counter", "top", "knife", "key", "dish", "potato",
		                   "makebreakfast", "make", "breakfast", "transport" };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		assert_true(bi_words_has(&w, want[i]));
	bi_words_free(&w);
	assert_int_equal(bi_family("placed"), BI_FAM_TRANSPORT);
	assert_int_equal(bi_family("carried"), BI_FAM_TRANSPORT);
	assert_int_equal(bi_family("dropped"), BI_FAM_TRANSPORT);
	assert_int_equal(bi_family("moving"), BI_FAM_TRANSPORT);
	assert_int_equal(bi_family("pickup"), BI_FAM_TRANSPORT);
	assert_int_equal(bi_family("someone"), BI_FAM_MEET);
	assert_int_equal(bi_family("knife"), 0);
	/* the stop list is sorted (bsearch relies on it) and holds its words */
	assert_true(bi_is_stop("always"));
	assert_true(bi_is_stop("yourself"));
	assert_true(bi_is_stop("about"));
	assert_false(bi_is_stop("knife"));
}

/* ------------------------------------------------------------- caching -- */

/* A goal block of the builder's kind: random objects, places, persons,
 * speech, sometimes a failure. */
static void goal_text(char *out, size_t cap, uint32_t *x)
{
	static const char *const objs[] = { "knife", "cup", "plate", "apple", "keys",
		                                "wallet", "bowl", "Potato|-01.50" };
	static const char *const dests[] = { "countertop", "sink", "table", "shelf", "drawer" };
	static const char *const places[] = { "kitchen", "living room", "hallway" };
	static const char *const people[] = { "Alice", "Bob", "Carol" };
	const char *o = objs[rnd(x) % 8], *d = dests[rnd(x) % 5], *o2 = objs[rnd(x) % 8];
	int n = snprintf(out, cap,
	                 "Goal: %s.Transport%s\nActions: Pickup(object=%s_0) succeeded; "
	                 "Place(object=%s_0, target=%s_0) succeeded\nLocation: %s\n",
	                 rnd(x) % 2 ? "MakeBreakfast" : "TidyUp", rnd(x) % 9 ? "" : " failed", o, o,
	                 d, places[rnd(x) % 3]);
	if (rnd(x) % 4 == 0)
		n += snprintf(out + n, cap - (size_t)n,
		              "Persons: %s\nSpeech: 10:03:40 %s: \"Please put the %s away.\"\n",
		              people[rnd(x) % 3], people[rnd(x) % 3], o);
	n += snprintf(out + n, cap - (size_t)n, "Objects: %s_0 (%s, clean), %s_0 (%s), %s_1 (%s)", o,
	              o, d, d, o2, o2);
	for (int k = (int)(rnd(x) % 4); k > 0; k--) { /* things seen in passing, some often */
		const char *e = objs[rnd(x) % (rnd(x) % 2 ? 3 : 8)];
		n += snprintf(out + n, cap - (size_t)n, ", %s_%u (%s)", e, 2 + rnd(x) % 3, e);
	}
	snprintf(out + n, cap - (size_t)n, "\nRelations: %s_0 on %s_0", o, d);
}

/* A text of random grammar pieces (the hostile test's). */
static void junk_text(char *out, size_t cap, uint32_t *x)
{
	static const char *const pieces[] = {
		"Goal: ", "Action: ", "Actions: ", "Objects: ", "Persons: ", "Speech: ", "Location: ",
		"I did ", "; ", ", ", " (", ")", "[", "]", "\"", "=", " to ", " and 3 more", "\n",
		"knife_0", "Place(", "object=", "10:03:40 ", "\xc3", "\xff", ". I ", "heard 9",
		"met ", "saw ", "was in the ", "|", "spanning ", "(2 earlier) ", "  ", "meet Bob",
	};
	size_t n = 0;
	int parts = (int)(rnd(x) % 40);
	for (int j = 0; j < parts; j++) {
		const char *pc = pieces[rnd(x) % (sizeof pieces / sizeof *pieces)];
		size_t l = strlen(pc);
		if (n + l >= cap)
			break;
		memcpy(out + n, pc, l);
		n += l;
	}
	out[n] = '\0';
}

/* The policies compared with the reference: one warm all along, one with
 * a cache so small that it evicts on every call. */
typedef struct pols {
	h2emv_policy *warm, *tiny;
	size_t calls;
} pols;

/* Summarise with every policy and a fresh one; all must equal the
 * reference (NULL context). Returns the reference's summary (malloc'd). */
static char *summarize_all(pols *t, const pol_item *it, size_t n, int level,
                           const pol_rules *rules)
{
	char *ref = NULL;
	pol_usage uref = { 0 };
	assert_int_equal(bi_summarize(NULL, it, n, level, rules, &ref, &uref, NULL), H2EMV_OK);
	h2emv_policy *fresh = policy();
	h2emv_policy *all[3] = { t->warm, t->tiny, fresh };
	for (int k = 0; k < 3; k++) {
		char *s = NULL;
		pol_usage u = { 0 };
		assert_int_equal(all[k]->summarize(all[k]->ctx, it, n, level, rules, &s, &u, NULL),
		                 H2EMV_OK);
		assert_string_equal(s, ref);
		assert_memory_equal(&u, &uref, sizeof u);
		free(s);
	}
	pol_free(fresh);
	t->calls++;
	return ref;
}

static void group_all(pols *t, const pol_group_req *req)
{
	pol_group_reply ref = { 0 };
	pol_usage uref = { 0 };
	assert_int_equal(bi_group(NULL, req, &ref, &uref, NULL), H2EMV_OK);
	h2emv_policy *fresh = policy();
	h2emv_policy *all[3] = { t->warm, t->tiny, fresh };
	for (int k = 0; k < 3; k++) {
		pol_group_reply r = { 0 };
		pol_usage u = { 0 };
		assert_int_equal(all[k]->group(all[k]->ctx, req, &r, &u, NULL), H2EMV_OK);
		assert_int_equal(r.n, ref.n);
		for (size_t g = 0; g < r.n; g++) {
			assert_int_equal(r.groups[g].first, ref.groups[g].first);
			assert_int_equal(r.groups[g].last, ref.groups[g].last);
			assert_string_equal(r.groups[g].summary, ref.groups[g].summary);
		}
		assert_memory_equal(&u, &uref, sizeof u);
		pol_groups_free(&r);
	}
	pol_free(fresh);
	pol_groups_free(&ref);
	t->calls++;
}

#define N_GOALS 90

static void test_cached_policy_answers_as_the_reference_over_many_calls(void **state)
{
	(void)state;
	pols t = { policy(), NULL, 0 };
	assert_int_equal(bi_policy_new(&t.tiny, 3, 1500, NULL), H2EMV_OK);
	const char *rv[] = { DEFAULT_RULE, "Always remember where you put the knife; or when you "
		                               "meet someone.", "Keep track of the wallet." };
	pol_rules only_default = { rv, 1 }, with_keep = { rv, 3 };
	static char texts[N_GOALS][700];
	pol_item goals[N_GOALS], sums[N_GOALS];
	char *sum_text[N_GOALS];
	uint32_t x = 2024;
	for (int round = 0; round < 3; round++) {
		const pol_rules *rules = round == 0 ? NULL : round == 1 ? &only_default : &with_keep;
		int64_t now = T0 + round * 400 * HOUR;
		for (size_t i = 0; i < N_GOALS; i++) {
			if (rnd(&x) % 12)
				goal_text(texts[i], sizeof texts[i], &x);
			else
				junk_text(texts[i], sizeof texts[i], &x);
			int64_t gap = rnd(&x) % 7 ? (int64_t)(rnd(&x) % 20) * MIN : (int64_t)(rnd(&x) % 30) * HOUR;
			goals[i] = item(i + 1, 3, now + gap, now + gap + 2 * MIN, texts[i]);
			now = goals[i].t_end;
		}
		/* parents growing one child at a time, as the builder re-summarises
		 * them; every sixth child closes a parent, whose summary is read
		 * back one level up, itself growing one child at a time */
		size_t first = 0, n_sums = 0;
		for (size_t i = 0; i < N_GOALS; i++) {
			char *s = summarize_all(&t, goals + first, i - first + 1, 3, rules);
			if (i - first + 1 < 6 && i + 1 < N_GOALS) {
				free(s);
				continue;
			}
			sum_text[n_sums] = s;
			sums[n_sums] = item(1000 + n_sums, 4, goals[first].t_start, goals[i].t_end, s);
			n_sums++;
			first = i + 1;
		}
		for (size_t k = 0; k < n_sums; k++) {
			size_t lo = k > 11 ? k - 11 : 0;
			free(summarize_all(&t, sums + lo, k - lo + 1, 4, rules));
			free(summarize_all(&t, sums + lo, k - lo + 1, 5, rules));
		}
		/* grouping: the last few old groups and one to three new items */
		for (size_t i = 8; i < N_GOALS; i += 1 + rnd(&x) % 3) {
			pol_group old[16];
			size_t lo = i > 24 ? i - 24 : 0, n_new = 1 + rnd(&x) % 3, n_old = 0;
			if (i + n_new > N_GOALS)
				n_new = N_GOALS - i;
			for (size_t j = lo; j < i; n_old++) {
				old[n_old].first = j - lo;
				old[n_old].last = j - lo + rnd(&x) % 6;
				if (old[n_old].last > i - 1 - lo)
					old[n_old].last = i - 1 - lo;
				old[n_old].summary = sum_text[(n_old + i) % n_sums];
				j = lo + old[n_old].last + 1;
			}
			pol_group_req req = { 3, goals + lo, i - lo + n_new, old, n_old, n_new, rules,
				                  goals[i + n_new - 1].t_end };
			group_all(&t, &req);
			req.level = 4; /* other limits: other groups */
			group_all(&t, &req);
		}
		for (size_t k = 0; k < n_sums; k++)
			free(sum_text[k]);
	}
	assert_true(t.calls > 500);
	/* the tiny cache stayed within its bounds while being used */
	bi_cache_stats st = bi_ctx_stats(t.tiny->ctx);
	assert_true(st.entries <= 3);
	assert_true(st.bytes <= 1500 || st.entries == 1);
	assert_true(st.evictions > 1000);
	/* the warm one served most lookups from the cache */
	st = bi_ctx_stats(t.warm->ctx);
	assert_true(st.hits > 4 * st.misses);
	assert_true(st.entries <= BI_CACHE_ENTRIES && st.bytes <= BI_CACHE_BYTES);
	pol_free(t.warm);
	pol_free(t.tiny);
}

static void test_cached_policy_answers_as_the_reference_on_hostile_and_huge_texts(void **state)
{
	(void)state;
	pols t = { policy(), NULL, 0 };
	assert_int_equal(bi_policy_new(&t.tiny, 2, 600, NULL), H2EMV_OK);
	const char *rv[] = { DEFAULT_RULE, "Always remember the keys; or when you meet someone" };
	pol_rules rules = { rv, 2 };
	/* a text longer than the cache keeps: digested anew every time */
	size_t big_len = BI_CACHE_MAX_TEXT + 5000, n = 0;
	char *big = malloc(big_len + 200);
	assert_non_null(big);
	n += (size_t)sprintf(big, "Goal: Chat\nActions: Talk(object=keys_0) succeeded\n");
	for (int i = 0; n < big_len; i++)
		n += (size_t)sprintf(big + n, "Speech: Alice: \"word %d\"\n", i);
	sprintf(big + n, "Objects: keys_0 (keys)");
	static char texts[4][400];
	uint32_t x = 99;
	for (int round = 0; round < 300; round++) {
		pol_item it[4];
		for (int k = 0; k < 4; k++) {
			junk_text(texts[k], sizeof texts[k], &x);
			it[k] = item((uint64_t)k + 1, 3, T0 + k * MIN, T0 + k * MIN + 30 * SEC,
			             round % 50 == 0 && k == 1 ? big : texts[k]);
		}
		free(summarize_all(&t, it, 4, 3 + round % 3, round % 2 ? &rules : NULL));
		pol_group old = { 0, 1, texts[2] };
		pol_group_req gr = { 3, it, 4, &old, 1, 2, round % 2 ? &rules : NULL, T0 + HOUR };
		group_all(&t, &gr);
	}
	bi_cache_stats st = bi_ctx_stats(t.warm->ctx);
	assert_true(st.bytes <= BI_CACHE_BYTES);
	free(big);
	pol_free(t.warm);
	pol_free(t.tiny);
}

static void test_cached_summary_is_exact_at_the_length_cap(void **state)
{
	(void)state;
	pols t = { policy(), NULL, 0 };
	assert_int_equal(bi_policy_new(&t.tiny, 4, 0, NULL), H2EMV_OK);
	static char texts[10][300];
	pol_item it[10];
	/* labels of every length around the cap, so that the sentence is one
	 * byte over or under it in some call, with "and N more", speech and
	 * objects seen in the way */
	for (int len = 1; len <= 70; len++)
		for (int n = 1; n <= 10; n++) {
			for (int i = 0; i < n; i++) {
				char name[80];
				for (int c = 0; c < len; c++)
					name[c] = (char)('a' + (c + i) % 26);
				name[len] = '\0';
				if ((len + i) % 3 == 0)
					snprintf(texts[i], sizeof texts[i], "I did %s and %d more; saw cup_%d; heard %d "
					         "utterances.", name, len % 13, i % 4, 1 + (n * len) % 11);
				else
					snprintf(texts[i], sizeof texts[i],
					         "Goal: %s\nActions: Pickup(object=cup_%d)\nSpeech: Bob: \"hi\"\n"
					         "Objects: cup_%d (cup), plate_%d (plate)", name, i % 3, i % 3, i);
				it[i] = item((uint64_t)i + 1, 3, T0 + i * 2 * HOUR, T0 + i * 2 * HOUR + MIN,
				             texts[i]);
			}
			free(summarize_all(&t, it, (size_t)n, 3 + len % 3, NULL));
		}
	pol_free(t.warm);
	pol_free(t.tiny);
}

typedef struct worker_job {
	h2emv_policy *p;
	uint32_t seed;
	int mismatches;
} worker_job;

static void *summarize_worker(void *arg)
{
	worker_job *j = arg;
	char texts[6][700];
	for (int round = 0; round < 150; round++) {
		pol_item it[6];
		size_t n = 1 + rnd(&j->seed) % 6;
		for (size_t k = 0; k < n; k++) {
			goal_text(texts[k], sizeof texts[k], &j->seed);
			it[k] = item(k + 1, 3, T0 + (int64_t)k * MIN, T0 + (int64_t)k * MIN + 30 * SEC,
			             texts[k]);
		}
		char *a = NULL, *b = NULL;
		pol_usage ua = { 0 }, ub = { 0 };
		int ra = j->p->summarize(j->p->ctx, it, n, 3, NULL, &a, &ua, NULL);
		int rb = bi_summarize(NULL, it, n, 3, NULL, &b, &ub, NULL);
		if (ra || rb || strcmp(a, b) || memcmp(&ua, &ub, sizeof ua))
			j->mismatches++;
		free(a);
		free(b);
	}
	return NULL;
}

static void test_one_policy_serves_several_threads(void **state)
{
	(void)state;
	h2emv_policy *p = NULL;
	assert_int_equal(bi_policy_new(&p, 16, 0, NULL), H2EMV_OK);
	worker_job jobs[3] = { { p, 1, 0 }, { p, 2, 0 }, { p, 3, 0 } };
	pthread_t th[3];
	for (int k = 0; k < 3; k++)
		assert_int_equal(pthread_create(&th[k], NULL, summarize_worker, &jobs[k]), 0);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(pthread_join(th[k], NULL), 0);
		assert_int_equal(jobs[k].mismatches, 0);
	}
	pol_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_joins_close_items_into_the_last_group),
		cmocka_unit_test(test_group_splits_at_a_night_long_gap),
		cmocka_unit_test(test_group_caps_a_group_at_a_handful_of_items),
		cmocka_unit_test(test_group_leaves_untouched_groups_byte_identical),
		cmocka_unit_test(test_group_always_returns_a_partition_of_all_items_in_order),
		cmocka_unit_test(test_group_is_deterministic_and_counts_the_prompt),
		cmocka_unit_test(test_group_refuses_old_groups_that_are_not_a_partition),
		cmocka_unit_test(test_summary_of_goals_names_goals_objects_places_persons_speech),
		cmocka_unit_test(test_summary_above_goals_keeps_the_childrens_entities),
		cmocka_unit_test(test_summary_keeps_what_rules_mention_within_the_cap),
		cmocka_unit_test(test_summary_of_nothing_says_idle),
		cmocka_unit_test(test_relevance_keeps_a_transported_knife_and_forgets_a_cup),
		cmocka_unit_test(test_relevance_keeps_meeting_someone_only_with_a_person),
		cmocka_unit_test(test_relevance_forgets_without_a_keep_rule),
		cmocka_unit_test(test_learn_adds_a_normalised_rule_and_keeps_the_rest),
		cmocka_unit_test(test_learn_modifies_the_rule_about_the_same_things),
		cmocka_unit_test(test_learn_removes_rules_the_user_lets_go_of),
		cmocka_unit_test(test_learn_is_deterministic),
		cmocka_unit_test(test_hostile_texts_never_crash_any_decision),
		cmocka_unit_test(test_builtin_fills_every_slot_of_the_table),
		cmocka_unit_test(test_words_are_normalised_for_matching),
		cmocka_unit_test(test_cached_policy_answers_as_the_reference_over_many_calls),
		cmocka_unit_test(test_cached_policy_answers_as_the_reference_on_hostile_and_huge_texts),
		cmocka_unit_test(test_cached_summary_is_exact_at_the_length_cap),
		cmocka_unit_test(test_one_policy_serves_several_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
