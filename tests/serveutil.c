/*
 * serveutil.c — what the tests of `h2emv serve` share (test_serve.c,
 * test_serve_edges.c): a server on an ephemeral port of the loopback,
 * killed if a test fails, and plain-socket HTTP clients.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strcasestr */
#endif
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cmocka.h>
#include <jansson.h>

#include "h2emv.h"
#include "testutil.h"
#include "serveutil.h"

#define SAMPLE H2EMV_TEST_DATA "/household-sample.jsonl"

/* Servers (and clients) started and not yet waited for: a failed assertion
 * leaves its test before stop(), so the teardown kills what is left. */
static pid_t live[8];

void track(pid_t pid)
{
	for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
		if (!live[i]) {
			live[i] = pid;
			return;
		}
	fail_msg("more than %zu children at once", sizeof live / sizeof live[0]);
}

void untrack(pid_t pid)
{
	for (size_t i = 0; i < sizeof live / sizeof live[0]; i++)
		if (live[i] == pid)
			live[i] = 0;
}

/* SIGTERM first (a server stops cleanly, its guard process reaping the
 * command), SIGKILL after 10 s. */
void kill_leftovers(void)
{
	for (size_t i = 0; i < sizeof live / sizeof live[0]; i++) {
		if (live[i] <= 0)
			continue;
		kill(live[i], SIGTERM);
		int waited = 0;
		for (int k = 0; k < 1000 && !waited; k++) {
			waited = waitpid(live[i], NULL, WNOHANG) == live[i];
			if (!waited)
				usleep(10000);
		}
		if (!waited) {
			kill(live[i], SIGKILL);
			waitpid(live[i], NULL, 0);
		}
		live[i] = 0;
	}
}

int teardown(void **state)
{
	kill_leftovers();
	return 0;
}

/* In a forked child: die with this program, whatever ends it (a crash, a
 * ctest timeout), so no server outlives the test. */
void die_with_parent(pid_t parent)
{
	tu_child_default_signals();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
}

/* Start `h2emv serve` on 127.0.0.1:0 with `extra` options (a --listen
 * there wins: clients still connect to 127.0.0.1); read the port from its
 * first line of output. */
void start(server *s, const char *tag, const char *extra)
{
	s->dir = tu_tmpdir(tag);
	s->log = tu_fmt("%s/serve.log", s->dir);
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t parent = getpid();
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		die_with_parent(parent);
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		char *cmd = tu_fmt("exec %s serve -m %s/mem --create --listen 127.0.0.1:0 %s 2>%s",
		                   H2EMV_CLI, s->dir, extra, s->log);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	track(s->pid);
	close(fd[1]);
	FILE *f = fdopen(fd[0], "r");
	char line[256] = "";
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	const char *colon = strrchr(line, ':');
	if (strncmp(line, "listening on http://", 20) || !colon ||
	    sscanf(colon, ":%u", &s->port) != 1)
		fail_msg("serve said: %s", line);
	assert_true(s->port > 0);
}

/* SIGTERM; the exit status. The deadline is only a guard against a hang. */
int stop(server *s)
{
	kill(s->pid, SIGTERM);
	int st = -1;
	for (int i = 0; i < 6000; i++) { /* 60 s */
		if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
			untrack(s->pid);
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		}
		usleep(10000);
	}
	fail_msg("serve did not stop within 60 s of SIGTERM"); /* the teardown kills it */
	return -1;
}

void cleanup(server *s)
{
	tu_rmrf(s->dir);
	free(s->dir);
	free(s->log);
}

/* Send all of `p`; errors are left to the read that follows (a server
 * may answer early, e.g. 413, and close). */
static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k <= 0)
			return;
		p += k;
		n -= (size_t)k;
	}
}

/* The body of a chunked answer (RFC 9112 7.1), decoded; malloc'd; NULL
 * when it is cut or malformed. */
static char *unchunk(const char *p)
{
	size_t n = 0, cap = strlen(p) + 1;
	char *out = malloc(cap);
	for (;;) {
		char *end;
		unsigned long k = strtoul(p, &end, 16);
		const char *crlf = strstr(end, "\r\n");
		if (!out || end == p || !crlf || strlen(crlf + 2) < k + 2) {
			free(out);
			return NULL;
		}
		if (k == 0)
			break;
		memcpy(out + n, crlf + 2, k);
		n += k;
		p = crlf + 2 + k + 2;
	}
	out[n] = '\0';
	return out;
}

/* One request over a fresh connection (plain sockets, as a robot's client
 * might be): `head` is the request line and headers, each line ending in
 * CRLF, without Content-Length and the blank line. *head_out (when not
 * NULL) gets the answer's status line and headers, *body_out its body
 * (both malloc'd). Returns the status, or -1 when there is no answer. */
long http_raw(char **head_out, char **body_out, unsigned port, const char *head,
                     const char *body, size_t len)
{
	*body_out = NULL;
	if (head_out)
		*head_out = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a = { 0 };
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	struct timeval tv = { 120, 0 }; /* a hang guard */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
		close(fd);
		return -1;
	}
	char *req = tu_fmt("%sConnection: close\r\nContent-Length: %zu\r\n\r\n", head, len);
	send_all(fd, req, strlen(req));
	free(req);
	if (len)
		send_all(fd, body, len);
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t k;
	while (buf && (k = recv(fd, buf + n, cap - n - 1, 0)) > 0) {
		n += (size_t)k;
		if (n + 1 == cap) {
			char *p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	close(fd);
	if (!buf)
		return -1;
	buf[n] = '\0';
	long status = -1;
	char *sep = strstr(buf, "\r\n\r\n");
	if (sscanf(buf, "HTTP/1.%*d %ld", &status) != 1 || !sep) {
		free(buf);
		return -1;
	}
	sep[2] = '\0';
	*body_out = strcasestr(buf, "\r\nTransfer-Encoding: chunked\r\n") ? unchunk(sep + 4)
	                                                                  : strdup(sep + 4);
	if (head_out && *body_out)
		*head_out = strdup(buf);
	free(buf);
	return *body_out && (!head_out || *head_out) ? status : -1;
}

/* A request as a robot's client sends it: Host 127.0.0.1, a body as
 * application/json (JSON Lines to /v1/observations as
 * application/x-ndjson), and `auth`, a header line without its CRLF, or
 * NULL. */
long http_port(char **body_out, unsigned port, const char *method, const char *path,
                      const char *body, size_t len, const char *auth)
{
	const char *type = "";
	if (!strcmp(method, "POST"))
		type = strcmp(path, "/v1/observations") || (body && body[0] == '[')
		               ? "Content-Type: application/json\r\n"
		               : "Content-Type: application/x-ndjson\r\n";
	char *head = tu_fmt("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s", method, path, type,
	                    auth ? auth : "", auth ? "\r\n" : "");
	long st = http_raw(NULL, body_out, port, head, body, len);
	free(head);
	return st;
}

long http(char **body_out, const server *s, const char *method, const char *path,
                 const char *body, size_t len, const char *auth)
{
	long st = http_port(body_out, s->port, method, path, body, len, auth);
	if (st < 0)
		fail_msg("%s %s: no answer", method, path);
	return st;
}

json_t *parse(const char *text)
{
	json_error_t je;
	json_t *v = json_loads(text, 0, &je);
	if (!v)
		fail_msg("not JSON (%s): %s", je.text, text);
	return v;
}

/* Send a request expecting `status`; the answer as JSON. */
json_t *call(const server *s, long status, const char *method, const char *path,
                    const char *body)
{
	char *out;
	long got = http(&out, s, method, path, body, body ? strlen(body) : 0, NULL);
	if (got != status)
		fail_msg("%s %s: %ld, not %ld: %s", method, path, got, status, out);
	json_t *v = parse(out);
	free(out);
	return v;
}

/* An error answer with `status` and `code`. */
void expect_error(const server *s, long status, const char *code, const char *method,
                         const char *path, const char *body)
{
	json_t *v = call(s, status, method, path, body);
	const char *got = json_string_value(json_object_get(json_object_get(v, "error"), "code"));
	const char *msg =
		json_string_value(json_object_get(json_object_get(v, "error"), "message"));
	assert_non_null(got);
	assert_non_null(msg);
	assert_true(strlen(msg) > 10);
	if (strcmp(got, code))
		fail_msg("%s %s: code %s, not %s (%s)", method, path, got, code, msg);
	json_decref(v);
}

json_int_t geti(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);
	if (b)
		v = json_object_get(v, b);
	if (!json_is_integer(v))
		fail_msg("no integer %s.%s", a, b ? b : "");
	return json_integer_value(v);
}

/* Until the builder has folded everything; the deadline only guards
 * against a hang. */
void wait_built(const server *s)
{
	time_t deadline = time(NULL) + 120;
	while (time(NULL) < deadline) {
		json_t *st = call(s, 200, "GET", "/v1/status", NULL);
		int done = geti(st, "lag", "observations") == 0 && geti(st, "newest_snapshot", "seq") > 0;
		json_decref(st);
		if (done)
			return;
		usleep(20000);
	}
	fail_msg("the builder did not catch up in 120 s");
}

char *sample(size_t *len)
{
	char *text = tu_read_file(SAMPLE, len);
	assert_non_null(text);
	return text;
}

/* A request with `host` (NULL: none, in HTTP/1.0) and `extra` header
 * lines (each ending in CRLF); the status, with *head_out (when not NULL)
 * and *body_out as http_raw gives them. */
long raw(char **head_out, char **body_out, const server *s, const char *method,
                const char *path, const char *host, const char *extra, const char *body)
{
	char *head = host ? tu_fmt("%s %s HTTP/1.1\r\nHost: %s\r\n%s", method, path, host, extra)
	                  : tu_fmt("%s %s HTTP/1.0\r\n%s", method, path, extra);
	long st = http_raw(head_out, body_out, s->port, head, body, body ? strlen(body) : 0);
	free(head);
	if (st < 0)
		fail_msg("%s %s (Host %s): no answer", method, path, host ? host : "none");
	return st;
}

/* A raw request refused with `status` and the JSON error `code`. */
void expect_raw(const server *s, long status, const char *code, const char *method,
                       const char *path, const char *host, const char *extra, const char *body)
{
	char *out;
	long got = raw(NULL, &out, s, method, path, host, extra, body);
	if (got != status)
		fail_msg("%s %s (Host %s, %s): %ld, not %ld: %s", method, path, host ? host : "none",
		         extra, got, status, out);
	json_t *v = parse(out);
	const char *c = json_string_value(json_object_get(json_object_get(v, "error"), "code"));
	if (!c || strcmp(c, code))
		fail_msg("%s %s (Host %s, %s): %s, not code %s", method, path, host ? host : "none",
		         extra, out, code);
	json_decref(v);
	free(out);
}

/* The value of a metric line "NAME VALUE" of /metrics (NAME with its
 * labels), or -1. */
double metric(const server *s, const char *name)
{
	char *text;
	long st = http(&text, s, "GET", "/metrics", NULL, 0, NULL);
	assert_int_equal(st, 200);
	double v = -1;
	size_t n = strlen(name);
	for (char *line = text; line && *line;) {
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = strtod(line + n + 1, NULL);
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	free(text);
	return v;
}
