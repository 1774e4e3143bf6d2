/*
 * cmd_serve.c — `h2emv serve`: the memory as a local HTTP service (JSON
 * over HTTP, libmicrohttpd) for robot stacks that are not C. This file
 * holds the options, the listening socket, authentication, limits, logging
 * and shutdown; serve_request.c parses, serve_handlers.c answers and
 * serve_worker.c builds in the background. docs/serve.md is the manual.
 */
#include <errno.h>
#include <getopt.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "tools/cli.h"
#include "tools/serve.h"

static const char help[] =
	"usage: h2emv serve [-m DIR] [--listen HOST:PORT] [--token-file FILE] [options]\n"
	"\n"
	"Serve the memory over HTTP, JSON in and out, so a robot stack in any language\n"
	"(a ROS 2 node, a Python script) can stream observations and ask questions.\n"
	"A builder runs in the background and folds observations into the tree as\n"
	"they arrive; questions are answered from the newest finished snapshot and\n"
	"never wait for it. Full manual: docs/serve.md; a Python client:\n"
	"docs/examples/robot_bridge.py.\n"
	"\n"
	"  -m, --mem DIR        the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --create         create the memory if it does not exist\n"
	"      --listen HOST:PORT  where to listen (default 127.0.0.1:7878; port 0 picks a\n"
	"                       free one). The first line on stdout says where it listens:\n"
	"                       \"listening on http://127.0.0.1:7878\"\n"
	"      --token-file FILE  require \"Authorization: Bearer TOKEN\" on every request,\n"
	"                       TOKEN being the file's first line. Without it anyone who\n"
	"                       can reach the port may read and write the memory, so an\n"
	"                       address beyond the loopback (0.0.0.0, ::, a LAN address)\n"
	"                       is refused without a token\n"
	"      --allow-host NAME  also answer requests whose Host is NAME (repeatable;\n"
	"                       127.0.0.1, localhost, [::1] and the --listen address\n"
	"                       always are). Any other Host gets 403: a web page cannot\n"
	"                       reach the server by DNS rebinding\n"
	"      --cors ORIGIN    let the web page at ORIGIN (http://host:port, as the\n"
	"                       browser sends it; repeatable) call the server: its\n"
	"                       preflight is answered and replies carry\n"
	"                       Access-Control-Allow-Origin. Other origins get 403\n"
	"      --max-body SIZE  largest request body (default 8M; 413 beyond)\n"
	"      --timeout SEC    close a connection idle this long (default 30)\n"
	"      --nightly HH:MM  when (UTC) to run gc and compaction every day, whatever\n"
	"                       is due (default 03:00); it yields to new observations\n"
	"      --idle SEC       run maintenance (gc, compaction when due) once no\n"
	"                       observation has come for this long (default 5)\n"
	"      --no-maintenance never run gc or compaction (forgetting still runs in\n"
	"                       every build)\n"
	"  -h, --help           this help\n"
	"\n"
	"Routes (every error is {\"error\":{\"code\":...,\"message\":...}}). A body must be\n"
	"sent as Content-Type: application/json (observations: also application/x-ndjson);\n"
	"any other type, a form's or text/plain, gets 415:\n"
	"  POST /v1/observations  JSON Lines or a JSON array of observations\n"
	"                         (docs/formats.md). Answers once they are on disk:\n"
	"                         {\"stored\",\"refused\",\"duplicates\",\"first_seq\",\n"
	"                         \"last_seq\",\"seqs\",\"errors\"}. Good lines are stored\n"
	"                         even when others are bad (422 then, errors name each\n"
	"                         bad line). Give observations an \"id\" and a resend\n"
	"                         after a lost answer is not stored twice\n"
	"  POST /v1/ask           {\"question\":\"Where did you put the keys?\", \"at\"?,\n"
	"                         \"snapshot\"?, \"trace\"?}: what `h2emv ask --json` prints\n"
	"  POST /v1/say           {\"text\":\"...\"}: what `h2emv say --json` prints\n"
	"  POST /v1/feedback      {\"text\":\"You should always remember ...\"}: new rules\n"
	"  GET  /v1/rules         the rules in force\n"
	"  GET  /v1/snapshots     the snapshots and their pins\n"
	"  GET  /v1/tree?snapshot=SEQ&format=json|dot|html   the snapshot's export, as\n"
	"                         `h2emv export` writes it (newest snapshot by default)\n"
	"  GET  /v1/status        queue depth, build lag, newest snapshot, disk, maintenance\n"
	"  GET  /metrics          Prometheus text format\n"
	"\n"
	"Examples:\n"
	"  h2emv serve -m mem --create &\n"
	"  curl -s -H 'Content-Type: application/x-ndjson' --data-binary @day.jsonl \\\n"
	"       http://127.0.0.1:7878/v1/observations\n"
	"  curl -s -H 'Content-Type: application/json' \\\n"
	"       -d '{\"question\":\"Where did you put the knife?\"}' http://127.0.0.1:7878/v1/ask\n"
	"\n"
	"One line per request goes to stderr: method, path, status, milliseconds (never\n"
	"the token). SIGTERM or Ctrl-C stops it cleanly: no new requests, the ones in\n"
	"flight (a durable batch) finish and are answered, the builder stops after its\n"
	"next commit.\n"
	"\n"
	"exit status: 0 stopped by a signal, 2 error (memory, address in use), 64 usage error\n"
	"(also: an address beyond the loopback without --token-file).\n";

typedef struct server {
	serve_state st;
	serve_guard guard;
	const char *token; /* NULL: no authentication */
	size_t token_len;
	pthread_mutex_t mu;
	unsigned inflight;
	int draining;
} server;

typedef struct request {
	double t0;
	char method[16], path[160];
	int started;           /* past the first call (headers seen) */
	int answered;          /* a response is queued */
	int status;
	serve_route_id route;
	const char *cors;      /* the --cors origin it came from, or NULL */
	char *body;
	size_t len, cap;
	int too_big;
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
	return send_reply(c, r, &rep);
}

static const char *query_arg(void *ctx, const char *name)
{
	return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
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

/* The headers are in: refuse now what can be refused without the body.
 * Host and Origin come first, before anything else is said about the
 * server to a page that should not talk to it. */
static enum MHD_Result first_call(server *s, struct MHD_Connection *c, request *r,
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
		serve_err_set(&e, 413, "too_large", "the body is %s bytes; this server takes at most %zu (--max-body)",
		              cl, s->st.max_body);
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

static int take_data(server *s, request *r, const char *data, size_t n)
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

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
	server *s = cls;
	request *r = *con_cls;
	if (!r) {
		if (!(r = calloc(1, sizeof *r)))
			return MHD_NO;
		*con_cls = r;
		r->t0 = serve_now();
		snprintf(r->method, sizeof r->method, "%s", method);
		snprintf(r->path, sizeof r->path, "%s", url);
		clean_for_log(r->method);
		clean_for_log(r->path);
		pthread_mutex_lock(&s->mu);
		s->inflight++;
		pthread_mutex_unlock(&s->mu);
		return first_call(s, c, r, url, method);
	}
	if (r->answered) { /* refused at the headers: drop what follows */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (*upload_data_size) {
		int rc = take_data(s, r, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return rc ? MHD_NO : MHD_YES;
	}
	serve_err e;
	if (r->too_big) {
		serve_err_set(&e, 413, "too_large", "the body is over %zu bytes (--max-body)",
		              s->st.max_body);
		return send_error(c, r, &e, NULL);
	}
	if (serve_route_has_body(r->route) && r->len == 0) {
		serve_err_set(&e, 400, "empty_body", "%s %s needs a JSON body", r->method, r->path);
		return send_error(c, r, &e, NULL);
	}
	serve_reply rep;
	serve_handle(&rep, &s->st, r->route, r->body ? r->body : "", r->len, query_arg, c);
	return send_reply(c, r, &rep);
}

/* One log line per request, and the request's memory back. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
	server *s = cls;
	request *r = *con_cls;
	if (!r)
		return;
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
	pthread_mutex_unlock(&s->mu);
	free(r->body);
	free(r);
	*con_cls = NULL;
}

/* -------------------------------------------------------------- options -- */

/* "HOST:PORT", "[V6]:PORT" -> an address. */
static int resolve(struct addrinfo **out, const char *listen)
{
	char host[256];
	const char *colon = strrchr(listen, ':');
	if (!colon || colon == listen || !colon[1])
		return -1;
	size_t hl = (size_t)(colon - listen);
	const char *h = listen;
	if (listen[0] == '[' && colon[-1] == ']') {
		h++;
		hl -= 2;
	}
	if (hl == 0 || hl >= sizeof host)
		return -1;
	memcpy(host, h, hl);
	host[hl] = '\0';
	uint64_t port;
	if (cli_u64(&port, colon + 1) || port > 65535)
		return -1;
	struct addrinfo hints = { 0 };
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	return getaddrinfo(host, colon + 1, &hints, out) ? -1 : 0;
}

/* 127.0.0.0/8, ::1 or ::ffff:127.x: only this machine can connect. */
static int is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24 == 127;
	if (sa->sa_family != AF_INET6)
		return 0;
	const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

/* 0.0.0.0 or ::: every address of the machine, no name of its own. */
static int is_wildcard(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
	return sa->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

/* The host part of --listen as a Host header carries it ("[::1]" for an
 * IPv6 address) into `out`. */
static void listen_host(char *out, size_t cap, const char *listen)
{
	int n = (int)(strrchr(listen, ':') - listen);
	int bare_v6 = listen[0] != '[' && memchr(listen, ':', (size_t)n);
	snprintf(out, cap, "%s%.*s%s", bare_v6 ? "[" : "", n, listen, bare_v6 ? "]" : "");
}

/* The token: the file's first line, without trailing blanks. */
static char *read_token(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "h2emv serve: --token-file %s: %s\n", path, strerror(errno));
		return NULL;
	}
	char buf[4097];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	if (n == 0 || n >= 4096) {
		fprintf(stderr, "h2emv serve: --token-file %s: %s\n", path,
		        n ? "the token is over 4 KiB" : "the file holds no token");
		return NULL;
	}
	*len = n;
	return strdup(buf);
}

static int parse_hhmm(unsigned *out, const char *s)
{
	unsigned h, m;
	char extra;
	if (sscanf(s, "%2u:%2u%c", &h, &m, &extra) != 2 || h > 23 || m > 59)
		return -1;
	*out = h * 60 + m;
	return 0;
}

typedef struct serve_opts {
	const char *mem, *listen, *token_file;
	serve_guard guard; /* --allow-host, --cors */
	int create, maintenance;
	uint64_t max_body, timeout, idle;
	unsigned nightly;
} serve_opts;

static int parse_opts(serve_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "create", no_argument, NULL, 'C' },
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, 'T' },
		{ "max-body", required_argument, NULL, 'B' },
		{ "timeout", required_argument, NULL, 't' },
		{ "nightly", required_argument, NULL, 'N' },
		{ "idle", required_argument, NULL, 'I' },
		{ "no-maintenance", no_argument, NULL, 'M' },
		{ "allow-host", required_argument, NULL, 'H' },
		{ "cors", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	*o = (serve_opts){ .listen = "127.0.0.1:7878", .maintenance = 1, .max_body = 8u << 20,
		           .timeout = 30, .idle = 5, .nightly = 3 * 60 };
	/* the loopback's names are always the server's own */
	serve_guard_add_host(&o->guard, "127.0.0.1");
	serve_guard_add_host(&o->guard, "localhost");
	serve_guard_add_host(&o->guard, "[::1]");
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'm': o->mem = optarg; break;
		case 'C': o->create = 1; break;
		case 'l': o->listen = optarg; break;
		case 'T': o->token_file = optarg; break;
		case 'B':
			if (cli_size(&o->max_body, optarg) || o->max_body < 1024 ||
			    o->max_body > (1ull << 30))
				return cli_usage("serve", "--max-body takes a size from 1K to 1G, not '%s'",
				                 optarg);
			break;
		case 't':
			if (cli_u64(&o->timeout, optarg) || o->timeout == 0 || o->timeout > 3600)
				return cli_usage("serve", "--timeout takes seconds, 1 to 3600");
			break;
		case 'I':
			if (cli_u64(&o->idle, optarg) || o->idle > 86400)
				return cli_usage("serve", "--idle takes seconds, 0 to 86400");
			break;
		case 'N':
			if (parse_hhmm(&o->nightly, optarg))
				return cli_usage("serve", "--nightly takes HH:MM (UTC), not '%s'", optarg);
			break;
		case 'M': o->maintenance = 0; break;
		case 'H':
			if (!serve_host_name_valid(optarg))
				return cli_usage("serve", "--allow-host takes a host name or address without "
				                 "a port (robot.local, 192.168.1.5, [fe80::1]), not '%s'",
				                 optarg);
			if (serve_guard_add_host(&o->guard, optarg))
				return cli_usage("serve", "too many --allow-host names");
			break;
		case 'O':
			if (!serve_origin_valid(optarg))
				return cli_usage("serve", "--cors takes a web origin as the browser sends it "
				                 "(http://localhost:3000, https://dash.example), not '%s'",
				                 optarg);
			if (serve_guard_add_cors(&o->guard, optarg))
				return cli_usage("serve", "too many --cors origins");
			break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("serve", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("serve", "unexpected argument '%s'", argv[optind]);
	return -1;
}

/* Who may talk to the server: without a token only this machine (the
 * token is what stands between the memory and the network); the Host
 * names allowed are the loopback's, --allow-host's and the --listen
 * address (unless it is every address). EXIT_USAGE after saying why, or
 * -1 to go on. */
static int settle_access(serve_opts *o, const struct addrinfo *ai, const char *host)
{
	if (!o->token_file && !is_loopback(ai->ai_addr))
		return cli_usage("serve",
		                 "--listen %s without --token-file would let any machine that "
		                 "reaches the port read and write this memory: give --token-file "
		                 "FILE, or listen on 127.0.0.1",
		                 o->listen);
	if (!is_wildcard(ai->ai_addr) && serve_guard_add_host(&o->guard, host))
		return cli_usage("serve", "too many --allow-host names");
	return -1;
}

/* ---------------------------------------------------------------- serve -- */

/* libmicrohttpd's own complaints, marked as such. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	fputs("h2emv serve: libmicrohttpd: ", stderr);
	vfprintf(stderr, fmt, ap);
}

static struct MHD_Daemon *start_daemon(server *s, const struct addrinfo *ai, unsigned timeout)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
	                 MHD_USE_ITC | MHD_USE_ERROR_LOG;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the logger first: libmicrohttpd complains (on stderr, by itself) of
	 * one that comes after other options */
	return MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER,
	                        mhd_log, NULL, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
	                        MHD_OPTION_CONNECTION_TIMEOUT, timeout, MHD_OPTION_CONNECTION_LIMIT,
	                        256u, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
	                        MHD_OPTION_END);
}

/* Stop: refuse new work, let the requests in flight finish (a batch being
 * made durable is answered), then the daemon, then the builder. */
static void drain(server *s, struct MHD_Daemon *d)
{
	pthread_mutex_lock(&s->mu);
	s->draining = 1;
	pthread_mutex_unlock(&s->mu);
	MHD_socket lfd = MHD_quiesce_daemon(d);
	if (lfd != MHD_INVALID_SOCKET)
		close(lfd);
	for (int i = 0; i < 3000; i++) { /* 30 s at most */
		pthread_mutex_lock(&s->mu);
		unsigned n = s->inflight;
		pthread_mutex_unlock(&s->mu);
		if (!n)
			break;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	MHD_stop_daemon(d);
	serve_worker_stop(&s->st);
}

int cmd_serve(int argc, char **argv)
{
	serve_opts o;
	int st = parse_opts(&o, argc, argv);
	if (st >= 0)
		return st;
	struct addrinfo *ai;
	if (resolve(&ai, o.listen))
		return cli_usage("serve", "--listen takes HOST:PORT (127.0.0.1:7878, [::1]:7878), not '%s'",
		                 o.listen);
	char host[300];
	listen_host(host, sizeof host, o.listen);
	if ((st = settle_access(&o, ai, host)) >= 0) {
		freeaddrinfo(ai);
		return st;
	}
	server s = { 0 };
	s.guard = o.guard;
	int rc = EXIT_ERROR;
	char *token = NULL;
	if (o.token_file && !(token = read_token(o.token_file, &s.token_len))) {
		freeaddrinfo(ai);
		return EXIT_ERROR;
	}
	s.token = token;
	h2emv_mem *m = cli_open(cli_mem_dir(o.mem), o.create ? H2EMV_OPEN_CREATE : 0);
	if (!m)
		goto out_token;
	if (serve_state_init(&s.st, m) || pthread_mutex_init(&s.mu, NULL)) {
		fprintf(stderr, "h2emv serve: cannot set up threads\n");
		goto out_mem;
	}
	s.st.max_body = (size_t)o.max_body;
	s.st.idle_after = (unsigned)o.idle;
	s.st.nightly_min = o.nightly;
	s.st.maintenance = o.maintenance;
	/* signals go to this thread alone (sigwait below), none to the workers */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* the builder first: request threads read its state from the start */
	if (serve_worker_start(&s.st)) {
		fprintf(stderr, "h2emv serve: cannot start the builder\n");
		goto out_state;
	}
	errno = 0;
	struct MHD_Daemon *d = start_daemon(&s, ai, (unsigned)o.timeout);
	if (!d) {
		fprintf(stderr, "h2emv serve: cannot listen on %s: %s\n", o.listen,
		        errno ? strerror(errno) : "libmicrohttpd refused");
		serve_worker_stop(&s.st);
		goto out_state;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("listening on http://%s:%u\n", host, info ? info->port : 0);
	fflush(stdout);
	int sig = 0;
	sigwait(&sigs, &sig);
	fprintf(stderr, "h2emv serve: %s: finishing the requests in flight, then stopping\n",
	        sig == SIGINT ? "SIGINT" : "SIGTERM");
	drain(&s, d);
	fprintf(stderr, "h2emv serve: stopped (%llu observations received, %llu built, %llu "
	                "questions answered)\n",
	        (unsigned long long)s.st.obs_received, (unsigned long long)s.st.obs_built,
	        (unsigned long long)s.st.questions);
	rc = EXIT_OK;
out_state:
	serve_state_destroy(&s.st);
	pthread_mutex_destroy(&s.mu);
out_mem:
	h2emv_mem_close(m);
out_token:
	free(token);
	freeaddrinfo(ai);
	return rc;
}
