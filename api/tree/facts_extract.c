/*
 * facts_extract.c — typed facts from one scene (facts_from_scene): the
 * action and its parameters read through the robot profile's roles, the
 * task, the place, the people, what was said and what was seen. An event
 * told in a note is facts_note.c's.
 */
#include <msgpack.h>
#include <stdint.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/facts.h"
#include "api/facts_internal.h"
#include "api/lex.h"
#include "api/profile.h"
#include "api/scene.h"

#define SCENE_SEEN_MAX 24

/* ------------------------------------------------------------ extraction -- */

typedef struct xctx {
	const scene *sc;
	const robot_profile *prof;
	const prof_skill *sk;
	fact *act;
	int pos;            /* positional argument index */
	int pass;           /* 0: keys with a known role; 1: guesses and numbers */
	int bare;           /* the skill's name is a bare verb ("water", "dust") */
} xctx;

/* The word a parameter key names its value by: its last word that is not
 * a generic one ("dst_plate" -> "plate", "floor" -> "floor", "objectName"
 * -> none). */
static int key_noun(const char *key, size_t klen, char *out)
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
static int set_named(fact *f, int slot, const char *key, size_t klen, const char *p, size_t n)
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
	if (!digit || word || n > 64 || !key_noun(key, klen, noun))
		return fact_set(f, slot, p, n);
	char buf[LEX_WORD_MAX + 72];
	int len = snprintf(buf, sizeof buf, "%s %.*s", noun, (int)n, p);
	return len > 0 ? fact_set(f, slot, buf, (size_t)len) : 0;
}

/* Is the key a single word ("floor", "dock")? Only such a key names a
 * number: "objectPlacementMethod": 0 is a setting, not an object. */
static int one_word(const char *key, size_t klen)
{
	lex_word w[2];
	return lex_split(key, klen, w, 2) == 1;
}

/* Does `s` hold the word `w` (lower case)? */
static int has_word(const char *s, const char *w)
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
static void add_other(fact *f, const char *key, size_t klen, const char *p, size_t n)
{
	fact tmp = { 0 };
	set_named(&tmp, FS_STATE, key, klen, p, n);
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
	} else if (n <= 40 && key_noun(key, klen, noun) && strlen(noun) >= 2 &&
	           !has_word(v, noun) &&
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
static int names_person(const scene *s, const char *p, size_t n)
{
	for (size_t i = 0; i < s->n_persons; i++)
		if (s->persons[i] && strlen(s->persons[i]) == n && !strncasecmp(s->persons[i], p, n))
			return 1;
	for (size_t i = 0; i < s->n_speech; i++)
		if (s->speech[i].speaker && strlen(s->speech[i].speaker) == n &&
		    !strncasecmp(s->speech[i].speaker, p, n))
			return 1;
	return 0;
}

static int names_seen_object(const scene *s, const char *p, size_t n)
{
	for (size_t i = 0; i < s->n_objects; i++)
		if (strlen(s->objects[i].id) == n && !memcmp(s->objects[i].id, p, n))
			return 1;
	return 0;
}

static int role_slot(int role)
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
static int positional_role(int cls, int pos)
{
	if (cls == LC_SAY)
		return pos == 0 ? R_TEXT : R_NONE;
	if (cls == LC_GO)
		return pos == 0 ? R_DEST : R_NONE;
	if (cls == LC_MEET || cls == LC_FOLLOW)
		return pos == 0 ? R_WHO : R_DEST;
	return pos == 0 ? R_OBJECT : pos == 1 ? R_DEST : R_NONE;
}

/* Is `key` one of the words of the action's name ("tote" in PickTote)? */
static int key_in_name(const char *name, const char *key, size_t klen)
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
static int person_named(const char *action, const char *key, size_t klen)
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

/* A number parameter. "floor": 3, "dock": 2 — a number names a thing
 * only with its key's word ("floor 3") in a role the key has; any other
 * top-level number ("books": 31, "weight_kg": 18.5) is a word of the
 * action in its key's words ("books 31"): what "how many books", "how
 * much did they weigh" and "which floor" are answered from. */
static void walk_number(xctx *x, const msgpack_object *o, const char *key, size_t klen,
                        int depth)
{
	char num[40];
	int len;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		len = snprintf(num, sizeof num, "%llu", (unsigned long long)o->via.u64);
	else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		len = snprintf(num, sizeof num, "%lld", (long long)o->via.i64);
	else
		len = snprintf(num, sizeof num, "%.10g", o->via.f64);
	if (len <= 0 || (size_t)len >= sizeof num)
		return;
	int role = profile_role(x->prof, x->sk, key, klen);
	int slot = role_slot(role);
	int small = o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 < 100000;
	if (slot >= 0 && slot != FS_TEXT && small && one_word(key, klen))
		set_named(x->act, slot, key, klen, num, (size_t)len);
	else if (slot < 0 && depth == 1 && klen <= 40)
		add_other(x->act, key, klen, num, (size_t)len);
}

/* A positional argument ("verb(arg, arg)"): its role into *role, or 1
 * when it was kept as an amount and needs no more. */
static int positional_arg(xctx *x, const char *p, size_t n, int depth, int *role)
{
	/* "restock(milk cartons, 60, cooler 1)": a bare number is how many,
	 * and takes no role's place */
	if (depth <= 1 && n < 16 && strspn(p, "0123456789.") == n && p[0] != '.') {
		char v[32];
		snprintf(v, sizeof v, "qty %.*s", (int)n, p);
		fact_append_state(x->act, v);
		return 1;
	}
	*role = positional_role(x->act->cls, x->pos++);
	/* "measureCrack(L1, column C7, 0.6 mm)", "photograph(..., 8 photos)":
	 * an amount, and any argument past the roles, is still a word of the
	 * action */
	if (depth <= 1 && n <= 40 && p[0] != '<' &&
	    (*role == R_NONE || (p[0] >= '0' && p[0] <= '9' && memchr(p, ' ', n)))) {
		char v[48];
		snprintf(v, sizeof v, "%.*s", (int)n, p);
		fact_append_state(x->act, v);
		return 1;
	}
	return 0;
}

/* Is o one pair of a map written as a list, {"key": K, "value": V} (or
 * name / value, k / v)? Its value and key into *v, *k, *kl. */
static int kv_pair(const msgpack_object *o, const msgpack_object **v, const char **k, size_t *kl)
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
static int recipient_key(const char *key, size_t klen)
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
static int looks_like_name(const char *p, size_t n)
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
static size_t keyed_text(const char *p, size_t n)
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
static int all_numbers(const msgpack_object *o)
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

/* Is every element of the array o such a pair? */
static int kv_list(const msgpack_object *o)
{
	if (!o->via.array.size)
		return 0;
	for (uint32_t i = 0; i < o->via.array.size; i++) {
		const msgpack_object *v;
		const char *k;
		size_t kl;
		if (!kv_pair(&o->via.array.ptr[i], &v, &k, &kl))
			return 0;
	}
	return 1;
}

static void walk_args(xctx *x, const msgpack_object *o, const char *key, size_t klen, int depth)
{
	if (depth > 4)
		return;
	switch (o->type) {
	case MSGPACK_OBJECT_MAP: {
		/* {"enclosure": {"name": "penguin beach", "zone": "B"}}: the
		 * thing's name under the outer key, its other fields as the
		 * action's own ("zone B") */
		/* (not a container of parameters: {parameters: {name: ...}}) */
		int thing = depth == 1 && key && !fact_container_key(key, klen);
		const msgpack_object *nm = thing ? fact_named_child(o) : NULL;
		/* {outcome: {error}}; {readings: {co2_ppm: 2400, o2_pct: 20.8}} */
		int flat = nm || (thing && (fact_reason_child(o) || all_numbers(o)));
		if (nm)
			walk_args(x, nm, key, klen, depth);
		for (uint32_t i = 0; i < o->via.map.size; i++) {
			const msgpack_object_kv *kv = &o->via.map.ptr[i];
			if (kv->key.type != MSGPACK_OBJECT_STR || &kv->val == nm)
				continue;
			walk_args(x, &kv->val, kv->key.via.str.ptr, kv->key.via.str.size,
			          flat ? depth : depth + 1);
		}
		return;
	}
	case MSGPACK_OBJECT_ARRAY:
		/* [{"key": "module", "value": "Cupola"}, ...]: a map written as
		 * a list of pairs (ROS's KeyValue) */
		if (kv_list(o)) {
			for (uint32_t i = 0; i < o->via.array.size; i++) {
				const msgpack_object *v;
				const char *k;
				size_t kl;
				kv_pair(&o->via.array.ptr[i], &v, &k, &kl);
				walk_args(x, v, k, kl, depth + 1);
			}
			return;
		}
		/* {"tables": [1, 2, 3, 4, 5, 6]}: six tables */
		if (key && depth == 1 && x->pass == 1 && o->via.array.size >= 2) {
			char num[16];
			int len = snprintf(num, sizeof num, "%u", (unsigned)o->via.array.size);
			add_other(x->act, key, klen, num, (size_t)len);
		}
		for (uint32_t i = 0; i < o->via.array.size && i < 8; i++)
			walk_args(x, &o->via.array.ptr[i], key, klen, depth + 1);
		return;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		if (key && x->pass == 1)
			walk_number(x, o, key, klen, depth);
		return;
	case MSGPACK_OBJECT_STR: {
		const char *p = o->via.str.ptr;
		size_t n = o->via.str.size;
		if (!n || n > 4096)
			return;
		/* "fly.check(lineset=12, load=lantern drop)": a keyed argument
		 * written in the short form */
		size_t kl = key ? 0 : keyed_text(p, n);
		if (kl) {
			msgpack_object v = { .type = MSGPACK_OBJECT_STR };
			v.via.str.ptr = p + kl + 1;
			v.via.str.size = (uint32_t)(n - kl - 1);
			walk_args(x, &v, p, kl, depth);
			return;
		}
		int role = R_NONE;
		/* a key whose role is known first, then the guesses: in PickOrder
		 * {bin, order, sku} the sku is the object, not the order named in
		 * the skill's name nor the bin in view */
		if (key) {
			role = profile_role(x->prof, x->sk, key, klen);
			if ((role == R_NONE) != (x->pass == 1))
				return;
			if (role == R_NONE && names_seen_object(x->sc, p, n))
				role = R_OBJECT;
			if (role == R_NONE && key_in_name(x->sc->action, key, klen))
				role = R_OBJECT; /* PickTote {tote: "T-118"} */
			if (role == R_NONE && person_named(x->sc->action, key, klen))
				role = R_WHO;
			/* "for=Olivia Grant": whom it was for */
			if (role == R_NONE && recipient_key(key, klen) &&
			    (names_person(x->sc, p, n) || looks_like_name(p, n)))
				role = R_WHO;
		} else if (x->pass == 1 || positional_arg(x, p, n, depth, &role)) {
			return;
		}
		if ((role == R_DEST || role == R_PLACE || role == R_SOURCE) && key &&
		    names_person(x->sc, p, n))
			role = R_WHO;
		int slot = role_slot(role);
		/* a top-level parameter with no role of its own ("order": "order
		 * 5541") or whose slot is taken is still a word of the action */
		if (key && x->pass == 1 && depth == 1 && p[0] != '<' &&
		    (n <= 40 || (n <= 120 && fact_reason_key(key, klen))) &&
		    (slot < 0 || x->act->s[slot])) {
			/* "water {plant: fern}": a bare verb's first parameter with
			 * no role of its own is what it was done to */
			if (slot < 0 && x->bare && !x->act->s[FS_OBJ])
				fact_set(x->act, FS_OBJ, p, n);
			add_other(x->act, key, klen, p, n);
			return;
		}
		/* a second parameter of a role already filled ("dish": "soup",
		 * "meal": "lunch") is still a word of the action, in its key's
		 * words ("meal lunch") */
		if (key && slot == FS_OBJ && x->act->s[slot] && depth == 1 &&
		    p[0] != '<' && n <= 40) {
			add_other(x->act, key, klen, p, n);
			return;
		}
		/* "<Resolved according to 'locationName'>" and the like say nothing */
		if (slot >= 0 && p[0] != '<') {
			if (key && slot != FS_TEXT && slot != FS_WHO)
				set_named(x->act, slot, key, klen, p, n);
			else
				fact_set(x->act, slot, p, n);
			/* a place a parameter names ("shelf B3") tells one run from
			 * another, unlike the rooms a run passes through: it is kept
			 * with the other parameters too, which equal actions share */
			if (slot == FS_PLACE && key && x->pass == 0 && n <= 40)
				add_other(x->act, key, klen, p, n);
		}
		return;
	}
	default:
		return;
	}
}

/* Words of a skill name that only say it is a skill about something. */
static int generic_name_word(const char *w)
{
	static const char *const g[] = { "named", "name", "object", "objects", "within", "reach",
		                             "location", "named", "relative", "pose", "with", "to",
		                             "from", "at", "the", "a", "an", "and", "of", "for", "on",
		                             "in", "into", "over", "up", "down", "skill", "task",
		                             "action", "predefined", "known", "custom", "target",
		                             "mp", "tcp", "human", "person", "hand", "now",
		                             "can", "you", "what", "current", NULL };
	for (const char *const *p = g; *p; p++)
		if (!strcmp(*p, w))
			return 1;
	return 0;
}

static int extract_action(facts *out, const scene *s, const robot_profile *prof)
{
	const prof_skill *sk = profile_skill(prof, s->action);
	if (sk && sk->ignore)
		return H2EMV_OK;
	fact *f = fact_push(out);
	if (!f)
		return H2EMV_ENOMEM;
	f->type = FT_ACT;
	/* "SprayRow(row 3)" printed by a planner has no status of its own; the
	 * goal stack's innermost goal of the same name carries it */
	int st = s->action_status;
	if (!st && s->n_goal && s->goal[s->n_goal - 1] && !strcmp(s->goal[s->n_goal - 1], s->action))
		st = s->goal_status;
	/* "walkRoute(L5, full loop)" with no status of its own, in a line
	 * whose goal ("DailyWalk.L5") failed: the step the goal ended on
	 * ended the same way */
	if (!st && s->n_goal && (s->goal_status == 4 || s->goal_status == 5 || s->goal_status == 3))
		st = s->goal_status;
	switch (st) {
	case 1: case 2: f->status = FST_ONGOING; break;
	case 3: f->status = FST_DONE; break;
	case 4: f->status = FST_FAILED; break;
	case 5: f->status = FST_ABORTED; break;
	default: f->status = FST_NONE;
	}
	fact_sets(f, FS_NAME, s->action);
	/* the verb: the profile's, else the first word of the name the lexicon
	 * knows, else the name's first word */
	lex_word w[12];
	size_t k = lex_split(s->action, strlen(s->action), w, 12);
	if (k > 12)
		k = 12;
	size_t vi = k;
	int cls = LC_NONE;
	const char *lemma = NULL;
	if (sk && sk->verb) {
		/* the profile's verb, classed by its first word the lexicon knows */
		lex_word vw[6];
		size_t vk = lex_split(sk->verb, strlen(sk->verb), vw, 6);
		for (size_t i = 0; i < vk && i < 6 && cls == LC_NONE; i++)
			if (lex_lemma(vw[i].stem, &cls))
				lex_particle(vw, vk < 6 ? vk : 6, i, &lemma, &cls);
		fact_sets(f, FS_VERB, sk->verb);
	} else {
		for (size_t i = 0; i < k && !lemma; i++)
			if ((lemma = lex_lemma(w[i].stem, &cls))) {
				vi = i;
				lex_particle(w, k, i, &lemma, &cls);
			}
		if (lemma)
			fact_sets(f, FS_VERB, lemma);
		else if (k)
			fact_sets(f, FS_VERB, w[0].w), vi = 0;
	}
	f->cls = (uint8_t)cls;
	xctx x = { s, prof, sk, f, 0, 0, !(sk && (sk->verb || sk->object)) };
	for (size_t i = vi + 1; i < k && x.bare; i++)
		if (!generic_name_word(w[i].w) && !lex_lemma(w[i].stem, NULL))
			x.bare = 0;
	for (x.pass = 0; s->args_obj && x.pass < 2; x.pass++)
		walk_args(&x, s->args_obj, NULL, 0, 0);
	/* "MoveTote {tote, from, to}": moving a thing from one place to another
	 * is putting it there, not going somewhere */
	if (f->cls == LC_GO && f->s[FS_OBJ] && (f->s[FS_DST] || f->s[FS_SRC]))
		f->cls = LC_PUT;
	if (!f->s[FS_OBJ] && sk && sk->object)
		fact_sets(f, FS_OBJ, sk->object);
	if (!f->s[FS_OBJ] && !(sk && sk->verb)) {
		/* "LoadDishwasher": what the name says after its verb */
		char buf[160];
		size_t len = 0;
		for (size_t i = vi + 1; i < k; i++) {
			if (generic_name_word(w[i].w) || lex_lemma(w[i].stem, NULL))
				continue;
			size_t wl = strlen(w[i].w);
			if (len + wl + 2 > sizeof buf)
				break;
			if (len)
				buf[len++] = ' ';
			memcpy(buf + len, w[i].w, wl);
			len += wl;
		}
		/* "GoToKitchen": where a journey went; "LoadDishwasher": what a
		 * skill handled */
		if (len)
			fact_set(f, f->cls == LC_GO && !f->s[FS_DST] ? FS_DST : FS_OBJ, buf, len);
	}
	if (!f->s[FS_PLACE] && s->location)
		fact_sets(f, FS_PLACE, s->location);
	/* why a run failed, when the robot wrote it down ("the nozzle was
	 * clogged"): what a person asks after "what went wrong" */
	if ((f->status == FST_FAILED || f->status == FST_ABORTED) && s->note && *s->note &&
	    strlen(s->note) <= 80)
		fact_append_state(f, s->note);
	return H2EMV_OK;
}

static const char *where_is(const scene *s, const char *id)
{
	for (size_t i = 0; i < s->n_rels; i++) {
		const scene_rel *r = &s->rels[i];
		if (!r->from || !r->to || !r->type || strcmp(r->from, id))
			continue;
		if (!strcasecmp(r->type, "in") || !strcasecmp(r->type, "on") ||
		    !strcasecmp(r->type, "inside") || !strcasecmp(r->type, "at") ||
		    !strcasecmp(r->type, "ontop") || !strcasecmp(r->type, "on_top_of") ||
		    !strcasecmp(r->type, "onTop"))
			return r->to;
	}
	return NULL;
}

int facts_from_scene(facts *out, const scene *s, const robot_profile *prof, int tasks)
{
	size_t first = out->n;
	int rc = s->action ? extract_action(out, s, prof) : H2EMV_OK;
	if (rc == H2EMV_OK && !s->action && s->note && *s->note)
		rc = facts_note_action(out, s, prof);
	if (rc == H2EMV_OK && s->note && *s->note)
		rc = facts_note(out, first, s);
	fact *f;
	/* skill-stack robots: the outermost skill when it is not the action
	 * itself ("ObjectLearning" while its "Say" runs) */
	int outer_is_action = s->action && s->n_goal && !strcmp(s->goal[0], s->action);
	const prof_skill *osk = s->n_goal ? profile_skill(prof, s->goal[0]) : NULL;
	if (rc == H2EMV_OK && s->n_goal && s->goal[0] && *s->goal[0] && !(osk && osk->ignore) &&
	    (tasks || (s->n_goal > 1 && !outer_is_action))) {
		/* the task: "put all forks in drawer", "MakeCoffee", "Boil(Potato)" */
		if (!(f = fact_push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_TASK;
		/* the line's goal status is its innermost goal's: a task whose
		 * step failed ("Bring.LookAtObject" failed) goes on */
		int gs = s->n_goal > 1 && s->goal_status >= 3 ? 1 : s->goal_status;
		f->status = gs == 3 ? FST_DONE : gs == 4 ? FST_FAILED : gs == 5 ? FST_ABORTED
		            : gs ? FST_ONGOING : FST_NONE;
		fact_sets(f, FS_NAME, s->goal[0]);
		lex_word w[12];
		size_t k = lex_split(s->goal[0], strlen(s->goal[0]), w, 12);
		int cls = LC_NONE;
		const char *lemma = NULL;
		for (size_t i = 0; i < k && i < 12 && !lemma; i++)
			lemma = lex_lemma(w[i].stem, &cls);
		fact_sets(f, FS_VERB, lemma ? lemma : (k ? w[0].w : NULL));
		f->cls = (uint8_t)cls;
	}
	if (rc == H2EMV_OK && s->location && *s->location) {
		if (!(f = fact_push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_PLACE;
		fact_sets(f, FS_PLACE, s->location);
	}
	for (size_t i = 0; rc == H2EMV_OK && i < s->n_persons; i++) {
		if (profile_is_self(prof, s->persons[i]))
			continue;
		if (!(f = fact_push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_PERSON;
		fact_sets(f, FS_NAME, s->persons[i]);
		fact_sets(f, FS_PLACE, s->location);
	}
	for (size_t i = 0; rc == H2EMV_OK && i < s->n_speech; i++) {
		const scene_utt *u = &s->speech[i];
		if (!(f = fact_push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_SPEECH;
		fact_sets(f, FS_NAME, u->speaker);
		fact_sets(f, FS_TEXT, u->text);
		fact_sets(f, FS_PLACE, s->location);
		if (u->speaker && !profile_is_self(prof, u->speaker) && strcasecmp(u->speaker, "user")) {
			if (!(f = fact_push(out)))
				return H2EMV_ENOMEM;
			f->type = FT_PERSON;
			fact_sets(f, FS_NAME, u->speaker);
		}
	}
	for (size_t i = 0; rc == H2EMV_OK && i < s->n_objects && i < SCENE_SEEN_MAX; i++) {
		const scene_obj *o = &s->objects[i];
		if (!(f = fact_push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_SEEN;
		fact_sets(f, FS_NAME, o->type ? o->type : o->id);
		fact_sets(f, FS_STATE, o->state);
		fact_sets(f, FS_PLACE, where_is(s, o->id));
		fact_sets(f, FS_PLACE, s->location); /* else where the robot was */
	}
	/* drop facts whose strings could not be copied, set times and keys */
	size_t j = 0;
	for (size_t i = 0; i < out->n; i++) {
		fact *x = &out->v[i];
		int ok = x->type == FT_ACT || x->type == FT_TASK ? x->s[FS_NAME] != NULL
		         : x->type == FT_PLACE ? x->s[FS_PLACE] != NULL
		         : x->type == FT_SPEECH || x->type == FT_NOTE ? x->s[FS_TEXT] != NULL
		                                : x->s[FS_NAME] != NULL;
		if (!ok) {
			fact_free(x);
			continue;
		}
		if (!x->count) {
			x->count = 1;
			x->t0 = x->t1 = s->t;
			x->t2 = s->t_end;
			x->key = fact_key(x);
		}
		out->v[j++] = *x;
	}
	out->n = j;
	return rc;
}
