/*
 * test_enospc.c — a full disk is an ordinary error, and a read-only memory
 * refuses writes.
 *
 * A forked child lowers RLIMIT_FSIZE to a few MB above the current size of
 * data.mdb and ignores SIGXFSZ, so that writing past the limit fails (EFBIG,
 * or a short write that LMDB reports as EIO). It keeps ingesting observations
 * and committing snapshots until a call fails, checks that the failure is
 * H2EMV_ENOSPC or H2EMV_EIO with a message, retries on the same handle
 * (each retry must fail cleanly or succeed), reads back through the same
 * handle, and sends what was acknowledged to the parent through a pipe. The
 * parent reopens without the limit: check finds nothing, every acknowledged
 * observation and snapshot is there as written, and new writes succeed.
 *
 * The limit is tried twice: on a page boundary and off one, since LMDB turns
 * a write that starts past the limit into EFBIG but a write that crosses it
 * into a short write.
 *
 * Like test_crash.c this reaches api/mem.h (the engine handle behind a
 * h2emv_mem, for commits on the same handle) and api/observation.h
 * (obs_from_json, the canonical body stored bytes are compared with).
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "testutil.h"
#include "api/mem/mem.h"
#include "api/observe/observation.h"

#define LIMIT_ABOVE (3u << 20) /* bytes the file may still grow */
#define BATCH 50

/* ---------------------------------------------------- what is written -- */

/* Observation `seq`: a function of seq, with ~400 bytes of note that zstd
 * cannot squeeze much, so the file grows quickly. */
static size_t obs_json(char *out, size_t cap, uint64_t seq)
{
	static const char alphabet[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .";
	char note[401];
	uint64_t x = seq * 0x9E3779B97F4A7C15ull + 1;
	for (int i = 0; i < 400; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		note[i] = alphabet[x % 64];
	}
	note[400] = 0;
	time_t t = (time_t)(1719431337 + seq);
	struct tm tm;
	gmtime_r(&t, &tm);
	char ts[32];
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	int n = snprintf(out, cap,
	                 "{\"t\":\"%s\",\"action\":{\"name\":\"Grasp\",\"args\":{\"object\":"
	                 "\"cup-%" PRIu64 "\"},\"status\":\"succeeded\"},\"note\":\"%s\"}",
	                 ts, seq, note);
	return (size_t)n;
}

static void expected_body(eng_buf *out, uint64_t seq)
{
	char json[1024];
	size_t len = obs_json(json, sizeof json, seq);
	h2emv_error err = { 0 };
	out->len = 0;
	int rc = obs_from_json(out, json, len, 1, &err);
	if (rc)
		fprintf(stderr, "obs_from_json: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
}

/* The tree: root 1 (L4) over goal 2 (L3) over leaves 3, 4, ... (L2). Each
 * commit adds a leaf and new versions of the goal and the root. */
#define T0 INT64_C(1719431337000000)
#define SEC INT64_C(1000000)
#define HOUR (3600 * SEC)

typedef struct tree {
	uint32_t n_leaves, goal_ver, root_ver;
} tree;

static int64_t leaf_t0(uint32_t i) { return T0 + (int64_t)i * 10 * SEC; }
static int64_t leaf_t1(uint32_t i) { return leaf_t0(i) + 5 * SEC; }

static eng_node *new_node(uint64_t id, uint32_t ver, uint8_t level, uint8_t kind, int64_t t0,
                          int64_t t1, int64_t expiry, uint32_t n_kids)
{
	char sum[64];
	snprintf(sum, sizeof sum, "node %" PRIu64 " v%" PRIu32, id, ver);
	size_t slen = strlen(sum);
	eng_node *n = calloc(1, sizeof *n + n_kids * sizeof(eng_ref) + slen + 1);
	if (!n)
		return NULL;
	n->id = id;
	n->version = ver;
	n->level = level;
	n->kind = kind;
	n->t_start = t0;
	n->t_end = t1;
	n->expiry = expiry;
	n->children = (eng_ref *)(n + 1);
	n->n_children = n_kids;
	n->summary = (char *)(n->children + n_kids);
	memcpy(n->summary, sum, slen + 1);
	n->summary_len = slen;
	return n;
}

/* Commit `t` grown by one leaf (or the first tree when t->n_leaves == 0).
 * On success *t is the new tree. */
static int commit_grow(uint64_t *seq, eng_env *env, tree *t, uint64_t cursor, h2emv_error *err)
{
	tree nt = { t->n_leaves + 1, t->goal_ver + 1, t->root_ver + 1 };
	uint32_t leaf = nt.n_leaves - 1;
	int64_t t_end = leaf_t1(leaf), exp = t_end + HOUR;
	eng_node *nodes[3] = {
		new_node(3 + leaf, 1, 2, H2EMV_KIND_EVENT, leaf_t0(leaf), t_end, exp, 0),
		new_node(2, nt.goal_ver, 3, H2EMV_KIND_GOAL, leaf_t0(0), t_end, exp, nt.n_leaves),
		new_node(1, nt.root_ver, 4, H2EMV_KIND_ROOT, leaf_t0(0), t_end, H2EMV_TIME_NEVER, 1),
	};
	int rc = H2EMV_OK;
	if (!nodes[0] || !nodes[1] || !nodes[2]) {
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < nt.n_leaves; i++)
		nodes[1]->children[i] = (eng_ref){ 3 + i, 1 };
	nodes[2]->children[0] = (eng_ref){ 2, nt.goal_ver };
	eng_ref dead[2] = { { 2, t->goal_ver }, { 1, t->root_ver } };
	eng_commit c = {
		.nodes = nodes, .n_nodes = 3, .dead = dead, .n_dead = t->n_leaves ? 2 : 0,
		.root = { 1, nt.root_ver }, .t_now = t_end, .build_cursor = cursor,
		.n_nodes_tree = 2, .next_node_id = 3 + nt.n_leaves,
	};
	rc = eng_commit_snapshot(seq, env, &c, err);
	if (rc == H2EMV_OK)
		*t = nt;
out:
	for (int i = 0; i < 3; i++)
		free(nodes[i]);
	return rc;
}

static int append_range(h2emv_mem *mem, uint64_t first, size_t n, int engine, h2emv_error *err)
{
	static char text[BATCH][1024];
	const char *json[BATCH];
	size_t len[BATCH];
	eng_buf bodies[BATCH];
	memset(bodies, 0, sizeof bodies);
	int rc = H2EMV_OK;
	for (size_t i = 0; i < n && rc == H2EMV_OK; i++) {
		len[i] = obs_json(text[i], sizeof text[i], first + i);
		json[i] = text[i];
		if (engine)
			rc = obs_from_json(&bodies[i], json[i], len[i], i + 1, err);
	}
	uint64_t got = 0;
	if (rc == H2EMV_OK)
		rc = engine ? eng_obs_append(mem->env, bodies, n, &got, err)
		            : h2emv_ingest_batch(&got, mem, json, len, n, err);
	for (size_t i = 0; i < n; i++)
		eng_buf_free(&bodies[i]);
	if (rc == H2EMV_OK && got != first)
		rc = eng_fail(err, H2EMV_EINTERNAL, "appended at %" PRIu64 ", expected %" PRIu64, got,
		              first);
	return rc;
}

/* ----------------------------------------------------- the full disk -- */

enum { OP_APPEND = 1, OP_COMMIT = 2 };
#define RETRIES 6

typedef struct report {
	int setup_failed;
	char setup_msg[200];
	uint64_t limit, size_at_start;
	uint64_t last_obs;           /* last acknowledged observation */
	uint64_t snap_seq, snap_cursor;
	tree t;                      /* the acknowledged tree */
	int first_op, first_status;
	char first_msg[512];
	int retry_op[RETRIES], retry_status[RETRIES];
	char retry_msg[RETRIES][160];
	int read_obs_status, read_snap_status;
	int held_read_status;        /* a read through the snapshot held across the failure */
	uint64_t appends, commits;
} report;

_Static_assert(sizeof(report) < 65536, "the report must fit in a pipe buffer");

static void send_report(int fd, const report *r)
{
	const char *p = (const char *)r;
	size_t left = sizeof *r;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(4);
		p += w;
		left -= (size_t)w;
	}
}

static _Noreturn void full_disk_child(const char *dir, int fd, tree t, uint64_t snap_seq,
                                      uint64_t limit_slack, int hold_snapshot)
{
	int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	static report r;
	memset(&r, 0, sizeof r);
	r.t = t;
	r.snap_seq = snap_seq;
	h2emv_error err = { 0 };
	h2emv_mem *mem = NULL;
	int rc = h2emv_mem_open(&mem, dir, NULL, &err);
	char path[4200] = "";
	struct stat st;
	if (rc || eng_data_file(path, sizeof path, dir, NULL) || stat(path, &st) != 0) {
		r.setup_failed = 1;
		snprintf(r.setup_msg, sizeof r.setup_msg, "open: %.180s", err.message);
		send_report(fd, &r);
		_exit(0);
	}
	eng_read *rd = NULL;
	if (eng_read_begin(&rd, mem->env, &err) == H2EMV_OK) {
		eng_obs_last(&r.last_obs, rd, &err);
		eng_build_cursor(&r.snap_cursor, rd, &err);
		eng_read_end(rd);
	}
	r.size_at_start = (uint64_t)st.st_size;
	r.limit = r.size_at_start + LIMIT_ABOVE + limit_slack;
	struct rlimit rl = { r.limit, r.limit };
	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0) {
		r.setup_failed = 1;
		snprintf(r.setup_msg, sizeof r.setup_msg, "setrlimit: %s", strerror(errno));
		send_report(fd, &r);
		_exit(0);
	}

	/* a reader (a question being answered) may hold a snapshot meanwhile */
	h2emv_snap *held = NULL;
	if (hold_snapshot && h2emv_snap_open(&held, mem, H2EMV_SNAP_LATEST, &err) != H2EMV_OK) {
		r.setup_failed = 1;
		snprintf(r.setup_msg, sizeof r.setup_msg, "snap_open: %.180s", err.message);
		send_report(fd, &r);
		_exit(0);
	}

	/* write until the limit stops us */
	for (uint64_t i = 0;; i++) {
		int op = i % 4 == 3 ? OP_COMMIT : OP_APPEND;
		memset(&err, 0, sizeof err);
		if (op == OP_APPEND) {
			rc = append_range(mem, r.last_obs + 1, BATCH, (int)(i & 1), &err);
			if (rc == H2EMV_OK) {
				r.last_obs += BATCH;
				r.appends++;
			}
		} else {
			uint64_t seq = 0;
			rc = commit_grow(&seq, mem->env, &r.t, r.last_obs, &err);
			if (rc == H2EMV_OK) {
				r.snap_seq = seq;
				r.snap_cursor = r.last_obs;
				r.commits++;
			}
		}
		if (rc) {
			r.first_op = op;
			r.first_status = rc;
			snprintf(r.first_msg, sizeof r.first_msg, "%s", err.message);
			break;
		}
		if (i > 100000) { /* the limit never bit: report it as a failure */
			r.first_status = H2EMV_OK;
			break;
		}
	}

	/* the same handle: retry both kinds of write; each fails cleanly or works.
	 * A held snapshot is read, then closed after the first two retries. */
	for (int k = 0; k < RETRIES; k++) {
		if (k == 2 && held) {
			const h2emv_node *hr = NULL;
			r.held_read_status = h2emv_snap_root(&hr, held, &err);
			h2emv_snap_close(held);
			held = NULL;
		}
		int op = k % 2 ? OP_COMMIT : OP_APPEND;
		memset(&err, 0, sizeof err);
		if (op == OP_APPEND) {
			rc = append_range(mem, r.last_obs + 1, k < 2 ? BATCH : 1, 0, &err);
			if (rc == H2EMV_OK)
				r.last_obs += k < 2 ? BATCH : 1;
		} else {
			uint64_t seq = 0;
			rc = commit_grow(&seq, mem->env, &r.t, r.last_obs, &err);
			if (rc == H2EMV_OK) {
				r.snap_seq = seq;
				r.snap_cursor = r.last_obs;
			}
		}
		r.retry_op[k] = op;
		r.retry_status[k] = rc;
		snprintf(r.retry_msg[k], sizeof r.retry_msg[k], "%.150s", rc ? err.message : "ok");
	}

	/* reads through the same handle still work */
	char *json = NULL;
	r.read_obs_status = h2emv_obs_get_json(&json, NULL, mem, r.last_obs, &err);
	h2emv_free(json);
	h2emv_snap *snap = NULL;
	r.read_snap_status = h2emv_snap_open(&snap, mem, H2EMV_SNAP_LATEST, &err);
	const h2emv_node *root = NULL;
	if (r.read_snap_status == H2EMV_OK)
		r.read_snap_status = h2emv_snap_root(&root, snap, &err);
	h2emv_snap_close(snap);
	h2emv_mem_close(mem);
	send_report(fd, &r);
	_exit(0);
}

static void print_violation(void *ctx, const h2emv_violation *v)
{
	(void)ctx;
	fprintf(stderr,
	        "  VIOLATION rule=%s db=%s snapshot=%" PRIu64 " node=%" PRIu64 " v%" PRIu32
	        " other=%" PRIu64 " v%" PRIu32 ": %s\n",
	        v->rule, v->db, v->snapshot, v->node.id, v->node.version, v->other.id,
	        v->other.version, v->message);
}

static uint64_t check_store(h2emv_mem *mem)
{
	uint64_t n = UINT64_MAX;
	h2emv_error err = { 0 };
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	co.violation = print_violation;
	int rc = h2emv_check(&n, mem, &co, &err);
	if (rc)
		fprintf(stderr, "check: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	return n;
}

/* The snapshot `seq` holds the grown tree with `n_leaves` leaves. */
static void walk_tree(h2emv_mem *mem, uint64_t seq, uint32_t n_leaves)
{
	h2emv_snap *snap = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_snap_open(&snap, mem, seq, &err), H2EMV_OK);
	const h2emv_node *root = NULL, *goal = NULL, *leaf = NULL;
	assert_int_equal(h2emv_snap_root(&root, snap, &err), H2EMV_OK);
	assert_int_equal(h2emv_node_child(&goal, snap, root, 0, &err), H2EMV_OK);
	assert_int_equal(h2emv_node_child_count(goal), n_leaves);
	for (size_t i = 0; i < n_leaves; i++) {
		int rc = h2emv_node_child(&leaf, snap, goal, i, &err);
		if (rc)
			fprintf(stderr, "leaf %zu: %s\n", i, err.message);
		assert_int_equal(rc, H2EMV_OK);
		assert_int_equal(h2emv_node_ref(leaf).id, 3 + i);
		assert_int_equal(h2emv_node_start(leaf), leaf_t0((uint32_t)i));
	}
	h2emv_snap_close(snap);
}

static void run_full_disk(uint64_t limit_slack, int hold_snapshot, const char *label)
{
	char *dir = tu_tmpdir("enospc");
	h2emv_mem *mem = NULL;
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_CREATE;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, &oo, &err), H2EMV_OK);
	assert_int_equal(append_range(mem, 1, BATCH, 0, &err), H2EMV_OK);
	tree t = { 0 };
	uint64_t snap_seq = 0;
	assert_int_equal(commit_grow(&snap_seq, mem->env, &t, BATCH, &err), H2EMV_OK);
	h2emv_mem_close(mem);

	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		full_disk_child(dir, fds[1], t, snap_seq, limit_slack, hold_snapshot);
	}
	close(fds[1]);
	static report r;
	size_t have = 0;
	for (;;) {
		ssize_t got = read(fds[0], (char *)&r + have, sizeof r - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
	}
	close(fds[0]);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status))
		fprintf(stderr, "%s: the child died with signal %d\n", label,
		        WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	assert_true(WIFEXITED(status)); /* no crash, no SIGXFSZ */
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(have, sizeof r);
	if (r.setup_failed)
		fail_msg("%s: setup failed in the child: %s", label, r.setup_msg);

	const char *op_name[] = { "", "append", "commit" };
	fprintf(stderr,
	        "%s: data.mdb %" PRIu64 " bytes, limit %" PRIu64 "; %" PRIu64 " appends and %" PRIu64
	        " commits fitted; first failure on %s: %s (%d): \"%s\"\n",
	        label, r.size_at_start, r.limit, r.appends, r.commits, op_name[r.first_op],
	        h2emv_strerror(r.first_status), r.first_status, r.first_msg);
	for (int k = 0; k < RETRIES; k++)
		fprintf(stderr, "  retry %d (%s, same handle): %s: \"%s\"\n", k,
		        op_name[r.retry_op[k]], h2emv_strerror(r.retry_status[k]), r.retry_msg[k]);
	assert_true(r.appends > 0);
	assert_true(r.first_status == H2EMV_ENOSPC || r.first_status == H2EMV_EIO);
	assert_true(strlen(r.first_msg) > 0);
	for (int k = 0; k < RETRIES; k++) {
		int st = r.retry_status[k];
		/* EBUSY only while the held snapshot keeps the store from reopening */
		int busy_ok = hold_snapshot && k < 2 && st == H2EMV_EBUSY;
		assert_true(st == H2EMV_OK || st == H2EMV_ENOSPC || st == H2EMV_EIO || busy_ok);
	}
	if (hold_snapshot)
		assert_int_equal(r.held_read_status, H2EMV_OK);
	assert_int_equal(r.read_obs_status, H2EMV_OK);
	assert_int_equal(r.read_snap_status, H2EMV_OK);

	/* reopen without the limit: nothing acknowledged is missing */
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &err), H2EMV_OK);
	assert_int_equal(check_store(mem), 0);
	eng_read *rd = NULL;
	assert_int_equal(eng_read_begin(&rd, mem->env, &err), H2EMV_OK);
	uint64_t last = 0;
	assert_int_equal(eng_obs_last(&last, rd, &err), H2EMV_OK);
	assert_true(last >= r.last_obs);
	eng_buf got = { 0 }, want = { 0 };
	uint64_t bad = 0;
	for (uint64_t s = 1; s <= last; s++) {
		expected_body(&want, s);
		int rc = eng_obs_get(&got, rd, s, &err);
		if (rc || got.len != want.len || memcmp(got.data, want.data, got.len) != 0) {
			fprintf(stderr, "observation %" PRIu64 ": %s\n", s, rc ? err.message : "differs");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	eng_snap newest, acked;
	assert_int_equal(eng_snap_get(&newest, rd, 0, &err), H2EMV_OK);
	assert_true(newest.seq >= r.snap_seq);
	assert_int_equal(eng_snap_get(&acked, rd, r.snap_seq, &err), H2EMV_OK);
	assert_int_equal(acked.build_cursor, r.snap_cursor);
	assert_int_equal(acked.root.version, r.t.root_ver);
	eng_read_end(rd);
	eng_buf_free(&got);
	walk_tree(mem, r.snap_seq, r.t.n_leaves);

	/* and writing works again */
	assert_int_equal(append_range(mem, last + 1, BATCH, 0, &err), H2EMV_OK);
	assert_int_equal(append_range(mem, last + 1 + BATCH, 3, 1, &err), H2EMV_OK);
	/* grow the newest tree (a commit reported failed may still have landed) */
	tree nt = { 0, 0, newest.root.version };
	eng_node *root = NULL, *goal = NULL;
	assert_int_equal(eng_read_begin(&rd, mem->env, &err), H2EMV_OK);
	assert_int_equal(eng_node_get(&root, rd, newest.root, &err), H2EMV_OK);
	assert_int_equal(root->n_children, 1);
	assert_int_equal(eng_node_get(&goal, rd, root->children[0], &err), H2EMV_OK);
	nt.goal_ver = goal->version;
	nt.n_leaves = goal->n_children;
	free(root);
	free(goal);
	eng_read_end(rd);
	uint64_t seq = 0;
	int rc = commit_grow(&seq, mem->env, &nt, last + BATCH + 3, &err);
	if (rc)
		fprintf(stderr, "commit after reopen: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	assert_int_equal(seq, newest.seq + 1);
	assert_int_equal(check_store(mem), 0);
	walk_tree(mem, seq, nt.n_leaves);
	h2emv_mem_close(mem);
	eng_buf_free(&want);
	tu_rmrf(dir);
	free(dir);
}

static void test_file_size_limit_on_page_boundary_is_an_ordinary_error(void **state)
{
	(void)state;
	run_full_disk(0, 0, "limit on a page boundary");
}

static void test_file_size_limit_inside_a_page_is_an_ordinary_error(void **state)
{
	(void)state;
	run_full_disk(1000, 0, "limit inside a page");
}

static void test_file_size_limit_with_a_snapshot_open_is_an_ordinary_error(void **state)
{
	(void)state;
	run_full_disk(0, 1, "limit with a snapshot held open");
}

/* ---------------------------------------------------- the map size cap -- */

static void test_map_size_cap_gives_enospc_and_a_larger_cap_continues(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("mapcap");
	h2emv_mem *mem = NULL;
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_CREATE;
	oo.initial_map_size = 1u << 20;
	oo.max_map_size = 2u << 20;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, &oo, &err), H2EMV_OK);
	uint64_t last = 0;
	int rc;
	for (int i = 0; i < 1000; i++) {
		memset(&err, 0, sizeof err);
		if ((rc = append_range(mem, last + 1, BATCH, i & 1, &err)) != H2EMV_OK)
			break;
		last += BATCH;
	}
	fprintf(stderr, "map cap of 2 MiB: %" PRIu64 " observations fitted, then %s: \"%s\"\n",
	        last, h2emv_strerror(rc), err.message);
	assert_true(last > 0);
	assert_int_equal(rc, H2EMV_ENOSPC);
	assert_non_null(strstr(err.message, "map size"));
	/* a second try on the same handle fails the same clean way; reads work */
	assert_int_equal(append_range(mem, last + 1, BATCH, 0, &err), H2EMV_ENOSPC);
	char *json = NULL;
	assert_int_equal(h2emv_obs_get_json(&json, NULL, mem, last, &err), H2EMV_OK);
	h2emv_free(json);
	assert_int_equal(check_store(mem), 0);
	h2emv_mem_close(mem);

	/* a larger cap lets the same store grow on */
	oo.flags = 0;
	oo.max_map_size = 64u << 20;
	assert_int_equal(h2emv_mem_open(&mem, dir, &oo, &err), H2EMV_OK);
	for (int i = 0; i < 4; i++, last += BATCH)
		assert_int_equal(append_range(mem, last + 1, BATCH, i & 1, &err), H2EMV_OK);
	tree t = { 0 };
	uint64_t seq = 0;
	assert_int_equal(commit_grow(&seq, mem->env, &t, last, &err), H2EMV_OK);
	assert_int_equal(check_store(mem), 0);
	eng_read *rd = NULL;
	assert_int_equal(eng_read_begin(&rd, mem->env, &err), H2EMV_OK);
	eng_buf got = { 0 }, want = { 0 };
	uint64_t bad = 0, stored = 0;
	assert_int_equal(eng_obs_last(&stored, rd, &err), H2EMV_OK);
	assert_int_equal(stored, last);
	for (uint64_t s = 1; s <= last; s++) {
		expected_body(&want, s);
		if (eng_obs_get(&got, rd, s, &err) != H2EMV_OK || got.len != want.len ||
		    memcmp(got.data, want.data, got.len) != 0)
			bad++;
	}
	eng_read_end(rd);
	assert_int_equal(bad, 0);
	eng_buf_free(&got);
	eng_buf_free(&want);
	h2emv_mem_close(mem);
	tu_rmrf(dir);
	free(dir);
}

/* ---------------------------------------------------------- read-only -- */

static void test_readonly_memory_refuses_every_write(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("readonly");
	h2emv_mem *mem = NULL;
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_CREATE;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, &oo, &err), H2EMV_OK);
	assert_int_equal(append_range(mem, 1, 3, 0, &err), H2EMV_OK);
	tree t = { 0 };
	uint64_t seq = 0;
	assert_int_equal(commit_grow(&seq, mem->env, &t, 3, &err), H2EMV_OK);
	h2emv_mem_close(mem);
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	size_t len_before = 0, len_after = 0;
	char *before = tu_read_file(path, &len_before);
	assert_non_null(before);

	oo.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&mem, dir, &oo, &err), H2EMV_OK);
	char json[1024];
	size_t jl = obs_json(json, sizeof json, 4);
	const char *jp = json;
	h2emv_error e2;
#define REFUSED(call)                                          \
	do {                                                   \
		memset(&e2, 0, sizeof e2);                     \
		assert_int_equal((call), H2EMV_EREADONLY);     \
		assert_int_equal(e2.status, H2EMV_EREADONLY);  \
		assert_true(strlen(e2.message) > 0);           \
	} while (0)
	REFUSED(h2emv_ingest(NULL, mem, json, jl, &e2));
	REFUSED(h2emv_ingest_batch(NULL, mem, &jp, &jl, 1, &e2));
	eng_buf body = { 0 };
	assert_int_equal(obs_from_json(&body, json, jl, 1, &err), H2EMV_OK);
	REFUSED(eng_obs_append(mem->env, &body, 1, NULL, &e2));
	eng_buf_free(&body);
	tree t2 = t;
	REFUSED(commit_grow(&seq, mem->env, &t2, 3, &e2));
	assert_int_equal(t2.n_leaves, t.n_leaves);
	REFUSED(h2emv_snap_pin(mem, "keep", 1, &e2));
	REFUSED(h2emv_snap_unpin(mem, "keep", &e2));
	REFUSED(h2emv_gc(NULL, mem, NULL, &e2));
	REFUSED(h2emv_compact(NULL, NULL, mem, &e2));
	REFUSED(eng_kv_put(mem->env, ENG_KV_RULES, "k", 1, "\x90", 1, &e2));
#undef REFUSED

	/* reads work */
	char *out = NULL;
	assert_int_equal(h2emv_obs_get_json(&out, NULL, mem, 3, &err), H2EMV_OK);
	assert_non_null(strstr(out, "cup-3\""));
	h2emv_free(out);
	assert_int_equal(h2emv_obs_get_json(&out, NULL, mem, 4, &err), H2EMV_ENOTFOUND);
	walk_tree(mem, 1, 1);
	assert_int_equal(check_store(mem), 0);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, mem, &err), H2EMV_OK);
	assert_int_equal(st.obs_last_seq, 3);
	assert_int_equal(st.last_snapshot, 1);
	assert_int_equal(st.pins, 0);
	h2emv_mem_close(mem);

	/* and the file is byte for byte what it was */
	char *after = tu_read_file(path, &len_after);
	assert_non_null(after);
	assert_int_equal(len_after, len_before);
	assert_memory_equal(after, before, len_before);
	free(before);
	free(after);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_size_limit_on_page_boundary_is_an_ordinary_error),
		cmocka_unit_test(test_file_size_limit_inside_a_page_is_an_ordinary_error),
		cmocka_unit_test(test_file_size_limit_with_a_snapshot_open_is_an_ordinary_error),
		cmocka_unit_test(test_map_size_cap_gives_enospc_and_a_larger_cap_continues),
		cmocka_unit_test(test_readonly_memory_refuses_every_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
