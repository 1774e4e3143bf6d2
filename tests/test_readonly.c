/*
 * test_readonly.c — read-only memories: `h2emv --read-only` lets every
 * command that only reads work and refuses every command that writes; a
 * memory this process cannot write (permissions: run as an unprivileged
 * user when the tests run as root, since root ignores them; a read-only
 * mount, in a private mount namespace, where even root cannot write) opens
 * for reading by itself, with or without LMDB's lock file.
 */
#include <errno.h>
#include <grp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

/* Commands that only read, and commands that write ("%s" = the memory). */
static const char *const readers[] = {
	"check -m %s",          "stats -m %s",        "snapshots -m %s list",
	"inspect -m %s -d 1",   "ask -m %s what did you do",
	"rules -m %s list",     "config -m %s",
};
static const char *const writers[] = {
	"ingest -m %s %s/more.jsonl", "build -m %s",       "snapshots -m %s pin 1",
	"gc -m %s",                   "compact -m %s",     "forget -m %s --now +1d",
	"rules -m %s revert 0",
};

/* A small built memory in dir/mem and one more line in dir/more.jsonl. */
static void make_memory(const char *dir)
{
	char *out;
	assert_int_equal(tu_run(&out, "%s sim -n 2 -q -o %s/h.jsonl && %s ingest -q --create -m %s/mem "
	                              "%s/h.jsonl && %s build -q -m %s/mem 2>&1",
	                        H2EMV_CLI, dir, H2EMV_CLI, dir, dir, H2EMV_CLI, dir),
	                 0);
	free(out);
	char *more = tu_fmt("%s/more.jsonl", dir);
	FILE *f = fopen(more, "w");
	assert_non_null(f);
	fputs("{\"t\":\"2030-01-01T00:00:00Z\",\"note\":\"later\",\"id\":\"x-1\"}\n", f);
	fclose(f);
	free(more);
}

static uint64_t obs_count(const char *mem)
{
	h2emv_mem *m;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&m, mem, &o, NULL), H2EMV_OK);
	h2emv_stats s;
	assert_int_equal(h2emv_mem_stats(&s, m, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	return s.obs_count;
}

/* Run every reader (must exit 0) and every writer (must exit 2 saying
 * `why`) as `prefix` (a shell prefix such as "h2emv --read-only"). */
static void readers_read_writers_refused(const char *prefix, const char *mem, const char *dir,
                                         const char *why, int (*run)(char **, const char *))
{
	for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
		char *args = tu_fmt(readers[i], mem);
		char *cmd = tu_fmt("%s %s 2>&1", prefix, args), *out;
		int rc = run(&out, cmd);
		if (rc != 0)
			fail_msg("`%s` exited %d: %s", cmd, rc, out);
		free(out);
		free(cmd);
		free(args);
	}
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
		char *args = tu_fmt(writers[i], mem, dir);
		char *cmd = tu_fmt("%s %s 2>&1", prefix, args), *out;
		int rc = run(&out, cmd);
		if (rc != 2 || !strstr(out, why))
			fail_msg("`%s` exited %d: %s", cmd, rc, out);
		free(out);
		free(cmd);
		free(args);
	}
}

static int run_sh(char **out, const char *cmd)
{
	return tu_run(out, "%s", cmd);
}

static void test_read_only_flag_reads_and_refuses_writes(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("ro");
	make_memory(dir);
	char *mem = tu_fmt("%s/mem", dir);
	uint64_t before = obs_count(mem);
	char *prefix = tu_fmt("%s --read-only", H2EMV_CLI);
	readers_read_writers_refused(prefix, mem, dir, "--read-only forbids it", run_sh);
	assert_int_equal(obs_count(mem), before);
	free(prefix);
	free(mem);
	tu_rmrf(dir);
	free(dir);
}

/* tu_run as user nobody (65534), whom the tests' root-owned files refuse
 * writes; stdout and stderr (the command redirects) come back in *out. */
static int run_as_nobody(char **out, const char *cmd)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(126);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	assert_non_null(buf);
	ssize_t n;
	while ((n = read(p[0], buf + len, cap - len)) > 0)
		len += (size_t)n;
	close(p[0]);
	buf[len] = 0;
	*out = buf;
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_unwritable_memory_opens_for_reading_by_itself(void **state)
{
	(void)state;
	/* under /tmp, so that an unprivileged user can reach it whatever
	 * $TMPDIR's parents allow */
	char tmpl[] = "/tmp/h2emv-ro-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(chmod(tmpl, 0755), 0);
	mode_t old = umask(022);
	make_memory(tmpl);
	umask(old);
	char *mem = tu_fmt("%s/mem", tmpl);
	uint64_t before = obs_count(mem);
	char *out;
	int (*run)(char **, const char *) = run_sh;
	if (geteuid() == 0) {
		/* root writes whatever the mode bits say: be someone else */
		run = run_as_nobody;
	} else {
		assert_int_equal(tu_run(&out, "chmod -R a-w %s/mem", tmpl), 0);
		free(out);
	}
	/* what the kernel says decides, as in h2emv */
	char *probe = tu_fmt("test -w %s/mem/data.mdb && echo writable || echo read-only", tmpl);
	assert_int_equal(run(&out, probe), 0);
	assert_non_null(strstr(out, "read-only"));
	free(out);
	free(probe);
	readers_read_writers_refused(H2EMV_CLI, mem, tmpl, "is read-only", run);
	assert_int_equal(tu_run(&out, "chmod -R u+w %s", tmpl), 0);
	free(out);
	assert_int_equal(obs_count(mem), before);
	free(mem);
	tu_rmrf(tmpl);
}

/* A read-only mount: even root cannot write, and LMDB's lock file can be
 * neither written nor created. Needs a private mount namespace (root or
 * user namespaces); skipped, saying so, where there is none. */
static void test_read_only_mount_without_lock_files(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("ro");
	make_memory(dir);
	char *out;
	const char *us = geteuid() == 0 ? "unshare -m" : "unshare -m --map-root-user";
	if (tu_run(&out, "%s true 2>&1", us) != 0) {
		char why[512];
		snprintf(why, sizeof why, "%s", out);
		free(out);
		tu_rmrf(dir);
		free(dir);
		tu_skip("H2EMV_REQUIRE_MOUNT", "no private mount namespace here (%s)", why);
	}
	free(out);
	const char *cli = H2EMV_CLI;
	/* copy the memory onto a small tmpfs without its lock files, make the
	 * mount read-only, then read it and try to write it */
	char *script = tu_fmt(
		"set -e; M=%s/mnt; mkdir -p $M; mount -t tmpfs -o size=16m tmpfs $M; "
		"cp -r %s/mem $M/mem; rm -f $M/mem/lock.mdb $M/mem/h2emv.lock $M/mem/build.lock; "
		"mount -o remount,ro $M; "
		"%s check -m $M/mem; %s stats -m $M/mem > /dev/null; "
		"%s snapshots -m $M/mem list > /dev/null; %s ask -m $M/mem what did you do > /dev/null; "
		"%s inspect -m $M/mem -d 1 > /dev/null; "
		"set +e; %s ingest -m $M/mem %s/more.jsonl; echo ingest=$?; "
		"%s build -m $M/mem; echo build=$?; test ! -e $M/mem/lock.mdb && echo no-lock-file",
		dir, dir, cli, cli, cli, cli, cli, cli, dir, cli);
	char *esc = tu_fmt("%s sh -c '%s' 2>&1", us, script);
	int rc = tu_run(&out, "%s", esc);
	if (rc != 0 || !strstr(out, "ok: no problems found") || !strstr(out, "ingest=2") ||
	    !strstr(out, "build=2") || !strstr(out, "Read-only file system") ||
	    !strstr(out, "no-lock-file"))
		fail_msg("exit %d: %s", rc, out);
	free(out);
	free(esc);
	free(script);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_only_flag_reads_and_refuses_writes),
		cmocka_unit_test(test_unwritable_memory_opens_for_reading_by_itself),
		cmocka_unit_test(test_read_only_mount_without_lock_files),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
