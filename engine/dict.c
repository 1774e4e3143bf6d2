/*
 * dict.c — zstd dictionaries for observation records. Small records that
 * look alike compress poorly alone and very well with a shared dictionary.
 * A new memory starts with the default dictionary h2emv ships (trained
 * offline on our robots' observations by bench/dictgen, compiled in from
 * engine/dict_obs_default.zdict): storing it costs one small write, where
 * training on the write path cost tens of milliseconds. Maintenance (gc)
 * trains the memory's own dictionary once it holds enough records. Every
 * dictionary is stored in `dicts` under its id and never removed: records
 * written before a newer one stay readable with the one their header names.
 */
#include <stdlib.h>
#include <string.h>
#include <zdict.h>

#include "engine/env.h"

/* The default observation dictionary h2emv ships (dict_builtin.c). */
extern const unsigned char eng_dict_obs_default[];
extern const size_t eng_dict_obs_default_len;

#define MAX_SAMPLES 4000
#define MAX_SAMPLE_BYTES (8u << 20)
#define DICT_CAP (32u << 10)
#define DICT_MIN (1u << 10)

typedef struct samples {
	eng_buf data;
	size_t *sizes;
	unsigned n;
} samples;

/* The most recent records of a kind, decoded, as training samples. */
static int collect(samples *s, eng_env *env, int db, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	s->sizes = calloc(MAX_SAMPLES, sizeof *s->sizes);
	if (!s->sizes) {
		eng_read_end(r);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	MDB_cursor *cur;
	int mrc = mdb_cursor_open(r->txn, env->dbi[db], &cur);
	if (mrc) {
		eng_read_end(r);
		return env_err(err, mrc, "collecting dictionary samples");
	}
	MDB_val k, v;
	for (int op = MDB_LAST; s->n < MAX_SAMPLES && s->data.len < MAX_SAMPLE_BYTES &&
	                        (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0;
	     op = MDB_PREV) {
		const uint8_t *body;
		size_t blen;
		if (env_decode(&body, &blen, env, &v, &r->scratch, NULL) != H2EMV_OK)
			continue; /* check reports damaged records; training skips them */
		if (eng_buf_append(&s->data, body, blen)) {
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
			break;
		}
		s->sizes[s->n++] = blen;
	}
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "collecting dictionary samples");
	mdb_cursor_close(cur);
	eng_read_end(r);
	return rc;
}

typedef struct store_ctx {
	int kind;
	const void *dict;
	size_t n;
	uint32_t id; /* in: the id to store it under, 0 = after the last one */
	int replace; /* store a newer one even if one exists (retraining) */
	int existed; /* another process stored one first: use that */
} store_ctx;

static int store_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	store_ctx *s = ctx;
	MDB_cursor *cur;
	MDB_val k, v;
	uint32_t last = 0, want = s->id;
	int mrc = mdb_cursor_open(txn, env->dbi[DB_DICTS], &cur);
	if (mrc)
		return env_err(err, mrc, "dicts");
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		if (k.mv_size != 4)
			continue;
		last = get_be32(k.mv_data);
		/* the value's first payload byte is the kind */
		const uint8_t *rec = v.mv_data;
		if (v.mv_size > REC_HEADER && rec[1] == REC_RAW && rec[REC_HEADER] == s->kind) {
			s->id = last;
			s->existed = 1;
		}
	}
	mdb_cursor_close(cur);
	if (mrc != MDB_NOTFOUND)
		return env_err(err, mrc, "dicts");
	if (s->existed && !s->replace)
		return H2EMV_OK;
	s->existed = 0;
	s->id = want ? want : last + 1;
	eng_buf body = { 0 };
	uint8_t kind = (uint8_t)s->kind;
	int rc = H2EMV_OK;
	if (eng_buf_append(&body, &kind, 1) || eng_buf_append(&body, s->dict, s->n))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	uint8_t key[4];
	be32(key, s->id);
	if (rc == H2EMV_OK)
		rc = env_put_record(txn, env, DB_DICTS, key, 4, body.data, body.len, MDB_NOOVERWRITE, 0,
		                    err);
	eng_buf_free(&body);
	return rc;
}

/* Store dictionary bytes as the newest of `kind` (or adopt the one
 * another process stored first) and make new records use it. */
static int install(eng_env *env, int kind, const void *dict, size_t n, uint32_t id,
                   int replace, h2emv_error *err)
{
	store_ctx sc = { kind, dict, n, id, replace, 0 };
	int rc = env_write(env, store_fn, &sc, err);
	if (rc == H2EMV_OK && sc.existed)
		rc = env_load_dicts(env, err);
	else if (rc == H2EMV_OK)
		rc = rec_codec_add_dict(env->codec, sc.id, dict, n, err);
	if (rc == H2EMV_OK && !sc.existed)
		__atomic_store_n(&env->cur_dict[kind], sc.id, __ATOMIC_RELEASE);
	return rc;
}

int eng_dict_default(eng_env *env, int kind, h2emv_error *err)
{
	if (kind != ENG_DICT_OBS)
		return eng_fail(err, H2EMV_EINVAL, "dictionaries are kept for observations only");
	if (__atomic_load_n(&env->cur_dict[kind], __ATOMIC_ACQUIRE) ||
	    (env->flags & H2EMV_OPEN_READONLY))
		return H2EMV_OK;
	pthread_mutex_lock(&env->trainlock);
	int rc = env->cur_dict[kind] ? H2EMV_OK
	                             : install(env, kind, eng_dict_obs_default,
	                                       eng_dict_obs_default_len, ENG_DICT_OBS_DEFAULT, 0,
	                                       err);
	pthread_mutex_unlock(&env->trainlock);
	return rc;
}

/* Is the current dictionary of `kind` still the default one (or none)? */
static int uses_default(eng_env *env, int kind)
{
	uint32_t id = __atomic_load_n(&env->cur_dict[kind], __ATOMIC_ACQUIRE);
	return !id || id == ENG_DICT_OBS_DEFAULT;
}

static int train(eng_env *env, int kind, h2emv_error *err);

int eng_maybe_train(eng_env *env, int kind, h2emv_error *err)
{
	if (kind != ENG_DICT_OBS)
		return eng_fail(err, H2EMV_EINVAL, "dictionaries are trained for observations only");
	if (!uses_default(env, kind) || (env->flags & H2EMV_OPEN_READONLY))
		return H2EMV_OK;
	/* one trainer at a time; whoever waited finds the work done */
	pthread_mutex_lock(&env->trainlock);
	int rc = uses_default(env, kind) ? train(env, kind, err) : H2EMV_OK;
	pthread_mutex_unlock(&env->trainlock);
	return rc;
}

static int train(eng_env *env, int kind, h2emv_error *err)
{
	int db = DB_OBS;
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	MDB_stat st;
	int mrc = mdb_stat(r->txn, env->dbi[db], &st);
	eng_read_end(r);
	if (mrc)
		return env_err(err, mrc, "counting records to train a dictionary");
	if (st.ms_entries < env->dict_train_after || st.ms_entries < env->train_retry_at[kind])
		return H2EMV_OK;

	samples s = { 0 };
	rc = collect(&s, env, db, err);
	void *dict = NULL;
	size_t cap = s.data.len / 8;
	cap = cap > DICT_CAP ? DICT_CAP : cap;
	if (rc == H2EMV_OK && cap >= DICT_MIN && (dict = malloc(cap))) {
		size_t got = ZDICT_trainFromBuffer(dict, cap, s.data.data, s.sizes, s.n);
		if (ZDICT_isError(got))
			/* too little or too uniform data: try again when there is twice as much */
			env->train_retry_at[kind] = st.ms_entries * 2;
		else
			rc = install(env, kind, dict, got, 0, 1, err);
	} else if (rc == H2EMV_OK) {
		env->train_retry_at[kind] = st.ms_entries * 2;
	}
	free(dict);
	free(s.sizes);
	eng_buf_free(&s.data);
	return rc;
}
