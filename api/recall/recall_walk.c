/*
 * recall_walk.c — the walk over one snapshot (recall_internal.h): the
 * nodes in the question's time scope, the facts they offer as candidates
 * (through the term index when there is one), and where the robot was at a
 * moment.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "api/tree/scene.h"
#include "api/base/utf8.h"
#include "api/recall/recall_internal.h"

static int rule_part_keeps(const char *rule, const facts *f);

/* "Remember what you said to people and who you met" is two rules: each
 * part, split at "and" and commas, keeps what it names on its own (read as
 * one, "met" would be a word to find in what was said). */
int recall_rule_keeps(const char *rule, const facts *f)
{
	if (!rule || !f || !f->n)
		return 0;
	if (rule_part_keeps(rule, f))
		return 1;
	if (!strstr(rule, " and ") && !strchr(rule, ','))
		return 0;
	char part[512];
	const char *p = rule;
	while (*p) {
		const char *e = p, *next = NULL;
		for (; *e; e++) {
			if (*e == ',') {
				next = e + 1;
				break;
			}
			if (!strncmp(e, " and ", 5)) {
				next = e + 5;
				break;
			}
		}
		size_t n = (size_t)(e - p);
		if (n && n < sizeof part) {
			memcpy(part, p, n);
			part[n] = 0;
			if (rule_part_keeps(part, f))
				return 1;
		}
		if (!next)
			break;
		p = next;
	}
	return 0;
}

static int rule_part_keeps(const char *rule, const facts *f)
{
	rquestion q;
	rq_parse(&q, rule, 0);
	/* "remember what you said to people", "remember who you met": every
	 * utterance, every person met */
	if (q.verb < 0 && !content_terms(&q) &&
	    (q.kind == RQ_SAID || q.kind == RQ_WHO || q.kind == RQ_SEEN)) {
		for (size_t i = 0; i < f->n; i++) {
			const fact *v = &f->v[i];
			if ((q.kind == RQ_SAID && (v->type == FT_SPEECH || (is_act(v) && v->s[FS_TEXT]))) ||
			    (q.kind == RQ_WHO && (v->type == FT_PERSON || (is_act(v) && v->s[FS_WHO]))) ||
			    (q.kind == RQ_SEEN && v->type == FT_SEEN))
				return 1;
		}
		return 0;
	}
	if (!q.n_term)
		return 0;
	q.kind = q.kind == RQ_WHO || q.kind == RQ_SAID || q.kind == RQ_SEEN ? q.kind : RQ_DO;
	for (size_t i = 0; i < f->n; i++)
		if (score(&q, &f->v[i]) > 0.1)
			return 1;
	return 0;
}

/* ------------------------------------------------------------ the walk -- */

static int in_scope(const rctx *x, int64_t t0, int64_t t1)
{
	if (t0 > x->now)
		return 0;
	if (!x->q->t1)
		return 1;
	return t0 < x->q->t1 && t1 >= x->q->t0;
}

static int add_cand(rctx *x, const fact *f, h2emv_ref ref, double sc, int coarse, int hits)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 64;
		cand *c = realloc(x->c, cap * sizeof *c);
		if (!c)
			return H2EMV_ENOMEM;
		x->c = c;
		x->cap = cap;
	}
	x->c[x->n++] = (cand){ f, ref, sc, coarse, hits, 0, 0 };
	eng_buf b = { 0 };
	facts_render_one(&b, f);
	x->tokens += b.len / 4 + 4;
	eng_buf_free(&b);
	return H2EMV_OK;
}

static facts *keep_set(rctx *x, facts *f)
{
	if (x->n_sets == x->cap_sets) {
		size_t cap = x->cap_sets ? x->cap_sets * 2 : 32;
		facts **v = realloc(x->sets, cap * sizeof *v);
		if (!v)
			return NULL;
		x->sets = v;
		x->cap_sets = cap;
	}
	x->sets[x->n_sets++] = f;
	return f;
}

/* The facts of a snapshot node (a scene's from its observation). */
static facts *node_facts(rctx *x, const h2emv_node *n)
{
	facts *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	size_t len;
	const void *p = h2emv_node_payload(n, &len);
	int rc = H2EMV_OK;
	if (h2emv_node_kind(n) == H2EMV_KIND_SCENE) {
		scene s;
		if (p && len && scene_decode(&s, p, len, NULL) == H2EMV_OK) {
			rc = facts_from_scene(f, &s, x->prof, x->tasks);
			scene_free(&s);
		}
	} else if (p && len) {
		rc = facts_payload_decode(f, p, len);
		if (rc == H2EMV_ECORRUPT)
			rc = H2EMV_OK; /* damaged facts read as none */
	}
	if (rc || !keep_set(x, f)) {
		facts_free(f);
		free(f);
		return NULL;
	}
	return f;
}

/* Does any fact of `f` in scope match the question? */

static int wanted(const rctx *x, double s)
{
	return s > 0.1 || (s > 0 && content_terms(x->q) == 0 && x->q->verb < 0);
}

static int any_match(rctx *x, const facts *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (in_scope(x, f->v[i].t0, f->v[i].t2) && wanted(x, score_in(x->q, &f->v[i], f)))
			return 1;
	return 0;
}

int content_terms(const rquestion *q)
{
	size_t n = 0;
	for (size_t i = 0; i < q->n_term; i++)
		n += (int)i != q->verb;
	return (int)n;
}

static int gist_matches(rctx *x, const h2emv_node *n)
{
	const char *s = h2emv_node_summary(n, NULL);
	if (!s || !*s)
		return 0;
	int any = 0;
	for (size_t i = 0; i < x->q->n_term; i++)
		if ((int)i != x->q->verb && word_in(s, &x->q->term[i]))
			any = 1;
	return any || content_terms(x->q) == 0;
}


/* Does the question's main verb name something done (not seeing,
 * saying or meeting, which other kinds of fact answer)? */
static int acts_asked(const rquestion *q)
{
	if (q->verb < 0)
		return 0;
	int c = q->term[q->verb].cls;
	return c != LC_SEE && c != LC_SAY && c != LC_MEET && c != LC_LOOK;
}

static int take_facts(rctx *x, const h2emv_node *n, int coarse)
{
	facts *f = node_facts(x, n);
	if (!f)
		return H2EMV_ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		const fact *v = &f->v[i];
		if (!in_scope(x, v->t0, v->t2))
			continue;
		int hits;
		double s = score_hits(x->q, v, f, &hits);
		int complete = (hits & 0x10000) != 0, near_verb = (hits & 0x20000) != 0;
		hits &= 0xffff;
		if (wanted(x, s)) {
			if (add_cand(x, v, h2emv_node_ref(n), s, coarse, hits))
				return H2EMV_ENOMEM;
			x->c[x->n - 1].complete = complete;
			/* (a speaker is also counted as a person met, without a place) */
			x->c[x->n - 1].me = (v->type == FT_SPEECH ||
			                     (v->type == FT_PERSON && !v->s[FS_PLACE])) &&
			                    is_me(x->q, f, v->s[FS_NAME]);
			/* a finished occurrence naming everything asked settles it; a
			 * failed or unfinished one may have a better one beside it */
			int final = !is_act(v) || v->status == FST_DONE ||
			            v->status == FST_NONE ||
			            (x->q->status == RS_FAILED && v->status != FST_ONGOING);
			/* (an object seen does not settle "where did you grab the
			 * milk": the grasp is asked for) */
			/* (nor the Place after a Pickup: a near verb scores lower,
			 * and the verb asked may be in an older goal) */
			/* (nor a take that names no source, for "where did you get
			 * the lettuce": an older one may, or its container) */
			int no_source = is_act(v) && v->cls == LC_TAKE && !v->s[FS_SRC] &&
			                (x->q->kind == RQ_FROM || x->q->kind == RQ_WHERE);
			if (!coarse && final && complete && !near_verb && !no_source && s >= 2 &&
			    (is_act(v) || !acts_asked(x->q)))
				x->settled = 1;
			if (coarse != 2 && v->t1 > x->newest_t1)
				x->newest_t1 = v->t1; /* (a gist's: take_gist, once kept) */
		}
	}
	return H2EMV_OK;
}

/* A placeholder's gist (forget.c), less what a summary's aggregate
 * already offered (the same fact, merged there). */
static int take_gist(rctx *x, const h2emv_node *n)
{
	size_t before = x->n;
	if (take_facts(x, n, 2))
		return H2EMV_ENOMEM;
	size_t j = before;
	for (size_t i = before; i < x->n; i++) {
		int dup = 0;
		for (size_t k = 0; k < before && !dup; k++)
			dup = x->c[k].coarse && x->c[k].f->key == x->c[i].f->key;
		if (!dup)
			x->c[j++] = x->c[i];
	}
	x->n = j;
	for (size_t i = before; i < j; i++)
		if (x->c[i].f->t1 > x->newest_t1)
			x->newest_t1 = x->c[i].f->t1;
	return H2EMV_OK;
}

/* "Who did you meet last": every fact of the right kind scores alike (no
 * word to weigh) and the answer is the candidate that occurred last
 * (pick), so a node that ends before the newest candidate found so far
 * cannot change it; the walk goes newest first and passes such nodes by
 * (candidates' times lie within their node's span). Found no candidate:
 * it reads the whole scope, as before. */
static int newest_only(const rctx *x)
{
	const rquestion *q = x->q;
	return !x->early && q->kind == RQ_WHO && q->order == RO_LAST && !q->plural && !q->most &&
	       !q->n_term && !q->evidence;
}

static void newest_start(rctx *x)
{
	x->newest = newest_only(x);
	x->newest_t1 = INT64_MIN;
	for (size_t i = 0; i < x->n; i++)
		if (x->c[i].f->t1 > x->newest_t1)
			x->newest_t1 = x->c[i].f->t1;
}

static int walk_kids(rctx *x, const h2emv_node *n, int depth, h2emv_error *err)
{
	size_t k = h2emv_node_child_count(n);
	int back = (x->early && x->q->order == RO_LAST) || x->newest;
	for (size_t j = 0; j < k && !(x->early && x->settled); j++) {
		size_t i = back ? k - 1 - j : j;
		const h2emv_node *c;
		if (ridx_passes_child(x->ix, n, i))
			continue; /* a goal the index does not name: not even fetched */
		int rc = ridx_child(&c, x->ix, x->snap, n, i, err);
		if (rc == H2EMV_ENOTFOUND)
			continue;
		if (rc || (rc = walk(x, c, depth + 1, err)))
			return rc;
	}
	return H2EMV_OK;
}

/* One goal the index names (ridx_each_goal). */
static int walk_goal(void *ctx, const h2emv_node *g, h2emv_error *err)
{
	return walk(ctx, g, 1, err);
}

int walk(rctx *x, const h2emv_node *n, int depth, h2emv_error *err)
{
	if (depth > MAX_DEPTH)
		return H2EMV_OK;
	/* the index names the goals the question can be about: read only those */
	if (depth == 0 && ridx_prepare(x->ix, x->q, x->now))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (depth == 0)
		newest_start(x);
	int kind = h2emv_node_kind(n);
	int64_t t0 = h2emv_node_start(n), t1 = h2emv_node_end(n);
	size_t plen = 0;
	const uint8_t *pay = h2emv_node_payload(n, &plen);
	if (kind != H2EMV_KIND_SCENE && pay && plen && pay[0] == 0x93)
		x->fact_nodes++; /* the tree has typed facts (even out of scope) */
	if (kind != H2EMV_KIND_ROOT && !in_scope(x, t0, t1))
		return H2EMV_OK;
	if (kind != H2EMV_KIND_ROOT && ridx_skips(x->ix, n))
		return H2EMV_OK;
	if (kind != H2EMV_KIND_ROOT && x->newest && t1 < x->newest_t1)
		return H2EMV_OK;
	if (x->tokens >= x->budget && !ridx_active(x->ix)) {
		x->cut = 1;
		return H2EMV_OK;
	}
	x->tokens += NODE_TOKENS;
	if (kind == H2EMV_KIND_FORGOTTEN) {
		/* the salient gist a placeholder keeps (forget.c): coarse facts */
		size_t before = x->n;
		if (pay && plen && pay[0] == 0x93 && take_gist(x, n))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		if (!x->forgot && (x->n > before || gist_matches(x, n))) {
			x->forgot = 1;
			x->forgot_ref = h2emv_node_ref(n);
		}
		return H2EMV_OK;
	}
	if (kind == H2EMV_KIND_ROOT) {
		/* the goals the index names, without the summaries above them
		 * (an early stop reads few goals: the tree finds them first; a
		 * skill stack nests goals, read in their parents' facts) */
		int rc = x->early || !x->tasks ? 1 : ridx_each_goal(x->ix, x->snap, walk_goal, x, err);
		return rc == 1 ? walk_kids(x, n, depth, err) : rc;
	}
	if (kind == H2EMV_KIND_GOAL || kind == H2EMV_KIND_EVENT || kind == H2EMV_KIND_SCENE) {
		size_t len = 0;
		h2emv_node_payload(n, &len);
		const uint8_t *p = h2emv_node_payload(n, &len);
		int has_facts = kind == H2EMV_KIND_SCENE || (p && len > 0 && p[0] == 0x93);
		x->fact_nodes += kind == H2EMV_KIND_SCENE;
		if (has_facts)
			return take_facts(x, n, 0) ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : 0;
		/* a tree built before typed facts: read the scenes below */
		return walk_kids(x, n, depth, err);
	}
	/* a summary: open it when its aggregated facts name what is asked (the
	 * index has said so already, unless forgotten children are below: what
	 * the summary says of them is read as before) */
	int ixd = ridx_active(x->ix) && !ridx_forgotten_within(x->ix, t0, t1);
	facts *f = ixd ? NULL : node_facts(x, n);
	if (!ixd && !f)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	/* (summaries keep no notes: evidence reads every goal in scope) */
	/* (an aggregate at its cap was trimmed when built: the flag is not
	 * stored, so a full one may lack what is asked) */
	int open = ixd || !f->n || f->trimmed || f->n >= FACTS_SUMMARY_MAX || x->q->evidence ||
	           any_match(x, f);
	size_t k = h2emv_node_child_count(n);
	int forgotten_kid = 0;
	for (size_t i = 0; i < k && !ixd; i++) {
		const h2emv_node *c;
		int rc = h2emv_node_child(&c, x->snap, n, i, err);
		if (rc == H2EMV_ENOTFOUND)
			continue;
		if (rc)
			return rc;
		if (h2emv_node_kind(c) == H2EMV_KIND_FORGOTTEN) {
			forgotten_kid = 1;
			if (!open && (rc = walk(x, c, depth + 1, err)))
				return rc;
		}
	}
	if (!open)
		return H2EMV_OK;
	/* what a summary says of children now forgotten: coarse evidence */
	size_t before = x->n;
	if (forgotten_kid && f->n && take_facts(x, n, 1))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (x->n > before && !x->forgot) {
		x->forgot = 1;
		x->forgot_ref = h2emv_node_ref(n);
	}
	return walk_kids(x, n, depth, err);
}

/* Walk the tree again for another question (the candidates so far are
 * dropped; the fact sets they point into are kept). */
int collect(rctx *x, const rquestion *q)
{
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	int early = x->early;
	x->early = 0; /* side walks read their whole scope */
	int rc = x->root ? walk(x, x->root, 0, x->err) : H2EMV_OK;
	x->early = early;
	x->settled = 0;
	return rc;
}

/* Where the robot was at time t: the latest place or journey before it. */

const char *whereabouts(rctx *x, const rquestion *q, int64_t t)
{
	return whereabouts_ref(x, q, t, NULL);
}

const char *whereabouts_ref(rctx *x, const rquestion *q, int64_t t, h2emv_ref *ref)
{
	rquestion w = *q;
	w.kind = RQ_WHEREABOUTS;
	w.n_term = 0;
	w.verb = w.person = -1;
	w.status = RS_ANY;
	w.t0 = t - 3 * 3600LL * 1000000;
	w.t1 = t + 1;
	if (collect(x, &w))
		return NULL;
	const fact *best = NULL;
	for (size_t i = 0; i < x->n; i++) {
		const fact *f = x->c[i].f;
		int64_t when = f->t1 <= t ? f->t1 : f->t0;
		if (when > t)
			continue;
		if (!best || when >= (best->t1 <= t ? best->t1 : best->t0)) {
			best = f;
			if (ref)
				*ref = x->c[i].ref;
		}
	}
	x->q = q;
	if (!best)
		return NULL;
	return best->type == FT_PLACE ? best->s[FS_PLACE]
	       : best->s[FS_DST]      ? best->s[FS_DST]
	                              : best->s[FS_OBJ];
}
