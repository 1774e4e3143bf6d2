/*
 * gc.c — garbage collection. First drop the snapshots the retention no
 * longer keeps (beyond the newest N, older than the age limit, not pinned).
 * Then walk `dead` in died-at order: a superseded version (born B, died D)
 * is visible exactly in snapshots B <= s < D; if no remaining snapshot lies
 * in that range, delete the version and its dead entry. Kept snapshots are
 * the pinned ones plus a contiguous newest run starting at R, so the walk
 * stops at the first entry that died after R.
 * Work happens in bounded write transactions so an ingest waits at most one
 * batch.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "engine/env.h"

#define DEFAULT_KEEP 16
#define DEFAULT_BATCH 512

typedef struct gc_ctx {
	const h2emv_gc_options *o;
	h2emv_time now;
	uint32_t keep, batch;
	/* phase 1 */
	uint64_t dropped;
	uint64_t oldest_kept_run; /* R: first snapshot of the kept newest run */
	/* phase 2 */
	uint8_t resume[20];       /* dead key to continue from */
	int started, done;
	uint64_t deleted, batches, step_deleted, step_seen;
} gc_ctx;

static int is_pinned(MDB_txn *txn, eng_env *env, uint64_t seq, eng_buf *scratch, int *out,
                     h2emv_error *err)
{
	MDB_cursor *cur;
	MDB_val k, v;
	*out = 0;
	int rc = mdb_cursor_open(txn, env->dbi[DB_PINS], &cur), mrc = 0;
	if (rc)
		return env_err(err, rc, "gc: opening the pins");
	for (int op = MDB_FIRST; !*out && (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0;
	     op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		uint64_t f[2];
		if ((rc = env_decode(&body, &blen, env, &v, scratch, err)))
			break;
		if (mp_decode_u64s(f, 2, body, blen)) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "a pin record is malformed");
			break;
		}
		*out = f[0] == seq;
	}
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "gc: reading the pins");
	mdb_cursor_close(cur);
	return rc;
}

/* Phase 1: drop up to one batch of snapshots outside the retention. */
static int drop_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	gc_ctx *g = ctx;
	MDB_stat st;
	int rc = mdb_stat(txn, env->dbi[DB_SNAPSHOTS], &st), mrc = 0;
	if (rc)
		return env_err(err, rc, "gc: counting snapshots");
	uint64_t total = st.ms_entries, idx = 0;
	MDB_cursor *cur;
	MDB_val k, v;
	eng_buf scratch = { 0 };
	uint32_t n = 0;
	g->step_deleted = 0;
	g->oldest_kept_run = 0;
	if ((rc = mdb_cursor_open(txn, env->dbi[DB_SNAPSHOTS], &cur)))
		return env_err(err, rc, "gc: opening the snapshots");
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0;
	     op = MDB_NEXT, idx++) {
		const uint8_t *body;
		size_t blen;
		eng_snap s;
		if ((rc = env_decode(&body, &blen, env, &v, &scratch, err)) ||
		    (rc = snap_decode(&s, body, blen, err)))
			break;
		int newest = idx + g->keep >= total;
		/* age on the memory's clock: a replayed history ages as it was lived */
		int young = g->o->keep_age > 0 && s.t_now > g->now - g->o->keep_age;
		if (newest || young) {
			g->oldest_kept_run = s.seq;
			break;
		}
		int pinned;
		if ((rc = is_pinned(txn, env, s.seq, &scratch, &pinned, err)))
			break;
		if (pinned)
			continue;
		if (n == g->batch) {
			g->step_deleted = n; /* more to do: come back */
			break;
		}
		if ((rc = mdb_cursor_del(cur, 0))) {
			rc = env_err(err, rc, "dropping a snapshot");
			break;
		}
		n++;
	}
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "gc: reading the snapshots");
	mdb_cursor_close(cur);
	eng_buf_free(&scratch);
	if (rc == H2EMV_OK)
		g->dropped += n;
	return rc;
}

/* Is any remaining snapshot s with born <= s < died? */
static int visible_somewhere(int *out, MDB_cursor *snaps, uint64_t born, uint64_t died)
{
	uint8_t key[8];
	be64(key, born);
	MDB_val k = { 8, key }, v;
	int rc = mdb_cursor_get(snaps, &k, &v, MDB_SET_RANGE);
	if (rc == MDB_NOTFOUND) {
		*out = 0;
		return H2EMV_OK;
	}
	if (rc)
		return rc;
	*out = k.mv_size == 8 && get_be64(k.mv_data) < died;
	return H2EMV_OK;
}

/* Phase 2: delete up to one batch of invisible dead versions. */
static int sweep_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	gc_ctx *g = ctx;
	MDB_cursor *dead, *snaps;
	MDB_val k, v;
	eng_buf scratch = { 0 };
	int rc = H2EMV_OK, mrc;
	uint64_t n = 0, seen = 0;
	if ((mrc = mdb_cursor_open(txn, env->dbi[DB_DEAD], &dead)))
		return env_err(err, mrc, "gc: opening the dead list");
	if ((mrc = mdb_cursor_open(txn, env->dbi[DB_SNAPSHOTS], &snaps))) {
		mdb_cursor_close(dead);
		return env_err(err, mrc, "gc: opening the snapshots");
	}
	k.mv_size = 20;
	k.mv_data = g->resume;
	mrc = mdb_cursor_get(dead, &k, &v, g->started ? MDB_SET_RANGE : MDB_FIRST);
	g->done = 1;
	for (; mrc == 0; mrc = mdb_cursor_get(dead, &k, &v, MDB_NEXT)) {
		if (k.mv_size != 20) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "dead: a key is not 20 bytes");
			break;
		}
		uint64_t died = get_be64(k.mv_data);
		if (g->oldest_kept_run && died > g->oldest_kept_run)
			break;
		if (n == g->batch || seen == 16 * (uint64_t)g->batch) {
			memcpy(g->resume, k.mv_data, 20);
			g->started = 1;
			g->done = 0;
			break;
		}
		seen++;
		const uint8_t *body;
		size_t blen;
		uint64_t born;
		if ((rc = env_decode(&body, &blen, env, &v, &scratch, err)))
			break;
		if (mp_decode_u64s(&born, 1, body, blen)) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "dead: an entry is malformed");
			break;
		}
		int vis;
		if ((mrc = visible_somewhere(&vis, snaps, born, died))) {
			rc = env_err(err, mrc, "gc");
			break;
		}
		if (vis)
			continue;
		uint8_t nkey[12];
		memcpy(nkey, (uint8_t *)k.mv_data + 8, 12);
		MDB_val nk = { 12, nkey };
		mrc = mdb_del(txn, env->dbi[DB_NODES], &nk, NULL);
		if (mrc && mrc != MDB_NOTFOUND) {
			rc = env_err(err, mrc, "gc: deleting a node version");
			break;
		}
		if ((rc = ix_drop_txn(txn, env, nkey, err)))
			break;
		if ((mrc = mdb_cursor_del(dead, 0))) {
			rc = env_err(err, mrc, "gc: deleting a dead entry");
			break;
		}
		n++;
	}
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "gc");
	mdb_cursor_close(dead);
	mdb_cursor_close(snaps);
	eng_buf_free(&scratch);
	g->step_deleted = n;
	g->step_seen = seen;
	return rc;
}

static int clear_index_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)env, (void)ctx;
	return ix_clear_txn(txn, err);
}

/* On a disk with less free space than the term index and two MiB, the
 * sweep's deletions of postings (spread over the whole index) would copy
 * most of its pages, and on a full disk eat the reserve that the
 * compaction after gc needs: the index (derived data) is emptied first in
 * one small commit, and rebuilt by the next build that has the room
 * (answers read the tree meanwhile). */
static int clear_index_if_tight(eng_env *env, h2emv_error *err)
{
	struct statvfs vfs;
	eng_read *r;
	uint64_t index = 0, nodes = 0;
	if (statvfs(eng_dir(env), &vfs) != 0 || eng_read_begin(&r, env, NULL) != H2EMV_OK)
		return H2EMV_OK;
	eng_index_bytes(&index, &nodes, r);
	MDB_stat dead;
	if (mdb_stat(r->txn, env->dbi[DB_DEAD], &dead) != 0 || dead.ms_entries == 0)
		index = 0; /* no version to delete: nothing to save */
	eng_read_end(r);
	if (index == 0 || (uint64_t)vfs.f_bavail * vfs.f_frsize >= index + (2u << 20))
		return H2EMV_OK;
	return env_write(env, clear_index_fn, NULL, err);
}

int eng_gc(h2emv_gc_result *out, eng_env *env, const h2emv_gc_options *opts, h2emv_error *err)
{
	h2emv_gc_options def = H2EMV_GC_OPTIONS_INIT;
	if (!opts)
		opts = &def;
	if (opts->version < 1 || opts->version > H2EMV_GC_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "unknown gc options version %u", opts->version);
	gc_ctx g = { .o = opts };
	g.now = opts->now;
	if (!g.now) { /* the memory's clock: the newest snapshot's */
		eng_read *r;
		eng_snap s;
		int rc = eng_read_begin(&r, env, err);
		if (rc)
			return rc;
		rc = eng_snap_get(&s, r, 0, err);
		eng_read_end(r);
		if (rc == H2EMV_ENOTFOUND)
			s.t_now = 0, rc = H2EMV_OK;
		if (rc)
			return rc;
		g.now = s.t_now;
	}
	g.keep = opts->keep_snapshots ? opts->keep_snapshots : DEFAULT_KEEP;
	g.batch = opts->batch ? opts->batch : DEFAULT_BATCH;
	int rc;
	do {
		rc = env_write(env, drop_fn, &g, err);
		g.batches++;
	} while (rc == H2EMV_OK && g.step_deleted);
	if (opts->progress && rc == H2EMV_OK)
		opts->progress(opts->progress_ctx, "snapshots dropped", g.dropped, g.dropped);
	if (rc == H2EMV_OK && !eng_readonly(env))
		rc = clear_index_if_tight(env, err);
	while (rc == H2EMV_OK) {
		rc = env_write(env, sweep_fn, &g, err);
		g.batches++;
		g.deleted += g.step_deleted;
		if (opts->progress && opts->progress(opts->progress_ctx, "versions deleted", g.deleted, 0))
			break;
		if (g.done)
			break;
	}
	/* less live data: the reserve shrinks with it (reserve.c) */
	eng_gen *cur;
	if (rc == H2EMV_OK && !(eng_readonly(env)) && gen_acquire(&cur, env, NULL) == H2EMV_OK) {
		reserve_refresh(env, cur);
		gen_release(env, cur);
	}
	if (out) {
		out->snapshots_dropped = g.dropped;
		out->versions_deleted = g.deleted;
		out->batches = g.batches;
	}
	/* Maintenance is where a memory trains its own observation dictionary
	 * (dict.c); an optimisation, so failing to train fails no gc. */
	if (rc == H2EMV_OK)
		(void)eng_maybe_train(env, ENG_DICT_OBS, NULL);
	return rc;
}
