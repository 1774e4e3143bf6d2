/*
 * cmd_forget.c — `h2emv forget --now TIME`: run the forgetting pass as of
 * a given time and commit the result, or (--dry-run) show what it would
 * forget without changing anything.
 */
#include <getopt.h>
#include <jansson.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv forget [options] --now TIME\n"
	"\n"
	"Run the forgetting pass with the memory's clock set to TIME (never moving it\n"
	"back): every node whose expiry has passed is shown to the policy, which may\n"
	"extend its life (\"relevance\", following the learned rules); what stays expired\n"
	"becomes a placeholder that keeps its time range and the first line of its\n"
	"summary. The build runs this after every observation.\n"
	"\n"
	"Without --dry-run this COMMITS and MOVES THE MEMORY'S CLOCK to TIME for good:\n"
	"an observation ingested afterwards with an earlier time is placed at TIME and\n"
	"judged at that clock. To see what the memory would keep after a quiet week,\n"
	"use --dry-run: it lists what would be forgotten and changes nothing (it runs\n"
	"beside a `build --follow`). A committing run stops early (with its progress\n"
	"committed) if observations arrive meanwhile; it is a builder: while another\n"
	"builder runs (a build --follow), it says so and exits with status 75.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -t, --now TIME  RFC 3339 (2024-09-30T08:00:00Z), \"2024-09-30 08:00\", or\n"
	"                  +DURATION from the memory's clock (+7d, +12h)\n"
	"  -n, --dry-run   list what would be forgotten; commit nothing, keep the clock\n"
	"      --json      one JSON object: dry_run, now, nodes_forgotten, tree_size,\n"
	"                  relevance_tokens, and with --dry-run the nodes\n"
	"  -h, --help      this help\n"
	"\n"
	"Examples:\n"
	"  h2emv forget --dry-run --now +7d    what would be left after a quiet week\n"
	"  h2emv forget --now 2024-09-30T08:00:00Z\n";

static const char *kind_name(h2emv_kind k)
{
	switch (k) {
	case H2EMV_KIND_SCENE: return "scene";
	case H2EMV_KIND_EVENT: return "event";
	case H2EMV_KIND_GOAL: return "goal";
	case H2EMV_KIND_SUMMARY: return "summary";
	case H2EMV_KIND_ROOT: return "root";
	default: return "placeholder";
	}
}

typedef struct listing {
	json_t *nodes; /* --json */
	int failed;
} listing;

/* The first line of s, cut to fit n bytes, never inside a UTF-8 character. */
static void first_line(char *out, size_t n, const char *s)
{
	size_t k = strcspn(s, "\n");
	if (k >= n)
		for (k = n - 1; k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80; k--)
			; /* s[k] continues a character: cut before it */
	memcpy(out, s, k);
	out[k] = 0;
}

static void on_forgotten(void *ctx, const h2emv_forgotten *f)
{
	listing *l = ctx;
	char a[32], b[32], line[160];
	cli_time(a, sizeof a, f->start);
	cli_time(b, sizeof b, f->end);
	first_line(line, sizeof line, f->summary);
	if (l->nodes) {
		json_t *o = json_pack("{s:I,s:I,s:i,s:s,s:s,s:s,s:I,s:o}", "id", (json_int_t)f->node.id,
		                      "version", (json_int_t)f->node.version, "level", f->level,
		                      "kind", kind_name(f->kind), "start", a, "end", b,
		                      "descendants", (json_int_t)f->descendants, "summary",
		                      cli_json_text(line));
		if (!o || json_array_append_new(l->nodes, o))
			l->failed = 1;
		return;
	}
	printf("  L%d %-7s %s .. %s  %s", f->level, kind_name(f->kind), a, b, line);
	if (f->descendants)
		printf("  (+%llu below)", (unsigned long long)f->descendants);
	putchar('\n');
}

int cmd_forget(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "now", required_argument, NULL, 't' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL, *when = NULL;
	int c, dry = 0, json = 0;
	while ((c = getopt_long(argc, argv, "m:t:nh", opts, NULL)) != -1) {
		if (c == 'm')
			mem = optarg;
		else if (c == 'n')
			dry = 1;
		else if (c == 'j')
			json = 1;
		else if (c == 't')
			when = optarg;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return cli_usage("forget", "unknown option");
	}
	if (optind < argc)
		return cli_usage("forget", "unexpected argument '%s'", argv[optind]);
	if (!when)
		return cli_usage("forget", "--now TIME is required");
	h2emv_mem *m = cli_open(cli_mem_dir(mem), dry ? H2EMV_OPEN_READONLY : 0);
	if (!m)
		return EXIT_ERROR;
	h2emv_time now;
	if (cli_when(&now, m, when)) {
		h2emv_mem_close(m);
		return cli_usage("forget", "cannot read the time '%s'", when);
	}
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	char t[32];
	cli_time(t, sizeof t, now);
	if (dry) {
		listing l = { json ? json_array() : NULL, 0 };
		if (!json)
			printf("would forget, as of %s (dry run: nothing is committed):\n", t);
		int rc = h2emv_forget_preview(&r, m, now, on_forgotten, &l, &err);
		h2emv_mem_close(m);
		if (rc || l.failed) {
			json_decref(l.nodes);
			return cli_fail("forget", rc ? rc : H2EMV_ENOMEM, &err);
		}
		if (json)
			return cli_print_json(json_pack(
				"{s:b,s:s,s:I,s:I,s:I,s:o}", "dry_run", 1, "now", t, "nodes_forgotten",
				(json_int_t)r.nodes_forgotten, "tree_size", (json_int_t)r.tree_size,
				"relevance_tokens",
				(json_int_t)(r.tokens_forget.prompt + r.tokens_forget.completion), "nodes",
				l.nodes));
		printf("%llu nodes would be forgotten; tree size would be %llu (relevance tokens "
		       "%llu). Nothing was changed.\n",
		       (unsigned long long)r.nodes_forgotten, (unsigned long long)r.tree_size,
		       (unsigned long long)(r.tokens_forget.prompt + r.tokens_forget.completion));
		return EXIT_OK;
	}
	int rc = h2emv_forget(&r, m, now, &err);
	h2emv_mem_close(m);
	if (rc) {
		cli_fail("forget", rc, &err);
		return rc == H2EMV_EBUSY ? EXIT_BUSY : EXIT_ERROR;
	}
	if (json)
		return cli_print_json(json_pack(
			"{s:b,s:s,s:I,s:I,s:I}", "dry_run", 0, "now", t, "nodes_forgotten",
			(json_int_t)r.nodes_forgotten, "tree_size", (json_int_t)r.tree_size,
			"relevance_tokens",
			(json_int_t)(r.tokens_forget.prompt + r.tokens_forget.completion)));
	printf("forgot %llu nodes as of %s; tree size %llu; relevance tokens %llu\n",
	       (unsigned long long)r.nodes_forgotten, t, (unsigned long long)r.tree_size,
	       (unsigned long long)(r.tokens_forget.prompt + r.tokens_forget.completion));
	printf("the memory's clock is now %s: observations dated earlier are placed at it "
	       "(use --dry-run to preview without moving it)\n", t);
	return EXIT_OK;
}
