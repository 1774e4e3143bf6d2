/*
 * upgrade.c — h2emv_upgrade: give a tree built before typed facts its facts,
 * so that every question is answered from stored facts (api/recall/).
 *
 * A scene node has kept its observation body since before typed facts, so
 * the facts the builder folds into events and goals (segment.c's add_facts)
 * are derived again from the scenes, in the tree's order, with the same
 * extraction (facts_from_scene, facts_close_run) and the same merging
 * (facts_merge_seq, runs continued across scenes without a pause); the
 * summaries above aggregate their children's as the builder's do. The
 * changed nodes are committed as one new snapshot through the builder's
 * working tree (tree_commit: new node versions, their term-index postings,
 * the snapshot record), under the build lock. h2emv_upgrade (api/mem/
 * upgrade.c) runs it, with the backup between deriving and committing.
 */
#include <stdlib.h>
#include <string.h>

#include "api/builder/build.h"
#include "api/tree/facts.h"
#include "api/config/profile.h"
#include "api/builder/upgrade.h"

#define MAX_DEPTH 64        /* a guard against a damaged, cyclic tree */
#define PENDING_READS 4096  /* nodes upgrade_pending reads at most */

/* An event or a goal whose payload holds no typed facts: [open, aux] of a
 * build before typed facts, or nothing. */
static int lacks_facts(int kind, const uint8_t *p, size_t len)
{
	return (kind == H2EMV_KIND_EVENT || kind == H2EMV_KIND_GOAL) && !(len && p[0] == 0x93);
}

/* ----------------------------------------------------------- upgrading -- */

struct up {
	builder b;
	int tasks;                /* action-list robots: the goal is a task fact too */
	uint64_t prev_keys[96];   /* the previous scene's fact keys (segment.c) */
	size_t n_prev;
	int64_t last_t;           /* the previous scene's end */
	h2emv_upgrade_result r;
	uint64_t done, total;     /* nodes of level >= 3 (progress) */
	const h2emv_upgrade_options *o;
};

static int tlacks(const tnode *n)
{
	return lacks_facts(n->kind, n->payload, n->payload_len);
}

/* Fold one scene's facts into its event and the goals above it that lack
 * theirs, as seg_add does when the scene arrives. */
static int fold_scene(up *u, tnode *sc, tnode *ev)
{
	scene s;
	if (!sc->payload_len || scene_decode(&s, sc->payload, sc->payload_len, NULL) != H2EMV_OK)
		return H2EMV_OK; /* a damaged body gives nothing (check reports it) */
	/* the builder placed a scene stamped before its clock at the clock's
	 * time (seg_add); the node keeps the time it was placed at */
	if (s.t < sc->t_start) {
		s.t = sc->t_start;
		if (s.t_end < s.t)
			s.t_end = s.t;
	}
	int64_t gap = u->last_t ? s.t - u->last_t : 0;
	facts sf = { 0 };
	facts *f;
	int rc = facts_from_scene(&sf, &s, u->b.prof, u->tasks);
	tnode *g = ev->parent;
	if (rc == H2EMV_OK && g && g->kind == H2EMV_KIND_GOAL && tlacks(g) && (f = facts_of(g))) {
		rc = facts_close_run(&sf, f, &s);
		if (rc == H2EMV_OK)
			rc = facts_join_run(&sf, f, &s);
	}
	size_t n_prev = gap > u->b.cfg.event_gap ? 0 : u->n_prev;
	for (tnode *n = ev; rc == H2EMV_OK && n; n = n->parent) {
		if (n->kind != H2EMV_KIND_EVENT && n->kind != H2EMV_KIND_GOAL)
			break;
		if (!tlacks(n))
			continue;
		size_t cap = n->kind == H2EMV_KIND_EVENT ? FACTS_EVENT_MAX : FACTS_GOAL_MAX;
		if (!(f = facts_of(n)) || facts_merge_seq(f, &sf, u->prev_keys, n_prev, cap))
			rc = H2EMV_ENOMEM;
	}
	u->n_prev = 0;
	for (size_t i = 0; i < sf.n && u->n_prev < sizeof u->prev_keys / sizeof *u->prev_keys; i++)
		u->prev_keys[u->n_prev++] = sf.v[i].key;
	u->last_t = s.t_end > s.t ? s.t_end : s.t;
	facts_free(&sf);
	scene_free(&s);
	return rc;
}

/* An event or goal that got facts is written at the commit. */
static int settle(up *u, tnode *n)
{
	facts *f = facts_of(n);
	if (!f)
		return H2EMV_ENOMEM;
	if (f->n) {
		facts_touch(n);
		if (n->kind == H2EMV_KIND_EVENT)
			u->r.events++;
		else
			u->r.goals++;
	}
	return H2EMV_OK;
}

static int any_dirty_kid(const tnode *n)
{
	for (uint32_t i = 0; i < n->n_kids; i++)
		if (n->kids[i]->dirty)
			return 1;
	return 0;
}

static void progress(up *u, const tnode *n)
{
	if (n->level < 3 || n->kind == H2EMV_KIND_ROOT)
		return;
	u->done++;
	if (u->o && u->o->progress && (u->done % 256 == 0 || u->done == u->total))
		(void)u->o->progress(u->o->progress_ctx, "nodes", u->done, u->total);
}

static int upgrade_node(up *u, tnode *n, int depth, h2emv_error *err)
{
	if (n->kind == H2EMV_KIND_FORGOTTEN || n->kind == H2EMV_KIND_SCENE || depth > MAX_DEPTH)
		return H2EMV_OK;
	int rc = tree_kids(&u->b.t, n, err);
	for (uint32_t i = 0; rc == H2EMV_OK && i < n->n_kids; i++) {
		tnode *k = n->kids[i];
		if (n->kind == H2EMV_KIND_EVENT && k->kind == H2EMV_KIND_SCENE)
			rc = fold_scene(u, k, n);
		else
			rc = upgrade_node(u, k, depth + 1, err);
	}
	if (rc == H2EMV_OK && tlacks(n))
		rc = settle(u, n);
	else if (rc == H2EMV_OK && n->kind != H2EMV_KIND_EVENT && n->kind != H2EMV_KIND_GOAL &&
	         any_dirty_kid(n)) {
		/* a summary (or the root) over children that got facts */
		rc = facts_aggregate(n);
		u->r.summaries += rc == H2EMV_OK && n->kind != H2EMV_KIND_ROOT;
	}
	if (rc == H2EMV_ENOMEM)
		return eng_fail(err, rc, "out of memory deriving typed facts");
	progress(u, n);
	return rc;
}

int upgrade_derive(up **out, h2emv_mem *mem, const h2emv_upgrade_options *opts,
                   h2emv_error *err)
{
	*out = NULL;
	up *u = calloc(1, sizeof *u);
	if (!u)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	u->o = opts;
	int rc = builder_open(&u->b, mem, err);
	if (rc) {
		free(u);
		return rc;
	}
	u->tasks = u->b.cfg.profile != H2EMV_PROFILE_SKILL_STACK;
	u->total = tree_size_l3(&u->b.t);
	rc = upgrade_node(u, u->b.t.root, 0, err);
	u->r.nodes_read = u->b.t.n_read;
	if (rc) {
		upgrade_free(u);
		return rc;
	}
	*out = u;
	return H2EMV_OK;
}

h2emv_upgrade_result *upgrade_result(up *u)
{
	return &u->r;
}

int upgrade_commit(up *u, h2emv_error *err)
{
	if (!u->r.events && !u->r.goals)
		return H2EMV_OK;
	return tree_commit(&u->b.t, u->b.mem->env, NULL, 0, &u->r.snapshot, err);
}

void upgrade_free(up *u)
{
	if (!u)
		return;
	builder_close(&u->b);
	free(u);
}

/* ------------------------------------------------ is an upgrade pending -- */

typedef struct pend {
	h2emv_snap *snap;
	robot_profile *prof;
	int tasks;
	unsigned reads;
	int lacking;              /* an event or goal on the path lacks facts */
	int found;                /* 1 pending, 0 not, -1 undecided */
} pend;

/* Does the scene's observation give any facts? */
static int scene_has_facts(pend *p, const h2emv_node *n)
{
	size_t len = 0;
	const void *body = h2emv_node_payload(n, &len);
	scene s;
	if (!body || !len || scene_decode(&s, body, len, NULL) != H2EMV_OK)
		return 0;
	facts f = { 0 };
	int rc = facts_from_scene(&f, &s, p->prof, p->tasks);
	int has = rc == H2EMV_OK && f.n > 0;
	facts_free(&f);
	scene_free(&s);
	return has;
}

/* Depth first to the first scene that gives facts: pending when an event
 * or goal above it has none. */
static int seek(pend *p, const h2emv_node *n, int depth, h2emv_error *err)
{
	int kind = h2emv_node_kind(n);
	if (p->found >= 0 || depth > MAX_DEPTH || ++p->reads > PENDING_READS ||
	    kind == H2EMV_KIND_FORGOTTEN)
		return H2EMV_OK;
	if (kind == H2EMV_KIND_SCENE) {
		if (scene_has_facts(p, n))
			p->found = p->lacking;
		return H2EMV_OK;
	}
	size_t len = 0;
	const uint8_t *pay = h2emv_node_payload(n, &len);
	int lacked = p->lacking;
	p->lacking |= lacks_facts(kind, pay, len);
	size_t k = h2emv_node_child_count(n);
	int rc = H2EMV_OK;
	for (size_t i = 0; rc == H2EMV_OK && i < k && p->found < 0; i++) {
		const h2emv_node *c;
		rc = h2emv_node_child(&c, p->snap, n, i, err);
		if (rc == H2EMV_ENOTFOUND)
			rc = H2EMV_OK; /* (the question path reports a missing child) */
		else if (rc == H2EMV_OK)
			rc = seek(p, c, depth + 1, err);
	}
	p->lacking = lacked;
	return rc;
}

int upgrade_pending(int *out, h2emv_mem *mem, h2emv_snap *snap, h2emv_error *err)
{
	*out = 0;
	const h2emv_node *root;
	int rc = h2emv_snap_root(&root, snap, err);
	if (rc)
		return rc == H2EMV_ENOTFOUND ? H2EMV_OK : rc;
	size_t len = 0;
	const uint8_t *pay = h2emv_node_payload(root, &len);
	if (len && pay[0] == 0x93)
		return H2EMV_OK; /* the builder aggregates the tree's facts into its root */
	h2emv_config cfg;
	pend p = { .snap = snap, .found = -1 };
	rc = h2emv_config_get(&cfg, mem, err);
	if (rc == H2EMV_OK)
		rc = profile_load(&p.prof, mem->env, err);
	p.tasks = rc == H2EMV_OK && cfg.profile != H2EMV_PROFILE_SKILL_STACK;
	if (rc == H2EMV_OK)
		rc = seek(&p, root, 0, err);
	profile_free(p.prof);
	*out = p.found > 0;
	return rc;
}
