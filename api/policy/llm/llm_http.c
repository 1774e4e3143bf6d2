/*
 * llm_http.c — one HTTP attempt with libcurl: a reusable easy handle per
 * concurrent request (its connection stays alive between requests), the
 * reply body capped while it arrives, Retry-After read from the headers,
 * and every way a transfer can end sorted into what the retry loop of
 * llm_client.c needs to decide (retry, give up, or report).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "api/policy/llm/llm_impl.h"

struct llm_handle {
	CURL *curl;
	struct curl_slist *headers; /* one of them carries the key */
};

/* --------------------------------------------------------------- global -- */

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc;

static void global_init(void)
{
	/* never cleaned up: other libraries in the process may use libcurl too */
	global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int llm_http_global(h2emv_error *err)
{
	pthread_once(&global_once, global_init);
	if (global_rc != CURLE_OK)
		return llm_fail(NULL, err, H2EMV_EIO, "libcurl failed to initialise: %s",
		                curl_easy_strerror(global_rc));
	return H2EMV_OK;
}

/* -------------------------------------------------------------- handles -- */

/* Wipe what may hold the key before its memory goes back to malloc. */
static void free_headers(struct curl_slist *l)
{
	for (struct curl_slist *p = l; p; p = p->next)
		explicit_bzero(p->data, strlen(p->data));
	curl_slist_free_all(l);
}

static struct curl_slist *make_headers(const char *key)
{
	static const char *const fixed[] = {
		"Content-Type: application/json", "Accept: application/json",
		"Expect:" /* no 100-continue round trip for large prompts */
	};
	struct curl_slist *l = NULL, *t;
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
		if (!(t = curl_slist_append(l, fixed[i]))) {
			free_headers(l);
			return NULL;
		}
		l = t;
	}
	if (key) {
		static const char pre[] = "Authorization: Bearer ";
		size_t n = sizeof pre + strlen(key);
		char *line = malloc(n);
		if (!line) {
			free_headers(l);
			return NULL;
		}
		snprintf(line, n, "%s%s", pre, key);
		t = curl_slist_append(l, line);
		explicit_bzero(line, n);
		free(line);
		if (!t) {
			free_headers(l);
			return NULL;
		}
		l = t;
	}
	return l;
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *arg);
static size_t on_header(char *p, size_t size, size_t nitems, void *arg);

int llm_handle_new(llm_handle **out, const llm_config *cfg, const char *url, const char *key,
                   h2emv_error *err)
{
	*out = NULL;
	llm_handle *h = calloc(1, sizeof *h);
	if (!h || !(h->curl = curl_easy_init()) || !(h->headers = make_headers(key))) {
		llm_handle_free(h);
		return llm_fail(NULL, err, H2EMV_ENOMEM, "cannot make an HTTP handle (out of memory)");
	}
	CURL *c = h->curl;
	CURLcode rc = CURLE_OK;
#define SET(opt, val)                                   \
	do {                                            \
		if (rc == CURLE_OK)                     \
			rc = curl_easy_setopt(c, opt, val); \
	} while (0)
	SET(CURLOPT_URL, url);
	SET(CURLOPT_HTTPHEADER, h->headers);
	SET(CURLOPT_POST, 1L);
	/* signals are no way to time out a resolver in a threaded library */
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	/* a redirect would carry the Authorization header to another host */
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	SET(CURLOPT_CONNECTTIMEOUT_MS, cfg->connect_timeout_ms);
	if (cfg->low_speed_secs > 0 && cfg->low_speed_bytes > 0) {
		SET(CURLOPT_LOW_SPEED_LIMIT, cfg->low_speed_bytes);
		SET(CURLOPT_LOW_SPEED_TIME, cfg->low_speed_secs);
	}
	SET(CURLOPT_SSL_VERIFYPEER, cfg->verify_tls ? 1L : 0L);
	SET(CURLOPT_SSL_VERIFYHOST, cfg->verify_tls ? 2L : 0L);
	SET(CURLOPT_TCP_KEEPALIVE, 1L);
	SET(CURLOPT_USERAGENT, "h2emv/" H2EMV_VERSION_STRING);
	SET(CURLOPT_WRITEFUNCTION, on_body);
	SET(CURLOPT_HEADERFUNCTION, on_header);
#undef SET
	if (rc != CURLE_OK) {
		llm_handle_free(h);
		return llm_fail(NULL, err, H2EMV_EIO, "cannot set up an HTTP handle: %s",
		                curl_easy_strerror(rc));
	}
	*out = h;
	return H2EMV_OK;
}

void llm_handle_free(llm_handle *h)
{
	if (!h)
		return;
	if (h->curl)
		curl_easy_cleanup(h->curl);
	free_headers(h->headers);
	free(h);
}

/* ------------------------------------------------------------- receiving -- */

typedef struct recv_state {
	llm_attempt *a;
	size_t cap;     /* of a->body */
	size_t max;     /* max_reply_bytes */
	int too_big;
	int nomem;
} recv_state;

static size_t on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	recv_state *st = arg;
	llm_attempt *a = st->a;
	size_t n = size * nmemb;
	a->bytes_in += n;
	if (n > st->max - a->len) {
		/* returning short aborts the transfer: nothing past the cap is kept */
		st->too_big = 1;
		return 0;
	}
	if (a->len + n + 1 > st->cap) {
		size_t cap = st->cap ? st->cap : 16384;
		while (cap < a->len + n + 1)
			cap *= 2;
		if (cap > st->max + 1)
			cap = st->max + 1;
		char *b = realloc(a->body, cap);
		if (!b) {
			st->nomem = 1;
			return 0;
		}
		a->body = b;
		st->cap = cap;
	}
	memcpy(a->body + a->len, p, n);
	a->len += n;
	a->body[a->len] = 0;
	return n;
}

/* The value of header `name` (with its colon) in line p[0..n), or NULL. */
static const char *header_value(const char *p, size_t n, const char *name, size_t *vlen)
{
	size_t k = strlen(name);
	if (n < k || strncasecmp(p, name, k))
		return NULL;
	size_t i = k;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	size_t j = n;
	while (j > i && (p[j - 1] == '\r' || p[j - 1] == '\n' || p[j - 1] == ' ' || p[j - 1] == '\t'))
		j--;
	*vlen = j - i;
	return p + i;
}

/* A decimal number of at most 12 digits filling v[0..n), or -1. */
static long long decimal(const char *v, size_t n)
{
	long long x = 0;
	if (!n || n > 12)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	return x;
}

static size_t on_header(char *p, size_t size, size_t nitems, void *arg)
{
	recv_state *st = arg;
	size_t n = size * nitems, vn;
	const char *v;
	if (n >= 5 && !strncmp(p, "HTTP/", 5)) {
		/* a new response (after a 100 Continue, say): forget the last one's */
		st->a->retry_after_s = -1;
	} else if ((v = header_value(p, n, "retry-after:", &vn))) {
		/* the HTTP-date form is ignored: backoff applies instead */
		long long s = decimal(v, vn);
		st->a->retry_after_s = s < 0 ? -1 : (long)(s > 86400 ? 86400 : s);
	} else if ((v = header_value(p, n, "content-length:", &vn))) {
		long long len = decimal(v, vn);
		if (len > 0 && (unsigned long long)len > st->max) {
			st->too_big = 1; /* refuse before a byte of the body arrives */
			return 0;
		}
	}
	return n;
}

/* -------------------------------------------------------------- posting -- */

static int outcome_of(CURLcode rc)
{
	switch (rc) {
	case CURLE_OK:
		return LLM_O_REPLY;
	case CURLE_OPERATION_TIMEDOUT:
		return LLM_O_TIMEOUT;
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_HTTP3:
		return LLM_O_NETWORK;
	case CURLE_OUT_OF_MEMORY:
		return LLM_O_NOMEM;
	default:
		return LLM_O_FATAL; /* bad URL, TLS verification, ... */
	}
}

void llm_http_post(llm_handle *h, const char *body, size_t len, long timeout_ms,
                   size_t max_reply, llm_attempt *a)
{
	char errbuf[CURL_ERROR_SIZE];
	recv_state st = { .a = a, .max = max_reply };
	memset(a, 0, sizeof *a);
	a->retry_after_s = -1;
	errbuf[0] = 0;
	CURL *c = h->curl;
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &st);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &st);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	CURLcode rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &a->status);
	/* the handle outlives this frame: leave it no pointer into it */
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, NULL);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, NULL);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, NULL);

	if (st.nomem)
		a->outcome = LLM_O_NOMEM;
	else if (st.too_big)
		a->outcome = LLM_O_TOO_BIG;
	else
		a->outcome = outcome_of(rc);
	if (a->outcome != LLM_O_REPLY) {
		free(a->body);
		a->body = NULL;
		a->len = 0;
	} else if (!a->body && !(a->body = calloc(1, 1))) {
		a->outcome = LLM_O_NOMEM;
	}
	const char *why = errbuf[0] ? errbuf : curl_easy_strerror(rc);
	llm_sanitize(a->detail, sizeof a->detail, why, strlen(why), sizeof a->detail - 4);
}
