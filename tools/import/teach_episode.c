/*
 * teach_episode.c — one TEACh EDH episode to observations: which
 * interactions count, how actions are written, what each step sees and
 * holds, and the goal each step leads to (see imp_teach in import.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { AGENT_COMMANDER = 0, AGENT_DRIVER = 1, ACT_TEXT = 100 };
enum { PICKUP = 200, PLACE, OPEN, CLOSE, TOGGLE_ON, TOGGLE_OFF, SLICE, DIRTY, CLEAN, FILL,
       EMPTY, POUR, BREAK };

/* TEACh's action names in CamelCase, Pan Left/Right renamed as upstream. */
static const char *const motion_names[] = { "Stop",      "MoveTo",   "Forward",      "Backward",
	                                    "TurnLeft",  "TurnRight", "LookUp",      "LookDown",
	                                    "StepLeft",  "StepRight", "MoveUp",      "MoveDown",
	                                    "DoubleForward", "DoubleBackward" };
static const char *const interaction_names[] = { "Pickup",    "Place", "Open",  "Close", "ToggleOn",
	                                         "ToggleOff", "Slice", "Dirty", "Clean", "Fill",
	                                         "Empty",     "Pour",  "Break" };

/* One relevant interaction, fields borrowed from the JSON. */
typedef struct step {
	int agent, action, success;
	double ts;
	const char *oid;  /* NULL when absent or null */
	const char *text; /* utterance (corrected when there is one) */
} step;

typedef struct episode {
	const char *path;
	step *s;
	size_t n;
	uint64_t skipped;
	double hist_end; /* time_start of the last history action; < 0 when none */
} episode;

static const char *action_name(int id)
{
	if (id >= 0 && id <= 13)
		return motion_names[id];
	if (id >= PICKUP && id <= BREAK)
		return interaction_names[id - PICKUP];
	return id == ACT_TEXT ? "Say" : NULL;
}

static int blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

static int field_err(h2emv_error *err, const char *path, size_t i, const char *name,
                     const char *want, const json_t *got)
{
	char field[96];
	snprintf(field, sizeof field, "interactions[%zu].%s", i, name);
	return imp_fail(err, H2EMV_EPARSE, field, "%s: field '%s': expected %s, got %s", path, field,
	                want, imp_json_kind(got));
}

/* Check one interaction and fill `st`. Returns 1 when it is relevant, 0
 * when skipped, or an error status. */
static int read_step(step *st, json_t *it, size_t i, const char *path, h2emv_error *err)
{
	if (!json_is_object(it)) {
		char field[64];
		snprintf(field, sizeof field, "interactions[%zu]", i);
		return imp_fail(err, H2EMV_EPARSE, field, "%s: field '%s': expected an object, got %s",
		                path, field, imp_json_kind(it));
	}
	json_t *agent = json_object_get(it, "agent_id"), *action = json_object_get(it, "action_id");
	json_t *ts = json_object_get(it, "time_start"), *ok = json_object_get(it, "success");
	if (!json_is_integer(agent))
		return field_err(err, path, i, "agent_id", "an integer", agent);
	if (!json_is_integer(action))
		return field_err(err, path, i, "action_id", "an integer", action);
	memset(st, 0, sizeof *st);
	st->agent = (int)json_integer_value(agent);
	st->action = (int)json_integer_value(action);
	int relevant = st->agent == AGENT_DRIVER ? action_name(st->action) != NULL
	                                         : st->agent == AGENT_COMMANDER && st->action == ACT_TEXT;
	if (!relevant) /* the rest is not read (a progress check's success may be null) */
		return 0;
	if (!json_is_number(ts) || !isfinite(json_number_value(ts)) || json_number_value(ts) < 0)
		return field_err(err, path, i, "time_start", "a number of seconds >= 0", ts);
	if (!json_is_integer(ok) && !json_is_boolean(ok))
		return field_err(err, path, i, "success", "0 or 1", ok);
	st->ts = json_number_value(ts);
	st->success = json_is_boolean(ok) ? json_is_true(ok) : json_integer_value(ok) != 0;
	if (st->action == ACT_TEXT) {
		json_t *u = json_object_get(it, "utterance"), *c = json_object_get(it, "corrected_utterance");
		if (!json_is_string(u))
			return field_err(err, path, i, "utterance", "a string", u);
		if (c && !json_is_string(c) && !json_is_null(c))
			return field_err(err, path, i, "corrected_utterance", "a string", c);
		st->text = json_is_string(c) ? json_string_value(c) : json_string_value(u);
		if (blank(st->text)) {
			st->text = "";
			if (st->agent == AGENT_COMMANDER) /* says nothing, does nothing */
				return 0;
		}
	}
	json_t *oid = json_object_get(it, "oid");
	if (oid && !json_is_string(oid) && !json_is_null(oid))
		return field_err(err, path, i, "oid", "a string or null", oid);
	if (json_is_string(oid) && *json_string_value(oid))
		st->oid = json_string_value(oid);
	return 1;
}

static int read_episode(episode *e, json_t *edh, h2emv_error *err)
{
	json_t *its = json_object_get(edh, "interactions");
	if (!json_is_array(its))
		return imp_fail(err, H2EMV_EPARSE, "interactions",
		                "%s: field 'interactions': expected an array, got %s", e->path,
		                imp_json_kind(its));
	e->s = calloc(json_array_size(its) + 1, sizeof *e->s);
	if (!e->s)
		return imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
	size_t i;
	json_t *it;
	json_array_foreach(its, i, it) {
		int rc = read_step(&e->s[e->n], it, i, e->path, err);
		if (rc < 0)
			return rc;
		if (rc == 1)
			e->n++;
		else
			e->skipped++;
	}
	e->hist_end = -1;
	json_t *h = json_object_get(edh, "driver_action_history");
	if (h && !json_is_array(h))
		return imp_fail(err, H2EMV_EPARSE, "driver_action_history",
		                "%s: field 'driver_action_history': expected an array, got %s", e->path,
		                imp_json_kind(h));
	json_t *last = json_array_get(h, json_array_size(h) ? json_array_size(h) - 1 : 0);
	if (last && json_is_number(json_object_get(last, "time_start")))
		e->hist_end = json_number_value(json_object_get(last, "time_start"));
	return H2EMV_OK;
}

/* ---------------------------------------------------------- one step -- */

/* The objects and relations a step shows: `shown` indices into the table. */
typedef struct view {
	int *shown;
	size_t n;
} view;

static int show(view *v, int idx)
{
	if (idx < 0)
		return 0;
	for (size_t i = 0; i < v->n; i++)
		if (v->shown[i] == idx)
			return 0;
	int *s = realloc(v->shown, (v->n + 1) * sizeof *s);
	if (!s)
		return -1;
	s[v->n++] = idx;
	v->shown = s;
	return 0;
}

/* Apply a successful driver action to the tracked state. Returns the
 * object that was placed (Place), or -1. */
static int apply_action(tobjs *t, int action, int target)
{
	static const struct {
		int action;
		unsigned flag, on;
	} flips[] = { { OPEN, TF_OPEN, 1 },          { CLOSE, TF_OPEN, 0 },  { TOGGLE_ON, TF_TOGGLED, 1 },
		      { TOGGLE_OFF, TF_TOGGLED, 0 }, { SLICE, TF_SLICED, 1 }, { DIRTY, TF_DIRTY, 1 },
		      { CLEAN, TF_DIRTY, 0 },        { FILL, TF_FILLED, 1 },  { EMPTY, TF_FILLED, 0 },
		      { BREAK, TF_BROKEN, 1 } };
	int placed = -1;
	if (action == PICKUP && target >= 0) {
		t->held = target;
		t->v[target].parent = -1;
	} else if (action == PLACE && t->held >= 0) {
		placed = t->held;
		t->v[placed].parent = target;
		t->held = -1;
	}
	for (size_t k = 0; target >= 0 && k < sizeof flips / sizeof flips[0]; k++)
		if (flips[k].action == action)
			t->v[target].flags = flips[k].on ? t->v[target].flags | flips[k].flag
			                                 : t->v[target].flags & ~flips[k].flag;
	return placed;
}

/* The action object and its short text ("Place(Potato_0, Pot)"). */
static json_t *make_action(const step *s, const tobjs *t, int target, char *text, size_t tn)
{
	json_t *a = json_object(), *args = NULL;
	const char *name = action_name(s->action);
	if (!name) /* not reached: only relevant steps have actions */
		name = "Unknown";
	json_object_set_new(a, "name", json_string(name));
	int len = snprintf(text, tn, "%s(", name);
	if (s->action >= PICKUP) {
		args = json_array();
		if ((s->action == PLACE || s->action == POUR) && t->held >= 0)
			json_array_append_new(args, json_string(t->v[t->held].name));
		if (target >= 0)
			json_array_append_new(args, json_string(t->v[target].name));
		for (size_t i = 0; i < json_array_size(args); i++)
			len += snprintf(text + len, len < (int)tn ? tn - (size_t)len : 0, "%s%s", i ? ", " : "",
			                json_string_value(json_array_get(args, i)));
		if (json_array_size(args))
			json_object_set_new(a, "args", args);
		else
			json_decref(args);
	}
	snprintf(text + len, len < (int)tn ? tn - (size_t)len : 0, ")");
	json_object_set_new(a, "status", json_string(s->success ? "succeeded" : "failed"));
	return a;
}

static json_t *make_objects(const tobjs *t, const view *v, json_t **relations)
{
	json_t *objs = json_array(), *rels = json_array();
	char buf[128];
	for (size_t i = 0; i < v->n; i++) {
		const tobj *o = &t->v[v->shown[i]];
		json_t *jo = json_object();
		json_object_set_new(jo, "id", json_string(o->name));
		json_object_set_new(jo, "type", json_string(o->type));
		const char *st = tobj_state(o, buf, sizeof buf);
		if (st)
			json_object_set_new(jo, "state", json_string(st));
		json_array_append_new(objs, jo);
		if (v->shown[i] == t->held)
			json_array_append_new(rels, json_pack("[s,s,s]", o->name, "agent hand", "inside"));
		else if (o->parent >= 0)
			json_array_append_new(rels, json_pack("[s,s,s]", o->name, t->v[o->parent].name, "in/on"));
	}
	*relations = rels;
	return objs;
}

/* Build the observation of step k (without its goal). */
static json_t *make_obs(const episode *e, size_t k, tobjs *t, json_t *edh, size_t hist_k,
                        h2emv_time time, char *act_text, size_t tn, int *closes)
{
	const step *s = &e->s[k];
	char tbuf[40];
	json_t *o = json_object();
	view v = { 0 };
	int fail = 0;
	act_text[0] = 0;
	*closes = 0;
	json_object_set_new(o, "t", json_string(imp_format_time(tbuf, sizeof tbuf, time)));
	if (s->agent == AGENT_DRIVER) {
		int target = s->oid ? tobjs_find(t, s->oid) : -1;
		json_object_set_new(o, "action", make_action(s, t, target, act_text, tn));
		json_object_set_new(o, "goal", json_null()); /* a place for it, set later */
		json_object_set_new(o, "goal_status", json_null());
		int placed = -1;
		if (s->success)
			placed = apply_action(t, s->action, target);
		*closes = s->success && s->action >= PICKUP && target >= 0;
		fail |= show(&v, target) | show(&v, placed);
	}
	/* the state diffs hold what was visible at the end of the history and
	 * of the episode */
	if (k == hist_k)
		fail |= tobjs_apply_diff(t, json_object_get(json_object_get(edh, "init_state_diff"), "objects"),
		                         &v.shown, &v.n);
	if (k + 1 == e->n)
		fail |= tobjs_apply_diff(t, json_object_get(json_object_get(edh, "final_state_diff"), "objects"),
		                         &v.shown, &v.n);
	fail |= show(&v, t->held);
	if (fail) {
		free(v.shown);
		json_decref(o);
		return NULL;
	}
	if (v.n) {
		json_t *rels;
		json_object_set_new(o, "objects", make_objects(t, &v, &rels));
		if (json_array_size(rels))
			json_object_set_new(o, "relations", rels);
		else
			json_decref(rels);
	}
	free(v.shown);
	if (s->action == ACT_TEXT && *s->text) { /* TEACh has empty utterances */
		int cmd = s->agent == AGENT_COMMANDER;
		if (cmd)
			json_object_set_new(o, "persons", json_pack("[{s:s,s:s}]", "name", "Commander", "id", "agent0"));
		json_object_set_new(o, "speech", json_pack("[{s:s,s:s}]", "speaker", cmd ? "Commander" : "Driver",
		                                           "text", s->text));
	}
	return o;
}

/* ------------------------------------------------------------ episode -- */

static void describe(imp_teach_ep *ep, json_t *edh)
{
	const char *game = json_string_value(json_object_get(edh, "game_id"));
	const char *inst = json_string_value(json_object_get(edh, "instance_id"));
	const char *base = strrchr(ep->path, '/');
	base = base ? base + 1 : ep->path;
	snprintf(ep->game_id, sizeof ep->game_id, "%s", game ? game : "");
	if (inst)
		snprintf(ep->instance_id, sizeof ep->instance_id, "%s", inst);
	else
		snprintf(ep->instance_id, sizeof ep->instance_id, "%.*s", (int)strcspn(base, "."), base);
	if (!game)
		snprintf(ep->game_id, sizeof ep->game_id, "%.*s", (int)strcspn(ep->instance_id, "."),
		         ep->instance_id);
	/* the split is the parent directory's name, when it is one */
	ep->split[0] = 0;
	if (base > ep->path + 1) {
		const char *end = base - 1, *p = end;
		while (p > ep->path && p[-1] != '/')
			p--;
		static const char *const splits[] = { "train", "valid_seen", "valid_unseen", "test_seen",
			                              "test_unseen" };
		for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++)
			if ((size_t)(end - p) == strlen(splits[i]) && !strncmp(p, splits[i], (size_t)(end - p)))
				snprintf(ep->split, sizeof ep->split, "%s", splits[i]);
	}
}

/* Fill in each step's goal: the next interaction that closes one. */
static void set_goals(json_t **obs, char (*texts)[256], const int *closes, size_t n)
{
	const char *goal = NULL;
	for (size_t k = n; k-- > 0;) {
		if (closes[k])
			goal = texts[k];
		if (!json_object_get(obs[k], "goal"))
			continue;
		if (goal) {
			json_object_set_new(obs[k], "goal", json_pack("[s]", goal));
			json_object_set_new(obs[k], "goal_status", json_string(closes[k] ? "succeeded" : "running"));
		} else {
			json_object_del(obs[k], "goal");
			json_object_del(obs[k], "goal_status");
		}
	}
}

int imp_teach_episode(imp_teach_ep *ep, json_t *edh, imp_emit_fn emit, void *arg,
                      imp_stats *st, h2emv_error *err)
{
	episode e = { .path = ep->path };
	tobjs t = { 0 };
	json_t **obs = NULL;
	h2emv_time *times = NULL;
	char(*texts)[256] = NULL;
	int *closes = NULL, rc;
	ep->observations = 0;
	ep->end = ep->start;
	if (!json_is_object(edh)) {
		rc = imp_fail(err, H2EMV_EPARSE, NULL, "%s: expected a JSON object (an EDH instance), got %s",
		              ep->path, imp_json_kind(edh));
		goto out;
	}
	describe(ep, edh);
	if ((rc = read_episode(&e, edh, err)) || (rc = tobjs_build(&t, edh, ep->path, err)))
		goto out;
	st->skipped += e.skipped;
	obs = calloc(e.n + 1, sizeof *obs);
	texts = calloc(e.n + 1, sizeof *texts);
	closes = calloc(e.n + 1, sizeof *closes);
	times = calloc(e.n + 1, sizeof *times);
	if (!obs || !texts || !closes || !times) {
		rc = imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
		goto out;
	}
	ep->t0 = e.n ? e.s[0].ts : 0;
	size_t hist_k = (size_t)-1;
	for (size_t k = 0; k < e.n && e.hist_end >= 0; k++)
		if (e.s[k].ts <= e.hist_end + 1e-9)
			hist_k = k;
	h2emv_time prev = 0;
	for (size_t k = 0; k < e.n; k++) {
		h2emv_time time = ep->start + (h2emv_time)llround((e.s[k].ts - ep->t0) * 1e6);
		if (k && time <= prev)
			time = prev + 1;
		prev = times[k] = time;
		if (!(obs[k] = make_obs(&e, k, &t, edh, hist_k, time, texts[k], sizeof texts[k], &closes[k]))) {
			rc = imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
			goto out;
		}
	}
	if (e.n) {
		char note[256];
		snprintf(note, sizeof note, "TEACh %s%s%s", ep->split, ep->split[0] ? "/" : "", ep->instance_id);
		json_object_set_new(obs[0], "note", json_string(note));
	}
	set_goals(obs, texts, closes, e.n);
	for (size_t k = 0; k < e.n; k++) {
		if ((rc = imp_emit_obs(obs[k], times[k], emit, arg, st))) {
			imp_fail(err, rc, NULL, "%s: stopped at step %zu: %s", ep->path, k, h2emv_strerror(rc));
			goto out;
		}
		ep->observations++;
		ep->end = times[k];
	}
	rc = H2EMV_OK;
out:
	for (size_t k = 0; obs && k < e.n; k++)
		json_decref(obs[k]);
	free(obs);
	free(texts);
	free(closes);
	free(times);
	free(e.s);
	tobjs_free(&t);
	return rc;
}
