/*
 * forget.c — relevance-based forgetting (the paper's "Relevance-Based
 * Forgetting", DESIGN §6).
 *
 * At creation a node gets τ = t_end + Δt_ℓ·γ_ℓ (segment.c, build_tree.c).
 * After every update the tree is walked top-down at the memory's clock:
 * an expired node (τ < now) gets α from the policy (first looked up in the
 * relevance cache, keyed by the node's content and the rules version) and
 * τ += α·Δt_ℓ·γ_ℓ (α = inf: kept forever); if still expired it becomes a
 * placeholder keeping its time range and the first line of its summary,
 * and its children go. A node that stays is walked into. Adjacent
 * placeholders among siblings merge. A parent's τ is never below a child's
 * (tree.c keeps that on every change). The root is never forgotten, nor is
 * the open frontier the segmenter is still building (its open goals, the
 * open event and that event's newest scene): it holds pointers to them,
 * and they are judged once closed. Their older children may go.
 *
 * Only subtrees whose lowest τ (sub_min) is already due are walked, so a
 * pass after every observation costs little. With forgetting by time only,
 * α is 0 and the policy is not asked.
 */
#include <math.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api/builder/build.h"
#include "api/tree/facts.h"
#include "api/tree/gist.h"

#define MERGED_SUMMARY_MAX 400

/* ---------------------------------------------------- relevance cache -- */

static uint64_t cache_key(const builder *b, const tnode *n)
{
	uint64_t h = XXH3_64bits_withSeed(n->summary, strlen(n->summary),
	                                  ((uint64_t)n->level << 32) | b->rules_version);
	return h ? h : 1;
}

static relcache_ent *cache_slot(builder *b, uint64_t key)
{
	size_t i = key & (RELCACHE_SLOTS - 1);
	return &b->relcache[i];
}

static void remember(builder *b, uint64_t key, double alpha, int64_t now)
{
	if (b->n_pending < PENDING_MAX) {
		b->pending[b->n_pending].key = key;
		b->pending[b->n_pending].alpha = alpha;
		b->pending[b->n_pending].last = now;
		b->n_pending++;
	}
}

/* α for `n`: the cache (memory, then the relcache db), else the policy. */
static int relevance(builder *b, tnode *n, double *alpha, h2emv_error *err)
{
	uint64_t key = cache_key(b, n);
	relcache_ent *e = cache_slot(b, key);
	int64_t now = b->t.t_now;
	if (e->used && e->key == key) {
		*alpha = e->alpha;
		if (now - e->last > RELCACHE_REFRESH) { /* still in use: tell gc */
			remember(b, key, e->alpha, now);
			e->last = now;
		}
		return H2EMV_OK;
	}
	uint8_t k[8];
	be64(k, key);
	eng_read *r;
	eng_buf body = { 0 };
	int found = 0;
	int64_t last = now;
	if (eng_read_begin(&r, b->mem->env, NULL) == H2EMV_OK) {
		if (eng_kv_get(&body, r, ENG_KV_RELCACHE, k, 8, NULL) == H2EMV_OK &&
		    relcache_decode(alpha, &last, body.data, body.len) == H2EMV_OK) {
			found = 1;
			if (now - last > RELCACHE_REFRESH) {
				remember(b, key, *alpha, now);
				last = now;
			}
		}
		eng_read_end(r);
	}
	eng_buf_free(&body);
	if (!found) {
		pol_item it = item_of(n), par;
		/* the rules match the node's typed facts (decoded once, kept) */
		if (n->kind != H2EMV_KIND_SCENE)
			it.facts = facts_of(n);
		const pol_item *pp = NULL;
		if (n->parent && n->parent->kind != H2EMV_KIND_ROOT) {
			par = item_of(n->parent);
			pp = &par;
		}
		pol_rules rules = { (const char *const *)b->rules.items, b->rules.n };
		pol_relevance_req req = { &it, pp, b->t.t_now,
		                          b->cfg.rules_in_relevance ? &rules : NULL };
		pol_usage u = { 0 };
		int rc = b->mem->policy->relevance(b->mem->policy->ctx, &req, alpha, &u, err);
		tokens_add(&b->tok_forget, &u);
		if (rc)
			return rc;
		if (isnan(*alpha) || *alpha < 0)
			*alpha = 0;
		remember(b, key, *alpha, now);
	}
	e->used = 1;
	e->key = key;
	e->alpha = *alpha;
	e->last = last;
	return H2EMV_OK;
}

/* ------------------------------------------------------------ gists -- */

/* A forgotten goal or summary keeps its most salient facts (gist.h),
 * within a byte budget that grows with the level (a goal 1 KiB, a summary
 * 2 KiB, 4 KiB from two levels up): where each carried object ended, who
 * was met or heard, what failed, what a person asked for, the tasks done.
 * the question path (recall_walk.c) reads them as a coarse gist ("From my summaries"). */
#define GIST_GOAL_BYTES 1024

static size_t gist_budget(const tnode *n)
{
	int up = n->level > 5 ? 2 : n->level - 3;
	return (size_t)GIST_GOAL_BYTES << (up > 0 ? up : 0);
}

/* The gist of `n` before it becomes a placeholder: its own facts (a
 * summary's aggregate of its live children) and the gists its forgotten
 * children kept, chosen within the budget. Scenes and events keep none
 * (their goal holds their facts). ENOMEM. */
static int gist_pick(tnode *n, facts *out)
{
	if (n->kind != H2EMV_KIND_GOAL && n->kind != H2EMV_KIND_SUMMARY)
		return H2EMV_OK;
	facts pool = { 0 };
	facts *own = facts_of(n);
	int rc = own ? facts_merge(&pool, own, SIZE_MAX) : H2EMV_ENOMEM;
	for (uint32_t i = 0; !rc && i < n->n_kids; i++) {
		tnode *k = n->kids[i];
		if (k->kind != H2EMV_KIND_FORGOTTEN || !k->payload_len)
			continue;
		facts *kf = facts_of(k);
		rc = kf ? facts_merge(&pool, kf, SIZE_MAX) : H2EMV_ENOMEM;
	}
	if (!rc)
		rc = gist_select(out, &pool, gist_budget(n));
	facts_free(&pool);
	return rc;
}

/* Store the gist as the placeholder's payload [0, 0, facts] (none: no
 * payload), through the codec check, salvage and backup read. */
static int gist_write(tnode *n, const facts *g)
{
	facts_drop(n);
	if (!g->n)
		return tree_set_payload(n, NULL, 0);
	eng_buf b = { 0 };
	int rc = facts_payload_encode(&b, 0, 0, g);
	if (rc == H2EMV_OK)
		rc = tree_set_payload(n, b.data, b.len);
	eng_buf_free(&b);
	return rc;
}

/* Two adjacent placeholders merge: the first keeps the gist of both,
 * within its budget. ENOMEM. */
static int gist_join(tnode *a, tnode *c)
{
	if (!c->payload_len)
		return H2EMV_OK;
	facts pool = { 0 }, g = { 0 };
	facts *fa = facts_of(a), *fc = facts_of(c);
	int rc = fa && fc ? facts_merge(&pool, fa, SIZE_MAX) : H2EMV_ENOMEM;
	if (!rc)
		rc = facts_merge(&pool, fc, SIZE_MAX);
	if (!rc)
		rc = gist_select(&g, &pool, gist_budget(a));
	if (!rc)
		rc = gist_write(a, &g);
	facts_free(&pool);
	facts_free(&g);
	return rc;
}

/* ------------------------------------------------------------- placeholders -- */

static uint64_t subtree_size(const tnode *n)
{
	uint64_t k = 1;
	for (uint32_t i = 0; i < n->n_kids; i++)
		k += subtree_size(n->kids[i]);
	return k;
}

static int make_placeholder(builder *b, tnode *n, h2emv_error *err)
{
	/* summaries aggregate lazily: the parent takes a goal's or a summary's
	 * facts first (scenes and events are in their goal's; the levels above
	 * aggregate from the parent later) */
	tnode *up = n->level >= 3 ? n->parent : NULL;
	if (up && up->fx_stale && !facts_of(up))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory forgetting");
	/* its children in memory (their gists join its own), or, to count
	 * what goes, its whole subtree */
	int rc = b->on_forget ? tree_kids_all(&b->t, n, err) : tree_kids(&b->t, n, err);
	if (rc)
		return rc;
	facts gist = { 0 };
	if (gist_pick(n, &gist)) {
		facts_free(&gist);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory forgetting");
	}
	if (b->on_forget) {
		h2emv_forgotten f = { { n->id, n->stored }, n->level, (h2emv_kind)n->kind,
			              n->t_start, n->t_end, n->expiry, subtree_size(n) - 1,
			              n->summary };
		b->on_forget(b->on_forget_ctx, &f);
	}
	if ((rc = tree_drop_kids(&b->t, n, err))) {
		facts_free(&gist);
		return rc;
	}
	const char *nl = strchr(n->summary, '\n');
	size_t first = nl ? (size_t)(nl - n->summary) : strlen(n->summary);
	char *line = malloc(first + 1);
	rc = line ? H2EMV_OK : H2EMV_ENOMEM;
	if (line) {
		memcpy(line, n->summary, first);
		line[first] = 0;
		rc = tree_set_summary(n, line, first);
		free(line);
	}
	if (rc == H2EMV_OK)
		rc = gist_write(n, &gist); /* in place of the facts */
	else
		facts_drop(n);
	facts_free(&gist);
	n->kind = H2EMV_KIND_FORGOTTEN;
	tree_touch(n);
	b->forgotten++;
	return rc ? eng_fail(err, rc, "out of memory forgetting") : H2EMV_OK;
}

/* Adjacent placeholders of one level merge into the first: its range
 * grows, the short summaries are joined (capped). */
static int merge_placeholders(builder *b, tnode *p, h2emv_error *err)
{
	for (uint32_t i = 0; i + 1 < p->n_kids;) {
		tnode *a = p->kids[i], *c = p->kids[i + 1];
		if (a->kind != H2EMV_KIND_FORGOTTEN || c->kind != H2EMV_KIND_FORGOTTEN ||
		    a->level != c->level) {
			i++;
			continue;
		}
		size_t la = strlen(a->summary), lc = strlen(c->summary);
		if (la + 2 + lc < MERGED_SUMMARY_MAX && lc) {
			char *s = malloc(la + lc + 3);
			if (!s)
				return eng_fail(err, H2EMV_ENOMEM, "out of memory merging placeholders");
			memcpy(s, a->summary, la);
			memcpy(s + la, "; ", 2);
			memcpy(s + la + 2, c->summary, lc + 1);
			int rc = tree_set_summary(a, s, la + 2 + lc);
			free(s);
			if (rc)
				return eng_fail(err, rc, "out of memory merging placeholders");
		}
		int rc = gist_join(a, c);
		if (rc)
			return eng_fail(err, rc, "out of memory merging placeholders");
		a->t_end = c->t_end;
		if (c->expiry > a->expiry)
			a->expiry = c->expiry;
		tree_touch(a);
		rc = tree_drop(&b->t, tree_detach(p, i + 1), err);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

/* Δt_ℓ without γ: the unit of a relevance extension (DESIGN §6:
 * τ += α·Δt_ℓ). */
static int64_t base_life(const builder *b, const tnode *n)
{
	return n->level >= 4 ? b->cfg.life_summary : life_of(b, n);
}

/* ------------------------------------------------------------------ pass -- */

typedef struct pass {
	builder *b;
	int64_t now;
	int (*stop)(void *);
	void *stop_ctx;
	int stopped;
	h2emv_error *err;
} pass;

static int visit(pass *ps, tnode *n);

/* Is `n` still being built (segment.c's open goals and event, and the
 * event's newest scene)? */
static int on_frontier(const builder *b, const tnode *n)
{
	const tnode *e = b->event;
	if (e && (n == e || (e->n_kids && n == e->kids[e->n_kids - 1])))
		return 1;
	for (int d = 0; d < b->n_goals; d++)
		if (n == b->goals[d])
			return 1;
	return 0;
}

/* Children the pass reads from the store it lets go again once walked if
 * it left them unchanged, so it holds a path, not the tree (what the
 * builder had in memory before stays). */
static int visit_children(pass *ps, tnode *n)
{
	int64_t lo = n->kind == H2EMV_KIND_ROOT ? H2EMV_TIME_NEVER : n->expiry;
	int was_out = n->out;
	int rc = tree_kids(&ps->b->t, n, ps->err);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < n->n_kids; i++) {
		tnode *k = n->kids[i];
		if (ps->stop && ps->stop(ps->stop_ctx)) {
			ps->stopped = 1;
			return H2EMV_OK; /* sub_min stays unknown: walked next time */
		}
		if ((rc = visit(ps, k)))
			return rc;
		if (k->kind != H2EMV_KIND_FORGOTTEN && k->sub_min < lo)
			lo = k->sub_min;
	}
	if ((rc = merge_placeholders(ps->b, n, ps->err)))
		return rc;
	n->sub_min = lo;
	if (was_out && !builder_holds(ps->b, n))
		tree_shed(&ps->b->t, n);
	return H2EMV_OK;
}

static int visit(pass *ps, tnode *n)
{
	builder *b = ps->b;
	if (n->kind == H2EMV_KIND_FORGOTTEN || n->sub_min >= ps->now)
		return H2EMV_OK;
	if (n->expiry < ps->now && !on_frontier(b, n)) {
		double alpha = 0;
		if (b->cfg.forgetting == H2EMV_FORGET_RELEVANCE) {
			int rc = relevance(b, n, &alpha, ps->err);
			if (rc)
				return rc;
		}
		/* a finite α lengthens a life once; the next expiry forgets */
		if (!isinf(alpha) && alpha > 0 && facts_extended(n))
			alpha = 0;
		if (!isinf(alpha) && alpha > 0 && n->kind != H2EMV_KIND_SCENE &&
		    facts_mark_extended(n))
			return eng_fail(ps->err, H2EMV_ENOMEM, "out of memory");
		if (isinf(alpha)) {
			n->expiry = H2EMV_TIME_NEVER;
		} else if (alpha > 0) {
			double add = alpha * (double)base_life(b, n);
			n->expiry = add > (double)(INT64_MAX - n->expiry) ? H2EMV_TIME_NEVER
			                                                   : n->expiry + (int64_t)add;
		}
		if (alpha > 0) {
			tree_touch(n);
			tree_raise_expiry(n);
		}
		if (n->expiry < ps->now) {
			n->sub_min = H2EMV_TIME_NEVER;
			return make_placeholder(b, n, ps->err);
		}
	}
	return visit_children(ps, n);
}

int forget_pass(builder *b, int64_t now, int (*stop)(void *), void *stop_ctx, h2emv_error *err)
{
	if (b->cfg.forgetting == H2EMV_FORGET_NONE)
		return H2EMV_OK;
	pass ps = { b, now, stop, stop_ctx, 0, err };
	tnode *root = b->t.root;
	if (root->sub_min >= now)
		return H2EMV_OK;
	return visit_children(&ps, root);
}
