/*
 * test_runs.c — a workshop robot nobody wrote a profile for, whose log
 * writes a job as two lines (the start with its inputs, the end with its
 * result, as ROS actions send a goal and then a result), calls people by
 * their role, and is asked as a person asks: how much the dog weighed,
 * how long the panel took, what the props master said, what the customer
 * asked, what it got up to on a day.
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

#define T(hms) "\"t\":\"2025-05-06T" hms "+02:00\""

static const char *const workshop[] = {
	/* a job's inputs at its start, its result at its end */
	"{" T("09:00:00") ",\"goal\":[\"clinic day\",\"visit 11\"],\"location\":\"exam room\","
	"\"action\":{\"name\":\"weighPatient\",\"args\":{\"patient\":{\"name\":\"Rex\",\"species\":"
	"\"dog\"}},\"status\":\"started\"}}",
	"{" T("09:02:00") ",\"goal\":[\"clinic day\",\"visit 11\"],\"location\":\"exam room\","
	"\"action\":{\"name\":\"weighPatient\",\"args\":{\"weight_kg\":12.5},\"status\":\"done\"}}",
	/* a long job: started, then done 45 minutes later with the same inputs */
	"{" T("10:00:00") ",\"goal\":[\"clinic day\",\"repairs\"],\"location\":\"store room\","
	"\"action\":{\"name\":\"mount_panel\",\"args\":{\"panel\":\"P7\"},\"status\":\"in progress\"}}",
	"{" T("10:45:00") ",\"goal\":[\"clinic day\",\"repairs\"],\"location\":\"store room\","
	"\"action\":{\"name\":\"mount_panel\",\"args\":{\"panel\":\"P7\"},\"status\":\"done\"}}",
	/* the same inputs started twice in a goal, each run ending with its result */
	"{" T("10:50:00") ",\"goal\":[\"clinic day\",\"scans\"],\"location\":\"server room\","
	"\"action\":{\"name\":\"thermal_scan\",\"args\":{\"rows\":\"A-D\"},\"status\":\"started\"}}",
	"{" T("10:52:00") ",\"goal\":[\"clinic day\",\"scans\"],\"location\":\"server room\","
	"\"action\":{\"name\":\"thermal_scan\",\"args\":{\"max_c\":27},\"status\":\"done\"}}",
	"{" T("10:55:00") ",\"goal\":[\"clinic day\",\"scans\"],\"location\":\"server room\","
	"\"action\":{\"name\":\"thermal_scan\",\"args\":{\"rows\":\"A-D\"},\"status\":\"started\"}}",
	"{" T("10:58:00") ",\"goal\":[\"clinic day\",\"scans\"],\"location\":\"server room\","
	"\"action\":{\"name\":\"thermal_scan\",\"args\":{\"max_c\":31},\"status\":\"done\"}}",
	/* speakers by role: the person whose id is the role; the only visitor */
	"{" T("11:00:00") ",\"location\":\"store room\",\"persons\":[{\"name\":\"Dana Moss\",\"id\":"
	"\"props\"}],\"speech\":{\"speaker\":\"Props\",\"text\":\"The brass lantern has a cracked "
	"glass, keep it off the shelf.\"}}",
	"{" T("11:30:00") ",\"location\":\"front desk\",\"persons\":[{\"name\":\"Ivo Petrov\",\"id\":"
	"\"AB 123\"}],\"speech\":{\"speaker\":\"customer\",\"text\":\"Is my van ready for "
	"collection yet?\"}}",
	/* the robot's words to the one present, then to another */
	"{" T("13:00:00") ",\"location\":\"front desk\",\"persons\":[\"Mila Novak\"],\"speech\":"
	"{\"speaker\":\"Mila Novak\",\"text\":\"Can you hold my keys for me?\"}}",
	"{" T("13:01:00") ",\"location\":\"front desk\",\"persons\":[\"Mila Novak\"],\"speech\":"
	"{\"speaker\":\"Wrench\",\"text\":\"I will keep them at the desk until five.\"}}",
	"{" T("13:30:00") ",\"location\":\"front desk\",\"persons\":[\"Omar Diaz\"],\"speech\":"
	"{\"speaker\":\"Wrench\",\"text\":\"The bay is closed for cleaning, I will call you.\"}}",
	/* a reading kept on the thing seen, beside a level of the action */
	"{" T("15:00:00") ",\"location\":\"tank room\",\"action\":{\"name\":\"inspect_tank\","
	"\"args\":{\"tank\":\"T2\",\"level\":300},\"status\":\"succeeded\"},\"objects\":"
	"[{\"id\":\"T2\",\"type\":\"storage tank\",\"state\":{\"o2_pct\":20.9,\"temp_c\":14}}]}",
	"{" T("16:00:00") ",\"goal\":\"idle\",\"action\":{\"name\":\"idle\",\"status\":\"running\"}}",
};

#define AT 1746612000000000LL /* 2025-05-07T10:00:00Z */

static void test_a_run_joins_its_inputs_and_result(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("runs", workshop, sizeof workshop / sizeof *workshop, &dir);
	tu_expect_at(m, AT, "How much does Rex weigh?", "12.5 kg", NULL);
	tu_expect_at(m, AT, "How heavy is Rex?", "12.5", NULL);
	/* 45 minutes from its start to its end, though over the goal gap */
	tu_expect_at(m, AT, "How long did it take to mount the panel?", "45 minutes", NULL);
	/* the second scan began at its own start, not the first one's */
	tu_expect_at(m, AT, "How long did the last thermal scan take?", "3 minutes", "8 minutes");
	tu_close_rm(m, dir);
}

static void test_speakers_by_role(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("runs", workshop, sizeof workshop / sizeof *workshop, &dir);
	tu_expect_at(m, AT, "What did Dana tell you about the lantern?", "cracked glass", NULL);
	tu_expect_at(m, AT, "What did Ivo Petrov ask?", "van ready", NULL);
	tu_expect_at(m, AT, "What did you get up to yesterday?", "weigh", "The ");
	/* said to the one present */
	tu_expect_at(m, AT, "What did you promise Mila?", "until five", "closed");
	tu_expect_at(m, AT, "What was the oxygen level in the storage tank?", "20.9", "300");
	tu_close_rm(m, dir);
}

/* A mine robot with a lower-case call sign ("drift"), people listed
 * with their role in brackets, and a pump whose code ends in a digit. */
static const char *const mine[] = {
	"{" T("08:00:00") ",\"location\":\"XC-16\",\"persons\":[\"Ken Whitfield (mines "
	"inspector)\"],\"speech\":{\"speaker\":\"Ken\",\"text\":\"How often do you check the "
	"refuge oxygen?\"}}",
	"{" T("08:01:00") ",\"location\":\"XC-16\",\"persons\":[\"Ken Whitfield (mines "
	"inspector)\"],\"speech\":{\"speaker\":\"drift\",\"text\":\"Every shift, and it read "
	"20.9 percent this morning.\"}}",
	"{" T("09:00:00") ",\"location\":\"main sump\",\"action\":{\"name\":\"pump::check\","
	"\"args\":{\"pump\":\"P-3\"},\"status\":\"done\"},\"objects\":[{\"id\":\"P-3\","
	"\"type\":\"sump pump\",\"state\":{\"flow_lpm\":310}}]}",
	"{" T("10:00:00") ",\"location\":\"yard\",\"speech\":{\"speaker\":\"radio\",\"text\":"
	"\"All crews: the north gate is closed.\"}}",
	"{" T("11:00:00") ",\"goal\":\"idle\",\"action\":{\"name\":\"idle\",\"status\":"
	"\"running\"}}",
};

static void test_roles_in_brackets_and_call_signs(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("mine", mine, sizeof mine / sizeof *mine, &dir);
	tu_expect_at(m, AT, "What did the inspector ask you?", "refuge oxygen", NULL);
	tu_expect_at(m, AT, "What did you answer the inspector?", "Every shift", "How often");
	tu_expect_at(m, AT, "Which pump did you check?", "P-3", NULL);
	/* a channel is not the robot */
	tu_expect_at(m, AT, "What came over the radio?", "north gate", "I said");
	tu_close_rm(m, dir);
}

/* An airport wheelchair logging its jobs in the short form, with the
 * passenger listed beside the line. */
static const char *const chair[] = {
	"{" T("07:20:00") ",\"location\":\"arrivals hall\",\"goal\":\"PRM.SSR-1201\","
	"\"action\":\"Escort(SSR-1201, gate F04, arrivals hall)\",\"goal_status\":\"complete\","
	"\"persons\":[{\"name\":\"Chen Li\",\"id\":\"passenger\"}]}",
	"{" T("08:10:00") ",\"location\":\"gate F22\",\"goal\":\"PRM.SSR-1205\","
	"\"action\":\"Escort(SSR-1205, check-in 6, gate F22)\",\"goal_status\":\"complete\","
	"\"persons\":[{\"name\":\"Aisha Mensah\",\"id\":\"passenger\"}]}",
	"{" T("09:00:00") ",\"goal\":\"idle\",\"action\":{\"name\":\"idle\",\"status\":"
	"\"running\"}}",
};

static void test_a_short_form_escort(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("chair", chair, sizeof chair / sizeof *chair, &dir);
	/* the third name is where the escort went, the second where from */
	tu_expect_at(m, AT, "Where did you take Chen Li?", "arrivals hall", "F04");
	tu_expect_at(m, AT, "Where did you take Aisha Mensah?", "gate F22", "check");
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_run_joins_its_inputs_and_result),
		cmocka_unit_test(test_speakers_by_role),
		cmocka_unit_test(test_roles_in_brackets_and_call_signs),
		cmocka_unit_test(test_a_short_form_escort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
