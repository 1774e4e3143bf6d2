/*
 * test_lex_memo.c — lex_stem keeps the short words it stemmed last
 * (api/lex.c): what it returns from that memo is Snowball's stem, for words
 * that share a slot, words too long to keep, and on another thread.
 */
#include <libstemmer.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/base/lex.h"

static const char *roots[] = { "walk", "tidy", "happy", "run", "connect", "general", "argue",
	                           "cup", "plate", "knife", "agree", "nation", "relate", "hope",
	                           "sponge", "dish", "wash", "bottle", "pick", "place" };
static const char *ends[] = { "", "s", "es", "ed", "ing", "er", "ers", "ness", "ly", "ies",
	                          "ational", "ization", "fulness", "ousness", "able", "ment" };

#define N_ROOTS (sizeof roots / sizeof *roots)
#define N_ENDS (sizeof ends / sizeof *ends)

/* Word i of a list of thousands: a root, an ending, and a repeat count
 * that makes some of them longer than the memo keeps. */
static void word(char *out, size_t cap, size_t i)
{
	size_t r = i % N_ROOTS, e = (i / N_ROOTS) % N_ENDS, k = i / (N_ROOTS * N_ENDS);
	snprintf(out, cap, "%s", roots[r]);
	for (size_t j = 0; j < k % 5; j++)
		strncat(out, roots[(r + j + 1) % N_ROOTS], cap - strlen(out) - 1);
	strncat(out, ends[e], cap - strlen(out) - 1);
}

static int check_all(struct sb_stemmer *sb)
{
	char w[LEX_WORD_MAX], got[LEX_WORD_MAX];
	for (int pass = 0; pass < 2; pass++) /* (the second from the memo) */
		for (size_t i = 0; i < N_ROOTS * N_ENDS * 5; i++) {
			word(w, sizeof w, i);
			lex_stem(w, strlen(w), got);
			const sb_symbol *s = sb_stemmer_stem(sb, (const sb_symbol *)w, (int)strlen(w));
			size_t n = (size_t)sb_stemmer_length(sb);
			if (!s || n >= LEX_WORD_MAX || strlen(got) != n || memcmp(got, s, n))
				return 0;
		}
	return 1;
}

static void test_memo_gives_snowballs_stems(void **state)
{
	(void)state;
	struct sb_stemmer *sb = sb_stemmer_new("english", NULL);
	assert_non_null(sb);
	assert_true(check_all(sb));
	sb_stemmer_delete(sb);
}

static void test_a_word_and_its_prefix_are_told_apart(void **state)
{
	(void)state;
	char a[LEX_WORD_MAX], b[LEX_WORD_MAX];
	/* the memo compares the whole word: "tidies" leaves no trace on "tidi" */
	lex_stem("tidies", 6, a);
	lex_stem("tidies", 4, b);
	assert_string_equal(a, "tidi");
	assert_string_equal(b, "tidi");
	lex_stem("running", 7, a);
	lex_stem("running", 3, b);
	assert_string_equal(a, "run");
	assert_string_equal(b, "run");
	lex_stem("generalization", 14, a);
	lex_stem("generalization", 7, b);
	assert_string_equal(a, "general");
	assert_string_equal(b, "general");
}

static void *on_thread(void *arg)
{
	(void)arg;
	struct sb_stemmer *sb = sb_stemmer_new("english", NULL);
	int ok = sb && check_all(sb);
	sb_stemmer_delete(sb);
	return ok ? (void *)1 : NULL;
}

static void test_each_thread_has_its_own_memo(void **state)
{
	(void)state;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, on_thread, NULL), 0);
	for (int i = 0; i < 2; i++) {
		void *ok = NULL;
		assert_int_equal(pthread_join(t[i], &ok), 0);
		assert_non_null(ok);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo_gives_snowballs_stems),
		cmocka_unit_test(test_a_word_and_its_prefix_are_told_apart),
		cmocka_unit_test(test_each_thread_has_its_own_memo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
