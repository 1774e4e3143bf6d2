/*
 * test_untuned.c — questions about a robot nobody wrote a profile for, in
 * words of its own (a market-stall robot): numbers in its parameters are
 * amounts to sum or names to quote by their key, its notes are facts
 * whatever their first word, category words find their kinds (WordNet),
 * and when no typed fact answers, the note holding the question's words
 * is quoted as evidence (h2emv_answer.quoted).
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

static const char *const stall[] = {
	"{\"t\":\"2025-04-07T06:00:00Z\",\"t_end\":\"2025-04-07T06:09:00Z\",\"action\":{\"name\":\"LoadVan\","
	"\"args\":{\"produce\":\"carrots\",\"crates\":3},\"status\":\"succeeded\"},\"location\":\"depot\"}",
	"{\"t\":\"2025-04-07T06:10:00Z\",\"t_end\":\"2025-04-07T06:15:00Z\",\"action\":{\"name\":\"LoadVan\","
	"\"args\":{\"produce\":\"leeks\",\"crates\":2},\"status\":\"succeeded\"},\"location\":\"depot\"}",
	"{\"t\":\"2025-04-07T06:16:00Z\",\"t_end\":\"2025-04-07T06:20:00Z\",\"action\":{\"name\":\"LoadVan\","
	"\"args\":{\"produce\":\"apples\",\"crates\":4},\"status\":\"succeeded\"},\"location\":\"depot\"}",
	"{\"t\":\"2025-04-07T07:00:00Z\",\"t_end\":\"2025-04-07T07:04:00Z\",\"action\":{\"name\":\"ParkVan\","
	"\"args\":{\"van\":\"V2\",\"bay\":14},\"status\":\"succeeded\"},\"location\":\"market square\"}",
	"{\"t\":\"2025-04-07T08:00:00Z\",\"t_end\":\"2025-04-07T08:02:00Z\",\"action\":{\"name\":\"PackOrder\","
	"\"args\":{\"order\":5531},\"status\":\"succeeded\"},\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T08:30:00Z\",\"t_end\":\"2025-04-07T08:33:00Z\",\"action\":{\"name\":\"PackOrder\","
	"\"args\":{\"order\":5540},\"status\":\"succeeded\"},\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T09:00:00Z\",\"persons\":[\"Tom Reed\"],\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T09:30:00Z\",\"persons\":[\"Tom Reed\",\"Ada Kim\"],\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T09:45:00Z\",\"persons\":[\"Tom Reed\"],\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T10:25:00Z\",\"note\":\"Fuse box by the awning tripped at 10:20; Priya "
	"Nair reset it.\",\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T11:00:00Z\",\"speech\":{\"speaker\":\"Stallbot\",\"text\":\"Good morning "
	"Mrs Patel, your honey is ready.\"},\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T11:30:00Z\",\"t_end\":\"2025-04-07T11:31:00Z\",\"action\":{\"name\":"
	"\"HandOver\",\"args\":{\"item\":\"spare keys\",\"to\":\"Ada Kim\"},\"status\":\"succeeded\"},"
	"\"location\":\"room 12\",\"persons\":[\"Ada Kim\"]}",
	"{\"t\":\"2025-04-07T12:00:00Z\",\"t_end\":\"2025-04-07T12:05:00Z\",\"action\":{\"name\":\"WeighBasket\","
	"\"args\":{\"basket\":\"B1\",\"weight_kg\":2.5},\"status\":\"succeeded\"},\"location\":\"stall\"}",
	"{\"t\":\"2025-04-07T12:10:00Z\",\"t_end\":\"2025-04-07T12:15:00Z\",\"action\":{\"name\":\"WeighBasket\","
	"\"args\":{\"basket\":\"B2\",\"weight_kg\":4.25},\"status\":\"succeeded\"},\"location\":\"stall\"}",
};

#define AT 1744027200000000LL /* 2025-04-07T12:00:00Z + 1 h */

static h2emv_mem *stall_memory(char **dir)
{
	return tu_mem_lines("untuned", stall, sizeof stall / sizeof *stall, dir);
}

static h2emv_answer *ask(h2emv_mem *m, const char *q)
{
	return tu_ask_at(m, AT + 3600000000LL, q);
}

static void expect(h2emv_mem *m, const char *q, const char *want, const char *not_want)
{
	h2emv_answer *a = ask(m, q);
	if (!strstr(a->text, want) || (not_want && strstr(a->text, not_want)))
		fail_msg("'%s' answered '%s', expected '%s'%s%s", q, a->text, want,
		         not_want ? " and not " : "", not_want ? not_want : "");
	h2emv_answer_free(a);
}

static void test_amounts_in_parameters_are_summed(void **state)
{
	h2emv_mem *m = *state;
	expect(m, "How many crates did you load?", "9 in all", NULL);
	expect(m, "How much did the baskets weigh altogether?", "6.75 kg in all", NULL);
	/* an order number names an order: the orders are counted, not summed */
	expect(m, "How many orders did you pack?", "2 times", "in all");
}

static void test_a_key_the_question_names_is_the_answer(void **state)
{
	h2emv_mem *m = *state;
	expect(m, "Which bay did you park the van in?", "bay 14", NULL);
}

/* "to": "Ada Kim" names a person present: whom the keys went to, and the
 * place is where that happened, never "the Ada Kim" */
static void test_a_person_a_parameter_names_is_not_a_place(void **state)
{
	h2emv_mem *m = *state;
	expect(m, "Where did you bring the spare keys?", "room 12", "At the ada kim");
	expect(m, "Who did you give the spare keys to?", "Ada Kim", NULL);
}

static void test_people_are_counted_once_each(void **state)
{
	h2emv_mem *m = *state;
	expect(m, "How many people did you meet?", "2 people", NULL);
	expect(m, "How many customers did you meet?", "2 people", NULL);
}

static void test_a_note_is_a_fact_whatever_its_first_word(void **state)
{
	h2emv_mem *m = *state;
	h2emv_answer *a = ask(m, "When did the fuse box trip?");
	assert_non_null(strstr(a->text, "2025/04/07"));
	assert_non_null(strstr(a->text, "Fuse box by the awning tripped at 10:20"));
	assert_int_equal(a->quoted, 1);
	assert_true(a->n_evidence >= 1);
	h2emv_answer_free(a);
	expect(m, "Who reset the fuse box?", "Priya Nair", NULL);
	/* what a person said is never the robot's words about her */
	a = ask(m, "What did Mrs Patel say?");
	assert_int_equal(a->quoted, 0);
	assert_null(strstr(a->text, "honey is ready"));
	h2emv_answer_free(a);
	/* a failure's reason is only told by a record of the failure */
	a = ask(m, "Why did the honey delivery fail?");
	assert_null(strstr(a->text, "honey is ready"));
	h2emv_answer_free(a);
	/* a question nothing answers still says so */
	a = ask(m, "When did you repair the fridge?");
	assert_string_equal(a->text, "I could not find that in my memory.");
	assert_int_equal(a->quoted, 0);
	h2emv_answer_free(a);
}

static void test_a_category_word_finds_its_kinds(void **state)
{
	h2emv_mem *m = *state;
	assert_true(wn_available());
	h2emv_answer *a = ask(m, "Which vegetables did you load?");
	if (!strstr(a->text, "carrots") || !strstr(a->text, "leeks") || strstr(a->text, "apples"))
		fail_msg("which vegetables: '%s'", a->text);
	h2emv_answer_free(a);
	assert_true(wn_kind_of("carrot", "vegetable"));
	assert_true(wn_kind_of("crates", "containers"));
	assert_false(wn_kind_of("apple", "vegetable"));
	assert_false(wn_kind_of("cupboard", "cup"));
	assert_false(wn_kind_of("carrot", "thing")); /* too general to tell apart */
	assert_true(wn_same_verb("repaired", "fix"));
	assert_false(wn_same_verb("open", "close"));
	assert_true(wn_is_person("visitors"));
	assert_false(wn_is_person("crates"));
}

/* Three weeks of chores under the default forgetting: a count over all of
 * them is a lower bound, and the answer says so. */
static void test_a_count_over_forgotten_days_says_at_least(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("untuned-forgot", &dir);
	assert_non_null(m);
	const int64_t t0 = 1727078400000000LL; /* 2024-09-23 */
	h2emv_error err = { 0 };
	for (int day = 0; day < 21; day++) {
		tu_chores(m, t0, day);
		if (h2emv_build(NULL, m, NULL, &err))
			fail_msg("build: %s", err.message);
	}
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	h2emv_answer *a = NULL;
	if (h2emv_ask(&a, m, "How many times did you water the plant?", &o, &err))
		fail_msg("ask: %s", err.message);
	if (a->forgotten || strncmp(a->text, "At least ", 9) || !strstr(a->text, "forgotten"))
		fail_msg("a count over forgotten days answered '%s'", a->text);
	h2emv_answer_free(a);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static int setup(void **state)
{
	char *dir;
	*state = stall_memory(&dir);
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
		cmocka_unit_test(test_amounts_in_parameters_are_summed),
		cmocka_unit_test(test_a_key_the_question_names_is_the_answer),
		cmocka_unit_test(test_people_are_counted_once_each),
		cmocka_unit_test(test_a_person_a_parameter_names_is_not_a_place),
		cmocka_unit_test(test_a_note_is_a_fact_whatever_its_first_word),
		cmocka_unit_test(test_a_category_word_finds_its_kinds),
		cmocka_unit_test(test_a_count_over_forgotten_days_says_at_least),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
