/*
 * recall_rank.c — BM25 over the term index (recall_index.h, ridx_rank):
 * which goals of a snapshot say a question's words most tellingly in their
 * notes, speech and action arguments, within a time scope. Only postings
 * of versions the snapshot sees count (born <= seq < died).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/recall/recall_index.h"

#define K1 1.2
#define B 0.75
/* notes, speech and arguments: the slots a record's own words are in */
#define ROLES_TEXT ((1u << FS_TEXT) | (1u << FS_STATE) | (1u << FS_OBJ) | (1u << FS_SRC) | \
                    (1u << FS_DST) | (1u << FS_PLACE) | (1u << FS_WHO) | (1u << FS_INSTR))
#define TYPES_TEXT ((1u << (FT_ACT - 1)) | (1u << (FT_SPEECH - 1)) | (1u << (FT_NOTE - 1)) | \
                    (1u << (FT_TASK - 1)))

typedef struct rank_ctx {
	ridx_hit *h;           /* accumulated scores, one per node version */
	size_t n, cap;
	eng_read *r;
	uint64_t seq;
	int64_t t0, t1, now;
	double idf, avgdl;
	int pass;              /* 0: count df, 1: score */
	uint64_t df;
	int oom;
} rank_ctx;

static int visible(rank_ctx *x, eng_ref ref, uint32_t *dl)
{
	uint64_t born, died;
	if (eng_index_node(&born, &died, dl, x->r, ref))
		return 0;
	return born <= x->seq && x->seq < died;
}

/* One entry per posting scored; entries of one node are merged at the end. */
static ridx_hit *hit_of(rank_ctx *x, eng_ref ref)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 64;
		ridx_hit *h = realloc(x->h, cap * sizeof *h);
		if (!h) {
			x->oom = 1;
			return NULL;
		}
		x->h = h;
		x->cap = cap;
	}
	x->h[x->n] = (ridx_hit){ { ref.id, ref.version }, 0, INT64_MAX, INT64_MIN };
	return &x->h[x->n++];
}

static int visit(void *ctx, const eng_posting *p, eng_ref ref)
{
	rank_ctx *x = ctx;
	if (!(p->roles & ROLES_TEXT) || !(p->types & TYPES_TEXT))
		return 0;
	if ((x->t1 && p->t_last < x->t0) || p->t_first > x->now)
		return 0;
	uint32_t dl;
	if (!visible(x, ref, &dl))
		return 0;
	if (x->pass == 0) {
		x->df++;
		return 0;
	}
	ridx_hit *h = hit_of(x, ref);
	if (!h)
		return H2EMV_ENOMEM;
	double tf = p->tf;
	h->score += x->idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / x->avgdl));
	if (p->t_first < h->t_first)
		h->t_first = p->t_first;
	if (p->t_last > h->t_last)
		h->t_last = p->t_last;
	return 0;
}

static int cmp_ref(const void *a, const void *b)
{
	const ridx_hit *x = a, *y = b;
	if (x->ref.id != y->ref.id)
		return x->ref.id < y->ref.id ? -1 : 1;
	return (x->ref.version > y->ref.version) - (x->ref.version < y->ref.version);
}

/* Sum the entries of each node (sorted by node first). */
static size_t merge_hits(ridx_hit *h, size_t n)
{
	if (!n)
		return 0;
	qsort(h, n, sizeof *h, cmp_ref);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (cmp_ref(&h[k], &h[i])) {
			h[++k] = h[i];
			continue;
		}
		h[k].score += h[i].score;
		h[k].t_first = h[i].t_first < h[k].t_first ? h[i].t_first : h[k].t_first;
		h[k].t_last = h[i].t_last > h[k].t_last ? h[i].t_last : h[k].t_last;
	}
	return k + 1;
}

static int cmp_hit(const void *a, const void *b)
{
	const ridx_hit *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x->t_last < y->t_last) - (x->t_last > y->t_last); /* newer first */
}

int ridx_rank_view(ridx_hit **out, size_t *n, eng_read *r, uint64_t seq, const rquestion *q,
                   int64_t t0, int64_t t1, int64_t now, size_t k)
{
	*out = NULL;
	*n = 0;
	uint64_t np = 0, nn = 0;
	if (eng_index_counts(&np, &nn, r) || !nn)
		return H2EMV_OK;
	rank_ctx x = { .r = r, .seq = seq, .t0 = t0, .t1 = t1, .now = now };
	x.avgdl = (double)np / (double)nn;
	int64_t hi = t1 && t1 - 1 < now ? t1 - 1 : now;
	for (size_t i = 0; i < q->n_term && !x.oom; i++) {
		uint64_t term = ridx_term(q->term[i].stem);
		int dup = 0;
		for (size_t j = 0; j < i; j++)
			dup |= !strcmp(q->term[j].stem, q->term[i].stem);
		if (dup)
			continue;
		x.pass = 0;
		x.df = 0;
		if (eng_index_scan(r, term, INT64_MIN, hi, 0, visit, &x, NULL) || !x.df)
			continue;
		x.idf = log(1 + ((double)nn - (double)x.df + 0.5) / ((double)x.df + 0.5));
		x.pass = 1;
		if (eng_index_scan(r, term, INT64_MIN, hi, 0, visit, &x, NULL) && x.oom)
			break;
	}
	if (x.oom) {
		free(x.h);
		return H2EMV_ENOMEM;
	}
	x.n = merge_hits(x.h, x.n);
	qsort(x.h, x.n, sizeof *x.h, cmp_hit);
	*n = x.n < k ? x.n : k;
	*out = x.h;
	return H2EMV_OK;
}

int ridx_rank(ridx_hit **out, size_t *n, ridx *ix, const rquestion *q, int64_t t0, int64_t t1,
              int64_t now, size_t k)
{
	*out = NULL;
	*n = 0;
	uint64_t seq;
	eng_read *r = ridx_view(ix, &seq);
	return r ? ridx_rank_view(out, n, r, seq, q, t0, t1, now, k) : H2EMV_OK;
}
