/*
 * env_write.c — the write-transaction runner (env_write): the meta pages
 * verified before a write, the map grown on MDB_MAP_FULL, a full disk met
 * with the reserve, a store found damaged marked so and reopened.
 */
#include <errno.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine/env.h"
#include "engine/gate.h"
#include "engine/pages.h"
#include "engine/regfile.h"
#include "engine/env_internal.h"

/* Grow the map. Every read view in this process must be closed while LMDB
 * remaps, so wait (bounded) for them. */
static int grow_map(eng_env *env, eng_gen *g, h2emv_error *err)
{
	if (env->map_size >= env->max_map)
		return eng_fail(err, H2EMV_ENOSPC,
		                "the memory reached its maximum map size of %llu bytes",
		                (unsigned long long)env->max_map);
	uint64_t next = env->map_size * 2;
	if (next > env->max_map)
		next = env->max_map;
	if (gate_remap_begin(&env->gate, GROW_WAIT_SECONDS) != H2EMV_OK)
		return eng_fail(err, H2EMV_EBUSY,
		                "the map is full and cannot grow while snapshots stay open in this "
		                "process; close them and retry");
	int rc = mdb_env_set_mapsize(g->mdb, (size_t)next);
	__atomic_store_n(&env->map_base, 0, __ATOMIC_RELEASE); /* the map may move (gate.c) */
	gate_remap_end(&env->gate);
	if (rc)
		return env_err(err, rc, "growing the map");
	env->map_size = next;
	return H2EMV_OK;
}

/* LMDB reports a write cut short by a full disk or the file size limit as
 * EIO; tell them apart so the caller hears "no space". */
static int space_exhausted(eng_env *env, eng_gen *g)
{
	struct statvfs vfs;
	char path[4200];
	struct stat st;
	gen_path(path, sizeof path, env->dir, g->num, 0);
	if (statvfs(env->dir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < (1u << 20))
		return 1;
	struct rlimit rl;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    stat(path, &st) == 0 && (uint64_t)st.st_size + (1u << 20) > (uint64_t)rl.rlim_cur)
		return 1;
	return 0;
}

/* After a failed commit LMDB may refuse further work (MDB_PANIC); reopen. */
static int repair(eng_env *env, h2emv_error *err)
{
	if (gate_remap_begin(&env->gate, 0) != H2EMV_OK)
		return eng_fail(err, H2EMV_EBUSY,
		                "an earlier write failed; close open snapshots so the store can reopen");
	int rc = env_reopen(env, err);
	gate_remap_end(&env->gate);
	if (rc == H2EMV_OK)
		env->broken = 0;
	return rc;
}

/* Keep the reserve as large as the data file's pages in use: look again
 * each time the file has grown by RESERVE_STEP since the last look. */
#define RESERVE_STEP (4ull << 20)
static void reserve_follow(eng_env *env, eng_gen *g)
{
	MDB_envinfo info;
	MDB_stat st;
	if (mdb_env_info(g->mdb, &info) != 0 || mdb_env_stat(g->mdb, &st) != 0)
		return;
	uint64_t used = ((uint64_t)info.me_last_pgno + 1) * st.ms_psize;
	if (used < env->reserve_next)
		return;
	env->reserve_next = used + RESERVE_STEP;
	reserve_refresh(env, g);
}

/* A commit cut short by a full disk may have grown the data file with
 * pages no meta page names: give them back, so that retries never grow
 * the file (the caller holds the write lock; nothing past the last
 * committed page is read by anyone). */
static void trim_failed_growth(eng_gen *g)
{
	MDB_envinfo info;
	MDB_stat st;
	struct stat fst;
	int fd;
	if (mdb_env_info(g->mdb, &info) != 0 || mdb_env_stat(g->mdb, &st) != 0 ||
	    mdb_env_get_fd(g->mdb, &fd) != 0 || fstat(fd, &fst) != 0)
		return;
	uint64_t used = ((uint64_t)info.me_last_pgno + 1) * st.ms_psize;
	if ((uint64_t)fst.st_size > used && ftruncate(fd, (off_t)used) != 0) {
		/* best effort: the pages stay, as LMDB left them */
	}
}

/* A write that found the disk full. During maintenance (gc) the reserve
 * gives way, once, so that the space it held lets gc finish; an ordinary
 * write leaves it for gc and compaction and says so. 1 = retry. */
static int disk_full(eng_env *env, int *released, h2emv_error *err)
{
	if (__atomic_load_n(&env->maint, __ATOMIC_SEQ_CST) > 0 && !*released) {
		*released = 1;
		if (reserve_release(env->dir) > 0)
			return 1;
	}
	uint64_t r = reserve_bytes(env->dir);
	if (err && r > 0) {
		size_t len = strlen(err->message);
		snprintf(err->message + len, sizeof err->message - len,
		         "; `h2emv gc` and `h2emv compact` can still run: they use the memory's "
		         "%llu-byte reserve",
		         (unsigned long long)r);
	}
	return 0;
}

typedef struct first_bad {
	uint64_t pgno;
	char why[160];
} first_bad;

static void note_bad(void *ctx, uint64_t pgno, const char *why, const uint8_t *lo, size_t lon,
                     const uint8_t *hi, size_t hin)
{
	(void)lo, (void)lon, (void)hi, (void)hin;
	first_bad *b = ctx;
	if (!b->why[0]) {
		b->pgno = pgno;
		snprintf(b->why, sizeof b->why, "%s", why);
	}
}

/* Free lists up to this many pages are read whole before a write (their
 * entry count checked); larger ones down to their branch pages. */
#define VERIFY_FREE_PAGES 256
#define VERIFY_ALWAYS_PAGES 16

/* What a write will build on, read by hand before it starts (the caller
 * holds the write lock): both meta pages, their counts and the free list.
 * LMDB trusts them and carries a wrong count into every later commit.
 * Skipped when no other process committed since this handle last looked. */
int env_verify_meta(eng_env *env, eng_gen *g, h2emv_error *err)
{
	MDB_envinfo info;
	if (mdb_env_info(g->mdb, &info) != 0)
		return H2EMV_OK;
	/* a small free list is read before every write (a handful of pages);
	 * a larger one when another process committed since */
	if (env->verified_gen == g->num + 1 && env->verified_txnid == info.me_last_txnid &&
	    env->verified_free_pages > VERIFY_ALWAYS_PAGES)
		return H2EMV_OK;
	char path[4200];
	gen_path(path, sizeof path, env->dir, g->num, 0);
	pg_file f;
	h2emv_error e = { 0 };
	first_bad b = { 0, { 0 } };
	int rc = pg_open(&f, path, &e);
	if (rc == H2EMV_OK) {
		pg_walker w = { .ctx = &b, .on_bad = note_bad };
		w.mode = f.free_db.branch_pages + f.free_db.leaf_pages <= VERIFY_FREE_PAGES
		                 ? 0
		                 : PG_BRANCHES;
		rc = pg_walk(&f, &f.free_db, 1, &w);
		if (rc == H2EMV_OK && w.bad)
			rc = eng_fail(&e, H2EMV_ECORRUPT, "the free list, page %llu: %s",
			              (unsigned long long)b.pgno, b.why);
		else if (rc)
			rc = eng_fail(&e, rc, "out of memory");
	}
	pg_close(&f);
	if (rc == H2EMV_OK) {
		env->verified_gen = g->num + 1;
		env->verified_txnid = info.me_last_txnid;
		env->verified_free_pages = f.free_db.branch_pages + f.free_db.leaf_pages;
		return H2EMV_OK;
	}
	if (rc != H2EMV_ECORRUPT) {
		if (err)
			*err = e;
		return rc;
	}
	env_damage_seen = 1;
	return eng_fail(err, H2EMV_ECORRUPT, "damaged: %s: %s", env->dir, e.message);
}

/* The pages a write reads first (gate.c): damage there is refused before
 * LMDB copies it into a commit. */
static int env_verify_edges(eng_env *env, eng_gen *g, h2emv_error *err)
{
	char path[4200];
	gen_path(path, sizeof path, env->dir, g->num, 0);
	h2emv_error e = { 0 };
	int rc = eng_gate_edges(path, &e);
	if (rc == H2EMV_ECORRUPT) {
		env_damage_seen = 1;
		return eng_fail(err, rc, "damaged: %s: %s", env->dir, e.message);
	}
	if (rc && err)
		*err = e;
	return rc;
}

/* A write that met damage: refused, and the store marked DAMAGED so that
 * no later write builds on it until `check` and `salvage` have run. */
static void mark_damaged_by_write(eng_env *env, h2emv_error *err)
{
	char reason[400];
	const char *msg = err && err->message[0] ? err->message : "a write met damaged data";
	if (!strncmp(msg, "damaged: ", 9))
		msg += 9;
	snprintf(reason, sizeof reason, "a write found %.360s", msg);
	if (eng_mark_damaged(env->dir, reason, NULL) == H2EMV_OK && err) {
		char m[sizeof err->message];
		snprintf(m, sizeof m, "damaged: %.300s; the write was refused and %.100s marked "
		         "DAMAGED (run `h2emv check`, then `h2emv salvage`)",
		         msg, env->dir);
		snprintf(err->message, sizeof err->message, "%s", m);
	}
}

int env_write(eng_env *env, env_txn_fn fn, void *ctx, h2emv_error *err)
{
	if (env->flags & H2EMV_OPEN_READONLY)
		return eng_fail(err, H2EMV_EREADONLY, "the memory at %s is open read-only", env->dir);
	eng_gen *g = NULL;
	int rc = writer_begin(&g, env, err);
	if (rc)
		return rc;
	int released = 0;
	/* this thread's reads met a damaged page since: confirmed, marked */
	env_damage_confirm(env, g->num);
	env_damage_seen = 0;
	char reason[400];
	/* another process found damage since this handle opened */
	if (eng_damaged_reason(reason, sizeof reason, env->dir)) {
		rc = eng_fail(err, H2EMV_ECORRUPT,
		              "damaged: %.100s is marked DAMAGED (%.280s); writes are refused: run "
		              "`h2emv check`, then `h2emv salvage` (docs/damaged.md)",
		              env->dir, reason);
		goto out;
	}
	if ((rc = env_verify_meta(env, g, err)) != H2EMV_OK)
		goto out;
	if ((rc = env_verify_edges(env, g, err)) != H2EMV_OK)
		goto out;
	for (;;) {
		if (env->broken && (rc = repair(env, err)) != H2EMV_OK)
			break;
		MDB_txn *txn;
		int mrc = mdb_txn_begin(g->mdb, NULL, 0, &txn);
		if (mrc == MDB_MAP_RESIZED) {
			/* another process grew the file: adopt its size */
			if (gate_remap_begin(&env->gate, GROW_WAIT_SECONDS) != H2EMV_OK) {
				rc = eng_fail(err, H2EMV_EBUSY, "another process grew the memory; close "
				              "the snapshots open in this process to follow it");
				break;
			}
			MDB_envinfo info;
			int src = mdb_env_set_mapsize(g->mdb, 0);
			__atomic_store_n(&env->map_base, 0, __ATOMIC_RELEASE);
			if (src == 0)
				src = mdb_env_info(g->mdb, &info);
			if (src == 0)
				env->map_size = info.me_mapsize;
			gate_remap_end(&env->gate);
			if (src) {
				rc = env_err(err, src, "adopting the map another process grew");
				break;
			}
			continue;
		}
		if (mrc) {
			if (mrc == MDB_PANIC) {
				env->broken = 1;
				/* the failed commit before a reserve-backed retry */
				if (released == 1 && (released = 2))
					continue;
			}
			rc = env_err(err, mrc, "starting a write");
			break;
		}
		rc = fn(txn, env, ctx, err);
		if (rc == H2EMV_OK) {
			mrc = mdb_txn_commit(txn);
			if (mrc == MDB_SUCCESS) {
				MDB_envinfo info;
				/* our own commit: the next write need not read it again */
				if (env->verified_gen == g->num + 1 && mdb_env_info(g->mdb, &info) == 0)
					env->verified_txnid = info.me_last_txnid;
				reserve_follow(env, g);
				break;
			}
			rc = env_err(err, mrc == EIO && space_exhausted(env, g) ? ENOSPC : mrc,
			             "committing");
			if (rc == H2EMV_ENOSPC)
				trim_failed_growth(g);
			/* a failed commit leaves LMDB consistent (the old meta page
			 * stands); only MDB_PANIC at the next begin needs a reopen */
			if (rc == H2EMV_ENOSPC && disk_full(env, &released, err))
				continue;
			if (rc != ENG_EMAPFULL)
				break;
		} else {
			mdb_txn_abort(txn);
			if (rc == H2EMV_ENOSPC && disk_full(env, &released, err))
				continue;
			if (rc != ENG_EMAPFULL)
				break;
		}
		if ((rc = grow_map(env, g, err)) != H2EMV_OK)
			break;
	}
out:
	if (rc == H2EMV_ECORRUPT && env_damage_seen)
		mark_damaged_by_write(env, err);
	writer_end(env, g);
	return rc;
}

int env_reopen(eng_env *env, h2emv_error *err)
{
	eng_gen *g = env->gen;
	mdb_env_close(g->mdb);
	g->mdb = env->mdb = NULL;
	eng_gen *fresh;
	int rc = gen_open(&fresh, env, g->num, 0, err);
	if (rc)
		return rc;
	g->mdb = env->mdb = fresh->mdb;
	fresh->mdb = NULL;
	gen_close(fresh);
	return env_open_dbis(g->mdb, env->dbi, 0, (env->flags & H2EMV_OPEN_READONLY) != 0, env->dir,
	                     &env->no_obsids, err);
}
