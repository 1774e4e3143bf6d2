/*
 * test_llm_bodies.c — a model server answering HTTP 200 with something
 * that is not a chat completion (issue 11): garbage, an empty body, null,
 * an empty "choices" array, JSON nested too deep, and each other way a
 * body can miss the shape. Each goes through the transport (retried like
 * a 5xx under the same backoff and deadline, then an error naming the
 * server and what was wrong, never recorded), through h2emv_build (an
 * error, no snapshot, no fallback), through h2emv_ask and h2emv_say (an
 * error, no made-up answer), and through the command line (a non-zero
 * exit and the reason on stderr). A chat completion whose text does not
 * parse is still a reply: that path (one more try, then the fallback) is
 * test_llm_policy.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "api/policy/llm/llm_client.h"
#include "h2emv.h"
#include "tests/fakellm.h"
#include "tests/testutil.h"

#define US 1000000ll
#define T0 (1727049600ll * US) /* 2024-09-23 */

/* ------------------------------------------------------------- bodies -- */

typedef struct bad_body {
	const char *name;
	const char *body; /* NULL: made by bodies_init */
	const char *says; /* what the error must say about it */
} bad_body;

static bad_body bodies[] = {
	{ "garbage", "<html>\n<h1>502 Bad Gateway</h1>\n</html>", "is not JSON" },
	{ "empty", "", "is not JSON" },
	{ "null", "null", "is null, not a JSON object" },
	{ "array", "[{\"choices\":[]}]", "is an array, not a JSON object" },
	{ "string", "\"pong\"", "is a string, not a JSON object" },
	{ "no choices", "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\"}",
	  "no \"choices\" array" },
	{ "choices an object", "{\"choices\":{\"message\":{\"content\":\"x\"}}}",
	  "no \"choices\" array" },
	{ "empty choices", "{\"choices\":[]}", "empty \"choices\" array" },
	{ "legacy completion", "{\"choices\":[{\"index\":0,\"text\":\"Route: question\"}]}",
	  "no choices[0].message object" },
	{ "message a string", "{\"choices\":[{\"message\":\"Route: question\"}]}",
	  "no choices[0].message object" },
	{ "content null", "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null}}]}",
	  "no text in choices[0].message.content" },
	{ "content a number", "{\"choices\":[{\"message\":{\"content\":42}}]}",
	  "no text in choices[0].message.content" },
	{ "error under 200", "{\"error\":{\"message\":\"upstream model overloaded\"}}",
	  "upstream model overloaded" },
	{ "deep", NULL, "deeper than 64 levels" },
	{ "deep inside a completion", NULL, "deeper than 64 levels" },
};
#define N_BODIES (sizeof bodies / sizeof *bodies)

/* `[` n times, `]` n times. */
static char *nested(size_t n)
{
	char *s = malloc(2 * n + 1);
	assert_non_null(s);
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = 0;
	return s;
}

static char *deep, *deep_completion;

static int bodies_init(void **state)
{
	(void)state;
	deep = nested(100000);
	/* a chat completion in every other respect: depth alone refuses it */
	char *inner = nested(70);
	deep_completion = tu_fmt("{\"choices\":[{\"message\":{\"content\":\"Route: question\","
	                         "\"extra\":%s}}]}",
	                         inner);
	free(inner);
	for (size_t i = 0; i < N_BODIES; i++)
		if (!bodies[i].body)
			bodies[i].body = strcmp(bodies[i].name, "deep") ? deep_completion : deep;
	return 0;
}

static int bodies_done(void **state)
{
	(void)state;
	free(deep);
	free(deep_completion);
	return 0;
}

static void assert_says(const char *hay, const char *needle, const char *body_name)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("body \"%s\": \"%s\" does not say \"%s\"", body_name, hay ? hay : "(null)",
		         needle);
}

/* ---------------------------------------------------------- transport -- */

typedef struct tx {
	fake_llm *srv;
	llm_config cfg;
	pr_prompt prompt;
	llm_client *cli;
	llm_reply reply;
	h2emv_error err;
} tx;

static void tx_start(tx *x, int retries, long deadline_ms)
{
	memset(x, 0, sizeof *x);
	assert_int_equal(fake_llm_start(&x->srv), 0);
	llm_config_defaults(&x->cfg);
	x->cfg.base_url = fake_llm_url(x->srv);
	x->cfg.model = strdup("test-model");
	x->cfg.connect_timeout_ms = 10000;
	x->cfg.decision_timeout_ms = deadline_ms;
	x->cfg.max_retries = retries;
	x->cfg.backoff_base_ms = 10;
	x->cfg.backoff_max_ms = 40;
	assert_int_equal(pr_prompt_add(&x->prompt, "user", "Where is the cup?", NULL), 0);
}

static void tx_client(tx *x)
{
	llm_client_free(x->cli);
	x->cli = NULL;
	if (llm_client_new(&x->cli, &x->cfg, &x->err))
		fail_msg("llm_client_new: %s", x->err.message);
}

static int tx_chat(tx *x)
{
	llm_request req = { .decision = LLM_D_QA, .prompt = &x->prompt };
	llm_reply_free(&x->reply);
	memset(&x->err, 0, sizeof x->err);
	return llm_chat(x->cli, &req, &x->reply, &x->err);
}

static void tx_end(tx *x)
{
	llm_reply_free(&x->reply);
	llm_client_free(x->cli);
	fake_llm_stop(x->srv);
	llm_config_free(&x->cfg);
	pr_prompt_free(&x->prompt);
}

/* Every malformed body: every attempt made, then EPARSE naming the
 * server, the request and what was wrong; no text comes back. */
static void test_each_bad_body_is_retried_then_an_error(void **state)
{
	(void)state;
	tx x;
	tx_start(&x, 2, 30000); /* a hang guard */
	tx_client(&x);
	for (size_t i = 0; i < N_BODIES; i++) {
		const bad_body *b = &bodies[i];
		size_t before = fake_llm_requests(x.srv);
		fake_llm_set_default(x.srv, &(fake_resp){ .raw_body = b->body });
		int rc = tx_chat(&x);
		if (rc != H2EMV_EPARSE)
			fail_msg("body \"%s\": status %d (%s)", b->name, rc, x.err.message);
		assert_int_equal(x.err.status, H2EMV_EPARSE);
		assert_null(x.reply.content);
		assert_int_equal(x.reply.attempts, 3);
		assert_int_equal(x.reply.http_status, 200);
		assert_int_equal(fake_llm_requests(x.srv) - before, 3);
		assert_says(x.err.message, "the qa request to ", b->name);
		assert_says(x.err.message, x.cfg.base_url, b->name);
		assert_says(x.err.message, "failed after 3 attempts", b->name);
		assert_says(x.err.message, "HTTP 200, but not a chat completion", b->name);
		assert_says(x.err.message, b->says, b->name);
	}
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.requests, N_BODIES);
	assert_int_equal(st.failures, N_BODIES);
	assert_int_equal(st.retries, 2 * N_BODIES);
	tx_end(&x);
}

/* A bad body once, then a good one: the retry gets the reply. And what
 * is a chat completion stays one, whatever its text says. */
static void test_a_bad_body_then_a_good_one_is_a_reply(void **state)
{
	(void)state;
	tx x;
	tx_start(&x, 2, 30000); /* a hang guard */
	tx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .raw_body = "null" });
	fake_llm_push(x.srv, &(fake_resp){ .raw_body = "{\"choices\":[]}" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "At the sink." });
	assert_int_equal(tx_chat(&x), H2EMV_OK);
	assert_string_equal(x.reply.content, "At the sink.");
	assert_int_equal(x.reply.attempts, 3);

	fake_llm_push(x.srv, &(fake_resp){ .content = "" });
	assert_int_equal(tx_chat(&x), H2EMV_OK);
	assert_string_equal(x.reply.content, "");
	fake_llm_push(x.srv, &(fake_resp){ .content = "Sure! {\"99-7\": 3, ]]" });
	assert_int_equal(tx_chat(&x), H2EMV_OK);
	assert_int_equal(x.reply.attempts, 1);
	/* a completion nested as deep as logprobs go is fine */
	fake_llm_push(x.srv, &(fake_resp){
		.raw_body = "{\"choices\":[{\"message\":{\"content\":\"ok\"},\"logprobs\":{\"content\":"
		            "[{\"token\":\"ok\",\"top_logprobs\":[{\"token\":\"ok\",\"bytes\":[111,107]}]}"
		            "]}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}" });
	assert_int_equal(tx_chat(&x), H2EMV_OK);
	assert_string_equal(x.reply.content, "ok");
	tx_end(&x);
}

/* Retried under the decision's one deadline, as a 5xx is: with retries
 * to spare, the call does not give up on the bad body (EPARSE after one
 * attempt) but waits to try again until the deadline ends it, saying what
 * the last attempt got. The backoff is far longer than the deadline, so
 * the deadline comes during a wait, however slow the machine, unless an
 * attempt is still in flight then. */
static void test_bad_bodies_are_retried_within_the_deadline(void **state)
{
	(void)state;
	tx x;
	tx_start(&x, 20, 1000);
	x.cfg.backoff_base_ms = 120000;
	x.cfg.backoff_max_ms = 120000;
	tx_client(&x);
	fake_llm_set_default(x.srv, &(fake_resp){ .raw_body = "<html>oops</html>" });
	assert_int_equal(tx_chat(&x), H2EMV_EIO);
	assert_int_equal(x.err.status, H2EMV_EIO);
	assert_null(x.reply.content);
	assert_true(x.reply.attempts >= 1 && x.reply.attempts < 21);
	assert_says(x.err.message, "ran out of its 1000 ms deadline", "html");
	/* what the last attempt got: the bad body, or, when the deadline cut
	 * an attempt in flight (a short jitter, or a CPU so starved that the
	 * first exchange takes the whole second), the timeout */
	if (!strstr(x.err.message, "not a chat completion"))
		assert_says(x.err.message, "last: timed out", "html");
	assert_true(x.reply.seconds >= 0.95); /* it waited for the deadline */
	tx_end(&x);
}

/* Record mode keeps successful exchanges only: a bad body leaves the
 * cassette as it was. */
static void test_a_bad_body_is_never_recorded(void **state)
{
	(void)state;
	tx x;
	tx_start(&x, 1, 5000);
	char *dir = tu_tmpdir("llmbodies-tape");
	x.cfg.transport = LLM_T_RECORD;
	x.cfg.cassette = tu_fmt("%s/tape.jsonl", dir);
	tx_client(&x);
	fake_llm_set_default(x.srv, &(fake_resp){ .raw_body = "{\"choices\":[]}" });
	assert_int_equal(tx_chat(&x), H2EMV_EPARSE);
	struct stat sb;
	assert_int_equal(stat(x.cfg.cassette, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	fake_llm_set_default(x.srv, &(fake_resp){ .content = "At the sink." });
	assert_int_equal(tx_chat(&x), H2EMV_OK);
	assert_int_equal(stat(x.cfg.cassette, &sb), 0);
	assert_true(sb.st_size > 0);
	tx_end(&x);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------- through the memory -- */

/* A memory built by the builtin policy (one snapshot), with three more
 * days of chores waiting for the next build, and the llm policy pointed
 * at `url`. */
static h2emv_mem *memory(const char *dir, const char *url)
{
	char *cfg = tu_fmt("%s/llm.json", dir), *mdir = tu_fmt("%s/mem", dir);
	FILE *f = fopen(cfg, "w");
	assert_non_null(f);
	fprintf(f,
	        "{\"base_url\": \"%s\", \"model\": \"test-model\", \"timeouts\": {\"connect_ms\": "
	        "10000, \"decision_ms\": 30000}, \"retries\": {\"max\": 1, \"base_ms\": 5, \"max_ms\": "
	        "20}}\n",
	        url);
	fclose(f);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_open(&m, mdir, &o, &err), H2EMV_OK);
	for (int day = 0; day < 3; day++)
		tu_chores(m, T0, day);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("builtin build: %s", err.message);
	for (int day = 3; day < 6; day++)
		tu_chores(m, T0, day);
	if (h2emv_mem_set_policy(m, "llm", cfg, &err))
		fail_msg("set policy: %s", err.message);
	free(cfg);
	free(mdir);
	return m;
}

static void stats(h2emv_mem *m, h2emv_stats *s)
{
	h2emv_error err = { 0 };
	if (h2emv_mem_stats(s, m, &err))
		fail_msg("stats: %s", err.message);
}

/* For every bad body: the build fails naming the server and the fault,
 * commits nothing and falls back on nothing; a question and an utterance
 * fail the same way. Then, with the builtin policy, the same build goes
 * through: nothing was lost. */
static void test_each_bad_body_fails_build_ask_and_say(void **state)
{
	(void)state;
	fake_llm *srv;
	assert_int_equal(fake_llm_start(&srv), 0);
	char *dir = tu_tmpdir("llmbodies"), *url = fake_llm_url(srv);
	h2emv_mem *m = memory(dir, url);
	h2emv_stats s0, s;
	stats(m, &s0);
	assert_true(s0.snapshots >= 1);
	assert_true(s0.build_cursor < s0.obs_last_seq);
	for (size_t i = 0; i < N_BODIES; i++) {
		const bad_body *b = &bodies[i];
		fake_llm_set_default(srv, &(fake_resp){ .raw_body = b->body });
		h2emv_error err = { 0 };
		int rc = h2emv_build(NULL, m, NULL, &err);
		if (rc != H2EMV_EIO)
			fail_msg("body \"%s\": build gave %d (%s)", b->name, rc, err.message);
		assert_says(err.message, url, b->name);
		assert_says(err.message, "not a chat completion", b->name);
		assert_says(err.message, b->says, b->name);
		stats(m, &s);
		assert_int_equal(s.snapshots, s0.snapshots);
		assert_int_equal(s.last_snapshot, s0.last_snapshot);
		assert_int_equal(s.build_cursor, s0.build_cursor);

		h2emv_answer *a = NULL;
		memset(&err, 0, sizeof err);
		rc = h2emv_ask(&a, m, "Where did you put the cup the last time?", NULL, &err);
		if (rc != H2EMV_EIO)
			fail_msg("body \"%s\": ask gave %d (%s)", b->name, rc,
			         a && a->text ? a->text : err.message);
		assert_null(a);
		assert_says(err.message, url, b->name);
		assert_says(err.message, b->says, b->name);

		h2emv_reply *r = NULL;
		memset(&err, 0, sizeof err);
		rc = h2emv_say(&r, m, "Where did you put the plate?", &err);
		if (rc != H2EMV_EIO)
			fail_msg("body \"%s\": say gave %d (%s)", b->name, rc,
			         r && r->text ? r->text : err.message);
		assert_null(r);
		assert_says(err.message, b->says, b->name);
	}
	h2emv_policy_stats ps;
	h2emv_mem_policy_stats(&ps, m);
	assert_string_equal(ps.name, "llm");
	assert_int_equal(ps.fallbacks, 0);
	assert_int_equal(ps.bad_replies, 0);
	assert_int_equal(ps.transport_errors, 3 * N_BODIES);

	h2emv_error err = { 0 };
	assert_int_equal(h2emv_mem_set_policy(m, "builtin", NULL, &err), H2EMV_OK);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("builtin build: %s", err.message);
	stats(m, &s);
	assert_int_equal(s.snapshots, s0.snapshots + 1);
	assert_int_equal(s.build_cursor, s.obs_last_seq);
	uint64_t problems = 99;
	assert_int_equal(h2emv_check(&problems, m, NULL, NULL), H2EMV_OK);
	assert_int_equal(problems, 0);
	h2emv_mem_close(m);
	fake_llm_stop(srv);
	tu_rmrf(dir);
	free(dir);
	free(url);
}

/* ---------------------------------------------------- the command line -- */

/* `h2emv --policy llm build` and `ask` against a server answering
 * {"choices":[]}: a non-zero exit, the server and the fault on stderr,
 * no answer on stdout, no snapshot. */
static void test_cli_build_and_ask_exit_non_zero(void **state)
{
	(void)state;
	fake_llm *srv;
	assert_int_equal(fake_llm_start(&srv), 0);
	char *dir = tu_tmpdir("llmbodies-cli"), *url = fake_llm_url(srv);
	h2emv_mem *m = memory(dir, url);
	h2emv_mem_close(m);
	fake_llm_set_default(srv, &(fake_resp){ .raw_body = "{\"choices\":[]}" });
	char *env = tu_fmt("H2EMV_LLM_CONFIG=%s/llm.json H2EMV_POLICY=llm", dir);
	char *out = NULL, *errs = NULL, *errfile = tu_fmt("%s/stderr.txt", dir);

	int rc = tu_run(&out, "%s %s build -m %s/mem 2>%s", env, H2EMV_CLI, dir, errfile);
	errs = tu_read_file(errfile, NULL);
	if (rc == 0)
		fail_msg("build exited 0; stdout: %s; stderr: %s", out, errs);
	assert_says(errs, url, "cli build");
	assert_says(errs, "empty \"choices\" array", "cli build");
	free(out);
	free(errs);

	rc = tu_run(&out, "%s %s ask -m %s/mem 'Where did you put the cup?' 2>%s", env, H2EMV_CLI,
	         dir, errfile);
	errs = tu_read_file(errfile, NULL);
	if (rc == 0)
		fail_msg("ask exited 0; stdout: %s; stderr: %s", out, errs);
	assert_says(errs, url, "cli ask");
	assert_says(errs, "not a chat completion", "cli ask");
	assert_null(strstr(out, "I could not find"));
	free(out);
	free(errs);

	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	char *mdir = tu_fmt("%s/mem", dir);
	assert_int_equal(h2emv_mem_open(&m, mdir, &o, NULL), H2EMV_OK);
	h2emv_stats s;
	stats(m, &s);
	assert_int_equal(s.snapshots, 1);
	h2emv_mem_close(m);
	fake_llm_stop(srv);
	tu_rmrf(dir);
	free(mdir);
	free(dir);
	free(url);
	free(env);
	free(errfile);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_bad_body_is_retried_then_an_error),
		cmocka_unit_test(test_a_bad_body_then_a_good_one_is_a_reply),
		cmocka_unit_test(test_bad_bodies_are_retried_within_the_deadline),
		cmocka_unit_test(test_a_bad_body_is_never_recorded),
		cmocka_unit_test(test_each_bad_body_fails_build_ask_and_say),
		cmocka_unit_test(test_cli_build_and_ask_exit_non_zero),
	};
	return cmocka_run_group_tests(tests, bodies_init, bodies_done);
}
