/*
 * test_retention.c — bounded lifelong storage: gc deletes the observations
 * no kept snapshot needs and never one it does (not built yet, held by a
 * live scene, inside the raw-log window, the newest); relevance-cache
 * entries nobody used for a while go; and a forgotten observation's bytes
 * are gone from every file of the memory after gc and compaction
 * (certified erase).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define H (3600 * US)
#define DAY (24 * H)
#define T0 1767571200ll * US /* 2026-01-05 00:00:00 UTC, a Monday */

#define MARKER "zqxw7f3a91marker"
/* 250 bytes of a note before the marker */
#define FILLER_250                                                                          \
	"Wiped the table after breakfast; crumbs under the bread board, a ring of tea by the "   \
	"window seat, jam on the left corner, a sticky patch near the fruit bowl that needed a " \
	"second pass with the cloth, and the placemats shaken out over the sink, then stacked."

typedef struct fx {
	char *dir;
	h2emv_mem *m;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f || !(f->m = tu_mem_tmp("retention", &f->dir)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	h2emv_mem_close(f->m);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void build(h2emv_mem *m, uint64_t max_obs)
{
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	o.max_obs = max_obs;
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, &o, &err))
		fail_msg("build: %s", err.message);
}

static h2emv_gc_result gc(h2emv_mem *m)
{
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	h2emv_gc_result r = { 0 };
	h2emv_error err = { 0 };
	if (h2emv_gc(&r, m, &o, &err))
		fail_msg("gc: %s", err.message);
	return r;
}

/* No raw-log window: an observation goes at the first gc after its scene
 * is forgotten (what the tests of that moment need; the default keeps it
 * for 7 days of the memory's clock). */
static void no_window(h2emv_mem *m)
{
	h2emv_config c;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.raw_log_window = 0;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
}

static h2emv_stats stats(h2emv_mem *m)
{
	h2emv_stats s;
	h2emv_error err = { 0 };
	if (h2emv_mem_stats(&s, m, &err))
		fail_msg("stats: %s", err.message);
	return s;
}

static h2emv_retention retention(h2emv_mem *m)
{
	h2emv_retention r;
	h2emv_error err = { 0 };
	if (h2emv_retention_stats(&r, m, &err))
		fail_msg("retention: %s", err.message);
	return r;
}

static int obs_exists(h2emv_mem *m, uint64_t seq)
{
	char *json = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_obs_get_json(&json, NULL, m, seq, &err);
	h2emv_free(json);
	if (rc != H2EMV_OK && rc != H2EMV_ENOTFOUND)
		fail_msg("obs %llu: %s", (unsigned long long)seq, err.message);
	return rc == H2EMV_OK;
}

/* Does any file in `dir` hold `needle`? */
static int dir_holds(const char *dir, const char *needle)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	int found = 0;
	size_t nl = strlen(needle);
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *path = tu_fmt("%s/%s", dir, e->d_name);
		size_t len = 0;
		char *data = tu_read_file(path, &len);
		for (size_t i = 0; data && len >= nl && i + nl <= len && !found; i++)
			found = data[i] == needle[0] && !memcmp(data + i, needle, nl);
		free(data);
		free(path);
	}
	closedir(d);
	return found;
}

static void test_gc_keeps_the_unbuilt_the_live_and_the_newest(void **state)
{
	fx *f = *state;
	no_window(f->m);
	for (int day = 0; day < 6; day++)
		tu_chores(f->m, T0, day);
	uint64_t last = stats(f->m).obs_last_seq;
	assert_int_equal(last, 30);
	build(f->m, 27); /* three observations stay unbuilt */
	h2emv_retention before = retention(f->m);
	assert_int_equal(before.obs_total, 30);
	assert_int_equal(before.obs_unbuilt, 3);
	assert_true(before.obs_reclaimable > 0);
	h2emv_gc_result r = gc(f->m);
	assert_int_equal(r.obs_reclaimed, before.obs_reclaimable);
	assert_true(r.obs_bytes_reclaimed > 0);
	h2emv_stats s = stats(f->m);
	assert_int_equal(s.obs_count, 30 - r.obs_reclaimed);
	assert_int_equal(s.obs_last_seq, 30);
	/* the unbuilt ones and the newest day's (its scenes live) are there;
	 * the first day's are gone */
	for (uint64_t q = 28; q <= 30; q++)
		assert_true(obs_exists(f->m, q));
	assert_false(obs_exists(f->m, 1));
	h2emv_retention after = retention(f->m);
	assert_int_equal(after.obs_reclaimable, 0);
	assert_int_equal(after.obs_total, s.obs_count);
	/* what was unbuilt is built from the log, and numbering goes on */
	build(f->m, 0);
	tu_chores(f->m, T0, 6);
	assert_int_equal(stats(f->m).obs_last_seq, 35);
	build(f->m, 0);
	uint64_t n = 0;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
}

static void test_the_raw_log_window_holds_observations_longer(void **state)
{
	fx *f = *state;
	h2emv_config c;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	c.raw_log_window = 30 * DAY;
	assert_int_equal(h2emv_config_set(f->m, &c, &err), H2EMV_OK);
	for (int day = 0; day < 8; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	h2emv_retention r = retention(f->m);
	assert_int_equal(r.obs_reclaimable, 0);
	assert_true(r.obs_window > 0);
	assert_int_equal(gc(f->m).obs_reclaimed, 0);
	/* a two-day window: the older days go, the last two days stay */
	c.raw_log_window = 2 * DAY;
	assert_int_equal(h2emv_config_set(f->m, &c, &err), H2EMV_OK);
	assert_true(gc(f->m).obs_reclaimed > 0);
	assert_false(obs_exists(f->m, 1));
	assert_true(obs_exists(f->m, 36)); /* day 7 */
	/* the setting survives a reopen */
	h2emv_mem_close(f->m);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	assert_int_equal(h2emv_mem_open(&f->m, f->dir, &o, &err), H2EMV_OK);
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	assert_int_equal(c.raw_log_window, 2 * DAY);
}

/* The defaults (issue 18, item 9): a forgotten scene's observations stay
 * in the log for 7 days of the memory's clock, so what was forgotten can
 * be rebuilt or audited; then gc deletes them. */
static void test_the_default_window_keeps_forgotten_observations_a_week(void **state)
{
	fx *f = *state;
	h2emv_config c;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	assert_int_equal(c.raw_log_window, 7 * DAY);
	/* day 0's chores (09:00 .. 18:00), then the clock runs to day 7
	 * 09:00: day 0 is forgotten, and not yet 7 days old */
	for (int day = 0; day < 7; day++)
		tu_chores(f->m, T0, day);
	tu_ingestf(f->m, "{\"t\":%lld,\"location\":\"kitchen\"}", (long long)(T0 + 7 * DAY));
	build(f->m, 0);
	h2emv_retention r = retention(f->m);
	assert_true(r.obs_window > 0);
	assert_int_equal(r.obs_reclaimable, 0);
	assert_int_equal(gc(f->m).obs_reclaimed, 0);
	assert_true(obs_exists(f->m, 1));
	/* without the window the same observations would go now */
	no_window(f->m);
	assert_true(retention(f->m).obs_reclaimable > 0);
	assert_int_equal(h2emv_config_set(f->m, &c, &err), H2EMV_OK);
	/* a day later on the memory's clock day 0 is over 7 days old */
	tu_chores(f->m, T0, 7);
	tu_chores(f->m, T0, 8);
	build(f->m, 0);
	assert_true(gc(f->m).obs_reclaimed > 0);
	assert_false(obs_exists(f->m, 1));
	/* day 2's (from seq 11) are inside the week: still held by the window */
	assert_true(obs_exists(f->m, 11));
	assert_true(retention(f->m).obs_window > 0);
}

/* gc --purge ignores the window once: erase now, for a user who must. */
static void test_purge_erases_forgotten_observations_inside_the_window(void **state)
{
	fx *f = *state;
	for (int day = 0; day < 4; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	assert_int_equal(gc(f->m).obs_reclaimed, 0);
	assert_true(obs_exists(f->m, 1));
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_snapshots = 1;
	o.purge = 1;
	h2emv_gc_result g = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_gc(&g, f->m, &o, &err), H2EMV_OK);
	assert_true(g.obs_reclaimed > 0);
	assert_false(obs_exists(f->m, 1));
	/* the window itself is unchanged */
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	assert_int_equal(c.raw_log_window, 7 * DAY);
}

/* Over the disk budget, maintenance ignores the window: the budget bounds
 * the memory even when the window would keep more. */
static void test_a_disk_budget_overrides_the_window(void **state)
{
	fx *f = *state;
	for (int day = 0; day < 4; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	h2emv_config c;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	c.max_size = 4096;
	assert_int_equal(h2emv_config_set(f->m, &c, &err), H2EMV_OK);
	h2emv_maintain_result r;
	assert_int_equal(h2emv_maintain(&r, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 1);
	assert_true(r.gc.obs_reclaimed > 0);
	assert_false(obs_exists(f->m, 1));
}

static void test_keep_log_leaves_the_log_alone(void **state)
{
	fx *f = *state;
	for (int day = 0; day < 5; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	o.keep_log = 1;
	h2emv_gc_result r = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_gc(&r, f->m, &o, &err), H2EMV_OK);
	assert_int_equal(r.obs_reclaimed, 0);
	assert_int_equal(stats(f->m).obs_count, 25);
}

static void test_unused_cache_entries_are_collected(void **state)
{
	fx *f = *state;
	/* three weeks: the first week's relevance estimates are not used again */
	for (int day = 0; day < 21; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	uint64_t before = stats(f->m).relcache_entries;
	assert_true(before > 0);
	h2emv_retention r = retention(f->m);
	assert_int_equal(r.cache_entries, before);
	h2emv_gc_result g = gc(f->m);
	assert_int_equal(g.cache_collected, r.cache_collectable);
	assert_int_equal(stats(f->m).relcache_entries, before - g.cache_collected);
}

static void test_a_forgotten_observation_leaves_every_file(void **state)
{
	fx *f = *state;
	no_window(f->m); /* certified erase: gone at the first gc */
	/* the marker is stored raw (a literal to the dictionary), past the
	 * 240 bytes of a note that its fact, and so a forgotten goal's gist,
	 * keeps: only the observation and the detail nodes hold it */
	tu_ingestf(f->m,
	           "{\"t\":%lld,\"action\":{\"name\":\"Wipe\",\"args\":{\"object\":\"table_0\"},"
	           "\"status\":\"succeeded\"},\"location\":\"kitchen\",\"note\":\"%s " MARKER "\"}",
	           (long long)(T0 + 8 * H), FILLER_250);
	build(f->m, 0);
	assert_true(dir_holds(f->dir, MARKER)); /* the test can see it */
	for (int day = 0; day < 30; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	assert_int_equal(gc(f->m).obs_reclaimed > 0, 1);
	assert_false(obs_exists(f->m, 1));
	uint64_t b = 0, a = 0;
	h2emv_error err = { 0 };
	if (h2emv_compact(&b, &a, f->m, &err))
		fail_msg("compact: %s", err.message);
	h2emv_mem_close(f->m);
	f->m = NULL;
	assert_false(dir_holds(f->dir, MARKER));
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	assert_int_equal(h2emv_mem_open(&f->m, f->dir, &o, &err), H2EMV_OK);
	uint64_t n = 0;
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
}

static int stop_at_once(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	(void)what, (void)done, (void)total;
	(*(int *)ctx)++;
	return 1;
}

/* `build --follow` stops on SIGTERM between gc's batches: maintenance
 * passes the caller's progress (a stop) to gc with the default options */
static void test_maintenance_hears_a_stop_between_gc_batches(void **state)
{
	fx *f = *state;
	no_window(f->m);
	for (int day = 0; day < 6; day++) {
		tu_chores(f->m, T0, day);
		build(f->m, 0);
	}
	h2emv_maintain_options o = H2EMV_MAINTAIN_OPTIONS_INIT;
	int asked = 0;
	o.force = 1;
	o.gc.progress = stop_at_once;
	o.gc.progress_ctx = &asked;
	h2emv_maintain_result r;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_maintain(&r, f->m, &o, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 1);
	assert_true(asked > 0);
	uint64_t n = 0;
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
}

static void test_maintenance_runs_when_due_and_not_before(void **state)
{
	fx *f = *state;
	no_window(f->m);
	for (int day = 0; day < 4; day++)
		tu_chores(f->m, T0, day);
	build(f->m, 0);
	h2emv_maintain_result r;
	h2emv_error err = { 0 };
	/* never collected: due */
	assert_int_equal(h2emv_maintain(&r, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 1);
	assert_true(r.gc.obs_reclaimed > 0);
	assert_int_equal(r.compacted, 0); /* a small file: not worth it */
	/* nothing new since: not due */
	assert_int_equal(h2emv_maintain(&r, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 0);
	assert_int_equal(r.compacted, 0);
	/* a day later on the memory's clock: due again */
	tu_chores(f->m, T0, 5);
	build(f->m, 0);
	assert_int_equal(h2emv_maintain(&r, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 1);
	/* a disk budget below the file: collected and compacted */
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	c.max_size = 4096;
	assert_int_equal(h2emv_config_set(f->m, &c, &err), H2EMV_OK);
	tu_chores(f->m, T0, 6);
	build(f->m, 0);
	assert_int_equal(h2emv_maintain(&r, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 1);
	assert_int_equal(r.compacted, 1);
	assert_true(r.bytes_after < r.bytes_before);
	/* forced */
	h2emv_maintain_options o = H2EMV_MAINTAIN_OPTIONS_INIT;
	o.force = 1;
	assert_int_equal(h2emv_maintain(&r, f->m, &o, &err), H2EMV_OK);
	assert_int_equal(r.gc_ran, 1);
	assert_int_equal(r.compacted, 1);
	uint64_t n = 0;
	assert_int_equal(h2emv_check(&n, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gc_keeps_the_unbuilt_the_live_and_the_newest,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_raw_log_window_holds_observations_longer,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_default_window_keeps_forgotten_observations_a_week,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_purge_erases_forgotten_observations_inside_the_window,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_disk_budget_overrides_the_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_log_leaves_the_log_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unused_cache_entries_are_collected, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_a_forgotten_observation_leaves_every_file, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_maintenance_hears_a_stop_between_gc_batches, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_maintenance_runs_when_due_and_not_before, setup,
		                                teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
