/*
 * segment.c — the rule-based lower levels: one L1 scene per observation,
 * L2 events, L3 goals (docs/tree.md).
 *
 * A new event starts when the action or its arguments, the objects or their
 * states, or the relations change; when someone speaks; or after a pause
 * longer than cfg.event_gap. Goals:
 *  - teach: a goal collects events until a successful object interaction,
 *    which closes it (the paper's TEACh setting);
 *  - skill-stack: the observation's goal stack (outermost first) opens and
 *    closes nested goals; events go to the innermost (the ARMAR-7 setting);
 *    with no stack, the action's name is the goal.
 * Any open goal also closes after a pause of GOAL_GAP_FACTOR × event_gap.
 *
 * While open, the outermost goal hangs under the root as its last child, so
 * questions see what is happening now; when it closes it moves into the
 * levels above (build_tree.c), which is when the policy is asked anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/builder/build.h"
#include "api/tree/facts.h"

#define GOAL_GAP_FACTOR 15
#define GOAL_MAX_ACTIONS 12
#define GOAL_MAX_SPEECH 10

/* ------------------------------------------------------------ payloads -- */

/* Events and goals carry [open, aux, facts] (api/facts.h): aux is the
 * event key of the last scene, or the goal's depth. */
static int set_goal_payload(tnode *g, int open, int depth)
{
	return facts_set_head(g, open, (uint64_t)(depth & 0x7f));
}

static int goal_open(const tnode *g)
{
	int open;
	uint64_t aux;
	return g->kind == H2EMV_KIND_GOAL && facts_payload_head(g->payload, g->payload_len, &open,
	                                                        &aux) && open;
}

static int set_event_payload(tnode *e, int open, uint64_t key)
{
	return facts_set_head(e, open, key);
}

static int event_open(const tnode *e)
{
	int open;
	uint64_t aux;
	return e->kind == H2EMV_KIND_EVENT && facts_payload_head(e->payload, e->payload_len, &open,
	                                                         &aux) && open;
}

static uint64_t event_key(const tnode *e)
{
	int open;
	uint64_t aux;
	return facts_payload_head(e->payload, e->payload_len, &open, &aux) ? aux : 0;
}

/* Fold a scene's facts into its event and every open goal. A fact that was
 * in the previous scene (with no pause between) continues; any other is a
 * new occurrence, so counts are runs, not scenes. */
static int add_facts(builder *b, const scene *s, int64_t gap)
{
	facts sf = { 0 };
	facts *f;
	int rc = facts_from_scene(&sf, s, b->prof, b->cfg.profile != H2EMV_PROFILE_SKILL_STACK);
	/* a line that only closes its goal, or an action's final line with no
	 * arguments, ends the run the goal holds (facts_close_run) */
	if (rc == H2EMV_OK && b->n_goals && (f = facts_of(b->goals[b->n_goals - 1])))
		rc = facts_close_run(&sf, f, s);
	if (rc == H2EMV_OK && b->n_goals && (f = facts_of(b->goals[b->n_goals - 1])))
		rc = facts_join_run(&sf, f, s);
	size_t n_prev = gap > b->cfg.event_gap ? 0 : b->n_prev;
	if (rc == H2EMV_OK && b->event) {
		if (!(f = facts_of(b->event)) ||
		    facts_merge_seq(f, &sf, b->prev_keys, n_prev, FACTS_EVENT_MAX))
			rc = H2EMV_ENOMEM;
		else
			facts_touch(b->event);
	}
	for (int d = 0; rc == H2EMV_OK && d < b->n_goals; d++) {
		if (!(f = facts_of(b->goals[d])) ||
		    facts_merge_seq(f, &sf, b->prev_keys, n_prev, FACTS_GOAL_MAX))
			rc = H2EMV_ENOMEM;
		else
			facts_touch(b->goals[d]);
	}
	b->n_prev = 0;
	for (size_t i = 0; i < sf.n && b->n_prev < sizeof b->prev_keys / sizeof *b->prev_keys; i++)
		b->prev_keys[b->n_prev++] = sf.v[i].key;
	facts_free(&sf);
	return rc;
}

/* ------------------------------------------------------------- resuming -- */

int seg_resume(builder *b, h2emv_error *err)
{
	b->n_goals = 0;
	b->event = NULL;
	b->last_key = 0;
	b->last_t = 0;
	tnode *root = b->t.root;
	/* the time of the newest scene anywhere: the tree's end */
	b->last_t = root->t_end;
	if (!root->n_kids)
		return H2EMV_OK;
	/* the open frontier is read into memory (and stays there) */
	tnode *g = root->kids[root->n_kids - 1];
	int rc = H2EMV_OK;
	while (rc == H2EMV_OK && g && goal_open(g) && b->n_goals < GOAL_DEPTH) {
		b->goals[b->n_goals++] = g;
		if ((rc = tree_kids(&b->t, g, err)))
			break;
		tnode *last = g->n_kids ? g->kids[g->n_kids - 1] : NULL;
		g = last && last->kind == H2EMV_KIND_GOAL ? last : NULL;
	}
	if (rc == H2EMV_OK && b->n_goals) {
		tnode *in = b->goals[b->n_goals - 1];
		tnode *e = in->n_kids ? in->kids[in->n_kids - 1] : NULL;
		if (e && event_open(e)) {
			b->event = e;
			b->last_key = event_key(e);
			rc = tree_kids(&b->t, e, err);
		}
	}
	return rc;
}

/* ---------------------------------------------------------- goal blocks -- */

/* The value of the first line starting with `label` in `text`, or NULL. */
static const char *line_value(const char *text, const char *label, size_t *len)
{
	size_t ln = strlen(label);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= ln && !memcmp(p, label, ln)) {
			*len = n - ln;
			return p + ln;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static int contains(const char *list, size_t n, const char *item, size_t in)
{
	for (const char *p = list; p && p < list + n;) {
		const char *c = memchr(p, ',', (size_t)(list + n - p));
		size_t len = c ? (size_t)(c - p) : (size_t)(list + n - p);
		if (len == in && !memcmp(p, item, in))
			return 1;
		p = c ? c + 2 : NULL;
	}
	return 0;
}

/* What a goal block gathers from the goal's children. */
typedef struct goal_parts {
	pr_str acts, persons, speech;
	size_t n_acts, n_speech;
	const char *loc, *objs, *rels; /* the last child's that has one */
	size_t loc_n, objs_n, rels_n;
} goal_parts;

/* A child as one action of the goal's Actions: line (a nested goal in
 * brackets). */
static void add_action(goal_parts *gp, const tnode *k)
{
	int nested = k->kind == H2EMV_KIND_GOAL;
	size_t n;
	const char *v = line_value(k->summary, nested ? "Goal: " : "Action: ", &n);
	if (!v)
		return;
	if (gp->n_acts++)
		pr_str_adds(&gp->acts, "; ");
	if (nested)
		pr_str_adds(&gp->acts, "[");
	pr_str_add(&gp->acts, v, n);
	if (nested)
		pr_str_adds(&gp->acts, "]");
}

/* The names of a child's Persons: list not yet on the goal's. */
static void add_persons(goal_parts *gp, const char *v, size_t n)
{
	for (const char *p = v; p < v + n;) {
		const char *c = memchr(p, ',', (size_t)(v + n - p));
		size_t len = c ? (size_t)(c - p) : (size_t)(v + n - p);
		if (!contains(gp->persons.s, gp->persons.len, p, len)) {
			if (gp->persons.len)
				pr_str_adds(&gp->persons, ", ");
			pr_str_add(&gp->persons, p, len);
		}
		p = c ? c + 2 : v + n;
	}
}

/* An event's Speech: line, stamped with the event's time of day. */
static void add_speech(goal_parts *gp, const tnode *k, const char *v, size_t n)
{
	char ts[16];
	time_t sec = (time_t)(k->t_start / 1000000);
	struct tm tm;
	gmtime_r(&sec, &tm);
	strftime(ts, sizeof ts, "%H:%M:%S", &tm);
	pr_str_adds(&gp->speech, "\nSpeech: ");
	pr_str_adds(&gp->speech, ts);
	pr_str_adds(&gp->speech, " ");
	pr_str_add(&gp->speech, v, n);
	gp->n_speech++;
}

/* Gather the parts from the goal's children; the actions from child
 * `first` on only. */
static void collect_parts(goal_parts *gp, const tnode *g, uint32_t first)
{
	for (uint32_t i = 0; i < g->n_kids; i++) {
		const tnode *k = g->kids[i];
		const char *v;
		size_t n;
		if (i >= first)
			add_action(gp, k);
		if ((v = line_value(k->summary, "Location: ", &n))) {
			gp->loc = v;
			gp->loc_n = n;
		}
		if ((v = line_value(k->summary, "Persons: ", &n)))
			add_persons(gp, v, n);
		if (k->kind == H2EMV_KIND_EVENT && (v = line_value(k->summary, "Speech: ", &n)) &&
		    gp->n_speech < GOAL_MAX_SPEECH)
			add_speech(gp, k, v, n);
		if (k->kind == H2EMV_KIND_EVENT) {
			gp->objs = line_value(k->summary, "Objects: ", &gp->objs_n);
			gp->rels = line_value(k->summary, "Relations: ", &gp->rels_n);
		}
	}
}

/* The goal block itself, in the order of docs/tree.md. `first` actions
 * were left out. */
static void write_goal(pr_str *o, const goal_parts *gp, const char *name, uint32_t first)
{
	pr_str_adds(o, "Goal: ");
	pr_str_adds(o, name);
	if (first) {
		char more[48];
		snprintf(more, sizeof more, "\nActions: (%u earlier) ", first);
		pr_str_adds(o, more);
	} else {
		pr_str_adds(o, "\nActions: ");
	}
	pr_str_add(o, gp->acts.s, gp->acts.len);
	if (gp->loc) {
		pr_str_adds(o, "\nLocation: ");
		pr_str_add(o, gp->loc, gp->loc_n);
	}
	if (gp->persons.len) {
		pr_str_adds(o, "\nPersons: ");
		pr_str_add(o, gp->persons.s, gp->persons.len);
	}
	pr_str_add(o, gp->speech.s, gp->speech.len);
	if (gp->objs) {
		pr_str_adds(o, "\nObjects: ");
		pr_str_add(o, gp->objs, gp->objs_n);
	}
	if (gp->rels) {
		pr_str_adds(o, "\nRelations: ");
		pr_str_add(o, gp->rels, gp->rels_n);
	}
}

/* Render the goal block (docs/tree.md) from the goal's children: the last
 * GOAL_MAX_ACTIONS actions, the latest place, everyone met, the first
 * GOAL_MAX_SPEECH utterances, the latest objects and relations. */
static int render_goal(tnode *g, const char *name)
{
	goal_parts gp = { 0 };
	uint32_t first = g->n_kids > GOAL_MAX_ACTIONS ? g->n_kids - GOAL_MAX_ACTIONS : 0;
	collect_parts(&gp, g, first);
	pr_str o = { 0 };
	write_goal(&o, &gp, name, first);
	int oom = o.oom || gp.acts.oom || gp.persons.oom || gp.speech.oom;
	int rc = oom ? H2EMV_ENOMEM : tree_set_summary(g, o.s, o.len);
	pr_str_free(&o);
	pr_str_free(&gp.acts);
	pr_str_free(&gp.persons);
	pr_str_free(&gp.speech);
	return rc;
}

/* The goal's name: its stored "Goal: " line (skill-stack names are set at
 * creation; teach goals are named by their closing interaction). */
static int goal_name(const tnode *g, char *out, size_t cap)
{
	size_t n;
	const char *v = line_value(g->summary, "Goal: ", &n);
	if (!v)
		return snprintf(out, cap, "%s", "unnamed");
	return snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
}

/* ------------------------------------------------------------- ranges -- */

/* τ at creation is t_end + Δt·γ; while a node still grows its τ follows. */
static void extend(builder *b, tnode *n, int64_t t_end)
{
	if (t_end > n->t_end) {
		n->t_end = t_end;
		tree_touch(n);
	}
	if (b->cfg.forgetting == H2EMV_FORGET_NONE) {
		n->expiry = H2EMV_TIME_NEVER;
		return;
	}
	int64_t life = life_of(b, n);
	int64_t tau = n->t_end > INT64_MAX - life ? H2EMV_TIME_NEVER : n->t_end + life;
	if (tau > n->expiry || n->expiry == H2EMV_TIME_NEVER) {
		n->expiry = tau;
		tree_touch(n);
		tree_raise_expiry(n);
		tree_mark_unknown(n);
	}
}

static tnode *new_child(builder *b, tnode *parent, int level, int kind, int64_t t0,
                        h2emv_error *err)
{
	tnode *n = tree_node_new(&b->t, level, kind);
	if (n) {
		n->t_start = n->t_end = t0;
		n->expiry = INT64_MIN; /* set by extend() once it has a parent */
	}
	if (!n || tree_insert(parent, n, parent->n_kids)) {
		free(n);
		eng_fail(err, H2EMV_ENOMEM, "out of memory building the tree");
		return NULL;
	}
	extend(b, n, t0);
	return n;
}

/* --------------------------------------------------------------- closing -- */

static int close_event(builder *b)
{
	if (!b->event)
		return H2EMV_OK;
	int rc = set_event_payload(b->event, 0, b->last_key);
	b->event = NULL;
	return rc;
}

/* Close goals deeper than `keep` (0: all). The outermost, when closed,
 * leaves the root's edge and is placed into the levels above. */
static int close_goals(builder *b, int keep, h2emv_error *err)
{
	int rc = close_event(b);
	while (rc == H2EMV_OK && b->n_goals > keep) {
		tnode *g = b->goals[--b->n_goals];
		char name[512];
		goal_name(g, name, sizeof name);
		if (b->cfg.profile == H2EMV_PROFILE_TEACH) {
			/* named by its closing interaction, if it had one */
			tnode *e = g->n_kids ? g->kids[g->n_kids - 1] : NULL;
			size_t n;
			const char *v = e ? line_value(e->summary, "Action: ", &n) : NULL;
			const char *st = v ? memchr(v, ')', n) : NULL;
			if (v && st && !strncmp(name, "(ongoing)", 9))
				snprintf(name, sizeof name, "%.*s", (int)(st - v + 1), v);
			else if (!strncmp(name, "(ongoing)", 9))
				snprintf(name, sizeof name, "idle");
		}
		if ((rc = render_goal(g, name)) || (rc = set_goal_payload(g, 0, b->n_goals)))
			return eng_fail(err, rc, "out of memory closing a goal");
		if (b->n_goals == 0 && !b->cfg.flat) {
			tnode *root = b->t.root;
			tree_detach(root, root->n_kids - 1);
			rc = bt_push(b, g, err);
		}
	}
	return rc;
}

int seg_close_all(builder *b, h2emv_error *err)
{
	return close_goals(b, 0, err);
}

/* ----------------------------------------------------------- one scene -- */

/* Open goals for the stack entries from `from` on (skill-stack), or one
 * "(ongoing)" goal (teach). */
static int open_goals(builder *b, const scene *s, int from, h2emv_error *err)
{
	int want = b->cfg.profile == H2EMV_PROFILE_SKILL_STACK
	               ? (s->n_goal ? (int)s->n_goal : 1)
	               : 1;
	if (want > GOAL_DEPTH)
		want = GOAL_DEPTH;
	for (int d = from; d < want; d++) {
		tnode *parent = d ? b->goals[d - 1] : b->t.root;
		tnode *g = new_child(b, parent, 3, H2EMV_KIND_GOAL, s->t, err);
		if (!g)
			return H2EMV_ENOMEM;
		if (d)
			tree_nest(&b->t, g);
		char name[1024];
		size_t len = 0;
		name[0] = 0;
		if (b->cfg.profile == H2EMV_PROFILE_TEACH) {
			len = (size_t)snprintf(name, sizeof name, "(ongoing)");
		} else if (s->n_goal) {
			for (int i = 0; i <= d && len < sizeof name - 2; i++)
				len += (size_t)snprintf(name + len, sizeof name - len, "%s%s", i ? "." : "",
				                        s->goal[i]);
		} else {
			snprintf(name, sizeof name, "%s", s->action ? s->action : "idle");
		}
		char text[1100];
		int n = snprintf(text, sizeof text, "Goal: %s", name);
		if (tree_set_summary(g, text, (size_t)n) || set_goal_payload(g, 1, d))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		b->goals[b->n_goals++] = g;
	}
	return H2EMV_OK;
}

/* How many open goals the scene's goal stack keeps (common prefix). */
static int kept_depth(const builder *b, const scene *s)
{
	if (b->cfg.profile == H2EMV_PROFILE_TEACH)
		return b->n_goals;
	int k = 0;
	for (; k < b->n_goals; k++) {
		char name[1024];
		goal_name(b->goals[k], name, sizeof name);
		/* goal k is named by the stack up to k: compare its last step */
		const char *last = strrchr(name, '.');
		last = last ? last + 1 : name;
		const char *want = s->n_goal > (size_t)k ? s->goal[k] : (k == 0 && !s->n_goal && s->action
		                                                         ? s->action : NULL);
		if (!want || strcmp(last, want))
			break;
	}
	return k;
}

static int add_scene(builder *b, tnode *event, const scene *s, const void *body, size_t blen,
                     const pr_str *text, h2emv_error *err)
{
	tnode *sc = new_child(b, event, 1, H2EMV_KIND_SCENE, s->t, err);
	if (!sc)
		return H2EMV_ENOMEM;
	extend(b, sc, s->t_end);
	if (tree_set_summary(sc, text->s, text->len) ||
	    tree_set_payload(sc, body, blen))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	return H2EMV_OK;
}

int seg_add(builder *b, const scene *in, const void *body, size_t blen, h2emv_error *err)
{
	/* The log's order is the tree's order. An observation stamped earlier
	 * than the memory's clock (a clock step, a late sensor, or any time
	 * before a `forget --now` that moved the clock past the newest scene)
	 * is placed at the clock's time (docs/formats.md §1.7): ranges in the
	 * tree never go backwards, and what it opens is judged at that clock,
	 * not born expired. The stored observation keeps its own time. */
	scene clamped;
	const scene *s = in;
	int64_t clock = b->last_t > b->t.t_now ? b->last_t : b->t.t_now;
	if (clock && in->t < clock) {
		clamped = *in;
		clamped.t = clock;
		if (clamped.t_end < clamped.t)
			clamped.t_end = clamped.t;
		s = &clamped;
	}
	int rc = H2EMV_OK;
	int64_t gap = b->last_t ? s->t - b->last_t : 0;
	/* (a line that closes the run its goal holds continues that goal, so
	 * long a run took: "HoseWash" started, "HoseWash succeeded" 35 min on) */
	if (b->n_goals && gap > GOAL_GAP_FACTOR * b->cfg.event_gap &&
	    !(kept_depth(b, s) == b->n_goals &&
	      facts_closes_run(facts_of(b->goals[b->n_goals - 1]), s)))
		rc = close_goals(b, 0, err);
	uint64_t key = scene_event_key(s);
	int new_event = !b->event || key != b->last_key || s->n_speech || gap > b->cfg.event_gap;
	int keep = kept_depth(b, s);
	if (rc == H2EMV_OK && keep < b->n_goals) {
		rc = close_goals(b, keep, err);
		new_event = 1;
	}
	if (rc == H2EMV_OK && (b->n_goals == 0 || keep < b->n_goals + 1) &&
	    (b->n_goals == 0 || b->cfg.profile == H2EMV_PROFILE_SKILL_STACK))
		rc = open_goals(b, s, b->n_goals, err);
	if (rc)
		return rc;
	tnode *g = b->goals[b->n_goals - 1];
	if (new_event || !b->event || b->event->parent != g) {
		if ((rc = close_event(b)))
			return rc;
		if (!(b->event = new_child(b, g, 2, H2EMV_KIND_EVENT, s->t, err)))
			return H2EMV_ENOMEM;
	}
	b->last_key = key;
	b->last_t = s->t_end > s->t ? s->t_end : s->t;
	pr_str text = { 0 };
	rc = scene_render(&text, s);
	if (rc == H2EMV_OK)
		rc = add_scene(b, b->event, s, body, blen, &text, err);
	if (rc == H2EMV_OK && (tree_set_summary(b->event, text.s, text.len) ||
	                       set_event_payload(b->event, 1, key)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	pr_str_free(&text);
	if (rc == H2EMV_OK && (rc = add_facts(b, s, gap)))
		rc = eng_fail(err, rc, "out of memory folding a scene's facts");
	if (rc)
		return rc;
	extend(b, b->event, b->last_t);
	for (int d = b->n_goals - 1; d >= 0 && rc == H2EMV_OK; d--) {
		tnode *gd = b->goals[d];
		extend(b, gd, b->last_t);
		char name[1024];
		goal_name(gd, name, sizeof name);
		rc = render_goal(gd, name);
	}
	tree_fit_range(b->t.root);
	if (rc == H2EMV_OK && b->cfg.profile == H2EMV_PROFILE_TEACH && scene_is_interaction(s))
		rc = close_goals(b, 0, err);
	return rc;
}
