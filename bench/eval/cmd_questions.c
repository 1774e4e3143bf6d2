/*
 * cmd_questions.c — `h2emv questions`: question pairs by the paper's recipe
 * from any observation history (bench/eval/qagen.h), as JSON Lines.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/eval/commands.h"
#include "bench/eval/qagen.h"
#include "tools/common/cli_helpers.h"

static const char help[] =
	"usage: h2emv questions [options] HISTORY.jsonl\n"
	"\n"
	"Generate first/last question pairs from an observation history by the H2-EMV\n"
	"paper's recipe: a kind of event (an action on an object, placing an object,\n"
	"transporting something to a place, a task, going to a place, meeting a person,\n"
	"seeing a valuable) that occurs at least twice, a day or more apart (two days for\n"
	"tasks). The round-1 question (\"... the first time ...\") comes at least a day after\n"
	"the first occurrence and before the last; the round-2 question (\"... the last\n"
	"time ...\") at least a day after the last occurrence, or at the end of the history.\n"
	"Each question carries its ground truth, the truth's time span and the feedback\n"
	"sentence (\"You should always remember ...\").\n"
	"\n"
	"Output, one JSON object per line, in question time order:\n"
	"  {\"pair\", \"round\", \"at\", \"question\", \"truth\", \"feedback\", \"ref\": [t0, t1],\n"
	"   \"kind\", \"late\"}\n"
	"\n"
	"  -p, --pairs N   pairs to pick (default 5)\n"
	"      --seed S    seed of the choice and the question times (default 1)\n"
	"  -o, --out FILE  write here instead of standard output\n"
	"  -h, --help      this help\n"
	"\n"
	"example: h2emv sim --episodes 25 -o h.jsonl && h2emv questions h.jsonl\n";

int cmd_questions(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pairs", required_argument, NULL, 'p' }, { "seed", required_argument, NULL, 'S' },
		{ "out", required_argument, NULL, 'o' },   { "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t pairs = 5, seed = 1;
	const char *out = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "p:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (cli_u64(&pairs, optarg) || pairs == 0 || pairs > 100000)
				return cli_usage("questions", "--pairs takes a number from 1 to 100000");
			break;
		case 'S':
			if (cli_u64(&seed, optarg))
				return cli_usage("questions", "--seed takes a number");
			break;
		case 'o': out = optarg; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("questions", "unknown option");
		}
	}
	if (optind + 1 != argc)
		return cli_usage("questions", "give one history file");
	qg_history h = { 0 };
	qg_set qs = { 0 };
	h2emv_error err = { 0 };
	int rc = qg_history_load(&h, argv[optind], &err);
	if (rc == H2EMV_OK)
		rc = qg_generate(&qs, &h, (unsigned)pairs, seed, &err);
	qg_history_free(&h);
	if (rc != H2EMV_OK)
		return cli_fail("questions", rc, &err);
	char *text = qg_set_jsonl(&qs);
	size_t n = qs.n;
	qg_set_free(&qs);
	if (!text)
		return cli_usage("questions", "out of memory");
	FILE *f = out ? fopen(out, "w") : stdout;
	int bad = !f || fputs(text, f) < 0;
	if (f && f != stdout)
		bad |= fclose(f) != 0;
	free(text);
	if (bad) {
		fprintf(stderr, "h2emv questions: cannot write %s\n", out ? out : "standard output");
		return EXIT_ERROR;
	}
	if (out)
		fprintf(stderr, "%zu questions written to %s\n", n, out);
	return EXIT_OK;
}
