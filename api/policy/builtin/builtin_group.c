/*
 * builtin_group.c — the builtin's group-and-summarize: time-gap clustering
 * of the new items onto the end of the existing grouping.
 *
 * The rule. Old groups before the last one are returned unchanged (same
 * range, byte-identical summary), so the builder sees that nothing changed
 * there. The new items are then taken oldest first: each joins the
 * current group (at first the last old group) when
 *
 *     gap <= max(3 x median within-group gap, floor(level))
 *     and gap < ceiling(level)
 *     and the group has fewer than max_items(level) items,
 *
 * where gap = the item's start - the group's latest end, and the median is
 * over the gaps between consecutive items inside the old groups (0 when
 * there are none). Otherwise the item starts a new group. A group that
 * received an item gets a new summary (builtin_summary.c); an untouched
 * last old group keeps its own. Old groups are never merged or split:
 * regrouping the past is left to the llm policy.
 *
 *   item level   floor     ceiling   max items   (groups are level + 1)
 *   <= 3         2 min     20 min    6           steps of a task
 *   4            20 min    2 h       6           tasks
 *   5            2 h       6 h       6           parts of a day
 *   6            2 days    7 days    7           days into weeks
 *   >= 7         7 days    none      6
 *
 * The ceilings keep a night (a pause of 6 h or more) from being bridged
 * below the level that spans days, however long the usual gaps are.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"
#include "engine/engine.h"

#define MIN_US (60ll * 1000000)
#define HOUR_US (60 * MIN_US)
#define DAY_US (24 * HOUR_US)

typedef struct limits {
	int64_t floor, ceiling;
	size_t max_items;
} limits;

static limits limits_of(int level)
{
	limits l;
	if (level <= 3)
		l = (limits){ 2 * MIN_US, 20 * MIN_US, 6 };
	else if (level == 4)
		l = (limits){ 20 * MIN_US, 2 * HOUR_US, 6 };
	else if (level == 5)
		l = (limits){ 2 * HOUR_US, 6 * HOUR_US, 6 };
	else if (level == 6)
		l = (limits){ 2 * DAY_US, 7 * DAY_US, 7 };
	else
		l = (limits){ 7 * DAY_US, INT64_MAX, 6 };
	return l;
}

/* a - b, saturated (times are untrusted). */
static int64_t sub_sat(int64_t a, int64_t b)
{
	if (b < 0 && a > INT64_MAX + b)
		return INT64_MAX;
	if (b > 0 && a < INT64_MIN + b)
		return INT64_MIN;
	return a - b;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The join threshold for this request: max(3 x median, floor). */
static int join_threshold(int64_t *out, const pol_group_req *req, const limits *l)
{
	size_t n = 0;
	int64_t *g = malloc((req->n_items ? req->n_items : 1) * sizeof *g);
	if (!g)
		return -1;
	for (size_t k = 0; k < req->n_old; k++)
		for (size_t i = req->old_groups[k].first + 1; i <= req->old_groups[k].last; i++) {
			int64_t d = sub_sat(req->items[i].t_start, req->items[i - 1].t_end);
			g[n++] = d > 0 ? d : 0;
		}
	int64_t med = 0;
	if (n) {
		qsort(g, n, sizeof *g, cmp_i64);
		med = g[n / 2];
	}
	free(g);
	int64_t t = med > INT64_MAX / 3 ? INT64_MAX : 3 * med;
	*out = t > l->floor ? t : l->floor;
	return 0;
}

/* Append a group; `keep` = the old summary to copy, else summarise. */
static int emit(pol_group_reply *out, const pol_group_req *req, bi_cache *c, size_t first,
                size_t last, const char *keep, h2emv_error *err)
{
	pol_group *g = &out->groups[out->n];
	g->first = first;
	g->last = last;
	if (keep) {
		g->summary = strdup(keep);
		if (!g->summary)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	} else {
		int rc = bi_summary_cached(c, &g->summary, req->items + first, last - first + 1,
		                           req->level, req->rules, err);
		if (rc)
			return rc;
	}
	out->n++;
	return H2EMV_OK;
}

/* The reply the llm policy would give: the changed groups as JSON. */
static char *reply_json(const pol_group_reply *r, const pol_group_req *req)
{
	pr_str b = { 0 };
	int any = 0;
	pr_str_adds(&b, "JSON: {");
	for (size_t g = 0; g < r->n; g++) {
		int same = g < req->n_old && req->old_groups[g].first == r->groups[g].first &&
		           req->old_groups[g].last == r->groups[g].last &&
		           !strcmp(req->old_groups[g].summary ? req->old_groups[g].summary : "",
		                   r->groups[g].summary);
		if (same)
			continue;
		char key[48];
		pr_range_key(key, sizeof key, r->groups[g].first, r->groups[g].last, req->n_items);
		pr_str_addf(&b, "%s\"%s\": \"", any ? ", " : "", key);
		pr_str_add_json(&b, r->groups[g].summary);
		pr_str_adds(&b, "\"");
		any = 1;
	}
	pr_str_adds(&b, "}");
	return pr_str_take(&b);
}

static int regroup(pol_group_reply *out, const pol_group_req *req, bi_cache *c, h2emv_error *err)
{
	limits l = limits_of(req->level);
	int64_t thr;
	if (join_threshold(&thr, req, &l))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	out->groups = calloc(req->n_old + req->n_new + 1, sizeof *out->groups);
	if (!out->groups)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int rc = H2EMV_OK;
	/* untouched: every old group but the last */
	for (size_t k = 0; !rc && k + 1 < req->n_old; k++)
		rc = emit(out, req, c, req->old_groups[k].first, req->old_groups[k].last,
		          req->old_groups[k].summary ? req->old_groups[k].summary : "", err);
	int open = req->n_old > 0, touched = 0;
	size_t first = open ? req->old_groups[req->n_old - 1].first : 0;
	size_t last = open ? req->old_groups[req->n_old - 1].last : 0;
	int64_t end = INT64_MIN;
	for (size_t i = first; open && i <= last; i++)
		end = req->items[i].t_end > end ? req->items[i].t_end : end;
	for (size_t i = req->n_items - req->n_new; !rc && i < req->n_items; i++) {
		const pol_item *it = &req->items[i];
		if (open) {
			int64_t gap = sub_sat(it->t_start, end);
			if (gap <= thr && gap < l.ceiling && last - first + 1 < l.max_items) {
				last = i;
				touched = 1;
				end = it->t_end > end ? it->t_end : end;
				continue;
			}
			const char *keep = touched ? NULL
			                           : (req->old_groups[req->n_old - 1].summary
			                                  ? req->old_groups[req->n_old - 1].summary
			                                  : "");
			rc = emit(out, req, c, first, last, keep, err);
		}
		open = 1;
		touched = 1;
		first = last = i;
		end = it->t_end;
	}
	if (!rc && open) {
		const char *keep = touched ? NULL
		                           : (req->old_groups[req->n_old - 1].summary
		                                  ? req->old_groups[req->n_old - 1].summary
		                                  : "");
		rc = emit(out, req, c, first, last, keep, err);
	}
	return rc;
}

/* The prompt's tokens: counted from cached pieces, or rendered. */
static int prompt_tokens(uint64_t *out, const pol_group_req *req, bi_cache *c, h2emv_error *err)
{
	if (c) {
		pr_pieces pc = bi_cache_pieces(c);
		return pr_group_tokens(out, req, 0, &pc, err);
	}
	pr_prompt p;
	int rc = pr_group(&p, req, 0, err);
	*out = rc ? 0 : tok_prompt(&p);
	pr_prompt_free(&p);
	return rc;
}

static int group(bi_cache *c, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
                 h2emv_error *err)
{
	uint64_t prompt = 0;
	int estimate = u && !u->no_estimate;
	int rc = estimate ? prompt_tokens(&prompt, req, c, err) : pr_check_group_req(req, err);
	if (rc)
		return rc;
	rc = regroup(out, req, c, err);
	if (!rc && !estimate) {
		if (u)
			u->calls++;
	} else if (!rc) {
		char *reply = reply_json(out, req);
		if (!reply)
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		else
			bi_usage_tokens(u, prompt, reply);
		free(reply);
	}
	if (rc)
		pol_groups_free(out);
	return rc;
}

int bi_group(void *ctx, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
             h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "group: no output");
	memset(out, 0, sizeof *out);
	bi_cache *c = bi_ctx_lock(ctx);
	int rc = group(c, req, out, u, err);
	bi_ctx_unlock(ctx);
	return rc;
}
