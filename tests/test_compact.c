/*
 * test_compact.c — compaction gives freed space back and, with GC before
 * it, removes the bytes of forgotten content from the data file. It runs
 * beside readers: a snapshot open here, or another process with the memory
 * open, keeps working across the switch to the new generation of the file.
 * (test_compact_live.c runs it beside CLI askers, a follower and kill -9.)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "api/mem/mem.h" /* the engine env behind a h2emv_mem: one LMDB env per process */
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* ------------------------------------------------------------ helpers -- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

typedef struct fixture {
	char *dir;
	h2emv_mem *mem;
	eng_env *env;
} fixture;

static int open_mem_trained(fixture *f, unsigned flags, uint32_t dict_train_after)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = flags;
	o.dict_train_after = dict_train_after;
	h2emv_error e = { 0 };
	int rc = h2emv_mem_open(&f->mem, f->dir, &o, &e);
	if (rc) {
		fprintf(stderr, "open %s: %s\n", f->dir, e.message);
		f->mem = NULL;
		f->env = NULL;
		return rc;
	}
	f->env = f->mem->env;
	return 0;
}

static int open_mem(fixture *f, unsigned flags)
{
	return open_mem_trained(f, flags, 0);
}

static int fx_setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!rng_state) {
		/* from the clock unless given; printed so a failure can be replayed */
		const char *s = getenv("H2EMV_COMPACT_SEED");
		rng_state = s && *s ? strtoull(s, NULL, 0)
		                    : (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
		if (!rng_state)
			rng_state = 1;
		fprintf(stderr, "seed %" PRIu64 " (H2EMV_COMPACT_SEED=%" PRIu64 " replays it)\n",
		        rng_state, rng_state);
	}
	f->dir = tu_tmpdir("compact");
	*state = f;
	return open_mem(f, H2EMV_OPEN_CREATE);
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

/* The current generation's data file. */
static char *data_path(const fixture *f)
{
	static char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, f->dir, NULL), H2EMV_OK);
	return path;
}

static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* How many times `needle` occurs in the file at `path`. */
static int occurrences(const char *path, const char *needle)
{
	size_t len = 0;
	char *data = tu_read_file(path, &len);
	assert_non_null(data);
	int count = 0;
	size_t nl = strlen(needle);
	for (const char *p = data, *end = data + len;
	     (p = memmem(p, (size_t)(end - p), needle, nl)) != NULL; p += nl)
		count++;
	free(data);
	return count;
}

/* Occurrences in every file of the directory (every generation left). */
static int occurrences_in_dir(const fixture *f, const char *needle)
{
	int total = 0;
	DIR *d = opendir(f->dir);
	assert_non_null(d);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		char path[4200];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", f->dir, de->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			total += occurrences(path, needle);
	}
	closedir(d);
	return total;
}

static void commit(fixture *f, eng_node **nodes, size_t n, const eng_ref *dead, size_t nd,
                   eng_ref root, uint64_t *seq)
{
	eng_commit c = { .nodes = nodes, .n_nodes = n, .dead = dead, .n_dead = nd, .root = root,
		         .t_now = 1719431400000000ll, .rules_version = 1, .n_nodes_tree = 2,
		         .next_node_id = 10 };
	h2emv_error e = { 0 };
	int rc = eng_commit_snapshot(seq, f->env, &c, &e);
	if (rc)
		fail_msg("commit: %d %s", rc, e.message);
}

/* The small tree of the marker test: root 1 -> goal 2 -> events 3 and 4. */
typedef struct small_tree {
	eng_node root, goal, ev3;
	eng_ref root_kids[1], goal_kids[2];
	char root_sum[64], goal_sum[64], ev3_sum[64];
} small_tree;

static const int64_t T0 = 1719431337000000ll;

static void tree_node(eng_node *n, uint64_t id, uint32_t ver, int level, int kind, int64_t t0,
                      int64_t t1, char *sum, eng_ref *kids, uint32_t nk)
{
	memset(n, 0, sizeof *n);
	n->id = id;
	n->version = ver;
	n->level = (uint8_t)level;
	n->kind = (uint8_t)kind;
	n->t_start = t0;
	n->t_end = t1;
	n->expiry = H2EMV_TIME_NEVER;
	n->summary = sum;
	n->summary_len = strlen(sum);
	n->children = kids;
	n->n_children = nk;
}

/* Versions: root r, goal g, event 3 at v3, event 4 at v4. */
static void small_tree_make(small_tree *t, uint32_t r, uint32_t g, uint32_t v3, uint32_t v4)
{
	snprintf(t->root_sum, sizeof t->root_sum, "the robot's day, version %u", r);
	snprintf(t->goal_sum, sizeof t->goal_sum, "tidy the hallway, version %u", g);
	snprintf(t->ev3_sum, sizeof t->ev3_sum, "picked up a shoe, version %u", v3);
	t->root_kids[0] = (eng_ref){ 2, g };
	t->goal_kids[0] = (eng_ref){ 3, v3 };
	t->goal_kids[1] = (eng_ref){ 4, v4 };
	tree_node(&t->root, 1, r, 5, H2EMV_KIND_ROOT, T0, T0 + 2000, t->root_sum, t->root_kids, 1);
	tree_node(&t->goal, 2, g, 3, H2EMV_KIND_GOAL, T0, T0 + 2000, t->goal_sum, t->goal_kids, 2);
	tree_node(&t->ev3, 3, v3, 2, H2EMV_KIND_EVENT, T0, T0 + 1000, t->ev3_sum, NULL, 0);
}

/* ------------------------------------------------------------- tests -- */

static void test_forgotten_text_is_gone_from_the_file_after_gc_and_compact(void **state)
{
	fixture *f = *state;
	char marker[64];
	snprintf(marker, sizeof marker, "H2EMV-MARKER-%016llx", (unsigned long long)rnd());
	/* The secret sits on the summary's second line; the payload is random
	 * bytes (as a msgpack bin) so compression does not pay and the record
	 * is stored raw, the marker in clear. */
	char secret[160];
	snprintf(secret, sizeof secret, "Met a visitor in the hallway\nThey said the code is %s.",
	         marker);
	uint8_t payload[3 + 700];
	payload[0] = 0xc5;
	payload[1] = (uint8_t)((sizeof payload - 3) >> 8);
	payload[2] = (uint8_t)(sizeof payload - 3);
	for (size_t i = 3; i < sizeof payload; i++)
		payload[i] = (uint8_t)rnd();
	eng_node ev4;
	tree_node(&ev4, 4, 1, 2, H2EMV_KIND_EVENT, T0 + 1000, T0 + 2000, secret, NULL, 0);
	ev4.payload = payload;
	ev4.payload_len = sizeof payload;

	small_tree t;
	small_tree_make(&t, 1, 1, 1, 1);
	eng_node *first[] = { &t.root, &t.goal, &t.ev3, &ev4 };
	uint64_t seq;
	commit(f, first, 4, NULL, 0, (eng_ref){ 1, 1 }, &seq);
	assert_int_equal(seq, 1);
	/* the proof that the marker reached the file in clear */
	int before = occurrences(data_path(f), marker);
	if (before < 1)
		fail_msg("the marker is not in data.mdb before forgetting: the test proves nothing");

	/* forget event 4: a placeholder version, new ancestors, the old ones dead */
	eng_read *r;
	eng_node *old4, *ph;
	h2emv_error e = { 0 };
	assert_int_equal(eng_read_begin(&r, f->env, &e), H2EMV_OK);
	assert_int_equal(eng_node_get(&old4, r, (eng_ref){ 4, 1 }, &e), H2EMV_OK);
	eng_read_end(r);
	assert_int_equal(node_tombstone(&ph, old4, &e), H2EMV_OK);
	free(old4);
	small_tree_make(&t, 2, 2, 1, ph->version);
	eng_node *forget[] = { &t.root, &t.goal, ph };
	const eng_ref dead[] = { { 4, 1 }, { 2, 1 }, { 1, 1 } };
	commit(f, forget, 3, dead, 3, (eng_ref){ 1, 2 }, &seq);
	assert_int_equal(seq, 2);
	/* older snapshots still see it, so it is still there */
	assert_true(occurrences(data_path(f), marker) >= 1);

	/* four more days: event 3 changes, the forgetting ages out of retention */
	for (uint32_t v = 2; v <= 5; v++) {
		small_tree_make(&t, v + 1, v + 1, v, 2);
		eng_node *upd[] = { &t.root, &t.goal, &t.ev3 };
		const eng_ref d[] = { { 3, v - 1 }, { 2, v }, { 1, v } };
		commit(f, upd, 3, d, 3, (eng_ref){ 1, v + 1 }, &seq);
	}
	assert_int_equal(seq, 6);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 2;
	h2emv_gc_result res;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 4);
	assert_true(res.versions_deleted >= 3);
	print_message("after gc, before compaction: the marker occurs %d times in data.mdb\n",
	              occurrences(data_path(f), marker));

	uint64_t bytes_before = 0, bytes_after = 0;
	uint64_t disk_before = file_size(data_path(f));
	assert_int_equal(h2emv_compact(&bytes_before, &bytes_after, f->mem, &e), H2EMV_OK);
	assert_int_equal(bytes_before, disk_before);
	assert_int_equal(bytes_after, file_size(data_path(f)));
	assert_true(bytes_after <= bytes_before);
	print_message("compaction: %llu -> %llu bytes\n", (unsigned long long)bytes_before,
	              (unsigned long long)bytes_after);
	assert_int_equal(occurrences_in_dir(f, marker), 0);

	/* the placeholder keeps the time range and the first line */
	h2emv_snap *snap;
	const h2emv_node *root, *goal, *gone;
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, snap, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_child(&goal, snap, root, 0, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_child_count(goal), 2);
	assert_int_equal(h2emv_node_child(&gone, snap, goal, 1, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_kind(gone), H2EMV_KIND_FORGOTTEN);
	assert_int_equal(h2emv_node_ref(gone).id, 4);
	assert_int_equal(h2emv_node_ref(gone).version, 2);
	assert_true(h2emv_node_start(gone) == T0 + 1000);
	assert_true(h2emv_node_end(gone) == T0 + 2000);
	assert_string_equal(h2emv_node_summary(gone, NULL), "Met a visitor in the hallway");
	size_t plen = 99;
	assert_null(h2emv_node_payload(gone, &plen));
	assert_int_equal(plen, 0);
	assert_int_equal(h2emv_node_child_count(gone), 0);
	const h2emv_node *v1;
	assert_int_equal(h2emv_snap_node(&v1, snap, (h2emv_ref){ 4, 1 }, &e), H2EMV_ENOTFOUND);
	h2emv_snap_close(snap);
	free(ph);

	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);

	/* and the compacted memory takes new work and survives a reopen */
	small_tree_make(&t, 7, 7, 6, 2);
	eng_node *next[] = { &t.root, &t.goal, &t.ev3 };
	const eng_ref d[] = { { 3, 5 }, { 2, 6 }, { 1, 6 } };
	commit(f, next, 3, d, 3, (eng_ref){ 1, 7 }, &seq);
	assert_int_equal(seq, 7);
	h2emv_mem_close(f->mem);
	assert_int_equal(open_mem(f, 0), 0);
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	assert_int_equal(occurrences_in_dir(f, marker), 0);
}

/* Node records that look alike train a zstd dictionary, and a dictionary
 * holds the byte strings its samples share. Text the robot was told to
 * forget must not outlive the forgetting there either: after the records
 * are collected and the file compacted, it must be gone from the disk. */
static void test_forgotten_text_does_not_survive_in_a_trained_dictionary(void **state)
{
	fixture *f = *state;
	h2emv_mem_close(f->mem);
	assert_int_equal(open_mem_trained(f, H2EMV_OPEN_NOSYNC, 200), 0);
	char marker[64];
	snprintf(marker, sizeof marker, "H2EMV-MARKER-%016llx", (unsigned long long)rnd());
	/* 300 versions of one summary node, each repeating what Alice said */
	uint64_t seq = 0;
	for (uint32_t v = 1; v <= 300; v++) {
		char sum[256];
		snprintf(sum, sizeof sum,
		         "Visit %u to room %u\nAlice told me %s again while holding item %u", v,
		         v % 7, marker, v * 13 % 101);
		eng_node n;
		tree_node(&n, 1, v, 5, H2EMV_KIND_ROOT, T0, T0 + v, sum, NULL, 0);
		eng_node *nodes[] = { &n };
		const eng_ref dead = { 1, v - 1 };
		commit(f, nodes, 1, &dead, v > 1, (eng_ref){ 1, v }, &seq);
	}
	h2emv_stats st;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	/* today a node dictionary is trained here; a fix may train none */
	print_message("%llu zstd dictionaries trained from these node records\n",
	              (unsigned long long)st.dicts);
	/* forget the last version; collect every other one; compact */
	eng_read *r;
	eng_node *last, *ph;
	assert_int_equal(eng_read_begin(&r, f->env, &e), H2EMV_OK);
	assert_int_equal(eng_node_get(&last, r, (eng_ref){ 1, 300 }, &e), H2EMV_OK);
	eng_read_end(r);
	assert_int_equal(node_tombstone(&ph, last, &e), H2EMV_OK);
	free(last);
	eng_node *nodes[] = { ph };
	const eng_ref dead = { 1, 300 };
	commit(f, nodes, 1, &dead, 1, (eng_ref){ 1, 301 }, &seq);
	free(ph);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	h2emv_gc_result res;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.versions_deleted, 300);
	assert_int_equal(h2emv_compact(NULL, NULL, f->mem, &e), H2EMV_OK);
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(st.node_versions, 1);
	/* no live record says it ... */
	h2emv_snap *snap;
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, snap, &e), H2EMV_OK);
	assert_string_equal(h2emv_node_summary(root, NULL), "Visit 300 to room 6");
	h2emv_snap_close(snap);
	/* ... and neither may the file */
	int left = occurrences_in_dir(f, marker);
	if (left)
		fail_msg("forgotten text is still on disk %d times after gc and compaction, though "
		         "no stored node says it: the trained dictionary keeps it", left);
}

/* A tree transcript: every snapshot's root and every node version stored. */
static void transcript(eng_buf *out, fixture *f)
{
	out->len = 0;
	h2emv_snap_info *list;
	size_t n;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_list(&list, &n, f->mem, &e), H2EMV_OK);
	for (size_t i = 0; i < n; i++) {
		h2emv_snap *s;
		const h2emv_node *root, *goal, *kid;
		assert_int_equal(h2emv_snap_open(&s, f->mem, list[i].seq, &e), H2EMV_OK);
		assert_int_equal(h2emv_snap_root(&root, s, &e), H2EMV_OK);
		assert_int_equal(h2emv_node_child(&goal, s, root, 0, &e), H2EMV_OK);
		const h2emv_node *all[4] = { root, goal, NULL, NULL };
		for (size_t k = 0; k < 2; k++) {
			assert_int_equal(h2emv_node_child(&kid, s, goal, k, &e), H2EMV_OK);
			all[2 + k] = kid;
		}
		assert_int_equal(eng_buf_append(out, &list[i].seq, sizeof list[i].seq), H2EMV_OK);
		for (int k = 0; k < 4; k++) {
			size_t len;
			const char *sum = h2emv_node_summary(all[k], &len);
			h2emv_ref ref = h2emv_node_ref(all[k]);
			assert_int_equal(eng_buf_append(out, &ref.id, sizeof ref.id), H2EMV_OK);
			assert_int_equal(eng_buf_append(out, &ref.version, sizeof ref.version), H2EMV_OK);
			assert_int_equal(eng_buf_append(out, sum, len), H2EMV_OK);
		}
		h2emv_snap_close(s);
	}
	h2emv_free(list);
}

/* Many versions of a two-event tree; returns the last seq. */
static uint64_t grow_history(fixture *f, int commits)
{
	small_tree t;
	char sum4[64];
	eng_node ev4;
	uint64_t seq = 0;
	for (int i = 1; i <= commits; i++) {
		uint32_t v = (uint32_t)i;
		small_tree_make(&t, v, v, v, v);
		snprintf(sum4, sizeof sum4, "handed over the keys, version %u", v);
		tree_node(&ev4, 4, v, 2, H2EMV_KIND_EVENT, T0 + 1000, T0 + 2000, sum4, NULL, 0);
		eng_node *nodes[] = { &t.root, &t.goal, &t.ev3, &ev4 };
		const eng_ref dead[] = { { 1, v - 1 }, { 2, v - 1 }, { 3, v - 1 }, { 4, v - 1 } };
		commit(f, nodes, 4, dead, i > 1 ? 4 : 0, (eng_ref){ 1, v }, &seq);
	}
	return seq;
}

static void test_compaction_keeps_every_snapshot_and_shrinks_the_file(void **state)
{
	fixture *f = *state;
	assert_int_equal(grow_history(f, 400), 400);
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_pin(f->mem, "first", 1, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(f->mem, "middle", 200, &e), H2EMV_OK);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 3;
	assert_int_equal(h2emv_gc(NULL, f->mem, &o, &e), H2EMV_OK);
	h2emv_stats s0, s1;
	assert_int_equal(h2emv_mem_stats(&s0, f->mem, &e), H2EMV_OK);
	assert_int_equal(s0.snapshots, 5);
	eng_buf t0 = { 0 }, t1 = { 0 };
	transcript(&t0, f);
	uint64_t before, after;
	assert_int_equal(h2emv_compact(&before, &after, f->mem, &e), H2EMV_OK);
	/* 400 commits of copy-on-write left far more free pages than live ones */
	assert_true(after < before);
	assert_int_equal(after, file_size(data_path(f)));
	transcript(&t1, f);
	assert_int_equal(t1.len, t0.len);
	assert_memory_equal(t1.data, t0.data, t0.len);
	assert_int_equal(h2emv_mem_stats(&s1, f->mem, &e), H2EMV_OK);
	assert_int_equal(s1.snapshots, s0.snapshots);
	assert_int_equal(s1.node_versions, s0.node_versions);
	assert_int_equal(s1.dead_versions, s0.dead_versions);
	assert_int_equal(s1.pins, 2);
	assert_int_equal(s1.file_bytes, after);
	assert_true(s1.used_bytes <= s0.used_bytes);
	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	/* compacting a compact file changes nothing that matters */
	uint64_t again;
	assert_int_equal(h2emv_compact(&before, &again, f->mem, &e), H2EMV_OK);
	assert_true(again <= after);
	eng_buf_free(&t0);
	eng_buf_free(&t1);
}

static void test_compaction_with_a_snapshot_open_here_works_beside_it(void **state)
{
	fixture *f = *state;
	grow_history(f, 20);
	h2emv_snap *snap;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_open(&snap, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	char old_path[4200];
	snprintf(old_path, sizeof old_path, "%s", data_path(f));
	memset(&e, 0, sizeof e);
	uint64_t before, after;
	assert_int_equal(h2emv_compact(&before, &after, f->mem, &e), H2EMV_OK);
	/* the new generation is current, the old file is gone from the
	 * directory, and the open snapshot still reads it through its map */
	assert_string_not_equal(data_path(f), old_path);
	assert_int_not_equal(access(old_path, F_OK), 0);
	assert_int_equal(tu_data_files(f->dir), 1);
	assert_int_equal(file_size(data_path(f)), after);
	const h2emv_node *root, *goal;
	assert_int_equal(h2emv_snap_root(&root, snap, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_ref(root).version, 20);
	assert_int_equal(h2emv_node_child(&goal, snap, root, 0, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_ref(goal).version, 20);

	/* a write lands in the new generation while the old view stays open */
	small_tree t;
	small_tree_make(&t, 21, 21, 21, 20);
	eng_node *nodes[] = { &t.root, &t.goal, &t.ev3 };
	const eng_ref dead[] = { { 1, 20 }, { 2, 20 }, { 3, 20 } };
	uint64_t seq;
	commit(f, nodes, 3, dead, 3, (eng_ref){ 1, 21 }, &seq);
	assert_int_equal(seq, 21);
	h2emv_snap *fresh;
	assert_int_equal(h2emv_snap_open(&fresh, f->mem, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, fresh, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_ref(root).version, 21);
	h2emv_snap_close(fresh);
	/* a second compaction with the first-generation view still open */
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, f->env, &e), H2EMV_OK);
	assert_int_equal(h2emv_compact(NULL, NULL, f->mem, &e), H2EMV_OK);
	uint64_t last = 0;
	assert_int_equal(eng_obs_last(&last, r, &e), H2EMV_OK);
	eng_read_end(r);
	assert_int_equal(h2emv_node_ref(goal).version, 20);
	h2emv_snap_close(snap);
	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(st.generation, 2);
	assert_int_equal(st.last_snapshot, 21);
}

/* A child that opens the memory and holds it until told to go; then it
 * appends observation `seq` on the handle it opened before the compaction
 * and reads it back through a new view. Reports 'R' when open, 'E' when the
 * open failed. */
static pid_t spawn_holder(const char *dir, int *go_fd)
{
	int ready[2], go[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		tu_child_default_signals();
		close(ready[0]);
		close(go[1]);
		h2emv_mem *m = NULL;
		eng_read *r = NULL;
		char c = h2emv_mem_open(&m, dir, NULL, NULL) == H2EMV_OK ? 'R' : 'E';
		/* a view open across the compaction, too */
		if (c == 'R' && eng_read_begin(&r, m->env, NULL) != H2EMV_OK)
			c = 'E';
		if (write(ready[1], &c, 1) != 1)
			_exit(3);
		char x;
		while (read(go[0], &x, 1) < 0)
			;
		if (c != 'R')
			_exit(2);
		uint64_t before = 0, first = 0, last = 0;
		eng_obs_last(&before, r, NULL);
		eng_read_end(r);
		eng_buf body = { 0 }, back = { 0 };
		tu_obs_body(&body, 7);
		if (eng_obs_append(m->env, &body, 1, &first, NULL) != H2EMV_OK)
			_exit(4);
		if (eng_read_begin(&r, m->env, NULL) != H2EMV_OK || eng_obs_last(&last, r, NULL) ||
		    last != first || eng_obs_get(&back, r, first, NULL) || back.len != body.len ||
		    memcmp(back.data, body.data, body.len) != 0)
			_exit(5);
		eng_read_end(r);
		eng_buf_free(&body);
		eng_buf_free(&back);
		h2emv_mem_close(m);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	char c = 0;
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	assert_int_equal(c, 'R');
	*go_fd = go[1];
	return pid;
}

static void release_holder(pid_t pid, int go_fd)
{
	assert_int_equal(write(go_fd, "x", 1), 1);
	close(go_fd);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_compaction_while_another_process_has_the_memory_open_works(void **state)
{
	fixture *f = *state;
	grow_history(f, 20);
	int go;
	pid_t child = spawn_holder(f->dir, &go);
	h2emv_error e = { 0 };
	int rc = h2emv_compact(NULL, NULL, f->mem, &e);
	if (rc != H2EMV_OK) {
		release_holder(child, go);
		fail_msg("compaction with another process attached gave %d (%s)", rc, e.message);
	}
	/* this process keeps working normally */
	small_tree t;
	small_tree_make(&t, 21, 21, 21, 20);
	eng_node *nodes[] = { &t.root, &t.goal, &t.ev3 };
	const eng_ref dead[] = { { 1, 20 }, { 2, 20 }, { 3, 20 } };
	uint64_t seq;
	commit(f, nodes, 3, dead, 3, (eng_ref){ 1, 21 }, &seq);
	assert_int_equal(seq, 21);
	/* the child writes through its handle opened on the old generation:
	 * the write must land in the new one, where this process sees it */
	release_holder(child, go);
	uint64_t violations = 99;
	assert_int_equal(h2emv_check(&violations, f->mem, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, f->mem, &e), H2EMV_OK);
	assert_int_equal(st.last_snapshot, 21);
	assert_int_equal(st.obs_count, 1);
	assert_int_equal(st.generation, 1);
	assert_int_equal(tu_data_files(f->dir), 1);
}

/* A crash during compaction leaves the old file whole and a partial copy
 * beside it; the next open throws the copy away and keeps the data. */
static void test_leftover_compaction_copy_is_discarded_on_open(void **state)
{
	fixture *f = *state;
	grow_history(f, 5);
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_compact(NULL, NULL, f->mem, &e), H2EMV_OK); /* generation 1 */
	eng_buf t0 = { 0 }, t1 = { 0 };
	transcript(&t0, f);
	h2emv_mem_close(f->mem);
	/* what a crash can leave: a copy of an older h2emv, the next
	 * generation's half copy, its lock file and CURRENT.tmp, and the
	 * retired generation 0 */
	static const char *const junk[] = { "data.mdb.compact", "data.2.mdb", "data.2.mdb-lock",
		                            "CURRENT.tmp", "data.mdb", "lock.mdb" };
	char tmp[4200];
	for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
		snprintf(tmp, sizeof tmp, "%s/%s", f->dir, junk[i]);
		FILE *fp = fopen(tmp, "wb");
		assert_non_null(fp);
		assert_int_equal(fwrite(i == 3 ? "2\n" : "half a copy", 1, i == 3 ? 2 : 11, fp),
		                 i == 3 ? 2 : 11);
		assert_int_equal(fclose(fp), 0);
	}
	assert_int_equal(open_mem(f, 0), 0);
	for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
		snprintf(tmp, sizeof tmp, "%s/%s", f->dir, junk[i]);
		if (access(tmp, F_OK) == 0)
			fail_msg("%s survived the open", junk[i]);
	}
	assert_int_equal(tu_data_files(f->dir), 1);
	transcript(&t1, f);
	assert_int_equal(t1.len, t0.len);
	assert_memory_equal(t1.data, t0.data, t0.len);
	eng_buf_free(&t0);
	eng_buf_free(&t1);
}

/* CURRENT names the store's file: damaged, the store is refused with a
 * message that names it (nothing is guessed, nothing is recreated). */
static void test_a_damaged_current_file_is_refused_by_name(void **state)
{
	fixture *f = *state;
	grow_history(f, 3);
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_compact(NULL, NULL, f->mem, &e), H2EMV_OK);
	h2emv_mem_close(f->mem);
	f->mem = NULL;
	char cur[4200];
	snprintf(cur, sizeof cur, "%s/CURRENT", f->dir);
	static const char *const bad[] = { "", "1", "x\n", "1\n2\n", "99999999999999999999\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		FILE *fp = fopen(cur, "wb");
		assert_non_null(fp);
		fputs(bad[i], fp);
		assert_int_equal(fclose(fp), 0);
		h2emv_mem *m = NULL;
		memset(&e, 0, sizeof e);
		assert_int_equal(h2emv_mem_open(&m, f->dir, NULL, &e), H2EMV_ECORRUPT);
		assert_non_null(strstr(e.message, "CURRENT"));
	}
	/* naming a generation that is not there is no store either */
	FILE *fp = fopen(cur, "wb");
	assert_non_null(fp);
	fputs("7\n", fp);
	assert_int_equal(fclose(fp), 0);
	h2emv_mem *m = NULL;
	assert_int_not_equal(h2emv_mem_open(&m, f->dir, NULL, &e), H2EMV_OK);
	char *seven = tu_fmt("%s/data.7.mdb", f->dir);
	assert_int_not_equal(access(seven, F_OK), 0);
	free(seven);
	/* without CURRENT, neither an open nor a create touches the data */
	assert_int_equal(unlink(cur), 0);
	memset(&e, 0, sizeof e);
	assert_int_equal(h2emv_mem_open(&m, f->dir, NULL, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "CURRENT is missing"));
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE;
	memset(&e, 0, sizeof e);
	assert_int_equal(h2emv_mem_open(&m, f->dir, &o, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "CURRENT is missing"));
	char *one = tu_fmt("%s/data.1.mdb", f->dir);
	assert_int_equal(access(one, F_OK), 0);
	free(one);
	/* repaired, it opens again */
	fp = fopen(cur, "wb");
	assert_non_null(fp);
	fputs("1\n", fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(open_mem(f, 0), 0);
}

/* LMDB copies pages, not records: compaction verifies every record's
 * checksum first and refuses a damaged store, leaving its file as it was
 * (check has not been run, so no DAMAGED verdict stops it earlier). */
static void test_compaction_refuses_a_record_with_a_bad_checksum(void **state)
{
	fixture *f = *state;
	grow_history(f, 3);
	h2emv_mem_close(f->mem);
	f->mem = NULL;
	char before_path[4200];
	snprintf(before_path, sizeof before_path, "%s", data_path(f));
	size_t len = 0;
	char *data = tu_read_file(before_path, &len);
	assert_non_null(data);
	const char *needle = "handed over the keys, version 3";
	int flipped = 0;
	for (char *p = data; (p = memmem(p, len - (size_t)(p - data), needle, strlen(needle)));
	     p += strlen(needle), flipped++)
		p[0] ^= 0x20; /* 'h' becomes 'H': one bit, in every copy of the record */
	assert_true(flipped >= 1);
	FILE *fp = fopen(before_path, "r+b");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(open_mem(f, 0), 0);
	h2emv_error e = { 0 };
	uint64_t b = 0, a = 0;
	assert_int_equal(h2emv_compact(&b, &a, f->mem, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "checksum"));
	assert_non_null(strstr(e.message, "nodes"));
	assert_int_equal(a, b);
	/* the same file, byte for byte, is still the store; no copy is left */
	assert_string_equal(data_path(f), before_path);
	size_t len2 = 0;
	char *data2 = tu_read_file(before_path, &len2);
	assert_non_null(data2);
	assert_int_equal(len2, len);
	assert_memory_equal(data2, data, len);
	char *next = tu_fmt("%s/data.1.mdb", f->dir);
	assert_int_not_equal(access(next, F_OK), 0);
	free(next);
	free(data);
	free(data2);
}

static void test_compaction_of_a_read_only_memory_is_refused(void **state)
{
	fixture *f = *state;
	grow_history(f, 3);
	h2emv_mem_close(f->mem);
	assert_int_equal(open_mem(f, H2EMV_OPEN_READONLY), 0);
	h2emv_error e = { 0 };
	uint64_t size = file_size(data_path(f));
	assert_int_equal(h2emv_compact(NULL, NULL, f->mem, &e), H2EMV_EREADONLY);
	assert_int_equal(file_size(data_path(f)), size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_forgotten_text_is_gone_from_the_file_after_gc_and_compact,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_forgotten_text_does_not_survive_in_a_trained_dictionary,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_compaction_keeps_every_snapshot_and_shrinks_the_file,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_compaction_with_a_snapshot_open_here_works_beside_it,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(
			test_compaction_while_another_process_has_the_memory_open_works, fx_setup,
			fx_teardown),
		cmocka_unit_test_setup_teardown(test_leftover_compaction_copy_is_discarded_on_open, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_a_damaged_current_file_is_refused_by_name, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_compaction_refuses_a_record_with_a_bad_checksum,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_compaction_of_a_read_only_memory_is_refused, fx_setup,
		                                fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
