/*
 * wordnet.c — category and synonym lookups in WordNet for the question and
 * rule readers (wordnet.h). WordNet's library reads its files through
 * global handles and static buffers, so every call into it holds `lock`.
 * A category's kinds are gathered once (every word below it) and kept for
 * the next questions, and answers sit in a small direct-mapped cache: a
 * question that compares one category with the objects of ten thousand
 * facts reads WordNet's files once.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <xxhash.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <wn.h>
#pragma GCC diagnostic pop

#include "api/base/wordnet.h"
#include "engine/hashtab.h"

#define CAT_SENSES 8
/* Verbs have many senses ("read" a gauge is to record): the first two. */
#define VERB_SENSES 2
/* ...and all of a verb's senses against a phrasal verb's ("give back" is
 * the tenth sense of "return") */
#define PHRASAL_SENSES 24
/* A category this close to WordNet's root ("entity", "object", "whole",
 * "thing") tells nothing apart. */
#define MIN_CAT_DEPTH 4
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

static int is_hypernym(int t)
{
	return t == HYPERPTR || t == INSTANCE;
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

/* A category's kinds: every word of every synset below its senses
 * (hyponyms and instances), gathered once per category and kept for the
 * next questions. A category with more kinds than KINDS_MAX synsets is too
 * general to tell anything apart and matches nothing. */
#define KINDS_MAX 6000
#define CATS_KEPT 8

typedef struct cat_kinds {
	char name[WORD_MAX];
	char **words; /* owned */
	size_t n, cap;
	hashtab ix;   /* word -> index into words */
	int too_general;
} cat_kinds;

static cat_kinds cats[CATS_KEPT];
static unsigned cats_next;

static uint32_t word_hash(const char *w)
{
	return (uint32_t)XXH3_64bits(w, strlen(w));
}

static int word_eq(const void *ctx, uintptr_t val, const void *key)
{
	const cat_kinds *c = ctx;
	return !strcmp(c->words[val], key);
}

static int has_kind(const cat_kinds *c, const char *w)
{
	const ht_slot *sl = ht_find(&c->ix, word_hash(w), word_eq, c, w);
	return sl && ht_used(&c->ix, sl);
}

static int add_kind(cat_kinds *c, const char *w)
{
	char low[WORD_MAX];
	if (!wn_form(low, w) || has_kind(c, low))
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		char **v = realloc(c->words, cap * sizeof *v);
		if (!v)
			return -1;
		c->words = v, c->cap = cap;
	}
	if (ht_reserve(&c->ix, 1) || !(c->words[c->n] = strdup(low)))
		return -1;
	uint32_t h = word_hash(low);
	ht_put(&c->ix, ht_vacant(&c->ix, h), h, c->n);
	c->n++;
	return 0;
}

static void kinds_free(cat_kinds *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->words[i]);
	free(c->words);
	ht_free(&c->ix);
	memset(c, 0, sizeof *c);
}

static int off_eq(const void *ctx, uintptr_t val, const void *key)
{
	(void)ctx;
	return val == *(const uintptr_t *)key;
}

/* Gather the words below noun synset `off` (`top`: not its own words). */
static int gather(cat_kinds *c, hashtab *visited, long off, int top, int *synsets)
{
	uintptr_t key = (uintptr_t)off;
	uint32_t h = (uint32_t)XXH3_64bits(&key, sizeof key);
	ht_slot *sl = ht_find(visited, h, off_eq, NULL, &key);
	if (sl && ht_used(visited, sl))
		return 0;
	if (ht_reserve(visited, 1))
		return -1;
	ht_put(visited, ht_vacant(visited, h), h, key);
	if (++*synsets > KINDS_MAX) {
		c->too_general = 1;
		return 0;
	}
	SynsetPtr s = read_synset(NOUN, off, NULL);
	if (!s)
		return 0;
	int rc = 0;
	for (int i = 0; !top && i < s->wcount && !rc; i++)
		rc = add_kind(c, s->words[i]);
	for (int i = 0; i < s->ptrcount && !rc && !c->too_general; i++)
		if ((s->ptrtyp[i] == HYPOPTR || s->ptrtyp[i] == INSTANCES) && s->ppos[i] == NOUN)
			rc = gather(c, visited, s->ptroff[i], 0, synsets);
	free_synset(s);
	return rc;
}

/* The kinds of `category` (kept, or gathered now). Under the lock. */
static const cat_kinds *kinds_of(const char *category)
{
	char name[WORD_MAX];
	if (!wn_form(name, category))
		return NULL;
	for (int i = 0; i < CATS_KEPT; i++)
		if (cats[i].words && !strcmp(cats[i].name, name))
			return &cats[i];
	cat_kinds *c = &cats[cats_next++ % CATS_KEPT];
	kinds_free(c);
	snprintf(c->name, sizeof c->name, "%s", name);
	long cat[CAT_SENSES];
	int nc = senses(cat, CAT_SENSES, category, NOUN), synsets = 0, rc = 0;
	hashtab visited = { 0 };
	for (int i = 0; i < nc && !rc && !c->too_general; i++)
		if (depth_of(cat[i], MIN_CAT_DEPTH + 1) >= MIN_CAT_DEPTH)
			rc = gather(c, &visited, cat[i], 1, &synsets);
	ht_free(&visited);
	/* (an empty list still marks the category as read) */
	if (!rc && !c->words && !(c->words = calloc(1, sizeof *c->words)))
		rc = -1;
	if (rc) {
		kinds_free(c);
		return NULL;
	}
	return c;
}

/* Is a synset of `targets` above noun synset `off` (or it)? Upwards: a
 * word has few ancestors, a general category ("person") a great many
 * kinds. */
static int reaches_pos(int pos, long off, const long *targets, int nt, int depth, int limit)
{
	for (int i = 0; i < nt; i++)
		if (off == targets[i])
			return 1;
	if (depth >= limit)
		return 0;
	SynsetPtr s = read_synset(pos, off, NULL);
	if (!s)
		return 0;
	int hit = 0;
	for (int i = 0; i < s->ptrcount && !hit; i++)
		if (is_hypernym(s->ptrtyp[i]) && s->ppos[i] == pos)
			hit = reaches_pos(pos, s->ptroff[i], targets, nt, depth + 1, limit);
	free_synset(s);
	return hit;
}

static int reaches(long off, const long *targets, int nt, int depth)
{
	return reaches_pos(NOUN, off, targets, nt, depth, 19);
}

/* Is one of the first senses of `word` a kind of a sense of `category`,
 * walking up from the word? */
static int above_locked(const char *word, const char *category)
{
	long cat[CAT_SENSES], mine[4];
	int nc = senses(cat, CAT_SENSES, category, NOUN), nw = senses(mine, 4, word, NOUN);
	for (int i = 0; i < nw; i++)
		if (reaches(mine[i], cat, nc, 0))
			return 1;
	return 0;
}

/* Is what `word` first means (its most frequent noun sense) below a sense
 * of `category`? A deck is a pack of cards, a parcel, only in a sense
 * nobody means on a ferry; "tea" is a drink in its first. */
static int first_sense_under(const char *word, const char *category)
{
	long cat[CAT_SENSES], mine[1];
	int nc = senses(cat, CAT_SENSES, category, NOUN);
	return senses(mine, 1, word, NOUN) == 1 && reaches(mine[0], cat, nc, 0);
}

/* Is `word` among the kinds of `category`? Its own form, then the plural
 * taken off ("carrots", "boxes", "berries"). */
static int kind_of_locked(const char *word, const char *category)
{
	const cat_kinds *c = kinds_of(category);
	char w[WORD_MAX + 2];
	if (!c || c->too_general || !c->n || !wn_form(w, word))
		return 0;
	if (has_kind(c, w))
		return 1;
	size_t n = strlen(w);
	if (n > 3 && w[n - 1] == 's') {
		w[n - 1] = 0;
		if (has_kind(c, w))
			return 1;
		if (n > 4 && w[n - 2] == 'e') {
			w[n - 2] = 0;
			if (has_kind(c, w))
				return 1;
			if (w[n - 3] == 'i') {
				w[n - 3] = 'y';
				if (has_kind(c, w))
					return 1;
			}
		}
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

/* Is doing `done` a way of doing `asked` (slicing is cutting, rinsing
 * washing, washing cleaning): one of done's first senses below one of
 * asked's within two steps? Not the reverse: a cut need not be a slice. */
static int verb_kind_locked(const char *done, const char *asked)
{
	long sa[VERB_SENSES], sd[VERB_SENSES];
	int na = senses(sa, VERB_SENSES, asked, VERB), nd = senses(sd, VERB_SENSES, done, VERB);
	for (int i = 0; i < nd; i++)
		if (reaches_pos(VERB, sd[i], sa, na, 0, 2))
			return 1;
	return 0;
}

/* Is a person what the word's FIRST noun sense names ("technician",
 * "driver")? A given name WordNet happens to know ("john", "rosa") has
 * another first sense, or none. */
static int role_locked(const char *word)
{
	long mine[1], person[CAT_SENSES];
	char form[WORD_MAX];
	int np = senses(person, CAT_SENSES, "person", NOUN);
	if (!wn_form(form, word) || senses(mine, 1, word, NOUN) != 1 ||
	    !reaches(mine[0], person, np, 0))
		return 0;
	/* a common noun: the sense is written in lower case ("technician";
	 * not "Uncle_Tom", the first sense of "tom") */
	SynsetPtr s = read_synset(NOUN, mine[0], NULL);
	int lower = 0;
	for (int i = 0; s && i < s->wcount && !lower; i++) {
		char *base = s->words[i];
		lower = !strncmp(base, form, strlen(form));
	}
	if (s)
		free_synset(s);
	return lower;
}

/* Is one of the first senses of verb `word` a way of saying something:
 * below (or one of) the senses of saying, telling, expressing, informing,
 * complaining or asking, within a few steps ("complain", "grumble",
 * "mention", "beg")? */
static int speech_locked(const char *word)
{
	static const char *const roots[] = { "say", "verbalize", "inform", "complain", "request",
		                                 "ask", NULL };
	long target[24], mine[VERB_SENSES];
	int nt = 0;
	for (const char *const *r = roots; *r && nt + 4 <= 24; r++)
		nt += senses(target + nt, 2, *r, VERB);
	int nw = senses(mine, VERB_SENSES, word, VERB);
	for (int i = 0; i < nw; i++)
		if (reaches_pos(VERB, mine[i], target, nt, 0, 4))
			return 1;
	return 0;
}

enum { K_KIND = 1, K_VERB = 2, K_PERSON = 3, K_ROLE = 4, K_SPEECH = 5, K_KIND1 = 6,
       K_VERBKIND = 7 };

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
		yes = kind == K_KIND     ? kind_of_locked(a, b)
		      : kind == K_KIND1  ? kind_of_locked(a, b) && first_sense_under(a, b)
		      : kind == K_PERSON ? above_locked(a, b)
		      : kind == K_ROLE   ? role_locked(a)
		      : kind == K_SPEECH ? speech_locked(a)
		      : kind == K_VERBKIND ? verb_kind_locked(a, b)
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

int wn_first_kind_of(const char *word, const char *category)
{
	return word && category ? lookup(K_KIND1, word, category) : 0;
}

int wn_names_role(const char *word)
{
	return word ? lookup(K_ROLE, word, "role") : 0;
}

int wn_speech_verb(const char *word)
{
	return word ? lookup(K_SPEECH, word, "speech") : 0;
}

int wn_same_verb(const char *a, const char *b)
{
	return a && b ? lookup(K_VERB, a, b) : 0;
}

int wn_verb_kind_of(const char *done, const char *asked)
{
	return done && asked ? lookup(K_VERBKIND, done, asked) : 0;
}

int wn_kinds_each(const char *category, size_t max, int (*fn)(void *ctx, const char *word),
                  void *ctx)
{
	if (!category)
		return 0;
	pthread_mutex_lock(&lock);
	const cat_kinds *c = ready() ? kinds_of(category) : NULL;
	int rc = 0;
	if (c && !c->too_general && c->n > max)
		rc = -1;
	for (size_t i = 0; rc == 0 && c && !c->too_general && i < c->n; i++)
		rc = fn(ctx, c->words[i]);
	pthread_mutex_unlock(&lock);
	return rc;
}

int wn_available(void)
{
	pthread_mutex_lock(&lock);
	int ok = ready();
	pthread_mutex_unlock(&lock);
	return ok;
}
