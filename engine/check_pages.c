/*
 * check_pages.c — `check`'s first pass: every page of the data file read by
 * hand (pages.h), before LMDB is trusted with any of it. A damaged page is
 * one violation naming the database, the page and the keys it held; the
 * record and tree passes then run only on a file whose pages are sound,
 * since LMDB would assert or fault on the damaged ones.
 */
#include <stdio.h>
#include <string.h>

#include "engine/env.h"
#include "engine/gate.h"
#include "engine/pages.h"

typedef struct pctx {
	const char *db;
	h2emv_violation_fn fn;
	void *ctx;
	uint64_t count;
} pctx;


static void on_bad(void *ctx, uint64_t pgno, const char *why, const uint8_t *lo, size_t lon,
                   const uint8_t *hi, size_t hin)
{
	pctx *p = ctx;
	char a[64], b[64], msg[400];
	pg_key_text(a, sizeof a, lo, lon, "the start");
	pg_key_text(b, sizeof b, hi, hin, "the end");
	snprintf(msg, sizeof msg, "page %llu is damaged (%s); the keys from %s up to %s are unreadable",
	         (unsigned long long)pgno, why, a, b);
	p->count++;
	if (p->fn) {
		h2emv_violation v = { .rule = "page", .db = p->db, .key = pgno, .message = msg };
		p->fn(p->ctx, &v);
	}
}

static void whole_file(pctx *p, const char *what, const char *msg)
{
	p->count++;
	if (p->fn) {
		h2emv_violation v = { .rule = what, .db = "file", .message = msg };
		p->fn(p->ctx, &v);
	}
}

int eng_check_pages(uint64_t *n_violations, const char *dir, h2emv_violation_fn fn, void *ctx,
                    h2emv_error *err)
{
	char path[4200];
	gate_data_path(path, sizeof path, dir);
	pctx p = { "free list", fn, ctx, 0 };
	pg_file f;
	h2emv_error e = { 0 };
	int rc = pg_open(&f, path, &e);
	if (rc == H2EMV_ECORRUPT) {
		whole_file(&p, "meta", e.message);
		*n_violations = p.count;
		return H2EMV_OK;
	}
	if (rc) {
		if (err)
			*err = e;
		return rc;
	}
	pg_walker w = { .mode = 0, .ctx = &p, .on_bad = on_bad };
	rc = pg_walk(&f, &f.free_db, 1, &w);
	for (int db = 0; db < DB_COUNT + ENG_IX_DBS && rc == H2EMV_OK; db++) {
		pg_db d;
		p.db = gate_db_name(db);
		rc = pg_named(&d, &f, p.db, &e);
		if (rc == H2EMV_ENOTFOUND && db >= DB_COUNT) {
			rc = H2EMV_OK; /* no term index yet: a build writes it */
			continue;
		}
		if (rc == H2EMV_ECORRUPT || rc == H2EMV_ENOTFOUND) {
			whole_file(&p, rc == H2EMV_ENOTFOUND ? "missing-db" : "page", e.message);
			if (rc == H2EMV_ECORRUPT && strstr(e.message, "main database"))
				break; /* no database can be found: one report says it */
			rc = H2EMV_OK;
			continue;
		}
		if (rc == H2EMV_OK)
			rc = pg_walk(&f, &d, 0, &w);
	}
	pg_close(&f);
	if (rc)
		return eng_fail(err, rc, "check: out of memory reading the pages");
	*n_violations = p.count;
	return H2EMV_OK;
}
