/*
 * prompts_grade.c — the prompt of the evaluation's optional LLM judge: a
 * question, its ground truth (with the truth's time span) and an answer,
 * to be sorted into the paper's fine categories. The rules are the ones
 * the deterministic judge (bench/eval/judge.h) follows, in our words.
 */
#include <stdlib.h>

#include "api/policy/prompts.h"
#include "engine/engine.h"

static const char ROLE_JUDGE[] =
	"You grade the answers a robot gives to questions about its own past. You get the "
	"question, the correct answer (gt), the time span the correct answer refers to, and "
	"the robot's answer (hyp). Sort the answer into exactly one category:\n"
	"  correct: says what gt says;\n"
	"  correct_summarized: right, but less precise, such as a rough time or a summary "
	"of a list;\n"
	"  correct_tmi: right, with extra information that is plausibly true;\n"
	"  partially_correct_tmi: the right core with extra information that is wrong, or a "
	"list with items gt does not have;\n"
	"  partially_correct_missing: part of the answer, such as the day without the time, "
	"or a list missing items;\n"
	"  wrong: a different answer, or lists where each side has an item the other lacks;\n"
	"  no_answer: no answer, a refusal, or \"I have forgotten\".\n"
	"A time a minute or so off still counts as correct; a few minutes off is partially "
	"correct; more is wrong. Compare places and objects by meaning, not spelling.";

static const char FORMAT_JUDGE[] =
	"Answer like this:\nReasoning: ...\nCategory: <one category name>";

int pr_judge(pr_prompt *out, const char *question, const char *truth, int64_t ref_t0,
             int64_t ref_t1, const char *answer, h2emv_error *err)
{
	int rc = pr_prompt_add(out, "system", ROLE_JUDGE, err);
	pr_str b = { 0 };
	char span[PR_TIME_MAX];
	pr_str_addf(&b, "q: \"%s\"\ngt: \"%s\"\n", question ? question : "", truth ? truth : "");
	if (ref_t0 || ref_t1)
		pr_str_addf(&b, "gt refers to: %s\n",
		            pr_time_range(span, sizeof span, ref_t0, ref_t1, 1));
	pr_str_addf(&b, "hyp: \"%s\"\n\n%s", answer ? answer : "", FORMAT_JUDGE);
	char *t = pr_str_take(&b);
	if (rc == H2EMV_OK && !t)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc == H2EMV_OK)
		rc = pr_prompt_add(out, "user", t, err);
	free(t);
	if (rc != H2EMV_OK)
		pr_prompt_free(out);
	return rc;
}
