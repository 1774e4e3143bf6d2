/*
 * eval.h — the paper's two-round evaluation protocol and its 13 variants.
 *
 * One history is replayed through a fresh memory per variant: observations
 * are ingested and built up to each question's time, the question is asked
 * through the dialog manager (h2emv_say), the answer is judged, and after a
 * round-1 question the feedback sentence is said too (variants that learn).
 * Offline variants build a fresh tree from the whole log at question time
 * (its cost goes to C_qa as "build" tokens); flat variants keep goals
 * straight under the root. See docs/evaluation.md.
 */
#ifndef H2EMV_EVAL_H
#define H2EMV_EVAL_H

#include <stdio.h>

#include "bench/eval/qagen.h"
#include "h2emv.h"

enum ev_construction { EV_ONLINE = 0, EV_OFFLINE = 1, EV_FLAT = 2 };

typedef struct ev_variant {
	const char *id;       /* "A" ... "L" (AA for "no summ. learn.") */
	const char *name;     /* the paper's name: "ours", "no learning", ... */
	int construction;     /* enum ev_construction */
	h2emv_forgetting forgetting;
	int learn_forget;     /* rules condition relevance */
	int learn_summ;       /* rules condition grouping and summaries */
} ev_variant;

#define EV_N_VARIANTS 13
extern const ev_variant ev_variants[EV_N_VARIANTS];
/* The variant with this id (case-insensitive), or NULL. */
const ev_variant *ev_variant_find(const char *id);

/* The outcome of one question. */
typedef struct ev_answer {
	size_t history;
	unsigned pair;
	int round;
	int64_t at;
	char *kind, *question, *truth, *answer;
	int fine, broad;         /* judge categories (bench/eval/judge.h) */
	int span_forgotten;      /* every leaf of the truth span was forgotten */
	uint64_t tokens;         /* dialog tokens for the question */
	uint64_t build_tokens;   /* offline: building the tree at question time */
} ev_answer;

/* Everything measured for one variant over its histories. */
typedef struct ev_result {
	const ev_variant *v;
	ev_answer *a;
	size_t n, cap;
	size_t histories;
	double nf_sum;           /* Σ final L3+ tree size over histories */
	double navg_sum;         /* Σ per-history average tree size */
	uint64_t tok_forget;     /* C_f: relevance estimates, all histories */
	uint64_t tok_build;      /* online construction (not reported by the paper) */
	uint64_t tok_learn;      /* rule learning from the feedback */
	uint64_t tok_judge;      /* the LLM judge, when used */
	size_t judge_fallbacks;  /* LLM judge replies that fell back to the builtin judge */
	double seconds;
} ev_result;

void ev_result_free(ev_result *r);

typedef struct ev_options {
	unsigned version;
	const char *workdir;       /* where the memories are made (required) */
	int keep;                  /* keep the memory directories */
	h2emv_profile profile;     /* 0 = teach */
	h2emv_time judge_tolerance;/* 0 = the judge's default */
	FILE *log;                 /* per-question lines, may be NULL */
	/* called after each question; may be NULL */
	void (*progress)(void *arg, const ev_variant *v, size_t done, size_t total);
	void *progress_arg;
	/* the policy of every memory: NULL/"builtin", or "llm" with llm_config */
	const char *policy;
	const char *llm_config;
	/* the judge: NULL/"builtin" (bench/eval/judge.h), or "llm" (the llm
	 * policy's judge with llm_config; a reply that does not parse falls
	 * back to the builtin judge) */
	const char *judge;
} ev_options;

#define EV_OPTIONS_VERSION 1

/* Run variant v on one history and its questions; appends to `res`.
 * Returns OK or the first error of the memory (with context in err). */
int ev_run_history(ev_result *res, const ev_variant *v, const qg_history *h, const qg_set *qs,
                   size_t history_index, const ev_options *o, h2emv_error *err);

/* Does the tree of `snap` still hold a live leaf (scene) overlapping
 * [t0, t1]? 0 when every leaf there is forgotten (the forgotten ratio's
 * test), 1 when one is alive, -1 on error. */
int ev_span_alive(h2emv_snap *snap, int64_t t0, int64_t t1, h2emv_error *err);

#endif
