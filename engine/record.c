/*
 * record.c — the record codec: every value in every database is a small
 * header (format byte, codec, dictionary id, XXH3-64 checksum) followed by a
 * msgpack body, stored raw or as one zstd frame (with a trained dictionary
 * once the store has one). Decoding trusts nothing: lengths, checksum and
 * declared sizes are checked before anything is allocated.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The checksum runs on every record read: inline XXH3 (the same function
 * as the shared library's, without the call and its dispatch). */
#define XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>
#include <zstd.h>

#include "engine/engine.h"

#define MAX_DICTS 64
#define ZSTD_LEVEL 3

typedef struct dict {
	uint32_t id;
	ZSTD_CDict *cdict;
	ZSTD_DDict *ddict;
} dict_ent;

struct rec_codec {
	pthread_mutex_t lock; /* guards cctx and the dictionary table's growth */
	ZSTD_CCtx *cctx;
	dict_ent dicts[MAX_DICTS];
	int n_dicts;
};

/* One decompression context per thread, freed when the thread ends. */
static pthread_key_t dctx_key;
static pthread_once_t dctx_once = PTHREAD_ONCE_INIT;

static void dctx_free(void *p)
{
	ZSTD_freeDCtx(p);
}

static void dctx_init(void)
{
	pthread_key_create(&dctx_key, dctx_free);
}

static ZSTD_DCtx *thread_dctx(void)
{
	pthread_once(&dctx_once, dctx_init);
	ZSTD_DCtx *d = pthread_getspecific(dctx_key);
	if (!d) {
		d = ZSTD_createDCtx();
		if (d && pthread_setspecific(dctx_key, d) != 0) {
			ZSTD_freeDCtx(d);
			d = NULL;
		}
	}
	return d;
}

int rec_codec_new(rec_codec **out)
{
	rec_codec *c = calloc(1, sizeof *c);
	if (!c)
		return H2EMV_ENOMEM;
	c->cctx = ZSTD_createCCtx();
	if (!c->cctx) {
		free(c);
		return H2EMV_ENOMEM;
	}
	/* XXH3 in our header covers the payload; zstd's own checksum would
	 * only cost bytes. */
	ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_checksumFlag, 0);
	ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_contentSizeFlag, 1);
	ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_dictIDFlag, 0);
	pthread_mutex_init(&c->lock, NULL);
	*out = c;
	return H2EMV_OK;
}

void rec_codec_free(rec_codec *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n_dicts; i++) {
		ZSTD_freeCDict(c->dicts[i].cdict);
		ZSTD_freeDDict(c->dicts[i].ddict);
	}
	ZSTD_freeCCtx(c->cctx);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static dict_ent *find_dict(rec_codec *c, uint32_t id)
{
	/* Entries are only ever appended, and n_dicts is published after the
	 * entry is complete, so readers need no lock. */
	int n = __atomic_load_n(&c->n_dicts, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		if (c->dicts[i].id == id)
			return &c->dicts[i];
	return NULL;
}

int rec_codec_has_dict(rec_codec *c, uint32_t id)
{
	return find_dict(c, id) != NULL;
}

int rec_codec_add_dict(rec_codec *c, uint32_t id, const void *data, size_t n, h2emv_error *err)
{
	if (id == 0)
		return eng_fail(err, H2EMV_EINVAL, "dictionary id 0 is reserved");
	pthread_mutex_lock(&c->lock);
	int rc = H2EMV_OK;
	if (find_dict(c, id))
		goto out;
	if (c->n_dicts == MAX_DICTS) {
		rc = eng_fail(err, H2EMV_ELIMIT, "too many zstd dictionaries (%d)", MAX_DICTS);
		goto out;
	}
	dict_ent *d = &c->dicts[c->n_dicts];
	d->id = id;
	d->cdict = ZSTD_createCDict(data, n, ZSTD_LEVEL);
	d->ddict = ZSTD_createDDict(data, n);
	if (!d->cdict || !d->ddict) {
		ZSTD_freeCDict(d->cdict);
		ZSTD_freeDDict(d->ddict);
		rc = eng_fail(err, H2EMV_ECORRUPT, "zstd dictionary %u cannot be loaded", id);
		goto out;
	}
	__atomic_store_n(&c->n_dicts, c->n_dicts + 1, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&c->lock);
	return rc;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* XXH3 with a seed derives a 192-byte secret from it on every call over
 * 240 bytes. Almost every record is raw without a dictionary, so almost
 * every record has the same seed: derive its secret once. XXH3 documents
 * _withSecretandSeed over a secret from XXH3_generateSecret_fromSeed(seed)
 * as giving exactly the _withSeed(seed) value. */
#define RAW_SEED ((uint64_t)REC_FORMAT) /* header bytes 0..7 of a raw record */
static XXH_ALIGN(64) uint8_t raw_secret[XXH3_SECRET_DEFAULT_SIZE];
static pthread_once_t raw_secret_once = PTHREAD_ONCE_INIT;

static void raw_secret_init(void)
{
	XXH3_generateSecret_fromSeed(raw_secret, RAW_SEED);
}

/* The header's first 8 bytes seed the hash, so a flip anywhere in the
 * record (header or payload) changes the sum. */
static uint64_t record_sum(const uint8_t *hdr, const uint8_t *payload, size_t n)
{
	uint64_t seed = 0;
	for (int i = 7; i >= 0; i--)
		seed = (seed << 8) | hdr[i];
	if (seed != RAW_SEED || n <= XXH3_MIDSIZE_MAX)
		return XXH3_64bits_withSeed(payload, n, seed);
	pthread_once(&raw_secret_once, raw_secret_init);
	return XXH3_64bits_withSecretandSeed(payload, n, raw_secret, sizeof raw_secret, seed);
}

static void seal(uint8_t *rec, size_t payload_len)
{
	uint64_t sum = record_sum(rec, rec + REC_HEADER, payload_len);
	for (int i = 0; i < 8; i++, sum >>= 8)
		rec[8 + i] = (uint8_t)sum;
}

/* Compress `body` after the header at out->len; 0 if it does not pay. */
static size_t try_compress(rec_codec *c, uint8_t *dst, size_t cap, const void *body, size_t n,
                           uint32_t *dict_id)
{
	size_t z;
	pthread_mutex_lock(&c->lock);
	dict_ent *d = *dict_id ? find_dict(c, *dict_id) : NULL;
	if (d)
		z = ZSTD_compress_usingCDict(c->cctx, dst, cap, body, n, d->cdict);
	else
		z = ZSTD_compress2(c->cctx, dst, cap, body, n);
	pthread_mutex_unlock(&c->lock);
	if (!d)
		*dict_id = 0;
	if (ZSTD_isError(z) || z >= n)
		return 0;
	return z;
}

int rec_encode(eng_buf *out, rec_codec *c, uint32_t dict, const void *body, size_t n, int mode,
               h2emv_error *err)
{
	if (n > REC_MAX_BODY)
		return eng_fail(err, H2EMV_ELIMIT, "record body of %zu bytes exceeds the %u-byte limit",
		                n, REC_MAX_BODY);
	size_t bound = ZSTD_compressBound(n);
	if (eng_buf_reserve(out, REC_HEADER + (bound > n ? bound : n)))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory encoding a record");
	uint8_t *rec = out->data + out->len;
	memset(rec, 0, REC_HEADER);
	rec[0] = REC_FORMAT;
	size_t payload = 0;
	uint32_t dict_id = dict;
	/* Tiny bodies never shrink; don't spend the time. */
	if (mode == REC_ENC_AUTO && n >= 48)
		payload = try_compress(c, rec + REC_HEADER, bound, body, n, &dict_id);
	if (payload) {
		rec[1] = dict_id ? REC_ZSTD_DICT : REC_ZSTD;
		put_le32(rec + 4, dict_id);
	} else {
		rec[1] = REC_RAW;
		memcpy(rec + REC_HEADER, body, n);
		payload = n;
	}
	seal(rec, payload);
	out->len += REC_HEADER + payload;
	return H2EMV_OK;
}

int rec_verify(const void *recp, size_t n, h2emv_error *err)
{
	const uint8_t *rec = recp;
	if (n < REC_HEADER)
		return eng_fail(err, H2EMV_ECORRUPT, "record of %zu bytes is shorter than its header", n);
	if (rec[0] != REC_FORMAT)
		return eng_fail(err, H2EMV_ECORRUPT, "record format byte 0x%02x is not 0x%02x", rec[0],
		                REC_FORMAT);
	if (rec[1] > REC_ZSTD_DICT || rec[2] || rec[3])
		return eng_fail(err, H2EMV_ECORRUPT, "record header has unknown codec flags");
	uint64_t want = 0;
	for (int i = 7; i >= 0; i--)
		want = (want << 8) | rec[8 + i];
	if (record_sum(rec, rec + REC_HEADER, n - REC_HEADER) != want)
		return eng_fail(err, H2EMV_ECORRUPT, "record checksum mismatch");
	if ((rec[1] == REC_ZSTD_DICT) != (get_le32(rec + 4) != 0))
		return eng_fail(err, H2EMV_ECORRUPT, "record dictionary id does not match its codec");
	return H2EMV_OK;
}

int rec_decode(const uint8_t **body, size_t *body_len, eng_buf *scratch, rec_codec *c,
               const void *recp, size_t n, h2emv_error *err)
{
	int rc = rec_verify(recp, n, err);
	if (rc)
		return rc;
	const uint8_t *rec = recp;
	const uint8_t *payload = rec + REC_HEADER;
	size_t plen = n - REC_HEADER;
	if (rec[1] == REC_RAW) {
		*body = payload;
		*body_len = plen;
		return H2EMV_OK;
	}
	unsigned long long size = ZSTD_getFrameContentSize(payload, plen);
	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
		return eng_fail(err, H2EMV_ECORRUPT, "compressed record has no valid frame size");
	if (size > REC_MAX_BODY)
		return eng_fail(err, H2EMV_ECORRUPT, "compressed record declares %llu bytes (limit %u)",
		                size, REC_MAX_BODY);
	dict_ent *d = NULL;
	if (rec[1] == REC_ZSTD_DICT) {
		uint32_t id = get_le32(rec + 4);
		d = find_dict(c, id);
		if (!d)
			return eng_fail(err, H2EMV_ECORRUPT, "record needs zstd dictionary %u, which is missing",
			                id);
	}
	ZSTD_DCtx *dctx = thread_dctx();
	scratch->len = 0;
	if (!dctx || eng_buf_reserve(scratch, size ? (size_t)size : 1))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory decompressing a record");
	size_t got = d ? ZSTD_decompress_usingDDict(dctx, scratch->data, (size_t)size, payload, plen,
	                                            d->ddict)
	               : ZSTD_decompressDCtx(dctx, scratch->data, (size_t)size, payload, plen);
	if (ZSTD_isError(got) || got != size)
		return eng_fail(err, H2EMV_ECORRUPT, "compressed record does not decompress: %s",
		                ZSTD_isError(got) ? ZSTD_getErrorName(got) : "size mismatch");
	scratch->len = got;
	*body = scratch->data;
	*body_len = got;
	return H2EMV_OK;
}
