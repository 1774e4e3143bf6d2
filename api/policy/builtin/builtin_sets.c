/*
 * builtin_sets.c — the string collections the builtin's text analysis is
 * built on: sets of normalised words and lists of display strings with
 * counts, both in insertion order. Each entry carries its hash and length,
 * compared before the bytes, and a collection of BI_INDEX_MIN entries or
 * more gets an index (engine/hashtab.h), so membership costs about one
 * comparison however large the collection grows.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "api/policy/builtin/builtin.h"

/* ------------------------------------------------------- hashed lookup -- */

uint32_t bi_hash(const char *s, size_t n)
{
	return (uint32_t)XXH3_64bits(s, n);
}

/* What the index's comparison needs: the collection's strings and keys,
 * and the string looked for. */
typedef struct entries {
	char *const *strs;
	const bi_key *k;
} entries;

typedef struct wanted {
	const char *s;
	size_t n;
} wanted;

static int entry_is(const void *ctx, uintptr_t val, const void *key)
{
	const entries *c = ctx;
	const wanted *w = key;
	return c->k[val].len == w->n && !memcmp(c->strs[val], w->s, w->n);
}

/* The entry among `n_entries` strings `strs` (keys `k`, index `ix`, empty
 * below BI_INDEX_MIN entries) equal to `s[0..n)` of hash `h`, or SIZE_MAX. */
static size_t bi_find(char *const *strs, const bi_key *k, size_t n_entries, const hashtab *ix,
               const char *s, size_t n, uint32_t h)
{
	if (ix->cap) {
		entries c = { strs, k };
		wanted w = { s, n };
		const ht_slot *sl = ht_find(ix, h, entry_is, &c, &w);
		return ht_used(ix, sl) ? (size_t)sl->val : SIZE_MAX;
	}
	for (size_t e = 0; e < n_entries; e++)
		if (k[e].h == h && k[e].len == n && !memcmp(strs[e], s, n))
			return e;
	return SIZE_MAX;
}

/* Index the newest entry (n_entries - 1, its key set), building or growing
 * the index as needed. Out of memory drops the index (lookups scan). */
static void bi_index_add(hashtab *ix, const bi_key *k, size_t n_entries)
{
	if (n_entries < BI_INDEX_MIN)
		return;
	int fresh = !ix->cap;
	if (ht_reserve(ix, fresh ? n_entries : 1)) { /* out of memory: scan */
		ht_free(ix);
		return;
	}
	for (size_t e = fresh ? 0 : n_entries - 1; e < n_entries; e++)
		ht_put(ix, ht_vacant(ix, k[e].h), k[e].h, e);
}

/* ------------------------------------------------------------ word sets -- */

void bi_words_free(bi_words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	free(w->k);
	ht_free(&w->ix);
	memset(w, 0, sizeof *w);
}

int bi_words_has(const bi_words *w, const char *s)
{
	size_t n = strlen(s);
	return bi_find(w->v, w->k, w->n, &w->ix, s, n, bi_hash(s, n)) != SIZE_MAX;
}

void bi_words_add(bi_words *w, const char *s, size_t n)
{
	if (w->oom)
		return;
	uint32_t h = bi_hash(s, n);
	if (bi_find(w->v, w->k, w->n, &w->ix, s, n, h) != SIZE_MAX)
		return;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		char **v = realloc(w->v, cap * sizeof *v);
		if (v)
			w->v = v;
		bi_key *k = realloc(w->k, cap * sizeof *k);
		if (k)
			w->k = k;
		if (!v || !k) {
			w->oom = 1;
			return;
		}
		w->cap = cap;
	}
	char *c = malloc(n + 1);
	if (!c) {
		w->oom = 1;
		return;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	w->v[w->n] = c;
	w->k[w->n].h = h;
	w->k[w->n].len = (uint32_t)n;
	w->n++;
	bi_index_add(&w->ix, w->k, w->n);
}

int bi_words_meet(const bi_words *a, const bi_words *b)
{
	if (!b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (bi_find(b->v, b->k, b->n, &b->ix, a->v[i], a->k[i].len, a->k[i].h) !=
		    SIZE_MAX)
			return 1;
	return 0;
}

/* --------------------------------------------------------------- lists -- */

void bi_list_free(bi_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	free(l->count);
	free(l->k);
	ht_free(&l->ix);
	memset(l, 0, sizeof *l);
}

void bi_list_add(bi_list *l, const char *s, size_t n, size_t times)
{
	if (l->oom || !n)
		return;
	bi_list_add_h(l, s, n, bi_hash(s, n), times);
}

void bi_list_add_h(bi_list *l, const char *s, size_t n, uint32_t h, size_t times)
{
	if (l->oom || !n)
		return;
	size_t e = bi_find(l->s, l->k, l->n, &l->ix, s, n, h);
	if (e != SIZE_MAX) {
		l->count[e] += times;
		return;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		char **v = realloc(l->s, cap * sizeof *v);
		if (v)
			l->s = v;
		size_t *c = realloc(l->count, cap * sizeof *c);
		if (c)
			l->count = c;
		bi_key *k = realloc(l->k, cap * sizeof *k);
		if (k)
			l->k = k;
		if (!v || !c || !k) {
			l->oom = 1;
			return;
		}
		l->cap = cap;
	}
	char *c = malloc(n + 1);
	if (!c) {
		l->oom = 1;
		return;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	l->s[l->n] = c;
	l->count[l->n] = times;
	l->k[l->n].h = h;
	l->k[l->n].len = (uint32_t)n;
	l->n++;
	bi_index_add(&l->ix, l->k, l->n);
}
