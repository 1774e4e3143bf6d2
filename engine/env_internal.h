/*
 * env_internal.h — what the env*.c files share among themselves and no
 * other file uses: the directory's lock and checks (env_dir.c), the
 * read-only transaction of opening (env_record.c), and how long a remap
 * waits for this process's read views.
 */
#ifndef H2EMV_ENV_INTERNAL_H
#define H2EMV_ENV_INTERNAL_H

#include "engine/env.h"

/* seconds a remap (growing the map) waits for the read views to close */
#define GROW_WAIT_SECONDS 10

/* Take DIR/h2emv.lock: shared while the memory is open, exclusive while
 * this process creates it (*creating set). */
int env_take_dir_lock(eng_env *env, int create, int *creating, h2emv_error *err);

/* Can this process write the store in `dir`: the directory, the data file
 * and LMDB's lock file (else 0, *why the errno)? */
int env_store_writable(const char *dir, int *why);

/* Can a reader use LMDB's lock file (else it opens with MDB_NOLOCK)? */
int env_lock_file_usable(const char *dir);

/* The directory exists (made when `create`) and holds a store, or one
 * being created. */
int env_prepare_dir(const char *dir, int create, h2emv_error *err);

/* A read-only transaction outside any view, adopting a map another
 * process grew (MDB_MAP_RESIZED). */
int env_ro_txn_begin(eng_env *env, MDB_env *mdb, MDB_txn **txn);

#endif
