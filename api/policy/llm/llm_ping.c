/*
 * llm_ping.c — h2emv_llm_ping: is the llm policy's model server there, does
 * it answer, and does it honour the configured structured-output mode? Two
 * tiny requests through the same client the policy uses (same config, same
 * transport, so a replay cassette answers without a server).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "api/policy/llm/llm_client.h"
#include "api/base/utf8.h"
#include "engine/engine.h"

#define DEFAULT_BASE_URL "http://127.0.0.1:8080" /* llm_client.h's default */

/* The schema of the structured probe: small enough for any server that
 * does structured output at all, strict enough to tell it was enforced. */
static const char PING_SCHEMA[] =
	"{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}},"
	"\"required\":[\"ok\"],\"additionalProperties\":false}";

/* Copy s into dst (cap bytes), cut on a UTF-8 character boundary. */
static void copy_cut(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (n >= cap) {
		n = utf8_cut(s, cap - 1);
	}
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* The start of a reply as one printable line: control characters (newlines
 * included) and runs of blanks become one space, invalid bytes '?';
 * trimmed; cut on a character boundary with "..." when it does not fit. */
static void one_line(char *dst, size_t cap, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;
	int gap = 0; /* a blank is pending before the next character */
	while (*s) {
		size_t n = utf8_char_len((const char *)s, strnlen((const char *)s, 4));
		if (n == 1 && (*s <= ' ' || *s == 0x7f)) {
			gap = o > 0;
			s++;
			continue;
		}
		const char *piece = n ? (const char *)s : "?";
		size_t len = n ? n : 1;
		if (o + gap + len + 4 > cap) { /* room for "..." and the NUL */
			memcpy(dst + o, "...", 4);
			return;
		}
		if (gap)
			dst[o++] = ' ';
		memcpy(dst + o, piece, len);
		o += len;
		s += len;
		gap = 0;
	}
	dst[o] = 0;
}

/* Where requests go, as the result and messages show it: the base URL with
 * any user:password@ masked, or the cassette a replay reads. */
static void where(char *dst, size_t cap, const llm_config *c)
{
	if (c->transport == LLM_T_REPLAY) {
		snprintf(dst, cap, "cassette:%s", c->cassette ? c->cassette : "");
		return;
	}
	const char *base = c->base_url ? c->base_url : DEFAULT_BASE_URL;
	const char *scheme = strstr(base, "://");
	const char *host = scheme ? scheme + 3 : base;
	const char *at = strchr(host, '@'), *slash = strchr(host, '/');
	if (at && (!slash || at < slash))
		snprintf(dst, cap, "%.*s***%s", (int)(host - base), base, at);
	else
		snprintf(dst, cap, "%s", base);
	size_t n = strlen(dst);
	while (n > 1 && dst[n - 1] == '/')
		dst[--n] = 0;
}

/* Make a transport error read as the ping's: the client names the
 * decision ("the route request"), which here is the ping; and make sure
 * it names where it was sent (4xx messages carry the server's words but
 * not the URL). */
static void ping_message(h2emv_error *err, const char *url)
{
	if (!err)
		return;
	static const char from[] = "the route re", to[] = "the ping re";
	char *p = strstr(err->message, from);
	if (p) { /* shorter: shift the rest left */
		memmove(p + sizeof to - 1, p + sizeof from - 1, strlen(p + sizeof from - 1) + 1);
		memcpy(p, to, sizeof to - 1);
	}
	if (strstr(err->message, url) || !strncmp(url, "cassette:", 9))
		return; /* named already, or a replay (whose messages name the cassette) */
	size_t n = strlen(err->message);
	snprintf(err->message + n, sizeof err->message - n, " (server %s)", url);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One request of `user` (under `schema` when not NULL); *ms is its wall
 * time (llm_reply.seconds counts whole milliseconds, too coarse for a
 * server on the same machine). */
static int ask(llm_client *cli, pr_prompt *pr, const char *system, const char *user,
               const char *schema, llm_reply *r, double *ms, h2emv_error *err)
{
	pr_prompt_free(pr);
	int rc = pr_prompt_add(pr, "system", system, err);
	if (!rc)
		rc = pr_prompt_add(pr, "user", user, err);
	if (rc)
		return rc;
	llm_request rq = { LLM_D_ROUTE, pr, schema ? "ping" : NULL, schema };
	double t0 = now_ms();
	rc = llm_chat(cli, &rq, r, err);
	*ms = now_ms() - t0;
	return rc;
}

/* Is `content` (blanks around it aside) exactly {"ok": <boolean>}? If not,
 * say why in `why`. */
static int ok_object(const char *content, char *why, size_t cap)
{
	json_error_t je;
	json_t *j = json_loads(content, JSON_REJECT_DUPLICATES, &je);
	int good = json_is_object(j) && json_object_size(j) == 1 &&
	           json_is_boolean(json_object_get(j, "ok"));
	if (!good) {
		char start[80];
		one_line(start, sizeof start, content);
		snprintf(why, cap, "%s: \"%s\"",
		         !j ? "the reply under the schema is not JSON"
		            : "the reply under the schema is JSON but not {\"ok\": true|false}",
		         start);
	}
	json_decref(j);
	return good;
}

/* The structured probe: sets out->structured_ok / structured_ms and, when
 * it fails, says why in err->message (the call itself still succeeds).
 * Returns only ENOMEM. */
static int probe_structured(h2emv_llm_ping_result *out, llm_client *cli, pr_prompt *pr,
                            const char *url, h2emv_error *err)
{
	llm_reply r = { 0 };
	h2emv_error e = { 0 };
	int rc = ask(cli, pr, "You are a health check.",
	             "Can you read this message? Say ok true or false.", PING_SCHEMA, &r,
	             &out->structured_ms, &e);
	char why[sizeof e.message];
	if (rc == H2EMV_ENOMEM) {
		llm_reply_free(&r);
		if (err)
			*err = e;
		return rc;
	}
	if (rc) {
		ping_message(&e, url);
		snprintf(why, sizeof why, "%s", e.message);
	} else {
		out->prompt_tokens += r.prompt_tokens;
		out->completion_tokens += r.completion_tokens;
	}
	out->structured_ok = !rc && ok_object(r.content, why, sizeof why);
	if (!out->structured_ok && err) {
		memset(err, 0, sizeof *err);
		snprintf(err->message, sizeof err->message, "%s", why);
	}
	llm_reply_free(&r);
	return H2EMV_OK;
}

int h2emv_llm_ping(h2emv_llm_ping_result *out, const char *config_path, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_ping needs a result to fill");
	memset(out, 0, sizeof *out);
	out->structured_ok = -1;
	if (err)
		memset(err, 0, sizeof *err);

	llm_config cfg;
	int rc = llm_config_load(&cfg, config_path, err);
	if (rc)
		return rc;
	where(out->base_url, sizeof out->base_url, &cfg);
	copy_cut(out->structured, sizeof out->structured, llm_structured_name(cfg.structured));

	/* the main model answers the ping, whatever the route decision's override */
	llm_config probe = cfg;
	probe.model_for[LLM_D_ROUTE] = NULL;
	llm_client *cli = NULL;
	rc = llm_client_new(&cli, &probe, err);
	if (rc) {
		llm_config_free(&cfg);
		return rc;
	}

	pr_prompt pr = { 0 };
	llm_reply r = { 0 };
	rc = ask(cli, &pr, "You are a health check.", "Reply with the single word pong.", NULL, &r,
	         &out->latency_ms, err);
	if (rc) {
		ping_message(err, out->base_url);
	} else {
		out->prompt_tokens = r.prompt_tokens;
		out->completion_tokens = r.completion_tokens;
		copy_cut(out->model, sizeof out->model, r.model ? r.model : "");
		one_line(out->reply, sizeof out->reply, r.content ? r.content : "");
		if (cfg.structured != LLM_SO_NONE)
			rc = probe_structured(out, cli, &pr, out->base_url, err);
	}
	llm_reply_free(&r);
	pr_prompt_free(&pr);
	llm_client_free(cli);
	llm_config_free(&cfg);
	return rc;
}
