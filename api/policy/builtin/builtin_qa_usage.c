/*
 * builtin_qa_usage.c — what one question step of the builtin policy would
 * cost the llm policy: the tokens of the identical prompt (prompts.h
 * renders it) and of the reply the llm would give for the same action.
 */
#include "api/policy/builtin.h"
#include "api/policy/prompts.h"

/* What the llm policy's reply to this step would look like, for the
 * completion-token estimate. */
static uint64_t completion_tokens(const pol_qa_action *a)
{
	pr_str b = { 0 };
	pr_str_adds(&b, "Reasoning: I look for the nodes that mention what the question asks.\n"
	                "Action: ");
	switch (a->kind) {
	case POL_QA_EXPAND:
		pr_str_adds(&b, "expand([");
		for (size_t i = 0; i < a->n_ids; i++)
			pr_str_addf(&b, "%s%llu", i ? ", " : "", (unsigned long long)a->ids[i]);
		pr_str_adds(&b, "])");
		break;
	case POL_QA_RANGE: {
		char t0[PR_TIME_MAX], t1[PR_TIME_MAX];
		pr_str_addf(&b, "expand_range(\"%s\", \"%s\")", pr_time_point(t0, sizeof t0, a->t0),
		            pr_time_point(t1, sizeof t1, a->t1));
		break;
	}
	case POL_QA_SEARCH:
		pr_str_addf(&b, "search(\"%s\")", a->text ? a->text : "");
		break;
	default:
		pr_str_adds(&b, "answer(\"");
		pr_str_add_json(&b, a->text ? a->text : "");
		pr_str_adds(&b, "\", [");
		for (size_t i = 0; i < a->n_ids; i++)
			pr_str_addf(&b, "%s%llu", i ? ", " : "", (unsigned long long)a->ids[i]);
		pr_str_adds(&b, "])");
	}
	uint64_t t = b.s ? tok_count(b.s, b.len) : 0;
	pr_str_free(&b);
	return t;
}

int bi_qa_usage(const pol_qa_view *v, const pol_qa_action *a, pol_usage *u, h2emv_error *err)
{
	pr_prompt p = { 0 };
	int rc = pr_qa_step(&p, v, err);
	if (rc)
		return rc;
	if (u) {
		u->prompt_tokens += tok_prompt(&p);
		u->completion_tokens += completion_tokens(a);
		u->calls++;
	}
	pr_prompt_free(&p);
	return H2EMV_OK;
}
