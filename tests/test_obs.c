/*
 * test_obs.c — observations: JSON lines to stored bodies and back.
 * Pins down the canonical form, the round trip, every documented error
 * (status, field, column, message) and that hostile bodies are refused
 * without crashing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"
#include "api/base/utf8.h"

/* An ARMAR-7 style instant: nested action parameters with float lists, the
 * dotted skill stack, raw speech recognition, objects and relations. */
static const char armar_line[] =
	"{\"t\": \"2024-06-26T19:48:57.810898\", "
	"\"action\": {\"name\": \"ReachTcpPoseRelativeToObjectWithMP\", \"status\": \"Running\", "
	"\"args\": {\"parameters\": {\"accuracy\": 0.05000000074505806, \"hand\": \"right\", "
	"\"position\": {\"header\": {\"agent\": \"Armar7\", \"frame\": \"root\"}, "
	"\"position\": [[0.0], [1300.0], [1500.0]]}, \"keepInQueue\": true, \"status\": 0, "
	"\"disabledJoints\": [], \"target\": null}, \"trigger\": \"GUI->LoadDishwasher\"}}, "
	"\"goal\": \"LoadDishwasher.ReachTcpPoseRelativeToObjectWithMP.ExecuteTraj\", "
	"\"goal_status\": \"Running\", \"location\": \"kitchen\", "
	"\"speech\": {\"text\": \"please load the dishwasher\"}, "
	"\"objects\": [{\"id\": \"cup_0\", \"type\": \"cup\", \"state\": \"dirty\"}, "
	"{\"id\": \"dishwasher_0\", \"type\": \"dishwasher\", \"state\": null, "
	"\"relations\": [{\"to\": \"counter_0\", \"type\": \"left_of\"}]}], "
	"\"relations\": [[\"cup_0\", \"counter_0\", \"on\"]], \"persons\": [\"Anna\"]}";

/* A TEACh style step: speaker-tagged dialog and object states. */
static const char teach_line[] =
	"{\"t\":1719431337810898,\"t_end\":\"2024-06-26T19:49:03Z\","
	"\"action\":\"ToggleOn(StoveKnob|+00.70|+00.90|-01.00)\","
	"\"speech\":[{\"speaker\":\"Commander\",\"text\":\"hello please boil a potato\"},"
	"{\"speaker\":\"Driver\",\"text\":\"what can i do today\"}],"
	"\"objects\":[{\"id\":\"Potato|-01.50|+00.60|+02.10\",\"type\":\"Potato\","
	"\"state\":{\"isCooked\":true,\"simbotPickedUp\":1,\"distance\":1.25,"
	"\"simbotLastParentReceptacle\":\"Pot|-01.10|+00.90|-00.40\","
	"\"receptacleObjectIds\":[]}}],"
	"\"persons\":[{\"name\":\"Commander\",\"id\":\"agent0\"}],\"note\":\"edh0\"}";

/* ------------------------------------------------------------- helpers -- */

static void must_parse(eng_buf *body, const char *json)
{
	h2emv_error err = { 0 };
	int rc = obs_from_json(body, json, strlen(json), 1, &err);
	if (rc)
		fail_msg("%s", err.message);
}

static char *must_render(const eng_buf *body)
{
	char *json = NULL;
	size_t len = 0;
	h2emv_error err = { 0 };
	int rc = obs_to_json(&json, &len, body->data, body->len, &err);
	if (rc)
		fail_msg("%s", err.message);
	assert_int_equal(len, strlen(json));
	return json;
}

static void assert_same_body(const eng_buf *a, const eng_buf *b)
{
	assert_int_equal(a->len, b->len);
	assert_memory_equal(a->data, b->data, a->len);
}

/* Parse, render, parse again: the bodies are identical and rendering is
 * idempotent. Returns the canonical JSON. */
static char *round_trip(const char *json)
{
	eng_buf b1 = { 0 }, b2 = { 0 };
	must_parse(&b1, json);
	char *j1 = must_render(&b1);
	must_parse(&b2, j1);
	assert_same_body(&b1, &b2);
	char *j2 = must_render(&b2);
	assert_string_equal(j1, j2);
	assert_int_equal(obs_body_check(b1.data, b1.len, NULL), H2EMV_OK);
	free(j2);
	eng_buf_free(&b1);
	eng_buf_free(&b2);
	return j1;
}

/* Parse `json` expecting failure; returns the error. */
static h2emv_error parse_error(const char *json, size_t len, uint64_t line)
{
	eng_buf body = { 0 };
	h2emv_error err = { 0 };
	int rc = obs_from_json(&body, json, len, line, &err);
	if (rc == H2EMV_OK)
		fail_msg("accepted: %.200s", json);
	assert_int_equal(err.status, rc);
	assert_int_equal(err.line, line);
	assert_int_equal(body.len, 0);
	eng_buf_free(&body);
	return err;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("\"%s\" does not contain \"%s\"", hay, needle);
}

/* -------------------------------------------------------- round trips -- */

static void test_armar_line_round_trips(void **state)
{
	(void)state;
	char *json = round_trip(armar_line);
	assert_contains(json, "\"t\":\"2024-06-26T19:48:57.810898Z\"");
	assert_contains(json, "\"goal\":[\"LoadDishwasher\",\"ReachTcpPoseRelativeToObjectWithMP\","
	                      "\"ExecuteTraj\"]");
	assert_contains(json, "\"status\":\"running\"");
	assert_contains(json, "\"position\":[[0.0],[1300.0],[1500.0]]");
	assert_contains(json, "\"accuracy\":0.05000000074505806");
	assert_contains(json, "\"speech\":[{\"text\":\"please load the dishwasher\"}]");
	assert_contains(json, "{\"from\":\"cup_0\",\"to\":\"counter_0\",\"type\":\"on\"}");
	assert_contains(json, "\"persons\":[{\"name\":\"Anna\"}]");
	assert_contains(json, "{\"id\":\"dishwasher_0\",\"type\":\"dishwasher\",\"relations\"");
	free(json);
}

static void test_teach_line_round_trips(void **state)
{
	(void)state;
	char *json = round_trip(teach_line);
	assert_contains(json, "\"t_end\":\"2024-06-26T19:49:03.000000Z\"");
	assert_contains(json, "\"action\":{\"name\":\"ToggleOn\",\"args\":"
	                      "[\"StoveKnob|+00.70|+00.90|-01.00\"]}");
	assert_contains(json, "{\"speaker\":\"Commander\",\"text\":\"hello please boil a potato\"}");
	assert_contains(json, "\"state\":{\"distance\":1.25,\"isCooked\":true,"
	                      "\"receptacleObjectIds\":[],\"simbotLastParentReceptacle\":"
	                      "\"Pot|-01.10|+00.90|-00.40\",\"simbotPickedUp\":1}");
	free(json);
}

static void test_canonical_form_is_fixed(void **state)
{
	(void)state;
	char *json = round_trip("  {\"note\": \"x\\ny\\u0001\\\"\", \"goal_status\": \"FAILED\", "
	                        "\"goal\": [\"A\", \"B.C\"], \"t\": 0, \"location\": null,"
	                        " \"action\": {\"status\": \"Aborted\", \"name\": \"Grasp\","
	                        " \"args\": {\"z\": 1, \"a\": [1.5, -2, \"s\", false, null], "
	                        "\"\": {}}}}\r\n");
	assert_string_equal(json,
	                    "{\"t\":\"1970-01-01T00:00:00.000000Z\","
	                    "\"action\":{\"name\":\"Grasp\",\"args\":{\"\":{},"
	                    "\"a\":[1.5,-2,\"s\",false,null],\"z\":1},\"status\":\"aborted\"},"
	                    "\"goal\":[\"A\",\"B.C\"],\"goal_status\":\"failed\","
	                    "\"note\":\"x\\ny\\u0001\\\"\"}");
	free(json);
}

/* The id is kept and rendered last; 128 characters are the limit. */
static void test_id_round_trips_up_to_its_limit(void **state)
{
	(void)state;
	char *json = round_trip("{\"id\":\"robot-7:boot-3/42\",\"t\":4}");
	assert_string_equal(json, "{\"t\":\"1970-01-01T00:00:00.000004Z\",\"id\":\"robot-7:boot-3/42\"}");
	free(json);
	char line[256], id[130];
	memset(id, '~', 128);
	id[128] = 0;
	snprintf(line, sizeof line, "{\"t\":4,\"id\":\"%s\"}", id);
	json = round_trip(line);
	assert_non_null(strstr(json, id));
	free(json);
	id[128] = '~';
	id[129] = 0;
	snprintf(line, sizeof line, "{\"t\":4,\"id\":\"%s\"}", id);
	eng_buf body = { 0 };
	h2emv_error err = { 0 };
	assert_int_equal(obs_from_json(&body, line, strlen(line), 1, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "id");
	eng_buf_free(&body);
}

/* msgpack-c hands back an empty string with a NULL pointer when no
 * multi-byte value came before it; found by fuzz_obs. */
static void test_empty_strings_round_trip(void **state)
{
	(void)state;
	char *json = round_trip("{\"t\":4,\"speech\":\"\"}");
	assert_string_equal(json, "{\"t\":\"1970-01-01T00:00:00.000004Z\",\"speech\":[{\"text\":\"\"}]}");
	free(json);
	json = round_trip("{\"t\":4,\"action\":{\"name\":\"a\",\"args\":{\"\":1}}}");
	free(json);
	json = round_trip("{\"t\":4,\"speech\":\"\",\"location\":\"\",\"note\":\"\","
	                        "\"action\":{\"name\":\"a\",\"args\":{\"\":\"\",\"b\":[\"\"]}}}");
	assert_contains(json, "\"args\":{\"\":\"\",\"b\":[\"\"]}");
	assert_contains(json, "\"speech\":[{\"text\":\"\"}]");
	free(json);
}

/* A time written with a UTC offset keeps it: the body stores the offset
 * after the fields, the canonical JSON writes t back in it, and the same
 * instant in UTC differs only by that. */
static void test_a_local_offset_is_kept(void **state)
{
	(void)state;
	char *json = round_trip("{\"t\":\"2026-11-19T07:02:41-08:00\",\"t_end\":"
	                        "\"2026-11-19T16:05:00Z\",\"note\":\"call\"}");
	assert_string_equal(json, "{\"t\":\"2026-11-19T07:02:41.000000-08:00\",\"t_end\":"
	                          "\"2026-11-19T08:05:00.000000-08:00\",\"note\":\"call\"}");
	free(json);
	json = round_trip("{\"t\":\"2026-11-19T07:02:41+05:30\"}");
	assert_string_equal(json, "{\"t\":\"2026-11-19T07:02:41.000000+05:30\"}");
	free(json);
	eng_buf a = { 0 }, b = { 0 };
	must_parse(&a, "{\"t\":\"2026-11-19T07:02:41-08:00\"}");
	must_parse(&b, "{\"t\":\"2026-11-19T15:02:41Z\"}");
	assert_true(a.len == b.len + 4); /* the key and -480 as an int16 */
	eng_buf_free(&a);
	eng_buf_free(&b);
	/* a stored offset out of range or 0 is damage */
	static const uint8_t bad[][12] = {
		{ 0x82, 0x01, 0x01, 0x0d, 0x00 },             /* {1: 1, 13: 0} */
		{ 0x82, 0x01, 0x01, 0x0d, 0xcd, 0x10, 0x00 }, /* {1: 1, 13: 4096} */
		{ 0x82, 0x01, 0x01, 0x0d, 0xa1, 0x41 },       /* {1: 1, 13: "A"} */
	};
	static const size_t len[] = { 5, 7, 6 };
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(obs_body_check(bad[i], len[i], NULL), H2EMV_ECORRUPT);
	static const uint8_t good[] = { 0x82, 0x01, 0x01, 0x0d, 0xd1, 0xfe, 0x20 }; /* 13: -480 */
	assert_int_equal(obs_body_check(good, sizeof good, NULL), H2EMV_OK);
}

static void test_equivalent_inputs_give_the_same_body(void **state)
{
	(void)state;
	static const char *const pairs[][2] = {
		{ "{\"t\":\"2024-06-26T19:48:57.810898Z\"}", "{\"t\":1719431337810898}" },
		{ "{\"t\":\"2024-06-26T19:48:57.810898+00:00\"}", "{\"t\":1719431337810898}" },
		{ "{\"t\":\"2024-06-26T21:48:57.810898+02:00\"}",
		  "{\"t\":\"2024-06-26 21:48:57.810898999+02:00\"}" },
		{ "{\"t\":\"2024-06-26 19:48:57.810898999\"}", "{\"t\":1719431337810898}" },
		{ "{\"t\":\"2024-06-26t19:48:57.810898z\"}", "{\"t\":1719431337810898}" },
		{ "{\"t\":\"2024-06-26T17:48:57.810898-02:00\"}",
		  "{\"t\":\"2024-06-26t17:48:57.810898-02:00\"}" },
		{ "{\"t\":\"2024-02-29T00:00:00\"}", "{\"t\":1709164800000000}" },
		{ "{\"t\":\"2000-03-01T05:00:00.123456Z\"}", "{\"t\":951886800123456}" },
		{ "{\"t\":\"9999-12-31T23:59:59.999999Z\"}", "{\"t\":253402300799999999}" },
		{ "{\"t\":\"2000-03-01T05:00:00.1Z\"}", "{\"t\":951886800100000}" },
		{ "{\"t\":1,\"goal\":\"A.B.C\"}", "{\"t\":1,\"goal\":[\"A\",\"B\",\"C\"]}" },
		{ "{\"t\":1,\"speech\":\"hi\"}", "{\"t\":1,\"speech\":[{\"text\":\"hi\"}]}" },
		{ "{\"t\":1,\"persons\":[\"Ann\"]}", "{\"t\":1,\"persons\":[{\"name\":\"Ann\"}]}" },
		{ "{\"t\":1,\"relations\":[[\"a\",\"b\",\"on\"]]}",
		  "{\"t\":1,\"relations\":[{\"type\":\"on\",\"from\":\"a\",\"to\":\"b\"}]}" },
		{ "{\"t\":1,\"action\":\"Go\"}", "{\"t\":1,\"action\":{\"name\":\"Go\"}}" },
		{ "{\"t\":1,\"action\":\" Put ( cup , 'a, b' ,\\\"(x)\\\", f(g(1, 2)), '') \"}",
		  "{\"t\":1,\"action\":{\"name\":\"Put\",\"args\":[\"cup\",\"a, b\",\"(x)\","
		  "\"f(g(1, 2))\",\"\"]}}" },
		{ "{\"t\":1,\"action\":\"Wave()\"}", "{\"t\":1,\"action\":{\"name\":\"Wave\",\"args\":[]}}" },
		{ "{\"t\":1,\"location\":null,\"note\":null,\"speech\":null}", "{\"t\":1}" },
		{ "{\"t\":1,\"action\":{\"name\":\"a\",\"args\":{\"b\":1,\"a\":2}}}",
		  "{\"t\":1,\"action\":{\"args\":{\"a\":2,\"b\":1},\"name\":\"a\"}}" },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		eng_buf a = { 0 }, b = { 0 };
		must_parse(&a, pairs[i][0]);
		must_parse(&b, pairs[i][1]);
		assert_same_body(&a, &b);
		eng_buf_free(&a);
		eng_buf_free(&b);
	}
}

static void test_reals_read_back_exactly(void **state)
{
	(void)state;
	static const char *const in[] = { "0.1", "1.0", "1e20", "1e-7", "-0.0", "1300.0",
		                          "0.05000000074505806", "123456789012345680000.0",
		                          "2.2250738585072014e-308", "1.7976931348623157e308",
		                          "5e-324", "3.4028234663852886e38", "0.3333333333333333" };
	static const char *const out[] = { "0.1", "1.0", "1e20", "1e-7", "-0.0", "1300.0",
		                           "0.05000000074505806", "1.2345678901234568e20",
		                           "2.2250738585072014e-308", "1.7976931348623157e308",
		                           "5e-324", "3.4028234663852886e38", "0.3333333333333333" };
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		char line[160], want[160];
		snprintf(line, sizeof line, "{\"t\":1,\"action\":{\"name\":\"x\",\"args\":[%s]}}", in[i]);
		snprintf(want, sizeof want, "\"args\":[%s]", out[i]);
		char *json = round_trip(line);
		assert_contains(json, want);
		free(json);
	}
}

static void test_body_is_appended(void **state)
{
	(void)state;
	eng_buf body = { 0 };
	assert_int_equal(eng_buf_append(&body, "xyz", 3), 0);
	must_parse(&body, "{\"t\":5}");
	assert_int_equal(body.len, 6);
	assert_memory_equal(body.data, "xyz\x81\x01\x05", 6);
	/* A failure leaves what was there. */
	h2emv_error err;
	assert_int_equal(obs_from_json(&body, "{\"t\":5,\"x\":1}", 13, 1, &err), H2EMV_EPARSE);
	assert_int_equal(body.len, 6);
	eng_buf_free(&body);
}

/* -------------------------------------------------------------- errors -- */

typedef struct bad_case {
	const char *json;
	int status;
	const char *field;
	uint64_t column; /* 0: not checked */
	const char *says;
} bad_case;

static const bad_case bad_cases[] = {
	{ "[1,2]", H2EMV_EPARSE, "", 1, "expected a JSON object (one observation), got an array" },
	{ "42", H2EMV_EPARSE, "", 1, "got a number" },
	{ "{\"t\":1,\"colour\":\"red\"}", H2EMV_EPARSE, "colour", 8, "unknown field" },
	{ "{\"t\":1,\"objects\":[{\"id\":\"a\",\"type\":\"b\"},{\"id\":\"c\",\"type\":\"d\","
	  "\"colour\":1}]}", H2EMV_EPARSE, "objects[1].colour", 62, "unknown field" },
	{ "{\"t\":1,\"objects\":[{\"id\":\"a\",\"type\":\"b\"},{\"id\":\"c\",\"type\":\"d\"},"
	  "{\"id\":\"e\",\"type\":7}]}", H2EMV_EPARSE, "objects[2].type", 80,
	  "field 'objects[2].type': expected a string, got a number" },
	{ "{\"t\":1,\"objects\":[{\"id\":\"a\"}]}", H2EMV_EPARSE, "objects[0].type", 0,
	  "missing" },
	{ "{\"t\":1,\"objects\":[{\"id\":\"\",\"type\":\"b\"}]}", H2EMV_EPARSE, "objects[0].id", 0,
	  "must not be empty" },
	{ "{\"t\":1,\"objects\":[{\"id\":\"a\",\"type\":\"b\",\"state\":{\"p\":{\"q\":1}}}]}",
	  H2EMV_EPARSE, "objects[0].state.p", 0, "expected a string, number, boolean or null" },
	{ "{\"t\":1,\"objects\":[{\"id\":\"a\",\"type\":\"b\",\"state\":3}]}", H2EMV_EPARSE,
	  "objects[0].state", 0, "expected a string or an object" },
	{ "{\"location\":\"kitchen\"}", H2EMV_EPARSE, "t", 0, "missing" },
	{ "{\"t\":null}", H2EMV_EPARSE, "t", 6, "got null" },
	{ "{\"t\":1.5}", H2EMV_EPARSE, "t", 6, "got a real number" },
	{ "{\"t\":-1}", H2EMV_EPARSE, "t", 6, "outside 1970-01-01" },
	{ "{\"t\":253402300800000000}", H2EMV_EPARSE, "t", 0, "outside" },
	{ "{\"t\":\"yesterday\"}", H2EMV_EPARSE, "t", 6, "not an RFC 3339 date-time" },
	{ "{\"t\":\"2024-13-01T00:00:00Z\"}", H2EMV_EPARSE, "t", 0, "month" },
	{ "{\"t\":\"2023-02-29T00:00:00Z\"}", H2EMV_EPARSE, "t", 0, "day" },
	{ "{\"t\":\"2024-06-26T24:00:00Z\"}", H2EMV_EPARSE, "t", 0, "hour" },
	{ "{\"t\":\"2024-06-26T23:59:60Z\"}", H2EMV_EPARSE, "t", 0, "leap" },
	{ "{\"t\":\"2024-06-26T23:59:59.Z\"}", H2EMV_EPARSE, "t", 0, "digits" },
	{ "{\"t\":\"2024-06-26T23:59:59.1234567890Z\"}", H2EMV_EPARSE, "t", 0, "9 digits" },
	{ "{\"t\":\"2024-06-26T23:59:59+0200\"}", H2EMV_EPARSE, "t", 0, "+HH:MM" },
	{ "{\"t\":\"2024-06-26T23:59:59Z \"}", H2EMV_EPARSE, "t", 0, "after the time" },
	{ "{\"t\":\"1969-12-31T23:59:59Z\"}", H2EMV_EPARSE, "t", 0, "1970" },
	{ "{\"t\":\"1970-01-01T00:30:00+01:00\"}", H2EMV_EPARSE, "t", 0, "outside" },
	{ "{\"t\":\"10000-01-01T00:00:00Z\"}", H2EMV_EPARSE, "t", 0, "YYYY-MM-DD" },
	{ "{\"t\":\"2024-06-26T10:00:00Z\",\"t_end\":\"2024-06-26T09:59:59Z\"}", H2EMV_EPARSE,
	  "t_end", 37, "is before the start" },
	{ "{\"t\":1,\"action\":{\"args\":{}}}", H2EMV_EPARSE, "action.name", 0, "missing" },
	{ "{\"t\":1,\"action\":{\"name\":\"a\",\"status\":\"finito\"}}", H2EMV_EPARSE,
	  "action.status", 0, "unknown status \"finito\"" },
	{ "{\"t\":1,\"action\":{\"name\":\"a\",\"args\":3}}", H2EMV_EPARSE, "action.args", 0,
	  "expected an object or an array" },
	{ "{\"t\":1,\"action\":{\"name\":\"a\",\"args\":{\"hand\":{\"x\":\"\\u0000\"}}}}",
	  H2EMV_EPARSE, "action.args.hand.x", 0, "NUL" },
	{ "{\"t\":1,\"action\":7}", H2EMV_EPARSE, "action", 0, "\"Name(arg, ...)\"" },
	{ "{\"t\":1,\"action\":\"F(a,)\"}", H2EMV_EPARSE, "action", 0, "empty" },
	{ "{\"t\":1,\"action\":\"F(a\"}", H2EMV_EPARSE, "action", 0, "')'" },
	{ "{\"t\":1,\"action\":\"F(a))\"}", H2EMV_EPARSE, "action", 0, "unbalanced" },
	{ "{\"t\":1,\"action\":\"(a)\"}", H2EMV_EPARSE, "action", 0, "name is empty" },
	{ "{\"t\":1,\"action\":\"F('a)\"}", H2EMV_EPARSE, "action", 0, "quotes" },
	{ "{\"t\":1,\"action\":\"\"}", H2EMV_EPARSE, "action", 0, "empty" },
	{ "{\"t\":1,\"goal\":\"A..B\"}", H2EMV_EPARSE, "goal", 15, "empty step" },
	{ "{\"t\":1,\"goal\":[\"A\",3]}", H2EMV_EPARSE, "goal[1]", 20, "expected a string" },
	{ "{\"t\":1,\"goal_status\":\"okay-ish\"}", H2EMV_EPARSE, "goal_status", 0,
	  "unknown status" },
	{ "{\"t\":1,\"relations\":[[\"a\",\"b\"]]}", H2EMV_EPARSE, "relations[0]", 0,
	  "array of 2 items" },
	{ "{\"t\":1,\"relations\":[{\"from\":\"a\",\"to\":\"b\"}]}", H2EMV_EPARSE,
	  "relations[0].type", 0, "missing" },
	{ "{\"t\":1,\"persons\":[{}]}", H2EMV_EPARSE, "persons[0]", 0, "a name or an id" },
	{ "{\"t\":1,\"persons\":[5]}", H2EMV_EPARSE, "persons[0]", 0, "expected a name" },
	{ "{\"t\":1,\"speech\":{\"speaker\":\"robot\"}}", H2EMV_EPARSE, "speech.text", 0,
	  "missing" },
	{ "{\"t\":1,\"speech\":[{\"speaker\":\"\",\"text\":\"x\"}]}", H2EMV_EPARSE,
	  "speech[0].speaker", 0, "must not be empty" },
	{ "{\"t\":1,\"note\":[]}", H2EMV_EPARSE, "note", 0, "expected a string, got an array" },
	{ "{\"t\":1,\"id\":\"\"}", H2EMV_EPARSE, "id", 0, "an id is 1 to 128 characters" },
	{ "{\"t\":1,\"id\":\"a b\"}", H2EMV_EPARSE, "id", 0, "printable ASCII other than space" },
	{ "{\"t\":1,\"id\":\"caf\u00e9\"}", H2EMV_EPARSE, "id", 0, "printable ASCII" },
	{ "{\"t\":1,\"id\":7}", H2EMV_EPARSE, "id", 0, "expected a string (the observation's id)" },
	{ "{\"t\":1,\"t\":2}", H2EMV_EPARSE, "t", 0, "duplicate key" },
	{ "{\"t\":1,\"action\":{\"name\":\"a\",\"args\":{\"k\":1,\"k\":2}}}", H2EMV_EPARSE,
	  "action.args.k", 0, "duplicate key" },
	{ "{\"t\":1} {\"t\":2}", H2EMV_EPARSE, "", 0, "after the observation object" },
	{ "{\"t\":1}x", H2EMV_EPARSE, "", 0, "after the observation object" },
	{ "{\"t\":1,\"note\":\"abc", H2EMV_EPARSE, "note", 0, "truncated" },
	{ "{\"t\":1,\"speech\":[{\"text\":\"where are my ke\n", H2EMV_EPARSE, "speech[0].text",
	  42, "truncated" },
	{ "{\"t\":1,\"action\":{\"name\":\"a\",\"args\":[tru", H2EMV_EPARSE, "action.args[0]", 0,
	  "truncated" },
	{ "{\"t\":1,}\n", H2EMV_EPARSE, "", 8, "invalid JSON" },
	{ "", H2EMV_EPARSE, "", 0, "empty line" },
	{ " \t\r\n", H2EMV_EPARSE, "", 0, "empty line" },
	{ "{\"t\":1,\"action\":{\"name\":\"a\",\"args\":[1e999]}}", H2EMV_EPARSE,
	  "action.args[0]", 0, "number out of range" },
	{ "{\"t\":99999999999999999999}", H2EMV_EPARSE, "t", 0, "number out of range" },
	{ "{\"t\":NaN}", H2EMV_EPARSE, "t", 0, "invalid JSON" },
	{ "{\"t\":1,\"note\":'x'}", H2EMV_EPARSE, "note", 0, "invalid JSON" },
};

static void test_bad_lines_are_named(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_case *b = &bad_cases[i];
		h2emv_error err = parse_error(b->json, strlen(b->json), 40 + i);
		if (err.status != b->status || strcmp(err.field, b->field) != 0 ||
		    (b->column && err.column != b->column) || !strstr(err.message, b->says))
			fail_msg("case %zu %s: got status %d field '%s' column %llu: %s", i, b->json,
			         err.status, err.field, (unsigned long long)err.column, err.message);
		char prefix[64];
		snprintf(prefix, sizeof prefix, "line %zu", 40 + i);
		assert_true(strncmp(err.message, prefix, strlen(prefix)) == 0);
	}
}

/* A scene relation is [from, to, type] and an object's relation [to, type]:
 * an array of exactly that many strings is the object form, one item fewer
 * or more is refused with its count, never truncated or padded. */
static void test_relations_take_exactly_their_arity(void **state)
{
	(void)state;
	static const char *const items[] = { "\"a\"", "\"b\"", "\"on\"", "\"x\"", "\"y\"" };
	for (size_t want = 2; want <= 3; want++) {
		const char *pre = want == 3 ? "{\"t\":1,\"relations\":["
		                            : "{\"t\":1,\"objects\":[{\"id\":\"o\",\"type\":\"t\","
		                              "\"relations\":[";
		const char *post = want == 3 ? "]}" : "]}]}";
		const char *field = want == 3 ? "relations[0]" : "objects[0].relations[0]";
		for (size_t n = 0; n <= 5; n++) {
			char arr[80] = "[", line[200];
			for (size_t i = 0; i < n; i++) {
				strcat(arr, items[i]);
				strcat(arr, i + 1 < n ? "," : "");
			}
			strcat(arr, "]");
			snprintf(line, sizeof line, "%s%s%s", pre, arr, post);
			if (n == want) {
				const char *obj = want == 3 ? "{\"from\":\"a\",\"to\":\"b\",\"type\":\"on\"}"
				                            : "{\"to\":\"a\",\"type\":\"b\"}";
				char same[200];
				snprintf(same, sizeof same, "%s%s%s", pre, obj, post);
				eng_buf a = { 0 }, b = { 0 };
				must_parse(&a, line);
				must_parse(&b, same);
				assert_same_body(&a, &b);
				eng_buf_free(&a);
				eng_buf_free(&b);
				continue;
			}
			h2emv_error err = parse_error(line, strlen(line), 7);
			char says[40];
			snprintf(says, sizeof says, "got an array of %zu items", n);
			if (err.status != H2EMV_EPARSE || strcmp(err.field, field) != 0 ||
			    !strstr(err.message, says))
				fail_msg("%s: got status %d field '%s': %s", line, err.status, err.field,
				         err.message);
		}
	}
}

static void test_message_is_a_full_sentence(void **state)
{
	(void)state;
	const char *json = "{\"t\":1,\"objects\":[{\"id\":\"a\",\"type\":\"b\"},"
	                   "{\"id\":\"c\",\"type\":\"d\"},{\"id\":\"e\",\"type\":7}]}";
	h2emv_error err = parse_error(json, strlen(json), 12);
	assert_string_equal(err.message, "line 12, column 80: field 'objects[2].type': "
	                                 "expected a string, got a number");
	/* Without a line number the message does not invent one. */
	err = parse_error(json, strlen(json), 0);
	assert_string_equal(err.message, "column 80: field 'objects[2].type': "
	                                 "expected a string, got a number");
	/* err may be NULL. */
	eng_buf body = { 0 };
	assert_int_equal(obs_from_json(&body, json, strlen(json), 1, NULL), H2EMV_EPARSE);
	eng_buf_free(&body);
}

static void test_invalid_utf8_is_reported_as_such(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"{\"t\":1,\"note\":\"caf\xc3\"}",         /* truncated sequence */
		"{\"t\":1,\"note\":\"\xff\"}",             /* never valid */
		"{\"t\":1,\"note\":\"\xc0\xaf\"}",         /* overlong '/' */
		"{\"t\":1,\"note\":\"\xed\xa0\x80\"}",     /* a surrogate */
		"{\"t\":1,\"objects\":[{\"id\":\"\xe2\x82\",\"type\":\"x\"}]}",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		h2emv_error err = parse_error(lines[i], strlen(lines[i]), 3);
		assert_int_equal(err.status, H2EMV_EPARSE);
		assert_contains(err.message, "invalid UTF-8");
		assert_true(err.column > 0);
		assert_true(utf8_text_ok(err.message, strlen(err.message)));
	}
	h2emv_error err = parse_error(lines[4], strlen(lines[4]), 3);
	assert_string_equal(err.field, "objects[0].id");
}

static void test_nul_byte_is_named(void **state)
{
	(void)state;
	static const char line[] = "{\"t\":1,\"note\":\"a\0b\"}";
	h2emv_error err = parse_error(line, sizeof line - 1, 2);
	assert_int_equal(err.status, H2EMV_EPARSE);
	assert_string_equal(err.field, "note");
	assert_int_equal(err.column, 17);
	assert_contains(err.message, "NUL byte");
}

static void test_huge_line_is_refused_before_parsing(void **state)
{
	(void)state;
	size_t n = 10u << 20;
	char *big = malloc(n);
	assert_non_null(big);
	memset(big, '[', n); /* would nest absurdly deep if parsed */
	clock_t start = clock();
	h2emv_error err = parse_error(big, n, 7);
	double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
	assert_int_equal(err.status, H2EMV_ELIMIT);
	assert_contains(err.message, "over the limit of 1048576 bytes");
	assert_true(secs < 0.05);
	free(big);
}

static void test_limits_give_elimit(void **state)
{
	(void)state;
	/* A string over 64 KiB. */
	size_t n = (64u << 10) + 100;
	char *line = malloc(n + 64);
	assert_non_null(line);
	int k = sprintf(line, "{\"t\":1,\"note\":\"");
	memset(line + k, 'a', (64u << 10) + 1);
	strcpy(line + k + (64u << 10) + 1, "\"}");
	h2emv_error err = parse_error(line, strlen(line), 1);
	assert_int_equal(err.status, H2EMV_ELIMIT);
	assert_string_equal(err.field, "note");
	free(line);

	/* 10001 items. */
	line = malloc(50000);
	assert_non_null(line);
	k = sprintf(line, "{\"t\":1,\"goal\":[");
	for (int i = 0; i < 10001; i++)
		k += sprintf(line + k, "%s\"g\"", i ? "," : "");
	strcpy(line + k, "]}");
	err = parse_error(line, strlen(line), 1);
	assert_int_equal(err.status, H2EMV_ELIMIT);
	assert_string_equal(err.field, "goal");
	line[k - 4] = ']', line[k - 3] = '}', line[k - 2] = '\0'; /* 10000 is fine */
	eng_buf body = { 0 };
	must_parse(&body, line);
	eng_buf_free(&body);
	free(line);

	/* Sixteen levels of containers in action.args (args itself the
	 * first) are fine, seventeen are not. */
	char deep[512];
	for (int depth = 16; depth <= 17; depth++) {
		k = sprintf(deep, "{\"t\":1,\"action\":{\"name\":\"x\",\"args\":");
		for (int i = 0; i < depth; i++)
			k += sprintf(deep + k, "{\"k%d\":", i);
		k += sprintf(deep + k, "1");
		for (int i = 0; i < depth; i++)
			deep[k++] = '}';
		strcpy(deep + k, "}}");
		eng_buf b = { 0 };
		int rc = obs_from_json(&b, deep, strlen(deep), 1, &err);
		if (depth == 16) {
			assert_int_equal(rc, H2EMV_OK);
			char *json = must_render(&b);
			free(json);
		} else {
			assert_int_equal(rc, H2EMV_ELIMIT);
			assert_contains(err.field, "action.args.k0.k1.k2");
			assert_contains(err.message, "nested deeper than 16 levels");
		}
		eng_buf_free(&b);
	}

	/* Nesting jansson itself refuses. */
	line = malloc(8001);
	assert_non_null(line);
	memcpy(line, "{\"t\":1,\"note\":", 14);
	memset(line + 14, '[', 4000);
	err = parse_error(line, 4014, 1);
	assert_int_equal(err.status, H2EMV_ELIMIT);
	free(line);
}

static void test_every_prefix_is_rejected(void **state)
{
	(void)state;
	const char *lines[] = { armar_line, teach_line };
	for (size_t l = 0; l < 2; l++) {
		size_t n = strlen(lines[l]);
		for (size_t i = 0; i < n; i++) {
			/* Copy so that reading past `i` is caught by ASan. */
			char *prefix = malloc(i ? i : 1);
			assert_non_null(prefix);
			memcpy(prefix, lines[l], i);
			h2emv_error err = parse_error(prefix, i, 9);
			assert_int_equal(err.status, H2EMV_EPARSE);
			free(prefix);
		}
	}
}

/* ------------------------------------------------------ hostile bodies -- */

typedef struct raw_body {
	const char *bytes;
	size_t len;
	const char *says;
} raw_body;

#define RAW(s, says) { s, sizeof(s) - 1, says }

static const raw_body hostile[] = {
	RAW("", "empty"),
	RAW("\xc1", "reserved"),
	RAW("\x81\x01", "exceeds the bytes left"),
	RAW("\x82\x01\x05\x06\xa5" "ab", "truncated string"),
	RAW("\x81\x01\x05\x00", "trailing"),
	RAW("\xdf\xff\xff\xff\xff\x01\x05", "exceeds the bytes left"),
	RAW("\xdd\x7f\xff\xff\xff", "exceeds the bytes left"),
	RAW("\x91\x01", "expected an observation (a map), got an array"),
	RAW("\x80", "without its t"),
	RAW("\x81\x02\x05", "without its t"),
	RAW("\x82\x01\x05\x01\x06", "unordered"),
	RAW("\x82\x01\x05\x0e\x06", "bad"),
	RAW("\x82\x01\x05\x0d\x00", "field 'zone': expected a UTC offset"),
	RAW("\x82\x01\x05\x0c\x06", "field 'id': an id that is not"),
	RAW("\x82\x01\x05\x0c\xa3\x61\x20\x62", "field 'id': an id that is not"),
	RAW("\x81\xa1t\x05", "bad"),
	RAW("\x81\x01\xff", "expected a time"),
	RAW("\x81\x01\xcf\xff\xff\xff\xff\xff\xff\xff\xff", "expected a time"),
	RAW("\x82\x01\x05\x02\x04", "field 't_end': ends before it starts"),
	RAW("\x82\x01\x05\x05\x09", "field 'goal_status': expected a status"),
	RAW("\x82\x01\x05\x06\xa2\xc3\x28", "field 'location': a string that is not valid UTF-8"),
	RAW("\x82\x01\x05\x06\xa2\x61\x00", "holds NUL"),
	RAW("\x82\x01\x05\x06\xc4\x01x", "expected a string, got binary data"),
	RAW("\x82\x01\x05\x03\x81\x02\x90", "an action without its name"),
	RAW("\x82\x01\x05\x03\x82\x01\xa1x\x02\x91\xcf\xff\xff\xff\xff\xff\xff\xff\xff",
	    "field 'action.args[0]': an integer above the int64 range"),
	RAW("\x82\x01\x05\x03\x82\x01\xa1x\x02\x91\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",
	    "not finite"),
	RAW("\x82\x01\x05\x03\x82\x01\xa1x\x02\x82\xa1\x62\x01\xa1\x61\x02",
	    "keys out of order"),
	RAW("\x82\x01\x05\x03\x82\x01\xa1x\x02\x82\xa1\x61\x01\xa1\x61\x02",
	    "keys out of order or repeated"),
	RAW("\x82\x01\x05\x03\x82\x01\xa1x\x02\x81\x01\x02", "a key that is an integer"),
	RAW("\x82\x01\x05\x03\x82\x01\xa1x\x02\xd4\x01\x00", "expected a map or an array"),
	RAW("\x82\x01\x05\x04\x91\xa0", "field 'goal[0]': an empty name"),
	RAW("\x82\x01\x05\x07\x91\x82\x01\xa1\x61\x03\xa1\x62", "without its type"),
	RAW("\x82\x01\x05\x07\x91\x83\x01\xa1\x61\x02\xa1\x62\x03\x81\xa1\x70\x81\x01\x02",
	    "field 'objects[0].state.p': expected a scalar, got a map"),
	RAW("\x82\x01\x05\x07\x91\x83\x01\xa1\x61\x02\xa1\x62\x03\x81\xa0\x01",
	    "field 'objects[0].state': an empty name"),
	RAW("\x82\x01\x05\x08\x91\x92\xa1\x61\xa1\x62", "expected a relation of 3 strings"),
	RAW("\x82\x01\x05\x08\x91\x94\xa1\x61\xa1\x62\xa1\x63\xa1\x64",
	    "expected a relation of 3 strings"),
	RAW("\x82\x01\x05\x09\x91\x80", "a person that is empty"),
	RAW("\x82\x01\x05\x0a\x91\x81\x01\xa1\x61", "an utterance without its text"),
};

static void test_hostile_bodies_are_corrupt(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		h2emv_error err = { 0 };
		char *json = (char *)"untouched";
		size_t len = 99;
		/* A private copy of exactly the bytes, so ASan sees any overread. */
		void *copy = malloc(hostile[i].len ? hostile[i].len : 1);
		assert_non_null(copy);
		memcpy(copy, hostile[i].bytes, hostile[i].len);
		int rc = obs_to_json(&json, &len, copy, hostile[i].len, &err);
		if (rc != H2EMV_ECORRUPT || !strstr(err.message, hostile[i].says))
			fail_msg("body %zu: status %d: %s", i, rc, err.message);
		assert_null(json);
		assert_int_equal(len, 0);
		assert_contains(err.message, "corrupt observation body: ");
		assert_int_equal(obs_body_check(copy, hostile[i].len, NULL), H2EMV_ECORRUPT);
		free(copy);
	}
}

static void test_oversize_body_is_refused_unread(void **state)
{
	(void)state;
	size_t n = (3u << 20) + 1;
	uint8_t *big = calloc(1, n);
	assert_non_null(big);
	h2emv_error err;
	assert_int_equal(obs_body_check(big, n, &err), H2EMV_ECORRUPT);
	assert_contains(err.message, "over the limit");
	free(big);
}

/* xorshift64: a fixed, portable sequence. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Whatever the bytes, rendering gives OK or ECORRUPT, agrees with the
 * check, and what it renders is accepted again. */
static void hostile_once(const uint8_t *body, size_t n)
{
	h2emv_error err;
	char *json = NULL;
	size_t len;
	int rc = obs_to_json(&json, &len, body, n, &err);
	assert_true(rc == H2EMV_OK || rc == H2EMV_ECORRUPT);
	assert_int_equal(obs_body_check(body, n, NULL), rc);
	if (rc == H2EMV_OK) {
		eng_buf again = { 0 };
		if (obs_from_json(&again, json, len, 1, &err))
			fail_msg("rendered %s, which does not parse: %s", json, err.message);
		eng_buf_free(&again);
	}
	free(json);
}

static void test_flipped_bytes_never_crash(void **state)
{
	(void)state;
	uint64_t seed = 0x9e3779b97f4a7c15u;
	const char *lines[] = { armar_line, teach_line };
	for (size_t l = 0; l < 2; l++) {
		eng_buf body = { 0 };
		must_parse(&body, lines[l]);
		uint8_t *copy = malloc(body.len);
		assert_non_null(copy);
		for (int iter = 0; iter < 20000; iter++) {
			memcpy(copy, body.data, body.len);
			int flips = 1 + (int)(rnd(&seed) % 3);
			for (int f = 0; f < flips; f++)
				copy[rnd(&seed) % body.len] ^= (uint8_t)(1u << (rnd(&seed) % 8));
			size_t n = iter % 5 == 0 ? rnd(&seed) % body.len : body.len;
			hostile_once(copy, n);
		}
		free(copy);
		eng_buf_free(&body);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_armar_line_round_trips),
		cmocka_unit_test(test_teach_line_round_trips),
		cmocka_unit_test(test_canonical_form_is_fixed),
		cmocka_unit_test(test_a_local_offset_is_kept),
		cmocka_unit_test(test_id_round_trips_up_to_its_limit),
		cmocka_unit_test(test_empty_strings_round_trip),
		cmocka_unit_test(test_equivalent_inputs_give_the_same_body),
		cmocka_unit_test(test_reals_read_back_exactly),
		cmocka_unit_test(test_body_is_appended),
		cmocka_unit_test(test_bad_lines_are_named),
		cmocka_unit_test(test_relations_take_exactly_their_arity),
		cmocka_unit_test(test_message_is_a_full_sentence),
		cmocka_unit_test(test_invalid_utf8_is_reported_as_such),
		cmocka_unit_test(test_nul_byte_is_named),
		cmocka_unit_test(test_huge_line_is_refused_before_parsing),
		cmocka_unit_test(test_limits_give_elimit),
		cmocka_unit_test(test_every_prefix_is_rejected),
		cmocka_unit_test(test_hostile_bodies_are_corrupt),
		cmocka_unit_test(test_oversize_body_is_refused_unread),
		cmocka_unit_test(test_flipped_bytes_never_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
