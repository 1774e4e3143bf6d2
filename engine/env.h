/*
 * env.h — what the engine's own files share about the LMDB environment.
 * Private to engine/: this is the only header that includes lmdb.h.
 */
#ifndef H2EMV_ENV_H
#define H2EMV_ENV_H

#include <lmdb.h>
#include <pthread.h>
#include <sys/types.h>

#include "engine/engine.h"

enum {
	DB_META,
	DB_OBS,
	DB_NODES,
	DB_SNAPSHOTS,
	DB_RULES,
	DB_RELCACHE,
	DB_DEAD,
	DB_PINS,
	DB_DICTS,
	DB_COUNT
};

extern const char *const eng_db_names[DB_COUNT];

/* An internal status: the map is full; env_write grows it and retries. */
#define ENG_EMAPFULL (-1000)

/* See mapgate.c. */
typedef struct map_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int readers;   /* read views open in this process */
	int remapping; /* a remap waits or runs: new readers wait */
} map_gate;

void gate_init(map_gate *g);
void gate_destroy(map_gate *g);
void gate_read_enter(map_gate *g);
void gate_read_exit(map_gate *g);
/* Wait (up to wait_seconds; 0 = don't wait) until no reader is open and
 * hold new ones back. H2EMV_OK or H2EMV_EBUSY. */
int gate_remap_begin(map_gate *g, int wait_seconds);
void gate_remap_end(map_gate *g);

struct eng_env {
	MDB_env *mdb;
	MDB_dbi dbi[DB_COUNT];
	char *dir;
	unsigned flags;
	uint64_t map_size, max_map;
	uint32_t dict_train_after;
	uint32_t cur_dict[3];       /* by eng_dict_kind: dictionary new records use */
	uint64_t train_retry_at[3]; /* record count at which to try training again */
	rec_codec *codec;
	pthread_mutex_t wlock;     /* one writer at a time in this process */
	pthread_mutex_t trainlock; /* one dictionary trainer at a time */
	map_gate gate;             /* read views vs. remapping */
	int lockfd;                /* flock: shared while open, exclusive to compact */
	int broken;                /* a commit failed with an I/O error: reopen first */
	int registered;            /* in the process-wide list of open stores */
	dev_t reg_dev;
	ino_t reg_ino;
	uintptr_t map_base;        /* where the data file is mapped (gate.c) */
	uint64_t map_len;
};

struct eng_read {
	eng_env *env;
	MDB_txn *txn;
	eng_buf scratch;
};

/* Turn an LMDB or errno code into an h2emv status with a message. */
int env_err(h2emv_error *err, int mdb_rc, const char *what);

/* Run `fn` inside one write transaction and commit it. On a full map the
 * transaction is aborted, the map grown and `fn` run again, so `fn` must
 * keep no state across calls except through `ctx` it resets itself. */
typedef int (*env_txn_fn)(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err);
int env_write(eng_env *env, env_txn_fn fn, void *ctx, h2emv_error *err);

/* Encode `body` as a record and put it under `key`. */
int env_put_record(MDB_txn *txn, eng_env *env, int db, const void *key, size_t klen,
                   const void *body, size_t blen, unsigned put_flags, uint32_t dict,
                   h2emv_error *err);
/* Get and decode a record; *body valid until the txn ends or scratch changes. */
int env_get_record(const uint8_t **body, size_t *blen, MDB_txn *txn, eng_env *env, int db,
                   const void *key, size_t klen, eng_buf *scratch, h2emv_error *err);
/* Decode a value already fetched. */
int env_decode(const uint8_t **body, size_t *blen, eng_env *env, const MDB_val *v,
               eng_buf *scratch, h2emv_error *err);

/* msgpack unsigned list bodies for meta counters, dead entries, pins. */
int mp_encode_u64s(eng_buf *out, const uint64_t *v, size_t n);
int mp_decode_u64s(uint64_t *v, size_t n, const uint8_t *body, size_t blen);

/* Meta counters. */
int meta_get_u64(uint64_t *out, MDB_txn *txn, eng_env *env, const char *name, h2emv_error *err);
int meta_put_u64(MDB_txn *txn, eng_env *env, const char *name, uint64_t v, h2emv_error *err);

/* Snapshot records. */
int snap_decode(eng_snap *out, const uint8_t *body, size_t blen, h2emv_error *err);
int snap_get_txn(eng_snap *out, MDB_txn *txn, eng_env *env, uint64_t seq, eng_buf *scratch,
                 h2emv_error *err);

/* The database of an enum eng_kv value, or -1. */
int env_kv_db(int db);

/* (Re)load the stored dictionaries into the codec. */
int env_load_dicts(eng_env *env, h2emv_error *err);

/* The largest big-endian u64 key prefix in `dbi` (0 if empty). */
int eng_last_key(uint64_t *out, MDB_txn *txn, MDB_dbi dbi, h2emv_error *err);

/* Close and reopen the LMDB environment (after a failed commit, after
 * compaction). The caller holds wlock and the gate (gate_remap_begin). */
int env_reopen(eng_env *env, h2emv_error *err);

#endif
