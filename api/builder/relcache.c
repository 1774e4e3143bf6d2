/*
 * relcache.c — the relevance cache's value codec (relcache.h): what the
 * builder writes with each commit (forget.c's estimates) and what the
 * handle's gc reads (mem.c), in a file that calls neither.
 */
#include <msgpack.h>

#include "api/builder/relcache.h"

static int buf_write(void *data, const char *p, size_t len)
{
	return eng_buf_append(data, p, len) ? -1 : 0;
}

int relcache_encode(eng_buf *out, double alpha, int64_t last)
{
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, buf_write);
	int bad = msgpack_pack_array(&pk, 2);
	bad |= msgpack_pack_double(&pk, alpha);
	bad |= msgpack_pack_fix_int64(&pk, last);
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

/* Either layout: α alone (a float64, the first format) or [α, last]. */
int relcache_decode(double *alpha, int64_t *last, const void *body, size_t len)
{
	if (mp_prescan(body, len, 1, NULL))
		return H2EMV_ECORRUPT;
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	msgpack_unpack_return ret = msgpack_unpack_next(&u, body, len, &off);
	const msgpack_object *o = &u.data, *a = o, *l = NULL;
	int rc = ret == MSGPACK_UNPACK_NOMEM_ERROR ? H2EMV_ENOMEM : H2EMV_OK;
	if (!rc && (ret != MSGPACK_UNPACK_SUCCESS || off != len))
		rc = H2EMV_ECORRUPT;
	if (!rc && o->type == MSGPACK_OBJECT_ARRAY) {
		if (o->via.array.size == 2)
			a = &o->via.array.ptr[0], l = &o->via.array.ptr[1];
		else
			rc = H2EMV_ECORRUPT;
	}
	if (!rc && (a->type != MSGPACK_OBJECT_FLOAT64 ||
	            (l && l->type != MSGPACK_OBJECT_NEGATIVE_INTEGER &&
	             (l->type != MSGPACK_OBJECT_POSITIVE_INTEGER || l->via.u64 > INT64_MAX))))
		rc = H2EMV_ECORRUPT;
	if (!rc) {
		*alpha = a->via.f64;
		*last = !l                                          ? 0
		        : l->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (int64_t)l->via.u64
		                                                     : l->via.i64;
	}
	msgpack_unpacked_destroy(&u);
	return rc;
}
