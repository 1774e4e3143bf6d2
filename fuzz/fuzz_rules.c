/*
 * fuzz_rules.c — the rules version decoder against hostile record bytes, and
 * its round trip.
 *
 * 1. Any bytes given to rules_decode give OK, ECORRUPT or ENOMEM: never a
 *    crash, never a huge allocation.
 * 2. What decodes encodes, and decodes again to the same version.
 */
#include <stdlib.h>
#include <string.h>

#include "api/rules/rules_codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const h2emv_rules *a, const h2emv_rules *b)
{
	if (a->version != b->version || a->parent != b->parent || a->created != b->created ||
	    a->repaired != b->repaired || a->n != b->n || strcmp(a->feedback, b->feedback) ||
	    memcmp(&a->tokens, &b->tokens, sizeof a->tokens))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the key the record is stored under: the first byte, so a corpus of
	 * real bodies (version 1, 2...) reaches the fields behind it */
	if (size < 1)
		return 0;
	uint32_t key = data[0];
	h2emv_rules *r = NULL;
	int rc = rules_decode(&r, data + 1, size - 1, key, NULL);
	if (rc != H2EMV_OK && rc != H2EMV_ECORRUPT && rc != H2EMV_ENOMEM)
		__builtin_trap();
	if (rc != H2EMV_OK)
		return 0;
	eng_buf b = { 0 };
	h2emv_rules *again = NULL;
	rc = rules_encode(&b, r, NULL);
	if (rc == H2EMV_OK) {
		if (rules_decode(&again, b.data, b.len, key, NULL) != H2EMV_OK || !same(r, again))
			__builtin_trap();
	} else if (rc != H2EMV_ENOMEM) {
		__builtin_trap(); /* what the decoder accepts, the encoder must take */
	}
	h2emv_rules_free(again);
	h2emv_rules_free(r);
	eng_buf_free(&b);
	return 0;
}
