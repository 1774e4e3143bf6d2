/*
 * baseline_sqlite.h — the SQLite side of bench_storage: the same work as
 * h2emv does, stored the way a careful SQLite user would store it.
 *
 * Observations, three ways (sqlb_mode), one row per observation; WAL,
 * synchronous=FULL (every commit durable), one transaction per batch,
 * statements prepared once:
 *  - SQLB_PARSED: each line parsed and validated by obs_from_json into the
 *    same msgpack body h2emv stores, in obs(seq INTEGER PRIMARY KEY, body BLOB);
 *  - SQLB_JSON_VALID: the raw line as TEXT with CHECK(json_valid(line)),
 *    what a user would write instead of h2emv;
 *  - SQLB_RAW: the raw line as TEXT, no check at all.
 *
 * Tree: the node bodies of node_encode (the msgpack body, not the h2emv
 * record with its header and compression) in
 * nodes(id, version, body, PRIMARY KEY(id, version)) WITHOUT ROWID, and a
 * snapshots table; a read is one transaction that walks the tree from the
 * latest snapshot's root, decoding every node with node_decode.
 */
#ifndef H2EMV_BENCH_BASELINE_SQLITE_H
#define H2EMV_BENCH_BASELINE_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/obsgen.h"
#include "bench/treegen.h"
#include "engine/engine.h"

/* The SQLite library version, for the report. */
const char *sqlb_version(void);

/* Storing observations: a fresh database at `path`, with the schema,
 * pragmas and statements above. Dies on any error. */
typedef enum sqlb_mode { SQLB_PARSED, SQLB_JSON_VALID, SQLB_RAW, SQLB_MODES } sqlb_mode;
typedef struct sqlb_writer sqlb_writer;
sqlb_writer *sqlb_writer_open(const char *path, sqlb_mode mode);

/* Store lines [from, to) of `obs` (each parsed by obs_from_json in
 * SQLB_PARSED mode, as they are otherwise) in transactions of `batch`;
 * or, when `bodies` is not NULL, the already parsed bodies[from, to)
 * (storage alone). Row i holds seq i + 1. */
void sqlb_writer_put(sqlb_writer *w, const obs_set *obs, const eng_buf *bodies, size_t from,
                     size_t to, size_t batch);

/* A final passive checkpoint (WAL pages SQLite has not yet copied back
 * are work still owed: time it with the puts), then close. */
void sqlb_writer_finish(sqlb_writer *w);

/* Bytes of the database file at `path` after a truncating checkpoint. */
uint64_t sqlb_file_bytes(const char *path);

/* Store tree `t` (nodes as node_encode gives them: `born` must already be
 * set) and one snapshot row for it, in a fresh database at `path`. */
void sqlb_tree_store(const char *path, const bench_tree *t);

typedef struct sqlb_reader sqlb_reader;

/* A connection for reading trees, kept open across walks the way an
 * application keeps its h2emv_mem open. */
sqlb_reader *sqlb_reader_open(const char *path);
void sqlb_reader_close(sqlb_reader *r);

/* One read: BEGIN, the latest snapshot row, every node from the root down
 * (children in order), each decoded with node_decode and its summary read,
 * COMMIT. *nodes and *summary_bytes count what was read. */
void sqlb_tree_walk(sqlb_reader *r, uint64_t *nodes, uint64_t *summary_bytes);

#endif
