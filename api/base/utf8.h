/*
 * utf8.h — the one UTF-8 module of the library: what a well-formed
 * character is (RFC 3629: no overlong form, no surrogate, nothing above
 * U+10FFFF, no sequence cut short), checks of whole strings, cutting on a
 * character boundary and repairing invalid bytes. Everything that reads or
 * cuts UTF-8 in api/ goes through here.
 */
#ifndef H2EMV_API_UTF8_H
#define H2EMV_API_UTF8_H

#include <stddef.h>

/* Is c a continuation byte (10xxxxxx), never the start of a character? */
static inline int utf8_is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* The length (1..4) of the well-formed character at s (n bytes readable),
 * or 0 when the bytes there are not one (or n is 0). NUL is a character of
 * length 1. */
size_t utf8_char_len(const char *s, size_t n);

/* The length of the byte sequence at s as its first byte announces it (a
 * lead byte with the continuation bytes that follow it, 2..4), without
 * checking the character it encodes; 1 for a stray byte, or when the
 * announced continuation bytes are not all there. n >= 1. For counting
 * characters in text that may be invalid (the token estimate), not for
 * validating. */
size_t utf8_span(const char *s, size_t n);

/* Is s[0..n) well-formed UTF-8? NUL bytes are allowed. s may be NULL when
 * n is 0. */
int utf8_valid(const char *s, size_t n);

/* Is s[0..n) well-formed UTF-8 without a NUL byte (text jansson and the
 * record codecs accept)? s may be NULL when n is 0. */
int utf8_text_ok(const char *s, size_t n);

/* The largest length <= max at which s can be cut without splitting a
 * character: max moved back over continuation bytes. s[max] must be
 * readable (max < the length of s). */
size_t utf8_cut(const char *s, size_t max);

/* A malloc'd, NUL-terminated copy of the NUL-terminated s in which every
 * byte that does not begin a well-formed character is replaced by U+FFFD;
 * NULL when out of memory. The caller frees it. */
char *utf8_repair(const char *s);

#endif
