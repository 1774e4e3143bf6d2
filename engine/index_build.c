/*
 * index_build.c — rebuilding the term index from the node records (a store
 * from before the index, a salvaged one) and checking it against them
 * (see index.c for the layout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "engine/env.h"

/* node versions per commit: few commits, since each copies the index pages
 * it touches (spread over all of them), and a full disk has no room for
 * many copies */
#define REBUILD_BATCH 8192

typedef struct died_ent {
	uint64_t id;
	uint32_t version;
	uint64_t died;
} died_ent;

static int cmp_died(const void *a, const void *b)
{
	const died_ent *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->version > y->version) - (x->version < y->version);
}

/* Every dead entry's (id, version, died-at), sorted. */
static int load_dead(died_ent **out, size_t *n, MDB_txn *txn, eng_env *env, h2emv_error *err)
{
	MDB_cursor *cur;
	MDB_val k, v;
	MDB_stat st;
	*out = NULL;
	*n = 0;
	int mrc = mdb_stat(txn, env->dbi[DB_DEAD], &st);
	if (!mrc)
		mrc = mdb_cursor_open(txn, env->dbi[DB_DEAD], &cur);
	if (mrc)
		return env_err(err, mrc, "index: reading dead entries");
	died_ent *d = malloc((st.ms_entries + 1) * sizeof *d);
	if (!d) {
		mdb_cursor_close(cur);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	size_t k_n = 0;
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT)
		if (k.mv_size == 20 && k_n <= st.ms_entries)
			d[k_n++] = (died_ent){ get_be64((uint8_t *)k.mv_data + 8),
				                   get_be32((uint8_t *)k.mv_data + 16),
				                   get_be64(k.mv_data) };
	mdb_cursor_close(cur);
	qsort(d, k_n, sizeof *d, cmp_died);
	*out = d;
	*n = k_n;
	return mrc == MDB_NOTFOUND ? H2EMV_OK : env_err(err, mrc, "index");
}

static uint64_t died_of(const died_ent *d, size_t n, uint64_t id, uint32_t version)
{
	died_ent key = { id, version, 0 };
	const died_ent *e = bsearch(&key, d, n, sizeof *d, cmp_died);
	return e ? e->died : UINT64_MAX;
}

typedef struct rebuild_ctx {
	died_ent *dead;
	size_t n_dead;
	uint8_t resume[12];
	int started, done, cleared;
	uint64_t nodes;
	eng_buf scratch, b;
} rebuild_ctx;

static int rebuild_batch(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	rebuild_ctx *x = ctx;
	MDB_dbi post, node;
	int rc = ix_dbis(&post, &node, txn, 1, err);
	if (rc)
		return rc;
	if (!x->cleared) {
		int mrc = mdb_drop(txn, post, 0);
		if (!mrc)
			mrc = mdb_drop(txn, node, 0);
		if (mrc)
			return env_err(err, mrc, "index: clearing");
	}
	MDB_cursor *cur;
	MDB_val k = { 12, x->resume }, v;
	int mrc = mdb_cursor_open(txn, env->dbi[DB_NODES], &cur);
	if (mrc)
		return env_err(err, mrc, "index: reading nodes");
	mrc = mdb_cursor_get(cur, &k, &v, x->started ? MDB_SET_RANGE : MDB_FIRST);
	if (x->started && mrc == 0 && k.mv_size == 12 && !memcmp(k.mv_data, x->resume, 12))
		mrc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
	size_t done = 0;
	for (; mrc == 0 && rc == H2EMV_OK && done < REBUILD_BATCH;
	     mrc = mdb_cursor_get(cur, &k, &v, MDB_NEXT), done++) {
		const uint8_t *body;
		size_t blen;
		eng_node *n = NULL;
		if (k.mv_size != 12)
			continue;
		memcpy(x->resume, k.mv_data, 12);
		/* (a damaged record has no terms: check reports it) */
		if (env_decode(&body, &blen, env, &v, &x->scratch, NULL) ||
		    node_decode(&n, body, blen, NULL))
			continue;
		rc = ix_put_node(txn, post, node, env, n, died_of(x->dead, x->n_dead, n->id, n->version),
		                 &x->b, err);
		free(n);
	}
	mdb_cursor_close(cur);
	if (rc)
		return rc;
	if (mrc && mrc != MDB_NOTFOUND)
		return env_err(err, mrc, "index: reading nodes");
	x->done = mrc == MDB_NOTFOUND;
	if (x->done && (rc = ix_put_marker(txn, node, err)))
		return rc;
	x->nodes = done;
	return H2EMV_OK;
}

/* Room for the rebuild: the index may outweigh the node records, and its
 * batched commits copy touched pages, so it asks for twice the node
 * records' pages and two MiB free (the reserve not counted). On a disk too
 * full for that it is not started: the observations waiting are folded
 * first and answers read the tree until a later build has the room. */
static int room_for_rebuild(eng_env *env, uint64_t node_bytes, h2emv_error *err)
{
	struct statvfs vfs;
	if (statvfs(env->dir, &vfs) != 0)
		return H2EMV_OK; /* cannot tell: let the writes tell */
	uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	uint64_t need = 2 * node_bytes + (2u << 20);
	if (avail >= need)
		return H2EMV_OK;
	return eng_fail(err, H2EMV_ENOSPC,
	                "index: the term index is not rebuilt yet: about %llu bytes needed, %llu "
	                "free; answers read the tree until a build finds the room",
	                (unsigned long long)need, (unsigned long long)avail);
}

int eng_index_rebuild(eng_env *env, h2emv_progress_fn progress, void *pctx, h2emv_error *err)
{
	if (!env->ix_fn)
		return eng_fail(err, H2EMV_EINVAL, "index: no term extractor");
	if (env->flags & H2EMV_OPEN_READONLY)
		return eng_fail(err, H2EMV_EREADONLY, "index: the memory is open read-only");
	rebuild_ctx x = { 0 };
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	MDB_stat st;
	int srt = mdb_stat(r->txn, env->dbi[DB_NODES], &st);
	uint64_t total = srt ? 0 : st.ms_entries;
	uint64_t node_bytes = srt ? 0
	                          : (uint64_t)st.ms_psize * (st.ms_branch_pages + st.ms_leaf_pages +
	                                                     st.ms_overflow_pages);
	rc = load_dead(&x.dead, &x.n_dead, r->txn, env, err);
	eng_read_end(r);
	if (rc == H2EMV_OK)
		rc = room_for_rebuild(env, node_bytes, err);
	uint64_t seen = 0;
	while (rc == H2EMV_OK && !x.done) {
		rc = env_write(env, rebuild_batch, &x, err);
		if (rc == H2EMV_OK) {
			x.cleared = x.started = 1;
			seen += x.nodes;
			if (progress)
				progress(pctx, "index", seen, total);
		}
	}
	free(x.dead);
	eng_buf_free(&x.scratch);
	eng_buf_free(&x.b);
	return rc;
}

/* ------------------------------------------------------------- checking -- */

/* The stored terms of version (id, version) against those its record
 * gives now. */
static int same_terms(eng_env *env, const eng_node *n, const uint8_t *keys, uint32_t nk)
{
	eng_posting *p = NULL;
	size_t np = 0;
	if (env->ix_fn(&p, &np, n, env->ix_ctx))
		return -1;
	int same = np == nk;
	for (size_t i = 0; same && i < np; i++) {
		uint8_t k[16];
		be64(k, p[i].term);
		be64(k + 8, (uint64_t)p[i].t_first ^ (1ull << 63));
		same = !memcmp(keys + i * 16, k, 16);
	}
	free(p);
	return same;
}

static int check_nodes(MDB_txn *txn, eng_env *env, MDB_dbi post, MDB_dbi node, ix_bad_fn bad,
                       void *ctx)
{
	MDB_cursor *cur;
	MDB_val k, v;
	eng_buf scratch = { 0 };
	int mrc = mdb_cursor_open(txn, env->dbi[DB_NODES], &cur);
	if (mrc)
		return env_err(NULL, mrc, "check: index");
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		eng_node *n = NULL;
		if (k.mv_size != 12 || env_decode(&body, &blen, env, &v, &scratch, NULL) ||
		    node_decode(&n, body, blen, NULL))
			continue; /* the record pass reports it */
		MDB_val ek = { 12, k.mv_data }, ev;
		int has = mdb_get(txn, node, &ek, &ev) == 0;
		eng_ref ref = { n->id, n->version };
		uint8_t *keys = NULL;
		uint32_t nk = 0;
		int krc = has ? ix_entry_keys(&keys, &nk, ev.mv_data, ev.mv_size) : H2EMV_OK;
		int same = krc == H2EMV_ENOMEM ? -1 : krc ? 0 : same_terms(env, n, keys, nk);
		if (same == 0)
			bad(ctx, "index-terms", ref, "the index lists other terms than the node's facts give");
		for (uint32_t i = 0; same == 1 && i < nk; i++) {
			uint8_t pk[28];
			memcpy(pk, keys + (size_t)i * 16, 16);
			memcpy(pk + 16, k.mv_data, 12);
			MDB_val pkk = { 28, pk }, pv;
			if (mdb_get(txn, post, &pkk, &pv)) {
				bad(ctx, "index-posting", ref, "a posting of the node is missing");
				break;
			}
		}
		if (has && ev.mv_size >= 8 && get_be64(ev.mv_data) != n->born)
			bad(ctx, "index-born", ref, "the index gives the node another birth snapshot");
		free(keys);
		free(n);
	}
	mdb_cursor_close(cur);
	eng_buf_free(&scratch);
	return mrc == MDB_NOTFOUND ? H2EMV_OK : env_err(NULL, mrc, "check: index");
}

/* Every posting names a version the index lists, and every version it
 * lists is stored. */
static int check_orphans(MDB_txn *txn, eng_env *env, MDB_dbi post, MDB_dbi node, ix_bad_fn bad,
                         void *ctx)
{
	MDB_cursor *cur;
	MDB_val k, v;
	int mrc = mdb_cursor_open(txn, post, &cur);
	if (mrc)
		return env_err(NULL, mrc, "check: index");
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		MDB_val nk = { 12, (uint8_t *)k.mv_data + 16 }, nv;
		if (k.mv_size != 28 || mdb_get(txn, node, &nk, &nv)) {
			eng_ref ref = { k.mv_size == 28 ? get_be64((uint8_t *)k.mv_data + 16) : 0, 0 };
			bad(ctx, "index-orphan", ref, "a posting names a node version the index does not list");
		}
	}
	mdb_cursor_close(cur);
	if ((mrc = mdb_cursor_open(txn, node, &cur)) != 0)
		return env_err(NULL, mrc, "check: index");
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		static const uint8_t marker[12];
		if (k.mv_size == 12 && !memcmp(k.mv_data, marker, 12))
			continue;
		MDB_val rk = { 12, k.mv_data }, rv;
		if (k.mv_size != 12 || mdb_get(txn, env->dbi[DB_NODES], &rk, &rv)) {
			eng_ref ref = { k.mv_size == 12 ? get_be64(k.mv_data) : 0,
				            k.mv_size == 12 ? get_be32((uint8_t *)k.mv_data + 8) : 0 };
			bad(ctx, "index-orphan", ref, "the index lists a node version that is not stored");
		}
	}
	mdb_cursor_close(cur);
	return mrc == MDB_NOTFOUND ? H2EMV_OK : env_err(NULL, mrc, "check: index");
}

int ix_check_txn(MDB_txn *txn, eng_env *env, ix_bad_fn bad, void *ctx)
{
	MDB_dbi post, node;
	if (ix_dbis(&post, &node, txn, 0, NULL))
		return H2EMV_OK; /* no index: answers read the tree */
	if (ix_marker_state(txn, node) != 1)
		return H2EMV_OK; /* incomplete or of an older layout: not used until rebuilt */
	int rc = check_orphans(txn, env, post, node, bad, ctx);
	if (rc == H2EMV_OK && env->ix_fn)
		rc = check_nodes(txn, env, post, node, bad, ctx);
	return rc;
}
