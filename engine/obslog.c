/*
 * obslog.c — the observation log: durable appends (one transaction, one
 * fsync per batch) keyed by a big-endian sequence number, reads by seq. The
 * log doubles as the builder's queue: everything after the build cursor is
 * waiting to be folded into the tree.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/env.h"

typedef struct append_ctx {
	const eng_buf *bodies, *ids;
	size_t n;
	uint64_t *seqs;
	uint8_t *dup;
	uint64_t first;   /* first new seq, 0 if none */
	size_t stored;
	size_t conflict;  /* index of the item whose id names another body */
	eng_buf scratch;
} append_ctx;

static int has_id(const append_ctx *a, size_t i)
{
	return a->ids && a->ids[i].len > 0;
}

/* The seq stored under an id (ENOTFOUND if none). */
static int obsid_get(uint64_t *seq, MDB_txn *txn, eng_env *env, const void *id, size_t len,
                     eng_buf *scratch, h2emv_error *err)
{
	if (env->no_obsids)
		return H2EMV_ENOTFOUND;
	const uint8_t *body;
	size_t blen;
	int rc = env_get_record(&body, &blen, txn, env, DB_OBSIDS, id, len, scratch, err);
	if (rc == H2EMV_OK && mp_decode_u64s(seq, 1, body, blen))
		rc = eng_fail(err, H2EMV_ECORRUPT, "obsids: the entry of id '%.*s' is malformed",
		              (int)(len > 64 ? 64 : len), (const char *)id);
	return rc;
}

/* Item i's id is stored as observation `seq`: the same observation again
 * (a resend), or a different one under a reused id? A missing observation
 * (collected) makes the id free again (*free_again). */
static int same_as_stored(int *same, int *free_again, MDB_txn *txn, eng_env *env,
                          const eng_buf *body, uint64_t seq, eng_buf *scratch, h2emv_error *err)
{
	uint8_t key[8];
	be64(key, seq);
	const uint8_t *old;
	size_t olen;
	*same = *free_again = 0;
	h2emv_error e = { 0 };
	int rc = env_get_record(&old, &olen, txn, env, DB_OBS, key, 8, scratch, &e);
	if (rc == H2EMV_ENOTFOUND) {
		*free_again = 1;
		return H2EMV_OK;
	}
	if (rc == H2EMV_ECORRUPT) { /* damaged: check reports it; never store twice */
		*same = 1;
		return H2EMV_OK;
	}
	if (rc)
		return err ? (*err = e, rc) : rc;
	*same = olen == body->len && memcmp(old, body->data, olen) == 0;
	return H2EMV_OK;
}

static int put_obsid(MDB_txn *txn, eng_env *env, const eng_buf *id, uint64_t seq,
                     h2emv_error *err)
{
	eng_buf v = { 0 };
	int rc = mp_encode_u64s(&v, &seq, 1) ? eng_fail(err, H2EMV_ENOMEM, "out of memory")
	         : env_put_record(txn, env, DB_OBSIDS, id->data, id->len, v.data, v.len, 0, 0, err);
	eng_buf_free(&v);
	return rc;
}

static int append_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	append_ctx *a = ctx;
	uint64_t last;
	int rc = eng_last_key(&last, txn, env->dbi[DB_OBS], err);
	if (rc)
		return rc;
	a->first = 0; /* this may be a retry after the map grew */
	a->stored = 0;
	int any_id = 0;
	for (size_t i = 0; i < a->n && !any_id; i++)
		any_id = has_id(a, i);
	if (any_id) { /* bodies with ids need a reader that knows them */
		uint64_t fmt;
		rc = meta_get_u64(&fmt, txn, env, "format", err);
		if (rc == H2EMV_OK && fmt < ENG_FORMAT_IDS)
			rc = meta_put_u64(txn, env, "format", ENG_FORMAT_IDS, err);
		if (rc)
			return rc;
	}
	uint64_t next = last + 1;
	for (size_t i = 0; i < a->n; i++) {
		if (has_id(a, i)) {
			if (env->no_obsids)
				return eng_fail(err, H2EMV_EREADONLY, "obsids: the store is read-only");
			uint64_t seq;
			rc = obsid_get(&seq, txn, env, a->ids[i].data, a->ids[i].len, &a->scratch, err);
			int same = 0, free_again = 1;
			if (rc == H2EMV_OK)
				rc = same_as_stored(&same, &free_again, txn, env, &a->bodies[i], seq,
				                    &a->scratch, err);
			else if (rc == H2EMV_ENOTFOUND)
				rc = H2EMV_OK;
			if (rc)
				return rc;
			if (!free_again && !same) {
				a->conflict = i;
				return eng_fail(err, H2EMV_EEXIST,
				                "id '%.*s' is already stored, as observation %llu, with "
				                "different content",
				                (int)a->ids[i].len, (const char *)a->ids[i].data,
				                (unsigned long long)seq);
			}
			if (!free_again) {
				a->seqs[i] = seq;
				a->dup[i] = 1;
				continue;
			}
			if ((rc = put_obsid(txn, env, &a->ids[i], next, err)) != H2EMV_OK)
				return rc;
		}
		uint8_t key[8];
		be64(key, next);
		rc = env_put_record(txn, env, DB_OBS, key, 8, a->bodies[i].data, a->bodies[i].len,
		                    MDB_APPEND, env->cur_dict[ENG_DICT_OBS], err);
		if (rc)
			return rc;
		if (!a->first)
			a->first = next;
		a->seqs[i] = next++;
		a->dup[i] = 0;
		a->stored++;
	}
	return H2EMV_OK;
}

static int raise_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	uint64_t want = *(const uint64_t *)ctx, fmt;
	int rc = meta_get_u64(&fmt, txn, env, "format", err);
	if (rc == H2EMV_OK && fmt < want)
		rc = meta_put_u64(txn, env, "format", want, err);
	return rc;
}

int eng_format_raise(eng_env *env, uint64_t fmt, h2emv_error *err)
{
	if (fmt > ENG_FORMAT)
		return eng_fail(err, H2EMV_EINVAL, "store format %llu is newer than this h2emv's %d",
		                (unsigned long long)fmt, ENG_FORMAT);
	if (__atomic_load_n(&env->format_at_least, __ATOMIC_ACQUIRE) >= fmt)
		return H2EMV_OK;
	int rc = env_write(env, raise_fn, &fmt, err);
	if (rc == H2EMV_OK)
		__atomic_store_n(&env->format_at_least, fmt, __ATOMIC_RELEASE);
	return rc;
}

int eng_obs_append_ids(eng_env *env, const eng_buf *bodies, const eng_buf *ids, size_t n,
                       uint64_t *seqs, uint8_t *dup, uint64_t *first_seq, size_t *stored,
                       size_t *conflict, h2emv_error *err)
{
	if (n == 0 || !seqs || !dup)
		return eng_fail(err, H2EMV_EINVAL, "nothing to append");
	for (size_t i = 0; ids && i < n; i++)
		if (ids[i].len > ENG_OBS_ID_MAX)
			return eng_fail(err, H2EMV_EINVAL, "an id over %d bytes", ENG_OBS_ID_MAX);
	/* A new memory's first records already use the default dictionary;
	 * it is an optimisation, so failing to store it fails no ingest. */
	if (!env->cur_dict[ENG_DICT_OBS])
		(void)eng_dict_default(env, ENG_DICT_OBS, NULL);
	append_ctx a = { bodies, ids, n, seqs, dup, 0, 0, n, { 0 } };
	int rc = env_write(env, append_fn, &a, err);
	eng_buf_free(&a.scratch);
	if (conflict)
		*conflict = a.conflict;
	if (rc)
		return rc;
	if (first_seq)
		*first_seq = a.first;
	if (stored)
		*stored = a.stored;
	return H2EMV_OK;
}

int eng_obs_append(eng_env *env, const eng_buf *bodies, size_t n, uint64_t *first_seq,
                   h2emv_error *err)
{
	if (n == 0)
		return eng_fail(err, H2EMV_EINVAL, "nothing to append");
	uint64_t *seqs = malloc(n * sizeof *seqs);
	uint8_t *dup = malloc(n);
	int rc = seqs && dup ? eng_obs_append_ids(env, bodies, NULL, n, seqs, dup, first_seq, NULL,
	                                          NULL, err)
	                     : eng_fail(err, H2EMV_ENOMEM, "out of memory");
	free(seqs);
	free(dup);
	return rc;
}

int eng_obsids_get(uint64_t *seq, eng_read *r, const void *id, size_t len, h2emv_error *err)
{
	if (len == 0 || len > ENG_OBS_ID_MAX)
		return eng_fail(err, H2EMV_EINVAL, "an id is 1 to %d bytes", ENG_OBS_ID_MAX);
	return obsid_get(seq, r->txn, r->env, id, len, &r->scratch, err);
}

int eng_obsids_prune_txn(void *mdb_txn, eng_env *env, uint64_t *dropped, h2emv_error *err)
{
	MDB_txn *txn = mdb_txn;
	MDB_cursor *cur;
	MDB_val k, v, ov;
	uint64_t n = 0;
	eng_buf scratch = { 0 };
	if (dropped)
		*dropped = 0;
	if (env->no_obsids)
		return H2EMV_OK;
	int rc = mdb_cursor_open(txn, env->dbi[DB_OBSIDS], &cur);
	if (rc)
		return env_err(err, rc, "obsids: opening a cursor");
	int mrc;
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		uint64_t seq;
		if (env_decode(&body, &blen, env, &v, &scratch, NULL) != H2EMV_OK ||
		    mp_decode_u64s(&seq, 1, body, blen))
			continue; /* damaged: check reports it */
		uint8_t key[8];
		be64(key, seq);
		MDB_val ok = { 8, key };
		mrc = mdb_get(txn, env->dbi[DB_OBS], &ok, &ov);
		if (mrc == 0)
			continue;
		if (mrc != MDB_NOTFOUND || (mrc = mdb_cursor_del(cur, 0)) != 0)
			break;
		n++;
	}
	mdb_cursor_close(cur);
	eng_buf_free(&scratch);
	if (mrc && mrc != MDB_NOTFOUND)
		return env_err(err, mrc, "obsids: pruning");
	if (dropped)
		*dropped = n;
	return H2EMV_OK;
}

int eng_obs_get(eng_buf *out, eng_read *r, uint64_t seq, h2emv_error *err)
{
	uint8_t key[8];
	be64(key, seq);
	const uint8_t *body;
	size_t blen;
	int rc = env_get_record(&body, &blen, r->txn, r->env, DB_OBS, key, 8, &r->scratch, err);
	if (rc == H2EMV_ENOTFOUND)
		return eng_fail(err, rc, "no observation %llu", (unsigned long long)seq);
	if (rc)
		return rc;
	out->len = 0;
	if (eng_buf_append(out, body, blen))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	return H2EMV_OK;
}

int eng_obs_next(uint64_t *out, eng_read *r, uint64_t from, h2emv_error *err)
{
	MDB_cursor *cur;
	uint8_t key[8];
	be64(key, from);
	MDB_val k = { 8, key }, v;
	*out = 0;
	int mrc = mdb_cursor_open(r->txn, r->env->dbi[DB_OBS], &cur);
	if (mrc)
		return env_err(err, mrc, "observations: opening a cursor");
	mrc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
	if (mrc == 0 && k.mv_size != 8)
		mrc = MDB_CORRUPTED;
	if (mrc == 0)
		*out = get_be64(k.mv_data);
	mdb_cursor_close(cur);
	if (mrc == MDB_NOTFOUND)
		return eng_fail(err, H2EMV_ENOTFOUND, "no observation from %llu on",
		                (unsigned long long)from);
	return mrc ? env_err(err, mrc, "observations: seeking") : H2EMV_OK;
}

int eng_obs_last(uint64_t *out, eng_read *r, h2emv_error *err)
{
	return eng_last_key(out, r->txn, r->env->dbi[DB_OBS], err);
}
