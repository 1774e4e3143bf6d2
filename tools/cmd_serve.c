/*
 * cmd_serve.c — `h2emv serve`: the memory as a local HTTP service (JSON
 * over HTTP, libmicrohttpd) for robot stacks that are not C. This file
 * holds the options, the listening socket, authentication, limits, logging
 * and shutdown; serve_request.c parses, serve_handlers.c answers and
 * serve_worker.c builds in the background. docs/serve.md is the manual.
 */
#include <errno.h>
#include <stddef.h>
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "tools/cli.h"
#include "tools/serve_http.h"

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
	"      --header-timeout SEC  a request's headers must be in within SEC of the\n"
	"                       connection's opening (or its previous answer), and a\n"
	"                       body may then come no slower than --min-rate: else the\n"
	"                       connection is cut (default 10)\n"
	"      --min-rate BYTES  slowest body accepted, bytes a second (default 1024)\n"
	"      --per-client N   connections from one client address (default 64)\n"
	"      --max-connections N  connections at once (default 4096, less when the\n"
	"                       file descriptor limit is lower)\n"
	"      --max-exports N  GET /v1/tree exports streaming at once (default 2; 503\n"
	"                       with Retry-After beyond)\n"
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
	"  GET  /openapi.json     the OpenAPI description of these routes\n"
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
	struct stat sb;
	if (fstat(fileno(f), &sb) == 0 && (sb.st_mode & (S_IROTH | S_IWOTH)))
		fprintf(stderr,
		        "h2emv serve: warning: --token-file %s can be read by every user of this "
		        "machine (mode %04o): chmod 600 %s\n",
		        path, (unsigned)(sb.st_mode & 07777), path);
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
	uint64_t max_body, timeout, idle, header_timeout, min_rate, per_client, max_conns,
		max_exports;
	unsigned nightly;
} serve_opts;

/* The options that bound clients: a number within its range. */
static int limit_opt(serve_opts *o, int c, const char *arg)
{
	static const struct {
		int c;
		const char *name;
		uint64_t lo, hi;
		size_t off;
	} lims[] = {
		{ 'D', "--header-timeout", 1, 3600, offsetof(serve_opts, header_timeout) },
		{ 'R', "--min-rate", 0, 1u << 30, offsetof(serve_opts, min_rate) },
		{ 'P', "--per-client", 1, 1000000, offsetof(serve_opts, per_client) },
		{ 'X', "--max-connections", 1, 1000000, offsetof(serve_opts, max_conns) },
		{ 'E', "--max-exports", 1, 64, offsetof(serve_opts, max_exports) },
	};
	for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++) {
		if (lims[i].c != c)
			continue;
		uint64_t *v = (uint64_t *)((char *)o + lims[i].off);
		if (cli_u64(v, arg) || *v < lims[i].lo || *v > lims[i].hi) {
			cli_usage("serve", "%s takes a number from %llu to %llu, not '%s'", lims[i].name,
			          (unsigned long long)lims[i].lo, (unsigned long long)lims[i].hi, arg);
			return -1;
		}
	}
	return 0;
}

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
		{ "header-timeout", required_argument, NULL, 'D' },
		{ "min-rate", required_argument, NULL, 'R' },
		{ "per-client", required_argument, NULL, 'P' },
		{ "max-connections", required_argument, NULL, 'X' },
		{ "max-exports", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	*o = (serve_opts){ .listen = "127.0.0.1:7878", .maintenance = 1, .max_body = 8u << 20,
		           .timeout = 30, .idle = 5, .nightly = 3 * 60, .header_timeout = 10,
		           .min_rate = 1024, .per_client = 64, .max_conns = 4096, .max_exports = 2 };
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
		case 'D':
		case 'R':
		case 'P':
		case 'X':
		case 'E':
			if (limit_opt(o, c, optarg))
				return EXIT_USAGE;
			break;
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

/* The limits from the options. Connections are bounded by the file
 * descriptors this process may open (raised to the hard limit): the
 * memory, the threads and the listening socket keep 64 of them. */
static void set_limits(serve_limits *l, const serve_opts *o)
{
	struct rlimit rl;
	uint64_t fds = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		fds = rl.rlim_cur == RLIM_INFINITY ? 1u << 20 : rl.rlim_cur;
	}
	uint64_t conns = o->max_conns;
	if (conns + 64 > fds) {
		conns = fds > 128 ? fds - 64 : 64;
		if (conns < o->max_conns)
			fprintf(stderr, "h2emv serve: at most %llu connections (the limit of open files "
			        "is %llu)\n", (unsigned long long)conns, (unsigned long long)fds);
	}
	*l = (serve_limits){ .timeout = (unsigned)o->timeout,
		             .header_timeout = (unsigned)o->header_timeout,
		             .min_rate = (unsigned)o->min_rate,
		             .per_client = (unsigned)o->per_client,
		             .max_conns = (unsigned)conns,
		             .threads = 2,
		             .workers = 8,
		             .max_heavy = (unsigned)o->max_exports };
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
	serve_server s = { 0 };
	s.guard = o.guard;
	set_limits(&s.lim, &o);
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
	struct MHD_Daemon *d = serve_http_start(&s, ai->ai_addr, ai->ai_family == AF_INET6);
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
	serve_http_drain(&s, d);
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
