/*
 * snapshot.c — node versions and snapshots. A tree update is committed in
 * one write transaction: the new node versions (never overwriting one), the
 * `dead` entries of the versions they replace, the snapshot record and the
 * build cursor. Readers open a snapshot inside a read view and see exactly
 * that tree for as long as they keep it.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/env.h"

#define SNAP_FIELDS 9
#define SNAP_BODY_VERSION 1

static void node_key(uint8_t key[12], uint64_t id, uint32_t version)
{
	be64(key, id);
	be32(key + 8, version);
}

int snap_decode(eng_snap *out, const uint8_t *body, size_t blen, h2emv_error *err)
{
	uint64_t f[SNAP_FIELDS];
	if (mp_decode_u64s(f, SNAP_FIELDS, body, blen) || f[0] != SNAP_BODY_VERSION ||
	    f[3] > UINT32_MAX || f[7] > UINT32_MAX)
		return eng_fail(err, H2EMV_ECORRUPT, "snapshot record is malformed");
	out->seq = f[1];
	out->root.id = f[2];
	out->root.version = (uint32_t)f[3];
	out->t_now = (int64_t)f[4];
	out->created = (int64_t)f[5];
	out->build_cursor = f[6];
	out->rules_version = (uint32_t)f[7];
	out->n_nodes = f[8];
	return H2EMV_OK;
}

static int snap_encode(eng_buf *out, const eng_snap *s)
{
	uint64_t f[SNAP_FIELDS] = {
		SNAP_BODY_VERSION, s->seq, s->root.id, s->root.version, (uint64_t)s->t_now,
		(uint64_t)s->created, s->build_cursor, s->rules_version, s->n_nodes,
	};
	return mp_encode_u64s(out, f, SNAP_FIELDS);
}

int snap_get_txn(eng_snap *out, MDB_txn *txn, eng_env *env, uint64_t seq, eng_buf *scratch,
                 h2emv_error *err)
{
	int rc;
	if (seq == 0) {
		if ((rc = eng_last_key(&seq, txn, env->dbi[DB_SNAPSHOTS], err)) != H2EMV_OK)
			return rc;
		if (seq == 0)
			return eng_fail(err, H2EMV_ENOTFOUND, "the memory has no snapshot yet");
	}
	uint8_t key[8];
	be64(key, seq);
	const uint8_t *body;
	size_t blen;
	rc = env_get_record(&body, &blen, txn, env, DB_SNAPSHOTS, key, 8, scratch, err);
	if (rc == H2EMV_ENOTFOUND)
		return eng_fail(err, rc, "no snapshot %llu (it may have been collected)",
		                (unsigned long long)seq);
	if (rc)
		return rc;
	rc = snap_decode(out, body, blen, err);
	if (rc == H2EMV_OK && out->seq != seq)
		rc = eng_fail(err, H2EMV_ECORRUPT, "snapshot %llu holds the record of %llu",
		              (unsigned long long)seq, (unsigned long long)out->seq);
	return rc;
}

int eng_snap_get(eng_snap *out, eng_read *r, uint64_t seq, h2emv_error *err)
{
	return snap_get_txn(out, r->txn, r->env, seq, &r->scratch, err);
}

int eng_snap_list(eng_snap **out, size_t *n, eng_read *r, h2emv_error *err)
{
	MDB_stat st;
	MDB_cursor *cur;
	int mrc = mdb_stat(r->txn, r->env->dbi[DB_SNAPSHOTS], &st);
	if (mrc)
		return env_err(err, mrc, "snapshots");
	eng_snap *list = calloc(st.ms_entries ? st.ms_entries : 1, sizeof *list);
	if (!list)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory listing snapshots");
	if ((mrc = mdb_cursor_open(r->txn, r->env->dbi[DB_SNAPSHOTS], &cur))) {
		free(list);
		return env_err(err, mrc, "snapshots");
	}
	MDB_val k, v;
	size_t i = 0;
	int rc = H2EMV_OK;
	for (int op = MDB_FIRST; i < st.ms_entries && (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0;
	     op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		if ((rc = env_decode(&body, &blen, r->env, &v, &r->scratch, err)) != H2EMV_OK ||
		    (rc = snap_decode(&list[i], body, blen, err)) != H2EMV_OK)
			break;
		i++;
	}
	mdb_cursor_close(cur);
	/* the loop ends at the last record, at the count, or on an error */
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "snapshots");
	if (rc) {
		free(list);
		return rc;
	}
	*out = list;
	*n = i;
	return H2EMV_OK;
}

int eng_build_cursor(uint64_t *out, eng_read *r, h2emv_error *err)
{
	return meta_get_u64(out, r->txn, r->env, "build_cursor", err);
}

int eng_next_node_id(uint64_t *out, eng_read *r, h2emv_error *err)
{
	int rc = meta_get_u64(out, r->txn, r->env, "next_node_id", err);
	if (rc == H2EMV_OK && *out == 0)
		*out = 1;
	return rc;
}

static void *heap(void *ctx, size_t n)
{
	(void)ctx;
	return malloc(n);
}

static int node_get_txn_with(eng_node **out, MDB_txn *txn, eng_env *env, eng_ref ref,
                             eng_buf *scratch, node_alloc_fn alloc, void *actx,
                             h2emv_error *err)
{
	uint8_t key[12];
	node_key(key, ref.id, ref.version);
	const uint8_t *body;
	size_t blen;
	int rc = env_get_record(&body, &blen, txn, env, DB_NODES, key, 12, scratch, err);
	if (rc == H2EMV_ENOTFOUND)
		return eng_fail(err, rc, "no node %llu version %u", (unsigned long long)ref.id,
		                ref.version);
	if (rc)
		return rc;
	/* a raw record's bytes stay in the map until the read ends; a
	 * decompressed one lives in `scratch`, which the next read reuses */
	unsigned flags = alloc != heap && body != scratch->data ? NODE_BORROW_PAYLOAD : 0;
	rc = node_decode_with(out, body, blen, flags, alloc, actx, err);
	if (rc == H2EMV_OK && ((*out)->id != ref.id || (*out)->version != ref.version)) {
		if (alloc == heap)
			free(*out);
		*out = NULL;
		eng_fail(err, H2EMV_ECORRUPT, "node key %llu v%u holds another node's record",
		         (unsigned long long)ref.id, ref.version);
		rc = env_damage_found(env, err);
	}
	return rc;
}

/* A child the tree refers to that is not stored is damage, not "not
 * found" (a dead list naming a missing version stays ENOTFOUND: that is
 * the caller's mistake, test_snapshots). */
static int referenced(eng_env *env, int rc, eng_ref ref, h2emv_error *err)
{
	if (rc == H2EMV_ECORRUPT) /* a page LMDB found corrupt on the way */
		return env_damage_found(env, err);
	if (rc != H2EMV_ENOTFOUND)
		return rc;
	eng_fail(err, H2EMV_ECORRUPT,
	         "damaged: node %llu version %u, which the tree refers to, is missing",
	         (unsigned long long)ref.id, ref.version);
	return env_damage_found(env, err);
}

static int node_get_txn(eng_node **out, MDB_txn *txn, eng_env *env, eng_ref ref,
                        eng_buf *scratch, h2emv_error *err)
{
	return node_get_txn_with(out, txn, env, ref, scratch, heap, NULL, err);
}

int eng_node_get(eng_node **out, eng_read *r, eng_ref ref, h2emv_error *err)
{
	return node_get_txn(out, r->txn, r->env, ref, &r->scratch, err);
}

int eng_node_get_with(eng_node **out, eng_read *r, eng_ref ref, node_alloc_fn alloc, void *actx,
                      h2emv_error *err)
{
	return node_get_txn_with(out, r->txn, r->env, ref, &r->scratch, alloc, actx, err);
}

/* Position `cur` on node `ref` and get its value. Siblings are usually
 * stored next to each other (ids handed out in order): step the cursor
 * forward a little before searching again. */
static int seek_node(MDB_val *v, MDB_cursor *cur, int *positioned, eng_ref ref, h2emv_error *err)
{
	uint8_t want[12];
	node_key(want, ref.id, ref.version);
	MDB_val k;
	for (int step = 0; *positioned && step < 4; step++) {
		int mrc = mdb_cursor_get(cur, &k, v, MDB_NEXT);
		if (mrc && mrc != MDB_NOTFOUND)
			return env_err(err, mrc, "nodes");
		if (mrc || k.mv_size != 12)
			break;
		int c = memcmp(k.mv_data, want, 12);
		if (c == 0)
			return H2EMV_OK;
		if (c > 0)
			break;
	}
	k.mv_size = 12;
	k.mv_data = want;
	int mrc = mdb_cursor_get(cur, &k, v, MDB_SET_KEY);
	*positioned = mrc == 0;
	if (mrc == MDB_NOTFOUND)
		return eng_fail(err, H2EMV_ENOTFOUND, "no node %llu version %u",
		                (unsigned long long)ref.id, ref.version);
	return mrc ? env_err(err, mrc, "nodes") : H2EMV_OK;
}

/* Ask for a value's bytes before they are needed: reading records from a
 * cold map stalls on every cache line otherwise. Siblings are stored
 * side by side (ids handed out in order), so the first time a batch lands
 * in a 4 KiB page, ask for the whole page: the next records the cursor
 * steps onto are there. The guess can only cost bandwidth: a prefetch
 * never faults and never changes what is read. */
#define PREFETCH_PAGE 4096u

static void prefetch_value(const MDB_val *v, uintptr_t *last_page)
{
	uintptr_t p = (uintptr_t)v->mv_data, page = p & ~(uintptr_t)(PREFETCH_PAGE - 1);
	if (page != *last_page && v->mv_size < PREFETCH_PAGE) {
		*last_page = page;
		for (uintptr_t off = 0; off < PREFETCH_PAGE; off += 64)
			__builtin_prefetch((const void *)(page + off));
		return;
	}
	size_t n = v->mv_size < 1024 ? v->mv_size : 1024;
	for (size_t off = 0; off < n; off += 64)
		__builtin_prefetch((const char *)v->mv_data + off);
}

#define GET_BATCH 16

struct eng_node_cursor {
	MDB_cursor *cur;
	int positioned;      /* on a node: forward steps may find the next one */
	uintptr_t last_page; /* the page prefetch_value asked for last */
};

int eng_node_cursor_open(eng_node_cursor **out, eng_read *r, h2emv_error *err)
{
	eng_node_cursor *nc = calloc(1, sizeof *nc);
	if (!nc)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int mrc = mdb_cursor_open(r->txn, r->env->dbi[DB_NODES], &nc->cur);
	if (mrc) {
		free(nc);
		return env_err(err, mrc, "nodes");
	}
	*out = nc;
	return H2EMV_OK;
}

void eng_node_cursor_close(eng_node_cursor *nc)
{
	if (!nc)
		return;
	mdb_cursor_close(nc->cur);
	free(nc);
}

static int get_many(eng_node **out, eng_read *r, eng_node_cursor *nc, const eng_ref *refs,
                    size_t n, node_alloc_fn alloc, void *actx, h2emv_error *err)
{
	int rc = H2EMV_OK;
	/* find a batch of values, then decode them: the lookups touch a line
	 * of each record and the decoding finds the rest on its way */
	for (size_t at = 0; at < n && rc == H2EMV_OK; at += GET_BATCH) {
		MDB_val v[GET_BATCH];
		size_t m = n - at < GET_BATCH ? n - at : GET_BATCH;
		for (size_t j = 0; j < m && rc == H2EMV_OK; j++) {
			rc = referenced(r->env, seek_node(&v[j], nc->cur, &nc->positioned, refs[at + j], err),
			                refs[at + j], err);
			if (rc == H2EMV_OK)
				prefetch_value(&v[j], &nc->last_page);
		}
		for (size_t j = 0; j < m && rc == H2EMV_OK; j++) {
			size_t i = at + j;
			const uint8_t *body;
			size_t blen;
			rc = env_decode(&body, &blen, r->env, &v[j], &r->scratch, err);
			if (rc == H2EMV_OK)
				rc = node_decode_with(&out[i], body, blen,
				                      body != r->scratch.data ? NODE_BORROW_PAYLOAD : 0,
				                      alloc, actx, err);
			if (rc == H2EMV_OK &&
			    (out[i]->id != refs[i].id || out[i]->version != refs[i].version)) {
				out[i] = NULL;
				eng_fail(err, H2EMV_ECORRUPT, "node key %llu v%u holds another node's record",
				         (unsigned long long)refs[i].id, refs[i].version);
				rc = env_damage_found(r->env, err);
			}
		}
	}
	return rc;
}

int eng_nodes_get_many(eng_node **out, eng_read *r, eng_node_cursor *nc, const eng_ref *refs,
                       size_t n, node_alloc_fn alloc, void *actx, h2emv_error *err)
{
	if (nc)
		return get_many(out, r, nc, refs, n, alloc, actx, err);
	int rc = eng_node_cursor_open(&nc, r, err);
	if (rc == H2EMV_OK)
		rc = get_many(out, r, nc, refs, n, alloc, actx, err);
	eng_node_cursor_close(nc);
	return rc;
}

/* ------------------------------------------------------------- commit -- */

typedef struct commit_ctx {
	const eng_commit *c;
	uint64_t seq;
	eng_buf body, scratch;
} commit_ctx;

static int put_nodes(MDB_txn *txn, eng_env *env, commit_ctx *x, h2emv_error *err)
{
	for (size_t i = 0; i < x->c->n_nodes; i++) {
		eng_node *n = x->c->nodes[i];
		uint8_t key[12];
		n->born = x->seq;
		node_key(key, n->id, n->version);
		x->body.len = 0;
		int rc = node_encode(&x->body, n, err);
		if (rc)
			return rc;
		rc = env_put_record(txn, env, DB_NODES, key, 12, x->body.data, x->body.len,
		                    MDB_NOOVERWRITE, env->cur_dict[ENG_DICT_NODES], err);
		if (rc == H2EMV_EEXIST)
			return eng_fail(err, rc, "node %llu version %u already exists: versions are "
			                "never overwritten", (unsigned long long)n->id, n->version);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

/* A dead entry's key is (died-at seq, id, version); its value keeps the
 * version's birth seq so GC can tell which snapshots could see it. */
static int put_dead(MDB_txn *txn, eng_env *env, commit_ctx *x, h2emv_error *err)
{
	for (size_t i = 0; i < x->c->n_dead; i++) {
		eng_ref ref = x->c->dead[i];
		eng_node *old;
		int rc = node_get_txn(&old, txn, env, ref, &x->scratch, err);
		if (rc)
			return rc;
		uint64_t born = old->born;
		free(old);
		uint8_t key[20];
		be64(key, x->seq);
		node_key(key + 8, ref.id, ref.version);
		x->body.len = 0;
		if (mp_encode_u64s(&x->body, &born, 1))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		rc = env_put_record(txn, env, DB_DEAD, key, 20, x->body.data, x->body.len,
		                    MDB_NOOVERWRITE, 0, err);
		if (rc == H2EMV_EEXIST)
			return eng_fail(err, H2EMV_EINVAL, "node %llu version %u is listed dead twice",
			                (unsigned long long)ref.id, ref.version);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int commit_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	commit_ctx *x = ctx;
	const eng_commit *c = x->c;
	uint64_t last, cursor, next_id;
	int rc;
	if ((rc = eng_last_key(&last, txn, env->dbi[DB_SNAPSHOTS], err)) ||
	    (rc = meta_get_u64(&cursor, txn, env, "build_cursor", err)) ||
	    (rc = meta_get_u64(&next_id, txn, env, "next_node_id", err)))
		return rc;
	if (c->build_cursor < cursor)
		return eng_fail(err, H2EMV_EINVAL, "build cursor would go back from %llu to %llu",
		                (unsigned long long)cursor, (unsigned long long)c->build_cursor);
	x->seq = last + 1;
	if ((rc = put_nodes(txn, env, x, err)) || (rc = put_dead(txn, env, x, err)) ||
	    (rc = ix_commit_txn(txn, env, c->nodes, c->n_nodes, c->dead, c->n_dead, x->seq, err)))
		return rc;
	eng_snap s = {
		.seq = x->seq, .root = c->root, .t_now = c->t_now, .created = eng_now_us(),
		.build_cursor = c->build_cursor, .rules_version = c->rules_version,
		.n_nodes = c->n_nodes_tree,
	};
	uint8_t key[8];
	be64(key, x->seq);
	x->body.len = 0;
	if (snap_encode(&x->body, &s))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if ((rc = env_put_record(txn, env, DB_SNAPSHOTS, key, 8, x->body.data, x->body.len,
	                         MDB_APPEND, 0, err)))
		return rc;
	if ((rc = meta_put_u64(txn, env, "build_cursor", c->build_cursor, err)))
		return rc;
	for (size_t i = 0; i < c->n_kv; i++) {
		int db = env_kv_db(c->kv[i].db);
		if (db < 0 || c->kv[i].klen == 0 || c->kv[i].klen > 511)
			return eng_fail(err, H2EMV_EINVAL, "a key/value record with a bad database or key");
		if ((rc = env_put_record(txn, env, db, c->kv[i].key, c->kv[i].klen, c->kv[i].body,
		                         c->kv[i].blen, 0, 0, err)))
			return rc;
	}
	if (c->next_node_id > next_id)
		rc = meta_put_u64(txn, env, "next_node_id", c->next_node_id, err);
	return rc;
}

int eng_commit_snapshot(uint64_t *seq_out, eng_env *env, const eng_commit *c, h2emv_error *err)
{
	commit_ctx x = { .c = c };
	int rc = env_write(env, commit_fn, &x, err);
	eng_buf_free(&x.body);
	eng_buf_free(&x.scratch);
	if (rc)
		return rc;
	if (seq_out)
		*seq_out = x.seq;
	return H2EMV_OK;
}

/* --------------------------------------------------------------- pins -- */

typedef struct pin_ctx {
	const char *name;
	uint64_t seq;
	int remove;
} pin_ctx;

static int pin_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	pin_ctx *p = ctx;
	MDB_val k = { strlen(p->name), (void *)p->name };
	if (p->remove) {
		int rc = mdb_del(txn, env->dbi[DB_PINS], &k, NULL);
		if (rc == MDB_NOTFOUND)
			return eng_fail(err, H2EMV_ENOTFOUND, "no pin named '%s'", p->name);
		return env_err(err, rc, "pins");
	}
	eng_snap s;
	eng_buf scratch = { 0 }, body = { 0 };
	int rc = snap_get_txn(&s, txn, env, p->seq, &scratch, err);
	if (rc == H2EMV_OK) {
		uint64_t v[2] = { s.seq, (uint64_t)eng_now_us() };
		p->seq = s.seq;
		rc = mp_encode_u64s(&body, v, 2) ? eng_fail(err, H2EMV_ENOMEM, "out of memory")
		                                 : env_put_record(txn, env, DB_PINS, p->name,
		                                                  strlen(p->name), body.data, body.len,
		                                                  0, 0, err);
	}
	eng_buf_free(&scratch);
	eng_buf_free(&body);
	return rc;
}

static int check_pin_name(const char *name, h2emv_error *err)
{
	size_t n = name ? strlen(name) : 0;
	if (n == 0 || n > 200)
		return eng_fail(err, H2EMV_EINVAL, "a pin name must be 1 to 200 bytes");
	return H2EMV_OK;
}

int eng_pin(eng_env *env, const char *name, uint64_t seq, h2emv_error *err)
{
	int rc = check_pin_name(name, err);
	pin_ctx p = { name, seq, 0 };
	return rc ? rc : env_write(env, pin_fn, &p, err);
}

int eng_unpin(eng_env *env, const char *name, h2emv_error *err)
{
	int rc = check_pin_name(name, err);
	pin_ctx p = { name, 0, 1 };
	return rc ? rc : env_write(env, pin_fn, &p, err);
}

int eng_pin_list(h2emv_pin **out, size_t *n, eng_read *r, h2emv_error *err)
{
	MDB_stat st;
	MDB_cursor *cur;
	int mrc = mdb_stat(r->txn, r->env->dbi[DB_PINS], &st);
	if (mrc)
		return env_err(err, mrc, "pins");
	h2emv_pin *list = calloc(st.ms_entries ? st.ms_entries : 1, sizeof *list);
	if (!list)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory listing pins");
	if ((mrc = mdb_cursor_open(r->txn, r->env->dbi[DB_PINS], &cur))) {
		free(list);
		return env_err(err, mrc, "pins");
	}
	MDB_val k, v;
	size_t i = 0;
	int rc = H2EMV_OK;
	for (int op = MDB_FIRST; i < st.ms_entries && (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0;
	     op = MDB_NEXT) {
		const uint8_t *body;
		size_t blen;
		uint64_t f[2];
		if ((rc = env_decode(&body, &blen, r->env, &v, &r->scratch, err)))
			break;
		if (k.mv_size == 0 || k.mv_size > 200 || mp_decode_u64s(f, 2, body, blen)) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "a pin record is malformed");
			break;
		}
		memcpy(list[i].name, k.mv_data, k.mv_size);
		list[i].seq = f[0];
		list[i].created = (int64_t)f[1];
		i++;
	}
	mdb_cursor_close(cur);
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "pins");
	if (rc) {
		free(list);
		return rc;
	}
	*out = list;
	*n = i;
	return H2EMV_OK;
}
