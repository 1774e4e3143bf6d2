/*
 * main.c — the `h2emv` command line: git-style subcommands, one file each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const cli_cmd commands[] = {
	{ "demo", cmd_demo, "a household week, end to end, in a fresh directory" },
	{ "init", cmd_init, "create a new, empty memory directory" },
	{ "config", cmd_config, "show or change profile, forgetting, lifetimes, budgets" },
	{ "profile", cmd_profile, "show or set the robot profile (what skills and parameters mean)" },
	{ "ingest", cmd_ingest, "append observations (JSON Lines) to the memory's log" },
	{ "build", cmd_build, "fold waiting observations into the tree (--follow: keep going)" },
	{ "ask", cmd_ask, "answer a question about the past (--at TIME, --trace)" },
	{ "say", cmd_say, "talk to the memory: a question, feedback, or small talk" },
	{ "inspect", cmd_inspect, "print the memory tree as indented text" },
	{ "forget", cmd_forget, "run forgetting as of a given time" },
	{ "snapshots", cmd_snapshots, "list snapshots; pin or unpin one" },
	{ "stats", cmd_stats, "counts and sizes" },
	{ "serve", cmd_serve, "the memory as a local HTTP service (JSON): observations in, answers out" },
	{ "check", cmd_check, "verify checksums and tree invariants" },
	{ "gc", cmd_gc, "drop old snapshots and the versions only they could see" },
	{ "compact", cmd_compact, "rewrite the file so freed space returns to the disk" },
	{ "feedback", cmd_feedback, "teach the memory what matters: a new rules version" },
	{ "rules", cmd_rules, "the relevance rules: list, history, diff, revert" },
	{ "llm", cmd_llm, "check the llm policy's model server (llm ping)" },
	{ "sim", cmd_sim, "write a simulated household history (JSON Lines)" },
	{ "import", cmd_import, "TEACh episodes or the ARMAR-7 stream as observation JSON Lines" },
	{ "questions", cmd_questions, "question pairs from a history, by the paper's recipe" },
	{ "eval", cmd_eval, "the paper's two-round evaluation of its 13 variants" },
};

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: h2emv [--policy builtin|llm] [--llm-config FILE] <command> [options] [args]\n"
	        "\n"
	        "h2emv keeps a robot's lifelong episodic memory in one directory.\n"
	        "Every command takes -m/--mem DIR (default: $H2EMV_MEM, else ./h2emv-memory)\n"
	        "and --help. The judgements (grouping, summaries, relevance, rules, answers)\n"
	        "are made by the builtin policy (offline, deterministic) unless --policy llm\n"
	        "(or $H2EMV_POLICY=llm) points them at a model server: docs/llm.md.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nexit status: 0 ok, 1 check found problems, 2 error, 64 usage error.\n"
	           "Formats: docs/formats.md.  Version " H2EMV_VERSION_STRING ".\n");
}

/* Options before the command: --policy NAME and --llm-config FILE, passed
 * on as $H2EMV_POLICY and $H2EMV_LLM_CONFIG (which cli_open reads).
 * Returns the number of arguments used, or -1 on a usage error. */
static int global_options(int argc, char **argv)
{
	int i = 1;
	while (i + 1 < argc && (!strcmp(argv[i], "--policy") || !strcmp(argv[i], "--llm-config"))) {
		const char *var = !strcmp(argv[i], "--policy") ? "H2EMV_POLICY" : "H2EMV_LLM_CONFIG";
		if (!strcmp(var, "H2EMV_POLICY") && strcmp(argv[i + 1], "builtin") &&
		    strcmp(argv[i + 1], "llm")) {
			fprintf(stderr, "h2emv: --policy is builtin or llm, not '%s'\n", argv[i + 1]);
			return -1;
		}
		setenv(var, argv[i + 1], 1);
		i += 2;
	}
	if (i < argc && (!strcmp(argv[i], "--policy") || !strcmp(argv[i], "--llm-config"))) {
		fprintf(stderr, "h2emv: %s needs a value\n", argv[i]);
		return -1;
	}
	return i - 1;
}

int main(int argc, char **argv)
{
	int used = global_options(argc, argv);
	if (used < 0)
		return EXIT_USAGE;
	argc -= used;
	argv += used;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
				if (!strcmp(commands[i].name, argv[2])) {
					char *av[] = { argv[2], "--help", NULL };
					return commands[i].run(2, av);
				}
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("h2emv " H2EMV_VERSION_STRING "\n");
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "h2emv: '%s' is not a command. See 'h2emv --help'.\n", name);
	return EXIT_USAGE;
}
