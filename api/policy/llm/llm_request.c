/*
 * llm_request.c — the body of a chat request, built the same way every
 * time (fixed member order, compact), because its hash is the cassette
 * key: the same decision asked of the same model gives the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <xxhash.h>

#include "api/policy/llm/llm_impl.h"
#include "api/base/utf8.h"

/* Printed with 10 significant digits: 0.2 stays "0.2" in a cassette, and
 * parsing it back gives the same double, so keys survive a round trip. */
#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(10))

const char *llm_model_for(const llm_config *cfg, int decision)
{
	if (decision >= 0 && decision < LLM_D_COUNT && cfg->model_for[decision])
		return cfg->model_for[decision];
	return cfg->model;
}

uint64_t llm_key_of(const char *body, size_t len)
{
	return XXH3_64bits(body, len);
}

/* A jansson string of s, repaired when it is not valid UTF-8. */
static json_t *jstr(const char *s)
{
	json_t *v = json_string(s);
	if (v)
		return v;
	char *r = utf8_repair(s);
	if (!r)
		return NULL;
	v = json_string(r);
	free(r);
	return v;
}

static json_t *messages(const pr_prompt *p)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < p->n; i++) {
		json_t *m = json_object();
		if (!m || json_array_append_new(a, m) ||
		    json_object_set_new(m, "role", jstr(p->msgs[i].role)) ||
		    json_object_set_new(m, "content", jstr(p->msgs[i].text ? p->msgs[i].text : ""))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The structured-output member for `schema` (stolen) in cfg's mode. */
static int add_structured(json_t *root, const llm_config *cfg, const llm_request *req,
                          json_t *schema)
{
	json_t *m;
	switch (cfg->structured) {
	case LLM_SO_OLLAMA:
		/* Ollama's native "format" (honoured by /api/chat and by proxies that
		 * pass it on), and response_format, which its OpenAI-compatible
		 * endpoint reads: each server uses the one it knows */
		if (json_object_set(root, "format", schema)) {
			json_decref(schema);
			return -1;
		}
		/* fall through */
	case LLM_SO_JSON_SCHEMA: {
		json_t *js = json_object();
		m = json_object();
		if (!js || !m || json_object_set_new(m, "type", json_string("json_schema")) ||
		    json_object_set_new(js, "name", jstr(req->schema_name ? req->schema_name : "reply")) ||
		    json_object_set_new(js, "schema", schema) ||
		    json_object_set_new(js, "strict", json_true()) ||
		    json_object_set_new(m, "json_schema", js)) {
			json_decref(m);
			return -1;
		}
		return json_object_set_new(root, "response_format", m);
	}
	case LLM_SO_VLLM:
		m = json_object();
		if (!m || json_object_set_new(m, "json", schema)) {
			json_decref(m);
			return -1;
		}
		return json_object_set_new(root, "structured_outputs", m);
	default:
		json_decref(schema);
		return 0;
	}
}

static int check_request(const llm_config *cfg, const llm_request *req, h2emv_error *err)
{
	const char *what = llm_decision_name(req ? req->decision : -1);
	if (!req || req->decision < 0 || req->decision >= LLM_D_COUNT)
		return llm_fail(NULL, err, H2EMV_EINVAL, "a request needs a decision from 0 to %d",
		                LLM_D_COUNT - 1);
	if (!req->prompt || !req->prompt->n)
		return llm_fail(NULL, err, H2EMV_EINVAL, "the %s request has no messages", what);
	for (size_t i = 0; i < req->prompt->n; i++)
		if (!req->prompt->msgs[i].role)
			return llm_fail(NULL, err, H2EMV_EINVAL, "message %zu of the %s request has no role",
			                i, what);
	const char *model = llm_model_for(cfg, req->decision);
	if (!model || !*model)
		return llm_fail(NULL, err, H2EMV_EINVAL,
		                "no model configured for the %s request (set \"model\" or "
		                "H2EMV_LLM_MODEL)",
		                what);
	return H2EMV_OK;
}

int llm_request_json(char **out, const llm_config *cfg, const llm_request *req,
                     h2emv_error *err)
{
	*out = NULL;
	int rc = check_request(cfg, req, err);
	if (rc)
		return rc;
	const char *what = llm_decision_name(req->decision);
	json_t *schema = NULL;
	if (cfg->structured != LLM_SO_NONE && req->schema) {
		json_error_t je;
		schema = json_loads(req->schema, 0, &je);
		if (!schema || !json_is_object(schema)) {
			json_decref(schema);
			return llm_fail(NULL, err, H2EMV_EINVAL,
			                "the schema of the %s request is not a JSON object%s%s", what,
			                schema ? "" : ": ", schema ? "" : je.text);
		}
	}
	json_t *root = json_object();
	if (!root || json_object_set_new(root, "model", jstr(llm_model_for(cfg, req->decision))) ||
	    json_object_set_new(root, "messages", messages(req->prompt)) ||
	    json_object_set_new(root, "temperature", json_real(cfg->temperature)) ||
	    json_object_set_new(root, "max_tokens", json_integer(cfg->max_tokens)) ||
	    json_object_set_new(root, "stream", json_false())) {
		json_decref(schema);
		json_decref(root);
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory building the %s request", what);
	}
	if (schema && add_structured(root, cfg, req, schema)) {
		json_decref(root);
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory building the %s request", what);
	}
	*out = json_dumps(root, DUMP_FLAGS);
	json_decref(root);
	if (!*out)
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory building the %s request", what);
	return H2EMV_OK;
}

int llm_request_key(char out[LLM_KEY_LEN], const llm_config *cfg, const llm_request *req,
                    h2emv_error *err)
{
	char *body;
	out[0] = 0;
	int rc = llm_request_json(&body, cfg, req, err);
	if (rc)
		return rc;
	snprintf(out, LLM_KEY_LEN, "%016llx", (unsigned long long)llm_key_of(body, strlen(body)));
	free(body);
	return H2EMV_OK;
}

void llm_last_user(char *dst, size_t cap, const pr_prompt *p)
{
	const char *text = "";
	for (size_t i = p ? p->n : 0; i-- > 0;) {
		if (p->msgs[i].role && !strcmp(p->msgs[i].role, "user")) {
			text = p->msgs[i].text ? p->msgs[i].text : "";
			break;
		}
	}
	llm_sanitize(dst, cap, text, strlen(text), 80);
}
