/*
 * cmd_rules.c — `h2emv rules`: the relevance rules in force, every version
 * feedback has made, the difference between two versions, and revert.
 * Also the rule-list diff `h2emv feedback` uses to mark what changed.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv rules [list] [--json]\n"
	"       h2emv rules history [--json]\n"
	"       h2emv rules diff A [B]\n"
	"       h2emv rules revert N\n"
	"\n"
	"The relevance rules decide what the memory keeps when items expire. They are\n"
	"learned from feedback (`h2emv feedback`), and every version is kept. Version 0\n"
	"is the default rule alone; rule 1 of every version is that default.\n"
	"\n"
	"  list      the rules in force, numbered (the default)\n"
	"  history   every version: number, when, the version it came from, the\n"
	"            feedback that made it, whether a dropped rule was restored, and\n"
	"            how many rules it has\n"
	"  diff      version A against version B (default: the current one), rule by\n"
	"            rule: \"- \" only in A, \"+ \" only in B, \"  \" in both\n"
	"  revert    make a new version with the rules of version N (0 = the default\n"
	"            alone); nothing is deleted, so a revert can be reverted\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      list: one JSON object; history: JSON Lines\n"
	"  -h, --help      this help\n"
	"\n"
	"examples:\n"
	"  h2emv rules                       the rules in force\n"
	"  h2emv rules history --json        every version, for scripts\n"
	"  h2emv rules diff 2                what changed from version 2 to now\n"
	"  h2emv rules diff 0 3              everything version 3 learned\n"
	"  h2emv rules revert 2              back to version 2's rules (as a new version)\n";

/* ------------------------------------------------------ the rule diff -- */

/* An edit script turning a[0..na) into b[0..nb) by rule text, from a
 * longest common subsequence: ops[k] is ' ' (both), '-' (a only) or '+'
 * (b only), in order, removals before additions within a run. `ops` has
 * room for na + nb. Returns the number of ops, or (size_t)-1 when out of
 * memory. */
size_t cli_rules_diff(char *ops, char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t w = nb + 1, k = 0;
	unsigned *l = calloc((na + 1) * w, sizeof *l); /* l[i*w+j]: LCS of a[i..], b[j..] */
	if (!l)
		return (size_t)-1;
	for (size_t i = na; i-- > 0;)
		for (size_t j = nb; j-- > 0;)
			l[i * w + j] = !strcmp(a[i], b[j])
			                       ? l[(i + 1) * w + j + 1] + 1
			                       : (l[(i + 1) * w + j] >= l[i * w + j + 1] ? l[(i + 1) * w + j]
			                                                                : l[i * w + j + 1]);
	size_t i = 0, j = 0;
	while (i < na || j < nb) {
		if (i < na && j < nb && !strcmp(a[i], b[j])) {
			ops[k++] = ' ';
			i++, j++;
		} else if (i < na && (j == nb || l[(i + 1) * w + j] >= l[i * w + j + 1])) {
			ops[k++] = '-';
			i++;
		} else {
			ops[k++] = '+';
			j++;
		}
	}
	free(l);
	return k;
}

/* ------------------------------------------------------------ versions -- */

/* Version v (0 = the default alone, which is rule 1 of the current one). */
static int load(h2emv_rules **out, h2emv_mem *m, uint32_t v)
{
	h2emv_error err = { 0 };
	int rc = h2emv_rules_get(out, m, v, &err);
	if (rc)
		return cli_fail("rules", rc, &err);
	return EXIT_OK;
}

/* How many of r's rules to show for version v (version 0 is rule 1 of any). */
static size_t shown(const h2emv_rules *r, uint32_t v)
{
	return v == 0 ? 1 : r->n;
}

static void print_oneline(const char *s)
{
	for (; *s; s++)
		putchar(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
}

/* Version v's fields as a JSON object (all zero for version 0). */
static json_t *json_fields(const h2emv_rules *r, uint32_t v)
{
	h2emv_tokens none = { 0 };
	return json_pack("{s:I,s:I,s:I,s:b,s:o,s:o}", "version", (json_int_t)v, "parent",
	                 (json_int_t)(v ? r->parent : 0), "created", (json_int_t)(v ? r->created : 0),
	                 "repaired", v && r->repaired, "feedback", cli_json_text(v ? r->feedback : ""),
	                 "tokens", cli_tokens_json(v ? &r->tokens : &none));
}

/* `list --json`: the fields and "items"; `history --json`: the fields and
 * "rules", the number of rules. */
static int print_json(const h2emv_rules *r, uint32_t v, json_t *extra, const char *key)
{
	json_t *o = json_fields(r, v);
	if (!o || json_object_set_new(o, key, extra)) {
		json_decref(o);
		o = NULL;
	}
	return cli_print_json(o);
}

static int list(h2emv_mem *m, int json)
{
	h2emv_rules *r;
	int rc = load(&r, m, 0);
	if (rc)
		return rc;
	if (json) {
		rc = print_json(r, r->version, cli_rules_items_json(r->items, r->n), "items");
	} else {
		printf("rules version %u", r->version);
		if (r->version) {
			char t[32];
			printf(" (from version %u, %s UTC)", r->parent, cli_time(t, sizeof t, r->created));
		}
		puts(":");
		for (size_t i = 0; i < r->n; i++) {
			printf("%4zu. ", i + 1);
			print_oneline(r->items[i]);
			putchar('\n');
		}
	}
	h2emv_rules_free(r);
	return rc;
}

static int history(h2emv_mem *m, int json)
{
	uint32_t cur;
	h2emv_error err = { 0 };
	int rc = h2emv_rules_current(&cur, m, &err);
	if (rc)
		return cli_fail("rules", rc, &err);
	if (!json)
		printf("%7s  %-19s  %7s  %5s  %-8s  %s\n", "version", "created (UTC)", "parent", "rules",
		       "repaired", "feedback");
	for (uint64_t v = 0; v <= cur; v++) {
		h2emv_rules *r;
		/* version 0 is rule 1 of the current version */
		if ((rc = load(&r, m, (uint32_t)v)))
			return rc;
		if (json) {
			rc = print_json(r, (uint32_t)v, json_integer((json_int_t)shown(r, (uint32_t)v)),
			                "rules");
		} else if (v == 0) {
			printf("%7u  %-19s  %7s  %5u  %-8s  %s\n", 0u, "-", "-", 1u, "no",
			       "(the default rule alone)");
		} else {
			char t[32];
			printf("%7u  %-19s  %7u  %5zu  %-8s  ", r->version, cli_time(t, sizeof t, r->created),
			       r->parent, r->n, r->repaired ? "yes" : "no");
			print_oneline(r->feedback);
			putchar('\n');
		}
		h2emv_rules_free(r);
		if (rc)
			return rc;
	}
	return EXIT_OK;
}

static int diff(h2emv_mem *m, uint32_t va, uint32_t vb)
{
	h2emv_rules *a, *b;
	int rc = load(&a, m, va);
	if (rc)
		return rc;
	if ((rc = load(&b, m, vb))) {
		h2emv_rules_free(a);
		return rc;
	}
	size_t na = shown(a, va), nb = shown(b, vb);
	char *ops = malloc(na + nb + 1);
	size_t n = ops ? cli_rules_diff(ops, a->items, na, b->items, nb) : (size_t)-1;
	if (n == (size_t)-1) {
		rc = cli_fail("rules", H2EMV_ENOMEM, NULL);
	} else {
		printf("--- version %u\n+++ version %u\n", va, vb);
		for (size_t k = 0, i = 0, j = 0; k < n; k++) {
			printf("%c ", ops[k]);
			print_oneline(ops[k] == '+' ? b->items[j] : a->items[i]);
			putchar('\n');
			i += ops[k] != '+';
			j += ops[k] != '-';
		}
	}
	free(ops);
	h2emv_rules_free(a);
	h2emv_rules_free(b);
	return rc;
}

static int revert(h2emv_mem *m, uint32_t v)
{
	h2emv_rules *r;
	h2emv_error err = { 0 };
	int rc = h2emv_rules_revert(&r, m, v, &err);
	if (rc)
		return cli_fail("rules", rc, &err);
	printf("rules version %u (from version %u): the rules of version %u\n", r->version, r->parent,
	       v);
	for (size_t i = 0; i < r->n; i++) {
		printf("%4zu. ", i + 1);
		print_oneline(r->items[i]);
		putchar('\n');
	}
	h2emv_rules_free(r);
	return EXIT_OK;
}

static int version_arg(uint32_t *out, const char *s, uint32_t cur)
{
	uint64_t v;
	if (cli_u64(&v, s) || v > UINT32_MAX)
		return cli_usage("rules", "'%s' is not a version number", s);
	if (v > cur) {
		fprintf(stderr, "h2emv rules: there is no version %llu (the current is %u)\n",
		        (unsigned long long)v, cur);
		return EXIT_ERROR;
	}
	*out = (uint32_t)v;
	return EXIT_OK;
}

int cmd_rules(int argc, char **argv)
{
	const char *mem = NULL;
	int json = 0;
	int st = cli_basic_opts(argc, argv, "rules", help, &mem, &json);
	if (st >= 0)
		return st;
	const char *verb = optind < argc ? argv[optind++] : "list";
	int nargs = argc - optind;
	if (!strcmp(verb, "list") || !strcmp(verb, "history")) {
		if (nargs)
			return cli_usage("rules", "%s takes no arguments", verb);
	} else if (!strcmp(verb, "diff")) {
		if (nargs < 1 || nargs > 2 || json)
			return cli_usage("rules", "diff takes one or two version numbers (and no --json)");
	} else if (!strcmp(verb, "revert")) {
		if (nargs != 1 || json)
			return cli_usage("rules", "revert takes one version number (and no --json)");
	} else {
		return cli_usage("rules", "'%s' is not list, history, diff or revert", verb);
	}
	h2emv_mem *m = cli_open(cli_mem_dir(mem), strcmp(verb, "revert") ? H2EMV_OPEN_READONLY : 0);
	if (!m)
		return EXIT_ERROR;
	int rc;
	if (!strcmp(verb, "list")) {
		rc = list(m, json);
	} else if (!strcmp(verb, "history")) {
		rc = history(m, json);
	} else {
		uint32_t cur = 0, a = 0, b = 0;
		h2emv_error err = { 0 };
		int src = h2emv_rules_current(&cur, m, &err);
		if (src)
			rc = cli_fail("rules", src, &err);
		else if ((rc = version_arg(&a, argv[optind], cur)) == EXIT_OK) {
			if (!strcmp(verb, "revert"))
				rc = revert(m, a);
			else if (nargs == 1 || (rc = version_arg(&b, argv[optind + 1], cur)) == EXIT_OK)
				rc = diff(m, a, nargs == 1 ? cur : b);
		}
	}
	h2emv_mem_close(m);
	return rc;
}
