/*
 * obs_body_peek.c — single fields of a stored observation body, read
 * without rendering it: its producer id (idempotent ingest) and the UTC
 * offset its t was written in (body key 13). The bytes may be anything:
 * bounded, prescanned, then unpacked.
 */
#include <stdint.h>
#include <string.h>

#include <msgpack.h>

#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"

/* The zone a body's t was written in (0 when none or not readable). */
int obs_body_zone_of(const msgpack_object *root)
{
	if (root->type != MSGPACK_OBJECT_MAP)
		return 0;
	for (uint32_t i = 0; i < root->via.map.size; i++) {
		const msgpack_object_kv *kv = &root->via.map.ptr[i];
		if (kv->key.type == MSGPACK_OBJECT_POSITIVE_INTEGER && kv->key.via.u64 == OBS_K_ZONE) {
			int64_t z = kv->val.type == MSGPACK_OBJECT_NEGATIVE_INTEGER ? kv->val.via.i64
			            : kv->val.type == MSGPACK_OBJECT_POSITIVE_INTEGER
			                ? (int64_t)(kv->val.via.u64 > OBS_ZONE_MAX ? 0 : kv->val.via.u64)
			                : 0;
			return z >= -OBS_ZONE_MAX && z <= OBS_ZONE_MAX ? (int)z : 0;
		}
	}
	return 0;
}

int obs_body_zoned(const void *body, size_t blen)
{
	/* key 13 is the map's last entry, its value an int of 1 to 3 bytes:
	 * only a body that ends so is unpacked to be sure */
	const uint8_t *p = body;
	int tail = (blen > 2 && p[blen - 2] == OBS_K_ZONE) ||
	           (blen > 3 && p[blen - 3] == OBS_K_ZONE && (p[blen - 2] == 0xd0 || p[blen - 2] == 0xcc)) ||
	           (blen > 4 && p[blen - 4] == OBS_K_ZONE && (p[blen - 3] == 0xd1 || p[blen - 3] == 0xcd));
	if (!tail || blen > OBS_MAX_BODY || mp_prescan(body, blen, MP_MAX_DEPTH, NULL))
		return 0;
	msgpack_zone zone;
	if (!msgpack_zone_init(&zone, 1024))
		return 0;
	msgpack_object root;
	size_t off = 0;
	int z = msgpack_unpack(body, blen, &off, &zone, &root) == MSGPACK_UNPACK_SUCCESS &&
	        off == blen && obs_body_zone_of(&root) != 0;
	msgpack_zone_destroy(&zone);
	return z;
}

int obs_body_id(const void **id, size_t *len, const void *body, size_t blen)
{
	*id = NULL;
	*len = 0;
	if (!body || blen > OBS_MAX_BODY || mp_prescan(body, blen, MP_MAX_DEPTH, NULL))
		return -1;
	msgpack_zone zone;
	if (!msgpack_zone_init(&zone, 1024))
		return -1;
	msgpack_object root;
	size_t off = 0;
	int rc = -1;
	if (msgpack_unpack(body, blen, &off, &zone, &root) == MSGPACK_UNPACK_SUCCESS &&
	    off == blen && root.type == MSGPACK_OBJECT_MAP) {
		rc = 0;
		for (uint32_t i = 0; i < root.via.map.size; i++) {
			const msgpack_object_kv *kv = &root.via.map.ptr[i];
			if (kv->key.type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
			    kv->key.via.u64 == OBS_K_ID && kv->val.type == MSGPACK_OBJECT_STR) {
				/* msgpack-c points strings into the input: valid with body */
				*id = kv->val.via.str.ptr;
				*len = kv->val.via.str.size;
				rc = 1;
				break;
			}
		}
	}
	msgpack_zone_destroy(&zone);
	return rc;
}
