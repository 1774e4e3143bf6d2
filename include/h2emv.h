/*
 * h2emv.h — lifelong episodic memory for robots (H²-EMV), the public C API.
 *
 * This header is the manual. It is grouped in the order a newcomer meets the
 * objects: errors, the memory handle, observations, snapshots, nodes, and
 * maintenance (stats, gc, compact, check).
 *
 * Conventions that hold for every function unless its comment says otherwise:
 *  - A fallible call returns an h2emv_status: H2EMV_OK (0) or a negative code.
 *    It never prints, exits or aborts on bad input.
 *  - `err` may be NULL. When it is not, a failing call fills it with the code
 *    and a message naming the file, input line, field or node concerned.
 *  - Output parameters come first and are called `out`.
 *  - The caller owns what it passes in. What the library returns through `out`
 *    is owned by the library until the matching _close/_free call named in the
 *    function's comment. Memory returned for the caller to keep is released
 *    with h2emv_free().
 *  - Options are structs with a `version` field; initialise them with the
 *    matching _INIT macro so that fields added later keep their defaults.
 *  - There is no global state. A h2emv_mem may be shared by threads: reads
 *    (snapshots) run concurrently with each other and with one writer; calls
 *    that write (ingest, pin, gc, compact) are serialised internally.
 *    A h2emv_snap belongs to one thread at a time (it may move between threads).
 *
 * Stability: everything in this header is stable within a major version
 * except the section marked EXPERIMENTAL at the end.
 */
#ifndef H2EMV_H
#define H2EMV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define H2EMV_VERSION_MAJOR 0
#define H2EMV_VERSION_MINOR 1
#define H2EMV_VERSION_PATCH 0
#define H2EMV_VERSION_STRING "0.1.0"

/* ---------------------------------------------------------------- errors -- */

/* Status codes. 0 is success; every error is negative. */
typedef enum h2emv_status {
	H2EMV_OK = 0,
	H2EMV_EINVAL = -1,     /* a bad argument or option */
	H2EMV_ENOMEM = -2,     /* out of memory */
	H2EMV_EIO = -3,        /* an I/O error from the operating system */
	H2EMV_ENOSPC = -4,     /* the disk (or the file size limit) is full */
	H2EMV_ECORRUPT = -5,   /* stored bytes fail their checksum or structure */
	H2EMV_EFORMAT = -6,    /* the store's format is newer or unknown */
	H2EMV_ENOTFOUND = -7,  /* no such observation, snapshot, node or pin */
	H2EMV_EEXIST = -8,     /* already exists (a node version, a store) */
	H2EMV_EBUSY = -9,      /* another process or open snapshot is in the way */
	H2EMV_EPARSE = -10,    /* malformed input (JSON, observation fields) */
	H2EMV_ELIMIT = -11,    /* input over a documented size limit */
	H2EMV_EREADONLY = -12, /* a write on a memory opened read-only */
	H2EMV_EINTERNAL = -13  /* a broken internal invariant: a bug, please report */
} h2emv_status;

/* Error detail filled by failing calls. `line`/`column` are 1-based positions
 * in the input when the error is about input text (0 when not applicable);
 * `field` names the offending observation field ("objects[2].state") or is
 * empty; `message` is a complete sentence for a human. */
typedef struct h2emv_error {
	int status;
	uint64_t line;
	uint64_t column;
	char field[96];
	char message[512];
} h2emv_error;

/* The name of a status code ("corrupt record", ...). Never NULL; unknown
 * codes give "unknown status". Thread-safe. */
const char *h2emv_strerror(int status);

/* Release memory the library handed to the caller (JSON text, lists). NULL is
 * fine. Thread-safe. */
void h2emv_free(void *p);

/* ---------------------------------------------------------------- memory -- */

/* Time: microseconds since the Unix epoch, UTC. */
typedef int64_t h2emv_time;
#define H2EMV_TIME_NEVER INT64_MAX /* an expiry that never comes */

typedef struct h2emv_mem h2emv_mem;

#define H2EMV_OPEN_CREATE 0x1u   /* create the directory and store if missing */
#define H2EMV_OPEN_READONLY 0x2u /* never write; writes return H2EMV_EREADONLY */
#define H2EMV_OPEN_NOSYNC 0x4u   /* skip fsync: NOT crash-safe; benchmarks only */

typedef struct h2emv_open_options {
	unsigned version;          /* H2EMV_OPEN_OPTIONS_VERSION */
	unsigned flags;            /* H2EMV_OPEN_* */
	uint64_t initial_map_size; /* bytes of address space to map at first; 0 = 256 MiB.
	                              The map grows by itself when full. */
	uint64_t max_map_size;     /* growth stops here (H2EMV_ENOSPC); 0 = 1 TiB */
	uint32_t dict_train_after; /* train a zstd dictionary once this many
	                              records of a kind exist; 0 = 2000 */
} h2emv_open_options;

#define H2EMV_OPEN_OPTIONS_VERSION 1
#define H2EMV_OPEN_OPTIONS_INIT { H2EMV_OPEN_OPTIONS_VERSION, 0, 0, 0, 0 }

/* Open the memory in directory `dir`. With H2EMV_OPEN_CREATE a missing
 * directory and store are created. Stale reader slots left by killed
 * processes are cleared. A store written by a newer h2emv, or not an h2emv
 * store at all, is refused with H2EMV_EFORMAT and a message saying which.
 * Before LMDB maps the file an integrity gate reads it by hand: both meta
 * pages, the free list, the small databases, the branch pages of the big
 * ones, and every page of a store up to 64 MiB; damage there is
 * H2EMV_ECORRUPT with a message starting "damaged:". So is an open for
 * writing of a memory that h2emv_check_store found damaged (the marker
 * file DIR/DAMAGED). docs/damaged.md says what is and is not covered.
 * `opts` may be NULL for defaults.
 * Returns H2EMV_OK, EINVAL, ENOMEM, EIO, ENOSPC, EFORMAT, ECORRUPT, ENOTFOUND
 * (no store and no CREATE flag), EBUSY (a compaction is running).
 * On success *out is owned by the caller; release it with h2emv_mem_close. */
int h2emv_mem_open(h2emv_mem **out, const char *dir, const h2emv_open_options *opts,
                   h2emv_error *err);

/* Close the memory. Every snapshot opened from it must be closed first.
 * NULL is fine. */
void h2emv_mem_close(h2emv_mem *mem);

/* The directory the memory lives in. Owned by `mem`. */
const char *h2emv_mem_dir(const h2emv_mem *mem);

/* ---------------------------------------------------------------- policy -- */

/* Choose who makes the memory's judgements for this handle: "builtin"
 * (offline, deterministic; what every handle starts with) or "llm" (a
 * language model behind an OpenAI-compatible server, or a cassette; see
 * docs/llm.md). `config_path` is the llm policy's JSON config (NULL:
 * defaults and the H2EMV_LLM_* environment variables); it is ignored for
 * builtin. No request is sent here. The choice is not stored: each process
 * chooses when it opens the memory. Call it before building or asking on
 * this handle, never while another thread uses the handle.
 * Returns OK, EINVAL (unknown name, or a bad config: the message names the
 * key), EIO (unreadable config or cassette), ENOMEM. On error the handle
 * keeps its current policy. Experimental. */
int h2emv_mem_set_policy(h2emv_mem *mem, const char *name, const char *config_path,
                         h2emv_error *err);

/* How the policy has fared since the handle was opened (all zero for
 * builtin): decisions asked, replies that did not parse or validate, the
 * second tries they caused, decisions settled by the safe fallback, and
 * decisions lost to the transport. Experimental. */
typedef struct h2emv_policy_stats {
	char name[16];             /* "builtin" or "llm" */
	uint64_t decisions;
	uint64_t bad_replies;
	uint64_t retries;
	uint64_t fallbacks;
	uint64_t transport_errors;
} h2emv_policy_stats;

void h2emv_mem_policy_stats(h2emv_policy_stats *out, h2emv_mem *mem);

/* What h2emv_llm_ping found out about a configured model server. */
typedef struct h2emv_llm_ping_result {
	char model[128];          /* the model the server says answered ("" if unknown) */
	char base_url[256];       /* where it was asked */
	char structured[16];      /* the configured mode: none, json_schema, vllm, ollama */
	double latency_ms;        /* the plain request, end to end */
	double structured_ms;     /* the structured request (0 if not tried) */
	int structured_ok;        /* 1: a reply under the schema came back valid JSON
	                             of the schema's shape; 0: it did not (then
	                             err->message says why and err->status stays
	                             H2EMV_OK); -1: mode none */
	uint64_t prompt_tokens;   /* as the server counted them, both requests */
	uint64_t completion_tokens;
	char reply[128];          /* the start of the plain reply */
} h2emv_llm_ping_result;

/* Check the llm policy's server: one tiny plain request, then (unless the
 * structured-output mode is none) one under a small JSON schema. Uses the
 * config at `config_path` (NULL: defaults and H2EMV_LLM_* variables), with
 * its transport (a replay cassette answers without a server).
 * Returns OK (the plain request worked; structured_ok tells the rest), or
 * the transport's error with the server's message: EIO (unreachable,
 * timed out, 5xx), EINVAL (bad config, 4xx such as a wrong model or key),
 * EPARSE (not an OpenAI-compatible reply). Experimental. */
int h2emv_llm_ping(h2emv_llm_ping_result *out, const char *config_path, h2emv_error *err);

/* ---------------------------------------------------------- observations -- */

/* Size limits on one observation (a JSON line). */
#define H2EMV_OBS_MAX_BYTES (1u << 20) /* 1 MiB of JSON text */

/* Validate one observation given as JSON text (one JSON object, the format of
 * docs/formats.md) without storing it. Strict: unknown fields, wrong types,
 * bad times and invalid UTF-8 are errors; err->column and err->field say
 * where. `line` is copied into err->line so callers reading files get
 * "line N, column C" messages.
 * Returns H2EMV_OK, EPARSE, ELIMIT, ENOMEM, EINVAL. Thread-safe. */
int h2emv_obs_validate(const char *json, size_t len, uint64_t line, h2emv_error *err);

/* Clock discipline. The memory's clock is the newest time (t, or t_end
 * when later) among the stored observations; the builder forgets relative
 * to it, so one observation stamped far in the future (a robot whose clock
 * is not yet synchronised) would make the memory forget its whole history.
 * Ingest therefore rejects, with H2EMV_EPARSE naming the line and the
 * field ("t" or "t_end"), an observation whose time is more than the
 * configured jump (h2emv_config.max_clock_jump, default 30 days) ahead of
 *  - the memory's clock, as moved by the items before it in the same call
 *    (a rejected item moves nothing), and
 *  - the wall clock of this computer (so an empty memory, which has no
 *    clock yet, still refuses year 9999; histories from the past, replayed
 *    or simulated, are never ahead of it).
 * An item earlier than the memory's clock is stored and counted as out of
 * order (h2emv_ingest_result.out_of_order): the builder places it at the
 * clock's time, since ranges in the tree never go backwards.
 * The clock is cached on the handle. The first ingest reads it from the
 * newest snapshot (the builder's clock) and the observations stored after
 * that snapshot's build cursor (the newest 256 of them); each stored batch
 * moves it; what other handles or processes append is read at the next
 * call (again up to 256 records). Past those 256 the clock may lag the
 * log, which makes the check stricter, never looser. */

/* Store one observation durably. When this returns H2EMV_OK the observation
 * is on disk (fsync'd unless H2EMV_OPEN_NOSYNC) and *seq_out (may be NULL)
 * holds its sequence number (1, 2, ...). Nothing is stored on error. The
 * clock discipline above applies (with no override; see h2emv_ingest_opts).
 * Returns H2EMV_OK, EPARSE (malformed, or too far ahead of the clock),
 * ELIMIT, ENOMEM, EIO, ENOSPC, EREADONLY, ECORRUPT (the log cannot be read
 * for the clock), and EBUSY when the map must grow while snapshots stay
 * open in this process for more than 10 s. The call that crosses the
 * dictionary threshold (dict_train_after) also trains the dictionary:
 * ~50 ms, once. */
int h2emv_ingest(h2emv_mem *mem, const char *json, size_t len, uint64_t *seq_out,
                 h2emv_error *err);

/* Store `n` observations in one durable transaction (one fsync for all).
 * All or nothing: if any item fails validation or the clock discipline,
 * nothing is stored and err->line is the 1-based index of the first bad
 * item. *first_seq_out (may be NULL) gets the sequence number of the first
 * one; the rest follow in order. h2emv_ingest_opts with NULL options. */
int h2emv_ingest_batch(h2emv_mem *mem, const char *const *json, const size_t *len,
                       size_t n, uint64_t *first_seq_out, h2emv_error *err);

/* Accept times however far ahead of the memory's clock and the wall clock
 * (the robot really was switched off that long, or its history is meant to
 * lie in the future). The items still move the clock. */
#define H2EMV_INGEST_ALLOW_CLOCK_JUMP 0x1u

typedef struct h2emv_ingest_options {
	unsigned version;       /* H2EMV_INGEST_OPTIONS_VERSION */
	unsigned flags;         /* H2EMV_INGEST_* */
	const uint64_t *lines;  /* n input line numbers, one per item, used for
	                           err->line and messages; NULL = 1, 2, ... n */
	h2emv_time now;         /* the wall clock for the check; 0 = the real clock */
} h2emv_ingest_options;

#define H2EMV_INGEST_OPTIONS_VERSION 1
#define H2EMV_INGEST_OPTIONS_INIT { H2EMV_INGEST_OPTIONS_VERSION, 0, NULL, 0 }

typedef struct h2emv_ingest_result {
	uint64_t first_seq;     /* seq of the first item stored (0 on error) */
	size_t failed;          /* on an error about one item (EPARSE, ELIMIT): its
	                           0-based index; otherwise n */
	uint64_t out_of_order;  /* items stored with t earlier than the memory's clock */
	h2emv_time clock;       /* the memory's clock after the call; -1 while the
	                           log is empty */
} h2emv_ingest_result; /* on error, only `failed` is meaningful */

/* h2emv_ingest_batch with options and a result: the clock override, the
 * input's line numbers for messages, and the out-of-order count. `opts` and
 * `out` may be NULL; *out is filled on error too (see `failed`). Returns
 * what h2emv_ingest returns. Thread-safe: calls on one handle are
 * serialised from the clock check to the commit. */
int h2emv_ingest_opts(h2emv_ingest_result *out, h2emv_mem *mem, const char *const *json,
                      const size_t *len, size_t n, const h2emv_ingest_options *opts,
                      h2emv_error *err);

/* The stored observation `seq` as canonical JSON (one line, no newline),
 * NUL-terminated. *out is the caller's, release it with h2emv_free.
 * Returns H2EMV_OK, ENOTFOUND, ECORRUPT, ENOMEM. */
int h2emv_obs_get_json(char **out, size_t *len_out, h2emv_mem *mem, uint64_t seq,
                       h2emv_error *err);

/* ------------------------------------------------------------- snapshots -- */

/* A snapshot is one consistent version of the memory tree. Opening one starts
 * a read transaction: it never waits for the writer, and the writer never
 * waits for it; it keeps seeing the same tree until closed. Keep snapshots
 * short-lived: an open one keeps its pages from being reused. */
typedef struct h2emv_snap h2emv_snap;

/* A reference to one version of one node. */
typedef struct h2emv_ref {
	uint64_t id;
	uint32_t version;
} h2emv_ref;

typedef struct h2emv_snap_info {
	uint64_t seq;           /* snapshot sequence number, 1, 2, ... */
	h2emv_ref root;         /* the tree's root */
	h2emv_time t_now;       /* the memory's clock when the snapshot was made */
	h2emv_time created;     /* wall-clock time of the commit */
	uint64_t build_cursor;  /* last observation seq folded into this tree */
	uint32_t rules_version; /* relevance rules in force */
	uint64_t n_nodes;       /* nodes of level >= 3 in the tree ("tree size") */
	int pinned;             /* 1 if at least one pin holds it */
} h2emv_snap_info;

#define H2EMV_SNAP_LATEST 0 /* pass as `seq` to open the newest snapshot */

/* Open snapshot `seq` (or the newest with H2EMV_SNAP_LATEST).
 * Returns H2EMV_OK, ENOTFOUND (no such snapshot, or none yet), ECORRUPT,
 * ENOMEM, EIO. Release *out with h2emv_snap_close. */
int h2emv_snap_open(h2emv_snap **out, h2emv_mem *mem, uint64_t seq, h2emv_error *err);

/* Close the snapshot; every node pointer obtained from it becomes invalid.
 * NULL is fine. The memory it used (up to 10 MiB) stays with `mem` for the
 * next snapshot to open, and is freed by h2emv_mem_close. */
void h2emv_snap_close(h2emv_snap *snap);

/* The snapshot's record. Never fails. */
void h2emv_snap_get_info(h2emv_snap_info *out, const h2emv_snap *snap);

/* All snapshots still stored, oldest first. *out is an array of *n_out items,
 * the caller's; release with h2emv_free. */
int h2emv_snap_list(h2emv_snap_info **out, size_t *n_out, h2emv_mem *mem, h2emv_error *err);

/* Pin snapshot `seq` under `name` (1..200 bytes) so GC keeps it. Pinning an
 * existing name moves the pin. Returns OK, ENOTFOUND (no such snapshot),
 * EINVAL (bad name), EREADONLY, EIO, ENOSPC. */
int h2emv_snap_pin(h2emv_mem *mem, const char *name, uint64_t seq, h2emv_error *err);

/* Remove pin `name`. Returns OK or ENOTFOUND. */
int h2emv_snap_unpin(h2emv_mem *mem, const char *name, h2emv_error *err);

typedef struct h2emv_pin {
	char name[208];
	uint64_t seq;
	h2emv_time created;
} h2emv_pin;

/* All pins, by name. *out is the caller's; release with h2emv_free. */
int h2emv_pin_list(h2emv_pin **out, size_t *n_out, h2emv_mem *mem, h2emv_error *err);

/* ----------------------------------------------------------------- nodes -- */

/* Node levels as in the paper: 1 scene, 2 event, 3 goal, 4+ summaries; the
 * root is the single node at the top. */
typedef enum h2emv_kind {
	H2EMV_KIND_SCENE = 1,
	H2EMV_KIND_EVENT = 2,
	H2EMV_KIND_GOAL = 3,
	H2EMV_KIND_SUMMARY = 4,
	H2EMV_KIND_ROOT = 5,
	H2EMV_KIND_FORGOTTEN = 6 /* a placeholder: time range + first summary line, no children */
} h2emv_kind;

/* A node version read from a snapshot. Pointers to it and into it (summary,
 * payload) stay valid until the snapshot is closed. */
typedef struct h2emv_node h2emv_node;

/* The snapshot's root node. Returns OK, ECORRUPT, ENOMEM. */
int h2emv_snap_root(const h2emv_node **out, h2emv_snap *snap, h2emv_error *err);

/* Node version `ref`, as stored (any version still in the store, not only
 * those in this snapshot's tree). Returns OK, ENOTFOUND, ECORRUPT, ENOMEM. */
int h2emv_snap_node(const h2emv_node **out, h2emv_snap *snap, h2emv_ref ref, h2emv_error *err);

/* Child `i` (0-based, oldest first) of `parent`. Returns OK, EINVAL (i out
 * of range), ENOTFOUND (a dangling reference: run check), ECORRUPT, ENOMEM. */
int h2emv_node_child(const h2emv_node **out, h2emv_snap *snap, const h2emv_node *parent,
                     size_t i, h2emv_error *err);

h2emv_ref h2emv_node_ref(const h2emv_node *node);
int h2emv_node_level(const h2emv_node *node);
h2emv_kind h2emv_node_kind(const h2emv_node *node);
h2emv_time h2emv_node_start(const h2emv_node *node);
h2emv_time h2emv_node_end(const h2emv_node *node);
/* The expiry τ; H2EMV_TIME_NEVER if the node is kept forever. */
h2emv_time h2emv_node_expiry(const h2emv_node *node);
/* The natural-language summary, NUL-terminated, UTF-8; *len (may be NULL)
 * gets its length. "" when there is none. */
const char *h2emv_node_summary(const h2emv_node *node, size_t *len);
/* The node's payload as msgpack bytes (for L1 scenes: the scene content; see
 * docs/formats.md). NULL with *len = 0 when there is none. */
const void *h2emv_node_payload(const h2emv_node *node, size_t *len);
size_t h2emv_node_child_count(const h2emv_node *node);
h2emv_ref h2emv_node_child_ref(const h2emv_node *node, size_t i);

/* ----------------------------------------------------------- maintenance -- */

typedef struct h2emv_stats {
	uint64_t obs_count;       /* observations in the log */
	uint64_t obs_last_seq;    /* highest observation seq, 0 if none */
	uint64_t build_cursor;    /* last observation folded into the tree */
	uint64_t node_versions;   /* node versions stored */
	uint64_t dead_versions;   /* superseded versions awaiting GC */
	uint64_t snapshots;       /* snapshots stored */
	uint64_t last_snapshot;   /* newest snapshot seq, 0 if none */
	uint64_t pins;
	uint64_t dicts;           /* zstd dictionaries trained */
	uint64_t rules_versions;
	uint64_t relcache_entries;
	uint64_t file_bytes;      /* size of the data file on disk */
	uint64_t used_bytes;      /* pages in use inside it */
	uint64_t map_bytes;       /* address space mapped */
	uint64_t obs_bytes;       /* stored bytes of observation records */
	uint64_t node_bytes;      /* stored bytes of node records */
	uint32_t format;          /* store format version */
} h2emv_stats;

/* Counts and sizes. Returns OK, ECORRUPT, EIO. */
int h2emv_mem_stats(h2emv_stats *out, h2emv_mem *mem, h2emv_error *err);

/* Progress of long work: `done` of `total` units (total 0 = unknown).
 * Return non-zero to ask the work to stop early at the next safe point. */
typedef int (*h2emv_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

typedef struct h2emv_gc_options {
	unsigned version;            /* H2EMV_GC_OPTIONS_VERSION */
	uint32_t keep_snapshots;     /* always keep this many newest; 0 = 16 (min 1) */
	h2emv_time keep_age;         /* also keep every snapshot younger than this (µs); 0 = none */
	h2emv_time now;              /* wall clock for ages; 0 = the real clock */
	uint32_t batch;              /* deletions per write transaction; 0 = 512 */
	h2emv_progress_fn progress;  /* may be NULL */
	void *progress_ctx;
} h2emv_gc_options;

#define H2EMV_GC_OPTIONS_VERSION 1
#define H2EMV_GC_OPTIONS_INIT { H2EMV_GC_OPTIONS_VERSION, 0, 0, 0, 0, NULL, NULL }

typedef struct h2emv_gc_result {
	uint64_t snapshots_dropped;
	uint64_t versions_deleted;
	uint64_t batches;           /* write transactions used */
} h2emv_gc_result;

/* Garbage-collect: drop snapshots beyond the retention (newest
 * keep_snapshots, plus those younger than keep_age, plus every pinned one),
 * then delete the superseded node versions no remaining snapshot can see.
 * Works in bounded batches, releasing the write lock between them, so an
 * ingest never waits for more than one batch. `opts`/`out` may be NULL.
 * The space is reused by later writes; h2emv_compact gives it back to the
 * disk. Returns OK, EREADONLY, ECORRUPT, EIO, ENOSPC. */
int h2emv_gc(h2emv_gc_result *out, h2emv_mem *mem, const h2emv_gc_options *opts,
             h2emv_error *err);

/* Rewrite the data file without free pages (and so without the bytes of
 * deleted records) and swap it in atomically. Needs exclusive use: another
 * process with the memory open, or a snapshot open in this one, gives
 * H2EMV_EBUSY. A crash at any moment leaves either the old or the new file.
 * bytes_before/after may be NULL. Returns OK, EBUSY, EREADONLY, EIO, ENOSPC. */
int h2emv_compact(h2emv_mem *mem, uint64_t *bytes_before, uint64_t *bytes_after,
                  h2emv_error *err);

/* One problem found by h2emv_check. Pointers are valid during the callback. */
typedef struct h2emv_violation {
	const char *rule;     /* short name: "checksum", "dangling-child", "child-order",
	                         "child-outside-parent", "expiry-below-child",
	                         "snapshot-order", "cursor-order", "live-listed-dead",
	                         "format", ... */
	const char *db;       /* database the record is in: "nodes", "obs", ... */
	uint64_t snapshot;    /* snapshot seq concerned, 0 if none */
	h2emv_ref node;       /* node concerned, {0,0} if none */
	h2emv_ref other;      /* the second node (a child, a parent), {0,0} if none */
	uint64_t key;         /* observation/snapshot seq for other dbs, 0 if none */
	const char *message;  /* a sentence for a human */
} h2emv_violation;

typedef void (*h2emv_violation_fn)(void *ctx, const h2emv_violation *v);

/* Verify every record's checksum and structure, in every database, and the
 * tree invariants of every stored snapshot: each child reference resolves;
 * children are ordered in time and lie inside their parent's range; a
 * parent's expiry is at least each child's; snapshot seqs and build cursors
 * never go backwards; no version visible in a snapshot is listed dead there.
 * Each violation is passed to `fn` (may be NULL) and counted in
 * *n_violations. Returns OK if the check ran (whatever it found), or an error
 * if it could not run. `progress` may be NULL.
 * LMDB trusts its file: on a store over 64 MiB (whose leaves the open does
 * not read) a damaged page can still crash it (SIGSEGV, SIGBUS, an
 * assertion) inside this call. h2emv_check_store reads every page by hand
 * first and never crashes. */
int h2emv_check(uint64_t *n_violations, h2emv_mem *mem, h2emv_violation_fn fn, void *ctx,
                h2emv_progress_fn progress, void *progress_ctx, h2emv_error *err);

/* Check the memory in directory `dir` without trusting it (what `h2emv
 * check` runs): first every page of the data file is read by hand, without
 * LMDB (rule "page": the database, the page number in `key`, the keys it
 * held; "meta": a meta page; "missing-db"); only when every page is sound
 * is the memory opened read-only and h2emv_check run. The verdict is kept:
 * problems write the marker file DIR/DAMAGED (its first line says why),
 * and every open for writing is then refused with H2EMV_ECORRUPT ("damaged:
 * ..."); a clean check removes it. Returns as h2emv_check, plus ENOTFOUND
 * (no store in `dir`). Reading pages by hand never crashes; see
 * docs/damaged.md for what `h2emv salvage` then recovers. */
int h2emv_check_store(uint64_t *n_violations, const char *dir, h2emv_violation_fn fn, void *ctx,
                      h2emv_progress_fn progress, void *progress_ctx, h2emv_error *err);

/* What h2emv_salvage copied and lost, per database. */
typedef struct h2emv_salvage_db {
	const char *name;     /* "obs", "nodes", "snapshots", ...; NULL past the last */
	uint64_t copied;      /* records copied (before the consistency pass) */
	uint64_t bad_records; /* records read but failing their checksum or structure */
	uint64_t bad_pages;   /* damaged pages: the keys they held are lost */
	uint64_t orphaned;    /* of `copied`: found on leaves a damaged page had cut off */
	int unreadable;       /* the database could not be found or read at all */
} h2emv_salvage_db;

typedef struct h2emv_salvage_result {
	h2emv_salvage_db dbs[16];
	uint64_t reader_crashes;     /* reader processes that died (their page is lost) */
	uint64_t snapshots_dropped;  /* trees reaching a lost version, or cursors past the log */
	uint64_t pins_dropped;       /* pins on a dropped snapshot */
	uint64_t versions_dropped;   /* node versions of snapshots newer than the newest kept */
	uint64_t dead_dropped;       /* dead entries of those, or of lost versions */
	uint64_t snapshots_kept;
	uint64_t newest_snapshot;    /* the newest snapshot kept, 0 if none */
} h2emv_salvage_result;

/* Copy every readable, checksum-valid record of the memory in `src` (which
 * may be damaged: it is read by hand, never through LMDB, and never
 * written) into a new memory in `dst` (which must not exist). Each database
 * is read by a child process; one that dies loses only the page it was on
 * and another goes on after it. Then `dst` is made consistent: a snapshot
 * whose tree reaches a version that was lost, or whose build cursor is past
 * the last observation saved, is dropped with its pins; versions and dead
 * entries born after the newest kept snapshot go too; the build cursor and
 * the next node id follow what was kept, so `h2emv build` resumes from the
 * newest kept snapshot. Every loss is passed to `fn` (may be NULL) as a
 * violation: rule "page", "record", "database", "reader-crash",
 * "snapshot-dropped" or "pin-dropped". `dst` passes h2emv_check_store.
 * Returns OK (whatever was lost), EEXIST, ENOTFOUND, EIO, ENOSPC, ENOMEM.
 * Forks; call it from a process that may (not from a signal handler). */
int h2emv_salvage(h2emv_salvage_result *out, const char *src, const char *dst,
                  h2emv_violation_fn fn, void *ctx, h2emv_error *err);

/* ---------------------------------------------------------- memory model -- */

/* How the memory segments and forgets. Stored in the memory when it is
 * first built (h2emv_config_set before the first build changes it). */
typedef enum h2emv_profile {
	H2EMV_PROFILE_TEACH = 1,      /* a goal closes at each successful object interaction */
	H2EMV_PROFILE_SKILL_STACK = 2 /* nested goals from the dotted skill stack (ARMAR-7) */
} h2emv_profile;

typedef enum h2emv_forgetting {
	H2EMV_FORGET_RELEVANCE = 1, /* expire by time, extend by the policy's relevance (the paper) */
	H2EMV_FORGET_TIME = 2,      /* expire by time only */
	H2EMV_FORGET_NONE = 3       /* never forget */
} h2emv_forgetting;

typedef struct h2emv_config {
	unsigned version;            /* H2EMV_CONFIG_VERSION */
	h2emv_profile profile;       /* default TEACH */
	h2emv_forgetting forgetting; /* default RELEVANCE */
	/* Δt_ℓ, the lifetime at creation: τ = t_end + Δt_ℓ·γ_ℓ (µs; 0 = default) */
	h2emv_time life_scene;       /* L1, default 1 h */
	h2emv_time life_event;       /* L2, default 3 h */
	h2emv_time life_goal;        /* L3, default 24 h */
	h2emv_time life_summary;     /* L4+, default 3 days; ×2 per summary level below */
	h2emv_time event_gap;        /* a pause this long starts a new event; default 2 min */
	int rules_in_summaries;      /* rules condition grouping/summaries; default 1 */
	int rules_in_relevance;      /* rules condition relevance; default 1 */
	int flat;                    /* goals straight under the root (the flat baseline) */
	unsigned context_window;     /* edge items shown to grouping; default 8 */
	unsigned qa_max_rounds;      /* question answering budget; default 10 */
	uint64_t qa_max_tokens;      /* default 20000 */
	/* Clock discipline at ingest (see h2emv_ingest): reject a time more
	 * than this ahead of the memory's clock or the wall clock (µs; 0 =
	 * default 30 days; H2EMV_TIME_NEVER = no limit). Since version 2. */
	h2emv_time max_clock_jump;
} h2emv_config;

/* Version 1 lacks max_clock_jump; h2emv_config_set still takes it (and then
 * keeps the stored max_clock_jump). */
#define H2EMV_CONFIG_VERSION 2
#define H2EMV_CONFIG_INIT { H2EMV_CONFIG_VERSION, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0 }

/* The memory's configuration (defaults filled in). */
int h2emv_config_get(h2emv_config *out, h2emv_mem *mem, h2emv_error *err);
/* Store a configuration. Zero fields take defaults. Changing the profile of
 * a memory that already has a tree is refused (EINVAL). */
int h2emv_config_set(h2emv_mem *mem, const h2emv_config *cfg, h2emv_error *err);

/* Robot profiles (docs/profiles.md): a JSON text mapping a robot's skill
 * names and parameter keys to the roles of typed facts (object, source,
 * destination, place, person, instrument, utterance) and saying how its
 * stream segments ("action-list" or "skill-stack").
 *
 * h2emv_profile_set validates `json` and stores it in the memory; the
 * builder and the builtin question answering read it from then on. Before
 * the first build it also sets the configuration's segmentation profile;
 * after, a profile that segments otherwise is refused (EINVAL). Returns OK,
 * EPARSE (the message names the field), ELIMIT (over 1 MiB), EINVAL,
 * EREADONLY, EIO, ENOSPC.
 * h2emv_profile_get: *out is the stored JSON (malloc'd, the caller frees
 * it with h2emv_free), or NULL when the memory has none (the generic
 * mapping of common key names applies). Returns OK, ENOMEM, EIO.
 * h2emv_profile_builtin: the text of a profile shipped with h2emv
 * ("armar7", "teach"), or NULL. Thread-safe. */
int h2emv_profile_set(h2emv_mem *mem, const char *json, size_t len, h2emv_error *err);
int h2emv_profile_get(char **out, h2emv_mem *mem, h2emv_error *err);
const char *h2emv_profile_builtin(const char *name);

/* Tokens spent by the policy, as the llm policy counts them (for builtin, an
 * estimate of the same prompts). */
typedef struct h2emv_tokens {
	uint64_t prompt;
	uint64_t completion;
	uint64_t calls;
} h2emv_tokens;

typedef struct h2emv_build_options {
	unsigned version;           /* H2EMV_BUILD_OPTIONS_VERSION */
	uint64_t max_obs;           /* stop after this many observations; 0 = all pending */
	uint64_t commit_every;      /* observations per snapshot; 0 = 1000 */
	int no_forget;              /* skip the forgetting pass */
	h2emv_progress_fn progress; /* may be NULL; returning non-zero stops after a commit */
	void *progress_ctx;
} h2emv_build_options;

#define H2EMV_BUILD_OPTIONS_VERSION 1
#define H2EMV_BUILD_OPTIONS_INIT { H2EMV_BUILD_OPTIONS_VERSION, 0, 0, 0, NULL, NULL }

typedef struct h2emv_build_result {
	uint64_t obs_folded;        /* observations folded into the tree */
	uint64_t snapshots;         /* snapshots committed */
	uint64_t nodes_forgotten;   /* nodes replaced by placeholders */
	uint64_t tree_size;         /* nodes of level >= 3 after the build */
	uint64_t build_cursor;
	h2emv_tokens tokens_build;  /* grouping + summaries */
	h2emv_tokens tokens_forget; /* relevance estimates (cache misses) */
} h2emv_build_result;

/* Fold every observation after the build cursor into the tree (segmenting,
 * grouping, summarising), forgetting after each new goal, and commit
 * snapshots as it goes (every commit_every observations and at the end).
 * After a crash it resumes from the last snapshot's cursor and reaches the
 * same tree. One builder at a time per memory (EBUSY otherwise).
 * Returns OK, EBUSY, ECORRUPT, EIO, ENOSPC, EREADONLY, ENOMEM. */
int h2emv_build(h2emv_build_result *out, h2emv_mem *mem, const h2emv_build_options *opts,
                h2emv_error *err);

/* Run the forgetting pass now with the memory's clock set to `now` (not
 * earlier than the clock already is), and commit. */
int h2emv_forget(h2emv_build_result *out, h2emv_mem *mem, h2emv_time now, h2emv_error *err);

/* ----------------------------------------------------------- questions -- */

typedef struct h2emv_ask_options {
	unsigned version;       /* H2EMV_ASK_OPTIONS_VERSION */
	uint64_t snapshot;      /* 0 = newest */
	h2emv_time at;          /* answer as of this time: the newest snapshot whose
	                           clock is <= at; 0 = now */
	int trace;              /* record each step in the answer's trace */
} h2emv_ask_options;

#define H2EMV_ASK_OPTIONS_VERSION 1
#define H2EMV_ASK_OPTIONS_INIT { H2EMV_ASK_OPTIONS_VERSION, 0, 0, 0 }

typedef struct h2emv_answer {
	char *text;             /* the answer, e.g. "At 2024/09/23, 10:03:55." */
	h2emv_ref *evidence;    /* the nodes it rests on */
	size_t n_evidence;
	int forgotten;          /* the evidence region was forgotten */
	uint64_t snapshot;      /* the snapshot answered from */
	unsigned rounds;
	h2emv_tokens tokens;
	char *trace;            /* one line per step, or NULL */
} h2emv_answer;

/* Answer a question about the past from one snapshot. *out is the caller's;
 * release it with h2emv_answer_free. Answers read like "At 2024/09/23,
 * 10:03:55.", "At the countertop.", "I have forgotten that." (forgotten = 1)
 * or "I could not find that in my memory.". Returns OK, ENOTFOUND (nothing
 * built yet, or no snapshot as old as `at`), EINVAL (both `snapshot` and
 * `at` set), ELIMIT (a question over 8 KiB), ECORRUPT, ENOMEM. Thread-safe;
 * never waits for the builder. */
int h2emv_ask(h2emv_answer **out, h2emv_mem *mem, const char *question,
              const h2emv_ask_options *opts, h2emv_error *err);
void h2emv_answer_free(h2emv_answer *a);

/* ---------------------------------------------------------------- rules -- */

/* Relevance rules: an ordered list of sentences, versioned. Version 0 is
 * the default rule alone ("forget unless a rule says keep"). */
typedef struct h2emv_rules {
	uint32_t version;
	char **items;           /* n items, each NUL-terminated */
	size_t n;
	char *feedback;         /* the feedback that made this version ("" for 0) */
	h2emv_time created;
	uint32_t parent;        /* the version it was derived from */
	int repaired;           /* 1 if a dropped unrelated rule was restored */
	h2emv_tokens tokens;
} h2emv_rules;

/* Rules version `version` (0 = the current one). Free with h2emv_rules_free. */
int h2emv_rules_get(h2emv_rules **out, h2emv_mem *mem, uint32_t version, h2emv_error *err);
void h2emv_rules_free(h2emv_rules *r);
/* The number of the current version. */
int h2emv_rules_current(uint32_t *out, h2emv_mem *mem, h2emv_error *err);
/* Learn from feedback ("You should always remember where you put the
 * keys"): the policy rewrites the rules; a rewrite that silently drops an
 * unrelated rule is caught and the rule restored. Makes a new version. */
int h2emv_feedback(h2emv_rules **out, h2emv_mem *mem, const char *feedback, h2emv_error *err);
/* Make a new version equal to `version`. */
int h2emv_rules_revert(h2emv_rules **out, h2emv_mem *mem, uint32_t version, h2emv_error *err);

/* ---------------------------------------------------------------- dialog -- */

typedef enum h2emv_route {
	H2EMV_ROUTE_QUESTION = 1,
	H2EMV_ROUTE_FEEDBACK = 2,
	H2EMV_ROUTE_REPLY = 3
} h2emv_route;

typedef struct h2emv_reply {
	h2emv_route route;
	char *text;             /* what to say back */
	h2emv_answer *answer;   /* for a question, else NULL */
	h2emv_rules *rules;     /* for feedback: the new rules, else NULL */
	h2emv_tokens tokens;    /* routing + what it led to */
} h2emv_reply;

/* Route an utterance to question answering, to rule learning, or answer it
 * directly (greetings, unknown). A question before anything is built gets
 * "I have no memories yet..." and H2EMV_OK. Free with h2emv_reply_free. */
int h2emv_say(h2emv_reply **out, h2emv_mem *mem, const char *utterance, h2emv_error *err);
void h2emv_reply_free(h2emv_reply *r);

#ifdef __cplusplus
}
#endif
#endif /* H2EMV_H */
