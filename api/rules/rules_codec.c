/*
 * rules_codec.c — a rules version as bytes and back: the record body that
 * rules.c documents, written with msgpack-c's packer and read with its
 * unpacker after mp_prescan, every field's type and range checked, so hostile
 * bytes are ECORRUPT, never a crash. Also the text check every string passes.
 */
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "api/rules/rules_codec.h"
#include "api/base/utf8.h"

#define RULES_FIELDS 7
#define RULES_MAX_ITEMS 256    /* learned rules in one version */
#define RULES_MAX_TEXT 4096    /* bytes of one rule, and of the feedback */

/* The first rule of every version (mem.h); here, with the codec that puts
 * it first in every version it reads, so that rules_codec.c and
 * rules_repair.c need nothing of rules.c. */
const char *const RULE_DEFAULT =
	"Be willing to forget: an item is worth keeping only if a rule below says it "
	"matters, or it is clearly important; otherwise answer 0.";

/* Text a version may hold: at most RULES_MAX_TEXT bytes of UTF-8, no NUL. */
int rules_text_ok(const char *s, size_t n)
{
	return n <= RULES_MAX_TEXT && utf8_text_ok(s, n);
}

/* -------------------------------------------------------------- the codec -- */

static int buf_write(void *data, const char *p, size_t len)
{
	return eng_buf_append(data, p, len) ? -1 : 0;
}

static int pack_str(msgpack_packer *pk, const char *s)
{
	size_t n = strlen(s);
	return msgpack_pack_str(pk, n) | msgpack_pack_str_body(pk, s, n);
}

/* Append the body of `r` to `b`. ELIMIT when it holds more rules than a
 * version may, EINVAL when a string could not be read back. msgpack-c picks
 * the smallest form of each value; versions written before it used only
 * fixint/uint32/uint64/int64, fixstr/str32 and fixarray/array32, which the
 * decoder reads as well (tests/test_rules.c keeps such a record). */
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
	msgpack_packer pk;
	msgpack_packer_init(&pk, b, buf_write);
	int bad = msgpack_pack_array(&pk, RULES_FIELDS);
	bad |= msgpack_pack_uint32(&pk, r->version);
	bad |= msgpack_pack_uint32(&pk, r->parent);
	bad |= msgpack_pack_int64(&pk, r->created);
	bad |= r->repaired ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
	bad |= pack_str(&pk, r->feedback);
	bad |= msgpack_pack_array(&pk, r->n - 1);
	for (size_t i = 1; i < r->n; i++)
		bad |= pack_str(&pk, r->items[i]);
	bad |= msgpack_pack_array(&pk, 3);
	bad |= msgpack_pack_uint64(&pk, r->tokens.prompt);
	bad |= msgpack_pack_uint64(&pk, r->tokens.completion);
	bad |= msgpack_pack_uint64(&pk, r->tokens.calls);
	return bad ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : H2EMV_OK;
}

/* Checked views of one unpacked field: each fails (-1) on any other type or
 * an out-of-range value. */
static int get_uint(uint64_t *v, const msgpack_object *o)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return -1;
	*v = o->via.u64;
	return 0;
}

static int get_int(int64_t *v, const msgpack_object *o)
{
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		return *v = o->via.i64, 0;
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > INT64_MAX)
		return -1;
	return *v = (int64_t)o->via.u64, 0;
}

static int get_bool(int *v, const msgpack_object *o)
{
	if (o->type != MSGPACK_OBJECT_BOOLEAN)
		return -1;
	return *v = o->via.boolean, 0;
}

/* An array of min..max elements; *items may be NULL when it is empty. */
static int get_array(const msgpack_object **items, const msgpack_object *o, uint32_t min,
                     uint32_t max)
{
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < min || o->via.array.size > max)
		return -1;
	*items = o->via.array.ptr;
	return 0;
}

/* A string of at most RULES_MAX_TEXT bytes, valid UTF-8 without NUL; a
 * malloc'd copy (-2 when out of memory). */
static int get_str(char **out, const msgpack_object *o)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return -1;
	size_t n = o->via.str.size;
	const char *p = n ? o->via.str.ptr : ""; /* msgpack-c: NULL for an empty string */
	if (!rules_text_ok(p, n))
		return -1;
	*out = strndup(p, n);
	return *out ? 0 : -2;
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

static int decode_fields(h2emv_rules **out, const msgpack_object *root, uint32_t key)
{
	const msgpack_object *f, *items, *tok;
	uint64_t v, parent, t[3];
	int64_t created;
	int repaired;
	char *feedback = NULL;
	if (get_array(&f, root, RULES_FIELDS, RULES_FIELDS) || get_uint(&v, &f[0]) || v != key ||
	    get_uint(&parent, &f[1]) || parent >= v || get_int(&created, &f[2]) ||
	    get_bool(&repaired, &f[3]) || get_array(&items, &f[5], 0, RULES_MAX_ITEMS) ||
	    get_array(&tok, &f[6], 3, 3) ||
	    get_uint(&t[0], &tok[0]) || get_uint(&t[1], &tok[1]) || get_uint(&t[2], &tok[2]))
		return -1;
	int rc = get_str(&feedback, &f[4]);
	if (rc)
		return rc;
	uint32_t n_items = f[5].via.array.size;
	h2emv_rules *r = rules_alloc(n_items);
	if (!r) {
		free(feedback);
		return -2;
	}
	r->feedback = feedback;
	for (uint32_t i = 0; i < n_items && rc == 0; i++)
		if ((rc = get_str(&r->items[r->n], &items[i])) == 0)
			r->n++;
	if (rc) {
		h2emv_rules_free(r);
		return rc;
	}
	r->version = key;
	r->parent = (uint32_t)parent;
	r->created = created;
	r->repaired = repaired;
	r->tokens = (h2emv_tokens){ t[0], t[1], t[2] };
	*out = r;
	return 0;
}

/* Decode and validate the body of version `key`. Returns OK, ECORRUPT or
 * ENOMEM; *out is freed with h2emv_rules_free. mp_prescan first bounds the
 * nesting and every declared length by the bytes present, so the unpacker
 * never allocates for a size the record does not hold. */
int rules_decode(h2emv_rules **out, const uint8_t *body, size_t len, uint32_t key,
                 h2emv_error *err)
{
	if (mp_prescan(body, len, MP_MAX_DEPTH, NULL))
		return eng_fail(err, H2EMV_ECORRUPT, "rules version %u: malformed msgpack", key);
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	msgpack_unpack_return ret = msgpack_unpack_next(&u, (const char *)body, len, &off);
	int rc = -1;
	if (ret == MSGPACK_UNPACK_NOMEM_ERROR)
		rc = -2;
	else if (ret == MSGPACK_UNPACK_SUCCESS && off == len)
		rc = decode_fields(out, &u.data, key);
	msgpack_unpacked_destroy(&u);
	if (rc == -2)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc)
		return eng_fail(err, H2EMV_ECORRUPT,
		                "rules version %u: the record's fields are malformed", key);
	return H2EMV_OK;
}
