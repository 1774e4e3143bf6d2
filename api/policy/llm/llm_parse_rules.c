/*
 * llm_parse_rules.c — the reply to the rule-learning prompt: the last
 * numbered (or, failing that, bulleted) list in the reply, one rule per
 * item, lines indented under an item continuing it (the way pr_add_rules
 * renders a rule of several lines, so rendering and parsing round-trip).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "engine/engine.h"

/* A piece of a rule: one trimmed line. */
typedef struct span {
	const char *b;
	size_t n;
	size_t item; /* which item of the list it belongs to */
} span;

typedef struct lines {
	span *s;
	size_t n, cap, items;
} lines;

enum { MARK_NUMBER = 1, MARK_BULLET = 2 };

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Indentation in columns (a tab counts 4). */
static size_t indent(const char *b, const char *e, const char **text)
{
	size_t col = 0;
	while (b < e && (*b == ' ' || *b == '\t'))
		col += *b++ == '\t' ? 4 : 1;
	*text = b;
	return col;
}

/* The marker kind at p (after the indentation) and where the item's text
 * starts; 0 when the line is not an item. "1." / "12)" need a blank or the
 * line's end after them, so "1.5 kg" is no item. */
static int marker(const char *p, const char *e, const char **text)
{
	const char *q = p;
	int kind = 0;
	while (q < e && q - p < 3 && *q >= '0' && *q <= '9')
		q++;
	if (q > p && q < e && (*q == '.' || *q == ')')) {
		q++;
		kind = MARK_NUMBER;
	} else if (p < e && (*p == '-' || *p == '*' || *p == '+')) {
		q = p + 1;
		kind = MARK_BULLET;
	} else if (e - p >= 3 && memcmp(p, "\xe2\x80\xa2", 3) == 0) { /* • */
		q = p + 3;
		kind = MARK_BULLET;
	} else {
		return 0;
	}
	if (q < e && !is_blank(*q))
		return 0;
	while (q < e && is_blank(*q))
		q++;
	*text = q;
	return kind;
}

static int push(lines *l, const char *b, const char *e, h2emv_error *err)
{
	while (b < e && is_blank(*b))
		b++;
	while (e > b && is_blank(e[-1]))
		e--;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		span *s = realloc(l->s, cap * sizeof *s);
		if (!s)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		l->s = s;
		l->cap = cap;
	}
	l->s[l->n].b = b;
	l->s[l->n].n = (size_t)(e - b);
	l->s[l->n].item = l->items - 1;
	l->n++;
	return H2EMV_OK;
}

static int is_fence(const char *p, const char *e)
{
	while (p < e && is_blank(*p))
		p++;
	return e - p >= 3 && p[0] == '`' && p[1] == '`' && p[2] == '`';
}

static int all_blank(const char *p, const char *e)
{
	while (p < e && is_blank(*p))
		p++;
	return p == e;
}

/* The lines of the last list whose items are marked `kind`. */
static int last_list(lines *l, const char *reply, int kind, h2emv_error *err)
{
	int in_list = 0;
	size_t base = 0;
	for (const char *p = reply; *p;) {
		const char *e = p, *text, *item = NULL;
		while (*e && *e != '\n')
			e++;
		size_t col = indent(p, e, &text);
		int k = marker(text, e, &item);
		int rc = H2EMV_OK;
		if (all_blank(text, e)) {
			/* blank lines do not end a list */
		} else if (is_fence(text, e)) {
			in_list = 0;
		} else if (k == kind && (!in_list || col <= base)) {
			if (!in_list) { /* a later list replaces an earlier one */
				l->n = l->items = 0;
				base = col;
				in_list = 1;
			}
			l->items++;
			rc = push(l, item, e, err);
		} else if (in_list && (col > base || k)) {
			/* deeper lines, and items of the other kind (sub-points
			 * under a numbered rule), belong to the rule above */
			rc = push(l, text, e, err);
		} else {
			in_list = 0;
		}
		if (rc)
			return rc;
		p = *e ? e + 1 : e;
	}
	return H2EMV_OK;
}

/* Does some line read just "none" or "no rules"? */
static int says_none(const char *reply)
{
	for (const char *p = reply; *p;) {
		const char *e = p;
		while (*e && *e != '\n')
			e++;
		const char *b = p, *end = e;
		while (b < end && (is_blank(*b) || *b == '*' || *b == '`' || *b == '(' || *b == '#'))
			b++;
		while (end > b && (is_blank(end[-1]) || end[-1] == '*' || end[-1] == '`' ||
		                   end[-1] == ')' || end[-1] == '.'))
			end--;
		size_t n = (size_t)(end - b);
		if ((n == 4 && lp_starts_ci(b, "none")) || (n == 8 && lp_starts_ci(b, "no rules")))
			return 1;
		p = *e ? e + 1 : e;
	}
	return 0;
}

/* Append a rule unless it is empty or already there. */
static int add_rule(pol_rule_list *out, char *r, size_t n, h2emv_error *err)
{
	if (!n) {
		free(r);
		return H2EMV_OK;
	}
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->items[i], r) == 0) {
			free(r);
			return H2EMV_OK;
		}
	if (out->n == LP_MAX_RULES) {
		free(r);
		return eng_fail(err, H2EMV_EPARSE, "too many rules (more than %u); merge some",
		                (unsigned)LP_MAX_RULES);
	}
	if (n > LP_MAX_RULE) {
		free(r);
		return eng_fail(err, H2EMV_EPARSE, "rule %zu is too long (%zu bytes; at most %u)",
		                out->n + 1, n, (unsigned)LP_MAX_RULE);
	}
	if (!utf8_valid(r, n)) {
		free(r);
		return eng_fail(err, H2EMV_EPARSE, "rule %zu is not valid UTF-8", out->n + 1);
	}
	out->items[out->n++] = r;
	return H2EMV_OK;
}

/* The rules from the list's lines: the lines of one item joined by "\n". */
static int from_lines(pol_rule_list *out, const lines *l, h2emv_error *err)
{
	for (size_t i = 0; i < l->n;) {
		size_t j = i, len = 0;
		for (; j < l->n && l->s[j].item == l->s[i].item; j++)
			if (l->s[j].n)
				len += l->s[j].n + (len ? 1 : 0);
		if (len > LP_MAX_RULE)
			return eng_fail(err, H2EMV_EPARSE, "rule %zu is too long (%zu bytes; at most %u)",
			                out->n + 1, len, (unsigned)LP_MAX_RULE);
		char *r = malloc(len + 1);
		if (!r)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		size_t o = 0;
		for (size_t k = i; k < j; k++) {
			if (!l->s[k].n)
				continue;
			if (o)
				r[o++] = '\n';
			memcpy(r + o, l->s[k].b, l->s[k].n);
			o += l->s[k].n;
		}
		r[o] = '\0';
		int rc = add_rule(out, r, o, err);
		if (rc)
			return rc;
		i = j;
	}
	return H2EMV_OK;
}

/* A rule given as one JSON string, read the way a list item is: lines
 * trimmed, blank lines and fence lines dropped, so a rule reads the same
 * whichever form it came in (and renders and parses back unchanged). */
static int json_rule(pol_rule_list *out, const char *b, const char *e, h2emv_error *err)
{
	char *r = malloc((size_t)(e - b) + 1);
	if (!r)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t o = 0;
	while (b < e) {
		const char *le = memchr(b, '\n', (size_t)(e - b));
		le = le ? le : e;
		const char *lb = b;
		while (lb < le && is_blank(*lb))
			lb++;
		const char *lend = le;
		while (lend > lb && is_blank(lend[-1]))
			lend--;
		if (lend > lb && !(o && is_fence(lb, lend))) {
			if (o)
				r[o++] = '\n';
			memcpy(r + o, lb, (size_t)(lend - lb));
			o += (size_t)(lend - lb);
		}
		b = le < e ? le + 1 : e;
	}
	r[o] = '\0';
	return add_rule(out, r, o, err);
}

static int from_json(pol_rule_list *out, const char *j, h2emv_error *err)
{
	json_t *root;
	int rc = lp_json_parse(&root, j, err);
	if (rc)
		return rc;
	json_t *rules = lp_json_get(root, "rules");
	if (!rules || !json_is_array(rules))
		rc = eng_fail(err, H2EMV_EPARSE, "the JSON needs \"rules\": a list of strings");
	size_t i;
	json_t *v;
	if (!rc)
		json_array_foreach (rules, i, v) {
			if (!json_is_string(v)) {
				rc = eng_fail(err, H2EMV_EPARSE, "rules[%zu] must be a string", i);
				break;
			}
			const char *b = json_string_value(v);
			if ((rc = json_rule(out, b, b + json_string_length(v), err)))
				break;
		}
	json_decref(root);
	return rc;
}

int lp_rules(const char *reply, pol_rule_list *out, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "rules: no output");
	out->items = NULL;
	out->n = 0;
	int rc = lp_check_reply(reply, err);
	if (rc)
		return rc;
	if (!(out->items = malloc(LP_MAX_RULES * sizeof *out->items)))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	const char *j = lp_json_start(reply);
	lines l = { 0 };
	if (!j) {
		rc = last_list(&l, reply, MARK_NUMBER, err);
		if (!rc && !l.n)
			rc = last_list(&l, reply, MARK_BULLET, err);
		if (!rc && !l.n && !says_none(reply) && !(j = lp_json_line(reply)))
			rc = eng_fail(err, H2EMV_EPARSE,
			              "no numbered list of rules in the reply; write one rule per line: "
			              "\"1. ...\" (or \"none\" when no rule is left)");
	}
	if (!rc)
		rc = j ? from_json(out, j, err) : from_lines(out, &l, err);
	free(l.s);
	if (rc) {
		pol_rule_list_free(out);
		return rc;
	}
	return H2EMV_OK;
}
