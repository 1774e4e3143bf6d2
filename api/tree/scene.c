/*
 * scene.c — decode an observation body into a scene and render its text
 * block (docs/tree.md). Bodies come from the log and have passed
 * obs_body_check, but every type is still checked here: a field of the
 * wrong shape is left out, never trusted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api/observe/obs_internal.h"
#include "api/tree/scene.h"

const char *const scene_status_names[6] = {
	"", "preparing", "running", "succeeded", "failed", "aborted",
};

static char *zstr(scene *s, const char *p, size_t n)
{
	char *c = msgpack_zone_malloc(&s->zone, n + 1);
	if (c) {
		memcpy(c, p, n);
		c[n] = 0;
	}
	return c;
}

static const char *get_str(scene *s, const msgpack_object *o)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return NULL;
	return zstr(s, o->via.str.ptr, o->via.str.size);
}

/* A map with small integer keys: the value under `key`, or NULL. */
static const msgpack_object *field(const msgpack_object *m, uint64_t key)
{
	if (m->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object_kv *kv = &m->via.map.ptr[i];
		if (kv->key.type == MSGPACK_OBJECT_POSITIVE_INTEGER && kv->key.via.u64 == key)
			return &kv->val;
	}
	return NULL;
}

/* Render a scalar or a nested value for `k=v` text. */
static void put_value(pr_str *b, const msgpack_object *o, const char *prefix);

static void put_scalar(pr_str *b, const msgpack_object *o)
{
	char tmp[64];
	switch (o->type) {
	case MSGPACK_OBJECT_NIL: pr_str_add(b, "null", 4); break;
	case MSGPACK_OBJECT_BOOLEAN:
		pr_str_add(b, o->via.boolean ? "true" : "false", o->via.boolean ? 4 : 5);
		break;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		pr_str_add(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%" PRIu64, o->via.u64));
		break;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		pr_str_add(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%" PRId64, o->via.i64));
		break;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		pr_str_add(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%g", o->via.f64));
		break;
	case MSGPACK_OBJECT_STR: pr_str_add(b, o->via.str.ptr, o->via.str.size); break;
	default: break;
	}
}

static void put_array(pr_str *b, const msgpack_object *o)
{
	pr_str_add(b, "[", 1);
	for (uint32_t i = 0; i < o->via.array.size; i++) {
		if (i)
			pr_str_add(b, ", ", 2);
		const msgpack_object *e = &o->via.array.ptr[i];
		if (e->type == MSGPACK_OBJECT_ARRAY)
			put_array(b, e);
		else if (e->type == MSGPACK_OBJECT_MAP)
			pr_str_add(b, "{...}", 5);
		else
			put_scalar(b, e);
	}
	pr_str_add(b, "]", 1);
}

/* A map flattens to `prefix.key=value` pairs joined by ", ". */
static void put_map(pr_str *b, const msgpack_object *o, const char *prefix)
{
	for (uint32_t i = 0; i < o->via.map.size; i++) {
		const msgpack_object_kv *kv = &o->via.map.ptr[i];
		if (kv->key.type != MSGPACK_OBJECT_STR)
			continue;
		char key[256];
		snprintf(key, sizeof key, "%s%s%.*s", prefix, *prefix ? "." : "",
		         (int)(kv->key.via.str.size > 200 ? 200 : kv->key.via.str.size),
		         kv->key.via.str.ptr);
		if (kv->val.type == MSGPACK_OBJECT_MAP) {
			put_map(b, &kv->val, key);
			continue;
		}
		pr_str_add(b, "\x01", 1); /* a separator, turned into ", " by render_args */
		pr_str_add(b, key, strlen(key));
		pr_str_add(b, "=", 1);
		put_value(b, &kv->val, key);
	}
}

static void put_value(pr_str *b, const msgpack_object *o, const char *prefix)
{
	if (o->type == MSGPACK_OBJECT_ARRAY)
		put_array(b, o);
	else if (o->type == MSGPACK_OBJECT_MAP)
		put_map(b, o, prefix);
	else
		put_scalar(b, o);
}

/* Render args (a map of k=v pairs, or the positional list of the string
 * form) as text; the \x01 placeholders become ", ". */
static char *render_args(scene *s, const msgpack_object *o)
{
	pr_str b = { 0 };
	if (o->type == MSGPACK_OBJECT_MAP) {
		put_map(&b, o, "");
	} else if (o->type == MSGPACK_OBJECT_ARRAY) {
		for (uint32_t i = 0; i < o->via.array.size; i++) {
			if (i)
				pr_str_add(&b, "\x01", 1);
			const msgpack_object *e = &o->via.array.ptr[i];
			e->type == MSGPACK_OBJECT_ARRAY ? put_array(&b, e) : put_scalar(&b, e);
		}
	}
	pr_str out = { 0 };
	int sep = 0;
	for (size_t i = 0; i < b.len; i++) {
		if (b.s[i] == 0x01) {
			sep = out.len > 0; /* one ", " between pairs, none in front */
			continue;
		}
		if (sep)
			pr_str_add(&out, ", ", 2);
		sep = 0;
		pr_str_add(&out, &b.s[i], 1);
	}
	char *r = out.len ? zstr(s, out.s, out.len) : NULL;
	pr_str_free(&b);
	pr_str_free(&out);
	return r;
}

static char *render_state(scene *s, const msgpack_object *o)
{
	if (o->type == MSGPACK_OBJECT_STR)
		return zstr(s, o->via.str.ptr, o->via.str.size);
	if (o->type == MSGPACK_OBJECT_MAP)
		return render_args(s, o);
	return NULL;
}

static int add_rel(scene *s, size_t *cap, const char *from, const char *to, const char *type)
{
	if (!from || !to || !type)
		return 0;
	if (s->n_rels == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		scene_rel *r = msgpack_zone_malloc(&s->zone, nc * sizeof *r);
		if (!r)
			return -1;
		if (s->n_rels)
			memcpy(r, s->rels, s->n_rels * sizeof *r);
		s->rels = r;
		*cap = nc;
	}
	s->rels[s->n_rels++] = (scene_rel){ from, to, type };
	return 0;
}

static void read_action(scene *s, const msgpack_object *a)
{
	const msgpack_object *v;
	if (!a || a->type != MSGPACK_OBJECT_MAP)
		return;
	if ((v = field(a, OBS_ACT_NAME)))
		s->action = get_str(s, v);
	if ((v = field(a, OBS_ACT_ARGS))) {
		s->args = render_args(s, v);
		s->args_obj = v;
	}
	if ((v = field(a, OBS_ACT_STATUS)) && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    v->via.u64 <= 5)
		s->action_status = (int)v->via.u64;
}

static int read_objects(scene *s, const msgpack_object *o, size_t *rcap)
{
	if (!o || o->type != MSGPACK_OBJECT_ARRAY)
		return 0;
	s->objects = msgpack_zone_malloc(&s->zone, (o->via.array.size + 1) * sizeof *s->objects);
	if (!s->objects)
		return -1;
	for (uint32_t i = 0; i < o->via.array.size; i++) {
		const msgpack_object *m = &o->via.array.ptr[i], *v;
		scene_obj *ob = &s->objects[s->n_objects];
		memset(ob, 0, sizeof *ob);
		if (!(v = field(m, OBS_OBJ_ID)) || !(ob->id = get_str(s, v)))
			continue;
		if ((v = field(m, OBS_OBJ_TYPE)))
			ob->type = get_str(s, v);
		if (!ob->type)
			ob->type = ob->id;
		if ((v = field(m, OBS_OBJ_STATE)))
			ob->state = render_state(s, v);
		s->n_objects++;
		if (!(v = field(m, OBS_OBJ_RELATIONS)) || v->type != MSGPACK_OBJECT_ARRAY)
			continue;
		for (uint32_t j = 0; j < v->via.array.size; j++) {
			const msgpack_object *r = &v->via.array.ptr[j];
			if (r->type == MSGPACK_OBJECT_ARRAY && r->via.array.size == 2 &&
			    add_rel(s, rcap, ob->id, get_str(s, &r->via.array.ptr[0]),
			            get_str(s, &r->via.array.ptr[1])))
				return -1;
		}
	}
	return 0;
}

static int read_lists(scene *s, const msgpack_object *root, size_t *rcap)
{
	const msgpack_object *v;
	if ((v = field(root, OBS_K_RELATIONS)) && v->type == MSGPACK_OBJECT_ARRAY)
		for (uint32_t i = 0; i < v->via.array.size; i++) {
			const msgpack_object *r = &v->via.array.ptr[i];
			if (r->type == MSGPACK_OBJECT_ARRAY && r->via.array.size == 3 &&
			    add_rel(s, rcap, get_str(s, &r->via.array.ptr[0]),
			            get_str(s, &r->via.array.ptr[1]), get_str(s, &r->via.array.ptr[2])))
				return -1;
		}
	if ((v = field(root, OBS_K_PERSONS)) && v->type == MSGPACK_OBJECT_ARRAY) {
		s->persons = msgpack_zone_malloc(&s->zone, (v->via.array.size + 1) * sizeof(char *));
		s->person_ids = msgpack_zone_malloc(&s->zone, (v->via.array.size + 1) * sizeof(char *));
		if (!s->persons || !s->person_ids)
			return -1;
		for (uint32_t i = 0; i < v->via.array.size; i++) {
			const msgpack_object *p = &v->via.array.ptr[i], *f;
			const char *name = (f = field(p, OBS_PER_NAME)) ? get_str(s, f) : NULL;
			const char *id = (f = field(p, OBS_PER_ID)) ? get_str(s, f) : NULL;
			if (!name)
				name = id;
			if (name) {
				s->person_ids[s->n_persons] = id;
				s->persons[s->n_persons++] = name;
			}
		}
	}
	if ((v = field(root, OBS_K_SPEECH)) && v->type == MSGPACK_OBJECT_ARRAY) {
		s->speech = msgpack_zone_malloc(&s->zone, (v->via.array.size + 1) * sizeof *s->speech);
		if (!s->speech)
			return -1;
		for (uint32_t i = 0; i < v->via.array.size; i++) {
			const msgpack_object *u = &v->via.array.ptr[i], *f;
			scene_utt *t = &s->speech[s->n_speech];
			t->speaker = (f = field(u, OBS_SP_SPEAKER)) ? get_str(s, f) : NULL;
			t->text = (f = field(u, OBS_SP_TEXT)) ? get_str(s, f) : NULL;
			if (t->text)
				s->n_speech++;
		}
	}
	return 0;
}

int scene_decode(scene *s, const void *body, size_t len, h2emv_error *err)
{
	memset(s, 0, sizeof *s);
	if (!msgpack_zone_init(&s->zone, 4096))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory decoding a scene");
	s->zone_ok = 1;
	int rc = mp_prescan(body, len, MP_MAX_DEPTH, err);
	if (rc) {
		scene_free(s);
		return rc;
	}
	msgpack_object root;
	size_t off = 0;
	if (msgpack_unpack(body, len, &off, &s->zone, &root) != MSGPACK_UNPACK_SUCCESS ||
	    root.type != MSGPACK_OBJECT_MAP) {
		scene_free(s);
		return eng_fail(err, H2EMV_ECORRUPT, "an observation body is not a map");
	}
	const msgpack_object *v;
	size_t rcap = 0;
	if (!(v = field(&root, OBS_K_T)) || v->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
		scene_free(s);
		return eng_fail(err, H2EMV_ECORRUPT, "an observation body has no time");
	}
	s->t = s->t_end = (int64_t)v->via.u64;
	if ((v = field(&root, OBS_K_T_END)) && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    (int64_t)v->via.u64 >= s->t)
		s->t_end = (int64_t)v->via.u64;
	if ((v = field(&root, OBS_K_ZONE)) && (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER ||
	                                      v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) &&
	    v->via.i64 >= -OBS_ZONE_MAX && v->via.i64 <= OBS_ZONE_MAX)
		s->utc_offset = (int)v->via.i64;
	read_action(s, field(&root, OBS_K_ACTION));
	if ((v = field(&root, OBS_K_GOAL)) && v->type == MSGPACK_OBJECT_ARRAY) {
		s->goal = msgpack_zone_malloc(&s->zone, (v->via.array.size + 1) * sizeof(char *));
		for (uint32_t i = 0; s->goal && i < v->via.array.size; i++)
			if ((s->goal[s->n_goal] = get_str(s, &v->via.array.ptr[i])))
				s->n_goal++;
	}
	if ((v = field(&root, OBS_K_GOAL_STATUS)) && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    v->via.u64 <= 5)
		s->goal_status = (int)v->via.u64;
	if ((v = field(&root, OBS_K_LOCATION)))
		s->location = get_str(s, v);
	if ((v = field(&root, OBS_K_NOTE)))
		s->note = get_str(s, v);
	if (read_objects(s, field(&root, OBS_K_OBJECTS), &rcap) || read_lists(s, &root, &rcap)) {
		scene_free(s);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory decoding a scene");
	}
	return H2EMV_OK;
}

void scene_free(scene *s)
{
	if (s->zone_ok)
		msgpack_zone_destroy(&s->zone);
	eng_buf_free(&s->strs);
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------- rendering -- */

int scene_action_text(pr_str *b, const scene *s)
{
	if (!s->action) {
		pr_str_adds(b, "none");
		return H2EMV_OK;
	}
	pr_str_adds(b, s->action);
	pr_str_adds(b, "(");
	if (s->args)
		pr_str_adds(b, s->args);
	pr_str_adds(b, ")");
	if (s->action_status) {
		pr_str_adds(b, " ");
		pr_str_adds(b, scene_status_names[s->action_status]);
	}
	return b->s && !b->oom ? H2EMV_OK : H2EMV_ENOMEM;
}

int scene_render(pr_str *b, const scene *s)
{
	size_t start = b->len;
	pr_str_adds(b, "Action: ");
	scene_action_text(b, s);
	if (s->location && *s->location) {
		pr_str_adds(b, "\nLocation: ");
		pr_str_adds(b, s->location);
	}
	for (size_t i = 0; i < s->n_persons; i++) {
		pr_str_adds(b, i ? ", " : "\nPersons: ");
		pr_str_adds(b, s->persons[i]);
	}
	for (size_t i = 0; i < s->n_speech; i++) {
		pr_str_adds(b, "\nSpeech: ");
		if (s->speech[i].speaker) {
			pr_str_adds(b, s->speech[i].speaker);
			pr_str_adds(b, ": ");
		}
		pr_str_adds(b, "\"");
		pr_str_adds(b, s->speech[i].text);
		pr_str_adds(b, "\"");
	}
	for (size_t i = 0; i < s->n_objects; i++) {
		const scene_obj *o = &s->objects[i];
		pr_str_adds(b, i ? ", " : "\nObjects: ");
		pr_str_adds(b, o->id);
		pr_str_adds(b, " (");
		pr_str_adds(b, o->type);
		if (o->state && *o->state) {
			pr_str_adds(b, ", ");
			pr_str_adds(b, o->state);
		}
		pr_str_adds(b, ")");
	}
	for (size_t i = 0; i < s->n_rels; i++) {
		pr_str_adds(b, i ? "; " : "\nRelations: ");
		pr_str_adds(b, s->rels[i].from);
		pr_str_adds(b, " ");
		pr_str_adds(b, s->rels[i].type);
		pr_str_adds(b, " ");
		pr_str_adds(b, s->rels[i].to);
	}
	if (s->note && *s->note) {
		pr_str_adds(b, "\nNote: ");
		pr_str_adds(b, s->note);
	}
	return !b->oom && b->len > start ? H2EMV_OK : H2EMV_ENOMEM;
}

static int names_object(const scene *s, const char *arg, size_t n)
{
	for (size_t i = 0; i < s->n_objects; i++)
		if (strlen(s->objects[i].id) == n && !memcmp(s->objects[i].id, arg, n))
			return 1;
	return 0;
}

/* An id such as Potato_4 or knife_0: letters, '_', digits at the end. */
static int looks_like_id(const char *p, size_t n)
{
	size_t i = n;
	while (i > 0 && p[i - 1] >= '0' && p[i - 1] <= '9')
		i--;
	return i > 1 && i < n && p[i - 1] == '_';
}

int scene_is_interaction(const scene *s)
{
	if (!s->action || !s->args)
		return 0;
	if (s->action_status && s->action_status != 3)
		return 0;
	/* an argument that names an object: its key says so (object, obj...),
	 * or its value is an object seen in the scene or reads like an id */
	const char *p = s->args;
	while (*p) {
		const char *end = strstr(p, ", ");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		const char *val = eq ? eq + 1 : p;
		size_t vn = eq ? n - (size_t)(eq - p) - 1 : n;
		if ((eq && eq - p >= 3 && !memcmp(p, "obj", 3)) || names_object(s, val, vn) ||
		    looks_like_id(val, vn))
			return 1;
		p += n;
		if (*p)
			p += 2;
	}
	return 0;
}

uint64_t scene_event_key(const scene *s)
{
	pr_str b = { 0 };
	/* the action and its arguments, not its status: Pickup running then
	 * succeeded is one event */
	if (s->action) {
		pr_str_adds(&b, s->action);
		pr_str_add(&b, "(", 1);
		if (s->args)
			pr_str_adds(&b, s->args);
	}
	for (size_t i = 0; i < s->n_objects; i++) {
		pr_str_add(&b, "|", 1);
		pr_str_adds(&b, s->objects[i].id);
		if (s->objects[i].state)
			pr_str_adds(&b, s->objects[i].state);
	}
	for (size_t i = 0; i < s->n_rels; i++) {
		pr_str_add(&b, "|", 1);
		pr_str_adds(&b, s->rels[i].from);
		pr_str_adds(&b, s->rels[i].type);
		pr_str_adds(&b, s->rels[i].to);
	}
	uint64_t h = b.len ? XXH3_64bits(b.s, b.len) : 0;
	pr_str_free(&b);
	return h;
}
