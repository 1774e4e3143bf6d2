/*
 * gate.c — the integrity gate every open passes before LMDB maps the file,
 * the DAMAGED marker `check` leaves, and the bound every value read from
 * the map is held to. LMDB trusts its file: a damaged page can make it
 * assert, fault or read past the end of the map. The gate reads what LMDB
 * would trip on first, cheaply: both meta pages, the free list, the list
 * of databases, the small databases whole and the branch levels of the big
 * ones (obs, nodes, dead, relcache, obsids and the term index), or every
 * page of a store up to 64 MiB. The leaves of bigger stores are left to
 * `h2emv check`, which walks every page (docs/damaged.md), except the
 * first and last path of each database, which every write reads first:
 * read at a writer's open and before each write (eng_gate_edges).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/env.h"
#include "engine/gate.h"
#include "engine/pages.h"
#include "engine/regfile.h"

/* The data file's path: the generation DIR/CURRENT names (gen.c), or
 * data.mdb when CURRENT cannot be read (the gate then reports the store). */
void gate_data_path(char *buf, size_t n, const char *dir)
{
	if (eng_data_file(buf, n, dir, NULL) != H2EMV_OK)
		snprintf(buf, n, "%s/data.mdb", dir);
}

static void marker_path(char *buf, size_t n, const char *dir)
{
	snprintf(buf, n, "%s/DAMAGED", dir);
}

int eng_damaged_reason(char *reason, size_t n, const char *dir)
{
	char path[4200];
	marker_path(path, sizeof path, dir);
	struct stat st;
	if (lstat(path, &st) != 0)
		return 0;
	int fd = reg_open(path, O_RDONLY, 0, NULL);
	if (fd < 0) {
		/* something in the marker's place: the store counts as marked */
		if (n)
			snprintf(reason, n, "%s is not a regular file", path);
		return 1;
	}
	ssize_t got = read(fd, reason, n ? n - 1 : 0);
	close(fd);
	if (n) {
		reason[got > 0 ? got : 0] = 0;
		char *nl = strchr(reason, '\n');
		if (nl)
			*nl = 0;
	}
	return 1;
}

/* See gate.h. */
int gate_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		p += k;
		n -= (size_t)k;
	}
	return 1;
}

int eng_mark_damaged(const char *dir, const char *reason, h2emv_error *err)
{
	char path[4200], tmp[4300];
	marker_path(path, sizeof path, dir);
	/* readers of several threads and processes may mark at once: a
	 * temporary file each, and the last rename wins (every reason holds) */
	static unsigned seq;
	snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", path, (long)getpid(),
	         __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
	/* open, write, fsync, close and rename only, nothing allocated: LMDB's
	 * assertion hook calls this just before the process aborts (damage.c) */
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return eng_fail(err, H2EMV_EIO, "%s: %s", tmp, strerror(errno));
	int ok = gate_write_all(fd, reason, strlen(reason)) && gate_write_all(fd, "\n", 1);
	ok &= fsync(fd) == 0;
	ok &= close(fd) == 0;
	if (!ok || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		return eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(e));
	}
	return H2EMV_OK;
}

int eng_mark_clean(const char *dir, h2emv_error *err)
{
	char path[4200];
	marker_path(path, sizeof path, dir);
	if (unlink(path) != 0 && errno != ENOENT)
		return eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(errno));
	return H2EMV_OK;
}

/* Which databases the gate walks whole: the ones that stay small. */
static int small_db(int db)
{
	return db == DB_META || db == DB_SNAPSHOTS || db == DB_RULES || db == DB_PINS ||
	       db == DB_DICTS;
}

/* The databases the gate reads: the store's own, then the term index's
 * (index.c; opened by name, absent until the first build writes them). */
#define GATE_DBS (DB_COUNT + ENG_IX_DBS)

const char *gate_db_name(int i)
{
	return i < DB_COUNT ? eng_db_names[i] : eng_ix_names[i - DB_COUNT];
}

typedef struct gate_bad {
	const char *db;
	uint64_t pgno;
	char why[160];
} gate_bad;

static void on_bad(void *ctx, uint64_t pgno, const char *why, const uint8_t *lo, size_t lon,
                   const uint8_t *hi, size_t hin)
{
	(void)lo, (void)lon, (void)hi, (void)hin;
	gate_bad *b = ctx;
	if (!b->why[0]) {
		b->pgno = pgno;
		snprintf(b->why, sizeof b->why, "%s", why);
	}
}

/* Below this many bytes of pages every page is read: about 0.6 ms per MiB
 * when the file is in the page cache (15 ms for 20 MiB). */
#define GATE_FULL_WALK (64ull << 20)

/* One pass over the file; H2EMV_OK, or ECORRUPT with the first damage.
 * For a `writer` the first and last leaves of a big store's databases
 * too: what its first reads (the last sequence number) go through. */
static int gate_pass(pg_file *f, uint64_t *txnid, const char *path, int writer, int every,
                     h2emv_error *err)
{
	int rc = pg_open(f, path, err);
	if (rc)
		return rc;
	*txnid = f->txnid;
	gate_bad b = { "free list", 0, { 0 } };
	pg_walker w = { .mode = 0, .ctx = &b, .on_bad = on_bad };
	if ((rc = pg_walk(f, &f->free_db, 1, &w)) != H2EMV_OK)
		return eng_fail(err, rc, "out of memory");
	int all = every || (uint64_t)(f->last_pg + 1) * f->psize <= GATE_FULL_WALK;
	for (int i = 0; i < GATE_DBS && !w.bad; i++) {
		pg_db d;
		const char *name = gate_db_name(i);
		rc = pg_named(&d, f, name, err);
		if (rc == H2EMV_ENOTFOUND)
			continue; /* a store being created (open_dbis says what is
			             missing), or one without a term index yet */
		if (rc)
			return rc;
		b.db = name;
		w.mode = all || (i < DB_COUNT && small_db(i)) ? 0 : PG_BRANCHES;
		if ((rc = pg_walk(f, &d, 0, &w)) != H2EMV_OK)
			return eng_fail(err, rc, "out of memory");
		if (w.mode == PG_BRANCHES && writer && !w.bad) {
			/* the branch pages were marked as seen: a bitmap of its own */
			uint8_t *keep = f->seen;
			f->seen = calloc((size_t)(f->seen_bits + 7) / 8, 1);
			if (!f->seen) {
				f->seen = keep;
				return eng_fail(err, H2EMV_ENOMEM, "out of memory");
			}
			w.mode = PG_EDGES;
			rc = pg_walk(f, &d, 0, &w);
			free(f->seen);
			f->seen = keep;
			if (rc)
				return eng_fail(err, rc, "out of memory");
		}
	}
	if (w.bad)
		return eng_fail(err, H2EMV_ECORRUPT, "database '%s', page %llu: %s", b.db,
		                (unsigned long long)b.pgno, b.why);
	return H2EMV_OK;
}

int eng_gate_edges(const char *path, h2emv_error *err)
{
	pg_file f;
	int rc = pg_open(&f, path, err);
	gate_bad b = { "", 0, { 0 } };
	pg_walker w = { .mode = PG_EDGES, .ctx = &b, .on_bad = on_bad };
	for (int i = 0; rc == H2EMV_OK && i < GATE_DBS && !w.bad; i++) {
		pg_db d;
		b.db = gate_db_name(i);
		rc = pg_named(&d, &f, b.db, err);
		if (rc == H2EMV_ENOTFOUND) {
			rc = H2EMV_OK; /* not written yet: the write creates it */
			continue;
		}
		if (rc == H2EMV_OK && (rc = pg_walk(&f, &d, 0, &w)) != H2EMV_OK)
			rc = eng_fail(err, rc, "out of memory");
	}
	pg_close(&f);
	if (rc == H2EMV_OK && w.bad)
		rc = eng_fail(err, H2EMV_ECORRUPT, "database '%s', page %llu: %s", b.db,
		              (unsigned long long)b.pgno, b.why);
	return rc;
}

int eng_gate_every_page(const char *path, h2emv_error *err)
{
	/* as eng_gate's retries: damage seen while a writer moved two commits
	 * ahead may be pages it reused under the walk */
	for (int attempt = 0; attempt < 4; attempt++) {
		pg_file f, again;
		uint64_t before = 0;
		h2emv_error e = { 0 }, e2 = { 0 };
		int rc = gate_pass(&f, &before, path, 0, 1, &e);
		pg_close(&f);
		if (rc != H2EMV_ECORRUPT) {
			if (rc && err)
				*err = e;
			return rc;
		}
		int moved = pg_open(&again, path, &e2) == H2EMV_OK && again.txnid >= before + 2;
		pg_close(&again);
		if (!moved) {
			if (err)
				*err = e;
			return rc;
		}
	}
	return H2EMV_OK;
}

int eng_gate(const char *dir, unsigned flags, h2emv_error *err)
{
	char path[4200], reason[512];
	/* a damaged or missing CURRENT is the generation code's to report,
	 * by name, when the store is opened (gen.c): let it through */
	if (eng_data_file(path, sizeof path, dir, NULL) != H2EMV_OK)
		return H2EMV_OK;
	struct stat st;
	if (stat(path, &st) != 0 && errno == ENOENT && !(flags & H2EMV_OPEN_CREATE))
		return H2EMV_OK; /* no data file: the open says what is missing */
	/* LMDB is about to write a new file, or another process is writing
	 * one: its two meta pages come first, in one write */
	if ((flags & H2EMV_OPEN_CREATE) && (stat(path, &st) != 0 || st.st_size <= 8192))
		return H2EMV_OK;
	if (!(flags & H2EMV_OPEN_READONLY) && eng_damaged_reason(reason, sizeof reason, dir))
		return eng_fail(err, H2EMV_ECORRUPT,
		                "damaged: %s is marked DAMAGED (%s); writes, gc and "
		                "compaction are refused. Recover with `h2emv salvage` "
		                "(docs/damaged.md)",
		                dir, reason);
	/* Not a registered reader, the walk may race a writer: pages of the
	 * tree it reads can be reused only two commits later, so damage seen
	 * while the txnid moved by two or more is looked at again. */
	int rc = H2EMV_OK;
	for (int attempt = 0; attempt < 4; attempt++) {
		pg_file f;
		uint64_t before = 0;
		h2emv_error e = { 0 };
		rc = gate_pass(&f, &before, path, !(flags & H2EMV_OPEN_READONLY), 0, &e);
		pg_close(&f);
		if (rc != H2EMV_ECORRUPT) {
			if (rc && err)
				*err = e;
			return rc;
		}
		pg_file again;
		h2emv_error e2 = { 0 };
		int moved = pg_open(&again, path, &e2) == H2EMV_OK && again.txnid >= before + 2;
		pg_close(&again);
		if (!moved && (flags & H2EMV_OPEN_READONLY))
			return eng_fail(err, H2EMV_ECORRUPT, "damaged: %s: %s; run `h2emv check -m %s`",
			                dir, e.message, dir);
		if (!moved) {
			/* a writer is refused, and so is every later one: the mark
			 * stays until check finds the store whole (docs/damaged.md) */
			char why[600];
			snprintf(why, sizeof why, "opening to write found %.500s", e.message);
			int marked = eng_mark_damaged(dir, why, NULL) == H2EMV_OK;
			return eng_fail(err, H2EMV_ECORRUPT,
			                "damaged: %s: %s; the write was refused%s; run `h2emv check -m %s`",
			                dir, e.message, marked ? " and the memory marked DAMAGED" : "",
			                dir);
		}
	}
	return rc;
}

/* ------------------------------------------------- values in the map -- */

/* LMDB does not say where it mapped the file (mdb_env_info's me_mapaddr is
 * the address recorded in the meta page, 0 unless MDB_FIXEDMAP): find the
 * mapping of the data file in /proc/self/maps. Called when a value does
 * not fall inside the mapping known so far (first use, after a remap). */
static void find_map(eng_env *env)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	int fd;
	struct stat st;
	MDB_env *mdb = env->mdb; /* the current generation's */
	__atomic_store_n(&env->map_mdb, (uintptr_t)mdb, __ATOMIC_RELEASE);
	if (!mdb || mdb_env_get_fd(mdb, &fd) || fstat(fd, &st))
		return;
	pthread_mutex_lock(&mu);
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4400];
	while (f && fgets(line, sizeof line, f)) {
		unsigned long long lo, hi, off, ino;
		unsigned maj, mnr;
		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &lo, &hi, &off, &maj, &mnr, &ino) != 6)
			continue;
		if (ino == (unsigned long long)st.st_ino && maj == major(st.st_dev) &&
		    mnr == minor(st.st_dev) && off == 0) {
			__atomic_store_n(&env->map_base, (uintptr_t)lo, __ATOMIC_RELEASE);
			__atomic_store_n(&env->map_len, (uint64_t)(hi - lo), __ATOMIC_RELEASE);
			break;
		}
	}
	if (f)
		fclose(f);
	pthread_mutex_unlock(&mu);
}

/* Where generation `g`'s data file is mapped in this process. LMDB does not
 * say, and the device and inode /proc/self/maps shows are not fstat's on
 * every file system (overlayfs shows the layer's): a value read from the
 * map lies on a page whose header holds its page number, which gives the
 * map's start; it counts only when /proc/self/maps has a mapping that
 * starts there and is as long as the environment's map. 0 when not found. */
static int gen_map(uintptr_t *base, uint64_t *len, eng_env *env, eng_gen *g)
{
	MDB_txn *txn;
	MDB_cursor *c;
	MDB_envinfo info;
	MDB_stat st;
	MDB_val k, v;
	uintptr_t cand = 0;
	if (!g || !g->mdb || mdb_env_info(g->mdb, &info) || mdb_env_stat(g->mdb, &st) ||
	    mdb_txn_begin(g->mdb, NULL, MDB_RDONLY, &txn))
		return 0;
	if (mdb_cursor_open(txn, env->dbi[DB_META], &c) == 0) {
		if (mdb_cursor_get(c, &k, &v, MDB_FIRST) == 0 && v.mv_data) {
			uintptr_t page = (uintptr_t)v.mv_data & ~(uintptr_t)(st.ms_psize - 1);
			uint64_t pgno;
			memcpy(&pgno, (const void *)page, sizeof pgno);
			if (pgno <= info.me_last_pgno && page >= pgno * st.ms_psize)
				cand = page - (uintptr_t)(pgno * st.ms_psize);
		}
		mdb_cursor_close(c);
	}
	mdb_txn_abort(txn);
	if (!cand)
		return 0;
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4400];
	while (f && !found && fgets(line, sizeof line, f)) {
		unsigned long long lo, hi;
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == cand &&
		    hi - lo == (unsigned long long)info.me_mapsize) {
			*base = cand;
			*len = hi - lo;
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static uint64_t map_releases; /* process-wide count (eng_map_releases) */

/* The map is read-only (no MDB_WRITEMAP: LMDB writes with pwrite) and
 * shared, so MADV_DONTNEED only unmaps pages from this process: they stay
 * in the page cache and the next access maps them again, and views open in
 * other threads stay valid. The gate (no remap or reopen in this process)
 * and a reference to the generation (no close) keep the range mapped to
 * the data file while madvise runs: on a range unmapped and reused by
 * malloc it would zero live memory. */
void eng_map_release(eng_env *env)
{
	eng_gen *g = NULL;
	/* never waits: the caller may hold a view a waiting remap waits for
	 * (serve's exports release behind them), and a release skipped
	 * while the map grows is made up by the next one */
	if (!gate_read_try_enter(&env->gate))
		return;
	pthread_mutex_lock(&env->gate.mu);
	unsigned epoch = env->gate.epoch;
	pthread_mutex_unlock(&env->gate.mu);
	if (gen_acquire(&g, env, NULL) == H2EMV_OK) {
		pthread_mutex_lock(&env->rel_mu);
		if (env->rel_gen != g || env->rel_num != g->num || env->rel_epoch != epoch) {
			env->rel_len = 0;
			if (!gen_map(&env->rel_base, &env->rel_len, env, g))
				env->rel_len = 0;
			env->rel_gen = g;
			env->rel_num = g->num;
			env->rel_epoch = epoch;
		}
		if (env->rel_len && madvise((void *)env->rel_base, (size_t)env->rel_len,
		                            MADV_DONTNEED) == 0)
			__atomic_add_fetch(&map_releases, 1, __ATOMIC_RELAXED);
		else
			env->rel_gen = NULL; /* not found or refused: look again next time */
		pthread_mutex_unlock(&env->rel_mu);
		gen_release(env, g);
	}
	gate_read_exit(&env->gate);
}

uint64_t eng_map_releases(void)
{
	return __atomic_load_n(&map_releases, __ATOMIC_RELAXED);
}

static int in_map(eng_env *env, uintptr_t p)
{
	uintptr_t base = __atomic_load_n(&env->map_base, __ATOMIC_ACQUIRE);
	uint64_t len = __atomic_load_n(&env->map_len, __ATOMIC_ACQUIRE);
	return base && p >= base && p - base < len;
}

static int value_fits(eng_env *env, uintptr_t p, size_t size, uint64_t *offp);

int env_value_sane(eng_env *env, const void *data, size_t size, h2emv_error *err)
{
	uintptr_t p = (uintptr_t)data;
	uint64_t off = 0;
	if (value_fits(env, p, size, &off))
		return H2EMV_OK;
	/* the map may have moved since it was looked up (a reopen): again */
	__atomic_store_n(&env->map_base, 0, __ATOMIC_RELEASE);
	if (value_fits(env, p, size, &off))
		return H2EMV_OK;
	return eng_fail(err, H2EMV_ECORRUPT,
	                "damaged: a record of %zu bytes at offset %llu runs past the end of the "
	                "data file; run `h2emv check`",
	                size, (unsigned long long)off);
}

/* 1 if [p, p + size) is a dirty page or lies inside the data file. */
static int value_fits(eng_env *env, uintptr_t p, size_t size, uint64_t *offp)
{
	if (!in_map(env, p)) {
		/* look the map up again only when it was never found or the
		 * generation changed (a compaction): a value outside it is on a
		 * page a write transaction made, or in an older generation a
		 * view is finishing on, and reading /proc per value would cost */
		if (!__atomic_load_n(&env->map_base, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&env->map_mdb, __ATOMIC_ACQUIRE) != (uintptr_t)env->mdb)
			find_map(env);
		if (!in_map(env, p))
			return 1;
	}
	if (!env->mdb)
		return 1;
	uint64_t off = p - __atomic_load_n(&env->map_base, __ATOMIC_ACQUIRE);
	*offp = off;
	MDB_envinfo info;
	MDB_stat st;
	if (mdb_env_info(env->mdb, &info) || mdb_env_stat(env->mdb, &st))
		return 1;
	uint64_t end = (uint64_t)st.ms_psize * (info.me_last_pgno + 1);
	if (size <= end && off <= end - size)
		return 1;
	/* past the last page this process knows of: the file may have grown */
	struct stat fst;
	int fd;
	return mdb_env_get_fd(env->mdb, &fd) == 0 && fstat(fd, &fst) == 0 &&
	       size <= (uint64_t)fst.st_size && off <= (uint64_t)fst.st_size - size;
}
