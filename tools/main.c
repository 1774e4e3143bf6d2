/*
 * main.c — the `h2emv` command line: git-style subcommands, one file each.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	{ "inspect", cmd_inspect, "print the memory tree as indented text (--json)" },
	{ "export", cmd_export, "a snapshot as JSON, Graphviz or an HTML page; observations as JSONL" },
	{ "forget", cmd_forget, "run forgetting as of a given time" },
	{ "snapshots", cmd_snapshots, "list snapshots; pin or unpin one" },
	{ "stats", cmd_stats, "counts and sizes" },
	{ "serve", cmd_serve, "the memory as a local HTTP service (JSON): observations in, answers out" },
	{ "check", cmd_check, "verify checksums and tree invariants" },
	{ "salvage", cmd_salvage, "copy what is intact out of a damaged memory into a new one" },
	{ "gc", cmd_gc, "drop old snapshots and the versions only they could see" },
	{ "compact", cmd_compact, "rewrite the file so freed space returns to the disk" },
	{ "backup", cmd_backup, "a consistent copy of the memory, taken while it runs" },
	{ "upgrade", cmd_upgrade, "give a tree built before typed facts its facts (after a backup)" },
	{ "feedback", cmd_feedback, "teach the memory what matters: a new rules version" },
	{ "rules", cmd_rules, "the relevance rules: list, history, diff, revert" },
	{ "llm", cmd_llm, "check the llm policy's model server (llm ping)" },
	{ "import", cmd_import, "TEACh episodes or the ARMAR-7 stream as observation JSON Lines" },
};

/* Commands another program carries: `h2emv NAME` runs `PROG NAME ...`,
 * found next to this executable, else on $PATH. */
static const struct {
	const char *name, *prog, *summary;
} external[] = {
	{ "sim", "h2emv-eval", "write a simulated household history (JSON Lines)" },
	{ "questions", "h2emv-eval", "question pairs from a history, by the paper's recipe" },
	{ "eval", "h2emv-eval", "the paper's two-round evaluation of its 13 variants" },
};

static int run_external(const char *prog, int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	argv[0] = (char *)prog;
	(void)argc;
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			snprintf(path, sizeof path, "%s/%s", self, prog);
			if (access(path, X_OK) == 0) {
				execv(path, argv);
				fprintf(stderr, "h2emv: cannot run %s: %s\n", path, strerror(errno));
				return EXIT_ERROR;
			}
		}
	}
	execvp(prog, argv);
	fprintf(stderr,
	        "h2emv: '%s' is carried by the separate program %s, which is not next to h2emv "
	        "or on the PATH (%s); it is built from bench/ with h2emv and installed beside it "
	        "by `cmake --install BUILD`\n",
	        argv[1], prog, strerror(errno));
	return EXIT_ERROR;
}

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: h2emv [--read-only] [--policy builtin|llm] [--llm-config FILE] <command>\n"
	        "             [options] [args]\n"
	        "\n"
	        "h2emv keeps a robot's lifelong episodic memory in one directory.\n"
	        "Every command takes --help; those that open a memory take -m/--mem DIR\n"
	        "(default: $H2EMV_MEM, else ./h2emv-memory), and those that print a result\n"
	        "for scripts take --json. The judgements (grouping, summaries, relevance,\n"
	        "rules, answers) are made by the builtin policy (offline, deterministic)\n"
	        "unless --policy llm (or $H2EMV_POLICY=llm) points them at a model server:\n"
	        "docs/llm.md.\n"
	        "--read-only opens the memory for reading only (commands that write fail);\n"
	        "commands that only read do so by themselves, and a memory whose directory\n"
	        "or files are not writable (a backup, a read-only mount) opens that way.\n"
	        "\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nevaluation (the separate program h2emv-eval, built from bench/ and\n"
	           "installed beside h2emv by `cmake --install`):\n");
	for (size_t i = 0; i < sizeof external / sizeof external[0]; i++)
		fprintf(f, "  %-10s %s\n", external[i].name, external[i].summary);
	fprintf(f, "\nexit status: 0 ok, 1 check found problems, 2 error (a write on a read-only\n"
	           "memory included), 3 the memory is damaged (run h2emv check; docs/damaged.md),\n"
	           "64 usage error, 75 another builder is running.\n"
	           "Formats: docs/formats.md.  Version " H2EMV_VERSION_STRING ".\n");
}

/* Options before the command: --policy NAME and --llm-config FILE, passed
 * on as $H2EMV_POLICY and $H2EMV_LLM_CONFIG (which cli_open reads), and
 * --read-only. Returns the number of arguments used, or -1 on a usage
 * error. */
static int global_options(int argc, char **argv)
{
	int i = 1;
	while (i < argc) {
		if (!strcmp(argv[i], "--read-only")) {
			cli_read_only = 1;
			i++;
			continue;
		}
		if (strcmp(argv[i], "--policy") && strcmp(argv[i], "--llm-config"))
			break;
		if (i + 1 >= argc) {
			fprintf(stderr, "h2emv: %s needs a value\n", argv[i]);
			return -1;
		}
		const char *var = !strcmp(argv[i], "--policy") ? "H2EMV_POLICY" : "H2EMV_LLM_CONFIG";
		if (!strcmp(var, "H2EMV_POLICY") && strcmp(argv[i + 1], "builtin") &&
		    strcmp(argv[i + 1], "llm")) {
			fprintf(stderr, "h2emv: --policy is builtin or llm, not '%s'\n", argv[i + 1]);
			return -1;
		}
		setenv(var, argv[i + 1], 1);
		i += 2;
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
			for (size_t i = 0; i < sizeof external / sizeof external[0]; i++)
				if (!strcmp(external[i].name, argv[2])) {
					char *av[] = { NULL, argv[2], "--help", NULL };
					return run_external(external[i].prog, 3, av);
				}
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("h2emv %s (library; built with header " H2EMV_VERSION_STRING ")\n", h2emv_version(NULL, NULL, NULL));
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, name))
			return cli_guarded(name, commands[i].run, argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof external / sizeof external[0]; i++)
		if (!strcmp(external[i].name, name)) {
			/* `h2emv eval ...` -> `h2emv-eval eval ...` */
			char **av = calloc((size_t)argc + 1, sizeof *av);
			if (!av)
				return EXIT_ERROR;
			for (int k = 1; k < argc; k++)
				av[k] = argv[k];
			return run_external(external[i].prog, argc, av);
		}
	fprintf(stderr, "h2emv: '%s' is not a command. See 'h2emv --help'.\n", name);
	return EXIT_USAGE;
}
