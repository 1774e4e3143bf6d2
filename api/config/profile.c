/*
 * profile.c — robot profiles (profile.h, docs/profiles.md): reading the
 * JSON, keeping it in the memory, and mapping a skill's parameter keys to
 * roles — the profile's word first, else a guess from the key's words.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/base/lex.h"
#include "api/mem/mem.h"
#include "api/config/profile.h"

#define PROFILE_KEY "robot_profile"
#define PROFILE_MAX_BYTES (1u << 20)

const char *const role_names[R_COUNT_] = {
	"", "object", "source", "destination", "place", "person", "instrument", "utterance", "ignore",
};

/* "graspObjectName" -> "graspobjectname": keys compare without case and
 * separators. */
static size_t norm_key(char *out, size_t cap, const char *k, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 1 < cap; i++) {
		unsigned char c = (unsigned char)k[i];
		if (c == '_' || c == '-' || c == ' ' || c == '.')
			continue;
		out[j++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	out[j] = 0;
	return j;
}

static int role_of_word(const char *w)
{
	for (int r = 1; r < R_COUNT_; r++)
		if (!strcmp(role_names[r], w))
			return r;
	if (!strcmp(w, "recipient") || !strcmp(w, "who"))
		return R_WHO;
	if (!strcmp(w, "text") || !strcmp(w, "speech"))
		return R_TEXT;
	if (!strcmp(w, "target") || !strcmp(w, "to"))
		return R_DEST;
	if (!strcmp(w, "from"))
		return R_SOURCE;
	return R_NONE;
}

void profile_free(robot_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_skills; i++) {
		prof_skill *s = &p->skills[i];
		free(s->name);
		free(s->verb);
		free(s->object);
		for (size_t k = 0; k < s->n_keys; k++)
			free(s->keys[k].key);
		free(s->keys);
	}
	free(p->skills);
	for (size_t k = 0; k < p->n_keys; k++)
		free(p->keys[k].key);
	free(p->keys);
	for (size_t i = 0; i < p->n_self; i++)
		free(p->self[i]);
	free(p->self);
	free(p->name);
	free(p->json);
	free(p);
}

static int bad(h2emv_error *err, const char *field, const char *what)
{
	return eng_fail(err, H2EMV_EPARSE, "robot profile: field '%s': %s", field, what);
}

static int read_keys(prof_key **out, size_t *n_out, json_t *obj, const char *field,
                     h2emv_error *err)
{
	*out = NULL;
	*n_out = 0;
	if (!obj)
		return H2EMV_OK;
	if (!json_is_object(obj))
		return bad(err, field, "expected an object of key: role");
	size_t n = json_object_size(obj);
	prof_key *k = calloc(n ? n : 1, sizeof *k);
	if (!k)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	*out = k;
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		int r = json_is_string(v) ? role_of_word(json_string_value(v)) : R_NONE;
		if (r == R_NONE)
			return eng_fail(err, H2EMV_EPARSE,
			                "robot profile: field '%s.%s': the role must be one of object, "
			                "source, destination, place, person, instrument, utterance, ignore",
			                field, key);
		char nk[128];
		norm_key(nk, sizeof nk, key, strlen(key));
		if (!(k[*n_out].key = strdup(nk)))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		k[(*n_out)++].role = r;
	}
	return H2EMV_OK;
}

static int opt_str(char **out, json_t *o, const char *name, const char *field, h2emv_error *err)
{
	json_t *v = json_object_get(o, name);
	*out = NULL;
	if (!v || json_is_null(v))
		return H2EMV_OK;
	if (!json_is_string(v) || !json_string_length(v))
		return bad(err, field, "expected a non-empty string");
	return (*out = strdup(json_string_value(v))) ? H2EMV_OK
	                                              : eng_fail(err, H2EMV_ENOMEM, "out of memory");
}

static int cmp_skill(const void *a, const void *b)
{
	return strcmp(((const prof_skill *)a)->name, ((const prof_skill *)b)->name);
}

static int parse_skills(robot_profile *p, json_t *skills, h2emv_error *err)
{
	if (!skills)
		return H2EMV_OK;
	if (!json_is_object(skills))
		return bad(err, "skills", "expected an object of skill name: {verb, object, roles}");
	size_t n = json_object_size(skills);
	if (!(p->skills = calloc(n ? n : 1, sizeof *p->skills)))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	const char *name;
	json_t *v;
	json_object_foreach(skills, name, v) {
		char field[300];
		snprintf(field, sizeof field, "skills.%s", name);
		prof_skill *s = &p->skills[p->n_skills++];
		if (!(s->name = strdup(name)))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		if (!json_is_object(v))
			return bad(err, field, "expected an object {verb, object, roles, ignore}");
		const char *k;
		json_t *m;
		json_object_foreach(v, k, m) {
			if (strcmp(k, "verb") && strcmp(k, "object") && strcmp(k, "roles") &&
			    strcmp(k, "ignore"))
				return eng_fail(err, H2EMV_EPARSE,
				                "robot profile: field '%s.%s': unknown (a skill has verb, "
				                "object, roles, ignore)", field, k);
		}
		int rc = opt_str(&s->verb, v, "verb", field, err);
		if (!rc)
			rc = opt_str(&s->object, v, "object", field, err);
		if (!rc) {
			char f2[320];
			snprintf(f2, sizeof f2, "%s.roles", field);
			rc = read_keys(&s->keys, &s->n_keys, json_object_get(v, "roles"), f2, err);
		}
		if (rc)
			return rc;
		json_t *ig = json_object_get(v, "ignore");
		if (ig && !json_is_boolean(ig))
			return bad(err, field, "'ignore' must be true or false");
		s->ignore = ig && json_is_true(ig);
	}
	qsort(p->skills, p->n_skills, sizeof *p->skills, cmp_skill);
	return H2EMV_OK;
}

int profile_parse(robot_profile **out, const char *text, size_t len, h2emv_error *err)
{
	*out = NULL;
	if (len > PROFILE_MAX_BYTES)
		return eng_fail(err, H2EMV_ELIMIT, "robot profile: over %u bytes", PROFILE_MAX_BYTES);
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return eng_fail(err, H2EMV_EPARSE, "robot profile: line %d, column %d: %s", je.line,
		                je.column, je.text);
	robot_profile *p = calloc(1, sizeof *p);
	int rc = p ? H2EMV_OK : eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc == H2EMV_OK && !json_is_object(root))
		rc = bad(err, "", "a profile is a JSON object");
	const char *k;
	json_t *v;
	if (rc == H2EMV_OK) {
		json_object_foreach(root, k, v) {
			if (strcmp(k, "profile") && strcmp(k, "name") && strcmp(k, "segmentation") &&
			    strcmp(k, "skills") && strcmp(k, "keys") && strcmp(k, "self") &&
			    strcmp(k, "description")) {
				rc = eng_fail(err, H2EMV_EPARSE,
				              "robot profile: field '%s': unknown (a profile has profile, "
				              "name, description, segmentation, skills, keys, self)", k);
				break;
			}
		}
	}
	if (rc == H2EMV_OK) {
		json_t *ver = json_object_get(root, "profile");
		if (!json_is_integer(ver) || json_integer_value(ver) != 1)
			rc = bad(err, "profile", "must be 1 (the profile format version)");
	}
	if (rc == H2EMV_OK)
		rc = opt_str(&p->name, root, "name", "name", err);
	if (rc == H2EMV_OK) {
		json_t *seg = json_object_get(root, "segmentation");
		const char *s = json_is_string(seg) ? json_string_value(seg) : NULL;
		if (!seg || json_is_null(seg))
			p->segmentation = H2EMV_PROFILE_TEACH;
		else if (s && (!strcmp(s, "action-list") || !strcmp(s, "teach")))
			p->segmentation = H2EMV_PROFILE_TEACH;
		else if (s && !strcmp(s, "skill-stack"))
			p->segmentation = H2EMV_PROFILE_SKILL_STACK;
		else
			rc = bad(err, "segmentation", "must be \"action-list\" or \"skill-stack\"");
	}
	if (rc == H2EMV_OK)
		rc = parse_skills(p, json_object_get(root, "skills"), err);
	if (rc == H2EMV_OK)
		rc = read_keys(&p->keys, &p->n_keys, json_object_get(root, "keys"), "keys", err);
	if (rc == H2EMV_OK) {
		json_t *self = json_object_get(root, "self");
		if (self && !json_is_array(self)) {
			rc = bad(err, "self", "expected an array of names");
		} else if (self) {
			size_t n = json_array_size(self), i;
			if (!(p->self = calloc(n ? n : 1, sizeof *p->self)))
				rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
			json_array_foreach(self, i, v) {
				if (rc)
					break;
				if (!json_is_string(v))
					rc = bad(err, "self", "expected an array of names");
				else if (!(p->self[p->n_self++] = strdup(json_string_value(v))))
					rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
			}
		}
	}
	if (rc == H2EMV_OK && !(p->json = strndup(text, len)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	json_decref(root);
	if (rc) {
		profile_free(p);
		return rc;
	}
	*out = p;
	return H2EMV_OK;
}

static int profile_decode(robot_profile **out, const uint8_t *body, size_t len,
                          h2emv_error *err);

int profile_load(robot_profile **out, eng_env *env, h2emv_error *err)
{
	*out = NULL;
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	eng_buf b = { 0 };
	rc = eng_kv_get(&b, r, ENG_KV_META, PROFILE_KEY, strlen(PROFILE_KEY), err);
	eng_read_end(r);
	if (rc == H2EMV_ENOTFOUND) {
		if (err)
			memset(err, 0, sizeof *err);
		rc = H2EMV_OK;
	} else if (rc == H2EMV_OK) {
		rc = profile_decode(out, b.data, b.len, err);
	}
	eng_buf_free(&b);
	return rc;
}

/* The stored profile is a msgpack str holding its JSON text; a store from
 * before the record codec holds the JSON text itself (docs/formats.md). */
static int profile_decode(robot_profile **out, const uint8_t *body, size_t len,
                          h2emv_error *err)
{
	const char *text;
	size_t n;
	if (len && body[0] == '{')
		return profile_parse(out, (const char *)body, len, err);
	if (mp_decode_str(&text, &n, body, len))
		return eng_fail(err, H2EMV_ECORRUPT, "the stored robot profile is not a profile record");
	return profile_parse(out, text, n, err);
}

/* Parse first (a bad profile is never stored), then store it as a record. */
static int profile_put(eng_env *env, const char *json, size_t len, h2emv_error *err)
{
	eng_buf b = { 0 };
	int rc = mp_encode_str(&b, json, len);
	if (rc)
		rc = eng_fail(err, rc, rc == H2EMV_ENOMEM ? "out of memory" : "the profile is too large");
	else
		rc = eng_kv_put(env, ENG_KV_META, PROFILE_KEY, strlen(PROFILE_KEY), b.data, b.len, err);
	eng_buf_free(&b);
	return rc;
}

int profile_store(eng_env *env, const char *json, size_t len, h2emv_error *err)
{
	robot_profile *p;
	int rc = profile_parse(&p, json, len, err);
	if (rc)
		return rc;
	profile_free(p);
	return profile_put(env, json, len, err);
}

const prof_skill *profile_skill(const robot_profile *p, const char *name)
{
	if (!p || !name || !p->n_skills)
		return NULL;
	prof_skill key = { .name = (char *)name };
	return bsearch(&key, p->skills, p->n_skills, sizeof *p->skills, cmp_skill);
}

static int find_key(const prof_key *k, size_t n, const char *nk)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].key, nk))
			return k[i].role;
	return R_NONE;
}

/* The generic guess: the key's words, most specific first. */
static int guess(const char *key, size_t n)
{
	lex_word w[8];
	size_t k = lex_split(key, n, w, 8);
	if (k > 8)
		k = 8;
	static const char *const text[] = { "text", "utterance", "message", "sentence", "speech",
		                                "say", "phrase", "words", "prompt", NULL };
	static const char *const src[] = { "from", "source", "origin", "src", "pickup", NULL };
	static const char *const dst[] = { "to", "target", "destination", "dest", "goal", "into",
		                               "onto", "receptacle", "container", "dropoff", "drop",
		                               NULL };
	static const char *const who[] = { "person", "human", "recipient", "patient", "user",
		                               "who", "customer", "guest", "visitor", "resident",
		                               "nurse", "doctor", "owner", "people", "persons",
		                               "participant", "speaker", "addressee", "worker",
		                               "operator", "staff", "caller", "sender", "requester",
		                               "requestor", "client", "patron", "passenger",
		                               "driver", "pilot", "farmer", "student", "child",
		                               "contact", "callee", "friend", "relative",
		                               "attendee", "member", "beneficiary", NULL };
	static const char *const place[] = { "location", "place", "room", "area", "site",
		                                 "station", "zone", "ward", "aisle", "shelf", "bay",
		                                 "waypoint", "where", "position", "region", "floor",
		                                 "bed", "dock", "route", "path", "trail", NULL };
	static const char *const obj[] = { "object", "obj", "item", "thing", "oid", "objects",
		                               "items", "medication", "medicine", "drug", "package",
		                               "parcel", "box", "cargo", "load", "article", "product",
		                               "sku", "tool", "material", "part", "good", "goods",
		                               "sample", "specimen", "food", "meal", "dish", "drink",
		                               NULL };
	static const char *const instr[] = { "instrument", "using", "with", "utensil", NULL };
	static const char *const skip[] = { "trigger", "frame", "agent", "arm", "hand", "speed",
		                                "id", "priority", "mode", "debug", "timeout", NULL };
	const char *const *lists[] = { text, src, dst, who, place, instr, obj, skip };
	const int roles[] = { R_TEXT, R_SOURCE, R_DEST, R_WHO, R_PLACE, R_INSTR, R_OBJECT, R_IGNORE };
	/* a leading direction says the role whatever follows: "from_zone",
	 * "to_loc", "dst_plate", "pickup_location" */
	if (k > 1) {
		for (const char *const *p = src; *p; p++)
			if (!strcmp(w[0].w, *p))
				return R_SOURCE;
		for (const char *const *p = dst; *p; p++)
			if (!strcmp(w[0].w, *p))
				return R_DEST;
	}
	/* "row_id", "order_no", "binNumber": the thing it numbers says the
	 * role (nothing known: a parameter of its own, "row R12"); only a
	 * bare "id" says nothing */
	int numbered = k > 1 && (!strcmp(w[k - 1].w, "id") || !strcmp(w[k - 1].w, "no") ||
	                         !strcmp(w[k - 1].w, "nr") || !strcmp(w[k - 1].w, "num") ||
	                         !strcmp(w[k - 1].w, "number") || !strcmp(w[k - 1].w, "ids"));
	if (numbered)
		k--;
	/* the last word weighs most ("objectLocation" is a place, "locationObject" an object) */
	for (size_t i = k; i-- > 0;)
		for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
			for (const char *const *p = lists[l]; *p; p++)
				if (**p == w[i].w[0] && !strcmp(w[i].w, *p)) /* (a build asks for every key) */
					/* (a person's tracking number is not who they are) */
					return numbered && (roles[l] == R_WHO || roles[l] == R_TEXT) ? R_IGNORE
					                                                             : roles[l];
	return R_NONE;
}

int profile_role(const robot_profile *p, const prof_skill *sk, const char *key, size_t n)
{
	char nk[128];
	norm_key(nk, sizeof nk, key, n);
	int r = sk ? find_key(sk->keys, sk->n_keys, nk) : R_NONE;
	if (r == R_NONE && p)
		r = find_key(p->keys, p->n_keys, nk);
	return r != R_NONE ? r : guess(key, n);
}

int profile_is_self(const robot_profile *p, const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; p && i < p->n_self; i++)
		if (!strcasecmp(p->self[i], name))
			return 1;
	/* the words robots' logs name themselves by when nobody wrote a
	 * profile: "robot", "drone", "bot", "AMR", ... */
	static const char *const generic[] = { "robot", "i", "me", "self", "assistant", "drone",
		                                   "bot", "rover", "uav", "amr", "agv", "the robot",
		                                   "myself", NULL };
	for (const char *const *g = generic; *g; g++)
		if (!strcasecmp(name, *g))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ public API -- */

int h2emv_profile_set(h2emv_mem *mem, const char *json, size_t len, h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!mem || !json)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_profile_set: mem and json are required");
	robot_profile *p;
	int rc = profile_parse(&p, json, len, err);
	if (rc)
		return rc;
	int seg = p->segmentation;
	profile_free(p);
	h2emv_config c;
	if ((rc = h2emv_config_get(&c, mem, err)))
		return rc;
	if ((int)c.profile != seg) {
		c.profile = (h2emv_profile)seg;
		if ((rc = h2emv_config_set(mem, &c, err)))
			return rc == H2EMV_EINVAL
			           ? eng_fail(err, H2EMV_EINVAL,
			                      "the memory already has a tree segmented the other way; "
			                      "a profile with segmentation \"%s\" needs a new memory",
			                      seg == H2EMV_PROFILE_SKILL_STACK ? "skill-stack" : "action-list")
			           : rc;
	}
	return profile_put(mem->env, json, len, err);
}

int h2emv_profile_get(char **out, h2emv_mem *mem, h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_profile_get: out and mem are required");
	*out = NULL;
	robot_profile *p;
	int rc = profile_load(&p, mem->env, err);
	if (rc == H2EMV_OK && p) {
		*out = p->json;
		p->json = NULL;
	}
	profile_free(p);
	return rc;
}

const char *h2emv_profile_builtin(const char *name)
{
	return name ? profile_builtin(name) : NULL;
}
