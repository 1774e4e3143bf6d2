/*
 * env.c — the LMDB environment of one memory directory: open (the
 * generation CURRENT names, the format check) and close, the registry of
 * stores open in this process, and read views. The directory's lock is
 * env_dir.c's, the databases env_dbs.c's, the write-transaction runner
 * env_write.c's, records and the small key/value databases env_record.c's.
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

/* LMDB forbids opening one environment twice in a process: the second
 * open resets the reader table under the first one's snapshots. This is
 * the one piece of process-wide state: the stores open here, by the lock
 * file's device and inode, tagged with the pid so a forked child may open
 * the store its parent has open. */
typedef struct open_store {
	dev_t dev;
	ino_t ino;
	pid_t pid;
	struct open_store *next;
} open_store;
static open_store *open_stores;
static pthread_mutex_t open_stores_lock = PTHREAD_MUTEX_INITIALIZER;

static int register_store(eng_env *env, h2emv_error *err)
{
	struct stat st;
	if (fstat(env->lockfd, &st) != 0)
		return eng_fail(err, H2EMV_EIO, "%s: %s", env->dir, strerror(errno));
	pthread_mutex_lock(&open_stores_lock);
	int rc = H2EMV_OK;
	for (open_store *o = open_stores; o; o = o->next)
		if (o->dev == st.st_dev && o->ino == st.st_ino && o->pid == getpid())
			rc = eng_fail(err, H2EMV_EBUSY,
			              "%s is already open in this process; share that handle (it is "
			              "thread-safe) instead of opening the memory twice",
			              env->dir);
	open_store *o = rc ? NULL : malloc(sizeof *o);
	if (!rc && !o)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (o) {
		*o = (open_store){ st.st_dev, st.st_ino, getpid(), open_stores };
		open_stores = o;
		env->registered = 1;
		env->reg_dev = st.st_dev;
		env->reg_ino = st.st_ino;
	}
	pthread_mutex_unlock(&open_stores_lock);
	return rc;
}

static void unregister_store(eng_env *env)
{
	if (!env->registered)
		return;
	pthread_mutex_lock(&open_stores_lock);
	for (open_store **p = &open_stores; *p; p = &(*p)->next) {
		open_store *o = *p;
		if (o->dev == env->reg_dev && o->ino == env->reg_ino && o->pid == getpid()) {
			*p = o->next;
			free(o);
			break;
		}
	}
	pthread_mutex_unlock(&open_stores_lock);
}

#define DEFAULT_MAP (256ull << 20)
#define DEFAULT_MAX_MAP (1ull << 40)

static int init_format(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	uint64_t fmt;
	int rc = meta_get_u64(&fmt, txn, env, "format", err);
	if (rc || fmt)
		return rc;
	rc = meta_put_u64(txn, env, "format", ENG_FORMAT, err);
	if (rc == H2EMV_OK)
		rc = meta_put_u64(txn, env, "created", (uint64_t)eng_now_us(), err);
	if (rc == H2EMV_OK)
		rc = meta_put_u64(txn, env, "next_node_id", 1, err);
	return rc;
}

static int check_format(eng_env *env, h2emv_error *err)
{
	MDB_txn *txn;
	int rc = env_ro_txn_begin(env, env->mdb, &txn);
	if (rc)
		return env_err(err, rc, "reading the format");
	uint64_t fmt;
	rc = meta_get_u64(&fmt, txn, env, "format", err);
	mdb_txn_abort(txn);
	if (rc)
		return rc == H2EMV_ECORRUPT ? eng_fail(err, H2EMV_EFORMAT,
		                                       "%s: the store's format record is unreadable",
		                                       env->dir)
		                            : rc;
	if (fmt == 0)
		return eng_fail(err, H2EMV_EFORMAT, "%s is not an h2emv memory (no format record)",
		                env->dir);
	if (fmt > ENG_FORMAT)
		return eng_fail(err, H2EMV_EFORMAT,
		                "%s was written in store format %llu, newer than this h2emv's %d: "
		                "upgrade h2emv",
		                env->dir, (unsigned long long)fmt, ENG_FORMAT);
	return H2EMV_OK;
}

/* Open the generation CURRENT names, after removing the files of retired
 * generations (and, when no compaction runs, of a crashed one's copy). */
static int open_current_gen(eng_env *env, int create, h2emv_error *err)
{
	int ro = (env->flags & H2EMV_OPEN_READONLY) != 0;
	if (!ro) {
		char path[4200];
		snprintf(path, sizeof path, "%s/h2emv.wlock", env->dir);
		h2emv_error e2 = { 0 };
		env->wlockfd = reg_open(path, O_RDWR | O_CREAT, 0644, &e2);
		if (env->wlockfd < 0 && errno == EINVAL) { /* not a regular file */
			if (err)
				*err = e2;
			return H2EMV_EIO;
		}
		if (env->wlockfd < 0)
			return eng_fail(err, errno == EACCES || errno == EROFS ? H2EMV_EREADONLY : H2EMV_EIO,
			                "%s: %s", path, strerror(errno));
	}
	for (int tries = 0;; tries++) {
		uint64_t cur;
		int rc = gen_read_current(&cur, env->dir, err);
		if (rc)
			return rc;
		uint64_t lost;
		char data0[4200];
		struct stat st0;
		gen_path(data0, sizeof data0, env->dir, 0, 0);
		if (cur == 0 && stat(data0, &st0) != 0 && (lost = gen_highest_on_disk(env->dir)))
			/* CURRENT was removed after a compaction: never start afresh
			 * (and never clean away) beside the real data */
			return eng_fail(err, H2EMV_ECORRUPT,
			                "%s/CURRENT is missing but data.%llu.mdb is there: restore it "
			                "with `echo %llu > %s/CURRENT`",
			                env->dir, (unsigned long long)lost, (unsigned long long)lost,
			                env->dir);
		if (!ro) {
			/* a free write lock means no compaction is copying: files of
			 * newer generations are a crashed one's (CURRENT is read again
			 * under the lock: a compaction may have switched meanwhile) */
			int alone = flock(env->wlockfd, LOCK_EX | LOCK_NB) == 0;
			if (alone && (rc = gen_read_current(&cur, env->dir, err)) != H2EMV_OK) {
				wlock_drop(env);
				return rc;
			}
			gen_cleanup(env->dir, cur, alone);
			if (alone)
				wlock_drop(env);
		}
		eng_gen *g;
		h2emv_error e2 = { 0 };
		rc = gen_open(&g, env, cur, create && cur == 0 ? GEN_MAY_CREATE : 0, &e2);
		if (rc == H2EMV_OK) {
			rc = env_open_dbis(g->mdb, env->dbi, 0, ro, env->dir, &env->no_obsids, &e2);
			/* a store from before obsids, opened to write: add it */
			if (rc == H2EMV_EFORMAT && (create || (env->no_obsids && !ro))) {
				/* a new store: create the databases under the write lock,
				 * in the generation that is still current */
				uint64_t again = cur;
				rc = wlock_take(env, &e2);
				if (rc == H2EMV_OK && (rc = gen_read_current(&again, env->dir, &e2)) == 0 &&
				    again == cur)
					rc = env_open_dbis(g->mdb, env->dbi, 1, ro, env->dir,
					                   &env->no_obsids, &e2);
				else if (rc == H2EMV_OK)
					rc = H2EMV_ENOTFOUND;
				if (env->wlockfd >= 0)
					wlock_drop(env);
			}
			if (rc == H2EMV_OK) {
				g->refs = 1;
				env->gen = g;
				env->mdb = g->mdb;
				return H2EMV_OK;
			}
			gen_close(g);
		}
		/* a compaction may have retired the generation as we opened it */
		uint64_t again;
		if (tries >= 8 || gen_read_current(&again, env->dir, NULL) != H2EMV_OK || again == cur) {
			if (err)
				*err = e2;
			return rc;
		}
	}
}

int eng_open(eng_env **out, const char *dir, const eng_open_opts *opts, h2emv_error *err)
{
	eng_open_opts def = { 0 };
	if (!opts)
		opts = &def;
	int create = (opts->flags & H2EMV_OPEN_CREATE) && !(opts->flags & H2EMV_OPEN_READONLY);
	int rc = env_prepare_dir(dir, create, err);
	if (rc)
		return rc;
	int ro = (opts->flags & H2EMV_OPEN_READONLY) != 0, why = 0;
	if (!ro && !env_store_writable(dir, &why))
		return eng_fail(err, H2EMV_EREADONLY,
		                "%s is read-only (%s): it can only be opened for reading "
		                "(H2EMV_OPEN_READONLY, `h2emv --read-only`), which check, stats, ask, "
		                "inspect and snapshots list do by themselves",
		                dir, strerror(why));
	eng_env *env = calloc(1, sizeof *env);
	if (!env || !(env->dir = strdup(dir))) {
		free(env);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory opening %s", dir);
	}
	env->lockfd = -1;
	env->wlockfd = -1;
	env->synced_gen = UINT64_MAX;
	env->flags = opts->flags;
	env->nolock = ro && !env_lock_file_usable(dir);
	env->on_assert = env_damage_assert;
	env->map_size = opts->initial_map_size ? opts->initial_map_size : DEFAULT_MAP;
	env->max_map = opts->max_map_size ? opts->max_map_size : DEFAULT_MAX_MAP;
	if (env->map_size > env->max_map)
		env->map_size = env->max_map;
	env->dict_train_after = opts->dict_train_after ? opts->dict_train_after : 2000;
	pthread_mutex_init(&env->wlock, NULL);
	pthread_mutex_init(&env->trainlock, NULL);
	pthread_mutex_init(&env->genmu, NULL);
	pthread_mutex_init(&env->rel_mu, NULL);
	gate_init(&env->gate);
	if ((rc = rec_codec_new(&env->codec)) != H2EMV_OK) {
		eng_fail(err, rc, "out of memory");
		goto fail;
	}
	if ((rc = eng_dict_builtin(env->codec, err)) != H2EMV_OK)
		goto fail;
	int creating = 0;
	if ((rc = env_take_dir_lock(env, create, &creating, err)) != H2EMV_OK ||
	    (rc = register_store(env, err)) != H2EMV_OK)
		goto fail;
	if (!(env->flags & H2EMV_OPEN_READONLY)) {
		/* A compaction killed between its switch and its directory fsync
		 * left the switch in the page cache only: make it durable before
		 * anything is acknowledged into the new file. */
		int e = sync_dir(dir);
		if (e) {
			rc = eng_fail(err, e == ENOSPC || e == EDQUOT ? H2EMV_ENOSPC : H2EMV_EIO,
			              "%s: syncing the directory: %s", dir, strerror(e));
			goto fail;
		}
	}
	if ((rc = eng_gate(dir, env->flags, err)) != H2EMV_OK)
		goto fail;
	if ((rc = open_current_gen(env, create, err)) != H2EMV_OK)
		goto fail;
	if (create && (rc = env_write(env, init_format, NULL, err)) != H2EMV_OK)
		goto fail;
	/* the store is whole: let the openers that wait for it in */
	if (creating && flock(env->lockfd, LOCK_SH) != 0) {
		rc = eng_fail(err, H2EMV_EIO, "%s/h2emv.lock: %s", dir, strerror(errno));
		goto fail;
	}
	if ((rc = check_format(env, err)) != H2EMV_OK)
		goto fail;
	if ((rc = env_load_dicts(env, err)) != H2EMV_OK)
		goto fail;
	if (!(env->flags & H2EMV_OPEN_READONLY)) {
		reserve_refresh(env, env->gen);
		eng_fault_watch(env, dir); /* a fault in its map marks it (faultguard.c) */
	}
	*out = env;
	return H2EMV_OK;
fail:
	eng_close(env);
	return rc;
}

void eng_close(eng_env *env)
{
	if (!env)
		return;
	/* every view has ended (the API requires it), so the current
	 * generation holds the last reference */
	if (env->gen && --env->gen->refs == 0)
		gen_close(env->gen);
	eng_fault_unwatch(env);
	unregister_store(env);
	if (env->lockfd >= 0)
		close(env->lockfd);
	if (env->wlockfd >= 0)
		close(env->wlockfd);
	pthread_mutex_destroy(&env->genmu);
	pthread_mutex_destroy(&env->rel_mu);
	rec_codec_free(env->codec);
	pthread_mutex_destroy(&env->wlock);
	pthread_mutex_destroy(&env->trainlock);
	gate_destroy(&env->gate);
	free(env->dir);
	free(env);
}

const char *eng_dir(const eng_env *env)
{
	return env->dir;
}

int eng_readonly(const eng_env *env)
{
	return (env->flags & H2EMV_OPEN_READONLY) != 0;
}

rec_codec *eng_codec(eng_env *env)
{
	return env->codec;
}

/* -------------------------------------------------------- read views -- */

int eng_read_begin(eng_read **out, eng_env *env, h2emv_error *err)
{
	eng_read *r = calloc(1, sizeof *r);
	if (!r)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	r->env = env;
	for (;;) {
		gate_read_enter(&env->gate);
		/* the generation CURRENT names now; the view ends on it */
		int rc = gen_acquire(&r->gen, env, err);
		if (rc) {
			gate_read_exit(&env->gate);
			free(r);
			return rc;
		}
		rc = mdb_txn_begin(r->gen->mdb, NULL, MDB_RDONLY, &r->txn);
		if (rc == MDB_SUCCESS)
			break;
		gate_read_exit(&env->gate);
		eng_gen *g = r->gen;
		r->gen = NULL;
		if (rc == MDB_MAP_RESIZED &&
		    gate_remap_begin(&env->gate, GROW_WAIT_SECONDS) == H2EMV_OK) {
			rc = mdb_env_set_mapsize(g->mdb, 0);
			__atomic_store_n(&env->map_base, 0, __ATOMIC_RELEASE);
			gate_remap_end(&env->gate);
			gen_release(env, g);
			if (rc == MDB_SUCCESS)
				continue;
			free(r);
			return env_err(err, rc, "adopting the map another process grew");
		}
		gen_release(env, g);
		free(r);
		return env_err(err, rc == MDB_MAP_RESIZED ? EBUSY : rc, "opening a read view");
	}
	*out = r;
	return H2EMV_OK;
}

void eng_read_end(eng_read *r)
{
	if (!r)
		return;
	/* LMDB called a page corrupt during the view: confirm and mark */
	env_damage_confirm(r->env, r->gen->num);
	mdb_txn_abort(r->txn);
	gate_read_exit(&r->env->gate);
	gen_release(r->env, r->gen);
	eng_buf_free(&r->scratch);
	free(r);
}
