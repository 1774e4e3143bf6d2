/*
 * test_codec.c — the record codec (engine/record.c), node bodies
 * (engine/node.c) and the msgpack pre-scan (engine/mpscan.c): what is
 * encoded decodes back unchanged, and damaged or hostile bytes are refused
 * with H2EMV_ECORRUPT, never a crash and never a large allocation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <msgpack.h>
#include <xxhash.h>
#include <zdict.h>
#include <zstd.h>

#include "engine/engine.h"
#include "engine/env.h" /* mp_encode_u64s, mp_decode_u64s */
#include "h2emv.h"
#include "testutil.h"

/* ------------------------------------------------------------ helpers -- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static void fill_random(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

/* Recompute a record's checksum after the test edited it on purpose, so
 * the bytes reach the checks behind the checksum. Layout: engine.h. */
static void seal(uint8_t *rec, size_t n)
{
	uint64_t seed = 0;
	for (int i = 7; i >= 0; i--)
		seed = (seed << 8) | rec[i];
	uint64_t sum = XXH3_64bits_withSeed(rec + REC_HEADER, n - REC_HEADER, seed);
	for (int i = 0; i < 8; i++, sum >>= 8)
		rec[8 + i] = (uint8_t)sum;
}

static uint32_t rec_dict_id(const uint8_t *rec)
{
	return (uint32_t)rec[4] | (uint32_t)rec[5] << 8 | (uint32_t)rec[6] << 16 |
	       (uint32_t)rec[7] << 24;
}

/* Decode `rec` from an exact-size heap copy so any read past the end is
 * caught by ASan; returns the status. */
static int decode_copy(rec_codec *c, const uint8_t *rec, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	assert_non_null(copy);
	if (n)
		memcpy(copy, rec, n);
	const uint8_t *body = NULL;
	size_t blen = 0;
	eng_buf scratch = { 0 };
	h2emv_error e = { 0 };
	int rc = rec_decode(&body, &blen, &scratch, c, copy, n, &e);
	if (rc)
		assert_int_equal(e.status, rc);
	eng_buf_free(&scratch);
	free(copy);
	return rc;
}

/* The dictionary shared by the tests: trained like the store trains one. */
#define TEST_DICT_ID 7u
static void *g_dict;
static size_t g_dict_len;

static int setup_dict(void **state)
{
	(void)state;
	enum { N = 400 };
	eng_buf all = { 0 }, one = { 0 };
	size_t *sizes = calloc(N, sizeof *sizes);
	if (!sizes)
		return -1;
	for (unsigned i = 0; i < N; i++) {
		tu_obs_body(&one, i + 1000);
		sizes[i] = one.len;
		if (eng_buf_append(&all, one.data, one.len))
			return -1;
	}
	g_dict = malloc(4096);
	if (!g_dict)
		return -1;
	g_dict_len = ZDICT_trainFromBuffer(g_dict, 4096, all.data, sizes, N);
	free(sizes);
	eng_buf_free(&all);
	eng_buf_free(&one);
	return ZDICT_isError(g_dict_len) ? -1 : 0;
}

static int teardown_dict(void **state)
{
	(void)state;
	free(g_dict);
	return 0;
}

static rec_codec *codec_with_dict(void)
{
	rec_codec *c;
	assert_int_equal(rec_codec_new(&c), H2EMV_OK);
	h2emv_error e = { 0 };
	assert_int_equal(rec_codec_add_dict(c, TEST_DICT_ID, g_dict, g_dict_len, &e), H2EMV_OK);
	assert_true(rec_codec_has_dict(c, TEST_DICT_ID));
	return c;
}

/* One record of each codec, built from bodies that pick that codec. */
typedef struct three_records {
	eng_buf body[3];
	eng_buf rec[3];
} three_records;

static void make_three_records(three_records *t, rec_codec *c)
{
	memset(t, 0, sizeof *t);
	h2emv_error e = { 0 };
	/* raw: forced */
	tu_obs_body(&t->body[0], 1);
	assert_int_equal(rec_encode(&t->rec[0], c, 0, t->body[0].data, t->body[0].len, REC_ENC_RAW,
	                            &e),
	                 H2EMV_OK);
	assert_int_equal(t->rec[0].data[1], REC_RAW);
	/* zstd without a dictionary: a body with plenty of repetition */
	for (unsigned i = 0; i < 6; i++) {
		eng_buf one = { 0 };
		tu_obs_body(&one, i);
		assert_int_equal(eng_buf_append(&t->body[1], one.data, one.len), H2EMV_OK);
		eng_buf_free(&one);
	}
	assert_int_equal(rec_encode(&t->rec[1], c, 0, t->body[1].data, t->body[1].len, REC_ENC_AUTO,
	                            &e),
	                 H2EMV_OK);
	assert_int_equal(t->rec[1].data[1], REC_ZSTD);
	/* zstd with the dictionary: one small body the dictionary knows */
	tu_obs_body(&t->body[2], 77);
	assert_int_equal(rec_encode(&t->rec[2], c, TEST_DICT_ID, t->body[2].data, t->body[2].len,
	                            REC_ENC_AUTO, &e),
	                 H2EMV_OK);
	assert_int_equal(t->rec[2].data[1], REC_ZSTD_DICT);
}

static void free_three_records(three_records *t)
{
	for (int i = 0; i < 3; i++) {
		eng_buf_free(&t->body[i]);
		eng_buf_free(&t->rec[i]);
	}
}

/* ------------------------------------------------------- record codec -- */

static void assert_round_trip(rec_codec *c, const eng_buf *rec, const eng_buf *body)
{
	const uint8_t *out = NULL;
	size_t n = 0;
	eng_buf scratch = { 0 };
	h2emv_error e = { 0 };
	assert_int_equal(rec_decode(&out, &n, &scratch, c, rec->data, rec->len, &e), H2EMV_OK);
	assert_int_equal(n, body->len);
	if (n)
		assert_memory_equal(out, body->data, n);
	assert_int_equal(rec_verify(rec->data, rec->len, &e), H2EMV_OK);
	eng_buf_free(&scratch);
}

static void test_raw_record_round_trips(void **state)
{
	(void)state;
	rec_codec *c;
	assert_int_equal(rec_codec_new(&c), H2EMV_OK);
	static const size_t sizes[] = { 0, 1, 47, 48, 1000, 70000 };
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		eng_buf body = { 0 }, rec = { 0 };
		assert_int_equal(eng_buf_reserve(&body, sizes[s] + 1), H2EMV_OK);
		fill_random(body.data, sizes[s]);
		body.len = sizes[s];
		assert_int_equal(rec_encode(&rec, c, 0, body.data, body.len, REC_ENC_RAW, NULL), H2EMV_OK);
		assert_int_equal(rec.len, REC_HEADER + body.len);
		assert_int_equal(rec.data[0], REC_FORMAT);
		assert_int_equal(rec.data[1], REC_RAW);
		assert_int_equal(rec.data[2] | rec.data[3], 0);
		assert_int_equal(rec_dict_id(rec.data), 0);
		/* a raw body is handed out in place, not copied */
		const uint8_t *out;
		size_t n;
		eng_buf scratch = { 0 };
		assert_int_equal(rec_decode(&out, &n, &scratch, c, rec.data, rec.len, NULL), H2EMV_OK);
		assert_ptr_equal(out, rec.data + REC_HEADER);
		assert_int_equal(n, body.len);
		assert_round_trip(c, &rec, &body);
		eng_buf_free(&scratch);
		eng_buf_free(&body);
		eng_buf_free(&rec);
	}
	rec_codec_free(c);
}

static void test_compressible_record_round_trips_as_zstd(void **state)
{
	(void)state;
	rec_codec *c;
	assert_int_equal(rec_codec_new(&c), H2EMV_OK);
	eng_buf body = { 0 }, rec = { 0 };
	for (unsigned i = 0; i < 50; i++) {
		eng_buf one = { 0 };
		tu_obs_body(&one, i);
		assert_int_equal(eng_buf_append(&body, one.data, one.len), H2EMV_OK);
		eng_buf_free(&one);
	}
	assert_int_equal(rec_encode(&rec, c, 0, body.data, body.len, REC_ENC_AUTO, NULL), H2EMV_OK);
	assert_int_equal(rec.data[1], REC_ZSTD);
	assert_int_equal(rec_dict_id(rec.data), 0);
	assert_true(rec.len < body.len / 2);
	assert_round_trip(c, &rec, &body);
	/* asking for a dictionary that is not registered falls back to plain zstd */
	eng_buf rec2 = { 0 };
	assert_int_equal(rec_encode(&rec2, c, 99, body.data, body.len, REC_ENC_AUTO, NULL), H2EMV_OK);
	assert_int_equal(rec2.data[1], REC_ZSTD);
	assert_int_equal(rec_dict_id(rec2.data), 0);
	assert_round_trip(c, &rec2, &body);
	eng_buf_free(&rec2);
	eng_buf_free(&body);
	eng_buf_free(&rec);
	rec_codec_free(c);
}

static void test_dictionary_record_round_trips_and_is_smaller(void **state)
{
	(void)state;
	rec_codec *c = codec_with_dict();
	size_t with_dict = 0, without = 0;
	for (unsigned i = 0; i < 200; i++) {
		eng_buf body = { 0 }, rec = { 0 }, plain = { 0 };
		tu_obs_body(&body, i);
		assert_int_equal(rec_encode(&rec, c, TEST_DICT_ID, body.data, body.len, REC_ENC_AUTO,
		                            NULL),
		                 H2EMV_OK);
		assert_int_equal(rec.data[1], REC_ZSTD_DICT);
		assert_int_equal(rec_dict_id(rec.data), TEST_DICT_ID);
		assert_round_trip(c, &rec, &body);
		assert_int_equal(rec_encode(&plain, c, 0, body.data, body.len, REC_ENC_AUTO, NULL),
		                 H2EMV_OK);
		with_dict += rec.len;
		without += plain.len;
		eng_buf_free(&body);
		eng_buf_free(&rec);
		eng_buf_free(&plain);
	}
	assert_true(with_dict * 3 < without * 2);
	rec_codec_free(c);
}

static void test_dictionary_record_without_its_dictionary_is_corrupt(void **state)
{
	(void)state;
	rec_codec *with = codec_with_dict(), *without;
	assert_int_equal(rec_codec_new(&without), H2EMV_OK);
	eng_buf body = { 0 }, rec = { 0 }, scratch = { 0 };
	tu_obs_body(&body, 3);
	assert_int_equal(rec_encode(&rec, with, TEST_DICT_ID, body.data, body.len, REC_ENC_AUTO, NULL),
	                 H2EMV_OK);
	assert_int_equal(rec.data[1], REC_ZSTD_DICT);
	const uint8_t *out;
	size_t n;
	h2emv_error e = { 0 };
	assert_int_equal(rec_decode(&out, &n, &scratch, without, rec.data, rec.len, &e),
	                 H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "dictionary"));
	assert_null(scratch.data);
	eng_buf_free(&body);
	eng_buf_free(&rec);
	rec_codec_free(with);
	rec_codec_free(without);
}

static void test_bodies_that_do_not_shrink_are_stored_raw(void **state)
{
	(void)state;
	rec_codec *c = codec_with_dict();
	eng_buf rec = { 0 };
	uint8_t noise[600];
	fill_random(noise, sizeof noise);
	assert_int_equal(rec_encode(&rec, c, TEST_DICT_ID, noise, sizeof noise, REC_ENC_AUTO, NULL),
	                 H2EMV_OK);
	assert_int_equal(rec.data[1], REC_RAW);
	assert_int_equal(rec_dict_id(rec.data), 0);
	assert_int_equal(rec.len, REC_HEADER + sizeof noise);
	/* under 48 bytes the codec does not even try */
	char small[47];
	memset(small, 'a', sizeof small);
	rec.len = 0;
	assert_int_equal(rec_encode(&rec, c, 0, small, sizeof small, REC_ENC_AUTO, NULL), H2EMV_OK);
	assert_int_equal(rec.data[1], REC_RAW);
	assert_int_equal(rec.len, REC_HEADER + sizeof small);
	eng_buf_free(&rec);
	rec_codec_free(c);
}

static void test_oversize_body_is_refused(void **state)
{
	(void)state;
	rec_codec *c;
	assert_int_equal(rec_codec_new(&c), H2EMV_OK);
	uint8_t *big = calloc(1, (size_t)REC_MAX_BODY + 1);
	assert_non_null(big);
	eng_buf rec = { 0 };
	h2emv_error e = { 0 };
	assert_int_equal(rec_encode(&rec, c, 0, big, (size_t)REC_MAX_BODY + 1, REC_ENC_AUTO, &e),
	                 H2EMV_ELIMIT);
	assert_int_equal(rec.len, 0);
	free(big);
	eng_buf_free(&rec);
	rec_codec_free(c);
}

static void test_flipping_any_byte_is_detected(void **state)
{
	(void)state;
	static const uint8_t patterns[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff, 0x5a };
	rec_codec *c = codec_with_dict();
	three_records t;
	make_three_records(&t, c);
	for (int r = 0; r < 3; r++) {
		eng_buf *rec = &t.rec[r];
		uint8_t *copy = malloc(rec->len);
		assert_non_null(copy);
		for (size_t pos = 0; pos < rec->len; pos++) {
			for (size_t p = 0; p < sizeof patterns; p++) {
				memcpy(copy, rec->data, rec->len);
				copy[pos] ^= patterns[p];
				int rc = decode_copy(c, copy, rec->len);
				if (rc != H2EMV_ECORRUPT)
					fail_msg("codec %d: flipping byte %zu with 0x%02x gave %d", r, pos,
					         patterns[p], rc);
				assert_int_equal(rec_verify(copy, rec->len, NULL), H2EMV_ECORRUPT);
			}
		}
		free(copy);
		/* and the untouched record still decodes */
		assert_round_trip(c, rec, &t.body[r]);
	}
	free_three_records(&t);
	rec_codec_free(c);
}

static void test_truncating_to_any_length_is_detected(void **state)
{
	(void)state;
	rec_codec *c = codec_with_dict();
	three_records t;
	make_three_records(&t, c);
	for (int r = 0; r < 3; r++) {
		for (size_t n = 0; n < t.rec[r].len; n++) {
			int rc = decode_copy(c, t.rec[r].data, n);
			if (rc != H2EMV_ECORRUPT)
				fail_msg("codec %d: truncating to %zu bytes gave %d", r, n, rc);
		}
		/* bytes appended after a record are damage too */
		eng_buf longer = { 0 };
		assert_int_equal(eng_buf_append(&longer, t.rec[r].data, t.rec[r].len), H2EMV_OK);
		assert_int_equal(eng_buf_append(&longer, "\0\0\0\0\0\0\0\0", 8), H2EMV_OK);
		for (size_t extra = 1; extra <= 8; extra++)
			assert_int_equal(decode_copy(c, longer.data, t.rec[r].len + extra), H2EMV_ECORRUPT);
		eng_buf_free(&longer);
	}
	free_three_records(&t);
	rec_codec_free(c);
}

/* A sealed record of `codec` whose payload is `frame`. */
static void sealed_record(eng_buf *out, int codec, uint32_t dict, const void *frame, size_t n)
{
	uint8_t hdr[REC_HEADER] = { REC_FORMAT, (uint8_t)codec, 0, 0, (uint8_t)dict,
		                    (uint8_t)(dict >> 8), (uint8_t)(dict >> 16), (uint8_t)(dict >> 24) };
	out->len = 0;
	assert_int_equal(eng_buf_append(out, hdr, sizeof hdr), H2EMV_OK);
	assert_int_equal(eng_buf_append(out, frame, n), H2EMV_OK);
	seal(out->data, out->len);
}

/* A zstd frame header with an 8-byte content size and one empty raw block. */
static size_t lying_frame(uint8_t *f, uint64_t content_size)
{
	size_t n = 0;
	f[n++] = 0x28, f[n++] = 0xb5, f[n++] = 0x2f, f[n++] = 0xfd; /* magic */
	f[n++] = 0xe0;                                            /* FCS 8 bytes, single segment */
	for (int i = 0; i < 8; i++)
		f[n++] = (uint8_t)(content_size >> (8 * i));
	f[n++] = 0x01, f[n++] = 0x00, f[n++] = 0x00;              /* last block, raw, 0 bytes */
	return n;
}

static void test_frame_declaring_4gb_is_refused_without_allocating(void **state)
{
	(void)state;
	rec_codec *c = codec_with_dict();
	static const uint64_t sizes[] = { 4ull << 30, (uint64_t)REC_MAX_BODY + 1, UINT64_MAX - 3 };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		for (int codec = REC_ZSTD; codec <= REC_ZSTD_DICT; codec++) {
			uint8_t frame[32];
			size_t fn = lying_frame(frame, sizes[i]);
			eng_buf rec = { 0 }, scratch = { 0 };
			sealed_record(&rec, codec, codec == REC_ZSTD_DICT ? TEST_DICT_ID : 0, frame, fn);
			assert_int_equal(rec_verify(rec.data, rec.len, NULL), H2EMV_OK);
			const uint8_t *out;
			size_t n;
			h2emv_error e = { 0 };
			assert_int_equal(rec_decode(&out, &n, &scratch, c, rec.data, rec.len, &e),
			                 H2EMV_ECORRUPT);
			/* refused on the declared size: the scratch buffer was never grown */
			assert_null(scratch.data);
			assert_int_equal(scratch.cap, 0);
			eng_buf_free(&rec);
		}
	}
	rec_codec_free(c);
}

static void test_frame_without_content_size_is_refused(void **state)
{
	(void)state;
	rec_codec *c;
	assert_int_equal(rec_codec_new(&c), H2EMV_OK);
	/* a streaming frame: no content size in the header */
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	assert_non_null(cc);
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0)));
	eng_buf body = { 0 };
	tu_obs_body(&body, 5);
	uint8_t frame[1024];
	ZSTD_inBuffer in = { body.data, body.len, 0 };
	ZSTD_outBuffer zo = { frame, sizeof frame, 0 };
	size_t left = ZSTD_compressStream2(cc, &zo, &in, ZSTD_e_end);
	assert_false(ZSTD_isError(left));
	assert_int_equal(left, 0);
	assert_int_equal(ZSTD_getFrameContentSize(frame, zo.pos), ZSTD_CONTENTSIZE_UNKNOWN);
	eng_buf rec = { 0 }, scratch = { 0 };
	sealed_record(&rec, REC_ZSTD, 0, frame, zo.pos);
	const uint8_t *out;
	size_t n;
	assert_int_equal(rec_decode(&out, &n, &scratch, c, rec.data, rec.len, NULL), H2EMV_ECORRUPT);
	assert_null(scratch.data);
	ZSTD_freeCCtx(cc);
	eng_buf_free(&body);
	eng_buf_free(&rec);
	rec_codec_free(c);
}

static void test_frame_whose_size_lies_is_refused(void **state)
{
	(void)state;
	rec_codec *c;
	assert_int_equal(rec_codec_new(&c), H2EMV_OK);
	eng_buf body = { 0 };
	tu_obs_body(&body, 9);
	assert_true(body.len > 100 && body.len < 255);
	uint8_t frame[1024];
	size_t fn = ZSTD_compress(frame, sizeof frame, body.data, body.len, 3);
	assert_false(ZSTD_isError(fn));
	/* a single-segment frame of < 256 bytes stores its size in byte 5 */
	assert_int_equal(frame[4] & 0xe0, 0x20);
	assert_int_equal(frame[5], body.len);
	for (int delta = -40; delta <= 40; delta += 8) {
		if (delta == 0)
			continue;
		uint8_t lie[1024];
		memcpy(lie, frame, fn);
		lie[5] = (uint8_t)((int)body.len + delta);
		eng_buf rec = { 0 };
		sealed_record(&rec, REC_ZSTD, 0, lie, fn);
		int rc = decode_copy(c, rec.data, rec.len);
		if (rc != H2EMV_ECORRUPT)
			fail_msg("frame declaring %d bytes too %s gave %d", abs(delta),
			         delta < 0 ? "few" : "many", rc);
		eng_buf_free(&rec);
	}
	/* the honest frame, sealed the same way, is fine */
	eng_buf rec = { 0 };
	sealed_record(&rec, REC_ZSTD, 0, frame, fn);
	assert_round_trip(c, &rec, &body);
	eng_buf_free(&rec);
	eng_buf_free(&body);
	rec_codec_free(c);
}

static void test_header_fields_are_checked_behind_the_checksum(void **state)
{
	(void)state;
	rec_codec *c = codec_with_dict();
	eng_buf body = { 0 }, rec = { 0 };
	tu_obs_body(&body, 11);
	/* format byte, unknown codec, reserved bytes, dictionary id vs codec */
	struct { int at; uint8_t val; } edits[] = {
		{ 0, 0x49 }, { 0, 0x00 }, { 1, 3 }, { 1, 0xff }, { 2, 1 }, { 3, 0x80 },
		{ 4, 1 } /* a raw record naming a dictionary */,
	};
	for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
		rec.len = 0;
		assert_int_equal(rec_encode(&rec, c, 0, body.data, body.len, REC_ENC_RAW, NULL), H2EMV_OK);
		rec.data[edits[i].at] = edits[i].val;
		seal(rec.data, rec.len);
		assert_int_equal(rec_verify(rec.data, rec.len, NULL), H2EMV_ECORRUPT);
		assert_int_equal(decode_copy(c, rec.data, rec.len), H2EMV_ECORRUPT);
	}
	/* a dictionary record whose id is 0 */
	rec.len = 0;
	assert_int_equal(rec_encode(&rec, c, TEST_DICT_ID, body.data, body.len, REC_ENC_AUTO, NULL),
	                 H2EMV_OK);
	assert_int_equal(rec.data[1], REC_ZSTD_DICT);
	memset(rec.data + 4, 0, 4);
	seal(rec.data, rec.len);
	assert_int_equal(decode_copy(c, rec.data, rec.len), H2EMV_ECORRUPT);
	/* a raw payload relabelled as zstd */
	rec.len = 0;
	assert_int_equal(rec_encode(&rec, c, 0, body.data, body.len, REC_ENC_RAW, NULL), H2EMV_OK);
	rec.data[1] = REC_ZSTD;
	seal(rec.data, rec.len);
	assert_int_equal(decode_copy(c, rec.data, rec.len), H2EMV_ECORRUPT);
	eng_buf_free(&body);
	eng_buf_free(&rec);
	rec_codec_free(c);
}

static void test_sealed_garbage_frames_never_crash(void **state)
{
	(void)state;
	rec_codec *c = codec_with_dict();
	three_records t;
	make_three_records(&t, c);
	unsigned ok = 0;
	/* damage behind a valid checksum: every byte of the real frames, then noise */
	for (int r = 1; r < 3; r++) {
		eng_buf *rec = &t.rec[r];
		for (size_t pos = REC_HEADER; pos < rec->len; pos++) {
			for (unsigned v = 0; v < 256; v += 5) {
				eng_buf copy = { 0 };
				assert_int_equal(eng_buf_append(&copy, rec->data, rec->len), H2EMV_OK);
				if (copy.data[pos] == (uint8_t)v)
					v++;
				copy.data[pos] = (uint8_t)v;
				seal(copy.data, copy.len);
				int rc = decode_copy(c, copy.data, copy.len);
				assert_true(rc == H2EMV_OK || rc == H2EMV_ECORRUPT);
				ok += rc == H2EMV_OK;
				eng_buf_free(&copy);
			}
		}
	}
	for (int i = 0; i < 3000; i++) {
		uint8_t frame[200];
		size_t n = 4 + rnd() % (sizeof frame - 4);
		fill_random(frame, n);
		frame[0] = 0x28, frame[1] = 0xb5, frame[2] = 0x2f, frame[3] = 0xfd;
		eng_buf rec = { 0 };
		int codec = i % 2 ? REC_ZSTD : REC_ZSTD_DICT;
		sealed_record(&rec, codec, codec == REC_ZSTD_DICT ? TEST_DICT_ID : 0, frame, n);
		int rc = decode_copy(c, rec.data, rec.len);
		assert_true(rc == H2EMV_OK || rc == H2EMV_ECORRUPT);
		eng_buf_free(&rec);
	}
	/* without zstd's own checksum some damage decodes to other bytes; the
	 * record checksum is what catches it (test_flipping_any_byte_is_detected) */
	print_message("%u of the sealed single-byte changes decoded\n", ok);
	free_three_records(&t);
	rec_codec_free(c);
}

/* -------------------------------------------------------------- nodes -- */

static const char utf8_summary[] =
	"Grasped the cup \xe2\x98\x95 in the caf\xc3\xa9 \xe2\x80\x94 "
	"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\nsecond line\n";

static void assert_nodes_equal(const eng_node *a, const eng_node *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->version, b->version);
	assert_int_equal(a->level, b->level);
	assert_int_equal(a->kind, b->kind);
	assert_true(a->t_start == b->t_start);
	assert_true(a->t_end == b->t_end);
	assert_true(a->expiry == b->expiry);
	assert_int_equal(a->born, b->born);
	assert_int_equal(a->content_hash, b->content_hash);
	assert_int_equal(a->summary_len, b->summary_len);
	if (a->summary_len)
		assert_memory_equal(a->summary, b->summary, a->summary_len);
	assert_int_equal(a->payload_len, b->payload_len);
	if (a->payload_len)
		assert_memory_equal(a->payload, b->payload, a->payload_len);
	assert_int_equal(a->n_children, b->n_children);
	for (uint32_t i = 0; i < a->n_children; i++) {
		assert_int_equal(a->children[i].id, b->children[i].id);
		assert_int_equal(a->children[i].version, b->children[i].version);
	}
}

static eng_node *round_trip_node(const eng_node *n)
{
	eng_buf body = { 0 };
	h2emv_error e = { 0 };
	assert_int_equal(node_encode(&body, n, &e), H2EMV_OK);
	assert_int_equal(mp_prescan(body.data, body.len, MP_MAX_DEPTH, NULL), H2EMV_OK);
	eng_node *back = NULL;
	/* an exact-size copy so ASan sees any over-read */
	uint8_t *copy = malloc(body.len);
	assert_non_null(copy);
	memcpy(copy, body.data, body.len);
	assert_int_equal(node_decode(&back, copy, body.len, &e), H2EMV_OK);
	free(copy);
	eng_buf_free(&body);
	/* decoded strings are NUL-terminated */
	assert_int_equal(back->summary[back->summary_len], 0);
	return back;
}

static void test_node_round_trips_every_field(void **state)
{
	(void)state;
	eng_buf payload = { 0 };
	msgpack_packer pk;
	msgpack_packer_init(&pk, &payload, tu_buf_write);
	msgpack_pack_map(&pk, 2);
	tu_pack_str(&pk, "objects");
	msgpack_pack_array(&pk, 1);
	tu_pack_str(&pk, "cup");
	tu_pack_str(&pk, "pose");
	msgpack_pack_array(&pk, 3);
	msgpack_pack_double(&pk, 0.5);
	msgpack_pack_double(&pk, -1.25);
	msgpack_pack_double(&pk, 2.0);
	eng_ref kids[] = { { 1, 1 }, { 2, 7 }, { UINT64_MAX, UINT32_MAX }, { 1ull << 40, 0 },
		           { 5, 1u << 31 } };
	eng_node n = {
		.id = 0x0123456789abcdefull, .version = 4000000000u, .level = 4,
		.kind = H2EMV_KIND_SUMMARY, .t_start = -86400000000ll, .t_end = 1719431337123456ll,
		.expiry = H2EMV_TIME_NEVER, .born = 123456789012ull, .content_hash = 0xfeedfacecafebeefull,
		.summary = (char *)utf8_summary, .summary_len = sizeof utf8_summary - 1,
		.payload = payload.data, .payload_len = payload.len,
		.children = kids, .n_children = 5,
	};
	eng_node *back = round_trip_node(&n);
	assert_nodes_equal(&n, back);
	assert_string_equal(back->summary, utf8_summary);
	free(back);
	/* the extremes of the signed fields */
	n.t_start = INT64_MIN;
	n.t_end = INT64_MAX;
	n.expiry = -1;
	back = round_trip_node(&n);
	assert_nodes_equal(&n, back);
	free(back);
	eng_buf_free(&payload);
}

static void test_node_round_trips_with_nothing_optional(void **state)
{
	(void)state;
	eng_node n = { .id = 1, .version = 1, .level = 1, .kind = H2EMV_KIND_SCENE };
	eng_node *back = round_trip_node(&n);
	assert_nodes_equal(&n, back);
	assert_non_null(back->summary);
	assert_string_equal(back->summary, "");
	assert_null(back->payload);
	assert_int_equal(back->n_children, 0);
	free(back);
}

static void test_node_round_trips_at_its_size_limits(void **state)
{
	(void)state;
	char *summary = malloc(NODE_MAX_SUMMARY + 1);
	uint8_t *payload = malloc(NODE_MAX_PAYLOAD + 1);
	eng_ref *kids = calloc(NODE_MAX_CHILDREN + 1, sizeof *kids);
	assert_non_null(summary);
	assert_non_null(payload);
	assert_non_null(kids);
	memset(summary, 'x', NODE_MAX_SUMMARY + 1);
	fill_random(payload, NODE_MAX_PAYLOAD + 1);
	for (uint32_t i = 0; i <= NODE_MAX_CHILDREN; i++)
		kids[i] = (eng_ref){ i + 1, i % 3 + 1 };
	eng_node n = {
		.id = 9, .version = 2, .level = 5, .kind = H2EMV_KIND_ROOT, .expiry = H2EMV_TIME_NEVER,
		.summary = summary, .summary_len = NODE_MAX_SUMMARY,
		.payload = payload, .payload_len = NODE_MAX_PAYLOAD,
		.children = kids, .n_children = NODE_MAX_CHILDREN,
	};
	eng_node *back = round_trip_node(&n);
	assert_nodes_equal(&n, back);
	free(back);
	eng_buf body = { 0 };
	n.summary_len++;
	assert_int_equal(node_encode(&body, &n, NULL), H2EMV_ELIMIT);
	n.summary_len--;
	n.payload_len++;
	assert_int_equal(node_encode(&body, &n, NULL), H2EMV_ELIMIT);
	n.payload_len--;
	n.n_children++;
	assert_int_equal(node_encode(&body, &n, NULL), H2EMV_ELIMIT);
	eng_buf_free(&body);
	free(summary);
	free(payload);
	free(kids);
}

/* Whatever node_encode accepts, node_decode must read back: a store must
 * never commit a node version that no reader can open afterwards. */
static void test_what_node_encode_accepts_node_decode_reads_back(void **state)
{
	(void)state;
	static const char with_nul[] = "left\0right";
	struct {
		const char *what;
		eng_node n;
	} cases[] = {
		{ "kind 0", { .id = 1, .version = 1, .level = 1, .kind = 0 } },
		{ "kind 7", { .id = 1, .version = 1, .level = 1, .kind = 7 } },
		{ "kind 255", { .id = 1, .version = 1, .level = 1, .kind = 255 } },
		{ "a summary holding a NUL byte",
		  { .id = 1, .version = 1, .level = 1, .kind = H2EMV_KIND_SCENE,
		    .summary = (char *)with_nul, .summary_len = sizeof with_nul - 1 } },
	};
	int failures = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		eng_buf body = { 0 };
		h2emv_error e = { 0 };
		int erc = node_encode(&body, &cases[i].n, &e);
		if (erc == H2EMV_OK) {
			eng_node *back = NULL;
			int drc = node_decode(&back, body.data, body.len, &e);
			if (drc != H2EMV_OK) {
				print_error("node_encode accepted %s but node_decode refuses it (%d: %s)\n",
				            cases[i].what, drc, e.message);
				failures++;
			}
			free(back);
		}
		eng_buf_free(&body);
	}
	assert_int_equal(failures, 0);
}

/* The fields of a node body (see engine/node.c), each packable with a
 * substitute value so each field can be given the wrong type. */
enum wrong {
	W_NONE, W_NIL, W_STR, W_NEG, W_FLOAT, W_ARRAY, W_MAP, W_BIN, W_TRUE, W_U64MAX, W_U32OVER,
	W_U8OVER, W_I64OVER, W_ZERO, W_SEVEN, W_TWO, W_ODD_KIDS, W_KID_NEG, W_KID_VER_OVER,
	W_KID_NESTED,
};

static void pack_wrong(msgpack_packer *pk, enum wrong w)
{
	switch (w) {
	case W_NIL: msgpack_pack_nil(pk); break;
	case W_STR: tu_pack_str(pk, "x"); break;
	case W_NEG: msgpack_pack_int64(pk, -1); break;
	case W_FLOAT: msgpack_pack_double(pk, 1.5); break;
	case W_ARRAY: msgpack_pack_array(pk, 0); break;
	case W_MAP: msgpack_pack_map(pk, 0); break;
	case W_BIN: msgpack_pack_bin_with_body(pk, "x", 1); break;
	case W_TRUE: msgpack_pack_true(pk); break;
	case W_U64MAX: msgpack_pack_uint64(pk, UINT64_MAX); break;
	case W_U32OVER: msgpack_pack_uint64(pk, (uint64_t)UINT32_MAX + 1); break;
	case W_U8OVER: msgpack_pack_uint64(pk, 256); break;
	case W_I64OVER: msgpack_pack_uint64(pk, (uint64_t)INT64_MAX + 1); break;
	case W_ZERO: msgpack_pack_uint64(pk, 0); break;
	case W_SEVEN: msgpack_pack_uint64(pk, 7); break;
	case W_TWO: msgpack_pack_uint64(pk, 2); break;
	case W_ODD_KIDS:
		msgpack_pack_array(pk, 3);
		msgpack_pack_uint64(pk, 1);
		msgpack_pack_uint64(pk, 1);
		msgpack_pack_uint64(pk, 2);
		break;
	case W_KID_NEG:
		msgpack_pack_array(pk, 2);
		msgpack_pack_int64(pk, -5);
		msgpack_pack_uint64(pk, 1);
		break;
	case W_KID_VER_OVER:
		msgpack_pack_array(pk, 2);
		msgpack_pack_uint64(pk, 5);
		msgpack_pack_uint64(pk, (uint64_t)UINT32_MAX + 1);
		break;
	case W_KID_NESTED:
		msgpack_pack_array(pk, 2);
		msgpack_pack_array(pk, 2);
		msgpack_pack_uint64(pk, 5);
		msgpack_pack_uint64(pk, 1);
		msgpack_pack_uint64(pk, 1);
		break;
	case W_NONE: break;
	}
}

/* A node body with field `field` replaced by `w` (field -1: none). */
static void pack_node_body(eng_buf *out, int field, enum wrong w, size_t n_fields)
{
	msgpack_packer pk;
	out->len = 0;
	msgpack_packer_init(&pk, out, tu_buf_write);
	msgpack_pack_array(&pk, n_fields);
	for (int f = 0; f < (int)n_fields; f++) {
		if (f == field) {
			pack_wrong(&pk, w);
			continue;
		}
		switch (f) {
		case 0: msgpack_pack_uint8(&pk, 1); break;
		case 1: msgpack_pack_uint64(&pk, 42); break;
		case 2: msgpack_pack_uint32(&pk, 3); break;
		case 3: msgpack_pack_uint8(&pk, 2); break;
		case 4: msgpack_pack_uint8(&pk, H2EMV_KIND_EVENT); break;
		case 5: msgpack_pack_int64(&pk, 1000); break;
		case 6: msgpack_pack_int64(&pk, 2000); break;
		case 7: msgpack_pack_int64(&pk, H2EMV_TIME_NEVER); break;
		case 8: msgpack_pack_uint64(&pk, 17); break;
		case 9: msgpack_pack_uint64(&pk, 0xabcdef); break;
		case 10: tu_pack_str(&pk, "Opened the fridge"); break;
		case 11: msgpack_pack_bin_with_body(&pk, "\x80", 1); break;
		case 12:
			msgpack_pack_array(&pk, 4);
			msgpack_pack_uint64(&pk, 43);
			msgpack_pack_uint32(&pk, 1);
			msgpack_pack_uint64(&pk, 44);
			msgpack_pack_uint32(&pk, 2);
			break;
		default: msgpack_pack_nil(&pk); break;
		}
	}
}

typedef struct bad_field {
	int field;
	enum wrong w;
} bad_field;

static int decode_status(const void *body, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	if (len)
		memcpy(copy, body, len);
	eng_node *n = NULL;
	h2emv_error e = { 0 };
	int rc = node_decode(&n, copy, len, &e);
	if (rc == H2EMV_OK) {
		assert_non_null(n);
		assert_int_equal(n->summary[n->summary_len], 0);
		assert_true(n->summary_len <= NODE_MAX_SUMMARY);
		assert_true(n->payload_len <= NODE_MAX_PAYLOAD);
		assert_true(n->n_children <= NODE_MAX_CHILDREN);
		free(n);
	} else {
		assert_null(n);
		assert_int_equal(e.status, rc);
		assert_true(e.message[0] != 0);
	}
	free(copy);
	return rc;
}

static void test_node_decode_refuses_wrong_types_in_each_field(void **state)
{
	(void)state;
	eng_buf body = { 0 };
	pack_node_body(&body, -1, W_NONE, 13);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_OK);
	static const enum wrong not_uint[] = { W_NIL, W_STR, W_NEG, W_FLOAT, W_ARRAY, W_MAP, W_BIN,
		                               W_TRUE };
	static const enum wrong not_int[] = { W_NIL, W_STR, W_FLOAT, W_ARRAY, W_MAP, W_BIN, W_TRUE,
		                              W_I64OVER, W_U64MAX };
	bad_field bad[96];
	size_t nb = 0;
	for (int f = 0; f <= 4; f++)
		for (size_t i = 0; i < sizeof not_uint / sizeof *not_uint; i++)
			bad[nb++] = (bad_field){ f, not_uint[i] };
	for (int f = 5; f <= 7; f++)
		for (size_t i = 0; i < sizeof not_int / sizeof *not_int; i++)
			bad[nb++] = (bad_field){ f, not_int[i] };
	static const bad_field more[] = {
		{ 0, W_TWO }, { 0, W_ZERO }, { 2, W_U32OVER }, { 3, W_U8OVER }, { 4, W_ZERO },
		{ 4, W_SEVEN }, { 8, W_NEG }, { 8, W_STR }, { 9, W_NEG }, { 9, W_FLOAT },
		{ 10, W_NIL }, { 10, W_BIN }, { 10, W_NEG }, { 10, W_ARRAY },
		{ 11, W_STR }, { 11, W_TRUE }, { 11, W_ARRAY }, { 11, W_NEG },
		{ 12, W_NIL }, { 12, W_MAP }, { 12, W_STR }, { 12, W_ODD_KIDS }, { 12, W_KID_NEG },
		{ 12, W_KID_VER_OVER }, { 12, W_KID_NESTED },
	};
	for (size_t i = 0; i < sizeof more / sizeof *more; i++)
		bad[nb++] = more[i];
	assert_true(nb <= sizeof bad / sizeof *bad);
	for (size_t i = 0; i < nb; i++) {
		pack_node_body(&body, bad[i].field, bad[i].w, 13);
		int rc = decode_status(body.data, body.len);
		if (rc != H2EMV_ECORRUPT)
			fail_msg("field %d with wrong value #%d gave %d", bad[i].field, (int)bad[i].w, rc);
	}
	/* the right types at the edges of their ranges are fine */
	pack_node_body(&body, 1, W_U64MAX, 13);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_OK);
	pack_node_body(&body, 5, W_NEG, 13);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_OK);
	pack_node_body(&body, 11, W_NIL, 13);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_OK);
	/* too few or too many fields */
	pack_node_body(&body, -1, W_NONE, 12);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_ECORRUPT);
	pack_node_body(&body, -1, W_NONE, 14);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_ECORRUPT);
	eng_buf_free(&body);
}

static void test_node_decode_refuses_hostile_msgpack(void **state)
{
	(void)state;
	/* headers claiming 2^32 - 1 entries in five bytes */
	static const uint8_t map32[] = { 0xdf, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t arr32[] = { 0xdd, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t str32[] = { 0xdb, 0xff, 0xff, 0xff, 0xff, 'a' };
	static const uint8_t bin32[] = { 0xc6, 0xff, 0xff, 0xff, 0xff, 'a' };
	assert_int_equal(decode_status(map32, sizeof map32), H2EMV_ECORRUPT);
	assert_int_equal(decode_status(arr32, sizeof arr32), H2EMV_ECORRUPT);
	assert_int_equal(decode_status(str32, sizeof str32), H2EMV_ECORRUPT);
	assert_int_equal(decode_status(bin32, sizeof bin32), H2EMV_ECORRUPT);
	/* the real field list, with the children claiming 2^32 - 1 entries */
	eng_buf body = { 0 };
	pack_node_body(&body, 12, W_ARRAY, 13);
	assert_int_equal(body.data[body.len - 1], 0x90);
	body.len--;
	assert_int_equal(eng_buf_append(&body, arr32, sizeof arr32), H2EMV_OK);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_ECORRUPT);
	/* nesting 100 deep */
	uint8_t deep[101];
	memset(deep, 0x91, 100);
	deep[100] = 0xc0;
	assert_int_equal(decode_status(deep, sizeof deep), H2EMV_ECORRUPT);
	/* the same bytes as a node's payload are fine: the payload is opaque */
	eng_node opaque = { .id = 5, .version = 1, .level = 1, .kind = H2EMV_KIND_SCENE,
		       .summary = "deep", .summary_len = 4, .payload = deep, .payload_len = sizeof deep };
	eng_node *back = round_trip_node(&opaque);
	assert_nodes_equal(&opaque, back);
	free(back);
	/* trailing bytes after a valid body */
	pack_node_body(&body, -1, W_NONE, 13);
	size_t good = body.len;
	assert_int_equal(eng_buf_append(&body, "\xc0", 1), H2EMV_OK);
	assert_int_equal(decode_status(body.data, body.len), H2EMV_ECORRUPT);
	/* truncated to every length */
	for (size_t n = 0; n < good; n++)
		if (decode_status(body.data, n) != H2EMV_ECORRUPT)
			fail_msg("a node body truncated to %zu of %zu bytes decoded", n, good);
	/* the reserved type byte, a map where the array belongs, an empty body */
	assert_int_equal(decode_status("\xc1", 1), H2EMV_ECORRUPT);
	assert_int_equal(decode_status("\x80", 1), H2EMV_ECORRUPT);
	assert_int_equal(decode_status("", 0), H2EMV_ECORRUPT);
	eng_buf_free(&body);
}

static void test_node_decode_survives_every_single_byte_change(void **state)
{
	(void)state;
	eng_buf body = { 0 };
	pack_node_body(&body, -1, W_NONE, 13);
	unsigned refused = 0;
	for (size_t pos = 0; pos < body.len; pos++) {
		for (unsigned v = 0; v < 256; v++) {
			uint8_t old = body.data[pos];
			if (old == v)
				continue;
			body.data[pos] = (uint8_t)v;
			refused += decode_status(body.data, body.len) == H2EMV_ECORRUPT;
			body.data[pos] = old;
		}
	}
	/* at least every other first byte breaks the 13-field array */
	assert_true(refused >= 254);
	/* and random bytes: refused, never a crash */
	for (int i = 0; i < 20000; i++) {
		uint8_t junk[64];
		size_t n = rnd() % sizeof junk;
		fill_random(junk, n);
		assert_int_equal(decode_status(junk, n), H2EMV_ECORRUPT);
	}
	eng_buf_free(&body);
}

/* ---------------------------------------------------------- mp_prescan -- */

static void test_prescan_accepts_every_msgpack_type(void **state)
{
	(void)state;
	static const struct { const char *what; const char *bytes; size_t n; } ok[] = {
		{ "nil", "\xc0", 1 }, { "false", "\xc2", 1 }, { "true", "\xc3", 1 },
		{ "fixint", "\x7f", 1 }, { "negative fixint", "\xe0", 1 },
		{ "uint8", "\xcc\xff", 2 }, { "uint16", "\xcd\xff\xff", 3 },
		{ "uint32", "\xce\x01\x02\x03\x04", 5 }, { "uint64", "\xcf\x01\x02\x03\x04\x05\x06\x07\x08", 9 },
		{ "int8", "\xd0\x80", 2 }, { "int16", "\xd1\x80\x00", 3 },
		{ "int32", "\xd2\x80\x00\x00\x00", 5 }, { "int64", "\xd3\x80\x00\x00\x00\x00\x00\x00\x00", 9 },
		{ "float32", "\xca\x3f\x80\x00\x00", 5 }, { "float64", "\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00", 9 },
		{ "fixstr", "\xa3""abc", 4 }, { "str8", "\xd9\x02""ab", 4 }, { "str16", "\xda\x00\x01""a", 4 },
		{ "str32", "\xdb\x00\x00\x00\x01""a", 6 }, { "bin8", "\xc4\x01""a", 3 },
		{ "bin16", "\xc5\x00\x02""ab", 5 }, { "bin32", "\xc6\x00\x00\x00\x00", 5 },
		{ "fixext1", "\xd4\x01""a", 3 }, { "fixext2", "\xd5\x01""ab", 4 },
		{ "fixext4", "\xd6\x01""abcd", 6 }, { "fixext8", "\xd7\x01""abcdefgh", 10 },
		{ "fixext16", "\xd8\x01""abcdefghijklmnop", 18 }, { "ext8", "\xc7\x02\x05""ab", 5 },
		{ "ext16", "\xc8\x00\x01\x05""a", 5 }, { "ext32", "\xc9\x00\x00\x00\x01\x05""a", 7 },
		{ "fixarray", "\x92\x01\xc0", 3 }, { "array16", "\xdc\x00\x02\x01\x02", 5 },
		{ "array32", "\xdd\x00\x00\x00\x01\xc3", 6 }, { "fixmap", "\x81\x01\x02", 3 },
		{ "map16", "\xde\x00\x01\xa1""k\x90", 6 }, { "map32", "\xdf\x00\x00\x00\x01\x01\x80", 7 },
		{ "empty containers", "\x93\x90\x80\xa0", 4 },
	};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		uint8_t buf[32];
		size_t n = ok[i].n;
		memcpy(buf, ok[i].bytes, n);
		if (mp_prescan(buf, n, MP_MAX_DEPTH, NULL) != H2EMV_OK)
			fail_msg("%s was refused", ok[i].what);
		/* every strict prefix is truncated, one more byte is trailing */
		for (size_t k = 0; k < n; k++) {
			uint8_t *p = malloc(k ? k : 1);
			memcpy(p, buf, k);
			if (mp_prescan(p, k, MP_MAX_DEPTH, NULL) != H2EMV_ECORRUPT)
				fail_msg("%s truncated to %zu bytes was accepted", ok[i].what, k);
			free(p);
		}
		buf[n] = 0xc0;
		if (mp_prescan(buf, n + 1, MP_MAX_DEPTH, NULL) != H2EMV_ECORRUPT)
			fail_msg("%s with a trailing byte was accepted", ok[i].what);
	}
}

static void test_prescan_refuses_lying_lengths_and_reserved_bytes(void **state)
{
	(void)state;
	static const struct { const char *what; const char *bytes; size_t n; } bad[] = {
		{ "reserved 0xc1", "\xc1", 1 },
		{ "str32 of 4 GiB", "\xdb\xff\xff\xff\xff""abc", 8 },
		{ "bin32 of 4 GiB", "\xc6\xff\xff\xff\xff""abc", 8 },
		{ "ext32 of 4 GiB", "\xc9\xff\xff\xff\xff\x01""abc", 9 },
		{ "ext8 missing its type", "\xc7\x00", 2 },
		{ "array32 of 2^32-1", "\xdd\xff\xff\xff\xff\xc0\xc0", 7 },
		{ "map32 of 2^32-1", "\xdf\xff\xff\xff\xff\xc0\xc0", 7 },
		{ "map16 with a key and no value", "\xde\x00\x01\x01", 4 },
		{ "fixmap of 2 with 3 values", "\x82\x01\x02\x03", 4 },
		{ "array16 one short", "\xdc\x00\x03\x01\x02", 5 },
		{ "array holding 0xc1", "\x92\x01\xc1", 3 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		h2emv_error e = { 0 };
		if (mp_prescan(bad[i].bytes, bad[i].n, MP_MAX_DEPTH, &e) != H2EMV_ECORRUPT)
			fail_msg("%s was accepted", bad[i].what);
		assert_int_equal(e.status, H2EMV_ECORRUPT);
		assert_non_null(strstr(e.message, "msgpack"));
	}
	assert_int_equal(mp_prescan("", 0, MP_MAX_DEPTH, NULL), H2EMV_ECORRUPT);
}

static void test_prescan_limits_nesting_depth(void **state)
{
	(void)state;
	uint8_t buf[128];
	for (int depth = 1; depth <= 100; depth++) {
		memset(buf, 0x91, (size_t)depth);
		buf[depth] = 0xc0;
		int want = depth <= MP_MAX_DEPTH ? H2EMV_OK : H2EMV_ECORRUPT;
		assert_int_equal(mp_prescan(buf, (size_t)depth + 1, MP_MAX_DEPTH, NULL), want);
		/* the same nesting through maps: {1: {1: ... nil}} */
		if (2 * (size_t)depth + 1 > sizeof buf)
			continue;
		for (int i = 0; i < depth; i++) {
			buf[2 * i] = 0x81;
			buf[2 * i + 1] = 0x01;
		}
		buf[2 * depth] = 0xc0;
		assert_int_equal(mp_prescan(buf, 2 * (size_t)depth + 1, MP_MAX_DEPTH, NULL), want);
	}
	/* an empty container still counts as a level */
	assert_int_equal(mp_prescan("\x91\x91\x90", 3, 3, NULL), H2EMV_OK);
	assert_int_equal(mp_prescan("\x91\x91\x91\x90", 4, 3, NULL), H2EMV_ECORRUPT);
	assert_int_equal(mp_prescan("\x91\xc0", 2, 0, NULL), H2EMV_ECORRUPT);
	assert_int_equal(mp_prescan("\xc0", 1, 0, NULL), H2EMV_OK);
}

/* ---------------------------------------------------------- tombstones -- */

static void test_tombstone_keeps_time_range_and_first_line_only(void **state)
{
	(void)state;
	static const char summary[] = "Put the red mug in the dishwasher\n"
	                              "Alice said her PIN is 4711\nthird line";
	static const uint8_t payload[] = { 0x81, 0xa1, 'k', 0xa1, 'v' };
	eng_ref kids[] = { { 10, 1 }, { 11, 3 } };
	eng_node *src = malloc(sizeof *src);
	assert_non_null(src);
	*src = (eng_node){
		.id = 77, .version = 4, .level = 2, .kind = H2EMV_KIND_EVENT, .t_start = 1000,
		.t_end = 5000, .expiry = 900000, .born = 12, .content_hash = 0x1234,
		.summary = strdup(summary), .summary_len = sizeof summary - 1,
		.payload = (uint8_t *)payload, .payload_len = sizeof payload,
		.children = kids, .n_children = 2,
	};
	eng_node *t = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(node_tombstone(&t, src, &e), H2EMV_OK);
	/* the placeholder must not borrow from its source */
	free(src->summary);
	free(src);
	assert_int_equal(t->id, 77);
	assert_int_equal(t->version, 5);
	assert_int_equal(t->level, 2);
	assert_int_equal(t->kind, H2EMV_KIND_FORGOTTEN);
	assert_true(t->t_start == 1000);
	assert_true(t->t_end == 5000);
	assert_true(t->expiry == 900000);
	assert_string_equal(t->summary, "Put the red mug in the dishwasher");
	assert_int_equal(t->summary_len, strlen("Put the red mug in the dishwasher"));
	assert_int_equal(t->n_children, 0);
	assert_int_equal(t->payload_len, 0);
	assert_null(t->payload);
	/* it is an ordinary node body */
	eng_node *back = round_trip_node(t);
	assert_nodes_equal(t, back);
	free(back);
	free(t);
}

static void test_tombstone_of_edge_summaries(void **state)
{
	(void)state;
	struct { const char *in, *first; } cases[] = {
		{ "one line only", "one line only" }, { "\nstarts with a newline", "" }, { "", "" },
		{ "ends with a newline\n", "ends with a newline" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		eng_node src = { .id = 3, .version = 1, .level = 1, .kind = H2EMV_KIND_SCENE,
			         .summary = (char *)cases[i].in, .summary_len = strlen(cases[i].in) };
		eng_node *t = NULL;
		assert_int_equal(node_tombstone(&t, &src, NULL), H2EMV_OK);
		assert_string_equal(t->summary, cases[i].first);
		assert_int_equal(t->summary_len, strlen(cases[i].first));
		free(t);
	}
	eng_node last = { .id = 3, .version = UINT32_MAX, .level = 1, .kind = H2EMV_KIND_SCENE };
	eng_node *t = NULL;
	assert_int_equal(node_tombstone(&t, &last, NULL), H2EMV_ELIMIT);
	assert_null(t);
}

/* Decoding a node must not cost far more memory than the node limits
 * allow: a record that decompresses to megabytes of one-byte msgpack values
 * is small on disk. Measures peak RSS around one node_decode call. */
static long peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long kb = -1;
	while (kb < 0 && fgets(line, sizeof line, f))
		if (strncmp(line, "VmHWM:", 6) == 0)
			kb = strtol(line + 6, NULL, 10);
	fclose(f);
	return kb;
}

static int reset_peak_rss(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return -1;
	int ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static void test_node_decode_memory_is_bounded_by_node_limits(void **state)
{
	(void)state;
	/* 8 Mi nil children: valid msgpack, far beyond NODE_MAX_CHILDREN */
	const uint32_t n = 8u << 20;
	eng_buf body = { 0 };
	pack_node_body(&body, 12, W_ARRAY, 13);
	body.len--;
	uint8_t hdr[5] = { 0xdd, (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n };
	assert_int_equal(eng_buf_append(&body, hdr, 5), H2EMV_OK);
	assert_int_equal(eng_buf_reserve(&body, n), H2EMV_OK);
	memset(body.data + body.len, 0xc0, n);
	body.len += n;
	if (reset_peak_rss() != 0 || peak_rss_kb() < 0) {
		eng_buf_free(&body);
		tu_skip("H2EMV_REQUIRE_PROC", "no /proc/self/clear_refs or peak RSS in /proc here");
	}
	long before = peak_rss_kb();
	eng_node *out = NULL;
	assert_int_equal(node_decode(&out, body.data, body.len, NULL), H2EMV_ECORRUPT);
	long grew_mb = (peak_rss_kb() - before) / 1024;
	eng_buf_free(&body);
	if (grew_mb > 64)
		fail_msg("refusing an 8 MiB node body took %ld MiB more memory", grew_mb);
}

/* The small uint64 lists (meta counters, pins, dead entries, snapshots) keep
 * the fixed-width bytes docs/formats.md gives, and read any integer form. */
static void test_u64_lists_keep_fixed_width_and_read_any_form(void **state)
{
	(void)state;
	const uint64_t v[2] = { 7, 1ull << 40 };
	static const uint8_t fixed[] = { 0x92, 0xcf, 0, 0, 0, 0, 0, 0, 0, 7,
		                             0xcf, 0, 0, 1, 0, 0, 0, 0, 0 };
	eng_buf b = { 0 };
	assert_int_equal(mp_encode_u64s(&b, v, 2), H2EMV_OK);
	assert_int_equal(b.len, sizeof fixed);
	assert_memory_equal(b.data, fixed, sizeof fixed);
	eng_buf_free(&b);
	uint64_t got[2] = { 0 };
	assert_int_equal(mp_decode_u64s(got, 2, fixed, sizeof fixed), H2EMV_OK);
	assert_true(got[0] == v[0] && got[1] == v[1]);
	/* what a packer choosing the smallest form writes */
	static const uint8_t shortest[] = { 0x92, 0x07, 0xcf, 0, 0, 1, 0, 0, 0, 0, 0 };
	memset(got, 0, sizeof got);
	assert_int_equal(mp_decode_u64s(got, 2, shortest, sizeof shortest), H2EMV_OK);
	assert_true(got[0] == v[0] && got[1] == v[1]);
	static const uint8_t mid[] = { 0x91, 0xcd, 0x01, 0x2c };
	assert_int_equal(mp_decode_u64s(got, 1, mid, sizeof mid), H2EMV_OK);
	assert_true(got[0] == 300);
	static const struct {
		const char *what, *bytes;
		size_t len, n;
	} bad[] = {
		{ "empty", "", 0, 1 },
		{ "count differs", "\x92\x01\x02", 3, 1 },
		{ "negative", "\x91\xff", 2, 1 },
		{ "a string", "\x91\xa1x", 3, 1 },
		{ "nested", "\x91\x91\x01", 3, 1 },
		{ "trailing", "\x91\x01\x01", 3, 1 },
		{ "truncated", "\x91\xcf\x00\x00", 4, 1 },
		{ "a map", "\x81\x01\x01", 3, 1 },
		{ "lying count", "\xdd\xff\xff\xff\xff\x01", 6, 1 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (mp_decode_u64s(got, bad[i].n, (const uint8_t *)bad[i].bytes, bad[i].len) !=
		    H2EMV_ECORRUPT)
			fail_msg("%s: not ECORRUPT", bad[i].what);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_record_round_trips),
		cmocka_unit_test(test_compressible_record_round_trips_as_zstd),
		cmocka_unit_test(test_dictionary_record_round_trips_and_is_smaller),
		cmocka_unit_test(test_dictionary_record_without_its_dictionary_is_corrupt),
		cmocka_unit_test(test_bodies_that_do_not_shrink_are_stored_raw),
		cmocka_unit_test(test_oversize_body_is_refused),
		cmocka_unit_test(test_flipping_any_byte_is_detected),
		cmocka_unit_test(test_truncating_to_any_length_is_detected),
		cmocka_unit_test(test_frame_declaring_4gb_is_refused_without_allocating),
		cmocka_unit_test(test_frame_without_content_size_is_refused),
		cmocka_unit_test(test_frame_whose_size_lies_is_refused),
		cmocka_unit_test(test_header_fields_are_checked_behind_the_checksum),
		cmocka_unit_test(test_sealed_garbage_frames_never_crash),
		cmocka_unit_test(test_node_round_trips_every_field),
		cmocka_unit_test(test_node_round_trips_at_its_size_limits),
		cmocka_unit_test(test_what_node_encode_accepts_node_decode_reads_back),
		cmocka_unit_test(test_node_decode_refuses_wrong_types_in_each_field),
		cmocka_unit_test(test_node_decode_refuses_hostile_msgpack),
		cmocka_unit_test(test_node_decode_survives_every_single_byte_change),
		cmocka_unit_test(test_node_decode_memory_is_bounded_by_node_limits),
		cmocka_unit_test(test_prescan_accepts_every_msgpack_type),
		cmocka_unit_test(test_prescan_refuses_lying_lengths_and_reserved_bytes),
		cmocka_unit_test(test_prescan_limits_nesting_depth),
		cmocka_unit_test(test_u64_lists_keep_fixed_width_and_read_any_form),
		cmocka_unit_test(test_tombstone_keeps_time_range_and_first_line_only),
		cmocka_unit_test(test_tombstone_of_edge_summaries),
		/* last: under UBSan the engine's memchr(NULL, 0, 0) aborts the program */
		cmocka_unit_test(test_node_round_trips_with_nothing_optional),
	};
	return tu_exit(cmocka_run_group_tests(tests, setup_dict, teardown_dict));
}
