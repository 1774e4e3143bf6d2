/*
 * recall_from.c — where a thing came from when the take that got it names
 * no source (TEACh's Pickup(Lettuce_1)): the container opened just before
 * it, not closed again, with nothing else taken out of it first.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

/* "Where did you get the lettuce": a take that names no source came out
 * of the container opened just before it and not closed since (Open
 * Fridge, Pickup Lettuce, Close Fridge); NULL none. */
static const fact *opened_before(const rctx *x, const fact *take)
{
	const int64_t window = 180 * 1000000LL;
	const fact *open = NULL;
	for (size_t s = 0; s < x->n_sets; s++)
		for (size_t i = 0; x->sets[s] && i < x->sets[s]->n; i++) {
			const fact *g = &x->sets[s]->v[i];
			if (is_act(g) && g->cls == LC_OPEN && g->s[FS_OBJ] && g->status != FST_FAILED &&
			    g->t1 <= take->t1 && g->t1 + window >= take->t1 &&
			    (!open || g->t1 > open->t1))
				open = g;
		}
	/* closed again, or something else taken out first: not this one's */
	for (size_t s = 0; open && s < x->n_sets; s++)
		for (size_t i = 0; x->sets[s] && i < x->sets[s]->n; i++) {
			const fact *g = &x->sets[s]->v[i];
			if (is_act(g) && g->t1 > open->t1 && g->t1 < take->t1 &&
			    ((g->cls == LC_CLOSE && g->s[FS_OBJ] && !strcmp(g->s[FS_OBJ], open->s[FS_OBJ])) ||
			     (g->cls == LC_TAKE && g->status != FST_FAILED && g != take)))
				return NULL;
		}
	return open;
}

/* "Where did you get the lettuce", asked of takes that name no source:
 * the container opened just before the newest (first) of them. The
 * actions of the minutes before are read for it (a side walk: the
 * candidates are replaced). 1 when it answered. */
int from_opened(rctx *x, pr_str *b, h2emv_answer *a, size_t k, int have_source)
{
	const rquestion *q = x->q;
	int from = q->kind == RQ_FROM ||
	           (q->kind == RQ_WHERE && q->verb >= 0 && q->term[q->verb].cls == LC_TAKE);
	enum { MAXT = 16 };
	const fact *take[MAXT];
	h2emv_ref ref[MAXT];
	size_t nt = 0;
	int64_t lo = INT64_MAX, hi = 0;
	for (size_t i = 0; from && !have_source && i < k && nt < MAXT; i++) {
		const fact *f = x->c[i].f;
		if (!is_act(f) || f->cls != LC_TAKE || f->s[FS_SRC] || f->status == FST_FAILED)
			continue;
		take[nt] = f;
		ref[nt++] = x->c[i].ref;
		lo = f->t1 < lo ? f->t1 : lo;
		hi = f->t1 > hi ? f->t1 : hi;
	}
	if (!nt)
		return 0;
	rquestion w = *q;
	w.kind = RQ_DO;
	w.n_term = 0;
	w.verb = w.person = w.category = w.anchor = -1;
	w.status = RS_ANY;
	w.evidence = w.value = 0;
	w.t0 = lo - 180 * 1000000LL;
	w.t1 = hi + 1;
	int rc = collect(x, &w);
	x->q = q;
	if (rc)
		return 0;
	const fact *open = NULL, *t = NULL;
	h2emv_ref at = { 0 };
	for (size_t i = 0; i < nt; i++) {
		const fact *o = opened_before(x, take[i]);
		if (o && (!t || (q->order == RO_FIRST ? take[i]->t1 < t->t1 : take[i]->t1 > t->t1))) {
			open = o;
			t = take[i];
			at = ref[i];
		}
	}
	if (!open)
		return 0;
	char dt[40];
	pr_str_adds(b, "From the ");
	add_display(b, open->s[FS_OBJ]);
	pr_str_addf(b, " (opened at %s, then ", fmt_dt(dt, sizeof dt, open->t1));
	eng_buf r = { 0 };
	facts_render_one(&r, t);
	pr_str_addf(b, "%.*s at %s).", (int)r.len, r.data ? (const char *)r.data : "",
	            fmt_dt(dt, sizeof dt, t->t1));
	eng_buf_free(&r);
	add_evidence(a, at);
	return 1;
}
