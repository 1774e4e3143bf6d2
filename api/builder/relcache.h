/*
 * relcache.h — the relevance cache: the builder's estimates of α, kept in
 * the `relcache` database by a node's summary, level and rules version,
 * and collected by gc (mem.c). Its own header, which includes nothing of
 * api/, so the handle reads it without the builder's (build.h).
 */
#ifndef H2EMV_RELCACHE_H
#define H2EMV_RELCACHE_H

#include <stdint.h>

#include "engine/engine.h"

/* Relevance-cache entries live while they are used: gc collects one
 * unused for RELCACHE_WINDOW of the memory's clock, and the least recently
 * used beyond RELCACHE_MAX. A use is written back at most once per
 * RELCACHE_REFRESH. */
#define RELCACHE_WINDOW (14ll * 24 * 3600 * 1000000)
#define RELCACHE_REFRESH (24ll * 3600 * 1000000)
#define RELCACHE_MAX 65536u

typedef struct relcache_ent {
	uint64_t key;
	double alpha;
	int64_t last; /* last use written to the db (memory clock) */
	int used;
} relcache_ent;

/* A relcache value: [alpha, last use]; older stores hold alpha alone. */
int relcache_encode(eng_buf *out, double alpha, int64_t last);
int relcache_decode(double *alpha, int64_t *last, const void *body, size_t len);

#endif
