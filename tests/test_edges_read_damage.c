/*
 * test_edges_read_damage.c — damage a read finds is kept (issue 21, item 3),
 * through the C API alone, without the CLI's guard.
 *
 * A node record whose bytes were flipped (its page sound, its checksum
 * not) is ECORRUPT when a program reads it; a handle opened for writing
 * then writes the DAMAGED mark, so that its next write, a build, and every
 * later open for writing are refused with ECORRUPT, and `check` confirms.
 * A read-only handle writes nothing, the mark included, and a node that
 * is simply not there is not damage. A compaction that finds the record
 * marks the memory too. On a store over 64 MiB, whose middle
 * leaves the open does not read, an observation looked up on a zeroed leaf
 * is ECORRUPT (LMDB: MDB_CORRUPTED) and marks the memory the same way,
 * and a cursor that walks into it, which makes LMDB assert and abort the
 * program, marks it before the abort.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/pages.h"
#include "testutil.h"

#define MARKER "zorblaxite"

static const char *const lines[] = {
	"{\"t\":\"2026-03-02T08:00:00Z\",\"action\":{\"name\":\"DockCharger\",\"status\":\"succeeded\"},"
	"\"location\":\"charging bay\"}",
	"{\"t\":\"2026-03-02T08:30:00Z\",\"action\":{\"name\":\"Fetch\",\"args\":{\"item\":\"" MARKER
	" sample\",\"from\":\"lab\"},\"status\":\"succeeded\"},\"location\":\"lab\"}",
	"{\"t\":\"2026-03-02T08:45:00Z\",\"action\":{\"name\":\"Deliver\",\"args\":{\"item\":\"towels\","
	"\"to\":\"room 12\"},\"status\":\"succeeded\"},\"location\":\"ward B\"}",
	"{\"t\":\"2026-03-02T09:10:00Z\",\"action\":{\"name\":\"DockCharger\",\"status\":\"succeeded\"},"
	"\"location\":\"charging bay\"}",
};

static const char *ingest_line =
	"{\"t\":\"2026-03-02T10:00:00Z\",\"action\":{\"name\":\"Wave\",\"status\":\"succeeded\"},"
	"\"location\":\"hall\"}";

/* Depth first from the root: the first node whose summary names MARKER. */
static int find_marked(h2emv_ref *ref, char **summary, h2emv_snap *s, const h2emv_node *n)
{
	h2emv_error e = { 0 };
	const char *sum = h2emv_node_summary(n, NULL);
	if (strstr(sum, MARKER)) {
		*ref = h2emv_node_ref(n);
		*summary = strdup(sum);
		return 1;
	}
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c = NULL;
		assert_int_equal(h2emv_node_child(&c, s, n, i, &e), H2EMV_OK);
		if (find_marked(ref, summary, s, c))
			return 1;
	}
	return 0;
}

/* A built memory in a fresh directory, and the node naming MARKER, whose
 * summary bytes are then flipped in the data file (every copy). */
static char *damaged_store(const char *tag, h2emv_ref *ref)
{
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines(tag, lines, sizeof lines / sizeof *lines, &dir);
	h2emv_snap *s = NULL;
	const h2emv_node *root = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, &e), H2EMV_OK);
	char *summary = NULL;
	if (!find_marked(ref, &summary, s, root))
		fail_msg("no node names '%s'", MARKER);
	h2emv_snap_close(s);
	h2emv_mem_close(m);

	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	size_t len = 0;
	char *data = tu_read_file(path, &len);
	assert_non_null(data);
	size_t slen = strlen(summary), hits = 0;
	for (char *p = data; (p = memmem(p, len - (size_t)(p - data), summary, slen)); p += slen) {
		p[slen / 2] ^= 0x01;
		hits++;
	}
	if (!hits)
		fail_msg("the summary '%s' is not stored raw in %s", summary, path);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(data);
	free(summary);
	return dir;
}

static void test_a_damaged_record_a_writer_reads_refuses_its_next_write(void **state)
{
	(void)state;
	h2emv_ref ref;
	char *dir = damaged_store("read-damage", &ref);
	h2emv_mem *m = NULL;
	h2emv_snap *s = NULL;
	const h2emv_node *n = NULL;
	h2emv_error e = { 0 };
	/* the pages are sound: the open's gate lets the store through */
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	assert_false(tu_marked_damaged(dir));
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_node(&n, s, ref, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "checksum"));
	assert_non_null(strstr(e.message, "marked DAMAGED"));
	if (!tu_marked_damaged(dir))
		fail_msg("a read that found damage left no mark: %s", e.message);

	/* the next write, with the snapshot still open, is refused */
	memset(&e, 0, sizeof e);
	uint64_t seq = 0;
	int rc = h2emv_ingest(&seq, m, ingest_line, strlen(ingest_line), &e);
	if (rc != H2EMV_ECORRUPT)
		fail_msg("ingest after a damaged read returns %d, not ECORRUPT: %s", rc, e.message);
	assert_non_null(strstr(e.message, "DAMAGED"));
	h2emv_snap_close(s);
	memset(&e, 0, sizeof e);
	assert_int_equal(h2emv_build(NULL, m, NULL, &e), H2EMV_ECORRUPT);
	h2emv_mem_close(m);

	/* so is every later open for writing; reading still works */
	m = NULL;
	memset(&e, 0, sizeof e);
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "damaged"));
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &e), H2EMV_OK);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &e), H2EMV_OK);
	h2emv_mem_close(m);

	/* and check agrees: the verdict stands */
	uint64_t problems = 0;
	assert_int_equal(h2emv_check_store(&problems, dir, NULL, &e), H2EMV_OK);
	assert_true(problems >= 1);
	assert_true(tu_marked_damaged(dir));
	tu_rmrf(dir);
	free(dir);
}

static void test_a_read_only_handle_writes_no_mark(void **state)
{
	(void)state;
	h2emv_ref ref;
	char *dir = damaged_store("read-damage-ro", &ref);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	h2emv_mem *m = NULL;
	h2emv_snap *s = NULL;
	const h2emv_node *n = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_node(&n, s, ref, &e), H2EMV_ECORRUPT);
	h2emv_snap_close(s);
	h2emv_mem_close(m);
	assert_false(tu_marked_damaged(dir));
	tu_rmrf(dir);
	free(dir);
}

static void test_a_node_that_is_not_there_is_not_damage(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines("read-missing", lines, sizeof lines / sizeof *lines, &dir);
	h2emv_snap *s = NULL;
	const h2emv_node *n = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_node(&n, s, (h2emv_ref){ 999999, 1 }, &e), H2EMV_ENOTFOUND);
	h2emv_snap_close(s);
	assert_false(tu_marked_damaged(dir));
	assert_int_equal(h2emv_ingest(NULL, m, ingest_line, strlen(ingest_line), &e), H2EMV_OK);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* Compaction reads every record before it copies: the bad one stops it
 * and marks the memory like any other read. */
static void test_a_compaction_that_finds_a_damaged_record_marks_the_memory(void **state)
{
	(void)state;
	h2emv_ref ref;
	char *dir = damaged_store("read-damage-compact", &ref);
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	uint64_t before = 0, after = 0;
	assert_int_equal(h2emv_compact(&before, &after, m, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "checksum"));
	if (!tu_marked_damaged(dir))
		fail_msg("a compaction that found a damaged record left no mark: %s", e.message);
	memset(&e, 0, sizeof e);
	assert_int_equal(h2emv_ingest(NULL, m, ingest_line, strlen(ingest_line), &e),
	                 H2EMV_ECORRUPT);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* The leaves of `obs` and the first key of each (a walk by hand). */
typedef struct leaf_keys {
	uint64_t pg[256], first[256];
	size_t n;
	int fresh;
} leaf_keys;

static void on_leaf(void *ctx, uint64_t pgno)
{
	leaf_keys *l = ctx;
	if (l->n < 256) {
		l->pg[l->n++] = pgno;
		l->fresh = 1;
	}
}

static int on_record(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
	(void)v, (void)vn;
	leaf_keys *l = ctx;
	if (l->fresh && kn == 8) {
		uint64_t x = 0;
		for (int i = 0; i < 8; i++)
			x = x << 8 | k[i];
		l->first[l->n - 1] = x;
		l->fresh = 0;
	}
	return 0;
}

/* Observations of 60 KB of random letters each (zstd cannot shrink them
 * much): 1,600 make a data file over 64 MiB. */
static char *big_store(void)
{
	char *dir = NULL;
	h2emv_mem *m = tu_mem_tmp("read-damage-big", &dir);
	assert_non_null(m);
	static char line[60200], note[60001];
	srand(21);
	h2emv_error e = { 0 };
	for (int i = 0; i < 1600; i++) {
		for (size_t j = 0; j < sizeof note - 1; j++)
			note[j] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[rand() % 62];
		int n = snprintf(line, sizeof line,
		                 "{\"t\":\"2024-06-%02dT%02d:%02d:00Z\",\"action\":{\"name\":\"Grasp\","
		                 "\"args\":{\"object\":\"cup\"},\"status\":\"succeeded\"},\"note\":\"%s\"}",
		                 1 + i / 600, 8 + (i / 60) % 10, i % 60, note);
		if (h2emv_ingest(NULL, m, line, (size_t)n, &e))
			fail_msg("ingest %d: %s", i, e.message);
	}
	h2emv_mem_close(m);
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	if (tu_file_size(path) <= (64u << 20))
		fail_msg("the big store holds %llu bytes, not over 64 MiB",
		         (unsigned long long)tu_file_size(path));
	return dir;
}

/* Zero a leaf of `obs` in the middle of the big store at `dir`; the first
 * sequence number it held. */
static uint64_t zero_middle_leaf(const char *dir)
{
	char path[4200];
	h2emv_error e = { 0 };
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	pg_file f;
	pg_db d;
	leaf_keys l = { .n = 0 };
	assert_int_equal(pg_open(&f, path, &e), H2EMV_OK);
	assert_int_equal(pg_named(&d, &f, "obs", &e), H2EMV_OK);
	pg_walker w = { .mode = PG_RECORDS, .ctx = &l, .on_record = on_record, .on_leaf = on_leaf };
	assert_int_equal(pg_walk(&f, &d, 0, &w), H2EMV_OK);
	uint64_t psize = f.psize;
	pg_close(&f);
	assert_true(l.n >= 3);
	size_t mid = l.n / 2;
	uint64_t seq = l.first[mid];
	assert_true(seq > 0);
	uint8_t *zero = calloc(1, psize);
	assert_non_null(zero);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, zero, psize, (off_t)(l.pg[mid] * psize)), (ssize_t)psize);
	assert_int_equal(close(fd), 0);
	free(zero);
	return seq;
}

static void test_a_zeroed_leaf_a_lookup_meets_on_a_big_store_refuses_the_next_write(void **state)
{
	(void)state;
	char *dir = big_store();
	h2emv_error e = { 0 };
	uint64_t seq = zero_middle_leaf(dir);
	h2emv_mem *m = NULL;
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK); /* leaves not read */
	char *json = NULL;
	size_t jn = 0;
	int rc = h2emv_obs_get_json(&json, &jn, m, seq, &e);
	if (rc != H2EMV_ECORRUPT)
		fail_msg("observation %llu on a zeroed leaf: %d, not ECORRUPT: %s",
		         (unsigned long long)seq, rc, e.message);
	if (!tu_marked_damaged(dir))
		fail_msg("a lookup that met a zeroed leaf left no mark: %s", e.message);
	memset(&e, 0, sizeof e);
	const char *next = "{\"t\":\"2024-06-03T15:00:00Z\",\"action\":{\"name\":\"Wave\","
	                   "\"status\":\"succeeded\"},\"location\":\"hall\"}";
	rc = h2emv_ingest(NULL, m, next, strlen(next), &e);
	if (rc != H2EMV_ECORRUPT)
		fail_msg("ingest after a zeroed leaf was met returns %d, not ECORRUPT: %s", rc,
		         e.message);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static int discard(void *ctx, const void *data, size_t len)
{
	(void)ctx, (void)data, (void)len;
	return 0;
}

/* In a child (a program of its own, without the CLI's guard): open the
 * memory with `flags`, read its statistics (a cursor over every
 * observation) and export them; exit 3 on ECORRUPT. The wait status. */
static int read_in_child(const char *dir, unsigned flags)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		tu_child_default_signals();
		h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
		o.flags = flags;
		h2emv_mem *m = NULL;
		h2emv_error e = { 0 };
		if (h2emv_mem_open(&m, dir, &o, &e) != H2EMV_OK)
			_exit(10); /* the open reads no middle leaf of a store over 64 MiB */
		h2emv_stats sts;
		int rc = h2emv_mem_stats(&sts, m, &e);
		uint64_t n = 0;
		if (rc == H2EMV_OK)
			rc = h2emv_obs_export(&n, m, 0, 0, discard, NULL, NULL, NULL, &e);
		_exit(rc == H2EMV_ECORRUPT ? 3 : rc ? 11 : 0);
	}
	int st = tu_wait(pid);
	print_message("reads (flags %u): %s %d\n", flags,
	              WIFSIGNALED(st) ? "killed by signal" : "exit",
	              WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	if (!(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT) && !(WIFEXITED(st) && WEXITSTATUS(st) == 3))
		fail_msg("reads over a zeroed leaf neither aborted nor returned ECORRUPT (%#x)", st);
	return st;
}

/* A cursor that walks into the zeroed leaf (the statistics' count of the
 * log) trips LMDB's assertion 'IS_LEAF(mp)', which aborts the program:
 * the library's assertion hook has marked the memory first, so that the
 * next `ingest` is refused (exit 3). Before, the abort left no mark
 * (only the CLI's guard wrote one). A read-only handle writes none. */
static void test_a_cursor_that_walks_into_a_zeroed_leaf_marks_the_memory(void **state)
{
	(void)state;
	char *dir = big_store();
	(void)zero_middle_leaf(dir);
	(void)read_in_child(dir, H2EMV_OPEN_READONLY);
	assert_false(tu_marked_damaged(dir));
	int st = read_in_child(dir, 0);
	if (!tu_marked_damaged(dir))
		fail_msg("a cursor that met a zeroed leaf left no mark (%#x)", st);
	char *mark = tu_fmt("%s/DAMAGED", dir);
	size_t len = 0;
	char *why = tu_read_file(mark, &len);
	assert_non_null(why);
	print_message("DAMAGED: %s", why);
	if (WIFSIGNALED(st))
		assert_non_null(strstr(why, "LMDB"));
	free(why);
	free(mark);
	char *batch = tu_fmt("%s.batch.jsonl", dir), *errlog = tu_fmt("%s.stderr", dir);
	FILE *f = fopen(batch, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", ingest_line);
	assert_int_equal(fclose(f), 0);
	int rc = tu_cli_log(errlog, NULL, "ingest -m '%s' '%s'", dir, batch);
	if (rc != 3)
		fail_msg("ingest after the abort exits %d, not 3: %s", rc, tu_read_file(errlog, &len));
	unlink(batch);
	unlink(errlog);
	free(batch);
	free(errlog);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_damaged_record_a_writer_reads_refuses_its_next_write),
		cmocka_unit_test(test_a_read_only_handle_writes_no_mark),
		cmocka_unit_test(test_a_node_that_is_not_there_is_not_damage),
		cmocka_unit_test(test_a_compaction_that_finds_a_damaged_record_marks_the_memory),
		cmocka_unit_test(test_a_zeroed_leaf_a_lookup_meets_on_a_big_store_refuses_the_next_write),
		cmocka_unit_test(test_a_cursor_that_walks_into_a_zeroed_leaf_marks_the_memory),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
