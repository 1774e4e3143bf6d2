/*
 * builtin_digest.c — reads a node's text (a scene/event/goal block of
 * docs/tree.md, a builtin summary, or free text) into a bi_digest: the
 * labels, objects, places, persons and speech a summary keeps, and the
 * actions with their objects that relevance matches rules against.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"

#define MAX_ARGS 4      /* objects (and targets) read per action */
#define PHRASE_OBJS 4   /* objects named in one label */
#define MAX_OBJECTS 256 /* objects read from one block's Objects line */

static void add_words(bi_digest *d, bi_span s)
{
	if (!d->lists_only)
		bi_words_of(&d->words, s.p, s.n);
}

/* ------------------------------------------------------ objects, types -- */

typedef struct typed {
	bi_span id, type;
} typed;

typedef struct types {
	typed *v;
	size_t n, cap;
} types;

static void types_add(types *t, bi_span id, bi_span type, bi_digest *d)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		typed *v = realloc(t->v, cap * sizeof *v);
		if (!v) {
			d->oom = 1;
			return;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n].id = id;
	t->v[t->n++].type = type;
}

static bi_span type_of(const types *t, bi_span id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].id.n == id.n && !memcmp(t->v[i].id.p, id.p, id.n))
			return t->v[i].type;
	return bi_mk(NULL, 0);
}

static int has_ci(bi_span hay, bi_span needle)
{
	if (!needle.n || needle.n > hay.n)
		return 0;
	for (size_t i = 0; i + needle.n <= hay.n; i++) {
		size_t k = 0;
		while (k < needle.n) {
			char a = hay.p[i + k], b = needle.p[k];
			if (a >= 'A' && a <= 'Z')
				a = (char)(a - 'A' + 'a');
			if (b >= 'A' && b <= 'Z')
				b = (char)(b - 'A' + 'a');
			if (a != b)
				break;
			k++;
		}
		if (k == needle.n)
			return 1;
	}
	return 0;
}

/* An object as a summary shows it: the id up to a '|' (TEACh's long ids),
 * preceded by its type when the id does not already say it. */
static void put_obj(pr_str *b, const types *t, bi_span id)
{
	bi_span shown = id;
	const char *bar = memchr(id.p, '|', id.n);
	if (bar)
		shown.n = (size_t)(bar - id.p);
	bi_span ty = type_of(t, id);
	if (ty.n && !has_ci(shown, ty)) {
		pr_str_add(b, ty.p, ty.n);
		pr_str_adds(b, " ");
	}
	pr_str_add(b, shown.p, shown.n);
}

/* "knife_0 (knife, clean), cup_1 (cup, dirty)" */
static void read_objects(bi_digest *d, types *t, bi_span v)
{
	bi_span part;
	while (t->n < MAX_OBJECTS && bi_next_part(&v, ", ", &part)) {
		part = bi_trim(part);
		const char *par = memchr(part.p, '(', part.n);
		bi_span id = bi_trim(bi_mk(part.p, par ? (size_t)(par - part.p) : part.n)), ty = { NULL, 0 };
		if (par) {
			bi_span in = bi_mk(par + 1, part.n - (size_t)(par + 1 - part.p));
			if (in.n && in.p[in.n - 1] == ')')
				in.n--;
			bi_next_part(&in, ", ", &ty);
			ty = bi_trim(ty);
		}
		if (id.n)
			types_add(t, id, ty, d);
	}
}

/* ------------------------------------------------------------- actions -- */

typedef struct action {
	bi_span name;
	int failed, nested;
	bi_span obj[MAX_ARGS], tgt[MAX_ARGS];
	size_t n_obj, n_tgt;
} action;

static int key_in(bi_span key, const char *const *set)
{
	for (size_t i = 0; set[i]; i++)
		if (strlen(set[i]) == key.n && !memcmp(set[i], key.p, key.n))
			return 1;
	return 0;
}

static int looks_like_id(bi_span v)
{
	if (!v.n || v.n > 64)
		return 0;
	char c = v.p[0];
	if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		return 0;
	for (size_t i = 0; i < v.n; i++)
		if (v.p[i] == ' ' || v.p[i] == '"')
			return 0;
	return !(v.n == 4 && !memcmp(v.p, "true", 4)) && !(v.n == 5 && !memcmp(v.p, "false", 5)) &&
	       !(v.n == 4 && !memcmp(v.p, "null", 4));
}

/* Add value `v` (maybe a list "[a, b]") to objects (0) or targets (1). */
static void take_value(action *a, bi_span v, int target)
{
	v = bi_trim(v);
	if (v.n >= 2 && v.p[0] == '[' && v.p[v.n - 1] == ']') {
		bi_span in = bi_mk(v.p + 1, v.n - 2), part;
		while (bi_next_part(&in, ",", &part))
			take_value(a, part, target);
		return;
	}
	if (!looks_like_id(v))
		return;
	if (target && a->n_tgt < MAX_ARGS)
		a->tgt[a->n_tgt++] = v;
	else if (!target && a->n_obj < MAX_ARGS)
		a->obj[a->n_obj++] = v;
}

/* "Place(object=knife_0, target=countertop_0) succeeded", "[Goal.Sub]",
 * "Pickup(Tomato_0)", "none". */
static void read_action(action *a, bi_span s)
{
	static const char *const obj_keys[] = { "object", "obj", "objects", "item", "items",
		                                    "what", "source", "from", "tool", "with", NULL };
	static const char *const tgt_keys[] = { "target", "to", "destination", "receptacle",
		                                    "where", "location", "container", "into", "onto",
		                                    "on", "in", NULL };
	memset(a, 0, sizeof *a);
	s = bi_trim(s);
	if (s.n >= 2 && s.p[0] == '[' && s.p[s.n - 1] == ']') {
		a->name = bi_trim(bi_mk(s.p + 1, s.n - 2));
		a->nested = 1;
		return;
	}
	const char *par = memchr(s.p, '(', s.n);
	bi_span after;
	if (!par) {
		const char *sp = memchr(s.p, ' ', s.n);
		a->name = bi_mk(s.p, sp ? (size_t)(sp - s.p) : s.n);
		after = sp ? bi_mk(sp, s.n - (size_t)(sp - s.p)) : bi_mk(s.p + s.n, 0);
	} else {
		a->name = bi_trim(bi_mk(s.p, (size_t)(par - s.p)));
		size_t i = (size_t)(par - s.p) + 1;
		int depth = 1, quote = 0;
		for (; i < s.n && depth; i++) {
			if (s.p[i] == '"')
				quote = !quote;
			else if (!quote && (s.p[i] == '(' || s.p[i] == '['))
				depth++;
			else if (!quote && (s.p[i] == ')' || s.p[i] == ']'))
				depth--;
		}
		bi_span args = bi_mk(par + 1, (size_t)(s.p + i - (par + 1)) - (depth ? 0 : 1)), part;
		after = bi_mk(s.p + i, s.n - i);
		size_t pos = 0;
		while (bi_next_part(&args, ",", &part)) {
			part = bi_trim(part);
			const char *eq = memchr(part.p, '=', part.n);
			const char *q = memchr(part.p, '"', part.n);
			if (eq && (!q || q > eq)) {
				bi_span key = bi_trim(bi_mk(part.p, (size_t)(eq - part.p)));
				const char *dot = NULL;
				for (size_t k = 0; k < key.n; k++)
					if (key.p[k] == '.')
						dot = key.p + k;
				if (dot)
					key = bi_mk(dot + 1, key.n - (size_t)(dot + 1 - key.p));
				bi_span val = bi_mk(eq + 1, part.n - (size_t)(eq + 1 - part.p));
				if (key_in(key, obj_keys))
					take_value(a, val, 0);
				else if (key_in(key, tgt_keys))
					take_value(a, val, 1);
			} else {
				if (pos < 2)
					take_value(a, part, pos == 1);
				pos++;
			}
		}
	}
	after = bi_trim(after);
	a->failed = bi_starts(after, "failed") || bi_starts(after, "aborted");
}

static void arg_words(bi_words *w, const types *t, bi_span id)
{
	bi_words_of(w, id.p, id.n);
	bi_span ty = type_of(t, id);
	if (ty.n)
		bi_words_of(w, ty.p, ty.n);
}

/* ------------------------------------------------------ structured text -- */

static int eq_ci(bi_span a, const char *b)
{
	return a.n == strlen(b) && has_ci(a, bi_mk(b, a.n));
}

/* A speaker is a person unless it is the robot itself (TEACh's "Driver",
 * ARMAR, "Robot", ...). */
static int is_personish_speaker(bi_span sp)
{
	static const char *const selves[] = { "robot", "driver", "agent", "assistant", "system",
		                                  "self", "me", "i", NULL };
	if (!sp.n || has_ci(bi_mk(sp.p, sp.n < 5 ? sp.n : 5), bi_mk("armar", 5)))
		return 0;
	for (size_t i = 0; selves[i]; i++)
		if (eq_ci(sp, selves[i]))
			return 0;
	return 1;
}

/* "10:03:40 Alice: \"text\"", "Alice: \"text\"" or "\"text\"". */
static void read_speech(bi_digest *d, bi_span v)
{
	d->n_speech++;
	v = bi_trim(v);
	if (v.n > 9 && v.p[2] == ':' && v.p[5] == ':' && v.p[8] == ' ')
		v = bi_trim(bi_mk(v.p + 9, v.n - 9));
	const char *q = memchr(v.p, '"', v.n);
	bi_span speaker = bi_mk(v.p, q ? (size_t)(q - v.p) : 0);
	speaker = bi_trim(speaker);
	if (speaker.n && speaker.p[speaker.n - 1] == ':')
		speaker = bi_trim(bi_mk(speaker.p, speaker.n - 1));
	if (is_personish_speaker(speaker))
		d->person = 1;
	add_words(d, v);
}

typedef struct block {
	bi_span goal, loc, persons, objects;
	bi_span acts[64];
	size_t n_acts;
} block;

/* One label: "Name (obj to tgt, obj)" from the actions' objects. */
static void add_label(bi_digest *d, const types *t, bi_span name, int failed, const action *acts,
                      size_t n)
{
	pr_str b = { 0 };
	pr_str_add(&b, name.p, name.n);
	if (failed && !bi_ends(name, "failed") && !bi_ends(name, "aborted"))
		pr_str_adds(&b, " failed");
	if (!memchr(name.p, '(', name.n)) {
		bi_span objs[PHRASE_OBJS], tgts[PHRASE_OBJS];
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < acts[i].n_obj; j++) {
				size_t m = 0;
				while (m < k && !(objs[m].n == acts[i].obj[j].n &&
				                  !memcmp(objs[m].p, acts[i].obj[j].p, objs[m].n)))
					m++;
				if (m == k && k < PHRASE_OBJS) {
					objs[k] = acts[i].obj[j];
					tgts[k++] = bi_mk(NULL, 0);
				}
				if (m < k && j == 0 && acts[i].n_tgt)
					tgts[m] = acts[i].tgt[0];
			}
		for (size_t m = 0; m < k; m++) {
			pr_str_adds(&b, m ? ", " : " (");
			put_obj(&b, t, objs[m]);
			if (tgts[m].n) {
				pr_str_adds(&b, " to ");
				put_obj(&b, t, tgts[m]);
			}
		}
		if (k)
			pr_str_adds(&b, ")");
	}
	if (b.oom)
		d->oom = 1;
	else if (b.s)
		bi_list_add(&d->labels, b.s, b.len, 1);
	pr_str_free(&b);
}

/* An Action:/Actions: line's items into k->acts (the "(3 earlier) " in
 * front of a long goal's list left out). */
static void read_action_line(block *k, bi_span line)
{
	bi_span v = bi_mk(line.p + (line.p[6] == ':' ? 8 : 9), 0);
	v.n = line.n - (size_t)(v.p - line.p);
	v = bi_trim(v);
	if (bi_starts(v, "(")) { /* "(3 earlier) " */
		const char *c = memchr(v.p, ')', v.n);
		if (c)
			v = bi_trim(bi_mk(c + 1, v.n - (size_t)(c + 1 - v.p)));
	}
	bi_span part;
	while (bi_next_part(&v, "; ", &part))
		if (k->n_acts < sizeof k->acts / sizeof *k->acts)
			k->acts[k->n_acts++] = bi_trim(part);
}

/* The block's lines: their words go to the digest, speech and objects are
 * read at once, the rest is kept in *k for the actions and labels. */
static void read_lines(bi_digest *d, block *k, types *t, const char *text)
{
	bi_span rest = bi_mk(text, strlen(text)), line;
	while (bi_next_part(&rest, "\n", &line)) {
		if (bi_starts(line, "Goal: ")) {
			k->goal = bi_trim(bi_mk(line.p + 6, line.n - 6));
			add_words(d, k->goal);
		} else if (bi_starts(line, "Action: ") || bi_starts(line, "Actions: ")) {
			read_action_line(k, line);
		} else if (bi_starts(line, "Location: ")) {
			k->loc = bi_trim(bi_mk(line.p + 10, line.n - 10));
			add_words(d, k->loc);
		} else if (bi_starts(line, "Persons: ")) {
			k->persons = bi_trim(bi_mk(line.p + 9, line.n - 9));
			add_words(d, k->persons);
		} else if (bi_starts(line, "Speech: ")) {
			read_speech(d, bi_mk(line.p + 8, line.n - 8));
		} else if (bi_starts(line, "Objects: ")) {
			k->objects = bi_trim(bi_mk(line.p + 9, line.n - 9));
			read_objects(d, t, k->objects);
			add_words(d, k->objects);
		} else {
			const char *c = memchr(line.p, ':', line.n);
			if (c && bi_starts(line, "Relations: "))
				add_words(d, bi_mk(c + 1, line.n - (size_t)(c + 1 - line.p)));
			else
				add_words(d, line);
		}
	}
}

/* Parse the block's actions into acts[] ("none" left out) and, unless the
 * digest keeps lists only, record each as an act with its objects' words
 * (also gathered in *all, for the goal's own act). Returns how many. */
static size_t read_acts(bi_digest *d, const types *t, const block *k, action *acts,
                        bi_words *all)
{
	size_t n = 0;
	for (size_t i = 0; i < k->n_acts; i++) {
		read_action(&acts[n], k->acts[i]);
		if (acts[n].name.n == 4 && !memcmp(acts[n].name.p, "none", 4))
			continue;
		if (d->lists_only) { /* the label needs the action, not its words */
			n++;
			continue;
		}
		bi_words w = { 0 };
		for (size_t j = 0; j < acts[n].n_obj; j++)
			arg_words(&w, t, acts[n].obj[j]);
		for (size_t j = 0; j < acts[n].n_tgt; j++)
			arg_words(&w, t, acts[n].tgt[j]);
		bi_words_of(&w, acts[n].name.p, acts[n].name.n);
		bi_digest_act(d, bi_families_of(acts[n].name.p, acts[n].name.n), &w);
		for (size_t j = 0; j < w.n; j++)
			bi_words_add(all, w.v[j], strlen(w.v[j]));
		bi_words_free(&w);
		add_words(d, k->acts[i]);
		n++;
	}
	return n;
}

/* The labels: a goal's name with all its actions' objects (and the goal
 * as an act of its own), else one label per action. */
static void add_labels(bi_digest *d, const types *t, const block *k, const action *acts,
                       size_t n, bi_words *all)
{
	if (k->goal.n) {
		bi_span g = k->goal;
		int failed = bi_ends(g, " failed") || bi_ends(g, " aborted");
		if (!d->lists_only) {
			bi_words_of(all, g.p, g.n);
			bi_digest_act(d, bi_families_of(g.p, g.n), all);
		}
		add_label(d, t, g, failed, acts, n);
	} else {
		for (size_t i = 0; i < n; i++)
			add_label(d, t, acts[i].name, acts[i].failed, &acts[i], 1);
	}
}

/* The block's place, persons and objects seen into the digest's lists. */
static void add_lists(bi_digest *d, const types *t, const block *k)
{
	if (k->loc.n)
		bi_list_add(&d->places, k->loc.p, k->loc.n, 1);
	bi_span v = k->persons, part;
	while (bi_next_part(&v, ", ", &part))
		if ((part = bi_trim(part)).n) {
			bi_list_add(&d->persons, part.p, part.n, 1);
			d->person = 1;
		}
	for (size_t i = 0; i < t->n; i++) {
		pr_str b = { 0 };
		put_obj(&b, t, t->v[i].id);
		if (b.s)
			bi_list_add(&d->seen, b.s, b.len, 1);
		d->oom |= b.oom;
		pr_str_free(&b);
	}
}

static void read_block(bi_digest *d, const char *text)
{
	block k;
	memset(&k, 0, sizeof k);
	types t = { 0 };
	read_lines(d, &k, &t, text);
	action *acts = calloc(k.n_acts ? k.n_acts : 1, sizeof *acts);
	if (!acts) {
		d->oom = 1;
		free(t.v);
		return;
	}
	bi_words all = { 0 };
	size_t n = read_acts(d, &t, &k, acts, &all);
	add_labels(d, &t, &k, acts, n, &all);
	d->oom |= all.oom;
	bi_words_free(&all);
	free(acts);
	add_lists(d, &t, &k);
	free(t.v);
}

/* -------------------------------------------------------------- digest -- */

static int is_block(const char *text)
{
	return !strncmp(text, "Goal: ", 6) || !strncmp(text, "Action: ", 8) ||
	       !strncmp(text, "Actions: ", 9) || strstr(text, "\nAction: ") ||
	       strstr(text, "\nActions: ") || strstr(text, "\nGoal: ");
}

void bi_digest_add(bi_digest *d, const char *text)
{
	if (!text || !*text)
		return;
	if (is_block(text)) {
		read_block(d, text);
	} else if (!strncmp(text, "I ", 2) && !strchr(text, '\n')) {
		bi_digest_sentences(d, text);
		add_words(d, bi_mk(text, strlen(text)));
	} else {
		/* free text: the first sentence is the note, all words count */
		const char *end = text;
		while (*end && *end != '\n' && !(end[0] == '.' && (end[1] == ' ' || !end[1])))
			end++;
		bi_digest_note(d, bi_mk(text, (size_t)(end - text)));
		add_words(d, bi_mk(text, strlen(text)));
		d->opaque = 1;
		if (!d->lists_only && (bi_families_of(text, strlen(text)) & BI_FAM_MEET))
			d->person = 1;
	}
	d->oom |= d->labels.oom | d->seen.oom | d->places.oom | d->persons.oom | d->notes.oom |
	          d->words.oom;
}

static void merge_list(bi_list *l, const bi_list *x)
{
	for (size_t i = 0; i < x->n; i++)
		bi_list_add_h(l, x->s[i], x->k[i].len, x->k[i].h, x->count[i]);
}

/* Exact because bi_digest_add only appends: a list entry new to `d` is
 * appended in the order the text first names it, one already there is
 * counted, and the counters add. */
void bi_digest_merge(bi_digest *d, const bi_digest *x)
{
	merge_list(&d->labels, &x->labels);
	merge_list(&d->seen, &x->seen);
	merge_list(&d->places, &x->places);
	merge_list(&d->persons, &x->persons);
	merge_list(&d->notes, &x->notes);
	d->n_speech += x->n_speech;
	d->more += x->more;
	d->person |= x->person;
	d->opaque |= x->opaque;
	d->oom |= x->oom | d->labels.oom | d->seen.oom | d->places.oom | d->persons.oom |
	          d->notes.oom;
}
