/*
 * export_json.c — the JSON of the export document (docs/formats.md §5):
 * one object per node, with its typed facts decoded from the payload (a
 * scene's read from its observation through the robot profile), and the
 * head that says which snapshot, configuration and rules the tree belongs to.
 */
#include <stdlib.h>
#include <string.h>

#include "api/export/export.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"
#include "api/tree/scene.h"
#include "api/base/utf8.h"

/* A failed json_object_set_new leaves a NULL value or a full heap: either
 * way the object is incomplete, so one flag catches every failure. */
typedef struct jb {
	json_t *o;
	int oom;
} jb;

static void put(jb *b, const char *key, json_t *v)
{
	if (!v || json_object_set_new_nocheck(b->o, key, v)) /* our keys are ASCII */
		b->oom = 1;
}

/* A copy of s[0..n) that is plain ASCII: every other byte (and NUL)
 * becomes '?'. For text that is not UTF-8 (a damaged record). NULL when
 * out of memory. */
static char *ascii_copy(const char *s, size_t n)
{
	char *c = malloc(n + 1);
	if (!c)
		return NULL;
	for (size_t i = 0; i < n; i++)
		c[i] = (unsigned char)s[i] < 0x80 && s[i] ? s[i] : '?';
	return c;
}

/* A string; bytes that are not UTF-8 (a damaged record) become '?'. */
static json_t *jtextn(const char *s, size_t n)
{
	json_t *v = json_stringn(s, n);
	if (v || !s)
		return v;
	char *c = ascii_copy(s, n);
	if (!c)
		return NULL;
	v = json_stringn(c, n);
	free(c);
	return v;
}

static json_t *jtext(const char *s)
{
	return s ? jtextn(s, strlen(s)) : json_null();
}

/* "key": ISO-8601 UTC and "key_us" (`ukey`): microseconds; both null for
 * never. */
static void put_time(jb *b, const char *key, const char *ukey, int64_t us)
{
	char iso[OBS_TIME_TEXT];
	if (us == H2EMV_TIME_NEVER) {
		put(b, key, json_null());
		put(b, ukey, json_null());
		return;
	}
	obs_time_format(iso, us);
	put(b, key, json_string_nocheck(iso));
	put(b, ukey, json_integer(us));
}

char *export_ref(char *out, h2emv_ref r)
{
	snprintf(out, 32, "%llu:%u", (unsigned long long)r.id, r.version);
	return out;
}

const char *export_kind_name(int kind)
{
	static const char *const names[] = { "unknown", "scene", "event",     "goal",
		                             "summary", "root",  "forgotten" };
	return kind >= 1 && kind <= 6 ? names[kind] : names[0];
}

/* ----------------------------------------------------------------- facts -- */

static const char *type_name(int t)
{
	static const char *const names[] = { "unknown", "action", "person", "utterance",
		                             "seen",    "place",  "task",   "note" };
	return t >= 1 && t <= 7 ? names[t] : names[0];
}

static const char *status_name(int s)
{
	switch (s) {
	case FST_NONE: return "none";
	case FST_ONGOING: return "ongoing";
	case FST_DONE: return "succeeded";
	case FST_FAILED: return "failed";
	case FST_ABORTED: return "aborted";
	default: return "unknown";
	}
}

static const char *const slot_names[FS_N] = {
	[FS_VERB] = "verb",   [FS_NAME] = "name",   [FS_OBJ] = "object",
	[FS_SRC] = "source",  [FS_DST] = "destination", [FS_PLACE] = "place",
	[FS_WHO] = "person",  [FS_INSTR] = "instrument", [FS_TEXT] = "text",
	[FS_STATE] = "state",
};

/* A string of a fact as JSON text; bytes that are not UTF-8 (a damaged
 * record) become '?', as jtextn does. */
static int text_str(eng_buf *o, const char *s, size_t n)
{
	if (utf8_text_ok(s, n))
		return obs_json_string(o, s, n);
	char *c = ascii_copy(s, n);
	if (!c)
		return H2EMV_ENOMEM;
	int rc = obs_json_string(o, c, n);
	free(c);
	return rc;
}

static int text_put(eng_buf *o, const char *s)
{
	return eng_buf_append(o, s, strlen(s));
}

/* One fact as JSON text (the members of docs/formats.md §5.2, in order).
 * Written directly rather than through jansson: a node holds up to 256
 * facts, and building and dumping an object per fact was most of an
 * export's time. */
static int fact_text(eng_buf *o, const fact *f)
{
	char num[96];
	int rc = text_put(o, "{\"type\":\"");
	if (!rc)
		rc = text_put(o, type_name(f->type));
	if (!rc)
		rc = text_put(o, "\",\"status\":\"");
	if (!rc)
		rc = text_put(o, status_name(f->status));
	if (!rc)
		rc = text_put(o, "\"");
	for (int i = 0; i < FS_N && !rc; i++) {
		if (!f->s[i])
			continue;
		rc = text_put(o, ",\"");
		if (!rc)
			rc = text_put(o, slot_names[i]);
		if (!rc)
			rc = text_put(o, "\":");
		if (!rc)
			rc = text_str(o, f->s[i], strlen(f->s[i]));
	}
	/* microseconds only: a node can hold hundreds of facts */
	snprintf(num, sizeof num, ",\"count\":%lu,\"first_us\":%lld,\"last_us\":%lld,", (unsigned long)f->count,
	         (long long)f->t0, (long long)f->t1);
	if (!rc)
		rc = text_put(o, num);
	snprintf(num, sizeof num, "\"last_end_us\":%lld}", (long long)f->t2);
	return rc ? rc : text_put(o, num);
}

/* The facts of a node: a scene's from its observation (whose canonical
 * JSON goes to *obs, malloc'd), any other's from its payload. A damaged
 * payload reads as no facts (as in answering). */
static int node_facts(facts *f, xnode_ctx *x, const h2emv_node *n, char **obs)
{
	size_t len;
	const void *p = h2emv_node_payload(n, &len);
	*obs = NULL;
	if (!p || !len)
		return H2EMV_OK;
	if (h2emv_node_kind(n) != H2EMV_KIND_SCENE) {
		int rc = facts_payload_decode(f, p, len);
		return rc == H2EMV_ECORRUPT ? H2EMV_OK : rc;
	}
	if (obs_body_check(p, len, NULL) != H2EMV_OK)
		return H2EMV_OK;
	size_t jl;
	if (obs_to_json(obs, &jl, p, len, NULL) != H2EMV_OK)
		*obs = NULL;
	scene s;
	int rc = scene_decode(&s, p, len, NULL);
	if (rc == H2EMV_OK) {
		rc = facts_from_scene(f, &s, x->prof, x->tasks);
		scene_free(&s);
	}
	return rc == H2EMV_ECORRUPT ? H2EMV_OK : rc;
}

/* ------------------------------------------------------------------ node -- */

/* What follows a node's head object: its facts, its children, and a
 * scene's observation, as JSON text each starting with a comma. */
static int node_tail(eng_buf *o, xnode_ctx *x, const h2emv_node *n)
{
	char ref[32];
	int rc = H2EMV_OK;
	char *obs = NULL;
	if (!x->no_facts) {
		facts f = { 0 };
		rc = node_facts(&f, x, n, &obs);
		if (!rc)
			rc = text_put(o, ",\"facts\":[");
		for (size_t i = 0; !rc && i < f.n; i++) {
			if (i)
				rc = text_put(o, ",");
			if (!rc)
				rc = fact_text(o, &f.v[i]);
		}
		if (!rc)
			rc = text_put(o, "]");
		facts_free(&f);
	}
	if (!rc)
		rc = text_put(o, ",\"children\":[");
	for (size_t i = 0; !rc && i < h2emv_node_child_count(n); i++) {
		if (i)
			rc = text_put(o, ",");
		if (!rc)
			rc = text_put(o, "\"");
		if (!rc)
			rc = text_put(o, export_ref(ref, h2emv_node_child_ref(n, i)));
		if (!rc)
			rc = text_put(o, "\"");
	}
	if (!rc)
		rc = text_put(o, "]");
	if (!rc && obs) {
		rc = text_put(o, ",\"observation\":");
		if (!rc)
			rc = text_put(o, obs);
	}
	free(obs);
	return rc;
}

json_t *export_node_json(xnode_ctx *x, const h2emv_node *n, const char *parent, eng_buf *tail)
{
	char ref[32];
	h2emv_ref r = h2emv_node_ref(n);
	int kind = h2emv_node_kind(n);
	jb b = { json_object(), 0 };
	if (!b.o)
		return NULL;
	put(&b, "ref", json_string(export_ref(ref, r)));
	put(&b, "id", json_integer((json_int_t)r.id));
	put(&b, "version", json_integer(r.version));
	put(&b, "level", json_integer(h2emv_node_level(n)));
	put(&b, "kind", json_string(export_kind_name(kind)));
	put(&b, "forgotten", json_boolean(kind == H2EMV_KIND_FORGOTTEN));
	put(&b, "parent", parent ? json_string(parent) : json_null());
	put_time(&b, "start", "start_us", h2emv_node_start(n));
	put_time(&b, "end", "end_us", h2emv_node_end(n));
	put_time(&b, "expiry", "expiry_us", h2emv_node_expiry(n));
	put(&b, "born", json_integer((json_int_t)n->e.born));
	size_t slen;
	const char *summary = h2emv_node_summary(n, &slen);
	put(&b, "summary", jtextn(summary, slen));
	size_t plen;
	const void *p = h2emv_node_payload(n, &plen);
	int open = 0;
	uint64_t aux;
	if (kind != H2EMV_KIND_SCENE && p && facts_payload_head(p, plen, &open, &aux)) {
		put(&b, "growing", json_boolean(open & 1));
		put(&b, "extended", json_boolean(open & 2));
	}
	tail->len = 0;
	if (b.oom || node_tail(tail, x, n) != H2EMV_OK) {
		json_decref(b.o);
		return NULL;
	}
	return b.o;
}

/* ------------------------------------------------------------------ head -- */

static json_t *snapshot_json(h2emv_snap *snap, h2emv_error *err)
{
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	char ref[32];
	jb b = { json_object(), 0 };
	if (!b.o)
		return NULL;
	put(&b, "seq", json_integer((json_int_t)info.seq));
	put(&b, "root", info.root.id ? json_string(export_ref(ref, info.root)) : json_null());
	put_time(&b, "t_now", "t_now_us", info.t_now);
	put_time(&b, "created", "created_us", info.created);
	put(&b, "build_cursor", json_integer((json_int_t)info.build_cursor));
	put(&b, "n_nodes", json_integer((json_int_t)info.n_nodes));
	put(&b, "rules_version", json_integer(info.rules_version));
	h2emv_pin *pins = NULL;
	size_t np = 0;
	json_t *names = json_array();
	if (h2emv_pin_list(&pins, &np, snap_mem(snap), err) != H2EMV_OK)
		b.oom = 2;
	for (size_t i = 0; names && i < np; i++)
		if (pins[i].seq == info.seq && json_array_append_new(names, jtext(pins[i].name)))
			b.oom = 1;
	free(pins);
	put(&b, "pins", names);
	if (b.oom) {
		if (b.oom == 1)
			eng_fail(err, H2EMV_ENOMEM, "out of memory");
		json_decref(b.o);
		return NULL;
	}
	return b.o;
}

static json_t *config_json(h2emv_mem *mem, h2emv_error *err)
{
	h2emv_config c;
	if (h2emv_config_get(&c, mem, err) != H2EMV_OK)
		return NULL;
	jb b = { json_object(), 0 };
	if (!b.o)
		return NULL;
	put(&b, "profile", json_string(c.profile == H2EMV_PROFILE_SKILL_STACK ? "skill-stack"
	                                                                      : "action-list"));
	put(&b, "forgetting", json_string(c.forgetting == H2EMV_FORGET_TIME   ? "time"
	                                  : c.forgetting == H2EMV_FORGET_NONE ? "none"
	                                                                      : "relevance"));
	put(&b, "life_scene_us", json_integer(c.life_scene));
	put(&b, "life_event_us", json_integer(c.life_event));
	put(&b, "life_goal_us", json_integer(c.life_goal));
	put(&b, "life_summary_us", json_integer(c.life_summary));
	put(&b, "flat", json_boolean(c.flat));
	if (b.oom) {
		json_decref(b.o);
		eng_fail(err, H2EMV_ENOMEM, "out of memory");
		return NULL;
	}
	return b.o;
}

/* The rules the snapshot saw. Version 0 is the default rule alone and is
 * not stored (h2emv_rules_get(0) means "the current one"). */
static json_t *rules_json(h2emv_mem *mem, uint32_t version, h2emv_error *err)
{
	h2emv_rules *r = NULL;
	if (version && h2emv_rules_get(&r, mem, version, err) != H2EMV_OK)
		return NULL;
	jb b = { json_object(), 0 };
	json_t *items = json_array();
	if (b.o) {
		put(&b, "version", json_integer(version));
		if (r) {
			for (size_t i = 0; items && i < r->n; i++)
				if (json_array_append_new(items, jtext(r->items[i])))
					b.oom = 1;
		} else if (items && json_array_append_new(items, jtext(RULE_DEFAULT))) {
			b.oom = 1;
		}
		put(&b, "items", items);
		put(&b, "feedback", jtext(r ? r->feedback : ""));
		put(&b, "parent", json_integer(r ? r->parent : 0));
		put(&b, "repaired", json_boolean(r && r->repaired));
		if (r)
			put_time(&b, "created", "created_us", r->created);
		else
			put(&b, "created", json_null());
	} else {
		json_decref(items);
	}
	h2emv_rules_free(r);
	if (!b.o || b.oom) {
		json_decref(b.o);
		eng_fail(err, H2EMV_ENOMEM, "out of memory");
		return NULL;
	}
	return b.o;
}

json_t *export_head_json(h2emv_snap *snap, const h2emv_export_options *o, h2emv_error *err)
{
	h2emv_mem *mem = snap_mem(snap);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	jb b = { json_object(), 0 };
	if (!b.o) {
		eng_fail(err, H2EMV_ENOMEM, "out of memory");
		return NULL;
	}
	put(&b, "format", json_string(EXPORT_SCHEMA));
	put(&b, "generator", json_string("h2emv " H2EMV_VERSION_STRING));
	json_t *s = snapshot_json(snap, err), *c = s ? config_json(mem, err) : NULL;
	json_t *r = c ? rules_json(mem, info.rules_version, err) : NULL;
	if (!r) {
		json_decref(s);
		json_decref(c);
		json_decref(b.o);
		return NULL;
	}
	put(&b, "snapshot", s);
	put(&b, "config", c);
	put(&b, "rules", r);
	char ref[32];
	jb sc = { json_object(), 0 };
	if (sc.o) {
		put(&sc, "start", o->start.id ? json_string(export_ref(ref, o->start)) : json_null());
		put(&sc, "max_depth", o->max_depth >= 0 ? json_integer(o->max_depth) : json_null());
		put(&sc, "min_level", json_integer(o->min_level));
		put(&sc, "facts", json_boolean(!o->no_facts));
		b.oom |= sc.oom;
	}
	put(&b, "scope", sc.o);
	if (b.oom) {
		json_decref(b.o);
		eng_fail(err, H2EMV_ENOMEM, "out of memory");
		return NULL;
	}
	return b.o;
}
