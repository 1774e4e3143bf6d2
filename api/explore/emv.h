/*
 * emv.h — question answering internals shared by the EMV loop (emv.c,
 * emv_explore.c) and the builtin question-answering step
 * (policy/builtin_qa.c): words and their stems, reading node texts in the
 * grammar of docs/tree.md, and the answer's time formats.
 *
 * Nothing here allocates: every function reads spans of the text it is
 * given (node summaries stay owned by their snapshot).
 */
#ifndef H2EMV_API_EMV_H
#define H2EMV_API_EMV_H

#include <stddef.h>
#include <stdint.h>

#include "api/strbuf.h"
#include "engine/hashtab.h"
#include "h2emv.h"

/* ----------------------------------------------------------------- words -- */

/* A word is a run of ASCII letters and digits (bytes >= 0x80 count as
 * letters, so UTF-8 names stay whole); '_' and everything else separate.
 * Words are compared lower-cased and stemmed (a light stemmer of plurals,
 * verb endings and a final e: "knives" = "knife", "keys" = "key", "boxes" =
 * "box", "loading" = "loaded" = "load", "placed" = "place"). */
#define EMV_WORD_MAX 64

/* The next word of s[*pos, n), lower-cased into `out` (truncated to
 * EMV_WORD_MAX - 1 bytes, NUL-terminated); *pos moves past it. Returns the
 * word's length, 0 at the end. */
size_t emv_next_word(const char *s, size_t n, size_t *pos, char out[EMV_WORD_MAX]);

/* Stem a lower-case word in place; returns the new length. */
size_t emv_stem(char *w, size_t n);

/* Words that never name a thing: articles, pronouns, auxiliaries,
 * prepositions and question words. `w` lower-case. */
int emv_stopword(const char *w);

/* A search term: one word of a question or query, or an object id. */
typedef struct emv_term {
	char stem[EMV_WORD_MAX]; /* stemmed word; for an id, the whole id lower-cased */
	char word[EMV_WORD_MAX]; /* the word as written, lower-cased */
	int is_id;               /* "knife_0": matched against whole ids only */
} emv_term;

/* Up to `max` terms from `query` (stopwords dropped; "knife_0" kept as an
 * id). Returns how many. */
size_t emv_terms(emv_term *out, size_t max, const char *query, size_t n);

/* Does s[0, n) mention the phrase made of terms t[0..k)? Either every term
 * occurs as a word (an id as a whole id), or the terms written together
 * equal up to four consecutive words written together ("coffee machine" =
 * "CoffeeMachine_0" = "coffee_machine"). k = 0 matches everything. */
int emv_mentions(const char *s, size_t n, const emv_term *t, size_t k);

/* How many of the terms t[0..k) occur in s[0, n) on their own. */
size_t emv_count_terms(const char *s, size_t n, const emv_term *t, size_t k);

/* ----------------------------------------------------------- node texts -- */

/* A piece of a node's text. */
typedef struct emv_span {
	const char *p;
	size_t n;
} emv_span;

/* The next line of text[0, n) from *pos that starts with `label` (e.g.
 * "Objects: "); *value gets the rest of the line. Returns 1, or 0 when no
 * further line has that label. Start with *pos = 0. */
int emv_line(const char *text, size_t n, size_t *pos, const char *label, emv_span *value);

/* The next item of a list separated by `sep` ("; " or ", ") at the top
 * level (separators inside (), [] and "" do not count). *pos starts at 0.
 * Returns 1 with the trimmed item, 0 at the end. */
int emv_split(emv_span list, size_t *pos, const char *sep, emv_span *item);

/* One action as printed on Action:/Actions: lines: `Name(args) status`.
 * A nested goal printed as "[...]" has `nested` set and no args. */
typedef struct emv_action {
	emv_span name, args, status;
	int nested;
} emv_action;

/* Parse one action item. Returns 0 when the item is not an action. */
int emv_action_parse(emv_span item, emv_action *out);

/* The argument of an action called `key` (one of the NULL-terminated
 * `keys`, compared case-insensitively, "key.sub" counts as "key"), or the
 * positional argument number `pos` (0-based; -1 for none) when the
 * arguments have no keys. Returns 1 with the value, 0 if absent. */
int emv_action_arg(const emv_action *a, const char *const *keys, int pos, emv_span *out);

/* Does the normalised action name (lower-case, '_' and ' ' dropped) start
 * with one of the NULL-terminated `names`? */
int emv_action_is(const emv_action *a, const char *const *names);

/* An object of an Objects: line, "id (type, state)". */
typedef struct emv_object {
	emv_span id, type, state;
} emv_object;

int emv_object_parse(emv_span item, emv_object *out);

/* A relation of a Relations: line, "from type to". */
typedef struct emv_relation {
	emv_span from, type, to;
} emv_relation;

int emv_relation_parse(emv_span item, emv_relation *out);

/* An utterance of a Speech: line, `[HH:MM:SS ][Speaker: ]"text"`. */
typedef struct emv_utterance {
	emv_span clock, speaker, text;
} emv_utterance;

int emv_utterance_parse(emv_span value, emv_utterance *out);

/* A place's name for an answer: "countertop_0" -> "countertop",
 * "dining_table_1" -> "dining table", "CounterTop_1" -> "countertop".
 * Writes at most cap - 1 bytes; returns the length. */
size_t emv_place_name(char *out, size_t cap, emv_span id);

/* Does span `s` equal the lower-case word `w`, ignoring case? */
int emv_span_is(emv_span s, const char *w);

/* Is this speaker or person not someone's name: the robot itself ("robot",
 * "I", "assistant") or an anonymous "user"? */
int emv_no_name(emv_span who);

/* ------------------------------------------------------------------ time -- */

/* "2024/09/23, 10:03:55" (UTC), the answer format. buf >= 32. */
char *emv_fmt_datetime(char *buf, size_t cap, int64_t t);
/* "2024/09/23" (UTC). */
char *emv_fmt_date(char *buf, size_t cap, int64_t t);
/* µs of 00:00 UTC on the given civil date. */
int64_t emv_day_start(int64_t y, int m, int d);

/* ------------------------------------------------------------ questions -- */

/* What a question asks for. */
enum emv_qkind {
	QK_GENERIC = 0, /* "what did you do ...": the matching goal itself */
	QK_WHEN,        /* "when ...", "at what time ..." */
	QK_DAY,         /* "what day ...", "which date ..." */
	QK_WHERE,       /* "where / to where ..." */
	QK_OBJECTS,     /* "what objects did you see ..." */
	QK_WHICH,       /* "which object did you transport to the sink?" */
	QK_WHO,         /* "who did you meet?", "who said ...?" */
	QK_SAID,        /* "what did Alice say?" */
	QK_STEPS        /* "what steps did you perform ..." */
};

/* Which match counts: the latest (the default), the earliest, or all. */
enum emv_qorder { QO_LAST = 0, QO_FIRST, QO_ALL };

/* Action classes a question can name, and ACT_MEET/SEE/SAY for people,
 * sights and speech. */
enum emv_act {
	ACT_NONE = 0,
	ACT_TRANSPORT, ACT_PUT, ACT_PICKUP, ACT_SLICE, ACT_COOK, ACT_CLEAN, ACT_WATER,
	ACT_POUR, ACT_OPEN, ACT_CLOSE, ACT_TOGGLE, /* the object actions */
	ACT_MEET, ACT_SEE, ACT_SAY,
	ACT_COUNT
};

#define EMV_Q_TERMS 6

typedef struct emv_question {
	int kind;                    /* enum emv_qkind */
	int order;                   /* enum emv_qorder */
	int act;                     /* enum emv_act */
	emv_term ent[EMV_Q_TERMS];   /* the thing asked about ("knife", "knife_0") */
	size_t n_ent;
	emv_term place[EMV_Q_TERMS]; /* "to / in / on the <place>" */
	size_t n_place;
	emv_term person[2];          /* a person's name */
	size_t n_person;
	int something;               /* "something" / "anything": any object */
	int64_t t0, t1;              /* a day the question names; t1 = 0: none */
	char query[160];             /* words to search for; "" if none */
} emv_question;

/* Parse a question. `now` (the snapshot's clock) resolves "today" and
 * "yesterday". Never fails: what it does not understand is left out. */
void emv_question_parse(emv_question *q, const char *text, int64_t now);

/* Does a goal or event block (docs/tree.md) answer the question? */
int emv_block_matches(const char *t, size_t n, const emv_question *q);
/* Does a higher summary mention what the question is about? */
int emv_summary_matches(const char *t, size_t n, const emv_question *q);
/* The first (or, with `last`, the last) action of a block that does what
 * the question asks: class, object and destination. Returns 1 with *hit. */
int emv_find_action(const char *t, size_t n, const emv_question *q, int last, emv_action *hit);
/* Is `a` of action class `act`? */
int emv_action_in(const emv_action *a, int act);
/* The object an action handles / the place it puts it (by key, else the
 * first / second positional argument). */
int emv_action_object(const emv_action *a, emv_span *out);
int emv_action_target(const emv_action *a, emv_span *out);

/* --------------------------------------------------------------- answers -- */

/* Sentences made from one block's text, appended to `b`. Each returns 1
 * when it found what it needs, 0 if not (nothing appended); running out of
 * memory sets b->oom. */

/* "At the countertop.": where the object went (the destination of the
 * matching action), else where the relations put it, else the Location. */
int emv_say_where(pr_str *b, const char *t, size_t n, const emv_question *q);
/* "I saw the knife, the cup and the plant." (only those in / on the
 * question's place when it names one). */
int emv_say_objects(pr_str *b, const char *t, size_t n, const emv_question *q);
/* "The knife.": the object the matching action handled. */
int emv_say_which(pr_str *b, const char *t, size_t n, const emv_question *q);
/* Alice said: "Please put the knife away." (the last such utterance, or
 * the first for "first" questions). */
int emv_say_said(pr_str *b, const char *t, size_t n, const emv_question *q);
/* "Pickup the knife, place the knife at the countertop." */
int emv_say_steps(pr_str *b, const char *t, size_t n, const emv_question *q);
/* Add the people of a block (Persons, speakers; only speakers for "who
 * said") to `names`, a list of NUL-separated names without repeats. */
int emv_names_add(pr_str *names, const char *t, size_t n, const emv_question *q);
/* "Alice, Bob and Carol." from such a list; 0 if it is empty. */
int emv_say_names(pr_str *b, const pr_str *names);

/* ---------------------------------------------------------- the explorer -- */

/* What one question has opened of a snapshot's tree. Nodes are never
 * closed again, so every loaded node but the root is visible; vn[0] is the
 * root (always open, never shown). Children of an open node are stored
 * contiguously. Indexes, not pointers: vn grows. */
typedef struct emv_vnode {
	const h2emv_node *node;  /* owned by the snapshot */
	uint32_t kids;           /* index of the first child, when open */
	uint32_t n_kids;
	uint32_t parent;
	uint16_t depth;          /* root 0, its children 1, ... */
	uint8_t open;
} emv_vnode;

typedef struct emv_explorer {
	h2emv_snap *snap;
	emv_vnode *vn;
	size_t n, cap;
	hashtab by_id;           /* node id -> index in vn */
	struct emv_memo *memo;   /* search: what lies below a node */
	size_t memo_n, memo_cap;
	hashtab memo_ix;         /* (id, version) -> index in memo */
	uint64_t reads;          /* nodes read by the last search */
	int cut;                 /* the last search stopped at EMV_SEARCH_READS */
} emv_explorer;

/* Deepest a question may open (a guard against cyclic damaged trees), the
 * most nodes it may show, the most nodes one search may read, and how many
 * of the oldest and of the newest matches a search opens the way to. */
#define EMV_MAX_DEPTH 64
#define EMV_MAX_VISIBLE 20000u
#define EMV_SEARCH_READS 200000u
#define EMV_SEARCH_SIDE 4

/* Start with the root open. Returns OK, or the snapshot's error. */
int emv_ex_init(emv_explorer *x, h2emv_snap *snap, const h2emv_node *root, h2emv_error *err);
void emv_ex_free(emv_explorer *x);
/* Visible nodes (all loaded nodes but the root). */
size_t emv_ex_visible(const emv_explorer *x);
/* Index of the visible node with this id, or 0 when none is visible. */
uint32_t emv_ex_find(const emv_explorer *x, uint64_t id);
/* Can node i be opened (not open, has children, not a placeholder,
 * within depth and size limits)? */
int emv_ex_can_open(const emv_explorer *x, uint32_t i);
/* Open node i. *opened gets 1 if it was opened. Errors: ENOMEM, ECORRUPT. */
int emv_ex_open(emv_explorer *x, uint32_t i, int *opened, h2emv_error *err);
/* Open every visible node of level >= 3 that overlaps [t0, t1], top down,
 * down to events. *opened counts them. */
int emv_ex_range(emv_explorer *x, int64_t t0, int64_t t1, size_t *opened, h2emv_error *err);
/* Search below the closed visible nodes for texts that match `query`
 * (all of its words; if nothing has all, any of them) and open the way to
 * the deepest matches — the EMV_SEARCH_SIDE oldest and as many newest.
 * Goals are the deepest nodes read. With t1 > 0 only nodes overlapping
 * [t0, t1] are searched (one subtree, say). When nothing matches, open
 * the way to placeholders instead (*placeholders = 1), so the asker sees
 * what was forgotten. */
int emv_ex_search(emv_explorer *x, const char *query, int64_t t0, int64_t t1, size_t *opened,
                  int *placeholders, h2emv_error *err);
/* Open every visible node of level >= 3 that can be opened, one level. */
int emv_ex_open_all(emv_explorer *x, size_t *opened, h2emv_error *err);

/* ------------------------------------------------------ the EMV history -- */

/* How the EMV loop's history lines ("round N: <step> -> <result>") name a
 * step or a result, for a policy that looks for what it already tried. */
#define EMV_HIST_SEARCH "search \""
#define EMV_HIST_WITHIN " within "
#define EMV_HIST_RANGE "range "
#define EMV_HIST_NOCHANGE "nothing changed"

#endif
