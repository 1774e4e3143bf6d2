/*
 * rules_codec.c — a rules version as bytes and back: the record body that
 * rules.c documents, written in the smallest msgpack forms and read with a
 * checked reader after mp_prescan, so hostile bytes are ECORRUPT, never a
 * crash. Also the text check that every stored string passes.
 */
#include <stdlib.h>
#include <string.h>

#include "api/mem.h"
#include "api/utf8.h"

#define RULES_FIELDS 7
#define RULES_MAX_ITEMS 256    /* learned rules in one version */
#define RULES_MAX_TEXT 4096    /* bytes of one rule, and of the feedback */

/* Text a version may hold: at most RULES_MAX_TEXT bytes of UTF-8, no NUL. */
int rules_text_ok(const char *s, size_t n)
{
	return n <= RULES_MAX_TEXT && utf8_text_ok(s, n);
}

/* -------------------------------------------------------------- the codec -- */

static void wr_byte(eng_buf *b, int *bad, uint8_t c)
{
	*bad |= eng_buf_append(b, &c, 1) != 0;
}

static void wr_head(eng_buf *b, int *bad, uint8_t tag, uint64_t v, int width)
{
	uint8_t x[9] = { tag };
	for (int i = width; i >= 1; i--, v >>= 8)
		x[i] = (uint8_t)v;
	*bad |= eng_buf_append(b, x, (size_t)width + 1) != 0;
}

static void wr_uint(eng_buf *b, int *bad, uint64_t v)
{
	if (v < 0x80)
		wr_byte(b, bad, (uint8_t)v);
	else if (v <= UINT32_MAX)
		wr_head(b, bad, 0xce, v, 4);
	else
		wr_head(b, bad, 0xcf, v, 8);
}

static void wr_int(eng_buf *b, int *bad, int64_t v)
{
	if (v >= 0)
		wr_uint(b, bad, (uint64_t)v);
	else
		wr_head(b, bad, 0xd3, (uint64_t)v, 8);
}

static void wr_array(eng_buf *b, int *bad, uint32_t n)
{
	if (n < 16)
		wr_byte(b, bad, (uint8_t)(0x90 | n));
	else
		wr_head(b, bad, 0xdd, n, 4);
}

static void wr_str(eng_buf *b, int *bad, const char *s)
{
	size_t n = strlen(s);
	if (n < 32)
		wr_byte(b, bad, (uint8_t)(0xa0 | n));
	else
		wr_head(b, bad, 0xdb, n, 4);
	*bad |= eng_buf_append(b, s, n) != 0;
}

/* Append the body of `r` to `b`. ELIMIT when it holds more rules than a
 * version may, EINVAL when a string could not be read back. */
int rules_encode(eng_buf *b, const h2emv_rules *r, h2emv_error *err)
{
	if (r->n < 1 || r->n - 1 > RULES_MAX_ITEMS)
		return eng_fail(err, H2EMV_ELIMIT, "a rules version holds at most %d rules (got %zu)",
		                RULES_MAX_ITEMS, r->n ? r->n - 1 : 0);
	for (size_t i = 0; i <= r->n; i++) {
		const char *t = i < r->n ? r->items[i] : r->feedback;
		if (!rules_text_ok(t, strlen(t)))
			return eng_fail(err, H2EMV_EINVAL, "rules version %u: a string is too long or not "
			                "UTF-8", r->version);
	}
	int bad = 0;
	wr_array(b, &bad, RULES_FIELDS);
	wr_uint(b, &bad, r->version);
	wr_uint(b, &bad, r->parent);
	wr_int(b, &bad, r->created);
	wr_byte(b, &bad, r->repaired ? 0xc3 : 0xc2);
	wr_str(b, &bad, r->feedback);
	wr_array(b, &bad, (uint32_t)(r->n - 1));
	for (size_t i = 1; i < r->n; i++)
		wr_str(b, &bad, r->items[i]);
	wr_array(b, &bad, 3);
	wr_uint(b, &bad, r->tokens.prompt);
	wr_uint(b, &bad, r->tokens.completion);
	wr_uint(b, &bad, r->tokens.calls);
	return bad ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : H2EMV_OK;
}

/* A reader over prescanned msgpack. Every call still checks its bounds and
 * the type it expects, and fails (returns -1) on anything else. */
typedef struct mpr {
	const uint8_t *p, *end;
} mpr;

static int rd_be(mpr *r, int width, uint64_t *v)
{
	if (r->end - r->p < width)
		return -1;
	*v = 0;
	for (int i = 0; i < width; i++)
		*v = *v << 8 | *r->p++;
	return 0;
}

static int rd_uint(mpr *r, uint64_t *v)
{
	if (r->p >= r->end)
		return -1;
	uint8_t t = *r->p++;
	if (t < 0x80)
		return *v = t, 0;
	switch (t) {
	case 0xcc: return rd_be(r, 1, v);
	case 0xcd: return rd_be(r, 2, v);
	case 0xce: return rd_be(r, 4, v);
	case 0xcf: return rd_be(r, 8, v);
	default: return -1;
	}
}

static int rd_int(mpr *r, int64_t *v)
{
	if (r->p >= r->end)
		return -1;
	uint8_t t = *r->p;
	uint64_t u;
	if (t < 0x80 || (t >= 0xcc && t <= 0xcf)) {
		if (rd_uint(r, &u) || u > INT64_MAX)
			return -1;
		return *v = (int64_t)u, 0;
	}
	r->p++;
	if (t >= 0xe0)
		return *v = (int8_t)t, 0;
	int width = t == 0xd0 ? 1 : t == 0xd1 ? 2 : t == 0xd2 ? 4 : t == 0xd3 ? 8 : 0;
	if (!width || rd_be(r, width, &u))
		return -1;
	int shift = 64 - 8 * width; /* sign-extend */
	*v = (int64_t)(u << shift) >> shift;
	return 0;
}

static int rd_bool(mpr *r, int *v)
{
	if (r->p >= r->end || (*r->p != 0xc2 && *r->p != 0xc3))
		return -1;
	*v = *r->p++ == 0xc3;
	return 0;
}

static int rd_array(mpr *r, uint64_t *n)
{
	if (r->p >= r->end)
		return -1;
	uint8_t t = *r->p++;
	if ((t & 0xf0) == 0x90)
		return *n = t & 0x0f, 0;
	return t == 0xdc ? rd_be(r, 2, n) : t == 0xdd ? rd_be(r, 4, n) : -1;
}

/* A string of at most `max` bytes, valid UTF-8 without NUL; a malloc'd copy. */
static int rd_str(mpr *r, char **out, size_t max)
{
	if (r->p >= r->end)
		return -1;
	uint8_t t = *r->p++;
	uint64_t n;
	if ((t & 0xe0) == 0xa0)
		n = t & 0x1f;
	else if (t == 0xd9 ? rd_be(r, 1, &n) : t == 0xda ? rd_be(r, 2, &n)
	         : t == 0xdb                 ? rd_be(r, 4, &n)
	                                     : -1)
		return -1;
	if (n > max || n > (uint64_t)(r->end - r->p) || !utf8_text_ok((const char *)r->p, n))
		return -1;
	*out = strndup((const char *)r->p, n);
	if (!*out)
		return -2;
	r->p += n;
	return 0;
}

void h2emv_rules_free(h2emv_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->items && i < r->n; i++)
		free(r->items[i]);
	free(r->items);
	free(r->feedback);
	free(r);
}

/* A version with room for n_learned rules after the default, which is
 * items[0] already (n = 1). NULL when out of memory. */
h2emv_rules *rules_alloc(size_t n_learned)
{
	h2emv_rules *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->items = calloc(n_learned + 1, sizeof *r->items);
	if (!r->items || !(r->items[0] = strdup(RULE_DEFAULT))) {
		h2emv_rules_free(r);
		return NULL;
	}
	r->n = 1;
	return r;
}

static int decode_fields(h2emv_rules **out, mpr *m, uint32_t key)
{
	uint64_t n, v, parent, n_items, tok[3];
	int64_t created;
	int repaired;
	char *feedback = NULL;
	if (rd_array(m, &n) || n != RULES_FIELDS || rd_uint(m, &v) || v != key ||
	    rd_uint(m, &parent) || parent >= v || rd_int(m, &created) || rd_bool(m, &repaired))
		return -1;
	int rc = rd_str(m, &feedback, RULES_MAX_TEXT);
	if (rc)
		return rc;
	if (rd_array(m, &n_items) || n_items > RULES_MAX_ITEMS) {
		free(feedback);
		return -1;
	}
	h2emv_rules *r = rules_alloc((size_t)n_items);
	if (!r) {
		free(feedback);
		return -2;
	}
	r->feedback = feedback;
	for (uint64_t i = 0; i < n_items && rc == 0; i++)
		if ((rc = rd_str(m, &r->items[r->n], RULES_MAX_TEXT)) == 0)
			r->n++;
	if (rc == 0 && (rd_array(m, &n) || n != 3 || rd_uint(m, &tok[0]) || rd_uint(m, &tok[1]) ||
	                rd_uint(m, &tok[2]) || m->p != m->end))
		rc = -1;
	if (rc) {
		h2emv_rules_free(r);
		return rc;
	}
	r->version = key;
	r->parent = (uint32_t)parent;
	r->created = created;
	r->repaired = repaired;
	r->tokens = (h2emv_tokens){ tok[0], tok[1], tok[2] };
	*out = r;
	return 0;
}

/* Decode and validate the body of version `key`. Returns OK, ECORRUPT or
 * ENOMEM; *out is freed with h2emv_rules_free. */
int rules_decode(h2emv_rules **out, const uint8_t *body, size_t len, uint32_t key,
                 h2emv_error *err)
{
	if (mp_prescan(body, len, MP_MAX_DEPTH, NULL))
		return eng_fail(err, H2EMV_ECORRUPT, "rules version %u: malformed msgpack", key);
	mpr m = { body, body + len };
	int rc = decode_fields(out, &m, key);
	if (rc == -2)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc)
		return eng_fail(err, H2EMV_ECORRUPT,
		                "rules version %u: the record's fields are malformed", key);
	return H2EMV_OK;
}
