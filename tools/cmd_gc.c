/*
 * cmd_gc.c — `h2emv gc`: drop snapshots beyond the retention and delete the
 * superseded node versions no remaining snapshot can see.
 */
#include <getopt.h>
#include <jansson.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv gc [options]\n"
	"\n"
	"Drop snapshots beyond the retention, then delete the superseded node versions\n"
	"(forgotten details, old summaries) that no remaining snapshot can see, the\n"
	"observations no remaining snapshot holds any more (their scenes forgotten,\n"
	"older than the raw-log window of `h2emv config --raw-log-window`), and\n"
	"relevance-cache entries unused for 14 days of the memory's clock. Pinned\n"
	"snapshots are always kept. Ages count on the memory's clock (the time of its\n"
	"newest observation), not this computer's. Work is done in small batches, so\n"
	"a robot ingesting at the same time waits at most one batch. The freed space\n"
	"is reused by later writes; run `h2emv compact` to return it to the disk and\n"
	"to leave no byte of a forgotten record in the file.\n"
	"\n"
	"  -m, --mem DIR        the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -k, --keep N         keep the N newest snapshots (default 16, at least 1)\n"
	"  -a, --keep-age AGE   also keep snapshots younger than AGE on the memory's\n"
	"                       clock (e.g. 90m, 12h, 7d)\n"
	"      --keep-log       leave the observation log and the cache alone\n"
	"      --purge          ignore the raw-log window this once: delete every\n"
	"                       observation whose scenes are forgotten now, however\n"
	"                       recent (the window is 7 days of the memory's clock\n"
	"                       unless `h2emv config --raw-log-window` says otherwise)\n"
	"      --json           the result as one JSON object\n"
	"  -b, --batch N        deletions per write transaction (default 512)\n"
	"  -q, --quiet          no progress, no summary\n"
	"  -h, --help           this help\n";

int cmd_gc(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },  { "keep", required_argument, NULL, 'k' },
		{ "keep-age", required_argument, NULL, 'a' }, { "batch", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },      { "help", no_argument, NULL, 'h' },
		{ "keep-log", no_argument, NULL, 'L' },   { "json", no_argument, NULL, 'j' },
		{ "purge", no_argument, NULL, 'P' },
		{ 0 },
	};
	const char *mem = NULL;
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	uint64_t v;
	int quiet = 0, json = 0, c;
	while ((c = getopt_long(argc, argv, "m:k:a:b:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'k':
			if (cli_u64(&v, optarg) || v == 0 || v > UINT32_MAX)
				return cli_usage("gc", "--keep takes a number of snapshots, at least 1");
			o.keep_snapshots = (uint32_t)v;
			break;
		case 'a':
			if (cli_duration(&o.keep_age, optarg))
				return cli_usage("gc", "--keep-age takes a duration like 90m, 12h or 7d");
			break;
		case 'b':
			if (cli_u64(&v, optarg) || v == 0 || v > 1000000)
				return cli_usage("gc", "--batch takes a number from 1 to 1000000");
			o.batch = (uint32_t)v;
			break;
		case 'q': quiet = 1; break;
		case 'L': o.keep_log = 1; break;
		case 'P': o.purge = 1; break;
		case 'j': json = quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("gc", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("gc", "unexpected argument '%s'", argv[optind]);
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m)
		return EXIT_ERROR;
	cli_progress p;
	cli_progress_begin(&p, "gc", quiet);
	o.progress = cli_progress_cb;
	o.progress_ctx = &p;
	h2emv_gc_result r = { 0 };
	h2emv_error err = { 0 };
	int rc = h2emv_gc(&r, m, &o, &err);
	cli_progress_end(&p);
	h2emv_mem_close(m);
	if (rc)
		return cli_fail("gc", rc, &err);
	if (json)
		return cli_print_json(json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I}", "snapshots_dropped", (json_int_t)r.snapshots_dropped,
			"versions_deleted", (json_int_t)r.versions_deleted, "batches",
			(json_int_t)r.batches, "obs_reclaimed", (json_int_t)r.obs_reclaimed,
			"obs_bytes_reclaimed", (json_int_t)r.obs_bytes_reclaimed, "cache_collected",
			(json_int_t)r.cache_collected));
	if (!quiet)
		printf("dropped %llu snapshots, deleted %llu node versions in %llu batches; "
		       "reclaimed %llu observations (%llu bytes) and %llu cache entries\n",
		       (unsigned long long)r.snapshots_dropped, (unsigned long long)r.versions_deleted,
		       (unsigned long long)r.batches, (unsigned long long)r.obs_reclaimed,
		       (unsigned long long)r.obs_bytes_reclaimed, (unsigned long long)r.cache_collected);
	return EXIT_OK;
}
