/*
 * observation.h — observations: strict JSON parsing and validation, the
 * canonical msgpack body stored in the log, and the way back to JSON.
 * The format is documented field by field in docs/formats.md.
 */
#ifndef H2EMV_OBSERVATION_H
#define H2EMV_OBSERVATION_H

#include "engine/engine.h"

/* Parse one observation (one JSON object, `len` bytes, not necessarily
 * NUL-terminated) and append its canonical msgpack body to `body`.
 * Strict: unknown fields, wrong types, bad times, invalid UTF-8, trailing
 * garbage and over-size input are errors. On error `err` gets
 * H2EMV_EPARSE or H2EMV_ELIMIT, err->line = `line`, err->column and
 * err->field (e.g. "objects[2].state") set, and `body` is unchanged. */
int obs_from_json(eng_buf *body, const char *json, size_t len, uint64_t line,
                  h2emv_error *err);

/* obs_from_json that also copies the observation's id, if it has one, to
 * id[0..*id_len) (NUL-terminated; `id` has room for OBS_ID_MAX + 1 bytes);
 * *id_len = 0 when it has none. */
int obs_from_json_id(eng_buf *body, char *id, size_t *id_len, const char *json, size_t len,
                     uint64_t line, h2emv_error *err);

/* Render a stored body as canonical JSON (one line, NUL-terminated, no
 * newline). *out is malloc'd. Hostile bytes give H2EMV_ECORRUPT. */
int obs_to_json(char **out, size_t *out_len, const void *body, size_t blen,
                h2emv_error *err);

/* Validate a stored body's structure without rendering it (used by check). */
int obs_body_check(const void *body, size_t blen, h2emv_error *err);
/* A stored body's producer id: 1 and *id (pointing into `body`), *len;
 * 0 when it has none; -1 when the bytes are not a body. */
int obs_body_id(const void **id, size_t *len, const void *body, size_t blen);
/* Does a body keep the UTC offset its t was written in (body key 13)? */
int obs_body_zoned(const void *body, size_t blen);
/* A stored body's end time (its time when it has no end). 0, or -1 when
 * the bytes are not a body obs_from_json wrote. */
int obs_body_end(int64_t *t, const void *body, size_t blen);

#endif
