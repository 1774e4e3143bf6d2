/*
 * env.c — the LMDB environment of one memory directory: open and create,
 * the format check, read views, the write-transaction runner that grows the
 * map on MDB_MAP_FULL, and record get/put.
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

const char *const eng_db_names[DB_COUNT] = {
	"meta", "obs", "nodes", "snapshots", "rules", "relcache", "dead", "pins", "dicts", "obsids",
};

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
#define GROW_WAIT_SECONDS 10

static int buf_write(void *data, const char *p, size_t len)
{
	return eng_buf_append(data, p, len) ? -1 : 0;
}

int mp_encode_u64s(eng_buf *out, const uint64_t *v, size_t n)
{
	/* Fixed-width uint64 (0xcf) on purpose: docs/formats.md gives these
	 * records' bytes, and readers before msgpack-c accepted only 0xcf. */
	if (n > 15)
		return H2EMV_EINVAL;
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, buf_write);
	int bad = msgpack_pack_array(&pk, n);
	for (size_t i = 0; i < n; i++)
		bad |= msgpack_pack_fix_uint64(&pk, v[i]);
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

int mp_decode_u64s(uint64_t *v, size_t n, const uint8_t *body, size_t blen)
{
	/* Any msgpack form of each unsigned integer, so a shorter encoding reads
	 * the same; a flat array bounded by the bytes present (mp_prescan). */
	if (n > 15 || mp_prescan(body, blen, 1, NULL))
		return H2EMV_ECORRUPT;
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	msgpack_unpack_return ret = msgpack_unpack_next(&u, (const char *)body, blen, &off);
	const msgpack_object *o = &u.data;
	int rc = ret == MSGPACK_UNPACK_NOMEM_ERROR ? H2EMV_ENOMEM : H2EMV_OK;
	if (!rc && (ret != MSGPACK_UNPACK_SUCCESS || off != blen ||
	            o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != n))
		rc = H2EMV_ECORRUPT;
	for (size_t i = 0; !rc && i < n; i++) {
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			rc = H2EMV_ECORRUPT;
		else
			v[i] = o->via.array.ptr[i].via.u64;
	}
	msgpack_unpacked_destroy(&u);
	return rc;
}

int mp_encode_str(eng_buf *out, const char *s, size_t n)
{
	if (n > UINT32_MAX)
		return H2EMV_EINVAL;
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, buf_write);
	int bad = msgpack_pack_str(&pk, n);
	bad |= msgpack_pack_str_body(&pk, s, n);
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

int mp_decode_str(const char **s, size_t *n, const uint8_t *body, size_t blen)
{
	/* A str's header is one byte (fixstr) or a type byte and a big-endian
	 * length; the text is the rest of the body, exactly. */
	size_t hdr, len;
	if (blen < 1)
		return H2EMV_ECORRUPT;
	if ((body[0] & 0xe0) == 0xa0) {
		hdr = 1, len = body[0] & 0x1f;
	} else if (body[0] == 0xd9 && blen >= 2) {
		hdr = 2, len = body[1];
	} else if (body[0] == 0xda && blen >= 3) {
		hdr = 3, len = (size_t)body[1] << 8 | body[2];
	} else if (body[0] == 0xdb && blen >= 5) {
		hdr = 5, len = (size_t)get_be32(body + 1);
	} else {
		return H2EMV_ECORRUPT;
	}
	if (len != blen - hdr)
		return H2EMV_ECORRUPT;
	*s = (const char *)body + hdr;
	*n = len;
	return H2EMV_OK;
}

/* The profile's key: releases before the profile went through the record
 * codec stored its JSON text as it was (docs/formats.md §2.6). */
#define LEGACY_PROFILE_KEY "robot_profile"

int eng_meta_check(const void *key, size_t klen, const uint8_t *body, size_t blen,
                   h2emv_error *err)
{
	size_t end = blen;
	while (end > 0 && strchr(" \t\r\n", body[end - 1]))
		end--;
	if (klen == strlen(LEGACY_PROFILE_KEY) && !memcmp(key, LEGACY_PROFILE_KEY, klen) &&
	    end >= 2 && body[0] == '{' && body[end - 1] == '}' && !memchr(body, 0, blen))
		return H2EMV_OK;
	return mp_prescan(body, blen, MP_MAX_DEPTH, err);
}

int env_decode(const uint8_t **body, size_t *blen, eng_env *env, const MDB_val *v,
               eng_buf *scratch, h2emv_error *err)
{
	const uint8_t *rec = v->mv_data;
	int vrc = env_value_sane(env, v->mv_data, v->mv_size, err);
	if (vrc) {
		env_damage_seen = vrc == H2EMV_ECORRUPT;
		return vrc;
	}
	/* A dictionary another process trained after we opened: load it. */
	if (v->mv_size >= REC_HEADER && rec[0] == REC_FORMAT && rec[1] == REC_ZSTD_DICT) {
		uint32_t id = (uint32_t)rec[4] | (uint32_t)rec[5] << 8 | (uint32_t)rec[6] << 16 |
		              (uint32_t)rec[7] << 24;
		if (!rec_codec_has_dict(env->codec, id))
			env_load_dicts(env, NULL);
	}
	int rc = rec_decode(body, blen, scratch, env->codec, v->mv_data, v->mv_size, err);
	if (rc == H2EMV_ECORRUPT)
		env_damage_seen = 1;
	return rc;
}

int env_get_record(const uint8_t **body, size_t *blen, MDB_txn *txn, eng_env *env, int db,
                   const void *key, size_t klen, eng_buf *scratch, h2emv_error *err)
{
	MDB_val k = { klen, (void *)key }, v;
	int rc = mdb_get(txn, env->dbi[db], &k, &v);
	if (rc == MDB_NOTFOUND)
		return H2EMV_ENOTFOUND; /* callers word their own message */
	if (rc)
		return env_err(err, rc, eng_db_names[db]);
	return env_decode(body, blen, env, &v, scratch, err);
}

int env_put_record(MDB_txn *txn, eng_env *env, int db, const void *key, size_t klen,
                   const void *body, size_t blen, unsigned put_flags, uint32_t dict,
                   h2emv_error *err)
{
	eng_buf rec = { 0 };
	/* Only observations are compressed, and only once their dictionary
	 * exists: alone, zstd saves under 10% on a record of a few hundred
	 * bytes and costs more to read back than LMDB takes to find it. */
	int rc = rec_encode(&rec, env->codec, dict, body, blen,
	                    db == DB_OBS && dict ? REC_ENC_AUTO : REC_ENC_RAW, err);
	if (rc == H2EMV_OK) {
		MDB_val k = { klen, (void *)key }, v = { rec.len, rec.data };
		int mrc = mdb_put(txn, env->dbi[db], &k, &v, put_flags);
		if (mrc)
			rc = env_err(err, mrc, eng_db_names[db]);
	}
	eng_buf_free(&rec);
	return rc;
}

int meta_get_u64(uint64_t *out, MDB_txn *txn, eng_env *env, const char *name, h2emv_error *err)
{
	eng_buf scratch = { 0 };
	const uint8_t *body;
	size_t blen;
	int rc = env_get_record(&body, &blen, txn, env, DB_META, name, strlen(name), &scratch, err);
	if (rc == H2EMV_ENOTFOUND) {
		*out = 0;
		rc = H2EMV_OK;
	} else if (rc == H2EMV_OK && mp_decode_u64s(out, 1, body, blen)) {
		rc = eng_fail(err, H2EMV_ECORRUPT, "meta value '%s' is malformed", name);
	}
	eng_buf_free(&scratch);
	return rc;
}

int meta_put_u64(MDB_txn *txn, eng_env *env, const char *name, uint64_t v, h2emv_error *err)
{
	eng_buf body = { 0 };
	int rc = mp_encode_u64s(&body, &v, 1);
	if (rc == H2EMV_OK)
		rc = env_put_record(txn, env, DB_META, name, strlen(name), body.data, body.len, 0, 0,
		                    err);
	else
		rc = eng_fail(err, rc, "out of memory");
	eng_buf_free(&body);
	return rc;
}

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

/* ----------------------------------------------------------- opening -- */

int env_open_dbis(MDB_env *mdb, MDB_dbi *dbi, int create, int readonly, const char *dir,
                  int *no_obsids, h2emv_error *err)
{
	/* A read transaction when every database exists: opening the store
	 * then writes nothing, so it needs neither the write lock nor space.
	 * obsids came later: a writer creates it in an older store; read-only,
	 * its absence means no id was ever stored. */
	*no_obsids = 0;
	for (int pass = 0; pass < 2; pass++) {
		int writing = pass == 1;
		if (writing && (!create || readonly))
			break;
		*no_obsids = 0;
		MDB_txn *txn;
		int rc = mdb_txn_begin(mdb, NULL, writing ? 0 : MDB_RDONLY, &txn);
		if (rc)
			return env_err(err, rc, "opening the databases");
		int missing = 0;
		for (int i = 0; i < DB_COUNT && !missing; i++) {
			rc = mdb_dbi_open(txn, eng_db_names[i], writing ? MDB_CREATE : 0, &dbi[i]);
			if (rc == MDB_NOTFOUND && i == DB_OBSIDS) {
				*no_obsids = 1;
				dbi[i] = 0;
				if (readonly)
					continue;
			}
			if (rc == MDB_NOTFOUND) {
				missing = 1;
				if (create && !readonly && !writing)
					break;
				mdb_txn_abort(txn);
				return eng_fail(err, H2EMV_EFORMAT,
				                "%s is not an h2emv memory: database '%s' is missing", dir,
				                eng_db_names[i]);
			}
			if (rc) {
				mdb_txn_abort(txn);
				return env_err(err, rc, "opening the databases");
			}
		}
		if (missing) {
			mdb_txn_abort(txn);
			continue;
		}
		/* the term index's databases, when present: opened here, in a
		 * transaction that commits, their handles stay in the environment
		 * (a handle first opened in a reader's view closes when it ends) */
		MDB_dbi ixp, ixn;
		rc = ix_dbis(&ixp, &ixn, txn, 0, err);
		if (rc && rc != H2EMV_ENOTFOUND) {
			mdb_txn_abort(txn);
			return rc;
		}
		rc = mdb_txn_commit(txn);
		return rc ? env_err(err, rc, "opening the databases") : H2EMV_OK;
	}
	return eng_fail(err, H2EMV_EFORMAT, "%s: the databases cannot be opened", dir);
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

/* A read-only transaction outside any view (opening, dictionaries): when
 * another process grew the map (MDB_MAP_RESIZED), adopt its size and
 * retry, if no view of this process reads through the map now. */
static int ro_txn_begin(eng_env *env, MDB_env *mdb, MDB_txn **txn)
{
	int rc = mdb_txn_begin(mdb, NULL, MDB_RDONLY, txn);
	for (int tries = 0; rc == MDB_MAP_RESIZED && tries < 3; tries++) {
		if (gate_remap_begin(&env->gate, 0) != H2EMV_OK)
			break;
		rc = mdb_env_set_mapsize(mdb, 0);
		__atomic_store_n(&env->map_base, 0, __ATOMIC_RELEASE);
		gate_remap_end(&env->gate);
		if (rc == MDB_SUCCESS)
			rc = mdb_txn_begin(mdb, NULL, MDB_RDONLY, txn);
	}
	return rc;
}

static int check_format(eng_env *env, h2emv_error *err)
{
	MDB_txn *txn;
	int rc = ro_txn_begin(env, env->mdb, &txn);
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

/* Load every stored dictionary; new records use the newest of each kind. */
int env_load_dicts(eng_env *env, h2emv_error *err)
{
	MDB_txn *txn;
	MDB_cursor *cur;
	/* no gen_acquire here: this runs inside a write (wlock held) or a read
	 * view, and the current generation cannot close under either */
	pthread_mutex_lock(&env->genmu);
	eng_gen *g = env->gen;
	g->refs++;
	pthread_mutex_unlock(&env->genmu);
	int rc = ro_txn_begin(env, g->mdb, &txn);
	if (rc) {
		gen_release(env, g);
		return env_err(err, rc, "reading dictionaries");
	}
	if ((rc = mdb_cursor_open(txn, env->dbi[DB_DICTS], &cur))) {
		mdb_txn_abort(txn);
		return env_err(err, rc, "reading dictionaries");
	}
	MDB_val k, v;
	eng_buf scratch = { 0 };
	int op = MDB_FIRST, mrc = 0;
	rc = H2EMV_OK;
	while (rc == H2EMV_OK && (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0) {
		op = MDB_NEXT;
		const uint8_t *body;
		size_t blen;
		if (k.mv_size != 4) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "dicts: a key is not 4 bytes");
			break;
		}
		uint32_t id = get_be32(k.mv_data);
		if ((rc = env_decode(&body, &blen, env, &v, &scratch, err)) != H2EMV_OK)
			break;
		/* body: 1 byte kind, then the dictionary */
		if (blen < 2 || body[0] < ENG_DICT_OBS || body[0] > ENG_DICT_NODES) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "dicts: dictionary %u is malformed", id);
			break;
		}
		rc = rec_codec_add_dict(env->codec, id, body + 1, blen - 1, err);
		if (rc == H2EMV_OK && id > env->cur_dict[body[0]])
			env->cur_dict[body[0]] = id;
	}
	if (rc == H2EMV_OK && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "reading dictionaries");
	mdb_cursor_close(cur);
	mdb_txn_abort(txn);
	gen_release(env, g);
	eng_buf_free(&scratch);
	return rc;
}

static void nap_100ms(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	nanosleep(&ts, NULL);
}

/* The lock on DIR/h2emv.lock is shared while a memory is open, and
 * exclusive while one is created: an open that finds a half-created
 * memory (an importer and an ingest on both ends of a pipe) waits for its
 * creator. *creating is set when this process holds it exclusively to
 * create the store (eng_open makes it shared once the store is whole). */
static int lock_dir(eng_env *env, int create, int *creating, h2emv_error *err)
{
	*creating = 0;
	for (int waited = 0;; waited++) {
		if (create && !gen_store_exists(env->dir)) {
			if (flock(env->lockfd, LOCK_EX | LOCK_NB) == 0) {
				if (!gen_store_exists(env->dir)) {
					*creating = 1;
					return H2EMV_OK;
				}
				/* another process created it meanwhile */
				if (flock(env->lockfd, LOCK_SH | LOCK_NB) == 0)
					return H2EMV_OK;
			}
		} else if (flock(env->lockfd, LOCK_SH | LOCK_NB) == 0) {
			return H2EMV_OK;
		}
		/* Held exclusively: a creator, or an h2emv older than
		 * generations compacting; shared (by a creator's rival, or
		 * an opener about to find no store): wait, a bounded time. */
		if (waited >= 600)
			return eng_fail(err, H2EMV_EBUSY,
			                "%s has been locked exclusively for a minute (another process "
			                "creating the memory, or an older h2emv compacting it?); retry",
			                env->dir);
		nap_100ms();
	}
}

static int take_dir_lock(eng_env *env, int create, int *creating, h2emv_error *err)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/h2emv.lock", env->dir);
	int ro = env->flags & H2EMV_OPEN_READONLY;
	*creating = 0;
	h2emv_error e2 = { 0 };
	env->lockfd = reg_open(path, ro ? O_RDONLY : O_RDWR | (create ? O_CREAT : 0), 0644, &e2);
	if (env->lockfd < 0 && errno == ENOENT && !create)
		env->lockfd = reg_open(path, O_RDWR | O_CREAT, 0644, &e2); /* older layout */
	if (env->lockfd < 0 && ro && (errno == EACCES || errno == EROFS || errno == EPERM))
		/* a read-only copy without the lock file (nobody can compact it):
		 * the directory stands in, for register_store's identity */
		env->lockfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (env->lockfd < 0 && errno == EINVAL) { /* not a regular file: e2 names it */
		if (err)
			*err = e2;
		return e2.status ? e2.status : H2EMV_EIO;
	}
	if (env->lockfd < 0)
		return eng_fail(err, errno == EACCES ? H2EMV_EREADONLY : H2EMV_EIO, "%s: %s", path,
		                strerror(errno));
	int rc = lock_dir(env, create, creating, err);
	/* an open that waited for a creator: was a store made? */
	if (rc == H2EMV_OK && !create && !gen_store_exists(env->dir))
		rc = eng_fail(err, H2EMV_ENOTFOUND,
		              "no h2emv memory in %s (create one with `h2emv init %s`)", env->dir,
		              env->dir);
	return rc;
}

/* ------------------------------------------------ read-only stores -- */

/* Can this process write `path` (ENOENT counts as yes: it may be created
 * when the directory is writable)? access(2) asks the kernel, which says no
 * even to root on a read-only mount or an immutable (chattr +i) file. */
static int writable(const char *path, int may_be_missing, int *why)
{
	if (access(path, W_OK) == 0 || (errno == ENOENT && may_be_missing))
		return 1;
	*why = errno;
	return 0;
}

/* The current generation's data file and LMDB lock file (docs/formats.md
 * §4): data.mdb + lock.mdb, or data.N.mdb + data.N.mdb-lock. */
static void store_files(const char *dir, char *data, char *lock, size_t cap)
{
	if (eng_data_file(data, cap, dir, NULL) != H2EMV_OK)
		snprintf(data, cap, "%s/data.mdb", dir);
	size_t n = strlen(data);
	if (n >= 9 && !strcmp(data + n - 9, "/data.mdb"))
		snprintf(lock, cap, "%s/lock.mdb", dir);
	else
		snprintf(lock, cap, "%s-lock", data);
}

/* A writer needs the directory (lock files, compaction's copy), the data
 * file and LMDB's lock file. */
static int store_writable(const char *dir, int *why)
{
	char data[4200], lock[4300];
	store_files(dir, data, lock, sizeof data);
	return writable(dir, 0, why) && writable(data, 1, why) && writable(lock, 1, why);
}

/* Can a reader use LMDB's lock file? LMDB opens it for writing even for
 * read-only transactions (it registers readers there) and gives up when it
 * cannot, except on a read-only file system. Without it (MDB_NOLOCK) a
 * reader is not seen by writers, which is safe only because this process
 * cannot write the store: docs/formats.md, "Read-only memories". */
static int lock_file_usable(const char *dir)
{
	char data[4200], lock[4300];
	int why;
	store_files(dir, data, lock, sizeof data);
	if (access(lock, F_OK) != 0)
		return writable(dir, 0, &why);
	return writable(lock, 0, &why);
}

static int lock_file_exists(const char *dir)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/h2emv.lock", dir);
	return stat(path, &st) == 0;
}

static int prepare_dir(const char *dir, int create, h2emv_error *err)
{
	struct stat st;
	if (strlen(dir) > 4000)
		return eng_fail(err, H2EMV_EINVAL, "directory path is too long");
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT || !create)
			return eng_fail(err, errno == ENOENT ? H2EMV_ENOTFOUND : H2EMV_EIO,
			                "%s: %s%s", dir, strerror(errno),
			                errno == ENOENT ? " (create it with `h2emv init`)" : "");
		/* another process may be creating it at the same moment (an
		 * importer and an ingest on both ends of a pipe) */
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			return eng_fail(err, H2EMV_EIO, "cannot create %s: %s", dir, strerror(errno));
	} else if (!S_ISDIR(st.st_mode)) {
		return eng_fail(err, H2EMV_EINVAL, "%s is not a directory", dir);
	}
	/* no store but a lock file: it may be being created (take_dir_lock
	 * waits for its creator and looks again) */
	if (!create && !gen_store_exists(dir) && !lock_file_exists(dir))
		return eng_fail(err, H2EMV_ENOTFOUND,
		                "no h2emv memory in %s (create one with `h2emv init %s`)", dir, dir);
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
	int rc = prepare_dir(dir, create, err);
	if (rc)
		return rc;
	int ro = (opts->flags & H2EMV_OPEN_READONLY) != 0, why = 0;
	if (!ro && !store_writable(dir, &why))
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
	env->nolock = ro && !lock_file_usable(dir);
	env->map_size = opts->initial_map_size ? opts->initial_map_size : DEFAULT_MAP;
	env->max_map = opts->max_map_size ? opts->max_map_size : DEFAULT_MAX_MAP;
	if (env->map_size > env->max_map)
		env->map_size = env->max_map;
	env->dict_train_after = opts->dict_train_after ? opts->dict_train_after : 2000;
	pthread_mutex_init(&env->wlock, NULL);
	pthread_mutex_init(&env->trainlock, NULL);
	pthread_mutex_init(&env->genmu, NULL);
	gate_init(&env->gate);
	if ((rc = rec_codec_new(&env->codec)) != H2EMV_OK) {
		eng_fail(err, rc, "out of memory");
		goto fail;
	}
	if ((rc = eng_dict_builtin(env->codec, err)) != H2EMV_OK)
		goto fail;
	int creating = 0;
	if ((rc = take_dir_lock(env, create, &creating, err)) != H2EMV_OK ||
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
	if (!(env->flags & H2EMV_OPEN_READONLY))
		reserve_refresh(env, env->gen);
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
	unregister_store(env);
	if (env->lockfd >= 0)
		close(env->lockfd);
	if (env->wlockfd >= 0)
		close(env->wlockfd);
	pthread_mutex_destroy(&env->genmu);
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
	mdb_txn_abort(r->txn);
	gate_read_exit(&r->env->gate);
	gen_release(r->env, r->gen);
	eng_buf_free(&r->scratch);
	free(r);
}

/* ------------------------------------------------- small key/value dbs -- */

int env_kv_db(int db)
{
	switch (db) {
	case ENG_KV_META: return DB_META;
	case ENG_KV_RULES: return DB_RULES;
	case ENG_KV_RELCACHE: return DB_RELCACHE;
	default: return -1;
	}
}

typedef struct kv_put {
	int db;
	const void *key, *body;
	size_t klen, blen;
} kv_put;

static int kv_put_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	kv_put *p = ctx;
	return env_put_record(txn, env, p->db, p->key, p->klen, p->body, p->blen, 0, 0, err);
}

int eng_kv_put(eng_env *env, int db, const void *key, size_t klen, const void *body,
               size_t blen, h2emv_error *err)
{
	int d = env_kv_db(db);
	if (d < 0 || klen == 0 || klen > 511)
		return eng_fail(err, H2EMV_EINVAL, "bad key/value database or key length");
	/* Every stored value is a record check, backup and salvage can read:
	 * msgpack, never raw text (docs/formats.md §2). */
	h2emv_error e = { 0 };
	if (mp_prescan(body, blen, MP_MAX_DEPTH, &e))
		return eng_fail(err, H2EMV_EINVAL, "%s: the value is not a msgpack record (%s)",
		                eng_db_names[d], e.message);
	kv_put p = { d, key, body, klen, blen };
	return env_write(env, kv_put_fn, &p, err);
}

int eng_kv_get(eng_buf *out, eng_read *r, int db, const void *key, size_t klen,
               h2emv_error *err)
{
	int d = env_kv_db(db);
	if (d < 0 || klen == 0 || klen > 511)
		return eng_fail(err, H2EMV_EINVAL, "bad key/value database or key length");
	const uint8_t *body;
	size_t blen;
	int rc = env_get_record(&body, &blen, r->txn, r->env, d, key, klen, &r->scratch, err);
	if (rc == H2EMV_ENOTFOUND)
		return eng_fail(err, rc, "%s: no such key", eng_db_names[d]);
	if (rc)
		return rc;
	out->len = 0;
	return eng_buf_append(out, body, blen) ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : 0;
}
