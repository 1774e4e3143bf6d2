/*
 * test_compact_live.c — compaction never fails a reader and runs beside the
 * builder, and a kill -9 at any moment of it loses nothing.
 *
 * The live test compacts a memory N times (20; H2EMV_LIVE_COMPACTIONS
 * overrides) while, all at once: two processes run `h2emv ask` in a loop;
 * two threads of this process open snapshots and walk them; `h2emv build
 * --follow` runs; a child process ingests observations one by one,
 * acknowledging each through a pipe; and an `h2emv ingest` of a small file
 * starts just before each compaction. Compactions alternate between this
 * process's handle (h2emv_compact, beside its own reader threads) and the
 * CLI (`h2emv compact`). It asserts that no ask, no reader call, no ingest
 * and no compaction failed, that `h2emv check` passes, and that every
 * acknowledged observation is there as written.
 *
 * The growing-ingest test compacts (through this process's handle and the
 * CLI) and reads while another process ingests through a handle whose
 * map starts at 1 MiB and grows many times: every other process meets
 * MDB_MAP_RESIZED and must follow the map (issue 21). No compaction, read
 * or ingest may fail.
 *
 * The crash test lets a child append and compact in a loop, kills it with
 * SIGKILL after a random 5..100 ms, and after each kill opens the memory:
 * check passes, every acknowledged observation is there, and one data file
 * is left (the leftovers of the interrupted compaction are cleaned). Rounds:
 * 40 (H2EMV_COMPACT_CRASH_ROUNDS); the seed is printed
 * (H2EMV_COMPACT_CRASH_SEED replays it).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "testutil.h"
#include "api/mem/mem.h"

#ifndef H2EMV_CLI
#error "H2EMV_CLI (the h2emv program) must be defined by the build"
#endif

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);
	return v && *v ? strtoull(v, NULL, 10) : def;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The exit status of `pid`, 128 + the signal that killed it, -1 on error. */
static int wait_status(pid_t pid)
{
	int st = tu_wait(pid);
	if (st < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The CLI with `argv` (without the program), stdout thrown away, stderr
 * appended to `errlog`. */
static int run_cli(const char *const *argv, const char *errlog)
{
	return wait_status(tu_cli_spawn(argv, errlog, 0, 0));
}

/* Observation `i` of a feed: its note names it ("live-00000042"). */
static int feed_obs(char *out, size_t cap, const char *feed, uint64_t i)
{
	time_t t = (time_t)(1688940000 + i); /* after the simulated history */
	struct tm tm;
	gmtime_r(&t, &tm);
	char ts[32];
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return snprintf(out, cap,
	                "{\"t\":\"%s\",\"action\":{\"name\":\"Grasp\",\"args\":{\"object\":"
	                "\"cup-%" PRIu64 "\"},\"status\":\"succeeded\"},\"location\":\"kitchen\","
	                "\"note\":\"%s-%08" PRIu64 "\"}",
	                ts, i % 7, feed, i);
}

static int live_obs(char *out, size_t cap, uint64_t i)
{
	return feed_obs(out, cap, "live", i);
}

/* Is there a child message on `fd` (without blocking)? */
static int readable(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	return poll(&p, 1, 0) > 0;
}

/* ---------------------------------------------------------- the askers -- */

typedef struct ask_tally {
	uint64_t runs, failures;
} ask_tally;

/* Ask until `stop` becomes readable; the tally goes to `out`. */
static _Noreturn void asker_main(const char *dir, const char *errlog, int stop, int out)
{
	tu_child_default_signals();
	static const char *const questions[] = {
		"Where did you put the cup?",
		"When did you last grasp the cup?",
		"What did you do in the kitchen?",
	};
	ask_tally t = { 0, 0 };
	while (!readable(stop)) {
		const char *argv[] = { "ask", "-m", dir, "-q", questions[t.runs % 3], NULL };
		int rc = run_cli(argv, errlog);
		t.runs++;
		if (rc != 0)
			t.failures++;
	}
	_exit(write(out, &t, sizeof t) == (ssize_t)sizeof t ? 0 : 3);
}

/* ---------------------------------------------------------- the ingester -- */

/* Ingest live observations 1, 2, ... one at a time until `stop` becomes
 * readable; after each one stored, write its number to `acks`. A refused
 * ingest writes 0 and stops. */
static _Noreturn void ingester_main(const char *dir, int stop, int acks)
{
	tu_child_default_signals();
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	if (h2emv_mem_open(&m, dir, NULL, &e) != H2EMV_OK) {
		fprintf(stderr, "ingester: open: %s\n", e.message);
		uint64_t zero = 0;
		_exit(write(acks, &zero, 8) == 8 ? 2 : 3);
	}
	for (uint64_t i = 1; !readable(stop); i++) {
		char json[512];
		int len = live_obs(json, sizeof json, i);
		uint64_t seq;
		if (h2emv_ingest(&seq, m, json, (size_t)len, &e) != H2EMV_OK) {
			fprintf(stderr, "ingester: observation %" PRIu64 ": %s\n", i, e.message);
			uint64_t zero = 0;
			_exit(write(acks, &zero, 8) == 8 ? 2 : 3);
		}
		if (write(acks, &i, 8) != 8)
			_exit(3);
		sleep_ms(10);
	}
	h2emv_mem_close(m);
	_exit(0);
}

/* ------------------------------------------------------ reader threads -- */

typedef struct reader_ctx {
	h2emv_mem *mem;
	volatile int stop;
	uint64_t views, failures;
	char first_error[640];
} reader_ctx;

static void reader_fail(reader_ctx *c, const char *what, const h2emv_error *e)
{
	if (!c->failures++)
		snprintf(c->first_error, sizeof c->first_error, "%s: %s", what, e->message);
}

/* Open the newest snapshot, walk its root's children and grandchildren,
 * read the newest observation; close; again. */
static void *reader_main(void *arg)
{
	reader_ctx *c = arg;
	while (!c->stop) {
		h2emv_snap *s;
		h2emv_error e = { 0 };
		int rc = h2emv_snap_open(&s, c->mem, H2EMV_SNAP_LATEST, &e);
		if (rc == H2EMV_ENOTFOUND)
			continue;
		if (rc != H2EMV_OK) {
			reader_fail(c, "snap_open", &e);
			continue;
		}
		const h2emv_node *root;
		if (h2emv_snap_root(&root, s, &e) != H2EMV_OK) {
			reader_fail(c, "snap_root", &e);
		} else {
			for (size_t i = 0; i < h2emv_node_child_count(root); i++) {
				const h2emv_node *kid, *grand;
				if (h2emv_node_child(&kid, s, root, i, &e) != H2EMV_OK) {
					reader_fail(c, "node_child", &e);
					break;
				}
				if (h2emv_node_child_count(kid) &&
				    h2emv_node_child(&grand, s, kid, 0, &e) != H2EMV_OK)
					reader_fail(c, "node_child", &e);
			}
		}
		h2emv_snap_close(s);
		eng_read *r;
		uint64_t last;
		if (eng_read_begin(&r, c->mem->env, &e) != H2EMV_OK) {
			reader_fail(c, "read_begin", &e);
		} else {
			if (eng_obs_last(&last, r, &e) != H2EMV_OK)
				reader_fail(c, "obs_last", &e);
			eng_read_end(r);
		}
		c->views++;
	}
	return NULL;
}

/* --------------------------------------------------------- verification -- */

/* Every acknowledged observation of feed `feed` ("live", "cli") is
 * stored: some seq holds the note "<feed>-<i>". */
static void verify_feed(const char *dir, const char *feed, const uint8_t *acked,
                        uint64_t max_acked)
{
	h2emv_mem *m;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	uint8_t *seen = calloc(max_acked + 2, 1);
	assert_non_null(seen);
	eng_read *r;
	assert_int_equal(eng_read_begin(&r, m->env, &e), H2EMV_OK);
	uint64_t last = 0;
	assert_int_equal(eng_obs_last(&last, r, &e), H2EMV_OK);
	eng_buf body = { 0 };
	for (uint64_t seq = 1; seq <= last; seq++) {
		if (eng_obs_get(&body, r, seq, &e) != H2EMV_OK)
			continue; /* none are deleted here, but be exact below */
		size_t fl = strlen(feed);
		const uint8_t *p = memmem(body.data, body.len, feed, fl);
		if (!p || (size_t)(p - body.data) + fl + 9 > body.len || p[fl] != '-')
			continue;
		char digits[9];
		memcpy(digits, p + fl + 1, 8);
		digits[8] = 0;
		uint64_t i = strtoull(digits, NULL, 10);
		if (i <= max_acked)
			seen[i] = 1;
	}
	eng_buf_free(&body);
	eng_read_end(r);
	h2emv_mem_close(m);
	for (uint64_t i = 1; i <= max_acked; i++)
		if (acked[i] && !seen[i])
			fail_msg("acknowledged observation %s-%08" PRIu64 " is lost", feed, i);
	free(seen);
}

static void print_file(const char *path)
{
	size_t n = 0;
	char *text = tu_read_file(path, &n);
	if (text && n)
		fprintf(stderr, "---- %s ----\n%s\n", path, text);
	free(text);
}

/* ------------------------------------------------------------ the tests -- */

static void test_compaction_beside_askers_readers_ingest_and_follower_fails_nothing(void **state)
{
	(void)state;
	uint64_t compactions = env_u64("H2EMV_LIVE_COMPACTIONS", 20);
	char *dir = tu_tmpdir("compact-live");
	char *hist = tu_fmt("%s.history.jsonl", dir);
	char *errlog = tu_fmt("%s.stderr", dir);
	unlink(errlog);
	/* a memory with a simulated household history, built */
	const char *sim[] = { "sim", "--episodes", "3", "--seed", "11", "-o", hist, NULL };
	assert_int_equal(run_cli(sim, errlog), 0);
	const char *init[] = { "init", dir, NULL };
	assert_int_equal(run_cli(init, errlog), 0);
	const char *ingest[] = { "ingest", "-m", dir, hist, NULL };
	assert_int_equal(run_cli(ingest, errlog), 0);
	const char *build[] = { "build", "-m", dir, "-q", NULL };
	assert_int_equal(run_cli(build, errlog), 0);

	h2emv_mem *mem;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, NULL, &e), H2EMV_OK);

	/* everyone at once */
	const char *follow[] = { "build", "-m", dir, "--follow", "--interval", "1", "-q", NULL };
	pid_t follower = tu_cli_spawn(follow, errlog, 0, 0);
	int stop[2], acks[2], tallies[2];
	assert_int_equal(pipe(stop), 0);
	assert_int_equal(pipe(acks), 0);
	assert_int_equal(pipe(tallies), 0);
	fflush(NULL);
	pid_t ingester = fork();
	assert_true(ingester >= 0);
	if (ingester == 0) {
		close(stop[1]);
		close(acks[0]);
		ingester_main(dir, stop[0], acks[1]);
	}
	pid_t askers[2];
	for (int k = 0; k < 2; k++) {
		askers[k] = fork();
		assert_true(askers[k] >= 0);
		if (askers[k] == 0) {
			close(stop[1]);
			close(tallies[0]);
			asker_main(dir, errlog, stop[0], tallies[1]);
		}
	}
	close(stop[0]);
	close(acks[1]);
	close(tallies[1]);
	reader_ctx rc[2];
	pthread_t th[2];
	for (int k = 0; k < 2; k++) {
		memset(&rc[k], 0, sizeof rc[k]);
		rc[k].mem = mem;
		assert_int_equal(pthread_create(&th[k], NULL, reader_main, &rc[k]), 0);
	}

	size_t acked_cap = 1 << 16;
	uint8_t *acked = calloc(acked_cap, 1);
	assert_non_null(acked);
	uint64_t max_acked = 0, ingest_failed = 0;
	uint64_t compact_failures = 0, cli_ingest_failures = 0;
	uint8_t cli_acked[4096] = { 0 };
	uint64_t cli_next = 1;
	char *cli_batch = tu_fmt("%s.batch.jsonl", dir);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t n = 0; n < compactions; n++) {
		sleep_ms(120); /* let askers start and finish around the switches */
		/* `h2emv ingest` of a small file, running beside the compaction */
		uint64_t first_cli = cli_next;
		FILE *bf = fopen(cli_batch, "w");
		assert_non_null(bf);
		for (int k = 0; k < 3; k++, cli_next++) {
			char json[512];
			feed_obs(json, sizeof json, "cli", cli_next);
			fprintf(bf, "%s\n", json);
		}
		assert_int_equal(fclose(bf), 0);
		const char *ingest_cli[] = { "ingest", "-m", dir, cli_batch, NULL };
		pid_t cli_ingester = tu_cli_spawn(ingest_cli, errlog, 0, 0);
		int rc_c;
		if (n % 2 == 0) {
			memset(&e, 0, sizeof e);
			rc_c = h2emv_compact(NULL, NULL, mem, &e);
			if (rc_c)
				fprintf(stderr, "compaction %" PRIu64 " (API): %s\n", n + 1, e.message);
		} else {
			const char *compact[] = { "compact", "-m", dir, NULL };
			rc_c = run_cli(compact, errlog);
			if (rc_c)
				fprintf(stderr, "compaction %" PRIu64 " (CLI) exited %d\n", n + 1, rc_c);
		}
		compact_failures += rc_c != 0;
		if (wait_status(cli_ingester) == 0) {
			for (uint64_t k = first_cli; k < cli_next && k < sizeof cli_acked; k++)
				cli_acked[k] = 1;
		} else {
			cli_ingest_failures++;
		}
		uint64_t i;
		while (readable(acks[0]) && read(acks[0], &i, 8) == 8) {
			if (i == 0)
				ingest_failed++;
			else if (i < acked_cap) {
				acked[i] = 1;
				if (i > max_acked)
					max_acked = i;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sleep_ms(200);

	/* stop everyone */
	assert_int_equal(write(stop[1], "x", 1), 1);
	for (int k = 0; k < 2; k++) {
		rc[k].stop = 1;
		pthread_join(th[k], NULL);
	}
	ask_tally total = { 0, 0 };
	for (int k = 0; k < 2; k++) {
		ask_tally t;
		assert_int_equal(read(tallies[0], &t, sizeof t), (ssize_t)sizeof t);
		total.runs += t.runs;
		total.failures += t.failures;
		assert_int_equal(wait_status(askers[k]), 0);
	}
	uint64_t i;
	while (read(acks[0], &i, 8) == 8) {
		if (i == 0)
			ingest_failed++;
		else if (i < acked_cap) {
			acked[i] = 1;
			if (i > max_acked)
				max_acked = i;
		}
	}
	int ingester_rc = wait_status(ingester);
	kill(follower, SIGINT);
	int follower_rc = wait_status(follower);
	close(stop[1]);
	close(acks[0]);
	close(tallies[0]);

	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, mem, &e), H2EMV_OK);
	h2emv_mem_close(mem);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("%" PRIu64 " compactions in %.1f s (%" PRIu64 " failed); %" PRIu64
	              " asks (%" PRIu64 " failed); %" PRIu64 " + %" PRIu64
	              " reader-thread views (%" PRIu64 " failed); %" PRIu64
	              " observations ingested (%" PRIu64 " refused) + %" PRIu64
	              " by `h2emv ingest` (%" PRIu64 " runs failed); generation %" PRIu64
	              ", build cursor %" PRIu64 " of %" PRIu64 "\n",
	              compactions, secs, compact_failures, total.runs, total.failures, rc[0].views,
	              rc[1].views, rc[0].failures + rc[1].failures, max_acked, ingest_failed,
	              cli_next - 1, cli_ingest_failures, st.generation, st.build_cursor, st.obs_last_seq);
	for (int k = 0; k < 2; k++)
		if (rc[k].failures)
			fprintf(stderr, "reader thread %d: first error: %s\n", k, rc[k].first_error);
	if (total.failures || compact_failures || ingest_failed || follower_rc || ingester_rc ||
	    cli_ingest_failures)
		print_file(errlog);
	assert_int_equal(compact_failures, 0);
	assert_int_equal(total.failures, 0);
	assert_int_equal(rc[0].failures + rc[1].failures, 0);
	assert_int_equal(ingest_failed, 0);
	assert_int_equal(cli_ingest_failures, 0);
	assert_int_equal(ingester_rc, 0);
	assert_int_equal(follower_rc, 0);
	/* the test did run things beside the compactions */
	assert_true(total.runs >= compactions);
	assert_true(max_acked >= compactions);
	assert_true(rc[0].views > 0 && rc[1].views > 0);
	/* every compaction made a generation; the follower's own idle
	 * maintenance may have compacted too (a slow machine leaves it idle) */
	assert_true(st.generation >= compactions);
	/* the follower folded what it saw, into the current generation */
	assert_true(st.build_cursor > 0);

	const char *check[] = { "check", "-m", dir, NULL };
	assert_int_equal(run_cli(check, errlog), 0);
	verify_feed(dir, "live", acked, max_acked);
	verify_feed(dir, "cli", cli_acked, cli_next - 1 < sizeof cli_acked ? cli_next - 1 : 0);
	assert_int_equal(tu_data_files(dir), 1);
	free(acked);
	unlink(cli_batch);
	free(cli_batch);
	tu_rmrf(dir);
	unlink(hist);
	unlink(errlog);
	free(hist);
	free(errlog);
	free(dir);
}

/* --------------------------------------------------------- crash test -- */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* Compact, append 5 observations (acknowledging each), again, until
 * killed. Observations continue from `next`. */
static _Noreturn void crash_child(const char *dir, uint64_t next, int acks)
{
	tu_child_default_signals();
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	if (h2emv_mem_open(&m, dir, NULL, &e) != H2EMV_OK) {
		fprintf(stderr, "crash child: open: %s\n", e.message);
		_exit(2);
	}
	for (;;) {
		if (h2emv_compact(NULL, NULL, m, &e) != H2EMV_OK) {
			fprintf(stderr, "crash child: compact: %s\n", e.message);
			_exit(2);
		}
		for (int k = 0; k < 5; k++, next++) {
			char json[512];
			int len = live_obs(json, sizeof json, next);
			if (h2emv_ingest(NULL, m, json, (size_t)len, &e) != H2EMV_OK) {
				fprintf(stderr, "crash child: ingest: %s\n", e.message);
				_exit(2);
			}
			if (write(acks, &next, 8) != 8)
				_exit(3);
		}
	}
}

static void test_kill_during_compaction_loses_nothing(void **state)
{
	(void)state;
	uint64_t rounds = env_u64("H2EMV_COMPACT_CRASH_ROUNDS", 40);
	uint64_t seed = env_u64("H2EMV_COMPACT_CRASH_SEED", 0);
	if (!seed)
		seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 16;
	print_message("seed %" PRIu64 " (H2EMV_COMPACT_CRASH_SEED), %" PRIu64 " rounds\n", seed,
	              rounds);
	uint64_t rng = seed | 1;
	char *dir = tu_tmpdir("compact-crash");
	/* a few thousand observations first, so that a copy takes a while */
	h2emv_mem *m;
	h2emv_error e = { 0 };
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	assert_int_equal(h2emv_mem_open(&m, dir, &o, &e), H2EMV_OK);
	size_t acked_cap = 1 << 20;
	uint8_t *acked = calloc(acked_cap, 1);
	assert_non_null(acked);
	uint64_t next = 1, max_acked = 0;
	for (; next <= 3000; next++) {
		char json[512];
		int len = live_obs(json, sizeof json, next);
		assert_int_equal(h2emv_ingest(NULL, m, json, (size_t)len, &e), H2EMV_OK);
		acked[next] = 1;
		max_acked = next;
	}
	h2emv_mem_close(m);
	uint64_t kills_in_compaction = 0;
	for (uint64_t round = 0; round < rounds; round++) {
		int acks[2];
		assert_int_equal(pipe(acks), 0);
		fflush(NULL);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(acks[0]);
			crash_child(dir, next, acks[1]);
		}
		close(acks[1]);
		sleep_ms(5 + (long)(rnd_next(&rng) % 96));
		kill(pid, SIGKILL);
		int st = wait_status(pid);
		if (st != 128 + SIGKILL)
			fail_msg("round %" PRIu64 ": the child ended by itself (%d)", round, st);
		uint64_t i;
		while (read(acks[0], &i, 8) == 8) {
			assert_true(i < acked_cap);
			acked[i] = 1;
			if (i > max_acked)
				max_acked = i;
		}
		close(acks[0]);
		next = max_acked + 1;
		/* was it inside a compaction? (a copy or CURRENT.tmp left behind) */
		char tmp[4200];
		snprintf(tmp, sizeof tmp, "%s/CURRENT.tmp", dir);
		if (access(tmp, F_OK) == 0 || tu_data_files(dir) > 1)
			kills_in_compaction++;
		/* open, check, everything acknowledged is there */
		assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
		uint64_t violations = 99;
		assert_int_equal(h2emv_check(&violations, m, NULL, &e), H2EMV_OK);
		assert_int_equal(violations, 0);
		h2emv_mem_close(m);
		assert_int_equal(tu_data_files(dir), 1);
		verify_feed(dir, "live", acked, max_acked);
	}
	print_message("%" PRIu64 " of %" PRIu64 " kills landed inside a compaction; %" PRIu64
	              " observations acknowledged\n",
	              kills_in_compaction, rounds, max_acked);
	/* the test is void if no kill hit a compaction */
	assert_true(kills_in_compaction > 0);
	free(acked);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------- a growing ingest -- */

#define GROW_MAP (1u << 20) /* every handle here starts with a 1 MiB map */

/* Ingest `batches` batches of 20 observations with 1.5 KB notes through a
 * handle of its own with a small map, which it grows as it goes (each
 * growth is MDB_MAP_RESIZED for every other process). Exit status: the
 * number of failed batches (capped). */
static _Noreturn void grower_main(const char *dir, int batches)
{
	tu_child_default_signals();
	h2emv_open_options o = { .version = H2EMV_OPEN_OPTIONS_VERSION, .initial_map_size = GROW_MAP };
	h2emv_mem *m;
	h2emv_error e = { 0 };
	if (h2emv_mem_open(&m, dir, &o, &e) != H2EMV_OK) {
		fprintf(stderr, "grower: open: %s\n", e.message);
		_exit(100);
	}
	int failed = 0;
	static char bodies[20][2200];
	for (int b = 0; b < batches; b++) {
		const char *items[20];
		size_t lens[20];
		for (int k = 0; k < 20; k++) {
			uint64_t i = (uint64_t)b * 20 + (uint64_t)k, x = i * 0x9E3779B97F4A7C15ull + 7;
			char note[1501];
			for (int c = 0; c < 1500; c++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				note[c] = (char)('a' + x % 26);
			}
			note[1500] = 0;
			char head[600];
			feed_obs(head, sizeof head, "grow", i);
			/* the note gets its bulk: replace the closing brace */
			head[strlen(head) - 2] = 0;
			snprintf(bodies[k], sizeof bodies[k], "%s %s\"}", head, note);
			items[k] = bodies[k];
			lens[k] = strlen(bodies[k]);
		}
		if (h2emv_ingest_batch(NULL, m, items, lens, 20, &e) != H2EMV_OK) {
			fprintf(stderr, "grower: batch %d: %s\n", b, e.message);
			failed++;
		}
	}
	h2emv_mem_close(m);
	_exit(failed > 99 ? 99 : failed);
}

static void test_compaction_beside_a_growing_ingest_follows_the_map(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("compact-grow");
	char *errlog = tu_fmt("%s.stderr", dir);
	unlink(errlog);
	const char *init[] = { "init", dir, NULL };
	assert_int_equal(run_cli(init, errlog), 0);
	h2emv_open_options o = { .version = H2EMV_OPEN_OPTIONS_VERSION, .initial_map_size = GROW_MAP };
	h2emv_mem *mem;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&mem, dir, &o, &e), H2EMV_OK);
	fflush(NULL);
	pid_t grower = fork();
	assert_true(grower >= 0);
	if (grower == 0)
		grower_main(dir, 200);
	/* compact (here and with the CLI) and read, until the ingest ends */
	uint64_t compactions = 0, reads = 0, failures = 0, grown_to = 0;
	int status = -1;
	while (waitpid(grower, &status, WNOHANG) == 0) {
		uint64_t before, after;
		memset(&e, 0, sizeof e);
		if (compactions % 2 == 0) {
			if (h2emv_compact(&before, &after, mem, &e) != H2EMV_OK) {
				print_message("compaction %" PRIu64 ": %s\n", compactions, e.message);
				failures++;
			}
		} else {
			const char *compact[] = { "compact", "-m", dir, NULL };
			if (run_cli(compact, errlog) != 0)
				failures++;
		}
		compactions++;
		h2emv_stats st;
		memset(&e, 0, sizeof e);
		if (h2emv_mem_stats(&st, mem, &e) != H2EMV_OK) {
			print_message("stats: %s\n", e.message);
			failures++;
		} else if (st.used_bytes > grown_to) {
			grown_to = st.used_bytes;
		}
		reads++;
		sleep_ms(20);
	}
	h2emv_mem_close(mem);
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	size_t elen = 0;
	char *errors = tu_read_file(errlog, &elen);
	print_message("%" PRIu64 " compactions and %" PRIu64 " reads beside the ingest; the data "
	              "grew to %" PRIu64 " bytes in use; ingest exit %d; stderr: %s\n",
	              compactions, reads, grown_to, code, errors ? errors : "");
	if (failures || code != 0)
		fail_msg("%" PRIu64 " compactions or reads failed, the ingest exited %d: %s", failures,
		         code, errors ? errors : "");
	/* the map had to follow: the data outgrew the first map several times */
	assert_true(grown_to > 4 * (uint64_t)GROW_MAP);
	assert_true(compactions >= 4);
	const char *check[] = { "check", "-m", dir, NULL };
	assert_int_equal(run_cli(check, errlog), 0);
	free(errors);
	tu_rmrf(dir);
	unlink(errlog);
	free(dir);
	free(errlog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compaction_beside_askers_readers_ingest_and_follower_fails_nothing),
		cmocka_unit_test(test_kill_during_compaction_loses_nothing),
		cmocka_unit_test(test_compaction_beside_a_growing_ingest_follows_the_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
