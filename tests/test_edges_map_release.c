/*
 * test_edges_map_release.c — the store's pages a read maps into the
 * process are let go of by h2emv_mem_release_pages (what `serve` calls
 * every second, issue 21 item 6: RSS bounded under mixed load). After
 * reading every observation of a store of a few MB, the data file's
 * resident pages (/proc/self/smaps) fall to almost nothing, and reading
 * again maps them again (the data is intact).
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

#include "api/mem/mem.h"
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* kB of the data file's mappings resident in this process. */
static uint64_t data_rss_kb(void)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	assert_non_null(f);
	char line[4400];
	int in_data = 0;
	uint64_t kb = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, hi, v;
		char path[4200] = "";
		if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %4199s", &lo, &hi, path) >= 2) {
			const char *base = strrchr(path, '/');
			in_data = base && !strncmp(base, "/data", 5) && strstr(base, ".mdb") &&
			          !strstr(base, "-lock");
		} else if (in_data && sscanf(line, "Rss: %llu kB", &v) == 1) {
			kb += v;
		}
	}
	fclose(f);
	return kb;
}

/* Read every observation; their bytes summed. */
static uint64_t read_all(h2emv_mem *m)
{
	eng_read *r;
	h2emv_error err = { 0 };
	assert_int_equal(eng_read_begin(&r, m->env, &err), H2EMV_OK);
	uint64_t last = 0, bytes = 0;
	assert_int_equal(eng_obs_last(&last, r, &err), H2EMV_OK);
	eng_buf b = { 0 };
	for (uint64_t s = 1; s <= last; s++) {
		assert_int_equal(eng_obs_get(&b, r, s, &err), H2EMV_OK);
		bytes += b.len;
	}
	eng_buf_free(&b);
	eng_read_end(r);
	return bytes;
}

static void test_read_pages_are_let_go_of(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("map-release");
	char *mem = tu_fmt("%s/mem", dir), *batch = tu_fmt("%s/batch.jsonl", dir);
	char *errlog = tu_fmt("%s/stderr", dir);
	tu_write_batch(batch, 0, 2000); /* notes of 3 KB: a few MB */
	assert_int_equal(tu_cli_log(errlog, NULL, "ingest -m '%s' --create '%s'", mem, batch), 0);
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&m, mem, NULL, &err), H2EMV_OK);
	h2emv_mem_release_pages(m);
	uint64_t bytes = read_all(m);
	uint64_t read_kb = data_rss_kb();
	h2emv_mem_release_pages(m);
	uint64_t released_kb = data_rss_kb();
	print_message("%" PRIu64 " bytes read: %" PRIu64 " kB of the data file resident, %" PRIu64
	              " kB after h2emv_mem_release_pages\n",
	              bytes, read_kb, released_kb);
	assert_true(read_kb >= 1024);
	if (released_kb * 8 > read_kb)
		fail_msg("%" PRIu64 " of %" PRIu64 " kB still resident after the release",
		         released_kb, read_kb);
	/* the pages come back on the next read, the same bytes */
	assert_int_equal(read_all(m), bytes);
	assert_true(data_rss_kb() >= read_kb / 2);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
	free(mem);
	free(batch);
	free(errlog);
}

/* The release remembers where the map is (no /proc read per call): after a
 * compaction (a new generation, mapped elsewhere, through a remap of the
 * gate) it must let go of the new map, not of the old address. */
static void test_release_follows_a_compaction(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("map-release-gen");
	char *mem = tu_fmt("%s/mem", dir), *batch = tu_fmt("%s/batch.jsonl", dir);
	char *errlog = tu_fmt("%s/stderr", dir);
	tu_write_batch(batch, 0, 2000);
	assert_int_equal(tu_cli_log(errlog, NULL, "ingest -m '%s' --create '%s'", mem, batch), 0);
	assert_int_equal(tu_cli_log(errlog, NULL, "build -m '%s' -q --no-maintenance", mem), 0);
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&m, mem, NULL, &err), H2EMV_OK);
	uint64_t bytes = read_all(m);
	h2emv_mem_release_pages(m); /* the map of generation 0, remembered */
	h2emv_maintain_options mo = H2EMV_MAINTAIN_OPTIONS_INIT;
	mo.force = 1;
	h2emv_maintain_result mr;
	assert_int_equal(h2emv_maintain(&mr, m, &mo, &err), H2EMV_OK);
	assert_int_equal(mr.compacted, 1);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &err), H2EMV_OK);
	assert_true(st.generation >= 1);
	for (int round = 0; round < 2; round++) {
		uint64_t again = read_all(m);
		assert_true(again > 0 && again <= bytes); /* gc may have dropped some */
		uint64_t read_kb = data_rss_kb();
		h2emv_mem_release_pages(m);
		uint64_t released_kb = data_rss_kb();
		print_message("generation %" PRIu64 ", round %d: %" PRIu64 " kB resident, %" PRIu64
		              " kB after the release\n",
		              st.generation, round, read_kb, released_kb);
		assert_true(read_kb >= 256);
		if (released_kb * 8 > read_kb)
			fail_msg("%" PRIu64 " of %" PRIu64 " kB still resident after the release",
			         released_kb, read_kb);
	}
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
	free(mem);
	free(batch);
	free(errlog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_pages_are_let_go_of),
		cmocka_unit_test(test_release_follows_a_compaction),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
