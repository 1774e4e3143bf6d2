/*
 * obs_ref.h — the reference (jansson) reader of observations, for the
 * differential fuzzer only: obs_from_json_id's former implementation.
 */
#ifndef H2EMV_OBS_REF_H
#define H2EMV_OBS_REF_H

#include "engine/engine.h"

int obs_ref_from_json_id(eng_buf *body, char *id, size_t *id_len, const char *json,
                         size_t len, uint64_t line, h2emv_error *err);

#endif
