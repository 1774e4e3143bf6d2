/*
 * test_edges_fault_guard.c — a damaged page met through a signal marks the
 * memory (issue 21; h2emv_guard_faults, engine/faultguard.c).
 *
 * A forked child opens a memory for writing, cuts its data file short
 * under the map and reads: LMDB touches a page past the end of the file
 * and the kernel raises SIGBUS. With the guard the child still dies of the
 * signal, but the memory now carries the DAMAGED mark, and every later
 * open for writing is refused with ECORRUPT ("marked DAMAGED"). Without
 * the guard the same child dies with no mark left (the control). A fault
 * outside every store's map goes to the handler installed before.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "h2emv.h"
#include "engine/engine.h"
#include "testutil.h"

static const char *const lines[] = {
	"{\"t\":\"2026-03-02T08:00:00Z\",\"action\":{\"name\":\"DockCharger\",\"status\":\"succeeded\"},"
	"\"location\":\"charging bay\"}",
	"{\"t\":\"2026-03-02T08:30:00Z\",\"action\":{\"name\":\"Fetch\",\"args\":{\"item\":\"towels\","
	"\"from\":\"lab\"},\"status\":\"succeeded\"},\"location\":\"lab\"}",
	"{\"t\":\"2026-03-02T08:45:00Z\",\"action\":{\"name\":\"Deliver\",\"args\":{\"item\":\"towels\","
	"\"to\":\"room 12\"},\"status\":\"succeeded\"},\"location\":\"ward B\"}",
};

/* In a child: open `dir` for writing, guard (or not), cut the data file
 * to its two meta pages and read an observation. Returns only if the read
 * did not fault (exit 10 + what went wrong). */
static void child_reads_cut_store(const char *dir, int guard)
{
	tu_child_default_signals();
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	if (h2emv_mem_open(&m, dir, NULL, &e) != H2EMV_OK)
		_exit(11);
	if (guard && h2emv_guard_faults(&e) != H2EMV_OK)
		_exit(12);
	char path[4200];
	if (eng_data_file(path, sizeof path, dir, NULL) != H2EMV_OK || truncate(path, 8192) != 0)
		_exit(13);
	char *json = NULL;
	size_t n = 0;
	(void)h2emv_obs_get_json(&json, &n, m, 2, &e);
	_exit(10);
}

/* A built memory; a child reads it cut short; the signal it died of. */
static int cut_and_read(char **dir_out, const char *tag, int guard)
{
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines(tag, lines, sizeof lines / sizeof *lines, &dir);
	h2emv_mem_close(m);
	assert_false(tu_marked_damaged(dir));
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child_reads_cut_store(dir, guard);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFSIGNALED(st))
		fail_msg("the child was not killed by a signal (exit %d)", WEXITSTATUS(st));
	*dir_out = dir;
	return WTERMSIG(st);
}

static void test_a_fault_in_the_map_marks_the_memory_damaged(void **state)
{
	(void)state;
	char *dir = NULL;
	int sig = cut_and_read(&dir, "fault-guard", 1);
	assert_true(sig == SIGBUS || sig == SIGSEGV);
	if (!tu_marked_damaged(dir))
		fail_msg("the child died of signal %d and left no DAMAGED mark", sig);
	char *reason = tu_fmt("%s/DAMAGED", dir);
	char *text = tu_read_file(reason, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "fault"));
	free(text);
	free(reason);
	/* the next open for writing is refused by the mark itself */
	h2emv_mem *m = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_mem_open(&m, dir, NULL, &e), H2EMV_ECORRUPT);
	assert_non_null(strstr(e.message, "marked DAMAGED"));
	tu_rmrf(dir);
	free(dir);
}

static void test_without_the_guard_the_fault_leaves_no_mark(void **state)
{
	(void)state;
	char *dir = NULL;
	int sig = cut_and_read(&dir, "fault-noguard", 0);
	assert_true(sig == SIGBUS || sig == SIGSEGV);
	assert_false(tu_marked_damaged(dir));
	tu_rmrf(dir);
	free(dir);
}

static void own_handler(int sig)
{
	(void)sig;
	_exit(42);
}

static void test_a_fault_elsewhere_goes_to_the_handler_before(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines("fault-chain", lines, sizeof lines / sizeof *lines, &dir);
	h2emv_mem_close(m);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		tu_child_default_signals();
		h2emv_error e = { 0 };
		if (h2emv_mem_open(&m, dir, NULL, &e) != H2EMV_OK)
			_exit(11);
		signal(SIGSEGV, own_handler);
		if (h2emv_guard_faults(&e) != H2EMV_OK || h2emv_guard_faults(&e) != H2EMV_OK)
			_exit(12);
		raise(SIGSEGV);
		_exit(10);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 42);
	assert_false(tu_marked_damaged(dir));
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_fault_in_the_map_marks_the_memory_damaged),
		cmocka_unit_test(test_without_the_guard_the_fault_leaves_no_mark),
		cmocka_unit_test(test_a_fault_elsewhere_goes_to_the_handler_before),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
