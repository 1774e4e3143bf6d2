/*
 * test_serve.c — `h2emv serve` for real: a server on an ephemeral port of
 * the loopback, every route with good and bad requests (bad JSON, missing
 * and unknown fields, unknown route, wrong method, too big, no token),
 * answers equal to the command line's, acknowledgements that are durable,
 * SIGTERM shutdown, and the Python example run against it.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

#define SAMPLE H2EMV_TEST_DATA "/household-sample.jsonl"
#define BRIDGE H2EMV_TEST_DATA "/../../docs/examples/robot_bridge.py"

typedef struct server {
	pid_t pid;
	unsigned port;
	char *dir, *log;
} server;

/* Start `h2emv serve` on 127.0.0.1:0 with `extra` options; read the port
 * from its first line of output. */
static void start(server *s, const char *tag, const char *extra)
{
	s->dir = tu_tmpdir(tag);
	s->log = tu_fmt("%s/serve.log", s->dir);
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		char *cmd = tu_fmt("exec %s serve -m %s/mem --create --listen 127.0.0.1:0 %s 2>%s",
		                   H2EMV_CLI, s->dir, extra, s->log);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	FILE *f = fdopen(fd[0], "r");
	char line[256] = "";
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_int_equal(sscanf(line, "listening on http://127.0.0.1:%u", &s->port), 1);
	assert_true(s->port > 0);
}

/* SIGTERM; the exit status. */
static int stop(server *s)
{
	kill(s->pid, SIGTERM);
	int st = -1;
	for (int i = 0; i < 1000; i++) { /* 10 s */
		if (waitpid(s->pid, &st, WNOHANG) == s->pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		usleep(10000);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &st, 0);
	fail_msg("serve did not stop within 10 s of SIGTERM");
	return -1;
}

static void cleanup(server *s)
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

/* One HTTP/1.1 request over a fresh connection (plain sockets, as a
 * robot's client might be); *body_out (malloc'd) gets the answer's body.
 * Returns the status, or -1 when there is no answer. */
static long http_port(char **body_out, unsigned port, const char *method, const char *path,
                      const char *body, size_t len, const char *auth)
{
	*body_out = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a = { 0 };
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	struct timeval tv = { 20, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
		close(fd);
		return -1;
	}
	char *head = tu_fmt("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s"
	                    "Content-Length: %zu\r\n\r\n",
	                    method, path, auth ? auth : "", auth ? "\r\n" : "", len);
	send_all(fd, head, strlen(head));
	free(head);
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
	if (sscanf(buf, "HTTP/1.1 %ld", &status) != 1 || !sep) {
		free(buf);
		return -1;
	}
	*body_out = strdup(sep + 4);
	free(buf);
	return *body_out ? status : -1;
}

static long http(char **body_out, const server *s, const char *method, const char *path,
                 const char *body, size_t len, const char *auth)
{
	long st = http_port(body_out, s->port, method, path, body, len, auth);
	if (st < 0)
		fail_msg("%s %s: no answer", method, path);
	return st;
}

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *v = json_loads(text, 0, &je);
	if (!v)
		fail_msg("not JSON (%s): %s", je.text, text);
	return v;
}

/* Send a request expecting `status`; the answer as JSON. */
static json_t *call(const server *s, long status, const char *method, const char *path,
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
static void expect_error(const server *s, long status, const char *code, const char *method,
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

static json_int_t geti(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);
	if (b)
		v = json_object_get(v, b);
	if (!json_is_integer(v))
		fail_msg("no integer %s.%s", a, b ? b : "");
	return json_integer_value(v);
}

static void wait_built(const server *s)
{
	for (int i = 0; i < 1000; i++) {
		json_t *st = call(s, 200, "GET", "/v1/status", NULL);
		int done = geti(st, "lag", "observations") == 0 && geti(st, "newest_snapshot", "seq") > 0;
		json_decref(st);
		if (done)
			return;
		usleep(20000);
	}
	fail_msg("the builder did not catch up in 20 s");
}

static char *sample(size_t *len)
{
	char *text = tu_read_file(SAMPLE, len);
	assert_non_null(text);
	return text;
}

static void test_observations_are_acknowledged_and_built(void **state)
{
	server s;
	start(&s, "serve-obs", "");
	expect_error(&s, 409, "nothing_built", "POST", "/v1/ask", "{\"question\":\"Where is it?\"}");
	size_t len;
	char *text = sample(&len);
	json_t *ack = call(&s, 200, "POST", "/v1/observations", text);
	assert_int_equal(geti(ack, "stored", NULL), 24);
	assert_int_equal(geti(ack, "first_seq", NULL), 1);
	assert_int_equal(geti(ack, "last_seq", NULL), 24);
	assert_int_equal(json_array_size(json_object_get(ack, "seqs")), 24);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(ack, "seqs"), 23)), 24);
	json_decref(ack);
	free(text);
	/* a bad line in the middle: the good ones are stored, the bad one named */
	ack = call(&s, 422, "POST", "/v1/observations",
	           "{\"t\":\"2024-09-26T08:00:00Z\",\"note\":\"a\"}\n"
	           "{\"t\":\"2024-09-26T08:00:01Z\",\"colour\":\"red\"}\n"
	           "\n"
	           "{\"t\":\"2099-01-01T00:00:00Z\",\"note\":\"a clock not yet set\"}\n"
	           "{\"t\":\"2024-09-26T08:00:02Z\",\"note\":\"b\"}\n");
	assert_int_equal(geti(ack, "stored", NULL), 2);
	assert_int_equal(geti(ack, "refused", NULL), 2);
	json_t *seqs = json_object_get(ack, "seqs");
	assert_int_equal(json_array_size(seqs), 4);
	assert_int_equal(json_integer_value(json_array_get(seqs, 0)), 25);
	assert_true(json_is_null(json_array_get(seqs, 1)));
	assert_true(json_is_null(json_array_get(seqs, 2)));
	assert_int_equal(json_integer_value(json_array_get(seqs, 3)), 26);
	json_t *e0 = json_array_get(json_object_get(ack, "errors"), 0);
	assert_int_equal(geti(e0, "line", NULL), 2);
	assert_string_equal(json_string_value(json_object_get(e0, "field")), "colour");
	json_t *e1 = json_array_get(json_object_get(ack, "errors"), 1);
	assert_int_equal(geti(e1, "line", NULL), 4); /* the clock discipline, as ingest says it */
	assert_string_equal(json_string_value(json_object_get(e1, "field")), "t");
	assert_non_null(strstr(json_string_value(json_object_get(e1, "message")), "line 4"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(ack, "error"), "code")),
	                    "bad_observations");
	json_decref(ack);
	/* a JSON array works too */
	ack = call(&s, 200, "POST", "/v1/observations",
	           "[{\"t\":\"2024-09-26T08:00:03Z\",\"note\":\"c\"},"
	           " {\"t\":\"2024-09-26T08:00:04Z\",\"note\":\"d\"}]");
	assert_int_equal(geti(ack, "first_seq", NULL), 27);
	assert_int_equal(geti(ack, "last_seq", NULL), 28);
	json_decref(ack);
	/* observation ids make a resend harmless: the second answer names the
	 * seqs the first stored; an id reused for other content is a bad line */
	const char *with_ids = "{\"t\":\"2024-09-26T08:00:05Z\",\"note\":\"e\",\"id\":\"r-1\"}\n"
	                       "{\"t\":\"2024-09-26T08:00:06Z\",\"note\":\"f\",\"id\":\"r-2\"}\n";
	for (int round = 0; round < 2; round++) {
		ack = call(&s, 200, "POST", "/v1/observations", with_ids);
		assert_int_equal(geti(ack, "stored", NULL), round ? 0 : 2);
		assert_int_equal(geti(ack, "duplicates", NULL), round ? 2 : 0);
		assert_int_equal(json_integer_value(json_array_get(json_object_get(ack, "seqs"), 0)), 29);
		assert_int_equal(json_integer_value(json_array_get(json_object_get(ack, "seqs"), 1)), 30);
		json_decref(ack);
	}
	ack = call(&s, 422, "POST", "/v1/observations",
	           "{\"t\":\"2024-09-26T08:00:07Z\",\"note\":\"g\",\"id\":\"r-3\"}\n"
	           "{\"t\":\"2024-09-26T08:00:08Z\",\"note\":\"other\",\"id\":\"r-1\"}\n");
	assert_int_equal(geti(ack, "stored", NULL), 1);
	assert_int_equal(geti(ack, "refused", NULL), 1);
	assert_string_equal(
		json_string_value(json_object_get(json_array_get(json_object_get(ack, "errors"), 0), "field")),
		"id");
	json_decref(ack);
	expect_error(&s, 400, "bad_json", "POST", "/v1/observations", "[{\"t\":");
	expect_error(&s, 400, "no_observations", "POST", "/v1/observations", "\n\n  \n");
	expect_error(&s, 400, "empty_body", "POST", "/v1/observations", "");
	wait_built(&s);
	json_t *st = call(&s, 200, "GET", "/v1/status", NULL);
	assert_int_equal(geti(st, "observations", "received"), 31);
	assert_int_equal(geti(st, "observations", "refused"), 3);
	assert_int_equal(geti(st, "observations", "build_cursor"), 31);
	assert_int_equal(geti(st, "queue_depth", NULL), 0);
	json_decref(st);
	assert_int_equal(stop(&s), 0);
	/* every acknowledged observation is in the memory */
	h2emv_mem *m;
	char *mem = tu_fmt("%s/mem", s.dir);
	assert_int_equal(h2emv_mem_open(&m, mem, NULL, NULL), H2EMV_OK);
	h2emv_stats hs;
	assert_int_equal(h2emv_mem_stats(&hs, m, NULL), H2EMV_OK);
	assert_int_equal(hs.obs_count, 31);
	h2emv_mem_close(m);
	free(mem);
	cleanup(&s);
}

static void test_every_route_answers_and_ask_equals_the_cli(void **state)
{
	server s;
	start(&s, "serve-routes", "--max-body 64K");
	size_t len;
	char *text = sample(&len);
	json_decref(call(&s, 200, "POST", "/v1/observations", text));
	free(text);
	wait_built(&s);
	/* the same object as `h2emv ask --json`, byte for byte */
	char *http_out, *cli_out;
	const char *q = "Where did you put the knife?";
	char *body = tu_fmt("{\"question\":\"%s\"}", q);
	assert_int_equal(http(&http_out, &s, "POST", "/v1/ask", body, strlen(body), NULL), 200);
	assert_int_equal(tu_run(&cli_out, "%s ask --json -m %s/mem '%s'", H2EMV_CLI, s.dir, q), 0);
	assert_string_equal(http_out, cli_out);
	assert_non_null(strstr(http_out, "sink"));
	free(http_out);
	free(cli_out);
	free(body);
	json_t *a = call(&s, 200, "POST", "/v1/ask",
	                 "{\"question\":\"Where did you put the knife?\",\"trace\":true,\"snapshot\":1}");
	assert_true(json_array_size(json_object_get(a, "trace")) > 0);
	json_decref(a);
	a = call(&s, 200, "POST", "/v1/ask",
	         "{\"question\":\"Where did you put the knife?\",\"at\":\"2030-01-01T00:00:00Z\"}");
	assert_int_equal(geti(a, "snapshot", NULL), 1);
	json_decref(a);
	json_t *r = call(&s, 200, "POST", "/v1/say", "{\"text\":\"Good morning!\"}");
	assert_string_equal(json_string_value(json_object_get(r, "route")), "reply");
	json_decref(r);
	/* say answers as `h2emv say --json` does */
	body = tu_fmt("{\"text\":\"%s\"}", q);
	assert_int_equal(http(&http_out, &s, "POST", "/v1/say", body, strlen(body), NULL), 200);
	assert_int_equal(tu_run(&cli_out, "%s say --json -m %s/mem '%s'", H2EMV_CLI, s.dir, q), 0);
	assert_string_equal(http_out, cli_out);
	assert_non_null(strstr(http_out, "\"route\":\"question\""));
	free(http_out);
	free(cli_out);
	free(body);
	r = call(&s, 200, "POST", "/v1/feedback",
	         "{\"text\":\"You should always remember where you put the keys.\"}");
	assert_int_equal(geti(r, "version", NULL), 1);
	json_decref(r);
	r = call(&s, 200, "GET", "/v1/rules", NULL);
	assert_int_equal(geti(r, "version", NULL), 1);
	assert_true(json_array_size(json_object_get(r, "items")) >= 2);
	json_decref(r);
	r = call(&s, 200, "GET", "/v1/snapshots", NULL);
	json_t *s0 = json_array_get(json_object_get(r, "snapshots"), 0);
	assert_int_equal(geti(s0, "seq", NULL), 1);
	assert_int_equal(geti(s0, "build_cursor", NULL), 24);
	json_decref(r);
	r = call(&s, 200, "GET", "/v1/tree?snapshot=1&format=json", NULL);
	assert_string_equal(json_string_value(json_object_get(r, "format")), "h2emv-export/1");
	assert_int_equal(geti(json_object_get(r, "snapshot"), "seq", NULL), 1);
	json_t *nodes = json_object_get(r, "nodes");
	assert_true(json_array_size(nodes) > 1);
	assert_int_equal((json_int_t)json_array_size(nodes), geti(r, "node_count", NULL));
	assert_string_equal(json_string_value(json_object_get(json_array_get(nodes, 0), "kind")),
	                    "root");
	json_decref(r);
	char *page;
	assert_int_equal(http(&page, &s, "GET", "/v1/tree?format=dot", NULL, 0, NULL), 200);
	assert_non_null(strstr(page, "digraph"));
	free(page);
	assert_int_equal(http(&page, &s, "GET", "/v1/tree?snapshot=1&format=html", NULL, 0, NULL),
	                 200);
	assert_non_null(strstr(page, "<html"));
	assert_non_null(strstr(page, "h2emv-export/1"));
	free(page);
	expect_error(&s, 404, "not_found", "GET", "/v1/tree?snapshot=999", NULL);
	expect_error(&s, 400, "bad_query", "GET", "/v1/tree?snapshot=abc", NULL);
	expect_error(&s, 400, "bad_query", "GET", "/v1/tree?format=pdf", NULL);
	/* errors: each names what is wrong */
	expect_error(&s, 404, "not_found", "GET", "/v2/nothing", NULL);
	expect_error(&s, 405, "method_not_allowed", "GET", "/v1/ask", NULL);
	expect_error(&s, 405, "method_not_allowed", "POST", "/v1/status", "{}");
	expect_error(&s, 400, "bad_json", "POST", "/v1/ask", "{\"question\":");
	expect_error(&s, 400, "bad_json", "POST", "/v1/ask", "[1,2]");
	expect_error(&s, 400, "missing_field", "POST", "/v1/ask", "{\"trace\":true}");
	expect_error(&s, 400, "unknown_field", "POST", "/v1/ask", "{\"question\":\"q\",\"when\":1}");
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask", "{\"question\":\"q\",\"at\":\"soon\"}");
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask",
	             "{\"question\":\"q\",\"at\":\"2024-09-23\",\"snapshot\":1}");
	expect_error(&s, 404, "not_found", "POST", "/v1/ask", "{\"question\":\"q\",\"snapshot\":99}");
	expect_error(&s, 400, "missing_field", "POST", "/v1/say", "{}");
	expect_error(&s, 400, "bad_field", "POST", "/v1/feedback", "{\"text\":7}");
	char *big = malloc(100 * 1024 + 1);
	assert_non_null(big);
	memset(big, ' ', 100 * 1024);
	big[100 * 1024] = '\0';
	char *out;
	assert_int_equal(http(&out, &s, "POST", "/v1/observations", big, 100 * 1024, NULL), 413);
	assert_non_null(strstr(out, "\"too_large\""));
	free(out);
	free(big);
	/* the metrics count what happened, in Prometheus' text format */
	assert_int_equal(http(&out, &s, "GET", "/metrics", NULL, 0, NULL), 200);
	assert_non_null(strstr(out, "\nh2emv_observations_received_total 24\n"));
	assert_non_null(strstr(out, "\nh2emv_observations_built_total 24\n"));
	assert_non_null(strstr(out, "\nh2emv_questions_answered_total 3\n"));
	assert_non_null(strstr(out, "\nh2emv_question_duration_seconds_count 3\n"));
	assert_non_null(strstr(out, "h2emv_question_duration_seconds_bucket{le=\"+Inf\"} 3\n"));
	assert_non_null(strstr(out, "# TYPE h2emv_disk_bytes gauge\n"));
	free(out);
	assert_int_equal(stop(&s), 0);
	/* one log line per request: method, path, status, time */
	char *log = tu_read_file(s.log, NULL);
	assert_non_null(log);
	assert_non_null(strstr(log, "POST /v1/ask 200 "));
	assert_non_null(strstr(log, "GET /v2/nothing 404 "));
	assert_non_null(strstr(log, "POST /v1/observations 413 "));
	free(log);
	cleanup(&s);
}

static void test_token_is_required_and_never_logged(void **state)
{
	char *dir = tu_tmpdir("serve-token");
	char *tokfile = tu_fmt("%s/token", dir);
	FILE *f = fopen(tokfile, "w");
	assert_non_null(f);
	fputs("s3cret-t0ken-xyz\n", f);
	fclose(f);
	char *extra = tu_fmt("--token-file %s", tokfile);
	server s;
	start(&s, "serve-auth", extra);
	char *out;
	assert_int_equal(http(&out, &s, "GET", "/v1/status", NULL, 0, NULL), 401);
	assert_non_null(strstr(out, "\"unauthorized\""));
	free(out);
	assert_int_equal(http(&out, &s, "GET", "/metrics", NULL, 0, "Authorization: Bearer wrong"),
	                 401);
	free(out);
	assert_int_equal(http(&out, &s, "GET", "/v1/status", NULL, 0,
	                      "Authorization: Bearer s3cret-t0ken-xy"),
	                 401);
	free(out);
	assert_int_equal(http(&out, &s, "POST", "/v1/ask", "{}", 2,
	                      "Authorization: Bearer s3cret-t0ken-xyzz"),
	                 401);
	free(out);
	assert_int_equal(
		http(&out, &s, "GET", "/v1/status", NULL, 0, "Authorization: Bearer s3cret-t0ken-xyz"),
		200);
	free(out);
	/* the Python example, with the token */
	char *py;
	int rc = tu_run(&py, "python3 %s --url http://127.0.0.1:%u --token-file %s 2>&1", BRIDGE,
	                s.port, tokfile);
	if (rc != 0)
		fail_msg("robot_bridge.py exited %d: %s", rc, py);
	assert_non_null(strstr(
		py, "streamed 12 observations in 3 batches (seqs 1..12), 0 refused, 0 already stored\n"));
	assert_non_null(strstr(py, "built: snapshot "));
	assert_non_null(strstr(py, "Q: Where did you put the keys?\nA: At the drawer"));
	assert_non_null(strstr(py, "Q: When did you last pick up the keys?\nA: At 2024/10/03"));
	free(py);
	/* run again: the ids it gives make the second run store nothing */
	rc = tu_run(&py, "python3 %s --url http://127.0.0.1:%u --token-file %s 2>&1", BRIDGE, s.port,
	            tokfile);
	if (rc != 0)
		fail_msg("robot_bridge.py exited %d: %s", rc, py);
	assert_non_null(strstr(
		py, "streamed 0 observations in 3 batches (nothing new), 0 refused, 12 already stored\n"));
	free(py);
	assert_int_equal(stop(&s), 0);
	char *log = tu_read_file(s.log, NULL);
	assert_non_null(log);
	assert_null(strstr(log, "s3cret"));
	assert_non_null(strstr(log, "GET /v1/status 401 "));
	assert_non_null(strstr(log, "POST /v1/ask 200 "));
	free(log);
	cleanup(&s);
	tu_rmrf(dir);
	free(dir);
	free(tokfile);
	free(extra);
}

static void test_sigterm_during_ingest_keeps_every_acknowledged_batch(void **state)
{
	server s;
	start(&s, "serve-term", "");
	/* a client streams batches in a child while the server is told to stop;
	 * it writes each acknowledged last seq to the pipe */
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		for (int b = 0; b < 1000; b++) {
			char body[4096], *p = body;
			for (int i = 0; i < 20; i++) {
				int k = b * 20 + i;
				p += sprintf(p, "{\"t\":\"2024-09-26T%02d:%02d:%02dZ\",\"note\":\"n%d\"}\n",
				             k / 3600 % 24, k / 60 % 60, k % 60, k);
			}
			char *out = NULL;
			long st = http_port(&out, s.port, "POST", "/v1/observations", body, strlen(body),
			                    NULL);
			/* print the acknowledged last seq; stop at the first refusal */
			json_t *v = st == 200 ? json_loads(out, 0, NULL) : NULL;
			free(out);
			if (!v)
				_exit(0);
			printf("%lld\n", (long long)json_integer_value(json_object_get(v, "last_seq")));
			fflush(stdout);
			json_decref(v);
		}
		_exit(0);
	}
	close(fd[1]);
	usleep(300 * 1000);
	assert_int_equal(stop(&s), 0);
	int st;
	waitpid(child, &st, 0);
	FILE *acks = fdopen(fd[0], "r");
	long long seq, last = 0;
	while (fscanf(acks, "%lld", &seq) == 1)
		last = seq;
	fclose(acks);
	char *log = tu_read_file(s.log, NULL);
	assert_non_null(log);
	assert_non_null(strstr(log, "SIGTERM: finishing the requests in flight"));
	assert_non_null(strstr(log, "stopped ("));
	free(log);
	/* what the server acknowledged is all in the memory */
	h2emv_mem *m;
	char *mem = tu_fmt("%s/mem", s.dir);
	assert_int_equal(h2emv_mem_open(&m, mem, NULL, NULL), H2EMV_OK);
	h2emv_stats hs;
	assert_int_equal(h2emv_mem_stats(&hs, m, NULL), H2EMV_OK);
	h2emv_mem_close(m);
	free(mem);
	assert_true(last > 0);
	assert_true(hs.obs_count >= (uint64_t)last);  /* nothing acknowledged is lost */
	assert_true(hs.obs_count <= (uint64_t)last + 20); /* at most the batch in flight */
	assert_int_equal(hs.obs_count % 20, 0); /* whole batches only */
	cleanup(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_observations_are_acknowledged_and_built),
		cmocka_unit_test(test_every_route_answers_and_ask_equals_the_cli),
		cmocka_unit_test(test_token_is_required_and_never_logged),
		cmocka_unit_test(test_sigterm_during_ingest_keeps_every_acknowledged_batch),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	return rc;
}
