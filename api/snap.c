/*
 * snap.c — snapshots and nodes through the public API. A snapshot owns a
 * read view and a cache of the nodes it decoded, so every node pointer it
 * hands out lives exactly as long as the snapshot.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "api/mem.h"

typedef struct slot {
	h2emv_node *node;
} slot;

/* Nodes decoded for a snapshot come from chunks freed together at close. */
typedef struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
} chunk;

struct h2emv_snap {
	h2emv_mem *mem;
	eng_read *r;
	h2emv_snap_info info;
	slot *slots;
	size_t cap, n;
	chunk *chunks;
};

#define CHUNK_BYTES (64u << 10)

static void *arena_alloc(void *ctx, size_t n)
{
	h2emv_snap *s = ctx;
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	chunk *c = s->chunks;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;
		c = malloc(sizeof *c + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->next = s->chunks;
		s->chunks = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

static size_t hash_ref(uint64_t id, uint32_t v)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ull ^ ((uint64_t)v * 0xC2B2AE3D27D4EB4Full);
	return (size_t)(h ^ (h >> 31));
}

static h2emv_node **cache_find(h2emv_snap *s, h2emv_ref ref)
{
	size_t j = hash_ref(ref.id, ref.version) & (s->cap - 1);
	while (s->slots[j].node) {
		const eng_node *e = &s->slots[j].node->e;
		if (e->id == ref.id && e->version == ref.version)
			break;
		j = (j + 1) & (s->cap - 1);
	}
	return &s->slots[j].node;
}

static int cache_grow(h2emv_snap *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256;
	slot *old = s->slots;
	size_t ocap = s->cap;
	s->slots = calloc(cap, sizeof *s->slots);
	if (!s->slots) {
		s->slots = old;
		return H2EMV_ENOMEM;
	}
	s->cap = cap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].node) {
			h2emv_ref r = { old[i].node->e.id, old[i].node->e.version };
			*cache_find(s, r) = old[i].node;
		}
	free(old);
	return H2EMV_OK;
}

static int is_pinned(eng_read *r, uint64_t seq)
{
	h2emv_pin *pins;
	size_t n;
	int pinned = 0;
	if (eng_pin_list(&pins, &n, r, NULL) != H2EMV_OK)
		return 0;
	for (size_t i = 0; i < n; i++)
		pinned |= pins[i].seq == seq;
	free(pins);
	return pinned;
}

static void info_from(h2emv_snap_info *out, const eng_snap *s, int pinned)
{
	out->seq = s->seq;
	out->root.id = s->root.id;
	out->root.version = s->root.version;
	out->t_now = s->t_now;
	out->created = s->created;
	out->build_cursor = s->build_cursor;
	out->rules_version = s->rules_version;
	out->n_nodes = s->n_nodes;
	out->pinned = pinned;
}

int h2emv_snap_open(h2emv_snap **out, h2emv_mem *mem, uint64_t seq, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_open: bad arguments");
	h2emv_snap *s = calloc(1, sizeof *s);
	if (!s || cache_grow(s)) {
		free(s);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	s->mem = mem;
	int rc = eng_read_begin(&s->r, mem->env, err);
	eng_snap es;
	if (rc == H2EMV_OK)
		rc = eng_snap_get(&es, s->r, seq, err);
	if (rc) {
		h2emv_snap_close(s);
		return rc;
	}
	info_from(&s->info, &es, is_pinned(s->r, es.seq));
	*out = s;
	return H2EMV_OK;
}

void h2emv_snap_close(h2emv_snap *snap)
{
	if (!snap)
		return;
	while (snap->chunks) {
		chunk *c = snap->chunks;
		snap->chunks = c->next;
		free(c);
	}
	free(snap->slots);
	eng_read_end(snap->r);
	free(snap);
}

void h2emv_snap_get_info(h2emv_snap_info *out, const h2emv_snap *snap)
{
	*out = snap->info;
}

int h2emv_snap_list(h2emv_snap_info **out, size_t *n_out, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !n_out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_list: bad arguments");
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	eng_snap *list = NULL;
	size_t n = 0;
	h2emv_pin *pins = NULL;
	size_t np = 0;
	rc = eng_snap_list(&list, &n, r, err);
	if (rc == H2EMV_OK)
		rc = eng_pin_list(&pins, &np, r, err);
	eng_read_end(r);
	h2emv_snap_info *info = rc ? NULL : calloc(n ? n : 1, sizeof *info);
	if (rc == H2EMV_OK && !info)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (size_t i = 0; rc == H2EMV_OK && i < n; i++) {
		int pinned = 0;
		for (size_t j = 0; j < np; j++)
			pinned |= pins[j].seq == list[i].seq;
		info_from(&info[i], &list[i], pinned);
	}
	free(list);
	free(pins);
	if (rc)
		return rc;
	*out = info;
	*n_out = n;
	return H2EMV_OK;
}

int h2emv_snap_node(const h2emv_node **out, h2emv_snap *snap, h2emv_ref ref, h2emv_error *err)
{
	if (!out || !snap)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_node: bad arguments");
	if ((snap->n + 1) * 2 > snap->cap && cache_grow(snap))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	h2emv_node **slotp = cache_find(snap, ref);
	if (!*slotp) {
		eng_node *n;
		eng_ref er = { ref.id, ref.version };
		int rc = eng_node_get_with(&n, snap->r, er, arena_alloc, snap, err);
		if (rc)
			return rc;
		*slotp = (h2emv_node *)n;
		snap->n++;
	}
	*out = *slotp;
	return H2EMV_OK;
}

int h2emv_snap_root(const h2emv_node **out, h2emv_snap *snap, h2emv_error *err)
{
	if (!snap)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_root: snap is NULL");
	if (snap->info.root.id == 0)
		return eng_fail(err, H2EMV_ENOTFOUND, "snapshot %llu has an empty tree",
		                (unsigned long long)snap->info.seq);
	return h2emv_snap_node(out, snap, snap->info.root, err);
}

#define PREFETCH 64

/* Read child i and the uncached siblings after it in one cursor pass: a
 * walker asking for child i asks for i + 1 next. */
static int prefetch(h2emv_snap *snap, const h2emv_node *parent, size_t i, h2emv_error *err)
{
	eng_ref refs[PREFETCH];
	eng_node *got[PREFETCH];
	size_t n = 0;
	for (size_t j = i; j < parent->e.n_children && n < PREFETCH; j++) {
		h2emv_ref r = { parent->e.children[j].id, parent->e.children[j].version };
		if (*cache_find(snap, r))
			continue;
		refs[n].id = r.id;
		refs[n].version = r.version;
		n++;
	}
	if ((snap->n + n + 1) * 2 > snap->cap) {
		while ((snap->n + n + 1) * 2 > snap->cap)
			if (cache_grow(snap))
				return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	int rc = eng_nodes_get_many(got, snap->r, refs, n, arena_alloc, snap, err);
	if (rc)
		return rc;
	for (size_t k = 0; k < n; k++) {
		h2emv_ref r = { refs[k].id, refs[k].version };
		h2emv_node **slotp = cache_find(snap, r);
		if (!*slotp) {
			*slotp = (h2emv_node *)got[k];
			snap->n++;
		}
	}
	return H2EMV_OK;
}

int h2emv_node_child(const h2emv_node **out, h2emv_snap *snap, const h2emv_node *parent,
                     size_t i, h2emv_error *err)
{
	if (!parent || i >= parent->e.n_children)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_node_child: index %zu out of range", i);
	h2emv_ref r = { parent->e.children[i].id, parent->e.children[i].version };
	/* a failed prefetch (a damaged sibling, say) is not this child's
	 * problem: fall back to reading it alone */
	if (!*cache_find(snap, r) && parent->e.n_children > 1)
		prefetch(snap, parent, i, NULL);
	return h2emv_snap_node(out, snap, r, err);
}

h2emv_ref h2emv_node_ref(const h2emv_node *node)
{
	h2emv_ref r = { node->e.id, node->e.version };
	return r;
}

int h2emv_node_level(const h2emv_node *node) { return node->e.level; }
h2emv_kind h2emv_node_kind(const h2emv_node *node) { return (h2emv_kind)node->e.kind; }
h2emv_time h2emv_node_start(const h2emv_node *node) { return node->e.t_start; }
h2emv_time h2emv_node_end(const h2emv_node *node) { return node->e.t_end; }
h2emv_time h2emv_node_expiry(const h2emv_node *node) { return node->e.expiry; }

const char *h2emv_node_summary(const h2emv_node *node, size_t *len)
{
	if (len)
		*len = node->e.summary_len;
	return node->e.summary;
}

const void *h2emv_node_payload(const h2emv_node *node, size_t *len)
{
	if (len)
		*len = node->e.payload_len;
	return node->e.payload;
}

size_t h2emv_node_child_count(const h2emv_node *node) { return node->e.n_children; }

h2emv_ref h2emv_node_child_ref(const h2emv_node *node, size_t i)
{
	h2emv_ref r = { 0, 0 };
	if (i < node->e.n_children) {
		r.id = node->e.children[i].id;
		r.version = node->e.children[i].version;
	}
	return r;
}
