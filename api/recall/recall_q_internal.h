/*
 * recall_q_internal.h — what the files reading a question share and
 * nothing else uses. The reader goes one way: the time scope
 * (recall_q_scope.c), the kind (recall_q_kind.c), the terms
 * (recall_q_terms.c), then the passes over the terms and the entry,
 * rq_parse (recall_q.c).
 */
#ifndef H2EMV_RECALL_Q_INTERNAL_H
#define H2EMV_RECALL_Q_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api/recall/recall.h"

#define DAY_US (86400LL * 1000000)
#define HOUR_US (3600LL * 1000000)

#define MAXW 64

/* A time scope as read from the words (recall_q_scope.c). */
typedef struct scope {
	int64_t day;           /* start of a named day, or INT64_MIN */
	int64_t span;          /* its length (a day, a week, a month) */
	int hour0, hour1;      /* a part of the day in hours [hour0, hour1), or -1 */
	int clock;             /* a clock time in minutes, or -1 */
	int around;            /* the clock time is approximate */
	int before, after;     /* "before"/"after" the clock time */
	int weekday;           /* the day is a bare weekday ("on Thursday") */
	int min0, min1;        /* a window of the day in minutes ("between 3 and 4 pm"), or -1 */
} scope;

/* recall_q_scope.c */
int ordinal(const char *s);
void read_scope(const lex_word *w, size_t k, int64_t now, scope *sc, uint8_t *used);
void scope_range(const scope *sc, int64_t now, int64_t *t0, int64_t *t1, int64_t *point);

/* recall_q_kind.c */
int title_word(const char *w);
int said_clause(const lex_word *w, size_t k);
size_t verb_after_did(const lex_word *w, size_t k);
int said_verb(const lex_word *w, size_t i);
void read_kind(rquestion *q, const lex_word *w, size_t k, uint8_t *used);

/* recall_q_terms.c */
const char *unit_symbol(const rquestion *q, const rq_term *u);
void read_summary(rquestion *q, const lex_word *w, size_t k, uint8_t *used);
void read_texting(lex_word *w, size_t k);
size_t question_start(const lex_word *w, size_t k, const uint8_t *used);
void read_terms(rquestion *q, lex_word *w, size_t k, size_t qi, uint8_t *used);
void read_agent(rquestion *q, const lex_word *w, size_t k, size_t qi);
void main_verb(rquestion *q, const lex_word *w, size_t k);

/* recall_q_words.c */
int rq_time_unit(const char *w);

/* "the highest temperature", "the average reading": the extreme asked
 * (1 highest, -1 lowest, 2 average), its word's index into *at; 0 none. */
int rq_extreme_word(const lex_word *w, size_t k, size_t *at);

/* "Where did the Commander say the tomato was": someone's words about
 * where a thing is. */
int rq_where_said(const lex_word *w, size_t k);
int rq_read_trouble(const lex_word *w, size_t k, uint8_t *used);

/* Is word s among w[0..k); do w start (within their first words) with
 * a then b (b NULL: any); is w[0] a? */
int rq_has(const lex_word *w, size_t k, const char *s);
int rq_length_unit(const char *u);
/* A word first read as a doing, read as a thing instead (its groups and
 * alias as a noun's). */
void rq_term_as_noun(rq_term *t);
void rq_read_unit(rquestion *q, const lex_word *w, size_t k);
int rq_starts(const lex_word *w, size_t k, const char *a, const char *b);
int rq_first_is(const lex_word *w, size_t k, const char *a);

/* The status asked ("did X fail", "what went wrong", "did row 12 pass its
 * check") and the order ("first", "last", "the third time"). */
void rq_read_status(rquestion *q, const lex_word *w, size_t k, uint8_t *used, int trouble);
void rq_read_order(rquestion *q, const lex_word *w, size_t k, uint8_t *used);

#endif
