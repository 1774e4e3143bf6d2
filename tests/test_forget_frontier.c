/*
 * test_forget_frontier.c — forgetting never takes the open frontier (the
 * open goals, the open event and its newest scene: what the segmenter is
 * still building), and an observation dated before the memory's clock is
 * placed at the clock (docs/formats.md §1.7), also after `forget --now`
 * moved the clock past the newest observation.
 *
 * The history: skill-stack goals; Tidy.Wipe at 10:00 on 2024-09-23 is left
 * open by the build. Default lifetimes: scene 1 h, event 3 h, goal 24 h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define H (3600 * US)
#define DAY (24 * H)
#define T10 (1727049600ll * US + 10 * H) /* 2024-09-23 10:00:00 */

typedef struct fx {
	char *dir;
	h2emv_mem *m;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->m = tu_mem_tmp("frontier", &f->dir);
	assert_non_null(f->m);
	h2emv_config cfg = H2EMV_CONFIG_INIT;
	cfg.profile = H2EMV_PROFILE_SKILL_STACK;
	assert_int_equal(h2emv_config_set(f->m, &cfg, NULL), H2EMV_OK);
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

static void step(h2emv_mem *m, int64_t t, const char *goal, const char *action, int i)
{
	tu_ingestf(m,
	           "{\"t\":%lld,\"action\":{\"name\":\"%s\",\"args\":{\"object\":\"cup_%d\"},"
	           "\"status\":\"succeeded\"},\"goal\":\"%s\",\"location\":\"kitchen\"}",
	           (long long)t, action, i, goal);
}

static void reopen(fx *f)
{
	h2emv_mem_close(f->m);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_NOSYNC;
	assert_int_equal(h2emv_mem_open(&f->m, f->dir, &o, NULL), H2EMV_OK);
}

static void build(h2emv_mem *m)
{
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
}

static void forget(h2emv_mem *m, int64_t now)
{
	h2emv_error err = { 0 };
	if (h2emv_forget(NULL, m, now, &err))
		fail_msg("forget: %s", err.message);
}

static void healthy(h2emv_mem *m)
{
	uint64_t n = 1;
	assert_int_equal(h2emv_check(&n, m, NULL, NULL), 0);
	assert_int_equal(n, 0);
}

/* The right edge of the newest snapshot: out[0] = root, out[k] = the last
 * child of out[k-1]. */
typedef struct edge {
	h2emv_snap *s;
	const h2emv_node *n[16];
	int len;
} edge;

static void load_edge(edge *e, h2emv_mem *m)
{
	memset(e, 0, sizeof *e);
	assert_int_equal(h2emv_snap_open(&e->s, m, 0, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&e->n[0], e->s, NULL), H2EMV_OK);
	e->len = 1;
	while (e->len < 16 && h2emv_node_child_count(e->n[e->len - 1])) {
		const h2emv_node *p = e->n[e->len - 1];
		assert_int_equal(h2emv_node_child(&e->n[e->len], e->s, p,
		                                  h2emv_node_child_count(p) - 1, NULL),
		                 H2EMV_OK);
		e->len++;
	}
}

/* The open chain under the root: goal Tidy, goal Tidy.<inner>, an event, a
 * scene starting at `t`. */
static void assert_open_chain(h2emv_mem *m, const char *inner, int64_t t)
{
	edge e;
	load_edge(&e, m);
	assert_int_equal(e.len, 5); /* root, goal, nested goal, event, scene */
	assert_int_equal(h2emv_node_kind(e.n[1]), H2EMV_KIND_GOAL);
	assert_int_equal(h2emv_node_kind(e.n[2]), H2EMV_KIND_GOAL);
	assert_non_null(strstr(h2emv_node_summary(e.n[2], NULL), inner));
	assert_int_equal(h2emv_node_kind(e.n[3]), H2EMV_KIND_EVENT);
	assert_int_equal(h2emv_node_kind(e.n[4]), H2EMV_KIND_SCENE);
	assert_int_equal(h2emv_node_start(e.n[4]), t);
	h2emv_snap_close(e.s);
}

/* The matrix test's crash: after forgetting a month on, two observations
 * dated before the clock. They open goals; placed at their own (early)
 * time those were already expired, and the pass after the first one freed
 * them while the segmenter still held them (a use after free). */
static void test_late_observations_after_forget_build_at_the_clock(void **state)
{
	fx *f = *state;
	step(f->m, T10, "Tidy.Wipe", "Wipe", 0);
	build(f->m);
	forget(f->m, T10 + 30 * DAY);
	reopen(f); /* as the CLI's next command: the handle reads the new clock */
	char l1[256], l2[256];
	const char *lines[2] = { l1, l2 };
	size_t len[2];
	for (int i = 0; i < 2; i++)
		len[i] = (size_t)snprintf(i ? l2 : l1, sizeof l1,
		                          "{\"t\":%lld,\"action\":\"Pickup(cup_%d)\","
		                          "\"goal\":\"Tidy.Pickup\"}",
		                          (long long)(T10 + 23 * H + i * 60 * US), i + 1);
	h2emv_ingest_result r = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_ingest_opts(&r, f->m, lines, len, 2, NULL, &err), H2EMV_OK);
	assert_int_equal(r.out_of_order, 2);
	build(f->m);
	/* both at the clock's time (they keep their order: one scene after the
	 * other, in one event of the still open goals) */
	assert_open_chain(f->m, "Goal: Tidy.Pickup", T10 + 30 * DAY);
	healthy(f->m);
}

/* `forget` far past the open goal's τ leaves the goal, its event and the
 * newest scene as they were: they are not closed yet. */
static void test_forget_leaves_the_open_goals_and_event(void **state)
{
	fx *f = *state;
	step(f->m, T10, "Tidy.Wipe", "Wipe", 0);
	step(f->m, T10 + 60 * US, "Tidy.Wipe", "Wipe", 0);
	build(f->m);
	forget(f->m, T10 + 30 * DAY);
	assert_open_chain(f->m, "Goal: Tidy.Wipe", T10 + 60 * US);
	healthy(f->m);
	/* the next observation, at the clock, closes them after the pause;
	 * closed, they are forgotten like any other */
	step(f->m, T10 + 30 * DAY + 60 * US, "Tidy.Pickup", "Pickup", 1);
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_build(&r, f->m, NULL, &err), H2EMV_OK);
	assert_true(r.nodes_forgotten >= 1); /* what held the closed goals */
	assert_open_chain(f->m, "Goal: Tidy.Pickup", T10 + 30 * DAY + 60 * US);
	healthy(f->m);
}

/* A preview at a month on forgets nothing of what is open either. */
static void test_a_preview_spares_the_open_frontier(void **state)
{
	fx *f = *state;
	step(f->m, T10, "Tidy.Wipe", "Wipe", 0);
	build(f->m);
	h2emv_build_result p = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_forget_preview(&p, f->m, T10 + 30 * DAY, NULL, NULL, &err),
	                 H2EMV_OK);
	assert_int_equal(p.nodes_forgotten, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_late_observations_after_forget_build_at_the_clock),
		T(test_forget_leaves_the_open_goals_and_event),
		T(test_a_preview_spares_the_open_frontier),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
