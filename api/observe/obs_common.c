/*
 * obs_common.c — pieces both directions of the observation codec use: the
 * name tables, field paths and error messages, finding a column in JSON
 * text and the canonical text of a real number (UTF-8 checks: api/utf8.h).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_internal.h"
#include "api/base/utf8.h"

const char *const obs_top_names[OBS_K_BODY_LAST + 1] = {
	NULL, "t", "t_end", "action", "goal", "goal_status", "location",
	"objects", "relations", "persons", "speech", "note", "id", "zone",
};

int obs_id_ok(const char *s, size_t n)
{
	if (n < 1 || n > OBS_ID_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

const char *const obs_status_names[OBS_ST_LAST + 1] = {
	NULL, "preparing", "running", "succeeded", "failed", "aborted",
};

/* Other words robots log for the five statuses (ROS actionlib's among
 * them), any letter case, "_" / "-" / " " alike. */
int obs_status_word(const char *s, size_t n)
{
	static const struct {
		const char *w;
		int k;
	} words[] = {
		{ "pending", 1 },    { "queued", 1 },      { "planned", 1 },     { "scheduled", 1 },
		{ "started", 2 },    { "active", 2 },      { "in progress", 2 }, { "executing", 2 },
		{ "ongoing", 2 },    { "busy", 2 },        { "ok", 3 },          { "done", 3 },
		{ "success", 3 },    { "successful", 3 },  { "complete", 3 },    { "completed", 3 },
		{ "finished", 3 },   { "passed", 3 },      { "failure", 4 },     { "fail", 4 },
		{ "error", 4 },      { "errored", 4 },     { "rejected", 4 },    { "cancelled", 5 },
		{ "canceled", 5 },   { "preempted", 5 },   { "interrupted", 5 }, { "recalled", 5 },
		{ "stopped", 5 },
	};
	char b[16];
	if (n >= sizeof b)
		return 0;
	for (size_t i = 0; i < n; i++)
		b[i] = s[i] == '_' || s[i] == '-' ? ' ' : s[i];
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		size_t j = 0;
		while (j < n && words[i].w[j] &&
		       (b[j] >= 'A' && b[j] <= 'Z' ? (char)(b[j] + 32) : b[j]) == words[i].w[j])
			j++;
		if (j == n && !words[i].w[n])
			return words[i].k;
	}
	return 0;
}

/* ---------------------------------------------------------- field paths -- */

void obs_path_key(obs_path *p, const char *key, size_t klen)
{
	if (p->depth < OBS_PATH_MAX) {
		p->c[p->depth].key = key ? key : ""; /* NULL marks an index */
		p->c[p->depth].klen = klen;
		p->c[p->depth].idx = 0;
	}
	p->depth++;
}

void obs_path_idx(obs_path *p, size_t idx)
{
	if (p->depth < OBS_PATH_MAX) {
		p->c[p->depth].key = NULL;
		p->c[p->depth].klen = 0;
		p->c[p->depth].idx = idx;
	}
	p->depth++;
}

void obs_path_pop(obs_path *p)
{
	if (p->depth > 0)
		p->depth--;
}

/* Append printf-style text to buf[*len..cap), keeping it NUL-terminated
 * and silently truncating: messages are for humans and have a fixed size. */
static void appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void appendv(char *buf, size_t cap, size_t *len, const char *fmt, va_list ap)
{
	if (*len + 1 >= cap)
		return;
	int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	if (n < 0)
		return;
	*len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
}

static void appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	appendv(buf, cap, len, fmt, ap);
	va_end(ap);
}

void obs_path_format(char *out, size_t cap, const obs_path *p)
{
	size_t len = 0;
	out[0] = '\0';
	int n = p->depth < OBS_PATH_MAX ? p->depth : OBS_PATH_MAX;
	for (int i = 0; i < n; i++) {
		if (!p->c[i].key) {
			appendf(out, cap, &len, "[%zu]", p->c[i].idx);
			continue;
		}
		size_t klen = p->c[i].klen > 200 ? 200 : p->c[i].klen;
		appendf(out, cap, &len, "%s%.*s", i ? "." : "", (int)klen, p->c[i].key);
	}
	if (p->depth > OBS_PATH_MAX)
		appendf(out, cap, &len, "...");
}

/* Messages quote input (keys, times, jansson's "near '...'") and are cut
 * to a fixed size, possibly inside a UTF-8 sequence. Make them printable
 * and valid UTF-8 so that callers can show them or put them in JSON:
 * control characters and broken sequences become '?'. */
static void sanitize(char *s)
{
	for (size_t i = 0; s[i]; ) {
		unsigned char c = (unsigned char)s[i];
		size_t len = utf8_char_len(s + i, strnlen(s + i, 4));
		if (c < 0x20 || c == 0x7f || !len) {
			s[i++] = '?';
			continue;
		}
		i += len;
	}
}

int obs_errorv(h2emv_error *err, int status, uint64_t line, uint64_t column,
               const obs_path *path, const char *prefix, const char *fmt, va_list ap)
{
	if (!err)
		return status;
	err->status = status;
	err->line = line;
	err->column = column;
	err->field[0] = '\0';
	if (path)
		obs_path_format(err->field, sizeof err->field, path);

	char *m = err->message;
	size_t cap = sizeof err->message, len = 0;
	m[0] = '\0';
	if (prefix)
		appendf(m, cap, &len, "%s", prefix);
	if (line && column)
		appendf(m, cap, &len, "line %llu, column %llu: ", (unsigned long long)line,
		        (unsigned long long)column);
	else if (line)
		appendf(m, cap, &len, "line %llu: ", (unsigned long long)line);
	else if (column)
		appendf(m, cap, &len, "column %llu: ", (unsigned long long)column);
	if (err->field[0])
		appendf(m, cap, &len, "field '%s': ", err->field);
	appendv(m, cap, &len, fmt, ap);
	sanitize(err->field);
	sanitize(err->message);
	return status;
}

int obs_fail(h2emv_error *err, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(err, status, 0, 0, NULL, NULL, fmt, ap);
	va_end(ap);
	return status;
}

/* ------------------------------------------------------ columns in text -- */

/* The text given to obs_locate has been accepted by jansson, so these
 * skippers can be simple; they still never read past `n`. */
static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

static size_t skip_value(const char *s, size_t n, size_t i)
{
	if (i < n && s[i] == '"')
		return skip_string(s, n, i);
	if (i < n && (s[i] == '{' || s[i] == '[')) {
		size_t depth = 0;
		while (i < n) {
			if (s[i] == '"') {
				i = skip_string(s, n, i);
				continue;
			}
			if (s[i] == '{' || s[i] == '[')
				depth++;
			else if ((s[i] == '}' || s[i] == ']') && --depth == 0)
				return i + 1;
			i++;
		}
		return n;
	}
	while (i < n && !strchr(",]} \t\r\n", s[i]))
		i++;
	return i;
}

/* Step into member `key` of the object at s[i]. Returns the offset of the
 * value (or of the key when `at_key`), or n if absent. Keys written with
 * escapes are not matched: the column is a hint, 0 is acceptable. */
static size_t step_key(const char *s, size_t n, size_t i, const char *key, size_t klen,
                       int at_key)
{
	if (i >= n || s[i] != '{')
		return n;
	for (i = skip_ws(s, n, i + 1); i < n && s[i] == '"'; ) {
		size_t ks = i;
		i = skip_string(s, n, i);
		int match = i - ks == klen + 2 && memcmp(s + ks + 1, key, klen) == 0;
		i = skip_ws(s, n, i);
		if (i >= n || s[i] != ':')
			return n;
		i = skip_ws(s, n, i + 1);
		if (match)
			return at_key ? ks : i;
		i = skip_ws(s, n, skip_value(s, n, i));
		if (i >= n || s[i] != ',')
			return n;
		i = skip_ws(s, n, i + 1);
	}
	return n;
}

static size_t step_idx(const char *s, size_t n, size_t i, size_t idx)
{
	if (i >= n || s[i] != '[')
		return n;
	i = skip_ws(s, n, i + 1);
	for (size_t k = 0; k < idx; k++) {
		i = skip_ws(s, n, skip_value(s, n, i));
		if (i >= n || s[i] != ',')
			return n;
		i = skip_ws(s, n, i + 1);
	}
	return i < n && s[i] != ']' ? i : n;
}

/* One open container while scanning for obs_path_at. */
typedef struct open_level {
	int is_object;
	int have_key; /* objects: the current member's key has been read */
} open_level;

void obs_path_at(obs_path *out, const char *s, size_t n, size_t pos)
{
	open_level lv[OBS_PATH_MAX];
	int depth = 0;
	out->depth = 0;
	if (pos > n)
		pos = n;
	for (size_t i = 0; i < pos; i++) {
		char ch = s[i];
		open_level *top = depth > 0 && depth <= OBS_PATH_MAX ? &lv[depth - 1] : NULL;
		if (ch == '"') {
			size_t end = skip_string(s, n, i);
			if (top && top->is_object && !top->have_key) {
				size_t klen = end - i >= 2 ? end - i - 2 : 0;
				out->c[depth - 1].key = s + i + 1;
				out->c[depth - 1].klen = klen;
				top->have_key = 1;
			}
			i = end - 1;
		} else if (ch == '{' || ch == '[') {
			if (depth < OBS_PATH_MAX) {
				lv[depth] = (open_level){ ch == '{', 0 };
				out->c[depth].key = NULL;
				out->c[depth].idx = 0;
			}
			depth++;
		} else if (ch == '}' || ch == ']') {
			depth -= depth > 0;
		} else if (ch == ',' && top) {
			if (top->is_object)
				top->have_key = 0;
			else
				out->c[depth - 1].idx++;
		}
	}
	/* The path runs down the open containers, up to an object whose
	 * current member has no key yet. */
	int k = 0;
	while (k < depth && k < OBS_PATH_MAX && (!lv[k].is_object || lv[k].have_key))
		k++;
	out->depth = k;
}

uint64_t obs_column_of(const char *text, size_t len, size_t pos)
{
	if (pos > len)
		return 0;
	size_t start = pos;
	while (start > 0 && text[start - 1] != '\n')
		start--;
	uint64_t col = 1;
	for (size_t i = start; i < pos; i++)
		if (!utf8_is_cont((unsigned char)text[i])) /* count characters, not bytes */
			col++;
	return col;
}

uint64_t obs_locate(const char *text, size_t len, const obs_path *path, int at_key)
{
	if (path->depth > OBS_PATH_MAX)
		return 0;
	size_t i = skip_ws(text, len, 0);
	for (int k = 0; k < path->depth && i < len; k++) {
		int last = k == path->depth - 1;
		if (path->c[k].key)
			i = step_key(text, len, i, path->c[k].key, path->c[k].klen, at_key && last);
		else
			i = step_idx(text, len, i, path->c[k].idx);
	}
	return i < len ? obs_column_of(text, len, i) : 0;
}

/* ------------------------------------------------------- text, numbers -- */

int obs_key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = an && bn ? memcmp(a, b, an < bn ? an : bn) : 0; /* "" may be NULL */
	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

/* printf's output in the C locale's terms: whatever the current locale
 * uses as decimal point becomes '.', and the exponent loses its '+' and
 * leading zeros ("1e+07" -> "1e7"). */
static size_t normalize_number(char *out, const char *in)
{
	size_t o = 0;
	int in_point = 0, in_exp = 0;
	for (const char *p = in; *p; p++) {
		char ch = *p;
		if (ch == 'e' || ch == 'E') {
			out[o++] = 'e';
			in_exp = 1;
			in_point = 0;
			if (p[1] == '+')
				p++;
			else if (p[1] == '-')
				out[o++] = *++p;
			while (p[1] == '0' && p[2] >= '0' && p[2] <= '9')
				p++;
		} else if ((ch >= '0' && ch <= '9') || ch == '-') {
			out[o++] = ch;
			in_point = 0;
		} else if (!in_point && !in_exp) {
			out[o++] = '.';
			in_point = 1;
		}
	}
	out[o] = '\0';
	return o;
}

/* Mantissa of "%.Ne" output without trailing zeros: "1.500e+03" -> "1.5e+03". */
static void strip_mantissa_zeros(char *s)
{
	char *e = strchr(s, 'e');
	if (!e)
		return;
	char *z = e;
	while (z > s && z[-1] == '0')
		z--;
	if (z > s && !(z[-1] >= '0' && z[-1] <= '9'))
		z--; /* the decimal point itself */
	memmove(z, e, strlen(e) + 1);
}

size_t obs_real_format(char out[OBS_REAL_TEXT], double d)
{
	char fixed[OBS_REAL_TEXT], expo[OBS_REAL_TEXT];
	/* For normal doubles, fifteen significant digits always give back a
	 * decimal of at most fifteen digits exactly, so start there and go to
	 * 16 and 17 only when needed. Subnormals carry fewer digits: search. */
	int prec = fabs(d) < DBL_MIN ? 1 : 15;
	for (; prec < 17; prec++) {
		snprintf(fixed, sizeof fixed, "%.*g", prec, d);
		if (strtod(fixed, NULL) == d)
			break;
	}
	snprintf(fixed, sizeof fixed, "%.*g", prec, d);
	snprintf(expo, sizeof expo, "%.*e", prec - 1, d);
	strip_mantissa_zeros(expo);

	char a[OBS_REAL_TEXT], b[OBS_REAL_TEXT];
	size_t an = normalize_number(a, fixed);
	size_t bn = normalize_number(b, expo);
	if (!strpbrk(a, ".e")) { /* "1" would read back as an integer */
		a[an++] = '.';
		a[an++] = '0';
		a[an] = '\0';
	}
	/* Positional notation reads better ("1300.0", not "1.3e3"); take the
	 * exponent only when it saves real space ("1e20"). */
	int use_exp = bn + 3 < an;
	const char *best = use_exp ? b : a;
	size_t n = use_exp ? bn : an;
	memcpy(out, best, n + 1);
	return n;
}
