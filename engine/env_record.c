/*
 * env_record.c — records in the environment: small msgpack values of the
 * meta database, a record read (decoded, checked) and written through the
 * codec, the dictionaries the codec uses, and the small key/value
 * databases (eng_kv_put, eng_kv_get).
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
	/* the mark's reason needs the message even when the caller wants none
	 * (not zeroed whole: this runs for every record read) */
	h2emv_error local;
	h2emv_error *e = err;
	if (!e) {
		local.message[0] = 0;
		e = &local;
	}
	const uint8_t *rec = v->mv_data;
	int vrc = env_value_sane(env, v->mv_data, v->mv_size, e);
	if (vrc)
		return vrc == H2EMV_ECORRUPT ? env_damage_found(env, e) : vrc;
	/* A dictionary another process trained after we opened: load it. A
	 * load that fails for want of memory or because the map grew under
	 * this view is no proof the dictionary is missing: say so instead. */
	if (v->mv_size >= REC_HEADER && rec[0] == REC_FORMAT && rec[1] == REC_ZSTD_DICT) {
		uint32_t id = (uint32_t)rec[4] | (uint32_t)rec[5] << 8 | (uint32_t)rec[6] << 16 |
		              (uint32_t)rec[7] << 24;
		int drc = rec_codec_has_dict(env->codec, id) ? H2EMV_OK : env_load_dicts(env, e);
		if (drc == H2EMV_ECORRUPT)
			return env_damage_found(env, e);
		if (drc)
			return drc;
	}
	int rc = rec_decode(body, blen, scratch, env->codec, v->mv_data, v->mv_size, e);
	return rc == H2EMV_ECORRUPT ? env_damage_found(env, e) : rc;
}

int env_get_record(const uint8_t **body, size_t *blen, MDB_txn *txn, eng_env *env, int db,
                   const void *key, size_t klen, eng_buf *scratch, h2emv_error *err)
{
	MDB_val k = { klen, (void *)key }, v;
	int rc = mdb_get(txn, env->dbi[db], &k, &v);
	if (rc == MDB_NOTFOUND)
		return H2EMV_ENOTFOUND; /* callers word their own message */
	if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND) {
		h2emv_error local = { 0 };
		h2emv_error *e = err ? err : &local;
		env_err(e, rc, eng_db_names[db]);
		return env_damage_found(env, e);
	}
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

/* A read-only transaction outside any view (opening, dictionaries): when
 * another process grew the map (MDB_MAP_RESIZED), adopt its size and
 * retry, if no view of this process reads through the map now. */
int env_ro_txn_begin(eng_env *env, MDB_env *mdb, MDB_txn **txn)
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
	int rc = env_ro_txn_begin(env, g->mdb, &txn);
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

/* The last key of dbi as a big-endian number (0 when it is empty). */
int eng_last_key(uint64_t *out, MDB_txn *txn, MDB_dbi dbi, h2emv_error *err)
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
