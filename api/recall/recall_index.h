/*
 * recall_index.h — question answering through the term index (engine's
 * eng_index_*, docs/index.md): what a node version's postings are, which
 * goals a question can be about (so the walk reads only those), and a BM25
 * ranking of notes, speech and action arguments for evidence answers.
 */
#ifndef H2EMV_RECALL_INDEX_H
#define H2EMV_RECALL_INDEX_H

#include <stdint.h>

#include "api/recall/recall.h"
#include "engine/engine.h"
#include "h2emv.h"

/* The extractor the memory handle registers (eng_index_set_fn): a goal's
 * typed facts give one posting per stemmed word of every slot (and the
 * word's synonym group, the action's verb class); a forgotten placeholder
 * its gist's words. Other nodes have none. */
int ridx_postings(eng_posting **out, size_t *n, const eng_node *node, void *ctx);

/* A term's hash: "s:" + a Snowball stem (lex_split's). */
uint64_t ridx_term(const char *stem);

/* Build the index if the memory has none (an older memory, a salvaged
 * one); `progress` may be NULL. OK when ready or built. */
int ridx_ensure(h2emv_mem *mem, h2emv_progress_fn progress, void *pctx, h2emv_error *err);

/* One question's use of the index over one snapshot. */
typedef struct ridx ridx;

/* NULL (*out) when the snapshot's memory has no complete index: the walk
 * then reads the tree as before. */
int ridx_open(ridx **out, h2emv_snap *snap);
void ridx_close(ridx *ix);

/* Decide for question `q` (as of `now`): when every fact the walk could
 * take for it names one of its words (see recall_index.c), the candidate
 * goals are the postings' and ridx_active() is 1; otherwise 0 and the walk
 * reads everything in scope. Returns OK or ENOMEM. */
int ridx_prepare(ridx *ix, const rquestion *q, int64_t now);
int ridx_active(const ridx *ix);
/* Whether the index holds typed facts at all (a tree built before them
 * has none). */
int ridx_has_facts(const ridx *ix);
/* Active only: may node `ref` (a goal or a placeholder) hold an answer? */
int ridx_names(const ridx *ix, h2emv_ref ref);
/* Active only: may the span [t0, t1] (a summary's) hold a candidate? */
int ridx_spans(const ridx *ix, int64_t t0, int64_t t1);
/* The walk's test: 1 when node `n` (a summary, goal or placeholder) can
 * be passed by (no candidate in it); 0 when not active. */
int ridx_skips(const ridx *ix, const h2emv_node *n);
/* Active only: 1 when child i of `parent` need not even be fetched (a
 * goal of a level-4 summary the index does not name). */
int ridx_passes_child(const ridx *ix, const h2emv_node *parent, size_t i);
/* The walk's h2emv_node_child: child i of `parent`, read alone (not with
 * its siblings) when the index is active and `parent` holds goals. */
int ridx_child(const h2emv_node **out, const ridx *ix, h2emv_snap *snap,
               const h2emv_node *parent, size_t i, h2emv_error *err);
/* The walk over an active index without placeholders, in one pass over
 * the goals the index names (and the snapshot sees), by start, calling fn
 * on each; fn returns 0 to go on or an error (returned). The summaries
 * above the goals are not read: with no placeholder, the walk would only
 * pass through them. Returns 1 when the tree must be walked instead (not
 * active, a placeholder, an index entry that does not match the snapshot). */
typedef int (*ridx_goal_fn)(void *ctx, const h2emv_node *goal, h2emv_error *err);
int ridx_each_goal(ridx *ix, h2emv_snap *snap, ridx_goal_fn fn, void *ctx, h2emv_error *err);
/* Active only: may the span [t0, t1] hold a placeholder? */
int ridx_forgotten_within(const ridx *ix, int64_t t0, int64_t t1);

/* BM25 over the notes, speech and action arguments in scope: the nodes
 * (goals) of snapshot `snap` whose facts say the words of `q` most
 * tellingly, best first. A fact's time must meet [t0, t1) (t1 = 0: no
 * limit) and not be after `now`. *out is malloc'd (free()), at most `k`. */
typedef struct ridx_hit {
	h2emv_ref ref;
	double score;
	int64_t t_first, t_last;
} ridx_hit;
int ridx_rank(ridx_hit **out, size_t *n, ridx *ix, const rquestion *q, int64_t t0, int64_t t1,
              int64_t now, size_t k);
/* The read view and snapshot an opened index reads (NULL without one). */
eng_read *ridx_view(const ridx *ix, uint64_t *seq);
/* The same over read view `r` as of snapshot `seq` (recall_rank.c). */
int ridx_rank_view(ridx_hit **out, size_t *n, eng_read *r, uint64_t seq, const rquestion *q,
                   int64_t t0, int64_t t1, int64_t now, size_t k);

#endif
