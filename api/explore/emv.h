/*
 * emv.h — the EMV loop's internals (emv.c): the part of a snapshot's tree
 * one question has opened, and its search by time and by words
 * (emv_explore.c, emv_words.c). The loop is how a policy with a qa_step
 * (the llm policy, a caller's own) answers: the paper's agent, one tool
 * call at a time. The builtin policy answers from typed facts instead
 * (api/recall/).
 *
 * The word functions allocate nothing: they read spans of the text they
 * are given (node summaries stay owned by their snapshot).
 */
#ifndef H2EMV_API_EMV_H
#define H2EMV_API_EMV_H

#include <stddef.h>
#include <stdint.h>

#include "api/base/strbuf.h"
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
