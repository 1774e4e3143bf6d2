/*
 * lex_say.c — saying what was done in words (lex.h): the past tense of a
 * verb phrase, and a robot's skill or task name as a phrase a person
 * reads ("ReceiveObjectFromHuman" -> "received object from human",
 * "Place(Mug_0, CoffeeMachine)" -> "placed the mug on the coffee machine").
 */
#include <stdio.h>
#include <string.h>

#include "api/base/lex.h"

void lex_past(char *out, size_t cap, const char *verb)
{
	static const char *const irregular[][2] = {
		{ "bring", "brought" }, { "put", "put" },     { "take", "took" },   { "give", "gave" },
		{ "go", "went" },       { "hold", "held" },   { "find", "found" },  { "make", "made" },
		{ "see", "saw" },       { "get", "got" },     { "leave", "left" },  { "cut", "cut" },
		{ "set", "set" },       { "throw", "threw" }, { "drive", "drove" }, { "lay", "laid" },
		{ "tell", "told" },     { "say", "said" },    { "meet", "met" },    { "buy", "bought" },
		{ "send", "sent" },     { "run", "ran" },     { "read", "read" },   { "shut", "shut" },
		{ "sell", "sold" },     { "ring", "rang" },   { "feed", "fed" },    { "hang", "hung" },
		{ "grab", "grabbed" },  { "drop", "dropped" }, { "stop", "stopped" }, { "chop", "chopped" },
		{ "mop", "mopped" },    { "wrap", "wrapped" }, { "scrub", "scrubbed" }, { "plan", "planned" },
		{ "tap", "tapped" },    { "slip", "slipped" }, { "ship", "shipped" }, { "stir", "stirred" },
		{ "teach", "taught" },  { "catch", "caught" }, { "seek", "sought" }, { "fit", "fitted" },
		{ "swap", "swapped" },  { "plug", "plugged" }, { "pour", "poured" }, { "do", "did" },
		{ "bleed", "bled" },    { "lead", "led" },     { "sweep", "swept" }, { "keep", "kept" },
		{ "spin", "spun" },     { "write", "wrote" },  { "ride", "rode" },  { "fly", "flew" },
		{ "draw", "drew" },     { "dig", "dug" },      { "build", "built" }, { "lend", "lent" },
		{ "spend", "spent" },   { "bend", "bent" },    { "sit", "sat" },    { "stand", "stood" },
		{ "wear", "wore" },     { "tear", "tore" },    { "shake", "shook" }, { "hide", "hid" },
		{ "lose", "lost" },     { "pay", "paid" },     { "light", "lit" },  { "hit", "hit" },
		{ "begin", "began" },   { "rip", "ripped" },   { "trim", "trimmed" }, { "pat", "patted" },
		{ "log", "logged" },    { "tag", "tagged" },   { "jog", "jogged" }, { "nod", "nodded" },
	};
	size_t w = strcspn(verb, " ");
	const char *rest = verb + w;
	for (size_t i = 0; i < sizeof irregular / sizeof *irregular; i++)
		if (strlen(irregular[i][0]) == w && !strncmp(verb, irregular[i][0], w)) {
			snprintf(out, cap, "%s%s", irregular[i][1], rest);
			return;
		}
	const char *end = "ed";
	size_t keep = w;
	if (w && verb[w - 1] == 'e')
		end = "d";
	else if (w > 1 && verb[w - 1] == 'y' && !strchr("aeiou", verb[w - 2]))
		keep--, end = "ied";
	snprintf(out, cap, "%.*s%s%s", (int)keep, verb, end, rest);
}

/* A particle glued to its verb in a name ("Pickup", "Putdown"). */
static int glued_particle(const char *s)
{
	static const char *const p[] = { "up", "down", "off", "on", "out", "in", "over" };
	for (size_t i = 0; i < sizeof p / sizeof *p; i++)
		if (!strcmp(s, p[i]))
			return 1;
	return 0;
}

/* A noun made of a verb ("introduction", "placement"): no verb itself. */
static int verbal_noun(const char *w)
{
	static const char *const end[] = { "tion", "sion", "ment", "ance", "ence", "ing" };
	size_t n = strlen(w);
	for (size_t i = 0; i < sizeof end / sizeof *end; i++) {
		size_t e = strlen(end[i]);
		if (n > e + 2 && !strcmp(w + n - e, end[i]))
			return 1;
	}
	return 0;
}

/* The verb of words w[0..k) in the past tense with its particle, into
 * out; how many words it took (0: the first word is no verb). */
static size_t past_verb(char *out, size_t cap, const lex_word *w, size_t k)
{
	int cls = LC_NONE;
	const char *lemma = k ? lex_lemma(w[0].stem, &cls) : NULL;
	out[0] = 0;
	if (!lemma || cls == LC_HOME || verbal_noun(w[0].w))
		return 0;
	size_t ll = strlen(lemma);
	char v[2 * LEX_WORD_MAX + 2];
	size_t took = 1;
	if (!strchr(lemma, ' ') && ll < strlen(w[0].w) && !strncmp(w[0].w, lemma, ll) &&
	    glued_particle(w[0].w + ll)) {
		snprintf(v, sizeof v, "%s %s", lemma, w[0].w + ll); /* "pickup": "pick up" */
	} else if (k > 1 && glued_particle(w[1].w)) {
		snprintf(v, sizeof v, "%s %s", w[0].w, w[1].w); /* "HandOver": "hand over" */
		took = 2;
	} else {
		snprintf(v, sizeof v, "%s", w[0].w);
	}
	lex_past(out, cap, v);
	return took;
}

size_t lex_skill_verb(char *out, size_t cap, const char *name)
{
	lex_word w[3];
	size_t k = name ? lex_split(name, strcspn(name, "("), w, 3) : 0;
	if (!cap)
		return 0;
	if (!past_verb(out, cap, w, k < 3 ? k : 3))
		out[0] = 0;
	return strlen(out);
}

/* The words w[0..k) as a phrase into out: the verb in the past tense when
 * the first word is one, the rest as written. */
static void verb_phrase(char *out, size_t cap, const lex_word *w, size_t k)
{
	char head[160] = "", tail[160] = "";
	int cls = LC_NONE;
	if (!k) {
		out[0] = 0;
		return;
	}
	const char *lemma = lex_lemma(w[0].stem, &cls);
	size_t from = 1;
	if (!strcmp(w[0].w, "what") || !strcmp(w[0].w, "who") || !strcmp(w[0].w, "where") ||
	    !strcmp(w[0].w, "how") || !strcmp(w[0].w, "which")) {
		/* a skill named by the question it answers ("WhatCanYouSee") */
		size_t n = (size_t)snprintf(head, sizeof head, "answered \"%s", w[0].w);
		for (size_t i = 1; i < k && n + 2 < sizeof head; i++)
			n += (size_t)snprintf(head + n, sizeof head - n, " %s", w[i].w);
		if (n + 2 < sizeof head)
			snprintf(head + n, sizeof head - n, "\"");
		snprintf(out, cap, "%s", head);
		return;
	}
	if (lemma && cls == LC_HOME && k > 1)
		snprintf(head, sizeof head, "moved to the %s", w[0].w);
	else if (lemma && cls == LC_INTRODUCE && k == 1 && verbal_noun(w[0].w))
		snprintf(head, sizeof head, "introduced myself");
	else if (!(from = past_verb(head, sizeof head, w, k)))
		snprintf(head, sizeof head, "%s", w[0].w), from = 1;
	size_t n = 0;
	for (size_t i = from; i < k && n + 2 < sizeof tail; i++)
		n += (size_t)snprintf(tail + n, sizeof tail - n, " %s", w[i].w);
	snprintf(out, cap, "%s%s", head, tail);
}

size_t lex_skill_words(char *out, size_t cap, const char *name)
{
	if (!cap)
		return 0;
	out[0] = 0;
	if (!name)
		return 0;
	/* "Place(Mug_0, CoffeeMachine)": the name, then its arguments */
	size_t n = strcspn(name, "(");
	lex_word w[12];
	size_t k = lex_split(name, n, w, 12);
	if (k > 12)
		k = 12;
	char phrase[256];
	verb_phrase(phrase, sizeof phrase, w, k);
	const char *args = name[n] == '(' ? name + n + 1 : NULL;
	size_t len = (size_t)snprintf(out, cap, "%s", phrase);
	int cls = LC_NONE;
	if (k)
		lex_lemma(w[0].stem, &cls);
	for (int a = 0; args && *args && *args != ')' && a < 2 && len + 1 < cap; a++) {
		size_t m = strcspn(args, ",)");
		const char *s = args;
		while (m && *s == ' ')
			s++, m--;
		char d[120];
		if (m && lex_display(d, sizeof d, s, m) && d[0]) {
			const char *lead = !a ? " the " : cls == LC_PUT ? " on the " : " to the ";
			len += (size_t)snprintf(out + len, cap - len, "%s%s", lead, d);
		}
		args = s + m;
		if (*args == ',')
			args++;
		if (len >= cap)
			len = cap - 1;
	}
	return len < cap ? len : cap - 1;
}
