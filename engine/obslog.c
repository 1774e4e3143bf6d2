/*
 * obslog.c — the observation log: durable appends (one transaction, one
 * fsync per batch) keyed by a big-endian sequence number, reads by seq. The
 * log doubles as the builder's queue: everything after the build cursor is
 * waiting to be folded into the tree.
 */
#include <string.h>

#include "engine/env.h"

typedef struct append_ctx {
	const eng_buf *bodies;
	size_t n;
	uint64_t first;
} append_ctx;

static int last_key(uint64_t *out, MDB_txn *txn, MDB_dbi dbi, h2emv_error *err)
{
	MDB_cursor *cur;
	MDB_val k, v;
	int rc = mdb_cursor_open(txn, dbi, &cur);
	if (rc)
		return env_err(err, rc, "opening a cursor");
	rc = mdb_cursor_get(cur, &k, &v, MDB_LAST);
	mdb_cursor_close(cur);
	if (rc == MDB_NOTFOUND) {
		*out = 0;
		return H2EMV_OK;
	}
	if (rc)
		return env_err(err, rc, "reading the last key");
	if (k.mv_size < 8)
		return eng_fail(err, H2EMV_ECORRUPT, "a key is shorter than 8 bytes");
	*out = get_be64(k.mv_data);
	return H2EMV_OK;
}

static int append_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	append_ctx *a = ctx;
	uint64_t last;
	int rc = last_key(&last, txn, env->dbi[DB_OBS], err);
	if (rc)
		return rc;
	a->first = last + 1;
	for (size_t i = 0; i < a->n; i++) {
		uint8_t key[8];
		be64(key, last + 1 + i);
		rc = env_put_record(txn, env, DB_OBS, key, 8, a->bodies[i].data, a->bodies[i].len,
		                    MDB_APPEND, env->cur_dict[ENG_DICT_OBS], err);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

int eng_obs_append(eng_env *env, const eng_buf *bodies, size_t n, uint64_t *first_seq,
                   h2emv_error *err)
{
	if (n == 0)
		return eng_fail(err, H2EMV_EINVAL, "nothing to append");
	append_ctx a = { bodies, n, 0 };
	int rc = env_write(env, append_fn, &a, err);
	if (rc)
		return rc;
	if (first_seq)
		*first_seq = a.first;
	/* Training is an optimisation: an error here must not fail an ingest
	 * that is already durable. */
	if (!env->cur_dict[ENG_DICT_OBS] && a.first + n - 1 >= env->dict_train_after)
		eng_maybe_train(env, ENG_DICT_OBS, NULL);
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

int eng_obs_last(uint64_t *out, eng_read *r, h2emv_error *err)
{
	return last_key(out, r->txn, r->env->dbi[DB_OBS], err);
}

int eng_last_key(uint64_t *out, MDB_txn *txn, MDB_dbi dbi, h2emv_error *err)
{
	return last_key(out, txn, dbi, err);
}
