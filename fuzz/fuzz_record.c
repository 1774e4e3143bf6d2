/*
 * fuzz_record.c — the record decoder against hostile bytes (a damaged or
 * forged database value), and the codec's round trip.
 *
 * 1. Any bytes given to rec_decode, then to node_decode / mp_prescan, must
 *    give OK or ECORRUPT: never a crash, never a huge allocation.
 * 2. decode(encode(x)) == x for raw, zstd and zstd-with-dictionary records.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static rec_codec *codec;

/* A fixed "raw content" dictionary: zstd accepts any bytes as one. */
static const char dict_text[] =
	"{\"t\":\"2024-06-26T19:48:57Z\",\"action\":{\"name\":\"Grasp\",\"status\":\"succeeded\"},"
	"\"objects\":[{\"id\":\"cup_0\",\"type\":\"cup\"}],\"goal\":[\"LoadDishwasher\"]}"
	"succeeded running failed preparing aborted kitchen countertop table knife cup";

static void setup(void)
{
	if (codec)
		return;
	if (rec_codec_new(&codec) || rec_codec_add_dict(codec, 7, dict_text, sizeof dict_text, NULL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	eng_buf scratch = { 0 }, rec = { 0 };
	const uint8_t *body;
	size_t blen;
	int rc = rec_decode(&body, &blen, &scratch, codec, data, size, NULL);
	if (rc != H2EMV_OK && rc != H2EMV_ECORRUPT && rc != H2EMV_ENOMEM)
		__builtin_trap();
	if (rc == H2EMV_OK) {
		eng_node *n = NULL;
		if (node_decode(&n, body, blen, NULL) == H2EMV_OK) {
			eng_buf again = { 0 };
			eng_node *m = NULL;
			/* what decodes must encode and decode to the same node */
			if (node_encode(&again, n, NULL) || node_decode(&m, again.data, again.len, NULL) ||
			    m->id != n->id || m->version != n->version || m->n_children != n->n_children ||
			    m->summary_len != n->summary_len ||
			    memcmp(m->summary, n->summary, n->summary_len))
				__builtin_trap();
			free(m);
			eng_buf_free(&again);
		}
		free(n);
		mp_prescan(body, blen, MP_MAX_DEPTH, NULL);
	}
	/* round trip of the input as a body, through every codec */
	for (uint32_t dict = 0; dict <= 7; dict += 7) {
		for (int mode = REC_ENC_RAW; mode <= REC_ENC_AUTO; mode++) {
			rec.len = 0;
			if (rec_encode(&rec, codec, dict, data, size, mode, NULL) != H2EMV_OK)
				continue;
			if (rec_decode(&body, &blen, &scratch, codec, rec.data, rec.len, NULL) ||
			    blen != size || (size && memcmp(body, data, size)))
				__builtin_trap();
		}
	}
	eng_buf_free(&rec);
	eng_buf_free(&scratch);
	return 0;
}
