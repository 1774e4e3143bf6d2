/*
 * retain.c — what gc reclaims beyond superseded node versions: the
 * observations no kept snapshot needs any more, and relevance-cache entries
 * nobody has used for a while.
 *
 * An L1 scene carries its observation's body as its payload, so the log
 * entry of an observation is needed while some scene of a remaining
 * snapshot still holds those bytes (live, not a placeholder), while it is
 * not folded into the newest snapshot yet, or while it is inside the
 * raw-log window (the memory's clock minus eng_retain.raw_window). Anything
 * else is deleted, in bounded write transactions. The newest entry of the
 * log is always kept: it is what numbers the next observation.
 *
 * Which scenes are live comes from one read view: the remaining snapshots'
 * trees are walked (each node version once) and the XXH3 of every live
 * scene's payload collected. Trees only lose scenes over the observations
 * already folded (a placeholder never comes back), so deleting from that
 * picture in later transactions is safe while the builder commits on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "engine/env.h"

/* ------------------------------------------------------ sorted u64 sets -- */

typedef struct u64set {
	uint64_t *v;
	size_t n, cap;
} u64set;

static int set_add(u64set *s, uint64_t x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		uint64_t *v = realloc(s->v, cap * sizeof *v);
		if (!v)
			return H2EMV_ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return H2EMV_OK;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void set_sort(u64set *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof *s->v, cmp_u64);
	size_t w = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!w || s->v[w - 1] != s->v[i])
			s->v[w++] = s->v[i];
	s->n = w;
}

static int set_has(const u64set *s, uint64_t x)
{
	return s->n && bsearch(&x, s->v, s->n, sizeof *s->v, cmp_u64) != NULL;
}

/* --------------------------------------------------- the live picture -- */

static uint64_t ref_key(eng_ref r)
{
	return XXH3_64bits(&r, sizeof r.id) ^ ((uint64_t)r.version * 0x9E3779B97F4A7C15ull);
}

typedef struct picture {
	u64set scenes;    /* XXH3 of live scenes' payloads */
	uint64_t horizon; /* newest snapshot's build cursor */
	int64_t clock;    /* newest snapshot's clock */
	int any;          /* a snapshot exists */
} picture;

/* Walk one tree; versions already seen (in `seen`, sorted) are skipped
 * with their subtrees, new ones go to `fresh`. */
static int walk_tree(picture *p, eng_read *r, eng_ref root, const u64set *seen, u64set *fresh,
                     h2emv_error *err)
{
	int rc = H2EMV_OK;
	eng_ref *refs = NULL;
	size_t nrefs = 0, cap = 0;
#define PUSH(x)                                                                             \
	do {                                                                                \
		if (nrefs == cap) {                                                         \
			size_t c2 = cap ? 2 * cap : 256;                                    \
			eng_ref *n2 = realloc(refs, c2 * sizeof *n2);                       \
			if (!n2) {                                                          \
				rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");          \
				goto out;                                                   \
			}                                                                   \
			refs = n2;                                                          \
			cap = c2;                                                           \
		}                                                                           \
		refs[nrefs++] = (x);                                                        \
	} while (0)
	PUSH(root);
	while (nrefs) {
		eng_ref ref = refs[--nrefs];
		uint64_t k = ref_key(ref);
		if (set_has(seen, k))
			continue;
		if ((rc = set_add(fresh, k)))
			goto out;
		eng_node *n;
		if ((rc = eng_node_get(&n, r, ref, err)) == H2EMV_ENOTFOUND) {
			/* the tree refers to it: damage, not "not found" */
			eng_fail(err, H2EMV_ECORRUPT,
			         "damaged: node %llu version %u, which the tree refers to, is missing",
			         (unsigned long long)ref.id, ref.version);
			rc = env_damage_found(r->env, err);
		}
		if (rc)
			goto out;
		if (n->kind == H2EMV_KIND_SCENE && n->payload_len)
			rc = set_add(&p->scenes, XXH3_64bits(n->payload, n->payload_len));
		for (uint32_t i = 0; rc == H2EMV_OK && i < n->n_children; i++)
			PUSH(n->children[i]);
		free(n);
		if (rc)
			goto out;
	}
#undef PUSH
out:
	free(refs);
	return rc;
}

static int take_picture(picture *p, eng_env *env, h2emv_error *err)
{
	memset(p, 0, sizeof *p);
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	eng_snap *snaps = NULL;
	size_t n = 0;
	u64set seen = { 0 }, fresh = { 0 };
	rc = eng_snap_list(&snaps, &n, r, err);
	if (rc == H2EMV_OK && n) {
		p->any = 1;
		p->horizon = snaps[n - 1].build_cursor;
		p->clock = snaps[n - 1].t_now;
	}
	/* newest first: older trees mostly share its versions */
	for (size_t i = n; rc == H2EMV_OK && i-- > 0;) {
		fresh.n = 0;
		rc = walk_tree(p, r, snaps[i].root, &seen, &fresh, err);
		for (size_t j = 0; rc == H2EMV_OK && j < fresh.n; j++)
			rc = set_add(&seen, fresh.v[j]);
		if (rc == H2EMV_OK)
			set_sort(&seen);
	}
	if (rc == H2EMV_ENOMEM)
		eng_fail(err, rc, "out of memory walking the trees");
	set_sort(&p->scenes);
	free(seen.v);
	free(fresh.v);
	free(snaps);
	eng_read_end(r);
	return rc;
}

/* ------------------------------------------------------- observations -- */

typedef struct obs_ctx {
	const picture *p;
	const eng_retain *ret;
	uint32_t batch;
	int dry;
	uint64_t last_seq;  /* never deleted */
	uint64_t resume;    /* first seq still to look at */
	int done;
	/* this transaction */
	uint64_t step_deleted, step_bytes;
	eng_retain_stats st; /* totals (dry: counts only) */
	eng_retain_stats step;
} obs_ctx;

/* Why an observation stays: 0 = it may go. */
enum { KEEP_NO, KEEP_UNBUILT, KEEP_LIVE, KEEP_WINDOW, KEEP_UNREADABLE, KEEP_LAST };

static int obs_keep(obs_ctx *o, eng_env *env, uint64_t seq, const MDB_val *v, eng_buf *scratch)
{
	if (seq == o->last_seq)
		return KEEP_LAST;
	if (!o->p->any || seq > o->p->horizon)
		return KEEP_UNBUILT;
	const uint8_t *body;
	size_t blen;
	if (env_decode(&body, &blen, env, v, scratch, NULL) != H2EMV_OK)
		return KEEP_UNREADABLE; /* check reports it; salvage may want it */
	if (set_has(&o->p->scenes, XXH3_64bits(body, blen)))
		return KEEP_LIVE;
	int64_t t;
	if (o->ret->raw_window > 0 &&
	    (!o->ret->obs_time || o->ret->obs_time(&t, body, blen) != 0 ||
	     t >= o->p->clock - o->ret->raw_window))
		return KEEP_WINDOW;
	return KEEP_NO;
}

static void count_keep(eng_retain_stats *s, int why, uint64_t bytes)
{
	switch (why) {
	case KEEP_NO: s->obs_reclaimable++; s->obs_reclaimable_bytes += bytes; break;
	case KEEP_UNBUILT:
	case KEEP_LAST: s->obs_unbuilt++; break;
	case KEEP_LIVE: s->obs_live++; break;
	case KEEP_WINDOW: s->obs_window++; break;
	default: s->obs_unreadable++; break;
	}
}

static int obs_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	obs_ctx *o = ctx;
	MDB_cursor *cur;
	MDB_val k, v;
	eng_buf scratch = { 0 };
	uint64_t n = 0, seen = 0;
	memset(&o->step, 0, sizeof o->step);
	int rc = mdb_cursor_open(txn, env->dbi[DB_OBS], &cur);
	if (rc)
		return env_err(err, rc, "retention: opening the log");
	uint8_t key[8];
	be64(key, o->resume);
	k.mv_size = 8;
	k.mv_data = key;
	int mrc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
	o->done = 1;
	for (; mrc == 0; mrc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
		if (k.mv_size != 8) {
			rc = eng_fail(err, H2EMV_ECORRUPT, "obs: a key is not 8 bytes");
			break;
		}
		uint64_t seq = get_be64(k.mv_data);
		if (o->p->any && seq > o->p->horizon && !o->dry)
			break; /* nothing after the horizon can go */
		if (!o->dry && (n == o->batch || seen == 16 * (uint64_t)o->batch)) {
			o->resume = seq;
			o->done = 0;
			break;
		}
		seen++;
		int why = obs_keep(o, env, seq, &v, &scratch);
		count_keep(&o->step, why, v.mv_size);
		if (why != KEEP_NO || o->dry)
			continue;
		if ((mrc = mdb_cursor_del(cur, 0))) {
			rc = env_err(err, mrc, "retention: deleting an observation");
			break;
		}
		n++;
	}
	if (rc == H2EMV_OK && mrc && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "retention: reading the log");
	mdb_cursor_close(cur);
	eng_buf_free(&scratch);
	return rc;
}

static void add_stats(eng_retain_stats *to, const eng_retain_stats *s)
{
	to->obs_live += s->obs_live;
	to->obs_window += s->obs_window;
	to->obs_unbuilt += s->obs_unbuilt;
	to->obs_unreadable += s->obs_unreadable;
	to->obs_reclaimable += s->obs_reclaimable;
	to->obs_reclaimable_bytes += s->obs_reclaimable_bytes;
	to->cache_entries += s->cache_entries;
	to->cache_collectable += s->cache_collectable;
}

/* ------------------------------------------------------ relevance cache -- */

typedef struct cache_ent {
	int64_t used;
	uint8_t key[8];
} cache_ent;

static int cmp_cache(const void *a, const void *b)
{
	const cache_ent *x = a, *y = b;
	if (x->used != y->used)
		return x->used < y->used ? -1 : 1;
	return memcmp(x->key, y->key, 8);
}

typedef struct cache_ctx {
	cache_ent *doomed; /* the entries to delete */
	size_t n, next;
	uint32_t batch;
} cache_ctx;

static int cache_del_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	cache_ctx *c = ctx;
	size_t end = c->next + c->batch < c->n ? c->next + c->batch : c->n;
	for (size_t i = c->next; i < end; i++) {
		MDB_val k = { 8, c->doomed[i].key };
		int mrc = mdb_del(txn, env->dbi[DB_RELCACHE], &k, NULL);
		if (mrc && mrc != MDB_NOTFOUND)
			return env_err(err, mrc, "retention: deleting a cache entry");
	}
	return H2EMV_OK;
}

/* Which entries go: unused for longer than the window (memory clock), then
 * the least recently used beyond the cap. Entries are few and small: one
 * read view lists them all. */
static int cache_plan(cache_ctx *c, eng_retain_stats *st, eng_env *env, const picture *p,
                      const eng_retain *ret, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	MDB_cursor *cur;
	MDB_val k, v;
	cache_ent *all = NULL;
	size_t n = 0, cap = 0;
	eng_buf scratch = { 0 };
	int mrc = mdb_cursor_open(r->txn, env->dbi[DB_RELCACHE], &cur);
	if (mrc) {
		eng_read_end(r);
		return env_err(err, mrc, "retention: opening the cache");
	}
	for (mrc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); mrc == 0;
	     mrc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
		if (k.mv_size != 8)
			continue; /* not ours to judge: check reports it */
		if (n == cap) {
			size_t c2 = cap ? 2 * cap : 1024;
			cache_ent *a2 = realloc(all, c2 * sizeof *a2);
			if (!a2) {
				rc = eng_fail(err, H2EMV_ENOMEM, "out of memory listing the cache");
				break;
			}
			all = a2;
			cap = c2;
		}
		const uint8_t *body;
		size_t blen;
		int64_t used = 0;
		if (env_decode(&body, &blen, env, &v, &scratch, NULL) != H2EMV_OK ||
		    !ret->cache_used || ret->cache_used(&used, body, blen) != 0)
			used = 0; /* an entry of the old layout, or unreadable: oldest */
		all[n].used = used;
		memcpy(all[n].key, k.mv_data, 8);
		n++;
	}
	if (rc == H2EMV_OK && mrc != MDB_NOTFOUND)
		rc = env_err(err, mrc, "retention: reading the cache");
	mdb_cursor_close(cur);
	eng_read_end(r);
	eng_buf_free(&scratch);
	if (rc) {
		free(all);
		return rc;
	}
	if (n)
		qsort(all, n, sizeof *all, cmp_cache);
	size_t old = 0;
	while (old < n && ret->cache_window > 0 && p->any &&
	       all[old].used < p->clock - ret->cache_window)
		old++;
	if (ret->cache_max && n - old > ret->cache_max)
		old = n - ret->cache_max;
	st->cache_entries = n;
	st->cache_collectable = old;
	c->doomed = all;
	c->n = old;
	c->next = 0;
	return H2EMV_OK;
}

/* ------------------------------------------------------------- entry -- */

static int prune_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	(void)ctx;
	return eng_obsids_prune_txn(txn, env, NULL, err);
}

int eng_retain_run(eng_retain_stats *out, eng_env *env, const eng_retain *ret, uint32_t batch,
                   int dry, h2emv_progress_fn progress, void *pctx, h2emv_error *err)
{
	eng_retain_stats total = { 0 };
	picture p;
	int rc = take_picture(&p, env, err);
	if (rc) {
		free(p.scenes.v);
		return rc;
	}
	obs_ctx o = { .p = &p, .ret = ret, .batch = batch ? batch : 512, .dry = dry, .resume = 1 };
	eng_read *r;
	if ((rc = eng_read_begin(&r, env, err)) == H2EMV_OK) {
		rc = eng_obs_last(&o.last_seq, r, err);
		if (rc == H2EMV_OK && dry) {
			rc = obs_fn(r->txn, env, &o, err);
			add_stats(&total, &o.step);
		}
		eng_read_end(r);
	}
	while (rc == H2EMV_OK && !dry) {
		rc = env_write(env, obs_fn, &o, err);
		if (rc)
			break;
		add_stats(&total, &o.step);
		total.obs_deleted += o.step.obs_reclaimable;
		total.obs_deleted_bytes += o.step.obs_reclaimable_bytes;
		if (progress && progress(pctx, "observations reclaimed", total.obs_deleted, 0))
			break;
		if (o.done)
			break;
	}
	/* the ids of deleted observations may be used again */
	if (rc == H2EMV_OK && !dry && total.obs_deleted)
		rc = env_write(env, prune_fn, NULL, err);
	cache_ctx c = { .batch = o.batch };
	if (rc == H2EMV_OK)
		rc = cache_plan(&c, &total, env, &p, ret, err);
	while (rc == H2EMV_OK && !dry && c.next < c.n) {
		rc = env_write(env, cache_del_fn, &c, err);
		if (rc == H2EMV_OK) {
			c.next += c.batch;
			if (c.next > c.n)
				c.next = c.n;
		}
	}
	if (rc == H2EMV_OK && !dry)
		total.cache_deleted = c.n;
	free(c.doomed);
	free(p.scenes.v);
	if (out)
		*out = total;
	return rc;
}

/* ------------------------------------------------------------- space -- */

int eng_space(uint64_t *file_bytes, uint64_t *free_bytes, eng_env *env, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	MDB_stat st;
	MDB_envinfo info;
	MDB_cursor *cur;
	MDB_val k, v;
	uint64_t free_pages = 0;
	int mrc = mdb_env_stat(r->gen->mdb, &st);
	if (!mrc)
		mrc = mdb_env_info(r->gen->mdb, &info);
	/* the free list is LMDB's database 0: each value is a page-number list
	 * whose first word is its length */
	if (!mrc)
		mrc = mdb_cursor_open(r->txn, 0, &cur);
	if (!mrc) {
		for (int op = MDB_FIRST; (mrc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT) {
			size_t w = 0;
			if (v.mv_size >= sizeof w)
				memcpy(&w, v.mv_data, sizeof w);
			if (w < v.mv_size / sizeof w)
				free_pages += w;
		}
		mdb_cursor_close(cur);
		if (mrc == MDB_NOTFOUND)
			mrc = 0;
	}
	char path[4200];
	gen_path(path, sizeof path, env->dir, r->gen->num, 0);
	eng_read_end(r);
	if (mrc)
		return env_err(err, mrc, "reading the free space");
	struct stat fst;
	*file_bytes = stat(path, &fst) == 0 ? (uint64_t)fst.st_size
	                                    : (uint64_t)(info.me_last_pgno + 1) * st.ms_psize;
	*free_bytes = free_pages * st.ms_psize;
	if (*free_bytes > *file_bytes)
		*free_bytes = *file_bytes;
	return H2EMV_OK;
}
