/*
 * bench_storage.c — the storage engine against SQLite doing the same work
 * in the same run: durable ingest at batch 1 and 1,000, snapshot open plus
 * a full read of a tree, and the stored size of an observation against its
 * JSON line. Runs of the two sides alternate so machine noise hits both;
 * each figure is the median of --repeat runs. Prints a table, then one
 * "RATIO <metric> <h2emv/SQLite>" line per metric and one "TARGET" line
 * per target the project has set itself (README, DESIGN.md §10).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/baseline_sqlite.h"
#include "bench/bench_storage.h"
#include "bench/bench_util.h"
#include "bench/obsgen.h"

/* The project's targets. */
#define TARGET_INGEST 2.0  /* batched ingest >= 2x SQLite's rate, same parse */
#define TARGET_INGEST_VALID 1.0 /* ... and >= SQLite storing raw lines with json_valid */
#define TARGET_INGEST_B1 1.0    /* one at a time >= SQLite, same parse */
#define TARGET_PARSE_US 4.0     /* parse + validate a ~550-byte observation */
#define TARGET_SNAP 5.0    /* snapshot open + full read >= 5x SQLite's speed */
#define TARGET_SIZE 0.40   /* stored observation <= 40% of its JSON line */

static void usage(FILE *f)
{
	fputs("usage: bench_storage [--n N] [--tree-nodes N] [--dir DIR] [--repeat R] [--seed S]\n"
	      "\n"
	      "Measures h2emv's storage engine against SQLite doing the same work, in the\n"
	      "same run, and prints absolute figures, ratios h2emv/SQLite and PASS/MISS\n"
	      "against the project's targets.\n"
	      "\n"
	      "  --n N           observations to ingest (default 20000; batch 1 uses\n"
	      "                  max(500, N/10) of them)\n"
	      "  --tree-nodes N  nodes in the snapshot tree (default 10000, at least 6)\n"
	      "  --dir DIR       where stores are written: DIR/h2emv-bench, created empty\n"
	      "                  and removed at the end (default: a fresh mkdtemp directory\n"
	      "                  under $TMPDIR or /tmp, removed at the end)\n"
	      "  --repeat R      runs per side, alternating, median reported (default 3)\n"
	      "  --seed S        seed of the synthetic data (default 1)\n"
	      "  --help          this text\n",
	      f);
}

static size_t parse_size(const char *s, const char *opt, size_t min)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || v < min || v > (1ull << 32))
		bench_die("%s wants a whole number >= %zu, got '%s'", opt, min, s);
	return (size_t)v;
}

static void parse_opts(opts *o, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "n", required_argument, NULL, 'n' },     { "tree-nodes", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'd' },   { "repeat", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },  { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (opts){ .n = 20000, .tree_nodes = 10000, .repeat = 3, .seed = 1 };
	int c;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'n': o->n = parse_size(optarg, "--n", 10); break;
		case 't': o->tree_nodes = parse_size(optarg, "--tree-nodes", 6); break;
		case 'd': o->dir = optarg; break;
		case 'r': o->repeat = (int)parse_size(optarg, "--repeat", 1); break;
		case 's': o->seed = parse_size(optarg, "--seed", 0); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind < argc) {
		usage(stderr);
		exit(2);
	}
}

static void print_command(int argc, char **argv)
{
	printf("command:");
	for (int i = 0; i < argc; i++)
		printf(strpbrk(argv[i], " \t'\"") ? " '%s'" : " %s", argv[i]);
	printf("\n");
}

/* ------------------------------------------------------------ scratch -- */

static char g_root[3000];

static void scratch_remove(void)
{
	if (g_root[0] && bench_rmtree(g_root) != 0)
		fprintf(stderr, "bench_storage: could not remove %s\n", g_root);
}

static void scratch_init(const opts *o)
{
	if (o->dir) {
		struct stat st;
		mkdir(o->dir, 0755); /* it may exist already */
		if (stat(o->dir, &st) != 0 || !S_ISDIR(st.st_mode))
			bench_die("--dir %s: not a directory and cannot be created", o->dir);
		snprintf(g_root, sizeof g_root, "%s/h2emv-bench", o->dir);
		if (bench_rmtree(g_root) != 0 || mkdir(g_root, 0755) != 0)
			bench_die("cannot create %s", g_root);
	} else {
		const char *tmp = getenv("TMPDIR");
		snprintf(g_root, sizeof g_root, "%s/h2emv-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(g_root))
			bench_die("mkdtemp %s failed", g_root);
	}
	atexit(scratch_remove); /* also when bench_die ends the run */
}

const char *scratch_dir(const char *name)
{
	static char path[3100];
	if (bench_subdir(path, sizeof path, g_root, name) != 0)
		bench_die("cannot create %s/%s", g_root, name);
	return path;
}

/* ------------------------------------------------------------- report -- */

static const char *verdict(int pass)
{
	return pass ? "PASS" : "MISS";
}

#define ROW "%-48s %12.0f %12.0f %8.2f"

/* A rate row, and below it the same without the dictionary training. */
static void rate_rows(const char *label, const rates *r, const char *target, const char *result)
{
	printf(ROW "  %-8s %s\n", label, r->h2emv, r->sqlite, r->h2emv / r->sqlite, target, result);
	if (r->train_ms <= 0)
		return;
	char l[80];
	snprintf(l, sizeof l, "  without the slowest-chunk excess (%.0f ms)", r->train_ms);
	printf(ROW "\n", l, r->h2emv_steady, r->sqlite, r->h2emv_steady / r->sqlite);
}

/* The two raw-line SQLite baselines below a full-ingest row. */
static void baseline_rows(const rates *r, int with_targets)
{
	double rv = r->h2emv / r->sqlite_valid;
	printf(ROW "  %-8s %s\n", "  SQLite raw line + CHECK(json_valid) (obs/s)", r->h2emv,
	       r->sqlite_valid, rv, with_targets ? ">= 1x" : "-",
	       with_targets ? verdict(rv >= TARGET_INGEST_VALID) : "-");
	printf(ROW "\n", "  SQLite raw line, no check (obs/s)", r->h2emv, r->sqlite_raw,
	       r->h2emv / r->sqlite_raw);
}

static void ingest_rows(const ingest_result *b1000, const ingest_result *b1)
{
	double r1000 = b1000->full.h2emv / b1000->full.sqlite;
	rate_rows("ingest, batch 1000, SQLite same parse (obs/s)", &b1000->full, ">= 2x",
	          verdict(r1000 >= TARGET_INGEST));
	baseline_rows(&b1000->full, 1);
	double us_h = 1e6 / b1000->full.h2emv, us_s = 1e6 / b1000->full.sqlite;
	double us_p = 1e6 / b1000->parse_rate;
	printf("%-48s %12.2f %12.2f\n", "  us per observation", us_h, us_s);
	printf("%-48s %12.2f %12.2f\n", "  of which obs_from_json (shared; run alone)", us_p, us_p);
	printf("%-48s %12.2f %12.2f %8.2f\n", "  the rest: storage (total - parse)", us_h - us_p,
	       us_s - us_p, (us_s - us_p) / (us_h - us_p));
	printf("%-48s %12s %12s %8.2f\n", "  ratio ceiling if h2emv's storage were free", "", "",
	       us_s / us_p);
	rate_rows("  storage alone, parsed bodies in (obs/s)", &b1000->store, "", "");
	char label[64];
	double r1 = b1->full.h2emv / b1->full.sqlite;
	snprintf(label, sizeof label, "ingest, batch 1 (obs/s; %zu obs)", b1->n);
	rate_rows(label, &b1->full, ">= 1x", verdict(r1 >= TARGET_INGEST_B1));
	baseline_rows(&b1->full, 0);
	printf("%-48s %12.2f %12s %8s  %-8s %s\n", "parse + validate, all lines (us/obs)", us_p, "",
	       "", "-", "-");
	printf("%-48s %12.1f\n", "  the same in MB of JSON per second", b1000->parse_mbs);
	char l550[64];
	snprintf(l550, sizeof l550, "parse + validate, %.0f-byte lines (CPU us/obs)",
	         b1000->parse_len_550);
	printf("%-48s %12.2f %12s %8s  %-8s %s\n", l550, b1000->parse_us_550, "", "", "<= 4",
	       verdict(b1000->parse_us_550 > 0 && b1000->parse_us_550 <= TARGET_PARSE_US));
	printf("%-48s %12.1f\n", "  the same in MB of JSON per second",
	       b1000->parse_len_550 / b1000->parse_us_550);
}

static void tree_rows(const tree_result *tr)
{
	double rsnap = tr->sqlite_ms / tr->h2emv_ms;
	char label[64];
	snprintf(label, sizeof label, "snapshot open + full read (ms; %zu nodes)", tr->nodes);
	printf("%-48s %12.3f %12.3f %8.2f  %-8s %s\n", label, tr->h2emv_ms, tr->sqlite_ms, rsnap,
	       ">= 5x", verdict(rsnap >= TARGET_SNAP));
	printf("%-48s %12.3f %12.3f\n", "  us per node", tr->h2emv_ms * 1e3 / (double)tr->nodes,
	       tr->sqlite_ms * 1e3 / (double)tr->nodes);
	printf("%-48s %12.3f %12.3f\n", "  of which node_decode (shared; run alone; ms)",
	       tr->decode_ms, tr->decode_ms);
	printf("%-48s %12.3f %12.3f %8.2f\n", "  the rest: open, lookups, checks (ms)",
	       tr->h2emv_ms - tr->decode_ms, tr->sqlite_ms - tr->decode_ms,
	       (tr->sqlite_ms - tr->decode_ms) / (tr->h2emv_ms - tr->decode_ms));
	printf("%-48s %12s %12s %8.2f\n", "  ratio ceiling if h2emv's rest were free", "", "",
	       tr->sqlite_ms / tr->decode_ms);
}

/* Stored / JSON after the dictionary; 0 when no record was written after
 * it (a run too short to train one). */
static double size_ratio(const size_result *z)
{
	return z->dicts > 1 && z->post_to > z->post_from ? z->rec_post / z->json_post : 0;
}

static int size_ok(const size_result *z)
{
	return size_ratio(z) > 0 && size_ratio(z) <= TARGET_SIZE;
}

static void size_section(const size_result *z)
{
	char pre[48], post[48];
	snprintf(pre, sizeof pre, "1-%zu", z->pre_to);
	if (z->post_to > z->post_from)
		snprintf(post, sizeof post, "%zu-%zu", z->post_from + 1, z->post_to);
	else
		snprintf(post, sizeof post, "none");
	printf("\nObservation size (averages in bytes)\n");
	printf("  %-46s %12s %12s\n", "", "default dict", "own dict");
	printf("  %-46s %12s %12s\n", "observations (seq range)", pre, post);
	printf("  %-46s %12.1f %12.1f\n", "JSON line", z->json_pre, z->json_post);
	printf("  %-46s %12.1f %12.1f\n", "msgpack body (obs_from_json)", z->body_pre,
	       z->body_post);
	printf("  %-46s %12.1f %12.1f\n", "stored record (16 B header + payload)", z->rec_pre,
	       z->rec_post);
	printf("  %-46s %11.1f%% %11.1f%%\n", "stored / JSON", 100 * z->rec_pre / z->json_pre,
	       100 * size_ratio(z));
	printf("  target: stored observation <= %.0f%% of its JSON line with the memory's own dictionary:"
	       " %s%s\n",
	       TARGET_SIZE * 100, verdict(size_ok(z)),
	       z->dicts > 1 ? "" : " (gc trained no dictionary: --n too small?)");
}

static void report(const opts *o, const ingest_result *b1000, const ingest_result *b1,
                   const tree_result *tr, const size_result *z)
{
	double r1000 = b1000->full.h2emv / b1000->full.sqlite;
	double rsnap = tr->sqlite_ms / tr->h2emv_ms;
	double rsize = size_ratio(z);
	double h_file = (double)z->used_bytes / (double)o->n;
	double rfile = h_file / z->sqlite_file_per_obs;

	printf("\nResults (median of %d runs per side; ratio = h2emv / SQLite: higher is better\n"
	       "for h2emv in the speed rows, lower in the size row)\n\n",
	       o->repeat);
	printf("%-48s %12s %12s %8s  %-8s %s\n", "metric", "h2emv", "SQLite", "ratio", "target",
	       "result");
	ingest_rows(b1000, b1);
	tree_rows(tr);
	printf("%-48s %12.1f %12.1f %8.2f  %-8s %s\n",
	       "disk per observation (B; LMDB pages / file)", h_file, z->sqlite_file_per_obs, rfile,
	       "-", "-");
	size_section(z);

	printf("\nTree: %zu nodes (", tr->nodes);
	for (int l = 1; l <= 6; l++)
		printf("%sL%d %zu", l > 1 ? ", " : "", l, tr->per_level[l]);
	printf("; L6 = root); node body avg %.1f B, h2emv stored record avg %.1f B, %llu zstd"
	       " dictionaries in its store; %zu timed pairs\n",
	       tr->body_avg, (double)tr->node_bytes / (double)tr->nodes,
	       (unsigned long long)tr->dicts, tr->pairs);

	printf("\nRATIO ingest_batch1000 %.3f\n", r1000);
	printf("RATIO ingest_batch1000_vs_json_valid %.3f\n",
	       b1000->full.h2emv / b1000->full.sqlite_valid);
	printf("RATIO ingest_batch1000_vs_raw %.3f\n", b1000->full.h2emv / b1000->full.sqlite_raw);
	printf("RATIO ingest_batch1 %.3f\n", b1->full.h2emv / b1->full.sqlite);
	printf("RATIO ingest_batch1_vs_json_valid %.3f\n", b1->full.h2emv / b1->full.sqlite_valid);
	printf("RATIO ingest_batch1_vs_raw %.3f\n", b1->full.h2emv / b1->full.sqlite_raw);
	printf("RATIO storage_only_batch1000 %.3f\n", b1000->store.h2emv / b1000->store.sqlite);
	printf("RATIO snap_open_read %.3f\n", rsnap);
	printf("RATIO obs_stored_vs_json %.3f\n", rsize);
	printf("RATIO disk_per_obs %.3f\n", rfile);
	printf("TARGET ingest_batch1000 >=%.1f %.3f %s\n", TARGET_INGEST, r1000,
	       verdict(r1000 >= TARGET_INGEST));
	double rv = b1000->full.h2emv / b1000->full.sqlite_valid;
	printf("TARGET ingest_batch1000_vs_json_valid >=%.1f %.3f %s\n", TARGET_INGEST_VALID, rv,
	       verdict(rv >= TARGET_INGEST_VALID));
	double r1 = b1->full.h2emv / b1->full.sqlite;
	printf("TARGET ingest_batch1 >=%.1f %.3f %s\n", TARGET_INGEST_B1, r1,
	       verdict(r1 >= TARGET_INGEST_B1));
	printf("TARGET parse_us_550 <=%.1f %.3f %s\n", TARGET_PARSE_US, b1000->parse_us_550,
	       verdict(b1000->parse_us_550 > 0 && b1000->parse_us_550 <= TARGET_PARSE_US));
	printf("TARGET snap_open_read >=%.1f %.3f %s\n", TARGET_SNAP, rsnap,
	       verdict(rsnap >= TARGET_SNAP));
	printf("TARGET obs_stored_vs_json <=%.2f %.3f %s\n", TARGET_SIZE, rsize, verdict(size_ok(z)));
}

static void print_header(const opts *o, int argc, char **argv, size_t n1)
{
	printf("bench_storage — h2emv %s storage engine against SQLite %s, same workload, same run\n",
	       H2EMV_VERSION_STRING, sqlb_version());
	print_command(argc, argv);
	bench_print_machine(stdout);
	printf("settings: n %zu, batch-1 n %zu (fewer, to keep the run short), tree nodes %zu,"
	       " repeat %d, seed %llu\n",
	       o->n, n1, o->tree_nodes, o->repeat, (unsigned long long)o->seed);
	printf("stores in: %s (removed at the end)\n", g_root);
	printf("ingest: both sides on fresh stores in the same run, interleaved: each batch (50\n"
	       "  lines at batch 1) goes to one side then the other, the order swapping each time.\n"
	       "h2emv: durable (fsync per commit, default options), the default zstd dictionary\n"
	       "  for observations from the first record (gc trains the memory's own after %d:\n"
	       "  the size section only); the tree committed in snapshots of %d nodes, oldest\n"
	       "  first.\n"
	       "SQLite: WAL, synchronous=FULL, one transaction per batch, prepared statements;\n"
	       "  three baselines: the same obs_from_json parse per line (msgpack BLOB), the raw\n"
	       "  line as TEXT with CHECK(json_valid), the raw line alone; each time includes a\n"
	       "  final passive checkpoint; tree stored as node_encode bodies (msgpack, uncompressed), read\n"
	       "  with cache_size=64 MiB and mmap_size=256 MiB, decoded with node_decode.\n",
	       DICT_TRAIN_AFTER, TREE_COMMIT_CHUNK);
}

int main(int argc, char **argv)
{
	opts o;
	parse_opts(&o, argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	double t_start = bench_now();
	size_t n1 = o.n / 10 > 500 ? o.n / 10 : 500;
	if (n1 > o.n)
		n1 = o.n;
	scratch_init(&o);
	print_header(&o, argc, argv, n1);

	obs_set obs;
	if (obsgen_make(&obs, o.n, o.seed))
		bench_die("out of memory generating observations");
	size_t lmin = SIZE_MAX, lmax = 0;
	for (size_t i = 0; i < obs.n; i++) {
		lmin = obs.len[i] < lmin ? obs.len[i] : lmin;
		lmax = obs.len[i] > lmax ? obs.len[i] : lmax;
	}
	printf("observations: %zu JSON lines, avg %.1f B (min %zu, max %zu)\n", obs.n,
	       (double)obs.bytes / (double)obs.n, lmin, lmax);

	char kept_db[3200];
	snprintf(kept_db, sizeof kept_db, "%s/sqlite-b1000.db", g_root);
	fprintf(stderr, "ingest, batch 1000 ...\n");
	ingest_result b1000 = ingest_compare(&o, &obs, o.n, 1000, kept_db);
	double parse_secs = parse_only_secs(&o, &obs, o.n);
	b1000.parse_rate = (double)o.n / parse_secs;
	b1000.parse_mbs = (double)obs.bytes / parse_secs / 1e6;
	b1000.parse_us_550 = parse_us_near(&o, &obs, 550, &b1000.parse_len_550);
	fprintf(stderr, "storage alone, batch 1000 ...\n");
	storage_compare(&b1000, &o, &obs);
	fprintf(stderr, "ingest, batch 1 ...\n");
	ingest_result b1 = ingest_compare(&o, &obs, n1, 1, NULL);
	fprintf(stderr, "record sizes ...\n");
	size_result z = measure_sizes(&obs, o.n);
	z.sqlite_file_per_obs = (double)sqlb_file_bytes(kept_db) / (double)o.n;
	fprintf(stderr, "snapshot open + full read ...\n");
	tree_result tr = tree_compare(&o);

	report(&o, &b1000, &b1, &tr, &z);
	obs_set_free(&obs);
	printf("\ntotal time %.1f s\n", bench_now() - t_start);
	return 0;
}
