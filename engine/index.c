/*
 * index.c — the term index beside the node records (docs/index.md).
 *
 * Two databases, opened by name on first use (they are derived data: the
 * record loops of check, compaction and salvage leave them alone, and a
 * salvaged store simply has none until it is rebuilt):
 *   ixpost  term(8) | t_first(8) | id(8) | version(4)  ->  t_last(8) types(1) tf(1) roles(2)
 *   ixnode  id(8) | version(4)  ->  born(8) died(8) n(4) base(8) then n x (term(8)
 *           varint(zigzag(t_first - base))), base the first term's t_first
 * One posting per term and node version; a range scan over one term gives
 * the postings in time order. A posting is visible to snapshot s exactly
 * when its node version is: born <= s < died (died = UINT64_MAX while the
 * version lives), kept in ixnode and written in the commit that writes or
 * supersedes the version. GC deletes a version's postings with the version.
 * The key of twelve zero bytes in ixnode (no node has id 0) marks the index
 * complete: written when the first commit finds no node yet, or by a
 * rebuild; a commit made without an extractor removes it. Its value's last
 * byte is the layout of the ixnode entries (IX_FORMAT): an index of another
 * layout (format 1 gave each term's t_first in 8 bytes) is not read, and
 * the first commit or gc that meets it empties it; the rebuild that
 * opening a memory for writing runs makes it again. On a full disk
 * gc and compaction may empty the index (ix_clear_txn) rather than copy
 * its pages; the next rebuild with room makes it again.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/env.h"
#include "engine/gate.h"

#define IX_VAL 12
#define IX_NODE_HEAD 20
#define IX_BATCH 1024
#define IX_FORMAT 2

static pthread_mutex_t ix_open_lock = PTHREAD_MUTEX_INITIALIZER;

/* By name, for the gate and check's page pass, which read them by hand. */
const char *const eng_ix_names[ENG_IX_DBS] = { "ixpost", "ixnode" };
static const uint8_t ix_marker[12];

void eng_index_set_fn(eng_env *env, eng_index_fn fn, void *ctx)
{
	env->ix_fn = fn;
	env->ix_ctx = ctx;
}

/* The two databases in txn's environment; ENOTFOUND when they do not
 * exist and `create` is 0. */
int ix_dbis(MDB_dbi *post, MDB_dbi *node, MDB_txn *txn, int create, h2emv_error *err)
{
	unsigned fl = create ? MDB_CREATE : 0;
	pthread_mutex_lock(&ix_open_lock);
	int rc = mdb_dbi_open(txn, eng_ix_names[0], fl, post);
	if (rc == 0)
		rc = mdb_dbi_open(txn, eng_ix_names[1], fl, node);
	pthread_mutex_unlock(&ix_open_lock);
	if (rc == MDB_NOTFOUND)
		return H2EMV_ENOTFOUND;
	return rc ? env_err(err, rc, "index") : H2EMV_OK;
}

static void post_key(uint8_t k[28], uint64_t term, int64_t t, uint64_t id, uint32_t ver)
{
	be64(k, term);
	be64(k + 8, (uint64_t)t ^ (1ull << 63)); /* signed times sort as unsigned */
	be64(k + 16, id);
	be32(k + 24, ver);
}

static void post_val(uint8_t v[IX_VAL], const eng_posting *p)
{
	be64(v, (uint64_t)p->t_last);
	v[8] = p->types;
	v[9] = p->tf;
	v[10] = (uint8_t)(p->roles >> 8);
	v[11] = (uint8_t)p->roles;
}

/* ---------------------------------------------- an ixnode entry's terms -- */

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	for (; v >= 0x80; v >>= 7)
		p[n++] = (uint8_t)(v | 0x80);
	p[n++] = (uint8_t)v;
	return n;
}

/* The entry's terms after its head: base, then each term with its
 * t_first's distance from the base (as two's complement, zigzagged: the
 * times of a goal's words lie close together). */
static size_t put_terms(uint8_t *out, const eng_posting *p, size_t np)
{
	uint64_t base = (uint64_t)p[0].t_first;
	be64(out, base);
	size_t o = 8;
	for (size_t i = 0; i < np; i++) {
		uint64_t d = (uint64_t)p[i].t_first - base;
		be64(out + o, p[i].term);
		o += 8;
		o += put_varint(out + o, (d << 1) ^ (uint64_t)((int64_t)d >> 63));
	}
	return o;
}

int ix_entry_keys(uint8_t **keys, uint32_t *np, const void *entry, size_t len)
{
	const uint8_t *e = entry;
	*keys = NULL;
	*np = 0;
	if (len < IX_NODE_HEAD)
		return H2EMV_ECORRUPT;
	uint32_t n = get_be32(e + 16);
	if (n == 0)
		return len == IX_NODE_HEAD ? H2EMV_OK : H2EMV_ECORRUPT;
	if (len < IX_NODE_HEAD + 8 || (len - IX_NODE_HEAD - 8) / 9 < n)
		return H2EMV_ECORRUPT;
	uint8_t *k = malloc((size_t)n * 16);
	if (!k)
		return H2EMV_ENOMEM;
	uint64_t base = get_be64(e + IX_NODE_HEAD);
	size_t o = IX_NODE_HEAD + 8;
	for (uint32_t i = 0; i < n; i++) {
		if (len - o < 9)
			goto bad;
		memcpy(k + (size_t)i * 16, e + o, 8);
		o += 8;
		uint64_t z = 0;
		for (unsigned sh = 0;; sh += 7) {
			if (o >= len || sh > 63)
				goto bad;
			uint8_t c = e[o++];
			z |= (uint64_t)(c & 0x7f) << sh;
			if (!(c & 0x80))
				break;
		}
		uint64_t d = (z >> 1) ^ (0 - (z & 1));
		be64(k + (size_t)i * 16 + 8, (base + d) ^ (1ull << 63));
	}
	if (o != len)
		goto bad;
	*keys = k;
	*np = n;
	return H2EMV_OK;
bad:
	free(k);
	return H2EMV_ECORRUPT;
}

int ix_put_node(MDB_txn *txn, MDB_dbi post, MDB_dbi node, eng_env *env,
                             const eng_node *n, uint64_t died, eng_buf *b, h2emv_error *err)
{
	eng_posting *p = NULL;
	size_t np = 0;
	int rc = env->ix_fn(&p, &np, n, env->ix_ctx);
	if (rc)
		return eng_fail(err, rc, "index: the terms of node %llu", (unsigned long long)n->id);
	b->len = 0;
	if (np && eng_buf_reserve(b, IX_NODE_HEAD + 8 + np * 18)) {
		free(p);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < np && rc == H2EMV_OK; i++) {
		uint8_t k[28], v[IX_VAL];
		post_key(k, p[i].term, p[i].t_first, n->id, n->version);
		post_val(v, &p[i]);
		MDB_val kv = { 28, k }, vv = { IX_VAL, v };
		int mrc = mdb_put(txn, post, &kv, &vv, 0);
		if (mrc)
			rc = env_err(err, mrc, "index: a posting");
	}
	if (rc || !np) {
		free(p);
		return rc;
	}
	be64(b->data, n->born);
	be64(b->data + 8, died);
	be32(b->data + 16, (uint32_t)np);
	b->len = IX_NODE_HEAD + put_terms(b->data + IX_NODE_HEAD, p, np);
	free(p);
	uint8_t nk[12];
	be64(nk, n->id);
	be32(nk + 8, n->version);
	MDB_val kv = { 12, nk }, vv = { b->len, b->data };
	int mrc = mdb_put(txn, node, &kv, &vv, 0);
	return mrc ? env_err(err, mrc, "index: a node's terms") : H2EMV_OK;
}

/* The version `nk` stopped being part of new snapshots at `seq`. */
static int mark_died(MDB_txn *txn, MDB_dbi node, const uint8_t nk[12], uint64_t seq,
                     eng_buf *b, h2emv_error *err)
{
	MDB_val kv = { 12, (void *)nk }, vv;
	int mrc = mdb_get(txn, node, &kv, &vv);
	if (mrc == MDB_NOTFOUND)
		return H2EMV_OK; /* a version without terms */
	if (mrc)
		return env_err(err, mrc, "index");
	if (vv.mv_size < IX_NODE_HEAD)
		return eng_fail(err, H2EMV_ECORRUPT, "index: a malformed node entry");
	b->len = 0;
	if (eng_buf_append(b, vv.mv_data, vv.mv_size))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	be64(b->data + 8, seq);
	vv = (MDB_val){ b->len, b->data };
	mrc = mdb_put(txn, node, &kv, &vv, 0);
	return mrc ? env_err(err, mrc, "index") : H2EMV_OK;
}

/* 1: complete, in this layout; 0: no marker; -1: a marker of another
 * layout (an index this code does not read). */
int ix_marker_state(MDB_txn *txn, MDB_dbi node)
{
	MDB_val k = { 12, (void *)ix_marker }, v;
	if (mdb_get(txn, node, &k, &v))
		return 0;
	const uint8_t *p = v.mv_data;
	return v.mv_size == IX_NODE_HEAD && p[IX_NODE_HEAD - 1] == IX_FORMAT ? 1 : -1;
}

static int has_marker(MDB_txn *txn, MDB_dbi node)
{
	return ix_marker_state(txn, node) == 1;
}

int ix_put_marker(MDB_txn *txn, MDB_dbi node, h2emv_error *err)
{
	uint8_t v[IX_NODE_HEAD] = { 0 };
	v[IX_NODE_HEAD - 1] = IX_FORMAT;
	MDB_val k = { 12, (void *)ix_marker }, vv = { sizeof v, v };
	int mrc = mdb_put(txn, node, &k, &vv, 0);
	return mrc ? env_err(err, mrc, "index") : H2EMV_OK;
}

/* An index of another layout: emptied (a rebuild makes it again). */
static int clear_stale(MDB_txn *txn, MDB_dbi post, MDB_dbi node, h2emv_error *err)
{
	if (ix_marker_state(txn, node) != -1)
		return H2EMV_OK;
	int mrc = mdb_drop(txn, post, 0);
	if (!mrc)
		mrc = mdb_drop(txn, node, 0);
	return mrc ? env_err(err, mrc, "index: clearing an older layout") : H2EMV_OK;
}

int ix_commit_txn(MDB_txn *txn, eng_env *env, eng_node *const *nodes, size_t n,
                  const eng_ref *dead, size_t n_dead, uint64_t seq, h2emv_error *err)
{
	MDB_dbi post, node;
	if (!env->ix_fn) {
		/* a writer that cannot index: the index is no longer complete */
		int rc = ix_dbis(&post, &node, txn, 0, err);
		if (rc == H2EMV_ENOTFOUND)
			return H2EMV_OK;
		MDB_val k = { 12, (void *)ix_marker };
		int mrc = rc ? 0 : mdb_del(txn, node, &k, NULL);
		return rc ? rc : mrc && mrc != MDB_NOTFOUND ? env_err(err, mrc, "index") : H2EMV_OK;
	}
	int rc = ix_dbis(&post, &node, txn, 1, err);
	if (rc == H2EMV_OK)
		rc = clear_stale(txn, post, node, err);
	if (rc)
		return rc;
	if (!has_marker(txn, node)) {
		/* complete from the start when these are the first nodes */
		MDB_stat st;
		int mrc = mdb_stat(txn, env->dbi[DB_NODES], &st);
		if (mrc)
			return env_err(err, mrc, "index");
		if (st.ms_entries == n && (rc = ix_put_marker(txn, node, err)))
			return rc;
	}
	eng_buf b = { 0 };
	for (size_t i = 0; i < n && rc == H2EMV_OK; i++)
		rc = ix_put_node(txn, post, node, env, nodes[i], UINT64_MAX, &b, err);
	for (size_t i = 0; i < n_dead && rc == H2EMV_OK; i++) {
		uint8_t nk[12];
		be64(nk, dead[i].id);
		be32(nk + 8, dead[i].version);
		rc = mark_died(txn, node, nk, seq, &b, err);
	}
	eng_buf_free(&b);
	return rc;
}

int ix_clear_txn(MDB_txn *txn, h2emv_error *err)
{
	MDB_dbi post, node;
	int rc = ix_dbis(&post, &node, txn, 0, err);
	if (rc == H2EMV_ENOTFOUND)
		return H2EMV_OK; /* none to clear */
	if (rc)
		return rc;
	int mrc = mdb_drop(txn, post, 0);
	if (!mrc)
		mrc = mdb_drop(txn, node, 0);
	return mrc ? env_err(err, mrc, "index: clearing") : H2EMV_OK;
}

int ix_drop_txn(MDB_txn *txn, eng_env *env, const uint8_t nk[12], h2emv_error *err)
{
	(void)env;
	MDB_dbi post, node;
	int rc = ix_dbis(&post, &node, txn, 0, err);
	if (rc == H2EMV_ENOTFOUND)
		return H2EMV_OK;
	if (rc || (rc = clear_stale(txn, post, node, err)))
		return rc;
	MDB_val kv = { 12, (void *)nk }, vv;
	int mrc = mdb_get(txn, node, &kv, &vv);
	if (mrc == MDB_NOTFOUND)
		return H2EMV_OK;
	if (mrc)
		return env_err(err, mrc, "gc: index");
	/* (the entry's bytes live in the map: copied before deleting keys) */
	uint8_t *terms;
	uint32_t np;
	rc = ix_entry_keys(&terms, &np, vv.mv_data, vv.mv_size);
	if (rc == H2EMV_ECORRUPT && !ix_marker_state(txn, node))
		rc = H2EMV_OK; /* (an incomplete index, never read: its rebuild empties it) */
	else if (rc)
		return eng_fail(err, rc, rc == H2EMV_ENOMEM ? "out of memory"
		                                            : "index: a malformed node entry");
	for (uint32_t i = 0; i < np && rc == H2EMV_OK; i++) {
		uint8_t k[28];
		memcpy(k, terms + (size_t)i * 16, 16);
		memcpy(k + 16, nk, 12);
		MDB_val pk = { 28, k };
		mrc = mdb_del(txn, post, &pk, NULL);
		if (mrc && mrc != MDB_NOTFOUND)
			rc = env_err(err, mrc, "gc: deleting a posting");
	}
	free(terms);
	if (rc == H2EMV_OK && (mrc = mdb_del(txn, node, &kv, NULL)) != 0)
		rc = env_err(err, mrc, "gc: deleting a node's terms");
	return rc;
}

/* ------------------------------------------------------------- reading -- */

/* (looked up once a view: a question asks for them once a candidate) */
static int read_dbis(MDB_dbi *post, MDB_dbi *node, eng_read *r, h2emv_error *err)
{
	if (!r->ix_state) {
		int rc = ix_dbis(&r->ix_dbi[0], &r->ix_dbi[1], r->txn, 0, err);
		if (rc && rc != H2EMV_ENOTFOUND)
			return rc;
		r->ix_state = rc ? -1 : 1;
	}
	if (r->ix_state < 0)
		return H2EMV_ENOTFOUND;
	*post = r->ix_dbi[0];
	*node = r->ix_dbi[1];
	return H2EMV_OK;
}

int eng_index_ready(eng_read *r)
{
	MDB_dbi post, node;
	return read_dbis(&post, &node, r, NULL) == H2EMV_OK && has_marker(r->txn, node);
}

int eng_index_counts(uint64_t *postings, uint64_t *nodes, eng_read *r)
{
	MDB_dbi post, node;
	MDB_stat a, b;
	*postings = *nodes = 0;
	if (read_dbis(&post, &node, r, NULL) || mdb_stat(r->txn, post, &a) ||
	    mdb_stat(r->txn, node, &b))
		return H2EMV_ENOTFOUND;
	*postings = a.ms_entries;
	*nodes = b.ms_entries ? b.ms_entries - 1 : 0;
	return H2EMV_OK;
}

int eng_index_bytes(uint64_t *index, uint64_t *node_records, eng_read *r)
{
	MDB_dbi post, node;
	MDB_stat a, b, c;
	*index = *node_records = 0;
	if (mdb_stat(r->txn, r->env->dbi[DB_NODES], &c) == 0)
		*node_records = (uint64_t)c.ms_psize *
		                (c.ms_branch_pages + c.ms_leaf_pages + c.ms_overflow_pages);
	if (read_dbis(&post, &node, r, NULL) || mdb_stat(r->txn, post, &a) ||
	    mdb_stat(r->txn, node, &b))
		return H2EMV_ENOTFOUND;
	*index = (uint64_t)a.ms_psize * (a.ms_branch_pages + a.ms_leaf_pages + a.ms_overflow_pages +
	                                 b.ms_branch_pages + b.ms_leaf_pages + b.ms_overflow_pages);
	return H2EMV_OK;
}

int eng_index_scan(eng_read *r, uint64_t term, int64_t from, int64_t to, int backwards,
                   eng_index_visit fn, void *ctx, h2emv_error *err)
{
	MDB_dbi post, node;
	int rc = read_dbis(&post, &node, r, err);
	if (rc)
		return rc;
	MDB_cursor *cur;
	int mrc = mdb_cursor_open(r->txn, post, &cur);
	if (mrc)
		return env_err(err, mrc, "index");
	uint8_t k0[28];
	post_key(k0, term, backwards ? to : from, backwards ? UINT64_MAX : 0,
	         backwards ? UINT32_MAX : 0);
	MDB_val k = { 28, k0 }, v;
	mrc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
	if (backwards)
		mrc = mrc == MDB_NOTFOUND ? mdb_cursor_get(cur, &k, &v, MDB_LAST)
		                          : (k.mv_size == 28 && !memcmp(k.mv_data, k0, 28))
		                                ? 0
		                                : mdb_cursor_get(cur, &k, &v, MDB_PREV);
	for (; mrc == 0; mrc = mdb_cursor_get(cur, &k, &v, backwards ? MDB_PREV : MDB_NEXT)) {
		const uint8_t *kp = k.mv_data, *vp = v.mv_data;
		if (k.mv_size != 28 || v.mv_size != IX_VAL) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "index: a malformed posting");
			break;
		}
		if (get_be64(kp) != term)
			break;
		eng_posting p = { .term = term };
		p.t_first = (int64_t)(get_be64(kp + 8) ^ (1ull << 63));
		if (backwards ? p.t_first < from : p.t_first > to)
			break;
		p.t_last = (int64_t)get_be64(vp);
		p.types = vp[8];
		p.tf = vp[9];
		p.roles = (uint16_t)(vp[10] << 8 | vp[11]);
		eng_ref ref = { get_be64(kp + 16), get_be32(kp + 24) };
		if ((rc = fn(ctx, &p, ref)) != 0)
			break;
	}
	mdb_cursor_close(cur);
	if (rc > 0)
		rc = H2EMV_OK; /* the visitor stopped the scan */
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "index");
	return rc;
}

int eng_index_node(uint64_t *born, uint64_t *died, uint32_t *n_terms, eng_read *r, eng_ref ref)
{
	MDB_dbi post, node;
	if (read_dbis(&post, &node, r, NULL))
		return H2EMV_ENOTFOUND;
	uint8_t nk[12];
	be64(nk, ref.id);
	be32(nk + 8, ref.version);
	MDB_val k = { 12, nk }, v;
	if (mdb_get(r->txn, node, &k, &v) || v.mv_size < IX_NODE_HEAD)
		return H2EMV_ENOTFOUND;
	*born = get_be64(v.mv_data);
	*died = get_be64((uint8_t *)v.mv_data + 8);
	*n_terms = get_be32((uint8_t *)v.mv_data + 16);
	return H2EMV_OK;
}
