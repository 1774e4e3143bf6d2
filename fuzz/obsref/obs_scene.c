/*
 * obs_scene.c — the scene part of an observation read from JSON: objects
 * with their states and relations, scene relations, persons and speech.
 * Shapes and rules are in docs/formats.md.
 */
#include <stdlib.h>

#include "obs_json.h"

/* -------------------------------------------------------------- objects -- */

static int put_state_value(jctx *c, const json_t *v)
{
	int rc;
	if (!oj_put_scalar(c, v, &rc))
		return rc;
	return oj_fail(c, H2EMV_EPARSE, "expected a string, number, boolean or null, got %s",
	               oj_type(v));
}

/* {"isCooked": true, "temperature": "Hot", "receptacleObjectIds": [...]}:
 * property -> scalar, or a flat array of scalars. */
static int put_state_map(jctx *c, const json_t *v)
{
	jmember *m;
	size_t n;
	int rc = oj_sorted_members(c, v, &m, &n);
	if (rc)
		return rc;
	msgpack_pack_map(&c->pk, n);
	for (size_t i = 0; i < n && !rc; i++) {
		obs_path_key(&c->path, m[i].key, m[i].klen);
		rc = oj_check_strn(c, m[i].klen, 1);
		if (!rc) {
			oj_pack_strn(c, m[i].key, m[i].klen);
			if (json_is_array(m[i].val))
				rc = oj_put_array_of(c, m[i].val, put_state_value, "scalars");
			else
				rc = put_state_value(c, m[i].val);
		}
		if (!rc)
			obs_path_pop(&c->path);
	}
	free(m);
	return rc;
}

static int put_state(jctx *c, const json_t *v)
{
	if (json_is_string(v))
		return oj_put_text(c, v);
	if (json_is_object(v))
		return put_state_map(c, v);
	return oj_fail(c, H2EMV_EPARSE,
	               "expected a string or an object of property: value, got %s", oj_type(v));
}

/* A relation is stored as an array of strings: [from,] to, type. It may
 * be given as an object or as such an array (the ARMAR scene graph's
 * [from, to, type]). */
static int put_relation(jctx *c, const json_t *v, int with_from)
{
	static const char *const keys[] = { "from", "to", "type" };
	const char *const *k = with_from ? keys : keys + 1;
	size_t nk = with_from ? 3 : 2;
	const char *form = with_from ? "{from, to, type} or [from, to, type]"
	                             : "{to, type} or [to, type]";
	if (json_is_array(v) && json_array_size(v) != nk)
		return oj_fail(c, H2EMV_EPARSE, "expected %s, got an array of %zu items", form,
		               json_array_size(v));
	if (json_is_array(v))
		return oj_put_array_of(c, v, oj_put_ident, "strings");
	if (!json_is_object(v))
		return oj_fail(c, H2EMV_EPARSE, "expected %s, got %s", form, oj_type(v));
	int rc = oj_check_keys(c, v, k, nk, "a relation");
	msgpack_pack_array(&c->pk, nk);
	for (size_t i = 0; i < nk && !rc; i++) {
		json_t *unused;
		rc = oj_require(c, v, k[i], form, &unused);
		if (!rc)
			rc = oj_put_member(c, v, k[i], oj_put_ident);
	}
	return rc;
}

static int put_object_relation(jctx *c, const json_t *v)
{
	return put_relation(c, v, 0);
}

static int put_scene_relation(jctx *c, const json_t *v)
{
	return put_relation(c, v, 1);
}

static int put_object_relations(jctx *c, const json_t *v)
{
	return oj_put_array_of(c, v, put_object_relation, "relations {to, type}");
}

static int put_object(jctx *c, const json_t *v)
{
	static const char *const keys[] = { "id", "type", "state", "relations" };
	static const char need[] = "every object needs an id and a type";
	if (!json_is_object(v))
		return oj_fail(c, H2EMV_EPARSE,
		               "expected an object {id, type, state, relations}, got %s",
		               oj_type(v));
	json_t *unused;
	int rc = oj_check_keys(c, v, keys, 4, "an object");
	if (!rc)
		rc = oj_require(c, v, "id", need, &unused);
	if (!rc)
		rc = oj_require(c, v, "type", need, &unused);
	if (rc)
		return rc;
	json_t *state = oj_member(v, "state"), *rel = oj_member(v, "relations");
	msgpack_pack_map(&c->pk, 2 + (state != NULL) + (rel != NULL));
	msgpack_pack_uint8(&c->pk, OBS_OBJ_ID);
	rc = oj_put_member(c, v, "id", oj_put_ident);
	msgpack_pack_uint8(&c->pk, OBS_OBJ_TYPE);
	if (!rc)
		rc = oj_put_member(c, v, "type", oj_put_ident);
	if (!rc && state) {
		msgpack_pack_uint8(&c->pk, OBS_OBJ_STATE);
		rc = oj_put_member(c, v, "state", put_state);
	}
	if (!rc && rel) {
		msgpack_pack_uint8(&c->pk, OBS_OBJ_RELATIONS);
		rc = oj_put_member(c, v, "relations", put_object_relations);
	}
	return rc;
}

int oj_put_objects(jctx *c, const json_t *v)
{
	return oj_put_array_of(c, v, put_object, "objects {id, type, state, relations}");
}

int oj_put_relations(jctx *c, const json_t *v)
{
	return oj_put_array_of(c, v, put_scene_relation, "relations {from, to, type}");
}

/* ------------------------------------------------------ persons, speech -- */

/* A person: "Alice", or {name, id} with at least one of the two. Stored as
 * a map either way so that readers meet one shape. */
static int put_person(jctx *c, const json_t *v)
{
	static const char *const keys[] = { "name", "id" };
	if (json_is_string(v)) {
		msgpack_pack_map(&c->pk, 1);
		msgpack_pack_uint8(&c->pk, OBS_PER_NAME);
		return oj_put_ident(c, v);
	}
	if (!json_is_object(v))
		return oj_fail(c, H2EMV_EPARSE, "expected a name or an object {name, id}, got %s",
		               oj_type(v));
	int rc = oj_check_keys(c, v, keys, 2, "a person");
	if (rc)
		return rc;
	json_t *name = oj_member(v, "name"), *id = oj_member(v, "id");
	if (!name && !id)
		return oj_fail(c, H2EMV_EPARSE, "a person needs a name or an id");
	msgpack_pack_map(&c->pk, (name != NULL) + (id != NULL));
	if (name) {
		msgpack_pack_uint8(&c->pk, OBS_PER_NAME);
		rc = oj_put_member(c, v, "name", oj_put_ident);
	}
	if (!rc && id) {
		msgpack_pack_uint8(&c->pk, OBS_PER_ID);
		rc = oj_put_member(c, v, "id", oj_put_ident);
	}
	return rc;
}

int oj_put_persons(jctx *c, const json_t *v)
{
	return oj_put_array_of(c, v, put_person, "persons");
}

/* One utterance: {speaker, text}, or a bare string (raw speech recognition
 * with nobody named). */
static int put_utterance(jctx *c, const json_t *v)
{
	static const char *const keys[] = { "speaker", "text" };
	if (json_is_string(v)) {
		msgpack_pack_map(&c->pk, 1);
		msgpack_pack_uint8(&c->pk, OBS_SP_TEXT);
		return oj_put_text(c, v);
	}
	if (!json_is_object(v))
		return oj_fail(c, H2EMV_EPARSE, "expected an object {speaker, text}, got %s",
		               oj_type(v));
	json_t *unused;
	int rc = oj_check_keys(c, v, keys, 2, "an utterance");
	if (!rc)
		rc = oj_require(c, v, "text", "an utterance needs a text", &unused);
	if (rc)
		return rc;
	json_t *speaker = oj_member(v, "speaker");
	msgpack_pack_map(&c->pk, 1 + (speaker != NULL));
	if (speaker) {
		msgpack_pack_uint8(&c->pk, OBS_SP_SPEAKER);
		rc = oj_put_member(c, v, "speaker", oj_put_ident);
	}
	msgpack_pack_uint8(&c->pk, OBS_SP_TEXT);
	return rc ? rc : oj_put_member(c, v, "text", oj_put_text);
}

/* Always stored as an array of utterances. */
int oj_put_speech(jctx *c, const json_t *v)
{
	if (json_is_array(v))
		return oj_put_array_of(c, v, put_utterance, "utterances");
	msgpack_pack_array(&c->pk, 1);
	return put_utterance(c, v);
}

