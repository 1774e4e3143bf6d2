/*
 * frontier.c — which nodes the builder keeps on the heap: the root and the
 * open frontier's path (build.h, builder_holds). Apart from build.c, so
 * that forgetting asks it without calling back into the builder.
 */
#include "api/builder/build.h"

/* The open frontier's deepest node: the open event, else the innermost
 * open goal (NULL: nothing open). */
static const tnode *frontier(const builder *b)
{
	return b->event ? b->event : b->n_goals ? b->goals[b->n_goals - 1] : NULL;
}

int builder_holds(const builder *b, const tnode *n)
{
	if (n == b->t.root)
		return 1;
	for (const tnode *f = frontier(b); f; f = f->parent)
		if (f == n)
			return 1;
	return 0;
}
