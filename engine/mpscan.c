/*
 * mpscan.c — a bounds-checked walk over msgpack bytes that allocates
 * nothing. msgpack-c's unpacker trusts declared lengths (a 5-byte header can
 * claim millions of elements and it allocates first) and reports truncation
 * as "continue"; running this first makes any bytes safe to unpack.
 */
#include "engine/engine.h"

typedef struct scan {
	const uint8_t *start, *p, *end;
	h2emv_error *err;
} scan;

static int bad(scan *s, const char *why)
{
	return eng_fail(s->err, H2EMV_ECORRUPT, "malformed msgpack at byte %zu: %s",
	                (size_t)(s->p - s->start), why);
}

static int take(scan *s, size_t n, uint64_t *val)
{
	if ((size_t)(s->end - s->p) < n)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = (v << 8) | s->p[i];
	s->p += n;
	if (val)
		*val = v;
	return 0;
}

static int skip_bytes(scan *s, uint64_t n)
{
	if ((uint64_t)(s->end - s->p) < n)
		return -1;
	s->p += n;
	return 0;
}

static int value(scan *s, int depth);

/* An array or map of `count` entries (`per` values each). Every value takes
 * at least one byte, so a count above the bytes left is a lie. */
static int container(scan *s, uint64_t count, int per, int depth)
{
	if (depth <= 0)
		return bad(s, "nested too deep");
	if (count > (uint64_t)(s->end - s->p) / (uint64_t)per)
		return bad(s, "declared count exceeds the bytes left");
	for (uint64_t i = 0; i < count * (uint64_t)per; i++) {
		int rc = value(s, depth - 1);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int value(scan *s, int depth)
{
	uint64_t n;
	if (s->p >= s->end)
		return bad(s, "truncated");
	uint8_t b = *s->p++;
	if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
		return H2EMV_OK;
	if ((b & 0xf0) == 0x80)
		return container(s, b & 0x0f, 2, depth);
	if ((b & 0xf0) == 0x90)
		return container(s, b & 0x0f, 1, depth);
	if ((b & 0xe0) == 0xa0)
		return skip_bytes(s, b & 0x1f) ? bad(s, "truncated string") : H2EMV_OK;
	switch (b) {
	case 0xc4: case 0xd9: /* bin8, str8 */
		if (take(s, 1, &n) || skip_bytes(s, n)) return bad(s, "truncated string");
		return H2EMV_OK;
	case 0xc5: case 0xda:
		if (take(s, 2, &n) || skip_bytes(s, n)) return bad(s, "truncated string");
		return H2EMV_OK;
	case 0xc6: case 0xdb:
		if (take(s, 4, &n) || skip_bytes(s, n)) return bad(s, "truncated string");
		return H2EMV_OK;
	case 0xc7: /* ext8: len, type, data */
		if (take(s, 1, &n) || skip_bytes(s, n + 1)) return bad(s, "truncated ext");
		return H2EMV_OK;
	case 0xc8:
		if (take(s, 2, &n) || skip_bytes(s, n + 1)) return bad(s, "truncated ext");
		return H2EMV_OK;
	case 0xc9:
		if (take(s, 4, &n) || skip_bytes(s, n + 1)) return bad(s, "truncated ext");
		return H2EMV_OK;
	case 0xca: case 0xce: case 0xd2:
		return skip_bytes(s, 4) ? bad(s, "truncated number") : H2EMV_OK;
	case 0xcb: case 0xcf: case 0xd3:
		return skip_bytes(s, 8) ? bad(s, "truncated number") : H2EMV_OK;
	case 0xcc: case 0xd0:
		return skip_bytes(s, 1) ? bad(s, "truncated number") : H2EMV_OK;
	case 0xcd: case 0xd1:
		return skip_bytes(s, 2) ? bad(s, "truncated number") : H2EMV_OK;
	case 0xd4: return skip_bytes(s, 2) ? bad(s, "truncated ext") : H2EMV_OK;
	case 0xd5: return skip_bytes(s, 3) ? bad(s, "truncated ext") : H2EMV_OK;
	case 0xd6: return skip_bytes(s, 5) ? bad(s, "truncated ext") : H2EMV_OK;
	case 0xd7: return skip_bytes(s, 9) ? bad(s, "truncated ext") : H2EMV_OK;
	case 0xd8: return skip_bytes(s, 17) ? bad(s, "truncated ext") : H2EMV_OK;
	case 0xdc:
		if (take(s, 2, &n)) return bad(s, "truncated array header");
		return container(s, n, 1, depth);
	case 0xdd:
		if (take(s, 4, &n)) return bad(s, "truncated array header");
		return container(s, n, 1, depth);
	case 0xde:
		if (take(s, 2, &n)) return bad(s, "truncated map header");
		return container(s, n, 2, depth);
	case 0xdf:
		if (take(s, 4, &n)) return bad(s, "truncated map header");
		return container(s, n, 2, depth);
	default: /* 0xc1: never used */
		return bad(s, "reserved type byte 0xc1");
	}
}

int mp_prescan(const void *data, size_t n, int max_depth, h2emv_error *err)
{
	scan s = { data, data, (const uint8_t *)data + n, err };
	if (n == 0)
		return eng_fail(err, H2EMV_ECORRUPT, "malformed msgpack: empty");
	int rc = value(&s, max_depth);
	if (rc)
		return rc;
	if (s.p != s.end)
		return eng_fail(err, H2EMV_ECORRUPT, "malformed msgpack: %zu trailing bytes",
		                (size_t)(s.end - s.p));
	return H2EMV_OK;
}
