/*
 * cmd_gc.c — `h2emv gc`: drop snapshots beyond the retention and delete the
 * superseded node versions no remaining snapshot can see.
 */
#include <getopt.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv gc [options]\n"
	"\n"
	"Drop snapshots beyond the retention, then delete the superseded node versions\n"
	"(forgotten details, old summaries) that no remaining snapshot can see. Pinned\n"
	"snapshots are always kept. Work is done in small batches, so a robot ingesting\n"
	"at the same time waits at most one batch. The freed space is reused by later\n"
	"writes; run `h2emv compact` to return it to the disk.\n"
	"\n"
	"  -m, --mem DIR        the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -k, --keep N         keep the N newest snapshots (default 16, at least 1)\n"
	"  -a, --keep-age AGE   also keep snapshots younger than AGE (e.g. 90m, 12h, 7d)\n"
	"  -b, --batch N        deletions per write transaction (default 512)\n"
	"  -q, --quiet          no progress, no summary\n"
	"  -h, --help           this help\n";

int cmd_gc(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },  { "keep", required_argument, NULL, 'k' },
		{ "keep-age", required_argument, NULL, 'a' }, { "batch", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },      { "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL;
	h2emv_gc_options o = H2EMV_GC_OPTIONS_INIT;
	uint64_t v;
	int quiet = 0, c;
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
	if (!quiet)
		printf("dropped %llu snapshots, deleted %llu node versions in %llu batches\n",
		       (unsigned long long)r.snapshots_dropped, (unsigned long long)r.versions_deleted,
		       (unsigned long long)r.batches);
	return EXIT_OK;
}
