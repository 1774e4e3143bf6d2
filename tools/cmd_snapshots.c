/*
 * cmd_snapshots.c — `h2emv snapshots`: list the stored snapshots, pin one
 * so GC keeps it, unpin it.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv snapshots [list] [--json]\n"
	"       h2emv snapshots pin NAME [SEQ]\n"
	"       h2emv snapshots unpin NAME\n"
	"\n"
	"A snapshot is one consistent version of the memory tree; every build commits\n"
	"one. `list` shows them oldest first: seq, when it was made, the memory's clock,\n"
	"the last observation folded in (cursor), tree size (nodes of level >= 3), and\n"
	"pins. `pin` keeps snapshot SEQ (default: the newest) from GC under NAME (moving\n"
	"the pin if NAME exists); `unpin` releases it.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      list as JSON Lines\n"
	"  -h, --help      this help\n";

static int list(h2emv_mem *m, int json)
{
	h2emv_snap_info *s = NULL;
	h2emv_pin *pins = NULL;
	size_t n = 0, np = 0;
	h2emv_error err = { 0 };
	int rc = h2emv_snap_list(&s, &n, m, &err);
	if (rc == H2EMV_OK)
		rc = h2emv_pin_list(&pins, &np, m, &err);
	if (rc) {
		free(s);
		return cli_fail("snapshots", rc, &err);
	}
	if (!json)
		printf("%8s  %-19s  %-19s  %10s  %8s  %s\n", "seq", "created (UTC)", "memory clock",
		       "cursor", "nodes", "pins");
	for (size_t i = 0; i < n; i++) {
		char c[32], t[32];
		cli_time(c, sizeof c, s[i].created);
		cli_time(t, sizeof t, s[i].t_now);
		if (json) {
			printf("{\"seq\":%llu,\"created\":%lld,\"t_now\":%lld,\"build_cursor\":%llu,"
			       "\"nodes\":%llu,\"rules_version\":%u,\"root\":[%llu,%u],\"pins\":[",
			       (unsigned long long)s[i].seq, (long long)s[i].created, (long long)s[i].t_now,
			       (unsigned long long)s[i].build_cursor, (unsigned long long)s[i].n_nodes,
			       s[i].rules_version, (unsigned long long)s[i].root.id, s[i].root.version);
		} else {
			printf("%8llu  %-19s  %-19s  %10llu  %8llu  ", (unsigned long long)s[i].seq, c, t,
			       (unsigned long long)s[i].build_cursor, (unsigned long long)s[i].n_nodes);
		}
		int first = 1;
		for (size_t j = 0; j < np; j++) {
			if (pins[j].seq != s[i].seq)
				continue;
			if (json) {
				if (!first)
					putchar(',');
				cli_json_str(stdout, pins[j].name);
			} else {
				printf("%s%s", first ? "" : ", ", pins[j].name);
			}
			first = 0;
		}
		puts(json ? "]}" : "");
	}
	if (!json && n == 0)
		printf("(no snapshots yet: nothing has been built)\n");
	free(s);
	free(pins);
	return EXIT_OK;
}

int cmd_snapshots(int argc, char **argv)
{
	const char *mem = NULL;
	int json = 0;
	int st = cli_basic_opts(argc, argv, "snapshots", help, &mem, &json);
	if (st >= 0)
		return st;
	const char *verb = optind < argc ? argv[optind++] : "list";
	int is_pin = !strcmp(verb, "pin"), is_unpin = !strcmp(verb, "unpin");
	if (!is_pin && !is_unpin && strcmp(verb, "list"))
		return cli_usage("snapshots", "'%s' is not list, pin or unpin", verb);
	if ((is_pin || is_unpin) && optind >= argc)
		return cli_usage("snapshots", "%s needs a NAME", verb);
	uint64_t seq = H2EMV_SNAP_LATEST;
	if (is_pin && optind + 1 < argc && cli_u64(&seq, argv[optind + 1]))
		return cli_usage("snapshots", "SEQ must be a snapshot number");
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m)
		return EXIT_ERROR;
	h2emv_error err = { 0 };
	int rc = EXIT_OK, src = H2EMV_OK;
	if (is_pin) {
		src = h2emv_snap_pin(m, argv[optind], seq, &err);
		if (src == H2EMV_OK)
			printf("pinned '%s'\n", argv[optind]);
	} else if (is_unpin) {
		src = h2emv_snap_unpin(m, argv[optind], &err);
		if (src == H2EMV_OK)
			printf("unpinned '%s'\n", argv[optind]);
	} else {
		rc = list(m, json);
	}
	if (src)
		rc = cli_fail("snapshots", src, &err);
	h2emv_mem_close(m);
	return rc;
}
