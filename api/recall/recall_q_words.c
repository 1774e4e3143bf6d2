/*
 * recall_q_words.c — word lists of the question reader: a measure word
 * ("level", "reading"), a unit of time ("how many minutes did it take")
 * and the words that ask about a failure ("any trouble", "cut short").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api/recall/recall.h"
#include "api/recall/recall_q_internal.h"

/* A word that names a measured value (recall.h). */
int rq_measure_word(const char *w)
{
	static const char *const m[] = { "level", "levels", "reading", "readings", "value",
		                             "values", "temperature", "temp", "pressure",
		                             "humidity", "rate", "concentration", "voltage",
		                             "percentage", "speed", "depth", "charge", "battery",
		                             "dose", "moisture", "ph", "measurement", "score",
		                             NULL };
	for (const char *const *p = m; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
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
