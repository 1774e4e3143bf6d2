/*
 * recall_index_internal.h — what the two sides of the term index share and
 * nothing else uses: how a term and a group are hashed, and the marks a
 * posting carries (recall_index_build.c writes them, recall_index.c reads
 * them).
 */
#ifndef H2EMV_RECALL_INDEX_INTERNAL_H
#define H2EMV_RECALL_INDEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api/recall/recall_index.h"

#define SEED_STEM 0x73u
#define SEED_GROUP 0x67u
#define WORDS_MAX 64
#define TYPE_GIST 0x80u
#define ROLE_GIST 0x8000u
#define GROUP_FORGOTTEN (-2)
#define GROUP_OPEN (-3) /* goals read whatever the question: still open, or too wordy */
#define TERMS_MAX 512   /* a goal with more distinct words is read, not indexed */

/* recall_index_build.c */
uint64_t group_term(int g);

#endif
