/*
 * fakellm.c — the fake OpenAI-compatible server of fakellm.h on
 * libmicrohttpd (a thread per connection, so a reply may wait or trickle
 * without holding up the others). The misbehaviours are responses built
 * from a reader callback: one that naps between pieces (trickle), one
 * that makes up 'x' bytes (huge), one that ends in an error once the body
 * is out while the declared length promised more (truncate: libmicrohttpd
 * closes the connection).
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include <jansson.h>
#include <microhttpd.h>

#include "fakellm.h"

#define BODY_MAX (64u << 20)
#define CONN_MEMORY (128u << 10) /* per connection: a request head fits */

typedef struct script_item {
	fake_resp r;
	char *content, *raw_body; /* owned copies */
} script_item;

typedef struct recorded {
	char *head, *body;
} recorded;

struct fake_llm {
	struct MHD_Daemon *d;
	unsigned short port;
	atomic_int stop;
	pthread_mutex_t lock;      /* everything below */
	script_item *script;
	size_t n_script, head_script, cap_script;
	script_item dflt;          /* the default reply, when has_dflt */
	int has_dflt;
	fake_llm_handler handler;
	void *handler_arg;
	recorded *reqs;
	size_t n_reqs, cap_reqs;
	size_t n_conns;
};

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		fprintf(stderr, "fakellm: out of memory\n");
		abort();
	}
	return q;
}

static char *xstrdup(const char *s)
{
	return s ? strcpy(xrealloc(NULL, strlen(s) + 1), s) : NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR) {
	}
}

/* Sleep `ms`, waking every 10 ms to see whether the server stops. */
static int nap(fake_llm *f, long ms)
{
	while (ms > 0 && !atomic_load(&f->stop)) {
		long step = ms < 10 ? ms : 10;
		sleep_ms(step);
		ms -= step;
	}
	return atomic_load(&f->stop) ? -1 : 0;
}

/* ------------------------------------------------------------- requests -- */

typedef struct text {
	char *p;
	size_t len, cap;
} text;

static void text_add(text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->p = xrealloc(t->p, t->cap);
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = 0;
}

static void text_adds(text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

/* One request while it arrives (libmicrohttpd's per-request pointer). */
typedef struct req {
	text head, body;
} req;

static enum MHD_Result add_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
	(void)kind;
	text *t = cls;
	text_adds(t, key);
	text_adds(t, ": ");
	text_adds(t, value ? value : "");
	text_adds(t, "\r\n");
	return MHD_YES;
}

/* The request line and headers as the client sent them (in order, names
 * in their own case), ending in an empty line. */
static void record_head(text *t, struct MHD_Connection *c, const char *method, const char *url,
                        const char *version)
{
	text_adds(t, method);
	text_adds(t, " ");
	text_adds(t, url);
	text_adds(t, " ");
	text_adds(t, version);
	text_adds(t, "\r\n");
	MHD_get_connection_values(c, MHD_HEADER_KIND, add_header, t);
	text_adds(t, "\r\n");
}

/* Keep a complete request; returns its body (valid until the server
 * stops). */
static const char *keep(fake_llm *f, req *q)
{
	if (!q->body.p)
		text_adds(&q->body, "");
	recorded r = { q->head.p, q->body.p };
	q->head.p = q->body.p = NULL;
	pthread_mutex_lock(&f->lock);
	if (f->n_reqs == f->cap_reqs) {
		f->cap_reqs = f->cap_reqs ? 2 * f->cap_reqs : 16;
		f->reqs = xrealloc(f->reqs, f->cap_reqs * sizeof *f->reqs);
	}
	f->reqs[f->n_reqs++] = r;
	pthread_mutex_unlock(&f->lock);
	return r.body;
}

/* -------------------------------------------------------------- replies -- */

/* The message of an error body that names none. */
static const char *reason(unsigned status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 404: return "Not Found";
	case 408: return "Request Timeout";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default: return "Status";
	}
}

static char *completion_json(const char *content, uint64_t pt, uint64_t ct)
{
	json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:[{s:i, s:{s:s, s:s}, s:s}], s:{s:I, s:I, s:I}}",
	                      "id", "chatcmpl-fake", "object", "chat.completion", "created",
	                      (json_int_t)1700000000, "model", "fake-model", "choices", "index", 0,
	                      "message", "role", "assistant", "content", content, "finish_reason",
	                      "stop", "usage", "prompt_tokens", (json_int_t)pt, "completion_tokens",
	                      (json_int_t)ct, "total_tokens", (json_int_t)(pt + ct));
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!s)
		abort();
	return s;
}

static char *error_json(const char *message)
{
	json_t *o = json_pack("{s:{s:s, s:s}}", "error", "message", message, "type", "fake_error");
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!s)
		abort();
	return s;
}

/* A body sent through a reader callback: `body` (len bytes), or, when
 * body is NULL, `total` made-up 'x' bytes. */
typedef struct stream {
	fake_llm *f;
	char *body;
	size_t len;
	uint64_t total;
	int rate;  /* > 0: trickle at this many bytes a second */
	int cut;   /* the declared length is longer: end in an error */
} stream;

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	stream *s = cls;
	if (atomic_load(&s->f->stop))
		return MHD_CONTENT_READER_END_WITH_ERROR;
	if (!s->body) {
		if (pos >= s->total)
			return MHD_CONTENT_READER_END_OF_STREAM;
		size_t k = s->total - pos < max ? (size_t)(s->total - pos) : max;
		memset(buf, 'x', k);
		return (ssize_t)k;
	}
	if (pos >= s->len)
		return s->cut ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
	size_t k = s->len - pos < max ? s->len - (size_t)pos : max;
	if (s->rate > 0) {
		size_t step = s->rate >= 10 ? (size_t)s->rate / 10 : 1;
		long pause = s->rate >= 10 ? 100 : 1000 / s->rate;
		if (pos > 0 && nap(s->f, pause))
			return MHD_CONTENT_READER_END_WITH_ERROR;
		if (k > step)
			k = step;
	}
	memcpy(buf, s->body + pos, k);
	return (ssize_t)k;
}

static void stream_free(void *cls)
{
	stream *s = cls;
	free(s->body);
	free(s);
}

/* The response for `r` with `body` (taken over). */
static struct MHD_Response *make_response(fake_llm *f, const fake_resp *r, char *body)
{
	size_t blen = strlen(body);
	if (!r->huge_bytes && !r->truncate && r->trickle_bytes_per_sec <= 0)
		return MHD_create_response_from_buffer(blen, body, MHD_RESPMEM_MUST_FREE);
	stream *s = xrealloc(NULL, sizeof *s);
	*s = (stream){ .f = f, .body = body, .len = blen, .rate = r->trickle_bytes_per_sec,
	               .cut = r->truncate };
	uint64_t size = blen + (r->truncate ? 100 : 0);
	if (r->huge_bytes) {
		free(body);
		s->body = NULL;
		s->total = r->huge_bytes;
		size = r->no_length ? MHD_SIZE_UNKNOWN : r->huge_bytes;
	}
	struct MHD_Response *resp =
		MHD_create_response_from_callback(size, 16384, stream_read, s, stream_free);
	if (!resp)
		stream_free(s);
	/* no length: no chunked encoding either, the body ends with the
	 * connection (an HTTP/1.0-style reply) */
	if (resp && r->huge_bytes && r->no_length &&
	    MHD_set_response_options(resp, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END) != MHD_YES) {
		MHD_destroy_response(resp);
		resp = NULL;
	}
	return resp;
}

/* Answer the request on `c` with `r`; MHD_NO closes the connection
 * without an answer (the server stops during a delay). */
static enum MHD_Result respond(fake_llm *f, struct MHD_Connection *c, const fake_resp *r,
                               const char *content, const char *raw_body)
{
	unsigned status = r->status ? (unsigned)r->status : 200;
	char *body;
	if (raw_body)
		body = xstrdup(raw_body);
	else if (status >= 200 && status < 300)
		body = completion_json(content ? content : "", r->prompt_tokens, r->completion_tokens);
	else
		body = error_json(content ? content : reason(status));
	if (r->delay_ms && nap(f, r->delay_ms)) {
		free(body);
		return MHD_NO;
	}
	struct MHD_Response *resp = make_response(f, r, body);
	if (!resp) {
		fprintf(stderr, "fakellm: cannot make a response\n");
		abort();
	}
	char ra[32];
	snprintf(ra, sizeof ra, "%d", r->retry_after);
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json") != MHD_YES ||
	    (r->retry_after > 0 &&
	     MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, ra) != MHD_YES) ||
	    ((r->close || r->truncate) &&
	     MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES)) {
		fprintf(stderr, "fakellm: cannot set a header\n");
		abort();
	}
	enum MHD_Result rc = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

/* Pick the reply for a request and queue it. */
static enum MHD_Result serve(fake_llm *f, struct MHD_Connection *c, const char *body)
{
	fake_resp r = { 0 };
	char *content = NULL, *raw = NULL;
	int scripted = 0;
	fake_llm_handler fn = NULL;
	void *arg = NULL;
	pthread_mutex_lock(&f->lock);
	if (f->head_script < f->n_script) {
		script_item *it = &f->script[f->head_script++];
		r = it->r;
		content = xstrdup(it->content);
		raw = xstrdup(it->raw_body);
		scripted = 1;
	} else if (f->has_dflt) {
		r = f->dflt.r;
		content = xstrdup(f->dflt.content);
		raw = xstrdup(f->dflt.raw_body);
		scripted = 1;
	} else {
		fn = f->handler;
		arg = f->handler_arg;
	}
	pthread_mutex_unlock(&f->lock);
	if (!scripted && fn) {
		content = fn(arg, body);
		r.status = content ? 200 : 500;
		r.prompt_tokens = strlen(body) / 4;
		r.completion_tokens = content ? strlen(content) / 4 + 1 : 0;
		if (!content)
			content = xstrdup("the handler gave no reply");
	} else if (!scripted) {
		r.status = 500;
		content = xstrdup("fakellm: no scripted reply and no handler");
	}
	enum MHD_Result rc = respond(f, c, &r, content, raw);
	free(content);
	free(raw);
	return rc;
}

/* ------------------------------------------------------------ callbacks -- */

/* libmicrohttpd calls this once when the head is in, once per piece of
 * body, and once more when the body is complete: then the request is
 * recorded and answered. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **req_cls)
{
	fake_llm *f = cls;
	req *q = *req_cls;
	if (!q) {
		q = xrealloc(NULL, sizeof *q);
		memset(q, 0, sizeof *q);
		record_head(&q->head, c, method, url, version);
		*req_cls = q;
		return MHD_YES;
	}
	if (*upload_data_size) {
		if (q->body.len + *upload_data_size > BODY_MAX)
			return MHD_NO; /* close the connection, as on a head too big */
		text_add(&q->body, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return MHD_YES;
	}
	return serve(f, c, keep(f, q));
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
                         enum MHD_RequestTerminationCode why)
{
	(void)cls, (void)c, (void)why;
	req *q = *req_cls;
	if (q) {
		free(q->head.p);
		free(q->body.p);
		free(q);
	}
	*req_cls = NULL;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode what)
{
	(void)c, (void)socket_context;
	fake_llm *f = cls;
	if (what != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	pthread_mutex_lock(&f->lock);
	f->n_conns++;
	pthread_mutex_unlock(&f->lock);
}

/* ------------------------------------------------------------ lifecycle -- */

int fake_llm_start(fake_llm **out)
{
	*out = NULL;
	fake_llm *f = xrealloc(NULL, sizeof *f);
	memset(f, 0, sizeof *f);
	atomic_init(&f->stop, 0);
	pthread_mutex_init(&f->lock, NULL);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0,
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	f->d = MHD_start_daemon(
		MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0,
		NULL, NULL, on_request, f,
		MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&a,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, f,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, f,
		MHD_OPTION_END);
	const union MHD_DaemonInfo *info =
		f->d ? MHD_get_daemon_info(f->d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
	if (!info || !info->port) {
		if (f->d)
			MHD_stop_daemon(f->d);
		pthread_mutex_destroy(&f->lock);
		free(f);
		return -1;
	}
	f->port = info->port;
	*out = f;
	return 0;
}

void fake_llm_stop(fake_llm *f)
{
	if (!f)
		return;
	atomic_store(&f->stop, 1); /* delays and trickles give up */
	MHD_stop_daemon(f->d);     /* closes every connection, joins every thread */
	for (size_t i = 0; i < f->n_script; i++) {
		free(f->script[i].content);
		free(f->script[i].raw_body);
	}
	for (size_t i = 0; i < f->n_reqs; i++) {
		free(f->reqs[i].head);
		free(f->reqs[i].body);
	}
	free(f->dflt.content);
	free(f->dflt.raw_body);
	free(f->script);
	free(f->reqs);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/* ------------------------------------------------------------- accessors -- */

unsigned short fake_llm_port(fake_llm *f)
{
	return f->port;
}

char *fake_llm_url(fake_llm *f)
{
	char buf[64];
	snprintf(buf, sizeof buf, "http://127.0.0.1:%u", (unsigned)f->port);
	return xstrdup(buf);
}

void fake_llm_push(fake_llm *f, const fake_resp *r)
{
	pthread_mutex_lock(&f->lock);
	if (f->n_script == f->cap_script) {
		f->cap_script = f->cap_script ? 2 * f->cap_script : 16;
		f->script = xrealloc(f->script, f->cap_script * sizeof *f->script);
	}
	script_item *it = &f->script[f->n_script++];
	it->r = *r;
	it->content = xstrdup(r->content);
	it->raw_body = xstrdup(r->raw_body);
	it->r.content = it->r.raw_body = NULL;
	pthread_mutex_unlock(&f->lock);
}

void fake_llm_set_default(fake_llm *f, const fake_resp *r)
{
	pthread_mutex_lock(&f->lock);
	free(f->dflt.content);
	free(f->dflt.raw_body);
	memset(&f->dflt, 0, sizeof f->dflt);
	f->has_dflt = r != NULL;
	if (r) {
		f->dflt.r = *r;
		f->dflt.content = xstrdup(r->content);
		f->dflt.raw_body = xstrdup(r->raw_body);
		f->dflt.r.content = f->dflt.r.raw_body = NULL;
	}
	pthread_mutex_unlock(&f->lock);
}

void fake_llm_set_handler(fake_llm *f, fake_llm_handler fn, void *arg)
{
	pthread_mutex_lock(&f->lock);
	f->handler = fn;
	f->handler_arg = arg;
	pthread_mutex_unlock(&f->lock);
}

size_t fake_llm_requests(fake_llm *f)
{
	pthread_mutex_lock(&f->lock);
	size_t n = f->n_reqs;
	pthread_mutex_unlock(&f->lock);
	return n;
}

static char *request_part(fake_llm *f, size_t i, int want_head)
{
	char *s = NULL;
	pthread_mutex_lock(&f->lock);
	if (i < f->n_reqs)
		s = xstrdup(want_head ? f->reqs[i].head : f->reqs[i].body);
	pthread_mutex_unlock(&f->lock);
	return s;
}

char *fake_llm_request(fake_llm *f, size_t i)
{
	return request_part(f, i, 0);
}

char *fake_llm_request_head(fake_llm *f, size_t i)
{
	return request_part(f, i, 1);
}

char *fake_llm_header(fake_llm *f, size_t i, const char *name)
{
	char *head = request_part(f, i, 1), *v = NULL;
	size_t k = strlen(name);
	for (char *l = head ? strstr(head, "\r\n") : NULL; l && !v; l = strstr(l + 2, "\r\n")) {
		if (strncasecmp(l + 2, name, k) || l[2 + k] != ':')
			continue;
		char *p = l + 3 + k, *e;
		while (*p == ' ' || *p == '\t')
			p++;
		e = strstr(p, "\r\n");
		v = xrealloc(NULL, (size_t)(e - p) + 1);
		memcpy(v, p, (size_t)(e - p));
		v[e - p] = 0;
	}
	free(head);
	return v;
}

size_t fake_llm_connections(fake_llm *f)
{
	pthread_mutex_lock(&f->lock);
	size_t n = f->n_conns;
	pthread_mutex_unlock(&f->lock);
	return n;
}

size_t fake_llm_pending(fake_llm *f)
{
	pthread_mutex_lock(&f->lock);
	size_t n = f->n_script - f->head_script;
	pthread_mutex_unlock(&f->lock);
	return n;
}

char *fake_llm_message(const char *body, const char *role)
{
	json_t *o = json_loads(body, 0, NULL);
	json_t *msgs = json_object_get(o, "messages");
	char *s = NULL;
	for (size_t i = json_array_size(msgs); i-- > 0 && !s;) {
		json_t *m = json_array_get(msgs, i);
		const char *r = json_string_value(json_object_get(m, "role"));
		const char *c = json_string_value(json_object_get(m, "content"));
		if (r && c && !strcmp(r, role))
			s = xstrdup(c);
	}
	json_decref(o);
	return s;
}
