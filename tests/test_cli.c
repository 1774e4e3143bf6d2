/*
 * test_cli.c — the command line: `h2emv ingest` on bad lines of every
 * kind (each reported with its line, and column and field where there is
 * one; --skip-bad stores every good line; without it ingest stops at the
 * first bad line and keeps every line before it), and `h2emv config`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

static const char *good = "{\"t\":\"2024-09-23T10:00:00Z\",\"note\":\"ok\"}\n";

/* Write the test input: good lines around one bad line of each kind. */
static char *write_input(const char *dir)
{
	static char path[4200];
	snprintf(path, sizeof path, "%s/in.jsonl", dir);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(good, f);                                                      /* 1 */
	fputs("{\"t\":\"2024-09-23T10:00:01Z\",\"location\":5}\n", f);        /* 2 wrong type */
	fputs(good, f);                                                      /* 3 */
	fputs("{\"t\":\"2024-09-23T10:00:02Z\",\"colour\":\"red\"}\n", f);    /* 4 unknown field */
	fputs("{\"t\":\"2024-02-30T10:00:00Z\"}\n", f);                      /* 5 bad time */
	fputs("{\"t\":\"2024-09-23T10:00:03Z\",\"note\":\"cut\n", f);         /* 6 truncated */
	fputs("{\"t\":\"2024-09-23T10:00:04Z\",\"note\":\"\xff\xfe\"}\n", f); /* 7 invalid UTF-8 */
	fputs("{\"t\":\"2024-09-23T10:00:05Z\",\"note\":\"", f);              /* 8: 10 MB */
	for (int i = 0; i < 10 * 1024; i++) {
		char kb[1024];
		memset(kb, 'x', sizeof kb);
		fwrite(kb, 1, sizeof kb, f);
	}
	fputs("\"}\n", f);
	fputs(good, f);                                                      /* 9 */
	fclose(f);
	return path;
}

static uint64_t stored(const char *dir)
{
	h2emv_mem *m;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&m, dir, &o, NULL), H2EMV_OK);
	h2emv_stats s;
	assert_int_equal(h2emv_mem_stats(&s, m, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	return s.obs_count;
}

static void test_skip_bad_reports_every_kind_and_keeps_the_good(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	const char *in = write_input(dir);
	char *out;
	int rc = tu_run(&out, "%s ingest --create -m %s/mem --skip-bad %s 2>&1", H2EMV_CLI, dir, in);
	assert_int_equal(rc, 1); /* bad lines were skipped */
	assert_non_null(strstr(out, "line 2, column"));
	assert_non_null(strstr(out, "field 'location'"));
	assert_non_null(strstr(out, "line 4"));
	assert_non_null(strstr(out, "colour"));
	assert_non_null(strstr(out, "line 5"));
	assert_non_null(strstr(out, "line 6"));
	assert_non_null(strstr(out, "line 7"));
	assert_non_null(strstr(out, "UTF-8"));
	assert_non_null(strstr(out, "line 8"));
	assert_non_null(strstr(out, "1048576")); /* the limit, named */
	char mem[4300];
	snprintf(mem, sizeof mem, "%s/mem", dir);
	assert_int_equal(stored(mem), 3);
	free(out);
	tu_rmrf(dir);
	free(dir);
}

static void test_without_skip_bad_ingest_stops_and_keeps_what_came_before(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	const char *in = write_input(dir);
	char *out;
	int rc = tu_run(&out, "%s ingest --create -m %s/mem %s 2>&1", H2EMV_CLI, dir, in);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "line 2, column"));
	assert_null(strstr(out, "line 4")); /* stopped at the first bad line */
	char mem[4300];
	snprintf(mem, sizeof mem, "%s/mem", dir);
	assert_int_equal(stored(mem), 1);
	free(out);
	tu_rmrf(dir);
	free(dir);
}

static void test_stdin_stream_is_stored(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	char *out;
	int rc = tu_run(&out, "printf '%%s%%s' '%s' '%s' | %s ingest --create -m %s/mem --json", good,
	             good, H2EMV_CLI, dir);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"stored\":2"));
	free(out);
	tu_rmrf(dir);
	free(dir);
}

static void test_config_sets_what_the_library_reads(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	char *out;
	assert_int_equal(tu_run(&out, "%s init -m %s/mem", H2EMV_CLI, dir), 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s config -m %s/mem --profile skill-stack --forgetting time "
	                           "--life-goal 12h --rules-in-summaries 0",
	                     H2EMV_CLI, dir),
	                 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s config -m %s/mem --forgetting sometimes 2>&1", H2EMV_CLI, dir),
	                 64);
	free(out);
	char mem[4300];
	snprintf(mem, sizeof mem, "%s/mem", dir);
	h2emv_mem *m;
	assert_int_equal(h2emv_mem_open(&m, mem, NULL, NULL), H2EMV_OK);
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, NULL), H2EMV_OK);
	assert_int_equal(c.profile, H2EMV_PROFILE_SKILL_STACK);
	assert_int_equal(c.forgetting, H2EMV_FORGET_TIME);
	assert_int_equal(c.life_goal, 12ll * 3600 * 1000000);
	assert_int_equal(c.rules_in_summaries, 0);
	assert_int_equal(c.rules_in_relevance, 1);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_robot_profiles_from_the_command_line(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	char *out;
	assert_int_equal(tu_run(&out, "%s profile list", H2EMV_CLI), 0);
	assert_non_null(strstr(out, "armar7"));
	free(out);
	assert_int_equal(tu_run(&out, "%s init -m %s/mem 2>&1", H2EMV_CLI, dir), 0);
	free(out);
	/* a shipped profile sets the segmentation before the first build */
	assert_int_equal(tu_run(&out, "%s profile -m %s/mem set armar7 2>&1", H2EMV_CLI, dir), 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s config -m %s/mem", H2EMV_CLI, dir), 0);
	assert_non_null(strstr(out, "skill-stack"));
	free(out);
	assert_int_equal(tu_run(&out, "%s profile -m %s/mem show", H2EMV_CLI, dir), 0);
	assert_non_null(strstr(out, "\"armar7\""));
	free(out);
	/* a bad profile names its field and changes nothing */
	char *bad = tu_fmt("%s/bad.json", dir);
	FILE *f = fopen(bad, "w");
	assert_non_null(f);
	fputs("{\"profile\": 1, \"segmentation\": \"sideways\"}", f);
	fclose(f);
	assert_int_equal(tu_run(&out, "%s config -m %s/mem --robot-profile %s 2>&1", H2EMV_CLI, dir, bad), 2);
	assert_non_null(strstr(out, "segmentation"));
	free(out);
	/* stray words are a usage error, not ignored */
	assert_int_equal(tu_run(&out, "%s config -m %s/mem forgetting banana 2>&1", H2EMV_CLI, dir), 64);
	free(out);
	free(bad);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_bad_reports_every_kind_and_keeps_the_good),
		cmocka_unit_test(test_without_skip_bad_ingest_stops_and_keeps_what_came_before),
		cmocka_unit_test(test_stdin_stream_is_stored),
		cmocka_unit_test(test_config_sets_what_the_library_reads),
		cmocka_unit_test(test_robot_profiles_from_the_command_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
