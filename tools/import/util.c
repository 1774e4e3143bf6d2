/*
 * util.c — helpers the importers share: error messages, the seeded
 * generator, the default data paths, time parsing and formatting, JSON
 * loading and emitting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

int imp_fail(h2emv_error *err, int status, const char *field, const char *fmt, ...)
{
	if (!err)
		return status;
	memset(err, 0, sizeof *err);
	err->status = status;
	if (field)
		snprintf(err->field, sizeof err->field, "%s", field);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return status;
}

const char *imp_default_path(char *buf, size_t n, const char *sub)
{
	const char *root = getenv(IMP_DATA_ENV);
	if (!root || !*root || !buf || !sub)
		return NULL;
	int len = snprintf(buf, n, "%s/%s", root, sub);
	return len > 0 && (size_t)len < n ? buf : NULL;
}

uint64_t imp_rng_next(imp_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double imp_rng_unit(imp_rng *r)
{
	return (double)(imp_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t imp_rng_below(imp_rng *r, uint64_t n)
{
	/* rejection keeps every value equally likely */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
	do
		x = imp_rng_next(r);
	while (x >= limit);
	return x % n;
}

/* Read exactly `n` digits. */
static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return -1;
		v = v * 10 + (**p - '0');
	}
	*out = v;
	return 0;
}

int imp_parse_time(h2emv_time *out, const char *s)
{
	const char *p = s;
	int y, mo, d, h = 0, mi = 0, sec = 0;
	long us = 0;
	if (!s || digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
	    digits(&p, 2, &d))
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
			return -1;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &sec))
				return -1;
			if (*p == '.') {
				p++;
				int nd = 0;
				for (; *p >= '0' && *p <= '9'; p++, nd++)
					if (nd < 6)
						us = us * 10 + (*p - '0');
				if (nd == 0)
					return -1;
				for (; nd < 6; nd++)
					us *= 10;
			}
		}
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59)
		return -1;
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d,
		         .tm_hour = h, .tm_min = mi, .tm_sec = sec };
	time_t tt = timegm(&tm);
	if (tm.tm_mday != d || tm.tm_mon != mo - 1) /* February 30th rolled over */
		return -1;
	*out = (h2emv_time)tt * IMP_US + us;
	return 0;
}

const char *imp_format_time(char *buf, size_t n, h2emv_time t)
{
	int64_t s = t / IMP_US, us = t % IMP_US;
	if (us < 0) {
		us += IMP_US;
		s--;
	}
	time_t tt = (time_t)s;
	struct tm tm;
	gmtime_r(&tt, &tm);
	snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900, tm.tm_mon + 1,
	         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)us);
	return buf;
}

const char *imp_json_kind(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return v ? "null" : "nothing (missing)";
	}
}

int imp_load_json(json_t **out, const char *path, h2emv_error *err)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return imp_fail(err, H2EMV_EIO, NULL, "%s: cannot open: %s", path, strerror(errno));
	json_error_t je;
	json_t *j = json_loadf(f, 0, &je);
	int rd_err = ferror(f);
	fclose(f);
	if (rd_err) {
		json_decref(j);
		return imp_fail(err, H2EMV_EIO, NULL, "%s: read error", path);
	}
	if (!j) {
		int rc = imp_fail(err, H2EMV_EPARSE, NULL, "%s: line %d, column %d: not valid JSON: %s",
		                  path, je.line, je.column, je.text);
		if (err) {
			err->line = je.line > 0 ? (uint64_t)je.line : 0;
			err->column = je.column > 0 ? (uint64_t)je.column : 0;
		}
		return rc;
	}
	*out = j;
	return H2EMV_OK;
}

int imp_emit_obs(json_t *obs, h2emv_time t, imp_emit_fn emit, void *arg, imp_stats *st)
{
	char *s = json_dumps(obs, JSON_COMPACT);
	if (!s)
		return H2EMV_ENOMEM;
	int rc = emit(arg, s, strlen(s));
	free(s);
	if (rc != H2EMV_OK)
		return rc;
	json_t *v;
	st->observations++;
	if (json_object_get(obs, "action"))
		st->actions++;
	if ((v = json_object_get(obs, "speech")))
		st->utterances += json_is_array(v) ? json_array_size(v) : 1;
	if ((v = json_object_get(obs, "objects")) && json_array_size(v))
		st->with_objects++;
	if ((v = json_object_get(obs, "persons")) && json_array_size(v))
		st->with_persons++;
	if (!st->first)
		st->first = t;
	st->last = t;
	return H2EMV_OK;
}
