/*
 * cli_json.c — the JSON objects several front ends print the same way: an
 * answer (`ask --json`, POST /v1/ask) and a dialog reply (`say --json`,
 * POST /v1/say), built with jansson so the text is always valid JSON.
 */
#include <string.h>

#include <jansson.h>

#include "tools/cli.h"

json_t *cli_tokens_json(const h2emv_tokens *t)
{
	return json_pack("{s:I,s:I,s:I}", "prompt", (json_int_t)t->prompt, "completion",
	                 (json_int_t)t->completion, "calls", (json_int_t)t->calls);
}

static json_t *evidence_json(const h2emv_answer *a)
{
	json_t *ev = json_array();
	for (size_t i = 0; ev && i < a->n_evidence; i++)
		if (json_array_append_new(ev, json_pack("{s:I,s:i}", "id", (json_int_t)a->evidence[i].id,
		                                        "version", (int)a->evidence[i].version))) {
			json_decref(ev);
			return NULL;
		}
	return ev;
}

/* The trace's lines as an array of strings. */
static json_t *trace_json(const char *trace)
{
	json_t *lines = json_array();
	for (const char *l = trace; lines && *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		if (json_array_append_new(lines, json_stringn(l, n))) {
			json_decref(lines);
			return NULL;
		}
		l += n + (nl != NULL);
	}
	return lines;
}

json_t *cli_answer_json(const char *question, const h2emv_answer *a, int trace)
{
	json_t *o = json_pack("{s:s,s:s,s:o,s:b,s:I,s:i,s:o}", "question", question, "answer",
	                      a->text ? a->text : "", "evidence", evidence_json(a), "forgotten",
	                      a->forgotten, "snapshot", (json_int_t)a->snapshot, "rounds",
	                      (int)a->rounds, "tokens", cli_tokens_json(&a->tokens));
	if (o && trace && a->trace && json_object_set_new(o, "trace", trace_json(a->trace))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

const char *cli_route_name(h2emv_route r)
{
	switch (r) {
	case H2EMV_ROUTE_QUESTION: return "question";
	case H2EMV_ROUTE_FEEDBACK: return "feedback";
	default: return "reply";
	}
}

json_t *cli_rules_items_json(char *const *items, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < n; i++)
		if (json_array_append_new(arr, json_string(items[i]))) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

json_t *cli_reply_json(const h2emv_reply *r)
{
	json_t *o = json_pack("{s:s,s:s}", "route", cli_route_name(r->route), "text",
	                      r->text ? r->text : "");
	if (o && r->answer) {
		const h2emv_answer *a = r->answer;
		json_t *ans = json_pack("{s:o,s:b,s:I,s:i}", "evidence", evidence_json(a), "forgotten",
		                        a->forgotten, "snapshot", (json_int_t)a->snapshot, "rounds",
		                        (int)a->rounds);
		if (json_object_set_new(o, "answer", ans) || !ans)
			goto fail;
	}
	if (o && r->rules) {
		json_t *ru = json_pack("{s:i,s:i,s:b,s:o}", "version", (int)r->rules->version, "parent",
		                       (int)r->rules->parent, "repaired", r->rules->repaired, "items",
		                       cli_rules_items_json(r->rules->items, r->rules->n));
		if (json_object_set_new(o, "rules", ru) || !ru)
			goto fail;
	}
	if (o && json_object_set_new(o, "tokens", cli_tokens_json(&r->tokens)))
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}
