/*
 * llm_parse.c — what the reply parsers share (finding labels, paragraphs
 * and the JSON object in a model's reply, checked copies of its text,
 * quotations for error messages) and the small parsers: summary,
 * relevance (route and judge are in llm_parse_verdict.c). The rules are
 * written down in llm_parse.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "engine/engine.h"

/* ------------------------------------------------------------ characters -- */

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static int is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Markdown a model puts in front of a label: "**JSON:**", "### Summary:",
 * "> Action:", "- Route:". */
static int is_decor(char c)
{
	return c == ' ' || c == '\t' || c == '*' || c == '#' || c == '>' || c == '-' || c == '`' ||
	       c == '_';
}

const char *lp_line_end(const char *p)
{
	while (*p && *p != '\n')
		p++;
	return p;
}

int lp_starts_ci(const char *s, const char *word)
{
	for (; *word; s++, word++)
		if (lower(*s) != *word)
			return 0;
	return 1;
}

void lp_snip(char *buf, size_t cap, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, i = 0;
	if (!cap)
		return;
	/* room is kept for "..." and the NUL after a 4-byte character */
	while (i < n && o + 8 <= cap) {
		size_t k = utf8_char_len(s + i, n - i);
		if (k == 1) {
			buf[o++] = p[i] < 0x20 || p[i] == 0x7f ? ' ' : (char)p[i];
		} else if (k > 1) {
			memcpy(buf + o, p + i, k);
			o += k;
		} else {
			buf[o++] = '?';
			k = 1;
		}
		i += k;
	}
	if (i < n && o + 4 <= cap) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o < cap ? o : cap - 1] = '\0';
}

/* ------------------------------------------------------------- the reply -- */

int lp_check_reply(const char *reply, h2emv_error *err)
{
	if (!reply)
		return eng_fail(err, H2EMV_EINVAL, "no reply");
	if (strnlen(reply, LP_MAX_REPLY + 1) > LP_MAX_REPLY)
		return eng_fail(err, H2EMV_ELIMIT, "the reply is longer than %u bytes",
		                (unsigned)LP_MAX_REPLY);
	return H2EMV_OK;
}

const char *lp_json_start(const char *reply)
{
	const char *p = reply;
	while (is_blank(*p))
		p++;
	if (p[0] == '`' && p[1] == '`' && p[2] == '`') {
		p = lp_line_end(p);
		while (is_blank(*p))
			p++;
	}
	return *p == '{' ? p : NULL;
}

const char *lp_json_line(const char *reply)
{
	for (const char *p = reply; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '{')
			return p;
		p = lp_line_end(p);
		if (*p)
			p++;
	}
	return NULL;
}

int lp_json_parse(json_t **out, const char *p, h2emv_error *err)
{
	json_error_t je;
	*out = json_loads(p, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &je);
	if (!*out) {
		char snip[64];
		lp_snip(snip, sizeof snip, je.text, strlen(je.text));
		return eng_fail(err, H2EMV_EPARSE, "the JSON does not parse: %s (line %d, column %d)",
		                snip, je.line, je.column);
	}
	if (!json_is_object(*out)) {
		json_decref(*out);
		*out = NULL;
		return eng_fail(err, H2EMV_EPARSE, "the JSON is not an object");
	}
	return H2EMV_OK;
}

json_t *lp_json_get(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (v)
		return v;
	const char *k;
	json_t *val;
	json_object_foreach (obj, k, val)
		if (strcasecmp(k, key) == 0)
			return val;
	return NULL;
}

/* After "label" at p: optional spaces or '*', ':', then blanks and
 * decorations on the same line. The value's start, or NULL. */
static const char *after_label(const char *p, const char *label)
{
	if (!lp_starts_ci(p, label))
		return NULL;
	p += strlen(label);
	while (*p == ' ' || *p == '*')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t' || *p == '*')
		p++;
	return p;
}

const char *lp_label(const char *reply, const char *label)
{
	const char *found = NULL;
	for (const char *p = reply; *p;) {
		while (is_decor(*p))
			p++;
		const char *v = after_label(p, label);
		if (v)
			found = v;
		p = lp_line_end(p);
		if (*p)
			p++;
	}
	if (found)
		return found;
	for (const char *p = reply; *p; p++)
		if (lower(*p) == label[0] && (p == reply || !is_alnum(p[-1]))) {
			const char *v = after_label(p, label);
			if (v)
				found = v;
		}
	return found;
}

static int line_blank(const char *b, const char *e)
{
	for (; b < e; b++)
		if (!is_blank(*b))
			return 0;
	return 1;
}

static int line_fence(const char *b)
{
	while (*b == ' ' || *b == '\t')
		b++;
	return b[0] == '`' && b[1] == '`' && b[2] == '`';
}

static int line_stops(const char *b, const char *const *stops)
{
	while (is_decor(*b))
		b++;
	for (size_t i = 0; stops && stops[i]; i++)
		if (after_label(b, stops[i]))
			return 1;
	return 0;
}

void lp_paragraph(const char *p, const char *const *stops, const char **b, const char **e)
{
	/* leading blank and fence lines (a value on the line after its label) */
	for (;;) {
		const char *le = lp_line_end(p);
		if (!(line_blank(p, le) || line_fence(p)) || !*le)
			break;
		p = le + 1;
	}
	*b = p;
	const char *end = lp_line_end(p);
	for (const char *q = *end ? end + 1 : end; *q;) {
		const char *le = lp_line_end(q);
		if (line_blank(q, le) || line_fence(q) || line_stops(q, stops))
			break;
		end = le;
		q = *le ? le + 1 : le;
	}
	*e = end;
	if (line_fence(*b))
		*e = *b; /* only a fence was left */
}

void lp_trim(const char **b, const char **e, int unquote)
{
	for (int round = 0; round < 2; round++) {
		while (*b < *e && is_blank(**b))
			(*b)++;
		while (*e > *b && is_blank((*e)[-1]))
			(*e)--;
		if (!unquote || round)
			break;
		size_t n = (size_t)(*e - *b);
		if (n >= 4 && memcmp(*b, "**", 2) == 0 && memcmp(*e - 2, "**", 2) == 0) {
			*b += 2;
			*e -= 2;
		} else if (n >= 2 && **b == (*e)[-1] && (**b == '"' || **b == '\'' || **b == '`')) {
			(*b)++;
			(*e)--;
		} else {
			break;
		}
	}
}

int lp_text_dup(char **out, const char *b, const char *e, size_t max, const char *what,
                h2emv_error *err)
{
	*out = NULL;
	lp_trim(&b, &e, 1);
	size_t n = (size_t)(e - b);
	if (!n)
		return eng_fail(err, H2EMV_EPARSE, "%s is empty", what);
	if (n > max)
		return eng_fail(err, H2EMV_EPARSE, "%s is too long (%zu bytes; at most %zu)", what, n,
		                max);
	if (!utf8_valid(b, n))
		return eng_fail(err, H2EMV_EPARSE, "%s is not valid UTF-8", what);
	char *s = malloc(n + 1);
	if (!s)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	memcpy(s, b, n);
	s[n] = '\0';
	*out = s;
	return H2EMV_OK;
}

int lp_json_text_dup(char **out, json_t *obj, const char *key, size_t max, const char *what,
                     h2emv_error *err)
{
	*out = NULL;
	json_t *v = lp_json_get(obj, key);
	if (!v)
		return eng_fail(err, H2EMV_EPARSE, "the JSON has no \"%s\"", key);
	if (!json_is_string(v))
		return eng_fail(err, H2EMV_EPARSE, "\"%s\" must be a string", key);
	const char *s = json_string_value(v);
	return lp_text_dup(out, s, s + json_string_length(v), max, what, err);
}

/* -------------------------------------------------------------- summary -- */

int lp_summary(const char *reply, char **out, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "summary: no output");
	*out = NULL;
	int rc = lp_check_reply(reply, err);
	if (rc)
		return rc;
	const char *j = lp_json_start(reply), *v = NULL;
	if (!j && !(v = lp_label(reply, "summary")))
		j = lp_json_line(reply);
	if (j) {
		json_t *root;
		if ((rc = lp_json_parse(&root, j, err)))
			return rc;
		rc = lp_json_text_dup(out, root, "summary", LP_MAX_SUMMARY, "the summary", err);
		json_decref(root);
		return rc;
	}
	if (!v)
		return eng_fail(err, H2EMV_EPARSE,
		                "no \"Summary:\" line; answer \"Summary: <one sentence>\"");
	static const char *const stops[] = { "reasoning", "summary", NULL };
	const char *b, *e;
	lp_paragraph(v, stops, &b, &e);
	return lp_text_dup(out, b, e, LP_MAX_SUMMARY, "the summary", err);
}

/* ------------------------------------------------------------ relevance -- */

/* A relevance value at p: "inf"/"infinity"/"∞" or a decimal number >= 0,
 * decorations around it allowed, nothing alphanumeric right after it. */
static int relevance_text(const char *p, double *alpha, h2emv_error *err)
{
	while (is_blank(*p) || *p == '*' || *p == '`' || *p == '"' || *p == '\'')
		p++;
	const char *start = p;
	char snip[64];
	lp_snip(snip, sizeof snip, start, (size_t)(lp_line_end(start) - start));
	if (strncmp(p, "\xe2\x88\x9e", 3) == 0) {
		*alpha = INFINITY;
		return H2EMV_OK;
	}
	if (lp_starts_ci(p, "inf")) {
		p += lp_starts_ci(p, "infinity") ? 8 : 3;
		if (is_alnum(*p))
			return eng_fail(err, H2EMV_EPARSE, "relevance \"%s\" is not a number or inf",
			                snip);
		*alpha = INFINITY;
		return H2EMV_OK;
	}
	if (*p == '-' && (p[1] >= '0' && p[1] <= '9'))
		return eng_fail(err, H2EMV_EPARSE, "relevance must be 0 or more, or inf; got \"%s\"",
		                snip);
	uint64_t ip = 0, fp = 0, scale = 1;
	size_t n_int = 0, n_frac = 0;
	for (; *p >= '0' && *p <= '9'; p++, n_int++) {
		if (n_int == 15)
			return eng_fail(err, H2EMV_EPARSE,
			                "relevance \"%s\" is too large; answer inf to keep it for good",
			                snip);
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, n_frac++)
			if (n_frac < 17) { /* further digits change nothing a double holds */
				fp = fp * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
	}
	if ((n_int == 0 && n_frac == 0) || is_alnum(*p))
		return eng_fail(err, H2EMV_EPARSE, "relevance \"%s\" is not a number or inf", snip);
	if (*p == ',' && p[1] >= '0' && p[1] <= '9') /* a decimal comma: 0,5 is not 0 */
		return eng_fail(err, H2EMV_EPARSE, "relevance \"%s\": write decimals with a point",
		                snip);
	*alpha = (double)ip + (double)fp / (double)scale;
	return H2EMV_OK;
}

static int relevance_json(const char *j, double *alpha, h2emv_error *err)
{
	json_t *root;
	int rc = lp_json_parse(&root, j, err);
	if (rc)
		return rc;
	json_t *v = lp_json_get(root, "relevance");
	if (!v)
		rc = eng_fail(err, H2EMV_EPARSE, "the JSON has no \"relevance\"");
	else if (json_is_string(v))
		rc = relevance_text(json_string_value(v), alpha, err);
	else if (!json_is_number(v))
		rc = eng_fail(err, H2EMV_EPARSE, "\"relevance\" must be a number or \"inf\"");
	else if (!(json_number_value(v) >= 0))
		rc = eng_fail(err, H2EMV_EPARSE, "relevance must be 0 or more, or inf; got %g",
		              json_number_value(v));
	else
		*alpha = json_number_value(v);
	json_decref(root);
	return rc;
}

int lp_relevance(const char *reply, double *alpha, h2emv_error *err)
{
	if (!alpha)
		return eng_fail(err, H2EMV_EINVAL, "relevance: no output");
	*alpha = 0;
	int rc = lp_check_reply(reply, err);
	if (rc)
		return rc;
	const char *j = lp_json_start(reply), *v = NULL;
	if (!j && !(v = lp_label(reply, "relevance")))
		j = lp_json_line(reply);
	if (j)
		rc = relevance_json(j, alpha, err);
	else if (v)
		rc = relevance_text(v, alpha, err);
	else
		rc = eng_fail(err, H2EMV_EPARSE,
		              "no \"Relevance:\" line; end with \"Relevance: <number or inf>\"");
	if (rc)
		*alpha = 0;
	return rc;
}

/* ----------------------------------------------------------- last line -- */

int lp_last_line(const char *reply, const char **b, const char **e)
{
	*b = *e = NULL;
	for (const char *p = reply; *p;) {
		const char *le = lp_line_end(p);
		if (!line_blank(p, le) && !line_fence(p)) {
			*b = p;
			*e = le;
		}
		p = *le ? le + 1 : le;
	}
	return *b != NULL;
}
