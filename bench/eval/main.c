/*
 * main.c — `h2emv-eval`: the paper's evaluation, the household simulator
 * and the question generator, as a program of their own built from bench/.
 * The product (`h2emv`, the library) never links it; `h2emv eval|sim|
 * questions` runs this program the way git runs git-<command>.
 */
#include <stdio.h>
#include <string.h>

#include "bench/eval/commands.h"
#include "tools/common/cli_helpers.h"

static const cli_cmd commands[] = {
	{ "sim", cmd_sim, "write a simulated household history (JSON Lines)" },
	{ "questions", cmd_questions, "question pairs from a history, by the paper's recipe" },
	{ "eval", cmd_eval, "the paper's two-round evaluation of its 13 variants" },
};

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *f = argc < 2 ? stderr : stdout;
		fprintf(f, "usage: h2emv-eval <command> [options]   (also: h2emv <command>)\n\n"
		           "The evaluation tools of h2emv (bench/eval), apart from the product:\n");
		for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
			fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, argv[1]))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "h2emv-eval: '%s' is not a command. See 'h2emv-eval --help'.\n", argv[1]);
	return EXIT_USAGE;
}
