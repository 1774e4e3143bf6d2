/*
 * judge_words.c — the judge's reading of text as words: splitting (case,
 * CamelCase, '_', object ids "Mug|+00.50|..." and instance numbers go),
 * plurals, a light stemmer, and the word lists that carry no name.
 */
#include <string.h>

#include "bench/eval/judge_int.h"

static int is_upper(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

static int is_lower(unsigned char c)
{
	return c >= 'a' && c <= 'z';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(unsigned char c)
{
	return is_upper(c) || is_lower(c);
}

/* Letters, digits and every byte of a multi-byte (or broken) sequence. */
static int is_wordc(unsigned char c)
{
	return is_alpha(c) || is_digit(c) || c >= 0x80;
}

static char lower(unsigned char c)
{
	return is_upper(c) ? (char)(c - 'A' + 'a') : (char)c;
}

static void emit(jd_text *x, const char *s, size_t i, size_t j, int *brk)
{
	if (x->nt >= JD_MAX_TOKENS || j <= i)
		return;
	jd_tok *t = &x->t[x->nt++];
	size_t len = 0;
	int num = 1;
	for (size_t k = i; k < j; k++) {
		if (s[k] == '\'')
			continue;
		if (len + 1 < JD_WORD)
			t->w[len++] = lower((unsigned char)s[k]);
		num &= is_digit((unsigned char)s[k]);
	}
	t->w[len] = '\0';
	t->num = (uint8_t)num;
	t->brk = (uint8_t)*brk;
	t->pos = (uint32_t)i;
	*brk = 0;
}

/* A run of word characters, cut at CamelCase ("CounterTop", "TVStand")
 * and between letters and digits ("5pm", "Mug1"). */
static void emit_run(jd_text *x, const char *s, size_t i, size_t j, int *brk)
{
	size_t start = i;
	for (size_t k = i + 1; k < j; k++) {
		unsigned char p = (unsigned char)s[k - 1], c = (unsigned char)s[k];
		int cut = (is_lower(p) && is_upper(c)) || (is_alpha(p) && is_digit(c)) ||
		          (is_digit(p) && is_alpha(c)) ||
		          (is_upper(p) && is_upper(c) && k + 1 < j && is_lower((unsigned char)s[k + 1]));
		if (cut) {
			emit(x, s, start, k, brk);
			start = k;
		}
	}
	emit(x, s, start, j, brk);
}

void jd_tokenize(jd_text *x, const char *s, size_t n, jd_tok *t)
{
	x->s = s;
	x->n = n;
	x->t = t;
	x->nt = 0;
	int brk = 0;
	size_t i = 0;
	while (i < n && x->nt < JD_MAX_TOKENS) {
		unsigned char c = (unsigned char)s[i];
		if (is_wordc(c)) {
			size_t j = i;
			while (j < n && (is_wordc((unsigned char)s[j]) ||
			                 (s[j] == '\'' && j > i && j + 1 < n &&
			                  is_alpha((unsigned char)s[j + 1]))))
				j++;
			emit_run(x, s, i, j, &brk);
			i = j;
			continue;
		}
		if (c == '|') { /* AI2-THOR id tail: "Mug|+00.50|+00.90|-01.20" */
			while (i < n && s[i] != ' ' && s[i] != ',' && s[i] != ';' && s[i] != ')' &&
			       s[i] != '\n' && s[i] != '\t')
				i++;
			continue;
		}
		if (c == '_' && i + 1 < n && is_digit((unsigned char)s[i + 1])) { /* "Mug_1" */
			size_t j = i + 1;
			while (j < n && is_digit((unsigned char)s[j]))
				j++;
			if (j == n || !is_wordc((unsigned char)s[j])) {
				i = j;
				continue;
			}
		}
		if (c == '(' && i + 2 < n && s[i + 1] == 's' && s[i + 2] == ')') { /* "slice(s)" */
			i += 3;
			continue;
		}
		int between_digits = i > 0 && i + 1 < n && is_digit((unsigned char)s[i - 1]) &&
		                     is_digit((unsigned char)s[i + 1]);
		if (strchr(",;!?()[]{}\n\r", c) || ((c == '.' || c == ':') && !between_digits))
			brk = 1;
		i++;
	}
}

int jd_in(const char *w, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

static int ends(const char *w, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && !memcmp(w + n - k, suf, k);
}

void jd_singular(char *w)
{
	static const char *const keep[] = { "glass", "grass", "bus", "gas", "lens", "news", "series",
		"blinds", "tongs", "pants", "scissors", "chess", "christmas", "this", "his",
		"yes", "was", "has", "does", "is", "its", "us", "plus", "always", "species", "boots",
		"curtains", "status", "canvas", "physics", "sometimes", "ourselves", "themselves", NULL };
	static const char *const irregular[][2] = { { "knives", "knife" }, { "shelves", "shelf" },
		{ "loaves", "loaf" }, { "halves", "half" }, { "leaves", "leaf" }, { "cookies", "cookie" },
		{ "movies", "movie" }, { "shoes", "shoe" }, { "people", "person" }, { "men", "man" },
		{ "women", "woman" }, { "children", "child" }, { "mice", "mouse" }, { "feet", "foot" },
		{ "teeth", "tooth" }, { "potatoes", "potato" }, { "tomatoes", "tomato" },
		{ "dishes", "dish" }, { "boxes", "box" }, { "glasses", "glass" }, { NULL, NULL } };
	size_t n = strlen(w);
	if (n <= 3 || jd_in(w, keep))
		return;
	for (size_t i = 0; irregular[i][0]; i++)
		if (!strcmp(w, irregular[i][0])) {
			strcpy(w, irregular[i][1]);
			return;
		}
	if (ends(w, n, "ies") && n > 4) {
		strcpy(w + n - 3, "y");
	} else if (ends(w, n, "oes") || ends(w, n, "ches") || ends(w, n, "shes") ||
	           ends(w, n, "xes") || ends(w, n, "sses") || ends(w, n, "zes")) {
		w[n - 2] = '\0';
	} else if (w[n - 1] == 's' && !ends(w, n, "ss") && !ends(w, n, "us") && !ends(w, n, "is")) {
		w[n - 1] = '\0';
	}
}

void jd_stem(char *w)
{
	static const char *const irregular[][2] = { { "made", "make" }, { "took", "take" },
		{ "saw", "see" }, { "seen", "see" }, { "went", "go" }, { "did", "do" }, { "done", "do" },
		{ "brought", "bring" }, { "put", "place" }, { "set", "place" }, { "laid", "place" },
		{ "rinse", "clean" }, { "rinsed", "clean" }, { "wash", "clean" }, { "washed", "clean" },
		{ "washing", "clean" }, { "rinsing", "clean" }, { "cut", "slice" }, { "chop", "slice" },
		{ "chopped", "slice" }, { "grab", "pick" }, { "grabbed", "pick" }, { "take", "pick" },
		{ "pickup", "pick" }, { "houseplant", "plant" }, { "brew", "coffee" },
		{ "brewed", "coffee" }, { "toasted", "toast" }, { "drinkware", "cup" }, { "mug", "cup" },
		{ "couch", "sofa" }, { "tv", "television" }, { "fridge", "refrigerator" },
		{ "counter", "countertop" }, { "sidetable", "table" }, { "remote", "remotecontrol" },
		{ NULL, NULL } };
	jd_singular(w);
	for (size_t i = 0; irregular[i][0]; i++)
		if (!strcmp(w, irregular[i][0])) {
			strcpy(w, irregular[i][1]);
			break;
		}
	size_t n = strlen(w);
	if (n > 5 && ends(w, n, "ing"))
		w[n -= 3] = '\0';
	else if (n > 4 && ends(w, n, "ed"))
		w[n -= 2] = '\0';
	if (n > 3 && w[n - 1] == 'e')
		w[--n] = '\0';
	if (n > 3 && w[n - 1] == w[n - 2] && !is_digit((unsigned char)w[n - 1]) && w[n - 1] != 's' &&
	    w[n - 1] != 'l') /* "chopp" -> "chop", not "spill" */
		w[--n] = '\0';
}

int jd_filler(const char *w)
{
	static const char *const list[] = { "a", "an", "the", "this", "that", "these", "those",
		"some", "any", "several", "multiple", "many", "few", "various", "numerous", "lots",
		"lot", "of", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
		"ten", "couple", "pair", "both", "all", "each", "every", "more", "most", "other",
		"others", "another", "additional", "different", "same", "i", "me", "my", "mine",
		"myself", "we", "us", "our", "you", "your", "he", "she", "they", "them", "their", "it",
		"its", "there", "here", "was", "were", "is", "are", "am", "be", "been", "being", "had",
		"have", "has", "did", "do", "does", "done", "saw", "see", "seen", "sees", "seeing",
		"noticed", "notice", "observed", "observe", "spotted", "found", "detected", "visible",
		"also", "too", "as", "well", "including", "include", "included", "includes", "such",
		"like", "just", "only", "then", "when", "while", "during", "after", "before", "which",
		"what", "where", "who", "whom", "whose", "how", "why", "on", "in", "at", "to", "into",
		"onto", "inside", "within", "near", "next", "by", "beside", "besides", "from", "with",
		"without", "for", "around", "about", "up", "down", "out", "off", "not", "no", "yes",
		"and", "or", "but", "so", "if", "s", "st", "nd", "rd", "th", "could", "would",
		"will", "should", "may", "might", "must", "shall", "time", "times", "first", "last",
		"once", "again", "today", "yesterday", "day", "days", "ago", "am", "pm", "oclock",
		"object", "objects", "item", "items", "thing", "things", "stuff", "etc", "hand",
		"hands", "gripper", "arm", "arms", "robot", "body", "camera", "view", "scene",
		"nothing", "anything", "something", "everything", "none", "some", "please", "okay",
		"ok", "sure", "well", "very", "really", "probably", "maybe", "perhaps", "likely",
		"approximately", "roughly", "exactly", "shortly", "sometime", "around", "located",
		"location", "answer", "following", "were", "remember", "recall", NULL };
	return w[0] == '\0' || jd_in(w, list);
}

int jd_conj(const char *w)
{
	static const char *const list[] = { "and", "or", "then", "plus", "nor", "afterwards",
		"afterward", "later", NULL };
	return jd_in(w, list);
}

int jd_has_phrase(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	if (!k || k > n)
		return 0;
	for (size_t i = 0; i + k <= n; i++) {
		if (i > 0 && is_wordc((unsigned char)s[i - 1]) && is_wordc((unsigned char)needle[0]))
			continue;
		size_t j = 0;
		while (j < k && lower((unsigned char)s[i + j]) == needle[j])
			j++;
		if (j == k)
			return 1;
	}
	return 0;
}
