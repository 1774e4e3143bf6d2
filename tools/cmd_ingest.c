/*
 * cmd_ingest.c — `h2emv ingest`: append observations given as JSON Lines
 * (from files or stdin) to the memory's log. Lines are validated strictly
 * and held to the memory's clock; good lines are stored in durable batches,
 * so everything acknowledged before a bad line or a crash is kept.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv ingest [options] [FILE ...]\n"
	"\n"
	"Append observations, one JSON object per line (docs/formats.md), from each\n"
	"FILE or from standard input ('-' or no FILE). Every line is validated\n"
	"strictly: an unknown or mistyped field, a bad time, invalid UTF-8 or a line\n"
	"over 1 MiB is an error naming the line, column and field. Blank lines are\n"
	"skipped. Good lines are stored in durable batches: when ingest stops, at a\n"
	"bad line or otherwise, every line before it is on disk. On a stream (a pipe\n"
	"from the robot) a batch is stored as soon as no more input is waiting.\n"
	"\n"
	"Clock discipline: a line whose t (or t_end) is more than the memory's\n"
	"max-clock-jump (default 30d; see h2emv config) ahead of the memory's clock\n"
	"(the newest time stored, or of the lines before it) or of this computer's\n"
	"clock is a bad line, named with its line and field: a robot whose clock is\n"
	"not yet synchronised must not make the memory forget its history. Lines\n"
	"earlier than the memory's clock are stored and counted as out of order\n"
	"(the tree places them at the clock's time).\n"
	"\n"
	"Idempotent resends: a line with an \"id\" already stored is a duplicate,\n"
	"reported (--ack, the summary) with the seq it has and not stored twice; an\n"
	"id stored with different content is a bad line.\n"
	"\n"
	"  -m, --mem DIR      the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --create       create the memory if it does not exist\n"
	"  -b, --batch N      lines per durable batch (default 1000)\n"
	"  -k, --skip-bad     report bad lines on stderr and go on (exit 1 at the end)\n"
	"  -n, --dry-run      validate the format only (not the times against the\n"
	"                     clock); store nothing\n"
	"      --allow-clock-jump\n"
	"                     accept times however far ahead (the robot really was\n"
	"                     off longer than max-clock-jump); they move the clock\n"
	"  -a, --ack          after each durable batch, one JSON line on stdout:\n"
	"                     {\"file\",\"line\",\"stored\",\"first_seq\",\"last_seq\",\n"
	"                     \"duplicates\",\"dup\":[{\"line\",\"seq\"}...]} - every line up\n"
	"                     to \"line\" is on disk (docs/formats.md, \"Acknowledged\n"
	"                     ingest\"); a robot resends what follows after a crash\n"
	"  -q, --quiet        no progress bar, no summary\n"
	"      --json         print the summary as JSON on stdout (stored, bad, blank,\n"
	"                     first_seq, last_seq, out_of_order, duplicates, dry_run)\n"
	"  -h, --help         this help\n"
	"\n"
	"exit status: 0 all lines stored; 1 bad lines were skipped (--skip-bad);\n"
	"2 stopped at a bad line or an error (lines before it are stored).\n";

typedef struct batch {
	char **lines;
	size_t *lens;
	uint64_t *lineno; /* each line's number in its file */
	size_t n, cap;
} batch;

typedef struct ingest {
	h2emv_mem *mem;
	batch b;
	h2emv_ingest_item *items; /* b.cap slots: what became of each line */
	int skip_bad, dry_run, quiet, json, allow_jump, ack;
	uint64_t stored, bad, blank, first_seq, last_seq, out_of_order, duplicates;
	cli_progress progress;
} ingest;

/* One acknowledgement: lines [from, to) of the batch are durable. */
static int print_ack(const ingest *g, const char *name, size_t from, size_t to,
                     const h2emv_ingest_result *res)
{
	json_t *dup = json_array();
	for (size_t i = from; dup && i < to; i++)
		if (g->items[i - from].duplicate &&
		    json_array_append_new(dup, json_pack("{s:I,s:I}", "line", (json_int_t)g->b.lineno[i],
		                                         "seq", (json_int_t)g->items[i - from].seq))) {
			json_decref(dup);
			dup = NULL;
		}
	int rc = cli_print_json(json_pack(
		"{s:o,s:I,s:I,s:I,s:I,s:I,s:o}", "file", cli_json_text(name), "line",
		(json_int_t)g->b.lineno[to - 1], "stored", (json_int_t)res->stored, "first_seq",
		(json_int_t)(res->stored ? res->first_seq : 0), "last_seq",
		(json_int_t)(res->stored ? res->first_seq + res->stored - 1 : 0), "duplicates",
		(json_int_t)res->duplicates, "dup", dup));
	/* the robot waits for this line: never leave it in a buffer */
	if (fflush(stdout) != 0)
		rc = EXIT_ERROR;
	return rc;
}

/* Read one line of at most `max` bytes. Longer lines are consumed to their
 * end and reported with *too_long. Returns 0 at end of input. */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len, size_t max, int *too_long,
                     uint64_t *bytes)
{
	size_t n = 0;
	int c, any = 0;
	*too_long = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		any = 1;
		(*bytes)++;
		if (c == '\n')
			break;
		if (n >= max) {
			*too_long = 1;
			continue;
		}
		if (n + 1 >= *cap) {
			size_t nc = *cap ? *cap * 2 : 4096;
			char *p = realloc(*buf, nc);
			if (!p)
				return -1;
			*buf = p;
			*cap = nc;
		}
		(*buf)[n++] = (char)c;
	}
	if (!any)
		return 0;
	if (n && (*buf)[n - 1] == '\r')
		n--;
	if (*buf)
		(*buf)[n] = 0;
	*len = n;
	return 1;
}

static void report_bad(ingest *g, const char *name, uint64_t lineno, const h2emv_error *err,
                       int status)
{
	g->bad++;
	/* the message names the line (and column and field) itself */
	if (err->message[0])
		fprintf(stderr, "%s: %s\n", name, err->message);
	else
		fprintf(stderr, "%s: line %llu: %s\n", name, (unsigned long long)lineno,
		        h2emv_strerror(status));
}

static void drop_lines(batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->lines[i]);
	b->n = 0;
}

/* Store lines [from, to) of the batch durably (validate them only, with
 * --dry-run). On an error about one line, *failed is its index in [from,
 * to) counted from `from`. */
static int store(ingest *g, const char *name, size_t from, size_t to, h2emv_error *err,
                 size_t *failed)
{
	*failed = to - from;
	if (from == to)
		return H2EMV_OK;
	if (g->dry_run) { /* counted only when all are good, as a stored batch is */
		for (size_t i = from; i < to; i++) {
			int rc = h2emv_obs_validate(g->b.lines[i], g->b.lens[i], g->b.lineno[i], err);
			if (rc) {
				*failed = i - from;
				return rc;
			}
		}
		g->stored += to - from;
		return H2EMV_OK;
	}
	h2emv_ingest_options o = H2EMV_INGEST_OPTIONS_INIT;
	o.flags = g->allow_jump ? H2EMV_INGEST_ALLOW_CLOCK_JUMP : 0;
	o.lines = g->b.lineno + from; /* messages name the file's line numbers */
	o.items = g->items;
	h2emv_ingest_result res;
	int rc = h2emv_ingest_opts(&res, g->mem, (const char *const *)g->b.lines + from,
	                           g->b.lens + from, to - from, &o, err);
	if (rc == H2EMV_OK) {
		if (res.stored) {
			if (!g->first_seq)
				g->first_seq = res.first_seq;
			g->last_seq = res.first_seq + res.stored - 1;
		}
		g->stored += res.stored;
		g->duplicates += res.duplicates;
		g->out_of_order += res.out_of_order;
		if (g->ack && print_ack(g, name, from, to, &res) != EXIT_OK) {
			snprintf(err->message, sizeof err->message,
			         "lines up to %llu are stored but their acknowledgement could not be "
			         "written to stdout", (unsigned long long)g->b.lineno[to - 1]);
			return err->status = H2EMV_EIO;
		}
	} else {
		*failed = res.failed;
	}
	return rc;
}

/* Store the queued lines. Lines are validated and held to the clock once,
 * inside the ingest call; when one is bad, the lines before it are stored,
 * the bad one is reported, and the rest follow only with --skip-bad (judged
 * against a clock the bad line did not move). */
static int flush(ingest *g, const char *name)
{
	size_t start = 0;
	int rc = EXIT_OK;
	while (start < g->b.n) {
		h2emv_error err = { 0 }, err2 = { 0 };
		size_t failed;
		int src = store(g, name, start, g->b.n, &err, &failed);
		if (src == H2EMV_OK)
			break;
		size_t bad = start + failed;
		if ((src != H2EMV_EPARSE && src != H2EMV_ELIMIT && src != H2EMV_EEXIST) ||
		    bad >= g->b.n) {
			rc = cli_fail("ingest", src, &err);
			break;
		}
		int bad_status = src;
		if ((src = store(g, name, start, bad, &err2, &failed)) != H2EMV_OK) {
			rc = cli_fail("ingest", src, &err2);
			break;
		}
		report_bad(g, name, g->b.lineno[bad], &err, bad_status);
		if (!g->skip_bad) {
			rc = EXIT_ERROR;
			break;
		}
		start = bad + 1;
	}
	drop_lines(&g->b);
	return rc;
}

/* Queue a validated line; the caller flushes when the batch is full. */
static int add(ingest *g, const char *line, size_t len, uint64_t lineno)
{
	char *copy = malloc(len + 1);
	if (!copy)
		return EXIT_ERROR;
	memcpy(copy, line, len);
	copy[len] = 0;
	g->b.lines[g->b.n] = copy;
	g->b.lens[g->b.n] = len;
	g->b.lineno[g->b.n] = lineno;
	g->b.n++;
	return EXIT_OK;
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* Is more input ready without blocking? On a live stream a batch is stored
 * as soon as the robot pauses, so acknowledgements never wait for a full
 * batch. (glibc: bytes already in the FILE buffer count as ready.) */
static int input_waiting(FILE *f)
{
	if (f->_IO_read_ptr < f->_IO_read_end) /* glibc: bytes already buffered */
		return 1;
	struct pollfd p = { fileno(f), POLLIN, 0 };
	return poll(&p, 1, 0) > 0;
}

static int ingest_file(ingest *g, FILE *f, const char *name, uint64_t size)
{
	char *buf = NULL;
	size_t cap = 0, len = 0;
	uint64_t lineno = 0, bytes = 0;
	int too_long, r, rc = EXIT_OK;
	while (rc == EXIT_OK && (r = read_line(f, &buf, &cap, &len, H2EMV_OBS_MAX_BYTES, &too_long,
	                                       &bytes)) > 0) {
		lineno++;
		if (too_long) {
			h2emv_error err = { 0 };
			snprintf(err.message, sizeof err.message,
			         "line %llu is longer than the %u-byte limit for one observation",
			         (unsigned long long)lineno, H2EMV_OBS_MAX_BYTES);
			if ((rc = flush(g, name)) != EXIT_OK) /* earlier lines first */
				break;
			report_bad(g, name, lineno, &err, H2EMV_ELIMIT);
			if (!g->skip_bad) {
				rc = EXIT_ERROR;
				break;
			}
			continue;
		}
		if (is_blank(buf ? buf : "", len)) {
			g->blank++;
			continue;
		}
		if ((rc = add(g, buf, len, lineno)) != EXIT_OK)
			break;
		if (g->b.n >= g->b.cap || !input_waiting(f))
			rc = flush(g, name);
		cli_progress_show(&g->progress, size ? bytes : g->stored + g->b.n, size,
		                  size ? "B" : "lines");
	}
	if (r < 0)
		rc = cli_usage("ingest", "out of memory reading %s", name);
	if (rc == EXIT_OK && ferror(f)) {
		fprintf(stderr, "h2emv ingest: reading %s: %s\n", name, strerror(errno));
		rc = EXIT_ERROR;
	}
	if (rc == EXIT_OK)
		rc = flush(g, name);
	free(buf);
	return rc;
}

static int summary(const ingest *g)
{
	if (g->json)
		return cli_print_json(json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:b}", "stored", (json_int_t)g->stored, "bad",
			(json_int_t)g->bad, "blank", (json_int_t)g->blank, "first_seq",
			(json_int_t)g->first_seq, "last_seq", (json_int_t)g->last_seq, "out_of_order",
			(json_int_t)g->out_of_order, "duplicates", (json_int_t)g->duplicates, "dry_run",
			g->dry_run));
	if (g->quiet)
		return EXIT_OK;
	if (g->dry_run)
		fprintf(stderr, "%llu valid observations, %llu bad lines (dry run: nothing stored)\n",
		        (unsigned long long)g->stored, (unsigned long long)g->bad);
	else if (g->stored && !g->bad)
		fprintf(stderr, "stored %llu observations (seq %llu..%llu)\n",
		        (unsigned long long)g->stored, (unsigned long long)g->first_seq,
		        (unsigned long long)g->last_seq);
	else if (g->stored)
		fprintf(stderr, "stored %llu observations (seq %llu..%llu); %llu bad line%s%s\n",
		        (unsigned long long)g->stored, (unsigned long long)g->first_seq,
		        (unsigned long long)g->last_seq, (unsigned long long)g->bad,
		        g->bad == 1 ? "" : "s",
		        !g->bad ? "" : g->skip_bad ? " skipped" : ": stopped at the first");
	else if (g->bad || !g->duplicates)
		fprintf(stderr, "stored no observations; %llu bad lines\n", (unsigned long long)g->bad);
	if (g->duplicates)
		fprintf(stderr, "%llu duplicates (their ids were already stored) not stored again\n",
		        (unsigned long long)g->duplicates);
	if (g->out_of_order)
		fprintf(stderr,
		        "%llu of them out of order (earlier than the memory's clock; the tree "
		        "places them at the clock's time)\n",
		        (unsigned long long)g->out_of_order);
	return EXIT_OK;
}

/* Open the memory. Reading a pipe, a memory that is not there yet may be
 * being made by the program writing into it (`h2emv import armar -m DIR |
 * h2emv ingest -m DIR` records the profile, creating DIR, before its first
 * line): then wait for that first line, or the end of the input, and open
 * it again. A half-created memory is waited for by the open itself. */
static h2emv_mem *open_when_fed(const char *dir, unsigned flags, int from_stdin)
{
	if (from_stdin && !(flags & H2EMV_OPEN_CREATE) && !isatty(STDIN_FILENO)) {
		h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
		h2emv_mem *m = NULL;
		if (h2emv_mem_open(&m, dir, &o, NULL) == H2EMV_ENOTFOUND) {
			struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
			while (poll(&p, 1, -1) < 0 && errno == EINTR)
				;
		}
		h2emv_mem_close(m);
	}
	return cli_open(dir, flags);
}

int cmd_ingest(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' }, { "batch", required_argument, NULL, 'b' },
		{ "skip-bad", no_argument, NULL, 'k' },  { "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },     { "json", no_argument, NULL, 'j' },
		{ "create", no_argument, NULL, 'c' },    { "help", no_argument, NULL, 'h' },
		{ "allow-clock-jump", no_argument, NULL, 'J' },
		{ "ack", no_argument, NULL, 'a' },
		{ 0 },
	};
	ingest g = { 0 };
	const char *mem = NULL;
	uint64_t bsize = 1000;
	unsigned flags = 0;
	int c;
	while ((c = getopt_long(argc, argv, "m:b:knqah", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'b':
			if (cli_u64(&bsize, optarg) || bsize == 0 || bsize > 1000000)
				return cli_usage("ingest", "--batch takes a number from 1 to 1000000");
			break;
		case 'k': g.skip_bad = 1; break;
		case 'n': g.dry_run = 1; break;
		case 'q': g.quiet = 1; break;
		case 'j': g.json = 1; break;
		case 'c': flags |= H2EMV_OPEN_CREATE; break;
		case 'J': g.allow_jump = 1; break;
		case 'a': g.ack = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("ingest", "unknown option");
		}
	}
	if (g.ack && g.dry_run)
		return cli_usage("ingest", "--ack acknowledges stored lines; --dry-run stores none");
	/* the memory first: cli_open ends the process on a damaged store,
	 * which must not leave the batch buffers behind */
	int from_stdin = optind >= argc || !strcmp(argv[optind], "-");
	if (!g.dry_run && !(g.mem = open_when_fed(cli_mem_dir(mem), flags, from_stdin)))
		return EXIT_ERROR;
	g.b.cap = (size_t)bsize;
	g.items = calloc(g.b.cap, sizeof *g.items);
	g.b.lines = calloc(g.b.cap, sizeof *g.b.lines);
	g.b.lens = calloc(g.b.cap, sizeof *g.b.lens);
	g.b.lineno = calloc(g.b.cap, sizeof *g.b.lineno);
	int rc = EXIT_OK;
	if (!g.b.lines || !g.b.lens || !g.b.lineno || !g.items) {
		fprintf(stderr, "h2emv ingest: out of memory for a batch of %llu lines\n",
		        (unsigned long long)bsize);
		h2emv_mem_close(g.mem);
		free(g.b.lines);
		free(g.b.lens);
		free(g.b.lineno);
		free(g.items);
		return EXIT_ERROR;
	}
	cli_progress_begin(&g.progress, "ingest", g.quiet);
	if (optind >= argc)
		rc = ingest_file(&g, stdin, "<stdin>", 0);
	for (int i = optind; rc == EXIT_OK && i < argc; i++) {
		int is_stdin = !strcmp(argv[i], "-");
		FILE *f = is_stdin ? stdin : fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "h2emv ingest: cannot open %s: %s\n", argv[i], strerror(errno));
			rc = EXIT_ERROR;
			break;
		}
		struct stat st;
		uint64_t size = !is_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)
		                    ? (uint64_t)st.st_size
		                    : 0;
		rc = ingest_file(&g, f, is_stdin ? "<stdin>" : argv[i], size);
		if (!is_stdin)
			fclose(f);
	}
	cli_progress_end(&g.progress);
	int src = summary(&g);
	h2emv_mem_close(g.mem);
	free(g.b.lines);
	free(g.b.lens);
	free(g.b.lineno);
	free(g.items);
	if (rc == EXIT_OK && g.bad)
		rc = EXIT_FOUND;
	if (src != EXIT_OK && (rc == EXIT_OK || rc == EXIT_FOUND))
		rc = src; /* the summary could not be written */
	return rc;
}
