/*
 * strbuf.c — the growable string with a sticky out-of-memory flag
 * (strbuf.h): capacity doubles from 256 bytes, so appends are amortised
 * O(1) and a renderer checks for failure once, at the end.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/base/strbuf.h"

static int str_grow(pr_str *b, size_t extra)
{
	if (b->oom)
		return -1;
	if (b->len + extra + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1) {
		if (cap > SIZE_MAX / 2) {
			b->oom = 1;
			return -1;
		}
		cap *= 2;
	}
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

void pr_str_add(pr_str *b, const char *s, size_t n)
{
	if (str_grow(b, n))
		return;
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void pr_str_adds(pr_str *b, const char *s)
{
	pr_str_add(b, s ? s : "", s ? strlen(s) : 0);
}

void pr_str_addf(pr_str *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	if (str_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void pr_str_add_json(pr_str *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		size_t run = 0; /* bytes that need no escape go in one piece */
		while (p[run] >= 0x20 && p[run] != '"' && p[run] != '\\')
			run++;
		if (run) {
			pr_str_add(b, (const char *)p, run);
			p += run - 1;
			continue;
		}
		switch (*p) {
		case '"': pr_str_add(b, "\\\"", 2); break;
		case '\\': pr_str_add(b, "\\\\", 2); break;
		case '\n': pr_str_add(b, "\\n", 2); break;
		case '\r': pr_str_add(b, "\\r", 2); break;
		case '\t': pr_str_add(b, "\\t", 2); break;
		default:
			if (*p < 0x20)
				pr_str_addf(b, "\\u%04x", *p);
			else
				pr_str_add(b, (const char *)p, 1);
		}
	}
}

char *pr_str_take(pr_str *b)
{
	char *s = b->oom ? NULL : b->s ? b->s : strdup("");
	if (b->oom)
		free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
	return s;
}

void pr_str_free(pr_str *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}
