/*
 * judge_int.h — what the judge's files share (judge.h is the interface):
 * words of a text, normalised names of things and steps, times read from
 * text, and the grading of each kind of question.
 */
#ifndef H2EMV_JUDGE_INT_H
#define H2EMV_JUDGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "bench/eval/judge.h"

#define JD_WORD 32        /* a word, lower-case, cut to 31 bytes */
#define JD_KEY 48         /* a normalised name ("peppershaker", "pickup:mug") */
#define JD_MAX_TOKENS 4096
#define JD_MAX_ITEMS 256
#define JD_MAX_WHEN 128

/* ----------------------------------------------------------------- words -- */

typedef struct jd_tok {
	char w[JD_WORD]; /* lower-case ASCII, other bytes as they are */
	uint8_t brk;     /* punctuation (, ; . ! ? : ( ) newline) comes before it */
	uint8_t num;     /* all digits */
	uint32_t pos;    /* offset of the word in its text */
} jd_tok;

typedef struct jd_text {
	const char *s;   /* the text, n bytes (at most JUDGE_MAX_TEXT) */
	size_t n;
	jd_tok *t;
	size_t nt;
} jd_text;

/* Split s[0, n) into words (t has room for JD_MAX_TOKENS). */
void jd_tokenize(jd_text *x, const char *s, size_t n, jd_tok *t);

/* Singular of a lower-case noun, in place ("knives" -> "knife"). */
void jd_singular(char *w);
/* A light stem for content matching ("placed", "places" -> "plac"). */
void jd_stem(char *w);
/* Words that carry no name: articles, pronouns, quantities, auxiliaries,
 * prepositions, list fillers ("I saw ..."). */
int jd_filler(const char *w);
/* Words that join list items: and, or, then, plus, as well as. */
int jd_conj(const char *w);
/* Case-insensitive: does `s` contain `needle` starting at a word boundary? */
int jd_has_phrase(const char *s, size_t n, const char *needle);
/* Does the word equal one of the NULL-terminated list? */
int jd_in(const char *w, const char *const *list);

/* ---------------------------------------------------------------- names -- */

/* Normalise a name written as one compact lower-case key (words joined):
 * synonyms to the canonical name, "...sliced slice" / "...sliced" to
 * "...slice". Returns the length written to out (cap JD_KEY). */
size_t jd_canon(char *out, const char *compact);
/* Is a canonical key a known household thing (AI2-THOR type or common
 * synonym)? Rooms count as known too. */
int jd_known(const char *key);
/* Is a canonical key a room or area (context, not an answer)? */
int jd_room(const char *key);

enum jd_ctx { JD_CTX_NONE, JD_CTX_AT, JD_CTX_NEAR };

typedef struct jd_item {
	char key[JD_KEY];
	uint8_t known;   /* a known name (vocabulary or truth), not a guess */
	uint8_t ctx;     /* enum jd_ctx: the preposition in front of it */
	uint8_t room;
	uint8_t asked;   /* named in the question */
	uint32_t pos;
} jd_item;

typedef struct jd_items {
	jd_item v[JD_MAX_ITEMS];
	size_t n;
} jd_items;

/* Add `key` unless present; returns its index or -1 when full. */
int jd_items_add(jd_items *l, const char *key);
int jd_items_find(const jd_items *l, const char *key);

/* The items of a ground-truth list: each chunk between commas / "and" is
 * one name. */
void jd_truth_items(jd_items *out, const jd_text *x);
/* The names in free text: known names (or names in `vocab`) wherever they
 * occur; with `guess`, a short chunk naming nothing known becomes an item
 * of its own (an unknown object in a plain list). */
void jd_find_items(jd_items *out, const jd_text *x, const jd_items *vocab, int guess);

/* ---------------------------------------------------------------- steps -- */

typedef struct jd_step {
	char verb[16];      /* canonical: pickup, place, slice, pour, open, ... */
	char obj[JD_KEY];   /* canonical object, "" if none */
	char place[JD_KEY]; /* where, "" if none */
} jd_step;

typedef struct jd_steps {
	jd_step v[JD_MAX_ITEMS];
	size_t n;
} jd_steps;

/* The action steps of a text in order ("Pickup the mug, Place the mug at
 * the sink", "I picked up the mug and placed it in the sink"); moving
 * around is not a step. Objects are known names or names in `vocab`; with
 * vocab NULL (a ground truth) any words after the verb name the object. */
void jd_find_steps(jd_steps *out, const jd_text *x, const jd_items *vocab);
/* Do two steps name the same action on the same object (and, for putting
 * something somewhere, the same place when both say one)? */
int jd_step_eq(const jd_step *a, const jd_step *b);

/* ---------------------------------------------------------------- times -- */

enum jd_prec { JD_P_DAY, JD_P_SEC, JD_P_MIN, JD_P_HOUR, JD_P_PERIOD, JD_P_RANGE };

typedef struct jd_when {
	int64_t lo, hi;  /* [lo, hi] in µs; a day: the whole day */
	int64_t day;     /* start of its day (µs), or INT64_MIN when unknown */
	int has_time;    /* a clock time (else a day only) */
	int prec;        /* enum jd_prec */
	uint32_t pos;
} jd_when;

typedef struct jd_whens {
	jd_when v[JD_MAX_WHEN];
	size_t n;
} jd_whens;

/* Read the dates and times of s[0, n). A date without a year takes the
 * latest such date not after `now` (µs; 0 = unknown), else `year_hint`.
 * "today", "yesterday", "N days ago" need `now`. Times without a date get
 * day INT64_MIN and lo/hi as time of day. */
void jd_find_whens(jd_whens *out, const char *s, size_t n, int64_t now, int year_hint);
/* Start of the civil day y-m-d (µs, UTC). */
int64_t jd_day_start(int64_t y, int m, int d);
/* The year of a time (UTC). */
int jd_year_of(int64_t t);
/* Read "N days ago" counts (and today = 0, yesterday = 1) into v; returns
 * how many (at most cap). */
size_t jd_days_ago(int *v, size_t cap, const char *s, size_t n);

/* ---------------------------------------------------------------- clauses -- */

#define JD_MAX_CLAUSES 64
#define JD_CLAUSE_WORDS 24

/* A clause of free text as its content words, stemmed. */
typedef struct jd_clause {
	char w[JD_CLAUSE_WORDS][JD_WORD];
	size_t n;
	uint8_t sum;  /* it sums up ("various items", "meals") */
} jd_clause;

typedef struct jd_clauses {
	jd_clause c[JD_MAX_CLAUSES];
	size_t n;
} jd_clauses;

/* ---------------------------------------------------------------- grading -- */

typedef struct jd_work {
	const judge_case *c;
	int64_t tol, ptol;
	jd_text q, t, a;          /* question, truth, answer */
	jd_tok tq[JD_MAX_TOKENS], tt[JD_MAX_TOKENS], ta[JD_MAX_TOKENS];
	jd_items asked;           /* the names in the question */
	jd_items i1, i2, i3;      /* scratch */
	jd_steps s1, s2;
	jd_whens w1, w2;
	jd_clauses c1, c2;
	int refusal;              /* the answer refuses or says it does not know */
	char why[240];
} jd_work;

/* Each returns an enum judge_fine and writes w->why. */
int jd_grade_time(jd_work *w);
int jd_grade_date(jd_work *w);
int jd_grade_days_ago(jd_work *w);
int jd_grade_objects(jd_work *w, int kind);
int jd_grade_single(jd_work *w, int kind);
int jd_grade_steps(jd_work *w, int first);
int jd_grade_yesno(jd_work *w);
int jd_grade_free(jd_work *w);

/* Words in the answer that are neither in the question nor fillers, dates,
 * times or numbers: extra information when there are several. */
size_t jd_extra_words(const jd_work *w);
/* The category for list comparison: n_truth items, `hit` of them named,
 * `extra` named items that are not in the truth. */
int jd_set_verdict(size_t n_truth, size_t hit, size_t extra, int summarized);
/* Does the answer sum up the rest ("various", "and other items", "etc.")? */
int jd_summarizes(const jd_text *a);

#endif
