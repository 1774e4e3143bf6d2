/*
 * maintain.c — h2emv_maintain: the collection and compaction a robot
 * would otherwise schedule itself. gc runs when enough snapshots were
 * committed or enough of the memory's clock passed since the last run
 * (both remembered in `meta`, so short-lived processes agree), or when the
 * file passes the disk budget; compaction follows when the file holds
 * enough free pages or still passes the budget.
 */
#include <msgpack.h>
#include <stdio.h>
#include <string.h>

#include "api/mem/mem.h"

#define GC_EVERY_SNAPSHOTS 64
#define GC_EVERY (24ll * 3600 * 1000000)
#define COMPACT_FREE_SHARE 0.25
#define COMPACT_MIN_BYTES (8ull << 20)
#define STATE_KEY "maintenance"
#define KEEP_SNAPSHOTS 4
/* How h2emv_compact says its copy would not fit (engine/compact.c's
 * ENOSPC before anything is written; any other ENOSPC is a failure). */
#define NOT_COMPACTED "compact: not compacted:"

static int buf_write(void *data, const char *p, size_t len)
{
	return eng_buf_append(data, p, len) ? -1 : 0;
}

static int mp_encode_u64_pair(eng_buf *b, const uint64_t v[2])
{
	msgpack_packer pk;
	msgpack_packer_init(&pk, b, buf_write);
	int bad = msgpack_pack_array(&pk, 2);
	bad |= msgpack_pack_uint64(&pk, v[0]);
	bad |= msgpack_pack_uint64(&pk, v[1]);
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

static int mp_decode_u64_pair(uint64_t v[2], const void *p, size_t n)
{
	if (mp_prescan(p, n, 2, NULL))
		return H2EMV_ECORRUPT;
	msgpack_zone z;
	if (!msgpack_zone_init(&z, 256))
		return H2EMV_ENOMEM;
	msgpack_object o;
	size_t off = 0;
	int ok = msgpack_unpack(p, n, &off, &z, &o) == MSGPACK_UNPACK_SUCCESS &&
	         o.type == MSGPACK_OBJECT_ARRAY && o.via.array.size == 2 &&
	         o.via.array.ptr[0].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	         o.via.array.ptr[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER;
	if (ok) {
		v[0] = o.via.array.ptr[0].via.u64;
		v[1] = o.via.array.ptr[1].via.u64;
	}
	msgpack_zone_destroy(&z);
	return ok ? H2EMV_OK : H2EMV_ECORRUPT;
}

/* The last gc: [snapshot seq, memory clock], msgpack. */
static int state_get(uint64_t st[2], h2emv_mem *mem, h2emv_error *err)
{
	st[0] = st[1] = 0;
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	eng_buf b = { 0 };
	rc = eng_kv_get(&b, r, ENG_KV_META, STATE_KEY, strlen(STATE_KEY), NULL);
	eng_read_end(r);
	if (rc == H2EMV_OK && mp_decode_u64_pair(st, b.data, b.len))
		st[0] = st[1] = 0; /* unreadable: as if never run (gc is harmless) */
	eng_buf_free(&b);
	return rc == H2EMV_ENOTFOUND || rc == H2EMV_OK ? H2EMV_OK : rc;
}

static int newest(eng_snap *s, h2emv_mem *mem, h2emv_error *err)
{
	memset(s, 0, sizeof *s);
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	rc = eng_snap_get(s, r, 0, err);
	eng_read_end(r);
	return rc == H2EMV_ENOTFOUND ? H2EMV_OK : rc;
}

/* The result goes out on every return, so what gc did is never lost. */
static int done(h2emv_maintain_result *out, const h2emv_maintain_result *res, int rc)
{
	if (out)
		*out = *res;
	return rc;
}

int h2emv_maintain(h2emv_maintain_result *out, h2emv_mem *mem,
                   const h2emv_maintain_options *opts, h2emv_error *err)
{
	h2emv_maintain_options def = H2EMV_MAINTAIN_OPTIONS_INIT;
	if (!opts)
		opts = &def;
	if (!mem || opts->version != H2EMV_MAINTAIN_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_maintain: bad arguments or options version");
	h2emv_maintain_result res;
	memset(&res, 0, sizeof res);
	uint32_t every_snaps = opts->gc_every_snapshots ? opts->gc_every_snapshots
	                                                : GC_EVERY_SNAPSHOTS;
	h2emv_time every = opts->gc_every ? opts->gc_every : GC_EVERY;
	double share = opts->compact_free_share > 0 ? opts->compact_free_share : COMPACT_FREE_SHARE;
	uint64_t min_bytes = opts->compact_min_bytes ? opts->compact_min_bytes : COMPACT_MIN_BYTES;
	h2emv_config cfg;
	h2emv_config_get(&cfg, mem, NULL);
	uint64_t st[2], file = 0, freeb = 0;
	eng_snap s;
	int rc = state_get(st, mem, err);
	if (rc == H2EMV_OK)
		rc = newest(&s, mem, err);
	if (rc == H2EMV_OK)
		rc = eng_space(&file, &freeb, mem->env, err);
	if (rc)
		return done(out, &res, rc);
	res.bytes_before = res.bytes_after = file;
	int over = cfg.max_size && file > cfg.max_size;
	/* over budget: collect again once there is something new to collect */
	int due = opts->force || (over && s.seq > st[0]) || s.seq >= st[0] + every_snaps ||
	          (s.seq > st[0] && s.t_now >= (int64_t)st[1] + every);
	if (due && s.seq) {
		h2emv_gc_options go = opts->gc;
		if (go.version == 0) { /* the defaults, but the caller's progress (a stop) */
			go = (h2emv_gc_options)H2EMV_GC_OPTIONS_INIT;
			go.keep_snapshots = KEEP_SNAPSHOTS;
			go.progress = opts->gc.progress;
			go.progress_ctx = opts->gc.progress_ctx;
		}
		if (over) { /* the disk budget bounds the raw-log window too */
			go.version = H2EMV_GC_OPTIONS_VERSION;
			go.purge = 1;
		}
		if ((rc = h2emv_gc(&res.gc, mem, &go, err)))
			return done(out, &res, rc);
		res.gc_ran = 1;
		uint64_t now[2] = { s.seq, (uint64_t)(s.t_now > 0 ? s.t_now : 0) };
		eng_buf b = { 0 };
		rc = mp_encode_u64_pair(&b, now);
		if (rc == H2EMV_OK)
			rc = eng_kv_put(mem->env, ENG_KV_META, STATE_KEY, strlen(STATE_KEY), b.data,
			                b.len, err);
		eng_buf_free(&b);
		/* on a full disk the bookkeeping may not fit before the
		 * compaction makes room: gc just runs again next time */
		if (rc == H2EMV_ENOSPC)
			rc = H2EMV_OK;
		if (rc)
			return done(out, &res, rc);
		if ((rc = eng_space(&file, &freeb, mem->env, err)))
			return done(out, &res, rc);
	}
	res.free_bytes = freeb;
	over = cfg.max_size && file > cfg.max_size;
	int compact = opts->force || (file >= min_bytes && (double)freeb >= share * (double)file) ||
	              (over && freeb > 0);
	if (compact) {
		uint64_t before = file, after = file;
		h2emv_error cerr = { 0 };
		int crc = h2emv_compact(&before, &after, mem, &cerr);
		if (crc == H2EMV_EBUSY) {
			res.compact_deferred = 1;
		} else if (crc == H2EMV_ENOSPC && strstr(cerr.message, NOT_COMPACTED)) {
			res.compact_skipped = 1;
			snprintf(res.compact_skipped_why, sizeof res.compact_skipped_why, "%s",
			         cerr.message);
		} else if (crc) {
			if (err)
				*err = cerr;
			return done(out, &res, crc);
		} else {
			res.compacted = 1;
			res.bytes_after = after;
		}
	}
	return done(out, &res, H2EMV_OK);
}
