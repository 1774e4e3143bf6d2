/*
 * cmd_salvage.c — `h2emv salvage SRC DST`: copy what is intact out of a
 * damaged memory into a new one and say what could not be saved.
 */
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv salvage [options] SRC DST\n"
	"\n"
	"Copy every readable, checksum-valid record of the memory in SRC (which may\n"
	"be damaged) into a new memory DST (which must not exist): observations,\n"
	"node versions, snapshots, pins, rules versions, configuration, dictionaries.\n"
	"SRC is read page by page by child processes, never through the database\n"
	"library, and never written; a reader that crashes loses only the page it\n"
	"was on. A snapshot whose tree reaches a lost node version, or that was\n"
	"built from observations that were lost, is dropped with its pins, so DST\n"
	"passes `h2emv check` and `h2emv build` resumes from the newest snapshot\n"
	"kept. Leaves that a damaged branch page cut off are looked for in the rest\n"
	"of the file (\"found cut off\"). Every loss is printed: the database, the\n"
	"damaged page and the range of keys under it, each record that failed its\n"
	"checksum. docs/damaged.md.\n"
	"\n"
	"  --json        one JSON object per loss, then a summary object\n"
	"  -q, --quiet   print the summary only\n"
	"  -h, --help    this help\n"
	"\n"
	"exit status: 0 everything was saved, 1 something was lost (DST is usable),\n"
	"2 error (DST exists, SRC has no data file, ...).\n";

typedef struct out {
	int json, quiet;
	int failed; /* a JSON line could not be written */
	uint64_t losses;
} out;

static void on_loss(void *ctx, const h2emv_violation *v)
{
	out *o = ctx;
	o->losses++;
	if (o->quiet)
		return;
	if (o->json) {
		json_t *j = json_pack("{s:o,s:o,s:o,s:o}", "loss", cli_json_text(v->rule), "db",
		                      cli_json_text(v->db ? v->db : ""), "key", cli_json_u64(v->key),
		                      "message", cli_json_text(v->message));
		if (cli_print_json(j) != EXIT_OK)
			o->failed = 1;
	} else {
		printf("lost: %-16s %-9s %s\n", v->rule, v->db ? v->db : "", v->message);
	}
}

/* --json's last line: {"summary": {...}}. */
static int summary_json(const h2emv_salvage_result *r, const out *o, int check_rc,
                        uint64_t problems)
{
	json_t *dbs = json_object();
	for (int i = 0; dbs && i < 16 && r->dbs[i].name; i++) {
		json_t *d = json_pack("{s:I,s:I,s:I,s:I,s:b}", "copied", (json_int_t)r->dbs[i].copied,
		                      "bad_records", (json_int_t)r->dbs[i].bad_records, "bad_pages",
		                      (json_int_t)r->dbs[i].bad_pages, "found_cut_off",
		                      (json_int_t)r->dbs[i].orphaned, "unreadable", r->dbs[i].unreadable);
		if (json_object_set_new(dbs, r->dbs[i].name, d)) {
			json_decref(dbs);
			dbs = NULL;
		}
	}
	return cli_print_json(json_pack(
		"{s:{s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:s?}}", "summary", "dbs", dbs,
		"reader_crashes", (json_int_t)r->reader_crashes, "snapshots_kept",
		(json_int_t)r->snapshots_kept, "newest_snapshot", (json_int_t)r->newest_snapshot,
		"snapshots_dropped", (json_int_t)r->snapshots_dropped, "pins_dropped",
		(json_int_t)r->pins_dropped, "versions_dropped", (json_int_t)r->versions_dropped,
		"dead_dropped", (json_int_t)r->dead_dropped, "losses", (json_int_t)o->losses, "check",
		check_rc ? NULL : problems ? "problems" : "ok"));
}

static int summary(const h2emv_salvage_result *r, const out *o, int check_rc, uint64_t problems)
{
	if (o->json)
		return summary_json(r, o, check_rc, problems);
	printf("%-10s %10s %12s %10s %14s\n", "database", "copied", "bad records", "bad pages",
	       "found cut off");
	for (int i = 0; i < 16 && r->dbs[i].name; i++)
		printf("%-10s %10" PRIu64 " %12" PRIu64 " %10" PRIu64 " %14" PRIu64 "%s\n",
		       r->dbs[i].name, r->dbs[i].copied, r->dbs[i].bad_records, r->dbs[i].bad_pages,
		       r->dbs[i].orphaned, r->dbs[i].unreadable ? "  (unreadable)" : "");
	printf("snapshots kept %" PRIu64 " (newest %" PRIu64 "), dropped %" PRIu64
	       "; pins dropped %" PRIu64 "; versions dropped %" PRIu64 "; reader crashes %" PRIu64
	       "\n",
	       r->snapshots_kept, r->newest_snapshot, r->snapshots_dropped, r->pins_dropped,
	       r->versions_dropped, r->reader_crashes);
	if (check_rc == 0)
		printf("check of the new memory: %s\n", problems ? "PROBLEMS (please report)" : "ok");
	return EXIT_OK;
}

int cmd_salvage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	out o = { 0 };
	int c;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': o.json = 1; break;
		case 'q': o.quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("salvage", "unknown option");
		}
	}
	if (argc - optind != 2)
		return cli_usage("salvage", "give the damaged memory and a new directory: SRC DST");
	const char *src = argv[optind], *dst = argv[optind + 1];
	if (!*src || !*dst)
		return cli_usage("salvage", "SRC and DST must not be empty");
	h2emv_salvage_result r;
	h2emv_error err = { 0 };
	int rc = h2emv_salvage(&r, src, dst, on_loss, &o, &err);
	if (rc)
		return cli_fail("salvage", rc, &err);
	uint64_t problems = 0;
	h2emv_error cerr = { 0 };
	int crc = h2emv_check_store(&problems, dst, NULL, &cerr);
	int prc = summary(&r, &o, crc, problems);
	if (crc)
		return cli_fail("salvage: checking the new memory", crc, &cerr);
	if (problems || prc != EXIT_OK || o.failed)
		return EXIT_ERROR;
	return o.losses ? EXIT_FOUND : EXIT_OK;
}
