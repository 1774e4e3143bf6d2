/*
 * reserve.c — space kept back so that a full disk can be recovered from
 * inside: DIR/reserve is a preallocated file. Its target is the live pages
 * (and a quarter) of the data file (its pages less the free ones; at least
 * 8 MiB); its floor what the next compaction's copy needs at least (the
 * live pages less the term index, which a compaction on a full disk leaves
 * out: compact.c). It grows to its floor from any free space, beyond it
 * only while no observation waits to be folded. When gc finds the disk
 * full it unlinks it and goes on in the space it held; compaction unlinks
 * it only when the copy then fits. After a compaction it is made again, if
 * the disk has room; when gc leaves less live data it shrinks. An ordinary
 * write (ingest, build) never takes it: it fails with H2EMV_ENOSPC and
 * leaves the reserve to the maintenance that frees space.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/env.h"
#include "engine/regfile.h"

#define RESERVE_MIN (8ull << 20)
#define MIB (1ull << 20)

static void reserve_path(char *buf, size_t cap, const char *dir)
{
	snprintf(buf, cap, "%s/reserve", dir);
}

uint64_t reserve_bytes(const char *dir)
{
	char path[4200];
	struct stat st;
	reserve_path(path, sizeof path, dir);
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t reserve_release(const char *dir)
{
	char path[4200];
	uint64_t n = reserve_bytes(dir);
	reserve_path(path, sizeof path, dir);
	return unlink(path) == 0 ? n : 0;
}

/* The pages of the term index (derived data, which a compaction may leave
 * out: compact.c) in txn. */
static uint64_t index_bytes(MDB_txn *txn)
{
	MDB_dbi post, node;
	MDB_stat a, b;
	if (ix_dbis(&post, &node, txn, 0, NULL) != H2EMV_OK || mdb_stat(txn, post, &a) != 0 ||
	    mdb_stat(txn, node, &b) != 0)
		return 0;
	return (uint64_t)a.ms_psize * (a.ms_branch_pages + a.ms_leaf_pages + a.ms_overflow_pages +
	                               b.ms_branch_pages + b.ms_leaf_pages + b.ms_overflow_pages);
}

/* The live bytes of `g`; in *index those of the term index, in *waiting
 * whether observations wait to be folded (each may be NULL). */
static uint64_t live_view(eng_env *env, eng_gen *g, uint64_t *index, int *waiting)
{
	MDB_envinfo info;
	MDB_stat st;
	MDB_txn *txn;
	MDB_cursor *cur;
	if (index)
		*index = 0;
	if (waiting)
		*waiting = 0;
	if (mdb_env_info(g->mdb, &info) != 0 || mdb_env_stat(g->mdb, &st) != 0)
		return 0;
	uint64_t pages = (uint64_t)info.me_last_pgno + 1, free_pages = 0;
	/* the free list (database 0): each record is a list of page numbers,
	 * its first word their count */
	gate_read_enter(&env->gate); /* reads through the map like a view */
	if (mdb_txn_begin(g->mdb, NULL, MDB_RDONLY, &txn) != 0) {
		gate_read_exit(&env->gate);
		return pages * st.ms_psize;
	}
	if (mdb_cursor_open(txn, 0, &cur) == 0) {
		MDB_val k, v;
		int op = MDB_FIRST;
		while (mdb_cursor_get(cur, &k, &v, op) == 0) {
			op = MDB_NEXT;
			size_t n;
			if (v.mv_size >= sizeof n) {
				memcpy(&n, v.mv_data, sizeof n);
				free_pages += n;
			}
		}
		mdb_cursor_close(cur);
	}
	if (index)
		*index = index_bytes(txn);
	if (waiting) {
		uint64_t cursor = 0, last = 0;
		*waiting = meta_get_u64(&cursor, txn, env, "build_cursor", NULL) == H2EMV_OK &&
		           eng_last_key(&last, txn, env->dbi[DB_OBS], NULL) == H2EMV_OK &&
		           last > cursor;
	}
	mdb_txn_abort(txn);
	gate_read_exit(&env->gate);
	if (free_pages > pages)
		free_pages = 0; /* not believable: count the whole file */
	uint64_t live = (pages - free_pages) * st.ms_psize;
	if (index && *index > live)
		*index = 0;
	return live;
}

uint64_t reserve_live_split(eng_env *env, eng_gen *g, uint64_t *index)
{
	return live_view(env, g, index, NULL);
}

uint64_t reserve_live_bytes(eng_env *env, eng_gen *g)
{
	return live_view(env, g, NULL, NULL);
}

/* The live pages of generation `g` (the file's pages less those on its
 * free list, which a compaction's copy leaves out) and a quarter more,
 * rounded up to a MiB, at least 8 MiB: the copy never needs more. Sized from the live data, not
 * from the file: after gc the reserve shrinks with the data. */
static uint64_t reserve_target(uint64_t used)
{
	if (used == 0)
		return RESERVE_MIN;
	/* + a quarter for the growth until the next refresh (the data grows
	 * between refreshes, and on a full disk the reserve cannot follow it),
	 * + the copy's lock file and CURRENT */
	used += used / 4;
	used = (used + MIB - 1) / MIB * MIB + MIB;
	return used > RESERVE_MIN ? used : RESERVE_MIN;
}

/* What the next compaction needs at least: its copy without the term index
 * (compact.c leaves it out when nothing else fits), the copy's lock file
 * and a MiB, rounded up to a MiB; at least 8 MiB, at most the target. */
static uint64_t reserve_floor(uint64_t live, uint64_t index, uint64_t want)
{
	uint64_t need = live - index + (1ull << 16) + MIB;
	need = (need + MIB - 1) / MIB * MIB;
	if (need < RESERVE_MIN)
		need = RESERVE_MIN;
	return need < want ? need : want;
}

/* The size the reserve may grow to now, from `have`, with `free_bytes`
 * free: all of it but two MiB (the writes under way), up to its floor; past
 * the floor, towards its target, only while no observation waits to be
 * folded. The space a compaction on a full disk freed goes to the
 * observations waiting for it first, not back into the reserve, so that
 * `gc && compact && build` recovers. */
static uint64_t reserve_grow_to(uint64_t have, uint64_t floor, uint64_t want, int waiting,
                                uint64_t free_bytes)
{
	if (free_bytes <= 2 * MIB)
		return have;
	uint64_t cap = waiting ? floor : want;
	if (have >= cap)
		return have;
	uint64_t take = (free_bytes - 2 * MIB) / MIB * MIB;
	return cap - have < take ? cap : have + take;
}

void reserve_refresh(eng_env *env, eng_gen *g)
{
	uint64_t index = 0;
	int waiting = 0;
	uint64_t live = live_view(env, g, &index, &waiting);
	uint64_t have = reserve_bytes(env->dir);
	uint64_t want = reserve_target(live);
	char path[4200];
	reserve_path(path, sizeof path, env->dir);
	if (have >= want + 2 * MIB) {
		/* gc freed live data: give the surplus back to the disk */
		int fd = reg_open(path, O_RDWR, 0, NULL);
		if (fd >= 0) {
			if (ftruncate(fd, (off_t)want) != 0) {
				/* keep what is there */
			}
			close(fd);
		}
		return;
	}
	if (have >= want)
		return;
	/* A reserve smaller than its target still lets gc run. */
	struct statvfs vfs;
	if (statvfs(env->dir, &vfs) != 0)
		return;
	uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	uint64_t size = reserve_grow_to(have, reserve_floor(live, index, want), want, waiting,
	                                free_bytes);
	if (size < RESERVE_MIN || size < have + MIB)
		return;
	struct rlimit rl; /* past the file size limit SIGXFSZ would kill us */
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    size > (uint64_t)rl.rlim_cur)
		return;
	int fd = reg_open(path, O_RDWR | O_CREAT, 0644, NULL);
	if (fd < 0)
		return;
	if (posix_fallocate(fd, 0, (off_t)size) != 0) {
		/* give back what a partial allocation took */
		if (have == 0)
			unlink(path);
		else if (ftruncate(fd, (off_t)have) != 0)
			unlink(path);
	}
	close(fd);
}
