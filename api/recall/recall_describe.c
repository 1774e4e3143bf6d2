/*
 * recall_describe.c — "what did you do last week", "describe what you did
 * each day": a span of several days told day by day, each day's most
 * telling activities said in words ("received object from human 5 times,
 * brought the milk from the sideboard to the home"), not as skill names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/base/lex.h"
#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/tree/gist.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

enum { DAYS = 8, PER_DAY = 5, DAY_MAX = 64, PHRASE_MAX = 160 };

/* One activity of a day: its words, how often, where it first came. */
typedef struct activity {
	char s[PHRASE_MAX];
	uint32_t n;
	size_t first;
	int weight; /* 0: looking, waiting, talking, going home; 1: the rest */
} activity;

/* Is the verb class one of a day's background motions? */
static int background(int cls)
{
	return cls == LC_LOOK || cls == LC_WAIT || cls == LC_SAY || cls == LC_HOME ||
	       cls == LC_WAVE || cls == LC_SEE;
}

/* f said in words, into out; 0 when it says nothing. An action that
 * handled something is its name's verb with what it handled ("picked up
 * the tomato", "brought the milk from the sideboard"); anything else its
 * name in words ("received object from human"). */
static int phrase_of(char *out, size_t cap, const fact *f, int *weight)
{
	out[0] = 0;
	int cls = f->cls;
	const char *name = f->s[FS_NAME];
	int args = f->type == FT_ACT &&
	           (f->s[FS_OBJ] || f->s[FS_SRC] || f->s[FS_DST] || f->s[FS_WHO]);
	/* the name's own verb ("handed over" for the lemma give) when it is
	 * the verb the fact was read with; else the fact's lemma */
	char verb[96] = "";
	lex_word w[1];
	int c0 = LC_NONE;
	const char *lemma = NULL;
	if (name && f->s[FS_VERB] && lex_split(name, strlen(name), w, 1))
		lemma = lex_lemma(w[0].stem, &c0);
	if (lemma && !strncmp(f->s[FS_VERB], lemma, strlen(lemma)))
		lex_skill_verb(verb, sizeof verb, name);
	if (args && (verb[0] || (f->s[FS_VERB] && *f->s[FS_VERB]))) {
		eng_buf b = { 0 };
		if (gist_clause(&b, f, 1, verb[0] ? verb : NULL) == 0 && b.len)
			snprintf(out, cap, "%.*s", (int)b.len, (const char *)b.data);
		eng_buf_free(&b);
	} else if (name) {
		lex_skill_words(out, cap, name);
		if (lex_split(name, strlen(name), w, 1))
			lex_lemma(w[0].stem, &cls);
	}
	*weight = !background(cls);
	return out[0] != 0;
}

static int by_weight(const void *pa, const void *pb)
{
	const activity *a = pa, *b = pb;
	if (a->weight != b->weight)
		return b->weight - a->weight;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

static int by_first(const void *pa, const void *pb)
{
	const activity *a = pa, *b = pb;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Say one day's activities v[0..n): the most telling first chosen, then
 * written in the order they first came. */
static void say_day(rctx *x, pr_str *b, h2emv_answer *a, const char *day, int64_t t,
                    activity *v, size_t n, size_t more)
{
	qsort(v, n, sizeof *v, by_weight);
	size_t k = n < PER_DAY ? n : PER_DAY;
	more += n - k;
	qsort(v, k, sizeof *v, by_first);
	pr_str_addf(b, "On %s (%s): ", day, weekday_name(t));
	for (size_t i = 0; i < k; i++) {
		pr_str_addf(b, "%s%s", i ? ", " : "", v[i].s);
		if (v[i].n == 2)
			pr_str_adds(b, " twice");
		else if (v[i].n > 2)
			pr_str_addf(b, " %u times", v[i].n);
		add_evidence(a, x->c[v[i].first].ref);
	}
	pr_str_adds(b, more ? " and more" : "");
}

/* Add f (candidate i) to the day's activities. */
static void add_activity(activity *v, size_t *n, size_t *more, const fact *f, size_t i)
{
	char s[PHRASE_MAX];
	int weight;
	if (!phrase_of(s, sizeof s, f, &weight))
		return;
	uint32_t c = f->count ? f->count : 1;
	for (size_t j = 0; j < *n; j++)
		if (!strcmp(v[j].s, s)) {
			v[j].n += c;
			return;
		}
	if (*n == DAY_MAX) {
		(*more)++;
		return;
	}
	v[*n] = (activity){ .n = c, .first = i, .weight = weight };
	snprintf(v[*n].s, sizeof v[*n].s, "%s", s);
	(*n)++;
}

int do_by_day(rctx *x, pr_str *b, h2emv_answer *a, size_t k, int by_task, int acts)
{
	char day[40], last[40] = "";
	size_t nd = 0;
	const int64_t z = x->q->zone; /* the robot's own days */
	for (size_t i = 0; i < k; i++) {
		emv_fmt_date(day, sizeof day, x->c[i].f->t0 + z);
		if (strcmp(day, last))
			nd++, snprintf(last, sizeof last, "%s", day);
	}
	if (nd < 2 && !x->q->by_day)
		return 0;
	activity *v = malloc(DAY_MAX * sizeof *v);
	if (!v)
		return 0;
	/* the newest days when there are more than a list shows */
	size_t skip = nd > DAYS ? nd - DAYS : 0, di = 0, n = 0, more = 0, said = 0;
	int64_t t_day = 0;
	last[0] = 0;
	if (skip)
		pr_str_addf(b, "(%zu earlier days not listed) ", skip);
	for (size_t i = 0; i <= k; i++) {
		const fact *f = i < k ? x->c[i].f : NULL;
		if (f)
			emv_fmt_date(day, sizeof day, f->t0 + z);
		if (!f || strcmp(day, last)) {
			if (di > skip && n) {
				pr_str_adds(b, said++ ? "; " : "");
				say_day(x, b, a, last, t_day, v, n, more);
			}
			if (!f)
				break;
			di++;
			snprintf(last, sizeof last, "%s", day);
			t_day = f->t0 + z;
			n = more = 0;
		}
		if (di <= skip)
			continue;
		if (by_task ? f->type != FT_TASK : f->type != FT_ACT && !(f->type == FT_TASK && !acts))
			continue;
		add_activity(v, &n, &more, f, i);
	}
	if (said)
		pr_str_adds(b, ".");
	free(v);
	return 1;
}

/* ------------------------------------------------------------ habits -- */

static int by_count(const void *pa, const void *pb)
{
	const activity *a = pa, *b = pb;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* "What was your busiest day": the robot's local day with the most done
 * (each run counted as often as it ran), with the next busiest. */
int busiest_day(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	activity *v = calloc(DAY_MAX, sizeof *v);
	if (!v)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		if (f->type != FT_ACT)
			continue;
		char day[40];
		emv_fmt_date(day, sizeof day, f->t0 + x->q->zone);
		size_t j = 0;
		while (j < n && strcmp(v[j].s, day))
			j++;
		if (j == n && n == DAY_MAX)
			continue;
		if (j == n) {
			snprintf(v[n].s, sizeof v[n].s, "%s", day);
			v[n++].first = i;
		}
		v[j].n += f->count ? f->count : 1;
	}
	if (!n) {
		free(v);
		return 0;
	}
	qsort(v, n, sizeof *v, by_count);
	pr_str_addf(b, "On %s (%s): %u things done, more than on any other day", v[0].s,
	            weekday_name(x->c[v[0].first].f->t0 + x->q->zone), v[0].n);
	if (n > 1)
		pr_str_addf(b, " (next: %s, %u)", v[1].s, v[1].n);
	pr_str_adds(b, ".");
	add_evidence(a, x->c[v[0].first].ref);
	free(v);
	return 1;
}

/* "What do you usually do in the afternoon": what was done most often
 * over every day (within the hours asked), in words, with how often. */
int usual_activities(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const rquestion *q = x->q;
	activity *v = malloc(DAY_MAX * sizeof *v);
	if (!v)
		return 0;
	size_t n = 0, more = 0, days = 0;
	char last[40] = "", day[40];
	/* a robot that logs its skills as tasks (ARMAR-7's WhatCanYouSeeNow
	 * over its Say and LookAt steps): the tasks are what it does */
	int type = FT_ACT;
	for (size_t i = 0; i < k && type == FT_ACT; i++)
		if (x->c[i].f->type == FT_TASK)
			type = FT_TASK;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		int64_t t = f->t0 + q->zone;
		int hour = (int)(((t / 1000000) % 86400 + 86400) % 86400 / 3600);
		if ((int)f->type != type || (q->hour0 >= 0 && (hour < q->hour0 || hour >= q->hour1)))
			continue;
		emv_fmt_date(day, sizeof day, t);
		if (strcmp(day, last))
			days++, snprintf(last, sizeof last, "%s", day);
		add_activity(v, &n, &more, f, i);
	}
	if (!n) {
		free(v);
		if (q->hour0 < 0)
			return 0;
		pr_str_addf(b, "Nothing: I remember nothing done between %02d:00 and %02d:00 on any day.",
		            q->hour0, q->hour1 % 24);
		return 1;
	}
	qsort(v, n, sizeof *v, by_count);
	size_t shown = n < 3 ? n : 3;
	pr_str_addf(b, "Most often%s: ", q->hour0 < 0 ? "" : q->hour0 < 12 ? " in the morning"
	                                : q->hour0 < 17 ? " in the afternoon" : " in the evening");
	for (size_t i = 0; i < shown; i++) {
		pr_str_addf(b, "%s%s (%u time%s)", i ? ", " : "", v[i].s, v[i].n, v[i].n == 1 ? "" : "s");
		add_evidence(a, x->c[v[i].first].ref);
	}
	pr_str_addf(b, ", over %zu day%s.", days, days == 1 ? "" : "s");
	free(v);
	return 1;
}
