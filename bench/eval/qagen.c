/*
 * qagen.c — the second half of question generation: pair the first and the
 * last occurrence of each kind, place the two questions in time, phrase
 * them from the templates, and pick a seeded, varied subset (qagen.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "bench/eval/eval_util.h"
#include "bench/eval/qagen_int.h"

#define DAY (24LL * 3600 * 1000000)
/* Round-2 questions come within this window after their earliest moment
 * when the history goes on that long (then anywhere later). */
#define WINDOW (3 * DAY)

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void qg_fmt_time(char *buf, size_t cap, int64_t t)
{
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	gmtime_r(&s, &tm);
	snprintf(buf, cap, "%04d/%02d/%02d, %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
	         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

void qg_fmt_day(char *buf, size_t cap, int64_t t)
{
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	gmtime_r(&s, &tm);
	snprintf(buf, cap, "%04d/%02d/%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

/* "pick up" for Pickup, else the action's words in lower case. */
static void verb_of(char *out, size_t cap, const char *action)
{
	if (!strcasecmp(action, "Pickup"))
		snprintf(out, cap, "pick up");
	else
		qg_human(out, cap, action);
}

static const char *article(const char *w)
{
	return strchr("aeiou", w[0]) && w[0] ? "an" : "a";
}

/* ------------------------------------------------------------ phrasing -- */

typedef struct phrased {
	char q[512], truth[320], fb[512];
} phrased;

/* Phrase a question about occurrence o; 0 when the template does not
 * apply to it (a task without a first step). */
static int phrase(phrased *p, const char *tmpl, const qg_occ *o, int round)
{
	const char *F = round == 1 ? "first" : "last";
	char a[160], b[160], tb[64];
	qg_human(a, sizeof a, o->a);
	qg_human(b, sizeof b, o->b);
	qg_fmt_time(tb, sizeof tb, o->t0);
	if (!strcmp(tmpl, "act-when")) {
		char v[128];
		verb_of(v, sizeof v, o->a);
		snprintf(p->q, sizeof p->q, "When did you %s %s %s %s?", F, v, article(b), b);
		snprintf(p->truth, sizeof p->truth, "At %s", tb);
		snprintf(p->fb, sizeof p->fb, "You should always remember when you %s %s %s.", v,
		         article(b), b);
	} else if (!strcmp(tmpl, "act-objects")) {
		char v[128];
		verb_of(v, sizeof v, o->a);
		if (!o->list[0])
			return 0;
		snprintf(p->q, sizeof p->q, "What objects did you see the %s time you did %s %s %s?",
		         F, v, article(b), b);
		snprintf(p->truth, sizeof p->truth, "%s", o->list);
		snprintf(p->fb, sizeof p->fb,
		         "You should always remember which objects you see when you %s %s %s.", v,
		         article(b), b);
	} else if (!strcmp(tmpl, "place-to")) {
		snprintf(p->q, sizeof p->q, "To where did you %s transport %s %s?", F, article(a), a);
		snprintf(p->truth, sizeof p->truth, "At the %s", b);
		snprintf(p->fb, sizeof p->fb, "You should always remember to where you transport %s %s.",
		         article(a), a);
	} else if (!strcmp(tmpl, "transport-steps")) {
		if (!o->list[0])
			return 0;
		snprintf(p->q, sizeof p->q,
		         "What steps did you perform the %s time you transported %s %s?", F, article(a),
		         a);
		snprintf(p->truth, sizeof p->truth, "%s", o->list);
		snprintf(p->fb, sizeof p->fb,
		         "You should always remember the steps when you transport %s %s.", article(a), a);
	} else if (!strcmp(tmpl, "place-where")) {
		snprintf(p->q, sizeof p->q, "Where did you %s place %s %s?", F, article(a), a);
		snprintf(p->truth, sizeof p->truth, "At the %s", b);
		snprintf(p->fb, sizeof p->fb, "You should always remember where you place %s %s.",
		         article(a), a);
	} else if (!strcmp(tmpl, "transport-which")) {
		snprintf(p->q, sizeof p->q, "Which object did you %s transport to the %s?", F, b);
		snprintf(p->truth, sizeof p->truth, "The %s", a);
		snprintf(p->fb, sizeof p->fb,
		         "You should always remember which object you transport to the %s.", b);
	} else if (!strcmp(tmpl, "task-day")) {
		qg_fmt_day(tb, sizeof tb, o->t0);
		snprintf(p->q, sizeof p->q, "At what day did you %s do the task '%s'?", F, a);
		snprintf(p->truth, sizeof p->truth, "At %s", tb);
		snprintf(p->fb, sizeof p->fb,
		         "You should always remember the day when you do the task '%s'.", a);
	} else if (!strcmp(tmpl, "task-step")) {
		char act[64] = "", cls[96] = "", v[96], c[96];
		const char *bar = strchr(o->b, '|');
		if (!bar)
			return 0;
		snprintf(act, sizeof act, "%.*s", (int)(bar - o->b), o->b);
		snprintf(cls, sizeof cls, "%s", bar + 1);
		verb_of(v, sizeof v, act);
		qg_human(c, sizeof c, cls);
		if (v[0] >= 'a' && v[0] <= 'z')
			v[0] = (char)(v[0] - 'a' + 'A');
		snprintf(p->q, sizeof p->q,
		         "What was the first step you performed the %s time you did the task '%s'?", F,
		         a);
		snprintf(p->truth, sizeof p->truth, "%s the %s", v, c);
		snprintf(p->fb, sizeof p->fb,
		         "You should always remember the steps you perform for the task '%s'.", a);
	} else if (!strcmp(tmpl, "go-when")) {
		snprintf(p->q, sizeof p->q, "When did you %s go to the %s?", F, a);
		snprintf(p->truth, sizeof p->truth, "At %s", tb);
		snprintf(p->fb, sizeof p->fb, "You should always remember when you go to the %s.", a);
	} else if (!strcmp(tmpl, "person-when")) {
		snprintf(p->q, sizeof p->q, "When did you %s meet %s?", F, o->a);
		snprintf(p->truth, sizeof p->truth, "At %s", tb);
		snprintf(p->fb, sizeof p->fb, "You should always remember when you meet %s.", o->a);
	} else if (!strcmp(tmpl, "valuable-where")) {
		snprintf(p->q, sizeof p->q, "Where did you %s see the %s?", F, a);
		snprintf(p->truth, sizeof p->truth, "At the %s", b);
		snprintf(p->fb, sizeof p->fb, "You should always remember where you see the %s.", a);
	} else {
		return 0;
	}
	return 1;
}

/* --------------------------------------------------------------- pairs -- */

typedef struct cand {
	const char *tmpl;
	const qg_occ *first, *last;
	int64_t at1, at2;
	int late2;
} cand;

static int occ_cmp(const void *a, const void *b)
{
	const qg_occ *x = *(const qg_occ *const *)a, *y = *(const qg_occ *const *)b;
	int c = strcmp(x->tmpl, y->tmpl);
	if (!c)
		c = strcmp(x->key, y->key);
	if (!c)
		c = (x->t0 > y->t0) - (x->t0 < y->t0);
	return c;
}

/* First observation index with t >= x. */
static size_t lower(const qg_history *h, int64_t x)
{
	size_t lo = 0, hi = h->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (h->t[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* A random observation time in [from, until); 0 if none. */
static int64_t pick_time(const qg_history *h, int64_t from, int64_t until, uint64_t *rng)
{
	size_t a = lower(h, from), b = lower(h, until);
	if (a >= b)
		return 0;
	return h->t[a + (size_t)(mix(rng) % (b - a))];
}

static int make_cand(cand *c, const char *tmpl, const qg_occ *f, const qg_occ *l,
                     const qg_history *h, uint64_t *rng)
{
	int64_t apart = !strncmp(tmpl, "task", 4) ? 2 * DAY : DAY;
	if (l->t0 - f->t1 < apart)
		return 0;
	int64_t e1 = f->t1 + QG_DELAY;
	int64_t at1 = pick_time(h, e1, l->t0, rng);
	if (!at1)
		return 0;
	int64_t e2 = l->t1 + QG_DELAY;
	int64_t at2 = pick_time(h, e2, e2 + WINDOW, rng);
	if (!at2)
		at2 = pick_time(h, e2, INT64_MAX, rng);
	int late2 = 1; /* at an observation's time */
	if (!at2) {
		/* after the history's end: the clock is moved on to it */
		at2 = e2 + (int64_t)(mix(rng) % (uint64_t)(12 * 3600)) * 1000000;
		late2 = 0;
	}
	*c = (cand){ tmpl, f, l, at1, at2, late2 };
	return 1;
}

static const char *const TEMPLATES[] = { "act-when", "act-objects", "place-where", "place-to",
	                                 "transport-which", "transport-steps", "task-day",
	                                 "task-step", "go-when", "person-when", "valuable-where" };
#define N_TEMPLATES (sizeof TEMPLATES / sizeof TEMPLATES[0])

static int add_question(qg_set *out, const cand *c, unsigned pair, int round)
{
	phrased p;
	const qg_occ *o = round == 1 ? c->first : c->last;
	if (!phrase(&p, c->tmpl, o, round))
		return 0;
	qg_question *q = &out->q[out->n];
	memset(q, 0, sizeof *q);
	q->round = round;
	q->pair = pair;
	q->at = round == 1 ? c->at1 : c->at2;
	q->question = strdup(p.q);
	q->truth = strdup(p.truth);
	q->feedback = strdup(p.fb);
	q->kind = strdup(c->tmpl);
	q->ref_t0 = o->t0;
	q->ref_t1 = o->t1;
	q->late = round == 1 ? 1 : c->late2;
	out->n++;
	return q->question && q->truth && q->feedback && q->kind ? 0 : -1;
}

static int q_cmp(const void *a, const void *b)
{
	const qg_question *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->round != y->round)
		return x->round - y->round;
	return (int)x->pair - (int)y->pair;
}

static int collect(cand **cs, size_t *nc, const qg_scan *s, const qg_history *h, uint64_t *rng)
{
	const qg_occ **idx = malloc((s->n + 1) * sizeof *idx);
	*cs = malloc((4 * s->n + 1) * sizeof **cs);
	if (!idx || !*cs) {
		free(idx);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		idx[i] = &s->o[i];
	qsort(idx, s->n, sizeof *idx, occ_cmp);
	*nc = 0;
	for (size_t i = 0; i < s->n;) {
		size_t j = i;
		while (j < s->n && !strcmp(idx[j]->tmpl, idx[i]->tmpl) &&
		       !strcmp(idx[j]->key, idx[i]->key))
			j++;
		if (j - i >= 2) {
			const qg_occ *f = idx[i], *l = idx[j - 1];
			if (make_cand(&(*cs)[*nc], f->tmpl, f, l, h, rng))
				(*nc)++;
			/* other questions about the same occurrences */
			if (!strcmp(f->tmpl, "task-day") && f->b[0] && l->b[0] &&
			    make_cand(&(*cs)[*nc], "task-step", f, l, h, rng))
				(*nc)++;
			if (!strcmp(f->tmpl, "act-when") && f->list[0] && l->list[0] &&
			    make_cand(&(*cs)[*nc], "act-objects", f, l, h, rng))
				(*nc)++;
			if (!strcmp(f->tmpl, "place-where") &&
			    make_cand(&(*cs)[*nc], "place-to", f, l, h, rng))
				(*nc)++;
			if (!strcmp(f->tmpl, "place-where") && f->list[0] && l->list[0] &&
			    make_cand(&(*cs)[*nc], "transport-steps", f, l, h, rng))
				(*nc)++;
		}
		i = j;
	}
	free(idx);
	return 0;
}

int qg_generate(qg_set *out, const qg_history *h, unsigned pairs, uint64_t seed,
                h2emv_error *err)
{
	memset(out, 0, sizeof *out);
	if (h->n == 0 || pairs == 0)
		return H2EMV_OK;
	qg_scan s;
	int rc = qg_scan_history(&s, h, err);
	if (rc != H2EMV_OK) {
		qg_scan_free(&s);
		return rc;
	}
	uint64_t rng = seed * 0x2545f4914f6cdd1dULL + 17;
	cand *cs = NULL;
	size_t nc = 0;
	if (collect(&cs, &nc, &s, h, &rng)) {
		qg_scan_free(&s);
		return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = nc; i > 1; i--) { /* shuffle, then take round-robin by template */
		size_t k = (size_t)(mix(&rng) % i);
		cand t = cs[i - 1];
		cs[i - 1] = cs[k];
		cs[k] = t;
	}
	size_t order[N_TEMPLATES];
	for (size_t i = 0; i < N_TEMPLATES; i++)
		order[i] = i;
	for (size_t i = N_TEMPLATES; i > 1; i--) {
		size_t k = (size_t)(mix(&rng) % i), t = order[i - 1];
		order[i - 1] = order[k];
		order[k] = t;
	}
	out->q = calloc(2 * (size_t)pairs + 1, sizeof *out->q);
	char *used = calloc(nc + 1, 1);
	if (!out->q || !used) {
		free(used);
		free(cs);
		qg_scan_free(&s);
		return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	unsigned got = 0;
	for (int progress = 1; got < pairs && progress;) {
		progress = 0;
		for (size_t ti = 0; ti < N_TEMPLATES && got < pairs; ti++) {
			for (size_t i = 0; i < nc; i++) {
				if (used[i] || strcmp(cs[i].tmpl, TEMPLATES[order[ti]]))
					continue;
				used[i] = 1;
				if (add_question(out, &cs[i], got, 1) || add_question(out, &cs[i], got, 2)) {
					free(used);
					free(cs);
					qg_scan_free(&s);
					qg_set_free(out);
					return ev_fail(err, H2EMV_ENOMEM, "out of memory");
				}
				got++;
				progress = 1;
				break;
			}
		}
	}
	qsort(out->q, out->n, sizeof *out->q, q_cmp);
	free(used);
	free(cs);
	qg_scan_free(&s);
	return H2EMV_OK;
}

void qg_set_free(qg_set *s)
{
	for (size_t i = 0; s && i < s->n; i++) {
		free(s->q[i].question);
		free(s->q[i].truth);
		free(s->q[i].feedback);
		free(s->q[i].kind);
	}
	if (s) {
		free(s->q);
		s->q = NULL;
		s->n = 0;
	}
}

char *qg_set_jsonl(const qg_set *s)
{
	size_t cap = 256, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = 0;
	for (size_t i = 0; i < s->n; i++) {
		const qg_question *q = &s->q[i];
		char at[H2EMV_TIME_TEXT], r0[H2EMV_TIME_TEXT], r1[H2EMV_TIME_TEXT];
		h2emv_time_format(at, q->at, H2EMV_TIME_RFC3339);
		h2emv_time_format(r0, q->ref_t0, H2EMV_TIME_RFC3339);
		h2emv_time_format(r1, q->ref_t1, H2EMV_TIME_RFC3339);
		json_t *j = json_pack("{s:I,s:i,s:s,s:s,s:s,s:s,s:[s,s],s:s,s:b}", "pair",
		                      (json_int_t)q->pair, "round", q->round, "at", at, "question",
		                      q->question, "truth", q->truth, "feedback", q->feedback, "ref", r0,
		                      r1, "kind", q->kind, "late", q->late);
		char *line = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
		json_decref(j);
		if (!line) {
			free(out);
			return NULL;
		}
		size_t n = strlen(line);
		if (len + n + 2 > cap) {
			while (len + n + 2 > cap)
				cap *= 2;
			char *o = realloc(out, cap);
			if (!o) {
				free(line);
				free(out);
				return NULL;
			}
			out = o;
		}
		memcpy(out + len, line, n);
		len += n;
		out[len++] = '\n';
		out[len] = 0;
		free(line);
	}
	return out;
}
