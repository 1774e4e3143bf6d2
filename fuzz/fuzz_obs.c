/*
 * fuzz_obs.c — libFuzzer target for observations, the two untrusted
 * inputs of api/observation.h: JSON lines from robots and users (read by
 * the one-pass reader, api/obs_parse.c), and stored bodies read back from
 * disk. fuzz_obs_diff holds that reader to the former jansson one.
 *  - As JSON: a line that parses must render and parse again to the
 *    identical body (decode(encode(x)) == x).
 *  - As a body: obs_body_check and obs_to_json must agree, never crash,
 *    and whatever renders must parse again and render to the same text.
 * Errors must carry a status from the documented set and a message that
 * is valid UTF-8. Any violation traps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"
#include "api/base/utf8.h"

static void check_error(const h2emv_error *err, int rc)
{
	if (err->status != rc || !utf8_text_ok(err->message, strlen(err->message)) ||
	    !utf8_text_ok(err->field, strlen(err->field)))
		__builtin_trap();
}

/* Canonical JSON of a valid body must parse back to `body` itself when
 * `same_body`, and in any case render to the same text again. */
static void reparse(const char *json, size_t len, const eng_buf *body, int same_body)
{
	h2emv_error err;
	eng_buf again = { 0 };
	int rc = obs_from_json(&again, json, len, 1, &err);
	if (len > H2EMV_OBS_MAX_BYTES) { /* documented: canonical text may grow */
		if (rc != H2EMV_ELIMIT)
			__builtin_trap();
		eng_buf_free(&again);
		return;
	}
	if (rc != H2EMV_OK)
		__builtin_trap();
	if (same_body && (again.len != body->len || memcmp(again.data, body->data, body->len)))
		__builtin_trap();
	char *json2 = NULL;
	size_t len2 = 0;
	if (obs_to_json(&json2, &len2, again.data, again.len, &err) != H2EMV_OK)
		__builtin_trap();
	if (len2 != len || memcmp(json, json2, len) != 0)
		__builtin_trap();
	free(json2);
	eng_buf_free(&again);
}

static void as_json(const uint8_t *data, size_t size)
{
	h2emv_error err;
	eng_buf body = { 0 };
	int rc = obs_from_json(&body, (const char *)data, size, 1, &err);
	if (rc != H2EMV_OK) {
		if (rc != H2EMV_EPARSE && rc != H2EMV_ELIMIT && rc != H2EMV_ENOMEM)
			__builtin_trap();
		check_error(&err, rc);
		if (body.len != 0)
			__builtin_trap();
		eng_buf_free(&body);
		return;
	}
	if (obs_body_check(body.data, body.len, &err) != H2EMV_OK)
		__builtin_trap();
	char *json = NULL;
	size_t len = 0;
	if (obs_to_json(&json, &len, body.data, body.len, &err) != H2EMV_OK)
		__builtin_trap();
	reparse(json, len, &body, 1);
	free(json);
	eng_buf_free(&body);
}

static void as_body(const uint8_t *data, size_t size)
{
	h2emv_error err;
	int checked = obs_body_check(data, size, &err);
	char *json = NULL;
	size_t len = 0;
	int rc = obs_to_json(&json, &len, data, size, &err);
	if (rc != checked)
		__builtin_trap();
	if (rc != H2EMV_OK) {
		if (rc != H2EMV_ECORRUPT && rc != H2EMV_ENOMEM)
			__builtin_trap();
		check_error(&err, rc);
		if (json != NULL)
			__builtin_trap();
		return;
	}
	if (strlen(json) != len)
		__builtin_trap();
	/* The raw bytes need not be canonical (a float64 that fits a float32,
	 * a longer integer encoding), so only the text must be stable. */
	reparse(json, len, NULL, 0);
	free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	as_json(data, size);
	as_body(data, size);
	return 0;
}
