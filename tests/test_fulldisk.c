/*
 * test_fulldisk.c — a full disk recovers from inside. On a 40 MiB tmpfs
 * mounted in a private mount namespace (so it disappears with this
 * process), the CLI ingests and builds until an ingest fails with "no
 * space"; then `h2emv gc --keep 1` and `h2emv compact` must succeed with
 * nothing freed outside the memory (they use its reserve, DIR/reserve);
 * then ingest works again, `h2emv check` passes and every acknowledged
 * observation (those of an ingest that exited 0) reads back.
 *
 * Mounting needs root (or CAP_SYS_ADMIN); CI runs as root. Where mounting
 * is impossible the test says why and is skipped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "testutil.h"

#ifndef H2EMV_CLI
#error "H2EMV_CLI (the h2emv program) must be defined by the build"
#endif

#define TMPFS_SIZE "40m" /* mount's size= */
#define BATCH 100
#define MAX_BATCHES 400

static char *mountpoint;
static const char *skip_reason;

static int mount_small_tmpfs(void **state)
{
	(void)state;
	skip_reason = tu_mount_tmpfs(&mountpoint, "fulldisk", TMPFS_SIZE);
	return 0;
}

static int unmount_small_tmpfs(void **state)
{
	(void)state;
	tu_umount_tmpfs(mountpoint, !skip_reason);
	return 0;
}

/* Every observation of an acknowledged batch reads back (its note names it). */
static void verify_acked(const char *dir, const uint8_t *acked_batch, uint64_t batches)
{
	h2emv_mem *m;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_OK);
	uint64_t n_obs = batches * BATCH;
	uint8_t *seen = calloc(n_obs + 1, 1);
	assert_non_null(seen);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, m, &e), H2EMV_OK);
	for (uint64_t seq = 1; seq <= st.obs_last_seq; seq++) {
		char *json = NULL;
		size_t len = 0;
		if (h2emv_obs_get_json(&json, &len, m, seq, &e) != H2EMV_OK)
			fail_msg("observation %" PRIu64 ": %s", seq, e.message);
		const char *p = memmem(json, len, "obs-", 4);
		if (p) {
			uint64_t i = strtoull(p + 4, NULL, 10);
			if (i < n_obs)
				seen[i] = 1;
		}
		h2emv_free(json);
	}
	h2emv_mem_close(m);
	for (uint64_t b = 0; b < batches; b++)
		for (uint64_t i = b * BATCH; acked_batch[b] && i < (b + 1) * BATCH; i++)
			if (!seen[i])
				fail_msg("acknowledged observation obs-%08" PRIu64 " is lost", i);
	free(seen);
}

static void test_full_disk_recovers_with_gc_and_compact_from_the_reserve(void **state)
{
	(void)state;
	if (skip_reason) {
		tu_skip("H2EMV_REQUIRE_MOUNT",
		        "cannot mount a small tmpfs here (%s); this test needs root or CAP_SYS_ADMIN, "
		        "which CI has",
		        skip_reason);
	}
	char *dir = tu_fmt("%s/mem", mountpoint);
	char *scratch = tu_tmpdir("fulldisk-input"); /* batches live off the small disk */
	char *batch = tu_fmt("%s/batch.jsonl", scratch);
	char *errlog = tu_fmt("%s/stderr", scratch);
	char *out = NULL;
	assert_int_equal(tu_cli_log(errlog, NULL, "init '%s'", dir), 0);
	assert_int_equal(tu_cli_log(errlog, &out, "stats -m '%s' --json", dir), 0);
	uint64_t reserve0 = tu_json_u64(out, "reserve_bytes");
	free(out);
	print_message("tmpfs %s: %" PRIu64 " bytes free after init, reserve %" PRIu64 "\n",
	              TMPFS_SIZE, tu_free_bytes(mountpoint), reserve0);
	assert_true(reserve0 >= (8u << 20));

	/* ingest and build until an ingest fails */
	uint8_t acked[MAX_BATCHES] = { 0 };
	uint64_t b = 0, failed_at = 0;
	for (; b < MAX_BATCHES; b++) {
		tu_write_batch(batch, b * BATCH, BATCH);
		int rc = tu_cli_log(errlog, NULL, "ingest -m '%s' '%s'", dir, batch);
		if (rc != 0) {
			failed_at = b + 1;
			break;
		}
		acked[b] = 1;
		/* a snapshot per batch: old versions for gc to collect (a build
		 * may be the first to find the disk full: ingest goes on) */
		tu_cli_log(errlog, NULL, "build -m '%s' -q --commit 50", dir);
	}
	uint64_t free_when_full = tu_free_bytes(mountpoint);
	size_t elen = 0;
	char *errors = tu_read_file(errlog, &elen);
	assert_non_null(errors);
	print_message("the disk filled at batch %" PRIu64 " (%" PRIu64 " observations acknowledged); "
	              "%" PRIu64 " bytes free; stderr: %s\n",
	              b + 1, b * BATCH, tu_free_bytes(mountpoint), errors);
	if (!failed_at)
		fail_msg("no ingest failed: the disk never filled (%" PRIu64 " batches)", b);
	if (!strstr(errors, "no space"))
		fail_msg("the failing ingest did not say 'no space': %s", errors);
	free(errors);
	assert_int_equal(truncate(errlog, 0), 0);

	/* the failed writes left the reserve alone */
	assert_int_equal(tu_cli_log(errlog, &out, "stats -m '%s' --json", dir), 0);
	uint64_t reserve_full = tu_json_u64(out, "reserve_bytes");
	free(out);
	print_message("reserve on the full disk: %" PRIu64 " bytes\n", reserve_full);
	assert_true(reserve_full >= reserve0);

	/* recovery from inside: nothing outside the memory is touched */
	/* --keep-log: every acknowledged observation must still be readable
	 * afterwards (retention would rightly delete the forgotten ones) */
	int gc_rc = tu_cli_log(errlog, &out, "gc -m '%s' --keep 1 --keep-log", dir);
	print_message("gc: exit %d: %s", gc_rc, out);
	free(out);
	int compact_rc = tu_cli_log(errlog, &out, "compact -m '%s'", dir);
	print_message("compact: exit %d: %s", compact_rc, out);
	/* the copy did not fit in what the full disk had free: the reserve
	 * made room for it */
	const char *arrow = out ? strstr(out, "-> ") : NULL;
	if (compact_rc == 0 && (!arrow || strtoull(arrow + 3, NULL, 10) <= free_when_full))
		fail_msg("the compacted copy fitted without the reserve: the test proves nothing");
	free(out);
	if (gc_rc || compact_rc) {
		errors = tu_read_file(errlog, &elen);
		fail_msg("gc %d, compact %d: %s", gc_rc, compact_rc, errors ? errors : "");
	}
	assert_int_equal(tu_cli_log(errlog, &out, "stats -m '%s' --json", dir), 0);
	print_message("after gc and compact: %" PRIu64 " bytes free; stats %s", tu_free_bytes(mountpoint),
	              out);
	assert_true(tu_json_u64(out, "generation") >= 1);
	/* made again after the compaction, where there was room */
	assert_true(tu_json_u64(out, "reserve_bytes") >= reserve0);
	free(out);

	/* ingest works again, and nothing acknowledged was lost */
	tu_write_batch(batch, (b + 1) * BATCH, BATCH);
	if (tu_cli_log(errlog, NULL, "ingest -m '%s' '%s'", dir, batch) != 0) {
		errors = tu_read_file(errlog, &elen);
		fail_msg("ingest after recovery failed: %s", errors ? errors : "");
	}
	acked[b + 1] = 1;
	assert_int_equal(tu_cli_log(errlog, NULL, "check -m '%s'", dir), 0);
	verify_acked(dir, acked, b + 2);

	tu_rmrf(dir);
	tu_rmrf(scratch);
	free(dir);
	free(scratch);
	free(batch);
	free(errlog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_disk_recovers_with_gc_and_compact_from_the_reserve),
	};
	return tu_exit(cmocka_run_group_tests(tests, mount_small_tmpfs, unmount_small_tmpfs));
}
