/*
 * prompts_build.c — the prompts of tree construction: group-and-summarize
 * (the paper's incremental grouping) and the plain summary of one group.
 * Trimming and the token budget follow the rule in prompts.h. The second
 * half counts the same prompts' tokens piece by piece without rendering
 * them (pr_group_tokens, pr_summarize_tokens): it mirrors the renderers
 * line for line, so a change to one is a change to both (the tests compare
 * them on random requests).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
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

/* The answer format with one worked example (ours, not the paper's). */
static const char FORMAT_GROUP[] =
	"Answer like this:\nReasoning: ...\nJSON: ...\n\n"
	"Example. Previous actions:\n"
	"# (2 - 1) I rinsed the mug at the sink.\n"
	"- 2: 2024/03/05 10:01:10 - 10:01:30: I picked up the mug from the shelf.\n"
	"- 1: 10:01:40 - 10:02:05: I rinsed the mug under the faucet.\n"
	"Current:\n"
	"- 0: 10:02:20 - 10:02:40: I put the mug into the coffee machine and switched it on.\n"
	"Answer:\n"
	"Reasoning: Rinsing is done; starting the coffee machine is the next step.\n"
	"JSON: {\"0\": \"I put the mug into the coffee machine and started it.\"}";

static const char ROLE_SUMMARY[] =
	"You are the memory of a humanoid robot and write short summaries of what it did, "
	"in its own voice.";

static const char FORMAT_SUMMARY[] =
	"Answer like this:\nSummary: ...\n\n"
	"Example: for the items \"I picked up the knife.\" and \"I sliced the bread on the "
	"counter.\" the answer is\nSummary: I sliced the bread with the knife on the counter.";

static const char ASK_SUMMARY[] =
	"Sum these items up in one concise sentence in the first person, as the robot.";
static const char ASK_SUMMARY_TIMED[] =
	"Sum these items up in one concise sentence in the first person, as the robot. If "
	"there are large gaps in time between them, say briefly when things happened.";

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
		rc = pr_prompt_add(out, "user", level >= 4 ? ASK_SUMMARY_TIMED : ASK_SUMMARY, err);
	if (!rc)
		rc = pr_prompt_add(out, "user", FORMAT_SUMMARY, err);
	pr_str_free(&b);
	if (rc)
		pr_prompt_free(out);
	return rc;
}

/* --------------------------------------------------- tokens by pieces -- */

/* The messages that never change, counted once. */
static uint64_t tok_role_group, tok_ask_group, tok_format_group, tok_role_summary,
	tok_format_summary, tok_ask_summary[2];
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void count_fixed(void)
{
	tok_role_group = tok_text(ROLE_GROUP);
	tok_ask_group = tok_text(ASK_GROUP);
	tok_format_group = tok_text(FORMAT_GROUP);
	tok_role_summary = tok_text(ROLE_SUMMARY);
	tok_format_summary = tok_text(FORMAT_SUMMARY);
	tok_ask_summary[0] = tok_text(ASK_SUMMARY);
	tok_ask_summary[1] = tok_text(ASK_SUMMARY_TIMED);
}

uint64_t pr_piece_tokens(const char *text, int kind)
{
	pr_str b = { 0 };
	const char *t = text ? text : "";
	pr_str_adds(&b, kind == PR_PIECE_HEADER ? ") " : ": ");
	if (kind == PR_PIECE_CURRENT)
		pr_add_text(&b, t, strlen(t), "  ");
	else if (kind == PR_PIECE_OLD)
		pr_add_trimmed(&b, t, PR_OLD_LINES, PR_OLD_CHARS, "  ");
	else if (kind == PR_PIECE_HEADER)
		pr_add_trimmed(&b, t, 1, PR_OLD_CHARS, "  ");
	else
		pr_add_trimmed(&b, t, PR_SUM_LINES, PR_SUM_CHARS, "  ");
	if (kind != PR_PIECE_SUMMARY)
		pr_str_adds(&b, "\n");
	uint64_t n = b.s ? tok_count(b.s, b.len) : 0;
	pr_str_free(&b);
	return n;
}

uint64_t pr_range_tokens(int64_t t0, int64_t t1, int with_date, int kind)
{
	char buf[PR_TIME_MAX + 8];
	size_t k = kind == PR_RANGE_SUMMARY ? 3 : 2;
	memcpy(buf, kind == PR_RANGE_SUMMARY ? "\n- " : ": ", k);
	pr_time_range(buf + k, sizeof buf - k, t0, t1, with_date);
	return tok_count(buf, strlen(buf));
}

uint64_t pr_rules_msg_tokens(const pol_rules *rules)
{
	pr_str b = { 0 };
	add_rules_msg(&b, rules);
	uint64_t n = b.s ? tok_count(b.s, b.len) : 0;
	pr_str_free(&b);
	return n;
}

static uint64_t piece(const pr_pieces *pc, const char *text, int kind)
{
	return pc && pc->text ? pc->text(pc->arg, text, kind) : pr_piece_tokens(text, kind);
}

static uint64_t range_piece(const pr_pieces *pc, const pol_item *it, int with_date, int kind)
{
	return pc && pc->range ? pc->range(pc->arg, it->t_start, it->t_end, with_date, kind)
	                       : pr_range_tokens(it->t_start, it->t_end, with_date, kind);
}

static uint64_t rules_piece(const pr_pieces *pc, const pol_rules *rules)
{
	return pc && pc->rules ? pc->rules(pc->arg, rules) : pr_rules_msg_tokens(rules);
}

/* Append the decimal digits of v (what "%zu" prints) at p; returns the
 * end. */
static char *put_zu(char *p, size_t v)
{
	char d[24];
	size_t n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = d[--n];
	return p;
}

/* Tokens of "- N" (an item's number). */
static uint64_t tok_number(size_t v)
{
	char buf[32] = "- ";
	return tok_count(buf, (size_t)(put_zu(buf + 2, v) - buf));
}

/* Tokens of "# (a - b" (a group header up to its ')'). */
static uint64_t tok_header(size_t a, size_t b)
{
	char buf[64] = "# (";
	char *p = put_zu(buf + 3, a);
	memcpy(p, " - ", 3);
	p = put_zu(p + 3, b);
	return tok_count(buf, (size_t)(p - buf));
}

/* Tokens of "(N older item(s) left out)\n". */
static uint64_t tok_left_out(size_t v)
{
	char buf[64];
	int n = snprintf(buf, sizeof buf, "(%zu older item%s left out)\n", v, v == 1 ? "" : "s");
	return tok_count(buf, (size_t)n);
}

/* The pieces of a grouping prompt, counted once per request: the budget's
 * search then only adds them up. */
typedef struct gpieces {
	uint64_t *item;      /* add_item: "- N" + ": <text>\n" (range apart) */
	uint64_t *range;     /* ": <range>": [2i] without the date, [2i + 1] with;
	                        UINT64_MAX until needed */
	int64_t *day;        /* of the item's start */
	uint64_t *header;    /* add_previous: "# (a - b" + ") <summary>\n" */
	const pol_group_req *req;
	const pr_pieces *pc;
} gpieces;

static void gpieces_free(gpieces *g)
{
	free(g->item);
	free(g->range);
	free(g->day);
	free(g->header);
}

static int gpieces_count(gpieces *g, const pol_group_req *req, const pr_pieces *pc)
{
	size_t n = req->n_items ? req->n_items : 1, n_old_items = req->n_items - req->n_new;
	g->item = malloc(n * sizeof *g->item);
	g->range = malloc(2 * n * sizeof *g->range);
	g->day = malloc(n * sizeof *g->day);
	g->header = malloc((req->n_old ? req->n_old : 1) * sizeof *g->header);
	if (!g->item || !g->range || !g->day || !g->header)
		return -1;
	for (size_t i = 0; i < req->n_items; i++) {
		const pol_item *it = &req->items[i];
		/* "- N" | ": <range>" | ": <text>\n": cut before each ':' */
		g->item[i] = tok_number(req->n_items - 1 - i) +
		             piece(pc, it->text, i < n_old_items ? PR_PIECE_OLD : PR_PIECE_CURRENT);
		g->range[2 * i] = g->range[2 * i + 1] = UINT64_MAX;
		g->day[i] = pr_day(it->t_start);
	}
	for (size_t k = 0; k < req->n_old; k++) {
		const pol_group *o = &req->old_groups[k];
		/* "# (a - b" | ") <summary>\n": cut before ')' */
		g->header[k] = tok_header(req->n_items - 1 - o->first, req->n_items - 1 - o->last) +
		               piece(pc, o->summary, PR_PIECE_HEADER);
	}
	g->req = req;
	g->pc = pc;
	return 0;
}

/* add_item, counted (the date shown when the day changes). */
static uint64_t item_tokens(const gpieces *g, size_t i, int64_t *prev_day)
{
	int with_date = g->day[i] != *prev_day;
	*prev_day = g->day[i];
	uint64_t *r = &g->range[2 * i + with_date];
	if (*r == UINT64_MAX)
		*r = range_piece(g->pc, &g->req->items[i], with_date, PR_RANGE_GROUP);
	return g->item[i] + *r;
}

/* add_previous, counted: every line ends in "\n" and the last one is
 * taken off (a newline is always one token of its own). */
static uint64_t previous_tokens(const pol_group_req *req, size_t drop, int64_t *prev_day,
                                const gpieces *g)
{
	size_t n_old_items = req->n_items - req->n_new;
	if (n_old_items == 0)
		return tok_text("Previous actions: none yet.");
	uint64_t t = tok_text("Previous actions:\n");
	if (drop)
		t += tok_left_out(drop);
	for (size_t k = 0; k < req->n_old; k++) {
		const pol_group *o = &req->old_groups[k];
		if (o->last < drop)
			continue;
		t += g->header[k];
		for (size_t i = o->first < drop ? drop : o->first; i <= o->last; i++)
			t += item_tokens(g, i, prev_day);
	}
	return t - 1;
}

/* render_group, counted. */
static uint64_t group_tokens(const pol_group_req *req, size_t drop, uint64_t fixed,
                             const gpieces *g)
{
	int64_t prev_day = INT64_MIN;
	uint64_t t = fixed + previous_tokens(req, drop, &prev_day, g);
	t += tok_text("Current:\n");
	for (size_t i = req->n_items - req->n_new; i < req->n_items; i++)
		t += item_tokens(g, i, &prev_day);
	return t - 1;
}

int pr_group_tokens(uint64_t *out, const pol_group_req *req, uint64_t budget,
                    const pr_pieces *pc, h2emv_error *err)
{
	*out = 0;
	int rc = pr_check_group_req(req, err);
	if (rc)
		return rc;
	pthread_once(&fixed_once, count_fixed);
	gpieces g = { 0 };
	if (gpieces_count(&g, req, pc)) {
		gpieces_free(&g);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	if (!budget)
		budget = PR_GROUP_BUDGET;
	/* system, rules?, previous, current, ask, format */
	size_t n_msgs = req->rules ? 6 : 5;
	uint64_t fixed = TOK_PER_REPLY + n_msgs * TOK_PER_MESSAGE + tok_role_group + tok_ask_group +
	                 tok_format_group + (req->rules ? rules_piece(pc, req->rules) : 0);
	size_t n_old_items = req->n_items - req->n_new, lo = 0;
	if (n_old_items && group_tokens(req, 0, fixed, &g) > budget) {
		/* the same search as pr_group's */
		size_t hi = n_old_items;
		lo = 1;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (group_tokens(req, mid, fixed, &g) <= budget)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	*out = group_tokens(req, lo, fixed, &g);
	gpieces_free(&g);
	return H2EMV_OK;
}

int pr_summarize_tokens(uint64_t *out, const pol_item *items, size_t n, int level,
                        const pol_rules *rules, const pr_pieces *pc, h2emv_error *err)
{
	*out = 0;
	if (n && !items)
		return eng_fail(err, H2EMV_EINVAL, "summarize: no items");
	pthread_once(&fixed_once, count_fixed);
	/* system, rules?, items, ask, format */
	uint64_t t = TOK_PER_REPLY + (rules ? 5 : 4) * TOK_PER_MESSAGE + tok_role_summary +
	             tok_format_summary + tok_ask_summary[level >= 4] +
	             (rules ? rules_piece(pc, rules) : 0);
	/* "Items:" | "\n- <range>" | ": <text>" ... */
	t += tok_text("Items:");
	int64_t prev_day = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		int64_t day = pr_day(items[i].t_start);
		t += range_piece(pc, &items[i], day != prev_day, PR_RANGE_SUMMARY);
		prev_day = day;
		t += piece(pc, items[i].text, PR_PIECE_SUMMARY);
	}
	*out = t;
	return H2EMV_OK;
}
