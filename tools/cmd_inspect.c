/*
 * cmd_inspect.c — `h2emv inspect`: the memory tree as indented text.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv inspect [options]\n"
	"\n"
	"Print the memory tree of a snapshot as indented text, one node per line:\n"
	"  L<level> <kind> #<id>.<version>  <start> .. <end>  tau <expiry>  <summary>\n"
	"Forgotten nodes (placeholders) are marked [forgotten] and show the first line\n"
	"they kept. Scenes (L1) are hidden unless --depth reaches them.\n"
	"\n"
	"  -m, --mem DIR        the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -s, --snapshot SEQ   a given snapshot (default: the newest)\n"
	"  -d, --depth N        show N levels below the start node (default: down to events)\n"
	"  -n, --node ID[.VER]  start at this node (default: the root)\n"
	"  -a, --all-lines      print every line of each summary, indented, not just the first\n"
	"      --json           print the same nodes as JSON instead: the document of\n"
	"                       h2emv export (docs/formats.md section 5), limited to them\n"
	"  -h, --help           this help\n"
	"\n"
	"example: h2emv inspect --depth 2          the root, its children and grandchildren\n";

static const char *kind_name(h2emv_kind k)
{
	switch (k) {
	case H2EMV_KIND_SCENE: return "scene";
	case H2EMV_KIND_EVENT: return "event";
	case H2EMV_KIND_GOAL: return "goal";
	case H2EMV_KIND_SUMMARY: return "summary";
	case H2EMV_KIND_ROOT: return "root";
	case H2EMV_KIND_FORGOTTEN: return "forgotten";
	default: return "?";
	}
}

typedef struct view {
	h2emv_snap *snap;
	int max_depth, all_lines;
	uint64_t printed;
} view;

static int show(view *v, const h2emv_node *n, int depth)
{
	char a[32], b[32], e[32];
	h2emv_ref r = h2emv_node_ref(n);
	const char *s = h2emv_node_summary(n, NULL);
	const char *nl = strchr(s, '\n');
	int first = nl ? (int)(nl - s) : (int)strlen(s);
	int forgotten = h2emv_node_kind(n) == H2EMV_KIND_FORGOTTEN;
	printf("%*sL%d %s #%llu.%u  %s .. %s  tau %s  %s%.*s\n", depth * 2, "",
	       h2emv_node_level(n), kind_name(h2emv_node_kind(n)), (unsigned long long)r.id,
	       r.version, cli_time(a, sizeof a, h2emv_node_start(n)),
	       cli_time(b, sizeof b, h2emv_node_end(n)), cli_time(e, sizeof e, h2emv_node_expiry(n)),
	       forgotten ? "[forgotten] " : "", first, s);
	if (v->all_lines && nl)
		for (const char *p = nl + 1; p && *p;) {
			const char *q = strchr(p, '\n');
			int len = q ? (int)(q - p) : (int)strlen(p);
			printf("%*s    %.*s\n", depth * 2, "", len, p);
			p = q ? q + 1 : NULL;
		}
	v->printed++;
	if (depth >= v->max_depth)
		return H2EMV_OK;
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		h2emv_error err = { 0 };
		int rc = h2emv_node_child(&c, v->snap, n, i, &err);
		if (rc) {
			printf("%*s(child %zu: %s)\n", (depth + 1) * 2, "", i, err.message);
			continue;
		}
		if (v->max_depth == INT32_MAX && h2emv_node_level(c) < 2)
			continue; /* scenes only when asked for */
		show(v, c, depth + 1);
	}
	return H2EMV_OK;
}

static int write_stdout(void *ctx, const void *data, size_t len)
{
	return fwrite(data, 1, len, stdout) == len ? 0 : -1;
}

int cmd_inspect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },   { "snapshot", required_argument, NULL, 's' },
		{ "depth", required_argument, NULL, 'd' }, { "node", required_argument, NULL, 'n' },
		{ "all-lines", no_argument, NULL, 'a' },   { "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ 0 },
	};
	const char *mem = NULL, *node = NULL;
	uint64_t seq = H2EMV_SNAP_LATEST, depth = 0;
	int have_depth = 0, all = 0, json = 0, c;
	while ((c = getopt_long(argc, argv, "m:s:d:n:ah", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 's':
			if (cli_u64(&seq, optarg) || seq == 0)
				return cli_usage("inspect", "--snapshot takes a snapshot number");
			break;
		case 'd':
			if (cli_u64(&depth, optarg) || depth > 64)
				return cli_usage("inspect", "--depth takes a number from 0 to 64");
			have_depth = 1;
			break;
		case 'n': node = optarg; break;
		case 'a': all = 1; break;
		case 'j': json = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("inspect", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("inspect", "unexpected argument '%s'", argv[optind]);
	h2emv_mem *m = cli_open(cli_mem_dir(mem), H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	view v = { 0 };
	v.max_depth = have_depth ? (int)depth : INT32_MAX;
	v.all_lines = all;
	h2emv_error err = { 0 };
	int rc = h2emv_snap_open(&v.snap, m, seq, &err);
	const h2emv_node *start = NULL;
	h2emv_ref ref = { 0, 0 };
	if (node && cli_ref(&ref, node)) {
		h2emv_snap_close(v.snap);
		h2emv_mem_close(m);
		return cli_usage("inspect", "--node takes ID or ID.VERSION");
	}
	if (rc == H2EMV_OK && json) {
		h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
		o.start = ref;
		o.max_depth = have_depth ? (int)depth : -1;
		o.min_level = have_depth ? 0 : 2; /* as the text: scenes when --depth reaches them */
		rc = h2emv_snap_export(v.snap, write_stdout, NULL, &o, &err);
		if (rc == H2EMV_OK)
			putchar('\n');
		h2emv_snap_close(v.snap);
		h2emv_mem_close(m);
		return rc ? cli_fail("inspect", rc, &err) : EXIT_OK;
	}
	if (rc == H2EMV_OK && node)
		rc = h2emv_snap_node(&start, v.snap, ref, &err);
	else if (rc == H2EMV_OK)
		rc = h2emv_snap_root(&start, v.snap, &err);
	if (rc == H2EMV_OK) {
		h2emv_snap_info info;
		h2emv_snap_get_info(&info, v.snap);
		char t[32];
		printf("snapshot %llu, memory clock %s, tree size %llu, rules v%u\n",
		       (unsigned long long)info.seq, cli_time(t, sizeof t, info.t_now),
		       (unsigned long long)info.n_nodes, info.rules_version);
		show(&v, start, 0);
	}
	h2emv_snap_close(v.snap);
	h2emv_mem_close(m);
	return rc ? cli_fail("inspect", rc, &err) : EXIT_OK;
}
