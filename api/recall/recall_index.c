/*
 * recall_index.c — the term index seen from question answering
 * (recall_index.h): the candidate goals of a question, and BM25 over notes,
 * speech and arguments (the postings are written by recall_index_build.c).
 *
 * The candidates are a superset of the goals whose facts the walk could
 * take: a fact scores only when a word of the question other than the main
 * verb is among its words (recall_score.c, score_hits: `content && !hits`
 * gives 0), and every word of every slot of every fact is a posting, by its
 * stem and its synonym group. Questions where a fact may match otherwise
 * (a WordNet category, another verb of the question, no word but the
 * verb, an open "which") are not answered through the index: the walk
 * reads their whole scope, as before. One gap is known and documented: a
 * word found only inside a longer one written together ("coffee" in
 * "coffeemachine").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_index_internal.h"

/* ------------------------------------------------------------ reading -- */

typedef struct span {
	int64_t t0, t1;
} span;

struct ridx {
	eng_read *r;
	uint64_t seq;
	int active, has_facts;
	uint64_t *set;       /* open addressing: id * 2^32 + version mixed; 0 = empty */
	size_t set_cap, set_n;
	span *sp;            /* candidates' spans, by start; t1 = the prefix maximum */
	size_t n_sp, cap_sp;
	span *fsp;           /* the same of every placeholder in scope */
	size_t n_fsp;
	h2emv_ref *refs;     /* the candidates, each once (the set's members) */
	size_t n_refs, cap_refs;
	int oom;
};

int ridx_open(ridx **out, h2emv_snap *snap)
{
	*out = NULL;
	eng_read *r = snap_read(snap);
	if (!r || !eng_index_ready(r))
		return H2EMV_OK;
	ridx *ix = calloc(1, sizeof *ix);
	if (!ix)
		return H2EMV_ENOMEM;
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	ix->r = r;
	ix->seq = info.seq;
	uint64_t np, nn;
	ix->has_facts = eng_index_counts(&np, &nn, r) == H2EMV_OK && np > 0;
	*out = ix;
	return H2EMV_OK;
}

void ridx_close(ridx *ix)
{
	if (!ix)
		return;
	free(ix->set);
	free(ix->sp);
	free(ix->fsp);
	free(ix->refs);
	free(ix);
}

int ridx_active(const ridx *ix)
{
	return ix && ix->active;
}

int ridx_has_facts(const ridx *ix)
{
	return ix && ix->has_facts;
}

static uint64_t ref_key(h2emv_ref ref)
{
	uint64_t k = XXH3_64bits(&ref, sizeof ref.id) ^ ((uint64_t)ref.version * 0x9e3779b97f4a7c15ull);
	return k ? k : 1;
}

/* 1 when `ref` was not in the set yet. */
static int set_add(ridx *ix, h2emv_ref ref)
{
	if ((ix->set_n + 1) * 2 > ix->set_cap) {
		size_t cap = ix->set_cap ? ix->set_cap * 2 : 256;
		uint64_t *s = calloc(cap, sizeof *s);
		if (!s) {
			ix->oom = 1;
			return 0;
		}
		for (size_t i = 0; i < ix->set_cap; i++)
			for (size_t j = ix->set[i] & (cap - 1); ix->set[i]; j = (j + 1) & (cap - 1))
				if (!s[j]) {
					s[j] = ix->set[i];
					break;
				}
		free(ix->set);
		ix->set = s;
		ix->set_cap = cap;
	}
	uint64_t k = ref_key(ref);
	for (size_t j = k & (ix->set_cap - 1);; j = (j + 1) & (ix->set_cap - 1)) {
		if (ix->set[j] == k)
			return 0;
		if (!ix->set[j]) {
			ix->set[j] = k;
			ix->set_n++;
			return 1;
		}
	}
}

int ridx_names(const ridx *ix, h2emv_ref ref)
{
	if (!ix->set_cap)
		return 0;
	uint64_t k = ref_key(ref);
	for (size_t j = k & (ix->set_cap - 1);; j = (j + 1) & (ix->set_cap - 1)) {
		if (ix->set[j] == k)
			return 1; /* (a hash: a rare false yes only reads one goal more) */
		if (!ix->set[j])
			return 0;
	}
}

typedef struct scan_ctx {
	ridx *ix;
	const rquestion *q;
	int placeholders; /* collecting every placeholder's span only */
	uint8_t need;     /* the fact types that can answer (0: any) */
} scan_ctx;

static int ref_push(ridx *ix, h2emv_ref ref)
{
	if (ix->n_refs == ix->cap_refs) {
		size_t cap = ix->cap_refs ? ix->cap_refs * 2 : 256;
		h2emv_ref *v = realloc(ix->refs, cap * sizeof *v);
		if (!v)
			return ix->oom = 1;
		ix->refs = v;
		ix->cap_refs = cap;
	}
	ix->refs[ix->n_refs++] = ref;
	return 0;
}

static int visit_cand(void *ctx, const eng_posting *p, eng_ref ref)
{
	scan_ctx *s = ctx;
	ridx *ix = s->ix;
	if (!s->placeholders && s->q->t1 && p->t_last < s->q->t0)
		return 0;
	if (!s->placeholders && s->need && !(p->types & (s->need | TYPE_GIST)))
		return 0;
	h2emv_ref hr = { ref.id, ref.version };
	/* (a placeholder's postings are its kept line only: for evidence, the
	 * notes and words its gist kept are read too, within the scope) */
	int gist = s->placeholders && s->q->evidence &&
	           !(s->q->t1 && (p->t_last < s->q->t0 || p->t_first >= s->q->t1));
	if ((!s->placeholders || gist) && set_add(ix, hr) && ref_push(ix, hr))
		return H2EMV_ENOMEM;
	if (ix->n_sp == ix->cap_sp) {
		size_t cap = ix->cap_sp ? ix->cap_sp * 2 : 256;
		span *v = realloc(ix->sp, cap * sizeof *v);
		if (!v)
			ix->oom = 1;
		else
			ix->sp = v, ix->cap_sp = cap;
	}
	if (ix->n_sp < ix->cap_sp)
		ix->sp[ix->n_sp++] = (span){ p->t_first, p->t_last };
	return ix->oom ? H2EMV_ENOMEM : 0;
}

static int cmp_span(const void *a, const void *b)
{
	const span *x = a, *y = b;
	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* By start, each end raised to the largest so far (see has_span). */
static void sort_spans(span *v, size_t n)
{
	if (!n)
		return;
	qsort(v, n, sizeof *v, cmp_span);
	for (size_t i = 1; i < n; i++)
		if (v[i].t1 < v[i - 1].t1)
			v[i].t1 = v[i - 1].t1;
}

/* Must an action or words said name the person the question names
 * ("how many times did Bob ask you to tidy up")? Then a second verb's
 * WordNet senses match only in a goal that names the person
 * (recall_score.c, score_hits: `!person_hit` gives 0; other facts match
 * words as written). */
static int person_named(const rquestion *q)
{
	return q->person >= 0 && q->kind != RQ_SAID && q->kind != RQ_WHO && !q->evidence;
}

/* Could a fact match q without a posting of one of its words (see the
 * top of the file)? Then the index is not used for q. */
static int usable(const rquestion *q)
{
	if (q->kind == RQ_WHEREABOUTS || q->kind == RQ_STEPS || !q->n_term)
		return 0;
	if (q->kind == RQ_WHICH && q->category < 0 && !q->evidence)
		return 0;
	size_t content = 0;
	for (size_t i = 0; i < q->n_term; i++) {
		const rq_term *t = &q->term[i];
		if (t->kind && t->cls == LC_NONE && q->evidence)
			return 0; /* a category: WordNet's kinds match it (kind_terms) */
		if (q->evidence) {
			content++;
			continue;
		}
		if ((int)i == q->verb)
			continue;
		if (t->lemma && !t->cap && !person_named(q))
			return 0; /* another verb: matched by WordNet's senses */
		if (q->kind == RQ_SAID && (int)i == q->person)
			continue;
		int optional = (q->kind == RQ_SAID && q->self_speaker &&
		                (t->cap || crowd_word(t))) ||
		               (q->kind == RQ_WHICH && (int)i == q->category) || t->owner || t->soft ||
		               (q->people && (int)i == q->category);
		content += !optional;
	}
	return content > 0;
}

#define TB(t) ((uint8_t)(1u << ((t)-1)))

/* The fact types the walk takes for q (recall_words.c's type_ok and
 * recall_score.c's score_evidence): a posting of a word found only in other facts names
 * no candidate. 0: any. */
static uint8_t types_needed(const rquestion *q)
{
	if (q->evidence)
		return TB(FT_NOTE) | TB(FT_SPEECH) | (q->evidence == 2 ? TB(FT_ACT) : 0);
	int vc = q->verb >= 0 ? q->term[q->verb].cls : LC_NONE;
	if (q->kind == RQ_WHO || q->kind == RQ_SAID || q->kind == RQ_SEEN || vc == LC_SEE ||
	    vc == LC_SAY || vc == LC_MEET)
		return 0;
	uint8_t acts = TB(FT_ACT) | TB(FT_TASK);
	if (q->kind == RQ_WHERE || q->kind == RQ_FROM || vc == LC_NONE)
		return acts | TB(FT_SEEN);
	return acts;
}

/* The terms a word of the question stands for. */
static size_t expand(uint64_t *out, const rq_term *t, int lemma)
{
	size_t n = 0;
	out[n++] = ridx_term(t->stem);
	char st[LEX_WORD_MAX];
	lex_stem(t->word, strlen(t->word), st);
	out[n++] = ridx_term(st);
	if (t->same >= 0)
		out[n++] = group_term(t->same);
	if (t->alias)
		out[n++] = ridx_term(t->alias);
	if (lemma && t->lemma) {
		lex_stem(t->lemma, strlen(t->lemma), st);
		out[n++] = ridx_term(st);
	}
	/* "kilos": what a log writes ("kg"); its first word, as indexed */
	lex_word u[2];
	if (t->unit[0] && n < 5 && lex_split(t->unit, strlen(t->unit), u, 2) >= 1)
		out[n++] = ridx_term(u[0].stem);
	/* "charger": the verb's stem too ("charging dock"), as word_in reads it */
	size_t ns = strlen(t->stem);
	if (!t->lemma && ns > 5 && n < 6 &&
	    (!strcmp(t->stem + ns - 2, "er") || !strcmp(t->stem + ns - 2, "or"))) {
		char cut[LEX_WORD_MAX];
		memcpy(cut, t->stem, ns - 2);
		cut[ns - 2] = 0;
		out[n++] = ridx_term(cut);
	}
	return n;
}

/* The terms of the words WordNet takes for kinds of a category asked
 * about ("the keys": a latchkey, a passkey): wn_kind_of(word, category) is
 * 1 for a kind or the kind with "s", "es" or "ies" for "y" after it
 * (wordnet.c), and a fact's word is one run of letters and digits. */
typedef struct kind_terms {
	uint64_t *v;
	size_t n, cap;
} kind_terms;

static int kt_add(kind_terms *k, const char *w, size_t n)
{
	char st[LEX_WORD_MAX];
	lex_stem(w, n, st);
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		uint64_t *v = realloc(k->v, cap * sizeof *v);
		if (!v)
			return -2;
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = ridx_term(st);
	return 0;
}

static int kind_term(void *ctx, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)word[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80))
			return 0; /* (a phrase, "skeleton_key": never one word of a fact) */
	}
	char f[LEX_WORD_MAX + 4];
	int rc = kt_add(ctx, word, n);
	static const char *const ends[] = { "s", "es" };
	for (size_t e = 0; e < 2 && !rc && n + 2 < LEX_WORD_MAX; e++) {
		snprintf(f, sizeof f, "%s%s", word, ends[e]);
		rc = kt_add(ctx, f, strlen(f));
	}
	if (!rc && n > 1 && word[n - 1] == 'y' && n + 2 < LEX_WORD_MAX) {
		snprintf(f, sizeof f, "%.*sies", (int)(n - 1), word);
		rc = kt_add(ctx, f, strlen(f));
	}
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

#define KINDS_MAX 256 /* a category with more kinds reads the tree */

/* Scan the kinds' terms of category word t: 0, ENOMEM, or 1 when the
 * category has too many kinds (or the index is damaged): walk the tree. */
static int scan_kinds(ridx *ix, const rq_term *t, int64_t hi, scan_ctx *s)
{
	kind_terms k = { 0 };
	int rc = wn_kinds_each(t->word, KINDS_MAX, kind_term, &k);
	if (rc == 0 && k.n > 1)
		qsort(k.v, k.n, sizeof *k.v, cmp_u64);
	for (size_t i = 0; rc == 0 && i < k.n; i++)
		if (i == 0 || k.v[i] != k.v[i - 1])
			rc = eng_index_scan(ix->r, k.v[i], INT64_MIN, hi, 0, visit_cand, s, NULL);
	free(k.v);
	return rc == -2 || rc == H2EMV_ENOMEM ? H2EMV_ENOMEM : rc ? 1 : 0;
}

int ridx_prepare(ridx *ix, const rquestion *q, int64_t now)
{
	if (!ix)
		return H2EMV_OK;
	ix->active = 0;
	ix->set_n = ix->n_sp = ix->n_fsp = ix->n_refs = 0;
	if (ix->set)
		memset(ix->set, 0, ix->set_cap * sizeof *ix->set);
	if (!usable(q))
		return H2EMV_OK;
	int64_t hi = now;
	if (q->t1 && q->t1 - 1 < hi)
		hi = q->t1 - 1;
	scan_ctx s = { ix, q, 0, types_needed(q) };
	for (size_t i = 0; i < q->n_term; i++) {
		/* (the main verb counts only in words said and in evidence) */
		if ((int)i == q->verb && !q->evidence && q->kind != RQ_SAID)
			continue;
		const rq_term *t = &q->term[i];
		int krc = t->kind && t->cls == LC_NONE ? scan_kinds(ix, t, hi, &s) : 0;
		if (krc == H2EMV_ENOMEM || ix->oom)
			return H2EMV_ENOMEM;
		if (krc)
			return H2EMV_OK; /* (not active: the walk reads the tree) */
		uint64_t terms[8];
		size_t k = expand(terms, t, q->evidence || q->kind == RQ_SAID);
		for (size_t j = 0; j < k; j++) {
			int dup = 0;
			for (size_t m = 0; m < j; m++)
				dup |= terms[m] == terms[j];
			int rc = dup ? 0 : eng_index_scan(ix->r, terms[j], INT64_MIN, hi, 0, visit_cand, &s,
			                                  NULL);
			if (rc == H2EMV_ENOMEM)
				return rc;
			if (rc)
				return H2EMV_OK; /* a damaged index: the walk reads the tree */
		}
	}
	/* the goals read whatever the question (open, wordy) */
	int orc = eng_index_scan(ix->r, group_term(GROUP_OPEN), INT64_MIN, hi, 0, visit_cand, &s,
	                         NULL);
	if (orc == H2EMV_ENOMEM || ix->oom)
		return H2EMV_ENOMEM;
	if (orc)
		return H2EMV_OK;
	/* the placeholders' spans, apart (moved out of sp) */
	size_t n_cand = ix->n_sp;
	s.placeholders = 1;
	/* (in scope or not: the walk asks whether a summary has forgotten
	 * children at all) */
	int rc = eng_index_scan(ix->r, group_term(GROUP_FORGOTTEN), INT64_MIN, INT64_MAX, 0,
	                        visit_cand, &s, NULL);
	if (rc == H2EMV_ENOMEM || ix->oom)
		return H2EMV_ENOMEM;
	if (rc)
		return H2EMV_OK;
	free(ix->fsp);
	ix->fsp = NULL;
	ix->n_fsp = ix->n_sp - n_cand;
	if (ix->n_fsp && !(ix->fsp = malloc(ix->n_fsp * sizeof *ix->fsp)))
		return H2EMV_ENOMEM;
	if (ix->n_fsp)
		memcpy(ix->fsp, ix->sp + n_cand, ix->n_fsp * sizeof *ix->fsp);
	ix->n_sp = n_cand;
	sort_spans(ix->sp, ix->n_sp);
	sort_spans(ix->fsp, ix->n_fsp);
	ix->active = !ix->oom;
	return ix->oom ? H2EMV_ENOMEM : H2EMV_OK;
}

static int has_span(const span *sp, size_t n, int64_t t0, int64_t t1)
{
	/* the last span starting by t1; the prefix maximum of the ends */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (sp[mid].t0 <= t1)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && sp[lo - 1].t1 >= t0;
}

int ridx_spans(const ridx *ix, int64_t t0, int64_t t1)
{
	return has_span(ix->sp, ix->n_sp, t0, t1) || has_span(ix->fsp, ix->n_fsp, t0, t1);
}

eng_read *ridx_view(const ridx *ix, uint64_t *seq)
{
	*seq = ix ? ix->seq : 0;
	return ix ? ix->r : NULL;
}

int ridx_skips(const ridx *ix, const h2emv_node *n)
{
	if (!ridx_active(ix))
		return 0;
	h2emv_kind kind = h2emv_node_kind(n);
	if (kind == H2EMV_KIND_SUMMARY)
		return !ridx_spans(ix, h2emv_node_start(n), h2emv_node_end(n));
	if (kind == H2EMV_KIND_FORGOTTEN)
		return !ridx_names(ix, h2emv_node_ref(n));
	if (kind != H2EMV_KIND_GOAL)
		return 0;
	size_t len = 0;
	const uint8_t *p = h2emv_node_payload(n, &len);
	/* (a goal without typed facts has no postings: its scenes are read) */
	return p && len && p[0] == 0x93 && !ridx_names(ix, h2emv_node_ref(n));
}

int ridx_forgotten_within(const ridx *ix, int64_t t0, int64_t t1)
{
	return has_span(ix->fsp, ix->n_fsp, t0, t1);
}

int ridx_passes_child(const ridx *ix, const h2emv_node *parent, size_t i)
{
	/* a summary of level 4 holds goals (and their placeholders) only */
	return ridx_active(ix) && h2emv_node_kind(parent) == H2EMV_KIND_SUMMARY &&
	       h2emv_node_level(parent) == 4 && !ridx_names(ix, h2emv_node_child_ref(parent, i));
}

int ridx_child(const h2emv_node **out, const ridx *ix, h2emv_snap *snap,
               const h2emv_node *parent, size_t i, h2emv_error *err)
{
	/* (h2emv_node_child reads up to 64 siblings with the one asked: at a
	 * level-4 summary the index has named the few goals to read) */
	if (ridx_active(ix) && h2emv_node_kind(parent) == H2EMV_KIND_SUMMARY &&
	    h2emv_node_level(parent) == 4)
		return h2emv_snap_node(out, snap, h2emv_node_child_ref(parent, i), err);
	return h2emv_node_child(out, snap, parent, i, err);
}

/* ------------------------------------------------- the candidates alone -- */

typedef struct goal_at {
	const h2emv_node *n;
	int64_t t;
	uint64_t id;
} goal_at;

static int cmp_goal(const void *a, const void *b)
{
	const goal_at *x = a, *y = b;
	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	return (x->id > y->id) - (x->id < y->id);
}

/* The candidates the snapshot sees, as its nodes, by start: 1 when one is
 * not a goal, holds another, or cannot be read as the index says (the walk
 * then reads the tree). */
static int visible_goals(goal_at *v, size_t *n, ridx *ix, h2emv_snap *snap, h2emv_error *err)
{
	*n = 0;
	for (size_t i = 0; i < ix->n_refs; i++) {
		h2emv_ref ref = ix->refs[i];
		uint64_t born, died;
		uint32_t nt;
		if (eng_index_node(&born, &died, &nt, ix->r, (eng_ref){ ref.id, ref.version }))
			return 1;
		if (born > ix->seq || died <= ix->seq)
			continue; /* another snapshot's version */
		const h2emv_node *g;
		int rc = h2emv_snap_node(&g, snap, ref, err);
		if (rc == H2EMV_ENOTFOUND)
			return 1;
		if (rc)
			return rc;
		if (h2emv_node_kind(g) != H2EMV_KIND_GOAL)
			return 1;
		/* a goal within a goal (a skill stack's) is read in its parent's
		 * facts, never alone: the tree decides */
		for (size_t c = 0; c < h2emv_node_child_count(g); c++)
			if (ridx_names(ix, h2emv_node_child_ref(g, c)))
				return 1;
		v[(*n)++] = (goal_at){ g, h2emv_node_start(g), ref.id };
	}
	if (*n > 1)
		qsort(v, *n, sizeof *v, cmp_goal);
	return H2EMV_OK;
}

int ridx_each_goal(ridx *ix, h2emv_snap *snap, ridx_goal_fn fn, void *ctx, h2emv_error *err)
{
	if (!ridx_active(ix) || ix->n_fsp)
		return 1; /* (placeholders: the summaries above them are read) */
	goal_at *v = ix->n_refs ? malloc(ix->n_refs * sizeof *v) : NULL;
	if (ix->n_refs && !v)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t n = 0;
	int rc = visible_goals(v, &n, ix, snap, err);
	for (size_t j = 0; rc == H2EMV_OK && j < n; j++)
		rc = fn(ctx, v[j].n, err);
	free(v);
	return rc;
}
