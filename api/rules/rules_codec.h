/*
 * rules_codec.h — a rules version's record body as msgpack and back
 * (rules_codec.c), for rules.c, the tests and the fuzz target.
 */
#ifndef H2EMV_RULES_CODEC_H
#define H2EMV_RULES_CODEC_H

#include "api/mem/mem.h"

/* A version with room for n_learned rules after the default (n = 1). */
h2emv_rules *rules_alloc(size_t n_learned);
/* Text a version may hold: at most 4 KiB of UTF-8, no NUL. */
int rules_text_ok(const char *s, size_t n);
/* Append r's body to b: OK, ELIMIT, EINVAL or ENOMEM. */
int rules_encode(eng_buf *b, const h2emv_rules *r, h2emv_error *err);
/* Decode and validate version `key`'s body: OK, ECORRUPT or ENOMEM. */
int rules_decode(h2emv_rules **out, const uint8_t *body, size_t len, uint32_t key,
                 h2emv_error *err);

#endif
