/*
 * llm_open.c — h2emv_llm_open/chat/close: the llm policy's client (same
 * config, transport, retries and cassettes) for programs that talk to the
 * model themselves, such as the evaluation's LLM judge (bench/eval).
 */
#include <stdlib.h>

#include "api/policy/llm/llm_client.h"
#include "api/policy/prompts.h"
#include "engine/engine.h"

struct h2emv_llm {
	llm_config cfg;
	llm_client *client;
};

int h2emv_llm_open(h2emv_llm **out, const char *config_path, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_open: out is NULL");
	*out = NULL;
	h2emv_llm *l = calloc(1, sizeof *l);
	if (!l)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int rc = llm_config_load(&l->cfg, config_path, err);
	if (rc == H2EMV_OK)
		rc = llm_client_new(&l->client, &l->cfg, err);
	if (rc != H2EMV_OK) {
		h2emv_llm_close(l);
		return rc;
	}
	*out = l;
	return H2EMV_OK;
}

void h2emv_llm_close(h2emv_llm *llm)
{
	if (!llm)
		return;
	llm_client_free(llm->client);
	llm_config_free(&llm->cfg);
	free(llm);
}

static int request_check(const h2emv_llm_request *req, int *decision, h2emv_error *err)
{
	if (!req || req->version != H2EMV_LLM_REQUEST_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_chat: %s",
		                req ? "unknown request version" : "no request");
	*decision = req->decision ? llm_decision_parse(req->decision) : -1;
	if (*decision < 0)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_chat: unknown decision '%s' (group, "
		                "summarize, relevance, learn, qa, route, judge)",
		                req->decision ? req->decision : "(null)");
	if (!req->n_messages || !req->messages)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_chat: no messages");
	for (size_t i = 0; i < req->n_messages; i++)
		if (!req->messages[i].role || !req->messages[i].content)
			return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_chat: message %zu lacks its "
			                "role or content", i + 1);
	return H2EMV_OK;
}

int h2emv_llm_chat(char **out, h2emv_tokens *spent, h2emv_llm *llm,
                   const h2emv_llm_request *req, h2emv_error *err)
{
	if (!out || !llm)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_llm_chat: out and llm are required");
	*out = NULL;
	int decision = -1;
	int rc = request_check(req, &decision, err);
	if (rc)
		return rc;
	pr_prompt prompt = { 0 };
	for (size_t i = 0; rc == H2EMV_OK && i < req->n_messages; i++)
		rc = pr_prompt_add(&prompt, req->messages[i].role, req->messages[i].content, err);
	if (rc) {
		pr_prompt_free(&prompt);
		return rc;
	}
	/* as the policy does: a schema only where the server is told to follow one */
	llm_request rq = { decision, &prompt, req->schema_name,
		           llm->cfg.structured != LLM_SO_NONE ? req->schema : NULL };
	llm_reply r = { 0 };
	rc = llm_chat(llm->client, &rq, &r, err);
	if (rc == H2EMV_OK) {
		if (spent) {
			spent->prompt += r.prompt_tokens ? r.prompt_tokens : tok_prompt(&prompt);
			spent->completion += r.completion_tokens ? r.completion_tokens
			                                         : tok_text(r.content);
			spent->calls++;
		}
		*out = r.content;
		r.content = NULL;
	}
	llm_reply_free(&r);
	pr_prompt_free(&prompt);
	return rc;
}
