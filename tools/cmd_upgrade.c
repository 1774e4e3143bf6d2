/*
 * cmd_upgrade.c — `h2emv upgrade`: give a tree built before typed facts its
 * facts (h2emv_upgrade), after a backup, so `h2emv ask` answers from it.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv upgrade [-m DIR] [--backup DEST | --no-backup] [--json] [-q]\n"
	"\n"
	"Give a memory whose tree was built before typed facts (by an older h2emv)\n"
	"the facts the builtin policy answers from; until then `h2emv ask` on it\n"
	"fails and says to run this. The facts of every event and goal are derived\n"
	"again from the observations its scenes keep, with the builder's own\n"
	"extraction, the summaries above are aggregated again, and the result is\n"
	"committed as one new snapshot (the older ones stay as they were).\n"
	"First the memory is copied, as `h2emv backup` does, to DEST (default:\n"
	"DIR.before-upgrade); nothing is written if the copy fails. A memory that\n"
	"needs nothing is left alone, without a copy. Holds the builder role: stop\n"
	"a running `build --follow` or `serve` first.\n"
	"\n"
	"  -m, --mem DIR     the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --backup DEST where the copy goes (a new directory)\n"
	"      --no-backup   make no copy\n"
	"      --json        the result as one JSON object: upgraded, snapshot, events,\n"
	"                    goals, summaries, nodes_read, backup, backup_bytes\n"
	"  -q, --quiet       no progress, no summary\n"
	"  -h, --help        this help\n"
	"\n"
	"exit status: 0 done (or nothing to do), 2 error (DEST exists, disk full),\n"
	"75 another builder holds the memory, 64 usage error.\n";

static int print(const h2emv_upgrade_result *r, const char *backup, int json, int quiet)
{
	if (json) {
		json_t *o = json_pack("{s:b,s:I,s:I,s:I,s:I,s:o,s:I}", "upgraded", r->snapshot != 0,
		                      "events", (json_int_t)r->events, "goals", (json_int_t)r->goals,
		                      "summaries", (json_int_t)r->summaries, "nodes_read",
		                      (json_int_t)r->nodes_read, "backup",
		                      r->backup_bytes ? cli_json_text(backup) : json_null(),
		                      "backup_bytes", (json_int_t)r->backup_bytes);
		if (o && json_object_set_new(o, "snapshot", r->snapshot ? cli_json_u64(r->snapshot)
		                                                        : json_null())) {
			json_decref(o);
			o = NULL;
		}
		return cli_print_json(o);
	}
	if (quiet)
		return EXIT_OK;
	if (!r->snapshot) {
		printf("the tree has its typed facts already: nothing to upgrade (%llu nodes read, "
		       "no copy made)\n", (unsigned long long)r->nodes_read);
		return EXIT_OK;
	}
	if (r->backup_bytes)
		printf("backup written to %s: %llu bytes\n", backup,
		       (unsigned long long)r->backup_bytes);
	printf("upgraded: typed facts for %llu events and %llu goals, %llu summaries "
	       "aggregated again; snapshot %llu committed (%llu nodes read)\n",
	       (unsigned long long)r->events, (unsigned long long)r->goals,
	       (unsigned long long)r->summaries, (unsigned long long)r->snapshot,
	       (unsigned long long)r->nodes_read);
	return EXIT_OK;
}

/* DIR.before-upgrade, beside the memory (a trailing '/' dropped). */
static char *default_backup(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	static const char suffix[] = ".before-upgrade";
	char *s = malloc(n + sizeof suffix);
	if (s) {
		memcpy(s, dir, n);
		memcpy(s + n, suffix, sizeof suffix);
	}
	return s;
}

static int run(const char *dir, const char *backup, int json, int quiet)
{
	h2emv_mem *m = cli_open(dir, 0);
	if (!m)
		return EXIT_ERROR;
	cli_progress p;
	cli_progress_begin(&p, "upgrade", quiet || json);
	h2emv_upgrade_options o = H2EMV_UPGRADE_OPTIONS_INIT;
	o.backup = backup;
	o.progress = cli_progress_cb;
	o.progress_ctx = &p;
	h2emv_upgrade_result r;
	h2emv_error err = { 0 };
	if (!quiet && !json)
		fprintf(stderr, "h2emv upgrade: deriving typed facts from the scenes of %s\n", dir);
	int rc = h2emv_upgrade(&r, m, &o, &err);
	cli_progress_end(&p);
	h2emv_mem_close(m);
	if (rc) {
		int st = cli_fail("upgrade", rc, &err);
		return rc == H2EMV_EBUSY ? EXIT_BUSY : st;
	}
	return print(&r, backup, json, quiet);
}

int cmd_upgrade(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "backup", required_argument, NULL, 'b' },
		{ "no-backup", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL, *backup = NULL;
	int no_backup = 0, json = 0, quiet = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'b': backup = optarg; break;
		case 'n': no_backup = 1; break;
		case 'j': json = 1; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("upgrade", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("upgrade", "unexpected argument '%s'", argv[optind]);
	if (backup && no_backup)
		return cli_usage("upgrade", "--backup and --no-backup exclude each other");
	if (backup && !*backup)
		return cli_usage("upgrade", "--backup needs a directory");
	const char *dir = cli_mem_dir(mem);
	char *def = no_backup || backup ? NULL : default_backup(dir);
	if (!no_backup && !backup && !def) {
		fprintf(stderr, "h2emv upgrade: out of memory\n");
		return EXIT_ERROR;
	}
	int st = run(dir, no_backup ? NULL : backup ? backup : def, json, quiet);
	free(def);
	return st;
}
