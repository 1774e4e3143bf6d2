/*
 * gist.h — salient gists (DESIGN §6 "Salient gists"): which of a node's
 * typed facts outlive it when it is forgotten, and the outcome sentence a
 * summary says of them ("brought the milk from the fridge to Ana; could
 * not grasp the cup twice").
 *
 * Salience, most telling first: failures; people met and what they said;
 * where each carried object ended; tasks and notes; other handling; places;
 * the rest (motion, objects merely seen). forget.c keeps a placeholder's
 * gist within a byte budget; builtin_summary.c says the outcomes.
 */
#ifndef H2EMV_GIST_H
#define H2EMV_GIST_H

#include <stddef.h>

#include "api/tree/facts.h"

/* How telling f->v[i] is, 0..6 (6: a failure). */
int gist_salience(const facts *f, size_t i);

/* An upper bound of the bytes facts_payload_encode writes for one fact. */
size_t gist_fact_bytes(const fact *x);

/* Append to `out` the facts of `pool` that fit `budget` bytes (by
 * gist_fact_bytes), the most salient first (the earlier of equals), in
 * pool order. ENOMEM. */
int gist_select(facts *out, const facts *pool, size_t budget);

/* Append to `b` the outcomes among v[0..n) as clauses in the past tense,
 * joined by "; " and written in time order, the most salient chosen first
 * within `cap` bytes: "brought the milk from the fridge to Ana", "could
 * not grasp the cup twice", "finished the task 'make coffee'". Motion,
 * sights and speech are left to the summary's other clauses. Returns how
 * many clauses were written; -1 when out of memory. */
int gist_sentence(eng_buf *b, const fact *const *v, size_t n, size_t cap);

/* Append to `b` the clause gist_sentence says of one fact x occurring
 * `count` times ("picked up the knife twice"); `verb`, when not NULL, is
 * the verb said in the past tense in place of the fact's lemma ("handed
 * over" for HandOver, whose lemma is give). -1 when out of memory. */
int gist_clause(eng_buf *b, const fact *x, uint32_t count, const char *verb);

#endif
