/*
 * llm_reply.c — reading what the server sent back: the assistant's text
 * and the token usage of a chat.completion, or the explanation inside an
 * error body, always with bounded, printable excerpts for messages. A body
 * that is not a chat completion is told apart here, with the reason; the
 * retry loop of llm_client.c treats it like a 5xx.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/policy/llm/llm_impl.h"

/* A non-negative integer member, 0 when absent or odd. */
static uint64_t count_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

/* Why a message carries no text, for the error. */
static const char *no_text_reason(json_t *msg)
{
	json_t *calls = json_object_get(msg, "tool_calls");
	if ((json_is_array(calls) && json_array_size(calls)) || json_is_object(calls))
		return "tool calls instead of text";
	json_t *fc = json_object_get(msg, "function_call");
	if (fc && !json_is_null(fc))
		return "a function call instead of text";
	json_t *r = json_object_get(msg, "reasoning_content");
	if (!r)
		r = json_object_get(msg, "reasoning");
	if (json_is_string(r))
		return "reasoning but no content (was max_tokens too small for a thinking model?)";
	json_t *refusal = json_object_get(msg, "refusal");
	if (json_is_string(refusal))
		return "a refusal instead of content";
	return "no text in choices[0].message.content";
}

/* Whether arrays and objects in body[0..len) nest deeper than `limit`
 * (strings skipped). A linear scan, so a hostile body costs no recursion. */
static int nests_deeper(const char *b, size_t len, int limit)
{
	int depth = 0, in_string = 0;
	for (size_t i = 0; i < len; i++) {
		char c = b[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '[' || c == '{') {
			if (++depth > limit)
				return 1;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return 0;
}

static const char *type_name(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	default: return "an object";
	}
}

/* The assistant message of a chat.completion object, or NULL with the
 * reason in err (H2EMV_EPARSE). */
static json_t *message_of(json_t *root, const char *body, size_t len, const char *what,
                          const char *secret, h2emv_error *err)
{
	char server[320];
	json_t *choices = json_object_get(root, "choices");
	if (!json_is_array(choices)) {
		llm_server_message(server, sizeof server, body, len);
		llm_fail(secret, err, H2EMV_EPARSE, "%s has no \"choices\" array: %s", what, server);
		return NULL;
	}
	if (!json_array_size(choices)) {
		llm_fail(secret, err, H2EMV_EPARSE, "%s has an empty \"choices\" array", what);
		return NULL;
	}
	json_t *msg = json_object_get(json_array_get(choices, 0), "message");
	if (!json_is_object(msg)) {
		llm_server_message(server, sizeof server, body, len);
		llm_fail(secret, err, H2EMV_EPARSE, "%s has no choices[0].message object: %s", what,
		         server);
		return NULL;
	}
	if (!json_is_string(json_object_get(msg, "content"))) {
		llm_fail(secret, err, H2EMV_EPARSE, "%s has %s", what, no_text_reason(msg));
		return NULL;
	}
	return msg;
}

int llm_reply_parse(const char *body, size_t len, const char *what, llm_reply *out,
                    const char *secret, h2emv_error *err)
{
	json_error_t je;
	char shown[128];
	if (nests_deeper(body, len, LLM_REPLY_MAX_DEPTH))
		return llm_fail(secret, err, H2EMV_EPARSE,
		                "%s nests arrays and objects deeper than %d levels", what,
		                LLM_REPLY_MAX_DEPTH);
	/* any JSON value is read, so that `null` or `[]` is named as such */
	json_t *root = json_loadb(body, len, JSON_DECODE_ANY, &je);
	if (!root) {
		llm_sanitize(shown, sizeof shown, body, len, 80);
		return llm_fail(secret, err, H2EMV_EPARSE, "%s is not JSON (%s): \"%s\"", what, je.text,
		                shown);
	}
	int rc = H2EMV_OK;
	json_t *msg = NULL;
	if (!json_is_object(root))
		rc = llm_fail(secret, err, H2EMV_EPARSE, "%s is %s, not a JSON object", what,
		              type_name(root));
	else if (!(msg = message_of(root, body, len, what, secret, err)))
		rc = H2EMV_EPARSE;
	if (rc == H2EMV_OK) {
		json_t *content = json_object_get(msg, "content");
		json_t *usage = json_object_get(root, "usage");
		json_t *model = json_object_get(root, "model");
		out->content = strndup(json_string_value(content), json_string_length(content));
		out->prompt_tokens = count_of(usage, "prompt_tokens");
		out->completion_tokens = count_of(usage, "completion_tokens");
		if (json_is_string(model))
			out->model = strdup(json_string_value(model));
		if (!out->content || (json_is_string(model) && !out->model)) {
			free(out->content);
			free(out->model);
			out->content = out->model = NULL;
			rc = llm_fail(secret, err, H2EMV_ENOMEM, "out of memory reading %s", what);
		}
	}
	json_decref(root);
	return rc;
}

void llm_server_message(char *dst, size_t cap, const char *body, size_t len)
{
	json_t *root = len && !nests_deeper(body, len, LLM_REPLY_MAX_DEPTH)
	                  ? json_loadb(body, len, 0, NULL)
	                  : NULL;
	json_t *e = json_object_get(root, "error");
	json_t *m = json_is_object(e) ? json_object_get(e, "message") : e;
	if (!json_is_string(m))
		m = json_object_get(root, "message");
	if (!json_is_string(m))
		m = json_object_get(root, "detail"); /* FastAPI-style servers (vLLM's 4xx) */
	if (json_is_string(m)) {
		llm_sanitize(dst, cap, json_string_value(m), json_string_length(m), 300);
	} else if (len) {
		llm_sanitize(dst, cap, body, len, 200);
	} else {
		llm_sanitize(dst, cap, "(empty body)", 12, 12);
	}
	json_decref(root);
}
