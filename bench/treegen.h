/*
 * treegen.h — a synthetic memory tree for the snapshot benchmark: L1
 * scenes grouped bottom-up, 8 to 12 children per parent, into events
 * (L2), goals (L3) and summaries (L4, L5) under one root; summaries of
 * plausible text, small payloads on scenes and events. Deterministic.
 */
#ifndef H2EMV_BENCH_TREEGEN_H
#define H2EMV_BENCH_TREEGEN_H

#include "engine/engine.h"

typedef struct bench_tree {
	eng_node **nodes; /* bottom-up, oldest first within a level; root last */
	size_t n;
	eng_ref root;
	uint64_t n_l3plus;  /* nodes of level >= 3 ("tree size") */
	uint64_t next_id;   /* first unused node id */
	int64_t t_now;      /* end of the newest scene */
	size_t per_level[8];
} bench_tree;

/* A tree of at most `target` nodes, as close to it as the grouping allows
 * (but at least 6: one node per level). Returns 0, or -1 out of memory. */
int treegen_make(bench_tree *t, size_t target, uint64_t seed);
void treegen_free(bench_tree *t);

#endif
