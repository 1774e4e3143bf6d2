/*
 * h2emv.h — lifelong episodic memory for robots (H²-EMV), the public C API.
 *
 * This header is the manual. It is grouped in the order a newcomer meets the
 * objects:
 *   errors        status codes, h2emv_error, h2emv_strerror, h2emv_free
 *   common types  time, node references and kinds, tokens, callbacks
 *   memory        h2emv_mem: open, close
 *   configuration how the memory segments and forgets; robot profiles
 *   ingest        observations in: validate, ingest, read back
 *   build         fold observations into the tree; forgetting
 *   snapshots     consistent versions of the tree; pins
 *   nodes         reading a snapshot's tree
 *   questions     asking, relevance rules and feedback, the dialog
 *   maintenance   stats, gc, compaction, backup, check, salvage
 *   export        the tree and the observation log out, streamed
 *   EXPERIMENTAL  policies (who makes the memory's judgements), including
 *                 one of the caller's own, and raw access to the model
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
 * except the section marked EXPERIMENTAL at the end, which may change in
 * any minor version (docs/api-changes.md lists what changed).
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

/* The version of the library actually loaded (the macros above are the
 * header's): "0.1.0". major, minor and patch may be NULL. A program built
 * against a newer minor version than the library it runs with should say
 * so. */
const char *h2emv_version(int *major, int *minor, int *patch);

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

/* ---------------------------------------------------------- common types -- */

/* Time: microseconds since the Unix epoch, UTC. */
typedef int64_t h2emv_time;
#define H2EMV_TIME_NEVER INT64_MAX /* an expiry that never comes */

/* Read a time a person or a script writes: RFC 3339 ("2024-09-23T10:00:00Z",
 * with a fraction or an offset), "YYYY-MM-DD HH:MM[:SS]" and "YYYY-MM-DD"
 * (UTC; a missing zone means UTC), or whole microseconds since the epoch.
 * Returns H2EMV_OK or H2EMV_EINVAL (err says what is wrong). Relative times
 * ("+7d", "yesterday") are the caller's: they need a clock. */
int h2emv_time_parse(h2emv_time *out, const char *s, h2emv_error *err);

/* Write `t` (clamped to 1970 .. 9999) in one of two forms: H2EMV_TIME_RFC3339
 * "2024-09-23T10:00:00.000000Z" (what observations and exports carry) or
 * H2EMV_TIME_HUMAN "2024-09-23 10:00:00" (what the command line shows);
 * H2EMV_TIME_NEVER gives "never". Returns `out`. */
enum { H2EMV_TIME_RFC3339 = 0, H2EMV_TIME_HUMAN = 1 };
#define H2EMV_TIME_TEXT 32
const char *h2emv_time_format(char out[H2EMV_TIME_TEXT], h2emv_time t, int form);

/* A reference to one version of one node. */
typedef struct h2emv_ref {
	uint64_t id;
	uint32_t version;
} h2emv_ref;

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

/* Tokens spent by the policy, as the llm policy counts them (for builtin, an
 * estimate of the same prompts). */
typedef struct h2emv_tokens {
	uint64_t prompt;
	uint64_t completion;
	uint64_t calls;
} h2emv_tokens;

/* Progress of long work: `done` of `total` units (total 0 = unknown).
 * Return non-zero to ask the work to stop early at the next safe point. */
typedef int (*h2emv_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

/* Where streamed output goes: called with each successive piece of the
 * output, in order. Return 0 to go on; non-zero stops the export, which
 * then returns H2EMV_EIO. */
typedef int (*h2emv_write_fn)(void *ctx, const void *data, size_t len);

/* ---------------------------------------------------------------- memory -- */

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
	uint32_t dict_train_after; /* gc trains the memory's own zstd dictionary
	                              once this many observations exist (before,
	                              the default one is used); 0 = 2000 */
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
 * file DIR/DAMAGED). A handle opened without H2EMV_OPEN_READONLY writes
 * that marker itself when any of its reads returns H2EMV_ECORRUPT for
 * damage (a record's checksum, a corrupt page, a node the tree refers to
 * that is missing), and every later write is refused with ECORRUPT; a
 * read-only handle writes nothing. docs/damaged.md says what is and is
 * not covered.
 * `opts` may be NULL for defaults.
 * Read-only memories: a memory this process cannot write (the kernel says
 * so for the directory, data.mdb or lock.mdb: permissions, a read-only
 * mount, an immutable file) opens only with H2EMV_OPEN_READONLY; without
 * it the call returns H2EMV_EREADONLY saying so. When LMDB's lock.mdb
 * cannot be written, a read-only open goes without it (MDB_NOLOCK), which
 * is safe only while nobody writes the memory: docs/formats.md 1.9.
 * Returns H2EMV_OK, EINVAL, ENOMEM, EIO, ENOSPC, EFORMAT, ECORRUPT, ENOTFOUND
 * (no store and no CREATE flag), EREADONLY (the memory cannot be written and
 * READONLY was not asked for). A compaction running does not stop it.
 * On success *out is owned by the caller; release it with h2emv_mem_close. */
int h2emv_mem_open(h2emv_mem **out, const char *dir, const h2emv_open_options *opts,
                   h2emv_error *err);

/* Close the memory. Every snapshot opened from it must be closed first.
 * NULL is fine. */
void h2emv_mem_close(h2emv_mem *mem);

/* The directory the memory lives in. Owned by `mem`. */
const char *h2emv_mem_dir(const h2emv_mem *mem);

/* Opt in to marking a memory damaged when a read of it faults. LMDB reads
 * the data file through a memory map and trusts it: a page past the end of
 * a file cut short, or one the disk cannot read, raises SIGBUS or SIGSEGV
 * in the reading thread instead of returning an error. After this call,
 * such a fault whose address lies in the data file of a memory this
 * process has open for writing writes that memory's DAMAGED mark (as
 * h2emv_check_store does: every later open for writing is refused with
 * H2EMV_ECORRUPT, `h2emv` exits 3) and then ends the process by the same
 * signal, as it would have without the guard. A fault anywhere else goes
 * to the handler installed before (or the default action). The handlers
 * are process-wide (sigaction, SA_SIGINFO | SA_ONSTACK) and only do
 * async-signal-safe work; the alternate signal stack is set for the
 * calling thread. Install them after any SIGSEGV/SIGBUS handler of your
 * own, which they chain to. Read-only handles are never marked. Calling it
 * again does nothing. Returns H2EMV_OK, ENOMEM or EIO. docs/damaged.md. */
int h2emv_guard_faults(h2emv_error *err);

/* --------------------------------------------------------- configuration -- */

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
	/* The three flags below: 0 is off, not the default. H2EMV_CONFIG_INIT
	 * sets the two rules flags to 1; a zero-filled struct turns them off. */
	int rules_in_summaries;      /* 1: rules condition grouping/summaries */
	int rules_in_relevance;      /* 1: rules condition relevance */
	int flat;                    /* 1: goals straight under the root (the flat baseline) */
	unsigned context_window;     /* edge items shown to grouping; default 8 */
	unsigned qa_max_rounds;      /* question answering budget; default 10 */
	uint64_t qa_max_tokens;      /* default 20000 */
	/* Clock discipline at ingest (see h2emv_ingest): reject a time more
	 * than this ahead of the memory's clock or the wall clock (µs; 0 =
	 * default 30 days; H2EMV_TIME_NEVER = no limit). Since version 2. */
	h2emv_time max_clock_jump;
	/* Retention (h2emv_gc; docs/storage.md). Since version 3.
	 * raw_log_window: keep every observation this recent on the memory's
	 * clock in the log, even once no scene holds it (an audit window, so
	 * what was forgotten can still be rebuilt or audited for a while;
	 * H2EMV_RAW_LOG_DEFAULT, 7 days, in H2EMV_CONFIG_INIT and for a
	 * memory never configured; 0 = none: an observation goes at the first
	 * gc after its scene is forgotten).
	 * max_size: a disk budget in bytes for the data file; the automatic
	 * maintenance of `build --follow` collects and compacts when the file
	 * passes it (0 = no budget). */
	h2emv_time raw_log_window;
	uint64_t max_size;
} h2emv_config;

/* Version 1 lacks max_clock_jump, version 2 the retention fields;
 * h2emv_config_set still takes them (and keeps the stored values of the
 * fields they lack). */
#define H2EMV_CONFIG_VERSION 3
#define H2EMV_RAW_LOG_DEFAULT ((h2emv_time)7 * 86400 * 1000000) /* 7 days, µs */
#define H2EMV_CONFIG_INIT                                                                      \
	{ H2EMV_CONFIG_VERSION, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, H2EMV_RAW_LOG_DEFAULT, 0 }

/* The memory's configuration (defaults filled in), read from the handle
 * (the stored one as of h2emv_mem_open or this handle's last
 * h2emv_config_set). Returns OK, EINVAL (NULL out or mem). Thread-safe. */
int h2emv_config_get(h2emv_config *out, h2emv_mem *mem, h2emv_error *err);
/* Store a configuration. A zero duration or count takes its default
 * (documented per field); a zero flag (rules_in_summaries,
 * rules_in_relevance, flat) or budget (raw_log_window, max_size) means off,
 * so start from H2EMV_CONFIG_INIT or from h2emv_config_get, not from a
 * zero-filled struct. Changing the profile of a memory that already has a
 * tree is refused.
 * Returns OK, EINVAL (NULL mem or cfg, an unknown version, a value out of
 * range, another profile), EREADONLY, ECORRUPT (the store's counts cannot
 * be read), EIO, ENOSPC, ENOMEM. */
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

/* ---------------------------------------------------------------- ingest -- */

/* Size limits on one observation (a JSON line). */
#define H2EMV_OBS_MAX_BYTES (1u << 20) /* 1 MiB of JSON text */

/* Validate one observation given as JSON text (one JSON object, the format of
 * docs/formats.md) without storing it. Strict: unknown fields, wrong types,
 * bad times and invalid UTF-8 are errors; err->column and err->field say
 * where. `line` is copied into err->line so callers reading files get
 * "line N, column C" messages.
 * Returns H2EMV_OK, EPARSE, ELIMIT, ENOMEM, EINVAL. Thread-safe. */
int h2emv_obs_validate(const char *json, size_t len, uint64_t line, h2emv_error *err);

/* Validate one observation as h2emv_obs_validate does and give its
 * canonical JSON: what h2emv_obs_get_json returns once it is stored (one
 * line, no newline, NUL-terminated; times in RFC 3339, fields in their
 * order). *out is the caller's, release it with h2emv_free; *len_out (may
 * be NULL) gets its length. Returns OK, EPARSE, ELIMIT, EINVAL, ENOMEM.
 * Thread-safe. */
int h2emv_obs_canonical(char **out, size_t *len_out, const char *json, size_t len,
                        uint64_t line, h2emv_error *err);

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

/* Observation ids (idempotent ingest). An observation may carry an "id": a
 * string of 1 to 128 characters, each printable ASCII other than space
 * (0x21-0x7e), unique per observation (for example "<robot>-<boot>-<n>").
 * An observation whose id is already stored - a resend after a crash, or
 * the same id earlier in the same call - is a duplicate: it is not stored
 * again, is not held to the clock, and is reported with the seq its id
 * already has (h2emv_ingest_item). If its content differs from what is
 * stored under that id, the call fails with H2EMV_EEXIST naming the line
 * and the field "id": an id names one observation. The id is stored in
 * the observation (h2emv_obs_get_json shows it) and in an index written in
 * the same transaction, so a crash cannot separate them. Ids of
 * observations collected by GC may be reused. */

/* Store one observation durably. When this returns H2EMV_OK the observation
 * is on disk (fsync'd unless H2EMV_OPEN_NOSYNC) and *out (may be NULL)
 * holds its sequence number (1, 2, ...), or, for a duplicate id, the seq
 * the id already has. Nothing is stored on error. The clock discipline
 * above applies (with no override; see h2emv_ingest_opts).
 * Returns H2EMV_OK, EPARSE (malformed, or too far ahead of the clock),
 * EEXIST (its id names a different stored observation),
 * ELIMIT, ENOMEM, EIO, ENOSPC, EREADONLY, ECORRUPT (the log cannot be read
 * for the clock), and EBUSY when the map must grow while snapshots stay
 * open in this process for more than 10 s. A new memory's first ingest
 * also stores the default zstd dictionary (one small write, once); no
 * dictionary is trained here (h2emv_gc trains the memory's own). */
int h2emv_ingest(uint64_t *out, h2emv_mem *mem, const char *json, size_t len, h2emv_error *err);

/* Store `n` observations in one durable transaction (one fsync for all).
 * All or nothing: if any item fails validation, the clock discipline or
 * its id (EEXIST), nothing is stored and err->line is the 1-based index of
 * the first bad item. *out (may be NULL) gets the sequence number
 * of the first one; the rest follow in order, except duplicates (ids
 * already stored), which take no new seq: h2emv_ingest_opts with
 * `items` says which are which. h2emv_ingest_opts with NULL options.
 * Returns OK, EINVAL, EPARSE (a bad item), ELIMIT, EEXIST (an id reused for
 * other content), EREADONLY, EIO, ENOSPC. */
int h2emv_ingest_batch(uint64_t *out, h2emv_mem *mem, const char *const *json,
                       const size_t *len, size_t n, h2emv_error *err);

/* Accept times however far ahead of the memory's clock and the wall clock
 * (the robot really was switched off that long, or its history is meant to
 * lie in the future). The items still move the clock. */
#define H2EMV_INGEST_ALLOW_CLOCK_JUMP 0x1u

/* What became of one item (h2emv_ingest_options.items). */
typedef struct h2emv_ingest_item {
	uint64_t seq;   /* its seq: new, or for a duplicate the one its id has */
	int duplicate;  /* 1: its id was already stored (or came earlier in the
	                   call); nothing was stored for it */
} h2emv_ingest_item;

typedef struct h2emv_ingest_options {
	unsigned version;       /* H2EMV_INGEST_OPTIONS_VERSION */
	unsigned flags;         /* H2EMV_INGEST_* */
	const uint64_t *lines;  /* n input line numbers, one per item, used for
	                           err->line and messages; NULL = 1, 2, ... n */
	h2emv_time now;         /* the wall clock for the check; 0 = the real clock */
	/* version 2 */
	h2emv_ingest_item *items; /* NULL, or n slots, filled on success */
} h2emv_ingest_options;

#define H2EMV_INGEST_OPTIONS_VERSION 2
#define H2EMV_INGEST_OPTIONS_INIT { H2EMV_INGEST_OPTIONS_VERSION, 0, NULL, 0, NULL }

typedef struct h2emv_ingest_result {
	uint64_t first_seq;     /* seq of the first item stored (0 on error, or
	                           when every item was a duplicate) */
	size_t failed;          /* on an error about one item (EPARSE, ELIMIT,
	                           EEXIST): its 0-based index; otherwise n */
	uint64_t out_of_order;  /* items stored with t earlier than the memory's clock */
	h2emv_time clock;       /* the memory's clock after the call; -1 while the
	                           log is empty */
	/* filled only when the options passed have version >= 2 (a caller
	 * built against version 1 has the shorter struct) */
	uint64_t stored;        /* items stored: seqs first_seq .. first_seq+stored-1 */
	uint64_t duplicates;    /* items not stored because their id was */
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

/* ----------------------------------------------------------------- build -- */

typedef struct h2emv_build_options {
	unsigned version;           /* H2EMV_BUILD_OPTIONS_VERSION */
	uint64_t max_obs;           /* stop after this many observations; 0 = all pending */
	uint64_t commit_every;      /* observations per snapshot; 0 = 1000 */
	int no_forget;              /* skip the forgetting pass */
	h2emv_progress_fn progress; /* may be NULL; returning non-zero stops after a commit */
	void *progress_ctx;
	/* version 2: the result's obs_skipped and obs_missing are filled */
	/* version 3: */
	int estimate_tokens;        /* the builtin policy sends no prompt, so by default it
	                               reports no tokens for grouping and summaries (only
	                               tokens_build.calls); 1: it estimates what the llm
	                               policy's prompts would cost, as the evaluation's
	                               figures need (slower). A model policy always reports
	                               what it spent. */
} h2emv_build_options;

#define H2EMV_BUILD_OPTIONS_VERSION 3
#define H2EMV_BUILD_OPTIONS_INIT { H2EMV_BUILD_OPTIONS_VERSION, 0, 0, 0, NULL, NULL, 0 }

typedef struct h2emv_build_result {
	uint64_t obs_folded;        /* observations folded into the tree */
	uint64_t snapshots;         /* snapshots committed */
	uint64_t nodes_forgotten;   /* nodes replaced by placeholders */
	uint64_t tree_size;         /* nodes of level >= 3 after the build */
	uint64_t build_cursor;
	h2emv_tokens tokens_build;  /* grouping + summaries */
	h2emv_tokens tokens_forget; /* relevance estimates (cache misses) */
	/* filled only when the options passed have version >= 2 (NULL options
	 * count as the current version; a caller built against version 1 has
	 * the shorter struct) */
	uint64_t obs_skipped;       /* damaged observations passed over (check names them) */
	uint64_t obs_missing;       /* sequence numbers missing from the log (the gaps of a
	                               salvaged memory), passed over */
} h2emv_build_result;

/* Fold every observation after the build cursor into the tree (segmenting,
 * grouping, summarising), forgetting after each new goal, and commit
 * snapshots as it goes (every commit_every observations and at the end).
 * After a crash it resumes from the last snapshot's cursor and reaches the
 * same tree. One builder at a time per memory: EBUSY, naming the other
 * builder's process, while another process, handle or thread of this
 * handle builds or forgets, or holds the role (h2emv_build_claim).
 * A damaged observation and a gap in the log (the observations a salvage
 * could not save) never stop it: they are passed over and counted
 * (obs_skipped, obs_missing).
 * Returns OK, EBUSY, ECORRUPT, EIO, ENOSPC, EREADONLY, ENOMEM. */
int h2emv_build(h2emv_build_result *out, h2emv_mem *mem, const h2emv_build_options *opts,
                h2emv_error *err);

/* Claim the builder role for this handle until h2emv_build_release or
 * h2emv_mem_close, so that no other process or handle can build or forget
 * between this handle's calls (a loop that builds as observations arrive,
 * like `h2emv build --follow`). Builds and forgets on a claimed handle
 * run as usual, one thread at a time. Claiming twice is harmless.
 * Returns OK, EBUSY (another builder holds the role; the message names
 * its process when it can), EREADONLY, EIO. */
int h2emv_build_claim(h2emv_mem *mem, h2emv_error *err);

/* Give the claimed builder role back. NULL or an unclaimed handle is fine. */
void h2emv_build_release(h2emv_mem *mem);

/* Run the forgetting pass now with the memory's clock set to `now` (not
 * earlier than the clock already is), and commit. This MOVES the memory's
 * clock to `now` for good: an observation ingested later with an earlier
 * time is placed at `now` and judged at that clock. To see what would go
 * without changing anything, use h2emv_forget_preview. `out` may be NULL.
 * Returns OK, EINVAL (NULL mem), EBUSY (another builder), EREADONLY,
 * ECORRUPT, EIO (also an llm policy's transport failing), ENOSPC, ENOMEM. */
int h2emv_forget(h2emv_build_result *out, h2emv_mem *mem, h2emv_time now, h2emv_error *err);

/* One node a forgetting pass replaces by a placeholder (pointers valid
 * during the callback). Its descendants go with it and are not listed. */
typedef struct h2emv_forgotten {
	h2emv_ref node;          /* id and the version it has now */
	int level;
	h2emv_kind kind;         /* what it is now */
	h2emv_time start, end;
	h2emv_time expiry;       /* τ after the policy's extension */
	uint64_t descendants;    /* nodes below it that go too */
	const char *summary;     /* its summary; the placeholder keeps line one */
} h2emv_forgotten;

typedef void (*h2emv_forgotten_fn)(void *ctx, const h2emv_forgotten *f);

/* Dry run of h2emv_forget: what the pass at `now` would forget, without
 * committing, storing relevance estimates or moving the clock; it neither
 * takes nor waits for the builder lock, so it runs beside `build --follow`
 * (on the newest snapshot). `fn` (may be NULL) sees each node as it would
 * go, top-down; out->nodes_forgotten counts them (descendants not
 * included), out->tree_size is the size the tree would have; an llm
 * policy spends tokens here (out->tokens_forget). `out` may be NULL.
 * Returns OK, EINVAL (NULL mem), ECORRUPT, EIO, ENOMEM. */
int h2emv_forget_preview(h2emv_build_result *out, h2emv_mem *mem, h2emv_time now,
                         h2emv_forgotten_fn fn, void *ctx, h2emv_error *err);

typedef struct h2emv_upgrade_options {
	unsigned version;           /* H2EMV_UPGRADE_OPTIONS_VERSION */
	const char *backup;         /* a new directory the memory is copied to
	                               (h2emv_mem_backup) before anything is written;
	                               NULL: no backup */
	h2emv_progress_fn progress; /* ("nodes", done, total) over the tree's nodes of
	                               level >= 3; may be NULL; its return is ignored */
	void *progress_ctx;
} h2emv_upgrade_options;

#define H2EMV_UPGRADE_OPTIONS_VERSION 1
#define H2EMV_UPGRADE_OPTIONS_INIT { H2EMV_UPGRADE_OPTIONS_VERSION, NULL, NULL, NULL }

typedef struct h2emv_upgrade_result {
	uint64_t nodes_read;        /* node versions read from the store */
	uint64_t events, goals;     /* events and goals given typed facts */
	uint64_t summaries;         /* summaries whose facts were aggregated again */
	uint64_t snapshot;          /* the snapshot committed; 0: nothing to upgrade */
	uint64_t backup_bytes;      /* the backup's size; 0: none was made */
} h2emv_upgrade_result;

/* Give a tree built before typed facts (by an h2emv older than the robot
 * profiles) its facts, which the builtin policy answers from: h2emv_ask
 * on such a snapshot fails with EFORMAT until then. Each scene keeps its
 * observation, so the facts of every event and goal that has none are
 * derived from its scenes with the builder's own extraction and merging,
 * the summaries above are aggregated again, and the changed nodes are
 * committed as one new snapshot (same clock and build cursor; the term
 * index, check, gc, salvage and backup see it as any other). Older
 * snapshots stay as they were. With opts->backup the memory is copied
 * there first, and nothing is written if the copy fails. A tree that
 * needs nothing is left alone (out->snapshot 0, no backup). Holds the
 * builder role (EBUSY while a builder runs) and the tree in memory.
 * *out may be NULL. Returns OK, EINVAL, EBUSY, EREADONLY, EEXIST (the
 * backup's directory exists), ENOTFOUND (its parent does not), ECORRUPT,
 * EIO, ENOSPC, ENOMEM. */
int h2emv_upgrade(h2emv_upgrade_result *out, h2emv_mem *mem, const h2emv_upgrade_options *opts,
                  h2emv_error *err);

/* ------------------------------------------------------------- snapshots -- */

/* A snapshot is one consistent version of the memory tree. Opening one starts
 * a read transaction: it never waits for the writer, and the writer never
 * waits for it; it keeps seeing the same tree until closed. Keep snapshots
 * short-lived: an open one keeps its pages from being reused. */
typedef struct h2emv_snap h2emv_snap;

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
 * the caller's; release with h2emv_free. Returns OK, ECORRUPT, EIO, ENOMEM. */
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

/* All pins, by name: *out is an array of *n_out items, the caller's;
 * release it with h2emv_free. Returns OK, EINVAL (a NULL argument),
 * ECORRUPT, EIO, ENOMEM. */
int h2emv_pin_list(h2emv_pin **out, size_t *n_out, h2emv_mem *mem, h2emv_error *err);

/* The snapshots around time `at`, for reading the memory as it was then:
 * *before (may be NULL) gets the newest snapshot whose clock is not after
 * `at` (0 if none is that old), *covering (may be NULL) the oldest whose
 * clock has reached `at` (0 if none has: the newest is older than `at`).
 * This is how h2emv_ask and `h2emv export --at` choose. Returns OK (even
 * when both are 0), ENOTFOUND (no snapshot at all: nothing built yet),
 * ECORRUPT, ENOMEM, EIO. Thread-safe. */
int h2emv_snap_find_time(uint64_t *before, uint64_t *covering, h2emv_mem *mem, h2emv_time at,
                         h2emv_error *err);

/* The snapshot that shows the memory as it was at `at`: *out gets the
 * newest snapshot whose clock is not after `at` (h2emv_snap_find_time's
 * *before). This is the one choice h2emv_ask (opts.at) and `h2emv export
 * --at` make. Returns OK, ENOTFOUND (nothing built yet, or no snapshot is
 * that old; err says which), EINVAL, ECORRUPT, ENOMEM, EIO. Thread-safe. */
int h2emv_snap_at(uint64_t *out, h2emv_mem *mem, h2emv_time at, h2emv_error *err);

/* ----------------------------------------------------------------- nodes -- */

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

/* The accessors below read a node obtained from a snapshot that is still
 * open; they cannot fail (`node` must not be NULL) and are safe from any
 * thread holding the snapshot. */
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

/* ------------------------------------------------------------- questions -- */

typedef struct h2emv_ask_options {
	unsigned version;       /* H2EMV_ASK_OPTIONS_VERSION */
	uint64_t snapshot;      /* 0 = newest */
	h2emv_time at;          /* answer as of this time: the newest snapshot whose
	                           clock is <= at (h2emv_snap_at; ENOTFOUND when none
	                           is that old); 0 = now */
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
	int quoted;             /* 1: no typed fact answered the question as read; the
	                           text quotes the note or the words that match it
	                           best, with their time (an evidence answer) */
} h2emv_answer;

/* Answer a question about the past from one snapshot. *out is the caller's;
 * release it with h2emv_answer_free. Answers read like "At 2024/09/23,
 * 10:03:55.", "At the countertop.", "I have forgotten that." (forgotten = 1)
 * or "I could not find that in my memory.". Returns OK, ENOTFOUND (nothing
 * built yet, or no snapshot as old as `at`), EINVAL (both `snapshot` and
 * `at` set), ELIMIT (a question over 8 KiB), EFORMAT (the builtin policy on
 * a tree built before typed facts: run h2emv_upgrade, `h2emv upgrade`,
 * once), ECORRUPT, ENOMEM. The builtin policy answers from the typed facts
 * in one pass; a policy with a qa_step (the llm policy, a caller's own)
 * explores the tree one step at a time. Thread-safe; never waits for the
 * builder. */
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

/* Rules version `version` (0 = the current one). *out is the caller's;
 * free it with h2emv_rules_free (NULL is fine). Returns OK, EINVAL (NULL
 * out or mem), ENOTFOUND (no such version), ECORRUPT, EIO, ENOMEM.
 * Thread-safe. */
int h2emv_rules_get(h2emv_rules **out, h2emv_mem *mem, uint32_t version, h2emv_error *err);
void h2emv_rules_free(h2emv_rules *r);
/* The number of the current version (0: only the default rule).
 * Returns OK, EINVAL (NULL out or mem), ECORRUPT, EIO. Thread-safe. */
int h2emv_rules_current(uint32_t *out, h2emv_mem *mem, h2emv_error *err);
/* Learn from feedback ("You should always remember where you put the
 * keys"): the policy rewrites the rules; a rewrite that silently drops an
 * unrelated rule is caught and the rule restored. Makes a new version;
 * *out (the caller's, free with h2emv_rules_free) is it. Writers of rules
 * are serialised by a lock file (DIR/rules.lock), across processes too.
 * Feedback must be a rule: small talk ("hello there", "thanks") is refused
 * whatever the policy, and the builtin policy refuses any text that does
 * not say what to remember, keep or forget and about what, and questions;
 * no version is made and the message starts "not a rule".
 * Returns OK, EINVAL (NULL arguments, empty feedback, feedback over 4 KiB
 * or not UTF-8, feedback that is not a rule), EPARSE (the policy's reply could not be read, after its
 * retries, or proposes a rule over 4 KiB or not UTF-8), EREADONLY,
 * ECORRUPT, EIO (also an llm policy's transport failing), ENOSPC, ENOMEM. */
int h2emv_feedback(h2emv_rules **out, h2emv_mem *mem, const char *feedback, h2emv_error *err);
/* Make a new version equal to `version` (the history stays: a revert is
 * a version too). *out as for h2emv_feedback. Returns OK, EINVAL (NULL
 * out or mem), ENOTFOUND (no such version), EREADONLY, ECORRUPT, EIO,
 * ENOSPC, ENOMEM. */
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
 * directly (greetings, unknown). Small talk ("Hello robot, how are you?")
 * is answered directly, never as a question; a greeting in front of a
 * question or feedback is left out of what is asked or learned. A question
 * before anything is built gets
 * "I have no memories yet..." and H2EMV_OK. *out is the caller's; free it
 * with h2emv_reply_free (NULL is fine). Returns OK, EINVAL (NULL
 * arguments; feedback h2emv_feedback refuses), ELIMIT (an utterance over
 * 8 KiB), EPARSE (a model's reply, after retries), EREADONLY (feedback on
 * a read-only memory), ENOSPC (feedback on a full disk), ECORRUPT, EIO,
 * ENOMEM. */
int h2emv_say(h2emv_reply **out, h2emv_mem *mem, const char *utterance, h2emv_error *err);
void h2emv_reply_free(h2emv_reply *r);

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
	uint64_t relcache_bytes;  /* stored bytes of relevance-cache records */
	uint64_t generation;      /* data file generation: 0 = data.mdb, N = data.N.mdb;
	                             each compaction adds one (docs/formats.md) */
	uint64_t reserve_bytes;   /* space held back in DIR/reserve for gc and compact on
	                             a full disk; 0 = none (released, or no room) */
} h2emv_stats;

/* Counts and sizes. Returns OK, ECORRUPT, EIO. */
int h2emv_mem_stats(h2emv_stats *out, h2emv_mem *mem, h2emv_error *err);

/* Let go of the data file's pages mapped into this process by reads (the
 * store is memory-mapped: every page a read touched counts in the resident
 * set until the kernel needs the memory). They stay in the page cache, so
 * the next read maps them again at the cost of a minor fault; open
 * snapshots stay valid. A long-running reader (`h2emv serve` does it ten times
 * a second, and each tree export every 256 KiB it writes) calls this to
 * keep its resident set to what it is working on. Any thread, any time,
 * with snapshots open too; it never waits: while another thread grows the
 * map it does nothing. */
void h2emv_mem_release_pages(h2emv_mem *mem);

typedef struct h2emv_gc_options {
	unsigned version;            /* H2EMV_GC_OPTIONS_VERSION */
	uint32_t keep_snapshots;     /* always keep this many newest; 0 = 16 (min 1) */
	h2emv_time keep_age;         /* also keep every snapshot younger than this on the
	                                memory's clock (µs; its t_now); 0 = none */
	h2emv_time now;              /* the memory's clock for ages; 0 = the newest
	                                snapshot's */
	uint32_t batch;              /* deletions per write transaction; 0 = 512 */
	h2emv_progress_fn progress;  /* may be NULL */
	void *progress_ctx;
	/* Since version 2: 1 = leave the observation log and the relevance
	 * cache alone (only snapshots and node versions are collected). */
	int keep_log;
	/* Since version 3: 1 = ignore the raw-log window this once: delete
	 * every observation no remaining snapshot holds, however recent (for
	 * a user who must erase now; `h2emv gc --purge`). */
	int purge;
} h2emv_gc_options;

#define H2EMV_GC_OPTIONS_VERSION 3
#define H2EMV_GC_OPTIONS_INIT { H2EMV_GC_OPTIONS_VERSION, 0, 0, 0, 0, NULL, NULL, 0, 0 }

typedef struct h2emv_gc_result {
	uint64_t snapshots_dropped;
	uint64_t versions_deleted;
	uint64_t batches;            /* write transactions used (snapshots, versions) */
	uint64_t obs_reclaimed;      /* observations deleted from the log */
	uint64_t obs_bytes_reclaimed;
	uint64_t cache_collected;    /* relevance-cache entries deleted */
} h2emv_gc_result;

/* Garbage-collect, in this order:
 *  1. drop snapshots beyond the retention (newest keep_snapshots, plus
 *     those younger than keep_age on the memory's clock, plus every pinned
 *     one);
 *  2. delete the superseded node versions no remaining snapshot can see;
 *  3. delete the observations no remaining snapshot needs: folded into the
 *     newest snapshot, held by no live (unforgotten) scene of any remaining
 *     snapshot, older than the configuration's raw_log_window (unless
 *     opts.purge); the newest
 *     observation always stays (it numbers the next one);
 *  4. delete relevance-cache entries unused for 14 days of the memory's
 *     clock, then the least recently used beyond 65536.
 * Works in bounded batches, releasing the write lock between them, so an
 * ingest never waits for more than one batch. `opts`/`out` may be NULL.
 * The space is reused by later writes; h2emv_compact gives it back to the
 * disk (and only then are deleted bytes gone from the file). On a full disk
 * a batch that cannot be written releases the memory's reserve (DIR/reserve,
 * see h2emv_stats.reserve_bytes) and is retried once, so gc can run where an
 * ingest failed with ENOSPC.
 * Returns OK, EREADONLY, ECORRUPT, EIO, ENOSPC. */
int h2emv_gc(h2emv_gc_result *out, h2emv_mem *mem, const h2emv_gc_options *opts,
             h2emv_error *err);

/* What the observation log and the relevance cache hold, by why it is
 * kept, and what the next h2emv_gc would reclaim (it reads the whole log:
 * seconds on a big memory). */
typedef struct h2emv_retention {
	uint64_t obs_total;
	uint64_t obs_live;        /* held by a live scene of a remaining snapshot */
	uint64_t obs_window;      /* held only by the raw-log window */
	uint64_t obs_unbuilt;     /* not folded into the newest snapshot yet (and the newest) */
	uint64_t obs_unreadable;  /* damaged (kept for check and salvage) */
	uint64_t obs_reclaimable; /* the next gc deletes these */
	uint64_t obs_reclaimable_bytes;
	uint64_t cache_entries;
	uint64_t cache_collectable;
} h2emv_retention;

/* Returns OK, ECORRUPT, EIO, ENOMEM. */
int h2emv_retention_stats(h2emv_retention *out, h2emv_mem *mem, h2emv_error *err);

/* Rewrite the data file without free pages (and so without the bytes of
 * deleted records) into the next generation's file and switch to it
 * atomically. Runs beside everything else, in this process and others:
 * readers never wait (snapshots and views already open finish on the old
 * file, which stays mapped until they close; new ones open on the new
 * file), writers wait while the copy is made. A crash at any moment leaves
 * the old or the new file current, whole. Needs free space for one copy of
 * the live data; on a full disk it uses the memory's reserve (see
 * h2emv_stats.reserve_bytes). The old file's space returns to the disk when
 * the last snapshot open on it, in any process, closes.
 * bytes_before/after may be NULL. Returns OK, EREADONLY, EIO, ENOSPC. */
int h2emv_compact(uint64_t *bytes_before, uint64_t *bytes_after, h2emv_mem *mem,
                  h2emv_error *err);

/* Maintenance a robot does not have to script (docs/storage.md): run
 * h2emv_gc when it is due, then h2emv_compact when the file holds enough
 * free space or passes the configured disk budget (h2emv_config.max_size).
 * `build --follow` calls this whenever it is idle. */
typedef struct h2emv_maintain_options {
	unsigned version;             /* H2EMV_MAINTAIN_OPTIONS_VERSION */
	uint32_t gc_every_snapshots;  /* gc after this many new snapshots; 0 = 64 */
	h2emv_time gc_every;          /* or after this long on the memory's clock; 0 = 1 day */
	double compact_free_share;    /* compact when free pages are this share of the
	                                 file; 0 = 0.25 */
	uint64_t compact_min_bytes;   /* ... and the file is at least this big; 0 = 8 MiB */
	int force;                    /* 1: gc and compact now, due or not */
	h2emv_gc_options gc;          /* how gc runs (version 0 = the defaults, but
	                                 keeping the 4 newest snapshots and the pinned,
	                                 with gc.progress if set: returning non-zero
	                                 stops gc after its current batch) */
} h2emv_maintain_options;

#define H2EMV_MAINTAIN_OPTIONS_VERSION 1
#define H2EMV_MAINTAIN_OPTIONS_INIT { H2EMV_MAINTAIN_OPTIONS_VERSION, 0, 0, 0, 0, 0, { 0 } }

typedef struct h2emv_maintain_result {
	int gc_ran;                   /* 1 if gc ran */
	int compacted;                /* 1 if the file was compacted */
	int compact_deferred;         /* 1 if compaction was due but the memory was busy */
	h2emv_gc_result gc;
	uint64_t bytes_before, bytes_after; /* the data file around the call */
	uint64_t free_bytes;          /* free pages inside it before compaction */
	int compact_skipped;          /* 1 if compaction was due but its copy would not fit
	                                 on the disk (the file is left as it is; later
	                                 writes reuse gc's free pages inside it) */
	char compact_skipped_why[512]; /* then: how many bytes the copy needs, what is free */
} h2emv_maintain_result;

/* Returns OK, EREADONLY, ECORRUPT, EIO, ENOSPC, ENOMEM. A compaction that
 * finds the memory busy is deferred (compact_deferred), and one whose copy
 * would not fit on the disk is skipped (compact_skipped): neither is an
 * error. *out is filled on failure too: what gc did before it stays
 * counted. */
int h2emv_maintain(h2emv_maintain_result *out, h2emv_mem *mem,
                   const h2emv_maintain_options *opts, h2emv_error *err);

/* A consistent hot copy of the memory in the new directory `dest`: LMDB's
 * environment copy with compaction, taken from one read transaction, so
 * writers (ingest, the builder) go on meanwhile and the copy holds exactly
 * what was committed when the copy began. The copy is written under a
 * temporary name beside `dest`, synced, and renamed to `dest`, so `dest`
 * either does not exist or is complete; it opens (read-only too) at once.
 * Works on a memory opened read-only. *out (may be NULL) gets the
 * copy's size. Returns OK, EEXIST (`dest` exists), ENOTFOUND (its parent
 * directory does not), EINVAL, EIO, ENOSPC, EBUSY (the map was being grown
 * by this process for too long). */
int h2emv_mem_backup(uint64_t *out, h2emv_mem *mem, const char *dest, h2emv_error *err);

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

/* How h2emv_check and h2emv_check_store report. Every field may stay zero. */
typedef struct h2emv_check_options {
	unsigned version;              /* H2EMV_CHECK_OPTIONS_VERSION */
	h2emv_violation_fn violation;  /* sees each problem found; NULL = count only */
	void *violation_ctx;
	h2emv_progress_fn progress;    /* may be NULL; returning non-zero does not
	                                  stop a check */
	void *progress_ctx;
} h2emv_check_options;

#define H2EMV_CHECK_OPTIONS_VERSION 1
#define H2EMV_CHECK_OPTIONS_INIT { H2EMV_CHECK_OPTIONS_VERSION, NULL, NULL, NULL, NULL }

/* Verify every record's checksum and structure, in every database, and the
 * tree invariants of every stored snapshot: each child reference resolves;
 * children are ordered in time and lie inside their parent's range; a
 * parent's expiry is at least each child's; snapshot seqs and build cursors
 * never go backwards; no version visible in a snapshot is listed dead there.
 * Each violation is passed to opts->violation and counted in *out.
 * `opts` may be NULL (count only, no progress).
 * Returns OK if the check ran (whatever it found), or an error if it could
 * not run: EINVAL (NULL out or mem, an unknown opts->version), ECORRUPT
 * (the store cannot be walked at all), EIO, ENOMEM.
 * LMDB trusts its file: on a store over 64 MiB (whose leaves the open does
 * not read) a damaged page can still crash it (SIGSEGV, SIGBUS, an
 * assertion) inside this call. h2emv_check_store reads every page by hand
 * first and never crashes. */
int h2emv_check(uint64_t *out, h2emv_mem *mem, const h2emv_check_options *opts,
                h2emv_error *err);

/* Check the memory in directory `dir` without trusting it (what `h2emv
 * check` runs): first every page of the data file is read by hand, without
 * LMDB (rule "page": the database, the page number in `key`, the keys it
 * held; "meta": a meta page; "missing-db"); only when every page is sound
 * is the memory opened read-only and h2emv_check run. The verdict is kept:
 * problems write the marker file DIR/DAMAGED (its first line says why),
 * and every open for writing is then refused with H2EMV_ECORRUPT ("damaged:
 * ..."); a clean check removes it. *out counts the problems; `opts` as for
 * h2emv_check. Returns as h2emv_check, plus ENOTFOUND (no store in `dir`)
 * and what h2emv_mem_open returns for a read-only open. Reading pages by
 * hand never crashes; see docs/damaged.md for what `h2emv salvage` then
 * recovers. */
int h2emv_check_store(uint64_t *out, const char *dir, const h2emv_check_options *opts,
                      h2emv_error *err);

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
 * newest kept snapshot. Observation ids are kept for the observations
 * saved (a resend of one is still a duplicate) and dropped with those lost
 * (a resend restores the observation). Every loss is passed to `fn` (may
 * be NULL) as a violation: rule "page", "record", "database",
 * "reader-crash", "snapshot-dropped", "pin-dropped" or "obsid-dropped". `dst` passes h2emv_check_store.
 * Returns OK (whatever was lost), EEXIST, ENOTFOUND, EIO, ENOSPC, ENOMEM.
 * Forks; call it from a process that may (not from a signal handler). */
int h2emv_salvage(h2emv_salvage_result *out, const char *src, const char *dst,
                  h2emv_violation_fn fn, void *ctx, h2emv_error *err);

/* ---------------------------------------------------------------- export -- */

typedef enum h2emv_export_format {
	H2EMV_EXPORT_JSON = 1, /* one JSON document, schema "h2emv-export/1" (docs/formats.md §5) */
	H2EMV_EXPORT_DOT = 2,  /* Graphviz: levels as ranks, forgotten placeholders dashed */
	H2EMV_EXPORT_HTML = 3  /* one self-contained page (no network resources): the
	                          viewer with the JSON document embedded */
} h2emv_export_format;

typedef struct h2emv_export_options {
	unsigned version;           /* H2EMV_EXPORT_OPTIONS_VERSION */
	h2emv_export_format format; /* 0 = JSON */
	h2emv_ref start;            /* the subtree's top node; {0, 0} = the root */
	int max_depth;              /* levels below `start` to include; -1 = all
	                               (the _INIT value); 0 = `start` alone */
	int min_level;              /* leave out nodes below this level (and what is
	                               under them): 2 drops the scenes; 0 = keep all */
	int no_facts;               /* leave out each node's typed facts and each
	                               scene's observation: a light export, several
	                               times faster (docs/formats.md §5.6) */
	h2emv_progress_fn progress; /* nodes written so far (total 0: unknown); may be
	                               NULL; its return value is ignored */
	void *progress_ctx;
} h2emv_export_options;

#define H2EMV_EXPORT_OPTIONS_VERSION 1
#define H2EMV_EXPORT_OPTIONS_INIT \
	{ H2EMV_EXPORT_OPTIONS_VERSION, H2EMV_EXPORT_JSON, { 0, 0 }, -1, 0, 0, NULL, NULL }

/* Write the tree of snapshot `snap` (from opts->start, to opts->max_depth)
 * through `write`, streamed node by node in bounded memory: the snapshot's
 * cache of decoded nodes is emptied as the walk goes, so node pointers
 * obtained from `snap` before this call are invalid after it. Each node carries its level,
 * kind, version, time range, expiry, summary, typed facts (decoded), children
 * and placeholder state; the document carries the snapshot's record, the
 * memory's configuration and the rules version the snapshot saw with its
 * text. Read-only: works on a memory opened with H2EMV_OPEN_READONLY.
 * `opts` may be NULL (the whole tree as JSON). Returns OK, EINVAL (bad
 * options), ENOTFOUND (opts->start is not stored), ECORRUPT (a dangling
 * child, a tree deeper than 64), EIO (`write` failed), ENOMEM. */
int h2emv_snap_export(h2emv_snap *snap, h2emv_write_fn write, void *ctx,
                      const h2emv_export_options *opts, h2emv_error *err);

/* Write the stored observations whose time `t` lies in [from, to) as JSON
 * Lines (the canonical JSON of each, as h2emv_obs_get_json gives it, one
 * per line, in sequence order), through `write`. Sequence numbers that no
 * longer exist (reclaimed by retention) are skipped. `to` = 0 means no end.
 * Reads in batches of short read transactions, so a long export does not
 * pin the writer's pages. *n_out (may be NULL) gets the number written.
 * `progress` (may be NULL) sees sequence numbers scanned of the highest.
 * Returns OK, EINVAL, ECORRUPT, EIO (`write` failed), ENOMEM. */
int h2emv_obs_export(uint64_t *n_out, h2emv_mem *mem, h2emv_time from, h2emv_time to,
                     h2emv_write_fn write, void *ctx, h2emv_progress_fn progress,
                     void *progress_ctx, h2emv_error *err);

/* ---------------------------------------------------------- EXPERIMENTAL -- */

/* Everything below may change in a minor version: names, structs and
 * semantics. A policy is what makes the memory's judgements (grouping and
 * summarising while building, relevance when forgetting, rule learning,
 * question answering, routing an utterance). Every handle starts with the
 * builtin policy; a process may switch a handle to the llm policy or to a
 * policy of its own (h2emv_mem_set_custom_policy). */

/* Choose who makes the memory's judgements for this handle: "builtin"
 * (offline, deterministic; what every handle starts with) or "llm" (a
 * language model behind an OpenAI-compatible server, or a cassette; see
 * docs/llm.md); a policy of your own is set with h2emv_mem_set_custom_policy
 * (below). `config_path` is the llm policy's JSON config (NULL:
 * defaults and the H2EMV_LLM_* environment variables); it is ignored for
 * builtin. No request is sent here. The choice is not stored: each process
 * chooses when it opens the memory. Call it before building or asking on
 * this handle, never while another thread uses the handle.
 * Returns OK, EINVAL (unknown name, or a bad config: the message names the
 * key), EIO (unreadable config or cassette), ENOMEM. On error the handle
 * keeps its current policy. Experimental. */
int h2emv_mem_set_policy(h2emv_mem *mem, const char *name, const char *config_path,
                         h2emv_error *err);

/* How the policy has fared since the set_policy call (all zero for
 * builtin): decisions asked, replies that did not parse or validate, the
 * second tries they caused, decisions settled by the safe fallback, and
 * decisions lost to the transport. For a custom policy: callbacks called,
 * replies refused or EPARSE, each settled by the builtin policy, and
 * callbacks that failed with another error (retries stay 0). */
typedef struct h2emv_policy_stats {
	char name[16];             /* "builtin", "llm" or a custom policy's name */
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

/* ----------------------------------------- EXPERIMENTAL: your own policy -- */

/* A lab can make the memory's judgements with its own model: fill an
 * h2emv_custom_policy with the callbacks it implements and register it on a
 * handle with h2emv_mem_set_custom_policy. Every callback is optional; a
 * NULL one leaves that judgement to the builtin policy.
 *
 * Each callback gets the policy's `ctx` first, then its output, its input,
 * `spent` (add the tokens the call used, if any; never NULL) and `err` (fill
 * it with h2emv_error's message when failing; never NULL). It returns:
 *   H2EMV_OK      the output is filled; the library checks it (a partition
 *                 that is not one, a NULL or non-UTF-8 text, an unknown
 *                 action) and, when it does not hold, treats it as EPARSE;
 *   H2EMV_EPARSE  "no usable decision": the builtin policy decides this
 *                 one instead (counted in h2emv_policy_stats.fallbacks);
 *   another code  the error of the call that asked (a build stops at its
 *                 last commit and resumes later; a question fails).
 * Strings and arrays a callback returns must come from malloc(); the
 * library frees them with free(), whatever it makes of them. Inputs are
 * borrowed for the duration of the call.
 *
 * Threads: callbacks may run on several threads at once (h2emv_ask is
 * thread-safe and runs beside the builder), so they must be thread-safe.
 * Relevance answers are cached in the memory by a node's summary, level and
 * rules version, whichever policy gave them. */

/* One node as a policy sees it. */
typedef struct h2emv_policy_item {
	uint64_t id;          /* the node's id; 0 for an item not stored yet */
	int level;            /* 1 scene, 2 event, 3 goal, 4+ summary */
	h2emv_time start, end;
	const char *text;     /* its summary (for a placeholder, its kept first line;
	                         "" in question answering) */
	const char *content;  /* words to match against (objects, actions, places,
	                         people, speech); may be NULL */
	int forgotten;        /* 1: a placeholder of forgotten nodes */
} h2emv_policy_item;

/* The relevance rules in force, in order (the default rule first). */
typedef struct h2emv_policy_rules {
	const char *const *items;
	size_t n;
} h2emv_policy_rules;

/* Consecutive items [first, last] (0-based indexes into the request's
 * items) under one parent with `summary`. */
typedef struct h2emv_policy_group {
	size_t first, last;
	char *summary;        /* in a reply: malloc'd */
} h2emv_policy_group;

/* Regroup the items of one level while the tree grows: the old children
 * (already under the old groups, which partition the first n_items - n_new
 * items) and the n_new new ones at the end, oldest first. */
typedef struct h2emv_policy_group_request {
	int level;                           /* the items' level; groups are one above */
	const h2emv_policy_item *items;
	size_t n_items;
	const h2emv_policy_group *old_groups;
	size_t n_old;
	size_t n_new;
	const h2emv_policy_rules *rules;     /* NULL when rules must not condition summaries */
	h2emv_time now;
} h2emv_policy_group_request;

/* How relevant an expired node still is. */
typedef struct h2emv_policy_relevance_request {
	const h2emv_policy_item *item;       /* the expired node */
	const h2emv_policy_item *parent;     /* NULL under the root */
	h2emv_time now;
	const h2emv_policy_rules *rules;     /* NULL when rules must not condition relevance */
} h2emv_policy_relevance_request;

/* What the question-answering agent sees each round: the nodes shown so
 * far in tree order with their depth (the root's children are depth 0). */
typedef struct h2emv_policy_qa_view {
	const char *question;
	h2emv_time now;
	const h2emv_policy_item *nodes;
	const int *depth;
	const int *expanded;                 /* 1: its children are shown */
	const int *has_children;
	size_t n;
	int round, max_rounds;               /* the last round must answer */
	const char *history;                 /* earlier actions and what they found, or "" */
} h2emv_policy_qa_view;

enum h2emv_qa_kind {
	H2EMV_QA_EXPAND = 1, /* show the children of nodes `ids` */
	H2EMV_QA_RANGE = 2,  /* expand every node overlapping [t0, t1] */
	H2EMV_QA_SEARCH = 3, /* expand the nodes whose content matches `text`; with
	                        t1 > 0 only those overlapping [t0, t1] */
	H2EMV_QA_ANSWER = 4  /* answer `text`, resting on nodes `ids` */
};

/* One step of the agent; ids and text malloc'd. */
typedef struct h2emv_policy_qa_action {
	int kind;            /* enum h2emv_qa_kind */
	uint64_t *ids;
	size_t n_ids;
	h2emv_time t0, t1;
	char *text;          /* the search words, or the answer */
	int forgotten;       /* ANSWER: what was asked about has been forgotten */
} h2emv_policy_qa_action;

typedef struct h2emv_custom_policy {
	unsigned version;    /* H2EMV_CUSTOM_POLICY_VERSION */
	const char *name;    /* 1..15 characters, not "builtin" or "llm"; copied.
	                        h2emv_mem_policy_stats reports it */
	void *ctx;           /* passed to every callback; the caller's */
	/* A partition of ALL the request's items into consecutive groups, each
	 * with a summary; a group equal to an old one in range and summary
	 * keeps that parent. *groups is a malloc'd array of *n_groups. */
	int (*group)(void *ctx, h2emv_policy_group **groups, size_t *n_groups,
	             const h2emv_policy_group_request *req, h2emv_tokens *spent,
	             h2emv_error *err);
	/* One summary for `items`, the children of one new node at level + 1. */
	int (*summarize)(void *ctx, char **summary, const h2emv_policy_item *items, size_t n,
	                 int level, const h2emv_policy_rules *rules, h2emv_tokens *spent,
	                 h2emv_error *err);
	/* α for an expired node: 0 forget now, n keep n more lifetimes, INFINITY
	 * keep forever (NaN or negative count as 0). */
	int (*relevance)(void *ctx, double *alpha, const h2emv_policy_relevance_request *req,
	                 h2emv_tokens *spent, h2emv_error *err);
	/* The new list of rules (without the default rule, which stays first)
	 * after a user's feedback: a malloc'd array of *n malloc'd strings. */
	int (*learn)(void *ctx, char ***rules, size_t *n, const h2emv_policy_rules *old,
	             const char *feedback, h2emv_tokens *spent, h2emv_error *err);
	/* The agent's next step. NULL: h2emv_ask answers as the builtin policy
	 * does (from the typed facts, in one pass). A step refused or EPARSE
	 * is settled by answering "I could not find that in my memory." (the
	 * builtin policy takes no steps). */
	int (*qa_step)(void *ctx, h2emv_policy_qa_action *action, const h2emv_policy_qa_view *view,
	               h2emv_tokens *spent, h2emv_error *err);
	/* Is `utterance` a question, feedback, or something to answer directly
	 * (then *reply, malloc'd, is what to say)? */
	int (*route)(void *ctx, h2emv_route *route, char **reply, const char *utterance,
	             h2emv_tokens *spent, h2emv_error *err);
	/* Called once when the handle drops the policy (another policy set, or
	 * h2emv_mem_close); may be NULL. */
	void (*destroy)(void *ctx);
} h2emv_custom_policy;

#define H2EMV_CUSTOM_POLICY_VERSION 1
#define H2EMV_CUSTOM_POLICY_INIT \
	{ H2EMV_CUSTOM_POLICY_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL }

/* Make `policy` (copied; its ctx stays the caller's until destroy) the
 * handle's policy, in place of the current one, which is released. Like
 * h2emv_mem_set_policy: not stored, call it before building or asking,
 * never while another thread uses the handle. Returns OK, EINVAL (NULL
 * arguments, an unknown version, a bad name), ENOMEM. On error the handle
 * keeps its current policy and destroy is not called. */
int h2emv_mem_set_custom_policy(h2emv_mem *mem, const h2emv_custom_policy *policy,
                                h2emv_error *err);

/* ----------------------------------------------- EXPERIMENTAL: the model -- */

/* A client of the llm policy's model server, for programs that talk to the
 * same model as the memory (the evaluation's LLM judge does): the same
 * configuration file and H2EMV_LLM_* variables, the same transport (http,
 * or a cassette to record or replay), retries and deadlines (docs/llm.md). */
typedef struct h2emv_llm h2emv_llm;

/* No request is sent here. Returns OK, EINVAL (a bad config, no model, an
 * API key variable unset), EIO (config or cassette unreadable), EPARSE (a
 * damaged cassette line), ELIMIT, ENOMEM. Close with h2emv_llm_close. */
int h2emv_llm_open(h2emv_llm **out, const char *config_path, h2emv_error *err);

/* NULL is fine. No call may be in progress on it. */
void h2emv_llm_close(h2emv_llm *llm);

typedef struct h2emv_llm_message {
	const char *role;    /* "system", "user" or "assistant" */
	const char *content;
} h2emv_llm_message;

typedef struct h2emv_llm_request {
	unsigned version;                    /* H2EMV_LLM_REQUEST_VERSION */
	const char *decision;                /* which configured model answers ("models"
	                                        in the config) and what errors and
	                                        cassette lines are named: "group",
	                                        "summarize", "relevance", "learn", "qa",
	                                        "route" or "judge" */
	const h2emv_llm_message *messages;
	size_t n_messages;
	const char *schema_name;             /* NULL = "reply" */
	const char *schema;                  /* a JSON Schema (an object, as text) the
	                                        reply must follow when the config asks
	                                        for structured output; NULL = plain */
} h2emv_llm_request;

#define H2EMV_LLM_REQUEST_VERSION 1
#define H2EMV_LLM_REQUEST_INIT { H2EMV_LLM_REQUEST_VERSION, NULL, NULL, 0, NULL, NULL }

/* One chat exchange: *out is the reply's text (malloc'd; release it with
 * h2emv_free); *spent (may be NULL) gets the tokens added, as the server
 * counts them. Thread-safe: threads may share one h2emv_llm.
 * Returns OK, EINVAL (bad request: unknown decision, no messages, a schema
 * that is not a JSON object), ENOTFOUND (replay: not in the cassette), EIO
 * (the server unreachable or failing after the retries, the deadline
 * passed), EPARSE (the server's body was no chat completion), ENOMEM. */
int h2emv_llm_chat(char **out, h2emv_tokens *spent, h2emv_llm *llm,
                   const h2emv_llm_request *req, h2emv_error *err);

#ifdef __cplusplus
}
#endif
#endif /* H2EMV_H */