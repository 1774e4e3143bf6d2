/*
 * test_own_words.c — a bakery robot nobody wrote a profile for, logging in
 * words of its own: what it said it saw, trays written "R4" that a person
 * calls "tray 4", keys like tray_id and weight_kg, a reason key beside a
 * failed run, actions with no status of their own inside a goal that
 * failed, amounts written as positional arguments or as {qty, unit},
 * windows of the day, failures told once per trouble, counts of distinct
 * things, a span told day by day; positional counts, lists, and things
 * named inside nested parameters.
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

static const char *const bakery[] = {
	/* Monday 2025-05-05 */
	"{\"t\":\"2025-05-05T04:00:00Z\",\"location\":\"bakehouse\",\"speech\":{\"speaker\":\"Crumb\","
	"\"text\":\"I can see a rye loaf, a croissant tray and a flour sack.\"}}",
	"{\"t\":\"2025-05-05T04:01:00Z\",\"location\":\"bakehouse\",\"persons\":[\"Lena Fox\"],"
	"\"speech\":{\"speaker\":\"Lena Fox\",\"text\":\"I saw a mouse trap behind the mixer.\"}}",
	"{\"t\":\"2025-05-05T04:10:00Z\",\"t_end\":\"2025-05-05T04:40:00Z\",\"location\":\"oven 2\","
	"\"action\":{\"name\":\"BakeTray\",\"args\":{\"tray_id\":\"R4\",\"oven\":\"O2\"},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T04:45:00Z\",\"t_end\":\"2025-05-05T04:47:00Z\",\"location\":\"oven 2\","
	"\"action\":{\"name\":\"SampleCrust\",\"args\":{\"tray_id\":\"R4\",\"moisture\":4.5},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T05:00:00Z\",\"t_end\":\"2025-05-05T05:10:00Z\",\"location\":\"oven 3\","
	"\"action\":{\"name\":\"BakeTray\",\"args\":{\"tray_id\":\"R5\",\"oven\":\"O3\","
	"\"error\":\"oven door sensor tripped, heating stopped at 180 degrees\"},"
	"\"status\":\"failed\"}}",
	"{\"t\":\"2025-05-05T05:30:00Z\",\"location\":\"proofing room\",\"action\":"
	"\"checkProofer(P1, 38 degrees)\",\"goal\":[\"MorningCheck\",\"P1\"],\"goal_status\":\"failed\","
	"\"note\":\"because: proofer lid cracked\"}",
	"{\"t\":\"2025-05-05T06:00:00Z\",\"location\":\"shop\",\"action\":"
	"\"photograph(display case, 6 photos)\",\"goal\":[\"ShopWindow\"],\"goal_status\":\"succeeded\"}",
	"{\"t\":\"2025-05-05T06:20:00Z\",\"t_end\":\"2025-05-05T06:25:00Z\",\"location\":\"yard\","
	"\"action\":{\"name\":\"ReceiveFlour\",\"args\":{\"supplier\":\"Mill North\",\"weight_kg\":250},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T06:40:00Z\",\"t_end\":\"2025-05-05T06:45:00Z\",\"location\":\"cold store\","
	"\"action\":{\"name\":\"Restock\",\"args\":{\"item\":\"butter\",\"qty\":30,\"unit\":\"blocks\"},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T07:00:00Z\",\"t_end\":\"2025-05-05T07:03:00Z\",\"location\":\"shop\","
	"\"action\":{\"name\":\"FillOrder\",\"args\":{\"order\":\"order 811\",\"qty\":12,"
	"\"unit\":\"rolls\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T07:10:00Z\",\"t_end\":\"2025-05-05T07:12:00Z\",\"location\":\"back office\","
	"\"action\":{\"name\":\"PrintLabel\",\"args\":{\"product\":\"rye loaf\",\"copies\":8},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T10:00:00Z\",\"t_end\":\"2025-05-05T10:02:00Z\",\"location\":\"shop\","
	"\"action\":{\"name\":\"ReportSpill\",\"args\":{\"what\":\"broken jar of honey\"},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T13:00:00Z\",\"t_end\":\"2025-05-05T13:20:00Z\",\"location\":\"bakehouse\","
	"\"action\":{\"name\":\"MopFloor\",\"args\":{},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T15:10:00Z\",\"location\":\"oven 2\",\"action\":{\"name\":\"CleanOven\","
	"\"args\":{\"oven\":\"O2\"},\"status\":\"running\"}}",
	"{\"t\":\"2025-05-05T15:12:00Z\",\"location\":\"oven 2\",\"action\":{\"name\":\"CleanOven\","
	"\"args\":{\"oven\":\"O2\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-05T16:00:00Z\",\"t_end\":\"2025-05-05T16:30:00Z\",\"location\":\"charging station\","
	"\"action\":{\"name\":\"Dock\",\"args\":{\"dock\":\"D1\"},\"status\":\"succeeded\"}}",
	/* Tuesday 2025-05-06 */
	"{\"t\":\"2025-05-06T04:10:00Z\",\"t_end\":\"2025-05-06T04:40:00Z\",\"location\":\"oven 2\","
	"\"action\":{\"name\":\"BakeTray\",\"args\":{\"tray_id\":\"R6\",\"oven\":\"O2\"},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T05:10:00Z\",\"t_end\":\"2025-05-06T05:40:00Z\",\"location\":\"oven 2\","
	"\"action\":{\"name\":\"BakeTray\",\"args\":{\"tray_id\":\"R4\",\"oven\":\"O2\"},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T06:20:00Z\",\"t_end\":\"2025-05-06T06:25:00Z\",\"location\":\"yard\","
	"\"action\":{\"name\":\"ReceiveFlour\",\"args\":{\"supplier\":\"Mill North\",\"weight_kg\":125},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T06:40:00Z\",\"t_end\":\"2025-05-06T06:45:00Z\",\"location\":\"cold store\","
	"\"action\":{\"name\":\"Restock\",\"args\":{\"item\":\"butter\",\"qty\":10,\"unit\":\"blocks\"},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T07:00:00Z\",\"t_end\":\"2025-05-06T07:03:00Z\",\"location\":\"shop\","
	"\"action\":{\"name\":\"FillOrder\",\"args\":{\"order\":\"order 812\",\"qty\":6,"
	"\"unit\":\"rolls\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T07:10:00Z\",\"t_end\":\"2025-05-06T07:12:00Z\",\"location\":\"back office\","
	"\"action\":{\"name\":\"PrintLabel\",\"args\":{\"product\":\"spelt loaf\",\"copies\":5},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T08:00:00Z\",\"location\":\"shop\",\"action\":"
	"\"photograph(display case, 6 photos)\",\"goal\":[\"ShopWindow\"],\"goal_status\":\"succeeded\"}",
	/* positional counts, lists, nested things and a nested reason */
	"{\"t\":\"2025-05-06T08:10:00Z\",\"location\":\"yard\",\"action\":"
	"\"restock(flour sacks, 20, store room)\",\"goal\":[\"Stores\"],\"goal_status\":\"succeeded\"}",
	"{\"t\":\"2025-05-06T08:15:00Z\",\"location\":\"yard\",\"action\":"
	"\"restock(flour sacks, 15, store room)\",\"goal\":[\"Stores\"],\"goal_status\":\"succeeded\"}",
	"{\"t\":\"2025-05-06T08:20:00Z\",\"t_end\":\"2025-05-06T08:25:00Z\",\"location\":\"shop\","
	"\"action\":{\"name\":\"wipeCounters\",\"args\":{\"counters\":[1,2,3,4]},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T08:30:00Z\",\"t_end\":\"2025-05-06T08:40:00Z\",\"location\":\"loft\","
	"\"action\":{\"name\":\"cleanArea\",\"args\":{\"area\":{\"name\":\"flour loft\","
	"\"floor\":\"2\"}},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T08:45:00Z\",\"t_end\":\"2025-05-06T08:50:00Z\",\"location\":\"yard\","
	"\"action\":{\"name\":\"fillSilo\",\"args\":{\"silo\":{\"name\":\"silo B\"},"
	"\"outcome\":{\"error\":\"auger motor overheated\"}},\"status\":\"failed\"}}",
	/* a skill named by the thing asked about, beside a patrol that saw them */
	"{\"t\":\"2025-05-06T08:51:00Z\",\"t_end\":\"2025-05-06T08:53:00Z\",\"location\":\"workshop\","
	"\"action\":{\"name\":\"sharpen_tools\",\"args\":{\"bench\":\"B1\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-05-06T08:54:00Z\",\"t_end\":\"2025-05-06T08:56:00Z\",\"location\":\"cellar\","
	"\"action\":\"patrol(cellar)\",\"objects\":[{\"id\":\"h1\",\"type\":\"hammer\"},"
	"{\"id\":\"w1\",\"type\":\"wrench\"}]}",
	"{\"t\":\"2025-05-06T08:57:00Z\",\"location\":\"shop\",\"persons\":[\"customer\"],"
	"\"speech\":{\"speaker\":\"customer\",\"text\":\"Where are the rye loaves today?\"}}",
	"{\"t\":\"2025-05-06T08:57:20Z\",\"location\":\"shop\",\"persons\":[\"customer\"],"
	"\"speech\":{\"speaker\":\"Crumb\",\"text\":\"On the top shelf by the window.\"}}",
};

#define AT 1746522000000000LL /* 2025-05-06T09:00:00Z */

static h2emv_mem *bakery_memory(char **dir)
{
	return tu_mem_lines("ownwords", bakery, sizeof bakery / sizeof *bakery, dir);
}

static void test_what_the_robot_said_it_saw(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = bakery_memory(&dir);
	tu_expect_at(m, AT, "What did you see on Monday?", "croissant tray", "mouse trap");
	tu_expect_at(m, AT, "What did you see on Monday?", "rye loaf", NULL);
	tu_close_rm(m, dir);
}

static void test_short_forms_keys_and_reasons(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = bakery_memory(&dir);
	/* R5 is tray 5; 4.5 holds no 45 */
	tu_expect_at(m, AT, "Did you finish tray 5?", "No", NULL);
	tu_expect_at(m, AT, "Did you sample tray 45?", "No", NULL);
	tu_expect_at(m, AT, "Why did you stop on tray 5?", "oven door sensor", NULL);
	/* tray_id names the tray; the first one */
	tu_expect_at(m, AT, "Which tray did you start with on Monday?", "R4", "R5");
	/* a step with no status of its own in a goal that failed */
	tu_expect_at(m, AT, "Why did the proofer check fail?", "lid cracked", NULL);
	tu_close_rm(m, dir);
}

static void test_amounts_in_their_own_words(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = bakery_memory(&dir);
	tu_expect_at(m, AT, "How many photos did you take in total?", "12 in all", NULL);
	tu_expect_at(m, AT, "How many kilos of flour did you receive?", "375", NULL);
	tu_expect_at(m, AT, "How many butter blocks did you restock?", "40", NULL);
	tu_expect_at(m, AT, "How many labels did you print altogether?", "13", NULL);
	/* the rolls are no orders */
	tu_expect_at(m, AT, "How many orders did you fill?", "2", "18");
	/* trays, each once: R4 twice is one tray */
	tu_expect_at(m, AT, "How many trays did you bake?", "2 trays", NULL);
	/* restock(flour sacks, 20, store room): 20 is how many, not where */
	tu_expect_at(m, AT, "How many flour sacks did you restock?", "35", NULL);
	tu_expect_at(m, AT, "Where did you put the flour sacks?", "store room", "At the 20");
	tu_expect_at(m, AT, "How many counters did you wipe?", "4", NULL);
	tu_expect_at(m, AT, "Which areas did you clean?", "flour loft", NULL);
	tu_expect_at(m, AT, "What went wrong with the silo?", "auger motor overheated", NULL);
	/* what was seen during the patrol, not during sharpen_tools */
	tu_expect_at(m, AT, "What tools did you see on your patrol?", "wrench", NULL);
	/* where the robot said, not where it was */
	tu_expect_at(m, AT, "Where did you tell the customer the rye loaves were?", "top shelf", NULL);
	tu_close_rm(m, dir);
}

static void test_times_troubles_and_days(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = bakery_memory(&dir);
	tu_expect_at(m, AT, "What did you do on Monday between 3 and 4 pm?", "CleanOven", "MopFloor");
	tu_expect_at(m, AT, "When did you last clean the oven?", "15:10:00 (until 15:12:00)", NULL);
	tu_expect_at(m, AT, "When did you last go to the charger?", "16:00", NULL);
	tu_expect_at(m, AT, "When did you find the broken jar?", "10:0", NULL);
	tu_expect_at(m, AT, "What went wrong on Monday?", "BakeTray", NULL);
	tu_expect_at(m, AT, "What went wrong on Monday?", "checkProofer", NULL);
	tu_expect_at(m, AT, "Did you have any problems during the morning shift on Monday?", "Yes", NULL);
	tu_expect_at(m, AT, "What did you do each day?", "On 2025/05/06", NULL);
	tu_expect_at(m, AT, "What did you do each day?", "On 2025/05/05", NULL);
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_the_robot_said_it_saw),
		cmocka_unit_test(test_short_forms_keys_and_reasons),
		cmocka_unit_test(test_amounts_in_their_own_words),
		cmocka_unit_test(test_times_troubles_and_days),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
