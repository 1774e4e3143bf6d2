/*
 * test_edges_damage.c — damage caught before a write (issue 21, item 3).
 *
 * A bit flip in the free list's entry count (bytes 72-79 of the newer meta
 * page) is found by `check` (exit 1, problems found) and refused by the next write (exit
 * 3, the memory marked DAMAGED), with the free list empty (a fresh
 * compaction) and with one; a writer that has the memory open when the
 * count flips refuses its next write too; and a node the tree refers to
 * that is missing is damage (exit 3), not "not found" (exit 2).
 *
 * On a store over 64 MiB (whose leaves the open does not read) a damaged
 * first or last leaf, which a write reads first, is refused by the write;
 * a damaged leaf elsewhere that a reader trips on has the command end with
 * `check`'s verdict, the DAMAGED mark, so the next write is refused. The
 * term index's pages are read by the gate and by check like the others.
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
#include <sys/stat.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "engine/pages.h"
#include "testutil.h"

#ifndef H2EMV_CLI
#error "H2EMV_CLI (the h2emv program) must be defined by the build"
#endif

static char *work, *input;

/* The CLI's exit status (stdout and stderr to work/out). */
static int cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli(const char *fmt, ...)
{
	char *args = NULL;
	va_list ap;
	va_start(ap, fmt);
	assert_true(vasprintf(&args, fmt, ap) >= 0);
	va_end(ap);
	char *o = NULL;
	int rc = tu_run(&o, "'%s' %s >'%s/out' 2>&1 </dev/null", H2EMV_CLI, args, work);
	free(o);
	free(args);
	return rc;
}

static char *last_output(void)
{
	char *p = tu_fmt("%s/out", work);
	size_t n;
	char *s = tu_read_file(p, &n);
	free(p);
	return s ? s : strdup("");
}

/* A built memory: init, ingest, build; then (compacted) a compaction,
 * which leaves the free list empty, or (not) more builds, which fill it. */
static char *make_store(const char *tag, int compacted)
{
	char *dir = tu_fmt("%s/%s", work, tag);
	assert_int_equal(cli("init '%s'", dir), 0);
	assert_int_equal(cli("ingest -m '%s' '%s'", dir, input), 0);
	assert_int_equal(cli("build -m '%s' -q --commit 2", dir), 0);
	if (compacted)
		assert_int_equal(cli("compact -m '%s'", dir), 0);
	else
		assert_int_equal(cli("ingest -m '%s' '%s'", dir, input), 0);
	return dir;
}

/* The data file and the offset of its newer meta page. */
static off_t newer_meta(int fd)
{
	uint8_t m0[160], m1[160];
	assert_int_equal(pread(fd, m0, sizeof m0, 0), (ssize_t)sizeof m0);
	uint32_t psize;
	memcpy(&psize, m0 + 40, 4);
	assert_int_equal(pread(fd, m1, sizeof m1, psize), (ssize_t)sizeof m1);
	uint64_t t0, t1;
	memcpy(&t0, m0 + 144, 8);
	memcpy(&t1, m1 + 144, 8);
	return t1 > t0 ? (off_t)psize : 0;
}

static void flip(const char *dir, int byte, int bit)
{
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	off_t at = newer_meta(fd) + byte;
	uint8_t b;
	assert_int_equal(pread(fd, &b, 1, at), 1);
	b ^= (uint8_t)(1u << bit);
	assert_int_equal(pwrite(fd, &b, 1, at), 1);
	assert_int_equal(close(fd), 0);
}

/* Each byte of the free list's entry count, one bit each, on a copy. */
static void flips_are_caught(const char *dir, const char *tag)
{
	for (int byte = 72; byte < 80; byte++) {
		int bit = (byte * 3) % 8;
		char *copy = tu_fmt("%s/%s-%d", work, tag, byte);
		char *o = NULL;
		assert_int_equal(tu_run(&o, "cp -a '%s' '%s'", dir, copy), 0);
		free(o);
		flip(copy, byte, bit);
		int check = cli("check -m '%s'", copy);
		char *out = last_output();
		if (check != 1 || !strstr(out, "free list"))
			fail_msg("%s: bit %d of byte %d: check exits %d, not 1 (problems found): %s", tag, bit, byte, check,
			         out);
		free(out);
		/* check wrote the mark; the next write is refused by the mark
		 * (and, without it, by its own reading: below) */
		char *mark = tu_fmt("%s/DAMAGED", copy);
		assert_int_equal(unlink(mark), 0);
		int ing = cli("ingest -m '%s' '%s'", copy, input);
		out = last_output();
		if (ing != 3 || !tu_marked_damaged(copy))
			fail_msg("%s: bit %d of byte %d: ingest exits %d (marked: %d), not 3: %s", tag,
			         bit, byte, ing, tu_marked_damaged(copy), out);
		free(out);
		/* every later write too, and gc and compaction */
		assert_int_equal(cli("build -m '%s' -q", copy), 3);
		assert_int_equal(cli("gc -m '%s'", copy), 3);
		assert_int_equal(cli("compact -m '%s'", copy), 3);
		free(mark);
		tu_rmrf(copy);
		free(copy);
	}
}

static void test_a_flipped_free_list_count_is_caught_by_check_and_refused_by_writes(void **state)
{
	(void)state;
	char *empty = make_store("empty-free-list", 1);
	flips_are_caught(empty, "empty");
	char *some = make_store("with-free-list", 0);
	flips_are_caught(some, "some");
	free(empty);
	free(some);
}

static void test_a_writer_that_is_open_refuses_its_next_write(void **state)
{
	(void)state;
	char *dir = make_store("open-writer", 1);
	h2emv_mem *m;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	tu_ingestf(m, "{\"t\":\"2024-07-01T10:00:00Z\",\"action\":{\"name\":\"Grasp\","
	              "\"args\":{\"object\":\"mug\"},\"status\":\"succeeded\"}}");
	flip(dir, 77, 2);
	const char *obs = "{\"t\":\"2024-07-01T10:01:00Z\",\"action\":{\"name\":\"Place\","
	                  "\"args\":{\"object\":\"mug\"},\"status\":\"succeeded\"}}";
	uint64_t seq = 0;
	int rc = h2emv_ingest(&seq, m, obs, strlen(obs), &e);
	if (rc != H2EMV_ECORRUPT)
		fail_msg("the write after the flip: %d (%s), not ECORRUPT", rc, e.message);
	assert_true(tu_marked_damaged(dir));
	assert_non_null(strstr(e.message, "DAMAGED"));
	h2emv_mem_close(m);
	assert_int_equal(cli("check -m '%s'", dir), 1);
	free(dir);
}

static uint64_t leaves[4096];
static size_t n_leaves;

static void on_leaf(void *ctx, uint64_t pgno);
static int no_rec(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn);

/* The leaves of database `db` in leaves[], in key order; the page size. */
static uint64_t find_leaves(const char *dir, const char *db)
{
	char path[4200];
	h2emv_error e = { 0 };
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	pg_file f;
	pg_db d;
	assert_int_equal(pg_open(&f, path, &e), H2EMV_OK);
	if (pg_named(&d, &f, db, &e) != H2EMV_OK)
		fail_msg("%s: %s", db, e.message);
	pg_walker w = { .mode = PG_RECORDS, .on_record = no_rec, .on_leaf = on_leaf };
	n_leaves = 0;
	assert_int_equal(pg_walk(&f, &d, 0, &w), H2EMV_OK);
	assert_int_equal(w.bad, 0);
	uint64_t psize = f.psize;
	pg_close(&f);
	assert_true(n_leaves > 0);
	return psize;
}

/* Page `pgno` of dir's data file: saved to `keep` (psize bytes), then
 * zeroed (garbage 0) or, garbage 1, its body after the 16-byte header
 * overwritten with random bytes (the page number and flags still right:
 * what LMDB would read on). */
static void damage_page(const char *dir, uint64_t pgno, uint64_t psize, int garbage, uint8_t *keep)
{
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	uint8_t *p = malloc(psize);
	assert_non_null(p);
	assert_int_equal(pread(fd, p, psize, (off_t)(pgno * psize)), (ssize_t)psize);
	memcpy(keep, p, psize);
	srand((unsigned)pgno);
	for (uint64_t i = 0; i < psize; i++)
		p[i] = !garbage ? 0 : i < 16 ? p[i] : (uint8_t)rand();
	assert_int_equal(pwrite(fd, p, psize, (off_t)(pgno * psize)), (ssize_t)psize);
	assert_int_equal(close(fd), 0);
	free(p);
}

static void restore_page(const char *dir, uint64_t pgno, uint64_t psize, const uint8_t *keep)
{
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, keep, psize, (off_t)(pgno * psize)), (ssize_t)psize);
	assert_int_equal(close(fd), 0);
	char *mark = tu_fmt("%s/DAMAGED", dir);
	unlink(mark);
	free(mark);
}

/* Every write command is refused: exit 3, the memory marked DAMAGED and
 * nothing stored. */
static void write_refused(const char *dir, const char *what)
{
	int rc = cli("ingest -m '%s' '%s'", dir, input);
	char *out = last_output();
	if (rc != 3 || !tu_marked_damaged(dir) || strstr(out, "observations (seq"))
		fail_msg("%s: ingest exits %d (marked: %d), not 3: %s", what, rc, tu_marked_damaged(dir), out);
	free(out);
	assert_int_equal(cli("build -m '%s' -q", dir), 3);
	assert_int_equal(cli("gc -m '%s'", dir), 3);
}

/* Observations of 60 KB of random letters each (zstd cannot shrink them
 * much): 1,500 make a data file over 64 MiB without a build. */
static char *make_big_store(void)
{
	char *dir = tu_fmt("%s/big", work);
	char *big = tu_fmt("%s/big.jsonl", work);
	FILE *f = fopen(big, "w");
	assert_non_null(f);
	srand(21);
	static char note[60001];
	for (int i = 0; i < 1500; i++) {
		for (size_t j = 0; j < sizeof note - 1; j++)
			note[j] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[rand() % 62];
		fprintf(f,
		        "{\"t\":\"2024-06-%02dT%02d:%02d:00Z\",\"action\":{\"name\":\"Grasp\","
		        "\"args\":{\"object\":\"cup\"},\"status\":\"succeeded\"},\"note\":\"%s\"}\n",
		        1 + i / 600, 8 + (i / 60) % 10, i % 60, note);
	}
	assert_int_equal(fclose(f), 0);
	assert_int_equal(cli("init '%s'", dir), 0);
	assert_int_equal(cli("ingest -m '%s' '%s'", dir, big), 0);
	unlink(big);
	free(big);
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	if (st.st_size <= (64 << 20))
		fail_msg("the big store holds %lld bytes, not over 64 MiB", (long long)st.st_size);
	return dir;
}

static void test_a_big_store_refuses_writes_on_a_damaged_leaf(void **state)
{
	(void)state;
	char *dir = make_big_store();
	uint64_t psize = find_leaves(dir, "obs");
	uint64_t first = leaves[0], last = leaves[n_leaves - 1], mid = leaves[n_leaves / 2];
	uint8_t *keep = malloc(psize);
	assert_non_null(keep);

	/* the last leaf, which ingest appends to and reads its last key from:
	 * with a garbage body LMDB read a garbage last key and stored on */
	damage_page(dir, last, psize, 1, keep);
	/* the writer's open reads it (no crash for the guard to catch) */
	char *o = NULL;
	int rc = tu_run(&o, "H2EMV_NO_GUARD=1 '%s' ingest -m '%s' '%s' 2>&1", H2EMV_CLI, dir, input);
	if (rc != 3 || !tu_marked_damaged(dir))
		fail_msg("unguarded ingest on a garbage last leaf exits %d (marked: %d): %s", rc,
		         tu_marked_damaged(dir), o ? o : "");
	free(o);
	write_refused(dir, "garbage last leaf of obs");
	restore_page(dir, last, psize, keep);

	/* the first one, where gc deletes */
	damage_page(dir, first, psize, 0, keep);
	write_refused(dir, "zeroed first leaf of obs");
	restore_page(dir, first, psize, keep);

	/* one in the middle, which no write reads first: a reader that trips
	 * on it leaves check's verdict, and the next write is refused */
	damage_page(dir, mid, psize, 0, keep);
	/* h2emv --read-only writes nothing, the mark neither */
	assert_int_equal(cli("--read-only stats -m '%s'", dir), 3);
	assert_false(tu_marked_damaged(dir));
	rc = cli("stats -m '%s'", dir);
	char *out = last_output();
	if (rc != 3 || !tu_marked_damaged(dir))
		fail_msg("stats on a zeroed middle leaf exits %d (marked: %d): %s", rc, tu_marked_damaged(dir), out);
	free(out);
	write_refused(dir, "zeroed middle leaf of obs, after stats");
	restore_page(dir, mid, psize, keep);

	/* nothing was lost: the store whole again takes the observations */
	assert_int_equal(cli("ingest -m '%s' '%s'", dir, input), 0);
	assert_int_equal(cli("check -q -m '%s'", dir), 0);
	free(keep);
	tu_rmrf(dir);
	free(dir);
}

static void test_a_damaged_index_page_is_found_by_check_and_refused_by_writes(void **state)
{
	(void)state;
	char *dir = make_store("index-page", 1);
	uint64_t psize = find_leaves(dir, "ixpost");
	uint8_t *keep = malloc(psize);
	assert_non_null(keep);
	damage_page(dir, leaves[n_leaves / 2], psize, 0, keep);
	int rc = cli("check -m '%s'", dir);
	char *out = last_output();
	if (rc != 1 || !strstr(out, "ixpost"))
		fail_msg("check on a zeroed ixpost leaf exits %d, not 1 naming ixpost: %s", rc, out);
	free(out);
	char *mark = tu_fmt("%s/DAMAGED", dir);
	assert_int_equal(unlink(mark), 0);
	free(mark);
	/* the gate reads the whole of a small store, the index included */
	write_refused(dir, "zeroed ixpost leaf");
	free(keep);
	free(dir);
}

static void on_leaf(void *ctx, uint64_t pgno)
{
	(void)ctx;
	if (n_leaves < 4096)
		leaves[n_leaves++] = pgno;
}

static int no_rec(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
	(void)ctx, (void)k, (void)kn, (void)v, (void)vn;
	return 0;
}

static void test_a_missing_node_the_tree_refers_to_is_damage(void **state)
{
	(void)state;
	char *dir = make_store("missing-node", 1);
	/* the newest snapshot's first child of the root */
	h2emv_mem *m;
	h2emv_snap *s;
	const h2emv_node *root, *child;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_open(&s, m, 0, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_child(&child, s, root, 0, &e), H2EMV_OK);
	h2emv_ref ref = h2emv_node_ref(child);
	h2emv_snap_close(s);
	h2emv_mem_close(m);
	/* its key in the nodes database's leaf says version 0 now: the page
	 * stays sound (the keys stay in order), the node is simply gone */
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	uint8_t key[12];
	be64(key, ref.id);
	be32(key + 8, ref.version);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	uint8_t *buf = malloc((size_t)st.st_size);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	pg_file f;
	pg_db d;
	assert_int_equal(pg_open(&f, path, &e), H2EMV_OK);
	assert_int_equal(pg_named(&d, &f, "nodes", &e), H2EMV_OK);
	pg_walker w = { .mode = PG_RECORDS, .on_record = no_rec, .on_leaf = on_leaf };
	n_leaves = 0;
	assert_int_equal(pg_walk(&f, &d, 0, &w), H2EMV_OK);
	uint64_t psize = f.psize;
	pg_close(&f);
	uint8_t *hit = NULL;
	for (size_t i = 0; i < n_leaves && !hit; i++)
		hit = memmem(buf + leaves[i] * psize, psize, key, sizeof key);
	assert_non_null(hit);
	hit[11] = 0;
	assert_int_equal(pwrite(fd, hit, 12, (off_t)(hit - buf)), 12);
	assert_int_equal(close(fd), 0);
	free(buf);

	assert_int_equal(cli("ingest -m '%s' '%s'", dir, input), 0);
	int rc = cli("build -m '%s' -q", dir);
	char *out = last_output();
	if (rc != 3 || strstr(out, "(not found)"))
		fail_msg("build exits %d, not 3: %s", rc, out);
	free(out);
	free(dir);
}

/* The tree's root node, whose record every build reads first: a bit
 * flipped in its value (the page stays sound, the checksum does not) stops
 * the build with exit 3 and leaves the DAMAGED mark for the next write. */
static void test_a_damaged_record_a_build_reads_stops_it_and_marks_the_memory(void **state)
{
	(void)state;
	char *dir = make_store("root-record", 1);
	h2emv_mem *m;
	h2emv_snap *s;
	const h2emv_node *root;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_open(&s, m, 0, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, s, &e), H2EMV_OK);
	h2emv_ref ref = h2emv_node_ref(root);
	h2emv_snap_close(s);
	h2emv_mem_close(m);
	uint64_t psize = find_leaves(dir, "nodes");
	char path[4200];
	assert_int_equal(eng_data_file(path, sizeof path, dir, NULL), H2EMV_OK);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	uint8_t *page = malloc(psize), key[12];
	assert_non_null(page);
	be64(key, ref.id);
	be32(key + 8, ref.version);
	off_t at = -1;
	for (size_t i = 0; i < n_leaves && at < 0; i++) {
		assert_int_equal(pread(fd, page, psize, (off_t)(leaves[i] * psize)), (ssize_t)psize);
		uint8_t *hit = memmem(page + 16, psize - 16, key, sizeof key);
		/* an inline value (node flags 0) follows its 12-byte key */
		if (hit && hit - page >= 24 && hit[-4] == 0 && hit[-3] == 0) {
			size_t vn = (size_t)(hit[-8] | hit[-7] << 8);
			at = (off_t)(leaves[i] * psize) + (hit - page) + 12 + (off_t)vn / 2;
		}
	}
	assert_true(at > 0);
	uint8_t b;
	assert_int_equal(pread(fd, &b, 1, at), 1);
	b ^= 0x10;
	assert_int_equal(pwrite(fd, &b, 1, at), 1);
	assert_int_equal(close(fd), 0);
	free(page);

	assert_int_equal(cli("ingest -m '%s' '%s'", dir, input), 0); /* reads no node */
	int rc = cli("build -m '%s' -q", dir);
	char *out = last_output();
	if (rc != 3 || !tu_marked_damaged(dir))
		fail_msg("build over a damaged root record exits %d (marked: %d), not 3: %s", rc,
		         tu_marked_damaged(dir), out);
	free(out);
	write_refused(dir, "a damaged root record");
	free(dir);
}

static int setup(void **state)
{
	(void)state;
	work = tu_tmpdir("edges-damage");
	input = tu_fmt("%s/obs.jsonl", work);
	FILE *f = fopen(input, "w");
	assert_non_null(f);
	for (int i = 0; i < 12; i++)
		fprintf(f,
		        "{\"t\":\"2024-06-26T19:%02d:00Z\",\"action\":{\"name\":\"%s\",\"args\":"
		        "{\"object\":\"cup\"},\"status\":\"succeeded\"},\"location\":\"room-%d\"}\n",
		        10 + i * 3, i % 2 ? "Place" : "Grasp", i % 3);
	assert_int_equal(fclose(f), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmrf(work);
	free(work);
	free(input);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_flipped_free_list_count_is_caught_by_check_and_refused_by_writes),
		cmocka_unit_test(test_a_writer_that_is_open_refuses_its_next_write),
		cmocka_unit_test(test_a_missing_node_the_tree_refers_to_is_damage),
		cmocka_unit_test(test_a_big_store_refuses_writes_on_a_damaged_leaf),
		cmocka_unit_test(test_a_damaged_index_page_is_found_by_check_and_refused_by_writes),
		cmocka_unit_test(test_a_damaged_record_a_build_reads_stops_it_and_marks_the_memory),
	};
	return tu_exit(cmocka_run_group_tests(tests, setup, teardown));
}
