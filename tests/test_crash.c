/*
 * test_crash.c — crash atomicity: a writer killed with SIGKILL at a random
 * moment never loses an acknowledged observation or snapshot, and never
 * leaves a store that fails check.
 *
 * A child process works on one store: it ingests observations (single
 * h2emv_ingest, h2emv_ingest_batch, engine-level eng_obs_append, batches of
 * 1..50), commits snapshots that update a fixed-shape tree by path copying
 * (new versions of 1..3 leaves, their goals and the root; the old versions
 * listed dead; build cursor = last observation), runs GC and moves pins.
 * Right after each call returns OK it writes an acknowledgement to a pipe
 * (one write() of a fixed-size struct, atomic under PIPE_BUF). The parent
 * kills it after a random 0..30 ms (one round in ten: 30..300 ms, so that
 * the one-time ~40 ms zstd dictionary training can finish and records
 * compressed with it get written and killed too), drains the pipe, then
 * reopens the store and checks: h2emv_check finds nothing; every observation
 * up to the last stored one, and so every acknowledged one, reads back byte
 * for byte as the child wrote it (bodies are a function of the seq); the
 * newest snapshot is at least the last acknowledged one, which still holds
 * the acknowledged cursor and root; the meta build cursor equals the newest
 * snapshot's; and every stored snapshot's tree walks fully through the
 * public API. The next child continues on the same store. GC never drops
 * the last acknowledged snapshot (children killed between a durable commit
 * and its acknowledgement can leave several newer ones).
 *
 * H2EMV_CRASH_SEED and H2EMV_CRASH_ROUNDS override the seed and the number
 * of kills; the seed is printed so a failure can be replayed.
 *
 * The test reaches two internal headers: api/mem.h for the engine handle
 * behind a h2emv_mem (a process must not open one LMDB environment twice, so
 * engine-level appends and commits go through the handle the child ingests
 * with), and api/observation.h for obs_from_json, the canonical body the
 * stored bytes are compared with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "testutil.h"
#include "api/mem/mem.h"
#include "api/observe/observation.h"

#define DEFAULT_ROUNDS 200
#define MAX_DELAY_US 30000
/* One round in LONG_EVERY lives 30..300 ms instead, so that work taking
 * longer than 30 ms (training a dictionary takes ~40 ms) can complete. */
#define LONG_EVERY 10
#define MAX_LONG_DELAY_US 300000
#define DICT_TRAIN_AFTER 500
/* Past this many observations the child mostly commits, so the per-round
 * check (linear in the store) keeps the run well under a minute even on a
 * disk with fast fsync. */
#define OBS_SOFT_CAP 15000

/* ------------------------------------------------------------ the PRNG -- */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static uint64_t rnd_below(uint64_t *s, uint64_t n)
{
	return rnd_next(s) % n;
}

/* ---------------------------------------------------- what is written -- */

/* The observation with sequence number `seq`: its text depends on seq only. */
static size_t obs_json(char *out, size_t cap, uint64_t seq)
{
	time_t t = (time_t)(1719431337 + seq); /* 2024-06-26T19:48:57Z + seq s */
	struct tm tm;
	gmtime_r(&t, &tm);
	char ts[32];
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	int n = snprintf(out, cap,
	                 "{\"t\":\"%s\",\"action\":{\"name\":\"Grasp\",\"args\":{\"object\":"
	                 "\"cup-%" PRIu64 "\"},\"status\":\"succeeded\"}}",
	                 ts, seq);
	return (size_t)n;
}

/* The tree: root 1 (L4) over goals 2..5 (L3), each over 4 events (L2):
 * leaf l (0..15) is node 6 + l under goal 2 + l / 4. A node's content is a
 * function of (id, version), so a reader can tell a torn tree. */
enum { ROOT_ID = 1, N_GOALS = 4, PER_GOAL = 4, N_LEAVES = 16, N_IDS = 22, TREE_L3 = 5 };
#define T0 INT64_C(1719431337000000)
#define SEC INT64_C(1000000)
#define HOUR (3600 * SEC)

typedef struct tree {
	uint32_t ver[N_IDS]; /* current version of each id (index 1..21) */
} tree;

static int64_t leaf_t0(int l) { return T0 + l * 10 * SEC; }
static int64_t leaf_t1(int l) { return leaf_t0(l) + 5 * SEC; }
static int64_t leaf_expiry(int l, uint32_t ver) { return leaf_t1(l) + (int64_t)ver * HOUR; }

static int64_t goal_expiry(const tree *t, int g)
{
	int64_t e = 0;
	for (int j = 0; j < PER_GOAL; j++) {
		int l = g * PER_GOAL + j;
		int64_t x = leaf_expiry(l, t->ver[6 + l]);
		e = x > e ? x : e;
	}
	return e;
}

static void summary_of(char *out, size_t cap, uint64_t id, uint32_t ver)
{
	snprintf(out, cap, "node %" PRIu64 " v%" PRIu32, id, ver);
}

/* Node `id` at its current version in `t`, as one malloc'd block. */
static eng_node *make_node(const tree *t, uint64_t id)
{
	char sum[48];
	summary_of(sum, sizeof sum, id, t->ver[id]);
	size_t slen = strlen(sum);
	uint32_t nk = id == ROOT_ID ? N_GOALS : id < 6 ? PER_GOAL : 0;
	eng_node *n = calloc(1, sizeof *n + nk * sizeof(eng_ref) + slen + 1);
	if (!n)
		return NULL;
	n->id = id;
	n->version = t->ver[id];
	n->children = (eng_ref *)(n + 1);
	n->n_children = nk;
	n->summary = (char *)(n->children + nk);
	memcpy(n->summary, sum, slen + 1);
	n->summary_len = slen;
	if (id == ROOT_ID) {
		n->level = 4;
		n->kind = H2EMV_KIND_ROOT;
		n->t_start = leaf_t0(0);
		n->t_end = leaf_t1(N_LEAVES - 1);
		n->expiry = H2EMV_TIME_NEVER;
		for (int g = 0; g < N_GOALS; g++)
			n->children[g] = (eng_ref){ (uint64_t)(2 + g), t->ver[2 + g] };
	} else if (id < 6) {
		int g = (int)id - 2;
		n->level = 3;
		n->kind = H2EMV_KIND_GOAL;
		n->t_start = leaf_t0(g * PER_GOAL);
		n->t_end = leaf_t1(g * PER_GOAL + PER_GOAL - 1);
		n->expiry = goal_expiry(t, g);
		for (int j = 0; j < PER_GOAL; j++) {
			uint64_t c = (uint64_t)(6 + g * PER_GOAL + j);
			n->children[j] = (eng_ref){ c, t->ver[c] };
		}
	} else {
		int l = (int)id - 6;
		n->level = 2;
		n->kind = H2EMV_KIND_EVENT;
		n->t_start = leaf_t0(l);
		n->t_end = leaf_t1(l);
		n->expiry = leaf_expiry(l, t->ver[id]);
	}
	return n;
}

/* ------------------------------------------------------- the pipe -- */

enum { ACK_OBS = 1, ACK_SNAP, ACK_PIN, ACK_UNPIN, ACK_GC, ACK_ERR };

typedef struct ack {
	uint32_t type;
	uint32_t mode;         /* ACK_OBS: how it was written */
	uint64_t a, b;         /* OBS: first, last seq; SNAP: seq, cursor; PIN: seq */
	uint64_t root_id;      /* SNAP */
	uint32_t root_version; /* SNAP */
	int32_t status;        /* ERR */
	char msg[200];         /* ERR */
} ack;

_Static_assert(sizeof(ack) <= PIPE_BUF, "an ack must be written atomically");

static void send_ack(int fd, const ack *a)
{
	ssize_t w;
	do
		w = write(fd, a, sizeof *a);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)sizeof *a)
		_exit(4);
}

static void child_fail(int fd, int status, const char *what, const h2emv_error *err)
{
	ack a = { .type = ACK_ERR, .status = status };
	snprintf(a.msg, sizeof a.msg, "%.40s: %.120s (%.30s)", what, err ? err->message : "",
	         h2emv_strerror(status));
	send_ack(fd, &a);
	_exit(3);
}

/* ---------------------------------------------------------- the child -- */

typedef struct child {
	h2emv_mem *mem;
	eng_env *env;
	int fd;
	uint64_t rng;
	uint64_t next_seq; /* the seq the next observation will get */
	uint64_t acked_snap; /* newest snapshot the parent knows was acknowledged */
	tree t;
} child;

/* Read the newest snapshot's tree back into c->t (0 if there is none). */
static int child_load_tree(child *c)
{
	h2emv_error err = { 0 };
	eng_read *r = NULL;
	int rc = eng_read_begin(&r, c->env, &err);
	if (rc)
		child_fail(c->fd, rc, "read view", &err);
	uint64_t last = 0;
	if ((rc = eng_obs_last(&last, r, &err)))
		child_fail(c->fd, rc, "last observation", &err);
	c->next_seq = last + 1;
	eng_snap s;
	rc = eng_snap_get(&s, r, 0, &err);
	if (rc == H2EMV_ENOTFOUND) {
		eng_read_end(r);
		return 0;
	}
	if (rc)
		child_fail(c->fd, rc, "newest snapshot", &err);
	eng_node *root = NULL;
	if ((rc = eng_node_get(&root, r, s.root, &err)))
		child_fail(c->fd, rc, "root", &err);
	if (root->id != ROOT_ID || root->n_children != N_GOALS)
		child_fail(c->fd, H2EMV_EINTERNAL, "root has the wrong shape", NULL);
	c->t.ver[ROOT_ID] = root->version;
	for (int g = 0; g < N_GOALS; g++) {
		eng_node *goal = NULL;
		if ((rc = eng_node_get(&goal, r, root->children[g], &err)))
			child_fail(c->fd, rc, "goal", &err);
		if (goal->n_children != PER_GOAL)
			child_fail(c->fd, H2EMV_EINTERNAL, "goal has the wrong shape", NULL);
		c->t.ver[goal->id] = goal->version;
		for (int j = 0; j < PER_GOAL; j++)
			c->t.ver[goal->children[j].id] = goal->children[j].version;
		free(goal);
	}
	free(root);
	eng_read_end(r);
	return 1;
}

static void child_commit(child *c, const int *leaves, int n_leaves, int initial)
{
	tree nt = c->t;
	eng_node *nodes[N_IDS];
	eng_ref dead[N_IDS];
	size_t nn = 0, nd = 0;
	int goal_changed[N_GOALS] = { 0 };
	if (initial) {
		for (uint64_t id = 1; id < N_IDS; id++)
			nt.ver[id] = 1;
	} else {
		for (int i = 0; i < n_leaves; i++) {
			uint64_t id = (uint64_t)(6 + leaves[i]);
			dead[nd++] = (eng_ref){ id, c->t.ver[id] };
			nt.ver[id]++;
			goal_changed[leaves[i] / PER_GOAL] = 1;
		}
		for (int g = 0; g < N_GOALS; g++) {
			if (!goal_changed[g])
				continue;
			dead[nd++] = (eng_ref){ (uint64_t)(2 + g), c->t.ver[2 + g] };
			nt.ver[2 + g]++;
		}
		dead[nd++] = (eng_ref){ ROOT_ID, c->t.ver[ROOT_ID] };
		nt.ver[ROOT_ID]++;
	}
	for (uint64_t id = 1; id < N_IDS; id++) {
		int changed = initial || nt.ver[id] != c->t.ver[id];
		if (changed && !(nodes[nn++] = make_node(&nt, id)))
			child_fail(c->fd, H2EMV_ENOMEM, "node", NULL);
	}
	uint64_t cursor = c->next_seq - 1;
	eng_commit cm = {
		.nodes = nodes, .n_nodes = nn, .dead = dead, .n_dead = nd,
		.root = { ROOT_ID, nt.ver[ROOT_ID] }, .t_now = T0 + (int64_t)cursor * SEC,
		.build_cursor = cursor, .n_nodes_tree = TREE_L3, .next_node_id = N_IDS,
	};
	h2emv_error err = { 0 };
	uint64_t seq = 0;
	int rc = eng_commit_snapshot(&seq, c->env, &cm, &err);
	for (size_t i = 0; i < nn; i++)
		free(nodes[i]);
	if (rc)
		child_fail(c->fd, rc, "commit", &err);
	c->t = nt;
	c->acked_snap = seq;
	ack a = { .type = ACK_SNAP, .a = seq, .b = cursor, .root_id = ROOT_ID,
		  .root_version = nt.ver[ROOT_ID] };
	send_ack(c->fd, &a);
}

static void child_append(child *c)
{
	int mode = (int)rnd_below(&c->rng, 4); /* 0 ingest, 1 ingest_batch, 2/3 engine 1/batch */
	size_t n = (mode == 0 || mode == 2) ? 1 : 1 + (size_t)rnd_below(&c->rng, 50);
	if (c->next_seq > OBS_SOFT_CAP)
		n = 1;
	static char text[50][256];
	const char *json[50];
	size_t len[50];
	eng_buf bodies[50];
	memset(bodies, 0, sizeof bodies);
	h2emv_error err = { 0 };
	for (size_t i = 0; i < n; i++) {
		len[i] = obs_json(text[i], sizeof text[i], c->next_seq + i);
		json[i] = text[i];
		if (mode >= 2) {
			int rc = obs_from_json(&bodies[i], json[i], len[i], i + 1, &err);
			if (rc)
				child_fail(c->fd, rc, "obs_from_json", &err);
		}
	}
	uint64_t first = 0;
	int rc;
	if (mode == 0)
		rc = h2emv_ingest(&first, c->mem, json[0], len[0], &err);
	else if (mode == 1)
		rc = h2emv_ingest_batch(&first, c->mem, json, len, n, &err);
	else
		rc = eng_obs_append(c->env, bodies, n, &first, &err);
	for (size_t i = 0; i < n; i++)
		eng_buf_free(&bodies[i]);
	if (rc)
		child_fail(c->fd, rc, "append", &err);
	if (first != c->next_seq)
		child_fail(c->fd, H2EMV_EINTERNAL, "append got an unexpected seq", NULL);
	ack a = { .type = ACK_OBS, .mode = (uint32_t)mode, .a = first, .b = first + n - 1 };
	send_ack(c->fd, &a);
	c->next_seq += n;
}

/* GC keeps the newest 2..5 snapshots, and never the one the parent last
 * saw acknowledged: children killed between a durable commit and its
 * acknowledgement can leave several newer, unacknowledged snapshots. */
static void child_gc(child *c)
{
	h2emv_error err = { 0 };
	eng_read *r = NULL;
	eng_snap newest = { 0 };
	int rc = eng_read_begin(&r, c->env, &err);
	if (rc == H2EMV_OK)
		rc = eng_snap_get(&newest, r, 0, &err);
	eng_read_end(r);
	if (rc)
		child_fail(c->fd, rc, "newest snapshot", &err);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 2 + (uint32_t)rnd_below(&c->rng, 4);
	if (c->acked_snap && newest.seq - c->acked_snap + 1 > o.keep_snapshots)
		o.keep_snapshots = (uint32_t)(newest.seq - c->acked_snap + 1);
	o.batch = 1 + (uint32_t)rnd_below(&c->rng, 16);
	h2emv_gc_result res;
	if ((rc = eng_gc(&res, c->env, &o, &err)))
		child_fail(c->fd, rc, "gc", &err);
	ack a = { .type = ACK_GC, .a = res.snapshots_dropped, .b = res.versions_deleted };
	send_ack(c->fd, &a);
}

static _Noreturn void child_main(const char *dir, int fd, uint64_t seed, uint64_t acked_snap)
{
	/* a crash here must end this process, not resume cmocka's test loop */
	int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	child c = { .fd = fd, .rng = seed | 1, .acked_snap = acked_snap };
	h2emv_error err = { 0 };
	/* train the zstd dictionaries early, so records compressed with them
	 * are written (and killed) too */
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.dict_train_after = DICT_TRAIN_AFTER;
	int rc = h2emv_mem_open(&c.mem, dir, &oo, &err);
	if (rc)
		child_fail(fd, rc, "open", &err);
	c.env = c.mem->env;
	if (!child_load_tree(&c))
		child_commit(&c, NULL, 0, 1);
	for (;;) {
		uint64_t r = rnd_below(&c.rng, 100);
		if (r < 60 && c.next_seq > OBS_SOFT_CAP && rnd_below(&c.rng, 10) != 0)
			r = 60; /* a commit instead */
		if (r < 60) {
			child_append(&c);
		} else if (r < 90) {
			int leaves[3], n = 1 + (int)rnd_below(&c.rng, 3);
			for (int i = 0; i < n; i++) {
				int l, dup;
				do {
					l = (int)rnd_below(&c.rng, N_LEAVES);
					dup = 0;
					for (int j = 0; j < i; j++)
						dup |= leaves[j] == l;
				} while (dup);
				leaves[i] = l;
			}
			child_commit(&c, leaves, n, 0);
		} else if (r < 95) {
			child_gc(&c);
		} else {
			const char *name = rnd_below(&c.rng, 2) ? "crash-a" : "crash-b";
			if (rnd_below(&c.rng, 3) == 0) {
				rc = eng_unpin(c.env, name, &err);
				if (rc && rc != H2EMV_ENOTFOUND)
					child_fail(fd, rc, "unpin", &err);
				ack a = { .type = ACK_UNPIN };
				send_ack(fd, &a);
			} else {
				if ((rc = eng_pin(c.env, name, 0, &err)))
					child_fail(fd, rc, "pin", &err);
				ack a = { .type = ACK_PIN };
				send_ack(fd, &a);
			}
		}
	}
}

/* --------------------------------------------------------- the parent -- */

typedef struct expect {
	uint8_t *acked;      /* acked[seq] = 1 + mode for acknowledged observations */
	size_t cap;
	uint64_t max_acked;  /* highest acknowledged observation seq */
	uint64_t snap_seq, snap_cursor;
	eng_ref snap_root;
	eng_buf *bodies;     /* expected body of each seq, computed once */
	size_t n_bodies;
	/* totals */
	uint64_t acks_obs, acks_snap, acks_gc, acks_pin, lost, violations, snaps_walked;
	uint64_t by_mode[4];
	double check_secs, verify_secs;
} expect;

static void note_acked(expect *e, uint64_t first, uint64_t last, uint32_t mode)
{
	if (last + 1 > e->cap) {
		size_t cap = e->cap ? e->cap : 1024;
		while (cap < last + 1)
			cap *= 2;
		e->acked = realloc(e->acked, cap);
		assert_non_null(e->acked);
		memset(e->acked + e->cap, 0, cap - e->cap);
		e->cap = cap;
	}
	for (uint64_t s = first; s <= last; s++)
		e->acked[s] = (uint8_t)(1 + mode);
	if (last > e->max_acked)
		e->max_acked = last;
	e->acks_obs += last - first + 1;
	e->by_mode[mode & 3] += last - first + 1;
}

static const eng_buf *expected_body(expect *e, uint64_t seq)
{
	while (e->n_bodies <= seq) {
		size_t n = e->n_bodies ? e->n_bodies * 2 : 1024;
		e->bodies = realloc(e->bodies, n * sizeof *e->bodies);
		assert_non_null(e->bodies);
		memset(e->bodies + e->n_bodies, 0, (n - e->n_bodies) * sizeof *e->bodies);
		e->n_bodies = n;
	}
	eng_buf *b = &e->bodies[seq];
	if (!b->len) {
		char json[256];
		size_t len = obs_json(json, sizeof json, seq);
		h2emv_error err = { 0 };
		int rc = obs_from_json(b, json, len, 1, &err);
		if (rc)
			fprintf(stderr, "obs_from_json(%s): %s\n", json, err.message);
		assert_int_equal(rc, H2EMV_OK);
	}
	return b;
}

static void print_violation(void *ctx, const h2emv_violation *v)
{
	(void)ctx;
	fprintf(stderr,
	        "  VIOLATION rule=%s db=%s snapshot=%" PRIu64 " node=%" PRIu64 " v%" PRIu32
	        " other=%" PRIu64 " v%" PRIu32 " key=%" PRIu64 ": %s\n",
	        v->rule, v->db, v->snapshot, v->node.id, v->node.version, v->other.id,
	        v->other.version, v->key, v->message);
}

/* Walk snapshot `seq`'s whole tree through the public API. */
static void walk_snapshot(h2emv_mem *mem, uint64_t seq)
{
	h2emv_snap *snap = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_snap_open(&snap, mem, seq, &err);
	if (rc)
		fprintf(stderr, "snapshot %" PRIu64 ": %s\n", seq, err.message);
	assert_int_equal(rc, H2EMV_OK);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	assert_int_equal(info.n_nodes, TREE_L3);
	const h2emv_node *root = NULL;
	assert_int_equal(h2emv_snap_root(&root, snap, &err), H2EMV_OK);
	assert_int_equal(h2emv_node_kind(root), H2EMV_KIND_ROOT);
	assert_int_equal(h2emv_node_child_count(root), N_GOALS);
	char want[48];
	for (size_t g = 0; g < N_GOALS; g++) {
		const h2emv_node *goal = NULL;
		rc = h2emv_node_child(&goal, snap, root, g, &err);
		if (rc)
			fprintf(stderr, "snapshot %" PRIu64 " goal %zu: %s\n", seq, g, err.message);
		assert_int_equal(rc, H2EMV_OK);
		assert_int_equal(h2emv_node_ref(goal).id, 2 + g);
		assert_int_equal(h2emv_node_level(goal), 3);
		assert_int_equal(h2emv_node_child_count(goal), PER_GOAL);
		summary_of(want, sizeof want, h2emv_node_ref(goal).id, h2emv_node_ref(goal).version);
		assert_string_equal(h2emv_node_summary(goal, NULL), want);
		for (size_t j = 0; j < PER_GOAL; j++) {
			const h2emv_node *leaf = NULL;
			rc = h2emv_node_child(&leaf, snap, goal, j, &err);
			if (rc)
				fprintf(stderr, "snapshot %" PRIu64 " leaf: %s\n", seq, err.message);
			assert_int_equal(rc, H2EMV_OK);
			h2emv_ref lr = h2emv_node_ref(leaf);
			assert_int_equal(lr.id, 6 + g * PER_GOAL + j);
			assert_int_equal(h2emv_node_kind(leaf), H2EMV_KIND_EVENT);
			assert_int_equal(h2emv_node_expiry(leaf),
			                 leaf_expiry((int)(lr.id - 6), lr.version));
			summary_of(want, sizeof want, lr.id, lr.version);
			assert_string_equal(h2emv_node_summary(leaf, NULL), want);
			}
	}
	h2emv_snap_close(snap);
}

static void verify_store(const char *dir, expect *e)
{
	h2emv_mem *mem = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_open(&mem, dir, NULL, &err);
	if (rc)
		fprintf(stderr, "reopen: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);

	uint64_t nv = UINT64_MAX;
	struct timespec c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &c0);
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	co.violation = print_violation;
	rc = h2emv_check(&nv, mem, &co, &err);
	clock_gettime(CLOCK_MONOTONIC, &c1);
	e->check_secs += (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	if (rc)
		fprintf(stderr, "check: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	e->violations += nv;
	assert_int_equal(nv, 0);

	/* observations: no gap up to the last stored one, each as written */
	eng_read *r = NULL;
	assert_int_equal(eng_read_begin(&r, mem->env, &err), H2EMV_OK);
	uint64_t last = 0;
	assert_int_equal(eng_obs_last(&last, r, &err), H2EMV_OK);
	eng_buf got = { 0 };
	uint64_t lost = 0, bad = 0;
	for (uint64_t s = 1; s <= last || s <= e->max_acked; s++) {
		int is_acked = s < e->cap && e->acked[s];
		rc = eng_obs_get(&got, r, s, &err);
		const eng_buf *want = expected_body(e, s);
		int ok = rc == H2EMV_OK && got.len == want->len &&
		         memcmp(got.data, want->data, got.len) == 0;
		if (!ok) {
			fprintf(stderr, "observation %" PRIu64 " (%s, last stored %" PRIu64 "): %s\n", s,
			        is_acked ? "acknowledged" : "not acknowledged", last,
			        rc ? err.message : "content differs");
			lost += is_acked;
			bad++;
		}
	}
	e->lost += lost;
	assert_int_equal(lost, 0);
	assert_int_equal(bad, 0);

	/* snapshots: at least the acknowledged one; it still says what it said;
	 * the cursor in meta moved with the newest snapshot */
	eng_snap newest = { 0 };
	rc = eng_snap_get(&newest, r, 0, &err);
	if (e->snap_seq) {
		assert_int_equal(rc, H2EMV_OK);
		assert_true(newest.seq >= e->snap_seq);
		eng_snap acked;
		rc = eng_snap_get(&acked, r, e->snap_seq, &err);
		if (rc)
			fprintf(stderr, "acknowledged snapshot %" PRIu64 " (newest %" PRIu64 "): %s\n",
			        e->snap_seq, newest.seq, err.message);
		assert_int_equal(rc, H2EMV_OK);
		assert_int_equal(acked.build_cursor, e->snap_cursor);
		assert_int_equal(acked.root.id, e->snap_root.id);
		assert_int_equal(acked.root.version, e->snap_root.version);
	}
	if (rc == H2EMV_OK) {
		uint64_t cursor = UINT64_MAX;
		assert_int_equal(eng_build_cursor(&cursor, r, &err), H2EMV_OK);
		assert_int_equal(cursor, newest.build_cursor);
		assert_true(newest.build_cursor <= last);
	}
	eng_read_end(r);
	eng_buf_free(&got);

	/* the last acknowledged observation also reads through the public API */
	if (e->max_acked) {
		char *json = NULL;
		size_t len = 0;
		rc = h2emv_obs_get_json(&json, &len, mem, e->max_acked, &err);
		if (rc)
			fprintf(stderr, "obs_get_json %" PRIu64 ": %s\n", e->max_acked, err.message);
		assert_int_equal(rc, H2EMV_OK);
		char marker[48];
		snprintf(marker, sizeof marker, "cup-%" PRIu64 "\"", e->max_acked);
		assert_non_null(strstr(json, marker));
		h2emv_free(json);
	}

	/* every stored snapshot (GC keeps some, pins keep others) walks fully */
	h2emv_snap_info *list = NULL;
	size_t n = 0;
	assert_int_equal(h2emv_snap_list(&list, &n, mem, &err), H2EMV_OK);
	for (size_t i = 0; i < n; i++)
		walk_snapshot(mem, list[i].seq);
	e->snaps_walked += n;
	h2emv_pin *pins = NULL;
	size_t np = 0;
	assert_int_equal(h2emv_pin_list(&pins, &np, mem, &err), H2EMV_OK);
	for (size_t i = 0; i < np; i++) {
		int found = 0;
		for (size_t j = 0; j < n; j++)
			found |= list[j].seq == pins[i].seq;
		assert_true(found);
	}
	h2emv_free(pins);
	h2emv_free(list);
	h2emv_mem_close(mem);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);
	return v && *v ? strtoull(v, NULL, 0) : def;
}

static void test_sigkill_at_random_moments_loses_no_acknowledged_write(void **state)
{
	(void)state;
	uint64_t seed = env_u64("H2EMV_CRASH_SEED", (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
	uint64_t rounds = env_u64("H2EMV_CRASH_ROUNDS", DEFAULT_ROUNDS);
	fprintf(stderr, "crash test: seed %" PRIu64 " (H2EMV_CRASH_SEED to replay), %" PRIu64
	        " kills\n", seed, rounds);
	uint64_t rng = seed ? seed : 1;
	char *dir = tu_tmpdir("crash");
	h2emv_mem *mem = NULL;
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_CREATE;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, &oo, &err), H2EMV_OK);
	h2emv_mem_close(mem);

	expect e = { 0 };
	struct timespec t_start, t_end;
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	uint64_t kills = 0, self_exits = 0, long_rounds = 0;
	for (uint64_t round = 0; round < rounds; round++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		uint64_t child_seed = rnd_next(&rng);
		uint64_t delay_us = rnd_below(&rng, LONG_EVERY) == 0
		                            ? MAX_DELAY_US + rnd_below(&rng, MAX_LONG_DELAY_US - MAX_DELAY_US + 1)
		                            : rnd_below(&rng, MAX_DELAY_US + 1);
		long_rounds += delay_us > MAX_DELAY_US;
		fflush(stdout);
		fflush(stderr);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			child_main(dir, fds[1], child_seed, e.snap_seq);
		}
		close(fds[1]);
		struct timespec d = { (time_t)(delay_us / 1000000), (long)(delay_us % 1000000) * 1000 };
		while (nanosleep(&d, &d) != 0 && errno == EINTR)
			;
		kill(pid, SIGKILL);
		int status = 0;
		assert_int_equal(waitpid(pid, &status, 0), pid);

		/* drain everything the child acknowledged before dying */
		ack a;
		size_t have = 0;
		for (;;) {
			ssize_t got = read(fds[0], (char *)&a + have, sizeof a - have);
			if (got < 0 && errno == EINTR)
				continue;
			assert_true(got >= 0);
			if (got == 0)
				break;
			have += (size_t)got;
			if (have < sizeof a)
				continue;
			have = 0;
			switch (a.type) {
			case ACK_OBS:
				note_acked(&e, a.a, a.b, a.mode);
				break;
			case ACK_SNAP:
				assert_true(a.a > e.snap_seq);
				assert_true(a.b >= e.snap_cursor);
				e.snap_seq = a.a;
				e.snap_cursor = a.b;
				e.snap_root = (eng_ref){ a.root_id, a.root_version };
				e.acks_snap++;
				break;
			case ACK_GC:
				e.acks_gc++;
				break;
			case ACK_PIN:
			case ACK_UNPIN:
				e.acks_pin++;
				break;
			case ACK_ERR:
				fprintf(stderr, "round %" PRIu64 ": the child failed: %s\n", round, a.msg);
				fail();
				break;
			default:
				fail_msg("unknown ack type %u", a.type);
			}
		}
		close(fds[0]);
		assert_int_equal(have, 0); /* no torn acknowledgement */
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
			kills++;
		} else {
			self_exits++;
			fprintf(stderr, "round %" PRIu64 ": child ended by itself (status 0x%x)\n", round,
			        status);
			fail();
		}
		struct timespec v0, v1;
		clock_gettime(CLOCK_MONOTONIC, &v0);
		verify_store(dir, &e);
		clock_gettime(CLOCK_MONOTONIC, &v1);
		e.verify_secs += (double)(v1.tv_sec - v0.tv_sec) + (double)(v1.tv_nsec - v0.tv_nsec) / 1e9;
	}
	clock_gettime(CLOCK_MONOTONIC, &t_end);
	h2emv_stats st = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	assert_int_equal(h2emv_mem_stats(&st, mem, &err), H2EMV_OK);
	h2emv_mem_close(mem);
	double secs = (double)(t_end.tv_sec - t_start.tv_sec) +
	              (double)(t_end.tv_nsec - t_start.tv_nsec) / 1e9;
	fprintf(stderr,
	        "crash test: store at the end: %" PRIu64 " observations, %" PRIu64
	        " node versions, %" PRIu64 " snapshots, %" PRIu64 " zstd dictionaries; "
	        "%.1f s spent verifying after kills (%.1f s of it in h2emv_check)\n",
	        st.obs_count, st.node_versions, st.snapshots, st.dicts, e.verify_secs, e.check_secs);
	fprintf(stderr,
	        "crash test: %" PRIu64 " kills (%" PRIu64 " after 30..300 ms) in %.1f s; acknowledged: %" PRIu64
	        " observations (ingest %" PRIu64 ", ingest_batch %" PRIu64 ", engine %" PRIu64
	        ", engine batch %" PRIu64 "), %" PRIu64 " snapshots, %" PRIu64 " gc runs, %" PRIu64
	        " pin moves; %" PRIu64 " snapshot trees walked; lost acknowledged observations: "
	        "%" PRIu64 "; violations: %" PRIu64 "\n",
	        kills, long_rounds, secs, e.acks_obs, e.by_mode[0], e.by_mode[1], e.by_mode[2], e.by_mode[3],
	        e.acks_snap, e.acks_gc, e.acks_pin, e.snaps_walked, e.lost, e.violations);
	assert_int_equal(kills, rounds);
	assert_int_equal(e.lost, 0);
	assert_int_equal(e.violations, 0);
	/* the kills landed while real work was going on */
	assert_true(e.acks_obs > 0 && e.acks_snap > 0);

	for (size_t i = 0; i < e.n_bodies; i++)
		eng_buf_free(&e.bodies[i]);
	free(e.bodies);
	free(e.acked);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigkill_at_random_moments_loses_no_acknowledged_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
