/*
 * builtin.c — the offline, deterministic policy: its table and its token
 * accounting. Each decision lives in its own file: builtin_group.c
 * (time-gap grouping), builtin_summary.c (extractive summaries),
 * builtin_relevance.c (rules matched against a node), builtin_learn.c
 * (feedback merged into the rules), builtin_qa.c (question answering and
 * routing). Every call renders the prompt the llm policy would send
 * (prompts.h) and reports its estimated tokens, so costs compare.
 */
#include <stdlib.h>

#include "api/policy/builtin.h"
#include "engine/engine.h"

void bi_usage(pol_usage *u, const pr_prompt *p, const char *reply)
{
	if (!u)
		return;
	u->prompt_tokens += tok_prompt(p);
	u->completion_tokens += tok_text(reply);
	u->calls += 1;
}

int pol_builtin_new(h2emv_policy **out, h2emv_error *err)
{
	h2emv_policy *p = calloc(1, sizeof *p);
	if (!p)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	p->name = "builtin";
	p->ctx = NULL; /* stateless: no context to hold or free */
	p->group = bi_group;
	p->summarize = bi_summarize;
	p->relevance = bi_relevance;
	p->learn = bi_learn;
	p->qa_step = pol_builtin_qa_step;
	p->route = pol_builtin_route;
	p->destroy = NULL;
	*out = p;
	return H2EMV_OK;
}
