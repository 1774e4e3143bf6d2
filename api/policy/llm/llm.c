/*
 * llm.c — the `llm` policy: every decision is a prompt (prompts*.c) sent
 * through the client (llm_client.h: http, record or replay), a reply
 * parsed and validated against the request (llm_parse.h), one more try
 * with the parse error when it does not fit, then a safe fallback:
 *
 *   group      old groups unchanged, the new items as one new group
 *   summarize  the builtin policy's extractive summary
 *   relevance  α = 1: keep the node one more lifetime
 *   learn      the old rules, unchanged
 *   qa_step    answer "I could not find that in my memory."
 *   route      the builtin policy's routing
 *
 * A transport failure (server down after its retries, deadline passed, a
 * 2xx body that is not a chat completion) is not papered over: the call
 * returns the error (never EPARSE, which would mean "fall back"), so a
 * build stops at its last commit and resumes later from the log, and a
 * question gets a clear error instead of a made-up answer. Nothing a model
 * says reaches the tree unless it parsed and validated against the
 * request.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm.h"
#include "api/policy/llm/llm_client.h"
#include "api/policy/llm/llm_parse.h"
#include "api/policy/prompts.h"
#include "engine/engine.h"

typedef struct llm_pol {
	llm_client *client;
	llm_config cfg;
	h2emv_policy *fallback; /* builtin: fallbacks that need text */
	pthread_mutex_t lock;   /* guards st */
	pol_stats st;
} llm_pol;

enum { ST_DECISION, ST_RETRY, ST_BAD, ST_FALLBACK, ST_TRANSPORT };

static void bump(llm_pol *p, int what)
{
	pthread_mutex_lock(&p->lock);
	switch (what) {
	case ST_DECISION: p->st.decisions++; break;
	case ST_RETRY: p->st.retries++; break;
	case ST_BAD: p->st.bad_replies++; break;
	case ST_FALLBACK: p->st.fallbacks++; break;
	default: p->st.transport_errors++; break;
	}
	pthread_mutex_unlock(&p->lock);
}

/* Parse `reply` into the decision's result; the message in err is shown
 * to the model on the second try. */
typedef int (*parse_fn)(void *arg, const char *reply, h2emv_error *err);

/* The tokens of one exchange: the server's count, or our estimate when
 * the server reports none (some llama.cpp builds, replay of old cassettes). */
static void account(pol_usage *u, const pr_prompt *prompt, const llm_reply *r)
{
	if (!u)
		return;
	u->prompt_tokens += r->prompt_tokens ? r->prompt_tokens : tok_prompt(prompt);
	u->completion_tokens += r->completion_tokens ? r->completion_tokens : tok_text(r->content);
	u->calls++;
}

/* A transport failure as the decision's result. The transport says
 * EPARSE when the server's body was no chat completion at all (after its
 * retries); here EPARSE means "the model's text did not fit, fall back",
 * and a build also falls back on it (api/build_tree.c). So that failure
 * leaves as an I/O error, its message (naming the server and what was
 * wrong) unchanged: never a silent fallback for a broken server. */
static int transport_error(int rc, h2emv_error *err)
{
	if (rc != H2EMV_EPARSE)
		return rc;
	if (err)
		err->status = H2EMV_EIO;
	return H2EMV_EIO;
}

/*
 * Send `prompt`, parse, and on a reply that does not fit send it once more
 * with the reply and the error appended. Returns OK (parsed), H2EMV_EPARSE
 * (both replies unusable: the caller falls back; err says why), or the
 * transport's error.
 */
static int decide(llm_pol *p, int decision, pr_prompt *prompt, parse_fn parse, void *arg,
                  pol_usage *u, h2emv_error *err)
{
	bump(p, ST_DECISION);
	llm_request rq = { decision, prompt, lp_schema_name(decision),
		           p->cfg.structured != LLM_SO_NONE ? lp_schema(decision) : NULL };
	for (int attempt = 0; attempt < 2; attempt++) {
		llm_reply r = { 0 };
		int rc = llm_chat(p->client, &rq, &r, err);
		if (rc != H2EMV_OK) {
			bump(p, ST_TRANSPORT);
			llm_reply_free(&r);
			return transport_error(rc, err);
		}
		account(u, prompt, &r);
		h2emv_error perr = { 0 };
		rc = parse(arg, r.content ? r.content : "", &perr);
		if (rc == H2EMV_OK) {
			llm_reply_free(&r);
			return H2EMV_OK;
		}
		bump(p, ST_BAD);
		if (attempt == 0) {
			bump(p, ST_RETRY);
			char msg[sizeof perr.message + 160];
			snprintf(msg, sizeof msg,
			         "Your answer could not be used: %s. Answer again, exactly in the "
			         "format asked for.",
			         perr.message[0] ? perr.message : "it did not parse");
			rc = pr_prompt_add(prompt, "assistant", r.content ? r.content : "", err);
			if (rc == H2EMV_OK)
				rc = pr_prompt_add(prompt, "user", msg, err);
			llm_reply_free(&r);
			if (rc != H2EMV_OK)
				return rc;
			continue;
		}
		llm_reply_free(&r);
		if (err)
			*err = perr;
	}
	bump(p, ST_FALLBACK);
	return H2EMV_EPARSE;
}

/* ------------------------------------------------------------ decisions -- */

typedef struct group_arg {
	const pol_group_req *req;
	pol_group_reply *out;
} group_arg;

static int parse_group(void *a, const char *reply, h2emv_error *err)
{
	group_arg *g = a;
	return lp_group(reply, g->req, g->out, err);
}

/* Fallback: the old groups as they were, the new items as one new group. */
static int group_fallback(llm_pol *p, const pol_group_req *req, pol_group_reply *out,
                          h2emv_error *err)
{
	size_t n = req->n_old + (req->n_new ? 1 : 0);
	out->groups = calloc(n ? n : 1, sizeof *out->groups);
	if (!out->groups)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	out->n = 0;
	for (size_t i = 0; i < req->n_old; i++) {
		out->groups[i] = req->old_groups[i];
		out->groups[i].summary = strdup(req->old_groups[i].summary ? req->old_groups[i].summary : "");
		out->n++;
		if (!out->groups[i].summary) {
			pol_groups_free(out);
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
	}
	if (req->n_new) {
		size_t first = req->n_items - req->n_new;
		char *s = NULL;
		int rc = p->fallback->summarize(p->fallback->ctx, req->items + first, req->n_new,
		                                req->level, req->rules, &s, NULL, err);
		if (rc != H2EMV_OK) {
			pol_groups_free(out);
			return rc;
		}
		out->groups[out->n++] = (pol_group){ first, req->n_items - 1, s };
	}
	return H2EMV_OK;
}

static int llm_group(void *ctx, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
                     h2emv_error *err)
{
	llm_pol *p = ctx;
	pr_prompt pr = { 0 };
	int rc = pr_group(&pr, req, 0, err);
	if (rc == H2EMV_OK) {
		group_arg a = { req, out };
		rc = decide(p, LLM_D_GROUP, &pr, parse_group, &a, u, err);
		if (rc == H2EMV_EPARSE)
			rc = group_fallback(p, req, out, err);
	}
	pr_prompt_free(&pr);
	return rc;
}

static int parse_summary(void *a, const char *reply, h2emv_error *err)
{
	return lp_summary(reply, (char **)a, err);
}

static int llm_summarize(void *ctx, const pol_item *items, size_t n, int level,
                         const pol_rules *rules, char **out, pol_usage *u, h2emv_error *err)
{
	llm_pol *p = ctx;
	pr_prompt pr = { 0 };
	*out = NULL;
	int rc = pr_summarize(&pr, items, n, level, rules, err);
	if (rc == H2EMV_OK) {
		rc = decide(p, LLM_D_SUMMARIZE, &pr, parse_summary, out, u, err);
		if (rc == H2EMV_EPARSE)
			rc = p->fallback->summarize(p->fallback->ctx, items, n, level, rules, out, NULL,
			                            err);
	}
	pr_prompt_free(&pr);
	return rc;
}

static int parse_relevance(void *a, const char *reply, h2emv_error *err)
{
	return lp_relevance(reply, (double *)a, err);
}

static int llm_relevance(void *ctx, const pol_relevance_req *req, double *alpha, pol_usage *u,
                         h2emv_error *err)
{
	llm_pol *p = ctx;
	pr_prompt pr = { 0 };
	int rc = pr_relevance(&pr, req, err);
	if (rc == H2EMV_OK) {
		rc = decide(p, LLM_D_RELEVANCE, &pr, parse_relevance, alpha, u, err);
		if (rc == H2EMV_EPARSE) {
			*alpha = 1.0;
			rc = H2EMV_OK;
		}
	}
	pr_prompt_free(&pr);
	return rc;
}

static int parse_rules(void *a, const char *reply, h2emv_error *err)
{
	return lp_rules(reply, (pol_rule_list *)a, err);
}

static int copy_rules(pol_rule_list *out, const pol_rules *old, h2emv_error *err)
{
	size_t n = old ? old->n : 0;
	out->items = calloc(n ? n : 1, sizeof *out->items);
	if (!out->items)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (out->n = 0; out->n < n; out->n++)
		if (!(out->items[out->n] = strdup(old->items[out->n]))) {
			pol_rule_list_free(out);
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
	return H2EMV_OK;
}

static int llm_learn(void *ctx, const pol_rules *old, const char *feedback, pol_rule_list *out,
                     pol_usage *u, h2emv_error *err)
{
	llm_pol *p = ctx;
	pr_prompt pr = { 0 };
	int rc = pr_learn(&pr, old, feedback, err);
	if (rc == H2EMV_OK) {
		rc = decide(p, LLM_D_LEARN, &pr, parse_rules, out, u, err);
		if (rc == H2EMV_EPARSE)
			rc = copy_rules(out, old, err);
	}
	pr_prompt_free(&pr);
	return rc;
}

typedef struct qa_arg {
	const pol_qa_view *view;
	pol_qa_action *out;
} qa_arg;

static int parse_qa(void *a, const char *reply, h2emv_error *err)
{
	qa_arg *q = a;
	return lp_qa(reply, q->view, q->out, err);
}

static int llm_qa_step(void *ctx, const pol_qa_view *view, pol_qa_action *out, pol_usage *u,
                       h2emv_error *err)
{
	llm_pol *p = ctx;
	pr_prompt pr = { 0 };
	memset(out, 0, sizeof *out);
	int rc = pr_qa_step(&pr, view, err);
	if (rc == H2EMV_OK) {
		qa_arg a = { view, out };
		rc = decide(p, LLM_D_QA, &pr, parse_qa, &a, u, err);
		if (rc == H2EMV_EPARSE) {
			pol_qa_action_free(out);
			memset(out, 0, sizeof *out);
			out->kind = POL_QA_ANSWER;
			out->text = strdup("I could not find that in my memory.");
			rc = out->text ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
	}
	pr_prompt_free(&pr);
	return rc;
}

typedef struct route_arg {
	int *route;
	char **reply;
} route_arg;

static int parse_route(void *a, const char *reply, h2emv_error *err)
{
	route_arg *r = a;
	return lp_route(reply, r->route, r->reply, err);
}

static int llm_route(void *ctx, const char *utterance, int *route, char **reply, pol_usage *u,
                     h2emv_error *err)
{
	llm_pol *p = ctx;
	pr_prompt pr = { 0 };
	*reply = NULL;
	int rc = pr_route(&pr, utterance, err);
	if (rc == H2EMV_OK) {
		route_arg a = { route, reply };
		rc = decide(p, LLM_D_ROUTE, &pr, parse_route, &a, u, err);
		if (rc == H2EMV_EPARSE)
			rc = p->fallback->route(p->fallback->ctx, utterance, route, reply, NULL, err);
	}
	pr_prompt_free(&pr);
	return rc;
}

static void llm_stats(void *ctx, pol_stats *out)
{
	llm_pol *p = ctx;
	pthread_mutex_lock(&p->lock);
	*out = p->st;
	pthread_mutex_unlock(&p->lock);
}

static void llm_destroy(void *ctx)
{
	llm_pol *p = ctx;
	if (!p)
		return;
	llm_client_free(p->client);
	llm_config_free(&p->cfg);
	pol_free(p->fallback);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int pol_llm_new(h2emv_policy **out, const char *config_path, h2emv_error *err)
{
	*out = NULL;
	llm_pol *p = calloc(1, sizeof *p);
	h2emv_policy *t = calloc(1, sizeof *t);
	if (!p || !t) {
		free(p);
		free(t);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	pthread_mutex_init(&p->lock, NULL);
	int rc = llm_config_load(&p->cfg, config_path, err);
	if (rc == H2EMV_OK)
		rc = llm_client_new(&p->client, &p->cfg, err);
	if (rc == H2EMV_OK)
		rc = pol_builtin_new(&p->fallback, err);
	if (rc != H2EMV_OK) {
		llm_destroy(p);
		free(t);
		return rc;
	}
	*t = (h2emv_policy){ .name = "llm",
		             .ctx = p,
		             .group = llm_group,
		             .summarize = llm_summarize,
		             .relevance = llm_relevance,
		             .learn = llm_learn,
		             .qa_step = llm_qa_step,
		             .route = llm_route,
		             .stats = llm_stats,
		             .destroy = llm_destroy };
	*out = t;
	return H2EMV_OK;
}
