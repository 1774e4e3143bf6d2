/*
 * tree_node.c — the two edits of one working-tree node (tree.h) that the
 * typed facts on it (facts.c) make too: marking it and its ancestors
 * changed, and setting its payload. Apart from tree.c, which frees and
 * flushes a node's facts, so the two do not call each other round.
 */
#include <stdlib.h>
#include <string.h>

#include "api/tree/tree.h"

void tree_touch(tnode *n)
{
	for (; n && !n->dirty; n = n->parent)
		n->dirty = 1;
}

int tree_set_payload(tnode *n, const void *p, size_t len)
{
	if (n->payload_len == len && (len == 0 || !memcmp(n->payload, p, len)))
		return H2EMV_OK;
	uint8_t *c = NULL;
	if (len && !(c = malloc(len)))
		return H2EMV_ENOMEM;
	if (len)
		memcpy(c, p, len);
	free(n->payload);
	n->payload = c;
	n->payload_len = len;
	tree_touch(n);
	return H2EMV_OK;
}
