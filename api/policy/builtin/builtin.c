/*
 * builtin.c — the offline, deterministic policy: its table. Its context
 * (the cache of builtin_cache.c under a mutex) and its token accounting
 * are builtin_ctx.c. Each decision lives in its own file: builtin_group.c
 * (time-gap grouping), builtin_summary.c (extractive summaries),
 * builtin_relevance.c (rules matched against a node), builtin_learn.c
 * (feedback merged into the rules), builtin_route.c (routing); questions
 * are answered from typed facts (api/recall/), not by a qa_step. Every
 * call reports the estimated tokens of the prompt the llm policy would
 * send (prompts.h), so costs compare.
 */
#include <stdlib.h>

#include "api/policy/builtin/builtin.h"
#include "engine/engine.h"

int bi_policy_new(h2emv_policy **out, size_t max_entries, size_t max_bytes, h2emv_error *err)
{
	*out = NULL;
	h2emv_policy *p = calloc(1, sizeof *p);
	bi_ctx *x = NULL;
	if (!p || bi_ctx_new(&x, max_entries, max_bytes)) {
		free(p);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	p->name = "builtin";
	p->ctx = x;
	p->group = bi_group;
	p->summarize = bi_summarize;
	p->relevance = bi_relevance;
	p->learn = bi_learn;
	p->route = pol_builtin_route;
	p->destroy = bi_ctx_free;
	*out = p;
	return H2EMV_OK;
}

int pol_builtin_new(h2emv_policy **out, h2emv_error *err)
{
	return bi_policy_new(out, 0, 0, err);
}
