/*
 * llm_impl.h — what the files of the llm transport share among themselves
 * (llm_client.c, llm_http.c, llm_cassette.c, llm_request.c, llm_reply.c,
 * llm_config.c); their error helpers are llm_errors.h. Not for the policy
 * glue: it uses llm_client.h only.
 */
#ifndef H2EMV_LLM_IMPL_H
#define H2EMV_LLM_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "api/policy/llm/llm_client.h"
#include "api/policy/llm/llm_errors.h"

/* ------------------------------------------------------------- clock -- */

/* Milliseconds on a monotonic clock. */
int64_t llm_now_ms(void);

/* ------------------------------------------------------------ request -- */

/* The model a decision uses under cfg (never NULL when cfg->model is set). */
const char *llm_model_for(const llm_config *cfg, int decision);
/* The start of the last user message of `p` (sanitized, ~80 bytes) in dst. */
void llm_last_user(char *dst, size_t cap, const pr_prompt *p);

/* -------------------------------------------------------------- reply -- */

/* The deepest nesting of arrays and objects a reply body may have. A chat
 * completion needs about 9 (logprobs are the deepest part); a body nested
 * further is refused before it is parsed. */
#define LLM_REPLY_MAX_DEPTH 64

/* Parse a chat.completion body: the assistant text, usage (0 when absent)
 * and the answering model (NULL when absent). A chat completion here is a
 * JSON object, nested at most LLM_REPLY_MAX_DEPTH deep, with a non-empty
 * "choices" array whose first element has a "message" object with a
 * string "content" (which may be ""). Anything else is H2EMV_EPARSE, with
 * a message naming `what` (e.g. "the body") and saying which part is
 * wrong; also H2EMV_ENOMEM. */
int llm_reply_parse(const char *body, size_t len, const char *what, llm_reply *out,
                    const char *secret, h2emv_error *err);

/* The server's explanation of an error body: error.message of an OpenAI
 * error object (or a string "error"), else the first 200 bytes, sanitized. */
void llm_server_message(char *dst, size_t cap, const char *body, size_t len);

/* --------------------------------------------------------------- http -- */

typedef struct llm_handle llm_handle; /* one CURL easy handle and its headers */

/* Initialise libcurl once per process. H2EMV_OK or H2EMV_EIO. */
int llm_http_global(h2emv_error *err);
/* A handle set up for `url` with `key` (may be NULL) and cfg's timeouts. */
int llm_handle_new(llm_handle **out, const llm_config *cfg, const char *url, const char *key,
                   h2emv_error *err);
void llm_handle_free(llm_handle *h);

/* How one attempt ended. */
enum llm_outcome {
	LLM_O_REPLY = 0,    /* a complete HTTP response (any status) */
	LLM_O_TIMEOUT,      /* the attempt's time or the low-speed limit ran out */
	LLM_O_NETWORK,      /* connect/send/receive failed or the body was cut short */
	LLM_O_TOO_BIG,      /* the body passed max_reply_bytes */
	LLM_O_FATAL,        /* anything retrying cannot fix (bad URL, TLS, ...) */
	LLM_O_NOMEM
};

typedef struct llm_attempt {
	int outcome;          /* enum llm_outcome */
	long status;          /* HTTP status, 0 if none */
	long retry_after_s;   /* Retry-After in seconds, -1 if none */
	char *body;           /* malloc'd, NUL-terminated (LLM_O_REPLY) */
	size_t len;
	uint64_t bytes_in;    /* body bytes received, counted even when cut off */
	char detail[256];     /* libcurl's explanation of a failure */
} llm_attempt;

/* POST `body` with at most `timeout_ms` for the whole attempt; the result
 * in *a (free a->body). Never fails otherwise. */
void llm_http_post(llm_handle *h, const char *body, size_t len, long timeout_ms,
                   size_t max_reply, llm_attempt *a);

/* ----------------------------------------------------------- cassette -- */

typedef struct llm_cassette llm_cassette;

/* Load a whole cassette for replay. */
int llm_cassette_load(llm_cassette **out, const char *path, h2emv_error *err);
/* Open a cassette for appending (record). */
int llm_cassette_open(llm_cassette **out, const char *path, h2emv_error *err);
void llm_cassette_free(llm_cassette *k);
/* The next reply recorded under `key` (pointers valid until free), or
 * H2EMV_ENOTFOUND (no message filled). Thread-safe. */
int llm_cassette_find(llm_cassette *k, uint64_t key, const char **content,
                      uint64_t *prompt_tokens, uint64_t *completion_tokens);
/* Append one exchange. `request` is llm_request_json's text. Thread-safe. */
int llm_cassette_append(llm_cassette *k, uint64_t key, int decision, const char *request,
                        const llm_reply *reply, const char *secret, h2emv_error *err);
/* The path (for messages). */
const char *llm_cassette_path(const llm_cassette *k);

/* XXH3-64 of a request body; the cassette key. */
uint64_t llm_key_of(const char *body, size_t len);

#endif
