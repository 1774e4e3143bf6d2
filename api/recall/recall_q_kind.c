/*
 * recall_q_kind.c — the kind of a question (recall_q_internal.h): when,
 * where, who, what was said or seen, which, how many, yes or no, the steps
 * or what was done; whether a failure is asked about, and the order (first,
 * last, the n-th time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/recall/recall.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_q_internal.h"

/* -------------------------------------------------------------- the kind -- */

static int has(const lex_word *w, size_t k, const char *s)
{
	for (size_t i = 0; i < k; i++)
		if (!strcmp(w[i].w, s))
			return 1;
	return 0;
}

/* Does a clause ("she asked where her mother was", "the guard told you to
 * wait") name words someone said: a verb of saying before anything else
 * that is a verb? */
int said_clause(const lex_word *w, size_t k)
{
	for (size_t i = 0; i < k && i < 4; i++) {
		int cls = LC_NONE;
		if (lex_lemma(w[i].stem, &cls))
			return cls == LC_SAY;
	}
	return 0;
}

static int starts(const lex_word *w, size_t k, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < k && i < 4; i++)
		if (!strcmp(w[i].w, a) && (!b || !strcmp(w[i + 1].w, b)))
			return 1;
	return 0;
}

static int first_is(const lex_word *w, size_t k, const char *a)
{
	return k && !strcmp(w[0].w, a);
}

/* "what's the name of the person", "what was that lady's name": a
 * question for a person by name. Marks "name" used. */
static int name_of_person(const lex_word *w, size_t k, uint8_t *used)
{
	static const char *const who[] = { "person", "people", "man", "woman", "guy", "lady",
		                               "visitor", "guest", "patient", "customer", "nurse",
		                               "doctor", "user", "someone", "somebody", "kid",
		                               "child", "boy", "girl", "friend", "gentleman",
		                               "persons", "visitors", "guests", NULL };
	for (size_t i = 1; i < k && i < 5; i++) {
		if (strcmp(w[i].w, "name") && strcmp(w[i].w, "names"))
			continue;
		/* "the name of the person"; "that lady's name" */
		size_t lo = i + 1 < k && !strcmp(w[i + 1].w, "of") ? i + 2 : 1;
		size_t hi = lo == 1 ? i : i + 4;
		for (size_t j = lo; j < k && j < hi; j++)
			for (const char *const *p = who; *p; p++)
				if (!strcmp(w[j].w, *p)) {
					used[i] = 1;
					return 1;
				}
	}
	return 0;
}

/* "who opened the gate", "who let the courier in", "who signed for the
 * parcels": who did it, the robot or someone in its notes; not whom the
 * robot met ("who came", "who visited"), spoke with ("who called"), was
 * given something by ("who gave you"), nor "who did you ...". */
static int asks_agent(const lex_word *w, size_t k)
{
	static const char *const not_verb[] = { "did", "do", "does", "was", "were", "is", "are",
		                                    "has", "have", "had", "else", "the", "of", "from",
		                                    "to", "with", "in", "at", "on", "s", "will", "would",
		                                    "can", "could", NULL };
	if (k < 3 || strcmp(w[0].w, "who") || w[1].cap || w[1].digit)
		return 0;
	for (const char *const *p = not_verb; *p; p++)
		if (!strcmp(w[1].w, *p))
			return 0;
	/* "who fixed the centrifuge for you": someone else */
	if (has(w, k, "you") || has(w, k, "me") || has(w, k, "us") || !strcmp(w[2].w, "by"))
		return 0;
	int cls = LC_NONE;
	if (lex_lemma(w[1].stem, &cls))
		/* ("who got the laptop": whom it went to) */
		return cls != LC_GO && cls != LC_MEET && cls != LC_SAY && cls != LC_SEE &&
		       cls != LC_LOOK && cls != LC_TAKE && cls != LC_RECEIVE;
	return !wn_speech_verb(w[1].w);
}


/* A title before a name says nothing about who it is. */
int title_word(const char *w)
{
	static const char *const t[] = { "mr", "mrs", "ms", "miss", "dr", "prof", "professor",
		                             "sir", "madam", "nurse", "minister", "captain",
		                             "officer", "mister", "doctor", NULL };
	for (const char *const *p = t; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

/* The word after "did" and its subject ("what did Mia complain about",
 * "what did the guest beg for", "what did you report"): the question's own
 * verb, 0 when there is none. */
size_t verb_after_did(const lex_word *w, size_t k)
{
	size_t d = 0;
	while (d < k && d < 4 && strcmp(w[d].w, "did") && strcmp(w[d].w, "does") &&
	       strcmp(w[d].w, "do"))
		d++;
	size_t i = d + 1;
	if (d >= k || d >= 4 || i >= k)
		return 0;
	if (!strcmp(w[i].w, "the") || !strcmp(w[i].w, "a") || !strcmp(w[i].w, "an") ||
	    !strcmp(w[i].w, "your") || !strcmp(w[i].w, "my"))
		i += 2; /* "the guest" */
	else if (w[i].cap)
		while (i < k && (w[i].cap || title_word(w[i - 1].w)))
			i++; /* "Mia Lund", "Dr. Okafor" (no capital after the full stop) */
	else
		i++; /* "you", "she" */
	return i < k ? i : 0;
}

/* Is w[i] a verb of saying that the robot lexicon does not know
 * ("complain", "grumble", "beg")? */
int said_verb(const lex_word *w, size_t i)
{
	int cls = LC_NONE;
	return !w[i].cap && !w[i].digit && !lex_stop(w[i].stem) && !lex_lemma(w[i].stem, &cls) &&
	       wn_speech_verb(w[i].w);
}

/* The steps of a task, or the first or last of a span ("what was the
 * first thing you did on Monday"). */
static void read_steps(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	/* "how many pipetting steps", "which steps failed": a count and a
	 * failure question, not the steps of a task */
	int steps_ok = !(starts(w, k, "how", "many") || starts(w, k, "how", "often") ||
	                 starts(w, k, "number", "of") || has(w, k, "fail") || has(w, k, "failed"));
	for (size_t i = 0; steps_ok && i < k; i++)
		if ((!strcmp(w[i].w, "step") || !strcmp(w[i].w, "steps")) &&
		    /* (not a thing: "the step ladder", "a step stool") */
		    !(i + 1 < k && !strcmp(w[i].w, "step") && !lex_stop(w[i + 1].stem) &&
		      !lex_lemma(w[i + 1].stem, NULL) && !w[i + 1].digit)) {
			q->kind = RQ_STEPS;
			if (i > 0 && !strcmp(w[i - 1].w, "first"))
				q->step = 1, used[i - 1] = 1;
			else if (i > 0 && (!strcmp(w[i - 1].w, "last") || !strcmp(w[i - 1].w, "final")))
				q->step = -1, used[i - 1] = 1;
		}
	/* "what was the first thing you did on Monday": the first step of the span */
	for (size_t i = 1; q->kind != RQ_STEPS && i < k; i++)
		if ((!strcmp(w[i].w, "thing") || !strcmp(w[i].w, "things")) &&
		    (!strcmp(w[i - 1].w, "first") || !strcmp(w[i - 1].w, "last")) &&
		    (has(w, k, "did") || has(w, k, "do"))) {
			q->kind = RQ_STEPS;
			q->step = !strcmp(w[i - 1].w, "first") ? 1 : -1;
			used[i - 1] = 1;
		}
	/* "what did you do last on July 12", "what did you do first today":
	 * the last (first) step of the span, not all of it */
	for (size_t i = 1; q->kind != RQ_STEPS && first_is(w, k, "what") && i < k; i++)
		if ((!strcmp(w[i].w, "last") || !strcmp(w[i].w, "first") || !strcmp(w[i].w, "lastly")) &&
		    (!strcmp(w[i - 1].w, "do") || !strcmp(w[i - 1].w, "did")) &&
		    (i + 1 == k || !strcmp(w[i + 1].w, "on") || !strcmp(w[i + 1].w, "in") ||
		     !strcmp(w[i + 1].w, "today") || !strcmp(w[i + 1].w, "yesterday") ||
		     !strcmp(w[i + 1].w, "at") || !strcmp(w[i + 1].w, "this") ||
		     !strcmp(w[i + 1].w, "that") || !strcmp(w[i + 1].w, "before"))) {
			q->kind = RQ_STEPS;
			q->step = !strcmp(w[i].w, "first") ? 1 : -1;
			used[i] = 1;
		}
}

/* "get up to", "been up to", "were you up to": the idiom for doing; its
 * words are used. */
static int up_to(const lex_word *w, size_t k, uint8_t *used)
{
	for (size_t i = 2; i + 1 < k; i++)
		if (!strcmp(w[i].w, "up") && !strcmp(w[i + 1].w, "to") &&
		    (!strcmp(w[i - 1].w, "get") || !strcmp(w[i - 1].w, "got") ||
		     !strcmp(w[i - 1].w, "been") || !strcmp(w[i - 1].w, "you"))) {
			used[i] = used[i + 1] = 1;
			if (strcmp(w[i - 1].w, "you"))
				used[i - 1] = 1;
			return 1;
		}
	return 0;
}

/* The kind by the question word and what follows it ("how many", "what
 * day", "where", "who", "which"), said or seen asking for words or sights. */
static void read_wh(rquestion *q, const lex_word *w, size_t k, uint8_t *used, int said, int seen)
{
	if (q->kind == RQ_STEPS)
		; /* the steps of a task */
	else if (first_is(w, k, "what") && up_to(w, k, used))
		; /* "what did you get up to on Friday": what was done */
	else if (starts(w, k, "how", "many") && k > 3 && rq_time_unit(w[2].w) &&
	         (has(w, k, "take") || has(w, k, "took") || has(w, k, "last") ||
	          has(w, k, "lasted") || has(w, k, "spend") || has(w, k, "spent")))
		q->kind = RQ_DURATION, used[2] = 1; /* "how many minutes did the sweep take" */
	else if (starts(w, k, "how", "many") || starts(w, k, "how", "often") ||
	    starts(w, k, "number", "of") || starts(w, k, "how", "frequently") ||
	    starts(w, k, "how", "much"))
		q->kind = RQ_COUNT, q->much = starts(w, k, "how", "much"); /* (an amount summed) */
	else if (starts(w, k, "how", "long"))
		q->kind = RQ_DURATION;
	else if (starts(w, k, "what", "day") || starts(w, k, "which", "day") ||
	         starts(w, k, "which", "days") || starts(w, k, "what", "days") ||
	         starts(w, k, "what", "date") || starts(w, k, "which", "date") ||
	         starts(w, k, "which", "dates") || starts(w, k, "on", "what") ||
	         starts(w, k, "on", "which"))
		q->kind = RQ_DAY, q->plural = has(w, k, "days") || has(w, k, "dates");
	else if (first_is(w, k, "when") || starts(w, k, "what", "time") ||
	         starts(w, k, "which", "time") ||
	         (starts(w, k, "at", "what") && k > 2 &&
	          (!strcmp(w[2].w, "time") || !strcmp(w[2].w, "hour") || !strcmp(w[2].w, "point") ||
	           !strcmp(w[2].w, "moment") || !strcmp(w[2].w, "o"))))
		q->kind = RQ_WHEN; /* not "at what speed" */
	else if (first_is(w, k, "where") && k > 3 && !strcmp(w[1].w, "did") &&
	         !strcmp(w[2].w, "you") && (!strcmp(w[3].w, "tell") || !strcmp(w[3].w, "say")))
		q->kind = RQ_SAID; /* "where did you tell the visitor the sloths were": the words */
	else if (rq_where_said(w, k))
		q->kind = RQ_SAID; /* "where did the Commander say the mug was": the words */
	else if (first_is(w, k, "where") || starts(w, k, "which", "place") ||
	         starts(w, k, "what", "place") || starts(w, k, "which", "location") ||
	         starts(w, k, "what", "location") || starts(w, k, "which", "room") ||
	         starts(w, k, "to", "where") || starts(w, k, "from", "where"))
		q->kind = (has(w, k, "from") && !has(w, k, "to")) ? RQ_FROM : RQ_WHERE;
	else if (first_is(w, k, "who") || first_is(w, k, "whom") || starts(w, k, "which", "person") ||
	         starts(w, k, "what", "person") || starts(w, k, "which", "people") ||
	         starts(w, k, "to", "whom") || starts(w, k, "whose", NULL))
		q->kind = RQ_WHO;
	else if (first_is(w, k, "what") && name_of_person(w, k, used))
		q->kind = RQ_WHO; /* "what's the name of the person you met" */
	else if ((first_is(w, k, "what") || first_is(w, k, "which")) && said)
		q->kind = RQ_SAID;
	else if ((first_is(w, k, "what") || first_is(w, k, "which")) && seen)
		q->kind = RQ_SEEN, q->plural = 1;
	else if ((first_is(w, k, "which") || first_is(w, k, "what")) && k > 1 &&
	         strcmp(w[1].w, "failed") && strcmp(w[1].w, "went") && strcmp(w[1].w, "happened") &&
	         strcmp(w[1].w, "was") && strcmp(w[1].w, "were") && strcmp(w[1].w, "problem") &&
	         strcmp(w[1].w, "problems") && strcmp(w[1].w, "did") && strcmp(w[1].w, "of") &&
	         strcmp(w[1].w, "actions") && strcmp(w[1].w, "tasks") && strcmp(w[1].w, "task") &&
	         strcmp(w[1].w, "action") && strcmp(w[1].w, "could") && strcmp(w[1].w, "couldn") &&
	         strcmp(w[1].w, "step") && strcmp(w[1].w, "steps") && strcmp(w[1].w, "skill") &&
	         strcmp(w[1].w, "skills") && strcmp(w[1].w, "job") && strcmp(w[1].w, "jobs") &&
	         strcmp(w[1].w, "operation") && strcmp(w[1].w, "operations") &&
	         strcmp(w[1].w, "things") && strcmp(w[1].w, "activities") &&
	         (has(w, k, "fail") || has(w, k, "failed")))
		q->kind = RQ_WHICH; /* "which tote did you fail to pick" */
	else if (has(w, k, "fail") || has(w, k, "failed") || has(w, k, "wrong") ||
	         has(w, k, "problem") || has(w, k, "problems") || has(w, k, "unsuccessful") ||
	         has(w, k, "unable") || (has(w, k, "not") && (has(w, k, "could") ||
	                                                      has(w, k, "able"))))
		q->kind = first_is(w, k, "did") || first_is(w, k, "have") || first_is(w, k, "was") ||
		                  first_is(w, k, "were") || first_is(w, k, "has")
		              ? RQ_YESNO
		              : RQ_FAILED;
	else if (first_is(w, k, "did") || first_is(w, k, "have") || first_is(w, k, "has") ||
	         first_is(w, k, "were") || first_is(w, k, "was") || first_is(w, k, "do") ||
	         first_is(w, k, "is") || first_is(w, k, "are") || first_is(w, k, "had"))
		q->kind = RQ_YESNO;
	else if (starts(w, k, "which", NULL) || starts(w, k, "what", "object") ||
	         starts(w, k, "what", "objects") || starts(w, k, "what", "item") ||
	         starts(w, k, "what", "thing") || starts(w, k, "what", "things"))
		q->kind = RQ_WHICH;
	else if (first_is(w, k, "what") && !has(w, k, "do") && !has(w, k, "doing") &&
	         !has(w, k, "did") && !has(w, k, "happen") && !has(w, k, "happened"))
		q->kind = RQ_WHICH;
	else if (first_is(w, k, "what") && k > 1 && !strcmp(w[1].w, "did") && !has(w, k, "do") &&
	         !has(w, k, "happen"))
		q->kind = RQ_WHICH; /* "what did you grasp" (not "what you did") */
	else if (first_is(w, k, "what") && k > 3 && (!strcmp(w[2].w, "did") || !strcmp(w[2].w, "do") ||
	                                             !strcmp(w[2].w, "have")) &&
	         !strcmp(w[3].w, "you") && !lex_stop(w[1].stem) && !lex_lemma(w[1].stem, NULL) &&
	         !w[1].digit && strcmp(w[1].w, "else"))
		q->kind = RQ_WHICH; /* "what crates did you carry" */
	/* "how long did it take on average": the mean of the runs; "how long
	 * did your last introduction take": take is the asking, not a doing */
	for (size_t i = 2; q->kind == RQ_DURATION && i < k; i++) {
		if (!strcmp(w[i].w, "average") || !strcmp(w[i].w, "avg") || !strcmp(w[i].w, "mean") ||
		    !strcmp(w[i].w, "usually") || !strcmp(w[i].w, "typically")) {
			q->extreme = 2;
			used[i] = 1;
		}
		if ((!strcmp(w[i].w, "take") || !strcmp(w[i].w, "took") || !strcmp(w[i].w, "last") ||
		     !strcmp(w[i].w, "lasted")) &&
		    (i + 1 == k || !strcmp(w[i + 1].w, "to") || !strcmp(w[i + 1].w, "you") ||
		     !strcmp(w[i + 1].w, "for") || !strcmp(w[i + 1].w, "on") ||
		     !strcmp(w[i + 1].w, "in") || !strcmp(w[i + 1].w, "altogether") ||
		     !strcmp(w[i + 1].w, "overall")))
			used[i] = 1;
	}
}

/* A measured value asked ("what was the CO2 level in the hab", "how high
 * was the pressure"): the measure word says what kind of answer, not
 * what to look for. "What was the highest temperature", "how cold did
 * the freezer get": the extreme of the readings. */
static void read_value(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	static const char *const adj[] = { "high", "low", "hot", "cold", "warm", "cool", "deep",
		                               "full", "fast", "strong", "loud", "humid", "heavy",
		                               NULL };
	int be = k > 2 && (!strcmp(w[2].w, "was") || !strcmp(w[2].w, "were") ||
	                   !strcmp(w[2].w, "is") || !strcmp(w[2].w, "did"));
	int how = 0;
	for (const char *const *p = adj; be && *p && !how; p++)
		how = !strcmp(w[0].w, "how") && !strcmp(w[1].w, *p);
	int what = k > 2 && (first_is(w, k, "what") || first_is(w, k, "which")) &&
	           (!strcmp(w[1].w, "was") || !strcmp(w[1].w, "were") || !strcmp(w[1].w, "is"));
	size_t m = k, e = k;
	for (size_t i = 1; what && i < k && m == k; i++)
		if (rq_measure_word(w[i].w))
			m = i;
	int extreme = (what || (k > 2 && first_is(w, k, "how"))) ? rq_extreme_word(w, k, &e) : 0;
	/* "what was the highest yield": the noun after the extreme is measured */
	if (what && extreme && m == k && e + 1 < k && !lex_stop(w[e + 1].stem) &&
	    !lex_lemma(w[e + 1].stem, NULL) && !w[e + 1].digit)
		m = e + 1;
	int got = has(w, k, "get") || has(w, k, "got") || has(w, k, "reach") ||
	          has(w, k, "reached") || has(w, k, "go") || has(w, k, "drop") ||
	          has(w, k, "fall") || has(w, k, "rise") || has(w, k, "climb");
	if (what && extreme && m == k && got)
		m = e; /* "what was the coldest the fridge got" */
	if (how && !extreme && got)
		extreme = (!strcmp(w[1].w, "low") || !strcmp(w[1].w, "cold") ||
		           !strcmp(w[1].w, "cool")) ? -1 : 1; /* "how cold did it get" */
	/* "how much milk was in the tank at the last check": what it held */
	int held = k > 3 && starts(w, k, "how", "much") && !has(w, k, "did") && !has(w, k, "do") &&
	           (has(w, k, "was") || has(w, k, "is") || has(w, k, "were") || has(w, k, "are"));
	if (held) {
		q->kind = RQ_WHICH;
		q->value = 1;
		return;
	}
	if (!how && m == k)
		return;
	if (q->kind != RQ_WHICH && q->kind != RQ_SEEN && q->kind != RQ_DO)
		return;
	q->kind = RQ_WHICH;
	q->value = 1;
	q->plural = 0;
	q->extreme = extreme;
	if (e < k)
		used[e] = 1;
	used[how ? 1 : m] = 1;
	if (!how && m != e)
		snprintf(q->measure, sizeof q->measure, "%s", w[m].stem);
}

/* Things, people or a place: what the noun after "which" or "what" asks
 * for, and whether all of them are. */
static void read_things(rquestion *q, const lex_word *w, size_t k)
{
	/* "which objects were in room 14", "what was on the table" */
	if ((q->kind == RQ_WHICH || q->kind == RQ_DO) &&
	    (starts(w, k, "objects", "were") || starts(w, k, "things", "were") ||
	     starts(w, k, "items", "were") || starts(w, k, "what", "was") ||
	     starts(w, k, "what", "were") || starts(w, k, "objects", "did") ||
	     starts(w, k, "things", "did")) &&
	    (has(w, k, "in") || has(w, k, "on") || has(w, k, "at") || has(w, k, "inside")) &&
	    !has(w, k, "did") && !(has(w, k, "up") && has(w, k, "to")))
		q->kind = RQ_SEEN;
	if (q->kind == RQ_SEEN && (has(w, k, "objects") || has(w, k, "things")))
		q->plural = 1;
	/* "which objects did you grasp", "what items did you deliver": all */
	if (q->kind == RQ_WHICH && k > 1 && (first_is(w, k, "which") || first_is(w, k, "what")) &&
	    (!strcmp(w[1].w, "objects") || !strcmp(w[1].w, "things") || !strcmp(w[1].w, "items") ||
	     (strlen(w[1].w) > 3 && w[1].w[strlen(w[1].w) - 1] == 's' &&
	      w[1].w[strlen(w[1].w) - 2] != 's' && strcmp(w[1].w, "was") &&
	      strcmp(w[1].w, "does") && strcmp(w[1].w, "has") && strcmp(w[1].w, "is"))))
		q->plural = 1;
	/* "which patients did you visit", "what visitors came": people */
	static const char *const people_nouns[] = { "patient", "patients", "person", "persons",
		                                        "people", "visitor", "visitors", "guest",
		                                        "guests", "nurse", "nurses", "doctor",
		                                        "doctors", "customer", "customers", "user",
		                                        "users", "worker", "workers", "colleague",
		                                        "colleagues", "resident", "residents", NULL };
	if ((q->kind == RQ_WHICH || q->kind == RQ_DO) && k > 1 &&
	    (first_is(w, k, "which") || first_is(w, k, "what")))
		for (const char *const *p = people_nouns; *p; p++)
			if (!strcmp(w[1].w, *p))
				q->kind = RQ_WHO, q->plural = 1;
	/* "Name the people you met", "list everyone you talked to" */
	if (q->kind == RQ_DO && (has(w, k, "people") || has(w, k, "persons") ||
	                         has(w, k, "everyone") || has(w, k, "everybody") ||
	                         has(w, k, "visitors")))
		q->kind = RQ_WHO, q->plural = 1;
	/* "which shelf / what room / which station": a place */
	static const char *const place_nouns[] = { "room", "place", "location", "shelf", "station",
		                                       "table", "aisle", "area", "bay", "dock", "floor",
		                                       "ward", "counter", "cabinet", "drawer", "door",
		                                       "building", "site", "spot", "rack", "bin",
		                                       "zone", "side", "city", "street", "gate",
		                                       "hall", "office", "desk", "bench", "slot",
		                                       "field", "platform", "building",
		                                       "locker", "waypoint", NULL };
	/* "at which dock", "to which floor", "from which shelf", "which meeting
	 * room": the noun may follow a preposition and close a compound */
	size_t wh = k > 1 && (!strcmp(w[0].w, "at") || !strcmp(w[0].w, "to") ||
	                      !strcmp(w[0].w, "from") || !strcmp(w[0].w, "in") ||
	                      !strcmp(w[0].w, "into") || !strcmp(w[0].w, "on") ||
	                      !strcmp(w[0].w, "onto"))
	                ? 1 : 0;
	if ((q->kind == RQ_WHICH || (wh && q->kind == RQ_DAY && !has(w, k, "day") &&
	                             !has(w, k, "days") && !has(w, k, "date"))) &&
	    k > wh + 1 && (!strcmp(w[wh].w, "which") || !strcmp(w[wh].w, "what")))
		for (size_t j = wh + 1; j <= wh + 2 && j < k; j++)
			for (const char *const *p = place_nouns; *p; p++)
				if (!strcmp(w[j].w, *p) || (strlen(w[j].w) == strlen(*p) + 1 &&
				                            !strncmp(w[j].w, *p, strlen(*p))))
					q->kind = (has(w, k, "from") && !has(w, k, "to")) ||
					                  !strcmp(w[0].w, "from")
					              ? RQ_FROM : RQ_WHERE;
}

/* "Did lineset 12 pass its check", "did the first fog test pass": a
 * check or a test that passed is one that succeeded; "pass" is marked
 * used (it is no verb to match). */
static int passed_check(const lex_word *w, size_t k, uint8_t *used)
{
	static const char *const test[] = { "check", "test", "inspection", "audit", "exam",
		                                "checks", "tests", NULL };
	int any = 0;
	for (const char *const *p = test; *p && !any; p++)
		any = has(w, k, *p);
	for (size_t i = 0; any && i < k; i++)
		if (!strcmp(w[i].w, "pass") || !strcmp(w[i].w, "passed")) {
			used[i] = 1;
			return 1;
		}
	return 0;
}

/* Why, who did it, how many people, and how it went: failed, done or any. */
static void read_status(rquestion *q, const lex_word *w, size_t k, uint8_t *used, int trouble)
{
	int could_not = 0;
	q->why = first_is(w, k, "why");
	/* "why did you stop on row 22": stopping is how a run went, no skill
	 * (the reason is the failure's, or the note's: "Stopped the lashing
	 * round at bay 20: wind gusts") */
	for (size_t i = 1; q->why && !trouble && i + 1 < k; i++)
		if ((!strcmp(w[i].w, "stop") || !strcmp(w[i].w, "stopped") || !strcmp(w[i].w, "halt") ||
		     !strcmp(w[i].w, "quit")) && !strcmp(w[i - 1].w, "you")) {
			used[i] = 1;
			if (q->kind == RQ_DO)
				q->kind = RQ_FAILED; /* what went wrong there, if anything did */
		}
	q->agent = q->kind == RQ_WHO && asks_agent(w, k);
	if (q->kind == RQ_COUNT && k > 2 && starts(w, k, "how", "many")) {
		static const char *const who[] = { "people", "persons", "person", "humans", "folks",
			                               NULL };
		for (const char *const *p = who; *p && !q->people; p++)
			q->people = !strcmp(w[2].w, *p);
		if (!q->people)
			q->people = wn_is_person(w[2].w); /* visitors, guests, patients */
	}
	if (trouble && first_is(w, k, "why"))
		q->kind = RQ_FAILED;
	else if (trouble && (q->kind == RQ_WHICH || q->kind == RQ_DO))
		q->kind = RQ_FAILED;
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "could") || !strcmp(w[i].w, "couldn") || !strcmp(w[i].w, "not")) &&
		    (!strcmp(w[i + 1].w, "not") || !strcmp(w[i + 1].w, "t") ||
		     !strcmp(w[i + 1].w, "able")))
			could_not = 1;
	/* "what didn't work out", "what did not succeed", "what didn't you
	 * finish" */
	for (size_t i = 0; i + 1 < k; i++) {
		size_t j = i + 1;
		if (j + 1 < k && (!strcmp(w[j].w, "you") || !strcmp(w[j].w, "we")))
			j++;
		if ((!strcmp(w[i].w, "not") || !strcmp(w[i].w, "t") || !strcmp(w[i].w, "never")) &&
		    (!strcmp(w[j].w, "work") || !strcmp(w[j].w, "succeed") ||
		     !strcmp(w[j].w, "go") || !strcmp(w[j].w, "finish") ||
		     !strcmp(w[j].w, "complete"))) {
			could_not = 1;
			if (q->kind == RQ_WHICH || q->kind == RQ_DO)
				q->kind = RQ_FAILED;
		}
	}
	/* ("what did Lucía say was wrong with her bike": what she said, which
	 * no status of the robot's tells) */
	if (q->kind == RQ_SAID)
		;
	else if (has(w, k, "fail") || has(w, k, "failed") || has(w, k, "unsuccessful") ||
	    has(w, k, "problem") || has(w, k, "problems") || has(w, k, "wrong") ||
	    has(w, k, "unable") || could_not || trouble)
		q->status = RS_FAILED;
	else if (passed_check(w, k, used))
		q->status = RS_DONE; /* "did lineset 12 pass its check" */
	else if (has(w, k, "successfully") || has(w, k, "manage") || has(w, k, "managed") ||
	         has(w, k, "succeed") || has(w, k, "succeeded") || has(w, k, "able") ||
	         has(w, k, "complete") || has(w, k, "completed") || has(w, k, "finish") ||
	         has(w, k, "finished") || has(w, k, "successful"))
		q->status = RS_DONE;
	/* "did you finish row 22": finishing is how it went, not a skill; the
	 * words after it are what was done */
	for (size_t i = 0; q->status == RS_DONE && i + 1 < k; i++)
		if ((!strcmp(w[i].w, "finish") || !strcmp(w[i].w, "finished") ||
		     !strcmp(w[i].w, "complete") || !strcmp(w[i].w, "completed")) &&
		    !w[i + 1].digit && !lex_stop(w[i + 1].stem))
			used[i] = 1;
}

/* The robot as the subject or speaker, and the order asked (first,
 * last, the n-th time). */
static void read_order(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	/* "which row did you start with": the first */
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "start") || !strcmp(w[i].w, "begin") || !strcmp(w[i].w, "started") ||
		     !strcmp(w[i].w, "began")) && !strcmp(w[i + 1].w, "with")) {
			used[i] = used[i + 1] = 1;
			q->order = RO_FIRST;
			q->order_said = 1;
		}
	/* "did you send", "where did you ...": the robot is the subject */
	for (size_t i = 0; i + 1 < k && !q->you; i++)
		q->you = (!strcmp(w[i].w, "did") || !strcmp(w[i].w, "do") || !strcmp(w[i].w, "have")) &&
		         !strcmp(w[i + 1].w, "you");
	/* "what did you say", "what did you tell" */
	for (size_t i = 0; i + 2 < k; i++) {
		/* ("what did you last say": an adverb between) */
		size_t v = i + 2;
		if (v + 1 < k && (!strcmp(w[v].w, "last") || !strcmp(w[v].w, "first") ||
		                  !strcmp(w[v].w, "just") || !strcmp(w[v].w, "ever") ||
		                  !strcmp(w[v].w, "actually") || !strcmp(w[v].w, "also")))
			v++;
		if (!strcmp(w[i].w, "did") && !strcmp(w[i + 1].w, "you") &&
		    (!strcmp(w[v].w, "say") || !strcmp(w[v].w, "tell") ||
		     !strcmp(w[v].w, "answer") || !strcmp(w[v].w, "reply") ||
		     !strcmp(w[v].w, "report") || !strcmp(w[v].w, "announce") ||
		     /* "what did you promise Tom": the robot's words to Tom */
		     !strcmp(w[v].w, "promise") || !strcmp(w[v].w, "suggest") ||
		     !strcmp(w[v].w, "recommend") || !strcmp(w[v].w, "warn") ||
		     !strcmp(w[v].w, "advise") || !strcmp(w[v].w, "explain") ||
		     !strcmp(w[v].w, "offer")))
			q->self_speaker = 1;
		/* a promise says what the robot will do */
		if (q->self_speaker && (!strcmp(w[v].w, "promise") || !strcmp(w[v].w, "offer")))
			q->promise = 1;
	}
	/* order */
	for (size_t i = 0; i < k; i++) {
		const char *s = w[i].w;
		int o;
		if (!strcmp(s, "last") || !strcmp(s, "latest") || !strcmp(s, "recently") ||
		    !strcmp(s, "recent")) {
			if (!used[i])
				q->order = RO_LAST, q->order_said = 1;
		} else if ((!strcmp(s, "first") || !strcmp(s, "earliest") || !strcmp(s, "initially")) &&
		           !used[i]) {
			q->order = RO_FIRST, q->order_said = 1;
		} else if ((o = ordinal(s)) > 1 && i + 1 < k &&
		           (!strcmp(w[i + 1].w, "time") || !strcmp(w[i + 1].w, "occasion"))) {
			q->order = RO_NTH, q->nth = o, q->order_said = 1;
		} else if (!strcmp(s, "ever") || !strcmp(s, "all") || !strcmp(s, "every")) {
			if (q->kind == RQ_DAY || q->kind == RQ_WHO || q->kind == RQ_SEEN)
				q->plural = 1;
		}
	}
	if (q->kind == RQ_WHO && !has(w, k, "last") && !has(w, k, "first"))
		q->plural = 1;
}

void read_kind(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	int said = has(w, k, "say") || has(w, k, "said") || has(w, k, "tell") ||
	           has(w, k, "told") || has(w, k, "ask") || has(w, k, "asked") ||
	           has(w, k, "mention") || has(w, k, "mentioned") || has(w, k, "talk") ||
	           has(w, k, "speak") || has(w, k, "spoke") || has(w, k, "says") ||
	           has(w, k, "hear") || has(w, k, "heard") || has(w, k, "report") ||
	           has(w, k, "reported") || has(w, k, "instructions") || has(w, k, "instructed") ||
	           has(w, k, "announce") || has(w, k, "announced");
	int seen = has(w, k, "see") || has(w, k, "saw") || has(w, k, "seen") ||
	           has(w, k, "notice") || has(w, k, "noticed") || has(w, k, "detect") ||
	           has(w, k, "detected") || has(w, k, "spot") || has(w, k, "spotted") ||
	           has(w, k, "observe") || has(w, k, "observed") || has(w, k, "recognize") ||
	           has(w, k, "recognized");
	/* "what did Mia complain about", "what did the guest beg for": a verb
	 * of saying the lexicon does not know, after "did" (WordNet) */
	size_t sv = verb_after_did(w, k);
	if (!said && sv && said_verb(w, sv))
		said = 1;
	/* "what did you find in the aisles": what was seen there (not "find
	 * out", nor "what tools did you find": a thing named) */
	if (k > 4 && first_is(w, k, "what") && !strcmp(w[1].w, "did") && !strcmp(w[2].w, "you") &&
	    (!strcmp(w[3].w, "find") || !strcmp(w[3].w, "discover")) &&
	    (!strcmp(w[4].w, "in") || !strcmp(w[4].w, "on") || !strcmp(w[4].w, "at") ||
	     !strcmp(w[4].w, "during") || !strcmp(w[4].w, "near") || !strcmp(w[4].w, "under") ||
	     !strcmp(w[4].w, "behind") || !strcmp(w[4].w, "when") || !strcmp(w[4].w, "while")))
		seen = 1;
	/* "what did you do before the guard spoke": a question about doing */
	if (k > 3 && !strcmp(w[1].w, "did") && !strcmp(w[2].w, "you") && !strcmp(w[3].w, "do"))
		said = seen = 0;
	q->kind = RQ_DO;
	read_steps(q, w, k, used);
	read_wh(q, w, k, used, said, seen);
	read_things(q, w, k);
	read_value(q, w, k, used);
	int trouble = rq_read_trouble(w, k, used);
	read_status(q, w, k, used, trouble);
	read_order(q, w, k, used);
}
