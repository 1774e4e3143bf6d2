/*
 * obsgen.h — synthetic robot observations as JSON Lines (docs/formats.md),
 * deterministic from a seed: a household robot working through tasks,
 * each a dotted goal stack of skills, with the objects it sees, their
 * relations, the people around and what they say.
 */
#ifndef H2EMV_BENCH_OBSGEN_H
#define H2EMV_BENCH_OBSGEN_H

#include <stddef.h>
#include <stdint.h>

/* n lines, one observation each, without newlines. line[i] points into
 * one block; line[i][len[i]] is '\0'. */
typedef struct obs_set {
	const char **line;
	size_t *len;
	size_t n;
	size_t bytes; /* sum of len[] */
	char *text;   /* the block */
} obs_set;

/* Generate n observations from `seed`. Returns 0, or -1 out of memory. */
int obsgen_make(obs_set *out, size_t n, uint64_t seed);
void obs_set_free(obs_set *s);

#endif
