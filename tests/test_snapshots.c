/*
 * test_snapshots.c — snapshots and node versions: a reader keeps its tree
 * while the writer moves on, versions are never overwritten, a commit is
 * all or nothing, the build cursor only moves forward, pins hold and move,
 * and the snapshot list is in order.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/mem/mem.h" /* the engine env behind a h2emv_mem: one LMDB env per process */
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* ------------------------------------------------------ a tree model -- */

/* A fixed-shape tree (root, goals, events, scenes) whose nodes get new
 * versions by path copying: a changed leaf and every ancestor up to the
 * root are replaced, and each replaced version is listed dead. Node id =
 * index + 1; the root is id 1. */
#define MAXN 400

typedef struct tmodel {
	int n;
	int level[MAXN], parent[MAXN], first[MAXN], nkids[MAXN];
	int64_t t0[MAXN], t1[MAXN];
	uint32_t ver[MAXN];
	uint64_t cursor;
} tmodel;

static uint64_t rng_state = 0x243F6A8885A308D3ull;

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
	m->nkids[i] = 0;
	m->ver[i] = 0;
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
	/* leaves in breadth-first order are in time order; parents span them */
	for (int i = lo, j = 0; i < hi; i++, j++) {
		m->t0[i] = 1719400000000000ll + j * 100;
		m->t1[i] = m->t0[i] + 100;
	}
	for (int i = lo - 1; i >= 0; i--) {
		m->t0[i] = m->t0[m->first[i]];
		m->t1[i] = m->t1[m->first[i] + m->nkids[i] - 1];
	}
}

static int model_leaf(const tmodel *m)
{
	int leaves = 0;
	for (int i = 0; i < m->n; i++)
		leaves += m->nkids[i] == 0;
	int pick = (int)(rnd() % (uint64_t)leaves);
	for (int i = 0; i < m->n; i++)
		if (m->nkids[i] == 0 && pick-- == 0)
			return i;
	return -1;
}

static const char *kind_name(int level)
{
	return level == 5 ? "root" : level == 3 ? "goal" : level == 2 ? "event" : "scene";
}

/* One node version as the model builds it: storage next to the node. */
typedef struct built {
	eng_node n;
	eng_ref kids[MAXN];
	char summary[128];
} built;

static void summary_of(char *out, size_t cap, const tmodel *m, int i, uint32_t ver)
{
	snprintf(out, cap, "%s %d as of version %u\nwhat happened there, told at length (%u)",
	         kind_name(m->level[i]), i + 1, ver, ver * 7919u);
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
	summary_of(b->summary, sizeof b->summary, m, i, vers[i]);
	b->n.summary = b->summary;
	b->n.summary_len = strlen(b->summary);
	for (int k = 0; k < m->nkids[i]; k++) {
		int c = m->first[i] + k;
		b->kids[k] = (eng_ref){ (uint64_t)c + 1, vers[c] };
	}
	b->n.children = b->kids;
	b->n.n_children = (uint32_t)m->nkids[i];
}

/* A prepared commit: the test may tamper with it before committing. */
typedef struct update {
	built *b;
	eng_node *ptrs[MAXN + 8];
	eng_ref dead[MAXN + 8];
	uint32_t nv[MAXN];
	eng_commit c;
} update;

/* Replace `leaves` (k of them) and their ancestors; k < 0: the first commit. */
static void update_prepare(update *u, const tmodel *m, const int *leaves, int k)
{
	uint8_t mark[MAXN] = { 0 };
	memset(u, 0, sizeof *u);
	u->b = calloc((size_t)m->n, sizeof *u->b);
	assert_non_null(u->b);
	for (int j = 0; k < 0 && j < m->n; j++)
		mark[j] = 1;
	for (int j = 0; j < k; j++)
		for (int i = leaves[j]; i >= 0; i = m->parent[i])
			mark[i] = 1;
	for (int i = 0; i < m->n; i++)
		u->nv[i] = mark[i] ? m->ver[i] + 1 : m->ver[i];
	size_t nn = 0, nd = 0, tree = 0;
	for (int i = 0; i < m->n; i++) {
		tree += m->level[i] >= 3;
		if (!mark[i])
			continue;
		build_node(&u->b[nn], m, i, u->nv);
		u->ptrs[nn] = &u->b[nn].n;
		nn++;
		if (m->ver[i])
			u->dead[nd++] = (eng_ref){ (uint64_t)i + 1, m->ver[i] };
	}
	u->c.nodes = u->ptrs;
	u->c.n_nodes = nn;
	u->c.dead = u->dead;
	u->c.n_dead = nd;
	u->c.root = (eng_ref){ 1, u->nv[0] };
	u->c.t_now = m->t1[0];
	u->c.build_cursor = m->cursor;
	u->c.rules_version = 1;
	u->c.n_nodes_tree = tree;
	u->c.next_node_id = (uint64_t)m->n + 1;
}

static void update_apply(tmodel *m, const update *u)
{
	memcpy(m->ver, u->nv, sizeof m->ver);
}

static void update_free(update *u)
{
	free(u->b);
	u->b = NULL;
}

static int model_commit(tmodel *m, eng_env *env, const int *leaves, int k, uint64_t *seq,
                        h2emv_error *err)
{
	update u;
	update_prepare(&u, m, leaves, k);
	int rc = eng_commit_snapshot(seq, env, &u.c, err);
	if (rc == H2EMV_OK)
		update_apply(m, &u);
	update_free(&u);
	return rc;
}

static uint64_t commit_random(tmodel *m, eng_env *env, int max_leaves)
{
	int leaves[8];
	int k = 1 + (int)(rnd() % (uint64_t)max_leaves);
	for (int j = 0; j < k; j++)
		leaves[j] = model_leaf(m);
	uint64_t seq = 0;
	h2emv_error e = { 0 };
	int rc = model_commit(m, env, leaves, k, &seq, &e);
	if (rc)
		fail_msg("commit failed: %d %s", rc, e.message);
	return seq;
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
	if (!(f->mem = tu_mem_tmp("snapshots", &f->dir)))
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

static void get_stats(h2emv_stats *s, fixture *f)
{
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_stats(s, f->mem, &e), H2EMV_OK);
}

static int node_exists(fixture *f, uint64_t id, uint32_t version)
{
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, f->env, NULL), H2EMV_OK);
	eng_node *n = NULL;
	int rc = eng_node_get(&n, r, (eng_ref){ id, version }, NULL);
	free(n);
	eng_read_end(r);
	assert_true(rc == H2EMV_OK || rc == H2EMV_ENOTFOUND);
	return rc == H2EMV_OK;
}

/* --------------------------------------------------- tree transcripts -- */

/* Everything a reader can see of a tree, in depth-first order, as bytes. */
static void put(eng_buf *t, const void *p, size_t n)
{
	assert_int_equal(eng_buf_append(t, p, n), H2EMV_OK);
}

static void transcript_node(eng_buf *t, uint64_t id, uint32_t ver, int level, int kind,
                            int64_t t0, int64_t t1, int64_t exp, const char *s, size_t slen,
                            size_t nkids)
{
	put(t, &id, sizeof id);
	put(t, &ver, sizeof ver);
	put(t, &level, sizeof level);
	put(t, &kind, sizeof kind);
	put(t, &t0, sizeof t0);
	put(t, &t1, sizeof t1);
	put(t, &exp, sizeof exp);
	put(t, &slen, sizeof slen);
	put(t, s, slen);
	put(t, &nkids, sizeof nkids);
}

/* Through the engine: every node decoded afresh from the store. Returns
 * the first failure instead of failing the test, for callers that must
 * clean up first. */
static int walk_view_rc(eng_buf *t, eng_read *r, eng_ref ref, int depth, h2emv_error *e)
{
	if (depth >= 16)
		return H2EMV_EINTERNAL;
	eng_node *n = NULL;
	int rc = eng_node_get(&n, r, ref, e);
	if (rc)
		return rc;
	transcript_node(t, n->id, n->version, n->level, n->kind, n->t_start, n->t_end, n->expiry,
	                n->summary, n->summary_len, n->n_children);
	for (uint32_t i = 0; i < n->n_children; i++) {
		uint64_t id = n->children[i].id;
		uint32_t ver = n->children[i].version;
		put(t, &id, sizeof id);
		put(t, &ver, sizeof ver);
	}
	for (uint32_t i = 0; rc == H2EMV_OK && i < n->n_children; i++)
		rc = walk_view_rc(t, r, n->children[i], depth + 1, e);
	free(n);
	return rc;
}

static void walk_view(eng_buf *t, eng_read *r, eng_ref ref, int depth)
{
	h2emv_error e = { 0 };
	int rc = walk_view_rc(t, r, ref, depth, &e);
	if (rc)
		fail_msg("walking from node %llu v%u: %d %s", (unsigned long long)ref.id, ref.version,
		         rc, e.message);
}

static void walk_snap_node(eng_buf *t, h2emv_snap *s, const h2emv_node *n, int depth)
{
	assert_true(depth < 16);
	size_t slen;
	const char *sum = h2emv_node_summary(n, &slen);
	h2emv_ref ref = h2emv_node_ref(n);
	transcript_node(t, ref.id, ref.version, h2emv_node_level(n), (int)h2emv_node_kind(n),
	                h2emv_node_start(n), h2emv_node_end(n), h2emv_node_expiry(n), sum, slen,
	                h2emv_node_child_count(n));
	size_t nk = h2emv_node_child_count(n);
	for (size_t i = 0; i < nk; i++) {
		h2emv_ref c = h2emv_node_child_ref(n, i);
		put(t, &c.id, sizeof c.id);
		put(t, &c.version, sizeof c.version);
	}
	for (size_t i = 0; i < nk; i++) {
		const h2emv_node *c;
		h2emv_error e = { 0 };
		int rc = h2emv_node_child(&c, s, n, i, &e);
		if (rc)
			fail_msg("child %zu: %d %s", i, rc, e.message);
		walk_snap_node(t, s, c, depth + 1);
	}
}

/* Through the public API. */
static void walk_snap(eng_buf *t, h2emv_snap *s)
{
	const h2emv_node *root;
	h2emv_error e = { 0 };
	int rc = h2emv_snap_root(&root, s, &e);
	if (rc)
		fail_msg("root: %d %s", rc, e.message);
	walk_snap_node(t, s, root, 0);
}

static void assert_snap_equal(const eng_snap *a, const eng_snap *b)
{
	assert_int_equal(a->seq, b->seq);
	assert_int_equal(a->root.id, b->root.id);
	assert_int_equal(a->root.version, b->root.version);
	assert_true(a->t_now == b->t_now);
	assert_true(a->created == b->created);
	assert_int_equal(a->build_cursor, b->build_cursor);
	assert_int_equal(a->rules_version, b->rules_version);
	assert_int_equal(a->n_nodes, b->n_nodes);
}

/* ------------------------------------------------------------- tests -- */

typedef struct writer {
	fixture *f;
	int commits;
	int rc;
	char what[600];
	uint64_t last_seq;
} writer;

static void *writer_main(void *arg)
{
	writer *w = arg;
	for (int i = 0; i < w->commits; i++) {
		int leaves[3];
		int k = 1 + (int)(rnd() % 3);
		for (int j = 0; j < k; j++)
			leaves[j] = model_leaf(&w->f->m);
		h2emv_error e = { 0 };
		uint64_t seq = 0;
		int rc = model_commit(&w->f->m, w->f->env, leaves, k, &seq, &e);
		if (rc == H2EMV_OK && i % 100 == 99) {
			/* collect behind the reader: its snapshot leaves the store */
			h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
			o.keep_snapshots = 3;
			rc = h2emv_gc(NULL, w->f->mem, &o, &e);
		}
		if (rc) {
			snprintf(w->what, sizeof w->what, "commit %d: %s", i, e.message);
			__atomic_store_n(&w->rc, rc, __ATOMIC_RELEASE);
			break;
		}
		__atomic_store_n(&w->last_seq, seq, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void test_reader_keeps_its_snapshot_while_1000_more_are_committed(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 4, 4, 4);
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, NULL), H2EMV_OK);
	for (int i = 0; i < 20; i++)
		commit_random(&f->m, f->env, 3);

	/* the snapshot, through the API and through an engine view */
	h2emv_snap *snap;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	h2emv_snap_info before;
	h2emv_snap_get_info(&before, snap);
	assert_int_equal(before.seq, 21);
	eng_read *view;
	assert_int_equal(eng_read_begin(&view, f->env, &e), H2EMV_OK);
	eng_snap vs;
	assert_int_equal(eng_snap_get(&vs, view, 0, &e), H2EMV_OK);
	assert_int_equal(vs.seq, before.seq);
	eng_buf start = { 0 };
	walk_view(&start, view, vs.root, 0);

	writer w = { .f = f, .commits = 1000 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
	/* read while it writes: every walk decodes from the store again */
	int walks = 0;
	for (;;) {
		int done = __atomic_load_n(&w.last_seq, __ATOMIC_ACQUIRE) >= before.seq + 1000 ||
		           __atomic_load_n(&w.rc, __ATOMIC_ACQUIRE);
		eng_buf again = { 0 };
		walk_view(&again, view, vs.root, 0);
		walks++;
		/* the view's newest snapshot is still ours, record and all */
		eng_snap now;
		assert_int_equal(eng_snap_get(&now, view, 0, NULL), H2EMV_OK);
		assert_snap_equal(&now, &vs);
		assert_int_equal(eng_snap_get(&now, view, vs.seq, NULL), H2EMV_OK);
		assert_snap_equal(&now, &vs);
		assert_int_equal(again.len, start.len);
		assert_memory_equal(again.data, start.data, start.len);
		eng_buf_free(&again);
		if (done)
			break;
	}
	assert_int_equal(pthread_join(th, NULL), 0);
	if (w.rc)
		fail_msg("writer: %d %s", w.rc, w.what);
	assert_int_equal(w.last_seq, before.seq + 1000);

	/* afterwards: the engine view, then the API snapshot read for the first time */
	eng_buf after = { 0 }, api = { 0 };
	walk_view(&after, view, vs.root, 0);
	assert_int_equal(after.len, start.len);
	assert_memory_equal(after.data, start.data, start.len);
	walk_snap(&api, snap);
	assert_int_equal(api.len, start.len);
	assert_memory_equal(api.data, start.data, start.len);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.seq, before.seq);
	assert_int_equal(info.root.id, before.root.id);
	assert_int_equal(info.root.version, before.root.version);
	assert_int_equal(info.created, before.created);
	eng_read_end(view);
	h2emv_snap_close(snap);
	/* ... while the store itself no longer holds what it read */
	eng_read *fresh;
	eng_node *gone = NULL;
	assert_int_equal(eng_read_begin(&fresh, f->env, NULL), H2EMV_OK);
	assert_int_equal(eng_node_get(&gone, fresh, vs.root, NULL), H2EMV_ENOTFOUND);
	eng_read_end(fresh);

	/* the store moved on; the old snapshot was collected */
	h2emv_snap *latest, *old = NULL;
	assert_int_equal(h2emv_snap_open(&latest, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	h2emv_snap_get_info(&info, latest);
	assert_int_equal(info.seq, before.seq + 1000);
	assert_int_equal(info.root.version, f->m.ver[0]);
	h2emv_snap_close(latest);
	assert_int_equal(h2emv_snap_open(&old, f->mem, before.seq, &e), H2EMV_ENOTFOUND);
	assert_null(old);
	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	print_message("reader walked the tree %d times during 1000 commits\n", walks);
	eng_buf_free(&start);
	eng_buf_free(&after);
	eng_buf_free(&api);
}

static void test_committing_an_existing_version_is_refused_and_changes_nothing(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 2, 2, 2);
	uint64_t seq = 0;
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, &seq, NULL), H2EMV_OK);
	assert_int_equal(seq, 1);
	h2emv_stats s0, s1;
	get_stats(&s0, f);

	/* node 4 version 1 again, with other words */
	eng_node again = { .id = 4, .version = 1, .level = 2, .kind = H2EMV_KIND_EVENT,
		           .t_start = f->m.t0[3], .t_end = f->m.t1[3], .expiry = H2EMV_TIME_NEVER,
		           .summary = "rewritten history", .summary_len = 17 };
	eng_node *nodes[] = { &again };
	eng_commit c = { .nodes = nodes, .n_nodes = 1, .root = { 1, 1 }, .t_now = 5 };
	h2emv_error e = { 0 };
	assert_int_equal(eng_commit_snapshot(&seq, f->env, &c, &e), H2EMV_EEXIST);
	assert_int_equal(e.status, H2EMV_EEXIST);
	assert_non_null(strstr(e.message, "never overwritten"));

	get_stats(&s1, f);
	assert_int_equal(s1.last_snapshot, 1);
	assert_int_equal(s1.snapshots, s0.snapshots);
	assert_int_equal(s1.node_versions, s0.node_versions);
	assert_int_equal(s1.node_bytes, s0.node_bytes);
	h2emv_snap *snap;
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.seq, 1);
	const h2emv_node *n;
	assert_int_equal(h2emv_snap_node(&n, snap, (h2emv_ref){ 4, 1 }, &e), H2EMV_OK);
	char want[128];
	summary_of(want, sizeof want, &f->m, 3, 1);
	assert_string_equal(h2emv_node_summary(n, NULL), want);
	h2emv_snap_close(snap);

	/* the engine stamped the original with its snapshot; the refused copy kept nothing */
	eng_read *r;
	eng_node *stored;
	assert_int_equal(eng_read_begin(&r, f->env, NULL), H2EMV_OK);
	assert_int_equal(eng_node_get(&stored, r, (eng_ref){ 4, 1 }, NULL), H2EMV_OK);
	assert_int_equal(stored->born, 1);
	free(stored);
	eng_read_end(r);

	/* the next good commit gets the next seq */
	int leaf = f->m.n - 1;
	assert_int_equal(model_commit(&f->m, f->env, &leaf, 1, &seq, NULL), H2EMV_OK);
	assert_int_equal(seq, 2);
}

static void assert_unchanged(fixture *f, const h2emv_stats *s0, uint64_t next_id0)
{
	h2emv_stats s1;
	get_stats(&s1, f);
	assert_int_equal(s1.snapshots, s0->snapshots);
	assert_int_equal(s1.last_snapshot, s0->last_snapshot);
	assert_int_equal(s1.node_versions, s0->node_versions);
	assert_int_equal(s1.node_bytes, s0->node_bytes);
	assert_int_equal(s1.dead_versions, s0->dead_versions);
	assert_int_equal(s1.build_cursor, s0->build_cursor);
	eng_read *r;
	uint64_t next_id, cursor;
	assert_int_equal(eng_read_begin(&r, f->env, NULL), H2EMV_OK);
	assert_int_equal(eng_next_node_id(&next_id, r, NULL), H2EMV_OK);
	assert_int_equal(eng_build_cursor(&cursor, r, NULL), H2EMV_OK);
	eng_read_end(r);
	assert_int_equal(next_id, next_id0);
	assert_int_equal(cursor, s0->build_cursor);
}

static void test_failed_commit_leaves_no_trace(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 2, 2, 2);
	f->m.cursor = 5;
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, NULL), H2EMV_OK);
	commit_random(&f->m, f->env, 2);
	h2emv_stats s0;
	get_stats(&s0, f);
	assert_int_equal(s0.last_snapshot, 2);
	assert_int_equal(s0.build_cursor, 5);
	assert_true(s0.dead_versions > 0);
	uint64_t next_id0 = (uint64_t)f->m.n + 1;
	h2emv_error e;
	int leaf = f->m.n - 1;
	update u;

	/* 1: a new node, a good update, then an existing version */
	update_prepare(&u, &f->m, &leaf, 1);
	eng_node fresh = { .id = 300, .version = 1, .level = 1, .kind = H2EMV_KIND_SCENE,
		           .t_start = 1, .t_end = 2, .expiry = H2EMV_TIME_NEVER };
	eng_node clash = { .id = 2, .version = f->m.ver[1], .level = 3, .kind = H2EMV_KIND_GOAL,
		           .t_start = f->m.t0[1], .t_end = f->m.t1[1], .expiry = H2EMV_TIME_NEVER };
	size_t k = u.c.n_nodes;
	memmove(u.ptrs + 1, u.ptrs, k * sizeof *u.ptrs);
	u.ptrs[0] = &fresh;     /* written first ... */
	u.ptrs[k + 1] = &clash; /* ... and undone by the last */
	u.c.n_nodes = k + 2;
	u.c.build_cursor = 9;
	u.c.next_node_id = 500;
	memset(&e, 0, sizeof e);
	assert_int_equal(eng_commit_snapshot(NULL, f->env, &u.c, &e), H2EMV_EEXIST);
	update_free(&u);
	assert_unchanged(f, &s0, next_id0);
	assert_false(node_exists(f, 300, 1));
	assert_false(node_exists(f, (uint64_t)leaf + 1, f->m.ver[leaf] + 1));

	/* 2: a good update whose dead list names a version that never existed */
	update_prepare(&u, &f->m, &leaf, 1);
	u.dead[u.c.n_dead++] = (eng_ref){ 2, 999 };
	u.c.build_cursor = 9;
	memset(&e, 0, sizeof e);
	int rc = eng_commit_snapshot(NULL, f->env, &u.c, &e);
	assert_int_not_equal(rc, H2EMV_OK);
	assert_int_equal(e.status, rc);
	update_free(&u);
	assert_unchanged(f, &s0, next_id0);
	assert_false(node_exists(f, (uint64_t)leaf + 1, f->m.ver[leaf] + 1));

	/* 3: a version listed dead twice */
	update_prepare(&u, &f->m, &leaf, 1);
	u.dead[u.c.n_dead] = u.dead[0];
	u.c.n_dead++;
	memset(&e, 0, sizeof e);
	assert_int_equal(eng_commit_snapshot(NULL, f->env, &u.c, &e), H2EMV_EINVAL);
	update_free(&u);
	assert_unchanged(f, &s0, next_id0);

	/* 4: the build cursor going back */
	update_prepare(&u, &f->m, &leaf, 1);
	u.c.build_cursor = 4;
	memset(&e, 0, sizeof e);
	assert_int_equal(eng_commit_snapshot(NULL, f->env, &u.c, &e), H2EMV_EINVAL);
	assert_non_null(strstr(e.message, "cursor"));
	update_free(&u);
	assert_unchanged(f, &s0, next_id0);
	assert_false(node_exists(f, (uint64_t)leaf + 1, f->m.ver[leaf] + 1));

	/* the same update, unharmed, commits as the very next snapshot */
	uint64_t seq = 0;
	f->m.cursor = 6;
	assert_int_equal(model_commit(&f->m, f->env, &leaf, 1, &seq, NULL), H2EMV_OK);
	assert_int_equal(seq, 3);
	assert_true(node_exists(f, (uint64_t)leaf + 1, f->m.ver[leaf]));
	h2emv_stats s1;
	get_stats(&s1, f);
	assert_int_equal(s1.build_cursor, 6);
	assert_true(s1.dead_versions > s0.dead_versions);
}

static void test_build_cursor_only_moves_forward(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 1, 1, 2);
	h2emv_error e = { 0 };
	f->m.cursor = 10;
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, &e), H2EMV_OK);
	int leaf = f->m.n - 1;
	/* staying put is fine: a tree change without new observations */
	assert_int_equal(model_commit(&f->m, f->env, &leaf, 1, NULL, &e), H2EMV_OK);
	f->m.cursor = 9;
	assert_int_equal(model_commit(&f->m, f->env, &leaf, 1, NULL, &e), H2EMV_EINVAL);
	f->m.cursor = 0;
	assert_int_equal(model_commit(&f->m, f->env, &leaf, 1, NULL, &e), H2EMV_EINVAL);
	h2emv_snap *snap;
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.seq, 2);
	assert_int_equal(info.build_cursor, 10);
	h2emv_snap_close(snap);
	f->m.cursor = 11;
	assert_int_equal(model_commit(&f->m, f->env, &leaf, 1, NULL, &e), H2EMV_OK);
	h2emv_stats s;
	get_stats(&s, f);
	assert_int_equal(s.build_cursor, 11);
	assert_int_equal(s.last_snapshot, 3);
	/* every stored snapshot keeps the cursor it was committed with */
	h2emv_snap_info *list;
	size_t n;
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	assert_int_equal(n, 3);
	assert_int_equal(list[0].build_cursor, 10);
	assert_int_equal(list[1].build_cursor, 10);
	assert_int_equal(list[2].build_cursor, 11);
	h2emv_free(list);
}

static void test_next_node_id_only_grows(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 1, 1, 1);
	int leaf = f->m.n - 1;
	update u;
	update_prepare(&u, &f->m, NULL, -1);
	u.c.next_node_id = 50;
	assert_int_equal(eng_commit_snapshot(NULL, f->env, &u.c, NULL), H2EMV_OK);
	update_apply(&f->m, &u);
	update_free(&u);
	update_prepare(&u, &f->m, &leaf, 1);
	u.c.next_node_id = 20;
	assert_int_equal(eng_commit_snapshot(NULL, f->env, &u.c, NULL), H2EMV_OK);
	update_apply(&f->m, &u);
	update_free(&u);
	eng_read *r;
	uint64_t next;
	assert_int_equal(eng_read_begin(&r, f->env, NULL), H2EMV_OK);
	assert_int_equal(eng_next_node_id(&next, r, NULL), H2EMV_OK);
	eng_read_end(r);
	assert_int_equal(next, 50);
}

static void test_pins_hold_move_and_release(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 1, 2, 2);
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, NULL), H2EMV_OK);
	for (int i = 0; i < 5; i++)
		commit_random(&f->m, f->env, 1);
	h2emv_error e = { 0 };
	int64_t t = eng_now_us();
	assert_int_equal(h2emv_snap_pin(f->mem, "alpha", 2, &e), H2EMV_OK);
	h2emv_pin *pins;
	size_t np;
	assert_int_equal(h2emv_pin_list(&pins, &np, f->mem, &e), H2EMV_OK);
	assert_int_equal(np, 1);
	assert_string_equal(pins[0].name, "alpha");
	assert_int_equal(pins[0].seq, 2);
	assert_true(pins[0].created >= t - 1000000 && pins[0].created <= eng_now_us());
	h2emv_free(pins);

	h2emv_snap_info *list;
	size_t n;
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(list[i].pinned, list[i].seq == 2);
	h2emv_free(list);
	h2emv_snap *snap;
	h2emv_snap_info info;
	assert_int_equal(h2emv_snap_open(&snap, f->mem, 2, &e), H2EMV_OK);
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.pinned, 1);
	h2emv_snap_close(snap);

	/* pinning the name again moves it */
	assert_int_equal(h2emv_snap_pin(f->mem, "alpha", 4, &e), H2EMV_OK);
	assert_int_equal(h2emv_pin_list(&pins, &np, f->mem, &e), H2EMV_OK);
	assert_int_equal(np, 1);
	assert_int_equal(pins[0].seq, 4);
	h2emv_free(pins);
	assert_int_equal(h2emv_snap_open(&snap, f->mem, 2, &e), H2EMV_OK);
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.pinned, 0);
	h2emv_snap_close(snap);

	/* more pins, listed by name (bytewise) */
	assert_int_equal(h2emv_snap_pin(f->mem, "beta", 4, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(f->mem, "Gamma", 1, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(f->mem, "caf\xc3\xa9 visit", 6, &e), H2EMV_OK);
	assert_int_equal(h2emv_pin_list(&pins, &np, f->mem, &e), H2EMV_OK);
	assert_int_equal(np, 4);
	assert_string_equal(pins[0].name, "Gamma");
	assert_string_equal(pins[1].name, "alpha");
	assert_string_equal(pins[2].name, "beta");
	assert_string_equal(pins[3].name, "caf\xc3\xa9 visit");
	assert_int_equal(pins[0].seq, 1);
	assert_int_equal(pins[3].seq, 6);
	h2emv_free(pins);

	/* pins keep their snapshots through gc; unpinned ones go */
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	h2emv_gc_result res;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 3); /* 2, 3, 5 */
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	assert_int_equal(n, 3);
	assert_int_equal(list[0].seq, 1);
	assert_int_equal(list[1].seq, 4);
	assert_int_equal(list[2].seq, 6);
	h2emv_free(list);

	/* unpin: gone, and a second unpin finds nothing */
	assert_int_equal(h2emv_snap_unpin(f->mem, "beta", &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_unpin(f->mem, "beta", &e), H2EMV_ENOTFOUND);
	assert_int_equal(e.status, H2EMV_ENOTFOUND);
	assert_int_equal(h2emv_pin_list(&pins, &np, f->mem, &e), H2EMV_OK);
	assert_int_equal(np, 3);
	for (size_t i = 0; i < np; i++)
		assert_string_not_equal(pins[i].name, "beta");
	h2emv_free(pins);
	/* snapshot 4 is still held by alpha */
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 0);
	assert_int_equal(h2emv_snap_unpin(f->mem, "alpha", &e), H2EMV_OK);
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 1);
	assert_int_equal(h2emv_snap_open(&snap, f->mem, 4, &e), H2EMV_ENOTFOUND);
}

static void test_pin_refuses_missing_snapshots_and_bad_names(void **state)
{
	fixture *f = *state;
	h2emv_error e = { 0 };
	/* no snapshot at all yet */
	assert_int_equal(h2emv_snap_pin(f->mem, "early", 1, &e), H2EMV_ENOTFOUND);
	model_init(&f->m, 1, 1, 1);
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(f->mem, "later", 2, &e), H2EMV_ENOTFOUND);
	assert_int_equal(h2emv_snap_pin(f->mem, "later", 999999, &e), H2EMV_ENOTFOUND);
	char name[202];
	memset(name, 'n', sizeof name);
	name[201] = 0; /* 201 bytes */
	assert_int_equal(h2emv_snap_pin(f->mem, name, 1, &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_snap_pin(f->mem, "", 1, &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_snap_pin(f->mem, NULL, 1, &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_snap_unpin(f->mem, "", &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_snap_unpin(f->mem, name, &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_snap_unpin(f->mem, "never pinned", &e), H2EMV_ENOTFOUND);
	h2emv_pin *pins;
	size_t np = 99;
	assert_int_equal(h2emv_pin_list(&pins, &np, f->mem, &e), H2EMV_OK);
	assert_int_equal(np, 0);
	h2emv_free(pins);
	/* 200 bytes is the longest name */
	name[200] = 0;
	assert_int_equal(h2emv_snap_pin(f->mem, name, 1, &e), H2EMV_OK);
	assert_int_equal(h2emv_pin_list(&pins, &np, f->mem, &e), H2EMV_OK);
	assert_int_equal(np, 1);
	assert_int_equal(strlen(pins[0].name), 200);
	assert_string_equal(pins[0].name, name);
	h2emv_free(pins);
}

static void test_snapshot_list_is_oldest_first(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 2, 2, 2);
	h2emv_error e = { 0 };
	h2emv_snap_info *list;
	size_t n = 99;
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	assert_int_equal(n, 0);
	h2emv_free(list);
	h2emv_snap *snap = NULL;
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_ENOTFOUND);

	/* past 256 and 65536 would be nicer; 300 crosses the first byte boundary */
	static uint32_t roots[301];
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, NULL), H2EMV_OK);
	roots[1] = f->m.ver[0];
	for (int i = 2; i <= 300; i++) {
		uint64_t seq = commit_random(&f->m, f->env, 2);
		assert_int_equal(seq, (uint64_t)i);
		roots[i] = f->m.ver[0];
	}
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	assert_int_equal(n, 300);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(list[i].seq, i + 1);
		assert_int_equal(list[i].root.id, 1);
		assert_int_equal(list[i].root.version, roots[i + 1]);
		if (i)
			assert_true(list[i].created >= list[i - 1].created);
	}
	h2emv_free(list);

	/* with holes after gc, still in order; a collected one cannot be opened */
	assert_int_equal(h2emv_snap_pin(f->mem, "p7", 7, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(f->mem, "p200", 200, &e), H2EMV_OK);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 10;
	assert_int_equal(h2emv_gc(NULL, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	assert_int_equal(n, 12);
	assert_int_equal(list[0].seq, 7);
	assert_int_equal(list[1].seq, 200);
	for (size_t i = 2; i < n; i++)
		assert_int_equal(list[i].seq, 289 + i);
	h2emv_free(list);
	memset(&e, 0, sizeof e);
	assert_int_equal(h2emv_snap_open(&snap, f->mem, 8, &e), H2EMV_ENOTFOUND);
	assert_int_equal(e.status, H2EMV_ENOTFOUND);
	assert_null(snap);
	assert_int_equal(h2emv_snap_open(&snap, f->mem, 7, &e), H2EMV_OK);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.root.version, roots[7]);
	eng_buf t = { 0 };
	walk_snap(&t, snap);
	eng_buf_free(&t);
	h2emv_snap_close(snap);
	assert_int_equal(h2emv_snap_open(&snap, f->mem, 301, &e), H2EMV_ENOTFOUND);
}

/* LMDB must not be opened twice in one process: the second open takes the
 * process's own lock for exclusive use and resets the reader table, so the
 * first handle's open snapshot no longer holds back page reuse. A second
 * h2emv_mem_open of the same memory must either be refused (EBUSY) or be
 * harmless: the first handle's snapshot keeps reading its tree. */
static void test_second_handle_in_this_process_cannot_break_an_open_snapshot(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 2, 3, 3);
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, NULL, NULL), H2EMV_OK);
	for (int i = 0; i < 4; i++)
		commit_random(&f->m, f->env, 2);
	eng_read *view;
	eng_snap vs;
	h2emv_error e = { 0 };
	assert_int_equal(eng_read_begin(&view, f->env, &e), H2EMV_OK);
	assert_int_equal(eng_snap_get(&vs, view, 0, &e), H2EMV_OK);
	eng_buf start = { 0 }, again = { 0 };
	walk_view(&start, view, vs.root, 0);

	h2emv_mem *second = NULL;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_NOSYNC;
	int rc = h2emv_mem_open(&second, f->dir, &o, &e);
	if (rc != H2EMV_OK) {
		eng_read_end(view);
		eng_buf_free(&start);
		assert_int_equal(rc, H2EMV_EBUSY);
		return;
	}
	/* the second handle writes and collects behind the first one's reader */
	int wrc = H2EMV_OK;
	for (int i = 0; i < 200 && wrc == H2EMV_OK; i++) {
		int leaf = model_leaf(&f->m);
		wrc = model_commit(&f->m, second->env, &leaf, 1, NULL, &e);
		if (wrc == H2EMV_OK && i % 20 == 19) {
			h2emv_gc_options g = H2EMV_GC_OPTIONS_INIT;
			g.keep_snapshots = 1;
			wrc = h2emv_gc(NULL, second, &g, &e);
		}
	}
	h2emv_error re = { 0 };
	rc = walk_view_rc(&again, view, vs.root, 0, &re);
	eng_read_end(view);
	h2emv_mem_close(second);
	int same = rc == H2EMV_OK && again.len == start.len &&
	           memcmp(again.data, start.data, start.len) == 0;
	eng_buf_free(&start);
	eng_buf_free(&again);
	assert_int_equal(wrc, H2EMV_OK);
	if (!same)
		fail_msg("a second handle in the same process broke an open snapshot: %s",
		         rc ? re.message : "the tree changed");
}

/* A store must not accept a node version it cannot read back: kind 0 is
 * refused by node_decode, so committing it leaves a snapshot whose root no
 * reader can open. */
static void test_commit_refuses_a_node_it_could_not_read_back(void **state)
{
	fixture *f = *state;
	eng_node root = { .id = 1, .version = 1, .level = 5, .kind = 0, .t_start = 0, .t_end = 10,
		          .expiry = H2EMV_TIME_NEVER, .summary = "root", .summary_len = 4 };
	eng_node *nodes[] = { &root };
	eng_commit c = { .nodes = nodes, .n_nodes = 1, .root = { 1, 1 }, .next_node_id = 2 };
	h2emv_error e = { 0 };
	int rc = eng_commit_snapshot(NULL, f->env, &c, &e);
	if (rc == H2EMV_OK) {
		h2emv_snap *snap;
		assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
		const h2emv_node *n;
		rc = h2emv_snap_root(&n, snap, &e);
		h2emv_snap_close(snap);
		if (rc != H2EMV_OK)
			fail_msg("the commit succeeded but its root cannot be read: %d %s", rc, e.message);
	} else {
		h2emv_stats s;
		get_stats(&s, f);
		assert_int_equal(s.snapshots, 0);
	}
}

/* Snapshots reuse the memory closed ones leave on the handle: many open,
 * walk, close cycles, interleaved and from several threads, always read
 * the same tree, and a node of one snapshot passed to another snapshot's
 * h2emv_node_child is looked up there, not trusted. */
typedef struct cycler {
	fixture *f;
	const eng_buf *want;
	int bad;
} cycler;

static void *cycle_main(void *arg)
{
	cycler *c = arg;
	for (int i = 0; i < 20; i++) {
		h2emv_snap *s = NULL;
		eng_buf t = { 0 };
		if (h2emv_snap_open(&s, c->f->mem, 0, NULL) != H2EMV_OK) {
			c->bad++;
			continue;
		}
		walk_snap(&t, s);
		c->bad += t.len != c->want->len || memcmp(t.data, c->want->data, t.len) != 0;
		h2emv_snap_close(s);
		eng_buf_free(&t);
	}
	return NULL;
}

static void test_snapshot_memory_is_reused_safely(void **state)
{
	fixture *f = *state;
	model_init(&f->m, 6, 4, 5);
	uint64_t seq;
	assert_int_equal(model_commit(&f->m, f->env, NULL, -1, &seq, NULL), H2EMV_OK);
	h2emv_snap *a = NULL, *b = NULL;
	assert_int_equal(h2emv_snap_open(&a, f->mem, 0, NULL), H2EMV_OK);
	eng_buf want = { 0 };
	walk_snap(&want, a);
	/* a root read by snapshot a, its children asked of snapshot b */
	const h2emv_node *root_a;
	assert_int_equal(h2emv_snap_root(&root_a, a, NULL), H2EMV_OK);
	size_t plen = 0;
	const void *payload = h2emv_node_payload(root_a, &plen);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(h2emv_snap_open(&b, f->mem, 0, NULL), H2EMV_OK);
		const h2emv_node *c = NULL;
		assert_int_equal(h2emv_node_child(&c, b, root_a, 0, NULL), H2EMV_OK);
		assert_true(h2emv_node_ref(c).id == h2emv_node_child_ref(root_a, 0).id);
		eng_buf t = { 0 };
		walk_snap(&t, b);
		assert_int_equal(t.len, want.len);
		assert_memory_equal(t.data, want.data, t.len);
		eng_buf_free(&t);
		h2emv_snap_close(b); /* gives its memory back while a is still open */
	}
	/* a's own nodes and payload are still what they were */
	if (payload && plen)
		assert_memory_equal(h2emv_node_payload(root_a, NULL), payload, plen);
	eng_buf t = { 0 };
	walk_snap(&t, a);
	assert_memory_equal(t.data, want.data, t.len);
	eng_buf_free(&t);
	/* opened on one thread, closed on another, and four threads cycling */
	pthread_t th[4];
	cycler cy[4];
	for (int i = 0; i < 4; i++) {
		cy[i] = (cycler){ f, &want, 0 };
		assert_int_equal(pthread_create(&th[i], NULL, cycle_main, &cy[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(cy[i].bad, 0);
	}
	h2emv_snap_close(a);
	eng_buf_free(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reader_keeps_its_snapshot_while_1000_more_are_committed,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_committing_an_existing_version_is_refused_and_changes_nothing,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_failed_commit_leaves_no_trace, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_build_cursor_only_moves_forward, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_next_node_id_only_grows, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_pins_hold_move_and_release, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_pin_refuses_missing_snapshots_and_bad_names, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_list_is_oldest_first, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_memory_is_reused_safely, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_commit_refuses_a_node_it_could_not_read_back, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_second_handle_in_this_process_cannot_break_an_open_snapshot,
		                                fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
