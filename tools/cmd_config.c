/*
 * cmd_config.c — `h2emv config`: show or change how the memory segments,
 * forgets and answers (the h2emv_config stored in the memory).
 */
#include <getopt.h>
#include <jansson.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv config [options]\n"
	"\n"
	"Show the memory's configuration, or change it with the options below (set\n"
	"the profile before the first build: a built tree keeps its profile).\n"
	"\n"
	"  -m, --mem DIR               the memory directory (default $H2EMV_MEM, else\n"
	"                              ./h2emv-memory)\n"
	"      --profile P             teach (a goal ends at each successful object\n"
	"                              interaction) or skill-stack (nested goals from\n"
	"                              the observation's goal stack, as on ARMAR-7)\n"
	"      --forgetting F          relevance (the paper), time (no policy), or none\n"
	"      --life-scene AGE        lifetime of an L1 scene (default 1h)\n"
	"      --life-event AGE        of an L2 event (default 3h)\n"
	"      --life-goal AGE         of an L3 goal (default 24h)\n"
	"      --life-summary AGE      of an L4 summary, doubled per level above (default 3d)\n"
	"      --event-gap AGE         a pause this long starts a new event (default 2m)\n"
	"      --rules-in-summaries B  learned rules condition summaries (1/0, default 1)\n"
	"      --rules-in-relevance B  learned rules condition relevance (1/0, default 1)\n"
	"      --flat B                goals straight under the root, no summaries (1/0)\n"
	"      --qa-rounds N           question answering: rounds (default 10)\n"
	"      --qa-tokens N           question answering: token budget (default 20000)\n"
	"      --robot-profile FILE    store a robot profile (JSON; or a shipped one:\n"
	"                              armar7, teach), as `h2emv profile set` does\n"
	"      --max-clock-jump AGE    ingest refuses a time more than AGE ahead of the\n"
	"                              memory's clock (its newest observation) or of\n"
	"                              this computer's clock (default 30d; 'off': no\n"
	"                              limit). Keep it above the longest time the robot\n"
	"                              is switched off, or pass ingest --allow-clock-jump\n"
	"                              after such a pause\n"
	"      --raw-log-window AGE    keep every observation this recent (on the\n"
	"                              memory's clock) in the log even once its scene\n"
	"                              is forgotten, to rebuild or audit (default 7d;\n"
	"                              0: gc deletes an observation as soon as no kept\n"
	"                              snapshot holds it; gc --purge does so once)\n"
	"      --max-size SIZE         disk budget of the data file: `build --follow`\n"
	"                              collects and compacts when the file passes it\n"
	"                              (e.g. 2G; 0 = no budget, the default)\n"
	"      --json                  print the configuration as one JSON object\n"
	"                              (times in microseconds: life_scene_us, ...;\n"
	"                              max_clock_jump_us null when off)\n"
	"  -h, --help                  this help\n"
	"\n"
	"AGE is a number with s, m, h, d or w: 90m, 12h, 3d. SIZE is bytes or a number\n"
	"with K, M, G or T: 512M, 2G.\n";

static const char *profile_name(h2emv_profile p)
{
	return p == H2EMV_PROFILE_SKILL_STACK ? "skill-stack" : "teach";
}

static const char *forgetting_name(h2emv_forgetting f)
{
	return f == H2EMV_FORGET_TIME ? "time" : f == H2EMV_FORGET_NONE ? "none" : "relevance";
}

static void show(const h2emv_config *c)
{
	printf("profile             %s\n", profile_name(c->profile));
	printf("forgetting          %s\n", forgetting_name(c->forgetting));
	printf("life-scene          %llds\n", (long long)(c->life_scene / 1000000));
	printf("life-event          %llds\n", (long long)(c->life_event / 1000000));
	printf("life-goal           %llds\n", (long long)(c->life_goal / 1000000));
	printf("life-summary        %llds (x2 per level above 4)\n",
	       (long long)(c->life_summary / 1000000));
	printf("event-gap           %llds\n", (long long)(c->event_gap / 1000000));
	printf("rules-in-summaries  %d\n", c->rules_in_summaries);
	printf("rules-in-relevance  %d\n", c->rules_in_relevance);
	printf("flat                %d\n", c->flat);
	printf("qa-rounds           %u\n", c->qa_max_rounds);
	printf("qa-tokens           %llu\n", (unsigned long long)c->qa_max_tokens);
	if (c->max_clock_jump == H2EMV_TIME_NEVER)
		printf("max-clock-jump      off\n");
	else
		printf("max-clock-jump      %llds\n", (long long)(c->max_clock_jump / 1000000));
	printf("raw-log-window      %llds\n", (long long)(c->raw_log_window / 1000000));
	if (c->max_size)
		printf("max-size            %llu bytes\n", (unsigned long long)c->max_size);
	else
		printf("max-size            none\n");
}

static int show_json(const h2emv_config *c)
{
	return cli_print_json(json_pack(
		"{s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:b,s:b,s:b,s:I,s:I,s:o,s:I,s:I}", "profile",
		profile_name(c->profile), "forgetting", forgetting_name(c->forgetting), "life_scene_us",
		(json_int_t)c->life_scene, "life_event_us", (json_int_t)c->life_event, "life_goal_us",
		(json_int_t)c->life_goal, "life_summary_us", (json_int_t)c->life_summary,
		"event_gap_us", (json_int_t)c->event_gap, "rules_in_summaries", c->rules_in_summaries,
		"rules_in_relevance", c->rules_in_relevance, "flat", c->flat, "qa_rounds",
		(json_int_t)c->qa_max_rounds, "qa_tokens", (json_int_t)c->qa_max_tokens,
		"max_clock_jump_us",
		c->max_clock_jump == H2EMV_TIME_NEVER ? json_null() : json_integer(c->max_clock_jump),
		"raw_log_window_us", (json_int_t)c->raw_log_window, "max_size_bytes",
		(json_int_t)c->max_size));
}

static int flag(int *out, const char *s)
{
	if (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "off"))
		*out = 0;
	else
		return -1;
	return 0;
}

int cmd_config(int argc, char **argv)
{
	enum { P = 256, F, LS, LE, LG, LSU, EG, RS, RR, FL, QR, QT, MJ, RP, RW, MS, JS };
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "profile", required_argument, NULL, P },
		{ "forgetting", required_argument, NULL, F },
		{ "life-scene", required_argument, NULL, LS },
		{ "life-event", required_argument, NULL, LE },
		{ "life-goal", required_argument, NULL, LG },
		{ "life-summary", required_argument, NULL, LSU },
		{ "event-gap", required_argument, NULL, EG },
		{ "rules-in-summaries", required_argument, NULL, RS },
		{ "rules-in-relevance", required_argument, NULL, RR },
		{ "flat", required_argument, NULL, FL },
		{ "qa-rounds", required_argument, NULL, QR },
		{ "qa-tokens", required_argument, NULL, QT },
		{ "max-clock-jump", required_argument, NULL, MJ },
		{ "robot-profile", required_argument, NULL, RP },
		{ "raw-log-window", required_argument, NULL, RW },
		{ "max-size", required_argument, NULL, MS },
		{ "json", no_argument, NULL, JS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL, *robot = NULL;
	int c, changed = 0, json = 0;
	/* options are applied to the stored configuration after opening */
	struct { int id; const char *val; } set[32];
	int n_set = 0;
	while ((c = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		if (c == 'm')
			mem = optarg;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else if (c == RP)
			robot = optarg;
		else if (c == JS)
			json = 1;
		else if (c >= P && n_set < 32)
			set[n_set].id = c, set[n_set++].val = optarg;
		else
			return cli_usage("config", "unknown option");
	}
	if (optind < argc)
		return cli_usage("config", "unexpected argument '%s' (options take the form --name VALUE)",
		                 argv[optind]);
	if (robot) {
		/* the same as `h2emv profile set`, before the other settings */
		char *pargv[] = { "profile", "-m", (char *)cli_mem_dir(mem), "set", (char *)robot, NULL };
		int st = cmd_profile(5, pargv);
		if (st != EXIT_OK)
			return st;
	}
	h2emv_mem *m = cli_open(cli_mem_dir(mem), n_set ? 0 : H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	h2emv_config cfg;
	h2emv_error err = { 0 };
	int rc = h2emv_config_get(&cfg, m, &err);
	if (rc) {
		h2emv_mem_close(m);
		return cli_fail("config", rc, &err);
	}
	for (int i = 0; i < n_set; i++) {
		const char *v = set[i].val;
		uint64_t u;
		int bad = 0;
		switch (set[i].id) {
		case P:
			if (!strcmp(v, "teach"))
				cfg.profile = H2EMV_PROFILE_TEACH;
			else if (!strcmp(v, "skill-stack"))
				cfg.profile = H2EMV_PROFILE_SKILL_STACK;
			else
				bad = 1;
			break;
		case F:
			if (!strcmp(v, "relevance"))
				cfg.forgetting = H2EMV_FORGET_RELEVANCE;
			else if (!strcmp(v, "time"))
				cfg.forgetting = H2EMV_FORGET_TIME;
			else if (!strcmp(v, "none"))
				cfg.forgetting = H2EMV_FORGET_NONE;
			else
				bad = 1;
			break;
		case LS: bad = cli_duration(&cfg.life_scene, v) || !cfg.life_scene; break;
		case LE: bad = cli_duration(&cfg.life_event, v) || !cfg.life_event; break;
		case LG: bad = cli_duration(&cfg.life_goal, v) || !cfg.life_goal; break;
		case LSU: bad = cli_duration(&cfg.life_summary, v) || !cfg.life_summary; break;
		case EG: bad = cli_duration(&cfg.event_gap, v) || !cfg.event_gap; break;
		case RS: bad = flag(&cfg.rules_in_summaries, v); break;
		case RR: bad = flag(&cfg.rules_in_relevance, v); break;
		case FL: bad = flag(&cfg.flat, v); break;
		case QR:
			bad = cli_u64(&u, v) || u == 0 || u > 100;
			cfg.qa_max_rounds = (unsigned)u;
			break;
		case QT:
			bad = cli_u64(&u, v) || u == 0;
			cfg.qa_max_tokens = u;
			break;
		case MJ:
			if (!strcmp(v, "off") || !strcmp(v, "none"))
				cfg.max_clock_jump = H2EMV_TIME_NEVER;
			else
				bad = cli_duration(&cfg.max_clock_jump, v) || cfg.max_clock_jump <= 0;
			break;
		case RW: bad = cli_duration(&cfg.raw_log_window, v); break;
		case MS: bad = cli_size(&cfg.max_size, v); break;
		}
		if (bad) {
			h2emv_mem_close(m);
			return cli_usage("config", "bad value '%s' (see --help)", v);
		}
		changed = 1;
	}
	rc = changed ? h2emv_config_set(m, &cfg, &err) : H2EMV_OK;
	h2emv_mem_close(m);
	if (rc)
		return cli_fail("config", rc, &err);
	if (json)
		return show_json(&cfg);
	show(&cfg);
	return EXIT_OK;
}
