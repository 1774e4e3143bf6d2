/*
 * facts_keys.c — how a parameter's key and value are read (facts_extract.c
 * walks the parameters): the word a key names its value by, units at a
 * key's end, people and things a value names, the role a key or a
 * position gives, and maps written another way (a list of key/value
 * pairs, "key=value" in the short form, a group of readings).
 */
#include <msgpack.h>
#include <stdint.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "api/base/lex.h"
#include "api/config/profile.h"
#include "api/tree/scene.h"

/* The word a parameter key names its value by: its last word that is not
 * a generic one ("dst_plate" -> "plate", "floor" -> "floor", "objectName"
 * -> none). */
int fx_key_noun(const char *key, size_t klen, char *out)
{
	static const char *const generic[] = { "name", "id", "object", "obj", "item", "value",
		                                   "arg", "param", "target", "to", "from", "src",
		                                   "dst", "dest", "destination", "source", "origin",
		                                   "location", "loc", "place", "pos", "position",
		                                   "goal", "type", "label", "code", "the", "in",
		                                   "at", "on", "of", "for", "with", NULL };
	lex_word w[6];
	size_t k = lex_split(key, klen, w, 6);
	if (k > 6)
		k = 6;
	/* the last word of three letters or more ("weight" of weight_kg); a
	 * unit of two ("kg") when the key is nothing else */
	for (size_t min = 3; min >= 2; min--)
		for (size_t i = k; i-- > 0;) {
			int g = w[i].digit || strlen(w[i].w) < min;
			for (const char *const *p = generic; *p && !g; p++)
				g = !strcmp(w[i].w, *p);
			if (!g) {
				memcpy(out, w[i].w, strlen(w[i].w) + 1);
				return 1;
			}
		}
	return 0;
}

/* Set a slot from a parameter. A code ("P-101", "17", "A7") says what it
 * is only through its key, so the key's word goes before it: "plate
 * P-101", "floor 3"; a value with words of its own ("room 12", "milk") is
 * stored as it is. */
int fx_set_named(fact *f, int slot, const char *key, size_t klen, const char *p, size_t n)
{
	int run = 0, word = 0, digit = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		int letter = (c >= 'a' && c <= 'z') || c >= 0x80;
		run = letter ? run + 1 : 0;
		word |= run >= 3;
		digit |= c >= '0' && c <= '9';
	}
	char noun[LEX_WORD_MAX];
	if (!digit || word || n > 64 || !fx_key_noun(key, klen, noun))
		return fact_set(f, slot, p, n);
	char buf[LEX_WORD_MAX + 72];
	int len = snprintf(buf, sizeof buf, "%s %.*s", noun, (int)n, p);
	return len > 0 ? fact_set(f, slot, buf, (size_t)len) : 0;
}

/* Is the key a single word ("floor", "dock")? Only such a key names a
 * number: "objectPlacementMethod": 0 is a setting, not an object. */
int fx_one_word(const char *key, size_t klen)
{
	lex_word w[2];
	return lex_split(key, klen, w, 2) == 1;
}

/* Does `s` hold the word `w` (lower case)? */
int fx_has_word(const char *s, const char *w)
{
	lex_word v[16];
	size_t k = lex_split(s, strlen(s), v, 16);
	for (size_t i = 0; i < k && i < 16; i++)
		if (!strcmp(v[i].w, w))
			return 1;
	return 0;
}

/* Append "key value" (or the value when it names itself) to an action's
 * other parameters. The key's noun goes before a value that does not say
 * it ("plant": "fern" is "plant fern", "meal": "lunch" is "meal lunch"):
 * a person asks for "the plants you watered", in the key's words. */
void fx_add_other(fact *f, const char *key, size_t klen, const char *p, size_t n)
{
	fact tmp = { 0 };
	fx_set_named(&tmp, FS_STATE, key, klen, p, n);
	const char *v = tmp.s[FS_STATE];
	if (!v)
		return;
	char noun[LEX_WORD_MAX], buf[LEX_WORD_MAX + 64];
	const char *unit = p[0] >= '0' && p[0] <= '9' ? fact_key_unit(key, klen) : NULL;
	/* "co2_ppm": 3100 is "co2 3100 ppm", the key before its unit */
	size_t head = unit ? klen - strlen(unit) - 1 : 0;
	int named = unit && head >= 2 && head < sizeof noun && n < 32;
	if (named) {
		for (size_t i = 0; i < head; i++)
			noun[i] = strchr("_-. ", key[i]) ? ' ' : (char)tolower((unsigned char)key[i]);
		noun[head] = 0;
		snprintf(buf, sizeof buf, "%s %.*s %s", noun, (int)n, p, unit);
		fact_append_state(f, buf);
	} else if (n <= 40 && fx_key_noun(key, klen, noun) && strlen(noun) >= 2 &&
	           !fx_has_word(v, noun) &&
	           snprintf(buf, sizeof buf, "%s %s%s%s", noun, v, unit ? " " : "",
	                    unit ? unit : "") < (int)sizeof buf) {
		fact_append_state(f, buf); /* "plant": "fern" is "plant fern" */
	} else if (unit && snprintf(buf, sizeof buf, "%s %s", v, unit) < (int)sizeof buf) {
		fact_append_state(f, buf);
	} else {
		fact_append_state(f, v);
	}
	free(tmp.s[FS_STATE]);
}

/* Does the value name a person present (or speaking) in the scene? A
 * destination "to": "Ana Ruiz" is whom the thing went to, not a place. */
int fx_names_person(const scene *s, const char *p, size_t n)
{
	/* the name listed, or its first word ("Nico" for "Nico Ferreira") */
	for (size_t i = 0; i < s->n_persons; i++)
		if (lex_same_person(s->persons[i], p, n))
			return 1;
	for (size_t i = 0; i < s->n_speech; i++)
		if (s->speech[i].speaker && strlen(s->speech[i].speaker) == n &&
		    !strncasecmp(s->speech[i].speaker, p, n))
			return 1;
	return 0;
}

int fx_names_seen_object(const scene *s, const char *p, size_t n)
{
	for (size_t i = 0; i < s->n_objects; i++)
		if (strlen(s->objects[i].id) == n && !memcmp(s->objects[i].id, p, n))
			return 1;
	return 0;
}

int fx_role_slot(int role)
{
	switch (role) {
	case R_OBJECT: return FS_OBJ;
	case R_SOURCE: return FS_SRC;
	case R_DEST: return FS_DST;
	case R_PLACE: return FS_PLACE;
	case R_WHO: return FS_WHO;
	case R_INSTR: return FS_INSTR;
	case R_TEXT: return FS_TEXT;
	default: return -1;
	}
}

/* A positional argument's role by its place and the verb. */
int fx_positional_role(int cls, int pos, int npos)
{
	/* "Escort(SSR-1104, check-in 14, gate C35)": a move with three
	 * names goes from the second to the third */
	int move = cls == LC_GO || cls == LC_FOLLOW || cls == LC_PUT || cls == LC_GIVE ||
	           cls == LC_TAKE;
	if (move && npos >= 3)
		return pos == 0 ? R_OBJECT : pos == 1 ? R_SOURCE : pos == 2 ? R_DEST : R_NONE;
	if (cls == LC_SAY)
		return pos == 0 ? R_TEXT : R_NONE;
	if (cls == LC_GO)
		return pos == 0 ? R_DEST : R_NONE;
	if (cls == LC_MEET || cls == LC_FOLLOW)
		return pos == 0 ? R_WHO : R_DEST;
	return pos == 0 ? R_OBJECT : pos == 1 ? R_DEST : R_NONE;
}

/* Is `key` one of the words of the action's name ("tote" in PickTote)? */
int fx_key_in_name(const char *name, const char *key, size_t klen)
{
	lex_word w[12], kw[4];
	size_t k = lex_split(name, strlen(name), w, 12), kk = lex_split(key, klen, kw, 4);
	/* "row_id", "bin_no": the row, the bin */
	static const char *const tag[] = { "id", "no", "nr", "num", "number", "code", "ref", NULL };
	for (const char *const *t = tag; kk == 2 && *t; t++)
		if (!strcmp(kw[1].w, *t))
			kk = 1;
	if (kk != 1 || strlen(kw[0].w) < 3)
		return 0;
	for (size_t i = 1; i < k && i < 12; i++)
		if (!strcmp(w[i].stem, kw[0].stem))
			return 1;
	return 0;
}

/* "LearnVisitor {name: ...}", "RegisterPerson {name: ...}": a name given
 * to a skill about a person is that person's. */
int fx_person_named(const char *action, const char *key, size_t klen)
{
	lex_word kw[4], w[12];
	size_t kk = lex_split(key, klen, kw, 4);
	if (!kk || kk > 4 || strcmp(kw[kk - 1].w, "name"))
		return 0;
	static const char *const who[] = { "person", "visitor", "guest", "face", "user", "human",
		                               "patient", "customer", "people", "resident", NULL };
	size_t k = lex_split(action, strlen(action), w, 12);
	for (size_t i = 0; i < k && i < 12; i++)
		for (const char *const *p = who; *p; p++)
			if (!strcmp(w[i].w, *p))
				return 1;
	return 0;
}

/* Is o one pair of a map written as a list, {"key": K, "value": V} (or
 * name / value, k / v)? Its value and key into *v, *k, *kl. */
int fx_kv_pair(const msgpack_object *o, const msgpack_object **v, const char **k, size_t *kl)
{
	/* ["rig", "Engine 9"] */
	if (o->type == MSGPACK_OBJECT_ARRAY && o->via.array.size == 2 &&
	    o->via.array.ptr[0].type == MSGPACK_OBJECT_STR && o->via.array.ptr[0].via.str.size &&
	    o->via.array.ptr[0].via.str.size <= 64) {
		*v = &o->via.array.ptr[1];
		*k = o->via.array.ptr[0].via.str.ptr;
		*kl = o->via.array.ptr[0].via.str.size;
		return 1;
	}
	if (o->type != MSGPACK_OBJECT_MAP || o->via.map.size != 2)
		return 0;
	const msgpack_object *key = NULL, *val = NULL;
	for (uint32_t i = 0; i < 2; i++) {
		const msgpack_object_kv *kv = &o->via.map.ptr[i];
		if (kv->key.type != MSGPACK_OBJECT_STR)
			return 0;
		const char *s = kv->key.via.str.ptr;
		size_t n = kv->key.via.str.size;
		if ((n == 3 && !memcmp(s, "key", 3)) || (n == 4 && !memcmp(s, "name", 4)) ||
		    (n == 1 && s[0] == 'k'))
			key = &kv->val;
		else if ((n == 5 && !memcmp(s, "value", 5)) || (n == 1 && s[0] == 'v'))
			val = &kv->val;
	}
	if (!key || !val || key->type != MSGPACK_OBJECT_STR || !key->via.str.size ||
	    key->via.str.size > 64)
		return 0;
	*v = val;
	*k = key->via.str.ptr;
	*kl = key->via.str.size;
	return 1;
}

/* A key that names whom a thing was for ("for", "recipient", "owner"). */
int fx_recipient_key(const char *key, size_t klen)
{
	static const char *const r[] = { "for", "recipient", "owner", "requester", "requested_by",
		                             "client", "customer", "patient", "addressee", NULL };
	for (const char *const *p = r; *p; p++)
		if (strlen(*p) == klen && !strncasecmp(key, *p, klen))
			return 1;
	return 0;
}

/* "Olivia Grant", "Dr. Okafor": one to three words, each capitalised, no
 * digits. */
int fx_looks_like_name(const char *p, size_t n)
{
	size_t words = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			return 0;
		if (i == 0 || p[i - 1] == ' ') {
			if (!(p[i] >= 'A' && p[i] <= 'Z'))
				return 0;
			words++;
		}
	}
	return words >= 1 && words <= 3;
}

/* "load=lantern drop": the length of the key before '=' (a word of
 * letters, digits and '_' starting with a letter, a value after it); 0
 * when the text is no such pair. */
size_t fx_keyed_text(const char *p, size_t n)
{
	size_t i = 0;
	if (!n || !((p[0] | 32) >= 'a' && (p[0] | 32) <= 'z'))
		return 0;
	while (i < n && i < 40 &&
	       (((p[i] | 32) >= 'a' && (p[i] | 32) <= 'z') || (p[i] >= '0' && p[i] <= '9') ||
	        p[i] == '_'))
		i++;
	return i < n && p[i] == '=' && i + 1 < n && p[i + 1] != ' ' && p[i + 1] != '=' ? i : 0;
}

/* Is o a small map of numbers only (a group of readings)? */
int fx_all_numbers(const msgpack_object *o)
{
	if (!o->via.map.size || o->via.map.size > 8)
		return 0;
	for (uint32_t i = 0; i < o->via.map.size; i++) {
		msgpack_object_type t = o->via.map.ptr[i].val.type;
		if (t != MSGPACK_OBJECT_POSITIVE_INTEGER && t != MSGPACK_OBJECT_NEGATIVE_INTEGER &&
		    t != MSGPACK_OBJECT_FLOAT32 && t != MSGPACK_OBJECT_FLOAT64)
			return 0;
	}
	return 1;
}
