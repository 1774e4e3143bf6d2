/*
 * test_notes.c — events a robot wrote down only in a free-form note (a
 * logbook: no action, goal or status) become action facts, and the
 * builtin question answering finds them like recorded actions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/tree/facts.h"
#include "api/tree/scene.h"
#include "h2emv.h"
#include "tests/testutil.h"

/* ---------------------------------------------------------- extraction -- */

static const fact *only_act(const facts *f)
{
	const fact *a = NULL;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].type == FT_ACT) {
			assert_null(a); /* one action per note */
			a = &f->v[i];
		}
	return a;
}

static void facts_of_note(facts *out, const char *note, const char *location,
                          const char **persons, size_t n_persons)
{
	scene s;
	memset(&s, 0, sizeof s);
	s.t = s.t_end = 1000;
	s.note = note;
	s.location = location;
	s.persons = persons;
	s.n_persons = n_persons;
	memset(out, 0, sizeof *out);
	assert_int_equal(facts_from_scene(out, &s, NULL, 0), 0);
}

static void test_note_verb_object_and_roles(void **state)
{
	(void)state;
	facts f;
	const char *who[] = { "Mr Ito" };
	facts_of_note(&f, "Carried Mr Ito's parcel to the front desk; it was heavy.", "lobby", who, 1);
	const fact *a = only_act(&f);
	assert_non_null(a);
	assert_int_equal(a->status, FST_DONE);
	assert_string_equal(a->s[FS_VERB], "transport"); /* the lexicon's lemma of "carry" */
	assert_string_equal(a->s[FS_OBJ], "Mr Ito's parcel");
	assert_string_equal(a->s[FS_DST], "front desk");
	assert_string_equal(a->s[FS_PLACE], "lobby"); /* the observation's own place */
	assert_string_equal(a->s[FS_WHO], "Mr Ito");
	assert_string_equal(a->s[FS_NAME], "Carried Mr Ito's parcel to the front desk");
	facts_free(&f);

	/* a verb the lexicon does not know, written as a past tense: its stem;
	 * "out of" is where it came from */
	facts_of_note(&f, "Repotted the fern out of the old tub at bench 3.", NULL, NULL, 0);
	a = only_act(&f);
	assert_non_null(a);
	assert_string_equal(a->s[FS_VERB], "repot");
	assert_string_equal(a->s[FS_OBJ], "fern");
	assert_string_equal(a->s[FS_SRC], "old tub");
	assert_string_equal(a->s[FS_PLACE], "bench 3");
	facts_free(&f);

	/* an unknown first word an article or a particle follows: a verb */
	facts_of_note(&f, "Cast off the ferry from pier 2.", NULL, NULL, 0);
	a = only_act(&f);
	assert_non_null(a);
	assert_string_equal(a->s[FS_VERB], "cast off");
	assert_string_equal(a->s[FS_OBJ], "ferry");
	assert_string_equal(a->s[FS_SRC], "pier 2");
	facts_free(&f);
}

static void test_note_failure_and_non_events(void **state)
{
	(void)state;
	facts f;
	facts_of_note(&f, "Could not open the archive door: the lock was jammed.", "archive", NULL, 0);
	const fact *a = only_act(&f);
	assert_non_null(a);
	assert_int_equal(a->status, FST_FAILED);
	assert_string_equal(a->s[FS_VERB], "open");
	assert_string_equal(a->s[FS_OBJ], "archive door");
	/* the whole note is kept: why it failed */
	assert_non_null(a->s[FS_STATE]);
	assert_non_null(strstr(a->s[FS_STATE], "jammed"));
	facts_free(&f);

	/* after "could not" a verb the lexicon does not know, in its plain form */
	facts_of_note(&f, "Could not reach bollard 17: the quay was blocked.", NULL, NULL, 0);
	a = only_act(&f);
	assert_non_null(a);
	assert_int_equal(a->status, FST_FAILED);
	assert_string_equal(a->s[FS_VERB], "reach");
	assert_string_equal(a->s[FS_OBJ], "bollard 17");
	facts_free(&f);

	facts_of_note(&f, "The pump broke down while I was watering row 4.", NULL, NULL, 0);
	assert_null(only_act(&f)); /* no verb phrase in front: not guessed */
	facts_free(&f);

	/* a status line, a bare noun: no action */
	const char *const none[] = { "Standby, battery 80 %.", "Radio call.", "Battery low", "" };
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		facts_of_note(&f, none[i], "dock", NULL, 0);
		assert_null(only_act(&f));
		facts_free(&f);
	}

	/* an observation with an action keeps its action; the note adds none */
	scene s;
	memset(&s, 0, sizeof s);
	s.t = s.t_end = 1000;
	s.action = "GraspCup";
	s.note = "Opened the cupboard first.";
	memset(&f, 0, sizeof f);
	assert_int_equal(facts_from_scene(&f, &s, NULL, 0), 0);
	a = only_act(&f);
	assert_non_null(a);
	assert_string_equal(a->s[FS_NAME], "GraspCup");
	facts_free(&f);
}

/* ------------------------------------------------------ end to end -- */

static const char *const logbook[] = {
	"{\"t\":\"2026-03-02T09:00:00Z\",\"t_end\":\"2026-03-02T09:20:00Z\",\"location\":\"reading room\","
	"\"note\":\"Repotted the fern by the north window.\",\"persons\":[{\"name\":\"Ms Lind\",\"id\":\"p1\"}]}",
	"{\"t\":\"2026-03-02T09:30:00Z\",\"t_end\":\"2026-03-02T09:50:00Z\",\"location\":\"reading room\","
	"\"note\":\"Standby, battery 80 %.\"}",
	"{\"t\":\"2026-03-02T11:00:00Z\",\"t_end\":\"2026-03-02T11:10:00Z\",\"location\":\"archive\","
	"\"note\":\"Could not open the archive door: the lock was jammed.\"}",
	"{\"t\":\"2026-03-02T12:00:00Z\",\"t_end\":\"2026-03-02T12:15:00Z\",\"location\":\"lobby\","
	"\"note\":\"Carried Mr Ito's parcel to the front desk.\",\"persons\":[{\"name\":\"Mr Ito\",\"id\":\"p2\"}],"
	"\"speech\":[{\"speaker\":\"Mr Ito\",\"text\":\"Careful, it is fragile.\"}]}",
	"{\"t\":\"2026-03-02T13:00:00Z\",\"t_end\":\"2026-03-02T13:30:00Z\",\"location\":\"stacks\","
	"\"note\":\"Shelved 12 atlases on shelf 4.\"}",
	"{\"t\":\"2026-03-02T14:00:00Z\",\"t_end\":\"2026-03-02T14:10:00Z\",\"location\":\"stacks\","
	"\"note\":\"Standby, battery 70 %.\"}",
};

static char *ask(h2emv_mem *m, const char *q)
{
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	h2emv_error err = { 0 };
	h2emv_answer *a = NULL;
	if (h2emv_ask(&a, m, q, &o, &err))
		fail_msg("ask '%s': %s", q, err.message);
	char *t = strdup(a->text);
	h2emv_answer_free(a);
	assert_non_null(t);
	return t;
}

static void expect(h2emv_mem *m, const char *q, const char *want)
{
	char *t = ask(m, q);
	if (!strstr(t, want))
		fail_msg("'%s' answered '%s', expected it to say '%s'", q, t, want);
	free(t);
}

static void test_logbook_questions(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("notes", &dir);
	h2emv_error err = { 0 };
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
	for (size_t i = 0; i < sizeof logbook / sizeof *logbook; i++)
		assert_int_equal(h2emv_ingest(NULL, m, logbook[i], strlen(logbook[i]), &err), H2EMV_OK);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	expect(m, "When did you repot the fern?", "09:00");
	expect(m, "Where did you carry the parcel to?", "front desk");
	expect(m, "Whose parcel did you carry?", "Ito");
	expect(m, "Where did you shelve the atlases?", "shelf 4");
	expect(m, "Did you shelve anything on shelf 5?", "No");
	expect(m, "How many atlases did you shelve?", "12 atlases");
	expect(m, "Did you ever open the archive door?", "did not succeed");
	expect(m, "Was there anything you couldn't do?", "archive door");
	char *t = ask(m, "What went wrong in the archive?");
	if (!strstr(t, "archive door") && !strstr(t, "jammed"))
		fail_msg("'What went wrong in the archive?' answered '%s'", t);
	free(t);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_note_verb_object_and_roles),
		cmocka_unit_test(test_note_failure_and_non_events),
		cmocka_unit_test(test_logbook_questions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
