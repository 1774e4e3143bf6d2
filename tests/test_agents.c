/*
 * test_agents.c — questions about what other people did and said, of a
 * robot nobody wrote a profile for (a ferry terminal's robot, "Ferrybot"):
 * "who opened the car deck" is the robot's own deed, "who let the fuel
 * truck in" and "who dropped parcels" the subject of a note's clause; a
 * verb of saying the robot lexicon does not know ("complain") asks for a
 * person's words; "what did you tell Sam" is the robot's reply to Sam; a
 * plural that is no category matches kinds only by what a word first
 * means (a deck is no parcel).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/base/wordnet.h"
#include "h2emv.h"
#include "testutil.h"

static const char *const ferry[] = {
	"{\"t\":\"2026-03-02T07:00:00Z\",\"location\":\"gangway\",\"persons\":[\"Olu Bakare\"],\"speech\":{\"speaker\":\"Olu Bakare\",\"text\":\"Morning Ferrybot, can you open the car deck for the van?\"}}",
	"{\"t\":\"2026-03-02T07:00:20Z\",\"location\":\"gangway\",\"speech\":{\"speaker\":\"Ferrybot\",\"text\":\"Sure Olu, opening the car deck now.\"}}",
	"{\"t\":\"2026-03-02T07:01:00Z\",\"t_end\":\"2026-03-02T07:02:00Z\",\"location\":\"car deck\",\"action\":{\"name\":\"OpenRamp\",\"args\":{\"ramp\":\"R2\",\"deck\":\"car deck\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2026-03-02T07:10:00Z\",\"location\":\"gangway\",\"note\":\"The courier dropped two parcels at the ticket desk; Mia Lund signed for them.\"}",
	"{\"t\":\"2026-03-02T07:20:00Z\",\"location\":\"ticket desk\",\"persons\":[\"Mia Lund\"],\"speech\":{\"speaker\":\"Mia Lund\",\"text\":\"The heater in the waiting room is broken again, it is freezing in here.\"}}",
	"{\"t\":\"2026-03-02T07:20:30Z\",\"location\":\"ticket desk\",\"speech\":{\"speaker\":\"Ferrybot\",\"text\":\"I will report the heater to maintenance.\"}}",
	"{\"t\":\"2026-03-02T07:25:00Z\",\"t_end\":\"2026-03-02T07:26:00Z\",\"location\":\"ticket desk\",\"action\":{\"name\":\"FileReport\",\"args\":{\"topic\":\"waiting room heater\",\"to\":\"maintenance\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2026-03-02T08:05:00Z\",\"location\":\"car deck\",\"note\":\"Olu Bakare let the fuel truck in through gate 3.\"}",
	"{\"t\":\"2026-03-02T08:30:00Z\",\"location\":\"pier\",\"note\":\"Pump P2 tripped at 08:28; Sam Ortiz reset the breaker.\"}",
	"{\"t\":\"2026-03-02T09:00:00Z\",\"location\":\"pier\",\"persons\":[\"Sam Ortiz\"],\"speech\":{\"speaker\":\"Sam Ortiz\",\"text\":\"Ferrybot, what time does the last ferry leave tonight?\"}}",
	"{\"t\":\"2026-03-02T09:00:10Z\",\"location\":\"pier\",\"speech\":{\"speaker\":\"Ferrybot\",\"text\":\"The last ferry leaves at 22:40.\"}}",
	"{\"t\":\"2026-03-02T09:30:00Z\",\"t_end\":\"2026-03-02T09:40:00Z\",\"location\":\"pier\",\"action\":{\"name\":\"MoorCheck\",\"args\":{\"line\":\"bow line\",\"tension_kn\":12},\"status\":\"failed\"},\"note\":\"winch jammed\"}",
	"{\"t\":\"2026-03-02T10:00:00Z\",\"location\":\"car deck\",\"note\":\"The driver of the blue van turned back because the height bar was too low.\"}",
	"{\"t\":\"2026-03-02T10:30:00Z\",\"location\":\"gangway\",\"persons\":[\"Ana Pohl\"],\"note\":\"Ana Pohl left without signing out.\"}",
	"{\"t\":\"2026-03-02T11:00:00Z\",\"location\":\"gangway\",\"persons\":[\"Ana Pohl\"],\"speech\":{\"speaker\":\"Ana Pohl\",\"text\":\"I left my umbrella on the upper deck, please keep it for me.\"}}",
	"{\"t\":\"2026-03-02T11:00:10Z\",\"location\":\"gangway\",\"speech\":{\"speaker\":\"Ferrybot\",\"text\":\"Of course, I will bring it to lost property.\"}}",
	"{\"t\":\"2026-03-02T11:20:00Z\",\"t_end\":\"2026-03-02T11:25:00Z\",\"location\":\"upper deck\",\"action\":{\"name\":\"Carry\",\"args\":{\"item\":\"umbrella\",\"dest\":\"lost property\"},\"status\":\"succeeded\"}}",
	"{\"t\":\"2026-03-02T11:40:00Z\",\"location\":\"ticket desk\",\"persons\":[\"Lena Berg\"],"
	"\"speech\":{\"speaker\":\"Lena Berg\",\"text\":\"Ferrybot, I need a ticket for my car, where do I go?\"}}",
	"{\"t\":\"2026-03-02T11:40:15Z\",\"location\":\"ticket desk\",\"persons\":[\"Lena Berg\"],"
	"\"speech\":{\"speaker\":\"Ferrybot\",\"text\":\"Car tickets are sold at window 2, next to the cafe.\"}}",
	"{\"t\":\"2026-03-02T11:41:00Z\",\"location\":\"ticket desk\",\"speech\":{\"speaker\":\"courier\","
	"\"text\":\"Two more parcels for the ticket desk.\"}}",
	"{\"t\":\"2026-03-02T06:30:00Z\",\"location\":\"fuel dock\",\"note\":\"Delivery of 800 litres of "
	"diesel from Nordfuel; tank D1 filled.\"}",
	"{\"t\":\"2026-03-02T09:45:00Z\",\"location\":\"fuel dock\",\"note\":\"Delivery of 600 litres of "
	"diesel from Nordfuel.\"}",
	"{\"t\":\"2026-03-02T10:10:00Z\",\"t_end\":\"2026-03-02T10:12:00Z\",\"location\":\"car deck\","
	"\"action\":{\"name\":\"load_luggage\",\"args\":{\"cart\":\"C2\",\"kg\":42},\"status\":\"succeeded\"}}",
	"{\"t\":\"2026-03-02T10:40:00Z\",\"t_end\":\"2026-03-02T10:42:00Z\",\"location\":\"car deck\","
	"\"action\":{\"name\":\"load_luggage\",\"args\":{\"cart\":\"C3\",\"kg\":37},\"status\":\"succeeded\"}}",
	"{\"t\":\"2026-03-02T11:50:00Z\",\"location\":\"ticket desk\",\"persons\":[\"Lena Berg\"],"
	"\"action\":{\"name\":\"PrintTicket\",\"args\":{\"ticket\":\"T-12\"},\"status\":\"failed\"},"
	"\"note\":\"printer out of paper\"}",
	"{\"t\":\"2026-03-02T11:52:00Z\",\"location\":\"ticket desk\",\"action\":{\"name\":"
	"\"CallPassenger\",\"args\":{\"passenger\":\"Nils Dahl\"},\"status\":\"failed\"},"
	"\"note\":\"no answer, mailbox full\"}",
};

#define AT 1772452800000000LL /* 2026-03-02T12:00:00Z */
static int64_t ask_at = AT; /* when questions are asked */

static h2emv_mem *ferry_memory(char **dir)
{
	return tu_mem_lines("agents", ferry, sizeof ferry / sizeof *ferry, dir);
}

static void expect(h2emv_mem *m, const char *q, const char *want, const char *not_want)
{
	h2emv_answer *a = tu_ask_at(m, ask_at, q);
	if (strncmp(a->text, want, strlen(want)) || (not_want && strstr(a->text, not_want)))
		fail_msg("'%s' answered '%s', expected it to open with '%s'%s%s", q, a->text, want,
		         not_want ? " and not to say " : "", not_want ? not_want : "");
	h2emv_answer_free(a);
}

static void expect_in(h2emv_mem *m, const char *q, const char *want)
{
	h2emv_answer *a = tu_ask_at(m, ask_at, q);
	if (!strstr(a->text, want))
		fail_msg("'%s' answered '%s', expected it to say '%s'", q, a->text, want);
	h2emv_answer_free(a);
}

static void need_wordnet(void)
{
	if (!wn_available())
		fail_msg("WordNet's data (wordnet-base) is not installed");
}

static void test_who_did_it_is_the_robot_or_a_notes_subject(void **state)
{
	h2emv_mem *m = *state;
	need_wordnet();
	/* the robot opened it; Olu only asked */
	expect(m, "who opened the car deck?", "I did (OpenRamp", "Olu");
	expect(m, "who asked you to open the car deck?", "Olu Bakare", NULL);
	/* a note that opens with a name keeps the whole name */
	expect(m, "who let the fuel truck in?", "Olu Bakare.", NULL);
	expect(m, "who left without signing out?", "Ana Pohl.", NULL);
	/* the subject of the clause that holds the verb */
	expect(m, "who dropped parcels?", "The courier.", "Ana");
	expect(m, "who signed for the parcels?", "Mia Lund.", "Ana");
	expect(m, "who reset the breaker?", "Sam Ortiz.", NULL);
}

static void test_a_verb_of_saying_asks_for_words(void **state)
{
	h2emv_mem *m = *state;
	need_wordnet();
	assert_true(wn_speech_verb("complain"));
	assert_true(wn_speech_verb("grumbled"));
	assert_false(wn_speech_verb("open"));
	assert_false(wn_speech_verb("drop"));
	expect(m, "what did Mia complain about?", "Mia Lund said: \"The heater", NULL);
}

static void test_what_you_told_someone_is_your_reply_to_them(void **state)
{
	h2emv_mem *m = *state;
	expect(m, "what did you tell Sam?", "I said: \"The last ferry leaves at 22:40.\"", NULL);
	expect(m, "what did you tell Mia?", "I said: \"I will report the heater", NULL);
	expect(m, "what did Sam ask?", "Sam Ortiz said:", NULL);
	/* Lena's words hold the question's; the robot's answer to her is
	 * what was asked (the robot: called by its name, though a courier
	 * spoke nearby without one) */
	expect_in(m, "Where did you send Lena Berg for her car ticket?",
	          "I answered: \"Car tickets are sold at window 2");
}

/* "how many litres ... in total": the numbers the notes give before the
 * unit; "how many kg": a two-letter key keeps its name ("kg 42") */
static void test_amounts_in_notes_and_short_keys_are_summed(void **state)
{
	h2emv_mem *m = *state;
	expect(m, "How many litres of diesel were delivered in total?", "1400 litres in all", NULL);
	expect(m, "How many kg of luggage did you load in total?", "79 kg in all", NULL);
}

/* why an attempt failed: the person present counts as named by it, and
 * the failed attempt with a person answers whatever verb asks for it */
static void test_why_an_attempt_with_someone_failed(void **state)
{
	h2emv_mem *m = *state;
	expect_in(m, "Why couldn't you print Lena Berg's ticket?", "printer out of paper");
	expect_in(m, "Why couldn't you get hold of Nils Dahl?", "no answer, mailbox full");
}

/* A skill-stack robot's day: more kinds of motion than a list shows, so
 * "what did you do" lists the tasks they served; "user" is nobody in
 * particular beside a person with a name. */
static void test_a_busy_day_is_its_tasks_and_user_is_nobody(void **state)
{
	(void)state;
	static const char *const motions[] = { "HomePose", "OpenHand", "CloseHand", "LookAt",
		                               "MoveArm", "MoveBase", "Grasp", "Lift",
		                               "Release", "TurnHead", "PlaceDown", "Retract" };
	char *dir;
	h2emv_mem *m = tu_mem_tmp("agents-day", &dir);
	assert_non_null(m);
	h2emv_error err = { 0 };
	char line[512];
	for (int i = 0; i < 12; i++) {
		snprintf(line, sizeof line,
		         "{\"t\":\"2026-03-03T09:%02d:00Z\",\"t_end\":\"2026-03-03T09:%02d:30Z\","
		         "\"action\":{\"name\":\"%s\",\"status\":\"succeeded\"},\"goal\":[\"%s\"],"
		         "\"location\":\"kitchen\"}",
		         i * 2, i * 2, motions[i], i < 6 ? "BringMilk" : "LoadDishwasher");
		if (h2emv_ingest(NULL, m, line, strlen(line), &err))
			fail_msg("ingest: %s", err.message);
	}
	static const char *const talk[] = {
		"{\"t\":\"2026-03-03T10:00:00Z\",\"location\":\"kitchen\",\"speech\":{\"speaker\":\"user\","
		"\"text\":\"Thanks.\"}}",
		"{\"t\":\"2026-03-03T10:01:00Z\",\"location\":\"kitchen\",\"persons\":[\"Nina Berg\"]}",
	};
	for (size_t i = 0; i < 2; i++)
		if (h2emv_ingest(NULL, m, talk[i], strlen(talk[i]), &err))
			fail_msg("ingest: %s", err.message);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	ask_at = AT + 2 * 86400000000LL;
	/* its tasks, said in words */
	expect_in(m, "What did you do on March 3?", "brought milk");
	expect_in(m, "What did you do on March 3?", "loaded dishwasher");
	expect(m, "What did you do on March 3?", "brought milk", "OpenHand");
	expect(m, "Who did you meet on March 3?", "Nina Berg", "user");
	ask_at = AT;
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_roles_and_kinds_by_first_sense(void **state)
{
	(void)state;
	need_wordnet();
	assert_true(wn_names_role("technician"));
	assert_true(wn_names_role("courier"));
	assert_false(wn_names_role("olu"));
	assert_false(wn_names_role("tom")); /* Uncle Tom: no common noun */
	assert_false(wn_names_role("john"));
	/* any sense for the category asked about, the first for a plural */
	assert_true(wn_kind_of("deck", "parcels"));
	assert_false(wn_first_kind_of("deck", "parcels"));
	assert_true(wn_first_kind_of("crate", "containers"));
	assert_true(wn_first_kind_of("tea", "drinks"));
}

static int setup(void **state)
{
	char *dir;
	*state = ferry_memory(&dir);
	free(dir);
	return 0;
}

static int teardown(void **state)
{
	h2emv_mem_close(*state);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_who_did_it_is_the_robot_or_a_notes_subject),
		cmocka_unit_test(test_a_verb_of_saying_asks_for_words),
		cmocka_unit_test(test_what_you_told_someone_is_your_reply_to_them),
		cmocka_unit_test(test_amounts_in_notes_and_short_keys_are_summed),
		cmocka_unit_test(test_why_an_attempt_with_someone_failed),
		cmocka_unit_test(test_a_busy_day_is_its_tasks_and_user_is_nobody),
		cmocka_unit_test(test_roles_and_kinds_by_first_sense),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
