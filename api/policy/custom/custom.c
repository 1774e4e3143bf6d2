/*
 * custom.c — a policy of the caller's own (h2emv_custom_policy, the public
 * EXPERIMENTAL interface) behind the internal table of policy.h: requests
 * are translated to the public structs, what the callbacks return is
 * checked like a model's reply, and a missing callback, an EPARSE or a
 * reply that does not hold hands the decision to the builtin policy (a
 * qa_step's is answered "not found": the builtin takes no steps).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_internal.h"
#include "api/policy/builtin/builtin.h"
#include "api/policy/custom/custom.h"
#include "api/base/utf8.h"
#include "engine/engine.h"

typedef struct cu_pol {
	h2emv_custom_policy user;
	char name[16];
	h2emv_policy *builtin;  /* decides what the user's policy does not */
	pthread_mutex_t lock;   /* guards st */
	pol_stats st;
} cu_pol;

enum { ST_DECISION, ST_BAD, ST_FALLBACK, ST_FAILED };

static void bump(cu_pol *p, int what)
{
	pthread_mutex_lock(&p->lock);
	switch (what) {
	case ST_DECISION: p->st.decisions++; break;
	case ST_BAD: p->st.bad_replies++; break;
	case ST_FALLBACK: p->st.fallbacks++; break;
	default: p->st.transport_errors++; break;
	}
	pthread_mutex_unlock(&p->lock);
}

static void spent_add(pol_usage *u, const h2emv_tokens *t)
{
	if (!u)
		return;
	u->prompt_tokens += t->prompt;
	u->completion_tokens += t->completion;
	u->calls += t->calls ? t->calls : 1;
}

/* The error slot handed to a callback: never NULL, empty. */
static h2emv_error *slot(h2emv_error *err, h2emv_error *local)
{
	h2emv_error *e = err ? err : local;
	memset(e, 0, sizeof *e);
	return e;
}

static int text_ok(const char *s)
{
	return s && utf8_text_ok(s, strlen(s));
}

/* The result of one callback: OK, EPARSE (fall back: counted), or an error
 * the caller gets. A callback that failed without a message gets one. */
static int settle(cu_pol *p, int rc, const char *what, h2emv_error *err)
{
	if (rc == H2EMV_OK)
		return H2EMV_OK;
	if (rc == H2EMV_EPARSE) {
		bump(p, ST_BAD);
		bump(p, ST_FALLBACK);
		return H2EMV_EPARSE;
	}
	bump(p, ST_FAILED);
	if (err && !err->message[0])
		eng_fail(err, rc, "policy '%s': %s failed (%s)", p->name, what, h2emv_strerror(rc));
	else if (err)
		err->status = rc;
	return rc;
}

static h2emv_policy_item item_out(const pol_item *i)
{
	return (h2emv_policy_item){ i->id, i->level, i->t_start, i->t_end,
		                    i->text ? i->text : "", i->content, i->forgotten };
}

/* The items as the public struct; NULL (ENOMEM) only when n > 0. */
static h2emv_policy_item *items_out(const pol_item *in, size_t n)
{
	h2emv_policy_item *v = calloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; v && i < n; i++)
		v[i] = item_out(&in[i]);
	return v;
}

/* --------------------------------------------------------------- group -- */

static int group_call(cu_pol *p, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
                      h2emv_error *err)
{
	h2emv_policy_item *items = items_out(req->items, req->n_items);
	h2emv_policy_group *old = calloc(req->n_old ? req->n_old : 1, sizeof *old);
	if (!items || !old) {
		free(items);
		free(old);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < req->n_old; i++)
		old[i] = (h2emv_policy_group){ req->old_groups[i].first, req->old_groups[i].last,
			                       req->old_groups[i].summary };
	h2emv_policy_rules rules = { req->rules ? req->rules->items : NULL,
		                     req->rules ? req->rules->n : 0 };
	h2emv_policy_group_request r = { req->level, items, req->n_items, old, req->n_old,
		                         req->n_new, req->rules ? &rules : NULL, req->now };
	h2emv_policy_group *g = NULL;
	size_t n = 0;
	h2emv_tokens t = { 0 };
	h2emv_error local;
	int rc = p->user.group(p->user.ctx, &g, &n, &r, &t, slot(err, &local));
	spent_add(u, &t);
	free(items);
	free(old);
	/* take ownership first: whatever the verdict, the strings are ours */
	out->groups = calloc(n ? n : 1, sizeof *out->groups);
	if (!out->groups) {
		for (size_t i = 0; g && i < n; i++)
			free(g[i].summary);
		free(g);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; g && i < n; i++)
		out->groups[i] = (pol_group){ g[i].first, g[i].last, g[i].summary };
	out->n = g ? n : 0;
	free(g);
	if (rc == H2EMV_OK) {
		size_t next = 0;
		for (size_t i = 0; rc == H2EMV_OK && i < out->n; i++) {
			const pol_group *x = &out->groups[i];
			if (x->first != next || x->last < x->first || x->last >= req->n_items ||
			    !text_ok(x->summary))
				rc = eng_fail(err, H2EMV_EPARSE, "group %zu is not the next run of items "
				              "with a UTF-8 summary", i);
			next = x->last + 1;
		}
		if (rc == H2EMV_OK && next != req->n_items)
			rc = eng_fail(err, H2EMV_EPARSE, "the groups cover %zu of %zu items", next,
			              req->n_items);
	}
	if (rc != H2EMV_OK)
		pol_groups_free(out);
	return rc;
}

static int cu_group(void *ctx, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
                    h2emv_error *err)
{
	cu_pol *p = ctx;
	int rc = H2EMV_EPARSE;
	if (p->user.group) {
		bump(p, ST_DECISION);
		rc = settle(p, group_call(p, req, out, u, err), "group", err);
	}
	if (rc == H2EMV_EPARSE)
		rc = p->builtin->group(p->builtin->ctx, req, out, u, err);
	return rc;
}

/* ----------------------------------------------------------- summarize -- */

static int cu_summarize(void *ctx, const pol_item *items, size_t n, int level,
                        const pol_rules *rules, char **out, pol_usage *u, h2emv_error *err)
{
	cu_pol *p = ctx;
	int rc = H2EMV_EPARSE;
	*out = NULL;
	if (p->user.summarize) {
		bump(p, ST_DECISION);
		h2emv_policy_item *v = items_out(items, n);
		if (!v)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		h2emv_policy_rules r = { rules ? rules->items : NULL, rules ? rules->n : 0 };
		h2emv_tokens t = { 0 };
		h2emv_error local;
		rc = p->user.summarize(p->user.ctx, out, v, n, level, rules ? &r : NULL, &t,
		                       slot(err, &local));
		spent_add(u, &t);
		free(v);
		if (rc == H2EMV_OK && !text_ok(*out))
			rc = eng_fail(err, H2EMV_EPARSE, "the summary is missing or not UTF-8");
		if (rc != H2EMV_OK) {
			free(*out);
			*out = NULL;
		}
		rc = settle(p, rc, "summarize", err);
	}
	if (rc == H2EMV_EPARSE)
		rc = p->builtin->summarize(p->builtin->ctx, items, n, level, rules, out, u, err);
	return rc;
}

/* ----------------------------------------------------------- relevance -- */

static int cu_relevance(void *ctx, const pol_relevance_req *req, double *alpha, pol_usage *u,
                        h2emv_error *err)
{
	cu_pol *p = ctx;
	int rc = H2EMV_EPARSE;
	if (p->user.relevance) {
		bump(p, ST_DECISION);
		h2emv_policy_item it = item_out(req->item), par = { 0 };
		if (req->parent)
			par = item_out(req->parent);
		h2emv_policy_rules r = { req->rules ? req->rules->items : NULL,
			                 req->rules ? req->rules->n : 0 };
		h2emv_policy_relevance_request q = { &it, req->parent ? &par : NULL, req->now,
			                             req->rules ? &r : NULL };
		h2emv_tokens t = { 0 };
		*alpha = 0;
		h2emv_error local;
		rc = p->user.relevance(p->user.ctx, alpha, &q, &t, slot(err, &local));
		rc = settle(p, rc, "relevance", err);
		spent_add(u, &t);
	}
	if (rc == H2EMV_EPARSE)
		rc = p->builtin->relevance(p->builtin->ctx, req, alpha, u, err);
	return rc;
}

/* --------------------------------------------------------------- learn -- */

static int cu_learn(void *ctx, const pol_rules *old, const char *feedback, pol_rule_list *out,
                    pol_usage *u, h2emv_error *err)
{
	cu_pol *p = ctx;
	int rc = H2EMV_EPARSE;
	if (p->user.learn) {
		bump(p, ST_DECISION);
		h2emv_policy_rules r = { old->items, old->n };
		char **items = NULL;
		size_t n = 0;
		h2emv_tokens t = { 0 };
		h2emv_error local;
		rc = p->user.learn(p->user.ctx, &items, &n, &r, feedback, &t, slot(err, &local));
		spent_add(u, &t);
		out->items = items;
		out->n = items ? n : 0;
		for (size_t i = 0; rc == H2EMV_OK && i < out->n; i++)
			if (!text_ok(items[i]))
				rc = eng_fail(err, H2EMV_EPARSE, "rule %zu is missing or not UTF-8", i + 1);
		if (rc != H2EMV_OK)
			pol_rule_list_free(out);
		rc = settle(p, rc, "learn", err);
	}
	if (rc == H2EMV_EPARSE)
		rc = p->builtin->learn(p->builtin->ctx, old, feedback, out, u, err);
	return rc;
}

/* ----------------------------------------------- question answering -- */

static int action_check(const pol_qa_action *a, h2emv_error *err)
{
	if (a->kind < POL_QA_EXPAND || a->kind > POL_QA_ANSWER)
		return eng_fail(err, H2EMV_EPARSE, "unknown action kind %d", a->kind);
	if (a->n_ids && !a->ids)
		return eng_fail(err, H2EMV_EPARSE, "%zu ids but no array", a->n_ids);
	if ((a->kind == POL_QA_SEARCH || a->kind == POL_QA_ANSWER) && !text_ok(a->text))
		return eng_fail(err, H2EMV_EPARSE, "the action's text is missing or not UTF-8");
	if (a->text && !text_ok(a->text))
		return eng_fail(err, H2EMV_EPARSE, "the action's text is not UTF-8");
	return H2EMV_OK;
}

static int qa_call(cu_pol *p, const pol_qa_view *view, pol_qa_action *out, pol_usage *u,
                   h2emv_error *err)
{
	h2emv_policy_item *nodes = items_out(view->nodes, view->n);
	if (!nodes)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	h2emv_policy_qa_view v = { view->question, view->now, nodes, view->depth, view->expanded,
		                   view->has_children, view->n, view->round, view->max_rounds,
		                   view->history ? view->history : "" };
	h2emv_policy_qa_action a = { 0 };
	h2emv_tokens t = { 0 };
	h2emv_error local;
	int rc = p->user.qa_step(p->user.ctx, &a, &v, &t, slot(err, &local));
	spent_add(u, &t);
	free(nodes);
	*out = (pol_qa_action){ a.kind, a.ids, a.ids ? a.n_ids : 0, a.t0, a.t1, a.text,
		                a.forgotten };
	if (rc == H2EMV_OK)
		rc = action_check(out, err);
	if (rc != H2EMV_OK)
		pol_qa_action_free(out);
	return rc;
}

static int cu_qa_step(void *ctx, const pol_qa_view *view, pol_qa_action *out, pol_usage *u,
                      h2emv_error *err)
{
	cu_pol *p = ctx;
	memset(out, 0, sizeof *out);
	bump(p, ST_DECISION);
	int rc = settle(p, qa_call(p, view, out, u, err), "qa_step", err);
	if (rc == H2EMV_EPARSE) { /* the builtin takes no steps: settled as llm.c does */
		out->kind = POL_QA_ANSWER;
		rc = (out->text = strdup("I could not find that in my memory.")) ? H2EMV_OK
		                                                                 : H2EMV_ENOMEM;
	}
	return rc;
}

static int cu_route(void *ctx, const char *utterance, int *route, char **reply, pol_usage *u,
                    h2emv_error *err)
{
	cu_pol *p = ctx;
	*reply = NULL;
	bump(p, ST_DECISION);
	h2emv_route r = H2EMV_ROUTE_REPLY;
	h2emv_tokens t = { 0 };
	h2emv_error local;
	int rc = p->user.route(p->user.ctx, &r, reply, utterance, &t, slot(err, &local));
	spent_add(u, &t);
	if (rc == H2EMV_OK && (r < H2EMV_ROUTE_QUESTION || r > H2EMV_ROUTE_REPLY))
		rc = eng_fail(err, H2EMV_EPARSE, "unknown route %d", (int)r);
	if (rc == H2EMV_OK && *reply && !text_ok(*reply))
		rc = eng_fail(err, H2EMV_EPARSE, "the reply is not UTF-8");
	if (rc == H2EMV_OK) {
		*route = (int)r; /* POL_ROUTE_* and H2EMV_ROUTE_* share their values */
		return H2EMV_OK;
	}
	free(*reply);
	*reply = NULL;
	rc = settle(p, rc, "route", err);
	if (rc == H2EMV_EPARSE)
		rc = p->builtin->route(p->builtin->ctx, utterance, route, reply, u, err);
	return rc;
}

/* ------------------------------------------------------------- the table -- */

static void cu_stats(void *ctx, pol_stats *out)
{
	cu_pol *p = ctx;
	pthread_mutex_lock(&p->lock);
	*out = p->st;
	pthread_mutex_unlock(&p->lock);
}

static void cu_destroy(void *ctx)
{
	cu_pol *p = ctx;
	if (!p)
		return;
	if (p->user.destroy)
		p->user.destroy(p->user.ctx);
	pol_free(p->builtin);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int pol_custom_new(h2emv_policy **out, const h2emv_custom_policy *user, h2emv_error *err)
{
	*out = NULL;
	if (!user || user->version != H2EMV_CUSTOM_POLICY_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "custom policy: %s",
		                user ? "unknown version" : "NULL policy");
	size_t len = user->name ? strlen(user->name) : 0;
	if (len < 1 || len > 15 || !strcmp(user->name, "builtin") || !strcmp(user->name, "llm") ||
	    !utf8_text_ok(user->name, len))
		return eng_fail(err, H2EMV_EINVAL, "custom policy: the name must be 1 to 15 "
		                "characters of UTF-8, neither \"builtin\" nor \"llm\"");
	cu_pol *p = calloc(1, sizeof *p);
	h2emv_policy *t = calloc(1, sizeof *t);
	if (!p || !t) {
		free(p);
		free(t);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	int rc = pol_builtin_new(&p->builtin, err);
	if (rc != H2EMV_OK) {
		free(p);
		free(t);
		return rc;
	}
	pthread_mutex_init(&p->lock, NULL);
	p->user = *user;
	memcpy(p->name, user->name, len + 1);
	p->user.name = p->name;
	/* qa_step and route stay NULL without the user's: the memory then
	 * answers and routes exactly as with the builtin policy */
	*t = (h2emv_policy){ .name = p->name,
		             .ctx = p,
		             .group = cu_group,
		             .summarize = cu_summarize,
		             .relevance = cu_relevance,
		             .learn = cu_learn,
		             .qa_step = user->qa_step ? cu_qa_step : NULL,
		             .route = user->route ? cu_route : NULL,
		             .stats = cu_stats,
		             .destroy = cu_destroy };
	*out = t;
	return H2EMV_OK;
}
