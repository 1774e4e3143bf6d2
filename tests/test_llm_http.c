/*
 * test_llm_http.c — the llm transport (api/policy/llm_client.h) against the
 * fake server of fakellm.h: replies and usage, keep-alive, retries on
 * 429/503/500 with Retry-After and backoff, no retry on other 4xx, cut and
 * garbage bodies, the low-speed limit, the reply size cap, the decision
 * deadline, refused connections, the API key never leaking, cassettes
 * (record, replay, missing keys, damaged lines), the structured-output
 * members, the config file and its environment overrides, and concurrent
 * callers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>
#include <pthread.h>

#include "api/policy/llm/llm_client.h"
#include "fakellm.h"
#include "testutil.h"

/* Distinctive, so a leak anywhere is found by a plain search. */
#define KEY "sk-h2emv-test-7f3a9c1e5b"
#define KEY_VAR "H2EMV_TEST_LLM_KEY"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A server, a config aimed at it and a prompt. The timeouts are hang
 * guards, far beyond what any exchange here needs even on a starved CPU:
 * the tests assert what happened and in which order, not how fast; those
 * about a deadline make the server hang past it. Backoff stays small. */
typedef struct fx {
	fake_llm *srv;
	llm_config cfg;
	pr_prompt prompt;
	llm_client *cli;
	llm_reply reply;
	h2emv_error err;
} fx;

static void fx_prompt(pr_prompt *p, const char *user)
{
	pr_prompt_free(p);
	assert_int_equal(pr_prompt_add(p, "system", "You are the memory of a robot.", NULL), 0);
	assert_int_equal(pr_prompt_add(p, "user", user, NULL), 0);
}

static void fx_start(fx *x)
{
	memset(x, 0, sizeof *x);
	assert_int_equal(fake_llm_start(&x->srv), 0);
	llm_config_defaults(&x->cfg);
	x->cfg.base_url = fake_llm_url(x->srv);
	x->cfg.model = strdup("test-model");
	x->cfg.connect_timeout_ms = 10000;
	x->cfg.decision_timeout_ms = 30000;
	x->cfg.max_retries = 2;
	x->cfg.backoff_base_ms = 10;
	x->cfg.backoff_max_ms = 40;
	fx_prompt(&x->prompt, "What is on the kitchen table?");
}

/* (Re)make the client from x->cfg. */
static void fx_client(fx *x)
{
	llm_client_free(x->cli);
	x->cli = NULL;
	int rc = llm_client_new(&x->cli, &x->cfg, &x->err);
	if (rc)
		fail_msg("llm_client_new: %s", x->err.message);
}

static int fx_chat(fx *x, int decision)
{
	llm_request req = { .decision = decision, .prompt = &x->prompt };
	llm_reply_free(&x->reply);
	memset(&x->err, 0, sizeof x->err);
	return llm_chat(x->cli, &req, &x->reply, &x->err);
}

static void fx_end(fx *x)
{
	llm_reply_free(&x->reply);
	llm_client_free(x->cli);
	if (x->srv)
		fake_llm_stop(x->srv);
	llm_config_free(&x->cfg);
	pr_prompt_free(&x->prompt);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("\"%s\" does not contain \"%s\"", hay ? hay : "(null)", needle);
}

static void assert_lacks(const char *hay, const char *needle)
{
	if (hay && strstr(hay, needle))
		fail_msg("\"%s\" contains \"%s\"", hay, needle);
}

/* ------------------------------------------------------------- replies -- */

static void test_chat_returns_content_and_usage(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	char *url = x.cfg.base_url;
	assert_int_equal(asprintf(&x.cfg.base_url, "%s/", url), (int)strlen(url) + 1);
	free(url);
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .content = "A cup and a plate.", .prompt_tokens = 42,
	                                   .completion_tokens = 7 });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	assert_string_equal(x.reply.content, "A cup and a plate.");
	assert_int_equal(x.reply.prompt_tokens, 42);
	assert_int_equal(x.reply.completion_tokens, 7);
	assert_int_equal(x.reply.attempts, 1);
	assert_int_equal(x.reply.http_status, 200);
	assert_string_equal(x.reply.model, "fake-model");

	char *head = fake_llm_request_head(x.srv, 0);
	assert_true(!strncmp(head, "POST /v1/chat/completions HTTP/1.1\r\n", 36));
	free(head);
	char *ct = fake_llm_header(x.srv, 0, "Content-Type");
	assert_string_equal(ct, "application/json");
	free(ct);
	assert_null(fake_llm_header(x.srv, 0, "Authorization")); /* no key configured */

	/* a base_url that already ends in /v1 is not doubled */
	free(x.cfg.base_url);
	char *u = fake_llm_url(x.srv);
	assert_true(asprintf(&x.cfg.base_url, "%s/v1", u) > 0);
	free(u);
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .content = "ok" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	head = fake_llm_request_head(x.srv, 1);
	assert_true(!strncmp(head, "POST /v1/chat/completions ", 26));
	free(head);

	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.requests, 1);
	assert_int_equal(st.attempts, 1);
	assert_int_equal(st.failures, 0);
	fx_end(&x);
}

static void test_requests_reuse_one_connection(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fx_client(&x);
	for (int i = 0; i < 4; i++)
		fake_llm_push(x.srv, &(fake_resp){ .content = "ok" });
	for (int i = 0; i < 4; i++)
		assert_int_equal(fx_chat(&x, LLM_D_ROUTE), H2EMV_OK);
	assert_int_equal(fake_llm_requests(x.srv), 4);
	assert_int_equal(fake_llm_connections(x.srv), 1);
	fx_end(&x);
}

/* -------------------------------------------------------------- retries -- */

static void test_429_waits_for_retry_after_then_succeeds(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	x.cfg.backoff_base_ms = x.cfg.backoff_max_ms = 0; /* any wait is Retry-After's */
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .status = 429, .retry_after = 1, .content = "slow down" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "fine now", .completion_tokens = 2 });
	double t = now_s();
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	t = now_s() - t;
	assert_string_equal(x.reply.content, "fine now");
	assert_int_equal(x.reply.attempts, 2);
	assert_true(t >= 0.95); /* it waited as asked */
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.retries, 1);
	assert_int_equal(st.attempts, 2);
	fx_end(&x);
}

static void test_503_retry_after_within_and_past_the_deadline(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	x.cfg.decision_timeout_ms = 20000;
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .status = 503, .retry_after = 1, .content = "loading" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "loaded" });
	double t = now_s();
	assert_int_equal(fx_chat(&x, LLM_D_GROUP), H2EMV_OK);
	t = now_s() - t;
	assert_string_equal(x.reply.content, "loaded");
	assert_int_equal(x.reply.attempts, 2);
	assert_true(t >= 0.95); /* it waited as asked */

	/* a Retry-After past the deadline ends the call at once: no second
	 * attempt, and the reason is the wait asked for, not the deadline */
	fake_llm_push(x.srv, &(fake_resp){ .status = 503, .retry_after = 30, .content = "overloaded" });
	assert_int_equal(fx_chat(&x, LLM_D_GROUP), H2EMV_EIO);
	assert_int_equal(x.reply.attempts, 1);
	assert_int_equal(fake_llm_requests(x.srv), 3);
	assert_contains(x.err.message, "past the 20000 ms deadline");
	assert_lacks(x.err.message, "ran out");
	assert_contains(x.err.message, "HTTP 503");
	assert_contains(x.err.message, "overloaded");
	assert_contains(x.err.message, "retry after 30 s");
	assert_contains(x.err.message, "group");
	assert_int_equal(x.reply.http_status, 503);
	assert_null(x.reply.content);
	fx_end(&x);
}

static void test_500_is_retried_then_gives_up(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .status = 500, .content = "boom" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "recovered" });
	assert_int_equal(fx_chat(&x, LLM_D_SUMMARIZE), H2EMV_OK);
	assert_string_equal(x.reply.content, "recovered");
	assert_int_equal(x.reply.attempts, 2);

	for (int i = 0; i < 3; i++)
		fake_llm_push(x.srv, &(fake_resp){ .status = i == 1 ? 502 : 500, .content = "boom" });
	assert_int_equal(fx_chat(&x, LLM_D_SUMMARIZE), H2EMV_EIO);
	assert_int_equal(x.reply.attempts, 3); /* 1 + max_retries */
	assert_contains(x.err.message, "after 3 attempts");
	assert_contains(x.err.message, "HTTP 500: boom");
	assert_int_equal(fake_llm_requests(x.srv), 5);
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.requests, 2);
	assert_int_equal(st.failures, 1);
	assert_int_equal(st.retries, 3);
	fx_end(&x);
}

static void test_400_is_not_retried_and_names_the_server_message(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .status = 400,
	                                   .content = "The model `test-model` does not exist" });
	assert_int_equal(fx_chat(&x, LLM_D_LEARN), H2EMV_EINVAL);
	assert_int_equal(fake_llm_requests(x.srv), 1);
	assert_int_equal(x.reply.attempts, 1);
	assert_int_equal(x.reply.http_status, 400);
	assert_contains(x.err.message, "HTTP 400");
	assert_contains(x.err.message, "does not exist");
	assert_contains(x.err.message, "learn");

	/* not JSON: the first 200 bytes, control characters blanked */
	char page[400];
	memset(page, 'p', sizeof page);
	memcpy(page, "<html>\x01\x1b[31mNot Found", 21);
	page[sizeof page - 1] = 0;
	fake_llm_push(x.srv, &(fake_resp){ .status = 404, .raw_body = page });
	assert_int_equal(fx_chat(&x, LLM_D_LEARN), H2EMV_EINVAL);
	assert_int_equal(fake_llm_requests(x.srv), 2);
	assert_contains(x.err.message, "HTTP 404");
	assert_contains(x.err.message, "<html>  [31mNot Found");
	assert_contains(x.err.message, "...");
	for (const char *p = x.err.message; *p; p++)
		assert_true((unsigned char)*p >= 0x20);
	const char *ps = strstr(x.err.message, "Not Found");
	assert_true(strspn(ps + 9, "p") < 200);
	fx_end(&x);
}

/* --------------------------------------------------------- broken bodies -- */

static void test_truncated_body_is_retried_or_reported(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .truncate = 1, .content = "partial" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "whole" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	assert_string_equal(x.reply.content, "whole");
	assert_int_equal(x.reply.attempts, 2);
	assert_int_equal(fake_llm_connections(x.srv), 2); /* the cut one was closed */

	x.cfg.max_retries = 0;
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .truncate = 1, .content = "partial" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EIO);
	assert_contains(x.err.message, "failed after 1 attempt;");
	assert_contains(x.err.message, "qa");
	fx_end(&x);
}

/* A 2xx body that is no chat completion is retried like a 5xx and, when
 * every attempt got one, is EPARSE saying what was wrong (tests/
 * test_llm_bodies.c goes through every kind of body, and through the
 * policy). */
static void test_garbage_body_is_retried_then_a_parse_error(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fx_client(&x);
	fake_llm_set_default(x.srv, &(fake_resp){ .raw_body = "<html>\nbad gateway\n</html>" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EPARSE);
	assert_int_equal(x.reply.attempts, 3); /* the first and max_retries more */
	assert_int_equal(fake_llm_requests(x.srv), 3);
	assert_contains(x.err.message, "failed after 3 attempts");
	assert_contains(x.err.message, x.cfg.base_url);
	assert_contains(x.err.message, "HTTP 200, but not a chat completion");
	assert_contains(x.err.message, "not JSON");
	assert_contains(x.err.message, "<html> bad gateway");

	fake_llm_set_default(x.srv, &(fake_resp){ .raw_body = "{\"choices\":[]}" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EPARSE);
	assert_contains(x.err.message, "empty \"choices\" array");

	fake_llm_set_default(x.srv, &(fake_resp){
		.raw_body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
		            "\"tool_calls\":[{\"id\":\"1\",\"type\":\"function\"}]}}]}" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EPARSE);
	assert_contains(x.err.message, "tool calls");

	fake_llm_set_default(x.srv, &(fake_resp){
		.raw_body = "{\"choices\":[{\"message\":{\"content\":null,"
		            "\"reasoning_content\":\"hmm\"}}]}" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EPARSE);
	assert_contains(x.err.message, "reasoning");
	fake_llm_set_default(x.srv, NULL);

	/* no usage: tokens are 0, and no model: the one asked for */
	fake_llm_push(x.srv, &(fake_resp){
		.raw_body = "{\"choices\":[{\"message\":{\"content\":\"bare\"}}]}" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	assert_string_equal(x.reply.content, "bare");
	assert_int_equal(x.reply.prompt_tokens, 0);
	assert_string_equal(x.reply.model, "test-model");
	fx_end(&x);
}

/* ----------------------------------------------------- time and size caps -- */

static void test_slow_trickle_hits_the_low_speed_limit(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	x.cfg.low_speed_bytes = 1000;
	x.cfg.low_speed_secs = 1;
	x.cfg.max_retries = 0;
	fx_client(&x);
	char text[4000];
	memset(text, 'a', sizeof text - 1);
	text[sizeof text - 1] = 0;
	fake_llm_push(x.srv, &(fake_resp){ .content = text, .trickle_bytes_per_sec = 50 });
	double t = now_s();
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EIO);
	t = now_s() - t;
	assert_true(t >= 0.9);
	assert_contains(x.err.message, "timed out");
	/* the low-speed limit cut it, not the (hang guard) deadline */
	assert_contains(x.err.message, "too slow");
	assert_lacks(x.err.message, "deadline");
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.timeouts, 1);
	fx_end(&x);
}

static void test_huge_reply_is_cut_off_at_the_limit(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	x.cfg.max_reply_bytes = 64 << 10;
	fx_client(&x);
	/* declared length over the cap: refused before the body */
	fake_llm_push(x.srv, &(fake_resp){ .huge_bytes = (size_t)100 << 20 });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_ELIMIT);
	assert_int_equal(x.reply.attempts, 1);
	assert_contains(x.err.message, "max_reply_bytes");
	/* no length: cut off while it streams */
	fake_llm_push(x.srv, &(fake_resp){ .huge_bytes = (size_t)100 << 20, .no_length = 1 });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_ELIMIT);
	assert_int_equal(x.reply.attempts, 1);
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_true(st.bytes_in > 64 << 10 && st.bytes_in < 1 << 20);
	fx_end(&x);
}

/* One deadline for the whole decision: a 500 at once, then a server that
 * hangs far past the deadline. The attempt in flight is cut when the
 * deadline comes, though retries remain and the server would still answer. */
static void test_deadline_bounds_all_retries(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	x.cfg.decision_timeout_ms = 2000;
	x.cfg.max_retries = 10;
	x.cfg.backoff_base_ms = 20;
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .status = 500, .content = "busy" });
	for (int i = 0; i < 10; i++)
		fake_llm_push(x.srv, &(fake_resp){ .status = 500, .delay_ms = 120000, .content = "busy" });
	double t = now_s();
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EIO);
	t = now_s() - t;
	/* two attempts, the second cut; one only on a CPU so starved that the
	 * first exchange took the whole deadline. Never the retries' end. */
	assert_true(x.reply.attempts == 1 || x.reply.attempts == 2);
	char says[96];
	snprintf(says, sizeof says, "ran out of its 2000 ms deadline after %d attempt%s; last: timed out",
	         x.reply.attempts, x.reply.attempts == 1 ? "" : "s");
	assert_contains(x.err.message, says);
	assert_true(t >= 1.9); /* it used its deadline */
	assert_true(t < 60.0); /* a hang guard: the server would take 120 s */
	fx_end(&x);
}

static void test_refused_connection_is_a_clear_error(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm_stop(x.srv);
	x.srv = NULL;
	x.cfg.max_retries = 1;
	fx_client(&x);
	assert_int_equal(fx_chat(&x, LLM_D_ROUTE), H2EMV_EIO);
	assert_int_equal(x.reply.attempts, 2);
	assert_lacks(x.err.message, "timed out"); /* refused, not waited for */
	assert_int_equal(x.reply.http_status, 0);
	assert_contains(x.err.message, "127.0.0.1");
	assert_contains(x.err.message, "route");
	assert_contains(x.err.message, "onnect");
	fx_end(&x);
}

/* ----------------------------------------------------------------- keys -- */

static void test_api_key_is_sent_but_never_leaked(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	char *dir = tu_tmpdir("llmkey");
	setenv(KEY_VAR, KEY, 1);
	x.cfg.api_key_env = strdup(KEY_VAR);
	x.cfg.transport = LLM_T_RECORD;
	assert_true(asprintf(&x.cfg.cassette, "%s/tape.jsonl", dir) > 0);
	x.cfg.max_retries = 0;
	fx_client(&x);

	fake_llm_push(x.srv, &(fake_resp){ .content = "fine" });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	char *auth = fake_llm_header(x.srv, 0, "Authorization");
	assert_string_equal(auth, "Bearer " KEY);
	free(auth);

	/* a server that echoes the key in its error */
	fake_llm_push(x.srv, &(fake_resp){ .status = 401,
	                                   .content = "Incorrect API key provided: " KEY "." });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_EINVAL);
	assert_contains(x.err.message, "HTTP 401");
	assert_contains(x.err.message, "[redacted]");
	assert_lacks(x.err.message, KEY);
	assert_lacks(x.err.message, "sk-h2emv"); /* not even a prefix */

	/* ... or in its reply: the caller gets it, the cassette does not */
	fake_llm_push(x.srv, &(fake_resp){ .content = "your key is " KEY });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	llm_client_free(x.cli);
	x.cli = NULL;
	char *tape = tu_read_file(x.cfg.cassette, NULL);
	assert_non_null(tape);
	assert_contains(tape, "your key is ");
	assert_lacks(tape, KEY);
	free(tape);

	char *body;
	llm_request req = { .decision = LLM_D_QA, .prompt = &x.prompt };
	assert_int_equal(llm_request_json(&body, &x.cfg, &req, NULL), 0);
	assert_lacks(body, KEY);
	free(body);

	/* a named variable that is unset */
	free(x.cfg.api_key_env);
	x.cfg.api_key_env = strdup("H2EMV_TEST_LLM_UNSET");
	unsetenv("H2EMV_TEST_LLM_UNSET");
	assert_int_equal(llm_client_new(&x.cli, &x.cfg, &x.err), H2EMV_EINVAL);
	assert_contains(x.err.message, "H2EMV_TEST_LLM_UNSET");
	/* the key pasted where its variable's name belongs is not echoed */
	free(x.cfg.api_key_env);
	x.cfg.api_key_env = strdup(KEY);
	assert_int_equal(llm_client_new(&x.cli, &x.cfg, &x.err), H2EMV_EINVAL);
	assert_lacks(x.err.message, KEY);
	assert_contains(x.err.message, "api_key_env");
	unsetenv(KEY_VAR);
	fx_end(&x);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------------- cassettes -- */

static void record_cfg(llm_config *c, const char *dir, int transport)
{
	free(c->cassette);
	assert_true(asprintf(&c->cassette, "%s/tape.jsonl", dir) > 0);
	c->transport = transport;
}

static void test_record_then_replay_without_the_server(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	char *dir = tu_tmpdir("llmtape");
	record_cfg(&x.cfg, dir, LLM_T_RECORD);
	fx_client(&x);
	fake_llm_push(x.srv, &(fake_resp){ .content = "first", .prompt_tokens = 10,
	                                   .completion_tokens = 1 });
	fake_llm_push(x.srv, &(fake_resp){ .content = "second", .prompt_tokens = 10,
	                                   .completion_tokens = 2 });
	fake_llm_push(x.srv, &(fake_resp){ .content = "other", .prompt_tokens = 30,
	                                   .completion_tokens = 3 });
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK); /* the same prompt again */
	fx_prompt(&x.prompt, "Where is the sponge?");
	assert_int_equal(fx_chat(&x, LLM_D_SUMMARIZE), H2EMV_OK);
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.recorded, 3);
	fake_llm_stop(x.srv);
	x.srv = NULL;

	/* replay aimed at a live server that must see nothing */
	fake_llm *watch;
	assert_int_equal(fake_llm_start(&watch), 0);
	free(x.cfg.base_url);
	x.cfg.base_url = fake_llm_url(watch);
	record_cfg(&x.cfg, dir, LLM_T_REPLAY);
	fx_client(&x);
	fx_prompt(&x.prompt, "What is on the kitchen table?");
	static const char *const want[] = { "first", "second", "second" };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
		assert_string_equal(x.reply.content, want[i]);
		assert_int_equal(x.reply.prompt_tokens, 10);
		assert_int_equal(x.reply.completion_tokens, i ? 2 : 1);
		assert_int_equal(x.reply.http_status, 0);
	}
	fx_prompt(&x.prompt, "Where is the sponge?");
	assert_int_equal(fx_chat(&x, LLM_D_SUMMARIZE), H2EMV_OK);
	assert_string_equal(x.reply.content, "other");
	assert_int_equal(x.reply.prompt_tokens, 30);
	assert_int_equal(x.reply.completion_tokens, 3);
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.replayed, 4);
	assert_int_equal(st.attempts, 0);
	assert_int_equal(fake_llm_connections(watch), 0);
	fake_llm_stop(watch);

	/* every line names its decision and carries the request */
	char *tape = tu_read_file(x.cfg.cassette, NULL);
	assert_contains(tape, "\"decision\":\"summarize\"");
	assert_contains(tape, "\"request\":{\"model\":\"test-model\"");
	free(tape);
	fx_end(&x);
	tu_rmrf(dir);
	free(dir);
}

static void test_replay_of_a_missing_key_names_the_request(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	char *dir = tu_tmpdir("llmmiss");
	record_cfg(&x.cfg, dir, LLM_T_REPLAY);
	FILE *f = fopen(x.cfg.cassette, "w");
	assert_non_null(f);
	fclose(f); /* an empty cassette is valid: every request misses */
	fx_client(&x);
	fx_prompt(&x.prompt, "Where did I leave the red mug yesterday evening, after the guests had "
	                     "gone home? TAIL-NOT-SHOWN");
	char key[LLM_KEY_LEN];
	llm_request req = { .decision = LLM_D_QA, .prompt = &x.prompt };
	assert_int_equal(llm_request_key(key, &x.cfg, &req, NULL), 0);
	assert_int_equal(strlen(key), 16);
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_ENOTFOUND);
	assert_contains(x.err.message, "qa request");
	assert_contains(x.err.message, key);
	assert_contains(x.err.message, "Where did I leave the red mug yesterday");
	assert_contains(x.err.message, x.cfg.cassette);
	assert_lacks(x.err.message, "TAIL-NOT-SHOWN");
	assert_int_equal(fake_llm_connections(x.srv), 0);
	fx_end(&x);
	tu_rmrf(dir);
	free(dir);
}

static int load_tape(const char *path, const char *text, h2emv_error *err)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	llm_config c;
	llm_config_defaults(&c);
	c.model = "m";
	c.transport = LLM_T_REPLAY;
	c.cassette = (char *)path;
	llm_client *cli = NULL;
	memset(err, 0, sizeof *err);
	int rc = llm_client_new(&cli, &c, err);
	llm_client_free(cli);
	return rc; /* c holds borrowed strings: not freed */
}

static void test_damaged_cassette_line_is_reported_by_number(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("llmbad");
	char *path;
	h2emv_error err;
	assert_true(asprintf(&path, "%s/tape.jsonl", dir) > 0);
#define GOOD "{\"key\":\"0123456789abcdef\",\"decision\":\"qa\",\"request\":{}," \
	     "\"reply\":{\"content\":\"x\",\"prompt_tokens\":1,\"completion_tokens\":2}}\n"
	assert_int_equal(load_tape(path, GOOD "\n" GOOD, &err), H2EMV_OK);
	assert_int_equal(load_tape(path, GOOD "\n{\"key\": broken\n" GOOD, &err), H2EMV_EPARSE);
	assert_int_equal(err.line, 3);
	assert_contains(err.message, "line 3");
	assert_contains(err.message, path);
	assert_int_equal(load_tape(path,
	                           GOOD "{\"key\":\"0123456789abcdef\",\"decision\":\"qa\","
	                                "\"request\":{},\"reply\":{\"prompt_tokens\":1}}\n",
	                           &err),
	                 H2EMV_EPARSE);
	assert_int_equal(err.line, 2);
	assert_contains(err.message, "content");
	assert_int_equal(load_tape(path, "{\"key\":\"XYZ\",\"decision\":\"qa\",\"request\":{},"
	                                 "\"reply\":{\"content\":\"x\",\"prompt_tokens\":1,"
	                                 "\"completion_tokens\":2}}\n",
	                           &err),
	                 H2EMV_EPARSE);
	assert_int_equal(err.line, 1);
	assert_contains(err.message, "\"key\"");
	assert_int_equal(load_tape(path, "[1,2]\n", &err), H2EMV_EPARSE);
	assert_contains(err.message, "line 1");
#undef GOOD
	/* no file at all */
	llm_config c;
	llm_config_defaults(&c);
	c.model = "m";
	c.transport = LLM_T_REPLAY;
	c.cassette = "/nonexistent/h2emv/tape.jsonl";
	llm_client *cli = NULL;
	assert_int_equal(llm_client_new(&cli, &c, &err), H2EMV_EIO);
	assert_contains(err.message, "/nonexistent/h2emv/tape.jsonl");
	assert_null(cli);
	free(path);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------ request bodies -- */

static const char SCHEMA[] =
	"{\"type\":\"object\",\"properties\":{\"reasoning\":{\"type\":\"string\"},"
	"\"answer\":{\"type\":\"string\"}},\"required\":[\"reasoning\",\"answer\"]}";

static char *echo_handler(void *arg, const char *body)
{
	(void)arg;
	char *user = fake_llm_message(body, "user"), *r = NULL;
	if (user && asprintf(&r, "echo: %s", user) < 0)
		r = NULL;
	free(user);
	return r;
}

/* Send one request with `schema` in mode `so` and return the body the
 * server received, parsed. */
static json_t *sent_body(fx *x, int so, const char *schema, int decision)
{
	x->cfg.structured = so;
	fx_client(x);
	llm_request req = { .decision = decision, .prompt = &x->prompt, .schema_name = "answer",
	                    .schema = schema };
	llm_reply_free(&x->reply);
	assert_int_equal(llm_chat(x->cli, &req, &x->reply, &x->err), H2EMV_OK);
	size_t n = fake_llm_requests(x->srv);
	char *text = fake_llm_request(x->srv, n - 1);
	char *mine;
	assert_int_equal(llm_request_json(&mine, &x->cfg, &req, NULL), 0);
	assert_string_equal(text, mine); /* what is sent is the canonical body */
	if (schema && so != LLM_SO_NONE) { /* the schema keeps its member order */
		const char *props = strstr(text, "\"properties\"");
		assert_non_null(props);
		assert_true(strstr(props, "\"reasoning\"") < strstr(props, "\"answer\""));
	}
	json_t *o = json_loads(text, 0, NULL);
	assert_non_null(o);
	free(mine);
	free(text);
	return o;
}

static void test_structured_output_members_by_mode(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm_set_handler(x.srv, echo_handler, NULL);
	x.cfg.temperature = 0.2;
	x.cfg.max_tokens = 333;
	x.cfg.model_for[LLM_D_LEARN] = strdup("big-model");

	json_t *o = sent_body(&x, LLM_SO_NONE, SCHEMA, LLM_D_QA);
	assert_string_equal(json_string_value(json_object_get(o, "model")), "test-model");
	assert_true(json_real_value(json_object_get(o, "temperature")) == 0.2);
	assert_int_equal(json_integer_value(json_object_get(o, "max_tokens")), 333);
	assert_true(json_is_false(json_object_get(o, "stream")));
	json_t *m = json_object_get(o, "messages");
	assert_int_equal(json_array_size(m), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(m, 0), "role")),
	                    "system");
	assert_string_equal(json_string_value(json_object_get(json_array_get(m, 1), "content")),
	                    "What is on the kitchen table?");
	assert_null(json_object_get(o, "response_format"));
	assert_null(json_object_get(o, "structured_outputs"));
	assert_null(json_object_get(o, "format"));
	assert_string_equal(x.reply.content, "echo: What is on the kitchen table?");
	json_decref(o);

	o = sent_body(&x, LLM_SO_JSON_SCHEMA, SCHEMA, LLM_D_LEARN);
	assert_string_equal(json_string_value(json_object_get(o, "model")), "big-model");
	json_t *rf = json_object_get(o, "response_format");
	assert_string_equal(json_string_value(json_object_get(rf, "type")), "json_schema");
	json_t *js = json_object_get(rf, "json_schema");
	assert_string_equal(json_string_value(json_object_get(js, "name")), "answer");
	assert_true(json_is_true(json_object_get(js, "strict")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(js, "schema"), "type")),
	                    "object");
	json_decref(o);

	o = sent_body(&x, LLM_SO_VLLM, SCHEMA, LLM_D_QA);
	json_t *so = json_object_get(o, "structured_outputs");
	assert_true(json_is_object(json_object_get(json_object_get(so, "json"), "properties")));
	assert_null(json_object_get(o, "response_format"));
	json_decref(o);

	o = sent_body(&x, LLM_SO_OLLAMA, SCHEMA, LLM_D_QA); /* both members */
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "format"), "type")),
	                    "object");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "response_format"),
	                                                      "type")),
	                    "json_schema");
	json_decref(o);

	o = sent_body(&x, LLM_SO_OLLAMA, NULL, LLM_D_QA); /* no schema: plain */
	assert_null(json_object_get(o, "format"));
	json_decref(o);

	/* a schema that is not an object is refused before anything is sent */
	size_t before = fake_llm_requests(x.srv);
	llm_request req = { .decision = LLM_D_QA, .prompt = &x.prompt, .schema = "[1,2" };
	llm_reply_free(&x.reply);
	assert_int_equal(llm_chat(x.cli, &req, &x.reply, &x.err), H2EMV_EINVAL);
	assert_contains(x.err.message, "schema");
	assert_int_equal(fake_llm_requests(x.srv), before);
	fx_end(&x);
}

static void test_invalid_utf8_in_a_prompt_is_repaired(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm_set_handler(x.srv, echo_handler, NULL);
	fx_client(&x);
	fx_prompt(&x.prompt, "caf\xc3\xa9 \xff\xfe ok");
	assert_int_equal(fx_chat(&x, LLM_D_QA), H2EMV_OK);
	assert_string_equal(x.reply.content, "echo: caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd ok");
	fx_end(&x);
}

/* ---------------------------------------------------------------- config -- */

static const char *const ENV_VARS[] = {
	"H2EMV_LLM_BASE_URL",    "H2EMV_LLM_MODEL",       "H2EMV_LLM_KEY_ENV",
	"H2EMV_LLM_TEMPERATURE", "H2EMV_LLM_MAX_TOKENS",  "H2EMV_LLM_TIMEOUT_MS",
	"H2EMV_LLM_RETRIES",     "H2EMV_LLM_STRUCTURED",  "H2EMV_LLM_TRANSPORT",
	"H2EMV_LLM_CASSETTE",
};

static void clear_env(void)
{
	for (size_t i = 0; i < sizeof ENV_VARS / sizeof *ENV_VARS; i++)
		unsetenv(ENV_VARS[i]);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_config_file_then_environment(void **state)
{
	(void)state;
	clear_env();
	char *dir = tu_tmpdir("llmcfg"), *path;
	assert_true(asprintf(&path, "%s/llm.json", dir) > 0);
	h2emv_error err;
	llm_config c;
	write_file(path, "{\"base_url\": \"https://api.example.com/v1\", \"model\": \"small\",\n"
	                 " \"models\": {\"learn\": \"large\", \"judge\": \"judge-model\"},\n"
	                 " \"api_key_env\": \"OPENAI_API_KEY\", \"temperature\": 0.3,\n"
	                 " \"max_tokens\": 512,\n"
	                 " \"timeouts\": {\"connect_ms\": 2000, \"low_speed_bytes\": 10,\n"
	                 "              \"low_speed_secs\": 60, \"decision_ms\": 45000},\n"
	                 " \"retries\": {\"max\": 5, \"base_ms\": 100, \"max_ms\": 900},\n"
	                 " \"structured_output\": \"json_schema\", \"transport\": \"record\",\n"
	                 " \"cassette\": \"tape.jsonl\", \"verify_tls\": false,\n"
	                 " \"max_reply_bytes\": 100000}\n");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_OK);
	assert_string_equal(c.base_url, "https://api.example.com/v1");
	assert_string_equal(c.model, "small");
	assert_string_equal(c.model_for[LLM_D_LEARN], "large");
	assert_string_equal(c.model_for[LLM_D_JUDGE], "judge-model");
	assert_null(c.model_for[LLM_D_QA]);
	assert_string_equal(c.api_key_env, "OPENAI_API_KEY");
	assert_true(c.temperature == 0.3);
	assert_int_equal(c.max_tokens, 512);
	assert_int_equal(c.connect_timeout_ms, 2000);
	assert_int_equal(c.low_speed_bytes, 10);
	assert_int_equal(c.low_speed_secs, 60);
	assert_int_equal(c.decision_timeout_ms, 45000);
	assert_int_equal(c.max_retries, 5);
	assert_int_equal(c.backoff_base_ms, 100);
	assert_int_equal(c.backoff_max_ms, 900);
	assert_int_equal(c.structured, LLM_SO_JSON_SCHEMA);
	assert_int_equal(c.transport, LLM_T_RECORD);
	assert_string_equal(c.cassette, "tape.jsonl");
	assert_int_equal(c.verify_tls, 0);
	assert_int_equal(c.max_reply_bytes, 100000);
	llm_config_free(&c);

	setenv("H2EMV_LLM_MODEL", "env-model", 1);
	setenv("H2EMV_LLM_STRUCTURED", "vllm", 1);
	setenv("H2EMV_LLM_TIMEOUT_MS", "1234", 1);
	setenv("H2EMV_LLM_TEMPERATURE", "0.5", 1);
	setenv("H2EMV_LLM_RETRIES", "0", 1);
	setenv("H2EMV_LLM_KEY_ENV", "", 1);
	setenv("H2EMV_LLM_TRANSPORT", "replay", 1);
	setenv("H2EMV_LLM_CASSETTE", "other.jsonl", 1);
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_OK);
	assert_string_equal(c.model, "env-model");
	assert_int_equal(c.structured, LLM_SO_VLLM);
	assert_int_equal(c.decision_timeout_ms, 1234);
	assert_true(c.temperature == 0.5);
	assert_int_equal(c.max_retries, 0);
	assert_null(c.api_key_env);
	assert_int_equal(c.transport, LLM_T_REPLAY);
	assert_string_equal(c.cassette, "other.jsonl");
	assert_int_equal(c.max_tokens, 512); /* untouched by the environment */
	llm_config_free(&c);

	setenv("H2EMV_LLM_STRUCTURED", "xml", 1);
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "H2EMV_LLM_STRUCTURED");
	assert_contains(err.message, "xml");
	setenv("H2EMV_LLM_STRUCTURED", "none", 1);
	setenv("H2EMV_LLM_RETRIES", "3x", 1);
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "H2EMV_LLM_RETRIES");
	clear_env();

	/* no file: the defaults */
	assert_int_equal(llm_config_load(&c, NULL, &err), H2EMV_OK);
	assert_null(c.model);
	assert_int_equal(c.verify_tls, 1);
	assert_int_equal(c.max_reply_bytes, 4u << 20);
	llm_config_free(&c);

	write_file(path, "{\"model\": \"m\", \"modle\": \"typo\"}");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "\"modle\"");
	assert_contains(err.message, path);
	write_file(path, "{\"timeouts\": {\"connect\": 5}}");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "timeouts.connect");
	write_file(path, "{\"models\": {\"grouping\": \"x\"}}");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "models.grouping");
	write_file(path, "{\"max_tokens\": \"many\"}");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "max_tokens");
	write_file(path, "{\"transport\": \"replay\"}");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EINVAL);
	assert_contains(err.message, "cassette");
	write_file(path, "{\"model\": \"m\",\n \"temperature\": }");
	assert_int_equal(llm_config_load(&c, path, &err), H2EMV_EPARSE);
	assert_int_equal(err.line, 2);
	assert_contains(err.message, path);
	assert_int_equal(llm_config_load(&c, "/nonexistent/llm.json", &err), H2EMV_EIO);
	assert_contains(err.message, "/nonexistent/llm.json");

	/* a client without a model is refused */
	llm_client *cli = NULL;
	llm_config_defaults(&c);
	assert_int_equal(llm_client_new(&cli, &c, &err), H2EMV_EINVAL);
	assert_contains(err.message, "model");
	free(path);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------------ threading -- */

typedef struct worker {
	llm_client *cli;
	int id;
	int failures;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	for (int i = 0; i < 5; i++) {
		char text[64], want[80];
		pr_prompt p = { 0 };
		snprintf(text, sizeof text, "thread %d question %d", w->id, i);
		snprintf(want, sizeof want, "echo: %s", text);
		pr_prompt_add(&p, "user", text, NULL);
		llm_request req = { .decision = LLM_D_QA, .prompt = &p };
		llm_reply r;
		h2emv_error err;
		if (llm_chat(w->cli, &req, &r, &err) || strcmp(r.content, want))
			w->failures++;
		llm_reply_free(&r);
		pr_prompt_free(&p);
	}
	return NULL;
}

static void test_concurrent_callers_share_a_client(void **state)
{
	(void)state;
	fx x;
	fx_start(&x);
	fake_llm_set_handler(x.srv, echo_handler, NULL);
	fx_client(&x);
	pthread_t t[4];
	worker w[4];
	for (int i = 0; i < 4; i++) {
		w[i] = (worker){ .cli = x.cli, .id = i };
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(w[i].failures, 0);
	}
	assert_int_equal(fake_llm_requests(x.srv), 20);
	assert_true(fake_llm_connections(x.srv) <= 4);
	llm_client_stats st;
	llm_client_stats_get(x.cli, &st);
	assert_int_equal(st.requests, 20);
	assert_int_equal(st.failures, 0);
	fx_end(&x);
}

int main(void)
{
	/* the fake server is on 127.0.0.1: no proxy may stand in between */
	static const char *const proxies[] = { "http_proxy", "https_proxy", "HTTPS_PROXY",
	                                       "ALL_PROXY", "all_proxy" };
	for (size_t i = 0; i < sizeof proxies / sizeof *proxies; i++)
		unsetenv(proxies[i]);
	clear_env();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chat_returns_content_and_usage),
		cmocka_unit_test(test_requests_reuse_one_connection),
		cmocka_unit_test(test_429_waits_for_retry_after_then_succeeds),
		cmocka_unit_test(test_503_retry_after_within_and_past_the_deadline),
		cmocka_unit_test(test_500_is_retried_then_gives_up),
		cmocka_unit_test(test_400_is_not_retried_and_names_the_server_message),
		cmocka_unit_test(test_truncated_body_is_retried_or_reported),
		cmocka_unit_test(test_garbage_body_is_retried_then_a_parse_error),
		cmocka_unit_test(test_slow_trickle_hits_the_low_speed_limit),
		cmocka_unit_test(test_huge_reply_is_cut_off_at_the_limit),
		cmocka_unit_test(test_deadline_bounds_all_retries),
		cmocka_unit_test(test_refused_connection_is_a_clear_error),
		cmocka_unit_test(test_api_key_is_sent_but_never_leaked),
		cmocka_unit_test(test_record_then_replay_without_the_server),
		cmocka_unit_test(test_replay_of_a_missing_key_names_the_request),
		cmocka_unit_test(test_damaged_cassette_line_is_reported_by_number),
		cmocka_unit_test(test_structured_output_members_by_mode),
		cmocka_unit_test(test_invalid_utf8_in_a_prompt_is_repaired),
		cmocka_unit_test(test_config_file_then_environment),
		cmocka_unit_test(test_concurrent_callers_share_a_client),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
