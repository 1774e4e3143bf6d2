/*
 * judge_when.c — dates and times read from English text as intervals as
 * precise as they are written: "2024/09/23, 10:03:55", "2024-04-19 at
 * 17:03", "September 23, 2024 at 10:03 am", "10:03 am on 23 Sep", "Apr 19,
 * 2024, between 16:59 and 17:02", "around 5pm", "in the afternoon",
 * "07/13", "yesterday", "3 days ago". Everything is UTC wall-clock.
 */
#include <string.h>

#include "bench/eval/judge_int.h"

#define SEC 1000000LL
#define DAY (86400 * SEC)

enum { M_DATE, M_TIME, M_PERIOD };

typedef struct mark {
	int type;
	int64_t day;      /* M_DATE: day start; INT64_MIN when unknown */
	int y, m, d;      /* M_DATE: y 0 when not written */
	int64_t lo, hi;   /* M_TIME / M_PERIOD: µs from midnight */
	int prec;
	uint32_t pos, end;
	int used;
} mark;

typedef struct scan {
	const char *s;
	size_t n;
	mark m[JD_MAX_WHEN];
	size_t nm;
} scan;

static int dig(const scan *c, size_t i)
{
	return i < c->n && c->s[i] >= '0' && c->s[i] <= '9';
}

static int alpha(const scan *c, size_t i)
{
	if (i >= c->n)
		return 0;
	char ch = c->s[i];
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static char low(const scan *c, size_t i)
{
	char ch = i < c->n ? c->s[i] : '\0';
	return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* Does the word `w` (lower-case) start at i and end there? Returns its
 * length or 0. */
static size_t word_is(const scan *c, size_t i, const char *w)
{
	size_t k = strlen(w);
	for (size_t j = 0; j < k; j++)
		if (low(c, i + j) != w[j])
			return 0;
	return alpha(c, i + k) ? 0 : k;
}

static size_t skip_sp(const scan *c, size_t i)
{
	while (i < c->n && (c->s[i] == ' ' || c->s[i] == '\t'))
		i++;
	return i;
}

/* Up to `max` digits at i: value and count. */
static size_t num(const scan *c, size_t i, int max, int *v)
{
	size_t k = 0;
	*v = 0;
	while (k < (size_t)max && dig(c, i + k))
		*v = *v * 10 + (c->s[i + k] - '0'), k++;
	return dig(c, i + k) ? 0 : k; /* longer numbers are not ours */
}

int64_t jd_day_start(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468) * DAY;
}

int jd_year_of(int64_t t)
{
	int64_t days = t >= 0 ? t / DAY : -((-t + DAY - 1) / DAY);
	int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	int m = (int)(mp < 10 ? mp + 3 : mp - 9);
	return (int)(yoe + era * 400 + (m <= 2));
}

static int valid(int y, int m, int d)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return y >= 0 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= mdays[m - 1];
}

static void add(scan *c, mark mk)
{
	if (c->nm < JD_MAX_WHEN)
		c->m[c->nm++] = mk;
}

static void add_date(scan *c, int y, int m, int d, size_t pos, size_t end)
{
	if (!valid(y ? y : 2000, m, d))
		return;
	mark mk = { .type = M_DATE, .y = y, .m = m, .d = d, .pos = (uint32_t)pos,
		    .end = (uint32_t)end, .day = y ? jd_day_start(y, m, d) : INT64_MIN };
	add(c, mk);
}

static void add_time(scan *c, int64_t lo, int64_t hi, int prec, size_t pos, size_t end)
{
	mark mk = { .type = prec == JD_P_PERIOD ? M_PERIOD : M_TIME, .lo = lo, .hi = hi,
		    .prec = prec, .pos = (uint32_t)pos, .end = (uint32_t)end, .day = INT64_MIN };
	add(c, mk);
}

static int month_at(const scan *c, size_t i, size_t *len)
{
	static const char *const full[] = { "january", "february", "march", "april", "may", "june",
		"july", "august", "september", "october", "november", "december" };
	static const char *const abbr[] = { "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug",
		"sep", "oct", "nov", "dec" };
	if (i > 0 && alpha(c, i - 1))
		return 0;
	for (int m = 0; m < 12; m++) {
		size_t k = word_is(c, i, full[m]);
		if (!k && !(k = word_is(c, i, abbr[m])) && m == 8)
			k = word_is(c, i, "sept");
		if (k) {
			if (low(c, i + k) == '.')
				k++;
			*len = k;
			return m + 1;
		}
	}
	return 0;
}

/* am / pm / a.m. / p.m. at i (after spaces): 1 am, 2 pm, 0 none; *end
 * where it ends. */
static int ampm(const scan *c, size_t i, size_t *end)
{
	i = skip_sp(c, i);
	char a = low(c, i);
	if (a != 'a' && a != 'p')
		return 0;
	i++;
	if (low(c, i) == '.')
		i++;
	if (low(c, i) != 'm' || alpha(c, i + 1))
		return 0;
	i++;
	if (low(c, i) == '.' && (i + 1 >= c->n || !alpha(c, i + 1)))
		i++;
	*end = i;
	return a == 'a' ? 1 : 2;
}

/* Day number with an ordinal suffix: "23", "23rd", "1st". */
static size_t day_num(const scan *c, size_t i, int *d)
{
	size_t k = 0;
	*d = 0;
	while (k < 2 && dig(c, i + k))
		*d = *d * 10 + (c->s[i + k] - '0'), k++;
	if (!k || dig(c, i + k))
		return 0;
	static const char *const suf[] = { "st", "nd", "rd", "th" };
	for (int s = 0; s < 4; s++)
		if (low(c, i + k) == suf[s][0] && low(c, i + k + 1) == suf[s][1] && !alpha(c, i + k + 2))
			return k + 2;
	if (alpha(c, i + k))
		return 0;
	return k;
}

/* ", 2024" / " 2024" after a date: the year and the end, else 0. */
static int year_after(const scan *c, size_t i, size_t *end)
{
	size_t j = i;
	if (low(c, j) == ',')
		j++;
	j = skip_sp(c, j);
	int y;
	if (dig(c, j) && num(c, j, 4, &y) == 4 && c->s[j + 4] != ':') {
		*end = j + 4;
		return y;
	}
	return 0;
}

static int scan_numeric(scan *c, size_t i, size_t *next)
{
	int a, b, d2, k1, k2, k3;
	if ((k1 = (int)num(c, i, 4, &a)) == 0)
		return 0;
	char sep = i + k1 < c->n ? c->s[i + k1] : '\0';
	/* 2024/09/23, 2024-09-23, 2024.09.23 */
	if (k1 == 4 && (sep == '/' || sep == '-' || sep == '.') &&
	    (k2 = (int)num(c, i + 5, 2, &b)) > 0 && i + 5 + k2 < c->n && c->s[i + 5 + k2] == sep &&
	    (k3 = (int)num(c, i + 6 + k2, 2, &d2)) > 0) {
		add_date(c, a, b, d2, i, i + 6 + k2 + k3);
		*next = i + 6 + k2 + k3;
		return 1;
	}
	if (k1 > 2)
		return 0;
	/* 09/23/2024 (US), 23.09.2024 (European), 23/09/2024 when 23 > 12 */
	if ((sep == '/' || sep == '.' || sep == '-') && (k2 = (int)num(c, i + k1 + 1, 2, &b)) > 0 &&
	    i + k1 + 1 + k2 < c->n && c->s[i + k1 + 1 + k2] == sep &&
	    num(c, i + k1 + 2 + k2, 4, &d2) == 4) {
		int m = sep == '.' || a > 12 ? b : a, d = sep == '.' || a > 12 ? a : b;
		add_date(c, d2, m, d, i, i + k1 + 6 + k2);
		*next = i + k1 + 6 + k2;
		return 1;
	}
	/* 10:03, 10:03:55, 10:03:55.250, 5:07 pm */
	if (sep == ':' && num(c, i + k1 + 1, 2, &b) == 2 && b < 60) {
		size_t j = i + k1 + 3;
		int s = 0, has_s = 0;
		if (j < c->n && c->s[j] == ':' && num(c, j + 1, 2, &s) == 2 && s < 61)
			has_s = 1, j += 3;
		if (has_s && j < c->n && c->s[j] == '.' && dig(c, j + 1))
			for (j++; dig(c, j); j++)
				;
		size_t e;
		int ap = ampm(c, j, &e);
		if (ap && a >= 1 && a <= 12)
			a = a % 12 + (ap == 2 ? 12 : 0), j = e;
		if (a > 24 || (a == 24 && (b || s)))
			return 0;
		int64_t lo = ((int64_t)a * 3600 + b * 60 + s) * SEC;
		add_time(c, lo, lo + (has_s ? SEC : 60 * SEC) - 1, has_s ? JD_P_SEC : JD_P_MIN, i, j);
		*next = j;
		return 1;
	}
	/* 5pm, 5 p.m., 5 o'clock */
	size_t e;
	int ap = ampm(c, i + k1, &e);
	size_t oc = skip_sp(c, i + k1);
	size_t ock = word_is(c, oc, "o'clock");
	if (!ock)
		ock = word_is(c, oc, "oclock");
	if ((ap && a >= 1 && a <= 12) || (ock && a <= 24)) {
		int h = ap ? a % 12 + (ap == 2 ? 12 : 0) : a;
		int64_t at = (int64_t)h * 3600 * SEC;
		add_time(c, at - 1800 * SEC, at + 1800 * SEC - 1, JD_P_HOUR, i, ap ? e : oc + ock);
		*next = ap ? e : oc + ock;
		return 1;
	}
	/* 07/13 (month/day, no year) */
	if (sep == '/' && (k2 = (int)num(c, i + k1 + 1, 2, &b)) > 0 &&
	    !(i + k1 + 1 + k2 < c->n && (c->s[i + k1 + 1 + k2] == '/' || dig(c, i + k1 + 1 + k2)))) {
		if (!(i > 0 && (c->s[i - 1] == '/' || dig(c, i - 1))))
			add_date(c, 0, a, b, i, i + k1 + 1 + k2);
		*next = i + k1 + 1 + k2;
		return 1;
	}
	/* 23 September [2024], 23rd of September */
	int d;
	size_t dk = day_num(c, i, &d);
	if (dk) {
		size_t j = skip_sp(c, i + dk + (low(c, i + dk) == '.'));
		if (word_is(c, j, "of"))
			j = skip_sp(c, j + 2);
		size_t ml;
		int m = month_at(c, j, &ml);
		if (m) {
			size_t end = j + ml;
			int y = year_after(c, end, &end);
			add_date(c, y, m, d, i, end);
			*next = end;
			return 1;
		}
	}
	return 0;
}

static int scan_word(scan *c, size_t i, size_t *next, int64_t now)
{
	size_t ml, k;
	int m = month_at(c, i, &ml), d;
	if (m) { /* September 23, 2024 / Sep 23rd / June 4 */
		size_t j = skip_sp(c, i + ml);
		size_t dk = day_num(c, j, &d);
		if (dk && low(c, j + dk) != ':') {
			size_t end = j + dk;
			int y = year_after(c, end, &end);
			add_date(c, y, m, d, i, end);
			*next = end;
			return 1;
		}
		return 0;
	}
	if ((k = word_is(c, i, "noon")) || (k = word_is(c, i, "midday"))) {
		add_time(c, 11 * 3600 * SEC + 1800 * SEC, 12 * 3600 * SEC + 1800 * SEC - 1, JD_P_HOUR,
		         i, i + k);
		*next = i + k;
		return 1;
	}
	if ((k = word_is(c, i, "midnight"))) {
		add_time(c, 0, 1800 * SEC - 1, JD_P_HOUR, i, i + k);
		*next = i + k;
		return 1;
	}
	static const struct { const char *w; int h0, h1; } periods[] = { { "morning", 6, 12 },
		{ "forenoon", 6, 12 }, { "afternoon", 12, 18 }, { "evening", 17, 22 },
		{ "night", 20, 24 }, { NULL, 0, 0 } };
	for (int p = 0; periods[p].w; p++)
		if ((k = word_is(c, i, periods[p].w))) {
			add_time(c, periods[p].h0 * 3600 * SEC, periods[p].h1 * 3600 * SEC - 1,
			         JD_P_PERIOD, i, i + k);
			*next = i + k;
			return 1;
		}
	if (now > 0 && ((k = word_is(c, i, "today")) || (k = word_is(c, i, "yesterday")))) {
		int64_t day = now - (now % DAY + DAY) % DAY - (low(c, i) == 'y' ? DAY : 0);
		mark mk = { .type = M_DATE, .day = day, .y = 1 /* written */, .pos = (uint32_t)i,
			    .end = (uint32_t)(i + k) };
		add(c, mk);
		*next = i + k;
		return 1;
	}
	return 0;
}

/* "N days ago" with `now`: a date. */
static int scan_ago(scan *c, size_t i, size_t *next, int64_t now)
{
	int v;
	size_t k = num(c, i, 4, &v), j, w;
	if (!k || now <= 0)
		return 0;
	j = skip_sp(c, i + k);
	if (!(w = word_is(c, j, "days")) && !(w = word_is(c, j, "day")))
		return 0;
	j = skip_sp(c, j + w);
	if (!(w = word_is(c, j, "ago")))
		return 0;
	int64_t day = now - (now % DAY + DAY) % DAY - (int64_t)v * DAY;
	mark mk = { .type = M_DATE, .day = day, .y = 1, .pos = (uint32_t)i, .end = (uint32_t)(j + w) };
	add(c, mk);
	*next = j + w;
	return 1;
}

/* Is the text between two times a range joiner ("-", "to", "and" after
 * "between")? */
static int joins(const scan *c, const mark *a, const mark *b)
{
	size_t i = skip_sp(c, a->end), e = b->pos;
	while (e > i && (c->s[e - 1] == ' ' || c->s[e - 1] == '\t'))
		e--;
	static const char *const words[] = { "to", "until", "till", "through", "and", NULL };
	if (e == i + 1 && (c->s[i] == '-' || c->s[i] == '~'))
		return 1;
	if (e == i + 3 && (unsigned char)c->s[i] == 0xE2 && (unsigned char)c->s[i + 1] == 0x80 &&
	    ((unsigned char)c->s[i + 2] == 0x93 || (unsigned char)c->s[i + 2] == 0x94))
		return 1;
	for (size_t w = 0; words[w]; w++) {
		size_t k = strlen(words[w]);
		if (e == i + k && word_is(c, i, words[w])) {
			if (strcmp(words[w], "and"))
				return 1;
			for (size_t back = a->pos > 12 ? a->pos - 12 : 0; back < a->pos; back++)
				if (word_is(c, back, "between"))
					return 1;
		}
	}
	return 0;
}

/* The year for dates written without one. */
static void fill_years(scan *c, int64_t now, int year_hint)
{
	int last_year = 0;
	for (size_t i = 0; i < c->nm; i++) {
		mark *mk = &c->m[i];
		if (mk->type != M_DATE || mk->day != INT64_MIN) {
			if (mk->type == M_DATE && mk->y > 1)
				last_year = mk->y;
			continue;
		}
		int y = last_year;
		if (!y && now > 0) {
			y = jd_year_of(now);
			if (valid(y, mk->m, mk->d) && jd_day_start(y, mk->m, mk->d) > now)
				y--;
		}
		if (!y)
			y = year_hint;
		if (y > 0 && valid(y, mk->m, mk->d))
			mk->day = jd_day_start(y, mk->m, mk->d);
	}
}

static size_t gap(const mark *a, const mark *b)
{
	return a->end <= b->pos ? b->pos - a->end : a->pos >= b->end ? a->pos - b->end : 0;
}

void jd_find_whens(jd_whens *out, const char *s, size_t n, int64_t now, int year_hint)
{
	scan sc = { .s = s, .n = n, .nm = 0 };
	for (size_t i = 0; i < n && sc.nm < JD_MAX_WHEN;) {
		size_t next = i + 1;
		int word_start = i == 0 || !(alpha(&sc, i - 1) || dig(&sc, i - 1)) ||
		                 (i >= 2 && s[i - 1] == 'T' && dig(&sc, i - 2)); /* ISO 8601 */
		if (word_start && dig(&sc, i)) {
			if (!scan_ago(&sc, i, &next, now) && !scan_numeric(&sc, i, &next))
				while (dig(&sc, next))
					next++;
		} else if (word_start && alpha(&sc, i)) {
			scan_word(&sc, i, &next, now);
		}
		i = next > i ? next : i + 1;
	}
	fill_years(&sc, now, year_hint);
	int clock = 0;
	for (size_t i = 0; i < sc.nm; i++)
		clock |= sc.m[i].type == M_TIME;
	/* ranges: "between 16:59 and 17:02", "21:23-21:35" */
	for (size_t i = 0; i + 1 < sc.nm; i++) {
		mark *a = &sc.m[i], *b = &sc.m[i + 1];
		if (a->type == M_TIME && b->type == M_TIME && joins(&sc, a, b) && b->hi >= a->lo) {
			a->hi = b->hi;
			a->end = b->end;
			a->prec = JD_P_RANGE;
			b->used = 1;
		}
	}
	out->n = 0;
	for (size_t i = 0; i < sc.nm && out->n < JD_MAX_WHEN; i++) {
		mark *t = &sc.m[i];
		if (t->used || t->type == M_DATE || (t->type == M_PERIOD && clock))
			continue;
		/* its day: the nearest date, or the only one */
		mark *best = NULL;
		size_t n_dates = 0;
		for (size_t j = 0; j < sc.nm; j++) {
			mark *d = &sc.m[j];
			if (d->type != M_DATE || d->day == INT64_MIN)
				continue;
			n_dates++;
			if (!best || gap(d, t) < gap(best, t))
				best = d;
		}
		if (best && n_dates > 1 && gap(best, t) > 60)
			best = NULL;
		jd_when *w = &out->v[out->n++];
		w->has_time = 1;
		w->prec = t->prec;
		w->pos = t->pos;
		w->day = best ? best->day : INT64_MIN;
		w->lo = (best ? best->day : 0) + t->lo;
		w->hi = (best ? best->day : 0) + t->hi;
		if (best)
			best->used = 2;
	}
	for (size_t i = 0; i < sc.nm && out->n < JD_MAX_WHEN; i++) {
		mark *d = &sc.m[i];
		if (d->type != M_DATE || d->used || d->day == INT64_MIN)
			continue;
		jd_when *w = &out->v[out->n++];
		w->has_time = 0;
		w->prec = JD_P_DAY;
		w->pos = d->pos;
		w->day = d->day;
		w->lo = d->day;
		w->hi = d->day + DAY - 1;
	}
}

size_t jd_days_ago(int *v, size_t cap, const char *s, size_t n)
{
	scan sc = { .s = s, .n = n, .nm = 0 };
	size_t k = 0;
	for (size_t i = 0; i < n && k < cap; i++) {
		int word_start = i == 0 || !(alpha(&sc, i - 1) || dig(&sc, i - 1));
		size_t w;
		if (!word_start)
			continue;
		if (word_is(&sc, i, "today")) {
			v[k++] = 0;
		} else if (word_is(&sc, i, "yesterday")) {
			v[k++] = 1;
		} else if (dig(&sc, i)) {
			int x;
			size_t d = num(&sc, i, 6, &x), j;
			if (!d)
				continue;
			j = skip_sp(&sc, i + d);
			if (!(w = word_is(&sc, j, "days")) && !(w = word_is(&sc, j, "day")))
				continue;
			if (word_is(&sc, skip_sp(&sc, j + w), "ago"))
				v[k++] = x;
		}
	}
	return k;
}
