/*
 * facts_codec.c — typed facts in a node payload and back: the head that
 * keeps the byte shapes of older builds, then the facts as msgpack
 * (docs/formats.md "Typed facts").
 */
#include <msgpack.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "api/base/lex.h"

/* ------------------------------------------------------------- payloads -- */

/* Bytes of the payload head written by older builds: goal [open, depth] as
 * 3 bytes, event [open, 0xcf key] as 11; both are valid msgpack arrays of
 * two, the same head as now. */
int facts_payload_head(const void *p, size_t n, int *open, uint64_t *aux)
{
	const uint8_t *b = p;
	if (n < 3 || (b[0] != 0x92 && b[0] != 0x93))
		return 0;
	*open = b[1] & 1;
	if (b[2] <= 0x7f) {
		*aux = b[2];
		return 1;
	}
	if (b[2] == 0xcf && n >= 11) {
		uint64_t v = 0;
		for (int i = 0; i < 8; i++)
			v = v << 8 | b[3 + i];
		*aux = v;
		return 1;
	}
	return 0;
}

static size_t head_len(const uint8_t *b, size_t n)
{
	if (n >= 3 && b[2] <= 0x7f)
		return 3;
	if (n >= 11 && b[2] == 0xcf)
		return 11;
	return 0;
}

static int get_int(const msgpack_object *o, int64_t *v)
{
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= INT64_MAX)
		*v = (int64_t)o->via.u64;
	else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		*v = o->via.i64;
	else
		return 0;
	return 1;
}

static int decode_fact(fact *f, const msgpack_object *o)
{
	memset(f, 0, sizeof *f);
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 7 + FS_N)
		return H2EMV_ECORRUPT;
	const msgpack_object *a = o->via.array.ptr;
	int64_t v[7];
	for (int i = 0; i < 7; i++)
		if (!get_int(&a[i], &v[i]))
			return H2EMV_ECORRUPT;
	if (v[0] < FT_ACT || v[0] > FT_NOTE || v[1] < 0 || v[1] > 5 || v[2] < 0 ||
	    v[2] >= LC_COUNT_ || v[3] < 1 || v[3] > UINT32_MAX)
		return H2EMV_ECORRUPT;
	f->type = (uint8_t)v[0];
	f->status = (uint8_t)v[1];
	f->cls = (uint8_t)v[2];
	f->count = (uint32_t)v[3];
	f->t0 = v[4];
	f->t1 = v[5];
	f->t2 = v[6];
	const char *src[FS_N] = { 0 };
	size_t lens[FS_N] = { 0 };
	for (int i = 0; i < FS_N; i++) {
		const msgpack_object *s = &a[7 + i];
		if (s->type == MSGPACK_OBJECT_NIL)
			continue;
		if (s->type != MSGPACK_OBJECT_STR || s->via.str.size > 65536 ||
		    memchr(s->via.str.ptr, 0, s->via.str.size))
			return H2EMV_ECORRUPT;
		src[i] = s->via.str.ptr;
		lens[i] = s->via.str.size;
	}
	if (fact_strings(f, src, lens))
		return H2EMV_ENOMEM;
	f->key = fact_key(f);
	return H2EMV_OK;
}

int facts_payload_decode(facts *out, const void *p, size_t n)
{
	const uint8_t *b = p;
	if (!p || n < 3 || b[0] != 0x93)
		return H2EMV_OK; /* no facts */
	size_t h = head_len(b, n);
	if (!h)
		return H2EMV_ECORRUPT;
	int rc = mp_prescan(b + h, n - h, MP_MAX_DEPTH, NULL);
	if (rc)
		return H2EMV_ECORRUPT;
	msgpack_zone z;
	if (!msgpack_zone_init(&z, 2048))
		return H2EMV_ENOMEM;
	msgpack_object root;
	size_t off = 0;
	rc = msgpack_unpack((const char *)b + h, n - h, &off, &z, &root) == MSGPACK_UNPACK_SUCCESS &&
	             off == n - h && (root.type == MSGPACK_OBJECT_ARRAY)
	         ? H2EMV_OK
	         : H2EMV_ECORRUPT;
	for (uint32_t i = 0; rc == H2EMV_OK && i < root.via.array.size; i++) {
		fact *f = fact_push(out);
		if (!f) {
			rc = H2EMV_ENOMEM;
			break;
		}
		if ((rc = decode_fact(f, &root.via.array.ptr[i])))
			out->n--;
	}
	msgpack_zone_destroy(&z);
	return rc;
}

static int sb_write(void *data, const char *buf, size_t len)
{
	return eng_buf_append(data, buf, len) ? -1 : 0;
}

int facts_payload_encode(eng_buf *out, int open, uint64_t aux, const facts *f)
{
	out->len = 0;
	/* the head keeps the byte shapes of older builds */
	uint8_t h[11] = { f && f->n ? 0x93 : 0x92, (uint8_t)(open & 3) };
	size_t hl;
	if (aux <= 0x7f) {
		h[2] = (uint8_t)aux;
		hl = 3;
	} else {
		h[2] = 0xcf;
		for (int i = 0; i < 8; i++)
			h[3 + i] = (uint8_t)(aux >> (56 - 8 * i));
		hl = 11;
	}
	if (eng_buf_append(out, h, hl))
		return H2EMV_ENOMEM;
	if (!f || !f->n)
		return H2EMV_OK;
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, sb_write);
	int bad = msgpack_pack_array(&pk, f->n);
	for (size_t i = 0; !bad && i < f->n; i++) {
		const fact *x = &f->v[i];
		bad |= msgpack_pack_array(&pk, 7 + FS_N);
		bad |= msgpack_pack_uint8(&pk, x->type);
		bad |= msgpack_pack_uint8(&pk, x->status);
		bad |= msgpack_pack_uint8(&pk, x->cls);
		bad |= msgpack_pack_uint32(&pk, x->count);
		bad |= msgpack_pack_int64(&pk, x->t0);
		bad |= msgpack_pack_int64(&pk, x->t1);
		bad |= msgpack_pack_int64(&pk, x->t2);
		for (int s = 0; s < FS_N; s++) {
			if (!x->s[s]) {
				bad |= msgpack_pack_nil(&pk);
			} else {
				size_t l = strlen(x->s[s]);
				bad |= msgpack_pack_str(&pk, l);
				bad |= msgpack_pack_str_body(&pk, x->s[s], l);
			}
		}
	}
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}
