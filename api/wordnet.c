/*
 * wordnet.c — category and synonym lookups in WordNet for the question and
 * rule readers (wordnet.h). WordNet's library reads its files through
 * global handles and static buffers, so every call into it holds `lock`;
 * answers are kept in a small direct-mapped cache, so a question that
 * compares one category with the objects of ten thousand facts asks
 * WordNet once per distinct object.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <xxhash.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <wn.h>
#pragma GCC diagnostic pop

#include "api/wordnet.h"

/* How many senses of a word count: the main ones. A carrot is first a
 * root vegetable and a plant; its eighth sense is a reward. */
#define WORD_SENSES 4
#define CAT_SENSES 8
/* Verbs have many senses ("read" a gauge is to record): the first two. */
#define VERB_SENSES 2
/* ...and all of a verb's senses against a phrasal verb's ("give back" is
 * the tenth sense of "return") */
#define PHRASAL_SENSES 24
/* A category this close to WordNet's root ("entity", "object", "whole",
 * "thing") tells nothing apart. */
#define MIN_CAT_DEPTH 4
#define MAX_WALK 256
#define WORD_MAX 48

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int state; /* 0 not tried, 1 open, -1 unavailable */

typedef struct wn_entry {
	uint64_t hash;
	char a[WORD_MAX], b[WORD_MAX];
	uint8_t kind, used, yes;
} wn_entry;

#define CACHE_SLOTS 4096
static wn_entry cache[CACHE_SLOTS];

static int quiet(char *msg)
{
	(void)msg;
	return -1;
}

/* Under the lock. */
static int ready(void)
{
	if (state == 0) {
		display_message = quiet;
		state = wninit() == 0 ? 1 : -1;
	}
	return state > 0;
}

/* WordNet's form of a word: lower case, spaces as underscores. 0 when it
 * does not fit or holds nothing WordNet could know. */
static int wn_form(char *out, const char *w)
{
	size_t n = strlen(w);
	if (n == 0 || n >= WORD_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)w[i];
		if (c >= 0x80)
			return 0;
		out[i] = c == ' ' ? '_' : (char)tolower(c);
	}
	out[n] = 0;
	return 1;
}

/* The synset offsets of the first `max` senses of `w` as part of speech
 * `pos`, trying its base form ("carrots": carrot). Under the lock. */
static int senses(long *off, int max, const char *w, int pos)
{
	char buf[WORD_MAX];
	if (!wn_form(buf, w))
		return 0;
	IndexPtr ix = getindex(buf, pos);
	if (!ix) {
		char *base = morphstr(buf, pos);
		if (base && strlen(base) < WORD_MAX) {
			char b2[WORD_MAX];
			strcpy(b2, base);
			ix = getindex(b2, pos);
		}
	}
	if (!ix)
		return 0;
	int n = 0;
	for (int i = 0; i < ix->off_cnt && n < max; i++)
		off[n++] = (long)ix->offset[i];
	free_index(ix);
	return n;
}

typedef struct walk {
	long seen[MAX_WALK];
	int n_seen;
} walk;

static int seen_before(walk *w, long off)
{
	for (int i = 0; i < w->n_seen; i++)
		if (w->seen[i] == off)
			return 1;
	if (w->n_seen < MAX_WALK)
		w->seen[w->n_seen++] = off;
	return 0;
}

static int is_hypernym(int t)
{
	return t == HYPERPTR || t == INSTANCE;
}

/* Is one of `targets` among the noun synset `off`'s hypernyms (or it)? */
static int reaches(walk *w, long off, const long *targets, int nt, int depth)
{
	for (int i = 0; i < nt; i++)
		if (off == targets[i])
			return 1;
	if (depth > 18 || seen_before(w, off))
		return 0;
	SynsetPtr s = read_synset(NOUN, off, NULL);
	if (!s)
		return 0;
	int hit = 0;
	for (int i = 0; i < s->ptrcount && !hit; i++)
		if (is_hypernym(s->ptrtyp[i]) && s->ppos[i] == NOUN)
			hit = reaches(w, s->ptroff[i], targets, nt, depth + 1);
	free_synset(s);
	return hit;
}

/* The fewest hypernym steps from noun synset `off` up to WordNet's root. */
static int depth_of(long off, int limit)
{
	if (limit <= 0)
		return 0;
	SynsetPtr s = read_synset(NOUN, off, NULL);
	if (!s)
		return 0;
	int best = -1;
	for (int i = 0; i < s->ptrcount; i++) {
		if (!is_hypernym(s->ptrtyp[i]) || s->ppos[i] != NOUN)
			continue;
		int d = 1 + depth_of(s->ptroff[i], limit - 1);
		if (best < 0 || d < best)
			best = d;
	}
	free_synset(s);
	return best < 0 ? 0 : best;
}

static int kind_of_locked(const char *word, const char *category, int min_depth)
{
	long cat[CAT_SENSES], cat_ok[CAT_SENSES], mine[WORD_SENSES];
	int nc = senses(cat, CAT_SENSES, category, NOUN), nk = 0;
	for (int i = 0; i < nc; i++)
		if (!min_depth || depth_of(cat[i], min_depth + 1) >= min_depth)
			cat_ok[nk++] = cat[i];
	if (!nk)
		return 0;
	int nw = senses(mine, WORD_SENSES, word, NOUN);
	for (int i = 0; i < nw; i++) {
		walk w = { .n_seen = 0 };
		/* the word itself is not a kind of itself ("vegetable") */
		int same = 0;
		for (int j = 0; j < nk && !same; j++)
			same = mine[i] == cat_ok[j];
		if (!same && reaches(&w, mine[i], cat_ok, nk, 0))
			return 1;
	}
	return 0;
}

static int same_verb_locked(const char *a, const char *b)
{
	/* a phrasal verb ("give back") has few senses of its own: any sense of
	 * the other word that is one of them counts */
	long sa[PHRASAL_SENSES], sb[PHRASAL_SENSES];
	int wa = strchr(b, ' ') ? PHRASAL_SENSES : VERB_SENSES;
	int wb = strchr(a, ' ') ? PHRASAL_SENSES : VERB_SENSES;
	int na = senses(sa, wa, a, VERB), nb = senses(sb, wb, b, VERB);
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			if (sa[i] == sb[j])
				return 1;
	return 0;
}

enum { K_KIND = 1, K_VERB = 2, K_PERSON = 3 };

/* The cached answer to (kind, a, b), asking WordNet on a miss. */
static int lookup(int kind, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (!la || !lb || la >= WORD_MAX || lb >= WORD_MAX || !strcasecmp(a, b))
		return 0;
	char key[2 * WORD_MAX + 2];
	key[0] = (char)kind;
	memcpy(key + 1, a, la + 1);
	memcpy(key + 2 + la, b, lb);
	uint64_t h = XXH3_64bits(key, 2 + la + lb);
	wn_entry *e = &cache[h % CACHE_SLOTS];
	int yes = 0;
	pthread_mutex_lock(&lock);
	if (e->used && e->hash == h && e->kind == kind && !strcmp(e->a, a) && !strcmp(e->b, b)) {
		yes = e->yes;
	} else if (ready()) {
		yes = kind == K_KIND     ? kind_of_locked(a, b, MIN_CAT_DEPTH)
		      : kind == K_PERSON ? kind_of_locked(a, b, 0)
		                         : same_verb_locked(a, b);
		e->hash = h, e->kind = (uint8_t)kind, e->used = 1, e->yes = (uint8_t)yes;
		memcpy(e->a, a, la + 1);
		memcpy(e->b, b, lb + 1);
	}
	pthread_mutex_unlock(&lock);
	return yes;
}

int wn_kind_of(const char *word, const char *category)
{
	return word && category ? lookup(K_KIND, word, category) : 0;
}

int wn_is_person(const char *word)
{
	return word ? lookup(K_PERSON, word, "person") : 0;
}

int wn_same_verb(const char *a, const char *b)
{
	return a && b ? lookup(K_VERB, a, b) : 0;
}

int wn_available(void)
{
	pthread_mutex_lock(&lock);
	int ok = ready();
	pthread_mutex_unlock(&lock);
	return ok;
}
