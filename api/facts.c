/*
 * facts.c — typed facts (facts.h): extracted from observations through the
 * robot profile, merged up the tree, stored as msgpack in node payloads,
 * rendered as clauses. docs/formats.md "Typed facts" has the byte layout.
 */
#include <msgpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "api/facts.h"
#include "api/utf8.h"
#include "api/lex.h"
#include "api/profile.h"
#include "api/scene.h"
#include "api/wordnet.h"
#include "engine/hashtab.h"

#define SCENE_SEEN_MAX 24
#define FACT_STR_MAX 600
#define NOTE_FACT_MAX 240 /* bytes of a note a note fact keeps */

/* ---------------------------------------------------------------- basics -- */

static void fact_free(fact *f)
{
	if (f->blk)
		free(f->blk);
	else
		for (int i = 0; i < FS_N; i++)
			free(f->s[i]);
	memset(f, 0, sizeof *f);
}

/* Give `f` one block holding the strings lens[i] bytes of src[i] (NULL:
 * absent). One allocation per fact keeps merging cheap. */
static int fact_strings(fact *f, const char *const *src, const size_t *lens)
{
	size_t total = 0;
	for (int i = 0; i < FS_N; i++)
		total += src[i] ? lens[i] + 1 : 0;
	f->blk = NULL;
	for (int i = 0; i < FS_N; i++)
		f->s[i] = NULL;
	if (!total)
		return H2EMV_OK;
	char *b = malloc(total);
	if (!b)
		return H2EMV_ENOMEM;
	f->blk = b;
	for (int i = 0; i < FS_N; i++) {
		if (!src[i])
			continue;
		memcpy(b, src[i], lens[i]);
		b[lens[i]] = 0;
		f->s[i] = b;
		b += lens[i] + 1;
	}
	return H2EMV_OK;
}

void facts_clear(facts *f)
{
	for (size_t i = 0; i < f->n; i++)
		fact_free(&f->v[i]);
	f->n = 0;
	f->trimmed = 0;
}

void facts_free(facts *f)
{
	if (!f)
		return;
	facts_clear(f);
	free(f->v);
	memset(f, 0, sizeof *f);
}

/* What makes two facts the same: every slot, but for an action the place
 * the robot happened to be at (a run that moves through rooms is one run). */
static uint64_t fact_key(const fact *f)
{
	uint64_t h = (uint64_t)f->type << 8 | f->status;
	for (int i = 0; i < FS_N; i++) {
		if (f->type == FT_ACT && i == FS_PLACE)
			continue;
		h = f->s[i] ? XXH3_64bits_withSeed(f->s[i], strlen(f->s[i]), h ^ (uint64_t)(i + 1))
		            : h * 0x9E3779B97F4A7C15ull + (uint64_t)i;
	}
	return h;
}

static fact *push(facts *f)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		fact *v = realloc(f->v, cap * sizeof *v);
		if (!v)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	fact *x = &f->v[f->n++];
	memset(x, 0, sizeof *x);
	return x;
}

/* A copy of s[0, n), trimmed of spaces and stray quotes, markup removed
 * ("<phoneme ...>Stark</phoneme>" -> "Stark"), at most FACT_STR_MAX bytes. */
static char *clean(const char *s, size_t n)
{
	char *o = malloc(n + 1);
	if (!o)
		return NULL;
	size_t j = 0;
	int in_tag = 0;
	for (size_t i = 0; i < n && j < FACT_STR_MAX; i++) {
		char c = s[i];
		if (c == '<') {
			in_tag = 1;
			continue;
		}
		if (in_tag) {
			in_tag = c != '>';
			continue;
		}
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c == ' ' && (j == 0 || o[j - 1] == ' '))
			continue;
		o[j++] = c;
	}
	while (j && (o[j - 1] == ' ' || o[j - 1] == '"'))
		j--;
	size_t st = 0;
	while (st < j && (o[st] == '"' || o[st] == ' '))
		st++;
	memmove(o, o + st, j - st);
	o[j - st] = 0;
	if (!o[0]) {
		free(o);
		return NULL;
	}
	return o;
}

static int set(fact *f, int slot, const char *s, size_t n)
{
	if (f->s[slot] || !s || !n)
		return 0;
	f->s[slot] = clean(s, n);
	return 0;
}

static int sets(fact *f, int slot, const char *s)
{
	return s ? set(f, slot, s, strlen(s)) : 0;
}

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
		return set(f, slot, p, n);
	char buf[LEX_WORD_MAX + 72];
	int len = snprintf(buf, sizeof buf, "%s %.*s", noun, (int)n, p);
	return len > 0 ? set(f, slot, buf, (size_t)len) : 0;
}

/* Is the key a single word ("floor", "dock")? Only such a key names a
 * number: "objectPlacementMethod": 0 is a setting, not an object. */
static int one_word(const char *key, size_t klen)
{
	lex_word w[2];
	return lex_split(key, klen, w, 2) == 1;
}

/* Append v to an action's other parameters, FS_STATE, at most 200 bytes
 * in all. */
static void append_state(fact *f, const char *v)
{
	const char *old = f->s[FS_STATE];
	size_t ol = old ? strlen(old) : 0, vl = strlen(v);
	if (ol + vl + 3 <= 200) {
		char *both = malloc(ol + vl + 3);
		if (both) {
			if (old)
				memcpy(both, old, ol), memcpy(both + ol, ", ", 2), ol += 2;
			memcpy(both + ol, v, vl + 1);
			free(f->s[FS_STATE]);
			f->s[FS_STATE] = both;
		}
	}
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

/* Does the key name why a run went as it did ("error", "fail_reason",
 * "cause", "finding")? Its sentence is what "what went wrong" asks for,
 * and it is kept longer than other parameters. */
static int reason_key(const char *key, size_t klen)
{
	static const char *const why[] = { "error", "err", "reason", "cause", "fault", "problem",
		                               "failure", "why", "finding", "issue", "remark",
		                               "comment", "message", "msg", "explanation", NULL };
	lex_word w[6];
	size_t k = lex_split(key, klen, w, 6);
	for (size_t i = 0; i < k && i < 6; i++)
		for (const char *const *p = why; *p; p++)
			if (!strcmp(w[i].w, *p))
				return 1;
	return 0;
}

/* The unit a key ends in ("weight_kg", "depth_mm", "volume_m3"), as
 * written; NULL none. */
static const char *key_unit(const char *key, size_t klen)
{
	static const char *const units[] = { "kg", "g", "mm", "cm", "km", "m", "ml", "l", "m3",
		                                 "m2", "kw", "kwh", "psi", "bar", "lb", "lbs", "mph",
		                                 "kmh", "pct", "percent", "sec", "min", "hz", "mah",
		                                 NULL };
	const char *last = key;
	for (size_t i = 0; i + 1 < klen; i++)
		if (key[i] == '_' || key[i] == '-' || key[i] == ' ' || key[i] == '.')
			last = key + i + 1;
	size_t n = klen - (size_t)(last - key);
	if (last == key)
		return NULL;
	for (const char *const *u = units; *u; u++)
		if (strlen(*u) == n && !strncasecmp(last, *u, n))
			return *u;
	return NULL;
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
	const char *unit = p[0] >= '0' && p[0] <= '9' ? key_unit(key, klen) : NULL;
	if (n <= 40 && key_noun(key, klen, noun) && strlen(noun) >= 2 && !has_word(v, noun) &&
	    snprintf(buf, sizeof buf, "%s %s%s%s", noun, v, unit ? " " : "", unit ? unit : "") <
	        (int)sizeof buf)
		append_state(f, buf); /* "weight_kg": 1450 is "weight 1450 kg" */
	else if (unit && snprintf(buf, sizeof buf, "%s %s", v, unit) < (int)sizeof buf)
		append_state(f, buf);
	else
		append_state(f, v);
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

static void walk_args(xctx *x, const msgpack_object *o, const char *key, size_t klen, int depth)
{
	if (depth > 4)
		return;
	switch (o->type) {
	case MSGPACK_OBJECT_MAP:
		for (uint32_t i = 0; i < o->via.map.size; i++) {
			const msgpack_object_kv *kv = &o->via.map.ptr[i];
			if (kv->key.type != MSGPACK_OBJECT_STR)
				continue;
			walk_args(x, &kv->val, kv->key.via.str.ptr, kv->key.via.str.size, depth + 1);
		}
		return;
	case MSGPACK_OBJECT_ARRAY:
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
		int role;
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
		} else {
			if (x->pass == 1)
				return;
			role = positional_role(x->act->cls, x->pos++);
			/* "measureCrack(L1, column C7, 0.6 mm)", "photograph(..., 8
			 * photos)": an amount, and any argument past the roles, is
			 * still a word of the action */
			if (depth <= 1 && n <= 40 && p[0] != '<' &&
			    (role == R_NONE || (p[0] >= '0' && p[0] <= '9' && memchr(p, ' ', n)))) {
				char v[48];
				snprintf(v, sizeof v, "%.*s", (int)n, p);
				append_state(x->act, v);
				return;
			}
		}
		if ((role == R_DEST || role == R_PLACE || role == R_SOURCE) && key &&
		    names_person(x->sc, p, n))
			role = R_WHO;
		int slot = role_slot(role);
		/* a top-level parameter with no role of its own ("order": "order
		 * 5541") or whose slot is taken is still a word of the action */
		if (key && x->pass == 1 && depth == 1 && p[0] != '<' &&
		    (n <= 40 || (n <= 120 && reason_key(key, klen))) &&
		    (slot < 0 || x->act->s[slot])) {
			/* "water {plant: fern}": a bare verb's first parameter with
			 * no role of its own is what it was done to */
			if (slot < 0 && x->bare && !x->act->s[FS_OBJ])
				set(x->act, FS_OBJ, p, n);
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
				set(x->act, slot, p, n);
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
	fact *f = push(out);
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
	sets(f, FS_NAME, s->action);
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
		sets(f, FS_VERB, sk->verb);
	} else {
		for (size_t i = 0; i < k && !lemma; i++)
			if ((lemma = lex_lemma(w[i].stem, &cls))) {
				vi = i;
				lex_particle(w, k, i, &lemma, &cls);
			}
		if (lemma)
			sets(f, FS_VERB, lemma);
		else if (k)
			sets(f, FS_VERB, w[0].w), vi = 0;
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
		sets(f, FS_OBJ, sk->object);
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
			set(f, f->cls == LC_GO && !f->s[FS_DST] ? FS_DST : FS_OBJ, buf, len);
	}
	if (!f->s[FS_PLACE] && s->location)
		sets(f, FS_PLACE, s->location);
	/* why a run failed, when the robot wrote it down ("the nozzle was
	 * clogged"): what a person asks after "what went wrong" */
	if ((f->status == FST_FAILED || f->status == FST_ABORTED) && s->note && *s->note &&
	    strlen(s->note) <= 80)
		append_state(f, s->note);
	return H2EMV_OK;
}

/* ------------------------------------------------- events told in notes -- */

/* One word of a note, as written: where it starts and how long it is. */
typedef struct note_word {
	const char *p;
	size_t n;
	char low[LEX_WORD_MAX], stem[LEX_WORD_MAX];
} note_word;

/* Split the note's first clause (up to ':', ';', ',', a sentence's '.',
 * '(' or a dash between spaces) into words. */
static size_t note_words(const char *s, note_word *w, size_t max)
{
	size_t k = 0, i = 0;
	while (s[i] && k < max) {
		while (s[i] == ' ')
			i++;
		unsigned char c = (unsigned char)s[i];
		if (!c || c == ':' || c == ';' || c == ',' || c == '(' || c == '!' || c == '?' ||
		    (c == '.' && (!s[i + 1] || s[i + 1] == ' ')) ||
		    (c == '-' && (s[i + 1] == ' ' || !s[i + 1])))
			break;
		size_t st = i;
		while (s[i] && s[i] != ' ' && s[i] != ':' && s[i] != ';' && s[i] != ',' &&
		       s[i] != '(' && s[i] != '!' && s[i] != '?' &&
		       !(s[i] == '.' && (!s[i + 1] || s[i + 1] == ' ')))
			i++;
		size_t n = i - st;
		if (!n || n >= LEX_WORD_MAX) {
			if (!n)
				i++;
			continue;
		}
		note_word *x = &w[k++];
		x->p = s + st;
		x->n = n;
		for (size_t j = 0; j < n; j++) {
			unsigned char d = (unsigned char)s[st + j];
			x->low[j] = (char)(d >= 'A' && d <= 'Z' ? d + 32 : d);
		}
		x->low[n] = 0;
		/* "Nordlicht's": the stem of the word without its 's */
		size_t sn = n > 2 && !strcmp(x->low + n - 2, "'s") ? n - 2 : n;
		lex_stem(x->low, sn, x->stem);
	}
	return k;
}

static int word_is(const note_word *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w->low, *list))
			return 1;
	return 0;
}

/* Does the note say that what it tells went wrong? */
static int note_failed(const char *note)
{
	static const char *const bad[] = { "could not", "couldn't", "couldnt", "can't", "cannot",
		                               "unable to", "failed", "failure", "broke", "broken",
		                               "jammed", "stuck", "gave up", "did not work",
		                               "didn't work", "aborted", "had to stop", "does not",
		                               "doesn't", "won't", "fault", "error", "damaged",
		                               "tripped", "stalled", "leaking", "lost power", NULL };
	size_t n = strlen(note);
	for (const char *const *b = bad; *b; b++) {
		size_t bl = strlen(*b);
		for (size_t i = 0; i + bl <= n; i++)
			if (!strncasecmp(note + i, *b, bl) && (i == 0 || note[i - 1] == ' ') &&
			    (i + bl == n || !((note[i + bl] | 32) >= 'a' && (note[i + bl] | 32) <= 'z')))
				return 1;
	}
	return 0;
}

/* The words [a, b) of a note as one string, articles in front dropped. */
static void set_span(fact *f, int slot, const note_word *w, size_t a, size_t b)
{
	static const char *const art[] = { "the", "a", "an", "some", "my", "its", "their", NULL };
	while (a < b && word_is(&w[a], art))
		a++;
	if (a < b)
		set(f, slot, w[a].p, (size_t)(w[b - 1].p + w[b - 1].n - w[a].p));
}

/*
 * An observation with no action whose note tells what the robot did
 * ("Refuelled the tug at the fuel pier: 1200 litres.", "Could not reach
 * bollard 17: the quay was blocked.") holds an action all the same: its
 * verb is the note's first word when the lexicon knows it, or when it is
 * written as a past tense or a present participle (then its stem); the
 * object is the words after it up to a preposition; "at/in/on X" is the
 * place, "to/into X" where it went, "from X" where it came from. A note
 * that says it could not, failed, broke or jammed makes it failed.
 */
static int extract_note_action(facts *out, const scene *s, const robot_profile *prof)
{
	static const char *const subj[] = { "i", "we", "robot", "then", "finally", "first", NULL };
	static const char *const fail_pre[] = { "could", "couldn't", "couldnt", "cannot", "can't",
		                                    "unable", "failed", "tried", "not", "to", NULL };
	static const char *const at[] = { "at", "in", "on", "near", "by", "beside", "inside",
		                              "behind", "under", "alongside", NULL };
	static const char *const to[] = { "to", "into", "onto", "toward", "towards", NULL };
	static const char *const from[] = { "from", "out", "off", NULL };
	static const char *const stop[] = { "and", "for", "with", "ahead", "before", "after",
		                                "while", "because", "again", "then", "but", "so",
		                                "until", "as", "without", "via", "through", "during",
		                                NULL };
	note_word w[24];
	size_t k = note_words(s->note, w, 24);
	size_t v = 0;
	while (v < k && word_is(&w[v], subj))
		v++;
	size_t f0 = v;
	while (v < k && word_is(&w[v], fail_pre))
		v++;
	if (v >= k || v > 4)
		return H2EMV_OK;
	int cls = LC_NONE;
	const char *lemma = lex_lemma(w[v].stem, &cls);
	size_t vn = strlen(w[v].low);
	/* after "could not", "unable to": the verb in its plain form */
	static const char *const modal[] = { "not", "to", "cannot", "can't", "couldn't", "couldnt",
		                                 NULL };
	int infinitive = v > f0 && word_is(&w[v - 1], modal);
	/* "Cast off the ...", "Hoisted the ...": a first word an article or a
	 * verb's particle follows */
	static const char *const after_verb[] = { "the", "a", "an", "off", "up", "down", "out",
		                                      "away", "back", NULL };
	int phrase = v == 0 && k > 1 && word_is(&w[1], after_verb);
	if (!lemma && !infinitive && !phrase &&
	    !(vn > 4 && (!strcmp(w[v].low + vn - 2, "ed") || !strcmp(w[v].low + vn - 3, "ing"))))
		return H2EMV_OK;
	if (lex_stop(w[v].stem))
		return H2EMV_OK;
	if (lemma) {
		lex_word lw[24];
		size_t lk = lex_split(w[v].p, strlen(w[v].p), lw, 24);
		if (lk > 24)
			lk = 24;
		if (lk)
			lex_particle(lw, lk, 0, &lemma, &cls);
	}
	fact *f = push(out);
	if (!f)
		return H2EMV_ENOMEM;
	f->type = FT_ACT;
	f->status = note_failed(s->note) ? FST_FAILED : FST_DONE;
	/* (a verb the lexicon does not know is classed as a skill name's is) */
	f->cls = (uint8_t)(lemma ? cls : LC_NONE);
	if (lemma) {
		sets(f, FS_VERB, lemma);
	} else if (v + 1 < k && word_is(&w[v + 1], after_verb + 2)) {
		/* "cast off": the verb with its particle */
		char vb[2 * LEX_WORD_MAX + 1];
		snprintf(vb, sizeof vb, "%s %s", w[v].stem, w[v + 1].low);
		sets(f, FS_VERB, vb);
		v++;
	} else {
		sets(f, FS_VERB, w[v].stem);
	}
	/* the action as recorded: the note's first clause */
	set(f, FS_NAME, w[0].p, (size_t)(w[k - 1].p + w[k - 1].n - w[0].p));
	/* the object, then the roles the prepositions give */
	size_t i = v + 1, a = i;
	int slot = FS_OBJ;
	for (;; i++) {
		int end = i >= k;
		int role = end ? -1 : word_is(&w[i], at) ? FS_PLACE : word_is(&w[i], to) ? FS_DST
		                    : word_is(&w[i], from) ? FS_SRC : word_is(&w[i], stop) ? FS_N : -1;
		if (end || role >= 0) {
			if (slot < FS_N)
				set_span(f, slot, w, a, i);
			if (end)
				break;
			/* "out of", "off of": one preposition */
			if (role == FS_SRC && i + 1 < k && !strcmp(w[i + 1].low, "of"))
				i++;
			slot = role;
			a = i + 1;
		}
	}
	/* "MoveTote": moving a thing somewhere is putting it there */
	if (f->cls == LC_GO && f->s[FS_OBJ] && (f->s[FS_DST] || f->s[FS_SRC]))
		f->cls = LC_PUT;
	if (!f->s[FS_PLACE] && s->location)
		sets(f, FS_PLACE, s->location);
	for (size_t p = 0; p < s->n_persons && !f->s[FS_WHO]; p++)
		if (!profile_is_self(prof, s->persons[p]))
			sets(f, FS_WHO, s->persons[p]);
	/* the whole note: what a person asks after "what went wrong", "what
	 * were the readings" */
	if (strlen(s->note) <= 110)
		append_state(f, s->note);
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

/* Does the capitalised word at `p` name a role rather than a person
 * ("Technician", "Driver"; not "Olu", "John")? WordNet's first sense. */
static int opens_with_role(const char *p)
{
	char w[48];
	size_t n = 0;
	while (n + 1 < sizeof w && ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
		w[n] = p[n], n++;
	w[n] = 0;
	return wn_names_role(w);
}

/* The people a note names: runs of capitalised words that do not open
 * the note or a sentence of it, without digits ("Belt 3 jammed; Sam
 * cleared it" names Sam; "Shift handover (Ilse Moreau): ..." Ilse Moreau). */
static void note_people(fact *f, const char *note)
{
	char who[160];
	size_t n = 0, i = 0;
	int start = 1, names = 0;
	while (note[i] && names < 3) {
		unsigned char c = (unsigned char)note[i];
		if (c == '.' || c == '!' || c == '?') {
			start = 1, i++;
			continue;
		}
		if (!((c | 32) >= 'a' && (c | 32) <= 'z')) {
			i++;
			continue;
		}
		size_t a = i;
		int run = 0;
		/* a run of capitalised words, each of letters only */
		while (note[i] >= 'A' && note[i] <= 'Z') {
			size_t w = i;
			while ((note[i] >= 'a' && note[i] <= 'z') || (note[i] >= 'A' && note[i] <= 'Z') ||
			       note[i] == '-')
				i++;
			if ((note[i] >= '0' && note[i] <= '9') || i - w < 2) {
				run = -1;
				break;
			}
			run++;
			if (note[i] != ' ' || !(note[i + 1] >= 'A' && note[i + 1] <= 'Z'))
				break;
			i++;
		}
		size_t e = i;
		if (e > a && note[e - 1] == ' ')
			e--;
		/* "Technician Omar fixed ...": the words after an opening role
		 * ("Olu Bakare let ..." opens with a name) */
		if (run > 1 && start) {
			if (opens_with_role(note + a)) {
				while (a < e && note[a] != ' ')
					a++;
				a++;
			}
			start = 0;
		}
		if (run > 0 && !start && a < e && n + (e - a) + 3 < sizeof who) {
			if (n)
				memcpy(who + n, ", ", 2), n += 2;
			memcpy(who + n, note + a, e - a);
			n += e - a;
			names++;
		}
		start = 0;
		while ((note[i] >= 'a' && note[i] <= 'z') || (note[i] >= 'A' && note[i] <= 'Z') ||
		       (note[i] >= '0' && note[i] <= '9') || note[i] == '-' || note[i] == '\'')
			i++;
	}
	if (n)
		set(f, FS_WHO, who, n);
}

/* Every note is a fact of its own, whatever its first word: a logbook
 * robot's history lives in them ("Pump P2 tripped at 14:10; Sam reset the
 * breaker"), and a failure's reason is the note beside the action. */
static int extract_note(facts *out, size_t first, const scene *s)
{
	fact *f = push(out);
	if (!f)
		return H2EMV_ENOMEM;
	/* the action it was written beside: what it was done to, its other
	 * parameters ("why did you send bag KL 118004 back") */
	const fact *act = first < out->n - 1 && out->v[first].type == FT_ACT ? &out->v[first] : NULL;
	if (act && s->action) {
		sets(f, FS_OBJ, act->s[FS_OBJ]);
		sets(f, FS_STATE, act->s[FS_STATE]);
	}
	f->type = FT_NOTE;
	int st = s->action ? s->action_status : 0;
	f->status = st == 4 ? FST_FAILED : st == 5 ? FST_ABORTED
	            : note_failed(s->note) ? FST_FAILED : FST_DONE;
	/* the note's opening is what a question finds and a person reads; a
	 * long note (a dump, a report) stays whole only in its observation */
	size_t n = strlen(s->note);
	if (n > NOTE_FACT_MAX)
		n = utf8_cut(s->note, NOTE_FACT_MAX);
	set(f, FS_TEXT, s->note, n);
	sets(f, FS_NAME, s->action);
	sets(f, FS_PLACE, s->location);
	note_people(f, s->note);
	return H2EMV_OK;
}

int facts_from_scene(facts *out, const scene *s, const robot_profile *prof, int tasks)
{
	size_t first = out->n;
	int rc = s->action ? extract_action(out, s, prof) : H2EMV_OK;
	if (rc == H2EMV_OK && !s->action && s->note && *s->note)
		rc = extract_note_action(out, s, prof);
	if (rc == H2EMV_OK && s->note && *s->note)
		rc = extract_note(out, first, s);
	fact *f;
	/* skill-stack robots: the outermost skill when it is not the action
	 * itself ("ObjectLearning" while its "Say" runs) */
	int outer_is_action = s->action && s->n_goal && !strcmp(s->goal[0], s->action);
	const prof_skill *osk = s->n_goal ? profile_skill(prof, s->goal[0]) : NULL;
	if (rc == H2EMV_OK && s->n_goal && s->goal[0] && *s->goal[0] && !(osk && osk->ignore) &&
	    (tasks || (s->n_goal > 1 && !outer_is_action))) {
		/* the task: "put all forks in drawer", "MakeCoffee", "Boil(Potato)" */
		if (!(f = push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_TASK;
		f->status = s->goal_status == 3 ? FST_DONE : s->goal_status == 4 ? FST_FAILED
		            : s->goal_status == 5 ? FST_ABORTED : s->goal_status ? FST_ONGOING
		                                                                : FST_NONE;
		sets(f, FS_NAME, s->goal[0]);
		lex_word w[12];
		size_t k = lex_split(s->goal[0], strlen(s->goal[0]), w, 12);
		int cls = LC_NONE;
		const char *lemma = NULL;
		for (size_t i = 0; i < k && i < 12 && !lemma; i++)
			lemma = lex_lemma(w[i].stem, &cls);
		sets(f, FS_VERB, lemma ? lemma : (k ? w[0].w : NULL));
		f->cls = (uint8_t)cls;
	}
	if (rc == H2EMV_OK && s->location && *s->location) {
		if (!(f = push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_PLACE;
		sets(f, FS_PLACE, s->location);
	}
	for (size_t i = 0; rc == H2EMV_OK && i < s->n_persons; i++) {
		if (profile_is_self(prof, s->persons[i]))
			continue;
		if (!(f = push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_PERSON;
		sets(f, FS_NAME, s->persons[i]);
		sets(f, FS_PLACE, s->location);
	}
	for (size_t i = 0; rc == H2EMV_OK && i < s->n_speech; i++) {
		const scene_utt *u = &s->speech[i];
		if (!(f = push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_SPEECH;
		sets(f, FS_NAME, u->speaker);
		sets(f, FS_TEXT, u->text);
		sets(f, FS_PLACE, s->location);
		if (u->speaker && !profile_is_self(prof, u->speaker) && strcasecmp(u->speaker, "user")) {
			if (!(f = push(out)))
				return H2EMV_ENOMEM;
			f->type = FT_PERSON;
			sets(f, FS_NAME, u->speaker);
		}
	}
	for (size_t i = 0; rc == H2EMV_OK && i < s->n_objects && i < SCENE_SEEN_MAX; i++) {
		const scene_obj *o = &s->objects[i];
		if (!(f = push(out)))
			return H2EMV_ENOMEM;
		f->type = FT_SEEN;
		sets(f, FS_NAME, o->type ? o->type : o->id);
		sets(f, FS_STATE, o->state);
		sets(f, FS_PLACE, where_is(s, o->id));
		sets(f, FS_PLACE, s->location); /* else where the robot was */
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

/* --------------------------------------------------------------- merging -- */

static int priority(const fact *f)
{
	int p;
	switch (f->type) {
	case FT_ACT: p = f->status == FST_FAILED || f->status == FST_ABORTED ? 100 : 70; break;
	case FT_PERSON: p = 90; break;
	case FT_SPEECH: p = 80; break;
	case FT_PLACE: p = 60; break;
	case FT_TASK: p = 75; break;
	case FT_NOTE: p = f->status == FST_FAILED ? 95 : 72; break;
	default: p = 40;
	}
	uint32_t c = f->count;
	while (c > 1 && p < 100 + 30) {
		p++;
		c >>= 1;
	}
	return p;
}

typedef struct rank {
	int prio;
	int64_t t;
	size_t i;
} rank;

static int cmp_rank(const void *a, const void *b)
{
	const rank *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void facts_trim(facts *f, size_t cap)
{
	if (f->n <= cap)
		return;
	rank *r = malloc(f->n * sizeof *r);
	uint8_t *keep = calloc(f->n, 1);
	if (!r || !keep) {
		/* no memory to rank: keep the newest */
		for (size_t i = 0; i + cap < f->n; i++)
			fact_free(&f->v[i]);
		memmove(f->v, f->v + (f->n - cap), cap * sizeof *f->v);
		f->n = cap;
	} else {
		for (size_t i = 0; i < f->n; i++)
			r[i] = (rank){ priority(&f->v[i]), f->v[i].t1, i };
		qsort(r, f->n, sizeof *r, cmp_rank);
		for (size_t i = 0; i < cap; i++)
			keep[r[i].i] = 1;
		size_t j = 0;
		for (size_t i = 0; i < f->n; i++) {
			if (keep[i])
				f->v[j++] = f->v[i];
			else
				fact_free(&f->v[i]);
		}
		f->n = j;
	}
	f->trimmed = 1;
	free(r);
	free(keep);
}

static int copy_fact(fact *dst, const fact *src)
{
	*dst = *src;
	size_t lens[FS_N];
	for (int i = 0; i < FS_N; i++)
		lens[i] = src->s[i] ? strlen(src->s[i]) : 0;
	if (fact_strings(dst, (const char *const *)src->s, lens)) {
		memset(dst, 0, sizeof *dst);
		return H2EMV_ENOMEM;
	}
	return H2EMV_OK;
}

/* An index of dst's keys for one merge (engine/hashtab.h): key -> index in
 * dst. */
static uint32_t key_hash(uint64_t key)
{
	return (uint32_t)(key ^ key >> 29);
}

static int fact_has_key(const void *ctx, uintptr_t val, const void *key)
{
	return ((const facts *)ctx)->v[val].key == *(const uint64_t *)key;
}

static fact *kindex_get(const hashtab *ix, facts *f, uint64_t key)
{
	const ht_slot *s = ht_find(ix, key_hash(key), fact_has_key, f, &key);
	return s && ht_used(ix, s) ? &f->v[s->val] : NULL;
}

/* Index entry i of dst (its key absent); room is reserved. */
static void kindex_put(hashtab *ix, uint64_t key, size_t i)
{
	ht_put(ix, ht_vacant(ix, key_hash(key)), key_hash(key), i);
}

int facts_merge(facts *dst, const facts *add, size_t cap)
{
	return facts_merge_seq(dst, add, NULL, 0, cap);
}

int facts_merge_seq(facts *dst, const facts *add, const uint64_t *prev, size_t n_prev,
                    size_t cap)
{
	hashtab ix = { 0 };
	if (ht_reserve(&ix, dst->n + add->n))
		return H2EMV_ENOMEM;
	for (size_t j = 0; j < dst->n; j++)
		kindex_put(&ix, dst->v[j].key, j);
	int rc = H2EMV_OK;
	for (size_t i = 0; i < add->n; i++) {
		const fact *a = &add->v[i];
		fact *hit = kindex_get(&ix, dst, a->key);
		int same = 0;
		for (size_t j = 0; j < n_prev && !same; j++)
			same = prev[j] == a->key;
		if (hit) {
			if (a->t0 < hit->t0)
				hit->t0 = a->t0;
			if (same && !(a->count > 1)) {
				if (a->t2 > hit->t2)
					hit->t2 = a->t2;
			} else {
				hit->count += a->count;
				if (a->t1 >= hit->t1) {
					hit->t1 = a->t1;
					if (a->t2 > hit->t2 || a->t1 > hit->t2)
						hit->t2 = a->t2;
				}
			}
			continue;
		}
		fact *x = push(dst);
		if (!x || copy_fact(x, a)) {
			if (x)
				dst->n--;
			rc = H2EMV_ENOMEM;
			break;
		}
		kindex_put(&ix, x->key, dst->n - 1);
	}
	ht_free(&ix);
	if (rc)
		return rc;
	if (add->trimmed)
		dst->trimmed = 1;
	facts_trim(dst, cap);
	return H2EMV_OK;
}

/* ------------------------------------------------------------- payloads -- */

/* Bytes of the payload head written by older builds: goal [open, depth] as
 * 3 bytes, event [open, 0xcf key] as 11; both are valid msgpack arrays of
 * two, the same head as now. */
int facts_payload_head(const void *p, size_t n, int *open, uint64_t *aux)
{
	const uint8_t *b = p;
	if (n < 3 || (b[0] != 0x92 && b[0] != 0x93))
		return 0;
	*open = b[1] & 1;
	if (b[2] <= 0x7f) {
		*aux = b[2];
		return 1;
	}
	if (b[2] == 0xcf && n >= 11) {
		uint64_t v = 0;
		for (int i = 0; i < 8; i++)
			v = v << 8 | b[3 + i];
		*aux = v;
		return 1;
	}
	return 0;
}

static size_t head_len(const uint8_t *b, size_t n)
{
	if (n >= 3 && b[2] <= 0x7f)
		return 3;
	if (n >= 11 && b[2] == 0xcf)
		return 11;
	return 0;
}

static int get_int(const msgpack_object *o, int64_t *v)
{
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= INT64_MAX)
		*v = (int64_t)o->via.u64;
	else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		*v = o->via.i64;
	else
		return 0;
	return 1;
}

static int decode_fact(fact *f, const msgpack_object *o)
{
	memset(f, 0, sizeof *f);
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 7 + FS_N)
		return H2EMV_ECORRUPT;
	const msgpack_object *a = o->via.array.ptr;
	int64_t v[7];
	for (int i = 0; i < 7; i++)
		if (!get_int(&a[i], &v[i]))
			return H2EMV_ECORRUPT;
	if (v[0] < FT_ACT || v[0] > FT_NOTE || v[1] < 0 || v[1] > 5 || v[2] < 0 ||
	    v[2] >= LC_COUNT_ || v[3] < 1 || v[3] > UINT32_MAX)
		return H2EMV_ECORRUPT;
	f->type = (uint8_t)v[0];
	f->status = (uint8_t)v[1];
	f->cls = (uint8_t)v[2];
	f->count = (uint32_t)v[3];
	f->t0 = v[4];
	f->t1 = v[5];
	f->t2 = v[6];
	const char *src[FS_N] = { 0 };
	size_t lens[FS_N] = { 0 };
	for (int i = 0; i < FS_N; i++) {
		const msgpack_object *s = &a[7 + i];
		if (s->type == MSGPACK_OBJECT_NIL)
			continue;
		if (s->type != MSGPACK_OBJECT_STR || s->via.str.size > 65536 ||
		    memchr(s->via.str.ptr, 0, s->via.str.size))
			return H2EMV_ECORRUPT;
		src[i] = s->via.str.ptr;
		lens[i] = s->via.str.size;
	}
	if (fact_strings(f, src, lens))
		return H2EMV_ENOMEM;
	f->key = fact_key(f);
	return H2EMV_OK;
}

int facts_payload_decode(facts *out, const void *p, size_t n)
{
	const uint8_t *b = p;
	if (!p || n < 3 || b[0] != 0x93)
		return H2EMV_OK; /* no facts */
	size_t h = head_len(b, n);
	if (!h)
		return H2EMV_ECORRUPT;
	int rc = mp_prescan(b + h, n - h, MP_MAX_DEPTH, NULL);
	if (rc)
		return H2EMV_ECORRUPT;
	msgpack_zone z;
	if (!msgpack_zone_init(&z, 2048))
		return H2EMV_ENOMEM;
	msgpack_object root;
	size_t off = 0;
	rc = msgpack_unpack((const char *)b + h, n - h, &off, &z, &root) == MSGPACK_UNPACK_SUCCESS &&
	             off == n - h && (root.type == MSGPACK_OBJECT_ARRAY)
	         ? H2EMV_OK
	         : H2EMV_ECORRUPT;
	for (uint32_t i = 0; rc == H2EMV_OK && i < root.via.array.size; i++) {
		fact *f = push(out);
		if (!f) {
			rc = H2EMV_ENOMEM;
			break;
		}
		if ((rc = decode_fact(f, &root.via.array.ptr[i])))
			out->n--;
	}
	msgpack_zone_destroy(&z);
	return rc;
}

static int sb_write(void *data, const char *buf, size_t len)
{
	return eng_buf_append(data, buf, len) ? -1 : 0;
}

int facts_payload_encode(eng_buf *out, int open, uint64_t aux, const facts *f)
{
	out->len = 0;
	/* the head keeps the byte shapes of older builds */
	uint8_t h[11] = { f && f->n ? 0x93 : 0x92, (uint8_t)(open & 3) };
	size_t hl;
	if (aux <= 0x7f) {
		h[2] = (uint8_t)aux;
		hl = 3;
	} else {
		h[2] = 0xcf;
		for (int i = 0; i < 8; i++)
			h[3 + i] = (uint8_t)(aux >> (56 - 8 * i));
		hl = 11;
	}
	if (eng_buf_append(out, h, hl))
		return H2EMV_ENOMEM;
	if (!f || !f->n)
		return H2EMV_OK;
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, sb_write);
	int bad = msgpack_pack_array(&pk, f->n);
	for (size_t i = 0; !bad && i < f->n; i++) {
		const fact *x = &f->v[i];
		bad |= msgpack_pack_array(&pk, 7 + FS_N);
		bad |= msgpack_pack_uint8(&pk, x->type);
		bad |= msgpack_pack_uint8(&pk, x->status);
		bad |= msgpack_pack_uint8(&pk, x->cls);
		bad |= msgpack_pack_uint32(&pk, x->count);
		bad |= msgpack_pack_int64(&pk, x->t0);
		bad |= msgpack_pack_int64(&pk, x->t1);
		bad |= msgpack_pack_int64(&pk, x->t2);
		for (int s = 0; s < FS_N; s++) {
			if (!x->s[s]) {
				bad |= msgpack_pack_nil(&pk);
			} else {
				size_t l = strlen(x->s[s]);
				bad |= msgpack_pack_str(&pk, l);
				bad |= msgpack_pack_str_body(&pk, x->s[s], l);
			}
		}
	}
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

/* ------------------------------------------------------ facts on nodes -- */

static int aggregate_now(tnode *p);

facts *facts_of(tnode *n)
{
	if (n->fx_stale) {
		n->fx_stale = 0;
		if (aggregate_now(n))
			return NULL;
	}
	if (n->fx)
		return n->fx;
	facts *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	if (n->kind != H2EMV_KIND_SCENE && n->payload_len &&
	    facts_payload_decode(f, n->payload, n->payload_len) == H2EMV_ENOMEM) {
		facts_free(f);
		free(f);
		return NULL;
	}
	/* a damaged facts list reads as none: the tree stays usable */
	n->fx = f;
	return f;
}

void facts_touch(tnode *n)
{
	n->fx_dirty = 1;
	tree_touch(n);
}

/* Encode [open, aux, facts] into the node's payload. */
static int write_payload(tnode *n, int open, uint64_t aux, const facts *f)
{
	eng_buf b = { 0 };
	int rc = facts_payload_encode(&b, open, aux, f);
	if (rc == H2EMV_OK)
		rc = tree_set_payload(n, b.data, b.len);
	eng_buf_free(&b);
	return rc;
}

int facts_set_head(tnode *n, int open, uint64_t aux)
{
	/* the facts are decoded first so that they survive; the payload gets
	 * only the head now and the facts at the next commit (facts_flush) */
	facts *f = facts_of(n);
	if (!f)
		return H2EMV_ENOMEM;
	int ext = n->payload_len >= 3 && (n->payload[0] == 0x92 || n->payload[0] == 0x93) &&
	          (n->payload[1] & 2);
	int rc = write_payload(n, (open ? 1 : 0) | (ext ? 2 : 0), aux, NULL);
	if (rc == H2EMV_OK && f->n)
		n->fx_dirty = 1;
	return rc;
}

int facts_flush(tnode *n)
{
	if (n->fx_stale && !facts_of(n))
		return H2EMV_ENOMEM;
	if (!n->fx_dirty || !n->fx)
		return H2EMV_OK;
	int open = 0;
	uint64_t aux = 0;
	if (n->payload_len && facts_payload_head(n->payload, n->payload_len, &open, &aux))
		open |= n->payload[1] & 2;
	int rc = write_payload(n, open, aux, n->fx);
	if (rc == H2EMV_OK)
		n->fx_dirty = 0;
	return rc;
}

/* Summaries are regrouped and re-summarised many times between commits:
 * their aggregate is made when it is next needed (facts_of, the commit). */
int facts_aggregate(tnode *p)
{
	p->fx_stale = 1;
	facts_touch(p);
	return H2EMV_OK;
}

static int aggregate_now(tnode *p)
{
	facts *f = facts_of(p);
	if (!f)
		return H2EMV_ENOMEM;
	facts_clear(f);
	for (uint32_t i = 0; i < p->n_kids; i++) {
		tnode *k = p->kids[i];
		if (k->kind == H2EMV_KIND_FORGOTTEN || k->kind == H2EMV_KIND_SCENE)
			continue;
		/* aggregates guide the search down; they never answer a detail on
		 * their own (recall.c treats them as the gist of what was forgotten) */
		facts *kf = facts_of(k);
		if (!kf || facts_merge(f, kf, SIZE_MAX))
			return H2EMV_ENOMEM;
	}
	/* a summary keeps no notes: their words are the detail forgetting
	 * erases (a summary outlives its forgotten children) */
	size_t j = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].type == FT_NOTE)
			fact_free(&f->v[i]);
		else
			f->v[j++] = f->v[i];
	}
	f->n = j;
	facts_trim(f, FACTS_SUMMARY_MAX); /* once, not after every child */
	facts_touch(p);
	return H2EMV_OK;
}

int facts_extended(const tnode *n)
{
	return n->payload_len >= 3 && (n->payload[0] == 0x92 || n->payload[0] == 0x93) &&
	       (n->payload[1] & 2);
}

int facts_mark_extended(tnode *n)
{
	int open = 0;
	uint64_t aux = 0;
	if (n->kind == H2EMV_KIND_SCENE)
		return H2EMV_OK;
	if (!n->payload_len || !facts_payload_head(n->payload, n->payload_len, &open, &aux))
		open = 0, aux = 0;
	facts *f = facts_of(n);
	if (!f)
		return H2EMV_ENOMEM;
	int rc = write_payload(n, open | 2, aux, NULL);
	if (rc == H2EMV_OK && f->n)
		n->fx_dirty = 1;
	return rc;
}

double facts_grade(const facts *f)
{
	double people = 0, failed = 0;
	for (size_t i = 0; i < f->n; i++) {
		const fact *x = &f->v[i];
		if (x->type == FT_PERSON ||
		    (x->type == FT_SPEECH && x->s[FS_NAME] && !profile_is_self(NULL, x->s[FS_NAME])))
			people = 0.5;
		if ((x->type == FT_ACT || x->type == FT_TASK) &&
		    (x->status == FST_FAILED || x->status == FST_ABORTED))
			failed = 0.5;
	}
	return people + failed;
}

void facts_drop(tnode *n)
{
	if (n->fx) {
		facts_free(n->fx);
		free(n->fx);
		n->fx = NULL;
	}
	n->fx_dirty = 0;
}

/* ------------------------------------------------------------- display -- */

static void add(eng_buf *b, const char *s)
{
	if (s)
		eng_buf_append(b, s, strlen(s));
}

static void add_name(eng_buf *b, const char *id)
{
	if (!id)
		return;
	char d[160];
	if (lex_display(d, sizeof d, id, strlen(id)))
		add(b, d);
	else
		add(b, id);
}

int facts_render_one(eng_buf *b, const fact *f)
{
	size_t before = b->len;
	switch (f->type) {
	case FT_ACT:
		/* an event told in a note: the note says it all */
		if (f->s[FS_NAME] && f->s[FS_STATE] &&
		    !strncmp(f->s[FS_STATE], f->s[FS_NAME], strlen(f->s[FS_NAME]))) {
			add(b, f->s[FS_STATE]);
			if (f->s[FS_WHO] && !strstr(f->s[FS_STATE], f->s[FS_WHO])) {
				add(b, " (with ");
				add(b, f->s[FS_WHO]);
				add(b, ")");
			}
			if (f->status == FST_FAILED)
				add(b, " (failed)");
			break;
		}
		add(b, f->s[FS_NAME]);
		if (f->s[FS_OBJ]) {
			add(b, " ");
			add_name(b, f->s[FS_OBJ]);
		}
		if (f->s[FS_SRC]) {
			add(b, " from ");
			add_name(b, f->s[FS_SRC]);
		}
		if (f->s[FS_DST]) {
			add(b, " to ");
			add_name(b, f->s[FS_DST]);
		}
		if (f->s[FS_WHO]) {
			add(b, " with ");
			add(b, f->s[FS_WHO]);
		}
		if (f->s[FS_TEXT]) {
			add(b, " \"");
			add(b, f->s[FS_TEXT]);
			add(b, "\"");
		}
		if (f->s[FS_STATE]) {
			add(b, " (");
			add(b, f->s[FS_STATE]);
			add(b, ")");
		}
		if (f->status == FST_FAILED)
			add(b, " (failed)");
		else if (f->status == FST_ABORTED)
			add(b, " (aborted)");
		break;
	case FT_PERSON:
		add(b, "met ");
		add(b, f->s[FS_NAME]);
		break;
	case FT_SPEECH:
		if (f->s[FS_NAME]) {
			add(b, f->s[FS_NAME]);
			add(b, ": ");
		}
		add(b, "\"");
		add(b, f->s[FS_TEXT]);
		add(b, "\"");
		break;
	case FT_SEEN:
		add(b, "saw ");
		add_name(b, f->s[FS_NAME]);
		if (f->s[FS_STATE]) {
			add(b, " (");
			add(b, f->s[FS_STATE]);
			add(b, ")");
		}
		if (f->s[FS_PLACE]) {
			add(b, " at ");
			add_name(b, f->s[FS_PLACE]);
		}
		break;
	case FT_TASK:
		add(b, "the task ");
		add(b, f->s[FS_NAME]);
		if (f->status == FST_FAILED)
			add(b, " (failed)");
		break;
	case FT_PLACE:
		add(b, "at ");
		add(b, f->s[FS_PLACE]);
		break;
	case FT_NOTE:
		add(b, "noted \"");
		add(b, f->s[FS_TEXT]);
		add(b, "\"");
		break;
	}
	/* (a task's count is the scenes it ran over, not how often it ran) */
	if (f->count > 1 && f->type != FT_TASK) {
		char c[32];
		snprintf(c, sizeof c, " (%ux)", f->count);
		add(b, c);
	}
	return b->len > before ? H2EMV_OK : H2EMV_ENOMEM;
}
