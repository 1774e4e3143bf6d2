/*
 * builtin.h — the builtin policy's inside (not installed): the entry points
 * builtin.c puts into the h2emv_policy table, and the text analysis the
 * builtin_*.c files share (normalised words, action families, the digest of
 * a node's text).
 *
 * Everything here is deterministic: no randomness, no clock, no global
 * mutable state (the word table and the fixed prompts' token counts are
 * built once and then only read); the same inputs give byte-identical
 * outputs. The policy's cache (builtin_cache.c) changes how fast an answer
 * comes, never what it is.
 */
#ifndef H2EMV_POLICY_BUILTIN_H
#define H2EMV_POLICY_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

#include "api/policy/policy.h"
#include "api/policy/prompts.h"
#include "engine/hashtab.h"

/* ------------------------------------------------------ the table's slots -- */

typedef struct bi_cache bi_cache; /* below: what the policy keeps between calls */

/* builtin_route.c (routing). The builtin policy has no qa_step: it
 * answers from typed facts (api/recall/), which h2emv_ask reads itself. */
int pol_builtin_route(void *ctx, const char *utterance, int *route, char **reply,
                      pol_usage *u, h2emv_error *err);

/* builtin_group.c, builtin_summary.c, builtin_relevance.c, builtin_learn.c. */
int bi_group(void *ctx, const pol_group_req *req, pol_group_reply *out, pol_usage *u,
             h2emv_error *err);
int bi_summarize(void *ctx, const pol_item *items, size_t n, int level, const pol_rules *rules,
                 char **out, pol_usage *u, h2emv_error *err);
int bi_relevance(void *ctx, const pol_relevance_req *req, double *alpha, pol_usage *u,
                 h2emv_error *err);
int bi_learn(void *ctx, const pol_rules *old, const char *feedback, pol_rule_list *out,
             pol_usage *u, h2emv_error *err);

/* builtin_learn.c: is `feedback` a rule the builtin can learn? It must say
 * what to remember, keep, note or forget (or that something matters) and
 * about what, and not be a question or small talk. OK, else EINVAL with
 * a message that says why and gives an example of a rule. */
int bi_check_rule(const char *feedback, h2emv_error *err);

/* builtin_talk.c: small talk. The kinds (bits) of small talk `s` is made
 * of when every word of it is a greeting, thanking, closing or
 * how-are-you word or one that goes with them ("robot", "you", "very");
 * 0 when any other word is in it (or none is). */
enum { BI_TALK_HELLO = 1u, BI_TALK_HOW = 2u, BI_TALK_THANKS = 4u, BI_TALK_BYE = 8u };
unsigned bi_small_talk(const char *s);
/* Bytes of a greeting in front of `s` ("Hi, ", "Good morning robot! "),
 * up to the first word of what follows; 0 when `s` does not open with a
 * greeting or is nothing but one. */
size_t bi_greeting_len(const char *s);

/* Account one decision: prompt tokens of `p`, completion tokens of the
 * builtin's own reply text, one call. `u` may be NULL (builtin_ctx.c). */
void bi_usage(pol_usage *u, const pr_prompt *p, const char *reply);
/* The same with the prompt's tokens already counted. */
void bi_usage_tokens(pol_usage *u, uint64_t prompt_tokens, const char *reply);

/* The summary text itself (no accounting): the extractive rule written
 * down in builtin_summary.c. *out malloc'd. */
int bi_summary_text(char **out, const pol_item *items, size_t n, int level,
                    const pol_rules *rules, h2emv_error *err);
/* The same, byte for byte, reading the items through cache `c` (NULL: no
 * cache, as bi_summary_text). */
int bi_summary_cached(bi_cache *c, char **out, const pol_item *items, size_t n, int level,
                      const pol_rules *rules, h2emv_error *err);

/* --------------------------------------------------------------- words -- */

/* How a word set or list (builtin_sets.c) finds its strings fast: each
 * entry's hash and length (compared before the bytes), and, once the set
 * has BI_INDEX_MIN entries, an index (engine/hashtab.h: hash -> entry). */
typedef struct bi_key {
	uint32_t h, len;
} bi_key;

#define BI_INDEX_MIN 16

/* The hash bi_key.h holds (XXH3-64 of the bytes, cut to 32 bits). */
uint32_t bi_hash(const char *s, size_t n);

/* A set of words in insertion order (each malloc'd, NUL-terminated), with
 * a sticky out-of-memory flag. `k` and `ix` are its lookup aids (above);
 * only the bi_words_* functions change a set. */
typedef struct bi_words {
	char **v;
	size_t n, cap;
	int oom;
	bi_key *k;
	hashtab ix;
} bi_words;

void bi_words_free(bi_words *w);
/* Add `s[0..n)` unless present. */
void bi_words_add(bi_words *w, const char *s, size_t n);
int bi_words_has(const bi_words *w, const char *s);
/* Does any word of `a` occur in `b`? */
int bi_words_meet(const bi_words *a, const bi_words *b);

/*
 * Normalised words of a text: every run of letters (ASCII letters and any
 * byte >= 0x80; digits, '_', '.', '|' and the rest separate words) is
 * lower-cased; a run with inner case changes also gives its pieces
 * ("CounterTop" -> countertop, counter, top); plurals are made singular
 * (keys -> key, dishes -> dish, knives -> knife, potatoes -> potato); words
 * of one letter are dropped. "knife_0" -> knife; "Potato|-01.50" -> potato.
 */
void bi_words_of(bi_words *out, const char *text, size_t n);

/* Action families: verbs and action names that mean the same kind of
 * doing, so a rule's "transport" meets an item's Pickup/Place. */
enum {
	BI_FAM_TRANSPORT = 1u << 0, /* transport bring carry put move place pick take give ... */
	BI_FAM_LOAD = 1u << 1,      /* load unload */
	BI_FAM_OPEN = 1u << 2,      /* open close */
	BI_FAM_CLEAN = 1u << 3,     /* clean wash wipe rinse */
	BI_FAM_COOK = 1u << 4,      /* cook heat boil fry bake toast */
	BI_FAM_CUT = 1u << 5,       /* slice cut chop */
	BI_FAM_POUR = 1u << 6,      /* pour fill water */
	BI_FAM_TOGGLE = 1u << 7,    /* toggle switch turn */
	BI_FAM_MEET = 1u << 8       /* meet greet talk speak; someone person people human */
};

/* The families of one normalised word (inflections -s/-ed/-ing folded). */
unsigned bi_family(const char *w);
/* Families of every word of a text. */
unsigned bi_families_of(const char *text, size_t n);
/* Words a rule can say that carry no object (see builtin_words.c). */
int bi_is_stop(const char *w);
/* Object words a general word stands for ("valuable" -> key, wallet, ...):
 * a NULL-terminated list, or NULL. */
const char *const *bi_expand(const char *w);

/* ------------------------------------------------------------- digests -- */

/* A list of display strings with counts, in order of first appearance
 * (`k`, `ix`: lookup aids as for bi_words; only bi_list_* change a list). */
typedef struct bi_list {
	char **s;
	size_t *count;
	size_t n, cap;
	int oom;
	bi_key *k;
	hashtab ix;
} bi_list;

void bi_list_free(bi_list *l);
/* Add (or count again) `s[0..n)`, `times` times. */
void bi_list_add(bi_list *l, const char *s, size_t n, size_t times);
/* The same with the hash of `s[0..n)` already known (bi_hash). */
void bi_list_add_h(bi_list *l, const char *s, size_t n, uint32_t h, size_t times);

/* One action (or goal) of an item as relevance sees it: what kind of doing
 * and the words of the objects it was done with. */
typedef struct bi_act {
	unsigned fam;
	bi_words args;
} bi_act;

/*
 * What the builtin reads out of a node's text. Three kinds of text:
 *  - a scene, event or goal block (docs/tree.md): actions, goal, location,
 *    persons, speech, objects are read line by line;
 *  - a summary in the builtin's own grammar (builtin_summary.c), read back
 *    clause by clause so that higher levels keep the children's entities;
 *  - anything else (an llm's free text): its first sentence as a note and
 *    a bag of words. (A one-line text starting with "I " is read clause by
 *    clause as in our grammar; clauses it does not know become notes.)
 */
typedef struct bi_digest {
	bi_list labels;   /* "MakeBreakfast.Transport (knife_0 to countertop_0)" */
	bi_list seen;     /* objects seen, "knife_0" or "mug obj_3" */
	bi_list places, persons;
	bi_list notes;    /* free phrases: an llm's first sentence, "cooked the potato" */
	size_t n_speech;  /* utterances heard */
	size_t more;      /* labels a child summary had already left out */
	bi_act *acts;
	size_t n_acts, cap_acts;
	bi_words words;   /* every normalised word of the text */
	int person;       /* evidence of meeting a person */
	int opaque;       /* free text: no structure was found */
	int oom;
	int lists_only;   /* set before the first add: read only what a summary
	                     reads (the lists, n_speech, more); acts and words
	                     stay empty, person may stay unset */
} bi_digest;

/* Read `text` into `d` (added to what is there: digests accumulate). */
void bi_digest_add(bi_digest *d, const char *text);
void bi_digest_free(bi_digest *d);

/* The pieces builtin_digest.c and builtin_readback.c share (builtin_span.c,
 * with bi_digest_act and bi_digest_free). */
typedef struct bi_span {
	const char *p;
	size_t n;
} bi_span;

static inline bi_span bi_mk(const char *p, size_t n)
{
	bi_span s = { p, n };
	return s;
}

bi_span bi_trim(bi_span s);
int bi_starts(bi_span s, const char *pfx);
int bi_ends(bi_span s, const char *sfx);
/* Cut the next part off `rest` at the first `sep` outside brackets and
 * quotes; 0 when nothing is left. */
int bi_next_part(bi_span *rest, const char *sep, bi_span *part);
/* Append an action (its families and object words) to d->acts. */
void bi_digest_act(bi_digest *d, unsigned fam, const bi_words *args);
/* A free phrase: its first sentence, "I" dropped, as a note and an act. */
void bi_digest_note(bi_digest *d, bi_span s);
/* A one-line text in the builtin's grammar, clause by clause. */
void bi_digest_sentences(bi_digest *d, const char *text);

/* Merge the digest `x` of one more text into `d`: the lists with their
 * counts, the speech and "more" counts, person and opaque. Gives what
 * bi_digest_add of that text into `d` gives in everything a summary reads
 * (acts and words, which relevance reads, are not merged). */
void bi_digest_merge(bi_digest *d, const bi_digest *x);

/* ------------------------------------------------------------- caching -- */

/*
 * What the builtin keeps between calls (builtin_cache.c): per text, its
 * digest and the token counts of its prompt pieces (prompts.h); token
 * counts of time ranges; what it derived from the rules last seen. A cache
 * is not thread-safe: the policy's context (builtin.c) holds it under a
 * mutex. Borrowed results are valid until the next call into the cache.
 */
#define BI_CACHE_ENTRIES 8192          /* texts kept */
#define BI_CACHE_BYTES (16u << 20)     /* bytes of kept texts and digests */
#define BI_CACHE_MAX_TEXT (64u << 10)  /* a longer text is not kept */

typedef struct bi_cache_stats {
	uint64_t hits, misses, evictions;
	size_t entries, bytes;
} bi_cache_stats;

/* 0 = the default bound. 0 or -1 (out of memory). */
int bi_cache_new(bi_cache **out, size_t max_entries, size_t max_bytes);
void bi_cache_free(bi_cache *c);
/* Merge the digest of `text` (lists only: bi_digest.lists_only) into `d`
 * as bi_digest_merge does. -1 when out of memory. */
int bi_cache_merge(bi_cache *c, bi_digest *d, const char *text);
/* pr_piece_tokens, pr_range_tokens and pr_rules_msg_tokens, remembered
 * (`cache` is a bi_cache: these fill a pr_pieces). */
uint64_t bi_cache_piece(void *cache, const char *text, int kind);
uint64_t bi_cache_range(void *cache, int64_t t0, int64_t t1, int with_date, int kind);
uint64_t bi_cache_rules_msg(void *cache, const pol_rules *rules);
/* The pieces above as a pr_pieces for pr_group_tokens and
 * pr_summarize_tokens. */
pr_pieces bi_cache_pieces(bi_cache *c);
/* bi_rule_words of `rules`, borrowed; NULL when out of memory. */
const bi_words *bi_cache_rule_words(bi_cache *c, const pol_rules *rules);
bi_cache_stats bi_cache_get_stats(const bi_cache *c);

/* The builtin policy's context: one cache under a mutex. Every call that
 * uses the cache holds the mutex for the whole call, so any thread may
 * call the policy; a NULL context means "no cache" (every call computes
 * from scratch, as a reference). */
typedef struct bi_ctx bi_ctx;

/* A builtin policy whose cache has the given bounds (0 = default), for
 * tests of eviction; pol_builtin_new uses the defaults (builtin.c). */
int bi_policy_new(h2emv_policy **out, size_t max_entries, size_t max_bytes, h2emv_error *err);
/* builtin_ctx.c, which calls none of the decisions: a new context with a
 * cache of those bounds (0 or -1, out of memory), and its freeing (the
 * policy's destroy; NULL is fine). */
int bi_ctx_new(bi_ctx **out, size_t max_entries, size_t max_bytes);
void bi_ctx_free(void *ctx);
/* Lock the context's cache (NULL ctx: NULL, nothing locked) / unlock it. */
bi_cache *bi_ctx_lock(void *ctx);
void bi_ctx_unlock(void *ctx);
/* The cache's counters (zeros for a NULL context). */
bi_cache_stats bi_ctx_stats(void *ctx);

/* --------------------------------------------------------------- rules -- */

/*
 * A relevance rule as the builtin understands it: clauses (split at "; ",
 * " or when ", " or if ", ", or "), each with object words (a match needs
 * any one), action families (any one) and whether a person must be met.
 * `keep` is 0 for rules that ask to keep nothing ("you may forget ...",
 * "you don't need to remember ..."). The default rule is recognised by
 * bi_rule_is_default, not by `keep`.
 */
typedef struct bi_clause {
	bi_words objs;
	unsigned fam;
	int person;
} bi_clause;

typedef struct bi_rule {
	bi_clause *c;
	size_t n;
	int keep;
	int oom;
} bi_rule;

void bi_rule_parse(bi_rule *r, const char *text);
/* A lower-cased copy (ASCII; the typographic apostrophe becomes '),
 * malloc'd, NULL when out of memory. */
char *bi_lower(const char *s);
void bi_rule_free(bi_rule *r);
/* Is `i` of `rules` the default rule (index 0 and about forgetting)? */
int bi_rule_is_default(const pol_rules *rules, size_t i);
/* The object words of every rule that asks to keep something (the
 * default rule and NULL rules skipped), added to `out`; -1 out of memory
 * (builtin_words.c: the cache and the summaries both ask it). */
int bi_rule_words(bi_words *out, const pol_rules *rules);
/* Content words of a rule or feedback, for comparing rules: normalised
 * words less stop words, a family word replaced by "#<family>", person
 * words by "#person". */
void bi_content_words(bi_words *out, const char *text);

#endif
