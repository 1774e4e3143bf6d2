/*
 * hashtab.c — growing and emptying the hash table of hashtab.h; lookups
 * and insertions are inline in the header.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/hashtab.h"

#define HT_MIN_CAP 64u
#define HT_MAX_CAP ((size_t)1 << 31)

int ht_reserve(hashtab *t, size_t more)
{
	if (more > HT_MAX_CAP / 2 || t->n > HT_MAX_CAP / 2 - more)
		return -1;
	size_t need = (t->n + more) * 2;
	if (need <= t->cap)
		return 0;
	size_t cap = t->cap ? t->cap * 2 : HT_MIN_CAP;
	while (cap < need)
		cap *= 2;
	ht_slot *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return -1;
	/* the keys are distinct: each goes to the first free slot from its home */
	for (size_t i = 0; i < t->cap; i++) {
		const ht_slot *o = &t->slots[i];
		if (o->gen != t->gen)
			continue;
		size_t j = o->hash & (cap - 1);
		while (slots[j].gen)
			j = (j + 1) & (cap - 1);
		slots[j] = *o;
		slots[j].gen = 1;
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	t->gen = 1;
	return 0;
}

void ht_clear(hashtab *t)
{
	t->n = 0;
	if (++t->gen == 0) { /* wrapped: old stamps could match again */
		if (t->slots)
			memset(t->slots, 0, t->cap * sizeof *t->slots);
		t->gen = 1;
	}
}

void ht_free(hashtab *t)
{
	free(t->slots);
	memset(t, 0, sizeof *t);
}
