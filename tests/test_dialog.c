/*
 * test_dialog.c — the dialog manager (h2emv_say) and the builtin router:
 * questions go to question answering, feedback to rule learning (a new
 * rules version, and a reply naming the new rule), greetings and the rest
 * are answered directly; small talk ("Hello robot, how are you?") gets a
 * reply, never an answer about the past, and a greeting in front of a
 * question is cut off; a question before anything is built is answered
 * politely; every route reports its tokens.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/mem/mem.h"
#include "api/policy/builtin/builtin.h"
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

#define T0 1727085835000000ll /* 2024-09-23 10:03:55 UTC */

typedef struct fx {
	char *dir;
	h2emv_mem *mem;
} fx;

static int fx_setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!(f->mem = tu_mem_tmp("dialog", &f->dir)))
		return -1;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	fx *f = *state;
	h2emv_mem_close(f->mem);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* One goal, built from observations: the knife put on the countertop,
 * Alice there. */
static void commit_tree(fx *f)
{
	tu_ingestf(f->mem,
	           "{\"t\":%lld,\"goal\":\"MakeBreakfast\",\"action\":{\"name\":\"Pickup\","
	           "\"args\":{\"object\":\"knife_0\"},\"status\":\"succeeded\"},\"location\":"
	           "\"kitchen\",\"persons\":[\"Alice\"]}",
	           T0);
	tu_ingestf(f->mem,
	           "{\"t\":%lld,\"goal\":\"MakeBreakfast\",\"action\":{\"name\":\"Place\","
	           "\"args\":{\"object\":\"knife_0\",\"target\":\"countertop_0\"},\"status\":"
	           "\"succeeded\"},\"location\":\"kitchen\",\"persons\":[\"Alice\"]}",
	           T0 + 30000000ll);
	h2emv_error e = { 0 };
	if (h2emv_build(NULL, f->mem, NULL, &e))
		fail_msg("build: %s", e.message);
}

static h2emv_reply *say(fx *f, const char *u)
{
	h2emv_reply *r = NULL;
	h2emv_error e = { 0 };
	int rc = h2emv_say(&r, f->mem, u, &e);
	if (rc)
		fail_msg("say '%s': %d %s", u, rc, e.message);
	assert_non_null(r);
	assert_non_null(r->text);
	return r;
}

static void test_question_is_answered_from_memory(void **state)
{
	fx *f = *state;
	commit_tree(f);
	h2emv_reply *r = say(f, "Where did you put the knife?");
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	assert_non_null(r->answer);
	assert_null(r->rules);
	assert_string_equal(r->text, "At the countertop (2024/09/23, 10:04:25).");
	assert_string_equal(r->answer->text, r->text);
	/* routing plus every question-answering round */
	assert_int_equal(r->tokens.calls, 1 + r->answer->tokens.calls);
	assert_true(r->tokens.prompt > r->answer->tokens.prompt);
	h2emv_reply_free(r);
	/* a question without a question mark */
	r = say(f, "tell me where you put the knife");
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	assert_string_equal(r->text, "At the countertop (2024/09/23, 10:04:25).");
	h2emv_reply_free(r);
}

static void test_question_before_anything_is_built_is_answered_politely(void **state)
{
	fx *f = *state;
	h2emv_reply *r = say(f, "Where did you put the knife?");
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	assert_null(r->answer);
	assert_non_null(strstr(r->text, "no memories yet"));
	h2emv_reply_free(r);
}

static void test_feedback_makes_a_new_rules_version(void **state)
{
	fx *f = *state;
	uint32_t before = 99;
	assert_int_equal(h2emv_rules_current(&before, f->mem, NULL), H2EMV_OK);
	h2emv_reply *r = say(f, "You should always remember where you put the knife.");
	assert_int_equal(r->route, H2EMV_ROUTE_FEEDBACK);
	assert_null(r->answer);
	assert_non_null(r->rules);
	assert_true(r->rules->version > before);
	assert_true(!strncmp(r->text, "Understood. I will remember that: ", 34));
	assert_non_null(strstr(r->text, "knife"));
	assert_true(r->tokens.calls >= 2); /* routing and learning */
	uint32_t v = r->rules->version;
	h2emv_reply_free(r);
	uint32_t now = 0;
	assert_int_equal(h2emv_rules_current(&now, f->mem, NULL), H2EMV_OK);
	assert_int_equal(now, v);
	/* the next feedback's reply names its own rule, not the earlier one */
	r = say(f, "Please remember who you met.");
	assert_int_equal(r->route, H2EMV_ROUTE_FEEDBACK);
	assert_non_null(r->rules);
	assert_true(r->rules->version > v);
	assert_null(strstr(r->text, "knife"));
	h2emv_reply_free(r);
	r = say(f, "You don't need to remember where you put the knife.");
	assert_int_equal(r->route, H2EMV_ROUTE_FEEDBACK);
	assert_true(!strncmp(r->text, "Understood.", 11));
	h2emv_reply_free(r);
}

static void test_greetings_and_thanks_are_answered_directly(void **state)
{
	fx *f = *state;
	h2emv_reply *r = say(f, "Hello!");
	assert_int_equal(r->route, H2EMV_ROUTE_REPLY);
	assert_null(r->answer);
	assert_null(r->rules);
	assert_true(!strncmp(r->text, "Hello", 5));
	assert_int_equal(r->tokens.calls, 1);
	h2emv_reply_free(r);
	r = say(f, "Thank you, robot.");
	assert_string_equal(r->text, "You're welcome.");
	h2emv_reply_free(r);
	r = say(f, "The weather is nice.");
	assert_int_equal(r->route, H2EMV_ROUTE_REPLY);
	assert_true(strlen(r->text) > 0);
	h2emv_reply_free(r);
}

/* Small talk gets a reply, never an answer about the past, even when a
 * task "Greet" is in memory; nothing is learned from it. */
static void test_small_talk_gets_a_reply_not_an_answer(void **state)
{
	fx *f = *state;
	commit_tree(f);
	static const char *const talk[] = { "Hello robot, how are you?", "hello there", "Hi robot",
		                                "Good morning, ARMAR!", "How are you today?",
		                                "Thanks a lot!", "Bye, see you tomorrow." };
	for (size_t i = 0; i < sizeof talk / sizeof *talk; i++) {
		h2emv_reply *r = say(f, talk[i]);
		if (r->route != H2EMV_ROUTE_REPLY)
			fail_msg("'%s' routed %d: %s", talk[i], (int)r->route, r->text);
		assert_null(r->answer);
		assert_null(r->rules);
		assert_int_equal(r->tokens.calls, 1); /* routing only */
		h2emv_reply_free(r);
	}
	h2emv_reply *r = say(f, "Hello robot, how are you?");
	assert_non_null(strstr(r->text, "tell me what to remember"));
	h2emv_reply_free(r);
	uint32_t v = 99;
	assert_int_equal(h2emv_rules_current(&v, f->mem, NULL), H2EMV_OK);
	assert_int_equal(v, 0);
}

/* A greeting in front of a question or feedback is cut off: the rest is
 * answered or learned. */
static void test_greeting_in_front_of_a_question_or_feedback_is_cut(void **state)
{
	fx *f = *state;
	commit_tree(f);
	h2emv_reply *r = say(f, "Hi, where did you put the knife?");
	assert_int_equal(r->route, H2EMV_ROUTE_QUESTION);
	assert_non_null(r->answer);
	assert_string_equal(r->text, "At the countertop (2024/09/23, 10:04:25).");
	h2emv_reply_free(r);
	r = say(f, "Good morning robot, please remember who you met.");
	assert_int_equal(r->route, H2EMV_ROUTE_FEEDBACK);
	assert_non_null(r->rules);
	assert_string_equal(r->rules->items[r->rules->n - 1], "Always remember who you met.");
	h2emv_reply_free(r);
}

static void test_router_sorts_utterances(void **state)
{
	(void)state;
	static const struct {
		const char *u;
		int route;
	} cases[] = {
		{ "Where did you put the knife?", POL_ROUTE_QUESTION },
		{ "When did you last water the plant", POL_ROUTE_QUESTION },
		{ "what did Alice say", POL_ROUTE_QUESTION },
		{ "Did you see my keys?", POL_ROUTE_QUESTION },
		{ "Can you tell me who you met yesterday?", POL_ROUTE_QUESTION },
		{ "Robot, which object did you bring to the sink?", POL_ROUTE_QUESTION },
		{ "Do you remember where the keys are?", POL_ROUTE_QUESTION },
		{ "You should always remember where you put the keys.", POL_ROUTE_FEEDBACK },
		{ "you should remember what Bob says", POL_ROUTE_FEEDBACK },
		{ "Always remember the wallet.", POL_ROUTE_FEEDBACK },
		{ "Please remember where my glasses are.", POL_ROUTE_FEEDBACK },
		{ "Remember that the keys matter.", POL_ROUTE_FEEDBACK },
		{ "Don\xe2\x80\x99t forget where you put my medicine.", POL_ROUTE_FEEDBACK },
		{ "You don't need to remember the hallway.", POL_ROUTE_FEEDBACK },
		{ "OK, you do not need to remember what you saw outside.", POL_ROUTE_FEEDBACK },
		{ "Remember every task that failed.", POL_ROUTE_FEEDBACK },
		{ "Keep in mind where the milk is.", POL_ROUTE_FEEDBACK },
		{ "Note down everything the nurse says.", POL_ROUTE_FEEDBACK },
		{ "Do you remember the keys?", POL_ROUTE_QUESTION },
		{ "Hi", POL_ROUTE_REPLY },
		{ "Good morning!", POL_ROUTE_REPLY },
		{ "thanks", POL_ROUTE_REPLY },
		{ "Bye.", POL_ROUTE_REPLY },
		{ "", POL_ROUTE_REPLY },
		{ "I am going shopping.", POL_ROUTE_REPLY },
		{ "Hello robot, how are you?", POL_ROUTE_REPLY },
		{ "How are you?", POL_ROUTE_REPLY },
		{ "hello there", POL_ROUTE_REPLY },
		{ "Thanks a lot!", POL_ROUTE_REPLY },
		{ "Good night, see you tomorrow.", POL_ROUTE_REPLY },
		{ "Hi, where did you put the keys?", POL_ROUTE_QUESTION },
		{ "Hello robot, how did you clean the cup?", POL_ROUTE_QUESTION },
		{ "How did you get here?", POL_ROUTE_QUESTION },
		{ "Hey robot, remember where the milk is.", POL_ROUTE_FEEDBACK },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int route = 0;
		char *reply = NULL;
		pol_usage u = { 0 };
		h2emv_error e = { 0 };
		assert_int_equal(pol_builtin_route(NULL, cases[i].u, &route, &reply, &u, &e), H2EMV_OK);
		if (route != cases[i].route)
			fail_msg("'%s' routed %d, wanted %d", cases[i].u, route, cases[i].route);
		assert_true((route == POL_ROUTE_REPLY) == (reply != NULL));
		assert_int_equal(u.calls, 1);
		assert_true(u.prompt_tokens > 0 && u.completion_tokens > 0);
		free(reply);
	}
}

static void test_say_refuses_bad_arguments(void **state)
{
	fx *f = *state;
	h2emv_reply *r = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_say(&r, f->mem, NULL, &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_say(NULL, f->mem, "hi", &e), H2EMV_EINVAL);
	assert_int_equal(h2emv_say(&r, NULL, "hi", &e), H2EMV_EINVAL);
	assert_null(r);
	h2emv_reply_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_question_is_answered_from_memory, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_question_before_anything_is_built_is_answered_politely,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_feedback_makes_a_new_rules_version, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_greetings_and_thanks_are_answered_directly,
		                                fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_small_talk_gets_a_reply_not_an_answer, fx_setup,
		                                fx_teardown),
		cmocka_unit_test_setup_teardown(test_greeting_in_front_of_a_question_or_feedback_is_cut,
		                                fx_setup, fx_teardown),
		cmocka_unit_test(test_router_sorts_utterances),
		cmocka_unit_test_setup_teardown(test_say_refuses_bad_arguments, fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
