/*
 * node.c — the msgpack body of one node version, and placeholders.
 *
 * Body: a msgpack array, fields in this order:
 *   0 body version (1)   1 id          2 version     3 level     4 kind
 *   5 t_start            6 t_end       7 expiry      8 born      9 content hash
 *  10 summary (str)     11 payload (bin, or nil)    12 children: a flat array
 *      id0, ver0, id1, ver1, ...
 * Encoding uses msgpack-c's packer; decoding reads the bytes with a bounds-
 * checked cursor. Every type and bound is checked; the decoded node is one
 * allocation.
 */
#include <msgpack.h>
#include <xxhash.h>
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
	/* refuse here what node_decode would refuse later: a node that cannot
	 * be read back must never reach the store */
	if (n->kind < H2EMV_KIND_SCENE || n->kind > H2EMV_KIND_FORGOTTEN ||
	    (n->summary_len && memchr(n->summary, 0, n->summary_len)))
		return eng_fail(err, H2EMV_EINVAL, "node %llu v%u: bad kind or a NUL in the summary",
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

static void *heap_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return malloc(n);
}

/* Allocate the node, its summary, payload and children in one block. */
static eng_node *node_alloc_with(node_alloc_fn fn, void *ctx, size_t summary_len,
                                 size_t payload_len, uint32_t n_children)
{
	size_t size = sizeof(eng_node) + (size_t)n_children * sizeof(eng_ref) + payload_len +
	              summary_len + 1;
	eng_node *n = fn(ctx, size);
	if (!n)
		return NULL;
	/* the callers set every other field (no memset: it is a fifth of a
	 * decode) */
	n->aux = NULL;
	uint8_t *p = (uint8_t *)(n + 1);
	n->children = (eng_ref *)p;
	p += (size_t)n_children * sizeof(eng_ref);
	n->payload = payload_len ? p : NULL;
	p += payload_len;
	n->summary = (char *)p;
	n->summary[summary_len] = 0;
	n->summary_len = summary_len;
	n->payload_len = payload_len;
	n->n_children = n_children;
	return n;
}

/* ------------------------------------------------------------ decoding -- */

/* A bounds-checked reader over the body. Node bodies are decoded field by
 * field straight from the bytes: nothing is allocated but the node itself,
 * so a hostile body costs at most its own size (msgpack-c's unpacker would
 * allocate a zone object per declared value first). */
typedef struct cur {
	const uint8_t *p, *end;
} cur;

/* The readers below run a dozen times per node: inlined, the cursor stays
 * in registers instead of going through memory between calls. */
#define READER static inline __attribute__((always_inline))

READER int need(const cur *c, size_t n)
{
	return (size_t)(c->end - c->p) >= n ? 0 : -1;
}

/* A big-endian integer of 1, 2, 4 or 8 bytes; the caller checked `need`. */
READER uint64_t take_be(cur *c, int n)
{
	const uint8_t *p = c->p;
	uint64_t v;
	switch (n) {
	case 1: v = p[0]; break;
	case 2: v = (uint64_t)p[0] << 8 | p[1]; break;
	case 4: v = (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3]; break;
	default:
		v = (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
		    (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
		    (uint64_t)p[6] << 8 | p[7];
		break;
	}
	c->p += n;
	return v;
}

/* Any msgpack integer: *u gets its bits and *neg whether it is below zero.
 * Every value of every width is accepted; the callers check ranges. */
READER int rd_any_int(cur *c, uint64_t *u, int *neg)
{
	if (need(c, 1))
		return -1;
	uint8_t b = *c->p++;
	*neg = 0;
	if (b <= 0x7f) {
		*u = b;
		return 0;
	}
	if (b >= 0xe0) {
		*u = (uint64_t)(int64_t)(int8_t)b;
		*neg = 1;
		return 0;
	}
	if (b >= 0xcc && b <= 0xcf) {
		int n = 1 << (b - 0xcc);
		if (need(c, (size_t)n))
			return -1;
		*u = take_be(c, n);
		return 0;
	}
	if (b >= 0xd0 && b <= 0xd3) {
		int n = 1 << (b - 0xd0);
		if (need(c, (size_t)n))
			return -1;
		uint64_t v = take_be(c, n);
		int64_t i = n == 1 ? (int8_t)v : n == 2 ? (int16_t)v : n == 4 ? (int32_t)v : (int64_t)v;
		*u = (uint64_t)i;
		*neg = i < 0;
		return 0;
	}
	return -1;
}

/* Any msgpack integer, as int64 (positive values above INT64_MAX fail). */
READER int rd_int(cur *c, int64_t *v)
{
	uint64_t u;
	int neg;
	if (rd_any_int(c, &u, &neg) || (!neg && u > (uint64_t)INT64_MAX))
		return -1;
	*v = (int64_t)u;
	return 0;
}

/* A non-negative integer up to `max` (uint64 values above INT64_MAX too). */
READER int rd_uint(cur *c, uint64_t max, uint64_t *v)
{
	int neg;
	if (rd_any_int(c, v, &neg) || neg || *v > max)
		return -1;
	return 0;
}

READER int rd_len(cur *c, uint8_t b, uint8_t fix_mask, uint8_t fix_base, uint8_t b8,
                         uint32_t *n)
{
	if ((b & fix_mask) == fix_base) {
		*n = b & (uint8_t)~fix_mask;
		return 0;
	}
	int w = b == b8 ? 1 : b == b8 + 1 ? 2 : b == b8 + 2 ? 4 : 0;
	if (!w || need(c, (size_t)w))
		return -1;
	*n = (uint32_t)take_be(c, w);
	return 0;
}

READER int rd_str(cur *c, const char **s, uint32_t *n)
{
	if (need(c, 1))
		return -1;
	uint8_t b = *c->p++;
	if (rd_len(c, b, 0xe0, 0xa0, 0xd9, n) || need(c, *n))
		return -1;
	*s = (const char *)c->p;
	c->p += *n;
	return 0;
}

READER int rd_bin_or_nil(cur *c, const uint8_t **s, uint32_t *n)
{
	if (need(c, 1))
		return -1;
	if (*c->p == 0xc0) {
		c->p++;
		*s = NULL;
		*n = 0;
		return 0;
	}
	uint8_t b = *c->p++;
	/* bin has no fix form: a mask that never matches */
	if (rd_len(c, b, 0xff, 0x00, 0xc4, n) || b == 0x00 || need(c, *n))
		return -1;
	*s = c->p;
	c->p += *n;
	return 0;
}

READER int rd_array(cur *c, uint32_t *n)
{
	if (need(c, 1))
		return -1;
	uint8_t b = *c->p++;
	if ((b & 0xf0) == 0x90) {
		*n = b & 0x0f;
		return 0;
	}
	if (b == 0xdc && !need(c, 2)) {
		*n = (uint32_t)take_be(c, 2);
		return 0;
	}
	if (b == 0xdd && !need(c, 4)) {
		*n = (uint32_t)take_be(c, 4);
		return 0;
	}
	return -1;
}

static eng_node *node_alloc(size_t summary_len, size_t payload_len, uint32_t n_children)
{
	return node_alloc_with(heap_alloc, NULL, summary_len, payload_len, n_children);
}

int node_decode(eng_node **out, const void *body, size_t len, h2emv_error *err)
{
	return node_decode_with(out, body, len, 0, heap_alloc, NULL, err);
}

int node_decode_with(eng_node **out, const void *body, size_t len, unsigned flags,
                     node_alloc_fn alloc, void *actx, h2emv_error *err)
{
#define CORRUPT(what) eng_fail(err, H2EMV_ECORRUPT, "node record: %s", what)
	cur c = { body, (const uint8_t *)body + len };
	uint32_t nf, slen, plen, nkids;
	uint64_t ver, id, version, level, kind, born, hash;
	int64_t t0, t1, exp;
	const char *summary;
	const uint8_t *payload;
	if (rd_array(&c, &nf) || nf != NODE_FIELDS)
		return CORRUPT("not an array of the expected size");
	if (rd_uint(&c, 255, &ver) || ver != NODE_BODY_VERSION)
		return CORRUPT("unknown body version");
	if (rd_uint(&c, UINT64_MAX, &id) || rd_uint(&c, UINT32_MAX, &version) ||
	    rd_uint(&c, 255, &level) || rd_uint(&c, H2EMV_KIND_FORGOTTEN, &kind) || kind == 0 ||
	    rd_int(&c, &t0) || rd_int(&c, &t1) || rd_int(&c, &exp) ||
	    rd_uint(&c, UINT64_MAX, &born) || rd_uint(&c, UINT64_MAX, &hash))
		return CORRUPT("a header field has the wrong type or range");
	if (rd_str(&c, &summary, &slen) || slen > NODE_MAX_SUMMARY)
		return CORRUPT("summary is not a string within limits");
	if (slen && memchr(summary, 0, slen))
		return CORRUPT("summary contains a NUL byte");
	if (rd_bin_or_nil(&c, &payload, &plen) || plen > NODE_MAX_PAYLOAD)
		return CORRUPT("payload is not bytes within limits");
	if (rd_array(&c, &nkids) || nkids % 2 || nkids / 2 > NODE_MAX_CHILDREN ||
	    nkids > (size_t)(c.end - c.p))
		return CORRUPT("children is not a list of (id, version) pairs");
	/* check the children before allocating: a failure leaves nothing to free
	 * (arena allocations cannot be given back) */
	cur kc = c;
	for (uint32_t i = 0; i < nkids; i++) {
		uint64_t v;
		if (rd_uint(&kc, i % 2 ? UINT32_MAX : UINT64_MAX, &v))
			return CORRUPT("a child reference has the wrong type");
	}
	if (kc.p != kc.end)
		return CORRUPT("trailing bytes after the node");
	int borrow = (flags & NODE_BORROW_PAYLOAD) && plen;
	eng_node *n = node_alloc_with(alloc, actx, slen, borrow ? 0 : plen, nkids / 2);
	if (!n)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory decoding a node");
	for (uint32_t i = 0; i < nkids / 2; i++) {
		uint64_t cid = 0, cver = 0; /* checked above */
		rd_uint(&c, UINT64_MAX, &cid);
		rd_uint(&c, UINT32_MAX, &cver);
		n->children[i].id = cid;
		n->children[i].version = (uint32_t)cver;
	}
	if (borrow) {
		/* the caller keeps `body` alive as long as the node (an LMDB page
		 * inside the reader's transaction) */
		n->payload = (uint8_t *)payload;
		n->payload_len = plen;
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
	if (slen)
		memcpy(n->summary, summary, slen);
	if (plen && !borrow)
		memcpy(n->payload, payload, plen);
	*out = n;
	return H2EMV_OK;
#undef CORRUPT
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
	n->born = 0;
	n->id = src->id;
	n->version = src->version + 1;
	n->level = src->level;
	n->kind = H2EMV_KIND_FORGOTTEN;
	n->t_start = src->t_start;
	n->t_end = src->t_end;
	n->expiry = src->expiry;
	if (first)
		memcpy(n->summary, src->summary, first);
	/* a placeholder's hash is of what it keeps, so it cannot confirm a
	 * guess at what was forgotten */
	n->content_hash = XXH3_64bits(n->summary, first);
	*out = n;
	return H2EMV_OK;
}
