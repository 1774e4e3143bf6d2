/*
 * ask_input.h — what `h2emv ask` and `serve`'s POST /v1/ask both read from
 * a person or a program, read by one parser so that they agree: the
 * question (it must hold a word) and the time of --at / "at".
 */
#ifndef H2EMV_ASK_INPUT_H
#define H2EMV_ASK_INPUT_H

#include <stddef.h>

#include "h2emv.h"

/* Whether a question holds something to ask: a letter or a digit (any
 * non-ASCII character counts as a letter). "", "?" and "  " do not. */
int ask_question_ok(const char *q);

/* A time for --at / "at": RFC 3339, "YYYY-MM-DD[ HH:MM[:SS]]" (UTC),
 * microseconds since the epoch, or +DURATION after the memory's clock
 * (cli_when). It must lie after 1970-01-01T00:00:00Z and before the year
 * 10000. Returns 0, or -1 with `why` (a sentence about `s`) filled. */
int ask_at_parse(h2emv_time *out, h2emv_mem *mem, const char *s, char *why, size_t cap);
/* The same bounds for a time given as microseconds. */
int ask_at_check(h2emv_time t, char *why, size_t cap);

#endif
