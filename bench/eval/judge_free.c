/*
 * judge_free.c — grading free-text answers (task descriptions, "what did
 * you do"): truth and answer are cut into clauses, each clause is the set of
 * its content words (stemmed, verb synonyms folded), and two clauses agree
 * when they share a content word that is not a generic verb and at least
 * half of the smaller one. Then the list rules apply.
 */
#include <stdio.h>
#include <string.h>

#include "bench/eval/judge_int.h"

typedef jd_clause clause;
typedef jd_clauses clauses;

/* Verbs that say little on their own ("make", "prepare", "do"). */
static int generic(const char *stem)
{
	static const char *const list[] = { "mak", "prepar", "do", "plac", "pick", "clean", "serv",
		"cook", "get", "us", "handl", "organiz", "manag", "complet", "mov", "open", "clos",
		"slic", "fill", "turn", "go", "task", "perform", "finish", "start", "help", "work",
		"arrang", "gather", "collect", "ensur", "confirm", "successful", "successfully",
		"set", "find", "try", "tri", "want", "need", "see", "look", NULL };
	return jd_in(stem, list);
}

static int task_verb(const char *w)
{
	static const char *const list[] = { "make", "cook", "serve", "prepare", "boil", "water",
		"put", "clean", "slice", "toast", "brew", "rinse", "wash", "place", "pick", "open",
		"close", "pour", "fill", "turn", "toggle", "grab", "take", "organize", "arrange",
		"move", "bring", "go", "made", "cooked", "served", "prepared", "boiled", "watered",
		"cleaned", "sliced", "placed", "washed", "rinsed", NULL };
	return jd_in(w, list);
}

static void add_word(clause *c, const char *w)
{
	char s[JD_WORD];
	memcpy(s, w, JD_WORD);
	jd_stem(s);
	if (!s[0] || strlen(s) < 2)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->w[i], s))
			return;
	if (c->n < JD_CLAUSE_WORDS)
		memcpy(c->w[c->n++], s, JD_WORD);
}

/* Words that sum things up instead of naming them ("organized household
 * items", "prepared meals"). */
static int summary_word(const char *w)
{
	static const char *const list[] = { "meal", "meals", "item", "items", "household",
		"various", "chore", "chores", "task", "tasks", "activity", "activities", "thing",
		"things", "object", "objects", "kitchenware", "utensil", "utensils", "appliance",
		"appliances", "space", "spaces", "area", "areas", "beverage", "beverages", "stuff",
		"several", "multiple", "ingredient", "ingredients", "food", "dishes", NULL };
	return jd_in(w, list);
}

/* Clauses cut at punctuation and at "and" / "then" before a verb. */
static void split(clauses *out, const jd_text *x)
{
	out->n = 0;
	clause *cur = NULL;
	for (size_t i = 0; i < x->nt; i++) {
		const jd_tok *t = &x->t[i];
		int cut = !cur || t->brk;
		if (jd_conj(t->w)) {
			if (i + 1 < x->nt && task_verb(x->t[i + 1].w))
				cur = NULL;
			continue;
		}
		if (cut && cur && !cur->n)
			cut = 0; /* reuse an empty clause */
		if (cut || !cur) {
			if (out->n >= JD_MAX_CLAUSES)
				return;
			cur = &out->c[out->n++];
			cur->n = 0;
			cur->sum = 0;
		}
		cur->sum |= (uint8_t)summary_word(t->w);
		if (!t->num && !jd_filler(t->w))
			add_word(cur, t->w);
	}
	if (out->n && !out->c[out->n - 1].n)
		out->n--;
}

static int same_words(const clause *a, const clause *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		size_t j = 0;
		while (j < b->n && strcmp(a->w[i], b->w[j]))
			j++;
		if (j == b->n)
			return 0;
	}
	return 1;
}

/* Drop clauses that repeat an earlier one ("make a sandwich" five times). */
static void dedupe(clauses *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++) {
		int dup = 0;
		for (size_t j = 0; j < k && !dup; j++)
			dup = same_words(&c->c[j], &c->c[i]);
		if (!dup)
			c->c[k++] = c->c[i];
	}
	c->n = k;
}

static int agree(const clause *a, const clause *b)
{
	size_t shared = 0, specific = 0;
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (!strcmp(a->w[i], b->w[j])) {
				shared++;
				specific += !generic(a->w[i]);
				break;
			}
	size_t small = a->n < b->n ? a->n : b->n;
	return small && specific && 2 * shared >= small;
}

/* Does a clause that tells `want` say much more than it ("I boiled a
 * potato by filling a pot with water and putting it on the stove")? */
static int detailed(const clause *want, const clauses *a)
{
	for (size_t i = 0; i < a->n; i++) {
		if (!agree(want, &a->c[i]))
			continue;
		size_t more = 0;
		for (size_t k = 0; k < a->c[i].n; k++) {
			size_t j = 0;
			while (j < want->n && strcmp(want->w[j], a->c[i].w[k]))
				j++;
			more += j == want->n;
		}
		if (more >= 3)
			return 1;
	}
	return 0;
}

int jd_grade_free(jd_work *w)
{
	clauses *t = &w->c1, *a = &w->c2;
	split(t, &w->t);
	split(a, &w->a);
	dedupe(t);
	if (!a->n) {
		snprintf(w->why, sizeof w->why, "free text: the answer says nothing");
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	}
	if (!t->n) {
		snprintf(w->why, sizeof w->why, "free text: the truth says nothing");
		return J_WRONG;
	}
	size_t hit = 0, extra = 0, summing = 0;
	for (size_t j = 0; j < t->n; j++)
		for (size_t i = 0; i < a->n; i++)
			if (agree(&t->c[j], &a->c[i])) {
				hit++;
				break;
			}
	for (size_t i = 0; i < a->n; i++) {
		int in = 0;
		for (size_t j = 0; j < t->n && !in; j++)
			in = agree(&t->c[j], &a->c[i]);
		summing += !in && a->c[i].sum;
		extra += !in && !a->c[i].sum;
	}
	int summarized = summing || jd_summarizes(&w->a);
	snprintf(w->why, sizeof w->why, "free text: %zu of %zu clauses matched, %zu other%s", hit,
	         t->n, extra, summarized ? ", sums up" : "");
	if (!hit)
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	if (t->n == 1) /* one task, told with its details */
		return extra || detailed(&t->c[0], a) ? J_CORRECT_TMI : J_CORRECT;
	if (hit == t->n)
		return extra ? J_PARTIAL_TMI : J_CORRECT;
	/* clauses are matched loosely: an unmatched one may be a paraphrase,
	 * so only an answer mostly about other things is wrong */
	if (extra > hit)
		return J_WRONG;
	return summarized && 2 * hit >= t->n ? J_CORRECT_SUMMARIZED : J_PARTIAL_MISSING;
}
