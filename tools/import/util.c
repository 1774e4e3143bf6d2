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

int imp_parse_time(h2emv_time *out, const char *s)
{
	return s && h2emv_time_parse(out, s, NULL) == H2EMV_OK ? 0 : -1;
}

const char *imp_format_time(char *buf, size_t n, h2emv_time t)
{
	char text[H2EMV_TIME_TEXT];
	snprintf(buf, n, "%s", h2emv_time_format(text, t, H2EMV_TIME_RFC3339));
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
