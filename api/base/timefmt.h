/*
 * timefmt.h — the answer's time formats ("2024/09/23, 10:03:55", UTC) and
 * the start of a civil day, shared by the question path (api/recall/).
 * (The emv_ prefix is the explorer's, where they lived first.)
 */
#ifndef H2EMV_API_TIMEFMT_H
#define H2EMV_API_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* "2024/09/23, 10:03:55" (UTC), the answer format; a time before 1970
 * reads as 1970. Writes at most cap bytes (cap >= 32); returns buf. */
char *emv_fmt_datetime(char *buf, size_t cap, int64_t t);
/* "2024/09/23" (UTC); as above. */
char *emv_fmt_date(char *buf, size_t cap, int64_t t);
/* µs of 00:00 UTC on the given civil date. */
int64_t emv_day_start(int64_t y, int m, int d);

#endif
