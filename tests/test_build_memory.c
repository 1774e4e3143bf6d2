/*
 * test_build_memory.c — the builder holds the open frontier, not the
 * history: what a builder has in memory when it starts, the tree size it
 * keeps as a count, and trees built with many commits (each letting go of
 * what it committed, read back when needed) against one commit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/builder/build.h"
#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define DAY (86400ll * US)
#define T0 (1727049600ll * US) /* 2024-09-23T00:00:00Z */

static h2emv_mem *open_mem(const char *dir, int forgetting, int skill_stack)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	if (h2emv_mem_open(&m, dir, &o, &err))
		fail_msg("open %s: %s", dir, err.message);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = forgetting;
	if (skill_stack)
		c.profile = H2EMV_PROFILE_SKILL_STACK;
	if (h2emv_config_set(m, &c, &err))
		fail_msg("config: %s", err.message);
	return m;
}

static void ingest(h2emv_mem *m, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	h2emv_error err = { 0 };
	if (h2emv_ingest(NULL, m, line, strlen(line), &err))
		fail_msg("ingest %s: %s", line, err.message);
}

/* `days` of two sessions of pick-and-place tasks; with `stack`, each task
 * is a nested goal stack (Tidy.Fetch.Pickup, Tidy.Fetch.Place). */
static void days(h2emv_mem *m, int n, int stack)
{
	static const char *objs[] = { "knife", "cup", "plate", "apple", "keys", "wallet" };
	static const char *dests[] = { "countertop", "sink", "table", "shelf" };
	for (int d = 0; d < n; d++)
		for (int s = 0; s < 2; s++) {
			int64_t t = T0 + d * DAY + (8 + 9 * s) * 3600 * US;
			for (int k = 0; k < 5; k++) {
				const char *o = objs[(d + s + k) % 6], *to = dests[(d * 3 + k) % 4];
				t += 20 * US;
				ingest(m, "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":"
				          "\"%s_0\"},\"status\":\"succeeded\"}%s,\"objects\":[{\"id\":\"%s_0\","
				          "\"type\":\"%s\"}]}",
				       (long long)t, o, stack ? ",\"goal\":\"Tidy.Fetch.Pickup\"" : "", o, o);
				t += 5 * US;
				ingest(m, "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":"
				          "\"%s_0\",\"target\":\"%s_0\"},\"status\":\"succeeded\"}%s,"
				          "\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}]}",
				       (long long)t, o, to, stack ? ",\"goal\":\"Tidy.Fetch.Place\"" : "", o, o);
			}
		}
}

static h2emv_build_result build(h2emv_mem *m, uint64_t every)
{
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	o.commit_every = every;
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	if (h2emv_build(&r, m, &o, &err))
		fail_msg("build: %s", err.message);
	return r;
}

/* Every node of the newest snapshot, and the paper's size N of it: nodes
 * at level >= 3 but the root and goals inside goals. */
static void count(h2emv_snap *s, const h2emv_node *n, int parent_level, uint64_t *all,
                  uint64_t *l3)
{
	int level = h2emv_node_level(n);
	(*all)++;
	if (level >= 3 && h2emv_node_kind(n) != H2EMV_KIND_ROOT && parent_level > 3)
		(*l3)++;
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		assert_int_equal(h2emv_node_child(&c, s, n, i, NULL), H2EMV_OK);
		count(s, c, level, all, l3);
	}
}

static void sizes(h2emv_mem *m, uint64_t *all, uint64_t *l3, uint64_t *stored_n)
{
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	*all = *l3 = 0;
	count(s, root, 99, all, l3);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, s);
	*stored_n = info.n_nodes;
	h2emv_snap_close(s);
}

static void dump_node(FILE *f, h2emv_snap *s, const h2emv_node *n, int depth)
{
	fprintf(f, "%*s%llu L%d k%d %lld-%lld exp %lld: %s\n", depth * 2, "",
	        (unsigned long long)h2emv_node_ref(n).id, h2emv_node_level(n), h2emv_node_kind(n),
	        (long long)h2emv_node_start(n), (long long)h2emv_node_end(n),
	        (long long)h2emv_node_expiry(n), h2emv_node_summary(n, NULL));
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		assert_int_equal(h2emv_node_child(&c, s, n, i, NULL), H2EMV_OK);
		dump_node(f, s, c, depth + 1);
	}
}

static char *dump(h2emv_mem *m)
{
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	dump_node(f, s, root, 0);
	fclose(f);
	h2emv_snap_close(s);
	return buf;
}

static void assert_check_clean(h2emv_mem *m)
{
	uint64_t n = 99;
	assert_int_equal(h2emv_check(&n, m, NULL, NULL), H2EMV_OK);
	assert_int_equal(n, 0);
}

/* ---------------------------------------------------------------- tests -- */

static void test_a_builder_starts_with_the_frontier_not_the_tree(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("bmem");
	h2emv_mem *m = open_mem(dir, H2EMV_FORGET_NONE, 0);
	days(m, 12, 0);
	build(m, 0);
	uint64_t all, l3, stored;
	sizes(m, &all, &l3, &stored);
	builder b;
	h2emv_error err = { 0 };
	if (builder_open(&b, m, &err))
		fail_msg("builder_open: %s", err.message);
	/* the root and its children (a month or more each) and nothing below */
	uint64_t held = b.t.n_nodes, n = b.t.n_l3;
	builder_close(&b);
	if (held * 20 > all)
		fail_msg("a builder starts with %llu of the tree's %llu nodes in memory",
		         (unsigned long long)held, (unsigned long long)all);
	assert_int_equal(n, l3);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* Many small commits (each lets go of what it wrote; the next steps read
 * it back) give the tree one commit gives, and the size N it reports and
 * stores is the tree's. */
static void same_tree_either_way(int forgetting, int stack)
{
	char *a = tu_tmpdir("bmem"), *b = tu_tmpdir("bmem");
	h2emv_mem *ma = open_mem(a, forgetting, stack), *mb = open_mem(b, forgetting, stack);
	days(ma, 9, stack);
	days(mb, 9, stack);
	h2emv_build_result ra = build(ma, 100000), rb = build(mb, 3);
	char *da = dump(ma), *db = dump(mb);
	assert_string_equal(da, db);
	uint64_t all, l3, stored;
	sizes(mb, &all, &l3, &stored);
	assert_int_equal(rb.tree_size, l3);
	assert_int_equal(stored, l3);
	assert_int_equal(ra.tree_size, rb.tree_size);
	if (forgetting != H2EMV_FORGET_NONE) {
		/* a month later: whole goals and days go, read from the store */
		h2emv_build_result fa, fb;
		assert_int_equal(h2emv_forget(&fa, ma, T0 + 40 * DAY, NULL), H2EMV_OK);
		assert_int_equal(h2emv_forget(&fb, mb, T0 + 40 * DAY, NULL), H2EMV_OK);
		assert_true(fb.nodes_forgotten > 0);
		free(da);
		free(db);
		da = dump(ma);
		db = dump(mb);
		assert_string_equal(da, db);
		sizes(mb, &all, &l3, &stored);
		assert_int_equal(fb.tree_size, l3);
		assert_int_equal(stored, l3);
	}
	assert_check_clean(mb);
	free(da);
	free(db);
	h2emv_mem_close(ma);
	h2emv_mem_close(mb);
	tu_rmrf(a);
	tu_rmrf(b);
	free(a);
	free(b);
}

static void test_many_commits_give_the_same_tree_nothing_forgotten(void **state)
{
	(void)state;
	same_tree_either_way(H2EMV_FORGET_NONE, 0);
}

static void test_many_commits_give_the_same_tree_forgetting(void **state)
{
	(void)state;
	same_tree_either_way(H2EMV_FORGET_RELEVANCE, 0);
}

static void test_many_commits_give_the_same_tree_nested_goals(void **state)
{
	(void)state;
	same_tree_either_way(H2EMV_FORGET_TIME, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_builder_starts_with_the_frontier_not_the_tree),
		cmocka_unit_test(test_many_commits_give_the_same_tree_nothing_forgotten),
		cmocka_unit_test(test_many_commits_give_the_same_tree_forgetting),
		cmocka_unit_test(test_many_commits_give_the_same_tree_nested_goals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
