/*
 * llm_parse.h — reading a model's reply for the llm policy: one parser per
 * decision, each turning the assistant message into the policy's result and
 * checking it against the request, and the JSON schemas a server can
 * enforce (structured output) for the same decisions.
 *
 * Every parser accepts both forms of a reply:
 *
 *   - the text form the prompts (prompts.h) ask for: "Reasoning: ... JSON:
 *     {...}", "Summary: ...", "Relevance: n|inf", a numbered list,
 *     "Action: ...", "Route: ..." + "Reply: ...";
 *   - the JSON object a server produces under lp_schema(decision): the
 *     whole reply is that object.
 *
 * Both forms tolerate what models add around an answer: markdown code
 * fences, chatter before and after, "**" and "#" decorations on a label
 * line, label case ("json:", "JSON :"). A label is looked for at the start
 * of a line first (the last such line wins: a model that corrects itself
 * wins with its last word), then anywhere in the text. A reply that starts
 * with '{' (after blanks and an opening fence) is read as the JSON form.
 *
 * Errors. A reply that does not parse or does not fit the request gives
 * H2EMV_EPARSE with a short message written for the model, not for a
 * person: the llm policy asks once more with the message appended, so it
 * names the fault and, where it can, the fix (`range "5-3" overlaps range
 * "3-0"`). Messages are valid UTF-8 and never longer than the error slot;
 * quoted pieces of the reply are cut to a few dozen bytes. A reply longer
 * than LP_MAX_REPLY gives H2EMV_ELIMIT, out of memory H2EMV_ENOMEM, a NULL
 * argument or a malformed request H2EMV_EINVAL. On any error the outputs
 * are left empty (NULL, 0) and nothing needs freeing.
 *
 * Work is linear in the length of the reply (plus the size of the request),
 * whatever the bytes: replies are untrusted input.
 *
 * Ownership: the reply and the request are borrowed for the call. Results
 * are malloc'd and belong to the caller, freed with the policy's own
 * functions (pol_groups_free, pol_rule_list_free, pol_qa_action_free) or
 * free(). All functions are thread-safe (no shared state).
 */
#ifndef H2EMV_LLM_PARSE_H
#define H2EMV_LLM_PARSE_H

#include <stddef.h>

#include <jansson.h>

#include "api/policy/policy.h"

/* ---------------------------------------------------------------- limits -- */

#define LP_MAX_REPLY (256u << 10) /* bytes of one reply */
#define LP_MAX_SUMMARY 2000       /* bytes of a summary (group or plain) */
#define LP_MAX_RULES 64           /* rules in a list */
#define LP_MAX_RULE 1000          /* bytes of one rule */
#define LP_MAX_IDS 256            /* ids in one QA action */
#define LP_MAX_TEXT 4000          /* bytes of an answer, a search, a route reply */

/* ------------------------------------------------------------- decisions -- */

/* The decisions, in the order of llm_client.h's `enum llm_decision`
 * (LLM_D_GROUP ... LLM_D_ROUTE), so a value of one is a value of the other;
 * this header does not include that one to keep the parsers free of the
 * transport. The client's last decision, LLM_D_JUDGE, has no parser here:
 * the evaluation's judge reads its own replies (bench/eval/judge_llm.c). */
enum lp_decision {
	LP_GROUP = 0,
	LP_SUMMARIZE,
	LP_RELEVANCE,
	LP_LEARN,
	LP_QA,
	LP_ROUTE,
	LP_COUNT
};

/* ---------------------------------------------------------- the parsers -- */

/*
 * Group and summarize. The reply maps item ranges to summaries, only for
 * the groups that change or are new:
 *   text:  Reasoning: ...  JSON: {"5-3": "summary", "2-0": "summary"}
 *   JSON:  {"reasoning": "...", "groups": [{"range": "4-0", "summary": "..."}]}
 * (a bare {"4-0": "..."} is read as the map, a "reasoning" member in it is
 * ignored). Items are numbered as in the
 * prompt, newest = 0; number k is item index n_items - 1 - k.
 *
 * Checked against `req` (all problems found are reported together, "; "
 * between them): every key is "hi-lo" with hi >= lo, or "k" (spaces around
 * the dash and an en dash are accepted); every number is < n_items; ranges
 * do not overlap; every new item (numbers n_new - 1 .. 0) is covered; every
 * summary is a non-empty string (trimmed) of at most LP_MAX_SUMMARY bytes.
 * A previous group (req->old_groups) must be taken whole or not at all:
 * ranges may split it among themselves (that is regrouping), but if some
 * of its items are in a range and others are in none, the reply is refused
 * (`range "5-3" cuts the previous group "6-4"; include 6 or leave 5-4 out`)
 * rather than leaving the rest under a summary that no longer fits it.
 *
 * *out is the full partition of all n_items items, oldest first: the
 * reply's ranges plus every previous group no range touched, which keeps
 * its range and a copy of its summary (so it reads as unchanged). Free
 * with pol_groups_free. EINVAL when req's old groups are not a partition
 * of its old items.
 */
int lp_group(const char *reply, const pol_group_req *req, pol_group_reply *out,
             h2emv_error *err);

/*
 * One summary: "Summary: ..." (the paragraph after the last label, up to a
 * blank line or a fence, trimmed, surrounding quotes taken off) or
 * {"summary": "..."}. Non-empty, at most LP_MAX_SUMMARY bytes, valid UTF-8.
 * *out malloc'd.
 */
int lp_summary(const char *reply, char **out, h2emv_error *err);

/*
 * Relevance α of an expired node: the last "Relevance:" line, whose value
 * is a decimal number >= 0 ("3", "0.5", "2." ; no sign, no exponent, no
 * decimal comma, at most 15 digits before the point) or "inf" / "infinity" / "∞" (any case), which
 * gives INFINITY; decorations around it ("**1**", "`inf`", a trailing ".")
 * and words after it are ignored. JSON: {"reasoning": "...", "relevance":
 * 3 | "inf"} (a number, or a string holding one of the above). Negative,
 * NaN, missing or anything else is EPARSE.
 */
int lp_relevance(const char *reply, double *alpha, h2emv_error *err);

/*
 * A new rule list: the last numbered list in the reply ("1. ...", "2) ...";
 * the numbers themselves are not checked), or, when the reply has no
 * numbered line, the last bullet list ("- ..." / "* ..."). Other lines
 * before it (a preamble) are ignored. Inside the list, a line indented
 * deeper than the list's markers continues the rule above (joined with
 * "\n", as pr_add_rules renders a rule of several lines), a blank line is
 * skipped, and any other unmarked line ends the list. Each rule is
 * trimmed, items left empty are dropped, exact duplicates are dropped
 * (the first kept). At most LP_MAX_RULES rules of at most LP_MAX_RULE
 * bytes, valid UTF-8.
 *
 * An empty list is a valid answer only when said explicitly: the JSON
 * form {"rules": []}, or a text reply with no list and a line that reads
 * just "none" or "no rules" (any case, in parentheses or not, "." after
 * it allowed). Anything else without a list is EPARSE.
 * JSON: {"rules": ["...", ...]}, each string read like a list item (lines
 * trimmed, blank lines and fence lines dropped), so a rule is the same
 * whichever form it came in and parses back unchanged from what
 * pr_add_rules renders. Free with pol_rule_list_free.
 */
int lp_rules(const char *reply, pol_rule_list *out, h2emv_error *err);

/*
 * One step of question answering: the last "Action:" line, one of
 *   expand([12, 15])          (also expand(12, 15), expand(12))
 *   expand_range("2024/09/23 10:00", "2024/09/23 11:00")
 *   search("knife")           (also search("knife", t0, t1): only in that range)
 *   answer("text", [12])      (the ids may be [] or left out)
 * Tool names in any case (upstream's "history." prefix accepted); strings in
 * double or single quotes with \" \' \\ \n \t escapes; "name=" before an
 * argument is skipped; anything after the closing ")" is ignored. Without
 * an "Action:" label, the last line that starts with such a call is read. Times are UTC, "YYYY/MM/DD HH:MM[:SS]" (or
 * '-' between the date's parts, 'T' before the time) or the date alone. t0
 * is the start of what it names and t1 the end of it (expand_range("…
 * 10:00", "… 10:00") is that whole minute, a date the whole day); a t1
 * without a date takes t0's. JSON: {"reasoning", "action":
 * "expand|expand_range|search|answer", "ids": [...], "t0", "t1", "text"}
 * (the fields an action does not use may be "", [] or null and are
 * ignored; an id may be a number or a string of digits).
 *
 * Checked against `view`: every id is a node of the view (duplicates are
 * dropped), at most LP_MAX_IDS; expand has at least one id; t0 <= t1; a
 * search or an answer has a non-empty text of at most LP_MAX_TEXT bytes;
 * on the last round (view->round + 1 >= view->max_rounds) the action must
 * be answer. For answer, out->forgotten is set when a cited node is
 * forgotten or the text says so ("forgot", "forgotten", "no longer
 * remember", "don't remember", "do not remember", "cannot remember",
 * "can't remember"; any case). Free with pol_qa_action_free.
 */
int lp_qa(const char *reply, const pol_qa_view *view, pol_qa_action *out, h2emv_error *err);

/*
 * Route an utterance: "Route: question|feedback|other" (the first word
 * after the last label, any case; "reply" means other) and, for other,
 * "Reply: ..." (the paragraph after the last label, up to a blank line, a
 * fence or a "Route:" / "Reasoning:" line). JSON: {"reasoning": "...",
 * "route": "question|feedback|other", "reply": "..."}. *route is a
 * pol_route; *reply_text is malloc'd (non-empty, at most LP_MAX_TEXT
 * bytes) for POL_ROUTE_REPLY and NULL otherwise: other without a reply
 * is EPARSE.
 */
int lp_route(const char *reply, int *route, char **reply_text, h2emv_error *err);

/* ------------------------------------------------------------ schemas -- */

/* The JSON schema of a decision's reply (static text; NULL outside the
 * enum), for response_format {"type": "json_schema", "json_schema":
 * {"name": lp_schema_name(d), "strict": true, "schema": <this>}}: every
 * object lists all its properties as required and forbids others, as
 * strict mode demands. Fields an action does not use are still present
 * ("" or []). The parsers above read what these schemas produce. */
const char *lp_schema(int decision);
/* The schema's name ("group", "summarize", ...); NULL outside the enum. */
const char *lp_schema_name(int decision);

/* ------------------------------- shared by the parsers (not for callers) -- */

/* Check the reply's argument and size; returns H2EMV_OK or an error. */
int lp_check_reply(const char *reply, h2emv_error *err);
/* Is the reply the JSON form (after blanks and an opening fence, '{')? */
const char *lp_json_start(const char *reply);
/* Parse the JSON object starting at `p` (text after it is allowed);
 * EPARSE with jansson's reason when it does not parse or is not an
 * object. */
int lp_json_parse(json_t **out, const char *p, h2emv_error *err);
/* The first '{' that begins a line (after blanks), or NULL. */
const char *lp_json_line(const char *reply);
/* A member by name, exact first, then in any case; NULL when absent. */
json_t *lp_json_get(json_t *obj, const char *key);
/* Where the value after the last "label:" starts (line-start labels first,
 * then anywhere), or NULL. `label` is lower case, without the colon. */
const char *lp_label(const char *reply, const char *label);
/* The paragraph at p: blank lines skipped, then lines up to a blank line,
 * a fence, or a line starting with one of the labels in `stops` (NULL-
 * terminated, may be NULL). Sets [*b, *e). */
void lp_paragraph(const char *p, const char *const *stops, const char **b, const char **e);
/* The end of the line at p (its '\n' or the final NUL). */
const char *lp_line_end(const char *p);
/* The last line that says something (blank and fence lines aside): sets
 * [*b, *e) and returns 1, or 0 when there is none. */
int lp_last_line(const char *reply, const char **b, const char **e);
/* Trim blanks (and one pair of surrounding quotes when `unquote`) off
 * [*b, *e). */
void lp_trim(const char **b, const char **e, int unquote);
/* A copy of [b, e) after lp_trim (unquoting), checked: non-empty, at most
 * `max` bytes, valid UTF-8; `what` names it in the message ("the
 * summary"). */
int lp_text_dup(char **out, const char *b, const char *e, size_t max, const char *what,
                h2emv_error *err);
/* A string member `key` of obj, copied like lp_text_dup; EPARSE when it is
 * missing or no string. */
int lp_json_text_dup(char **out, json_t *obj, const char *key, size_t max, const char *what,
                     h2emv_error *err);
/* A printable, UTF-8-safe quotation of [s, s + n) for a message, cut to
 * fit `cap` (callers pass 64: a quotation of at most ~56 bytes): control
 * bytes as spaces, invalid bytes as '?', "..." when cut. */
void lp_snip(char *buf, size_t cap, const char *s, size_t n);
/* Case-insensitive ASCII: does `s` start with `word` (lower case)? */
int lp_starts_ci(const char *s, const char *word);

#endif
