/*
 * llm.h — the `llm` policy: the memory's judgements made by a language
 * model behind an OpenAI-compatible server (llama.cpp, vLLM, Ollama,
 * OpenAI), or replayed from a cassette. See llm.c for the fallbacks and
 * docs/llm.md for setting it up.
 */
#ifndef H2EMV_POLICY_LLM_H
#define H2EMV_POLICY_LLM_H

#include "api/policy/policy.h"

/* A new llm policy from the JSON config at `config_path` (NULL: defaults
 * and H2EMV_LLM_* environment variables only; llm_client.h lists them).
 * No request is sent here. Free with pol_free. Returns OK, EINVAL (bad
 * config, naming the key), EIO (unreadable file or cassette), ENOMEM. */
int pol_llm_new(h2emv_policy **out, const char *config_path, h2emv_error *err);

/* The evaluation's LLM judge: sort `answer` into the paper's fine
 * categories (*category: 0 correct, 1 correct_summarized, 2 correct_tmi,
 * 3 partially_correct_tmi, 4 partially_correct_missing, 5 wrong,
 * 6 no_answer; the order of bench/eval/judge.h). `p` must be an llm policy
 * (EINVAL otherwise). A reply that does not parse, twice, gives EPARSE:
 * the caller falls back to its deterministic judge. */
int pol_llm_judge(h2emv_policy *p, const char *question, const char *truth, int64_t ref_t0,
                  int64_t ref_t1, const char *answer, int *category, pol_usage *u,
                  h2emv_error *err);

#endif
