/*
 * llm_parse_qa.c — the reply to a question-answering step: one action in
 * the Python-like call syntax the prompt shows (or its JSON form), its ids
 * checked against the view, its times read as UTC in the prompts' format.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "engine/engine.h"

#define US_SEC INT64_C(1000000)

static const char *const KINDS[] = { NULL, "expand", "expand_range", "search", "answer" };

static const char EXAMPLE_RANGE[] =
	"expand_range(\"2024/09/23 10:00\", \"2024/09/23 11:00\")";

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void skip_ws(const char **p)
{
	while (is_space(**p))
		(*p)++;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
}

/* ------------------------------------------------------------------ time -- */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil), the inverse of what prompts.c prints. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static unsigned month_days(int64_t y, unsigned m)
{
	static const unsigned days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

/* Exactly `min`..`max` digits at *p. -1 when there are not. */
static long digits(const char **p, int min, int max)
{
	long v = 0;
	int n = 0;
	while (n < max && **p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n >= min ? v : -1;
}

/* "HH:MM[:SS]" at *p: seconds of the day and the unit it names. */
static int clock_time(const char **p, int64_t *sec, int64_t *unit)
{
	long h = digits(p, 1, 2), m = -1, s = 0;
	if (h >= 0 && **p == ':') {
		(*p)++;
		m = digits(p, 2, 2);
	}
	if (h < 0 || h > 23 || m < 0 || m > 59)
		return 0;
	*unit = 60;
	if (**p == ':') {
		(*p)++;
		s = digits(p, 2, 2);
		if (s < 0 || s > 59)
			return 0;
		*unit = 1;
	}
	*sec = h * 3600 + m * 60 + s;
	return 1;
}

/*
 * A time of the prompts' format: "YYYY/MM/DD[ HH:MM[:SS]]" ('-' in the
 * date and 'T' before the clock accepted, a trailing "Z" or "UTC" too), or
 * a clock alone when `day` (days since the epoch) is given. *start is the
 * first µs it names, *end the last.
 */
static int parse_time(const char *s, const int64_t *day, int64_t *start, int64_t *end,
                      int64_t *out_day, h2emv_error *err)
{
	const char *p = s;
	int64_t d, sec = 0, unit = 86400;
	skip_ws(&p);
	const char *q = p, *c0 = p;
	long y = digits(&q, 4, 4);
	if (y >= 0 && (*q == '/' || *q == '-')) {
		char sep = *q++;
		long mo = digits(&q, 1, 2), da = -1;
		if (mo >= 0 && *q == sep) {
			q++;
			da = digits(&q, 1, 2);
		}
		if (mo < 1 || mo > 12 || da < 1 || (unsigned long)da > month_days(y, (unsigned)mo))
			goto bad;
		d = days_from_civil(y, (unsigned)mo, (unsigned)da);
		p = q;
		if ((*p == ' ' || *p == 'T') && p[1] >= '0' && p[1] <= '9') {
			p++;
			if (!clock_time(&p, &sec, &unit))
				goto bad;
		}
	} else if (day && clock_time(&p, &sec, &unit)) {
		d = *day;
	} else {
		char snip[64];
		lp_snip(snip, sizeof snip, s, strlen(s));
		p = c0;
		if (clock_time(&p, &sec, &unit))
			return eng_fail(err, H2EMV_EPARSE,
			                "time \"%s\" needs a date: \"YYYY/MM/DD HH:MM\"", snip);
		goto bad;
	}
	skip_ws(&p);
	if (*p == 'Z')
		p++;
	else if (strncasecmp(p, "UTC", 3) == 0)
		p += 3;
	skip_ws(&p);
	if (*p)
		goto bad;
	*start = (d * 86400 + sec) * US_SEC;
	*end = *start + unit * US_SEC - 1;
	if (out_day)
		*out_day = d;
	return H2EMV_OK;
bad:;
	char snip[64];
	lp_snip(snip, sizeof snip, s, strlen(s));
	return eng_fail(err, H2EMV_EPARSE, "time \"%s\" is not \"YYYY/MM/DD HH:MM[:SS]\"", snip);
}

/* t0 and t1 of a range: t0 from the start of what it names, t1 to the end
 * of its; t1 may leave out t0's date. */
static int parse_range(pol_qa_action *a, const char *t0, const char *t1, h2emv_error *err)
{
	int64_t s0, e0, s1, e1, day;
	int rc = parse_time(t0, NULL, &s0, &e0, &day, err);
	if (!rc)
		rc = parse_time(t1, &day, &s1, &e1, NULL, err);
	if (rc)
		return rc;
	if (s0 > e1) {
		char a0[64], a1[64];
		lp_snip(a0, sizeof a0, t0, strlen(t0));
		lp_snip(a1, sizeof a1, t1, strlen(t1));
		return eng_fail(err, H2EMV_EPARSE, "the range ends (\"%s\") before it starts (\"%s\")",
		                a1, a0);
	}
	a->t0 = s0;
	a->t1 = e1;
	return H2EMV_OK;
}

/* ----------------------------------------------------------- arguments -- */

/* A quoted string at *p ('"' or '\'', with \" \' \\ \n \t \/ escapes;
 * other escapes kept as written). *out malloc'd, not yet checked. */
static int qstring(const char **p, char **out, const char *what, h2emv_error *err)
{
	char q = **p;
	*out = NULL;
	if (q != '"' && q != '\'')
		return eng_fail(err, H2EMV_EPARSE, "%s must be in quotes", what);
	const char *s = *p + 1, *e = s;
	while (*e && *e != q)
		e += e[0] == '\\' && e[1] ? 2 : 1;
	if (!*e)
		return eng_fail(err, H2EMV_EPARSE, "%s has no closing quote", what);
	char *d = malloc((size_t)(e - s) + 1);
	if (!d)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t n = 0;
	for (const char *c = s; c < e; c++) {
		if (*c != '\\') {
			d[n++] = *c;
			continue;
		}
		c++;
		switch (*c) {
		case 'n': d[n++] = '\n'; break;
		case 't': d[n++] = '\t'; break;
		case '"': case '\'': case '\\': case '/': d[n++] = *c; break;
		default:
			d[n++] = '\\';
			d[n++] = *c;
		}
	}
	d[n] = '\0';
	*p = e + 1;
	*out = d;
	return H2EMV_OK;
}

/* Skip "name=" before an argument (Python keyword style). */
static void skip_keyword(const char **p)
{
	skip_ws(p);
	const char *q = *p;
	while (is_ident(*q))
		q++;
	if (q == *p)
		return;
	const char *r = q;
	skip_ws(&r);
	if (*r == '=' && r[1] != '=') {
		*p = r + 1;
		skip_ws(p);
	}
}

/* ',' then the next argument; 0 when there is no ','. */
static int next_arg(const char **p)
{
	skip_ws(p);
	if (**p != ',')
		return 0;
	(*p)++;
	skip_keyword(p);
	return **p != ')';
}

static int add_id(pol_qa_action *a, const char *b, size_t n, h2emv_error *err)
{
	if (a->n_ids == LP_MAX_IDS)
		return eng_fail(err, H2EMV_EPARSE, "too many ids (at most %u)", (unsigned)LP_MAX_IDS);
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (v > (UINT64_MAX - 9) / 10) {
			char snip[64];
			lp_snip(snip, sizeof snip, b, n);
			return eng_fail(err, H2EMV_EPARSE, "id %s is not in the view", snip);
		}
		v = v * 10 + (uint64_t)(b[i] - '0');
	}
	if (!a->ids && !(a->ids = malloc(LP_MAX_IDS * sizeof *a->ids)))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	a->ids[a->n_ids++] = v;
	return H2EMV_OK;
}

/* Ids: "[1, 2]", or bare "1, 2" up to ')'; an id may be quoted. */
static int id_list(const char **p, pol_qa_action *a, const char *tool, h2emv_error *err)
{
	skip_ws(p);
	int bracket = **p == '[';
	if (bracket)
		(*p)++;
	for (;;) {
		skip_ws(p);
		if ((bracket && **p == ']') || (!bracket && **p == ')'))
			break;
		char q = **p == '"' || **p == '\'' ? **p : 0;
		if (q)
			(*p)++;
		const char *b = *p;
		while (**p >= '0' && **p <= '9')
			(*p)++;
		if (*p == b || (q && **p != q))
			return eng_fail(err, H2EMV_EPARSE,
			                "%s takes node ids as numbers in brackets, like [12, 15]", tool);
		int rc = add_id(a, b, (size_t)(*p - b), err);
		if (rc)
			return rc;
		if (q)
			(*p)++;
		skip_ws(p);
		if (**p != ',')
			break;
		(*p)++;
	}
	if (bracket) {
		if (**p != ']')
			return eng_fail(err, H2EMV_EPARSE, "the ids of %s need a closing \"]\"", tool);
		(*p)++;
	}
	return H2EMV_OK;
}

/* Two quoted times at *p into a->t0/t1. */
static int time_args(const char **p, pol_qa_action *a, h2emv_error *err)
{
	char *t0 = NULL, *t1 = NULL;
	int rc = qstring(p, &t0, "a time", err);
	if (!rc && !next_arg(p))
		rc = eng_fail(err, H2EMV_EPARSE, "two times are needed, like %s", EXAMPLE_RANGE);
	if (!rc)
		rc = qstring(p, &t1, "a time", err);
	if (!rc)
		rc = parse_range(a, t0, t1, err);
	free(t0);
	free(t1);
	return rc;
}

/* The arguments of a call, *p just after '('. */
static int call_args(const char **p, pol_qa_action *a, h2emv_error *err)
{
	const char *tool = KINDS[a->kind];
	int rc = H2EMV_OK;
	skip_keyword(p);
	switch (a->kind) {
	case POL_QA_EXPAND:
		rc = id_list(p, a, tool, err);
		break;
	case POL_QA_RANGE:
		rc = **p == ')' ? eng_fail(err, H2EMV_EPARSE, "two times are needed, like %s",
		                           EXAMPLE_RANGE)
		                : time_args(p, a, err);
		break;
	case POL_QA_SEARCH:
		rc = qstring(p, &a->text, "the search text", err);
		if (!rc && next_arg(p))
			rc = time_args(p, a, err);
		break;
	default:
		rc = qstring(p, &a->text, "the answer", err);
		if (!rc && next_arg(p))
			rc = id_list(p, a, tool, err);
	}
	if (rc)
		return rc;
	skip_ws(p);
	if (**p == ',')
		(*p)++;
	skip_ws(p);
	if (**p != ')')
		return eng_fail(err, H2EMV_EPARSE, "%s(...) needs a closing \")\" after its arguments",
		                tool);
	return H2EMV_OK;
}

/* The tool named at p; 0 when none. *end after the name. */
static int tool_kind(const char *p, const char **end)
{
	if (lp_starts_ci(p, "history."))
		p += 8; /* upstream's agent called history.expand(...) */
	const char *q = p;
	while (is_ident(*q))
		q++;
	*end = q;
	for (int k = POL_QA_EXPAND; k <= POL_QA_ANSWER; k++)
		if ((size_t)(q - p) == strlen(KINDS[k]) && lp_starts_ci(p, KINDS[k]))
			return k;
	return 0;
}

/* The action at p ("Action:" already passed). */
static int text_action(const char *p, pol_qa_action *a, h2emv_error *err)
{
	skip_ws(&p);
	if (p[0] == '`' && p[1] == '`' && p[2] == '`') { /* the call in a code block */
		while (*p && *p != '\n')
			p++;
		skip_ws(&p);
	}
	while (*p == '`' || *p == '*')
		p++;
	const char *name = p;
	a->kind = tool_kind(p, &p);
	if (!a->kind) {
		char snip[64];
		const char *e = name;
		while (*e && *e != '(' && *e != '\n')
			e++;
		lp_snip(snip, sizeof snip, name, (size_t)(e - name));
		return eng_fail(err, H2EMV_EPARSE,
		                "action \"%s\" is not one of expand, expand_range, search, answer", snip);
	}
	skip_ws(&p);
	if (*p != '(')
		return eng_fail(err, H2EMV_EPARSE, "%s needs its arguments in parentheses",
		                KINDS[a->kind]);
	p++;
	return call_args(&p, a, err);
}

/* Without an "Action:" label: the last line that starts with a call. */
static const char *bare_call(const char *reply)
{
	const char *found = NULL;
	for (const char *p = reply; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '`' || *p == '*')
			p++;
		const char *e;
		if (tool_kind(p, &e)) {
			skip_ws(&e);
			if (*e == '(')
				found = p;
		}
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
	return found;
}

/* ---------------------------------------------------------------- JSON -- */

/* A string member, or "" when absent or null. */
static int json_str(json_t *o, const char *key, const char **out, h2emv_error *err)
{
	json_t *v = lp_json_get(o, key);
	*out = "";
	if (!v || json_is_null(v))
		return H2EMV_OK;
	if (!json_is_string(v))
		return eng_fail(err, H2EMV_EPARSE, "\"%s\" must be a string", key);
	*out = json_string_value(v);
	return H2EMV_OK;
}

static int json_action(const char *j, pol_qa_action *a, h2emv_error *err)
{
	json_t *root;
	int rc = lp_json_parse(&root, j, err);
	if (rc)
		return rc;
	const char *act, *t0, *t1, *text;
	const char *end;
	if (!(rc = json_str(root, "action", &act, err)) && !(a->kind = tool_kind(act, &end)))
		rc = eng_fail(err, H2EMV_EPARSE,
		              "\"action\" must be one of expand, expand_range, search, answer");
	if (!rc)
		rc = json_str(root, "t0", &t0, err);
	if (!rc)
		rc = json_str(root, "t1", &t1, err);
	if (!rc)
		rc = json_str(root, "text", &text, err);
	/* strict schemas send every field: ids matter to expand and answer only */
	json_t *ids = rc || a->kind == POL_QA_RANGE || a->kind == POL_QA_SEARCH
	                      ? NULL
	                      : lp_json_get(root, "ids");
	if (ids && !json_is_null(ids)) {
		size_t i;
		json_t *v;
		if (!json_is_array(ids))
			rc = eng_fail(err, H2EMV_EPARSE, "\"ids\" must be a list of node ids");
		json_array_foreach (ids, i, v) {
			if (rc)
				break;
			char num[24];
			int n = -1;
			if (json_is_integer(v) && json_integer_value(v) >= 0)
				n = snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
			else if (json_is_string(v) && json_string_length(v) &&
			         json_string_length(v) < sizeof num &&
			         strspn(json_string_value(v), "0123456789") == json_string_length(v))
				n = snprintf(num, sizeof num, "%s", json_string_value(v));
			rc = n > 0 ? add_id(a, num, (size_t)n, err)
			           : eng_fail(err, H2EMV_EPARSE, "\"ids\" must be a list of node ids");
		}
	}
	if (!rc && a->kind == POL_QA_RANGE) {
		rc = *t0 && *t1 ? parse_range(a, t0, t1, err)
		                : eng_fail(err, H2EMV_EPARSE,
		                           "expand_range needs \"t0\" and \"t1\", like "
		                           "\"2024/09/23 10:00\"");
	} else if (!rc && a->kind == POL_QA_SEARCH && (*t0 || *t1)) {
		rc = parse_range(a, t0, t1, err);
	}
	if (!rc && (a->kind == POL_QA_SEARCH || a->kind == POL_QA_ANSWER) &&
	    !(a->text = strdup(text)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	json_decref(root);
	return rc;
}

/* ----------------------------------------------------------- checking -- */

static const pol_item *view_node(const pol_qa_view *v, uint64_t id)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->nodes[i].id == id)
			return &v->nodes[i];
	return NULL;
}

/* Does an answer say it has forgotten? */
static int says_forgotten(const char *t)
{
	static const char *const words[] = {
		"forgot", "no longer remember", "don't remember", "don\xe2\x80\x99t remember",
		"do not remember", "cannot remember", "can't remember", "can\xe2\x80\x99t remember",
	};
	for (const char *p = t; *p; p++)
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
			if (lp_starts_ci(p, words[w]))
				return 1;
	return 0;
}

/* Trim the text in place and check it. */
static int check_text(char *s, const char *what, h2emv_error *err)
{
	size_t n = strlen(s), b = 0;
	while (b < n && is_space(s[b]))
		b++;
	while (n > b && is_space(s[n - 1]))
		n--;
	memmove(s, s + b, n - b);
	n -= b;
	s[n] = '\0';
	if (!n)
		return eng_fail(err, H2EMV_EPARSE, "%s is empty", what);
	if (n > LP_MAX_TEXT)
		return eng_fail(err, H2EMV_EPARSE, "%s is too long (%zu bytes; at most %u)", what, n,
		                (unsigned)LP_MAX_TEXT);
	if (!utf8_valid(s, n))
		return eng_fail(err, H2EMV_EPARSE, "%s is not valid UTF-8", what);
	return H2EMV_OK;
}

static int check(pol_qa_action *a, const pol_qa_view *v, h2emv_error *err)
{
	/* the prompt's own test of the last round (prompts_qa.c) */
	if ((long long)v->round + 1 >= v->max_rounds && a->kind != POL_QA_ANSWER)
		return eng_fail(err, H2EMV_EPARSE,
		                "this is the last step: the action must be answer(text, ids)");
	if (a->kind == POL_QA_EXPAND && !a->n_ids)
		return eng_fail(err, H2EMV_EPARSE, "expand needs at least one id, like expand([12])");
	size_t kept = 0;
	for (size_t i = 0; i < a->n_ids; i++) {
		const pol_item *node = view_node(v, a->ids[i]);
		if (!node)
			return eng_fail(err, H2EMV_EPARSE, "id %llu is not in the view",
			                (unsigned long long)a->ids[i]);
		size_t k = 0;
		while (k < kept && a->ids[k] != a->ids[i])
			k++;
		if (k == kept)
			a->ids[kept++] = a->ids[i];
		if (a->kind == POL_QA_ANSWER && node->forgotten)
			a->forgotten = 1;
	}
	a->n_ids = kept;
	if (a->kind == POL_QA_SEARCH || a->kind == POL_QA_ANSWER) {
		int rc = check_text(a->text, a->kind == POL_QA_SEARCH ? "the search text" : "the answer",
		                    err);
		if (rc)
			return rc;
	}
	if (a->kind == POL_QA_ANSWER && says_forgotten(a->text))
		a->forgotten = 1;
	return H2EMV_OK;
}

int lp_qa(const char *reply, const pol_qa_view *view, pol_qa_action *out, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "qa: no output");
	memset(out, 0, sizeof *out);
	int rc = lp_check_reply(reply, err);
	if (rc)
		return rc;
	if (!view || (view->n && !view->nodes))
		return eng_fail(err, H2EMV_EINVAL, "qa: bad view");
	const char *j = lp_json_start(reply), *v = NULL;
	if (!j && !(v = lp_label(reply, "action")) && !(v = bare_call(reply)))
		j = lp_json_line(reply);
	if (j)
		rc = json_action(j, out, err);
	else if (v)
		rc = text_action(v, out, err);
	else
		rc = eng_fail(err, H2EMV_EPARSE,
		              "no \"Action:\" line; end with \"Action: <one action>\", like "
		              "\"Action: expand([12])\"");
	if (!rc)
		rc = check(out, view, err);
	if (rc) {
		pol_qa_action_free(out);
		memset(out, 0, sizeof *out);
	}
	return rc;
}
