/*
 * prompts_judge.c — the prompts of the decisions about rules: relevance of
 * an expired node, learning rules from feedback, and routing an utterance.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/prompts.h"
#include "engine/engine.h"

static const char ROLE_RELEVANCE[] =
	"You keep the history of what a robot experienced. Room is limited, so old items "
	"expire and are forgotten. The item below has expired: judge how relevant it still "
	"is, to decide whether it is kept longer or forgotten now. Your user's rules decide "
	"this; follow them closely. The parent item is given as context only. When no rule "
	"gives a reason to keep the item, forget it (Relevance: 0).";

static const char ASK_RELEVANCE[] =
	"How relevant is this item now? 0 means it can be forgotten now; a larger whole "
	"number keeps it that many lifetimes longer; \"inf\" keeps it for good.";

static const char FORMAT_RELEVANCE[] =
	"Answer like this:\nReasoning: ...\nRelevance: <number or inf>\n\n"
	"Example: with the rule \"Always remember where the keys are put\" and the item \"I "
	"put the keys on the hall shelf.\" the answer is\n"
	"Reasoning: The rule asks to keep where the keys were put.\nRelevance: inf";

static const char ROLE_LEARN[] =
	"You keep the history of what a robot experienced. Room is limited, so old items are "
	"forgotten, and to decide what is worth keeping you follow a set of rules learned "
	"from your user's feedback. You have just received new feedback. Change the rules to "
	"follow it by adding a rule, changing one or removing one. Merge rules that say nearly "
	"the same thing, but never make a rule broader than the user asked for. Keep rules "
	"short and plain, without details the user did not give. Copy every rule the feedback "
	"is not about exactly as it is: it may still matter in another situation.";

static const char ASK_LEARN[] =
	"Write the new set of rules as a numbered list, one rule per line.\n\n"
	"Example: the rules \"1. Forget what no rule asks to keep.\" and the feedback \"You "
	"should always remember when you meet Anna\" become\n"
	"1. Forget what no rule asks to keep.\n"
	"2. Remember the time of every meeting with Anna.";

static const char ROLE_ROUTE[] =
	"You are the dialog manager of a robot that remembers its past. Decide what the "
	"user's utterance is: a question about what the robot did, saw or heard earlier "
	"(question); feedback about what the robot should remember or may forget "
	"(feedback); or anything else, such as a greeting or a request you can answer "
	"directly (other).";

static const char FORMAT_ROUTE[] =
	"Answer like this:\nReasoning: ...\nRoute: question, feedback or other\n"
	"Reply: <what to say back, only for other>\n\n"
	"Example: for \"Good morning, ARMAR!\" the answer is\n"
	"Reasoning: A greeting, nothing to look up or learn.\nRoute: other\n"
	"Reply: Good morning!";

/* Move the text of `b` into a new user message. */
static int add_user(pr_prompt *out, pr_str *b, h2emv_error *err)
{
	char *t = pr_str_take(b);
	if (!t)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int rc = pr_prompt_add(out, "user", t, err);
	free(t);
	return rc;
}

/* "<range>: text" with the date, the way relevance shows a node. */
static void add_node(pr_str *b, const pol_item *it)
{
	char tr[PR_TIME_MAX];
	pr_time_range(tr, sizeof tr, it->t_start, it->t_end, 1);
	pr_str_addf(b, "%s: ", tr);
	const char *t = it->text ? it->text : "";
	pr_add_text(b, t, strlen(t), "  ");
}

int pr_relevance(pr_prompt *out, const pol_relevance_req *req, h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	if (!req || !req->item)
		return eng_fail(err, H2EMV_EINVAL, "relevance: no item");
	pr_str b = { 0 };
	int rc = pr_prompt_add(out, "system", ROLE_RELEVANCE, err);
	if (!rc) {
		if (req->rules && req->rules->n) {
			pr_str_adds(&b, "Rules about what matters and what does not:\n");
			pr_add_rules(&b, req->rules);
			if (b.len && b.s[b.len - 1] == '\n')
				b.s[--b.len] = '\0';
		} else {
			pr_str_adds(&b, "Rules about what matters: none; forget by default.");
		}
		rc = add_user(out, &b, err);
	}
	if (!rc) {
		char now[PR_TIME_MAX];
		pr_str_adds(&b, "Item whose relevance is to be judged:\n");
		add_node(&b, req->item);
		pr_str_adds(&b, "\nContext:\nParent item: ");
		if (req->parent)
			add_node(&b, req->parent);
		else
			pr_str_adds(&b, "none (a top-level item)");
		pr_str_addf(&b, "\nNow: %s", pr_time_point(now, sizeof now, req->now));
		rc = add_user(out, &b, err);
	}
	if (!rc)
		rc = pr_prompt_add(out, "user", ASK_RELEVANCE, err);
	if (!rc)
		rc = pr_prompt_add(out, "user", FORMAT_RELEVANCE, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}

int pr_learn(pr_prompt *out, const pol_rules *old, const char *feedback, h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	pr_str b = { 0 };
	int rc = pr_prompt_add(out, "system", ROLE_LEARN, err);
	if (!rc) {
		if (old && old->n) {
			pr_str_adds(&b, "Current rules:\n");
			pr_add_rules(&b, old);
			if (b.len && b.s[b.len - 1] == '\n')
				b.s[--b.len] = '\0';
		} else {
			pr_str_adds(&b, "Current rules: none.");
		}
		rc = add_user(out, &b, err);
	}
	if (!rc) {
		pr_str_adds(&b, "User feedback: \"");
		pr_str_adds(&b, feedback ? feedback : "");
		pr_str_adds(&b, "\"");
		rc = add_user(out, &b, err);
	}
	if (!rc)
		rc = pr_prompt_add(out, "user", ASK_LEARN, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}

int pr_route(pr_prompt *out, const char *utterance, h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	pr_str b = { 0 };
	int rc = pr_prompt_add(out, "system", ROLE_ROUTE, err);
	if (!rc) {
		pr_str_adds(&b, "Utterance: \"");
		pr_str_adds(&b, utterance ? utterance : "");
		pr_str_adds(&b, "\"");
		rc = add_user(out, &b, err);
	}
	if (!rc)
		rc = pr_prompt_add(out, "user", FORMAT_ROUTE, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}
