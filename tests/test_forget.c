/*
 * test_forget.c — forgetting, with hand-computed times for every rule
 * (DESIGN §6): τ at creation, the top-down pass, α from the policy (and
 * its cache), inf, placeholders, merging, parents' τ, the root.
 *
 * The history: one Pickup of a knife at 10:00:00 on 2024-09-23 (it closes a
 * goal), so the tree is scene S, event E, goal G, summaries L4..L7, root.
 * Default lifetimes: scene 1 h, event 3 h, goal 24 h, L4+ 3 days × 2^(ℓ−3).
 * The tree is: scene S, event E, goal G, summaries L4..L8, root.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/builder/build.h" /* relcache_encode, relcache_decode */
#include "api/mem/mem.h"
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

static void obs(h2emv_mem *m, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	h2emv_error err = { 0 };
	if (h2emv_ingest(NULL, m, line, strlen(line), &err))
		fail_msg("%s", err.message);
}

static void pickup(h2emv_mem *m, int64_t t)
{
	obs(m, "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"knife_0\"},"
	       "\"status\":\"succeeded\"},\"location\":\"kitchen\",\"objects\":[{\"id\":\"knife_0\","
	       "\"type\":\"knife\"}]}",
	    (long long)t);
}

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->dir = tu_tmpdir("forget");
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE;
	assert_int_equal(h2emv_mem_open(&f->m, f->dir, &o, NULL), H2EMV_OK);
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
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
}

static h2emv_build_result forget(h2emv_mem *m, int64_t now)
{
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	if (h2emv_forget(&r, m, now, &err))
		fail_msg("forget: %s", err.message);
	return r;
}

/* The chain root → L7 → ... → L4 → G → E → S of the newest snapshot:
 * out[0] = root, out[k] = the last child of out[k-1]. */
typedef struct chain {
	h2emv_snap *s;
	const h2emv_node *n[16];
	int len;
} chain;

static void load_chain(chain *c, h2emv_mem *m)
{
	memset(c, 0, sizeof *c);
	assert_int_equal(h2emv_snap_open(&c->s, m, 0, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&c->n[0], c->s, NULL), H2EMV_OK);
	c->len = 1;
	while (h2emv_node_child_count(c->n[c->len - 1]) && c->len < 16) {
		const h2emv_node *p = c->n[c->len - 1];
		assert_int_equal(h2emv_node_child(&c->n[c->len], c->s, p, h2emv_node_child_count(p) - 1, NULL), 0);
		c->len++;
	}
}

/* The node at `level` on the chain (NULL if none). */
static const h2emv_node *at(const chain *c, int level)
{
	for (int i = 0; i < c->len; i++)
		if (h2emv_node_level(c->n[i]) == level)
			return c->n[i];
	return NULL;
}

static void test_expiry_at_creation_is_end_plus_lifetime(void **state)
{
	fx *f = *state;
	pickup(f->m, T10);
	build(f->m);
	chain c;
	load_chain(&c, f->m);
	assert_int_equal(c.len, 9); /* root, L8, L7, L6, L5, L4, goal, event, scene */
	assert_int_equal(h2emv_node_expiry(at(&c, 1)), T10 + 1 * H);
	assert_int_equal(h2emv_node_expiry(at(&c, 2)), T10 + 3 * H);
	assert_int_equal(h2emv_node_expiry(at(&c, 3)), T10 + 24 * H);
	assert_int_equal(h2emv_node_expiry(at(&c, 4)), T10 + 6 * DAY);  /* 3 d × 2 */
	assert_int_equal(h2emv_node_expiry(at(&c, 5)), T10 + 12 * DAY); /* 3 d × 4 */
	assert_int_equal(h2emv_node_expiry(at(&c, 6)), T10 + 24 * DAY);
	assert_int_equal(h2emv_node_expiry(at(&c, 7)), T10 + 48 * DAY);
	assert_int_equal(h2emv_node_expiry(at(&c, 8)), T10 + 96 * DAY);
	assert_int_equal(h2emv_node_expiry(c.n[0]), H2EMV_TIME_NEVER);
	h2emv_snap_close(c.s);
}

static void test_an_expired_scene_becomes_a_placeholder(void **state)
{
	fx *f = *state;
	pickup(f->m, T10);
	build(f->m);
	forget(f->m, T10 + 1 * H - 1); /* not yet: τ = 11:00:00 */
	chain c;
	load_chain(&c, f->m);
	assert_int_equal(h2emv_node_kind(at(&c, 1)), H2EMV_KIND_SCENE);
	h2emv_snap_close(c.s);
	h2emv_build_result r = forget(f->m, T10 + 1 * H + 1);
	assert_int_equal(r.nodes_forgotten, 1);
	load_chain(&c, f->m);
	const h2emv_node *s = at(&c, 1);
	assert_int_equal(h2emv_node_kind(s), H2EMV_KIND_FORGOTTEN);
	assert_int_equal(h2emv_node_start(s), T10);
	assert_int_equal(h2emv_node_end(s), T10);
	assert_string_equal(h2emv_node_summary(s, NULL), "Action: Pickup(object=knife_0) succeeded");
	assert_int_equal(h2emv_node_child_count(s), 0);
	assert_int_equal(h2emv_node_kind(at(&c, 2)), H2EMV_KIND_EVENT);
	h2emv_snap_close(c.s);
}

static void test_levels_expire_in_order_and_the_root_never(void **state)
{
	fx *f = *state;
	pickup(f->m, T10);
	build(f->m);
	forget(f->m, T10 + 3 * H + 1);
	chain c;
	load_chain(&c, f->m);
	/* the event went (and took its placeholder child with it) */
	assert_int_equal(h2emv_node_kind(at(&c, 2)), H2EMV_KIND_FORGOTTEN);
	assert_int_equal(h2emv_node_child_count(at(&c, 2)), 0);
	assert_int_equal(h2emv_node_kind(at(&c, 3)), H2EMV_KIND_GOAL);
	h2emv_snap_close(c.s);
	forget(f->m, T10 + 24 * H + 1);
	load_chain(&c, f->m);
	assert_int_equal(h2emv_node_kind(at(&c, 3)), H2EMV_KIND_FORGOTTEN);
	assert_string_equal(h2emv_node_summary(at(&c, 3), NULL), "Goal: Pickup(object=knife_0)");
	assert_int_equal(h2emv_node_kind(at(&c, 4)), H2EMV_KIND_SUMMARY);
	h2emv_snap_close(c.s);
	forget(f->m, T10 + 365 * DAY);
	load_chain(&c, f->m);
	assert_int_equal(c.len, 2);
	assert_int_equal(h2emv_node_kind(c.n[0]), H2EMV_KIND_ROOT);
	assert_int_equal(h2emv_node_kind(c.n[1]), H2EMV_KIND_FORGOTTEN);
	assert_int_equal(h2emv_node_level(c.n[1]), 8);
	h2emv_snap_close(c.s);
	uint64_t n = 1;
	assert_int_equal(h2emv_check(&n, f->m, NULL, NULL), 0);
	assert_int_equal(n, 0);
}

static void test_a_rule_keeps_a_node_forever_and_its_parents_follow(void **state)
{
	fx *f = *state;
	h2emv_rules *r = NULL;
	assert_int_equal(h2emv_feedback(&r, f->m, "You should always remember where you put the knife.",
	                                 NULL),
	                 H2EMV_OK);
	h2emv_rules_free(r);
	pickup(f->m, T10);
	build(f->m);
	forget(f->m, T10 + 30 * DAY);
	chain c;
	load_chain(&c, f->m);
	const h2emv_node *g = at(&c, 3);
	assert_non_null(g);
	assert_int_equal(h2emv_node_kind(g), H2EMV_KIND_GOAL);
	assert_int_equal(h2emv_node_expiry(g), H2EMV_TIME_NEVER);
	/* a parent's τ is the max of its own and its children's */
	for (int l = 4; l <= 8; l++)
		assert_int_equal(h2emv_node_expiry(at(&c, l)), H2EMV_TIME_NEVER);
	h2emv_snap_close(c.s);
}

/* A policy whose relevance says α = 2 and counts its calls. */
static int alpha_calls;
static int alpha_two(void *ctx, const pol_relevance_req *req, double *alpha, pol_usage *u,
                     h2emv_error *err)
{
	(void)ctx, (void)req, (void)u, (void)err;
	alpha_calls++;
	*alpha = 2;
	return H2EMV_OK;
}

static void test_alpha_extends_by_alpha_lifetimes_and_is_cached(void **state)
{
	fx *f = *state;
	f->m->policy->relevance = alpha_two;
	alpha_calls = 0;
	pickup(f->m, T10);
	build(f->m);
	forget(f->m, T10 + 1 * H + 1); /* scene: τ = 11:00 + 2 × 1 h = 13:00 */
	chain c;
	load_chain(&c, f->m);
	assert_int_equal(h2emv_node_kind(at(&c, 1)), H2EMV_KIND_SCENE);
	assert_int_equal(h2emv_node_expiry(at(&c, 1)), T10 + 3 * H);
	assert_int_equal(alpha_calls, 1);
	h2emv_snap_close(c.s);
	/* at 13:00:01 the scene is due again: same content, same rules: the
	 * cache answers; the event (τ 13:00) is asked once: 13:00 + 2 × 3 h */
	forget(f->m, T10 + 3 * H + 1);
	load_chain(&c, f->m);
	assert_int_equal(h2emv_node_expiry(at(&c, 1)), T10 + 5 * H);
	assert_int_equal(h2emv_node_expiry(at(&c, 2)), T10 + 9 * H);
	assert_int_equal(alpha_calls, 2);
	h2emv_snap_close(c.s);
}

static void test_adjacent_placeholders_merge(void **state)
{
	fx *f = *state;
	/* three looks (one event: same action, same objects), then a pickup */
	for (int i = 0; i < 3; i++)
		obs(f->m, "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":\"running\"},"
		          "\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}",
		    (long long)(T10 + i * 10 * US));
	pickup(f->m, T10 + 40 * US);
	build(f->m);
	forget(f->m, T10 + 1 * H + 41 * US); /* every scene is due; the events are not */
	chain c;
	load_chain(&c, f->m);
	const h2emv_node *g = at(&c, 3);
	assert_int_equal(h2emv_node_child_count(g), 2);
	const h2emv_node *look;
	assert_int_equal(h2emv_node_child(&look, c.s, g, 0, NULL), 0);
	assert_int_equal(h2emv_node_child_count(look), 1); /* three placeholders, merged */
	const h2emv_node *ph;
	assert_int_equal(h2emv_node_child(&ph, c.s, look, 0, NULL), 0);
	assert_int_equal(h2emv_node_kind(ph), H2EMV_KIND_FORGOTTEN);
	assert_int_equal(h2emv_node_start(ph), T10);
	assert_int_equal(h2emv_node_end(ph), T10 + 20 * US);
	assert_string_equal(h2emv_node_summary(ph, NULL),
	                    "Action: LookAround() running; Action: LookAround() running; "
	                    "Action: LookAround() running");
	h2emv_snap_close(c.s);
}

static void test_forgetting_by_time_only_never_asks_the_policy(void **state)
{
	fx *f = *state;
	h2emv_config cfg = H2EMV_CONFIG_INIT;
	cfg.forgetting = H2EMV_FORGET_TIME;
	assert_int_equal(h2emv_config_set(f->m, &cfg, NULL), 0);
	f->m->policy->relevance = alpha_two;
	alpha_calls = 0;
	pickup(f->m, T10);
	build(f->m);
	h2emv_build_result r = forget(f->m, T10 + 25 * H);
	assert_int_equal(alpha_calls, 0);
	assert_int_equal(r.nodes_forgotten, 1); /* the goal, with its subtree */
}

static void test_no_forgetting_keeps_everything(void **state)
{
	fx *f = *state;
	h2emv_config cfg = H2EMV_CONFIG_INIT;
	cfg.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(f->m, &cfg, NULL), 0);
	pickup(f->m, T10);
	build(f->m);
	h2emv_build_result r = forget(f->m, T10 + 365 * DAY);
	assert_int_equal(r.nodes_forgotten, 0);
	chain c;
	load_chain(&c, f->m);
	assert_int_equal(h2emv_node_expiry(at(&c, 1)), H2EMV_TIME_NEVER);
	h2emv_snap_close(c.s);
}

static void test_forgetting_yields_to_waiting_observations(void **state)
{
	fx *f = *state;
	for (int i = 0; i < 150; i++)
		pickup(f->m, T10 + i * 60 * US);
	build(f->m);
	pickup(f->m, T10 + 200 * 60 * US); /* waiting, not yet built */
	h2emv_build_result r = forget(f->m, T10 + 30 * DAY);
	assert_true(r.nodes_forgotten > 0);   /* progress was made... */
	assert_true(r.nodes_forgotten < 150); /* ...and it stopped for the new observation */
	h2emv_snap_info info;
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, f->m, 0, NULL), 0);
	h2emv_snap_get_info(&info, s);
	h2emv_snap_close(s);
	assert_int_equal(info.build_cursor, 150); /* committed, the new one not folded */
	uint64_t n = 1;
	assert_int_equal(h2emv_check(&n, f->m, NULL, NULL), 0);
	assert_int_equal(n, 0);
}

typedef struct seen_list {
	int n, levels[32];
	uint64_t ids[32];
} seen_list;

static void on_forgotten(void *ctx, const h2emv_forgotten *f)
{
	seen_list *l = ctx;
	if (l->n < 32) {
		l->levels[l->n] = f->level;
		l->ids[l->n++] = f->node.id;
	}
}

static void test_a_preview_forgets_what_forget_would_and_changes_nothing(void **state)
{
	fx *f = *state;
	pickup(f->m, T10);
	build(f->m);
	h2emv_snap_info *before;
	size_t nb;
	assert_int_equal(h2emv_snap_list(&before, &nb, f->m, NULL), H2EMV_OK);
	/* 30 hours on: the scene, the event and the goal have expired */
	seen_list l = { 0 };
	h2emv_build_result p = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_forget_preview(&p, f->m, T10 + 30 * H, on_forgotten, &l, &err),
	                 H2EMV_OK);
	assert_true(p.nodes_forgotten >= 1);
	assert_int_equal((uint64_t)l.n, p.nodes_forgotten);
	/* nothing changed: the same snapshots, the same clock */
	h2emv_snap_info *after;
	size_t na;
	assert_int_equal(h2emv_snap_list(&after, &na, f->m, NULL), H2EMV_OK);
	assert_int_equal(na, nb);
	assert_int_equal(after[na - 1].seq, before[nb - 1].seq);
	assert_int_equal(after[na - 1].t_now, before[nb - 1].t_now);
	h2emv_free(after);
	h2emv_free(before);
	chain c;
	load_chain(&c, f->m);
	assert_int_equal(h2emv_node_kind(at(&c, 1)), H2EMV_KIND_SCENE);
	h2emv_snap_close(c.s);
	/* the real pass forgets exactly as many */
	h2emv_build_result r = forget(f->m, T10 + 30 * H);
	assert_int_equal(r.nodes_forgotten, p.nodes_forgotten);
	assert_int_equal(r.tree_size, p.tree_size);
}

/* A relevance cache entry reads back in both layouts it was ever stored in
 * (α alone; [α, last]), and anything else is ECORRUPT. */
static void test_relcache_entries_of_every_layout_read_back(void **state)
{
	(void)state;
	double a = 0;
	int64_t last = 7;
	/* α = 2.5 alone, as the first format stored it */
	static const uint8_t alone[] = { 0xcb, 0x40, 0x04, 0, 0, 0, 0, 0, 0 };
	assert_int_equal(relcache_decode(&a, &last, alone, sizeof alone), H2EMV_OK);
	assert_true(a == 2.5 && last == 0);
	eng_buf b = { 0 };
	assert_int_equal(relcache_encode(&b, 0.75, -12345678901ll), H2EMV_OK);
	assert_int_equal(b.len, 19); /* [float64, int64], fixed width */
	assert_int_equal(relcache_decode(&a, &last, b.data, b.len), H2EMV_OK);
	assert_true(a == 0.75 && last == -12345678901ll);
	b.len = 0;
	assert_int_equal(relcache_encode(&b, 1.0, 42), H2EMV_OK);
	assert_int_equal(relcache_decode(&a, &last, b.data, b.len), H2EMV_OK);
	assert_true(a == 1.0 && last == 42);
	static const struct {
		const char *bytes;
		size_t n;
	} bad[] = {
		{ "", 0 },
		{ "\x01", 1 },                                  /* an int for alpha */
		{ "\x92\x01\x01", 3 },                          /* alpha not a float */
		{ "\x91\xcb\x40\x04\0\0\0\0\0\0", 10 },         /* one field */
		{ "\x92\xcb\x40\x04\0\0\0\0\0\0\xa1x", 12 },   /* last a string */
		{ "\xcb\x40\x04\0\0", 5 },                        /* truncated */
		{ "\xcb\x40\x04\0\0\0\0\0\0\x00", 10 },         /* trailing */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (relcache_decode(&a, &last, bad[i].bytes, bad[i].n) != H2EMV_ECORRUPT)
			fail_msg("case %zu: not ECORRUPT", i);
	eng_buf_free(&b);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_expiry_at_creation_is_end_plus_lifetime),
		T(test_an_expired_scene_becomes_a_placeholder),
		T(test_levels_expire_in_order_and_the_root_never),
		T(test_a_rule_keeps_a_node_forever_and_its_parents_follow),
		T(test_alpha_extends_by_alpha_lifetimes_and_is_cached),
		T(test_adjacent_placeholders_merge),
		T(test_forgetting_by_time_only_never_asks_the_policy),
		T(test_no_forgetting_keeps_everything),
		T(test_forgetting_yields_to_waiting_observations),
		T(test_a_preview_forgets_what_forget_would_and_changes_nothing),
		cmocka_unit_test(test_relcache_entries_of_every_layout_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
