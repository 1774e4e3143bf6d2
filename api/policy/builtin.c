/*
 * builtin.c — the offline, deterministic policy: its table, its context
 * (the cache of builtin_cache.c under a mutex) and its token accounting.
 * Each decision lives in its own file: builtin_group.c (time-gap
 * grouping), builtin_summary.c (extractive summaries),
 * builtin_relevance.c (rules matched against a node), builtin_learn.c
 * (feedback merged into the rules), builtin_qa.c (question answering and
 * routing). Every call reports the estimated tokens of the prompt the llm
 * policy would send (prompts.h), so costs compare.
 */
#include <pthread.h>
#include <stdlib.h>

#include "api/policy/builtin.h"
#include "engine/engine.h"

struct bi_ctx {
	pthread_mutex_t lock;
	bi_cache *cache;
};

void bi_usage(pol_usage *u, const pr_prompt *p, const char *reply)
{
	if (u)
		bi_usage_tokens(u, tok_prompt(p), reply);
}

void bi_usage_tokens(pol_usage *u, uint64_t prompt_tokens, const char *reply)
{
	if (!u)
		return;
	u->prompt_tokens += prompt_tokens;
	u->completion_tokens += tok_text(reply);
	u->calls += 1;
}

bi_cache *bi_ctx_lock(void *ctx)
{
	bi_ctx *x = ctx;
	if (!x)
		return NULL;
	pthread_mutex_lock(&x->lock);
	return x->cache;
}

void bi_ctx_unlock(void *ctx)
{
	bi_ctx *x = ctx;
	if (x)
		pthread_mutex_unlock(&x->lock);
}

bi_cache_stats bi_ctx_stats(void *ctx)
{
	bi_cache_stats s = { 0 };
	bi_cache *c = bi_ctx_lock(ctx);
	if (c)
		s = bi_cache_get_stats(c);
	bi_ctx_unlock(ctx);
	return s;
}

static void ctx_destroy(void *ctx)
{
	bi_ctx *x = ctx;
	if (!x)
		return;
	bi_cache_free(x->cache);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

int bi_policy_new(h2emv_policy **out, size_t max_entries, size_t max_bytes, h2emv_error *err)
{
	*out = NULL;
	h2emv_policy *p = calloc(1, sizeof *p);
	bi_ctx *x = calloc(1, sizeof *x);
	if (!p || !x || bi_cache_new(&x->cache, max_entries, max_bytes)) {
		free(p);
		if (x)
			bi_cache_free(x->cache);
		free(x);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	pthread_mutex_init(&x->lock, NULL);
	p->name = "builtin";
	p->ctx = x;
	p->group = bi_group;
	p->summarize = bi_summarize;
	p->relevance = bi_relevance;
	p->learn = bi_learn;
	p->qa_step = pol_builtin_qa_step;
	p->route = pol_builtin_route;
	p->destroy = ctx_destroy;
	*out = p;
	return H2EMV_OK;
}

int pol_builtin_new(h2emv_policy **out, h2emv_error *err)
{
	return bi_policy_new(out, 0, 0, err);
}
