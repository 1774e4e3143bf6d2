/*
 * cmd_stats.c — `h2emv stats`: counts and sizes of a memory.
 */
#include <getopt.h>
#include <jansson.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv stats [options]\n"
	"\n"
	"Print counts and sizes: observations and the build cursor (how far the tree\n"
	"has caught up), node versions live and awaiting GC, snapshots, pins, rules,\n"
	"the relevance cache, dictionaries, and bytes on disk; and what the observation\n"
	"log keeps and why (held by a live scene, by the raw-log window, not built\n"
	"yet, damaged) beside what the next `h2emv gc` reclaims (docs/storage.md).\n"
	"Reading the retention reads the whole log: seconds on a big memory.\n"
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
	if (st >= 0 || (st = cli_no_operands(argc, argv, "stats")) >= 0)
		return st;
	h2emv_mem *m = cli_open(cli_mem_dir(mem), H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	h2emv_stats s;
	h2emv_error err = { 0 };
	h2emv_retention ret;
	int rc = h2emv_mem_stats(&s, m, &err);
	if (rc == H2EMV_OK)
		rc = h2emv_retention_stats(&ret, m, &err);
	h2emv_mem_close(m);
	if (rc)
		return cli_fail("stats", rc, &err);
	if (json) {
		json_t *o = json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			"format", (json_int_t)s.format, "obs_count", (json_int_t)s.obs_count,
			"obs_last_seq", (json_int_t)s.obs_last_seq, "build_cursor",
			(json_int_t)s.build_cursor, "node_versions", (json_int_t)s.node_versions,
			"dead_versions", (json_int_t)s.dead_versions, "snapshots", (json_int_t)s.snapshots,
			"last_snapshot", (json_int_t)s.last_snapshot, "pins", (json_int_t)s.pins,
			"rules_versions", (json_int_t)s.rules_versions, "relcache_entries",
			(json_int_t)s.relcache_entries, "dicts", (json_int_t)s.dicts, "obs_bytes",
			(json_int_t)s.obs_bytes, "node_bytes", (json_int_t)s.node_bytes, "file_bytes",
			(json_int_t)s.file_bytes, "used_bytes", (json_int_t)s.used_bytes, "map_bytes",
			(json_int_t)s.map_bytes);
		if (o && (json_object_set_new(o, "generation", json_integer((json_int_t)s.generation)) ||
		          json_object_set_new(o, "reserve_bytes",
		                              json_integer((json_int_t)s.reserve_bytes)) ||
		          json_object_set_new(o, "relcache_bytes",
		                              json_integer((json_int_t)s.relcache_bytes)))) {
			json_decref(o);
			o = NULL;
		}
		json_t *r = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "live",
		                      (json_int_t)ret.obs_live, "window", (json_int_t)ret.obs_window,
		                      "unbuilt", (json_int_t)ret.obs_unbuilt, "unreadable",
		                      (json_int_t)ret.obs_unreadable, "reclaimable",
		                      (json_int_t)ret.obs_reclaimable, "reclaimable_bytes",
		                      (json_int_t)ret.obs_reclaimable_bytes, "cache_entries",
		                      (json_int_t)ret.cache_entries, "cache_collectable",
		                      (json_int_t)ret.cache_collectable);
		if (!o || !r || json_object_set_new(o, "retention", r)) {
			json_decref(o);
			return cli_print_json(NULL);
		}
		return cli_print_json(o);
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
	printf("log retention   %llu live, %llu in the raw-log window, %llu not built, "
	       "%llu damaged; %llu reclaimable (%llu bytes) by gc\n",
	       U(ret.obs_live), U(ret.obs_window), U(ret.obs_unbuilt), U(ret.obs_unreadable),
	       U(ret.obs_reclaimable), U(ret.obs_reclaimable_bytes));
	printf("cache retention %llu entries, %llu collectable by gc\n", U(ret.cache_entries),
	       U(ret.cache_collectable));
	return EXIT_OK;
}
