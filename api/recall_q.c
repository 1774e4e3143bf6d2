/*
 * recall_q.c — reading a question (recall.h): its kind, its time scope and
 * its target words. Everything is by words and their stems, so "drive",
 * "drove" and "navigate" are one verb, and a date can be written
 * "2024-07-12", "July 12th", "12 July", "on Thursday" or "two days ago".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/emv.h"
#include "api/recall.h"
#include "api/wordnet.h"

#define DAY_US (86400LL * 1000000)
#define HOUR_US (3600LL * 1000000)

#define MAXW 64

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

static int number_word(const char *s)
{
	static const char *const n[] = { "zero", "one", "two", "three", "four", "five", "six",
		                             "seven", "eight", "nine", "ten", "eleven", "twelve" };
	for (int i = 0; i < 13; i++)
		if (!strcmp(s, n[i]))
			return i;
	if (s[0] >= '0' && s[0] <= '9' && strlen(s) <= 4)
		return atoi(s);
	return -1;
}

static int ordinal(const char *s)
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

typedef struct scope {
	int64_t day;           /* start of a named day, or INT64_MIN */
	int64_t span;          /* its length (a day, a week, a month) */
	int hour0, hour1;      /* a part of the day in hours [hour0, hour1), or -1 */
	int clock;             /* a clock time in minutes, or -1 */
	int around;            /* the clock time is approximate */
	int before, after;     /* "before"/"after" the clock time */
	int weekday;           /* the day is a bare weekday ("on Thursday") */
	int min0, min1;        /* a window of the day in minutes ("between 3 and 4 pm"), or -1 */
} scope;

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

static void read_scope(const lex_word *w, size_t k, int64_t now, scope *sc, uint8_t *used)
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
		} else if ((mon = month_of(s))) {
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
				continue; /* "may" the verb */
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
static void scope_range(const scope *sc, int64_t now, int64_t *t0, int64_t *t1, int64_t *point)
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

/* -------------------------------------------------------------- the kind -- */

static int has(const lex_word *w, size_t k, const char *s)
{
	for (size_t i = 0; i < k; i++)
		if (!strcmp(w[i].w, s))
			return 1;
	return 0;
}

/* Does a clause ("she asked where her mother was", "the guard told you to
 * wait") name words someone said: a verb of saying before anything else
 * that is a verb? */
static int said_clause(const lex_word *w, size_t k)
{
	for (size_t i = 0; i < k && i < 4; i++) {
		int cls = LC_NONE;
		if (lex_lemma(w[i].stem, &cls))
			return cls == LC_SAY;
	}
	return 0;
}

static int starts(const lex_word *w, size_t k, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < k && i < 4; i++)
		if (!strcmp(w[i].w, a) && (!b || !strcmp(w[i + 1].w, b)))
			return 1;
	return 0;
}

static int first_is(const lex_word *w, size_t k, const char *a)
{
	return k && !strcmp(w[0].w, a);
}

/* "what's the name of the person", "what was that lady's name": a
 * question for a person by name. Marks "name" used. */
static int name_of_person(const lex_word *w, size_t k, uint8_t *used)
{
	static const char *const who[] = { "person", "people", "man", "woman", "guy", "lady",
		                               "visitor", "guest", "patient", "customer", "nurse",
		                               "doctor", "user", "someone", "somebody", "kid",
		                               "child", "boy", "girl", "friend", "gentleman",
		                               "persons", "visitors", "guests", NULL };
	for (size_t i = 1; i < k && i < 5; i++) {
		if (strcmp(w[i].w, "name") && strcmp(w[i].w, "names"))
			continue;
		/* "the name of the person"; "that lady's name" */
		size_t lo = i + 1 < k && !strcmp(w[i + 1].w, "of") ? i + 2 : 1;
		size_t hi = lo == 1 ? i : i + 4;
		for (size_t j = lo; j < k && j < hi; j++)
			for (const char *const *p = who; *p; p++)
				if (!strcmp(w[j].w, *p)) {
					used[i] = 1;
					return 1;
				}
	}
	return 0;
}

/* "who opened the gate", "who let the courier in", "who signed for the
 * parcels": who did it, the robot or someone in its notes; not whom the
 * robot met ("who came", "who visited"), spoke with ("who called"), was
 * given something by ("who gave you"), nor "who did you ...". */
static int asks_agent(const lex_word *w, size_t k)
{
	static const char *const not_verb[] = { "did", "do", "does", "was", "were", "is", "are",
		                                    "has", "have", "had", "else", "the", "of", "from",
		                                    "to", "with", "in", "at", "on", "s", "will", "would",
		                                    "can", "could", NULL };
	if (k < 3 || strcmp(w[0].w, "who") || w[1].cap || w[1].digit)
		return 0;
	for (const char *const *p = not_verb; *p; p++)
		if (!strcmp(w[1].w, *p))
			return 0;
	/* "who fixed the centrifuge for you": someone else */
	if (has(w, k, "you") || has(w, k, "me") || has(w, k, "us") || !strcmp(w[2].w, "by"))
		return 0;
	int cls = LC_NONE;
	if (lex_lemma(w[1].stem, &cls))
		/* ("who got the laptop": whom it went to) */
		return cls != LC_GO && cls != LC_MEET && cls != LC_SAY && cls != LC_SEE &&
		       cls != LC_LOOK && cls != LC_TAKE && cls != LC_RECEIVE;
	return !wn_speech_verb(w[1].w);
}

static int title_word(const char *w);

/* The word after "did" and its subject ("what did Mia complain about",
 * "what did the guest beg for", "what did you report"): the question's own
 * verb, 0 when there is none. */
static size_t verb_after_did(const lex_word *w, size_t k)
{
	size_t d = 0;
	while (d < k && d < 4 && strcmp(w[d].w, "did") && strcmp(w[d].w, "does") &&
	       strcmp(w[d].w, "do"))
		d++;
	size_t i = d + 1;
	if (d >= k || d >= 4 || i >= k)
		return 0;
	if (!strcmp(w[i].w, "the") || !strcmp(w[i].w, "a") || !strcmp(w[i].w, "an") ||
	    !strcmp(w[i].w, "your") || !strcmp(w[i].w, "my"))
		i += 2; /* "the guest" */
	else if (w[i].cap)
		while (i < k && (w[i].cap || title_word(w[i - 1].w)))
			i++; /* "Mia Lund", "Dr. Okafor" (no capital after the full stop) */
	else
		i++; /* "you", "she" */
	return i < k ? i : 0;
}

/* Is w[i] a verb of saying that the robot lexicon does not know
 * ("complain", "grumble", "beg")? */
static int said_verb(const lex_word *w, size_t i)
{
	int cls = LC_NONE;
	return !w[i].cap && !w[i].digit && !lex_stop(w[i].stem) && !lex_lemma(w[i].stem, &cls) &&
	       wn_speech_verb(w[i].w);
}

static void read_kind(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	int said = has(w, k, "say") || has(w, k, "said") || has(w, k, "tell") ||
	           has(w, k, "told") || has(w, k, "ask") || has(w, k, "asked") ||
	           has(w, k, "mention") || has(w, k, "mentioned") || has(w, k, "talk") ||
	           has(w, k, "speak") || has(w, k, "spoke") || has(w, k, "says") ||
	           has(w, k, "hear") || has(w, k, "heard") || has(w, k, "report") ||
	           has(w, k, "reported") || has(w, k, "instructions") || has(w, k, "instructed") ||
	           has(w, k, "announce") || has(w, k, "announced");
	int seen = has(w, k, "see") || has(w, k, "saw") || has(w, k, "seen") ||
	           has(w, k, "notice") || has(w, k, "noticed") || has(w, k, "detect") ||
	           has(w, k, "detected") || has(w, k, "spot") || has(w, k, "spotted") ||
	           has(w, k, "observe") || has(w, k, "observed") || has(w, k, "recognize") ||
	           has(w, k, "recognized");
	/* "what did Mia complain about", "what did the guest beg for": a verb
	 * of saying the lexicon does not know, after "did" (WordNet) */
	size_t sv = verb_after_did(w, k);
	if (!said && sv && said_verb(w, sv))
		said = 1;
	/* "what did you do before the guard spoke": a question about doing */
	if (k > 3 && !strcmp(w[1].w, "did") && !strcmp(w[2].w, "you") && !strcmp(w[3].w, "do"))
		said = seen = 0;
	q->kind = RQ_DO;
	/* "how many pipetting steps", "which steps failed": a count and a
	 * failure question, not the steps of a task */
	int steps_ok = !(starts(w, k, "how", "many") || starts(w, k, "how", "often") ||
	                 starts(w, k, "number", "of") || has(w, k, "fail") || has(w, k, "failed"));
	for (size_t i = 0; steps_ok && i < k; i++)
		if (!strcmp(w[i].w, "step") || !strcmp(w[i].w, "steps")) {
			q->kind = RQ_STEPS;
			if (i > 0 && !strcmp(w[i - 1].w, "first"))
				q->step = 1, used[i - 1] = 1;
			else if (i > 0 && (!strcmp(w[i - 1].w, "last") || !strcmp(w[i - 1].w, "final")))
				q->step = -1, used[i - 1] = 1;
		}
	/* "what was the first thing you did on Monday": the first step of the span */
	for (size_t i = 1; q->kind != RQ_STEPS && i < k; i++)
		if ((!strcmp(w[i].w, "thing") || !strcmp(w[i].w, "things")) &&
		    (!strcmp(w[i - 1].w, "first") || !strcmp(w[i - 1].w, "last")) &&
		    (has(w, k, "did") || has(w, k, "do"))) {
			q->kind = RQ_STEPS;
			q->step = !strcmp(w[i - 1].w, "first") ? 1 : -1;
			used[i - 1] = 1;
		}
	/* "what did you do last on July 12", "what did you do first today":
	 * the last (first) step of the span, not all of it */
	for (size_t i = 1; q->kind != RQ_STEPS && first_is(w, k, "what") && i < k; i++)
		if ((!strcmp(w[i].w, "last") || !strcmp(w[i].w, "first") || !strcmp(w[i].w, "lastly")) &&
		    (!strcmp(w[i - 1].w, "do") || !strcmp(w[i - 1].w, "did")) &&
		    (i + 1 == k || !strcmp(w[i + 1].w, "on") || !strcmp(w[i + 1].w, "in") ||
		     !strcmp(w[i + 1].w, "today") || !strcmp(w[i + 1].w, "yesterday") ||
		     !strcmp(w[i + 1].w, "at") || !strcmp(w[i + 1].w, "this") ||
		     !strcmp(w[i + 1].w, "that") || !strcmp(w[i + 1].w, "before"))) {
			q->kind = RQ_STEPS;
			q->step = !strcmp(w[i].w, "first") ? 1 : -1;
			used[i] = 1;
		}
	if (q->kind == RQ_STEPS)
		; /* the steps of a task */
	else if (starts(w, k, "how", "many") || starts(w, k, "how", "often") ||
	    starts(w, k, "number", "of") || starts(w, k, "how", "frequently") ||
	    starts(w, k, "how", "much"))
		q->kind = RQ_COUNT; /* ("how much": an amount the parameters sum) */
	else if (starts(w, k, "how", "long"))
		q->kind = RQ_DURATION;
	else if (starts(w, k, "what", "day") || starts(w, k, "which", "day") ||
	         starts(w, k, "which", "days") || starts(w, k, "what", "days") ||
	         starts(w, k, "what", "date") || starts(w, k, "which", "date") ||
	         starts(w, k, "which", "dates") || starts(w, k, "on", "what") ||
	         starts(w, k, "on", "which"))
		q->kind = RQ_DAY, q->plural = has(w, k, "days") || has(w, k, "dates");
	else if (first_is(w, k, "when") || starts(w, k, "what", "time") ||
	         starts(w, k, "which", "time") ||
	         (starts(w, k, "at", "what") && k > 2 &&
	          (!strcmp(w[2].w, "time") || !strcmp(w[2].w, "hour") || !strcmp(w[2].w, "point") ||
	           !strcmp(w[2].w, "moment") || !strcmp(w[2].w, "o"))))
		q->kind = RQ_WHEN; /* not "at what speed" */
	else if (first_is(w, k, "where") || starts(w, k, "which", "place") ||
	         starts(w, k, "what", "place") || starts(w, k, "which", "location") ||
	         starts(w, k, "what", "location") || starts(w, k, "which", "room") ||
	         starts(w, k, "to", "where") || starts(w, k, "from", "where"))
		q->kind = (has(w, k, "from") && !has(w, k, "to")) ? RQ_FROM : RQ_WHERE;
	else if (first_is(w, k, "who") || first_is(w, k, "whom") || starts(w, k, "which", "person") ||
	         starts(w, k, "what", "person") || starts(w, k, "which", "people") ||
	         starts(w, k, "to", "whom") || starts(w, k, "whose", NULL))
		q->kind = RQ_WHO;
	else if (first_is(w, k, "what") && name_of_person(w, k, used))
		q->kind = RQ_WHO; /* "what's the name of the person you met" */
	else if ((first_is(w, k, "what") || first_is(w, k, "which")) && said)
		q->kind = RQ_SAID;
	else if ((first_is(w, k, "what") || first_is(w, k, "which")) && seen)
		q->kind = RQ_SEEN, q->plural = 1;
	else if ((first_is(w, k, "which") || first_is(w, k, "what")) && k > 1 &&
	         strcmp(w[1].w, "failed") && strcmp(w[1].w, "went") && strcmp(w[1].w, "happened") &&
	         strcmp(w[1].w, "was") && strcmp(w[1].w, "were") && strcmp(w[1].w, "problem") &&
	         strcmp(w[1].w, "problems") && strcmp(w[1].w, "did") && strcmp(w[1].w, "of") &&
	         strcmp(w[1].w, "actions") && strcmp(w[1].w, "tasks") && strcmp(w[1].w, "task") &&
	         strcmp(w[1].w, "action") && strcmp(w[1].w, "could") && strcmp(w[1].w, "couldn") &&
	         strcmp(w[1].w, "step") && strcmp(w[1].w, "steps") && strcmp(w[1].w, "skill") &&
	         strcmp(w[1].w, "skills") && strcmp(w[1].w, "job") && strcmp(w[1].w, "jobs") &&
	         strcmp(w[1].w, "operation") && strcmp(w[1].w, "operations") &&
	         strcmp(w[1].w, "things") && strcmp(w[1].w, "activities") &&
	         (has(w, k, "fail") || has(w, k, "failed")))
		q->kind = RQ_WHICH; /* "which tote did you fail to pick" */
	else if (has(w, k, "fail") || has(w, k, "failed") || has(w, k, "wrong") ||
	         has(w, k, "problem") || has(w, k, "problems") || has(w, k, "unsuccessful") ||
	         has(w, k, "unable") || (has(w, k, "not") && (has(w, k, "could") ||
	                                                      has(w, k, "able"))))
		q->kind = first_is(w, k, "did") || first_is(w, k, "have") || first_is(w, k, "was") ||
		                  first_is(w, k, "were") || first_is(w, k, "has")
		              ? RQ_YESNO
		              : RQ_FAILED;
	else if (first_is(w, k, "did") || first_is(w, k, "have") || first_is(w, k, "has") ||
	         first_is(w, k, "were") || first_is(w, k, "was") || first_is(w, k, "do") ||
	         first_is(w, k, "is") || first_is(w, k, "are") || first_is(w, k, "had"))
		q->kind = RQ_YESNO;
	else if (starts(w, k, "which", NULL) || starts(w, k, "what", "object") ||
	         starts(w, k, "what", "objects") || starts(w, k, "what", "item") ||
	         starts(w, k, "what", "thing") || starts(w, k, "what", "things"))
		q->kind = RQ_WHICH;
	else if (first_is(w, k, "what") && !has(w, k, "do") && !has(w, k, "doing") &&
	         !has(w, k, "did") && !has(w, k, "happen") && !has(w, k, "happened"))
		q->kind = RQ_WHICH;
	else if (first_is(w, k, "what") && k > 1 && !strcmp(w[1].w, "did") && !has(w, k, "do") &&
	         !has(w, k, "happen"))
		q->kind = RQ_WHICH; /* "what did you grasp" (not "what you did") */
	else if (first_is(w, k, "what") && k > 3 && (!strcmp(w[2].w, "did") || !strcmp(w[2].w, "do") ||
	                                             !strcmp(w[2].w, "have")) &&
	         !strcmp(w[3].w, "you") && !lex_stop(w[1].stem) && !lex_lemma(w[1].stem, NULL) &&
	         !w[1].digit && strcmp(w[1].w, "else"))
		q->kind = RQ_WHICH; /* "what crates did you carry" */
	/* "which objects were in room 14", "what was on the table" */
	if ((q->kind == RQ_WHICH || q->kind == RQ_DO) &&
	    (starts(w, k, "objects", "were") || starts(w, k, "things", "were") ||
	     starts(w, k, "items", "were") || starts(w, k, "what", "was") ||
	     starts(w, k, "what", "were") || starts(w, k, "objects", "did") ||
	     starts(w, k, "things", "did")) &&
	    (has(w, k, "in") || has(w, k, "on") || has(w, k, "at") || has(w, k, "inside")) &&
	    !has(w, k, "did"))
		q->kind = RQ_SEEN;
	if (q->kind == RQ_SEEN && (has(w, k, "objects") || has(w, k, "things")))
		q->plural = 1;
	/* "which objects did you grasp", "what items did you deliver": all */
	if (q->kind == RQ_WHICH && k > 1 && (first_is(w, k, "which") || first_is(w, k, "what")) &&
	    (!strcmp(w[1].w, "objects") || !strcmp(w[1].w, "things") || !strcmp(w[1].w, "items") ||
	     (strlen(w[1].w) > 3 && w[1].w[strlen(w[1].w) - 1] == 's' &&
	      w[1].w[strlen(w[1].w) - 2] != 's' && strcmp(w[1].w, "was") &&
	      strcmp(w[1].w, "does") && strcmp(w[1].w, "has") && strcmp(w[1].w, "is"))))
		q->plural = 1;
	/* "which patients did you visit", "what visitors came": people */
	static const char *const people_nouns[] = { "patient", "patients", "person", "persons",
		                                        "people", "visitor", "visitors", "guest",
		                                        "guests", "nurse", "nurses", "doctor",
		                                        "doctors", "customer", "customers", "user",
		                                        "users", "worker", "workers", "colleague",
		                                        "colleagues", "resident", "residents", NULL };
	if ((q->kind == RQ_WHICH || q->kind == RQ_DO) && k > 1 &&
	    (first_is(w, k, "which") || first_is(w, k, "what")))
		for (const char *const *p = people_nouns; *p; p++)
			if (!strcmp(w[1].w, *p))
				q->kind = RQ_WHO, q->plural = 1;
	/* "Name the people you met", "list everyone you talked to" */
	if (q->kind == RQ_DO && (has(w, k, "people") || has(w, k, "persons") ||
	                         has(w, k, "everyone") || has(w, k, "everybody") ||
	                         has(w, k, "visitors")))
		q->kind = RQ_WHO, q->plural = 1;
	/* "which shelf / what room / which station": a place */
	static const char *const place_nouns[] = { "room", "place", "location", "shelf", "station",
		                                       "table", "aisle", "area", "bay", "dock", "floor",
		                                       "ward", "counter", "cabinet", "drawer", "door",
		                                       "building", "site", "spot", "rack", "bin",
		                                       "zone", "side", "city", "street", "gate",
		                                       "hall", "office", "desk", "bench", "slot",
		                                       "field", "platform", "building",
		                                       "locker", "waypoint", NULL };
	/* "at which dock", "to which floor", "from which shelf", "which meeting
	 * room": the noun may follow a preposition and close a compound */
	size_t wh = k > 1 && (!strcmp(w[0].w, "at") || !strcmp(w[0].w, "to") ||
	                      !strcmp(w[0].w, "from") || !strcmp(w[0].w, "in") ||
	                      !strcmp(w[0].w, "into") || !strcmp(w[0].w, "on") ||
	                      !strcmp(w[0].w, "onto"))
	                ? 1 : 0;
	if ((q->kind == RQ_WHICH || (wh && q->kind == RQ_DAY && !has(w, k, "day") &&
	                             !has(w, k, "days") && !has(w, k, "date"))) &&
	    k > wh + 1 && (!strcmp(w[wh].w, "which") || !strcmp(w[wh].w, "what")))
		for (size_t j = wh + 1; j <= wh + 2 && j < k; j++)
			for (const char *const *p = place_nouns; *p; p++)
				if (!strcmp(w[j].w, *p) || (strlen(w[j].w) == strlen(*p) + 1 &&
				                            !strncmp(w[j].w, *p, strlen(*p))))
					q->kind = (has(w, k, "from") && !has(w, k, "to")) ||
					                  !strcmp(w[0].w, "from")
					              ? RQ_FROM : RQ_WHERE;
	int could_not = 0;
	/* "any trouble", "was there an issue", "why did the walk stop early",
	 * "cut short", "interrupted": a failure asked about */
	int trouble = 0;
	static const char *const bad[] = { "trouble", "troubles", "issue", "issues", "error",
		                               "errors", "mishap", "mishaps", "incident",
		                               "incidents", "interrupted", "aborted", "abort",
		                               "cancelled", "canceled", "broke", "broken",
		                               "breakdown", "breakdowns", "malfunction",
		                               "malfunctioned", "malfunctions", "failure",
		                               "failures", "fault", "faults", NULL };
	for (size_t i = 0; i < k; i++) {
		/* "the broken jar": a thing's state, not a failure */
		int adjective = !strcmp(w[i].w, "broken") && i + 1 < k && !lex_stop(w[i + 1].stem) &&
		                !lex_lemma(w[i + 1].stem, NULL) && !w[i + 1].digit;
		for (const char *const *p = bad; *p && !adjective; p++)
			if (!strcmp(w[i].w, *p))
				trouble = 1, used[i] = 1;
		if (i + 1 < k && ((!strcmp(w[i].w, "cut") && !strcmp(w[i + 1].w, "short")) ||
		                  ((!strcmp(w[i].w, "stop") || !strcmp(w[i].w, "stopped") ||
		                    !strcmp(w[i].w, "end") || !strcmp(w[i].w, "ended") ||
		                    !strcmp(w[i].w, "finish") || !strcmp(w[i].w, "finished")) &&
		                   (!strcmp(w[i + 1].w, "early") || !strcmp(w[i + 1].w, "halfway") ||
		                    !strcmp(w[i + 1].w, "prematurely"))) ||
		                  ((!strcmp(w[i].w, "give") || !strcmp(w[i].w, "gave")) &&
		                   !strcmp(w[i + 1].w, "up")) ||
		                  /* "break down", "gave out", "stopped working" */
		                  ((!strcmp(w[i].w, "break") || !strcmp(w[i].w, "breaks")) &&
		                   !strcmp(w[i + 1].w, "down")) ||
		                  ((!strcmp(w[i].w, "give") || !strcmp(w[i].w, "gave") ||
		                    !strcmp(w[i].w, "gives")) && !strcmp(w[i + 1].w, "out")) ||
		                  ((!strcmp(w[i].w, "stop") || !strcmp(w[i].w, "stopped")) &&
		                   !strcmp(w[i + 1].w, "working"))))
			trouble = 1, used[i] = used[i + 1] = 1;
		if (i + 1 < k && !strcmp(w[i].w, "broke") && !strcmp(w[i + 1].w, "down"))
			used[i + 1] = 1;
	}
	q->why = first_is(w, k, "why");
	/* "why did you stop on row 22": stopping is how a run went, no skill
	 * (the reason is the failure's, or the note's: "Stopped the lashing
	 * round at bay 20: wind gusts") */
	for (size_t i = 1; q->why && !trouble && i + 1 < k; i++)
		if ((!strcmp(w[i].w, "stop") || !strcmp(w[i].w, "stopped") || !strcmp(w[i].w, "halt") ||
		     !strcmp(w[i].w, "quit")) && !strcmp(w[i - 1].w, "you"))
			used[i] = 1;
	q->agent = q->kind == RQ_WHO && asks_agent(w, k);
	if (q->kind == RQ_COUNT && k > 2 && starts(w, k, "how", "many")) {
		static const char *const who[] = { "people", "persons", "person", "humans", "folks",
			                               NULL };
		for (const char *const *p = who; *p && !q->people; p++)
			q->people = !strcmp(w[2].w, *p);
		if (!q->people)
			q->people = wn_is_person(w[2].w); /* visitors, guests, patients */
	}
	if (trouble && first_is(w, k, "why"))
		q->kind = RQ_FAILED;
	else if (trouble && (q->kind == RQ_WHICH || q->kind == RQ_DO))
		q->kind = RQ_FAILED;
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "could") || !strcmp(w[i].w, "couldn") || !strcmp(w[i].w, "not")) &&
		    (!strcmp(w[i + 1].w, "not") || !strcmp(w[i + 1].w, "t") ||
		     !strcmp(w[i + 1].w, "able")))
			could_not = 1;
	/* "what didn't work out", "what did not succeed", "what didn't you
	 * finish" */
	for (size_t i = 0; i + 1 < k; i++) {
		size_t j = i + 1;
		if (j + 1 < k && (!strcmp(w[j].w, "you") || !strcmp(w[j].w, "we")))
			j++;
		if ((!strcmp(w[i].w, "not") || !strcmp(w[i].w, "t") || !strcmp(w[i].w, "never")) &&
		    (!strcmp(w[j].w, "work") || !strcmp(w[j].w, "succeed") ||
		     !strcmp(w[j].w, "go") || !strcmp(w[j].w, "finish") ||
		     !strcmp(w[j].w, "complete"))) {
			could_not = 1;
			if (q->kind == RQ_WHICH || q->kind == RQ_DO)
				q->kind = RQ_FAILED;
		}
	}
	if (has(w, k, "fail") || has(w, k, "failed") || has(w, k, "unsuccessful") ||
	    has(w, k, "problem") || has(w, k, "problems") || has(w, k, "wrong") ||
	    has(w, k, "unable") || could_not || trouble)
		q->status = RS_FAILED;
	else if (has(w, k, "successfully") || has(w, k, "manage") || has(w, k, "managed") ||
	         has(w, k, "succeed") || has(w, k, "succeeded") || has(w, k, "able") ||
	         has(w, k, "complete") || has(w, k, "completed") || has(w, k, "finish") ||
	         has(w, k, "finished") || has(w, k, "successful"))
		q->status = RS_DONE;
	/* "did you finish row 22": finishing is how it went, not a skill; the
	 * words after it are what was done */
	for (size_t i = 0; q->status == RS_DONE && i + 1 < k; i++)
		if ((!strcmp(w[i].w, "finish") || !strcmp(w[i].w, "finished") ||
		     !strcmp(w[i].w, "complete") || !strcmp(w[i].w, "completed")) &&
		    !w[i + 1].digit && !lex_stop(w[i + 1].stem))
			used[i] = 1;
	/* "which row did you start with": the first */
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "start") || !strcmp(w[i].w, "begin") || !strcmp(w[i].w, "started") ||
		     !strcmp(w[i].w, "began")) && !strcmp(w[i + 1].w, "with")) {
			used[i] = used[i + 1] = 1;
			q->order = RO_FIRST;
			q->order_said = 1;
		}
	/* "did you send", "where did you ...": the robot is the subject */
	for (size_t i = 0; i + 1 < k && !q->you; i++)
		q->you = (!strcmp(w[i].w, "did") || !strcmp(w[i].w, "do") || !strcmp(w[i].w, "have")) &&
		         !strcmp(w[i + 1].w, "you");
	/* "what did you say", "what did you tell" */
	for (size_t i = 0; i + 2 < k; i++) {
		/* ("what did you last say": an adverb between) */
		size_t v = i + 2;
		if (v + 1 < k && (!strcmp(w[v].w, "last") || !strcmp(w[v].w, "first") ||
		                  !strcmp(w[v].w, "just") || !strcmp(w[v].w, "ever") ||
		                  !strcmp(w[v].w, "actually") || !strcmp(w[v].w, "also")))
			v++;
		if (!strcmp(w[i].w, "did") && !strcmp(w[i + 1].w, "you") &&
		    (!strcmp(w[v].w, "say") || !strcmp(w[v].w, "tell") ||
		     !strcmp(w[v].w, "answer") || !strcmp(w[v].w, "reply") ||
		     !strcmp(w[v].w, "report") || !strcmp(w[v].w, "announce")))
			q->self_speaker = 1;
	}
	/* order */
	for (size_t i = 0; i < k; i++) {
		const char *s = w[i].w;
		int o;
		if (!strcmp(s, "last") || !strcmp(s, "latest") || !strcmp(s, "recently") ||
		    !strcmp(s, "recent")) {
			if (!used[i])
				q->order = RO_LAST, q->order_said = 1;
		} else if ((!strcmp(s, "first") || !strcmp(s, "earliest") || !strcmp(s, "initially")) &&
		           !used[i]) {
			q->order = RO_FIRST, q->order_said = 1;
		} else if ((o = ordinal(s)) > 1 && i + 1 < k &&
		           (!strcmp(w[i + 1].w, "time") || !strcmp(w[i + 1].w, "occasion"))) {
			q->order = RO_NTH, q->nth = o, q->order_said = 1;
		} else if (!strcmp(s, "ever") || !strcmp(s, "all") || !strcmp(s, "every")) {
			if (q->kind == RQ_DAY || q->kind == RQ_WHO || q->kind == RQ_SEEN)
				q->plural = 1;
		}
	}
	if (q->kind == RQ_WHO && !has(w, k, "last") && !has(w, k, "first"))
		q->plural = 1;
}

/* ------------------------------------------------------------ the words -- */

/* Words that shape the question but name nothing. */
static int frame_word(const char *w)
{
	static const char *const f[] = { "how", "many", "much", "altogether", "total", "overall",
		                             "often", "long", "number", "what",
		                             "which", "who", "whom", "whose", "where", "when", "did",
		                             "do", "does", "done", "doing", "happen", "happened",
		                             "you", "your", "yourself", "times", "time", "day", "days",
		                             "date", "dates", "ago", "o", "m", "pm", "am", "th", "st",
		                             "nd", "rd", "object", "objects", "thing", "things", "item",
		                             "items", "person", "people", "place", "location", "go",
		                             "went", "ever", "frequently", "occasion", "tell", "me",
		                             "action", "actions", "task", "tasks", "activity",
		                             "activities", "anything", "everything", "nothing",
		                             "wrong", "able", "unable", "complete", "completed",
		                             "finish", "finished", "successful", "successfully",
		                             "could", "couldn", "manage", "managed", "try", "tried",
		                             "attempt", "attempted", "there", "any", "get", "step",
		                             "steps", "perform", "performed", "task", "new", "work",
		                             "worked", "working", "busy", "active", "run", "runs",
		                             "some", "certain", "didn", "doesn", "don", "wasn",
		                             "weren", "isn", "aren", "hasn", "haven", "hadn",
		                             "couldn", "wouldn", "won", "right", "just",
		                             "immediately", "directly", "shortly", "straight", NULL };
	for (const char *const *p = f; *p; p++)
		if (!strcmp(*p, w))
			return 1;
	return 0;
}

/* A title before a name says nothing about who it is. */
static int title_word(const char *w)
{
	static const char *const t[] = { "mr", "mrs", "ms", "miss", "dr", "prof", "professor",
		                             "sir", "madam", "nurse", "minister", "captain",
		                             "officer", "mister", "doctor", NULL };
	for (const char *const *p = t; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

static int frame_word(const char *w);

/* "hello", "hi", "goodbye": said or waved, not a thing to look for */
static int greeting_word(const char *w)
{
	static const char *const g[] = { "hello", "hi", "hey", "goodbye", "bye", "hallo",
		                             "howdy", NULL };
	for (const char *const *p = g; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

/* Is w[i], a verb's "-ing" form, a noun's modifier ("the reading glasses",
 * "the washing machine", "a charging station") rather than what was done?
 * It is when a plain noun follows and no subject or aspect verb precedes
 * ("were you cleaning", "did you start cleaning the room"). */
static int modifier_ing(const lex_word *w, size_t k, size_t i)
{
	size_t n = strlen(w[i].w);
	if (n < 5 || strcmp(w[i].w + n - 3, "ing") || i + 1 >= k || w[i + 1].digit)
		return 0;
	if (lex_stop(w[i + 1].stem) || lex_lemma(w[i + 1].stem, NULL) || frame_word(w[i + 1].w))
		return 0;
	/* "pipetting steps", "cleaning rounds": the doing, counted */
	static const char *const runs[] = { "session", "sessions", "round", "rounds", "cycle",
		                                "cycles", "job", "jobs", "duty", "duties", "shift",
		                                "shifts", "run", "runs", "routine", NULL };
	for (const char *const *p = runs; *p; p++)
		if (!strcmp(w[i + 1].w, *p))
			return 0;
	static const char *const before[] = { "you", "i", "we", "were", "was", "are", "is",
		                                  "start", "started", "finish", "finished", "stop",
		                                  "stopped", "keep", "kept", "begin", "began",
		                                  "go", "went", NULL };
	for (const char *const *p = before; i > 0 && *p; p++)
		if (!strcmp(w[i - 1].w, *p))
			return 0;
	return 1;
}

/* The symbol a log writes for a unit a person says in words ("kilos":
 * kg, "cubic metres": m3); NULL when the word is no unit. */
static const char *unit_symbol(const rquestion *q, const rq_term *u)
{
	static const char *const names[][2] = {
		{ "kilo", "kg" }, { "kilogram", "kg" }, { "gram", "g" }, { "tonn", "t" },
		{ "ton", "t" }, { "litr", "l" }, { "liter", "l" }, { "millilitr", "ml" },
		{ "milliliter", "ml" }, { "metr", "m" }, { "meter", "m" }, { "millimetr", "mm" },
		{ "millimet", "mm" }, { "centimetr", "cm" }, { "centimet", "cm" },
		{ "kilometr", "km" }, { "kilomet", "km" }, { "minut", "min" }, { "hour", "h" },
		{ "second", "s" }, { "percent", "%" }, { "degre", "deg" }, { "kilowatt", "kw" },
		{ "volt", "v" }, { "pound", "lb" }, { "gallon", "gal" }, { "mile", "mi" },
		{ "foot", "ft" }, { "feet", "ft" }, { "inch", "in" }, { "bar", "bar" } };
	/* "cubic metres", "square metres": the next word, cubed or squared */
	int cubic = !strcmp(u->word, "cubic"), square = !strcmp(u->word, "square");
	const rq_term *w = (cubic || square) && u + 1 < q->term + q->n_term ? u + 1 : u;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strncmp(w->stem, names[i][0], strlen(names[i][0])) &&
		    strlen(w->stem) <= strlen(names[i][0]) + 2) {
			if (cubic && !strcmp(names[i][1], "m"))
				return "m3";
			if (square && !strcmp(names[i][1], "m"))
				return "m2";
			return names[i][1];
		}
	return NULL;
}

/* "Summarize your highlights from June", "explain briefly what you did
 * each day that you can remember", "give me an overview": a question
 * about doing, told day by day when it says so; these words are no
 * content to match. */
static void read_summary(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	static const char *const words[] = { "summarize", "summarise", "summary", "summaries",
		                                 "overview", "highlights", "highlight", "recap",
		                                 "describe", "explain", "briefly", "brief", "detail",
		                                 "details", "detailed", "outline", "remember",
		                                 "recall", NULL };
	int summary = 0;
	for (size_t i = 0; i < k; i++)
		for (const char *const *p = words; *p; p++)
			if (!strcmp(w[i].w, *p)) {
				used[i] = 1;
				summary |= strcmp(*p, "remember") && strcmp(*p, "recall");
			}
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "each") || !strcmp(w[i].w, "every") || !strcmp(w[i].w, "per")) &&
		    !strcmp(w[i + 1].w, "day")) {
			q->by_day = 1;
			used[i] = used[i + 1] = 1;
		}
	for (size_t i = 0; i < k; i++)
		if (!strcmp(w[i].w, "daily") || (i + 2 < k && !strcmp(w[i].w, "day") &&
		                                   !strcmp(w[i + 1].w, "by") &&
		                                   !strcmp(w[i + 2].w, "day")))
			q->by_day = 1, used[i] = 1;
	if ((summary || q->by_day) && (q->kind == RQ_WHICH || q->kind == RQ_SEEN ||
	                               q->kind == RQ_DO))
		q->kind = RQ_DO, q->plural = 0;
}

void rq_parse(rquestion *q, const char *text, int64_t now)
{
	memset(q, 0, sizeof *q);
	q->verb = q->person = -1;
	lex_word w[MAXW];
	size_t k = lex_split(text, strlen(text), w, MAXW);
	if (k > MAXW)
		k = MAXW;
	uint8_t used[MAXW] = { 0 };
	/* "when did u ...", "where did ya ...", "ur keys": texting spellings */
	for (size_t i = 0; i < k; i++) {
		const char *to = !strcmp(w[i].w, "u") || !strcmp(w[i].w, "ya") ? "you"
		                 : !strcmp(w[i].w, "ur") ? "your" : NULL;
		if (to) {
			memcpy(w[i].w, to, strlen(to) + 1);
			lex_stem(w[i].w, strlen(w[i].w), w[i].stem);
			w[i].cap = 0;
		}
	}
	scope sc = { INT64_MIN, 0, -1, -1, -1, 0, 0, 0, 0, -1, -1 };
	read_scope(w, k, now, &sc, used);
	scope_range(&sc, now, &q->t0, &q->t1, &q->t_point);
	q->weekday = sc.weekday && sc.span == DAY_US && q->t1;
	/* the question proper may follow a scope: "On June 26, when did you ..." */
	size_t qi = 0;
	int found = 0;
	static const char *const qwords[] = { "when", "where", "who", "whom", "whose", "what",
		                                  "which", "how", "did", "do", "does", "have", "has",
		                                  "was", "were", "is", "are", "had", "can", "could",
		                                  NULL };
	for (size_t i = 0; i < k && i < 14 && !found; i++)
		for (const char *const *p = qwords; *p && !found; p++)
			if (!strcmp(w[i].w, *p) && (i == 0 || used[i - 1] || !strcmp(w[i].w, "when") ||
			                            !strcmp(w[i].w, "where") || !strcmp(w[i].w, "who") ||
			                            !strcmp(w[i].w, "what") || !strcmp(w[i].w, "which") ||
			                            !strcmp(w[i].w, "how"))) {
				qi = i;
				found = 1;
			}
	/* "on what day" / "at what time" start with their preposition */
	if (qi && (!strcmp(w[qi - 1].w, "on") || !strcmp(w[qi - 1].w, "at") ||
	           !strcmp(w[qi - 1].w, "to") || !strcmp(w[qi - 1].w, "from")))
		qi--;
	read_kind(q, w + qi, k - qi, used + qi);
	/* "what went wrong": not a journey */
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "went") || !strcmp(w[i].w, "go") || !strcmp(w[i].w, "goes")) &&
		    !strcmp(w[i + 1].w, "wrong"))
			used[i] = used[i + 1] = 1;
	/* "go": kept as a verb when it is the question's only verb ("where did
	 * you go") */
	read_summary(q, w, k, used);
	/* "Name the people you met", "List ...", "Tell me ...": an imperative */
	if (k && (!strcmp(w[0].w, "name") || !strcmp(w[0].w, "list") || !strcmp(w[0].w, "tell") ||
	          !strcmp(w[0].w, "show") || !strcmp(w[0].w, "describe") ||
	          !strcmp(w[0].w, "give") || !strcmp(w[0].w, "recall")))
		used[0] = 1;
	q->anchor = -1;
	for (size_t i = 0; i < k && q->n_term < RQ_TERMS; i++) {
		/* "what did you do after the photo / after you brought the milk":
		 * the words that follow name the moment (not "after 3 pm") */
		if (q->kind == RQ_DO && q->anchor < 0 && !used[i] && i + 1 < k && !w[i + 1].digit &&
		    (!strcmp(w[i].w, "after") || !strcmp(w[i].w, "before"))) {
			q->anchor = (int)q->n_term;
			q->anchor_after = !strcmp(w[i].w, "after");
			continue;
		}
		/* "what did you do when you introduced yourself / during the
		 * demo": the steps within that moment's span */
		if (q->kind == RQ_DO && q->anchor < 0 && !used[i] && i > qi && i + 1 < k &&
		    !w[i + 1].digit &&
		    (!strcmp(w[i].w, "when") || !strcmp(w[i].w, "while") || !strcmp(w[i].w, "during"))) {
			q->anchor = (int)q->n_term;
			q->anchor_during = 1;
			continue;
		}
		/* "what did you tell Lena when she asked where her mother was":
		 * a reply; the clause after "when" (or "after") names the moment,
		 * and what was said is what came right after it */
		if (q->kind == RQ_SAID && q->anchor < 0 && !used[i] && i > 0 && i + 1 < k &&
		    !w[i + 1].digit && (!strcmp(w[i].w, "when") || !strcmp(w[i].w, "after")) &&
		    said_clause(w + i + 1, k - i - 1)) {
			q->anchor = (int)q->n_term;
			q->anchor_after = 1;
			q->anchor_reply = 1;
			continue;
		}
		if (used[i])
			continue;
		if (w[i].digit && !(i > 0 && !w[i - 1].digit && !used[i - 1]))
			continue; /* "room 12" keeps its number; a lone number does not */
		int cls = LC_NONE;
		const char *lemma = lex_lemma(w[i].stem, &cls);
		/* "which dock", "what set": the word after which/what is a noun */
		if (lemma && i > 0 && (!strcmp(w[i - 1].w, "which") || !strcmp(w[i - 1].w, "what")) &&
		    i + 1 < k && (!strcmp(w[i + 1].w, "did") || !strcmp(w[i + 1].w, "do") ||
		                  !strcmp(w[i + 1].w, "does") || !strcmp(w[i + 1].w, "was") ||
		                  !strcmp(w[i + 1].w, "were") || !strcmp(w[i + 1].w, "is") ||
		                  !strcmp(w[i + 1].w, "had") || !strcmp(w[i + 1].w, "have")))
			lemma = NULL, cls = LC_NONE;
		if (!lemma && q->kind == RQ_SAID && i > qi && i == qi + verb_after_did(w + qi, k - qi) &&
		    said_verb(w, i))
			lemma = "say", cls = LC_SAY;
		if (lemma && modifier_ing(w, k, i))
			lemma = NULL, cls = LC_NONE; /* "the reading glasses" */
		/* "get home", "got to the lab": going, not fetching */
		if (lemma && cls == LC_TAKE && (!strcmp(w[i].w, "get") || !strcmp(w[i].w, "got")) &&
		    i + 1 < k && (!strcmp(w[i + 1].w, "to") || !strcmp(w[i + 1].w, "home") ||
		                  !strcmp(w[i + 1].w, "back") || !strcmp(w[i + 1].w, "there") ||
		                  !strcmp(w[i + 1].w, "into")))
			lemma = "go", cls = LC_GO;
		/* "did you drop anything": a fall, not a delivery ("drop off the
		 * parcel" is one); it matches only a skill that says so */
		if (lemma && (!strcmp(w[i].w, "drop") || !strcmp(w[i].w, "dropped") ||
		              !strcmp(w[i].w, "drops")) &&
		    !(i + 1 < k && !strcmp(w[i + 1].w, "off")) &&
		    !(i + 2 < k && !strcmp(w[i + 2].w, "off")))
			lemma = "drop", cls = LC_OTHER;
		/* "say hello to", "said hi to": greeting; "wave hello": the wave */
		if (i + 1 < k && greeting_word(w[i + 1].w) && lemma &&
		    (cls == LC_SAY || cls == LC_WAVE)) {
			if (cls == LC_SAY)
				lemma = "greet", cls = LC_MEET;
			used[i + 1] = 1;
		}
		if (lemma && lex_particle(w, k, i, &lemma, &cls)) {
			/* the particle is part of the verb, not a scope word */
			for (size_t j = i + 1; j < k && j <= i + 3; j++)
				if (!strcmp(w[j].w, "on") || !strcmp(w[j].w, "off") ||
				    (cls == LC_SCAN && (!strncmp(w[j].w, "pic", 3) ||
				                        !strncmp(w[j].w, "photo", 5) ||
				                        !strncmp(w[j].w, "image", 5) ||
				                        !strncmp(w[j].w, "snapshot", 8) ||
				                        !strncmp(w[j].w, "shot", 4)))) {
					used[j] = 1;
					break;
				}
		}
		/* "Mr. Novak": the word after a title is a name, though it follows
		 * a full stop */
		if (i > 0 && title_word(w[i - 1].w) && !w[i].digit && !lemma)
			w[i].cap = 1;
		/* "Rosa's glasses": an owner, seldom in the records, and not who
		 * the action was for: a word that counts when a fact names it
		 * ("owner": "Rosa Diaz"), never one it must */
		int owner = w[i].cap && !lemma && i + 1 < k && !strcmp(w[i + 1].w, "s") &&
		            i + 2 < k && !lex_stop(w[i + 2].stem);
		int stop = lex_stop(w[i].stem) || frame_word(w[i].w);
		/* "what did you place in the sink": a verb after its subject,
		 * though the word is also a noun we skip ("which place") */
		if (stop && lemma && i > 0 && (!strcmp(w[i - 1].w, "you") || !strcmp(w[i - 1].w, "i") ||
		                               !strcmp(w[i - 1].w, "we")))
			stop = 0;
		/* "what did you answer when someone asked what you could see": in a
		 * question about words, the other verbs are words to look for */
		int keep_verb = lemma && (cls == LC_GO || cls == LC_SAY || cls == LC_SEE ||
		                          cls == LC_MEET) && (q->verb < 0 || q->kind == RQ_SAID);
		if (stop && !keep_verb && !(w[i].cap && i > 0))
			continue;
		rq_term *t = &q->term[q->n_term];
		memcpy(t->stem, w[i].stem, LEX_WORD_MAX);
		memcpy(t->word, w[i].w, LEX_WORD_MAX);
		t->cap = w[i].cap;
		t->lemma = lemma;
		t->cls = cls;
		t->same = lemma ? -1 : lex_same_group(w[i].stem);
		t->owner = (uint8_t)owner;
		t->pos = (uint8_t)i;
		/* "during the (morning) demo" */
		t->occasion = 0;
		for (size_t j = i; j-- > 0 && j + 4 > i && !t->occasion;)
			if (!strcmp(w[j].w, "during"))
				t->occasion = 1;
			else if (!used[j] && !lex_stop(w[j].stem) && j + 1 < i)
				break;
		/* "last" / "first" already read; words like "put" are verbs */
		if (lemma && q->verb < 0 && !w[i].cap)
			q->verb = (int)q->n_term;
		else if (w[i].cap && q->person < 0 && !lemma && !title_word(w[i].w) && !owner)
			q->person = (int)q->n_term; /* "Mr. Tanaka": Tanaka */
		q->n_term++;
	}
	q->agent_term = -1;
	for (size_t t = 0; q->agent && qi + 1 < k && t < q->n_term; t++)
		if (!strcmp(q->term[t].word, w[qi + 1].w))
			q->agent_term = (int)t;
	/* "who handed in the umbrella", "who let the courier in": the
	 * particle is part of the deed (handing in is not handing over) */
	q->agent_particle[0] = 0;
	static const char *const part[] = { "in", "out", "up", "down", "off", "back", "over",
		                                "away", NULL };
	for (const char *const *p = part; q->agent && qi + 2 < k && *p; p++)
		if (!strcmp(w[qi + 2].w, *p) || !strcmp(w[k - 1].w, *p))
			snprintf(q->agent_particle, sizeof q->agent_particle, "%s", *p);
	/* the main verb is the one after "did you" ("whose face did you try to
	 * learn": learn, not face) */
	for (size_t i = 0; i + 1 < k; i++) {
		static const char *const aux[] = { "did", "do", "does", "have", "has", "had", "were",
			                               "was", "will", "can", "could", NULL };
		int is_aux = 0;
		for (const char *const *p = aux; *p; p++)
			is_aux |= !strcmp(w[i].w, *p);
		if (!is_aux || (strcmp(w[i + 1].w, "you") && strcmp(w[i + 1].w, "i") &&
		                strcmp(w[i + 1].w, "we")))
			continue;
		int found_verb = 0;
		for (size_t j = i + 2; j < k && j <= i + 5; j++) {
			for (size_t t = 0; t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[j].w) && q->term[t].lemma && !q->term[t].cap) {
					q->verb = (int)t;
					found_verb = 1;
					break;
				}
			if (found_verb)
				break;
		}
		/* "how many plates did you autoclave": a word the lexicon does not
		 * know, right after "did you", is the verb all the same; it then
		 * matches only by the words of a skill's name or verb */
		if (!found_verb && q->verb < 0 && i + 2 < k)
			for (size_t t = 0; t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[i + 2].w) && !q->term[t].cap &&
				    !w[i + 2].digit && !q->term[t].lemma) {
					q->term[t].lemma = "";
					q->term[t].cls = LC_OTHER;
					q->verb = (int)t;
					if (q->person == (int)t)
						q->person = -1;
					break;
				}
		break;
	}
	/* "row 22", "level 5", "column C7": a log may write the noun's first
	 * letter with the number ("R22", "L5") */
	for (size_t t = 0; t + 1 < q->n_term; t++) {
		rq_term *a = &q->term[t], *d = &q->term[t + 1];
		size_t nd = strlen(d->word);
		if (d->pos != a->pos + 1)
			continue; /* "the minibar in 204": 204 is no minibar's */
		int digits = nd > 0 && nd + 2 < LEX_WORD_MAX;
		for (size_t j = 0; j < nd && digits; j++)
			digits = d->word[j] >= '0' && d->word[j] <= '9';
		if (!digits || a->lemma || a->cap || strlen(a->word) < 3 || a->word[0] < 'a' ||
		    a->word[0] > 'z')
			continue;
		a->abbr[0] = a->word[0];
		memcpy(a->abbr + 1, d->word, nd + 1);
		memcpy(d->abbr, a->abbr, nd + 2);
		memcpy(d->pair, a->stem, LEX_WORD_MAX);
	}
	/* "kilos", "cubic metres": the symbol a log writes ("kg", "m3") */
	for (size_t t = 0; t < q->n_term; t++) {
		const char *sym = q->term[t].lemma || q->term[t].cap ? NULL : unit_symbol(q, &q->term[t]);
		if (sym)
			snprintf(q->term[t].unit, sizeof q->term[t].unit, "%s", sym);
	}
	/* "which tote", "what package": the noun names the kind of thing asked
	 * for, which a fact need not repeat */
	q->category = -1;
	if ((q->kind == RQ_WHICH || q->kind == RQ_COUNT) && q->n_term) {
		size_t qi2 = 0;
		while (qi2 + 1 < k && strcmp(w[qi2].w, "which") && strcmp(w[qi2].w, "what") &&
		       strcmp(w[qi2].w, "many") && strcmp(w[qi2].w, "much"))
			qi2++;
		/* "how many insulin pens did": the second noun of two before the
		 * verb's helper */
		static const char *const aux[] = { "did", "do", "does", "were", "was", "have", "had",
			                               "are", "is", "went", "came", NULL };
		int two = q->kind == RQ_COUNT && qi2 + 3 < k && !w[qi2 + 2].digit && !w[qi2 + 2].cap &&
		          !lex_stop(w[qi2 + 2].stem) && !lex_lemma(w[qi2 + 2].stem, NULL) &&
		          (!strcmp(w[qi2].w, "many") || !strcmp(w[qi2].w, "much"));
		int then_aux = 0;
		for (const char *const *p = aux; two && *p; p++)
			then_aux |= !strcmp(w[qi2 + 3].w, *p);
		if (two && then_aux)
			qi2++;
		/* "how much heparin ..., in ampoules": the unit said last */
		if (q->kind == RQ_COUNT && k > 2 && !strcmp(w[k - 2].w, "in") && !w[k - 1].digit &&
		    !lex_stop(w[k - 1].stem) && strcmp(w[k - 1].w, "total") &&
		    strcmp(w[k - 1].w, "sum") && strcmp(w[k - 1].w, "general") &&
		    strcmp(w[k - 1].w, "fact") && strcmp(w[k - 1].w, "time") && !w[k - 1].cap)
			qi2 = k - 2;
		if (qi2 + 1 < k)
			for (size_t t = 0; t < q->n_term; t++)
				/* "how many photos did you take": a noun there, though
				 * the lexicon knows the word as a verb too */
				if (!strcmp(q->term[t].word, w[qi2 + 1].w) && !q->term[t].cap &&
				    (!q->term[t].lemma || ((int)t != q->verb && q->verb >= 0))) {
					q->category = (int)t;
					break;
				}
	}
	/* "which floor", "what flight", for any kind: the noun after the
	 * wh-word, which a parameter's key may name */
	q->key = -1;
	for (size_t i = 0; i + 1 < k && q->key < 0; i++)
		if (!strcmp(w[i].w, "which") || !strcmp(w[i].w, "what"))
			for (size_t t = 0; t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[i + 1].w) && !q->term[t].lemma &&
				    !q->term[t].cap) {
					q->key = (int)t;
					break;
				}
	/* the category, and a plural noun ("did you chop vegetables"), may be
	 * met by its kinds */
	for (size_t t = 0; t < q->n_term; t++) {
		rq_term *m = &q->term[t];
		size_t n = strlen(m->word);
		int plural = n > 3 && m->word[n - 1] == 's' && m->word[n - 2] != 's' &&
		             m->word[n - 2] != '\'' && strcmp(m->stem, m->word);
		m->kind = m->lemma || m->cap ? 0 : (int)t == q->category ? 1 : plural ? 2 : 0;
	}
	/* "where did you put the tote you picked from A7": the main verb says
	 * whether "from" asks for the source */
	if (q->verb >= 0) {
		int c = q->term[q->verb].cls;
		/* but "where did the tote come from", "where did you get it from":
		 * a "from" that closes the question or follows the verb asks it */
		int asks_from = k && !strcmp(w[k - 1].w, "from");
		for (size_t i = 0; i + 1 < k && !asks_from; i++)
			if (!strcmp(w[i].w, q->term[q->verb].word) && !strcmp(w[i + 1].w, "from"))
				asks_from = 1;
		if (q->kind == RQ_FROM && !asks_from && (c == LC_PUT || c == LC_GIVE || c == LC_GO))
			q->kind = RQ_WHERE;
		/* "where did you find the remote": where it was, not where it went */
		if (q->kind == RQ_WHERE && c == LC_SEARCH)
			q->kind = RQ_FROM;
	}
	/* "what did the user / the nurse / Anna say": the speaker */
	if (q->kind == RQ_SAID && !q->self_speaker) {
		for (size_t i = 0; i + 2 < k; i++) {
			if (strcmp(w[i].w, "did") && strcmp(w[i].w, "does") && strcmp(w[i].w, "has"))
				continue;
			size_t j = i + 1;
			if (j < k && (!strcmp(w[j].w, "the") || !strcmp(w[j].w, "a") ||
			              !strcmp(w[j].w, "my") || !strcmp(w[j].w, "your")))
				j++;
			for (size_t t = 0; j < k && t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[j].w) && !q->term[t].lemma)
					q->person = (int)t;
			static const char *const others[] = { "people", "someone", "somebody",
				                                  "anyone", "anybody", "they", "others",
				                                  "everyone", "everybody", "humans", NULL };
			for (const char *const *p = others; j < k && *p; p++)
				if (!strcmp(w[j].w, *p))
					q->others_speak = 1;
			break;
		}
	}
	/* "who came over", "who visited", "who dropped by": someone the robot
	 * met, not somewhere it went */
	if (q->kind == RQ_WHO && q->verb >= 0 && q->term[q->verb].cls == LC_GO && k > 1 &&
	    (!strcmp(w[0].w, "who") || (k > 2 && !strcmp(w[0].w, "which") &&
	                                 !strcmp(w[2].w, q->term[q->verb].word))) &&
	    (!strcmp(w[1].w, q->term[q->verb].word) || !strcmp(w[2 < k ? 2 : 1].w, q->term[q->verb].word)))
		for (size_t i = 0; i < q->n_term; i++) /* "came to visit": both */
			if (q->term[i].cls == LC_GO && !q->term[i].cap)
				q->term[i].cls = LC_MEET;
	/* the words "say/see/meet" that chose the kind are no targets */
	if (q->verb >= 0) {
		int c = q->term[q->verb].cls;
		if ((q->kind == RQ_SAID && c == LC_SAY) || (q->kind == RQ_SEEN && c == LC_SEE) ||
		    (q->kind == RQ_WHO && (c == LC_MEET || c == LC_SEE || c == LC_LOOK))) {
			memmove(&q->term[q->verb], &q->term[q->verb + 1],
			        (q->n_term - (size_t)q->verb - 1) * sizeof *q->term);
			q->n_term--;
			if (q->person > q->verb)
				q->person--;
			q->verb = -1;
			for (size_t i = 0; i < q->n_term; i++)
				if (q->term[i].lemma && !q->term[i].cap) {
					q->verb = (int)i;
					break;
				}
		}
	}
}
