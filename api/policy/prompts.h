/*
 * prompts.h — the chat prompts of every policy decision, rendered as the
 * llm policy sends them, and the token estimate the builtin policy reports
 * for them. One renderer serves both, so the builtin's cost is the cost the
 * llm policy would pay for the same decision.
 *
 * The prompts follow the structure of the paper's appendix (system role,
 * rules, the items, the instruction, the answer format) in our own words.
 *
 * Rendering rules (all deterministic, all times UTC):
 *
 *   Time ranges (pr_time_range): a span over one day prints dates only
 *   ("2024/09/23 - 2024/09/25"); over three minutes, minutes
 *   ("2024/09/23 10:03 - 10:20"); otherwise seconds
 *   ("2024/09/23 10:03:13 - 10:03:55"). The end repeats the date only when
 *   it falls on another day. The grouping prompt leaves the date out of an
 *   item whose start day equals the previous item's (as upstream does).
 *
 *   Item numbering: items are numbered newest = 0, counting up into the
 *   past. A group of items i..j (oldest first) is keyed "hi-lo" with
 *   hi = n-1-i, lo = n-1-j, or "k" for a single item.
 *
 *   Trimming an item's text (pr_trim): keep whole lines from the start, at
 *   most `max_lines` of them and at most `max_chars` bytes in all; if the
 *   first line alone is longer than `max_chars`, keep it up to the last
 *   space within the limit (never mid-word; a first word longer than the
 *   limit is kept whole). A trimmed text is marked with " ...". The
 *   grouping prompt trims every old item (and old group summary) to
 *   PR_OLD_LINES lines / PR_OLD_CHARS bytes and shows the current (new)
 *   items in full; the summary prompt trims to PR_SUM_LINES / PR_SUM_CHARS.
 *
 *   Budget (grouping prompt only): when the whole prompt's token estimate
 *   exceeds the budget, the oldest old items are dropped whole, one at a
 *   time, until it fits (an item is never cut part-way by the budget); a
 *   group all of whose items were dropped loses its header line too, and a
 *   line "(N older items left out)" says what went. Current items are never
 *   dropped, so a prompt with only current items may stay over budget.
 *
 * Ownership: every pr_* builder fills a pr_prompt the caller frees with
 * pr_prompt_free; on failure the prompt is left empty.
 */
#ifndef H2EMV_PROMPTS_H
#define H2EMV_PROMPTS_H

#include <stddef.h>
#include <stdint.h>

#include "api/policy/policy.h"
#include "api/base/strbuf.h"

/* ------------------------------------------------------------ prompts -- */

typedef struct pr_msg {
	const char *role; /* "system" or "user" (static strings) */
	char *text;       /* malloc'd */
} pr_msg;

typedef struct pr_prompt {
	pr_msg *msgs;
	size_t n, cap;
} pr_prompt;

void pr_prompt_free(pr_prompt *p);
/* Append a message (text copied). H2EMV_OK or H2EMV_ENOMEM. */
int pr_prompt_add(pr_prompt *p, const char *role, const char *text, h2emv_error *err);
/* All messages joined as "role: text\n\n" (for logs, cassettes, tests);
 * malloc'd, NULL when out of memory. */
char *pr_prompt_flat(const pr_prompt *p);

/* ------------------------------------------------------- time and text -- */

/* Large enough for any range pr_time_range prints. */
#define PR_TIME_MAX 64

/* "YYYY/MM/DD HH:MM:SS" for t (µs since the epoch, UTC). Returns buf. */
char *pr_time_point(char *buf, size_t cap, int64_t t);
/* A time range by the rule above. `with_date` 0 leaves the start date out
 * (the grouping prompt, same day as the previous item). Returns buf. */
char *pr_time_range(char *buf, size_t cap, int64_t t0, int64_t t1, int with_date);

/* Trimming limits (see the rule at the top). */
#define PR_OLD_LINES 3
#define PR_OLD_CHARS 200
#define PR_SUM_LINES 8
#define PR_SUM_CHARS 600

/* The length of the kept prefix of `text` under the trimming rule; *cut
 * (may be NULL) is set to 1 when something was left out. */
size_t pr_trim(const char *text, unsigned max_lines, size_t max_chars, int *cut);

/* The range key of items [first, last] (oldest = 0) among n: "hi-lo"/"k". */
void pr_range_key(char *buf, size_t cap, size_t first, size_t last, size_t n);

/* ------------------------------------------------ shared by the builders -- */

/* "1. rule\n" per rule. */
void pr_add_rules(pr_str *b, const pol_rules *rules);
/* The first `n` bytes of `text`; every line after the first is preceded by
 * `indent`. */
void pr_add_text(pr_str *b, const char *text, size_t n, const char *indent);
/* `text` trimmed by the rule (marked " ..." when cut), lines indented. */
void pr_add_trimmed(pr_str *b, const char *text, unsigned lines, size_t chars,
                    const char *indent);
/* Day number (since the epoch, UTC) of t, to compare calendar days. */
int64_t pr_day(int64_t t);
/* Check that req's old groups partition its old items (EINVAL if not). */
int pr_check_group_req(const pol_group_req *req, h2emv_error *err);

/* ------------------------------------------------------------ builders -- */

/* Default token budget of the grouping prompt. */
#define PR_GROUP_BUDGET 4000

/* Group-and-summarize: system role; the rules (when req->rules is set);
 * "Previous actions:" (each old group "# (hi - lo) summary" and its items
 * "- i: <time range>: <text>"); "Current:" with the new items; the
 * instruction; the answer format "Reasoning: ... JSON: ...". `budget` in
 * tokens, 0 = PR_GROUP_BUDGET. EINVAL when the old groups are not a
 * partition of the old items. */
int pr_group(pr_prompt *out, const pol_group_req *req, uint64_t budget, h2emv_error *err);

/* One summary for `items` (children of one node at level + 1). */
int pr_summarize(pr_prompt *out, const pol_item *items, size_t n, int level,
                 const pol_rules *rules, h2emv_error *err);

/* Relevance of an expired node: answer "Reasoning: ... Relevance: n|inf". */
int pr_relevance(pr_prompt *out, const pol_relevance_req *req, h2emv_error *err);

/* Rewrite the rules from feedback: answer a numbered list. `old` may be
 * NULL (no rules). */
int pr_learn(pr_prompt *out, const pol_rules *old, const char *feedback, h2emv_error *err);

/* Route an utterance: question, feedback or other. */
int pr_route(pr_prompt *out, const char *utterance, h2emv_error *err);

/* One step of question answering over the current view. Rounds count from
 * 0; the round with round + 1 >= max_rounds is told to answer now. */
int pr_qa_step(pr_prompt *out, const pol_qa_view *view, h2emv_error *err);

/* -------------------------------------------------------------- tokens -- */

/*
 * Token estimate (tokens.c), a stand-in for a BPE tokenizer's count
 * (OpenAI's cl100k/o200k, Llama 3's tiktoken-style vocabulary), which we do
 * not ship. It follows how those tokenizers cut English and code-like text:
 *
 *   - a run of ASCII letters is split at lower-to-upper case changes
 *     ("MakeBreakfast" = "Make" + "Breakfast"); each piece of L letters
 *     costs 1 + (L - 1) / 7 tokens (common words up to 7 letters are one
 *     token, longer ones two or more);
 *   - a run of ASCII digits costs one token per started 3 digits (the
 *     tokenizers group digits by three);
 *   - every other ASCII printable character (punctuation) costs 1;
 *   - whitespace: one space is free (it joins the next token); a newline,
 *     a tab, or a run of two or more spaces costs 1;
 *   - every other byte sequence (UTF-8 beyond ASCII, or invalid bytes)
 *     costs 1 per character (a lead byte with its continuation bytes; a
 *     stray byte alone) — non-Latin text is about one token per character.
 *
 * A chat request adds TOK_PER_MESSAGE per message (role and delimiters)
 * and TOK_PER_REPLY once (the priming of the assistant's reply), as
 * OpenAI's own counting recipe for chat models does.
 */
#define TOK_PER_MESSAGE 4
#define TOK_PER_REPLY 3

/* Tokens in n bytes of text. */
uint64_t tok_count(const char *s, size_t n);
/* Tokens in a NUL-terminated text (NULL = 0). */
uint64_t tok_text(const char *s);
/* Tokens of a whole chat request: every message's text plus the overheads. */
uint64_t tok_prompt(const pr_prompt *p);

/*
 * Where the estimate is additive: tok_count(a + b) = tok_count(a) +
 * tok_count(b) whenever the last byte of `a` or the first byte of `b` is
 * an ASCII byte other than a letter, a digit or a space (punctuation, a
 * newline, a tab): such a byte is a token of its own, so no run (letters,
 * digits, spaces) continues across it, and it is no UTF-8 continuation
 * byte, so no multi-byte character does either. (A run that merely ends at
 * the split is counted the same either way.) tok_splits_clean says
 * whether a split between two bytes is of this kind.
 */
int tok_splits_clean(unsigned char last_of_a, unsigned char first_of_b);

/* ------------------------------------------------- tokens without render -- */

/*
 * The token estimate of a grouping or summary prompt, computed from its
 * pieces instead of rendering it, for the builtin policy, which renders a
 * prompt only to count it. Every piece is cut at a clean split (above), so
 * the sum equals tok_prompt of the rendered prompt exactly
 * (tests/test_prompts.c checks this on random requests). The pieces that
 * carry item text or times can be supplied by a caller that caches them:
 *
 *   PR_PIECE_CURRENT  ": " + text in full, lines indented + "\n"   (grouping, a current item)
 *   PR_PIECE_OLD      ": " + text trimmed to PR_OLD_LINES/PR_OLD_CHARS + "\n" (an old item)
 *   PR_PIECE_HEADER   ") " + summary trimmed to 1 line/PR_OLD_CHARS + "\n" (an old group)
 *   PR_PIECE_SUMMARY  ": " + text trimmed to PR_SUM_LINES/PR_SUM_CHARS (summary prompt)
 *   PR_RANGE_GROUP    ": " + time range            (grouping: "- N" before it)
 *   PR_RANGE_SUMMARY  "\n- " + time range         (summary prompt)
 */
enum pr_piece {
	PR_PIECE_CURRENT = 0,
	PR_PIECE_OLD = 1,
	PR_PIECE_HEADER = 2,
	PR_PIECE_SUMMARY = 3,
	PR_PIECE_KINDS = 4
};
enum pr_range_piece { PR_RANGE_GROUP = 0, PR_RANGE_SUMMARY = 1 };

/* Tokens of a text piece (NULL text = ""). */
uint64_t pr_piece_tokens(const char *text, int kind);
/* Tokens of a time-range piece (`with_date` as for pr_time_range). */
uint64_t pr_range_tokens(int64_t t0, int64_t t1, int with_date, int kind);
/* Tokens of the rules message the grouping and summary prompts share. */
uint64_t pr_rules_msg_tokens(const pol_rules *rules);

/* Where the pieces come from: each member may be NULL (computed then). */
typedef struct pr_pieces {
	void *arg;
	uint64_t (*text)(void *arg, const char *text, int kind);
	uint64_t (*range)(void *arg, int64_t t0, int64_t t1, int with_date, int kind);
	uint64_t (*rules)(void *arg, const pol_rules *rules);
} pr_pieces;

/* *out = tok_prompt of what pr_group(req, budget) renders (same errors).
 * `pc` may be NULL. */
int pr_group_tokens(uint64_t *out, const pol_group_req *req, uint64_t budget,
                    const pr_pieces *pc, h2emv_error *err);
/* *out = tok_prompt of what pr_summarize renders (same errors). */
int pr_summarize_tokens(uint64_t *out, const pol_item *items, size_t n, int level,
                        const pol_rules *rules, const pr_pieces *pc, h2emv_error *err);

#endif
