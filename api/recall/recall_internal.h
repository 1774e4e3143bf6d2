/*
 * recall_internal.h — what the recall_*.c files that answer a question
 * share and nothing else uses: a candidate fact and the answering context
 * (rctx), and the steps one file takes from another. The question path reads
 * one way: the words match (recall_words.c) and score (recall_score.c), the
 * walk collects candidates (recall_walk.c), they are shortlisted and picked
 * (recall_pick.c), answered by kind (recall_kinds.c, recall_count.c,
 * recall_amount.c), anchored on a moment when the question asks around one
 * (recall_anchor.c), all from the entry (recall.c).
 */
#ifndef H2EMV_RECALL_INTERNAL_H
#define H2EMV_RECALL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api/base/strbuf.h"
#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/recall/recall_index.h"

#define NOT_FOUND "I could not find that in my memory."
#define FORGOTTEN "I have forgotten that."
#define NODE_TOKENS 3
#define MAX_DEPTH 64
#define LIST_MAX 10

typedef struct cand {
	const fact *f;
	h2emv_ref ref;
	double score;
	int coarse;
	int hits;               /* question words it matched */
	int me;                 /* said by the robot itself (is_me) */
	int complete;           /* it matched every word of the question */
} cand;

typedef struct rctx {
	const rquestion *q;
	h2emv_snap *snap;
	const robot_profile *prof;
	int64_t now;
	facts **sets;           /* decoded fact sets, owned */
	size_t n_sets, cap_sets;
	cand *c;
	size_t n, cap;
	uint64_t tokens, budget;
	int cut;                /* the budget stopped the walk */
	int forgot;             /* a forgotten placeholder in scope matched */
	uint64_t fact_nodes;    /* nodes read that carry typed facts */
	h2emv_ref forgot_ref;
	pr_str trace;
	int want_trace;
	int oom;
	const h2emv_node *root;
	h2emv_error *err;
	int nth_second;         /* the n-th occurrence is the second of a pair */
	int early;              /* one answer by order: walk newest (or oldest) first... */
	int settled;            /* ...and stop once a finished fact matches every word */
	int tasks;              /* scenes read here yield task facts (not skill-stack) */
	ridx *ix;               /* the term index (recall_index.h); NULL: none */
	int newest;             /* "who did you meet last": newest first, and pass by... */
	int64_t newest_t1;      /* ...every node that ends before the newest candidate */
} rctx;


/* recall_words.c */
int counted_amount(const char *s, const rquestion *q, char *out, size_t cap);
/* The same for the thing a count asks for alone ("how many workers":
 * "17 workers signed in"). */
int stated_count(const char *s, const rquestion *q, char *out, size_t cap);
int key_names(const lex_word *w, const rq_term *t);
int next_part(const char **p, char *out, size_t cap);

/* f as one line of text, NUL-terminated, into r (facts_render_one); 0
 * when it could not be written (r is then empty and freed). */
int render_text(eng_buf *r, const fact *f);
int named_part(const char *state, const rq_term *t, char *out, size_t cap, double *num);
int amount_of(const rquestion *q, const fact *f, double *v, char *key, size_t cap);
int is_act(const fact *f);
int word_in(const char *s, const rq_term *t);
int word_in_text(const char *s, const rq_term *t);
int addressee(const char *text, char *out, size_t cap);
int seen_said(const char *text, char *out, size_t cap);
int type_ok(const rquestion *q, const fact *f);
double verb_match(const rq_term *v, const fact *f);

/* recall_score.c */
int is_me(const rquestion *q, const facts *set, const char *name);
/* recall_speaker.c: was a person named by t listed as present while f ran
 * (within a minute of it); in a question about words, does the speaker of
 * f fit (its weight added to *s; 0 when it rules f out)? */
int present_at(const facts *set, const fact *f, const rq_term *t);
int match_speaker(const rquestion *q, const fact *f, const facts *set, double *s);
double score_hits(const rquestion *q, const fact *f, const facts *set, int *hits_out);
double score_in(const rquestion *q, const fact *f, const facts *set);
/* Does the word `t` of the question stand in the fact (its slots, name or
 * text)? */
int fact_holds(const rquestion *q, const fact *f, const rq_term *t);
/* The same in the slots that name a thing (object, places, who, name). */
int slot_holds(const fact *f, const rq_term *t);
double score(const rquestion *q, const fact *f);

/* recall_walk.c */
int content_terms(const rquestion *q);
int walk(rctx *x, const h2emv_node *n, int depth, h2emv_error *err);
int collect(rctx *x, const rquestion *q);
const char *whereabouts(rctx *x, const rquestion *q, int64_t t);
const char *whereabouts_ref(rctx *x, const rquestion *q, int64_t t, h2emv_ref *ref);

/* recall_pick.c */
char *fmt_dt(char *buf, size_t cap, int64_t t);
const char *weekday_name(int64_t t);
void add_display(pr_str *b, const char *id);
void add_display_for(pr_str *b, const rquestion *q, const char *id);
int cmp_time_asc(const void *a, const void *b);
size_t shortlist(rctx *x, int mix);
const cand *pick(rctx *x, size_t k);
int pick_for(const cand **out, rctx *x, const rquestion *a, const rquestion *q);
int64_t when_of(const rctx *x, const fact *f);
int add_evidence(h2emv_answer *a, h2emv_ref r);
void say_where(pr_str *b, const rctx *x, const fact *f);
void list_add(pr_str *b, size_t *n, const char *s);
int listed(const pr_str *seen, const char *s);
void remember(pr_str *seen, const char *s);
void seen_items(pr_str *b, pr_str *seen, size_t *n, const fact *f);
int longer_name(const char *full, const char *part);
int generic_name(const char *who);
const cand *best_evidence(const rctx *x);

/* recall_value.c: the answer to a question about a measured value from
 * the candidate c, 0 when its parameters hold none. */
int value_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c);

/* recall_reason.c: the note or words logged with a failed run c, added to
 * the answer b when the answer does not hold them yet. */
void add_told_reason(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);

/* recall_amount.c */
/* The subject of the clause of `text` that holds the verb ("Ortega" of
 * "Ember, Ortega took the halligan to the training ground"), into out. */
int clause_subject(const char *text, const rq_term *verb, char *out, size_t cap);
/* The same for who did what "who ... did" asks, in a note or (for an agent
 * question) in someone's words: 1 and the subject in out. */
int deed_subject(const rquestion *q, const fact *f, char *out, size_t cap);
void answer_evidence(rctx *x, pr_str *b, h2emv_answer *a);
const char *matched_thing(const rquestion *q, const fact *f, char *part, size_t cap);
int key_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);
int people_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
int sum_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
int64_t run_start(const rctx *x, const fact *f, size_t n);
int distinct_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
/* "Which room did you clean most often": the things tallied, the top
 * first (q->most: 1 most, -1 least). 0 when no fact gives one. */
int most_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
size_t failures_list(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
int do_by_day(rctx *x, pr_str *b, h2emv_answer *a, size_t k, int by_task, int acts);
/* recall_describe.c: "what was your busiest day", "what do you usually
 * do in the afternoon" over the candidates; 1 when answered. */
int busiest_day(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
int usual_activities(rctx *x, pr_str *b, h2emv_answer *a, size_t k);
/* recall_from.c: "where did you get the lettuce" from the container opened
 * before a take that names no source; 1 when it answered. May walk again
 * (the candidates are replaced). */
int from_opened(rctx *x, pr_str *b, h2emv_answer *a, size_t k, int have_source);

/* recall_kinds.c */
void answer_text(rctx *x, pr_str *b, h2emv_answer *a);

/* recall_count.c */
void answer_count(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);
void answer_yesno(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);
/* recall_said.c */
void answer_said(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);
void answer_steps(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);
void answer_done(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k);

/* recall_anchor.c */
int seen_during(rctx *x, rquestion *q);
int steps_during(rctx *x, rquestion *q);
void drop_term(rquestion *q, size_t i);
int trouble_during(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);
int around_moment(rctx *x, rquestion *q);
int earlier_weekday(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);
int relax(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);
int by_kinds(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);
int count_by_verb(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);
int key_first(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);
int failed_after_request(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err);

#endif
