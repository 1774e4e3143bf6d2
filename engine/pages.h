/*
 * pages.h — a reader of LMDB's on-disk format (data version 1, LMDB 0.9)
 * that trusts nothing: every page is read with pread (an unreadable sector
 * is an error, never SIGBUS) and checked before any field of it is used.
 * The integrity gate, `check`'s page pass and `salvage` are built on it;
 * LMDB itself never sees a page this reader has not been asked about, so
 * nothing here can trip LMDB's assertions. Private to engine/.
 */
#ifndef H2EMV_PAGES_H
#define H2EMV_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#define PG_INVALID UINT64_MAX /* LMDB's P_INVALID: an empty database */
#define PG_MAX_DEPTH 32       /* LMDB's cursor stack */
#define PG_MAX_KEY 511
#define PG_DB_REC 48u /* an MDB_db record */

/* A database's record in a meta page or in the main database. */
typedef struct pg_db {
	uint16_t flags, depth;
	uint64_t branch_pages, leaf_pages, overflow_pages, entries, root;
} pg_db;

typedef struct pg_file {
	int fd;
	uint64_t size;    /* bytes in the data file */
	uint32_t psize;   /* page size */
	uint64_t last_pg; /* of the meta in use */
	uint64_t txnid;   /* of the meta in use */
	pg_db free_db, main_db;
	uint8_t *seen;    /* one bit per page: reached by a walk */
	uint64_t seen_bits;
} pg_file;

/* Open `path` and check both meta pages: flags, magic, version, page size,
 * last page within the file, roots within the last page, the txnid parity.
 * The newer meta is the one used. H2EMV_ECORRUPT (why in `err`), EIO,
 * ENOTFOUND (no file). Close with pg_close. */
int pg_open(pg_file *f, const char *path, h2emv_error *err);
void pg_close(pg_file *f);
/* The same; with `lenient` 1 one sound meta page is enough, the newer
 * preferred (salvage); with 2 the older one is used (when the newer one's
 * trees turn out damaged). */
int pg_open_meta(pg_file *f, const char *path, int lenient, h2emv_error *err);

/* How a walk reads a tree. */
enum {
	PG_BRANCHES = 1, /* only check the branch levels (the leaves are not read) */
	PG_RECORDS = 2,  /* call on_record for every record of every sound leaf */
	PG_EDGES = 4,    /* only the first and the last path, root to leaf: where
	                    appends and the oldest deletes go (the gate before a write) */
};

typedef struct pg_walker {
	unsigned mode;
	void *ctx;
	/* a sound record; return nonzero to stop the walk with that status */
	int (*on_record)(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val,
	                 size_t vlen);
	/* a damaged page: its subtree is skipped. lo/hi bound the keys it held
	 * (hi NULL: to the end; lo NULL: from the start). */
	void (*on_bad)(void *ctx, uint64_t pgno, const char *why, const uint8_t *lo, size_t lolen,
	               const uint8_t *hi, size_t hilen);
	/* called before a leaf page's records are read (salvage's progress) */
	void (*on_leaf)(void *ctx, uint64_t pgno);
	/* pages to treat as damaged without reading them (salvage's retries) */
	const uint64_t *skip;
	size_t n_skip;
	uint64_t records; /* out: records seen */
	uint64_t bad;     /* out: damaged pages */
} pg_walker;

/* Walk database `db` (integer keys when `intkey`: the free list). Returns
 * H2EMV_OK when the walk finished (damage goes to on_bad and w->bad),
 * ENOMEM, or what on_record returned. */
int pg_walk(pg_file *f, const pg_db *db, int intkey, pg_walker *w);

/* A key range [lo, hi) (NULL: open on that side), as on_bad reports it. */
typedef struct pg_range {
	uint8_t lo[PG_MAX_KEY], hi[PG_MAX_KEY];
	size_t lon, hin;
	int has_lo, has_hi;
} pg_range;

/* Look for leaves that a damaged branch page cut off: every page not
 * marked in f->seen nor listed in the free list is read; a sound leaf whose
 * keys all have `ksize` bytes and lie inside one of `ranges` has its
 * records passed to w->on_record (on_leaf first). The caller verifies
 * them: such a page may hold another database's records. */
int pg_scan_orphans(pg_file *f, size_t ksize, const pg_range *ranges, size_t n_ranges,
                    pg_walker *w);

/* Find named database `name` in the main database. ENOTFOUND if it is not
 * there, ECORRUPT if its record is malformed or the path to it damaged. */
int pg_named(pg_db *out, pg_file *f, const char *name, h2emv_error *err);

/* A key for a message: a big-endian number when it has 8 bytes or more,
 * else hex; `open` when there is no bound on that side (k NULL). */
void pg_key_text(char *buf, size_t n, const uint8_t *k, size_t kn, const char *open);

/* A database record (PG_DB_REC bytes) read, and what is wrong with it
 * (NULL: sound) for a file whose last page is last_pg (pages.c). */
void pg_db_parse(pg_db *d, const uint8_t *p);
const char *pg_db_sane(const pg_db *d, uint64_t last_pg);

#endif
