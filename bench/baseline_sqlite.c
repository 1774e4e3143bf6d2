/*
 * baseline_sqlite.c — SQLite doing h2emv's storage work (see
 * baseline_sqlite.h for the schema and the settings, and why).
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "api/observe/observation.h"
#include "bench/baseline_sqlite.h"
#include "bench/bench_util.h"

/* Pages cached per connection: enough for the whole tree, as an
 * application that cares about read speed would set it. */
#define READ_PRAGMAS "PRAGMA cache_size=-65536; PRAGMA mmap_size=268435456;"

const char *sqlb_version(void)
{
	return sqlite3_libversion();
}

static void check(sqlite3 *db, int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
		bench_die("sqlite: %s: %s", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		bench_die("sqlite: %s: %s", sql, msg ? msg : "error");
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	check(db, sqlite3_prepare_v2(db, sql, -1, &st, NULL), sql);
	return st;
}

static void run(sqlite3 *db, sqlite3_stmt *st, const char *what)
{
	check(db, sqlite3_step(st), what);
	sqlite3_reset(st);
}

static sqlite3 *open_fresh(const char *path)
{
	sqlite3 *db;
	char side[3300];
	remove(path);
	snprintf(side, sizeof side, "%s-wal", path);
	remove(side);
	snprintf(side, sizeof side, "%s-shm", path);
	remove(side);
	check(NULL, sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL),
	      path);
	exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;");
	return db;
}

struct sqlb_writer {
	sqlite3 *db;
	sqlb_mode mode;
	sqlite3_stmt *begin, *commit, *ins;
	eng_buf body;
};

sqlb_writer *sqlb_writer_open(const char *path, sqlb_mode mode)
{
	static const char *const schema[SQLB_MODES] = {
		[SQLB_PARSED] = "CREATE TABLE obs(seq INTEGER PRIMARY KEY, body BLOB)",
		[SQLB_JSON_VALID] = "CREATE TABLE obs(seq INTEGER PRIMARY KEY,"
		                    " body TEXT CHECK(json_valid(body)))",
		[SQLB_RAW] = "CREATE TABLE obs(seq INTEGER PRIMARY KEY, body TEXT)",
	};
	sqlb_writer *w = calloc(1, sizeof *w);
	if (!w)
		bench_die("out of memory");
	w->mode = mode;
	w->db = open_fresh(path);
	exec(w->db, schema[mode]);
	w->begin = prepare(w->db, "BEGIN");
	w->commit = prepare(w->db, "COMMIT");
	w->ins = prepare(w->db, "INSERT INTO obs(seq, body) VALUES (?, ?)");
	return w;
}

void sqlb_writer_put(sqlb_writer *w, const obs_set *obs, const eng_buf *bodies, size_t from,
                     size_t to, size_t batch)
{
	h2emv_error err;
	for (size_t i = from; i < to;) {
		size_t end = i + batch < to ? i + batch : to;
		run(w->db, w->begin, "BEGIN");
		for (; i < end; i++) {
			const eng_buf *b = &w->body;
			sqlite3_bind_int64(w->ins, 1, (sqlite3_int64)(i + 1));
			if (!bodies && w->mode != SQLB_PARSED) {
				sqlite3_bind_text(w->ins, 2, obs->line[i], (int)obs->len[i], SQLITE_STATIC);
				run(w->db, w->ins, "INSERT");
				continue;
			}
			if (bodies) {
				b = &bodies[i];
			} else {
				w->body.len = 0;
				if (obs_from_json(&w->body, obs->line[i], obs->len[i], i + 1, &err))
					bench_die("observation %zu: %s", i + 1, err.message);
			}
			sqlite3_bind_blob(w->ins, 2, b->data, (int)b->len, SQLITE_STATIC);
			run(w->db, w->ins, "INSERT");
		}
		run(w->db, w->commit, "COMMIT");
	}
}

void sqlb_writer_finish(sqlb_writer *w)
{
	check(w->db, sqlite3_wal_checkpoint_v2(w->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL),
	      "checkpoint");
	sqlite3_finalize(w->begin);
	sqlite3_finalize(w->commit);
	sqlite3_finalize(w->ins);
	sqlite3_close(w->db);
	eng_buf_free(&w->body);
	free(w);
}

uint64_t sqlb_file_bytes(const char *path)
{
	sqlite3 *db;
	check(NULL, sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), path);
	check(db, sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL),
	      "checkpoint");
	sqlite3_close(db);
	return bench_file_size(path);
}

void sqlb_tree_store(const char *path, const bench_tree *t)
{
	sqlite3 *db = open_fresh(path);
	exec(db, "CREATE TABLE nodes(id INTEGER, version INTEGER, body BLOB,"
	         " PRIMARY KEY(id, version)) WITHOUT ROWID;"
	         "CREATE TABLE snapshots(seq INTEGER PRIMARY KEY, root_id INTEGER,"
	         " root_version INTEGER, t_now INTEGER, created INTEGER, build_cursor INTEGER,"
	         " rules_version INTEGER, n_nodes INTEGER);"
	         "BEGIN");
	sqlite3_stmt *ins = prepare(db, "INSERT INTO nodes(id, version, body) VALUES (?, ?, ?)");
	eng_buf body = { 0 };
	h2emv_error err;
	for (size_t i = 0; i < t->n; i++) {
		const eng_node *n = t->nodes[i];
		body.len = 0;
		if (node_encode(&body, n, &err))
			bench_die("node_encode: %s", err.message);
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)n->id);
		sqlite3_bind_int64(ins, 2, n->version);
		sqlite3_bind_blob(ins, 3, body.data, (int)body.len, SQLITE_STATIC);
		run(db, ins, "INSERT node");
	}
	sqlite3_finalize(ins);
	sqlite3_stmt *snap = prepare(db, "INSERT INTO snapshots VALUES (1, ?, ?, ?, 0, 0, 0, ?)");
	sqlite3_bind_int64(snap, 1, (sqlite3_int64)t->root.id);
	sqlite3_bind_int64(snap, 2, t->root.version);
	sqlite3_bind_int64(snap, 3, t->t_now);
	sqlite3_bind_int64(snap, 4, (sqlite3_int64)t->n_l3plus);
	run(db, snap, "INSERT snapshot");
	sqlite3_finalize(snap);
	exec(db, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE);");
	eng_buf_free(&body);
	sqlite3_close(db);
}

/* -------------------------------------------------------------- reads -- */

struct sqlb_reader {
	sqlite3 *db;
	sqlite3_stmt *begin, *commit, *snap, *node;
	eng_node **seen; /* decoded nodes of the current read, freed at its end */
	size_t n_seen, cap_seen;
	uint64_t summary_bytes;
};

sqlb_reader *sqlb_reader_open(const char *path)
{
	sqlb_reader *r = calloc(1, sizeof *r);
	if (!r)
		bench_die("out of memory");
	check(NULL, sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE, NULL), path);
	exec(r->db, READ_PRAGMAS);
	r->begin = prepare(r->db, "BEGIN");
	r->commit = prepare(r->db, "COMMIT");
	r->snap = prepare(r->db, "SELECT root_id, root_version FROM snapshots"
	                         " ORDER BY seq DESC LIMIT 1");
	r->node = prepare(r->db, "SELECT body FROM nodes WHERE id = ? AND version = ?");
	return r;
}

void sqlb_reader_close(sqlb_reader *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->begin);
	sqlite3_finalize(r->commit);
	sqlite3_finalize(r->snap);
	sqlite3_finalize(r->node);
	sqlite3_close(r->db);
	free(r->seen);
	free(r);
}

static const eng_node *get_node(sqlb_reader *r, uint64_t id, uint32_t version)
{
	sqlite3_bind_int64(r->node, 1, (sqlite3_int64)id);
	sqlite3_bind_int64(r->node, 2, version);
	if (sqlite3_step(r->node) != SQLITE_ROW)
		bench_die("sqlite: node %llu v%u: %s", (unsigned long long)id, version,
		          sqlite3_errmsg(r->db));
	eng_node *n;
	h2emv_error err;
	if (node_decode(&n, sqlite3_column_blob(r->node, 0),
	                (size_t)sqlite3_column_bytes(r->node, 0), &err))
		bench_die("sqlite: node %llu: %s", (unsigned long long)id, err.message);
	sqlite3_reset(r->node);
	if (n->id != id || n->version != version) /* h2emv makes the same check */
		bench_die("sqlite: node %llu holds another node", (unsigned long long)id);
	if (r->n_seen == r->cap_seen) {
		r->cap_seen = r->cap_seen ? r->cap_seen * 2 : 1024;
		r->seen = realloc(r->seen, r->cap_seen * sizeof *r->seen);
		if (!r->seen)
			bench_die("out of memory");
	}
	r->seen[r->n_seen++] = n;
	return n;
}

static void walk(sqlb_reader *r, const eng_node *n)
{
	r->summary_bytes += strlen(n->summary);
	for (uint32_t i = 0; i < n->n_children; i++)
		walk(r, get_node(r, n->children[i].id, n->children[i].version));
}

void sqlb_tree_walk(sqlb_reader *r, uint64_t *nodes, uint64_t *summary_bytes)
{
	run(r->db, r->begin, "BEGIN");
	if (sqlite3_step(r->snap) != SQLITE_ROW)
		bench_die("sqlite: no snapshot row");
	uint64_t root_id = (uint64_t)sqlite3_column_int64(r->snap, 0);
	uint32_t root_version = (uint32_t)sqlite3_column_int64(r->snap, 1);
	sqlite3_reset(r->snap);
	r->n_seen = 0;
	r->summary_bytes = 0;
	walk(r, get_node(r, root_id, root_version));
	run(r->db, r->commit, "COMMIT");
	for (size_t i = 0; i < r->n_seen; i++)
		free(r->seen[i]);
	*nodes = r->n_seen;
	*summary_bytes = r->summary_bytes;
}
