/*
 * recall_q_scope.c — the time scope of a question (recall_q_internal.h):
 * a date can be written "2024-07-12", "July 12th", "12 July", "on
 * Thursday" or "two days ago", a part of the day "this morning", "at
 * 11:24", "between 3 and 4 pm"; the scope becomes a time range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/recall/recall.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_q_internal.h"

static int is(const lex_word *w, size_t k, size_t i, const char *s)
{
	return i < k && !strcmp(w[i].w, s);
}

static int month_of(const char *s)
{
	static const char *const m[] = { "jan", "feb", "mar", "apr", "may", "jun",
		                             "jul", "aug", "sep", "oct", "nov", "dec" };
	static const char *const full[] = { "january", "february", "march", "april", "may", "june",
		                                "july", "august", "september", "october", "november",
		                                "december" };
	for (int i = 0; i < 12; i++)
		if (!strcmp(s, m[i]) || !strcmp(s, full[i]) || (i == 8 && !strcmp(s, "sept")))
			return i + 1;
	return 0;
}

static int weekday_of(const char *s)
{
	static const char *const d[] = { "sunday", "monday", "tuesday", "wednesday", "thursday",
		                             "friday", "saturday" };
	for (int i = 0; i < 7; i++)
		if (!strcmp(s, d[i]))
			return i;
	return -1;
}

/* A count written as one word ("three", "twenty", "45"), or -1. */
static int number_word(const char *s)
{
	lex_word w = { 0 };
	double v;
	snprintf(w.w, sizeof w.w, "%s", s);
	w.digit = s[0] && strspn(s, "0123456789") == strlen(s);
	if (lex_number(&w, 1, &v) != 1 || v > 9999)
		return -1;
	return (int)v;
}

int ordinal(const char *s)
{
	static const char *const o[] = { "", "first", "second", "third", "fourth", "fifth",
		                             "sixth", "seventh", "eighth", "ninth", "tenth" };
	for (int i = 1; i <= 10; i++)
		if (!strcmp(s, o[i]))
			return i;
	return 0;
}

static int64_t day_of(int64_t t)
{
	int64_t d = t / DAY_US;
	if (t < 0 && t % DAY_US)
		d--;
	return d * DAY_US;
}

static void civil(int64_t t, int *y, int *m, int *d, int *wday)
{
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	gmtime_r(&s, &tm);
	*y = tm.tm_year + 1900;
	*m = tm.tm_mon + 1;
	*d = tm.tm_mday;
	*wday = tm.tm_wday;
}

/* ------------------------------------------------------------- the scope -- */

/* Read times of day: "at 11:24", "around 3 pm", "at 3pm", "before noon". */
static int read_clock(const lex_word *w, size_t k, size_t i, int *minutes, size_t *used)
{
	if (i >= k)
		return 0;
	if (!strcmp(w[i].w, "noon")) {
		*minutes = 12 * 60;
		*used = 1;
		return 1;
	}
	if (!strcmp(w[i].w, "midnight")) {
		*minutes = 0;
		*used = 1;
		return 1;
	}
	if (!w[i].digit)
		return 0;
	int h = atoi(w[i].w), m = 0;
	size_t j = i + 1;
	if (j < k && w[j].digit && strlen(w[j].w) == 2 && h < 24) {
		m = atoi(w[j].w);
		j++;
	}
	if (h > 24 || m > 59)
		return 0;
	int ampm = 0;
	if (is(w, k, j, "pm") || is(w, k, j, "p")) {
		if (h < 12)
			h += 12;
		ampm = 1;
		j += is(w, k, j + 1, "m") ? 2 : 1;
	} else if (is(w, k, j, "am") || is(w, k, j, "a")) {
		if (h == 12)
			h = 0;
		ampm = 1;
		j += is(w, k, j + 1, "m") ? 2 : 1;
	} else if (is(w, k, j, "o") || is(w, k, j, "oclock")) {
		j++;
	}
	/* a lone number is a clock time only with a colon-minute or am/pm */
	if (j == i + 1 && !ampm)
		return 0;
	*minutes = h * 60 + m;
	*used = j - i;
	return 1;
}

/* "between 3 and 4 pm", "from 14:00 to 15:30": a window of the day, in
 * minutes; *n the words it took. */
static int read_window(const lex_word *w, size_t k, size_t i, int *m0, int *m1, size_t *n)
{
	if (!is(w, k, i, "between") && !is(w, k, i, "from"))
		return 0;
	size_t j = i + 1, ua = 0, ub = 0;
	int a = 0, b = 0;
	int a_ok = read_clock(w, k, j, &a, &ua);
	if (!a_ok) {
		if (j >= k || !w[j].digit || atoi(w[j].w) > 24)
			return 0;
		a = atoi(w[j].w) * 60, ua = 1;
	}
	j += ua;
	if (!is(w, k, j, "and") && !is(w, k, j, "to") && !is(w, k, j, "till") &&
	    !is(w, k, j, "until"))
		return 0;
	j++;
	int b_ok = read_clock(w, k, j, &b, &ub);
	if (!b_ok) {
		if (!a_ok || j >= k || !w[j].digit || atoi(w[j].w) > 24)
			return 0;
		b = atoi(w[j].w) * 60, ub = 1;
	}
	/* "3 and 4 pm": the first is in the second's half of the day */
	if (!a_ok && b >= 12 * 60 && a < 12 * 60 && a + 12 * 60 <= b)
		a += 12 * 60;
	if (!b_ok && a >= 12 * 60 && b < 12 * 60)
		b += 12 * 60;
	if (b <= a)
		return 0;
	*m0 = a, *m1 = b, *n = j + ub - i;
	return 1;
}

/* A date by its month's name: "July 12th", "12 July", "the 26th of June",
 * "June 2024", "in May" (the whole month); w[i] is the month, mon its
 * number, ny-nm-nd today. */
static void read_month(const lex_word *w, size_t k, size_t i, int mon, int ny, int nm, int nd,
                       scope *sc, uint8_t *used)
{
	const char *s = w[i].w;
	int d = 0, y = 0;
	size_t j = i + 1;
	if (j < k && w[j].digit && atoi(w[j].w) >= 1 && atoi(w[j].w) <= 31) {
		d = atoi(w[j].w), used[j] = 1, j++;
		if (is(w, k, j, "st") || is(w, k, j, "nd") || is(w, k, j, "rd") ||
		    is(w, k, j, "th"))
			used[j] = 1, j++;
	} else if (i >= 1 && w[i - 1].digit && atoi(w[i - 1].w) >= 1 &&
	           atoi(w[i - 1].w) <= 31) {
		d = atoi(w[i - 1].w), used[i - 1] = 1;
	} else if (i >= 2 && (is(w, k, i - 1, "th") || is(w, k, i - 1, "st") ||
	                      is(w, k, i - 1, "nd") || is(w, k, i - 1, "rd")) &&
	           w[i - 2].digit) {
		d = atoi(w[i - 2].w), used[i - 1] = used[i - 2] = 1;
	} else if (i >= 2 && is(w, k, i - 1, "of")) {
		/* "the 26th of June", "the 3 of May" */
		size_t e = i - 1;
		if (e >= 2 && (is(w, k, e - 1, "th") || is(w, k, e - 1, "st") ||
		               is(w, k, e - 1, "nd") || is(w, k, e - 1, "rd")))
			used[e - 1] = 1, e--;
		if (e >= 1 && w[e - 1].digit && atoi(w[e - 1].w) >= 1 &&
		    atoi(w[e - 1].w) <= 31)
			d = atoi(w[e - 1].w), used[e - 1] = used[i - 1] = 1;
		else if (e < i - 1)
			used[e] = 0;
	}
	if (j < k && w[j].digit && strlen(w[j].w) == 4)
		y = atoi(w[j].w), used[j] = 1;
	if (!strcmp(s, "may") && !d)
		return; /* "may" the verb */
	used[i] = 1;
	if (!y) {
		y = ny;
		if (mon > nm || (mon == nm && d > nd))
			y--;
	}
	if (d) {
		sc->day = emv_day_start(y, mon, d), sc->span = DAY_US;
	} else {
		sc->day = emv_day_start(y, mon, 1);
		int ny2 = mon == 12 ? y + 1 : y, nm2 = mon == 12 ? 1 : mon + 1;
		sc->span = emv_day_start(ny2, nm2, 1) - sc->day;
	}
}

void read_scope(const lex_word *w, size_t k, int64_t now, scope *sc, uint8_t *used)
{
	int ny, nm, nd, nwd;
	civil(now, &ny, &nm, &nd, &nwd);
	int64_t today = day_of(now);
	for (size_t i = 0; i < k; i++) {
		const char *s = w[i].w;
		int mon, wd, n;
		size_t u = 0;
		if (read_window(w, k, i, &sc->min0, &sc->min1, &u)) {
			for (size_t j = i; j < i + u; j++)
				used[j] = 1;
			i += u - 1;
		} else if (!strcmp(s, "today") || (!strcmp(s, "tonight"))) {
			sc->day = today, sc->span = DAY_US, used[i] = 1;
		} else if (!strcmp(s, "yesterday")) {
			sc->day = today - DAY_US, sc->span = DAY_US, used[i] = 1;
			/* "the day before yesterday" */
			if (i >= 2 && !strcmp(w[i - 1].w, "before") && !strcmp(w[i - 2].w, "day"))
				sc->day -= DAY_US, used[i - 1] = used[i - 2] = 1;
		} else if ((!strcmp(s, "this") || !strcmp(s, "last") || !strcmp(s, "past")) &&
		           i + 1 < k && (!strcmp(w[i + 1].w, "week") || !strcmp(w[i + 1].w, "month"))) {
			int64_t span = !strcmp(w[i + 1].w, "week") ? 7 * DAY_US : 30 * DAY_US;
			sc->day = !strcmp(s, "this") ? today - 6 * DAY_US : today - 2 * span + DAY_US;
			sc->span = !strcmp(s, "this") ? 7 * DAY_US : span;
			if (!strcmp(s, "this") && !strcmp(w[i + 1].w, "month"))
				sc->day = today - (nd - 1) * DAY_US, sc->span = nd * DAY_US;
			used[i] = used[i + 1] = 1;
		} else if (!strcmp(s, "last") && i + 1 < k && !strcmp(w[i + 1].w, "night")) {
			sc->day = today - DAY_US, sc->span = DAY_US, sc->hour0 = 18, sc->hour1 = 24;
			used[i] = used[i + 1] = 1;
		} else if ((n = number_word(s)) > 0 && i + 2 < k &&
		           (!strcmp(w[i + 1].w, "days") || !strcmp(w[i + 1].w, "day")) &&
		           !strcmp(w[i + 2].w, "ago")) {
			sc->day = today - n * DAY_US, sc->span = DAY_US;
			used[i] = used[i + 1] = used[i + 2] = 1;
		} else if ((n = number_word(s)) > 0 && i + 2 < k &&
		           (!strcmp(w[i + 1].w, "weeks") || !strcmp(w[i + 1].w, "week")) &&
		           !strcmp(w[i + 2].w, "ago")) {
			sc->day = today - (n * 7 + 3) * DAY_US, sc->span = 7 * DAY_US;
			used[i] = used[i + 1] = used[i + 2] = 1;
		} else if ((wd = weekday_of(s)) >= 0) {
			int back = (nwd - wd + 7) % 7;
			if (i > 0 && !strcmp(w[i - 1].w, "last") && back == 0)
				back = 7;
			if (i > 0 && !strcmp(w[i - 1].w, "last"))
				used[i - 1] = 1;
			sc->day = today - back * DAY_US, sc->span = DAY_US, used[i] = 1;
			/* a bare "on Thursday" may mean an earlier Thursday when the
			 * last one holds nothing */
			sc->weekday = !(i > 0 && (!strcmp(w[i - 1].w, "last") || !strcmp(w[i - 1].w, "this")));
		} else if (w[i].digit && strlen(s) == 4 && i + 2 < k && w[i + 1].digit &&
		           w[i + 2].digit) {
			/* 2024-07-12 or 2024/07/12 */
			int y = atoi(s), m = atoi(w[i + 1].w), d = atoi(w[i + 2].w);
			if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
				sc->day = emv_day_start(y, m, d), sc->span = DAY_US;
				used[i] = used[i + 1] = used[i + 2] = 1;
			}
		} else if (w[i].digit && atoi(s) >= 1 && atoi(s) <= 31 && i + 1 < k &&
		           (is(w, k, i + 1, "th") || is(w, k, i + 1, "st") || is(w, k, i + 1, "nd") ||
		            is(w, k, i + 1, "rd")) &&
		           !(i + 2 < k && (month_of(w[i + 2].w) || is(w, k, i + 2, "of")))) {
			/* "on the 26th": the latest 26th up to today */
			int d = atoi(s), y = ny, m = nm;
			if (d > nd && --m < 1)
				m = 12, y--;
			sc->day = emv_day_start(y, m, d), sc->span = DAY_US;
			sc->weekday = 0;
			used[i] = used[i + 1] = 1;
		} else if ((mon = month_of(s))) {
			read_month(w, k, i, mon, ny, nm, nd, sc, used);
		} else if (!strcmp(s, "lunch") || !strcmp(s, "lunchtime")) {
			int after = i > 0 && !strcmp(w[i - 1].w, "after");
			int before = i > 0 && !strcmp(w[i - 1].w, "before");
			sc->hour0 = after ? 13 : before ? 5 : 11;
			sc->hour1 = after ? 24 : before ? 12 : 14;
			/* "what did you make for lunch": the meal is also the thing */
			used[i] = !(i > 0 && !strcmp(w[i - 1].w, "for"));
			if (after || before)
				used[i - 1] = 1;
		} else if (!strcmp(s, "morning")) {
			sc->hour0 = 5, sc->hour1 = 12, used[i] = 1;
		} else if (!strcmp(s, "afternoon")) {
			sc->hour0 = 12, sc->hour1 = 18, used[i] = 1;
		} else if (!strcmp(s, "evening")) {
			sc->hour0 = 17, sc->hour1 = 24, used[i] = 1;
		} else if (!strcmp(s, "night")) {
			sc->hour0 = 18, sc->hour1 = 24, used[i] = 1;
		} else if ((!strcmp(s, "at") || !strcmp(s, "around") || !strcmp(s, "about") ||
		            !strcmp(s, "before") || !strcmp(s, "after") || !strcmp(s, "by") ||
		            !strcmp(s, "shortly") || !strcmp(s, "roughly")) &&
		           read_clock(w, k, i + 1 + (is(w, k, i + 1, "after") || is(w, k, i + 1, "before")),
		                      &n, &u)) {
			size_t skip = is(w, k, i + 1, "after") || is(w, k, i + 1, "before");
			const char *rel = skip ? w[i + 1].w : s;
			sc->clock = n;
			sc->around = strcmp(s, "at") != 0;
			sc->before = !strcmp(rel, "before");
			sc->after = !strcmp(rel, "after");
			for (size_t j = i; j < i + 1 + skip + u; j++)
				used[j] = 1;
		}
	}
}

/* The scope as a time range. */
void scope_range(const scope *sc, int64_t now, int64_t *t0, int64_t *t1, int64_t *point)
{
	*t0 = 0;
	*t1 = 0;
	*point = 0;
	int64_t day = sc->day;
	int64_t span = sc->span;
	if (day == INT64_MIN && (sc->hour0 >= 0 || sc->clock >= 0 || sc->min0 >= 0)) {
		/* a time of day without a day: the latest such time before now */
		day = day_of(now);
		span = DAY_US;
		int64_t start = sc->clock >= 0 ? (int64_t)sc->clock * 60000000 - HOUR_US
		                : sc->min0 >= 0 ? (int64_t)sc->min0 * 60000000
		                                : (int64_t)sc->hour0 * HOUR_US;
		if (day + start > now)
			day -= DAY_US;
	}
	if (day == INT64_MIN)
		return;
	*t0 = day;
	*t1 = day + span;
	if (sc->hour0 >= 0 && span == DAY_US) {
		*t0 = day + (int64_t)sc->hour0 * HOUR_US;
		*t1 = day + (int64_t)sc->hour1 * HOUR_US;
	}
	if (sc->min0 >= 0 && span == DAY_US) {
		*t0 = day + (int64_t)sc->min0 * 60000000;
		*t1 = day + (int64_t)sc->min1 * 60000000;
	}
	if (sc->clock >= 0 && span == DAY_US) {
		int64_t c = day + (int64_t)sc->clock * 60000000;
		if (sc->before) {
			*t0 = sc->hour0 >= 0 ? *t0 : day;
			*t1 = c;
		} else if (sc->after) {
			*t0 = c;
			*t1 = sc->around ? c + 2 * HOUR_US : day + DAY_US;
			if (sc->around)
				*t1 = c + HOUR_US;
		} else {
			int64_t w = sc->around ? HOUR_US : 20 * 60000000LL;
			*t0 = c - w;
			*t1 = c + w;
			*point = c;
		}
	}
}
