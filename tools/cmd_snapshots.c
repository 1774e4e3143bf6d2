/*
 * cmd_snapshots.c — `h2emv snapshots`: list the stored snapshots, pin one
 * so GC keeps it, unpin it.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv snapshots [list] [--json]\n"
	"       h2emv snapshots pin SEQ [NAME]\n"
	"       h2emv snapshots unpin NAME\n"
	"\n"
	"A snapshot is one consistent version of the memory tree; every build commits\n"
	"one. `list` shows them oldest first: seq, when it was made, the memory's clock,\n"
	"the last observation folded in (cursor), tree size (nodes of level >= 3), and\n"
	"pins. `pin` keeps snapshot SEQ (a number from `list`, or `latest`) from GC\n"
	"under NAME (default: snap-SEQ), moving the pin if NAME exists; `unpin`\n"
	"releases it. `list` only reads: it works on a read-only memory.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      list as JSON Lines\n"
	"  -h, --help      this help\n";

/* One line of `list --json`: the snapshot and the names of its pins. */
static json_t *snap_json(const h2emv_snap_info *s, const h2emv_pin *pins, size_t np)
{
	json_t *names = json_array();
	for (size_t j = 0; names && j < np; j++)
		if (pins[j].seq == s->seq && json_array_append_new(names, cli_json_text(pins[j].name))) {
			json_decref(names);
			names = NULL;
		}
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:o}", "seq", (json_int_t)s->seq, "created",
	                 (json_int_t)s->created, "t_now", (json_int_t)s->t_now, "build_cursor",
	                 (json_int_t)s->build_cursor, "nodes", (json_int_t)s->n_nodes,
	                 "rules_version", (json_int_t)s->rules_version, "root", cli_json_ref(s->root),
	                 "pins", names);
}

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
	for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
		if (json) {
			rc = cli_print_json(snap_json(&s[i], pins, np));
			continue;
		}
		char c[32], t[32];
		cli_time(c, sizeof c, s[i].created);
		cli_time(t, sizeof t, s[i].t_now);
		printf("%8llu  %-19s  %-19s  %10llu  %8llu  ", (unsigned long long)s[i].seq, c, t,
		       (unsigned long long)s[i].build_cursor, (unsigned long long)s[i].n_nodes);
		int first = 1;
		for (size_t j = 0; j < np; j++) {
			if (pins[j].seq != s[i].seq)
				continue;
			printf("%s%s", first ? "" : ", ", pins[j].name);
			first = 0;
		}
		putchar('\n');
	}
	if (!json && n == 0)
		printf("(no snapshots yet: nothing has been built)\n");
	free(s);
	free(pins);
	return rc;
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
	int nargs = argc - optind;
	if (!is_pin && !is_unpin && strcmp(verb, "list"))
		return cli_usage("snapshots", "'%s' is not list, pin or unpin", verb);
	if (!is_pin && !is_unpin && nargs)
		return cli_usage("snapshots", "list takes no arguments ('%s')", argv[optind]);
	if (is_unpin && nargs != 1)
		return cli_usage("snapshots", "unpin takes one NAME");
	if (is_pin && (nargs < 1 || nargs > 2))
		return cli_usage("snapshots", "pin takes SEQ and an optional NAME");
	uint64_t seq = H2EMV_SNAP_LATEST;
	char defname[32];
	const char *name = is_unpin ? argv[optind] : NULL;
	if (is_pin) {
		const char *s = argv[optind];
		if (strcmp(s, "latest") && (cli_u64(&seq, s) || seq == 0))
			return cli_usage("snapshots",
			                 "pin takes the snapshot number first (SEQ or 'latest'), not '%s'", s);
		snprintf(defname, sizeof defname, "snap-%llu", (unsigned long long)seq);
		name = nargs == 2 ? argv[optind + 1] : defname;
	}
	h2emv_mem *m = cli_open(cli_mem_dir(mem), is_pin || is_unpin ? 0 : H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	if (is_pin && seq == H2EMV_SNAP_LATEST) {
		/* pin the snapshot named in the message, and name the pin after
		 * it rather than after "latest" */
		h2emv_snap *snap;
		if (h2emv_snap_open(&snap, m, H2EMV_SNAP_LATEST, NULL) == H2EMV_OK) {
			h2emv_snap_info info;
			h2emv_snap_get_info(&info, snap);
			seq = info.seq;
			h2emv_snap_close(snap);
			snprintf(defname, sizeof defname, "snap-%llu", (unsigned long long)seq);
		}
	}
	h2emv_error err = { 0 };
	int rc = EXIT_OK, src = H2EMV_OK;
	if (is_pin) {
		src = h2emv_snap_pin(m, name, seq, &err);
		if (src == H2EMV_OK)
			printf("pinned snapshot %llu as '%s'\n", (unsigned long long)seq, name);
	} else if (is_unpin) {
		src = h2emv_snap_unpin(m, name, &err);
		if (src == H2EMV_OK)
			printf("unpinned '%s'\n", name);
	} else {
		rc = list(m, json);
	}
	if (src)
		rc = cli_fail("snapshots", src, &err);
	h2emv_mem_close(m);
	return rc;
}
