/*
 * emv_text.c — reading node texts for question answering: the line
 * grammar of docs/tree.md (actions with their arguments, objects,
 * relations, utterances), and answer times (words and terms are
 * emv_words.c). Pure functions over spans; nothing here allocates.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/emv.h"

/* ------------------------------------------------------ bytes and case -- */

/* As in emv_words.c. */
static int is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

static int is_id_byte(unsigned char c)
{
	return is_word_byte(c) || c == '_';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* ----------------------------------------------------------- node texts -- */

int emv_line(const char *text, size_t n, size_t *pos, const char *label, emv_span *value)
{
	size_t ll = strlen(label);
	size_t i = *pos;
	while (i < n) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - text) : n;
		size_t next = nl ? end + 1 : n;
		if (end - i >= ll && !memcmp(text + i, label, ll)) {
			size_t vend = end;
			if (vend > i + ll && text[vend - 1] == '\r')
				vend--;
			value->p = text + i + ll;
			value->n = vend - i - ll;
			*pos = next;
			return 1;
		}
		i = next;
	}
	*pos = n;
	return 0;
}

static emv_span trim(emv_span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t'))
		s.p++, s.n--;
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t' || s.p[s.n - 1] == '\r'))
		s.n--;
	return s;
}

int emv_split(emv_span list, size_t *pos, const char *sep, emv_span *item)
{
	size_t sl = strlen(sep), i = *pos;
	if (i >= list.n)
		return 0;
	int depth = 0, quoted = 0;
	size_t start = i;
	for (; i < list.n; i++) {
		char c = list.p[i];
		if (c == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && depth > 0)
			depth--;
		else if (depth == 0 && list.n - i >= sl && !memcmp(list.p + i, sep, sl))
			break;
	}
	item->p = list.p + start;
	item->n = i - start;
	*item = trim(*item);
	*pos = i < list.n ? i + sl : list.n;
	return 1;
}

/* The index just past the parenthesis matching the one at s.p[open]. */
static size_t close_paren(emv_span s, size_t open)
{
	int depth = 0, quoted = 0;
	for (size_t i = open; i < s.n; i++) {
		char c = s.p[i];
		if (c == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && --depth == 0)
			return i + 1;
	}
	return s.n;
}

int emv_action_parse(emv_span item, emv_action *out)
{
	memset(out, 0, sizeof *out);
	item = trim(item);
	/* "(3 earlier) Pickup(...)": the goal block's note of actions left out */
	if (item.n > 2 && item.p[0] == '(') {
		size_t e = close_paren(item, 0);
		if (e < item.n && e >= 9 && !memcmp(item.p + e - 8, "earlier)", 8)) {
			item.p += e;
			item.n -= e;
			item = trim(item);
		}
	}
	if (item.n == 0)
		return 0;
	if (item.p[0] == '[') {
		size_t e = close_paren(item, 0);
		out->name.p = item.p + 1;
		out->name.n = e >= 2 ? e - 2 : 0;
		out->nested = 1;
		return out->name.n > 0;
	}
	size_t i = 0;
	while (i < item.n && item.p[i] != '(' && item.p[i] != ' ')
		i++;
	out->name.p = item.p;
	out->name.n = i;
	if (i < item.n && item.p[i] == '(') {
		size_t e = close_paren(item, i);
		out->args.p = item.p + i + 1;
		out->args.n = e > i + 1 ? e - i - 2 : 0;
		if (e > item.n || (e == item.n && item.p[e - 1] != ')'))
			out->args.n = item.n - i - 1;
		i = e;
	}
	emv_span rest = { item.p + i, item.n - i };
	out->status = trim(rest);
	unsigned char c0 = (unsigned char)out->name.p[0];
	return out->name.n > 0 && ((c0 >= 'A' && c0 <= 'Z') || (c0 >= 'a' && c0 <= 'z'));
}

static int key_is(const char *k, size_t kn, const char *want)
{
	size_t wl = strlen(want);
	if (kn != wl)
		return 0;
	for (size_t i = 0; i < kn; i++)
		if (lower(k[i]) != want[i])
			return 0;
	return 1;
}

int emv_action_arg(const emv_action *a, const char *const *keys, int pos, emv_span *out)
{
	size_t p = 0;
	int positional = 0;
	emv_span arg;
	while (emv_split(a->args, &p, ", ", &arg)) {
		size_t k = 0;
		while (k < arg.n && (is_id_byte((unsigned char)arg.p[k]) || arg.p[k] == '.'))
			k++;
		if (k > 0 && k < arg.n && arg.p[k] == '=') {
			size_t kn = 0;
			while (kn < k && arg.p[kn] != '.')
				kn++;
			for (size_t j = 0; keys && keys[j]; j++)
				if (key_is(arg.p, kn, keys[j])) {
					out->p = arg.p + k + 1;
					out->n = arg.n - k - 1;
					return 1;
				}
			continue;
		}
		if (pos >= 0 && positional++ == pos) {
			*out = arg;
			if (out->n >= 2 && out->p[0] == '"' && out->p[out->n - 1] == '"')
				out->p++, out->n -= 2;
			return 1;
		}
	}
	return 0;
}

int emv_action_is(const emv_action *a, const char *const *names)
{
	char norm[EMV_WORD_MAX];
	size_t len = 0;
	for (size_t i = 0; i < a->name.n && len < EMV_WORD_MAX - 1; i++) {
		char c = a->name.p[i];
		if (c == '_' || c == ' ' || c == '-')
			continue;
		norm[len++] = lower(c);
	}
	norm[len] = '\0';
	for (size_t j = 0; names[j]; j++) {
		size_t l = strlen(names[j]);
		if (len >= l && !memcmp(norm, names[j], l))
			return 1;
	}
	return 0;
}

int emv_object_parse(emv_span item, emv_object *out)
{
	memset(out, 0, sizeof *out);
	item = trim(item);
	const char *open = memchr(item.p, '(', item.n);
	if (!open) {
		out->id = item;
		return item.n > 0;
	}
	out->id.p = item.p;
	out->id.n = (size_t)(open - item.p);
	out->id = trim(out->id);
	size_t i = (size_t)(open - item.p) + 1;
	size_t e = close_paren(item, i - 1);
	size_t inner_end = e > i && e <= item.n && item.p[e - 1] == ')' ? e - 1 : item.n;
	emv_span inner = { item.p + i, inner_end - i };
	size_t p = 0;
	emv_split(inner, &p, ", ", &out->type);
	if (p < inner.n) {
		out->state.p = inner.p + p;
		out->state.n = inner.n - p;
	}
	return out->id.n > 0;
}

int emv_relation_parse(emv_span item, emv_relation *out)
{
	memset(out, 0, sizeof *out);
	item = trim(item);
	const char *sp1 = memchr(item.p, ' ', item.n);
	if (!sp1)
		return 0;
	size_t last = item.n;
	while (last > 0 && item.p[last - 1] != ' ')
		last--;
	size_t first = (size_t)(sp1 - item.p);
	if (last <= first + 1)
		return 0;
	out->from.p = item.p;
	out->from.n = first;
	out->type.p = item.p + first + 1;
	out->type.n = last - first - 2;
	out->to.p = item.p + last;
	out->to.n = item.n - last;
	return out->to.n > 0 && out->type.n > 0;
}

int emv_utterance_parse(emv_span v, emv_utterance *out)
{
	memset(out, 0, sizeof *out);
	v = trim(v);
	if (v.n >= 9 && v.p[2] == ':' && v.p[5] == ':' && v.p[8] == ' ' && v.p[0] >= '0' &&
	    v.p[0] <= '9') {
		out->clock.p = v.p;
		out->clock.n = 8;
		v.p += 9;
		v.n -= 9;
	}
	const char *q = memchr(v.p, '"', v.n);
	if (!q) {
		out->text = v;
		return v.n > 0;
	}
	size_t qi = (size_t)(q - v.p);
	if (qi >= 2 && v.p[qi - 1] == ' ' && v.p[qi - 2] == ':') {
		out->speaker.p = v.p;
		out->speaker.n = qi - 2;
	}
	size_t end = v.n;
	if (end > qi + 1 && v.p[end - 1] == '"')
		end--;
	out->text.p = q + 1;
	out->text.n = end > qi + 1 ? end - qi - 1 : 0;
	return 1;
}

size_t emv_place_name(char *out, size_t cap, emv_span id)
{
	id = trim(id);
	if (id.n >= 2 && id.p[0] == '"' && id.p[id.n - 1] == '"')
		id.p++, id.n -= 2;
	size_t n = id.n;
	size_t i = n;
	while (i > 0 && id.p[i - 1] >= '0' && id.p[i - 1] <= '9')
		i--;
	if (i < n && i >= 2 && id.p[i - 1] == '_')
		n = i - 1;
	size_t len = 0;
	for (size_t j = 0; j < n && len + 1 < cap; j++)
		out[len++] = id.p[j] == '_' ? ' ' : lower(id.p[j]);
	if (cap)
		out[len] = '\0';
	return len;
}

int emv_span_is(emv_span s, const char *w)
{
	return key_is(s.p, s.n, w);
}

int emv_no_name(emv_span who)
{
	static const char *const self[] = { "robot", "i", "me", "myself", "assistant", "agent",
		"self", "system", "user", "human", "person", "someone", "unknown", "speaker", NULL };
	for (size_t i = 0; self[i]; i++)
		if (emv_span_is(who, self[i]))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ time -- */

static struct tm *utc(struct tm *tm, int64_t t)
{
	if (t < 0)
		t = 0;
	time_t sec = (time_t)(t / 1000000);
	return gmtime_r(&sec, tm);
}

char *emv_fmt_datetime(char *buf, size_t cap, int64_t t)
{
	struct tm tm;
	if (!utc(&tm, t) || !strftime(buf, cap, "%Y/%m/%d, %H:%M:%S", &tm))
		snprintf(buf, cap, "?");
	return buf;
}

char *emv_fmt_date(char *buf, size_t cap, int64_t t)
{
	struct tm tm;
	if (!utc(&tm, t) || !strftime(buf, cap, "%Y/%m/%d", &tm))
		snprintf(buf, cap, "?");
	return buf;
}

int64_t emv_day_start(int64_t y, int m, int d)
{
	/* days from civil (H. Hinnant's algorithm) */
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468) * 86400 * 1000000ll;
}
