/*
 * test_serve_small.c — the small edges of `h2emv serve` and `h2emv ask`
 * (issue 21, item 7; ctest -L edges): a question without a word, times out
 * of range, a snapshot number past 2^64, two Content-Length headers, the
 * bearer scheme in any case, a token file every user can read; and the
 * OpenAPI description (issue 23) against the routes the server dispatches.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strcasestr */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "h2emv.h"
#include "testutil.h"
#include "serveutil.h"
#include "tools/serve.h"

#define OPENAPI_DOC H2EMV_TEST_DATA "/../../docs/openapi.json"

/* ------------------------------------------------------- small items -- */

static void test_questions_and_times_out_of_range_are_refused(void **state)
{
	server s;
	start(&s, "edges-small", "");
	size_t len;
	char *text = sample(&len);
	char *out;
	assert_int_equal(http(&out, &s, "POST", "/v1/observations", text, len, NULL), 200);
	free(out);
	free(text);
	wait_built(&s);
	/* a question without a word: 400 here, exit 2 from the CLI */
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask", "{\"question\":\"?\"}");
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask", "{\"question\":\"  \"}");
	const char *mem = tu_fmt("%s/mem", s.dir);
	assert_int_equal(tu_run(&out, "%s ask -m %s '' 2>&1", H2EMV_CLI, mem), 2);
	assert_non_null(strstr(out, "no word"));
	free(out);
	assert_int_equal(tu_run(&out, "%s ask -m %s '?' 2>/dev/null", H2EMV_CLI, mem), 2);
	free(out);
	/* at: the epoch and a day 100,000,000 days on are refused, not ignored */
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask",
	             "{\"question\":\"Where is the cup?\",\"at\":\"1970-01-01\"}");
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask",
	             "{\"question\":\"Where is the cup?\",\"at\":\"+100000000d\"}");
	expect_error(&s, 400, "bad_field", "POST", "/v1/ask",
	             "{\"question\":\"Where is the cup?\",\"at\":253402300800000000}");
	json_decref(call(&s, 200, "POST", "/v1/ask",
	                 "{\"question\":\"Where is the cup?\",\"at\":\"+1d\"}"));
	/* the CLI reads --at as POST /v1/ask does: +DURATION too */
	assert_int_equal(tu_run(&out, "%s ask -m %s --at +1d -q 'Where is the cup?'", H2EMV_CLI,
	                        mem), 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s ask -m %s --at 1970-01-01 -q 'Where is the cup?' "
	                        "2>/dev/null", H2EMV_CLI, mem), 64);
	free(out);
	assert_int_equal(tu_run(&out, "%s ask -m %s --at +100000000d -q 'Where is the cup?' "
	                        "2>/dev/null", H2EMV_CLI, mem), 64);
	free(out);
	free((char *)mem);
	/* a snapshot number past 2^64 is refused, not clamped */
	expect_error(&s, 400, "bad_query", "GET", "/v1/tree?snapshot=99999999999999999999999",
	             NULL);
	/* two Content-Length headers: refused, whichever the body matches */
	expect_raw(&s, 400, "bad_request", "POST", "/v1/ask", "127.0.0.1",
	           "Content-Type: application/json\r\nContent-Length: 5\r\n",
	           "{\"question\":\"Where is the cup?\"}");
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
}

static void test_bearer_in_any_case_and_the_token_file_mode(void **state)
{
	char *dir = tu_tmpdir("edges-token");
	char *tok = tu_fmt("%s/token", dir), *open_tok = tu_fmt("%s/token-open", dir);
	FILE *f = fopen(tok, "w");
	assert_non_null(f);
	fputs("s3cret-t0ken\n", f);
	fclose(f);
	assert_int_equal(chmod(tok, 0600), 0);
	f = fopen(open_tok, "w");
	assert_non_null(f);
	fputs("s3cret-t0ken\n", f);
	fclose(f);
	assert_int_equal(chmod(open_tok, 0644), 0);
	server s;
	char *opt = tu_fmt("--token-file %s", tok);
	start(&s, "edges-token-srv", opt);
	free(opt);
	const char *good[] = { "Authorization: Bearer s3cret-t0ken", "authorization: bearer s3cret-t0ken",
		               "Authorization: BEARER  s3cret-t0ken" };
	for (size_t i = 0; i < 3; i++) {
		char *out;
		long st = http(&out, &s, "GET", "/v1/status", NULL, 0, good[i]);
		if (st != 200)
			fail_msg("'%s': %ld: %s", good[i], st, out);
		free(out);
	}
	const char *bad[] = { "Authorization: Basic s3cret-t0ken", "Authorization: Bearers3cret-t0ken",
		              "Authorization: Bearer s3cret-t0ke" };
	for (size_t i = 0; i < 3; i++) {
		char *out;
		long st = http(&out, &s, "GET", "/v1/status", NULL, 0, bad[i]);
		if (st != 401)
			fail_msg("'%s': %ld, not 401", bad[i], st);
		free(out);
	}
	assert_int_equal(stop(&s), 0);
	char *log = tu_read_file(s.log, NULL);
	assert_non_null(log);
	assert_null(strstr(log, "warning"));
	free(log);
	cleanup(&s);
	/* a token every user can read: said on stderr (the server still starts) */
	opt = tu_fmt("--token-file %s", open_tok);
	start(&s, "edges-token-srv2", opt);
	free(opt);
	assert_int_equal(stop(&s), 0);
	log = tu_read_file(s.log, NULL);
	assert_non_null(log);
	if (!strstr(log, "warning") || !strstr(log, "chmod 600"))
		fail_msg("no warning for a token file of mode 0644: %s", log);
	free(log);
	cleanup(&s);
	free(tok);
	free(open_tok);
	tu_rmrf(dir);
	free(dir);
}

/* ------------------------------------------------------------ OpenAPI -- */

/* `schema` with a $ref to #/components/schemas/NAME resolved. */
static json_t *resolve(json_t *doc, json_t *schema)
{
	const char *ref = json_string_value(json_object_get(schema, "$ref"));
	if (!ref)
		return schema;
	const char *name = strrchr(ref, '/');
	assert_non_null(name);
	json_t *t = json_object_get(json_object_get(json_object_get(doc, "components"), "schemas"),
	                            name + 1);
	if (!t)
		fail_msg("the description has no schema %s", ref);
	return t;
}

/* The answer's JSON has the fields its schema requires, at the top level. */
static void check_shape(json_t *doc, json_t *response, const char *body, const char *what)
{
	const char *ref = json_string_value(json_object_get(response, "$ref"));
	if (ref) /* #/components/responses/NAME */
		response = json_object_get(json_object_get(json_object_get(doc, "components"),
		                                           "responses"),
		                           strrchr(ref, '/') + 1);
	json_t *schema = json_object_get(
		json_object_get(json_object_get(response, "content"), "application/json"), "schema");
	if (!schema)
		return; /* not JSON (metrics, a tree in dot) */
	schema = resolve(doc, schema);
	json_t *v = parse(body);
	const char *type = json_string_value(json_object_get(schema, "type"));
	if (type && !strcmp(type, "object") && !json_is_object(v))
		fail_msg("%s: not an object: %s", what, body);
	size_t i;
	json_t *req;
	json_array_foreach(json_object_get(schema, "required"), i, req)
		if (!json_object_get(v, json_string_value(req)))
			fail_msg("%s: no field '%s' (the description requires it): %s", what,
			         json_string_value(req), body);
	json_decref(v);
}

/* The answer's Content-Type (its media type) is one its description
 * lists. */
static void check_type(json_t *doc, json_t *response, const char *head, const char *what)
{
	const char *ref = json_string_value(json_object_get(response, "$ref"));
	if (ref)
		response = json_object_get(json_object_get(json_object_get(doc, "components"),
		                                           "responses"),
		                           strrchr(ref, '/') + 1);
	json_t *content = json_object_get(response, "content");
	if (!content)
		return;
	const char *ct = strcasestr(head, "\r\nContent-Type: ");
	if (!ct)
		fail_msg("%s: no Content-Type: %s", what, head);
	ct += 16;
	size_t n = strcspn(ct, ";\r");
	const char *media;
	json_t *unused;
	json_object_foreach(content, media, unused)
		if (strlen(media) == n && !strncasecmp(ct, media, n))
			return;
	fail_msg("%s: Content-Type %.*s is not one the description lists", what, (int)n, ct);
}

static const char *example_body(const char *path)
{
	if (!strcmp(path, "/v1/observations"))
		return "{\"t\":\"2024-09-26T08:00:00Z\",\"note\":\"a\"}\n";
	if (!strcmp(path, "/v1/ask"))
		return "{\"question\":\"Where did you put the cup?\"}";
	if (!strcmp(path, "/v1/say"))
		return "{\"text\":\"hello\"}";
	return "{\"text\":\"You should always remember where the keys are.\"}";
}

static void test_openapi_describes_every_route(void **state)
{
	server s;
	start(&s, "edges-openapi", "");
	size_t len;
	char *text = sample(&len), *out;
	assert_int_equal(http(&out, &s, "POST", "/v1/observations", text, len, NULL), 200);
	free(out);
	free(text);
	wait_built(&s);
	char *file = tu_read_file(OPENAPI_DOC, NULL);
	assert_non_null(file);
	char *served;
	assert_int_equal(http(&served, &s, "GET", "/openapi.json", NULL, 0, NULL), 200);
	assert_string_equal(served, file); /* embedded as it is in the repository */
	free(served);
	assert_int_equal(http(&served, &s, "GET", "/v1/openapi.json", NULL, 0, NULL), 200);
	assert_string_equal(served, file);
	free(served);
	json_t *doc = parse(file);
	assert_non_null(strstr(json_string_value(json_object_get(doc, "openapi")), "3."));
	json_t *paths = json_object_get(doc, "paths");
	/* every route dispatched is described ... */
	for (size_t i = 0; i < serve_route_count(); i++) {
		const char *path, *method;
		serve_route_at(i, &path, &method);
		char lower[8];
		snprintf(lower, sizeof lower, "%s", method);
		for (char *p = lower; *p; p++)
			*p = (char)(*p | 0x20);
		if (!json_object_get(json_object_get(paths, path), lower))
			fail_msg("the route %s %s is not in docs/openapi.json", method, path);
	}
	/* ... and every operation described is a route, answered as described */
	const char *path;
	json_t *item;
	json_object_foreach(paths, path, item) {
		const char *m;
		json_t *op;
		json_object_foreach(item, m, op) {
			char upper[8];
			snprintf(upper, sizeof upper, "%s", m);
			for (char *p = upper; *p; p++)
				*p = (char)(*p & ~0x20);
			int found = 0;
			for (size_t i = 0; i < serve_route_count() && !found; i++) {
				const char *rp, *rm;
				serve_route_at(i, &rp, &rm);
				found = !strcmp(rp, path) && !strcmp(rm, upper);
			}
			if (!found)
				fail_msg("docs/openapi.json describes %s %s, which the server does not have",
				         upper, path);
			const char *body = strcmp(upper, "POST") ? NULL : example_body(path);
			const char *type = !body                                  ? ""
			                   : !strcmp(path, "/v1/observations") ? "Content-Type: application/x-ndjson\r\n"
			                                                       : "Content-Type: application/json\r\n";
			char *head;
			long st = raw(&head, &out, &s, upper, path, "127.0.0.1", type, body);
			char code[8];
			snprintf(code, sizeof code, "%ld", st);
			json_t *resp = json_object_get(json_object_get(op, "responses"), code);
			if (!resp)
				fail_msg("%s %s answered %ld, a status its description does not list: %s",
				         upper, path, st, out);
			char *what = tu_fmt("%s %s (%ld)", upper, path, st);
			check_type(doc, resp, head, what);
			check_shape(doc, resp, out, what);
			free(what);
			free(head);
			free(out);
		}
	}
	json_decref(doc);
	free(file);
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_questions_and_times_out_of_range_are_refused,
		                          teardown),
		cmocka_unit_test_teardown(test_bearer_in_any_case_and_the_token_file_mode, teardown),
		cmocka_unit_test_teardown(test_openapi_describes_every_route, teardown),
	};
	atexit(kill_leftovers);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
