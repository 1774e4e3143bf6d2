/*
 * emv_answer.c — answer sentences read from one goal or event block
 * (docs/tree.md): where something went, what was seen, which object was
 * moved, who was there, what was said, which steps were taken. Answers use
 * the upstream evaluation's shapes ("At the countertop.", "The knife.") so
 * a deterministic judge can compare them.
 */
#include <string.h>

#include "api/emv.h"

static void put(pr_str *b, const char *s, size_t n)
{
	pr_str_add(b, s, n);
}

static void puts_(pr_str *b, const char *s)
{
	pr_str_adds(b, s);
}

static int done(pr_str *b)
{
	(void)b;
	return 1;
}

static int span_eq(emv_span a, emv_span b)
{
	if (a.n != b.n)
		return 0;
	for (size_t i = 0; i < a.n; i++) {
		char x = a.p[i], y = b.p[i];
		x = x >= 'A' && x <= 'Z' ? (char)(x - 'A' + 'a') : x;
		y = y >= 'A' && y <= 'Z' ? (char)(y - 'A' + 'a') : y;
		if (x != y)
			return 0;
	}
	return 1;
}

/* The type of object `id` from the block's Objects lines, else its name. */
static size_t type_of(char *out, size_t cap, const char *t, size_t n, emv_span id)
{
	size_t pos = 0;
	emv_span line;
	while (emv_line(t, n, &pos, "Objects: ", &line)) {
		size_t p = 0;
		emv_span item;
		emv_object o;
		while (emv_split(line, &p, ", ", &item))
			if (emv_object_parse(item, &o) && o.type.n && span_eq(o.id, id))
				return emv_place_name(out, cap, o.type);
	}
	return emv_place_name(out, cap, id);
}

static int say_place(pr_str *b, emv_span where)
{
	char name[128];
	if (!emv_place_name(name, sizeof name, where))
		return 0;
	puts_(b, "At the ");
	puts_(b, name);
	puts_(b, ".");
	return done(b);
}

/* Where the relations of the block put the thing asked about. */
static int related_place(const char *t, size_t n, const emv_question *q, emv_span *to)
{
	int found = 0;
	size_t pos = 0;
	emv_span line;
	while (emv_line(t, n, &pos, "Relations: ", &line)) {
		size_t p = 0;
		emv_span item;
		emv_relation r;
		while (emv_split(line, &p, "; ", &item))
			if (emv_relation_parse(item, &r) && emv_mentions(r.from.p, r.from.n, q->ent, q->n_ent)) {
				*to = r.to;
				found = 1;
			}
	}
	return found;
}

/* In free text, the place named after the thing in the sentence that
 * mentions it: "I placed the red mug next to the sofa." -> "sofa". */
static int free_place(const char *t, size_t n, const emv_question *q, emv_span *to)
{
	static const char *const preps[] = { " next to the ", " into the ", " onto the ",
		" inside the ", " on the ", " in the ", " at the ", " to the ", " under the ", NULL };
	for (size_t s0 = 0; s0 < n;) {
		const char *dot = memchr(t + s0, '.', n - s0);
		size_t s1 = dot ? (size_t)(dot - t) : n;
		if (emv_mentions(t + s0, s1 - s0, q->ent, q->n_ent)) {
			size_t best = s1;
			const char *bp = NULL;
			for (size_t i = 0; preps[i]; i++) {
				const char *p = memmem(t + s0, s1 - s0, preps[i], strlen(preps[i]));
				if (p && (size_t)(p - t) < best && emv_mentions(t + s0, (size_t)(p - t) - s0,
				                                                 q->ent, q->n_ent)) {
					best = (size_t)(p - t);
					bp = preps[i];
				}
			}
			if (bp) {
				size_t a = best + strlen(bp), e = a;
				while (e < s1 && t[e] != ',' && t[e] != ';' &&
				       strncmp(t + e, " and ", 5) && strncmp(t + e, " but ", 5) &&
				       strncmp(t + e, " after ", 7) && strncmp(t + e, " before ", 8) &&
				       strncmp(t + e, " while ", 7))
					e++;
				to->p = t + a;
				to->n = e - a;
				return e > a;
			}
		}
		s0 = s1 + 1;
	}
	return 0;
}

int emv_say_where(pr_str *b, const char *t, size_t n, const emv_question *q)
{
	emv_action hit;
	emv_span to;
	int last = q->order != QO_FIRST;
	if (q->act >= ACT_TRANSPORT && q->act <= ACT_TOGGLE) {
		if (emv_find_action(t, n, q, last, &hit) && emv_action_target(&hit, &to))
			return say_place(b, to);
		/* a pick-up has no destination: where the same object was put */
		emv_question put_q = *q;
		put_q.act = ACT_PUT;
		if (emv_find_action(t, n, &put_q, last, &hit) && emv_action_target(&hit, &to))
			return say_place(b, to);
	}
	if (q->n_ent && related_place(t, n, q, &to))
		return say_place(b, to);
	size_t pos = 0;
	if (emv_line(t, n, &pos, "Location: ", &to))
		return say_place(b, to);
	if (q->n_ent && free_place(t, n, q, &to))
		return say_place(b, to);
	return 0;
}

/* Is object `id` in / on the question's place by the block's relations? */
static int at_place(const char *t, size_t n, emv_span id, const emv_question *q)
{
	size_t pos = 0;
	emv_span line;
	while (emv_line(t, n, &pos, "Relations: ", &line)) {
		size_t p = 0;
		emv_span item;
		emv_relation r;
		while (emv_split(line, &p, "; ", &item))
			if (emv_relation_parse(item, &r) && span_eq(r.from, id) &&
			    emv_mentions(r.to.p, r.to.n, q->place, q->n_place))
				return 1;
	}
	return 0;
}

/* Append "the x" items joined as "the a, the b and the c". */
static void add_listed(pr_str *b, const pr_str *names, const char *article)
{
	size_t count = 0;
	for (size_t i = 0; i < names->len; i += strlen(names->s + i) + 1)
		count++;
	size_t k = 0;
	for (size_t i = 0; i < names->len; i += strlen(names->s + i) + 1, k++) {
		if (k)
			puts_(b, k + 1 == count ? " and " : ", ");
		puts_(b, article);
		puts_(b, names->s + i);
	}
}

/* Add a NUL-terminated name to a list unless it is there. */
static void list_add(pr_str *list, const char *s, size_t n)
{
	for (size_t i = 0; i < list->len; i += strlen(list->s + i) + 1)
		if (strlen(list->s + i) == n &&
		    !memcmp(list->s + i, s, n))
			return;
	pr_str_add(list, s, n);
	pr_str_add(list, "", 1);
}

int emv_say_objects(pr_str *b, const char *t, size_t n, const emv_question *q)
{
	pr_str types = { 0 };
	emv_span line = { NULL, 0 }, v;
	size_t pos = 0;
	while (emv_line(t, n, &pos, "Objects: ", &v))
		line = v; /* the last scene's */
	size_t p = 0;
	emv_span item;
	emv_object o;
	while (line.p && emv_split(line, &p, ", ", &item)) {
		if (!emv_object_parse(item, &o) || (q->n_place && !at_place(t, n, o.id, q)))
			continue;
		char name[128];
		size_t len = emv_place_name(name, sizeof name, o.type.n ? o.type : o.id);
		if (len)
			list_add(&types, name, len);
	}
	int rc = 0;
	if (types.len) {
		puts_(b, "I saw ");
		add_listed(b, &types, "the ");
		puts_(b, ".");
		rc = done(b);
	}
	b->oom |= types.oom;
	pr_str_free(&types);
	return rc;
}

int emv_say_which(pr_str *b, const char *t, size_t n, const emv_question *q)
{
	emv_action hit;
	emv_span obj;
	char name[128];
	size_t len = 0;
	if (q->act >= ACT_TRANSPORT && q->act <= ACT_TOGGLE &&
	    emv_find_action(t, n, q, q->order != QO_FIRST, &hit) && emv_action_object(&hit, &obj))
		len = type_of(name, sizeof name, t, n, obj);
	if (!len && q->n_place) {
		size_t pos = 0;
		emv_span line, item;
		emv_relation r;
		while (!len && emv_line(t, n, &pos, "Relations: ", &line))
			for (size_t p = 0; !len && emv_split(line, &p, "; ", &item);)
				if (emv_relation_parse(item, &r) &&
				    emv_mentions(r.to.p, r.to.n, q->place, q->n_place))
					len = type_of(name, sizeof name, t, n, r.from);
	}
	if (!len)
		return 0;
	puts_(b, "The ");
	puts_(b, name);
	puts_(b, ".");
	return done(b);
}

int emv_say_said(pr_str *b, const char *t, size_t n, const emv_question *q)
{
	emv_utterance best;
	int found = 0;
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
		if (!found || q->order != QO_FIRST)
			best = u;
		found = 1;
	}
	if (!found)
		return 0;
	if (best.speaker.n) {
		put(b, best.speaker.p, best.speaker.n);
		puts_(b, " said: \"");
	} else {
		puts_(b, "I heard: \"");
	}
	put(b, best.text.p, best.text.n);
	puts_(b, "\"");
	return done(b);
}

/* "place the knife at the countertop" */
static void say_step(pr_str *b, const emv_action *a, const char *t, size_t n, int first)
{
	char name[128];
	size_t len = 0;
	for (size_t i = 0; i < a->name.n && len + 1 < sizeof name; i++) {
		char c = a->name.p[i];
		name[len++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	if (first && len && name[0] >= 'a' && name[0] <= 'z')
		name[0] = (char)(name[0] - 'a' + 'A');
	put(b, name, len);
	emv_span obj, to;
	if (emv_action_object(a, &obj) && (len = type_of(name, sizeof name, t, n, obj))) {
		puts_(b, " the ");
		put(b, name, len);
	}
	if (emv_action_target(a, &to) && (len = emv_place_name(name, sizeof name, to))) {
		puts_(b, " at the ");
		put(b, name, len);
	}
}

int emv_say_steps(pr_str *b, const char *t, size_t n, const emv_question *q)
{
	(void)q;
	size_t steps = 0;
	static const char *const labels[] = { "Actions: ", "Action: " };
	for (int l = 0; l < 2 && !steps; l++) {
		size_t pos = 0;
		emv_span line, item;
		while (emv_line(t, n, &pos, labels[l], &line))
			for (size_t p = 0; emv_split(line, &p, "; ", &item);) {
				emv_action a;
				if (!emv_action_parse(item, &a) || a.nested || emv_span_is(a.name, "none"))
					continue;
				if (steps++)
					puts_(b, ", ");
				say_step(b, &a, t, n, steps == 1);
			}
	}
	if (!steps)
		return 0;
	puts_(b, ".");
	return done(b);
}

int emv_names_add(pr_str *names, const char *t, size_t n, const emv_question *q)
{
	size_t before = names->len, pos = 0;
	emv_span v, item;
	if (q->act != ACT_SAY)
		while (emv_line(t, n, &pos, "Persons: ", &v))
			for (size_t p = 0; emv_split(v, &p, ", ", &item);)
				if (item.n && !emv_no_name(item))
					list_add(names, item.p, item.n);
	pos = 0;
	while (emv_line(t, n, &pos, "Speech: ", &v)) {
		emv_utterance u;
		if (emv_utterance_parse(v, &u) && u.speaker.n && !emv_no_name(u.speaker) &&
		    (!q->n_ent || emv_mentions(u.text.p, u.text.n, q->ent, q->n_ent)))
			list_add(names, u.speaker.p, u.speaker.n);
	}
	return names->len > before;
}

int emv_say_names(pr_str *b, const pr_str *names)
{
	if (!names->len)
		return 0;
	add_listed(b, names, "");
	puts_(b, ".");
	return done(b);
}
