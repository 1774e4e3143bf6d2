/*
 * recall_anchor.c — questions anchored on a moment or a span
 * (recall_internal.h): what was seen or done during another thing, what
 * happened around a moment, the question relaxed when nothing matched, and
 * a failure after a request.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "api/tree/scene.h"
#include "api/base/utf8.h"
#include "api/recall/recall_internal.h"

/* "What did you see when you scanned room 7": find the scan, then ask
 * what was seen during it (q's scope becomes the scan's span). */
int seen_during(rctx *x, rquestion *q)
{
	if (q->kind != RQ_SEEN)
		return H2EMV_OK;
	int anchor = -1;
	for (size_t i = 0; i < q->n_term && anchor < 0; i++)
		if (q->term[i].lemma && !q->term[i].cap && q->term[i].cls != LC_SEE)
			anchor = (int)i;
	if (anchor < 0)
		return H2EMV_OK;
	rquestion a = *q;
	a.kind = RQ_WHEN;
	a.verb = anchor;
	/* "what animals did you see on your patrol": the patrol is the
	 * moment; the animals are what was seen, no word of it (feedAnimals) */
	int asked = a.key >= 0 ? a.key : a.category;
	if (asked >= 0 && asked != a.verb && a.n_term > 1)
		drop_term(&a, (size_t)asked);
	const cand *c;
	int rc = pick_for(&c, x, &a, q);
	if (rc)
		return rc;
	if (!c)
		return H2EMV_OK;
	rctx tmp = *x; /* times as the stand-in question reads them */
	tmp.q = &a;
	int64_t t0 = when_of(&tmp, c->f), t1 = c->f->t2 > t0 ? c->f->t2 : t0;
	/* the run the order picks saw nothing (a glance at an empty wall): the
	 * one before it (or after, for "the first time") that did */
	enum { TRY = 24 };
	int64_t w0[TRY], w1[TRY];
	size_t nw = 0;
	/* every run that matched as many words as the best, by time */
	int most = 0;
	for (size_t j = 0; j < x->n; j++)
		if (x->c[j].hits > most)
			most = x->c[j].hits;
	size_t m = 0;
	for (size_t j = 0; j < x->n; j++)
		if (x->c[j].hits == most && !x->c[j].coarse) {
			cand t = x->c[m];
			x->c[m++] = x->c[j];
			x->c[j] = t;
		}
	qsort(x->c, m, sizeof *x->c, cmp_time_asc);
	for (size_t j = 0; j < m && nw < TRY; j++) {
		const cand *cj = &x->c[a.order == RO_FIRST ? j : m - 1 - j];
		int again = 0; /* the same run, read from two nodes (or its
		                * reports and its end): one window to its end */
		for (size_t i = 0; i < nw; i++)
			if (w0[i] == when_of(&tmp, cj->f)) {
				again = 1;
				if (cj->f->t2 > w1[i])
					w1[i] = cj->f->t2;
			}
		if (again)
			continue;
		w0[nw] = when_of(&tmp, cj->f);
		w1[nw] = cj->f->t2 > w0[nw] ? cj->f->t2 : w0[nw];
		nw++;
		/* a fact that merged several runs: all of them */
		if (cj->f->count > 1 && nw < TRY && cj->f->t0 < w0[nw - 1]) {
			w0[nw] = cj->f->t0;
			w1[nw] = w1[nw - 1];
			nw++;
		}
	}
	rquestion look = *q;
	look.n_term = 0;
	look.verb = look.person = -1;
	for (size_t j = 0; j < nw && a.order != RO_NTH; j++) {
		look.t0 = w0[j] - 5 * 1000000LL;
		look.t1 = w1[j] + 60 * 1000000LL;
		if ((rc = collect(x, &look)))
			return rc;
		if (x->want_trace) {
			char d0[40], d1[40];
			pr_str_addf(&x->trace, "  seen between %s and %s: %zu\n",
			            emv_fmt_datetime(d0, sizeof d0, look.t0),
			            emv_fmt_datetime(d1, sizeof d1, look.t1), x->n);
		}
		if (x->n) {
			t0 = w0[j], t1 = w1[j];
			break;
		}
	}
	x->q = q;
	if (x->want_trace) {
		char d[40];
		pr_str_addf(&x->trace, "what was seen during the matching action at %s\n",
		            emv_fmt_datetime(d, sizeof d, t0));
	}
	q->t0 = t0 - 5 * 1000000LL;
	q->t1 = t1 + 60 * 1000000LL;
	q->n_term = 0;
	q->verb = q->person = -1;
	x->n = 0;
	return H2EMV_OK;
}

/* "What was the first step of the task X": find the task's occurrence,
 * then read the actions inside its span. */
int steps_during(rctx *x, rquestion *q)
{
	if (q->kind != RQ_STEPS || !q->n_term)
		return H2EMV_OK;
	rquestion a = *q;
	a.kind = RQ_WHEN;
	int rc = collect(x, &a);
	x->q = q;
	if (rc)
		return rc;
	/* a task that names the words beats an action that does */
	int tasks = 0;
	for (size_t i = 0; i < x->n; i++)
		tasks |= x->c[i].f->type == FT_TASK;
	size_t j = 0;
	for (size_t i = 0; i < x->n; i++)
		if (!tasks || x->c[i].f->type == FT_TASK)
			x->c[j++] = x->c[i];
	x->n = j;
	size_t k = shortlist(x, 1);
	rctx tmp = *x;
	tmp.q = &a;
	const cand *c = pick(&tmp, k);
	if (!c) {
		x->n = 0;
		return H2EMV_OK;
	}
	/* the occurrence: from its start to the next start, or its end */
	int64_t t0 = when_of(&tmp, c->f);
	int64_t t1 = a.order == RO_FIRST && c->f->count > 1 && c->f->t1 > t0 ? c->f->t1 : c->f->t2;
	if (t1 <= t0)
		t1 = t0 + 1;
	q->t0 = t0;
	q->t1 = t1;
	q->n_term = 0;
	q->verb = q->person = -1;
	x->n = 0;
	return H2EMV_OK;
}

/* --------------------------------------------------------------- entry -- */

/* Remove term i from q, keeping the indices of its verb, person and
 * category right. */
void drop_term(rquestion *q, size_t i)
{
	memmove(&q->term[i], &q->term[i + 1], (q->n_term - i - 1) * sizeof *q->term);
	q->n_term--;
	int *idx[] = { &q->verb, &q->person, &q->category, &q->key };
	for (size_t j = 0; j < sizeof idx / sizeof *idx; j++) {
		if (*idx[j] == (int)i)
			*idx[j] = -1;
		else if (*idx[j] > (int)i)
			(*idx[j])--;
	}
}

/* "What did you do after the photo": find the moment the words after
 * "after" (or "before") name, as a when-question would, then ask the rest
 * within the three hours after (before) it, the earliest (latest) first. */
int around_moment(rctx *x, rquestion *q)
{
	const int64_t SPAN = 3 * 3600LL * 1000000;
	const int64_t REPLY_SPAN = 5 * 60LL * 1000000;
	rquestion a = *q;
	a.kind = RQ_WHEN;
	a.anchor = -1;
	a.n_term = 0;
	a.verb = a.person = a.category = a.key = -1;
	for (size_t i = (size_t)q->anchor; i < q->n_term; i++) {
		/* "when she asked where ...": the asking is the words themselves */
		if (q->anchor_reply && q->term[i].cls == LC_SAY)
			continue;
		a.term[a.n_term] = q->term[i];
		if (a.verb < 0 && q->term[i].lemma && !q->term[i].cap)
			a.verb = (int)a.n_term;
		if (a.person < 0 && q->term[i].cap && !q->term[i].lemma)
			a.person = (int)a.n_term;
		a.n_term++;
	}
	if (q->anchor_request) {
		/* the words someone asked the robot with */
		a.kind = RQ_SAID;
		a.self_speaker = 0;
		a.others_speak = 1;
		a.status = RS_ANY;
	}
	if (q->anchor_reply) {
		/* words someone else said; "what did you tell Lena when she
		 * asked": Lena said them */
		a.kind = RQ_SAID;
		a.self_speaker = 0;
		a.others_speak = 1;
		a.order = RO_LAST;
		if (a.person < 0 && q->person >= 0 && q->person < q->anchor &&
		    a.n_term < RQ_TERMS) {
			a.term[a.n_term] = q->term[q->person];
			a.person = (int)a.n_term++;
		}
	}
	if (!a.n_term)
		return H2EMV_OK;
	const cand *c;
	int rc = pick_for(&c, x, &a, q);
	if (rc)
		return rc;
	size_t had = x->n;
	x->n = 0;
	if (!c)
		return H2EMV_OK; /* no such moment: the question as it was */
	int64_t t = q->anchor_after ? (c->f->t2 > c->f->t1 ? c->f->t2 : c->f->t1) : c->f->t1;
	if (q->anchor_during) {
		/* the run's span (a fact that merged runs: its last run) */
		int64_t end = c->f->t2 > c->f->t1 ? c->f->t2 : c->f->t1;
		int64_t start = run_start(x, c->f, had);
		if (x->want_trace) {
			char d[40];
			pr_str_addf(&x->trace, "during the moment at %s\n",
			            emv_fmt_datetime(d, sizeof d, start));
		}
		q->n_term = (size_t)q->anchor;
		if (q->verb >= q->anchor)
			q->verb = -1;
		if (q->person >= q->anchor)
			q->person = -1;
		if (q->category >= q->anchor)
			q->category = -1;
		q->anchor = -1;
		q->anchor_during = 0;
		q->t0 = start;
		q->t1 = end + 1000000;
		q->order = RO_FIRST;
		if (q->kind == RQ_DO && !q->n_term)
			q->kind = RQ_STEPS; /* its steps, in order */
		return H2EMV_OK;
	}
	if (x->want_trace) {
		char d[40];
		pr_str_addf(&x->trace, "%s the moment at %s\n", q->anchor_after ? "after" : "before",
		            emv_fmt_datetime(d, sizeof d, t));
	}
	q->n_term = (size_t)q->anchor;
	if (q->verb >= q->anchor)
		q->verb = -1;
	if (q->person >= q->anchor)
		q->person = -1;
	if (q->category >= q->anchor)
		q->category = -1;
	q->anchor = -1;
	/* a reply comes within minutes; the robot's next words after that
	 * are about something else */
	int64_t span = q->anchor_reply ? REPLY_SPAN : SPAN;
	q->t0 = q->anchor_after ? t + 1 : t - span;
	q->t1 = q->anchor_after ? t + span : t;
	q->anchor_reply = 0;
	q->anchor_request = 0;
	q->order = q->anchor_after ? RO_FIRST : RO_LAST;
	return H2EMV_OK;
}

/* "What did you see on Thursday", and last Thursday holds nothing: the
 * Thursday before that, back up to eight weeks. */
int earlier_weekday(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	const int64_t WEEK = 7 * 86400LL * 1000000;
	rquestion orig = *q;
	for (int i = 1; i <= 8 && root; i++) {
		q->t0 = orig.t0 - i * WEEK;
		q->t1 = orig.t1 - i * WEEK;
		if (q->t_point)
			q->t_point = orig.t_point - i * WEEK;
		x->q = q;
		x->n = 0;
		x->cut = 0;
		x->settled = 0;
		int rc = seen_during(x, q);
		if (rc == H2EMV_OK)
			rc = walk(x, root, 0, err);
		if (rc)
			return rc;
		if (x->n || x->forgot) {
			if (x->want_trace)
				pr_str_addf(&x->trace, "nothing that day; %d week(s) earlier\n", i);
			return H2EMV_OK;
		}
	}
	*q = orig;
	x->q = q;
	return H2EMV_OK;
}

/* "What went wrong while you were making coffee": no task of the robot's
 * is called so, but someone asked for it ("can you make coffee?"); what
 * failed is what failed in the hours after the request. */
int failed_after_request(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	if (q->kind != RQ_FAILED || !content_terms(q) || q->anchor >= 0 || !root)
		return H2EMV_OK;
	rquestion orig = *q;
	q->anchor = 0;
	q->anchor_after = 1;
	q->anchor_request = 1;
	int rc = around_moment(x, q);
	if (rc || q->n_term) { /* no such request: the question as it was */
		*q = orig;
		x->q = q;
		return rc;
	}
	if (orig.t1 && q->t1 > orig.t1)
		q->t1 = orig.t1;
	q->order = orig.order;
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	rc = walk(x, root, 0, err);
	if (rc == H2EMV_OK && !x->n) {
		*q = orig;
		x->q = q;
	}
	return rc;
}

/* "Did anything go wrong at the tech rehearsal on Monday": the words
 * found only the occasion (the task "Tech"); what failed is any action
 * within its span. */
int trouble_during(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	if (q->kind != RQ_YESNO || q->status != RS_FAILED || !x->n || !root)
		return H2EMV_OK;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	for (size_t i = 0; i < x->n; i++) {
		const fact *f = x->c[i].f;
		if (f->type != FT_TASK || f->status == FST_FAILED || f->status == FST_ABORTED)
			return H2EMV_OK;
		int64_t e = f->t2 > f->t1 ? f->t2 : f->t1;
		if (f->t0 < t0)
			t0 = f->t0;
		if (e > t1)
			t1 = e;
	}
	rquestion orig = *q;
	for (size_t i = q->n_term; i-- > 0;)
		if (q->term[i].occasion)
			drop_term(q, i);
	if (q->n_term == orig.n_term) {
		*q = orig;
		return H2EMV_OK;
	}
	if (!q->t1 || t0 > q->t0)
		q->t0 = t0;
	if (!q->t1 || t1 + 1 < q->t1)
		q->t1 = t1 + 1;
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	int rc = walk(x, root, 0, err);
	if (rc == H2EMV_OK && x->n) {
		if (x->want_trace)
			pr_str_addf(&x->trace, "the words found an occasion; what failed during it\n");
		return H2EMV_OK;
	}
	if (rc)
		return rc;
	/* nothing was found then: the answer is still about the occasion */
	*q = orig;
	x->q = q;
	return walk(x, root, 0, err);
}
