/*
 * judge_grade.c — grading answers that name things: sets of objects,
 * steps or persons, one place or object, the first step, yes / no, and
 * free text compared clause by clause (the list rules of judge.h).
 */
#include <stdio.h>
#include <string.h>

#include "bench/eval/judge_int.h"

int jd_set_verdict(size_t n_truth, size_t hit, size_t extra, int summarized)
{
	if (!hit)
		return J_WRONG;
	if (hit >= n_truth)
		return extra ? J_PARTIAL_TMI : J_CORRECT;
	if (extra)
		return J_WRONG;
	return summarized && 2 * hit >= n_truth ? J_CORRECT_SUMMARIZED : J_PARTIAL_MISSING;
}

int jd_summarizes(const jd_text *a)
{
	static const char *const marks[] = { "various", "etc", "and more", "and other",
		"among other", "and so on", "such as", "including", "kitchenware", "utensils",
		"appliances", "and some other", "a few other", "several other", NULL };
	for (size_t i = 0; marks[i]; i++)
		if (jd_has_phrase(a->s, a->n, marks[i]))
			return 1;
	return 0;
}

static int time_word(const char *w)
{
	static const char *const list[] = { "january", "february", "march", "april", "june",
		"july", "august", "september", "october", "november", "december", "jan", "feb", "mar",
		"apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "monday", "tuesday",
		"wednesday", "thursday", "friday", "saturday", "sunday", "between", "noon", "midnight",
		"morning", "afternoon", "evening", "night", "hour", "hours", "minute", "minutes",
		"second", "seconds", "date", "clock", "happened", "occurred", "moment", "event", NULL };
	return jd_in(w, list);
}

size_t jd_extra_words(const jd_work *w)
{
	char seen[16][JD_WORD];
	size_t n = 0;
	for (size_t i = 0; i < w->a.nt && n < 16; i++) {
		const jd_tok *t = &w->a.t[i];
		if (t->num || jd_filler(t->w) || time_word(t->w) || strlen(t->w) < 3)
			continue;
		char s[JD_WORD];
		memcpy(s, t->w, JD_WORD);
		jd_stem(s);
		int dup = 0;
		for (size_t k = 0; k < w->q.nt && !dup; k++) {
			char q[JD_WORD];
			memcpy(q, w->q.t[k].w, JD_WORD);
			jd_stem(q);
			dup = !strcmp(q, s);
		}
		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp(seen[k], s);
		if (!dup)
			memcpy(seen[n++], s, JD_WORD);
	}
	return n;
}

/* Persons' names: runs of capitalised words that are not sentence words. */
static void find_names(jd_items *out, const jd_text *x)
{
	static const char *const not_names[] = { "i", "the", "on", "at", "in", "it", "he", "she",
		"they", "we", "you", "my", "a", "an", "when", "yes", "no", "this", "that", "there",
		"first", "last", "today", "yesterday", "what", "who", "after", "before", NULL };
	out->n = 0;
	char key[JD_KEY];
	size_t len = 0;
	for (size_t i = 0; i <= x->nt; i++) {
		int cap = i < x->nt && x->s[x->t[i].pos] >= 'A' && x->s[x->t[i].pos] <= 'Z' &&
		          !x->t[i].num && !jd_in(x->t[i].w, not_names) && !time_word(x->t[i].w);
		if (cap && (!len || !x->t[i].brk)) {
			size_t wl = strlen(x->t[i].w);
			if (len + wl < JD_KEY)
				memcpy(key + len, x->t[i].w, wl), len += wl;
			continue;
		}
		if (len) {
			key[len] = '\0';
			jd_items_add(out, key);
			len = 0;
		}
		if (cap) /* a name right after punctuation starts anew */
			i--;
	}
}

/* Same person: one name is the start or the end of the other. */
static int name_eq(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	if (na > nb) {
		const char *t = a;
		a = b, b = t;
		size_t tn = na;
		na = nb, nb = tn;
	}
	return na >= 3 && (!memcmp(a, b, na) || !memcmp(a, b + nb - na, na));
}

static void mark_asked(jd_items *l, const jd_items *asked)
{
	for (size_t i = 0; i < l->n; i++)
		l->v[i].asked = jd_items_find(asked, l->v[i].key) >= 0;
}

int jd_grade_objects(jd_work *w, int kind)
{
	jd_items *t = &w->i1, *a = &w->i2;
	if (kind == JK_PERSON) {
		find_names(t, &w->t);
		if (!t->n)
			jd_truth_items(t, &w->t);
		find_names(a, &w->a);
	} else {
		jd_truth_items(t, &w->t);
		jd_find_items(a, &w->a, t, 1);
	}
	mark_asked(a, &w->asked);
	size_t hit = 0, extra = 0, named = 0;
	for (size_t i = 0; i < a->n; i++) {
		const jd_item *it = &a->v[i];
		int in = 0;
		for (size_t j = 0; j < t->n && !in; j++)
			in = kind == JK_PERSON ? name_eq(it->key, t->v[j].key) : !strcmp(it->key, t->v[j].key);
		if (!in && (it->room || it->asked))
			continue; /* the room around, or the thing the question is about */
		if (w->refusal && (it->asked || !it->known))
			continue; /* "I don't remember what I saw when I picked up the spoon" */
		named++;
		extra += !in;
	}
	for (size_t j = 0; j < t->n; j++) {
		int in = 0;
		for (size_t i = 0; i < a->n && !in; i++)
			in = kind == JK_PERSON ? name_eq(a->v[i].key, t->v[j].key) :
			                         !strcmp(a->v[i].key, t->v[j].key);
		hit += in;
	}
	if (!named) {
		snprintf(w->why, sizeof w->why, "%s: the answer names none", kind == JK_PERSON ?
		         "persons" : "objects");
		return w->refusal || !a->n ? (w->refusal ? J_NO_ANSWER : J_WRONG) : J_WRONG;
	}
	int fine = jd_set_verdict(t->n, hit, extra, jd_summarizes(&w->a));
	jd_find_whens(&w->w2, w->a.s, w->a.n, w->c->asked_at, 0);
	if (fine == J_CORRECT && w->w2.n)
		fine = J_CORRECT_TMI;
	snprintf(w->why, sizeof w->why, "%s: %zu of %zu named, %zu not in the truth",
	         kind == JK_PERSON ? "persons" : "objects", hit, t->n, extra);
	return fine;
}

/* "bread" for "bread slice": the same thing, less specific. */
static int same_base(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	return na + 5 == nb && !memcmp(a, b, na) && !strcmp(b + na, "slice");
}

int jd_grade_single(jd_work *w, int kind)
{
	jd_items *t = &w->i1, *a = &w->i2;
	jd_truth_items(t, &w->t);
	if (!t->n) {
		snprintf(w->why, sizeof w->why, "the truth names nothing");
		return J_WRONG;
	}
	const char *want = t->v[0].key;
	jd_find_items(a, &w->a, t, w->a.nt <= 6);
	mark_asked(a, &w->asked);
	int found = 0, rivals = 0, context = 0, less = 0, more = 0, named = 0;
	for (size_t i = 0; i < a->n; i++) {
		const jd_item *it = &a->v[i];
		if (!strcmp(it->key, want)) {
			found = named = 1;
			continue;
		}
		if (it->asked || (w->refusal && !it->known))
			continue;
		named = 1;
		less |= same_base(it->key, want);
		more |= same_base(want, it->key);
		if (it->room || (kind == JK_PLACE ? it->ctx == JD_CTX_NEAR : it->ctx != JD_CTX_NONE))
			context = 1;
		else
			rivals++;
	}
	jd_find_whens(&w->w2, w->a.s, w->a.n, w->c->asked_at, 0);
	const char *what = kind == JK_PLACE ? "place" : "object";
	if (found) {
		snprintf(w->why, sizeof w->why, "%s: right%s%s", what,
		         rivals ? ", among other candidates" : "",
		         !rivals && (context || w->w2.n) ? ", with more details" : "");
		return rivals ? J_PARTIAL_TMI : context || w->w2.n ? J_CORRECT_TMI : J_CORRECT;
	}
	if (!named) {
		snprintf(w->why, sizeof w->why, "%s: the answer names none", what);
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	}
	if (less || more) {
		snprintf(w->why, sizeof w->why, "%s: the same thing, %s specific", what,
		         less ? "less" : "more");
		return less ? J_PARTIAL_MISSING : J_PARTIAL_TMI;
	}
	snprintf(w->why, sizeof w->why, "%s: another one (%zu named)", what, a->n);
	return J_WRONG;
}

/* ---------------------------------------------------------------- steps -- */

static void steps_vocab(jd_items *vocab, const jd_steps *s)
{
	vocab->n = 0;
	for (size_t i = 0; i < s->n; i++) {
		int k = jd_items_add(vocab, s->v[i].obj);
		if (k >= 0)
			vocab->v[k].known = 1;
		if (s->v[i].place[0] && (k = jd_items_add(vocab, s->v[i].place)) >= 0)
			vocab->v[k].known = 1;
	}
}

int jd_grade_steps(jd_work *w, int first)
{
	jd_steps *ts = &w->s1, *as = &w->s2;
	jd_find_steps(ts, &w->t, NULL);
	if (!ts->n)
		return jd_grade_free(w);
	steps_vocab(&w->i3, ts);
	jd_find_steps(as, &w->a, &w->i3);
	size_t chunks = 1;
	for (size_t i = 1; i < w->a.nt; i++)
		chunks += w->a.t[i].brk;
	if (!first && ts->n >= 2 && 2 * as->n < chunks)
		return jd_grade_free(w); /* told in prose, not as steps */
	if (!as->n) {
		snprintf(w->why, sizeof w->why, "steps: the answer names none");
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	}
	if (first) {
		const jd_step *want = &ts->v[0];
		if (jd_step_eq(&as->v[0], want)) {
			size_t others = 0;
			for (size_t i = 1; i < as->n; i++)
				others += !jd_step_eq(&as->v[i], want);
			snprintf(w->why, sizeof w->why, "first step: right%s", others ?
			         ", with the steps after it" : "");
			return others ? J_CORRECT_TMI : J_CORRECT;
		}
		for (size_t i = 1; i < as->n; i++)
			if (jd_step_eq(&as->v[i], want)) {
				snprintf(w->why, sizeof w->why, "first step: named, but not first");
				return J_PARTIAL_TMI;
			}
		snprintf(w->why, sizeof w->why, "first step: another one (%s %s)", as->v[0].verb,
		         as->v[0].obj);
		return J_WRONG;
	}
	size_t n_truth = 0, hit = 0, extra = 0;
	for (size_t j = 0; j < ts->n; j++) {
		int dup = 0, in = 0;
		for (size_t k = 0; k < j && !dup; k++)
			dup = jd_step_eq(&ts->v[k], &ts->v[j]);
		if (dup)
			continue;
		n_truth++;
		for (size_t i = 0; i < as->n && !in; i++)
			in = jd_step_eq(&as->v[i], &ts->v[j]);
		hit += in;
	}
	for (size_t i = 0; i < as->n; i++) {
		int dup = 0, in = 0;
		for (size_t k = 0; k < i && !dup; k++)
			dup = jd_step_eq(&as->v[k], &as->v[i]);
		for (size_t j = 0; j < ts->n && !in; j++)
			in = jd_step_eq(&as->v[i], &ts->v[j]);
		extra += !dup && !in;
	}
	snprintf(w->why, sizeof w->why, "steps: %zu of %zu named, %zu not in the truth", hit,
	         n_truth, extra);
	return jd_set_verdict(n_truth, hit, extra, jd_summarizes(&w->a));
}

/* -------------------------------------------------------------- yes / no -- */

static int polarity(const jd_text *x)
{
	static const char *const yes[] = { "yes", "yeah", "yep", "true", "correct", "indeed",
		"affirmative", NULL };
	static const char *const no[] = { "no", "not", "never", "didnt", "wasnt", "werent",
		"nope", "none", "false", "nothing", "neither", "nor", NULL };
	for (size_t i = 0; i < x->nt; i++) {
		if (jd_in(x->t[i].w, yes))
			return 1;
		if (jd_in(x->t[i].w, no))
			return 2;
	}
	return x->nt ? 1 : 0; /* "There was a plate." */
}

int jd_grade_yesno(jd_work *w)
{
	static const char *const yn[] = { "yes", "no", NULL };
	int want = polarity(&w->t), got = polarity(&w->a);
	if (w->refusal && !(w->a.nt && jd_in(w->a.t[0].w, yn))) {
		snprintf(w->why, sizeof w->why, "yes/no: the answer does not know");
		return J_NO_ANSWER;
	}
	snprintf(w->why, sizeof w->why, "yes/no: %s, truth %s", got == 1 ? "yes" : "no",
	         want == 1 ? "yes" : "no");
	return got && got == want ? J_CORRECT : J_WRONG;
}
