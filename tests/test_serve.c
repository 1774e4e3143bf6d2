/*
 * test_serve.c — `h2emv serve` for real: a server on an ephemeral port of
 * the loopback, every route with good and bad requests (bad JSON, missing
 * and unknown fields, unknown route, wrong method, too big, no token),
 * answers equal to the command line's, acknowledgements that are durable,
 * SIGTERM shutdown, and the Python example run against it; and what keeps
 * web pages out (Host, Origin, Content-Type, --cors, no open address
 * without a token). A server left by a failed test is killed (teardown,
 * and it dies with this program).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include <cmocka.h>
#include <jansson.h>

#include "h2emv.h"
#include "testutil.h"

#define SAMPLE H2EMV_TEST_DATA "/household-sample.jsonl"
#define BRIDGE H2EMV_TEST_DATA "/../../docs/examples/robot_bridge.py"

#include "serveutil.h"

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
	/* asked before anything was built is not a failure of the memory */
	assert_int_equal(geti(st, "questions", "not_ready"), 1);
	assert_int_equal(geti(st, "questions", "failed"), 0);
	json_decref(st);
	char *metrics;
	assert_int_equal(http(&metrics, &s, "GET", "/metrics", NULL, 0, NULL), 200);
	assert_non_null(strstr(metrics, "\nh2emv_questions_failed_total 0\n"));
	assert_non_null(strstr(metrics, "\nh2emv_questions_not_ready_total 1\n"));
	assert_non_null(strstr(metrics, "\nh2emv_questions_answered_total 0\n"));
	free(metrics);
	expect_error(&s, 400, "bad_json", "POST", "/v1/ask", "{\"question\":");
	assert_int_equal(http(&metrics, &s, "GET", "/metrics", NULL, 0, NULL), 200);
	assert_non_null(strstr(metrics, "\nh2emv_questions_failed_total 1\n"));
	free(metrics);
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
	/* libmicrohttpd had nothing to say (it once warned at every start
	 * that its logger was not the first option) */
	if (strstr(log, "libmicrohttpd"))
		fail_msg("libmicrohttpd complained: %s", log);
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
	pid_t parent = getpid();
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		die_with_parent(parent);
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
	track(child);
	close(fd[1]);
	/* stop once the stream is under way: after its third acknowledged
	 * batch, however long the machine takes to get there */
	FILE *acks = fdopen(fd[0], "r");
	assert_non_null(acks);
	long long seq, last = 0;
	for (int got = 0; got < 3; got++) {
		struct pollfd pfd = { fd[0], POLLIN, 0 };
		if (poll(&pfd, 1, 120 * 1000) != 1) /* a hang guard */
			fail_msg("no acknowledgement from the server in 120 s");
		if (fscanf(acks, "%lld", &seq) != 1)
			fail_msg("the client stopped after %d acknowledged batches", got);
		last = seq;
	}
	assert_int_equal(stop(&s), 0);
	assert_int_equal(tu_wait(child), 0);
	untrack(child);
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

/* ------------------------------------------------------ web pages -- */

#define FEEDBACK "{\"text\":\"You should always remember where the keys are.\"}"
#define ONE_OBS "{\"t\":\"2024-09-26T08:00:00Z\",\"note\":\"a\"}\n"

static void test_web_pages_can_neither_write_nor_read(void **state)
{
	server s;
	start(&s, "serve-web", "");
	/* the request: a page on a rebound name posting text/plain */
	expect_raw(&s, 403, "bad_host", "POST", "/v1/feedback", "rebind.attacker.example",
	           "Origin: http://attacker.example\r\nContent-Type: text/plain\r\n", FEEDBACK);
	/* each of its faults alone is refused */
	expect_raw(&s, 403, "bad_origin", "POST", "/v1/feedback", "127.0.0.1",
	           "Origin: http://attacker.example\r\nContent-Type: application/json\r\n", FEEDBACK);
	expect_raw(&s, 415, "unsupported_media_type", "POST", "/v1/feedback", "127.0.0.1",
	           "Content-Type: text/plain\r\n", FEEDBACK);
	/* a form (what curl -d sends), no type at all, NDJSON where it is no use */
	expect_raw(&s, 415, "unsupported_media_type", "POST", "/v1/feedback", "127.0.0.1",
	           "Content-Type: application/x-www-form-urlencoded\r\n", FEEDBACK);
	expect_raw(&s, 415, "unsupported_media_type", "POST", "/v1/say", "127.0.0.1", "",
	           "{\"text\":\"hello\"}");
	expect_raw(&s, 415, "unsupported_media_type", "POST", "/v1/ask", "127.0.0.1",
	           "Content-Type: application/x-ndjson\r\n", "{\"question\":\"Where?\"}");
	expect_raw(&s, 415, "unsupported_media_type", "POST", "/v1/observations", "127.0.0.1",
	           "Content-Type: text/plain\r\n", ONE_OBS);
	/* names that only begin or end like the server's */
	expect_raw(&s, 403, "bad_host", "POST", "/v1/feedback", "localhost.attacker.example",
	           "Content-Type: application/json\r\n", FEEDBACK);
	expect_raw(&s, 403, "bad_host", "POST", "/v1/feedback", "127.0.0.1.nip.io",
	           "Content-Type: application/json\r\n", FEEDBACK);
	expect_raw(&s, 403, "bad_host", "POST", "/v1/feedback", "[::1]x",
	           "Content-Type: application/json\r\n", FEEDBACK);
	expect_raw(&s, 403, "bad_host", "POST", "/v1/feedback", NULL,
	           "Content-Type: application/json\r\n", FEEDBACK);
	expect_raw(&s, 403, "bad_origin", "POST", "/v1/feedback", "127.0.0.1",
	           "Origin: null\r\nContent-Type: application/json\r\n", FEEDBACK);
	/* reading is refused too: a rebound page could read the tree */
	expect_raw(&s, 403, "bad_host", "GET", "/v1/tree", "rebind.attacker.example", "", NULL);
	expect_raw(&s, 403, "bad_origin", "GET", "/v1/status", "127.0.0.1",
	           "Origin: http://attacker.example\r\n", NULL);
	expect_raw(&s, 403, "bad_origin", "OPTIONS", "/v1/feedback", "127.0.0.1",
	           "Origin: http://attacker.example\r\nAccess-Control-Request-Method: POST\r\n",
	           NULL);
	/* none of it wrote anything */
	json_t *r = call(&s, 200, "GET", "/v1/rules", NULL);
	assert_int_equal(geti(r, "version", NULL), 0);
	json_decref(r);
	r = call(&s, 200, "GET", "/v1/status", NULL);
	assert_int_equal(geti(r, "observations", "last_seq"), 0);
	json_decref(r);
	/* the server's own names (any port, any case), a page it served itself,
	 * and JSON with a charset are what a right request looks like */
	char *host = tu_fmt("localhost:%u", s.port);
	char *extra = tu_fmt("Origin: http://127.0.0.1:%u\r\n"
	                     "Content-Type: application/json; charset=utf-8\r\n", s.port);
	char *head, *out;
	assert_int_equal(raw(&head, &out, &s, "POST", "/v1/feedback", host, extra, FEEDBACK), 200);
	assert_null(strstr(head, "Access-Control-Allow-Origin"));
	free(head);
	free(out);
	r = call(&s, 200, "GET", "/v1/rules", NULL);
	assert_int_equal(geti(r, "version", NULL), 1);
	json_decref(r);
	assert_int_equal(raw(NULL, &out, &s, "POST", "/v1/observations", "[::1]:9000",
	                     "Content-Type: Application/X-NDJSON\r\n", ONE_OBS),
	                 200);
	free(out);
	assert_int_equal(raw(NULL, &out, &s, "GET", "/v1/status", "LOCALHOST", "", NULL), 200);
	free(out);
	assert_int_equal(stop(&s), 0);
	char *log = tu_read_file(s.log, NULL);
	assert_non_null(log);
	assert_non_null(strstr(log, "POST /v1/feedback 403 "));
	assert_non_null(strstr(log, "POST /v1/feedback 415 "));
	assert_non_null(strstr(log, "POST /v1/feedback 200 "));
	free(log);
	free(host);
	free(extra);
	cleanup(&s);
}

static void test_cors_lets_the_named_origin_in(void **state)
{
	server s;
	start(&s, "serve-cors", "--cors http://localhost:3000 --allow-host robot.local");
	const char *page = "Origin: http://localhost:3000\r\n";
	char *head, *out;
	/* the browser's preflight, then the request it allows */
	assert_int_equal(raw(&head, &out, &s, "OPTIONS", "/v1/ask", "127.0.0.1",
	                     "Origin: http://localhost:3000\r\nAccess-Control-Request-Method: POST\r\n"
	                     "Access-Control-Request-Headers: content-type\r\n",
	                     NULL),
	                 204);
	assert_non_null(strstr(head, "Access-Control-Allow-Origin: http://localhost:3000\r\n"));
	assert_non_null(strstr(head, "Access-Control-Allow-Methods: POST"));
	assert_non_null(strstr(head, "Access-Control-Allow-Headers: Authorization, Content-Type\r\n"));
	free(head);
	free(out);
	char *extra = tu_fmt("%sContent-Type: application/json\r\n", page);
	assert_int_equal(raw(&head, &out, &s, "POST", "/v1/ask", "127.0.0.1", extra,
	                     "{\"question\":\"Where are the keys?\"}"),
	                 409);
	assert_non_null(strstr(head, "Access-Control-Allow-Origin: http://localhost:3000\r\n"));
	free(head);
	free(out);
	assert_int_equal(raw(&head, &out, &s, "GET", "/v1/status", "127.0.0.1", page, NULL), 200);
	assert_non_null(strstr(head, "Access-Control-Allow-Origin: http://localhost:3000\r\n"));
	free(head);
	free(out);
	/* the allowed page still sends JSON, as every client must */
	expect_raw(&s, 415, "unsupported_media_type", "POST", "/v1/feedback", "127.0.0.1",
	           "Origin: http://localhost:3000\r\nContent-Type: text/plain\r\n", FEEDBACK);
	/* other pages are not let in; another port of the loopback is the
	 * server's own name but gets no CORS answer, so a browser keeps it out */
	expect_raw(&s, 403, "bad_origin", "OPTIONS", "/v1/ask", "127.0.0.1",
	           "Origin: http://attacker.example\r\n", NULL);
	expect_raw(&s, 403, "bad_origin", "POST", "/v1/ask", "127.0.0.1",
	           "Origin: http://localhost.attacker.example:3000\r\n"
	           "Content-Type: application/json\r\n",
	           "{\"question\":\"Where are the keys?\"}");
	assert_int_equal(raw(&head, &out, &s, "OPTIONS", "/v1/ask", "127.0.0.1",
	                     "Origin: http://localhost:3001\r\n", NULL),
	                 204);
	assert_null(strstr(head, "Access-Control-Allow-Origin"));
	free(head);
	free(out);
	/* --allow-host: that name, with any port */
	assert_int_equal(raw(NULL, &out, &s, "GET", "/v1/status", "robot.local:7878", "", NULL), 200);
	free(out);
	expect_raw(&s, 403, "bad_host", "GET", "/v1/status", "robot.local.attacker.example", "",
	           NULL);
	expect_raw(&s, 404, "not_found", "OPTIONS", "/v2/nothing", "127.0.0.1", page, NULL);
	assert_int_equal(stop(&s), 0);
	free(extra);
	cleanup(&s);
}

static void test_open_address_needs_a_token(void **state)
{
	char *dir = tu_tmpdir("serve-open");
	char *mem = tu_fmt("%s/mem", dir), *errlog = tu_fmt("%s/err.log", dir);
	const char *open_addrs[] = { "0.0.0.0:0", "[::]:0" };
	for (size_t i = 0; i < 2; i++) {
		const char *args[] = { "serve", "-m", mem, "--create", "--listen", open_addrs[i], NULL };
		pid_t pid = tu_cli_spawn(args, errlog, 0, 60); /* today's code listened for good */
		track(pid);
		int st = tu_wait(pid);
		untrack(pid);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 64)
			fail_msg("serve --listen %s without a token: wait status %#x, not exit 64",
			         open_addrs[i], st);
	}
	char *err = tu_read_file(errlog, NULL);
	assert_non_null(err);
	assert_non_null(strstr(err, "--listen 0.0.0.0:0 without --token-file"));
	assert_non_null(strstr(err, "--listen [::]:0 without --token-file"));
	free(err);
	/* with a token it serves, and a client on the loopback gets in */
	char *tokfile = tu_fmt("%s/token", dir);
	FILE *f = fopen(tokfile, "w");
	assert_non_null(f);
	fputs("open-sesame-1234\n", f);
	assert_int_equal(fclose(f), 0);
	char *extra = tu_fmt("--listen 0.0.0.0:0 --token-file %s", tokfile);
	server s;
	start(&s, "serve-open-token", extra);
	char *out;
	assert_int_equal(http(&out, &s, "GET", "/v1/status", NULL, 0,
	                      "Authorization: Bearer open-sesame-1234"),
	                 200);
	free(out);
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
	tu_rmrf(dir);
	free(dir);
	free(mem);
	free(errlog);
	free(tokfile);
	free(extra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_observations_are_acknowledged_and_built, teardown),
		cmocka_unit_test_teardown(test_every_route_answers_and_ask_equals_the_cli, teardown),
		cmocka_unit_test_teardown(test_token_is_required_and_never_logged, teardown),
		cmocka_unit_test_teardown(test_sigterm_during_ingest_keeps_every_acknowledged_batch,
		                          teardown),
		cmocka_unit_test_teardown(test_web_pages_can_neither_write_nor_read, teardown),
		cmocka_unit_test_teardown(test_cors_lets_the_named_origin_in, teardown),
		cmocka_unit_test_teardown(test_open_address_needs_a_token, teardown),
	};
	/* and whatever a teardown could not reach, when this program ends */
	atexit(kill_leftovers);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
