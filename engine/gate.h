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

/* The term index's databases (index.c), read by name like eng_db_names. */
#define ENG_IX_DBS 2
extern const char *const eng_ix_names[ENG_IX_DBS];

/* Name of database i of the ones the gate and check read: eng_db_names,
 * then eng_ix_names (i < DB_COUNT + ENG_IX_DBS). */
const char *gate_db_name(int i);

/* Before a write (under the write lock): the first and the last path, root
 * to leaf, of every database of the data file at `path`, read by hand. A
 * write appends at the end (observations, node ids, snapshots) and gc
 * deletes from the start; LMDB would copy a damaged page there into the
 * next commit, or read a garbage last key. H2EMV_OK, ECORRUPT (which
 * database and page), EIO, ENOMEM. A few page reads per database. */
int eng_gate_edges(const char *path, h2emv_error *err);

/* Every page of the data file at `path`, read by hand as the gate reads a
 * small store (damage.c: to confirm what LMDB called corrupt before the
 * memory is marked). H2EMV_OK, ECORRUPT (which database and page), EIO,
 * ENOMEM. About 0.6 ms per MiB in the page cache. */
int eng_gate_every_page(const char *path, h2emv_error *err);

/* ECORRUPT if [data, data + size) starts in the map but runs past the end
 * of the data file (reading it would fault); H2EMV_OK otherwise. */
int env_value_sane(eng_env *env, const void *data, size_t size, h2emv_error *err);

/* All of `n` bytes of `p` to fd, again after EINTR (async-signal-safe:
 * the fault guard writes its mark with it); 1 when written. */
int gate_write_all(int fd, const char *p, size_t n);

#endif
