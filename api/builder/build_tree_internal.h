/*
 * build_tree_internal.h — what build_tree.c takes from build_edge.c: a
 * list of nodes, the parents on the tree's right edge, and the time-based
 * clustering of Algorithm 1 (build_tree.c's opening comment defines
 * them as the paper leaves them open).
 */
#ifndef H2EMV_BUILD_TREE_INTERNAL_H
#define H2EMV_BUILD_TREE_INTERNAL_H

#include "api/builder/build.h"

/* A growable list of nodes. */
typedef struct nlist {
	tnode **v;
	size_t n, cap;
} nlist;

int nl_add(nlist *l, tnode *x);
/* qsort order of nodes: by start, then id. */
int by_time(const void *a, const void *b);
/* Sort v by by_time (a list in order already is left as it is). */
void sort_by_time(tnode **v, size_t n);
/* The last `w` nodes at `level` on the right edge, oldest first. */
int edge_nodes(builder *b, nlist *out, int level, size_t w, h2emv_error *err);
/* thr(level): the gap that splits a cluster. */
int64_t threshold(int level, tnode **items, size_t n);
/* Cluster boundaries: starts[k] is the first index of cluster k. */
size_t clusters(size_t *starts, tnode **items, size_t n, int level, int64_t thr);

#endif
