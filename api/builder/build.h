/*
 * build.h — the builder: segmenter (L1 scenes, L2 events, L3 goals),
 * online grouping above L3 (the paper's Algorithms 1 and 2), and
 * forgetting, all working on one tree (tree.h) that is committed as
 * snapshots and read from them as needed: only its open frontier and what
 * changed since the last commit stay on the heap.
 *
 * Everything the builder knows lives in the tree, so a build that is killed
 * and restarted from the last snapshot reaches the same tree: the open goal
 * and event are the tree's right edge (payload flags), the last scene's
 * event key is in its event's payload.
 */
#ifndef H2EMV_BUILD_H
#define H2EMV_BUILD_H

#include "api/builder/relcache.h"
#include "api/mem/mem.h"
#include "api/tree/scene.h"
#include "api/tree/tree.h"

#define GOAL_DEPTH 16     /* nested goals at most */
#define TOP_LEVEL 8       /* highest summary level; the root is above it */
#define DAY_LEVEL 7       /* the lowest level whose nodes may span a night */
#define RELCACHE_SLOTS 4096 /* a power of two */
#define PENDING_MAX 4096     /* new relcache entries held until the next commit */


typedef struct builder {
	h2emv_mem *mem;
	int lockfd;               /* build.lock, held exclusively while open (-1 when
	                             the handle's claim holds it) */
	int locked;               /* mem->build_mu is ours */
	tree t;
	h2emv_config cfg;
	pol_rule_list rules;      /* in force (items[0] the default rule) */
	uint32_t rules_version;
	h2emv_tokens tok_build;   /* grouping and summaries */
	int estimate;             /* ask the policy for token estimates of the build's
	                             calls (h2emv_build_options.estimate_tokens) */
	h2emv_tokens tok_forget;  /* relevance estimates */
	uint64_t policy_calls;    /* build-side calls (group + summarize) */
	uint64_t forgotten;       /* nodes replaced by placeholders */
	/* segmenter state, derived from the tree's right edge */
	tnode *goals[GOAL_DEPTH]; /* the open goal chain, outermost first */
	int n_goals;
	tnode *event;             /* the open event, or NULL */
	uint64_t last_key;        /* event key of the last scene */
	int64_t last_t;           /* time of the last scene (0: none) */
	relcache_ent *relcache;   /* in-memory front of the `relcache` db */
	relcache_ent pending[PENDING_MAX]; /* estimates to store with the next commit */
	size_t n_pending;
	struct robot_profile *prof; /* the memory's robot profile (NULL: generic) */
	uint64_t prev_keys[96];     /* the last scene's fact keys: what continues */
	size_t n_prev;
	uint64_t read_released;     /* t.n_read when the store's pages were last let go */
	h2emv_forgotten_fn on_forget; /* told of each node made a placeholder */
	void *on_forget_ctx;
} builder;

/* Start: take the memory's builder lock (EBUSY if another builder holds
 * it), load the tree, the rules and the configuration. */
int builder_open(builder *b, h2emv_mem *mem, h2emv_error *err);
/* The same without the lock, for a pass that never commits (a preview). */
int builder_open_unlocked(builder *b, h2emv_mem *mem, h2emv_error *err);
void builder_close(builder *b);
/* Is `n` the root or on the path to the open frontier (kept in memory)? */
int builder_holds(const builder *b, const tnode *n);
/* After a commit: let go of every clean subtree builder_holds does not. */
void builder_shed(builder *b);

/* segment.c: derive the open goal/event from the tree; fold one scene. */
int seg_resume(builder *b, h2emv_error *err);
int seg_add(builder *b, const scene *s, const void *body, size_t blen, h2emv_error *err);
/* Close every open goal (a long pause, the end of a recording). */
int seg_close_all(builder *b, h2emv_error *err);

/* build_tree.c: place a closed goal (detached) into the levels above it. */
int bt_push(builder *b, tnode *goal, h2emv_error *err);

/* forget.c: the top-down forgetting pass at time `now`. `stop` (may be
 * NULL) is polled between nodes: non-zero interrupts the pass. */
int forget_pass(builder *b, int64_t now, int (*stop)(void *), void *stop_ctx, h2emv_error *err);

/* life.c: lifetime Δt_ℓ·γ_ℓ of a node at `level` (nested goals get the
 * event's; a summary level doubles it per level above the goals). */
int64_t life_of(const builder *b, const tnode *n);

/* A node as a policy item (text borrowed from the node; a goal's facts are
 * read in, facts_of, and lent to it). */
pol_item item_of(tnode *n);

#endif
