/*
 * llm_client.c — the client: its copy of the config, the key, a pool of
 * HTTP handles (one per concurrent call, reused so connections stay
 * alive), the retry loop under one deadline per decision, replay and
 * record through the cassette, and the counters. Also the transport's
 * clock. (Errors with the key redacted and printable excerpts, which every
 * file of the transport uses, are llm_errors.c.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/policy/llm/llm_impl.h"
#include "api/base/utf8.h"

#define DEFAULT_BASE_URL "http://127.0.0.1:8080"

struct llm_client {
	llm_config cfg;       /* a deep copy */
	char *url;            /* where requests go */
	char *shown_url;      /* the same without user:password, for messages */
	char *key;            /* NULL = none; wiped on free */
	llm_cassette *cassette;
	pthread_mutex_t lock; /* the pool and the stats */
	llm_handle **idle;    /* handles not in use; all of them when no call runs */
	size_t n_idle, cap_idle;
	llm_client_stats stats;
};

/* -------------------------------------------------------------- helpers -- */

int64_t llm_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int64_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };
	while (ms > 0 && nanosleep(&ts, &ts) != 0) {
	}
}

/* Full jitter: a uniform wait in [0, min(max, base * 2^(retry-1))]. The
 * generator is per thread, so concurrent callers do not share state. */
static int64_t backoff_ms(const llm_config *cfg, int retry)
{
	static _Thread_local uint64_t rng;
	if (!rng) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		rng = ((uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull) ^ (uint64_t)(uintptr_t)&rng;
		rng |= 1;
	}
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	uint64_t r = rng * 0x2545F4914F6CDD1Dull;
	int64_t cap = cfg->backoff_base_ms;
	for (int i = 1; i < retry && cap < cfg->backoff_max_ms; i++)
		cap *= 2;
	if (cap > cfg->backoff_max_ms)
		cap = cfg->backoff_max_ms;
	return cap > 0 ? (int64_t)(r % (uint64_t)(cap + 1)) : 0;
}

/* --------------------------------------------------------------- config -- */

static int dup_str(char **dst, const char *s)
{
	*dst = NULL;
	return s && !(*dst = strdup(s)) ? -1 : 0;
}

static int copy_config(llm_config *d, const llm_config *s)
{
	*d = *s;
	int bad = dup_str(&d->base_url, s->base_url) | dup_str(&d->model, s->model) |
	          dup_str(&d->api_key_env, s->api_key_env) | dup_str(&d->cassette, s->cassette);
	for (int i = 0; i < LLM_D_COUNT; i++)
		bad |= dup_str(&d->model_for[i], s->model_for[i]);
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

/* {base}/v1/chat/completions, unless base already ends in /v1 or in the
 * endpoint itself. Also a copy without user:password@ for messages. */
static int make_url(llm_client *c, h2emv_error *err)
{
	const char *base = c->cfg.base_url ? c->cfg.base_url : DEFAULT_BASE_URL;
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	if (strncasecmp(base, "http://", 7) && strncasecmp(base, "https://", 8))
		return llm_fail(NULL, err, H2EMV_EINVAL, "base_url must start with http:// or https://");
	const char *tail = "/v1/chat/completions";
	if (n >= 17 && !strncmp(base + n - 17, "/chat/completions", 17))
		tail = "";
	else if (n >= 3 && !strncmp(base + n - 3, "/v1", 3))
		tail = "/chat/completions";
	if (asprintf(&c->url, "%.*s%s", (int)n, base, tail) < 0) {
		c->url = NULL;
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	}
	const char *host = strstr(c->url, "://") + 3;
	const char *at = strchr(host, '@'), *slash = strchr(host, '/');
	int rc = at && (!slash || at < slash)
	             ? asprintf(&c->shown_url, "%.*s***%s", (int)(host - c->url), c->url, at)
	             : asprintf(&c->shown_url, "%s", c->url);
	if (rc < 0) {
		c->shown_url = NULL;
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	}
	return H2EMV_OK;
}

static int read_key(llm_client *c, h2emv_error *err)
{
	const char *var = c->cfg.api_key_env;
	if (!var || c->cfg.transport == LLM_T_REPLAY)
		return H2EMV_OK; /* replay sends nothing, so it needs no key */
	const char *v = getenv(var);
	if (!v || !*v)
		return llm_fail(NULL, err, H2EMV_EINVAL,
		                "api_key_env names %s, but that environment variable is not set", var);
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return llm_fail(NULL, err, H2EMV_EINVAL,
			                "the API key in %s contains a control character", var);
	if (!(c->key = strdup(v)))
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	return H2EMV_OK;
}

/* --------------------------------------------------------------- client -- */

int llm_client_new(llm_client **out, const llm_config *cfg, h2emv_error *err)
{
	*out = NULL;
	int rc = llm_config_check(cfg, err);
	if (rc)
		return rc;
	if (!cfg->model || !*cfg->model)
		return llm_fail(NULL, err, H2EMV_EINVAL,
		                "no model configured (set \"model\" in the config or H2EMV_LLM_MODEL)");
	llm_client *c = calloc(1, sizeof *c);
	if (!c)
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	if (pthread_mutex_init(&c->lock, NULL)) {
		free(c);
		return llm_fail(NULL, err, H2EMV_ENOMEM, "cannot make a mutex");
	}
	if (copy_config(&c->cfg, cfg))
		rc = llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	if (!rc)
		rc = make_url(c, err);
	if (!rc)
		rc = read_key(c, err);
	if (!rc && c->cfg.transport != LLM_T_REPLAY)
		rc = llm_http_global(err);
	if (!rc && c->cfg.transport == LLM_T_REPLAY)
		rc = llm_cassette_load(&c->cassette, c->cfg.cassette, err);
	if (!rc && c->cfg.transport == LLM_T_RECORD)
		rc = llm_cassette_open(&c->cassette, c->cfg.cassette, err);
	if (rc) {
		llm_client_free(c);
		return rc;
	}
	*out = c;
	return H2EMV_OK;
}

void llm_client_free(llm_client *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_idle; i++)
		llm_handle_free(c->idle[i]);
	free(c->idle);
	llm_cassette_free(c->cassette);
	if (c->key) {
		explicit_bzero(c->key, strlen(c->key));
		free(c->key);
	}
	free(c->url);
	free(c->shown_url);
	llm_config_free(&c->cfg);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void llm_reply_free(llm_reply *r)
{
	if (!r)
		return;
	free(r->content);
	free(r->model);
	memset(r, 0, sizeof *r);
}

void llm_client_stats_get(const llm_client *c, llm_client_stats *out)
{
	llm_client *m = (llm_client *)c; /* the lock is not part of the value */
	pthread_mutex_lock(&m->lock);
	*out = c->stats;
	pthread_mutex_unlock(&m->lock);
}

/* ----------------------------------------------------------------- pool -- */

static int pool_take(llm_client *c, llm_handle **h, h2emv_error *err)
{
	*h = NULL;
	pthread_mutex_lock(&c->lock);
	if (c->n_idle)
		*h = c->idle[--c->n_idle];
	pthread_mutex_unlock(&c->lock);
	if (*h)
		return H2EMV_OK;
	return llm_handle_new(h, &c->cfg, c->url, c->key, err);
}

static void pool_give(llm_client *c, llm_handle *h)
{
	pthread_mutex_lock(&c->lock);
	if (c->n_idle == c->cap_idle) {
		size_t cap = c->cap_idle ? 2 * c->cap_idle : 4;
		llm_handle **a = realloc(c->idle, cap * sizeof *a);
		if (a) {
			c->idle = a;
			c->cap_idle = cap;
		}
	}
	if (c->n_idle < c->cap_idle) {
		c->idle[c->n_idle++] = h;
		h = NULL;
	}
	pthread_mutex_unlock(&c->lock);
	llm_handle_free(h); /* no room to keep it: its connection closes */
}

/* ---------------------------------------------------------------- chat -- */

static int replay_chat(llm_client *c, const llm_request *req, const char *body, llm_reply *out,
                       h2emv_error *err)
{
	const char *what = llm_decision_name(req->decision);
	uint64_t key = llm_key_of(body, strlen(body));
	const char *content;
	if (llm_cassette_find(c->cassette, key, &content, &out->prompt_tokens,
	                      &out->completion_tokens)) {
		char last[128];
		llm_last_user(last, sizeof last, req->prompt);
		return llm_fail(c->key, err, H2EMV_ENOTFOUND,
		                "cassette %s has no reply for the %s request with key %016llx "
		                "(last user message: \"%s\")",
		                llm_cassette_path(c->cassette), what, (unsigned long long)key, last);
	}
	out->attempts = 1;
	out->content = strdup(content);
	out->model = strdup(llm_model_for(&c->cfg, req->decision));
	if (!out->content || !out->model)
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory replaying the %s request", what);
	return H2EMV_OK;
}

static int retryable_status(long s)
{
	return s == 408 || s == 429 || s == 500 || s == 502 || s == 503 || s == 504;
}

/* Count one attempt's end in the stats. */
static void count_attempt(llm_client *c, const llm_attempt *a, int attempt)
{
	pthread_mutex_lock(&c->lock);
	c->stats.attempts++;
	c->stats.retries += attempt > 1;
	c->stats.timeouts += a->outcome == LLM_O_TIMEOUT;
	c->stats.bytes_in += a->bytes_in;
	pthread_mutex_unlock(&c->lock);
}

/* What one failed attempt says, for the final message. Returns 1 when a
 * retry may help, 0 when the call must end with *rc. */
static int judge_attempt(llm_client *c, const llm_attempt *a, const char *what, char *last,
                         size_t cap, int *rc, h2emv_error *err)
{
	char server[320];
	switch (a->outcome) {
	case LLM_O_REPLY:
		llm_server_message(server, sizeof server, a->body, a->len);
		if (retryable_status(a->status)) {
			snprintf(last, cap, "HTTP %ld: %s", a->status, server);
			return 1;
		}
		*rc = llm_fail(c->key, err, H2EMV_EINVAL, "the server answered HTTP %ld to the %s request: %s",
		               a->status, what, server);
		return 0;
	case LLM_O_TIMEOUT:
		snprintf(last, cap, "timed out: %s", a->detail);
		return 1;
	case LLM_O_NETWORK:
		snprintf(last, cap, "%s", a->detail);
		return 1;
	case LLM_O_TOO_BIG:
		*rc = llm_fail(c->key, err, H2EMV_ELIMIT,
		               "the %s reply is larger than max_reply_bytes (%zu bytes); transfer aborted",
		               what, c->cfg.max_reply_bytes);
		return 0;
	case LLM_O_NOMEM:
		*rc = llm_fail(c->key, err, H2EMV_ENOMEM, "out of memory receiving the %s reply", what);
		return 0;
	default:
		*rc = llm_fail(c->key, err, H2EMV_EIO, "cannot send the %s request to %s: %s", what,
		               c->shown_url, a->detail);
		return 0;
	}
}

/* Read a 2xx attempt's body into *out. A body that is not a chat
 * completion (a proxy's page, a server mid-restart, a truncated or hostile
 * reply) returns H2EMV_EPARSE with the reason in `last`, err untouched:
 * the caller retries it like a 5xx. Any other failure is final, in err. */
static int take_reply(llm_client *c, const llm_attempt *a, llm_reply *out, char *last, size_t cap,
                      h2emv_error *err)
{
	h2emv_error why = { 0 };
	int rc = llm_reply_parse(a->body, a->len, "the body", out, c->key, &why);
	if (rc == H2EMV_EPARSE) {
		const char *m = why.message;
		if (!strncmp(m, "llm: ", 5))
			m += 5;
		int n = snprintf(last, cap, "HTTP %ld, but not a chat completion: ", a->status);
		if (n > 0 && (size_t)n + 8 < cap)
			llm_sanitize(last + n, cap - (size_t)n, m, strlen(m), cap - (size_t)n);
	} else if (rc && err) {
		*err = why;
	}
	return rc;
}

static int http_chat(llm_client *c, const llm_request *req, const char *body, int64_t start,
                     llm_reply *out, h2emv_error *err)
{
	const char *what = llm_decision_name(req->decision);
	const int64_t deadline = start + c->cfg.decision_timeout_ms;
	const size_t len = strlen(body);
	char last[400] = "no attempt made";
	int gave_up = H2EMV_EIO; /* the status when the retries run out */
	llm_handle *h;
	int rc = pool_take(c, &h, err);
	if (rc)
		return rc;
	for (int attempt = 1;; attempt++) {
		int64_t left = deadline - llm_now_ms();
		if (left <= 0) {
			rc = llm_fail(c->key, err, H2EMV_EIO,
			              "the %s request to %s ran out of its %ld ms deadline after %d "
			              "attempt%s; last: %s",
			              what, c->shown_url, c->cfg.decision_timeout_ms, attempt - 1,
			              attempt == 2 ? "" : "s", last);
			break;
		}
		llm_attempt a;
		llm_http_post(h, body, len, (long)left, c->cfg.max_reply_bytes, &a);
		count_attempt(c, &a, attempt);
		out->attempts = attempt;
		out->http_status = (int)a.status;
		int again;
		if (a.outcome == LLM_O_REPLY && a.status >= 200 && a.status < 300) {
			rc = take_reply(c, &a, out, last, sizeof last, err);
			again = rc == H2EMV_EPARSE;
			gave_up = H2EMV_EPARSE;
		} else {
			again = judge_attempt(c, &a, what, last, sizeof last, &rc, err);
			gave_up = H2EMV_EIO;
		}
		long retry_after = a.outcome == LLM_O_REPLY ? a.retry_after_s : -1;
		free(a.body);
		if (!again)
			break;
		if (attempt > c->cfg.max_retries) {
			rc = llm_fail(c->key, err, gave_up, "the %s request to %s failed after %d attempt%s; last: %s",
			              what, c->shown_url, attempt, attempt == 1 ? "" : "s", last);
			break;
		}
		int64_t wait = retry_after >= 0 ? (int64_t)retry_after * 1000 : backoff_ms(&c->cfg, attempt);
		left = deadline - llm_now_ms();
		if (retry_after >= 0 && wait >= left) {
			/* waiting would only end at the deadline: fail now */
			rc = llm_fail(c->key, err, gave_up,
			              "the %s request to %s failed after %d attempt%s: the server asked to "
			              "retry after %ld s, past the %ld ms deadline; last: %s",
			              what, c->shown_url, attempt, attempt == 1 ? "" : "s", retry_after,
			              c->cfg.decision_timeout_ms, last);
			break;
		}
		sleep_ms(wait < left ? wait : left);
	}
	pool_give(c, h);
	return rc;
}

int llm_chat(llm_client *c, const llm_request *req, llm_reply *out, h2emv_error *err)
{
	int64_t start = llm_now_ms();
	if (!out)
		return llm_fail(NULL, err, H2EMV_EINVAL, "llm_chat needs a reply to fill");
	memset(out, 0, sizeof *out);
	if (!c)
		return llm_fail(NULL, err, H2EMV_EINVAL, "llm_chat needs a client");
	char *body = NULL;
	int rc = llm_request_json(&body, &c->cfg, req, err);
	if (!rc && c->cfg.transport == LLM_T_REPLAY)
		rc = replay_chat(c, req, body, out, err);
	else if (!rc)
		rc = http_chat(c, req, body, start, out, err);
	if (!rc && !out->model && !(out->model = strdup(llm_model_for(&c->cfg, req->decision))))
		rc = llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory");
	if (!rc && c->cfg.transport == LLM_T_RECORD)
		rc = llm_cassette_append(c->cassette, llm_key_of(body, strlen(body)), req->decision, body,
		                         out, c->key, err);
	free(body);
	if (rc) {
		free(out->content);
		free(out->model);
		out->content = out->model = NULL;
	}
	out->seconds = (double)(llm_now_ms() - start) / 1000.0;
	pthread_mutex_lock(&c->lock);
	c->stats.requests++;
	c->stats.failures += rc != 0;
	c->stats.replayed += !rc && c->cfg.transport == LLM_T_REPLAY;
	c->stats.recorded += !rc && c->cfg.transport == LLM_T_RECORD;
	if (!rc) {
		c->stats.prompt_tokens += out->prompt_tokens;
		c->stats.completion_tokens += out->completion_tokens;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}
