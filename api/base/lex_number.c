/*
 * lex_number.c — a number written in digits or in English words
 * ("eighty", "twenty four"), for counts said in words (lex.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api/base/lex.h"

static int small_number(const char *s)
{
	static const char *const n[] = { "zero", "one", "two", "three", "four", "five", "six",
		                             "seven", "eight", "nine", "ten", "eleven", "twelve",
		                             "thirteen", "fourteen", "fifteen", "sixteen",
		                             "seventeen", "eighteen", "nineteen" };
	for (int i = 0; i < (int)(sizeof n / sizeof *n); i++)
		if (!strcmp(s, n[i]))
			return i;
	return -1;
}

static int tens_number(const char *s)
{
	static const char *const n[] = { "twenty", "thirty", "forty", "fifty", "sixty",
		                             "seventy", "eighty", "ninety" };
	for (int i = 0; i < (int)(sizeof n / sizeof *n); i++)
		if (!strcmp(s, n[i]))
			return 20 + 10 * i;
	return -1;
}

size_t lex_number(const lex_word *w, size_t n, double *v)
{
	if (!n)
		return 0;
	if (w[0].digit) {
		char *end;
		*v = strtod(w[0].w, &end);
		return *end ? 0 : 1;
	}
	int a = small_number(w[0].w);
	if (a >= 0) {
		*v = a;
		return 1;
	}
	if ((a = tens_number(w[0].w)) < 0)
		return 0;
	int b = n > 1 ? small_number(w[1].w) : -1;
	*v = a + (b > 0 && b < 10 ? b : 0);
	return b > 0 && b < 10 ? 2 : 1;
}
