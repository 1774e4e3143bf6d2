/*
 * fakellm.c — the fake OpenAI-compatible server of fakellm.h: an accept
 * thread and one thread per connection, each reading HTTP/1.1 requests
 * with Content-Length bodies and answering from the script or the handler.
 * Sends use MSG_NOSIGNAL: a client that hangs up mid-reply is normal here.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "fakellm.h"

#define HEAD_MAX (64u << 10)
#define BODY_MAX (64u << 20)

typedef struct script_item {
	fake_resp r;
	char *content, *raw_body; /* owned copies */
} script_item;

typedef struct recorded {
	char *head, *body;
} recorded;

typedef struct conn {
	fake_llm *f;
	int fd;                    /* -1 once closed */
	pthread_t thread;
} conn;

struct fake_llm {
	int lfd;
	unsigned short port;
	atomic_int stop;
	pthread_t acceptor;
	pthread_mutex_t lock;      /* everything below */
	script_item *script;
	size_t n_script, head_script, cap_script;
	script_item dflt;          /* the default reply, when has_dflt */
	int has_dflt;
	fake_llm_handler handler;
	void *handler_arg;
	recorded *reqs;
	size_t n_reqs, cap_reqs;
	conn **conns;
	size_t n_conns, cap_conns;
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

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* ------------------------------------------------------------- requests -- */

typedef struct inbuf {
	char *p;
	size_t len, cap;
} inbuf;

/* Read more bytes; 0 on data, -1 on EOF, error or stop. */
static int fill(fake_llm *f, int fd, inbuf *b)
{
	for (;;) {
		if (atomic_load(&f->stop))
			return -1;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, 50);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			continue;
		if (b->len + 65536 > b->cap) {
			b->cap = b->len + 65536;
			b->p = xrealloc(b->p, b->cap + 1);
		}
		ssize_t got = recv(fd, b->p + b->len, b->cap - b->len, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		b->len += (size_t)got;
		b->p[b->len] = 0;
		return 0;
	}
}

/* The Content-Length of a head (NUL-terminated), 0 when absent. */
static size_t content_length(const char *head)
{
	for (const char *l = strstr(head, "\r\n"); l; l = strstr(l + 2, "\r\n"))
		if (!strncasecmp(l + 2, "content-length:", 15))
			return (size_t)strtoull(l + 17, NULL, 10);
	return 0;
}

/* Read one request into *head / *body (malloc'd). 0, or -1 when the
 * connection ended. Bytes of the next request stay in b. */
static int read_request(fake_llm *f, int fd, inbuf *b, char **head, char **body)
{
	char *end;
	while (!b->p || !(end = strstr(b->p, "\r\n\r\n"))) {
		if (b->len > HEAD_MAX || fill(f, fd, b))
			return -1;
	}
	size_t hlen = (size_t)(end - b->p) + 4;
	*head = xrealloc(NULL, hlen + 1);
	memcpy(*head, b->p, hlen);
	(*head)[hlen] = 0;
	size_t blen = content_length(*head);
	if (blen > BODY_MAX) {
		free(*head);
		return -1;
	}
	while (b->len < hlen + blen) {
		if (fill(f, fd, b)) {
			free(*head);
			return -1;
		}
	}
	*body = xrealloc(NULL, blen + 1);
	memcpy(*body, b->p + hlen, blen);
	(*body)[blen] = 0;
	memmove(b->p, b->p + hlen + blen, b->len - hlen - blen);
	b->len -= hlen + blen;
	b->p[b->len] = 0;
	return 0;
}

/* -------------------------------------------------------------- replies -- */

static const char *reason(int status)
{
	switch (status) {
	case 200: return "OK";
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

/* Stream n 'x' bytes; -1 when the client went away. */
static int send_huge(fake_llm *f, int fd, size_t n)
{
	char chunk[16384];
	memset(chunk, 'x', sizeof chunk);
	while (n && !atomic_load(&f->stop)) {
		size_t k = n < sizeof chunk ? n : sizeof chunk;
		if (send_all(fd, chunk, k))
			return -1;
		n -= k;
	}
	return 0;
}

static int send_trickle(fake_llm *f, int fd, const char *p, size_t n, int rate)
{
	size_t step = rate >= 10 ? (size_t)rate / 10 : 1;
	long pause = rate >= 10 ? 100 : 1000 / rate;
	while (n) {
		size_t k = n < step ? n : step;
		if (send_all(fd, p, k) || nap(f, pause))
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

/* Answer one request with `r`; returns 1 when the connection must close. */
static int respond(fake_llm *f, int fd, const fake_resp *r, const char *content,
                   const char *raw_body)
{
	int status = r->status ? r->status : 200;
	char head[512];
	char extra[128] = "";
	char *body;
	if (raw_body)
		body = xstrdup(raw_body);
	else if (status >= 200 && status < 300)
		body = completion_json(content ? content : "", r->prompt_tokens, r->completion_tokens);
	else
		body = error_json(content ? content : reason(status));
	size_t blen = strlen(body);
	if (r->retry_after > 0)
		snprintf(extra, sizeof extra, "Retry-After: %d\r\n", r->retry_after);
	if (r->delay_ms && nap(f, r->delay_ms)) {
		free(body);
		return 1;
	}
	int close_after = r->close || r->truncate || (r->huge_bytes && r->no_length);
	if (r->huge_bytes && r->no_length)
		snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
		         "Connection: close\r\n%s\r\n", status, reason(status), extra);
	else
		snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
		         "Content-Length: %zu\r\n%s%s\r\n", status, reason(status),
		         r->huge_bytes ? r->huge_bytes : blen + (r->truncate ? 100 : 0), extra,
		         close_after ? "Connection: close\r\n" : "");
	int fail = send_all(fd, head, strlen(head));
	if (!fail && r->huge_bytes)
		fail = send_huge(f, fd, r->huge_bytes);
	else if (!fail && r->trickle_bytes_per_sec > 0)
		fail = send_trickle(f, fd, body, blen, r->trickle_bytes_per_sec);
	else if (!fail)
		fail = send_all(fd, body, blen);
	free(body);
	return fail || close_after;
}

/* Pick the reply for a request and send it. */
static int serve(fake_llm *f, int fd, const char *body)
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
	int closing = respond(f, fd, &r, content, raw);
	free(content);
	free(raw);
	return closing;
}

/* ---------------------------------------------------------------- threads -- */

static void *conn_main(void *arg)
{
	conn *c = arg;
	fake_llm *f = c->f;
	inbuf b = { 0 };
	for (;;) {
		char *head, *body;
		if (read_request(f, c->fd, &b, &head, &body))
			break;
		pthread_mutex_lock(&f->lock);
		if (f->n_reqs == f->cap_reqs) {
			f->cap_reqs = f->cap_reqs ? 2 * f->cap_reqs : 16;
			f->reqs = xrealloc(f->reqs, f->cap_reqs * sizeof *f->reqs);
		}
		f->reqs[f->n_reqs++] = (recorded){ head, body };
		pthread_mutex_unlock(&f->lock);
		if (serve(f, c->fd, body))
			break;
	}
	free(b.p);
	pthread_mutex_lock(&f->lock);
	close(c->fd);
	c->fd = -1;
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static void *accept_main(void *arg)
{
	fake_llm *f = arg;
	while (!atomic_load(&f->stop)) {
		struct pollfd pfd = { .fd = f->lfd, .events = POLLIN };
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		int fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		/* replies go out as a head and a body: without this, Nagle and the
		 * client's delayed ACK add 40 ms to every exchange */
		int one = 1;
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		conn *c = xrealloc(NULL, sizeof *c);
		c->f = f;
		c->fd = fd;
		pthread_mutex_lock(&f->lock);
		if (f->n_conns == f->cap_conns) {
			f->cap_conns = f->cap_conns ? 2 * f->cap_conns : 8;
			f->conns = xrealloc(f->conns, f->cap_conns * sizeof *f->conns);
		}
		f->conns[f->n_conns++] = c;
		if (pthread_create(&c->thread, NULL, conn_main, c)) {
			fprintf(stderr, "fakellm: cannot start a thread\n");
			abort();
		}
		pthread_mutex_unlock(&f->lock);
	}
	return NULL;
}

int fake_llm_start(fake_llm **out)
{
	*out = NULL;
	fake_llm *f = xrealloc(NULL, sizeof *f);
	memset(f, 0, sizeof *f);
	atomic_init(&f->stop, 0);
	pthread_mutex_init(&f->lock, NULL);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0,
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	f->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->lfd < 0 || bind(f->lfd, (struct sockaddr *)&a, sizeof a) || listen(f->lfd, 64) ||
	    getsockname(f->lfd, (struct sockaddr *)&a, &alen)) {
		if (f->lfd >= 0)
			close(f->lfd);
		pthread_mutex_destroy(&f->lock);
		free(f);
		return -1;
	}
	f->port = ntohs(a.sin_port);
	if (pthread_create(&f->acceptor, NULL, accept_main, f)) {
		close(f->lfd);
		pthread_mutex_destroy(&f->lock);
		free(f);
		return -1;
	}
	*out = f;
	return 0;
}

void fake_llm_stop(fake_llm *f)
{
	if (!f)
		return;
	atomic_store(&f->stop, 1);
	pthread_join(f->acceptor, NULL);
	close(f->lfd); /* no new connections from here on */
	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->n_conns; i++)
		if (f->conns[i]->fd >= 0)
			shutdown(f->conns[i]->fd, SHUT_RDWR);
	pthread_mutex_unlock(&f->lock);
	for (size_t i = 0; i < f->n_conns; i++) {
		pthread_join(f->conns[i]->thread, NULL);
		free(f->conns[i]);
	}
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
	free(f->conns);
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
