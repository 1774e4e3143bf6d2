/*
 * prompts.c — what the prompt builders share: the message list, UTC time
 * formatting, the trimming rule and the range keys (the rules themselves
 * are written down in prompts.h). The growable string is api/strbuf.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/prompts.h"
#include "engine/engine.h"

/* ------------------------------------------------------------ prompts -- */

void pr_prompt_free(pr_prompt *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->msgs[i].text);
	free(p->msgs);
	p->msgs = NULL;
	p->n = p->cap = 0;
}

int pr_prompt_add(pr_prompt *p, const char *role, const char *text, h2emv_error *err)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		pr_msg *m = realloc(p->msgs, cap * sizeof *m);
		if (!m)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		p->msgs = m;
		p->cap = cap;
	}
	char *t = strdup(text ? text : "");
	if (!t)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	p->msgs[p->n].role = role;
	p->msgs[p->n].text = t;
	p->n++;
	return H2EMV_OK;
}

char *pr_prompt_flat(const pr_prompt *p)
{
	pr_str b = { 0 };
	for (size_t i = 0; p && i < p->n; i++)
		pr_str_addf(&b, "%s: %s\n\n", p->msgs[i].role, p->msgs[i].text);
	return pr_str_take(&b);
}

/* --------------------------------------------------------------- time -- */

typedef struct civil {
	int64_t year;
	unsigned month, day, hour, min, sec;
	int64_t days; /* days since the epoch, to compare calendar days */
} civil;

/* Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's
 * civil_from_days), so formatting never depends on the C library's
 * time zone or range. */
static civil to_civil(int64_t t)
{
	int64_t sec = t / 1000000 - (t % 1000000 < 0);
	int64_t days = sec / 86400 - (sec % 86400 < 0);
	int64_t sod = sec - days * 86400;
	civil c;
	c.days = days;
	c.hour = (unsigned)(sod / 3600);
	c.min = (unsigned)(sod / 60 % 60);
	c.sec = (unsigned)(sod % 60);
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	c.day = doy - (153 * mp + 2) / 5 + 1;
	c.month = mp < 10 ? mp + 3 : mp - 9;
	c.year = (int64_t)yoe + era * 400 + (c.month <= 2);
	return c;
}

static int put_date(char *buf, size_t cap, const civil *c)
{
	return snprintf(buf, cap, "%04lld/%02u/%02u", (long long)c->year, c->month, c->day);
}

char *pr_time_point(char *buf, size_t cap, int64_t t)
{
	civil c = to_civil(t);
	snprintf(buf, cap, "%04lld/%02u/%02u %02u:%02u:%02u", (long long)c.year, c.month, c.day,
	         c.hour, c.min, c.sec);
	return buf;
}

/* One end of a range: optional date, then HH:MM or HH:MM:SS. */
static size_t put_end(char *buf, size_t cap, const civil *c, int date, int secs)
{
	int n = 0;
	if (date) {
		n = put_date(buf, cap, c);
		if (n < 0 || (size_t)n >= cap)
			return cap ? cap - 1 : 0;
		n += snprintf(buf + n, cap - (size_t)n, " ");
	}
	if (n < 0 || (size_t)n >= cap)
		return cap ? cap - 1 : 0;
	if (secs)
		n += snprintf(buf + n, cap - (size_t)n, "%02u:%02u:%02u", c->hour, c->min, c->sec);
	else
		n += snprintf(buf + n, cap - (size_t)n, "%02u:%02u", c->hour, c->min);
	return n < 0 || (size_t)n >= cap ? (cap ? cap - 1 : 0) : (size_t)n;
}

char *pr_time_range(char *buf, size_t cap, int64_t t0, int64_t t1, int with_date)
{
	if (!cap)
		return buf;
	buf[0] = '\0';
	uint64_t span = t1 > t0 ? (uint64_t)t1 - (uint64_t)t0 : 0;
	civil a = to_civil(t0), b = to_civil(t1);
	if (span > UINT64_C(86400000000)) {
		int n = put_date(buf, cap, &a);
		if (n >= 0 && (size_t)n < cap)
			n += snprintf(buf + n, cap - (size_t)n, " - ");
		if (n >= 0 && (size_t)n < cap)
			put_date(buf + n, cap - (size_t)n, &b);
		return buf;
	}
	int secs = span <= UINT64_C(180000000);
	size_t n = put_end(buf, cap, &a, with_date, secs);
	if (n + 4 < cap) {
		memcpy(buf + n, " - ", 4);
		n += 3;
		put_end(buf + n, cap - n, &b, b.days != a.days, secs);
	}
	return buf;
}

/* ----------------------------------------------------------- trimming -- */

static int is_blank(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

size_t pr_trim(const char *text, unsigned max_lines, size_t max_chars, int *cut)
{
	size_t len = text ? strlen(text) : 0;
	size_t keep = 0, pos = 0;
	unsigned lines = 0;
	if (max_lines == 0)
		max_lines = 1;
	while (pos < len && lines < max_lines) {
		size_t eol = pos;
		while (eol < len && text[eol] != '\n')
			eol++;
		if (eol > max_chars)
			break;
		keep = eol;
		lines++;
		pos = eol + 1;
	}
	if (lines == 0 && len > 0) {
		/* The first line alone is over the limit: cut at the last space
		 * within it, or keep the first word whole. */
		size_t k = max_chars;
		while (k > 0 && text[k] != ' ')
			k--;
		if (k == 0)
			while (k < len && text[k] != ' ' && text[k] != '\n')
				k++;
		keep = k;
	}
	while (keep > 0 && is_blank(text[keep - 1]))
		keep--;
	if (cut) {
		size_t r = keep;
		while (r < len && is_blank(text[r]))
			r++;
		*cut = r < len;
	}
	return keep;
}

void pr_range_key(char *buf, size_t cap, size_t first, size_t last, size_t n)
{
	size_t hi = n - 1 - first, lo = n - 1 - last;
	if (hi == lo)
		snprintf(buf, cap, "%zu", hi);
	else
		snprintf(buf, cap, "%zu-%zu", hi, lo);
}

/* ------------------------------------------------ shared by the builders -- */

void pr_add_rules(pr_str *b, const pol_rules *rules)
{
	for (size_t i = 0; rules && i < rules->n; i++) {
		pr_str_addf(b, "%zu. ", i + 1);
		const char *r = rules->items[i] ? rules->items[i] : "";
		pr_add_text(b, r, strlen(r), "   ");
		pr_str_adds(b, "\n");
	}
}

void pr_add_text(pr_str *b, const char *text, size_t n, const char *indent)
{
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		if (text[i] != '\n')
			continue;
		pr_str_add(b, text + start, i + 1 - start);
		pr_str_adds(b, indent);
		start = i + 1;
	}
	pr_str_add(b, text + start, n - start);
}

void pr_add_trimmed(pr_str *b, const char *text, unsigned lines, size_t chars,
                    const char *indent)
{
	int cut = 0;
	size_t keep = pr_trim(text, lines, chars, &cut);
	pr_add_text(b, text ? text : "", keep, indent);
	if (cut)
		pr_str_adds(b, " ...");
}

int64_t pr_day(int64_t t)
{
	return to_civil(t).days;
}

int pr_check_group_req(const pol_group_req *req, h2emv_error *err)
{
	if (!req || (req->n_items && !req->items) || req->n_new > req->n_items ||
	    (req->n_old && !req->old_groups))
		return eng_fail(err, H2EMV_EINVAL, "group request: bad arguments");
	size_t n_old_items = req->n_items - req->n_new, next = 0;
	for (size_t g = 0; g < req->n_old; g++) {
		const pol_group *o = &req->old_groups[g];
		if (o->first != next || o->last < o->first || o->last >= n_old_items)
			return eng_fail(err, H2EMV_EINVAL,
			                "group request: old group %zu does not continue the partition", g);
		next = o->last + 1;
	}
	if (next != n_old_items)
		return eng_fail(err, H2EMV_EINVAL,
		                "group request: old groups cover %zu of %zu old items", next, n_old_items);
	return H2EMV_OK;
}
