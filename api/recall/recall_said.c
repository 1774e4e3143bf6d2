/*
 * recall_said.c — what was said (recall_internal.h): the words a question
 * about words asks for, in order, and the words said most often.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/tree/facts.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

/* "What did you keep saying over and over": the words said most often
 * among all that matched (the same words said again merge into one fact
 * with a count), the latest of equals. */
static int answer_repeated(rctx *x, pr_str *b, h2emv_answer *a)
{
	const cand *best = NULL;
	uint64_t most = 0;
	int64_t last = 0;
	size_t n = x->n < 512 ? x->n : 512; /* (the same words in many goals: summed) */
	for (size_t i = 0; i < n; i++) {
		const fact *f = x->c[i].f;
		if (f->type != FT_SPEECH || !f->s[FS_TEXT] || x->c[i].coarse == 1)
			continue;
		uint64_t times = 0;
		int64_t t1 = 0;
		for (size_t j = 0; j < n; j++) {
			const fact *g = x->c[j].f;
			if (g->type == FT_SPEECH && g->s[FS_TEXT] && x->c[j].coarse != 1 &&
			    !strcmp(g->s[FS_TEXT], f->s[FS_TEXT]) &&
			    (!g->s[FS_NAME] == !f->s[FS_NAME]) &&
			    (!g->s[FS_NAME] || !strcmp(g->s[FS_NAME], f->s[FS_NAME]))) {
				times += g->count;
				if (g->t1 > t1)
					t1 = g->t1;
			}
		}
		if (!best || times > most || (times == most && t1 > last))
			best = &x->c[i], most = times, last = t1;
	}
	if (!best || most < 2)
		return 0;
	char dt[40];
	const fact *f = best->f;
	if (best->me || !f->s[FS_NAME] || profile_is_self(x->prof, f->s[FS_NAME]))
		pr_str_addf(b, "I said \"%s\" %llu times", f->s[FS_TEXT], (unsigned long long)most);
	else
		pr_str_addf(b, "%s said \"%s\" %llu times", f->s[FS_NAME], f->s[FS_TEXT],
		            (unsigned long long)most);
	pr_str_addf(b, " (the last at %s).", fmt_dt(dt, sizeof dt, last));
	add_evidence(a, best->ref);
	return 1;
}

/* What was said, in order. */
void answer_said(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	if (!c)
		return;
	if (q->repeated && answer_repeated(x, b, a))
		return;
	/* within a day or part of one, what was said there (up to three
	 * utterances, in order); else the one the order picks */
	size_t first = 0, n = 1;
	/* and with no order asked, all that match as well (up to three):
	 * "what did Marta say about order 5541" may be two things */
	/* ("what did the commander want": the request that opened the span,
	 * and what followed it) */
	if (q->order == RO_FIRST && !q->order_said && k > 1 && !q->self_speaker) {
		n = k < 3 ? k : 3;
	} else if (((q->t1 && q->order == RO_LAST) || !q->order_said) && k > 1 && !q->self_speaker) {
		n = k < 3 ? k : 3;
		first = k - n;
	} else {
		first = (size_t)(c - x->c);
	}
	for (size_t i = first; i < first + n; i++) {
		const fact *f = x->c[i].f;
		int again = 0; /* the same words said again: once */
		for (size_t j = first; j < i && !again; j++)
			again = x->c[j].f->s[FS_TEXT] && f->s[FS_TEXT] &&
			        !strcmp(x->c[j].f->s[FS_TEXT], f->s[FS_TEXT]);
		if (again)
			continue;
		if (i > first)
			pr_str_adds(b, " ");
		if (f->type == FT_SPEECH && f->s[FS_NAME] && !profile_is_self(x->prof, f->s[FS_NAME]) &&
		    !x->c[i].me)
			pr_str_addf(b, "%s said: \"%s\"", f->s[FS_NAME], f->s[FS_TEXT]);
		else if (f->type == FT_SPEECH && !f->s[FS_NAME])
			pr_str_addf(b, "I heard: \"%s\"", f->s[FS_TEXT]);
		else
			pr_str_addf(b, "I said: \"%s\"", f->s[FS_TEXT]);
		pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, n > 1 ? f->t1 : when_of(x, f)));
		add_evidence(a, x->c[i].ref);
	}
}
