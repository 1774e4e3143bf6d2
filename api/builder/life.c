/*
 * life.c — how long a node lives before forgetting may take it: the
 * paper's Δt_ℓ·γ_ℓ, from the configuration's life_scene .. life_summary
 * by the node's level. The segmenter, the levels above the goals
 * (build_tree.c) and the forgetting pass all ask it; it asks none of them.
 */
#include "api/builder/build.h"

int64_t life_of(const builder *b, const tnode *n)
{
	const h2emv_config *c = &b->cfg;
	switch (n->level) {
	case 1: return c->life_scene;
	case 2: return c->life_event;
	case 3:
		/* a goal nested in a goal lives like an event (as upstream) */
		return n->parent && n->parent->kind == H2EMV_KIND_GOAL ? c->life_event : c->life_goal;
	default: {
		int shift = n->level - 3 > 20 ? 20 : n->level - 3;
		return c->life_summary << shift;
	}
	}
}
