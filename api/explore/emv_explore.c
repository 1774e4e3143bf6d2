/*
 * emv_explore.c — the part of a snapshot's tree one question has opened,
 * and the three ways of opening more: by id, by time range, and by search.
 * Nodes are read lazily through the snapshot (which caches what it
 * decoded), so a question costs the nodes it looks at, not the tree. Only
 * a search reads below what is shown, and it remembers what it read.
 *
 * Damaged trees are survived, not trusted: depth and size are bounded, a
 * cycle of child references is cut where it closes, and a dangling child
 * is reported as H2EMV_ECORRUPT.
 */
#include <stdlib.h>
#include <string.h>

#include "api/explore/emv.h"
#include "engine/engine.h"

/* What a search found below one node version. */
struct emv_memo {
	uint64_t id;
	uint32_t version;
	uint8_t flags;
};

enum { M_DONE = 1, M_BUSY = 2, M_ALL = 4, M_ANY = 8, M_PLACE = 16 };

static uint32_t hash64(uint64_t a, uint32_t b)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ull ^ ((uint64_t)b * 0xC2B2AE3D27D4EB4Full);
	return (uint32_t)(h ^ (h >> 29));
}

/* ------------------------------------------------------------ id index -- */

/* by_id: node id -> index in vn */
static int vn_has_id(const void *ctx, uintptr_t val, const void *key)
{
	const emv_explorer *x = ctx;
	return h2emv_node_ref(x->vn[val].node).id == *(const uint64_t *)key;
}

static ht_slot *id_slot(const emv_explorer *x, uint64_t id)
{
	return ht_find(&x->by_id, hash64(id, 0), vn_has_id, x, &id);
}

uint32_t emv_ex_find(const emv_explorer *x, uint64_t id)
{
	ht_slot *s = id_slot(x, id);
	return s && ht_used(&x->by_id, s) ? (uint32_t)s->val : 0;
}

/* ----------------------------------------------------------- the nodes -- */

size_t emv_ex_visible(const emv_explorer *x)
{
	return x->n ? x->n - 1 : 0;
}

static int push(emv_explorer *x, const h2emv_node *node, uint32_t parent, uint16_t depth)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 256;
		emv_vnode *v = realloc(x->vn, cap * sizeof *v);
		if (!v)
			return H2EMV_ENOMEM;
		x->vn = v;
		x->cap = cap;
	}
	emv_vnode *v = &x->vn[x->n++];
	memset(v, 0, sizeof *v);
	v->node = node;
	v->parent = parent;
	v->depth = depth;
	return H2EMV_OK;
}

int emv_ex_can_open(const emv_explorer *x, uint32_t i)
{
	const emv_vnode *v = &x->vn[i];
	size_t kids = h2emv_node_child_count(v->node);
	if (v->open || !kids || h2emv_node_kind(v->node) == H2EMV_KIND_FORGOTTEN ||
	    v->depth >= EMV_MAX_DEPTH)
		return 0;
	return i == 0 || emv_ex_visible(x) + kids <= EMV_MAX_VISIBLE;
}

static int child(const h2emv_node **out, emv_explorer *x, const h2emv_node *parent, size_t c,
                 h2emv_error *err)
{
	int rc = h2emv_node_child(out, x->snap, parent, c, err);
	if (rc == H2EMV_ENOTFOUND)
		rc = eng_fail(err, H2EMV_ECORRUPT,
		              "node %llu: child %zu is missing from the store (run h2emv check)",
		              (unsigned long long)h2emv_node_ref(parent).id, c);
	return rc;
}

int emv_ex_open(emv_explorer *x, uint32_t i, int *opened, h2emv_error *err)
{
	*opened = 0;
	if (!emv_ex_can_open(x, i))
		return H2EMV_OK;
	const h2emv_node *parent = x->vn[i].node;
	size_t kids = h2emv_node_child_count(parent), first = x->n;
	uint16_t depth = (uint16_t)(x->vn[i].depth + 1);
	for (size_t c = 0; c < kids; c++) {
		const h2emv_node *k;
		int rc = child(&k, x, parent, c, err);
		if (rc == H2EMV_OK)
			rc = push(x, k, i, depth);
		if (rc) {
			x->n = first;
			return rc == H2EMV_ENOMEM ? eng_fail(err, rc, "out of memory") : rc;
		}
	}
	if (ht_reserve(&x->by_id, x->n - first)) {
		x->n = first;
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t j = first; j < x->n; j++) {
		uint64_t id = h2emv_node_ref(x->vn[j].node).id;
		ht_slot *s = id_slot(x, id);
		if (!ht_used(&x->by_id, s)) /* the first visible copy of an id wins */
			ht_put(&x->by_id, s, hash64(id, 0), j);
	}
	x->vn[i].kids = (uint32_t)first;
	x->vn[i].n_kids = (uint32_t)kids;
	x->vn[i].open = 1;
	*opened = 1;
	return H2EMV_OK;
}

int emv_ex_init(emv_explorer *x, h2emv_snap *snap, const h2emv_node *root, h2emv_error *err)
{
	memset(x, 0, sizeof *x);
	x->snap = snap;
	if (push(x, root, 0, 0))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int opened;
	return emv_ex_open(x, 0, &opened, err);
}

void emv_ex_free(emv_explorer *x)
{
	free(x->vn);
	ht_free(&x->by_id);
	ht_free(&x->memo_ix);
	free(x->memo);
	memset(x, 0, sizeof *x);
}

/* Could this node's children hold a goal or event worth showing? */
static int openable_kind(const h2emv_node *n)
{
	return h2emv_node_level(n) >= 3 && h2emv_node_kind(n) != H2EMV_KIND_FORGOTTEN;
}

/* --------------------------------------------------------------- range -- */

static int range_under(emv_explorer *x, uint32_t i, int64_t t0, int64_t t1, size_t *opened,
                       h2emv_error *err)
{
	for (uint32_t k = 0; k < x->vn[i].n_kids; k++) {
		uint32_t c = x->vn[i].kids + k;
		const h2emv_node *n = x->vn[c].node;
		if (!openable_kind(n) || h2emv_node_end(n) < t0 || h2emv_node_start(n) > t1)
			continue;
		int o = 0, rc = emv_ex_open(x, c, &o, err);
		if (rc)
			return rc;
		*opened += (size_t)o;
		if (x->vn[c].open && (rc = range_under(x, c, t0, t1, opened, err)))
			return rc;
	}
	return H2EMV_OK;
}

int emv_ex_range(emv_explorer *x, int64_t t0, int64_t t1, size_t *opened, h2emv_error *err)
{
	*opened = 0;
	return range_under(x, 0, t0, t1, opened, err);
}

int emv_ex_open_all(emv_explorer *x, size_t *opened, h2emv_error *err)
{
	*opened = 0;
	size_t n = x->n;
	for (size_t i = 1; i < n; i++) {
		if (!openable_kind(x->vn[i].node))
			continue;
		int o = 0, rc = emv_ex_open(x, (uint32_t)i, &o, err);
		if (rc)
			return rc;
		*opened += (size_t)o;
	}
	return H2EMV_OK;
}

/* -------------------------------------------------------------- search -- */

/* memo_ix: (id, version) -> index in memo */
static int memo_is(const void *ctx, uintptr_t val, const void *key)
{
	const struct emv_memo *m = &((const emv_explorer *)ctx)->memo[val];
	const h2emv_ref *r = key;
	return m->id == r->id && m->version == r->version;
}

/* The entry for r, made (flags M_BUSY) if new and `make`; NULL if absent
 * or out of memory. Making one may move the others. */
static struct emv_memo *memo_get(emv_explorer *x, h2emv_ref r, int make)
{
	if (make && x->memo_n == x->memo_cap) {
		size_t cap = x->memo_cap ? x->memo_cap * 2 : 512;
		struct emv_memo *t = realloc(x->memo, cap * sizeof *t);
		if (!t)
			return NULL;
		x->memo = t;
		x->memo_cap = cap;
	}
	if (make && ht_reserve(&x->memo_ix, 1))
		return NULL;
	uint32_t h = hash64(r.id, r.version);
	ht_slot *s = ht_find(&x->memo_ix, h, memo_is, x, &r);
	if (!s)
		return NULL;
	if (ht_used(&x->memo_ix, s))
		return &x->memo[s->val];
	if (!make)
		return NULL;
	struct emv_memo *e = &x->memo[x->memo_n];
	e->id = r.id;
	e->version = r.version;
	e->flags = M_BUSY;
	ht_put(&x->memo_ix, s, h, x->memo_n++);
	return e;
}

typedef struct query {
	emv_term t[8];
	size_t k;
	int64_t t0, t1; /* the time window; t1 < t0: none */
} query;

static int in_window(const h2emv_node *n, const query *q)
{
	return q->t1 < q->t0 || (h2emv_node_end(n) >= q->t0 && h2emv_node_start(n) <= q->t1);
}

/* How a node's own text matches; a placeholder's text is hidden. */
static uint8_t self_flags(const h2emv_node *n, const query *q)
{
	if (h2emv_node_kind(n) == H2EMV_KIND_FORGOTTEN)
		return M_PLACE;
	size_t len;
	const char *t = h2emv_node_summary(n, &len);
	if (emv_mentions(t, len, q->t, q->k))
		return M_ALL | M_ANY;
	return emv_count_terms(t, len, q->t, q->k) ? M_ANY : 0;
}

/* What lies strictly below node n. A search reads the children of
 * summaries only — goals are the deepest nodes it reads; what a goal's
 * events saw is in the goal's own text — and at most EMV_SEARCH_READS
 * nodes. */
static int below(emv_explorer *x, const h2emv_node *n, const query *q, int depth, uint8_t *out,
                 h2emv_error *err)
{
	*out = 0;
	if (!openable_kind(n) || h2emv_node_level(n) < 4 || depth >= EMV_MAX_DEPTH ||
	    !h2emv_node_child_count(n))
		return H2EMV_OK;
	h2emv_ref r = h2emv_node_ref(n);
	struct emv_memo *e = memo_get(x, r, 0);
	if (e) {
		*out = e->flags & (M_ALL | M_ANY | M_PLACE); /* M_BUSY: a cycle, cut here */
		return H2EMV_OK;
	}
	if (!memo_get(x, r, 1))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	uint8_t acc = 0;
	for (size_t c = 0; c < h2emv_node_child_count(n); c++) {
		if (x->reads >= EMV_SEARCH_READS) {
			x->cut = 1;
			break;
		}
		const h2emv_node *k;
		uint8_t sub = 0;
		int rc = child(&k, x, n, c, err);
		if (rc == H2EMV_OK && in_window(k, q))
			rc = below(x, k, q, depth + 1, &sub, err);
		if (rc)
			return rc;
		x->reads++;
		if (in_window(k, q))
			acc |= self_flags(k, q) | sub;
	}
	e = memo_get(x, r, 0);
	e->flags = (uint8_t)(acc | M_DONE);
	*out = acc;
	return H2EMV_OK;
}

/* A match below a visible node: the child indexes leading to it. */
typedef struct hit {
	uint32_t from;          /* the visible node (index in vn) */
	uint32_t len;
	uint32_t path[EMV_MAX_DEPTH];
} hit;

/* The oldest and the newest matches, in tree (= time) order. */
typedef struct hits {
	hit first[EMV_SEARCH_SIDE], last[EMV_SEARCH_SIDE];
	size_t total;
} hits;

static void record(hits *h, uint32_t from, const uint32_t *path, uint32_t len)
{
	hit *t = h->total < EMV_SEARCH_SIDE ? &h->first[h->total]
	                                    : &h->last[h->total % EMV_SEARCH_SIDE];
	t->from = from;
	t->len = len;
	memcpy(t->path, path, len * sizeof *path);
	h->total++;
}

/* Walk down the subtrees that hold matches, recording the deepest ones. */
static int collect(emv_explorer *x, const h2emv_node *n, const query *q, uint8_t mode,
                   uint32_t from, uint32_t *path, uint32_t len, hits *h, h2emv_error *err)
{
	for (size_t c = 0; c < h2emv_node_child_count(n) && len < EMV_MAX_DEPTH; c++) {
		const h2emv_node *k;
		uint8_t sub;
		int rc = child(&k, x, n, c, err);
		if (rc == H2EMV_OK && !in_window(k, q))
			continue;
		if (rc == H2EMV_OK)
			rc = below(x, k, q, (int)(x->vn[from].depth + len + 1), &sub, err);
		if (rc)
			return rc;
		path[len] = (uint32_t)c;
		if (sub & mode)
			rc = collect(x, k, q, mode, from, path, len + 1, h, err);
		else if (self_flags(k, q) & mode)
			record(h, from, path, len + 1);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

/* Open the nodes on the way from a visible node to a match. */
static int open_hit(emv_explorer *x, const hit *t, size_t *opened, h2emv_error *err)
{
	uint32_t cur = t->from;
	for (uint32_t k = 0; k < t->len; k++) {
		int o = 0, rc = emv_ex_open(x, cur, &o, err);
		if (rc)
			return rc;
		*opened += (size_t)o;
		if (!x->vn[cur].open || t->path[k] >= x->vn[cur].n_kids)
			break; /* a size limit */
		cur = x->vn[cur].kids + t->path[k];
	}
	return H2EMV_OK;
}

int emv_ex_search(emv_explorer *x, const char *text, int64_t t0, int64_t t1, size_t *opened,
                  int *placeholders, h2emv_error *err)
{
	*opened = 0;
	*placeholders = 0;
	x->cut = 0;
	query q;
	q.k = emv_terms(q.t, 8, text ? text : "", text ? strlen(text) : 0);
	q.t0 = t1 > 0 ? t0 : 1;
	q.t1 = t1 > 0 ? t1 : 0;
	if (!q.k)
		return H2EMV_OK;
	/* the search is per query: forget what the last one found */
	ht_clear(&x->memo_ix);
	x->memo_n = 0;
	x->reads = 0;
	uint8_t found = 0;
	for (size_t i = 1; i < x->n; i++) {
		uint8_t sub = 0;
		int skip = x->vn[i].open || !in_window(x->vn[i].node, &q);
		int rc = skip ? H2EMV_OK : below(x, x->vn[i].node, &q, x->vn[i].depth, &sub, err);
		if (rc)
			return rc;
		found |= sub;
	}
	uint8_t mode = found & M_ALL ? M_ALL : found & M_ANY ? M_ANY : found & M_PLACE ? M_PLACE : 0;
	*placeholders = mode == M_PLACE;
	if (!mode)
		return H2EMV_OK;
	hits *h = calloc(1, sizeof *h);
	uint32_t *path = malloc(EMV_MAX_DEPTH * sizeof *path);
	int rc = h && path ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t n = x->n;
	for (size_t i = 1; rc == H2EMV_OK && i < n; i++) {
		uint8_t sub = 0;
		if (x->vn[i].open || !in_window(x->vn[i].node, &q))
			continue;
		rc = below(x, x->vn[i].node, &q, x->vn[i].depth, &sub, err);
		if (rc == H2EMV_OK && (sub & mode))
			rc = collect(x, x->vn[i].node, &q, mode, (uint32_t)i, path, 0, h, err);
	}
	size_t n_first = h && h->total < EMV_SEARCH_SIDE ? h->total : EMV_SEARCH_SIDE;
	for (size_t j = 0; rc == H2EMV_OK && j < n_first; j++)
		rc = open_hit(x, &h->first[j], opened, err);
	for (size_t j = EMV_SEARCH_SIDE; rc == H2EMV_OK && h && j < h->total; j++)
		if (j + EMV_SEARCH_SIDE >= h->total)
			rc = open_hit(x, &h->last[j % EMV_SEARCH_SIDE], opened, err);
	free(h);
	free(path);
	return rc;
}
