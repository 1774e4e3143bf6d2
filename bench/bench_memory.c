/*
 * bench_memory.c — the memory model's speed on the builtin policy:
 *  1. builder + forgetting throughput (observations folded per second),
 *     against the baseline of merely reading and decoding the same
 *     observations from the log in the same process;
 *  2. question answering on a snapshot with many L3+ nodes: median latency,
 *     against the baseline of opening the snapshot and reading its root.
 * A program to run by hand (bench_memory --help), not a test.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/builder/build.h"
#include "api/observe/observation.h"
#include "h2emv.h"

#define US 1000000ll
#define T0 (1727049600ll * US) /* 2024-09-23 */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static const char *objs[] = { "knife", "cup", "plate", "apple", "keys", "wallet", "bowl", "sponge" };
static const char *dests[] = { "countertop", "sink", "table", "shelf", "drawer" };
static const char *people[] = { "Alice", "Bob", "Carol" };

/* A household history: two sessions a day of `tasks` pick-and-place tasks. */
static char **make_history(size_t n, size_t *count, unsigned seed)
{
	char **lines = calloc(n, sizeof *lines);
	size_t k = 0;
	srand(seed);
	for (int day = 0; k + 3 <= n; day++)
		for (int s = 0; s < 2 && k + 3 <= n; s++) {
			long long t = T0 + day * 86400 * US + (8 + 9 * s) * 3600 * US;
			for (int task = 0; task < 40 && k + 3 <= n; task++) {
				const char *o = objs[rand() % 8], *d = dests[rand() % 5];
				char buf[1024];
				int say = rand() % 6 == 0;
				snprintf(buf, sizeof buf,
				         "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":\"succeeded\"},"
				         "\"location\":\"kitchen\",\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"},"
				         "{\"id\":\"%s_0\",\"type\":\"%s\"}]%s%s%s}",
				         t, o, o, d, d, say ? ",\"persons\":[\"" : "", say ? people[rand() % 3] : "",
				         say ? "\"],\"speech\":{\"speaker\":\"user\",\"text\":\"please tidy up\"}" : "");
				lines[k++] = strdup(buf);
				t += (2 + rand() % 8) * US;
				snprintf(buf, sizeof buf,
				         "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"%s_0\"},"
				         "\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}]}",
				         t, o, o, o);
				lines[k++] = strdup(buf);
				t += (2 + rand() % 8) * US;
				snprintf(buf, sizeof buf,
				         "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s_0\","
				         "\"target\":\"%s_0\"},\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\","
				         "\"type\":\"%s\"}],\"relations\":[{\"from\":\"%s_0\",\"to\":\"%s_0\",\"type\":\"on\"}]}",
				         t, o, d, o, o, o, d);
				lines[k++] = strdup(buf);
				t += (10 + rand() % 40) * US;
			}
		}
	*count = k;
	return lines;
}

static h2emv_mem *fresh(const char *base, const char *name, int forgetting)
{
	char dir[4200];
	snprintf(dir, sizeof dir, "%s/%s", base, name);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	h2emv_mem *m;
	h2emv_error err = { 0 };
	if (h2emv_mem_open(&m, dir, &o, &err)) {
		fprintf(stderr, "open %s: %s\n", dir, err.message);
		exit(2);
	}
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = forgetting;
	h2emv_config_set(m, &c, NULL);
	return m;
}

static void ingest_all(h2emv_mem *m, char **lines, size_t n)
{
	size_t *lens = malloc(n * sizeof *lens);
	for (size_t i = 0; i < n; i++)
		lens[i] = strlen(lines[i]);
	for (size_t i = 0; i < n; i += 1000) {
		size_t k = n - i < 1000 ? n - i : 1000;
		h2emv_error err = { 0 };
		if (h2emv_ingest_batch(NULL, m, (const char *const *)lines + i, lens + i, k, &err)) {
			fprintf(stderr, "ingest: %s\n", err.message);
			exit(2);
		}
	}
	free(lens);
}

/* The baseline: read and decode every observation of the log. */
static double read_log(h2emv_mem *m, uint64_t n)
{
	double t = now_s();
	eng_read *r;
	eng_buf body = { 0 };
	eng_read_begin(&r, m->env, NULL);
	for (uint64_t seq = 1; seq <= n; seq++) {
		scene s;
		if (eng_obs_get(&body, r, seq, NULL) || obs_body_check(body.data, body.len, NULL) ||
		    scene_decode(&s, body.data, body.len, NULL))
			exit(3);
		scene_free(&s);
	}
	eng_read_end(r);
	eng_buf_free(&body);
	return now_s() - t;
}

int main(int argc, char **argv)
{
	size_t n = 60000, questions = 200, n_qa = 12200; /* n_qa: ~10,000 L3+ nodes */
	unsigned seed = 1;
	const char *dir = NULL;
	static const struct option opts[] = {
		{ "n", required_argument, NULL, 'n' }, { "questions", required_argument, NULL, 'q' },
		{ "qa-obs", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'd' }, { "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "n:q:a:d:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': n_qa = strtoull(optarg, NULL, 10); break;
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 'q': questions = strtoull(optarg, NULL, 10); break;
		case 'd': dir = optarg; break;
		case 's': seed = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'h':
			puts("usage: bench_memory [--n OBSERVATIONS] [--qa-obs N] [--questions Q] [--dir DIR] [--seed S]\n"
			     "Builder + forgetting throughput on the builtin policy against reading the log\n"
			     "alone, and question-answering latency on the built snapshot against opening it.");
			return 0;
		default: return 2;
		}
	}
	char tmpl[] = "/tmp/h2emv-bench-memory-XXXXXX";
	if (!dir && !(dir = mkdtemp(tmpl)))
		return 2;
	printf("bench_memory — h2emv %s, builtin policy\ncommand:", H2EMV_VERSION_STRING);
	for (int i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\nstores in %s\n", dir);
	size_t total, count = n;
	char **lines = make_history(n > n_qa ? n : n_qa, &total, seed);
	if (count > total)
		count = total;
	if (n_qa > total)
		n_qa = total;

	/* 1. builder + forgetting */
	h2emv_mem *m = fresh(dir, "build", H2EMV_FORGET_RELEVANCE);
	ingest_all(m, lines, count);
	double t_read = read_log(m, count);
	double t0 = now_s();
	h2emv_build_result r = { 0 };
	h2emv_build_options bo = H2EMV_BUILD_OPTIONS_INIT;
	h2emv_error err = { 0 };
	if (h2emv_build(&r, m, &bo, &err)) {
		fprintf(stderr, "build: %s\n", err.message);
		return 2;
	}
	double t_build = now_s() - t0;
	printf("\n1. builder + forgetting, %zu observations (%zu days of a household)\n", count,
	       count / 240 + 1);
	printf("   read + decode the log alone   %8.3f s  %10.0f obs/s  (baseline)\n", t_read,
	       count / t_read);
	printf("   build with forgetting          %8.3f s  %10.0f obs/s  ratio %.2f of the baseline's time\n",
	       t_build, count / t_build, t_build / t_read);
	printf("   tree size %llu, forgotten %llu, snapshots %llu, policy calls %llu (%.2f per goal)\n",
	       (unsigned long long)r.tree_size, (unsigned long long)r.nodes_forgotten,
	       (unsigned long long)r.snapshots, (unsigned long long)r.tokens_build.calls,
	       r.tokens_build.calls / (count / 1.5));
	printf("   TARGET builder_obs_per_s >=10000 %.0f %s\n", count / t_build,
	       count / t_build >= 10000 ? "PASS" : "MISS");
	h2emv_mem_close(m);

	/* 2. question answering on a large tree (nothing forgotten) */
	m = fresh(dir, "qa", H2EMV_FORGET_NONE);
	ingest_all(m, lines, n_qa);
	h2emv_build(&r, m, &bo, &err);
	h2emv_snap *s;
	h2emv_snap_info info;
	h2emv_snap_open(&s, m, 0, NULL);
	h2emv_snap_get_info(&info, s);
	h2emv_snap_close(s);
	static const char *qs[] = {
		"Where did you put the knife the last time?",
		"When did you first pick up the wallet?",
		"Where did you last see the keys?",
		"Who did you meet last?",
		"What did you do first?",
	};
	double *lat = calloc(questions, sizeof *lat), *base = calloc(questions, sizeof *base);
	char *example = NULL;
	for (size_t i = 0; i < questions; i++) {
		double a = now_s();
		h2emv_snap_open(&s, m, 0, NULL);
		const h2emv_node *root;
		h2emv_snap_root(&root, s, NULL);
		h2emv_snap_close(s);
		base[i] = now_s() - a;
		h2emv_answer *ans = NULL;
		a = now_s();
		int rc = h2emv_ask(&ans, m, qs[i % 5], NULL, &err);
		lat[i] = now_s() - a;
		if (rc) {
			fprintf(stderr, "ask: %s\n", err.message);
			return 2;
		}
		if (i == 0)
			example = strdup(ans->text);
		h2emv_answer_free(ans);
	}
	qsort(lat, questions, sizeof *lat, cmp_d);
	qsort(base, questions, sizeof *base, cmp_d);
	double med = lat[questions / 2] * 1e3, bmed = base[questions / 2] * 1e3;
	printf("\n2. question answering, snapshot with %llu L3+ nodes, %zu questions\n",
	       (unsigned long long)info.n_nodes, questions);
	printf("   open snapshot + read root      median %8.3f ms  (baseline)\n", bmed);
	printf("   h2emv_ask                       median %8.3f ms  p90 %.3f ms  ratio %.1f× the baseline\n",
	       med, lat[questions * 9 / 10] * 1e3, med / bmed);
	printf("   e.g. \"%s\" -> %s\n", qs[0], example ? example : "");
	printf("   TARGET qa_median_ms <5 %.3f %s\n", med, med < 5 ? "PASS" : "MISS");
	h2emv_mem_close(m);
	free(example);
	free(lat);
	free(base);
	for (size_t i = 0; i < total; i++)
		free(lines[i]);
	free(lines);
	char cmd[4300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return 0;
}
