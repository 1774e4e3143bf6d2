/*
 * recall_q_words.c — word lists of the question reader: a measure word
 * ("level", "reading"), a unit of time ("how many minutes did it take")
 * and the words that ask about a failure ("any trouble", "cut short").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api/recall/recall.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_q_internal.h"

/* A word that names a measured value (recall.h). */
int rq_measure_word(const char *w)
{
	static const char *const m[] = { "level", "levels", "reading", "readings", "value",
		                             "values", "temperature", "temp", "pressure",
		                             "humidity", "rate", "concentration", "voltage",
		                             "percentage", "speed", "depth", "charge", "battery",
		                             "dose", "moisture", "ph", "measurement", "score",
		                             "torque", "weight", "height", "length", "distance",
		                             "width", "flow", "tension", "thickness", NULL };
	for (const char *const *p = m; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

/* A unit as one spelling: "percent", "%" and "pct" are "pct"; "metres"
 * is "m"; "" for a word that is no unit this reader knows. */
const char *rq_norm_unit(const char *w)
{
	static const char *const u[][2] = {
		{ "percent", "pct" }, { "pct", "pct" }, { "%", "pct" }, { "per", "pct" },
		{ "cm", "cm" }, { "centimetres", "cm" }, { "centimeters", "cm" },
		{ "mm", "mm" }, { "millimetres", "mm" }, { "millimeters", "mm" },
		{ "m", "m" }, { "metres", "m" }, { "meters", "m" }, { "metre", "m" }, { "meter", "m" },
		{ "km", "km" }, { "kilometres", "km" }, { "kilometers", "km" },
		{ "ft", "ft" }, { "feet", "ft" }, { "foot", "ft" },
		{ "kg", "kg" }, { "kilos", "kg" }, { "kilograms", "kg" }, { "g", "g" }, { "grams", "g" },
		{ "lb", "lb" }, { "lbs", "lb" }, { "pounds", "lb" },
		{ "l", "l" }, { "litres", "l" }, { "liters", "l" }, { "ml", "ml" },
		{ "millilitres", "ml" }, { "milliliters", "ml" }, { "gal", "gal" }, { "gallons", "gal" },
		{ "c", "c" }, { "degc", "c" }, { "celsius", "c" }, { "degrees", "c" },
		{ "f", "f" }, { "fahrenheit", "f" }, { "nm", "nm" }, { "psi", "psi" }, { "bar", "bar" },
		{ "kpa", "kpa" }, { "ppm", "ppm" }, { "rpm", "rpm" }, { "db", "db" }, { "decibels", "db" },
		{ "v", "v" }, { "volts", "v" }, { "amps", "a" }, { "kw", "kw" }, { "kwh", "kwh" },
	};
	for (size_t i = 0; i < sizeof u / sizeof *u; i++)
		if (!strcmp(w, u[i][0]))
			return u[i][1];
	return "";
}

/* A unit of length, normalised ("cm", "m"). */
int rq_length_unit(const char *u)
{
	return !strcmp(u, "cm") || !strcmp(u, "mm") || !strcmp(u, "m") || !strcmp(u, "km") ||
	       !strcmp(u, "ft");
}

/* "..., in percent?", "in cm": the unit the answer is asked in, into
 * q->unit (the last "in <unit>" of the question). */
void rq_read_unit(rquestion *q, const lex_word *w, size_t k)
{
	q->unit[0] = 0;
	for (size_t i = 0; i + 1 < k; i++)
		if (!strcmp(w[i].w, "in") && *rq_norm_unit(w[i + 1].w) &&
		    (i + 2 == k || !strcmp(w[i + 1].w, "percent")))
			snprintf(q->unit, sizeof q->unit, "%s", rq_norm_unit(w[i + 1].w));
}

/* A unit of time ("minutes", "hours"). */
int rq_time_unit(const char *w)
{
	static const char *const u[] = { "seconds", "minutes", "hours", "mins", "hrs", "days",
		                             NULL };
	for (const char *const *p = u; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

/* A failure asked about ("any trouble", "why did the walk stop early",
 * "cut short", "interrupted"): 1, its words marked used. */
int rq_read_trouble(const lex_word *w, size_t k, uint8_t *used)
{
	/* "any trouble", "was there an issue", "why did the walk stop early",
	 * "cut short", "interrupted": a failure asked about */
	int trouble = 0;
	static const char *const bad[] = { "trouble", "troubles", "issue", "issues", "error",
		                               "errors", "mishap", "mishaps", "incident",
		                               "incidents", "interrupted", "aborted", "abort",
		                               "cancelled", "canceled", "broke", "broken",
		                               "breakdown", "breakdowns", "malfunction",
		                               "malfunctioned", "malfunctions", "failure",
		                               "failures", "fault", "faults", NULL };
	for (size_t i = 0; i < k; i++) {
		/* "the broken jar": a thing's state, not a failure */
		int adjective = !strcmp(w[i].w, "broken") && i + 1 < k && !lex_stop(w[i + 1].stem) &&
		                !lex_lemma(w[i + 1].stem, NULL) && !w[i + 1].digit;
		for (const char *const *p = bad; *p && !adjective; p++)
			if (!strcmp(w[i].w, *p))
				trouble = 1, used[i] = 1;
		if (i + 1 < k && ((!strcmp(w[i].w, "cut") && !strcmp(w[i + 1].w, "short")) ||
		                  ((!strcmp(w[i].w, "stop") || !strcmp(w[i].w, "stopped") ||
		                    !strcmp(w[i].w, "end") || !strcmp(w[i].w, "ended") ||
		                    !strcmp(w[i].w, "finish") || !strcmp(w[i].w, "finished")) &&
		                   (!strcmp(w[i + 1].w, "early") || !strcmp(w[i + 1].w, "halfway") ||
		                    !strcmp(w[i + 1].w, "prematurely"))) ||
		                  ((!strcmp(w[i].w, "give") || !strcmp(w[i].w, "gave")) &&
		                   !strcmp(w[i + 1].w, "up")) ||
		                  /* "break down", "gave out", "stopped working" */
		                  ((!strcmp(w[i].w, "break") || !strcmp(w[i].w, "breaks")) &&
		                   !strcmp(w[i + 1].w, "down")) ||
		                  ((!strcmp(w[i].w, "give") || !strcmp(w[i].w, "gave") ||
		                    !strcmp(w[i].w, "gives")) && !strcmp(w[i + 1].w, "out")) ||
		                  ((!strcmp(w[i].w, "stop") || !strcmp(w[i].w, "stopped")) &&
		                   !strcmp(w[i + 1].w, "working"))))
			trouble = 1, used[i] = used[i + 1] = 1;
		if (i + 1 < k && !strcmp(w[i].w, "broke") && !strcmp(w[i + 1].w, "down"))
			used[i + 1] = 1;
	}
	return trouble;
}

/* "the highest temperature", "the average reading": the extreme asked
 * (1 highest, -1 lowest, 2 average), its word's index into *at; 0 none. */
int rq_extreme_word(const lex_word *w, size_t k, size_t *at)
{
	static const char *const words[] = { "highest", "maximum", "max",    "peak",
		                                 "hottest", "warmest", "lowest", "minimum",
		                                 "min",     "coldest", "coolest", "average",
		                                 "mean",    NULL };
	for (size_t i = 1; i < k; i++)
		for (size_t j = 0; words[j]; j++)
			if (!strcmp(w[i].w, words[j])) {
				*at = i;
				return j < 6 ? 1 : j < 11 ? -1 : 2;
			}
	return 0;
}

/* "Where did the Commander say the tomato was", "where did Ana tell you
 * she left the keys": someone's words about where a thing is. */
int rq_where_said(const lex_word *w, size_t k)
{
	if (k < 5 || strcmp(w[0].w, "where") || strcmp(w[1].w, "did"))
		return 0;
	for (size_t j = 3; j < k && j < 6; j++)
		if (!strcmp(w[j].w, "say") || !strcmp(w[j].w, "tell") || !strcmp(w[j].w, "mention"))
			for (size_t i = j + 1; i < k; i++)
				if (!strcmp(w[i].w, "was") || !strcmp(w[i].w, "is") ||
				    !strcmp(w[i].w, "were") || !strcmp(w[i].w, "are") ||
				    !strcmp(w[i].w, "left") || !strcmp(w[i].w, "kept"))
					return 1;
	return 0;
}

/* ------------------------------------------------------- word helpers -- */

int rq_has(const lex_word *w, size_t k, const char *s)
{
	for (size_t i = 0; i < k; i++)
		if (!strcmp(w[i].w, s))
			return 1;
	return 0;
}

int rq_starts(const lex_word *w, size_t k, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < k && i < 4; i++)
		if (!strcmp(w[i].w, a) && (!b || !strcmp(w[i + 1].w, b)))
			return 1;
	return 0;
}

int rq_first_is(const lex_word *w, size_t k, const char *a)
{
	return k && !strcmp(w[0].w, a);
}

/* --------------------------------------------------- status and order -- */

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
	if (rq_has(w, k, "you") || rq_has(w, k, "me") || rq_has(w, k, "us") || !strcmp(w[2].w, "by"))
		return 0;
	int cls = LC_NONE;
	if (lex_lemma(w[1].stem, &cls))
		/* ("who got the laptop": whom it went to) */
		return cls != LC_GO && cls != LC_MEET && cls != LC_SAY && cls != LC_SEE &&
		       cls != LC_LOOK && cls != LC_TAKE && cls != LC_RECEIVE;
	return !wn_speech_verb(w[1].w);
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
		any = rq_has(w, k, *p);
	for (size_t i = 0; any && i < k; i++)
		if (!strcmp(w[i].w, "pass") || !strcmp(w[i].w, "passed")) {
			used[i] = 1;
			return 1;
		}
	return 0;
}

/* Why, who did it, how many people, and how it went: failed, done or any. */
void rq_read_status(rquestion *q, const lex_word *w, size_t k, uint8_t *used, int trouble)
{
	int could_not = 0;
	q->why = rq_first_is(w, k, "why");
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
	if (q->kind == RQ_COUNT && k > 2 && rq_starts(w, k, "how", "many")) {
		static const char *const who[] = { "people", "persons", "person", "humans", "folks",
			                               NULL };
		for (const char *const *p = who; *p && !q->people; p++)
			q->people = !strcmp(w[2].w, *p);
		if (!q->people)
			q->people = wn_is_person(w[2].w); /* visitors, guests, patients */
	}
	if (trouble && rq_first_is(w, k, "why"))
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
	/* "what stopped the Outback", "what held up the wash": why it did */
	if (k > 2 && rq_first_is(w, k, "what") && (q->kind == RQ_DO || q->kind == RQ_WHICH) &&
	    (!strcmp(w[1].w, "stopped") || !strcmp(w[1].w, "interrupted") ||
	     !strcmp(w[1].w, "delayed") || !strcmp(w[1].w, "halted") ||
	     !strcmp(w[1].w, "blocked") || (!strcmp(w[1].w, "held") && !strcmp(w[2].w, "up")))) {
		used[1] = 1;
		q->why = 1;
		q->kind = RQ_FAILED;
		could_not = 1;
	}
	/* "why didn't the first street track work", "why was take 2
	 * stopped / cancelled / no good": what went wrong with that one */
	if (q->why && !could_not && (q->kind == RQ_DO || q->kind == RQ_WHICH)) {
		static const char *const bad[] = { "stopped", "cancelled", "canceled", "aborted",
			                               "scrapped", "halted", "interrupted", "rejected",
			                               "abandoned", "refused", NULL };
		int neg = 0, sunk = 0;
		for (size_t i = 1; i < k; i++) {
			neg |= !strcmp(w[i].w, "not") || !strcmp(w[i].w, "t") || !strcmp(w[i].w, "never");
			sunk |= neg && (!strcmp(w[i].w, "work") || !strcmp(w[i].w, "succeed") ||
			                !strcmp(w[i].w, "finish") || !strcmp(w[i].w, "complete") ||
			                !strcmp(w[i].w, "happen") || !strcmp(w[i].w, "start"));
			sunk |= i + 1 < k && !strcmp(w[i].w, "no") && !strcmp(w[i + 1].w, "good");
			for (const char *const *b = bad; *b && !sunk; b++)
				if (!strcmp(w[i].w, *b)) {
					sunk = 1;
					used[i] = 1;
				}
		}
		if (sunk) {
			could_not = 1;
			q->kind = RQ_FAILED;
		}
	}
	/* "did the feed pushing go OK", "did the delivery go well": how it
	 * went, not a going nor a name */
	int went_well = 0;
	for (size_t i = 1; i + 1 < k && q->kind != RQ_SAID; i++) {
		static const char *const well[] = { "ok", "okay", "well", "fine", "smoothly",
			                                "alright", "right", NULL };
		if (strcmp(w[i].w, "go") && strcmp(w[i].w, "went") && strcmp(w[i].w, "going"))
			continue;
		for (const char *const *p = well; *p && !went_well; p++)
			went_well = !strcmp(w[i + 1].w, *p) && (i + 2 == k || !strcmp(*p, "ok") ||
			                                         !strcmp(*p, "okay") || !w[i + 2].digit);
		if (went_well) {
			used[i] = used[i + 1] = 1;
			break;
		}
	}
	/* ("what did Lucía say was wrong with her bike": what she said, which
	 * no status of the robot's tells) */
	if (q->kind == RQ_SAID)
		;
	else if (rq_has(w, k, "fail") || rq_has(w, k, "failed") || rq_has(w, k, "unsuccessful") ||
	    rq_has(w, k, "problem") || rq_has(w, k, "problems") || rq_has(w, k, "wrong") ||
	    rq_has(w, k, "unable") || could_not || trouble)
		q->status = RS_FAILED;
	else if (passed_check(w, k, used) || went_well)
		q->status = RS_DONE; /* "did lineset 12 pass its check" */
	else if (rq_has(w, k, "successfully") || rq_has(w, k, "manage") || rq_has(w, k, "managed") ||
	         rq_has(w, k, "succeed") || rq_has(w, k, "succeeded") || rq_has(w, k, "able") ||
	         rq_has(w, k, "complete") || rq_has(w, k, "completed") || rq_has(w, k, "finish") ||
	         rq_has(w, k, "finished") || rq_has(w, k, "successful"))
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
void rq_read_order(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
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
		     !strcmp(w[v].w, "radio") || !strcmp(w[v].w, "respond") ||
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
	/* "tell someone what you could see", "say what you saw": the words
	 * said tell a sight (not a thing asked about, nor a seeing) */
	for (size_t i = 0; i + 3 < k && !q->says_seen; i++) {
		if (strcmp(w[i].w, "tell") && strcmp(w[i].w, "told") && strcmp(w[i].w, "say") &&
		    strcmp(w[i].w, "said") && strcmp(w[i].w, "report") && strcmp(w[i].w, "describe"))
			continue;
		for (size_t j = i + 1; j + 2 < k && j <= i + 3 && !q->says_seen; j++) {
			size_t v = j + 2;
			if (v < k && (!strcmp(w[j + 2].w, "could") || !strcmp(w[j + 2].w, "can") ||
			              !strcmp(w[j + 2].w, "did")))
				v++;
			if (!strcmp(w[j].w, "what") && !strcmp(w[j + 1].w, "you") && v < k &&
			    (!strcmp(w[v].w, "see") || !strcmp(w[v].w, "saw"))) {
				q->says_seen = 1;
				for (size_t m = j; m <= v; m++)
					used[m] = 1;
			}
		}
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
	if (q->kind == RQ_WHO && !rq_has(w, k, "last") && !rq_has(w, k, "first"))
		q->plural = 1;
}
