/*
 * test_serve_edges.c — `h2emv serve` at its edges (issue 21, items 5-7,
 * ctest -L edges): slow clients (a thousand connections trickling their
 * headers do not shut out a normal client; a trickle of headers or of a
 * body is cut; one address cannot take every connection), the tree
 * streamed in chunks with a limit of exports at once (503 + Retry-After),
 * the small refusals (a question without a word, times out of range,
 * snapshot numbers out of range, two Content-Length), the bearer scheme in
 * any case, the token file's mode, the builder's wait on a full disk (and
 * its count of what it built, once), and
 * the OpenAPI description against the routes the server dispatches.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strcasestr */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <jansson.h>

#include "h2emv.h"
#include "testutil.h"
#include "serveutil.h"

/* ----------------------------------------------------------- sockets -- */

/* A connection to the server from the loopback address `src`
 * ("127.0.0.N"); -1 when it cannot be made. */
static int connect_from(const char *src, unsigned port, int rcvbuf)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	struct sockaddr_in a = { 0 };
	a.sin_family = AF_INET;
	if (src) {
		inet_pton(AF_INET, src, &a.sin_addr);
		if (bind(fd, (struct sockaddr *)&a, sizeof a)) {
			close(fd);
			return -1;
		}
	}
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void say(int fd, const char *s)
{
	(void)!send(fd, s, strlen(s), MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Whether the server closed `fd` (EOF or reset), waiting `ms` at most. */
static int closed_by_server(int fd, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	if (poll(&p, 1, ms) <= 0)
		return 0;
	char c;
	ssize_t k = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* As many descriptors as the hard limit allows; the soft limit now. */
static rlim_t raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 1024;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	getrlimit(RLIMIT_NOFILE, &rl);
	return rl.rlim_cur;
}

/* ------------------------------------------------------- slow clients -- */

#define SLOW_WANTED 1000
#define SLOW_PER_ADDRESS 25

static void test_a_normal_client_is_answered_beside_1000_slow_ones(void **state)
{
	rlim_t fds = raise_fd_limit();
	size_t n = SLOW_WANTED;
	if (fds < SLOW_WANTED + 200) {
		n = fds > 300 ? (size_t)fds - 200 : 100;
		fprintf(stderr, "the file descriptor limit (%llu) allows %zu slow connections, not "
		        "%d\n", (unsigned long long)fds, n, SLOW_WANTED);
	}
	server s;
	/* a header deadline long enough for every slow client to stay */
	start(&s, "edges-slow", "--header-timeout 120 --per-client 40");
	int *fd = calloc(n, sizeof *fd);
	assert_non_null(fd);
	size_t opened = 0;
	for (size_t i = 0; i < n; i++) {
		char src[32];
		snprintf(src, sizeof src, "127.0.%zu.%zu", 1 + i / SLOW_PER_ADDRESS / 250,
		         2 + i / SLOW_PER_ADDRESS % 250);
		fd[i] = connect_from(src, s.port, 0);
		if (fd[i] < 0)
			fail_msg("slow connection %zu of %zu from %s: %s", i, n, src, strerror(errno));
		say(fd[i], "GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		opened++;
	}
	/* each sends one more header line, and never the blank line */
	for (size_t i = 0; i < n; i++)
		say(fd[i], "X-Slow: 1\r\n");
	/* a normal client, from another address, is answered meanwhile */
	json_t *st = call(&s, 200, "GET", "/v1/status", NULL);
	json_decref(st);
	char *out;
	assert_int_equal(http(&out, &s, "POST", "/v1/observations",
	                      "{\"t\":\"2024-09-26T08:00:00Z\",\"note\":\"a\"}\n", 39, NULL),
	                 200);
	free(out);
	size_t closed = 0;
	for (size_t i = 0; i < n; i++)
		closed += closed_by_server(fd[i], 0);
	if (closed)
		fail_msg("%zu of the %zu slow connections were closed", closed, n);
	assert_true(metric(&s, "h2emv_http_connections") >= (double)n);
	/* one address cannot take more than --per-client connections */
	int more[60];
	size_t refused = 0;
	for (size_t i = 0; i < 60; i++) {
		more[i] = connect_from("127.0.0.250", s.port, 0);
		assert_true(more[i] >= 0);
	}
	/* until the server has taken all 60 (a guard of 10 s, not a speed) */
	for (int k = 0; k < 100 && metric(&s, "h2emv_http_connections_refused_total") < 20; k++)
		usleep(100 * 1000);
	for (size_t i = 0; i < 60; i++)
		refused += closed_by_server(more[i], i < 40 ? 0 : 2000);
	for (size_t i = 0; i < 60; i++)
		close(more[i]);
	if (refused != 20)
		fail_msg("%zu of 60 connections from one address were refused, not the 20 beyond "
		         "--per-client 40 (the server counts %.0f)",
		         refused, metric(&s, "h2emv_http_connections_refused_total"));
	fprintf(stderr, "%zu slow connections open; a normal client answered\n", opened);
	assert_int_equal(stop(&s), 0); /* with every slow connection open */
	for (size_t i = 0; i < n; i++)
		close(fd[i]);
	free(fd);
	cleanup(&s);
}

static void test_trickling_headers_and_bodies_are_cut(void **state)
{
	server s;
	start(&s, "edges-trickle", "--header-timeout 1 --min-rate 2000");
	enum { N = 20 };
	int fd[N + 1];
	for (int i = 0; i < N; i++) {
		fd[i] = connect_from(NULL, s.port, 0);
		assert_true(fd[i] >= 0);
		say(fd[i], "GET /v1/status HTTP/1.1\r\n");
	}
	/* a body of 100,000 bytes sent at 50 bytes a second */
	fd[N] = connect_from(NULL, s.port, 0);
	assert_true(fd[N] >= 0);
	say(fd[N], "POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
	           "Content-Length: 100000\r\n\r\n{\"question\":\"");
	/* every 100 ms a byte more, for 10 s at most: libmicrohttpd's idle
	 * timeout (--timeout, 30 s) alone never fires */
	int open = N + 1;
	int cut[N + 1] = { 0 };
	for (int round = 0; round < 100 && open; round++) {
		for (int i = 0; i <= N; i++) {
			if (cut[i])
				continue;
			if (closed_by_server(fd[i], 0)) {
				cut[i] = 1;
				open--;
				continue;
			}
			say(fd[i], i < N ? "X" : "aaaaa");
		}
		usleep(100 * 1000);
	}
	if (open)
		fail_msg("%d of %d trickling connections still open after 10 s (header deadline 1 s)",
		         open, N + 1);
	assert_true(metric(&s, "h2emv_http_slow_clients_cut_total{phase=\"headers\"}") >= N);
	assert_true(metric(&s, "h2emv_http_slow_clients_cut_total{phase=\"body\"}") >= 1);
	/* a normal client on a kept-alive connection is not cut between requests
	 * that come in time */
	json_decref(call(&s, 200, "GET", "/v1/status", NULL));
	for (int i = 0; i <= N; i++)
		close(fd[i]);
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
}

/* ---------------------------------------------------------------- tree -- */

/* A memory with a tree big enough to fill every buffer on the way (some
 * MB of export): a simulated history, ingested and built with the CLI. */
static void fill_big(const char *dir)
{
	char *out = NULL;
	int rc = tu_run(&out, "%s sim -n 40 -s 3 -q -o %s/h.jsonl && %s ingest -q -m %s/mem --create "
	                "%s/h.jsonl && %s build -q -m %s/mem >/dev/null",
	                H2EMV_CLI, dir, H2EMV_CLI, dir, dir, H2EMV_CLI, dir);
	free(out);
	assert_int_equal(rc, 0);
}

/* Read what is left on `fd` until the server closes it. */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
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
	assert_non_null(buf);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void test_tree_is_streamed_and_exports_are_limited(void **state)
{
	char *dir = tu_tmpdir("edges-tree");
	fill_big(dir);
	server s;
	char *opts = tu_fmt("-m %s/mem --max-exports 1", dir);
	start(&s, "edges-tree-srv", opts);
	free(opts);
	/* an export the client does not read yet (a small window) */
	int slow = connect_from(NULL, s.port, 4096);
	assert_true(slow >= 0);
	say(slow, "GET /v1/tree HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
	usleep(500 * 1000);
	char *head, *body;
	long st = raw(&head, &body, &s, "GET", "/v1/tree", "127.0.0.1", "", NULL);
	if (st != 503 || !strcasestr(head, "\r\nRetry-After: "))
		fail_msg("a second export beside one being sent: %ld, not 503 with Retry-After: %s%s",
		         st, head, body);
	free(head);
	free(body);
	assert_true(metric(&s, "h2emv_http_exports_refused_total") >= 1);
	/* the first one, read now, is whole, chunked, and what export writes */
	size_t n;
	char *resp = read_all(slow, &n);
	close(slow);
	char *sep = strstr(resp, "\r\n\r\n");
	assert_non_null(sep);
	*sep = '\0';
	if (!strcasestr(resp, "\r\nTransfer-Encoding: chunked"))
		fail_msg("not chunked: %s", resp);
	char *cli;
	assert_int_equal(tu_run(&cli, "%s export -m %s/mem -f json | md5sum", H2EMV_CLI, dir), 0);
	char *tmp = tu_fmt("%s/tree.json", dir);
	st = http(&body, &s, "GET", "/v1/tree", NULL, 0, NULL); /* and again: the slot is free */
	assert_int_equal(st, 200);
	FILE *f = fopen(tmp, "w");
	assert_non_null(f);
	fputs(body, f);
	fputs("\n", f); /* the command line ends its output with a newline */
	fclose(f);
	assert_true(strlen(body) > 1000000);
	char *got;
	assert_int_equal(tu_run(&got, "md5sum < %s", tmp), 0);
	assert_string_equal(got, cli);
	free(got);
	free(cli);
	free(tmp);
	free(body);
	free(resp);
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
	tu_rmrf(dir);
	free(dir);
}

/* ----------------------------------------------------------- disk full -- */

/* POST the lines of `path` in batches of 200 until one is refused;
 * the number stored. */
static long stream_until_refused(const server *s, const char *path)
{
	size_t len;
	char *text = tu_read_file(path, &len);
	assert_non_null(text);
	long stored = 0;
	for (char *p = text; *p;) {
		char *q = p;
		for (int k = 0; k < 200 && *q; k++) {
			char *nl = strchr(q, '\n');
			q = nl ? nl + 1 : q + strlen(q);
		}
		char *out;
		long st = http(&out, s, "POST", "/v1/observations", p, (size_t)(q - p), NULL);
		if (st == 200) {
			json_t *v = parse(out);
			stored += (long)geti(v, "stored", NULL);
			json_decref(v);
		}
		free(out);
		if (st != 200)
			break;
		p = q;
	}
	free(text);
	return stored;
}

static void test_builder_waits_for_space_and_resumes(void **state)
{
	char *dir = tu_tmpdir("edges-full");
	char *out;
	assert_int_equal(tu_run(&out, "%s sim -n 150 -s 3 -q -o %s/h.jsonl", H2EMV_CLI, dir), 0);
	free(out);
	/* the server may write 4 MB (RLIMIT_FSIZE, SIGXFSZ ignored): its
	 * store fills up as a disk does; run without the guard process so
	 * that its pid is the server's, whose limit is lifted later */
	struct rlimit old, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 4u << 20;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	void (*xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
	setenv("H2EMV_NO_GUARD", "1", 1);
	server s;
	start(&s, "edges-full-srv", "--no-maintenance");
	unsetenv("H2EMV_NO_GUARD");
	signal(SIGXFSZ, xfsz);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	char *hist = tu_fmt("%s/h.jsonl", dir);
	long stored = stream_until_refused(&s, hist);
	free(hist);
	/* the builder finds the disk full: it says so and waits, 1 s, 2 s,
	 * 4 s ... rather than trying every second (guards of 30 s) */
	int k = 0;
	while (k++ < 300 && metric(&s, "h2emv_disk_full") != 1)
		usleep(100 * 1000);
	assert_true(metric(&s, "h2emv_disk_full") == 1);
	json_t *st = call(&s, 200, "GET", "/v1/status", NULL);
	assert_string_equal(json_string_value(json_object_get(json_object_get(st, "maintenance"),
	                                                       "state")),
	                    "disk full: waiting for space");
	json_decref(st);
	double w0 = metric(&s, "h2emv_disk_full_waits_total");
	sleep(3); /* within 3 s of a failure: the retries at +1 s and +3 s at most */
	double w1 = metric(&s, "h2emv_disk_full_waits_total");
	if (w1 - w0 > 2)
		fail_msg("%.0f builds in 3 s on a full disk (waits of 1 s doubling allow 2)", w1 - w0);
	/* space comes back: the builder resumes by itself and counts each
	 * observation built once */
	assert_int_equal(prlimit(s.pid, RLIMIT_FSIZE, &old, NULL), 0);
	time_t deadline = time(NULL) + 90;
	while (time(NULL) < deadline && metric(&s, "h2emv_disk_full") != 0)
		usleep(200 * 1000);
	assert_true(metric(&s, "h2emv_disk_full") == 0);
	wait_built(&s);
	double received = metric(&s, "h2emv_observations_received_total");
	double built = metric(&s, "h2emv_observations_built_total");
	assert_true(received >= (double)stored);
	if (built != received)
		fail_msg("%.0f observations received, %.0f counted as built", received, built);
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_a_normal_client_is_answered_beside_1000_slow_ones,
		                          teardown),
		cmocka_unit_test_teardown(test_trickling_headers_and_bodies_are_cut, teardown),
		cmocka_unit_test_teardown(test_tree_is_streamed_and_exports_are_limited, teardown),
		cmocka_unit_test_teardown(test_builder_waits_for_space_and_resumes, teardown),
	};
	atexit(kill_leftovers);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
