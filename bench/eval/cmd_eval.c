/*
 * cmd_eval.c — `h2emv eval`: the paper's two-round evaluation over
 * simulated, imported or given histories, for any of its 13 variants, with
 * the TSV, Markdown and SVG outputs (bench/eval/, docs/evaluation.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/eval/commands.h"
#include "bench/eval/eval.h"
#include "bench/eval/qagen.h"
#include "bench/eval/report.h"
#include "bench/eval/sim.h"
#include "tools/common/cli_helpers.h"
#include "tools/import/import.h"

static const char help[] =
	"usage: h2emv eval [options]\n"
	"\n"
	"Run the H2-EMV paper's two-round evaluation: each history is replayed through a\n"
	"fresh memory per variant; at each question's time the replay pauses, the question\n"
	"goes through the dialog manager, the answer is judged, and after a round-1\n"
	"question the feedback (\"You should always remember ...\") is given. Questions are\n"
	"generated from each history by the paper's recipe (first and last occurrence of\n"
	"the same kind of event, a day or more apart).\n"
	"\n"
	"Histories:\n"
	"  -s, --source SRC     sim (simulated household, TEACh-like; the default),\n"
	"                       sim-armar (simulated ARMAR-7-like days), teach (the real\n"
	"                       TEACh EDH episodes, concatenated with dates), armar (the\n"
	"                       real ARMAR-7 stream, one history), or file (--history)\n"
	"      --history FILE   a history in JSON Lines (repeatable; implies --source file)\n"
	"  -e, --episodes N     episodes per history (sim, teach; default 5)\n"
	"  -n, --histories N    histories (default 10; armar: always 1)\n"
	"  -p, --pairs N        question pairs per history (default 5; armar 10)\n"
	"      --data PATH      the TEACh EDH directory or the ARMAR-7 tree file\n"
	"                       (default $H2EMV_TEACH_DIR / $H2EMV_ARMAR_TREE, else\n"
	"                       $" IMP_DATA_ENV "/" IMP_TEACH_SUBDIR " and\n"
	"                       $" IMP_DATA_ENV "/" IMP_ARMAR_SUBPATH ";\n"
	"                       no built-in default: one of them must be given)\n"
	"      --seed S         seed of histories and questions (default 1)\n"
	"\n"
	"Variants (the paper's appendix table; default all 13):\n"
	"  -v, --variants LIST  comma-separated ids, \"main\" (A,B,D,F,G,J,K,L) or \"all\":\n"
	"                       A ours, AA no summ. learn., B no learning, C learn only\n"
	"                       summ., D time-only forg., E no f. learn summ., F no forg.,\n"
	"                       G offl. full, H offl. no learning, I offl. time-only forg.,\n"
	"                       J offl. no forg., K flat full, L flat no forg.\n"
	"      --policy NAME    builtin (default) or llm\n"
	"      --llm-config F   the llm policy's config (docs/llm.md; default\n"
	"                       $H2EMV_LLM_CONFIG)\n"
	"      --judge NAME     builtin (deterministic, the default) or llm (the model\n"
	"                       grades; a reply that does not parse falls back to builtin)\n"
	"      --tolerance DUR  the judge's time tolerance (default 60s)\n"
	"\n"
	"Output:\n"
	"  -o, --out DIR        results directory (default ./h2emv-eval): results.tsv (one\n"
	"                       line per variant), answers.tsv (one line per question),\n"
	"                       results.md (the paper's table), chart.svg (rounds 1 vs 2,\n"
	"                       tree size, QA tokens), questions-H.jsonl, history-H.jsonl\n"
	"      --keep           keep every memory directory under DIR/mem\n"
	"  -q, --quiet          no progress\n"
	"  -h, --help           this help\n"
	"\n"
	"Metrics (docs/evaluation.md): S_c, S_p (correct, correct or partially correct),\n"
	"S_up, S_eq (pairs better / same in round 2), S_c1 S_p1 S_c2 S_p2 per round, N_f\n"
	"and N_avg (L3+ tree size, final and average), C_qa and C_f (K tokens per question\n"
	"and of forgetting per history), and the forgotten ratio per round.\n"
	"\n"
	"example: h2emv eval --episodes 25 --variants main -o eval-25\n";

typedef struct eval_cfg {
	const char *source, *data, *out, *policy, *llm_config, *judge;
	const char **files;
	size_t n_files;
	unsigned episodes, histories, pairs;
	uint64_t seed;
	const ev_variant *v[EV_N_VARIANTS];
	size_t n_v;
	h2emv_time tolerance;
	int keep, quiet;
} eval_cfg;

static int parse_variants(eval_cfg *c, const char *list)
{
	c->n_v = 0;
	if (!strcmp(list, "all")) {
		for (size_t i = 0; i < EV_N_VARIANTS; i++)
			c->v[c->n_v++] = &ev_variants[i];
		return 0;
	}
	if (!strcmp(list, "main"))
		list = "A,B,D,F,G,J,K,L";
	char buf[256];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const ev_variant *v = ev_variant_find(t);
		if (!v || c->n_v == EV_N_VARIANTS)
			return -1;
		c->v[c->n_v++] = v;
	}
	return c->n_v ? 0 : -1;
}

static int emit_line(void *arg, const char *line, size_t len)
{
	h2emv_error err = { 0 };
	return qg_history_add(arg, line, len, &err);
}

/* History number k of the configured source. */
static int make_history(qg_history *h, const eval_cfg *c, size_t k, h2emv_error *err)
{
	if (!strcmp(c->source, "file"))
		return qg_history_load(h, c->files[k], err);
	if (!strcmp(c->source, "sim") || !strcmp(c->source, "sim-armar")) {
		sim_options so = SIM_OPTIONS_INIT;
		so.style = !strcmp(c->source, "sim") ? SIM_STYLE_TEACH : SIM_STYLE_ARMAR;
		so.episodes = c->episodes;
		so.seed = c->seed * 1000 + k;
		return sim_generate(&so, emit_line, h, err);
	}
	if (!strcmp(c->source, "teach")) {
		imp_teach_options to = IMP_TEACH_OPTIONS_INIT;
		const char *paths[1] = { c->data }; /* resolved by find_data */
		to.paths = paths;
		to.n_paths = 1;
		to.episodes = c->episodes;
		to.seed = c->seed * 1000 + k;
		imp_stats st;
		return imp_teach(&st, &to, emit_line, h, err);
	}
	imp_armar_options ao = IMP_ARMAR_OPTIONS_INIT;
	ao.path = c->data;
	imp_stats st;
	return imp_armar(&st, &ao, emit_line, h, err);
}

static void progress(void *arg, const ev_variant *v, size_t done, size_t total)
{
	cli_progress *p = arg;
	p->label = v->name;
	cli_progress_show(p, done, total, "questions");
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text ? text : "", f);
	return fclose(f);
}

static int write_outputs(const eval_cfg *c, ev_result *res, const char *title)
{
	const char *names[] = { "results.tsv", "answers.tsv", "results.md", "chart.svg" };
	for (int i = 0; i < 4; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", c->out, names[i]);
		FILE *f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "h2emv eval: cannot write %s: %s\n", path, strerror(errno));
			return EXIT_ERROR;
		}
		if (i == 0)
			ev_write_tsv(f, res, c->n_v);
		else if (i == 1)
			ev_write_answers_tsv(f, res, c->n_v);
		else if (i == 2)
			ev_write_markdown(f, res, c->n_v, title);
		else
			ev_write_svg(f, res, c->n_v, title);
		if (fclose(f)) {
			fprintf(stderr, "h2emv eval: cannot write %s: %s\n", path, strerror(errno));
			return EXIT_ERROR;
		}
	}
	return EXIT_OK;
}

/* One history through every chosen variant. */
static int run_history(const eval_cfg *c, ev_result *res, size_t k, const char *workdir)
{
	qg_history h = { 0 };
	qg_set qs = { 0 };
	h2emv_error err = { 0 };
	int rc = make_history(&h, c, k, &err);
	if (rc == H2EMV_OK)
		rc = qg_generate(&qs, &h, c->pairs, c->seed * 7919 + k, &err);
	if (rc != H2EMV_OK) {
		qg_history_free(&h);
		return cli_fail("eval", rc, &err);
	}
	char name[64];
	char *jl = qg_set_jsonl(&qs);
	snprintf(name, sizeof name, "questions-%zu.jsonl", k);
	int wr = write_file(c->out, name, jl);
	free(jl);
	snprintf(name, sizeof name, "history-%zu.jsonl", k);
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", c->out, name);
	FILE *hf = fopen(path, "w");
	for (size_t i = 0; hf && i < h.n; i++)
		fprintf(hf, "%s\n", h.lines[i]);
	if (!hf || fclose(hf))
		wr = -1;
	if (!c->quiet)
		fprintf(stderr, "history %zu: %zu observations, %zu questions\n", k, h.n, qs.n);
	ev_options o;
	memset(&o, 0, sizeof o);
	o.version = EV_OPTIONS_VERSION;
	o.workdir = workdir;
	o.keep = c->keep;
	o.judge_tolerance = c->tolerance;
	o.policy = c->policy;
	o.llm_config = c->llm_config;
	o.judge = c->judge;
	o.profile = !strcmp(c->source, "armar") || !strcmp(c->source, "sim-armar")
	                    ? H2EMV_PROFILE_SKILL_STACK
	                    : H2EMV_PROFILE_TEACH;
	cli_progress bar;
	cli_progress_begin(&bar, "eval", c->quiet);
	o.progress = progress;
	o.progress_arg = &bar;
	for (size_t i = 0; rc == H2EMV_OK && i < c->n_v; i++)
		rc = ev_run_history(&res[i], c->v[i], &h, &qs, k, &o, &err);
	cli_progress_end(&bar);
	qg_set_free(&qs);
	qg_history_free(&h);
	if (rc != H2EMV_OK)
		return cli_fail("eval", rc, &err);
	if (wr)
		fprintf(stderr, "h2emv eval: cannot write %s/%s\n", c->out, name);
	return wr ? EXIT_ERROR : EXIT_OK;
}

/* The real data of --source teach|armar: --data, else the source's own
 * variable, else under $H2EMV_DATA. 0, or a usage error naming them. */
static int find_data(eval_cfg *c)
{
	static char def[4096];
	int teach = !strcmp(c->source, "teach");
	if (!teach && strcmp(c->source, "armar"))
		return 0;
	const char *env = getenv(teach ? "H2EMV_TEACH_DIR" : "H2EMV_ARMAR_TREE");
	if (!c->data && env && *env)
		c->data = env;
	if (!c->data)
		c->data = imp_default_path(def, sizeof def, teach ? IMP_TEACH_SUBDIR : IMP_ARMAR_SUBPATH);
	if (c->data)
		return 0;
	return cli_usage("eval",
	                 "--source %s: no data given: pass --data PATH, set %s to it, or set " IMP_DATA_ENV
	                 " to the external data folder (the one holding %s)",
	                 c->source, teach ? "H2EMV_TEACH_DIR" : "H2EMV_ARMAR_TREE",
	                 teach ? IMP_TEACH_SUBDIR : IMP_ARMAR_SUBPATH);
}

static int parse_args(eval_cfg *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' }, { "history", required_argument, NULL, 'H' },
		{ "episodes", required_argument, NULL, 'e' }, { "histories", required_argument, NULL, 'n' },
		{ "pairs", required_argument, NULL, 'p' },  { "data", required_argument, NULL, 'D' },
		{ "seed", required_argument, NULL, 'S' },   { "variants", required_argument, NULL, 'v' },
		{ "policy", required_argument, NULL, 'P' }, { "llm-config", required_argument, NULL, 'L' },
		{ "tolerance", required_argument, NULL, 'T' }, { "out", required_argument, NULL, 'o' },
		{ "judge", required_argument, NULL, 'J' },
		{ "keep", no_argument, NULL, 'K' },         { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },         { 0 },
	};
	uint64_t v;
	int ch, pairs_set = 0;
	while ((ch = getopt_long(argc, argv, "s:e:n:p:v:o:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 's': c->source = optarg; break;
		case 'H': {
			const char **f = realloc(c->files, (c->n_files + 1) * sizeof *f);
			if (!f)
				return cli_usage("eval", "out of memory");
			c->files = f;
			c->files[c->n_files++] = optarg;
			c->source = "file";
			break;
		}
		case 'e':
			if (cli_u64(&v, optarg) || v == 0 || v > 10000)
				return cli_usage("eval", "--episodes takes a number from 1 to 10000");
			c->episodes = (unsigned)v;
			break;
		case 'n':
			if (cli_u64(&v, optarg) || v == 0 || v > 10000)
				return cli_usage("eval", "--histories takes a number from 1 to 10000");
			c->histories = (unsigned)v;
			break;
		case 'p':
			if (cli_u64(&v, optarg) || v == 0 || v > 1000)
				return cli_usage("eval", "--pairs takes a number from 1 to 1000");
			c->pairs = (unsigned)v;
			pairs_set = 1;
			break;
		case 'D': c->data = optarg; break;
		case 'S':
			if (cli_u64(&c->seed, optarg))
				return cli_usage("eval", "--seed takes a number");
			break;
		case 'v':
			if (parse_variants(c, optarg))
				return cli_usage("eval", "--variants: unknown variant in '%s'", optarg);
			break;
		case 'P': c->policy = optarg; break;
		case 'L': c->llm_config = optarg; break;
		case 'J': c->judge = optarg; break;
		case 'T':
			if (cli_duration(&c->tolerance, optarg))
				return cli_usage("eval", "--tolerance takes a duration like 60s or 5m");
			break;
		case 'o': c->out = optarg; break;
		case 'K': c->keep = 1; break;
		case 'q': c->quiet = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("eval", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("eval", "unexpected argument '%s'", argv[optind]);
	static const char *const sources[] = { "sim", "sim-armar", "teach", "armar", "file" };
	int known = 0;
	for (size_t i = 0; i < 5; i++)
		known |= !strcmp(c->source, sources[i]);
	if (!known)
		return cli_usage("eval", "--source: unknown source '%s'", c->source);
	if (!strcmp(c->source, "file") && !c->n_files)
		return cli_usage("eval", "--source file needs --history FILE");
	if (!strcmp(c->source, "file"))
		c->histories = (unsigned)c->n_files;
	if (find_data(c))
		return EXIT_USAGE;
	if (!strcmp(c->source, "armar")) {
		c->histories = 1;
		if (!pairs_set)
			c->pairs = 10;
	}
	if (strcmp(c->policy, "builtin") && strcmp(c->policy, "llm"))
		return cli_usage("eval", "--policy is builtin or llm");
	if (strcmp(c->judge, "builtin") && strcmp(c->judge, "llm"))
		return cli_usage("eval", "--judge is builtin or llm");
	if (!c->llm_config)
		c->llm_config = getenv("H2EMV_LLM_CONFIG");
	return -1;
}

int cmd_eval(int argc, char **argv)
{
	eval_cfg c = { .source = "sim", .out = "h2emv-eval", .policy = "builtin", .judge = "builtin",
		       .episodes = 5,
		       .histories = 10, .pairs = 5, .seed = 1 };
	parse_variants(&c, "all");
	const char *env_policy = getenv("H2EMV_POLICY"); /* h2emv --policy NAME eval ... */
	if (env_policy && *env_policy)
		c.policy = env_policy;
	int rc = parse_args(&c, argc, argv);
	if (rc >= 0) {
		free(c.files);
		return rc;
	}
	char workdir[4096];
	snprintf(workdir, sizeof workdir, "%s/mem", c.out);
	if ((mkdir(c.out, 0777) && errno != EEXIST) || (mkdir(workdir, 0777) && errno != EEXIST)) {
		fprintf(stderr, "h2emv eval: cannot create %s: %s\n", workdir, strerror(errno));
		free(c.files);
		return EXIT_ERROR;
	}
	ev_result *res = calloc(c.n_v, sizeof *res);
	if (!res) {
		free(c.files);
		return cli_usage("eval", "out of memory");
	}
	int status = EXIT_OK;
	for (size_t k = 0; status == EXIT_OK && k < c.histories; k++)
		status = run_history(&c, res, k, workdir);
	if (status == EXIT_OK) {
		char title[256];
		if (!strcmp(c.source, "armar") || !strcmp(c.source, "file"))
			snprintf(title, sizeof title, "h2emv eval: %s, %u histor%s, %s policy, %s judge",
			         c.source, c.histories, c.histories == 1 ? "y" : "ies", c.policy, c.judge);
		else
			snprintf(title, sizeof title,
			         "h2emv eval: %s, %u histories x %u episodes, %s policy, %s judge",
			         c.source, c.histories, c.episodes, c.policy, c.judge);
		status = write_outputs(&c, res, title);
		if (status == EXIT_OK && !c.quiet) {
			ev_write_markdown(stdout, res, c.n_v, title);
			printf("written: %s/results.tsv, answers.tsv, results.md, chart.svg\n", c.out);
		}
	}
	if (!c.keep)
		rmdir(workdir);
	for (size_t i = 0; i < c.n_v; i++)
		ev_result_free(&res[i]);
	free(res);
	free(c.files);
	return status;
}
