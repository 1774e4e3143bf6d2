/*
 * bench_ingest.c — durable ingest, h2emv against SQLite on the same lines
 * with the same per-line parse, and the stored size of an observation
 * before and after the zstd dictionary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/observe/observation.h"
#include "bench/baseline_sqlite.h"
#include "bench/bench_storage.h"
#include "bench/bench_util.h"
#include "engine/engine.h"

#define INGEST_CHUNK_AT_BATCH1 50 /* lines per turn when each is its own commit */

h2emv_mem *open_store(const char *dir, unsigned flags)
{
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_CREATE | flags;
	oo.dict_train_after = DICT_TRAIN_AFTER;
	h2emv_mem *mem;
	h2emv_error err;
	if (h2emv_mem_open(&mem, dir, &oo, &err))
		bench_die("h2emv_mem_open %s: %s", dir, err.message);
	return mem;
}

/* Ingest lines [from, to) in calls of `batch`; a batch of 1 goes through
 * h2emv_ingest. */
static void ingest_range(h2emv_mem *mem, const obs_set *obs, size_t from, size_t to,
                         size_t batch)
{
	h2emv_error err;
	for (size_t i = from; i < to; i += batch) {
		size_t k = to - i < batch ? to - i : batch;
		int rc = k == 1 ? h2emv_ingest(NULL, mem, obs->line[i], obs->len[i], &err)
		                : h2emv_ingest_batch(NULL, mem, obs->line + i, obs->len + i, k, &err);
		if (rc)
			bench_die("h2emv ingest at observation %zu: %s", i + 1, err.message);
	}
}

/* h2emv's side of a timed run: the public API on JSON lines, or the
 * engine alone (eng_obs_append) on bodies parsed beforehand. */
typedef struct hside {
	h2emv_mem *mem;
	eng_env *env;
} hside;

static void hside_open(hside *h, int engine_only)
{
	const char *dir = scratch_dir("h2emv-ingest");
	h2emv_error err;
	eng_open_opts eo = { .flags = H2EMV_OPEN_CREATE, .dict_train_after = DICT_TRAIN_AFTER };
	if (!engine_only)
		h->mem = open_store(dir, 0);
	else if (eng_open(&h->env, dir, &eo, &err))
		bench_die("eng_open %s: %s", dir, err.message);
}

static void hside_put(hside *h, const obs_set *obs, const eng_buf *bodies, size_t from, size_t to,
                      size_t batch)
{
	if (h->mem) {
		ingest_range(h->mem, obs, from, to, batch);
		return;
	}
	h2emv_error err;
	for (size_t i = from; i < to; i += batch) {
		size_t k = to - i < batch ? to - i : batch;
		if (eng_obs_append(h->env, bodies + i, k, NULL, &err))
			bench_die("eng_obs_append: %s", err.message);
	}
}

static void hside_close(hside *h)
{
	h2emv_mem_close(h->mem);
	eng_close(h->env);
	h->mem = NULL;
	h->env = NULL;
}

typedef struct run_times {
	double h;               /* seconds h2emv spent */
	double s[SQLB_MODES];   /* seconds each SQLite baseline spent */
	double train;           /* of h: the one-time dictionary training */
} run_times;

/* The SQLite baselines of a run: all three on JSON lines, the parsed one
 * alone on bodies (storage alone). */
static int sqlite_sides(const eng_buf *bodies)
{
	return bodies ? 1 : SQLB_MODES;
}

/* One run of every side on fresh stores, interleaved: a chunk of lines
 * (one batch; 50 lines at batch 1) goes to each side in turn, the order
 * rotating every chunk, so whatever else the machine does slows all alike.
 * The training estimate is how much longer than the median chunk the
 * chunk that trained the dictionary took (none is trained on the write
 * path any more: it should be 0). */
static run_times run_interleaved(const obs_set *obs, const eng_buf *bodies, size_t n, size_t batch,
                                 const char *db)
{
	size_t chunk = batch > 1 ? batch : INGEST_CHUNK_AT_BATCH1;
	size_t nchunks = (n + chunk - 1) / chunk;
	int ns = sqlite_sides(bodies), sides = 1 + ns;
	double *t = malloc(nchunks * sizeof *t);
	if (!t)
		bench_die("out of memory");
	hside h = { 0 };
	hside_open(&h, bodies != NULL);
	sqlb_writer *w[SQLB_MODES];
	for (int m = 0; m < ns; m++) {
		char path[3300];
		snprintf(path, sizeof path, "%s%s", db, m == 0 ? "" : m == SQLB_JSON_VALID ? "-valid"
		                                                                         : "-raw");
		w[m] = sqlb_writer_open(path, (sqlb_mode)m);
	}
	run_times rt = { 0 };
	for (size_t c = 0; c < nchunks; c++) {
		size_t from = c * chunk, to = from + chunk < n ? from + chunk : n;
		for (int turn = 0; turn < sides; turn++) {
			int side = (int)((c + (size_t)turn) % (size_t)sides); /* 0: h2emv */
			double t0 = bench_now();
			if (side == 0)
				hside_put(&h, obs, bodies, from, to, batch);
			else
				sqlb_writer_put(w[side - 1], obs, bodies, from, to, batch);
			double dt = bench_now() - t0;
			if (side == 0)
				rt.h += t[c] = dt;
			else
				rt.s[side - 1] += dt;
		}
	}
	for (int m = 0; m < ns; m++) {
		double t0 = bench_now();
		sqlb_writer_finish(w[m]);
		rt.s[m] += bench_now() - t0;
	}
	hside_close(&h);
	if (n >= DICT_TRAIN_AFTER) {
		double trained = t[(DICT_TRAIN_AFTER - 1) / chunk];
		double extra = trained - bench_median(t, nchunks);
		rt.train = extra > 0 ? extra : 0;
	}
	free(t);
	return rt;
}

/* R interleaved runs; medians. */
static void compare(ingest_result *res, const opts *o, const obs_set *obs, const eng_buf *bodies,
                    const char *db, const char *what)
{
	size_t R = (size_t)o->repeat, n = res->n;
	int ns = sqlite_sides(bodies);
	double *h = calloc(R, sizeof *h), *s = calloc(R * SQLB_MODES, sizeof *s);
	double *steady = calloc(R, sizeof *h), *train = calloc(R, sizeof *h);
	if (!h || !s || !steady || !train)
		bench_die("out of memory");
	for (size_t r = 0; r < R; r++) {
		run_times rt = run_interleaved(obs, bodies, n, res->batch, db);
		h[r] = (double)n / rt.h;
		for (int m = 0; m < ns; m++)
			s[m * R + r] = (double)n / rt.s[m];
		steady[r] = (double)n / (rt.h - rt.train);
		train[r] = rt.train * 1e3;
		fprintf(stderr, "  %s, batch %zu, run %zu: h2emv %.0f obs/s, SQLite %.0f obs/s", what,
		        res->batch, r + 1, h[r], s[r]);
		if (ns == SQLB_MODES)
			fprintf(stderr, " (json_valid %.0f, raw %.0f)", s[R + r], s[2 * R + r]);
		fprintf(stderr, "\n");
	}
	rates *out = bodies ? &res->store : &res->full;
	out->h2emv = bench_median(h, R);
	out->sqlite = bench_median(s, R);
	if (ns == SQLB_MODES) {
		out->sqlite_valid = bench_median(s + R, R);
		out->sqlite_raw = bench_median(s + 2 * R, R);
	}
	out->h2emv_steady = bench_median(steady, R);
	out->train_ms = bench_median(train, R);
	free(h);
	free(s);
	free(steady);
	free(train);
}

ingest_result ingest_compare(const opts *o, const obs_set *obs, size_t n, size_t batch,
                             const char *keep_sqlite)
{
	ingest_result res = { .n = n, .batch = batch };
	char db[3200];
	snprintf(db, sizeof db, "%s/sqlite-ingest.db", scratch_dir("sqlite-ingest"));
	compare(&res, o, obs, NULL, db, "ingest");
	if (keep_sqlite && rename(db, keep_sqlite) != 0)
		bench_die("cannot keep %s", db);
	return res;
}

void storage_compare(ingest_result *res, const opts *o, const obs_set *obs)
{
	eng_buf *bodies = calloc(res->n, sizeof *bodies);
	if (!bodies)
		bench_die("out of memory");
	h2emv_error err;
	for (size_t i = 0; i < res->n; i++)
		if (obs_from_json(&bodies[i], obs->line[i], obs->len[i], i + 1, &err))
			bench_die("observation %zu: %s", i + 1, err.message);
	char db[3200];
	snprintf(db, sizeof db, "%s/sqlite-store.db", scratch_dir("sqlite-store"));
	compare(res, o, obs, bodies, db, "storage alone");
	for (size_t i = 0; i < res->n; i++)
		eng_buf_free(&bodies[i]);
	free(bodies);
}

/* Seconds obs_from_json alone takes over lines [0, n): the per-line work
 * both sides share, so the most the ingest ratio can be is
 * (parse + SQLite's storage) / parse. Median of R runs. */
double parse_only_secs(const opts *o, const obs_set *obs, size_t n)
{
	double *t = calloc((size_t)o->repeat, sizeof *t);
	if (!t)
		bench_die("out of memory");
	eng_buf b = { 0 };
	h2emv_error err;
	for (int r = 0; r < o->repeat; r++) {
		double t0 = bench_now();
		for (size_t i = 0; i < n; i++) {
			b.len = 0;
			if (obs_from_json(&b, obs->line[i], obs->len[i], i + 1, &err))
				bench_die("observation %zu: %s", i + 1, err.message);
		}
		t[r] = bench_now() - t0;
	}
	eng_buf_free(&b);
	double m = bench_median(t, (size_t)o->repeat);
	free(t);
	return m;
}

/* The CPU time of the calling thread: a parse is pure CPU work, and on a
 * machine shared with other jobs wall time would count theirs. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* obs_from_json alone on the lines within 10 % of `target` bytes, each
 * parsed `rounds` times (enough calls to time): CPU µs per observation
 * (median of R runs), their average length in *avg_len. 0 when no line
 * is that long. */
double parse_us_near(const opts *o, const obs_set *obs, size_t target, double *avg_len)
{
	size_t lo = target - target / 10, hi = target + target / 10, k = 0, bytes = 0;
	for (size_t i = 0; i < obs->n; i++)
		if (obs->len[i] >= lo && obs->len[i] <= hi)
			k++, bytes += obs->len[i];
	*avg_len = k ? (double)bytes / (double)k : 0;
	if (!k)
		return 0;
	size_t rounds = 200000 / k + 1;
	double *t = calloc((size_t)o->repeat, sizeof *t);
	if (!t)
		bench_die("out of memory");
	eng_buf b = { 0 };
	h2emv_error err;
	for (int r = 0; r < o->repeat; r++) {
		double t0 = cpu_now();
		for (size_t round = 0; round < rounds; round++) {
			for (size_t i = 0; i < obs->n; i++) {
				if (obs->len[i] < lo || obs->len[i] > hi)
					continue;
				b.len = 0;
				if (obs_from_json(&b, obs->line[i], obs->len[i], i + 1, &err))
					bench_die("observation %zu: %s", i + 1, err.message);
			}
		}
		t[r] = (cpu_now() - t0) * 1e6 / (double)(rounds * k);
	}
	eng_buf_free(&b);
	double m = bench_median(t, (size_t)o->repeat);
	free(t);
	return m;
}

/* -------------------------------------------------------------- sizes -- */

static void avg_lines(const obs_set *obs, size_t from, size_t to, double *json, double *body)
{
	eng_buf b = { 0 };
	h2emv_error err;
	uint64_t js = 0, bs = 0;
	for (size_t i = from; i < to; i++) {
		b.len = 0;
		if (obs_from_json(&b, obs->line[i], obs->len[i], i + 1, &err))
			bench_die("observation %zu: %s", i + 1, err.message);
		js += obs->len[i];
		bs += b.len;
	}
	eng_buf_free(&b);
	*json = to > from ? (double)js / (double)(to - from) : 0;
	*body = to > from ? (double)bs / (double)(to - from) : 0;
}

h2emv_stats stats_of(h2emv_mem *mem)
{
	h2emv_stats st;
	h2emv_error err;
	if (h2emv_mem_stats(&st, mem, &err))
		bench_die("h2emv_mem_stats: %s", err.message);
	return st;
}

/* Stored record bytes (the LMDB values: header + payload) with the
 * default dictionary and after gc trained the memory's own, from
 * obs_bytes at three points of one ingest.
 * Record bytes do not depend on fsync, so this run skips it. */
size_result measure_sizes(const obs_set *obs, size_t n)
{
	size_result z = { 0 };
	z.pre_to = n < DICT_TRAIN_AFTER ? n : DICT_TRAIN_AFTER;
	z.post_from = n / 2 > z.pre_to ? n / 2 : z.pre_to;
	z.post_to = n;
	h2emv_mem *mem = open_store(scratch_dir("h2emv-sizes"), H2EMV_OPEN_NOSYNC);
	ingest_range(mem, obs, 0, z.pre_to, 1000);
	h2emv_stats a = stats_of(mem);
	/* maintenance trains the memory's own dictionary (none is trained on
	 * the write path): "before" is the default dictionary, "after" its own */
	h2emv_gc_result gr;
	h2emv_error err;
	if (h2emv_gc(&gr, mem, NULL, &err))
		bench_die("h2emv_gc: %s", err.message);
	ingest_range(mem, obs, z.pre_to, z.post_from, 1000);
	h2emv_stats b = stats_of(mem);
	ingest_range(mem, obs, z.post_from, n, 1000);
	h2emv_stats c = stats_of(mem);
	h2emv_mem_close(mem);
	z.rec_pre = (double)a.obs_bytes / (double)z.pre_to;
	if (n > z.post_from)
		z.rec_post = (double)(c.obs_bytes - b.obs_bytes) / (double)(n - z.post_from);
	z.dicts = c.dicts;
	z.used_bytes = c.used_bytes;
	avg_lines(obs, 0, z.pre_to, &z.json_pre, &z.body_pre);
	avg_lines(obs, z.post_from, n, &z.json_post, &z.body_post);
	return z;
}

