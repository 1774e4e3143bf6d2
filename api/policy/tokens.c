/*
 * tokens.c — the token estimate the builtin policy reports for the prompts
 * it renders (the rule is written down in prompts.h).
 *
 * Why this rule: no tokenizer is shipped (its vocabulary is megabytes and
 * model-specific), and the estimate only has to make costs comparable
 * across policies and runs, so it must be cheap and deterministic, and
 * close to what BPE vocabularies do with the three kinds of text our
 * prompts are made of:
 *  - English words: common words up to about seven letters are one token
 *    each (with their leading space), longer ones split; so a letter piece
 *    costs 1 + (L - 1) / 7, and a lone space is free. This lands near the
 *    usual "four characters per token" for prose.
 *  - identifiers (MakeBreakfast.Transport, knife_0, CounterTop_2): BPE
 *    splits at case changes, underscores, dots and digits, so we do too.
 *  - timestamps (2024/09/23 10:03:13): cl100k-style vocabularies hold
 *    numbers of up to three digits, and every separator is a token.
 * Anything outside ASCII is rare in our prompts and costs about a token per
 * character in those vocabularies, which is what we count.
 */
#include <string.h>

#include "api/policy/prompts.h"
#include "api/base/utf8.h"

static int is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
static int is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int is_alpha(unsigned char c) { return is_lower(c) || is_upper(c); }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* A piece of L letters: one token for up to 7, one more per further 7. */
static uint64_t piece_cost(size_t len)
{
	return len ? 1 + (len - 1) / 7 : 0;
}

/* A letter run, split where a lower-case letter is followed by an upper. */
static uint64_t letters_cost(const unsigned char *s, size_t n)
{
	uint64_t t = 0;
	size_t start = 0;
	for (size_t i = 1; i < n; i++) {
		if (is_lower(s[i - 1]) && is_upper(s[i])) {
			t += piece_cost(i - start);
			start = i;
		}
	}
	return t + piece_cost(n - start);
}

uint64_t tok_count(const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	uint64_t t = 0;
	size_t i = 0;
	while (i < n) {
		unsigned char c = s[i];
		size_t j = i + 1;
		if (is_alpha(c)) {
			while (j < n && is_alpha(s[j]))
				j++;
			t += letters_cost(s + i, j - i);
		} else if (is_digit(c)) {
			while (j < n && is_digit(s[j]))
				j++;
			t += (j - i + 2) / 3;
		} else if (c == ' ') {
			while (j < n && s[j] == ' ')
				j++;
			t += j - i > 1;
		} else if (c < 0x80) {
			t += 1; /* punctuation, newline, tab, control */
		} else {
			j = i + utf8_span(text + i, n - i);
			t += 1;
		}
		i = j;
	}
	return t;
}

uint64_t tok_text(const char *s)
{
	return s ? tok_count(s, strlen(s)) : 0;
}

int tok_splits_clean(unsigned char last_of_a, unsigned char first_of_b)
{
	return (last_of_a < 0x80 && !is_alpha(last_of_a) && !is_digit(last_of_a) && last_of_a != ' ') ||
	       (first_of_b < 0x80 && !is_alpha(first_of_b) && !is_digit(first_of_b) &&
	        first_of_b != ' ');
}

uint64_t tok_prompt(const pr_prompt *p)
{
	uint64_t t = TOK_PER_REPLY;
	for (size_t i = 0; p && i < p->n; i++)
		t += TOK_PER_MESSAGE + tok_text(p->msgs[i].text);
	return t;
}
