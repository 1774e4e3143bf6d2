/*
 * judge_time.c — grading answers to "when" questions (a time, a day, or
 * how many days ago): the answer's times against the truth's time and the
 * ground-truth span, within the tolerances of judge.h.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/eval/judge_int.h"

#define SEC 1000000LL
#define DAY (86400 * SEC)

/* How well one answer time fits one truth time, best last. */
enum { G_MISS, G_DAYLESS, G_DAYONLY, G_NEAR, G_SUMMARY, G_EXACT };

static int64_t day_of(int64_t t)
{
	return t - ((t % DAY) + DAY) % DAY;
}

static int64_t gap(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi)
{
	return ahi < blo ? blo - ahi : alo > bhi ? alo - bhi : 0;
}

/* The truth as intervals: its written times, widened by the span when
 * there is one; or the span alone. */
static size_t truth_times(jd_work *w, jd_when *out, size_t cap)
{
	const judge_case *c = w->c;
	jd_find_whens(&w->w1, w->t.s, w->t.n, c->asked_at, 0);
	size_t k = 0;
	for (size_t i = 0; i < w->w1.n && k < cap; i++)
		if (w->w1.v[i].has_time && w->w1.v[i].day != INT64_MIN)
			out[k++] = w->w1.v[i];
	int span = c->ref_t0 || c->ref_t1;
	int64_t t0 = c->ref_t0 ? c->ref_t0 : c->ref_t1, t1 = c->ref_t1 ? c->ref_t1 : c->ref_t0;
	if (t1 < t0)
		t1 = t0;
	if (k == 1 && span) {
		if (t0 < out[0].lo)
			out[0].lo = t0;
		if (t1 > out[0].hi)
			out[0].hi = t1;
	} else if (k == 0 && span && cap) {
		jd_when s = { .lo = t0, .hi = t1, .day = day_of(t0), .has_time = 1, .prec = JD_P_SEC };
		out[k++] = s;
	}
	return k;
}

static int grade_one(const jd_work *w, const jd_when *a, const jd_when *t, int64_t *d_out)
{
	int64_t d;
	if (!a->has_time) {
		*d_out = INT64_MAX;
		return a->day >= day_of(t->lo) && a->day <= day_of(t->hi) ? G_DAYONLY : G_MISS;
	}
	if (a->day == INT64_MIN) { /* a time of day with no date */
		int64_t today = w->c->asked_at > 0 ? day_of(w->c->asked_at) : INT64_MIN;
		int64_t base = day_of(t->lo);
		d = gap(base + a->lo, base + a->hi, t->lo, t->hi);
		*d_out = d;
		if (today == base)
			goto dated;
		return d <= w->ptol ? G_DAYLESS : G_MISS;
	}
	d = gap(a->lo, a->hi, t->lo, t->hi);
	*d_out = d;
dated:
	if (d <= w->tol)
		return a->hi - a->lo <= w->ptol ? G_EXACT : G_SUMMARY;
	return d <= w->ptol ? G_NEAR : G_MISS;
}

static void say_d(char *buf, size_t cap, int64_t d)
{
	if (d == INT64_MAX)
		snprintf(buf, cap, "no time");
	else if (d < 120 * SEC)
		snprintf(buf, cap, "%lld s off", (long long)(d / SEC));
	else if (d < 3 * 3600 * SEC)
		snprintf(buf, cap, "%lld min off", (long long)(d / (60 * SEC)));
	else
		snprintf(buf, cap, "%lld h off", (long long)(d / (3600 * SEC)));
}

static int time_list(jd_work *w, const jd_when *tt, size_t k)
{
	size_t hit = 0, extra = 0, exact = 0;
	for (size_t j = 0; j < k; j++) {
		int best = G_MISS;
		for (size_t i = 0; i < w->w2.n; i++) {
			int64_t d;
			int g = grade_one(w, &w->w2.v[i], &tt[j], &d);
			best = g > best ? g : best;
		}
		hit += best >= G_DAYONLY;
		exact += best >= G_SUMMARY;
	}
	for (size_t i = 0; i < w->w2.n; i++) {
		int any = 0;
		for (size_t j = 0; j < k && !any; j++) {
			int64_t d;
			any = grade_one(w, &w->w2.v[i], &tt[j], &d) >= G_DAYLESS;
		}
		extra += !any;
	}
	int fine = jd_set_verdict(k, hit, extra, 0);
	if (fine == J_CORRECT && exact < k)
		fine = J_PARTIAL_MISSING;
	snprintf(w->why, sizeof w->why, "times: %zu of %zu found (%zu exact), %zu other", hit, k,
	         exact, extra);
	return fine;
}

int jd_grade_time(jd_work *w)
{
	jd_when tt[16];
	size_t k = truth_times(w, tt, 16);
	int year = k ? jd_year_of(tt[0].lo) : 0;
	jd_find_whens(&w->w2, w->a.s, w->a.n, w->c->asked_at, year);
	if (!k) {
		snprintf(w->why, sizeof w->why, "time: the truth names no time to compare with");
		return w->refusal && !w->w2.n ? J_NO_ANSWER : J_WRONG;
	}
	if (!w->w2.n) {
		snprintf(w->why, sizeof w->why, "time: the answer names no time");
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	}
	if (k > 1)
		return time_list(w, tt, k);
	int best = G_MISS, wrong_other = 0;
	int64_t best_d = INT64_MAX;
	for (size_t i = 0; i < w->w2.n; i++) {
		int64_t d;
		int g = grade_one(w, &w->w2.v[i], &tt[0], &d);
		if (g > best || (g == best && d < best_d))
			best = g, best_d = d;
		wrong_other |= g == G_MISS && (w->w2.v[i].has_time || w->w2.v[i].day != INT64_MIN);
	}
	char d[32];
	say_d(d, sizeof d, best_d);
	static const char *const gname[] = { "wrong", "right time of day, no date",
		"right day, no time", "close", "right but coarse", "right" };
	int fine;
	switch (best) {
	case G_EXACT:
		fine = wrong_other ? J_PARTIAL_TMI : jd_extra_words(w) >= 2 ? J_CORRECT_TMI : J_CORRECT;
		break;
	case G_SUMMARY:
		fine = wrong_other ? J_PARTIAL_TMI : J_CORRECT_SUMMARIZED;
		break;
	case G_NEAR:
	case G_DAYONLY:
	case G_DAYLESS:
		fine = J_PARTIAL_MISSING;
		break;
	default:
		fine = J_WRONG;
	}
	snprintf(w->why, sizeof w->why, "time: %s (%s; tolerance %lld s, partial %lld s)%s",
	         gname[best], d, (long long)(w->tol / SEC), (long long)(w->ptol / SEC),
	         wrong_other && best > G_MISS ? ", plus another time" : "");
	return fine;
}

/* --------------------------------------------------------------- days -- */

int jd_grade_date(jd_work *w)
{
	const judge_case *c = w->c;
	jd_find_whens(&w->w1, w->t.s, w->t.n, c->asked_at, 0);
	int64_t days[32];
	size_t k = 0;
	for (size_t i = 0; i < w->w1.n && k < 32; i++)
		if (w->w1.v[i].day != INT64_MIN)
			days[k++] = w->w1.v[i].day;
	int span = c->ref_t0 || c->ref_t1;
	int64_t t0 = c->ref_t0 ? c->ref_t0 : c->ref_t1, t1 = c->ref_t1 > t0 ? c->ref_t1 : t0;
	if (!k && span)
		days[k++] = day_of(t0);
	int year = k ? jd_year_of(days[0]) : 0;
	jd_find_whens(&w->w2, w->a.s, w->a.n, c->asked_at, year);
	if (!k) {
		snprintf(w->why, sizeof w->why, "day: the truth names no day to compare with");
		return w->refusal && !w->w2.n ? J_NO_ANSWER : J_WRONG;
	}
	/* one day asked: it may stretch over the span's days */
	int64_t lo = days[0], hi = days[0];
	if (k == 1 && span && day_of(t0) <= days[0] && day_of(t1) >= days[0])
		lo = day_of(t0), hi = day_of(t1);
	size_t hit = 0, other = 0, dated = 0;
	int time_off = 0, with_time = 0;
	for (size_t i = 0; i < w->w2.n; i++) {
		const jd_when *a = &w->w2.v[i];
		if (a->day == INT64_MIN)
			continue;
		dated++;
		int in = 0;
		for (size_t j = 0; j < k && !in; j++)
			in = k == 1 ? a->day >= lo && a->day <= hi : a->day == days[j];
		if (!in) {
			other++;
			continue;
		}
		hit++;
		if (a->has_time) {
			with_time = 1;
			if (span && gap(a->lo, a->hi, t0, t1) > w->ptol)
				time_off = 1;
		}
	}
	if (!dated) {
		snprintf(w->why, sizeof w->why, "day: the answer names no day");
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	}
	if (k > 1) {
		size_t found = 0;
		for (size_t j = 0; j < k; j++)
			for (size_t i = 0; i < w->w2.n; i++)
				if (w->w2.v[i].day == days[j]) {
					found++;
					break;
				}
		snprintf(w->why, sizeof w->why, "days: %zu of %zu found, %zu other", found, k, other);
		return jd_set_verdict(k, found, other, 0);
	}
	if (!hit) {
		snprintf(w->why, sizeof w->why, "day: another day (%zu named)", dated);
		return J_WRONG;
	}
	if (other) {
		snprintf(w->why, sizeof w->why, "day: the right day among %zu others", other);
		return J_PARTIAL_TMI;
	}
	if (with_time) {
		snprintf(w->why, sizeof w->why, "day: right, with a time %s", time_off ?
		         "outside the span" : "that fits");
		return time_off ? J_PARTIAL_TMI : J_CORRECT_TMI;
	}
	snprintf(w->why, sizeof w->why, "day: right");
	return jd_extra_words(w) >= 2 ? J_CORRECT_TMI : J_CORRECT;
}

/* ----------------------------------------------------------- days ago -- */

static size_t uniq(int *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < k && v[j] != v[i])
			j++;
		if (j == k)
			v[k++] = v[i];
	}
	return k;
}

int jd_grade_days_ago(jd_work *w)
{
	int tv[64], av[64];
	size_t k = uniq(tv, jd_days_ago(tv, 64, w->t.s, w->t.n));
	size_t m = uniq(av, jd_days_ago(av, 64, w->a.s, w->a.n));
	if (!m) {
		snprintf(w->why, sizeof w->why, "days ago: the answer names no count of days");
		return w->refusal ? J_NO_ANSWER : J_WRONG;
	}
	size_t hit = 0;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < m; j++)
			if (tv[i] == av[j]) {
				hit++;
				break;
			}
	snprintf(w->why, sizeof w->why, "days ago: %zu of %zu found, %zu other", hit, k, m - hit);
	return jd_set_verdict(k, hit, m - hit, 0);
}
