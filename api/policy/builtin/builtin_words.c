/*
 * builtin_words.c — the builtin policy's vocabulary: normalised words,
 * action families, the words a rule says that name no object, and how a
 * relevance rule is read into clauses (the matching itself is in
 * builtin_relevance.c). Words are looked up by hash: the word lists are
 * put into one table the first time any is needed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api/base/lex.h"
#include "api/policy/builtin/builtin.h"

/* ---------------------------------------------------------- vocabulary -- */

/* Words of a rule or feedback that name no object: function words, the
 * keep verbs, perception verbs (seeing something is not an action to
 * match: the object alone decides), and generic nouns ("time", "place",
 * "area") that would match everything. Kept sorted, for the reader. */
static const char *const stop_words[] = {
	"about", "after", "again", "all", "also", "always", "am", "an", "and", "answer", "any",
	"anymore", "anything", "are", "area", "as", "ask", "asked", "at", "be", "been", "before",
	"being", "both", "but", "by", "can", "clearly", "could", "currently", "date", "day",
	"default", "detail", "did", "do", "doe", "does", "doing", "don", "done", "during", "each",
	"eg", "encounter", "encountered", "etc", "even", "every", "everything", "exact",
	"exactly", "find", "for", "forget", "forgetting", "forgotten", "found", "from", "future",
	"get", "go", "had", "happen", "happened", "has", "have", "he", "her", "here", "him",
	"his", "how", "if", "importance", "important", "in", "information", "instance", "into",
	"is", "it", "item", "its", "just", "keep", "keeping", "kept", "kind", "later", "least",
	"less", "like", "location", "log", "longer", "look", "looked", "make", "matter",
	"matters", "may", "me", "might", "moment", "more", "most", "much", "must", "my", "need",
	"never", "no", "not", "note", "notice", "noticed", "now", "object", "observe", "observed",
	"of", "on", "once", "one", "only", "onto", "or", "other", "our", "part", "particular",
	"place", "please", "position", "record", "recorded", "relevant", "reluctant", "remember",
	"remembered", "retain", "retained", "room", "rule", "said", "save", "saw", "say", "says",
	"see", "seen", "should", "side", "since", "so", "some", "something", "specific", "spot",
	"spotted", "still", "stop", "store", "such", "sure", "tell", "telling", "than", "that",
	"the", "their", "them", "then", "there", "these", "they", "thing", "this", "those",
	"time", "to", "today", "told", "too", "track", "type", "unless", "until", "up", "use",
	"used", "user", "using", "very", "visit", "visited", "wa", "want", "was", "way", "we",
	"well", "were", "what", "whatever", "when", "whenever", "where", "wherever", "whether",
	"which", "while", "who", "whom", "why", "will", "willing", "with", "without", "worth",
	"would", "yes", "you", "your", "yourself",
};

/* What the vocabulary knows of one word, found by hash (vocab_find): a
 * stop word, the families of a verb, the singular of an irregular
 * plural. Built once from the lists in this file. */
typedef struct vocab {
	const char *w;
	size_t len;
	int stop;
	unsigned fam;
	const char *single;
} vocab;

static const vocab *vocab_find(const char *w, size_t n);

int bi_is_stop(const char *w)
{
	const vocab *v = vocab_find(w, strlen(w));
	return v && v->stop;
}

typedef struct fam_word {
	const char *w;
	unsigned fam;
} fam_word;

/* Verbs and action names by family (base forms; -s/-ed/-ing are folded by
 * bi_family). Irregular past forms are listed. */
static const fam_word fam_words[] = {
	{ "transport", BI_FAM_TRANSPORT }, { "bring", BI_FAM_TRANSPORT },
	{ "brought", BI_FAM_TRANSPORT }, { "carry", BI_FAM_TRANSPORT },
	{ "put", BI_FAM_TRANSPORT }, { "putdown", BI_FAM_TRANSPORT },
	{ "move", BI_FAM_TRANSPORT }, { "place", BI_FAM_TRANSPORT },
	{ "pickup", BI_FAM_TRANSPORT }, { "pick", BI_FAM_TRANSPORT },
	{ "take", BI_FAM_TRANSPORT }, { "took", BI_FAM_TRANSPORT },
	{ "taken", BI_FAM_TRANSPORT }, { "give", BI_FAM_TRANSPORT },
	{ "gave", BI_FAM_TRANSPORT }, { "given", BI_FAM_TRANSPORT },
	{ "deliver", BI_FAM_TRANSPORT }, { "fetch", BI_FAM_TRANSPORT },
	{ "hand", BI_FAM_TRANSPORT }, { "handover", BI_FAM_TRANSPORT },
	{ "grasp", BI_FAM_TRANSPORT }, { "grab", BI_FAM_TRANSPORT },
	{ "lift", BI_FAM_TRANSPORT }, { "drop", BI_FAM_TRANSPORT },
	{ "transfer", BI_FAM_TRANSPORT }, { "stow", BI_FAM_TRANSPORT },
	{ "release", BI_FAM_TRANSPORT }, { "hold", BI_FAM_TRANSPORT },
	{ "held", BI_FAM_TRANSPORT }, { "load", BI_FAM_LOAD }, { "unload", BI_FAM_LOAD },
	{ "open", BI_FAM_OPEN }, { "close", BI_FAM_OPEN }, { "shut", BI_FAM_OPEN },
	{ "clean", BI_FAM_CLEAN }, { "wash", BI_FAM_CLEAN }, { "wipe", BI_FAM_CLEAN },
	{ "rinse", BI_FAM_CLEAN }, { "scrub", BI_FAM_CLEAN }, { "cook", BI_FAM_COOK },
	{ "heat", BI_FAM_COOK }, { "boil", BI_FAM_COOK }, { "fry", BI_FAM_COOK },
	{ "fried", BI_FAM_COOK }, { "bake", BI_FAM_COOK }, { "toast", BI_FAM_COOK },
	{ "slice", BI_FAM_CUT }, { "cut", BI_FAM_CUT }, { "chop", BI_FAM_CUT },
	{ "pour", BI_FAM_POUR }, { "fill", BI_FAM_POUR }, { "water", BI_FAM_POUR },
	{ "toggle", BI_FAM_TOGGLE }, { "switch", BI_FAM_TOGGLE }, { "turn", BI_FAM_TOGGLE },
	{ "meet", BI_FAM_MEET }, { "met", BI_FAM_MEET }, { "meeting", BI_FAM_MEET },
	{ "greet", BI_FAM_MEET }, { "talk", BI_FAM_MEET }, { "speak", BI_FAM_MEET },
	{ "spoke", BI_FAM_MEET }, { "spoken", BI_FAM_MEET }, { "chat", BI_FAM_MEET },
	{ "someone", BI_FAM_MEET }, { "somebody", BI_FAM_MEET }, { "anyone", BI_FAM_MEET },
	{ "anybody", BI_FAM_MEET }, { "everyone", BI_FAM_MEET }, { "person", BI_FAM_MEET },
	{ "human", BI_FAM_MEET }, { "visitor", BI_FAM_MEET }, { "guest", BI_FAM_MEET },
	{ "conversation", BI_FAM_MEET }, { "interact", BI_FAM_MEET },
};

static unsigned fam_lookup(const char *w, size_t n)
{
	const vocab *v = vocab_find(w, n);
	return v ? v->fam : 0;
}

/* The word, else its Snowball stem (placed, moving, dropped -> place, move,
 * drop; carried -> carri -> carry), looked up. */
static unsigned stem_lookup(const char *w, size_t n)
{
	unsigned f = fam_lookup(w, n);
	if (f || n >= LEX_WORD_MAX)
		return f;
	char b[LEX_WORD_MAX];
	lex_stem(w, n, b);
	size_t m = strlen(b);
	if (m == n && !memcmp(b, w, n))
		return 0;
	if ((f = fam_lookup(b, m)))
		return f;
	if (m > 1 && b[m - 1] == 'i') {
		b[m - 1] = 'y';
		return fam_lookup(b, m);
	}
	return 0;
}

unsigned bi_family(const char *w)
{
	return stem_lookup(w, strlen(w));
}

static void or_family(void *arg, const char *w, size_t n)
{
	*(unsigned *)arg |= stem_lookup(w, n);
}

static void scan_words(const char *text, size_t n, void (*put)(void *, const char *, size_t),
                       void *arg);

/* The words are not collected into a set: a family is the same however
 * often its word occurs. */
unsigned bi_families_of(const char *text, size_t n)
{
	unsigned f = 0;
	scan_words(text, n, or_family, &f);
	return f;
}

static const char *const exp_valuable[] = { "valuable", "key", "wallet", "phone", "cellphone",
	                                         "watch", "jewelry", "jewellery", "money", "purse",
	                                         "passport", "ring", "laptop", "card", NULL };
static const char *const exp_medicine[] = { "medicine", "medication", "pill", "drug",
	                                         "tablet", NULL };
static const char *const exp_dish[] = { "dish", "plate", "bowl", "cup", "mug", "glass", NULL };
static const char *const exp_cutlery[] = { "cutlery", "knife", "fork", "spoon", NULL };

const char *const *bi_expand(const char *w)
{
	if (!strcmp(w, "valuable"))
		return exp_valuable;
	if (!strcmp(w, "medicine") || !strcmp(w, "medication"))
		return exp_medicine;
	if (!strcmp(w, "dish"))
		return exp_dish;
	if (!strcmp(w, "cutlery") || !strcmp(w, "utensil") || !strcmp(w, "silverware"))
		return exp_cutlery;
	return NULL;
}

/* ------------------------------------------------- plurals, word bytes -- */

static int is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

typedef struct irregular {
	const char *plural, *single;
} irregular;

static const irregular irregulars[] = {
	{ "knives", "knife" }, { "shelves", "shelf" }, { "leaves", "leaf" },
	{ "loaves", "loaf" },  { "halves", "half" },   { "people", "person" },
	{ "children", "child" }, { "men", "man" },     { "women", "woman" },
	{ "mice", "mouse" },   { "feet", "foot" },     { "teeth", "tooth" },
	{ "shoes", "shoe" },   { "series", "series" }, { "species", "species" },
};

static int ends(const char *w, size_t n, const char *s)
{
	size_t k = strlen(s);
	return n >= k && !memcmp(w + n - k, s, k);
}

/* ------------------------------------------------- the vocabulary table -- */

#define VOCAB_SLOTS 1024 /* a power of two, at least twice the words listed */

static vocab vocab_tab[VOCAB_SLOTS];
static pthread_once_t vocab_once = PTHREAD_ONCE_INIT;

static vocab *vocab_slot(const char *w, size_t n)
{
	size_t i = bi_hash(w, n) & (VOCAB_SLOTS - 1);
	while (vocab_tab[i].w && !(vocab_tab[i].len == n && !memcmp(vocab_tab[i].w, w, n)))
		i = (i + 1) & (VOCAB_SLOTS - 1);
	return &vocab_tab[i];
}

static vocab *vocab_put(const char *w)
{
	size_t n = strlen(w);
	vocab *v = vocab_slot(w, n);
	v->w = w;
	v->len = n;
	return v;
}

static void vocab_build(void)
{
	for (size_t i = 0; i < sizeof stop_words / sizeof *stop_words; i++)
		vocab_put(stop_words[i])->stop = 1;
	for (size_t i = 0; i < sizeof fam_words / sizeof *fam_words; i++) {
		vocab *v = vocab_put(fam_words[i].w);
		if (!v->fam) /* the first listing wins, as the linear search did */
			v->fam = fam_words[i].fam;
	}
	for (size_t i = 0; i < sizeof irregulars / sizeof *irregulars; i++) {
		vocab *v = vocab_put(irregulars[i].plural);
		if (!v->single)
			v->single = irregulars[i].single;
	}
}

static const vocab *vocab_find(const char *w, size_t n)
{
	pthread_once(&vocab_once, vocab_build);
	vocab *v = vocab_slot(w, n);
	return v->w ? v : NULL;
}

/* ---------------------------------------------------- normalised words -- */

/* Normalise one lower-cased word and hand it to `put`: made singular
 * unless it is a stop word as written ("was", "always" stay). */
static void add_word(void (*put)(void *, const char *, size_t), void *arg, char *w, size_t n)
{
	if (n < 2)
		return;
	w[n] = '\0';
	const vocab *v = vocab_find(w, n);
	if (v && v->stop) {
		put(arg, w, n);
		return;
	}
	if (v && v->single) {
		put(arg, v->single, strlen(v->single));
		return;
	}
	if (n > 4 && ends(w, n, "ies")) {
		w[n - 3] = 'y';
		n -= 2;
	} else if (n > 4 && ends(w, n, "oes")) {
		n -= 2;
	} else if (ends(w, n, "sses") || ends(w, n, "shes") || ends(w, n, "ches") ||
	           ends(w, n, "xes") || ends(w, n, "zzes")) {
		n -= 2;
	} else if (ends(w, n, "ss") || ends(w, n, "us") || ends(w, n, "is")) {
		/* glass, bus, this: not plurals */
	} else if (n > 3 && w[n - 1] == 's') {
		n -= 1;
	}
	put(arg, w, n);
}

static void put_in_set(void *arg, const char *w, size_t n)
{
	bi_words_add(arg, w, n);
}

/* Every normalised word of a text, in order, repeats included. */
static void scan_words(const char *text, size_t n, void (*put)(void *, const char *, size_t),
                       void *arg)
{
	char buf[64];
	size_t i = 0;
	while (i < n) {
		if (!is_word_byte((unsigned char)text[i])) {
			i++;
			continue;
		}
		size_t j = i;
		int camel = 0;
		while (j < n && is_word_byte((unsigned char)text[j])) {
			if (j > i && text[j - 1] >= 'a' && text[j - 1] <= 'z' && text[j] >= 'A' &&
			    text[j] <= 'Z')
				camel = 1;
			j++;
		}
		size_t len = j - i < sizeof buf - 1 ? j - i : sizeof buf - 1;
		for (size_t k = 0; k < len; k++) {
			char c = text[i + k];
			buf[k] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		}
		add_word(put, arg, buf, len);
		if (camel) {
			size_t start = i;
			for (size_t k = i + 1; k <= j; k++) {
				if (k < j && !(text[k - 1] >= 'a' && text[k - 1] <= 'z' && text[k] >= 'A' &&
				               text[k] <= 'Z'))
					continue;
				size_t pl = k - start < sizeof buf - 1 ? k - start : sizeof buf - 1;
				for (size_t q = 0; q < pl; q++) {
					char c = text[start + q];
					buf[q] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
				}
				add_word(put, arg, buf, pl);
				start = k;
			}
		}
		i = j;
	}
}

void bi_words_of(bi_words *out, const char *text, size_t n)
{
	scan_words(text, n, put_in_set, out);
}

/* --------------------------------------------------------------- rules -- */

void bi_rule_free(bi_rule *r)
{
	for (size_t i = 0; i < r->n; i++)
		bi_words_free(&r->c[i].objs);
	free(r->c);
	memset(r, 0, sizeof *r);
}

/* The words of one clause: families, person, object words (expanded). */
static void parse_clause(bi_rule *r, const char *s, size_t n)
{
	bi_clause c = { { 0 }, 0, 0 };
	bi_words w = { 0 };
	bi_words_of(&w, s, n);
	for (size_t i = 0; i < w.n; i++) {
		/* In a rule "place" is the noun ("the place where ..."). */
		unsigned f = strcmp(w.v[i], "place") ? bi_family(w.v[i]) : 0;
		if (f & BI_FAM_MEET) {
			c.person = 1;
		} else if (f) {
			c.fam |= f;
		} else if (!bi_is_stop(w.v[i])) {
			const char *const *e = bi_expand(w.v[i]);
			bi_words_add(&c.objs, w.v[i], strlen(w.v[i]));
			for (; e && *e; e++)
				bi_words_add(&c.objs, *e, strlen(*e));
		}
	}
	r->oom |= w.oom | c.objs.oom;
	bi_words_free(&w);
	if (!c.objs.n && !c.fam && !c.person) {
		bi_words_free(&c.objs);
		return;
	}
	bi_clause *v = realloc(r->c, (r->n + 1) * sizeof *v);
	if (!v) {
		r->oom = 1;
		bi_words_free(&c.objs);
		return;
	}
	r->c = v;
	r->c[r->n++] = c;
}

/* Where a rule splits into alternatives. */
static const char *const clause_breaks[] = { ";", " or when ", " or whenever ", " or if ",
	                                          " or where ", ", or ", " and when ", NULL };

/* Does the rule ask to keep something? A keep verb, or "never/don't
 * forget", and no "need not" / "may forget". */
static int asks_to_keep(const char *low)
{
	static const char *const no[] = { "don't need", "do not need", "no need", "not need",
		                              "don't have to", "do not have to", "can forget",
		                              "may forget", "can be forgotten", "no longer", NULL };
	static const char *const yes[] = { "remember", "record", "retain", "keep", "store", "note",
		                               "track", "log ", "memori", "never forget",
		                               "don't forget", "do not forget", NULL };
	for (size_t i = 0; no[i]; i++)
		if (strstr(low, no[i]))
			return 0;
	for (size_t i = 0; yes[i]; i++)
		if (strstr(low, yes[i]))
			return 1;
	return 0;
}

char *bi_lower(const char *s)
{
	size_t n = strlen(s);
	char *l = malloc(n + 1);
	if (!l)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		l[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
	for (size_t i = 0; i < n; i++) /* typographic apostrophe -> ' */
		if ((unsigned char)l[i] == 0xE2 && i + 2 < n && (unsigned char)l[i + 1] == 0x80 &&
		    (unsigned char)l[i + 2] == 0x99) {
			l[i] = '\'';
			memmove(l + i + 1, l + i + 3, n - i - 2);
			n -= 2;
		}
	return l;
}

void bi_rule_parse(bi_rule *r, const char *text)
{
	memset(r, 0, sizeof *r);
	char *low = bi_lower(text ? text : "");
	if (!low) {
		r->oom = 1;
		return;
	}
	r->keep = asks_to_keep(low);
	const char *p = low;
	for (;;) {
		const char *best = NULL;
		size_t blen = 0;
		for (size_t i = 0; clause_breaks[i]; i++) {
			const char *q = strstr(p, clause_breaks[i]);
			if (q && (!best || q < best)) {
				best = q;
				blen = strlen(clause_breaks[i]);
			}
		}
		parse_clause(r, p, best ? (size_t)(best - p) : strlen(p));
		if (!best)
			break;
		p = best + blen;
	}
	free(low);
}

int bi_rule_is_default(const pol_rules *rules, size_t i)
{
	if (i != 0 || !rules || !rules->n || !rules->items[0])
		return 0;
	char *low = bi_lower(rules->items[0]);
	int d = low && strstr(low, "forget") && !strstr(low, "never forget") &&
	        !strstr(low, "don't forget") && !strstr(low, "do not forget");
	free(low);
	return d;
}

static const char *fam_name(unsigned f)
{
	static const char *const names[] = { "#transport", "#load", "#open", "#clean", "#cook",
		                                 "#cut", "#pour", "#toggle", "#person" };
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
		if (f & (1u << i))
			return names[i];
	return "#other";
}

void bi_content_words(bi_words *out, const char *text)
{
	bi_words w = { 0 };
	bi_words_of(&w, text ? text : "", text ? strlen(text) : 0);
	for (size_t i = 0; i < w.n; i++) {
		unsigned f = bi_family(w.v[i]);
		if (f & BI_FAM_MEET)
			f = BI_FAM_MEET;
		if (f) {
			const char *nm = fam_name(f);
			bi_words_add(out, nm, strlen(nm));
		} else if (!bi_is_stop(w.v[i])) {
			bi_words_add(out, w.v[i], strlen(w.v[i]));
		}
	}
	out->oom |= w.oom;
	bi_words_free(&w);
}

/* The object words of every rule that asks to keep something. */
int bi_rule_words(bi_words *out, const pol_rules *rules)
{
	for (size_t i = 0; rules && i < rules->n; i++) {
		if (bi_rule_is_default(rules, i) || !rules->items[i])
			continue;
		bi_rule r;
		bi_rule_parse(&r, rules->items[i]);
		for (size_t c = 0; r.keep && c < r.n; c++)
			for (size_t j = 0; j < r.c[c].objs.n; j++)
				bi_words_add(out, r.c[c].objs.v[j], strlen(r.c[c].objs.v[j]));
		int oom = r.oom;
		bi_rule_free(&r);
		if (oom || out->oom)
			return -1;
	}
	return 0;
}
