/*
 * obs_body.c — a stored observation body back to canonical JSON, and the
 * same walk without output as a structural check. The bytes come from disk
 * and may be anything: sizes are bounded and the msgpack walked with
 * mp_prescan before it is unpacked, then every type, key, string and limit
 * is checked against what obs_from_json writes. Any mismatch is
 * H2EMV_ECORRUPT with the field path in the message.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <msgpack.h>

#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"
#include "api/base/utf8.h"

typedef struct bctx {
	h2emv_error *err;
	eng_buf *out; /* NULL: check only */
	int nomem;
	int64_t t;    /* the body's t, to check t_end against */
	int zone;     /* the offset t was written in (minutes), to render it back */
	obs_path path;
} bctx;

typedef const msgpack_object mobj;

static int corrupt(bctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int corrupt(bctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(c->err, H2EMV_ECORRUPT, 0, 0, &c->path, "corrupt observation body: ", fmt, ap);
	va_end(ap);
	return H2EMV_ECORRUPT;
}

static const char *mtype(mobj *o)
{
	switch (o->type) {
	case MSGPACK_OBJECT_NIL: return "nil";
	case MSGPACK_OBJECT_BOOLEAN: return "a boolean";
	case MSGPACK_OBJECT_POSITIVE_INTEGER: return "an integer";
	case MSGPACK_OBJECT_NEGATIVE_INTEGER: return "an integer";
	case MSGPACK_OBJECT_FLOAT32: return "a real";
	case MSGPACK_OBJECT_FLOAT64: return "a real";
	case MSGPACK_OBJECT_STR: return "a string";
	case MSGPACK_OBJECT_ARRAY: return "an array";
	case MSGPACK_OBJECT_MAP: return "a map";
	case MSGPACK_OBJECT_BIN: return "binary data";
	default: return "an extension";
	}
}

/* ---------------------------------------------------------------- output -- */

static void emit(bctx *c, const char *s, size_t n)
{
	if (!c->out || c->nomem)
		return;
	if (eng_buf_append(c->out, s, n))
		c->nomem = 1;
}

static void emits(bctx *c, const char *s)
{
	emit(c, s, strlen(s));
}

int obs_json_string(eng_buf *out, const char *s, size_t n)
{
	if (n == 0) /* s may be NULL then */
		return eng_buf_append(out, "\"\"", 2);
	int rc = eng_buf_append(out, "\"", 1);
	size_t run = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		rc = eng_buf_append(out, s + run, i - run);
		run = i + 1;
		char esc[8];
		const char *e = ch == '"' ? "\\\"" : ch == '\\' ? "\\\\" : ch == '\n' ? "\\n"
		              : ch == '\t' ? "\\t" : ch == '\r' ? "\\r" : ch == '\b' ? "\\b"
		              : ch == '\f' ? "\\f" : NULL;
		if (!e) {
			snprintf(esc, sizeof esc, "\\u%04x", ch);
			e = esc;
		}
		if (!rc)
			rc = eng_buf_append(out, e, strlen(e));
	}
	if (!rc)
		rc = eng_buf_append(out, s + run, n - run);
	return rc ? rc : eng_buf_append(out, "\"", 1);
}

/* A JSON string: quotes, backslashes and control characters escaped, the
 * rest (valid UTF-8, checked before) as it is. */
static void emit_string(bctx *c, const char *s, size_t n)
{
	if (!c->out || c->nomem)
		return;
	if (obs_json_string(c->out, s, n))
		c->nomem = 1;
}

/* ------------------------------------------------------------- values -- */

/* A string within the limits, valid UTF-8 without NUL (what jansson
 * accepts on the way in); `ident`: a name or id, not empty. */
static int str_val(bctx *c, mobj *o, int ident)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return corrupt(c, "expected a string, got %s", mtype(o));
	if (o->via.str.size > OBS_MAX_STRING)
		return corrupt(c, "a string of %" PRIu32 " bytes, over the limit", o->via.str.size);
	if (ident && o->via.str.size == 0)
		return corrupt(c, "an empty name");
	if (!utf8_text_ok(o->via.str.ptr, o->via.str.size))
		return corrupt(c, "a string that is not valid UTF-8 or holds NUL");
	emit_string(c, o->via.str.ptr, o->via.str.size);
	return H2EMV_OK;
}

static int ident_val(bctx *c, mobj *o)
{
	return str_val(c, o, 1);
}

static int text_val(bctx *c, mobj *o)
{
	return str_val(c, o, 0);
}

static int id_val(bctx *c, mobj *o)
{
	if (o->type != MSGPACK_OBJECT_STR || !obs_id_ok(o->via.str.ptr, o->via.str.size))
		return corrupt(c, "an id that is not 1 to %d printable ASCII characters", OBS_ID_MAX);
	emit_string(c, o->via.str.ptr, o->via.str.size);
	return H2EMV_OK;
}

/* A string, number, boolean or nil. Returns 1 if `o` is none of those. */
static int scalar_val(bctx *c, mobj *o, int *rc)
{
	char num[OBS_REAL_TEXT];
	*rc = H2EMV_OK;
	switch (o->type) {
	case MSGPACK_OBJECT_NIL: emits(c, "null"); return 0;
	case MSGPACK_OBJECT_BOOLEAN: emits(c, o->via.boolean ? "true" : "false"); return 0;
	case MSGPACK_OBJECT_STR: *rc = text_val(c, o); return 0;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		if (o->via.u64 > INT64_MAX) /* JSON input never gives these */
			*rc = corrupt(c, "an integer above the int64 range");
		snprintf(num, sizeof num, "%" PRIu64, o->via.u64);
		emits(c, num);
		return 0;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		snprintf(num, sizeof num, "%" PRId64, o->via.i64);
		emits(c, num);
		return 0;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		if (!isfinite(o->via.f64)) {
			*rc = corrupt(c, "a real that is not finite");
			return 0;
		}
		obs_real_format(num, o->via.f64);
		emits(c, num);
		return 0;
	default:
		return 1;
	}
}

static int check_count(bctx *c, uint32_t n)
{
	if (n > OBS_MAX_ITEMS)
		return corrupt(c, "%" PRIu32 " items, over the limit of %u", n, OBS_MAX_ITEMS);
	return H2EMV_OK;
}

/* An array whose items are each checked (and rendered) by `fn`. */
static int array_of(bctx *c, mobj *o, int (*fn)(bctx *, mobj *))
{
	if (o->type != MSGPACK_OBJECT_ARRAY)
		return corrupt(c, "expected an array, got %s", mtype(o));
	int rc = check_count(c, o->via.array.size);
	emit(c, "[", 1);
	for (uint32_t i = 0; i < o->via.array.size && !rc; i++) {
		if (i)
			emit(c, ",", 1);
		obs_path_idx(&c->path, i);
		rc = fn(c, &o->via.array.ptr[i]);
		if (!rc)
			obs_path_pop(&c->path);
	}
	emit(c, "]", 1);
	return rc;
}

/* A map with string keys in strictly ascending obs_key_cmp order (so no
 * duplicates), each value checked by `fn(c, value, depth)`. `ident_keys`:
 * keys must not be empty (object states). */
static int string_map(bctx *c, mobj *o, int depth, int ident_keys,
                      int (*fn)(bctx *, mobj *, int))
{
	int rc = check_count(c, o->via.map.size);
	emit(c, "{", 1);
	for (uint32_t i = 0; i < o->via.map.size && !rc; i++) {
		mobj *k = &o->via.map.ptr[i].key;
		if (i)
			emit(c, ",", 1);
		if (k->type != MSGPACK_OBJECT_STR)
			return corrupt(c, "a key that is %s, not a string", mtype(k));
		mobj *prev = i ? &o->via.map.ptr[i - 1].key : NULL;
		if (prev && obs_key_cmp(prev->via.str.ptr, prev->via.str.size, k->via.str.ptr,
		                        k->via.str.size) >= 0)
		                        return corrupt(c, "keys out of order or repeated");
		rc = str_val(c, k, ident_keys);
		emit(c, ":", 1);
		obs_path_key(&c->path, k->via.str.ptr, k->via.str.size);
		if (!rc)
			rc = fn(c, &o->via.map.ptr[i].val, depth + 1);
		if (!rc)
			obs_path_pop(&c->path);
	}
	emit(c, "}", 1);
	return rc;
}

/* Any value of action.args, nested at most OBS_MAX_ARGS_DEPTH deep. */
static int any_val(bctx *c, mobj *o, int depth)
{
	int rc;
	if (!scalar_val(c, o, &rc))
		return rc;
	if (o->type != MSGPACK_OBJECT_ARRAY && o->type != MSGPACK_OBJECT_MAP)
		return corrupt(c, "unexpected %s", mtype(o));
	if (depth > OBS_MAX_ARGS_DEPTH)
		return corrupt(c, "nested deeper than %d levels", OBS_MAX_ARGS_DEPTH);
	if (o->type == MSGPACK_OBJECT_MAP)
		return string_map(c, o, depth, 0, any_val);
	rc = check_count(c, o->via.array.size);
	emit(c, "[", 1);
	for (uint32_t i = 0; i < o->via.array.size && !rc; i++) {
		if (i)
			emit(c, ",", 1);
		obs_path_idx(&c->path, i);
		rc = any_val(c, &o->via.array.ptr[i], depth + 1);
		if (!rc)
			obs_path_pop(&c->path);
	}
	emit(c, "]", 1);
	return rc;
}

/* ------------------------------------------------- maps with int keys -- */

typedef int (*field_fn)(bctx *, mobj *);

/* One kind of map with small integer keys: the JSON name and checker of
 * each key (index 0 unused), and the keys that must be present. */
typedef struct map_kind {
	const char *what;
	int last;
	const char *const *names;
	const field_fn *fns;
	unsigned required; /* bit k: key k */
	int need_one;      /* at least one key (a person) */
	unsigned hidden;   /* bit k: key k is checked but not rendered */
} map_kind;

static int int_map(bctx *c, mobj *o, const map_kind *k)
{
	if (o->type != MSGPACK_OBJECT_MAP)
		return corrupt(c, "expected %s (a map), got %s", k->what, mtype(o));
	unsigned seen = 0;
	uint64_t prev = 0;
	for (uint32_t i = 0; i < o->via.map.size; i++) {
		mobj *key = &o->via.map.ptr[i].key;
		if (key->type != MSGPACK_OBJECT_POSITIVE_INTEGER || key->via.u64 <= prev ||
		    key->via.u64 > (uint64_t)k->last)
			return corrupt(c, "%s with a bad, repeated or unordered key", k->what);
		prev = key->via.u64;
		seen |= 1u << prev;
	}
	for (int i = 1; i <= k->last; i++)
		if ((k->required & (1u << i)) && !(seen & (1u << i)))
			return corrupt(c, "%s without its %s", k->what, k->names[i]);
	if (k->need_one && !seen)
		return corrupt(c, "%s that is empty", k->what);

	int rc = H2EMV_OK;
	emit(c, "{", 1);
	int first = 1;
	for (uint32_t i = 0; i < o->via.map.size && !rc; i++) {
		uint64_t key = o->via.map.ptr[i].key.via.u64;
		const char *name = k->names[key];
		eng_buf *out = c->out;
		if (k->hidden & (1u << key))
			c->out = NULL; /* checked, not rendered */
		else if (!first)
			emit(c, ",", 1);
		if (c->out) {
			first = 0;
			emit_string(c, name, strlen(name));
			emit(c, ":", 1);
		}
		obs_path_key(&c->path, name, strlen(name));
		rc = k->fns[key](c, &o->via.map.ptr[i].val);
		c->out = out;
		if (!rc)
			obs_path_pop(&c->path);
	}
	emit(c, "}", 1);
	return rc;
}

/* -------------------------------------------------------------- fields -- */

static int time_val(bctx *c, mobj *o, int64_t *us)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > (uint64_t)OBS_TIME_MAX)
		return corrupt(c, "expected a time in microseconds, got %s", mtype(o));
	*us = (int64_t)o->via.u64;
	char text[OBS_TIME_TEXT];
	obs_time_format_zone(text, *us, c->zone);
	emit(c, "\"", 1);
	emits(c, text);
	emit(c, "\"", 1);
	return H2EMV_OK;
}

static int t_val(bctx *c, mobj *o)
{
	return time_val(c, o, &c->t);
}

static int t_end_val(bctx *c, mobj *o)
{
	int64_t t_end = 0;
	int rc = time_val(c, o, &t_end);
	if (!rc && t_end < c->t)
		return corrupt(c, "ends before it starts");
	return rc;
}

/* The offset t was written in: minutes east of UTC, never 0 (UTC is
 * not stored); rendered through t (walk_body reads it first). */
static int zone_val(bctx *c, mobj *o)
{
	int64_t z = o->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (int64_t)o->via.u64
	            : o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER ? o->via.i64
	                                                          : 0;
	if (!z || z < -OBS_ZONE_MAX || z > OBS_ZONE_MAX)
		return corrupt(c, "expected a UTC offset of -%d..%d minutes other than 0",
		               OBS_ZONE_MAX, OBS_ZONE_MAX);
	return H2EMV_OK;
}

static int status_val(bctx *c, mobj *o)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 < 1 ||
	    o->via.u64 > OBS_ST_LAST)
		return corrupt(c, "expected a status 1..%d", OBS_ST_LAST);
	emit_string(c, obs_status_names[o->via.u64], strlen(obs_status_names[o->via.u64]));
	return H2EMV_OK;
}

static int args_val(bctx *c, mobj *o)
{
	if (o->type != MSGPACK_OBJECT_ARRAY && o->type != MSGPACK_OBJECT_MAP)
		return corrupt(c, "expected a map or an array, got %s", mtype(o));
	return any_val(c, o, 1);
}

static const char *const action_names[] = { NULL, "name", "args", "status" };
static const field_fn action_fns[] = { NULL, ident_val, args_val, status_val };
static const map_kind action_kind = { "an action", OBS_ACT_STATUS, action_names, action_fns,
	                              1u << OBS_ACT_NAME, 0, 0 };

static int action_val(bctx *c, mobj *o)
{
	return int_map(c, o, &action_kind);
}

static int goal_val(bctx *c, mobj *o)
{
	return array_of(c, o, ident_val);
}

static int state_item(bctx *c, mobj *o)
{
	int rc;
	if (scalar_val(c, o, &rc))
		return corrupt(c, "expected a scalar, got %s", mtype(o));
	return rc;
}

static int state_entry(bctx *c, mobj *o, int depth)
{
	(void)depth;
	return o->type == MSGPACK_OBJECT_ARRAY ? array_of(c, o, state_item) : state_item(c, o);
}

static int state_val(bctx *c, mobj *o)
{
	if (o->type == MSGPACK_OBJECT_STR)
		return text_val(c, o);
	if (o->type != MSGPACK_OBJECT_MAP)
		return corrupt(c, "expected a string or a map, got %s", mtype(o));
	return string_map(c, o, 0, 1, state_entry);
}

/* [from,] to, type: rendered as {"from":..,"to":..,"type":..}. */
static int relation(bctx *c, mobj *o, int with_from)
{
	static const char *const names[] = { "from", "to", "type" };
	const char *const *k = with_from ? names : names + 1;
	uint32_t nk = with_from ? 3 : 2;
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != nk)
		return corrupt(c, "expected a relation of %" PRIu32 " strings, got %s", nk,
		               mtype(o));
	int rc = H2EMV_OK;
	emit(c, "{", 1);
	for (uint32_t i = 0; i < nk && !rc; i++) {
		if (i)
			emit(c, ",", 1);
		emit_string(c, k[i], strlen(k[i]));
		emit(c, ":", 1);
		obs_path_key(&c->path, k[i], strlen(k[i]));
		rc = ident_val(c, &o->via.array.ptr[i]);
		if (!rc)
			obs_path_pop(&c->path);
	}
	emit(c, "}", 1);
	return rc;
}

static int object_relation(bctx *c, mobj *o)
{
	return relation(c, o, 0);
}

static int scene_relation(bctx *c, mobj *o)
{
	return relation(c, o, 1);
}

static int object_relations_val(bctx *c, mobj *o)
{
	return array_of(c, o, object_relation);
}

static int relations_val(bctx *c, mobj *o)
{
	return array_of(c, o, scene_relation);
}

static const char *const object_names[] = { NULL, "id", "type", "state", "relations" };
static const field_fn object_fns[] = { NULL, ident_val, ident_val, state_val,
	                               object_relations_val };
static const map_kind object_kind = { "an object", OBS_OBJ_RELATIONS, object_names, object_fns,
	                              (1u << OBS_OBJ_ID) | (1u << OBS_OBJ_TYPE), 0, 0 };

static int object_val(bctx *c, mobj *o)
{
	return int_map(c, o, &object_kind);
}

static int objects_val(bctx *c, mobj *o)
{
	return array_of(c, o, object_val);
}

static const char *const person_names[] = { NULL, "name", "id" };
static const field_fn person_fns[] = { NULL, ident_val, ident_val };
static const map_kind person_kind = { "a person", OBS_PER_ID, person_names, person_fns, 0, 1, 0 };

static int person_val(bctx *c, mobj *o)
{
	return int_map(c, o, &person_kind);
}

static int persons_val(bctx *c, mobj *o)
{
	return array_of(c, o, person_val);
}

static const char *const speech_names[] = { NULL, "speaker", "text" };
static const field_fn speech_fns[] = { NULL, ident_val, text_val };
static const map_kind speech_kind = { "an utterance", OBS_SP_TEXT, speech_names, speech_fns,
	                              1u << OBS_SP_TEXT, 0, 0 };

static int utterance_val(bctx *c, mobj *o)
{
	return int_map(c, o, &speech_kind);
}

static int speech_val(bctx *c, mobj *o)
{
	return array_of(c, o, utterance_val);
}

static const field_fn top_fns[OBS_K_BODY_LAST + 1] = {
	[OBS_K_T] = t_val,
	[OBS_K_T_END] = t_end_val,
	[OBS_K_ACTION] = action_val,
	[OBS_K_GOAL] = goal_val,
	[OBS_K_GOAL_STATUS] = status_val,
	[OBS_K_LOCATION] = text_val,
	[OBS_K_OBJECTS] = objects_val,
	[OBS_K_RELATIONS] = relations_val,
	[OBS_K_PERSONS] = persons_val,
	[OBS_K_SPEECH] = speech_val,
	[OBS_K_NOTE] = text_val,
	[OBS_K_ID] = id_val,
	[OBS_K_ZONE] = zone_val,
};
static const map_kind top_kind = { "an observation", OBS_K_BODY_LAST, obs_top_names, top_fns,
	                           1u << OBS_K_T, 0, 1u << OBS_K_ZONE };

/* ---------------------------------------------------------------- entry -- */

/* Bound, prescan, unpack and walk `body`; render into c->out if set. */
static int walk_body(bctx *c, const void *body, size_t blen)
{
	if (!body && blen)
		return corrupt(c, "no bytes");
	if (blen > OBS_MAX_BODY)
		return corrupt(c, "%zu bytes, over the limit of %u", blen, OBS_MAX_BODY);
	int rc = mp_prescan(body, blen, MP_MAX_DEPTH, c->err);
	if (rc) {
		char why[sizeof c->err->message];
		if (!c->err)
			return rc;
		memcpy(why, c->err->message, sizeof why);
		return corrupt(c, "%s", why);
	}
	msgpack_zone zone;
	if (!msgpack_zone_init(&zone, 4096))
		return obs_fail(c->err, H2EMV_ENOMEM, "out of memory");
	msgpack_object root;
	size_t off = 0;
	msgpack_unpack_return ret = msgpack_unpack(body, blen, &off, &zone, &root);
	if (ret == MSGPACK_UNPACK_NOMEM_ERROR)
		rc = obs_fail(c->err, H2EMV_ENOMEM, "out of memory unpacking an observation");
	else if (ret != MSGPACK_UNPACK_SUCCESS || off != blen)
		rc = corrupt(c, "msgpack that does not unpack");
	else {
		c->zone = obs_body_zone_of(&root);
		rc = int_map(c, &root, &top_kind);
	}
	msgpack_zone_destroy(&zone);
	return rc;
}

int obs_to_json(char **out, size_t *out_len, const void *body, size_t blen,
                h2emv_error *err)
{
	if (!out)
		return obs_fail(err, H2EMV_EINVAL, "obs_to_json: out is NULL");
	*out = NULL;
	if (out_len)
		*out_len = 0;
	eng_buf text = { 0 };
	bctx c = { .err = err, .out = &text };
	int rc = walk_body(&c, body, blen);
	emit(&c, "", 1); /* the NUL */
	if (!rc && c.nomem)
		rc = obs_fail(err, H2EMV_ENOMEM, "out of memory rendering an observation");
	if (rc) {
		eng_buf_free(&text);
		return rc;
	}
	*out = (char *)text.data;
	if (out_len)
		*out_len = text.len - 1;
	return H2EMV_OK;
}

int obs_body_check(const void *body, size_t blen, h2emv_error *err)
{
	bctx c = { .err = err };
	return walk_body(&c, body, blen);
}
