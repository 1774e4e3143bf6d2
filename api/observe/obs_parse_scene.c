/*
 * obs_parse_scene.c — the scene part of an observation read from the
 * scanned JSON (obs_parse.c): objects with their states and relations,
 * scene relations, persons and speech. Shapes and rules are in
 * docs/formats.md.
 */
#include <stdlib.h>

#include "api/observe/obs_scan.h"

/* -------------------------------------------------------------- objects -- */

static int put_state_value(octx *c, uint32_t v)
{
	int rc;
	if (!op_put_scalar(c, v, &rc))
		return rc;
	return op_fail(c, H2EMV_EPARSE, "expected a string, number, boolean or null, got %s",
	               op_type(&c->tok[v]));
}

/* {"isCooked": true, "temperature": "Hot", "receptacleObjectIds": [...]}:
 * property -> scalar, or a flat array of scalars. */
static int put_state_map(octx *c, uint32_t v)
{
	uint32_t local[32], *keys;
	int rc = op_sorted_keys(c, v, local, 32, &keys);
	if (rc)
		return rc;
	size_t n = c->tok[v].n;
	msgpack_pack_map(&c->pk, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const os_tok *k = &c->tok[keys[i]];
		uint32_t val = keys[i] + 1;
		obs_path_key(&c->path, k->s, k->n);
		rc = op_check_strn(c, k->n, 1);
		if (!rc) {
			op_pack_strn(c, k->s, k->n);
			if (c->tok[val].type == OS_ARRAY)
				rc = op_put_array_of(c, val, put_state_value, "scalars");
			else
				rc = put_state_value(c, val);
		}
		if (!rc)
			obs_path_pop(&c->path);
	}
	if (keys != local)
		free(keys);
	return rc;
}

static int put_state(octx *c, uint32_t v)
{
	const os_tok *t = &c->tok[v];
	if (t->type == OS_STRING)
		return op_put_text(c, v);
	if (t->type == OS_OBJECT)
		return put_state_map(c, v);
	return op_fail(c, H2EMV_EPARSE,
	               "expected a string or an object of property: value, got %s", op_type(t));
}

/* A relation is stored as an array of strings: [from,] to, type. It may
 * be given as an object or as such an array (the ARMAR scene graph's
 * [from, to, type]). */
static int put_relation(octx *c, uint32_t v, int with_from)
{
	static const char *const keys[] = { "from", "to", "type" };
	const char *const *k = with_from ? keys : keys + 1;
	size_t nk = with_from ? 3 : 2;
	const char *form = with_from ? "{from, to, type} or [from, to, type]"
	                             : "{to, type} or [to, type]";
	const os_tok *t = &c->tok[v];
	if (t->type == OS_ARRAY && t->n != nk)
		return op_fail(c, H2EMV_EPARSE, "expected %s, got an array of %zu items", form,
		               (size_t)t->n);
	if (t->type == OS_ARRAY)
		return op_put_array_of(c, v, op_put_ident, "strings");
	if (t->type != OS_OBJECT)
		return op_fail(c, H2EMV_EPARSE, "expected %s, got %s", form, op_type(t));
	uint32_t m[3];
	int rc = op_slots(c, v, k, nk, "a relation", m);
	msgpack_pack_array(&c->pk, nk);
	for (size_t i = 0; i < nk && !rc; i++) {
		rc = op_require(c, m[i], k[i], form);
		if (!rc)
			rc = op_put_member(c, m[i], k[i], op_put_ident);
	}
	return rc;
}

static int put_object_relation(octx *c, uint32_t v)
{
	return put_relation(c, v, 0);
}

static int put_scene_relation(octx *c, uint32_t v)
{
	return put_relation(c, v, 1);
}

static int put_object_relations(octx *c, uint32_t v)
{
	return op_put_array_of(c, v, put_object_relation, "relations {to, type}");
}

static int put_object(octx *c, uint32_t v)
{
	static const char *const keys[] = { "id", "type", "state", "relations" };
	static const char need[] = "every object needs an id and a type";
	if (c->tok[v].type != OS_OBJECT)
		return op_fail(c, H2EMV_EPARSE,
		               "expected an object {id, type, state, relations}, got %s",
		               op_type(&c->tok[v]));
	uint32_t m[4];
	int rc = op_slots(c, v, keys, 4, "an object", m);
	if (!rc)
		rc = op_require(c, m[0], "id", need);
	if (!rc)
		rc = op_require(c, m[1], "type", need);
	if (rc)
		return rc;
	int state = op_has(c, m[2]), rel = op_has(c, m[3]);
	msgpack_pack_map(&c->pk, (size_t)(2 + state + rel));
	msgpack_pack_uint8(&c->pk, OBS_OBJ_ID);
	rc = op_put_member(c, m[0], "id", op_put_ident);
	msgpack_pack_uint8(&c->pk, OBS_OBJ_TYPE);
	if (!rc)
		rc = op_put_member(c, m[1], "type", op_put_ident);
	if (!rc && state) {
		msgpack_pack_uint8(&c->pk, OBS_OBJ_STATE);
		rc = op_put_member(c, m[2], "state", put_state);
	}
	if (!rc && rel) {
		msgpack_pack_uint8(&c->pk, OBS_OBJ_RELATIONS);
		rc = op_put_member(c, m[3], "relations", put_object_relations);
	}
	return rc;
}

int op_put_objects(octx *c, uint32_t v)
{
	return op_put_array_of(c, v, put_object, "objects {id, type, state, relations}");
}

int op_put_relations(octx *c, uint32_t v)
{
	return op_put_array_of(c, v, put_scene_relation, "relations {from, to, type}");
}

/* ------------------------------------------------------ persons, speech -- */

/* A person: "Alice", or {name, id} with at least one of the two. Stored as
 * a map either way so that readers meet one shape. */
static int put_person(octx *c, uint32_t v)
{
	static const char *const keys[] = { "name", "id" };
	const os_tok *t = &c->tok[v];
	if (t->type == OS_STRING) {
		msgpack_pack_map(&c->pk, 1);
		msgpack_pack_uint8(&c->pk, OBS_PER_NAME);
		return op_put_ident(c, v);
	}
	if (t->type != OS_OBJECT)
		return op_fail(c, H2EMV_EPARSE, "expected a name or an object {name, id}, got %s",
		               op_type(t));
	uint32_t m[2];
	int rc = op_slots(c, v, keys, 2, "a person", m);
	if (rc)
		return rc;
	int name = op_has(c, m[0]), id = op_has(c, m[1]);
	if (!name && !id)
		return op_fail(c, H2EMV_EPARSE, "a person needs a name or an id");
	msgpack_pack_map(&c->pk, (size_t)(name + id));
	if (name) {
		msgpack_pack_uint8(&c->pk, OBS_PER_NAME);
		rc = op_put_member(c, m[0], "name", op_put_ident);
	}
	if (!rc && id) {
		msgpack_pack_uint8(&c->pk, OBS_PER_ID);
		rc = op_put_member(c, m[1], "id", op_put_ident);
	}
	return rc;
}

int op_put_persons(octx *c, uint32_t v)
{
	return op_put_array_of(c, v, put_person, "persons");
}

/* One utterance: {speaker, text}, or a bare string (raw speech recognition
 * with nobody named). */
static int put_utterance(octx *c, uint32_t v)
{
	static const char *const keys[] = { "speaker", "text" };
	const os_tok *t = &c->tok[v];
	if (t->type == OS_STRING) {
		msgpack_pack_map(&c->pk, 1);
		msgpack_pack_uint8(&c->pk, OBS_SP_TEXT);
		return op_put_text(c, v);
	}
	if (t->type != OS_OBJECT)
		return op_fail(c, H2EMV_EPARSE, "expected an object {speaker, text}, got %s",
		               op_type(t));
	uint32_t m[2];
	int rc = op_slots(c, v, keys, 2, "an utterance", m);
	if (!rc)
		rc = op_require(c, m[1], "text", "an utterance needs a text");
	if (rc)
		return rc;
	int speaker = op_has(c, m[0]);
	msgpack_pack_map(&c->pk, (size_t)(1 + speaker));
	if (speaker) {
		msgpack_pack_uint8(&c->pk, OBS_SP_SPEAKER);
		rc = op_put_member(c, m[0], "speaker", op_put_ident);
	}
	msgpack_pack_uint8(&c->pk, OBS_SP_TEXT);
	return rc ? rc : op_put_member(c, m[1], "text", op_put_text);
}

/* Always stored as an array of utterances. */
int op_put_speech(octx *c, uint32_t v)
{
	if (c->tok[v].type == OS_ARRAY)
		return op_put_array_of(c, v, put_utterance, "utterances");
	msgpack_pack_array(&c->pk, 1);
	return put_utterance(c, v);
}
