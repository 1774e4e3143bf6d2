/*
 * util.c — small pieces every engine file uses: growable buffers, error
 * filling, the wall clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"

int eng_buf_reserve(eng_buf *b, size_t extra)
{
	if (extra <= b->cap - b->len)
		return H2EMV_OK;
	if (extra > SIZE_MAX / 2 - b->len)
		return H2EMV_ENOMEM;
	size_t need = b->len + extra;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	uint8_t *p = realloc(b->data, cap);
	if (!p)
		return H2EMV_ENOMEM;
	b->data = p;
	b->cap = cap;
	return H2EMV_OK;
}

int eng_buf_append(eng_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return H2EMV_OK;
	int rc = eng_buf_reserve(b, n);
	if (rc)
		return rc;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return H2EMV_OK;
}

void eng_buf_free(eng_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int eng_failv(h2emv_error *err, int status, const char *fmt, va_list ap)
{
	if (err) {
		err->status = status;
		vsnprintf(err->message, sizeof err->message, fmt, ap);
	}
	return status;
}

int eng_fail(h2emv_error *err, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	eng_failv(err, status, fmt, ap);
	va_end(ap);
	return status;
}

int64_t eng_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

const char *h2emv_strerror(int status)
{
	switch (status) {
	case H2EMV_OK: return "ok";
	case H2EMV_EINVAL: return "invalid argument";
	case H2EMV_ENOMEM: return "out of memory";
	case H2EMV_EIO: return "I/O error";
	case H2EMV_ENOSPC: return "no space left";
	case H2EMV_ECORRUPT: return "corrupt record";
	case H2EMV_EFORMAT: return "unsupported store format";
	case H2EMV_ENOTFOUND: return "not found";
	case H2EMV_EEXIST: return "already exists";
	case H2EMV_EBUSY: return "busy";
	case H2EMV_EPARSE: return "malformed input";
	case H2EMV_ELIMIT: return "input too large";
	case H2EMV_EREADONLY: return "read-only";
	case H2EMV_EINTERNAL: return "internal error";
	default: return "unknown status";
	}
}

void h2emv_free(void *p)
{
	free(p);
}
