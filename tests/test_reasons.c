/*
 * test_reasons.c — a backstage robot and a station free-flyer nobody
 * wrote a profile for, whose outcomes and reasons are logged apart from
 * the action: a line that only closes its goal ("goal_status": "failed",
 * "FAIL: ..."), the reason in a note or in the robot's own words on the
 * failed line, a check that passed or not, trouble during a named
 * occasion, and "why" asked with a verb the log does not use.
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

static const char *const backstage[] = {
	/* Monday 2025-09-01: the tech rehearsal */
	"{\"t\":\"2025-09-01T07:00:00Z\",\"location\":\"fly floor\",\"goal\":[\"Tech\",\"Flies\"],"
	"\"goal_status\":\"running\",\"action\":\"fly.check(lineset=12, load=lantern drop)\"}",
	"{\"t\":\"2025-09-01T07:10:00Z\",\"location\":\"fly floor\",\"goal\":[\"Tech\",\"Flies\"],"
	"\"goal_status\":\"failed\",\"note\":\"FAIL: rope lock slipped, the lantern drop crept "
	"down 30 cm\"}",
	"{\"t\":\"2025-09-01T08:00:00Z\",\"location\":\"stage\",\"goal\":[\"Tech\",\"Sweep\"],"
	"\"goal_status\":\"running\",\"action\":\"stage.sweep(area=downstage)\"}",
	"{\"t\":\"2025-09-01T08:20:00Z\",\"location\":\"stage\",\"goal\":[\"Tech\",\"Sweep\"],"
	"\"goal_status\":\"succeeded\"}",
	/* Tuesday: a fog test that failed, then one that passed */
	"{\"t\":\"2025-09-02T09:30:00Z\",\"location\":\"wings\",\"goal\":[\"Dress\",\"Fog\"],"
	"\"goal_status\":\"running\",\"action\":\"fx.fog_test(machine=fog 1, seconds=20)\"}",
	"{\"t\":\"2025-09-02T09:33:00Z\",\"location\":\"wings\",\"goal\":[\"Dress\",\"Fog\"],"
	"\"goal_status\":\"failed\",\"note\":\"FAIL: fluid low, only 6 seconds of fog\"}",
	"{\"t\":\"2025-09-02T10:00:00Z\",\"location\":\"wings\",\"goal\":[\"Dress\",\"Fog2\"],"
	"\"goal_status\":\"running\",\"action\":\"fx.fog_test(machine=fog 1, seconds=20)\"}",
	"{\"t\":\"2025-09-02T10:03:00Z\",\"location\":\"wings\",\"goal\":[\"Dress\",\"Fog2\"],"
	"\"goal_status\":\"succeeded\"}",
	/* a station free-flyer's failures, told on the failed line */
	"{\"t\":\"2025-09-02T11:00:00Z\",\"t_end\":\"2025-09-02T11:05:00Z\",\"location\":\"Node 3\","
	"\"action\":{\"name\":\"NAV_TO\",\"args\":[{\"key\":\"target\",\"value\":\"Cupola\"}],"
	"\"status\":\"aborted\"},\"note\":\"FDIR: fan 2 impeller stalled; stopped in Node 3.\"}",
	"{\"t\":\"2025-09-02T12:00:00Z\",\"t_end\":\"2025-09-02T12:07:00Z\",\"location\":\"Hab\","
	"\"action\":{\"name\":\"FETCH_TOOL\",\"args\":[{\"key\":\"tool\",\"value\":\"spare gloves\"},"
	"{\"key\":\"from\",\"value\":\"hab locker 4\"}],\"status\":\"failed\"},"
	"\"speech\":{\"speaker\":\"WREN\",\"text\":\"I can't open hab locker 4: its latch is "
	"stuck.\"}}",
	"{\"t\":\"2025-09-02T13:00:00Z\",\"t_end\":\"2025-09-02T13:01:00Z\",\"location\":\"belt 3\","
	"\"action\":{\"name\":\"WeighBag\",\"args\":{\"tag\":\"KL 118004\",\"weight_kg\":31.5},"
	"\"status\":\"failed\"},\"note\":\"overweight; sent back to check-in desk 12\"}",
	/* given to the robot, then given by it */
	"{\"t\":\"2025-09-02T13:30:00Z\",\"t_end\":\"2025-09-02T13:31:00Z\",\"location\":\"wings\","
	"\"action\":{\"name\":\"ReceiveObjectFromHuman\",\"args\":{\"item\":\"glove\"},"
	"\"status\":\"succeeded\"},\"persons\":[\"Sam\"]}",
	"{\"t\":\"2025-09-02T14:00:00Z\",\"t_end\":\"2025-09-02T14:01:00Z\",\"location\":\"wings\","
	"\"action\":{\"name\":\"HandOverObjectToHuman\",\"args\":{\"item\":\"torch\"},"
	"\"status\":\"succeeded\"},\"persons\":[\"Sam\"]}",
	/* a captain (a role, not the robot) tells the robot who did it */
	"{\"t\":\"2025-09-02T14:30:00Z\",\"location\":\"bay 1\",\"persons\":[\"Capt. Alma Reyes\"],"
	"\"speech\":{\"speaker\":\"Captain\",\"text\":\"Ember, Ortega opened the side gate for "
	"the van.\"}}",
	"{\"t\":\"2025-09-02T14:32:00Z\",\"location\":\"bay 1\",\"persons\":[\"Capt. Alma Reyes\"],"
	"\"speech\":{\"speaker\":\"Ember\",\"text\":\"Captain, the compressor overheated.\"}}",
	/* arguments as [key, value] pairs on the running line; the final
	 * line has the name and outcome only, 40 minutes on */
	"{\"t\":\"2025-09-02T15:00:00Z\",\"location\":\"bay 1\",\"goal\":\"B-shift.checks\","
	"\"action\":{\"name\":\"RigCheck\",\"args\":[[\"rig\",\"Engine 9\"],[\"items\",42]],"
	"\"status\":\"running\"}}",
	"{\"t\":\"2025-09-02T15:40:00Z\",\"location\":\"bay 1\",\"goal\":\"B-shift.checks\","
	"\"action\":{\"name\":\"RigCheck\",\"status\":\"failed\"},"
	"\"note\":\"reason=halligan bar missing from compartment R2\"}",
	/* what the robot promised the director */
	"{\"t\":\"2025-09-02T16:00:00Z\",\"location\":\"stage\",\"persons\":[\"Marcus Bell\"],"
	"\"speech\":{\"speaker\":\"Marcus (director)\",\"text\":\"Pim, the trap was a disaster "
	"tonight.\"}}",
	"{\"t\":\"2025-09-02T16:01:00Z\",\"location\":\"stage\",\"persons\":[\"Marcus Bell\"],"
	"\"speech\":{\"speaker\":\"Pim\",\"text\":\"I'll ask Sam to check the trap latch "
	"first thing tomorrow.\"}}",
};

#define AT 1756857600000000LL /* 2025-09-03T00:00:00Z */

static void test_outcomes_told_apart(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("reasons", backstage, sizeof backstage / sizeof *backstage,
	                            &dir);
	/* the closing line's outcome and its note are the run's */
	tu_expect_at(m, AT, "What went wrong with the fog machine?", "fluid low", NULL);
	tu_expect_at(m, AT, "Did lineset 12 pass its check on Monday?", "No", NULL);
	tu_expect_at(m, AT, "Did the first fog test on Tuesday pass?", "No", NULL);
	tu_expect_at(m, AT, "Did anything go wrong at the tech rehearsal on Monday?", "rope lock", NULL);
	/* the run from its start to the line that closed it */
	tu_expect_at(m, AT, "How many minutes did the stage sweep take?", "20 minutes", NULL);
	tu_close_rm(m, dir);
}

static void test_reasons_on_the_failed_line(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("reasons", backstage, sizeof backstage / sizeof *backstage,
	                            &dir);
	tu_expect_at(m, AT, "What went wrong on your way to the cupola?", "impeller stalled", NULL);
	tu_expect_at(m, AT, "Why couldn't you get the gloves?", "latch is stuck", NULL);
	tu_expect_at(m, AT, "Why did you send bag KL 118004 back?", "overweight", NULL);
	tu_expect_at(m, AT, "Why did Engine 9 fail its rig check?", "halligan bar missing", NULL);
	tu_expect_at(m, AT, "Which rig failed its check?", "engine 9", NULL);
	/* a role is not the robot; who did it is the clause's subject */
	tu_expect_at(m, AT, "What did the captain tell you about the side gate?", "Captain said",
	             "I said");
	tu_expect_at(m, AT, "Who opened the side gate?", "Ortega.", NULL);
	tu_expect_at(m, AT, "What did you promise Marcus about the trap?", "ask Sam", NULL);
	/* someone handed the robot something: it received it */
	tu_expect_at(m, AT, "When did somebody last hand you something?", "13:30", "14:00");
	tu_close_rm(m, dir);
}

/* A clinic and car-wash robot: a job started with its inputs and closed
 * by a line with none; a reason nested in the arguments ({"err": {code,
 * text}}) or under "why"; failures asked without the word "fail". */
static const char *const wash[] = {
	"{\"t\":\"2025-09-01T08:00:00Z\",\"location\":\"ward\",\"action\":{\"name\":"
	"\"cleanKennel\",\"args\":{\"kennel\":\"K3\"},\"status\":\"started\"}}",
	"{\"t\":\"2025-09-01T08:15:00Z\",\"location\":\"ward\",\"action\":{\"name\":"
	"\"cleanKennel\",\"status\":\"done\"}}",
	"{\"t\":\"2025-09-01T09:00:00Z\",\"location\":\"ward\",\"action\":{\"name\":"
	"\"cleanKennel\",\"args\":{\"kennel\":\"K2\"},\"status\":\"started\"}}",
	"{\"t\":\"2025-09-01T09:12:00Z\",\"location\":\"ward\",\"action\":{\"name\":"
	"\"cleanKennel\",\"status\":\"done\"}}",
	"{\"t\":\"2025-09-01T10:00:00Z\",\"location\":\"tunnel\",\"action\":{\"name\":"
	"\"Tunnel-Wash\",\"args\":{\"vehicle\":{\"make\":\"Subaru\",\"model\":\"Outback\"},"
	"\"err\":{\"code\":\"E-41\",\"text\":\"conveyor roller jammed\"}},\"status\":"
	"\"aborted\"}}",
	"{\"t\":\"2025-09-01T10:20:00Z\",\"location\":\"tunnel\",\"action\":{\"name\":"
	"\"Tunnel-Wash\",\"args\":{\"vehicle\":{\"make\":\"Subaru\",\"model\":\"Outback\"}},"
	"\"status\":\"ok\"}}",
	"{\"t\":\"2025-09-01T11:00:00Z\",\"location\":\"street set\",\"action\":{\"name\":"
	"\"lay_track\",\"args\":{\"track_ft\":40,\"level\":\"on ramps\",\"why\":\"the floor "
	"is cobbled\"},\"status\":\"error\"}}",
	"{\"t\":\"2025-09-01T11:40:00Z\",\"location\":\"street set\",\"action\":{\"name\":"
	"\"lay_track\",\"args\":{\"track_ft\":30,\"level\":\"on plywood\"},\"status\":\"done\"}}",
};

static void test_failures_asked_in_other_words(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_lines("reasons3", wash, sizeof wash / sizeof *wash, &dir);
	/* the closing line is no second kennel */
	tu_expect_at(m, AT, "How many kennels did you clean?", "2", "4");
	tu_expect_at(m, AT, "What stopped the Outback?", "roller jammed", NULL);
	tu_expect_at(m, AT, "Why didn't the first track work?", "cobbled", "plywood");
	tu_close_rm(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outcomes_told_apart),
		cmocka_unit_test(test_reasons_on_the_failed_line),
		cmocka_unit_test(test_failures_asked_in_other_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
