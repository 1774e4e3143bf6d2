/*
 * hashtab.h — the one hash table of the library, engine/ and api/ alike
 * (it knows nothing of either): open addressing with linear probing over
 * slots that hold 32 bits of a key's hash and a value (an index into the
 * caller's own array, or a pointer). The caller keeps the
 * keys and says, through a comparison function, whether a slot holds the
 * key it looks for. A slot is in use when its `gen` equals the table's, so
 * emptying a table (to reuse its memory) costs one increment, not a pass
 * over the slots. At most half full; at most 2^31 slots.
 *
 * Ours rather than uthash's: the snapshot's node cache holds every node a
 * snapshot reads and is handed from snapshot to snapshot; uthash would add
 * a 56-byte handle to every node and cannot be emptied in O(1).
 */
#ifndef H2EMV_ENGINE_HASHTAB_H
#define H2EMV_ENGINE_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct ht_slot {
	uint32_t gen;  /* in use when equal to the table's gen */
	uint32_t hash; /* the low 32 bits of the key's hash; its home is hash & (cap - 1) */
	uintptr_t val;
} ht_slot;

/* A zeroed hashtab is an empty table without slots. */
typedef struct hashtab {
	ht_slot *slots;
	size_t cap;   /* 0 or a power of two */
	size_t n;     /* slots in use */
	uint32_t gen;
} hashtab;

/* Does the slot `val` hold the key `key`? `ctx` is what the caller passed
 * to ht_find (where its keys live). */
typedef int (*ht_eq)(const void *ctx, uintptr_t val, const void *key);

/* Make room for `more` entries beyond the `n` held, growing (and rehashing)
 * so the table stays at most half full. Slots returned by ht_find before a
 * growth are stale after it. 0, or -1 when out of memory (table unchanged). */
int ht_reserve(hashtab *t, size_t more);
/* Empty the table, keeping its slots. */
void ht_clear(hashtab *t);
/* Free the slots; the table is zeroed (empty, reusable). */
void ht_free(hashtab *t);

static inline int ht_used(const hashtab *t, const ht_slot *s)
{
	return s->gen == t->gen;
}

/* The slot of the first probe for `hash` (for __builtin_prefetch); the
 * table must have slots. */
static inline const ht_slot *ht_home(const hashtab *t, uint32_t hash)
{
	return &t->slots[hash & (t->cap - 1)];
}

/* The slot holding the key `key` of hash `hash` (eq(ctx, val, key) true),
 * or, when the key is absent, the free slot where ht_put puts it (check
 * with ht_used). NULL when the table has no slots. Inline so the compiler
 * can inline `eq` into the probe loop. */
static inline ht_slot *ht_find(const hashtab *t, uint32_t hash, ht_eq eq, const void *ctx,
                               const void *key)
{
	if (!t->cap)
		return NULL;
	size_t m = t->cap - 1;
	for (size_t j = hash & m;; j = (j + 1) & m) {
		ht_slot *s = &t->slots[j];
		if (s->gen != t->gen || (s->hash == hash && eq(ctx, s->val, key)))
			return s;
	}
}

/* The free slot where a key of hash `hash` known to be absent goes; the
 * table has room (ht_reserve). */
static inline ht_slot *ht_vacant(const hashtab *t, uint32_t hash)
{
	size_t m = t->cap - 1, j = hash & m;
	while (t->slots[j].gen == t->gen)
		j = (j + 1) & m;
	return &t->slots[j];
}

/* Fill the free slot `s` that ht_find or ht_vacant returned (no growth
 * since). The
 * caller has reserved room (ht_reserve) for it. */
static inline void ht_put(hashtab *t, ht_slot *s, uint32_t hash, uintptr_t val)
{
	s->gen = t->gen;
	s->hash = hash;
	s->val = val;
	t->n++;
}

#endif
