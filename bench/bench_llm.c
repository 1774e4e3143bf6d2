/*
 * bench_llm.c — what the llm policy's client costs per decision, apart from
 * the model: against the fake OpenAI-compatible server (tests/fakellm.h)
 * on 127.0.0.1, which answers at once with canned replies of realistic
 * size, in one process:
 *   (a) baseline: raw llm_chat exchanges of a minimal prompt ("ping" ->
 *       "pong"): the server's and HTTP's own cost;
 *   (b) full decisions through the llm policy table: group (8 old items in
 *       3 groups + 2 new, 3 rules), relevance, and a QA step over a 50-node
 *       view; prompt, request, HTTP, envelope, parse and validation;
 *   (c) the CPU parts alone, no network: prompt rendering, the request
 *       JSON, the chat.completion envelope and the decision's parser.
 * The client's overhead is (b) - (a), and (c) is its CPU share. A program
 * to run by hand (bench_llm --help), not a test.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "api/policy/llm/llm.h"
#include "api/policy/llm/llm_client.h"
#include "api/policy/llm/llm_impl.h" /* llm_reply_parse: the envelope, for (c) */
#include "api/policy/llm/llm_parse.h"
#include "api/policy/prompts.h"
#include "fakellm.h"

#define US 1000000ll
#define T0 (1727049600ll * US) /* 2024-09-23 00:00 UTC */

static const char help[] =
	"usage: bench_llm [--n N]\n"
	"\n"
	"The llm policy's client overhead per decision against a fake OpenAI-compatible\n"
	"server on 127.0.0.1 that answers at once (so the model's time is zero):\n"
	"  (a) N raw exchanges of a minimal prompt through llm_chat (server + HTTP)\n"
	"  (b) N full decisions each through the llm policy: group (8 old + 2 new\n"
	"      items, 3 rules), relevance, qa_step over a 50-node view\n"
	"  (c) N times the CPU parts alone: prompt, request JSON, reply envelope,\n"
	"      parse and validation\n"
	"Prints medians and p90 per decision, the overhead (b) - (a) and the ratio\n"
	"(b) / (a). The target is an overhead under 1 ms per decision.\n"
	"\n"
	"  --n N        decisions of each kind (default 2000)\n"
	"  -h, --help   this help\n";

/* ------------------------------------------------------------- timing -- */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef struct stat2 {
	double med, p90;
} stat2;

/* Median and 90th percentile of t[0..n) (sorts t). */
static stat2 summarize(double *t, size_t n)
{
	qsort(t, n, sizeof *t, cmp_d);
	stat2 s = { t[n / 2], t[(size_t)((double)(n - 1) * 0.9)] };
	return s;
}

static void die(const char *what, const h2emv_error *err)
{
	fprintf(stderr, "bench_llm: %s: %s\n", what, err && err->message[0] ? err->message : "failed");
	exit(2);
}

/* ---------------------------------------------------------- the inputs -- */

static const char *const RULES[] = {
	"Remember where objects were put away for at least a week.",
	"Always keep what the user asked you to remember, with the exact words.",
	"Forget routine looking around after a day unless something was missing.",
};
static const pol_rules rules = { RULES, 3 };

/* Level-2 events of a morning in the kitchen, oldest first; the last two
 * are new. */
static const char *const EVENTS[10] = {
	"I looked around the kitchen and saw a knife, a cup and a plate on the countertop.",
	"I picked up the cup from the countertop.",
	"I placed the cup in the sink and turned on the tap.",
	"Alice asked me: \"Could you also clean the knife, please?\"\nI answered that I would.",
	"I picked up the knife from the countertop.",
	"I placed the knife in the sink next to the cup.",
	"I washed the cup and the knife with the sponge.",
	"I placed the cup on the drying rack.",
	"I picked up the knife from the sink.",
	"I placed the knife in the second drawer from the top, where Alice keeps the knives.",
};
static char G0[] = "I looked around the kitchen and found dishes on the countertop.";
static char G1[] = "I took the cup to the sink and Alice asked me to clean the knife too.";
static char G2[] = "I brought the knife to the sink, washed both and set the cup to dry.";

static pol_item items[10];
static pol_group old_groups[3];
static pol_group_req group_req;

static void make_group_req(void)
{
	for (int i = 0; i < 10; i++)
		items[i] = (pol_item){ .id = i < 8 ? 1000 + (uint64_t)i : 0,
			               .level = 2,
			               .t_start = T0 + 8 * 3600 * US + i * 40 * US,
			               .t_end = T0 + 8 * 3600 * US + i * 40 * US + 25 * US,
			               .text = EVENTS[i],
			               .content = EVENTS[i] };
	old_groups[0] = (pol_group){ 0, 0, G0 };
	old_groups[1] = (pol_group){ 1, 3, G1 };
	old_groups[2] = (pol_group){ 4, 7, G2 };
	group_req = (pol_group_req){ .level = 2,
		                     .items = items,
		                     .n_items = 10,
		                     .old_groups = old_groups,
		                     .n_old = 3,
		                     .n_new = 2,
		                     .rules = &rules,
		                     .now = T0 + 9 * 3600 * US };
}

/* What a 7B model answers to each (a few sentences of reasoning, then the
 * answer in the prompts' text format). */
static const char GROUP_REPLY[] =
	"Reasoning: The previous groups cover looking around, bringing the cup to the sink with "
	"Alice's request, and washing both the cup and the knife. The two current items continue "
	"the same task: the knife is taken out of the sink and put away in the drawer. Because a "
	"rule asks to remember where objects were put away, they belong together in a new group "
	"whose summary names the drawer. The earlier groups stay as they are.\n"
	"JSON: {\"1-0\": \"I took the clean knife from the sink and put it away in the second "
	"drawer from the top, where Alice keeps the knives.\"}";

static const char RELEVANCE_REPLY[] =
	"Reasoning: This node records where the knife was put away after it was washed. The first "
	"rule asks to remember where objects were put away for at least a week, and Alice may ask "
	"for the knife again, so the memory is still useful, though less so once the week is "
	"over.\n"
	"Relevance: 2";

static const char QA_REPLY[] =
	"Reasoning: The question asks where the knife was put after it was cleaned. The latest day "
	"is expanded and its last goal is about tidying the kitchen; its events mention the knife "
	"being taken from the sink. I should expand those two events to see where exactly it "
	"went before answering.\n"
	"Action: expand([135, 136])";

static pol_item qa_nodes[50];
static int qa_depth[50], qa_expanded[50], qa_children[50];
static char qa_text[50][160];
static pol_qa_view qa_view;

/* 10 days at depth 0, the last expanded into 10 goals, the last goal into
 * 30 events: 50 nodes in tree order. */
static void make_qa_view(void)
{
	static const char *const what[] = { "tidied the kitchen and washed the dishes",
		                            "brought Alice a glass of water in the living room",
		                            "put the groceries away in the fridge and the shelf",
		                            "looked for the keys, which were on the hallway table" };
	for (int i = 0; i < 50; i++) {
		int depth = i < 10 ? 0 : i < 20 ? 1 : 2;
		int level = 5 - depth;
		int64_t t = depth == 0 ? T0 + i * 86400 * US
		          : depth == 1 ? T0 + 9 * 86400 * US + (i - 10) * 3600 * US
		                       : T0 + 9 * 86400 * US + 9 * 3600 * US + (i - 20) * 60 * US;
		int64_t len = depth == 0 ? 86399 * US : depth == 1 ? 3599 * US : 59 * US;
		snprintf(qa_text[i], sizeof qa_text[i], "%s I %s%s.",
		         depth == 0 ? "During the day" : depth == 1 ? "In this hour" : "Then",
		         what[i % 4], i == 35 || i == 36 ? ", and carried the knife from the sink" : "");
		/* tree order: the last day (9) is followed by its goals, the last goal
		 * (19) by its events */
		qa_nodes[i] = (pol_item){ .id = 100 + (uint64_t)i, .level = level, .t_start = t,
			                  .t_end = t + len, .text = qa_text[i], .content = qa_text[i] };
		qa_depth[i] = depth;
		qa_children[i] = 1;
		qa_expanded[i] = i == 9 || i == 19;
	}
	qa_view = (pol_qa_view){ .question = "Where did you put the knife after cleaning it?",
		                 .now = T0 + 10 * 86400 * US,
		                 .nodes = qa_nodes,
		                 .depth = qa_depth,
		                 .expanded = qa_expanded,
		                 .has_children = qa_children,
		                 .n = 50,
		                 .round = 0,
		                 .max_rounds = 5,
		                 .history = "" };
}

static pol_relevance_req rel_req;

static void make_relevance_req(void)
{
	rel_req = (pol_relevance_req){ .item = &items[9], .parent = &items[8],
		                       .now = T0 + 3 * 86400 * US, .rules = &rules };
}

/* ------------------------------------------------------- the fake model -- */

/* The canned reply the server sends next: set before each phase (the
 * bench asks one thing at a time). */
static const char *canned;

static char *answer(void *arg, const char *body)
{
	(void)arg;
	(void)body;
	return strdup(canned);
}

/* -------------------------------------------------------- the decisions -- */

enum { D_GROUP, D_RELEVANCE, D_QA, N_DEC };
static const char *const DEC_NAME[N_DEC] = { "group (8 old + 2 new)", "relevance",
	                                     "qa_step (50 nodes)" };
static const char *const DEC_REPLY[N_DEC] = { GROUP_REPLY, RELEVANCE_REPLY, QA_REPLY };
static const int DEC_LLM[N_DEC] = { LLM_D_GROUP, LLM_D_RELEVANCE, LLM_D_QA };

/* One decision through the policy table; checks it is the model's answer. */
static void policy_decide(h2emv_policy *p, int d)
{
	h2emv_error err = { 0 };
	pol_usage u = { 0 };
	int rc;
	if (d == D_GROUP) {
		pol_group_reply out = { 0 };
		rc = p->group(p->ctx, &group_req, &out, &u, &err);
		if (!rc && out.n != 4)
			die("group: unexpected partition", NULL);
		pol_groups_free(&out);
	} else if (d == D_RELEVANCE) {
		double alpha = 0;
		rc = p->relevance(p->ctx, &rel_req, &alpha, &u, &err);
		if (!rc && alpha != 2.0)
			die("relevance: unexpected alpha", NULL);
	} else {
		pol_qa_action a = { 0 };
		rc = p->qa_step(p->ctx, &qa_view, &a, &u, &err);
		if (!rc && (a.kind != POL_QA_EXPAND || a.n_ids != 2))
			die("qa_step: unexpected action", NULL);
		pol_qa_action_free(&a);
	}
	if (rc)
		die(DEC_NAME[d], &err);
}

static int render(pr_prompt *pr, int d, h2emv_error *err)
{
	return d == D_GROUP       ? pr_group(pr, &group_req, 0, err)
	       : d == D_RELEVANCE ? pr_relevance(pr, &rel_req, err)
	                          : pr_qa_step(pr, &qa_view, err);
}

static int parse(const char *reply, int d, h2emv_error *err)
{
	int rc;
	if (d == D_GROUP) {
		pol_group_reply out = { 0 };
		rc = lp_group(reply, &group_req, &out, err);
		pol_groups_free(&out);
	} else if (d == D_RELEVANCE) {
		double alpha;
		rc = lp_relevance(reply, &alpha, err);
	} else {
		pol_qa_action a = { 0 };
		rc = lp_qa(reply, &qa_view, &a, err);
		pol_qa_action_free(&a);
	}
	return rc;
}

/* A chat.completion body around `content`, as a server sends it. */
static char *envelope(const char *content)
{
	json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:[{s:i, s:{s:s, s:s}, s:s}], s:{s:I, s:I, s:I}}",
	                      "id", "chatcmpl-bench", "object", "chat.completion", "created",
	                      (json_int_t)1700000000, "model", "bench-model", "choices", "index", 0,
	                      "message", "role", "assistant", "content", content, "finish_reason",
	                      "stop", "usage", "prompt_tokens", (json_int_t)900, "completion_tokens",
	                      (json_int_t)120, "total_tokens", (json_int_t)1020);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!s)
		die("out of memory", NULL);
	return s;
}

/* The CPU parts of one decision, each timed: prompt, request JSON,
 * envelope, parse. */
static void cpu_decide(const llm_config *cfg, int d, const char *body, double part[4])
{
	h2emv_error err = { 0 };
	pr_prompt pr = { 0 };
	double t0 = now_ms();
	if (render(&pr, d, &err))
		die("prompt", &err);
	double t1 = now_ms();
	llm_request rq = { DEC_LLM[d], &pr, NULL, NULL };
	char *json = NULL;
	if (llm_request_json(&json, cfg, &rq, &err))
		die("request json", &err);
	double t2 = now_ms();
	llm_reply r = { 0 };
	if (llm_reply_parse(body, strlen(body), "the reply", &r, NULL, &err))
		die("envelope", &err);
	double t3 = now_ms();
	if (parse(r.content, d, &err))
		die("parse", &err);
	double t4 = now_ms();
	part[0] = t1 - t0;
	part[1] = t2 - t1;
	part[2] = t3 - t2;
	part[3] = t4 - t3;
	llm_reply_free(&r);
	free(json);
	pr_prompt_free(&pr);
}

/* Bytes of the request body and tokens (estimate) of decision d's prompt. */
static void sizes(const llm_config *cfg, int d, size_t *req_bytes, uint64_t *tokens)
{
	pr_prompt pr = { 0 };
	char *json = NULL;
	h2emv_error err = { 0 };
	llm_request rq = { DEC_LLM[d], &pr, NULL, NULL };
	if (render(&pr, d, &err) || llm_request_json(&json, cfg, &rq, &err))
		die("sizes", &err);
	*req_bytes = strlen(json);
	*tokens = tok_prompt(&pr);
	free(json);
	pr_prompt_free(&pr);
}

/* ------------------------------------------------------------------ main -- */

static void set_env(const char *url)
{
	static const char *const vars[] = { "H2EMV_LLM_KEY_ENV", "H2EMV_LLM_TEMPERATURE",
		                            "H2EMV_LLM_MAX_TOKENS", "H2EMV_LLM_TIMEOUT_MS",
		                            "H2EMV_LLM_RETRIES", "H2EMV_LLM_STRUCTURED",
		                            "H2EMV_LLM_TRANSPORT", "H2EMV_LLM_CASSETTE",
		                            "http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY",
		                            "all_proxy" };
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		unsetenv(vars[i]);
	setenv("H2EMV_LLM_BASE_URL", url, 1);
	setenv("H2EMV_LLM_MODEL", "bench-model", 1);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "n", required_argument, NULL, 'n' },
		                              { "help", no_argument, NULL, 'h' },
		                              { NULL, 0, NULL, 0 } };
	long n = 2000;
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'n') {
			char *end;
			n = strtol(optarg, &end, 10);
			if (*end || n < 10 || n > 10000000) {
				fprintf(stderr, "bench_llm: --n wants a number from 10 to 10000000\n");
				return 64;
			}
		} else if (c == 'h') {
			fputs(help, stdout);
			return 0;
		} else {
			fputs(help, stderr);
			return 64;
		}
	}
	make_group_req();
	make_relevance_req();
	make_qa_view();

	fake_llm *srv;
	if (fake_llm_start(&srv))
		die("cannot start the fake server", NULL);
	fake_llm_set_handler(srv, answer, NULL);
	char *url = fake_llm_url(srv);
	set_env(url);

	h2emv_error err = { 0 };
	llm_config cfg;
	llm_client *cli = NULL;
	h2emv_policy *pol = NULL;
	if (llm_config_load(&cfg, NULL, &err) || llm_client_new(&cli, &cfg, &err))
		die("client", &err);
	if (pol_llm_new(&pol, NULL, &err))
		die("policy", &err);

	double *t = malloc((size_t)n * sizeof *t);
	double *parts[4];
	for (int k = 0; k < 4; k++)
		parts[k] = malloc((size_t)n * sizeof *parts[k]);
	if (!t || !parts[0] || !parts[1] || !parts[2] || !parts[3])
		die("out of memory", NULL);

	/* (a) the baseline: minimal prompt, minimal reply */
	pr_prompt mini = { 0 };
	if (pr_prompt_add(&mini, "system", "x", &err) || pr_prompt_add(&mini, "user", "ping", &err))
		die("prompt", &err);
	llm_request mrq = { LLM_D_ROUTE, &mini, NULL, NULL };
	canned = "pong";
	for (long i = 0; i < n + n / 10; i++) { /* the first tenth warms up */
		llm_reply r = { 0 };
		double t0 = now_ms();
		if (llm_chat(cli, &mrq, &r, &err))
			die("baseline", &err);
		double dt = now_ms() - t0;
		if (i >= n / 10)
			t[i - n / 10] = dt;
		llm_reply_free(&r);
	}
	char *mini_json = NULL;
	if (llm_request_json(&mini_json, &cfg, &mrq, &err))
		die("request json", &err);
	stat2 base = summarize(t, (size_t)n);

	printf("bench_llm: the llm policy's client per decision, fake server on 127.0.0.1 "
	       "(keep-alive, answers at once), N = %ld\n\n",
	       n);
	printf("%-26s %9s %8s %7s %10s %10s\n", "", "request", "reply", "est.tok", "median", "p90");
	printf("%-26s %8zuB %7zuB %7s %7.3f ms %7.3f ms\n", "(a) raw exchange (ping)",
	       strlen(mini_json), strlen("pong"), "-", base.med, base.p90);

	/* (b) full decisions, (c) their CPU parts */
	stat2 full[N_DEC], cpu[N_DEC], part[N_DEC][4];
	for (int d = 0; d < N_DEC; d++) {
		canned = DEC_REPLY[d];
		for (long i = 0; i < n + n / 10; i++) {
			double t0 = now_ms();
			policy_decide(pol, d);
			double dt = now_ms() - t0;
			if (i >= n / 10)
				t[i - n / 10] = dt;
		}
		full[d] = summarize(t, (size_t)n);
		size_t rb;
		uint64_t tok;
		sizes(&cfg, d, &rb, &tok);
		char label[40];
		snprintf(label, sizeof label, "(b) %s", DEC_NAME[d]);
		printf("%-26s %8zuB %7zuB %7llu %7.3f ms %7.3f ms\n", label, rb, strlen(DEC_REPLY[d]),
		       (unsigned long long)tok, full[d].med, full[d].p90);
	}
	for (int d = 0; d < N_DEC; d++) {
		char *body = envelope(DEC_REPLY[d]);
		for (long i = 0; i < n + n / 10; i++) {
			double p[4];
			cpu_decide(&cfg, d, body, p);
			if (i >= n / 10) {
				t[i - n / 10] = p[0] + p[1] + p[2] + p[3];
				for (int k = 0; k < 4; k++)
					parts[k][i - n / 10] = p[k];
			}
		}
		free(body);
		cpu[d] = summarize(t, (size_t)n);
		for (int k = 0; k < 4; k++)
			part[d][k] = summarize(parts[k], (size_t)n);
	}
	printf("\n(c) CPU only, no network      median      p90   (prompt + request JSON + "
	       "envelope + parse, medians)\n");
	for (int d = 0; d < N_DEC; d++)
		printf("    %-24s %6.3f ms %6.3f ms   (%.3f + %.3f + %.3f + %.3f)\n", DEC_NAME[d],
		       cpu[d].med, cpu[d].p90, part[d][0].med, part[d][1].med, part[d][2].med,
		       part[d][3].med);

	printf("\nclient overhead per decision = (b) - (a), medians; ratio (b) / (a)\n");
	double worst = 0;
	for (int d = 0; d < N_DEC; d++) {
		double over = full[d].med - base.med;
		if (over > worst)
			worst = over;
		printf("    %-24s %6.3f ms   ratio %.2f   (CPU share (c): %.3f ms)\n", DEC_NAME[d], over,
		       full[d].med / base.med, cpu[d].med);
	}
	printf("\nworst overhead %.3f ms per decision: %s the 1 ms target\n", worst,
	       worst < 1.0 ? "under" : "OVER");

	pol_stats st = { 0 };
	pol->stats(pol->ctx, &st);
	if (st.bad_replies || st.fallbacks || st.transport_errors)
		die("a canned reply did not parse (the numbers above are not clean)", NULL);

	free(mini_json);
	pr_prompt_free(&mini);
	for (int k = 0; k < 4; k++)
		free(parts[k]);
	free(t);
	pol_free(pol);
	llm_client_free(cli);
	llm_config_free(&cfg);
	fake_llm_stop(srv);
	free(url);
	return worst < 1.0 ? 0 : 1;
}
