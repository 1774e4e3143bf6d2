/*
 * test_recall.c — the builtin question answering over typed facts, on a
 * history in another vocabulary than the simulator's (a hospital ward
 * robot), with and without a robot profile; question reading (kinds, time
 * scopes, paraphrased verbs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/tree/facts.h"
#include "api/base/lex.h"
#include "api/recall/recall.h"
#include "h2emv.h"
#include "tests/testutil.h"

static const char *const ward[] = {
	"{\"t\":\"2026-03-02T08:00:00Z\",\"action\":{\"name\":\"DockCharger\",\"status\":\"succeeded\"},"
	"\"location\":\"charging bay\"}",
	"{\"t\":\"2026-03-02T08:30:00Z\",\"action\":{\"name\":\"FetchLinen\",\"args\":{\"item\":\"towels\","
	"\"from\":\"laundry room\"},\"status\":\"succeeded\"},\"location\":\"laundry room\"}",
	"{\"t\":\"2026-03-02T08:45:00Z\",\"action\":{\"name\":\"DeliverItem\",\"args\":{\"item\":\"towels\","
	"\"to\":\"room 12\",\"patient\":\"Mr. Novak\"},\"status\":\"succeeded\"},\"location\":\"ward B\","
	"\"persons\":[\"Mr. Novak\"],\"speech\":[{\"speaker\":\"Mr. Novak\",\"text\":\"Could you bring me "
	"some water later?\"}]}",
	"{\"t\":\"2026-03-02T09:10:00Z\",\"action\":\"DeliverMedication(aspirin, room 14)\","
	"\"location\":\"ward B\",\"persons\":[{\"name\":\"Nurse Kim\"}],\"speech\":[{\"speaker\":"
	"\"Nurse Kim\",\"text\":\"Please leave the aspirin on the bedside table.\"}]}",
	"{\"t\":\"2026-03-02T09:40:00Z\",\"action\":{\"name\":\"EscortPatient\",\"args\":{\"patient\":"
	"\"Mrs. Okafor\",\"destination\":\"radiology\"},\"status\":\"failed\"},\"location\":\"corridor\"}",
	"{\"t\":\"2026-03-03T10:00:00Z\",\"action\":{\"name\":\"ScanRoom\",\"args\":{\"room\":\"room 12\"},"
	"\"status\":\"succeeded\"},\"objects\":[{\"id\":\"wheelchair_1\",\"type\":\"wheelchair\"}],"
	"\"location\":\"room 12\"}",
	"{\"t\":\"2026-03-03T11:00:00Z\",\"action\":{\"name\":\"DeliverItem\",\"args\":{\"item\":"
	"\"water bottle\",\"to\":\"room 12\",\"patient\":\"Mr. Novak\"},\"status\":\"succeeded\"},"
	"\"location\":\"ward B\",\"persons\":[\"Mr. Novak\"]}",
	"{\"t\":\"2026-03-03T12:00:00Z\",\"action\":{\"name\":\"Tidy\",\"args\":{\"thing\":\"gloves\","
	"\"spot\":\"supply closet\"},\"status\":\"succeeded\"},\"location\":\"ward B\"}",
	"{\"t\":\"2026-03-03T13:00:00Z\",\"action\":{\"name\":\"DockCharger\",\"status\":\"succeeded\"},"
	"\"location\":\"charging bay\"}",
};

#define AT (1772614800LL * 1000000) /* 2026-03-04 09:00 UTC */

static h2emv_mem *ward_memory(char **dir, const char *profile)
{
	h2emv_mem *m = tu_mem_tmp("recall", dir);
	h2emv_error err = { 0 };
	if (profile)
		assert_int_equal(h2emv_profile_set(m, profile, strlen(profile), &err), H2EMV_OK);
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
	for (size_t i = 0; i < sizeof ward / sizeof *ward; i++)
		assert_int_equal(h2emv_ingest(NULL, m, ward[i], strlen(ward[i]), &err), H2EMV_OK);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	return m;
}

static char *answer_at(h2emv_mem *m, const char *q, int64_t at)
{
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	h2emv_error err = { 0 };
	o.at = at;
	h2emv_answer *a = NULL;
	if (h2emv_ask(&a, m, q, &o, &err))
		fail_msg("ask '%s': %s", q, err.message);
	assert_true(a->tokens.prompt + a->tokens.completion <= 20000);
	char *t = strdup(a->text);
	h2emv_answer_free(a);
	return t;
}

static char *answer(h2emv_mem *m, const char *q)
{
	return answer_at(m, q, AT);
}

static void expect(h2emv_mem *m, const char *q, const char *want)
{
	char *t = answer(m, q);
	if (!strstr(t, want))
		fail_msg("'%s' answered '%s', expected it to say '%s'", q, t, want);
	free(t);
}

static void test_paraphrased_questions_on_an_unknown_robot(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = ward_memory(&dir, NULL);
	expect(m, "Where did you bring the towels?", "room 12");
	expect(m, "Where did you drop off the aspirin?", "room 14");
	expect(m, "Which item did you fetch from the laundry room?", "towels");
	expect(m, "What did Nurse Kim say?", "bedside table");
	expect(m, "Who asked you for water?", "Mr. Novak");
	expect(m, "When did you last go to the charger?", "2026/03/03, 13:00:00");
	expect(m, "When did you first dock?", "2026/03/02, 08:00:00");
	expect(m, "How many times did you deliver something to room 12?", "2 times");
	expect(m, "Did you manage to escort Mrs. Okafor?", "No");
	expect(m, "What failed on Monday?", "Okafor");
	expect(m, "What did you see in room 12?", "wheelchair");
	expect(m, "Who did you meet yesterday?", "Mr. Novak");
	expect(m, "On which day did you give water to Mr. Novak?", "2026/03/03");
	expect(m, "What did you do on March 3?", "water bottle");
	expect(m, "Where did you put the giraffe?", "could not find");
	/* a title is no name; a person named must be the action's */
	expect(m, "Where did you take the towels for Mr. Novak?", "room 12");
	expect(m, "Where did you take the towels for Mrs. Jansen?", "could not find");
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_the_token_budget_holds(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = ward_memory(&dir, NULL);
	h2emv_error err = { 0 };
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.qa_max_tokens = 60;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
	static const char *const qs[] = { "What did you do on March 2?", "Who did you meet?",
		                              "How many times did you deliver something?" };
	for (size_t i = 0; i < 3; i++) {
		h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
		o.at = AT;
		h2emv_answer *a = NULL;
		assert_int_equal(h2emv_ask(&a, m, qs[i], &o, &err), H2EMV_OK);
		assert_true(a->tokens.prompt + a->tokens.completion <= 60);
		assert_true(a->tokens.prompt > 0);
		h2emv_answer_free(a);
	}
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_a_profile_names_the_roles_of_a_robots_parameters(void **state)
{
	(void)state;
	/* without a profile "spot" means nothing; with it, the place */
	static const char prof[] =
		"{\"profile\":1,\"name\":\"ward\",\"segmentation\":\"action-list\","
		"\"skills\":{\"Tidy\":{\"verb\":\"stow\",\"roles\":{\"spot\":\"destination\"}}}}";
	char *dir;
	h2emv_mem *m = ward_memory(&dir, prof);
	expect(m, "Where did you stow the gloves?", "supply closet");
	char *text = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_profile_get(&text, m, &err), H2EMV_OK);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"ward\""));
	h2emv_free(text);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_a_bad_profile_names_the_field(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("recall", &dir);
	static const char bad[] = "{\"profile\":1,\"skills\":{\"Go\":{\"roles\":{\"to\":\"nowhere\"}}}}";
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_profile_set(m, bad, strlen(bad), &err), H2EMV_EPARSE);
	assert_non_null(strstr(err.message, "skills.Go.roles.to"));
	assert_non_null(h2emv_profile_builtin("armar7"));
	assert_non_null(h2emv_profile_builtin("teach"));
	assert_null(h2emv_profile_builtin("nope"));
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_question_kinds_and_scopes(void **state)
{
	(void)state;
	int64_t now = 1783321200LL * 1000000; /* 2026-07-06 07:00 UTC, a Monday */
	rquestion q;
	rq_parse(&q, "How often did you drive to the kitchen?", now);
	assert_int_equal(q.kind, RQ_COUNT);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "go");
	rq_parse(&q, "When did you first grab the milk?", now);
	assert_int_equal(q.kind, RQ_WHEN);
	assert_int_equal(q.order, RO_FIRST);
	assert_string_equal(q.term[q.verb].lemma, "grasp");
	rq_parse(&q, "Who did you meet on Thursday?", now);
	assert_int_equal(q.kind, RQ_WHO);
	assert_int_equal(q.t1 - q.t0, 86400LL * 1000000);
	assert_int_equal(q.t0, now - 7 * 3600LL * 1000000 - 4 * 86400LL * 1000000);
	rq_parse(&q, "What did Anna say yesterday?", now);
	assert_int_equal(q.kind, RQ_SAID);
	assert_true(q.person >= 0);
	assert_string_equal(q.term[q.person].word, "anna");
	rq_parse(&q, "On which days did you see the soy milk?", now);
	assert_int_equal(q.kind, RQ_DAY);
	assert_true(q.plural);
	rq_parse(&q, "Where did you stow the keys on July 4th?", now);
	assert_int_equal(q.kind, RQ_WHERE);
	assert_int_equal(q.t1 - q.t0, 86400LL * 1000000);
	rq_parse(&q, "What did you do two days ago in the morning?", now);
	assert_int_equal(q.kind, RQ_DO);
	assert_int_equal(q.t1 - q.t0, 7 * 3600LL * 1000000);
	rq_parse(&q, "Did you manage to load the dishwasher?", now);
	assert_int_equal(q.kind, RQ_YESNO);
	assert_int_equal(q.status, RS_DONE);
}

/* A farm robot nobody wrote a profile for: its own skill names (unknown
 * verbs among them), codes as names, a number as a place, a parameter with
 * no role. Asked in words unlike the benchmark's. */
static const char *const farm[] = {
	"{\"t\":\"2026-03-02T07:30:00Z\",\"action\":{\"name\":\"SwapBattery\",\"args\":{\"pad\":"
	"\"pad B\"},\"status\":\"succeeded\"},\"location\":\"base\"}",
	"{\"t\":\"2026-03-02T08:00:00Z\",\"action\":{\"name\":\"CarryCrate\",\"args\":{\"crate\":"
	"\"crate_88\",\"from_zone\":\"barn\",\"to_zone\":\"shed 2\"},\"status\":\"succeeded\"},"
	"\"location\":\"shed 2\"}",
	"{\"t\":\"2026-03-02T08:30:00Z\",\"action\":{\"name\":\"CarryCrate\",\"args\":{\"crate\":"
	"\"crate_3\",\"from_zone\":\"orchard\",\"to_zone\":\"shed 4\"},\"status\":\"succeeded\"},"
	"\"location\":\"shed 4\"}",
	"{\"t\":\"2026-03-02T09:00:00Z\",\"action\":{\"name\":\"TagSample\",\"args\":{\"sample\":"
	"\"S-204\",\"batch\":\"batch 7\"},\"status\":\"succeeded\"},\"location\":\"lab\"}",
	"{\"t\":\"2026-03-02T09:30:00Z\",\"action\":{\"name\":\"AutoclaveTray\",\"args\":{\"tray\":"
	"\"T-9\"},\"status\":\"failed\"},\"location\":\"lab\"}",
	"{\"t\":\"2026-03-02T10:00:00Z\",\"action\":{\"name\":\"AutoclaveTray\",\"args\":{\"tray\":"
	"\"T-9\"},\"status\":\"succeeded\"},\"location\":\"lab\"}",
	"{\"t\":\"2026-03-02T10:30:00Z\",\"action\":{\"name\":\"ShelveBox\",\"args\":{\"box\":"
	"\"seed box\",\"shelf\":\"shelf C7\"},\"status\":\"succeeded\"},\"location\":\"store\"}",
	"{\"t\":\"2026-03-02T11:00:00Z\",\"action\":{\"name\":\"LeaveParcel\",\"args\":{\"parcel\":"
	"\"parcel for Ana\",\"floor\":3},\"status\":\"succeeded\"},\"location\":\"farmhouse\"}",
	"{\"t\":\"2026-03-03T05:00:00Z\",\"action\":{\"name\":\"IrrigateRows\",\"args\":{\"field\":"
	"\"north field\"},\"status\":\"running\"},\"location\":\"north field\"}",
	"{\"t\":\"2026-03-03T05:10:00Z\",\"action\":{\"name\":\"IrrigateRows\",\"args\":{\"field\":"
	"\"north field\"},\"status\":\"running\"},\"location\":\"north field\"}",
	"{\"t\":\"2026-03-03T05:25:00Z\",\"action\":{\"name\":\"IrrigateRows\",\"args\":{\"field\":"
	"\"north field\"},\"status\":\"succeeded\"},\"location\":\"north field\"}",
	/* a planner's log: the short form, the outcome on the goal stack, local
	 * time with its offset */
	"{\"t\":\"2026-03-03T08:00:00+01:00\",\"action\":\"TakePhoto(east greenhouse)\","
	"\"goal\":[\"Survey\",\"TakePhoto\"],\"goal_status\":\"failed\"}",
	"{\"t\":\"2026-03-03T08:20:00+01:00\",\"action\":\"TakePhoto(east greenhouse)\","
	"\"goal\":[\"Survey\",\"TakePhoto\"],\"goal_status\":\"succeeded\"}",
	"{\"t\":\"2026-03-03T09:00:00Z\",\"location\":\"farmyard\",\"speech\":[{\"speaker\":"
	"\"Joost\",\"text\":\"The greenhouse roof leaks again.\"}]}",
	"{\"t\":\"2026-03-03T09:00:30Z\",\"location\":\"farmyard\",\"speech\":[{\"speaker\":"
	"\"drone\",\"text\":\"I will look at the roof tomorrow.\"}]}",
	"{\"t\":\"2026-03-03T10:00:00Z\",\"location\":\"shed 2\"}",
	"{\"t\":\"2026-03-03T10:50:00Z\",\"location\":\"orchard\"}",
	"{\"t\":\"2026-03-03T12:00:00Z\",\"location\":\"base\"}",
};

static void test_another_robots_words_without_a_profile(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("recall", &dir);
	h2emv_error err = { 0 };
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
	for (size_t i = 0; i < sizeof farm / sizeof *farm; i++)
		assert_int_equal(h2emv_ingest(NULL, m, farm[i], strlen(farm[i]), &err), H2EMV_OK);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	/* "to which zone" asks a place; "crate 88" is crate_88; "go" is where
	 * a carried thing went */
	expect(m, "To which zone did crate 88 go?", "shed 2");
	/* "come from" asks the source */
	expect(m, "Where did crate 3 come from?", "orchard");
	/* a verb the lexicon does not know, right after "did you", is the verb */
	expect(m, "How many trays did you autoclave?", "1 tray: tray T-9");
	/* change = swap, and a verb that means only itself must match */
	expect(m, "Did you change the battery on Monday?", "Yes");
	expect(m, "Did you change the battery on Tuesday?", "No");
	/* "which crate": the whole name, not "the crate" */
	expect(m, "Which crate did you move to shed 4?", "crate 3");
	expect(m, "Which crate did you take to shed 2?", "crate 88");
	/* a parameter with no role is still a word of the action; a code is
	 * named by its key */
	expect(m, "Which sample went into batch 7?", "sample S-204");
	/* names with digits shown as written */
	expect(m, "Where did you shelve the seed box?", "shelf C7");
	/* a number is a place through its key */
	expect(m, "On which floor did you leave the parcel for Ana?", "floor 3");
	/* the place at a moment, not the newest of the hour around it */
	expect(m, "Where were you at about 10:05 on Tuesday?", "shed 2");
	/* the first run failed: no, whatever came after */
	expect(m, "Did the first autoclave run of tray T-9 succeed?", "No");
	/* "take pictures" is photographing; the failed first try is no answer */
	expect(m, "When did you first take pictures of the east greenhouse?", "2026/03/03, 07:20:00");
	expect(m, "Were you able to photograph the greenhouse on Tuesday?", "Yes");
	/* checking on a place is scanning (photographing) it */
	expect(m, "When did you last check on the east greenhouse?", "2026/03/03, 07:20:00");
	expect(m, "How many photos failed on Tuesday?", "1 time");
	/* a role no speaker is called by: anyone but the robot */
	expect(m, "What did the farmer say on Tuesday?", "roof leaks");
	expect(m, "What did the vet say?", "could not find");
	/* a robot that calls itself "drone" in its log, without a profile */
	expect(m, "What did you say to Joost?", "look at the roof");
	char *who = answer(m, "Who did you talk to on Tuesday?");
	if (!strstr(who, "Joost") || strstr(who, "drone"))
		fail_msg("'Who did you talk to on Tuesday?' answered '%s'", who);
	free(who);
	/* a run's length from its running observations to its end */
	expect(m, "How long did the irrigation of the north field take?", "About 25 minutes");
	/* one run, though it reported "running" twice, far apart */
	expect(m, "How many times did you irrigate the north field?", "1 time");
	/* crate 87 is not crate 88 */
	expect(m, "Did you carry crate 87?", "No");
	expect(m, "Did you carry crate 88?", "Yes");
	/* "which crates": every one, not the newest alone */
	char *all = answer(m, "What crates did you carry on Monday?");
	if (!strstr(all, "crate 88") || !strstr(all, "crate 3"))
		fail_msg("'What crates did you carry on Monday?' answered '%s'", all);
	free(all);
	expect(m, "Where did you put the tractor?", "could not find");
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_other_phrasings_are_read(void **state)
{
	(void)state;
	int64_t now = 1783321200LL * 1000000; /* 2026-07-06 07:00 UTC, a Monday */
	rquestion q;
	rq_parse(&q, "At which dock did the truck arrive?", now);
	assert_int_equal(q.kind, RQ_WHERE);
	rq_parse(&q, "From which shelf did you take the box?", now);
	assert_int_equal(q.kind, RQ_FROM);
	rq_parse(&q, "Where did the parcel come from?", now);
	assert_int_equal(q.kind, RQ_FROM);
	rq_parse(&q, "What didn't work out yesterday?", now);
	assert_int_equal(q.kind, RQ_FAILED);
	for (size_t i = 0; i < q.n_term; i++)
		assert_string_not_equal(q.term[i].word, "didn");
	rq_parse(&q, "Which jobs failed on Friday?", now);
	assert_int_equal(q.kind, RQ_FAILED);
	rq_parse(&q, "How many pipetting steps did you do?", now);
	assert_int_equal(q.kind, RQ_COUNT);
	rq_parse(&q, "Where were you at about 2:30 pm?", now);
	assert_int_equal(q.kind, RQ_WHERE);
	assert_true(q.t_point > q.t0 && q.t_point < q.t1);
	rq_parse(&q, "How many plates did you autoclave?", now);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].word, "autoclave");
	assert_int_equal(q.term[q.verb].cls, LC_OTHER);
	/* "place" is a noun we skip, but a verb after "you" */
	rq_parse(&q, "What did you place on the pallet?", now);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "put");
	/* "dock" is a verb, but not after "which" */
	rq_parse(&q, "Which dock did the truck arrive at?", now);
	assert_int_equal(q.kind, RQ_WHERE);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "go");
	rq_parse(&q, "What were your instructions this morning?", now);
	assert_int_equal(q.kind, RQ_SAID);
	rq_parse(&q, "What did people ask you to do?", now);
	assert_int_equal(q.kind, RQ_SAID);
	assert_true(q.others_speak);
}

/* A museum guide's log: one line per finished action with its end
 * (t_end), snake_case skills, a failure with the robot's note, a greeting
 * that names the person. */
static const char *const museum[] = {
	"{\"t\":\"2026-03-02T09:00:00Z\",\"t_end\":\"2026-03-02T09:20:00Z\",\"action\":{\"name\":"
	"\"guide_tour\",\"args\":{\"group\":\"school class 4b\",\"exhibit\":\"dinosaur hall\"},"
	"\"status\":\"succeeded\"},\"location\":\"entrance\"}",
	"{\"t\":\"2026-03-02T10:00:00Z\",\"t_end\":\"2026-03-02T10:05:00Z\",\"action\":{\"name\":"
	"\"dust\",\"args\":{\"showcase\":\"bronze age\"},\"status\":\"failed\"},\"location\":"
	"\"hall 2\",\"note\":\"the ladder was missing\"}",
	"{\"t\":\"2026-03-02T11:00:00Z\",\"location\":\"lobby\",\"speech\":[{\"speaker\":\"robot\","
	"\"text\":\"Good morning Professor Lindqvist, welcome to the museum!\"}]}",
	"{\"t\":\"2026-03-02T12:00:00Z\",\"t_end\":\"2026-03-02T12:01:00Z\",\"action\":{\"name\":"
	"\"LearnVisitor\",\"args\":{\"name\":\"Ingrid Berg\"},\"status\":\"succeeded\"},"
	"\"location\":\"lobby\"}",
	"{\"t\":\"2026-03-02T13:00:00Z\",\"t_end\":\"2026-03-02T13:04:00Z\",\"action\":{\"name\":"
	"\"fetch\",\"args\":{\"thing\":\"cleaning cloth\",\"from_spot\":\"front desk\","
	"\"to_spot\":\"hall 3\"},\"status\":\"succeeded\"},\"location\":\"hall 3\"}",
	"{\"t\":\"2026-03-02T14:00:00Z\",\"t_end\":\"2026-03-02T14:02:00Z\",\"action\":{\"name\":"
	"\"water\",\"args\":{\"plant\":\"fern\"},\"status\":\"succeeded\"},\"location\":\"cafe\"}",
	"{\"t\":\"2026-03-02T14:10:00Z\",\"t_end\":\"2026-03-02T14:12:00Z\",\"action\":{\"name\":"
	"\"water\",\"args\":{\"plant\":\"palm\"},\"status\":\"succeeded\"},\"location\":\"cafe\"}",
	"{\"t\":\"2026-03-02T15:00:00Z\",\"location\":\"hall 4\",\"persons\":[\"Sam Okoro\"],"
	"\"speech\":[{\"speaker\":\"Sam Okoro\","
	"\"text\":\"Hi, I am the night guard. The east door is open.\"}]}",
	"{\"t\":\"2026-03-02T16:00:00Z\",\"t_end\":\"2026-03-02T16:01:00Z\",\"action\":{\"name\":"
	"\"scan_room\",\"args\":{\"room\":\"hall 5\"},\"status\":\"succeeded\"},\"location\":"
	"\"hall 5\",\"objects\":[{\"id\":\"statue_1\",\"type\":\"statue\"}]}",
	"{\"t\":\"2026-03-02T16:30:00Z\",\"t_end\":\"2026-03-02T16:31:00Z\",\"action\":{\"name\":"
	"\"scan_room\",\"args\":{\"room\":\"hall 6\"},\"status\":\"succeeded\"},\"location\":"
	"\"hall 6\"}",
	/* the robot speaks as "Guido", a name no profile gives it; it lists the
	 * people it sees, never itself */
	"{\"t\":\"2026-03-02T17:00:00Z\",\"location\":\"hall 7\",\"persons\":[\"Ada Lovel\"],"
	"\"speech\":[{\"speaker\":\"Ada Lovel\",\"text\":\"Where is the mummy?\"}]}",
	"{\"t\":\"2026-03-02T17:00:10Z\",\"location\":\"hall 7\",\"persons\":[\"Ada Lovel\"],"
	"\"speech\":[{\"speaker\":\"Guido\",\"text\":\"Welcome Ada, the mummy is in the basement.\"}]}",
"{\"t\":\"2026-03-02T17:40:00Z\",\"t_end\":\"2026-03-02T17:42:00Z\",\"action\":{\"name\":"
	"\"fetch\",\"args\":{\"thing\":\"television remote\",\"from_spot\":\"gift shop\","
	"\"to_spot\":\"hall 1\"},\"status\":\"succeeded\"},\"location\":\"hall 1\"}",
};

static void test_a_guides_diary_in_plain_words(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("recall", &dir);
	h2emv_error err = { 0 };
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
	for (size_t i = 0; i < sizeof museum / sizeof *museum; i++)
		assert_int_equal(h2emv_ingest(NULL, m, museum[i], strlen(museum[i]), &err), H2EMV_OK);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	/* the robot's note says why a run failed */
	expect(m, "What went wrong when you dusted?", "ladder");
	/* the key names the value: the showcase is "bronze age" */
	expect(m, "How many times did you dust the showcase?", "1 time");
	/* a greeting names who was greeted */
	expect(m, "Who did you greet on Monday?", "Lindqvist");
	expect(m, "Who did you say hello to?", "Lindqvist");
	/* "face" is not in the records: a word before the verb may go */
	expect(m, "Whose face did you learn?", "Ingrid Berg");
	expect(m, "What's the name of the visitor you learned?", "Ingrid Berg");
	/* "where'd", "get" and "the cleaning cloth" (a thing, not cleaning) */
	expect(m, "Where'd you get the cleaning cloth from?", "front desk");
	/* ...but a thing after the verb may not: no giraffe, no answer */
	expect(m, "Where did you get the giraffe from?", "could not find");
	expect(m, "Whose giraffe did you learn?", "Ingrid Berg");
	/* trouble, and why a run ended early, are failures */
	expect(m, "Was there any trouble on Monday?", "ladder");
	expect(m, "Why couldn't you dust the showcase?", "ladder");
	/* greeting someone by name is greeting them */
	expect(m, "What time did you greet the professor?", "2026/03/02, 11:00");
	/* a bare verb's parameter is what it was done to; the key names it */
	char *pl = answer(m, "Which plants did you water?");
	if (!strstr(pl, "fern") || !strstr(pl, "palm"))
		fail_msg("'Which plants did you water?' answered '%s'", pl);
	free(pl);
	expect(m, "How many times did you water the plants?", "2 times");
	/* a role nobody is called by, said by the one who has it */
	expect(m, "What did the guard say?", "east door");
	/* the robot's own words, though nobody said it is Guido */
	expect(m, "What did you tell Ada about the mummy?", "I said: \"Welcome Ada, the mummy");
	/* people once each, by their fullest name, never the robot */
	char *who = answer(m, "Who did you talk to in hall 7?");
	if (!strstr(who, "Ada Lovel") || strstr(who, "Guido") || strstr(who, "Ada,") ||
	    strstr(who, "Ada."))
		fail_msg("'Who did you talk to in hall 7?' answered '%s'", who);
	free(who);
	/* "after the ...": what came next, within hours */
	expect(m, "What did you do right after you watered the fern?", "palm");
	char *bf = answer(m, "What did you do just before the guard spoke?");
	if (strstr(bf, "guide_tour") || !strstr(bf, "water"))
		fail_msg("'What did you do just before the guard spoke?' answered '%s'", bf);
	free(bf);
	/* dropping something is no delivery */
	expect(m, "Have you ever dropped anything?", "No");
	/* "the tv" is the television the robot fetched */
	expect(m, "Where did you get the tv remote from?", "gift shop");
	/* the last scan saw nothing: what the one before it saw */
	expect(m, "What did you see when you scanned a room on Monday?", "statue");
	/* "on Monday", asked a week later when last Monday holds nothing: the
	 * Monday before */
	char *t = answer_at(m, "Who did you greet on Monday?", AT + 7 * 86400LL * 1000000);
	if (!strstr(t, "Lindqvist"))
		fail_msg("'Who did you greet on Monday?' a week later answered '%s'", t);
	free(t);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static const char *const hotel[] = {
	"{\"t\":\"2026-05-04T08:00:00Z\",\"location\":\"lobby\",\"persons\":[\"Omar Haddad\"],"
	"\"speech\":{\"speaker\":\"Omar Haddad\",\"text\":\"Good morning! Until when is breakfast "
	"served?\"}}",
	"{\"t\":\"2026-05-04T08:00:20Z\",\"location\":\"lobby\",\"persons\":[\"Omar Haddad\"],"
	"\"speech\":{\"speaker\":\"Bellbot\",\"text\":\"We serve it until half past ten.\"}}",
	"{\"t\":\"2026-05-04T09:30:00Z\",\"t_end\":\"2026-05-04T09:40:00Z\",\"action\":{\"name\":"
	"\"carry_luggage\",\"args\":{\"bag\":\"suitcase\",\"to_spot\":\"room 305\"},\"status\":"
	"\"succeeded\"},\"location\":\"room 305\",\"persons\":[\"Omar Haddad\"]}",
	"{\"t\":\"2026-05-04T09:41:00Z\",\"location\":\"room 305\",\"persons\":[\"Omar Haddad\"],"
	"\"speech\":{\"speaker\":\"Bellbot\",\"text\":\"Enjoy your stay, Mr. Haddad.\"}}",
	/* two things the action was done to; a drink made the same day */
	"{\"t\":\"2026-05-04T07:00:00Z\",\"t_end\":\"2026-05-04T07:05:00Z\",\"action\":{\"name\":"
	"\"make_tea\",\"args\":{\"drink\":\"green tea\"},\"status\":\"succeeded\"},"
	"\"location\":\"kitchen\"}",
	"{\"t\":\"2026-05-04T07:30:00Z\",\"t_end\":\"2026-05-04T07:40:00Z\",\"action\":{\"name\":"
	"\"room_service\",\"args\":{\"dish\":\"pancakes\",\"meal\":\"breakfast\"},\"status\":"
	"\"succeeded\"},\"location\":\"room 305\"}",
	/* a request, then steps that fail under no task of that name */
	"{\"t\":\"2026-05-04T11:00:00Z\",\"location\":\"corridor\",\"persons\":[\"Mia Sorensen\"],"
	"\"speech\":{\"speaker\":\"Mia Sorensen\",\"text\":\"Please iron my shirt.\"}}",
	"{\"t\":\"2026-05-04T11:05:00Z\",\"t_end\":\"2026-05-04T11:06:00Z\",\"action\":{\"name\":"
	"\"OpenCabinet\",\"status\":\"failed\"},\"location\":\"laundry\"}",
	"{\"t\":\"2026-05-04T11:10:00Z\",\"t_end\":\"2026-05-04T11:11:00Z\",\"action\":{\"name\":"
	"\"SwitchOn\",\"status\":\"failed\"},\"location\":\"laundry\"}",
};

static void test_replies_and_requests_name_a_moment(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("recall", &dir);
	h2emv_error err = { 0 };
	for (size_t i = 0; i < sizeof hotel / sizeof *hotel; i++)
		assert_int_equal(h2emv_ingest(NULL, m, hotel[i], strlen(hotel[i]), &err), H2EMV_OK);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	int64_t at = 1777971600LL * 1000000; /* 2026-05-05 09:00 UTC */
	/* the clause after "when" names the question; the reply followed it,
	 * not the robot's later words to the same guest */
	const char *qs[] = { "What did you tell Omar when he asked about breakfast?",
		                 "what did you answer after Mr Haddad asked about breakfast?" };
	char *w;
	for (size_t i = 0; i < 2; i++) {
		char *t = answer_at(m, qs[i], at);
		if (!strstr(t, "half past ten") || strstr(t, "Enjoy"))
			fail_msg("'%s' answered '%s'", qs[i], t);
		free(t);
	}
	/* "make" names a meal served by a skill of another verb; the meal, a
	 * second thing the action was done to, is kept among its words */
	w = answer_at(m, "What did you make for breakfast on Monday?", at);
	if (!strstr(w, "pancakes"))
		fail_msg("'What did you make for breakfast on Monday?' answered '%s'", w);
	free(w);
	/* a task known only from the request for it: what failed after it */
	w = answer_at(m, "What went wrong while you were ironing the shirt on Monday?", at);
	if (!strstr(w, "OpenCabinet") || !strstr(w, "SwitchOn"))
		fail_msg("'What went wrong while you were ironing the shirt' answered '%s'", w);
	free(w);
	w = answer_at(m, "What went wrong while you were painting the fence?", at);
	if (!strstr(w, "could not find"))
		fail_msg("'What went wrong while you were painting the fence?' answered '%s'", w);
	free(w);
	rquestion q;
	rq_parse(&q, "What did you tell Omar when he asked about breakfast?", at);
	assert_int_equal(q.kind, RQ_SAID);
	assert_true(q.anchor >= 0);
	/* "when did you tell him": no clause, a when-question */
	rq_parse(&q, "When did you tell Omar about breakfast?", at);
	assert_int_equal(q.anchor, -1);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_contractions_dates_and_greetings_are_read(void **state)
{
	(void)state;
	int64_t now = 1783321200LL * 1000000; /* 2026-07-06 07:00 UTC, a Monday */
	rquestion q;
	rq_parse(&q, "Where was the first place you drove to on the 26th of June?", now);
	assert_int_equal(q.kind, RQ_WHERE);
	assert_int_equal(q.t1 - q.t0, 86400LL * 1000000);
	for (size_t i = 0; i < q.n_term; i++)
		assert_string_not_equal(q.term[i].word, "26");
	rq_parse(&q, "Where'd you get the reading glasses from?", now);
	assert_int_equal(q.kind, RQ_FROM);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "fetch");
	for (size_t i = 0; i < q.n_term; i++) {
		assert_string_not_equal(q.term[i].word, "d");
		if (!strcmp(q.term[i].word, "reading"))
			assert_null(q.term[i].lemma);
	}
	rq_parse(&q, "When did you get home?", now);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "go");
	rq_parse(&q, "What's the name of the person you met?", now);
	assert_int_equal(q.kind, RQ_WHO);
	/* greeting is meeting: the verb is the kind, no word to look for */
	rq_parse(&q, "Who did you say hello to?", now);
	assert_int_equal(q.kind, RQ_WHO);
	assert_int_equal(q.n_term, 0);
	rq_parse(&q, "How many times did you wave hello?", now);
	assert_int_equal(q.kind, RQ_COUNT);
	for (size_t i = 0; i < q.n_term; i++)
		assert_string_not_equal(q.term[i].word, "hello");
	/* "were you cleaning": the doing; "pipetting steps": counted doings */
	rq_parse(&q, "When were you cleaning the kitchen?", now);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "clean");
	rq_parse(&q, "How many pipetting steps did you do?", now);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "pipette");
	rq_parse(&q, "What did you cook the day before yesterday?", now);
	assert_int_equal(q.t0, now - 7 * 3600LL * 1000000 - 2 * 86400LL * 1000000);
	assert_int_equal(q.t1 - q.t0, 86400LL * 1000000);
	rq_parse(&q, "On what day did the walk get cut short?", now);
	assert_int_equal(q.kind, RQ_DAY);
	assert_int_equal(q.status, RS_FAILED);
	for (size_t i = 0; i < q.n_term; i++)
		assert_string_not_equal(q.term[i].word, "short");
	rq_parse(&q, "Why did the tour stop early?", now);
	assert_int_equal(q.kind, RQ_FAILED);
	rq_parse(&q, "Where did you find the remote?", now);
	assert_int_equal(q.kind, RQ_FROM);
	rq_parse(&q, "What did you do after the photo?", now);
	assert_int_equal(q.anchor, 0);
	assert_true(q.anchor_after);
	rq_parse(&q, "What did you do after 3 pm?", now);
	assert_int_equal(q.anchor, -1);
	/* "who came over": people met */
	rq_parse(&q, "Who came over today?", now);
	assert_int_equal(q.kind, RQ_WHO);
	assert_int_equal(q.verb, -1);
	/* texting spellings */
	rq_parse(&q, "when did u last grab ur keys", now);
	assert_int_equal(q.kind, RQ_WHEN);
	assert_true(q.verb >= 0);
	assert_string_equal(q.term[q.verb].lemma, "grasp");
	for (size_t i = 0; i < q.n_term; i++)
		assert_string_not_equal(q.term[i].word, "u");
	/* other words for one thing */
	rq_parse(&q, "How many times did you remind Rosa to take her medicine?", now);
	for (size_t i = 0; i < q.n_term; i++)
		if (!strcmp(q.term[i].word, "medicine"))
			assert_int_equal(q.term[i].same, lex_same_group("pill"));
	assert_int_equal(lex_same_group("pill"), lex_same_group("tablet"));
	assert_int_equal(lex_same_group("giraff"), -1);
	/* an owner is not who the action was for: a word that counts when a
	 * fact names it, never one it must */
	rq_parse(&q, "Where are Rosa's reading glasses?", now);
	assert_int_equal(q.person, -1);
	int owner = 0;
	for (size_t i = 0; i < q.n_term; i++)
		if (!strcmp(q.term[i].word, "rosa"))
			owner = q.term[i].owner;
	assert_true(owner);
	rq_parse(&q, "What did you see on Thursday?", now);
	assert_true(q.weekday);
	rq_parse(&q, "What did you see last Thursday?", now);
	assert_false(q.weekday);
}

static void test_a_rule_of_two_parts_keeps_what_either_names(void **state)
{
	(void)state;
	facts f = { 0 };
	f.v = calloc(1, sizeof *f.v);
	assert_non_null(f.v);
	f.n = f.cap = 1;
	fact *v = &f.v[0];
	v->type = FT_ACT;
	v->cls = LC_TAKE;
	v->status = FST_DONE;
	v->s[FS_NAME] = strdup("GraspObject");
	v->s[FS_VERB] = strdup("grasp");
	v->s[FS_OBJ] = strdup("milk");
	/* read as one, "which objects you grasped" hides behind "where you
	 * brought things" */
	assert_true(recall_rule_keeps("Always remember where you brought things, where you "
	                              "fetched them from and which objects you grasped.", &f));
	assert_false(recall_rule_keeps("Always remember who you met and what people said.", &f));
	facts_free(&f);
	/* "what you said" alone keeps every utterance of the robot's */
	f.v = calloc(1, sizeof *f.v);
	assert_non_null(f.v);
	f.n = f.cap = 1;
	v = &f.v[0];
	v->type = FT_ACT;
	v->cls = LC_SAY;
	v->status = FST_DONE;
	v->s[FS_NAME] = strdup("Say");
	v->s[FS_VERB] = strdup("say");
	v->s[FS_TEXT] = strdup("I do not know this object.");
	assert_true(recall_rule_keeps("You should always remember what you said to people and "
	                              "who you met.", &f));
	assert_false(recall_rule_keeps("Always remember where you put the keys.", &f));
	facts_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paraphrased_questions_on_an_unknown_robot),
		cmocka_unit_test(test_the_token_budget_holds),
		cmocka_unit_test(test_a_profile_names_the_roles_of_a_robots_parameters),
		cmocka_unit_test(test_a_bad_profile_names_the_field),
		cmocka_unit_test(test_question_kinds_and_scopes),
		cmocka_unit_test(test_another_robots_words_without_a_profile),
		cmocka_unit_test(test_other_phrasings_are_read),
		cmocka_unit_test(test_a_guides_diary_in_plain_words),
		cmocka_unit_test(test_contractions_dates_and_greetings_are_read),
		cmocka_unit_test(test_replies_and_requests_name_a_moment),
		cmocka_unit_test(test_a_rule_of_two_parts_keeps_what_either_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
