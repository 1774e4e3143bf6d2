/*
 * judge_llm.c — the evaluation's LLM judge (judge_llm.h): its prompt (the
 * rules the deterministic judge of judge.h follows, in our words), its
 * schema, the reply's parser, and one exchange with one second try.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "bench/eval/eval_util.h"
#include "bench/eval/judge.h"
#include "bench/eval/judge_llm.h"

#define REPLY_MAX (64 * 1024)

static const char ROLE[] =
	"You grade the answers a robot gives to questions about its own past. You get the "
	"question, the correct answer (gt), the time span the correct answer refers to, and "
	"the robot's answer (hyp). Sort the answer into exactly one category:\n"
	"  correct: says what gt says;\n"
	"  correct_summarized: right, but less precise, such as a rough time or a summary "
	"of a list;\n"
	"  correct_tmi: right, with extra information that is plausibly true;\n"
	"  partially_correct_tmi: the right core with extra information that is wrong, or a "
	"list with items gt does not have;\n"
	"  partially_correct_missing: part of the answer, such as the day without the time, "
	"or a list missing items;\n"
	"  wrong: a different answer, or lists where each side has an item the other lacks;\n"
	"  no_answer: no answer, a refusal, or \"I have forgotten\".\n"
	"A time a minute or so off still counts as correct; a few minutes off is partially "
	"correct; more is wrong. Compare places and objects by meaning, not spelling.";

static const char FORMAT[] = "Answer like this:\nReasoning: ...\nCategory: <one category name>";

const char judge_llm_schema[] =
	"{\"type\":\"object\",\"properties\":{\"reasoning\":{\"type\":\"string\"},"
	"\"category\":{\"type\":\"string\",\"enum\":[\"correct\",\"correct_summarized\","
	"\"correct_tmi\",\"partially_correct_tmi\",\"partially_correct_missing\",\"wrong\","
	"\"no_answer\"]}},\"required\":[\"reasoning\",\"category\"],"
	"\"additionalProperties\":false}";

/* ---------------------------------------------------------------- prompt -- */

static struct tm civil(h2emv_time t)
{
	time_t s = (time_t)(t / 1000000 - (t % 1000000 < 0));
	struct tm tm;
	if (!gmtime_r(&s, &tm))
		memset(&tm, 0, sizeof tm);
	return tm;
}

/* One end of a span: the date when asked, then HH:MM or HH:MM:SS. */
static int put_end(char *b, size_t cap, const struct tm *c, int date, int secs)
{
	int n = 0;
	if (date)
		n = snprintf(b, cap, "%04d/%02d/%02d ", c->tm_year + 1900, c->tm_mon + 1, c->tm_mday);
	if (n < 0 || (size_t)n >= cap)
		return n;
	return n + (secs ? snprintf(b + n, cap - (size_t)n, "%02d:%02d:%02d", c->tm_hour, c->tm_min,
	                            c->tm_sec)
	                 : snprintf(b + n, cap - (size_t)n, "%02d:%02d", c->tm_hour, c->tm_min));
}

/* "2024/09/23 - 2024/09/25" over a day, "2024/09/23 10:03 - 10:20" over
 * three minutes, else seconds; the end repeats the date on another day. */
static void span_text(char *b, size_t cap, h2emv_time t0, h2emv_time t1)
{
	struct tm a = civil(t0), z = civil(t1);
	h2emv_time span = t1 > t0 ? t1 - t0 : 0;
	if (span > 86400000000ll) {
		snprintf(b, cap, "%04d/%02d/%02d - %04d/%02d/%02d", a.tm_year + 1900, a.tm_mon + 1,
		         a.tm_mday, z.tm_year + 1900, z.tm_mon + 1, z.tm_mday);
		return;
	}
	int secs = span <= 180000000ll;
	int n = put_end(b, cap, &a, 1, secs);
	if (n < 0 || (size_t)n + 4 >= cap)
		return;
	memcpy(b + n, " - ", 4);
	int other_day = a.tm_year != z.tm_year || a.tm_yday != z.tm_yday;
	put_end(b + n + 3, cap - (size_t)n - 3, &z, other_day, secs);
}

int judge_llm_prompt(char **system, char **user, const judge_llm_case *c, h2emv_error *err)
{
	*system = *user = NULL;
	char span[96] = "";
	if (c->ref_t0 || c->ref_t1) {
		char s[64];
		span_text(s, sizeof s, c->ref_t0, c->ref_t1);
		snprintf(span, sizeof span, "gt refers to: %s\n", s);
	}
	const char *q = c->question ? c->question : "", *gt = c->truth ? c->truth : "",
		   *hyp = c->answer ? c->answer : "";
	size_t n = strlen(q) + strlen(gt) + strlen(hyp) + strlen(span) + sizeof FORMAT + 64;
	*user = malloc(n);
	*system = ev_strdup(ROLE);
	if (!*user || !*system) {
		free(*user);
		free(*system);
		*system = *user = NULL;
		return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	snprintf(*user, n, "q: \"%s\"\ngt: \"%s\"\n%shyp: \"%s\"\n\n%s", q, gt, span, hyp, FORMAT);
	return H2EMV_OK;
}

/* ----------------------------------------------------------------- parse -- */

/* [b, e) (to its NUL when e is NULL) in printable ASCII, other bytes as
 * '?': a message that quotes a reply stays valid UTF-8 whatever it held. */
static void printable(char *out, size_t cap, const char *b, const char *e)
{
	size_t k = 0;
	for (const char *p = b; (e ? p < e : *p != 0) && k + 1 < cap; p++)
		out[k++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
	out[k] = '\0';
}

/* The category named by [b, e): a name or a digit. */
static int parse_word(int *category, const char *b, const char *e, h2emv_error *err)
{
	const char *stop = b;
	while (stop < e && *stop != '(' && *stop != ',' && *stop != ';' && *stop != '\n')
		stop++;
	e = stop;
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && (e[-1] == '.' || isspace((unsigned char)e[-1])))
		e--;
	char norm[64];
	size_t n = 0;
	for (const char *p = b; p < e && n + 1 < sizeof norm; p++) {
		if (*p == '*' || *p == '`' || *p == '"' || *p == '\'')
			continue; /* markdown and quotes around or inside the name */
		char ch = *p == ' ' || *p == '-' || *p == '\t' ? '_' : (char)tolower((unsigned char)*p);
		if (ch == '_' && n && norm[n - 1] == '_')
			continue;
		norm[n++] = ch;
	}
	norm[n] = '\0';
	if ((size_t)(e - b) < sizeof norm) {
		if (n == 1 && norm[0] >= '0' && norm[0] < '0' + J_FINE_COUNT) {
			*category = norm[0] - '0';
			return H2EMV_OK;
		}
		for (int i = 0; i < J_FINE_COUNT; i++)
			if (!strcmp(norm, judge_fine_name(i))) {
				*category = i;
				return H2EMV_OK;
			}
	}
	char snip[49];
	printable(snip, sizeof snip, b, e);
	return ev_fail(err, H2EMV_EPARSE,
	               "category \"%s\" is not one of correct, correct_summarized, correct_tmi, "
	               "partially_correct_tmi, partially_correct_missing, wrong, no_answer",
	               snip);
}

static int parse_json(int *category, const char *j, h2emv_error *err)
{
	const char *end = strrchr(j, '}');
	json_error_t je;
	json_t *root = end ? json_loadb(j, (size_t)(end - j) + 1, 0, &je) : NULL;
	if (!root) {
		/* (jansson's message quotes the reply's bytes) */
		char why[sizeof je.text];
		printable(why, sizeof why, end ? je.text : "", NULL);
		return ev_fail(err, H2EMV_EPARSE, "the reply's JSON does not parse%s%s",
		               end ? ": " : "", why);
	}
	json_t *c = json_is_object(root) ? json_object_get(root, "category") : NULL;
	int rc = H2EMV_OK;
	if (json_is_string(c)) {
		const char *s = json_string_value(c);
		rc = parse_word(category, s, s + json_string_length(c), err);
	} else if (json_is_integer(c) && json_integer_value(c) >= 0 &&
	           json_integer_value(c) < J_FINE_COUNT) {
		*category = (int)json_integer_value(c);
	} else {
		rc = ev_fail(err, H2EMV_EPARSE, "the JSON needs \"category\": one of the names");
	}
	json_decref(root);
	return rc;
}

/* The value after the last "category:" (any case), or NULL. */
static const char *last_label(const char *s)
{
	static const char label[] = "category:";
	const char *found = NULL;
	for (const char *p = s; *p; p++)
		if (!strncasecmp(p, label, sizeof label - 1))
			found = p + sizeof label - 1;
	return found;
}

/* Is [b, e) blank or a markdown fence? */
static int empty_line(const char *b, const char *e)
{
	while (b < e && (isspace((unsigned char)*b) || *b == '`'))
		b++;
	return b == e;
}

/* A reply that is a JSON object, perhaps in a markdown fence: its '{'. */
static const char *json_start(const char *s)
{
	while (isspace((unsigned char)*s) || *s == '`')
		s++;
	if (!strncasecmp(s, "json", 4))
		s += 4;
	while (isspace((unsigned char)*s))
		s++;
	return *s == '{' ? s : NULL;
}

/* The first line that starts with '{' (after blanks), or NULL. */
static const char *json_line(const char *s)
{
	for (const char *p = s; *p;) {
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '{')
			return q;
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	return NULL;
}

int judge_llm_parse(int *category, const char *reply, h2emv_error *err)
{
	if (!category || !reply)
		return ev_fail(err, H2EMV_EINVAL, "judge: no reply or no output");
	*category = -1;
	size_t len = strlen(reply);
	if (len > REPLY_MAX)
		return ev_fail(err, H2EMV_ELIMIT, "judge: the reply is over %d bytes", REPLY_MAX);
	const char *label = last_label(reply);
	int rc;
	const char *j = json_start(reply);
	if (!j && !label)
		j = json_line(reply);
	if (j) {
		rc = parse_json(category, j, err);
	} else if (label) {
		rc = parse_word(category, label, label + strcspn(label, "\n"), err);
	} else {
		const char *b = NULL, *e = NULL;
		for (const char *p = reply; *p;) {
			const char *q = p + strcspn(p, "\n");
			if (!empty_line(p, q)) {
				b = p;
				e = q;
			}
			p = *q ? q + 1 : q;
		}
		rc = b ? parse_word(category, b, e, err)
		       : ev_fail(err, H2EMV_EPARSE, "the reply is empty; answer \"Category: <name>\"");
	}
	if (rc)
		*category = -1;
	return rc;
}

/* ----------------------------------------------------------------- grade -- */

int judge_llm_grade(int *category, h2emv_tokens *spent, h2emv_llm *llm, const judge_llm_case *c,
                    h2emv_error *err)
{
	*category = -1;
	char *sys = NULL, *user = NULL, *first = NULL;
	int rc = judge_llm_prompt(&sys, &user, c, err);
	h2emv_llm_message m[4] = { { "system", sys }, { "user", user } };
	h2emv_llm_request rq = H2EMV_LLM_REQUEST_INIT;
	rq.decision = "judge";
	rq.messages = m;
	rq.n_messages = 2;
	rq.schema_name = "judge";
	rq.schema = judge_llm_schema;
	char msg[sizeof err->message + 160];
	for (int attempt = 0; rc == H2EMV_OK && attempt < 2; attempt++) {
		char *reply = NULL;
		rc = h2emv_llm_chat(&reply, spent, llm, &rq, err);
		if (rc != H2EMV_OK)
			break;
		h2emv_error perr = { 0 };
		rc = judge_llm_parse(category, reply, &perr);
		if (rc == H2EMV_OK || attempt == 1) {
			h2emv_free(reply);
			if (rc != H2EMV_OK && err)
				*err = perr;
			break;
		}
		/* the reply and what is wrong with it, then one more try */
		snprintf(msg, sizeof msg, "Your answer could not be used: %s. Answer again, exactly "
		         "in the format asked for.", perr.message[0] ? perr.message : "it did not parse");
		first = reply;
		m[2] = (h2emv_llm_message){ "assistant", first };
		m[3] = (h2emv_llm_message){ "user", msg };
		rq.n_messages = 4;
		rc = H2EMV_OK;
	}
	h2emv_free(first);
	free(sys);
	free(user);
	return rc;
}
