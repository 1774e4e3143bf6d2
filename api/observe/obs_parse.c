/*
 * obs_parse.c — one observation from JSON text to its canonical msgpack
 * body (the bytes stored in the obs log): the text is scanned once into
 * tokens (obs_scan.c), then each field is checked and packed in stored
 * order. Strict: every field, type, time and limit of docs/formats.md is
 * checked, and an error names the input line, the column and the field
 * path. The scene fields are in obs_parse_scene.c, the way back in
 * obs_body.c.
 */
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_scan.h"
#include "api/observe/observation.h"

static int put_any(octx *c, uint32_t v, int depth);

/* An object of any members: action.args and what it nests. */
static int put_any_object(octx *c, uint32_t v, int depth)
{
	uint32_t local[32], *keys;
	int rc = op_sorted_keys(c, v, local, 32, &keys);
	if (rc)
		return rc;
	size_t n = c->tok[v].n;
	msgpack_pack_map(&c->pk, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const os_tok *k = &c->tok[keys[i]];
		obs_path_key(&c->path, k->s, k->n);
		if (k->n > OBS_MAX_STRING)
			rc = op_fail_at(c, H2EMV_ELIMIT, 1, "the key is %u bytes, over the limit of %u",
			                (unsigned)k->n, OBS_MAX_STRING);
		if (!rc) {
			op_pack_strn(c, k->s, k->n);
			rc = put_any(c, keys[i] + 1, depth + 1);
		}
		if (!rc)
			obs_path_pop(&c->path);
	}
	if (keys != local)
		free(keys);
	return rc;
}

static int put_any_array(octx *c, uint32_t v, int depth)
{
	const os_tok *t = &c->tok[v];
	int rc = op_check_items(c, t->n);
	if (rc)
		return rc;
	msgpack_pack_array(&c->pk, t->n);
	size_t i = 0;
	for (uint32_t k = v + 1; k < t->next; k = c->tok[k].next, i++) {
		obs_path_idx(&c->path, i);
		if ((rc = put_any(c, k, depth + 1)))
			return rc;
		obs_path_pop(&c->path);
	}
	return H2EMV_OK;
}

/* Any JSON value, stored faithfully; `depth` counts containers, args = 1. */
static int put_any(octx *c, uint32_t v, int depth)
{
	int rc;
	if (!op_put_scalar(c, v, &rc))
		return rc;
	if (depth > OBS_MAX_ARGS_DEPTH)
		return op_fail(c, H2EMV_ELIMIT, "nested deeper than %d levels", OBS_MAX_ARGS_DEPTH);
	if (c->tok[v].type == OS_OBJECT)
		return put_any_object(c, v, depth);
	return put_any_array(c, v, depth);
}

/* ---------------------------------------------------------------- times -- */

static int get_time(octx *c, uint32_t v, int64_t *out)
{
	const os_tok *t = &c->tok[v];
	if (t->type == OS_INT) {
		if (t->v.i < 0 || t->v.i > OBS_TIME_MAX)
			return op_fail(c, H2EMV_EPARSE,
			               "%lld microseconds is outside 1970-01-01 .. 9999-12-31",
			               (long long)t->v.i);
		*out = t->v.i;
		return H2EMV_OK;
	}
	if (t->type != OS_STRING)
		return op_fail(c, H2EMV_EPARSE,
		               "expected an RFC 3339 date-time string or an integer of "
		               "microseconds since the epoch, got %s",
		               t->type == OS_REAL ? "a real number" : op_type(t));
	const char *why = "";
	if (obs_time_parse(out, t->s, t->n, &why))
		return op_fail(c, H2EMV_EPARSE, "\"%.*s\" is not an RFC 3339 date-time: %s",
		               op_clip(t->s, t->n, 48), t->s, why);
	return H2EMV_OK;
}

static int put_t(octx *c, uint32_t v)
{
	int rc = get_time(c, v, &c->t);
	if (!rc)
		msgpack_pack_int64(&c->pk, c->t);
	return rc;
}

static int put_t_end(octx *c, uint32_t v)
{
	int64_t t_end = 0;
	int rc = get_time(c, v, &t_end);
	if (rc)
		return rc;
	if (t_end < c->t) {
		char a[OBS_TIME_TEXT], b[OBS_TIME_TEXT];
		obs_time_format(a, t_end);
		obs_time_format(b, c->t);
		return op_fail(c, H2EMV_EPARSE, "the end %s is before the start t %s", a, b);
	}
	msgpack_pack_int64(&c->pk, t_end);
	return H2EMV_OK;
}

/* --------------------------------------------------------- action, goal -- */

/* ASCII-only case folding: the names are ASCII, and the C library's would
 * follow the locale. */
static int ascii_ieq(const char *a, size_t n, const char *b)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
		if (x != b[i])
			return 0;
	}
	return b[n] == '\0';
}

static int put_status(octx *c, uint32_t v)
{
	static const char expected[] = OBS_STATUS_EXPECTED;
	const os_tok *t = &c->tok[v];
	if (t->type != OS_STRING)
		return op_fail(c, H2EMV_EPARSE, "expected %s, got %s", expected, op_type(t));
	for (int k = 1; k <= OBS_ST_LAST; k++) {
		if (ascii_ieq(t->s, t->n, obs_status_names[k])) {
			msgpack_pack_uint8(&c->pk, (uint8_t)k);
			return H2EMV_OK;
		}
	}
	int k = obs_status_word(t->s, t->n);
	if (k) {
		msgpack_pack_uint8(&c->pk, (uint8_t)k);
		return H2EMV_OK;
	}
	return op_fail(c, H2EMV_EPARSE, "unknown status \"%.*s\", expected %s (any case)",
	               op_clip(t->s, t->n, 40), t->s, expected);
}

static int put_args(octx *c, uint32_t v)
{
	const os_tok *t = &c->tok[v];
	if (t->type != OS_OBJECT && t->type != OS_ARRAY)
		return op_fail(c, H2EMV_EPARSE, "expected an object or an array, got %s",
		               op_type(t));
	return put_any(c, v, 1);
}

/* "Name(arg, 'a, b')": the name and the arguments as an array of strings
 * (none stored for a bare "Name"). */
static int put_action_string(octx *c, const char *s, size_t n)
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
	if ((r = op_check_items(c, nargs)))
		return r;
	msgpack_pack_map(&c->pk, inside.s ? 2 : 1);
	msgpack_pack_uint8(&c->pk, OBS_ACT_NAME);
	op_pack_strn(c, name.s, name.n);
	if (!inside.s)
		return H2EMV_OK;
	msgpack_pack_uint8(&c->pk, OBS_ACT_ARGS);
	msgpack_pack_array(&c->pk, nargs);
	for (rest = inside; obs_action_next_arg(&rest, &arg, &why) > 0;)
		op_pack_strn(c, arg.s, arg.n);
	return H2EMV_OK;
bad:
	return op_fail(c, H2EMV_EPARSE, "\"%.*s\" is not an action \"Name(arg, ...)\": %s",
	               op_clip(s, n, 60), s, why);
}

static int put_action(octx *c, uint32_t v)
{
	static const char *const keys[] = { "name", "args", "status" };
	const os_tok *t = &c->tok[v];
	if (t->type == OS_STRING) {
		int rc = op_check_strn(c, t->n, 1);
		return rc ? rc : put_action_string(c, t->s, t->n);
	}
	if (t->type != OS_OBJECT)
		return op_fail(c, H2EMV_EPARSE,
		               "expected an object {name, args, status} or a string "
		               "\"Name(arg, ...)\", got %s", op_type(t));
	uint32_t m[3];
	int rc = op_slots(c, v, keys, 3, "an action", m);
	if (!rc)
		rc = op_require(c, m[0], "name", "an action needs a name");
	if (rc)
		return rc;
	int args = op_has(c, m[1]), status = op_has(c, m[2]);
	msgpack_pack_map(&c->pk, (size_t)(1 + args + status));
	msgpack_pack_uint8(&c->pk, OBS_ACT_NAME);
	rc = op_put_member(c, m[0], "name", op_put_ident);
	if (!rc && args) {
		msgpack_pack_uint8(&c->pk, OBS_ACT_ARGS);
		rc = op_put_member(c, m[1], "args", put_args);
	}
	if (!rc && status) {
		msgpack_pack_uint8(&c->pk, OBS_ACT_STATUS);
		rc = op_put_member(c, m[2], "status", put_status);
	}
	return rc;
}

/* "A.B.C": the stack outermost first; no step may be empty. */
static int put_goal_dotted(octx *c, const char *s, size_t n)
{
	size_t steps = 1;
	int rc = op_check_strn(c, n, 1);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '.')
			continue;
		if (i == 0 || i + 1 == n || s[i + 1] == '.')
			return op_fail(c, H2EMV_EPARSE, "empty step in the dotted goal \"%.*s\"",
			               op_clip(s, n, 60), s);
		steps++;
	}
	if ((rc = op_check_items(c, steps)))
		return rc;
	msgpack_pack_array(&c->pk, steps);
	for (size_t start = 0, i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			op_pack_strn(c, s + start, i - start);
			start = i + 1;
		}
	}
	return H2EMV_OK;
}

static int put_goal(octx *c, uint32_t v)
{
	const os_tok *t = &c->tok[v];
	if (t->type == OS_STRING)
		return put_goal_dotted(c, t->s, t->n);
	if (t->type != OS_ARRAY)
		return op_fail(c, H2EMV_EPARSE,
		               "expected an array of strings or a dotted string \"A.B.C\", got %s",
		               op_type(t));
	return op_put_array_of(c, v, op_put_ident, "strings");
}

/* The producer's id: what makes a resent observation recognisable. */
static int put_id(octx *c, uint32_t v)
{
	const os_tok *t = &c->tok[v];
	if (t->type != OS_STRING)
		return op_fail(c, H2EMV_EPARSE, "expected a string (the observation's id), got %s",
		               op_type(t));
	if (!obs_id_ok(t->s, t->n))
		return op_fail(c, H2EMV_EPARSE,
		               "an id is 1 to %d characters, each printable ASCII other than space",
		               OBS_ID_MAX);
	op_pack_strn(c, t->s, t->n);
	if (c->id) {
		memcpy(c->id, t->s, t->n);
		c->id[t->n] = 0;
		*c->id_len = t->n;
	}
	return H2EMV_OK;
}

typedef int (*put_fn)(octx *, uint32_t);

static const put_fn top_fns[OBS_K_LAST + 1] = {
	[OBS_K_T] = put_t,
	[OBS_K_T_END] = put_t_end,
	[OBS_K_ACTION] = put_action,
	[OBS_K_GOAL] = put_goal,
	[OBS_K_GOAL_STATUS] = put_status,
	[OBS_K_LOCATION] = op_put_text,
	[OBS_K_OBJECTS] = op_put_objects,
	[OBS_K_RELATIONS] = op_put_relations,
	[OBS_K_PERSONS] = op_put_persons,
	[OBS_K_SPEECH] = op_put_speech,
	[OBS_K_NOTE] = op_put_text,
	[OBS_K_ID] = put_id,
};

/* The offset t is written in (minutes east of UTC), 0 for UTC, an
 * integer time or a t that does not parse (put_t reports that). */
static int t_zone(const octx *c, uint32_t v)
{
	int64_t us;
	int zone = 0;
	const char *why = "";
	if (!v || c->tok[v].type != OS_STRING ||
	    obs_time_parse_zone(&us, &zone, c->tok[v].s, c->tok[v].n, &why))
		return 0;
	return zone;
}

static int put_observation(octx *c)
{
	const os_tok *root = &c->tok[0];
	if (root->type != OS_OBJECT)
		return op_fail(c, H2EMV_EPARSE, "expected a JSON object (one observation), got %s",
		               op_type(root));
	uint32_t m[OBS_K_LAST + 1];
	int rc = op_slots(c, 0, obs_top_names + 1, OBS_K_LAST, "an observation", m + 1);
	if (!rc)
		rc = op_require(c, m[OBS_K_T], "t", "every observation needs a time t");
	if (rc)
		return rc;
	size_t n = 0;
	for (int k = 1; k <= OBS_K_LAST; k++)
		n += (size_t)op_has(c, m[k]);
	int zone = t_zone(c, m[OBS_K_T]);
	msgpack_pack_map(&c->pk, n + (zone != 0));
	for (int k = 1; k <= OBS_K_LAST && !rc; k++) {
		/* t is required, so even t: null is handed to its checker. */
		if (k != OBS_K_T && !op_has(c, m[k]))
			continue;
		msgpack_pack_uint8(&c->pk, (uint8_t)k);
		rc = op_put_member(c, m[k], obs_top_names[k], top_fns[k]);
	}
	if (!rc && zone) {
		msgpack_pack_uint8(&c->pk, (uint8_t)OBS_K_ZONE);
		msgpack_pack_int(&c->pk, zone);
	}
	return rc;
}

/* ---------------------------------------------------------------- entry -- */

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

static int fail_column(octx *c, int status, uint64_t column, const obs_path *path,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail_column(octx *c, int status, uint64_t column, const obs_path *path,
                       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(c->err, status, c->line, column, path, NULL, fmt, ap);
	va_end(ap);
	return status;
}

/* The msgpack packer's write callback. */
static int write_body(void *data, const char *buf, size_t len)
{
	octx *c = data;
	eng_buf *b = c->out;
	if (!c->nomem && b->cap - b->len >= len) { /* reserved up front: the usual case */
		if (len <= 8) {
			for (size_t i = 0; i < len; i++)
				b->data[b->len + i] = (uint8_t)buf[i];
		} else {
			memcpy(b->data + b->len, buf, len);
		}
		b->len += len;
		return 0;
	}
	if (c->nomem || eng_buf_append(b, buf, len)) {
		c->nomem = 1;
		return -1;
	}
	return 0;
}

/* What must be said before the text is scanned: arguments, size, blank
 * line, NUL byte. */
static int precheck(octx *c, const char *json, size_t len)
{
	if (!c->out || (!json && len))
		return fail_column(c, H2EMV_EINVAL, 0, NULL, "obs_from_json: NULL argument");
	/* a huge line must cost nothing */
	if (len > H2EMV_OBS_MAX_BYTES)
		return fail_column(c, H2EMV_ELIMIT, 0, NULL,
		                   "the observation is %zu bytes, over the limit of %u bytes", len,
		                   H2EMV_OBS_MAX_BYTES);
	if (is_blank(json, len))
		return fail_column(c, H2EMV_EPARSE, 0, NULL,
		                   "empty line, expected an observation object");
	const char *nul = memchr(json, '\0', len);
	if (nul) {
		obs_path_at(&c->path, json, len, (size_t)(nul - json));
		return fail_column(c, H2EMV_EPARSE, obs_column_of(json, len, (size_t)(nul - json)),
		                   &c->path, "a NUL byte is not allowed in the JSON text");
	}
	return H2EMV_OK;
}

int obs_from_json(eng_buf *body, const char *json, size_t len, uint64_t line,
                  h2emv_error *err)
{
	return obs_from_json_id(body, NULL, NULL, json, len, line, err);
}

int obs_from_json_id(eng_buf *body, char *id, size_t *id_len, const char *json, size_t len,
                     uint64_t line, h2emv_error *err)
{
	octx c = { .err = err, .line = line, .text = json, .len = len, .out = body };
	if (id && id_len) {
		c.id = id;
		c.id_len = id_len;
		*id_len = 0;
	}
	int rc = precheck(&c, json, len);
	if (rc)
		return rc;
	os_doc doc;
	rc = os_scan(&doc, json, len);
	if (rc == H2EMV_ENOMEM)
		rc = fail_column(&c, H2EMV_ENOMEM, 0, NULL, "out of memory");
	else if (rc)
		rc = os_syntax_error(err, json, len, line);
	if (rc) {
		os_doc_free(&doc);
		return rc;
	}
	size_t start = body->len;
	/* one reservation that holds the body of most observations */
	if (eng_buf_reserve(body, len + len / 4 + 16))
		c.nomem = 1;
	c.tok = doc.tok;
	msgpack_packer_init(&c.pk, &c, write_body);
	rc = put_observation(&c);
	if (!rc && c.nomem)
		rc = fail_column(&c, H2EMV_ENOMEM, 0, NULL, "out of memory");
	os_doc_free(&doc);
	if (rc)
		body->len = start;
	return rc;
}
