/*
 * engine.h — the storage engine's internal interface (not installed).
 *
 * Everything the memory model (api/) needs from storage, and nothing about
 * what a summary means. No LMDB type appears here: callers see opaque
 * handles, plain structs and h2emv status codes.
 */
#ifndef H2EMV_ENGINE_H
#define H2EMV_ENGINE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* The store format written by this build. Bump on any incompatible change.
 * 2: observation ids (body key 12, the obsids database). A format-1 store
 * stays 1, readable by older builds, until its first id is stored: that
 * transaction raises it to 2 (ENG_FORMAT_IDS). */
#define ENG_FORMAT 3
#define ENG_FORMAT_IDS 2
/* 3: observation bodies that keep t's UTC offset (body key 13). A store
 * stays 2 until the first such body is appended: eng_format_raise. */
#define ENG_FORMAT_ZONE 3


/* ------------------------------------------------------------- buffers -- */

/* A growable byte buffer. */
typedef struct eng_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
} eng_buf;

int eng_buf_reserve(eng_buf *b, size_t extra);
int eng_buf_append(eng_buf *b, const void *p, size_t n);
void eng_buf_free(eng_buf *b);

/* --------------------------------------------------------------- errors -- */

/* Fill `err` (may be NULL) and return `status`. printf-style message. */
int eng_fail(h2emv_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int eng_failv(h2emv_error *err, int status, const char *fmt, va_list ap);

/* --------------------------------------------------------- record codec -- */

/* Record layout (every value in every database):
 *   byte 0      format byte, REC_FORMAT
 *   byte 1      codec: REC_RAW, REC_ZSTD, REC_ZSTD_DICT
 *   bytes 2..3  zero
 *   bytes 4..7  dictionary id, little endian (0 unless REC_ZSTD_DICT)
 *   bytes 8..15 XXH3-64 of the payload seeded with bytes 0..7 (LE), little endian
 *   bytes 16..  payload: the msgpack body, raw or as one zstd frame
 */
#define REC_FORMAT 0x48 /* 'H' */
#define REC_HEADER 16
#define REC_RAW 0
#define REC_ZSTD 1
#define REC_ZSTD_DICT 2
#define REC_MAX_BODY (64u << 20) /* a decoded body is never larger */

typedef struct rec_codec rec_codec; /* dictionaries + compression contexts */

int rec_codec_new(rec_codec **out);
void rec_codec_free(rec_codec *c);
/* Register dictionary `id` (bytes are copied). Thread-safe. */
int rec_codec_add_dict(rec_codec *c, uint32_t id, const void *dict, size_t n, h2emv_error *err);

/* Is dictionary `id` registered? */
int rec_codec_has_dict(rec_codec *c, uint32_t id);

/* How rec_encode may compress. */
enum { REC_ENC_RAW = 0, REC_ENC_AUTO = 1 };

/* Encode `body` into a record appended to `out`. AUTO compresses (with
 * dictionary `dict` if it is registered, 0 = none) when that makes the record
 * smaller. Thread-safe (compression is serialised internally). */
int rec_encode(eng_buf *out, rec_codec *c, uint32_t dict, const void *body, size_t n, int mode,
               h2emv_error *err);

/* Decode a record: check header, checksum, declared sizes (capped before
 * allocating), decompress. On success *body points either into `rec` (raw
 * records: valid as long as `rec` is) or into `scratch`. Hostile bytes give
 * H2EMV_ECORRUPT. Thread-safe. */
int rec_decode(const uint8_t **body, size_t *body_len, eng_buf *scratch, rec_codec *c,
               const void *rec, size_t n, h2emv_error *err);

/* Check a record's header and checksum only (no decompression). */
int rec_verify(const void *rec, size_t n, h2emv_error *err);

/* --------------------------------------------------------------- msgpack -- */

/* Walk msgpack bytes without allocating: every declared length must fit in
 * the bytes left, nesting is at most `max_depth`, and the value must use the
 * whole buffer. Returns H2EMV_OK or H2EMV_ECORRUPT. Call this before handing
 * untrusted bytes to msgpack_unpack. */
#define MP_MAX_DEPTH 24
int mp_prescan(const void *data, size_t n, int max_depth, h2emv_error *err);

/* Bodies that are a msgpack array of n (at most 15) unsigned integers: meta
 * counters and pointers, dead entries, pins, snapshots. The encoder writes
 * each as fixed-width uint64 (docs/formats.md); the decoder reads any
 * unsigned form. encode: OK, EINVAL (n > 15) or ENOMEM; decode: OK,
 * ECORRUPT or ENOMEM. */
int mp_encode_u64s(eng_buf *out, const uint64_t *v, size_t n);
int mp_decode_u64s(uint64_t *v, size_t n, const uint8_t *body, size_t blen);

/* Bodies that are one msgpack str (the robot profile's JSON text). encode:
 * OK, EINVAL (over 4 GiB) or ENOMEM; decode: OK or ECORRUPT, *s points into
 * body (not NUL-terminated). */
int mp_encode_str(eng_buf *out, const char *s, size_t n);
int mp_decode_str(const char **s, size_t *n, const uint8_t *body, size_t blen);

/* Whether a meta record is well formed: msgpack, or the profile's JSON text
 * as releases before the record codec stored it. check and salvage use it;
 * OK or ECORRUPT. */
int eng_meta_check(const void *key, size_t klen, const uint8_t *body, size_t blen,
                   h2emv_error *err);

/* --------------------------------------------------------------- nodes -- */

typedef struct eng_ref {
	uint64_t id;
	uint32_t version;
} eng_ref;

/* One node version, decoded. Strings are NUL-terminated. A decoded node is
 * one allocation: free it with free(). */
typedef struct eng_node {
	uint64_t id;
	uint32_t version;
	uint8_t level;
	uint8_t kind;          /* h2emv_kind */
	int64_t t_start, t_end;
	int64_t expiry;        /* H2EMV_TIME_NEVER for never */
	uint64_t born;         /* snapshot seq it was committed in */
	uint64_t content_hash; /* XXH3 of what the node says (api/ defines) */
	char *summary;
	size_t summary_len;
	uint8_t *payload;      /* msgpack, opaque to the engine; may be NULL */
	size_t payload_len;
	eng_ref *children;
	uint32_t n_children;
	void *aux;             /* the reader's own (api/snap.c); decoding sets NULL */
} eng_node;

#define NODE_MAX_CHILDREN 65536u
#define NODE_MAX_SUMMARY (256u << 10)
#define NODE_MAX_PAYLOAD (4u << 20)

/* Encode a node version's msgpack body into `out` (appended). */
int node_encode(eng_buf *out, const eng_node *n, h2emv_error *err);
/* Decode and validate a node body. *out is one malloc'd block. */
int node_decode(eng_node **out, const void *body, size_t len, h2emv_error *err);
/* The same, allocating the block with `alloc` (an arena, say); nothing is
 * allocated when decoding fails. With NODE_BORROW_PAYLOAD the payload is not
 * copied: node->payload points into `body`, which must then stay valid and
 * unchanged for as long as the node is used (a raw record in an LMDB page
 * is, until its read transaction ends). The summary and the children are
 * always decoded into the block (the summary must be NUL-terminated). */
typedef void *(*node_alloc_fn)(void *ctx, size_t n);
#define NODE_BORROW_PAYLOAD 1u
int node_decode_with(eng_node **out, const void *body, size_t len, unsigned flags,
                     node_alloc_fn alloc, void *actx, h2emv_error *err);

/* A placeholder version of `src`: the same id, version `src->version + 1`,
 * kind FORGOTTEN, the same time range and expiry, the first line of the
 * summary, no children and no payload. One malloc'd block. */
int node_tombstone(eng_node **out, const eng_node *src, h2emv_error *err);

/* --------------------------------------------------------- environment -- */

typedef struct eng_env eng_env;
typedef struct eng_read eng_read; /* a read transaction: one consistent view */

typedef struct eng_open_opts {
	unsigned flags;            /* H2EMV_OPEN_* */
	uint64_t initial_map_size;
	uint64_t max_map_size;
	uint32_t dict_train_after;
} eng_open_opts;

int eng_open(eng_env **out, const char *dir, const eng_open_opts *opts, h2emv_error *err);
void eng_close(eng_env *env);
const char *eng_dir(const eng_env *env);
/* 1 if the store was opened read-only (H2EMV_OPEN_READONLY). */
int eng_readonly(const eng_env *env);
rec_codec *eng_codec(eng_env *env);

/* Let go of the data file's pages mapped into this process (they stay in
 * the page cache; the next read maps them again), so that the resident set
 * is what the process works on, not every page it or the kernel's
 * fault-around ever touched. Any thread, at any time; views stay valid.
 * A thread that holds a view may wait here while another remaps. */
void eng_map_release(eng_env *env);
/* How many eng_map_release calls of this process let go of a map. */
uint64_t eng_map_releases(void);

/* Begin / end a read view. Any number may be open, in any threads. */
int eng_read_begin(eng_read **out, eng_env *env, h2emv_error *err);
void eng_read_end(eng_read *r);

/* ------------------------------------------------------ observation log -- */

/* Append `n` observation bodies (msgpack, already validated by api/) in one
 * durable transaction. *first_seq gets the first new seq. */
int eng_obs_append(eng_env *env, const eng_buf *bodies, size_t n, uint64_t *first_seq,
                   h2emv_error *err);
/* Raise the store's format record to `fmt` if it is lower (one small write
 * transaction, the first time only in a process). OK, or the write's error. */
int eng_format_raise(eng_env *env, uint64_t fmt, h2emv_error *err);
/* Producer ids make appends idempotent: the `obsids` database maps each
 * id (its bytes, 1..ENG_OBS_ID_MAX of them) to the seq of the observation
 * stored with it, written in the same transaction as the observation.
 * Its value is a record like every other (header, checksum) whose body is
 * a msgpack array of one uint64: [seq]. Entries whose seq is gone (GC) are
 * stale; eng_obsids_prune drops them. */
#define ENG_OBS_ID_MAX 128

/* eng_obs_append with ids: ids[i] (NULL, or len 0: none) is item i's id.
 * An item whose id is already stored, or repeated earlier in the call, is
 * not stored again: dup[i] = 1 and seqs[i] = the seq it has; if its body
 * differs from the stored one the whole call fails with H2EMV_EEXIST and
 * *conflict = i (an id names one observation). Other items get new seqs
 * in order: seqs[i], dup[i] = 0. *stored (may be NULL) counts them and
 * *first_seq is the first new seq (0 if none). `seqs` and `dup` have n
 * slots; `conflict` may be NULL. */
int eng_obs_append_ids(eng_env *env, const eng_buf *bodies, const eng_buf *ids, size_t n,
                       uint64_t *seqs, uint8_t *dup, uint64_t *first_seq, size_t *stored,
                       size_t *conflict, h2emv_error *err);
/* The seq stored under id[0..len) (ENOTFOUND if none, or if the store
 * predates ids and is open read-only). */
int eng_obsids_get(uint64_t *seq, eng_read *r, const void *id, size_t len, h2emv_error *err);
/* Inside a write transaction of the engine (GC): delete every obsids entry
 * whose observation is no longer stored; *dropped (may be NULL) counts them. */
int eng_obsids_prune_txn(void *mdb_txn, eng_env *env, uint64_t *dropped, h2emv_error *err);
/* The first stored seq >= `from` into *out (a log may have gaps: a
 * salvaged memory's lost observations). ENOTFOUND if there is none. */
int eng_obs_next(uint64_t *out, eng_read *r, uint64_t from, h2emv_error *err);
/* Read observation `seq`'s body into `out` (replaced). ENOTFOUND if none. */
int eng_obs_get(eng_buf *out, eng_read *r, uint64_t seq, h2emv_error *err);
/* The highest observation seq (0 if none). */
int eng_obs_last(uint64_t *out, eng_read *r, h2emv_error *err);

/* ------------------------------------------------------------ snapshots -- */

typedef struct eng_snap {
	uint64_t seq;
	eng_ref root;
	int64_t t_now;
	int64_t created;
	uint64_t build_cursor;
	uint32_t rules_version;
	uint64_t n_nodes;
} eng_snap;

/* Snapshot `seq` (0 = newest). ENOTFOUND if none. */
int eng_snap_get(eng_snap *out, eng_read *r, uint64_t seq, h2emv_error *err);
/* All snapshots, oldest first; *out is malloc'd. */
int eng_snap_list(eng_snap **out, size_t *n, eng_read *r, h2emv_error *err);
/* The build cursor stored in meta (0 if none). */
int eng_build_cursor(uint64_t *out, eng_read *r, h2emv_error *err);
/* The next unused node id stored in meta (ids start at 1). */
int eng_next_node_id(uint64_t *out, eng_read *r, h2emv_error *err);

/* Node version (id, version): decoded, one malloc'd block. */
int eng_node_get(eng_node **out, eng_read *r, eng_ref ref, h2emv_error *err);
/* A cursor over the node versions of read view `r`, kept across
 * eng_nodes_get_many calls so that a walk reading sibling after sibling
 * steps forward instead of searching. Close it before eng_read_end(r). */
typedef struct eng_node_cursor eng_node_cursor;
int eng_node_cursor_open(eng_node_cursor **out, eng_read *r, h2emv_error *err);
void eng_node_cursor_close(eng_node_cursor *nc); /* NULL is fine */

/* Several node versions (a parent's children) in one cursor pass, each
 * allocated with `alloc` (which must be an arena: on failure, nodes already
 * decoded are left to it). `nc` is a cursor of `r`, or NULL for a cursor of
 * this call's own. A node's payload may point into the read view
 * (NODE_BORROW_PAYLOAD): the nodes are valid until eng_read_end(r). */
int eng_nodes_get_many(eng_node **out, eng_read *r, eng_node_cursor *nc, const eng_ref *refs,
                       size_t n, node_alloc_fn alloc, void *actx, h2emv_error *err);
/* One node, allocated with `alloc`; valid until eng_read_end(r), as above. */
int eng_node_get_with(eng_node **out, eng_read *r, eng_ref ref, node_alloc_fn alloc,
                      void *actx, h2emv_error *err);

/* One tree update, committed atomically: the new node versions, the dead
 * entries of the versions they replace, the snapshot record (its seq is
 * assigned: newest + 1) and the new build cursor, all in ONE write
 * transaction. Node keys are never overwritten: an existing (id, version) is
 * H2EMV_EEXIST and nothing is written. `born` of each node is set to the new
 * snapshot seq by the engine. */
/* A key/value record written with a snapshot (e.g. relevance cache
 * entries), in one of the small databases (enum eng_kv). */
typedef struct eng_kv_ent {
	int db;
	const void *key;
	size_t klen;
	const void *body;
	size_t blen;
} eng_kv_ent;

typedef struct eng_commit {
	eng_node *const *nodes;
	size_t n_nodes;
	const eng_ref *dead;
	size_t n_dead;
	eng_ref root;
	int64_t t_now;
	uint64_t build_cursor;
	uint32_t rules_version;
	uint64_t n_nodes_tree;  /* level >= 3 nodes in the new tree */
	uint64_t next_node_id;  /* stored if larger than the current one */
	const eng_kv_ent *kv;   /* extra records, written in the same transaction */
	size_t n_kv;
} eng_commit;

int eng_commit_snapshot(uint64_t *seq_out, eng_env *env, const eng_commit *c, h2emv_error *err);

/* Pins. */
int eng_pin(eng_env *env, const char *name, uint64_t seq, h2emv_error *err);
int eng_unpin(eng_env *env, const char *name, h2emv_error *err);
int eng_pin_list(h2emv_pin **out, size_t *n, eng_read *r, h2emv_error *err);

/* ------------------------------------------------- small key/value dbs -- */

/* The databases rules, relcache and meta hold records keyed by bytes. */
enum eng_kv { ENG_KV_META, ENG_KV_RULES, ENG_KV_RELCACHE };
int eng_kv_put(eng_env *env, int db, const void *key, size_t klen, const void *body,
               size_t blen, h2emv_error *err);
/* ENOTFOUND if absent; `out` replaced with the body. */
int eng_kv_get(eng_buf *out, eng_read *r, int db, const void *key, size_t klen,
               h2emv_error *err);

/* ---------------------------------------------------------- maintenance -- */

int eng_stats(h2emv_stats *out, eng_env *env, h2emv_error *err);
int eng_gc(h2emv_gc_result *out, eng_env *env, const h2emv_gc_options *opts, h2emv_error *err);
/* Copy the live pages into the next generation of the data file and switch
 * to it; readers never wait, writers wait for the copy (see gen.c). */
int eng_compact(eng_env *env, uint64_t *before, uint64_t *after, h2emv_error *err);

/* Retention beyond node versions (retain.c): observations no remaining
 * snapshot's live scene holds, folded into the newest snapshot, outside
 * the raw-log window; relevance-cache entries unused for `cache_window` of
 * the memory's clock, then the least recently used beyond `cache_max`.
 * api/ says how to read an observation's time and a cache entry's use. */
typedef struct eng_retain {
	int (*obs_time)(int64_t *t, const void *body, size_t len);   /* 0 = read */
	int (*cache_used)(int64_t *t, const void *body, size_t len); /* 0 = read */
	h2emv_time raw_window;   /* keep observations this recent; 0 = none */
	h2emv_time cache_window; /* 0 = by the cap only */
	uint64_t cache_max;      /* 0 = no cap */
} eng_retain;

typedef struct eng_retain_stats {
	uint64_t obs_live;        /* held by a live scene of a remaining snapshot */
	uint64_t obs_window;      /* held by the raw-log window */
	uint64_t obs_unbuilt;     /* not folded yet (and the newest entry) */
	uint64_t obs_unreadable;  /* damaged: kept for check and salvage */
	uint64_t obs_reclaimable; /* may go (dry run) / went */
	uint64_t obs_reclaimable_bytes;
	uint64_t obs_deleted, obs_deleted_bytes;
	uint64_t cache_entries, cache_collectable, cache_deleted;
} eng_retain_stats;

/* The data file's size and the bytes of its free pages (what compaction
 * would give back, about). */
int eng_space(uint64_t *file_bytes, uint64_t *free_bytes, eng_env *env, h2emv_error *err);

/* Reclaim (or with `dry`, only count) in write transactions of at most
 * `batch` deletions (0 = 512). */
int eng_retain_run(eng_retain_stats *out, eng_env *env, const eng_retain *ret, uint32_t batch,
                   int dry, h2emv_progress_fn progress, void *pctx, h2emv_error *err);
/* The path of the data file of the store in `dir` (the file DIR/CURRENT
 * names, DIR/data.mdb before any compaction): the one helper for sizes and
 * for tests and tools that read the bytes on disk. */
int eng_data_file(char *buf, size_t cap, const char *dir, h2emv_error *err);
/* Mark maintenance (gc) running on this handle: a write that finds the
 * disk full may then release the reserve and retry. Calls nest. */
void eng_maintenance(eng_env *env, int on);
/* A consistent copy of the store in the new directory `dest` (see
 * h2emv_mem_backup). *bytes (may be NULL) gets the copy's size. */
int eng_backup(eng_env *env, const char *dest, uint64_t *bytes, h2emv_error *err);
/* Verify every record and every snapshot's tree (see h2emv_check).
 * `obs_check` (may be NULL) validates an observation body's fields. */
typedef int (*eng_body_check_fn)(const void *body, size_t len, h2emv_error *err);
/* `obs_id` (may be NULL) reads an observation body's producer id: 1 and
 * *id, *len (pointing into body); 0 none; -1 unreadable. With it, check
 * verifies that each id entry names an observation carrying that id. */
typedef int (*eng_obs_id_fn)(const void **id, size_t *len, const void *body, size_t blen);
int eng_check(uint64_t *n_violations, eng_env *env, eng_body_check_fn obs_check,
              eng_obs_id_fn obs_id, h2emv_violation_fn fn, void *ctx,
              h2emv_progress_fn progress, void *progress_ctx, h2emv_error *err);

/* Read every page of the store in `dir` by hand (no LMDB): each damaged
 * page, and meta pages or databases that cannot be used, is one violation
 * (rule "page", "meta" or "missing-db"; key = the page number). */
int eng_check_pages(uint64_t *n_violations, const char *dir, h2emv_violation_fn fn, void *ctx,
                    h2emv_error *err);
/* The DAMAGED marker `check` leaves in `dir` (see docs/damaged.md): 1 and
 * its reason if present. Writes and compaction refuse a marked store. */
int eng_damaged_reason(char *reason, size_t n, const char *dir);
int eng_mark_damaged(const char *dir, const char *reason, h2emv_error *err);
int eng_mark_clean(const char *dir, h2emv_error *err);
/* The fault guard (faultguard.c, h2emv_guard_faults): install the SIGSEGV
 * and SIGBUS handlers once; watch the memory in `dir` (opened for writing,
 * `owner` its handle) so that a fault inside its data file's map writes its
 * DAMAGED mark; unwatch at close. Watching works without the handlers. */
int eng_fault_guard_install(h2emv_error *err);
void eng_fault_watch(const void *owner, const char *dir);
void eng_fault_unwatch(const void *owner);

/* See h2emv_salvage; `obs_check` validates observation bodies. */
int eng_salvage(h2emv_salvage_result *out, const char *src, const char *dst,
                eng_body_check_fn obs_check, h2emv_violation_fn fn, void *ctx,
                h2emv_error *err);

/* Observation dictionaries (dict.c). Node records get no dictionary;
 * kind 2 is reserved.
 * eng_dict_default: if the memory has no dictionary yet, store the default
 * one h2emv ships and compress new records with it (the write path calls
 * it: one small write, no training).
 * eng_maybe_train: if the memory still uses the default dictionary and
 * holds dict_train_after observations, train its own from them and use it
 * for new records (maintenance, eng_gc, calls it; exposed for tests). */
enum eng_dict_kind { ENG_DICT_OBS = 1, ENG_DICT_NODES = 2 };
#define ENG_DICT_OBS_DEFAULT 0x48324531u /* "H2E1": the default's id, in dicts and zstd */
int eng_dict_default(eng_env *env, int kind, h2emv_error *err);
/* Register the compiled-in default dictionary in codec `c` (eng_open). */
int eng_dict_builtin(rec_codec *c, h2emv_error *err);
int eng_maybe_train(eng_env *env, int kind, h2emv_error *err);

/* ----------------------------------------------------------- term index -- */

/* The term index (index.c, docs/index.md): one posting per term and node
 * version. A term is a 64-bit hash api/ computes; the engine only stores,
 * versions and erases. */
typedef struct eng_posting {
	uint64_t term;
	int64_t t_first;  /* the earliest time the term occurs at in the node */
	int64_t t_last;   /* the latest (end of the last occurrence) */
	uint8_t types;    /* bit per fact type (api/ defines) */
	uint8_t tf;       /* occurrences in the node, capped at 255 */
	uint16_t roles;   /* bit per role (fact slot) the term was found in */
} eng_posting;

/* The postings of a node version, one per term (terms distinct), into a
 * malloc'd array *out (NULL when none). OK or a status. */
typedef int (*eng_index_fn)(eng_posting **out, size_t *n, const eng_node *node, void *ctx);
/* Register the extractor: every commit through this handle then writes
 * the postings of its new versions. Without one, a commit marks the index
 * incomplete. Call once after eng_open, before any write. */
void eng_index_set_fn(eng_env *env, eng_index_fn fn, void *ctx);
/* 1 when the index is complete (every stored version's postings). */
int eng_index_ready(eng_read *r);
/* Clear and rebuild the index from every stored node version, in batches
 * (`progress`, may be NULL, sees "index", done, total). */
int eng_index_rebuild(eng_env *env, h2emv_progress_fn progress, void *pctx, h2emv_error *err);
/* Visit the postings of `term` whose t_first lies in [from, to], in time
 * order (newest first with `backwards`), of every stored version: the
 * caller checks visibility (eng_index_node) where it matters. The visitor
 * returns 0 to go on, > 0 to stop, < 0 an error (returned). */
typedef int (*eng_index_visit)(void *ctx, const eng_posting *p, eng_ref ref);
int eng_index_scan(eng_read *r, uint64_t term, int64_t from, int64_t to, int backwards,
                   eng_index_visit fn, void *ctx, h2emv_error *err);
/* The index entry of a version: the snapshot it was born in, the one it
 * died at (UINT64_MAX: alive) and how many terms it has. ENOTFOUND. */
int eng_index_node(uint64_t *born, uint64_t *died, uint32_t *n_terms, eng_read *r, eng_ref ref);
/* Postings and node versions in the index (all versions). */
int eng_index_counts(uint64_t *postings, uint64_t *nodes, eng_read *r);
/* Bytes of the index's pages and of the node records' pages. */
int eng_index_bytes(uint64_t *index, uint64_t *node_records, eng_read *r);

/* ------------------------------------------------------------ helpers -- */

int64_t eng_now_us(void); /* wall clock, µs since the epoch */

static inline void be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}
static inline void be32(uint8_t *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}
static inline uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}
static inline uint32_t get_be32(const uint8_t *p)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v = (v << 8) | p[i];
	return v;
}

#endif /* H2EMV_ENGINE_H */
