/*
 * tree.h — the builder's working copy of the history tree, in memory.
 *
 * The builder starts from the newest snapshot's root, changes the tree node
 * by node (every change marks the node and its ancestors dirty: path
 * copying), and commits: each dirty node becomes a new immutable version,
 * the versions it replaces and those of removed nodes are listed dead, and
 * the snapshot record and the build cursor are written in the same
 * transaction.
 *
 * Only part of the tree is in memory: a node's children are read from the
 * store when first needed (tree_kids) and a clean subtree is let go again
 * (tree_shed), so the heap holds what the builder works on (the open
 * frontier, the right edge it regroups, what changed since the last commit),
 * not the history. Invariant: a node is in memory iff its parent's children
 * are; a dirty node's ancestors are dirty, so a clean node's subtree is
 * clean and the store holds it as it is.
 */
#ifndef H2EMV_TREE_H
#define H2EMV_TREE_H

#include "engine/engine.h"

typedef struct tnode tnode;

struct tnode {
	uint64_t id;
	uint32_t stored;      /* version in the store (0: never stored) */
	uint8_t level, kind;  /* kind: h2emv_kind */
	uint8_t dirty;        /* changed since the last commit */
	int64_t t_start, t_end;
	int64_t expiry;       /* τ; a parent's is never below a child's */
	int64_t sub_min;      /* a lower bound of τ in the subtree (derived, not
	                         stored): the forgetting pass skips subtrees
	                         with sub_min >= now; INT64_MIN = unknown */
	char *summary;        /* malloc'd, never NULL */
	uint8_t *payload;     /* malloc'd msgpack or NULL */
	size_t payload_len;
	tnode **kids;
	uint32_t n_kids, cap_kids;
	eng_ref *refs;        /* `out`: the children, in the store only (malloc'd) */
	int64_t *refs_sub;    /* their sub_min when they were let go (or NULL) */
	uint32_t n_refs;
	uint8_t out;          /* the children are not in memory (kids empty): tree_kids
	                         reads them; a node without children never is */
	uint8_t nested;       /* a goal inside a goal (not counted in the tree size) */
	tnode *parent;
	struct facts *fx;     /* typed facts, decoded from the payload on first use
	                         (api/facts.h); NULL until then */
	uint8_t fx_dirty;     /* fx changed: re-encode the payload before commit */
	uint8_t fx_stale;     /* a summary whose children changed: aggregate on next use */
};

typedef struct tree {
	eng_env *env;           /* the store children are read from */
	tnode *root;
	uint64_t next_id;       /* the next unused node id */
	uint64_t cursor;        /* last observation folded in */
	int64_t t_now;          /* the memory's clock: time of the newest observation */
	uint32_t rules_version;
	uint64_t loaded_seq;    /* snapshot the tree was loaded from (0: none) */
	eng_ref *dead;          /* versions superseded since the last commit */
	size_t n_dead, cap_dead;
	uint64_t n_nodes;       /* nodes in memory, all levels (maintained) */
	uint64_t n_read;        /* node versions read from the store so far */
	uint64_t n_l3;          /* the paper's tree size N: live nodes at level >= 3
	                           but the root and nested goals (maintained; loaded
	                           with the snapshot) */
} tree;

/* Root level: one above the highest summary level (TOP_LEVEL, api/build.h),
 * so the levels a tree shows are contiguous. Trees stored before issue 18
 * have their root at TREE_ROOT_LEVEL_OLD (15, above levels 9-14 that never
 * exist): it is read as TREE_ROOT_LEVEL and rewritten so. */
#define TREE_ROOT_LEVEL 9
#define TREE_ROOT_LEVEL_OLD 15

/* Start from the newest snapshot's root (its children in memory, theirs
 * not), or an empty tree with a root. */
int tree_load(tree *t, eng_env *env, h2emv_error *err);
/* Bring `n`'s children into memory (no-op when they are). */
int tree_kids(tree *t, tnode *n, h2emv_error *err);
/* The same for the whole subtree of `n` (a preview counting what goes). */
int tree_kids_all(tree *t, tnode *n, h2emv_error *err);
/* Let go of `n`'s subtree below it (its children become refs again) if it
 * is clean; 1 if it did. */
int tree_shed(tree *t, tnode *n);
/* Drop all of `n`'s children (in memory or only in the store): every stored
 * version below `n` is listed dead. */
int tree_drop_kids(tree *t, tnode *n, h2emv_error *err);
/* `g`, just made and inserted under a goal, is a nested goal. */
void tree_nest(tree *t, tnode *g);
/* Commit every change as a new snapshot, with `kv` extra records in the
 * same transaction; *seq may be NULL. */
int tree_commit(tree *t, eng_env *env, const eng_kv_ent *kv, size_t n_kv, uint64_t *seq,
                h2emv_error *err);
void tree_free(tree *t);
/* Free `n` and its subtree if it hangs nowhere (no parent); for the error
 * paths of work that detached it (the tree is dropped after an error). */
void tree_free_detached(tree *t, tnode *n);

/* A new node (not yet in the tree) with a fresh id, empty summary. */
tnode *tree_node_new(tree *t, int level, int kind);
/* Mark `n` and its ancestors changed (tree_node.c). */
void tree_touch(tnode *n);
/* Raise the ancestors' τ to at least `n`'s (the root's is never). */
void tree_raise_expiry(tnode *n);
/* Mark the path from `n` up as possibly holding something expired. */
void tree_mark_unknown(tnode *n);
/* Insert `child` into `parent` at index `at` (n_kids to append). Raises the
 * ancestors' τ to the child's. */
int tree_insert(tnode *parent, tnode *child, uint32_t at);
/* Detach child `i` of `parent` and return it (the parent is touched). */
tnode *tree_detach(tnode *parent, uint32_t i);
/* Free a detached subtree; every stored version in it (in memory or only
 * in the store) is listed dead. */
int tree_drop(tree *t, tnode *n, h2emv_error *err);
/* List `n`'s stored version dead (before it changes or goes). */
int tree_retire(tree *t, tnode *n);
int tree_set_summary(tnode *n, const char *s, size_t len);
/* Copy `p[0..len)` into `n`'s payload and touch it, unless it holds those
 * bytes already; H2EMV_ENOMEM (tree_node.c). */
int tree_set_payload(tnode *n, const void *p, size_t len);
/* Recompute t_start/t_end from the children (no-op for a leaf). */
void tree_fit_range(tnode *n);
/* Index of `n` among its parent's children. */
uint32_t tree_index(const tnode *n);
/* The paper's tree size N (tree.n_l3). */
uint64_t tree_size_l3(const tree *t);

#endif
