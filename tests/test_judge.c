/*
 * test_judge.c — the deterministic answer judge (bench/eval/judge.h): every
 * fine category for every kind of question, times at and beyond the
 * tolerances, day-only answers, lists that are equal / subsets / supersets /
 * cross, names written the many ways robots write them, answers that give
 * none, hostile input, the API's argument checks; and the agreement with
 * the upstream human and few-shot labels (judge_labels/), read from the
 * external data folder ($H2EMV_DATA, else ../shared/data/external beside
 * the source tree): skipped loudly when that data is absent, a failure
 * when H2EMV_REQUIRE_DATA=1. All cases here are hand-written.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "bench/eval/judge.h"
#include "h2emv.h"
#include "testutil.h"

/* ---------------------------------------------------------------- cases -- */

static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* "2024-09-23 10:03:55" (UTC) in µs; NULL or "" is 0. */
static int64_t T(const char *s)
{
	int y, mo, d, h = 0, mi = 0, se = 0;
	if (!s || !*s)
		return 0;
	int n = sscanf(s, "%d-%d-%d %d:%d:%d", &y, &mo, &d, &h, &mi, &se);
	assert_true(n >= 3);
	return (days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se) * 1000000LL;
}

typedef struct jc {
	const char *q, *truth, *ref0, *ref1, *answer;
	int want;         /* enum judge_fine */
	int kind;         /* enum judge_kind, or -1: not checked */
	const char *asked; /* when asked, or NULL */
	int forgotten;
} jc;

/* Judge every case; print each mismatch, then fail if there was one. */
static void run(const jc *cs, size_t n, const judge_options *opt)
{
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		const jc *c = &cs[i];
		judge_case in = { c->q, c->truth, T(c->ref0), T(c->ref1), c->answer, c->forgotten,
			          T(c->asked) };
		judge_verdict v;
		assert_int_equal(judge_grade(&v, &in, opt), H2EMV_OK);
		if (v.fine != c->want || (c->kind >= 0 && v.kind != c->kind)) {
			fprintf(stderr, "case %zu: q=\"%s\" truth=\"%s\" answer=\"%s\"\n"
			        "   want %s (%s), got %s (%s): %s\n", i, c->q, c->truth,
			        c->answer ? c->answer : "(null)", judge_fine_name(c->want),
			        c->kind >= 0 ? judge_kind_name(c->kind) : "-",
			        judge_fine_name(v.fine), judge_kind_name(v.kind), v.why);
			bad++;
		}
		/* the same input, the same verdict */
		judge_verdict again;
		assert_int_equal(judge_grade(&again, &in, opt), H2EMV_OK);
		assert_int_equal(again.fine, v.fine);
		assert_string_equal(again.why, v.why);
		assert_int_equal(v.broad, judge_broad(v.fine));
	}
	assert_int_equal(bad, 0);
}

#define RUN(cs, opt) run(cs, sizeof cs / sizeof cs[0], opt)

/* ---------------------------------------------------------------- times -- */

#define QW "When did you last place a bread slice?"
#define TW "At 2024/09/23, 10:03:55"
#define R0 "2024-09-23 10:03:40"
#define R1 "2024-09-23 10:03:55"

static void test_time_within_tolerance_is_correct(void **state)
{
	(void)state;
	const jc cs[] = {
		{ QW, TW, R0, R1, "At 2024/09/23, 10:03:55.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/23, 10:03:40.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "On September 23, 2024 at 10:04.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "10:03 am on 23 Sep 2024", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "2024-09-23T10:04:30Z", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "It was on 09/23/2024 at 10:03 AM.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "Am 23.09.2024 um 10:03.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "I placed the bread slice on Sep 23rd, 2024, at 10:02:58.",
		  J_CORRECT, JK_TIME, NULL, 0 },
		/* a range that holds the truth and is narrow */
		{ QW, TW, R0, R1, "On 2024/09/23 between 10:03 and 10:05", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "2024-09-23, 10:01-10:04", J_CORRECT, JK_TIME, NULL, 0 },
		/* without the span, the truth's own second */
		{ QW, TW, NULL, NULL, "At 2024/09/23, 10:04:40.", J_CORRECT, JK_TIME, NULL, 0 },
		/* midnight and noon in 12-hour form */
		{ "When did you first pour a pot?", "At 2024/09/23, 00:30:10", NULL, NULL,
		  "12:30 am on 2024-09-23", J_CORRECT, JK_TIME, NULL, 0 },
		{ "When did you first pour a pot?", "At 2024/09/23, 12:30:10", NULL, NULL,
		  "At 12:30 p.m. on September 23, 2024", J_CORRECT, JK_TIME, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_time_beyond_tolerance_is_partial_then_wrong(void **state)
{
	(void)state;
	const jc cs[] = {
		/* 95 s, 8 min: partially correct */
		{ QW, TW, R0, R1, "At 2024/09/23, 10:05:30.", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/23, 10:12:00.", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "On 2024/09/23 at 09:55", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		/* 16 min, an hour, another day: wrong */
		{ QW, TW, R0, R1, "At 2024/09/23, 10:20:00.", J_WRONG, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "On September 23, 2024, at around 11:04 AM.", J_WRONG, JK_TIME,
		  NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/24, 10:03:55.", J_WRONG, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2023/09/23, 10:03:55.", J_WRONG, JK_TIME, NULL, 0 },
		/* a range that misses by a little / by a lot */
		{ QW, TW, R0, R1, "On 2024/09/23 between 09:50 and 09:58", J_PARTIAL_MISSING, JK_TIME,
		  NULL, 0 },
		{ QW, TW, R0, R1, "On 2024/09/23 between 08:00 and 09:00", J_WRONG, JK_TIME, NULL, 0 },
		/* no time at all */
		{ QW, TW, R0, R1, "Right after I sliced the bread.", J_WRONG, JK_TIME, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_time_tolerance_is_an_option(void **state)
{
	(void)state;
	const jc cs[] = {
		{ QW, TW, R0, R1, "At 2024/09/23, 10:07:00.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/23, 10:20:00.", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/23, 10:40:00.", J_WRONG, JK_TIME, NULL, 0 },
	};
	judge_options o = JUDGE_OPTIONS_INIT;
	o.time_tolerance_us = 5LL * 60 * 1000000;
	o.partial_tolerance_us = 30LL * 60 * 1000000;
	RUN(cs, &o);
	/* a partial tolerance below the tolerance is raised to it */
	judge_options o2 = JUDGE_OPTIONS_INIT;
	o2.time_tolerance_us = 5LL * 60 * 1000000;
	o2.partial_tolerance_us = 1000000;
	const jc cs2[] = {
		{ QW, TW, R0, R1, "At 2024/09/23, 10:07:00.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/23, 10:12:00.", J_WRONG, JK_TIME, NULL, 0 },
	};
	RUN(cs2, &o2);
}

static void test_time_coarse_or_dateless_answers(void **state)
{
	(void)state;
	const jc cs[] = {
		/* coarse but right: summarized */
		{ QW, TW, R0, R1, "At around 10am on September 23, 2024.", J_CORRECT_SUMMARIZED,
		  JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "On 2024/09/23 in the morning.", J_CORRECT_SUMMARIZED, JK_TIME,
		  NULL, 0 },
		{ QW, TW, R0, R1, "On 2024/09/23 between 10:00 and 10:30.", J_CORRECT_SUMMARIZED,
		  JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "It was at 10 o'clock on 2024-09-23.", J_CORRECT_SUMMARIZED, JK_TIME,
		  NULL, 0 },
		/* coarse and wrong */
		{ QW, TW, R0, R1, "On 2024/09/23 in the evening.", J_WRONG, JK_TIME, NULL, 0 },
		/* the day only: partially correct (upstream few-shot label) */
		{ QW, TW, R0, R1, "On 2024/09/23.", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "I don't know the time, but it was on September 23, 2024.",
		  J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "On 2024/09/22.", J_WRONG, JK_TIME, NULL, 0 },
		/* the time without the day: partially correct, or correct when asked that day */
		{ QW, TW, R0, R1, "At 10:03:55.", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 10:03:55.", J_CORRECT, JK_TIME, "2024-09-23 18:00:00", 0 },
		{ QW, TW, R0, R1, "At 14:00.", J_WRONG, JK_TIME, NULL, 0 },
		/* relative and year-less days */
		{ QW, TW, R0, R1, "Yesterday at 10:03.", J_CORRECT, JK_TIME, "2024-09-24 12:00:00", 0 },
		{ QW, TW, R0, R1, "Yesterday at 10:03.", J_WRONG, JK_TIME, "2024-09-26 12:00:00", 0 },
		{ QW, TW, R0, R1, "On September 23 at 10:03.", J_CORRECT, JK_TIME, "2024-09-25 08:00:00",
		  0 },
		{ QW, TW, R0, R1, "On September 23 at 10:03.", J_CORRECT, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "1 day ago at 10:04.", J_CORRECT, JK_TIME, "2024-09-24 09:00:00", 0 },
	};
	RUN(cs, NULL);
}

static void test_time_extra_information(void **state)
{
	(void)state;
	const jc cs[] = {
		/* a second, wrong time */
		{ QW, TW, R0, R1, "At 2024/09/23, 10:03:55, and again at 2024/09/23, 15:00:00.",
		  J_PARTIAL_TMI, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "Around 10am on 2024/09/23, or maybe on 2024/09/25 at 9am.",
		  J_PARTIAL_TMI, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "On 2024/09/23 at 10:03:55 and on 2024/09/22.", J_PARTIAL_TMI,
		  JK_TIME, NULL, 0 },
		/* plausible extra details */
		{ QW, TW, R0, R1, "At 2024/09/23, 10:03:55, right after I toasted bread for a sandwich.",
		  J_CORRECT_TMI, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "At 2024/09/23, 10:03:55: Place(BreadSliced_1, Toaster_1), while "
		  "making breakfast.", J_CORRECT_TMI, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "I last placed a bread slice on 2024/09/23 at 10:03:55.", J_CORRECT,
		  JK_TIME, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_time_lists(void **state)
{
	(void)state;
	static const char *q = "When did you make a salad?";
	static const char *t = "Nov 21, 2023 at 09:45 AM and Nov 28, 2023 at 02:49 PM";
	const jc cs[] = {
		{ q, t, NULL, NULL, "On November 21, 2023 at 09:45 and on November 28, 2023 at 14:49.",
		  J_CORRECT, JK_TIME, NULL, 0 },
		{ q, t, NULL, NULL, "Nov 21, 2023 at 09:45 AM", J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ q, t, NULL, NULL, "Nov 21, 2023 at 09:52 AM and Nov 28, 2023 at 02:49 PM",
		  J_PARTIAL_MISSING, JK_TIME, NULL, 0 },
		{ q, t, NULL, NULL, "Nov 21, 2023 at 09:45 AM and Dec 1, 2023 at 10:00 AM", J_WRONG,
		  JK_TIME, NULL, 0 },
		{ q, t, NULL, NULL, "Nov 21, 2023 at 09:45 AM, Nov 28, 2023 at 02:49 PM and Dec 1, "
		  "2023 at 10:00 AM", J_PARTIAL_TMI, JK_TIME, NULL, 0 },
		{ q, t, NULL, NULL, "Dec 1, 2023 at 10:00 AM", J_WRONG, JK_TIME, NULL, 0 },
	};
	RUN(cs, NULL);
}

/* ----------------------------------------------------------------- days -- */

#define QD "At what day did you first prepare breakfast?"
#define TD "At 2024/03/05"
#define D0 "2024-03-05 08:49:20"
#define D1 "2024-03-05 09:18:16"

static void test_day_questions(void **state)
{
	(void)state;
	const jc cs[] = {
		{ QD, TD, D0, D1, "At 2024/03/05.", J_CORRECT, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "On March 5th, 2024.", J_CORRECT, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "On the 5th of March.", J_CORRECT, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "Yesterday.", J_CORRECT, JK_DATE, "2024-03-06 10:00:00", 0 },
		{ QD, TD, D0, D1, "At 2024/03/06.", J_WRONG, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "On March 5th, 2023.", J_WRONG, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "In the morning.", J_WRONG, JK_DATE, NULL, 0 },
		/* a time on top: extra, fitting or not */
		{ QD, TD, D0, D1, "On 2024/03/05 at 09:00:00.", J_CORRECT_TMI, JK_DATE, NULL, 0 },
		{ QD, TD, NULL, NULL, "On 2024/03/05 at 09:00:00.", J_CORRECT_TMI, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "On 2024/03/05, when I also made coffee and toast.", J_CORRECT_TMI,
		  JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "On 2024/03/05 at 15:00.", J_PARTIAL_TMI, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "On 2024/03/05 or on 2024/03/07.", J_PARTIAL_TMI, JK_DATE, NULL, 0 },
		{ QD, TD, D0, D1, "I have forgotten that.", J_NO_ANSWER, JK_DATE, NULL, 0 },
		/* the span may cross midnight */
		{ QD, "At 2024/03/05", "2024-03-05 23:50:00", "2024-03-06 00:20:00", "On 2024/03/06.",
		  J_CORRECT, JK_DATE, NULL, 0 },
		/* several days */
		{ "At which days did you see the soy milk?", "At 2024/06/27, 07/13 and 08/27", NULL,
		  NULL, "On June 27, July 13 and August 27, 2024.", J_CORRECT, JK_DATE, NULL, 0 },
		{ "At which days did you see the soy milk?", "At 2024/06/27, 07/13 and 08/27", NULL,
		  NULL, "On 2024/07/13.", J_PARTIAL_MISSING, JK_DATE, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_days_ago_questions(void **state)
{
	(void)state;
	static const char *q = "Today is May 01, 2023 at 07:40 PM. How many days ago did you make "
	                       "a sandwich?";
	static const char *t = "6 days ago and 3 days ago";
	const jc cs[] = {
		{ q, t, NULL, NULL, "6 days ago and 3 days ago", J_CORRECT, JK_DAYS_AGO, NULL, 0 },
		{ q, t, NULL, NULL, "3 days ago, and also 6 days ago.", J_CORRECT, JK_DAYS_AGO, NULL, 0 },
		{ q, t, NULL, NULL, "3 day ago", J_PARTIAL_MISSING, JK_DAYS_AGO, NULL, 0 },
		{ q, t, NULL, NULL, "6 days ago, 3 days ago and 1 day ago", J_PARTIAL_TMI, JK_DAYS_AGO,
		  NULL, 0 },
		{ q, t, NULL, NULL, "5 days ago", J_WRONG, JK_DAYS_AGO, NULL, 0 },
		{ q, t, NULL, NULL, "I don't remember.", J_NO_ANSWER, JK_DAYS_AGO, NULL, 0 },
	};
	RUN(cs, NULL);
}

/* -------------------------------------------------------------- objects -- */

#define QO "What objects did you see the last time you did pickup a spoon?"
#define TO "saltshaker, mug, faucet, knife, pot, sink basin, countertop, bread sliced slice, spoon"

static void test_object_lists_compare_as_sets(void **state)
{
	(void)state;
	const jc cs[] = {
		/* equal, written in h2emv's way, as ids, and in prose */
		{ QO, TO, NULL, NULL, "I saw the salt shaker, the mug, the faucet, the knife, the pot, "
		  "the sink, the countertop, the bread slice and the spoon.", J_CORRECT, JK_OBJECTS,
		  NULL, 0 },
		{ QO, TO, NULL, NULL, "SaltShaker_1, Mug_0, Faucet_1, Knife_2, Pot|+01.05|+00.90|-01.20, "
		  "SinkBasin_1, CounterTop_1, BreadSliced_3, Spoon_0", J_CORRECT, JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "There were two mugs, a knife and a spoon on the counter, a pot, "
		  "a salt shaker, some bread slices, and the faucet over the sink. I also saw my hand.",
		  J_CORRECT, JK_OBJECTS, NULL, 0 },
		/* subset */
		{ QO, TO, NULL, NULL, "I saw the mug, the knife, the pot and the spoon.",
		  J_PARTIAL_MISSING, JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "salt_shaker, mug, faucet, knife, pot, countertop, spoon",
		  J_PARTIAL_MISSING, JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "Spoon.", J_PARTIAL_MISSING, JK_OBJECTS, NULL, 0 },
		/* superset */
		{ QO, TO, NULL, NULL, "I saw the salt shaker, the mug, the faucet, the knife, the pot, "
		  "the sink, the countertop, the bread slice, the spoon and an apple.", J_PARTIAL_TMI,
		  JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "saltshaker, mug, faucet, knife, pot, sink, countertop, "
		  "breadslice, spoon, fridge, toaster", J_PARTIAL_TMI, JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "saltshaker, mug, faucet, knife, pot, sink, countertop, "
		  "breadslice, spoon, gizmo", J_PARTIAL_TMI, JK_OBJECTS, NULL, 0 },
		/* each side has what the other lacks, or nothing in common */
		{ QO, TO, NULL, NULL, "I saw the mug, the knife, the pot and a tomato.", J_WRONG,
		  JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "An apple, a lettuce and the fridge.", J_WRONG, JK_OBJECTS, NULL,
		  0 },
		{ QO, TO, NULL, NULL, "I saw a potato slice and a tomato slice.", J_WRONG, JK_OBJECTS,
		  NULL, 0 },
		/* summed up */
		{ QO, TO, NULL, NULL, "I saw a mug, a knife, a pot, the spoon, the countertop and the "
		  "sink, among various other kitchen utensils.", J_CORRECT_SUMMARIZED, JK_OBJECTS, NULL,
		  0 },
		/* everything, plus when */
		{ QO, TO, NULL, NULL, "At 10:03 I saw the salt shaker, the mug, the faucet, the knife, "
		  "the pot, the sink, the countertop, the bread slice and the spoon.", J_CORRECT_TMI,
		  JK_OBJECTS, NULL, 0 },
		{ QO, TO, NULL, NULL, "I don't remember which objects I saw when I picked up the spoon.",
		  J_NO_ANSWER, JK_OBJECTS, NULL, 0 },
		/* the place asked about is not an object seen */
		{ "What objects did you see inside the sink the first time you poured the pot?",
		  "mug, cup", NULL, NULL, "Inside the sink I saw a mug and a cup.", J_CORRECT,
		  JK_OBJECTS, NULL, 0 },
	};
	RUN(cs, NULL);
}

/* ---------------------------------------------------------------- steps -- */

#define QS "What steps did you perform during transport of the potato?"
#define TS "Pickup the potato, Place the potato at the pot"

static void test_step_lists_compare_as_sets(void **state)
{
	(void)state;
	const jc cs[] = {
		{ QS, TS, NULL, NULL, "Pickup the potato at the countertop, Place the potato at the pot.",
		  J_CORRECT, JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "I picked up the potato and put it into the pot.", J_CORRECT,
		  JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "PickupObject(Potato_1); PutObject... I placed Potato_1 in "
		  "Pot_0.", J_CORRECT, JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "Pickup the potato.", J_PARTIAL_MISSING, JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "I picked up the potato, moved around, and placed it down.",
		  J_CORRECT, JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "Pickup the potato, Place the potato at the pot, Slice the potato.",
		  J_PARTIAL_TMI, JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "I opened the fridge, took the potato, and placed it in the pot.",
		  J_PARTIAL_TMI, JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "Pickup the potato, Place the potato at the countertop.", J_WRONG,
		  JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "Pickup the tomato, Place the tomato at the plate.", J_WRONG,
		  JK_STEPS, NULL, 0 },
		{ QS, TS, NULL, NULL, "I have forgotten that.", J_NO_ANSWER, JK_STEPS, NULL, 0 },
		/* four steps, two of them named */
		{ "What steps did you take when you transported a mug?",
		  "Pickup the mug, Pour the mug at the sink, Open the cabinet, Place the mug at the "
		  "cabinet", NULL, NULL, "I picked up the mug, moved around, and placed it down.",
		  J_PARTIAL_MISSING, JK_STEPS, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_first_step(void **state)
{
	(void)state;
	static const char *q = "What was the first step you performed the last time you did the "
	                       "task 'prepare coffee in a clean mug'?";
	const jc cs[] = {
		{ q, "Pickup the mug", NULL, NULL, "Pickup the mug.", J_CORRECT, JK_FIRST_STEP, NULL, 0 },
		{ q, "Pickup the mug", NULL, NULL, "I picked up Mug_2.", J_CORRECT, JK_FIRST_STEP, NULL,
		  0 },
		{ q, "Pickup the mug", NULL, NULL, "First I picked up the mug, then I put it into the "
		  "coffee machine.", J_CORRECT_TMI, JK_FIRST_STEP, NULL, 0 },
		{ q, "Pickup the mug", NULL, NULL, "Open the fridge, Pickup the mug.", J_PARTIAL_TMI,
		  JK_FIRST_STEP, NULL, 0 },
		{ q, "Pickup the mug", NULL, NULL, "Open the fridge.", J_WRONG, JK_FIRST_STEP, NULL, 0 },
		{ q, "Pickup the mug", NULL, NULL, "Pickup the cup.", J_WRONG, JK_FIRST_STEP, NULL, 0 },
		{ q, "Pickup the mug", NULL, NULL, "I could not find that in my memory.", J_NO_ANSWER,
		  JK_FIRST_STEP, NULL, 0 },
	};
	RUN(cs, NULL);
}

/* ------------------------------------------------------ places, objects -- */

static void test_places(void **state)
{
	(void)state;
	static const char *q = "To where did you last transport a knife?";
	static const char *t = "At the countertop";
	const jc cs[] = {
		{ q, t, NULL, NULL, "At the countertop.", J_CORRECT, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "At the counter.", J_CORRECT, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "I placed the knife on CounterTop_1.", J_CORRECT, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "The last place I transported a knife to was the countertop.",
		  J_CORRECT, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "On the countertop in the kitchen, at 10:03.", J_CORRECT_TMI,
		  JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "I put it on the countertop next to the toaster.", J_CORRECT_TMI,
		  JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "On the countertop or into the sink.", J_PARTIAL_TMI, JK_PLACE, NULL,
		  0 },
		{ q, t, NULL, NULL, "First on the countertop, then on the dining table.", J_PARTIAL_TMI,
		  JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "At the sink.", J_WRONG, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "In the drawer.", J_WRONG, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "Into the gizmo.", J_WRONG, JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "There is no record of me transporting a knife.", J_NO_ANSWER,
		  JK_PLACE, NULL, 0 },
		{ q, t, NULL, NULL, "", J_NO_ANSWER, JK_PLACE, NULL, 0 },
		/* synonyms of places */
		{ "Where did you last place a mug?", "At the sink basin", NULL, NULL, "At the sink.",
		  J_CORRECT, JK_PLACE, NULL, 0 },
		{ "Where did you last place a mug?", "At the diningtable", NULL, NULL,
		  "I put the mug on the table.", J_CORRECT, JK_PLACE, NULL, 0 },
		{ "Where did you last place a mug?", "At the fridge", NULL, NULL,
		  "In the refrigerator.", J_CORRECT, JK_PLACE, NULL, 0 },
		{ "At what location did you last see the medicine?", "At the dishwasher", NULL, NULL,
		  "I last saw the medicine near the dishwasher in the mobile kitchen, at 21:20 on June "
		  "4, 2025.", J_CORRECT_TMI, JK_PLACE, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_single_objects(void **state)
{
	(void)state;
	static const char *q = "Which object did you last transport to the toaster?";
	static const char *t = "The bread slice";
	const jc cs[] = {
		{ q, t, NULL, NULL, "The bread slice.", J_CORRECT, JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "BreadSliced_1", J_CORRECT, JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "I transported a slice of bread to the toaster.", J_CORRECT,
		  JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "The bread slice, on 2024/09/23 at 10:03.", J_CORRECT_TMI, JK_OBJECT,
		  NULL, 0 },
		{ q, t, NULL, NULL, "The bread slice, which I took from the countertop.", J_CORRECT_TMI,
		  JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "The bread slice and the mug.", J_PARTIAL_TMI, JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "The bread.", J_PARTIAL_MISSING, JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "The mug.", J_WRONG, JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "A tomato slice.", J_WRONG, JK_OBJECT, NULL, 0 },
		{ q, t, NULL, NULL, "I have no information about that.", J_NO_ANSWER, JK_OBJECT, NULL,
		  0 },
		{ q, t, NULL, NULL, "The bread slice.", J_NO_ANSWER, JK_OBJECT, NULL, 1 },
	};
	RUN(cs, NULL);
}

static void test_persons(void **state)
{
	(void)state;
	const jc cs[] = {
		{ "Who did you meet first this morning?", "Leonard Baermann", NULL, NULL,
		  "I met Leonard.", J_CORRECT, JK_PERSON, NULL, 0 },
		{ "Who did you meet first this morning?", "Leonard Baermann", NULL, NULL,
		  "Leonard Baermann and Joana Plewnia.", J_PARTIAL_TMI, JK_PERSON, NULL, 0 },
		{ "Who did you meet first this morning?", "Leonard Baermann", NULL, NULL,
		  "Joana Plewnia.", J_WRONG, JK_PERSON, NULL, 0 },
		{ "Who was there?", "Leonard and Joana", NULL, NULL, "Only Joana.", J_PARTIAL_MISSING,
		  JK_PERSON, NULL, 0 },
		{ "Who was there?", "Leonard and Joana", NULL, NULL, "I don't know.", J_NO_ANSWER,
		  JK_PERSON, NULL, 0 },
	};
	RUN(cs, NULL);
}

/* ------------------------------------------------------ yes / no, free -- */

static void test_yes_no(void **state)
{
	(void)state;
	const jc cs[] = {
		{ "Was there a basketball ?", "no", NULL, NULL, "No.", J_CORRECT, JK_YESNO, NULL, 0 },
		{ "Was there a basketball ?", "no", NULL, NULL,
		  "No, there was no mention of a basketball.", J_CORRECT, JK_YESNO, NULL, 0 },
		{ "Was there a basketball ?", "no", NULL, NULL, "There was no basketball.", J_CORRECT,
		  JK_YESNO, NULL, 0 },
		{ "Was there a basketball ?", "no", NULL, NULL, "Yes, in the corner.", J_WRONG, JK_YESNO,
		  NULL, 0 },
		{ "Was there a plate ?", "yes, when I make a salad.", NULL, NULL, "yes", J_CORRECT,
		  JK_YESNO, NULL, 0 },
		{ "Was there a plate ?", "yes, when I make a salad.", NULL, NULL, "I never saw one.",
		  J_WRONG, JK_YESNO, NULL, 0 },
		{ "Was there a plate ?", "yes, when I make a salad.", NULL, NULL, "I don't know.",
		  J_NO_ANSWER, JK_YESNO, NULL, 0 },
	};
	RUN(cs, NULL);
}

static void test_free_text(void **state)
{
	(void)state;
	static const char *q = "Today is Dec 26, 2023 at 06:06 PM. What did you do 1 day ago?";
	static const char *t = "make a sandwich and make a plate of toast.";
	const jc cs[] = {
		{ q, t, NULL, NULL, "I made a sandwich and toast.", J_CORRECT, JK_FREE, NULL, 0 },
		{ q, t, NULL, NULL, "make a sandwich. make a plate of toast.", J_CORRECT, JK_FREE, NULL,
		  0 },
		{ q, t, NULL, NULL, "I made a sandwich.", J_PARTIAL_MISSING, JK_FREE, NULL, 0 },
		{ q, t, NULL, NULL, "I made a sandwich, made toast and watered the plant.",
		  J_PARTIAL_TMI, JK_FREE, NULL, 0 },
		{ q, t, NULL, NULL, "I watered the plant.", J_WRONG, JK_FREE, NULL, 0 },
		{ q, t, NULL, NULL, "I cannot answer that.", J_NO_ANSWER, JK_FREE, NULL, 0 },
		{ "What did you do on Dec 26, 2023 at 10:54 AM?", "boil potato.", NULL, NULL,
		  "I boiled a potato by filling a pot with water and putting it on the stove.",
		  J_CORRECT_TMI, JK_FREE, NULL, 0 },
		{ "What did you do on Dec 26, 2023 at 10:54 AM?", "boil potato.", NULL, NULL,
		  "I boiled a potato.", J_CORRECT, JK_FREE, NULL, 0 },
		{ "List the tasks you performed.", "make a salad. boil potato. water the plant. "
		  "clean all the mugs.", NULL, NULL, "I prepared a salad, watered the houseplant and "
		  "did various other household chores.", J_CORRECT_SUMMARIZED, JK_FREE, NULL, 0 },
	};
	RUN(cs, NULL);
}

/* ------------------------------------------------------------ no answer -- */

static void test_answers_that_give_none(void **state)
{
	(void)state;
	const jc cs[] = {
		{ QW, TW, R0, R1, "I have forgotten that.", J_NO_ANSWER, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "I could not find that in my memory.", J_NO_ANSWER, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "I do not know when I last placed a bread slice.", J_NO_ANSWER,
		  JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "Error: the model did not reply.", J_NO_ANSWER, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "", J_NO_ANSWER, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, "  \n\t ", J_NO_ANSWER, JK_TIME, NULL, 0 },
		{ QW, TW, R0, R1, NULL, J_NO_ANSWER, JK_TIME, NULL, 0 },
		/* the system's own flag wins over its text */
		{ QW, TW, R0, R1, "At 2024/09/23, 10:03:55.", J_NO_ANSWER, JK_TIME, NULL, 1 },
	};
	RUN(cs, NULL);
}

/* ------------------------------------------------------- API and input -- */

static void test_api_checks_its_arguments(void **state)
{
	(void)state;
	judge_case c = { QW, TW, 0, 0, "At 2024/09/23, 10:03:55.", 0, 0 };
	judge_verdict v;
	assert_int_equal(judge_grade(NULL, &c, NULL), H2EMV_EINVAL);
	assert_int_equal(judge_grade(&v, NULL, NULL), H2EMV_EINVAL);
	judge_options o = JUDGE_OPTIONS_INIT;
	o.version = 99;
	assert_int_equal(judge_grade(&v, &c, &o), H2EMV_EINVAL);
	assert_int_equal(judge_answer(&c, &o, NULL), H2EMV_EINVAL);
	o.version = JUDGE_OPTIONS_VERSION;
	o.time_tolerance_us = -1;
	assert_int_equal(judge_grade(&v, &c, &o), H2EMV_EINVAL);
	o.time_tolerance_us = 0;
	assert_int_equal(judge_grade(&v, &c, &o), H2EMV_OK);
	assert_int_equal(v.fine, J_CORRECT);

	char *why = (char *)1;
	assert_int_equal(judge_answer(&c, NULL, &why), J_CORRECT);
	assert_non_null(why);
	assert_non_null(strstr(why, "time"));
	free(why);
	assert_int_equal(judge_answer(&c, NULL, NULL), J_CORRECT);

	/* names, both ways, and the broad mapping */
	static const char *const names[] = { "correct", "correct_summarized", "correct_tmi",
		"partially_correct_tmi", "partially_correct_missing", "wrong", "no_answer" };
	static const int broad[] = { J_BROAD_CORRECT, J_BROAD_CORRECT, J_BROAD_CORRECT,
		J_BROAD_PARTIAL, J_BROAD_PARTIAL, J_BROAD_WRONG, J_BROAD_WRONG };
	for (int i = 0; i < J_FINE_COUNT; i++) {
		assert_string_equal(judge_fine_name(i), names[i]);
		assert_int_equal(judge_fine_parse(names[i]), i);
		assert_int_equal(judge_broad(i), broad[i]);
	}
	assert_string_equal(judge_fine_name(-1), "?");
	assert_string_equal(judge_fine_name(J_FINE_COUNT), "?");
	assert_int_equal(judge_fine_parse("nonsense"), -1);
	assert_int_equal(judge_fine_parse(NULL), -1);
	assert_int_equal(judge_broad(99), J_BROAD_WRONG);
	assert_string_equal(judge_broad_name(J_BROAD_PARTIAL), "partially_correct");
	assert_string_equal(judge_kind_name(JK_STEPS), "steps");
	assert_string_equal(judge_kind_name(JK_COUNT), "?");
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_hostile_input_is_judged_safely(void **state)
{
	(void)state;
	size_t n = 3 * JUDGE_MAX_TEXT;
	char *junk = malloc(n + 1), *words = malloc(n + 1), *commas = malloc(n + 1),
	     *dates = malloc(n + 1);
	assert_non_null(junk);
	assert_non_null(words);
	assert_non_null(commas);
	assert_non_null(dates);
	uint64_t s = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < n; i++) {
		junk[i] = (char)(rng(&s) % 255 + 1); /* any byte but NUL: broken UTF-8 too */
		words[i] = 'a' + (char)(i % 26);     /* one endless word */
		commas[i] = i % 2 ? ',' : 'x';       /* many tiny items */
	}
	junk[n] = words[n] = commas[n] = '\0';
	size_t k = 0;
	while (k + 40 < n)
		k += (size_t)snprintf(dates + k, 40, "2024/09/%02d, 10:%02d:00 - ", (int)(k % 28) + 1,
		                      (int)(k % 60));
	dates[k] = '\0';
	const char *texts[] = { junk, words, commas, dates, "\xff\xfe\xc3(\xe2\x80", "1/", "9:",
		"Sep", "between and", "12/31", "99:99:99", "2024/13/45, 25:61:61", "(s)", "|", "_1" };
	const char *qs[] = { QW, QD, QO, QS, "Where did you put it?", "Which object?", "Who?",
		"Was there a cup?", "What did you do?", "How many days ago did you sleep?", junk };
	const char *truths[] = { TW, TD, TO, TS, "At the countertop", "The mug", "Leonard", "no",
		"make a salad.", "3 days ago", junk };
	size_t nt = sizeof texts / sizeof texts[0];
	for (size_t qi = 0; qi < sizeof qs / sizeof qs[0]; qi++)
		for (size_t h = 0; h < 2 * nt + 1; h++) {
			/* a hostile answer, a hostile truth, or both */
			const char *truth = h < nt ? truths[qi] : texts[h % nt];
			const char *answer = h < nt ? texts[h] : h < 2 * nt ? "At the sink." : junk;
			judge_case c = { qs[qi], truth, T(R0), T(R1), answer, 0, T("2024-09-25 00:00:00") };
			judge_verdict v;
			assert_int_equal(judge_grade(&v, &c, NULL), H2EMV_OK);
			assert_true(v.fine >= 0 && v.fine < J_FINE_COUNT);
			assert_true(v.kind >= 0 && v.kind < JK_COUNT);
			assert_true(strlen(v.why) < sizeof v.why);
		}
	/* extreme spans and times */
	judge_case c = { QW, TW, INT64_MIN, INT64_MAX, "At 2024/09/23, 10:03:55.", 0, INT64_MAX };
	judge_verdict v;
	assert_int_equal(judge_grade(&v, &c, NULL), H2EMV_OK);
	c.ref_t0 = INT64_MAX;
	c.ref_t1 = INT64_MIN;
	c.asked_at = INT64_MIN;
	assert_int_equal(judge_grade(&v, &c, NULL), H2EMV_OK);
	free(junk);
	free(words);
	free(commas);
	free(dates);
}

/* ------------------------------------------- agreement with upstream labels -- */

/* The external data folder: $H2EMV_DATA, else ../shared/data/external
 * beside the source tree (tests/CMakeLists.txt). */
#ifndef H2EMV_EXTERNAL_DATA
#define H2EMV_EXTERNAL_DATA "../shared/data/external"
#endif

/* `sub` under the external data folder, unless the variable `env` names
 * the place itself. Into buf; returns it. */
static const char *data_path(char *buf, size_t n, const char *env, const char *sub)
{
	const char *own = getenv(env), *root = getenv("H2EMV_DATA");
	if (own && *own)
		snprintf(buf, n, "%s", own);
	else
		snprintf(buf, n, "%s/%s", root && *root ? root : H2EMV_EXTERNAL_DATA, sub);
	return buf;
}

/* Missing external data: a skip ctest reports, or a failure when the run
 * requires the data (H2EMV_REQUIRE_DATA=1, as CI sets it). */
static void missing_data(const char *what, const char *path)
{
	tu_skip("H2EMV_REQUIRE_DATA", "%s not found under %s (set H2EMV_DATA)", what, path);
}

static int64_t month_time(const char *s)
{
	static const char *const ms[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
		"Sep", "Oct", "Nov", "Dec" };
	int y, mo = 0, d, h, mi, se = 0;
	char mon[4] = "", ap[3] = "";
	if (sscanf(s, "%d/%d/%d %d:%d:%d", &y, &mo, &d, &h, &mi, &se) >= 5)
		return (days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se) * 1000000LL;
	if (sscanf(s, "%3s %d, %d at %d:%d %2s", mon, &d, &y, &h, &mi, ap) != 6)
		return 0;
	for (int i = 0; i < 12; i++)
		if (!strcmp(mon, ms[i]))
			mo = i + 1;
	if (!mo)
		return 0;
	h = h % 12 + (!strcmp(ap, "PM") ? 12 : 0);
	return (days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60) * 1000000LL;
}

typedef struct tally {
	int n, fine, broad;
	int by_broad[J_BROAD_COUNT][2]; /* per human broad label: seen, agreed */
} tally;

static void judge_file(tally *all, tally *manual, const char *path, int is_manual)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	assert_non_null(root);
	json_t *res = json_object_get(root, "results"), *v;
	const char *key;
	json_object_foreach(res, key, v) {
		const char *q = json_string_value(json_object_get(v, "q"));
		const char *gt = json_string_value(json_object_get(v, "gt"));
		const char *hyp = json_string_value(json_object_get(v, "hyp"));
		const char *qt = json_string_value(json_object_get(v, "q_time"));
		int want = judge_fine_parse(json_string_value(json_object_get(v, "cat")));
		assert_true(want >= 0);
		judge_case c = { q, gt, 0, 0, hyp ? hyp : "", 0, qt ? month_time(qt) : 0 };
		int got = judge_answer(&c, NULL, NULL);
		assert_true(got >= 0);
		for (tally *t = all; t; t = t == all && is_manual ? manual : NULL) {
			int hb = judge_broad(want);
			t->n++;
			t->fine += got == want;
			t->broad += judge_broad(got) == hb;
			t->by_broad[hb][0]++;
			t->by_broad[hb][1] += judge_broad(got) == hb;
		}
	}
	json_decref(root);
}

static void test_agreement_with_upstream_labels(void **state)
{
	(void)state;
	static const char *const dirs[] = { "preliminary", "categorization_agreement_test",
		"categorization_agreement_val", "h2emv_manual_eval" };
	tally all = { 0 }, manual = { 0 };
	int found = 0;
	char rootbuf[1024];
	const char *root = data_path(rootbuf, sizeof rootbuf, "H2EMV_JUDGE_LABELS",
	                             "hierarchical-emv/judge_labels");
	for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/%s", root, dirs[d]);
		DIR *dp = opendir(dir);
		if (!dp)
			continue;
		struct dirent *e;
		while ((e = readdir(dp))) {
			size_t len = strlen(e->d_name);
			if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
				continue;
			char path[2048];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			judge_file(&all, &manual, path, !strcmp(dirs[d], "h2emv_manual_eval"));
			found = 1;
		}
		closedir(dp);
	}
	if (!found)
		missing_data("the judge labels", root);
	static const char *const bn[] = { "correct", "partially_correct", "wrong" };
	fprintf(stderr, "agreement with %d upstream labels: fine %.1f%%, broad %.1f%%\n", all.n,
	        100.0 * all.fine / all.n, 100.0 * all.broad / all.n);
	for (int b = 0; b < J_BROAD_COUNT; b++)
		fprintf(stderr, "  labelled %-17s %3d, judged the same %.1f%%\n", bn[b],
		        all.by_broad[b][0],
		        all.by_broad[b][0] ? 100.0 * all.by_broad[b][1] / all.by_broad[b][0] : 0.0);
	if (manual.n)
		fprintf(stderr, "  H2-EMV few-shot samples: %d of %d fine, %d broad\n", manual.fine,
		        manual.n, manual.broad);
	/* Floors a little under what was measured (fine 68.5 %, broad 76.2 %;
	 * two human annotators agree with each other at about 68 % fine and
	 * 77 % broad on the same items). */
	assert_true(all.n >= 400);
	assert_true(100 * all.fine >= 64 * all.n);
	assert_true(100 * all.broad >= 72 * all.n);
	if (manual.n)
		assert_true(manual.fine >= manual.n - 1);
}

/* ------------------------------------- the upstream TEACh question sets -- */

/* A time as h2emv writes it: "At 2023/05/04, 19:08:25." */
static void say_time(char *buf, size_t cap, int64_t t)
{
	int64_t s = t / 1000000, days = s / 86400, r = s % 86400;
	int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097, doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
	int64_t y = yoe + era * 400 + (m <= 2);
	snprintf(buf, cap, "At %04lld/%02lld/%02lld, %02lld:%02lld:%02lld.", (long long)y,
	         (long long)m, (long long)d, (long long)(r / 3600), (long long)(r % 3600 / 60),
	         (long long)(r % 60));
}

static int judged(const char *q, const char *truth, int64_t r0, int64_t r1, const char *answer)
{
	judge_case c = { q, truth, r0, r1, answer, 0, 0 };
	int fine = judge_answer(&c, NULL, NULL);
	if (fine < 0)
		fail();
	return fine;
}

/* Every upstream H2-EMV TEACh question: its own answer is correct, "I
 * have forgotten that." gives none, and h2emv's time 5 minutes / an hour
 * after the span is partially correct / wrong. */
static void test_upstream_questions_judge_their_own_answers(void **state)
{
	(void)state;
	static const char *const files[] = { "val-unseen-5.json", "val-unseen-25.json" };
	char dirbuf[1024];
	const char *dir = data_path(dirbuf, sizeof dirbuf, "H2EMV_TEACH_QA",
	                            "hierarchical-emv/teach/interactive-v2");
	size_t n = 0;
	for (size_t f = 0; f < 2; f++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, files[f]);
		json_t *root = json_load_file(path, 0, NULL);
		if (!root)
			continue;
		json_t *hist, *ep, *qs, *q;
		const char *hk, *qk;
		size_t i, j;
		json_object_foreach(json_object_get(root, "data"), hk, hist)
		json_array_foreach(hist, i, ep)
		json_object_foreach(json_object_get(ep, "qa"), qk, qs)
		json_array_foreach(qs, j, q) {
			const char *text = json_string_value(json_object_get(q, "question"));
			const char *truth = json_string_value(json_object_get(q, "answer"));
			json_t *ref = json_object_get(q, "reference");
			int64_t r0 = T(json_string_value(json_array_get(ref, 0)));
			int64_t r1 = T(json_string_value(json_array_get(ref, 1)));
			assert_non_null(text);
			assert_non_null(truth);
			assert_int_equal(judged(text, truth, r0, r1, truth), J_CORRECT);
			assert_int_equal(judged(text, truth, r0, r1, "I have forgotten that."),
			                 J_NO_ANSWER);
			if (!strncmp(text, "When", 4)) {
				char when[64];
				say_time(when, sizeof when, r1 + 5 * 60 * 1000000LL);
				assert_int_equal(judged(text, truth, r0, r1, when), J_PARTIAL_MISSING);
				say_time(when, sizeof when, r1 + 3600 * 1000000LL);
				assert_int_equal(judged(text, truth, r0, r1, when), J_WRONG);
			}
			n++;
		}
		json_decref(root);
	}
	if (!n)
		missing_data("the TEACh question sets", dir);
	fprintf(stderr, "%zu upstream questions judged their own answers correct\n", n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_within_tolerance_is_correct),
		cmocka_unit_test(test_time_beyond_tolerance_is_partial_then_wrong),
		cmocka_unit_test(test_time_tolerance_is_an_option),
		cmocka_unit_test(test_time_coarse_or_dateless_answers),
		cmocka_unit_test(test_time_extra_information),
		cmocka_unit_test(test_time_lists),
		cmocka_unit_test(test_day_questions),
		cmocka_unit_test(test_days_ago_questions),
		cmocka_unit_test(test_object_lists_compare_as_sets),
		cmocka_unit_test(test_step_lists_compare_as_sets),
		cmocka_unit_test(test_first_step),
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_single_objects),
		cmocka_unit_test(test_persons),
		cmocka_unit_test(test_yes_no),
		cmocka_unit_test(test_free_text),
		cmocka_unit_test(test_answers_that_give_none),
		cmocka_unit_test(test_api_checks_its_arguments),
		cmocka_unit_test(test_hostile_input_is_judged_safely),
		cmocka_unit_test(test_agreement_with_upstream_labels),
		cmocka_unit_test(test_upstream_questions_judge_their_own_answers),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
