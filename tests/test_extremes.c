/*
 * test_extremes.c — a wind-farm service robot nobody wrote a profile for,
 * asked what a technician asks of a log it did not write: the highest,
 * lowest and average of its readings; a serial number kept in a part's
 * own object; how many swaps it tried, failed ones included; how many
 * units were checked in when the log names only their makes; what a
 * person said (and what the robot promised them) when both spoke on one
 * line and the robot's name is not in any profile; an audit that found
 * none; a step ladder left on a deck. Its statuses are the robot's own
 * words ("ok", "DONE", "completed").
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

static const char *const windfarm[] = {
	/* Tuesday 2025-09-02: readings, each a line of its own */
	"{\"t\":\"2025-09-02T07:00:00Z\",\"t_end\":\"2025-09-02T07:10:00Z\",\"location\":\"T7 nacelle\","
	"\"action\":{\"name\":\"gearbox-check\",\"args\":{\"unit\":\"T7\",\"oil_temp_c\":61.5},"
	"\"status\":\"ok\"}}",
	"{\"t\":\"2025-09-02T09:00:00Z\",\"t_end\":\"2025-09-02T09:10:00Z\",\"location\":\"T8 nacelle\","
	"\"action\":{\"name\":\"gearbox-check\",\"args\":{\"unit\":\"T8\",\"oil_temp_c\":74.2},"
	"\"status\":\"ok\"}}",
	"{\"t\":\"2025-09-02T11:00:00Z\",\"t_end\":\"2025-09-02T11:10:00Z\",\"location\":\"T9 nacelle\","
	"\"action\":{\"name\":\"gearbox-check\",\"args\":{\"unit\":\"T9\",\"oil_temp_c\":58.0},"
	"\"status\":\"ok\"}}",
	/* a part in its own object; a failed try; a later success */
	"{\"t\":\"2025-09-02T12:00:00Z\",\"t_end\":\"2025-09-02T12:20:00Z\",\"location\":\"T7 nacelle\","
	"\"action\":{\"name\":\"sensor-swap\",\"args\":{\"site\":{\"tower\":\"T7\",\"deck\":2},"
	"\"part\":{\"kind\":\"anemometer\",\"serial\":\"AN-55X1\"}},\"status\":\"ok\"}}",
	"{\"t\":\"2025-09-02T13:00:00Z\",\"t_end\":\"2025-09-02T13:20:00Z\",\"location\":\"T8 nacelle\","
	"\"action\":{\"name\":\"sensor-swap\",\"args\":{\"site\":{\"tower\":\"T8\",\"deck\":2},"
	"\"part\":{\"kind\":\"wind vane\",\"serial\":\"WV-1203\"},\"error\":\"bracket bolt seized\"},"
	"\"status\":\"failed\"}}",
	"{\"t\":\"2025-09-02T14:00:00Z\",\"t_end\":\"2025-09-02T14:20:00Z\",\"location\":\"T8 nacelle\","
	"\"action\":{\"name\":\"sensor-swap\",\"args\":{\"site\":{\"tower\":\"T8\",\"deck\":2},"
	"\"part\":{\"kind\":\"wind vane\",\"serial\":\"WV-1203\"}},\"status\":\"ok\"}}",
	/* units booked in by make only */
	"{\"t\":\"2025-09-02T15:00:00Z\",\"t_end\":\"2025-09-02T15:05:00Z\",\"location\":\"store\","
	"\"action\":{\"name\":\"book in\",\"args\":{\"make\":\"Vestas\",\"tag\":\"R-11\"},"
	"\"status\":\"ok\"}}",
	"{\"t\":\"2025-09-02T15:10:00Z\",\"t_end\":\"2025-09-02T15:15:00Z\",\"location\":\"store\","
	"\"action\":{\"name\":\"book in\",\"args\":{\"make\":\"Enercon\",\"tag\":\"R-12\","
	"\"note\":\"spare gearbox unit, crate dented\"},\"status\":\"ok\"}}",
	"{\"t\":\"2025-09-02T15:20:00Z\",\"t_end\":\"2025-09-02T15:25:00Z\",\"location\":\"store\","
	"\"action\":{\"name\":\"inspect crate\",\"args\":{\"tag\":\"R-12\"},\"status\":\"ok\"}}",
	/* an audit that counted none; things seen on a sweep; a repair */
	"{\"t\":\"2025-09-02T15:40:00Z\",\"t_end\":\"2025-09-02T15:50:00Z\",\"location\":\"T9 hub\","
	"\"action\":{\"name\":\"blade-audit\",\"args\":{\"tower\":\"T9\",\"blades\":3,"
	"\"cracks\":0},\"status\":\"DONE\"}}",
	"{\"t\":\"2025-09-02T15:55:00Z\",\"t_end\":\"2025-09-02T15:58:00Z\",\"location\":\"T9 hub\","
	"\"action\":{\"name\":\"deck-sweep\",\"args\":{\"deck\":2},\"status\":\"completed\"},"
	"\"objects\":[{\"id\":\"l1\",\"type\":\"step ladder\",\"state\":{\"folded\":false},"
	"\"relations\":[{\"to\":\"deck 2\",\"type\":\"on\"}]}]}",
	"{\"t\":\"2025-09-02T15:59:00Z\",\"t_end\":\"2025-09-02T15:59:30Z\",\"location\":\"T9 hub\","
	"\"action\":{\"name\":\"fix hatch\",\"args\":{\"hatch\":\"H3\"},\"status\":\"Success\"}}",
	/* a helper named by first name, under the key with */
	"{\"t\":\"2025-09-02T15:30:00Z\",\"t_end\":\"2025-09-02T15:35:00Z\",\"location\":\"T9 hub\","
	"\"persons\":[\"Ines Duarte\"],\"action\":{\"name\":\"torque bolts\",\"args\":"
	"{\"bolts\":24,\"with\":\"Ines\"},\"status\":\"ok\"}}",
	/* two speakers on one line; the robot (Gale) answers Marta */
	"{\"t\":\"2025-09-02T16:00:00Z\",\"location\":\"control hut\",\"persons\":[\"Marta Ruiz\"],"
	"\"speech\":[{\"speaker\":\"Marta\",\"text\":\"The nacelle light on T9 keeps blinking, "
	"can you look?\"},{\"speaker\":\"Gale\",\"text\":\"I will look at it after lunch.\"}]}",
	"{\"t\":\"2025-09-02T17:00:00Z\",\"location\":\"control hut\",\"persons\":[\"Marta Ruiz\"],"
	"\"speech\":[{\"speaker\":\"Marta\",\"text\":\"Thanks, see you tomorrow.\"},"
	"{\"speaker\":\"Gale\",\"text\":\"Good night.\"}]}",
};

#define AT 1756857600000000LL /* 2025-09-03T00:00:00Z */

static void test_extremes_of_readings(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("extremes", windfarm, sizeof windfarm / sizeof *windfarm, &dir);
	tu_expect_at(m, AT, "What was the highest oil temperature?", "74.2", NULL);
	tu_expect_at(m, AT, "What was the lowest oil temperature yesterday?", "58", "74.2");
	tu_expect_at(m, AT, "What was the average oil temperature?", "64.57", NULL);
	tu_expect_at(m, AT, "How hot did the gearbox oil get?", "74.2", NULL);
	/* one reading asked: the newest, as before */
	tu_expect_at(m, AT, "What was the oil temperature in T7?", "61.5", NULL);
	tu_close_rm(m, dir);
}

static void test_keys_in_their_own_object(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("extremes", windfarm, sizeof windfarm / sizeof *windfarm, &dir);
	tu_expect_at(m, AT, "What's the serial number of the anemometer you put in T7?", "AN-55X1",
	             NULL);
	tu_expect_at(m, AT, "Which deck was the T8 swap on?", "deck 2", NULL);
	tu_close_rm(m, dir);
}

static void test_counts_of_tries_and_makes(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("extremes", windfarm, sizeof windfarm / sizeof *windfarm, &dir);
	tu_expect_at(m, AT, "How many sensor swaps did you try?", "3 times", NULL);
	tu_expect_at(m, AT, "How many sensor swaps did you do?", "2 times", NULL);
	/* booked in by make only: every booking, not the crate inspected */
	tu_expect_at(m, AT, "How many units were booked in yesterday?", "2 times", NULL);
	/* a thing nothing of the verb mentions is still none */
	tu_expect_at(m, AT, "How many apples did you book in?", "", "2 times");
	tu_close_rm(m, dir);
}

static void test_nothing_found_and_things_seen(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("extremes", windfarm, sizeof windfarm / sizeof *windfarm, &dir);
	/* an audit that counted none of them says no */
	tu_expect_at(m, AT, "Were there any cracks on T9?", "No", "Yes");
	/* a step ladder is a thing, not the steps of a task */
	tu_expect_at(m, AT, "Where was the step ladder left?", "deck 2", "sweep");
	tu_expect_at(m, AT, "What did you find on the deck during the sweep?", "step ladder", NULL);
	/* fix and repair are one doing */
	tu_expect_at(m, AT, "Did you repair the hatch?", "Yes", NULL);
	tu_close_rm(m, dir);
}

static void test_words_on_one_line(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("extremes", windfarm, sizeof windfarm / sizeof *windfarm, &dir);
	/* "Marta" is the Marta Ruiz present: Gale, the other speaker, is the robot */
	tu_expect_at(m, AT, "What did you promise Marta?", "after lunch", NULL);
	tu_expect_at(m, AT, "What did Marta say was wrong with the turbine?", "keeps blinking",
	             NULL);
	/* who helped: the person the action was done with */
	tu_expect_at(m, AT, "Who helped you torque the bolts?", "Ines", NULL);
	/* where someone said a thing was: their words, not where they spoke */
	tu_expect_at(m, AT, "Where did Marta say the light was?", "on T9", "control hut");
	tu_close_rm(m, dir);
}

static void test_everything_of_a_span(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("extremes", windfarm, sizeof windfarm / sizeof *windfarm, &dir);
	/* "this week" (days): everything swapped; "yesterday": the last */
	tu_expect_at(m, AT, "What did you swap this week?", "anemometer", NULL);
	tu_expect_at(m, AT, "What did you swap yesterday?", "wind vane", "anemometer");
	/* nothing read the question (no verb of the log's): the closest
	 * action record that holds its names */
	tu_expect_at(m, AT, "When did the store receive the Vestas unit?", "15:00", "15:10");
	tu_expect_at(m, AT, "When did you register the Vestas R-11?", "book in vestas", NULL);
	/* a tally: where it worked most often (four jobs in the T9 hub, three
	 * in the store) */
	tu_expect_at(m, AT, "Where did you work most often?", "T9 hub (4 times)", NULL);
	tu_expect_at(m, AT, "Who did you talk to the most?", "Marta", "Gale");
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extremes_of_readings),
		cmocka_unit_test(test_keys_in_their_own_object),
		cmocka_unit_test(test_counts_of_tries_and_makes),
		cmocka_unit_test(test_nothing_found_and_things_seen),
		cmocka_unit_test(test_words_on_one_line),
		cmocka_unit_test(test_everything_of_a_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
