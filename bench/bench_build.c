/*
 * bench_build.c — does a build's memory grow with the history?
 *
 * Builds the household history of bench/obsgen (forgetting off, the
 * builtin policy) at several sizes, each in a fresh memory, each build in
 * a fresh process (this program run again with --child), and reports per
 * size the build's peak resident set (the child's VmHWM, what
 * `/usr/bin/time -v` shows for `h2emv build`) as a ratio against the first size's build
 * in the same run, and its CPU throughput against the baseline of reading
 * and decoding the same log in a child of its own. With --estimate-tokens
 * the builds also estimate the llm prompts' tokens (what the evaluation
 * asks for), to show what that costs. A program to run by hand (--help),
 * not a test.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/mem/mem.h"
#include "api/observe/observation.h"
#include "api/tree/scene.h"
#include "bench/bench_util.h"
#include "bench/obsgen.h"
#include "h2emv.h"

#define MAX_SIZES 8

typedef struct run {
	double peak_mb; /* the child's peak resident set */
	double cpu_s;   /* its user + system time */
} run;

static h2emv_mem *open_mem(const char *dir, unsigned flags)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = flags | H2EMV_OPEN_NOSYNC;
	h2emv_mem *m;
	h2emv_error err = { 0 };
	if (h2emv_mem_open(&m, dir, &o, &err))
		bench_die("open %s: %s", dir, err.message);
	return m;
}

/* This process's peak resident set in kB (VmHWM: of this image only, not
 * of the parent it was forked from, which getrusage would count). */
static unsigned long long peak_kb(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* --child build|read DIR [estimate]: the measured work, alone in a process;
 * prints its peak resident set in kB. */
static int child(const char *what, const char *dir, int estimate)
{
	h2emv_mem *m = open_mem(dir, 0);
	h2emv_error err = { 0 };
	if (!strcmp(what, "build")) {
		h2emv_build_options bo = H2EMV_BUILD_OPTIONS_INIT;
		bo.estimate_tokens = estimate;
		h2emv_build_result r;
		if (h2emv_build(&r, m, &bo, &err))
			bench_die("build: %s", err.message);
	} else {
		eng_read *r;
		eng_buf body = { 0 };
		uint64_t last = 0;
		if (eng_read_begin(&r, m->env, &err) || eng_obs_last(&last, r, &err))
			bench_die("read: %s", err.message);
		for (uint64_t seq = 1; seq <= last; seq++) {
			scene s;
			if (eng_obs_get(&body, r, seq, NULL) || obs_body_check(body.data, body.len, NULL) ||
			    scene_decode(&s, body.data, body.len, NULL))
				bench_die("observation %llu does not decode", (unsigned long long)seq);
			scene_free(&s);
		}
		eng_read_end(r);
		eng_buf_free(&body);
	}
	h2emv_mem_close(m);
	printf("%llu\n", peak_kb());
	return 0;
}

/* Run this program as a child doing `what` on `dir`; its peak and CPU. */
static run measure(const char *self, const char *what, const char *dir, int estimate)
{
	fflush(stdout);
	int fd[2];
	if (pipe(fd))
		bench_die("pipe failed");
	pid_t pid = fork();
	if (pid < 0)
		bench_die("fork failed");
	if (pid == 0) {
		if (dup2(fd[1], 1) < 0)
			_exit(2);
		close(fd[0]);
		close(fd[1]);
		execl(self, self, "--child", what, dir, estimate ? "1" : "0", (char *)NULL);
		_exit(2);
	}
	close(fd[1]);
	char buf[64] = { 0 };
	ssize_t got = read(fd[0], buf, sizeof buf - 1);
	close(fd[0]);
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    got <= 0)
		bench_die("the %s child failed", what);
	run r = { strtoull(buf, NULL, 10) / 1024.0,
		  ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		          ru.ru_stime.tv_usec / 1e6 };
	return r;
}

/* A fresh memory with the first n observations of the history. */
static void prepare(const char *dir, const obs_set *obs, size_t n)
{
	h2emv_mem *m = open_mem(dir, H2EMV_OPEN_CREATE);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_NONE;
	h2emv_error err = { 0 };
	if (h2emv_config_set(m, &c, &err))
		bench_die("config: %s", err.message);
	for (size_t i = 0; i < n; i += 1000) {
		size_t k = n - i < 1000 ? n - i : 1000;
		if (h2emv_ingest_batch(NULL, m, obs->line + i, obs->len + i, k, &err))
			bench_die("ingest: %s", err.message);
	}
	h2emv_mem_close(m);
}

static void usage(FILE *f)
{
	fputs("usage: bench_build [--sizes N,N,...] [--dir DIR] [--seed S] [--estimate-tokens]\n"
	      "Peak memory and CPU throughput of a build (forgetting off) of the obsgen household\n"
	      "history at each size (default 10000,50000,100000), each in a fresh process; the\n"
	      "peaks as ratios against the first size's, the throughput against reading the log.\n",
	      f);
}

static size_t parse_sizes(size_t *out, const char *s)
{
	size_t n = 0;
	for (char *end; *s && n < MAX_SIZES; s = *end ? end + 1 : end) {
		out[n] = strtoull(s, &end, 10);
		if (!out[n] || (*end && *end != ','))
			bench_die("--sizes: %s", s);
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "--child"))
		return child(argv[2], argv[3], atoi(argv[4]));
	size_t sizes[MAX_SIZES] = { 10000, 50000, 100000 }, n_sizes = 3;
	uint64_t seed = 1;
	int estimate = 0;
	const char *dir = NULL;
	static const struct option longs[] = {
		{ "sizes", required_argument, NULL, 'n' }, { "dir", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' }, { "estimate-tokens", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },        { 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'n': n_sizes = parse_sizes(sizes, optarg); break;
		case 'd': dir = optarg; break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		case 'e': estimate = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	char tmpl[] = "/tmp/h2emv-bench-build-XXXXXX";
	if (!dir && !(dir = mkdtemp(tmpl)))
		bench_die("mkdtemp failed");
	char self[4096];
	ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
	if (k <= 0)
		bench_die("cannot find this program (/proc/self/exe)");
	self[k] = 0;
	size_t most = 0;
	for (size_t i = 0; i < n_sizes; i++)
		most = sizes[i] > most ? sizes[i] : most;
	obs_set obs;
	if (obsgen_make(&obs, most, seed))
		bench_die("out of memory generating %zu observations", most);
	printf("bench_build — h2emv %s, builtin policy, forgetting off%s\n", H2EMV_VERSION_STRING,
	       estimate ? ", token estimates on" : "");
	bench_print_machine(stdout);
	printf("%10s %12s %10s %12s %14s %12s\n", "obs", "peak MB", "peak ratio", "read MB",
	       "build obs/s", "vs reading");
	run base = { 0 };
	for (size_t i = 0; i < n_sizes; i++) {
		char sub[4200], name[32];
		snprintf(name, sizeof name, "n%zu", sizes[i]);
		if (bench_subdir(sub, sizeof sub, dir, name))
			bench_die("cannot make %s/%s", dir, name);
		prepare(sub, &obs, sizes[i]);
		run rd = measure(self, "read", sub, 0), bd = measure(self, "build", sub, estimate);
		if (i == 0)
			base = bd;
		double cpu = bd.cpu_s > 0 ? bd.cpu_s : 1e-9, rcpu = rd.cpu_s > 0 ? rd.cpu_s : 1e-9;
		printf("%10zu %12.1f %10.2f %12.1f %14.0f %11.1fx\n", sizes[i], bd.peak_mb,
		       bd.peak_mb / base.peak_mb, rd.peak_mb, sizes[i] / cpu, cpu / rcpu);
		bench_rmtree(sub);
	}
	printf("peak: the build process's maximum resident set (VmHWM, as /usr/bin/time -v);\n"
	       "ratio against the %zu-observation build of this run. obs/s: per CPU second (user +\n"
	       "system) of the build; 'vs reading': its CPU time over reading + decoding the log.\n",
	       sizes[0]);
	obs_set_free(&obs);
	if (!strncmp(dir, "/tmp/h2emv-bench-build-", 23))
		bench_rmtree(dir);
	return 0;
}
