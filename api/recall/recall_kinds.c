/*
 * recall_kinds.c — the answer by the kind of question
 * (recall_internal.h).
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

/* A duration in words: "22 seconds", "1 minute and 35 seconds". */
static void say_duration(pr_str *b, int64_t secs)
{
	long long m = (long long)(secs / 60), sec = (long long)(secs % 60);
	if (m)
		pr_str_addf(b, "%lld minute%s and ", m, m == 1 ? "" : "s");
	pr_str_addf(b, "%lld second%s", sec, sec == 1 ? "" : "s");
}

/* "How long did it take on average": the mean of the runs that lasted
 * (a second or more; one occurrence each), with how many and the range.
 * 0 when none lasted. */
static int mean_duration(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	double sum = 0;
	int64_t lo = 0, hi = 0;
	size_t n = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		if (f->count > 1 || f->status == FST_FAILED || f->status == FST_ABORTED ||
		    f->status == FST_ONGOING)
			continue;
		int64_t d = (f->t2 - run_start(x, f, x->n)) / 1000000;
		if (d < 1)
			continue;
		sum += (double)d;
		lo = !n || d < lo ? d : lo;
		hi = !n || d > hi ? d : hi;
		n++;
		add_evidence(a, x->c[i].ref);
	}
	if (!n)
		return 0;
	int64_t m = (int64_t)(sum / (double)n + 0.5);
	pr_str_adds(b, "On average about ");
	say_duration(b, m);
	if (m >= 60)
		pr_str_addf(b, " (%lld seconds)", (long long)m);
	pr_str_addf(b, " over %zu time%s", n, n == 1 ? "" : "s");
	if (n > 1)
		pr_str_addf(b, ", from %lld to %lld seconds", (long long)lo, (long long)hi);
	pr_str_adds(b, ".");
	return 1;
}

/* When or how long: the time of the one picked, a run from its start to its end. */
static void answer_when(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40], dd[40];
	if (!c)
		return;
	if (q->kind == RQ_DURATION && q->extreme == 2 && mean_duration(x, b, a, k))
		return;
	if (q->kind == RQ_DURATION) {
		/* a run whose end was recorded apart from its start (a
		 * "running" fact, then a "succeeded" one at the end): the
		 * run is the running fact's start to the end */
		int64_t start = run_start(x, c->f, x->n);
		int64_t d = (c->f->t2 - start) / 1000000;
		pr_str_adds(b, "About ");
		say_duration(b, d);
		pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, c->f->t1));
	} else {
		/* a run recorded as running, then finished: its start, and its
		 * end when it lasted over a minute */
		int64_t t = when_of(x, c->f), end = c->f->t2 > c->f->t1 ? c->f->t2 : 0;
		if (q->order == RO_LAST && c->f->status == FST_DONE && c->f->t2 <= c->f->t1) {
			int64_t s0 = run_start(x, c->f, x->n);
			if (s0 < t && t - s0 > 60000000 && t - s0 < 4 * 3600LL * 1000000)
				end = t, t = s0;
		}
		pr_str_addf(b, "At %s", fmt_dt(dt, sizeof dt, t));
		if (q->order != RO_FIRST && end > t + 60000000)
			pr_str_addf(b, " (until %s)", fmt_dt(dd, sizeof dd, end) + 12);
		pr_str_addf(b, ", a %s.", weekday_name(t));
	}
	add_evidence(a, c->ref);
}

/* Which day (or days) it happened. */
static void answer_day(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	if (!q->plural && c) {
		pr_str_addf(b, "On %s (%s).", emv_fmt_date(dt, sizeof dt, when_of(x, c->f)),
		            weekday_name(when_of(x, c->f)));
		add_evidence(a, c->ref);
		return;
	}
	pr_str seen = { 0 };
	size_t n = 0;
	pr_str_adds(b, "On ");
	for (size_t i = 0; i < k && n < LIST_MAX; i++) {
		int64_t ts[2] = { x->c[i].f->t0, x->c[i].f->t1 };
		for (int j = 0; j < 2; j++) {
			emv_fmt_date(dt, sizeof dt, ts[j]);
			if (listed(&seen, dt))
				continue;
			remember(&seen, dt);
			list_add(b, &n, dt);
			add_evidence(a, x->c[i].ref);
		}
	}
	pr_str_adds(b, ".");
	pr_str_free(&seen);
}

/* Where it was, or where it came from. */
static void answer_where(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	/* the newest (or first) candidate that names a place; one that
	 * says where the thing went beats one that says where it was */
	const cand *best = NULL;
	int best_rank = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		int rank = !is_act(f) ? (f->s[FS_PLACE] ? 1 : 0)
		           : q->kind == RQ_FROM ? (f->s[FS_SRC] ? 3 : f->s[FS_PLACE] ? 1 : 0)
		           : f->s[FS_DST] || (f->cls == LC_GO && f->s[FS_OBJ]) ? 3
		           : f->s[FS_PLACE] ? 2 : f->s[FS_SRC] ? 1 : 0;
		if (!rank)
			continue;
		if (!best || rank > best_rank ||
		    (rank == best_rank &&
		     (q->order == RO_FIRST ? f->t0 < best->f->t0 : f->t1 >= best->f->t1))) {
			best = &x->c[i];
			best_rank = rank;
		}
	}
	/* (from_opened may walk again, which replaces the candidates: what
	 * is needed of them is copied first; their facts stay) */
	const fact *bf = best ? best->f : NULL, *cf = c ? c->f : NULL;
	h2emv_ref bref = best ? best->ref : (h2emv_ref){ 0 }, cref = c ? c->ref : (h2emv_ref){ 0 };
	if (from_opened(x, b, a, k, best && best_rank == 3))
		return;
	if (bf) {
		say_where(b, x, bf);
		add_evidence(a, bref);
	} else if (cf) {
		/* the action names no place: where the robot had gone to */
		int64_t t = when_of(x, cf);
		const char *w = whereabouts(x, q, t);
		if (w) {
			pr_str_adds(b, "At the ");
			add_display(b, w);
			pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, t));
			add_evidence(a, cref);
		}
	}
}

/* Who it was: the robot itself, or each person once. */
static void answer_who(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	if (q->agent && c && is_act(c->f)) {
		/* the robot's own deed */
		eng_buf r = { 0 };
		facts_render_one(&r, c->f);
		pr_str_addf(b, "I did (%.*s, %s).", (int)r.len,
		            r.data ? (const char *)r.data : "", fmt_dt(dt, sizeof dt, c->f->t1));
		eng_buf_free(&r);
		add_evidence(a, c->ref);
		return;
	}
	/* "who opened the side gate": the subject of the words that tell it
	 * ("Ember, Ortega opened the side gate"), not who said them */
	char subject[96];
	if (c && c->f->type == FT_SPEECH && deed_subject(q, c->f, subject, sizeof subject) &&
	    strcmp(subject, "I") && strcasecmp(subject, "we") && strcasecmp(subject, "you")) {
		pr_str_addf(b, "%s. %s said: \"%s\" (%s).", subject,
		            c->f->s[FS_NAME] ? c->f->s[FS_NAME] : "Someone", c->f->s[FS_TEXT],
		            fmt_dt(dt, sizeof dt, c->f->t1));
		add_evidence(a, c->ref);
		return;
	}
	pr_str seen = { 0 };
	size_t n = 0;
	/* each person once, by the fullest name given ("Tom" and "Tom
	 * Becker" are one) */
	const char *names[LIST_MAX];
	char keep[LIST_MAX][96];
	size_t nn = 0;
	for (size_t i = 0; i < k && q->plural; i++) {
		const fact *f = x->c[i].f;
		const char *who = f->type == FT_PERSON || f->type == FT_SPEECH ? f->s[FS_NAME]
		                                                              : f->s[FS_WHO];
		if ((!who || x->c[i].me) && f->type != FT_PERSON &&
		    addressee(f->s[FS_TEXT], keep[nn < LIST_MAX ? nn : 0], sizeof *keep))
			who = keep[nn < LIST_MAX ? nn : 0];
		if (who && nn < LIST_MAX)
			names[nn++] = who;
	}
	for (size_t i = 0; i < k; i++) {
		const cand *ci = q->plural ? &x->c[i] : c;
		const fact *f = ci->f;
		const char *who = f->type == FT_PERSON ? f->s[FS_NAME]
		                  : f->type == FT_SPEECH ? f->s[FS_NAME] : f->s[FS_WHO];
		/* the robot's own words that greet someone by name */
		char named[96];
		int me = who && (profile_is_self(x->prof, who) || ci->me);
		if ((!who || me) && f->type != FT_PERSON &&
		    addressee(f->s[FS_TEXT], named, sizeof named))
			who = named, me = 0;
		/* "who visited Rosa": not Rosa */
		if (who && !me && q->person >= 0 && word_in(who, &q->term[q->person]))
			me = 1;
		for (size_t j = 0; who && !me && j < nn; j++)
			me = longer_name(names[j], who);
		/* "user", "human": nobody in particular, beside the named */
		for (size_t j = 0; who && !me && q->plural && generic_name(who) && j < nn; j++)
			me = !generic_name(names[j]); /* someone named is there too */
		if (!who || me || listed(&seen, who))
			continue;
		remember(&seen, who);
		if (n < LIST_MAX)
			list_add(b, &n, who);
		add_evidence(a, ci->ref);
		if (!q->plural)
			break;
	}
	if (n)
		pr_str_adds(b, ".");
	pr_str_free(&seen);
}

/* What was seen, each thing once. */
static void answer_seen(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	pr_str seen = { 0 };
	size_t n = 0;
	pr_str_adds(b, "I saw ");
	for (size_t i = k; i-- > 0 && n < LIST_MAX;) {
		const fact *f = x->c[i].f;
		if (f->type == FT_SPEECH) {
			seen_items(b, &seen, &n, f);
			add_evidence(a, x->c[i].ref);
			continue;
		}
		char d[200];
		lex_display(d, sizeof d, f->s[FS_NAME], strlen(f->s[FS_NAME]));
		/* what tells it from others of its kind, when short ("bicycle
		 * (make Raleigh)") */
		const char *st = f->s[FS_STATE];
		size_t dl = strlen(d);
		if (*d && st && strlen(st) < 48 && dl + strlen(st) + 4 < sizeof d) {
			snprintf(d + dl, sizeof d - dl, " (%s)", st);
			for (char *e = d + dl; *e; e++)
				if (*e == '=')
					*e = ' ';
		}
		if (!*d || listed(&seen, d))
			continue;
		remember(&seen, d);
		list_add(b, &n, d);
		add_evidence(a, x->c[i].ref);
	}
	pr_str_adds(b, ".");
	pr_str_free(&seen);
}

/* Which thing: the objects the matching actions handled. */
static void answer_which(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	if (!c)
		return;
	if (q->plural) {
		/* every object the matching actions handled, once each */
		pr_str seen = { 0 };
		size_t n = 0;
		double top = 0;
		for (size_t i = 0; i < x->n; i++)
			if (!x->c[i].coarse && x->c[i].score > top)
				top = x->c[i].score;
		/* the runs seen going on count as well as the ones seen ending */
		for (size_t i = 0; i < x->n && n < LIST_MAX; i++) {
			const fact *f = x->c[i].f;
			if (x->c[i].coarse || x->c[i].score < top * 0.6 || !is_act(f) ||
			    !f->s[FS_OBJ] || listed(&seen, f->s[FS_OBJ]) ||
			    f->status == FST_FAILED || f->status == FST_ABORTED)
				continue;
			char part[160];
			const char *thing = matched_thing(q, f, part, sizeof part);
			if (listed(&seen, thing))
				continue;
			remember(&seen, thing);
			pr_str_adds(b, n++ ? "; the " : "The ");
			add_display_for(b, q, thing);
			pr_str_addf(b, " (%s)", fmt_dt(dt, sizeof dt, when_of(x, f)));
			add_evidence(a, x->c[i].ref);
		}
		pr_str_free(&seen);
		if (n) {
			pr_str_adds(b, ".");
			return;
		}
	}
	/* the object is the answer: an action that names one, by order */
	if (!(is_act(c->f) && c->f->s[FS_OBJ]) && c->f->type != FT_SEEN) {
		/* (an action of the same verb: "what did you hand over" is
		 * not answered by the dishwasher a loading handled) */
		const cand *o = NULL;
		const char *verb = c->f->s[FS_VERB];
		for (size_t i = 0; i < k; i++)
			if (x->c[i].f->type == FT_ACT && x->c[i].f->s[FS_OBJ] &&
			    (!verb || !x->c[i].f->s[FS_VERB] ||
			     !strcmp(verb, x->c[i].f->s[FS_VERB])) &&
			    (!o || (q->order == RO_FIRST ? x->c[i].f->t0 < o->f->t0
			                                 : x->c[i].f->t1 >= o->f->t1)))
				o = &x->c[i];
		if (o)
			c = o;
	}
	if (is_act(c->f) && c->f->s[FS_OBJ]) {
		pr_str_adds(b, "The ");
		add_display_for(b, q, c->f->s[FS_OBJ]);
	} else if (c->f->type == FT_SEEN) {
		pr_str_adds(b, "The ");
		add_display(b, c->f->s[FS_NAME]);
	} else {
		eng_buf r = { 0 };
		facts_render_one(&r, c->f);
		pr_str_add(b, (const char *)r.data, r.len);
		eng_buf_free(&r);
	}
	pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, when_of(x, c->f)));
	add_evidence(a, c->ref);
}

/* The answer by the kind of question, from the shortlist of k and the one
 * picked (c, or NULL). */
static void answer_kind(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	if (q->most && most_answer(x, b, a, k))
		return;
	switch (q->kind) {
	case RQ_WHEN:
	case RQ_DURATION:
		answer_when(x, b, a, c, k);
		break;
	case RQ_DAY:
		answer_day(x, b, a, c, k);
		break;
	case RQ_WHERE:
	case RQ_FROM:
		answer_where(x, b, a, c, k);
		break;
	case RQ_WHO:
		answer_who(x, b, a, c, k);
		break;
	case RQ_SAID:
		answer_said(x, b, a, c, k);
		break;
	case RQ_SEEN:
		answer_seen(x, b, a, c, k);
		break;
	case RQ_WHICH:
		answer_which(x, b, a, c, k);
		break;
	case RQ_COUNT:
		answer_count(x, b, a, c, k);
		break;
	case RQ_YESNO:
		answer_yesno(x, b, a, c, k);
		break;
	case RQ_STEPS:
		answer_steps(x, b, a, c, k);
		break;
	case RQ_FAILED:
	case RQ_DO:
	default:
		answer_done(x, b, a, c, k);
		break;
	}
}

/* The answer to the question from the candidates collected: by the
 * evidence asked for, a gist of forgotten things, or the kind. */
void answer_text(rctx *x, pr_str *b, h2emv_answer *a)
{
	const rquestion *q = x->q;
	if (q->evidence) {
		answer_evidence(x, b, a);
		return;
	}
	int single = q->kind == RQ_WHEN || q->kind == RQ_WHERE || q->kind == RQ_FROM ||
	             (q->kind == RQ_WHICH && !q->plural) || q->kind == RQ_SAID ||
	             q->kind == RQ_YESNO || q->kind == RQ_DURATION || (q->kind == RQ_DAY && !q->plural) ||
	             (q->kind == RQ_WHO && !q->plural);
	size_t k = shortlist(x, single);
	char dt[40];
	for (size_t i = 0; x->want_trace && i < k && i < 8; i++) {
		eng_buf r = { 0 };
		facts_render_one(&r, x->c[i].f);
		pr_str_addf(&x->trace, "  candidate %s%s: %.*s (score %.1f, %d words)\n",
		            fmt_dt(dt, sizeof dt, x->c[i].f->t0), x->c[i].coarse ? " (summary)" : "",
		            (int)r.len, r.data ? (const char *)r.data : "", x->c[i].score, x->c[i].hits);
		eng_buf_free(&r);
	}
	if ((q->busiest || (q->habit && !content_terms(q))) && x->n && !x->forgot &&
	    (q->busiest ? busiest_day(x, b, a, x->n) : usual_activities(x, b, a, x->n)))
		return;
	/* answered from a gist of forgotten children (a summary's facts, a
	 * placeholder's salient ones)? It keeps what happened, with whom,
	 * when and where carried things went, and the words said or things
	 * seen that were salient enough to keep; what it did not keep is
	 * forgotten */
	int gist = k > 0;
	for (size_t i = 0; i < k; i++)
		gist &= x->c[i].coarse != 0;
	if (single && k) {
		const cand *c = pick(x, k);
		gist = c && c->coarse;
	}
	if (gist) {
		const cand *c = pick(x, k);
		if (!c)
			c = &x->c[0];
		/* an answer the gist gives is an answer: forgotten stays 0 */
		if ((q->kind == RQ_SAID && c->f->type != FT_SPEECH) ||
		    (q->kind == RQ_SEEN && c->f->type != FT_SEEN) ||
		    (q->kind == RQ_WHERE && !c->f->s[FS_DST] && !c->f->s[FS_PLACE]) ||
		    (q->kind == RQ_FROM && !c->f->s[FS_SRC])) {
			a->forgotten = 1;
			pr_str_addf(b, "I have forgotten that (it was on %s).",
			            emv_fmt_date(dt, sizeof dt, when_of(x, c->f)));
			add_evidence(a, c->ref);
			return;
		}
	}
	/* "where were you at about 11:32": the place at that moment, not the
	 * newest of the hour around it */
	if (q->kind == RQ_WHERE && q->t_point && !content_terms(q) && q->verb < 0 && !gist) {
		h2emv_ref ref = { 0 };
		const char *w = whereabouts_ref(x, q, q->t_point, &ref);
		if (w) {
			pr_str_adds(b, "At the ");
			add_display(b, w);
			pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, q->t_point));
			add_evidence(a, ref);
		} else {
			pr_str_adds(b, NOT_FOUND);
		}
		return;
	}
	/* "what did you do yesterday before noon" over a span with nothing
	 * in it: say so, with the span */
	if (!k && q->kind == RQ_DO && q->t1 && !x->forgot && !x->cut && !content_terms(q) &&
	    q->verb < 0) {
		char d0[40], d1[40];
		pr_str_addf(b, "I remember nothing I did between %s and %s.",
		            fmt_dt(d0, sizeof d0, q->t0), fmt_dt(d1, sizeof d1, q->t1));
		return;
	}
	if (!k && q->kind == RQ_YESNO && !x->forgot && !x->cut) {
		pr_str_adds(b, "No, I have no memory of that.");
		return;
	}
	if (!k) {
		pr_str_adds(b, x->forgot ? FORGOTTEN : NOT_FOUND);
		a->forgotten = x->forgot;
		if (x->forgot)
			add_evidence(a, x->forgot_ref);
		return;
	}
	const cand *c = pick(x, k);
	if (c && (value_answer(x, b, a, c) || key_answer(x, b, a, c, k)))
		return;
	/* "how wide was the crack": no part of the parameters is a width
	 * by its key; the record says it as it was written */
	if (c && q->how_adj[0] && !q->extreme && q->kind == RQ_WHICH) {
		answer_done(x, b, a, c, k);
		return;
	}
	/* "how many workers were on site": a note that says "17 workers"
	 * answers before the people the robot met */
	if (q->kind == RQ_COUNT && (sum_answer(x, b, a, k) || people_answer(x, b, a, k)))
		return;
	answer_kind(x, b, a, c, k);
	if (b->len && (q->why || q->kind == RQ_FAILED))
		add_told_reason(x, b, a, c, k);
	if (!b->len) {
		pr_str_adds(b, x->forgot ? FORGOTTEN : NOT_FOUND);
		a->forgotten = x->forgot;
	} else if (gist) {
		pr_str_adds(b, " (From my summaries; I no longer remember the details.)");
	}
}
