/*
 * armar.c — the real ARMAR-7 history tree (hierarchical-emv's
 * 2024-07-a7a-summary, re-serialised as `_type` nodes) to observations: one
 * per SceneGraphInstant, in time order (see imp_armar in import.h).
 *
 * The file is a few MB, so it is loaded whole. Every instant is checked
 * while the tree is walked, so an error can name its JSON path; the
 * conversion after that cannot fail on the data.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

typedef struct inst {
	json_t *scene; /* the SceneGraphInstant (borrowed from the tree) */
	h2emv_time t;
	size_t seq;    /* position in the file */
} inst;

typedef struct walk {
	inst *v;
	size_t n, cap;
	char path[1024]; /* JSON path of the node being visited */
	const char *file;
	h2emv_error *err;
} walk;

static const char *const statuses[] = { "preparing", "running", "succeeded", "failed", "aborted" };

static int bad(walk *w, const char *member, const char *want, const json_t *got)
{
	char field[1200];
	snprintf(field, sizeof field, "%s%s%s", w->path, *w->path && *member ? "." : "", member);
	return imp_fail(w->err, H2EMV_EPARSE, field, "%s: field '%s': expected %s, got %s", w->file,
	                field, want, imp_json_kind(got));
}

static int is_status(const char *s)
{
	for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
		if (!strcasecmp(s, statuses[i]))
			return 1;
	return 0;
}

/* A relation end: an instance id, or an index into the scene's objects. */
static int check_rel_end(json_t *v, size_t n_objs)
{
	if (json_is_string(v))
		return *json_string_value(v) ? 0 : -1;
	return json_is_integer(v) && json_integer_value(v) >= 0 &&
	               (size_t)json_integer_value(v) < n_objs
	           ? 0
	           : -1;
}

static int check_objects(walk *w, json_t *scene)
{
	json_t *objs = json_object_get(scene, "objects"), *rels = json_object_get(scene, "relations");
	if (objs && !json_is_array(objs) && !json_is_null(objs))
		return bad(w, "objects", "an array", objs);
	size_t i;
	json_t *o;
	json_array_foreach(objs, i, o) {
		char m[64];
		json_t *id = json_object_get(o, "instance_id"), *cls = json_object_get(o, "obj_class");
		json_t *st = json_object_get(o, "state");
		snprintf(m, sizeof m, "objects[%zu].instance_id", i);
		if (!json_is_string(id) || !*json_string_value(id))
			return bad(w, m, "a non-empty string", id);
		snprintf(m, sizeof m, "objects[%zu].obj_class", i);
		if (cls && !json_is_null(cls) && (!json_is_string(cls) || !*json_string_value(cls)))
			return bad(w, m, "a non-empty string", cls);
		snprintf(m, sizeof m, "objects[%zu].state", i);
		if (st && !json_is_null(st) && !json_is_string(st) && !json_is_object(st))
			return bad(w, m, "a string, an object or null", st);
	}
	if (rels && !json_is_array(rels) && !json_is_null(rels))
		return bad(w, "relations", "an array", rels);
	json_array_foreach(rels, i, o) {
		char m[64];
		snprintf(m, sizeof m, "relations[%zu]", i);
		if (!json_is_array(o) || json_array_size(o) != 3 ||
		    check_rel_end(json_array_get(o, 0), json_array_size(objs)) ||
		    check_rel_end(json_array_get(o, 1), json_array_size(objs)) ||
		    !json_is_string(json_array_get(o, 2)) || !*json_string_value(json_array_get(o, 2)))
			return bad(w, m, "[from, to, type] (ids or object indices)", o);
	}
	return H2EMV_OK;
}

static int opt_string(walk *w, json_t *raw, const char *key)
{
	json_t *v = json_object_get(raw, key);
	if (v && !json_is_null(v) && !json_is_string(v))
		return bad(w, key, "a string or null", v);
	return H2EMV_OK;
}

static int check_status(walk *w, json_t *raw, const char *key)
{
	json_t *v = json_object_get(raw, key);
	int rc = opt_string(w, raw, key);
	if (rc == H2EMV_OK && json_is_string(v) && *json_string_value(v) && !is_status(json_string_value(v)))
		return bad(w, key, "preparing, running, succeeded, failed or aborted", v);
	return rc;
}

/* Check a SceneGraphInstant and queue it. */
static int add_scene(walk *w, json_t *scene)
{
	json_t *raw = json_object_get(scene, "raw");
	int rc = check_objects(w, scene);
	if (rc)
		return rc;
	size_t len = strlen(w->path);
	snprintf(w->path + len, sizeof w->path - len, "%sraw", len ? "." : "");
	json_t *ts = json_object_get(raw, "timestamp"), *p;
	h2emv_time t = 0;
	if (!json_is_object(raw))
		rc = bad(w, "", "a RawDataInstant object", raw);
	else if (!json_is_string(ts) || imp_parse_time(&t, json_string_value(ts)))
		rc = bad(w, "timestamp", "a date-time \"YYYY-MM-DDTHH:MM:SS[.ffffff]\"", ts);
	else if ((rc = opt_string(w, raw, "current_action")) || (rc = opt_string(w, raw, "current_goal")) ||
	         (rc = opt_string(w, raw, "asr_recognition")) ||
	         (rc = check_status(w, raw, "current_action_state")) ||
	         (rc = check_status(w, raw, "current_goal_state")))
		;
	else if ((p = json_object_get(raw, "current_action_parameters")) && !json_is_null(p) &&
	         !json_is_object(p) && !json_is_array(p))
		rc = bad(w, "current_action_parameters", "an object", p);
	w->path[len] = 0;
	if (rc)
		return rc;
	if (w->n == w->cap) {
		size_t nc = w->cap ? w->cap * 2 : 4096;
		inst *v = realloc(w->v, nc * sizeof *v);
		if (!v)
			return imp_fail(w->err, H2EMV_ENOMEM, NULL, "out of memory");
		w->v = v;
		w->cap = nc;
	}
	w->v[w->n] = (inst){ scene, t, w->n };
	w->n++;
	return H2EMV_OK;
}

/* Visit every node; scenes may sit at any depth (children, events, scenes). */
static int visit(walk *w, json_t *node, int depth)
{
	if (depth > 200)
		return imp_fail(w->err, H2EMV_ELIMIT, w->path, "%s: '%s': the tree is nested too deeply",
		                w->file, w->path);
	if (json_is_object(node) &&
	    !strcmp(json_string_value(json_object_get(node, "_type")) ?: "", "SceneGraphInstant"))
		return add_scene(w, node);
	size_t len = strlen(w->path);
	int rc = H2EMV_OK;
	if (json_is_object(node)) {
		const char *key;
		json_t *v;
		json_object_foreach(node, key, v) {
			if (!json_is_object(v) && !json_is_array(v))
				continue;
			snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "." : "", key);
			if ((rc = visit(w, v, depth + 1)))
				break;
		}
	} else if (json_is_array(node)) {
		size_t i;
		json_t *v;
		json_array_foreach(node, i, v) {
			if (!json_is_object(v) && !json_is_array(v))
				continue;
			snprintf(w->path + len, sizeof w->path - len, "[%zu]", i);
			if ((rc = visit(w, v, depth + 1)))
				break;
		}
	}
	w->path[len] = 0;
	return rc;
}

static int cmp_inst(const void *a, const void *b)
{
	const inst *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* --------------------------------------------------------- conversion -- */

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s && *s ? s : NULL;
}

/* The skill's own parameters: {"parameters": {...}, "trigger": ...}. */
static json_t *inner_params(json_t *raw)
{
	json_t *p = json_object_get(raw, "current_action_parameters");
	json_t *in = json_object_get(p, "parameters");
	return json_is_object(in) ? in : p;
}

/* What the robot says, cleaned: enclosing quotes and SSML tags removed. */
static char *say_text(json_t *raw)
{
	const char *s = str(inner_params(raw), "text");
	if (!s)
		return NULL;
	char *out = malloc(strlen(s) + 1), *o = out;
	if (!out)
		return NULL;
	for (const char *p = s; *p; p++) {
		if (*p == '<' && strchr(p, '>')) {
			p = strchr(p, '>');
			continue;
		}
		*o++ = *p;
	}
	*o = 0;
	char *b = out, *e = o;
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	if (e - b >= 2 && *b == '"' && e[-1] == '"') {
		b++;
		e--;
	}
	memmove(out, b, (size_t)(e - b));
	out[e - b] = 0;
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

/* What the previous instant (in time order) was, for once-only speech and
 * the start of user-triggered chains. */
typedef struct prev {
	char say[512];     /* text of a Say that was running, or "" */
	char outer[256];   /* outermost goal */
	int user;          /* triggered by user speech */
	h2emv_time t;
} prev;

static int user_triggered(json_t *raw)
{
	const char *tr = str(json_object_get(raw, "current_action_parameters"), "trigger");
	return tr && !strncmp(tr, "user speech command", 19);
}

static void outer_goal(json_t *raw, char *buf, size_t n)
{
	const char *g = str(raw, "current_goal");
	snprintf(buf, n, "%.*s", g ? (int)strcspn(g, ".") : 0, g ? g : "");
}

static json_t *make_persons(json_t *raw, h2emv_time t, const prev *pv)
{
	json_t *ps = json_array(), *params = inner_params(raw), *h;
	const char *action = str(raw, "current_action");
	char outer[256], id[128];
	outer_goal(raw, outer, sizeof outer);
	if ((h = json_object_get(params, "humanTrackingId"))) {
		if (json_is_string(h) && *json_string_value(h))
			snprintf(id, sizeof id, "human_%s", json_string_value(h));
		else if (json_is_integer(h))
			snprintf(id, sizeof id, "human_%lld", (long long)json_integer_value(h));
		else
			id[0] = 0;
		if (id[0])
			json_array_append_new(ps, json_pack("{s:s}", "id", id));
	}
	if (action && !strcmp(action, "LearnCurrentPerson") && str(params, "name"))
		json_array_append_new(ps, json_pack("{s:s}", "name", str(params, "name")));
	/* a chain starts: another outermost skill, a pause, or the outermost
	 * skill itself preparing again */
	const char *goal = str(raw, "current_goal"), *gs = str(raw, "current_goal_state");
	int fresh = !pv->user || strcmp(pv->outer, outer) || t - pv->t > 300 * IMP_US ||
	            (goal && !strchr(goal, '.') && gs && !strcasecmp(gs, "preparing"));
	if (user_triggered(raw) && fresh)
		json_array_append_new(ps, json_pack("{s:s}", "name", "user"));
	return ps;
}

static json_t *make_speech(json_t *raw, prev *pv)
{
	json_t *sp = json_array();
	const char *asr = str(raw, "asr_recognition"), *action = str(raw, "current_action");
	const char *st = str(raw, "current_action_state");
	if (asr)
		json_array_append_new(sp, json_pack("{s:s}", "text", asr));
	int running_say = action && !strcmp(action, "Say") && st && !strcasecmp(st, "running");
	char *said = running_say ? say_text(raw) : NULL;
	if (said && strncmp(pv->say, said, sizeof pv->say - 1))
		json_array_append_new(sp, json_pack("{s:s,s:s}", "speaker", "robot", "text", said));
	snprintf(pv->say, sizeof pv->say, "%s", said ? said : "");
	free(said);
	return sp;
}

static json_t *make_objects(json_t *scene, json_t **relations)
{
	json_t *objs = json_array(), *rels = json_array(), *src = json_object_get(scene, "objects");
	size_t i;
	json_t *o;
	json_array_foreach(src, i, o) {
		const char *id = str(o, "instance_id"), *cls = str(o, "obj_class");
		int dup = 0;
		for (size_t j = 0; j < json_array_size(objs); j++)
			dup |= !strcmp(str(json_array_get(objs, j), "id"), id);
		if (dup)
			continue;
		json_t *jo = json_pack("{s:s,s:s}", "id", id, "type", cls ? cls : id);
		json_t *st = json_object_get(o, "state");
		if (json_is_string(st) || json_is_object(st))
			json_object_set(jo, "state", st);
		json_array_append_new(objs, jo);
	}
	json_array_foreach(json_object_get(scene, "relations"), i, o) {
		json_t *r = json_array();
		for (size_t k = 0; k < 2; k++) {
			json_t *end = json_array_get(o, k);
			json_array_append_new(r, json_is_string(end)
			                             ? json_copy(end)
			                             : json_string(str(json_array_get(src, (size_t)json_integer_value(end)),
			                                               "instance_id")));
		}
		json_array_append(r, json_array_get(o, 2));
		json_array_append_new(rels, r);
	}
	*relations = rels;
	return objs;
}

/* Attach `v` under `key` when it is a non-empty array; drop it otherwise. */
static void set_list(json_t *obs, const char *key, json_t *v)
{
	if (json_array_size(v))
		json_object_set_new(obs, key, v);
	else
		json_decref(v);
}

static json_t *make_obs(const inst *in, prev *pv)
{
	json_t *raw = json_object_get(in->scene, "raw"), *o = json_object();
	char tbuf[40];
	json_object_set_new(o, "t", json_string(imp_format_time(tbuf, sizeof tbuf, in->t)));
	const char *action = str(raw, "current_action");
	if (action) {
		json_t *a = json_pack("{s:s}", "name", action);
		json_t *p = json_object_get(raw, "current_action_parameters");
		if (json_is_object(p) || json_is_array(p))
			json_object_set(a, "args", p);
		if (str(raw, "current_action_state"))
			json_object_set_new(a, "status", json_string(str(raw, "current_action_state")));
		json_object_set_new(o, "action", a);
	}
	const char *goal = str(raw, "current_goal");
	if (goal) {
		json_t *steps = json_array();
		for (const char *p = goal; *p;) {
			size_t n = strcspn(p, ".");
			if (n)
				json_array_append_new(steps, json_stringn(p, n));
			p += n + (p[n] == '.');
		}
		set_list(o, "goal", steps);
		if (json_object_get(o, "goal") && str(raw, "current_goal_state"))
			json_object_set_new(o, "goal_status", json_string(str(raw, "current_goal_state")));
	}
	json_t *rels;
	set_list(o, "objects", make_objects(in->scene, &rels));
	set_list(o, "relations", rels);
	set_list(o, "persons", make_persons(raw, in->t, pv));
	set_list(o, "speech", make_speech(raw, pv));
	outer_goal(raw, pv->outer, sizeof pv->outer);
	pv->user = user_triggered(raw);
	pv->t = in->t;
	return o;
}

int imp_armar(imp_stats *out, const imp_armar_options *o, imp_emit_fn emit, void *arg,
              h2emv_error *err)
{
	imp_stats st = { 0 };
	json_t *root = NULL;
	walk w = { .err = err };
	if (err)
		memset(err, 0, sizeof *err);
	int rc = H2EMV_OK;
	char def[4096];
	if (!o || o->version != IMP_ARMAR_OPTIONS_VERSION || !emit)
		rc = imp_fail(err, H2EMV_EINVAL, NULL, "imp_armar: options or emit callback missing");
	else if (!(w.file = o->path ? o->path : imp_default_path(def, sizeof def, IMP_ARMAR_SUBPATH)))
		rc = imp_fail(err, H2EMV_EINVAL, NULL,
		              "no ARMAR-7 tree file given and " IMP_DATA_ENV " (the external data folder) is not set");
	else
		rc = imp_load_json(&root, w.file, err);
	if (rc == H2EMV_OK)
		rc = visit(&w, root, 0);
	if (rc == H2EMV_OK && w.n == 0)
		rc = imp_fail(err, H2EMV_EPARSE, NULL, "%s: no SceneGraphInstant in the tree", w.file);
	if (rc == H2EMV_OK) {
		for (size_t i = 1; i < w.n; i++)
			if (w.v[i].t < w.v[i - 1].t)
				st.reordered++;
		qsort(w.v, w.n, sizeof *w.v, cmp_inst);
		st.episodes = 1;
	}
	prev pv = { 0 };
	for (size_t i = 0; rc == H2EMV_OK && i < w.n; i++) {
		const inst *in = &w.v[i];
		json_t *obs = make_obs(in, &pv); /* always: speech and chains need the history */
		if (!obs) {
			rc = imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
			break;
		}
		int keep = (!o->from || in->t >= o->from) && (!o->to || in->t < o->to) &&
		           (!o->limit || st.observations < o->limit);
		if (keep && (rc = imp_emit_obs(obs, in->t, emit, arg, &st)))
			imp_fail(err, rc, NULL, "%s: stopped at instant %zu: %s", w.file, i, h2emv_strerror(rc));
		if (!keep)
			st.skipped++;
		json_decref(obs);
		if (rc == H2EMV_OK && o->progress && (i % 256 == 255 || i + 1 == w.n) &&
		    o->progress(o->progress_ctx, "armar", i + 1, w.n))
			break;
	}
	free(w.v);
	json_decref(root);
	if (out)
		*out = st;
	return rc;
}
