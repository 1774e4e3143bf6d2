/*
 * cmd_demo.c — `h2emv demo`: a household week, end to end, on the builtin
 * policy: the robot lives through the days, forgets, is asked about
 * something it has forgotten, is told what matters, and answers the same
 * kind of question correctly the next time.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv demo [options]\n"
	"\n"
	"Run a one-week household scenario in a fresh memory directory: every day's\n"
	"observations are ingested and folded into the tree online, with forgetting.\n"
	"On day 3 the robot is asked where it put the knife on day 1 (forgotten by\n"
	"then); the user says \"You should always remember the location to where you\n"
	"transport a knife\"; on day 5 the knife is moved again; on day 7 the robot is\n"
	"asked where it put the knife the last time, and remembers. Prints each step,\n"
	"the learned rule, tree size, tokens and time taken. Offline and deterministic.\n"
	"\n"
	"  -d, --dir DIR   where to create the memory (default: ./h2emv-demo, replaced)\n"
	"  -q, --quiet     print the steps only, no observation counts\n"
	"  -h, --help      this help\n";

#define US 1000000ll
#define DAY (86400ll * US)
#define T0 (1727049600ll * US) /* Monday 2024-09-23, UTC */

typedef struct demo {
	h2emv_mem *mem;
	char **lines;
	size_t n, cap;
	uint64_t tokens;
	int quiet;
} demo;

static void add(demo *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(demo *d, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->lines = realloc(d->lines, d->cap * sizeof *d->lines);
	}
	d->lines[d->n++] = strdup(buf);
}

/* Carry `obj` from where it is to `dest` at time *t. */
static void transport(demo *d, int64_t *t, const char *obj, const char *dest)
{
	add(d, "{\"t\":%lld,\"action\":{\"name\":\"MoveTo\",\"args\":{\"place\":\"%s area\"},"
	       "\"status\":\"succeeded\"},\"location\":\"kitchen\",\"objects\":[{\"id\":\"%s_0\","
	       "\"type\":\"%s\"}]}",
	    (long long)*t, obj, obj, obj);
	*t += 6 * US;
	add(d, "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"%s_0\"},"
	       "\"status\":\"succeeded\"},\"location\":\"kitchen\",\"objects\":[{\"id\":\"%s_0\","
	       "\"type\":\"%s\"}],\"relations\":[{\"from\":\"%s_0\",\"to\":\"hand_0\",\"type\":\"in\"}]}",
	    (long long)*t, obj, obj, obj, obj);
	*t += 9 * US;
	add(d, "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s_0\",\"target\":"
	       "\"%s_0\"},\"status\":\"succeeded\"},\"location\":\"kitchen\",\"objects\":[{\"id\":"
	       "\"%s_0\",\"type\":\"%s\"},{\"id\":\"%s_0\",\"type\":\"%s\"}],\"relations\":[{\"from\":"
	       "\"%s_0\",\"to\":\"%s_0\",\"type\":\"on\"}]}",
	    (long long)*t, obj, dest, obj, obj, dest, dest, obj, dest);
	*t += 40 * US;
}

static void chores(demo *d, int day)
{
	int64_t t = T0 + day * DAY + 8 * 3600 * US + day * 7 * 60 * US;
	add(d, "{\"t\":%lld,\"location\":\"kitchen\",\"persons\":[\"Alice\"],\"speech\":{\"speaker\":"
	       "\"Alice\",\"text\":\"Good morning! Could you tidy up the kitchen?\"}}",
	    (long long)t);
	t += 20 * US;
	static const char *objs[] = { "cup", "plate", "bowl", "apple" };
	static const char *dests[] = { "sink", "table", "shelf", "countertop" };
	for (int k = 0; k < 3; k++)
		transport(d, &t, objs[(day + k) % 4], dests[(day * 2 + k) % 4]);
	if (day == 0)
		transport(d, &t, "knife", "countertop");
	if (day == 4)
		transport(d, &t, "knife", "sink");
	t = T0 + day * DAY + 18 * 3600 * US;
	add(d, "{\"t\":%lld,\"action\":{\"name\":\"WaterPlant\",\"args\":{\"plant\":\"plant_0\","
	       "\"amount_ml\":250},\"status\":\"succeeded\"},\"location\":\"living room\",\"objects\":"
	       "[{\"id\":\"plant_0\",\"type\":\"plant\",\"state\":{\"isWatered\":true}}]}",
	    (long long)t);
	add(d, "{\"t\":%lld,\"location\":\"living room\",\"persons\":[\"Bob\"],\"speech\":{\"speaker\":"
	       "\"Bob\",\"text\":\"Thanks, see you tomorrow.\"}}",
	    (long long)(t + 30 * US));
}

static int step(demo *d, int rc, const h2emv_error *err, const char *what)
{
	if (rc)
		fprintf(stderr, "h2emv demo: %s: %s\n", what, err->message);
	return rc;
}

/* Ingest and build one day. */
static int live_day(demo *d, int day)
{
	d->n = 0;
	chores(d, day);
	size_t *lens = malloc(d->n * sizeof *lens);
	for (size_t i = 0; i < d->n; i++)
		lens[i] = strlen(d->lines[i]);
	h2emv_error err = { 0 };
	int rc = h2emv_ingest_batch(NULL, d->mem, (const char *const *)d->lines, lens, d->n, &err);
	free(lens);
	for (size_t i = 0; i < d->n; i++)
		free(d->lines[i]);
	if (step(d, rc, &err, "ingest"))
		return rc;
	h2emv_build_result r = { 0 };
	h2emv_build_options bo = H2EMV_BUILD_OPTIONS_INIT;
	bo.estimate_tokens = 1; /* the tour prints the builtin's estimate */
	rc = h2emv_build(&r, d->mem, &bo, &err);
	if (step(d, rc, &err, "build"))
		return rc;
	d->tokens += r.tokens_build.prompt + r.tokens_build.completion + r.tokens_forget.prompt +
	             r.tokens_forget.completion;
	if (!d->quiet) {
		char t[32];
		cli_time(t, sizeof t, T0 + day * DAY);
		printf("day %d (%.10s): %zu observations folded in; tree size %llu; %llu nodes "
		       "forgotten\n",
		       day + 1, t, (size_t)r.obs_folded, (unsigned long long)r.tree_size,
		       (unsigned long long)r.nodes_forgotten);
	}
	return H2EMV_OK;
}

static int say(demo *d, const char *utterance)
{
	h2emv_reply *r = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_say(&r, d->mem, utterance, &err);
	if (step(d, rc, &err, "say"))
		return rc;
	printf("  user:  %s\n  robot: %s\n", utterance, r->text);
	if (r->answer)
		printf("         (evidence %zu node%s%s; %llu tokens)\n", r->answer->n_evidence,
		       r->answer->n_evidence == 1 ? "" : "s",
		       r->answer->forgotten ? ", in forgotten time" : "",
		       (unsigned long long)(r->tokens.prompt + r->tokens.completion));
	if (r->rules)
		for (size_t i = 0; i < r->rules->n; i++)
			printf("         rule %zu: %s\n", i + 1, r->rules->items[i]);
	d->tokens += r->tokens.prompt + r->tokens.completion;
	h2emv_reply_free(r);
	return H2EMV_OK;
}

int cmd_demo(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dir = "h2emv-demo";
	demo d = { 0 };
	int c;
	while ((c = getopt_long(argc, argv, "d:qh", opts, NULL)) != -1) {
		if (c == 'd')
			dir = optarg;
		else if (c == 'q')
			d.quiet = 1;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return cli_usage("demo", "unknown option");
	}
	if (optind < argc)
		return cli_usage("demo", "unexpected argument '%s'", argv[optind]);
	if (!*dir)
		return cli_usage("demo", "--dir needs a directory, not an empty string");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char cmd[4300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (strlen(dir) > 4000 || system(cmd) != 0)
		return cli_usage("demo", "cannot clear %s", dir);
	if (!(d.mem = cli_open(dir, H2EMV_OPEN_CREATE)))
		return EXIT_ERROR;
	printf("h2emv demo: a household week in %s (builtin policy, offline)\n\n", dir);
	int rc = H2EMV_OK;
	for (int day = 0; rc == H2EMV_OK && day < 3; day++)
		rc = live_day(&d, day);
	if (rc == H2EMV_OK) {
		printf("\nday 3, evening: the user asks about day 1\n");
		rc = say(&d, "Where did you put the knife the first time?");
	}
	if (rc == H2EMV_OK)
		rc = say(&d, "You should always remember the location to where you transport a knife.");
	if (rc == H2EMV_OK)
		printf("\n");
	for (int day = 3; rc == H2EMV_OK && day < 7; day++)
		rc = live_day(&d, day);
	if (rc == H2EMV_OK) {
		printf("\nday 7, evening: the user asks about day 5\n");
		rc = say(&d, "Where did you put the knife the last time?");
	}
	h2emv_stats st = { 0 };
	h2emv_mem_stats(&st, d.mem, NULL);
	h2emv_snap *s;
	h2emv_snap_info info = { 0 };
	if (h2emv_snap_open(&s, d.mem, 0, NULL) == H2EMV_OK) {
		h2emv_snap_get_info(&info, s);
		h2emv_snap_close(s);
	}
	h2emv_mem_close(d.mem);
	free(d.lines);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc)
		return EXIT_ERROR;
	printf("\ntree size %llu (nodes of level >= 3), %llu observations, %llu snapshots, "
	       "%llu tokens (builtin estimate), %.2f s\n",
	       (unsigned long long)info.n_nodes, (unsigned long long)st.obs_count,
	       (unsigned long long)st.snapshots, (unsigned long long)d.tokens,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("look around: h2emv inspect -m %s --depth 3; h2emv rules -m %s\n", dir, dir);
	return EXIT_OK;
}
