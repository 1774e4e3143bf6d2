/*
 * qagen_scan.c — the first half of question generation: read a history in
 * canonical form and list the occurrences of every kind of event a
 * question can be about (see qagen.h for the recipe).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "bench/eval/eval_util.h"
#include "bench/eval/qagen_int.h"

/* ------------------------------------------------------------ history -- */

static int parse_time(int64_t *out, json_t *v)
{
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return 0;
	}
	if (json_is_string(v))
		return h2emv_time_parse(out, json_string_value(v), NULL) ? -1 : 0;
	return -1;
}

/* The canonical JSON object of a line (NULL on a bad line). */
static json_t *canonical(const char *line, size_t len, h2emv_error *err)
{
	char *js = NULL;
	size_t jl = 0;
	if (h2emv_obs_canonical(&js, &jl, line, len, 0, err) != H2EMV_OK)
		return NULL;
	json_t *j = json_loadb(js, jl, 0, NULL);
	h2emv_free(js);
	if (!j)
		ev_fail(err, H2EMV_EPARSE, "canonical observation does not parse");
	return j;
}

int qg_history_add(qg_history *h, const char *line, size_t len, h2emv_error *err)
{
	json_t *j = json_loadb(line, len, 0, NULL);
	int64_t t = 0;
	if (!j || parse_time(&t, json_object_get(j, "t")) != 0) {
		json_decref(j);
		return ev_fail(err, H2EMV_EPARSE, "history line %zu: no valid time \"t\"", h->n + 1);
	}
	json_decref(j);
	if (h->n && t < h->t[h->n - 1])
		return ev_fail(err, H2EMV_EINVAL, "history line %zu: time goes backwards", h->n + 1);
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		char **l = realloc(h->lines, cap * sizeof *l);
		if (l)
			h->lines = l;
		size_t *ls = realloc(h->lens, cap * sizeof *ls);
		if (ls)
			h->lens = ls;
		int64_t *tt = realloc(h->t, cap * sizeof *tt);
		if (tt)
			h->t = tt;
		if (!l || !ls || !tt)
			return ev_fail(err, H2EMV_ENOMEM, "out of memory");
		h->cap = cap;
	}
	char *c = malloc(len + 1);
	if (!c)
		return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	memcpy(c, line, len);
	c[len] = 0;
	h->lines[h->n] = c;
	h->lens[h->n] = len;
	h->t[h->n] = t;
	h->n++;
	return H2EMV_OK;
}

void qg_history_free(qg_history *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i]);
	free(h->lines);
	free(h->lens);
	free(h->t);
	memset(h, 0, sizeof *h);
}

int qg_history_load(qg_history *h, const char *path, h2emv_error *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ev_fail(err, H2EMV_EIO, "%s: cannot open", path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = H2EMV_OK;
	while ((n = getline(&line, &cap, f)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (n == 0)
			continue;
		if ((rc = qg_history_add(h, line, (size_t)n, err)) != H2EMV_OK)
			break;
	}
	free(line);
	fclose(f);
	return rc;
}

/* --------------------------------------------------------------- names -- */

/* The last segment of a location path that names a place:
 * "mobile_kitchen/kitchen/countertop/in_front_of" → "countertop". */
static const char *path_place(const char *id)
{
	/* compared squashed: lower case, without '_', ' ' and '-' */
	static const char *const qual[] = { "infrontof", "front", "behind", "left", "right",
		                            "near", "at", "in", "on", "pregrasp", "center", NULL };
	const char *best = id;
	for (const char *p = id; *p; p++) {
		if (*p != '/' || !p[1])
			continue;
		const char *seg = p + 1;
		size_t n = strcspn(seg, "/");
		int q = 0;
		char sq[32];
		size_t m = 0;
		for (size_t i = 0; i < n && m + 1 < sizeof sq; i++)
			if (seg[i] != '_' && seg[i] != ' ' && seg[i] != '-')
				sq[m++] = (char)tolower((unsigned char)seg[i]);
		sq[m] = 0;
		for (size_t k = 0; qual[k]; k++)
			q |= !strcmp(sq, qual[k]);
		if (!q)
			best = seg;
	}
	return best;
}

/* The class of an object id: "Potato|-01.5|..." → "Potato", "Mug_1" → "Mug",
 * a location path → its place. */
static void id_class(char *out, size_t cap, const char *id)
{
	id = path_place(id);
	size_t n = strcspn(id, "|/:");
	if (n == strlen(id)) {
		const char *us = strrchr(id, '_');
		if (us && us[1] && strspn(us + 1, "0123456789") == strlen(us + 1))
			n = (size_t)(us - id);
	}
	if (n >= cap)
		n = cap - 1;
	memcpy(out, id, n);
	out[n] = 0;
}

void qg_human(char *out, size_t cap, const char *name)
{
	size_t o = 0;
	for (size_t i = 0; name[i] && o + 2 < cap; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '_' || c == '-' || c == '.') {
			if (o && out[o - 1] != ' ')
				out[o++] = ' ';
			continue;
		}
		if (isupper(c) && i && islower((unsigned char)name[i - 1]) && o && out[o - 1] != ' ')
			out[o++] = ' ';
		out[o++] = (char)tolower(c);
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = 0;
}

/* The object class an action argument names, looking the id up among the
 * observation's objects first. */
static void arg_class(char *out, size_t cap, const char *id, json_t *objects)
{
	size_t i;
	json_t *o;
	json_array_foreach(objects, i, o) {
		const char *oid = json_string_value(json_object_get(o, "id"));
		const char *ty = json_string_value(json_object_get(o, "type"));
		if (oid && ty && !strcmp(oid, id)) {
			snprintf(out, cap, "%s", ty);
			return;
		}
	}
	id_class(out, cap, id);
}

/* The first of `keys` in args holding a name: a string, or an object
 * naming a class (ARMAR's {"className": "mobile-dishwasher", ...}). */
static const char *arg_key(json_t *args, const char *const *keys)
{
	for (size_t k = 0; keys[k]; k++) {
		json_t *v = json_object_get(args, keys[k]);
		const char *s = json_string_value(v);
		if (!s && json_is_object(v)) {
			s = json_string_value(json_object_get(v, "className"));
			if (!s)
				s = json_string_value(json_object_get(v, "name"));
		}
		if (s && *s && *s != '<') /* "<Resolved according to 'locationName'>" */
			return s;
	}
	return NULL;
}

static const char *const OBJ_KEYS[] = { "object", "objectId", "oid", "obj", "item", "objectName",
	                                "objectClass", NULL };
static const char *const PLACE_KEYS[] = { "target", "locationName", "location", "place", "to", "destination",
	                                  "receptacle", "name", NULL };
static const char *const PERSON_KEYS[] = { "person", "human", "recipient", "from", NULL };

static int motion(const char *name)
{
	static const char *const m[] = { "Forward", "Backward", "Turn", "Pan", "Look", "Strafe",
		                         "Stop", "Wait", "Idle", "Move", NULL };
	for (size_t i = 0; m[i]; i++)
		if (!strncmp(name, m[i], strlen(m[i])))
			return 1;
	return 0;
}

static int navigation(const char *name)
{
	return strstr(name, "Navigate") || strstr(name, "GoTo") || strstr(name, "MoveTo");
}

static int generic_person(const char *n)
{
	static const char *const g[] = { "commander", "driver", "user", "robot", "agent", "human",
		                         "person", "unknown", NULL };
	for (size_t i = 0; g[i]; i++)
		if (!strncasecmp(n, g[i], strlen(g[i])))
			return 1;
	return 0;
}

static int valuable(const char *cls)
{
	static const char *const v[] = { "key", "wallet", "medicine", "glasses", "phone", "purse",
		                         "passport", "watch", "pills", NULL };
	char h[64];
	qg_human(h, sizeof h, cls);
	for (size_t i = 0; v[i]; i++)
		if (strstr(h, v[i]))
			return 1;
	return 0;
}

/* Where an object rests: its own relations, the observation's relations
 * from it, else the observation's location. */
static const char *object_place(json_t *o, json_t *rels, json_t *loc)
{
	const char *id = json_string_value(json_object_get(o, "id"));
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(o, "relations"), i, r) {
		const char *to = json_string_value(json_object_get(r, "to"));
		if (!to)
			to = json_string_value(json_array_get(r, 0));
		if (to)
			return to;
	}
	json_array_foreach(rels, i, r) {
		const char *from = json_string_value(json_object_get(r, "from"));
		const char *to = json_string_value(json_object_get(r, "to"));
		const char *ty = json_string_value(json_object_get(r, "type"));
		if (!from) {
			from = json_string_value(json_array_get(r, 0));
			to = json_string_value(json_array_get(r, 1));
			ty = json_string_value(json_array_get(r, 2));
		}
		if (from && to && id && !strcmp(from, id) &&
		    (!ty || !strcmp(ty, "on") || !strcmp(ty, "in") || !strcmp(ty, "inside")))
			return to;
	}
	return json_string_value(loc);
}

/* The object classes in view, humanised, once each: "mug, coffee machine". */
static void seen_list(char *out, size_t cap, json_t *objects)
{
	size_t o = 0, i, k = 0;
	json_t *ob;
	out[0] = 0;
	json_array_foreach(objects, i, ob) {
		const char *ty = json_string_value(json_object_get(ob, "type"));
		char h[64];
		if (!ty || k >= 12)
			continue;
		qg_human(h, sizeof h, ty);
		/* once each: look for ", h," in ", out," */
		char probe[72];
		snprintf(probe, sizeof probe, ", %s,", h);
		char have[340];
		snprintf(have, sizeof have, ", %s,", out);
		if (strstr(have, probe) || o + strlen(h) + 3 >= cap)
			continue;
		o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? ", " : "", h);
		k++;
	}
}

/* --------------------------------------------------------- occurrences -- */

static int occ_add(qg_scan *s, const char *tmpl, const char *key, int64_t t0, int64_t t1,
                   const char *a, const char *b, int64_t merge_gap, const char *list)
{
	/* Merge with the kind's latest occurrence when it continues it. */
	for (size_t i = s->n; i-- > 0 && i + 64 > s->n;) {
		qg_occ *o = &s->o[i];
		if (!strcmp(o->tmpl, tmpl) && !strcmp(o->key, key)) {
			if (t0 - o->t1 <= merge_gap && t0 >= o->t0) {
				if (t1 > o->t1)
					o->t1 = t1;
				return 0;
			}
			break;
		}
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		qg_occ *o = realloc(s->o, cap * sizeof *o);
		if (!o)
			return -1;
		s->o = o;
		s->cap = cap;
	}
	qg_occ *o = &s->o[s->n];
	memset(o, 0, sizeof *o);
	snprintf(o->tmpl, sizeof o->tmpl, "%s", tmpl);
	snprintf(o->key, sizeof o->key, "%s", key);
	snprintf(o->a, sizeof o->a, "%s", a ? a : "");
	snprintf(o->b, sizeof o->b, "%s", b ? b : "");
	snprintf(o->list, sizeof o->list, "%s", list ? list : "");
	o->t0 = t0;
	o->t1 = t1;
	s->n++;
	return 0;
}

#define MIN2 (120LL * 1000000)
#define MIN30 (1800LL * 1000000)

/* An action on an object, placing, transporting, going somewhere. */
static int scan_action(qg_scan *s, json_t *j, int64_t t, int64_t te, const char *task)
{
	json_t *act = json_object_get(j, "action");
	const char *name = json_string_value(json_object_get(act, "name"));
	const char *status = json_string_value(json_object_get(act, "status"));
	if (!name || motion(name) || (status && strcmp(status, "succeeded") && strcmp(status, "running")))
		return 0;
	json_t *args = json_object_get(act, "args");
	json_t *objects = json_object_get(j, "objects");
	const char *obj = NULL, *place = NULL;
	if (json_is_array(args)) {
		obj = json_string_value(json_array_get(args, 0));
		place = json_string_value(json_array_get(args, 1));
	} else if (json_is_object(args)) {
		json_t *p = json_object_get(args, "parameters");
		json_t *a = json_is_object(p) ? p : args;
		obj = arg_key(a, OBJ_KEYS);
		place = arg_key(a, PLACE_KEYS);
		if (!obj && !place)
			(void)arg_key(a, PERSON_KEYS);
	}
	char key[160], cls[64] = "", pcls[64] = "";
	if (navigation(name)) {
		if (!place)
			place = obj;
		if (!place)
			return 0;
		id_class(pcls, sizeof pcls, place);
		snprintf(key, sizeof key, "%s", pcls);
		return occ_add(s, "go-when", key, t, te, pcls, NULL, MIN2, NULL);
	}
	if (!obj)
		return 0;
	arg_class(cls, sizeof cls, obj, objects);
	if (!strcmp(name, "Pickup") || !strcmp(name, "PickUp") || !strcmp(name, "Grasp"))
		snprintf(s->held, sizeof s->held, "%s", cls);
	int place_act = !strcmp(name, "Place") || !strcmp(name, "Put") || !strcmp(name, "PutDown");
	if (place_act && !place && s->held[0]) {
		/* Place(Receptacle) with the held object implied */
		snprintf(pcls, sizeof pcls, "%s", cls);
		snprintf(cls, sizeof cls, "%s", s->held);
		place = pcls;
	} else if (place) {
		arg_class(pcls, sizeof pcls, place, objects);
	}
	snprintf(key, sizeof key, "%s|%s", name, cls);
	char seen[320];
	seen_list(seen, sizeof seen, objects);
	if (occ_add(s, "act-when", key, t, te, name, cls, MIN2, seen))
		return -1;
	if (place_act && place && pcls[0]) {
		char steps[320] = "", h1[64], h2[64];
		if (!strcmp(s->held, cls)) {
			qg_human(h1, sizeof h1, cls);
			qg_human(h2, sizeof h2, pcls);
			snprintf(steps, sizeof steps, "Pick up the %s, Place the %s at the %s", h1, h1, h2);
		}
		if (occ_add(s, "place-where", cls, t, te, cls, pcls, MIN2, steps) ||
		    occ_add(s, "transport-which", pcls, t, te, cls, pcls, MIN2, NULL))
			return -1;
		s->held[0] = 0;
	}
	if (task && s->task_first[0] == 0)
		snprintf(s->task_first, sizeof s->task_first, "%s|%s", name, cls);
	return 0;
}

static int scan_people_things(qg_scan *s, json_t *j, int64_t t, int64_t te)
{
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(j, "persons"), i, p) {
		const char *n = json_is_string(p) ? json_string_value(p)
		                                   : json_string_value(json_object_get(p, "name"));
		if (n && *n && !generic_person(n) && occ_add(s, "person-when", n, t, te, n, NULL, MIN30, NULL))
			return -1;
	}
	json_t *o;
	json_array_foreach(json_object_get(j, "objects"), i, o) {
		const char *ty = json_string_value(json_object_get(o, "type"));
		if (!ty || !valuable(ty))
			continue;
		const char *where = object_place(o, json_object_get(j, "relations"),
		                                 json_object_get(j, "location"));
		if (!where || !*where)
			continue;
		char pcls[64];
		id_class(pcls, sizeof pcls, where);
		if (occ_add(s, "valuable-where", ty, t, te, ty, pcls, MIN30, NULL))
			return -1;
	}
	return 0;
}

/* Close the running task: one "task" occurrence with its first step. */
static int task_close(qg_scan *s)
{
	if (!s->task[0])
		return 0;
	int rc = occ_add(s, "task-day", s->task, s->task_t0, s->task_t1, s->task, s->task_first, 0, NULL);
	s->task[0] = 0;
	s->task_first[0] = 0;
	return rc;
}

int qg_scan_history(qg_scan *s, const qg_history *h, h2emv_error *err)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < h->n; i++) {
		json_t *j = canonical(h->lines[i], h->lens[i], err);
		if (!j)
			return err->status ? err->status : H2EMV_EPARSE;
		int64_t t = h->t[i], te = t;
		json_t *tev = json_object_get(j, "t_end");
		if (tev)
			(void)parse_time(&te, tev);
		json_t *goal = json_object_get(j, "goal");
		const char *top = json_string_value(json_array_get(goal, 0));
		/* a task is a run of the same outermost goal without a 30 min pause */
		if (s->task[0] && (!top || strcmp(top, s->task) || t - s->task_t1 > MIN30))
			if (task_close(s)) {
				json_decref(j);
				return ev_fail(err, H2EMV_ENOMEM, "out of memory");
			}
		if (top && !s->task[0]) {
			snprintf(s->task, sizeof s->task, "%s", top);
			s->task_t0 = t;
		}
		if (s->task[0])
			s->task_t1 = te;
		int rc = scan_action(s, j, t, te, s->task[0] ? s->task : NULL);
		if (!rc)
			rc = scan_people_things(s, j, t, te);
		json_decref(j);
		if (rc)
			return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	if (task_close(s))
		return ev_fail(err, H2EMV_ENOMEM, "out of memory");
	return H2EMV_OK;
}

void qg_scan_free(qg_scan *s)
{
	free(s->o);
	memset(s, 0, sizeof *s);
}
