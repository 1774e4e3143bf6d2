/*
 * test_custom_policy.c — a lab's own policy through the public interface
 * (h2emv_custom_policy): its callbacks make the summaries, the relevance,
 * the routing and the answers; what they get wrong falls back to the
 * builtin policy; a bad registration changes nothing.
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

#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define T0 1719792000000000ll /* 2024-07-01T00:00:00Z */

typedef struct lab {
	int group, summarize, relevance, learn, qa, route, destroyed;
	int bad;       /* 1: group returns a partition that is not one; 2: EPARSE */
	int fail;      /* the error summarize returns (0: none) */
} lab;

static int lab_group(void *ctx, h2emv_policy_group **groups, size_t *n_groups,
                     const h2emv_policy_group_request *req, h2emv_tokens *spent,
                     h2emv_error *err)
{
	lab *l = ctx;
	l->group++;
	spent->prompt += 10;
	if (l->bad == 2) {
		snprintf(err->message, sizeof err->message, "the lab model could not decide");
		return H2EMV_EPARSE;
	}
	*groups = calloc(1, sizeof **groups);
	if (!*groups)
		return H2EMV_ENOMEM;
	/* everything under one parent; bad == 1 runs past the last item */
	(*groups)[0].first = 0;
	(*groups)[0].last = req->n_items - 1 + (l->bad == 1);
	char text[64];
	snprintf(text, sizeof text, "lab group of %zu at level %d", req->n_items, req->level + 1);
	(*groups)[0].summary = strdup(text);
	*n_groups = 1;
	return (*groups)[0].summary ? H2EMV_OK : H2EMV_ENOMEM;
}

static int lab_summarize(void *ctx, char **summary, const h2emv_policy_item *items, size_t n,
                         int level, const h2emv_policy_rules *rules, h2emv_tokens *spent,
                         h2emv_error *err)
{
	lab *l = ctx;
	(void)items;
	(void)rules;
	(void)spent;
	l->summarize++;
	if (l->fail) {
		snprintf(err->message, sizeof err->message, "the lab's GPU is on fire");
		return l->fail;
	}
	char text[64];
	snprintf(text, sizeof text, "lab summary of %zu at level %d", n, level + 1);
	*summary = strdup(text);
	return *summary ? H2EMV_OK : H2EMV_ENOMEM;
}

static int lab_relevance(void *ctx, double *alpha, const h2emv_policy_relevance_request *req,
                         h2emv_tokens *spent, h2emv_error *err)
{
	lab *l = ctx;
	(void)req;
	(void)spent;
	(void)err;
	l->relevance++;
	*alpha = INFINITY; /* this lab forgets nothing */
	return H2EMV_OK;
}

static int lab_route(void *ctx, h2emv_route *route, char **reply, const char *utterance,
                     h2emv_tokens *spent, h2emv_error *err)
{
	lab *l = ctx;
	(void)reply;
	(void)utterance;
	(void)spent;
	(void)err;
	l->route++;
	*route = H2EMV_ROUTE_QUESTION;
	return H2EMV_OK;
}

static int lab_qa(void *ctx, h2emv_policy_qa_action *action, const h2emv_policy_qa_view *view,
                  h2emv_tokens *spent, h2emv_error *err)
{
	lab *l = ctx;
	l->qa++;
	spent->completion += 3;
	if (l->bad == 2) {
		snprintf(err->message, sizeof err->message, "the lab model could not decide");
		return H2EMV_EPARSE;
	}
	action->kind = H2EMV_QA_ANSWER;
	action->text = strdup(view->n ? "The lab model says: on the table." : "nothing shown");
	return action->text ? H2EMV_OK : H2EMV_ENOMEM;
}

static void lab_destroy(void *ctx)
{
	((lab *)ctx)->destroyed++;
}

static h2emv_custom_policy lab_policy(lab *l)
{
	h2emv_custom_policy p = H2EMV_CUSTOM_POLICY_INIT;
	p.name = "lab";
	p.ctx = l;
	p.group = lab_group;
	p.summarize = lab_summarize;
	p.relevance = lab_relevance;
	p.route = lab_route;
	p.qa_step = lab_qa;
	p.destroy = lab_destroy;
	return p;
}

static void days(h2emv_mem *m, int n)
{
	for (int d = 0; d < n; d++)
		tu_chores(m, T0, d);
}

/* Does any node of the newest snapshot have a summary starting with `prefix`? */
static int any_summary(h2emv_snap *s, const h2emv_node *n, const char *prefix, int depth)
{
	if (!strncmp(h2emv_node_summary(n, NULL), prefix, strlen(prefix)))
		return 1;
	for (size_t i = 0; depth < 64 && i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c = NULL;
		h2emv_error err = { 0 };
		if (h2emv_node_child(&c, s, n, i, &err) == H2EMV_OK &&
		    any_summary(s, c, prefix, depth + 1))
			return 1;
	}
	return 0;
}

static int tree_has(h2emv_mem *m, const char *prefix)
{
	h2emv_snap *s = NULL;
	const h2emv_node *root = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, &err), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, &err), H2EMV_OK);
	int found = any_summary(s, root, prefix, 0);
	h2emv_snap_close(s);
	return found;
}

static void test_custom_policy_makes_summaries_relevance_and_answers(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_tmp("custom", &dir);
	assert_non_null(m);
	lab l = { 0 };
	h2emv_custom_policy p = lab_policy(&l);
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_OK);
	days(m, 3);
	h2emv_build_result br;
	assert_int_equal(h2emv_build(&br, m, NULL, &err), H2EMV_OK);
	assert_true(l.group + l.summarize > 0);
	assert_true(tree_has(m, "lab "));
	assert_true(br.tokens_build.prompt >= 10); /* what the callbacks said they spent */

	/* a month later everything has expired: the lab keeps it all */
	h2emv_build_result fr;
	assert_int_equal(h2emv_forget(&fr, m, T0 + 40 * 86400 * US, &err), H2EMV_OK);
	assert_true(l.relevance > 0);
	assert_int_equal(fr.nodes_forgotten, 0);

	h2emv_reply *r = tu_say(m, "Where is the cup?");
	assert_int_equal(l.route, 1);
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	assert_true(l.qa >= 1);
	assert_non_null(r->answer);
	assert_string_equal(r->answer->text, "The lab model says: on the table.");
	h2emv_reply_free(r);

	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_string_equal(st.name, "lab");
	assert_int_equal(st.decisions, (uint64_t)(l.group + l.summarize + l.relevance + l.qa +
	                                          l.route));
	assert_int_equal(st.fallbacks, 0);
	assert_int_equal(l.destroyed, 0);
	h2emv_mem_close(m);
	assert_int_equal(l.destroyed, 1);
	tu_rmrf(dir);
	free(dir);
}

/* A partition that is not one, or EPARSE: the builtin policy groups
 * instead, and the stats say so. */
static void test_custom_policy_bad_replies_fall_back_to_builtin(void **state)
{
	(void)state;
	for (int bad = 1; bad <= 2; bad++) {
		char *dir = NULL;
		h2emv_mem *m = tu_mem_tmp("custom-bad", &dir);
		assert_non_null(m);
		lab l = { .bad = bad };
		h2emv_custom_policy p = lab_policy(&l);
		p.summarize = NULL; /* the builtin summarises */
		h2emv_error err = { 0 };
		assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_OK);
		days(m, 2);
		assert_int_equal(h2emv_build(NULL, m, NULL, &err), H2EMV_OK);
		assert_true(l.group > 0);
		assert_int_equal(l.summarize, 0);
		assert_false(tree_has(m, "lab group"));
		h2emv_policy_stats st;
		h2emv_mem_policy_stats(&st, m);
		assert_int_equal(st.fallbacks, (uint64_t)l.group);
		assert_int_equal(st.bad_replies, (uint64_t)l.group);
		h2emv_mem_close(m);
		tu_rmrf(dir);
		free(dir);
	}
}

/* A qa_step that cannot decide (EPARSE) is settled as "not found", as the
 * llm policy's is: the builtin policy takes no steps (it answers from
 * typed facts), so nothing else reads the tree for the lab's agent. */
static void test_custom_qa_step_that_cannot_decide_finds_nothing(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_tmp("custom-qa", &dir);
	assert_non_null(m);
	lab l = { .bad = 2 };
	h2emv_custom_policy p = lab_policy(&l);
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_OK);
	days(m, 2);
	assert_int_equal(h2emv_build(NULL, m, NULL, &err), H2EMV_OK);
	h2emv_policy_stats before;
	h2emv_mem_policy_stats(&before, m);
	h2emv_answer *a = NULL;
	assert_int_equal(h2emv_ask(&a, m, "Where did you put the cup?", NULL, &err), H2EMV_OK);
	assert_string_equal(a->text, "I could not find that in my memory.");
	assert_int_equal(a->rounds, 1);
	assert_int_equal(l.qa, 1);
	h2emv_answer_free(a);
	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_int_equal(st.fallbacks, before.fallbacks + 1);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* Any other error stops the build with the callback's message. */
static void test_custom_policy_error_stops_the_build(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_tmp("custom-fail", &dir);
	assert_non_null(m);
	lab l = { .fail = H2EMV_EIO };
	h2emv_custom_policy p = lab_policy(&l);
	p.group = NULL; /* the builtin groups, the lab summarises */
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_OK);
	days(m, 2);
	assert_int_equal(h2emv_build(NULL, m, NULL, &err), H2EMV_EIO);
	assert_true(l.summarize > 0);
	assert_non_null(strstr(err.message, "on fire"));
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_custom_policy_bad_registration_changes_nothing(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_tmp("custom-reg", &dir);
	assert_non_null(m);
	lab l = { 0 };
	h2emv_error err = { 0 };
	const char *names[] = { NULL, "", "builtin", "llm", "a name far too long" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		h2emv_custom_policy p = lab_policy(&l);
		p.name = names[i];
		assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_EINVAL);
	}
	h2emv_custom_policy p = lab_policy(&l);
	p.version = H2EMV_CUSTOM_POLICY_VERSION + 1;
	assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_EINVAL);
	assert_int_equal(h2emv_mem_set_custom_policy(m, NULL, &err), H2EMV_EINVAL);
	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_string_equal(st.name, "builtin");
	/* replacing a custom policy releases it */
	p.version = H2EMV_CUSTOM_POLICY_VERSION;
	assert_int_equal(h2emv_mem_set_custom_policy(m, &p, &err), H2EMV_OK);
	assert_int_equal(h2emv_mem_set_policy(m, "builtin", NULL, &err), H2EMV_OK);
	assert_int_equal(l.destroyed, 1);
	h2emv_mem_close(m);
	assert_int_equal(l.destroyed, 1);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_custom_policy_makes_summaries_relevance_and_answers),
		cmocka_unit_test(test_custom_policy_bad_replies_fall_back_to_builtin),
		cmocka_unit_test(test_custom_qa_step_that_cannot_decide_finds_nothing),
		cmocka_unit_test(test_custom_policy_error_stops_the_build),
		cmocka_unit_test(test_custom_policy_bad_registration_changes_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
