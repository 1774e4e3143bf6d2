/*
 * test_llm_policy.c — the llm policy through the public API against a fake
 * OpenAI-compatible server on 127.0.0.1 (tests/fakellm.h):
 *  - the paper's Figure 2(b) end to end, with a scripted "model" that
 *    answers every decision sensibly from the prompt it is sent;
 *  - a reply that does not fit is asked once more, then a safe fallback;
 *    the tree stays valid whatever the model says;
 *  - the server's token counts reach the caller;
 *  - a server that is down stops a build with an error and loses nothing:
 *    the build resumes when the server is back;
 *  - record, then replay the same run without a server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>

#include "bench/eval/eval.h"
#include "bench/eval/judge_llm.h"
#include "bench/eval/sim.h"
#include "h2emv.h"
#include "tests/fakellm.h"
#include "tests/testutil.h"

#define US 1000000ll
#define DAY (86400ll * US)
#define T0 (1727049600ll * US) /* 2024-09-23 */

/* ------------------------------------------------------- the "model" -- */

/* Every message of a request, joined. */
static char *all_text(const char *body)
{
	json_t *j = json_loads(body, 0, NULL);
	size_t i;
	json_t *m;
	size_t cap = 1, len = 0;
	char *out = calloc(1, 1);
	json_array_foreach(json_object_get(j, "messages"), i, m) {
		const char *c = json_string_value(json_object_get(m, "content"));
		/* the prompts' worked examples are for a real model, not for this script */
		const char *ex = c ? strstr(c, "\n\nExample") : NULL;
		size_t n = ex ? (size_t)(ex - c) : c ? strlen(c) : 0;
		out = realloc(out, cap + n + 2);
		memcpy(out + len, c ? c : "", n);
		len += n;
		out[len++] = '\n';
		out[len] = 0;
		cap += n + 2;
	}
	json_decref(j);
	return out;
}


/* What a careful model keeps in a summary: the things handled, and, when
 * a rule asks for it, where the knife went. `section` is the items' text. */
static char *summarise(const char *whole, const char *section)
{
	static const char *const things[] = { "knife", "cup", "plate", "plant" };
	char out[400] = "I handled the";
	size_t o = strlen(out), k = 0;
	for (size_t i = 0; i < 4; i++)
		if (strstr(section, things[i]))
			o += (size_t)snprintf(out + o, sizeof out - o, "%s %s", k++ ? "," : "", things[i]);
	if (!k)
		snprintf(out, sizeof out, "I tidied up");
	o = strlen(out);
	int rule = strstr(whole, "location to where you transport a knife") != NULL;
	static const char *const places[] = { "sink", "countertop", "table", "shelf" };
	const char *at = strstr(section, "knife_0, target=");
	if (!at)
		at = strstr(section, "put the knife on the ");
	for (size_t i = 0; rule && at && i < 4; i++)
		if (!strncmp(strchr(at, '=') && strchr(at, '=') < at + 20 ? strchr(at, '=') + 1
		                                                           : at + 21,
		             places[i], strlen(places[i]))) {
			o += (size_t)snprintf(out + o, sizeof out - o, "; I put the knife on the %s",
			                      places[i]);
			break;
		}
	snprintf(out + o, sizeof out - o, ".");
	return strdup(out);
}

/* The text between `from` and `to` (or the end), malloc'd. */
static char *section(const char *t, const char *from, const char *to)
{
	const char *a = strstr(t, from);
	a = a ? a + strlen(from) : t;
	const char *b = to ? strstr(a, to) : NULL;
	size_t n = b ? (size_t)(b - a) : strlen(a);
	char *s = malloc(n + 1);
	memcpy(s, a, n);
	s[n] = 0;
	return s;
}

static char *reply_group(const char *t)
{
	/* the new items are the "- N:" lines after "Current:" */
	char *cur = section(t, "Current:", "Decide how");
	unsigned n = 0;
	for (const char *p = cur; (p = strstr(p, "\n- ")); p += 3)
		n++;
	if (n == 0)
		n = 1;
	/* the newest previous group is the last "# (hi - lo)" header: join it
	 * when it is small, else begin a new group */
	unsigned hi = 0, lo = 0, found = 0;
	for (const char *p = t; (p = strstr(p, "# (")); p += 3)
		found = sscanf(p, "# (%u - %u)", &hi, &lo) == 2 || sscanf(p, "# (%u)", &hi) == 1;
	char *sum;
	char *r;
	if (found && hi < 5) {
		char *prev = section(t, "Previous actions:", "Decide how");
		sum = summarise(t, prev);
		free(prev);
		r = tu_fmt("Reasoning: it goes on.\nJSON: {\"%u-0\": \"%s\"}", hi, sum);
	} else {
		sum = summarise(t, cur);
		r = n == 1 ? tu_fmt("Reasoning: a new step.\nJSON: {\"0\": \"%s\"}", sum)
		           : tu_fmt("Reasoning: a new step.\nJSON: {\"%u-0\": \"%s\"}", n - 1, sum);
	}
	free(sum);
	free(cur);
	return r;
}

static char *reply_summary(const char *t)
{
	char *items = section(t, "\n- ", NULL);
	char *sum = summarise(t, items);
	char *r = tu_fmt("Summary: %s", sum);
	free(sum);
	free(items);
	return r;
}

/* Keep what a rule about knives asks for; forget the rest. */
static char *reply_relevance(const char *t)
{
	const char *item = strstr(t, "Item");
	int rule = strstr(t, "location to where you transport a knife") != NULL;
	int knife = item && strstr(item, "knife") != NULL;
	return strdup(rule && knife ? "Reasoning: the rules say so.\nRelevance: inf"
	                            : "Reasoning: no rule keeps it.\nRelevance: 0");
}

static char *reply_learn(const char *t)
{
	/* old rules: the numbered lines; then the feedback as a new rule */
	char out[2048] = "";
	size_t o = 0;
	unsigned k = 0;
	for (const char *p = t; (p = strstr(p, "\n")) && k < 20; p++) {
		unsigned num;
		int used = 0;
		if (sscanf(p + 1, "%u. %n", &num, &used) == 1 && used > 0 && num == k + 1) {
			const char *e = strchr(p + 1 + used, '\n');
			size_t n = e ? (size_t)(e - (p + 1 + used)) : strlen(p + 1 + used);
			o += (size_t)snprintf(out + o, sizeof out - o, "%u. %.*s\n", ++k, (int)n,
			                      p + 1 + used);
		}
	}
	const char *fb = strstr(t, "User feedback: \"");
	char rule[512] = "Remember what the user asked.";
	if (fb) {
		fb += strlen("User feedback: \"");
		const char *e = strchr(fb, '"');
		snprintf(rule, sizeof rule, "%.*s", e ? (int)(e - fb) : 200, fb);
	}
	snprintf(out + o, sizeof out - o, "%u. %s\n", k + 1, rule);
	return strdup(out);
}

static char *reply_route(const char *t)
{
	const char *u = strstr(t, "Utterance");
	if (!u)
		u = t;
	if (strstr(u, "You should always"))
		return strdup("Reasoning: the user says what to keep.\nRoute: feedback");
	if (strchr(u, '?'))
		return strdup("Reasoning: a question about the past.\nRoute: question");
	return strdup("Reasoning: small talk.\nRoute: other\nReply: Hello!");
}

/* A node of the QA view: "[id] range: text" with its continuation lines,
 * then "..." when its children are not shown. */
typedef struct vnode {
	unsigned long long id;
	char text[1024];
	int forgotten, collapsed;
} vnode;

static size_t view_nodes(vnode *v, size_t max, const char *t)
{
	size_t n = 0;
	const char *p = strstr(t, "Current view:");
	const char *stop = p ? strstr(p, "Previous steps:") : NULL;
	if (!stop && p)
		stop = strstr(p, "Answer like this");
	while (p && (p = strchr(p, '\n')) && (!stop || p < stop)) {
		p++;
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *q = p + strspn(p, " ");
		unsigned long long id;
		if (*q == '[' && sscanf(q, "[%llu]", &id) == 1 && n < max) {
			vnode *x = &v[n++];
			memset(x, 0, sizeof *x);
			x->id = id;
			const char *c = strstr(q, ": ");
			snprintf(x->text, sizeof x->text, "%.*s", (int)(len - (size_t)((c ? c + 2 : q) - p)),
			         c ? c + 2 : q);
			x->forgotten = !strncmp(x->text, "(forgotten)", 11);
		} else if (n && !strncmp(q, "...", 3)) {
			v[n - 1].collapsed = 1;
		} else if (n) {
			size_t o = strlen(v[n - 1].text);
			snprintf(v[n - 1].text + o, sizeof v[n - 1].text - o, " %.*s",
			         (int)(len - (size_t)(q - p)), q);
		}
	}
	return n;
}

static int mentions(const vnode *x, const char *w)
{
	return strstr(x->text, w) != NULL;
}

static char *reply_qa(const char *t)
{
	vnode v[512];
	size_t n = view_nodes(v, 512, t);
	int last = strstr(t, "the last time") != NULL;
	const char *prev = strstr(t, "Previous steps:");
	long pick = -1;
	char ids[1024] = "";
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].forgotten || !mentions(&v[i], "knife"))
			continue;
		if (v[i].collapsed && o + 32 < sizeof ids)
			o += (size_t)snprintf(ids + o, sizeof ids - o, "%s%llu", o ? ", " : "", v[i].id);
		if (pick < 0 || last)
			pick = (long)i;
	}
	if (o)
		return tu_fmt("Reasoning: look inside.\nAction: expand([%s])", ids);
	if (pick >= 0) {
		const char *place = mentions(&v[pick], "sink") ? "sink"
		                    : mentions(&v[pick], "countertop") ? "countertop"
		                                                         : NULL;
		if (place)
			return tu_fmt("Reasoning: found it.\nAction: answer(\"At the %s.\", [%llu])", place,
			           v[pick].id);
	}
	for (size_t i = 0; i < n; i++)
		if (v[i].forgotten)
			return tu_fmt("Reasoning: that time is gone.\nAction: answer(\"I have forgotten "
			           "that.\", [%llu])",
			           v[i].id);
	if (!prev || !strstr(prev, "search"))
		return strdup("Reasoning: look for it.\nAction: search(\"knife\")");
	return strdup("Reasoning: nothing.\nAction: answer(\"I could not find that.\", [])");
}

/* Did a question-answering prompt show a summary's typed facts? */
static int qa_saw_facts;

/* The scripted model: the system message says which decision it is. */
static char *model(void *arg, const char *body)
{
	int *calls = arg;
	(*calls)++;
	char *t = all_text(body);
	char *r;
	if (strstr(t, "You receive the robot's earlier goals"))
		r = reply_group(t);
	else if (strstr(t, "write short summaries"))
		r = reply_summary(t);
	else if (strstr(t, "has expired: judge how relevant"))
		r = reply_relevance(t);
	else if (strstr(t, "You have just received new feedback"))
		r = reply_learn(t);
	else if (strstr(t, "dialog manager"))
		r = reply_route(t);
	else if (strstr(t, "answering a question about your own past"))
		r = reply_qa(t), qa_saw_facts |= strstr(t, "Facts: ") != NULL;
	else
		r = strdup("I do not understand.");
	if (getenv("H2EMV_TEST_DEBUG"))
		fprintf(stderr, "=== prompt\n%s\n=== reply\n%s\n", t, r);
	free(t);
	return r;
}

/* --------------------------------------------------------- the memory -- */

static char *write_config(const char *dir, const char *url, const char *extra)
{
	char *path = tu_fmt("%s/llm.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
	        "{\"base_url\": \"%s\", \"model\": \"test-model\", \"timeouts\": {\"connect_ms\": "
	        "500, \"decision_ms\": 4000}, \"retries\": {\"max\": 1, \"base_ms\": 5, \"max_ms\": "
	        "20}%s}\n",
	        url, extra ? extra : "");
	fclose(f);
	return path;
}

static h2emv_mem *open_llm(const char *dir, const char *config)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	char *mdir = tu_fmt("%s/mem", dir);
	assert_int_equal(h2emv_mem_open(&m, mdir, &o, &err), H2EMV_OK);
	free(mdir);
	if (h2emv_mem_set_policy(m, "llm", config, &err))
		fail_msg("set policy: %s", err.message);
	return m;
}

static int build(h2emv_mem *m, h2emv_error *err)
{
	return h2emv_build(NULL, m, NULL, err);
}

static void build_ok(h2emv_mem *m)
{
	h2emv_error err = { 0 };
	if (build(m, &err))
		fail_msg("build: %s", err.message);
}

static void check_tree(h2emv_mem *m)
{
	uint64_t n = 99;
	assert_int_equal(h2emv_check(&n, m, NULL, NULL), H2EMV_OK);
	assert_int_equal(n, 0);
}

/* A fake server, a directory and a config pointing at the server. */
typedef struct fx {
	fake_llm *f;
	char *dir, *url, *cfg;
} fx;

static void fx_start(fx *x)
{
	memset(x, 0, sizeof *x);
	assert_int_equal(fake_llm_start(&x->f), 0);
}

static void fx_config(fx *x, const char *tag)
{
	x->dir = tu_tmpdir(tag);
	x->url = fake_llm_url(x->f);
	x->cfg = write_config(x->dir, x->url, NULL);
}

static void fx_stop(fx *x)
{
	fake_llm_stop(x->f);
	tu_rmrf(x->dir);
	free(x->dir);
	free(x->url);
	free(x->cfg);
}

/* ------------------------------------------------------------- tests -- */

static void knife_story(int feedback, char **second, int *second_forgotten, h2emv_tokens *tok)
{
	fx x;
	fx_start(&x);
	fake_llm *f = x.f;
	int calls = 0;
	fake_llm_set_handler(f, model, &calls);
	fx_config(&x, "llmpol");
	const char *dir = x.dir, *cfg = x.cfg;
	h2emv_mem *m = open_llm(dir, cfg);
	tu_chores(m, T0, 0);
	tu_transport(m, T0 + 19 * 3600 * US, "knife", "countertop");
	build_ok(m);
	for (int day = 1; day <= 2; day++)
		tu_chores(m, T0, day);
	build_ok(m);
	h2emv_reply *r = tu_say(m, "Where did you put the knife the first time?");
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	assert_true(r->answer->forgotten);
	h2emv_reply_free(r);
	if (feedback) {
		r = tu_say(m, "You should always remember the location to where you transport a knife.");
		assert_int_equal(r->route, H2EMV_ROUTE_FEEDBACK);
		assert_non_null(strstr(r->rules->items[r->rules->n - 1], "knife"));
		h2emv_reply_free(r);
	}
	for (int day = 3; day <= 6; day++) {
		tu_chores(m, T0, day);
		if (day == 4)
			tu_transport(m, T0 + day * DAY + 19 * 3600 * US, "knife", "sink");
		build_ok(m);
	}
	check_tree(m);
	r = tu_say(m, "Where did you put the knife the last time?");
	*second = strdup(r->text);
	*second_forgotten = r->answer ? r->answer->forgotten : -1;
	*tok = r->tokens;
	h2emv_reply_free(r);
	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_string_equal(st.name, "llm");
	assert_true(st.decisions > 10);
	assert_int_equal(st.fallbacks, 0); /* the scripted model always fits */
	assert_int_equal(st.bad_replies, 0);
	assert_true(calls > 10);
	h2emv_mem_close(m);
	fx_stop(&x);
}

static void test_figure_2b_through_the_llm_policy(void **state)
{
	(void)state;
	char *answer;
	int forgotten;
	h2emv_tokens tok;
	knife_story(1, &answer, &forgotten, &tok);
	if (!strstr(answer, "sink"))
		fail_msg("second answer: %s", answer);
	assert_int_equal(forgotten, 0);
	assert_true(tok.calls >= 2 && tok.prompt > 0);
	free(answer);
	qa_saw_facts = 0;
	knife_story(0, &answer, &forgotten, &tok);
	assert_null(strstr(answer, "sink"));
	assert_int_equal(forgotten, 1);
	free(answer);
	/* the model saw the summaries' facts, and still no detail of a
	 * forgotten goal: a summary's facts are its gist */
	assert_true(qa_saw_facts);
}

/* A model that always answers nonsense: every decision falls back, the
 * build still finishes, the tree is valid, the stats say so. */
static char *nonsense(void *arg, const char *body)
{
	(void)arg;
	(void)body;
	return strdup("Sure! Here you go: {\"99-7\": 3, ]]");
}

static void test_nonsense_falls_back_and_the_tree_stays_valid(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm *f = x.f;
	fake_llm_set_handler(f, nonsense, NULL);
	fx_config(&x, "llmbad");
	const char *dir = x.dir, *cfg = x.cfg;
	h2emv_mem *m = open_llm(dir, cfg);
	for (int day = 0; day < 4; day++)
		tu_chores(m, T0, day);
	build_ok(m);
	check_tree(m);
	h2emv_reply *r = tu_say(m, "Where did you put the cup the last time?");
	assert_non_null(r->text);
	h2emv_reply_free(r);
	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_true(st.fallbacks > 0);
	assert_int_equal(st.bad_replies, 2 * st.fallbacks); /* first try and the retry */
	assert_int_equal(st.retries, st.fallbacks);
	assert_int_equal(st.transport_errors, 0);
	h2emv_mem_close(m);
	fx_stop(&x);
}

/* A bad reply, then a good one: the decision is the good one, one retry,
 * and the second request carries the parse error back to the model. */
static void test_a_bad_reply_is_asked_again_with_the_error(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm *f = x.f;
	fake_resp bad = { .content = "Reasoning: hmm.\nRoute: maybe", .prompt_tokens = 100,
		          .completion_tokens = 7 };
	fake_resp good = { .content = "Reasoning: a question.\nRoute: question",
		           .prompt_tokens = 120, .completion_tokens = 9 };
	fake_llm_push(f, &bad);
	fake_llm_push(f, &good);
	int calls = 0;
	fake_llm_set_handler(f, model, &calls);
	fx_config(&x, "llmretry");
	const char *dir = x.dir, *cfg = x.cfg;
	h2emv_mem *m = open_llm(dir, cfg);
	h2emv_reply *r = tu_say(m, "When did you last see the keys?");
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	/* the server's token counts of both exchanges are in the reply */
	assert_true(r->tokens.prompt >= 220 && r->tokens.completion >= 16);
	h2emv_reply_free(r);
	char *second = fake_llm_request(f, 1);
	assert_non_null(strstr(second, "could not be used"));
	free(second);
	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_int_equal(st.retries, 1);
	assert_int_equal(st.bad_replies, 1);
	assert_int_equal(st.fallbacks, 0);
	h2emv_mem_close(m);
	fx_stop(&x);
}

/* The server is down: the build stops with an error, nothing is lost, and
 * the next build (server back) folds everything in. */
static void test_server_down_stops_the_build_and_loses_nothing(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm *f = x.f;
	char *url = fake_llm_url(f);
	fake_llm_stop(f); /* nobody listens on that port now */
	char *dir = tu_tmpdir("llmdown");
	char *cfg = write_config(dir, url, NULL);
	h2emv_mem *m = open_llm(dir, cfg);
	for (int day = 0; day < 3; day++)
		tu_chores(m, T0, day);
	h2emv_error err = { 0 };
	assert_int_equal(build(m, &err), H2EMV_EIO);
	assert_non_null(strstr(err.message, "127.0.0.1"));
	h2emv_stats s;
	assert_int_equal(h2emv_mem_stats(&s, m, &err), H2EMV_OK);
	assert_int_equal(s.obs_count, 15);
	assert_true(s.build_cursor < s.obs_last_seq);
	h2emv_mem_close(m);
	/* the server comes back: a new handle pointed at it finishes the build */
	int calls = 0;
	assert_int_equal(fake_llm_start(&f), 0);
	fake_llm_set_handler(f, model, &calls);
	char *url2 = fake_llm_url(f);
	free(cfg);
	cfg = write_config(dir, url2, NULL);
	m = open_llm(dir, cfg);
	build_ok(m);
	assert_int_equal(h2emv_mem_stats(&s, m, &err), H2EMV_OK);
	assert_int_equal(s.build_cursor, s.obs_last_seq);
	check_tree(m);
	h2emv_mem_close(m);
	fake_llm_stop(f);
	tu_rmrf(dir);
	free(dir);
	free(url);
	free(url2);
	free(cfg);
}

/* Record a run against the server, then replay it with no server at all:
 * the same answer. */
static void test_record_then_replay_the_same_run(void **state)
{
	(void)state;
	char *answers[2];
	char *dir = tu_tmpdir("llmcas");
	char *cas = tu_fmt("%s/run.cassette", dir);
	for (int pass = 0; pass < 2; pass++) {
		fake_llm *f = NULL;
		char *url;
		int calls = 0;
		if (pass == 0) {
			assert_int_equal(fake_llm_start(&f), 0);
			fake_llm_set_handler(f, model, &calls);
			url = fake_llm_url(f);
		} else {
			url = strdup("http://127.0.0.1:9");
		}
		char *extra = tu_fmt(", \"transport\": \"%s\", \"cassette\": \"%s\"",
		                  pass == 0 ? "record" : "replay", cas);
		char *sub = tu_fmt("%s/p%d", dir, pass);
		assert_int_equal(mkdir(sub, 0700), 0);
		char *cfg = write_config(sub, url, extra);
		h2emv_mem *m = open_llm(sub, cfg);
		tu_chores(m, T0, 0);
		tu_transport(m, T0 + 19 * 3600 * US, "knife", "countertop");
		build_ok(m);
		h2emv_reply *r = tu_say(m, "Where did you put the knife the last time?");
		answers[pass] = strdup(r->text);
		h2emv_reply_free(r);
		h2emv_mem_close(m);
		if (f)
			fake_llm_stop(f);
		free(url);
		free(extra);
		free(sub);
		free(cfg);
	}
	assert_string_equal(answers[0], answers[1]);
	assert_non_null(strstr(answers[0], "countertop"));
	free(answers[0]);
	free(answers[1]);
	tu_rmrf(dir);
	free(dir);
	free(cas);
}

static void test_unknown_policy_and_bad_config_are_refused(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("llmcfg");
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	char *mdir = tu_fmt("%s/mem", dir);
	assert_int_equal(h2emv_mem_open(&m, mdir, &o, &err), H2EMV_OK);
	assert_int_equal(h2emv_mem_set_policy(m, "oracle", NULL, &err), H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "oracle"));
	char *cfg = tu_fmt("%s/bad.json", dir);
	FILE *f = fopen(cfg, "w");
	fputs("{\"model\": \"m\", \"temprature\": 0.2}", f);
	fclose(f);
	assert_int_equal(h2emv_mem_set_policy(m, "llm", cfg, &err), H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "temprature"));
	h2emv_policy_stats st;
	h2emv_mem_policy_stats(&st, m);
	assert_string_equal(st.name, "builtin"); /* unchanged after the errors */
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
	free(mdir);
	free(cfg);
}

/* The evaluation's LLM judge (bench/eval/judge_llm.c, on the public
 * h2emv_llm client): the model's category, or EPARSE after two replies
 * that name none (the evaluation then uses its own judge). */
static void test_llm_judge_grades_and_refuses_nonsense(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm *f = x.f;
	fake_resp ok = { .content = "Reasoning: the day is right, the time is missing.\n"
		                    "Category: partially_correct_missing" };
	fake_resp bad = { .content = "It is fine I guess." };
	fake_llm_push(f, &ok);
	fake_llm_push(f, &bad);
	fake_llm_push(f, &bad);
	fx_config(&x, "llmjudge");
	const char *cfg = x.cfg;
	h2emv_llm *p = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_llm_open(&p, cfg, &err), H2EMV_OK);
	int cat = -1;
	h2emv_tokens u = { 0 };
	judge_llm_case mug = { "When did you last pick up a mug?", "At 2024/03/05, 10:03:55",
		               "On 2024/03/05.", 0, 0 };
	assert_int_equal(judge_llm_grade(&cat, &u, p, &mug, &err), H2EMV_OK);
	assert_int_equal(cat, 4);
	char *req = fake_llm_request(f, 0);
	assert_non_null(strstr(req, "On 2024/03/05."));
	free(req);
	judge_llm_case nonsense = { "q?", "a", "b", 0, 0 };
	assert_int_equal(judge_llm_grade(&cat, &u, p, &nonsense, &err), H2EMV_EPARSE);
	assert_int_equal(u.calls, 3);
	h2emv_llm_close(p);
	fx_stop(&x);
}

static int add_line(void *arg, const char *line, size_t len)
{
	h2emv_error e = { 0 };
	return qg_history_add(arg, line, len, &e);
}

/* The evaluation runs through the llm policy too: every question of a
 * simulated history asked and judged, the memory's decisions made by the
 * (scripted) model, the LLM judge grading. */
static void test_evaluation_through_the_llm_policy(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm *f = x.f;
	int calls = 0;
	fake_llm_set_handler(f, model, &calls);
	fx_config(&x, "llmeval");
	const char *dir = x.dir, *cfg = x.cfg;
	qg_history h = { 0 };
	sim_options so = SIM_OPTIONS_INIT;
	so.episodes = 4;
	so.seed = 5;
	h2emv_error err = { 0 };
	assert_int_equal(sim_generate(&so, add_line, &h, &err), H2EMV_OK);
	qg_set qs;
	assert_int_equal(qg_generate(&qs, &h, 3, 1, &err), H2EMV_OK);
	assert_true(qs.n >= 2);
	ev_options o;
	memset(&o, 0, sizeof o);
	o.version = EV_OPTIONS_VERSION;
	o.workdir = dir;
	o.policy = "llm";
	o.llm_config = cfg;
	o.judge = "llm";
	ev_result res;
	memset(&res, 0, sizeof res);
	if (ev_run_history(&res, ev_variant_find("A"), &h, &qs, 0, &o, &err))
		fail_msg("eval: %s", err.message);
	assert_int_equal(res.n, qs.n);
	/* the scripted model names no category: the builtin judge took over */
	assert_int_equal(res.judge_fallbacks, qs.n);
	assert_true(calls > 20);
	ev_result_free(&res);
	qg_set_free(&qs);
	qg_history_free(&h);
	fx_stop(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure_2b_through_the_llm_policy),
		cmocka_unit_test(test_nonsense_falls_back_and_the_tree_stays_valid),
		cmocka_unit_test(test_a_bad_reply_is_asked_again_with_the_error),
		cmocka_unit_test(test_server_down_stops_the_build_and_loses_nothing),
		cmocka_unit_test(test_record_then_replay_the_same_run),
		cmocka_unit_test(test_unknown_policy_and_bad_config_are_refused),
		cmocka_unit_test(test_llm_judge_grades_and_refuses_nonsense),
		cmocka_unit_test(test_evaluation_through_the_llm_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
