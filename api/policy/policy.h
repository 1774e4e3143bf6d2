/*
 * policy.h — the one interface through which every judgement of the memory
 * is made: grouping and summarising, summarising alone, estimating the
 * relevance of an expired node, learning rules from feedback, one step of
 * question answering, and routing an utterance.
 *
 * Two implementations: `builtin` (offline, deterministic, the default) and
 * `llm` (prompts sent to an OpenAI-compatible server). Every call reports
 * the tokens it spent in a pol_usage: the server's count for llm, and for
 * builtin an estimate of the prompt the llm policy would have sent (the
 * prompt builders in prompts.h are shared), so costs compare across
 * policies.
 *
 * Ownership: requests are borrowed for the duration of the call. Strings a
 * policy returns are malloc'd and belong to the caller (free()).
 * Items are always given oldest first; prompts number them newest = 0.
 */
#ifndef H2EMV_POLICY_H
#define H2EMV_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* Tokens spent, accumulated by every call. `no_estimate` is the caller's
 * (in): it reports no figure, so a policy that only estimates what a prompt
 * would cost (builtin) counts the call and skips the estimate; a policy
 * that is told what it spent (llm) reports it anyway. */
typedef struct pol_usage {
	uint64_t prompt_tokens;
	uint64_t completion_tokens;
	uint64_t calls;
	int no_estimate;
} pol_usage;

/* The natural-language relevance rules in force (ordered). `n` may be 0. */
typedef struct pol_rules {
	const char *const *items;
	size_t n;
} pol_rules;

/* One node as a policy sees it. */
typedef struct pol_item {
	uint64_t id;          /* node id (0 for items not yet stored) */
	int level;            /* 1 scene, 2 event, 3 goal, 4+ summary */
	int64_t t_start, t_end;
	const char *text;     /* the summary; for a placeholder, its kept first line */
	const char *content;  /* words to match against (objects, actions, places,
	                         people, speech), may be NULL */
	int forgotten;        /* a placeholder: shown to grouping, hidden from QA */
	const struct facts *facts; /* its typed facts (api/facts.h), or NULL */
} pol_item;

/* ------------------------------------------------------ group + summarize -- */

/* A group of consecutive items [first, last] (indexes into the request's
 * items, oldest = 0) with its summary. */
typedef struct pol_group {
	size_t first, last;
	char *summary; /* owned by whoever made the array */
} pol_group;

typedef struct pol_group_req {
	int level;                   /* level of the items; groups are level + 1 */
	const pol_item *items;       /* old children then new items, oldest first */
	size_t n_items;
	const pol_group *old_groups; /* the existing parents: a partition of the first
	                                n_items - n_new items */
	size_t n_old;
	size_t n_new;                /* the trailing n_new items have no parent yet */
	const pol_rules *rules;      /* NULL when rules must not condition summaries */
	int64_t now;
} pol_group_req;

/* The reply: a partition of ALL items into consecutive groups (every item in
 * exactly one group, in order). A group equal in range and summary to an old
 * one means "unchanged". Free with pol_groups_free. */
typedef struct pol_group_reply {
	pol_group *groups;
	size_t n;
} pol_group_reply;

void pol_groups_free(pol_group_reply *r);

/* --------------------------------------------------------------- relevance -- */

typedef struct pol_relevance_req {
	const pol_item *item;   /* the expired node */
	const pol_item *parent; /* context; NULL for a child of the root */
	int64_t now;
	const pol_rules *rules; /* NULL when rules must not condition relevance */
} pol_relevance_req;

/* α as a double: 0 = forget now, n = keep n more lifetimes, INFINITY = forever. */

/* -------------------------------------------------------------- learning -- */

/* A list of rules a policy returns (strings and array malloc'd). */
typedef struct pol_rule_list {
	char **items;
	size_t n;
} pol_rule_list;

void pol_rule_list_free(pol_rule_list *l);

/* ----------------------------------------------------- question answering -- */

/* What the QA agent sees: the question, the clock, and the nodes currently
 * shown (expanded parents' children), in tree order with their depth. */
typedef struct pol_qa_view {
	const char *question;
	int64_t now;
	const pol_item *nodes;    /* visible nodes; forgotten ones have text "" */
	const int *depth;         /* indentation of each node (root's children = 0) */
	const int *expanded;      /* 1 if the node's children are shown */
	const int *has_children;
	size_t n;
	int round, max_rounds;    /* the last round must answer */
	const char *history;      /* previous actions and their results, or "" */
} pol_qa_view;

enum pol_qa_kind {
	POL_QA_EXPAND = 1,  /* expand nodes `ids` */
	POL_QA_RANGE = 2,   /* expand every node overlapping [t0, t1] */
	POL_QA_SEARCH = 3,  /* expand the nodes whose content matches `text`; with
	                       t1 > 0, only nodes overlapping [t0, t1] */
	POL_QA_ANSWER = 4   /* answer `text`, resting on `ids` */
};

typedef struct pol_qa_action {
	int kind;
	uint64_t *ids;      /* malloc'd */
	size_t n_ids;
	int64_t t0, t1;
	char *text;         /* malloc'd: the search query or the answer */
	int forgotten;      /* ANSWER: the evidence region was forgotten */
} pol_qa_action;

void pol_qa_action_free(pol_qa_action *a);

/* ---------------------------------------------------------------- routing -- */

enum pol_route { POL_ROUTE_QUESTION = 1, POL_ROUTE_FEEDBACK = 2, POL_ROUTE_REPLY = 3 };

/* ------------------------------------------------------------- the stats -- */

/* How a model-backed policy has fared (all zero for builtin). */
typedef struct pol_stats {
	uint64_t decisions;        /* decisions asked of the model */
	uint64_t retries;          /* second tries after a reply that did not fit */
	uint64_t bad_replies;      /* replies that did not parse or validate */
	uint64_t fallbacks;        /* decisions settled by the safe fallback */
	uint64_t transport_errors; /* decisions lost to the transport (after its retries) */
} pol_stats;

/* ------------------------------------------------------------- the table -- */

typedef struct h2emv_policy h2emv_policy;

struct h2emv_policy {
	const char *name; /* "builtin", "llm" */
	void *ctx;

	/* Regroup items: see pol_group_req. */
	int (*group)(void *ctx, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
	             h2emv_error *err);
	/* One summary for `items` (which become children of one node at level+1).
	 * *out is malloc'd. */
	int (*summarize)(void *ctx, const pol_item *items, size_t n, int level,
	                 const pol_rules *rules, char **out, pol_usage *u, h2emv_error *err);
	/* α for an expired node. */
	int (*relevance)(void *ctx, const pol_relevance_req *req, double *alpha, pol_usage *u,
	                 h2emv_error *err);
	/* A new rule list from the old one and a user's feedback. */
	int (*learn)(void *ctx, const pol_rules *old, const char *feedback, pol_rule_list *out,
	             pol_usage *u, h2emv_error *err);
	/* The next action of the question-answering agent. */
	int (*qa_step)(void *ctx, const pol_qa_view *view, pol_qa_action *out, pol_usage *u,
	               h2emv_error *err);
	/* Is `utterance` a question, feedback, or something to answer directly
	 * (*reply malloc'd for POL_ROUTE_REPLY, else NULL)? */
	int (*route)(void *ctx, const char *utterance, int *route, char **reply, pol_usage *u,
	             h2emv_error *err);
	/* Counters so far; NULL when the policy keeps none (builtin). */
	void (*stats)(void *ctx, pol_stats *out);
	/* Release ctx. */
	void (*destroy)(void *ctx);
};

/* The builtin policy (offline, deterministic). Free with its destroy. */
int pol_builtin_new(h2emv_policy **out, h2emv_error *err);
void pol_free(h2emv_policy *p);

#endif
