/*
 * cmd_import.c — `h2emv import`: turn recorded robot data (TEACh EDH
 * episodes, the ARMAR-7 history tree) into observation JSON Lines that
 * `h2emv ingest` takes. The mapping lives in tools/import/ (import.h).
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/import/import.h"
#include "tools/cli.h"

static const char help[] =
	"usage: h2emv import teach [PATH ...] [--episodes N] [--seed S] [--start TIME ...]\n"
	"                          [-m DIR] [-o FILE]\n"
	"       h2emv import armar [FILE] [--from TIME] [--to TIME] [--limit N] [-m DIR] [-o FILE]\n"
	"       h2emv import rosbag BAG [--mapping FILE] (-m DIR [--create] [--build] | -o FILE)\n"
	"\n"
	"Write an observation history (JSON Lines, docs/formats.md) built from real\n"
	"robot data, to standard output or FILE. Pipe it into 'h2emv ingest'.\n"
	"\n"
	"The data is read where it lies. Without a PATH or FILE, the default sits under\n"
	"the external data folder named by $" IMP_DATA_ENV " (there is no built-in one):\n"
	"with neither, the import stops and says so.\n"
	"\n"
	"teach  TEACh EDH instances (*.edhN.json; CDLA-Sharing-1.0), default\n"
	"       $" IMP_DATA_ENV "/" IMP_TEACH_SUBDIR "\n"
	"       ({train,valid_seen,valid_unseen}/, 44 episodes). A PATH is a file or a\n"
	"       directory searched recursively. Each episode is one file, and the\n"
	"       episodes are concatenated over simulated days as the paper's\n"
	"       generator does: a start within 2024-01-01 +-304 days, 1-2 episodes a\n"
	"       day between 08:00 and 20:00 UTC, days skipped with probability 0.6\n"
	"       (at most 5 in a row), >= 30 s between episodes.\n"
	"       One observation per Driver action (Motion, ObjectInteraction, Text)\n"
	"       and per Commander utterance; progress checks and Commander camera\n"
	"       moves are skipped.\n"
	"         t        episode start + time_start - the first step's time_start\n"
	"         action   Pickup(Tomato_0), Place(Tomato_0, CounterTop_1) (held\n"
	"                  object first), TurnLeft, StepLeft (Pan Left), Say;\n"
	"                  status succeeded/failed from 'success'\n"
	"         speech   {speaker: Commander|Driver, text} (corrected utterance);\n"
	"                  persons [Commander] when the Commander speaks\n"
	"         goal     the next successful object interaction the step leads to\n"
	"         objects  the held object (relation 'inside' 'agent hand'), the\n"
	"                  action's objects, and the objects the state diffs mark\n"
	"                  visible at the end of the EDH history and of the episode;\n"
	"                  state 'open, toggled, cooked, ...'; relations 'in/on'\n"
	"         note     'TEACh <split>/<instance_id>' on an episode's first line\n"
	"  -n, --episodes N   sample N files (without replacement when N <= the files,\n"
	"                     with replacement otherwise); default: every file once\n"
	"  -s, --seed S       the seed for sampling and dates (default 42)\n"
	"      --start TIME   the start of each episode instead of random dates; give\n"
	"                     it once per file, in order (UTC, 'YYYY-MM-DD HH:MM:SS')\n"
	"  -v, --verbose      one line per episode on stderr: file, start, end, lines\n"
	"\n"
	"armar  The ARMAR-7 recording (KIT and Futurium Berlin, 2024-06-26 to\n"
	"       2024-07-13; hierarchical-emv, no license: internal research only),\n"
	"       default\n"
	"       $" IMP_DATA_ENV "/" IMP_ARMAR_SUBPATH "\n"
	"       One observation per SceneGraphInstant, in time order.\n"
	"         t        raw.timestamp (UTC)\n"
	"         action   {name: current_action, args: current_action_parameters,\n"
	"                  status: current_action_state}\n"
	"         goal     current_goal split on '.'; goal_status current_goal_state\n"
	"         speech   asr_recognition (raw, no speaker); what a Say skill said,\n"
	"                  once, speaker 'robot'\n"
	"         persons  human_<humanTrackingId> while looking at a tracked human;\n"
	"                  LearnCurrentPerson's name; 'user' when a chain triggered\n"
	"                  by user speech starts\n"
	"         objects  {id: instance_id, type: obj_class, state}; relations as given\n"
	"      --from TIME    only observations at or after TIME (UTC)\n"
	"      --to TIME      only observations before TIME\n"
	"  -l, --limit N      at most N observations\n"
	"\n"
	"  -o, --output FILE  write to FILE (replaced only when the import succeeds)\n"
	"  -m, --mem DIR      record the source's robot profile (armar7 or teach; see\n"
	"                     h2emv profile) in memory DIR, created if missing, so its\n"
	"                     first build needs no configuration\n"
	"  -q, --quiet        no progress bar, no summary\n"
	"  -h, --help         this help\n"
	"\n"
	"rosbag A recorded ROS 1 bag through a ROS bridge mapping (docs/ros.md), into\n"
	"       memory DIR or as JSON Lines: runs h2emv-rosbag (Python, python3-rosbag),\n"
	"       installed beside h2emv; see h2emv-rosbag --help.\n"
	"\n"
	"Example: h2emv import armar -m /tmp/armar | h2emv ingest -m /tmp/armar\n";

typedef struct out {
	FILE *f;
	int quiet;
} out;

static int emit_line(void *arg, const char *line, size_t len)
{
	out *o = arg;
	if (fwrite(line, 1, len, o->f) != len || putc('\n', o->f) == EOF)
		return H2EMV_EIO;
	return H2EMV_OK;
}

static int print_episode(void *arg, const imp_episode *ep)
{
	(void)arg;
	char a[40], b[40];
	fprintf(stderr, "episode %zu: %s  %s .. %s  %llu lines\n", ep->index, ep->path,
	        cli_time(a, sizeof a, ep->start), cli_time(b, sizeof b, ep->end),
	        (unsigned long long)ep->observations);
	return 0;
}

static void summary(const imp_stats *st, double secs)
{
	char a[40], b[40];
	fprintf(stderr,
	        "imported %llu observations from %llu episode%s (%s .. %s) in %.2f s: %llu actions, "
	        "%llu utterances, %llu with objects, %llu with persons; %llu source records skipped",
	        (unsigned long long)st->observations, (unsigned long long)st->episodes,
	        st->episodes == 1 ? "" : "s", cli_time(a, sizeof a, st->first),
	        cli_time(b, sizeof b, st->last), secs, (unsigned long long)st->actions,
	        (unsigned long long)st->utterances, (unsigned long long)st->with_objects,
	        (unsigned long long)st->with_persons, (unsigned long long)st->skipped);
	if (st->reordered)
		fprintf(stderr, ", %llu out of time order (sorted)", (unsigned long long)st->reordered);
	fputc('\n', stderr);
}

/* Open -o FILE's temporary sibling, or stdout. */
static int open_out(out *o, const char *file, char *tmp, size_t n)
{
	if (!file) {
		o->f = stdout;
		return 0;
	}
	snprintf(tmp, n, "%s.tmp.%ld", file, (long)getpid());
	if (!(o->f = fopen(tmp, "w"))) {
		fprintf(stderr, "h2emv import: cannot write %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	return 0;
}

static int close_out(out *o, const char *file, const char *tmp, int ok)
{
	int bad = fflush(o->f) != 0 || ferror(o->f);
	if (file) {
		bad |= fclose(o->f) != 0;
		if (ok && !bad && rename(tmp, file) != 0)
			bad = 1;
		if (!ok || bad)
			unlink(tmp);
	}
	if (ok && bad)
		fprintf(stderr, "h2emv import: writing %s: %s\n", file ? file : "<stdout>", strerror(errno));
	return ok && !bad;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Record the source's shipped robot profile in memory `dir`. */
static int record_profile(const char *dir, const char *name)
{
	h2emv_mem *m = cli_open(dir, H2EMV_OPEN_CREATE);
	if (!m)
		return -1;
	h2emv_error err = { 0 };
	const char *p = h2emv_profile_builtin(name);
	int rc = p ? h2emv_profile_set(m, p, strlen(p), &err) : H2EMV_ENOTFOUND;
	h2emv_mem_close(m);
	if (rc) {
		cli_fail("import", rc, &err);
		return -1;
	}
	return 0;
}

/* The source's data under $H2EMV_DATA when no PATH or FILE is given; with
 * the variable unset, NULL after telling the user what to pass. */
static const char *default_path(char *buf, size_t n, int teach)
{
	const char *sub = teach ? IMP_TEACH_SUBDIR : IMP_ARMAR_SUBPATH;
	const char *p = imp_default_path(buf, n, sub);
	if (!p)
		cli_usage("import",
		          "no %s given and " IMP_DATA_ENV " is not set: pass %s, or set " IMP_DATA_ENV
		          " to the external data folder (the one holding %s)",
		          teach ? "TEACh data" : "ARMAR-7 tree", teach ? "PATH" : "FILE", sub);
	return p;
}

/* What the command line asked for. */
typedef struct import_args {
	const char *what, *file, *mem_dir;
	int teach, quiet, verbose;
	imp_teach_options to;
	imp_armar_options ao;
	h2emv_time *starts; /* --start, once per file (malloc'd) */
	size_t n_starts;
	const char *const *paths; /* the PATH/FILE operands */
	size_t n_paths;
} import_args;

/* One option of getopt_long. -1 to go on, else the exit status. */
static int take_option(import_args *a, int c, const char *arg)
{
	uint64_t u;
	h2emv_time t;
	h2emv_time *ns;
	switch (c) {
	case 'n':
		if (!a->teach || cli_u64(&u, arg) || u == 0 || u > 1000000)
			return cli_usage("import", "--episodes takes 1 to 1000000 (teach only)");
		a->to.episodes = (uint32_t)u;
		return -1;
	case 's':
		if (!a->teach || cli_u64(&a->to.seed, arg))
			return cli_usage("import", "--seed takes a number (teach only)");
		return -1;
	case 'S':
		if (!a->teach || imp_parse_time(&t, arg) ||
		    !(ns = realloc(a->starts, (a->n_starts + 1) * sizeof *ns)))
			return cli_usage("import", "--start takes a UTC time 'YYYY-MM-DD HH:MM:SS' (teach only)");
		a->starts = ns;
		a->starts[a->n_starts++] = t;
		return -1;
	case 'F':
	case 'T':
		if (a->teach || imp_parse_time(c == 'F' ? &a->ao.from : &a->ao.to, arg))
			return cli_usage("import", "--from/--to take a UTC time 'YYYY-MM-DD[ HH:MM:SS]' (armar only)");
		return -1;
	case 'l':
		if (a->teach || cli_u64(&a->ao.limit, arg))
			return cli_usage("import", "--limit takes a number (armar only)");
		return -1;
	case 'o': a->file = arg; return -1;
	case 'm': a->mem_dir = arg; return -1;
	case 'q': a->quiet = 1; return -1;
	case 'v': a->verbose = 1; return -1;
	case 'h': fputs(help, stdout); return EXIT_OK;
	default: return cli_usage("import", "unknown option");
	}
}

/* The options and operands after the source's name (argv[0]). -1 when
 * they make sense, else the exit status. */
static int parse_args(import_args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "episodes", required_argument, NULL, 'n' }, { "seed", required_argument, NULL, 's' },
		{ "start", required_argument, NULL, 'S' },    { "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },       { "limit", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },   { "quiet", no_argument, NULL, 'q' },
		{ "mem", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },        { "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, rc;
	while ((c = getopt_long(argc, argv, "n:s:l:o:m:qvh", opts, NULL)) != -1)
		if ((rc = take_option(a, c, optarg)) >= 0)
			return rc;
	if (!a->teach && argc - optind > 1)
		return cli_usage("import", "armar takes one FILE");
	a->paths = (const char *const *)argv + optind;
	a->n_paths = (size_t)(argc - optind);
	return -1;
}

/* Run the importer of the source over `paths`, writing to `o`. */
static int run_import(import_args *a, const char *const *paths, size_t n_paths, out *o,
                      imp_stats *st, h2emv_error *err)
{
	cli_progress progress;
	cli_progress_begin(&progress, a->what, a->quiet);
	int rc;
	if (a->teach) {
		a->to.paths = paths;
		a->to.n_paths = n_paths;
		a->to.starts = a->starts;
		a->to.n_starts = a->n_starts;
		a->to.on_episode = a->verbose ? print_episode : NULL;
		a->to.progress = cli_progress_cb;
		a->to.progress_ctx = &progress;
		rc = imp_teach(st, &a->to, emit_line, o, err);
	} else {
		a->ao.path = paths[0];
		a->ao.progress = cli_progress_cb;
		a->ao.progress_ctx = &progress;
		rc = imp_armar(st, &a->ao, emit_line, o, err);
	}
	cli_progress_end(&progress);
	return rc;
}

/* Everything after the arguments: the default data path, the profile,
 * the output file, the import and its summary. Returns the exit status. */
static int import_source(import_args *a)
{
	char def[4096];
	const char *dflt[1] = { NULL };
	if (!a->n_paths && !(dflt[0] = default_path(def, sizeof def, a->teach)))
		return EXIT_USAGE;
	if (a->mem_dir && record_profile(a->mem_dir, a->teach ? "teach" : "armar7"))
		return EXIT_ERROR;
	out o = { .quiet = a->quiet };
	char tmp[4096];
	if (open_out(&o, a->file, tmp, sizeof tmp))
		return EXIT_ERROR;
	imp_stats st = { 0 };
	h2emv_error err = { 0 };
	double t0 = now_s();
	int rc = a->n_paths ? run_import(a, a->paths, a->n_paths, &o, &st, &err)
	                    : run_import(a, dflt, 1, &o, &st, &err);
	int ok = close_out(&o, a->file, tmp, rc == H2EMV_OK);
	if (rc != H2EMV_OK)
		return cli_fail("import", rc, &err);
	if (!ok)
		return EXIT_ERROR;
	if (!a->quiet)
		summary(&st, now_s() - t0);
	return EXIT_OK;
}

/* `h2emv import rosbag ...` is carried by h2emv-rosbag (tools/ros/, Python:
 * reading bags needs python3-rosbag; docs/ros.md), found next to h2emv,
 * else on $PATH. */
static int run_rosbag(char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	argv[0] = (char *)"h2emv-rosbag";
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			snprintf(path, sizeof path, "%s/h2emv-rosbag", self);
			if (access(path, X_OK) == 0)
				execv(path, argv);
		}
	}
	execvp("h2emv-rosbag", argv);
	fprintf(stderr, "h2emv: import rosbag: cannot run h2emv-rosbag (%s); `cmake --install` "
	        "puts it beside h2emv (docs/ros.md)\n", strerror(errno));
	return EXIT_ERROR;
}

int cmd_import(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(help, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "rosbag"))
		return run_rosbag(argv + 1);
	import_args a = { .what = argv[1], .to = IMP_TEACH_OPTIONS_INIT,
		          .ao = IMP_ARMAR_OPTIONS_INIT };
	a.teach = !strcmp(a.what, "teach");
	if (!a.teach && strcmp(a.what, "armar"))
		return cli_usage("import", "unknown source '%s' (teach, armar or rosbag)", a.what);
	int rc = parse_args(&a, argc - 1, argv + 1);
	if (rc < 0)
		rc = import_source(&a);
	free(a.starts);
	return rc;
}
