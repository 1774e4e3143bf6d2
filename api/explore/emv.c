/*
 * emv.c — h2emv_ask: answer a question from one snapshot. The builtin
 * policy (any policy without a qa_step) answers from the typed facts in
 * one pass (api/recall/); a tree built before typed facts is refused until
 * `h2emv upgrade`. A policy with a qa_step (the llm policy, a caller's
 * own) explores the tree top-down, the way the paper's agent does (EMV,
 * episodic memory verbalization): the root's children are shown first;
 * each round the policy sees the shown nodes and the steps so far, and
 * opens nodes (by id, time range or search) or answers. The budget is
 * the memory's qa_max_rounds and qa_max_tokens; the last round must
 * answer.
 *
 * Loops are caught: the first step that changes nothing earns a hint, the
 * second is replaced by opening every closed node one level (a different
 * strategy), the third makes the next round the last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/explore/emv.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/recall/recall.h"
#include "api/policy/prompts.h"
#include "api/builder/upgrade.h"

#define QUESTION_MAX 8192
#define NOT_FOUND "I could not find that in my memory."

/* One question in flight. */
typedef struct ask {
	h2emv_mem *mem;
	h2emv_snap *snap;
	emv_explorer x;
	const char *question;
	int64_t now;
	unsigned max_rounds;
	uint64_t max_tokens;
	pr_str hist;         /* previous steps, one line each */
	h2emv_tokens tokens;
	/* the view, rebuilt every round */
	pol_item *items;
	int *depth, *open, *kids;
	size_t n, cap;
	char **ftext;        /* per explorer node: its summary with its facts, or NULL */
	size_t n_ftext;
} ask;

/* -------------------------------------------------------------- the view -- */

static int view_grow(ask *a, size_t need)
{
	if (need <= a->cap)
		return H2EMV_OK;
	size_t cap = a->cap ? a->cap : 64;
	while (cap < need)
		cap *= 2;
	pol_item *it = realloc(a->items, cap * sizeof *it);
	if (it)
		a->items = it;
	int *d = realloc(a->depth, cap * sizeof *d);
	if (d)
		a->depth = d;
	int *o = realloc(a->open, cap * sizeof *o);
	if (o)
		a->open = o;
	int *k = realloc(a->kids, cap * sizeof *k);
	if (k)
		a->kids = k;
	if (!it || !d || !o || !k)
		return H2EMV_ENOMEM;
	a->cap = cap;
	return H2EMV_OK;
}

/* A summary's text for the model: its free text, then its typed facts
 * rendered (the facts say what the prose may have left out). Made once per
 * node; NULL when there are none or memory is short (the text alone). */
static const char *with_facts(ask *a, uint32_t i, const h2emv_node *n)
{
	if (h2emv_node_level(n) < 4)
		return NULL; /* scenes, events and goals are rendered from their facts */
	if (i >= a->n_ftext) {
		size_t cap = a->n_ftext ? a->n_ftext : 64;
		while (cap <= i)
			cap *= 2;
		char **v = realloc(a->ftext, cap * sizeof *v);
		if (!v)
			return NULL;
		memset(v + a->n_ftext, 0, (cap - a->n_ftext) * sizeof *v);
		a->ftext = v;
		a->n_ftext = cap;
	}
	if (a->ftext[i])
		return a->ftext[i];
	size_t len;
	const void *p = h2emv_node_payload(n, &len);
	facts f = { 0 };
	if (!p || !len || facts_payload_decode(&f, p, len) || !f.n) {
		facts_free(&f);
		return NULL;
	}
	eng_buf b = { 0 };
	const char *sum = h2emv_node_summary(n, NULL);
	eng_buf_append(&b, sum, strlen(sum));
	eng_buf_append(&b, "\nFacts: ", 8);
	for (size_t k = 0; k < f.n && k < 12; k++) {
		if (k)
			eng_buf_append(&b, "; ", 2);
		/* the gist: what, with whom, when; a summary forgets where things
		 * went, what was said and how things looked (as the builtin does) */
		fact g = f.v[k];
		if (g.type == FT_SPEECH)
			g.s[FS_TEXT] = (char *)"...";
		else
			g.s[FS_TEXT] = NULL;
		g.s[FS_DST] = g.s[FS_SRC] = g.s[FS_PLACE] = g.s[FS_STATE] = NULL;
		facts_render_one(&b, &g);
	}
	if (f.n > 12) {
		char more[40];
		int m = snprintf(more, sizeof more, "; and %zu more", f.n - 12);
		eng_buf_append(&b, more, (size_t)m);
	}
	facts_free(&f);
	if (eng_buf_append(&b, "", 1)) {
		eng_buf_free(&b);
		return NULL;
	}
	a->ftext[i] = (char *)b.data;
	return a->ftext[i];
}

static void view_add(ask *a, uint32_t i)
{
	const emv_vnode *v = &a->x.vn[i];
	const h2emv_node *n = v->node;
	int forgotten = h2emv_node_kind(n) == H2EMV_KIND_FORGOTTEN;
	pol_item *it = &a->items[a->n];
	memset(it, 0, sizeof *it);
	it->id = h2emv_node_ref(n).id;
	it->level = h2emv_node_level(n);
	it->t_start = h2emv_node_start(n);
	it->t_end = h2emv_node_end(n);
	const char *ft = forgotten ? NULL : with_facts(a, i, n);
	it->text = forgotten ? "" : ft ? ft : h2emv_node_summary(n, NULL); /* hidden from QA */
	it->forgotten = forgotten;
	a->depth[a->n] = v->depth - 1;
	a->open[a->n] = v->open;
	a->kids[a->n] = !forgotten && h2emv_node_child_count(n) > 0;
	a->n++;
	for (uint32_t k = 0; v->open && k < v->n_kids; k++)
		view_add(a, v->kids + k);
}

/* The shown nodes in tree order (depth-first, oldest child first). */
static int view_build(ask *a)
{
	if (view_grow(a, emv_ex_visible(&a->x)))
		return H2EMV_ENOMEM;
	a->n = 0;
	const emv_vnode *root = &a->x.vn[0];
	for (uint32_t k = 0; k < root->n_kids; k++)
		view_add(a, root->kids + k);
	return H2EMV_OK;
}

/* ----------------------------------------------------------- the history -- */

static void hist_ids(pr_str *h, const uint64_t *ids, size_t n)
{
	for (size_t i = 0; i < n && i < 12; i++)
		pr_str_addf(h, "%s%llu", i ? ", " : "", (unsigned long long)ids[i]);
	if (n > 12)
		pr_str_addf(h, ", ... (%zu in all)", n);
}

/* The step as the history shows it: "expand 17, 18". */
static void hist_action(pr_str *h, const pol_qa_action *act)
{
	char t0[PR_TIME_MAX], t1[PR_TIME_MAX];
	switch (act->kind) {
	case POL_QA_EXPAND:
		pr_str_adds(h, "expand ");
		hist_ids(h, act->ids, act->n_ids);
		break;
	case POL_QA_RANGE:
		pr_str_addf(h, EMV_HIST_RANGE "%s - %s", pr_time_point(t0, sizeof t0, act->t0),
		            pr_time_point(t1, sizeof t1, act->t1));
		break;
	case POL_QA_SEARCH:
		pr_str_adds(h, EMV_HIST_SEARCH);
		pr_str_adds(h, act->text ? act->text : "");
		pr_str_adds(h, "\"");
		if (act->t1 > 0)
			pr_str_addf(h, EMV_HIST_WITHIN "%s - %s", pr_time_point(t0, sizeof t0, act->t0),
			            pr_time_point(t1, sizeof t1, act->t1));
		break;
	default:
		pr_str_addf(h, "unknown action %d", act->kind);
	}
}

/* ---------------------------------------------------------- the actions -- */

/* Apply an exploring action; *opened counts the nodes it opened. */
static int apply(ask *a, const pol_qa_action *act, size_t *opened, int *placeholders,
                 h2emv_error *err)
{
	*opened = 0;
	*placeholders = 0;
	switch (act->kind) {
	case POL_QA_EXPAND:
		for (size_t i = 0; i < act->n_ids; i++) {
			uint32_t v = emv_ex_find(&a->x, act->ids[i]);
			int o = 0, rc = v ? emv_ex_open(&a->x, v, &o, err) : H2EMV_OK;
			if (rc)
				return rc;
			*opened += (size_t)o;
		}
		return H2EMV_OK;
	case POL_QA_RANGE:
		return emv_ex_range(&a->x, act->t0, act->t1, opened, err);
	case POL_QA_SEARCH:
		return emv_ex_search(&a->x, act->text, act->t0, act->t1, opened, placeholders, err);
	default:
		return H2EMV_OK;
	}
}

/* ----------------------------------------------------------- the answer -- */

static int finish(h2emv_answer **out, ask *a, const pol_qa_action *act, unsigned rounds,
                  int trace, h2emv_error *err)
{
	h2emv_answer *ans = calloc(1, sizeof *ans);
	if (!ans)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, a->snap);
	ans->snapshot = info.seq;
	ans->rounds = rounds;
	ans->tokens = a->tokens;
	ans->forgotten = act && act->forgotten;
	const char *text = act && act->text && *act->text ? act->text : NOT_FOUND;
	ans->text = strdup(text);
	size_t n = act ? act->n_ids : 0;
	ans->evidence = calloc(n ? n : 1, sizeof *ans->evidence);
	for (size_t i = 0; ans->evidence && i < n; i++) {
		uint32_t v = emv_ex_find(&a->x, act->ids[i]);
		if (v)
			ans->evidence[ans->n_evidence++] = h2emv_node_ref(a->x.vn[v].node);
	}
	if (trace)
		ans->trace = strdup(a->hist.s ? a->hist.s : "");
	if (!ans->text || !ans->evidence || (trace && !ans->trace)) {
		h2emv_answer_free(ans);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	*out = ans;
	return H2EMV_OK;
}

/* ------------------------------------------------------------ the rounds -- */

typedef int (*qa_step_fn)(void *ctx, const pol_qa_view *view, pol_qa_action *out,
                          pol_usage *u, h2emv_error *err);

/* Note what an exploring step did and handle steps that change nothing.
 * Returns 1 when the next round must be the last. */
static int after_step(ask *a, const pol_qa_action *act, size_t opened, int placeholders,
                      unsigned *unchanged, h2emv_error *err, int *rc)
{
	pr_str *h = &a->hist;
	*rc = H2EMV_OK;
	if (opened) {
		if (placeholders)
			pr_str_adds(h, " -> no match; opened the forgotten parts instead");
		pr_str_addf(h, " -> %zu nodes visible\n", emv_ex_visible(&a->x));
		return 0;
	}
	pr_str_adds(h, act->kind == POL_QA_SEARCH ? " -> no match; " : " -> ");
	switch (++*unchanged) {
	case 1:
		pr_str_adds(h, EMV_HIST_NOCHANGE "; try something else\n");
		return 0;
	case 2: {
		size_t o = 0;
		*rc = emv_ex_open_all(&a->x, &o, err);
		pr_str_addf(h, EMV_HIST_NOCHANGE " again; opened every closed node instead (%zu) -> "
		               "%zu nodes visible\n", o, emv_ex_visible(&a->x));
		return 0;
	}
	default:
		pr_str_adds(h, EMV_HIST_NOCHANGE " a third time: loop detected; the next round "
		               "must answer\n");
		return 1;
	}
}

static int run(h2emv_answer **out, ask *a, int trace, h2emv_error *err)
{
	h2emv_policy *p = a->mem->policy;
	qa_step_fn step = p->qa_step;
	void *ctx = p->ctx;
	unsigned unchanged = 0;
	int last = 0, rc = H2EMV_OK;
	for (unsigned r = 0;; r++) {
		last |= r + 1 >= a->max_rounds;
		if ((rc = view_build(a)))
			return eng_fail(err, rc, "out of memory");
		pr_str_adds(&a->hist, ""); /* history is "" before the first step */
		if (a->hist.oom)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		pol_qa_view view = {
			.question = a->question, .now = a->now, .nodes = a->items, .depth = a->depth,
			.expanded = a->open, .has_children = a->kids, .n = a->n, .round = (int)r,
			.max_rounds = last ? (int)r + 1 : (int)a->max_rounds, .history = a->hist.s,
		};
		pol_qa_action act = { 0 };
		pol_usage u = { 0 };
		rc = step(ctx, &view, &act, &u, err);
		tokens_add(&a->tokens, &u);
		if (rc) {
			pol_qa_action_free(&act);
			return rc;
		}
		pr_str_addf(&a->hist, "round %u: ", r + 1);
		if (act.kind != POL_QA_ANSWER && last) {
			/* the last round had to answer: answer for it */
			hist_action(&a->hist, &act);
			pr_str_adds(&a->hist, " -> no answer in the last round: budget used up\n");
			pol_qa_action_free(&act);
			memset(&act, 0, sizeof act);
			return a->hist.oom ? eng_fail(err, H2EMV_ENOMEM, "out of memory")
			                   : finish(out, a, NULL, r + 1, trace, err);
		}
		if (act.kind == POL_QA_ANSWER) {
			pr_str_adds(&a->hist, "answer \"");
			pr_str_adds(&a->hist, act.text ? act.text : "");
			pr_str_adds(&a->hist, "\"");
			if (act.n_ids) {
				pr_str_adds(&a->hist, " (evidence ");
				hist_ids(&a->hist, act.ids, act.n_ids);
				pr_str_adds(&a->hist, ")");
			}
			pr_str_adds(&a->hist, act.forgotten ? " [forgotten]\n" : "\n");
			rc = a->hist.oom ? eng_fail(err, H2EMV_ENOMEM, "out of memory")
			                 : finish(out, a, &act, r + 1, trace, err);
			pol_qa_action_free(&act);
			return rc;
		}
		hist_action(&a->hist, &act);
		size_t opened;
		int placeholders;
		rc = apply(a, &act, &opened, &placeholders, err);
		if (rc == H2EMV_OK && act.kind == POL_QA_SEARCH && a->x.cut)
			pr_str_addf(&a->hist, " (stopped after reading %llu nodes)",
			            (unsigned long long)a->x.reads);
		if (rc == H2EMV_OK)
			last |= after_step(a, &act, opened, placeholders, &unchanged, err, &rc);
		pol_qa_action_free(&act);
		if (rc)
			return rc;
		if (!last && a->tokens.prompt + a->tokens.completion >= a->max_tokens) {
			pr_str_addf(&a->hist, "token budget reached (%llu): the next round must answer\n",
			            (unsigned long long)(a->tokens.prompt + a->tokens.completion));
			last = 1;
		}
	}
}

/* ---------------------------------------------------------- the snapshot -- */

/* The snapshot to answer from: a given seq; for a time, the newest whose
 * clock is not after it (none is an error, as for `export --at`: one
 * helper, h2emv_snap_at); or the newest (0). */
static int pick_snapshot(uint64_t *seq, h2emv_mem *mem, const h2emv_ask_options *o,
                         h2emv_error *err)
{
	*seq = o ? o->snapshot : 0;
	if (!o || o->snapshot || !o->at)
		return H2EMV_OK;
	return h2emv_snap_at(seq, mem, o->at, err);
}

/* The builtin policy (and any without a qa_step) answers from the typed
 * facts in one pass (api/recall/). A tree built before typed facts has
 * none to answer from until `h2emv upgrade` derives them: an error that
 * says so. A tree whose walk meets no facts at all (written by hand, with
 * no scenes) has nothing to find. */
static int facts_answer(h2emv_answer **out, ask *a, uint64_t seq, int64_t now, int trace,
                        h2emv_error *err)
{
	int old = 0;
	int rc = upgrade_pending(&old, a->mem, a->snap, err);
	if (rc == H2EMV_OK && old)
		return eng_fail(err, H2EMV_EFORMAT,
		                "snapshot %llu holds a tree built before typed facts (by an older "
		                "h2emv): run `h2emv upgrade` on this memory once (it makes a backup "
		                "first), then ask again",
		                (unsigned long long)seq);
	if (rc == H2EMV_OK)
		rc = recall_answer(out, a->mem, a->snap, a->question, now, a->max_tokens, trace, err);
	if (rc == RECALL_NO_FACTS)
		rc = finish(out, a, NULL, 1, trace, err);
	return rc;
}

int h2emv_ask(h2emv_answer **out, h2emv_mem *mem, const char *question,
              const h2emv_ask_options *opts, h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!out || !mem || !question)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_ask: out, mem and question are required");
	*out = NULL;
	if (opts && opts->version != H2EMV_ASK_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_ask: unknown options version %u",
		                opts->version);
	if (opts && opts->snapshot && opts->at)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_ask: give a snapshot or a time, not both");
	size_t qlen = strlen(question);
	if (qlen > QUESTION_MAX)
		return eng_fail(err, H2EMV_ELIMIT, "h2emv_ask: the question is longer than %d bytes",
		                QUESTION_MAX);
	ask a = { 0 };
	a.mem = mem;
	a.question = question;
	pthread_mutex_lock(&mem->lock);
	a.max_rounds = mem->cfg.qa_max_rounds ? mem->cfg.qa_max_rounds : 10;
	a.max_tokens = mem->cfg.qa_max_tokens ? mem->cfg.qa_max_tokens : 20000;
	pthread_mutex_unlock(&mem->lock);
	uint64_t seq;
	int rc = pick_snapshot(&seq, mem, opts, err);
	if (rc == H2EMV_OK)
		rc = h2emv_snap_open(&a.snap, mem, seq, err);
	if (rc)
		return rc;
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, a.snap);
	a.now = info.t_now;
	h2emv_policy *pol = mem->policy;
	int trace = opts && opts->trace;
	if (info.root.id == 0) {
		rc = finish(out, &a, NULL, 0, trace, err); /* an empty tree */
	} else if (!pol || !pol->qa_step) {
		rc = facts_answer(out, &a, info.seq, opts && opts->at ? opts->at : info.t_now, trace,
		                  err);
	} else {
		const h2emv_node *root = NULL;
		rc = h2emv_snap_root(&root, a.snap, err);
		if (rc == H2EMV_ENOTFOUND)
			rc = eng_fail(err, H2EMV_ECORRUPT, "snapshot %llu: its root is missing",
			              (unsigned long long)info.seq);
		if (rc == H2EMV_OK)
			rc = emv_ex_init(&a.x, a.snap, root, err);
		if (rc == H2EMV_OK)
			rc = run(out, &a, trace, err);
	}
	emv_ex_free(&a.x);
	pr_str_free(&a.hist);
	free(a.items);
	free(a.depth);
	free(a.open);
	free(a.kids);
	for (size_t i = 0; i < a.n_ftext; i++)
		free(a.ftext[i]);
	free(a.ftext);
	h2emv_snap_close(a.snap);
	return rc;
}
