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
	int steps_ok = !(rq_starts(w, k, "how", "many") || rq_starts(w, k, "how", "often") ||
	                 rq_starts(w, k, "number", "of") || rq_has(w, k, "fail") || rq_has(w, k, "failed"));
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
		    (rq_has(w, k, "did") || rq_has(w, k, "do"))) {
			q->kind = RQ_STEPS;
			q->step = !strcmp(w[i - 1].w, "first") ? 1 : -1;
			used[i - 1] = 1;
		}
	/* "what did you do last on July 12", "what did you do first today":
	 * the last (first) step of the span, not all of it */
	for (size_t i = 1; q->kind != RQ_STEPS && rq_first_is(w, k, "what") && i < k; i++)
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
	else if (rq_first_is(w, k, "what") && up_to(w, k, used))
		; /* "what did you get up to on Friday": what was done */
	else if (rq_starts(w, k, "how", "many") && k > 3 && rq_time_unit(w[2].w) &&
	         (rq_has(w, k, "take") || rq_has(w, k, "took") || rq_has(w, k, "last") ||
	          rq_has(w, k, "lasted") || rq_has(w, k, "spend") || rq_has(w, k, "spent")))
		q->kind = RQ_DURATION, used[2] = 1; /* "how many minutes did the sweep take" */
	else if (rq_starts(w, k, "how", "many") || rq_starts(w, k, "how", "often") ||
	    rq_starts(w, k, "number", "of") || rq_starts(w, k, "how", "frequently") ||
	    rq_starts(w, k, "how", "much"))
		q->kind = RQ_COUNT, q->much = rq_starts(w, k, "how", "much"); /* (an amount summed) */
	else if (rq_starts(w, k, "how", "long"))
		q->kind = RQ_DURATION;
	else if (rq_starts(w, k, "what", "day") || rq_starts(w, k, "which", "day") ||
	         rq_starts(w, k, "which", "days") || rq_starts(w, k, "what", "days") ||
	         rq_starts(w, k, "what", "date") || rq_starts(w, k, "which", "date") ||
	         rq_starts(w, k, "which", "dates") || rq_starts(w, k, "on", "what") ||
	         rq_starts(w, k, "on", "which"))
		q->kind = RQ_DAY, q->plural = rq_has(w, k, "days") || rq_has(w, k, "dates");
	else if (rq_first_is(w, k, "when") || rq_starts(w, k, "what", "time") ||
	         rq_starts(w, k, "which", "time") ||
	         (rq_starts(w, k, "at", "what") && k > 2 &&
	          (!strcmp(w[2].w, "time") || !strcmp(w[2].w, "hour") || !strcmp(w[2].w, "point") ||
	           !strcmp(w[2].w, "moment") || !strcmp(w[2].w, "o"))))
		q->kind = RQ_WHEN; /* not "at what speed" */
	else if (rq_first_is(w, k, "where") && k > 3 && !strcmp(w[1].w, "did") &&
	         !strcmp(w[2].w, "you") && (!strcmp(w[3].w, "tell") || !strcmp(w[3].w, "say")))
		q->kind = RQ_SAID; /* "where did you tell the visitor the sloths were": the words */
	else if (rq_where_said(w, k))
		q->kind = RQ_SAID; /* "where did the Commander say the mug was": the words */
	else if (rq_first_is(w, k, "where") || rq_starts(w, k, "which", "place") ||
	         rq_starts(w, k, "what", "place") || rq_starts(w, k, "which", "location") ||
	         rq_starts(w, k, "what", "location") || rq_starts(w, k, "which", "room") ||
	         rq_starts(w, k, "to", "where") || rq_starts(w, k, "from", "where"))
		q->kind = (rq_has(w, k, "from") && !rq_has(w, k, "to")) ? RQ_FROM : RQ_WHERE;
	else if (rq_first_is(w, k, "who") || rq_first_is(w, k, "whom") || rq_starts(w, k, "which", "person") ||
	         rq_starts(w, k, "what", "person") || rq_starts(w, k, "which", "people") ||
	         rq_starts(w, k, "to", "whom") || rq_starts(w, k, "whose", NULL))
		q->kind = RQ_WHO;
	else if (rq_first_is(w, k, "what") && name_of_person(w, k, used))
		q->kind = RQ_WHO; /* "what's the name of the person you met" */
	else if ((rq_first_is(w, k, "what") || rq_first_is(w, k, "which")) && said)
		q->kind = RQ_SAID;
	else if ((rq_first_is(w, k, "what") || rq_first_is(w, k, "which")) && seen)
		q->kind = RQ_SEEN, q->plural = 1;
	else if ((rq_first_is(w, k, "which") || rq_first_is(w, k, "what")) && k > 1 &&
	         strcmp(w[1].w, "failed") && strcmp(w[1].w, "went") && strcmp(w[1].w, "happened") &&
	         strcmp(w[1].w, "was") && strcmp(w[1].w, "were") && strcmp(w[1].w, "problem") &&
	         strcmp(w[1].w, "problems") && strcmp(w[1].w, "did") && strcmp(w[1].w, "of") &&
	         strcmp(w[1].w, "actions") && strcmp(w[1].w, "tasks") && strcmp(w[1].w, "task") &&
	         strcmp(w[1].w, "action") && strcmp(w[1].w, "could") && strcmp(w[1].w, "couldn") &&
	         strcmp(w[1].w, "step") && strcmp(w[1].w, "steps") && strcmp(w[1].w, "skill") &&
	         strcmp(w[1].w, "skills") && strcmp(w[1].w, "job") && strcmp(w[1].w, "jobs") &&
	         strcmp(w[1].w, "operation") && strcmp(w[1].w, "operations") &&
	         strcmp(w[1].w, "things") && strcmp(w[1].w, "activities") &&
	         (rq_has(w, k, "fail") || rq_has(w, k, "failed")))
		q->kind = RQ_WHICH; /* "which tote did you fail to pick" */
	else if (rq_has(w, k, "fail") || rq_has(w, k, "failed") || rq_has(w, k, "wrong") ||
	         rq_has(w, k, "problem") || rq_has(w, k, "problems") || rq_has(w, k, "unsuccessful") ||
	         rq_has(w, k, "unable") || (rq_has(w, k, "not") && (rq_has(w, k, "could") ||
	                                                      rq_has(w, k, "able"))))
		q->kind = rq_first_is(w, k, "did") || rq_first_is(w, k, "have") || rq_first_is(w, k, "was") ||
		                  rq_first_is(w, k, "were") || rq_first_is(w, k, "has")
		              ? RQ_YESNO
		              : RQ_FAILED;
	else if (rq_first_is(w, k, "did") || rq_first_is(w, k, "have") || rq_first_is(w, k, "has") ||
	         rq_first_is(w, k, "were") || rq_first_is(w, k, "was") || rq_first_is(w, k, "do") ||
	         rq_first_is(w, k, "is") || rq_first_is(w, k, "are") || rq_first_is(w, k, "had"))
		q->kind = RQ_YESNO;
	else if (rq_starts(w, k, "which", NULL) || rq_starts(w, k, "what", "object") ||
	         rq_starts(w, k, "what", "objects") || rq_starts(w, k, "what", "item") ||
	         rq_starts(w, k, "what", "thing") || rq_starts(w, k, "what", "things"))
		q->kind = RQ_WHICH;
	else if (rq_first_is(w, k, "what") && !rq_has(w, k, "do") && !rq_has(w, k, "doing") &&
	         !rq_has(w, k, "did") && !rq_has(w, k, "happen") && !rq_has(w, k, "happened"))
		q->kind = RQ_WHICH;
	else if (rq_first_is(w, k, "what") && k > 1 && !strcmp(w[1].w, "did") && !rq_has(w, k, "do") &&
	         !rq_has(w, k, "happen"))
		q->kind = RQ_WHICH; /* "what did you grasp" (not "what you did") */
	else if (rq_first_is(w, k, "what") && k > 3 && (!strcmp(w[2].w, "did") || !strcmp(w[2].w, "do") ||
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
		                               "empty", "far", "tall", "wide", "thick", "big",
		                               "long", NULL };
	int be = k > 2 && (!strcmp(w[2].w, "was") || !strcmp(w[2].w, "were") ||
	                   !strcmp(w[2].w, "is") || !strcmp(w[2].w, "did"));
	int how = 0;
	for (const char *const *p = adj; be && *p && !how; p++)
		how = !strcmp(w[0].w, "how") && !strcmp(w[1].w, *p);
	rq_read_unit(q, w, k);
	/* "how long was the cable run, in metres": a length, not a duration */
	if (how && !strcmp(w[1].w, "long") && !rq_length_unit(q->unit))
		how = 0;
	if (how) {
		snprintf(q->how_adj, sizeof q->how_adj, "%.11s", w[1].stem);
		if (q->kind == RQ_DURATION || q->kind == RQ_COUNT)
			q->kind = RQ_WHICH;
	}
	int what = k > 2 && (rq_first_is(w, k, "what") || rq_first_is(w, k, "which")) &&
	           (!strcmp(w[1].w, "was") || !strcmp(w[1].w, "were") || !strcmp(w[1].w, "is"));
	size_t m = k, e = k;
	for (size_t i = 1; what && i < k && m == k; i++)
		if (rq_measure_word(w[i].w))
			m = i;
	int extreme = (what || (k > 2 && rq_first_is(w, k, "how"))) ? rq_extreme_word(w, k, &e) : 0;
	/* "what was the highest yield": the noun after the extreme is measured */
	if (what && extreme && m == k && e + 1 < k && !lex_stop(w[e + 1].stem) &&
	    !lex_lemma(w[e + 1].stem, NULL) && !w[e + 1].digit)
		m = e + 1;
	int got = rq_has(w, k, "get") || rq_has(w, k, "got") || rq_has(w, k, "reach") ||
	          rq_has(w, k, "reached") || rq_has(w, k, "go") || rq_has(w, k, "drop") ||
	          rq_has(w, k, "fall") || rq_has(w, k, "rise") || rq_has(w, k, "climb");
	if (what && extreme && m == k && got)
		m = e; /* "what was the coldest the fridge got" */
	if (how && !extreme && got)
		extreme = (!strcmp(w[1].w, "low") || !strcmp(w[1].w, "cold") ||
		           !strcmp(w[1].w, "cool")) ? -1 : 1; /* "how cold did it get" */
	/* "how much milk was in the tank at the last check": what it held */
	int held = k > 3 && rq_starts(w, k, "how", "much") && !rq_has(w, k, "did") && !rq_has(w, k, "do") &&
	           (rq_has(w, k, "was") || rq_has(w, k, "is") || rq_has(w, k, "were") || rq_has(w, k, "are"));
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
	    (rq_starts(w, k, "objects", "were") || rq_starts(w, k, "things", "were") ||
	     rq_starts(w, k, "items", "were") || rq_starts(w, k, "what", "was") ||
	     rq_starts(w, k, "what", "were") || rq_starts(w, k, "objects", "did") ||
	     rq_starts(w, k, "things", "did")) &&
	    (rq_has(w, k, "in") || rq_has(w, k, "on") || rq_has(w, k, "at") || rq_has(w, k, "inside")) &&
	    !rq_has(w, k, "did") && !(rq_has(w, k, "up") && rq_has(w, k, "to")))
		q->kind = RQ_SEEN;
	if (q->kind == RQ_SEEN && (rq_has(w, k, "objects") || rq_has(w, k, "things")))
		q->plural = 1;
	/* "which objects did you grasp", "what items did you deliver": all */
	if (q->kind == RQ_WHICH && k > 1 && (rq_first_is(w, k, "which") || rq_first_is(w, k, "what")) &&
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
	    (rq_first_is(w, k, "which") || rq_first_is(w, k, "what")))
		for (const char *const *p = people_nouns; *p; p++)
			if (!strcmp(w[1].w, *p))
				q->kind = RQ_WHO, q->plural = 1;
	/* "Name the people you met", "list everyone you talked to" */
	if (q->kind == RQ_DO && (rq_has(w, k, "people") || rq_has(w, k, "persons") ||
	                         rq_has(w, k, "everyone") || rq_has(w, k, "everybody") ||
	                         rq_has(w, k, "visitors")))
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
	if ((q->kind == RQ_WHICH || (wh && q->kind == RQ_DAY && !rq_has(w, k, "day") &&
	                             !rq_has(w, k, "days") && !rq_has(w, k, "date"))) &&
	    k > wh + 1 && (!strcmp(w[wh].w, "which") || !strcmp(w[wh].w, "what")))
		for (size_t j = wh + 1; j <= wh + 2 && j < k; j++)
			for (const char *const *p = place_nouns; *p; p++)
				if (!strcmp(w[j].w, *p) || (strlen(w[j].w) == strlen(*p) + 1 &&
				                            !strncmp(w[j].w, *p, strlen(*p))))
					q->kind = (rq_has(w, k, "from") && !rq_has(w, k, "to")) ||
					                  !strcmp(w[0].w, "from")
					              ? RQ_FROM : RQ_WHERE;
}

void read_kind(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	int said = rq_has(w, k, "say") || rq_has(w, k, "said") || rq_has(w, k, "tell") ||
	           rq_has(w, k, "told") || rq_has(w, k, "ask") || rq_has(w, k, "asked") ||
	           rq_has(w, k, "mention") || rq_has(w, k, "mentioned") || rq_has(w, k, "talk") ||
	           rq_has(w, k, "speak") || rq_has(w, k, "spoke") || rq_has(w, k, "says") ||
	           rq_has(w, k, "hear") || rq_has(w, k, "heard") || rq_has(w, k, "report") ||
	           rq_has(w, k, "reported") || rq_has(w, k, "instructions") || rq_has(w, k, "instructed") ||
	           rq_has(w, k, "announce") || rq_has(w, k, "announced") ||
	           rq_has(w, k, "answer") || rq_has(w, k, "answered") || rq_has(w, k, "reply") ||
	           rq_has(w, k, "replied") || rq_has(w, k, "respond") ||
	           rq_has(w, k, "responded") || rq_has(w, k, "radio") || rq_has(w, k, "radioed") ||
	           rq_has(w, k, "messaged") || rq_has(w, k, "texted");
	int seen = rq_has(w, k, "see") || rq_has(w, k, "saw") || rq_has(w, k, "seen") ||
	           rq_has(w, k, "notice") || rq_has(w, k, "noticed") || rq_has(w, k, "detect") ||
	           rq_has(w, k, "detected") || rq_has(w, k, "spot") || rq_has(w, k, "spotted") ||
	           rq_has(w, k, "observe") || rq_has(w, k, "observed") || rq_has(w, k, "recognize") ||
	           rq_has(w, k, "recognized");
	/* "what did Mia complain about", "what did the guest beg for": a verb
	 * of saying the lexicon does not know, after "did" (WordNet) */
	size_t sv = verb_after_did(w, k);
	if (!said && sv && said_verb(w, sv))
		said = 1;
	/* "what did you find in the aisles": what was seen there (not "find
	 * out", nor "what tools did you find": a thing named) */
	if (k > 4 && rq_first_is(w, k, "what") && !strcmp(w[1].w, "did") && !strcmp(w[2].w, "you") &&
	    (!strcmp(w[3].w, "find") || !strcmp(w[3].w, "discover")) &&
	    (!strcmp(w[4].w, "in") || !strcmp(w[4].w, "on") || !strcmp(w[4].w, "at") ||
	     !strcmp(w[4].w, "during") || !strcmp(w[4].w, "near") || !strcmp(w[4].w, "under") ||
	     !strcmp(w[4].w, "behind") || !strcmp(w[4].w, "when") || !strcmp(w[4].w, "while")))
		seen = 1;
	/* "what did the commander want (me to do)", "what did Ana need":
	 * someone's request, in their words — the first of the span, as a
	 * request opens what follows it */
	size_t wanted = 0;
	for (size_t j = 3; k > 3 && rq_first_is(w, k, "what") && !strcmp(w[1].w, "did") &&
	                   strcmp(w[2].w, "you") && strcmp(w[2].w, "we") && strcmp(w[2].w, "i") &&
	                   j < 8 && j < k && !wanted; j++)
		if (!strcmp(w[j].w, "want") || !strcmp(w[j].w, "need"))
			wanted = j;
	/* (only with nothing more to it: "what did the director want changed
	 * for opening night" asks for the change, in whatever words) */
	for (size_t j = wanted + 1; wanted && j < k; j++)
		if (!used[j] && strcmp(w[j].w, "me") && strcmp(w[j].w, "us") && strcmp(w[j].w, "you") &&
		    strcmp(w[j].w, "to") && strcmp(w[j].w, "do") && strcmp(w[j].w, "done") &&
		    strcmp(w[j].w, "from") && strcmp(w[j].w, "know") && strcmp(w[j].w, "on") &&
		    strcmp(w[j].w, "at") && strcmp(w[j].w, "in") && strcmp(w[j].w, "during") &&
		    strcmp(w[j].w, "this") && strcmp(w[j].w, "the"))
			wanted = 0;
	if (wanted) {
		said = 1;
		for (size_t j = wanted; j < k; j++)
			used[j] = 1;
	}
	/* "what did you keep saying over and over", "what were you repeating":
	 * the words said most often */
	for (size_t j = 0; j < k; j++) {
		int keep = (!strcmp(w[j].w, "keep") || !strcmp(w[j].w, "kept")) && j + 1 < k &&
		           (!strcmp(w[j + 1].w, "saying") || !strcmp(w[j + 1].w, "repeating") ||
		            !strcmp(w[j + 1].w, "telling") || !strcmp(w[j + 1].w, "asking"));
		int over = j + 2 < k && ((!strcmp(w[j].w, "over") && !strcmp(w[j + 2].w, "over")) ||
		                         (!strcmp(w[j].w, "again") && !strcmp(w[j + 2].w, "again"))) &&
		           !strcmp(w[j + 1].w, "and");
		int rep = !strcmp(w[j].w, "repeating") || !strcmp(w[j].w, "repeatedly");
		if (keep)
			used[j] = used[j + 1] = 1;
		if (over)
			used[j] = used[j + 1] = used[j + 2] = 1;
		if (rep)
			used[j] = 1;
		if (keep || over || rep)
			q->repeated = said = 1, seen = 0;
	}
	/* "what did you do before the guard spoke": a question about doing */
	if (k > 3 && !strcmp(w[1].w, "did") && !strcmp(w[2].w, "you") && !strcmp(w[3].w, "do"))
		said = seen = 0;
	q->kind = RQ_DO;
	read_steps(q, w, k, used);
	read_wh(q, w, k, used, said, seen);
	read_things(q, w, k);
	read_value(q, w, k, used);
	int trouble = rq_read_trouble(w, k, used);
	rq_read_status(q, w, k, used, trouble);
	rq_read_order(q, w, k, used);
	if (wanted && q->kind == RQ_SAID && !q->order_said)
		q->order = RO_FIRST;
}
