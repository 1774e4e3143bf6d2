/*
 * obs_ingest.c — storing observations: each is validated, then held to the
 * memory's clock (clock discipline: a time too far ahead is refused, an
 * earlier one counted), and the batch appended in one durable transaction.
 * An observation with an id already stored is a duplicate: not stored
 * again, and reported with the seq it has (idempotent resends).
 * The clock is cached on the handle; docs/formats.md describes the rules.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/mem/mem.h"
#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"

#define CLOCK_NONE (-1)
/* Records read, newest first, to bring the clock up to date with a log
 * this handle has not written (at the first ingest, or after another
 * process appended): beyond them the clock may lag, which makes the check
 * stricter, never looser. */
#define CLOCK_SCAN 256
#define DAY_US INT64_C(86400000000)
#define HOUR_US INT64_C(3600000000)

/* ------------------------------------------------- times from a body -- */

/* A msgpack unsigned integer (or a non-negative signed one) at p[0..n). */
static int mp_uint(uint64_t *v, const uint8_t *p, size_t n, size_t *used)
{
	if (n < 1)
		return -1;
	uint8_t b = p[0];
	size_t w = b == 0xcc || b == 0xd0 ? 1 : b == 0xcd || b == 0xd1 ? 2
	         : b == 0xce || b == 0xd2 ? 4 : b == 0xcf || b == 0xd3 ? 8 : 0;
	if (b <= 0x7f) {
		*v = b;
		*used = 1;
		return 0;
	}
	if (!w || n < 1 + w)
		return -1;
	uint64_t x = 0;
	for (size_t i = 0; i < w; i++)
		x = x << 8 | p[1 + i];
	if (b >= 0xd0 && (p[1] & 0x80)) /* a negative signed integer */
		return -1;
	*v = x;
	*used = 1 + w;
	return 0;
}

/* t and t_end (t when absent) of a stored body: the map's first entries,
 * in the order obs_from_json writes them. -1 if the bytes are not that. */
int obs_body_times(int64_t *t, int64_t *t_end, const void *body, size_t blen)
{
	const uint8_t *p = body;
	size_t n = blen, used = 0;
	uint64_t count, key, v;
	if (n < 1)
		return -1;
	if ((p[0] & 0xf0) == 0x80) {
		count = p[0] & 0x0f;
		used = 1;
	} else if ((p[0] == 0xde && n >= 3) || (p[0] == 0xdf && n >= 5)) {
		size_t w = p[0] == 0xde ? 2 : 4;
		count = 0;
		for (size_t i = 0; i < w; i++)
			count = count << 8 | p[1 + i];
		used = 1 + w;
	} else {
		return -1;
	}
	p += used, n -= used;
	if (count < 1 || mp_uint(&key, p, n, &used) || key != OBS_K_T)
		return -1;
	p += used, n -= used;
	if (mp_uint(&v, p, n, &used) || v > (uint64_t)OBS_TIME_MAX)
		return -1;
	p += used, n -= used;
	*t = *t_end = (int64_t)v;
	if (count < 2 || mp_uint(&key, p, n, &used) || key != OBS_K_T_END)
		return 0;
	p += used, n -= used;
	if (mp_uint(&v, p, n, &used) || v > (uint64_t)OBS_TIME_MAX || (int64_t)v < *t)
		return -1;
	*t_end = (int64_t)v;
	return 0;
}

/* --------------------------------------------------------- the clock -- */

int obs_body_end(int64_t *t, const void *body, size_t blen)
{
	int64_t t0;
	return obs_body_times(&t0, t, body, blen);
}

/* Move *clock to the newest time among records (floor, last], reading at
 * most CLOCK_SCAN of them, newest first. Damaged records are passed over
 * (check reports them): the clock must not stop the memory. */
static int scan_log(int64_t *clock, eng_read *r, uint64_t last, uint64_t floor,
                    h2emv_error *err)
{
	eng_buf body = { 0 };
	int rc = H2EMV_OK;
	for (uint64_t s = last, k = 0; s > floor && k < CLOCK_SCAN; s--, k++) {
		rc = eng_obs_get(&body, r, s, err);
		if (rc == H2EMV_ECORRUPT || rc == H2EMV_ENOTFOUND) {
			rc = H2EMV_OK;
			continue;
		}
		if (rc)
			break;
		int64_t t, t_end;
		if (obs_body_times(&t, &t_end, body.data, body.len) == 0 && t_end > *clock)
			*clock = t_end;
	}
	eng_buf_free(&body);
	return rc;
}

/* The builder's clock (the newest snapshot's) and its build cursor, from
 * which the log is read on. None if no observation is built yet (a
 * forgetting pass on an empty memory commits a clock no observation set),
 * or the snapshot record is damaged. */
static int builder_clock(int64_t *clock, uint64_t *cursor, eng_read *r, h2emv_error *err)
{
	eng_snap snap;
	int rc = eng_snap_get(&snap, r, 0, err);
	if (rc == H2EMV_ENOTFOUND || rc == H2EMV_ECORRUPT)
		return H2EMV_OK;
	if (rc == H2EMV_OK && snap.build_cursor > 0 && snap.t_now >= 0) {
		*clock = snap.t_now;
		*cursor = snap.build_cursor;
	}
	return rc;
}

/* Bring mem->clock up to date with the log (ingest_lock held). Cheap when
 * only this handle has appended since: one read of the last seq. */
static int clock_refresh(h2emv_mem *mem, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	uint64_t last = 0;
	rc = eng_obs_last(&last, r, err);
	if (rc == H2EMV_OK && (!mem->clock_known || last != mem->clock_seq)) {
		/* First use, or a shorter log (a different one): start from the
		 * builder's clock. Otherwise read what others appended. */
		int fresh = !mem->clock_known || last < mem->clock_seq;
		int64_t clock = fresh ? CLOCK_NONE : mem->clock;
		uint64_t floor = fresh ? 0 : mem->clock_seq;
		if (fresh)
			rc = builder_clock(&clock, &floor, r, err);
		if (rc == H2EMV_OK)
			rc = scan_log(&clock, r, last, floor < last ? floor : last, err);
		if (rc == H2EMV_OK) {
			mem->clock = clock;
			mem->clock_seq = last;
			mem->clock_known = 1;
		}
	}
	eng_read_end(r);
	return rc;
}

/* "365 days", "1.5 h", "90 s": a duration for a message, locale-free. */
static void fmt_age(char *out, size_t cap, int64_t us)
{
	int64_t unit = us >= DAY_US ? DAY_US : us >= HOUR_US ? HOUR_US : 1000000;
	const char *name = unit == DAY_US ? " days" : unit == HOUR_US ? " h" : " s";
	int64_t tenths = us / (unit / 10);
	if (unit == DAY_US && tenths == 10)
		name = " day";
	if (tenths % 10)
		snprintf(out, cap, "%lld.%lld%s", (long long)(tenths / 10), (long long)(tenths % 10),
		         name);
	else
		snprintf(out, cap, "%lld%s", (long long)(tenths / 10), name);
}

static int fail_field(h2emv_error *err, uint64_t line, uint64_t column, const obs_path *path,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail_field(h2emv_error *err, uint64_t line, uint64_t column, const obs_path *path,
                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(err, H2EMV_EPARSE, line, column, path, NULL, fmt, ap);
	va_end(ap);
	return H2EMV_EPARSE;
}

/* Refuse an item (text json[0..len), input line `line`) whose `t` (is_t)
 * or `t_end` is `time`, too far ahead of `ref`: the memory's clock, or the
 * wall clock when `wall`. */
static int fail_ahead(h2emv_error *err, const char *json, size_t len, uint64_t line, int is_t,
                      int64_t time, int64_t ref, int wall, int64_t jump)
{
	char when[OBS_TIME_TEXT], clock[OBS_TIME_TEXT], ahead[32], allowed[32];
	obs_time_format(when, time);
	obs_time_format(clock, ref);
	fmt_age(ahead, sizeof ahead, time - ref);
	fmt_age(allowed, sizeof allowed, jump);
	obs_path path = { 0 };
	obs_path_key(&path, is_t ? "t" : "t_end", is_t ? 1 : 5);
	return fail_field(err, line, obs_locate(json, len, &path, 0), &path,
	                  "%s is %s ahead of %s (%s%s); the allowed jump is %s (max_clock_jump). "
	                  "If the time is right, ingest it with H2EMV_INGEST_ALLOW_CLOCK_JUMP "
	                  "(h2emv ingest --allow-clock-jump)",
	                  when, ahead, wall ? "this computer's clock" : "the memory's clock", clock,
	                  wall ? "" : ", the newest observation before it", allowed);
}

typedef struct item_time {
	int64_t t, t_end;
} item_time;

typedef struct judge_in {
	const char *const *json;
	const size_t *len;
	const item_time *times;
	size_t n;
	const uint64_t *lines; /* NULL: 1, 2, ... */
	int64_t jump;          /* H2EMV_TIME_NEVER: no limit */
	int64_t now;           /* the wall clock */
	const uint8_t *known;  /* NULL, or 1 for an item whose id is already
	                          stored: a duplicate, not held to the clock */
} judge_in;

/* Hold each item to the running clock *clock (moved by the items before
 * it) and to the wall clock; count the out-of-order ones. On a refusal,
 * *failed is the item's index and *clock is left as it was. */
static int judge(int64_t *clock, uint64_t *out_of_order, size_t *failed, const judge_in *in,
                 h2emv_error *err)
{
	int64_t c = *clock;
	uint64_t late = 0;
	for (size_t i = 0; i < in->n; i++) {
		if (in->known && in->known[i])
			continue;
		int64_t t = in->times[i].t, top = in->times[i].t_end;
		uint64_t line = in->lines ? in->lines[i] : i + 1;
		/* both sides lie in 0..OBS_TIME_MAX: the differences cannot overflow */
		int64_t ref = CLOCK_NONE;
		int wall = 0;
		if (in->jump != H2EMV_TIME_NEVER && c != CLOCK_NONE && top - c > in->jump)
			ref = c;
		else if (in->jump != H2EMV_TIME_NEVER && top - in->now > in->jump)
			ref = in->now, wall = 1;
		if (ref != CLOCK_NONE) {
			*failed = i;
			int is_t = t - ref > in->jump;
			return fail_ahead(err, in->json[i], in->len[i], line, is_t, is_t ? t : top, ref,
			                  wall, in->jump);
		}
		if (c != CLOCK_NONE && t < c)
			late++;
		if (top > c)
			c = top;
	}
	*clock = c;
	*out_of_order = late;
	return H2EMV_OK;
}

/* What one call works on: the parsed items and what happens to them. */
typedef struct batch {
	eng_buf *bodies;
	eng_buf *ids;  /* ids[i].len 0: item i has none */
	char *idtext;  /* n * (OBS_ID_MAX + 1) bytes ids[] point into */
	item_time *times;
	uint8_t *known;
	uint64_t *seqs;
	uint8_t *dup;
	size_t n;
	int any_id;
} batch;

/* Which items' ids are already stored (a resend after a crash): they are
 * duplicates, so the clock does not judge them. The append decides again
 * inside its transaction, which is what counts when another process
 * appends the same ids at the same moment. */
static int find_known(batch *b, h2emv_mem *mem, h2emv_error *err)
{
	memset(b->known, 0, b->n);
	if (!b->any_id)
		return H2EMV_OK;
	eng_read *r = NULL;
	int rc = eng_read_begin(&r, mem->env, err);
	for (size_t i = 0; rc == H2EMV_OK && i < b->n; i++) {
		uint64_t seq;
		h2emv_error e = { 0 };
		if (!b->ids[i].len)
			continue;
		rc = eng_obsids_get(&seq, r, b->ids[i].data, b->ids[i].len, &e);
		if (rc == H2EMV_OK)
			b->known[i] = 1;
		else if (rc == H2EMV_ENOTFOUND || rc == H2EMV_ECORRUPT)
			rc = H2EMV_OK; /* a damaged entry: the append decides */
		else if (err)
			*err = e;
	}
	eng_read_end(r);
	return rc;
}

/* An id that names a different observation: refused like a bad line. */
static int fail_id(h2emv_error *err, uint64_t line, uint64_t column, const obs_path *path,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail_id(h2emv_error *err, uint64_t line, uint64_t column, const obs_path *path,
                   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(err, H2EMV_EEXIST, line, column, path, NULL, fmt, ap);
	va_end(ap);
	return H2EMV_EEXIST;
}

static int fail_conflict(h2emv_error *err, const char *json, size_t len, uint64_t line)
{
	char msg[sizeof err->message] = "";
	if (err)
		snprintf(msg, sizeof msg, "%s", err->message);
	obs_path path = { 0 };
	obs_path_key(&path, "id", 2);
	return fail_id(err, line, obs_locate(json, len, &path, 0), &path,
	               "%s; an id names one observation, so a resend must repeat it unchanged",
	               msg);
}

/* Under ingest_lock: judge the parsed batch against the clock, append it,
 * and move the clock. */
static int judge_and_append(h2emv_ingest_result *res, h2emv_mem *mem, batch *b, judge_in *in,
                            int allow, h2emv_error *err)
{
	int rc = clock_refresh(mem, err);
	if (rc == H2EMV_OK)
		rc = find_known(b, mem, err);
	if (rc)
		return rc;
	pthread_mutex_lock(&mem->lock);
	in->jump = allow ? H2EMV_TIME_NEVER : mem->cfg.max_clock_jump;
	pthread_mutex_unlock(&mem->lock);
	in->known = b->known;
	int64_t clock = mem->clock;
	uint64_t late = 0;
	size_t stored = 0, conflict = 0;
	rc = judge(&clock, &late, &res->failed, in, err);
	/* a body that keeps its UTC offset needs a reader of format 3 */
	int zoned = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < in->n && !zoned; i++)
		zoned = obs_body_zoned(b->bodies[i].data, b->bodies[i].len);
	if (zoned)
		rc = eng_format_raise(mem->env, ENG_FORMAT_ZONE, err);
	if (rc == H2EMV_OK)
		rc = eng_obs_append_ids(mem->env, b->bodies, b->any_id ? b->ids : NULL, in->n, b->seqs,
		                        b->dup, &res->first_seq, &stored, &conflict, err);
	if (rc == H2EMV_EEXIST) {
		res->failed = conflict;
		uint64_t line = in->lines ? in->lines[conflict] : conflict + 1;
		rc = fail_conflict(err, in->json[conflict], in->len[conflict], line);
	}
	if (rc == H2EMV_OK) {
		res->out_of_order = late;
		res->stored = stored;
		res->duplicates = in->n - stored;
		if (clock > mem->clock)
			mem->clock = clock;
		/* Another process appended between the refresh and this commit:
		 * leave clock_seq behind so the next refresh reads the log. */
		if (stored && res->first_seq == mem->clock_seq + 1)
			mem->clock_seq = res->first_seq + stored - 1;
	}
	res->clock = mem->clock;
	return rc;
}

static int batch_alloc(batch *b, size_t n)
{
	memset(b, 0, sizeof *b);
	b->n = n;
	b->bodies = calloc(n, sizeof *b->bodies);
	b->ids = calloc(n, sizeof *b->ids);
	b->idtext = malloc(n * (OBS_ID_MAX + 1));
	b->times = calloc(n, sizeof *b->times);
	b->known = calloc(n, 1);
	b->seqs = calloc(n, sizeof *b->seqs);
	b->dup = calloc(n, 1);
	return b->bodies && b->ids && b->idtext && b->times && b->known && b->seqs && b->dup;
}

static void batch_free(batch *b)
{
	for (size_t i = 0; b->bodies && i < b->n; i++)
		eng_buf_free(&b->bodies[i]);
	free(b->bodies);
	free(b->ids); /* they point into idtext */
	free(b->idtext);
	free(b->times);
	free(b->known);
	free(b->seqs);
	free(b->dup);
}

int h2emv_ingest_opts(h2emv_ingest_result *out, h2emv_mem *mem, const char *const *json,
                      const size_t *len, size_t n, const h2emv_ingest_options *opts,
                      h2emv_error *err)
{
	h2emv_ingest_options def = H2EMV_INGEST_OPTIONS_INIT;
	/* a caller built against version 1 has the shorter options and result */
	unsigned version = opts ? opts->version : 1;
	if (!opts)
		opts = &def;
	if (!mem || (n && (!json || !len)) || version < 1 || version > H2EMV_INGEST_OPTIONS_VERSION ||
	    opts->now < 0)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_ingest: bad arguments or options version");
	if (n == 0)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_ingest: empty batch");
	h2emv_ingest_result res = { 0, n, 0, CLOCK_NONE, 0, 0 };
	batch b;
	int rc = batch_alloc(&b, n) ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && rc == H2EMV_OK; i++) {
		char *id = b.idtext + i * (OBS_ID_MAX + 1);
		size_t idlen = 0;
		rc = obs_from_json_id(&b.bodies[i], id, &idlen, json[i], len[i],
		                      opts->lines ? opts->lines[i] : i + 1, err);
		if (rc)
			res.failed = i;
		else if (obs_body_times(&b.times[i].t, &b.times[i].t_end, b.bodies[i].data,
		                        b.bodies[i].len))
			rc = eng_fail(err, H2EMV_EINTERNAL, "an observation body lost its time");
		b.ids[i] = (eng_buf){ (uint8_t *)id, idlen, 0 };
		b.any_id |= idlen > 0;
	}
	if (rc == H2EMV_OK) {
		int64_t now = opts->now ? opts->now : eng_now_us();
		judge_in in = { json, len, b.times, n, opts->lines, 0, now > 0 ? now : 0, NULL };
		pthread_mutex_lock(&mem->ingest_lock);
		rc = judge_and_append(&res, mem, &b, &in,
		                      (opts->flags & H2EMV_INGEST_ALLOW_CLOCK_JUMP) != 0, err);
		pthread_mutex_unlock(&mem->ingest_lock);
	}
	if (rc == H2EMV_OK && version >= 2 && opts->items)
		for (size_t i = 0; i < n; i++)
			opts->items[i] = (h2emv_ingest_item){ b.seqs[i], b.dup[i] };
	batch_free(&b);
	if (rc != H2EMV_OK)
		res.first_seq = 0;
	if (out)
		memcpy(out, &res,
		       version >= 2 ? sizeof res : offsetof(h2emv_ingest_result, stored));
	return rc;
}

int h2emv_ingest_batch(uint64_t *first_seq_out, h2emv_mem *mem, const char *const *json,
                       const size_t *len, size_t n, h2emv_error *err)
{
	h2emv_ingest_result res;
	int rc = h2emv_ingest_opts(&res, mem, json, len, n, NULL, err);
	if (rc == H2EMV_OK && first_seq_out)
		*first_seq_out = res.first_seq;
	return rc;
}

int h2emv_ingest(uint64_t *seq_out, h2emv_mem *mem, const char *json, size_t len,
                 h2emv_error *err)
{
	h2emv_ingest_item item = { 0, 0 };
	h2emv_ingest_options o = H2EMV_INGEST_OPTIONS_INIT;
	o.items = &item;
	int rc = h2emv_ingest_opts(NULL, mem, &json, &len, 1, &o, err);
	if (rc == H2EMV_OK && seq_out)
		*seq_out = item.seq; /* a duplicate's: the seq its id already has */
	return rc;
}
