/*
 * test_store.c — the store as a whole: opening (missing, foreign, newer or
 * damaged files), the map growing by itself and stopping at its limit,
 * the zstd dictionary trained from the store's own records, read-only
 * handles, and reader slots left behind by killed processes.
 */
#include <pthread.h>
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
#include <unistd.h>

#include <cmocka.h>
#include <msgpack.h>

#include "api/mem/mem.h" /* the engine env behind a h2emv_mem: one LMDB env per process */
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* ------------------------------------------------------------ helpers -- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* Observation `seq`'s body for the size tests: a msgpack bin of `n`
 * incompressible bytes, reproducible from seq. */
static void noise_body(eng_buf *out, uint64_t seq, size_t n)
{
	out->len = 0;
	uint8_t hdr[3] = { 0xc5, (uint8_t)(n >> 8), (uint8_t)n };
	assert_true(n <= 0xffff);
	assert_int_equal(eng_buf_append(out, hdr, 3), H2EMV_OK);
	assert_int_equal(eng_buf_reserve(out, n), H2EMV_OK);
	uint64_t x = seq * 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < n; i += 8) {
		x = mix(x + i);
		for (size_t k = 0; k < 8 && i + k < n; k++)
			out->data[out->len + i + k] = (uint8_t)(x >> (8 * k));
	}
	out->len += n;
}

typedef struct fixture {
	char *dir;  /* a fresh empty directory */
	char *mdir; /* dir/mem: where the memory goes */
	h2emv_mem *mem;
} fixture;

static int fx_setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	f->dir = tu_tmpdir("store");
	size_t n = strlen(f->dir) + 8;
	f->mdir = malloc(n);
	if (!f->mdir)
		return -1;
	snprintf(f->mdir, n, "%s/mem", f->dir);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	fixture *f = *state;
	h2emv_mem_close(f->mem);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f->mdir);
	free(f);
	return 0;
}

static int open_with(fixture *f, unsigned flags, uint64_t initial, uint64_t max,
                     uint32_t train_after, h2emv_error *e)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = flags;
	o.initial_map_size = initial;
	o.max_map_size = max;
	o.dict_train_after = train_after;
	h2emv_error local = { 0 };
	f->mem = NULL;
	return h2emv_mem_open(&f->mem, f->mdir, &o, e ? e : &local);
}

static void reopen(fixture *f, unsigned flags, uint64_t initial, uint64_t max)
{
	h2emv_mem_close(f->mem);
	h2emv_error e = { 0 };
	int rc = open_with(f, flags, initial, max, 0, &e);
	if (rc)
		fail_msg("reopen: %d %s", rc, e.message);
}

static eng_env *env(fixture *f)
{
	return f->mem->env;
}

static h2emv_stats stats(fixture *f)
{
	h2emv_stats s;
	h2emv_error e = { 0 };
	int rc = h2emv_mem_stats(&s, f->mem, &e);
	if (rc)
		fail_msg("stats: %d %s", rc, e.message);
	return s;
}

static char *path_in(const char *dir, const char *name)
{
	static char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

/* The store's current data file (data.mdb until a compaction). */
static char *data_file(const char *dir)
{
	static char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	return path;
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

static int append_one(fixture *f, const eng_buf *body, uint64_t *seq, h2emv_error *e)
{
	return eng_obs_append(env(f), body, 1, seq, e);
}

static void assert_obs_equal(eng_read *r, uint64_t seq, const eng_buf *want)
{
	eng_buf got = { 0 };
	h2emv_error e = { 0 };
	int rc = eng_obs_get(&got, r, seq, &e);
	if (rc)
		fail_msg("observation %llu: %d %s", (unsigned long long)seq, rc, e.message);
	assert_int_equal(got.len, want->len);
	assert_memory_equal(got.data, want->data, want->len);
	eng_buf_free(&got);
}

/* ---------------------------------------------------------- opening -- */

static void test_opening_a_missing_memory_says_how_to_create_one(void **state)
{
	fixture *f = *state;
	h2emv_error e = { 0 };
	assert_int_equal(open_with(f, 0, 0, 0, 0, &e), H2EMV_ENOTFOUND);
	assert_null(f->mem);
	assert_int_equal(e.status, H2EMV_ENOTFOUND);
	assert_non_null(strstr(e.message, "h2emv init"));
	/* nothing was created on the way */
	assert_int_not_equal(access(f->mdir, F_OK), 0);
	/* read-only never creates, even when asked to */
	memset(&e, 0, sizeof e);
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE | H2EMV_OPEN_READONLY, 0, 0, 0, &e),
	                 H2EMV_ENOTFOUND);
	assert_int_not_equal(access(f->mdir, F_OK), 0);
	/* an empty directory is no memory either */
	assert_int_equal(mkdir(f->mdir, 0755), 0);
	memset(&e, 0, sizeof e);
	assert_int_equal(open_with(f, 0, 0, 0, 0, &e), H2EMV_ENOTFOUND);
	assert_non_null(strstr(e.message, "h2emv init"));
	assert_int_not_equal(access(path_in(f->mdir, "data.mdb"), F_OK), 0);
	/* a file where the directory should be */
	char *file = strdup(path_in(f->dir, "plain-file"));
	write_file(file, "x", 1);
	h2emv_mem *m = NULL;
	assert_int_equal(h2emv_mem_open(&m, file, NULL, &e), H2EMV_EINVAL);
	assert_null(m);
	free(file);
	/* with CREATE it comes to life */
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE, 0, 0, 0, &e), H2EMV_OK);
	h2emv_stats s = stats(f);
	assert_int_equal(s.format, ENG_FORMAT);
	assert_int_equal(s.snapshots, 0);
	assert_int_equal(s.obs_count, 0);
}

static void test_store_of_a_newer_format_is_refused(void **state)
{
	fixture *f = *state;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE, 0, 0, 0, NULL), H2EMV_OK);
	uint8_t body[10] = { 0x91, 0xcf };
	be64(body + 2, ENG_FORMAT + 1);
	h2emv_error e = { 0 };
	assert_int_equal(eng_kv_put(env(f), ENG_KV_META, "format", 6, body, sizeof body, &e), H2EMV_OK);
	h2emv_mem_close(f->mem);
	f->mem = NULL;
	size_t n0 = 0, n1 = 0;
	char *before = tu_read_file(data_file(f->mdir), &n0);
	assert_non_null(before);
	static const unsigned flag_sets[] = { 0, H2EMV_OPEN_CREATE, H2EMV_OPEN_READONLY };
	for (size_t i = 0; i < 3; i++) {
		memset(&e, 0, sizeof e);
		assert_int_equal(open_with(f, flag_sets[i], 0, 0, 0, &e), H2EMV_EFORMAT);
		assert_null(f->mem);
		assert_int_equal(e.status, H2EMV_EFORMAT);
		if (!strstr(e.message, "newer"))
			fail_msg("the refusal does not say the store is newer: %s", e.message);
	}
	/* refusing it wrote nothing */
	char *after = tu_read_file(data_file(f->mdir), &n1);
	assert_non_null(after);
	assert_int_equal(n1, n0);
	assert_memory_equal(after, before, n0);
	free(before);
	free(after);
}

static void test_unreadable_format_record_is_refused(void **state)
{
	fixture *f = *state;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE, 0, 0, 0, NULL), H2EMV_OK);
	h2emv_error e = { 0 };
	assert_int_equal(eng_kv_put(env(f), ENG_KV_META, "format", 6, "\xa3v99", 4, &e), H2EMV_OK);
	h2emv_mem_close(f->mem);
	f->mem = NULL;
	assert_int_equal(open_with(f, 0, 0, 0, 0, &e), H2EMV_EFORMAT);
	assert_null(f->mem);
}

static int refused(int rc)
{
	return rc == H2EMV_EFORMAT || rc == H2EMV_ECORRUPT;
}

static void test_foreign_data_file_is_refused_not_crashed(void **state)
{
	fixture *f = *state;
	assert_int_equal(mkdir(f->mdir, 0755), 0);
	static const size_t sizes[] = { 100, 4096, 8192, 65536, 1 << 20 };
	uint8_t *junk = malloc(1 << 20);
	assert_non_null(junk);
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		for (int fill = 0; fill < 2; fill++) {
			for (size_t i = 0; i < sizes[s]; i++)
				junk[i] = fill ? (uint8_t)mix(i + s * 7919) : 0;
			write_file(data_file(f->mdir), junk, sizes[s]);
			for (int create = 0; create < 2; create++) {
				h2emv_error e = { 0 };
				int rc = open_with(f, create ? H2EMV_OPEN_CREATE : 0, 0, 0, 0, &e);
				if (!refused(rc))
					fail_msg("%zu %s bytes%s: %d %s", sizes[s], fill ? "random" : "zero",
					         create ? " (CREATE)" : "", rc, e.message);
				assert_null(f->mem);
				assert_true(e.message[0] != 0);
				/* and left the foreign file as it was */
				size_t n = 0;
				char *now = tu_read_file(data_file(f->mdir), &n);
				assert_non_null(now);
				assert_int_equal(n, sizes[s]);
				assert_memory_equal(now, junk, n);
				free(now);
			}
		}
	}
	free(junk);
}

/* A forked child must die of its own faults, not longjmp back into the
 * test runner's copy that cmocka's signal handlers would resume. */
static void child_default_signals(void)
{
	static const int sigs[] = { SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGSYS, SIGABRT };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], SIG_DFL);
}

/* Open a possibly damaged store in a child process and report how it went:
 * the status of the open, then of reading everything. A crash shows as no
 * report. */
typedef struct probe {
	int crashed, signal;
	int open_rc, read_rc;
} probe;

static probe probe_store(const char *dir)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		child_default_signals();
		close(p[0]);
		int rc[2] = { 0, 0 };
		h2emv_mem *m = NULL;
		h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
		rc[0] = h2emv_mem_open(&m, dir, &o, NULL);
		if (rc[0] == H2EMV_OK) {
			uint64_t v = 0;
			/* the bodies here are not observations: check records and trees only */
			rc[1] = eng_check(&v, m->env, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
			if (rc[1] == H2EMV_OK && v)
				rc[1] = H2EMV_ECORRUPT;
			h2emv_mem_close(m);
		}
		if (write(p[1], rc, sizeof rc) != sizeof rc)
			_exit(3);
		_exit(0);
	}
	close(p[1]);
	probe r = { 0 };
	int rc[2];
	ssize_t got = read(p[0], rc, sizeof rc);
	close(p[0]);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (got != (ssize_t)sizeof rc || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		r.crashed = 1;
		r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		return r;
	}
	r.open_rc = rc[0];
	r.read_rc = rc[1];
	return r;
}

static void test_truncated_data_file_is_refused_not_crashed(void **state)
{
	fixture *f = *state;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC, 0, 0, 1000000, NULL),
	                 H2EMV_OK);
	for (uint64_t i = 1; i <= 200; i++) {
		eng_buf b = { 0 };
		noise_body(&b, i, 1500);
		assert_int_equal(append_one(f, &b, NULL, NULL), H2EMV_OK);
		eng_buf_free(&b);
	}
	h2emv_mem_close(f->mem);
	f->mem = NULL;
	size_t full = 0;
	char *data = tu_read_file(data_file(f->mdir), &full);
	assert_non_null(data);
	assert_true(full > 16 * 4096);
	/* the whole file is fine */
	probe pr = probe_store(f->mdir);
	assert_false(pr.crashed);
	assert_int_equal(pr.open_rc, H2EMV_OK);
	assert_int_equal(pr.read_rc, H2EMV_OK);
	/* only the two meta pages left; half of the file gone */
	const size_t cuts[] = { 2 * 4096, full / 2 };
	int failures = 0;
	for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
		write_file(data_file(f->mdir), data, cuts[c]);
		pr = probe_store(f->mdir);
		if (pr.crashed) {
			print_error("a data file cut from %zu to %zu bytes crashed the opener (signal %d)\n",
			            full, cuts[c], pr.signal);
			failures++;
		} else if (!refused(pr.open_rc) && !refused(pr.read_rc)) {
			print_error("a data file cut to %zu bytes opened and read cleanly (%d, %d)\n",
			            cuts[c], pr.open_rc, pr.read_rc);
			failures++;
		}
	}
	free(data);
	assert_int_equal(failures, 0);
}

/* ------------------------------------------------------------ the map -- */

static void test_map_grows_from_1_mib_to_hold_20_mb(void **state)
{
	fixture *f = *state;
	h2emv_error e = { 0 };
	int rc = open_with(f, H2EMV_OPEN_CREATE, 1u << 20, 0, 1000000, &e);
	if (rc)
		fail_msg("open: %d %s", rc, e.message);
	uint64_t map0 = stats(f).map_bytes;
	assert_true(map0 <= (2u << 20));
	/* 20 MB of observations, 25 per transaction */
	enum { BODY = 8000, PER = 25, TOTAL = 2500 };
	eng_buf bodies[PER];
	memset(bodies, 0, sizeof bodies);
	uint64_t seq = 1;
	while (seq <= TOTAL) {
		for (int i = 0; i < PER; i++)
			noise_body(&bodies[i], seq + (uint64_t)i, BODY);
		uint64_t first = 0;
		rc = eng_obs_append(env(f), bodies, PER, &first, &e);
		if (rc)
			fail_msg("append at %llu: %d %s", (unsigned long long)seq, rc, e.message);
		assert_int_equal(first, seq);
		seq += PER;
	}
	/* and a few large nodes through the commit path */
	uint8_t *payload = malloc(NODE_MAX_PAYLOAD);
	assert_non_null(payload);
	for (uint32_t v = 1; v <= 3; v++) {
		/* a msgpack bin32 of noise: nothing for zstd to find */
		payload[0] = 0xc6;
		be32(payload + 1, NODE_MAX_PAYLOAD - 5);
		for (size_t i = 5; i < NODE_MAX_PAYLOAD; i++)
			payload[i] = (uint8_t)mix(i * 31 + v);
		eng_node n = { .id = 1, .version = v, .level = 5, .kind = H2EMV_KIND_ROOT,
			       .expiry = H2EMV_TIME_NEVER, .summary = "big", .summary_len = 3,
			       .payload = payload, .payload_len = NODE_MAX_PAYLOAD };
		eng_node *nodes[] = { &n };
		eng_ref dead = { 1, v - 1 };
		eng_commit c = { .nodes = nodes, .n_nodes = 1, .dead = &dead, .n_dead = v > 1,
			         .root = { 1, v }, .build_cursor = TOTAL, .next_node_id = 2 };
		rc = eng_commit_snapshot(NULL, env(f), &c, &e);
		if (rc)
			fail_msg("commit %u: %d %s", v, rc, e.message);
	}
	free(payload);
	h2emv_stats s = stats(f);
	print_message("map: %llu -> %llu bytes, file %llu bytes\n", (unsigned long long)map0,
	              (unsigned long long)s.map_bytes, (unsigned long long)s.file_bytes);
	assert_true(s.map_bytes > map0);
	assert_true(s.map_bytes >= s.file_bytes);
	assert_true(s.file_bytes >= 20000000);
	assert_int_equal(s.obs_count, TOTAL);
	assert_int_equal(s.last_snapshot, 3);

	/* everything reads back, now and after a reopen with the small map again */
	for (int round = 0; round < 2; round++) {
		eng_read *r;
		assert_int_equal(eng_read_begin(&r, env(f), &e), H2EMV_OK);
		eng_buf want = { 0 };
		for (uint64_t i = 1; i <= TOTAL; i++) {
			noise_body(&want, i, BODY);
			assert_obs_equal(r, i, &want);
		}
		eng_node *n;
		assert_int_equal(eng_node_get(&n, r, (eng_ref){ 1, 3 }, &e), H2EMV_OK);
		assert_int_equal(n->payload_len, NODE_MAX_PAYLOAD);
		free(n);
		eng_read_end(r);
		eng_buf_free(&want);
		if (round == 0)
			reopen(f, 0, 1u << 20, 0);
	}
	for (int i = 0; i < PER; i++)
		eng_buf_free(&bodies[i]);
}

static void test_full_map_gives_enospc_and_keeps_what_was_committed(void **state)
{
	fixture *f = *state;
	const uint64_t max = 4u << 20;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC, 1u << 20, max, 1000000,
	                           NULL),
	                 H2EMV_OK);
	enum { BODY = 6000 };
	eng_buf b = { 0 };
	h2emv_error e = { 0 };
	uint64_t committed = 0;
	int rc = H2EMV_OK;
	while (committed < 2000) {
		noise_body(&b, committed + 1, BODY);
		memset(&e, 0, sizeof e);
		rc = append_one(f, &b, NULL, &e);
		if (rc)
			break;
		committed++;
	}
	assert_int_equal(rc, H2EMV_ENOSPC);
	assert_int_equal(e.status, H2EMV_ENOSPC);
	assert_true(committed > 100);
	h2emv_stats s = stats(f);
	assert_true(s.map_bytes <= max);
	assert_int_equal(s.obs_count, committed);
	/* it stays full, cleanly */
	assert_int_equal(append_one(f, &b, NULL, &e), H2EMV_ENOSPC);
	/* everything before is there, in this handle and after reopening */
	for (int round = 0; round < 2; round++) {
		eng_read *r;
		assert_int_equal(eng_read_begin(&r, env(f), &e), H2EMV_OK);
		for (uint64_t i = 1; i <= committed; i++) {
			noise_body(&b, i, BODY);
			assert_obs_equal(r, i, &b);
		}
		eng_buf none = { 0 };
		assert_int_equal(eng_obs_get(&none, r, committed + 1, NULL), H2EMV_ENOTFOUND);
		eng_read_end(r);
		if (round == 0)
			reopen(f, 0, 1u << 20, max);
	}
	assert_int_equal(stats(f).obs_count, committed);
	assert_int_equal(append_one(f, &b, NULL, &e), H2EMV_ENOSPC);
	/* with room to grow it takes writes again */
	reopen(f, 0, 0, 0);
	uint64_t seq = 0;
	noise_body(&b, committed + 1, BODY);
	assert_int_equal(append_one(f, &b, &seq, &e), H2EMV_OK);
	assert_int_equal(seq, committed + 1);
	eng_buf_free(&b);
}

/* ------------------------------------------------------ dictionaries -- */

/* A new memory compresses its first records with the default dictionary
 * h2emv ships (no training on the write path); maintenance (gc) trains
 * the memory's own once it holds enough records, once; records written
 * with either stay readable. */
static void test_default_dictionary_first_then_own_trained_in_maintenance(void **state)
{
	fixture *f = *state;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC, 0, 0, 500, NULL),
	                 H2EMV_OK);
	enum { PER = 50, TOTAL = 2000 };
	eng_buf bodies[PER];
	memset(bodies, 0, sizeof bodies);
	h2emv_error e = { 0 };
	for (uint64_t seq = 1; seq <= TOTAL; seq += PER) {
		for (int i = 0; i < PER; i++)
			tu_obs_body(&bodies[i], seq + (uint64_t)i);
		assert_int_equal(eng_obs_append(env(f), bodies, PER, NULL, &e), H2EMV_OK);
		/* the default from the first append on, and no other on appends */
		assert_int_equal(stats(f).dicts, 1);
	}
	h2emv_stats s = stats(f);
	assert_int_equal(s.obs_count, TOTAL);
	/* maintenance trains the memory's own dictionary, once */
	assert_int_equal(eng_gc(NULL, env(f), NULL, &e), H2EMV_OK);
	assert_int_equal(stats(f).dicts, 2);
	assert_int_equal(eng_gc(NULL, env(f), NULL, &e), H2EMV_OK);
	assert_int_equal(stats(f).dicts, 2);
	uint64_t bytes_at = stats(f).obs_bytes, body_bytes = 0;
	for (uint64_t seq = TOTAL + 1; seq <= 2 * TOTAL; seq += PER) {
		for (int i = 0; i < PER; i++) {
			tu_obs_body(&bodies[i], seq + (uint64_t)i);
			body_bytes += bodies[i].len;
		}
		assert_int_equal(eng_obs_append(env(f), bodies, PER, NULL, &e), H2EMV_OK);
	}
	double after = (double)(stats(f).obs_bytes - bytes_at) / TOTAL;
	print_message("average stored observation: %.1f bytes of body, %.1f stored with the "
	              "trained dictionary\n", (double)body_bytes / TOTAL, after);
	assert_true(after < (double)body_bytes / TOTAL * 0.8);
	/* every record, from before and after, reads back after a reopen */
	reopen(f, 0, 0, 0);
	assert_int_equal(stats(f).dicts, 2);
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, env(f), &e), H2EMV_OK);
	eng_buf want = { 0 };
	for (uint64_t i = 1; i <= 2 * TOTAL; i++) {
		tu_obs_body(&want, i);
		assert_obs_equal(r, i, &want);
	}
	eng_read_end(r);
	/* the reopened memory knows it has its own: no third one */
	assert_int_equal(eng_gc(NULL, env(f), NULL, &e), H2EMV_OK);
	assert_int_equal(stats(f).dicts, 2);
	uint64_t violations = 99;
	assert_int_equal(eng_check(&violations, env(f), NULL, NULL, NULL, NULL, NULL, NULL, &e), H2EMV_OK);
	assert_int_equal(violations, 0);
	eng_buf_free(&want);
	for (int i = 0; i < PER; i++)
		eng_buf_free(&bodies[i]);
}

typedef struct appender {
	eng_env *env;
	uint64_t first; /* bodies first, first + 4, first + 8, ... */
	int n, rc;
} appender;

static void *appender_main(void *arg)
{
	appender *a = arg;
	eng_buf b = { 0 };
	for (int i = 0; i < a->n && a->rc == H2EMV_OK; i++) {
		tu_obs_body(&b, a->first + 4 * (uint64_t)i);
		a->rc = eng_obs_append(a->env, &b, 1, NULL, NULL);
	}
	eng_buf_free(&b);
	return NULL;
}

/* Writers in several threads start a new memory together; the store
 * must still store one (default) dictionary, not one per thread. */
static void test_concurrent_appenders_train_one_dictionary(void **state)
{
	fixture *f = *state;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC, 0, 0, 500, NULL),
	                 H2EMV_OK);
	appender a[4];
	pthread_t th[4];
	for (int t = 0; t < 4; t++) {
		a[t] = (appender){ .env = env(f), .first = (uint64_t)t, .n = 300 };
		assert_int_equal(pthread_create(&th[t], NULL, appender_main, &a[t]), 0);
	}
	for (int t = 0; t < 4; t++) {
		assert_int_equal(pthread_join(th[t], NULL), 0);
		assert_int_equal(a[t].rc, H2EMV_OK);
	}
	h2emv_stats s = stats(f);
	assert_int_equal(s.obs_count, 1200);
	if (s.dicts != 1)
		fail_msg("four appending threads trained %llu dictionaries",
		         (unsigned long long)s.dicts);
}

/* ----------------------------------------------------------- read-only -- */

static void test_read_only_memory_reads_and_refuses_writes(void **state)
{
	fixture *f = *state;
	assert_int_equal(open_with(f, H2EMV_OPEN_CREATE, 0, 0, 0, NULL), H2EMV_OK);
	eng_buf b = { 0 };
	tu_obs_body(&b, 1);
	assert_int_equal(append_one(f, &b, NULL, NULL), H2EMV_OK);
	eng_node root = { .id = 1, .version = 1, .level = 5, .kind = H2EMV_KIND_ROOT,
		          .expiry = H2EMV_TIME_NEVER, .summary = "root", .summary_len = 4 };
	eng_node *nodes[] = { &root };
	eng_commit c = { .nodes = nodes, .n_nodes = 1, .root = { 1, 1 }, .build_cursor = 1,
		         .next_node_id = 2 };
	assert_int_equal(eng_commit_snapshot(NULL, env(f), &c, NULL), H2EMV_OK);
	reopen(f, H2EMV_OPEN_READONLY, 0, 0);
	h2emv_error e = { 0 };
	assert_int_equal(append_one(f, &b, NULL, &e), H2EMV_EREADONLY);
	root.version = 2;
	c.root.version = 2;
	assert_int_equal(eng_commit_snapshot(NULL, env(f), &c, &e), H2EMV_EREADONLY);
	assert_int_equal(h2emv_snap_pin(f->mem, "x", 1, &e), H2EMV_EREADONLY);
	assert_int_equal(h2emv_gc(NULL, f->mem, NULL, &e), H2EMV_EREADONLY);
	assert_int_equal(eng_kv_put(env(f), ENG_KV_META, "k", 1, "\xc0", 1, &e), H2EMV_EREADONLY);
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, env(f), &e), H2EMV_OK);
	assert_obs_equal(r, 1, &b);
	eng_read_end(r);
	h2emv_stats s = stats(f);
	assert_int_equal(s.obs_count, 1);
	assert_int_equal(s.snapshots, 1);
	eng_buf_free(&b);
}

/* ------------------------------------------------------- stale readers -- */

/* A child that opens the memory (and a snapshot if asked), reports 'R',
 * then waits: for a byte on `go` (a bystander) or to be killed. */
static pid_t spawn_child(const char *dir, int with_snapshot, int *go_fd)
{
	int ready[2], go[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		child_default_signals();
		close(ready[0]);
		close(go[1]);
		h2emv_mem *m = NULL;
		h2emv_snap *s = NULL;
		char c = 'R';
		if (h2emv_mem_open(&m, dir, NULL, NULL) != H2EMV_OK)
			c = 'E';
		else if (with_snapshot && h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, NULL) != H2EMV_OK)
			c = 'S';
		if (write(ready[1], &c, 1) != 1)
			_exit(3);
		char x;
		while (read(go[0], &x, 1) < 0)
			;
		h2emv_snap_close(s);
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

/* Pages the store had to add for `n` small overwrites: near zero when freed
 * pages are reused, large when a reader pins them. */
static uint64_t growth_of_overwrites(fixture *f, int n)
{
	uint64_t used0 = stats(f).used_bytes;
	for (int i = 0; i < n; i++) {
		uint8_t body[10] = { 0x91, 0xcf };
		be64(body + 2, (uint64_t)i);
		h2emv_error e = { 0 };
		int rc = eng_kv_put(env(f), ENG_KV_META, "scratch", 7, body, sizeof body, &e);
		if (rc)
			fail_msg("write %d: %d %s", i, rc, e.message);
	}
	return stats(f).used_bytes - used0;
}

static void test_reader_slot_of_a_killed_process_is_cleared_on_open(void **state)
{
	fixture *f = *state;
	const unsigned flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	assert_int_equal(open_with(f, flags, 0, 0, 0, NULL), H2EMV_OK);
	eng_node root = { .id = 1, .version = 1, .level = 5, .kind = H2EMV_KIND_ROOT,
		          .expiry = H2EMV_TIME_NEVER, .summary = "root", .summary_len = 4 };
	eng_node *nodes[] = { &root };
	eng_commit c = { .nodes = nodes, .n_nodes = 1, .root = { 1, 1 }, .next_node_id = 2 };
	assert_int_equal(eng_commit_snapshot(NULL, env(f), &c, NULL), H2EMV_OK);
	growth_of_overwrites(f, 10);

	/* a bystander keeps the memory open throughout, so reopening below
	 * cannot simply reset LMDB's reader table */
	int go_b, go_k;
	pid_t bystander = spawn_child(f->mdir, 0, &go_b);
	pid_t reader = spawn_child(f->mdir, 1, &go_k);
	/* while the reader lives, freed pages cannot be reused: the file grows */
	uint64_t pinned = growth_of_overwrites(f, 300);
	assert_int_equal(kill(reader, SIGKILL), 0);
	int status;
	assert_int_equal(waitpid(reader, &status, 0), reader);
	assert_true(WIFSIGNALED(status));
	close(go_k);

	reopen(f, flags, 0, 0);
	uint64_t cleared = growth_of_overwrites(f, 300);
	print_message("300 overwrites grew the file by %llu bytes with the reader alive, %llu after "
	              "it was killed and the memory reopened\n",
	              (unsigned long long)pinned, (unsigned long long)cleared);
	assert_true(pinned >= 300 * 4096);
	assert_true(cleared * 8 < pinned);
	/* and the memory works: commit, gc */
	root.version = 2;
	c.root.version = 2;
	eng_ref dead = { 1, 1 };
	c.dead = &dead;
	c.n_dead = 1;
	h2emv_error e = { 0 };
	assert_int_equal(eng_commit_snapshot(NULL, env(f), &c, &e), H2EMV_OK);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	h2emv_gc_result res;
	assert_int_equal(h2emv_gc(&res, f->mem, &o, &e), H2EMV_OK);
	assert_int_equal(res.snapshots_dropped, 1);
	assert_int_equal(res.versions_deleted, 1);

	assert_int_equal(write(go_b, "x", 1), 1);
	close(go_b);
	assert_int_equal(waitpid(bystander, &status, 0), bystander);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_opening_a_missing_memory_says_how_to_create_one,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_store_of_a_newer_format_is_refused, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_format_record_is_refused, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_foreign_data_file_is_refused_not_crashed, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_truncated_data_file_is_refused_not_crashed, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_map_grows_from_1_mib_to_hold_20_mb, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_full_map_gives_enospc_and_keeps_what_was_committed,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(
			test_default_dictionary_first_then_own_trained_in_maintenance, fx_setup,
			fx_teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_appenders_train_one_dictionary, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_read_only_memory_reads_and_refuses_writes, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_reader_slot_of_a_killed_process_is_cleared_on_open,
		                                fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
