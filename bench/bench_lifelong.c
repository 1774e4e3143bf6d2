/*
 * bench_lifelong.c — does the memory stay bounded over a robot's life?
 *
 * Lives simulated weeks of a household robot's days (two work sessions a
 * day of pick-and-place tasks with what it sees, now and then a person
 * speaking), a day at a time (ingest, build, then what an idle follower
 * does), into three memories in the same run, and reports every week:
 *   retained  forgetting (the default relevance on the builtin policy) and
 *             the automatic maintenance `build --follow` runs when idle
 *             (h2emv_maintain: gc + compaction when due);
 *   rules     the same, after the user said "Always remember where you
 *             put the keys": what grows is what the rule keeps;
 *   baseline  no forgetting and gc that keeps the log (everything kept).
 * After each week it prints, per memory, the directory's size (all files
 * but the full-disk reserve, which is shown apart), bytes per observation
 * ingested so far, and the split: observation log, tree (node versions),
 * relevance cache. A program to run by hand (--help), not a
 * test; its figures are ratios within the run.
 *
 * fsync is off (H2EMV_OPEN_NOSYNC) in all three: it changes time, not size.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "h2emv.h"

#define US 1000000ll
#define T0 (1704067200ll * US) /* 2024-01-01, a Monday: two years end before today */

static const char *objs[] = { "knife", "cup",   "plate", "apple", "keys",  "wallet",
	                      "bowl",  "sponge", "book", "remote", "glasses", "mug" };
static const char *dests[] = { "countertop", "sink", "table", "shelf", "drawer", "sofa", "desk" };
static const char *rooms[] = { "kitchen", "living room", "hallway", "study" };
static const char *people[] = { "Alice", "Bob", "Carol" };
static const char *words[] = { "please tidy up", "where are my keys", "thank you",
	                       "bring me a cup", "put that away" };

#define NOBJ (sizeof objs / sizeof *objs)
#define NDST (sizeof dests / sizeof *dests)

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

typedef struct lines {
	char **v;
	size_t *len;
	size_t n, cap;
} lines;

static void add(lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		l->len = realloc(l->len, l->cap * sizeof *l->len);
		if (!l->v || !l->len) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
	}
	l->len[l->n] = strlen(s);
	if (!(l->v[l->n++] = strdup(s))) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
}

static void clear(lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	l->n = 0;
}

/* One day: two sessions of `tasks` pick-and-place tasks each. */
static void make_day(lines *l, int day, int tasks)
{
	char buf[1024];
	for (int s = 0; s < 2; s++) {
		long long t = T0 + (long long)day * 86400 * US + (8 + 9 * s) * 3600 * US;
		const char *room = rooms[rnd(4)];
		for (int k = 0; k < tasks; k++) {
			const char *o = objs[rnd(NOBJ)], *d = dests[rnd(NDST)];
			int say = rnd(8) == 0;
			snprintf(buf, sizeof buf,
			         "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":\"succeeded\"},"
			         "\"location\":\"%s\",\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"},"
			         "{\"id\":\"%s_0\",\"type\":\"%s\"}]%s%s%s%s%s}",
			         t, room, o, o, d, d, say ? ",\"persons\":[\"" : "",
			         say ? people[rnd(3)] : "",
			         say ? "\"],\"speech\":{\"speaker\":\"user\",\"text\":\"" : "",
			         say ? words[rnd(5)] : "", say ? "\"}" : "");
			add(l, buf);
			t += (2 + rnd(8)) * US;
			snprintf(buf, sizeof buf,
			         "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"%s_0\"},"
			         "\"status\":\"succeeded\"},\"location\":\"%s\",\"objects\":[{\"id\":\"%s_0\","
			         "\"type\":\"%s\"}]}",
			         t, o, room, o, o);
			add(l, buf);
			t += (2 + rnd(8)) * US;
			snprintf(buf, sizeof buf,
			         "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s_0\","
			         "\"target\":\"%s_0\"},\"status\":\"succeeded\"},\"location\":\"%s\","
			         "\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}],\"relations\":[{\"from\":"
			         "\"%s_0\",\"to\":\"%s_0\",\"type\":\"on\"}]}",
			         t, o, d, room, o, o, o, d);
			add(l, buf);
			t += (20 + rnd(60)) * US;
		}
	}
}

typedef struct run {
	const char *name;
	h2emv_mem *m;
	char dir[4096];
	int keep_all;
	uint64_t size[128];
} run;

static void die(const char *what, const h2emv_error *e)
{
	fprintf(stderr, "bench_lifelong: %s: %s\n", what, e->message);
	exit(2);
}

static void open_run(run *r, const char *base, const char *name, int keep_all)
{
	r->name = name;
	r->keep_all = keep_all;
	snprintf(r->dir, sizeof r->dir, "%s/%s", base, name);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	h2emv_error e = { 0 };
	if (h2emv_mem_open(&r->m, r->dir, &o, &e))
		die("open", &e);
	h2emv_config c;
	if (h2emv_config_get(&c, r->m, &e))
		die("config", &e);
	if (keep_all)
		c.forgetting = H2EMV_FORGET_NONE;
	if (h2emv_config_set(r->m, &c, &e))
		die("config", &e);
}

static uint64_t file_size(const run *r)
{
	/* every file of the memory directory but the reserve (the space held
	 * back for gc and compact on a full disk, reported apart) */
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "du -sb --exclude=reserve '%s'", r->dir);
	FILE *p = popen(cmd, "r");
	unsigned long long v = 0;
	if (!p || fscanf(p, "%llu", &v) != 1)
		v = 0;
	if (p)
		pclose(p);
	return v;
}

/* A day as a robot lives it: the day's observations ingested and built,
 * then the idle maintenance. */
static void day(run *r, const lines *l, int last_of_week)
{
	h2emv_error e = { 0 };
	for (size_t i = 0; i < l->n; i += 1000) {
		size_t k = l->n - i < 1000 ? l->n - i : 1000;
		if (h2emv_ingest_batch(NULL, r->m, (const char *const *)l->v + i, l->len + i, k, &e))
			die("ingest", &e);
	}
	/* the baseline's tree only grows, and loading it daily would make the
	 * run quadratic: it builds once a week (its size does not depend on it) */
	if (r->keep_all && !last_of_week)
		return;
	if (h2emv_build(NULL, r->m, NULL, &e))
		die("build", &e);
	if (r->keep_all) {
		/* the baseline collects snapshots and versions, keeps the log */
		h2emv_gc_options go = H2EMV_GC_OPTIONS_INIT;
		go.keep_log = 1;
		if (h2emv_gc(NULL, r->m, &go, &e))
			die("gc", &e);
	} else if (h2emv_maintain(NULL, r->m, NULL, &e)) {
		die("maintain", &e);
	}
}

static void report(run *r, int w, uint64_t total_obs, int csv)
{
	h2emv_error e = { 0 };
	h2emv_stats s;
	if (h2emv_mem_stats(&s, r->m, &e))
		die("stats", &e);
	uint64_t size = file_size(r);
	if (w < 128)
		r->size[w] = size;
	if (csv)
		printf("%d,%s,%llu,%llu,%.1f,%llu,%llu,%llu,%llu,%llu\n", w, r->name,
		       (unsigned long long)total_obs, (unsigned long long)size,
		       (double)size / (double)total_obs, (unsigned long long)s.obs_bytes,
		       (unsigned long long)s.node_bytes, (unsigned long long)s.relcache_bytes,
		       (unsigned long long)s.obs_count, (unsigned long long)s.reserve_bytes);
	else
		printf("week %3d %-9s %8.2f MB  %6.1f B/obs  log %7.2f MB (%llu obs)  tree %7.2f MB  "
		       "cache %6.3f MB  (+ reserve %.2f MB)\n",
		       w, r->name, size / 1e6, (double)size / (double)total_obs, s.obs_bytes / 1e6,
		       (unsigned long long)s.obs_count, s.node_bytes / 1e6, s.relcache_bytes / 1e6,
		       s.reserve_bytes / 1e6);
	fflush(stdout);
}

static const char usage[] =
	"usage: bench_lifelong [--weeks N] [--tasks N] [--dir DIR] [--csv]\n"
	"\n"
	"Lives N simulated weeks (default 104) of a robot's days, `--tasks` pick-and-\n"
	"place tasks per session (default 40: 240 observations a day), into three\n"
	"memories: retained (forgetting + automatic maintenance), rules (the same with\n"
	"'Always remember where you put the keys'), baseline (no forgetting, the log\n"
	"kept). Prints each memory's directory size per week with its split, then the\n"
	"ratios: week 52 / week 4, week 104 / week 52, and retained / baseline at the\n"
	"end. DIR (default: a new directory under /tmp) is left for inspection.\n";

int main(int argc, char **argv)
{
	int weeks = 104, tasks = 40, csv = 0, c;
	const char *dir = NULL;
	static const struct option opts[] = {
		{ "weeks", required_argument, NULL, 'w' }, { "tasks", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'd' },   { "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },        { 0 },
	};
	while ((c = getopt_long(argc, argv, "w:t:d:ch", opts, NULL)) != -1) {
		switch (c) {
		case 'w': weeks = atoi(optarg); break;
		case 't': tasks = atoi(optarg); break;
		case 'd': dir = optarg; break;
		case 'c': csv = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 64;
		}
	}
	if (weeks < 1 || weeks > 127 || tasks < 1 || tasks > 1000) {
		fputs(usage, stderr);
		return 64;
	}
	char tmp[] = "/tmp/h2emv-lifelong-XXXXXX";
	if (!dir && !(dir = mkdtemp(tmp))) {
		perror("mkdtemp");
		return 2;
	}
	run runs[3];
	open_run(&runs[0], dir, "retained", 0);
	open_run(&runs[1], dir, "rules", 0);
	open_run(&runs[2], dir, "baseline", 1);
	h2emv_reply *reply = NULL;
	h2emv_error e = { 0 };
	if (h2emv_say(&reply, runs[1].m, "Always remember where you put the keys.", &e))
		die("say", &e);
	h2emv_reply_free(reply);
	if (csv)
		printf("week,memory,observations,dir_bytes,bytes_per_obs,log_bytes,tree_bytes,"
		       "cache_bytes,log_entries,reserve_bytes\n");
	lines l = { 0 };
	uint64_t total = 0;
	for (int w = 1; w <= weeks; w++) {
		for (int d = 0; d < 7; d++) {
			clear(&l);
			make_day(&l, (w - 1) * 7 + d, tasks);
			total += l.n;
			for (int i = 0; i < 3; i++)
				day(&runs[i], &l, d == 6);
		}
		for (int i = 0; i < 3; i++)
			report(&runs[i], w, total, csv);
	}
	clear(&l);
	free(l.v);
	free(l.len);
	printf("\n%llu observations in %d weeks; directories in %s\n", (unsigned long long)total,
	       weeks, dir);
	for (int i = 0; i < 3; i++) {
		const run *r = &runs[i];
		if (weeks >= 52)
			printf("%-9s week 52 / week 4 = %.2f", r->name,
			       (double)r->size[52] / (double)r->size[4]);
		if (weeks >= 104)
			printf(", week 104 / week 52 = %.2f", (double)r->size[104] / (double)r->size[52]);
		printf("%s", weeks >= 52 ? "\n" : "");
	}
	int last = weeks < 127 ? weeks : 127;
	printf("at week %d: retained / baseline = %.3f, rules / baseline = %.3f\n", last,
	       (double)runs[0].size[last] / (double)runs[2].size[last],
	       (double)runs[1].size[last] / (double)runs[2].size[last]);
	for (int i = 0; i < 3; i++)
		h2emv_mem_close(runs[i].m);
	return 0;
}
