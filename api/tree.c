/*
 * tree.c — the builder's in-memory working tree: load from a snapshot,
 * change with path copying, commit as a new snapshot.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api/facts.h"
#include "api/tree.h"

static char empty_summary[1];

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
	return n;
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
	free(n);
}

void tree_touch(tnode *n)
{
	for (; n && !n->dirty; n = n->parent)
		n->dirty = 1;
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

int tree_retire(tree *t, tnode *n)
{
	if (!n->stored)
		return H2EMV_OK;
	if (t->n_dead == t->cap_dead) {
		size_t cap = t->cap_dead ? t->cap_dead * 2 : 64;
		eng_ref *d = realloc(t->dead, cap * sizeof *d);
		if (!d)
			return H2EMV_ENOMEM;
		t->dead = d;
		t->cap_dead = cap;
	}
	t->dead[t->n_dead].id = n->id;
	t->dead[t->n_dead].version = n->stored;
	t->n_dead++;
	return H2EMV_OK;
}

void tree_drop(tree *t, tnode *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->n_kids; i++)
		tree_drop(t, n->kids[i]);
	tree_retire(t, n);
	t->n_nodes--;
	node_free(n);
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

int tree_set_payload(tnode *n, const void *p, size_t len)
{
	if (n->payload_len == len && (len == 0 || !memcmp(n->payload, p, len)))
		return H2EMV_OK;
	uint8_t *c = NULL;
	if (len && !(c = malloc(len)))
		return H2EMV_ENOMEM;
	if (len)
		memcpy(c, p, len);
	free(n->payload);
	n->payload = c;
	n->payload_len = len;
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

uint64_t tree_size_l3(const tnode *n)
{
	uint64_t c = n->level >= 3 && n->kind != H2EMV_KIND_ROOT ? 1 : 0;
	if (n->level > 3)
		for (uint32_t i = 0; i < n->n_kids; i++)
			c += tree_size_l3(n->kids[i]);
	return c;
}

/* ------------------------------------------------------------------ load -- */

static int load_node(tnode **out, tree *t, eng_read *r, eng_ref ref, int depth, h2emv_error *err)
{
	if (depth > 64)
		return eng_fail(err, H2EMV_ECORRUPT, "the tree is deeper than 64 levels");
	eng_node *e;
	int rc = eng_node_get(&e, r, ref, err);
	if (rc == H2EMV_ENOTFOUND) /* the tree refers to it: damage (issue 21) */
		rc = eng_fail(err, H2EMV_ECORRUPT, "damaged: node %llu version %u, which the tree "
		              "refers to, is missing", (unsigned long long)ref.id, ref.version);
	if (rc)
		return rc;
	tnode *n = calloc(1, sizeof *n);
	if (!n) {
		free(e);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory loading the tree");
	}
	n->id = e->id;
	n->stored = e->version;
	n->level = e->level;
	n->kind = e->kind;
	n->t_start = e->t_start;
	n->t_end = e->t_end;
	n->expiry = e->expiry;
	n->sub_min = INT64_MIN;
	n->summary = empty_summary;
	t->n_nodes++;
	if ((e->summary_len && tree_set_summary(n, e->summary, e->summary_len)) ||
	    (e->payload_len && tree_set_payload(n, e->payload, e->payload_len)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory loading the tree");
	n->dirty = 0;
	if (rc == H2EMV_OK && e->n_children) {
		n->kids = calloc(e->n_children, sizeof *n->kids);
		n->cap_kids = e->n_children;
		if (!n->kids)
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory loading the tree");
	}
	for (uint32_t i = 0; rc == H2EMV_OK && i < e->n_children; i++) {
		tnode *c;
		rc = load_node(&c, t, r, e->children[i], depth + 1, err);
		if (rc == H2EMV_OK) {
			c->parent = n;
			n->kids[n->n_kids++] = c;
		}
	}
	free(e);
	if (rc) {
		tree_drop(t, n);
		return rc;
	}
	*out = n;
	return H2EMV_OK;
}

int tree_load(tree *t, eng_env *env, h2emv_error *err)
{
	memset(t, 0, sizeof *t);
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
	if (rc == H2EMV_OK)
		rc = load_node(&t->root, t, r, s.root, 0, err);
	eng_read_end(r);
	if (rc)
		return rc;
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
	eng_node *e = calloc(1, sizeof *e + n->n_kids * sizeof(eng_ref));
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
	e->n_children = n->n_kids;
	for (uint32_t i = 0; i < n->n_kids; i++) {
		e->children[i].id = n->kids[i]->id;
		e->children[i].version = n->kids[i]->stored;
	}
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
			.n_nodes_tree = tree_size_l3(t->root), .next_node_id = t->next_id,
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

static void free_all(tnode *n)
{
	for (uint32_t i = 0; i < n->n_kids; i++)
		free_all(n->kids[i]);
	node_free(n);
}

void tree_free_detached(tnode *n)
{
	if (n && !n->parent)
		free_all(n);
}

void tree_free(tree *t)
{
	if (t->root)
		free_all(t->root);
	free(t->dead);
	memset(t, 0, sizeof *t);
}
