/*
 * cmd_feedback.c — `h2emv feedback TEXT...`: teach the memory what matters.
 * The policy rewrites the relevance rules; the new version is printed with
 * what was added or changed, and a note when a dropped rule was restored.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv feedback [-m DIR] [--json] TEXT...\n"
	"\n"
	"Tell the memory what it should have kept (or may forget). The words of TEXT\n"
	"are joined with spaces. The policy rewrites the relevance rules from the\n"
	"feedback, adding, changing or merging the rules it is about; rules it is not\n"
	"about are kept, and one the rewrite dropped anyway is put back. The result is\n"
	"a new rules version (see `h2emv rules history`); the old ones stay.\n"
	"\n"
	"The new rules are printed numbered, marked \"+\" when added and \"~\" when\n"
	"changed (with the text it replaced); rules no longer there are listed last.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      one JSON object: version, parent, repaired, items (the new\n"
	"                  rules), added (their numbers), changed ({rule, was}),\n"
	"                  removed (texts), tokens\n"
	"  -h, --help      this help\n"
	"\n"
	"TEXT must be a rule: it says what to remember, keep, note or forget (or that\n"
	"something matters) and about what. Anything else (\"hello there\", a question)\n"
	"is refused with a message saying it is not a rule, and no version is made.\n"
	"\n"
	"examples:\n"
	"  h2emv feedback You should always remember where you put the keys\n"
	"  h2emv feedback -m robot-mem \"Remember which arm you use to unload the dishwasher\"\n"
	"  h2emv feedback \"Forget about the hallway\"\n"
	"  h2emv rules diff 0                everything learned so far\n"
	"\n"
	"exit status: 0 a new version, 2 error (also: TEXT is not a rule), 64 usage error.\n";

/* Where show() puts what changed: printed, or into --json's arrays. */
typedef struct changes {
	json_t *added, *changed, *removed; /* NULL: print */
	int failed;
} changes;

static void print_text(const char *s)
{
	for (; *s; s++)
		putchar(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
	putchar('\n');
}

static void add(changes *c, json_t *arr, json_t *v)
{
	if (json_array_append_new(arr, v))
		c->failed = 1;
}

/* Rule `num` of the new version, marked ' ', '+' (added) or '~' (changed
 * from `was`); or, with num 0, `was` is gone. */
static void rule(changes *c, char mark, size_t num, const char *text, const char *was)
{
	if (c->added) {
		if (mark == '+')
			add(c, c->added, json_integer((json_int_t)num));
		else if (mark == '~')
			add(c, c->changed,
			    json_pack("{s:I,s:o}", "rule", (json_int_t)num, "was", cli_json_text(was)));
		else if (!num)
			add(c, c->removed, cli_json_text(was));
		return;
	}
	if (num) {
		printf("  %c %3zu. ", mark, num);
		print_text(text);
	}
	if (mark == '~' || !num) {
		printf("%s", num ? "         was: " : "");
		print_text(was);
	}
}

/* The new rules with marks: within each run of differences the first
 * additions pair with the removals as changes ("~"), the rest are added
 * ("+"); removals left without a partner are listed at the end. */
static int show(const h2emv_rules *old, size_t n_old, const h2emv_rules *r, changes *c)
{
	char *ops = malloc(n_old + r->n + 1);
	size_t *gone = malloc((n_old + 1) * sizeof *gone);
	size_t n = ops && gone ? cli_rules_diff(ops, old->items, n_old, r->items, r->n) : (size_t)-1;
	if (n == (size_t)-1) {
		free(ops);
		free(gone);
		return cli_fail("feedback", H2EMV_ENOMEM, NULL);
	}
	if (!c->added)
		printf("rules version %u (from version %u):\n", r->version, r->parent);
	size_t i = 0, j = 0, k = 0, n_gone = 0;
	while (k < n) {
		if (ops[k] == ' ') {
			rule(c, ' ', j + 1, r->items[j], NULL);
			i++, j++, k++;
			continue;
		}
		size_t first = i, dels = 0, adds = 0;
		for (; k < n && ops[k] == '-'; k++, i++)
			dels++;
		for (; k < n && ops[k] == '+'; k++, j++, adds++)
			rule(c, adds < dels ? '~' : '+', j + 1, r->items[j],
			     adds < dels ? old->items[first + adds] : NULL);
		for (; adds < dels; adds++)
			gone[n_gone++] = first + adds;
	}
	if (n_gone && !c->added)
		printf("no longer there (removed or merged):\n");
	for (size_t x = 0; x < n_gone; x++) {
		if (!c->added)
			printf("  - %3zu. ", gone[x] + 1);
		rule(c, '-', 0, NULL, old->items[gone[x]]);
	}
	if (r->repaired && !c->added)
		printf("note: the rewrite dropped a rule the feedback was not about; it was restored.\n");
	free(ops);
	free(gone);
	return EXIT_OK;
}

/* --json: the new version and what changed. */
static int show_json(const h2emv_rules *old, size_t n_old, const h2emv_rules *r)
{
	changes c = { json_array(), json_array(), json_array(), 0 };
	int rc = c.added && c.changed && c.removed ? show(old, n_old, r, &c) : EXIT_ERROR;
	if (rc != EXIT_OK || c.failed) {
		json_decref(c.added);
		json_decref(c.changed);
		json_decref(c.removed);
		return rc != EXIT_OK ? rc : cli_print_json(NULL);
	}
	return cli_print_json(json_pack(
		"{s:I,s:I,s:b,s:o,s:o,s:o,s:o,s:o}", "version", (json_int_t)r->version, "parent",
		(json_int_t)r->parent, "repaired", r->repaired, "items",
		cli_rules_items_json(r->items, r->n), "added", c.added, "changed", c.changed, "removed",
		c.removed, "tokens", cli_tokens_json(&r->tokens)));
}

int cmd_feedback(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL;
	int c, json = 0;
	while ((c = getopt_long(argc, argv, "+m:h", opts, NULL)) != -1) {
		if (c == 'm')
			mem = optarg;
		else if (c == 'j')
			json = 1;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return cli_usage("feedback", "unknown option");
	}
	if (optind >= argc)
		return cli_usage("feedback", "what is the feedback? Give it as TEXT");
	size_t len = 1;
	for (int a = optind; a < argc; a++)
		len += strlen(argv[a]) + 1;
	char *text = malloc(len);
	if (!text)
		return cli_fail("feedback", H2EMV_ENOMEM, NULL);
	text[0] = '\0';
	for (int a = optind; a < argc; a++) {
		if (a > optind)
			strcat(text, " ");
		strcat(text, argv[a]);
	}
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m) {
		free(text);
		return EXIT_ERROR;
	}
	h2emv_error err = { 0 };
	h2emv_rules *r = NULL, *old = NULL;
	int rc = h2emv_feedback(&r, m, text, &err);
	if (rc == H2EMV_OK)
		rc = h2emv_rules_get(&old, m, r->parent ? r->parent : r->version, &err);
	size_t n_old = rc ? 0 : r->parent ? old->n : 1; /* version 0: the default alone */
	changes printed = { 0 };
	int ex = rc     ? cli_fail("feedback", rc, &err)
	         : json ? show_json(old, n_old, r)
	                : show(old, n_old, r, &printed);
	h2emv_rules_free(old);
	h2emv_rules_free(r);
	h2emv_mem_close(m);
	free(text);
	return ex;
}
