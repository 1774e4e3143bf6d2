/*
 * check.c — verify a memory: every record's checksum and structure in every
 * database, then the tree of every stored snapshot (references resolve,
 * children ordered in time and inside their parent, expiry never below a
 * child's, nothing visible that is listed dead, snapshot seqs and build
 * cursors monotonic), then the observation-id index (every entry names an
 * observation that exists, or one retention may have collected). Each
 * violation is reported with ids; the check goes on.
 *
 * Trees of consecutive snapshots share most nodes, so each node version is
 * verified once and remembers, for its whole subtree, the earliest death and
 * the latest birth: a later snapshot reaching it again only descends when
 * that summary says something below is invisible to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/env.h"
#include "engine/hashtab.h"

/* ------------------------------------------------- a small ref -> info map -- */

typedef struct memo {
	uint64_t id;
	uint32_t version;
	uint8_t used, state;  /* state: 1 walking, 2 done */
	uint64_t died;        /* this version's death seq (UINT64_MAX: alive) */
	uint64_t min_died;    /* over the subtree */
	uint64_t max_born;    /* over the subtree */
} memo;

/* The memo of every version met, keyed by (id, version): entries in an
 * array, found through the one hash table (engine/hashtab.h). A pointer
 * from memo_get is stale after a later memo_get that adds. */
typedef struct memo_map {
	memo *v;
	size_t n, cap;
	hashtab ix;
} memo_map;

static uint32_t hash_ref(uint64_t id, uint32_t v)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ull ^ ((uint64_t)v * 0xC2B2AE3D27D4EB4Full);
	return (uint32_t)(h ^ (h >> 29));
}

static int memo_eq(const void *ctx, uintptr_t val, const void *key)
{
	const memo *e = (const memo *)ctx + val, *k = key;
	return e->id == k->id && e->version == k->version;
}

static memo *memo_get(memo_map *m, uint64_t id, uint32_t v, int add)
{
	memo key = { .id = id, .version = v };
	uint32_t h = hash_ref(id, v);
	ht_slot *s = ht_find(&m->ix, h, memo_eq, m->v, &key);
	if (s && ht_used(&m->ix, s))
		return &m->v[s->val];
	if (!add)
		return NULL;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1024;
		memo *nv = realloc(m->v, cap * sizeof *nv);
		if (!nv)
			return NULL;
		m->v = nv;
		m->cap = cap;
	}
	if (ht_reserve(&m->ix, 1))
		return NULL;
	ht_put(&m->ix, ht_vacant(&m->ix, h), h, m->n);
	memo *e = &m->v[m->n++];
	memset(e, 0, sizeof *e);
	e->used = 1;
	e->id = id;
	e->version = v;
	e->died = e->min_died = UINT64_MAX;
	return e;
}

static void memo_free(memo_map *m)
{
	free(m->v);
	ht_free(&m->ix);
}

/* ------------------------------------------------------------ reporting -- */

typedef struct checker {
	eng_env *env;
	MDB_txn *txn;
	h2emv_violation_fn fn;
	void *ctx;
	uint64_t count;
	memo_map memo;
	eng_buf scratch;
	eng_body_check_fn obs_check;
	eng_obs_id_fn obs_id;
	uint64_t built; /* the newest snapshot's build cursor */
} checker;

static void report(checker *c, const char *rule, const char *db, uint64_t snap, eng_ref node,
                   eng_ref other, uint64_t key, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static void report(checker *c, const char *rule, const char *db, uint64_t snap, eng_ref node,
                   eng_ref other, uint64_t key, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	c->count++;
	if (!c->fn)
		return;
	h2emv_violation v = {
		.rule = rule, .db = db, .snapshot = snap, .node = { node.id, node.version },
		.other = { other.id, other.version }, .key = key, .message = msg,
	};
	c->fn(c->ctx, &v);
}

static const eng_ref NOREF = { 0, 0 };

/* -------------------------------------------------------- record pass -- */

static uint64_t key_u64(const MDB_val *k)
{
	return k->mv_size >= 8 ? get_be64(k->mv_data) : 0;
}

static void check_body(checker *c, int db, const MDB_val *k, const uint8_t *body, size_t blen)
{
	h2emv_error e = { 0 };
	int rc = H2EMV_OK;
	eng_ref ref = NOREF;
	if (db == DB_NODES) {
		eng_node *n = NULL;
		rc = node_decode(&n, body, blen, &e);
		ref.id = get_be64(k->mv_data);
		ref.version = get_be32((uint8_t *)k->mv_data + 8);
		if (rc == H2EMV_OK && (n->id != ref.id || n->version != ref.version))
			report(c, "key-mismatch", "nodes", 0, ref, NOREF, 0,
			       "the record under node %llu v%u is node %llu v%u",
			       (unsigned long long)ref.id, ref.version, (unsigned long long)n->id,
			       n->version);
		free(n);
	} else if (db == DB_SNAPSHOTS) {
		eng_snap s;
		rc = snap_decode(&s, body, blen, &e);
		if (rc == H2EMV_OK && s.seq != key_u64(k))
			report(c, "key-mismatch", "snapshots", key_u64(k), NOREF, NOREF, key_u64(k),
			       "snapshot %llu holds the record of snapshot %llu",
			       (unsigned long long)key_u64(k), (unsigned long long)s.seq);
	} else if (db == DB_OBS && c->obs_check) {
		rc = c->obs_check(body, blen, &e);
	} else if (db == DB_META) {
		rc = eng_meta_check(k->mv_data, k->mv_size, body, blen, &e);
	} else if (db != DB_DICTS) {
		rc = mp_prescan(body, blen, MP_MAX_DEPTH, &e);
	}
	if (rc)
		report(c, "structure", eng_db_names[db], 0, ref, NOREF, key_u64(k), "%s", e.message);
}

static size_t key_size(int db)
{
	switch (db) {
	case DB_OBS: case DB_SNAPSHOTS: return 8;
	case DB_NODES: return 12;
	case DB_DEAD: return 20;
	case DB_DICTS: return 4;
	default: return 0; /* any */
	}
}

static int check_records(checker *c, int db, h2emv_progress_fn progress, void *pctx)
{
	MDB_cursor *cur;
	MDB_val k, v;
	MDB_stat st;
	if (db == DB_OBSIDS && c->env->no_obsids) /* an older store, read-only */
		return H2EMV_OK;
	int rc = mdb_stat(c->txn, c->env->dbi[db], &st);
	if (rc == 0)
		rc = mdb_cursor_open(c->txn, c->env->dbi[db], &cur);
	if (rc)
		return env_err(NULL, rc, "check");
	uint64_t done = 0;
	for (int op = MDB_FIRST; (rc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		h2emv_error e = { 0 };
		size_t ks = key_size(db);
		eng_ref ref = NOREF;
		if (db == DB_NODES && k.mv_size == 12) {
			ref.id = get_be64(k.mv_data);
			ref.version = get_be32((uint8_t *)k.mv_data + 8);
		}
		const uint8_t *body;
		size_t blen;
		if (ks && k.mv_size != ks)
			report(c, "key-size", eng_db_names[db], 0, NOREF, NOREF, 0,
			       "a key of %zu bytes (expected %zu)", k.mv_size, ks);
		else if (env_decode(&body, &blen, c->env, &v, &c->scratch, &e) != H2EMV_OK)
			report(c, "checksum", eng_db_names[db], 0, ref, NOREF, key_u64(&k), "%s",
			       e.message);
		else
			check_body(c, db, &k, body, blen);
		if (progress && (++done % 4096 == 0))
			progress(pctx, eng_db_names[db], done, st.ms_entries);
	}
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? H2EMV_OK : env_err(NULL, rc, "check");
}

/* ------------------------------------------------------ the dead list -- */

static int load_dead(checker *c)
{
	MDB_cursor *cur;
	MDB_val k, v;
	int mrc = mdb_cursor_open(c->txn, c->env->dbi[DB_DEAD], &cur);
	if (mrc)
		return env_err(NULL, mrc, "check");
	int rc = H2EMV_OK;
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		if (k.mv_size != 20)
			continue; /* reported by the record pass */
		const uint8_t *p = k.mv_data;
		memo *m = memo_get(&c->memo, get_be64(p + 8), get_be32(p + 16), 1);
		if (!m) {
			rc = H2EMV_ENOMEM;
			break;
		}
		uint64_t died = get_be64(p);
		if (died < m->died)
			m->died = died;
	}
	mdb_cursor_close(cur);
	if (rc == H2EMV_OK && mrc != MDB_NOTFOUND)
		rc = env_err(NULL, mrc, "check");
	return rc;
}

/* ------------------------------------------------------ the tree pass -- */

/* Read and decode node version `ref` (malloc'd), or fail quietly: damaged
 * records are reported by the record pass. */
static int read_node(eng_node **out, checker *c, eng_ref ref)
{
	eng_buf scratch = { 0 };
	uint8_t key[12];
	be64(key, ref.id);
	be32(key + 8, ref.version);
	const uint8_t *body;
	size_t blen;
	*out = NULL;
	int rc = env_get_record(&body, &blen, c->txn, c->env, DB_NODES, key, 12, &scratch, NULL);
	if (rc == H2EMV_OK)
		rc = node_decode(out, body, blen, NULL);
	eng_buf_free(&scratch);
	return rc;
}

#define MAX_DEPTH 64

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void check_children(checker *c, uint64_t snap, const eng_node *p, eng_node **kids)
{
	eng_ref pr = { p->id, p->version };
	for (uint32_t i = 0; i < p->n_children; i++) {
		const eng_node *k = kids[i];
		if (!k)
			continue;
		eng_ref kr = { k->id, k->version };
		if (k->t_start < p->t_start || k->t_end > p->t_end)
			report(c, "child-outside-parent", "nodes", snap, pr, kr, 0,
			       "child %llu v%u spans outside its parent's time range",
			       (unsigned long long)k->id, k->version);
		if (k->expiry > p->expiry)
			report(c, "expiry-below-child", "nodes", snap, pr, kr, 0,
			       "parent %llu v%u expires before its child %llu v%u",
			       (unsigned long long)p->id, p->version, (unsigned long long)k->id,
			       k->version);
		/* goals may nest in goals (a skill stack); otherwise a child is below */
		int nested = p->kind == H2EMV_KIND_GOAL && k->level == p->level &&
		             (k->kind == H2EMV_KIND_GOAL || k->kind == H2EMV_KIND_FORGOTTEN);
		if (k->level > p->level || (k->level == p->level && !nested))
			report(c, "child-level", "nodes", snap, pr, kr, 0,
			       "child %llu v%u is at level %u, not below its parent's %u",
			       (unsigned long long)k->id, k->version, k->level, p->level);
		const eng_node *prev = i ? kids[i - 1] : NULL;
		if (prev && (k->t_start < prev->t_start || k->t_start < prev->t_end))
			report(c, "child-order", "nodes", snap, pr, kr, 0,
			       "child %llu v%u starts before its previous sibling ends",
			       (unsigned long long)k->id, k->version);
	}
}

static void check_node_alone(checker *c, uint64_t snap, const eng_node *n)
{
	eng_ref r = { n->id, n->version };
	if (n->t_start > n->t_end)
		report(c, "time-range", "nodes", snap, r, NOREF, 0, "node %llu v%u ends before it starts",
		       (unsigned long long)n->id, n->version);
	if (n->kind == H2EMV_KIND_FORGOTTEN && n->n_children)
		report(c, "placeholder-children", "nodes", snap, r, NOREF, 0,
		       "placeholder %llu v%u has children", (unsigned long long)n->id, n->version);
}

/* Verify the subtree under `ref` once; fill its memo summary. */
static memo *walk(checker *c, uint64_t snap, eng_ref ref, eng_ref parent, int depth)
{
	memo *m = memo_get(&c->memo, ref.id, ref.version, 1);
	if (!m)
		return NULL;
	if (m->state == 2)
		return m;
	if (m->state == 1 || depth > MAX_DEPTH) {
		report(c, "cycle", "nodes", snap, ref, parent, 0,
		       "node %llu v%u is its own ancestor or the tree is deeper than %d",
		       (unsigned long long)ref.id, ref.version, MAX_DEPTH);
		return NULL;
	}
	m->state = 1;
	uint64_t died = m->died;
	eng_node *n = NULL;
	int rc = read_node(&n, c, ref);
	m = memo_get(&c->memo, ref.id, ref.version, 0); /* walk() below may rehash */
	if (rc == H2EMV_ENOTFOUND && !parent.id) {
		report(c, "dangling-root", "snapshots", snap, ref, NOREF, snap,
		       "snapshot %llu's root, node %llu v%u, is missing", (unsigned long long)snap,
		       (unsigned long long)ref.id, ref.version);
	} else if (rc == H2EMV_ENOTFOUND) {
		report(c, "dangling-child", "nodes", snap, parent, ref, 0,
		       "node %llu v%u refers to missing node %llu v%u",
		       (unsigned long long)parent.id, parent.version, (unsigned long long)ref.id,
		       ref.version);
	}
	if (rc) { /* damaged records were reported by the record pass */
		m->state = 2;
		return m;
	}
	check_node_alone(c, snap, n);
	uint64_t min_died = died, max_born = n->born;
	eng_node **kids = calloc(n->n_children ? n->n_children : 1, sizeof *kids);
	for (uint32_t i = 0; kids && i < n->n_children; i++) {
		memo *cm = walk(c, snap, n->children[i], ref, depth + 1);
		if (cm) {
			min_died = min_u64(min_died, cm->min_died);
			max_born = max_u64(max_born, cm->max_born);
		}
		read_node(&kids[i], c, n->children[i]);
	}
	if (kids) {
		check_children(c, snap, n, kids);
		for (uint32_t i = 0; i < n->n_children; i++)
			free(kids[i]);
		free(kids);
	}
	free(n);
	m = memo_get(&c->memo, ref.id, ref.version, 0);
	m->min_died = min_died;
	m->max_born = max_born;
	m->state = 2;
	return m;
}

/* Report which versions under `ref` snapshot `snap` should not see. */
static void report_invisible(checker *c, uint64_t snap, eng_ref ref, int depth)
{
	memo *m = memo_get(&c->memo, ref.id, ref.version, 0);
	if (!m || depth > MAX_DEPTH || (m->min_died > snap && m->max_born <= snap))
		return;
	if (m->died <= snap)
		report(c, "live-listed-dead", "nodes", snap, ref, NOREF, 0,
		       "node %llu v%u is in snapshot %llu's tree but died at snapshot %llu",
		       (unsigned long long)ref.id, ref.version, (unsigned long long)snap,
		       (unsigned long long)m->died);
	eng_node *n = NULL;
	if (read_node(&n, c, ref) == H2EMV_OK) {
		if (n->born > snap)
			report(c, "born-after-snapshot", "nodes", snap, ref, NOREF, 0,
			       "node %llu v%u is in snapshot %llu's tree but was born in %llu",
			       (unsigned long long)ref.id, ref.version, (unsigned long long)snap,
			       (unsigned long long)n->born);
		for (uint32_t i = 0; i < n->n_children; i++)
			report_invisible(c, snap, n->children[i], depth + 1);
	}
	free(n);
}

static int check_trees(checker *c, h2emv_progress_fn progress, void *pctx)
{
	MDB_cursor *cur;
	MDB_val k, v;
	MDB_stat st;
	uint64_t obs_last = 0, prev_seq = 0, prev_cursor = 0, done = 0;
	int rc = mdb_stat(c->txn, c->env->dbi[DB_SNAPSHOTS], &st);
	if (rc)
		return env_err(NULL, rc, "check");
	if ((rc = eng_last_key(&obs_last, c->txn, c->env->dbi[DB_OBS], NULL)))
		return rc;
	if ((rc = mdb_cursor_open(c->txn, c->env->dbi[DB_SNAPSHOTS], &cur)))
		return env_err(NULL, rc, "check");
	for (int op = MDB_FIRST; (rc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		eng_snap s;
		if (env_decode(&body, &blen, c->env, &v, &c->scratch, NULL) ||
		    snap_decode(&s, body, blen, NULL))
			continue; /* reported by the record pass */
		if (s.seq <= prev_seq)
			report(c, "snapshot-order", "snapshots", s.seq, NOREF, NOREF, s.seq,
			       "snapshot %llu follows snapshot %llu", (unsigned long long)s.seq,
			       (unsigned long long)prev_seq);
		if (s.build_cursor < prev_cursor)
			report(c, "cursor-order", "snapshots", s.seq, NOREF, NOREF, s.seq,
			       "snapshot %llu's build cursor %llu is below the previous %llu",
			       (unsigned long long)s.seq, (unsigned long long)s.build_cursor,
			       (unsigned long long)prev_cursor);
		if (s.build_cursor > obs_last)
			report(c, "cursor-beyond-log", "snapshots", s.seq, NOREF, NOREF, s.seq,
			       "snapshot %llu's build cursor %llu is past the last observation %llu",
			       (unsigned long long)s.seq, (unsigned long long)s.build_cursor,
			       (unsigned long long)obs_last);
		prev_seq = s.seq;
		prev_cursor = s.build_cursor;
		c->built = s.build_cursor > c->built ? s.build_cursor : c->built;
		if (s.root.id && walk(c, s.seq, s.root, NOREF, 0))
			report_invisible(c, s.seq, s.root, 0);
		if (progress && (++done % 64 == 0))
			progress(pctx, "snapshots", done, st.ms_entries);
	}
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? H2EMV_OK : env_err(NULL, rc, "check");
}

/* ------------------------------------------------ the observation ids -- */

/* Each id entry must name an observation of the log. One that is gone is
 * explained only by retention, which collects folded observations (at or
 * below the newest snapshot's build cursor) before it prunes their ids in
 * a later transaction; the newest observation and the unbuilt tail are
 * never collected. */
static int check_obsids(checker *c)
{
	MDB_cursor *cur;
	MDB_val k, v;
	if (c->env->no_obsids) /* an older store, read-only */
		return H2EMV_OK;
	uint64_t obs_last = 0;
	int rc = eng_last_key(&obs_last, c->txn, c->env->dbi[DB_OBS], NULL);
	if (rc)
		return rc;
	int mrc = mdb_cursor_open(c->txn, c->env->dbi[DB_OBSIDS], &cur);
	if (mrc)
		return env_err(NULL, mrc, "check");
	for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		uint64_t seq;
		int klen = k.mv_size > 64 ? 64 : (int)k.mv_size;
		if (env_decode(&body, &blen, c->env, &v, &c->scratch, NULL) != H2EMV_OK)
			continue; /* reported by the record pass */
		if (mp_decode_u64s(&seq, 1, body, blen) != H2EMV_OK) {
			report(c, "obsid-malformed", "obsids", 0, NOREF, NOREF, 0,
			       "the entry of id '%.*s' is not one sequence number", klen,
			       (const char *)k.mv_data);
			continue;
		}
		if (seq == 0 || seq > obs_last) {
			report(c, "obsid-beyond-log", "obsids", 0, NOREF, NOREF, seq,
			       "id '%.*s' names observation %llu, past the last one (%llu)", klen,
			       (const char *)k.mv_data, (unsigned long long)seq,
			       (unsigned long long)obs_last);
			continue;
		}
		uint8_t key[8];
		be64(key, seq);
		MDB_val ok = { 8, key }, ov;
		int grc = mdb_get(c->txn, c->env->dbi[DB_OBS], &ok, &ov);
		if (grc == MDB_NOTFOUND && seq > c->built)
			report(c, "obsid-dangling", "obsids", 0, NOREF, NOREF, seq,
			       "id '%.*s' names observation %llu, which is missing and was never "
			       "built into a snapshot (retention cannot have collected it)",
			       klen, (const char *)k.mv_data, (unsigned long long)seq);
		else if (grc && grc != MDB_NOTFOUND) {
			mrc = grc;
			break;
		} else if (grc == 0 && c->obs_id) {
			/* seqs are never reused (the newest observation is always
			 * kept), so the observation must carry this very id */
			const void *id;
			size_t idlen;
			int has;
			if (env_decode(&body, &blen, c->env, &ov, &c->scratch, NULL) != H2EMV_OK ||
			    (has = c->obs_id(&id, &idlen, body, blen)) < 0)
				continue; /* reported by the record pass */
			if (!has || idlen != k.mv_size || memcmp(id, k.mv_data, idlen) != 0)
				report(c, "obsid-mismatch", "obsids", 0, NOREF, NOREF, seq,
				       "id '%.*s' names observation %llu, which carries %s%.*s%s", klen,
				       (const char *)k.mv_data, (unsigned long long)seq,
				       has ? "id '" : "no id", has ? (int)(idlen > 64 ? 64 : idlen) : 0,
				       has ? (const char *)id : "", has ? "'" : "");
		}
	}
	mdb_cursor_close(cur);
	return mrc == MDB_NOTFOUND ? H2EMV_OK : env_err(NULL, mrc, "check");
}

static void index_bad(void *ctx, const char *rule, eng_ref ref, const char *msg)
{
	report(ctx, rule, "ixnode", 0, ref, NOREF, 0, "%s", msg);
}

int eng_check(uint64_t *n_violations, eng_env *env, eng_body_check_fn obs_check,
              eng_obs_id_fn obs_id, h2emv_violation_fn fn, void *ctx,
              h2emv_progress_fn progress, void *progress_ctx, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	checker c = { .env = env, .txn = r->txn, .fn = fn, .ctx = ctx, .obs_check = obs_check,
		      .obs_id = obs_id };
	/* check reports what it finds; the verdict (the DAMAGED mark) is
	 * h2emv_check_store's to keep, not each damaged record's (damage.c) */
	env_damage_quiet++;
	int db = 0;
	for (; db < DB_COUNT && rc == H2EMV_OK; db++)
		rc = check_records(&c, db, progress, progress_ctx);
	if (rc == H2EMV_OK)
		rc = load_dead(&c);
	if (rc == H2EMV_OK)
		rc = check_trees(&c, progress, progress_ctx);
	if (rc == H2EMV_OK)
		rc = check_obsids(&c);
	if (rc == H2EMV_OK)
		rc = ix_check_txn(r->txn, env, index_bad, &c);
	eng_read_end(r);
	env_damage_quiet--;
	memo_free(&c.memo);
	eng_buf_free(&c.scratch);
	if (rc)
		return eng_fail(err, rc, "check could not finish%s%s: %s",
		                db <= DB_COUNT && db > 0 ? " in database " : "",
		                db <= DB_COUNT && db > 0 ? eng_db_names[db - 1] : "", h2emv_strerror(rc));
	*n_violations = c.count;
	return H2EMV_OK;
}
