/*
 * test_asked_words.c — a kitchen robot asked in a household's own words:
 * "the tap" for the log's Faucet, "cupboards" for its Cabinets, a purpose
 * clause that is not what was counted ("looking for a plate"), "last time
 * you ...?" without "when", and a verb of the same class before a near
 * one ("hand over" is the HandOver, not the later LoadDishwasher); where
 * a thing came from when the take names no source (the container opened
 * just before it), where a thing "ended up", and a mug washed by putting
 * it in the sink under the tap. And a robot that cut two
 * things seconds apart "with a knife" its log never names on the cut, a
 * frying asked as cooking (WordNet), cookies it said it could see while
 * its look at them failed, "the fruit" for an apple the log names alone,
 * a customer logged by role who is the Gloria asked about, a greeting
 * before the question, and "a new object" that names ObjectLearning.
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
#include "testutil.h"

#define T(hms) "\"t\":\"2024-04-08T" hms "Z\""
#define ACT(name, arg) ",\"action\":{\"name\":\"" name "\",\"args\":[\"" arg "\"],\"status\":" \
	"\"succeeded\"}}"

static const char *const kitchen[] = {
	"{" T("08:29:50") ",\"location\":\"kitchen\",\"action\":{\"name\":\"Place\",\"args\":"
	"[\"Mug_1\",\"Sink_Basin\"],\"status\":\"succeeded\"}}",
	"{" T("08:30:00") ",\"location\":\"kitchen\"" ACT("ToggleOn", "Faucet"),
	"{" T("08:31:00") ",\"location\":\"kitchen\"" ACT("ToggleOff", "Faucet"),
	"{" T("08:40:00") ",\"location\":\"kitchen\"" ACT("ToggleOn", "Faucet"),
	"{" T("08:41:00") ",\"location\":\"kitchen\"" ACT("ToggleOff", "Faucet"),
	"{" T("18:10:00") ",\"location\":\"kitchen\"" ACT("Open", "Cabinet_1"),
	"{" T("18:11:00") ",\"location\":\"kitchen\"" ACT("Open", "Cabinet_6"),
	"{" T("18:12:00") ",\"location\":\"kitchen\"" ACT("Open", "Cabinet_7"),
	"{" T("18:13:00") ",\"location\":\"kitchen\"" ACT("Pickup", "Plate_2"),
	"{" T("19:00:00") ",\"location\":\"kitchen\",\"persons\":[\"Ana\"],\"action\":{\"name\":"
	"\"HandOverObjectToHuman\",\"args\":{\"object\":\"plate\"},\"status\":\"succeeded\"}}",
	"{" T("19:30:00") ",\"location\":\"kitchen\",\"action\":{\"name\":\"LoadDishwasher\","
	"\"args\":{\"object\":\"mug\"},\"status\":\"succeeded\"}}",
	/* a take that names no source, out of the container just opened */
	"{" T("19:40:00") ",\"location\":\"kitchen\"" ACT("Open", "Drawer_2"),
	"{" T("19:41:00") ",\"location\":\"kitchen\"" ACT("Open", "Fridge"),
	"{" T("19:41:05") ",\"location\":\"kitchen\"" ACT("Pickup", "Lettuce_1"),
	"{" T("19:41:10") ",\"location\":\"kitchen\"" ACT("Close", "Fridge"),
	"{" T("19:42:00") ",\"location\":\"kitchen\"" ACT("Slice", "Lettuce_1"),
	"{" T("19:43:00") ",\"location\":\"kitchen\"" ACT("Pickup", "Lettuce_1_Sliced_1"),
	"{" T("19:43:05") ",\"location\":\"kitchen\",\"action\":{\"name\":\"Place\",\"args\":"
	"[\"Lettuce_1_Sliced_1\",\"Plate_1\"],\"status\":\"succeeded\"}}",
	"{" T("20:00:00") ",\"location\":\"kitchen\",\"action\":{\"name\":\"idle\",\"status\":"
	"\"running\"}}",
};

#define AT 1712656800000000LL /* 2024-04-09T10:00:00Z */

static void test_a_households_words(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("asked", kitchen, sizeof kitchen / sizeof *kitchen, &dir);
	tu_expect_at(m, AT, "How many times did you turn the tap on yesterday morning?", "2 times",
	             NULL);
	tu_expect_at(m, AT, "last time you turned the tap on?", "08:40", "On 2024");
	tu_expect_at(m, AT, "How many cupboards did you open yesterday looking for a plate?", "3",
	             NULL);
	tu_expect_at(m, AT, "When did you last hand something to someone?", "19:00", "19:30");
	tu_expect_at(m, AT, "Where did you get the lettuce yesterday?", "fridge", "drawer");
	tu_expect_at(m, AT, "Where did the lettuce slice end up?", "plate", NULL);
	/* washing in a kitchen: into the sink, under the tap */
	tu_expect_at(m, AT, "When did you rinse the mug?", "08:29:50", NULL);
	tu_expect_at(m, AT, "I'm curious, did you wash any mug yesterday?", "Yes", NULL);
	tu_close_rm(m, dir);
}

static const char *const counter[] = {
	"{" T("11:00:00") ",\"location\":\"kitchen\",\"objects\":[{\"id\":\"Knife_0\",\"type\":\"Knife\"}]"
	ACT("Pickup", "Knife_0"),
	"{" T("11:02:02") ",\"location\":\"kitchen\",\"objects\":[{\"id\":\"Knife_0\",\"type\":\"Knife\"}]"
	ACT("Slice", "Tomato_2"),
	"{" T("11:02:06") ",\"location\":\"kitchen\",\"objects\":[{\"id\":\"Knife_0\",\"type\":\"Knife\"}]"
	ACT("Slice", "Potato_1"),
	"{" T("11:10:00") ",\"location\":\"kitchen\"" ACT("Fry", "Egg_1"),
	"{" T("11:20:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"I can see a milk, and a vanilla cookies\"}]}",
	"{" T("11:21:00") ",\"location\":\"kitchen\",\"action\":{\"name\":\"LookAtObject\","
	"\"args\":{\"object\":\"vanilla cookies\"},\"status\":\"failed\"}}",
	"{" T("11:25:00") ",\"location\":\"kitchen\",\"action\":{\"name\":\"ObjectLearning\","
	"\"status\":\"succeeded\"}}",
	"{" T("11:30:00") ",\"location\":\"kitchen\",\"action\":{\"name\":\"Place\",\"args\":"
	"[\"Apple_3\",\"DiningTable\"],\"status\":\"succeeded\"}}",
	"{" T("11:35:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"My name is Robo.\"}]}",
	"{" T("11:35:20") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"Hello, I help in this kitchen.\"}]}",
	"{" T("11:36:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"My name is Robo.\"}]}",
	"{" T("11:36:20") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"Hello, I help in this kitchen.\"}]}",
	"{" T("11:36:40") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"My name is Robo.\"}]}",
	/* a customer logged by role, with a member of staff beside her */
	"{" T("11:40:00") ",\"location\":\"counter\",\"persons\":[\"Gloria Mendez\",\"Tasha\"],"
	"\"speech\":[{\"speaker\":\"customer\",\"text\":\"There is still a stain on the roof.\"}]}",
	"{" T("12:00:00") ",\"location\":\"kitchen\",\"action\":{\"name\":\"idle\",\"status\":"
	"\"running\"}}",
};

static void test_a_tool_a_kind_of_doing_and_a_sight_said(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("asked2", counter, sizeof counter / sizeof *counter, &dir);
	tu_expect_at(m, AT, "how many times did you cut something with a knife", "2 times", NULL);
	tu_expect_at(m, AT, "What did you cook?", "egg", "tomato");
	tu_expect_at(m, AT, "did you spot any cookies?", "Yes", "No");
	tu_expect_at(m, AT, "Where did you put the fruit?", "dining table", NULL);
	tu_expect_at(m, AT, "hey robot, quick one: how many times did you cut something", "2 times",
	             NULL);
	tu_expect_at(m, AT, "the egg - what did you do with it?", "egg", "Slice");
	tu_expect_at(m, AT, "when did you learn a new object?", "11:25", NULL);
	tu_expect_at(m, AT, "When did you last tell someone what you could see?", "11:20", "11:35");
	tu_expect_at(m, AT, "what did you keep saying over and over?", "Robo.\" 3 times", NULL);
	tu_expect_at(m, AT, "the very first thing you said to the guests?", "I can see", NULL);
	tu_expect_at(m, AT, "when did you finally learn a new object?", "11:25", NULL);
	tu_expect_at(m, AT, "were you able to fry the egg in the end?", "Yes", NULL);
	tu_expect_at(m, AT, "What did Gloria complain about?", "stain", NULL);
	tu_close_rm(m, dir);
}

#define ACTJ(name, args, status) ",\"action\":{\"name\":\"" name "\",\"args\":" args \
	",\"status\":\"" status "\"}}"

static const char *const yard[] = {
	"{" T("09:00:00") ",\"location\":\"baler\"" ACTJ("make_bale", "{\"material\":\"aluminium "
	"cans\",\"bale\":\"AL-1\",\"mass\":{\"value\":365,\"unit\":\"kg\"}}", "ok"),
	"{" T("10:00:00") ",\"location\":\"baler\"" ACTJ("make_bale", "{\"material\":\"aluminium "
	"cans\",\"bale\":\"AL-2\",\"mass\":{\"value\":348,\"unit\":\"kg\"}}", "ok"),
	"{" T("11:00:00") ",\"location\":\"stage door\"" ACTJ("grip:wrap_out",
	"{\"track_ft\":24,\"to\":\"grip truck\"}", "in progress"),
	"{" T("11:20:00") ",\"location\":\"stage door\"" ACTJ("grip:wrap_out",
	"{\"track_ft\":24,\"to\":\"grip truck\"}", "done"),
	"{" T("12:00:00") ",\"location\":\"stage door\"" ACTJ("grip:wrap_out",
	"{\"track_ft\":30,\"to\":\"grip truck\"}", "in progress"),
	"{" T("12:20:00") ",\"location\":\"stage door\"" ACTJ("grip:wrap_out",
	"{\"track_ft\":30,\"to\":\"grip truck\"}", "done"),
	"{" T("13:00:00") ",\"location\":\"feed lane A\"" ACTJ("feed/push",
	"{\"lane\":\"feed lane A\",\"passes\":3}", "Succeeded"),
	"{" T("14:00:00") ",\"location\":\"compressor room\",\"note\":\"Compressor 1 serviced by "
	"Luis: belt replaced, back in service.\"}",
	"{" T("14:10:00") ",\"location\":\"make-up area\"" ACTJ("LoadBag", "{\"tag\":\"LH 1\","
	"\"flight\":\"LH2074\",\"weight_kg\":18.5}", "SUCCEEDED"),
	"{" T("14:12:00") ",\"location\":\"make-up area\"" ACTJ("LoadBag", "{\"tag\":\"LH 2\","
	"\"flight\":\"LH2074\",\"weight_kg\":21}", "SUCCEEDED"),
	"{" T("14:20:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"Driver\","
	"\"text\":\"what do i do today\"}]}",
	"{" T("14:20:05") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"Commander\","
	"\"text\":\"Hi, slice bread\"}]}",
	"{" T("14:21:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"Commander\","
	"\"text\":\"bread on counter\"}]}",
	"{" T("14:25:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"Commander\","
	"\"text\":\"place toast on plate\"}]}",
	"{" T("14:26:00") ",\"location\":\"kitchen\",\"speech\":[{\"speaker\":\"Commander\","
	"\"text\":\"1 slice only\"}]}",
	"{" T("15:00:00") ",\"location\":\"yard\",\"action\":{\"name\":\"idle\",\"status\":"
	"\"running\"}}",
};

/* Amounts in the unit asked, written apart from their number or in the
 * key, and weighed by a verb ("how much did the bags weigh"); "did X go
 * OK"; a yes that only a note holds; what someone wanted: the request
 * that opened the exchange, not its last words. */
static void test_amounts_in_units_and_how_it_went(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("asked3", yard, sizeof yard / sizeof *yard, &dir);
	tu_expect_at(m, AT, "How many kilos of aluminium did you bale in total?", "713 kg", NULL);
	tu_expect_at(m, AT, "How many feet of track did you wrap out in total?", "54 ft", NULL);
	tu_expect_at(m, AT, "Did the feed pushing go OK?", "Yes", NULL);
	tu_expect_at(m, AT, "Is the compressor back in service?", "Yes", NULL);
	tu_expect_at(m, AT, "How much did the LH2074 bags weigh altogether?", "39.5", NULL);
	tu_expect_at(m, AT, "what did the commander want me to do", "slice bread", NULL);
	tu_close_rm(m, dir);
}

/* A day of more distinct things than a summary keeps (its aggregate is
 * cut to the most telling when built, and the cut is not stored): the
 * summary is still opened for what it may have lost. */
static void test_a_full_summary_is_opened(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("asked4", &dir);
	assert_non_null(m);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, NULL), H2EMV_OK);
	const long long t0 = 1712563200LL * 1000000, h = 3600LL * 1000000; /* Mon 08:00Z */
	tu_ingestf(m, "{\"t\":%lld,\"location\":\"kitchen\",\"action\":{\"name\":\"Place\",\"args\":"
	              "[\"Cup_9\",\"Sink_Basin\"],\"status\":\"succeeded\"}}",
	           t0);
	/* six days, two sessions a day, forty things picked up in each */
	for (int d = 0, n = 0; d < 6; d++)
		for (int e = 0; e < 2; e++)
			for (int i = 0; i < 40; i++, n++)
				tu_ingestf(m, "{\"t\":%lld,\"location\":\"kitchen\",\"action\":{\"name\":"
				              "\"Pickup\",\"args\":[\"Thing%d\"],\"status\":\"succeeded\"}}",
				           t0 + d * 24 * h + e * 9 * h + h + i * 20LL * 1000000, n);
	h2emv_error err = { 0 };
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	tu_expect_at(m, 1713088800000000LL /* Sunday 10:00Z */,
	             "What did you put in the sink on Monday morning?", "cup", NULL);
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_households_words),
		cmocka_unit_test(test_a_tool_a_kind_of_doing_and_a_sight_said),
		cmocka_unit_test(test_amounts_in_units_and_how_it_went),
		cmocka_unit_test(test_a_full_summary_is_opened),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
