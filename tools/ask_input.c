/*
 * ask_input.c — the question and the --at time of `h2emv ask` and POST
 * /v1/ask (ask_input.h).
 */
#include <stdio.h>

#include "tools/ask_input.h"
#include "tools/cli.h"

/* 10000-01-01T00:00:00Z in microseconds: h2emv_time_format's end. */
#define AT_END 253402300800000000LL

int ask_question_ok(const char *q)
{
	for (const unsigned char *p = (const unsigned char *)q; *p; p++)
		if ((*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') ||
		    *p >= 0x80)
			return 1;
	return 0;
}

int ask_at_check(h2emv_time t, char *why, size_t cap)
{
	if (t <= 0) {
		snprintf(why, cap, "it is not after 1970-01-01T00:00:00Z, and the memory holds "
		         "nothing that old");
		return -1;
	}
	if (t >= AT_END) {
		snprintf(why, cap, "it is after the year 9999");
		return -1;
	}
	return 0;
}

int ask_at_parse(h2emv_time *out, h2emv_mem *mem, const char *s, char *why, size_t cap)
{
	char inner[200];
	if (cli_when(out, mem, s)) {
		snprintf(why, cap, "'%.100s' is not a time (try 2024-09-23T10:00:00Z, "
		         "\"2024-09-23 10:00\", or +1d after the memory's clock)", s);
		return -1;
	}
	if (ask_at_check(*out, inner, sizeof inner)) {
		snprintf(why, cap, "'%.100s': %s", s, inner);
		return -1;
	}
	return 0;
}
