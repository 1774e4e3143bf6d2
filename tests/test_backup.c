/*
 * test_backup.c — h2emv_mem_backup and `h2emv backup`: a consistent copy of
 * a live memory, taken while another process ingests and builds.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

static const int64_t T0 = INT64_C(1727049600000000); /* 2024-09-23T00:00:00Z */

static void test_backup_refuses_an_existing_or_unreachable_destination(void **state)
{
	(void)state;
	char *mdir;
	h2emv_mem *m = tu_mem_tmp("backup-src", &mdir);
	assert_non_null(m);
	tu_chores(m, T0, 0);
	assert_int_equal(h2emv_build(NULL, m, NULL, NULL), H2EMV_OK);
	char *base = tu_tmpdir("backup-dest");
	char *dest = tu_fmt("%s/copy", base), *deep = tu_fmt("%s/no/such/dir", base);
	h2emv_error err = { 0 };
	uint64_t bytes = 0;
	assert_int_equal(h2emv_mem_backup(&bytes, m, dest, &err), H2EMV_OK);
	assert_true(bytes > 0);
	assert_int_equal(h2emv_mem_backup(&bytes, m, dest, &err), H2EMV_EEXIST);
	assert_int_equal(h2emv_mem_backup(&bytes, m, deep, &err), H2EMV_ENOTFOUND);
	/* nothing half-written is left beside the destination */
	DIR *d = opendir(base);
	assert_non_null(d);
	struct dirent *e;
	int entries = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			entries++;
			assert_string_equal(e->d_name, "copy");
		}
	closedir(d);
	assert_int_equal(entries, 1);
	tu_rmrf(base);
	free(base);
	free(dest);
	free(deep);
	h2emv_mem_close(m);
	tu_rmrf(mdir);
	free(mdir);
}

/* The child: a builder at work, a day of observations and a build at a
 * time, while the parent takes backups. */
static void busy_child(const char *dir, int days)
{
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_NOSYNC;
	h2emv_mem *m = NULL;
	if (h2emv_mem_open(&m, dir, &oo, NULL))
		_exit(3);
	for (int day = 1; day <= days; day++) {
		tu_chores(m, T0, day);
		if (h2emv_build(NULL, m, NULL, NULL))
			_exit(4);
	}
	h2emv_mem_close(m);
	_exit(0);
}

/* Every observation of the copy is the source's, from seq 1 on. */
static void assert_prefix(h2emv_mem *copy, h2emv_mem *src, uint64_t *n_out)
{
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, copy, NULL), H2EMV_OK);
	for (uint64_t seq = 1; seq <= st.obs_last_seq; seq++) {
		char *a, *b;
		assert_int_equal(h2emv_obs_get_json(&a, NULL, copy, seq, NULL), H2EMV_OK);
		assert_int_equal(h2emv_obs_get_json(&b, NULL, src, seq, NULL), H2EMV_OK);
		assert_string_equal(a, b);
		h2emv_free(a);
		h2emv_free(b);
	}
	*n_out = st.obs_last_seq;
}

static void test_backup_while_ingest_and_build_run(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("backup-live", &dir);
	assert_non_null(m);
	tu_chores(m, T0, 0);
	assert_int_equal(h2emv_build(NULL, m, NULL, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	fflush(NULL);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		busy_child(dir, 80);
	h2emv_open_options ro = H2EMV_OPEN_OPTIONS_INIT;
	ro.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&m, dir, &ro, NULL), H2EMV_OK);
	int copies = 0, status = 0, running = 1;
	char *dests[64];
	while (copies < 64 && (running || copies < 2)) {
		dests[copies] = tu_fmt("%s.copy%d", dir, copies);
		h2emv_error err = { 0 };
		int rc = h2emv_mem_backup(NULL, m, dests[copies], &err);
		if (rc)
			fprintf(stderr, "backup %d: %s\n", copies, err.message);
		assert_int_equal(rc, H2EMV_OK);
		copies++;
		if (running && waitpid(child, &status, WNOHANG) == child)
			running = 0;
	}
	if (running)
		assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	uint64_t prev = 0, grew = 0;
	for (int i = 0; i < copies; i++) {
		h2emv_mem *c = NULL;
		h2emv_error err = { 0 };
		assert_int_equal(h2emv_mem_open(&c, dests[i], &ro, &err), H2EMV_OK);
		uint64_t bad = 99, n = 0;
		assert_int_equal(h2emv_check(&bad, c, NULL, &err), H2EMV_OK);
		assert_int_equal(bad, 0);
		assert_prefix(c, m, &n);
		assert_true(n >= prev); /* later copies hold at least as much */
		grew += n > prev && i > 0;
		prev = n;
		h2emv_mem_close(c);
		tu_rmrf(dests[i]);
		free(dests[i]);
	}
	fprintf(stderr, "%d backups taken while the builder ran; %llu saw more than the one before\n",
	        copies, (unsigned long long)grew);
	/* the command line checks its copy too */
	char *out;
	assert_int_equal(tu_run(&out, "%s backup -m %s --verify %s.cli 2>&1", H2EMV_CLI, dir, dir), 0);
	assert_non_null(strstr(out, "check: no problems"));
	free(out);
	assert_int_equal(tu_run(&out, "%s check -m %s.cli 2>&1", H2EMV_CLI, dir), 0);
	free(out);
	char *cli = tu_fmt("%s.cli", dir);
	tu_rmrf(cli);
	free(cli);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backup_refuses_an_existing_or_unreachable_destination),
		cmocka_unit_test(test_backup_while_ingest_and_build_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
