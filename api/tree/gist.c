/*
 * gist.c — salient gists (gist.h): the salience of a fact, the facts a
 * forgotten node keeps within a byte budget, and the outcome sentence a
 * summary says of its children's facts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/tree/gist.h"
#include "api/base/lex.h"
#include "api/config/profile.h"
#include "api/base/utf8.h"

/* ---------------------------------------------------------- salience -- */

/* Is f->v[i] the last move of its object (nothing later names it with a
 * destination or a recipient)? Where the object ended. */
static int last_move(const facts *f, size_t i)
{
	const fact *x = &f->v[i];
	for (size_t j = 0; j < f->n; j++) {
		const fact *y = &f->v[j];
		if (j != i && y->type == FT_ACT && y->s[FS_OBJ] && (y->s[FS_DST] || y->s[FS_WHO]) &&
		    !strcmp(y->s[FS_OBJ], x->s[FS_OBJ]) && y->t1 > x->t1)
			return 0;
	}
	return 1;
}

static int failed(const fact *x)
{
	return (x->type == FT_ACT || x->type == FT_TASK) &&
	       (x->status == FST_FAILED || x->status == FST_ABORTED);
}

static int moved(const fact *x)
{
	return x->type == FT_ACT && x->s[FS_OBJ] && (x->s[FS_DST] || x->s[FS_WHO]);
}

int gist_salience(const facts *f, size_t i)
{
	const fact *x = &f->v[i];
	if (failed(x))
		return 6;
	if (x->type == FT_PERSON)
		return 5;
	if (x->type == FT_SPEECH)
		return x->s[FS_NAME] && profile_is_self(NULL, x->s[FS_NAME]) ? 2 : 5;
	if (moved(x))
		return last_move(f, i) ? 5 : 4;
	if (x->type == FT_TASK || x->type == FT_NOTE)
		return 4;
	if (x->type == FT_ACT && (x->s[FS_OBJ] || x->s[FS_WHO]))
		return 3;
	return x->type == FT_PLACE ? 2 : 1;
}

/* ----------------------------------------------------------- selection -- */

size_t gist_fact_bytes(const fact *x)
{
	/* the array head, three small ints, the count, three int64 times,
	 * and each slot as nil or a str with its head */
	size_t k = 1 + 3 * 2 + 5 + 3 * 9;
	for (int i = 0; i < FS_N; i++)
		k += x->s[i] ? 5 + strlen(x->s[i]) : 1;
	return k;
}

typedef struct rank {
	int sal;
	size_t i;
	int64_t t0;
} rank;

static int by_salience(const void *pa, const void *pb)
{
	const rank *a = pa, *b = pb;
	if (a->sal != b->sal)
		return b->sal - a->sal;
	if (a->t0 != b->t0)
		return a->t0 < b->t0 ? -1 : 1; /* the earlier first */
	return a->i < b->i ? -1 : a->i > b->i;
}

int gist_select(facts *out, const facts *pool, size_t budget)
{
	if (!pool->n)
		return H2EMV_OK;
	rank *r = malloc(pool->n * sizeof *r);
	char *take = calloc(pool->n, 1);
	int rc = r && take ? H2EMV_OK : H2EMV_ENOMEM;
	for (size_t i = 0; !rc && i < pool->n; i++)
		r[i] = (rank){ gist_salience(pool, i), i, pool->v[i].t0 };
	if (!rc)
		qsort(r, pool->n, sizeof *r, by_salience);
	size_t used = 0;
	for (size_t k = 0; !rc && k < pool->n; k++) {
		size_t sz = gist_fact_bytes(&pool->v[r[k].i]);
		if (used + sz <= budget) {
			used += sz;
			take[r[k].i] = 1;
		}
	}
	for (size_t i = 0; !rc && i < pool->n; i++)
		if (take[i]) {
			facts one = { &pool->v[i], 1, 1, 0 };
			rc = facts_merge(out, &one, SIZE_MAX);
		}
	free(r);
	free(take);
	return rc;
}

/* ------------------------------------------------------------ sentence -- */

/* Text appended with its first failure kept (out of memory). */
typedef struct sink {
	eng_buf *b;
	int oom;
} sink;

static void add_s(sink *b, const char *s)
{
	if (!b->oom && eng_buf_append(b->b, s, strlen(s)))
		b->oom = 1;
}

/* An object or place as displayed ("CounterTop_1": "the counter top"); a
 * person (no article) as named. */
static void add_thing(sink *b, const char *lead, const char *id, int article)
{
	char d[160];
	if (!article || !lex_display(d, sizeof d, id, strlen(id)) || !d[0]) {
		/* as written ("éé…" has no display form), cut between characters */
		size_t n = strlen(id);
		if (n >= sizeof d)
			n = utf8_cut(id, sizeof d - 1);
		memcpy(d, id, n);
		d[n] = 0;
	}
	add_s(b, lead);
	if (article && !(d[0] >= '0' && d[0] <= '9'))
		add_s(b, "the ");
	add_s(b, d);
}

/* One clause for x, occurring `count` times; `said` the verb already in
 * the past tense (NULL: from the fact's lemma). */
static void clause(sink *b, const fact *x, uint32_t count, const char *said)
{
	char verb[96];
	const char *v = x->s[FS_VERB];
	if (said && !failed(x)) {
		add_s(b, said);
	} else if (x->type == FT_TASK) {
		add_s(b, failed(x) ? "could not finish the task '" : "finished the task '");
		add_s(b, x->s[FS_NAME] ? x->s[FS_NAME] : "");
		add_s(b, "'");
	} else if (!v || !*v) {
		add_s(b, failed(x) ? "failed at " : "did ");
		add_s(b, x->s[FS_NAME] ? x->s[FS_NAME] : "something");
	} else {
		if (failed(x))
			snprintf(verb, sizeof verb, "could not %s", v);
		else
			lex_past(verb, sizeof verb, v);
		add_s(b, verb);
	}
	if (x->type == FT_ACT && x->s[FS_OBJ])
		add_thing(b, " ", x->s[FS_OBJ], 1);
	if (x->type == FT_ACT && x->s[FS_SRC])
		add_thing(b, " from ", x->s[FS_SRC], 1);
	if (x->type == FT_ACT && x->s[FS_DST])
		add_thing(b, " to ", x->s[FS_DST], 1);
	if (x->type == FT_ACT && x->s[FS_WHO])
		add_thing(b, x->s[FS_DST] || !x->s[FS_OBJ] ? " with " : " to ", x->s[FS_WHO], 0);
	if (count == 2) {
		add_s(b, " twice");
	} else if (count > 2) {
		char c[32];
		snprintf(c, sizeof c, " %u times", count);
		add_s(b, c);
	}
}

typedef struct outcome {
	const fact *f;
	uint32_t count;
	int sal, take;
} outcome;

/* Worth saying: handling an object or a person (finished, failed or of
 * unknown status), a task that failed, a trip somewhere. Looking, waiting,
 * speaking and going home are the summary's other clauses or nothing. */
static int outcome_of(const fact *x)
{
	if (x->type == FT_TASK)
		return failed(x) ? 4 : 0;
	if (x->type != FT_ACT || x->status == FST_ONGOING)
		return 0;
	switch (x->cls) {
	case LC_SEE: case LC_LOOK: case LC_WAIT: case LC_HOME: case LC_SAY: case LC_LEARN:
	case LC_SCAN: case LC_WAVE: case LC_INTRODUCE:
		return 0;
	default:
		break;
	}
	if (x->cls == LC_GO ? !x->s[FS_DST] : !x->s[FS_OBJ] && !x->s[FS_WHO])
		return 0; /* (going: only where to) */
	return failed(x) ? 6 : moved(x) ? 5 : x->cls == LC_GO ? 2 : 3;
}

static int by_rank(const void *pa, const void *pb)
{
	const outcome *a = pa, *b = pb;
	if (a->sal != b->sal)
		return b->sal - a->sal;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->f->t0 < b->f->t0 ? -1 : a->f->t0 > b->f->t0;
}

static int by_time(const void *pa, const void *pb)
{
	const outcome *a = pa, *b = pb;
	return a->f->t0 < b->f->t0 ? -1 : a->f->t0 > b->f->t0;
}

static int by_key(const void *pa, const void *pb)
{
	const outcome *a = pa, *b = pb;
	if (a->f->key != b->f->key)
		return a->f->key < b->f->key ? -1 : 1;
	return a->f->t0 < b->f->t0 ? -1 : a->f->t0 > b->f->t0;
}

/* The outcomes among v, one per fact identity (their counts added, the
 * earliest occurrence kept). */
static size_t gather(outcome *o, const fact *const *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int sal = outcome_of(v[i]);
		if (sal)
			o[k++] = (outcome){ v[i], v[i]->count, sal, 0 };
	}
	qsort(o, k, sizeof *o, by_key);
	size_t j = 0;
	for (size_t i = 0; i < k; i++) {
		if (j && o[j - 1].f->key == o[i].f->key)
			o[j - 1].count += o[i].count;
		else
			o[j++] = o[i];
	}
	k = j;
	/* a failed task is said only when no failed action says why */
	int why = 0;
	for (size_t i = 0; i < k; i++)
		why |= o[i].f->type == FT_ACT && failed(o[i].f);
	j = 0;
	for (size_t i = 0; i < k; i++)
		if (!(why && o[i].f->type == FT_TASK))
			o[j++] = o[i];
	return j;
}

int gist_sentence(eng_buf *b, const fact *const *v, size_t n, size_t cap)
{
	outcome *o = calloc(n ? n : 1, sizeof *o);
	if (!o)
		return -1;
	size_t k = gather(o, v, n);
	qsort(o, k, sizeof *o, by_rank);
	/* the best that fit, measured one by one until the room is gone */
	size_t used = 0;
	int said = 0, oom = 0;
	eng_buf t = { 0 };
	for (size_t i = 0; i < k && used + 12 < cap; i++) {
		t.len = 0;
		sink ts = { &t, 0 };
		clause(&ts, o[i].f, o[i].count, NULL);
		oom |= ts.oom;
		if (used + t.len + (said ? 2 : 0) <= cap) {
			used += t.len + (said ? 2 : 0);
			o[i].take = 1;
			said++;
		}
	}
	eng_buf_free(&t);
	qsort(o, k, sizeof *o, by_time);
	sink sk = { b, oom };
	int first = 1;
	for (size_t i = 0; i < k; i++)
		if (o[i].take) {
			if (!first)
				add_s(&sk, "; ");
			clause(&sk, o[i].f, o[i].count, NULL);
			first = 0;
		}
	free(o);
	return sk.oom ? -1 : said;
}

int gist_clause(eng_buf *b, const fact *x, uint32_t count, const char *verb)
{
	sink s = { b, 0 };
	clause(&s, x, count, verb);
	return s.oom ? -1 : 0;
}
