/*
 * salvage.c — copy what is intact out of a damaged store into a new one, in
 * the spirit of SQLite's `.recover`. The source is never given to LMDB: a
 * child process walks each database's pages by hand (pages.h) and streams
 * the records of every sound leaf through a pipe; the parent verifies each
 * record (checksum, structure, key) before writing it to the new store. A
 * child that dies (a signal, a bug, an unreadable mapping) loses only the
 * leaf page it was on: the parent adds that page to the skip list and starts
 * another child after the last key it received. Then the new store is made
 * consistent: a snapshot whose tree reaches a lost node version, or whose
 * build cursor is past the last observation saved, is dropped (and the
 * pins on it); versions and dead entries of snapshots newer than the newest
 * kept one go with them; the meta counters follow what was kept.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/env.h"
#include "engine/gate.h"
#include "engine/pages.h"
#include "engine/salvage.h"

#define MAX_RETRIES 256
#define BATCH 512

/* ------------------------------------------------------ the reader side -- */

enum { FR_LEAF = 'L', FR_REC = 'R', FR_BAD = 'B', FR_ORPHANS = 'O', FR_OREC = 'r', FR_END = 'E' };

#define MAX_RANGES 64

typedef struct reader {
	int fd;
	const uint8_t *resume; /* send only keys after this one */
	size_t resume_len;
	pg_range ranges[MAX_RANGES]; /* what damaged pages cut off */
	size_t n_ranges;
} reader;

/* Test hook: called in the reader before each leaf (a test makes it crash). */
void (*salvage_reader_hook)(uint64_t pgno);

static void write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3); /* the parent is gone */
		b += w;
		n -= (size_t)w;
	}
}

/* A frame: type, two lengths, two byte strings. */
static void frame(int fd, int type, const void *a, uint32_t an, const void *b, uint32_t bn)
{
	uint8_t h[9] = { (uint8_t)type };
	memcpy(h + 1, &an, 4);
	memcpy(h + 5, &bn, 4);
	write_all(fd, h, sizeof h);
	if (an)
		write_all(fd, a, an);
	if (bn)
		write_all(fd, b, bn);
}

static int key_after(const uint8_t *k, size_t kn, const uint8_t *r, size_t rn)
{
	int c = memcmp(k, r, kn < rn ? kn : rn);
	return c > 0 || (c == 0 && kn > rn);
}

static int rd_record(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
	reader *r = ctx;
	if (r->resume && !key_after(key, klen, r->resume, r->resume_len))
		return H2EMV_OK;
	frame(r->fd, FR_REC, key, (uint32_t)klen, val, (uint32_t)vlen);
	return H2EMV_OK;
}

static int rd_orphan(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
	reader *r = ctx;
	frame(r->fd, FR_OREC, key, (uint32_t)klen, val, (uint32_t)vlen);
	return H2EMV_OK;
}

static void rd_leaf(void *ctx, uint64_t pgno)
{
	reader *r = ctx;
	frame(r->fd, FR_LEAF, &pgno, 8, NULL, 0);
	if (salvage_reader_hook)
		salvage_reader_hook(pgno);
}

static void rd_bad(void *ctx, uint64_t pgno, const char *why, const uint8_t *lo, size_t lon,
                   const uint8_t *hi, size_t hin)
{
	reader *r = ctx;
	if (r->n_ranges < MAX_RANGES) {
		pg_range *g = &r->ranges[r->n_ranges++];
		if ((g->has_lo = lo != NULL))
			memcpy(g->lo, lo, g->lon = lon);
		if ((g->has_hi = hi != NULL))
			memcpy(g->hi, hi, g->hin = hin);
	}
	/* the message, then the bounds: "why\0" pgno lo-len lo hi-len hi */
	uint8_t b[8 + 4 + PG_MAX_KEY + 4 + PG_MAX_KEY];
	size_t n = 0;
	uint32_t l = lo ? (uint32_t)lon : UINT32_MAX, h = hi ? (uint32_t)hin : UINT32_MAX;
	memcpy(b, &pgno, 8), n = 8;
	memcpy(b + n, &l, 4), n += 4;
	if (lo)
		memcpy(b + n, lo, lon), n += lon;
	memcpy(b + n, &h, 4), n += 4;
	if (hi)
		memcpy(b + n, hi, hin), n += hin;
	frame(r->fd, FR_BAD, why, (uint32_t)strlen(why), b, (uint32_t)n);
}

/* The child: walk database `name` and stream it. Never returns. */
static void run_reader(int fd, const char *path, const char *name, size_t ksize,
                       const uint64_t *skip, size_t n_skip, const uint8_t *resume,
                       size_t resume_len)
{
	/* a crash here must kill this reader, whatever handlers the host
	 * process installed (a test framework's, say) */
	static const int fatal[] = { SIGPIPE, SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		signal(fatal[i], SIG_DFL);
	pg_file f;
	pg_db d;
	h2emv_error e = { 0 };
	int rc = pg_open_meta(&f, path, 1, &e);
	if (rc == H2EMV_OK)
		rc = pg_named(&d, &f, name, &e);
	if (rc == H2EMV_ECORRUPT) {
		/* a meta page can look sound and point at garbage: try the other */
		pg_file g;
		h2emv_error e2 = { 0 };
		if (pg_open_meta(&g, path, 2, &e2) == H2EMV_OK && pg_named(&d, &g, name, &e2) == H2EMV_OK) {
			if (f.fd >= 0)
				pg_close(&f);
			f = g;
			rc = H2EMV_OK;
		} else {
			pg_close(&g);
		}
	}
	static reader r;
	if (rc == H2EMV_OK) {
		r = (reader){ .fd = fd, .resume = resume, .resume_len = resume_len };
		pg_walker w = { .mode = PG_RECORDS, .ctx = &r, .on_record = rd_record,
		                .on_bad = rd_bad, .on_leaf = rd_leaf, .skip = skip, .n_skip = n_skip };
		rc = pg_walk(&f, &d, 0, &w);
		/* leaves cut off by a damaged page may still be in the file */
		if (rc == H2EMV_OK && r.n_ranges && ksize) {
			frame(fd, FR_ORPHANS, NULL, 0, NULL, 0);
			w.on_record = rd_orphan;
			w.on_bad = NULL;
			rc = pg_scan_orphans(&f, ksize, r.ranges, r.n_ranges, &w);
		}
		if (rc)
			snprintf(e.message, sizeof e.message, "out of memory");
	}
	int32_t st = rc;
	frame(fd, FR_END, &st, 4, e.message, (uint32_t)strlen(e.message));
	_exit(0);
}

/* ------------------------------------------------------ the parent side -- */

typedef struct pend {
	eng_buf keys, vals;
	size_t *klen, *vlen;
	size_t n, cap;
} pend;

typedef struct sv {
	eng_env *dst;
	const char *src_path;
	eng_body_check_fn obs_check;
	h2emv_violation_fn fn;
	void *ctx;
	eng_salvage_result *res;
	int db;
	pend p;
	eng_buf scratch;
	uint8_t last_key[PG_MAX_KEY];
	size_t last_len;
	int have_last;
	int orphans;     /* the reader is looking for orphaned leaves */
} sv;

static void loss(sv *s, const char *rule, const char *db, uint64_t key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void loss(sv *s, const char *rule, const char *db, uint64_t key, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (s->fn) {
		h2emv_violation v = { .rule = rule, .db = db, .key = key, .message = msg };
		s->fn(s->ctx, &v);
	}
}

static size_t want_key(int db)
{
	switch (db) {
	case DB_OBS: case DB_SNAPSHOTS: return 8;
	case DB_NODES: return 12;
	case DB_DEAD: return 20;
	case DB_DICTS: return 4;
	default: return 0;
	}
}

/* Is this record fit to copy? Says why not in `e`. */
static int verify(sv *s, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn,
                  h2emv_error *e)
{
	size_t want = want_key(s->db);
	if ((want && kn != want) || kn == 0)
		return eng_fail(e, H2EMV_ECORRUPT, "a key of %zu bytes", kn);
	const uint8_t *body;
	size_t blen;
	int rc = rec_decode(&body, &blen, &s->scratch, eng_codec(s->dst), v, vn, e);
	if (rc)
		return rc;
	uint64_t f[2];
	switch (s->db) {
	case DB_NODES: {
		eng_node *n = NULL;
		rc = node_decode(&n, body, blen, e);
		if (rc == H2EMV_OK && (n->id != get_be64(k) || n->version != get_be32(k + 8)))
			rc = eng_fail(e, H2EMV_ECORRUPT, "the record is another node's");
		free(n);
		return rc;
	}
	case DB_SNAPSHOTS: {
		eng_snap sn;
		rc = snap_decode(&sn, body, blen, e);
		if (rc == H2EMV_OK && sn.seq != get_be64(k))
			rc = eng_fail(e, H2EMV_ECORRUPT, "the record is another snapshot's");
		return rc;
	}
	case DB_OBS:
		return s->obs_check ? s->obs_check(body, blen, e) : mp_prescan(body, blen, MP_MAX_DEPTH, e);
	case DB_PINS:
		if (kn > 200 || mp_decode_u64s(f, 2, body, blen))
			return eng_fail(e, H2EMV_ECORRUPT, "a malformed pin");
		return H2EMV_OK;
	case DB_DEAD:
		return mp_decode_u64s(f, 1, body, blen) ? eng_fail(e, H2EMV_ECORRUPT, "a malformed dead entry")
		                                        : H2EMV_OK;
	case DB_OBSIDS: /* an observation id -> [seq]; settling drops those of lost observations */
		if (kn > 128 || mp_decode_u64s(f, 1, body, blen) || f[0] == 0)
			return eng_fail(e, H2EMV_ECORRUPT, "a malformed id entry");
		return H2EMV_OK;
	case DB_DICTS:
		if (blen < 2 || body[0] < ENG_DICT_OBS || body[0] > ENG_DICT_NODES)
			return eng_fail(e, H2EMV_ECORRUPT, "a malformed dictionary");
		return rec_codec_add_dict(eng_codec(s->dst), get_be32(k), body + 1, blen - 1, e);
	case DB_META:
		return eng_meta_check(k, kn, body, blen, e);
	default:
		return mp_prescan(body, blen, MP_MAX_DEPTH, e);
	}
}

static int flush_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	sv *s = ctx;
	size_t ko = 0, vo = 0;
	for (size_t i = 0; i < s->p.n; i++) {
		MDB_val k = { s->p.klen[i], s->p.keys.data + ko }, v = { s->p.vlen[i], s->p.vals.data + vo };
		int rc = mdb_put(txn, env->dbi[s->db], &k, &v, 0);
		if (rc)
			return env_err(err, rc, "salvage: writing the new store");
		ko += s->p.klen[i];
		vo += s->p.vlen[i];
	}
	return H2EMV_OK;
}

static int flush(sv *s, h2emv_error *err)
{
	int rc = s->p.n ? env_write(s->dst, flush_fn, s, err) : H2EMV_OK;
	s->p.n = 0;
	s->p.keys.len = s->p.vals.len = 0;
	return rc;
}

static int take_record(sv *s, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn,
                       int orphan, h2emv_error *err)
{
	h2emv_salvage_db *d = &s->res->dbs[s->db];
	if (!orphan) {
		memcpy(s->last_key, k, kn < PG_MAX_KEY ? kn : PG_MAX_KEY);
		s->last_len = kn < PG_MAX_KEY ? kn : PG_MAX_KEY;
		s->have_last = 1;
	}
	h2emv_error e = { 0 };
	if (orphan) {
		/* a found page may belong to another database: take only what
		 * passes this one's checks, and say nothing of the rest. Keys
		 * name immutable records, so one found twice is put twice. */
		if (verify(s, k, kn, v, vn, &e) != H2EMV_OK)
			return H2EMV_OK;
		d->orphaned++;
	} else if (verify(s, k, kn, v, vn, &e) != H2EMV_OK) {
		d->bad_records++;
		loss(s, "record", eng_db_names[s->db], kn >= 8 ? get_be64(k) : 0,
		     "a record fails its checks and is not copied: %s", e.message);
		return H2EMV_OK;
	}
	if (s->p.n == s->p.cap) {
		size_t cap = s->p.cap ? s->p.cap * 2 : 64;
		size_t *a = realloc(s->p.klen, cap * sizeof *a), *b = a ? realloc(s->p.vlen, cap * sizeof *b) : NULL;
		if (a)
			s->p.klen = a;
		if (!a || !b)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		s->p.vlen = b;
		s->p.cap = cap;
	}
	if (eng_buf_append(&s->p.keys, k, kn) || eng_buf_append(&s->p.vals, v, vn))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	s->p.klen[s->p.n] = kn;
	s->p.vlen[s->p.n++] = vn;
	d->copied++;
	return s->p.n >= BATCH || s->p.vals.len > (8u << 20) ? flush(s, err) : H2EMV_OK;
}

static int read_full(int fd, void *p, size_t n)
{
	uint8_t *b = p;
	while (n) {
		ssize_t r = read(fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}


static void report_bad(sv *s, const char *why, size_t whyn, const uint8_t *b, size_t bn)
{
	char w[200], lo[64], hi[64];
	snprintf(w, sizeof w, "%.*s", (int)(whyn < 190 ? whyn : 190), why);
	uint64_t pgno = 0;
	uint32_t ln = UINT32_MAX, hn = UINT32_MAX;
	const uint8_t *lk = NULL, *hk = NULL;
	if (bn >= 12) {
		memcpy(&pgno, b, 8);
		memcpy(&ln, b + 8, 4);
		size_t o = 12;
		if (ln != UINT32_MAX && ln <= bn - o)
			lk = b + o, o += ln;
		if (o + 4 <= bn) {
			memcpy(&hn, b + o, 4);
			o += 4;
			if (hn != UINT32_MAX && hn <= bn - o)
				hk = b + o;
		}
	}
	pg_key_text(lo, sizeof lo, lk, ln, "the start");
	pg_key_text(hi, sizeof hi, hk, hn, "the end");
	s->res->dbs[s->db].bad_pages++;
	loss(s, "page", eng_db_names[s->db], pgno,
	     "page %llu is damaged (%s): the keys from %s up to %s were under it (those found "
	     "on cut-off leaves elsewhere in the file are saved)",
	     (unsigned long long)pgno, w, lo, hi);
}

/* One child's stream. Returns 1 when the child reported its end (rc in
 * *end_rc), 0 if the stream broke off, <0 on a parent-side error. */
static int drain(sv *s, int fd, uint64_t *leaf, int *end_rc, char *end_msg, size_t msgn,
                 h2emv_error *err)
{
	eng_buf a = { 0 }, b = { 0 };
	int out = 0;
	for (;;) {
		uint8_t h[9];
		uint32_t an, bn;
		if (read_full(fd, h, 9))
			break;
		memcpy(&an, h + 1, 4);
		memcpy(&bn, h + 5, 4);
		a.len = b.len = 0;
		if (eng_buf_reserve(&a, (size_t)an + 1) || eng_buf_reserve(&b, (size_t)bn + 1)) {
			out = eng_fail(err, H2EMV_ENOMEM, "out of memory");
			break;
		}
		if (read_full(fd, a.data, an) || read_full(fd, b.data, bn))
			break;
		if (h[0] == FR_LEAF && an == 8) {
			memcpy(leaf, a.data, 8);
		} else if (h[0] == FR_ORPHANS) {
			s->orphans = 1;
		} else if (h[0] == FR_REC || h[0] == FR_OREC) {
			int rc = take_record(s, a.data, an, b.data, bn, h[0] == FR_OREC, err);
			if (rc) {
				out = rc;
				break;
			}
		} else if (h[0] == FR_BAD) {
			report_bad(s, (const char *)a.data, an, b.data, bn);
		} else if (h[0] == FR_END && an == 4) {
			int32_t rc;
			memcpy(&rc, a.data, 4);
			*end_rc = rc;
			snprintf(end_msg, msgn, "%.*s", (int)(bn < 300 ? bn : 300), (const char *)b.data);
			out = 1;
			break;
		} else {
			break; /* a garbled stream: treat as a crash */
		}
	}
	eng_buf_free(&a);
	eng_buf_free(&b);
	return out;
}

/* Copy database `db` with as many readers as it takes. */
static int copy_db(sv *s, int db, h2emv_error *err)
{
	uint64_t skip[MAX_RETRIES];
	size_t n_skip = 0;
	s->db = db;
	s->have_last = 0;
	for (;;) {
		int fds[2];
		if (pipe(fds) != 0)
			return eng_fail(err, H2EMV_EIO, "salvage: pipe: %s", strerror(errno));
		uint8_t resume[PG_MAX_KEY];
		size_t resume_len = s->last_len;
		memcpy(resume, s->last_key, resume_len);
		int have = s->have_last;
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			close(fds[0]);
			close(fds[1]);
			return eng_fail(err, H2EMV_EIO, "salvage: fork: %s", strerror(errno));
		}
		if (pid == 0) {
			close(fds[0]);
			run_reader(fds[1], s->src_path, eng_db_names[db], want_key(db),
			           skip, n_skip, have ? resume : NULL, resume_len);
		}
		s->orphans = 0;
		close(fds[1]);
		uint64_t leaf = UINT64_MAX;
		int end_rc = 0;
		char msg[320] = "";
		int got = drain(s, fds[0], &leaf, &end_rc, msg, sizeof msg, err);
		close(fds[0]);
		if (got < 0)
			kill(pid, SIGKILL);
		int st = 0;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		int rc = got < 0 ? got : flush(s, err);
		if (rc)
			return rc;
		if (got == 1) {
			if (db == DB_OBSIDS && end_rc == H2EMV_ENOTFOUND) {
				/* a store from before observation ids has no index:
				 * nothing was lost (the copy starts an empty one) */
			} else if (end_rc == H2EMV_ENOTFOUND || end_rc == H2EMV_ECORRUPT) {
				s->res->dbs[db].unreadable = 1;
				loss(s, "database", eng_db_names[db], 0,
				     "database '%s' cannot be read at all: %s", eng_db_names[db], msg);
			} else if (end_rc) {
				return eng_fail(err, end_rc, "salvage: reading '%s': %s", eng_db_names[db], msg);
			}
			return H2EMV_OK;
		}
		/* the reader died: lose the leaf it was on, go on after it */
		s->res->reader_crashes++;
		char why[80];
		if (WIFSIGNALED(st))
			snprintf(why, sizeof why, "signal %d", WTERMSIG(st));
		else
			snprintf(why, sizeof why, "exit status %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		if (s->orphans) {
			loss(s, "reader-crash", eng_db_names[db], leaf,
			     "the reader died (%s) looking for leaves cut off by damage; that search "
			     "is given up",
			     why);
			return H2EMV_OK;
		}
		if (leaf == UINT64_MAX || n_skip == MAX_RETRIES) {
			s->res->dbs[db].unreadable = 1;
			loss(s, "database", eng_db_names[db], 0,
			     "the reader of '%s' died (%s) before reaching a record; the rest of it is lost",
			     eng_db_names[db], why);
			return H2EMV_OK;
		}
		for (size_t i = 0; i < n_skip; i++)
			if (skip[i] == leaf) {
				loss(s, "database", eng_db_names[db], leaf,
				     "the reader of '%s' died twice on page %llu (%s); the rest is lost",
				     eng_db_names[db], (unsigned long long)leaf, why);
				return H2EMV_OK;
			}
		skip[n_skip++] = leaf;
		loss(s, "reader-crash", eng_db_names[db], leaf,
		     "reading page %llu killed the reader (%s); skipping that page",
		     (unsigned long long)leaf, why);
	}
}

int eng_salvage(eng_salvage_result *out, const char *src, const char *dst,
                eng_body_check_fn obs_check, h2emv_violation_fn fn, void *ctx, h2emv_error *err)
{
	struct stat st;
	memset(out, 0, sizeof *out);
	if (stat(dst, &st) == 0)
		return eng_fail(err, H2EMV_EEXIST, "%s already exists: salvage writes a new memory", dst);
	char path[4200];
	gate_data_path(path, sizeof path, src);
	if (stat(path, &st) != 0)
		return eng_fail(err, H2EMV_ENOTFOUND, "no data file in %s", src);
	eng_env *env;
	eng_open_opts o = { .flags = H2EMV_OPEN_CREATE };
	int rc = eng_open(&env, dst, &o, err);
	if (rc)
		return rc;
	sv s = { .dst = env, .src_path = path, .obs_check = obs_check, .fn = fn, .ctx = ctx,
	         .res = out };
	/* dictionaries first: compressed observations need them to be verified */
	static const int order[] = { DB_DICTS, DB_META, DB_RULES, DB_PINS, DB_SNAPSHOTS,
	                             DB_OBS, DB_OBSIDS, DB_NODES, DB_DEAD, DB_RELCACHE };
	for (size_t i = 0; i < sizeof order / sizeof order[0] && rc == H2EMV_OK; i++) {
		out->dbs[order[i]].name = eng_db_names[order[i]];
		rc = copy_db(&s, order[i], err);
		if (rc == H2EMV_OK && order[i] == DB_DICTS)
			rc = env_load_dicts(env, err);
	}
	if (rc == H2EMV_OK)
		rc = salvage_settle(env, out, fn, ctx, err);
	eng_buf_free(&s.p.keys);
	eng_buf_free(&s.p.vals);
	free(s.p.klen);
	free(s.p.vlen);
	eng_buf_free(&s.scratch);
	eng_close(env);
	return rc;
}
