/*
 * prompts_build.c — the prompts of tree construction: group-and-summarize
 * (the paper's incremental grouping) and the plain summary of one group.
 * Trimming and the token budget follow the rule in prompts.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/prompts.h"
#include "engine/engine.h"

static const char ROLE_GROUP[] =
	"You are the memory of a humanoid robot. You receive the robot's earlier goals and "
	"actions, already arranged in groups, and the actions it has just taken. Fit the new "
	"actions into that arrangement: decide whether they carry on the latest step or "
	"subtask or begin a new one. Mind the dates and times: items far apart in time do not "
	"belong in one group. Every group is one distinct, concrete step, such as \"wash the "
	"bowl\" or \"slice the onion and put the slices on the plate\", never a vague heading "
	"such as \"kitchen work\", and no two groups tell the same thing.";

static const char ASK_GROUP[] =
	"Decide how the current items join the previous ones. Reply with a JSON object whose "
	"keys are item ranges and whose values are short summaries, listing only the groups "
	"that change or are new. For example, {\"4-0\": \"...\"} adds the newest item (0) to "
	"the group of items 4 to 1; {\"0\": \"...\"} lets the newest item begin a new group; "
	"{\"5-3\": \"...\", \"2-0\": \"...\"} regroups items 5 to 3 and puts items 2 and 1 "
	"together with the newest. A range runs from its oldest (highest) number to its "
	"newest (lowest). When a group changes, rewrite its summary so that it covers exactly "
	"the items now in it. Merge previous groups only when they are the same step or "
	"subtask, never join items that lie far apart in time, and keep each group to a "
	"handful of items with a single subtask. Write every summary as one short sentence "
	"in the first person, as the robot.";

static const char FORMAT_GROUP[] = "Answer like this:\nReasoning: ...\nJSON: ...";

static const char ROLE_SUMMARY[] =
	"You are the memory of a humanoid robot and write short summaries of what it did, "
	"in its own voice.";

static const char FORMAT_SUMMARY[] = "Answer like this:\nSummary: ...";

/* The rules message shared by both prompts. */
static void add_rules_msg(pr_str *b, const pol_rules *rules)
{
	pr_str_adds(b, "Your user's rules about what is worth remembering:\n");
	pr_add_rules(b, rules);
	pr_str_adds(b, "Let these rules decide which details a summary keeps, but every "
	               "summary must still tell what actually happened.");
}

/* "- num: <time range>: text" for item i, the date left out when the item
 * starts on the same day as the previous line (*prev_day). */
static void add_item(pr_str *b, const pol_group_req *req, size_t i, int full, int64_t *prev_day)
{
	const pol_item *it = &req->items[i];
	char tr[PR_TIME_MAX];
	int64_t day = pr_day(it->t_start);
	pr_time_range(tr, sizeof tr, it->t_start, it->t_end, day != *prev_day);
	*prev_day = day;
	pr_str_addf(b, "- %zu: %s: ", req->n_items - 1 - i, tr);
	const char *text = it->text ? it->text : "";
	if (full)
		pr_add_text(b, text, strlen(text), "  ");
	else
		pr_add_trimmed(b, text, PR_OLD_LINES, PR_OLD_CHARS, "  ");
	pr_str_adds(b, "\n");
}

/* "Previous actions:" with the `drop` oldest old items left out. */
static void add_previous(pr_str *b, const pol_group_req *req, size_t drop, int64_t *prev_day)
{
	size_t n_old_items = req->n_items - req->n_new;
	if (n_old_items == 0) {
		pr_str_adds(b, "Previous actions: none yet.");
		return;
	}
	pr_str_adds(b, "Previous actions:\n");
	if (drop)
		pr_str_addf(b, "(%zu older item%s left out)\n", drop, drop == 1 ? "" : "s");
	for (size_t g = 0; g < req->n_old; g++) {
		const pol_group *o = &req->old_groups[g];
		if (o->last < drop)
			continue;
		pr_str_addf(b, "# (%zu - %zu) ", req->n_items - 1 - o->first, req->n_items - 1 - o->last);
		const char *s = o->summary ? o->summary : "";
		pr_add_trimmed(b, s, 1, PR_OLD_CHARS, "  ");
		pr_str_adds(b, "\n");
		for (size_t i = o->first < drop ? drop : o->first; i <= o->last; i++)
			add_item(b, req, i, 0, prev_day);
	}
	if (b->len && b->s[b->len - 1] == '\n')
		b->s[--b->len] = '\0';
}

/* Render the whole prompt with `drop` oldest old items left out. */
static int render_group(pr_prompt *out, const pol_group_req *req, size_t drop, h2emv_error *err)
{
	pr_str b = { 0 };
	int64_t prev_day = INT64_MIN;
	int rc = pr_prompt_add(out, "system", ROLE_GROUP, err);
	if (!rc && req->rules) {
		add_rules_msg(&b, req->rules);
		char *t = pr_str_take(&b);
		rc = t ? pr_prompt_add(out, "user", t, err) : eng_fail(err, H2EMV_ENOMEM, "out of memory");
		free(t);
	}
	if (!rc) {
		add_previous(&b, req, drop, &prev_day);
		char *t = pr_str_take(&b);
		rc = t ? pr_prompt_add(out, "user", t, err) : eng_fail(err, H2EMV_ENOMEM, "out of memory");
		free(t);
	}
	if (!rc) {
		pr_str_adds(&b, "Current:\n");
		for (size_t i = req->n_items - req->n_new; i < req->n_items; i++)
			add_item(&b, req, i, 1, &prev_day);
		if (b.len && b.s[b.len - 1] == '\n')
			b.s[--b.len] = '\0';
		char *t = pr_str_take(&b);
		rc = t ? pr_prompt_add(out, "user", t, err) : eng_fail(err, H2EMV_ENOMEM, "out of memory");
		free(t);
	}
	if (!rc)
		rc = pr_prompt_add(out, "user", ASK_GROUP, err);
	if (!rc)
		rc = pr_prompt_add(out, "user", FORMAT_GROUP, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}

/* Does the prompt with `drop` oldest items left out fit the budget? */
static int fits(int *fit, const pol_group_req *req, size_t drop, uint64_t budget, h2emv_error *err)
{
	pr_prompt p = { 0 };
	int rc = render_group(&p, req, drop, err);
	*fit = !rc && tok_prompt(&p) <= budget;
	pr_prompt_free(&p);
	return rc;
}

int pr_group(pr_prompt *out, const pol_group_req *req, uint64_t budget, h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	int rc = pr_check_group_req(req, err);
	if (rc)
		return rc;
	if (!budget)
		budget = PR_GROUP_BUDGET;
	size_t n_old_items = req->n_items - req->n_new;
	rc = render_group(out, req, 0, err);
	if (rc || n_old_items == 0 || tok_prompt(out) <= budget)
		return rc;
	pr_prompt_free(out);
	/* Leave out whole oldest items: the fewest that fit. The estimate falls
	 * as items go, so a binary search over the count finds it. */
	size_t lo = 1, hi = n_old_items;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int fit;
		if ((rc = fits(&fit, req, mid, budget, err)))
			return rc;
		if (fit)
			hi = mid;
		else
			lo = mid + 1;
	}
	return render_group(out, req, lo, err);
}

int pr_summarize(pr_prompt *out, const pol_item *items, size_t n, int level,
                 const pol_rules *rules, h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	if (n && !items)
		return eng_fail(err, H2EMV_EINVAL, "summarize: no items");
	pr_str b = { 0 };
	int rc = pr_prompt_add(out, "system", ROLE_SUMMARY, err);
	if (!rc && rules) {
		add_rules_msg(&b, rules);
		char *t = pr_str_take(&b);
		rc = t ? pr_prompt_add(out, "user", t, err) : eng_fail(err, H2EMV_ENOMEM, "out of memory");
		free(t);
	}
	if (!rc) {
		pr_str_adds(&b, "Items:");
		int64_t prev_day = INT64_MIN;
		for (size_t i = 0; i < n; i++) {
			char tr[PR_TIME_MAX];
			int64_t day = pr_day(items[i].t_start);
			pr_time_range(tr, sizeof tr, items[i].t_start, items[i].t_end, day != prev_day);
			prev_day = day;
			pr_str_addf(&b, "\n- %s: ", tr);
			pr_add_trimmed(&b, items[i].text ? items[i].text : "", PR_SUM_LINES, PR_SUM_CHARS,
			               "  ");
		}
		char *t = pr_str_take(&b);
		rc = t ? pr_prompt_add(out, "user", t, err) : eng_fail(err, H2EMV_ENOMEM, "out of memory");
		free(t);
	}
	if (!rc)
		rc = pr_prompt_add(out, "user",
		                   level >= 4 ? "Sum these items up in one concise sentence in the first "
		                                "person, as the robot. If there are large gaps in time "
		                                "between them, say briefly when things happened."
		                              : "Sum these items up in one concise sentence in the first "
		                                "person, as the robot.",
		                   err);
	if (!rc)
		rc = pr_prompt_add(out, "user", FORMAT_SUMMARY, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}
