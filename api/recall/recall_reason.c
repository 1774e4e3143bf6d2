/*
 * recall_reason.c — why a run failed, when the run itself does not say:
 * the note or the words logged on the same line as the failure ("FDIR:
 * fan 2 impeller stalled", "I can't open hab locker 4: its latch won't
 * release"), added to the answer to a "why" or "what went wrong".
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

/* Was g logged with the run f (its last occurrence's line, or during
 * it)? */
static int same_line(const fact *g, const fact *f)
{
	int64_t end = f->t2 > f->t1 ? f->t2 : f->t1;
	return g->t0 >= f->t1 && g->t0 <= end;
}

static int failed_run(const cand *c)
{
	return is_act(c->f) && !c->coarse &&
	       (c->f->status == FST_FAILED || c->f->status == FST_ABORTED);
}

/* A note without its tag ("FAIL: fluid low" is "fluid low"). */
static const char *untagged(const char *t)
{
	if (!strncasecmp(t, "reason=", 7) || !strncasecmp(t, "reason: ", 8))
		return t + (t[6] == '=' ? 7 : 8); /* "reason=halligan bar missing" */
	const char *c = strchr(t, ':');
	if (!c || c - t > 8 || c[1] != ' ')
		return t;
	for (const char *p = t; p < c; p++)
		if (!(*p >= 'A' && *p <= 'Z'))
			return t;
	return c + 2;
}

void add_told_reason(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	/* the failure the answer tells: the one picked, else the newest
	 * (first, as asked) failure among the candidates */
	if (c && !failed_run(c))
		c = NULL;
	for (size_t i = 0; !c && i < k; i++)
		if (failed_run(&x->c[i]))
			c = &x->c[i];
	for (size_t i = 0; c && i < k; i++)
		if (failed_run(&x->c[i]) && (x->q->order == RO_FIRST ? x->c[i].f->t1 < c->f->t1
		                                                      : x->c[i].f->t1 > c->f->t1))
			c = &x->c[i];
	const fact *f = c ? c->f : NULL;
	if (!f)
		return;
	for (size_t s = 0; s < x->n_sets; s++) {
		const facts *set = x->sets[s];
		for (size_t i = 0; set && i < set->n; i++) {
			const fact *g = &set->v[i];
			if ((g->type != FT_NOTE && g->type != FT_SPEECH) || !g->s[FS_TEXT] ||
			    !same_line(g, f) || (b->s && strstr(b->s, untagged(g->s[FS_TEXT]))))
				continue;
			pr_str_addf(b, " %s: \"%s\"", g->type == FT_NOTE ? "I noted" : "It was said",
			            g->s[FS_TEXT]);
			add_evidence(a, c->ref);
			return;
		}
	}
}
