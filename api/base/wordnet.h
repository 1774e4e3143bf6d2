/*
 * wordnet.h — what WordNet (wordnet-dev, wordnet-base) knows of English
 * words, for reading questions and rules in any robot's words: is a carrot
 * a vegetable, a crate a container, is fixing repairing, buying purchasing.
 * Looked up when a question or rule is read; while building, only for the
 * first word of a note that opens with a capitalised run ("Technician Omar
 * fixed ...": a role, then a name; "Olu Bakare let ...": a name).
 *
 * Without WordNet's data files (a machine without wordnet-base, or
 * $WNSEARCHDIR naming an empty folder) every lookup answers 0 and the
 * callers keep today's matching. Thread-safe: WordNet's library keeps
 * global state, so lookups take one lock; answers are cached per pair.
 */
#ifndef H2EMV_WORDNET_H
#define H2EMV_WORDNET_H

#include <stddef.h>

/* Is `word` (a noun, singular or plural: "carrots") a kind of `category`
 * ("vegetable"): a word of a synset below one of its senses? 0 for the same
 * word (the caller matches that itself), for a category too general to
 * tell anything apart ("thing", "object", or one with more than a few
 * thousand kinds) and for words WordNet does not know. */
int wn_kind_of(const char *word, const char *category);

/* wn_kind_of, for what `word` first means (its most frequent sense): for
 * a plural that is no category asked about ("who signed for the parcels":
 * a deck is a parcel only as a pack of cards). */
int wn_first_kind_of(const char *word, const char *category);

/* Is `word` (a noun, any inflection: "visitors") a kind of person? (The
 * one category general enough for wn_kind_of to refuse that is asked.) */
int wn_is_person(const char *word);

/* Does `word`'s first noun sense name a person by a role ("technician",
 * "driver", "courier")? 0 for a given name ("Olu", "John", whose first
 * sense is a toilet). */
int wn_names_role(const char *word);

/* Is `word` (a verb, any inflection) a way of saying something
 * ("complain", "grumble", "beg", "mention")? */
int wn_speech_verb(const char *word);

/* Do the verbs `a` and `b` (any inflection) share one of their main senses
 * ("fix" and "repair", "buy" and "purchase")? 0 for unknown words. */
int wn_same_verb(const char *a, const char *b);

/* Is the verb `done` (any inflection) a way of doing `asked`: one of its
 * main senses at most two steps below one of asked's ("slice" is a way to
 * "cut", "rinse" to "wash", "wash" to "clean")? Also 1 where they share a
 * sense; not the reverse ("cut" is no way to "slice"); 0 for unknown words. */
int wn_verb_kind_of(const char *done, const char *asked);

/* Call fn(ctx, kind) for every word wn_kind_of takes as a kind of
 * `category` before its plural is taken off (lower case, spaces as
 * underscores); none for a category too general or without WordNet. fn
 * runs under WordNet's lock and must not look anything up; a non-zero
 * return stops the calls and is returned. -1 without calling fn when the
 * category has more than `max` kinds. */
int wn_kinds_each(const char *category, size_t max, int (*fn)(void *ctx, const char *word),
                  void *ctx);

/* Whether WordNet's data could be opened (tests; `h2emv ask --trace`). */
int wn_available(void);

#endif
