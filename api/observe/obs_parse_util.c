/*
 * obs_parse_util.c — the pieces the observation reader (obs_parse.c,
 * obs_parse_scene.c) is built from: errors at a field path with the
 * column found in the text, member slots, strings, arrays and scalars
 * packed under the limits, members in stored order.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_scan.h"
#include "api/base/utf8.h"

int op_fail_at(octx *c, int status, int at_key, const char *fmt, ...)
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

const char *op_type(const os_tok *v)
{
	switch (v->type) {
	case OS_OBJECT: return "an object";
	case OS_ARRAY: return "an array";
	case OS_STRING: return "a string";
	case OS_INT: return "a number";
	case OS_REAL: return "a number";
	case OS_TRUE: return "a boolean";
	case OS_FALSE: return "a boolean";
	default: return "null";
	}
}

int op_clip(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return (int)n;
	return (int)utf8_cut(s, max);
}

static int unknown_field(octx *c, const os_tok *key, const char *const *names, size_t n,
                         const char *what)
{
	char known[200];
	size_t len = 0;
	known[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof known; i++)
		len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "",
		                        names[i]);
	obs_path_key(&c->path, key->s, key->n);
	return op_fail_at(c, H2EMV_EPARSE, 1, "unknown field (%s has: %s)", what, known);
}

/* Is the key s[0..n) the NUL-terminated `name`? */
static int name_is(const char *name, const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && name[i] == s[i])
		i++;
	return i == n && name[n] == '\0';
}

int op_slots(octx *c, uint32_t o, const char *const *names, size_t n, const char *what,
             uint32_t *slot)
{
	const os_tok *tok = c->tok;
	memset(slot, 0, n * sizeof *slot);
	for (uint32_t k = o + 1; k < tok[o].next; k = tok[k + 1].next) {
		size_t i = 0;
		while (i < n && !name_is(names[i], tok[k].s, tok[k].n))
			i++;
		if (i == n)
			return unknown_field(c, &tok[k], names, n, what);
		slot[i] = k + 1;
	}
	return H2EMV_OK;
}

int op_has(const octx *c, uint32_t v)
{
	return v && c->tok[v].type != OS_NULL;
}

int op_require(octx *c, uint32_t v, const char *name, const char *what)
{
	if (v)
		return H2EMV_OK;
	obs_path_key(&c->path, name, strlen(name));
	return op_fail(c, H2EMV_EPARSE, "missing (%s)", what);
}

void op_pack_strn(octx *c, const char *s, size_t n)
{
	msgpack_pack_str(&c->pk, n);
	msgpack_pack_str_body(&c->pk, s, n);
}

int op_check_strn(octx *c, size_t n, int ident)
{
	if (n > OBS_MAX_STRING)
		return op_fail(c, H2EMV_ELIMIT, "the string is %zu bytes, over the limit of %u", n,
		               OBS_MAX_STRING);
	if (ident && n == 0)
		return op_fail(c, H2EMV_EPARSE, "must not be empty");
	return H2EMV_OK;
}

static int put_str(octx *c, uint32_t v, int ident)
{
	const os_tok *t = &c->tok[v];
	if (t->type != OS_STRING)
		return op_fail(c, H2EMV_EPARSE, "expected a string, got %s", op_type(t));
	int rc = op_check_strn(c, t->n, ident);
	if (rc)
		return rc;
	op_pack_strn(c, t->s, t->n);
	return H2EMV_OK;
}

int op_put_ident(octx *c, uint32_t v)
{
	return put_str(c, v, 1);
}

int op_put_text(octx *c, uint32_t v)
{
	return put_str(c, v, 0);
}

int op_put_member(octx *c, uint32_t v, const char *name, int (*fn)(octx *, uint32_t))
{
	obs_path_key(&c->path, name, strlen(name));
	int rc = fn(c, v);
	obs_path_pop(&c->path);
	return rc;
}

int op_check_items(octx *c, size_t n)
{
	if (n > OBS_MAX_ITEMS)
		return op_fail(c, H2EMV_ELIMIT, "%zu items, over the limit of %u", n,
		               OBS_MAX_ITEMS);
	return H2EMV_OK;
}

int op_put_array_of(octx *c, uint32_t v, int (*fn)(octx *, uint32_t), const char *what)
{
	const os_tok *t = &c->tok[v];
	if (t->type != OS_ARRAY)
		return op_fail(c, H2EMV_EPARSE, "expected an array of %s, got %s", what,
		               op_type(t));
	int rc = op_check_items(c, t->n);
	if (rc)
		return rc;
	msgpack_pack_array(&c->pk, t->n);
	size_t i = 0;
	for (uint32_t k = v + 1; k < t->next; k = c->tok[k].next, i++) {
		obs_path_idx(&c->path, i);
		rc = fn(c, k);
		if (rc)
			return rc;
		obs_path_pop(&c->path);
	}
	return H2EMV_OK;
}

static void pack_real(octx *c, double d)
{
	/* Robot values are often floats widened to double: store 5 bytes
	 * instead of 9 when that loses nothing. */
	if (fabs(d) <= FLT_MAX && (double)(float)d == d)
		msgpack_pack_float(&c->pk, (float)d);
	else
		msgpack_pack_double(&c->pk, d);
}

int op_put_scalar(octx *c, uint32_t v, int *rc)
{
	const os_tok *t = &c->tok[v];
	*rc = H2EMV_OK;
	switch (t->type) {
	case OS_STRING: *rc = op_put_text(c, v); return 0;
	case OS_INT: msgpack_pack_int64(&c->pk, t->v.i); return 0;
	case OS_REAL: pack_real(c, t->v.d); return 0;
	case OS_TRUE: msgpack_pack_true(&c->pk); return 0;
	case OS_FALSE: msgpack_pack_false(&c->pk); return 0;
	case OS_NULL: msgpack_pack_nil(&c->pk); return 0;
	default: return 1;
	}
}

/* qsort has no context argument: the tokens being sorted, per thread. */
static _Thread_local const os_tok *sort_tok;

static int cmp_key(const void *a, const void *b)
{
	const os_tok *x = &sort_tok[*(const uint32_t *)a], *y = &sort_tok[*(const uint32_t *)b];
	return obs_key_cmp(x->s, x->n, y->s, y->n);
}

int op_sorted_keys(octx *c, uint32_t o, uint32_t *local, size_t cap, uint32_t **keys)
{
	const os_tok *tok = c->tok;
	size_t n = tok[o].n;
	*keys = local;
	int rc = op_check_items(c, n);
	if (rc || n == 0)
		return rc;
	if (n > cap && !(*keys = malloc(n * sizeof **keys))) {
		*keys = local;
		return op_fail(c, H2EMV_ENOMEM, "out of memory");
	}
	size_t i = 0;
	for (uint32_t k = o + 1; k < tok[o].next; k = tok[k + 1].next)
		(*keys)[i++] = k;
	/* insertion sort for the few members robots send, qsort beyond */
	if (n <= 16) {
		for (size_t a = 1; a < n; a++) {
			uint32_t x = (*keys)[a];
			size_t b = a;
			for (; b > 0 && obs_key_cmp(tok[(*keys)[b - 1]].s, tok[(*keys)[b - 1]].n,
			                            tok[x].s, tok[x].n) > 0; b--)
				(*keys)[b] = (*keys)[b - 1];
			(*keys)[b] = x;
		}
	} else {
		sort_tok = tok;
		qsort(*keys, n, sizeof **keys, cmp_key);
	}
	return H2EMV_OK;
}
