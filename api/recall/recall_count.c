/*
 * recall_count.c — the answers that count or judge (recall_internal.h):
 * how many times, yes or no, the steps of a span, and what was done or
 * what failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/base/lex.h"
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

/* 1 when `id` was not in the set yet (open addressing on id + 1). */
static int id_add(uint64_t *set, size_t cap, uint64_t id)
{
	size_t j = (size_t)(((id + 1) * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
	while (set[j] && set[j] != id + 1)
		j = (j + 1) & (cap - 1);
	if (set[j])
		return 0;
	set[j] = id + 1;
	return 1;
}

/* add_evidence of refs[0..n) in order, with its dedup by id, without a
 * scan of the list for each (a count at 50k nodes names thousands of
 * goals: the scans were an eighth of its time). */
static void add_evidence_all(h2emv_answer *a, const h2emv_ref *refs, size_t n)
{
	if (!n)
		return;
	size_t cap = 64;
	while (cap < 2 * (a->n_evidence + n))
		cap *= 2;
	uint64_t *set = calloc(cap, sizeof *set);
	h2emv_ref *e = set ? realloc(a->evidence, (a->n_evidence + n + 1) * sizeof *e) : NULL;
	if (!e) {
		free(set);
		for (size_t i = 0; i < n; i++)
			add_evidence(a, refs[i]);
		return;
	}
	a->evidence = e;
	for (size_t i = 0; i < a->n_evidence; i++)
		id_add(set, cap, e[i].id);
	for (size_t i = 0; i < n; i++)
		if (id_add(set, cap, refs[i].id)) /* (the first reference to an id stays) */
			e[a->n_evidence++] = refs[i];
	free(set);
}

/* The same skill done on another thing (Slice Tomato_2, then Slice
 * Potato_1). */
static int other_thing(const fact *a, const fact *b)
{
	return a->s[FS_NAME] && b->s[FS_NAME] && !strcmp(a->s[FS_NAME], b->s[FS_NAME]) &&
	       a->s[FS_OBJ] && b->s[FS_OBJ] && strcasecmp(a->s[FS_OBJ], b->s[FS_OBJ]);
}

/* How many times (or how much): occurrences by outcome. */
void answer_count(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	/* "how many litres went into the tug": one occurrence whose own
	 * words count the thing asked ("... 1200 litres of diesel") */
	if (k == 1 && is_act(x->c[0].f) && x->c[0].f->s[FS_STATE]) {
		char amount[2 * LEX_WORD_MAX + 2];
		if (counted_amount(x->c[0].f->s[FS_STATE], q, amount, sizeof amount)) {
			pr_str_addf(b, "%s (", amount);
			eng_buf r = { 0 };
			facts_render_one(&r, x->c[0].f);
			pr_str_add(b, (const char *)r.data, r.len);
			eng_buf_free(&r);
			pr_str_addf(b, ", %s).", fmt_dt(dt, sizeof dt, x->c[0].f->t0));
			add_evidence(a, x->c[0].ref);
			return;
		}
	}
	if (distinct_answer(x, b, a, k))
		return;
	/* occurrences: final outcomes when there are any, else starts */
	uint64_t done = 0, failed = 0, other = 0;
	const fact *last[6] = { NULL };
	h2emv_ref *refs = k ? malloc(k * sizeof *refs) : NULL;
	size_t n_refs = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		/* nested skills of one run (NavigateToNamedLocation and its
		 * NavigateToLocation) start together: one occurrence; the same
		 * skill on another thing a few seconds later is another (two
		 * slices cut in a row) */
		const fact *l = last[f->status % 6];
		if (f->count == 1 && l && f->t0 - l->t0 < 5 * 1000000LL && !other_thing(l, f))
			continue;
		last[f->status % 6] = f;
		if (f->status == FST_DONE)
			done += f->count;
		else if (f->status == FST_FAILED || f->status == FST_ABORTED)
			failed += f->count;
		else
			other += f->count;
		if (refs)
			refs[n_refs++] = x->c[i].ref;
		else
			add_evidence(a, x->c[i].ref);
	}
	add_evidence_all(a, refs, n_refs);
	free(refs);
	/* "how many times did you X": the times it was done; failed
	 * attempts are said apart */
	uint64_t total = q->status == RS_FAILED ? failed
	                 : done                  ? done
	                 : q->status == RS_DONE  ? (failed ? 0 : other)
	                 : failed                ? failed
	                                         : other;
	/* runs seen starting but never seen ending still happened — but a
	 * long run that reported "running" more than once is one run: a
	 * running fact whose reports all end shortly before an end of the
	 * same action is that run's, not another */
	uint64_t explained = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		if (f->status != FST_ONGOING || f->count < 2 || !f->s[FS_NAME])
			continue;
		for (size_t j = 0; j < k; j++) {
			const fact *g = x->c[j].f;
			int64_t end = g->t2 > g->t1 ? g->t2 : g->t1; /* (a joined run ends at t2) */
			if (g->status == FST_DONE && g->s[FS_NAME] && !strcmp(g->s[FS_NAME], f->s[FS_NAME]) &&
			    g->count == 1 && f->t0 <= end && end >= f->t2 &&
			    end - f->t0 < 4 * 3600 * 1000000LL) {
				explained += f->count - 1;
				break;
			}
		}
	}
	if (q->status == RS_ANY && done && other > failed + explained &&
	    other - failed - explained > done)
		total = other - failed - explained;
	/* "how many did you try": the failed attempts are tries too */
	int tries = q->tries && q->status == RS_ANY && done && failed;
	if (tries)
		total = done + failed;
	/* a count over a scope partly forgotten, or read only up to the
	 * token budget, is a lower bound, and says so */
	int partial = x->forgot || x->cut;
	pr_str_addf(b, "%s%llu time%s", partial ? "At least " : "", (unsigned long long)total,
	            total == 1 ? "" : "s");
	if (tries)
		pr_str_addf(b, " (%llu done, %llu failed)", (unsigned long long)done,
		            (unsigned long long)failed);
	else if (q->status != RS_FAILED && failed && done)
		pr_str_addf(b, " (and %llu failed attempt%s)", (unsigned long long)failed,
		            failed == 1 ? "" : "s");
	else if (q->status != RS_FAILED && failed && !done && total == failed)
		pr_str_adds(b, ", all of them failed");
	size_t n = 0;
	for (size_t i = 0; i < k && n < LIST_MAX; i++) {
		const fact *f = x->c[i].f;
		if (q->status != RS_FAILED && done && f->status != FST_DONE &&
		    !(tries && (f->status == FST_FAILED || f->status == FST_ABORTED)))
			continue;
		if (q->status == RS_FAILED && f->status != FST_FAILED && f->status != FST_ABORTED)
			continue;
		if (q->status != RS_FAILED && !done && failed && f->status != FST_FAILED &&
		    f->status != FST_ABORTED)
			continue;
		pr_str_adds(b, n++ ? ", " : ": at ");
		pr_str_adds(b, fmt_dt(dt, sizeof dt, f->t0));
	}
	pr_str_adds(b, ".");
	if (x->forgot)
		pr_str_adds(b, " Older ones are forgotten.");
	else if (x->cut)
		pr_str_adds(b, " I stopped reading at my token budget.");
}

/* Is there among the first k candidates a failed end of the run f began
 * (the same action and object, failed within the next hours)? */
static int closed_failed(const rctx *x, size_t k, const fact *f)
{
	for (size_t i = 0; i < k; i++) {
		const fact *g = x->c[i].f;
		if (g != f && g->type == f->type && g->t1 >= f->t1 &&
		    g->t1 - f->t1 < 4 * 3600LL * 1000000 &&
		    (g->status == FST_FAILED || g->status == FST_ABORTED) && f->s[FS_NAME] &&
		    g->s[FS_NAME] && !strcmp(f->s[FS_NAME], g->s[FS_NAME]) &&
		    (!f->s[FS_OBJ] || (g->s[FS_OBJ] && !strcmp(f->s[FS_OBJ], g->s[FS_OBJ]))))
			return 1;
	}
	return 0;
}

/* Yes or no, and what. */
void answer_yesno(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	/* "did anything go wrong on Friday": yes, and what */
	if (q->status == RS_FAILED && q->t1 && !q->order_said) {
		pr_str_adds(b, "Yes: ");
		size_t at = b->len;
		if (failures_list(x, b, a, k))
			return;
		b->len = at - 5;
		if (b->s)
			b->s[b->len] = 0;
	}
	/* yes needs an occurrence that did not fail, unless the question
	 * asks about a failure */
	const cand *hit = NULL, *tried = NULL;
	int any_done = 0, any_failed = 0;
	int seeing = q->verb >= 0 && (q->term[q->verb].cls == LC_SEE || q->term[q->verb].cls == LC_LOOK);
	/* "did the first run of X succeed": that run, whatever came after */
	if (q->order_said && q->order == RO_FIRST && q->status != RS_FAILED) {
		const cand *first = NULL;
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			if (is_act(f) && f->status != FST_ONGOING && f->status != FST_NONE &&
			    (!first || f->t0 < first->f->t0))
				first = &x->c[i];
		}
		if (first && (first->f->status == FST_FAILED ||
		              first->f->status == FST_ABORTED)) {
			eng_buf r = { 0 };
			facts_render_one(&r, first->f);
			pr_str_adds(b, "No: the first time (");
			pr_str_add(b, (const char *)r.data, r.len);
			pr_str_addf(b, " at %s) it did not succeed.",
			            fmt_dt(dt, sizeof dt, first->f->t1));
			eng_buf_free(&r);
			add_evidence(a, first->ref);
			return;
		}
	}
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		any_done |= !is_act(f) || f->status == FST_DONE || f->status == FST_NONE;
		any_failed |= is_act(f) &&
		              (f->status == FST_FAILED || f->status == FST_ABORTED);
	}
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		int bad = is_act(f) && (f->status == FST_FAILED || f->status == FST_ABORTED);
		if (q->status == RS_DONE && !is_act(f))
			continue; /* "did you finish row 22": not what was seen there */
		if (q->status == RS_FAILED ? !bad && is_act(f) : bad) {
			if (!tried || f->t1 >= tried->f->t1)
				tried = &x->c[i];
			continue;
		}
		/* a step with no outcome of its own that a later line closed
		 * as failed ("fly.check", then the goal's "FAIL: ...") */
		if (is_act(f) && f->status == FST_NONE && closed_failed(x, k, f))
			continue;
		/* a run seen starting counts unless runs were seen failing and
		 * none succeeding */
		if (is_act(f) && f->status == FST_ONGOING &&
		    (q->status == RS_DONE || (any_failed && !any_done)))
			continue;
		/* seeing says yes only with every word asked: "did you see a
		 * unicorn on stand 3" is not answered by the helmet seen there */
		if (seeing && !x->c[i].complete)
			continue;
		if (!hit || f->t1 > hit->f->t1 ||
		    (f->t1 == hit->f->t1 && !(f->type == FT_TASK && hit->f->type != FT_TASK)))
			hit = &x->c[i];
	}
	eng_buf r = { 0 };
	if (!hit) {
		if (tried && q->status != RS_FAILED) {
			facts_render_one(&r, tried->f);
			pr_str_adds(b, "No: I tried (");
			pr_str_add(b, (const char *)r.data, r.len);
			pr_str_addf(b, " at %s) but it did not succeed.",
			            fmt_dt(dt, sizeof dt, tried->f->t1));
			add_evidence(a, tried->ref);
		} else {
			pr_str_adds(b, "No.");
		}
		eng_buf_free(&r);
		return;
	}
	facts_render_one(&r, hit->f);
	/* "were any rack doors open in row C": the run that counted none of
	 * them ("doors 0") says no */
	char part[160];
	double num = -1;
	for (size_t t = 0; t < q->n_term && is_act(hit->f); t++)
		if ((int)t != q->verb && !q->term[t].cap && !q->term[t].lemma &&
		    named_part(hit->f->s[FS_STATE], &q->term[t], part, sizeof part, &num) &&
		    num == 0) {
			pr_str_addf(b, "No: %s (", part);
			pr_str_add(b, (const char *)r.data, r.len);
			pr_str_addf(b, " at %s).", fmt_dt(dt, sizeof dt, hit->f->t1));
			eng_buf_free(&r);
			add_evidence(a, hit->ref);
			return;
		}
	pr_str_adds(b, "Yes: ");
	pr_str_add(b, (const char *)r.data, r.len);
	eng_buf_free(&r);
	pr_str_addf(b, " at %s.", fmt_dt(dt, sizeof dt, hit->f->t1));
	add_evidence(a, hit->ref);
}

/* The steps of a span in order, or the first or last alone. */
void answer_steps(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	/* the actions of the span in order; the first or the last alone */
	size_t n = 0;
	int64_t t_first = 0;
	for (size_t i = 0; i < k && n < LIST_MAX; i++) {
		size_t at = q->step < 0 ? k - 1 - i : i;
		const fact *f = x->c[at].f;
		if (f->status == FST_FAILED || f->status == FST_ABORTED)
			continue;
		eng_buf r = { 0 };
		facts_render_one(&r, f);
		if (!n)
			t_first = q->step < 0 ? f->t1 : f->t0;
		pr_str_adds(b, n++ ? "; " : "");
		pr_str_add(b, (const char *)r.data, r.len);
		eng_buf_free(&r);
		add_evidence(a, x->c[at].ref);
		if (q->step)
			break;
	}
	if (n)
		pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, t_first));
}

/* Is a name written in words (a run of three letters), not a code? */
static int in_words(const char *s)
{
	int run = 0;
	for (; *s; s++) {
		run = ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z') ? run + 1 : 0;
		if (run >= 3)
			return 1;
	}
	return 0;
}

/* What was done (or what failed): a list of actions, or of tasks, or day by day. */
void answer_done(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	char dt[40];
	if (q->kind == RQ_FAILED && failures_list(x, b, a, k))
		return;
	pr_str seen = { 0 }, skills = { 0 };
	size_t n = 0;
	/* tasks are listed only when no action is, or when the span holds
	 * more kinds of action than a list shows: a day of a skill-stack
	 * robot is its tasks (bring the milk, load the dishwasher), not its
	 * first ten motions */
	int acts = 0, verbal = 0;
	pr_str kinds = { 0 }, named = { 0 };
	size_t n_kinds = 0, tasks = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		acts |= f->type == FT_ACT;
		if (f->type == FT_ACT && f->s[FS_NAME] && !listed(&kinds, f->s[FS_NAME])) {
			remember(&kinds, f->s[FS_NAME]);
			n_kinds++;
		}
		/* tasks that tell what was done: named by a doing ("BringMilk"),
		 * or several in words ("day shift" all week, or work orders
		 * "WO-2231", tell less than the actions) */
		if (f->type == FT_TASK && f->s[FS_NAME] && !listed(&named, f->s[FS_NAME]) &&
		    in_words(f->s[FS_NAME])) {
			char v[96];
			remember(&named, f->s[FS_NAME]);
			tasks++;
			verbal |= lex_skill_verb(v, sizeof v, f->s[FS_NAME]) > 0;
		}
	}
	pr_str_free(&kinds);
	pr_str_free(&named);
	int by_task = q->kind == RQ_DO && (tasks >= 3 || (tasks && verbal)) && n_kinds > LIST_MAX;
	if (q->kind == RQ_DO && !q->t_point && do_by_day(x, b, a, k, by_task, acts)) {
		pr_str_free(&seen);
		pr_str_free(&skills);
		return;
	}
	for (size_t i = 0; i < k && n < LIST_MAX; i++) {
		const fact *f = x->c[i].f;
		if (q->kind == RQ_DO &&
		    (by_task ? f->type != FT_TASK
		             : f->type != FT_ACT && !(f->type == FT_TASK && !acts)))
			continue;
		/* one line per skill: its first occurrence in the span */
		if (q->kind == RQ_DO && f->s[FS_NAME]) {
			if (listed(&skills, f->s[FS_NAME]))
				continue;
			remember(&skills, f->s[FS_NAME]);
		}
		/* a task said in words ("received object from human"), not as
		 * "the task ReceiveObjectFromHuman"; anything else rendered */
		eng_buf r = { 0 };
		char said[160];
		if (q->kind == RQ_DO && f->type == FT_TASK && f->status != FST_FAILED &&
		    f->status != FST_ABORTED && lex_skill_words(said, sizeof said, f->s[FS_NAME])) {
			if (eng_buf_append(&r, said, strlen(said) + 1)) {
				eng_buf_free(&r);
				continue;
			}
		} else if (!render_text(&r, f)) {
			continue;
		}
		if (!listed(&seen, (const char *)r.data)) {
			remember(&seen, (const char *)r.data);
			pr_str_adds(b, n++ ? "; " : "");
			pr_str_addf(b, "%s at %s", (const char *)r.data, fmt_dt(dt, sizeof dt, f->t0));
			add_evidence(a, x->c[i].ref);
		}
		eng_buf_free(&r);
	}
	if (n)
		pr_str_adds(b, ".");
	pr_str_free(&seen);
	pr_str_free(&skills);
}
