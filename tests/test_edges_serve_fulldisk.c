/*
 * test_edges_serve_fulldisk.c — `serve` on a disk its own memory filled,
 * end to end (issue 21, item 1), with nothing but the server at work.
 *
 * On a 30 MiB tmpfs (a private mount namespace) a client POSTs forty-word
 * observations to `h2emv serve` (maintenance on, as a robot runs it) until
 * the store refuses a batch with 507 disk_full. The builder, finding the
 * disk full, says so ("disk full: waiting for space" in /v1/status,
 * h2emv_disk_full 1 in /metrics) and counts its waits. Then nobody helps:
 * the server's own maintenance, run when the disk is full, collects and
 * compacts, and the builder resumes by itself. Every acknowledged
 * observation is stored and built once (h2emv_observations_built_total
 * equals what was received), the server stops cleanly, `check` passes and
 * the store holds exactly what was acknowledged, and /v1/status shows the
 * disk-full error as cleared, not as the last error. Before, maintenance
 * waited for gc to be due (64 snapshots or a day of the memory's clock),
 * never was on a full disk, and the builder waited for space forever.
 *
 * Mounting needs root (or CAP_SYS_ADMIN); CI runs as root. Where mounting
 * is impossible the test is skipped (exit 77).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "h2emv.h"
#include "serveutil.h"
#include "testutil.h"

#define TMPFS_SIZE "30m"
#define BATCH 100
#define MAX_BATCHES 2000

static char *mountpoint;
static const char *skip_reason;

static int mount_small_tmpfs(void **state)
{
	(void)state;
	skip_reason = tu_mount_tmpfs(&mountpoint, "edges-serve-full", TMPFS_SIZE);
	return 0;
}

static int unmount_small_tmpfs(void **state)
{
	kill_leftovers();
	(void)state;
	tu_umount_tmpfs(mountpoint, !skip_reason);
	return 0;
}

/* Observations first .. first + n - 1 as JSON Lines, each with a note of
 * forty words made of syllables (the term index then weighs as much as
 * the node records, as with real speech), 5 s apart. malloc'd. */
static char *word_batch(uint64_t first, size_t n, size_t *len)
{
	static const char *const syl[16] = { "ka", "lo", "mi", "ne", "ru", "ta", "shi", "po",
		                             "ve", "da", "gu", "zo", "fe", "bi", "ly", "qua" };
	size_t cap = n * 800 + 1, used = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	for (uint64_t i = first; i < first + n; i++) {
		uint64_t x = i * 0x9E3779B97F4A7C15ull + 1;
		char note[40 * 10 + 1];
		size_t nl = 0;
		for (int k = 0; k < 40; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			nl += (size_t)snprintf(note + nl, sizeof note - nl, "%s%s%s%s", k ? " " : "",
			                       syl[x % 16], syl[(x >> 4) % 16], syl[(x >> 8) % 16]);
		}
		time_t t = (time_t)(1719431337 + i * 5);
		struct tm tm;
		gmtime_r(&t, &tm);
		char ts[32];
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
		used += (size_t)snprintf(out + used, cap - used,
		                         "{\"t\":\"%s\",\"action\":{\"name\":\"Grasp\",\"args\":{\"object\":"
		                         "\"cup\"},\"status\":\"succeeded\"},\"location\":\"room-%" PRIu64
		                         "\",\"note\":\"obs %" PRIu64 " %s\"}\n",
		                         ts, i % 5, i, note);
		assert_true(used < cap);
	}
	*len = used;
	return out;
}

static const char *maintenance_state(const server *s, json_t **status)
{
	*status = call(s, 200, "GET", "/v1/status", NULL);
	return json_string_value(json_object_get(json_object_get(*status, "maintenance"), "state"));
}

#define DISK_FULL_STATE "disk full: waiting for space"

/* As a robot streams: the next batch once the builder has folded this one,
 * or found the disk full (then without waiting). 1 if it is waiting for
 * space. */
static int wait_folded(const server *s)
{
	for (int k = 0; k < 1200; k++) {
		json_t *st;
		const char *ms = maintenance_state(s, &st);
		int full = ms && !strcmp(ms, DISK_FULL_STATE);
		int done = geti(st, "queue_depth", NULL) == 0;
		json_decref(st);
		if (full || done)
			return full;
		usleep(50 * 1000);
	}
	fail_msg("the builder neither folded a batch nor found the disk full in 60 s");
	return 0;
}

/* POST batches until the store refuses one with 507 disk_full (any other
 * answer fails the test); the number of observations acknowledged.
 * *full_seen: the builder was found waiting for space meanwhile. */
static uint64_t post_until_full(const server *s, int *full_seen)
{
	uint64_t acked = 0;
	for (int b = 0; b < MAX_BATCHES; b++) {
		size_t len;
		char *body = word_batch(acked, BATCH, &len);
		char *out = NULL;
		long st = http(&out, s, "POST", "/v1/observations", body, len, NULL);
		free(body);
		json_t *v = parse(out);
		free(out);
		if (st == 507) {
			const char *code =
				json_string_value(json_object_get(json_object_get(v, "error"), "code"));
			if (!code || strcmp(code, "disk_full"))
				fail_msg("507 without the code disk_full: %s", json_dumps(v, 0));
			json_decref(v);
			return acked;
		}
		if (st != 200)
			fail_msg("batch %d: status %ld: %s", b, st, json_dumps(v, 0));
		assert_int_equal(geti(v, "stored", NULL), BATCH);
		acked += BATCH;
		json_decref(v);
		if (!*full_seen)
			*full_seen = wait_folded(s);
	}
	fail_msg("%d batches of %d stored and the 30 MiB disk is not full", MAX_BATCHES, BATCH);
	return 0;
}

static void test_serve_fills_the_disk_and_recovers_by_itself(void **state)
{
	(void)state;
	if (skip_reason)
		tu_skip("H2EMV_REQUIRE_MOUNT",
		        "cannot mount a small tmpfs here (%s); this test needs root or CAP_SYS_ADMIN, "
		        "which CI has",
		        skip_reason);
	char *dir = tu_fmt("%s/mem", mountpoint);
	char *extra = tu_fmt("-m '%s'", dir); /* the later -m wins over start()'s */
	server s;
	start(&s, "edges-serve-full", extra);
	int seen = 0;
	uint64_t acked = post_until_full(&s, &seen);
	print_message("507 after %" PRIu64 " observations acknowledged; %" PRIu64 " bytes free\n",
	              acked, tu_free_bytes(mountpoint));
	assert_true(acked > 0);

	/* the builder finds the disk full and says so, counted */
	/* (maintenance waits for --idle, 5 s, of quiet: the state holds) */
	int now_full = 0;
	for (int k = 0; k < 600 && !now_full; k++) {
		json_t *st;
		const char *ms = maintenance_state(&s, &st);
		now_full = ms && !strcmp(ms, DISK_FULL_STATE);
		if (now_full)
			assert_true(metric(&s, "h2emv_disk_full") == 1);
		json_decref(st);
		if (!now_full)
			usleep(50 * 1000);
	}
	print_message("the builder was waiting for space %s the disk refused a batch\n",
	              seen ? "before" : "only after");
	if (!now_full)
		fail_msg("the builder never said \"disk full: waiting for space\" in /v1/status");
	assert_true(metric(&s, "h2emv_disk_full_waits_total") >= 1);

	/* nobody frees space: the server's own maintenance does, and the
	 * builder resumes by itself (waits of at most 30 s: guards of 150 s) */
	time_t deadline = time(NULL) + 150;
	json_t *st = NULL;
	int built_all = 0;
	while (time(NULL) < deadline && !built_all) {
		sleep(1);
		json_decref(st);
		const char *ms = maintenance_state(&s, &st);
		built_all = geti(st, "observations", "build_cursor") == (json_int_t)acked &&
		            geti(st, "queue_depth", NULL) == 0 && ms && strcmp(ms, "building") &&
		            metric(&s, "h2emv_disk_full") == 0;
	}
	char *text = json_dumps(st, 0);
	print_message("status: %s\n", text);
	if (!built_all)
		fail_msg("the server did not resume by itself within 150 s: %s", text);
	/* the full disk is over: /v1/status no longer shows its error as a
	 * standing one, but as the one that cleared (it kept it before) */
	json_t *mt = json_object_get(st, "maintenance");
	const char *le = json_string_value(json_object_get(mt, "last_error"));
	const char *ce = json_string_value(json_object_get(mt, "cleared_error"));
	if (!le || *le || !ce || !*ce)
		fail_msg("after the recovery, last_error is not empty or cleared_error is: %s", text);
	free(text);
	json_decref(st);
	assert_true(metric(&s, "h2emv_gc_runs_total") >= 1);
	double received = metric(&s, "h2emv_observations_received_total");
	double built = metric(&s, "h2emv_observations_built_total");
	if (received != (double)acked || built != received)
		fail_msg("%" PRIu64 " acknowledged, %.0f received, %.0f counted as built", acked,
		         received, built);
	/* the robot's next batch is taken again, and built */
	size_t len;
	char *body = word_batch(acked, BATCH, &len), *reply = NULL;
	long code = http(&reply, &s, "POST", "/v1/observations", body, len, NULL);
	if (code != 200)
		fail_msg("a batch after the recovery: %ld %s", code, reply);
	acked += BATCH;
	free(body);
	free(reply);
	wait_built(&s);
	/* gc keeps what is within the raw-log window (7 days of the memory's
	 * clock; these span a few hours): nothing acknowledged is reclaimed */
	double reclaimed = metric(&s, "h2emv_gc_observations_reclaimed_total");
	assert_true(reclaimed == 0);
	assert_int_equal(stop(&s), 0);

	char *errlog = tu_fmt("%s/stderr", s.dir), *out = NULL;
	if (tu_cli_log(errlog, NULL, "check -m '%s'", dir) != 0) {
		size_t elen = 0;
		fail_msg("check after the recovery: %s", tu_read_file(errlog, &elen));
	}
	assert_int_equal(tu_cli_log(errlog, &out, "stats -m '%s' --json", dir), 0);
	assert_int_equal(tu_json_u64(out, "obs_count"), acked);
	assert_int_equal(tu_json_u64(out, "obs_last_seq"), acked);
	assert_int_equal(tu_json_u64(out, "build_cursor"), acked);
	free(out);
	free(errlog);
	cleanup(&s);
	tu_rmrf(dir);
	free(dir);
	free(extra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_serve_fills_the_disk_and_recovers_by_itself,
		                                mount_small_tmpfs, unmount_small_tmpfs),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
