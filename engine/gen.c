/*
 * gen.c — generations of the data file, so that compaction runs beside
 * readers and writers in any process. Generation 0 is DIR/data.mdb (with
 * DIR/lock.mdb: stores made before generations open unchanged); generation
 * N >= 1 is DIR/data.N.mdb with its own lock file DIR/data.N.mdb-lock (two
 * data files never share an LMDB lock file: readers pick the meta page by
 * the lock file's txnid). DIR/CURRENT names the current generation; it is
 * replaced by rename, so it always names a complete file.
 *
 * Writers take DIR/h2emv.wlock exclusively around each write transaction
 * and re-read CURRENT under it; compaction holds the same lock for its copy
 * and switch, so no write lands in a retired generation. Readers take no
 * lock: a view starts on the generation CURRENT names and ends on the one it
 * started on, which stays mapped (and, on Linux, readable after its files
 * are unlinked) until its last view ends. docs/formats.md section 4 tells
 * the whole protocol.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fallocate */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/env.h"
#include "engine/regfile.h"

void gen_path(char *buf, size_t cap, const char *dir, uint64_t num, int lock)
{
	if (num == 0)
		snprintf(buf, cap, "%s/%s", dir, lock ? "lock.mdb" : "data.mdb");
	else
		snprintf(buf, cap, "%s/data.%" PRIu64 ".mdb%s", dir, num, lock ? "-lock" : "");
}

int eng_data_file(char *buf, size_t cap, const char *dir, h2emv_error *err)
{
	uint64_t num;
	int rc = gen_read_current(&num, dir, err);
	if (rc == H2EMV_OK)
		gen_path(buf, cap, dir, num, 0);
	return rc;
}

void eng_maintenance(eng_env *env, int on)
{
	__atomic_add_fetch(&env->maint, on ? 1 : -1, __ATOMIC_SEQ_CST);
}

int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EIO;
	int rc = fsync(fd) == 0 ? 0 : errno ? errno : EIO;
	close(fd);
	/* a file system that cannot sync a directory has nothing to sync */
	return rc == EINVAL || rc == ENOTSUP ? 0 : rc;
}

/* CURRENT holds the generation in decimal and a newline, nothing else. */
int gen_read_current(uint64_t *out, const char *dir, h2emv_error *err)
{
	char path[4200], buf[32];
	snprintf(path, sizeof path, "%s/CURRENT", dir);
	*out = 0;
	h2emv_error e2 = { 0 };
	int fd = reg_open(path, O_RDONLY, 0, &e2);
	if (fd < 0) {
		if (errno == ENOENT)
			return H2EMV_OK;
		if (err)
			*err = e2;
		return H2EMV_EIO;
	}
	ssize_t n;
	do
		n = read(fd, buf, sizeof buf - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0)
		return eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(e));
	buf[n] = 0;
	uint64_t v = 0;
	ssize_t i = 0;
	for (; i < n && buf[i] >= '0' && buf[i] <= '9' && i < 19; i++)
		v = v * 10 + (uint64_t)(buf[i] - '0');
	if (i == 0 || i != n - 1 || buf[i] != '\n')
		return eng_fail(err, H2EMV_ECORRUPT,
		                "%s is damaged: it must hold one generation number and a newline",
		                path);
	*out = v;
	return H2EMV_OK;
}

int gen_store_exists(const char *dir)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/CURRENT", dir);
	if (stat(path, &st) == 0)
		return 1;
	snprintf(path, sizeof path, "%s/data.mdb", dir);
	/* data.N.mdb without CURRENT: a store whose pointer is lost, which
	 * opening reports */
	return stat(path, &st) == 0 || gen_highest_on_disk(dir) > 0;
}

int wlock_take(eng_env *env, h2emv_error *err)
{
	while (flock(env->wlockfd, LOCK_EX) != 0)
		if (errno != EINTR)
			return eng_fail(err, H2EMV_EIO, "%s: taking the write lock: %s", env->dir,
			                strerror(errno));
	return H2EMV_OK;
}

void wlock_drop(eng_env *env)
{
	flock(env->wlockfd, LOCK_UN);
}

int writer_begin(eng_gen **out, eng_env *env, h2emv_error *err)
{
	pthread_mutex_lock(&env->wlock);
	/* Under the cross-process write lock no compaction can switch the
	 * generation, so the one CURRENT names now takes the write. */
	int rc = wlock_take(env, err);
	if (rc == H2EMV_OK && (rc = gen_acquire(out, env, err)) != H2EMV_OK)
		wlock_drop(env);
	/* The first write into a generation makes the switch to it durable
	 * first: a compaction killed between renaming CURRENT and syncing the
	 * directory must not see acknowledged writes vanish with a power cut. */
	int e;
	if (rc == H2EMV_OK && env->synced_gen != (*out)->num) {
		if ((e = sync_dir(env->dir)) != 0) {
			rc = env_err(err, e, "syncing the memory directory");
			gen_release(env, *out);
			wlock_drop(env);
		} else {
			env->synced_gen = (*out)->num;
		}
	}
	if (rc)
		pthread_mutex_unlock(&env->wlock);
	return rc;
}

void writer_end(eng_env *env, eng_gen *g)
{
	gen_release(env, g);
	wlock_drop(env);
	pthread_mutex_unlock(&env->wlock);
}

int gen_open(eng_gen **out, eng_env *env, uint64_t num, unsigned flags, h2emv_error *err)
{
	char path[4200];
	struct stat fst;
	gen_path(path, sizeof path, env->dir, num, 0);
	/* LMDB would create a missing file: a generation retired (and
	 * removed) since CURRENT was read must not come back empty */
	if (!(flags & GEN_MAY_CREATE) && stat(path, &fst) != 0)
		return eng_fail(err, errno == ENOENT ? H2EMV_ENOTFOUND : H2EMV_EIO, "%s: %s", path,
		                strerror(errno));
	/* LMDB opens both files itself and would block on a FIFO */
	char lockp[4200];
	gen_path(lockp, sizeof lockp, env->dir, num, 1);
	int rrc = reg_check(path, err);
	if (rrc == H2EMV_OK)
		rrc = reg_check(lockp, err);
	if (rrc)
		return rrc;
	eng_gen *g = calloc(1, sizeof *g);
	if (!g)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	g->num = num;
	g->refs = 1;
	int rc = mdb_env_create(&g->mdb);
	if (rc) {
		free(g);
		return env_err(err, rc, "creating the LMDB environment");
	}
	/* LMDB asserts (and aborts) on some damaged pages: mark the memory first */
	if ((rc = mdb_env_set_userctx(g->mdb, env)) != 0 ||
	    (rc = mdb_env_set_assert(g->mdb, env->on_assert)) != 0 ||
	    (rc = mdb_env_set_maxdbs(g->mdb, DB_COUNT + 2)) != 0 ||
	    (rc = mdb_env_set_maxreaders(g->mdb, 254)) != 0 ||
	    (rc = mdb_env_set_mapsize(g->mdb, (size_t)env->map_size)) != 0) {
		gen_close(g);
		return env_err(err, rc, "setting up the LMDB environment");
	}
	unsigned f = MDB_NOTLS;
	if (num > 0)
		f |= MDB_NOSUBDIR;
	if (env->flags & H2EMV_OPEN_READONLY)
		f |= MDB_RDONLY;
	if (env->nolock)
		f |= MDB_NOLOCK;
	if (env->flags & H2EMV_OPEN_NOSYNC)
		f |= MDB_NOSYNC;
	rc = mdb_env_open(g->mdb, num > 0 ? path : env->dir, f, 0644);
	if (rc) {
		gen_close(g);
		return env_err(err, rc, path);
	}
	MDB_envinfo info;
	MDB_stat st;
	if ((rc = mdb_env_info(g->mdb, &info)) != 0 || (rc = mdb_env_stat(g->mdb, &st)) != 0) {
		gen_close(g);
		return env_err(err, rc, path);
	}
	if (info.me_mapsize > env->map_size)
		env->map_size = info.me_mapsize; /* LMDB keeps a file larger than asked */
	/* LMDB maps every page its meta page claims; a file cut short would
	 * fault (SIGBUS) on first touch. Refuse it instead. */
	if (stat(path, &fst) == 0 &&
	    (uint64_t)fst.st_size < (uint64_t)(info.me_last_pgno + 1) * st.ms_psize) {
		gen_close(g);
		return eng_fail(err, H2EMV_ECORRUPT,
		                "%s is damaged: the data file is %llu bytes but its pages need %llu",
		                env->dir, (unsigned long long)fst.st_size,
		                (unsigned long long)(info.me_last_pgno + 1) * st.ms_psize);
	}
	/* clear the reader slots of dead processes (they pin old pages and
	 * grow the file); a read-only open only reads, and may go without */
	int dead;
	if ((rc = mdb_reader_check(g->mdb, &dead)) != 0 && !(env->flags & H2EMV_OPEN_READONLY)) {
		gen_close(g);
		return env_err(err, rc, "clearing dead readers");
	}
	if (flags & GEN_CHECK_DBIS) {
		/* the handles in env->dbi must mean the same databases here */
		MDB_dbi dbi[DB_COUNT];
		int no_obsids;
		rc = env_open_dbis(g->mdb, dbi, 0, 1, env->dir, &no_obsids, err);
		if (rc == H2EMV_OK && no_obsids) /* a store from before ids: as opened */
			dbi[DB_OBSIDS] = env->dbi[DB_OBSIDS];
		if (rc == H2EMV_OK && memcmp(dbi, env->dbi, sizeof dbi) != 0)
			rc = eng_fail(err, H2EMV_EINTERNAL,
			              "%s: generation %" PRIu64 " numbers its databases differently",
			              env->dir, num);
		if (rc) {
			gen_close(g);
			return rc;
		}
	}
	*out = g;
	return H2EMV_OK;
}

void gen_close(eng_gen *g)
{
	if (!g)
		return;
	if (g->mdb)
		mdb_env_close(g->mdb);
	free(g);
}

void gen_install_locked(eng_env *env, eng_gen *ng)
{
	eng_gen *old = env->gen;
	env->gen = ng;
	env->mdb = ng->mdb;
	if (old && --old->refs == 0)
		gen_close(old);
}

int gen_acquire(eng_gen **out, eng_env *env, h2emv_error *err)
{
	uint64_t cur;
	int rc = gen_read_current(&cur, env->dir, err);
	if (rc)
		return rc;
	pthread_mutex_lock(&env->genmu);
	/* Generations only grow: a CURRENT read before a switch that another
	 * thread already followed is simply older than env->gen. */
	for (int tries = 0; env->gen->num < cur; tries++) {
		eng_gen *ng;
		h2emv_error e2 = { 0 };
		rc = gen_open(&ng, env, cur, GEN_CHECK_DBIS, &e2);
		if (rc == H2EMV_OK) {
			gen_install_locked(env, ng);
			break;
		}
		/* opened while a newer compaction retired it: follow CURRENT again */
		uint64_t again;
		if (tries >= 8 || gen_read_current(&again, env->dir, NULL) != H2EMV_OK ||
		    again == cur) {
			pthread_mutex_unlock(&env->genmu);
			if (err)
				*err = e2;
			return rc;
		}
		cur = again;
	}
	eng_gen *g = env->gen;
	g->refs++;
	pthread_mutex_unlock(&env->genmu);
	*out = g;
	return H2EMV_OK;
}

void gen_release(eng_env *env, eng_gen *g)
{
	if (!g)
		return;
	pthread_mutex_lock(&env->genmu);
	if (--g->refs == 0)
		gen_close(g);
	pthread_mutex_unlock(&env->genmu);
}

/* "data.N.mdb" or "data.N.mdb-lock": N, else 0. */
static uint64_t gen_of_name(const char *name)
{
	if (strncmp(name, "data.", 5) != 0)
		return 0;
	const char *p = name + 5;
	uint64_t v = 0;
	int digits = 0;
	for (; *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (!digits || name[5] == '0' || (strcmp(p, ".mdb") != 0 && strcmp(p, ".mdb-lock") != 0))
		return 0;
	return v;
}

uint64_t gen_highest_on_disk(const char *dir)
{
	uint64_t best = 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		uint64_t n = gen_of_name(de->d_name);
		if (n > best && len > 4 && !strcmp(de->d_name + len - 4, ".mdb"))
			best = n;
	}
	closedir(d);
	return best;
}

void gen_cleanup(const char *dir, uint64_t current, int newer)
{
	char path[4200];
	struct stat st;
	/* Nothing goes unless the current generation is there: a CURRENT
	 * naming a missing file is damage to report, not a reason to delete
	 * the files that may be the only copy left. */
	gen_path(path, sizeof path, dir, current, 0);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	if (current > 0) {
		gen_path(path, sizeof path, dir, 0, 0);
		unlink(path);
		gen_path(path, sizeof path, dir, 0, 1);
		unlink(path);
	}
	/* the copy an h2emv without generations left when it crashed */
	snprintf(path, sizeof path, "%s/data.mdb.compact", dir);
	unlink(path);
	if (newer) {
		snprintf(path, sizeof path, "%s/CURRENT.tmp", dir);
		unlink(path);
	}
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		uint64_t n = gen_of_name(de->d_name);
		if (n == 0 || n == current || (n > current && !newer))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}
