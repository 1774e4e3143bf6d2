/*
 * test_measured.c — a greenhouse and visitor-centre robot nobody wrote a
 * profile for, whose numbers live where a person would not look first:
 * counts written or said in words ("17 workers signed in", "Eighty
 * chairs"), a group's size, units in a parameter, parameters as a list
 * of key/value pairs (ROS KeyValue), readings nested in their own object,
 * and questions about a measured value ("what was the CO2 level").
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

static const char *const greenhouse[] = {
	/* a dairy's amounts: a cow's yields, a tank's volume, bales used */
	"{\"t\":\"2025-06-02T05:00:00Z\",\"t_end\":\"2025-06-02T05:07:00Z\",\"location\":\"parlour\","
	"\"action\":{\"name\":\"milk/box\",\"args\":{\"cow\":{\"tag\":412,\"name\":\"Bella\"},"
	"\"yield_l\":9.6},\"status\":\"Succeeded\"}}",
	"{\"t\":\"2025-06-02T05:30:00Z\",\"t_end\":\"2025-06-02T05:35:00Z\",\"location\":\"dairy\","
	"\"action\":{\"name\":\"tank/check\",\"args\":{\"tank\":\"bulk tank\",\"temp\":\"3.9C\","
	"\"volume\":\"1840 L\"},\"status\":\"Succeeded\"}}",
	/* Monday 2025-06-02 */
	"{\"t\":\"2025-06-02T06:50:00Z\",\"location\":\"site gate\",\"note\":"
	"\"Site open; 17 workers signed in; dry, wind 10 km/h.\"}",
	"{\"t\":\"2025-06-02T07:00:00Z\",\"t_end\":\"2025-06-02T07:05:00Z\",\"location\":\"site gate\","
	"\"action\":{\"name\":\"countDelivery\",\"args\":{\"goods\":\"compost\",\"sacks\":40},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T08:00:00Z\",\"t_end\":\"2025-06-02T08:04:00Z\",\"location\":\"bay 3\","
	"\"action\":{\"name\":\"AIR_SAMPLE\",\"args\":{\"module\":\"bay 3\",\"readings\":"
	"{\"co2_ppm\":2400,\"o2_pct\":20.8,\"rh_pct\":61}},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T08:00:00Z\",\"t_end\":\"2025-06-02T08:40:00Z\",\"location\":\"cow shed\","
	"\"action\":{\"name\":\"bed/spread\",\"args\":{\"cubicles\":\"1-24\",\"bales\":3,"
	"\"bedding\":\"straw\"},\"status\":\"Succeeded\"}}",
	"{\"t\":\"2025-06-02T09:00:00Z\",\"t_end\":\"2025-06-02T09:20:00Z\",\"location\":\"bay 3\","
	"\"action\":{\"name\":\"PHOTO_SURVEY\",\"args\":[{\"key\":\"module\",\"value\":\"bay 3\"},"
	"{\"key\":\"frames\",\"value\":\"80\"},{\"key\":\"abort_reason\","
	"\"value\":\"camera lens fogged after 22 frames\"}],\"status\":\"aborted\"}}",
	"{\"t\":\"2025-06-02T10:00:00Z\",\"t_end\":\"2025-06-02T10:40:00Z\",\"location\":\"bed 21\","
	"\"action\":{\"name\":\"harvest_row\",\"args\":{\"row_id\":\"R21\",\"filled\":7,"
	"\"weight_kg\":1630},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T10:45:00Z\",\"t_end\":\"2025-06-02T10:48:00Z\",\"location\":\"bed 21\","
	"\"action\":{\"name\":\"sample_brix\",\"args\":{\"row_id\":\"R21\",\"brix\":21.9},"
	"\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T11:00:00Z\",\"t_end\":\"2025-06-02T11:02:00Z\",\"location\":\"kitchen\","
	"\"action\":{\"name\":\"check_temp\",\"args\":{\"unit\":\"walk-in fridge\","
	"\"reading\":\"4.1 C\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T11:30:00Z\",\"t_end\":\"2025-06-02T11:34:00Z\",\"location\":\"shop\","
	"\"action\":{\"name\":\"CountStock\",\"args\":{\"product\":\"AA batteries 4-pack\","
	"\"units\":14},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T12:00:00Z\",\"location\":\"visitor centre\",\"persons\":[\"Jonas Berg\"],"
	"\"speech\":{\"speaker\":\"Jonas Berg\",\"text\":\"Good morning, I am here with 24 pupils "
	"from Hillside School.\"}}",
	"{\"t\":\"2025-06-02T12:05:00Z\",\"t_end\":\"2025-06-02T12:45:00Z\",\"location\":\"bay 1\","
	"\"action\":{\"name\":\"Guide\",\"args\":{\"group\":{\"kind\":\"school group\",\"size\":31},"
	"\"to\":\"bay 1\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T14:00:00Z\",\"location\":\"hall\",\"persons\":[\"Head gardener\"],"
	"\"speech\":[{\"speaker\":\"Sprout\",\"text\":\"How many chairs do you need?\"},"
	"{\"speaker\":\"Head gardener\",\"text\":\"Eighty chairs, in rows facing the stage.\"}]}",
	"{\"t\":\"2025-06-02T15:00:00Z\",\"t_end\":\"2025-06-02T15:20:00Z\",\"location\":\"hall\","
	"\"action\":{\"name\":\"StoryTime\",\"args\":{\"book\":\"The Hungry Caterpillar\","
	"\"audience\":12},\"status\":\"succeeded\"}}",
	"{\"t\":\"2025-06-02T16:00:00Z\",\"location\":\"store\",\"note\":"
	"\"Audit rack F3: 13 of 14 bags found; bag 7 not at its slot.\"}",
	"{\"t\":\"2025-06-02T16:30:00Z\",\"location\":\"wings\",\"action\":"
	"\"preset.check(act=1, expected=18, found=17)\",\"goal\":[\"Dress\",\"Preshow\"],"
	"\"goal_status\":\"running\"}",
	"{\"t\":\"2025-06-02T16:45:00Z\",\"location\":\"wings\",\"speech\":\"standby fog "
	"cue fourteen ... fog cue fourteen go\"}",
	"{\"t\":\"2025-06-02T17:00:00Z\",\"t_end\":\"2025-06-02T17:07:00Z\",\"location\":\"parlour\","
	"\"action\":{\"name\":\"milk/box\",\"args\":{\"cow\":{\"tag\":412,\"name\":\"Bella\"},"
	"\"yield_l\":15.1},\"status\":\"Succeeded\"}}",
	"{\"t\":\"2025-06-02T17:30:00Z\",\"t_end\":\"2025-06-02T17:35:00Z\",\"location\":\"dairy\","
	"\"action\":{\"name\":\"tank/check\",\"args\":{\"tank\":\"bulk tank\",\"temp\":\"3.8C\","
	"\"volume\":\"3960 L\"},\"status\":\"Succeeded\"}}",
};

#define AT 1748908800000000LL /* 2025-06-03T00:00:00Z */

static void test_counts_told_in_words(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("measured", greenhouse, sizeof greenhouse / sizeof *greenhouse,
	                            &dir);
	tu_expect_at(m, AT, "How many workers were on site on Monday?", "17", NULL);
	tu_expect_at(m, AT, "How many pupils came with the school group?", "24", NULL);
	tu_expect_at(m, AT, "How many chairs did the head gardener want?", "80", NULL);
	tu_expect_at(m, AT, "How many kids were in the school group?", "31", NULL);
	tu_expect_at(m, AT, "How many kids came to story time?", "12", NULL);
	tu_expect_at(m, AT, "How many packs of AA batteries were there?", "14", NULL);
	/* "13 of 14 bags found": 13; found=17 counts what was found; a
	 * number in words after a noun ("cue fourteen") is a name */
	tu_expect_at(m, AT, "How many bags did you find in rack F3?", "13", NULL);
	tu_expect_at(m, AT, "How many props did you find at the act 1 check?", "17", NULL);
	tu_expect_at(m, AT, "How many times did you fire the fog cue?", "", "14 fog");
	/* an amount in a unit whatever its key; what a tank held last */
	tu_expect_at(m, AT, "How much milk did Bella give on Monday?", "24.7", NULL);
	tu_expect_at(m, AT, "How much milk was in the tank at the last check?", "3960", "3.8");
	tu_expect_at(m, AT, "How many bales of straw did you use?", "3 bales", NULL);
	tu_close_rm(m, dir);
}

static void test_values_where_a_log_keeps_them(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("measured", greenhouse, sizeof greenhouse / sizeof *greenhouse,
	                            &dir);
	/* key/value pairs; the reason among them */
	tu_expect_at(m, AT, "Why did you stop the photo survey?", "lens fogged", NULL);
	tu_expect_at(m, AT, "How many frames did the bay 3 survey take?", "80", NULL);
	/* readings in their own object, asked for by name or formula */
	tu_expect_at(m, AT, "What was the CO2 level in bay 3?", "2400", NULL);
	tu_expect_at(m, AT, "What was the oxygen reading in bay 3?", "20.8", NULL);
	tu_expect_at(m, AT, "How high was the CO2 in bay 3?", "2400", NULL);
	/* the value, not the row it was measured on nor another number */
	tu_expect_at(m, AT, "What was the sugar reading on row 21?", "21.9", NULL);
	tu_expect_at(m, AT, "What was the fridge temperature on Monday?", "4.1", NULL);
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_told_in_words),
		cmocka_unit_test(test_values_where_a_log_keeps_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
