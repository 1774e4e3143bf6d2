/*
 * test_check.c — h2emv_check finds every kind of violation, each with the
 * ids of the nodes (or the snapshot) concerned.
 *
 * A valid tree is built first and must give no violation. Then, each in a
 * fresh store, a tree that breaks exactly one invariant is committed through
 * the engine and check must report exactly that rule with the right ids.
 * Two violations cannot be committed through the engine (it refuses a build
 * cursor that goes back, and it seals every record with a checksum), so those
 * stores are damaged on disk: a snapshot record is rewritten with a lower
 * cursor and a valid checksum, and one byte of a node's summary is flipped.
 * Last, random garbage is written over pages in the middle of a data file and
 * the check runs in a child process, so that an LMDB crash on the damaged file
 * (DESIGN.md §3) cannot take the test down; what happened is printed, and a
 * crash or a hang of the child fails the test.
 *
 * The base tree (times in µs, expiry in µs, "N" = never):
 *
 *   1 root  L4 [1000,9000] N      children 2, 3
 *   2 goal  L3 [1000,4000] 50000  children 4, 5
 *   3 goal  L3 [5000,9000] 60000  children 6, 7
 *   4 event L2 [1000,2000] 40000
 *   5 event L2 [2500,4000] 50000
 *   6 event L2 [5000,6000] 45000
 *   7 event L2 [7000,9000] 60000
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "engine/env.h" /* env_write, to damage an id record in place */
#include "testutil.h"

/* ------------------------------------------------------------ helpers -- */

typedef struct spec {
	uint64_t id;
	uint32_t version;
	uint8_t level, kind;
	int64_t t0, t1, expiry;
	const char *summary;
	eng_ref kids[4];
	uint32_t n_kids;
} spec;

enum { BASE_N = 7 };

static void base_tree(spec s[BASE_N])
{
	const spec base[BASE_N] = {
		{ 1, 1, 4, H2EMV_KIND_ROOT, 1000, 9000, H2EMV_TIME_NEVER, "the day",
		  { { 2, 1 }, { 3, 1 } }, 2 },
		{ 2, 1, 3, H2EMV_KIND_GOAL, 1000, 4000, 50000, "make coffee",
		  { { 4, 1 }, { 5, 1 } }, 2 },
		{ 3, 1, 3, H2EMV_KIND_GOAL, 5000, 9000, 60000, "tidy the table",
		  { { 6, 1 }, { 7, 1 } }, 2 },
		{ 4, 1, 2, H2EMV_KIND_EVENT, 1000, 2000, 40000, "grasp cup", { { 0, 0 } }, 0 },
		{ 5, 1, 2, H2EMV_KIND_EVENT, 2500, 4000, 50000, "pour coffee", { { 0, 0 } }, 0 },
		{ 6, 1, 2, H2EMV_KIND_EVENT, 5000, 6000, 45000, "pick plate", { { 0, 0 } }, 0 },
		{ 7, 1, 2, H2EMV_KIND_EVENT, 7000, 9000, 60000, "wipe table", { { 0, 0 } }, 0 },
	};
	memcpy(s, base, sizeof base);
}

/* One eng_node in one malloc'd block (children and summary inside). */
static eng_node *node_from(const spec *s)
{
	size_t slen = strlen(s->summary);
	eng_node *n = calloc(1, sizeof *n + s->n_kids * sizeof(eng_ref) + slen + 1);
	assert_non_null(n);
	n->id = s->id;
	n->version = s->version;
	n->level = s->level;
	n->kind = s->kind;
	n->t_start = s->t0;
	n->t_end = s->t1;
	n->expiry = s->expiry;
	n->children = (eng_ref *)(n + 1);
	memcpy(n->children, s->kids, s->n_kids * sizeof(eng_ref));
	n->n_children = s->n_kids;
	n->summary = (char *)(n->children + s->n_kids);
	memcpy(n->summary, s->summary, slen + 1);
	n->summary_len = slen;
	return n;
}

static uint64_t commit_specs(eng_env *env, const spec *s, size_t n, const eng_ref *dead,
                             size_t n_dead, eng_ref root, uint64_t cursor)
{
	eng_node **nodes = calloc(n, sizeof *nodes);
	assert_non_null(nodes);
	uint64_t next = 1;
	for (size_t i = 0; i < n; i++) {
		nodes[i] = node_from(&s[i]);
		if (s[i].id >= next)
			next = s[i].id + 1;
	}
	eng_commit c = {
		.nodes = nodes, .n_nodes = n, .dead = dead, .n_dead = n_dead, .root = root,
		.t_now = 10000, .build_cursor = cursor,
		.n_nodes_tree = 3, /* the root and two goals, in every tree here */
		.next_node_id = next,
	};
	h2emv_error err = { 0 };
	uint64_t seq = 0;
	int rc = eng_commit_snapshot(&seq, env, &c, &err);
	if (rc)
		fprintf(stderr, "commit failed: %s (%s)\n", err.message, h2emv_strerror(rc));
	assert_int_equal(rc, H2EMV_OK);
	for (size_t i = 0; i < n; i++)
		free(nodes[i]);
	free(nodes);
	return seq;
}

static eng_env *env_open_create(const char *dir)
{
	eng_open_opts o = { .flags = H2EMV_OPEN_CREATE };
	eng_env *env = NULL;
	h2emv_error err = { 0 };
	int rc = eng_open(&env, dir, &o, &err);
	if (rc)
		fprintf(stderr, "eng_open %s: %s\n", dir, err.message);
	assert_int_equal(rc, H2EMV_OK);
	return env;
}

/* Commit the base tree (possibly modified) as the only snapshot of a fresh store. */
static char *store_with_tree(const char *tag, const spec *s, size_t n)
{
	char *dir = tu_tmpdir(tag);
	eng_env *env = env_open_create(dir);
	eng_ref root = { 1, 1 };
	assert_int_equal(commit_specs(env, s, n, NULL, 0, root, 0), 1);
	eng_close(env);
	return dir;
}

/* Violations as the callback reports them, copied out. */
typedef struct vrec {
	char rule[48], db[24], message[320];
	uint64_t snapshot, key;
	h2emv_ref node, other;
} vrec;

typedef struct vlist {
	vrec v[32];
	size_t n, calls;
} vlist;

static void collect(void *ctx, const h2emv_violation *v)
{
	vlist *l = ctx;
	l->calls++;
	if (l->n == sizeof l->v / sizeof l->v[0])
		return;
	vrec *r = &l->v[l->n++];
	snprintf(r->rule, sizeof r->rule, "%s", v->rule ? v->rule : "(null)");
	snprintf(r->db, sizeof r->db, "%s", v->db ? v->db : "(null)");
	snprintf(r->message, sizeof r->message, "%s", v->message ? v->message : "(null)");
	r->snapshot = v->snapshot;
	r->key = v->key;
	r->node = v->node;
	r->other = v->other;
}

static void print_violations(const vlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		fprintf(stderr,
		        "  violation %zu: rule=%s db=%s snapshot=%llu node=%llu v%u other=%llu v%u "
		        "key=%llu: %s\n",
		        i, l->v[i].rule, l->v[i].db, (unsigned long long)l->v[i].snapshot,
		        (unsigned long long)l->v[i].node.id, l->v[i].node.version,
		        (unsigned long long)l->v[i].other.id, l->v[i].other.version,
		        (unsigned long long)l->v[i].key, l->v[i].message);
}

/* Run h2emv_check on `dir` through the public API; returns the count. */
static uint64_t run_check(const char *dir, vlist *l)
{
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_open(&mem, dir, NULL, &err);
	if (rc)
		fprintf(stderr, "h2emv_mem_open %s: %s\n", dir, err.message);
	assert_int_equal(rc, H2EMV_OK);
	memset(l, 0, sizeof *l);
	uint64_t count = UINT64_MAX;
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	co.violation = collect;
	co.violation_ctx = l;
	rc = h2emv_check(&count, mem, &co, &err);
	if (rc)
		fprintf(stderr, "h2emv_check: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	h2emv_mem_close(mem);
	print_violations(l);
	/* every counted violation went through the callback */
	assert_int_equal(count, l->calls);
	return count;
}

/* Exactly one violation: `rule`, in db "nodes", in snapshot `snap`, about
 * `node` (and `other`), with a message. */
static void expect_one(const vlist *l, uint64_t count, const char *rule, uint64_t snap,
                       h2emv_ref node, h2emv_ref other)
{
	assert_int_equal(count, 1);
	const vrec *v = &l->v[0];
	assert_string_equal(v->rule, rule);
	assert_string_equal(v->db, "nodes");
	assert_int_equal(v->snapshot, snap);
	assert_int_equal(v->node.id, node.id);
	assert_int_equal(v->node.version, node.version);
	assert_int_equal(v->other.id, other.id);
	assert_int_equal(v->other.version, other.version);
	assert_true(strlen(v->message) > 0);
}

/* Ingest `n` observations; the first gets seq `first_seq`. */
static void ingest_n(const char *dir, int n, uint64_t first_seq)
{
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	char text[64][200];
	const char *json[64];
	size_t len[64];
	assert_true(n <= 64);
	for (int i = 0; i < n; i++) {
		int k = snprintf(text[i], sizeof text[i],
		                 "{\"t\":\"2024-06-26T19:%02d:%02dZ\",\"action\":{\"name\":\"Grasp\","
		                 "\"args\":{\"object\":\"cup\"},\"status\":\"succeeded\"}}",
		                 i / 60, i % 60);
		json[i] = text[i];
		len[i] = (size_t)k;
	}
	uint64_t first = 0;
	int rc = h2emv_ingest_batch(&first, mem, json, len, (size_t)n, &err);
	if (rc)
		fprintf(stderr, "ingest: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	assert_int_equal(first, first_seq);
	h2emv_mem_close(mem);
}

static uint8_t *read_data_file(const char *dir, size_t *len)
{
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	uint8_t *p = (uint8_t *)tu_read_file(path, len);
	assert_non_null(p);
	return p;
}

static void write_at(const char *dir, size_t off, const void *p, size_t n)
{
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	int fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, p, n, (off_t)off), (ssize_t)n);
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

/* Offsets of every occurrence of `needle` in `hay`. */
static size_t find_all(size_t *offs, size_t max, const uint8_t *hay, size_t n,
                       const void *needle, size_t nlen)
{
	size_t found = 0;
	for (size_t i = 0; i + nlen <= n && found < max;) {
		const uint8_t *p = memmem(hay + i, n - i, needle, nlen);
		if (!p)
			break;
		offs[found++] = (size_t)(p - hay);
		i = (size_t)(p - hay) + 1;
	}
	return found;
}

/* ------------------------------------------------------------- tests -- */

static void test_check_finds_nothing_in_valid_path_copied_trees(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	char *dir = store_with_tree("check-valid", s, BASE_N);
	vlist l;
	assert_int_equal(run_check(dir, &l), 0);

	/* snapshot 2: a new version of event 7 (kept longer), of its goal and
	 * of the root; the three old versions are listed dead */
	eng_env *env = env_open_create(dir);
	spec up[3] = { s[6], s[2], s[0] };
	up[0].version = 2;
	up[0].expiry = 70000;
	up[0].summary = "wipe table twice";
	up[1].version = 2;
	up[1].expiry = 70000;
	up[1].kids[1] = (eng_ref){ 7, 2 };
	up[2].version = 2;
	up[2].kids[1] = (eng_ref){ 3, 2 };
	eng_ref dead[3] = { { 7, 1 }, { 3, 1 }, { 1, 1 } };
	assert_int_equal(commit_specs(env, up, 3, dead, 3, (eng_ref){ 1, 2 }, 0), 2);
	eng_close(env);
	assert_int_equal(run_check(dir, &l), 0);

	/* collecting snapshot 1 removes exactly the three dead versions and
	 * leaves a store that still checks clean */
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	h2emv_gc_options go = H2EMV_GC_OPTIONS_INIT;
	go.keep_snapshots = 1;
	h2emv_gc_result gr = { 0 };
	assert_int_equal(h2emv_gc(&gr, mem, &go, &err), H2EMV_OK);
	assert_int_equal(gr.snapshots_dropped, 1);
	assert_int_equal(gr.versions_deleted, 3);
	h2emv_mem_close(mem);
	assert_int_equal(run_check(dir, &l), 0);
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_dangling_child_with_parent_and_missing_ref(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	s[2].kids[1] = (eng_ref){ 99, 1 }; /* goal 3 refers to a node never written */
	char *dir = store_with_tree("check-dangling", s, BASE_N);
	vlist l;
	uint64_t n = run_check(dir, &l);
	expect_one(&l, n, "dangling-child", 1, (h2emv_ref){ 3, 1 }, (h2emv_ref){ 99, 1 });
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_children_listed_out_of_time_order(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	s[2].kids[0] = (eng_ref){ 7, 1 }; /* 7 [7000,9000] listed before 6 [5000,6000] */
	s[2].kids[1] = (eng_ref){ 6, 1 };
	char *dir = store_with_tree("check-order", s, BASE_N);
	vlist l;
	uint64_t n = run_check(dir, &l);
	expect_one(&l, n, "child-order", 1, (h2emv_ref){ 3, 1 }, (h2emv_ref){ 6, 1 });
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_overlapping_siblings_as_child_order(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	s[5].t1 = 7500; /* 6 now ends after 7 starts */
	char *dir = store_with_tree("check-overlap", s, BASE_N);
	vlist l;
	uint64_t n = run_check(dir, &l);
	expect_one(&l, n, "child-order", 1, (h2emv_ref){ 3, 1 }, (h2emv_ref){ 7, 1 });
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_child_spanning_outside_its_parent(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	s[6].t1 = 9500; /* event 7 ends after goal 3 (and the root) */
	char *dir = store_with_tree("check-outside", s, BASE_N);
	vlist l;
	uint64_t n = run_check(dir, &l);
	expect_one(&l, n, "child-outside-parent", 1, (h2emv_ref){ 3, 1 }, (h2emv_ref){ 7, 1 });
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_parent_expiring_before_its_child(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	s[6].expiry = 70000; /* event 7 outlives goal 3 (60000) */
	char *dir = store_with_tree("check-expiry", s, BASE_N);
	vlist l;
	uint64_t n = run_check(dir, &l);
	expect_one(&l, n, "expiry-below-child", 1, (h2emv_ref){ 3, 1 }, (h2emv_ref){ 7, 1 });
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_child_not_below_its_parent_level(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	s[6].level = 4; /* event 7 above its goal (level 3) */
	char *dir = store_with_tree("check-level", s, BASE_N);
	vlist l;
	uint64_t n = run_check(dir, &l);
	expect_one(&l, n, "child-level", 1, (h2emv_ref){ 3, 1 }, (h2emv_ref){ 7, 1 });
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_version_listed_dead_but_still_in_tree(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	char *dir = store_with_tree("check-livedead", s, BASE_N);
	eng_env *env = env_open_create(dir);
	/* snapshot 2: a new root version with the same children; the old root
	 * is rightly listed dead, event 4 wrongly (goal 2 v1 still holds it) */
	spec root2 = s[0];
	root2.version = 2;
	root2.summary = "the day, revised";
	eng_ref dead[2] = { { 1, 1 }, { 4, 1 } };
	assert_int_equal(commit_specs(env, &root2, 1, dead, 2, (eng_ref){ 1, 2 }, 0), 2);
	eng_close(env);
	vlist l;
	uint64_t n = run_check(dir, &l);
	/* snapshot 1 still sees event 4 legitimately (it died at 2): only 2 is wrong */
	expect_one(&l, n, "live-listed-dead", 2, (h2emv_ref){ 4, 1 }, (h2emv_ref){ 0, 0 });
	tu_rmrf(dir);
	free(dir);
}

/* The raw record of a snapshot as snapshot.c writes it: a msgpack array of
 * 9 uint64 (0xcf + 8 bytes each), raw codec. */
static void snapshot_record(eng_buf *out, rec_codec *codec, const eng_snap *s)
{
	uint64_t f[9] = { 1, s->seq, s->root.id, s->root.version, (uint64_t)s->t_now,
		          (uint64_t)s->created, s->build_cursor, s->rules_version, s->n_nodes };
	uint8_t body[1 + 9 * 9];
	body[0] = 0x99;
	for (int i = 0; i < 9; i++) {
		body[1 + 9 * i] = 0xcf;
		be64(body + 2 + 9 * i, f[i]);
	}
	out->len = 0;
	assert_int_equal(rec_encode(out, codec, 0, body, sizeof body, REC_ENC_RAW, NULL), H2EMV_OK);
}

static void test_check_reports_build_cursor_going_back(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	char *dir = tu_tmpdir("check-cursor");
	eng_env *env = env_open_create(dir);
	eng_close(env);
	ingest_n(dir, 10, 1);
	env = env_open_create(dir);
	assert_int_equal(commit_specs(env, s, BASE_N, NULL, 0, (eng_ref){ 1, 1 }, 5), 1);
	spec root2 = s[0];
	root2.version = 2;
	eng_ref dead[1] = { { 1, 1 } };
	assert_int_equal(commit_specs(env, &root2, 1, dead, 1, (eng_ref){ 1, 2 }, 8), 2);

	/* the engine itself refuses a cursor that goes back */
	spec root3 = s[0];
	root3.version = 3;
	eng_ref dead3[1] = { { 1, 2 } };
	eng_node *n3 = node_from(&root3);
	eng_commit c3 = { .nodes = &n3, .n_nodes = 1, .dead = dead3, .n_dead = 1,
		          .root = { 1, 3 }, .build_cursor = 3, .n_nodes_tree = 3, .next_node_id = 8 };
	h2emv_error err = { 0 };
	assert_int_equal(eng_commit_snapshot(NULL, env, &c3, &err), H2EMV_EINVAL);
	free(n3);

	eng_read *r = NULL;
	eng_snap snap2;
	assert_int_equal(eng_read_begin(&r, env, NULL), H2EMV_OK);
	assert_int_equal(eng_snap_get(&snap2, r, 2, NULL), H2EMV_OK);
	eng_read_end(r);
	assert_int_equal(snap2.build_cursor, 8);
	eng_close(env);
	vlist l;
	assert_int_equal(run_check(dir, &l), 0);

	/* so write snapshot 2's record again on disk with cursor 3 (< 5) and a
	 * valid checksum: LMDB has no page checksums, the engine reads it */
	rec_codec *codec = NULL;
	assert_int_equal(rec_codec_new(&codec), H2EMV_OK);
	eng_buf good = { 0 }, bad = { 0 };
	snapshot_record(&good, codec, &snap2);
	eng_snap lowered = snap2;
	lowered.build_cursor = 3;
	snapshot_record(&bad, codec, &lowered);
	assert_int_equal(good.len, bad.len);
	size_t flen, offs[8];
	uint8_t *file = read_data_file(dir, &flen);
	size_t hits = find_all(offs, 8, file, flen, good.data, good.len);
	if (!hits)
		fprintf(stderr, "snapshot 2's record is not in data.mdb as expected: has "
		                "snapshot.c's record layout changed?\n");
	assert_true(hits >= 1);
	for (size_t i = 0; i < hits; i++)
		write_at(dir, offs[i], bad.data, bad.len);
	free(file);
	eng_buf_free(&good);
	eng_buf_free(&bad);
	rec_codec_free(codec);

	uint64_t n = run_check(dir, &l);
	assert_int_equal(n, 1);
	assert_string_equal(l.v[0].rule, "cursor-order");
	assert_string_equal(l.v[0].db, "snapshots");
	assert_int_equal(l.v[0].snapshot, 2);
	assert_int_equal(l.v[0].key, 2);
	assert_int_equal(l.v[0].node.id, 0);
	assert_int_equal(l.v[0].other.id, 0);
	tu_rmrf(dir);
	free(dir);
}

static void count_violation(void *ctx, const h2emv_violation *v)
{
	(void)v;
	(*(unsigned *)ctx)++;
}

/* h2emv_check's options: the callback sees each problem, NULL options count alone,
 * an options struct of an unknown version is refused before any work. */
static void test_check_options_callback_null_and_unknown_version(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	char *dir = tu_tmpdir("check-opts");
	eng_env *env = env_open_create(dir);
	eng_close(env);
	ingest_n(dir, 4, 1);
	env = env_open_create(dir);
	assert_int_equal(commit_specs(env, s, BASE_N, NULL, 0, (eng_ref){ 1, 1 }, 9), 1);
	eng_close(env);
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	unsigned calls = 0;
	uint64_t with = UINT64_MAX, without = UINT64_MAX;
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	co.violation = count_violation;
	co.violation_ctx = &calls;
	assert_int_equal(h2emv_check(&with, mem, &co, &err), H2EMV_OK);
	assert_int_equal(calls, with);
	assert_int_equal(h2emv_check(&without, mem, NULL, &err), H2EMV_OK);
	assert_int_equal(with, 1); /* the cursor past the log, as above */
	assert_int_equal(without, with);
	co.version = H2EMV_CHECK_OPTIONS_VERSION + 1;
	calls = 0;
	assert_int_equal(h2emv_check(&with, mem, &co, &err), H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "version"));
	assert_int_equal(calls, 0);
	h2emv_mem_close(mem);
	assert_int_equal(h2emv_check_store(&with, dir, &co, &err), H2EMV_EINVAL);
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_cursor_beyond_the_log(void **state)
{
	(void)state;
	spec s[BASE_N];
	base_tree(s);
	char *dir = tu_tmpdir("check-beyond");
	eng_env *env = env_open_create(dir);
	eng_close(env);
	ingest_n(dir, 4, 1);
	env = env_open_create(dir);
	/* the engine does not stop a cursor past the last observation ... */
	assert_int_equal(commit_specs(env, s, BASE_N, NULL, 0, (eng_ref){ 1, 1 }, 9), 1);
	eng_close(env);
	/* ... check reports it */
	vlist l;
	uint64_t n = run_check(dir, &l);
	assert_int_equal(n, 1);
	assert_string_equal(l.v[0].rule, "cursor-beyond-log");
	assert_string_equal(l.v[0].db, "snapshots");
	assert_int_equal(l.v[0].snapshot, 1);
	tu_rmrf(dir);
	free(dir);
}

static void test_check_reports_flipped_byte_as_checksum_and_read_is_ecorrupt(void **state)
{
	(void)state;
	/* a unique summary, printable but without repeats zstd could use */
	char summary[80];
	uint64_t x = 0x9E3779B97F4A7C15ull;
	int k = snprintf(summary, sizeof summary, "flip-target:");
	for (; k < 72; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		summary[k] = (char)('!' + (x % 94));
	}
	summary[k] = 0;
	spec s[BASE_N];
	base_tree(s);
	s[4].summary = summary; /* event 5 */
	char *dir = store_with_tree("check-flip", s, BASE_N);
	vlist l;
	assert_int_equal(run_check(dir, &l), 0);

	size_t flen, offs[8];
	uint8_t *file = read_data_file(dir, &flen);
	size_t slen = strlen(summary);
	size_t hits = find_all(offs, 8, file, flen, summary, slen);
	if (!hits)
		fprintf(stderr, "the summary is not stored raw in data.mdb (compressed?)\n");
	assert_true(hits >= 1);
	for (size_t i = 0; i < hits; i++) {
		uint8_t b = file[offs[i] + slen / 2] ^ 0x01;
		write_at(dir, offs[i] + slen / 2, &b, 1);
	}
	free(file);

	uint64_t n = run_check(dir, &l);
	assert_int_equal(n, 1);
	assert_string_equal(l.v[0].rule, "checksum");
	assert_string_equal(l.v[0].db, "nodes");
	assert_int_equal(l.v[0].node.id, 5);
	assert_int_equal(l.v[0].node.version, 1);
	assert_int_equal(l.v[0].key, 5);

	/* reading the damaged node is an error, never a crash or wrong text */
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	h2emv_snap *snap = NULL;
	assert_int_equal(h2emv_snap_open(&snap, mem, H2EMV_SNAP_LATEST, &err), H2EMV_OK);
	const h2emv_node *node = NULL;
	memset(&err, 0, sizeof err);
	assert_int_equal(h2emv_snap_node(&node, snap, (h2emv_ref){ 5, 1 }, &err), H2EMV_ECORRUPT);
	assert_int_equal(err.status, H2EMV_ECORRUPT);
	assert_true(strlen(err.message) > 0);
	const h2emv_node *goal = NULL;
	assert_int_equal(h2emv_snap_node(&goal, snap, (h2emv_ref){ 2, 1 }, &err), H2EMV_OK);
	assert_int_equal(h2emv_node_child(&node, snap, goal, 1, &err), H2EMV_ECORRUPT);
	/* its sibling is intact */
	assert_int_equal(h2emv_node_child(&node, snap, goal, 0, &err), H2EMV_OK);
	assert_string_equal(h2emv_node_summary(node, NULL), "grasp cup");
	h2emv_snap_close(snap);
	h2emv_mem_close(mem);
	tu_rmrf(dir);
	free(dir);
}

/* Flip the last byte of the id record named by ctx (a C string): the
 * checksum no longer matches, as after a bad sector under that entry. */
static int damage_id_record(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	const char *id = ctx;
	MDB_val k = { strlen(id), (void *)id }, v;
	int rc = mdb_get(txn, env->dbi[DB_OBSIDS], &k, &v);
	if (rc)
		return env_err(err, rc, "reading the id record");
	uint8_t copy[256];
	if (v.mv_size == 0 || v.mv_size > sizeof copy)
		return env_err(err, MDB_BAD_VALSIZE, "the id record's size");
	memcpy(copy, v.mv_data, v.mv_size);
	copy[v.mv_size - 1] ^= 0x01;
	MDB_val nv = { v.mv_size, copy };
	rc = mdb_put(txn, env->dbi[DB_OBSIDS], &k, &nv, 0);
	return rc ? env_err(err, rc, "rewriting the id record") : H2EMV_OK;
}

/* The observation-id index is a database like the others: an entry whose
 * checksum fails is reported once, by the record pass (the index pass
 * leaves unreadable entries to it), with the database named. */
static void test_check_reports_damaged_observation_id_record(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("check-obsids");
	eng_env *env = env_open_create(dir);
	eng_close(env);
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	for (int i = 1; i <= 3; i++) {
		char line[160];
		int n = snprintf(line, sizeof line,
		                 "{\"t\":\"2024-06-26T19:00:%02dZ\",\"note\":\"step %d\",\"id\":\"r-%d\"}",
		                 i, i, i);
		uint64_t seq = 0;
		assert_int_equal(h2emv_ingest(&seq, mem, line, (size_t)n, &err), H2EMV_OK);
		assert_int_equal(seq, (uint64_t)i);
	}
	h2emv_mem_close(mem);
	vlist l;
	assert_int_equal(run_check(dir, &l), 0);

	env = env_open_create(dir);
	assert_int_equal(env_write(env, damage_id_record, "r-2", &err), H2EMV_OK);
	eng_close(env);
	uint64_t n = run_check(dir, &l);
	assert_int_equal(n, 1);
	assert_string_equal(l.v[0].rule, "checksum");
	assert_string_equal(l.v[0].db, "obsids");
	assert_true(strlen(l.v[0].message) > 0);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------ garbage in the file -- */

enum {
	OUT_OPEN_FAILED = 20,
	OUT_CHECK_FAILED = 21,
	OUT_VIOLATIONS = 22,
	OUT_CLEAN = 23,
};

static void garbage_child(const char *dir)
{
	/* cmocka's handlers would turn a crash into "next test" in this child */
	int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGALRM };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	alarm(30); /* a loop in damaged pages must not hang the test */
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_open(&mem, dir, NULL, &err);
	if (rc) {
		fprintf(stderr, "    open: %s: %s\n", h2emv_strerror(rc), err.message);
		_exit(OUT_OPEN_FAILED);
	}
	uint64_t n = 0;
	rc = h2emv_check(&n, mem, NULL, &err);
	h2emv_mem_close(mem);
	if (rc) {
		fprintf(stderr, "    check: %s: %s\n", h2emv_strerror(rc), err.message);
		_exit(OUT_CHECK_FAILED);
	}
	fprintf(stderr, "    check: %llu violations\n", (unsigned long long)n);
	_exit(n ? OUT_VIOLATIONS : OUT_CLEAN);
}

static void test_check_on_file_with_garbage_pages_errors_or_reports(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("check-garbage");
	eng_env *env = env_open_create(dir);
	eng_close(env);
	for (int i = 0; i < 40; i++)
		ingest_n(dir, 60, (uint64_t)i * 60 + 1);
	spec s[BASE_N];
	base_tree(s);
	env = env_open_create(dir);
	commit_specs(env, s, BASE_N, NULL, 0, (eng_ref){ 1, 1 }, 2400);
	eng_close(env);
	vlist l;
	assert_int_equal(run_check(dir, &l), 0);

	size_t flen;
	uint8_t *pristine = read_data_file(dir, &flen);
	const size_t page = 4096;
	size_t npages = flen / page;
	assert_true(npages >= 32);
	/* fixed, not from the clock, so a failure replays; printed all the same */
	const uint64_t seed0 = 0x5EEDull ^ (uint64_t)flen;
	uint64_t seed = seed0;
	fprintf(stderr, "garbage seed %#llx (%zu pages)\n", (unsigned long long)seed0, npages);
	int tally[5] = { 0 }; /* open failed, check failed, violations, clean, crashed */
	enum { VARIANTS = 16 };
	uint8_t *junk = malloc(npages * page);
	assert_non_null(junk);
	for (int variant = 0; variant < VARIANTS; variant++) {
		size_t first, count;
		if (variant == 0) { /* everything but the two meta pages and the last */
			first = 2;
			count = npages - 3;
		} else {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			first = npages / 4 + seed % (npages / 2);
			count = 1 + (seed >> 20) % 8;
			if (first + count > npages - 1)
				count = npages - 1 - first;
		}
		for (size_t i = 0; i < count * page; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			junk[i] = (uint8_t)(seed >> 24);
		}
		write_at(dir, 0, pristine, flen);
		write_at(dir, first * page, junk, count * page);
		fflush(stderr);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			garbage_child(dir);
		int status = 0;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		const char *what;
		int slot;
		if (WIFEXITED(status) && WEXITSTATUS(status) >= OUT_OPEN_FAILED &&
		    WEXITSTATUS(status) <= OUT_CLEAN) {
			slot = WEXITSTATUS(status) - OUT_OPEN_FAILED;
			const char *names[] = { "open refused", "check failed", "violations found",
				                "no violation" };
			what = names[slot];
		} else {
			slot = 4;
			what = "child crashed";
		}
		tally[slot]++;
		fprintf(stderr, "  garbage pages %zu..%zu of %zu: %s", first, first + count - 1,
		        npages, what);
		if (WIFSIGNALED(status))
			fprintf(stderr, " (signal %d)", WTERMSIG(status));
		else if (slot == 4)
			fprintf(stderr, " (exit status %d)", WEXITSTATUS(status));
		fprintf(stderr, "\n");
		/* a crash or a hang (the child's alarm) of check is a failure:
		 * damaged bytes must give an error or a violation */
		if (slot == 4)
			fprintf(stderr, "check %s on garbage pages %zu..%zu (seed %#llx)\n",
			        WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? "hung"
			                                                         : "crashed",
			        first, first + count - 1, (unsigned long long)seed0);
		assert_int_not_equal(slot, 4);
		/* damage to almost the whole file cannot go unnoticed */
		if (variant == 0)
			assert_int_not_equal(slot, OUT_CLEAN - OUT_OPEN_FAILED);
	}
	fprintf(stderr,
	        "garbage summary: %d open refused, %d check failed, %d violations found, "
	        "%d no violation (garbage on free pages), %d child crashed\n",
	        tally[0], tally[1], tally[2], tally[3], tally[4]);
	free(junk);
	free(pristine);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_finds_nothing_in_valid_path_copied_trees),
		cmocka_unit_test(test_check_reports_dangling_child_with_parent_and_missing_ref),
		cmocka_unit_test(test_check_reports_children_listed_out_of_time_order),
		cmocka_unit_test(test_check_reports_overlapping_siblings_as_child_order),
		cmocka_unit_test(test_check_reports_child_spanning_outside_its_parent),
		cmocka_unit_test(test_check_reports_parent_expiring_before_its_child),
		cmocka_unit_test(test_check_reports_child_not_below_its_parent_level),
		cmocka_unit_test(test_check_reports_version_listed_dead_but_still_in_tree),
		cmocka_unit_test(test_check_reports_build_cursor_going_back),
		cmocka_unit_test(test_check_reports_cursor_beyond_the_log),
		cmocka_unit_test(test_check_options_callback_null_and_unknown_version),
		cmocka_unit_test(test_check_reports_flipped_byte_as_checksum_and_read_is_ecorrupt),
		cmocka_unit_test(test_check_reports_damaged_observation_id_record),
		cmocka_unit_test(test_check_on_file_with_garbage_pages_errors_or_reports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
