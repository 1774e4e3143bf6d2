/*
 * bench_storage.h — what the parts of the bench_storage program share:
 * its options, scratch directories, and the results of each comparison
 * (bench_ingest.c: ingest and record sizes; bench_tree.c: snapshot reads).
 */
#ifndef H2EMV_BENCH_STORAGE_H
#define H2EMV_BENCH_STORAGE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/obsgen.h"
#include "h2emv.h"

#define DICT_TRAIN_AFTER 2000 /* h2emv's default, passed explicitly */
#define TREE_COMMIT_CHUNK 1000 /* nodes per snapshot when storing the tree */

typedef struct opts {
	size_t n, tree_nodes;
	const char *dir;
	int repeat;
	uint64_t seed;
} opts;

/* A fresh, empty directory `name` under the run's scratch root. The path
 * is valid until the next call. */
const char *scratch_dir(const char *name);

/* Open (creating) an h2emv store at `dir` with extra H2EMV_OPEN_* flags. */
h2emv_mem *open_store(const char *dir, unsigned flags);

/* h2emv_mem_stats, or the end of the run. */
h2emv_stats stats_of(h2emv_mem *mem);

/* ------------------------------------------------------------- ingest -- */

typedef struct rates {
	double h2emv, sqlite;  /* observations per second, medians; SQLite: SQLB_PARSED */
	double sqlite_valid;   /* SQLite storing the raw line with CHECK(json_valid) */
	double sqlite_raw;     /* SQLite storing the raw line alone */
	double h2emv_steady;   /* h2emv without the one-time dictionary training */
	double train_ms;       /* that training, median */
} rates;

typedef struct ingest_result {
	size_t n, batch;
	rates full;        /* JSON lines in: obs_from_json + storage, both sides */
	rates store;       /* storage alone: parsed bodies in (storage_compare) */
	double parse_rate; /* obs_from_json alone (set by the caller) */
	double parse_mbs;  /* the same in MB of JSON per second */
	double parse_us_550, parse_len_550; /* a ~550-byte line alone: µs, its length */
} ingest_result;

/* Lines [0, n) of `obs` stored durably in batches of `batch` by both
 * sides, --repeat runs each, alternating which goes first. The SQLite
 * database of the last run is moved to `keep_sqlite` (may be NULL). */
ingest_result ingest_compare(const opts *o, const obs_set *obs, size_t n, size_t batch,
                             const char *keep_sqlite);

/* Storage alone, for res->n lines in batches of res->batch: the bodies
 * parsed beforehand, then stored by eng_obs_append and by SQLite INSERTs,
 * alternating, R runs each; fills res->store. */
void storage_compare(ingest_result *res, const opts *o, const obs_set *obs);

/* Seconds obs_from_json alone takes over lines [0, n), median of R runs. */
double parse_only_secs(const opts *o, const obs_set *obs, size_t n);

/* µs obs_from_json takes for a line of about `target` bytes (the lines
 * within 10 % of it, their average length in *avg_len); 0 if none. */
double parse_us_near(const opts *o, const obs_set *obs, size_t target, double *avg_len);

typedef struct size_result {
	size_t pre_to, post_from, post_to;     /* seq ranges 1..pre_to, post_from+1..post_to */
	double json_pre, body_pre, rec_pre;    /* averages, bytes, before the dictionary */
	double json_post, body_post, rec_post; /* after it */
	uint64_t dicts, used_bytes;
	double sqlite_file_per_obs; /* set by the caller */
} size_result;

/* Stored record sizes before and after the dictionary (one extra ingest
 * of all n lines, without fsync: sizes do not depend on it). */
size_result measure_sizes(const obs_set *obs, size_t n);

/* --------------------------------------------------------------- tree -- */

typedef struct tree_result {
	size_t nodes;
	size_t per_level[8];
	uint64_t node_bytes, dicts;
	double body_avg;
	double h2emv_ms, sqlite_ms; /* per open + full read, median */
	double decode_ms;           /* node_decode of every body alone, median */
	size_t pairs;               /* timed (h2emv, SQLite) pairs */
} tree_result;

/* Build the --tree-nodes tree, store it on both sides and time snapshot
 * open + full read, alternating sides. */
tree_result tree_compare(const opts *o);

#endif
