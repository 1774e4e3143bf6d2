/*
 * emv_words.c — words for question answering: the next word of a text,
 * a light stemmer, stopwords, a question's search terms and whether a text
 * mentions them (emv.h). Pure functions over spans; nothing here
 * allocates.
 */
#include <string.h>

#include "api/explore/emv.h"

/* ----------------------------------------------------------------- words -- */

static int is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

static int is_id_byte(unsigned char c)
{
	return is_word_byte(c) || c == '_';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

size_t emv_next_word(const char *s, size_t n, size_t *pos, char out[EMV_WORD_MAX])
{
	size_t i = *pos;
	while (i < n && !is_word_byte((unsigned char)s[i]))
		i++;
	size_t len = 0;
	while (i < n && is_word_byte((unsigned char)s[i])) {
		if (len < EMV_WORD_MAX - 1)
			out[len++] = lower(s[i]);
		i++;
	}
	out[len] = '\0';
	*pos = i;
	return len;
}

static int ends(const char *w, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && memcmp(w + n - k, suf, k) == 0;
}

size_t emv_stem(char *w, size_t n)
{
	if (n > 4 && ends(w, n, "ies")) {
		n -= 2;
		w[n - 1] = 'y';
	} else if (n > 4 && ends(w, n, "ves")) {
		n -= 2;
		w[n - 1] = 'f';
	} else if (n > 3 && ends(w, n, "es") &&
	           (ends(w, n, "ses") || ends(w, n, "xes") || ends(w, n, "zes") ||
	            ends(w, n, "ches") || ends(w, n, "shes"))) {
		n -= 2;
	} else if (n > 3 && w[n - 1] == 's' && !ends(w, n, "ss") && !ends(w, n, "us") &&
	           !ends(w, n, "is")) {
		n -= 1;
	}
	/* verb endings, for free text: "loading" = "loaded" = "load" */
	size_t v = n;
	if (n > 4 && ends(w, n, "ied")) {
		v = n - 2;
		w[v - 1] = 'y';
	} else if (n > 5 && ends(w, n, "ing")) {
		v = n - 3;
	} else if (n > 5 && ends(w, n, "ed")) {
		v = n - 2;
	}
	if (v != n && w[v - 1] != 'y' && w[v - 1] == w[v - 2] && !strchr("aeiouslz", w[v - 1]))
		v--; /* "putt" -> "put", "dropp" -> "drop" */
	n = v;
	if (n > 3 && w[n - 1] == 'e')
		n--;
	w[n] = '\0';
	return n;
}

static const char *const stopwords[] = {
	"a", "about", "after", "again", "all", "am", "an", "and", "any", "anything", "are", "as",
	"at", "be", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does",
	"doing", "done", "during", "earliest", "ever", "first", "for", "from", "had", "has",
	"have", "having", "he", "her", "here", "his", "how", "i", "if", "in", "inside", "into",
	"is", "it", "its", "last", "latest", "may", "me", "might", "most", "must", "my", "no",
	"not", "of", "on", "once", "onto", "or", "our", "please", "recent", "recently", "she",
	"should", "so", "some", "something", "than", "that", "the", "their", "them", "then",
	"there", "these", "they", "this", "those", "time", "times", "to", "us", "was", "we",
	"were", "what", "when", "where", "which", "while", "who", "whom", "whose", "why", "will",
	"with", "would", "you", "your", NULL,
};

int emv_stopword(const char *w)
{
	for (size_t i = 0; stopwords[i]; i++)
		if (!strcmp(w, stopwords[i]))
			return 1;
	return 0;
}

/* An id: letters, then '_' and digits at the end ("knife_0", "Tomato_0_Slice_1"). */
static int looks_like_id(const char *s, size_t n)
{
	if (n < 3 || !(s[n - 1] >= '0' && s[n - 1] <= '9'))
		return 0;
	size_t i = n;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	return i >= 2 && s[i - 1] == '_';
}

size_t emv_terms(emv_term *out, size_t max, const char *q, size_t n)
{
	size_t k = 0, i = 0;
	while (i < n && k < max) {
		while (i < n && !is_id_byte((unsigned char)q[i]))
			i++;
		size_t start = i;
		while (i < n && is_id_byte((unsigned char)q[i]))
			i++;
		if (i == start)
			break;
		if (looks_like_id(q + start, i - start) && i - start < EMV_WORD_MAX) {
			for (size_t j = start; j < i; j++)
				out[k].stem[j - start] = lower(q[j]);
			out[k].stem[i - start] = '\0';
			memcpy(out[k].word, out[k].stem, i - start + 1);
			out[k++].is_id = 1;
			continue;
		}
		size_t p = start;
		char w[EMV_WORD_MAX];
		size_t len;
		while (k < max && (len = emv_next_word(q, i, &p, w)) > 0) {
			if (emv_stopword(w))
				continue;
			memcpy(out[k].stem, w, len + 1);
			memcpy(out[k].word, w, len + 1);
			emv_stem(out[k].stem, len);
			out[k++].is_id = 0;
		}
	}
	return k;
}

/* Could word w stem to `stem`? Stemming only cuts an ending and may
 * change the last letter kept ("ies" -> "y"), so all but that letter is a
 * prefix of the word. */
static int may_stem_to(const char *w, size_t wl, const char *stem, size_t sl)
{
	size_t keep = sl > 1 ? sl - 1 : sl;
	return wl >= keep && wl <= sl + 4 && w[0] == stem[0] && !memcmp(w, stem, keep);
}

/* Bit i set when term i occurs in s as a word (ids as whole ids). */
static unsigned found_mask(const char *s, size_t n, const emv_term *t, size_t k)
{
	unsigned mask = 0, all = k >= 32 ? ~0u : (1u << k) - 1;
	int have_ids = 0, have_words = 0;
	size_t sl[32];
	for (size_t j = 0; j < k && j < 32; j++) {
		have_ids |= t[j].is_id;
		have_words |= !t[j].is_id;
		sl[j] = strlen(t[j].stem);
	}
	char w[EMV_WORD_MAX];
	size_t pos = 0, len;
	while (have_words && mask != all && (len = emv_next_word(s, n, &pos, w)) > 0) {
		int stemmed = 0;
		for (size_t j = 0; j < k && j < 32; j++) {
			if (t[j].is_id || (mask >> j & 1) || !may_stem_to(w, len, t[j].stem, sl[j]))
				continue;
			if (!stemmed) {
				len = emv_stem(w, len);
				stemmed = 1;
			}
			if (len == sl[j] && !memcmp(w, t[j].stem, len))
				mask |= 1u << j;
		}
	}
	for (size_t i = 0; have_ids && mask != all && i < n;) {
		while (i < n && !is_id_byte((unsigned char)s[i]))
			i++;
		size_t start = i;
		while (i < n && is_id_byte((unsigned char)s[i]))
			i++;
		size_t len2 = i - start;
		for (size_t j = 0; j < k && j < 32; j++) {
			if (!t[j].is_id || sl[j] != len2)
				continue;
			size_t c = 0;
			while (c < len2 && lower(s[start + c]) == t[j].stem[c])
				c++;
			if (c == len2)
				mask |= 1u << j;
		}
	}
	return mask;
}

size_t emv_count_terms(const char *s, size_t n, const emv_term *t, size_t k)
{
	unsigned m = found_mask(s, n, t, k);
	size_t c = 0;
	for (; m; m &= m - 1)
		c++;
	return c;
}

/* The terms written together and stemmed ("coffee machine" ->
 * "coffeemachin"), or 0 when they include an id or do not fit. */
static size_t joined(char out[EMV_WORD_MAX], const emv_term *t, size_t k)
{
	size_t len = 0;
	for (size_t j = 0; j < k; j++) {
		size_t l = strlen(t[j].word);
		if (t[j].is_id || len + l >= EMV_WORD_MAX)
			return 0;
		memcpy(out + len, t[j].word, l);
		len += l;
	}
	out[len] = '\0';
	return emv_stem(out, len);
}

/* Do one to four consecutive words of s, written together, stem to `want`?
 * Only runs that are still a prefix of the words written together are
 * followed, so most words cost one comparison. */
static int joined_words_match(const char *s, size_t n, const char *want, size_t want_len)
{
	char open[3][4 * EMV_WORD_MAX];
	size_t lens[3], words[3], n_open = 0, pos = 0, len;
	char w[EMV_WORD_MAX];
	while ((len = emv_next_word(s, n, &pos, w)) > 0) {
		if (may_stem_to(w, len, want, want_len)) { /* "CoffeeMachine" alone */
			char tmp[EMV_WORD_MAX];
			memcpy(tmp, w, len + 1);
			if (emv_stem(tmp, len) == want_len && !memcmp(tmp, want, want_len))
				return 1;
		}
		size_t kept = 0;
		for (size_t r = 0; r < n_open; r++) {
			size_t l = lens[r] + len;
			if (l >= sizeof open[r])
				continue;
			memcpy(open[r] + lens[r], w, len + 1);
			char tmp[4 * EMV_WORD_MAX];
			memcpy(tmp, open[r], l + 1);
			if (l + 1 <= EMV_WORD_MAX && may_stem_to(tmp, l, want, want_len) &&
			    emv_stem(tmp, l) == want_len && !memcmp(tmp, want, want_len))
				return 1;
			/* still a prefix of `want`: it may grow into it */
			if (words[r] < 3 && l < want_len && w[0] == want[lens[r]] &&
			    !memcmp(open[r], want, l)) {
				if (kept != r)
					memcpy(open[kept], open[r], l + 1);
				lens[kept] = l;
				words[kept++] = words[r] + 1;
			}
		}
		n_open = kept;
		if (n_open < 3 && len < want_len && w[0] == want[0] && !memcmp(w, want, len)) {
			memcpy(open[n_open], w, len + 1);
			lens[n_open] = len;
			words[n_open++] = 1;
		}
	}
	return 0;
}

/* Does s hold the two letters a, b one after the other (any case)? A
 * cheap test before looking for words written together. */
static int has_pair(const char *s, size_t n, char a, char b)
{
	for (const char *p = s; n > 1 && (p = memchr(p, a, n - 1 - (size_t)(p - s)) ? p : NULL);
	     p++)
		if (lower(p[1]) == b)
			return 1;
	char ua = a >= 'a' && a <= 'z' ? (char)(a - 'a' + 'A') : a;
	if (ua == a)
		return 0;
	for (const char *p = s; n > 1 && (p = memchr(p, ua, n - 1 - (size_t)(p - s)) ? p : NULL);
	     p++)
		if (lower(p[1]) == b)
			return 1;
	return 0;
}

int emv_mentions(const char *s, size_t n, const emv_term *t, size_t k)
{
	if (k == 0)
		return 1;
	if (!s || n == 0)
		return 0;
	size_t kk = k > 32 ? 32 : k;
	if (found_mask(s, n, t, kk) == (kk >= 32 ? ~0u : (1u << kk) - 1))
		return 1;
	char want[EMV_WORD_MAX];
	size_t wl = joined(want, t, kk);
	return wl > 1 && has_pair(s, n, want[0], want[1]) && joined_words_match(s, n, want, wl);
}
