/*
 * test_localtime.c — a car-wash robot that logs its local time (-08:00),
 * asked as its crew asks: "on Tuesday morning" and "Tuesday evening" are
 * its local day and hours, not UTC's; and measured values asked by an
 * adjective and a unit ("how full ..., in percent", "how deep was the
 * water, in cm", "how wide was the crack"), or by the measure word when
 * only a note holds the number.
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

#define T(d, hms) "\"t\":\"2026-11-" d "T" hms "-08:00\""
#define LUIS "\"persons\":[{\"name\":\"Luis Ortega\",\"id\":\"tech\"}]"

static const char *const wash[] = {
	"{" T("24", "07:10:00") ",\"location\":\"wash bay\"," LUIS ",\"speech\":{\"speaker\":"
	"\"Luis\",\"text\":\"The float valve was stuck, I freed it.\"}}",
	"{" T("24", "07:40:00") ",\"location\":\"pump room\",\"action\":{\"name\":\"check_tank\","
	"\"args\":{\"tank\":\"reclaim\",\"level_pct\":18,\"ph\":8.9},\"status\":\"done\"}}",
	"{" T("24", "08:05:00") ",\"location\":\"pump room\",\"action\":{\"name\":\"tag_hazard\","
	"\"args\":{\"where\":\"sump 2 at 40 m\"},\"status\":\"done\"},\"objects\":[{\"id\":"
	"\"water-1\",\"type\":\"standing water\",\"state\":{\"depth_cm\":15}}]}",
	"{" T("24", "09:00:00") ",\"location\":\"control room\",\"note\":\"Shift start. Reservoir "
	"level 3.6 m.\"}",
	"{" T("24", "10:30:00") ",\"location\":\"yard\",\"action\":{\"name\":\"measure_crack\","
	"\"args\":{\"column\":\"C7\",\"width\":\"0.6 mm\"},\"status\":\"done\"}}",
	"{" T("24", "11:15:00") ",\"location\":\"gate\",\"note\":\"Two cyclists asked the way to "
	"the reservoir trail.\"}",
	"{" T("24", "15:30:00") ",\"location\":\"wash bay\"," LUIS ",\"speech\":{\"speaker\":"
	"\"Luis\",\"text\":\"Lane 2 is closed for the evening.\"}}",
	"{" T("24", "20:30:00") ",\"location\":\"wash bay\"," LUIS ",\"speech\":{\"speaker\":"
	"\"Luis\",\"text\":\"Locking up the vacuum station now.\"}}",
	"{" T("24", "21:00:00") ",\"location\":\"charger\",\"action\":\"Dock(bay W3)\","
	"\"goal_status\":\"complete\",\"objects\":[{\"id\":\"SUDS\",\"type\":\"wash robot\","
	"\"state\":{\"battery_pct\":23}}]}",
	"{" T("25", "07:00:00") ",\"location\":\"wash bay\",\"action\":{\"name\":\"idle\","
	"\"status\":\"running\"}}",
};

#define AT 1795622400000000LL /* 2026-11-25T16:00:00Z */

static void test_days_and_hours_are_the_robots_own(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("localtime", wash, sizeof wash / sizeof *wash, &dir);
	/* 07:10 local is 15:10 UTC: outside a UTC morning */
	tu_expect_at(m, AT, "What did Luis say on Tuesday morning?", "float valve", NULL);
	/* 20:30 local on Tuesday is Wednesday 04:30 UTC */
	tu_expect_at(m, AT, "What did Luis say on Tuesday evening?", "vacuum station", "Lane 2");
	/* the canonical JSON gives the time back as it was written */
	char *json = NULL;
	assert_int_equal(h2emv_obs_get_json(&json, NULL, m, 1, NULL), H2EMV_OK);
	assert_non_null(strstr(json, "\"t\":\"2026-11-24T07:10:00.000000-08:00\""));
	free(json);
	tu_close_rm(m, dir);
}

static void test_a_value_asked_by_adjective_and_unit(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("localvalue", wash, sizeof wash / sizeof *wash, &dir);
	tu_expect_at(m, AT, "How full was the reclaim tank on Tuesday morning, in percent?", "18",
	             "8.9");
	/* "the water" is a thing, not watering */
	tu_expect_at(m, AT, "How deep was the water in the pump room, in cm?", "15", NULL);
	tu_expect_at(m, AT, "How wide was the crack on C7?", "0.6 mm", NULL);
	/* only notes hold it: the one that says the level with a number */
	tu_expect_at(m, AT, "What was the reservoir level on Tuesday?", "3.6", "cyclists");
	/* a reading on a thing seen on the action's line: the robot's own */
	tu_expect_at(m, AT, "What was your battery level when you last docked?", "23", NULL);
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_days_and_hours_are_the_robots_own),
		cmocka_unit_test(test_a_value_asked_by_adjective_and_unit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
