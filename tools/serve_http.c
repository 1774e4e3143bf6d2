/*
 * serve_http.c — `h2emv serve` on libmicrohttpd: a few epoll threads carry
 * every connection (MHD_USE_EPOLL_INTERNAL_THREAD with a thread pool), so
 * an open connection costs a socket and a little memory, not a thread.
 * They check a request's headers (Host, Origin, token, route, type, size),
 * read its body and answer what is quick (status, metrics, rules,
 * snapshots, the OpenAPI description) themselves; what takes time
 * (observations, questions, say, feedback) goes to the workers
 * (serve_jobs.c) while the connection is suspended, and a tree export is
 * streamed (serve_stream.c). serve_conn.c cuts slow clients.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "tools/serve_http.h"

/* Requests waiting for a worker beyond which a new one gets 503. */
#define MAX_QUEUED 1024

enum { JOB_NONE, JOB_RUNNING, JOB_DONE };

typedef struct request {
	serve_server *s;
	struct MHD_Connection *c;
	double t0;
	char method[16], path[160];
	int answered;          /* a response is queued */
	int status;
	serve_route_id route;
	const char *cors;      /* the --cors origin it came from, or NULL */
	char *body;
	size_t len, cap;
	int too_big;
	int job;               /* JOB_*: answered by a worker */
	int heavy;             /* holds one of the --max-exports slots */
	serve_reply rep;       /* the worker's answer */
} request;

/* -------------------------------------------------------------- replies -- */

static enum MHD_Result send_reply(struct MHD_Connection *c, request *r, serve_reply *rep)
{
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(rep->len, rep->body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(rep->body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", rep->type ? rep->type : "application/json");
	if (rep->allow)
		MHD_add_response_header(resp, "Allow", rep->allow);
	if (rep->auth_challenge)
		MHD_add_response_header(resp, "WWW-Authenticate", "Bearer realm=\"h2emv\"");
	if (rep->retry_after) {
		char ra[24];
		snprintf(ra, sizeof ra, "%u", rep->retry_after);
		MHD_add_response_header(resp, "Retry-After", ra);
	}
	if (r->cors) {
		MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->cors);
		MHD_add_response_header(resp, "Vary", "Origin");
	}
	enum MHD_Result ok = MHD_queue_response(c, (unsigned)rep->status, resp);
	MHD_destroy_response(resp);
	r->answered = 1;
	r->status = rep->status;
	return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *c, request *r, const serve_err *e,
                                  const char *allow)
{
	serve_reply rep = { 0 };
	serve_reply_error(&rep, e);
	rep.allow = allow;
	rep.auth_challenge = e->http == 401;
	rep.retry_after = e->http == 503 ? 5 : 0;
	return send_reply(c, r, &rep);
}

/* OPTIONS: the methods of the route and, for a --cors origin, what its
 * preflight asks for. No token is asked: browsers send none with it. */
static enum MHD_Result send_options(struct MHD_Connection *c, request *r, const char *url)
{
	serve_err e;
	const char *m = serve_route_method(url);
	if (!m) {
		serve_route_id unused;
		const char *allow;
		serve_route(&unused, &allow, "OPTIONS", url, &e); /* the 404 */
		return send_error(c, r, &e, NULL);
	}
	const char *allow = !strcmp(m, "GET") ? "GET, HEAD, OPTIONS" : "POST, OPTIONS";
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Allow", allow);
	if (r->cors) {
		MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->cors);
		MHD_add_response_header(resp, "Access-Control-Allow-Methods", allow);
		MHD_add_response_header(resp, "Access-Control-Allow-Headers",
		                        "Authorization, Content-Type");
		MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
		MHD_add_response_header(resp, "Vary", "Origin");
	}
	enum MHD_Result ok = MHD_queue_response(c, 204, resp);
	MHD_destroy_response(resp);
	r->answered = 1;
	r->status = 204;
	return ok;
}


/* ------------------------------------------------------------- requests -- */

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

static enum MHD_Result count_length(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
	(void)kind;
	(void)value;
	*(unsigned *)cls += !strcasecmp(key, "Content-Length");
	return MHD_YES;
}

/* A Content-Length given twice, or not a plain number (RFC 9112 6.3:
 * a request whose length is unclear is refused, not guessed). */
static int bad_length(struct MHD_Connection *c, serve_err *e)
{
	unsigned n = 0;
	MHD_get_connection_values(c, MHD_HEADER_KIND, count_length, &n);
	const char *cl = header(c, "Content-Length");
	if (n > 1) {
		serve_err_set(e, 400, "bad_request", "the request has %u Content-Length headers; "
		              "send one", n);
		return 1;
	}
	if (cl && (!cl[0] || strspn(cl, "0123456789") != strlen(cl))) {
		serve_err_set(e, 400, "bad_request", "Content-Length '%.40s' is not a number", cl);
		return 1;
	}
	return 0;
}

/* The headers are in: refuse now what can be refused without the body.
 * Host and Origin come first, before anything else is said about the
 * server to a page that should not talk to it. */
static enum MHD_Result first_call(serve_server *s, struct MHD_Connection *c, request *r,
                                  const char *url, const char *method)
{
	serve_err e;
	const char *allow = NULL;
	pthread_mutex_lock(&s->mu);
	int draining = s->draining;
	pthread_mutex_unlock(&s->mu);
	if (draining) {
		serve_err_set(&e, 503, "shutting_down", "the server is stopping");
		return send_error(c, r, &e, NULL);
	}
	if (bad_length(c, &e))
		return send_error(c, r, &e, NULL);
	if (serve_guard_check(&r->cors, &s->guard, header(c, "Host"), header(c, "Origin"), &e))
		return send_error(c, r, &e, NULL);
	if (!strcmp(method, "OPTIONS"))
		return send_options(c, r, url);
	if (s->token && !serve_auth_ok(header(c, "Authorization"), s->token, s->token_len)) {
		serve_err_set(&e, 401, "unauthorized",
		              "this server wants \"Authorization: Bearer TOKEN\" (the token of "
		              "its --token-file)");
		return send_error(c, r, &e, NULL);
	}
	if (serve_route(&r->route, &allow, method, url, &e))
		return send_error(c, r, &e, allow);
	if (serve_content_type_check(r->route, header(c, "Content-Type"), &e))
		return send_error(c, r, &e, NULL);
	const char *cl = header(c, "Content-Length");
	if (cl && strtoull(cl, NULL, 10) > s->st.max_body) {
		serve_err_set(&e, 413, "too_large",
		              "the body is %s bytes; this server takes at most %zu (--max-body)", cl,
		              s->st.max_body);
		return send_error(c, r, &e, NULL);
	}
	return MHD_YES;
}

/* One request, one log line: no control characters from the network. */
static void clean_for_log(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int take_data(serve_server *s, request *r, const char *data, size_t n)
{
	if (r->too_big || r->len + n > s->st.max_body) {
		r->too_big = 1; /* read on and drop, to answer 413 at the end */
		return 0;
	}
	if (r->len + n + 1 > r->cap) {
		size_t nc = r->cap ? r->cap : 65536;
		while (nc < r->len + n + 1)
			nc *= 2;
		char *p = realloc(r->body, nc);
		if (!p)
			return -1;
		r->body = p;
		r->cap = nc;
	}
	memcpy(r->body + r->len, data, n);
	r->len += n;
	r->body[r->len] = '\0';
	return 0;
}

/* ------------------------------------------------- what takes time -- */

/* A worker answers; the connection, suspended meanwhile, is resumed and
 * libmicrohttpd calls on_request again to send the answer. */
static void run_job(void *arg)
{
	request *r = arg;
	serve_handle(&r->rep, &r->s->st, r->route, r->body ? r->body : "", r->len);
	r->job = JOB_DONE;
	MHD_resume_connection(r->c);
}

static enum MHD_Result to_worker(serve_server *s, struct MHD_Connection *c, request *r)
{
	r->job = JOB_RUNNING;
	MHD_suspend_connection(c);
	if (serve_jobs_submit(s->jobs, run_job, r, MAX_QUEUED)) {
		serve_err e;
		serve_err_set(&e, 503, "busy", "%d requests wait for an answer already; try again "
		              "in a moment", MAX_QUEUED);
		serve_reply_error(&r->rep, &e);
		r->rep.retry_after = 1;
		r->job = JOB_DONE;
		MHD_resume_connection(c);
	}
	return MHD_YES;
}

static void export_done(void *arg)
{
	serve_server *s = arg;
	pthread_mutex_lock(&s->mu);
	s->exporters--;
	pthread_mutex_unlock(&s->mu);
}

/* GET /v1/tree: streamed, at most lim.max_heavy at once (a slot is held
 * until the export is sent, however slowly the client reads, or cut). */
static enum MHD_Result send_tree(serve_server *s, struct MHD_Connection *c, request *r)
{
	serve_err e;
	uint64_t snap;
	const char *format;
	if (serve_parse_tree_query(&snap, &format,
	                           MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "snapshot"),
	                           MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "format"),
	                           &e))
		return send_error(c, r, &e, NULL);
	pthread_mutex_lock(&s->mu);
	int room = s->heavy < s->lim.max_heavy;
	s->heavy += room;
	s->exporters += room;
	s->heavy_refused += !room;
	r->heavy = room;
	pthread_mutex_unlock(&s->mu);
	if (!room) {
		serve_err_set(&e, 503, "busy",
		              "%u tree exports are being sent already (--max-exports); try again "
		              "in a few seconds", s->lim.max_heavy);
		return send_error(c, r, &e, NULL);
	}
	/* the kernel's buffer bounded too (it grows to megabytes on its own):
	 * a client that reads slowly holds back the export, not memory */
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	int sndbuf = 128 * 1024;
	if (ci)
		setsockopt(ci->connect_fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
	struct MHD_Response *resp;
	if (serve_stream_tree(&resp, c, s->st.mem, snap, format, export_done, s, &e)) {
		export_done(s);
		return send_error(c, r, &e, NULL);
	}
	MHD_add_response_header(resp, "Content-Type",
	                        !strcmp(format, "dot")    ? "text/vnd.graphviz; charset=utf-8"
	                        : !strcmp(format, "html") ? "text/html; charset=utf-8"
	                                                  : "application/json");
	if (r->cors) {
		MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->cors);
		MHD_add_response_header(resp, "Vary", "Origin");
	}
	enum MHD_Result ok = MHD_queue_response(c, 200, resp);
	MHD_destroy_response(resp);
	r->answered = 1;
	r->status = 200;
	return ok;
}

/* The body is in (or there is none): answer. */
static enum MHD_Result answer(serve_server *s, struct MHD_Connection *c, request *r)
{
	serve_err e;
	serve_conns_phase(s->conns, c, SERVE_CONN_ANSWER);
	if (r->too_big) {
		serve_err_set(&e, 413, "too_large", "the body is over %zu bytes (--max-body)",
		              s->st.max_body);
		return send_error(c, r, &e, NULL);
	}
	if (serve_route_has_body(r->route) && r->len == 0) {
		serve_err_set(&e, 400, "empty_body", "%s %s needs a JSON body", r->method, r->path);
		return send_error(c, r, &e, NULL);
	}
	switch (r->route) {
	case SERVE_OBSERVATIONS:
	case SERVE_ASK:
	case SERVE_SAY:
	case SERVE_FEEDBACK:
		return to_worker(s, c, r);
	case SERVE_TREE:
		return send_tree(s, c, r);
	case SERVE_OPENAPI: {
		serve_reply rep = { .status = 200, .type = "application/json" };
		rep.body = malloc(serve_openapi_len);
		if (!rep.body)
			return MHD_NO;
		memcpy(rep.body, serve_openapi, serve_openapi_len);
		rep.len = serve_openapi_len;
		return send_reply(c, r, &rep);
	}
	default: {
		serve_reply rep;
		serve_handle(&rep, &s->st, r->route, "", 0);
		return send_reply(c, r, &rep);
	}
	}
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
	serve_server *s = cls;
	request *r = *con_cls;
	(void)version;
	if (!r) {
		if (!(r = calloc(1, sizeof *r)))
			return MHD_NO;
		*con_cls = r;
		r->s = s;
		r->c = c;
		r->t0 = serve_now();
		snprintf(r->method, sizeof r->method, "%s", method);
		snprintf(r->path, sizeof r->path, "%s", url);
		clean_for_log(r->method);
		clean_for_log(r->path);
		pthread_mutex_lock(&s->mu);
		s->inflight++;
		pthread_mutex_unlock(&s->mu);
		enum MHD_Result ok = first_call(s, c, r, url, method);
		serve_conns_phase(s->conns, c,
		                  !r->answered && serve_route_has_body(r->route) ? SERVE_CONN_BODY
		                                                                 : SERVE_CONN_ANSWER);
		return ok;
	}
	if (r->answered) { /* refused at the headers: drop what follows */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (r->job == JOB_DONE)
		return send_reply(c, r, &r->rep);
	if (r->job == JOB_RUNNING)
		return MHD_YES;
	if (*upload_data_size) {
		int rc = take_data(s, r, upload_data, *upload_data_size);
		serve_conns_bytes(s->conns, c, *upload_data_size);
		*upload_data_size = 0;
		return rc ? MHD_NO : MHD_YES;
	}
	return answer(s, c, r);
}

/* One log line per request, and the request's memory back. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
	serve_server *s = cls;
	request *r = *con_cls;
	if (!r)
		return;
	/* a kept-alive connection waits for its next request's headers */
	serve_conns_phase(s->conns, c, SERVE_CONN_HEADERS);
	double ms = (serve_now() - r->t0) * 1e3;
	fprintf(stderr, "%s %s %d %.1f ms%s\n", r->method, r->path, r->answered ? r->status : 0, ms,
	        toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " (connection closed early)");
	pthread_mutex_lock(&s->st.mu);
	s->st.http_requests++;
	s->st.http_4xx += r->status >= 400 && r->status < 500;
	s->st.http_5xx += r->status >= 500;
	pthread_mutex_unlock(&s->st.mu);
	pthread_mutex_lock(&s->mu);
	s->inflight--;
	s->heavy -= r->heavy;
	pthread_mutex_unlock(&s->mu);
	if (r->job == JOB_DONE && !r->answered)
		free(r->rep.body); /* answered by a worker, never sent */
	free(r->body);
	free(r);
	*con_cls = NULL;
}

/* ---------------------------------------------------------------- daemon -- */

/* libmicrohttpd's own complaints, marked as such. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fputs("h2emv serve: libmicrohttpd: ", stderr);
	vfprintf(stderr, fmt, ap);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_ctx,
                          enum MHD_ConnectionNotificationCode toe)
{
	serve_conns_notify(cls, c, socket_ctx, (int)toe);
}

/* The HTTP side's lines of /metrics. */
static void http_metrics(void *ctx, textbuf *b)
{
	serve_server *s = ctx;
	uint64_t cut_headers, cut_body, per_client;
	unsigned open;
	serve_conns_counts(s->conns, &cut_headers, &cut_body, &per_client, &open);
	pthread_mutex_lock(&s->mu);
	unsigned heavy = s->heavy;
	uint64_t refused = s->heavy_refused;
	pthread_mutex_unlock(&s->mu);
	tb_printf(b,
	          "# HELP h2emv_http_connections Connections open.\n"
	          "# TYPE h2emv_http_connections gauge\nh2emv_http_connections %u\n"
	          "# HELP h2emv_http_slow_clients_cut_total Connections cut for sending their "
	          "headers or body too slowly (--header-timeout, --min-rate).\n"
	          "# TYPE h2emv_http_slow_clients_cut_total counter\n"
	          "h2emv_http_slow_clients_cut_total{phase=\"headers\"} %llu\n"
	          "h2emv_http_slow_clients_cut_total{phase=\"body\"} %llu\n"
	          "# HELP h2emv_http_connections_refused_total Connections refused beyond "
	          "--per-client from one address.\n"
	          "# TYPE h2emv_http_connections_refused_total counter\n"
	          "h2emv_http_connections_refused_total %llu\n"
	          "# HELP h2emv_http_exports Tree exports streaming.\n"
	          "# TYPE h2emv_http_exports gauge\nh2emv_http_exports %u\n"
	          "# HELP h2emv_http_exports_refused_total Exports refused (503) beyond "
	          "--max-exports.\n"
	          "# TYPE h2emv_http_exports_refused_total counter\n"
	          "h2emv_http_exports_refused_total %llu\n",
	          open, (unsigned long long)cut_headers, (unsigned long long)cut_body,
	          (unsigned long long)per_client, heavy,
	          (unsigned long long)refused);
}

struct MHD_Daemon *serve_http_start(serve_server *s, const struct sockaddr *addr, int v6)
{
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC |
	                 MHD_USE_ERROR_LOG;
	if (v6)
		flags |= MHD_USE_IPv6;
	if (!(s->jobs = serve_jobs_start(s->lim.workers)))
		return NULL;
	if (!(s->conns = serve_conns_start(&s->lim))) {
		serve_jobs_stop(s->jobs);
		return NULL;
	}
	s->st.extra_metrics = http_metrics;
	s->st.extra_ctx = s;
	/* the logger first: libmicrohttpd complains (on stderr, by itself) of
	 * one that comes after other options */
	struct MHD_Daemon *d = MHD_start_daemon(
		flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
		MHD_OPTION_SOCK_ADDR, addr, MHD_OPTION_THREAD_POOL_SIZE, s->lim.threads,
		MHD_OPTION_CONNECTION_TIMEOUT, s->lim.timeout, MHD_OPTION_CONNECTION_LIMIT,
		s->lim.max_conns,
		MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, s->conns, MHD_OPTION_END);
	if (!d) {
		s->st.extra_metrics = NULL;
		serve_conns_stop(s->conns);
		serve_jobs_stop(s->jobs);
		s->conns = NULL;
		s->jobs = NULL;
	}
	return d;
}

/* Wait (30 s at most) until `*count` (under s->mu) is 0. */
static void wait_zero(serve_server *s, const unsigned *count)
{
	for (int i = 0; i < 3000; i++) {
		pthread_mutex_lock(&s->mu);
		unsigned n = *count;
		pthread_mutex_unlock(&s->mu);
		if (!n)
			return;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

void serve_http_drain(serve_server *s, struct MHD_Daemon *d)
{
	pthread_mutex_lock(&s->mu);
	s->draining = 1;
	pthread_mutex_unlock(&s->mu);
	MHD_socket lfd = MHD_quiesce_daemon(d);
	if (lfd != MHD_INVALID_SOCKET)
		close(lfd);
	/* exports end now (cut); a batch being stored is stored and answered */
	serve_stream_cancel_all();
	wait_zero(s, &s->inflight);
	/* every job left runs and resumes its connection: none stays
	 * suspended when the daemon stops */
	serve_jobs_stop(s->jobs);
	wait_zero(s, &s->exporters);
	MHD_stop_daemon(d);
	s->st.extra_metrics = NULL;
	serve_conns_stop(s->conns);
	serve_worker_stop(&s->st);
}
