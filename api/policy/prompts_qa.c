/*
 * prompts_qa.c — the prompt of one question-answering step: the tools, the
 * question, the clock, the part of the tree currently shown, the steps so
 * far, and on the last round the order to answer now.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/prompts.h"
#include "engine/engine.h"

static const char ROLE_QA[] =
	"You are a humanoid robot answering a question about your own past. Your memory is a "
	"tree: each line of the view is a node, with its id in brackets, its time range and "
	"a summary; indented lines are its children, and \"...\" marks children not shown "
	"yet. Look only as deep as you need, one action per step:\n"
	"  expand(ids) shows the children of the nodes with these ids;\n"
	"  expand_range(t0, t1) shows every node that overlaps the time range;\n"
	"  search(text) shows the nodes whose content matches the text;\n"
	"  answer(text, ids) gives your answer and the ids of the nodes it rests on.\n"
	"A node marked (forgotten) stands for time you no longer remember. If what the "
	"question asks about lies in forgotten time, say that you have forgotten it instead "
	"of guessing.";

static const char LAST_QA[] =
	"This is your last step: answer now with answer(text, ids) from what you can see.";

static const char FORMAT_QA[] =
	"Answer like this:\nReasoning: ...\nAction: one of expand([12, 15]), "
	"expand_range(\"2024/09/23 10:00\", \"2024/09/23 11:00\"), search(\"knife\"), "
	"answer(\"...\", [12])"
	"\n\nExample: when node [42] reads \"Goal: Place(knife, sink)\" and the question is "
	"where the knife was put the last time, the answer is\n"
	"Reasoning: Node 42 is the last time the knife was put somewhere.\n"
	"Action: answer(\"At the sink.\", [42])";

static int add_user(pr_prompt *out, pr_str *b, h2emv_error *err)
{
	char *t = pr_str_take(b);
	if (!t)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int rc = pr_prompt_add(out, "user", t, err);
	free(t);
	return rc;
}

static void add_indent(pr_str *b, int depth)
{
	for (int d = 0; d < depth && d < 64; d++)
		pr_str_add(b, "  ", 2);
}

/* One line (and its continuation lines) per visible node. */
static void add_view(pr_str *b, const pol_qa_view *v)
{
	pr_str_adds(b, "Current view:");
	if (!v->n)
		pr_str_adds(b, "\n(empty: nothing remembered yet)");
	for (size_t i = 0; i < v->n; i++) {
		const pol_item *it = &v->nodes[i];
		int depth = v->depth ? v->depth[i] : 0;
		char tr[PR_TIME_MAX];
		pr_str_adds(b, "\n");
		add_indent(b, depth);
		pr_time_range(tr, sizeof tr, it->t_start, it->t_end, 1);
		pr_str_addf(b, "[%llu] %s: ", (unsigned long long)it->id, tr);
		const char *t = it->text ? it->text : "";
		if (it->forgotten) {
			pr_str_adds(b, "(forgotten)");
		} else {
			pr_str str_indent = { 0 };
			add_indent(&str_indent, depth + 2);
			pr_add_text(b, t, strlen(t), str_indent.s ? str_indent.s : "");
			b->oom |= str_indent.oom;
			pr_str_free(&str_indent);
		}
		int kids = v->has_children && v->has_children[i];
		int open = v->expanded && v->expanded[i];
		if (kids && !open) {
			pr_str_adds(b, "\n");
			add_indent(b, depth + 1);
			pr_str_adds(b, "...");
		}
	}
}

int pr_qa_step(pr_prompt *out, const pol_qa_view *v, h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	if (!v || (v->n && !v->nodes))
		return eng_fail(err, H2EMV_EINVAL, "qa step: bad view");
	pr_str b = { 0 };
	char now[PR_TIME_MAX];
	int rc = pr_prompt_add(out, "system", ROLE_QA, err);
	if (!rc) {
		pr_str_addf(&b, "Question: %s\nNow: %s", v->question ? v->question : "",
		            pr_time_point(now, sizeof now, v->now));
		rc = add_user(out, &b, err);
	}
	if (!rc) {
		add_view(&b, v);
		rc = add_user(out, &b, err);
	}
	if (!rc && v->history && *v->history) {
		pr_str_adds(&b, "Previous steps:\n");
		pr_str_adds(&b, v->history);
		rc = add_user(out, &b, err);
	}
	if (!rc && v->round + 1 >= v->max_rounds)
		rc = pr_prompt_add(out, "user", LAST_QA, err);
	if (!rc)
		rc = pr_prompt_add(out, "user", FORMAT_QA, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}
