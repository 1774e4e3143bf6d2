/*
 * pages.c — LMDB's file format read by hand, for damaged files (see
 * pages.h). The layout is LMDB 0.9's data version 1 in host byte order
 * (little endian: amd64, arm64): a page header (pgno, pad, flags,
 * lower/upper or the overflow page count), then an array of node offsets;
 * a node is (data size lo/hi or child pgno, flags, key size, key, data).
 * Pages 0 and 1 are the meta pages; the newer one (by txnid) roots the free
 * list and the main database, whose records root the named databases.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/pages.h"
#include "engine/regfile.h"

#define MAGIC 0xBEEFC0DEu
#define DATA_VERSION 1u
#define HDR 16u       /* page header */
#define NODE_HDR 8u   /* node header */
#define P_BRANCH 0x01u
#define P_LEAF 0x02u
#define P_OVERFLOW 0x04u
#define P_META 0x08u
#define P_IGNORED (0x10u | 0x4000u | 0x8000u) /* dirty, loose, keep: in-memory marks */
#define F_BIGDATA 0x01u
#define F_SUBDATA 0x02u
#define MDB_INTEGERKEY 0x08u

static uint16_t u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

void pg_db_parse(pg_db *d, const uint8_t *p)
{
	d->flags = u16(p + 4);
	d->depth = u16(p + 6);
	d->branch_pages = u64(p + 8);
	d->leaf_pages = u64(p + 16);
	d->overflow_pages = u64(p + 24);
	d->entries = u64(p + 32);
	d->root = u64(p + 40);
}

/* A root and depth that a walk can start from, or why not. */
const char *pg_db_sane(const pg_db *d, uint64_t last_pg)
{
	if (d->root == PG_INVALID)
		return d->depth == 0 ? NULL : "an empty database with a depth";
	if (d->root < 2 || d->root > last_pg)
		return "its root page is outside the file";
	if (d->depth == 0 || d->depth > PG_MAX_DEPTH)
		return "its depth is impossible";
	return NULL;
}

typedef struct meta {
	int parsed; /* an LMDB meta page (magic, version): its txnid is read */
	uint32_t psize;
	uint64_t last_pg, txnid;
	pg_db free_db, main_db;
} meta;

static int read_meta(meta *m, pg_file *f, int i, uint32_t psize, h2emv_error *err)
{
	uint8_t b[160];
	ssize_t got = pread(f->fd, b, sizeof b, (off_t)i * psize);
	if (got < 0)
		return eng_fail(err, H2EMV_EIO, "reading meta page %d: %s", i, strerror(errno));
	if (got != (ssize_t)sizeof b)
		return eng_fail(err, H2EMV_ECORRUPT, "the data file ends inside meta page %d", i);
	if (u64(b) != (uint64_t)i || !(u16(b + 10) & P_META))
		return eng_fail(err, H2EMV_ECORRUPT, "page %d is not a meta page", i);
	if (u32(b + 16) != MAGIC)
		return eng_fail(err, H2EMV_ECORRUPT, "meta page %d has no LMDB magic number", i);
	if (u32(b + 20) != DATA_VERSION)
		return eng_fail(err, H2EMV_ECORRUPT, "meta page %d has data version %u, not %u", i,
		                u32(b + 20), DATA_VERSION);
	m->parsed = 1;
	m->psize = u32(b + 40);
	pg_db_parse(&m->free_db, b + 40);
	pg_db_parse(&m->main_db, b + 40 + PG_DB_REC);
	m->last_pg = u64(b + 136);
	m->txnid = u64(b + 144);
	if (m->psize != psize)
		return eng_fail(err, H2EMV_ECORRUPT, "the meta pages disagree on the page size");
	uint64_t need = (m->last_pg + 1) * (uint64_t)psize;
	if (m->last_pg < 1 || m->last_pg > f->size / psize || need > f->size)
		return eng_fail(err, H2EMV_ECORRUPT,
		                "meta page %d says the file has %llu pages, but it is %llu bytes", i,
		                (unsigned long long)(m->last_pg + 1), (unsigned long long)f->size);
	const char *why;
	if ((why = pg_db_sane(&m->free_db, m->last_pg)) || (why = pg_db_sane(&m->main_db, m->last_pg)))
		return eng_fail(err, H2EMV_ECORRUPT, "meta page %d: %s", i, why);
	/* the public flag bits (LMDB may leave internal bits above them in a
	 * copy's meta, which it ignores when it opens the file) */
	if ((m->free_db.flags & 0xff) != MDB_INTEGERKEY || (m->main_db.flags & 0xff) != 0)
		return eng_fail(err, H2EMV_ECORRUPT, "meta page %d has unknown database flags", i);
	/* a commit writes meta page (txnid & 1); both start at txnid 0 */
	if (m->txnid != 0 && (m->txnid & 1) != (uint64_t)i)
		return eng_fail(err, H2EMV_ECORRUPT, "meta page %d holds transaction %llu", i,
		                (unsigned long long)m->txnid);
	return H2EMV_OK;
}

int pg_open(pg_file *f, const char *path, h2emv_error *err)
{
	return pg_open_meta(f, path, 0, err);
}

int pg_open_meta(pg_file *f, const char *path, int lenient, h2emv_error *err)
{
	memset(f, 0, sizeof *f);
	f->fd = reg_open(path, O_RDONLY, 0, err);
	if (f->fd < 0)
		return errno == ENOENT ? H2EMV_ENOTFOUND : H2EMV_EIO;
	struct stat st;
	uint8_t b[64];
	int rc = H2EMV_OK;
	if (fstat(f->fd, &st) != 0) {
		rc = eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	f->size = (uint64_t)st.st_size;
	ssize_t got = pread(f->fd, b, sizeof b, 0);
	if (got != (ssize_t)sizeof b) {
		rc = got < 0 ? eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(errno))
		             : eng_fail(err, H2EMV_ECORRUPT, "the data file is only %llu bytes",
		                        (unsigned long long)f->size);
		goto fail;
	}
	uint32_t psize = u32(b + 40);
	if (lenient && (psize < 512 || psize > 65536 || (psize & (psize - 1))))
		psize = 4096; /* meta page 0 is gone: try the usual size for page 1 */
	if (psize < 512 || psize > 65536 || (psize & (psize - 1))) {
		rc = eng_fail(err, H2EMV_ECORRUPT, "meta page 0 gives an impossible page size %u", psize);
		goto fail;
	}
	meta m[2];
	if (lenient) {
		/* salvage: either sound meta page will do, the newer preferred */
		h2emv_error e0 = { 0 }, e1 = { 0 };
		int r0 = read_meta(&m[0], f, 0, psize, &e0), r1 = read_meta(&m[1], f, 1, psize, &e1);
		if (r0 && r1) {
			rc = r0;
			if (err)
				*err = e0;
			goto fail;
		}
		/* lenient 1: the newer sound one; 2: the other one, if sound */
		int newer = r0 ? 1 : r1 ? 0 : m[1].txnid > m[0].txnid;
		int pick = lenient == 2 ? !newer : newer;
		if ((pick ? r1 : r0) != H2EMV_OK) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "meta page %d is damaged", pick);
			goto fail;
		}
		m[0] = m[pick];
		m[1] = m[0];
	} else {
		/* LMDB opens on the newer meta page and overwrites the older one
		 * with its next commit: an older page torn by a power cut is not
		 * damage, as long as it is an LMDB meta page (it carries its
		 * transaction number; without magic LMDB refuses the file). */
		h2emv_error e[2] = { { 0 }, { 0 } };
		memset(m, 0, sizeof m);
		int r[2] = { read_meta(&m[0], f, 0, psize, &e[0]), read_meta(&m[1], f, 1, psize, &e[1]) };
		for (int i = 0; i < 2 && !rc; i++) {
			int o = !i;
			if (!r[i])
				continue;
			if (!r[o] && m[i].parsed && m[i].txnid < m[o].txnid) {
				m[i] = m[o]; /* the older page is never read */
				continue;
			}
			rc = r[i];
			if (err)
				*err = e[i];
		}
		if (rc)
			goto fail;
	}
	if (!lenient && m[0].txnid == m[1].txnid && m[0].txnid != 0 && memcmp(&m[0], &m[1], sizeof *m)) {
		rc = eng_fail(err, H2EMV_ECORRUPT, "both meta pages claim transaction %llu",
		              (unsigned long long)m[0].txnid);
		goto fail;
	}
	const meta *use = &m[m[1].txnid > m[0].txnid];
	f->psize = psize;
	f->last_pg = use->last_pg;
	f->txnid = use->txnid;
	f->free_db = use->free_db;
	f->main_db = use->main_db;
	f->seen_bits = f->last_pg + 1;
	f->seen = calloc((size_t)(f->seen_bits + 7) / 8, 1);
	if (!f->seen) {
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		goto fail;
	}
	return H2EMV_OK;
fail:
	pg_close(f);
	return rc;
}

void pg_close(pg_file *f)
{
	if (f->fd > 0)
		close(f->fd);
	free(f->seen);
	f->seen = NULL;
	f->fd = -1;
}

/* ------------------------------------------------------------ walking -- */

typedef struct wctx {
	pg_file *f;
	const pg_db *db;
	int intkey;
	pg_walker *w;
	uint8_t *bufs[PG_MAX_DEPTH + 1];
	eng_buf big; /* an overflow value */
	char why[160];
} wctx;

static int key_cmp(const wctx *c, const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	if (c->intkey) {
		uint64_t x = an == 8 ? u64(a) : 0, y = bn == 8 ? u64(b) : 0;
		return x < y ? -1 : x > y;
	}
	int r = memcmp(a, b, an < bn ? an : bn);
	return r ? r : (an > bn) - (an < bn);
}

static int seen(pg_file *f, uint64_t pgno)
{
	uint8_t bit = (uint8_t)(1u << (pgno & 7));
	int was = (f->seen[pgno >> 3] & bit) != 0;
	f->seen[pgno >> 3] |= bit;
	return was;
}

static int in_skip(const pg_walker *w, uint64_t pgno)
{
	for (size_t i = 0; i < w->n_skip; i++)
		if (w->skip[i] == pgno)
			return 1;
	return 0;
}

static int read_pages(pg_file *f, uint8_t *buf, uint64_t pgno, size_t bytes)
{
	off_t off = (off_t)(pgno * f->psize);
	size_t done = 0;
	while (done < bytes) {
		ssize_t got = pread(f->fd, buf + done, bytes - done, off + (off_t)done);
		if (got <= 0)
			return got < 0 && errno == EINTR ? 0 : -1;
		done += (size_t)got;
	}
	return 0;
}

/* Fill c->why and return -1. */
static int bad(wctx *c, const char *why)
{
	strncpy(c->why, why, sizeof c->why - 1);
	return -1;
}

/* Node i of page p: its offset after the checks every node needs. */
static int node_at(wctx *c, const uint8_t *p, unsigned i, unsigned upper, unsigned *off)
{
	unsigned o = u16(p + HDR + 2 * i);
	if (o < upper || o & 1 || o + NODE_HDR > c->f->psize)
		return bad(c, "a node offset points outside the page");
	unsigned ks = u16(p + o + 6);
	if (ks > PG_MAX_KEY || o + NODE_HDR + ks > c->f->psize)
		return bad(c, "a key runs past the page");
	*off = o;
	return 0;
}

/* The checks an overflow value needs before it is read. */
static int check_overflow(wctx *c, uint64_t pgno, uint64_t dsize)
{
	pg_file *f = c->f;
	uint64_t n = (dsize + HDR + f->psize - 1) / f->psize;
	if (pgno < 2 || pgno > f->last_pg || n > f->last_pg - pgno + 1)
		return bad(c, "an overflow value lies outside the file");
	uint8_t h[HDR];
	if (read_pages(f, h, pgno, HDR))
		return bad(c, "an overflow page cannot be read");
	if (u64(h) != pgno || (u16(h + 10) & ~P_IGNORED) != P_OVERFLOW || u32(h + 12) < n)
		return bad(c, "an overflow page's header is damaged");
	for (uint64_t i = 0; i < n; i++)
		if (seen(f, pgno + i))
			return bad(c, "an overflow page is used twice");
	return 0;
}

/* Every structural check of page p (at `level`, keys within [lo, hi)). */
static int check_page(wctx *c, const uint8_t *p, uint64_t pgno, int level, const uint8_t *lo,
                      size_t lon, const uint8_t *hi, size_t hin)
{
	pg_file *f = c->f;
	int leaf = level == c->db->depth;
	if (u64(p) != pgno)
		return bad(c, "the page holds another page number");
	if ((u16(p + 10) & ~P_IGNORED) != (leaf ? P_LEAF : P_BRANCH))
		return bad(c, leaf ? "a leaf page is not marked as a leaf"
		                   : "a branch page is not marked as a branch");
	unsigned lower = u16(p + 12), upper = u16(p + 14);
	if (lower < HDR + 2 || (lower & 1) || lower > upper || upper > f->psize)
		return bad(c, "the page's free-space bounds are impossible");
	unsigned n = (lower - HDR) / 2;
	const uint8_t *prev = NULL;
	size_t prevn = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned o;
		if (node_at(c, p, i, upper, &o))
			return -1;
		unsigned fl = u16(p + o + 4), ks = u16(p + o + 6);
		const uint8_t *key = p + o + NODE_HDR;
		uint64_t dsize = (uint64_t)u16(p + o) | (uint64_t)u16(p + o + 2) << 16;
		if (!leaf) {
			uint64_t child = dsize | (uint64_t)fl << 32;
			if (child < 2 || child > f->last_pg)
				return bad(c, "a child page number is outside the file");
			if (i == 0)
				continue; /* the leftmost key of a branch is implicit */
		} else if (c->db == &f->main_db) {
			if (fl != F_SUBDATA || dsize != PG_DB_REC || o + NODE_HDR + ks + PG_DB_REC > f->psize)
				return bad(c, "a database record in the main database is malformed");
		} else if (fl == F_BIGDATA) {
			if (o + NODE_HDR + ks + 8 > f->psize)
				return bad(c, "a value's overflow page number runs past the page");
			/* a write along the edges reads keys, not values */
			if (!(c->w->mode & PG_EDGES) && check_overflow(c, u64(key + ks), dsize))
				return -1;
		} else if (fl != 0 || o + NODE_HDR + ks + dsize > f->psize) {
			return bad(c, fl ? "a node has unknown flags" : "a value runs past the page");
		}
		if (c->intkey && ks != 8)
			return bad(c, "a free-list key is not 8 bytes");
		if (prev && key_cmp(c, prev, prevn, key, ks) >= 0)
			return bad(c, "the keys are out of order");
		if (lo && key_cmp(c, key, ks, lo, lon) < 0)
			return bad(c, "a key is below its parent's range");
		if (hi && key_cmp(c, key, ks, hi, hin) >= 0)
			return bad(c, "a key is above its parent's range");
		prev = key;
		prevn = ks;
	}
	return 0;
}

static int leaf_records(wctx *c, const uint8_t *p)
{
	pg_walker *w = c->w;
	unsigned n = (u16(p + 12) - HDR) / 2;
	w->records += n;
	if (!(w->mode & PG_RECORDS) || !w->on_record)
		return H2EMV_OK;
	for (unsigned i = 0; i < n; i++) {
		unsigned o = u16(p + HDR + 2 * i), ks = u16(p + o + 6);
		const uint8_t *key = p + o + NODE_HDR, *val = key + ks;
		size_t dsize = (size_t)u16(p + o) | (size_t)u16(p + o + 2) << 16;
		if (u16(p + o + 4) == F_BIGDATA) {
			c->big.len = 0;
			if (eng_buf_reserve(&c->big, dsize + 1))
				return H2EMV_ENOMEM;
			uint64_t pg = u64(val);
			if (pread(c->f->fd, c->big.data, dsize, (off_t)(pg * c->f->psize + HDR)) !=
			        (ssize_t)dsize) {
				if (w->on_bad)
					w->on_bad(w->ctx, pg, "an overflow value cannot be read", key, ks, key, ks);
				w->bad++;
				continue;
			}
			val = c->big.data;
		}
		int rc = w->on_record(w->ctx, key, ks, val, dsize);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int walk_page(wctx *c, uint64_t pgno, int level, const uint8_t *lo, size_t lon,
                     const uint8_t *hi, size_t hin)
{
	pg_file *f = c->f;
	pg_walker *w = c->w;
	uint8_t *p = c->bufs[level];
	const char *why = NULL;
	if (in_skip(w, pgno))
		why = "reading this page crashed a reader before";
	else if (seen(f, pgno))
		why = "the page is reached twice (a cycle or a shared page)";
	else if (read_pages(f, p, pgno, f->psize))
		why = "the page cannot be read";
	else if (check_page(c, p, pgno, level, lo, lon, hi, hin))
		why = c->why;
	if (why) {
		w->bad++;
		if (w->on_bad)
			w->on_bad(w->ctx, pgno, why, lo, lon, hi, hin);
		return H2EMV_OK;
	}
	if (level == c->db->depth) {
		if (w->on_leaf)
			w->on_leaf(w->ctx, pgno);
		return leaf_records(c, p);
	}
	unsigned n = (u16(p + 12) - HDR) / 2;
	int children_are_leaves = level + 1 == c->db->depth;
	for (unsigned i = 0; i < n; i++) {
		unsigned o = u16(p + HDR + 2 * i), on = i + 1 < n ? u16(p + HDR + 2 * (i + 1)) : 0;
		uint64_t child = (uint64_t)u16(p + o) | (uint64_t)u16(p + o + 2) << 16 |
		                 (uint64_t)u16(p + o + 4) << 32;
		const uint8_t *clo = i ? p + o + NODE_HDR : lo;
		size_t clon = i ? u16(p + o + 6) : lon;
		const uint8_t *chi = i + 1 < n ? p + on + NODE_HDR : hi;
		size_t chin = i + 1 < n ? u16(p + on + 6) : hin;
		if (children_are_leaves && (w->mode & PG_BRANCHES))
			continue;
		if ((w->mode & PG_EDGES) && i && i + 1 < n)
			continue;
		int rc = walk_page(c, child, level + 1, clo, clon, chi, chin);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

int pg_walk(pg_file *f, const pg_db *db, int intkey, pg_walker *w)
{
	w->records = 0;
	w->bad = 0;
	if (db->root == PG_INVALID) {
		/* an empty database counts nothing: a meta page that says it
		 * holds entries or pages (a bit flip in the free list's count)
		 * would be carried into every later commit */
		if (!(w->mode & (PG_BRANCHES | PG_EDGES)) &&
		    (db->entries || db->leaf_pages || db->branch_pages || db->overflow_pages)) {
			w->bad++;
			if (w->on_bad)
				w->on_bad(w->ctx, 0,
				          "the database is empty but its meta record counts entries or pages",
				          NULL, 0, NULL, 0);
		}
		return H2EMV_OK;
	}
	wctx c = { .f = f, .db = db, .intkey = intkey, .w = w };
	int rc = H2EMV_OK;
	for (int i = 1; i <= db->depth && rc == H2EMV_OK; i++)
		if (!(c.bufs[i] = malloc(f->psize)))
			rc = H2EMV_ENOMEM;
	if (rc == H2EMV_OK)
		rc = walk_page(&c, db->root, 1, NULL, 0, NULL, 0);
	if (rc == H2EMV_OK && !(w->mode & (PG_BRANCHES | PG_EDGES)) && !w->bad &&
	    w->records != db->entries) {
		w->bad++;
		if (w->on_bad)
			w->on_bad(w->ctx, db->root, "the database's entry count does not match its records",
			          NULL, 0, NULL, 0);
	}
	for (int i = 1; i <= db->depth; i++)
		free(c.bufs[i]);
	eng_buf_free(&c.big);
	return rc;
}

/* ---------------------------------------------------- orphaned leaves -- */

static int mark_free(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
	(void)key, (void)klen;
	pg_file *f = ctx;
	if (vlen < 8)
		return H2EMV_OK;
	uint64_t n = u64(val);
	for (uint64_t i = 1; i <= n && (i + 1) * 8 <= vlen; i++) {
		uint64_t p = u64(val + 8 * i);
		if (p < f->seen_bits)
			f->seen[p >> 3] |= (uint8_t)(1u << (p & 7));
	}
	return H2EMV_OK;
}

static int in_range(const wctx *c, const pg_range *r, const uint8_t *k, size_t kn)
{
	return (!r->has_lo || key_cmp(c, k, kn, r->lo, r->lon) >= 0) &&
	       (!r->has_hi || key_cmp(c, k, kn, r->hi, r->hin) < 0);
}

int pg_scan_orphans(pg_file *f, size_t ksize, const pg_range *ranges, size_t n_ranges,
                    pg_walker *w)
{
	/* the free list's own pages and the pages it lists are not orphans */
	pg_walker fw = { .mode = PG_RECORDS, .ctx = f, .on_record = mark_free };
	int rc = pg_walk(f, &f->free_db, 1, &fw);
	if (rc)
		return rc;
	pg_db leafdb = { .depth = 1 };
	wctx c = { .f = f, .db = &leafdb, .w = w };
	uint8_t *p = malloc(f->psize);
	if (!p)
		return H2EMV_ENOMEM;
	for (uint64_t pg = 2; pg <= f->last_pg && rc == H2EMV_OK; pg++) {
		if ((f->seen[pg >> 3] >> (pg & 7)) & 1 || in_skip(w, pg))
			continue;
		if (read_pages(f, p, pg, f->psize) || u64(p) != pg ||
		    (u16(p + 10) & ~P_IGNORED) != P_LEAF || check_page(&c, p, pg, 1, NULL, 0, NULL, 0))
			continue;
		unsigned n = (u16(p + 12) - HDR) / 2;
		const uint8_t *k0 = p + u16(p + HDR) + NODE_HDR, *kn = p + u16(p + HDR + 2 * (n - 1)) + NODE_HDR;
		size_t k0n = u16(p + u16(p + HDR) + 6), knn = u16(p + u16(p + HDR + 2 * (n - 1)) + 6);
		int fits = 0;
		for (size_t r = 0; r < n_ranges && !fits; r++)
			fits = in_range(&c, &ranges[r], k0, k0n) && in_range(&c, &ranges[r], kn, knn);
		for (unsigned i = 0; fits && ksize && i < n; i++)
			fits = u16(p + u16(p + HDR + 2 * i) + 6) == ksize;
		if (!fits)
			continue;
		if (w->on_leaf)
			w->on_leaf(w->ctx, pg);
		rc = leaf_records(&c, p);
	}
	free(p);
	eng_buf_free(&c.big);
	return rc;
}
