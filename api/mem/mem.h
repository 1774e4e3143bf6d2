/*
 * mem.h — the public handles' insides, shared by the api/ files.
 */
#ifndef H2EMV_API_MEM_H
#define H2EMV_API_MEM_H

#include <pthread.h>

#include "api/policy/policy.h"
#include "engine/engine.h"

struct h2emv_mem {
	eng_env *env;
	h2emv_policy *policy;    /* builtin unless replaced */
	pthread_mutex_t lock;    /* guards cfg */
	h2emv_config cfg;        /* loaded at open, defaults filled in */
	/* memory closed snapshots leave for the next (api/snap.c), bounded */
	pthread_mutex_t spare_lock;
	struct snap_spare *spare;
	/* the memory's clock for ingest (api/obs_ingest.c), guarded by
	 * ingest_lock: the newest observation time, up to date with the log
	 * as of seq clock_seq */
	pthread_mutex_t ingest_lock;
	int clock_known;         /* 0 until the first ingest reads the log */
	uint64_t clock_seq;
	int64_t clock;           /* -1: the log is empty */
	/* the builder role (api/build.c): one build or forget at a time on
	 * this handle; build_fd holds build.lock between calls once claimed
	 * (h2emv_build_claim), else -1 */
	pthread_mutex_t build_mu;
	int build_fd;
};

/* Free what closed snapshots left (at h2emv_mem_close). */
void snap_spare_free(struct snap_spare *sp);

/* The memory a snapshot was opened from. */
h2emv_mem *snap_mem(const h2emv_snap *snap);
/* The snapshot's read view (the term index reads through it). */
struct eng_read *snap_read(const h2emv_snap *snap);
/* Drop every node the snapshot has decoded so far, keeping the memory for
 * the next ones: every node pointer it handed out becomes invalid. For a
 * walk over a big tree that holds refs, not nodes (api/export.c). */
void snap_trim(h2emv_snap *snap);

/* A node as handed out by a snapshot: the decoded engine node. */
struct h2emv_node {
	eng_node e;
};

/* Fill zero fields of `c` with the defaults. */
void config_defaults(h2emv_config *c);
/* Load the stored configuration (defaults if none) into mem->cfg. */
int config_load(h2emv_mem *mem, h2emv_error *err);

/* Add one policy call's usage to a token count. */
static inline void tokens_add(h2emv_tokens *t, const pol_usage *u)
{
	t->prompt += u->prompt_tokens;
	t->completion += u->completion_tokens;
	t->calls += u->calls;
}

/* ------------------------------------------------ rules (api/rules.c) -- */

/* The first rule of every version: forget unless a rule says keep. */
extern const char *const RULE_DEFAULT;

/* The rules in force: version number and items (items[0] is RULE_DEFAULT).
 * Free with pol_rule_list_free. */
int rules_current_list(pol_rule_list *out, uint32_t *version, h2emv_mem *mem,
                       h2emv_error *err);

#endif
