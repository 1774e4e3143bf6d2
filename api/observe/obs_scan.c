/*
 * obs_scan.c — the observation reader's JSON scanner: one pass over the
 * text that checks it is JSON as jansson would accept it and leaves a flat
 * array of tokens (no tree, no allocation for a robot-sized observation).
 * Rejected text is rare and its message must read as it always has, so it
 * is worded by jansson itself (os_syntax_error), off the hot path.
 */
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/observe/obs_scan.h"
#include "api/base/utf8.h"

#define BAD 1 /* os_scan's "not JSON" */

/* -------------------------------------------------------------- tokens -- */

static os_tok *new_tok(os_doc *d, int type)
{
	if (d->ntok == d->cap) {
		size_t cap = d->cap * 2;
		os_tok *t = d->tok == d->local_tok ? malloc(cap * sizeof *t)
		                                   : realloc(d->tok, cap * sizeof *t);
		if (!t)
			return NULL;
		if (d->tok == d->local_tok)
			memcpy(t, d->local_tok, sizeof d->local_tok);
		d->tok = t;
		d->cap = cap;
	}
	os_tok *t = &d->tok[d->ntok];
	t->type = (uint8_t)type;
	t->n = 0;
	t->s = NULL;
	t->next = (uint32_t)++d->ntok;
	return t;
}

void os_doc_free(os_doc *d)
{
	if (d->tok != d->local_tok)
		free(d->tok);
	if (d->scratch != d->local_scratch)
		free(d->scratch);
	d->tok = d->local_tok;
	d->scratch = d->local_scratch;
}

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i;
}

/* ------------------------------------------------------------- strings -- */

static int hex4(const char *s, size_t n, size_t i, uint32_t *out)
{
	uint32_t v = 0;
	if (i + 4 > n)
		return -1;
	for (size_t k = i; k < i + 4; k++) {
		char c = s[k];
		int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (h < 0)
			return -1;
		v = v << 4 | (uint32_t)h;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* The escape at s[*i] (just past the backslash) decoded to o; returns
 * the bytes written, 0 when it is not one jansson accepts. */
static size_t unescape(const char *s, size_t n, size_t *i, char *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	if (*i >= n)
		return 0;
	const char *e = s[*i] ? strchr(from, s[*i]) : NULL;
	if (e) {
		o[0] = to[e - from];
		(*i)++;
		return 1;
	}
	uint32_t cp, lo;
	if (s[*i] != 'u' || hex4(s, n, *i + 1, &cp) || cp == 0)
		return 0;
	*i += 5;
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return 0;
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (*i + 1 >= n || s[*i] != '\\' || s[*i + 1] != 'u' || hex4(s, n, *i + 2, &lo) ||
		    lo < 0xDC00 || lo > 0xDFFF)
			return 0;
		*i += 6;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	return put_utf8(o, cp);
}

/* Does any of the 8 bytes in x need a closer look: a control
 * character, '"', '\\' or a byte >= 0x80? (SWAR: the high bit of each
 * byte of the result flags that byte.) */
static int special8(uint64_t x)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones * 0x80;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	uint64_t ctl = (x - ones * 0x20) & ~x;
	uint64_t zq = (q - ones) & ~q, zb = (b - ones) & ~b;
	return ((ctl | zq | zb | x) & highs) != 0;
}

/* Where the valid characters of a string from s[i] stop: at '"', '\\',
 * a control character, a broken UTF-8 sequence or the end. */
static size_t plain_run(const char *s, size_t n, size_t i)
{
	uint64_t x;
	while (i + 8 <= n && (memcpy(&x, s + i, 8), !special8(x)))
		i += 8;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
		} else if (c >= 0x80) {
			size_t k = utf8_char_len(s + i, n - i);
			if (!k)
				return i;
			i += k;
		} else {
			return i;
		}
	}
	return i;
}

/* The string starting with the quote at s[*pi]. Strings without escapes
 * point into the text; the others are decoded into d->scratch, which has
 * room for all of them (decoding never lengthens). */
static int scan_string(os_doc *d, const char *s, size_t n, size_t *pi, os_tok *t)
{
	size_t start = *pi + 1, i = plain_run(s, n, start);
	if (i < n && s[i] == '"') {
		t->s = s + start;
		t->n = (uint32_t)(i - start);
		*pi = i + 1;
		return 0;
	}
	if (d->scratch == d->local_scratch && n > OS_LOCAL_SCRATCH && d->scratch_len == 0) {
		char *big = malloc(n);
		if (!big)
			return H2EMV_ENOMEM;
		d->scratch = big;
	}
	char *o = d->scratch + d->scratch_len;
	size_t on = i - start;
	memcpy(o, s + start, on);
	while (i < n && s[i] == '\\') {
		i++;
		size_t k = unescape(s, n, &i, o + on);
		if (!k)
			return BAD;
		on += k;
		size_t j = plain_run(s, n, i);
		memcpy(o + on, s + i, j - i);
		on += j - i;
		i = j;
	}
	if (i >= n || s[i] != '"')
		return BAD;
	t->s = o;
	t->n = (uint32_t)on;
	d->scratch_len += on;
	*pi = i + 1;
	return 0;
}

/* ------------------------------------------------------------- numbers -- */

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* strtod in the C locale (jansson's reading of reals, whatever the
 * process's locale); s[0..n) is copied so strtod cannot read past it. */
static int read_real(const char *s, size_t n, double *out)
{
	char local[64], *buf = n < sizeof local ? local : malloc(n + 1);
	if (!buf)
		return H2EMV_ENOMEM;
	memcpy(buf, s, n);
	buf[n] = '\0';
	pthread_once(&c_locale_once, make_c_locale);
	*out = c_locale ? strtod_l(buf, NULL, c_locale) : strtod(buf, NULL);
	if (buf != local)
		free(buf);
	return isinf(*out) ? BAD : 0;
}

static int digit(const char *s, size_t n, size_t i)
{
	return i < n && s[i] >= '0' && s[i] <= '9';
}

static int scan_number(const char *s, size_t n, size_t *pi, os_tok *t)
{
	size_t i = *pi, start = i;
	int neg = s[i] == '-', real = 0;
	i += neg;
	if (!digit(s, n, i))
		return BAD;
	if (s[i] == '0')
		i++;
	else
		while (digit(s, n, i))
			i++;
	size_t int_end = i;
	if (i < n && s[i] == '.') {
		if (!digit(s, n, ++i))
			return BAD;
		while (digit(s, n, i))
			i++;
		real = 1;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (!digit(s, n, i))
			return BAD;
		while (digit(s, n, i))
			i++;
		real = 1;
	}
	*pi = i;
	if (real) {
		t->type = OS_REAL;
		return read_real(s + start, i - start, &t->v.d);
	}
	uint64_t v = 0, lim = neg ? UINT64_C(9223372036854775808) : INT64_MAX;
	for (size_t k = start + neg; k < int_end; k++) {
		unsigned dg = (unsigned)(s[k] - '0');
		if (v > (lim - dg) / 10)
			return BAD; /* jansson: too big integer */
		v = v * 10 + dg;
	}
	t->type = OS_INT;
	t->v.i = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/* ---------------------------------------------------------- duplicates -- */

static int key_cmp(const void *a, const void *b)
{
	const os_tok *x = *(const os_tok *const *)a, *y = *(const os_tok *const *)b;
	return obs_key_cmp(x->s, x->n, y->s, y->n);
}

static int same_key(const os_tok *a, const os_tok *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->s, b->s, a->n) == 0);
}

/* Does the object at tok[o] (closed) hold a key twice? */
static int has_duplicate(const os_doc *d, uint32_t o)
{
	const os_tok *tok = d->tok;
	uint32_t m = tok[o].n;
	if (m < 2)
		return 0;
	if (m <= 16) {
		for (uint32_t a = o + 1; a < tok[o].next; a = tok[a + 1].next)
			for (uint32_t b = tok[a + 1].next; b < tok[o].next; b = tok[b + 1].next)
				if (same_key(&tok[a], &tok[b]))
					return 1;
		return 0;
	}
	const os_tok **keys = malloc(m * sizeof *keys);
	if (!keys)
		return H2EMV_ENOMEM;
	size_t k = 0;
	for (uint32_t a = o + 1; a < tok[o].next; a = tok[a + 1].next)
		keys[k++] = &tok[a];
	qsort(keys, k, sizeof *keys, key_cmp);
	int dup = 0;
	for (size_t i = 1; i < k && !dup; i++)
		dup = same_key(keys[i - 1], keys[i]);
	free(keys);
	return dup;
}

/* ------------------------------------------------------------- the scan -- */

/* One scalar at s[*i]. */
static int scan_scalar(os_doc *d, const char *s, size_t n, size_t *i)
{
	static const struct {
		const char *word;
		size_t len;
		int type;
	} lits[] = { { "true", 4, OS_TRUE }, { "false", 5, OS_FALSE }, { "null", 4, OS_NULL } };
	os_tok *t = new_tok(d, OS_STRING);
	if (!t)
		return H2EMV_ENOMEM;
	if (s[*i] == '"')
		return scan_string(d, s, n, i, t);
	if (s[*i] == '-' || (s[*i] >= '0' && s[*i] <= '9'))
		return scan_number(s, n, i, t);
	for (size_t k = 0; k < 3; k++) {
		if (n - *i >= lits[k].len && memcmp(s + *i, lits[k].word, lits[k].len) == 0) {
			t->type = (uint8_t)lits[k].type;
			*i += lits[k].len;
			return 0;
		}
	}
	return BAD;
}

/* A key and its colon; *i is left at the value. */
static int scan_key(os_doc *d, const char *s, size_t n, size_t *i)
{
	if (*i >= n || s[*i] != '"')
		return BAD;
	os_tok *t = new_tok(d, OS_STRING);
	if (!t)
		return H2EMV_ENOMEM;
	int rc = scan_string(d, s, n, i, t);
	if (rc)
		return rc;
	*i = skip_ws(s, n, *i);
	if (*i >= n || s[*i] != ':')
		return BAD;
	*i = skip_ws(s, n, *i + 1);
	return 0;
}

/* The state machine: a value is expected at `i`; once it is complete the
 * innermost open container decides what may follow. */
static int scan_doc(os_doc *d, const char *s, size_t n)
{
	uint32_t open[OS_MAX_DEPTH];
	int depth = 0, rc;
	size_t i = skip_ws(s, n, 0);
value:
	if (i >= n || depth + 1 > OS_MAX_DEPTH)
		return BAD;
	if (s[i] == '{' || s[i] == '[') {
		int obj = s[i] == '{';
		open[depth++] = (uint32_t)d->ntok;
		if (!new_tok(d, obj ? OS_OBJECT : OS_ARRAY))
			return H2EMV_ENOMEM;
		i = skip_ws(s, n, i + 1);
		if (i < n && s[i] == (obj ? '}' : ']'))
			goto close;
		if (obj && (rc = scan_key(d, s, n, &i)))
			return rc;
		goto value;
	}
	if ((rc = scan_scalar(d, s, n, &i)))
		return rc;
after:
	if (depth == 0)
		return skip_ws(s, n, i) == n ? 0 : BAD;
	os_tok *top = &d->tok[open[depth - 1]];
	top->n++;
	i = skip_ws(s, n, i);
	if (i < n && s[i] == ',') {
		i = skip_ws(s, n, i + 1);
		if (top->type == OS_OBJECT && (rc = scan_key(d, s, n, &i)))
			return rc;
		goto value;
	}
	if (i >= n || s[i] != (top->type == OS_OBJECT ? '}' : ']'))
		return BAD;
close:
	top = &d->tok[open[--depth]];
	top->next = (uint32_t)d->ntok;
	i++;
	if (top->type == OS_OBJECT && (rc = has_duplicate(d, open[depth])))
		return rc;
	goto after;
}

int os_scan(os_doc *d, const char *text, size_t len)
{
	d->tok = d->local_tok;
	d->cap = OS_LOCAL_TOKENS;
	d->ntok = 0;
	d->scratch = d->local_scratch;
	d->scratch_len = 0;
	if (len > UINT32_MAX / 2)
		return BAD;
	return scan_doc(d, text, len);
}

/* ------------------------------------------------------ syntax errors -- */

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

static int fail_path(h2emv_error *err, int status, uint64_t line, uint64_t column,
                     const obs_path *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int fail_path(h2emv_error *err, int status, uint64_t line, uint64_t column,
                     const obs_path *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	obs_errorv(err, status, line, column, path, NULL, fmt, ap);
	va_end(ap);
	return status;
}

static const char *error_what(int code, int *status)
{
	*status = H2EMV_EPARSE;
	switch (code) {
	case json_error_out_of_memory: *status = H2EMV_ENOMEM; return "out of memory";
	case json_error_stack_overflow: *status = H2EMV_ELIMIT; return "nested too deeply";
	case json_error_invalid_utf8: return "invalid UTF-8";
	case json_error_end_of_input_expected:
		return "unexpected characters after the observation object";
	case json_error_duplicate_key: return "duplicate key";
	case json_error_numeric_overflow: return "number out of range";
	case json_error_null_character: return "NUL characters are not allowed in strings";
	default: return "invalid JSON";
	}
}

/* jansson's error, in our words, keeping its own detail in parentheses. */
int os_syntax_error(h2emv_error *err, const char *text, size_t len, uint64_t line)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
	if (root) { /* the scanner and jansson disagree: the fuzzers look for this */
		json_decref(root);
		return fail_path(err, H2EMV_EPARSE, line, 0, NULL, "invalid JSON");
	}
	int status, code = json_error_code(&je);
	size_t pos = je.position > 0 && (size_t)je.position <= len ? (size_t)je.position : 0;
	uint64_t column = je.column > 0 ? (uint64_t)je.column : 0;
	/* A line cut inside a string ends in "unexpected newline", inside a
	 * literal in "invalid token": at the very end, after a character that
	 * cannot end a value, both mean truncation. */
	int truncated = code == json_error_premature_end_of_input ||
	                (code == json_error_invalid_syntax && pos > 0 &&
	                 is_blank(text + pos, len - pos) && !strchr("{}[],:", text[pos - 1]));
	const char *what = error_what(code, &status);
	if (truncated) {
		what = "the line ends inside the JSON object (truncated?)";
		/* Point just past the last character there is, not at the start
		 * of the empty line after a trailing newline. */
		size_t end = len;
		while (end > 0 && is_blank(text + end - 1, 1))
			end--;
		column = obs_column_of(text, len, end);
	}
	obs_path path;
	obs_path_at(&path, text, len, pos);
	return fail_path(err, status, line, column, &path, "%s (%s)", what, je.text);
}
