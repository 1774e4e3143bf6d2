/*
 * cmd_ask.c — `h2emv ask`: answer a question about the robot's past from
 * one snapshot of the memory, and show what the answer rests on.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ask_input.h"
#include "tools/cli.h"

static const char help[] =
	"usage: h2emv ask [-m DIR] [--at TIME | --snapshot SEQ] [--trace] [--json] [-q]\n"
	"                 QUESTION...\n"
	"\n"
	"Answer a question about what the robot did, saw and heard, by exploring the\n"
	"memory tree top-down from one snapshot (the newest unless told otherwise),\n"
	"within the memory's question budget (rounds and tokens; see h2emv config).\n"
	"The answer is printed first, then the nodes it rests on (id and version, for\n"
	"h2emv inspect), whether it ran into forgotten time, and the tokens spent.\n"
	"\n"
	"  -m, --mem DIR      the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --at TIME      answer as the memory was at TIME: the newest snapshot whose\n"
	"                     clock is not after it. TIME is RFC 3339\n"
	"                     (2024-09-23T10:00:00Z, 2024-09-23T12:00:00+02:00), or\n"
	"                     \"2024-09-23 10:00\" / \"2024-09-23\" (UTC), microseconds\n"
	"                     since the epoch, or +DURATION (+1d, +12h) after the\n"
	"                     memory's clock. POST /v1/ask's \"at\" reads the same\n"
	"      --snapshot SEQ answer from snapshot SEQ (see h2emv snapshots)\n"
	"      --trace        print each exploration step before the answer\n"
	"      --json         print one JSON object instead\n"
	"  -q, --quiet        print the answer only\n"
	"  -h, --help         this help\n"
	"Options may come before or after the question; put -- before a question that\n"
	"starts with '-'.\n"
	"\n"
	"Questions the builtin (offline) policy understands:\n"
	"  h2emv ask \"Where did you put the keys?\"           -> At the drawer.\n"
	"  h2emv ask \"When did you last transport the knife?\" -> At 2024/09/25, 09:12:03.\n"
	"  h2emv ask \"When did you first slice an apple?\"\n"
	"  h2emv ask \"What day did you clean the mug?\"        -> At 2024/09/23.\n"
	"  h2emv ask \"Which object did you bring to the sink?\" -> The cup.\n"
	"  h2emv ask \"What objects did you see the last time you watered the plant?\"\n"
	"  h2emv ask \"Who did you meet?\"   h2emv ask \"What did Alice say?\"\n"
	"  h2emv ask \"What steps did you perform during transport of the knife?\"\n"
	"  h2emv ask \"What did you do on 2024-09-23?\"\n"
	"  h2emv ask --at \"2024-09-24 08:00\" --trace \"Where did you put the knife?\"\n"
	"When the evidence lies in forgotten time the answer is \"I have forgotten that.\"\n"
	"(forgotten: yes); when nothing matches, \"I could not find that in my memory.\"\n"
	"\n"
	"exit status: 0 answered, 2 error (no memory, nothing built yet, no snapshot\n"
	"that old, a question without a word such as \"\" or \"?\"), 64 usage error.\n";

/* ---------------------------------------------------------------- output -- */

static void print_text(const h2emv_answer *a, int trace, int quiet)
{
	if (trace && a->trace && *a->trace)
		fputs(a->trace, stdout);
	puts(a->text);
	if (quiet)
		return;
	printf("evidence: ");
	for (size_t i = 0; i < a->n_evidence; i++)
		printf("%s%llu (v%u)", i ? ", " : "", (unsigned long long)a->evidence[i].id,
		       a->evidence[i].version);
	printf("%s\nforgotten: %s\n", a->n_evidence ? "" : "none", a->forgotten ? "yes" : "no");
	printf("snapshot %llu, %u round%s, tokens: %llu prompt + %llu completion in %llu call%s\n",
	       (unsigned long long)a->snapshot, a->rounds, a->rounds == 1 ? "" : "s",
	       (unsigned long long)a->tokens.prompt, (unsigned long long)a->tokens.completion,
	       (unsigned long long)a->tokens.calls, a->tokens.calls == 1 ? "" : "s");
}

/* The words after the options, joined by spaces; malloc'd. */
static char *join_words(int argc, char **argv, int from)
{
	size_t n = 1;
	for (int i = from; i < argc; i++)
		n += strlen(argv[i]) + 1;
	char *s = malloc(n), *p = s;
	if (!s)
		return NULL;
	for (int i = from; i < argc; i++)
		p += sprintf(p, "%s%s", i > from ? " " : "", argv[i]);
	*p = '\0';
	return s;
}

int cmd_ask(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "at", required_argument, NULL, 'a' },
		{ "snapshot", required_argument, NULL, 's' },
		{ "trace", no_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL, *at = NULL;
	int json = 0, quiet = 0, c;
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mem = optarg;
			break;
		case 'a':
			at = optarg; /* read once the memory is open: +DURATION needs its clock */
			break;
		case 's':
			if (cli_u64(&o.snapshot, optarg) || o.snapshot == 0)
				return cli_usage("ask", "--snapshot: '%s' is not a snapshot number", optarg);
			break;
		case 't':
			o.trace = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(help, stdout);
			return EXIT_OK;
		default:
			return cli_usage("ask", "unknown option");
		}
	}
	if (at && o.snapshot)
		return cli_usage("ask", "give --at or --snapshot, not both");
	if (optind >= argc)
		return cli_usage("ask", "what is the question?");
	char *q = join_words(argc, argv, optind);
	if (!q)
		return cli_fail("ask", H2EMV_ENOMEM, NULL);
	if (!ask_question_ok(q)) {
		/* as POST /v1/ask answers 400: nothing to look for */
		fprintf(stderr, "h2emv ask: the question '%s' holds no word: ask something, such "
		        "as \"Where did you put the keys?\"\n", q);
		free(q);
		return EXIT_ERROR;
	}
	h2emv_mem *m = cli_open(cli_mem_dir(mem), H2EMV_OPEN_READONLY);
	if (!m) {
		free(q);
		return EXIT_ERROR;
	}
	char why[300];
	if (at && ask_at_parse(&o.at, m, at, why, sizeof why)) {
		h2emv_mem_close(m);
		free(q);
		return cli_usage("ask", "--at: %s", why);
	}
	h2emv_answer *a = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_ask(&a, m, q, &o, &err);
	int status = EXIT_OK;
	if (rc == H2EMV_ENOTFOUND && !o.at && !o.snapshot) {
		fprintf(stderr, "h2emv ask: nothing has been built yet: run 'h2emv build' first\n");
		status = EXIT_ERROR;
	} else if (rc) {
		status = cli_fail("ask", rc, &err);
	} else if (json) {
		status = cli_print_json(cli_answer_json(q, a, o.trace));
	} else {
		print_text(a, o.trace, quiet);
	}
	h2emv_answer_free(a);
	h2emv_mem_close(m);
	free(q);
	return status;
}
