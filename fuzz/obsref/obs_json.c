/*
 * obs_json.c — the helpers the observation JSON reader is built from:
 * error reporting with field paths and columns, member and type checks,
 * strings, arrays and scalars packed under the limits.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "obs_json.h"
#include "api/base/utf8.h"

int oj_write(void *data, const char *buf, size_t len)
{
	jctx *c = data;
	if (c->nomem || eng_buf_append(c->out, buf, len)) {
		c->nomem = 1;
		return -1;
	}
	return 0;
}

/* Fail at the current path. The column is that of the value (or of its
 * key with `at_key`); when it cannot be found (a missing field, an escaped
 * key) the nearest enclosing value's column is used. */
int oj_fail_at(jctx *c, int status, int at_key, const char *fmt, ...)
{
	obs_path where = c->path;
	uint64_t col = 0;
	if (where.depth <= OBS_PATH_MAX) {
		col = obs_locate(c->text, c->len, &where, at_key);
		while (!col && where.depth > 0) {
			where.depth--;
			col = obs_locate(c->text, c->len, &where, 0);
		}
	}
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(c->err, status, c->line, col, &c->path, NULL, fmt, ap);
	va_end(ap);
	return status;
}

int oj_fail_column(jctx *c, int status, uint64_t column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(c->err, status, c->line, column, NULL, NULL, fmt, ap);
	va_end(ap);
	return status;
}

const char *oj_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "a number";
	case JSON_REAL: return "a number";
	case JSON_TRUE: return "a boolean";
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* At most `max` bytes of s for quoting in a message, not cutting a UTF-8
 * sequence. */
int oj_clip(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return (int)n;
	return (int)utf8_cut(s, max);
}

/* A member that is present and not null: optional fields given as null
 * (as the ARMAR recordings do) count as absent. */
json_t *oj_member(const json_t *obj, const char *name)
{
	json_t *v = json_object_get(obj, name);
	return v && !json_is_null(v) ? v : NULL;
}

/* Every member of `obj` must be one of names[0..n). */
int oj_check_keys(jctx *c, const json_t *obj, const char *const *names, size_t n,
                  const char *what)
{
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)obj, key, val) {
		size_t i = 0;
		while (i < n && strcmp(key, names[i]) != 0)
			i++;
		if (i < n)
			continue;
		char known[200];
		size_t len = 0;
		known[0] = '\0';
		for (i = 0; i < n && len < sizeof known; i++)
			len += (size_t)snprintf(known + len, sizeof known - len, "%s%s",
			                        i ? ", " : "", names[i]);
		obs_path_key(&c->path, key, strlen(key));
		return oj_fail_at(c, H2EMV_EPARSE, 1, "unknown field (%s has: %s)", what, known);
	}
	return H2EMV_OK;
}

/* The required member `name` of `obj`, or an error naming it. */
int oj_require(jctx *c, const json_t *obj, const char *name, const char *what,
               json_t **out)
{
	*out = json_object_get(obj, name);
	if (*out)
		return H2EMV_OK;
	obs_path_key(&c->path, name, strlen(name));
	return oj_fail(c, H2EMV_EPARSE, "missing (%s)", what);
}

void oj_pack_strn(jctx *c, const char *s, size_t n)
{
	msgpack_pack_str(&c->pk, n);
	msgpack_pack_str_body(&c->pk, s, n);
}

int oj_check_strn(jctx *c, size_t n, int ident)
{
	if (n > OBS_MAX_STRING)
		return oj_fail(c, H2EMV_ELIMIT, "the string is %zu bytes, over the limit of %u", n,
		               OBS_MAX_STRING);
	if (ident && n == 0)
		return oj_fail(c, H2EMV_EPARSE, "must not be empty");
	return H2EMV_OK;
}

/* A string (jansson has checked its UTF-8 and the absence of NUL).
 * `ident`: a name or id, which must not be empty. */
static int put_str(jctx *c, const json_t *v, int ident)
{
	if (!json_is_string(v))
		return oj_fail(c, H2EMV_EPARSE, "expected a string, got %s", oj_type(v));
	size_t n = json_string_length(v);
	int rc = oj_check_strn(c, n, ident);
	if (rc)
		return rc;
	oj_pack_strn(c, json_string_value(v), n);
	return H2EMV_OK;
}

int oj_put_ident(jctx *c, const json_t *v)
{
	return put_str(c, v, 1);
}

int oj_put_text(jctx *c, const json_t *v)
{
	return put_str(c, v, 0);
}

/* Run `fn` on member `name` of `obj` with the path pointing at it. */
int oj_put_member(jctx *c, const json_t *obj, const char *name,
                  int (*fn)(jctx *, const json_t *))
{
	obs_path_key(&c->path, name, strlen(name));
	int rc = fn(c, json_object_get(obj, name));
	obs_path_pop(&c->path);
	return rc;
}

int oj_check_items(jctx *c, size_t n)
{
	if (n > OBS_MAX_ITEMS)
		return oj_fail(c, H2EMV_ELIMIT, "%zu items, over the limit of %u", n,
		               OBS_MAX_ITEMS);
	return H2EMV_OK;
}

/* An array of items each packed by `fn`. */
int oj_put_array_of(jctx *c, const json_t *v, int (*fn)(jctx *, const json_t *),
                    const char *what)
{
	if (!json_is_array(v))
		return oj_fail(c, H2EMV_EPARSE, "expected an array of %s, got %s", what,
		               oj_type(v));
	size_t n = json_array_size(v);
	int rc = oj_check_items(c, n);
	if (rc)
		return rc;
	msgpack_pack_array(&c->pk, n);
	for (size_t i = 0; i < n; i++) {
		obs_path_idx(&c->path, i);
		rc = fn(c, json_array_get(v, i));
		if (rc)
			return rc;
		obs_path_pop(&c->path);
	}
	return H2EMV_OK;
}

/* --------------------------------------------------------------- values -- */

static void pack_real(jctx *c, double d)
{
	/* Robot values are often floats widened to double: store 5 bytes
	 * instead of 9 when that loses nothing. */
	if (fabs(d) <= FLT_MAX && (double)(float)d == d)
		msgpack_pack_float(&c->pk, (float)d);
	else
		msgpack_pack_double(&c->pk, d);
}

/* A string, number, boolean or null. Returns 1 if `v` is none of those. */
int oj_put_scalar(jctx *c, const json_t *v, int *rc)
{
	*rc = H2EMV_OK;
	switch (json_typeof(v)) {
	case JSON_STRING: *rc = oj_put_text(c, v); return 0;
	case JSON_INTEGER: msgpack_pack_int64(&c->pk, json_integer_value(v)); return 0;
	case JSON_REAL: pack_real(c, json_real_value(v)); return 0;
	case JSON_TRUE: msgpack_pack_true(&c->pk); return 0;
	case JSON_FALSE: msgpack_pack_false(&c->pk); return 0;
	case JSON_NULL: msgpack_pack_nil(&c->pk); return 0;
	default: return 1;
	}
}

static int cmp_member(const void *a, const void *b)
{
	const jmember *x = a, *y = b;
	return obs_key_cmp(x->key, x->klen, y->key, y->klen);
}

int oj_sorted_members(jctx *c, const json_t *obj, jmember **out, size_t *n)
{
	*n = json_object_size(obj);
	*out = NULL;
	int rc = oj_check_items(c, *n);
	if (rc || *n == 0)
		return rc;
	jmember *m = malloc(*n * sizeof *m);
	if (!m)
		return oj_fail(c, H2EMV_ENOMEM, "out of memory");
	size_t i = 0;
	const char *key;
	size_t klen;
	json_t *val;
	json_object_keylen_foreach((json_t *)obj, key, klen, val) {
		m[i++] = (jmember){ key, klen, val };
	}
	qsort(m, *n, sizeof *m, cmp_member);
	*out = m;
	return H2EMV_OK;
}
