/*
 * mem.h — the public handles' insides, shared by the api/ files.
 */
#ifndef H2EMV_API_MEM_H
#define H2EMV_API_MEM_H

#include "engine/engine.h"

struct h2emv_mem {
	eng_env *env;
};

/* A node as handed out by a snapshot: the decoded engine node. */
struct h2emv_node {
	eng_node e;
};

#endif
