/*
 * test_ack.c — acknowledged, idempotent ingest: observation ids through
 * the C API (a resend is a duplicate reported with the seq it has, within
 * one call too; a reused id with other content is refused; callers built
 * against version 1 of the options keep their shorter result), and
 * `h2emv ingest --ack` killed mid-stream, then sent everything again:
 * every observation is stored exactly once and the acks only move forward.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/mem/mem.h"
#include "engine/env.h" /* env_write, to delete an observation as GC does */
#include "h2emv.h"
#include "testutil.h"

/* Observation number i (1-based) of the test stream, with id "r-<i>". */
static char *line_of(uint64_t i)
{
	return tu_fmt("{\"t\":%llu,\"note\":\"step %llu\",\"id\":\"r-%llu\"}",
	              (unsigned long long)(1700000000000000ull + i * 1000000ull),
	              (unsigned long long)i, (unsigned long long)i);
}

static int ingest_lines(h2emv_ingest_result *res, h2emv_ingest_item *items, h2emv_mem *m,
                        char **lines, size_t n, h2emv_error *err)
{
	size_t *len = calloc(n, sizeof *len);
	assert_non_null(len);
	for (size_t i = 0; i < n; i++)
		len[i] = strlen(lines[i]);
	h2emv_ingest_options o = H2EMV_INGEST_OPTIONS_INIT;
	o.items = items;
	int rc = h2emv_ingest_opts(res, m, (const char *const *)lines, len, n, &o, err);
	free(len);
	return rc;
}

static void test_resent_ids_are_duplicates_with_their_seq(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	char *lines[6];
	for (int i = 0; i < 6; i++)
		lines[i] = line_of((uint64_t)i + 1);
	h2emv_ingest_result res;
	h2emv_ingest_item items[6];
	h2emv_error err = { 0 };
	assert_int_equal(ingest_lines(&res, items, m, lines, 4, &err), H2EMV_OK);
	assert_int_equal(res.first_seq, 1);
	assert_int_equal(res.stored, 4);
	assert_int_equal(res.duplicates, 0);
	/* a resend of 3..6: 3 and 4 are known, 5 and 6 new */
	assert_int_equal(ingest_lines(&res, items, m, lines + 2, 4, &err), H2EMV_OK);
	assert_int_equal(res.stored, 2);
	assert_int_equal(res.duplicates, 2);
	assert_int_equal(res.first_seq, 5);
	assert_true(items[0].duplicate && items[0].seq == 3);
	assert_true(items[1].duplicate && items[1].seq == 4);
	assert_true(!items[2].duplicate && items[2].seq == 5);
	assert_true(!items[3].duplicate && items[3].seq == 6);
	/* all duplicates: nothing stored, first_seq 0 */
	assert_int_equal(ingest_lines(&res, items, m, lines, 6, &err), H2EMV_OK);
	assert_int_equal(res.stored, 0);
	assert_int_equal(res.duplicates, 6);
	assert_int_equal(res.first_seq, 0);
	for (int i = 0; i < 6; i++)
		assert_true(items[i].duplicate && items[i].seq == (uint64_t)i + 1);
	/* h2emv_ingest answers a duplicate with the seq its id has */
	uint64_t seq = 0;
	assert_int_equal(h2emv_ingest(&seq, m, lines[1], strlen(lines[1]), &err), H2EMV_OK);
	assert_int_equal(seq, 2);
	/* the id is kept with the observation */
	char *json;
	size_t jl;
	assert_int_equal(h2emv_obs_get_json(&json, &jl, m, 5, &err), H2EMV_OK);
	assert_non_null(strstr(json, "\"id\":\"r-5\""));
	h2emv_free(json);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &err), H2EMV_OK);
	assert_int_equal(st.obs_count, 6);
	for (int i = 0; i < 6; i++)
		free(lines[i]);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_an_id_twice_in_one_call_is_stored_once(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	char *lines[3] = { line_of(1), line_of(2), line_of(1) };
	h2emv_ingest_result res;
	h2emv_ingest_item items[3];
	h2emv_error err = { 0 };
	assert_int_equal(ingest_lines(&res, items, m, lines, 3, &err), H2EMV_OK);
	assert_int_equal(res.stored, 2);
	assert_int_equal(res.duplicates, 1);
	assert_true(items[2].duplicate && items[2].seq == items[0].seq);
	for (int i = 0; i < 3; i++)
		free(lines[i]);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_a_reused_id_with_other_content_is_refused(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	char *first = line_of(1);
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_ingest(NULL, m, first, strlen(first), &err), H2EMV_OK);
	/* a robot whose counter restarted: same id, another observation */
	char *lines[2] = { line_of(2), tu_fmt("{\"t\":1700000009000000,\"note\":\"other\",\"id\":\"r-1\"}") };
	h2emv_ingest_result res;
	h2emv_ingest_item items[2];
	assert_int_equal(ingest_lines(&res, items, m, lines, 2, &err), H2EMV_EEXIST);
	assert_int_equal(res.failed, 1);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.field, "id");
	assert_non_null(strstr(err.message, "observation 1"));
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &err), H2EMV_OK);
	assert_int_equal(st.obs_count, 1); /* all or nothing */
	free(first);
	free(lines[0]);
	free(lines[1]);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static uint32_t store_format(h2emv_mem *m)
{
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, NULL), H2EMV_OK);
	return st.format;
}

/* A store of format 1 (before ids) stays readable by older builds until
 * an id is stored in it: that transaction raises its format. */
static void test_the_first_id_raises_an_old_stores_format(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	uint8_t body[10] = { 0x91, 0xcf };
	be64(body + 2, 1);
	assert_int_equal(eng_kv_put(m->env, ENG_KV_META, "format", 6, body, sizeof body, NULL),
	                 H2EMV_OK);
	assert_int_equal(store_format(m), 1);
	const char *plain = "{\"t\":1700000000000000}";
	assert_int_equal(h2emv_ingest(NULL, m, plain, strlen(plain), NULL), H2EMV_OK);
	assert_int_equal(store_format(m), 1);
	char *with_id = line_of(2);
	assert_int_equal(h2emv_ingest(NULL, m, with_id, strlen(with_id), NULL), H2EMV_OK);
	assert_int_equal(store_format(m), ENG_FORMAT_IDS);
	free(with_id);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* A store of format 2 stays readable by the builds before local offsets
 * until a time written with one is stored: that ingest raises it to 3. */
static void test_the_first_local_time_raises_the_format(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	uint8_t body[10] = { 0x91, 0xcf };
	be64(body + 2, ENG_FORMAT_IDS);
	assert_int_equal(eng_kv_put(m->env, ENG_KV_META, "format", 6, body, sizeof body, NULL),
	                 H2EMV_OK);
	const char *utc = "{\"t\":\"2023-11-14T22:13:20+00:00\",\"note\":\"a\"}";
	assert_int_equal(h2emv_ingest(NULL, m, utc, strlen(utc), NULL), H2EMV_OK);
	assert_int_equal(store_format(m), ENG_FORMAT_IDS);
	const char *local = "{\"t\":\"2023-11-14T15:14:20-07:00\",\"note\":\"b\"}";
	assert_int_equal(h2emv_ingest(NULL, m, local, strlen(local), NULL), H2EMV_OK);
	assert_int_equal(store_format(m), ENG_FORMAT_ZONE);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static int delete_obs_2(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)ctx;
	uint8_t key[8];
	be64(key, 2);
	MDB_val k = { 8, key };
	int rc = mdb_del(txn, env->dbi[DB_OBS], &k, NULL);
	return rc ? env_err(err, rc, "deleting") : H2EMV_OK;
}

static int prune(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	return eng_obsids_prune_txn(txn, env, ctx, err);
}

/* What GC will do: once an observation is gone, its id names nothing;
 * pruning drops the entry and the id may be stored again. */
static void test_ids_of_collected_observations_are_pruned(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	char *lines[3] = { line_of(1), line_of(2), line_of(3) };
	h2emv_ingest_result res;
	h2emv_ingest_item items[3];
	assert_int_equal(ingest_lines(&res, items, m, lines, 3, NULL), H2EMV_OK);
	assert_int_equal(env_write(m->env, delete_obs_2, NULL, NULL), H2EMV_OK);
	uint64_t dropped = 0;
	assert_int_equal(env_write(m->env, prune, &dropped, NULL), H2EMV_OK);
	assert_int_equal(dropped, 1);
	eng_read *r;
	uint64_t seq = 0;
	assert_int_equal(eng_read_begin(&r, m->env, NULL), H2EMV_OK);
	assert_int_equal(eng_obsids_get(&seq, r, "r-2", 3, NULL), H2EMV_ENOTFOUND);
	assert_int_equal(eng_obsids_get(&seq, r, "r-3", 3, NULL), H2EMV_OK);
	assert_int_equal(seq, 3);
	eng_read_end(r);
	/* r-2 is new again; r-1 and r-3 are still duplicates */
	assert_int_equal(ingest_lines(&res, items, m, lines, 3, NULL), H2EMV_OK);
	assert_int_equal(res.stored, 1);
	assert_true(items[0].duplicate && items[2].duplicate && !items[1].duplicate);
	assert_int_equal(items[1].seq, 4);
	for (int i = 0; i < 3; i++)
		free(lines[i]);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static int delete_obs_seq(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	uint8_t key[8];
	be64(key, *(const uint64_t *)ctx);
	MDB_val k = { 8, key };
	int rc = mdb_del(txn, env->dbi[DB_OBS], &k, NULL);
	return rc ? env_err(err, rc, "deleting") : H2EMV_OK;
}

static int put_id_99(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)ctx;
	uint8_t v[10] = { 0x91, 0xcf };
	be64(v + 2, 99);
	return env_put_record(txn, env, DB_OBSIDS, "r-99", 4, v, sizeof v, 0, 0, err);
}

/* "r-1" now names observation 3, which carries "r-3" */
static int repoint_r1(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)ctx;
	uint8_t v[10] = { 0x91, 0xcf };
	be64(v + 2, 3);
	return env_put_record(txn, env, DB_OBSIDS, "r-1", 3, v, sizeof v, 0, 0, err);
}

typedef struct rules_seen {
	int n;
	char rule[4][32];
	uint64_t key[4];
} rules_seen;

static void note_rule(void *ctx, const h2emv_violation *v)
{
	rules_seen *s = ctx;
	if (s->n < 4) {
		snprintf(s->rule[s->n], sizeof s->rule[s->n], "%s", v->rule);
		s->key[s->n] = v->key;
	}
	s->n++;
}

static uint64_t check_rules(h2emv_mem *m, rules_seen *s)
{
	uint64_t n = 99;
	memset(s, 0, sizeof *s);
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	co.violation = note_rule;
	co.violation_ctx = s;
	assert_int_equal(h2emv_check(&n, m, &co, NULL), H2EMV_OK);
	return n;
}

/* check reads the id index: an entry naming a missing observation is
 * explained only by retention, which collects built observations before
 * it prunes their ids; one naming an unbuilt or never-stored observation,
 * or an observation carrying another id, is a violation. */
static void test_check_reports_ids_naming_missing_observations(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	char *lines[5] = { line_of(1), line_of(2), line_of(3), line_of(4), line_of(5) };
	h2emv_ingest_result res;
	h2emv_ingest_item items[5];
	rules_seen s;
	assert_int_equal(ingest_lines(&res, items, m, lines, 3, NULL), H2EMV_OK);
	h2emv_build_result br;
	assert_int_equal(h2emv_build(&br, m, NULL, NULL), H2EMV_OK);
	assert_int_equal(ingest_lines(&res, items, m, lines + 3, 2, NULL), H2EMV_OK);
	assert_int_equal(check_rules(m, &s), 0);
	/* observation 2 was built: retention may collect it before the prune */
	uint64_t seq = 2;
	assert_int_equal(env_write(m->env, delete_obs_seq, &seq, NULL), H2EMV_OK);
	assert_int_equal(check_rules(m, &s), 0);
	/* observation 4 never was: nothing may have removed it */
	seq = 4;
	assert_int_equal(env_write(m->env, delete_obs_seq, &seq, NULL), H2EMV_OK);
	assert_int_equal(check_rules(m, &s), 1);
	assert_string_equal(s.rule[0], "obsid-dangling");
	assert_int_equal(s.key[0], 4);
	/* an id naming an observation past the log */
	assert_int_equal(env_write(m->env, put_id_99, NULL, NULL), H2EMV_OK);
	assert_int_equal(check_rules(m, &s), 2);
	assert_string_equal(s.rule[0], "obsid-dangling");
	assert_string_equal(s.rule[1], "obsid-beyond-log");
	assert_int_equal(s.key[1], 99);
	/* an id naming an observation that carries another id */
	assert_int_equal(env_write(m->env, repoint_r1, NULL, NULL), H2EMV_OK);
	assert_int_equal(check_rules(m, &s), 3);
	assert_string_equal(s.rule[0], "obsid-mismatch");
	assert_int_equal(s.key[0], 3);
	for (int i = 0; i < 5; i++)
		free(lines[i]);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static int drop_obsids(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)ctx;
	int rc = mdb_drop(txn, env->dbi[DB_OBSIDS], 1);
	return rc ? env_err(err, rc, "dropping obsids") : H2EMV_OK;
}

/* A store from before the obsids database: read-only it opens and checks
 * clean with no index; opened for writing it gets one. */
static void test_a_store_without_the_index_opens_both_ways(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	const char *plain = "{\"t\":1700000000000000}";
	assert_int_equal(h2emv_ingest(NULL, m, plain, strlen(plain), NULL), H2EMV_OK);
	assert_int_equal(env_write(m->env, drop_obsids, NULL, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
	assert_true(m->env->no_obsids);
	uint64_t bad = 99;
	assert_int_equal(h2emv_check(&bad, m, NULL, &err), H2EMV_OK);
	assert_int_equal(bad, 0);
	eng_read *r;
	uint64_t seq;
	assert_int_equal(eng_read_begin(&r, m->env, NULL), H2EMV_OK);
	assert_int_equal(eng_obsids_get(&seq, r, "r-1", 3, NULL), H2EMV_ENOTFOUND);
	eng_read_end(r);
	h2emv_mem_close(m);
	o.flags = 0;
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
	assert_false(m->env->no_obsids);
	char *line = line_of(2);
	assert_int_equal(h2emv_ingest(&seq, m, line, strlen(line), &err), H2EMV_OK);
	assert_int_equal(h2emv_ingest(&seq, m, line, strlen(line), &err), H2EMV_OK);
	assert_int_equal(seq, 2); /* the resend found the new index */
	free(line);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* Salvage keeps the id index of the observations it saves: a resend after
 * the salvage is still recognised. */
static void test_salvage_keeps_the_ids(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	uint64_t seq;
	h2emv_error err = { 0 };
	for (uint64_t i = 1; i <= 3; i++) {
		char *line = line_of(i);
		assert_int_equal(h2emv_ingest(&seq, m, line, strlen(line), &err), H2EMV_OK);
		free(line);
	}
	h2emv_mem_close(m);
	char *dst = tu_fmt("%s-salvaged", dir);
	h2emv_salvage_result sr;
	assert_int_equal(h2emv_salvage(&sr, dir, dst, NULL, NULL, &err), H2EMV_OK);
	assert_int_equal(h2emv_mem_open(&m, dst, NULL, &err), H2EMV_OK);
	char *line = line_of(2);
	assert_int_equal(h2emv_ingest(&seq, m, line, strlen(line), &err), H2EMV_OK);
	assert_int_equal(seq, 2); /* a duplicate: the seq it was saved with */
	free(line);
	uint64_t bad = 99;
	assert_int_equal(h2emv_check(&bad, m, NULL, &err), H2EMV_OK);
	assert_int_equal(bad, 0);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &err), H2EMV_OK);
	assert_int_equal(st.obs_count, 3);
	h2emv_mem_close(m);
	tu_rmrf(dst);
	tu_rmrf(dir);
	free(dst);
	free(dir);
}

static void count_loss(void *ctx, const h2emv_violation *v)
{
	(void)v;
	++*(int *)ctx;
}

/* A store from before the id index salvages with nothing reported lost. */
static void test_salvage_of_a_store_without_the_index_loses_nothing(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	const char *plain = "{\"t\":1700000000000000}";
	assert_int_equal(h2emv_ingest(NULL, m, plain, strlen(plain), NULL), H2EMV_OK);
	assert_int_equal(env_write(m->env, drop_obsids, NULL, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	char *dst = tu_fmt("%s-salvaged", dir);
	h2emv_salvage_result sr;
	h2emv_error err = { 0 };
	int losses = 0;
	assert_int_equal(h2emv_salvage(&sr, dir, dst, count_loss, &losses, &err), H2EMV_OK);
	assert_int_equal(losses, 0);
	tu_rmrf(dst);
	tu_rmrf(dir);
	free(dst);
	free(dir);
}

/* The layout of version 1 of the options and the result, as a caller
 * built against it has them. */
typedef struct v1_options {
	unsigned version, flags;
	const uint64_t *lines;
	h2emv_time now;
} v1_options;
typedef struct v1_result {
	uint64_t first_seq;
	size_t failed;
	uint64_t out_of_order;
	h2emv_time clock;
} v1_result;

static void test_version_1_callers_keep_their_result_size(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("ack", &dir);
	assert_non_null(m);
	assert_int_equal(sizeof(v1_result), offsetof(h2emv_ingest_result, stored));
	v1_options o = { 1, 0, NULL, 0 };
	struct {
		v1_result r;
		unsigned char canary[16];
	} out;
	memset(out.canary, 0xa5, sizeof out.canary);
	char *line = line_of(1);
	size_t len = strlen(line);
	const char *json = line;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_ingest_opts((h2emv_ingest_result *)&out.r, m, &json, &len, 1,
	                                   (const h2emv_ingest_options *)&o, &err),
	                 H2EMV_OK);
	assert_int_equal(out.r.first_seq, 1);
	for (size_t i = 0; i < sizeof out.canary; i++)
		assert_int_equal(out.canary[i], 0xa5);
	free(line);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------ kill mid-stream, resend -- */

#define N_LINES 3000u

typedef struct ack {
	uint64_t line, stored, first_seq, last_seq, duplicates;
} ack;

static int parse_ack(ack *a, const char *s)
{
	const char *p = strstr(s, "\"line\":");
	if (!p || sscanf(p, "\"line\":%llu,\"stored\":%llu,\"first_seq\":%llu,\"last_seq\":%llu,"
	                    "\"duplicates\":%llu",
	                 (unsigned long long *)&a->line, (unsigned long long *)&a->stored,
	                 (unsigned long long *)&a->first_seq, (unsigned long long *)&a->last_seq,
	                 (unsigned long long *)&a->duplicates) != 5)
		return -1;
	return 0;
}

/* Acks of one run only move forward: lines rise, new seqs rise, and each
 * ack accounts for every line it covers. */
static void check_monotonic(const ack *a, size_t n, uint64_t *prev_line, uint64_t *prev_seq)
{
	for (size_t i = 0; i < n; i++) {
		assert_true(a[i].line > *prev_line);
		assert_int_equal(a[i].stored + a[i].duplicates, a[i].line - *prev_line);
		if (a[i].stored) {
			assert_true(a[i].first_seq > *prev_seq);
			assert_int_equal(a[i].last_seq - a[i].first_seq + 1, a[i].stored);
			*prev_seq = a[i].last_seq;
		}
		*prev_line = a[i].line;
	}
}

/* Run `h2emv ingest --ack` on a pipe, feed it every line in uneven
 * chunks, and SIGKILL it once it has acknowledged `kill_after` batches
 * (never, if 0). When it is to be killed, the last byte is held back until
 * then, so it cannot finish first: the kill always happens, and the test
 * fails unless it died of it. The acks it printed go to *acks. Returns the
 * number. */
static size_t run_ingest(const char *mem, unsigned kill_after, ack *acks, size_t max_acks,
                         unsigned seed)
{
	int in[2], out[2];
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execl(H2EMV_CLI, "h2emv", "ingest", "--ack", "-q", "-b", "64", "-m", mem, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	char *text = NULL;
	size_t tlen = 0, sent = 0;
	for (uint64_t i = 1; i <= N_LINES; i++) {
		char *l = line_of(i);
		size_t ll = strlen(l);
		text = realloc(text, tlen + ll + 1);
		assert_non_null(text);
		memcpy(text + tlen, l, ll);
		text[tlen + ll] = '\n';
		tlen += ll + 1;
		free(l);
	}
	char buf[1 << 16];
	size_t have = 0, n_acks = 0;
	int killed = 0, eof = 0;
	unsigned r = seed;
	const size_t limit = kill_after ? tlen - 1 : tlen;
	while (!eof) {
		struct pollfd p[2] = { { out[0], POLLIN, 0 }, { in[1], POLLOUT, 0 } };
		int np = in[1] >= 0 && sent < limit ? 2 : 1;
		/* a hang guard only: the process makes progress or dies */
		assert_true(poll(p, (nfds_t)np, 120000) > 0);
		if (np == 2 && (p[1].revents & (POLLOUT | POLLERR))) {
			r = r * 1103515245u + 12345u;
			size_t chunk = 1 + (r >> 8) % 9000;
			if (chunk > limit - sent)
				chunk = limit - sent;
			ssize_t w = write(in[1], text + sent, chunk);
			if (w > 0)
				sent += (size_t)w;
			else if (w < 0 && errno != EAGAIN)
				sent = tlen; /* the reader is gone */
			if (sent == tlen) {
				close(in[1]);
				in[1] = -1;
			}
			usleep(300 + (r >> 4) % 700); /* a robot, not a file */
		}
		if (p[0].revents & (POLLIN | POLLHUP)) {
			ssize_t got = read(out[0], buf + have, sizeof buf - 1 - have);
			if (got <= 0) {
				eof = 1;
				continue;
			}
			have += (size_t)got;
			buf[have] = 0;
			char *nl;
			while ((nl = strchr(buf, '\n'))) {
				*nl = 0;
				assert_true(n_acks < max_acks);
				assert_int_equal(parse_ack(&acks[n_acks], buf), 0);
				n_acks++;
				have -= (size_t)(nl + 1 - buf);
				memmove(buf, nl + 1, have + 1);
			}
			if (kill_after && !killed && n_acks >= kill_after) {
				assert_int_equal(kill(pid, SIGKILL), 0);
				killed = 1;
				if (in[1] >= 0) {
					close(in[1]);
					in[1] = -1;
				}
			}
		}
	}
	if (in[1] >= 0)
		close(in[1]);
	close(out[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (kill_after) {
		/* the kill happened, mid-stream, and is what ended it */
		assert_true(killed);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
			fail_msg("ingest was to die of SIGKILL after %u acks; status %#x", kill_after, st);
		assert_true(n_acks >= kill_after);
		assert_true(n_acks == 0 || acks[n_acks - 1].line < N_LINES);
	} else {
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	free(text);
	return n_acks;
}

static void test_killed_ingest_then_full_resend_stores_each_once(void **state)
{
	(void)state;
	signal(SIGPIPE, SIG_IGN);
	char *dir = tu_tmpdir("ack");
	char *mem = tu_fmt("%s/mem", dir);
	char *out;
	assert_int_equal(tu_run(&out, "%s init -m %s", H2EMV_CLI, mem), 0);
	free(out);
	ack *acks = calloc(N_LINES + 1, sizeof *acks);
	assert_non_null(acks);
	/* three crashes at different points, each followed by a resend of
	 * everything from line 1, then one run to the end */
	uint64_t acked_last = 0;
	for (unsigned round = 0; round < 4; round++) {
		unsigned kill_after = round < 3 ? 2 + round * 5 : 0;
		size_t n = run_ingest(mem, kill_after, acks, N_LINES + 1, 77 + round);
		uint64_t line = 0, seq = 0;
		check_monotonic(acks, n, &line, &seq);
		/* what an earlier run acknowledged is on disk: resent, it is
		 * only ever a duplicate */
		for (size_t i = 0; i < n; i++)
			if (acks[i].line <= acked_last)
				assert_int_equal(acks[i].stored, 0);
		uint64_t dups = 0;
		for (size_t i = 0; i < n; i++)
			dups += acks[i].duplicates;
		print_message("round %u (seed %u): %zu acks up to line %llu, %llu duplicates\n", round,
		              77 + round, n, (unsigned long long)(n ? acks[n - 1].line : 0),
		              (unsigned long long)dups);
		if (n && acks[n - 1].line > acked_last)
			acked_last = acks[n - 1].line;
		if (round == 3)
			assert_int_equal(acks[n - 1].line, N_LINES);
	}
	/* every observation exactly once, in the order sent */
	h2emv_mem *m;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&m, mem, NULL, &err), H2EMV_OK);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &err), H2EMV_OK);
	assert_int_equal(st.obs_count, N_LINES);
	for (uint64_t s = 1; s <= N_LINES; s++) {
		char *json;
		size_t jl;
		assert_int_equal(h2emv_obs_get_json(&json, &jl, m, s, &err), H2EMV_OK);
		char want[64];
		snprintf(want, sizeof want, "\"id\":\"r-%llu\"", (unsigned long long)s);
		if (!strstr(json, want))
			fail_msg("seq %llu holds %s", (unsigned long long)s, json);
		h2emv_free(json);
	}
	h2emv_mem_close(m);
	assert_int_equal(tu_run(&out, "%s check -m %s", H2EMV_CLI, mem), 0);
	free(out);
	free(acks);
	free(mem);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resent_ids_are_duplicates_with_their_seq),
		cmocka_unit_test(test_an_id_twice_in_one_call_is_stored_once),
		cmocka_unit_test(test_a_reused_id_with_other_content_is_refused),
		cmocka_unit_test(test_version_1_callers_keep_their_result_size),
		cmocka_unit_test(test_the_first_id_raises_an_old_stores_format),
		cmocka_unit_test(test_the_first_local_time_raises_the_format),
		cmocka_unit_test(test_ids_of_collected_observations_are_pruned),
		cmocka_unit_test(test_check_reports_ids_naming_missing_observations),
		cmocka_unit_test(test_a_store_without_the_index_opens_both_ways),
		cmocka_unit_test(test_salvage_keeps_the_ids),
		cmocka_unit_test(test_salvage_of_a_store_without_the_index_loses_nothing),
		cmocka_unit_test(test_killed_ingest_then_full_resend_stores_each_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
