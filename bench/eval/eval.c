/*
 * eval.c — one variant on one history: replay, pause at each question,
 * ask through the dialog manager, judge, give feedback, go on (eval.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bench/eval/eval.h"
#include "bench/eval/eval_util.h"
#include "bench/eval/judge.h"
#include "bench/eval/judge_llm.h"

/* The paper's appendix table of all ablation experiments, in its order. */
const ev_variant ev_variants[EV_N_VARIANTS] = {
	{ "A", "ours", EV_ONLINE, H2EMV_FORGET_RELEVANCE, 1, 1 },
	{ "AA", "no summ. learn.", EV_ONLINE, H2EMV_FORGET_RELEVANCE, 1, 0 },
	{ "B", "no learning", EV_ONLINE, H2EMV_FORGET_RELEVANCE, 0, 0 },
	{ "C", "learn only summ.", EV_ONLINE, H2EMV_FORGET_TIME, 0, 1 },
	{ "D", "time-only forg.", EV_ONLINE, H2EMV_FORGET_TIME, 0, 0 },
	{ "E", "no f. learn summ.", EV_ONLINE, H2EMV_FORGET_NONE, 0, 1 },
	{ "F", "no forg.", EV_ONLINE, H2EMV_FORGET_NONE, 0, 0 },
	{ "G", "offl. full", EV_OFFLINE, H2EMV_FORGET_RELEVANCE, 1, 1 },
	{ "H", "offl. no learning", EV_OFFLINE, H2EMV_FORGET_RELEVANCE, 0, 0 },
	{ "I", "offl. time-only forg.", EV_OFFLINE, H2EMV_FORGET_TIME, 0, 0 },
	{ "J", "offl. no forg.", EV_OFFLINE, H2EMV_FORGET_NONE, 0, 0 },
	{ "K", "flat full", EV_FLAT, H2EMV_FORGET_RELEVANCE, 1, 1 },
	{ "L", "flat no forg.", EV_FLAT, H2EMV_FORGET_NONE, 0, 0 },
};

const ev_variant *ev_variant_find(const char *id)
{
	for (size_t i = 0; i < EV_N_VARIANTS; i++)
		if (!strcasecmp(ev_variants[i].id, id))
			return &ev_variants[i];
	return NULL;
}

void ev_result_free(ev_result *r)
{
	for (size_t i = 0; r && i < r->n; i++) {
		free(r->a[i].kind);
		free(r->a[i].question);
		free(r->a[i].truth);
		free(r->a[i].answer);
	}
	if (r) {
		free(r->a);
		memset(r, 0, sizeof *r);
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t tok(const h2emv_tokens *t)
{
	return t->prompt + t->completion;
}

/* ------------------------------------------------------------- memory -- */

typedef struct run {
	const ev_variant *v;
	const ev_options *o;
	const qg_history *h;
	ev_result *res;
	char dir[4096];
	unsigned serial;
	h2emv_mem *mem;
	size_t fed;             /* observations ingested so far */
	double size_sum;        /* Σ tree size samples */
	size_t size_n;
	uint64_t last_size;
	h2emv_llm *judge;       /* the LLM judge's model, or NULL */
	/* feedback given so far (replayed into offline memories) */
	char **fb;
	size_t n_fb;
} run;

static int mem_new(run *r, h2emv_error *err)
{
	snprintf(r->dir, sizeof r->dir, "%s/%s-%u", r->o->workdir, r->v->id, r->serial++);
	ev_rmtree(r->dir);
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	oo.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	int rc = h2emv_mem_open(&r->mem, r->dir, &oo, err);
	if (rc != H2EMV_OK)
		return rc;
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.profile = r->o->profile ? r->o->profile : H2EMV_PROFILE_TEACH;
	c.forgetting = r->v->forgetting;
	c.rules_in_relevance = r->v->learn_forget;
	c.rules_in_summaries = r->v->learn_summ;
	c.flat = r->v->construction == EV_FLAT;
	rc = h2emv_config_set(r->mem, &c, err);
	if (rc == H2EMV_OK && r->o->policy && strcmp(r->o->policy, "builtin"))
		rc = h2emv_mem_set_policy(r->mem, r->o->policy, r->o->llm_config, err);
	return rc;
}

static void mem_drop(run *r)
{
	if (!r->mem)
		return;
	h2emv_mem_close(r->mem);
	r->mem = NULL;
	if (!r->o->keep)
		ev_rmtree(r->dir);
}

/* Ingest the observations with t <= until (all when until < 0). */
static int feed(run *r, size_t *from, int64_t until, h2emv_error *err)
{
	enum { CHUNK = 256 };
	while (*from < r->h->n && (until < 0 || r->h->t[*from] <= until)) {
		size_t k = 0;
		while (*from + k < r->h->n && k < CHUNK &&
		       (until < 0 || r->h->t[*from + k] <= until))
			k++;
		int rc = h2emv_ingest_batch(NULL, r->mem,
		                            (const char *const *)r->h->lines + *from, r->h->lens + *from, k, err);
		if (rc != H2EMV_OK)
			return rc;
		*from += k;
	}
	return H2EMV_OK;
}

static int build(run *r, int no_forget, h2emv_build_result *out, h2emv_error *err)
{
	h2emv_build_options bo = H2EMV_BUILD_OPTIONS_INIT;
	bo.no_forget = no_forget;
	bo.commit_every = 100000;
	bo.estimate_tokens = 1; /* C_qa_build (offline) reports them */
	memset(out, 0, sizeof *out);
	return h2emv_build(out, r->mem, &bo, err);
}

/* Online and flat: ingest up to `until` in steps of STEP observations,
 * building after each; the tree size is sampled after every step. */
static int advance(run *r, int64_t until, h2emv_error *err)
{
	enum { STEP = 200 };
	while (r->fed < r->h->n && (until < 0 || r->h->t[r->fed] <= until)) {
		size_t stop = r->fed;
		while (stop < r->h->n && stop - r->fed < STEP && (until < 0 || r->h->t[stop] <= until))
			stop++;
		int rc = feed(r, &r->fed, r->h->t[stop - 1], err);
		h2emv_build_result br;
		if (rc == H2EMV_OK)
			rc = build(r, 0, &br, err);
		if (rc != H2EMV_OK)
			return rc;
		r->res->tok_build += tok(&br.tokens_build);
		r->res->tok_forget += tok(&br.tokens_forget);
		r->last_size = br.tree_size;
		r->size_sum += (double)br.tree_size;
		r->size_n++;
	}
	return H2EMV_OK;
}

/* Offline: a fresh memory from the whole log up to `until`, the rules
 * learned so far, forgetting at `until`. Its build tokens are returned. */
static int offline_tree(run *r, int64_t until, uint64_t *build_tokens, h2emv_error *err)
{
	mem_drop(r);
	int rc = mem_new(r, err);
	size_t from = 0;
	if (rc == H2EMV_OK)
		rc = feed(r, &from, until, err);
	for (size_t i = 0; rc == H2EMV_OK && i < r->n_fb; i++) {
		h2emv_rules *rules = NULL;
		rc = h2emv_feedback(&rules, r->mem, r->fb[i], err);
		h2emv_rules_free(rules);
	}
	h2emv_build_result br;
	if (rc == H2EMV_OK)
		rc = build(r, 1, &br, err);
	if (rc != H2EMV_OK)
		return rc;
	*build_tokens = tok(&br.tokens_build);
	r->res->tok_build += *build_tokens;
	r->last_size = br.tree_size;
	if (r->v->forgetting != H2EMV_FORGET_NONE && from > 0) {
		h2emv_build_result fr;
		int64_t now = until > r->h->t[from - 1] ? until : r->h->t[from - 1];
		rc = h2emv_forget(&fr, r->mem, now, err);
		if (rc != H2EMV_OK)
			return rc;
		r->res->tok_forget += tok(&fr.tokens_forget);
		r->last_size = fr.tree_size;
	}
	r->size_sum += (double)r->last_size;
	r->size_n++;
	return H2EMV_OK;
}

/* ---------------------------------------------------------- questions -- */

int ev_span_alive(h2emv_snap *snap, int64_t t0, int64_t t1, h2emv_error *err)
{
	const h2emv_node *stack[96];
	size_t depth = 0;
	const h2emv_node *root;
	if (h2emv_snap_root(&root, snap, err) != H2EMV_OK)
		return -1;
	stack[depth++] = root;
	while (depth) {
		const h2emv_node *n = stack[--depth];
		size_t k = h2emv_node_child_count(n);
		for (size_t i = 0; i < k; i++) {
			const h2emv_node *c;
			if (h2emv_node_child(&c, snap, n, i, err) != H2EMV_OK)
				return -1;
			if (h2emv_node_start(c) > t1 || h2emv_node_end(c) < t0)
				continue;
			if (h2emv_node_kind(c) == H2EMV_KIND_FORGOTTEN)
				continue;
			if (h2emv_node_level(c) <= 1)
				return 1;
			if (depth < sizeof stack / sizeof stack[0])
				stack[depth++] = c;
		}
	}
	return 0;
}

static int span_alive(run *r, const qg_question *q, h2emv_error *err)
{
	h2emv_snap *snap;
	int rc = h2emv_snap_open(&snap, r->mem, 0, err);
	if (rc != H2EMV_OK)
		return rc == H2EMV_ENOTFOUND ? 0 : -1;
	int alive = ev_span_alive(snap, q->ref_t0, q->ref_t1, err);
	h2emv_snap_close(snap);
	return alive;
}

static int record(run *r, const qg_question *q, const h2emv_reply *rep, int alive,
                  size_t hist, uint64_t build_tokens, h2emv_error *err)
{
	ev_result *res = r->res;
	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 64;
		ev_answer *a = realloc(res->a, cap * sizeof *a);
		if (!a)
			return ev_fail(err, H2EMV_ENOMEM, "out of memory");
		res->a = a;
		res->cap = cap;
	}
	ev_answer *a = &res->a[res->n];
	memset(a, 0, sizeof *a);
	a->history = hist;
	a->pair = q->pair;
	a->round = q->round;
	a->at = q->at;
	a->kind = ev_strdup(q->kind);
	a->question = ev_strdup(q->question);
	a->truth = ev_strdup(q->truth);
	a->answer = ev_strdup(rep && rep->text ? rep->text : "");
	a->span_forgotten = alive == 0;
	a->tokens = rep ? tok(&rep->tokens) : 0;
	a->build_tokens = build_tokens;
	if (!a->kind || !a->question || !a->truth || !a->answer) {
		free(a->kind);
		free(a->question);
		free(a->truth);
		free(a->answer);
		return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	judge_case jc = { q->question, q->truth, q->ref_t0, q->ref_t1, a->answer,
		          rep && rep->answer ? rep->answer->forgotten : 0, q->at };
	judge_options jo = JUDGE_OPTIONS_INIT;
	if (r->o->judge_tolerance)
		jo.time_tolerance_us = r->o->judge_tolerance;
	judge_verdict jv;
	int rc = judge_grade(&jv, &jc, &jo);
	if (rc != H2EMV_OK) {
		res->n++; /* recorded; the strings are freed with the result */
		return ev_fail(err, rc, "judge: %s", jv.why);
	}
	a->fine = jv.fine;
	a->broad = jv.broad;
	if (r->judge) {
		int cat = -1;
		h2emv_tokens u = { 0 };
		judge_llm_case lc = { q->question, q->truth, a->answer, q->ref_t0, q->ref_t1 };
		rc = judge_llm_grade(&cat, &u, r->judge, &lc, err);
		res->tok_judge += u.prompt + u.completion;
		if (rc == H2EMV_OK && cat >= 0 && cat < J_FINE_COUNT) {
			a->fine = cat;
			a->broad = judge_broad(cat);
		} else if (rc == H2EMV_EPARSE) {
			res->judge_fallbacks++;
		} else if (rc != H2EMV_OK) {
			res->n++;
			return rc;
		}
	}
	res->n++;
	if (r->o->log)
		fprintf(r->o->log, "%s\th%zu\tp%u\tr%d\t%s\t%s\t%s\t%s\n", r->v->id, hist, q->pair,
		        q->round, judge_fine_name(a->fine), q->question, q->truth, a->answer);
	return H2EMV_OK;
}

static int remember_feedback(run *r, const char *fb)
{
	char **n = realloc(r->fb, (r->n_fb + 1) * sizeof *n);
	if (!n)
		return -1;
	r->fb = n;
	r->fb[r->n_fb] = ev_strdup(fb);
	return r->fb[r->n_fb++] ? 0 : -1;
}

/* A question after the newest observation: time passes to it (forgetting
 * runs at the question's time, as it would on a robot's idle clock). */
static int clock_to(run *r, int64_t at, h2emv_error *err)
{
	if (r->v->forgetting == H2EMV_FORGET_NONE || r->fed == 0 || at <= r->h->t[r->fed - 1])
		return H2EMV_OK;
	h2emv_build_result fr;
	int rc = h2emv_forget(&fr, r->mem, at, err);
	if (rc == H2EMV_OK) {
		r->res->tok_forget += tok(&fr.tokens_forget);
		r->last_size = fr.tree_size;
	}
	return rc;
}

static int ask(run *r, const qg_question *q, size_t hist, h2emv_error *err)
{
	uint64_t build_tokens = 0;
	int rc = r->v->construction == EV_OFFLINE ? offline_tree(r, q->at, &build_tokens, err)
	                                          : advance(r, q->at, err);
	if (rc == H2EMV_OK && r->v->construction != EV_OFFLINE)
		rc = clock_to(r, q->at, err);
	if (rc != H2EMV_OK)
		return rc;
	int alive = span_alive(r, q, err);
	if (alive < 0)
		return err->status ? err->status : H2EMV_EIO;
	h2emv_reply *rep = NULL;
	rc = h2emv_say(&rep, r->mem, q->question, err);
	if (rc == H2EMV_OK)
		rc = record(r, q, rep, alive, hist, build_tokens, err);
	h2emv_reply_free(rep);
	if (rc != H2EMV_OK)
		return rc;
	if (q->round == 1 && (r->v->learn_forget || r->v->learn_summ)) {
		rep = NULL;
		rc = h2emv_say(&rep, r->mem, q->feedback, err);
		if (rc == H2EMV_OK)
			r->res->tok_learn += tok(&rep->tokens);
		h2emv_reply_free(rep);
		if (rc == H2EMV_OK && remember_feedback(r, q->feedback))
			rc = ev_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	return rc;
}

int ev_run_history(ev_result *res, const ev_variant *v, const qg_history *h, const qg_set *qs,
                   size_t history_index, const ev_options *o, h2emv_error *err)
{
	run r = { .v = v, .o = o, .h = h, .res = res };
	double t0 = now_s();
	res->v = v;
	int rc = H2EMV_OK;
	if (o->judge && !strcmp(o->judge, "llm"))
		rc = h2emv_llm_open(&r.judge, o->llm_config, err);
	if (rc == H2EMV_OK && v->construction != EV_OFFLINE)
		rc = mem_new(&r, err);
	for (size_t i = 0; rc == H2EMV_OK && i < qs->n; i++) {
		rc = ask(&r, &qs->q[i], history_index, err);
		if (o->progress)
			o->progress(o->progress_arg, v, i + 1, qs->n);
	}
	/* the rest of the history, then the final tree size */
	if (rc == H2EMV_OK && h->n)
		rc = v->construction == EV_OFFLINE ? offline_tree(&r, h->t[h->n - 1], &(uint64_t){ 0 }, err)
		                                   : advance(&r, -1, err);
	if (rc == H2EMV_OK) {
		res->nf_sum += (double)r.last_size;
		res->navg_sum += r.size_n ? r.size_sum / (double)r.size_n : 0.0;
		res->histories++;
	}
	mem_drop(&r);
	h2emv_llm_close(r.judge);
	for (size_t i = 0; i < r.n_fb; i++)
		free(r.fb[i]);
	free(r.fb);
	res->seconds += now_s() - t0;
	return rc;
}
