/*
 * llm_errors.c — what every file of the llm transport uses to report a
 * failure: errors with the API key redacted (llm_fail), and printable
 * excerpts of what a server sent (llm_sanitize). Its own file, so the
 * transport's files all call into it and it calls none of them back.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_errors.h"
#include "api/base/utf8.h"

/* Replace every occurrence of `secret` in `s` (malloc'd) by "[redacted]". */
static char *redact(char *s, const char *secret)
{
	static const char mark[] = "[redacted]";
	size_t k = secret ? strlen(secret) : 0;
	if (!k || !strstr(s, secret))
		return s;
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, secret)); p += k)
		n++;
	size_t len = strlen(s) + n * (sizeof mark - 1);
	char *r = malloc(len + 1), *w = r;
	if (!r) {
		/* cannot build the redacted copy: blank the secret out in place */
		for (char *p = s; (p = strstr(p, secret)); p += k)
			memset(p, '*', k);
		return s;
	}
	for (const char *p = s, *q; *p; p = q + k) {
		if (!(q = strstr(p, secret))) {
			strcpy(w, p);
			w += strlen(p);
			break;
		}
		memcpy(w, p, (size_t)(q - p));
		w += q - p;
		memcpy(w, mark, sizeof mark - 1);
		w += sizeof mark - 1;
	}
	*w = 0;
	explicit_bzero(s, strlen(s));
	free(s);
	return r;
}

static int failv(const char *secret, h2emv_error *err, int status, uint64_t line,
                 const char *fmt, va_list ap)
{
	if (!err)
		return status;
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	err->status = status;
	err->line = line;
	err->column = 0;
	err->field[0] = 0;
	if (!msg) {
		snprintf(err->message, sizeof err->message, "llm: %s (out of memory formatting the details)",
		         h2emv_strerror(status));
		return status;
	}
	msg = redact(msg, secret);
	/* a message may quote a reply's or a parser's bytes: valid UTF-8 */
	char *ok = msg ? utf8_repair(msg) : NULL;
	snprintf(err->message, sizeof err->message, "llm: %s", ok ? ok : msg);
	/* (a message cut short is cut on a character's boundary) */
	if (strlen(err->message) == sizeof err->message - 1)
		err->message[utf8_cut(err->message, sizeof err->message - 1)] = 0;
	free(ok);
	free(msg);
	return status;
}

int llm_fail(const char *secret, h2emv_error *err, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	failv(secret, err, status, 0, fmt, ap);
	va_end(ap);
	return status;
}

int llm_fail_line(const char *secret, h2emv_error *err, int status, uint64_t line,
                  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	failv(secret, err, status, line, fmt, ap);
	va_end(ap);
	return status;
}

void llm_sanitize(char *dst, size_t cap, const char *src, size_t n, size_t max)
{
	size_t room = cap - 4, i = 0, j = 0; /* room for "..." and the NUL */
	if (max > room)
		max = room;
	while (i < n && i < max) {
		size_t k = utf8_char_len(src + i, n - i);
		if (k > 1 && i + k <= max) {
			memcpy(dst + j, src + i, k);
			j += k;
			i += k;
			continue;
		}
		if (k > 1)
			break; /* a character that does not fit whole */
		unsigned char ch = (unsigned char)src[i];
		dst[j++] = (k == 1 && ch >= 0x20 && ch != 0x7f) ? (char)ch : ' ';
		i++;
	}
	if (i < n) {
		memcpy(dst + j, "...", 3);
		j += 3;
	}
	dst[j] = 0;
}
