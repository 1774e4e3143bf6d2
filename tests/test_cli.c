/*
 * test_cli.c — the command line: `h2emv ingest` on bad lines of every
 * kind (each reported with its line, and column and field where there is
 * one; --skip-bad stores every good line; without it ingest stops at the
 * first bad line and keeps every line before it), `h2emv config`, and the
 * argument rules every command keeps: stray words and an empty -m are
 * usage errors, `snapshots pin` takes SEQ first, a second builder is told
 * about the first and exits 75.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* A memory in dir/mem with 6 observations built into 3 snapshots. */
static char *small_memory(const char *dir)
{
	char *mem = tu_fmt("%s/mem", dir), *out;
	assert_int_equal(tu_run(&out, "for i in 1 2 3 4 5 6; do echo \"{\\\"t\\\":\\\"2024-09-23T10:0$i:00Z\\\","
	                              "\\\"note\\\":\\\"n$i\\\"}\"; done | %s ingest -q --create -m %s && "
	                              "for k in 1 2 3; do %s build -q -n 2 -m %s || exit 1; done 2>&1",
	                        H2EMV_CLI, mem, H2EMV_CLI, mem),
	                 0);
	free(out);
	return mem;
}

static void test_snapshots_pin_takes_the_seq_first(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	char *mem = small_memory(dir), *out;
	assert_int_equal(tu_run(&out, "%s snapshots -m %s pin 2 2>&1", H2EMV_CLI, mem), 0);
	assert_non_null(strstr(out, "pinned snapshot 2 as 'snap-2'"));
	free(out);
	assert_int_equal(tu_run(&out, "%s snapshots -m %s pin 1 audit 2>&1", H2EMV_CLI, mem), 0);
	free(out);
	/* the old order (a name first) is refused, not read as "pin the newest" */
	assert_int_equal(tu_run(&out, "%s snapshots -m %s pin audit 2>&1", H2EMV_CLI, mem), 64);
	assert_non_null(strstr(out, "snapshot number first"));
	free(out);
	assert_int_equal(tu_run(&out, "%s snapshots -m %s pin 99 2>&1", H2EMV_CLI, mem), 2);
	free(out);
	assert_int_equal(tu_run(&out, "%s snapshots -m %s list --json", H2EMV_CLI, mem), 0);
	assert_non_null(strstr(out, "{\"seq\":1,"));
	assert_non_null(strstr(out, "\"pins\":[\"audit\"]"));
	assert_non_null(strstr(out, "\"pins\":[\"snap-2\"]"));
	assert_null(strstr(out, "\"pins\":[\"audit\",\"snap-2\"]")); /* not both on one */
	free(out);
	free(mem);
	tu_rmrf(dir);
	free(dir);
}

static void test_stray_arguments_are_usage_errors(void **state)
{
	(void)state;
	static const char *const cmds[] = {
		"stats -m %s banana",         "check -m %s banana",
		"gc -m %s banana",            "compact -m %s banana",
		"inspect -m %s banana",       "forget -m %s --now +1d banana",
		"snapshots -m %s list banana", "snapshots -m %s unpin a b",
		"snapshots -m %s pin 1 a b",  "rules -m %s list banana",
		"build -m %s banana",         "config -m %s banana",
		"init %s extra",              "sim -n 1 banana",
		"demo -d %s/demo banana",     "ingest -m %s --ack --dry-run",
	};
	char *dir = tu_tmpdir("cli");
	char *mem = small_memory(dir);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char *args = tu_fmt(cmds[i], mem), *out;
		int rc = tu_run(&out, "%s %s < /dev/null 2>&1", H2EMV_CLI, args);
		if (rc != 64)
			fail_msg("`h2emv %s` exited %d: %s", args, rc, out);
		free(out);
		free(args);
	}
	free(mem);
	tu_rmrf(dir);
	free(dir);
}

static void test_an_empty_mem_is_a_usage_error(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli"), *out;
	static const char *const forms[] = { "stats -m ''", "stats --mem=", "init ''",
	                                     "ingest -m '' --create", "check --mem ''" };
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		int rc = tu_run(&out, "cd %s && H2EMV_MEM= %s %s < /dev/null 2>&1", dir, H2EMV_CLI,
		                forms[i]);
		if (rc != 64 || !strstr(out, "not an empty string"))
			fail_msg("`h2emv %s` exited %d: %s", forms[i], rc, out);
		free(out);
	}
	/* and nothing was made in the working directory */
	assert_int_equal(tu_run(&out, "test -e %s/h2emv-memory", dir), 1);
	free(out);
	tu_rmrf(dir);
	free(dir);
}

static void test_a_second_builder_is_told_about_the_first(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("cli");
	char *mem = small_memory(dir), *out;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* unguarded: the process the test starts is the builder itself
		 * (with the crash guard, a child would hold the role) */
		setenv("H2EMV_NO_GUARD", "1", 1);
		execl(H2EMV_CLI, "h2emv", "build", "--follow", "-q", "-m", mem, (char *)NULL);
		_exit(127);
	}
	/* wait until the follower holds the role (it writes its pid) */
	char *lock = tu_fmt("%s/build.lock", mem);
	int held = 0;
	for (int i = 0; i < 500 && !held; i++) {
		char *text = tu_read_file(lock, NULL);
		held = text && strtol(text, NULL, 10) == (long)pid;
		free(text);
		if (!held)
			usleep(10000);
	}
	assert_true(held);
	/* between the follower's polls too: a second build is refused, twice */
	for (int k = 0; k < 2; k++) {
		assert_int_equal(tu_run(&out, "%s build -m %s 2>&1", H2EMV_CLI, mem), 75);
		char want[64];
		snprintf(want, sizeof want, "another builder (process %ld)", (long)pid);
		assert_non_null(strstr(out, want));
		free(out);
		usleep(600000);
	}
	assert_int_equal(tu_run(&out, "%s forget -m %s --now +1d 2>&1", H2EMV_CLI, mem), 75);
	free(out);
	kill(pid, SIGTERM);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(tu_run(&out, "%s build -q -m %s 2>&1", H2EMV_CLI, mem), 0);
	free(out);
	free(lock);
	free(mem);
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
		cmocka_unit_test(test_snapshots_pin_takes_the_seq_first),
		cmocka_unit_test(test_stray_arguments_are_usage_errors),
		cmocka_unit_test(test_an_empty_mem_is_a_usage_error),
		cmocka_unit_test(test_a_second_builder_is_told_about_the_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
