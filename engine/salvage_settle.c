/*
 * salvage_settle.c — the consistency pass after salvage copied what was
 * intact (see salvage.c for the rules). Every record in the new store has
 * passed its checks, so this pass reads it through LMDB without fear.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hashtab.h"
#include "engine/salvage.h"

/* A set of node versions whose subtree is whole (1) or not (2): entries in
 * an array, found through the one hash table (engine/hashtab.h). */
typedef struct vset {
	struct vent { uint64_t id; uint32_t ver; uint8_t state; } *s;
	size_t cap, n;
	hashtab ix;
} vset;

static uint32_t vhash(uint64_t id, uint32_t ver)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ull ^ ver;
	return (uint32_t)(h ^ (h >> 32));
}

static int vent_eq(const void *ctx, uintptr_t val, const void *key)
{
	const struct vent *e = (const struct vent *)ctx + val, *k = key;
	return e->id == k->id && e->ver == k->ver;
}

static struct vent *vget(vset *v, uint64_t id, uint32_t ver, int add)
{
	struct vent key = { id, ver, 0 };
	uint32_t h = vhash(id, ver);
	ht_slot *slot = ht_find(&v->ix, h, vent_eq, v->s, &key);
	if (slot && ht_used(&v->ix, slot))
		return &v->s[slot->val];
	if (!add)
		return NULL;
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 1024;
		struct vent *ns = realloc(v->s, cap * sizeof *ns);
		if (!ns)
			return NULL;
		v->s = ns;
		v->cap = cap;
	}
	if (ht_reserve(&v->ix, 1))
		return NULL;
	ht_put(&v->ix, ht_vacant(&v->ix, h), h, v->n);
	v->s[v->n] = key;
	return &v->s[v->n++];
}

/* 1 if every version under `ref` is there and decodes, 0 if not, <0 on
 * an error. */
static int whole(vset *v, eng_read *r, eng_ref ref, int depth, h2emv_error *err)
{
	struct vent *e = vget(v, ref.id, ref.version, 0);
	if (e && e->state)
		return e->state == 1;
	if (depth > 64)
		return 0;
	eng_node *n = NULL;
	int rc = eng_node_get(&n, r, ref, NULL);
	int ok = rc == H2EMV_OK;
	if (rc && rc != H2EMV_ENOTFOUND && rc != H2EMV_ECORRUPT)
		return eng_fail(err, rc, "salvage: reading node %llu v%u", (unsigned long long)ref.id,
		                ref.version);
	for (uint32_t i = 0; ok && i < n->n_children; i++) {
		int k = whole(v, r, n->children[i], depth + 1, err);
		if (k < 0) {
			free(n);
			return k;
		}
		ok = k;
	}
	free(n);
	if (!(e = vget(v, ref.id, ref.version, 1)))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	e->state = ok ? 1 : 2;
	return ok;
}

typedef struct settle {
	eng_salvage_result *res;
	h2emv_violation_fn fn;
	void *ctx;
	eng_snap *snaps;
	uint8_t *drop;
	size_t n_snaps;
	eng_snap newest; /* seq 0: none kept */
	MDB_txn *txn;    /* the settling write */
} settle;

static void tell(settle *s, const char *rule, const char *db, uint64_t key, const char *msg)
{
	if (s->fn) {
		h2emv_violation v = { .rule = rule, .db = db, .snapshot = key, .key = key, .message = msg };
		s->fn(s->ctx, &v);
	}
}

static int del_cur(MDB_cursor *c, h2emv_error *err)
{
	int rc = mdb_cursor_del(c, 0);
	return rc ? env_err(err, rc, "salvage: deleting") : H2EMV_OK;
}

static int is_kept(settle *s, uint64_t seq)
{
	for (size_t i = 0; i < s->n_snaps; i++)
		if (s->snaps[i].seq == seq)
			return !s->drop[i];
	return 0;
}

/* Walk `db` and delete what `keep` refuses. */
typedef int (*keep_fn)(settle *s, eng_env *env, const MDB_val *k, const MDB_val *v,
                       eng_buf *scratch, uint64_t *max_id);

static int sweep(MDB_txn *txn, eng_env *env, settle *s, int db, keep_fn keep, uint64_t *dropped,
                 uint64_t *max_id, h2emv_error *err)
{
	MDB_cursor *c;
	MDB_val k, v;
	eng_buf scratch = { 0 };
	int rc = mdb_cursor_open(txn, env->dbi[db], &c);
	if (rc)
		return env_err(err, rc, "salvage");
	while ((rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) == 0) {
		if (keep(s, env, &k, &v, &scratch, max_id))
			continue;
		if ((rc = del_cur(c, err)))
			break;
		if (dropped)
			(*dropped)++;
	}
	mdb_cursor_close(c);
	eng_buf_free(&scratch);
	if (rc == MDB_NOTFOUND)
		return H2EMV_OK;
	return rc < 0 ? rc : env_err(err, rc, "salvage");
}

static int keep_node(settle *s, eng_env *env, const MDB_val *k, const MDB_val *v,
                     eng_buf *scratch, uint64_t *max_id)
{
	const uint8_t *body;
	size_t blen;
	eng_node *n = NULL;
	if (env_decode(&body, &blen, env, v, scratch, NULL) || node_decode(&n, body, blen, NULL))
		return 0;
	int keep = n->born <= s->newest.seq;
	free(n);
	uint64_t id = get_be64(k->mv_data);
	if (keep && id >= *max_id)
		*max_id = id + 1;
	return keep;
}

static int keep_dead(settle *s, eng_env *env, const MDB_val *k, const MDB_val *v,
                     eng_buf *scratch, uint64_t *max_id)
{
	(void)v, (void)scratch, (void)max_id;
	if (k->mv_size != 20 || get_be64(k->mv_data) > s->newest.seq)
		return 0;
	MDB_val nk = { 12, (uint8_t *)k->mv_data + 8 }, nv;
	return mdb_get(s->txn, env->dbi[DB_NODES], &nk, &nv) == 0;
}

/* Whether the record `v` decodes to a list of `n` numbers (into f). */
static int record_u64s(uint64_t *f, size_t n, eng_env *env, const MDB_val *v, eng_buf *scratch)
{
	const uint8_t *body;
	size_t blen;
	return !env_decode(&body, &blen, env, v, scratch, NULL) && !mp_decode_u64s(f, n, body, blen);
}

static int keep_pin(settle *s, eng_env *env, const MDB_val *k, const MDB_val *v,
                    eng_buf *scratch, uint64_t *max_id)
{
	(void)max_id;
	uint64_t f[2];
	if (!record_u64s(f, 2, env, v, scratch))
		return 0;
	if (is_kept(s, f[0]))
		return 1;
	char msg[400];
	snprintf(msg, sizeof msg, "pin '%.*s' on snapshot %llu is dropped with its snapshot",
	         (int)(k->mv_size < 200 ? k->mv_size : 200), (const char *)k->mv_data,
	         (unsigned long long)f[0]);
	tell(s, "pin-dropped", "pins", f[0], msg);
	return 0;
}

/* An id entry stays when the observation it names was saved too: a resent
 * observation is then still recognised after a salvage. */
static int keep_obsid(settle *s, eng_env *env, const MDB_val *k, const MDB_val *v,
                      eng_buf *scratch, uint64_t *max_id)
{
	(void)max_id;
	uint64_t seq[1];
	if (!record_u64s(seq, 1, env, v, scratch))
		return 0;
	uint8_t key[8];
	be64(key, seq[0]);
	MDB_val ok = { sizeof key, key }, ov;
	if (mdb_get(s->txn, env->dbi[DB_OBS], &ok, &ov) == 0)
		return 1;
	char msg[400];
	snprintf(msg, sizeof msg, "id '%.*s' is dropped with observation %llu, which was not saved",
	         (int)(k->mv_size < 128 ? k->mv_size : 128), (const char *)k->mv_data,
	         (unsigned long long)seq[0]);
	tell(s, "obsid-dropped", "obsids", seq[0], msg);
	return 0;
}

static int keep_snap(settle *s, eng_env *env, const MDB_val *k, const MDB_val *v,
                     eng_buf *scratch, uint64_t *max_id)
{
	(void)env, (void)v, (void)scratch, (void)max_id;
	return k->mv_size == 8 && is_kept(s, get_be64(k->mv_data));
}

static int settle_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	settle *s = ctx;
	eng_salvage_result *res = s->res;
	uint64_t max_id = 1, next_id = 0;
	int rc;
	s->txn = txn;
	res->versions_dropped = res->dead_dropped = res->pins_dropped = 0;
	if ((rc = sweep(txn, env, s, DB_SNAPSHOTS, keep_snap, NULL, &max_id, err)) ||
	    (rc = sweep(txn, env, s, DB_NODES, keep_node, &res->versions_dropped, &max_id, err)) ||
	    (rc = sweep(txn, env, s, DB_DEAD, keep_dead, &res->dead_dropped, &max_id, err)) ||
	    (rc = sweep(txn, env, s, DB_PINS, keep_pin, &res->pins_dropped, &max_id, err)) ||
	    (rc = sweep(txn, env, s, DB_OBSIDS, keep_obsid, NULL, &max_id, err)) ||
	    (rc = meta_get_u64(&next_id, txn, env, "next_node_id", err)))
		return rc;
	if ((rc = meta_put_u64(txn, env, "build_cursor", s->newest.build_cursor, err)))
		return rc;
	return meta_put_u64(txn, env, "next_node_id", next_id > max_id ? next_id : max_id, err);
}

int salvage_settle(eng_env *env, eng_salvage_result *res, h2emv_violation_fn fn, void *ctx,
                   h2emv_error *err)
{
	settle s = { .res = res, .fn = fn, .ctx = ctx };
	eng_read *r;
	uint64_t obs_last = 0;
	vset v = { 0 };
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	if ((rc = eng_snap_list(&s.snaps, &s.n_snaps, r, err)) ||
	    (rc = eng_obs_last(&obs_last, r, err))) {
		eng_read_end(r);
		return rc;
	}
	if (!(s.drop = calloc(s.n_snaps ? s.n_snaps : 1, 1)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (size_t i = 0; rc == H2EMV_OK && i < s.n_snaps; i++) {
		const eng_snap *sn = &s.snaps[i];
		char msg[300];
		int ok = sn->root.id == 0 ? 1 : whole(&v, r, sn->root, 0, err);
		if (ok < 0) {
			rc = ok;
			break;
		}
		if (!ok)
			snprintf(msg, sizeof msg, "snapshot %llu is dropped: its tree reaches a node "
			         "version that was lost", (unsigned long long)sn->seq);
		else if (sn->build_cursor > obs_last)
			snprintf(msg, sizeof msg, "snapshot %llu is dropped: it was built from observations "
			         "up to %llu, but the last one saved is %llu",
			         (unsigned long long)sn->seq, (unsigned long long)sn->build_cursor,
			         (unsigned long long)obs_last);
		if (!ok || sn->build_cursor > obs_last) {
			s.drop[i] = 1;
			res->snapshots_dropped++;
			tell(&s, "snapshot-dropped", "snapshots", sn->seq, msg);
		} else {
			s.newest = *sn;
			res->snapshots_kept++;
		}
	}
	eng_read_end(r);
	free(v.s);
	ht_free(&v.ix);
	res->newest_snapshot = s.newest.seq;
	if (rc == H2EMV_OK)
		rc = env_write(env, settle_fn, &s, err);
	free(s.snaps);
	free(s.drop);
	return rc;
}
