/*
 * cmd_sim.c — `h2emv sim`: write a simulated household history as
 * observation JSON Lines (bench/eval/sim.h), for `h2emv ingest` and the
 * evaluation. Deterministic: the same options give the same bytes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "bench/eval/commands.h"
#include "bench/eval/sim.h"
#include "tools/common/cli_helpers.h"

static const char help[] =
	"usage: h2emv sim [options]\n"
	"\n"
	"Write a simulated robot history, one observation per line in the format\n"
	"`h2emv ingest` reads (docs/formats.md), for trying the memory out and for the\n"
	"evaluation. A history is a run of episodes spread over plausible dates, as in\n"
	"the H2-EMV paper: 1-2 episodes a day between 08:00 and 20:00 UTC, nights in\n"
	"between, days skipped with probability 0.6 (at most 5 in a row).\n"
	"\n"
	"  teach  TEACh-like household tasks (make coffee, make toast, cook a slice of\n"
	"         potato, boil a potato, clean all the bowls, water the plant, make a\n"
	"         salad, put all the forks in a drawer, prepare breakfast, ...) in a\n"
	"         flat with a kitchen, living room, bedroom and bathroom: dialog with\n"
	"         the commander (speakers \"commander\" and \"robot\"), motion steps\n"
	"         (Navigate, Forward, TurnLeft, ...), interactions such as\n"
	"         Pickup(Mug_1), Place(Mug_1, CoffeeMachine), ToggleOn(Faucet),\n"
	"         Slice(Potato_0), Pour(Mug_1, Sink), Open/Close, each succeeded or\n"
	"         failed, and at every step what the robot sees: objects with states\n"
	"         (dirty, sliced, cooked, filled, open, toggled, pickedUp) and\n"
	"         relations [Mug_1, CoffeeMachine, on], [Knife_0, hand, in].\n"
	"         The goal is the task: [\"MakeCoffee\"], [\"PrepareBreakfast\", \"MakeToast\"].\n"
	"  armar  ARMAR-7-like humanoid sessions: navigation to named places (the\n"
	"         location follows), people by name, hand-overs, valuables seen where\n"
	"         they lie (keys, wallet, medicine, glasses), the dishwasher, speech,\n"
	"         nested skill stacks such as LoadDishwasher.GraspObject.ExecuteTraj\n"
	"         with statuses running / succeeded / failed.\n"
	"  mixed  each episode one of the two.\n"
	"\n"
	"The flat keeps its state between episodes and a few tasks, places, objects\n"
	"and people recur, so the same action on the same kind of object comes back\n"
	"on different days. The first observation of each episode has the note\n"
	"\"episode N: <task>\"; the last one carries the outcome (goal_status).\n"
	"\n"
	"  -n, --episodes N   how many episodes (default 5; at most 100000)\n"
	"  -s, --seed S       the random seed (default 1); same seed, same bytes\n"
	"      --style STYLE  teach (default), armar or mixed\n"
	"      --start DATE   the first day, YYYY-MM-DD (default: 2024-01-01 +- 304\n"
	"                     days, drawn from the seed)\n"
	"  -o, --output FILE  write there (default: standard output)\n"
	"      --list-tasks   print the tasks of each style and exit\n"
	"  -q, --quiet        no summary on standard error\n"
	"  -h, --help         this help\n"
	"\n"
	"example:\n"
	"  h2emv sim --episodes 25 --seed 7 -o history.jsonl && h2emv ingest -m mem --create history.jsonl\n"
	"\n"
	"exit status: 0 written; 2 an error (cannot write); 64 usage error.\n";

typedef struct out {
	FILE *f;
	uint64_t lines, bytes, episodes;
	h2emv_time first, last;
} out;

static int write_line(void *arg, const char *line, size_t len)
{
	out *o = arg;
	if (fwrite(line, 1, len, o->f) != len || putc('\n', o->f) == EOF)
		return H2EMV_EIO;
	o->lines++;
	o->bytes += len + 1;
	return 0;
}

static int count_episode(void *arg, const sim_episode *ep)
{
	out *o = arg;
	if (!o->episodes++)
		o->first = ep->start;
	o->last = ep->end;
	return 0;
}

static int list_tasks(void)
{
	sim_task_info tasks[64];
	size_t n = sim_tasks(tasks, 64);
	for (size_t k = 0; k < n && k < 64; k++)
		printf("%-6s %-42s %s\n", sim_style_name(tasks[k].style), tasks[k].name, tasks[k].title);
	return EXIT_OK;
}

/* YYYY-MM-DD, a real date (no February 30th). */
static int parse_start(h2emv_time *t, const char *s)
{
	int y, m, d, n = 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || s[n] || n != 10 || cli_when(t, NULL, s))
		return -1;
	char back[32];
	cli_time(back, sizeof back, *t);
	return strncmp(back, s, 10) ? -1 : 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "episodes", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "style", required_argument, NULL, 'S' },
		{ "start", required_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "list-tasks", no_argument, NULL, 'L' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	sim_options so = SIM_OPTIONS_INIT;
	const char *path = NULL;
	int quiet = 0, c;
	uint64_t v;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:s:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (cli_u64(&v, optarg) || v < 1 || v > SIM_MAX_EPISODES)
				return cli_usage("sim", "--episodes takes 1 to %u", SIM_MAX_EPISODES);
			so.episodes = (unsigned)v;
			break;
		case 's':
			if (cli_u64(&so.seed, optarg))
				return cli_usage("sim", "--seed takes an unsigned number");
			break;
		case 'S':
			if (sim_style_parse(&so.style, optarg))
				return cli_usage("sim", "--style is teach, armar or mixed, not '%s'", optarg);
			break;
		case 'D':
			if (parse_start(&so.start, optarg) || so.start < 365ll * 86400 * 1000000)
				return cli_usage("sim", "--start takes a date YYYY-MM-DD from 1971 on, not '%s'",
				                 optarg);
			break;
		case 'o': path = optarg; break;
		case 'L': return list_tasks();
		case 'q': quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("sim", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("sim", "unexpected argument '%s'", argv[optind]);
	out o = { 0 };
	o.f = path && strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!o.f) {
		fprintf(stderr, "h2emv sim: cannot write %s: %s\n", path, strerror(errno));
		return EXIT_ERROR;
	}
	so.on_episode = count_episode;
	h2emv_error err = { 0 };
	int rc = sim_generate(&so, write_line, &o, &err);
	int werr = fflush(o.f) != 0 || ferror(o.f);
	if (o.f != stdout && fclose(o.f) != 0)
		werr = 1;
	if (rc == H2EMV_EIO || (rc == H2EMV_OK && werr)) {
		fprintf(stderr, "h2emv sim: cannot write %s: %s\n", path ? path : "standard output",
		        strerror(errno));
		return EXIT_ERROR;
	}
	if (rc)
		return cli_fail("sim", rc, &err);
	if (!quiet) {
		char a[32], b[32];
		fprintf(stderr, "h2emv sim: %llu episodes (%s), %llu observations, %llu bytes, %s .. %s%s%s\n",
		        (unsigned long long)o.episodes, sim_style_name(so.style),
		        (unsigned long long)o.lines, (unsigned long long)o.bytes,
		        cli_time(a, sizeof a, o.first), cli_time(b, sizeof b, o.last),
		        path ? " -> " : "", path ? path : "");
	}
	return EXIT_OK;
}
