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
	DB_OBSIDS, /* added after format 1 shipped: may be missing (eng_open) */
	DB_COUNT
};

extern const char *const eng_db_names[DB_COUNT];

/* An internal status: the map is full; env_write grows it and retries. */
#define ENG_EMAPFULL (-1000)
/* An internal status: another process grew the map; adopt it and retry. */
#define ENG_EMAPRESIZED (-1001)

/* See mapgate.c. */
typedef struct map_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int readers;   /* read views open in this process */
	int remapping; /* a remap waits or runs: new readers wait */
	unsigned epoch; /* remaps begun: a map address found before is stale */
} map_gate;

void gate_init(map_gate *g);
void gate_destroy(map_gate *g);
void gate_read_enter(map_gate *g);
/* As gate_read_enter, but 0 at once (not entered) while a remap waits. */
int gate_read_try_enter(map_gate *g);
void gate_read_exit(map_gate *g);
/* Wait (up to wait_seconds; 0 = don't wait) until no reader is open and
 * hold new ones back. H2EMV_OK or H2EMV_EBUSY. */
int gate_remap_begin(map_gate *g, int wait_seconds);
void gate_remap_end(map_gate *g);

/* One generation of the data file (see gen.c): an LMDB environment of its
 * own. Views and writes hold a reference; the current one holds one more,
 * so a retired generation closes when the last view on it ends. */
typedef struct eng_gen {
	MDB_env *mdb;
	uint64_t num;  /* 0 = DIR/data.mdb, N = DIR/data.N.mdb */
	int refs;      /* under eng_env.genmu */
} eng_gen;

struct eng_env {
	/* The current generation's environment. Only for code that holds wlock
	 * (a writer, which has checked the generation) or runs inside open:
	 * anywhere else take a reference with gen_acquire. */
	MDB_env *mdb;
	/* Handles of the named databases: the same in every generation (LMDB
	 * numbers them in the order they are opened; gen_open checks). */
	MDB_dbi dbi[DB_COUNT];
	eng_gen *gen;              /* the current generation, under genmu */
	uint64_t synced_gen;       /* the generation whose switch this handle made durable
	                              (UINT64_MAX: none yet); under wlock */
	pthread_mutex_t genmu;
	int wlockfd;               /* DIR/h2emv.wlock: flock EX around every write */
	int maint;                 /* > 0 while gc or compaction runs: they may use the reserve */
	uint64_t reserve_next;     /* used bytes at which a writer refreshes the reserve */
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
	int lockfd;                /* flock DIR/h2emv.lock: shared while open (older
	                              h2emv versions took it exclusive to compact) */
	int nolock;                /* read-only, without LMDB's lock file (eng_open) */
	MDB_assert_func *on_assert; /* LMDB's assertion hook for every generation
	                               (env_damage_assert, set by eng_open) */
	int no_obsids;             /* read-only store from before the obsids database */
	uint64_t format_at_least;  /* the format record is known to be >= this (eng_format_raise) */
	int broken;                /* a commit failed with an I/O error: reopen first */
	uint64_t verified_gen;     /* generation + 1 and txnid whose meta pages and free */
	uint64_t verified_txnid;   /* list a writer last verified (env_write); under wlock */
	uint64_t verified_free_pages;
	int registered;            /* in the process-wide list of open stores */
	dev_t reg_dev;
	ino_t reg_ino;
	uintptr_t map_base;        /* where the data file is mapped (gate.c) */
	uint64_t map_len;
	uintptr_t map_mdb;         /* the MDB_env map_base was found for */
	/* The map eng_map_release let go of last, and the generation and gate
	 * epoch it was found in (reused while both hold: no /proc read, no
	 * read transaction per release); under rel_mu. */
	pthread_mutex_t rel_mu;
	uintptr_t rel_base;
	uint64_t rel_len;
	eng_gen *rel_gen;
	uint64_t rel_num;
	unsigned rel_epoch;
	eng_index_fn ix_fn;        /* the term index's extractor (index.c); NULL: none */
	void *ix_ctx;
};

struct eng_read {
	eng_env *env;
	eng_gen *gen; /* the generation the view began on; it ends there */
	MDB_txn *txn;
	eng_buf scratch;
	MDB_dbi ix_dbi[2]; /* the term index's databases in txn (index.c) */
	int ix_state;      /* 0 not looked up yet, 1 open, -1 absent */
};

/* Damage met by this thread since env_write began (a record that fails its
 * checksum, a page LMDB finds corrupt, a node the tree refers to that is
 * missing): a write that fails on it marks the store DAMAGED. */
/* Set when a call of this thread met damage (lmdb_err.c, damage.c). */
extern __thread int env_damage_seen;

/* Damage a read of `env` found (damage.c; `err` already says what): noted
 * as above and, on a handle opened for writing, recorded as the DAMAGED
 * mark so that the next write of any process is refused; the message then
 * says so. Returns H2EMV_ECORRUPT. Never for a transient error (ENOSPC,
 * EAGAIN, a map another process grew): only ECORRUPT from the record and
 * page checks, MDB_CORRUPTED and MDB_PAGE_NOTFOUND. */
int env_damage_found(eng_env *env, h2emv_error *err);
/* While non-zero, this thread's reads mark nothing (check: it reports). */
extern __thread int env_damage_quiet;
/* MDB_CORRUPTED and MDB_PAGE_NOTFOUND met by this thread (env_err, which
 * knows no store). At the end of a read view and before a write,
 * env_damage_confirm reads every page of generation `gen` of `env` by hand
 * when the count moved, and marks the memory (as env_damage_found) when
 * one is damaged: a cursor that met a damaged leaf of a big store. */
extern __thread unsigned env_pages_damaged;
void env_damage_confirm(eng_env *env, uint64_t gen);
/* LMDB's assertion hook (mdb_env_set_assert; the environment's user
 * context is its eng_env): LMDB found one of its pages unusable and aborts
 * the process when this returns. On a handle that may mark (as
 * env_damage_found) it writes the DAMAGED mark first, with open, write,
 * fsync, close and rename only. */
void env_damage_assert(MDB_env *mdb, const char *msg);

/* Turn an LMDB or errno code into an h2emv status with a message. */
int env_err(h2emv_error *err, int mdb_rc, const char *what);

/* Read the meta pages and the free list of `g` by hand before a write
 * (the write lock held): ECORRUPT ("damaged: ...") when they are wrong. */
int env_verify_meta(eng_env *env, eng_gen *g, h2emv_error *err);

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

/* Close and reopen the current generation's LMDB environment (after a
 * failed commit). The caller holds wlock and the gate (gate_remap_begin). */
int env_reopen(eng_env *env, h2emv_error *err);

/* Open the named databases of `mdb` into dbi[] (read-only transaction; with
 * `create`, a write transaction that creates missing ones). A missing
 * obsids (a store from before ids) sets *no_obsids: tolerated read-only,
 * EFORMAT otherwise (open again with `create` to add it). */
int env_open_dbis(MDB_env *mdb, MDB_dbi *dbi, int create, int readonly, const char *dir,
                  int *no_obsids, h2emv_error *err);

/* ------------------------------------------------ generations (gen.c) -- */

/* Path of generation `num`'s data file (lock = 0) or LMDB lock file
 * (lock = 1) in `dir`. */
void gen_path(char *buf, size_t cap, const char *dir, uint64_t num, int lock);
/* The generation DIR/CURRENT names (0 when there is no such file). */
int gen_read_current(uint64_t *out, const char *dir, h2emv_error *err);
/* Does `dir` hold a store (a CURRENT file, DIR/data.mdb or a data.N.mdb)? */
int gen_store_exists(const char *dir);
/* Open generation `num` as a new eng_gen with one reference. Its data file
 * must exist unless GEN_MAY_CREATE; with GEN_CHECK_DBIS its databases must
 * open under the handles in env->dbi. */
#define GEN_CHECK_DBIS 1u
#define GEN_MAY_CREATE 2u
int gen_open(eng_gen **out, eng_env *env, uint64_t num, unsigned flags, h2emv_error *err);
void gen_close(eng_gen *g);
/* Make `ng` (one reference) the current generation; the previous one is
 * closed once its last view ends. Caller holds genmu. */
void gen_install_locked(eng_env *env, eng_gen *ng);
/* A reference to the current generation, after moving to the one
 * DIR/CURRENT names if a compaction switched. Never blocks on another
 * process. Release with gen_release. */
int gen_acquire(eng_gen **out, eng_env *env, h2emv_error *err);
void gen_release(eng_env *env, eng_gen *g);
/* Remove the files of generations other than `current`: older ones always
 * (they are unlinked under any process still reading them, which is fine;
 * the caller has synced the directory since CURRENT named `current`, or a
 * power cut could bring back a CURRENT naming a removed file),
 * newer ones (a crashed compaction's copy) only when `newer` is set, which
 * needs the write lock. */
void gen_cleanup(const char *dir, uint64_t current, int newer);
/* The highest N of the DIR/data.N.mdb files present (0 if none). */
uint64_t gen_highest_on_disk(const char *dir);
/* Cross-process write lock (flock EX on DIR/h2emv.wlock); waits. */
int wlock_take(eng_env *env, h2emv_error *err);
void wlock_drop(eng_env *env);
/* Become this memory's writer: the process's wlock, then the cross-process
 * write lock, then a reference to the generation CURRENT names (under the
 * lock it cannot change). writer_end releases all three. */
int writer_begin(eng_gen **out, eng_env *env, h2emv_error *err);
void writer_end(eng_env *env, eng_gen *g);
/* fsync a directory: 0, or the errno of the open or the fsync (a file
 * system that cannot sync directories, EINVAL, counts as done). */
int sync_dir(const char *dir);

/* ---------------------------------------------- the reserve (reserve.c) -- */

/* Bytes the reserve holds now (0 = none). */
uint64_t reserve_bytes(const char *dir);
/* Create or grow DIR/reserve towards its target when free space allows
 * (best effort: errors are ignored, the store works without it). */
void reserve_refresh(eng_env *env, eng_gen *g);
/* Bytes of the live pages of `g` (the file's pages less its free list's):
 * what a compaction's copy needs. 0 if it cannot be read. */
uint64_t reserve_live_bytes(eng_env *env, eng_gen *g);
/* The same, and in *index (may be NULL) the bytes of the term index's
 * pages among them. */
uint64_t reserve_live_split(eng_env *env, eng_gen *g, uint64_t *index);
/* Unlink the reserve; returns the bytes released. */
uint64_t reserve_release(const char *dir);

/* ------------------------------------------------ term index (index.c) -- */

/* The index's databases in txn's environment (created with `create`);
 * ENOTFOUND when absent. */
int ix_dbis(MDB_dbi *post, MDB_dbi *node, MDB_txn *txn, int create, h2emv_error *err);
/* In a commit: the postings of the new versions, and died-at `seq` for the
 * versions they replace. */
int ix_commit_txn(MDB_txn *txn, eng_env *env, eng_node *const *nodes, size_t n,
                  const eng_ref *dead, size_t n_dead, uint64_t seq, h2emv_error *err);
/* Write version n's postings and its entry (died-at `died`). */
int ix_put_node(MDB_txn *txn, MDB_dbi post, MDB_dbi node, eng_env *env, const eng_node *n,
                uint64_t died, eng_buf *b, h2emv_error *err);
/* An ixnode entry's terms as the first 16 bytes of their posting keys
 * (term, t_first), malloc'd; ECORRUPT when malformed. */
int ix_entry_keys(uint8_t **keys, uint32_t *np, const void *entry, size_t len);
/* The completeness marker: 1 in this layout, 0 absent, -1 another layout. */
int ix_marker_state(MDB_txn *txn, MDB_dbi node);
int ix_put_marker(MDB_txn *txn, MDB_dbi node, h2emv_error *err);
/* GC: delete the postings of version `nk` (id | version, 12 bytes). */
int ix_drop_txn(MDB_txn *txn, eng_env *env, const uint8_t nk[12], h2emv_error *err);
/* Empty the index (its marker too: incomplete until rebuilt), its pages
 * to the free list at once: on a full disk, where deleting postings one by
 * one would copy most of its pages (gc.c, compact.c). */
int ix_clear_txn(MDB_txn *txn, h2emv_error *err);
/* check: the index against the node records; `bad` gets each violation. */
typedef void (*ix_bad_fn)(void *ctx, const char *rule, eng_ref ref, const char *msg);
int ix_check_txn(MDB_txn *txn, eng_env *env, ix_bad_fn bad, void *ctx);

#endif
