/*
 * utf8.c — the UTF-8 rules of utf8.h: one decoder of a character's length
 * that every check, cut and repair in the library is built on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/base/utf8.h"

size_t utf8_char_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	if (!n)
		return 0;
	unsigned c = s[0];
	size_t len;
	uint32_t cp, min;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, cp = c & 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, cp = c & 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0; /* a continuation byte, C0/C1 (always overlong), F5..FF */
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (!utf8_is_cont(s[i]))
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0; /* overlong, beyond Unicode, a surrogate */
	return len;
}

size_t utf8_span(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t want = s[0] >= 0xF8 ? 1 : s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
	if (want > n)
		return 1;
	for (size_t i = 1; i < want; i++)
		if (!utf8_is_cont(s[i]))
			return 1;
	return want;
}

int utf8_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = utf8_char_len(s + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

int utf8_text_ok(const char *s, size_t n)
{
	return !(n && memchr(s, 0, n)) && utf8_valid(s, n);
}

size_t utf8_cut(const char *s, size_t max)
{
	while (max > 0 && utf8_is_cont((unsigned char)s[max]))
		max--;
	return max;
}

char *utf8_repair(const char *s)
{
	size_t n = strlen(s), j = 0;
	char *r = malloc(3 * n + 1);
	if (!r)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_char_len(s + i, n - i);
		if (k) {
			memcpy(r + j, s + i, k);
			j += k;
			i += k;
		} else {
			memcpy(r + j, "\xEF\xBF\xBD", 3);
			j += 3;
			i += 1;
		}
	}
	r[j] = 0;
	return r;
}
