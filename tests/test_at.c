/*
 * test_at.c — `ask --at` and `export --at` read the memory as it was at a
 * time the same way (issue 18, item 3): the newest snapshot whose clock is
 * not after it, and an error (exit 2) when none is that old, as the help
 * of both says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

typedef struct fx {
	char *dir;
} fx;

/* The household sample (2024-09-23 08:30 .. 09-25 17:45) built once: one
 * snapshot whose clock is 2024-09-25 17:45:20. */
static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->dir = tu_tmpdir("at");
	char *out = NULL;
	int rc = tu_run(&out, "%s init -m %s >/dev/null && %s ingest -q -m %s %s/household-sample.jsonl "
	                      "&& %s build -q -m %s",
	                H2EMV_CLI, f->dir, H2EMV_CLI, f->dir, H2EMV_TEST_DATA, H2EMV_CLI, f->dir);
	free(out);
	if (rc != 0) {
		fprintf(stderr, "setup failed: %d\n", rc);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* The snapshot `ask --at AT --json` answered from; -(exit status) when
 * it failed. */
static long ask_at(const fx *f, const char *at)
{
	char *out = NULL;
	int rc = tu_run(&out, "%s ask -m %s --json --at '%s' 'Where did you put the knife?' 2>/dev/null",
	                H2EMV_CLI, f->dir, at);
	long seq = -rc;
	const char *p = out ? strstr(out, "\"snapshot\"") : NULL;
	if (rc == 0 && p && (p = strchr(p, ':')))
		seq = strtol(p + 1, NULL, 10);
	free(out);
	return seq;
}

/* The snapshot `export --at AT` wrote; -(exit status) when it failed. */
static long export_at(const fx *f, const char *at)
{
	char *out = NULL;
	int rc = tu_run(&out, "%s export -q --depth 0 -m %s --at '%s' 2>/dev/null", H2EMV_CLI, f->dir, at);
	long seq = -rc;
	const char *p = out ? strstr(out, "\"seq\"") : NULL;
	if (rc == 0 && p && (p = strchr(p, ':')))
		seq = strtol(p + 1, NULL, 10);
	free(out);
	return seq;
}

static void test_ask_at_before_every_snapshot_fails_as_export_does(void **state)
{
	fx *f = *state;
	/* the only snapshot's clock is 09-25 17:45: nothing is as old as 09-24 */
	assert_int_equal(export_at(f, "2024-09-24 12:00"), -2);
	assert_int_equal(ask_at(f, "2024-09-24 12:00"), -2);
	assert_int_equal(export_at(f, "2024-09-25 17:45"), -2);
	assert_int_equal(ask_at(f, "2024-09-25 17:45"), -2);
	char *out = NULL;
	tu_run(&out, "%s ask -m %s --at '2024-09-24 12:00' 'Where is the knife?' 2>&1", H2EMV_CLI,
	       f->dir);
	assert_non_null(strstr(out, "no snapshot is as old as 2024-09-24 12:00:00"));
	free(out);
}

static void test_ask_at_and_export_at_pick_the_same_snapshot(void **state)
{
	fx *f = *state;
	static const char *const times[] = { "2024-09-25 17:45:20", "2024-09-25 18:00",
		                             "2024-09-30" };
	for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
		long a = ask_at(f, times[i]), e = export_at(f, times[i]);
		if (a != e || a <= 0)
			fail_msg("--at %s: ask answered from %ld, export wrote %ld", times[i], a, e);
	}
}

/* The library call the two share. */
static void test_snap_at_names_the_time_none_is_as_old_as(void **state)
{
	fx *f = *state;
	h2emv_mem *m = NULL;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, f->dir, &o, &e), H2EMV_OK);
	h2emv_time t;
	assert_int_equal(h2emv_time_parse(&t, "2024-09-25 17:45:19", NULL), H2EMV_OK);
	uint64_t seq = 7;
	assert_int_equal(h2emv_snap_at(&seq, m, t, &e), H2EMV_ENOTFOUND);
	assert_int_equal(seq, 0);
	assert_non_null(strstr(e.message, "2024-09-25 17:45:19"));
	assert_int_equal(h2emv_snap_at(&seq, m, t + 1000000, &e), H2EMV_OK);
	assert_int_equal(seq, 1);
	h2emv_ask_options ao = H2EMV_ASK_OPTIONS_INIT;
	ao.at = t;
	h2emv_answer *a = NULL;
	assert_int_equal(h2emv_ask(&a, m, "Where did you put the knife?", &ao, &e), H2EMV_ENOTFOUND);
	assert_null(a);
	h2emv_mem_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ask_at_before_every_snapshot_fails_as_export_does),
		cmocka_unit_test(test_ask_at_and_export_at_pick_the_same_snapshot),
		cmocka_unit_test(test_snap_at_names_the_time_none_is_as_old_as),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
