/*
 * obs_ref.c — the reference reader of observations: the jansson tree
 * walked into the canonical msgpack body, as h2emv read observations
 * until the one-pass reader (api/obs_parse.c) replaced it. Kept only so
 * that fuzz_obs_diff can check the two agree on every input: verdict,
 * status, message and body bytes. Helpers are in obs_json.c, the scene
 * fields in obs_scene.c.
 */
#include <stdlib.h>
#include <string.h>

#include "obs_json.h"
#include "api/observe/observation.h"
#include "obs_ref.h"

static int put_any(jctx *c, const json_t *v, int depth);

/* An object of any members: action.args and what it nests. */
static int put_any_object(jctx *c, const json_t *v, int depth)
{
	jmember *m;
	size_t n;
	int rc = oj_sorted_members(c, v, &m, &n);
	if (rc)
		return rc;
	msgpack_pack_map(&c->pk, n);
	for (size_t i = 0; i < n && !rc; i++) {
		obs_path_key(&c->path, m[i].key, m[i].klen);
		if (m[i].klen > OBS_MAX_STRING)
			rc = oj_fail_at(c, H2EMV_ELIMIT, 1, "the key is %zu bytes, over the limit of %u",
			                m[i].klen, OBS_MAX_STRING);
		if (!rc) {
			oj_pack_strn(c, m[i].key, m[i].klen);
			rc = put_any(c, m[i].val, depth + 1);
		}
		if (!rc)
			obs_path_pop(&c->path);
	}
	free(m);
	return rc;
}

static int put_any_array(jctx *c, const json_t *v, int depth)
{
	size_t n = json_array_size(v);
	int rc = oj_check_items(c, n);
	if (rc)
		return rc;
	msgpack_pack_array(&c->pk, n);
	for (size_t i = 0; i < n; i++) {
		obs_path_idx(&c->path, i);
		rc = put_any(c, json_array_get(v, i), depth + 1);
		if (rc)
			return rc;
		obs_path_pop(&c->path);
	}
	return H2EMV_OK;
}

/* Any JSON value, stored faithfully; `depth` counts containers, args = 1. */
static int put_any(jctx *c, const json_t *v, int depth)
{
	int rc;
	if (!oj_put_scalar(c, v, &rc))
		return rc;
	if (depth > OBS_MAX_ARGS_DEPTH)
		return oj_fail(c, H2EMV_ELIMIT, "nested deeper than %d levels", OBS_MAX_ARGS_DEPTH);
	if (json_is_object(v))
		return put_any_object(c, v, depth);
	return put_any_array(c, v, depth);
}

/* ---------------------------------------------------------------- times -- */

static int get_time(jctx *c, const json_t *v, int64_t *out)
{
	if (json_is_integer(v)) {
		json_int_t us = json_integer_value(v);
		if (us < 0 || us > OBS_TIME_MAX)
			return oj_fail(c, H2EMV_EPARSE,
			               "%lld microseconds is outside 1970-01-01 .. 9999-12-31",
			               (long long)us);
		*out = us;
		return H2EMV_OK;
	}
	if (!json_is_string(v))
		return oj_fail(c, H2EMV_EPARSE,
		               "expected an RFC 3339 date-time string or an integer of "
		               "microseconds since the epoch, got %s",
		               json_is_real(v) ? "a real number" : oj_type(v));
	const char *s = json_string_value(v), *why = "";
	size_t n = json_string_length(v);
	if (obs_time_parse(out, s, n, &why))
		return oj_fail(c, H2EMV_EPARSE, "\"%.*s\" is not an RFC 3339 date-time: %s",
		               oj_clip(s, n, 48), s, why);
	return H2EMV_OK;
}

static int put_t(jctx *c, const json_t *v)
{
	int rc = get_time(c, v, &c->t);
	if (!rc)
		msgpack_pack_int64(&c->pk, c->t);
	return rc;
}

static int put_t_end(jctx *c, const json_t *v)
{
	int64_t t_end = 0;
	int rc = get_time(c, v, &t_end);
	if (rc)
		return rc;
	if (t_end < c->t) {
		char a[OBS_TIME_TEXT], b[OBS_TIME_TEXT];
		obs_time_format(a, t_end);
		obs_time_format(b, c->t);
		return oj_fail(c, H2EMV_EPARSE, "the end %s is before the start t %s", a, b);
	}
	msgpack_pack_int64(&c->pk, t_end);
	return H2EMV_OK;
}

/* --------------------------------------------------------- action, goal -- */

/* ASCII-only case folding: the names are ASCII, and the C library's would
 * follow the locale. */
static int ascii_ieq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
		if (x != b[i])
			return 0;
	}
	return b[n] == '\0';
}

static int put_status(jctx *c, const json_t *v)
{
	static const char expected[] = OBS_STATUS_EXPECTED;
	if (!json_is_string(v))
		return oj_fail(c, H2EMV_EPARSE, "expected %s, got %s", expected, oj_type(v));
	const char *s = json_string_value(v);
	size_t n = json_string_length(v);
	for (int k = 1; k <= OBS_ST_LAST; k++) {
		if (ascii_ieq(s, obs_status_names[k], n)) {
			msgpack_pack_uint8(&c->pk, (uint8_t)k);
			return H2EMV_OK;
		}
	}
	int k = obs_status_word(s, n); /* the other words robots log */
	if (k) {
		msgpack_pack_uint8(&c->pk, (uint8_t)k);
		return H2EMV_OK;
	}
	return oj_fail(c, H2EMV_EPARSE, "unknown status \"%.*s\", expected %s (any case)",
	               oj_clip(s, n, 40), s, expected);
}

static int put_args(jctx *c, const json_t *v)
{
	if (!json_is_object(v) && !json_is_array(v))
		return oj_fail(c, H2EMV_EPARSE, "expected an object or an array, got %s",
		               oj_type(v));
	return put_any(c, v, 1);
}

/* "Name(arg, 'a, b')": the name and the arguments as an array of strings
 * (none stored for a bare "Name"). */
static int put_action_string(jctx *c, const char *s, size_t n)
{
	obs_span name, inside, rest, arg;
	const char *why = "";
	size_t nargs = 0;
	int r;
	if (obs_action_split(s, n, &name, &inside, &why))
		goto bad;
	for (rest = inside; (r = obs_action_next_arg(&rest, &arg, &why)) > 0;)
		nargs++;
	if (r < 0)
		goto bad;
	if ((r = oj_check_items(c, nargs)))
		return r;
	msgpack_pack_map(&c->pk, inside.s ? 2 : 1);
	msgpack_pack_uint8(&c->pk, OBS_ACT_NAME);
	oj_pack_strn(c, name.s, name.n);
	if (!inside.s)
		return H2EMV_OK;
	msgpack_pack_uint8(&c->pk, OBS_ACT_ARGS);
	msgpack_pack_array(&c->pk, nargs);
	for (rest = inside; obs_action_next_arg(&rest, &arg, &why) > 0;)
		oj_pack_strn(c, arg.s, arg.n);
	return H2EMV_OK;
bad:
	return oj_fail(c, H2EMV_EPARSE, "\"%.*s\" is not an action \"Name(arg, ...)\": %s",
	               oj_clip(s, n, 60), s, why);
}

static int put_action(jctx *c, const json_t *v)
{
	static const char *const keys[] = { "name", "args", "status" };
	if (json_is_string(v)) {
		size_t n = json_string_length(v);
		int rc = oj_check_strn(c, n, 1);
		return rc ? rc : put_action_string(c, json_string_value(v), n);
	}
	if (!json_is_object(v))
		return oj_fail(c, H2EMV_EPARSE,
		               "expected an object {name, args, status} or a string "
		               "\"Name(arg, ...)\", got %s", oj_type(v));
	json_t *name;
	int rc = oj_check_keys(c, v, keys, 3, "an action");
	if (!rc)
		rc = oj_require(c, v, "name", "an action needs a name", &name);
	if (rc)
		return rc;
	json_t *args = oj_member(v, "args"), *status = oj_member(v, "status");
	msgpack_pack_map(&c->pk, 1 + (args != NULL) + (status != NULL));
	msgpack_pack_uint8(&c->pk, OBS_ACT_NAME);
	rc = oj_put_member(c, v, "name", oj_put_ident);
	if (!rc && args) {
		msgpack_pack_uint8(&c->pk, OBS_ACT_ARGS);
		rc = oj_put_member(c, v, "args", put_args);
	}
	if (!rc && status) {
		msgpack_pack_uint8(&c->pk, OBS_ACT_STATUS);
		rc = oj_put_member(c, v, "status", put_status);
	}
	return rc;
}

/* "A.B.C": the stack outermost first; no step may be empty. */
static int put_goal_dotted(jctx *c, const json_t *v)
{
	const char *s = json_string_value(v);
	size_t n = json_string_length(v), steps = 1;
	int rc = oj_check_strn(c, n, 1);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '.')
			continue;
		if (i == 0 || i + 1 == n || s[i + 1] == '.')
			return oj_fail(c, H2EMV_EPARSE, "empty step in the dotted goal \"%.*s\"",
			               oj_clip(s, n, 60), s);
		steps++;
	}
	if ((rc = oj_check_items(c, steps)))
		return rc;
	msgpack_pack_array(&c->pk, steps);
	for (size_t start = 0, i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			oj_pack_strn(c, s + start, i - start);
			start = i + 1;
		}
	}
	return H2EMV_OK;
}

static int put_goal(jctx *c, const json_t *v)
{
	if (json_is_string(v))
		return put_goal_dotted(c, v);
	if (!json_is_array(v))
		return oj_fail(c, H2EMV_EPARSE,
		               "expected an array of strings or a dotted string \"A.B.C\", got %s",
		               oj_type(v));
	return oj_put_array_of(c, v, oj_put_ident, "strings");
}

/* The producer's id: what makes a resent observation recognisable. */
static int put_id(jctx *c, const json_t *v)
{
	if (!json_is_string(v))
		return oj_fail(c, H2EMV_EPARSE, "expected a string (the observation's id), got %s",
		               oj_type(v));
	const char *s = json_string_value(v);
	size_t n = json_string_length(v);
	if (!obs_id_ok(s, n))
		return oj_fail(c, H2EMV_EPARSE,
		               "an id is 1 to %d characters, each printable ASCII other than space",
		               OBS_ID_MAX);
	oj_pack_strn(c, s, n);
	if (c->id) {
		memcpy(c->id, s, n);
		c->id[n] = 0;
		*c->id_len = n;
	}
	return H2EMV_OK;
}

typedef int (*put_fn)(jctx *, const json_t *);

static const put_fn top_fns[OBS_K_LAST + 1] = {
	[OBS_K_T] = put_t,
	[OBS_K_T_END] = put_t_end,
	[OBS_K_ACTION] = put_action,
	[OBS_K_GOAL] = put_goal,
	[OBS_K_GOAL_STATUS] = put_status,
	[OBS_K_LOCATION] = oj_put_text,
	[OBS_K_OBJECTS] = oj_put_objects,
	[OBS_K_RELATIONS] = oj_put_relations,
	[OBS_K_PERSONS] = oj_put_persons,
	[OBS_K_SPEECH] = oj_put_speech,
	[OBS_K_NOTE] = oj_put_text,
	[OBS_K_ID] = put_id,
};

static int put_observation(jctx *c, const json_t *root)
{
	if (!json_is_object(root))
		return oj_fail(c, H2EMV_EPARSE, "expected a JSON object (one observation), got %s",
		               oj_type(root));
	json_t *unused;
	int rc = oj_check_keys(c, root, obs_top_names + 1, OBS_K_LAST, "an observation");
	if (!rc)
		rc = oj_require(c, root, "t", "every observation needs a time t", &unused);
	if (rc)
		return rc;
	size_t n = 0;
	for (int k = 1; k <= OBS_K_LAST; k++)
		n += oj_member(root, obs_top_names[k]) != NULL;
	/* the offset t was written in, stored after the fields when not UTC */
	const json_t *t = json_object_get(root, "t");
	int64_t us;
	int zone = 0;
	const char *why;
	if (!json_is_string(t) || obs_time_parse_zone(&us, &zone, json_string_value(t),
	                                              json_string_length(t), &why))
		zone = 0;
	msgpack_pack_map(&c->pk, n + (zone != 0));
	for (int k = 1; k <= OBS_K_LAST && !rc; k++) {
		/* t is required, so even t: null is handed to its checker. */
		if (k != OBS_K_T && !oj_member(root, obs_top_names[k]))
			continue;
		msgpack_pack_uint8(&c->pk, (uint8_t)k);
		rc = oj_put_member(c, root, obs_top_names[k], top_fns[k]);
	}
	if (!rc && zone) {
		msgpack_pack_uint8(&c->pk, (uint8_t)OBS_K_ZONE);
		msgpack_pack_int(&c->pk, zone);
	}
	return rc;
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

static int fail_path(jctx *c, int status, uint64_t column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_path(jctx *c, int status, uint64_t column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(c->err, status, c->line, column, &c->path, NULL, fmt, ap);
	va_end(ap);
	return status;
}

/* jansson's error, in our words, keeping its own detail in parentheses. */
static int json_fail(jctx *c, const json_error_t *je)
{
	int status = H2EMV_EPARSE, code = json_error_code(je);
	size_t pos = je->position > 0 && (size_t)je->position <= c->len ? (size_t)je->position : 0;
	uint64_t column = je->column > 0 ? (uint64_t)je->column : 0;
	/* A line cut inside a string ends in "unexpected newline", inside a
	 * literal in "invalid token": at the very end, after a character that
	 * cannot end a value, both mean truncation. */
	int truncated = code == json_error_premature_end_of_input ||
	                (code == json_error_invalid_syntax && pos > 0 &&
	                 is_blank(c->text + pos, c->len - pos) &&
	                 !strchr("{}[],:", c->text[pos - 1]));
	const char *what;
	switch (code) {
	case json_error_out_of_memory: status = H2EMV_ENOMEM; what = "out of memory"; break;
	case json_error_stack_overflow: status = H2EMV_ELIMIT; what = "nested too deeply"; break;
	case json_error_invalid_utf8: what = "invalid UTF-8"; break;
	case json_error_end_of_input_expected:
		what = "unexpected characters after the observation object";
		break;
	case json_error_duplicate_key: what = "duplicate key"; break;
	case json_error_numeric_overflow: what = "number out of range"; break;
	case json_error_null_character: what = "NUL characters are not allowed in strings"; break;
	default: what = "invalid JSON"; break;
	}
	if (truncated) {
		what = "the line ends inside the JSON object (truncated?)";
		/* Point just past the last character there is, not at the start
		 * of the empty line after a trailing newline. */
		size_t end = c->len;
		while (end > 0 && is_blank(c->text + end - 1, 1))
			end--;
		column = obs_column_of(c->text, c->len, end);
	}
	obs_path_at(&c->path, c->text, c->len, pos);
	return fail_path(c, status, column, "%s (%s)", what, je->text);
}

int obs_ref_from_json_id(eng_buf *body, char *id, size_t *id_len, const char *json, size_t len,
                     uint64_t line, h2emv_error *err)
{
	jctx c = { .err = err, .line = line, .text = json, .len = len, .out = body };
	if (id && id_len) {
		c.id = id;
		c.id_len = id_len;
		*id_len = 0;
	}
	if (!body || (!json && len))
		return oj_fail_column(&c, H2EMV_EINVAL, 0, "obs_from_json: NULL argument");
	/* Before jansson sees it: a huge line must cost nothing. */
	if (len > H2EMV_OBS_MAX_BYTES)
		return oj_fail_column(&c, H2EMV_ELIMIT, 0,
		                      "the observation is %zu bytes, over the limit of %u bytes", len,
		                      H2EMV_OBS_MAX_BYTES);
	if (is_blank(json, len))
		return oj_fail_column(&c, H2EMV_EPARSE, 0,
		                      "empty line, expected an observation object");

	/* jansson stops at a raw NUL as if the text ended there, which would
	 * read as truncation; say what it is. */
	const char *nul = memchr(json, '\0', len);
	if (nul) {
		obs_path_at(&c.path, json, len, (size_t)(nul - json));
		return fail_path(&c, H2EMV_EPARSE, obs_column_of(json, len, (size_t)(nul - json)),
		                 "a NUL byte is not allowed in the JSON text");
	}

	json_error_t je;
	json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
	if (!root)
		return json_fail(&c, &je);
	size_t start = body->len;
	msgpack_packer_init(&c.pk, &c, oj_write);
	int rc = put_observation(&c, root);
	if (!rc && c.nomem)
		rc = oj_fail_column(&c, H2EMV_ENOMEM, 0, "out of memory");
	json_decref(root);
	if (rc)
		body->len = start;
	return rc;
}
