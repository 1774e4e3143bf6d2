/*
 * llm_client.h — the transport of the `llm` policy: one chat request to an
 * OpenAI-compatible server (llama.cpp server, vLLM, Ollama, OpenAI) over
 * HTTP, or answered from a cassette of recorded exchanges. The policy glue
 * (llm.c) renders prompts, calls llm_chat and parses the text it gets back
 * (llm_parse.c); this layer knows nothing about what the text means.
 *
 * What it guarantees:
 *   - POST {base_url}/v1/chat/completions with libcurl; one easy handle per
 *     concurrent request, reused, so connections stay alive between calls.
 *   - Every decision has one overall deadline (decision_timeout_ms) that
 *     covers all its attempts and the waits between them.
 *   - Retries, with exponential backoff and full jitter, on timeouts,
 *     connection errors, bodies cut short, HTTP 408/429/500/502/503/504,
 *     and a 2xx whose body is not a chat completion (not JSON, not an
 *     object, nested deeper than 64 levels, no non-empty "choices" array,
 *     no choices[0].message object with a string "content": see
 *     llm_reply_parse in llm_impl.h); a `Retry-After: <seconds>` header is
 *     waited out exactly, unless it reaches past the deadline, in which
 *     case the call fails at once. Other 4xx statuses are never retried.
 *     Only a chat completion ever comes back as a reply: what its text
 *     says is the caller's business.
 *   - A reply larger than max_reply_bytes is cut off while it arrives (the
 *     transfer is aborted; nothing larger is ever buffered).
 *   - The API key is read from the environment once, at client creation,
 *     and only ever sent in the Authorization header: it is never logged
 *     (this layer logs nothing), never in an error message (any occurrence
 *     an error would carry, such as a server echoing it, is replaced by
 *     "[redacted]"), never in a cassette. Redirects are not followed, so the
 *     header never goes to another host.
 *   - TLS peers are verified unless verify_tls is 0.
 *   - A replay client never opens a socket.
 *   - Proxies follow libcurl's usual environment variables (http_proxy,
 *     https_proxy, no_proxy). No signal handler is installed (libcurl
 *     runs with CURLOPT_NOSIGNAL; on Linux it sends with MSG_NOSIGNAL).
 *
 * Status codes (include/h2emv.h has no timeout code; a timeout is an I/O
 * failure and says "timed out" in its message, and is counted in the
 * stats' `timeouts`):
 *   H2EMV_EINVAL    bad config or request; the server refused the request
 *                   with a 4xx other than 408/429 (bad model, bad key, ...);
 *                   a URL libcurl cannot use
 *   H2EMV_EIO       network failure, timeout, deadline, 5xx/408/429 after
 *                   the retries; a cassette that cannot be read or written
 *                   (H2EMV_ENOSPC when the disk is full)
 *   H2EMV_EPARSE    the last attempt's 2xx body was not a chat completion,
 *                   after the retries (the message says what was wrong:
 *                   not JSON, null, no choices, a message with no text
 *                   such as tool calls only or reasoning only, ...); a
 *                   damaged cassette line (err->line is its number). A
 *                   caller that also uses EPARSE for "the text did not
 *                   parse" (the policy, llm.c) must keep the two apart.
 *   H2EMV_ELIMIT    a reply over max_reply_bytes; a cassette over 256 MiB
 *   H2EMV_ENOTFOUND replay: no recorded reply for the request
 *   H2EMV_ENOMEM    out of memory
 * Every message begins "llm: " and names the decision, and for HTTP errors
 * the status and the server's own message ({"error":{"message":...}}, or
 * the first 200 bytes of the body with control characters blanked).
 *
 * Only files under api/policy/ include curl.h; this header does not.
 */
#ifndef H2EMV_LLM_CLIENT_H
#define H2EMV_LLM_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"
#include "api/policy/prompts.h"

/* ------------------------------------------------------------- names -- */

/* How a request asks for structured (JSON schema) output. Servers differ:
 * use the member your server understands. */
enum llm_structured {
	LLM_SO_NONE = 0,        /* plain text; the schema is not sent */
	LLM_SO_JSON_SCHEMA = 1, /* "response_format": {"type": "json_schema",
	                           "json_schema": {"name", "schema", "strict": true}}
	                           (llama.cpp server, OpenAI) */
	LLM_SO_VLLM = 2,        /* "structured_outputs": {"json": schema} (vLLM >= 0.12) */
	LLM_SO_OLLAMA = 3       /* Ollama: "format": schema (its native member) and
	                           response_format as json_schema (what its OpenAI-
	                           compatible endpoint reads) */
};

/* Where replies come from. */
enum llm_transport_kind {
	LLM_T_HTTP = 0,   /* the server */
	LLM_T_RECORD = 1, /* the server, and every successful exchange is appended
	                     to the cassette */
	LLM_T_REPLAY = 2  /* the cassette only; never the network */
};

/* The decisions of the policy; each may use its own model. */
enum llm_decision {
	LLM_D_GROUP = 0,
	LLM_D_SUMMARIZE,
	LLM_D_RELEVANCE,
	LLM_D_LEARN,
	LLM_D_QA,
	LLM_D_ROUTE,
	LLM_D_JUDGE,
	LLM_D_COUNT
};

/* "group", "summarize", "relevance", "learn", "qa", "route", "judge";
 * "?" for anything else. Static strings. */
const char *llm_decision_name(int decision);
/* The decision named `name`, or -1. */
int llm_decision_parse(const char *name);
/* "none", "json_schema", "vllm", "ollama" / "http", "record", "replay";
 * "?" for anything else. */
const char *llm_structured_name(int structured);
const char *llm_transport_name(int transport);

/* ------------------------------------------------------------ config -- */

/*
 * The transport's configuration. Strings are malloc'd and owned by the
 * struct (llm_config_free frees them); NULL means "not set" and takes the
 * fallback named below. A caller may also fill a config in code with
 * borrowed strings and hand it to llm_client_new (which copies it), as
 * long as it then does not call llm_config_free on it.
 *
 * Timeouts: the decision deadline bounds everything. A non-streaming
 * server sends nothing while it generates, so a low-speed limit must allow
 * for the longest generation; it is off by default (low_speed_secs 0).
 */
typedef struct llm_config {
	char *base_url;    /* NULL = "http://127.0.0.1:8080" (llama.cpp server).
	                      Requests go to {base_url}/v1/chat/completions; a
	                      base_url ending in /v1 or /chat/completions is used
	                      as it stands (a trailing slash is ignored). */
	char *model;       /* required (llm_client_new fails without one) */
	char *model_for[LLM_D_COUNT]; /* per-decision model; NULL = model */
	char *api_key_env; /* NAME of the environment variable holding the API
	                      key; NULL = send no key. A named variable that is
	                      unset or empty makes llm_client_new fail. */
	double temperature;          /* 0 .. 2; default 0 */
	int max_tokens;              /* completion limit, >= 1; default 2048 */
	long connect_timeout_ms;     /* default 10000 */
	long low_speed_bytes;        /* abort an attempt slower than this many */
	long low_speed_secs;         /* bytes/s for this many s; 0 = off (default) */
	long decision_timeout_ms;    /* overall deadline of one llm_chat, all
	                                attempts and waits included; default 120000 */
	int max_retries;             /* attempts after the first, 0 .. 20; default 3 */
	long backoff_base_ms;        /* first backoff cap; doubles per retry; default 500 */
	long backoff_max_ms;         /* largest backoff cap; default 8000 */
	int structured;              /* enum llm_structured; default LLM_SO_NONE */
	int transport;               /* enum llm_transport_kind; default LLM_T_HTTP */
	char *cassette;              /* path; required for record and replay */
	int verify_tls;              /* 1 (default) = verify the server's certificate */
	size_t max_reply_bytes;      /* largest reply body, >= 1024; default 4 MiB */
} llm_config;

/* Fill *c with the defaults above (all strings NULL). Cannot fail. */
void llm_config_defaults(llm_config *c);

/*
 * Load a configuration: the defaults, then the JSON file at `path` (NULL =
 * none), then the environment. *c is overwritten (not freed first); on
 * failure it holds nothing to free. Free with llm_config_free.
 *
 * The file is one JSON object; every key is optional:
 *   {"base_url": "http://127.0.0.1:8080", "model": "qwen2.5-7b",
 *    "models": {"learn": "bigger-model", "qa": "..."},
 *    "api_key_env": "OPENAI_API_KEY", "temperature": 0.2, "max_tokens": 1024,
 *    "timeouts": {"connect_ms": 5000, "low_speed_bytes": 1,
 *                 "low_speed_secs": 300, "decision_ms": 60000},
 *    "retries": {"max": 3, "base_ms": 500, "max_ms": 8000},
 *    "structured_output": "none|json_schema|vllm|ollama",
 *    "transport": "http|record|replay", "cassette": "path.jsonl",
 *    "verify_tls": true, "max_reply_bytes": 4194304}
 * null for a string key means "not set". An unknown key (at any level), a
 * duplicate key or a value of the wrong type or out of range is an error
 * naming the key and the file.
 *
 * Environment overrides (after the file): H2EMV_LLM_BASE_URL,
 * H2EMV_LLM_MODEL, H2EMV_LLM_KEY_ENV (empty = no key),
 * H2EMV_LLM_TEMPERATURE, H2EMV_LLM_MAX_TOKENS, H2EMV_LLM_TIMEOUT_MS (the
 * decision deadline), H2EMV_LLM_RETRIES, H2EMV_LLM_STRUCTURED
 * (none|json_schema|vllm|ollama), H2EMV_LLM_TRANSPORT (http|record|replay),
 * H2EMV_LLM_CASSETTE. A bad value is an error naming the variable.
 *
 * Returns H2EMV_OK, H2EMV_EIO (file unreadable), H2EMV_EPARSE (file not
 * JSON; err->line/column set), H2EMV_EINVAL (unknown key, bad value),
 * H2EMV_ENOMEM. Not thread-safe against concurrent setenv.
 */
int llm_config_load(llm_config *c, const char *path, h2emv_error *err);

/* Check a config's values (llm_config_load and llm_client_new call it).
 * H2EMV_OK or H2EMV_EINVAL naming the field. */
int llm_config_check(const llm_config *c, h2emv_error *err);

/* Free the strings of *c and reset it to the defaults. NULL is fine. */
void llm_config_free(llm_config *c);

/* ------------------------------------------------------------ request -- */

/* One chat request. Everything is borrowed for the duration of the call. */
typedef struct llm_request {
	int decision;            /* enum llm_decision: picks the model, names errors */
	const pr_prompt *prompt; /* the messages, in order */
	const char *schema_name; /* name of the schema for LLM_SO_JSON_SCHEMA;
	                            NULL = "reply" */
	const char *schema;      /* JSON schema (an object, as JSON text) for
	                            structured output; NULL = plain text even when
	                            the config asks for structured output */
} llm_request;

/*
 * The body llm_chat POSTs, as compact JSON with a fixed member order:
 *   {"model", "messages": [{"role", "content"}...], "temperature",
 *    "max_tokens", "stream": false, then the structured-output member}
 * The schema keeps its own member order (grammar-based servers generate
 * properties in that order). It holds neither the URL nor the key: it is
 * what cassette keys hash and what benchmarks measure. Text that is not
 * valid UTF-8 is repaired (bad bytes become U+FFFD).
 *
 * *out is malloc'd (free()). H2EMV_OK, H2EMV_EINVAL (bad decision, no
 * prompt, schema not a JSON object), H2EMV_ENOMEM.
 */
int llm_request_json(char **out, const llm_config *cfg, const llm_request *req,
                     h2emv_error *err);

/* The cassette key of a request: XXH3-64 of llm_request_json's text as 16
 * lowercase hex digits and a NUL. Same errors as llm_request_json. */
#define LLM_KEY_LEN 17
int llm_request_key(char out[LLM_KEY_LEN], const llm_config *cfg, const llm_request *req,
                    h2emv_error *err);

/* -------------------------------------------------------------- reply -- */

/*
 * What llm_chat returns. On success every member is set; on failure
 * `content` and `model` are NULL and attempts, http_status (of the last
 * attempt, 0 if none got a status) and seconds still say what happened.
 * Free with llm_reply_free.
 */
typedef struct llm_reply {
	char *content;              /* the assistant message's text (malloc'd) */
	uint64_t prompt_tokens;     /* the server's usage; 0 when it sent none */
	uint64_t completion_tokens;
	int attempts;               /* HTTP attempts made; 1 for a replayed reply */
	int http_status;            /* of the last attempt; 0 for replay */
	double seconds;             /* wall time of the whole call */
	char *model;                /* the model the server says answered (or the
	                               one asked for); malloc'd */
} llm_reply;

/* Free the strings of *r and zero it. NULL is fine. */
void llm_reply_free(llm_reply *r);

/* ------------------------------------------------------------- client -- */

typedef struct llm_client llm_client;

/*
 * Make a client from `cfg` (copied; the caller keeps cfg). Checks the
 * config, reads the API key from the environment, and for a cassette:
 * replay loads and validates the whole file now (it must exist; blank
 * lines are skipped; at most 256 MiB), record opens it for appending
 * (creating it). No network traffic happens here. Free with
 * llm_client_free.
 *
 * Errors: H2EMV_EINVAL (bad config, no model, key variable unset),
 * H2EMV_EIO (cassette unreadable, libcurl unusable), H2EMV_EPARSE
 * (damaged cassette line: err->line), H2EMV_ELIMIT, H2EMV_ENOMEM.
 */
int llm_client_new(llm_client **out, const llm_config *cfg, h2emv_error *err);

/*
 * One chat request: *out is filled (see llm_reply) — free it with
 * llm_reply_free whatever the result. The call returns within about
 * decision_timeout_ms. Thread-safe: any number of threads may call it on
 * one client at once; each in-flight call uses its own connection.
 *
 * Replay: the reply recorded for the request's key. When a key was
 * recorded several times (the same prompt asked again), the replies are
 * given in recorded order, and the last one repeats once they run out; the
 * order is per client. A missing key is H2EMV_ENOTFOUND naming the
 * decision, the key and the start of the last user message.
 *
 * Record: after a successful exchange, one line is appended to the
 * cassette (one write(2) under a lock, then fsync):
 *   {"key": "<16 hex>", "decision": "qa", "request": <the body>,
 *    "reply": {"content": "...", "prompt_tokens": n, "completion_tokens": n}}
 * If the line cannot be written the call fails with H2EMV_EIO. Should the
 * key appear in the line (a server echoing it), it is overwritten with '*'.
 *
 * Errors: see the top of this file.
 */
int llm_chat(llm_client *c, const llm_request *req, llm_reply *out, h2emv_error *err);

/* Free a client, its connections and its copy of the key. No call may be
 * in progress on it. NULL is fine. */
void llm_client_free(llm_client *c);

/* Counters since the client was made. */
typedef struct llm_client_stats {
	uint64_t requests;          /* llm_chat calls */
	uint64_t failures;          /* of which failed */
	uint64_t attempts;          /* HTTP attempts (0 under replay) */
	uint64_t retries;           /* attempts after a call's first */
	uint64_t timeouts;          /* attempts that timed out (deadline or low speed) */
	uint64_t bytes_in;          /* reply body bytes received */
	uint64_t prompt_tokens;     /* summed over successful calls */
	uint64_t completion_tokens;
	uint64_t replayed;          /* calls answered from the cassette */
	uint64_t recorded;          /* lines appended to the cassette */
} llm_client_stats;

/* A consistent copy of the counters. Thread-safe. */
void llm_client_stats_get(const llm_client *c, llm_client_stats *out);

#endif
