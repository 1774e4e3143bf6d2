/*
 * lex.h — words for question understanding, typed facts and rule matching:
 * splitting names and sentences into words (CamelCase, snake_case, ids),
 * Snowball stems (libstemmer, English), stop words, and a small lexicon of
 * robot verbs that turns "drive", "navigate" and "NavigateToLocation" into
 * one lemma ("go") and a class of near-synonyms.
 *
 * Nothing here allocates per call; the lexicon is built once (thread-safe),
 * the stemmer is one per thread.
 */
#ifndef H2EMV_LEX_H
#define H2EMV_LEX_H

#include <stddef.h>
#include <stdint.h>

#define LEX_WORD_MAX 48

/* One word: as written (lower case) and its stem. */
typedef struct lex_word {
	char w[LEX_WORD_MAX];
	char stem[LEX_WORD_MAX];
	uint8_t cap;     /* written with a capital letter (and not after a sentence start) */
	uint8_t digit;   /* all digits */
} lex_word;

/* Verb classes: near-synonyms a question may use for a robot's skill. */
enum lex_class {
	LC_NONE = 0,
	LC_GO, LC_TAKE, LC_PUT, LC_GIVE, LC_RECEIVE, LC_SAY, LC_SEE, LC_MEET, LC_OPEN, LC_CLOSE,
	LC_CLEAN, LC_CUT, LC_COOK, LC_POUR, LC_FILL, LC_TURN_ON, LC_TURN_OFF, LC_CHARGE, LC_LEARN,
	LC_WAIT, LC_FOLLOW, LC_LOOK, LC_SEARCH, LC_CHECK, LC_WAVE, LC_HELP, LC_PUSH, LC_PULL,
	LC_INTRODUCE, LC_HOME, LC_SCAN,
	LC_OTHER, /* a verb with no near-synonyms: it matches by its lemma or a word of the
	           * skill's name only (spin = centrifuge, swap = change = replace) */
	LC_COUNT_
};

/* Split text into words: runs of letters and digits; CamelCase and
 * letter/digit boundaries split too ("GraspObjectWithinReach" -> grasp
 * object within reach, "cup_0" -> cup 0, "HTTPServer" -> http server).
 * Bytes >= 0x80 count as letters. Fills up to `max` words; returns how many
 * were found (may exceed max: the rest are dropped). */
size_t lex_split(const char *s, size_t n, lex_word *out, size_t max);

/* A number written at words w[0..n): digits ("24", "4.5") or English
 * words up to ninety-nine ("eighty", "twenty four": lex_split cuts the
 * hyphen). Its value into *v; returns how many words it took, 0 when w[0]
 * is no number. */
size_t lex_number(const lex_word *w, size_t n, double *v);

/* Snowball English stem of a lower-case word, into out (LEX_WORD_MAX). */
void lex_stem(const char *w, size_t n, char *out);

/* Function words, question words, pronouns: never a target. `stem` is a
 * stem as lex_stem makes it. */
int lex_stop(const char *stem);

/* The lexicon entry of a stemmed word: its lemma ("go" for drove, drive,
 * navigate) and class; NULL/LC_NONE when the word is no known verb. */
const char *lex_lemma(const char *stem, int *cls);

/* "turn the stove off", "ToggleOn", "switch on": a verb of switching
 * followed (within three words) by "on" or "off" becomes "switch on" /
 * "switch off"; "take pictures of", "TakePhoto" become "photograph". w[i]
 * is the verb; returns 1 and sets *lemma, *cls. */
int lex_particle(const lex_word *w, size_t k, size_t i, const char **lemma, int *cls);

/* Are verb classes a and b close enough for a question to mean one by the
 * other (same class, or put ~ give ~ bring ~ transport)? */
int lex_class_near(int a, int b);

/* The group of everyday nouns a stem belongs to ("medicine" and "pills",
 * "tv" and "television", "mom" and "mother" share one): a small table of
 * nouns people use for one another. -1 for any other word. */
int lex_same_group(const char *stem);
/* The word a robot's log writes for a thing people call otherwise ("tap":
 * "faucet", "cupboard": "cabinet"), stemmed; NULL none. Read only when a
 * question is: unlike lex_same_group it is in no index, so it may grow
 * without touching a stored memory. */
const char *lex_asked_alias(const char *stem);

/* A display name of an object id or type: "soy_milk_0" -> "soy milk",
 * "CounterTop|+01.00|..." -> "counter top", "DishWasher" -> "dish washer".
 * Returns the length written (cap > 0). */
size_t lex_display(char *out, size_t cap, const char *id, size_t n);

/* The past tense of a verb phrase's first word ("pick up" -> "picked up",
 * "bring" -> "brought"), into out. */
void lex_past(char *out, size_t cap, const char *verb);

/* A skill or task name said as a phrase a person reads, its verb in the
 * past tense when the lexicon knows it: "ReceiveObjectFromHuman" ->
 * "received object from human", "Pickup(Tomato_1)" -> "picked up the
 * tomato", "Place(Mug_0, CoffeeMachine)" -> "placed the mug on the coffee
 * machine", "HomePose" -> "moved to the home pose", "Introduction" ->
 * "introduced myself"; a name with no verb as its words ("thermal
 * scan"). Returns the length written (cap > 0); "" for NULL. */
size_t lex_skill_words(char *out, size_t cap, const char *name);

/* The verb of a skill or task name in the past tense with its particle
 * ("Pickup" -> "picked up", "HandOverObjectToHuman" -> "handed over",
 * "navigate_to" -> "navigated"); "" (0) when its first word is no verb. */
size_t lex_skill_verb(char *out, size_t cap, const char *name);

/* Is p (n bytes) the person `listed`: the same name in any case, or its
 * first word of three letters or more ("Nico" for "Nico Ferreira")? */
int lex_same_person(const char *listed, const char *p, size_t n);

#endif
