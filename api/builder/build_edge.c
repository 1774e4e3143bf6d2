/*
 * build_edge.c — the pieces of the online construction (build_tree.c)
 * that only read the tree: the parents on its right edge, and the
 * time-based clustering of Algorithm 1 (thr(ℓ) and the split at gaps;
 * defined at the top of build_tree.c).
 */
#include <stdlib.h>
#include <string.h>

#include "api/builder/build.h"
#include "api/builder/build_tree_internal.h"

#define NIGHT_GAP (6ll * 3600 * 1000000)
#define DAY_MERGE (48ll * 3600 * 1000000)

int nl_add(nlist *l, tnode *x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		tnode **v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return H2EMV_ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = x;
	return H2EMV_OK;
}

int by_time(const void *a, const void *b)
{
	const tnode *x = *(tnode *const *)a, *y = *(tnode *const *)b;
	if (x->t_start != y->t_start)
		return x->t_start < y->t_start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void sort_by_time(tnode **v, size_t n)
{
	size_t i = 1;
	while (i < n && by_time(&v[i - 1], &v[i]) <= 0)
		i++;
	if (i < n) /* (mostly in order already: the walk and the pushes keep it) */
		qsort(v, n, sizeof *v, by_time);
}

/* ---------------------------------------------------------- edge nodes -- */

/* Walk the right edge backwards collecting nodes at `level` (reading the
 * nodes it passes through from the store as needed). Stops at a
 * placeholder (everything older is forgotten and never regrouped) and
 * passes over lower nodes (the open goal under the root). Returns 1 when
 * done, or a negative status. */
static int edge_walk(builder *b, nlist *out, size_t w, tnode *n, int level, h2emv_error *err)
{
	for (uint32_t i = n->n_kids; i-- > 0;) {
		tnode *k = n->kids[i];
		if (k->kind == H2EMV_KIND_FORGOTTEN)
			return 1;
		int rc = 0;
		if (k->level == level)
			rc = nl_add(out, k) ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : 0;
		else if (k->level > level && !(rc = tree_kids(&b->t, k, err)))
			rc = edge_walk(b, out, w, k, level, err);
		if (rc)
			return rc;
		if (out->n >= w)
			return 1;
	}
	return 0;
}

/* The last `w` nodes at `level` on the right edge, oldest first. */
int edge_nodes(builder *b, nlist *out, int level, size_t w, h2emv_error *err)
{
	out->n = 0;
	int rc = edge_walk(b, out, w, b->t.root, level, err);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < out->n / 2; i++) {
		tnode *x = out->v[i];
		out->v[i] = out->v[out->n - 1 - i];
		out->v[out->n - 1 - i] = x;
	}
	return H2EMV_OK;
}

/* ---------------------------------------------------- clustering (Alg. 1) -- */

/* The k-th smallest of d[0..n) (d is reordered): what d[k] would be
 * after sorting, without sorting (a build asks this at every level step). */
static int64_t kth_smallest(int64_t *d, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		int64_t pivot = d[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (d[i] < pivot)
				i++;
			while (d[j] > pivot)
				j--;
			if (i <= j) {
				int64_t t = d[i];
				d[i] = d[j];
				d[j] = t;
				i++;
				if (j-- == 0)
					break;
			}
		}
		/* d[lo..j] <= pivot <= d[i..hi], and d(j..i) == pivot */
		if (k <= j && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return d[k];
	}
	return d[k];
}

int64_t threshold(int level, tnode **items, size_t n)
{
	int64_t floor_ = 60000000ll;
	for (int l = 3; l < level && l < 12; l++)
		floor_ *= 4;
	int64_t small[128];
	int64_t *d = n <= 128 ? small : malloc(n * sizeof *d);
	int64_t med = 0;
	if (d && n) {
		for (size_t i = 0; i < n; i++)
			d[i] = items[i]->t_end - items[i]->t_start;
		med = kth_smallest(d, n, n / 2); /* the median */
	}
	if (d != small)
		free(d);
	int64_t thr = (med > floor_ ? med : floor_) * (5 + level);
	if (level + 1 < DAY_LEVEL && thr > NIGHT_GAP)
		thr = NIGHT_GAP;
	if (level + 1 >= DAY_LEVEL && thr < DAY_MERGE)
		thr = DAY_MERGE;
	return thr;
}

/* Cluster boundaries: starts[k] is the first index of cluster k. */
size_t clusters(size_t *starts, tnode **items, size_t n, int level, int64_t thr)
{
	size_t k = 0;
	int night = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t gap = i ? items[i]->t_start - items[i - 1]->t_end : 0;
		if (i == 0 || gap > thr)
			starts[k++] = i;
		if (i && level + 1 < DAY_LEVEL && gap >= NIGHT_GAP)
			night = 1;
	}
	if (k == n && n > 1 && !night) {
		k = 1; /* avoid single-item clusters */
		starts[0] = 0;
	}
	return k;
}
