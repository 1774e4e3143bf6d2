/*
 * cli_json.c — every `--json` output is built here or with these helpers,
 * with jansson, so the text is always valid JSON whatever a name or a text
 * holds: the objects several front ends print the same way (an answer for
 * `ask --json` and POST /v1/ask, a dialog reply for `say --json` and POST
 * /v1/say), text that may not be UTF-8, and unsigned 64-bit numbers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tools/cli.h"

/* U+FFFD REPLACEMENT CHARACTER in UTF-8 */
static const char replacement[] = "\xef\xbf\xbd";

json_t *cli_json_text(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	/* Not UTF-8 (or out of memory). Keep every valid character and put
	 * U+FFFD for each byte that starts none; jansson's own check says
	 * what is valid: the shortest prefix it accepts is one character. */
	size_t n = strlen(s), o = 0;
	char *buf = malloc(3 * n + 1);
	if (!buf)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = 1;
		for (; k <= 4 && i + k <= n; k++) {
			json_t *c = json_stringn(s + i, k);
			if (c) {
				json_decref(c);
				break;
			}
		}
		if (k <= 4 && i + k <= n) {
			memcpy(buf + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(buf + o, replacement, 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(buf, o);
	free(buf);
	return j;
}

json_t *cli_json_u64(uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	char digits[24];
	snprintf(digits, sizeof digits, "%" PRIu64, v);
	return json_string(digits);
}

json_t *cli_json_ref(h2emv_ref r)
{
	return json_pack("[o,I]", cli_json_u64(r.id), (json_int_t)r.version);
}

int cli_print_json(json_t *v)
{
	char *text = v ? json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) : NULL;
	json_decref(v);
	if (!text) {
		fprintf(stderr, "h2emv: out of memory writing JSON\n");
		return EXIT_ERROR;
	}
	int rc = puts(text) < 0 ? EXIT_ERROR : EXIT_OK;
	free(text);
	return rc;
}

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
		char *line = strndup(l, n);
		int bad = !line || json_array_append_new(lines, cli_json_text(line));
		free(line);
		if (bad) {
			json_decref(lines);
			return NULL;
		}
		l += n + (nl != NULL);
	}
	return lines;
}

json_t *cli_answer_json(const char *question, const h2emv_answer *a, int trace)
{
	json_t *o = json_pack("{s:o,s:o,s:o,s:b,s:b,s:I,s:i,s:o}", "question", cli_json_text(question),
	                      "answer", cli_json_text(a->text ? a->text : ""), "evidence", evidence_json(a), "forgotten",
	                      a->forgotten, "quoted", a->quoted, "snapshot", (json_int_t)a->snapshot,
	                      "rounds", (int)a->rounds, "tokens", cli_tokens_json(&a->tokens));
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
		if (json_array_append_new(arr, cli_json_text(items[i]))) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

json_t *cli_reply_json(const h2emv_reply *r)
{
	json_t *o = json_pack("{s:s,s:o}", "route", cli_route_name(r->route), "text",
	                      cli_json_text(r->text ? r->text : ""));
	if (o && r->answer) {
		const h2emv_answer *a = r->answer;
		json_t *ans = json_pack("{s:o,s:b,s:b,s:I,s:i}", "evidence", evidence_json(a), "forgotten",
		                        a->forgotten, "quoted", a->quoted, "snapshot",
		                        (json_int_t)a->snapshot, "rounds", (int)a->rounds);
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
