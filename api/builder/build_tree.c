/*
 * build_tree.c — online construction above the goal level: the paper's
 * Algorithm 2 (online history tree construction) with Algorithm 1
 * (time-aware incremental grouping and summarisation).
 *
 * A closed goal (level 3) is pushed up one level at a time. At level ℓ the
 * builder takes the last `context_window` parents at ℓ+1 on the tree's
 * right edge (edge-children), keeps those that end after the visibility
 * cutoff, clusters their children together with the new items by time,
 * and asks the policy to regroup each cluster that holds a new item. The
 * parents from the first change onward replace the old ones; their own
 * parents (at ℓ+2) are dissolved and all of their children become the new
 * items of the next level up, until nothing changes or the top is reached.
 *
 * The helpers the paper leaves open are defined here as follows.
 *  - time-based-cluster(items, ℓ): split the time-ordered items at every
 *    gap larger than thr(ℓ) = max(median item duration, floor(ℓ)) × (5 + ℓ)
 *    (upstream's factor), floor(ℓ) = 60 s × 4^(ℓ−3). Below the day level
 *    (ℓ ≤ 5, so parents up to L6) a gap of NIGHT_GAP (6 h) or more always
 *    splits; at ℓ ≥ 6 gaps up to 48 h never split (days group into weeks).
 *    "Avoid single-item clusters": when every item is its own cluster, they
 *    become one cluster — but never across a NIGHT_GAP below the day level.
 *  - visibility-cutoff(ℓ, new): the first new item's start − thr(ℓ); parents
 *    ending before it are not shown to the policy and never change.
 *  - prevent-push-to-upper-layer(new, ℓ): one new item whose gap to the
 *    last parent is under a tenth of the smallest gap between the visible
 *    parents goes straight into that parent and the push stops there; the
 *    parent and its ancestors up to the root are re-summarised (the paper
 *    says the parent; the ancestors would otherwise go stale).
 *  - index-of-first-change(P_new, P_old): the first position where the
 *    parent node differs (a policy group equal in range and summary to an
 *    old parent reuses that node untouched, so it is "no change").
 *  - the top: parents at TOP_LEVEL are the root's children; the root's
 *    summary is re-made by the policy (simple-summarize) when they change.
 * Single-child chains are kept (every goal has TOP_LEVEL − 3 ancestors
 * below the root), so levels mean the same thing everywhere in the tree:
 * roughly L4 a stretch of work, L5–L6 a session and a day, L7 a week, L8
 * a month or more; the root's fan-out grows by about one a month.
 */
#include <stdlib.h>
#include <string.h>

#include "api/builder/build.h"
#include "api/tree/facts.h"
#include "api/builder/build_tree_internal.h"

_Static_assert(TREE_ROOT_LEVEL == TOP_LEVEL + 1, "the root sits right above the top summaries");

#define MAX_EDGE 64

pol_item item_of(tnode *n)
{
	pol_item it = { 0 };
	it.id = n->id;
	it.level = n->level;
	it.t_start = n->t_start;
	it.t_end = n->t_end;
	it.text = n->summary;
	it.content = n->summary;
	it.forgotten = n->kind == H2EMV_KIND_FORGOTTEN;
	/* a goal's facts (read from its payload when not at hand, so a build
	 * in pieces says the same): a summary says their outcomes (gist.h) */
	it.facts = n->kind == H2EMV_KIND_GOAL ? facts_of(n) : NULL;
	return it;
}

/* ------------------------------------------------------- one level step -- */

typedef struct level_ctx {
	builder *b;
	int level;         /* of the items */
	nlist p_old;       /* edge parents at level+1, oldest first */
	nlist items;       /* visible children + new items, in time order */
	nlist merged;      /* the regrouped visible parents */
	size_t *first;     /* per merged parent: its first item (new parents) */
	size_t *count;     /* per merged parent: its item count (0: reused, untouched) */
	size_t n_invisible;
} level_ctx;

/* A new item has no parent yet. */
static int is_new_item(const tnode *n)
{
	return n->parent == NULL;
}

/* Append a parent to `merged`; `count` items from `first` (0: reused). */
static int add_merged(level_ctx *x, tnode *p, size_t first, size_t count)
{
	if (x->merged.n == x->merged.cap) {
		size_t cap = x->merged.cap ? x->merged.cap * 2 : 16;
		size_t *f = realloc(x->first, cap * sizeof *f);
		if (f)
			x->first = f;
		size_t *c = realloc(x->count, cap * sizeof *c);
		if (c)
			x->count = c;
		if (!f || !c)
			return H2EMV_ENOMEM;
	}
	x->first[x->merged.n] = first;
	x->count[x->merged.n] = count;
	return nl_add(&x->merged, p);
}

/* Ask the policy to regroup items[lo..hi) whose old parents are `olds`
 * (covering a prefix of the range). Appends the resulting parents. */
static int regroup(level_ctx *x, size_t lo, size_t hi, tnode **olds, size_t n_olds,
                   h2emv_error *err)
{
	builder *b = x->b;
	size_t n = hi - lo, covered = 0;
	pol_item *items = calloc(n, sizeof *items);
	pol_group *old = calloc(n_olds ? n_olds : 1, sizeof *old);
	if (!items || !old) {
		free(items);
		free(old);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		items[i] = item_of(x->items.v[lo + i]);
	for (size_t j = 0; j < n_olds; j++) {
		old[j].first = covered;
		old[j].last = covered + olds[j]->n_kids - 1;
		old[j].summary = olds[j]->summary;
		covered += olds[j]->n_kids;
	}
	pol_rules rules = { (const char *const *)b->rules.items, b->rules.n };
	pol_group_req req = {
		.level = x->level, .items = items, .n_items = n, .old_groups = old, .n_old = n_olds,
		.n_new = n - covered, .rules = b->cfg.rules_in_summaries ? &rules : NULL,
		.now = b->t.t_now,
	};
	pol_group_reply rep = { 0 };
	pol_usage u = { .no_estimate = !b->estimate };
	int rc = b->mem->policy->group(b->mem->policy->ctx, &req, &rep, &u, err);
	tokens_add(&b->tok_build, &u);
	b->policy_calls++;
	/* a reply must partition the items in order; anything else: keep the
	 * old groups and put the new items in one new group */
	size_t next = 0;
	for (size_t g = 0; rc == H2EMV_OK && g < rep.n; g++) {
		if (rep.groups[g].first != next || rep.groups[g].last < rep.groups[g].first ||
		    rep.groups[g].last >= n || !rep.groups[g].summary)
			rc = H2EMV_EPARSE;
		else
			next = rep.groups[g].last + 1;
	}
	if (rc == H2EMV_OK && next != n)
		rc = H2EMV_EPARSE;
	if (rc == H2EMV_EPARSE) {
		pol_groups_free(&rep);
		rc = H2EMV_OK;
		rep.groups = calloc(n_olds + 1, sizeof *rep.groups);
		if (!rep.groups)
			rc = H2EMV_ENOMEM;
		for (size_t j = 0; rc == H2EMV_OK && j < n_olds; j++) {
			rep.groups[rep.n] = old[j];
			rep.groups[rep.n++].summary = strdup(old[j].summary);
		}
		if (rc == H2EMV_OK && covered < n) {
			char *s = NULL;
			pol_usage u2 = { .no_estimate = !b->estimate };
			rc = b->mem->policy->summarize(b->mem->policy->ctx, items + covered, n - covered,
			                               x->level, req.rules, &s, &u2, err);
			tokens_add(&b->tok_build, &u2);
			b->policy_calls++;
			rep.groups[rep.n++] = (pol_group){ covered, n - 1, s };
		}
	}
	for (size_t g = 0; rc == H2EMV_OK && g < rep.n; g++) {
		pol_group *gr = &rep.groups[g];
		tnode *reuse = NULL;
		for (size_t j = 0; j < n_olds && !reuse; j++)
			if (old[j].first == gr->first && old[j].last == gr->last &&
			    !strcmp(old[j].summary, gr->summary))
				reuse = olds[j];
		if (reuse) {
			rc = add_merged(x, reuse, 0, 0);
			continue;
		}
		tnode *p = tree_node_new(&b->t, x->level + 1, H2EMV_KIND_SUMMARY);
		if (!p || tree_set_summary(p, gr->summary, strlen(gr->summary))) {
			free(p);
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
			break;
		}
		/* its children are adopted in place_children() */
		rc = add_merged(x, p, lo + gr->first, gr->last - gr->first + 1);
	}
	pol_groups_free(&rep);
	free(items);
	free(old);
	return rc;
}

/* New parents adopt their items, detaching them from their old parents. */
static int place_children(level_ctx *x, h2emv_error *err)
{
	builder *b = x->b;
	for (size_t i = 0; i < x->merged.n; i++) {
		tnode *p = x->merged.v[i];
		size_t first = x->first[i], count = x->count[i];
		for (size_t k = 0; k < count; k++) {
			tnode *it = x->items.v[first + k];
			if (it->parent)
				tree_detach(it->parent, tree_index(it));
			if (tree_insert(p, it, p->n_kids))
				return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
		if (!count)
			continue;
		if (facts_aggregate(p))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		tree_fit_range(p);
		int64_t life = life_of(b, p);
		p->expiry = b->cfg.forgetting == H2EMV_FORGET_NONE ? H2EMV_TIME_NEVER
		                                                   : p->t_end + life;
		for (uint32_t k = 0; k < p->n_kids; k++)
			if (p->kids[k]->expiry > p->expiry)
				p->expiry = p->kids[k]->expiry;
	}
	return H2EMV_OK;
}

/* Remove `n` (now childless) from its parent, and any ancestor left empty. */
static int unlink_empty(builder *b, tnode *n, h2emv_error *err)
{
	int rc = H2EMV_OK;
	while (rc == H2EMV_OK && n && n->parent && n->n_kids == 0 && !n->out &&
	       n->kind != H2EMV_KIND_ROOT) {
		tnode *p = n->parent;
		tree_detach(p, tree_index(n));
		rc = tree_drop(&b->t, n, err);
		n = p;
	}
	return rc;
}

/* Fit the ranges (and τ) of `n` and its ancestors to their children. */
static void fit_up(builder *b, tnode *n)
{
	for (; n; n = n->parent) {
		tree_fit_range(n);
		if (n->kind == H2EMV_KIND_ROOT)
			break;
		if (b->cfg.forgetting != H2EMV_FORGET_NONE && n->expiry != H2EMV_TIME_NEVER &&
		    n->t_end + life_of(b, n) > n->expiry) {
			n->expiry = n->t_end + life_of(b, n);
			tree_touch(n);
			tree_raise_expiry(n);
		}
	}
}

static int summarize_node(builder *b, tnode *p, h2emv_error *err)
{
	pol_item *items = calloc(p->n_kids ? p->n_kids : 1, sizeof *items);
	if (!items)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < p->n_kids; i++)
		items[i] = item_of(p->kids[i]);
	pol_rules rules = { (const char *const *)b->rules.items, b->rules.n };
	char *s = NULL;
	pol_usage u = { .no_estimate = !b->estimate };
	int rc = b->mem->policy->summarize(b->mem->policy->ctx, items, p->n_kids, p->level - 1,
	                                   b->cfg.rules_in_summaries ? &rules : NULL, &s, &u, err);
	tokens_add(&b->tok_build, &u);
	b->policy_calls++;
	if (rc == H2EMV_OK && (tree_set_summary(p, s, strlen(s)) || facts_aggregate(p)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	free(s);
	free(items);
	return rc;
}

/* prevent-push-to-upper-layer: one new item, very close to the last parent. */
static int try_join_last(level_ctx *x, tnode **nnew, size_t n_new, int *joined,
                         h2emv_error *err)
{
	*joined = 0;
	if (n_new != 1 || x->p_old.n < 2)
		return H2EMV_OK;
	int64_t min_gap = INT64_MAX;
	for (size_t i = 1; i < x->p_old.n; i++) {
		int64_t g = x->p_old.v[i]->t_start - x->p_old.v[i - 1]->t_end;
		if (g < min_gap)
			min_gap = g;
	}
	tnode *last = x->p_old.v[x->p_old.n - 1];
	int64_t gap = nnew[0]->t_start - last->t_end;
	if (min_gap <= 0 || gap >= min_gap / 10 || last->kind == H2EMV_KIND_FORGOTTEN)
		return H2EMV_OK;
	int rc = tree_kids(&x->b->t, last, err);
	if (rc)
		return rc;
	if (tree_insert(last, nnew[0], last->n_kids))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	*joined = 1;
	fit_up(x->b, last);
	/* The paper re-summarises the parent only; we also re-summarise its
	 * ancestors (the right edge, where the change is), or the levels above
	 * would keep describing the node as it was before it grew. */
	for (tnode *p = last; rc == H2EMV_OK && p; p = p->parent)
		rc = summarize_node(x->b, p, err);
	return rc;
}

/* Dissolve the parents (at level+2) of the replaced old parents: their
 * remaining children join the next level's new items. */
static int dissolve(level_ctx *x, size_t i_changed, nlist *next, h2emv_error *err)
{
	builder *b = x->b;
	nlist qs = { 0 };
	for (size_t i = i_changed; i < x->p_old.n; i++) {
		tnode *q = x->p_old.v[i]->parent;
		int seen = 0;
		for (size_t j = 0; j < qs.n; j++)
			seen |= qs.v[j] == q;
		if (q && q->kind != H2EMV_KIND_ROOT && !seen && nl_add(&qs, q))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	/* replaced old parents: gone (their children moved in place_children) */
	for (size_t i = i_changed; i < x->p_old.n; i++) {
		tnode *p = x->p_old.v[i];
		int kept = 0;
		for (size_t j = 0; j < x->merged.n; j++)
			kept |= x->merged.v[j] == p;
		if (!kept && p->n_kids == 0 && !p->out && p->parent) {
			tree_detach(p->parent, tree_index(p));
			int rc = tree_drop(&b->t, p, err);
			if (rc) {
				free(qs.v);
				return rc;
			}
		}
	}
	int rc = H2EMV_OK;
	for (size_t j = 0; rc == H2EMV_OK && j < qs.n; j++) {
		tnode *q = qs.v[j];
		while (rc == H2EMV_OK && q->n_kids) {
			tnode *s = tree_detach(q, q->n_kids - 1);
			if (nl_add(next, s)) {
				tree_free_detached(&b->t, s);
				rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
			}
		}
		if (rc == H2EMV_OK)
			rc = unlink_empty(b, q, err);
	}
	free(qs.v);
	return rc;
}

/* visibility-cutoff: the old parents that end before the first new item's
 * start − thr(ℓ) stay as they are and unseen (x->n_invisible of them); the
 * children of the others and the new items, in time order, are the items
 * to cluster. */
static int visible_items(level_ctx *x, const nlist *nnew, h2emv_error *err)
{
	int64_t thr = threshold(x->level, nnew->v, nnew->n);
	int64_t cutoff = nnew->v[0]->t_start - thr;
	while (x->n_invisible < x->p_old.n && x->p_old.v[x->n_invisible]->t_end < cutoff)
		x->n_invisible++;
	int rc = H2EMV_OK;
	for (size_t i = x->n_invisible; rc == H2EMV_OK && i < x->p_old.n; i++)
		rc = tree_kids(&x->b->t, x->p_old.v[i], err);
	for (size_t i = x->n_invisible; rc == H2EMV_OK && i < x->p_old.n; i++)
		for (uint32_t k = 0; rc == H2EMV_OK && k < x->p_old.v[i]->n_kids; k++)
			rc = nl_add(&x->items, x->p_old.v[i]->kids[k]);
	for (size_t i = 0; rc == H2EMV_OK && i < nnew->n; i++)
		rc = nl_add(&x->items, nnew->v[i]);
	if (rc == H2EMV_OK)
		sort_by_time(x->items.v, x->items.n);
	return rc;
}

/* The old parents, from *pi on, whose children all lie at the start of
 * items[lo..hi), into olds[] (at most MAX_EDGE); *pi moves past them.
 * Returns how many; *at is the first item none of them holds. */
static size_t old_parents_in(level_ctx *x, size_t lo, size_t hi, size_t *pi, tnode **olds,
                             size_t *at)
{
	size_t n_olds = 0;
	*at = lo;
	while (*pi < x->p_old.n && n_olds < MAX_EDGE) {
		tnode *p = x->p_old.v[*pi];
		if (*at + p->n_kids > hi || x->items.v[*at] != p->kids[0] ||
		    x->items.v[*at + p->n_kids - 1] != p->kids[p->n_kids - 1])
			break;
		olds[n_olds++] = p;
		*at += p->n_kids;
		(*pi)++;
	}
	return n_olds;
}

/* One cluster, items[starts[c]..starts[c + 1]): kept as its old parents
 * when it holds nothing new and they cover it exactly, else regrouped by
 * the policy. *pi is the next visible old parent. */
static int one_cluster(level_ctx *x, const size_t *starts, size_t nc, size_t c, size_t *pi,
                       h2emv_error *err)
{
	size_t lo = starts[c], hi = starts[c + 1], at;
	tnode *olds[MAX_EDGE + 1];
	size_t n_olds = old_parents_in(x, lo, hi, pi, olds, &at);
	int has_new = 0;
	for (size_t i = lo; i < hi; i++)
		has_new |= is_new_item(x->items.v[i]);
	if (!has_new && at == hi) {
		int rc = H2EMV_OK;
		for (size_t j = 0; j < n_olds && rc == H2EMV_OK; j++)
			rc = add_merged(x, olds[j], 0, 0); /* avoid re-summarising */
		return rc;
	}
	/* the items after the kept parents must all be new; one whose
	 * parent straddles the cluster's edge means regrouping it whole */
	for (size_t i = at; i < hi && n_olds; i++)
		if (!is_new_item(x->items.v[i]))
			n_olds = 0;
	/* skip parents that straddle into this cluster without fitting */
	while (*pi < x->p_old.n && x->p_old.v[*pi]->t_start <= x->items.v[hi - 1]->t_end &&
	       (c + 1 == nc || x->p_old.v[*pi]->t_end < x->items.v[starts[c + 1]]->t_start))
		(*pi)++;
	return regroup(x, lo, hi, olds, n_olds, err);
}

/* time-based-cluster the items, then keep or regroup each cluster: the
 * new parents go to x->merged. */
static int cluster_items(level_ctx *x, h2emv_error *err)
{
	int64_t thr = threshold(x->level, x->items.v, x->items.n);
	size_t *starts = malloc((x->items.n + 1) * sizeof *starts);
	if (!starts)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t nc = clusters(starts, x->items.v, x->items.n, x->level, thr);
	starts[nc] = x->items.n;
	size_t pi = x->n_invisible; /* next visible old parent */
	int rc = H2EMV_OK;
	for (size_t c = 0; rc == H2EMV_OK && c < nc; c++)
		rc = one_cluster(x, starts, nc, c, &pi, err);
	free(starts);
	return rc;
}

/* index-of-first-change: the first old parent (counting the invisible
 * ones) that the regrouped parents do not keep as it was. */
static size_t first_change(const level_ctx *x)
{
	size_t i = x->n_invisible;
	while (i - x->n_invisible < x->merged.n && i < x->p_old.n &&
	       x->merged.v[i - x->n_invisible] == x->p_old.v[i])
		i++;
	return i;
}

/* The top: the parents are the root's children. The changed ones replace
 * the old, and the root is summarised again; nothing goes further up. */
static int finish_top(level_ctx *x, size_t i_changed, nlist *next, h2emv_error *err)
{
	builder *b = x->b;
	tnode *root = b->t.root;
	int rc = dissolve(x, i_changed, next, err);
	if (rc)
		return rc;
	for (size_t j = i_changed - x->n_invisible; rc == H2EMV_OK && j < x->merged.n; j++)
		if (!x->merged.v[j]->parent)
			rc = tree_insert(root, x->merged.v[j], root->n_kids);
	next->n = 0;
	if (rc == H2EMV_OK)
		sort_by_time(root->kids, root->n_kids);
	if (rc == H2EMV_OK)
		rc = summarize_node(b, root, err);
	tree_fit_range(root);
	return rc;
}

/* Below the top: the parents from the first change on, detached, become
 * the next level's new items (with the children of their dissolved
 * parents); the parents left along the edge fit their children again. */
static int push_up(level_ctx *x, size_t i_changed, nlist *next, h2emv_error *err)
{
	size_t first_new = i_changed - x->n_invisible;
	int rc = dissolve(x, i_changed, next, err);
	if (rc)
		return rc;
	for (size_t j = first_new; rc == H2EMV_OK && j < x->merged.n; j++) {
		tnode *p = x->merged.v[j];
		if (p->parent) /* a reused parent after the change: move it up too */
			tree_detach(p->parent, tree_index(p));
		int dup = 0;
		for (size_t k = 0; k < next->n; k++)
			dup |= next->v[k] == p;
		if (!dup)
			rc = nl_add(next, p);
	}
	/* every parent still attached along the edge fits its children */
	for (size_t i = 0; i < x->n_invisible + first_new && i < x->p_old.n; i++)
		if (x->p_old.v[i]->parent)
			fit_up(x->b, x->p_old.v[i]);
	return rc;
}

static void level_ctx_free(level_ctx *x)
{
	free(x->p_old.v);
	free(x->items.v);
	free(x->merged.v);
	free(x->first);
	free(x->count);
}

/* One iteration of Algorithm 2 at `level`. `nnew` are detached nodes at
 * `level`; on return `next` holds the detached nodes for level + 1 (empty:
 * done). */
static int level_step(builder *b, int level, nlist *nnew, nlist *next, h2emv_error *err)
{
	level_ctx x = { .b = b, .level = level };
	int rc = edge_nodes(b, &x.p_old, level + 1, b->cfg.context_window, err);
	next->n = 0;
	sort_by_time(nnew->v, nnew->n);
	int joined = 0;
	if (rc == H2EMV_OK)
		rc = try_join_last(&x, nnew->v, nnew->n, &joined, err);
	if (rc == H2EMV_OK && !joined) {
		rc = visible_items(&x, nnew, err);
		if (rc == H2EMV_ENOMEM)
			rc = eng_fail(err, rc, "out of memory");
		if (rc == H2EMV_OK)
			rc = cluster_items(&x, err);
		if (rc == H2EMV_OK)
			rc = place_children(&x, err);
		if (rc == H2EMV_OK)
			rc = level + 1 >= TOP_LEVEL ? finish_top(&x, first_change(&x), next, err)
			                            : push_up(&x, first_change(&x), next, err);
	}
	level_ctx_free(&x);
	return rc;
}

int bt_push(builder *b, tnode *goal, h2emv_error *err)
{
	nlist cur = { 0 }, next = { 0 };
	int rc = nl_add(&cur, goal);
	for (int level = 3; rc == H2EMV_OK && cur.n && level < TOP_LEVEL; level++) {
		rc = level_step(b, level, &cur, &next, err);
		nlist t = cur;
		cur = next;
		next = t;
	}
	/* anything left detached (should not happen) goes under the root rather than being lost */
	for (size_t i = 0; rc == H2EMV_OK && i < cur.n; i++)
		if (!cur.v[i]->parent)
			rc = tree_insert(b->t.root, cur.v[i], b->t.root->n_kids);
	if (rc != H2EMV_OK) {
		/* the build stops and drops its tree: free what hangs nowhere (a
		 * node in both lists is freed once, from cur) */
		for (size_t i = 0; i < next.n; i++) {
			int dup = 0;
			for (size_t j = 0; j < cur.n && !dup; j++)
				dup = cur.v[j] == next.v[i];
			if (!dup)
				tree_free_detached(&b->t, next.v[i]);
		}
		for (size_t i = 0; i < cur.n; i++)
			tree_free_detached(&b->t, cur.v[i]);
	}
	free(cur.v);
	free(next.v);
	return rc;
}
