/*
 * serve_request.c — `h2emv serve`'s request parsing and routing, without
 * sockets: which route a method and path name, and what a body says. Every
 * refusal names what is wrong (bad JSON with its line and column, a missing
 * or unknown field, a wrong type). fuzz/fuzz_serve_request.c drives it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "tools/serve.h"

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlongs,
 * no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
	    (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

void serve_err_set(serve_err *e, int http, const char *code, const char *fmt, ...)
{
	e->http = http;
	e->code = code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	/* messages quote the request (a path, a field name), maybe cut inside
	 * a character: keep them valid UTF-8 so the error always serialises */
	unsigned char *m = (unsigned char *)e->message;
	for (size_t i = 0; m[i];) {
		size_t n = utf8_seq(m + i);
		if (n == 0) {
			m[i++] = '?';
		} else {
			i += n;
		}
	}
}

json_t *serve_err_json(const serve_err *e)
{
	return json_pack("{s:{s:s,s:s}}", "error", "code", e->code, "message", e->message);
}

static const struct {
	const char *path, *method;
	serve_route_id id;
} routes[] = {
	{ "/v1/observations", "POST", SERVE_OBSERVATIONS },
	{ "/v1/ask", "POST", SERVE_ASK },
	{ "/v1/say", "POST", SERVE_SAY },
	{ "/v1/feedback", "POST", SERVE_FEEDBACK },
	{ "/v1/rules", "GET", SERVE_RULES },
	{ "/v1/snapshots", "GET", SERVE_SNAPSHOTS },
	{ "/v1/tree", "GET", SERVE_TREE },
	{ "/v1/status", "GET", SERVE_STATUS },
	{ "/metrics", "GET", SERVE_METRICS },
	{ "/openapi.json", "GET", SERVE_OPENAPI },
	{ "/v1/openapi.json", "GET", SERVE_OPENAPI },
};

size_t serve_route_count(void)
{
	return sizeof routes / sizeof routes[0];
}

void serve_route_at(size_t i, const char **path, const char **method)
{
	*path = routes[i].path;
	*method = routes[i].method;
}

int serve_route(serve_route_id *out, const char **allow, const char *method, const char *path,
                serve_err *e)
{
	*allow = NULL;
	for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		if (strcmp(routes[i].path, path))
			continue;
		/* HEAD is what GET is, without the body (libmicrohttpd drops it) */
		if (!strcmp(routes[i].method, method) ||
		    (!strcmp(method, "HEAD") && !strcmp(routes[i].method, "GET"))) {
			*out = routes[i].id;
			return 0;
		}
		*allow = routes[i].method;
		serve_err_set(e, 405, "method_not_allowed", "%s takes %s, not %.32s", routes[i].path,
		              routes[i].method, method);
		return -1;
	}
	serve_err_set(e, 404, "not_found",
	              "no route %.200s: see GET /v1/status, POST /v1/observations, POST /v1/ask "
	              "(docs/serve.md)",
	              path);
	return -1;
}

const char *serve_route_method(const char *path)
{
	for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
		if (!strcmp(routes[i].path, path))
			return routes[i].method;
	return NULL;
}

int serve_route_has_body(serve_route_id r)
{
	return r == SERVE_OBSERVATIONS || r == SERVE_ASK || r == SERVE_SAY || r == SERVE_FEEDBACK;
}

/* -------------------------------------------------------- observations -- */

void serve_obs_batch_free(serve_obs_batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->items[i].json);
	free(b->items);
	memset(b, 0, sizeof *b);
}

/* Append an item; takes `json` (malloc'd). */
static int add_item(serve_obs_batch *b, char *json, size_t len, uint64_t line)
{
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		serve_obs_item *p = realloc(b->items, nc * sizeof *p);
		if (!p) {
			free(json);
			return -1;
		}
		b->items = p;
		b->cap = nc;
	}
	serve_obs_item *it = &b->items[b->n++];
	memset(it, 0, sizeof *it);
	it->json = json;
	it->len = len;
	it->line = line;
	return 0;
}

static int split_lines(serve_obs_batch *b, const char *body, size_t len)
{
	uint64_t line = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(body + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - body) : len, n = end - pos;
		line++;
		const char *s = body + pos;
		pos = end + 1;
		if (n && s[n - 1] == '\r')
			n--;
		size_t k = 0;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k == n)
			continue; /* blank: skipped, as ingest does */
		char *copy = malloc(n + 1);
		if (!copy)
			return -1;
		memcpy(copy, s, n);
		copy[n] = '\0';
		if (add_item(b, copy, n, line))
			return -1;
	}
	return 0;
}

static int split_array(serve_obs_batch *b, const char *body, size_t len, serve_err *e)
{
	json_error_t je;
	json_t *arr = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
	if (!arr) {
		serve_err_set(e, 400, "bad_json", "the body is not a JSON array: line %d, column %d: %s",
		              je.line, je.column, je.text);
		return -1;
	}
	if (!json_is_array(arr)) {
		json_decref(arr);
		serve_err_set(e, 400, "bad_json", "the body is not a JSON array");
		return -1;
	}
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v) {
		/* each element goes to validation as text, as a JSON line would */
		char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (!text || add_item(b, text, strlen(text), i + 1)) {
			json_decref(arr);
			serve_err_set(e, 500, "out_of_memory", "out of memory reading the observations");
			return -1;
		}
	}
	json_decref(arr);
	return 0;
}

int serve_parse_observations(serve_obs_batch *out, const char *body, size_t len, serve_err *e)
{
	memset(out, 0, sizeof *out);
	size_t k = 0;
	while (k < len && (body[k] == ' ' || body[k] == '\t' || body[k] == '\r' || body[k] == '\n'))
		k++;
	out->array = k < len && body[k] == '[';
	if (out->array) {
		if (split_array(out, body, len, e))
			return -1;
	} else if (split_lines(out, body, len)) {
		serve_err_set(e, 500, "out_of_memory", "out of memory reading the observations");
		return -1;
	}
	if (out->n == 0) {
		serve_err_set(e, 400, "no_observations",
		              "the body holds no observation (send JSON Lines or a JSON array of "
		              "objects; docs/formats.md)");
		return -1;
	}
	return 0;
}

void serve_validate_observations(serve_obs_batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		serve_obs_item *it = &b->items[i];
		int rc = h2emv_obs_validate(it->json, it->len, it->line, &it->err);
		if (rc) {
			it->bad = 1;
			it->err.status = rc;
			if (!it->err.message[0])
				snprintf(it->err.message, sizeof it->err.message, "line %llu: %s",
				         (unsigned long long)it->line, h2emv_strerror(rc));
		}
	}
}

/* ------------------------------------------------------ JSON objects -- */

/* Parse a body that must be one JSON object with only the named fields. */
static json_t *load_object(const char *body, size_t len, const char *const *fields, serve_err *e)
{
	json_error_t je;
	json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		serve_err_set(e, 400, "bad_json", "the body is not JSON: line %d, column %d: %s",
		              je.line, je.column, je.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		serve_err_set(e, 400, "bad_json", "the body must be a JSON object");
		return NULL;
	}
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		int known = 0;
		for (const char *const *f = fields; *f && !known; f++)
			known = !strcmp(*f, key);
		if (!known) {
			char list[160] = "";
			for (const char *const *f = fields; *f; f++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				         f == fields ? "" : ", ", *f);
			serve_err_set(e, 400, "unknown_field",
			              "unknown field '%.100s' (this route takes: %s)", key, list);
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* A required, non-empty string field; malloc'd copy. */
static char *need_string(json_t *o, const char *field, serve_err *e)
{
	json_t *v = json_object_get(o, field);
	if (!v) {
		serve_err_set(e, 400, "missing_field", "the field '%s' is missing", field);
		return NULL;
	}
	if (!json_is_string(v) || json_string_length(v) == 0) {
		serve_err_set(e, 400, "bad_field", "the field '%s' must be a non-empty string", field);
		return NULL;
	}
	if (strlen(json_string_value(v)) != json_string_length(v)) {
		serve_err_set(e, 400, "bad_field", "the field '%s' holds a NUL character", field);
		return NULL;
	}
	char *s = strdup(json_string_value(v));
	if (!s)
		serve_err_set(e, 500, "out_of_memory", "out of memory");
	return s;
}

void serve_ask_req_free(serve_ask_req *r)
{
	free(r->question);
	free(r->at_text);
	memset(r, 0, sizeof *r);
}

int serve_parse_ask(serve_ask_req *out, const char *body, size_t len, serve_err *e)
{
	static const char *const fields[] = { "question", "at", "snapshot", "trace", NULL };
	memset(out, 0, sizeof *out);
	json_t *o = load_object(body, len, fields, e);
	if (!o)
		return -1;
	int rc = -1;
	if (!(out->question = need_string(o, "question", e)))
		goto done;
	json_t *at = json_object_get(o, "at"), *snap = json_object_get(o, "snapshot"),
	       *trace = json_object_get(o, "trace");
	if (at && json_is_string(at)) {
		if (!(out->at_text = need_string(o, "at", e)))
			goto done;
	} else if (at && json_is_integer(at) && json_integer_value(at) > 0) {
		out->at_us = json_integer_value(at);
	} else if (at && !json_is_null(at)) {
		serve_err_set(e, 400, "bad_field",
		              "the field 'at' must be a time (\"2024-09-23T10:00:00Z\") or "
		              "microseconds since the epoch");
		goto done;
	}
	if (snap && json_is_integer(snap) && json_integer_value(snap) > 0) {
		out->snapshot = (uint64_t)json_integer_value(snap);
	} else if (snap && !json_is_null(snap)) {
		serve_err_set(e, 400, "bad_field", "the field 'snapshot' must be a positive integer");
		goto done;
	}
	if (trace && !json_is_boolean(trace)) {
		serve_err_set(e, 400, "bad_field", "the field 'trace' must be true or false");
		goto done;
	}
	out->trace = trace && json_is_true(trace);
	if ((out->at_text || out->at_us) && out->snapshot) {
		serve_err_set(e, 400, "bad_field", "give 'at' or 'snapshot', not both");
		goto done;
	}
	rc = 0;
done:
	json_decref(o);
	if (rc)
		serve_ask_req_free(out);
	return rc;
}

int serve_parse_text(char **out, const char *body, size_t len, serve_err *e)
{
	static const char *const fields[] = { "text", NULL };
	*out = NULL;
	json_t *o = load_object(body, len, fields, e);
	if (!o)
		return -1;
	*out = need_string(o, "text", e);
	json_decref(o);
	return *out ? 0 : -1;
}

int serve_parse_tree_query(uint64_t *snapshot, const char **format, const char *snap_arg,
                           const char *format_arg, serve_err *e)
{
	*snapshot = 0;
	*format = "json";
	if (snap_arg && *snap_arg) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(snap_arg, &end, 10);
		/* out of range (ERANGE) is refused, not clamped to the largest */
		if (*end || v == 0 || errno || snap_arg[0] < '0' || snap_arg[0] > '9') {
			serve_err_set(e, 400, "bad_query", "snapshot=%.40s is not a snapshot number",
			              snap_arg);
			return -1;
		}
		*snapshot = v;
	}
	if (format_arg && *format_arg) {
		if (!strcmp(format_arg, "json")) {
			*format = "json";
		} else if (!strcmp(format_arg, "dot")) {
			*format = "dot";
		} else if (!strcmp(format_arg, "html")) {
			*format = "html";
		} else {
			serve_err_set(e, 400, "bad_query", "format=%.40s: the formats are json, dot and html",
			              format_arg);
			return -1;
		}
	}
	return 0;
}

int serve_auth_ok(const char *header, const char *token, size_t token_len)
{
	/* RFC 7235 2.1: the scheme in any case, then one or more spaces */
	if (!header || strncasecmp(header, "Bearer", 6) || header[6] != ' ')
		return 0;
	const unsigned char *got = (const unsigned char *)header + 6;
	while (*got == ' ')
		got++;
	size_t got_len = strlen((const char *)got);
	/* every byte of the token is looked at, whatever the header holds */
	unsigned diff = got_len != token_len;
	for (size_t i = 0; i < token_len; i++)
		diff |= (unsigned)((i < got_len ? got[i] : 0) ^ (unsigned char)token[i]);
	return diff == 0;
}
