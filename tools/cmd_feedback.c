/*
 * cmd_feedback.c — `h2emv feedback TEXT...`: teach the memory what matters.
 * The policy rewrites the relevance rules; the new version is printed with
 * what was added or changed, and a note when a dropped rule was restored.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

/* In cmd_rules.c. */
size_t cli_rules_diff(char *ops, char *const *a, size_t na, char *const *b, size_t nb);

static const char help[] =
	"usage: h2emv feedback [-m DIR] TEXT...\n"
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
	"  -h, --help      this help\n"
	"\n"
	"examples:\n"
	"  h2emv feedback You should always remember where you put the keys\n"
	"  h2emv feedback -m robot-mem \"Remember which arm you use to unload the dishwasher\"\n"
	"  h2emv rules diff 0                everything learned so far\n";

/* One rule, numbered; num 0 is the old text of a changed rule. */
static void print_rule(char mark, size_t num, const char *s)
{
	if (num)
		printf("  %c %3zu. ", mark, num);
	else
		printf("         was: ");
	for (; *s; s++)
		putchar(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
	putchar('\n');
}

/* The new rules with marks: within each run of differences the first
 * additions pair with the removals as changes ("~"), the rest are added
 * ("+"); removals left without a partner are listed at the end. */
static int show(const h2emv_rules *old, size_t n_old, const h2emv_rules *r)
{
	char *ops = malloc(n_old + r->n + 1);
	size_t *gone = malloc((n_old + 1) * sizeof *gone);
	size_t n = ops && gone ? cli_rules_diff(ops, old->items, n_old, r->items, r->n) : (size_t)-1;
	if (n == (size_t)-1) {
		free(ops);
		free(gone);
		return cli_fail("feedback", H2EMV_ENOMEM, NULL);
	}
	printf("rules version %u (from version %u):\n", r->version, r->parent);
	size_t i = 0, j = 0, k = 0, n_gone = 0;
	while (k < n) {
		if (ops[k] == ' ') {
			print_rule(' ', j + 1, r->items[j]);
			i++, j++, k++;
			continue;
		}
		size_t first = i, dels = 0, adds = 0;
		for (; k < n && ops[k] == '-'; k++, i++)
			dels++;
		for (; k < n && ops[k] == '+'; k++, j++, adds++) {
			print_rule(adds < dels ? '~' : '+', j + 1, r->items[j]);
			if (adds < dels)
				print_rule(' ', 0, old->items[first + adds]);
		}
		for (; adds < dels; adds++)
			gone[n_gone++] = first + adds;
	}
	if (n_gone)
		printf("no longer there (removed or merged):\n");
	for (size_t x = 0; x < n_gone; x++)
		print_rule('-', gone[x] + 1, old->items[gone[x]]);
	if (r->repaired)
		printf("note: the rewrite dropped a rule the feedback was not about; it was restored.\n");
	free(ops);
	free(gone);
	return EXIT_OK;
}

int cmd_feedback(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "+m:h", opts, NULL)) != -1) {
		if (c == 'm')
			mem = optarg;
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
	int ex = rc ? cli_fail("feedback", rc, &err)
	            : show(old, r->parent ? old->n : 1, r); /* version 0: the default alone */
	h2emv_rules_free(old);
	h2emv_rules_free(r);
	h2emv_mem_close(m);
	free(text);
	return ex;
}
