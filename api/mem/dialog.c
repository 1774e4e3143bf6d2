/*
 * dialog.c — the dialog manager: an utterance is routed by the policy to
 * question answering (h2emv_ask on the newest snapshot), to rule learning
 * (h2emv_feedback), or answered directly (greetings, thanks, anything
 * else). The reply says what was done and carries what it produced. A
 * greeting in front of a question or feedback ("Hi, where are the keys?")
 * is not part of what is asked or learned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/mem/mem.h"
#include "api/policy/builtin/builtin.h"

#define NO_MEMORY "I have no memories yet: nothing has been built."
#define UTTERANCE_MAX 8192

typedef int (*route_fn)(void *ctx, const char *utterance, int *route, char **reply,
                        pol_usage *u, h2emv_error *err);

static int contains(const h2emv_rules *r, const char *item)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (!strcmp(r->items[i], item))
			return 1;
	return 0;
}

/* Append the rules of `a` missing from `b`, joined by "; ". */
static size_t list_missing(char *out, size_t cap, const h2emv_rules *a, const h2emv_rules *b)
{
	size_t len = 0, count = 0;
	for (size_t i = 1; i < a->n; i++) { /* items[0] is the default rule */
		if (contains(b, a->items[i]))
			continue;
		int w = snprintf(out + len, cap - len, "%s%s", count++ ? "; " : "", a->items[i]);
		if (w < 0 || (size_t)w >= cap - len) {
			len = cap - 1;
			break;
		}
		len += (size_t)w;
	}
	return count;
}

/* "Understood. I will remember that: <the new rule>." */
static char *feedback_text(h2emv_mem *mem, const h2emv_rules *now)
{
	h2emv_rules *before = NULL;
	if (now->parent > 0 && h2emv_rules_get(&before, mem, now->parent, NULL) != H2EMV_OK)
		before = NULL; /* version 0 is the default alone: every learned rule is new */
	char added[2048] = "", removed[2048] = "", text[4200];
	size_t n_added = list_missing(added, sizeof added, now, before);
	size_t n_removed = before ? list_missing(removed, sizeof removed, before, now) : 0;
	h2emv_rules_free(before);
	const char *what = n_added ? added : removed;
	size_t wl = strlen(what);
	const char *stop = wl && strchr(".!?", what[wl - 1]) ? "" : ".";
	if (n_added)
		snprintf(text, sizeof text, "Understood. I will remember that: %s%s", what, stop);
	else if (n_removed)
		snprintf(text, sizeof text, "Understood. I no longer need to keep that: %s%s", what,
		         stop);
	else
		snprintf(text, sizeof text, "Understood. My rules already cover that.");
	return strdup(text);
}

static int on_question(h2emv_reply *r, h2emv_mem *mem, const char *utterance, h2emv_error *err)
{
	int rc = h2emv_ask(&r->answer, mem, utterance, NULL, err);
	if (rc == H2EMV_ENOTFOUND) {
		if (err)
			memset(err, 0, sizeof *err);
		r->text = strdup(NO_MEMORY);
		return H2EMV_OK;
	}
	if (rc)
		return rc;
	r->tokens.prompt += r->answer->tokens.prompt;
	r->tokens.completion += r->answer->tokens.completion;
	r->tokens.calls += r->answer->tokens.calls;
	r->text = strdup(r->answer->text);
	return H2EMV_OK;
}

static int on_feedback(h2emv_reply *r, h2emv_mem *mem, const char *utterance, h2emv_error *err)
{
	int rc = h2emv_feedback(&r->rules, mem, utterance, err);
	if (rc)
		return rc;
	r->tokens.prompt += r->rules->tokens.prompt;
	r->tokens.completion += r->rules->tokens.completion;
	r->tokens.calls += r->rules->tokens.calls;
	r->text = feedback_text(mem, r->rules);
	return H2EMV_OK;
}

int h2emv_say(h2emv_reply **out, h2emv_mem *mem, const char *utterance, h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!out || !mem || !utterance)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_say: out, mem and utterance are required");
	*out = NULL;
	if (strlen(utterance) > UTTERANCE_MAX)
		return eng_fail(err, H2EMV_ELIMIT, "h2emv_say: the utterance is longer than %d bytes",
		                UTTERANCE_MAX);
	h2emv_reply *r = calloc(1, sizeof *r);
	if (!r)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	h2emv_policy *p = mem->policy;
	route_fn route = p && p->route ? p->route : pol_builtin_route;
	int which = POL_ROUTE_REPLY;
	char *said = NULL;
	pol_usage u = { 0 };
	int rc = route(p && p->route ? p->ctx : NULL, utterance, &which, &said, &u, err);
	tokens_add(&r->tokens, &u);
	const char *body = utterance + bi_greeting_len(utterance);
	if (rc == H2EMV_OK) {
		switch (which) {
		case POL_ROUTE_QUESTION:
			r->route = H2EMV_ROUTE_QUESTION;
			rc = on_question(r, mem, body, err);
			break;
		case POL_ROUTE_FEEDBACK:
			r->route = H2EMV_ROUTE_FEEDBACK;
			rc = on_feedback(r, mem, body, err);
			break;
		default:
			r->route = H2EMV_ROUTE_REPLY;
			r->text = said ? said : strdup("I am not sure what you mean.");
			said = NULL;
		}
	}
	free(said);
	if (rc == H2EMV_OK && !r->text)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc) {
		h2emv_reply_free(r);
		return rc;
	}
	*out = r;
	return H2EMV_OK;
}

void h2emv_reply_free(h2emv_reply *r)
{
	if (!r)
		return;
	free(r->text);
	h2emv_answer_free(r->answer);
	h2emv_rules_free(r->rules);
	free(r);
}
