/*
 * cmd_compact.c — `h2emv compact`: rewrite the data file without free pages.
 */
#include <getopt.h>
#include <jansson.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv compact [options]\n"
	"\n"
	"Rewrite the data file without its free pages, so the space GC freed (and the\n"
	"bytes of forgotten, collected records) leaves the disk: the live pages are\n"
	"copied into the next generation of the data file, which then becomes current\n"
	"atomically; a crash at any moment leaves the old or the new file, whole. Runs\n"
	"beside everything else: askers and snapshots never wait, writers (ingest,\n"
	"build --follow) wait while the copy is made. Needs free disk space for one\n"
	"copy of the live data; on a full disk it uses the memory's reserve\n"
	"(docs/formats.md, section 4). When even the reserve would not hold the copy,\n"
	"nothing is touched: compact says how many more bytes it needs and exits 4,\n"
	"the reserve kept, and the pages gc freed are reused in place by later writes.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      the sizes before and after as JSON: before_bytes, after_bytes\n"
	"  -h, --help      this help\n";

int cmd_compact(int argc, char **argv)
{
	const char *mem = NULL;
	int json = 0;
	int st = cli_basic_opts(argc, argv, "compact", help, &mem, &json);
	if (st >= 0 || (st = cli_no_operands(argc, argv, "compact")) >= 0)
		return st;
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m)
		return EXIT_ERROR;
	uint64_t before = 0, after = 0;
	h2emv_error err = { 0 };
	int rc = h2emv_compact(&before, &after, m, &err);
	h2emv_mem_close(m);
	if (rc == H2EMV_ENOSPC && strstr(err.message, "not compacted")) {
		/* the live data is larger than the free space and the reserve:
		 * the store is whole and the reserve kept, but nothing was
		 * recovered, which `gc && compact && build` must not take for
		 * success: exit 4, like a build stopped by a full disk */
		fprintf(stderr, "h2emv %s\n", err.message);
		if (json)
			cli_print_json(json_pack("{s:I,s:I,s:b}", "before_bytes", (json_int_t)before,
			                         "after_bytes", (json_int_t)before, "compacted", 0));
		else
			printf("not compacted: %llu bytes (no room for the copy; see above)\n",
			       (unsigned long long)before);
		return EXIT_NOSPACE;
	}
	if (rc)
		return cli_fail("compact", rc, &err);
	if (json)
		return cli_print_json(json_pack("{s:I,s:I}", "before_bytes", (json_int_t)before,
		                                "after_bytes", (json_int_t)after));
	printf("compacted: %llu -> %llu bytes (%.1f%%)\n", (unsigned long long)before,
	       (unsigned long long)after, before ? 100.0 * (double)after / (double)before : 100.0);
	return EXIT_OK;
}
