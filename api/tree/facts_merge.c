/*
 * facts_merge.c — merging typed facts: the same fact seen again counts
 * once more and widens its times, and a list kept under its cap drops the
 * least telling facts first (facts_trim).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "engine/hashtab.h"

/* --------------------------------------------------------------- merging -- */

static int priority(const fact *f)
{
	int p;
	switch (f->type) {
	case FT_ACT: p = f->status == FST_FAILED || f->status == FST_ABORTED ? 100 : 70; break;
	case FT_PERSON: p = 90; break;
	case FT_SPEECH: p = 80; break;
	case FT_PLACE: p = 60; break;
	case FT_TASK: p = 75; break;
	case FT_NOTE: p = f->status == FST_FAILED ? 95 : 72; break;
	default: p = 40;
	}
	uint32_t c = f->count;
	while (c > 1 && p < 100 + 30) {
		p++;
		c >>= 1;
	}
	return p;
}

typedef struct rank {
	int prio;
	int64_t t;
	size_t i;
} rank;

static int cmp_rank(const void *a, const void *b)
{
	const rank *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void facts_trim(facts *f, size_t cap)
{
	if (f->n <= cap)
		return;
	rank *r = malloc(f->n * sizeof *r);
	uint8_t *keep = calloc(f->n, 1);
	if (!r || !keep) {
		/* no memory to rank: keep the newest */
		for (size_t i = 0; i + cap < f->n; i++)
			fact_free(&f->v[i]);
		memmove(f->v, f->v + (f->n - cap), cap * sizeof *f->v);
		f->n = cap;
	} else {
		for (size_t i = 0; i < f->n; i++)
			r[i] = (rank){ priority(&f->v[i]), f->v[i].t1, i };
		qsort(r, f->n, sizeof *r, cmp_rank);
		for (size_t i = 0; i < cap; i++)
			keep[r[i].i] = 1;
		size_t j = 0;
		for (size_t i = 0; i < f->n; i++) {
			if (keep[i])
				f->v[j++] = f->v[i];
			else
				fact_free(&f->v[i]);
		}
		f->n = j;
	}
	f->trimmed = 1;
	free(r);
	free(keep);
}

static int copy_fact(fact *dst, const fact *src)
{
	*dst = *src;
	size_t lens[FS_N];
	for (int i = 0; i < FS_N; i++)
		lens[i] = src->s[i] ? strlen(src->s[i]) : 0;
	if (fact_strings(dst, (const char *const *)src->s, lens)) {
		memset(dst, 0, sizeof *dst);
		return H2EMV_ENOMEM;
	}
	return H2EMV_OK;
}

/* An index of dst's keys for one merge (engine/hashtab.h): key -> index in
 * dst. */
static uint32_t key_hash(uint64_t key)
{
	return (uint32_t)(key ^ key >> 29);
}

static int fact_has_key(const void *ctx, uintptr_t val, const void *key)
{
	return ((const facts *)ctx)->v[val].key == *(const uint64_t *)key;
}

static fact *kindex_get(const hashtab *ix, facts *f, uint64_t key)
{
	const ht_slot *s = ht_find(ix, key_hash(key), fact_has_key, f, &key);
	return s && ht_used(ix, s) ? &f->v[s->val] : NULL;
}

/* Index entry i of dst (its key absent); room is reserved. */
static void kindex_put(hashtab *ix, uint64_t key, size_t i)
{
	ht_put(ix, ht_vacant(ix, key_hash(key)), key_hash(key), i);
}

int facts_merge(facts *dst, const facts *add, size_t cap)
{
	return facts_merge_seq(dst, add, NULL, 0, cap);
}

int facts_merge_seq(facts *dst, const facts *add, const uint64_t *prev, size_t n_prev,
                    size_t cap)
{
	hashtab ix = { 0 };
	if (ht_reserve(&ix, dst->n + add->n))
		return H2EMV_ENOMEM;
	for (size_t j = 0; j < dst->n; j++)
		kindex_put(&ix, dst->v[j].key, j);
	int rc = H2EMV_OK;
	for (size_t i = 0; i < add->n; i++) {
		const fact *a = &add->v[i];
		fact *hit = kindex_get(&ix, dst, a->key);
		int same = 0;
		for (size_t j = 0; j < n_prev && !same; j++)
			same = prev[j] == a->key;
		if (hit) {
			if (a->t0 < hit->t0)
				hit->t0 = a->t0;
			if (same && !(a->count > 1)) {
				if (a->t2 > hit->t2)
					hit->t2 = a->t2;
			} else {
				hit->count += a->count;
				if (a->t1 >= hit->t1) {
					hit->t1 = a->t1;
					if (a->t2 > hit->t2 || a->t1 > hit->t2)
						hit->t2 = a->t2;
				}
			}
			continue;
		}
		fact *x = fact_push(dst);
		if (!x || copy_fact(x, a)) {
			if (x)
				dst->n--;
			rc = H2EMV_ENOMEM;
			break;
		}
		kindex_put(&ix, x->key, dst->n - 1);
	}
	ht_free(&ix);
	if (rc)
		return rc;
	if (add->trimmed)
		dst->trimmed = 1;
	facts_trim(dst, cap);
	return H2EMV_OK;
}
