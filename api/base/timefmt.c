/*
 * timefmt.c — the answer's time formats and the start of a civil day
 * (timefmt.h). Pure functions; nothing here allocates.
 */
#include <stdio.h>
#include <time.h>

#include "api/base/timefmt.h"

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
