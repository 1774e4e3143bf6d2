/*
 * test_gc.c — garbage collection: snapshots outside the retention (newest
 * N, younger than an age, pinned) are dropped, and exactly the node
 * versions that no remaining snapshot can see are deleted, in bounded
 * batches. The expected outcome is computed from a model of every commit.
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

#include "api/mem/mem.h" /* the engine env behind a h2emv_mem: one LMDB env per process */
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* ------------------------------------------------------ a tree model -- */

/* A fixed-shape tree (root, goals, events, scenes) updated by path copying:
 * a changed leaf and its ancestors up to the root get new versions, each
 * replaced version listed dead. hist[s] keeps every node's version in
 * snapshot s, so what each snapshot sees is known exactly. */
#define MAXN 64
#define MAXS 400

typedef struct tmodel {
	int n;
	int level[MAXN], parent[MAXN], first[MAXN], nkids[MAXN];
	int64_t t0[MAXN], t1[MAXN];
	uint32_t ver[MAXN];
	uint64_t last_seq;
	int64_t force_now; /* the memory's clock of the next commit, if set */
	uint32_t hist[MAXS + 1][MAXN];
} tmodel;

static uint64_t rng_state = 0x13198A2E03707344ull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static int model_add(tmodel *m, int level, int parent)
{
	int i = m->n++;
	assert_true(m->n <= MAXN);
	m->level[i] = level;
	m->parent[i] = parent;
	if (parent >= 0 && m->nkids[parent]++ == 0)
		m->first[parent] = i;
	return i;
}

static void model_init(tmodel *m, int goals, int events, int scenes)
{
	memset(m, 0, sizeof *m);
	model_add(m, 5, -1);
	static const int levels[] = { 3, 2, 1 };
	const int fan[] = { goals, events, scenes };
	int lo = 0, hi = 1;
	for (int l = 0; l < 3; l++) {
		for (int p = lo; p < hi; p++)
			for (int k = 0; k < fan[l]; k++)
				model_add(m, levels[l], p);
		lo = hi;
		hi = m->n;
	}
	for (int i = lo, j = 0; i < hi; i++, j++) {
		m->t0[i] = 1719400000000000ll + j * 1000;
		m->t1[i] = m->t0[i] + 1000;
	}
	for (int i = lo - 1; i >= 0; i--) {
		m->t0[i] = m->t0[m->first[i]];
		m->t1[i] = m->t1[m->first[i] + m->nkids[i] - 1];
	}
}

static int model_leaf(const tmodel *m)
{
	for (;;) {
		int i = (int)(rnd() % (uint64_t)m->n);
		if (m->nkids[i] == 0)
			return i;
	}
}

typedef struct built {
	eng_node n;
	eng_ref kids[MAXN];
	char summary[96];
} built;

static void summary_of(char *out, size_t cap, int i, uint32_t ver)
{
	snprintf(out, cap, "node %d version %u\nsecond line", i + 1, ver);
}

static void build_node(built *b, const tmodel *m, int i, const uint32_t *vers)
{
	memset(&b->n, 0, sizeof b->n);
	b->n.id = (uint64_t)i + 1;
	b->n.version = vers[i];
	b->n.level = (uint8_t)m->level[i];
	b->n.kind = m->level[i] == 5 ? H2EMV_KIND_ROOT
	          : m->level[i] == 3 ? H2EMV_KIND_GOAL
	          : m->level[i] == 2 ? H2EMV_KIND_EVENT : H2EMV_KIND_SCENE;
	b->n.t_start = m->t0[i];
	b->n.t_end = m->t1[i];
	b->n.expiry = H2EMV_TIME_NEVER;
	summary_of(b->summary, sizeof b->summary, i, vers[i]);
	b->n.summary = b->summary;
	b->n.summary_len = strlen(b->summary);
	for (int k = 0; k < m->nkids[i]; k++) {
		int c = m->first[i] + k;
		b->kids[k] = (eng_ref){ (uint64_t)c + 1, vers[c] };
	}
	b->n.children = b->kids;
	b->n.n_children = (uint32_t)m->nkids[i];
}

/* Replace `leaves` and their ancestors (k < 0: the first commit). */
static void model_commit(tmodel *m, eng_env *env, const int *leaves, int k)
{
	uint8_t mark[MAXN] = { 0 };
	uint32_t nv[MAXN];
	built *b = calloc((size_t)m->n, sizeof *b);
	eng_node *ptrs[MAXN];
	eng_ref dead[MAXN];
	assert_non_null(b);
	for (int j = 0; k < 0 && j < m->n; j++)
		mark[j] = 1;
	for (int j = 0; j < k; j++)
		for (int i = leaves[j]; i >= 0; i = m->parent[i])
			mark[i] = 1;
	for (int i = 0; i < m->n; i++)
		nv[i] = mark[i] ? m->ver[i] + 1 : m->ver[i];
	size_t nn = 0, nd = 0, tree = 0;
	for (int i = 0; i < m->n; i++) {
		tree += m->level[i] >= 3;
		if (!mark[i])
			continue;
		build_node(&b[nn], m, i, nv);
		ptrs[nn] = &b[nn].n;
		nn++;
		if (m->ver[i])
			dead[nd++] = (eng_ref){ (uint64_t)i + 1, m->ver[i] };
	}
	eng_commit c = {
		.nodes = ptrs, .n_nodes = nn, .dead = dead, .n_dead = nd, .root = { 1, nv[0] },
		.t_now = m->force_now ? m->force_now : m->t1[0], .rules_version = 1, .n_nodes_tree = tree,
		.next_node_id = (uint64_t)m->n + 1,
	};
	uint64_t seq = 0;
	h2emv_error e = { 0 };
	int rc = eng_commit_snapshot(&seq, env, &c, &e);
	free(b);
	if (rc)
		fail_msg("commit: %d %s", rc, e.message);
	assert_int_equal(seq, m->last_seq + 1);
	assert_true(seq <= MAXS);
	m->last_seq = seq;
	memcpy(m->ver, nv, sizeof nv);
	memcpy(m->hist[seq], nv, sizeof nv);
}

static void model_commit_random(tmodel *m, eng_env *env)
{
	int leaves[3];
	int k = 1 + (int)(rnd() % 3);
	for (int j = 0; j < k; j++)
		leaves[j] = model_leaf(m);
	model_commit(m, env, leaves, k);
}

/* ------------------------------------------------------------ fixtures -- */

typedef struct fixture {
	char *dir;
	h2emv_mem *mem;
	eng_env *env;
	tmodel m;
} fixture;

static int fx_setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!(f->mem = tu_mem_tmp("gc", &f->dir)))
		return -1;
	f->env = f->mem->env;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	fixture *f = *state;
	h2emv_mem_close(f->mem);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* ------------------------------------------------------------ checking -- */

/* Walk snapshot `seq`'s whole tree through the API; every node must
 * resolve and be the version the model says. Returns the node count. */
static int walk(h2emv_snap *s, const h2emv_node *n, const uint32_t *vers, int depth)
{
	assert_true(depth < 8);
	h2emv_ref r = h2emv_node_ref(n);
	assert_true(r.id >= 1 && r.id <= MAXN);
	assert_int_equal(r.version, vers[r.id - 1]);
	char want[96];
	summary_of(want, sizeof want, (int)r.id - 1, r.version);
	assert_string_equal(h2emv_node_summary(n, NULL), want);
	int count = 1;
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		h2emv_error e = { 0 };
		int rc = h2emv_node_child(&c, s, n, i, &e);
		if (rc)
			fail_msg("node %llu v%u child %zu: %d %s", (unsigned long long)r.id, r.version, i, rc,
			         e.message);
		count += walk(s, c, vers, depth + 1);
	}
	return count;
}

static void assert_tree_intact(fixture *f, uint64_t seq)
{
	h2emv_snap *s;
	h2emv_error e = { 0 };
	int rc = h2emv_snap_open(&s, f->mem, seq, &e);
	if (rc)
		fail_msg("snapshot %llu: %d %s", (unsigned long long)seq, rc, e.message);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, s);
	assert_int_equal(info.seq, seq);
	assert_int_equal(info.root.version, f->m.hist[seq][0]);
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_root(&root, s, &e), H2EMV_OK);
	assert_int_equal(walk(s, root, f->m.hist[seq], 0), f->m.n);
	h2emv_snap_close(s);
}

static int version_stored(eng_read *r, int i, uint32_t v)
{
	eng_node *n = NULL;
	int rc = eng_node_get(&n, r, (eng_ref){ (uint64_t)i + 1, v }, NULL);
	free(n);
	if (rc != H2EMV_OK && rc != H2EMV_ENOTFOUND)
		fail_msg("node %d v%u: %d", i + 1, v, rc);
	return rc == H2EMV_OK;
}

/* The store holds exactly snapshots `kept` (ascending) and exactly the
 * node versions some of them see; every one of their trees is whole. */
static void assert_store_is(fixture *f, const uint64_t *kept, size_t nkept)
{
	h2emv_error e = { 0 };
	h2emv_snap_info *list;
	size_t n;
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	if (n != nkept)
		fail_msg("%zu snapshots stored, %zu expected", n, nkept);
	for (size_t i = 0; i < n; i++)
		if (list[i].seq != kept[i])
			fail_msg("snapshot #%zu is %llu, expected %llu", i, (unsigned long long)list[i].seq,
			         (unsigned long long)kept[i]);
	h2emv_free(list);

	/* expected versions: visible in some kept snapshot */
	static uint8_t want[MAXN][MAXS + 2];
	memset(want, 0, sizeof want);
	uint64_t n_want = 0, n_live = (uint64_t)f->m.n;
	for (size_t k = 0; k < nkept; k++)
		for (int i = 0; i < f->m.n; i++) {
			uint32_t v = f->m.hist[kept[k]][i];
			n_want += !want[i][v];
			want[i][v] = 1;
		}
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, f->env, NULL), H2EMV_OK);
	for (int i = 0; i < f->m.n; i++)
		for (uint32_t v = 1; v <= f->m.ver[i]; v++)
			if (version_stored(r, i, v) != want[i][v])
				fail_msg("node %d version %u is %s but %s", i + 1, v,
				         want[i][v] ? "missing" : "still stored",
				         want[i][v] ? "a kept snapshot sees it" : "no kept snapshot sees it");
	eng_read_end(r);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(st.node_versions, n_want);
	/* what remains beyond the newest tree is listed dead, awaiting GC */
	assert_int_equal(st.dead_versions, n_want - n_live);
	assert_int_equal(st.snapshots, nkept);
	for (size_t k = 0; k < nkept; k++)
		assert_tree_intact(f, kept[k]);
	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
}

static uint64_t versions_created(const tmodel *m)
{
	uint64_t total = 0;
	for (int i = 0; i < m->n; i++)
		total += m->ver[i];
	return total;
}

typedef struct progress_log {
	int snap_calls, sweep_calls;
	uint64_t last_done, max_step, last_total;
	int stop_after; /* stop when this many sweep calls were made (0: never) */
} progress_log;

static int on_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	progress_log *p = ctx;
	if (strcmp(what, "observations reclaimed") == 0)
		return 0; /* this model has no observations */
	if (strcmp(what, "snapshots dropped") == 0) {
		p->snap_calls++;
		return 0;
	}
	assert_string_equal(what, "versions deleted");
	assert_true(done >= p->last_done);
	if (done - p->last_done > p->max_step)
		p->max_step = done - p->last_done;
	p->last_done = done;
	p->last_total = total;
	p->sweep_calls++;
	return p->stop_after && p->sweep_calls >= p->stop_after;
}

/* ------------------------------------------------------------- tests -- */

static void test_gc_never_removes_what_a_kept_or_pinned_snapshot_sees(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 3, 3, 4);
	model_commit(&f->m, f->env, NULL, -1);
	for (int i = 2; i <= 300; i++)
		model_commit_random(&f->m, f->env);
	uint64_t created = versions_created(&f->m);
	h2emv_stats st;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(st.node_versions, created);

	/* four random pins among the old snapshots */
	uint64_t pinned[4];
	for (int p = 0; p < 4; p++) {
		int dup;
		do {
			pinned[p] = 1 + rnd() % 295;
			dup = 0;
			for (int q = 0; q < p; q++)
				dup |= pinned[q] == pinned[p];
		} while (dup);
		char name[16];
		snprintf(name, sizeof name, "pin%d", p);
		assert_int_equal(h2emv_snap_pin(f->mem, name, pinned[p], &e), H2EMV_OK);
	}
	uint64_t kept[9];
	size_t nk = 0;
	for (uint64_t s = 1; s <= 300; s++) {
		int keep = s > 295;
		for (int p = 0; p < 4; p++)
			keep |= pinned[p] == s;
		if (keep)
			kept[nk++] = s;
	}
	assert_int_equal(nk, 9);

	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 5;
	o.batch = 7;
	progress_log log = { 0 };
	o.progress = on_progress;
	o.progress_ctx = &log;
	h2emv_gc_result res = { 0 };
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 300 - 9);
	assert_store_is(f, kept, nk);
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(res.versions_deleted, created - st.node_versions);
	print_message("gc: %llu of %llu versions deleted in %llu transactions\n",
	              (unsigned long long)res.versions_deleted, (unsigned long long)created,
	              (unsigned long long)res.batches);
	assert_true(res.versions_deleted > 100);
	/* versions really went down, in bounded batches */
	assert_true(st.node_versions < created);
	assert_true(res.batches > res.versions_deleted / 7);
	assert_int_equal(log.snap_calls, 1);
	assert_true(log.sweep_calls >= 1);
	assert_int_equal(log.last_done, res.versions_deleted);
	assert_true(log.max_step <= 7);

	/* a second run finds nothing left to do */
	memset(&log, 0, sizeof log);
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(log.last_done, 0);
	assert_int_equal(res.snapshots_dropped, 0);
	assert_int_equal(res.versions_deleted, 0);
	assert_store_is(f, kept, nk);

	/* unpinning releases exactly what those snapshots held */
	for (int p = 0; p < 4; p++) {
		char name[16];
		snprintf(name, sizeof name, "pin%d", p);
		assert_int_equal(h2emv_snap_unpin(f->mem, name, &e), H2EMV_OK);
	}
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 4);
	assert_store_is(f, kept + 4, 5);
}

static void test_gc_with_defaults_keeps_16_snapshots(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 2, 2, 2);
	model_commit(&f->m, f->env, NULL, -1);
	for (int i = 2; i <= 40; i++)
		model_commit_random(&f->m, f->env);
	h2emv_gc_result res;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_gc(&res, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 24);
	uint64_t kept[16];
	for (int i = 0; i < 16; i++)
		kept[i] = 25 + (uint64_t)i;
	assert_store_is(f, kept, 16);
	/* keep_snapshots 0 means the default too, and a bad version is refused */
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 0);
	o.version = 99;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_EINVAL);
	o.version = H2EMV_GC_OPTIONS_VERSION;
	o.keep_snapshots = 1;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 15);
	assert_store_is(f, kept + 15, 1);
}

static void test_gc_keeps_snapshots_younger_than_keep_age(void **state)
{
	fixture *f = *state;
	const int64_t H = 3600ll * 1000000;
	model_init(&f->m, 2, 2, 3);
	/* snapshot i is committed at hour i of the memory's clock, whatever
	 * the wall clock says (a replayed history ages as it was lived) */
	f->m.force_now = 1 * H;
	model_commit(&f->m, f->env, NULL, -1);
	for (int i = 2; i <= 10; i++) {
		f->m.force_now = i * H;
		model_commit_random(&f->m, f->env);
	}
	h2emv_error e = { 0 };
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	/* 24 hours of age: all are young on the memory's clock, none go */
	o.keep_age = 24 * H;
	h2emv_gc_result res;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 0);
	assert_int_equal(res.versions_deleted, 0);
	/* 5.5 hours back from the newest (hour 10): 5..10 are younger */
	o.keep_age = 5 * H + H / 2;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 4);
	const uint64_t kept[] = { 5, 6, 7, 8, 9, 10 };
	assert_store_is(f, kept, 6);
	/* an explicit clock later still: only the newest one is kept */
	o.now = 10 * H + o.keep_age + 1;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 5);
	assert_store_is(f, kept + 5, 1);
}

static void test_gc_stopped_by_progress_finishes_on_the_next_run(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 3, 3, 3);
	model_commit(&f->m, f->env, NULL, -1);
	for (int i = 2; i <= 120; i++)
		model_commit_random(&f->m, f->env);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 3;
	o.batch = 5;
	progress_log log = { .stop_after = 2 };
	o.progress = on_progress;
	o.progress_ctx = &log;
	h2emv_gc_result res;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(log.sweep_calls, 2);
	assert_true(res.versions_deleted <= 10);
	assert_int_equal(res.versions_deleted, log.last_done);
	/* stopped early, the store is still consistent */
	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	uint64_t first = res.versions_deleted;
	o.progress = NULL;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_true(res.versions_deleted > 0);
	const uint64_t kept[] = { 118, 119, 120 };
	assert_store_is(f, kept, 3);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(first + res.versions_deleted, versions_created(&f->m) - st.node_versions);
}

static void test_open_snapshot_reads_its_tree_after_gc_collected_it(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 2, 3, 3);
	model_commit(&f->m, f->env, NULL, -1);
	for (int i = 2; i <= 10; i++)
		model_commit_random(&f->m, f->env);
	h2emv_snap *old;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_open(&old, f->mem, 2, &e), H2EMV_OK);
	for (int i = 11; i <= 30; i++)
		model_commit_random(&f->m, f->env);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 2;
	h2emv_gc_result res;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 28);
	assert_true(res.versions_deleted > 0);
	/* the open one still reads every node of its tree */
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_root(&root, old, &e), H2EMV_OK);
	assert_int_equal(walk(old, root, f->m.hist[2], 0), f->m.n);
	h2emv_snap_close(old);
	const uint64_t kept[] = { 29, 30 };
	assert_store_is(f, kept, 2);
	assert_int_equal(h2emv_snap_open(&old, f->mem, 2, &e), H2EMV_ENOTFOUND);
}

static void test_gc_of_an_empty_store_does_nothing(void **state)
{
	fixture *f = *state;
	h2emv_gc_result res = { 1, 1, 0, 1, 1, 1 };
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_gc(&res, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 0);
	assert_int_equal(res.versions_deleted, 0);
	assert_int_equal(res.obs_reclaimed, 0);
	assert_int_equal(res.cache_collected, 0);
	assert_true(res.batches >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gc_never_removes_what_a_kept_or_pinned_snapshot_sees,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_gc_with_defaults_keeps_16_snapshots, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_gc_keeps_snapshots_younger_than_keep_age, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_gc_stopped_by_progress_finishes_on_the_next_run,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_open_snapshot_reads_its_tree_after_gc_collected_it,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_gc_of_an_empty_store_does_nothing, fx_setup,
		                                fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
