/*
 * bench_index.c — questions over memories of growing size, against SQLite
 * FTS5 over the same observations in the same process (docs/index.md):
 * latency ratios (p50/p90/p99) per kind of question, answer agreement
 * (counts, the newest and the first time) and the index's size against the
 * node records'. A program to run by hand (bench_index --help), not a test.
 *
 * The history is the household simulator of bench_memory: pick-and-place
 * tasks, two sessions a day, a request to tidy up now and then; forgetting
 * off, so every occurrence is in the tree and the counts must agree.
 */
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/mem/mem.h"
#include "h2emv.h"

#define US 1000000ll
#define T0 (1727049600ll * US) /* 2024-09-23 */
#define OBS_PER_NODE 1.22      /* observations per L3+ node (bench_memory) */

static const char *objs[] = { "knife", "cup", "plate", "apple", "keys", "wallet", "bowl", "sponge" };
static const char *dests[] = { "countertop", "sink", "table", "shelf", "drawer" };
static const char *people[] = { "Alice", "Bob", "Carol" };

typedef struct obs {
	long long t;
	char *json;
	char action[16], obj[16], person[8];
	int tidy;
} obs;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static obs *history(size_t *np, unsigned seed)
{
	size_t n = *np;
	obs *v = calloc(n, sizeof *v);
	size_t k = 0;
	srand(seed);
	char buf[1024];
	for (int day = 0; k + 3 <= n; day++)
		for (int s = 0; s < 2 && k + 3 <= n; s++) {
			long long t = T0 + day * 86400 * US + (8 + 9 * s) * 3600 * US;
			for (int task = 0; task < 40 && k + 3 <= n; task++) {
				const char *o = objs[rand() % 8], *d = dests[rand() % 5];
				int say = rand() % 6 == 0;
				const char *p = people[rand() % 3];
				/* (the person present asks: FTS5's "person:Bob AND speech:tidy"
				 * is then what "how many times did Bob ask" means) */
				char said[160] = "";
				if (say)
					snprintf(said, sizeof said,
					         ",\"persons\":[\"%s\"],\"speech\":{\"speaker\":\"%s\","
					         "\"text\":\"please tidy up\"}",
					         p, p);
				snprintf(buf, sizeof buf,
				         "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":\"succeeded\"},"
				         "\"location\":\"kitchen\",\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"},"
				         "{\"id\":\"%s_0\",\"type\":\"%s\"}]%s}",
				         t, o, o, d, d, said);
				v[k] = (obs){ .t = t, .json = strdup(buf), .tidy = say };
				snprintf(v[k].action, sizeof v[k].action, "lookaround");
				snprintf(v[k].person, sizeof v[k].person, "%s", say ? p : "");
				k++;
				t += (2 + rand() % 8) * US;
				snprintf(buf, sizeof buf,
				         "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"%s_0\"},"
				         "\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}]}",
				         t, o, o, o);
				v[k] = (obs){ .t = t, .json = strdup(buf) };
				snprintf(v[k].action, sizeof v[k].action, "pickup");
				snprintf(v[k].obj, sizeof v[k].obj, "%s", o);
				k++;
				t += (2 + rand() % 8) * US;
				snprintf(buf, sizeof buf,
				         "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s_0\","
				         "\"target\":\"%s_0\"},\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\","
				         "\"type\":\"%s\"}],\"relations\":[{\"from\":\"%s_0\",\"to\":\"%s_0\",\"type\":\"on\"}]}",
				         t, o, d, o, o, o, d);
				v[k] = (obs){ .t = t, .json = strdup(buf) };
				snprintf(v[k].action, sizeof v[k].action, "place");
				snprintf(v[k].obj, sizeof v[k].obj, "%s", o);
				k++;
				t += (10 + rand() % 40) * US;
			}
		}
	*np = k;
	return v;
}

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "%s: %s\n", what, msg);
	exit(2);
}

static h2emv_mem *build_h2emv(const char *dir, const obs *v, size_t n, double *secs)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	h2emv_mem *m;
	h2emv_error err = { 0 };
	if (h2emv_mem_open(&m, dir, &o, &err))
		die(dir, err.message);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_NONE;
	h2emv_config_set(m, &c, NULL);
	const char **lines = malloc(1000 * sizeof *lines);
	size_t lens[1000];
	for (size_t i = 0; i < n; i += 1000) {
		size_t k = n - i < 1000 ? n - i : 1000;
		for (size_t j = 0; j < k; j++)
			lines[j] = v[i + j].json, lens[j] = strlen(v[i + j].json);
		if (h2emv_ingest_batch(NULL, m, lines, lens, k, &err))
			die("ingest", err.message);
	}
	free(lines);
	double t = now_s();
	h2emv_build_options bo = H2EMV_BUILD_OPTIONS_INIT;
	if (h2emv_build(NULL, m, &bo, &err))
		die("build", err.message);
	*secs = now_s() - t;
	return m;
}

/* FTS5: one row per observation, its words by field; the time beside. */
static sqlite3 *build_fts(const char *path, const obs *v, size_t n)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die(path, "sqlite3_open");
	char *e = NULL;
	if (sqlite3_exec(db,
	                 "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;"
	                 "CREATE VIRTUAL TABLE obs USING fts5(t UNINDEXED, action, obj, person, speech);"
	                 "BEGIN;",
	                 NULL, NULL, &e) != SQLITE_OK)
		die("fts5", e ? e : "?");
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "INSERT INTO obs VALUES (?,?,?,?,?)", -1, &st, NULL);
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, v[i].t);
		sqlite3_bind_text(st, 2, v[i].action, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, v[i].obj, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, v[i].person, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, v[i].tidy ? "please tidy up" : "", -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("fts5", sqlite3_errmsg(db));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL);
	return db;
}

enum qkind { Q_LAST, Q_FIRST, Q_COUNT, Q_WHERE, Q_TIDY, Q_WHO, Q_KINDS };
static const char *kind_names[Q_KINDS] = { "when last", "when first", "how many", "where last",
	                                       "how many asked", "who last" };

typedef struct question {
	int kind;
	char text[160];
	char fts[200];
} question;

static void make_question(question *q, int kind, const char *o, const char *p)
{
	q->kind = kind;
	switch (kind) {
	case Q_LAST:
		snprintf(q->text, sizeof q->text, "When did you last pick up the %s?", o);
		snprintf(q->fts, sizeof q->fts,
		         "SELECT max(t) FROM obs WHERE obs MATCH 'action:pickup AND obj:%s'", o);
		break;
	case Q_FIRST:
		snprintf(q->text, sizeof q->text, "When did you first pick up the %s?", o);
		snprintf(q->fts, sizeof q->fts,
		         "SELECT min(t) FROM obs WHERE obs MATCH 'action:pickup AND obj:%s'", o);
		break;
	case Q_COUNT:
		snprintf(q->text, sizeof q->text, "How many times did you pick up the %s?", o);
		snprintf(q->fts, sizeof q->fts,
		         "SELECT count(*) FROM obs WHERE obs MATCH 'action:pickup AND obj:%s'", o);
		break;
	case Q_WHERE:
		snprintf(q->text, sizeof q->text, "Where did you put the %s the last time?", o);
		snprintf(q->fts, sizeof q->fts,
		         "SELECT t FROM obs WHERE obs MATCH 'action:place AND obj:%s' ORDER BY t DESC "
		         "LIMIT 1", o);
		break;
	case Q_TIDY:
		snprintf(q->text, sizeof q->text, "How many times did %s ask you to tidy up?", p);
		snprintf(q->fts, sizeof q->fts,
		         "SELECT count(*) FROM obs WHERE obs MATCH 'person:%s AND speech:tidy'", p);
		break;
	default:
		snprintf(q->text, sizeof q->text, "Who did you meet last?");
		snprintf(q->fts, sizeof q->fts,
		         "SELECT person FROM obs WHERE person != '' ORDER BY t DESC LIMIT 1");
	}
}

static char fts_name[64]; /* the last answer's text column ("who last": a name) */

static long long fts_value(sqlite3 *db, const char *sql, double *secs)
{
	double t = now_s();
	sqlite3_stmt *st;
	long long v = -1;
	fts_name[0] = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW) {
		v = sqlite3_column_int64(st, 0);
		if (sqlite3_column_type(st, 0) == SQLITE_TEXT)
			snprintf(fts_name, sizeof fts_name, "%s",
			         (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	*secs = now_s() - t;
	return v;
}

/* "At 2024/09/23, 10:03:55." -> µs; "60 times" -> 60; -1 if neither. */
static long long answer_value(const char *s, int kind)
{
	if (kind == Q_COUNT || kind == Q_TIDY) {
		const char *p = s;
		while (*p && (*p < '0' || *p > '9'))
			p++;
		return *p && !strncmp(s, "At least", 8) ? -2 : *p ? atoll(p) : -1;
	}
	struct tm tm = { 0 };
	if (sscanf(s, "At %d/%d/%d, %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
	           &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)timegm(&tm) * US;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(double *v, size_t n, double p)
{
	qsort(v, n, sizeof *v, cmp_d);
	return n ? v[(size_t)(p * (n - 1) + 0.5)] : 0;
}

typedef struct lat {
	double *h, *f;
	size_t n;
} lat;

static void ask_all(h2emv_mem *m, sqlite3 *db, size_t rounds, lat *l, size_t *agree,
                    size_t *checked, size_t *all_n, double *all_h, double *all_f)
{
	for (size_t r = 0; r < rounds; r++)
		for (int k = 0; k < Q_KINDS; k++) {
			question q;
			make_question(&q, k, objs[(r + (size_t)k) % 8], people[r % 3]);
			double tf, th = now_s();
			h2emv_answer *a = NULL;
			h2emv_error err = { 0 };
			if (h2emv_ask(&a, m, q.text, NULL, &err))
				die("ask", err.message);
			th = now_s() - th;
			long long fv = fts_value(db, q.fts, &tf);
			l[k].h[l[k].n] = th;
			l[k].f[l[k].n++] = tf;
			all_h[*all_n] = th;
			all_f[(*all_n)++] = tf;
			if (k <= Q_COUNT || k == Q_TIDY || k == Q_WHO) {
				long long hv = answer_value(a->text, k);
				size_t nl = strlen(fts_name);
				/* FTS5 stores seconds of the same µs times: compare seconds;
				 * "who last" answers "Carol." */
				int same = k == Q_WHO ? nl && !strncmp(a->text, fts_name, nl) &&
				                            a->text[nl] == '.'
				           : k == Q_COUNT || k == Q_TIDY ? hv == fv
				                                         : hv / US == fv / US;
				agree[k] += same;
				checked[k]++;
				if (!same && checked[k] - agree[k] <= 2)
					printf("     disagree: \"%s\" h2emv \"%s\", FTS5 %lld %s\n", q.text, a->text, fv,
					       fts_name);
			}
			h2emv_answer_free(a);
		}
}

static void run_size(const char *base, size_t nodes, size_t rounds, unsigned seed)
{
	size_t n = (size_t)(nodes * OBS_PER_NODE);
	obs *v = history(&n, seed);
	char dir[4300], path[4300];
	snprintf(dir, sizeof dir, "%s/h2emv-%zu", base, nodes);
	snprintf(path, sizeof path, "%s/fts-%zu.db", base, nodes);
	double t_build;
	h2emv_mem *m = build_h2emv(dir, v, n, &t_build);
	sqlite3 *db = build_fts(path, v, n);
	h2emv_snap *s;
	h2emv_snap_info info;
	h2emv_snap_open(&s, m, 0, NULL);
	h2emv_snap_get_info(&info, s);
	h2emv_snap_close(s);
	uint64_t ib = 0, nb = 0;
	eng_read *r;
	if (eng_read_begin(&r, m->env, NULL) == H2EMV_OK) {
		eng_index_bytes(&ib, &nb, r);
		eng_read_end(r);
	}
	printf("\n%zu observations, %llu L3+ nodes (build %.2f s, %.0f obs/s)\n", n,
	       (unsigned long long)info.n_nodes, t_build, n / t_build);
	printf("   index %.2f MB, node records %.2f MB: %.1f %% %s (target <= 30 %%)\n", ib / 1e6,
	       nb / 1e6, nb ? 100.0 * ib / nb : 0, nb && ib * 10 <= nb * 3 ? "PASS" : "MISS");
	lat l[Q_KINDS];
	size_t agree[Q_KINDS] = { 0 }, checked[Q_KINDS] = { 0 }, all_n = 0;
	double *all_h = calloc(rounds * Q_KINDS, sizeof(double));
	double *all_f = calloc(rounds * Q_KINDS, sizeof(double));
	for (int k = 0; k < Q_KINDS; k++)
		l[k] = (lat){ calloc(rounds, sizeof(double)), calloc(rounds, sizeof(double)), 0 };
	ask_all(m, db, rounds, l, agree, checked, &all_n, all_h, all_f);
	printf("   %-15s %9s %9s %9s   %s\n", "question", "p50", "p90", "p99",
	       "h2emv / FTS5 (ratio), agreement");
	for (int k = 0; k < Q_KINDS; k++) {
		double h50 = pct(l[k].h, l[k].n, .5), f50 = pct(l[k].f, l[k].n, .5);
		double h90 = pct(l[k].h, l[k].n, .9), f90 = pct(l[k].f, l[k].n, .9);
		double h99 = pct(l[k].h, l[k].n, .99), f99 = pct(l[k].f, l[k].n, .99);
		printf("   %-15s %8.2fx %8.2fx %8.2fx   p50 %.3f ms vs %.3f ms", kind_names[k], h50 / f50,
		       h90 / f90, h99 / f99, h50 * 1e3, f50 * 1e3);
		if (checked[k])
			printf(", agree %zu/%zu", agree[k], checked[k]);
		printf("\n");
		free(l[k].h);
		free(l[k].f);
	}
	double p99 = pct(all_h, all_n, .99);
	printf("   all questions: h2emv p50 %.3f ms p90 %.3f ms p99 %.3f ms; FTS5 p50 %.3f ms\n",
	       pct(all_h, all_n, .5) * 1e3, pct(all_h, all_n, .9) * 1e3, p99 * 1e3,
	       pct(all_f, all_n, .5) * 1e3);
	free(all_h);
	free(all_f);
	sqlite3_close(db);
	h2emv_mem_close(m);
	for (size_t i = 0; i < n; i++)
		free(v[i].json);
	free(v);
}

int main(int argc, char **argv)
{
	size_t rounds = 40;
	int big = 0, keep = 0;
	unsigned seed = 1;
	const char *dir = NULL, *sizes_arg = NULL;
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' }, { "sizes", required_argument, NULL, 'z' },
		{ "100k", no_argument, NULL, 'b' },         { "dir", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },   { "help", no_argument, NULL, 'h' },
		{ "keep", no_argument, NULL, 'k' },         { 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "r:z:bd:s:hk", opts, NULL)) != -1) {
		switch (c) {
		case 'r': rounds = strtoull(optarg, NULL, 10); break;
		case 'z': sizes_arg = optarg; break;
		case 'b': big = 1; break;
		case 'd': dir = optarg; break;
		case 's': seed = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'k': keep = 1; break;
		case 'h':
			puts("usage: bench_index [--rounds R] [--sizes 1000,10000,50000] [--100k] [--dir DIR] [--keep]\n"
			     "Questions through the term index against SQLite FTS5 over the same\n"
			     "observations: latency ratios, agreement of counts and times, index size.");
			return 0;
		default: return 2;
		}
	}
	char tmpl[] = "/tmp/h2emv-bench-index-XXXXXX";
	if (!dir && !(dir = mkdtemp(tmpl)))
		return 2;
	printf("bench_index — h2emv %s, SQLite %s (FTS5), %zu rounds of %d questions\ncommand:",
	       H2EMV_VERSION_STRING, sqlite3_libversion(), rounds, Q_KINDS);
	for (int i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	size_t sizes[8] = { 1000, 10000, 50000, 100000 }, n_sizes = big ? 4 : 3;
	if (sizes_arg) {
		n_sizes = 0;
		for (char *p = (char *)sizes_arg; *p && n_sizes < 8; p += *p == ',')
			sizes[n_sizes++] = strtoull(p, &p, 10);
	}
	for (size_t i = 0; i < n_sizes; i++)
		run_size(dir, sizes[i], rounds, seed);
	if (keep) {
		printf("kept: %s\n", dir);
		return 0;
	}
	char cmd[4300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return 0;
}
