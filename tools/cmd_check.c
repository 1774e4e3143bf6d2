/*
 * cmd_check.c — `h2emv check`: verify checksums and tree invariants.
 * LMDB trusts its file: a badly damaged one can crash it outright. The
 * check therefore runs in a child process, and a crash is reported as
 * damage instead of taking the command down with it.
 */
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv check [options]\n"
	"\n"
	"Verify the memory: every record's checksum and structure in every database,\n"
	"and for every stored snapshot: each child reference resolves; children are\n"
	"ordered in time and inside their parent's range; a parent's expiry is at\n"
	"least each child's; nothing in the tree is listed dead; snapshot numbers and\n"
	"build cursors never go backwards. Each problem is printed with the ids\n"
	"concerned. Before any of that every page of the file is read by hand, so a\n"
	"damaged page is reported (with the keys it held) instead of crashing the\n"
	"database library. Reads only, safe while the robot writes; the verdict is\n"
	"kept in DIR/DAMAGED, and while it is there writes, gc and compaction are\n"
	"refused (recover with `h2emv salvage`); a clean check removes it.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      print problems as JSON Lines\n"
	"  -q, --quiet     print nothing; use the exit status\n"
	"  -h, --help      this help\n"
	"\n"
	"exit status: 0 no problems, 1 problems found, 2 the check could not run,\n"
	"3 a file so damaged that reading it crashed the database library.\n";

typedef struct out {
	int json, quiet;
	int failed; /* a JSON line could not be written */
} out;

static void on_violation(void *ctx, const h2emv_violation *v)
{
	out *o = ctx;
	if (o->quiet)
		return;
	if (o->json) {
		json_t *j = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "rule", cli_json_text(v->rule),
		                      "db", cli_json_text(v->db), "snapshot", cli_json_u64(v->snapshot),
		                      "node", cli_json_ref(v->node), "other", cli_json_ref(v->other),
		                      "key", cli_json_u64(v->key), "message", cli_json_text(v->message));
		if (cli_print_json(j) != EXIT_OK)
			o->failed = 1;
		return;
	}
	printf("%-22s %-9s", v->rule, v->db);
	if (v->snapshot)
		printf(" snapshot %llu", (unsigned long long)v->snapshot);
	if (v->node.id)
		printf(" node %llu v%u", (unsigned long long)v->node.id, v->node.version);
	if (v->other.id)
		printf(" (other %llu v%u)", (unsigned long long)v->other.id, v->other.version);
	if (v->key && !v->snapshot)
		printf(" key %llu", (unsigned long long)v->key);
	printf(": %s\n", v->message);
}

static int run_check(const char *dir, out *o)
{
	cli_progress p;
	cli_progress_begin(&p, "check", o->quiet);
	uint64_t n = 0;
	h2emv_error err = { 0 };
	h2emv_check_options co = H2EMV_CHECK_OPTIONS_INIT;
	co.violation = on_violation;
	co.violation_ctx = o;
	co.progress = cli_progress_cb;
	co.progress_ctx = &p;
	int rc = h2emv_check_store(&n, dir, &co, &err);
	cli_progress_end(&p);
	if (rc)
		return cli_fail("check", rc, &err);
	if (!o->quiet && !o->json)
	{
		if (n)
			printf("%llu problem%s found: writes to this memory are refused until it is "
			       "salvaged (h2emv salvage %s NEW_DIR; docs/damaged.md)\n",
			       (unsigned long long)n, n == 1 ? "" : "s", dir);
		else
			printf("ok: no problems found\n");
	}
	if (fflush(stdout) != 0 || o->failed)
		return EXIT_ERROR;
	return n ? EXIT_FOUND : EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' }, { "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },     { "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL;
	out o = { 0 };
	int c;
	while ((c = getopt_long(argc, argv, "m:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'j': o.json = 1; break;
		case 'q': o.quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("check", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("check", "unexpected argument '%s'", argv[optind]);
	const char *dir = cli_mem_dir(mem);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return run_check(dir, &o);
	if (pid == 0)
		_exit(run_check(dir, &o));
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	if (WIFSIGNALED(st)) {
		fprintf(stderr,
		        "h2emv check: the database file in %s is damaged: reading it crashed the "
		        "database library (signal %d, %s). Copy what is intact with `h2emv salvage` "
		        "(docs/damaged.md).\n",
		        cli_mem_dir(mem), WTERMSIG(st), strsignal(WTERMSIG(st)));
		return EXIT_DAMAGED;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_ERROR;
}
