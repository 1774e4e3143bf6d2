/*
 * gate.h — the integrity gate, the DAMAGED marker and the bound on values
 * read from the map (gate.c). Private to engine/.
 */
#ifndef H2EMV_GATE_H
#define H2EMV_GATE_H

#include <stddef.h>

#include "engine/env.h"

/* The data file of the store in `dir`. */
void gate_data_path(char *buf, size_t n, const char *dir);

/* Check the store in `dir` before LMDB opens it (pages.h says what is
 * read). A store `check` marked DAMAGED is refused unless `flags` has
 * H2EMV_OPEN_READONLY. H2EMV_OK, ECORRUPT (the message starts with
 * "damaged:"), EIO, ENOMEM. */
int eng_gate(const char *dir, unsigned flags, h2emv_error *err);

/* ECORRUPT if [data, data + size) starts in the map but runs past the end
 * of the data file (reading it would fault); H2EMV_OK otherwise. */
int env_value_sane(eng_env *env, const void *data, size_t size, h2emv_error *err);

#endif
