/*
 * test_time.c — the one public time reader and writer (h2emv_time_parse,
 * h2emv_time_format) that the command line, the importers and the
 * library share.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "h2emv.h"

#define US 1000000ll

static h2emv_time parse_ok(const char *s)
{
	h2emv_time t = -1;
	h2emv_error err = { 0 };
	if (h2emv_time_parse(&t, s, &err) != H2EMV_OK)
		fail_msg("'%s': %s", s, err.message);
	return t;
}

static void test_every_documented_form_reads_the_same_instant(void **state)
{
	(void)state;
	const h2emv_time want = 1727085600ll * US; /* 2024-09-23 10:00:00 UTC */
	assert_int_equal(parse_ok("2024-09-23T10:00:00Z"), want);
	assert_int_equal(parse_ok("2024-09-23t10:00:00z"), want);
	assert_int_equal(parse_ok("2024-09-23T12:00:00+02:00"), want);
	assert_int_equal(parse_ok("2024-09-23T05:30:00-04:30"), want);
	assert_int_equal(parse_ok("2024-09-23 10:00"), want);
	assert_int_equal(parse_ok("2024-09-23 10:00:00"), want);
	assert_int_equal(parse_ok("2024-09-23T10:00"), want);
	assert_int_equal(parse_ok("1727085600000000"), want);
	assert_int_equal(parse_ok("2024-09-23T10:00:00.25Z"), want + 250000);
	assert_int_equal(parse_ok("2024-09-23"), want - 10 * 3600 * US);
}

static void test_what_is_not_a_time_is_refused_with_a_reason(void **state)
{
	(void)state;
	static const char *const bad[] = { "", "yesterday", "2024-02-30", "2023-02-29",
		                           "2024-09-23T25:00", "2024-13-01", "2024-09-23T10:00:00Q",
		                           "+7d", "12345678901234567890", "2024-09-23 10" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		h2emv_time t = 7;
		h2emv_error err = { 0 };
		if (h2emv_time_parse(&t, bad[i], &err) != H2EMV_EINVAL)
			fail_msg("'%s' was read as %lld", bad[i], (long long)t);
		assert_true(err.message[0] != 0);
		assert_int_equal(t, 7);
	}
}

static void test_formats_round_trip(void **state)
{
	(void)state;
	char a[H2EMV_TIME_TEXT], b[H2EMV_TIME_TEXT];
	h2emv_time t = 1727085600ll * US + 123456;
	assert_string_equal(h2emv_time_format(a, t, H2EMV_TIME_RFC3339),
	                    "2024-09-23T10:00:00.123456Z");
	assert_string_equal(h2emv_time_format(b, t, H2EMV_TIME_HUMAN), "2024-09-23 10:00:00");
	assert_int_equal(parse_ok(a), t);
	assert_int_equal(parse_ok(b), t - 123456);
	assert_string_equal(h2emv_time_format(a, H2EMV_TIME_NEVER, H2EMV_TIME_HUMAN), "never");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_documented_form_reads_the_same_instant),
		cmocka_unit_test(test_what_is_not_a_time_is_refused_with_a_reason),
		cmocka_unit_test(test_formats_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
