/*
 * builtin_qa.c — the builtin policy's question answering, offline and
 * deterministic (its routing is builtin_route.c). A question is parsed into
 * what it asks (when, what day, where, which object, what objects, who,
 * what was said, which steps), the order (first / last), the action class
 * (transport, put, pick up, slice, ...) and the entity, place and person it
 * names. Each step then
 * reads the visible node texts (docs/tree.md), expands the summaries that
 * mention the entity toward the first or last match in time, searches when
 * the summaries say nothing, and answers from the best matching goal or
 * event — or says it has forgotten when the evidence lies in placeholders.
 *
 * Every step reports the tokens the llm policy would spend on the same view
 * (builtin_qa_usage.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/emv.h"
#include "api/policy/builtin.h"
#include "api/policy/prompts.h"
#include "engine/engine.h"

/* ------------------------------------------------------------ the view -- */

typedef struct info {
	long parent;   /* visible parent, -1 at the top */
	size_t end;    /* one past the last node of its subtree (view order) */
	int cand;      /* a goal/event block that matches */
	int primary;   /* a candidate that is the unit of an answer */
	int smatch;    /* a summary that mentions the entity */
} info;

typedef struct state {
	const pol_qa_view *v;
	emv_question q;
	info *in;
	size_t *prim;         /* primary candidates */
	size_t n_prim;
	long best;            /* index of the best primary, -1 */
	size_t *forg;         /* placeholders where the evidence went */
	size_t n_forg;
	int final;
} state;

static const char *text_of(const pol_qa_view *v, size_t i, size_t *n)
{
	const char *t = v->nodes[i].text ? v->nodes[i].text : "";
	*n = strlen(t);
	return t;
}

static int in_date(const emv_question *q, const pol_item *it)
{
	return !q->t1 || (it->t_end >= q->t0 && it->t_start <= q->t1);
}

/* Parents, subtree ends and matches of every visible node. */
static void analyse(state *s)
{
	const pol_qa_view *v = s->v;
	long stack[80];
	int top = 0;
	for (size_t i = 0; i < v->n; i++) {
		int d = v->depth ? v->depth[i] : 0;
		if (d < 0)
			d = 0;
		while (top > 0 && (top > d || top >= 80)) {
			s->in[stack[top - 1]].end = i;
			top--;
		}
		s->in[i].parent = top > 0 ? stack[top - 1] : -1;
		s->in[i].end = v->n;
		if (top < 80)
			stack[top++] = (long)i;
		const pol_item *it = &v->nodes[i];
		if (it->forgotten || !in_date(&s->q, it))
			continue;
		size_t n;
		const char *t = text_of(v, i, &n);
		if (it->level <= 3)
			s->in[i].cand = emv_block_matches(t, n, &s->q);
		else
			s->in[i].smatch = emv_summary_matches(t, n, &s->q);
	}
	while (top > 0)
		s->in[stack[--top]].end = v->n;
}

/* A candidate goal with a matching goal below it defers to that one; a
 * candidate event inside a matching goal is part of that goal's answer. */
static int is_primary(const state *s, size_t i)
{
	const pol_qa_view *v = s->v;
	if (!s->in[i].cand)
		return 0;
	if (v->nodes[i].level == 3) {
		for (size_t j = i + 1; j < s->in[i].end; j++)
			if (s->in[j].cand && v->nodes[j].level == 3)
				return 0;
		return 1;
	}
	for (long p = s->in[i].parent; p >= 0; p = s->in[p].parent)
		if (s->in[p].cand && v->nodes[p].level == 3)
			return 0;
	return 1;
}

/* Is a later than b in the question's order (first: earlier is "better")? */
static int better(const emv_question *q, const pol_item *a, const pol_item *b)
{
	if (q->order == QO_FIRST)
		return a->t_start < b->t_start;
	return a->t_start >= b->t_start;
}

/* Could unexplored node i hold a match better than the best so far? */
static int could_beat(const state *s, size_t i)
{
	if (s->best < 0 || s->q.order == QO_ALL)
		return 1;
	const pol_item *it = &s->v->nodes[i], *b = &s->v->nodes[s->best];
	return s->q.order == QO_FIRST ? it->t_start < b->t_start : it->t_end > b->t_start;
}

/* Placeholders under a summary that mentions the entity when nothing
 * visible under that summary matches: there the evidence was forgotten. */
static void find_forgotten(state *s)
{
	const pol_qa_view *v = s->v;
	for (size_t i = 0; i < v->n; i++) {
		if (!v->nodes[i].forgotten)
			continue;
		/* inside a matching goal, a forgotten event is a detail of that
		 * goal, which still answers */
		long a = s->in[i].parent;
		while (a >= 0 && !s->in[a].smatch && !s->in[a].cand)
			a = s->in[a].parent;
		if (a < 0 || s->in[a].cand)
			continue;
		int any = 0;
		for (size_t j = (size_t)a + 1; j < s->in[a].end && !any; j++)
			any = s->in[j].cand;
		if (!any)
			s->forg[s->n_forg++] = i;
	}
}

/* ----------------------------------------------------------- the steps -- */

static int set_text(pol_qa_action *out, const char *t, h2emv_error *err)
{
	out->text = strdup(t);
	return out->text ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
}

static int add_id(pol_qa_action *out, uint64_t id, size_t cap)
{
	for (size_t i = 0; i < out->n_ids; i++)
		if (out->ids[i] == id)
			return 0;
	if (out->n_ids < cap)
		out->ids[out->n_ids++] = id;
	return 0;
}

/* Pick up to k frontier nodes, most promising first: the latest (or the
 * earliest for "first" questions). */
static size_t pick_extremes(size_t *idx, size_t n, size_t k, const pol_qa_view *v, int first)
{
	size_t picked = 0;
	for (size_t r = 0; r < k && r < n; r++) {
		size_t bi = r;
		for (size_t j = r + 1; j < n; j++) {
			const pol_item *a = &v->nodes[idx[j]], *b = &v->nodes[idx[bi]];
			if (first ? a->t_start < b->t_start : a->t_end > b->t_end)
				bi = j;
		}
		size_t t = idx[r];
		idx[r] = idx[bi];
		idx[bi] = t;
		picked++;
	}
	return picked;
}

/* Did an earlier step (a history line "round N: <step> ...") do this? */
static int history_has(const pol_qa_view *v, const char *step)
{
	size_t n = strlen(step);
	for (const char *p = v->history; p && (p = strstr(p, ": ")); p += 2)
		if (!strncmp(p + 2, step, n))
			return 1;
	return 0;
}

/* Did an earlier step search the whole view (not a time window)? */
static int searched_all(const pol_qa_view *v)
{
	const char *mark = ": " EMV_HIST_SEARCH;
	for (const char *p = v->history; p && (p = strstr(p, mark)); p += strlen(mark)) {
		const char *eol = strchr(p, '\n'), *w = strstr(p, EMV_HIST_WITHIN);
		const char *arrow = strstr(p, " -> ");
		const char *end = arrow && (!eol || arrow < eol) ? arrow : eol;
		if (!w || (end && w > end))
			return 1;
	}
	return 0;
}

/* Did an earlier step search this window for this query already? */
static int searched_window(const pol_qa_view *v, const char *query, const pol_item *it)
{
	char t0[PR_TIME_MAX], t1[PR_TIME_MAX], line[512];
	snprintf(line, sizeof line, EMV_HIST_SEARCH "%s\"" EMV_HIST_WITHIN "%s - %s", query,
	         pr_time_point(t0, sizeof t0, it->t_start), pr_time_point(t1, sizeof t1, it->t_end));
	return v->history && strstr(v->history, line) != NULL;
}

/* What to search for when the question names nothing: the label of the
 * block lines that answer it (docs/tree.md), so "who did you meet last"
 * lands on the last goal with a Persons line. */
static const char *label_query(const emv_question *q)
{
	if (q->query[0])
		return q->query;
	if (q->kind == QK_WHO || q->act == ACT_MEET)
		return "persons";
	if (q->kind == QK_SAID || q->act == ACT_SAY)
		return "speech";
	if (q->kind == QK_OBJECTS || q->act == ACT_SEE)
		return "objects";
	return "goal";
}

/* Does forgotten evidence (find_forgotten) come before `it` in the
 * question's order? Then `it` cannot hold the first (or last) time: that
 * lies in the forgotten part, and exploring `it` would only cost tokens. */
static int behind_forgotten(const state *s, const pol_item *it)
{
	if (s->q.order == QO_ALL)
		return 0;
	for (size_t j = 0; j < s->n_forg; j++) {
		const pol_item *p = &s->v->nodes[s->forg[j]];
		if (s->q.order == QO_FIRST ? p->t_end < it->t_start : p->t_start > it->t_end)
			return 1;
	}
	return 0;
}

/* The next exploring action, or 0 when it is time to answer. */
static int explore(state *s, pol_qa_action *out, h2emv_error *err)
{
	const pol_qa_view *v = s->v;
	const emv_question *q = &s->q;
	if (q->t1 && !q->n_ent && !q->n_person && !history_has(v, EMV_HIST_RANGE)) {
		out->kind = POL_QA_RANGE;
		out->t0 = q->t0;
		out->t1 = q->t1;
		return 1;
	}
	size_t *fr = malloc((v->n ? v->n : 1) * sizeof *fr), nf = 0;
	if (!fr)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (size_t i = 0; i < v->n; i++) {
		const pol_item *it = &v->nodes[i];
		if (it->forgotten || it->level <= 3 || !v->has_children[i] || v->expanded[i])
			continue;
		if (s->in[i].smatch && could_beat(s, i) && !behind_forgotten(s, it))
			fr[nf++] = i;
	}
	size_t k = q->order == QO_ALL ? 6 : 3;
	nf = pick_extremes(fr, nf, k, v, q->order == QO_FIRST);
	/* the most promising summary (the newest, or the oldest for "first")
	 * is far above the goals: search inside it and land on its newest and
	 * oldest matches in one step */
	const char *query = label_query(q);
	if (nf && v->nodes[fr[0]].level >= 5 &&
	    !searched_window(v, query, &v->nodes[fr[0]])) {
		out->kind = POL_QA_SEARCH;
		out->t0 = v->nodes[fr[0]].t_start;
		out->t1 = v->nodes[fr[0]].t_end;
		free(fr);
		return set_text(out, query, err) ? -1 : 1;
	}
	/* "when": the best goal's events give the moment it began */
	int want_events = (q->kind == QK_WHEN || q->kind == QK_GENERIC) && s->best >= 0 &&
	                  v->nodes[s->best].level == 3 && v->has_children[s->best] &&
	                  !v->expanded[s->best];
	if (want_events)
		fr[nf++] = (size_t)s->best;
	if (nf) {
		out->kind = POL_QA_EXPAND;
		out->ids = malloc(nf * sizeof *out->ids);
		if (!out->ids) {
			free(fr);
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
		for (size_t j = 0; j < nf; j++)
			add_id(out, v->nodes[fr[j]].id, nf);
		free(fr);
		return 1;
	}
	free(fr);
	/* a search of everything could only find later (earlier, for "last")
	 * matches than forgotten evidence already in view */
	int settled = s->n_forg && q->order != QO_ALL;
	if (s->n_prim == 0 && !settled && q->query[0] && !searched_all(v)) {
		int closed = 0;
		for (size_t i = 0; i < v->n && !closed; i++)
			closed = !v->nodes[i].forgotten && v->has_children[i] && !v->expanded[i] &&
			         v->nodes[i].level >= 3;
		if (closed) {
			out->kind = POL_QA_SEARCH;
			return set_text(out, q->query, err) ? -1 : 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ answering -- */

/* The moment a goal began doing what was asked: its first matching event
 * when the goal is open, else the goal's own start. */
static size_t moment(const state *s, size_t b)
{
	const pol_qa_view *v = s->v;
	size_t best = b;
	if (v->nodes[b].level != 3)
		return b;
	for (size_t j = b + 1; j < s->in[b].end; j++)
		if (s->in[j].cand && v->nodes[j].level < 3 &&
		    (best == b || v->nodes[j].t_start < v->nodes[best].t_start))
			best = j;
	return best;
}

/* The first line's value: "Goal: X" -> "X". */
static size_t first_line(const char *t, const char **out)
{
	if (!t)
		t = "";
	const char *nl = strchr(t, '\n');
	size_t n = nl ? (size_t)(nl - t) : strlen(t);
	const char *colon = memchr(t, ':', n);
	if (colon && colon + 2 <= t + n && colon[1] == ' ' && colon - t < 12) {
		n -= (size_t)(colon + 2 - t);
		t = colon + 2;
	}
	*out = t;
	return n;
}

/* Of a long line (free text), the sentence that names what was asked
 * about, else the first; without its closing full stop. */
static size_t key_sentence(const char **line, size_t n, const emv_question *q)
{
	const char *t = *line, *pick = NULL;
	size_t pick_n = 0;
	for (size_t s0 = 0; s0 < n;) {
		const char *dot = memchr(t + s0, '.', n - s0);
		size_t s1 = dot ? (size_t)(dot - t) : n;
		while (s0 < s1 && t[s0] == ' ')
			s0++;
		if (!pick || (q->n_ent && emv_mentions(t + s0, s1 - s0, q->ent, q->n_ent) &&
		              !emv_mentions(pick, pick_n, q->ent, q->n_ent))) {
			pick = t + s0;
			pick_n = s1 - s0;
		}
		s0 = s1 + 1;
	}
	if (!pick)
		return 0;
	*line = pick;
	return pick_n;
}

/* "At 2024/09/23, 10:03:55: Place(knife_0, countertop_0)." or, for a day
 * asked about as a whole, what happened that day. */
static void say_generic(pr_str *a, const state *s, pol_qa_action *out, size_t cap)
{
	const pol_qa_view *v = s->v;
	char when[40];
	const char *line;
	if (s->q.t1 && !s->q.n_ent && !s->q.n_person) {
		pr_str_addf(a, "On %s I did: ", emv_fmt_date(when, sizeof when, s->q.t0));
		size_t shown = 0;
		for (size_t k = 0; k < s->n_prim && shown < 5; k++, shown++) {
			size_t n = first_line(v->nodes[s->prim[k]].text, &line);
			pr_str_adds(a, shown ? "; " : "");
			pr_str_add(a, line, n);
			add_id(out, v->nodes[s->prim[k]].id, cap);
		}
		if (s->n_prim > shown)
			pr_str_addf(a, "; and %zu more", s->n_prim - shown);
		pr_str_adds(a, ".");
		return;
	}
	size_t b = (size_t)s->best, n = first_line(v->nodes[b].text, &line);
	if (line == v->nodes[b].text) /* no "Goal: " label: free text */
		n = key_sentence(&line, n, &s->q);
	pr_str_addf(a, "At %s: ", emv_fmt_datetime(when, sizeof when, v->nodes[moment(s, b)].t_start));
	pr_str_add(a, line, n);
	pr_str_adds(a, ".");
}

static int compose(state *s, pol_qa_action *out, h2emv_error *err)
{
	const pol_qa_view *v = s->v;
	const emv_question *q = &s->q;
	size_t b = (size_t)s->best, n, cap = 16;
	const char *t = text_of(v, b, &n);
	out->kind = POL_QA_ANSWER;
	out->ids = malloc(cap * sizeof *out->ids);
	if (!out->ids)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	add_id(out, v->nodes[b].id, cap);
	pr_str a = { 0 };
	char when[40];
	int ok = 0;
	switch (q->kind) {
	case QK_WHEN: {
		size_t e = moment(s, b);
		add_id(out, v->nodes[e].id, cap);
		pr_str_addf(&a, "At %s.", emv_fmt_datetime(when, sizeof when, v->nodes[e].t_start));
		ok = 1;
		break;
	}
	case QK_DAY:
		pr_str_addf(&a, "At %s.", emv_fmt_date(when, sizeof when, v->nodes[b].t_start));
		ok = 1;
		break;
	case QK_WHERE:
		ok = emv_say_where(&a, t, n, q);
		break;
	case QK_OBJECTS:
		ok = emv_say_objects(&a, t, n, q);
		break;
	case QK_WHICH:
		ok = emv_say_which(&a, t, n, q);
		break;
	case QK_WHO: {
		pr_str names = { 0 };
		for (size_t k = 0; k < s->n_prim; k++) {
			size_t i = q->order == QO_ALL ? s->prim[k] : b, tn;
			const char *tt = text_of(v, i, &tn);
			if (emv_names_add(&names, tt, tn, q))
				add_id(out, v->nodes[i].id, cap);
			if (q->order != QO_ALL)
				break;
		}
		ok = emv_say_names(&a, &names);
		a.oom |= names.oom;
		pr_str_free(&names);
		break;
	}
	case QK_SAID:
		ok = emv_say_said(&a, t, n, q);
		break;
	case QK_STEPS:
		ok = emv_say_steps(&a, t, n, q);
		break;
	default:
		break;
	}
	if (!ok) {
		pr_str_free(&a);
		a.oom = 0;
		say_generic(&a, s, out, cap);
	}
	out->text = pr_str_take(&a);
	pr_str_free(&a);
	return out->text ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
}

static int answer_forgotten(state *s, pol_qa_action *out, h2emv_error *err)
{
	const pol_qa_view *v = s->v;
	size_t cap = 8;
	out->kind = POL_QA_ANSWER;
	out->forgotten = 1;
	out->ids = malloc(cap * sizeof *out->ids);
	if (!out->ids)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (s->n_forg == 0)
		for (size_t i = 0; i < v->n; i++)
			if (v->nodes[i].forgotten)
				s->forg[s->n_forg++] = i;
	/* the placeholders nearest the end the question looks at */
	for (size_t j = 0; j < s->n_forg && out->n_ids < cap; j++) {
		size_t i = s->q.order == QO_FIRST ? s->forg[j] : s->forg[s->n_forg - 1 - j];
		add_id(out, v->nodes[i].id, cap);
	}
	return set_text(out, "I have forgotten that.", err);
}

/* Does forgotten time lie beyond the best match, in the question's order? */
static int forgotten_beyond(const state *s)
{
	const pol_qa_view *v = s->v;
	if (s->q.order == QO_ALL)
		return 0;
	const pol_item *b = &v->nodes[s->best];
	for (size_t j = 0; j < s->n_forg; j++) {
		const pol_item *p = &v->nodes[s->forg[j]];
		if (s->q.order == QO_FIRST ? p->t_end < b->t_start : p->t_start > b->t_start)
			return 1;
	}
	return 0;
}

static int decide(state *s, pol_qa_action *out, h2emv_error *err)
{
	const pol_qa_view *v = s->v;
	for (size_t i = 0; i < v->n; i++) {
		s->in[i].primary = is_primary(s, i);
		if (!s->in[i].primary)
			continue;
		s->prim[s->n_prim++] = i;
		if (s->best < 0 || better(&s->q, &v->nodes[i], &v->nodes[s->best]))
			s->best = (long)i;
	}
	find_forgotten(s);
	if (!s->final) {
		int rc = explore(s, out, err);
		if (rc != 0)
			return rc < 0 ? rc : H2EMV_OK;
	}
	int any_placeholder = 0;
	for (size_t i = 0; i < v->n && !any_placeholder; i++)
		any_placeholder = v->nodes[i].forgotten;
	if (s->best >= 0 && !forgotten_beyond(s))
		return compose(s, out, err);
	if (s->n_forg || any_placeholder)
		return answer_forgotten(s, out, err);
	out->kind = POL_QA_ANSWER;
	return set_text(out, "I could not find that in my memory.", err);
}

/* ------------------------------------------------------------ the entry -- */

int pol_builtin_qa_step(void *ctx, const pol_qa_view *v, pol_qa_action *out, pol_usage *u,
                        h2emv_error *err)
{
	(void)ctx;
	if (!v || !out || (v->n && (!v->nodes || !v->has_children || !v->expanded)))
		return eng_fail(err, H2EMV_EINVAL, "qa step: bad view");
	memset(out, 0, sizeof *out);
	state s = { 0 };
	s.v = v;
	s.best = -1;
	s.final = v->round + 1 >= v->max_rounds;
	emv_question_parse(&s.q, v->question ? v->question : "", v->now);
	size_t n = v->n ? v->n : 1;
	s.in = calloc(n, sizeof *s.in);
	s.prim = malloc(n * sizeof *s.prim);
	s.forg = malloc(n * sizeof *s.forg);
	int rc = s.in && s.prim && s.forg ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc == H2EMV_OK) {
		analyse(&s);
		rc = decide(&s, out, err);
	}
	free(s.in);
	free(s.prim);
	free(s.forg);
	if (rc == H2EMV_OK)
		rc = bi_qa_usage(v, out, u, err);
	if (rc)
		pol_qa_action_free(out);
	return rc;
}
