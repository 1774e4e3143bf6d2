/*
 * test_create_race.c — creating a memory while another process opens or
 * creates the same directory (issue 18, item 2): the opener sees no memory
 * or the whole one, never a half-made one, and `h2emv import ... -m DIR |
 * h2emv ingest -m DIR` works in whichever order the two start.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

#define ROUNDS 20

static h2emv_open_options opts(unsigned flags)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = flags | H2EMV_OPEN_NOSYNC;
	return o;
}

/* In a child: create the memory in `dir` and exit 0, or 1 saying why. */
static pid_t spawn_creator(const char *dir)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid)
		return pid;
	tu_child_default_signals();
	h2emv_open_options o = opts(H2EMV_OPEN_CREATE);
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	int rc = h2emv_mem_open(&m, dir, &o, &e);
	if (rc)
		fprintf(stderr, "creator: %s\n", e.message);
	h2emv_mem_close(m);
	_exit(rc ? 1 : 0);
}

static int exited_ok(pid_t pid)
{
	int st = tu_wait(pid);
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Open `dir` (no CREATE) again and again while a child creates it: every
 * attempt finds nothing yet (ENOTFOUND) or the whole memory. */
static void test_an_open_never_sees_a_half_created_memory(void **state)
{
	(void)state;
	char *base = tu_tmpdir("create-race");
	for (int round = 0; round < ROUNDS; round++) {
		char *dir = tu_fmt("%s/mem%d", base, round);
		if (round % 2)
			assert_int_equal(mkdir(dir, 0755), 0); /* an empty directory given */
		pid_t pid = spawn_creator(dir);
		h2emv_open_options o = opts(0);
		h2emv_mem *m = NULL;
		double t0 = now_s();
		for (;;) {
			h2emv_error e = { 0 };
			int rc = h2emv_mem_open(&m, dir, &o, &e);
			if (rc == H2EMV_OK)
				break;
			if (rc != H2EMV_ENOTFOUND)
				fail_msg("round %d: an open beside the creation failed: %s (%s)", round,
				         e.message, h2emv_strerror(rc));
			if (now_s() - t0 > 120) /* a hang guard only */
				fail_msg("round %d: the memory never appeared: %s", round, e.message);
		}
		h2emv_stats st;
		h2emv_error e = { 0 };
		assert_int_equal(h2emv_mem_stats(&st, m, &e), H2EMV_OK);
		assert_int_equal(st.obs_count, 0);
		h2emv_mem_close(m);
		assert_true(exited_ok(pid));
		free(dir);
	}
	tu_rmrf(base);
	free(base);
}

/* Two processes create the same memory at once: both succeed, and one
 * memory results that takes an observation. */
static void test_two_creators_of_one_memory_both_succeed(void **state)
{
	(void)state;
	char *base = tu_tmpdir("create-twice");
	for (int round = 0; round < ROUNDS; round++) {
		char *dir = tu_fmt("%s/mem%d", base, round);
		pid_t a = spawn_creator(dir), b = spawn_creator(dir);
		assert_true(exited_ok(a));
		assert_true(exited_ok(b));
		h2emv_open_options o = opts(0);
		h2emv_mem *m = NULL;
		h2emv_error e = { 0 };
		if (h2emv_mem_open(&m, dir, &o, &e))
			fail_msg("round %d: %s", round, e.message);
		static const char line[] = "{\"t\":\"2024-07-13T16:00:00Z\",\"note\":\"x\"}";
		assert_int_equal(h2emv_ingest(NULL, m, line, strlen(line), &e), H2EMV_OK);
		h2emv_mem_close(m);
		free(dir);
	}
	tu_rmrf(base);
	free(base);
}

/* The example of `h2emv import --help`: the importer records the profile
 * in a memory it creates while the ingest on the pipe's other end opens
 * it. The ARMAR-7 recording when $H2EMV_DATA holds it, else the shipped
 * TEACh episode. */
static void test_import_piped_into_ingest_of_a_new_memory(void **state)
{
	(void)state;
	char *base = tu_tmpdir("import-pipe");
	const char *data = getenv("H2EMV_DATA");
	char *armar = data && *data ? tu_fmt("%s/hierarchical-emv/armarx_lt_mem/2024-07-a7a-summary.tree.json", data) : NULL;
	struct stat sb;
	char *src = armar && stat(armar, &sb) == 0
	                ? strdup("armar --limit 300")
	                : tu_fmt("teach %s/teach", H2EMV_TEST_DATA);
	for (int round = 0; round < ROUNDS; round++) {
		char *dir = tu_fmt("%s/mem%d", base, round);
		char *out = NULL;
		int rc = tu_run(&out,
		                "( %s import %s -q -m %s; echo $? > %s.import ) | %s ingest -q -m %s "
		                "2>%s.err",
		                H2EMV_CLI, src, dir, dir, H2EMV_CLI, dir, dir);
		free(out);
		char *p = tu_fmt("%s.import", dir), *irc = tu_read_file(p, NULL);
		free(p);
		p = tu_fmt("%s.err", dir);
		char *err = tu_read_file(p, NULL);
		free(p);
		if (rc != 0 || !irc || atoi(irc) != 0)
			fail_msg("round %d: import exited %s, ingest %d: %s", round, irc ? irc : "?", rc,
			         err ? err : "");
		free(irc);
		free(err);
		rc = tu_run(&out, "%s stats -m %s --json", H2EMV_CLI, dir);
		assert_int_equal(rc, 0);
		char *n = strstr(out, "\"obs_count\"");
		assert_non_null(n);
		n = strchr(n, ':');
		assert_non_null(n);
		assert_true(strtoull(n + 1, NULL, 10) > 0);
		free(out);
		free(dir);
	}
	free(src);
	free(armar);
	tu_rmrf(base);
	free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_an_open_never_sees_a_half_created_memory),
		cmocka_unit_test(test_two_creators_of_one_memory_both_succeed),
		cmocka_unit_test(test_import_piped_into_ingest_of_a_new_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
