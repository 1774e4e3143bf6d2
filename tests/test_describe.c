/*
 * test_describe.c — a humanoid's skill-stack log and a kitchen robot's
 * subgoal names, asked to describe its days: the answer says what was
 * done in words ("received object from human", "picked up the tomato"),
 * never the skill names ("ReceiveObjectFromHuman", "Pickup(Tomato_1)");
 * and a yes/no about a thing never seen where other things were is no.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "h2emv.h"
#include "api/base/lex.h"
#include "testutil.h"

#define T(day, hms) "\"t\":\"2025-03-" day "T" hms "Z\""

static const char *const days[] = {
	/* Monday: handing things over, a home pose, an introduction */
	"{" T("03", "09:00:00") ",\"goal\":\"ReceiveObjectFromHuman\",\"goal_status\":\"succeeded\","
	"\"action\":{\"name\":\"ReceiveObjectFromHuman\",\"status\":\"succeeded\"}}",
	"{" T("03", "09:05:00") ",\"goal\":\"HomePose\",\"goal_status\":\"succeeded\","
	"\"action\":{\"name\":\"HomePose\",\"status\":\"succeeded\"}}",
	"{" T("03", "09:10:00") ",\"goal\":\"ReceiveObjectFromHuman\",\"goal_status\":\"succeeded\","
	"\"action\":{\"name\":\"ReceiveObjectFromHuman\",\"status\":\"succeeded\"}}",
	"{" T("03", "09:20:00") ",\"goal\":\"Introduction\",\"goal_status\":\"succeeded\","
	"\"action\":{\"name\":\"Introduction\",\"status\":\"succeeded\"}}",
	/* Tuesday: a kitchen's subgoals */
	"{" T("04", "10:00:00") ",\"goal\":\"Pickup(Tomato_1)\",\"location\":\"kitchen\","
	"\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"Tomato_1\"},\"status\":\"succeeded\"},"
	"\"objects\":[{\"id\":\"Tomato_1\",\"type\":\"Tomato\"},{\"id\":\"Mug_0\",\"type\":\"Mug\"}]}",
	"{" T("04", "10:01:00") ",\"goal\":\"Place(Tomato_1, CounterTop_0)\",\"location\":\"kitchen\","
	"\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"Tomato_1\",\"target\":\"CounterTop_0\"},"
	"\"status\":\"succeeded\"}}",
	/* Wednesday: two introductions, 90 and 100 seconds, two hours apart */
	"{" T("05", "10:00:00") ",\"goal\":\"Introduction\",\"action\":{\"name\":\"Introduction\","
	"\"status\":\"running\"}}",
	"{" T("05", "10:01:30") ",\"goal\":\"Introduction\",\"action\":{\"name\":\"Introduction\","
	"\"status\":\"succeeded\"}}",
	"{" T("05", "11:10:00") ",\"goal\":\"HomePose\",\"action\":{\"name\":\"HomePose\","
	"\"status\":\"succeeded\"}}",
	"{" T("05", "12:20:00") ",\"goal\":\"Introduction\",\"action\":{\"name\":\"Introduction\","
	"\"status\":\"running\"}}",
	"{" T("05", "12:21:40") ",\"goal\":\"Introduction\",\"action\":{\"name\":\"Introduction\","
	"\"status\":\"succeeded\"}}",
	"{" T("05", "13:05:00") ",\"goal\":\"Idle\",\"action\":{\"name\":\"Idle\",\"status\":\"running\"}}",
};

#define AT 1741251600000000LL /* 2025-03-06T09:00:00Z */

static void test_skill_names_in_words(void **state)
{
	(void)state;
	char s[160];
	static const char *const cases[][2] = {
		{ "ReceiveObjectFromHuman", "received object from human" },
		{ "Pickup(Tomato_1)", "picked up the tomato" },
		{ "Place(Mug_0, CoffeeMachine)", "placed the mug on the coffee machine" },
		{ "HomePose", "moved to the home pose" },
		{ "Introduction", "introduced myself" },
		{ "WhatCanYouSeeNow", "answered \"what can you see now\"" },
		{ "load_dishwasher", "loaded dishwasher" },
		{ "thermal-scan", "thermal scan" },
		{ "HandOverObjectToHuman", "handed over object to human" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		lex_skill_words(s, sizeof s, cases[i][0]);
		if (strcmp(s, cases[i][1]))
			fail_msg("%s: '%s', not '%s'", cases[i][0], s, cases[i][1]);
	}
	lex_skill_words(s, 8, "ReceiveObjectFromHuman"); /* cut, terminated */
	assert_true(strlen(s) < 8);
}

static void test_days_described_in_words(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("describe", days, sizeof days / sizeof *days, &dir);
	tu_expect_at(m, AT, "Describe what you did.", "received object from human twice",
	             "ReceiveObjectFromHuman");
	tu_expect_at(m, AT, "Describe what you did.", "introduced myself", "Introduction");
	tu_expect_at(m, AT, "Describe what you did.", "picked up the tomato", "Pickup");
	tu_expect_at(m, AT, "What did you do each day?", "On 2025/03/04 (Tuesday)", NULL);
	tu_close_rm(m, dir);
}

static void test_how_long_on_average(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("describe", days, sizeof days / sizeof *days, &dir);
	tu_expect_at(m, AT, "How long did it take to introduce yourself on average?",
	             "1 minute and 35 seconds", NULL);
	/* the second run began at its own start, not the first run's */
	tu_expect_at(m, AT, "How long did your last introduction take?", "1 minute and 40 seconds",
	             NULL);
	tu_close_rm(m, dir);
}

static void test_yes_needs_the_thing_asked(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("describe", days, sizeof days / sizeof *days, &dir);
	tu_expect_at(m, AT, "Did you see a mug in the kitchen?", "Yes", NULL);
	tu_expect_at(m, AT, "Did you see a unicorn in the kitchen?", "No", "Yes");
	tu_close_rm(m, dir);
}

/* Questions over the whole history: the busiest day, and what is done
 * most often, in a part of every day. */
static void test_busiest_day_and_habits(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("habits", days, sizeof days / sizeof *days, &dir);
	tu_expect_at(m, AT, "What was your busiest day?", "2025/03/05", "I could not");
	tu_expect_at(m, AT, "What do you usually do in the morning?", "Most often in the morning",
	             "On 2025");
	tu_expect_at(m, AT, "What do you usually do in the evening?", "Nothing", NULL);
	/* "on the 4th": the latest 4th, a day of its own */
	tu_expect_at(m, AT, "what did you do on the 3rd", "Introduction", "omato");
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skill_names_in_words),
		cmocka_unit_test(test_days_described_in_words),
		cmocka_unit_test(test_how_long_on_average),
		cmocka_unit_test(test_yes_needs_the_thing_asked),
		cmocka_unit_test(test_busiest_day_and_habits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
