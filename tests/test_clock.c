/*
 * test_clock.c — clock discipline at ingest (issue 11, item 1): a time too
 * far ahead of the memory's clock or of the wall clock is refused like a
 * bad line, naming line and field, unless the caller allows it; a refused
 * line moves nothing (the tree after a build is unchanged, the lines after
 * it are judged against the old clock); out-of-order times are counted;
 * the jump is configured in the memory (and old stored configs still
 * read); `h2emv ingest` (with --dry-run checking the format, not the
 * clock) and `h2emv config` through the binary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "bench/eval/sim.h"
#include "h2emv.h"
#include "testutil.h"

#define S_US INT64_C(1000000)
#define DAY_US (86400 * S_US)
#define YEAR_US (365 * DAY_US)
#define T0 INT64_C(1719431337000000) /* 2024-06-26T19:48:57Z */
#define N_GOOD 600

/* ------------------------------------------------------------ helpers -- */

typedef struct lines {
	char *v[N_GOOD];
	size_t len[N_GOOD];
	size_t n;
} lines;

static int keep_line(void *arg, const char *line, size_t len)
{
	lines *l = arg;
	if (l->n == N_GOOD)
		return 1; /* enough: stop the simulator */
	l->v[l->n] = malloc(len + 1);
	assert_non_null(l->v[l->n]);
	memcpy(l->v[l->n], line, len + 1);
	l->len[l->n++] = len;
	return 0;
}

/* N_GOOD observations of a simulated household (2024), in time order. */
static lines *history(void)
{
	lines *l = calloc(1, sizeof *l);
	assert_non_null(l);
	sim_options o = SIM_OPTIONS_INIT;
	o.episodes = 40;
	o.seed = 3;
	h2emv_error err = { 0 };
	int rc = sim_generate(&o, keep_line, l, &err);
	assert_true(rc == 1 || rc == H2EMV_OK);
	assert_int_equal(l->n, N_GOOD);
	return l;
}

static void history_free(lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l);
}

/* printf into one of a few static buffers: lines for one call. */
static const char *linef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static const char *linef(const char *fmt, ...)
{
	static char buf[4][256];
	static unsigned k;
	char *b = buf[k++ % 4];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof buf[0], fmt, ap);
	va_end(ap);
	return b;
}

/* The 1-based column of the value of `key` in a one-line JSON text. */
static uint64_t value_column(const char *line, const char *key)
{
	char pat[32];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(line, pat);
	assert_non_null(p);
	return (uint64_t)(p - line) + strlen(pat) + 1;
}

/* Ingest one line with options; returns the status, fills *res and *err. */
static int ingest1(h2emv_ingest_result *res, h2emv_mem *m, const char *line, unsigned flags,
                   h2emv_time now, h2emv_error *err)
{
	h2emv_ingest_options o = H2EMV_INGEST_OPTIONS_INIT;
	o.flags = flags;
	o.now = now;
	size_t len = strlen(line);
	memset(err, 0, sizeof *err);
	return h2emv_ingest_opts(res, m, &line, &len, 1, &o, err);
}

/* Ingest {"t": t} with the default options. */
static int ingest_at(h2emv_mem *m, int64_t t, h2emv_error *err)
{
	h2emv_ingest_result res;
	return ingest1(&res, m, linef("{\"t\":%lld}", (long long)t), 0, 0, err);
}

/* Ingest a batch of {"t": ts[i]}; returns the status, fills *res. */
static int ingest_times(h2emv_ingest_result *res, h2emv_mem *m, const int64_t *ts, size_t n,
                        h2emv_error *err)
{
	char text[16][64];
	const char *v[16];
	size_t len[16];
	assert_true(n <= 16);
	for (size_t i = 0; i < n; i++) {
		snprintf(text[i], sizeof text[i], "{\"t\":%lld}", (long long)ts[i]);
		v[i] = text[i];
		len[i] = strlen(text[i]);
	}
	memset(err, 0, sizeof *err);
	return h2emv_ingest_opts(res, m, v, len, n, NULL, err);
}

static h2emv_mem *fresh(char **dir)
{
	h2emv_mem *m = tu_mem_tmp("clock", dir);
	assert_non_null(m);
	return m;
}

static uint64_t build(h2emv_mem *m)
{
	h2emv_build_result r;
	h2emv_error err = { 0 };
	int rc = h2emv_build(&r, m, NULL, &err);
	if (rc)
		fail_msg("build: %s", err.message);
	return r.tree_size;
}

static uint64_t obs_count(h2emv_mem *m)
{
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, NULL), H2EMV_OK);
	return st.obs_count;
}

/* A memory holding the history, built; *tree_out = its tree size, *clock
 * the time of its newest observation. */
static h2emv_mem *built_history(char **dir, uint64_t *tree_out, int64_t *clock)
{
	h2emv_mem *m = tu_mem_tmp("clock", dir);
	assert_non_null(m);
	lines *l = history();
	h2emv_ingest_result res;
	h2emv_error err = { 0 };
	int rc = h2emv_ingest_opts(&res, m, (const char *const *)l->v, l->len, l->n, NULL, &err);
	if (rc)
		fail_msg("ingest: %s", err.message);
	assert_int_equal(res.first_seq, 1);
	assert_int_equal(res.out_of_order, 0);
	assert_true(res.clock > 0);
	*clock = res.clock;
	history_free(l);
	*tree_out = build(m);
	assert_true(*tree_out > 10);
	return m;
}

static void done(h2emv_mem *m, char *dir)
{
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* -------------------------------------------------------------- the API -- */

static void test_a_year_ahead_is_refused_and_the_tree_is_unchanged(void **state)
{
	(void)state;
	char *dir;
	uint64_t before;
	int64_t clock;
	h2emv_mem *m = built_history(&dir, &before, &clock);

	const char *line = linef("{\"note\":\"clock not synchronised\",\"t\":%lld}",
	                         (long long)(clock + YEAR_US));
	h2emv_ingest_options o = H2EMV_INGEST_OPTIONS_INIT;
	uint64_t lineno = N_GOOD + 1;
	o.lines = &lineno;
	size_t len = strlen(line);
	h2emv_ingest_result res;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_ingest_opts(&res, m, &line, &len, 1, &o, &err), H2EMV_EPARSE);
	assert_int_equal(res.failed, 0);
	assert_int_equal(err.status, H2EMV_EPARSE);
	assert_int_equal(err.line, N_GOOD + 1);
	assert_int_equal(err.column, value_column(line, "t"));
	assert_string_equal(err.field, "t");
	assert_non_null(strstr(err.message, "line 601, column"));
	assert_non_null(strstr(err.message, "field 't'"));
	assert_non_null(strstr(err.message, "is 365 days ahead of the memory's clock"));
	assert_non_null(strstr(err.message, "the allowed jump is 30 days"));
	assert_non_null(strstr(err.message, "--allow-clock-jump"));

	/* nothing stored, nothing forgotten */
	assert_int_equal(obs_count(m), N_GOOD);
	assert_int_equal(build(m), before);

	/* the correct observations after it are in order, against the old clock */
	assert_int_equal(ingest1(&res, m, linef("{\"t\":%lld}", (long long)(clock + 60 * S_US)), 0,
	                         0, &err),
	                 H2EMV_OK);
	assert_int_equal(res.out_of_order, 0);
	assert_int_equal(res.clock, clock + 60 * S_US);
	assert_true(build(m) >= before);
	done(m, dir);
}

static void test_allowing_the_jump_stores_it_and_moves_the_clock(void **state)
{
	(void)state;
	char *dir;
	uint64_t before;
	int64_t clock;
	h2emv_mem *m = built_history(&dir, &before, &clock);
	h2emv_ingest_result res;
	h2emv_error err;
	const char *ahead = linef("{\"t\":%lld}", (long long)(clock + YEAR_US));
	assert_int_equal(ingest1(&res, m, ahead, H2EMV_INGEST_ALLOW_CLOCK_JUMP, 0, &err), H2EMV_OK);
	assert_int_equal(res.first_seq, N_GOOD + 1);
	assert_int_equal(res.clock, clock + YEAR_US);
	/* what the check prevents: a year on, the builder forgets the history */
	assert_true(build(m) < before);
	/* and a correct time after it is out of order */
	assert_int_equal(ingest1(&res, m, linef("{\"t\":%lld}", (long long)(clock + 60 * S_US)), 0,
	                         0, &err),
	                 H2EMV_OK);
	assert_int_equal(res.out_of_order, 1);
	assert_int_equal(res.clock, clock + YEAR_US);
	done(m, dir);
}

static void test_year_9999_is_refused_by_an_empty_memory_and_a_full_one(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_ingest_result res;
	h2emv_error err;
	const char *line = "{\"t\":\"9999-12-31T23:59:59Z\"}";
	/* no clock yet: the wall clock judges */
	assert_int_equal(ingest1(&res, m, line, 0, 0, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "t");
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 6);
	assert_non_null(strstr(err.message, "9999-12-31T23:59:59.000000Z is "));
	assert_non_null(strstr(err.message, "ahead of this computer's clock"));
	assert_int_equal(obs_count(m), 0);

	assert_int_equal(ingest_at(m, T0, &err), H2EMV_OK);
	assert_int_equal(ingest1(&res, m, line, 0, 0, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "t");
	assert_non_null(strstr(err.message, "ahead of the memory's clock (2024-06-26T19:48:57"));
	assert_int_equal(obs_count(m), 1);
	done(m, dir);
}

static void test_a_t_end_ahead_is_refused_naming_t_end(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_ingest_result res;
	h2emv_error err;
	assert_int_equal(ingest_at(m, T0, &err), H2EMV_OK);
	const char *line = linef("{\"t\":%lld,\"t_end\":%lld}", (long long)(T0 + S_US),
	                         (long long)(T0 + 40 * DAY_US));
	assert_int_equal(ingest1(&res, m, line, 0, 0, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "t_end");
	assert_int_equal(err.column, value_column(line, "t_end"));
	assert_non_null(strstr(err.message, "40 days ahead"));
	/* within the jump, t_end moves the clock */
	line = linef("{\"t\":%lld,\"t_end\":%lld}", (long long)(T0 + S_US),
	             (long long)(T0 + 20 * DAY_US));
	assert_int_equal(ingest1(&res, m, line, 0, 0, &err), H2EMV_OK);
	assert_int_equal(res.clock, T0 + 20 * DAY_US);
	done(m, dir);
}

static void test_an_empty_memory_accepts_its_first_observation(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_ingest_result res;
	h2emv_error err;
	/* a history from the past: whatever its date, it is not ahead */
	assert_int_equal(ingest1(&res, m, linef("{\"t\":%lld}", (long long)T0), 0, 0, &err),
	                 H2EMV_OK);
	assert_int_equal(res.first_seq, 1);
	assert_int_equal(res.out_of_order, 0);
	assert_int_equal(res.clock, T0);
	done(m, dir);

	/* a forgetting pass before anything was stored sets no clock */
	m = fresh(&dir);
	h2emv_build_result br;
	assert_int_equal(h2emv_forget(&br, m, 0, &err), H2EMV_OK);
	assert_int_equal(ingest1(&res, m, linef("{\"t\":%lld}", (long long)T0), 0, 0, &err),
	                 H2EMV_OK);
	assert_int_equal(res.clock, T0);
	done(m, dir);

	/* ahead of the wall clock (pinned here) it is refused, unless allowed */
	m = fresh(&dir);
	int64_t now = T0 - DAY_US;
	const char *line = linef("{\"t\":%lld}", (long long)(T0 + 40 * DAY_US));
	assert_int_equal(ingest1(&res, m, line, 0, now, &err), H2EMV_EPARSE);
	assert_non_null(strstr(err.message, "41 days ahead of this computer's clock"));
	assert_int_equal(ingest1(&res, m, line, 0, T0 + 20 * DAY_US, &err), H2EMV_OK);
	done(m, dir);
	m = fresh(&dir);
	assert_int_equal(ingest1(&res, m, line, H2EMV_INGEST_ALLOW_CLOCK_JUMP, now, &err), H2EMV_OK);
	assert_int_equal(res.clock, T0 + 40 * DAY_US);
	done(m, dir);
}

/* The jump is a bound, inclusive: a time exactly max_clock_jump (default
 * 30 days) ahead of the memory's clock, or of the wall clock, is stored; one
 * microsecond more is refused, for t and for t_end, naming the clock. */
static void test_a_jump_of_exactly_the_limit_is_accepted_one_more_refused(void **state)
{
	(void)state;
	const int64_t J = 30 * DAY_US, LATER = T0 + 10 * YEAR_US; /* a wall clock far off */
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_ingest_result res;
	h2emv_error err;
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.max_clock_jump, J);
	assert_int_equal(ingest1(&res, m, linef("{\"t\":%lld}", (long long)T0), 0, LATER, &err),
	                 H2EMV_OK);
	/* the memory's clock, through t */
	const char *past = linef("{\"t\":%lld}", (long long)(T0 + J + 1));
	assert_int_equal(ingest1(&res, m, past, 0, LATER, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "t");
	assert_non_null(strstr(err.message, "ahead of the memory's clock"));
	const char *at = linef("{\"t\":%lld}", (long long)(T0 + J));
	assert_int_equal(ingest1(&res, m, at, 0, LATER, &err), H2EMV_OK);
	assert_int_equal(res.clock, T0 + J);
	/* the memory's clock, through t_end (t itself at the limit) */
	int64_t c1 = T0 + J;
	past = linef("{\"t\":%lld,\"t_end\":%lld}", (long long)(c1 + J), (long long)(c1 + J + 1));
	assert_int_equal(ingest1(&res, m, past, 0, LATER, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "t_end");
	assert_non_null(strstr(err.message, "ahead of the memory's clock"));
	at = linef("{\"t\":%lld,\"t_end\":%lld}", (long long)(c1 + J), (long long)(c1 + J));
	assert_int_equal(ingest1(&res, m, at, 0, LATER, &err), H2EMV_OK);
	assert_int_equal(res.clock, c1 + J);
	assert_int_equal(obs_count(m), 3);
	done(m, dir);

	/* the wall clock (pinned), judging an empty memory: t, then t_end */
	for (int end = 0; end <= 1; end++) {
		const char *fmt = end ? "{\"t\":%lld,\"t_end\":%lld}" : "{\"t\":%lld}";
		m = fresh(&dir);
		past = linef(fmt, (long long)(end ? T0 : T0 + J + 1), (long long)(T0 + J + 1));
		assert_int_equal(ingest1(&res, m, past, 0, T0, &err), H2EMV_EPARSE);
		assert_string_equal(err.field, end ? "t_end" : "t");
		assert_non_null(strstr(err.message, "ahead of this computer's clock"));
		assert_int_equal(obs_count(m), 0);
		at = linef(fmt, (long long)(end ? T0 : T0 + J), (long long)(T0 + J));
		assert_int_equal(ingest1(&res, m, at, 0, T0, &err), H2EMV_OK);
		assert_int_equal(res.clock, T0 + J);
		done(m, dir);
	}
}

static void test_a_bad_line_in_a_batch_moves_nothing(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_ingest_result res;
	h2emv_error err;
	assert_int_equal(ingest_at(m, T0, &err), H2EMV_OK);

	int64_t batch[] = { T0 + DAY_US, T0 + 400 * DAY_US, T0 + 2 * DAY_US };
	assert_int_equal(ingest_times(&res, m, batch, 3, &err), H2EMV_EPARSE);
	assert_int_equal(res.failed, 1);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.field, "t");
	assert_int_equal(obs_count(m), 1); /* all or nothing */

	/* the lines around it, as `h2emv ingest` stores them: in order */
	assert_int_equal(ingest_times(&res, m, batch, 1, &err), H2EMV_OK);
	assert_int_equal(ingest_times(&res, m, batch + 2, 1, &err), H2EMV_OK);
	assert_int_equal(res.out_of_order, 0);
	assert_int_equal(res.clock, T0 + 2 * DAY_US);

	/* the running clock: each line judged against the lines before it */
	int64_t steps[] = { T0 + 22 * DAY_US, T0 + 47 * DAY_US, T0 + 70 * DAY_US };
	assert_int_equal(ingest_times(&res, m, steps, 3, &err), H2EMV_OK);
	assert_int_equal(res.clock, T0 + 70 * DAY_US);
	int64_t leap[] = { T0 + 101 * DAY_US };
	assert_int_equal(ingest_times(&res, m, leap, 1, &err), H2EMV_EPARSE);
	assert_int_equal(obs_count(m), 6);
	done(m, dir);
}

static void test_out_of_order_times_are_stored_and_counted(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_ingest_result res;
	h2emv_error err;
	assert_int_equal(ingest_at(m, T0, &err), H2EMV_OK);
	/* earlier than the clock: T0 - 1 s, and T0 + 3 s after T0 + 5 s; equal is in order */
	int64_t ts[] = { T0 - S_US, T0 + 5 * S_US, T0 + 3 * S_US, T0 + 5 * S_US };
	assert_int_equal(ingest_times(&res, m, ts, 4, &err), H2EMV_OK);
	assert_int_equal(res.first_seq, 2);
	assert_int_equal(res.out_of_order, 2);
	assert_int_equal(res.clock, T0 + 5 * S_US);
	assert_int_equal(obs_count(m), 5);
	/* far in the past is only out of order, never refused */
	int64_t old[] = { 0 };
	assert_int_equal(ingest_times(&res, m, old, 1, &err), H2EMV_OK);
	assert_int_equal(res.out_of_order, 1);
	done(m, dir);
}

static void test_the_clock_is_read_back_from_the_log_and_the_tree(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_error err;
	int64_t ts[] = { T0, T0 + 10 * DAY_US, T0 + DAY_US }; /* the newest is not the last */
	h2emv_ingest_result res;
	assert_int_equal(ingest_times(&res, m, ts, 3, &err), H2EMV_OK);
	h2emv_mem_close(m);

	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_NOSYNC;
	for (int round = 0; round < 2; round++) {
		assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
		assert_int_equal(ingest_at(m, T0 + (10 + 31) * DAY_US, &err), H2EMV_EPARSE);
		assert_non_null(strstr(err.message, "memory's clock (2024-07-06T19:48:57"));
		h2emv_mem_close(m);
		assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
		build(m); /* the second round reads the builder's clock */
		h2emv_mem_close(m);
	}
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
	assert_int_equal(ingest_at(m, T0 + (10 + 29) * DAY_US, &err), H2EMV_OK);
	done(m, dir);
}

static void test_max_clock_jump_is_configured_and_kept(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_config c;
	h2emv_error err;
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.version, H2EMV_CONFIG_VERSION);
	assert_int_equal(c.max_clock_jump, 30 * DAY_US);

	c.max_clock_jump = 3600 * S_US;
	assert_int_equal(h2emv_config_set(m, &c, NULL), H2EMV_OK);
	assert_int_equal(ingest_at(m, T0, &err), H2EMV_OK);
	assert_int_equal(ingest_at(m, T0 + 7200 * S_US, &err), H2EMV_EPARSE);
	assert_non_null(strstr(err.message, "2 h ahead"));
	assert_non_null(strstr(err.message, "the allowed jump is 1 h"));
	assert_int_equal(ingest_at(m, T0 + 3000 * S_US, &err), H2EMV_OK);

	/* kept in the memory */
	h2emv_mem_close(m);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_NOSYNC;
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.max_clock_jump, 3600 * S_US);

	/* a version-1 caller's struct leaves it alone */
	h2emv_config v1 = c;
	v1.version = 1;
	v1.max_clock_jump = 12345;
	v1.qa_max_rounds = 7;
	assert_int_equal(h2emv_config_set(m, &v1, NULL), H2EMV_OK);
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.max_clock_jump, 3600 * S_US);
	assert_int_equal(c.qa_max_rounds, 7);

	/* no limit at all */
	c.max_clock_jump = H2EMV_TIME_NEVER;
	assert_int_equal(h2emv_config_set(m, &c, NULL), H2EMV_OK);
	h2emv_ingest_result res;
	assert_int_equal(ingest1(&res, m, "{\"t\":\"9999-12-31T23:59:59Z\"}", 0, 0, &err), H2EMV_OK);

	c.max_clock_jump = -1;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_EINVAL);
	done(m, dir);
}

/* A configuration as version 1 stored it: 14 uint64 fields. */
static void put_v1_config(const char *dir)
{
	eng_env *env;
	eng_open_opts eo = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(eng_open(&env, dir, &eo, &err), H2EMV_OK);
	const uint64_t f[14] = { 1, 2 /* skill stack */, 2 /* time */, 0, 0, 0, 0,
		                 0, 1, 1, 0, 0, 0, 0 };
	uint8_t b[1 + 9 * 14];
	b[0] = 0x90 | 14;
	for (int i = 0; i < 14; i++) {
		b[1 + 9 * i] = 0xcf;
		for (int k = 0; k < 8; k++)
			b[2 + 9 * i + k] = (uint8_t)(f[i] >> (56 - 8 * k));
	}
	assert_int_equal(eng_kv_put(env, ENG_KV_META, "config", 6, b, sizeof b, &err), H2EMV_OK);
	eng_close(env);
}

static void test_a_stored_version_1_config_still_reads(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_mem_close(m);
	put_v1_config(dir);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_NOSYNC;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.profile, H2EMV_PROFILE_SKILL_STACK);
	assert_int_equal(c.forgetting, H2EMV_FORGET_TIME);
	assert_int_equal(c.max_clock_jump, 30 * DAY_US);
	/* rewritten in the new layout, read back the same */
	c.max_clock_jump = 2 * DAY_US;
	assert_int_equal(h2emv_config_set(m, &c, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &err), H2EMV_OK);
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.profile, H2EMV_PROFILE_SKILL_STACK);
	assert_int_equal(c.max_clock_jump, 2 * DAY_US);
	done(m, dir);
}

/* ------------------------------------------------------------ the CLI -- */


static uint64_t stored(const char *mem)
{
	h2emv_mem *m;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&m, mem, &o, NULL), H2EMV_OK);
	uint64_t n = obs_count(m);
	h2emv_mem_close(m);
	return n;
}

static void write_lines(const char *path, int64_t from, int n, const char *extra)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	for (int i = 0; i < n; i++)
		fprintf(f, "{\"t\":%lld,\"note\":\"step %d\"}\n", (long long)(from + i * 30 * S_US), i);
	if (extra)
		fputs(extra, f);
	fclose(f);
}

static void test_cli_ingest_refuses_a_jump_and_allows_it_on_request(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("clock-cli"), *out;
	char mem[4200], in[4200];
	snprintf(mem, sizeof mem, "%s/mem", dir);
	snprintf(in, sizeof in, "%s/in.jsonl", dir);
	int64_t last = T0 + (N_GOOD - 1) * 30 * S_US;
	char tail[256];
	snprintf(tail, sizeof tail, "{\"t\":\"2025-06-26T19:48:57Z\"}\n{\"t\":%lld}\n",
	         (long long)(last + 60 * S_US));
	write_lines(in, T0, N_GOOD, tail);

	/* stops at the bad line, naming it; everything before it is stored */
	int rc = tu_run(&out, "%s ingest --create -m %s %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "line 601, column 6: field 't': 2025-06-26T19:48:57.000000Z is "));
	assert_non_null(strstr(out, "ahead of the memory's clock"));
	assert_non_null(strstr(out, "stored 600 observations (seq 1..600); 1 bad line"));
	assert_int_equal(stored(mem), N_GOOD);
	free(out);

	/* --skip-bad: the line after it goes in, judged against the old clock */
	write_lines(in, 0, 0, tail);
	rc = tu_run(&out, "%s ingest -m %s --skip-bad --json %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "line 1, column 6: field 't'"));
	assert_non_null(strstr(out, "\"stored\":1,\"bad\":1,"));
	assert_non_null(strstr(out, "\"out_of_order\":0"));
	assert_int_equal(stored(mem), N_GOOD + 1);
	free(out);

	/* allowed explicitly */
	write_lines(in, 0, 0, "{\"t\":\"2025-06-26T19:48:57Z\"}\n");
	rc = tu_run(&out, "%s ingest -m %s --allow-clock-jump --json %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"stored\":1,\"bad\":0,"));
	free(out);

	/* now the history is out of order, and ingest says so */
	write_lines(in, last + 120 * S_US, 3, NULL);
	rc = tu_run(&out, "%s ingest -m %s %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "stored 3 observations"));
	assert_non_null(strstr(out, "3 of them out of order"));
	free(out);
	rc = tu_run(&out, "%s ingest -m %s --json %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"out_of_order\":3"));
	free(out);

	rc = tu_run(&out, "%s ingest --help", H2EMV_CLI);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "--allow-clock-jump"));
	assert_non_null(strstr(out, "Clock discipline"));
	free(out);
	tu_rmrf(dir);
	free(dir);
}

static void test_cli_config_sets_max_clock_jump(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("clock-cli"), *out;
	char mem[4200], in[4200];
	snprintf(mem, sizeof mem, "%s/mem", dir);
	snprintf(in, sizeof in, "%s/in.jsonl", dir);
	write_lines(in, T0, 1, NULL);
	int rc = tu_run(&out, "%s ingest --create -q -m %s %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 0);
	free(out);

	rc = tu_run(&out, "%s config -m %s 2>&1", H2EMV_CLI, mem);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "max-clock-jump      2592000s"));
	free(out);
	rc = tu_run(&out, "%s config -m %s --max-clock-jump 2h 2>&1", H2EMV_CLI, mem);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "max-clock-jump      7200s"));
	free(out);

	/* three hours ahead: refused with the configured jump named */
	write_lines(in, T0 + 3 * 3600 * S_US, 1, NULL);
	rc = tu_run(&out, "%s ingest -m %s %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "the allowed jump is 2 h"));
	free(out);

	rc = tu_run(&out, "%s config -m %s --max-clock-jump off 2>&1", H2EMV_CLI, mem);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "max-clock-jump      off"));
	free(out);
	rc = tu_run(&out, "%s ingest -m %s %s 2>&1", H2EMV_CLI, mem, in);
	assert_int_equal(rc, 0);
	free(out);

	rc = tu_run(&out, "%s config -m %s --max-clock-jump banana 2>&1", H2EMV_CLI, mem);
	assert_int_equal(rc, 64);
	free(out);
	rc = tu_run(&out, "%s config --help", H2EMV_CLI);
	assert_non_null(strstr(out, "--max-clock-jump AGE"));
	free(out);
	tu_rmrf(dir);
	free(dir);
}

/* --dry-run opens no memory: it checks each line's format (it used to
 * check nothing) and, as its help says, not the times against the clock. */
static void test_cli_dry_run_checks_the_format_not_the_clock(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("clock-cli"), *out;
	char in[4200];
	snprintf(in, sizeof in, "%s/in.jsonl", dir);
	write_lines(in, T0, 2, "{\"t\":\"9999-12-31T23:59:59Z\"}\n{\"t\":\"yesterday\"}\n");
	int rc = tu_run(&out, "%s ingest --dry-run -m %s/none %s 2>&1", H2EMV_CLI, dir, in);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "line 4, column 6: field 't'"));
	assert_null(strstr(out, "line 3"));
	free(out);
	rc = tu_run(&out, "%s ingest --dry-run --skip-bad --json %s 2>&1", H2EMV_CLI, in);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "\"stored\":3,\"bad\":1,"));
	free(out);
	tu_rmrf(dir);
	free(dir);
}

static void test_another_process_moves_the_clock(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = fresh(&dir);
	h2emv_error err;
	assert_int_equal(ingest_at(m, T0, &err), H2EMV_OK);
	/* the CLI appends 20 days on while this handle stays open */
	char in[4200], *out;
	snprintf(in, sizeof in, "%s/in.jsonl", dir);
	write_lines(in, T0 + 20 * DAY_US, 1, NULL);
	assert_int_equal(tu_run(&out, "%s ingest -q -m %s %s 2>&1", H2EMV_CLI, dir, in), 0);
	free(out);
	/* 40 days after T0 is 20 after the other process's line */
	assert_int_equal(ingest_at(m, T0 + 40 * DAY_US, &err), H2EMV_OK);
	assert_int_equal(obs_count(m), 3);
	done(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_year_ahead_is_refused_and_the_tree_is_unchanged),
		cmocka_unit_test(test_allowing_the_jump_stores_it_and_moves_the_clock),
		cmocka_unit_test(test_a_jump_of_exactly_the_limit_is_accepted_one_more_refused),
		cmocka_unit_test(test_year_9999_is_refused_by_an_empty_memory_and_a_full_one),
		cmocka_unit_test(test_a_t_end_ahead_is_refused_naming_t_end),
		cmocka_unit_test(test_an_empty_memory_accepts_its_first_observation),
		cmocka_unit_test(test_a_bad_line_in_a_batch_moves_nothing),
		cmocka_unit_test(test_out_of_order_times_are_stored_and_counted),
		cmocka_unit_test(test_the_clock_is_read_back_from_the_log_and_the_tree),
		cmocka_unit_test(test_max_clock_jump_is_configured_and_kept),
		cmocka_unit_test(test_a_stored_version_1_config_still_reads),
		cmocka_unit_test(test_cli_ingest_refuses_a_jump_and_allows_it_on_request),
		cmocka_unit_test(test_cli_config_sets_max_clock_jump),
		cmocka_unit_test(test_cli_dry_run_checks_the_format_not_the_clock),
		cmocka_unit_test(test_another_process_moves_the_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
