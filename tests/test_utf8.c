/*
 * test_utf8.c — the one UTF-8 module (api/utf8.h) that the observation
 * codec, the rules codec, the LLM parsers and transports and the token
 * estimate share: what a well-formed character is (boundaries, overlong
 * forms, surrogates, code points beyond U+10FFFF, truncated sequences),
 * whole-string checks with and without NUL, cutting on a boundary, and
 * repair. (The library does no case folding beyond ASCII: nothing to test.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/base/utf8.h"

static size_t len_of(const char *s)
{
	return utf8_char_len(s, strlen(s));
}

static void test_every_encoding_length_at_its_boundaries(void **state)
{
	(void)state;
	assert_int_equal(len_of("A"), 1);
	assert_int_equal(len_of("\x7F"), 1);           /* U+007F */
	assert_int_equal(len_of("\xC2\x80"), 2);       /* U+0080 */
	assert_int_equal(len_of("\xDF\xBF"), 2);       /* U+07FF */
	assert_int_equal(len_of("\xE0\xA0\x80"), 3);   /* U+0800 */
	assert_int_equal(len_of("\xE2\x82\xAC"), 3);   /* the euro sign */
	assert_int_equal(len_of("\xED\x9F\xBF"), 3);   /* U+D7FF, just below the surrogates */
	assert_int_equal(len_of("\xEE\x80\x80"), 3);   /* U+E000, just above */
	assert_int_equal(len_of("\xEF\xBF\xBF"), 3);   /* U+FFFF */
	assert_int_equal(len_of("\xF0\x90\x80\x80"), 4); /* U+10000 */
	assert_int_equal(len_of("\xF0\x9F\x94\x91"), 4); /* a key emoji */
	assert_int_equal(len_of("\xF4\x8F\xBF\xBF"), 4); /* U+10FFFF */
	/* NUL is a character; nothing at all is not */
	assert_int_equal(utf8_char_len("\0", 1), 1);
	assert_int_equal(utf8_char_len("A", 0), 0);
}

static void test_overlong_forms_are_refused(void **state)
{
	(void)state;
	assert_int_equal(len_of("\xC0\x80"), 0);         /* NUL in two bytes */
	assert_int_equal(len_of("\xC1\xBF"), 0);         /* U+007F in two */
	assert_int_equal(len_of("\xE0\x80\x80"), 0);
	assert_int_equal(len_of("\xE0\x9F\xBF"), 0);     /* U+07FF in three */
	assert_int_equal(len_of("\xF0\x80\x80\x80"), 0);
	assert_int_equal(len_of("\xF0\x8F\xBF\xBF"), 0); /* U+FFFF in four */
	assert_false(utf8_valid("a\xC0\xAF", 3));        /* the classic "/" */
}

static void test_surrogates_and_beyond_unicode_are_refused(void **state)
{
	(void)state;
	assert_int_equal(len_of("\xED\xA0\x80"), 0);     /* U+D800 */
	assert_int_equal(len_of("\xED\xBF\xBF"), 0);     /* U+DFFF */
	assert_false(utf8_valid("\xED\xA0\xBD\xED\xB4\x91", 6)); /* CESU-8 pair */
	assert_int_equal(len_of("\xF4\x90\x80\x80"), 0); /* U+110000 */
	for (unsigned c = 0xF5; c <= 0xFF; c++) {
		char s[5] = { (char)c, '\x80', '\x80', '\x80', 0 };
		assert_int_equal(utf8_char_len(s, 4), 0);
	}
}

static void test_truncated_and_stray_bytes_are_refused(void **state)
{
	(void)state;
	assert_int_equal(utf8_char_len("\xE2\x82\xAC", 2), 0); /* cut by n */
	assert_int_equal(utf8_char_len("\xF0\x9F\x94\x91", 3), 0);
	assert_int_equal(len_of("\xE2\x82"), 0);                /* cut by the NUL */
	assert_int_equal(len_of("\xE2" "A" "\xAC"), 0);         /* a non-continuation inside */
	assert_int_equal(len_of("\x80"), 0);                    /* a stray continuation */
	assert_int_equal(len_of("\xBF"), 0);
	assert_false(utf8_valid("caf\xC3", 4));
	assert_true(utf8_valid("caf\xC3\xA9", 5));
}

static void test_whole_strings_with_and_without_nul(void **state)
{
	(void)state;
	const char mixed[] = "mug \xE2\x86\x92 kitchen \xF0\x9F\x94\x91";
	assert_true(utf8_valid(mixed, sizeof mixed - 1));
	assert_true(utf8_text_ok(mixed, sizeof mixed - 1));
	assert_true(utf8_valid("a\0b", 3));
	assert_false(utf8_text_ok("a\0b", 3));
	/* msgpack-c hands empty strings over as NULL */
	assert_true(utf8_valid(NULL, 0));
	assert_true(utf8_text_ok(NULL, 0));
	assert_false(utf8_text_ok("ok\xFF", 3));
}

static void test_cut_never_splits_a_character(void **state)
{
	(void)state;
	const char *s = "ab\xE2\x82\xAC" "cd"; /* a b EURO c d */
	assert_int_equal(utf8_cut(s, 1), 1);
	assert_int_equal(utf8_cut(s, 2), 2);
	assert_int_equal(utf8_cut(s, 3), 2); /* inside the euro sign */
	assert_int_equal(utf8_cut(s, 4), 2);
	assert_int_equal(utf8_cut(s, 5), 5);
	assert_int_equal(utf8_cut("\x80\x80\x80", 2), 0); /* nothing but continuations */
	/* every cut of a valid string leaves a valid prefix */
	const char *t = "\xC3\xA9t\xC3\xA9 \xF0\x9F\x94\x91 \xE6\x97\xA5";
	size_t n = strlen(t);
	for (size_t max = 0; max < n; max++) {
		size_t k = utf8_cut(t, max);
		assert_true(k <= max);
		assert_true(utf8_valid(t, k));
	}
}

static void test_span_counts_sequences_without_validating(void **state)
{
	(void)state;
	assert_int_equal(utf8_span("A", 1), 1);
	assert_int_equal(utf8_span("\xC3\xA9", 2), 2);
	assert_int_equal(utf8_span("\xF0\x9F\x94\x91", 4), 4);
	assert_int_equal(utf8_span("\xC0\x80", 2), 2);   /* overlong, but one sequence */
	assert_int_equal(utf8_span("\xE2\x82", 2), 1);   /* announced 3, 2 there */
	assert_int_equal(utf8_span("\xE2" "AB", 3), 1);  /* no continuation */
	assert_int_equal(utf8_span("\x80", 1), 1);
	assert_int_equal(utf8_span("\xF8\x80\x80\x80\x80", 5), 1);
}

static void test_repair_replaces_each_bad_byte_and_keeps_the_rest(void **state)
{
	(void)state;
	char *r = utf8_repair("ok \xC3\xA9 \xFF\xC0\x80 \xE2\x82");
	assert_non_null(r);
	assert_string_equal(r, "ok \xC3\xA9 \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD "
	                       "\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_true(utf8_text_ok(r, strlen(r)));
	free(r);
	r = utf8_repair("");
	assert_non_null(r);
	assert_string_equal(r, "");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_encoding_length_at_its_boundaries),
		cmocka_unit_test(test_overlong_forms_are_refused),
		cmocka_unit_test(test_surrogates_and_beyond_unicode_are_refused),
		cmocka_unit_test(test_truncated_and_stray_bytes_are_refused),
		cmocka_unit_test(test_whole_strings_with_and_without_nul),
		cmocka_unit_test(test_cut_never_splits_a_character),
		cmocka_unit_test(test_span_counts_sequences_without_validating),
		cmocka_unit_test(test_repair_replaces_each_bad_byte_and_keeps_the_rest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
