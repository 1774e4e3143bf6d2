/*
 * emv_match.c — which node texts answer a question that emv_question.c has
 * read: the action classes (the names an action goes by, how free text
 * says it, the argument keys of its object and its place), and matching
 * goal and event blocks line by line (docs/tree.md) and higher summaries
 * as plain text.
 */
#include <string.h>

#include "api/emv.h"

/* ----------------------------------------------------- the action classes -- */

static const char *const n_transport[] = { "pickup", "pick", "grasp", "grab", "take", "lift",
	"place", "put", "transport", "carry", "bring", "move", "handover", "give", "deliver",
	"drop", "store", "stow", "insert", NULL };
static const char *const n_put[] = { "place", "put", "transport", "carry", "bring", "move",
	"handover", "give", "deliver", "drop", "store", "stow", "insert", "hang", NULL };
static const char *const n_pickup[] = { "pickup", "pick", "grasp", "grab", "take", "lift",
	NULL };
static const char *const n_slice[] = { "slice", "cut", "chop", NULL };
static const char *const n_cook[] = { "cook", "heat", "toast", "boil", "fry", "bake",
	"microwave", "roast", NULL };
static const char *const n_clean[] = { "clean", "wash", "rinse", "wipe", "scrub", NULL };
static const char *const n_water[] = { "water", "pour", NULL };
static const char *const n_pour[] = { "pour", "fill", NULL };
static const char *const n_open[] = { "open", NULL };
static const char *const n_close[] = { "close", NULL };
static const char *const n_toggle[] = { "toggle", "turnon", "turnoff", "switchon",
	"switchoff", NULL };

/* How free text says each action ("I placed the red mug ..."). */
static const char *const act_verbs[ACT_COUNT] = {
	[ACT_TRANSPORT] = "transport bring brought carry move place put took take pick grasp "
	                  "hand deliver",
	[ACT_PUT] = "place put transport bring brought carry move store stow drop hand leave "
	            "left deliver",
	[ACT_PICKUP] = "pick grasp grab take took lift",
	[ACT_SLICE] = "slice cut chop", [ACT_COOK] = "cook heat toast boil fry fried bake",
	[ACT_CLEAN] = "clean wash rinse wipe scrub", [ACT_WATER] = "water pour poured",
	[ACT_POUR] = "pour poured fill", [ACT_OPEN] = "open", [ACT_CLOSE] = "close",
	[ACT_TOGGLE] = "turn switch toggle", [ACT_MEET] = "met meet greet talk spoke visit",
	[ACT_SAY] = "said say told tell ask asked heard",
};

static const char *const *const act_names[ACT_COUNT] = {
	[ACT_TRANSPORT] = n_transport, [ACT_PUT] = n_put, [ACT_PICKUP] = n_pickup,
	[ACT_SLICE] = n_slice, [ACT_COOK] = n_cook, [ACT_CLEAN] = n_clean,
	[ACT_WATER] = n_water, [ACT_POUR] = n_pour, [ACT_OPEN] = n_open,
	[ACT_CLOSE] = n_close, [ACT_TOGGLE] = n_toggle,
};

/* Argument keys naming the object acted on, and the place it went to. */
static const char *const k_object[] = { "object", "obj", "item", "what", "thing", "held",
	"objectid", NULL };
static const char *const k_target[] = { "target", "to", "destination", "dest",
	"receptacle", "location", "place", "where", "on", "in", "into", "surface", "container",
	NULL };

int emv_action_in(const emv_action *a, int act)
{
	return act > ACT_NONE && act < ACT_COUNT && act_names[act] &&
	       emv_action_is(a, act_names[act]);
}

int emv_action_object(const emv_action *a, emv_span *out)
{
	return emv_action_arg(a, k_object, 0, out);
}

int emv_action_target(const emv_action *a, emv_span *out)
{
	return emv_action_arg(a, k_target, 1, out);
}

/* ------------------------------------------------------------- matching -- */

static int failed(const emv_action *a)
{
	return emv_span_is(a->status, "failed") || emv_span_is(a->status, "aborted");
}

/* Does action `a` do what the question asks (class, object, place)? */
static int action_matches(const emv_action *a, const emv_question *q)
{
	if (a->nested || failed(a) || !emv_action_in(a, q->act))
		return 0;
	emv_span obj;
	int have = emv_action_object(a, &obj);
	/* moving things needs a thing: MoveTo(target=sink) is walking */
	if (!have && (q->act == ACT_TRANSPORT || q->act == ACT_PUT || q->act == ACT_PICKUP))
		return 0;
	if (q->n_ent) {
		if (!emv_mentions(have ? obj.p : a->args.p, have ? obj.n : a->args.n, q->ent,
		                  q->n_ent))
			return 0;
	}
	if (q->n_place && (q->act == ACT_TRANSPORT || q->act == ACT_PUT)) {
		emv_span to;
		if (!emv_action_target(a, &to) || !emv_mentions(to.p, to.n, q->place, q->n_place))
			return 0;
	}
	return 1;
}

int emv_find_action(const char *t, size_t n, const emv_question *q, int last, emv_action *hit)
{
	static const char *const labels[] = { "Action: ", "Actions: ", "Goal: " };
	int found = 0;
	for (int l = 0; l < 3; l++) {
		size_t pos = 0;
		emv_span line;
		while (emv_line(t, n, &pos, labels[l], &line)) {
			size_t p = 0;
			emv_span item;
			while (emv_split(line, &p, "; ", &item)) {
				emv_action a;
				if (!emv_action_parse(item, &a) || !action_matches(&a, q))
					continue;
				if (!found || last)
					*hit = a;
				found = 1;
				if (!last)
					return 1;
			}
		}
		if (found)
			break; /* a goal's Goal line repeats what its Actions list */
	}
	return found;
}

static int line_mentions(const char *t, size_t n, const char *label, const emv_term *x,
                         size_t k)
{
	size_t pos = 0;
	emv_span v;
	while (emv_line(t, n, &pos, label, &v))
		if (emv_mentions(v.p, v.n, x, k))
			return 1;
	return 0;
}

/* Someone was there — the person asked about, when the question names one. */
static int person_matches(const char *t, size_t n, const emv_question *q)
{
	if (line_mentions(t, n, "Persons: ", q->person, q->n_person))
		return 1;
	size_t pos = 0;
	emv_span v;
	while (emv_line(t, n, &pos, "Speech: ", &v)) {
		emv_utterance u;
		if (emv_utterance_parse(v, &u) && u.speaker.n && !emv_no_name(u.speaker) &&
		    emv_mentions(u.speaker.p, u.speaker.n, q->person, q->n_person))
			return 1;
	}
	return 0;
}

static int speech_matches(const char *t, size_t n, const emv_question *q)
{
	size_t pos = 0;
	emv_span v;
	while (emv_line(t, n, &pos, "Speech: ", &v)) {
		emv_utterance u;
		if (!emv_utterance_parse(v, &u))
			continue;
		if (q->n_person &&
		    (!u.speaker.n || !emv_mentions(u.speaker.p, u.speaker.n, q->person, q->n_person)))
			continue;
		if (q->n_ent && !emv_mentions(u.text.p, u.text.n, q->ent, q->n_ent))
			continue;
		return 1;
	}
	return 0;
}

/* Is the text a block of docs/tree.md, or free text (an llm's summary)? */
static int structured(const char *t, size_t n)
{
	static const char *const labels[] = { "Goal: ", "Action: ", "Actions: ", "Objects: ",
		"Persons: ", "Speech: ", "Location: ", NULL };
	for (size_t i = 0; labels[i]; i++) {
		size_t pos = 0;
		emv_span v;
		if (emv_line(t, n, &pos, labels[i], &v))
			return 1;
	}
	return 0;
}

/* Free text answers when it names the thing, the person and the place,
 * and says the action with one of its verbs. */
static int free_text_matches(const char *t, size_t n, const emv_question *q)
{
	if (!emv_mentions(t, n, q->ent, q->n_ent) || !emv_mentions(t, n, q->person, q->n_person) ||
	    !emv_mentions(t, n, q->place, q->n_place))
		return 0;
	if (!q->n_ent && !q->n_person && !q->n_place)
		return 0;
	const char *says = q->act > ACT_NONE && q->act < ACT_COUNT ? act_verbs[q->act] : NULL;
	if (!says)
		return 1;
	emv_term v[16];
	size_t k = emv_terms(v, 16, says, strlen(says));
	return emv_count_terms(t, n, v, k) > 0;
}

int emv_block_matches(const char *t, size_t n, const emv_question *q)
{
	int ok;
	if (!structured(t, n))
		return free_text_matches(t, n, q);
	if (q->act >= ACT_TRANSPORT && q->act <= ACT_TOGGLE) {
		emv_action hit;
		ok = emv_find_action(t, n, q, 0, &hit);
	} else if (q->act == ACT_SAY) {
		ok = speech_matches(t, n, q);
	} else if (q->act == ACT_MEET || q->kind == QK_WHO) {
		ok = person_matches(t, n, q) && emv_mentions(t, n, q->ent, q->n_ent);
	} else if (q->act == ACT_SEE) {
		if (q->n_person)
			ok = person_matches(t, n, q) && emv_mentions(t, n, q->ent, q->n_ent);
		else
			ok = q->n_ent ? line_mentions(t, n, "Objects: ", q->ent, q->n_ent)
			              : line_mentions(t, n, "Objects: ", NULL, 0);
	} else {
		ok = emv_mentions(t, n, q->ent, q->n_ent) &&
		     (!q->n_person || person_matches(t, n, q));
	}
	if (ok && q->n_place && q->act != ACT_TRANSPORT && q->act != ACT_PUT &&
	    q->kind != QK_OBJECTS)
		ok = emv_mentions(t, n, q->place, q->n_place);
	return ok;
}

int emv_summary_matches(const char *t, size_t n, const emv_question *q)
{
	if (q->n_ent)
		return emv_mentions(t, n, q->ent, q->n_ent) &&
		       (!q->n_person || emv_mentions(t, n, q->person, q->n_person));
	if (q->n_person)
		return emv_mentions(t, n, q->person, q->n_person);
	if (q->n_place)
		return emv_mentions(t, n, q->place, q->n_place);
	return 1;
}
