/*
 * test_llm_ping.c — h2emv_llm_ping and `h2emv llm ping` against the fake
 * OpenAI-compatible server (tests/fakellm.h): the plain request's model,
 * latency, tokens and reply; structured output that works, that comes back
 * as prose, and that the server refuses; a server that is down or refuses
 * the model; a bad config; a recorded cassette replayed with no server; and
 * the command line's output and exit status for each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <jansson.h>

#include "h2emv.h"
#include "tests/fakellm.h"
#include "tests/testutil.h"

static const char *const ENV_VARS[] = {
	"H2EMV_LLM_BASE_URL", "H2EMV_LLM_MODEL",     "H2EMV_LLM_KEY_ENV",  "H2EMV_LLM_TEMPERATURE",
	"H2EMV_LLM_MAX_TOKENS", "H2EMV_LLM_TIMEOUT_MS", "H2EMV_LLM_RETRIES", "H2EMV_LLM_STRUCTURED",
	"H2EMV_LLM_TRANSPORT", "H2EMV_LLM_CASSETTE",  "H2EMV_LLM_CONFIG",   "H2EMV_POLICY",
};

/* A server, a directory and a config file aimed at the server. */
typedef struct fx {
	fake_llm *srv;
	char *url;
	char *dir;
	char *cfg;
	h2emv_llm_ping_result r;
	h2emv_error err;
} fx;


/* (Re)write the config: the server, short timeouts, and `extra` members
 * (",\"structured_output\": \"json_schema\"", ...). */
static void fx_config(fx *x, const char *extra)
{
	free(x->cfg);
	x->cfg = tu_fmt("%s/llm.json", x->dir);
	FILE *f = fopen(x->cfg, "w");
	assert_non_null(f);
	fprintf(f,
	        "{\"base_url\": \"%s\", \"model\": \"test-model\", \"timeouts\": {\"connect_ms\": "
	        "500, \"decision_ms\": 3000}, \"retries\": {\"max\": 1, \"base_ms\": 5, \"max_ms\": "
	        "20}%s}\n",
	        x->url, extra ? extra : "");
	fclose(f);
}

static void fx_start(fx *x, const char *extra)
{
	memset(x, 0, sizeof *x);
	assert_int_equal(fake_llm_start(&x->srv), 0);
	x->url = fake_llm_url(x->srv);
	x->dir = tu_tmpdir("llmping");
	fx_config(x, extra);
}

static int fx_ping(fx *x)
{
	return h2emv_llm_ping(&x->r, x->cfg, &x->err);
}

static void fx_end(fx *x)
{
	if (x->srv)
		fake_llm_stop(x->srv);
	tu_rmrf(x->dir);
	free(x->dir);
	free(x->url);
	free(x->cfg);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("\"%s\" does not contain \"%s\"", hay ? hay : "(null)", needle);
}

/* ------------------------------------------------------------- the API -- */

static void test_plain_ping_reports_model_latency_tokens_and_reply(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	fake_llm_push(x.srv, &(fake_resp){ .content = "  pong\n\nAnything\telse?\x01  \x7f!\n",
	                                   .prompt_tokens = 12, .completion_tokens = 2 });
	assert_int_equal(fx_ping(&x), H2EMV_OK);
	assert_string_equal(x.r.model, "fake-model");
	assert_string_equal(x.r.base_url, x.url);
	assert_string_equal(x.r.structured, "none");
	assert_int_equal(x.r.structured_ok, -1);
	assert_true(x.r.structured_ms == 0);
	assert_true(x.r.latency_ms > 0 && x.r.latency_ms < 3000);
	assert_int_equal(x.r.prompt_tokens, 12);
	assert_int_equal(x.r.completion_tokens, 2);
	/* one line, printable */
	assert_string_equal(x.r.reply, "pong Anything else? !");

	/* one request, plain, asking for pong, from the main model */
	assert_int_equal(fake_llm_requests(x.srv), 1);
	char *body = fake_llm_request(x.srv, 0);
	json_t *j = json_loads(body, 0, NULL);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "model")), "test-model");
	assert_null(json_object_get(j, "response_format"));
	char *user = fake_llm_message(body, "user");
	assert_contains(user, "pong");
	free(user);
	json_decref(j);
	free(body);
	fx_end(&x);
}

static void test_long_reply_is_cut_on_a_character_boundary(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	char text[700] = "";
	for (int i = 0; i < 100; i++)
		strcat(text, "pöng "); /* 6 bytes each, 'ö' is two */
	fake_llm_push(x.srv, &(fake_resp){ .content = text });
	assert_int_equal(fx_ping(&x), H2EMV_OK);
	size_t n = strlen(x.r.reply);
	assert_true(n < sizeof x.r.reply);
	assert_true(n > 100);
	assert_string_equal(x.r.reply + n - 3, "...");
	assert_true(!strncmp(x.r.reply, "pöng pöng", 11));
	fx_end(&x);
}

static void test_structured_json_schema_works_when_the_reply_fits(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, ", \"structured_output\": \"json_schema\"");
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong", .prompt_tokens = 12,
	                                   .completion_tokens = 2 });
	fake_llm_push(x.srv, &(fake_resp){ .content = "{\"ok\": true}", .prompt_tokens = 20,
	                                   .completion_tokens = 5 });
	assert_int_equal(fx_ping(&x), H2EMV_OK);
	assert_string_equal(x.r.structured, "json_schema");
	assert_int_equal(x.r.structured_ok, 1);
	assert_true(x.r.structured_ms > 0);
	assert_int_equal(x.r.prompt_tokens, 32);
	assert_int_equal(x.r.completion_tokens, 7);
	assert_string_equal(x.r.reply, "pong");

	/* the first request is plain, the second carries the schema */
	assert_int_equal(fake_llm_requests(x.srv), 2);
	char *b0 = fake_llm_request(x.srv, 0), *b1 = fake_llm_request(x.srv, 1);
	json_t *j0 = json_loads(b0, 0, NULL), *j1 = json_loads(b1, 0, NULL);
	assert_null(json_object_get(j0, "response_format"));
	json_t *rf = json_object_get(j1, "response_format");
	assert_string_equal(json_string_value(json_object_get(rf, "type")), "json_schema");
	json_t *schema = json_object_get(json_object_get(rf, "json_schema"), "schema");
	assert_non_null(json_object_get(json_object_get(schema, "properties"), "ok"));
	json_decref(j0);
	json_decref(j1);
	free(b0);
	free(b1);
	fx_end(&x);
}

static void test_structured_prose_or_wrong_shape_is_not_ok(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"Yes, I can read it.",   /* the schema was ignored */
		"{\"ok\": \"yes\"}",     /* JSON, but not a boolean */
		"{\"ok\": true, \"x\": 1}", /* additional property */
		"[true]",                /* not an object */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		fx x;
		fx_start(&x, ", \"structured_output\": \"vllm\"");
		fake_llm_push(x.srv, &(fake_resp){ .content = "pong" });
		fake_llm_push(x.srv, &(fake_resp){ .content = bad[i] });
		assert_int_equal(fx_ping(&x), H2EMV_OK);
		assert_string_equal(x.r.structured, "vllm");
		assert_int_equal(x.r.structured_ok, 0);
		assert_contains(x.err.message, i == 0 ? "not JSON" : "not {\"ok\"");
		/* vLLM's member was sent */
		char *b1 = fake_llm_request(x.srv, 1);
		assert_contains(b1, "\"structured_outputs\"");
		free(b1);
		fx_end(&x);
	}
}

static void test_structured_refused_by_the_server_is_not_ok_with_its_words(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, ", \"structured_output\": \"ollama\"");
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong" });
	fake_llm_push(x.srv, &(fake_resp){ .status = 400, .content = "unknown field: format" });
	assert_int_equal(fx_ping(&x), H2EMV_OK);
	assert_int_equal(x.r.structured_ok, 0);
	assert_contains(x.err.message, "unknown field: format");
	assert_contains(x.err.message, x.url);
	assert_string_equal(x.r.model, "fake-model");
	fx_end(&x);
}

static void test_server_down_is_eio_naming_the_url(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	fake_llm_stop(x.srv);
	x.srv = NULL;
	assert_int_equal(fx_ping(&x), H2EMV_EIO);
	assert_int_equal(x.err.status, H2EMV_EIO);
	assert_contains(x.err.message, x.url);
	assert_string_equal(x.r.base_url, x.url);
	assert_string_equal(x.r.model, "");
	fx_end(&x);
}

static void test_wrong_model_is_einval_with_the_server_words_and_url(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	fake_llm_push(x.srv,
	              &(fake_resp){ .status = 404, .content = "model 'test-model' not found" });
	assert_int_equal(fx_ping(&x), H2EMV_EINVAL);
	assert_contains(x.err.message, "model 'test-model' not found");
	assert_contains(x.err.message, x.url);
	assert_int_equal(fake_llm_requests(x.srv), 1); /* a 4xx is not retried */
	fx_end(&x);
}

static void test_not_an_openai_reply_is_eparse(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	fake_llm_set_default(x.srv, &(fake_resp){ .raw_body = "<html>hello</html>" });
	assert_int_equal(fx_ping(&x), H2EMV_EPARSE);
	assert_int_equal(fake_llm_requests(x.srv), 2); /* retried like a 5xx (retries.max 1) */
	assert_contains(x.err.message, "not a chat completion");
	assert_contains(x.err.message, x.url);
	fx_end(&x);
}

static void test_bad_config_is_einval_naming_the_key(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, ", \"structured\": \"json_schema\"");
	assert_int_equal(fx_ping(&x), H2EMV_EINVAL);
	assert_contains(x.err.message, "structured");
	assert_contains(x.err.message, x.cfg);
	assert_int_equal(fake_llm_requests(x.srv), 0);

	/* no model anywhere */
	setenv("H2EMV_LLM_BASE_URL", x.url, 1);
	assert_int_equal(h2emv_llm_ping(&x.r, NULL, &x.err), H2EMV_EINVAL);
	assert_contains(x.err.message, "model");
	unsetenv("H2EMV_LLM_BASE_URL");

	assert_int_equal(h2emv_llm_ping(NULL, NULL, &x.err), H2EMV_EINVAL);
	fx_end(&x);
}

static void test_environment_alone_is_enough(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	setenv("H2EMV_LLM_BASE_URL", x.url, 1);
	setenv("H2EMV_LLM_MODEL", "env-model", 1);
	setenv("H2EMV_LLM_STRUCTURED", "json_schema", 1);
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "\n{\"ok\":false}\n" });
	assert_int_equal(h2emv_llm_ping(&x.r, NULL, &x.err), H2EMV_OK);
	assert_int_equal(x.r.structured_ok, 1);
	char *b0 = fake_llm_request(x.srv, 0);
	assert_contains(b0, "\"env-model\"");
	free(b0);
	unsetenv("H2EMV_LLM_BASE_URL");
	unsetenv("H2EMV_LLM_MODEL");
	unsetenv("H2EMV_LLM_STRUCTURED");
	fx_end(&x);
}

static void test_recorded_ping_replays_without_a_server(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	char *cassette = tu_fmt("%s/ping.jsonl", x.dir);
	char *extra = tu_fmt(", \"structured_output\": \"json_schema\", \"transport\": \"record\", "
	                  "\"cassette\": \"%s\"",
	                  cassette);
	fx_config(&x, extra);
	free(extra);
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong", .prompt_tokens = 9,
	                                   .completion_tokens = 1 });
	fake_llm_push(x.srv, &(fake_resp){ .content = "{\"ok\": true}", .prompt_tokens = 11,
	                                   .completion_tokens = 4 });
	assert_int_equal(fx_ping(&x), H2EMV_OK);
	assert_int_equal(x.r.structured_ok, 1);
	assert_string_equal(x.r.base_url, x.url);

	fake_llm_stop(x.srv);
	x.srv = NULL;
	extra = tu_fmt(", \"structured_output\": \"json_schema\", \"transport\": \"replay\", "
	            "\"cassette\": \"%s\"",
	            cassette);
	fx_config(&x, extra);
	free(extra);
	memset(&x.r, 0xab, sizeof x.r);
	assert_int_equal(fx_ping(&x), H2EMV_OK);
	assert_string_equal(x.r.reply, "pong");
	assert_int_equal(x.r.structured_ok, 1);
	assert_int_equal(x.r.prompt_tokens, 20);
	assert_int_equal(x.r.completion_tokens, 5);
	assert_string_equal(x.r.model, "test-model"); /* replay reports the model asked for */
	char *where = tu_fmt("cassette:%s", cassette);
	assert_string_equal(x.r.base_url, where);
	free(where);

	/* a cassette without the ping is a clear miss */
	char *other = tu_fmt("%s/empty.jsonl", x.dir);
	FILE *f = fopen(other, "w");
	fclose(f);
	extra = tu_fmt(", \"transport\": \"replay\", \"cassette\": \"%s\"", other);
	fx_config(&x, extra);
	free(extra);
	assert_int_equal(fx_ping(&x), H2EMV_ENOTFOUND);
	assert_contains(x.err.message, "pong");
	free(other);
	free(cassette);
	fx_end(&x);
}

/* ------------------------------------------------------ the command line -- */

static void test_cli_ping_prints_the_server_model_and_structured_result(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, ", \"structured_output\": \"json_schema\"");
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong", .prompt_tokens = 12,
	                                   .completion_tokens = 2 });
	fake_llm_push(x.srv, &(fake_resp){ .content = "{\"ok\": true}" });
	char *out;
	assert_int_equal(tu_run(&out, "%s llm ping --llm-config %s 2>&1", H2EMV_CLI, x.cfg), 0);
	char *server = tu_fmt("server  %s\n", x.url);
	assert_contains(out, server);
	assert_contains(out, "model   fake-model\n");
	assert_contains(out, "latency ");
	assert_contains(out, "tokens  12 prompt + 2 completion");
	assert_contains(out, "reply   pong\n");
	assert_contains(out, "structured output (json_schema): works");
	free(server);
	free(out);

	/* prose under the schema: exit 1, and what to change */
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong" });
	fake_llm_push(x.srv, &(fake_resp){ .content = "Sure!" });
	assert_int_equal(tu_run(&out, "H2EMV_LLM_CONFIG=%s %s llm ping 2>&1", x.cfg, H2EMV_CLI), 1);
	assert_contains(out, "does NOT work");
	assert_contains(out, "not JSON");
	assert_contains(out, "structured_output");
	assert_contains(out, "docs/llm.md");
	free(out);

	/* structured output off */
	fx_config(&x, NULL);
	fake_llm_push(x.srv, &(fake_resp){ .content = "pong" });
	assert_int_equal(tu_run(&out, "%s llm ping --llm-config %s 2>&1", H2EMV_CLI, x.cfg), 0);
	assert_contains(out, "structured output: off");
	free(out);
	fx_end(&x);
}

static void test_cli_ping_of_a_server_that_is_down_exits_2_naming_it(void **state)
{
	(void)state;
	fx x;
	fx_start(&x, NULL);
	fake_llm_stop(x.srv);
	x.srv = NULL;
	char *out;
	assert_int_equal(tu_run(&out, "%s llm ping --llm-config %s 2>&1", H2EMV_CLI, x.cfg), 2);
	assert_contains(out, x.url);
	assert_contains(out, "Is the server running");
	free(out);
	fx_end(&x);
}

static void test_cli_help_and_usage(void **state)
{
	(void)state;
	char *out;
	assert_int_equal(tu_run(&out, "%s llm --help", H2EMV_CLI), 0);
	assert_contains(out, "H2EMV_LLM_MODEL");
	assert_contains(out, "H2EMV_LLM_CONFIG");
	assert_contains(out, "structured_output");
	assert_contains(out, "docs/llm.md");
	free(out);
	assert_int_equal(tu_run(&out, "%s llm 2>&1", H2EMV_CLI), 64);
	free(out);
	assert_int_equal(tu_run(&out, "%s llm pong 2>&1", H2EMV_CLI), 64);
	assert_contains(out, "pong");
	free(out);
}

int main(void)
{
	/* the fake server is on 127.0.0.1: no proxy may stand in between */
	static const char *const proxies[] = { "http_proxy", "https_proxy", "HTTPS_PROXY",
		                               "ALL_PROXY", "all_proxy" };
	for (size_t i = 0; i < sizeof proxies / sizeof *proxies; i++)
		unsetenv(proxies[i]);
	for (size_t i = 0; i < sizeof ENV_VARS / sizeof *ENV_VARS; i++)
		unsetenv(ENV_VARS[i]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_ping_reports_model_latency_tokens_and_reply),
		cmocka_unit_test(test_long_reply_is_cut_on_a_character_boundary),
		cmocka_unit_test(test_structured_json_schema_works_when_the_reply_fits),
		cmocka_unit_test(test_structured_prose_or_wrong_shape_is_not_ok),
		cmocka_unit_test(test_structured_refused_by_the_server_is_not_ok_with_its_words),
		cmocka_unit_test(test_server_down_is_eio_naming_the_url),
		cmocka_unit_test(test_wrong_model_is_einval_with_the_server_words_and_url),
		cmocka_unit_test(test_not_an_openai_reply_is_eparse),
		cmocka_unit_test(test_bad_config_is_einval_naming_the_key),
		cmocka_unit_test(test_environment_alone_is_enough),
		cmocka_unit_test(test_recorded_ping_replays_without_a_server),
		cmocka_unit_test(test_cli_ping_prints_the_server_model_and_structured_result),
		cmocka_unit_test(test_cli_ping_of_a_server_that_is_down_exits_2_naming_it),
		cmocka_unit_test(test_cli_help_and_usage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
