/*
 * fuzz_serve_request.c — libFuzzer target for what `h2emv serve` reads
 * from the network before any handler runs (tools/serve_request.c): the
 * router, the observation body splitter and validator, the ask and text
 * bodies, the tree query and the bearer check. The first byte picks the
 * parser. Besides never crashing:
 *  - JSON Lines split round-trip: every non-blank line comes back as one
 *    item with its own text and line number, in order;
 *  - a refusal always carries a 4xx/5xx status, a code and a message that
 *    serialise as the documented error object;
 *  - the bearer check accepts exactly "Bearer" in any case, one or more
 *    spaces, and the token (RFC 7235).
 * Any violation traps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "tools/serve.h"

static void check_err(const serve_err *e)
{
	if (e->http < 400 || e->http > 599 || !e->code || !e->code[0] || !e->message[0])
		__builtin_trap();
	json_t *v = serve_err_json(e); /* messages are kept valid UTF-8 */
	if (!v)
		__builtin_trap();
	char *s = json_dumps(v, JSON_COMPACT);
	if (!s)
		__builtin_trap();
	free(s);
	json_decref(v);
}

static void split_round_trip(const char *body, size_t len, const serve_obs_batch *b)
{
	size_t k = 0;
	uint64_t line = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(body + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - body) : len, n = end - pos;
		const char *s = body + pos;
		line++;
		pos = end + 1;
		if (n && s[n - 1] == '\r')
			n--;
		size_t i = 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			continue;
		if (k >= b->n || b->items[k].line != line || b->items[k].len != n ||
		    memcmp(b->items[k].json, s, n))
			__builtin_trap();
		k++;
	}
	if (k != b->n)
		__builtin_trap();
}

static void observations(const char *body, size_t len)
{
	serve_obs_batch b;
	serve_err e;
	if (serve_parse_observations(&b, body, len, &e)) {
		check_err(&e);
	} else {
		if (b.n == 0)
			__builtin_trap();
		if (!b.array)
			split_round_trip(body, len, &b);
		serve_validate_observations(&b);
		for (size_t i = 0; i < b.n; i++)
			if (b.items[i].bad && (b.items[i].err.status >= 0 || !b.items[i].err.message[0]))
				__builtin_trap();
	}
	serve_obs_batch_free(&b);
}

static void route(const char *text, size_t len)
{
	char *s = strndup(text, len);
	if (!s)
		return;
	char *path = strchr(s, ' ');
	if (path)
		*path++ = '\0';
	serve_route_id r;
	const char *allow;
	serve_err e;
	if (serve_route(&r, &allow, s, path ? path : "", &e)) {
		check_err(&e);
		if ((e.http == 405) != (allow != NULL))
			__builtin_trap();
	} else if (r < SERVE_OBSERVATIONS || r > SERVE_OPENAPI) {
		__builtin_trap();
	}
	free(s);
}

static void bearer(const char *text, size_t len)
{
	/* token, then a NUL, then the header */
	const char *nul = memchr(text, '\0', len);
	if (!nul)
		return;
	char *hdr = strndup(nul + 1, len - (size_t)(nul - text) - 1);
	if (!hdr)
		return;
	size_t tl = (size_t)(nul - text);
	int ok = serve_auth_ok(hdr, text, tl);
	int want = 0;
	if (strlen(hdr) >= 6 && !strncasecmp(hdr, "bearer", 6)) {
		size_t sp = strspn(hdr + 6, " ");
		const char *got = hdr + 6 + sp;
		want = sp > 0 && strlen(got) == tl && !memcmp(got, text, tl);
	}
	if (ok != want)
		__builtin_trap();
	free(hdr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *body = (const char *)data + 1;
	size_t len = size - 1;
	serve_err e;
	switch (data[0] % 6) {
	case 0: route(body, len); break;
	case 1: observations(body, len); break;
	case 2: {
		serve_ask_req q;
		if (serve_parse_ask(&q, body, len, &e))
			check_err(&e);
		else if (!q.question || !q.question[0] || ((q.at_text || q.at_us) && q.snapshot))
			__builtin_trap();
		serve_ask_req_free(&q);
		break;
	}
	case 3: {
		char *t;
		if (serve_parse_text(&t, body, len, &e))
			check_err(&e);
		else if (!t || !t[0])
			__builtin_trap();
		free(t);
		break;
	}
	case 4: {
		char *s = strndup(body, len);
		if (!s)
			return 0;
		char *amp = strchr(s, '&');
		if (amp)
			*amp++ = '\0';
		uint64_t snap;
		const char *format;
		if (serve_parse_tree_query(&snap, &format, s, amp, &e))
			check_err(&e);
		else if (strcmp(format, "json") && strcmp(format, "dot") && strcmp(format, "html"))
			__builtin_trap();
		free(s);
		break;
	}
	default: bearer(body, len); break;
	}
	return 0;
}
