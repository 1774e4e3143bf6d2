/*
 * report.h — the paper's metrics from evaluation results, and the three
 * outputs: a TSV per run, a Markdown table, an SVG chart like Figure 3.
 *
 * Metric definitions (percentages of questions unless said otherwise):
 *   S_c   correct (broad category), both rounds together
 *   S_p   correct or partially correct (so S_p >= S_c, as in the paper's tables)
 *   S_up  pairs whose round-2 answer is in a better broad category than round 1
 *   S_eq  pairs whose two answers are in the same broad category
 *   S_c1, S_p1, S_c2, S_p2   S_c and S_p of round 1 / round 2 alone
 *   N_f   L3+ nodes of the final tree (placeholders included), mean over histories
 *   N_avg L3+ nodes averaged over every build step, mean over histories
 *   C_qa  thousands of tokens per question (dialog: routing + answering);
 *         offline variants add the build at question time (C_qa_build)
 *   C_f   thousands of tokens of relevance estimates per history
 *   F_1, F_2  forgotten ratio: questions of round 1 / 2 whose ground-truth
 *         span has no live leaf left at question time
 */
#ifndef H2EMV_REPORT_H
#define H2EMV_REPORT_H

#include <stdio.h>

#include "bench/eval/eval.h"

typedef struct ev_metrics {
	size_t questions, pairs;
	double s_c, s_p, s_up, s_eq, s_c1, s_p1, s_c2, s_p2;
	double n_f, n_avg;
	double c_qa, c_qa_build, c_f, c_learn;
	double f_1, f_2;
	double seconds;
} ev_metrics;

void ev_metrics_of(ev_metrics *m, const ev_result *r);

/* One line per variant: a header line then the values (tab-separated). */
void ev_write_tsv(FILE *f, const ev_result *r, size_t n);
/* One line per question: variant, history, pair, round, kind, category,
 * span forgotten, tokens, question, truth, answer. */
void ev_write_answers_tsv(FILE *f, const ev_result *r, size_t n);
/* The Markdown table in the paper's column order. `title` may be NULL. */
void ev_write_markdown(FILE *f, const ev_result *r, size_t n, const char *title);
/* Grouped bars per variant (rounds 1 vs 2), tree size and QA tokens. */
void ev_write_svg(FILE *f, const ev_result *r, size_t n, const char *title);

#endif
