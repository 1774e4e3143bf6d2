/*
 * judge_llm.h — the evaluation's optional LLM judge (`h2emv eval --judge
 * llm`): a question, its ground truth (with the truth's time span) and an
 * answer go to the model, which sorts the answer into the fine categories
 * of judge.h. The prompt, its JSON schema and the reply's parser live here;
 * the exchange goes through the library's public model client
 * (h2emv_llm_chat), so the judge uses the llm policy's configuration,
 * transport and cassettes.
 */
#ifndef H2EMV_JUDGE_LLM_H
#define H2EMV_JUDGE_LLM_H

#include "h2emv.h"

/* One answer to grade. Strings are borrowed; NULL reads as "". */
typedef struct judge_llm_case {
	const char *question, *truth, *answer;
	h2emv_time ref_t0, ref_t1; /* what the truth refers to; both 0 = unknown */
} judge_llm_case;

/* The category (enum judge_fine) the model gives the answer. A reply
 * that names none is shown to the model once with the reason; a second
 * such reply is H2EMV_EPARSE (the caller keeps its deterministic verdict).
 * Tokens of both exchanges are added to *spent (may be NULL).
 * Returns OK, EPARSE, or h2emv_llm_chat's error. */
int judge_llm_grade(int *category, h2emv_tokens *spent, h2emv_llm *llm, const judge_llm_case *c,
                    h2emv_error *err);

/* The judge's messages for `c` (what judge_llm_grade sends first): a
 * system and a user message, malloc'd texts the caller frees.
 * Returns OK or ENOMEM. */
int judge_llm_prompt(char **system, char **user, const judge_llm_case *c, h2emv_error *err);

/* The verdict in a reply: the value after the last "Category:" label, or
 * without one the last non-empty line, is a category name (any case,
 * spaces or '-' for '_', markdown and quotes ignored, up to a '(' ',' ';'
 * or a final '.') or its digit 0-6. JSON: {"reasoning": "...",
 * "category": "<name>"} (a digit, or a number 0-6, is accepted too).
 * Returns OK, EPARSE (*category = -1 and err says why), ELIMIT (a reply
 * over 64 KiB), EINVAL (NULL arguments). */
int judge_llm_parse(int *category, const char *reply, h2emv_error *err);

/* The JSON schema the reply follows under structured output. */
extern const char judge_llm_schema[];

#endif
