/*
 * cmd_stats.c — `h2emv stats`: counts and sizes of a memory.
 */
#include <getopt.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv stats [options]\n"
	"\n"
	"Print counts and sizes: observations and the build cursor (how far the tree\n"
	"has caught up), node versions live and awaiting GC, snapshots, pins, rules,\n"
	"the relevance cache, dictionaries, and bytes on disk.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      one JSON object\n"
	"  -h, --help      this help\n";

#define U(x) ((unsigned long long)(x))

int cmd_stats(int argc, char **argv)
{
	const char *mem = NULL;
	int json = 0;
	int st = cli_basic_opts(argc, argv, "stats", help, &mem, &json);
	if (st >= 0)
		return st;
	h2emv_mem *m = cli_open(cli_mem_dir(mem), H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	h2emv_stats s;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_stats(&s, m, &err);
	h2emv_mem_close(m);
	if (rc)
		return cli_fail("stats", rc, &err);
	if (json) {
		printf("{\"format\":%u,\"obs_count\":%llu,\"obs_last_seq\":%llu,\"build_cursor\":%llu,"
		       "\"node_versions\":%llu,\"dead_versions\":%llu,\"snapshots\":%llu,"
		       "\"last_snapshot\":%llu,\"pins\":%llu,\"rules_versions\":%llu,"
		       "\"relcache_entries\":%llu,\"dicts\":%llu,\"obs_bytes\":%llu,\"node_bytes\":%llu,"
		       "\"file_bytes\":%llu,\"used_bytes\":%llu,\"map_bytes\":%llu,"
		       "\"generation\":%llu,\"reserve_bytes\":%llu}\n",
		       s.format, U(s.obs_count), U(s.obs_last_seq), U(s.build_cursor),
		       U(s.node_versions), U(s.dead_versions), U(s.snapshots), U(s.last_snapshot),
		       U(s.pins), U(s.rules_versions), U(s.relcache_entries), U(s.dicts),
		       U(s.obs_bytes), U(s.node_bytes), U(s.file_bytes), U(s.used_bytes),
		       U(s.map_bytes), U(s.generation), U(s.reserve_bytes));
		return EXIT_OK;
	}
	printf("memory          %s (store format %u)\n", cli_mem_dir(mem), s.format);
	printf("observations    %llu (last seq %llu), %llu bytes stored, %.1f bytes each\n",
	       U(s.obs_count), U(s.obs_last_seq), U(s.obs_bytes),
	       s.obs_count ? (double)s.obs_bytes / (double)s.obs_count : 0.0);
	printf("build cursor    %llu (%llu observations waiting)\n", U(s.build_cursor),
	       U(s.obs_last_seq > s.build_cursor ? s.obs_last_seq - s.build_cursor : 0));
	printf("node versions   %llu (%llu superseded, awaiting gc), %llu bytes\n",
	       U(s.node_versions), U(s.dead_versions), U(s.node_bytes));
	printf("snapshots       %llu (newest %llu), %llu pinned\n", U(s.snapshots),
	       U(s.last_snapshot), U(s.pins));
	printf("rules versions  %llu; relevance cache %llu entries; zstd dictionaries %llu\n",
	       U(s.rules_versions), U(s.relcache_entries), U(s.dicts));
	printf("file            %llu bytes (%llu in use; %llu mapped), generation %llu\n",
	       U(s.file_bytes), U(s.used_bytes), U(s.map_bytes), U(s.generation));
	if (s.reserve_bytes)
		printf("reserve         %llu bytes held for gc and compact on a full disk\n",
		       U(s.reserve_bytes));
	else
		printf("reserve         none (released on a full disk, or no room for it): "
		       "run `h2emv gc` and `h2emv compact`, or free space\n");
	return EXIT_OK;
}
