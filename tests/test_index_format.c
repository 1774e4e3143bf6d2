/*
 * test_index_format.c — the layout of the term index's ixnode entries
 * (docs/index.md, engine/index.c): each term's first time as a short
 * distance from the entry's base, exact for any time; an index of the
 * older layout (eight bytes a time) is not read, emptied by the next
 * commit and rebuilt by the build after it or by h2emv upgrade; a
 * malformed entry is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/mem/mem.h"
#include "api/recall/recall_index.h"
#include "engine/env.h"
#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define T0 1767571200ll * US /* 2026-01-05 00:00:00 UTC, a Monday */

typedef struct fx {
	char *dir;
	h2emv_mem *m;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f || !(f->m = tu_mem_tmp("ixformat", &f->dir)))
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

static void forgetting_off(h2emv_mem *m)
{
	h2emv_config c;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
}

static char *answer(h2emv_mem *m, const char *q)
{
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	h2emv_answer *a = NULL;
	h2emv_error err = { 0 };
	if (h2emv_ask(&a, m, q, &o, &err))
		fail_msg("ask: %s", err.message);
	char *s = strdup(a->text);
	h2emv_answer_free(a);
	return s;
}

static int ready(h2emv_mem *m)
{
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, m->env, NULL), H2EMV_OK);
	int ok = eng_index_ready(r);
	eng_read_end(r);
	return ok;
}

static uint64_t violations(h2emv_mem *m)
{
	uint64_t n = 1;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_check(&n, m, NULL, &err), H2EMV_OK);
	return n;
}

/* Every entry rewritten as format 1 wrote it (head, then term and first
 * time in eight bytes each), and the marker of format 1 (zeros). */
static int to_format_1(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)env;
	(void)ctx;
	MDB_dbi post, node;
	MDB_cursor *cur;
	MDB_val k, v;
	assert_int_equal(ix_dbis(&post, &node, txn, 0, err), H2EMV_OK);
	assert_int_equal(mdb_cursor_open(txn, node, &cur), 0);
	size_t n = 0, cap = 0;
	uint8_t(*keys)[12] = NULL, **vals = NULL;
	size_t *lens = NULL;
	for (int op = MDB_FIRST; mdb_cursor_get(cur, &k, &v, op) == 0; op = MDB_NEXT) {
		static const uint8_t zero[12];
		if (!memcmp(k.mv_data, zero, 12))
			continue;
		uint8_t *t;
		uint32_t nt;
		assert_int_equal(ix_entry_keys(&t, &nt, v.mv_data, v.mv_size), H2EMV_OK);
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			keys = realloc(keys, cap * sizeof *keys);
			vals = realloc(vals, cap * sizeof *vals);
			lens = realloc(lens, cap * sizeof *lens);
			assert_true(keys && vals && lens);
		}
		memcpy(keys[n], k.mv_data, 12);
		lens[n] = 20 + (size_t)nt * 16;
		assert_non_null(vals[n] = malloc(lens[n]));
		memcpy(vals[n], v.mv_data, 20);
		if (nt)
			memcpy(vals[n] + 20, t, (size_t)nt * 16);
		free(t);
		n++;
	}
	mdb_cursor_close(cur);
	for (size_t i = 0; i < n; i++) {
		MDB_val kk = { 12, keys[i] }, vv = { lens[i], vals[i] };
		assert_int_equal(mdb_put(txn, node, &kk, &vv, 0), 0);
		free(vals[i]);
	}
	uint8_t zero[20] = { 0 };
	MDB_val mk = { 12, zero }, mv = { 20, zero };
	assert_int_equal(mdb_put(txn, node, &mk, &mv, 0), 0);
	free(keys);
	free(vals);
	free(lens);
	return H2EMV_OK;
}

/* A memory whose index an older h2emv wrote: questions read the tree (the
 * index is not misread), the next commit empties it, and the build after
 * rebuilds it, checked against the facts. */
static void test_an_older_layout_is_rebuilt(void **state)
{
	fx *f = *state;
	forgetting_off(f->m);
	for (int d = 0; d < 6; d++)
		tu_chores(f->m, T0, d);
	build(f->m);
	assert_true(ready(f->m));
	char *before = answer(f->m, "How many times did you pick up the cup?");
	assert_int_equal(env_write(f->m->env, to_format_1, NULL, NULL), H2EMV_OK);
	assert_false(ready(f->m));
	assert_int_equal(violations(f->m), 0);
	char *walked = answer(f->m, "How many times did you pick up the cup?");
	assert_string_equal(walked, before);
	tu_chores(f->m, T0, 6);
	build(f->m);
	assert_true(ready(f->m));
	assert_int_equal(violations(f->m), 0);
	char *after = answer(f->m, "How many times did you pick up the cup?");
	assert_non_null(strstr(after, "7 times"));
	free(before);
	free(walked);
	free(after);
}

/* h2emv upgrade of a memory whose index is of the older format builds it
 * again (a tree that needs no facts derived otherwise). */
static void test_upgrade_rebuilds_an_older_layout(void **state)
{
	fx *f = *state;
	forgetting_off(f->m);
	for (int d = 0; d < 4; d++)
		tu_chores(f->m, T0, d);
	build(f->m);
	char *before = answer(f->m, "How many times did you pick up the cup?");
	assert_int_equal(env_write(f->m->env, to_format_1, NULL, NULL), H2EMV_OK);
	assert_false(ready(f->m));
	h2emv_upgrade_options o = { .version = H2EMV_UPGRADE_OPTIONS_VERSION };
	h2emv_upgrade_result r;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_upgrade(&r, f->m, &o, &err), H2EMV_OK);
	assert_true(ready(f->m));
	assert_int_equal(violations(f->m), 0);
	char *after = answer(f->m, "How many times did you pick up the cup?");
	assert_string_equal(after, before);
	free(before);
	free(after);
}

/* An extractor whose first times lie at the ends of the clock: the entry
 * gives each back exactly (check finds every posting through it). */
static const int64_t far[] = { INT64_MIN, INT64_MAX, -1, 0, 1, INT64_MIN + 1, T0 };

static int far_times(eng_posting **out, size_t *n, const eng_node *node, void *ctx)
{
	int rc = ridx_postings(out, n, node, ctx);
	for (size_t i = 0; rc == H2EMV_OK && i < *n; i++)
		(*out)[i].t_first = far[(i + node->id) % (sizeof far / sizeof far[0])];
	return rc;
}

static void test_any_time_round_trips(void **state)
{
	fx *f = *state;
	eng_index_set_fn(f->m->env, far_times, NULL);
	for (int d = 0; d < 3; d++)
		tu_chores(f->m, T0, d);
	build(f->m);
	assert_true(ready(f->m));
	assert_int_equal(violations(f->m), 0);
	eng_index_set_fn(f->m->env, ridx_postings, NULL);
}

static void test_a_malformed_entry_is_refused(void **state)
{
	(void)state;
	uint8_t e[64] = { 0 };
	uint8_t *k;
	uint32_t n;
	assert_int_equal(ix_entry_keys(&k, &n, e, 20), H2EMV_OK); /* no terms */
	assert_int_equal(n, 0);
	e[19] = 1; /* one term */
	assert_int_equal(ix_entry_keys(&k, &n, e, 20), H2EMV_ECORRUPT);
	assert_int_equal(ix_entry_keys(&k, &n, e, 36), H2EMV_ECORRUPT); /* no distance */
	assert_int_equal(ix_entry_keys(&k, &n, e, 37), H2EMV_OK);
	assert_int_equal(n, 1);
	free(k);
	assert_int_equal(ix_entry_keys(&k, &n, e, 38), H2EMV_ECORRUPT); /* a byte too many */
	memset(e + 36, 0xff, 12); /* a distance that never ends */
	assert_int_equal(ix_entry_keys(&k, &n, e, 48), H2EMV_ECORRUPT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_an_older_layout_is_rebuilt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upgrade_rebuilds_an_older_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_any_time_round_trips, setup, teardown),
		cmocka_unit_test(test_a_malformed_entry_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
