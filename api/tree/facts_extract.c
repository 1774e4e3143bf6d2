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

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "api/base/lex.h"
#include "api/config/profile.h"
#include "api/tree/scene.h"

#define SCENE_SEEN_MAX 24

/* ------------------------------------------------------------ extraction -- */

typedef struct xctx {
	const scene *sc;
	const robot_profile *prof;
	const prof_skill *sk;
	fact *act;
	int pos;            /* positional argument index */
	int npos;           /* how many positional names (not bare numbers) there are */
	int pass;           /* 0: keys with a known role; 1: guesses and numbers */
	int bare;           /* the skill's name is a bare verb ("water", "dust") */
	const char *outer;  /* walking a parameter's own object ({"part": {"serial":
	                     * ...}}): its key, whose leaves are still words of
	                     * the action; NULL at the top */
	size_t outer_len;
} xctx;

/* A leaf of a parameter's own object, in the action's words: its key
 * alone ("serial" of {"part": {"serial": ...}}), or after the outer key
 * when it says nothing by itself ("part kind" of {"part": {"kind":
 * "SSD"}}). 0 when it is not such a leaf. */
static int nested_key(const xctx *x, int depth, const char *key, size_t klen, char *out,
                      size_t cap)
{
	static const char *const bland[] = { "kind", "type", "model", "id", "name", "value",
		                                 "size", "no", "number", "code", "class", NULL };
	if (depth != 2 || !x->outer || !key || klen > 40 || x->outer_len > 40)
		return 0;
	for (const char *const *b = bland; *b; b++)
		if (strlen(*b) == klen && !strncasecmp(key, *b, klen))
			return snprintf(out, cap, "%.*s %.*s", (int)x->outer_len, x->outer, (int)klen,
			                key) < (int)cap;
	return snprintf(out, cap, "%.*s", (int)klen, key) < (int)cap;
}

/* A number parameter. "floor": 3, "dock": 2 — a number names a thing
 * only with its key's word ("floor 3") in a role the key has; any other
 * top-level number ("books": 31, "weight_kg": 18.5) is a word of the
 * action in its key's words ("books 31"): what "how many books", "how
 * much did they weigh" and "which floor" are answered from. */
static void walk_number(xctx *x, const msgpack_object *o, const char *key, size_t klen,
                        int depth)
{
	char num[40], nk[96];
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
	int slot = fx_role_slot(role);
	int small = o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 < 100000;
	if (slot >= 0 && slot != FS_TEXT && small && fx_one_word(key, klen))
		fx_set_named(x->act, slot, key, klen, num, (size_t)len);
	else if (slot < 0 && depth == 1 && klen <= 40)
		fx_add_other(x->act, key, klen, num, (size_t)len);
	else if (slot < 0 && nested_key(x, depth, key, klen, nk, sizeof nk))
		fx_add_other(x->act, nk, strlen(nk), num, (size_t)len);
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
	*role = fx_positional_role(x->act->cls, x->pos++, x->npos);
	/* ("CollectPassenger(SSR-1104, 'Mrs Ingrid Bauer', check-in 14)": a
	 * person present is who it was with) */
	if ((*role == R_SOURCE || *role == R_DEST) && fx_names_person(x->sc, p, n))
		*role = R_WHO;
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

/* Is every element of the array o a key/value pair (fx_kv_pair)? */
static int kv_list(const msgpack_object *o)
{
	if (!o->via.array.size)
		return 0;
	for (uint32_t i = 0; i < o->via.array.size; i++) {
		const msgpack_object *v;
		const char *k;
		size_t kl;
		if (!fx_kv_pair(&o->via.array.ptr[i], &v, &k, &kl))
			return 0;
	}
	return 1;
}

static void walk_args(xctx *x, const msgpack_object *o, const char *key, size_t klen,
                      int depth);

/* An array parameter: a map written as a list of pairs ([{"key":
 * "module", "value": "Cupola"}, ...], ROS's KeyValue; [["rig", "Engine
 * 9"], ...]), else a list whose length counts ({"tables": [1, 2, 3, 4, 5,
 * 6]}: six tables) and whose items are walked. */
static void walk_array(xctx *x, const msgpack_object *o, const char *key, size_t klen,
                       int depth)
{
	if (kv_list(o)) {
		for (uint32_t i = 0; i < o->via.array.size; i++) {
			const msgpack_object *v;
			const char *k;
			size_t kl;
			fx_kv_pair(&o->via.array.ptr[i], &v, &k, &kl);
			walk_args(x, v, k, kl, depth + 1);
		}
		return;
	}
	if (key && depth == 1 && x->pass == 1 && o->via.array.size >= 2) {
		char num[16];
		int len = snprintf(num, sizeof num, "%u", (unsigned)o->via.array.size);
		fx_add_other(x->act, key, klen, num, (size_t)len);
	}
	for (uint32_t i = 0; i < o->via.array.size && i < 8; i++)
		walk_args(x, &o->via.array.ptr[i], key, klen, depth + 1);
}

/* A string parameter: a keyed text in the short form, or a value whose
 * role its key (or a guess) gives, else a word of the action. */
static void walk_string(xctx *x, const msgpack_object *o, const char *key, size_t klen,
                        int depth)
{
	const char *p = o->via.str.ptr;
	size_t n = o->via.str.size;
	if (!n || n > 4096)
		return;
	/* "fly.check(lineset=12, load=lantern drop)": a keyed argument
	 * written in the short form */
	size_t kl = key ? 0 : fx_keyed_text(p, n);
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
		if (role == R_NONE && fx_names_seen_object(x->sc, p, n))
			role = R_OBJECT;
		if (role == R_NONE && fx_key_in_name(x->sc->action, key, klen))
			role = R_OBJECT; /* PickTote {tote: "T-118"} */
		if (role == R_NONE && fx_person_named(x->sc->action, key, klen))
			role = R_WHO;
		/* "for=Olivia Grant": whom it was for */
		if (role == R_NONE && fx_recipient_key(key, klen) &&
		    (fx_names_person(x->sc, p, n) || fx_looks_like_name(p, n)))
			role = R_WHO;
		/* {"with": "Nico"}, with Nico Ferreira present: a person */
		if (role == R_NONE && depth == 1 && fx_names_person(x->sc, p, n))
			role = R_WHO;
	} else if (x->pass == 1 || positional_arg(x, p, n, depth, &role)) {
		return;
	}
	/* (also "with": a person present is no instrument) */
	if ((role == R_DEST || role == R_PLACE || role == R_SOURCE || role == R_INSTR) && key &&
	    fx_names_person(x->sc, p, n))
		role = R_WHO;
	int slot = fx_role_slot(role);
	char nk[96];
	if (key && x->pass == 1 && p[0] != '<' && n <= 40 && slot < 0 &&
	    nested_key(x, depth, key, klen, nk, sizeof nk)) {
		fx_add_other(x->act, nk, strlen(nk), p, n); /* "serial S6KN0R512" */
		return;
	}
	/* a top-level parameter with no role of its own ("order": "order
	 * 5541") or whose slot is taken is still a word of the action */
	if (key && x->pass == 1 && depth == 1 && p[0] != '<' &&
	    (n <= 40 || (n <= 120 && fact_reason_key(key, klen))) &&
	    (slot < 0 || x->act->s[slot])) {
		/* "water {plant: fern}": a bare verb's first parameter with
		 * no role of its own is what it was done to */
		if (slot < 0 && x->bare && !x->act->s[FS_OBJ])
			fact_set(x->act, FS_OBJ, p, n);
		fx_add_other(x->act, key, klen, p, n);
		return;
	}
	/* a second parameter of a role already filled ("dish": "soup",
	 * "meal": "lunch") is still a word of the action, in its key's
	 * words ("meal lunch") */
	if (key && slot == FS_OBJ && x->act->s[slot] && depth == 1 &&
	    p[0] != '<' && n <= 40) {
		fx_add_other(x->act, key, klen, p, n);
		return;
	}
	/* "<Resolved according to 'locationName'>" and the like say nothing */
	if (slot >= 0 && p[0] != '<') {
		if (key && slot != FS_TEXT && slot != FS_WHO)
			fx_set_named(x->act, slot, key, klen, p, n);
		else
			fact_set(x->act, slot, p, n);
		/* a place a parameter names ("shelf B3") tells one run from
		 * another, unlike the rooms a run passes through: it is kept
		 * with the other parameters too, which equal actions share */
		if (slot == FS_PLACE && key && x->pass == 0 && n <= 40)
			fx_add_other(x->act, key, klen, p, n);
	}
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
		int flat = nm || (thing && (fact_reason_child(o) || fx_all_numbers(o)));
		if (nm)
			walk_args(x, nm, key, klen, depth);
		const char *outer = x->outer;
		size_t outer_len = x->outer_len;
		if (thing && !flat) { /* {"target": {"rack": "C11", "u": "30-31"}} */
			x->outer = key;
			x->outer_len = klen;
		}
		for (uint32_t i = 0; i < o->via.map.size; i++) {
			const msgpack_object_kv *kv = &o->via.map.ptr[i];
			if (kv->key.type != MSGPACK_OBJECT_STR || &kv->val == nm)
				continue;
			walk_args(x, &kv->val, kv->key.via.str.ptr, kv->key.via.str.size,
			          flat ? depth : depth + 1);
		}
		x->outer = outer;
		x->outer_len = outer_len;
		return;
	}
	case MSGPACK_OBJECT_ARRAY:
		walk_array(x, o, key, klen, depth);
		return;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		if (key && x->pass == 1)
			walk_number(x, o, key, klen, depth);
		return;
	case MSGPACK_OBJECT_STR:
		walk_string(x, o, key, klen, depth);
		return;
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
	xctx x = { s, prof, sk, f, 0, 0, 0, !(sk && (sk->verb || sk->object)), NULL, 0 };
	for (uint32_t i = 0; s->args_obj && s->args_obj->type == MSGPACK_OBJECT_ARRAY &&
	                     i < s->args_obj->via.array.size; i++) {
		const msgpack_object *a = &s->args_obj->via.array.ptr[i];
		x.npos += a->type == MSGPACK_OBJECT_STR && a->via.str.size &&
		          strspn(a->via.str.ptr, "0123456789.") < a->via.str.size;
	}
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
	/* "Escort(SSR-1201, gate F04, arrivals hall)" with one passenger
	 * listed: the escort was of that person ("where did you take Chen
	 * Li"; only an escort: a person present at other work is no part of
	 * it) */
	const char *only = NULL;
	size_t others = 0;
	for (size_t p = 0; f->cls == LC_FOLLOW && !f->s[FS_WHO] && p < s->n_persons; p++)
		if (!profile_is_self(prof, s->persons[p]))
			only = s->persons[p], others++;
	if (others == 1 && fact_sets(f, FS_WHO, only))
		return H2EMV_ENOMEM;
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

/* Whom words were said to: the people present on the line besides the
 * speaker (up to three), into the speech fact's FS_WHO ("what did you
 * tell Gloria" finds what the robot said with Gloria there). ENOMEM. */
static int audience(fact *f, const scene *s, const char *speaker)
{
	char to[200] = "";
	size_t n = 0, k = 0;
	for (size_t i = 0; i < s->n_persons && k < 3; i++) {
		const char *p = s->persons[i];
		if (speaker && lex_same_person(p, speaker, strlen(speaker)))
			continue;
		int w = snprintf(to + n, sizeof to - n, "%s%s", k ? ", " : "", p);
		if (w < 0 || (size_t)w >= sizeof to - n)
			break;
		n += (size_t)w, k++;
	}
	return k && fact_sets(f, FS_WHO, to) ? -1 : 0;
}

/* The person present a speaker called by role stands for: the one whose
 * id is the role ({name: Jules Okoye, id: props} for "Props"), or, for a
 * visitor's role (customer, caller, guest...), the only person present
 * besides the robot. NULL when the speaker is a name, or no one or more
 * than one person fits. */
static const char *speaker_person(const scene *s, const robot_profile *prof, const char *speaker)
{
	static const char *const roles[] = { "customer", "client", "visitor", "guest", "caller",
		                                 "owner", "patron", "passenger", "resident", NULL };
	if (!speaker || !*speaker || profile_is_self(prof, speaker))
		return NULL;
	for (size_t i = 0; i < s->n_persons; i++)
		if (lex_same_person(s->persons[i], speaker, strlen(speaker)))
			return NULL; /* a name of someone present */
	for (size_t i = 0; s->person_ids && i < s->n_persons; i++)
		if (s->person_ids[i] && !strcasecmp(s->person_ids[i], speaker) &&
		    strcasecmp(s->persons[i], speaker))
			return s->persons[i];
	int role = 0;
	for (const char *const *r = roles; *r && !role; r++)
		role = !strcasecmp(speaker, *r);
	const char *only = NULL;
	size_t n = 0;
	for (size_t i = 0; role && i < s->n_persons; i++)
		if (!profile_is_self(prof, s->persons[i]))
			only = s->persons[i], n++;
	return n == 1 ? only : NULL;
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
		/* a speaker called by role ("Props", "customer"): the person
		 * present it names, the role kept beside the words */
		const char *who = speaker_person(s, prof, u->speaker);
		fact_sets(f, FS_NAME, who ? who : u->speaker);
		if (who)
			fact_sets(f, FS_STATE, u->speaker);
		fact_sets(f, FS_TEXT, u->text);
		fact_sets(f, FS_PLACE, s->location);
		if (audience(f, s, who ? who : u->speaker))
			return H2EMV_ENOMEM;
		if (!who && u->speaker && !profile_is_self(prof, u->speaker) &&
		    strcasecmp(u->speaker, "user")) {
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
