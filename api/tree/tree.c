/*
 * tree.c — the builder's in-memory working tree: load from a snapshot,
 * change with path copying, commit as a new snapshot.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api/tree/facts.h"
#include "api/tree/tree.h"

static char empty_summary[1];

static void free_all(tree *t, tnode *n);

/* Does `n` count in the tree size N (tree_size_l3)? */
static int counted(const tnode *n)
{
	return n->level >= 3 && n->kind != H2EMV_KIND_ROOT && !n->nested;
}

tnode *tree_node_new(tree *t, int level, int kind)
{
	tnode *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->id = t->next_id++;
	n->level = (uint8_t)level;
	n->kind = (uint8_t)kind;
	n->dirty = 1;
	n->expiry = H2EMV_TIME_NEVER;
	n->sub_min = INT64_MIN;
	n->summary = empty_summary;
	t->n_nodes++;
	t->n_l3 += (uint64_t)counted(n);
	return n;
}

void tree_nest(tree *t, tnode *g)
{
	if (!g->nested && counted(g))
		t->n_l3--;
	g->nested = 1;
}

void tree_raise_expiry(tnode *n)
{
	for (tnode *p = n->parent; p && p->kind != H2EMV_KIND_ROOT; p = p->parent) {
		if (p->expiry >= n->expiry)
			break;
		p->expiry = n->expiry;
		tree_touch(p);
	}
}

/* An unknown bound's ancestors are unknown (children read from the store
 * take their parent's bound, read_kids), so the walk stops at the first. */
void tree_mark_unknown(tnode *n)
{
	for (; n && n->sub_min != INT64_MIN; n = n->parent)
		n->sub_min = INT64_MIN;
}

static void node_free(tnode *n)
{
	facts_drop(n);
	if (n->summary != empty_summary)
		free(n->summary);
	free(n->payload);
	free(n->kids);
	free(n->refs);
	free(n->refs_sub);
	free(n);
}

int tree_insert(tnode *parent, tnode *child, uint32_t at)
{
	if (parent->n_kids == parent->cap_kids) {
		uint32_t cap = parent->cap_kids ? parent->cap_kids * 2 : 4;
		tnode **k = realloc(parent->kids, cap * sizeof *k);
		if (!k)
			return H2EMV_ENOMEM;
		parent->kids = k;
		parent->cap_kids = cap;
	}
	if (at > parent->n_kids)
		at = parent->n_kids;
	memmove(parent->kids + at + 1, parent->kids + at,
	        (parent->n_kids - at) * sizeof *parent->kids);
	parent->kids[at] = child;
	parent->n_kids++;
	child->parent = parent;
	tree_touch(parent);
	child->dirty = child->dirty || !child->stored;
	tree_raise_expiry(child);
	tree_mark_unknown(parent);
	return H2EMV_OK;
}

tnode *tree_detach(tnode *parent, uint32_t i)
{
	tnode *c = parent->kids[i];
	memmove(parent->kids + i, parent->kids + i + 1, (parent->n_kids - i - 1) * sizeof *parent->kids);
	parent->n_kids--;
	c->parent = NULL;
	tree_touch(parent);
	return c;
}

static int add_dead(tree *t, eng_ref ref)
{
	if (t->n_dead == t->cap_dead) {
		size_t cap = t->cap_dead ? t->cap_dead * 2 : 64;
		eng_ref *d = realloc(t->dead, cap * sizeof *d);
		if (!d)
			return H2EMV_ENOMEM;
		t->dead = d;
		t->cap_dead = cap;
	}
	t->dead[t->n_dead++] = ref;
	return H2EMV_OK;
}

int tree_retire(tree *t, tnode *n)
{
	return n->stored ? add_dead(t, (eng_ref){ n->id, n->stored }) : H2EMV_OK;
}

/* A node the tree refers to; missing, it is damage (issue 21), not "not
 * found". */
static int get_referred(eng_node **e, eng_read *r, eng_ref ref, h2emv_error *err)
{
	int rc = eng_node_get(e, r, ref, err);
	if (rc == H2EMV_ENOTFOUND)
		rc = eng_fail(err, H2EMV_ECORRUPT, "damaged: node %llu version %u, which the tree "
		              "refers to, is missing", (unsigned long long)ref.id, ref.version);
	return rc;
}

/* List dead every version below a node whose children are `refs` (only in
 * the store), read one at a time: memory stays the depth of the subtree. */
static int drop_stored(tree *t, eng_read *r, const eng_ref *refs, uint32_t n, int parent_level,
                       int depth, h2emv_error *err)
{
	if (depth > 64)
		return eng_fail(err, H2EMV_ECORRUPT, "the tree is deeper than 64 levels");
	for (uint32_t i = 0; i < n; i++) {
		eng_node *e;
		int rc = get_referred(&e, r, refs[i], err);
		if (rc)
			return rc;
		t->n_read++;
		tnode probe = { .level = e->level, .kind = e->kind,
			        .nested = e->level == 3 && parent_level == 3 };
		t->n_l3 -= (uint64_t)counted(&probe);
		rc = add_dead(t, refs[i]) ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : H2EMV_OK;
		if (rc == H2EMV_OK)
			rc = drop_stored(t, r, e->children, e->n_children, e->level, depth + 1, err);
		free(e);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int drop_refs(tree *t, tnode *n, h2emv_error *err)
{
	if (!n->out)
		return H2EMV_OK;
	eng_read *r;
	int rc = eng_read_begin(&r, t->env, err);
	if (rc)
		return rc;
	rc = drop_stored(t, r, n->refs, n->n_refs, n->level, 0, err);
	eng_read_end(r);
	if (rc)
		return rc;
	free(n->refs);
	free(n->refs_sub);
	n->refs = NULL;
	n->refs_sub = NULL;
	n->n_refs = 0;
	n->out = 0;
	return H2EMV_OK;
}

int tree_drop(tree *t, tnode *n, h2emv_error *err)
{
	if (!n)
		return H2EMV_OK;
	int rc = drop_refs(t, n, err);
	for (uint32_t i = 0; rc == H2EMV_OK && i < n->n_kids; i++) {
		rc = tree_drop(t, n->kids[i], err);
		if (rc == H2EMV_OK)
			n->kids[i] = NULL;
	}
	if (rc) { /* what is left hangs nowhere: freed; the build stops */
		free_all(t, n);
		return rc;
	}
	if (tree_retire(t, n))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	t->n_nodes--;
	t->n_l3 -= (uint64_t)counted(n);
	node_free(n);
	return H2EMV_OK;
}

int tree_drop_kids(tree *t, tnode *n, h2emv_error *err)
{
	int rc = drop_refs(t, n, err);
	while (rc == H2EMV_OK && n->n_kids)
		rc = tree_drop(t, tree_detach(n, n->n_kids - 1), err);
	return rc;
}

int tree_set_summary(tnode *n, const char *s, size_t len)
{
	if (n->summary != empty_summary && strlen(n->summary) == len && !memcmp(n->summary, s, len))
		return H2EMV_OK;
	char *p = malloc(len + 1);
	if (!p)
		return H2EMV_ENOMEM;
	memcpy(p, s, len);
	p[len] = 0;
	if (n->summary != empty_summary)
		free(n->summary);
	n->summary = p;
	tree_touch(n);
	return H2EMV_OK;
}

void tree_fit_range(tnode *n)
{
	if (!n->n_kids)
		return;
	int64_t a = n->kids[0]->t_start, b = n->kids[n->n_kids - 1]->t_end;
	if (a != n->t_start || b != n->t_end) {
		n->t_start = a;
		n->t_end = b;
		tree_touch(n);
	}
}

uint32_t tree_index(const tnode *n)
{
	const tnode *p = n->parent;
	for (uint32_t i = 0; p && i < p->n_kids; i++)
		if (p->kids[i] == n)
			return i;
	return UINT32_MAX;
}

uint64_t tree_size_l3(const tree *t)
{
	return t->n_l3;
}

/* ------------------------------------------------------------------ load -- */

/* A node as stored, its children left in the store (refs). */
static tnode *node_of(tree *t, const eng_node *e, int parent_level)
{
	tnode *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->id = e->id;
	n->stored = e->version;
	n->level = e->level;
	n->kind = e->kind;
	n->nested = e->level == 3 && parent_level == 3;
	n->t_start = e->t_start;
	n->t_end = e->t_end;
	n->expiry = e->expiry;
	n->sub_min = INT64_MIN;
	n->summary = empty_summary;
	t->n_nodes++;
	if ((e->summary_len && tree_set_summary(n, e->summary, e->summary_len)) ||
	    (e->payload_len && tree_set_payload(n, e->payload, e->payload_len)) ||
	    (e->n_children && !(n->refs = malloc(e->n_children * sizeof *n->refs)))) {
		t->n_nodes--;
		node_free(n);
		return NULL;
	}
	if (e->n_children)
		memcpy(n->refs, e->children, e->n_children * sizeof *n->refs);
	n->n_refs = e->n_children;
	n->out = e->n_children > 0;
	n->dirty = 0;
	return n;
}

static int read_kids(tree *t, tnode *n, eng_read *r, h2emv_error *err)
{
	tnode **kids = calloc(n->n_refs, sizeof *kids);
	if (!kids)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory reading the tree");
	int rc = H2EMV_OK;
	uint32_t k = 0;
	for (; rc == H2EMV_OK && k < n->n_refs; k++) {
		eng_node *e;
		rc = get_referred(&e, r, n->refs[k], err);
		if (rc)
			break;
		t->n_read++;
		if (!(kids[k] = node_of(t, e, n->level)))
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory reading the tree");
		free(e);
		if (rc == H2EMV_OK) {
			kids[k]->parent = n;
			/* the child's bound when it was let go, or n's: a lower
			 * bound of τ in n's subtree is one in each child's (the
			 * forgetting pass need not walk them again) */
			int64_t own = n->refs_sub ? n->refs_sub[k] : INT64_MIN;
			kids[k]->sub_min = own > n->sub_min ? own : n->sub_min;
		}
	}
	if (rc) {
		for (uint32_t i = 0; i < n->n_refs; i++)
			if (kids[i])
				free_all(t, kids[i]);
		free(kids);
		return rc;
	}
	free(n->kids);
	n->kids = kids;
	n->n_kids = n->cap_kids = n->n_refs;
	free(n->refs);
	free(n->refs_sub);
	n->refs = NULL;
	n->refs_sub = NULL;
	n->n_refs = 0;
	n->out = 0;
	return H2EMV_OK;
}

int tree_kids(tree *t, tnode *n, h2emv_error *err)
{
	if (!n->out)
		return H2EMV_OK;
	eng_read *r;
	int rc = eng_read_begin(&r, t->env, err);
	if (rc)
		return rc;
	rc = read_kids(t, n, r, err);
	eng_read_end(r);
	return rc;
}

int tree_kids_all(tree *t, tnode *n, h2emv_error *err)
{
	int rc = tree_kids(t, n, err);
	for (uint32_t i = 0; rc == H2EMV_OK && i < n->n_kids; i++)
		rc = tree_kids_all(t, n->kids[i], err);
	return rc;
}

/* Nothing below `n` waits for a commit. */
static int all_clean(const tnode *n)
{
	if (n->dirty || n->fx_dirty || n->fx_stale)
		return 0;
	for (uint32_t i = 0; i < n->n_kids; i++)
		if (!all_clean(n->kids[i]))
			return 0;
	return 1;
}

int tree_shed(tree *t, tnode *n)
{
	if (n->out || !n->n_kids || !all_clean(n) || !n->stored)
		return 0;
	eng_ref *refs = malloc(n->n_kids * sizeof *refs);
	int64_t *sub = malloc(n->n_kids * sizeof *sub);
	if (!refs || !sub) {
		free(refs);
		free(sub);
		return 0; /* kept: only memory is lost */
	}
	for (uint32_t i = 0; i < n->n_kids; i++) {
		refs[i] = (eng_ref){ n->kids[i]->id, n->kids[i]->stored };
		sub[i] = n->kids[i]->sub_min;
		free_all(t, n->kids[i]);
	}
	free(n->kids);
	n->kids = NULL;
	n->refs = refs;
	n->refs_sub = sub;
	n->n_refs = n->n_kids;
	n->n_kids = n->cap_kids = 0;
	n->out = 1;
	return 1;
}

int tree_load(tree *t, eng_env *env, h2emv_error *err)
{
	memset(t, 0, sizeof *t);
	t->env = env;
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	eng_snap s;
	rc = eng_snap_get(&s, r, 0, NULL);
	if (rc == H2EMV_ENOTFOUND) {
		rc = eng_next_node_id(&t->next_id, r, err);
		eng_read_end(r);
		if (rc)
			return rc;
		t->root = tree_node_new(t, TREE_ROOT_LEVEL, H2EMV_KIND_ROOT);
		return t->root ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	if (rc == H2EMV_OK)
		rc = eng_next_node_id(&t->next_id, r, err);
	eng_node *e = NULL;
	if (rc == H2EMV_OK)
		rc = get_referred(&e, r, s.root, err);
	if (rc == H2EMV_OK && !(t->root = node_of(t, e, TREE_ROOT_LEVEL)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory reading the tree");
	free(e);
	if (rc == H2EMV_OK)
		rc = read_kids(t, t->root, r, err);
	eng_read_end(r);
	if (rc)
		return rc;
	t->n_l3 = s.n_nodes;
	if (t->root->kind == H2EMV_KIND_ROOT && t->root->level == TREE_ROOT_LEVEL_OLD)
		t->root->level = TREE_ROOT_LEVEL; /* written so with the next change */
	t->cursor = s.build_cursor;
	t->t_now = s.t_now;
	t->rules_version = s.rules_version;
	t->loaded_seq = s.seq;
	return H2EMV_OK;
}

/* ---------------------------------------------------------------- commit -- */

typedef struct flat {
	eng_node **nodes;
	size_t n, cap;
} flat;

static uint64_t content_hash(const tnode *n)
{
	XXH64_hash_t h = XXH3_64bits_withSeed(n->summary, strlen(n->summary), n->level);
	if (n->payload_len)
		h = XXH3_64bits_withSeed(n->payload, n->payload_len, h);
	return h;
}

/* Post-order: children get their new versions before the parent refers to them. */
static int collect(flat *f, tree *t, tnode *n, h2emv_error *err)
{
	if (!n->dirty)
		return H2EMV_OK;
	for (uint32_t i = 0; i < n->n_kids; i++) {
		int rc = collect(f, t, n->kids[i], err);
		if (rc)
			return rc;
	}
	if (facts_flush(n) || tree_retire(t, n))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t slen = strlen(n->summary);
	uint32_t n_children = n->out ? n->n_refs : n->n_kids;
	eng_node *e = calloc(1, sizeof *e + n_children * sizeof(eng_ref));
	if (!e || (f->n == f->cap && !(f->nodes = realloc(f->nodes, (f->cap = f->cap * 2 + 64) *
	                                                                  sizeof *f->nodes)))) {
		free(e);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	e->id = n->id;
	e->version = n->stored + 1;
	e->level = n->level;
	e->kind = n->kind;
	e->t_start = n->t_start;
	e->t_end = n->t_end;
	e->expiry = n->expiry;
	e->content_hash = content_hash(n);
	e->summary = n->summary;
	e->summary_len = slen;
	e->payload = n->payload;
	e->payload_len = n->payload_len;
	e->children = (eng_ref *)(e + 1);
	e->n_children = n_children;
	for (uint32_t i = 0; i < n->n_kids; i++) {
		e->children[i].id = n->kids[i]->id;
		e->children[i].version = n->kids[i]->stored;
	}
	if (n->out) /* changed itself (its τ, say), its children as stored */
		memcpy(e->children, n->refs, n->n_refs * sizeof *e->children);
	f->nodes[f->n++] = e;
	n->stored = e->version; /* the parent refers to this version */
	n->dirty = 0;
	return H2EMV_OK;
}

/* Undo the version bumps of a failed commit so a retry writes them again. */
static void unbump(flat *f, tnode *n)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->nodes[i]->id == n->id && f->nodes[i]->version == n->stored) {
			n->stored--;
			n->dirty = 1;
			break;
		}
	for (uint32_t i = 0; i < n->n_kids; i++)
		unbump(f, n->kids[i]);
}

int tree_commit(tree *t, eng_env *env, const eng_kv_ent *kv, size_t n_kv, uint64_t *seq,
                h2emv_error *err)
{
	flat f = { 0 };
	size_t dead_before = t->n_dead;
	int rc = collect(&f, t, t->root, err);
	if (rc == H2EMV_OK) {
		eng_commit c = {
			.nodes = f.nodes, .n_nodes = f.n, .dead = t->dead, .n_dead = t->n_dead,
			.root = { t->root->id, t->root->stored }, .t_now = t->t_now,
			.build_cursor = t->cursor, .rules_version = t->rules_version,
			.n_nodes_tree = t->n_l3, .next_node_id = t->next_id,
			.kv = kv, .n_kv = n_kv,
		};
		rc = eng_commit_snapshot(seq, env, &c, err);
	}
	if (rc) {
		unbump(&f, t->root);
		t->n_dead = dead_before; /* entries added by collect() are re-added on retry */
	} else {
		t->n_dead = 0;
	}
	for (size_t i = 0; i < f.n; i++)
		free(f.nodes[i]);
	free(f.nodes);
	return rc;
}

static void free_all(tree *t, tnode *n)
{
	for (uint32_t i = 0; i < n->n_kids; i++)
		if (n->kids[i])
			free_all(t, n->kids[i]);
	t->n_nodes--;
	node_free(n);
}

void tree_free_detached(tree *t, tnode *n)
{
	if (n && !n->parent)
		free_all(t, n);
}

void tree_free(tree *t)
{
	if (t->root)
		free_all(t, t->root);
	free(t->dead);
	memset(t, 0, sizeof *t);
}
