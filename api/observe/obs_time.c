/*
 * obs_time.c — observation times: RFC 3339 text to µs since the epoch and
 * back. Written out rather than left to strptime/timegm, which depend on
 * the locale and the TZ environment and accept more than RFC 3339 does.
 */
#include <string.h>

#include "api/observe/obs_internal.h"
#include "engine/engine.h"

#define US_PER_SEC INT64_C(1000000)
#define SEC_PER_DAY INT64_C(86400)

/* Days since 1970-01-01 of a proleptic Gregorian date, year >= 0. Counts in
 * 400-year eras starting on March 1st so that the leap day ends a year. */
static int64_t days_from_date(int64_t y, int m, int d)
{
	if (m <= 2)
		y--;
	int64_t era = y / 400;
	int64_t year_of_era = y - era * 400;
	int month_from_march = m > 2 ? m - 3 : m + 9;
	int64_t day_of_year = (153 * month_from_march + 2) / 5 + d - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
	return era * 146097 + day_of_era - 719468; /* 719468: days from 0000-03-01 */
}

/* The inverse of days_from_date, for days >= 0. */
static void date_from_days(int64_t days, int64_t *y, int *m, int *d)
{
	days += 719468;
	int64_t era = days / 146097;
	int64_t day_of_era = days - era * 146097;
	int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 -
	                       day_of_era / 146096) / 365;
	int64_t day_of_year =
		day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
	int64_t month_from_march = (5 * day_of_year + 2) / 153;
	*d = (int)(day_of_year - (153 * month_from_march + 2) / 5 + 1);
	*m = (int)(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
	*y = year_of_era + era * 400 + (*m <= 2);
}

static int days_in_month(int64_t y, int m)
{
	static const int dim[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : dim[m - 1];
}

/* A cursor over the text being parsed. */
typedef struct tscan {
	const char *s;
	size_t n, i;
} tscan;

/* Exactly `width` decimal digits. */
static int digits(tscan *t, int width, int *out)
{
	int v = 0;
	for (int k = 0; k < width; k++, t->i++) {
		if (t->i >= t->n || t->s[t->i] < '0' || t->s[t->i] > '9')
			return -1;
		v = v * 10 + (t->s[t->i] - '0');
	}
	*out = v;
	return 0;
}

static int expect(tscan *t, char c)
{
	if (t->i >= t->n || t->s[t->i] != c)
		return -1;
	t->i++;
	return 0;
}

static int parse_date(tscan *t, int *y, int *m, int *d, const char **why)
{
	if (digits(t, 4, y) || expect(t, '-') || digits(t, 2, m) || expect(t, '-') ||
	    digits(t, 2, d)) {
		*why = "expected a date as YYYY-MM-DD";
		return -1;
	}
	if (*y < 1970) {
		*why = "years before 1970 are out of range";
		return -1;
	}
	if (*m < 1 || *m > 12) {
		*why = "the month is out of range";
		return -1;
	}
	if (*d < 1 || *d > days_in_month(*y, *m)) {
		*why = "the day is out of range for its month";
		return -1;
	}
	return 0;
}

static int parse_clock(tscan *t, int *h, int *mi, int *sec, const char **why)
{
	if (digits(t, 2, h) || expect(t, ':') || digits(t, 2, mi) || expect(t, ':') ||
	    digits(t, 2, sec)) {
		*why = "expected a time as HH:MM:SS";
		return -1;
	}
	if (*h > 23 || *mi > 59) {
		*why = "the hour or minute is out of range";
		return -1;
	}
	if (*sec > 59) {
		*why = "seconds must be 00..59 (leap seconds are not supported)";
		return -1;
	}
	return 0;
}

/* Optional ".f" with 1..9 digits; digits beyond the sixth (below a µs) are
 * dropped, so nanosecond clocks can be fed as they are. */
static int parse_fraction(tscan *t, int64_t *us, const char **why)
{
	*us = 0;
	if (t->i >= t->n || t->s[t->i] != '.')
		return 0;
	t->i++;
	int nd = 0;
	int64_t scale = 100000;
	while (t->i < t->n && t->s[t->i] >= '0' && t->s[t->i] <= '9') {
		if (++nd > 9) {
			*why = "more than 9 digits of fractional seconds";
			return -1;
		}
		*us += (t->s[t->i] - '0') * scale;
		scale /= 10;
		t->i++;
	}
	if (nd == 0) {
		*why = "expected digits after the decimal point";
		return -1;
	}
	return 0;
}

/* Optional zone: Z, or +HH:MM / -HH:MM. No zone means UTC. */
static int parse_zone(tscan *t, int64_t *offset_s, const char **why)
{
	*offset_s = 0;
	if (t->i >= t->n)
		return 0;
	char c = t->s[t->i];
	if (c == 'Z' || c == 'z') {
		t->i++;
		return 0;
	}
	int h, m;
	if (c != '+' && c != '-') {
		*why = "expected Z, +HH:MM or -HH:MM after the time";
		return -1;
	}
	t->i++;
	if (digits(t, 2, &h) || expect(t, ':') || digits(t, 2, &m) || h > 23 || m > 59) {
		*why = "the zone offset must be +HH:MM or -HH:MM";
		return -1;
	}
	*offset_s = (c == '-' ? -1 : 1) * ((int64_t)h * 3600 + m * 60);
	return 0;
}

int obs_time_parse(int64_t *out, const char *s, size_t n, const char **why)
{
	int zone;
	return obs_time_parse_zone(out, &zone, s, n, why);
}

int obs_time_parse_zone(int64_t *out, int *zone_min, const char *s, size_t n, const char **why)
{
	*zone_min = 0;
	tscan t = { s, n, 0 };
	int y, mo, d, h, mi, sec;
	int64_t frac_us, offset_s;
	if (parse_date(&t, &y, &mo, &d, why))
		return -1;
	if (t.i >= n || (s[t.i] != 'T' && s[t.i] != 't' && s[t.i] != ' ')) {
		*why = "expected 'T' between the date and the time";
		return -1;
	}
	t.i++;
	if (parse_clock(&t, &h, &mi, &sec, why) || parse_fraction(&t, &frac_us, why) ||
	    parse_zone(&t, &offset_s, why))
		return -1;
	if (t.i != n) {
		*why = "unexpected characters after the time";
		return -1;
	}
	int64_t secs = days_from_date(y, mo, d) * SEC_PER_DAY + h * 3600 + mi * 60 + sec - offset_s;
	if (secs < 0 || secs > OBS_TIME_MAX / US_PER_SEC) {
		*why = "the time is outside 1970-01-01T00:00:00Z .. 9999-12-31T23:59:59Z";
		return -1;
	}
	*out = secs * US_PER_SEC + frac_us;
	*zone_min = (int)(offset_s / 60);
	return 0;
}

/* Write `v` as exactly `width` decimal digits at p; returns the end. */
static char *put_digits(char *p, int64_t v, int width)
{
	for (int k = width - 1; k >= 0; k--) {
		p[k] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + width;
}

void obs_time_format(char out[OBS_TIME_TEXT], int64_t us)
{
	obs_time_format_zone(out, us, 0);
}

void obs_time_format_zone(char out[OBS_TIME_TEXT], int64_t us, int zone_min)
{
	if (us < 0)
		us = 0;
	if (us > OBS_TIME_MAX)
		us = OBS_TIME_MAX;
	if (zone_min < -OBS_ZONE_MAX || zone_min > OBS_ZONE_MAX)
		zone_min = 0;
	int64_t local = us + (int64_t)zone_min * 60 * US_PER_SEC;
	if (local < 0 || local > OBS_TIME_MAX) /* the clock would leave 0000..9999 */
		local = us, zone_min = 0;
	us = local;
	int64_t secs = us / US_PER_SEC, in_day = secs % SEC_PER_DAY, y;
	int m, d;
	date_from_days(secs / SEC_PER_DAY, &y, &m, &d);
	char *p = put_digits(out, y, 4);
	*p++ = '-';
	p = put_digits(p, m, 2);
	*p++ = '-';
	p = put_digits(p, d, 2);
	*p++ = 'T';
	p = put_digits(p, in_day / 3600, 2);
	*p++ = ':';
	p = put_digits(p, in_day / 60 % 60, 2);
	*p++ = ':';
	p = put_digits(p, in_day % 60, 2);
	*p++ = '.';
	p = put_digits(p, us % US_PER_SEC, 6);
	if (!zone_min) {
		*p++ = 'Z';
	} else {
		int a = zone_min < 0 ? -zone_min : zone_min;
		*p++ = zone_min < 0 ? '-' : '+';
		p = put_digits(p, a / 60, 2);
		*p++ = ':';
		p = put_digits(p, a % 60, 2);
	}
	*p = '\0';
}

/* ------------------------------------------------ the public reader -- */

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

int h2emv_time_parse(h2emv_time *out, const char *s, h2emv_error *err)
{
	if (!out || !s)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_time_parse: bad arguments");
	size_t n = strlen(s);
	if (all_digits(s, n)) { /* microseconds since the epoch */
		if (n > 18)
			return eng_fail(err, H2EMV_EINVAL, "'%s': too many digits for microseconds", s);
		int64_t v = 0;
		for (size_t i = 0; i < n; i++)
			v = v * 10 + (s[i] - '0');
		*out = v;
		return H2EMV_OK;
	}
	/* complete the short forms to RFC 3339, then read that strictly */
	char buf[64];
	if (n < 10 || n > 40)
		return eng_fail(err, H2EMV_EINVAL,
		                "'%s' is not a time (try 2024-09-23T10:00:00Z or \"2024-09-23 10:00\")",
		                s);
	memcpy(buf, s, n + 1);
	if (n == 10) {
		memcpy(buf + 10, "T00:00:00Z", 11);
	} else if (n >= 16 && (buf[10] == ' ' || buf[10] == 'T' || buf[10] == 't')) {
		size_t k = 16; /* after HH:MM */
		if (n == 16 || (n > 16 && buf[16] != ':')) {
			memmove(buf + 19, buf + 16, n - 16 + 1);
			memcpy(buf + 16, ":00", 3);
			n += 3;
		}
		k = 19;
		while (k < n && (buf[k] == '.' || (buf[k] >= '0' && buf[k] <= '9')))
			k++;
		if (k == n) /* no zone: UTC */
			memcpy(buf + n, "Z", 2);
	}
	const char *why = "not a time";
	if (obs_time_parse(out, buf, strlen(buf), &why))
		return eng_fail(err, H2EMV_EINVAL, "'%s': %s", s, why);
	return H2EMV_OK;
}

const char *h2emv_time_format(char out[H2EMV_TIME_TEXT], h2emv_time t, int form)
{
	if (t == H2EMV_TIME_NEVER) {
		memcpy(out, "never", 6);
		return out;
	}
	char full[OBS_TIME_TEXT];
	obs_time_format(full, t); /* UTC: 27 characters, within H2EMV_TIME_TEXT */
	memcpy(out, full, strlen(full) + 1);
	if (form == H2EMV_TIME_HUMAN) { /* 2024-09-23T10:00:00.000000Z -> 2024-09-23 10:00:00 */
		out[10] = ' ';
		out[19] = '\0';
	}
	return out;
}
