/*
 * compact.c — give freed space back to the disk. LMDB reuses freed pages
 * but never shrinks its file, and the bytes of deleted records linger in
 * free pages. Compaction copies the live pages (mdb_env_copyfd2 with
 * MDB_CP_COMPACT) into the next generation's data file, syncs it, and
 * points DIR/CURRENT at it (see gen.c). It holds the write lock for the copy
 * and the switch, so writers in any process wait that long; readers never
 * wait: views already open finish on the old file, new ones use the new.
 * A crash at any moment leaves CURRENT naming a complete file. Every
 * record's checksum is verified first: a damaged store is not compacted.
 * On a full disk the copy uses the reserve, and leaves the term index out
 * when only that fits (room_for_copy); h2emv_compact rebuilds it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/env.h"
#include "engine/gate.h"
#include "engine/regfile.h"

/* The new generation's LMDB lock file is made in full before the copy, so
 * that the copy is the last thing to take space on a nearly full disk (a
 * lock-file page first touched through the map on a full disk would be a
 * SIGBUS). LMDB adopts a larger lock file as is (more reader slots). */
#define LOCK_FILE_BYTES (64u << 10)
#define REMAP_WAIT_SECONDS 10

static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static int write_current_tmp(const char *dir, uint64_t num)
{
	char path[4200], text[32];
	snprintf(path, sizeof path, "%s/CURRENT.tmp", dir);
	int len = snprintf(text, sizeof text, "%" PRIu64 "\n", num);
	int fd = reg_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, NULL);
	if (fd < 0)
		return errno;
	int rc = 0;
	if (write(fd, text, (size_t)len) != len)
		rc = errno ? errno : EIO;
	if (rc == 0 && fsync(fd) != 0)
		rc = errno;
	if (close(fd) != 0 && rc == 0)
		rc = errno;
	return rc;
}

static int make_lock_file(const char *dir, uint64_t num)
{
	char path[4200];
	gen_path(path, sizeof path, dir, num, 1);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	int rc = posix_fallocate(fd, 0, LOCK_FILE_BYTES);
	close(fd);
	return rc;
}

/* Write generation `next` as a compact copy of `g`: CURRENT.tmp, the lock
 * file, then the data file, each synced, then the directory. An errno. */
static int write_copy(eng_env *env, eng_gen *g, uint64_t next)
{
	char data[4200];
	gen_path(data, sizeof data, env->dir, next, 0);
	int rc = write_current_tmp(env->dir, next);
	if (rc == 0)
		rc = make_lock_file(env->dir, next);
	if (rc)
		return rc;
	int fd = open(data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	rc = mdb_env_copyfd2(g->mdb, fd, MDB_CP_COMPACT);
	if (rc == 0 && fsync(fd) != 0)
		rc = errno;
	if (close(fd) != 0 && rc == 0)
		rc = errno;
	/* the new file's name must be on disk before CURRENT can name it */
	if (rc == 0)
		rc = sync_dir(env->dir);
	return rc;
}

/* Every record of generation `g` must carry a good checksum before it is
 * copied: LMDB copies pages, not records, and a damaged record copied into
 * the new file would lose the old file's bytes that salvage might still
 * read. Runs under the write lock, so the copy sees exactly these records.
 * H2EMV_OK, or ECORRUPT naming the first bad record. */
static int verify_records(eng_env *env, eng_gen *g, h2emv_error *err)
{
	MDB_txn *txn;
	int mrc = mdb_txn_begin(g->mdb, NULL, MDB_RDONLY, &txn);
	if (mrc == MDB_MAP_RESIZED)
		return ENG_EMAPRESIZED;
	if (mrc)
		return env_err(err, mrc, "compact: reading the records");
	int rc = H2EMV_OK;
	for (int db = 0; db < DB_COUNT && rc == H2EMV_OK; db++) {
		if (db == DB_OBSIDS && env->no_obsids)
			continue;
		MDB_cursor *cur;
		MDB_val k, v;
		if ((mrc = mdb_cursor_open(txn, env->dbi[db], &cur)) != 0) {
			rc = env_err(err, mrc, "compact: reading the records");
			break;
		}
		int op = MDB_FIRST;
		while ((mrc = mdb_cursor_get(cur, &k, &v, op)) == 0) {
			op = MDB_NEXT;
			h2emv_error e = { 0 };
			if (env_value_sane(env, v.mv_data, v.mv_size, &e) == H2EMV_OK &&
			    rec_verify(v.mv_data, v.mv_size, &e) == H2EMV_OK)
				continue;
			char key[40];
			if (k.mv_size == 8 || k.mv_size == 12 || k.mv_size == 20)
				snprintf(key, sizeof key, "key %llu",
				         (unsigned long long)get_be64(k.mv_data));
			else
				snprintf(key, sizeof key, "a key of %zu bytes", k.mv_size);
			rc = eng_fail(err, H2EMV_ECORRUPT,
			              "damaged: %s, database '%s', %s: %s; compaction copied nothing "
			              "and the data file is as it was: run `h2emv check -m %s`, then "
			              "`h2emv salvage`",
			              env->dir, eng_db_names[db], key, e.message, env->dir);
			rc = env_damage_found(env, err); /* and no later write builds on it */
			break;
		}
		if (rc == H2EMV_OK && mrc != MDB_NOTFOUND)
			rc = env_err(err, mrc, "compact: reading the records");
		mdb_cursor_close(cur);
	}
	mdb_txn_abort(txn);
	return rc;
}

/* Adopt the map size another process grew the file to (LMDB's
 * MDB_MAP_RESIZED), once no view of this process reads through the map. */
static int follow_growth(eng_env *env, eng_gen *g, h2emv_error *err)
{
	if (gate_remap_begin(&env->gate, REMAP_WAIT_SECONDS) != H2EMV_OK)
		return eng_fail(err, H2EMV_EBUSY, "compact: another process grew the memory; close "
		                "the snapshots open in this process to follow it");
	int rc = mdb_env_set_mapsize(g->mdb, 0);
	__atomic_store_n(&env->map_base, 0, __ATOMIC_RELEASE);
	gate_remap_end(&env->gate);
	return rc ? env_err(err, rc, "compact: adopting the map another process grew") : H2EMV_OK;
}

/* verify_records, following the map when a writer grew it before the
 * write lock was ours (no writer can grow it while we hold the lock). */
static int verify_records_following(eng_env *env, eng_gen *g, h2emv_error *err)
{
	for (int tries = 0;; tries++) {
		gate_read_enter(&env->gate); /* reads through the map like a view */
		h2emv_error e = { 0 };
		int rc = verify_records(env, g, &e);
		gate_read_exit(&env->gate);
		if (rc != ENG_EMAPRESIZED || tries >= 3) {
			if (rc && err)
				*err = e;
			return rc == ENG_EMAPRESIZED ? eng_fail(err, H2EMV_EBUSY,
			                                        "compact: the map keeps moving")
			                             : rc;
		}
		if ((rc = follow_growth(env, g, err)) != H2EMV_OK)
			return rc;
	}
}

/* Make `next` current: open it, rename CURRENT.tmp over CURRENT, sync the
 * directory. *switched says whether CURRENT names `next` now, whatever the
 * status: once it does, the new file is the store and must never be
 * removed, even when the sync after the rename fails. */
static int switch_to(eng_env *env, uint64_t next, int *switched, h2emv_error *err)
{
	eng_gen *ng;
	*switched = 0;
	int rc = gen_open(&ng, env, next, GEN_CHECK_DBIS, err);
	if (rc)
		return rc;
	char tmp[4200], cur[4200];
	snprintf(tmp, sizeof tmp, "%s/CURRENT.tmp", env->dir);
	snprintf(cur, sizeof cur, "%s/CURRENT", env->dir);
	/* The rename and the install happen under genmu: a thread of ours that
	 * reads the new CURRENT must find `ng` installed, not open the same
	 * file a second time (two LMDB environments on one file in one
	 * process break each other's locks and reader table). */
	pthread_mutex_lock(&env->genmu);
	if (rename(tmp, cur) != 0) {
		int e = errno;
		/* a rename that reports an I/O error may still have happened:
		 * what CURRENT says decides */
		uint64_t now;
		if (gen_read_current(&now, env->dir, NULL) != H2EMV_OK || now != next) {
			pthread_mutex_unlock(&env->genmu);
			gen_close(ng);
			return env_err(err, e, "compact: switching to the new file");
		}
	}
	gen_install_locked(env, ng);
	*switched = 1;
	pthread_mutex_unlock(&env->genmu);
	/* From here the new generation is the store. Until the directory is
	 * synced a power cut may bring the old CURRENT back: every writer
	 * syncs the directory before its first write into a generation
	 * (writer_begin), so nothing is acknowledged into a switch that may
	 * not last, and the old file stays until a sync succeeds. */
	int e = sync_dir(env->dir);
	if (e)
		return env_err(err, e,
		               "compact: the new file is in use, but syncing the directory after "
		               "the switch failed (the old file is kept until a later sync succeeds)");
	env->synced_gen = next;
	return H2EMV_OK;
}

/* Is there room for the copy (its live pages, its lock file, a MiB to
 * spare)? When the free space alone is short but the reserve makes up the
 * difference, the reserve goes. When only a copy without the term index
 * fits (derived data, about a third of the node records' pages),
 * *without_index is set and the reserve goes too. When even that would
 * not do, nothing is touched: H2EMV_ENOSPC, the reserve kept, and the
 * pages gc freed are reused in place by later writes (docs/formats.md
 * section 4). */
static int room_for_copy(eng_env *env, eng_gen *g, int *without_index, h2emv_error *err)
{
	struct statvfs vfs;
	*without_index = 0;
	if (statvfs(env->dir, &vfs) != 0)
		return H2EMV_OK; /* cannot tell: let the copy try */
	uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	uint64_t index = 0;
	uint64_t live = reserve_live_split(env, g, &index);
	uint64_t need = live + LOCK_FILE_BYTES + (1u << 20);
	uint64_t reserve = reserve_bytes(env->dir);
	if (avail >= need)
		return H2EMV_OK;
	if (avail + reserve >= need || avail + reserve >= need - index) {
		*without_index = avail + reserve < need;
		reserve_release(env->dir); /* the disk is full: the reserve is there for this */
		return H2EMV_OK;
	}
	MDB_envinfo info;
	MDB_stat st;
	uint64_t file = 0;
	if (mdb_env_info(g->mdb, &info) == 0 && mdb_env_stat(g->mdb, &st) == 0)
		file = ((uint64_t)info.me_last_pgno + 1) * st.ms_psize;
	need -= index;
	return eng_fail(err, H2EMV_ENOSPC,
	                "compact: not compacted: the copy needs %llu bytes (without the term "
	                "index), and the disk has %llu free besides the %llu-byte reserve, which "
	                "is kept; free %llu more bytes on this file system and run it again "
	                "(meanwhile later writes reuse the %llu bytes of free pages inside the "
	                "data file)",
	                (unsigned long long)need, (unsigned long long)avail,
	                (unsigned long long)reserve, (unsigned long long)(need - avail - reserve),
	                (unsigned long long)(file > live ? file - live : 0));
}

/* Empty the term index in a commit of its own (the caller holds the write
 * lock): its pages join the free list, which the copy leaves out. Nothing
 * acknowledged is in it: it is rebuilt from the node records (by
 * h2emv_compact right after, else by the next build), and answers read the
 * tree meanwhile (docs/index.md). */
static int leave_index_out(eng_gen *g, h2emv_error *err)
{
	MDB_txn *txn;
	int mrc = mdb_txn_begin(g->mdb, NULL, 0, &txn);
	if (mrc)
		return env_err(err, mrc, "compact: leaving the term index out");
	int rc = ix_clear_txn(txn, err);
	if (rc) {
		mdb_txn_abort(txn);
		return rc;
	}
	mrc = mdb_txn_commit(txn);
	return mrc ? env_err(err, mrc, "compact: leaving the term index out") : H2EMV_OK;
}

/* The copy and the switch, under the write lock, on generation `g`.
 * *switched: CURRENT names the new generation (see switch_to). */
static int compact_locked(eng_env *env, eng_gen *g, uint64_t *after, int *switched,
                          h2emv_error *err)
{
	uint64_t next = g->num + 1;
	char data[4200];
	gen_path(data, sizeof data, env->dir, next, 0);
	*switched = 0;
	/* no other compaction runs (we hold the lock): newer files are a
	 * crashed one's, older ones retired (writer_begin synced the directory
	 * since CURRENT named g) */
	gen_cleanup(env->dir, g->num, 1);
	int rc = env_verify_meta(env, g, err);
	if (rc == H2EMV_OK)
		rc = verify_records_following(env, g, err);
	if (rc)
		return rc;
	int e = 0, resized = 0, without_index = 0;
	if ((rc = room_for_copy(env, g, &without_index, err)) != H2EMV_OK)
		return rc;
	if (without_index && (rc = leave_index_out(g, err)) != H2EMV_OK)
		return rc;
	for (;;) {
		/* the copy reads through the map like a view: no remap under it */
		gate_read_enter(&env->gate);
		e = write_copy(env, g, next);
		gate_read_exit(&env->gate);
		if (e == MDB_MAP_RESIZED && resized++ < 3) {
			/* another process grew the map before we took the lock */
			gen_cleanup(env->dir, g->num, 1);
			if ((rc = follow_growth(env, g, err)) != H2EMV_OK)
				return rc;
			continue;
		}
		break;
	}
	if (e)
		rc = env_err(err, e, "compact: writing the copy");
	else
		rc = switch_to(env, next, switched, err);
	if (*switched)
		*after = file_size(data);
	else if (rc)
		gen_cleanup(env->dir, g->num, 1); /* the copy, its lock file, CURRENT.tmp */
	return rc;
}

int eng_compact(eng_env *env, uint64_t *before, uint64_t *after, h2emv_error *err)
{
	if (env->flags & H2EMV_OPEN_READONLY)
		return eng_fail(err, H2EMV_EREADONLY, "the memory at %s is open read-only", env->dir);
	eng_maintenance(env, 1);
	eng_gen *g = NULL;
	int rc = writer_begin(&g, env, err);
	if (rc) {
		eng_maintenance(env, 0);
		return rc;
	}
	char data[4200];
	gen_path(data, sizeof data, env->dir, g->num, 0);
	uint64_t b = file_size(data), a = b;
	int switched = 0;
	rc = compact_locked(env, g, &a, &switched, err);
	uint64_t current = g->num + (switched != 0);
	writer_end(env, g);
	if (rc == H2EMV_OK)
		/* the switch is durable: the old files go now; processes still
		 * reading them keep their mapping until their views end */
		gen_cleanup(env->dir, current, 0);
	/* made again (or shrunk): after a switch from the space the old file
	 * gave back; after a failed copy from the space the copy held */
	if (gen_acquire(&g, env, NULL) == H2EMV_OK) {
		reserve_refresh(env, g);
		gen_release(env, g);
	}
	eng_maintenance(env, 0);
	if (before)
		*before = b;
	if (after)
		*after = rc == H2EMV_OK ? a : b;
	return rc;
}
