/*
 * fakellm.h — a fake OpenAI-compatible chat server for tests: HTTP/1.1 on
 * 127.0.0.1 at an ephemeral port, served by libmicrohttpd from background
 * threads (one per connection, keep-alive), able to misbehave on purpose:
 * wait, trickle, send 100 MB, cut a body short.
 *
 * Replies come from a script consumed in order (fake_llm_push); when the
 * script is empty, from the default reply (fake_llm_set_default), else the
 * handler (fake_llm_set_handler); with none of them, HTTP 500. Every
 * request is recorded (head and body) for the test to inspect. Functions abort the test program on setup failures (out of
 * memory, no socket), never on what a client does.
 */
#ifndef H2EMV_FAKELLM_H
#define H2EMV_FAKELLM_H

#include <stddef.h>
#include <stdint.h>

typedef struct fake_llm fake_llm;

/* One scripted reply. Zero-initialise and set what matters; strings are
 * copied by fake_llm_push. */
typedef struct fake_resp {
	int status;            /* 0 = 200 */
	const char *content;   /* 2xx: the assistant's text, wrapped into a
	                          chat.completion with usage; other statuses: the
	                          message of an OpenAI error body
	                          {"error":{"message":...}} */
	const char *raw_body;  /* sent as it stands instead (content ignored) */
	int retry_after;       /* > 0: a "Retry-After: <seconds>" header */
	int delay_ms;          /* wait this long before answering */
	int trickle_bytes_per_sec; /* > 0: send the body at this rate */
	size_t huge_bytes;     /* > 0: the body is this many 'x' bytes, streamed */
	int no_length;         /* with huge_bytes: no Content-Length (the body
	                          ends when the connection closes) */
	int truncate;          /* declare 100 bytes more than the body, send the
	                          body, close the connection */
	int close;             /* close the connection after this reply */
	uint64_t prompt_tokens, completion_tokens; /* usage of a wrapped reply */
} fake_resp;

/* Content for a request when the script is empty: `body` is the request
 * body; return the assistant's text, malloc'd (the server frees it), or
 * NULL for an HTTP 500. Called from the server's threads, possibly several
 * at once. Usage reported: prompt = body bytes / 4, completion = text
 * bytes / 4 + 1. */
typedef char *(*fake_llm_handler)(void *arg, const char *body);

/* Start a server. 0, or -1 when no socket could be made. */
int fake_llm_start(fake_llm **out);
/* Stop it: close every connection, join every thread, free everything. */
void fake_llm_stop(fake_llm *f);

unsigned short fake_llm_port(fake_llm *f);
/* "http://127.0.0.1:PORT", malloc'd. */
char *fake_llm_url(fake_llm *f);

/* Append a reply to the script. Thread-safe. */
void fake_llm_push(fake_llm *f, const fake_resp *r);
/* Set (or with fn NULL, clear) the handler. */
void fake_llm_set_handler(fake_llm *f, fake_llm_handler fn, void *arg);
/* Answer every request with a copy of `r` when the script is empty,
 * before any handler (a server stuck in one way of misbehaving, say a
 * 200 with a body that is no chat completion); NULL clears it. */
void fake_llm_set_default(fake_llm *f, const fake_resp *r);

/* Requests received so far (complete ones: head and body read). */
size_t fake_llm_requests(fake_llm *f);
/* Request i's body / its request line and headers; malloc'd copies, NULL
 * when i is out of range. */
char *fake_llm_request(fake_llm *f, size_t i);
char *fake_llm_request_head(fake_llm *f, size_t i);
/* The value of header `name` (case-insensitive) of request i, malloc'd;
 * NULL when absent. */
char *fake_llm_header(fake_llm *f, size_t i, const char *name);
/* TCP connections accepted so far. */
size_t fake_llm_connections(fake_llm *f);
/* Scripted replies not yet used. */
size_t fake_llm_pending(fake_llm *f);

/* The text of the last message with `role` ("user", "system") in a chat
 * request body, malloc'd; NULL when there is none or the body is not a
 * chat request. For handlers deciding from the prompt. */
char *fake_llm_message(const char *body, const char *role);

#endif
