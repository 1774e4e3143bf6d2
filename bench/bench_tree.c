/*
 * bench_tree.c — snapshot open + full read of one tree: h2emv's snapshot
 * API against the same node bodies in SQLite, walked in the same order
 * and decoded with the same node_decode.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/baseline_sqlite.h"
#include "bench/bench_storage.h"
#include "bench/bench_util.h"
#include "bench/treegen.h"
#include "engine/engine.h"

#define TREE_SECONDS_PER_REPEAT 2.0
#define TREE_MIN_PAIRS 5
#define TREE_MAX_PAIRS 2000

/* Commit the tree as a builder would over time: in snapshots of
 * TREE_COMMIT_CHUNK nodes, oldest first, the root only in the last one.
 * Node records are encoded however the engine encodes them (AUTO). */
static void h2emv_tree_store(const char *dir, bench_tree *t)
{
	eng_open_opts eo = { .flags = H2EMV_OPEN_CREATE, .dict_train_after = DICT_TRAIN_AFTER };
	eng_env *env;
	h2emv_error err;
	if (eng_open(&env, dir, &eo, &err))
		bench_die("eng_open %s: %s", dir, err.message);
	for (size_t i = 0; i < t->n; i += TREE_COMMIT_CHUNK) {
		size_t k = t->n - i < TREE_COMMIT_CHUNK ? t->n - i : TREE_COMMIT_CHUNK;
		int last = i + k == t->n;
		eng_commit c = {
			.nodes = t->nodes + i, .n_nodes = k,
			.root = last ? t->root : (eng_ref){ 0, 0 },
			.t_now = t->t_now, .n_nodes_tree = last ? t->n_l3plus : 0,
			.next_node_id = t->next_id,
		};
		if (eng_commit_snapshot(NULL, env, &c, &err))
			bench_die("eng_commit_snapshot: %s", err.message);
	}
	eng_close(env);
}

typedef struct walk_acc {
	h2emv_snap *snap;
	uint64_t nodes, summary_bytes;
} walk_acc;

static void h2emv_walk_node(walk_acc *w, const h2emv_node *n)
{
	h2emv_error err;
	w->nodes++;
	w->summary_bytes += strlen(h2emv_node_summary(n, NULL));
	size_t k = h2emv_node_child_count(n);
	for (size_t i = 0; i < k; i++) {
		const h2emv_node *c;
		if (h2emv_node_child(&c, w->snap, n, i, &err))
			bench_die("h2emv_node_child: %s", err.message);
		h2emv_walk_node(w, c);
	}
}

static void h2emv_tree_walk(h2emv_mem *mem, uint64_t *nodes, uint64_t *summary_bytes)
{
	walk_acc w = { 0 };
	const h2emv_node *root;
	h2emv_error err;
	if (h2emv_snap_open(&w.snap, mem, H2EMV_SNAP_LATEST, &err) ||
	    h2emv_snap_root(&root, w.snap, &err))
		bench_die("h2emv snapshot: %s", err.message);
	h2emv_walk_node(&w, root);
	h2emv_snap_close(w.snap);
	*nodes = w.nodes;
	*summary_bytes = w.summary_bytes;
}

/* Milliseconds node_decode alone takes over every node body (from memory,
 * each result freed): the decode work both sides share. Median. */
static double decode_only_ms(const opts *o, const eng_buf *bodies, const size_t *ends, size_t n)
{
	enum { PER_REPEAT = 5 };
	size_t k = (size_t)o->repeat * PER_REPEAT;
	double *t = calloc(k, sizeof *t);
	if (!t)
		bench_die("out of memory");
	h2emv_error err;
	for (size_t r = 0; r < k; r++) {
		double t0 = bench_now();
		for (size_t i = 0; i < n; i++) {
			size_t start = i ? ends[i - 1] : 0;
			eng_node *node;
			if (node_decode(&node, bodies->data + start, ends[i] - start, &err))
				bench_die("node_decode: %s", err.message);
			free(node);
		}
		t[r] = bench_now() - t0;
	}
	double m = bench_median(t, k) * 1e3;
	free(t);
	return m;
}

static double time_h2emv_walk(h2emv_mem *mem, uint64_t want)
{
	uint64_t nodes, bytes;
	double t0 = bench_now();
	h2emv_tree_walk(mem, &nodes, &bytes);
	double dt = bench_now() - t0;
	if (nodes != want)
		bench_die("h2emv walk read %llu nodes, expected %llu", (unsigned long long)nodes,
		          (unsigned long long)want);
	return dt;
}

static double time_sqlite_walk(sqlb_reader *rd, uint64_t want)
{
	uint64_t nodes, bytes;
	double t0 = bench_now();
	sqlb_tree_walk(rd, &nodes, &bytes);
	double dt = bench_now() - t0;
	if (nodes != want)
		bench_die("SQLite walk read %llu nodes, expected %llu", (unsigned long long)nodes,
		          (unsigned long long)want);
	return dt;
}

/* Build the tree, store it on both sides (h2emv first: committing sets
 * each node's `born`, so both sides then hold the same body) and time
 * node_decode alone on its bodies. */
static void build_and_store(tree_result *res, const opts *o, const char *hdir, const char *db)
{
	bench_tree t;
	if (treegen_make(&t, o->tree_nodes, o->seed))
		bench_die("out of memory making the tree");
	res->nodes = t.n;
	memcpy(res->per_level, t.per_level, sizeof res->per_level);
	h2emv_tree_store(hdir, &t);
	sqlb_tree_store(db, &t);
	eng_buf bodies = { 0 };
	size_t *ends = malloc(t.n * sizeof *ends);
	if (!ends)
		bench_die("out of memory");
	for (size_t i = 0; i < t.n; i++) {
		if (node_encode(&bodies, t.nodes[i], NULL))
			bench_die("node_encode failed");
		ends[i] = bodies.len;
	}
	res->body_avg = (double)bodies.len / (double)t.n;
	treegen_free(&t);
	res->decode_ms = decode_only_ms(o, &bodies, ends, res->nodes);
	eng_buf_free(&bodies);
	free(ends);
}

/* One repeat: pairs of reads, alternating which side goes first, for
 * TREE_SECONDS_PER_REPEAT; the medians go to *h_ms and *s_ms. */
static size_t time_pairs(double *h_ms, double *s_ms, h2emv_mem *mem, sqlb_reader *rd,
                         size_t nodes)
{
	static double h[TREE_MAX_PAIRS], s[TREE_MAX_PAIRS];
	size_t k = 0;
	double start = bench_now();
	while (k < TREE_MAX_PAIRS &&
	       (k < TREE_MIN_PAIRS || bench_now() - start < TREE_SECONDS_PER_REPEAT)) {
		if (k % 2 == 0) {
			h[k] = time_h2emv_walk(mem, nodes);
			s[k] = time_sqlite_walk(rd, nodes);
		} else {
			s[k] = time_sqlite_walk(rd, nodes);
			h[k] = time_h2emv_walk(mem, nodes);
		}
		k++;
	}
	*h_ms = bench_median(h, k) * 1e3;
	*s_ms = bench_median(s, k) * 1e3;
	return k;
}

tree_result tree_compare(const opts *o)
{
	tree_result res = { 0 };
	char hdir[3200], db[3200];
	snprintf(hdir, sizeof hdir, "%s", scratch_dir("h2emv-tree"));
	snprintf(db, sizeof db, "%s/tree.db", scratch_dir("sqlite-tree"));
	build_and_store(&res, o, hdir, db);

	h2emv_mem *mem = open_store(hdir, 0);
	h2emv_stats st = stats_of(mem);
	res.node_bytes = st.node_bytes;
	res.dicts = st.dicts;
	sqlb_reader *rd = sqlb_reader_open(db);

	/* Both sides must read the same tree: same count, same summary bytes. */
	uint64_t hn, hb, sn, sb;
	h2emv_tree_walk(mem, &hn, &hb);
	sqlb_tree_walk(rd, &sn, &sb);
	if (hn != res.nodes || sn != res.nodes || hb != sb)
		bench_die("the two sides read different trees (%llu/%llu nodes, %llu/%llu bytes)",
		          (unsigned long long)hn, (unsigned long long)sn, (unsigned long long)hb,
		          (unsigned long long)sb);

	size_t R = (size_t)o->repeat;
	double *hm = calloc(R, sizeof *hm), *sm = calloc(R, sizeof *sm);
	if (!hm || !sm)
		bench_die("out of memory");
	for (size_t r = 0; r < R; r++) {
		size_t k = time_pairs(&hm[r], &sm[r], mem, rd, res.nodes);
		res.pairs += k;
		fprintf(stderr, "  snapshot read, run %zu (%zu pairs): h2emv %.2f ms, SQLite %.2f ms\n",
		        r + 1, k, hm[r], sm[r]);
	}
	res.h2emv_ms = bench_median(hm, R);
	res.sqlite_ms = bench_median(sm, R);
	free(hm);
	free(sm);
	sqlb_reader_close(rd);
	h2emv_mem_close(mem);
	return res;
}
