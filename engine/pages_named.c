/*
 * pages_named.c — the named databases found by hand in the main database,
 * and keys worded for messages (see pages.h; split from pages.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/pages.h"

typedef struct find_ctx {
	const char *name;
	pg_db *out;
	int found;
	char why[160];
	uint64_t pgno;
} find_ctx;

static int find_rec(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
	find_ctx *x = ctx;
	if (klen == strlen(x->name) && !memcmp(key, x->name, klen) && vlen == PG_DB_REC) {
		pg_db_parse(x->out, val);
		x->found = 1;
	}
	return H2EMV_OK;
}

static void find_bad(void *ctx, uint64_t pgno, const char *why, const uint8_t *lo, size_t lon,
                     const uint8_t *hi, size_t hin)
{
	(void)lo, (void)lon, (void)hi, (void)hin;
	find_ctx *x = ctx;
	if (!x->why[0]) {
		strncpy(x->why, why, sizeof x->why - 1);
		x->pgno = pgno;
	}
}

int pg_named(pg_db *out, pg_file *f, const char *name, h2emv_error *err)
{
	/* the main database holds a few records: walk it whole each time,
	 * with a bitmap of its own so other walks' marks do not interfere */
	uint8_t *keep = f->seen;
	f->seen = calloc((size_t)(f->seen_bits + 7) / 8, 1);
	if (!f->seen) {
		f->seen = keep;
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	find_ctx x = { .name = name, .out = out };
	pg_walker w = { .mode = PG_RECORDS, .ctx = &x, .on_record = find_rec, .on_bad = find_bad };
	int rc = pg_walk(f, &f->main_db, 0, &w);
	free(f->seen);
	f->seen = keep;
	if (rc)
		return eng_fail(err, rc, "out of memory");
	if (w.bad)
		return eng_fail(err, H2EMV_ECORRUPT,
		                "the main database (the list of databases) is damaged at page %llu: %s",
		                (unsigned long long)x.pgno, x.why);
	if (!x.found)
		return eng_fail(err, H2EMV_ENOTFOUND, "database '%s' is missing", name);
	const char *why = pg_db_sane(out, f->last_pg);
	if (!why && out->flags != 0)
		why = "it has unknown flags";
	if (why)
		return eng_fail(err, H2EMV_ECORRUPT, "database '%s': %s", name, why);
	return H2EMV_OK;
}

/* A key for a message: a big-endian number when it has 8 bytes or more,
 * else hex; `open` when there is no bound on that side. */
void pg_key_text(char *buf, size_t n, const uint8_t *k, size_t kn, const char *open)
{
	if (!k) {
		snprintf(buf, n, "%s", open);
		return;
	}
	if (kn >= 8) {
		snprintf(buf, n, "%llu", (unsigned long long)get_be64(k));
		return;
	}
	size_t o = 0;
	for (size_t i = 0; i < kn && o + 3 < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%02x", k[i]);
	if (!o)
		snprintf(buf, n, "\"\"");
}
