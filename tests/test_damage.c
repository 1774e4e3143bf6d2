/*
 * test_damage.c — damaged copies of a memory through every command: no
 * command may crash (no SIGSEGV, SIGBUS or SIGABRT: the child's wait
 * status says), every failure is an exit status with a message, and
 * salvage saves what is intact and writes a memory that passes check.
 *
 * A base memory is built with the CLI (a simulated history, ingested and
 * built, one snapshot pinned). Each copy gets one kind of damage, in turn:
 * a truncation at a random byte, 1-64 random bytes flipped at a random
 * offset, a zeroed page, a zeroed run of pages, a damaged meta page, a
 * missing lock file, a missing data file. Every command then runs on its
 * own fresh copy of the damaged directory, in-process (H2EMV_NO_GUARD=1),
 * so what is measured is the library's robustness, not the CLI's guard.
 * Salvage must succeed on every copy whose data file exists, its result
 * must pass check, and unless the damage reached the list of databases
 * (or a truncation cut pages off) it must save every observation that is
 * not on a damaged leaf: one meta page is enough, and leaves a damaged
 * branch page cut off are found by scanning the file.
 *
 * 40 copies by default (about 30 s; 14 under the sanitizers); H2EMV_FAULT_LONG=1 runs 240;
 * H2EMV_FAULT_SEED=N replays a run (the seed is printed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/pages.h"
#include "testutil.h"

/* Under the sanitizers every run costs ten times more: fewer copies. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static uint64_t rng;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static char *root, *base, *work, *input;

/* Run the CLI (args[0] is its name) with H2EMV_NO_GUARD=1 and a 60 s
 * alarm, its errors in work/stderr (emptied first); the raw wait status. */
static int run_cli(char *const *args)
{
	char *errlog = tu_fmt("%s/stderr", work);
	unlink(errlog);
	int st = tu_wait(tu_cli_spawn((const char *const *)args + 1, errlog, TU_CLI_NO_GUARD, 60));
	free(errlog);
	assert_true(st != -1);
	return st;
}

static void sh(const char *cmd)
{
	char *out = NULL;
	int rc = tu_run(&out, "%s", cmd);
	if (rc != 0)
		fprintf(stderr, "command failed (%d): %s\n%s\n", rc, cmd, out ? out : "");
	free(out);
	assert_int_equal(rc, 0);
}

static void copy_dir(const char *from, const char *to)
{
	char *c = tu_fmt("rm -rf '%s' && cp -r '%s' '%s'", to, from, to);
	sh(c);
	free(c);
}

/* Facts about the base memory's pages, from a walk by hand. */
typedef struct leafmap {
	uint64_t *pg, *count; /* obs leaf pages and their record counts */
	size_t n, cap;
	uint8_t *critical;    /* pages whose loss is not a leaf's: metas, branches, ... */
	uint64_t pages, psize, obs_total;
} leafmap;
static leafmap lm;

static void on_leaf(void *ctx, uint64_t pgno)
{
	(void)ctx;
	if (lm.n == lm.cap) {
		lm.cap = lm.cap ? lm.cap * 2 : 64;
		lm.pg = realloc(lm.pg, lm.cap * sizeof *lm.pg);
		lm.count = realloc(lm.count, lm.cap * sizeof *lm.count);
		assert_non_null(lm.pg);
		assert_non_null(lm.count);
	}
	lm.pg[lm.n] = pgno;
	lm.count[lm.n++] = 0;
}

static int on_rec(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
	(void)ctx, (void)k, (void)kn, (void)v, (void)vn;
	lm.count[lm.n - 1]++;
	lm.obs_total++;
	return 0;
}

static void map_base(void)
{
	pg_file f;
	pg_db d;
	h2emv_error e = { 0 };
	char *path = tu_fmt("%s/data.mdb", base);
	assert_int_equal(pg_open(&f, path, &e), H2EMV_OK);
	assert_int_equal(pg_named(&d, &f, "obs", &e), H2EMV_OK);
	pg_walker w = { .mode = PG_RECORDS, .on_record = on_rec, .on_leaf = on_leaf };
	assert_int_equal(pg_walk(&f, &d, 0, &w), H2EMV_OK);
	assert_int_equal(w.bad, 0);
	lm.pages = f.last_pg + 1;
	lm.psize = f.psize;
	/* salvage finds leaves a damaged branch cut off, and falls back on
	 * the other meta page, so only damage to the list of databases or to
	 * an observation's overflow pages (pages the walk reached that are
	 * neither a leaf nor the root) leaves it no way to an observation */
	assert_true(d.depth <= 2);
	lm.critical = calloc(lm.pages, 1);
	assert_non_null(lm.critical);
	for (uint64_t p = 0; p < lm.pages; p++)
		lm.critical[p] = (f.seen[p >> 3] >> (p & 7)) & 1;
	for (size_t i = 0; i < lm.n; i++)
		lm.critical[lm.pg[i]] = 0;
	lm.critical[d.root] = 0;
	lm.critical[f.main_db.root] = 1;
	pg_close(&f);
	free(path);
}

/* Observations that must survive damage to bytes [a, b): -1 if the damage
 * touched more than observation leaves (no promise then). */
static int64_t obs_expected(uint64_t a, uint64_t b)
{
	int64_t keep = (int64_t)lm.obs_total;
	if (a < lm.psize && b > lm.psize)
		return -1; /* both meta pages */
	for (uint64_t p = a / lm.psize; p * lm.psize < b && p < lm.pages; p++) {
		if (lm.critical[p])
			return -1;
		for (size_t i = 0; i < lm.n; i++)
			if (lm.pg[i] == p)
				keep -= (int64_t)lm.count[i];
	}
	return keep;
}

static void build_base(void)
{
	char *tmp = tu_tmpdir("damage");
	base = tu_fmt("%s/base", tmp);
	work = tu_fmt("%s/work", tmp);
	input = tu_fmt("%s/one.jsonl", tmp);
	assert_int_equal(mkdir(work, 0755), 0);
	char *c = tu_fmt("'%s' sim -q -n 10 -s 3 -o '%s/hist.jsonl' && '%s' init -m '%s' >/dev/null && "
	                 "'%s' ingest -m '%s' '%s/hist.jsonl' >/dev/null && "
	                 "'%s' build -m '%s' >/dev/null"
	                 " && tail -n 1 '%s/hist.jsonl' > '%s'",
	                 H2EMV_CLI, tmp, H2EMV_CLI, base, H2EMV_CLI, base, tmp, H2EMV_CLI, base, tmp,
	                 input);
	sh(c);
	free(c);
	root = tmp;
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, base, NULL, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(m, "keep", 1, &e), H2EMV_OK);
	h2emv_mem_close(m);
	map_base();
}

enum { D_TRUNC, D_FLIP, D_ZERO_PAGE, D_ZERO_RUN, D_META, D_NO_LOCK, D_NO_DATA, D_KINDS };
static const char *const kind_names[D_KINDS] = {
	"truncate", "flip", "zero-page", "zero-run", "meta", "no-lock", "no-data",
};

/* Damage the copy in `dir`; [*a, *b) gets the bytes touched. */
static void damage(const char *dir, int kind, uint64_t *a, uint64_t *b)
{
	char *path = tu_fmt("%s/data.mdb", dir);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	uint64_t size = (uint64_t)st.st_size, ps = lm.psize, pages = size / ps;
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	uint8_t buf[65536];
	*a = 0;
	*b = size;
	switch (kind) {
	case D_TRUNC:
		*a = next_rand() % size;
		assert_int_equal(ftruncate(fd, (off_t)*a), 0);
		break;
	case D_FLIP: {
		uint64_t n = 1 + next_rand() % 64;
		*a = next_rand() % (size - n);
		*b = *a + n;
		assert_int_equal(pread(fd, buf, n, (off_t)*a), (ssize_t)n);
		for (uint64_t i = 0; i < n; i++)
			buf[i] ^= (uint8_t)(1 + next_rand() % 255);
		assert_int_equal(pwrite(fd, buf, n, (off_t)*a), (ssize_t)n);
		break;
	}
	case D_ZERO_PAGE:
	case D_ZERO_RUN: {
		uint64_t n = kind == D_ZERO_PAGE ? 1 : 2 + next_rand() % 8;
		uint64_t p = 2 + next_rand() % (pages - 2);
		if (p + n > pages)
			n = pages - p;
		memset(buf, 0, ps);
		for (uint64_t i = 0; i < n; i++)
			assert_int_equal(pwrite(fd, buf, ps, (off_t)((p + i) * ps)), (ssize_t)ps);
		*a = p * ps;
		*b = (p + n) * ps;
		break;
	}
	case D_META: {
		*a = (next_rand() % 2) * ps + 16 + next_rand() % 140;
		*b = *a + 1;
		assert_int_equal(pread(fd, buf, 1, (off_t)*a), 1);
		buf[0] ^= (uint8_t)(1 + next_rand() % 255);
		assert_int_equal(pwrite(fd, buf, 1, (off_t)*a), 1);
		break;
	}
	case D_NO_LOCK: {
		char *l = tu_fmt("%s/lock.mdb", dir), *h = tu_fmt("%s/h2emv.lock", dir);
		unlink(l);
		unlink(h);
		free(l);
		free(h);
		*b = 0;
		break;
	}
	case D_NO_DATA:
		unlink(path);
		break;
	}
	close(fd);
	free(path);
}

typedef struct tally {
	uint64_t runs, crashes, hangs, silent, by_exit[4], salvages, salvage_obs, salvage_promised;
	uint64_t obs_short, leaks;
} tally;

static uint64_t count_obs(const char *dir)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	h2emv_mem *m = NULL;
	h2emv_stats s;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &e), H2EMV_OK);
	assert_int_equal(h2emv_mem_stats(&s, m, &e), H2EMV_OK);
	h2emv_mem_close(m);
	return s.obs_count;
}

static void one_command(tally *t, const char *damaged, int kind, int i, char *const *args)
{
	int st = run_cli(args);
	t->runs++;
	char *errpath = tu_fmt("%s/stderr", work);
	size_t elen = 0;
	char *errtxt = tu_read_file(errpath, &elen);
	if (WIFSIGNALED(st)) {
		if (WTERMSIG(st) == SIGALRM)
			t->hangs++;
		else
			t->crashes++;
		fprintf(stderr, "copy %d (%s): h2emv %s died of signal %d: %.300s\n", i,
		        kind_names[kind], args[1], WTERMSIG(st), errtxt ? errtxt : "");
	} else if (errtxt && ((strstr(errtxt, "Sanitizer") && !strstr(errtxt, "LeakSanitizer")) ||
	                      strstr(errtxt, "runtime error:"))) {
		t->crashes++; /* a memory error or undefined behaviour counts as a crash */
		fprintf(stderr, "copy %d (%s): h2emv %s: %.600s\n", i, kind_names[kind], args[1], errtxt);
	} else {
		if (errtxt && strstr(errtxt, "LeakSanitizer")) {
			/* a leak on an error path is a bug, not a crash: say it */
			t->leaks++;
			fprintf(stderr, "copy %d (%s): h2emv %s leaks on this path\n", i,
			        kind_names[kind], args[1]);
		}
		int code = WEXITSTATUS(st);
		t->by_exit[code <= 3 ? code : 2]++;
		if (code > 3 && code != 64)
			fprintf(stderr, "copy %d: h2emv %s exit %d\n", i, args[1], code);
		if (code >= 2 && elen == 0) {
			t->silent++;
			fprintf(stderr, "copy %d (%s): h2emv %s failed (exit %d) saying nothing\n", i,
			        kind_names[kind], args[1], code);
		}
	}
	(void)damaged;
	free(errtxt);
	free(errpath);
}

static void test_damaged_copies_never_crash_and_salvage_saves_the_rest(void **state)
{
	(void)state;
	const char *s = getenv("H2EMV_FAULT_SEED");
	const char *lng = getenv("H2EMV_FAULT_LONG");
	rng = s && *s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL);
	if (!rng)
		rng = 1;
	int copies = lng && *lng && strcmp(lng, "0") ? 240 : SANITIZED ? 14 : 40;
	fprintf(stderr, "damage test: seed %" PRIu64 " (H2EMV_FAULT_SEED replays it), %d copies\n", rng,
	        copies);
	tally t = { 0 };
	char *dmg = tu_fmt("%s/damaged", work), *cmdir = tu_fmt("%s/run", work),
	     *dst = tu_fmt("%s/salvaged", work);
	for (int i = 0; i < copies; i++) {
		int kind = i % D_KINDS;
		uint64_t a, b;
		copy_dir(base, dmg);
		damage(dmg, kind, &a, &b);
		char *const cmds[][8] = {
			{ "h2emv", "stats", "-m", cmdir, NULL },
			{ "h2emv", "check", "-q", "-m", cmdir, NULL },
			{ "h2emv", "ask", "-m", cmdir, "where did you put the mug", NULL },
			{ "h2emv", "inspect", "-m", cmdir, NULL },
			{ "h2emv", "build", "-m", cmdir, NULL },
			{ "h2emv", "ingest", "-m", cmdir, input, NULL },
			{ "h2emv", "gc", "-m", cmdir, NULL },
			{ "h2emv", "compact", "-m", cmdir, NULL },
			{ "h2emv", "snapshots", "-m", cmdir, "list", NULL },
		};
		for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
			copy_dir(dmg, cmdir);
			one_command(&t, dmg, kind, i, cmds[c]);
		}
		/* salvage: from the damaged copy into a new directory */
		tu_rmrf(dst);
		char *const sv[] = { "h2emv", "salvage", "-q", dmg, dst, NULL };
		int before = (int)t.crashes;
		one_command(&t, dmg, kind, i, sv);
		if (kind == D_NO_DATA || (int)t.crashes != before)
			continue;
		char *const ck[] = { "h2emv", "check", "-q", "-m", dst, NULL };
		int st = run_cli(ck);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fail_msg("copy %d (%s): the salvaged memory does not pass check (status %d)", i,
			         kind_names[kind], st);
		t.salvages++;
		uint64_t got = count_obs(dst);
		t.salvage_obs += got;
		int64_t want = kind == D_TRUNC ? -1 : obs_expected(a, b);
		if (kind == D_NO_LOCK || kind == D_META)
			want = (int64_t)lm.obs_total;
		if (want >= 0) {
			t.salvage_promised++;
			if ((int64_t)got < want) {
				t.obs_short++;
				fprintf(stderr, "copy %d (%s at %" PRIu64 "..%" PRIu64 "): salvage saved %" PRIu64
				        " observations, %" PRId64 " were intact\n",
				        i, kind_names[kind], a, b, got, want);
			}
		}
	}
	fprintf(stderr,
	        "damage test: %d copies, %" PRIu64 " command runs: %" PRIu64 " crashes, %" PRIu64
	        " hangs, %" PRIu64 " silent failures, %" PRIu64 " leak reports; exit 0: %" PRIu64 ", 1: %" PRIu64 ", 2: %" PRIu64
	        ", 3 (damaged): %" PRIu64 "; %" PRIu64 " salvages pass check, %" PRIu64
	        " with a leaf-only loss promised and %" PRIu64 " short; base has %" PRIu64
	        " observations on %zu leaves\n",
	        copies, t.runs, t.crashes, t.hangs, t.silent, t.leaks, t.by_exit[0], t.by_exit[1], t.by_exit[2],
	        t.by_exit[3], t.salvages, t.salvage_promised, t.obs_short, lm.obs_total, lm.n);
	assert_int_equal(t.crashes, 0);
	assert_int_equal(t.hangs, 0);
	assert_int_equal(t.silent, 0);
	assert_int_equal(t.obs_short, 0);
	/* the damage did hit: some commands refused a copy as damaged */
	assert_true(t.by_exit[3] > 0);
	free(dmg);
	free(cmdir);
	free(dst);
}

/* Zero page `pg` of the data file in `dir`. */
static void zero_page(const char *dir, uint64_t pg)
{
	char *path = tu_fmt("%s/data.mdb", dir);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	uint8_t z[65536] = { 0 };
	assert_int_equal(pwrite(fd, z, lm.psize, (off_t)(pg * lm.psize)), (ssize_t)lm.psize);
	close(fd);
	free(path);
}

static int marker_exists(const char *dir)
{
	char *p = tu_fmt("%s/DAMAGED", dir);
	struct stat st;
	int r = stat(p, &st) == 0;
	free(p);
	return r;
}

static void test_check_keeps_its_verdict_and_writes_are_refused_until_salvage(void **state)
{
	(void)state;
	char *dir = tu_fmt("%s/verdict", work), *dst = tu_fmt("%s/verdict-salvaged", work);
	copy_dir(base, dir);
	tu_rmrf(dst);
	zero_page(dir, lm.pg[lm.n / 2]);
	uint64_t n = 0;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_check_store(&n, dir, NULL, &e), H2EMV_OK);
	assert_true(n >= 1);
	assert_true(marker_exists(dir));
	h2emv_mem *m = NULL;
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "damaged:"));
	/* `h2emv ingest` refuses it with exit 3 and leaves nothing allocated
	 * behind (checked under valgrind where it is installed, outside the
	 * sanitizer build, which valgrind cannot run: the refusal
	 * ends the process from inside the open, where LeakSanitizer sees
	 * the buffers as still reachable) */
	char *const ing[] = { "h2emv", "ingest", "-m", dir, input, NULL };
	int st = run_cli(ing);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	if (!SANITIZED && system("command -v valgrind >/dev/null 2>&1") == 0) {
		char *vg = tu_fmt("valgrind -q --leak-check=full --show-leak-kinds=all "
		                  "--errors-for-leak-kinds=all --error-exitcode=99 '%s' ingest -m '%s' "
		                  "'%s' 2>/dev/null",
		                  H2EMV_CLI, dir, input);
		int vst = system(vg);
		assert_true(WIFEXITED(vst));
		if (WEXITSTATUS(vst) != 3)
			fail_msg("h2emv ingest on a damaged store under valgrind exits %d (99: a leak)",
			         WEXITSTATUS(vst));
		free(vg);
	}
	/* salvage writes a memory that check passes and that takes writes */
	h2emv_salvage_result r;
	assert_int_equal(h2emv_salvage(&r, dir, dst, NULL, NULL, &e), H2EMV_OK);
	assert_int_equal(r.dbs[1].bad_pages, 1);
	assert_int_equal(r.dbs[1].copied, lm.obs_total - lm.count[lm.n / 2]);
	assert_int_equal(h2emv_check_store(&n, dst, NULL, &e), H2EMV_OK);
	assert_int_equal(n, 0);
	assert_false(marker_exists(dst));
	assert_int_equal(h2emv_mem_open(&m, dst, NULL, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_pin(m, "after", 0, &e), H2EMV_OK);
	h2emv_mem_close(m);
	/* a clean check lifts a verdict */
	char *fresh = tu_fmt("%s/verdict-clean", work), *mk = tu_fmt("%s/verdict-clean/DAMAGED", work);
	copy_dir(base, fresh);
	FILE *f = fopen(mk, "w");
	assert_non_null(f);
	fputs("an old verdict\n", f);
	fclose(f);
	assert_int_equal(h2emv_mem_open(&m, fresh, NULL, &e), H2EMV_ECORRUPT);
	assert_int_equal(h2emv_check_store(&n, fresh, NULL, &e), H2EMV_OK);
	assert_int_equal(n, 0);
	assert_false(marker_exists(fresh));
	assert_int_equal(h2emv_mem_open(&m, fresh, NULL, &e), H2EMV_OK);
	h2emv_mem_close(m);
	free(fresh);
	free(mk);
	free(dir);
	free(dst);
}

/* The salvage reader test hook (engine/salvage.c). */
extern void (*salvage_reader_hook)(uint64_t pgno);
static uint64_t crash_on;
static void crash_here(uint64_t pgno)
{
	if (pgno == crash_on)
		raise(SIGSEGV);
}

static void test_a_salvage_reader_that_crashes_loses_only_its_page(void **state)
{
	(void)state;
	char *dst = tu_fmt("%s/crash-salvaged", work);
	tu_rmrf(dst);
	size_t victim = lm.n / 3;
	crash_on = lm.pg[victim];
	salvage_reader_hook = crash_here;
	h2emv_salvage_result r;
	h2emv_error e = { 0 };
	int rc = h2emv_salvage(&r, base, dst, NULL, NULL, &e);
	salvage_reader_hook = NULL;
	assert_int_equal(rc, H2EMV_OK);
	assert_int_equal(r.reader_crashes, 1);
	assert_int_equal(r.dbs[1].copied, lm.obs_total - lm.count[victim]);
	uint64_t n = 1;
	assert_int_equal(h2emv_check_store(&n, dst, NULL, &e), H2EMV_OK);
	assert_int_equal(n, 0);
	assert_int_equal(count_obs(dst), lm.obs_total - lm.count[victim]);
	free(dst);
}

typedef struct leaves {
	uint64_t pg[1024], count[1024];
	size_t n;
} leaves;

static void gap_leaf(void *ctx, uint64_t pgno)
{
	leaves *l = ctx;
	assert_true(l->n < 1024);
	l->pg[l->n] = pgno;
	l->count[l->n++] = 0;
}

static int gap_rec(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
	(void)k, (void)kn, (void)v, (void)vn;
	leaves *l = ctx;
	if (l->n)
		l->count[l->n - 1]++;
	return 0;
}

/* A salvage that lost a leaf of observations nobody had built leaves a gap
 * in the log: build folds what comes after it, counting the missing. */
static void test_build_passes_over_the_gap_a_salvage_leaves(void **state)
{
	(void)state;
	char *dir = tu_fmt("%s/gap", work), *dst = tu_fmt("%s/gap-salvaged", work);
	tu_rmrf(dir);
	tu_rmrf(dst);
	char *c = tu_fmt("'%s' init -m '%s' >/dev/null && '%s' ingest -m '%s' '%s/hist.jsonl' "
	                 ">/dev/null",
	                 H2EMV_CLI, dir, H2EMV_CLI, dir, root);
	sh(c);
	free(c);
	leaves *l = calloc(1, sizeof *l);
	assert_non_null(l);
	pg_file f;
	pg_db d;
	h2emv_error e = { 0 };
	char *path = tu_fmt("%s/data.mdb", dir);
	assert_int_equal(pg_open(&f, path, &e), H2EMV_OK);
	assert_int_equal(pg_named(&d, &f, "obs", &e), H2EMV_OK);
	pg_walker w = { .mode = PG_RECORDS, .ctx = l, .on_record = gap_rec, .on_leaf = gap_leaf };
	assert_int_equal(pg_walk(&f, &d, 0, &w), H2EMV_OK);
	pg_close(&f);
	assert_true(l->n >= 3);
	uint64_t total = 0, lost = l->count[l->n / 2];
	for (size_t i = 0; i < l->n; i++)
		total += l->count[i];
	crash_on = l->pg[l->n / 2]; /* a leaf in the middle: observations follow it */
	salvage_reader_hook = crash_here;
	h2emv_salvage_result sr;
	int rc = h2emv_salvage(&sr, dir, dst, NULL, NULL, &e);
	salvage_reader_hook = NULL;
	assert_int_equal(rc, H2EMV_OK);
	assert_int_equal(sr.reader_crashes, 1);
	assert_int_equal(count_obs(dst), total - lost);

	h2emv_mem *m = NULL;
	assert_int_equal(h2emv_mem_open(&m, dst, NULL, &e), H2EMV_OK);
	h2emv_build_result br;
	memset(&br, 0, sizeof br);
	rc = h2emv_build(&br, m, NULL, &e);
	if (rc)
		fprintf(stderr, "build over the gap: %s\n", e.message);
	assert_int_equal(rc, H2EMV_OK);
	assert_int_equal(br.obs_missing, lost);
	assert_int_equal(br.obs_folded, total - lost);
	assert_int_equal(br.build_cursor, total);
	h2emv_mem_close(m);
	uint64_t n = 1;
	assert_int_equal(h2emv_check_store(&n, dst, NULL, &e), H2EMV_OK);
	assert_int_equal(n, 0);
	free(l);
	free(path);
	free(dir);
	free(dst);
}

static void test_salvage_finds_the_leaves_a_damaged_root_cut_off(void **state)
{
	(void)state;
	char *dir = tu_fmt("%s/root", work), *dst = tu_fmt("%s/root-salvaged", work);
	copy_dir(base, dir);
	tu_rmrf(dst);
	pg_file f;
	pg_db d;
	h2emv_error e = { 0 };
	char *path = tu_fmt("%s/data.mdb", dir);
	assert_int_equal(pg_open(&f, path, &e), H2EMV_OK);
	assert_int_equal(pg_named(&d, &f, "obs", &e), H2EMV_OK);
	pg_close(&f);
	assert_true(d.depth >= 2);
	zero_page(dir, d.root);
	h2emv_salvage_result r;
	assert_int_equal(h2emv_salvage(&r, dir, dst, NULL, NULL, &e), H2EMV_OK);
	assert_int_equal(r.dbs[1].bad_pages, 1);
	assert_int_equal(r.dbs[1].orphaned, lm.obs_total);
	assert_int_equal(count_obs(dst), lm.obs_total);
	free(path);
	free(dir);
	free(dst);
}

/* Damage under an open memory: the size of observation 1's value (in the
 * first obs leaf, first node) becomes about 4 GiB. Reading it used to run
 * the checksum off the end of the map (SIGBUS); it must be refused. */
static void test_a_value_running_past_the_file_is_refused_not_read(void **state)
{
	(void)state;
	char *dir = tu_fmt("%s/bigsize", work), *path = tu_fmt("%s/bigsize/data.mdb", work);
	copy_dir(base, dir);
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	uint8_t page[65536];
	off_t at = (off_t)(lm.pg[0] * lm.psize);
	assert_int_equal(pread(fd, page, lm.psize, at), (ssize_t)lm.psize);
	uint16_t node, hi = 0xffff;
	memcpy(&node, page + 16, 2); /* the first node's offset */
	assert_int_equal(pwrite(fd, &hi, 2, at + node + 2), 2); /* its size's high half */
	close(fd);
	char *json = NULL;
	int rc = h2emv_obs_get_json(&json, NULL, m, 1, &e);
	assert_int_equal(rc, H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "damaged"));
	assert_null(json);
	h2emv_mem_close(m);
	free(dir);
	free(path);
}

static int setup(void **state)
{
	(void)state;
	build_base();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmrf(root);
	free(root);
	free(base);
	free(work);
	free(input);
	free(lm.pg);
	free(lm.count);
	free(lm.critical);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_value_running_past_the_file_is_refused_not_read),
		cmocka_unit_test(test_check_keeps_its_verdict_and_writes_are_refused_until_salvage),
		cmocka_unit_test(test_a_salvage_reader_that_crashes_loses_only_its_page),
		cmocka_unit_test(test_salvage_finds_the_leaves_a_damaged_root_cut_off),
		cmocka_unit_test(test_build_passes_over_the_gap_a_salvage_leaves),
		cmocka_unit_test(test_damaged_copies_never_crash_and_salvage_saves_the_rest),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
