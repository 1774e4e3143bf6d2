/*
 * test_last_verb.c — "when did you last pick up the apple" answers the
 * last Pickup of the apple, not the Place that followed it: the walk from
 * the newest end stops only at a fact whose verb is the one asked (a near
 * verb, put for pick up, matches every word too but scores lower); and a
 * count's evidence names each counted goal once, in the order counted
 * (recall_count.c adds them all at once).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define T0 1727078400ll /* 2024-09-23 08:00:00 UTC */

/* Three pick-and-place tasks of the apple, two minutes apart: Pickup at
 * T0 + 120 k + 5 s, Place at T0 + 120 k + 12 s. */
static char **history(size_t *n)
{
	char **v = calloc(9, sizeof *v);
	assert_non_null(v);
	*n = 0;
	for (int k = 0; k < 3; k++) {
		long long t = T0 + 120 * k;
		v[(*n)++] = tu_fmt("{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":\"succeeded\"},"
		                   "\"location\":\"kitchen\",\"objects\":[{\"id\":\"apple_0\",\"type\":\"apple\"},"
		                   "{\"id\":\"sink_0\",\"type\":\"sink\"}]}",
		                   t * US);
		v[(*n)++] = tu_fmt("{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"apple_0\"},"
		                   "\"status\":\"succeeded\"},\"objects\":[{\"id\":\"apple_0\",\"type\":\"apple\"}]}",
		                   (t + 5) * US);
		v[(*n)++] = tu_fmt("{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"apple_0\","
		                   "\"target\":\"sink_0\"},\"status\":\"succeeded\"},\"objects\":[{\"id\":"
		                   "\"apple_0\",\"type\":\"apple\"}],\"relations\":[{\"from\":\"apple_0\","
		                   "\"to\":\"sink_0\",\"type\":\"on\"}]}",
		                   (t + 12) * US);
	}
	return v;
}

static void ask_expect(h2emv_mem *m, const char *q, const char *want)
{
	h2emv_answer *a = tu_ask_at(m, (T0 + 3600) * US, q);
	if (!strstr(a->text, want))
		fail_msg("'%s': \"%s\", expected \"%s\"", q, a->text, want);
	h2emv_answer_free(a);
}

static void test_last_pickup_not_the_place_after_it(void **state)
{
	(void)state;
	size_t n;
	char **v = history(&n);
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines("lastverb", (const char *const *)v, n, &dir);
	/* the last Pickup: T0 + 245 s = 08:04:05 (its Place: 08:04:12) */
	ask_expect(m, "When did you last pick up the apple?", "08:04:05");
	/* and the first, and the last put, as before */
	ask_expect(m, "When did you first pick up the apple?", "08:00:05");
	ask_expect(m, "When did you last put the apple on the sink?", "08:04:12");
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void test_count_evidence_once_each(void **state)
{
	(void)state;
	size_t n;
	char **v = history(&n);
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines("countev", (const char *const *)v, n, &dir);
	h2emv_answer *a = tu_ask_at(m, (T0 + 3600) * US, "How many times did you pick up the apple?");
	if (strncmp(a->text, "3 times", 7))
		fail_msg("count: \"%s\"", a->text);
	assert_int_equal(a->n_evidence, 3);
	for (size_t i = 0; i < a->n_evidence; i++)
		for (size_t j = 0; j < i; j++)
			assert_true(a->evidence[i].id != a->evidence[j].id);
	/* (the goals in time order: ids grow with the build) */
	assert_true(a->evidence[0].id < a->evidence[1].id && a->evidence[1].id < a->evidence[2].id);
	h2emv_answer_free(a);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_pickup_not_the_place_after_it),
		cmocka_unit_test(test_count_evidence_once_each),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
