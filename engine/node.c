/*
 * node.c — the msgpack body of one node version, and placeholders.
 *
 * Body: a msgpack array, fields in this order:
 *   0 body version (1)   1 id          2 version     3 level     4 kind
 *   5 t_start            6 t_end       7 expiry      8 born      9 content hash
 *  10 summary (str)     11 payload (bin, or nil)    12 children: a flat array
 *      id0, ver0, id1, ver1, ...
 * Decoding checks every type and bound; the decoded node is one allocation.
 */
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

#define NODE_BODY_VERSION 1
#define NODE_FIELDS 13

static int sbuf_write(void *data, const char *buf, size_t len)
{
	return eng_buf_append(data, buf, len) ? -1 : 0;
}

int node_encode(eng_buf *out, const eng_node *n, h2emv_error *err)
{
	if (n->n_children > NODE_MAX_CHILDREN || n->summary_len > NODE_MAX_SUMMARY ||
	    n->payload_len > NODE_MAX_PAYLOAD)
		return eng_fail(err, H2EMV_ELIMIT, "node %llu v%u is over a size limit",
		                (unsigned long long)n->id, n->version);
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, sbuf_write);
	int bad = 0;
	bad |= msgpack_pack_array(&pk, NODE_FIELDS);
	bad |= msgpack_pack_uint8(&pk, NODE_BODY_VERSION);
	bad |= msgpack_pack_uint64(&pk, n->id);
	bad |= msgpack_pack_uint32(&pk, n->version);
	bad |= msgpack_pack_uint8(&pk, n->level);
	bad |= msgpack_pack_uint8(&pk, n->kind);
	bad |= msgpack_pack_int64(&pk, n->t_start);
	bad |= msgpack_pack_int64(&pk, n->t_end);
	bad |= msgpack_pack_int64(&pk, n->expiry);
	bad |= msgpack_pack_uint64(&pk, n->born);
	bad |= msgpack_pack_uint64(&pk, n->content_hash);
	bad |= msgpack_pack_str_with_body(&pk, n->summary ? n->summary : "", n->summary_len);
	if (n->payload && n->payload_len)
		bad |= msgpack_pack_bin_with_body(&pk, n->payload, n->payload_len);
	else
		bad |= msgpack_pack_nil(&pk);
	bad |= msgpack_pack_array(&pk, (size_t)n->n_children * 2);
	for (uint32_t i = 0; i < n->n_children; i++) {
		bad |= msgpack_pack_uint64(&pk, n->children[i].id);
		bad |= msgpack_pack_uint32(&pk, n->children[i].version);
	}
	return bad ? eng_fail(err, H2EMV_ENOMEM, "out of memory encoding a node") : H2EMV_OK;
}

static int get_u64(const msgpack_object *o, uint64_t max, uint64_t *v)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
		return -1;
	*v = o->via.u64;
	return 0;
}

static int get_i64(const msgpack_object *o, int64_t *v)
{
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		if (o->via.u64 > (uint64_t)INT64_MAX)
			return -1;
		*v = (int64_t)o->via.u64;
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*v = o->via.i64;
		return 0;
	}
	return -1;
}

/* Allocate the node, its summary, payload and children in one block. */
static eng_node *node_alloc(size_t summary_len, size_t payload_len, uint32_t n_children)
{
	size_t size = sizeof(eng_node) + (size_t)n_children * sizeof(eng_ref) + payload_len +
	              summary_len + 1;
	eng_node *n = calloc(1, size);
	if (!n)
		return NULL;
	uint8_t *p = (uint8_t *)(n + 1);
	n->children = (eng_ref *)p;
	p += (size_t)n_children * sizeof(eng_ref);
	n->payload = payload_len ? p : NULL;
	p += payload_len;
	n->summary = (char *)p;
	n->summary_len = summary_len;
	n->payload_len = payload_len;
	n->n_children = n_children;
	return n;
}

static int unpack_fields(eng_node **out, const msgpack_object *o, h2emv_error *err)
{
#define CORRUPT(what) eng_fail(err, H2EMV_ECORRUPT, "node record: %s", what)
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != NODE_FIELDS)
		return CORRUPT("not an array of the expected size");
	const msgpack_object *f = o->via.array.ptr;
	uint64_t ver, id, version, level, kind, born, hash;
	int64_t t0, t1, exp;
	if (get_u64(&f[0], 255, &ver) || ver != NODE_BODY_VERSION)
		return CORRUPT("unknown body version");
	if (get_u64(&f[1], UINT64_MAX, &id) || get_u64(&f[2], UINT32_MAX, &version) ||
	    get_u64(&f[3], 255, &level) || get_u64(&f[4], H2EMV_KIND_FORGOTTEN, &kind) || kind == 0 ||
	    get_i64(&f[5], &t0) || get_i64(&f[6], &t1) || get_i64(&f[7], &exp) ||
	    get_u64(&f[8], UINT64_MAX, &born) || get_u64(&f[9], UINT64_MAX, &hash))
		return CORRUPT("a header field has the wrong type or range");
	if (f[10].type != MSGPACK_OBJECT_STR || f[10].via.str.size > NODE_MAX_SUMMARY)
		return CORRUPT("summary is not a string within limits");
	if (f[11].type != MSGPACK_OBJECT_NIL &&
	    (f[11].type != MSGPACK_OBJECT_BIN || f[11].via.bin.size > NODE_MAX_PAYLOAD))
		return CORRUPT("payload is not bytes within limits");
	if (f[12].type != MSGPACK_OBJECT_ARRAY || f[12].via.array.size % 2 ||
	    f[12].via.array.size / 2 > NODE_MAX_CHILDREN)
		return CORRUPT("children is not a list of (id, version) pairs");
	if (memchr(f[10].via.str.ptr, 0, f[10].via.str.size))
		return CORRUPT("summary contains a NUL byte");
	size_t plen = f[11].type == MSGPACK_OBJECT_BIN ? f[11].via.bin.size : 0;
	uint32_t nc = f[12].via.array.size / 2;
	eng_node *n = node_alloc(f[10].via.str.size, plen, nc);
	if (!n)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory decoding a node");
	const msgpack_object *c = f[12].via.array.ptr;
	for (uint32_t i = 0; i < nc; i++) {
		uint64_t cid, cver;
		if (get_u64(&c[2 * i], UINT64_MAX, &cid) || get_u64(&c[2 * i + 1], UINT32_MAX, &cver)) {
			free(n);
			return CORRUPT("a child reference has the wrong type");
		}
		n->children[i].id = cid;
		n->children[i].version = (uint32_t)cver;
	}
	n->id = id;
	n->version = (uint32_t)version;
	n->level = (uint8_t)level;
	n->kind = (uint8_t)kind;
	n->t_start = t0;
	n->t_end = t1;
	n->expiry = exp;
	n->born = born;
	n->content_hash = hash;
	memcpy(n->summary, f[10].via.str.ptr, f[10].via.str.size);
	if (plen)
		memcpy(n->payload, f[11].via.bin.ptr, plen);
	*out = n;
	return H2EMV_OK;
#undef CORRUPT
}

int node_decode(eng_node **out, const void *body, size_t len, h2emv_error *err)
{
	int rc = mp_prescan(body, len, MP_MAX_DEPTH, err);
	if (rc)
		return rc;
	msgpack_zone zone;
	if (!msgpack_zone_init(&zone, 1024))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory decoding a node");
	msgpack_object obj;
	size_t off = 0;
	msgpack_unpack_return ur = msgpack_unpack(body, len, &off, &zone, &obj);
	if (ur != MSGPACK_UNPACK_SUCCESS || off != len)
		rc = eng_fail(err, H2EMV_ECORRUPT, "node record: msgpack does not unpack");
	else
		rc = unpack_fields(out, &obj, err);
	msgpack_zone_destroy(&zone);
	return rc;
}

int node_tombstone(eng_node **out, const eng_node *src, h2emv_error *err)
{
	if (src->version == UINT32_MAX)
		return eng_fail(err, H2EMV_ELIMIT, "node %llu has no versions left",
		                (unsigned long long)src->id);
	const char *nl = memchr(src->summary, '\n', src->summary_len);
	size_t first = nl ? (size_t)(nl - src->summary) : src->summary_len;
	eng_node *n = node_alloc(first, 0, 0);
	if (!n)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory making a placeholder");
	n->id = src->id;
	n->version = src->version + 1;
	n->level = src->level;
	n->kind = H2EMV_KIND_FORGOTTEN;
	n->t_start = src->t_start;
	n->t_end = src->t_end;
	n->expiry = src->expiry;
	n->content_hash = src->content_hash;
	memcpy(n->summary, src->summary, first);
	*out = n;
	return H2EMV_OK;
}
