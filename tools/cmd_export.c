/*
 * cmd_export.c — `h2emv export`: one snapshot's tree as JSON, Graphviz or
 * a self-contained HTML page, or the observations of a time range as JSON
 * Lines. Only reads: the memory is opened read-only.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv export [-m DIR] [-f json|dot|html] [-o FILE]\n"
	"                    [--snapshot SEQ|PIN | --at TIME] [--node ID[.VER]] [--depth N]\n"
	"                    [--min-level N]\n"
	"       h2emv export [-m DIR] -f jsonl [--from TIME] [--to TIME] [-o FILE]\n"
	"\n"
	"Write one snapshot of the memory tree for programs and people, or the stored\n"
	"observations of a time range. The memory is only read (opened read-only), so\n"
	"an export can run beside ingest and the builder.\n"
	"\n"
	"  -f, --format F       json   the whole tree: every node's level, kind, version,\n"
	"                              time range, expiry, summary, typed facts, children\n"
	"                              and placeholder state, with the snapshot's record\n"
	"                              and the rules it saw (schema h2emv-export/1,\n"
	"                              docs/formats.md section 5); the default\n"
	"                       dot    Graphviz (levels as ranks, forgotten placeholders\n"
	"                              dashed): h2emv export -f dot | dot -Tsvg > tree.svg\n"
	"                       html   one self-contained page to open in a browser: the\n"
	"                              tree, a time axis, search, node details, the rules;\n"
	"                              file.html#q=WORDS opens with a search\n"
	"                       jsonl  the observations whose time t lies in [--from, --to),\n"
	"                              as stored (canonical JSON, one per line, in order);\n"
	"                              what retention reclaimed is skipped. The output can\n"
	"                              be ingested into another memory.\n"
	"  -o, --output FILE    write FILE (complete or not at all) instead of stdout\n"
	"  -s, --snapshot S     snapshot number S, or the snapshot pinned as S (default:\n"
	"                       the newest)\n"
	"      --pin NAME       the snapshot pinned as NAME\n"
	"      --at TIME        the memory as it was at TIME: the newest snapshot whose\n"
	"                       clock is not after it. TIME is RFC 3339, \"YYYY-MM-DD\n"
	"                       [HH:MM[:SS]]\" (UTC), or +DURATION after the memory's clock\n"
	"  -n, --node ID[.VER]  only the subtree under this node\n"
	"  -d, --depth N        only N levels below the top node\n"
	"      --min-level N    leave out nodes below level N (2 leaves out the scenes)\n"
	"      --no-facts       leave out typed facts and observations: a light export,\n"
	"                       several times faster on big trees\n"
	"      --from TIME      jsonl: the first time included (default: the beginning)\n"
	"      --to TIME        jsonl: the first time left out (default: no end)\n"
	"  -q, --quiet          no progress on stderr\n"
	"  -m, --mem DIR        the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -h, --help           this help\n"
	"\n"
	"examples:\n"
	"  h2emv export -f html -o memory.html\n"
	"  h2emv export --at 2024-09-25 --min-level 2 > tree.json\n"
	"  h2emv export -f jsonl --from 2024-09-23 --to 2024-09-24 > day.jsonl\n";

/* --------------------------------------------------------------- output -- */

/* The output: stdout, or FILE written under a temporary name beside it and
 * renamed when complete. */
typedef struct out {
	FILE *f;
	const char *path;
	char tmp[4200];
} out;

static int out_write(void *ctx, const void *data, size_t len)
{
	out *o = ctx;
	return fwrite(data, 1, len, o->f) == len ? 0 : -1;
}

static int out_open(out *o, const char *path)
{
	o->path = path;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	snprintf(o->tmp, sizeof o->tmp, "%s.partial-XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "h2emv export: cannot write beside %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* mkstemp's 0600 is for secrets, an export is not one */
	return 0;
}

/* Finish the output; `ok` says whether everything was written. */
static int out_close(out *o, int ok)
{
	if (!o->path) {
		if (fflush(stdout) != 0 && ok) {
			fprintf(stderr, "h2emv export: writing stdout: %s\n", strerror(errno));
			return -1;
		}
		return ok ? 0 : -1;
	}
	if (ok && (fflush(o->f) != 0 || fsync(fileno(o->f)) != 0)) {
		fprintf(stderr, "h2emv export: writing %s: %s\n", o->path, strerror(errno));
		ok = 0;
	}
	if (fclose(o->f) != 0 && ok) {
		fprintf(stderr, "h2emv export: writing %s: %s\n", o->path, strerror(errno));
		ok = 0;
	}
	if (ok && rename(o->tmp, o->path) != 0) {
		fprintf(stderr, "h2emv export: cannot write %s: %s\n", o->path, strerror(errno));
		ok = 0;
	}
	if (!ok)
		unlink(o->tmp);
	return ok ? 0 : -1;
}

/* ------------------------------------------------------------- snapshot -- */

/* --snapshot S: a number, else a pin's name. */
static int snapshot_named(uint64_t *seq, h2emv_mem *m, const char *s, h2emv_error *err)
{
	if (cli_u64(seq, s) == 0 && *seq)
		return H2EMV_OK;
	h2emv_pin *pins;
	size_t n;
	int rc = h2emv_pin_list(&pins, &n, m, err);
	if (rc)
		return rc;
	*seq = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pins[i].name, s))
			*seq = pins[i].seq;
	h2emv_free(pins);
	if (!*seq) {
		snprintf(err->message, sizeof err->message,
		         "'%s' is neither a snapshot number nor a pin (see h2emv snapshots)", s);
		return err->status = H2EMV_ENOTFOUND;
	}
	return H2EMV_OK;
}

typedef struct args {
	const char *mem, *output, *snapshot, *at, *node, *from, *to;
	h2emv_export_format format;
	int jsonl, quiet;
	h2emv_export_options o;
} args;

static int export_tree(args *a, h2emv_mem *m, out *o, h2emv_error *err)
{
	uint64_t seq = H2EMV_SNAP_LATEST;
	int rc = H2EMV_OK;
	if (a->snapshot) {
		rc = snapshot_named(&seq, m, a->snapshot, err);
	} else if (a->at) {
		h2emv_time t;
		if (cli_when(&t, m, a->at))
			return cli_usage("export", "--at: '%s' is not a time (try 2024-09-23T10:00:00Z)",
			                 a->at);
		rc = h2emv_snap_at(&seq, m, t, err);
	}
	h2emv_snap *snap = NULL;
	if (rc == H2EMV_OK)
		rc = h2emv_snap_open(&snap, m, seq, err);
	if (rc == H2EMV_ENOTFOUND && !a->snapshot && !a->at) {
		fprintf(stderr, "h2emv export: nothing has been built yet: run 'h2emv build' first\n");
		return EXIT_ERROR;
	}
	if (rc)
		return cli_fail("export", rc, err);
	cli_progress p;
	cli_progress_begin(&p, "export", a->quiet);
	a->o.format = a->format;
	a->o.progress = cli_progress_cb;
	a->o.progress_ctx = &p;
	rc = h2emv_snap_export(snap, out_write, o, &a->o, err);
	if (rc == H2EMV_OK && a->format == H2EMV_EXPORT_JSON && out_write(o, "\n", 1))
		rc = err->status = H2EMV_EIO; /* one line, as a text file ends */
	cli_progress_end(&p);
	h2emv_snap_close(snap);
	return rc ? cli_fail("export", rc, err) : EXIT_OK;
}

static int export_obs(args *a, h2emv_mem *m, out *o, h2emv_error *err)
{
	h2emv_time from = 0, to = 0;
	if (a->from && cli_when(&from, m, a->from))
		return cli_usage("export", "--from: '%s' is not a time", a->from);
	if (a->to && cli_when(&to, m, a->to))
		return cli_usage("export", "--to: '%s' is not a time", a->to);
	if (a->to && to <= from)
		return cli_usage("export", "--to must be after --from");
	cli_progress p;
	cli_progress_begin(&p, "export", a->quiet);
	uint64_t n = 0;
	int rc = h2emv_obs_export(&n, m, from, to, out_write, o, cli_progress_cb, &p, err);
	cli_progress_end(&p);
	if (rc)
		return cli_fail("export", rc, err);
	if (!a->quiet && a->output)
		fprintf(stderr, "%llu observation%s written to %s\n", (unsigned long long)n,
		        n == 1 ? "" : "s", a->output);
	return EXIT_OK;
}

/* ------------------------------------------------------------- options -- */

enum { OPT_PIN = 256, OPT_AT, OPT_MIN_LEVEL, OPT_FROM, OPT_TO, OPT_NO_FACTS };

static int parse(args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },      { "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },   { "snapshot", required_argument, NULL, 's' },
		{ "pin", required_argument, NULL, OPT_PIN },  { "at", required_argument, NULL, OPT_AT },
		{ "node", required_argument, NULL, 'n' },     { "depth", required_argument, NULL, 'd' },
		{ "min-level", required_argument, NULL, OPT_MIN_LEVEL },
		{ "from", required_argument, NULL, OPT_FROM }, { "to", required_argument, NULL, OPT_TO },
		{ "no-facts", no_argument, NULL, OPT_NO_FACTS },
		{ "quiet", no_argument, NULL, 'q' },          { "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t v;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:f:o:s:n:d:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': a->mem = optarg; break;
		case 'f':
			a->jsonl = !strcmp(optarg, "jsonl");
			a->format = !strcmp(optarg, "json") ? H2EMV_EXPORT_JSON
			          : !strcmp(optarg, "dot")  ? H2EMV_EXPORT_DOT
			          : !strcmp(optarg, "html") ? H2EMV_EXPORT_HTML : 0;
			if (!a->format && !a->jsonl)
				return cli_usage("export", "--format is json, dot, html or jsonl, not '%s'",
				                 optarg);
			break;
		case 'o': a->output = optarg; break;
		case 's':
		case OPT_PIN:
			if (a->snapshot)
				return cli_usage("export", "name one snapshot");
			a->snapshot = optarg;
			break;
		case OPT_AT: a->at = optarg; break;
		case 'n':
			if (cli_ref(&a->o.start, optarg))
				return cli_usage("export", "--node takes ID or ID.VERSION");
			a->node = optarg;
			break;
		case 'd':
			if (cli_u64(&v, optarg) || v > 64)
				return cli_usage("export", "--depth takes a number from 0 to 64");
			a->o.max_depth = (int)v;
			break;
		case OPT_MIN_LEVEL:
			if (cli_u64(&v, optarg) || v > 255)
				return cli_usage("export", "--min-level takes a level from 0 to 255");
			a->o.min_level = (int)v;
			break;
		case OPT_NO_FACTS: a->o.no_facts = 1; break;
		case OPT_FROM: a->from = optarg; break;
		case OPT_TO: a->to = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("export", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("export", "unexpected argument '%s'", argv[optind]);
	if (a->snapshot && a->at)
		return cli_usage("export", "give --snapshot/--pin or --at, not both");
	if (a->jsonl && (a->snapshot || a->at || a->node || a->o.max_depth >= 0 || a->o.min_level ||
	                 a->o.no_facts))
		return cli_usage("export", "jsonl exports observations: it takes --from and --to only");
	if (!a->jsonl && (a->from || a->to))
		return cli_usage("export", "--from and --to go with --format jsonl");
	return -1;
}

int cmd_export(int argc, char **argv)
{
	args a = { 0 };
	a.format = H2EMV_EXPORT_JSON;
	a.o = (h2emv_export_options)H2EMV_EXPORT_OPTIONS_INIT;
	int st = parse(&a, argc, argv);
	if (st >= 0)
		return st;
	h2emv_mem *m = cli_open(cli_mem_dir(a.mem), H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	out o = { 0 };
	if (out_open(&o, a.output)) {
		h2emv_mem_close(m);
		return EXIT_ERROR;
	}
	h2emv_error err = { 0 };
	st = a.jsonl ? export_obs(&a, m, &o, &err) : export_tree(&a, m, &o, &err);
	if (out_close(&o, st == EXIT_OK) && st == EXIT_OK)
		st = EXIT_ERROR;
	h2emv_mem_close(m);
	return st;
}
