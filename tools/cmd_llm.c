/*
 * cmd_llm.c — `h2emv llm ping`: check the llm policy's model server before a
 * long build depends on it: is it there, which model answers, how fast, and
 * does it honour the configured structured-output mode.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv llm ping [--llm-config FILE] [--json]\n"
	"\n"
	"Check the model server the llm policy (h2emv --policy llm ...) talks to: one\n"
	"tiny chat request, then, unless structured_output is none, one under a small\n"
	"JSON schema. Prints where it asked, the model that answered, the latency, the\n"
	"tokens the server counted and whether structured output works.\n"
	"\n"
	"  --llm-config FILE   the llm config (JSON); default $H2EMV_LLM_CONFIG, else\n"
	"                      no file: defaults and H2EMV_LLM_* variables only\n"
	"      --json          one JSON object: base_url, model, latency_ms,\n"
	"                      prompt_tokens, completion_tokens, reply, structured\n"
	"                      (null when off, else mode, ok, ms, error)\n"
	"  -h, --help          this help\n"
	"\n"
	"config file keys (all optional but model; defaults in brackets):\n"
	"  base_url           [http://127.0.0.1:8080] the server; /v1/chat/completions\n"
	"                     is added unless the URL ends in /v1 or in that path\n"
	"  model              [none: required] the model name the server knows\n"
	"  models             {\"learn\": \"bigger-model\", ...} per decision: group,\n"
	"                     summarize, relevance, learn, qa, route, judge\n"
	"  api_key_env        [no key] NAME of the variable holding the API key\n"
	"  temperature        [0]      max_tokens [2048]\n"
	"  timeouts           {\"connect_ms\": 10000, \"decision_ms\": 120000,\n"
	"                      \"low_speed_bytes\": 1, \"low_speed_secs\": 0 (off)}\n"
	"  retries            {\"max\": 3, \"base_ms\": 500, \"max_ms\": 8000}\n"
	"  structured_output  [none] json_schema (llama.cpp server, OpenAI),\n"
	"                     vllm (vLLM >= 0.12), ollama (Ollama)\n"
	"  transport          [http] record (http + append to cassette), replay\n"
	"                     (cassette only, no network)\n"
	"  cassette           path of the JSON Lines cassette (record, replay)\n"
	"  verify_tls         [true]   max_reply_bytes [4194304]\n"
	"\n"
	"environment (overrides the file): H2EMV_LLM_BASE_URL, H2EMV_LLM_MODEL,\n"
	"  H2EMV_LLM_KEY_ENV, H2EMV_LLM_TEMPERATURE, H2EMV_LLM_MAX_TOKENS,\n"
	"  H2EMV_LLM_TIMEOUT_MS (decision deadline), H2EMV_LLM_RETRIES,\n"
	"  H2EMV_LLM_STRUCTURED, H2EMV_LLM_TRANSPORT, H2EMV_LLM_CASSETTE;\n"
	"  H2EMV_LLM_CONFIG (the file), H2EMV_POLICY (the policy of other commands).\n"
	"\n"
	"exit status: 0 the server answers (and structured output works, if asked for);\n"
	"  1 it answers but structured output does not work; 2 error (unreachable,\n"
	"  timed out, wrong model or key, bad config); 64 usage error.\n"
	"\n"
	"Setting up llama.cpp server, vLLM, Ollama or OpenAI: docs/llm.md.\n"
	"\n"
	"examples:\n"
	"  H2EMV_LLM_MODEL=qwen2.5-7b-instruct h2emv llm ping\n"
	"  h2emv llm ping --llm-config ~/.config/h2emv/llm.json\n"
	"  h2emv --policy llm --llm-config llm.json build\n";

/* What to change, after the error itself. */
static void hint(int status, const h2emv_llm_ping_result *r)
{
	if (status == H2EMV_EIO)
		fprintf(stderr, "Is the server running at %s? Start one or set base_url "
		                "(docs/llm.md).\n", r->base_url[0] ? r->base_url : "the base_url");
	else if (status == H2EMV_EINVAL)
		fprintf(stderr, "Check model, api_key_env and base_url in the config or the "
		                "H2EMV_LLM_* variables (h2emv llm --help, docs/llm.md).\n");
	else if (status == H2EMV_EPARSE)
		fprintf(stderr, "The server's reply is not an OpenAI chat completion: is base_url "
		                "an OpenAI-compatible endpoint (docs/llm.md)?\n");
}

/* --json: what the text says, for scripts; the exit status is the same. */
static int ping_json(const h2emv_llm_ping_result *r, const h2emv_error *err)
{
	json_t *st = r->structured_ok < 0 ? json_null()
	           : json_pack("{s:o,s:b,s:f,s:o}", "mode", cli_json_text(r->structured), "ok",
	                       r->structured_ok, "ms", r->structured_ms, "error",
	                       r->structured_ok ? json_null()
	                       : cli_json_text(err->message[0] ? err->message
	                                                       : "the reply did not follow the schema"));
	int rc = cli_print_json(json_pack(
		"{s:o,s:o,s:f,s:I,s:I,s:o,s:o}", "base_url", cli_json_text(r->base_url), "model",
		r->model[0] ? cli_json_text(r->model) : json_null(), "latency_ms", r->latency_ms,
		"prompt_tokens", (json_int_t)r->prompt_tokens, "completion_tokens",
		(json_int_t)r->completion_tokens, "reply", cli_json_text(r->reply), "structured", st));
	if (rc != EXIT_OK)
		return rc;
	return r->structured_ok == 0 ? EXIT_FOUND : EXIT_OK;
}

static int ping(const char *config, int json)
{
	h2emv_llm_ping_result r;
	h2emv_error err = { 0 };
	int rc = h2emv_llm_ping(&r, config, &err);
	if (rc) {
		cli_fail("llm ping", rc, &err);
		hint(rc, &r);
		return EXIT_ERROR;
	}
	if (json)
		return ping_json(&r, &err);
	printf("server  %s\n", r.base_url);
	printf("model   %s\n", r.model[0] ? r.model : "(the server did not say)");
	printf("latency %.0f ms\n", r.latency_ms);
	printf("tokens  %llu prompt + %llu completion%s\n", (unsigned long long)r.prompt_tokens,
	       (unsigned long long)r.completion_tokens,
	       r.structured_ok >= 0 ? " (both requests)" : "");
	printf("reply   %s\n", r.reply[0] ? r.reply : "(empty)");
	if (r.structured_ok < 0) {
		printf("structured output: off (structured_output \"none\": replies are read in "
		       "the prompts' text format)\n");
		return EXIT_OK;
	}
	if (r.structured_ok) {
		printf("structured output (%s): works, %.0f ms\n", r.structured, r.structured_ms);
		return EXIT_OK;
	}
	printf("structured output (%s): does NOT work, %.0f ms\n", r.structured, r.structured_ms);
	printf("  %s\n", err.message[0] ? err.message : "the reply did not follow the schema");
	printf("  The server ignored or refused the schema. Set structured_output (or\n"
	       "  H2EMV_LLM_STRUCTURED) to what it understands: json_schema for llama.cpp\n"
	       "  server and OpenAI, vllm for vLLM >= 0.12, ollama for Ollama, or none to\n"
	       "  parse the text format instead (docs/llm.md).\n");
	return EXIT_FOUND;
}

int cmd_llm(int argc, char **argv)
{
	static const struct option opts[] = { { "llm-config", required_argument, NULL, 'c' },
		                               { "json", no_argument, NULL, 'j' },
		                               { "help", no_argument, NULL, 'h' },
		                               { NULL, 0, NULL, 0 } };
	const char *config = getenv("H2EMV_LLM_CONFIG");
	int c, json = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'j': json = 1; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("llm", "unknown option");
		}
	}
	if (optind >= argc)
		return cli_usage("llm", "which action? (ping)");
	if (strcmp(argv[optind], "ping"))
		return cli_usage("llm", "unknown action '%s' (ping)", argv[optind]);
	if (optind + 1 < argc)
		return cli_usage("llm", "unexpected argument '%s'", argv[optind + 1]);
	if (config && !*config)
		config = NULL;
	return ping(config, json);
}
