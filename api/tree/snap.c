/*
 * snap.c — snapshots and nodes through the public API. A snapshot owns a
 * read view and a cache of the nodes it decoded, so every node pointer it
 * hands out lives exactly as long as the snapshot.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "api/mem/mem.h"
#include "api/tree/tree.h"
#include "engine/hashtab.h"

/* Nodes decoded for a snapshot come from chunks released together at
 * close. */
typedef struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
} chunk;

struct h2emv_snap {
	h2emv_mem *mem;
	eng_read *r;
	eng_node_cursor *nodes; /* opened at the first prefetch */
	h2emv_snap_info info;
	/* The node cache: (id, version) -> h2emv_node *. A table handed on to
	 * the next snapshot is emptied by ht_clear, not cleared slot by slot. */
	hashtab cache;
	chunk *chunks;
	chunk *spare;           /* taken from the handle's pool at open */
};

#define CHUNK_BYTES (64u << 10)

/* ----------------------------------------------------- memory reuse -- */

/* What closed snapshots leave on their memory handle for the next one:
 * arena chunks (up to SPARE_CHUNKS of them) and a node table (up to
 * SPARE_SLOTS slots). Freeing a snapshot's few MiB hands them back to the
 * system (malloc trims the heap) and the next snapshot would take a page
 * fault per 4 KiB to get them again: on a full read that costs more than
 * the reading. A snapshot takes the whole pool when it opens and gives
 * back what it used when it closes, each under the handle's spare_lock, so
 * the reading itself never locks; snapshots open at the same time simply
 * allocate. Bounded (10 MiB a handle) and freed by h2emv_mem_close. */
#define SPARE_CHUNKS 128u          /* 8 MiB of CHUNK_BYTES chunks */
#define SPARE_SLOTS (128u << 10)   /* a 2 MiB table */

struct snap_spare {
	chunk *chunks;
	size_t n_chunks;
	hashtab cache;
};

static void free_chunks(chunk *c)
{
	while (c) {
		chunk *n = c->next;
		free(c);
		c = n;
	}
}

void snap_spare_free(struct snap_spare *sp)
{
	if (!sp)
		return;
	free_chunks(sp->chunks);
	ht_free(&sp->cache);
	free(sp);
}

static chunk *chunk_new(h2emv_snap *s, size_t cap)
{
	if (cap == CHUNK_BYTES && s->spare) {
		chunk *c = s->spare;
		s->spare = c->next;
		return c;
	}
	chunk *c = malloc(sizeof *c + cap);
	if (c)
		c->cap = cap;
	return c;
}

/* Take the handle's spare chunks and table; 1 when a table came with them. */
static int spare_take(h2emv_snap *s)
{
	h2emv_mem *m = s->mem;
	pthread_mutex_lock(&m->spare_lock);
	struct snap_spare *sp = m->spare;
	int got = 0;
	if (sp) {
		s->spare = sp->chunks;
		sp->chunks = NULL;
		sp->n_chunks = 0;
		if (sp->cache.slots) {
			s->cache = sp->cache;
			memset(&sp->cache, 0, sizeof sp->cache);
			got = 1;
		}
	}
	pthread_mutex_unlock(&m->spare_lock);
	if (got)
		ht_clear(&s->cache);
	return got;
}

/* Give back what the closing snapshot `s` used, within the bounds above. */
static void spare_keep(h2emv_snap *s)
{
	h2emv_mem *m = s->mem;
	pthread_mutex_lock(&m->spare_lock);
	struct snap_spare *sp = m->spare;
	if (!sp)
		sp = m->spare = calloc(1, sizeof *sp);
	chunk *lists[2] = { s->chunks, s->spare };
	s->chunks = s->spare = NULL;
	for (int l = 0; l < 2; l++)
		while (lists[l]) {
			chunk *c = lists[l];
			lists[l] = c->next;
			if (sp && c->cap == CHUNK_BYTES && sp->n_chunks < SPARE_CHUNKS) {
				c->next = sp->chunks;
				sp->chunks = c;
				sp->n_chunks++;
			} else {
				free(c);
			}
		}
	if (sp && s->cache.slots && s->cache.cap <= SPARE_SLOTS && s->cache.cap >= sp->cache.cap) {
		ht_free(&sp->cache);
		sp->cache = s->cache;
		memset(&s->cache, 0, sizeof s->cache);
	}
	pthread_mutex_unlock(&m->spare_lock);
	ht_free(&s->cache);
}

static void *arena_alloc(void *ctx, size_t n)
{
	h2emv_snap *s = ctx;
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	chunk *c = s->chunks;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;
		c = chunk_new(s, cap);
		if (!c)
			return NULL;
		c->used = 0;
		if (cap > CHUNK_BYTES && s->chunks) {
			/* a big one is full at once: keep filling the current chunk */
			c->next = s->chunks->next;
			s->chunks->next = c;
		} else {
			c->next = s->chunks;
			s->chunks = c;
		}
	}
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

/* ------------------------------------------------------- node cache -- */

/* Four consecutive ids (siblings usually are) share a hashed group of
 * four slots, one cache line: a walk touches a quarter of the lines a
 * plain hash would. */
static uint32_t hash_ref(uint64_t id, uint32_t v)
{
	uint64_t h = (id >> 2) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)v * 0xC2B2AE3D27D4EB4Full);
	h ^= h >> 31;
	return (uint32_t)(h << 2 | (id & 3));
}

static int node_is(const void *ctx, uintptr_t val, const void *key)
{
	(void)ctx;
	const h2emv_node *n = (const h2emv_node *)val;
	const h2emv_ref *r = key;
	return n->e.id == r->id && n->e.version == r->version;
}

/* The slot of `ref`: in use if the node is cached, else where it goes
 * (the table has slots: cache_reserve has run). */
static ht_slot *cache_find(h2emv_snap *s, uint64_t id, uint32_t version)
{
	h2emv_ref r = { id, version };
	return ht_find(&s->cache, hash_ref(id, version), node_is, NULL, &r);
}

static h2emv_node *cache_get(h2emv_snap *s, uint64_t id, uint32_t version)
{
	ht_slot *sl = cache_find(s, id, version);
	return ht_used(&s->cache, sl) ? (h2emv_node *)sl->val : NULL;
}

static void cache_put(h2emv_snap *s, ht_slot *sl, h2emv_node *node)
{
	ht_put(&s->cache, sl, hash_ref(node->e.id, node->e.version), (uintptr_t)node);
}

/* Make room for `more` nodes. */
static int cache_reserve(h2emv_snap *s, size_t more)
{
	return ht_reserve(&s->cache, more) ? H2EMV_ENOMEM : H2EMV_OK;
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
	if (!s)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	s->mem = mem;
	if (!spare_take(s) && cache_reserve(s, 1)) {
		h2emv_snap_close(s);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
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
	/* the nodes' payloads point into the read view: end it last */
	spare_keep(snap);
	eng_node_cursor_close(snap->nodes);
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

int h2emv_snap_find_time(uint64_t *before, uint64_t *covering, h2emv_mem *mem, h2emv_time at,
                         h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_find_time: mem is NULL");
	h2emv_snap_info *list;
	size_t n;
	int rc = h2emv_snap_list(&list, &n, mem, err);
	if (rc)
		return rc;
	uint64_t b = 0, c = 0;
	for (size_t i = 0; i < n; i++) {
		if (list[i].t_now <= at && list[i].seq > b)
			b = list[i].seq;
		if (list[i].t_now >= at && (!c || list[i].seq < c))
			c = list[i].seq;
	}
	free(list);
	if (before)
		*before = b;
	if (covering)
		*covering = c;
	if (!n)
		return eng_fail(err, H2EMV_ENOTFOUND,
		                "nothing has been built yet: run `h2emv build` first");
	return H2EMV_OK;
}

int h2emv_snap_at(uint64_t *out, h2emv_mem *mem, h2emv_time at, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_at: out is NULL");
	*out = 0;
	int rc = h2emv_snap_find_time(out, NULL, mem, at, err);
	if (rc == H2EMV_OK && !*out) {
		char when[H2EMV_TIME_TEXT];
		rc = eng_fail(err, H2EMV_ENOTFOUND, "no snapshot is as old as %s UTC",
		              h2emv_time_format(when, at, H2EMV_TIME_HUMAN));
	}
	return rc;
}

void snap_trim(h2emv_snap *s)
{
	chunk *c = s->chunks;
	s->chunks = NULL;
	while (c) { /* keep the usual chunks for the nodes read next */
		chunk *next = c->next;
		if (c->cap == CHUNK_BYTES) {
			c->next = s->spare;
			s->spare = c;
		} else {
			free(c);
		}
		c = next;
	}
	ht_clear(&s->cache);
}

h2emv_mem *snap_mem(const h2emv_snap *snap)
{
	return snap->mem;
}

eng_read *snap_read(const h2emv_snap *snap)
{
	return snap->r;
}

int h2emv_snap_node(const h2emv_node **out, h2emv_snap *snap, h2emv_ref ref, h2emv_error *err)
{
	if (!out || !snap)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_node: bad arguments");
	if (cache_reserve(snap, 1))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	ht_slot *sl = cache_find(snap, ref.id, ref.version);
	if (!ht_used(&snap->cache, sl)) {
		eng_node *n;
		eng_ref er = { ref.id, ref.version };
		int rc = eng_node_get_with(&n, snap->r, er, arena_alloc, snap, err);
		if (rc)
			return rc;
		cache_put(snap, sl, (h2emv_node *)n);
	}
	*out = (const h2emv_node *)sl->val;
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

/* A node's children as this snapshot has read them, so a walk finds child
 * i without hashing. Hung on the node's `aux`; `owner` tells a parent read
 * by another snapshot, whose nodes must not be handed out here. */
typedef struct kids {
	h2emv_snap *owner;
	h2emv_node *node[];
} kids;

/* The children cache of `parent` if it belongs to `snap`: one is made the
 * first time (NULL if out of memory or `parent` is not this snapshot's). */
static kids *kids_of(h2emv_snap *snap, const h2emv_node *parent)
{
	kids *k = parent->e.aux;
	if (k || cache_get(snap, parent->e.id, parent->e.version) != parent)
		return k && k->owner == snap ? k : NULL;
	size_t n = parent->e.n_children;
	k = arena_alloc(snap, sizeof *k + n * sizeof k->node[0]);
	if (!k)
		return NULL;
	k->owner = snap;
	memset(k->node, 0, n * sizeof k->node[0]);
	/* the snapshot owns the node: filling in its cache is not a change a
	 * reader can see */
	((h2emv_node *)parent)->e.aux = k;
	return k;
}

/* Read child i and the uncached siblings after it in one cursor pass: a
 * walker asking for child i asks for i + 1 next. */
static int prefetch(h2emv_snap *snap, const h2emv_node *parent, kids *kc, size_t i,
                    h2emv_error *err)
{
	eng_ref refs[PREFETCH];
	eng_node *got[PREFETCH];
	size_t at[PREFETCH];
	ht_slot *where[PREFETCH];
	size_t n = 0, nc = parent->e.n_children;
	/* no growth below, so the slots found stay put */
	if (cache_reserve(snap, (nc - i < PREFETCH ? nc - i : PREFETCH) + 1))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	/* the slots are all over the table: ask for them together */
	for (size_t j = i; j < nc && j < i + PREFETCH; j++) {
		const eng_ref *r = &parent->e.children[j];
		__builtin_prefetch(ht_home(&snap->cache, hash_ref(r->id, r->version)));
	}
	for (size_t j = i; j < nc && n < PREFETCH; j++) {
		if (kc && kc->node[j])
			continue;
		const eng_ref *r = &parent->e.children[j];
		ht_slot *sl = cache_find(snap, r->id, r->version);
		if (ht_used(&snap->cache, sl)) {
			if (kc)
				kc->node[j] = (h2emv_node *)sl->val;
			continue;
		}
		refs[n] = *r;
		at[n] = j;
		where[n] = sl;
		n++;
	}
	int rc = snap->nodes ? H2EMV_OK : eng_node_cursor_open(&snap->nodes, snap->r, err);
	if (rc)
		return rc;
	rc = eng_nodes_get_many(got, snap->r, snap->nodes, refs, n, arena_alloc, snap, err);
	if (rc)
		return rc;
	for (size_t k = 0; k < n; k++) {
		ht_slot *sl = where[k];
		/* taken since by a sibling that hashed alike, or by the same ref
		 * listed twice: look again */
		if (ht_used(&snap->cache, sl))
			sl = cache_find(snap, refs[k].id, refs[k].version);
		if (!ht_used(&snap->cache, sl))
			cache_put(snap, sl, (h2emv_node *)got[k]);
		if (kc)
			kc->node[at[k]] = (h2emv_node *)sl->val;
	}
	return H2EMV_OK;
}

int h2emv_node_child(const h2emv_node **out, h2emv_snap *snap, const h2emv_node *parent,
                     size_t i, h2emv_error *err)
{
	if (!out || !snap)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_node_child: bad arguments");
	if (!parent || i >= parent->e.n_children)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_node_child: index %zu out of range", i);
	kids *kc = kids_of(snap, parent);
	if (kc && kc->node[i]) {
		*out = kc->node[i];
		return H2EMV_OK;
	}
	h2emv_ref r = { parent->e.children[i].id, parent->e.children[i].version };
	/* a failed prefetch (a damaged sibling, say) is not this child's
	 * problem: fall back to reading it alone */
	if (parent->e.n_children > 1 || kc)
		prefetch(snap, parent, kc, i, NULL);
	if (kc && kc->node[i]) {
		*out = kc->node[i];
		return H2EMV_OK;
	}
	int rc = h2emv_snap_node(out, snap, r, err);
	if (rc == H2EMV_OK && kc)
		kc->node[i] = (h2emv_node *)*out;
	return rc;
}

h2emv_ref h2emv_node_ref(const h2emv_node *node)
{
	h2emv_ref r = { node->e.id, node->e.version };
	return r;
}

int h2emv_node_level(const h2emv_node *node)
{
	/* a root stored before issue 18 sat at 15, above levels that never exist */
	if (node->e.kind == H2EMV_KIND_ROOT && node->e.level == TREE_ROOT_LEVEL_OLD)
		return TREE_ROOT_LEVEL;
	return node->e.level;
}
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
