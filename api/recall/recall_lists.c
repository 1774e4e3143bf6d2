/*
 * recall_lists.c — answers that list or tally things across facts
 * (recall_internal.h): the distinct things counted, the failures of a
 * span, and what was done, met or visited most often.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/base/lex.h"
#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

/* "How many aisles did you scan on Wednesday", "how many rows did you
 * finish": the things the question counts, each once (aisle 7 scanned
 * twice is one aisle), when every run counted names one. 0 otherwise. */
int distinct_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const rquestion *q = x->q;
	if (q->category < 0 || q->people)
		return 0;
	const rq_term *c = &q->term[q->category];
	int any_done = 0;
	for (size_t i = 0; i < k; i++)
		any_done |= is_act(x->c[i].f) && x->c[i].f->status == FST_DONE;
	pr_str seen = { 0 }, names = { 0 };
	size_t n = 0, runs = 0, named = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		if (!is_act(f) || x->c[i].coarse || (any_done && f->status != FST_DONE) ||
		    (q->status == RS_FAILED) != (f->status == FST_FAILED || f->status == FST_ABORTED))
			continue;
		runs++;
		char part[160];
		const char *v = matched_thing(q, f, part, sizeof part);
		int abbr = v && (v[0] | 32) == c->word[0] && v[1] >= '0' && v[1] <= '9';
		lex_word vw[3];
		size_t vk = v ? lex_split(v, strlen(v), vw, 3) : 0;
		if (!v || (!word_in(v, c) && !abbr) || vk < (abbr ? 1u : 2u) ||
		    !strpbrk(v, "0123456789"))
			continue; /* "order" alone, or "room service", tells none from another */
		named++;
		if (listed(&seen, v))
			continue;
		remember(&seen, v);
		if (n < LIST_MAX)
			pr_str_addf(&names, "%s%s", n ? ", " : "", v);
		n++;
		add_evidence(a, x->c[i].ref);
	}
	int ok = n && named == runs;
	if (ok)
		pr_str_addf(b, "%s%zu %s: %s%s.%s", x->forgot || x->cut ? "At least " : "", n,
		            n == 1 ? c->stem : c->word, names.s ? names.s : "",
		            n > LIST_MAX ? ", ..." : "", x->forgot ? " Older ones are forgotten." : "");
	pr_str_free(&seen);
	pr_str_free(&names);
	return ok;
}

/* "What went wrong yesterday", "did you have any problems on Friday":
 * the failed runs in order, a cluster of failures within a minute
 * told by its last (a step retried and failing again is one trouble),
 * but a step that failed before the task it aborted by its own, which
 * says what failed and why ("bleed brakes (error caliper piston stuck)",
 * not "the task WO-2231"), with the reason when one was written.
 * Returns how many were listed; 0 when none failed. */
size_t failures_list(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const int64_t GAP = 60 * 1000000LL;
	size_t idx[LIST_MAX * 8], n = 0;
	for (size_t i = 0; i < k && n < sizeof idx / sizeof *idx; i++) {
		const fact *f = x->c[i].f;
		if (is_act(f) && (f->status == FST_FAILED || f->status == FST_ABORTED))
			idx[n++] = i;
	}
	/* by time (insertion: a few dozen at most) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && x->c[idx[j]].f->t1 < x->c[idx[j - 1]].f->t1; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	size_t shown = 0, more = 0;
	char dt[40];
	pr_str seen = { 0 };
	int told_step = 0; /* the cluster's step was told: its task is not */
	for (size_t i = 0; i < n; i++) {
		const fact *f = x->c[idx[i]].f;
		int task = f->type == FT_TASK;
		if (task && told_step) {
			told_step = 0;
			continue;
		}
		/* a later failure of the same trouble follows within minutes */
		if (i + 1 < n && x->c[idx[i + 1]].f->t1 - f->t1 <= GAP &&
		    x->c[idx[i + 1]].f->t1 >= f->t1) {
			if (task || x->c[idx[i + 1]].f->type != FT_TASK)
				continue;
			told_step = 1;
		} else {
			told_step = 0;
		}
		eng_buf r;
		if (!render_text(&r, f))
			continue;
		char key[600];
		snprintf(key, sizeof key, "%s %s", (const char *)r.data, fmt_dt(dt, sizeof dt, f->t1));
		if (!listed(&seen, key)) {
			remember(&seen, key);
			if (shown < LIST_MAX) {
				pr_str_addf(b, "%s%s at %s", shown ? "; " : "", (const char *)r.data, dt);
				add_evidence(a, x->c[idx[i]].ref);
				shown++;
			} else {
				more++;
			}
		}
		eng_buf_free(&r);
	}
	if (shown)
		pr_str_addf(b, more ? "; and %zu more." : ".", more);
	pr_str_free(&seen);
	return shown;
}

/* The thing a fact gives for a "most often" question of q's kind: whom
 * (the person, the speaker), where (the place it went, it was), or what
 * (the thing handled). NULL when it gives none. */
static const char *tallied(const rquestion *q, const fact *f, char *part, size_t cap)
{
	switch (q->kind) {
	case RQ_WHO:
		return f->type == FT_SPEECH || f->type == FT_PERSON ? f->s[FS_NAME] : f->s[FS_WHO];
	case RQ_WHERE:
		return f->s[FS_DST] ? f->s[FS_DST] : f->s[FS_PLACE];
	default:
		return is_act(f) ? matched_thing(q, f, part, cap) : f->s[FS_NAME];
	}
}

/* "Which room did you clean most often", "who did you talk to the most",
 * "what did you pick up least": the things the matching facts give, each
 * counted by its occurrences, the top ones first with their counts. 0
 * when no fact gives one. */
int most_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	enum { MOST = 64 };
	const rquestion *q = x->q;
	char *name[MOST];
	size_t times[MOST], ref[MOST], n = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		char part[160];
		/* (the robot's own words are not someone it talked to) */
		if (x->c[i].coarse || f->status == FST_FAILED || f->status == FST_ABORTED ||
		    (is_act(f) && f->status == FST_ONGOING) || (q->kind == RQ_WHO && x->c[i].me))
			continue;
		const char *raw = tallied(q, f, part, sizeof part);
		char v[200]; /* as said: "Tomato_2" and "tomato" are one thing */
		if (!raw || !*raw)
			continue;
		if (q->kind == RQ_WHO) /* (a person's name as written) */
			snprintf(v, sizeof v, "%s", raw);
		else
			lex_display(v, sizeof v, raw, strlen(raw));
		if (!*v)
			continue;
		size_t j = 0;
		while (j < n && strcasecmp(name[j], v))
			j++;
		if (j == n) {
			if (n == MOST || !(name[n] = strdup(v)))
				continue;
			times[n] = 0;
			ref[n] = i;
			n++;
		}
		times[j] += f->count ? f->count : 1;
	}
	/* by count, the most (or the least) first; insertion: n is small */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && (q->most > 0 ? times[j] > times[j - 1]
		                                         : times[j] < times[j - 1]); j--) {
			size_t t = times[j], r = ref[j];
			char *s = name[j];
			times[j] = times[j - 1], ref[j] = ref[j - 1], name[j] = name[j - 1];
			times[j - 1] = t, ref[j - 1] = r, name[j - 1] = s;
		}
	for (size_t i = 0; i < n && i < 3; i++) {
		pr_str_adds(b, i ? "; then " : q->kind == RQ_WHO ? "" : "The ");
		pr_str_adds(b, name[i]);
		pr_str_addf(b, " (%zu time%s)", times[i], times[i] == 1 ? "" : "s");
		add_evidence(a, x->c[ref[i]].ref);
	}
	if (n)
		pr_str_adds(b, ".");
	for (size_t i = 0; i < n; i++)
		free(name[i]);
	return n > 0;
}
