/*
 * builtin_ctx.c — the builtin policy's context (the cache of
 * builtin_cache.c under a mutex) and its token accounting: what every
 * decision of builtin_*.c uses, kept apart from the table in builtin.c
 * that calls the decisions, so no decision calls back into it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "api/policy/builtin/builtin.h"

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

void bi_ctx_free(void *ctx)
{
	bi_ctx *x = ctx;
	if (!x)
		return;
	bi_cache_free(x->cache);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

int bi_ctx_new(bi_ctx **out, size_t max_entries, size_t max_bytes)
{
	*out = NULL;
	bi_ctx *x = calloc(1, sizeof *x);
	if (!x || bi_cache_new(&x->cache, max_entries, max_bytes)) {
		if (x)
			bi_cache_free(x->cache);
		free(x);
		return -1;
	}
	pthread_mutex_init(&x->lock, NULL);
	*out = x;
	return 0;
}
