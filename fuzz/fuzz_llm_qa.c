/*
 * fuzz_llm_qa.c — libFuzzer target for lp_qa, the reply to a
 * question-answering step. The first two bytes make the view (how many
 * nodes, their ids, which are forgotten, which round of how many); the
 * rest is the reply.
 *  - An action that parses is one of the four kinds; its ids are nodes of
 *    the view, distinct, at most LP_MAX_IDS, at least one for expand; t0 <=
 *    t1; a search or an answer has a non-empty trimmed UTF-8 text; an
 *    answer citing a forgotten node is marked forgotten; the last round
 *    answers.
 *  - The action written back in the prompt's syntax parses to the same
 *    action (decode(encode(x)) == x).
 *  - A reply that does not parse fails with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message, and an empty action.
 * Any violation traps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "fuzz/fuzz_llm_util.h"
#include "api/policy/prompts.h"

#define MAX_NODES 8

typedef struct fix {
	pol_item nodes[MAX_NODES];
	pol_qa_view v;
} fix;

static void make_view(fix *f, const uint8_t *d)
{
	memset(f, 0, sizeof *f);
	f->v.n = d[0] % (MAX_NODES + 1);
	for (size_t i = 0; i < f->v.n; i++) {
		f->nodes[i].id = i + 1 + (d[0] >> 4) * 10; /* 1.., 11.., ... 151.. */
		f->nodes[i].forgotten = d[1] >> i & 1;
		f->nodes[i].text = f->nodes[i].forgotten ? "" : "something";
	}
	f->v.nodes = f->nodes;
	f->v.question = "Where is the knife?";
	f->v.max_rounds = 3;
	f->v.round = d[1] >> 7 ? 2 : 0; /* the last round, or not */
	f->v.history = "";
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void check_action(const fix *f, const pol_qa_action *a)
{
	if (a->kind < POL_QA_EXPAND || a->kind > POL_QA_ANSWER || a->n_ids > LP_MAX_IDS)
		__builtin_trap();
	if (f->v.round + 1 >= f->v.max_rounds && a->kind != POL_QA_ANSWER)
		__builtin_trap();
	if (a->kind == POL_QA_EXPAND && !a->n_ids)
		__builtin_trap();
	if (a->t0 > a->t1)
		__builtin_trap();
	int cites_forgotten = 0;
	for (size_t i = 0; i < a->n_ids; i++) {
		size_t k = 0;
		while (k < f->v.n && f->nodes[k].id != a->ids[i])
			k++;
		if (k == f->v.n)
			__builtin_trap();
		cites_forgotten |= f->nodes[k].forgotten;
		for (size_t j = 0; j < i; j++)
			if (a->ids[j] == a->ids[i])
				__builtin_trap();
	}
	if (a->kind == POL_QA_ANSWER && cites_forgotten && !a->forgotten)
		__builtin_trap();
	if (a->kind == POL_QA_SEARCH || a->kind == POL_QA_ANSWER) {
		size_t n = a->text ? strlen(a->text) : 0;
		if (!n || n > LP_MAX_TEXT || !utf8_valid(a->text, n) || blank(a->text[0]) ||
		    blank(a->text[n - 1]))
			__builtin_trap();
	}
}

/* A quoted string of the call syntax. */
static void add_quoted(pr_str *b, const char *s)
{
	pr_str_adds(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			pr_str_add(b, "\\", 1);
		if (*s == '\n')
			pr_str_adds(b, "\\n");
		else if (*s == '\t')
			pr_str_adds(b, "\\t");
		else
			pr_str_add(b, s, 1);
	}
	pr_str_adds(b, "\"");
}

static void add_ids(pr_str *b, const pol_qa_action *a)
{
	pr_str_adds(b, "[");
	for (size_t i = 0; i < a->n_ids; i++)
		pr_str_addf(b, "%s%llu", i ? ", " : "", (unsigned long long)a->ids[i]);
	pr_str_adds(b, "]");
}

static void add_times(pr_str *b, const pol_qa_action *a)
{
	char t0[PR_TIME_MAX], t1[PR_TIME_MAX];
	pr_str_addf(b, "\"%s\", \"%s\"", pr_time_point(t0, sizeof t0, a->t0),
	            pr_time_point(t1, sizeof t1, a->t1));
}

static char *render(const pol_qa_action *a)
{
	pr_str b = { 0 };
	pr_str_adds(&b, "Reasoning: again.\nAction: ");
	switch (a->kind) {
	case POL_QA_EXPAND:
		pr_str_adds(&b, "expand(");
		add_ids(&b, a);
		break;
	case POL_QA_RANGE:
		pr_str_adds(&b, "expand_range(");
		add_times(&b, a);
		break;
	case POL_QA_SEARCH:
		pr_str_adds(&b, "search(");
		add_quoted(&b, a->text);
		if (a->t0 || a->t1) {
			pr_str_adds(&b, ", ");
			add_times(&b, a);
		}
		break;
	default:
		pr_str_adds(&b, "answer(");
		add_quoted(&b, a->text);
		pr_str_adds(&b, ", ");
		add_ids(&b, a);
	}
	pr_str_adds(&b, ")");
	return pr_str_take(&b);
}

static int same(const pol_qa_action *a, const pol_qa_action *b)
{
	if (a->kind != b->kind || a->n_ids != b->n_ids || a->t0 != b->t0 || a->t1 != b->t1 ||
	    a->forgotten != b->forgotten || !a->text != !b->text)
		return 0;
	if (a->text && strcmp(a->text, b->text) != 0)
		return 0;
	return a->n_ids == 0 || memcmp(a->ids, b->ids, a->n_ids * sizeof *a->ids) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	fix f;
	make_view(&f, data);
	char *reply = malloc(size - 2 + 1);
	if (!reply)
		return 0;
	memcpy(reply, data + 2, size - 2);
	reply[size - 2] = '\0';
	pol_qa_action a;
	h2emv_error err = { 0 };
	int rc = lp_qa(reply, &f.v, &a, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || a.kind || a.ids ||
		    a.text || a.n_ids)
			__builtin_trap();
		return 0;
	}
	check_action(&f, &a);
	char *again = render(&a);
	pol_qa_action b;
	if (!again || lp_qa(again, &f.v, &b, &err) != H2EMV_OK || !same(&a, &b))
		__builtin_trap();
	free(again);
	pol_qa_action_free(&a);
	pol_qa_action_free(&b);
	return 0;
}
