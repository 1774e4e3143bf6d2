/*
 * recall_q_terms.c — the terms of a question (recall_q_internal.h): the
 * words that name something, by their stems, so "drive", "drove" and
 * "navigate" are one verb; the verb read in context, the anchor of a
 * question about a moment, who did it, and the main verb.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/recall/recall.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_q_internal.h"

/* ------------------------------------------------------------ the words -- */

/* Words that shape the question but name nothing. */
static int frame_word(const char *w)
{
	static const char *const f[] = { "how", "many", "much", "altogether", "total", "overall",
		                             "often", "long", "number", "what",
		                             "which", "who", "whom", "whose", "where", "when", "did",
		                             "do", "does", "done", "doing", "happen", "happened",
		                             "you", "your", "yourself", "times", "time", "day", "days",
		                             "date", "dates", "ago", "o", "m", "pm", "am", "th", "st",
		                             "nd", "rd", "object", "objects", "thing", "things", "item",
		                             "items", "person", "people", "place", "location", "go",
		                             "went", "ever", "frequently", "occasion", "tell", "me",
		                             "action", "actions", "task", "tasks", "activity",
		                             "activities", "anything", "everything", "nothing",
		                             "wrong", "able", "unable", "complete", "completed",
		                             "finish", "finished", "successful", "successfully",
		                             "could", "couldn", "manage", "managed", "try", "tried",
		                             "attempt", "attempted", "there", "any", "get", "step",
		                             "steps", "perform", "performed", "task", "new", "work",
		                             "worked", "working", "busy", "active", "run", "runs",
		                             "some", "certain", "didn", "doesn", "don", "wasn",
		                             "weren", "isn", "aren", "hasn", "haven", "hadn",
		                             "couldn", "wouldn", "won", "right", "just",
		                             "immediately", "directly", "shortly", "straight", NULL };
	for (const char *const *p = f; *p; p++)
		if (!strcmp(*p, w))
			return 1;
	return 0;
}

/* "hello", "hi", "goodbye": said or waved, not a thing to look for */
static int greeting_word(const char *w)
{
	static const char *const g[] = { "hello", "hi", "hey", "goodbye", "bye", "hallo",
		                             "howdy", NULL };
	for (const char *const *p = g; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

/* Is w[i], a verb's "-ing" form, a noun's modifier ("the reading glasses",
 * "the washing machine", "a charging station") rather than what was done?
 * It is when a plain noun follows and no subject or aspect verb precedes
 * ("were you cleaning", "did you start cleaning the room"). */
static int modifier_ing(const lex_word *w, size_t k, size_t i)
{
	size_t n = strlen(w[i].w);
	if (n < 5 || strcmp(w[i].w + n - 3, "ing") || i + 1 >= k || w[i + 1].digit)
		return 0;
	if (lex_stop(w[i + 1].stem) || lex_lemma(w[i + 1].stem, NULL) || frame_word(w[i + 1].w))
		return 0;
	/* "pipetting steps", "cleaning rounds": the doing, counted */
	static const char *const runs[] = { "session", "sessions", "round", "rounds", "cycle",
		                                "cycles", "job", "jobs", "duty", "duties", "shift",
		                                "shifts", "run", "runs", "routine", NULL };
	for (const char *const *p = runs; *p; p++)
		if (!strcmp(w[i + 1].w, *p))
			return 0;
	static const char *const before[] = { "you", "i", "we", "were", "was", "are", "is",
		                                  "start", "started", "finish", "finished", "stop",
		                                  "stopped", "keep", "kept", "begin", "began",
		                                  "go", "went", NULL };
	for (const char *const *p = before; i > 0 && *p; p++)
		if (!strcmp(w[i - 1].w, *p))
			return 0;
	return 1;
}

/* The symbol a log writes for a unit a person says in words ("kilos":
 * kg, "cubic metres": m3); NULL when the word is no unit. */
const char *unit_symbol(const rquestion *q, const rq_term *u)
{
	static const char *const names[][2] = {
		{ "kilo", "kg" }, { "kilogram", "kg" }, { "gram", "g" }, { "tonn", "t" },
		{ "ton", "t" }, { "litr", "l" }, { "liter", "l" }, { "millilitr", "ml" },
		{ "milliliter", "ml" }, { "metr", "m" }, { "meter", "m" }, { "millimetr", "mm" },
		{ "millimet", "mm" }, { "centimetr", "cm" }, { "centimet", "cm" },
		{ "kilometr", "km" }, { "kilomet", "km" }, { "minut", "min" }, { "hour", "h" },
		{ "second", "s" }, { "percent", "%" }, { "degre", "deg" }, { "kilowatt", "kw" },
		{ "volt", "v" }, { "pound", "lb" }, { "gallon", "gal" }, { "mile", "mi" },
		{ "foot", "ft" }, { "feet", "ft" }, { "inch", "in" }, { "bar", "bar" } };
	/* "cubic metres", "square metres": the next word, cubed or squared */
	int cubic = !strcmp(u->word, "cubic"), square = !strcmp(u->word, "square");
	const rq_term *w = (cubic || square) && u + 1 < q->term + q->n_term ? u + 1 : u;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strncmp(w->stem, names[i][0], strlen(names[i][0])) &&
		    strlen(w->stem) <= strlen(names[i][0]) + 2) {
			if (cubic && !strcmp(names[i][1], "m"))
				return "m3";
			if (square && !strcmp(names[i][1], "m"))
				return "m2";
			return names[i][1];
		}
	return NULL;
}

/* "Summarize your highlights from June", "explain briefly what you did
 * each day that you can remember", "give me an overview": a question
 * about doing, told day by day when it says so; these words are no
 * content to match. */
void read_summary(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	static const char *const words[] = { "summarize", "summarise", "summary", "summaries",
		                                 "overview", "highlights", "highlight", "recap",
		                                 "describe", "explain", "briefly", "brief", "detail",
		                                 "details", "detailed", "outline", "remember",
		                                 "recall", NULL };
	int summary = 0;
	for (size_t i = 0; i < k; i++)
		for (const char *const *p = words; *p; p++)
			if (!strcmp(w[i].w, *p)) {
				used[i] = 1;
				summary |= strcmp(*p, "remember") && strcmp(*p, "recall");
			}
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "each") || !strcmp(w[i].w, "every") || !strcmp(w[i].w, "per")) &&
		    !strcmp(w[i + 1].w, "day")) {
			q->by_day = 1;
			used[i] = used[i + 1] = 1;
		}
	for (size_t i = 0; i < k; i++)
		if (!strcmp(w[i].w, "daily") || (i + 2 < k && !strcmp(w[i].w, "day") &&
		                                   !strcmp(w[i + 1].w, "by") &&
		                                   !strcmp(w[i + 2].w, "day")))
			q->by_day = 1, used[i] = 1;
	if ((summary || q->by_day) && (q->kind == RQ_WHICH || q->kind == RQ_SEEN ||
	                               q->kind == RQ_DO))
		q->kind = RQ_DO, q->plural = 0;
}

/* Texting spellings: "when did u ...", "where did ya ...", "ur keys". */
void read_texting(lex_word *w, size_t k)
{
	/* "when did u ...", "where did ya ...", "ur keys": texting spellings */
	for (size_t i = 0; i < k; i++) {
		const char *to = !strcmp(w[i].w, "u") || !strcmp(w[i].w, "ya") ? "you"
		                 : !strcmp(w[i].w, "ur") ? "your" : NULL;
		if (to) {
			memcpy(w[i].w, to, strlen(to) + 1);
			lex_stem(w[i].w, strlen(w[i].w), w[i].stem);
			w[i].cap = 0;
		}
	}
}

/* Where the question proper starts, after a scope ("On June 26, when did
 * you ..."), or at its preposition ("on what day"). */
size_t question_start(const lex_word *w, size_t k, const uint8_t *used)
{
	/* the question proper may follow a scope: "On June 26, when did you ..." */
	size_t qi = 0;
	int found = 0;
	static const char *const qwords[] = { "when", "where", "who", "whom", "whose", "what",
		                                  "which", "how", "did", "do", "does", "have", "has",
		                                  "was", "were", "is", "are", "had", "can", "could",
		                                  NULL };
	for (size_t i = 0; i < k && i < 14 && !found; i++)
		for (const char *const *p = qwords; *p && !found; p++)
			if (!strcmp(w[i].w, *p) && (i == 0 || used[i - 1] || !strcmp(w[i].w, "when") ||
			                            !strcmp(w[i].w, "where") || !strcmp(w[i].w, "who") ||
			                            !strcmp(w[i].w, "what") || !strcmp(w[i].w, "which") ||
			                            !strcmp(w[i].w, "how") ||
			                            /* "I'm curious, did you wash any bowl" */
			                            (i + 1 < k && i > 1 && (!strcmp(w[i].w, "did") ||
			                                                    !strcmp(w[i].w, "have")) &&
			                             (!strcmp(w[i + 1].w, "you") ||
			                              !strcmp(w[i + 1].w, "we"))))) {
				qi = i;
				found = 1;
			}
	/* "on what day" / "at what time" start with their preposition */
	if (qi && (!strcmp(w[qi - 1].w, "on") || !strcmp(w[qi - 1].w, "at") ||
	           !strcmp(w[qi - 1].w, "to") || !strcmp(w[qi - 1].w, "from")))
		qi--;
	return qi;
}

/* An anchor: "after"/"before" the words that follow, "when"/"during"
 * them, or a reply "when she asked ...": 1 when w[i] is one. */
static int read_anchor(rquestion *q, const lex_word *w, size_t k, size_t i, size_t qi,
                       const uint8_t *used)
{
	/* "what did you do after the photo / after you brought the milk":
	 * the words that follow name the moment (not "after 3 pm") */
	/* ("where did you go after you handed over the milk": where the
	 * first journey after it went) */
	if ((q->kind == RQ_DO || (q->kind == RQ_WHERE && q->verb >= 0 && q->you && i > qi + 2 &&
	                          (q->term[q->verb].cls == LC_GO ||
	                           q->term[q->verb].cls == LC_PUT))) &&
	    q->anchor < 0 && !used[i] && i + 1 < k && !w[i + 1].digit &&
	    (!strcmp(w[i].w, "after") || !strcmp(w[i].w, "before"))) {
		q->anchor = (int)q->n_term;
		q->anchor_after = !strcmp(w[i].w, "after");
		return 1;
	}
	/* "what did you do when you introduced yourself / during the
	 * demo": the steps within that moment's span */
	if (q->kind == RQ_DO && q->anchor < 0 && !used[i] && i > qi && i + 1 < k &&
	    !w[i + 1].digit &&
	    (!strcmp(w[i].w, "when") || !strcmp(w[i].w, "while") || !strcmp(w[i].w, "during"))) {
		q->anchor = (int)q->n_term;
		q->anchor_during = 1;
		return 1;
	}
	/* "what did you tell Lena when she asked where her mother was":
	 * a reply; the clause after "when" (or "after") names the moment,
	 * and what was said is what came right after it */
	if (q->kind == RQ_SAID && q->anchor < 0 && !used[i] && i > 0 && i + 1 < k &&
	    !w[i + 1].digit && (!strcmp(w[i].w, "when") || !strcmp(w[i].w, "after")) &&
	    said_clause(w + i + 1, k - i - 1)) {
		q->anchor = (int)q->n_term;
		q->anchor_after = 1;
		q->anchor_reply = 1;
		return 1;
	}
	return 0;
}

/* The verb w[i] names (*cls its class), or NULL: the lexicon's, read in
 * context ("which dock" is a noun, "get home" is going, "drop off" a
 * delivery, "say hello" a greeting); a particle it takes is marked used. */
static const char *term_lemma(const rquestion *q, const lex_word *w, size_t k, size_t i,
                              size_t qi, uint8_t *used, int *cls)
{
	*cls = LC_NONE;
	const char *lemma = lex_lemma(w[i].stem, cls);
	/* "which dock", "what set": the word after which/what is a noun */
	if (lemma && i > 0 && (!strcmp(w[i - 1].w, "which") || !strcmp(w[i - 1].w, "what")) &&
	    i + 1 < k && (!strcmp(w[i + 1].w, "did") || !strcmp(w[i + 1].w, "do") ||
	                  !strcmp(w[i + 1].w, "does") || !strcmp(w[i + 1].w, "was") ||
	                  !strcmp(w[i + 1].w, "were") || !strcmp(w[i + 1].w, "is") ||
	                  !strcmp(w[i + 1].w, "had") || !strcmp(w[i + 1].w, "have")))
		lemma = NULL, *cls = LC_NONE;
	/* "why was take 2 stopped": a verb's bare form right after "was" or
	 * "is" is a thing ("was running" stays a doing) */
	if (lemma && i > 0 && !strcmp(w[i].w, lemma) &&
	    (!strcmp(w[i - 1].w, "was") || !strcmp(w[i - 1].w, "were") ||
	     !strcmp(w[i - 1].w, "is") || !strcmp(w[i - 1].w, "are")))
		lemma = NULL, *cls = LC_NONE;
	/* "how deep was the water", "after a check": after an article or a
	 * demonstrative the word is a noun ("your instructions" still name
	 * what was said to the robot) */
	static const char *const det[] = { "the", "a", "an", "this", "that", "these", "those",
		                               NULL };
	for (const char *const *d = det; lemma && i > 0 && *d; d++)
		if (!strcmp(w[i - 1].w, *d))
			lemma = NULL, *cls = LC_NONE;
	if (!lemma && q->kind == RQ_SAID && i > qi && i == qi + verb_after_did(w + qi, k - qi) &&
	    said_verb(w, i))
		lemma = "say", *cls = LC_SAY;
	if (lemma && modifier_ing(w, k, i))
		lemma = NULL, *cls = LC_NONE; /* "the reading glasses" */
	/* "get home", "got to the lab": going, not fetching */
	if (lemma && *cls == LC_TAKE && (!strcmp(w[i].w, "get") || !strcmp(w[i].w, "got")) &&
	    i + 1 < k && (!strcmp(w[i + 1].w, "to") || !strcmp(w[i + 1].w, "home") ||
	                  !strcmp(w[i + 1].w, "back") || !strcmp(w[i + 1].w, "there") ||
	                  !strcmp(w[i + 1].w, "into")))
		lemma = "go", *cls = LC_GO;
	/* "did you drop anything": a fall, not a delivery ("drop off the
	 * parcel" is one); it matches only a skill that says so */
	if (lemma && (!strcmp(w[i].w, "drop") || !strcmp(w[i].w, "dropped") ||
	              !strcmp(w[i].w, "drops")) &&
	    !(i + 1 < k && !strcmp(w[i + 1].w, "off")) &&
	    !(i + 2 < k && !strcmp(w[i + 2].w, "off")))
		lemma = "drop", *cls = LC_OTHER;
	/* "when did somebody hand you something", "did Sam give you the
	 * keys": the robot received it */
	if (lemma && *cls == LC_GIVE && i + 1 < k && !strcmp(w[i + 1].w, "you") &&
	    !(i > 0 && !strcmp(w[i - 1].w, "you")))
		lemma = "receive", *cls = LC_RECEIVE;
	/* "say hello to", "said hi to": greeting; "wave hello": the wave */
	if (i + 1 < k && greeting_word(w[i + 1].w) && lemma &&
	    (*cls == LC_SAY || *cls == LC_WAVE)) {
		if (*cls == LC_SAY)
			lemma = "greet", *cls = LC_MEET;
		used[i + 1] = 1;
	}
	if (lemma && lex_particle(w, k, i, &lemma, cls)) {
		/* the particle is part of the verb, not a scope word */
		for (size_t j = i + 1; j < k && j <= i + 3; j++)
			if (!strcmp(w[j].w, "on") || !strcmp(w[j].w, "off") ||
			    (*cls == LC_SCAN && (!strncmp(w[j].w, "pic", 3) ||
			                        !strncmp(w[j].w, "photo", 5) ||
			                        !strncmp(w[j].w, "image", 5) ||
			                        !strncmp(w[j].w, "snapshot", 8) ||
			                        !strncmp(w[j].w, "shot", 4)))) {
				used[j] = 1;
				break;
			}
	}
	return lemma;
}

/* A noun that names an occasion ("rehearsal", "demo", "shift"). */
static int occasion_noun(const char *w)
{
	static const char *const o[] = { "rehearsal", "rehearsals", "demo", "demos", "meeting",
		                             "show", "shift", "tour", "event", "party", "visit",
		                             "inspection", "ceremony", "performance", "concert",
		                             "session", "service", "lesson", "class", "match",
		                             "game", "drill", "preview", "premiere", NULL };
	for (const char *const *p = o; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

/* "did you cut anything with a knife": a thing after "with" (and its
 * article) that a deed was done with, not a person it was done with, nor
 * the thing of "what did you do with the keys". */
static int with_tool(const rquestion *q, const lex_word *w, size_t i, const char *lemma)
{
	if (lemma || w[i].cap || w[i].digit || q->verb < 0 || i < 2)
		return 0;
	size_t j = i - 1;
	static const char *const det[] = { "a", "an", "the", "my", "your", "some", "its", NULL };
	for (const char *const *d = det; *d && j > 0; d++)
		if (!strcmp(w[j].w, *d)) {
			j--;
			break;
		}
	const rq_term *v = &q->term[q->verb];
	const char *vl = v->lemma ? v->lemma : v->word;
	return !strcmp(w[j].w, "with") && j > (size_t)v->pos + 1 && strcmp(vl, "do") &&
	       strcmp(vl, "help") && strcmp(vl, "deal") && v->cls != LC_MEET && !wn_is_person(w[i].w);
}

/* w[i] as a term of the question, unless it is a stop word that names
 * nothing; the first verb and the first name are noted. */
static void add_term(rquestion *q, const lex_word *w, size_t k, size_t i, const char *lemma, int cls,
                     const uint8_t *used)
{
	/* "Rosa's glasses": an owner, seldom in the records, and not who
	 * the action was for: a word that counts when a fact names it
	 * ("owner": "Rosa Diaz"), never one it must */
	int owner = w[i].cap && !lemma && i + 1 < k && !strcmp(w[i + 1].w, "s") &&
	            i + 2 < k && !lex_stop(w[i + 2].stem);
	int stop = lex_stop(w[i].stem) || frame_word(w[i].w);
	/* "learn a new object", "hand over an item": a thing a deed was done
	 * to, which a skill may be named by (ObjectLearning) */
	int thing_done_to = 0;
	if (stop && !lemma && q->verb >= 0 && i >= 2 && i <= (size_t)q->term[q->verb].pos + 4 &&
	    i > q->term[q->verb].pos && (!strcmp(w[i].w, "object") || !strcmp(w[i].w, "objects")) &&
	    (!strcmp(w[i - 1].w, "a") || !strcmp(w[i - 1].w, "an") || !strcmp(w[i - 1].w, "new")))
		stop = 0, thing_done_to = 1;
	/* "what did you place in the sink": a verb after its subject,
	 * though the word is also a noun we skip ("which place") */
	if (stop && lemma && i > 0 && (!strcmp(w[i - 1].w, "you") || !strcmp(w[i - 1].w, "i") ||
	                               !strcmp(w[i - 1].w, "we")))
		stop = 0;
	/* "what did you answer when someone asked what you could see": in a
	 * question about words, the other verbs are words to look for */
	int keep_verb = lemma && (cls == LC_GO || cls == LC_SAY || cls == LC_SEE ||
	                          cls == LC_MEET) && (q->verb < 0 || q->kind == RQ_SAID);
	if (stop && !keep_verb && !(w[i].cap && i > 0))
		return;
	rq_term *t = &q->term[q->n_term];
	memcpy(t->stem, w[i].stem, LEX_WORD_MAX);
	memcpy(t->word, w[i].w, LEX_WORD_MAX);
	t->cap = w[i].cap;
	t->lemma = lemma;
	t->cls = cls;
	t->same = lemma ? -1 : lex_same_group(w[i].stem);
	t->alias = lemma ? NULL : lex_asked_alias(w[i].stem);
	t->owner = (uint8_t)owner;
	t->soft = (uint8_t)(with_tool(q, w, i, lemma) || thing_done_to);
	t->pos = (uint8_t)i;
	/* "during the (morning) demo" */
	t->occasion = 0;
	for (size_t j = i; j-- > 0 && j + 4 > i && !t->occasion;)
		if (!strcmp(w[j].w, "during"))
			t->occasion = 1;
		else if (!used[j] && !lex_stop(w[j].stem) && j + 1 < i)
			break;
	/* "at the (tech) rehearsal": a named occasion */
	int named = occasion_noun(w[i].w) || (i + 1 < k && occasion_noun(w[i + 1].w));
	for (size_t j = i; named && j-- > 0 && j + 4 > i && !t->occasion;)
		if (!strcmp(w[j].w, "at") || !strcmp(w[j].w, "in"))
			t->occasion = 1;
	/* "send the bag back": a particle after the verb and its object */
	static const char *const part[] = { "back", "away", "off", "out", "up", "down", NULL };
	t->particle = 0;
	for (const char *const *p = part; *p && q->verb >= 0 && !lemma; p++)
		t->particle |= !strcmp(w[i].w, *p);
	/* "last" / "first" already read; words like "put" are verbs */
	if (lemma && q->verb < 0 && !w[i].cap)
		q->verb = (int)q->n_term;
	else if (w[i].cap && q->person < 0 && !lemma && !title_word(w[i].w) && !owner)
		q->person = (int)q->n_term; /* "Mr. Tanaka": Tanaka */
	q->n_term++;
}

/* The terms: every word not used by the scope or the kind that names
 * something, with the anchor of a question about a moment. */
void read_terms(rquestion *q, lex_word *w, size_t k, size_t qi, uint8_t *used)
{
	q->anchor = -1;
	for (size_t i = 0; i < k && q->n_term < RQ_TERMS; i++) {
		if (read_anchor(q, w, k, i, qi, used))
			continue;
		if (used[i])
			continue;
		if (w[i].digit && !(i > 0 && !w[i - 1].digit && !used[i - 1]))
			continue; /* "room 12" keeps its number; a lone number does not */
		int cls = LC_NONE;
		const char *lemma = term_lemma(q, w, k, i, qi, used, &cls);
		/* "Mr. Novak": the word after a title is a name, though it follows
		 * a full stop */
		if (i > 0 && title_word(w[i - 1].w) && !w[i].digit && !lemma)
			w[i].cap = 1;
		add_term(q, w, k, i, lemma, cls, used);
	}
}

/* Who did it ("who handed in the umbrella"): the term after "who" and the
 * particle that is part of the deed. */
void read_agent(rquestion *q, const lex_word *w, size_t k, size_t qi)
{
	q->agent_term = -1;
	for (size_t t = 0; q->agent && qi + 1 < k && t < q->n_term; t++)
		if (!strcmp(q->term[t].word, w[qi + 1].w))
			q->agent_term = (int)t;
	/* "who handed in the umbrella", "who let the courier in": the
	 * particle is part of the deed (handing in is not handing over) */
	q->agent_particle[0] = 0;
	static const char *const part[] = { "in", "out", "up", "down", "off", "back", "over",
		                                "away", NULL };
	for (const char *const *p = part; q->agent && qi + 2 < k && *p; p++)
		if (!strcmp(w[qi + 2].w, *p) || !strcmp(w[k - 1].w, *p))
			snprintf(q->agent_particle, sizeof q->agent_particle, "%s", *p);
}

/* The main verb: the one after "did you". */
void rq_term_as_noun(rq_term *t)
{
	t->lemma = NULL;
	t->cls = LC_NONE;
	t->same = lex_same_group(t->stem);
	t->alias = lex_asked_alias(t->stem);
}

void main_verb(rquestion *q, const lex_word *w, size_t k)
{
	/* "where did the lettuce slice end up": no word before it is a doing */
	if (q->end_up) {
		for (size_t u = 0; u < q->n_term; u++)
			if (q->term[u].lemma && !q->term[u].cap)
				rq_term_as_noun(&q->term[u]);
		q->verb = -1;
		return;
	}
	/* the main verb is the one after "did you" ("whose face did you try to
	 * learn": learn, not face) */
	for (size_t i = 0; i + 1 < k; i++) {
		static const char *const aux[] = { "did", "do", "does", "have", "has", "had", "were",
			                               "was", "will", "can", "could", NULL };
		int is_aux = 0;
		for (const char *const *p = aux; *p; p++)
			is_aux |= !strcmp(w[i].w, *p);
		if (!is_aux || (strcmp(w[i + 1].w, "you") && strcmp(w[i + 1].w, "i") &&
		                strcmp(w[i + 1].w, "we")))
			continue;
		int found_verb = 0;
		for (size_t j = i + 2; j < k && j <= i + 5; j++) {
			for (size_t t = 0; t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[j].w) && q->term[t].lemma && !q->term[t].cap) {
					q->verb = (int)t;
					found_verb = 1;
					break;
				}
			if (found_verb)
				break;
		}
		/* "how many plates did you autoclave": a word the lexicon does not
		 * know, right after "did you", is the verb all the same; it then
		 * matches only by the words of a skill's name or verb */
		if (!found_verb && q->verb < 0 && i + 2 < k)
			for (size_t t = 0; t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[i + 2].w) && !q->term[t].cap &&
				    !w[i + 2].digit && !q->term[t].lemma) {
					q->term[t].lemma = "";
					q->term[t].cls = LC_OTHER;
					q->verb = (int)t;
					if (q->person == (int)t)
						q->person = -1;
					break;
				}
		break;
	}
	/* "who helped you fit the chain": the doing is the fitting, the one
	 * who helped is who was with the robot */
	for (size_t i = 0; i + 2 < k; i++) {
		if ((strcmp(w[i].w, "help") && strcmp(w[i].w, "helped") && strcmp(w[i].w, "assist") &&
		     strcmp(w[i].w, "assisted")) || strcmp(w[i + 1].w, "you"))
			continue;
		for (size_t t = 0; t < q->n_term; t++)
			if (!strcmp(q->term[t].word, w[i + 2].w) && !q->term[t].cap && !w[i + 2].digit) {
				if (!q->term[t].lemma) { /* "fit": a verb all the same */
					q->term[t].lemma = "";
					q->term[t].cls = LC_OTHER;
				}
				q->verb = (int)t;
				break;
			}
		break;
	}
}
