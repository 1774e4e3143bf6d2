/*
 * llm_parse_verdict.c — the reply that comes down to one word: the route
 * of an utterance (with what to say back for "other"). The rules are
 * written down in llm_parse.h.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "engine/engine.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* ---------------------------------------------------------------- route -- */

/* The route named by the word at p (decorations before it skipped). */
static int route_word(const char *p, int *route, h2emv_error *err)
{
	while (is_blank(*p) || *p == '*' || *p == '`' || *p == '"' || *p == '\'')
		p++;
	const char *w = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
		p++;
	size_t n = (size_t)(p - w);
	static const struct {
		const char *word;
		int route;
	} names[] = { { "question", POL_ROUTE_QUESTION },
		      { "feedback", POL_ROUTE_FEEDBACK },
		      { "other", POL_ROUTE_REPLY },
		      { "reply", POL_ROUTE_REPLY } };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (n == strlen(names[i].word) && lp_starts_ci(w, names[i].word)) {
			*route = names[i].route;
			return H2EMV_OK;
		}
	char snip[64];
	lp_snip(snip, sizeof snip, w, (size_t)(lp_line_end(w) - w));
	return eng_fail(err, H2EMV_EPARSE, "route \"%s\" is not one of question, feedback, other",
	                snip);
}

static const char NEED_REPLY[] =
	"route \"other\" needs a reply: add \"Reply: <what to say back>\"";

static int route_json(const char *j, int *route, char **text, h2emv_error *err)
{
	json_t *root;
	int rc = lp_json_parse(&root, j, err);
	if (rc)
		return rc;
	json_t *r = lp_json_get(root, "route"), *t = lp_json_get(root, "reply");
	if (!r || !json_is_string(r))
		rc = eng_fail(err, H2EMV_EPARSE, "the JSON needs \"route\": question, feedback or other");
	else
		rc = route_word(json_string_value(r), route, err);
	if (!rc && *route == POL_ROUTE_REPLY) {
		if (!t || !json_is_string(t) || !json_string_length(t))
			rc = eng_fail(err, H2EMV_EPARSE, NEED_REPLY);
		else
			rc = lp_json_text_dup(text, root, "reply", LP_MAX_TEXT, "the reply", err);
	}
	json_decref(root);
	return rc;
}

int lp_route(const char *reply, int *route, char **reply_text, h2emv_error *err)
{
	if (!route || !reply_text)
		return eng_fail(err, H2EMV_EINVAL, "route: no output");
	*route = 0;
	*reply_text = NULL;
	int rc = lp_check_reply(reply, err);
	if (rc)
		return rc;
	const char *j = lp_json_start(reply), *v = NULL;
	if (!j && !(v = lp_label(reply, "route")))
		j = lp_json_line(reply);
	if (j) {
		rc = route_json(j, route, reply_text, err);
	} else if (!v) {
		rc = eng_fail(err, H2EMV_EPARSE,
		              "no \"Route:\" line; answer \"Route: question\", \"Route: feedback\" "
		              "or \"Route: other\"");
	} else if (!(rc = route_word(v, route, err)) && *route == POL_ROUTE_REPLY) {
		const char *r = lp_label(reply, "reply");
		static const char *const stops[] = { "route", "reasoning", "reply", NULL };
		const char *b, *e;
		if (!r)
			rc = eng_fail(err, H2EMV_EPARSE, NEED_REPLY);
		else {
			lp_paragraph(r, stops, &b, &e);
			lp_trim(&b, &e, 1);
			rc = b == e ? eng_fail(err, H2EMV_EPARSE, NEED_REPLY)
			            : lp_text_dup(reply_text, b, e, LP_MAX_TEXT, "the reply", err);
		}
	}
	if (rc) {
		*route = 0;
		free(*reply_text);
		*reply_text = NULL;
	}
	return rc;
}
