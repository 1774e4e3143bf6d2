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

#endif
