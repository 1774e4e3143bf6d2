/*
 * recall_pick.c — from candidates to the one or few an answer names
 * (recall_internal.h): the shortlist, the pick by order, and the small
 * pieces answers are written with (times, places, lists, evidence).
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

/* ------------------------------------------------------------ answering -- */

char *fmt_dt(char *buf, size_t cap, int64_t t)
{
	return emv_fmt_datetime(buf, cap, t);
}

const char *weekday_name(int64_t t)
{
	static const char *const d[] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
		                             "Friday", "Saturday" };
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	gmtime_r(&s, &tm);
	return d[tm.tm_wday];
}

void add_display(pr_str *b, const char *id)
{
	char d[200];
	if (lex_display(d, sizeof d, id, strlen(id)))
		pr_str_adds(b, d);
	else
		pr_str_adds(b, id);
}

/* "Which tote did you bring?" — "The tote" says nothing: when the short
 * form of a name is only a word the question used, the name is shown whole
 * ("tote 5"). */
void add_display_for(pr_str *b, const rquestion *q, const char *id)
{
	char d[200];
	if (!lex_display(d, sizeof d, id, strlen(id))) {
		pr_str_adds(b, id);
		return;
	}
	int asked = !strchr(d, ' ');
	if (asked) {
		lex_word w[1];
		asked = lex_split(d, strlen(d), w, 1) == 1;
		int named = 0;
		for (size_t i = 0; asked && i < q->n_term && !named; i++)
			named = !strcmp(q->term[i].stem, w[0].stem);
		asked = named;
	}
	if (!asked || !strcmp(d, id)) {
		pr_str_adds(b, d);
		return;
	}
	for (const char *p = id; *p; p++) {
		char ch = *p == '_' ? ' ' : *p;
		pr_str_add(b, &ch, 1);
	}
}

int cmp_time_asc(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->f->t0 != y->f->t0)
		return (x->f->t0 > y->f->t0) - (x->f->t0 < y->f->t0);
	return x->coarse - y->coarse; /* at the same time, the finer first */
}

/* The candidates worth answering from: the best score (fine evidence
 * before coarse), and all within 75% of it; sorted by time. Returns how
 * many, moved to the front. */
size_t shortlist(rctx *x, int mix)
{
	double best = 0;
	int fine = 0, most = 0;
	for (size_t i = 0; i < x->n; i++)
		fine |= !x->c[i].coarse;
	/* lists take a summary's gist only when nothing finer is left (its
	 * counts include its live children's); one answer may come from it */
	int only_fine = fine && !mix;
	for (size_t i = 0; i < x->n; i++)
		if ((!only_fine || !x->c[i].coarse) && x->c[i].hits > most)
			most = x->c[i].hits;
	for (size_t i = 0; i < x->n; i++)
		if ((!only_fine || !x->c[i].coarse) && x->c[i].hits == most && x->c[i].score > best)
			best = x->c[i].score;
	size_t k = 0;
	for (size_t i = 0; i < x->n; i++)
		if ((!only_fine || !x->c[i].coarse) && x->c[i].hits == most &&
		    x->c[i].score >= best * 0.85) {
			cand t = x->c[k];
			x->c[k++] = x->c[i];
			x->c[i] = t;
		}
	if (k)
		qsort(x->c, k, sizeof *x->c, cmp_time_asc);
	return k;
}

/* The one candidate the order asks for among the first k. */
const cand *pick(rctx *x, size_t k)
{
	if (!k)
		return NULL;
	if (x->q->order == RO_FIRST) {
		/* the first in the scope: a summary's merged fact whose first
		 * occurrence lies before the scope ("the first time on Saturday",
		 * and it began on Friday) is no first time there */
		for (size_t i = 0; x->q->t1 && i < k; i++)
			if (x->c[i].f->t0 >= x->q->t0)
				return &x->c[i];
		return &x->c[0];
	}
	if (x->q->order == RO_NTH) {
		/* the n-th occurrence: the n-th goal that holds one (a goal is one
		 * run of a skill, or one interaction) */
		/* count starts: the runs seen starting when there are any, each
		 * start once */
		int starts = 0;
		for (size_t i = 0; i < k; i++)
			starts |= x->c[i].f->status == FST_ONGOING;
		size_t seen = 0;
		int64_t last = 0;
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			if (starts && f->status != FST_ONGOING && f->status != FST_NONE)
				continue;
			if (seen && f->t0 - last < 60 * 1000000LL)
				continue; /* nested skills of one run start together */
			last = f->t0;
			seen += f->count >= 2 && f->t1 - f->t0 >= 60 * 1000000LL ? 2 : 1;
			if (seen >= (size_t)x->q->nth) {
				x->nth_second = f->count >= 2 && seen == (size_t)x->q->nth;
				return &x->c[i];
			}
			if (f->count >= 2)
				last = f->t1;
		}
		return NULL;
	}
	const cand *b = &x->c[0];
	for (size_t i = 1; i < k; i++)
		if (x->c[i].f->t1 > b->f->t1 ||
		    (x->c[i].f->t1 == b->f->t1 && (b->coarse || !x->c[i].coarse) &&
		     !(x->c[i].f->type == FT_TASK && b->f->type != FT_TASK)))
			b = &x->c[i];
	return b;
}

/* The best candidate for the question `a` asked in place of `q` (an
 * anchor moment, a stand-in question): candidates collected for `a`, the
 * context's question set back to `q`; *out NULL when none. */
int pick_for(const cand **out, rctx *x, const rquestion *a, const rquestion *q)
{
	*out = NULL;
	int rc = collect(x, a);
	x->q = q;
	if (rc)
		return rc;
	size_t k = shortlist(x, 1);
	rctx tmp = *x;
	tmp.q = a;
	*out = pick(&tmp, k);
	return H2EMV_OK;
}

/* The time of the occurrence the order asks for. */
int64_t when_of(const rctx *x, const fact *f)
{
	if (x->q->order == RO_NTH)
		return x->nth_second ? f->t1 : f->t0;
	return x->q->order == RO_FIRST ? f->t0 : f->t1;
}

int render_text(eng_buf *r, const fact *f)
{
	memset(r, 0, sizeof *r);
	facts_render_one(r, f);
	if (!r->data || eng_buf_append(r, "", 1)) {
		eng_buf_free(r);
		return 0;
	}
	return 1;
}

int add_evidence(h2emv_answer *a, h2emv_ref r)
{
	for (size_t i = 0; i < a->n_evidence; i++)
		if (a->evidence[i].id == r.id)
			return 0;
	h2emv_ref *e = realloc(a->evidence, (a->n_evidence + 1) * sizeof *e);
	if (!e)
		return -1;
	a->evidence = e;
	a->evidence[a->n_evidence++] = r;
	return 0;
}

void say_where(pr_str *b, const rctx *x, const fact *f)
{
	const char *w = NULL;
	if (is_act(f)) {
		if (x->q->kind == RQ_FROM)
			w = f->s[FS_SRC] ? f->s[FS_SRC] : f->s[FS_PLACE];
		else
			w = f->s[FS_DST] ? f->s[FS_DST] : f->s[FS_PLACE];
		if (!w && f->cls == LC_GO)
			w = f->s[FS_OBJ];
		if (!w)
			w = f->s[FS_SRC];
	} else {
		w = f->s[FS_PLACE];
	}
	if (!w)
		return;
	pr_str_adds(b, x->q->kind == RQ_FROM ? "From the " : "At the ");
	add_display(b, w);
	if (f->s[FS_WHO] && is_act(f) && x->q->kind != RQ_FROM) {
		pr_str_adds(b, ", to ");
		pr_str_adds(b, f->s[FS_WHO]);
	}
	char dt[40];
	pr_str_adds(b, " (");
	pr_str_adds(b, fmt_dt(dt, sizeof dt, when_of(x, f)));
	pr_str_adds(b, ").");
}

void list_add(pr_str *b, size_t *n, const char *s)
{
	if (*n)
		pr_str_adds(b, ", ");
	pr_str_adds(b, s);
	(*n)++;
}

/* Names already listed: NUL-separated. */
int listed(const pr_str *seen, const char *s)
{
	for (const char *p = seen->s; p && p < seen->s + seen->len; p += strlen(p) + 1)
		if (!strcasecmp(p, s))
			return 1;
	return 0;
}

void remember(pr_str *seen, const char *s)
{
	pr_str_add(seen, s, strlen(s) + 1);
}

/* The things the robot said it saw ("I can see an apple tea, a nesquik,
 * and a  milk"), each once, without their articles: "apple tea, nesquik,
 * milk". */
void seen_items(pr_str *b, pr_str *seen, size_t *n, const fact *f)
{
	char said[400];
	if (!seen_said(f->s[FS_TEXT], said, sizeof said))
		return;
	for (char *p = said; p && *p && *n < LIST_MAX;) {
		char *e = strchr(p, ',');
		if (e)
			*e = 0;
		while (*p == ' ')
			p++;
		static const char *const skip[] = { "and ", "a ", "an ", "the ", "some ", NULL };
		for (int again = 1; again;) {
			again = 0;
			for (const char *const *w = skip; *w; w++)
				if (!strncasecmp(p, *w, strlen(*w))) {
					p += strlen(*w);
					again = 1;
				}
		}
		char *and = strstr(p, " and "); /* "a cup and a plate" */
		if (and && !e) {
			*and = 0;
			e = and + 4;
		}
		size_t len = strlen(p);
		while (len && p[len - 1] == ' ')
			p[--len] = 0;
		if (len && !listed(seen, p)) {
			remember(seen, p);
			list_add(b, n, p);
		}
		p = e ? e + 1 : NULL;
	}
}

/* Is `full` a longer name that begins with the words of `part` ("Tom
 * Becker" for "Tom")? */
int longer_name(const char *full, const char *part)
{
	size_t n = strlen(part);
	return strlen(full) > n && !strncasecmp(full, part, n) && full[n] == ' ';
}

/* A speaker or person name that names nobody in particular. */
int generic_name(const char *who)
{
	static const char *const g[] = { "user", "human", "unknown", "someone", "person",
		                         "speaker", "somebody", NULL };
	for (const char *const *p = g; *p; p++)
		if (!strcasecmp(who, *p))
			return 1;
	return 0;
}

/* The best evidence: the highest score, by the order asked among equals. */
/* "What was the reservoir level": does the record say the measure word
 * with a number ("Reservoir level 3.6 m")? */
static int says_measure(const rquestion *q, const fact *f)
{
	if (!q->value || !q->measure[0] || !f->s[FS_TEXT])
		return 0;
	lex_word w[48];
	size_t n = lex_split(f->s[FS_TEXT], strlen(f->s[FS_TEXT]), w, 48);
	int named = 0, number = 0;
	for (size_t i = 0; i < n && i < 48; i++) {
		named |= !strcmp(w[i].stem, q->measure);
		number |= w[i].digit;
	}
	return named && number;
}

const cand *best_evidence(const rctx *x)
{
	const cand *c = NULL;
	int cm = 0;
	for (size_t i = 0; i < x->n; i++) {
		const cand *d = &x->c[i];
		int dm = says_measure(x->q, d->f);
		if (c && dm != cm) {
			if (dm)
				c = d, cm = dm;
			continue;
		}
		cm = dm;
		if (!c || d->score > c->score + 1e-9)
			c = d;
		else if (d->score > c->score - 1e-9 &&
		         (x->q->order == RO_FIRST ? d->f->t0 < c->f->t0 : d->f->t1 > c->f->t1))
			c = d;
	}
	return c;
}
