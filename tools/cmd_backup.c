/*
 * cmd_backup.c — `h2emv backup DEST`: a consistent copy of a memory taken
 * while ingest and the builder keep running.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <time.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv backup [-m DIR] [--verify] [--json] [-q] DEST\n"
	"\n"
	"Copy the memory into the new directory DEST while it stays in use: the copy\n"
	"is the memory as committed when the backup began (one read transaction;\n"
	"ingest and the builder go on meanwhile), without free pages (compacted).\n"
	"It is written under a temporary name beside DEST and renamed when complete\n"
	"and synced, so DEST is whole or absent. DEST is a memory directory like any\n"
	"other: h2emv check -m DEST, h2emv ask -m DEST, or copy it elsewhere.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --verify    then run h2emv check on the copy (exit 1 if it finds problems)\n"
	"      --json      the result as one JSON object: dest, bytes, seconds,\n"
	"                  obs_count, obs_last_seq, snapshots, last_snapshot, and\n"
	"                  problems (what --verify found; null without it)\n"
	"  -q, --quiet     print nothing on success\n"
	"  -h, --help      this help\n"
	"\n"
	"exit status: 0 done, 1 --verify found problems, 2 error (DEST exists, its\n"
	"directory does not, disk full), 64 usage error.\n";

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Open the copy read-only, as a user would, and say what it holds. */
static int report(const char *dest, uint64_t bytes, double secs, int verify, int quiet,
                  int json)
{
	h2emv_mem *m = cli_open(dest, H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	h2emv_stats st;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_stats(&st, m, &err);
	uint64_t bad = 0;
	if (rc == H2EMV_OK && verify)
		rc = h2emv_check(&bad, m, NULL, &err);
	h2emv_mem_close(m);
	if (rc)
		return cli_fail("backup", rc, &err);
	if (json) {
		rc = cli_print_json(json_pack(
			"{s:o,s:I,s:f,s:I,s:I,s:I,s:I,s:o}", "dest", cli_json_text(dest), "bytes",
			(json_int_t)bytes, "seconds", secs, "obs_count", (json_int_t)st.obs_count,
			"obs_last_seq", (json_int_t)st.obs_last_seq, "snapshots", (json_int_t)st.snapshots,
			"last_snapshot", (json_int_t)st.last_snapshot, "problems",
			verify ? json_integer((json_int_t)bad) : json_null()));
		if (rc != EXIT_OK)
			return rc;
	} else if (!quiet) {
		printf("backup written to %s: %llu bytes in %.2f s; %llu observations (up to seq "
		       "%llu), %llu snapshots (newest %llu)%s\n",
		       dest, (unsigned long long)bytes, secs, (unsigned long long)st.obs_count,
		       (unsigned long long)st.obs_last_seq, (unsigned long long)st.snapshots,
		       (unsigned long long)st.last_snapshot, verify && !bad ? "; check: no problems" : "");
	}
	if (bad) {
		fprintf(stderr, "h2emv backup: check found %llu problem%s in %s: run h2emv check -m %s\n",
		        (unsigned long long)bad, bad == 1 ? "" : "s", dest, dest);
		return EXIT_FOUND;
	}
	return EXIT_OK;
}

int cmd_backup(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "verify", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL;
	int verify = 0, quiet = 0, json = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'v': verify = 1; break;
		case 'j': json = 1; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("backup", "unknown option");
		}
	}
	if (optind + 1 != argc)
		return cli_usage("backup", optind >= argc ? "where to? name a new directory DEST"
		                                          : "one destination only");
	const char *dest = argv[optind];
	h2emv_mem *m = cli_open(cli_mem_dir(mem), H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	h2emv_error err = { 0 };
	uint64_t bytes = 0;
	double t0 = now_s();
	int rc = h2emv_mem_backup(&bytes, m, dest, &err);
	double secs = now_s() - t0;
	h2emv_mem_close(m);
	if (rc)
		return cli_fail("backup", rc, &err);
	return report(dest, bytes, secs, verify, quiet, json);
}
