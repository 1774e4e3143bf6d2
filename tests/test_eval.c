/*
 * test_eval.c — question generation by the paper's recipe, the forgotten
 * span test, the metrics, and a small end-to-end evaluation (one simulated
 * history, a few variants) whose table must be complete and in range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/eval/eval.h"
#include "bench/eval/judge.h"
#include "bench/eval/qagen.h"
#include "bench/eval/report.h"
#include "bench/eval/sim.h"
#include "tests/testutil.h"

#define DAY (24LL * 3600 * 1000000)
#define T0 1710000000000000LL /* 2024-03-09 16:00:00 UTC */

static void add(qg_history *h, int64_t t, const char *rest)
{
	char line[512];
	snprintf(line, sizeof line, "{\"t\": %lld%s%s}", (long long)t, rest[0] ? ", " : "", rest);
	h2emv_error err = { 0 };
	assert_int_equal(qg_history_add(h, line, strlen(line), &err), H2EMV_OK);
}

/* Day 0: pick up a mug and place it in the sink; day 3: the same onto the
 * counter; other days: walking about, so questions have times to land on. */
static void two_mugs(qg_history *h)
{
	for (int d = 0; d < 7; d++) {
		int64_t t = T0 + d * DAY;
		add(h, t, "\"action\": \"Forward\"");
		if (d == 0 || d == 3) {
			add(h, t + 60000000, "\"action\": \"Pickup(Mug_1)\", \"objects\": [{\"id\": \"Mug_1\", \"type\": \"Mug\"}]");
			add(h, t + 120000000, d == 0 ? "\"action\": \"Place(Mug_1, Sink_0)\""
			                             : "\"action\": \"Place(Mug_1, CounterTop_2)\"");
		}
		add(h, t + 3600000000LL, "\"action\": \"Turn\"");
	}
}

static const qg_question *find(const qg_set *s, const char *kind, int round)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->q[i].kind, kind) && s->q[i].round == round)
			return &s->q[i];
	return NULL;
}

static void test_pairs_follow_the_recipe(void **state)
{
	(void)state;
	qg_history h = { 0 };
	two_mugs(&h);
	qg_set s;
	h2emv_error err = { 0 };
	assert_int_equal(qg_generate(&s, &h, 10, 1, &err), H2EMV_OK);
	assert_true(s.n >= 4 && s.n % 2 == 0);
	const qg_question *w1 = find(&s, "place-where", 1), *w2 = find(&s, "place-where", 2);
	assert_non_null(w1);
	assert_non_null(w2);
	assert_string_equal(w1->question, "Where did you first place a mug?");
	assert_string_equal(w1->truth, "At the sink");
	assert_string_equal(w2->question, "Where did you last place a mug?");
	assert_string_equal(w2->truth, "At the counter top");
	assert_string_equal(w1->feedback, "You should always remember where you place a mug.");
	/* round 1: a day or more after the first time, before the last time */
	assert_true(w1->at >= w1->ref_t1 + QG_DELAY);
	assert_true(w1->at < w2->ref_t0);
	/* round 2: a day or more after the last time */
	assert_true(w2->at >= w2->ref_t1 + QG_DELAY);
	const qg_question *p1 = find(&s, "act-when", 1);
	assert_non_null(p1);
	char want[64];
	qg_fmt_time(want, sizeof want, p1->ref_t0);
	assert_true(strstr(p1->truth, want) != NULL);
	/* sorted by time */
	for (size_t i = 1; i < s.n; i++)
		assert_true(s.q[i - 1].at <= s.q[i].at);
	qg_set_free(&s);
	qg_history_free(&h);
}

static void test_no_pair_without_a_day_between(void **state)
{
	(void)state;
	qg_history h = { 0 };
	add(&h, T0, "\"action\": \"Pickup(Mug_1)\"");
	add(&h, T0 + 3600000000LL, "\"action\": \"Pickup(Mug_1)\"");
	add(&h, T0 + 3 * DAY, "\"action\": \"Forward\"");
	qg_set s;
	h2emv_error err = { 0 };
	assert_int_equal(qg_generate(&s, &h, 5, 1, &err), H2EMV_OK);
	assert_int_equal(s.n, 0);
	qg_set_free(&s);
	qg_history_free(&h);
}

static void test_history_refuses_time_going_back(void **state)
{
	(void)state;
	qg_history h = { 0 };
	add(&h, T0, "");
	h2emv_error err = { 0 };
	const char *l = "{\"t\": 1000}";
	assert_int_equal(qg_history_add(&h, l, strlen(l), &err), H2EMV_EINVAL);
	const char *bad = "{\"x\": 1}";
	assert_int_equal(qg_history_add(&h, bad, strlen(bad), &err), H2EMV_EPARSE);
	qg_history_free(&h);
}

static void test_same_seed_same_questions(void **state)
{
	(void)state;
	qg_history h = { 0 };
	two_mugs(&h);
	qg_set a, b;
	h2emv_error err = { 0 };
	assert_int_equal(qg_generate(&a, &h, 3, 9, &err), H2EMV_OK);
	assert_int_equal(qg_generate(&b, &h, 3, 9, &err), H2EMV_OK);
	char *ja = qg_set_jsonl(&a), *jb = qg_set_jsonl(&b);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	qg_set_free(&a);
	qg_set_free(&b);
	qg_history_free(&h);
}

/* Metrics on hand-made results: 2 pairs, one improves, one stays. */
static void test_metrics_by_hand(void **state)
{
	(void)state;
	ev_answer a[4] = {
		{ .history = 0, .pair = 0, .round = 1, .broad = J_BROAD_WRONG, .span_forgotten = 1, .tokens = 1000 },
		{ .history = 0, .pair = 0, .round = 2, .broad = J_BROAD_CORRECT, .tokens = 3000 },
		{ .history = 0, .pair = 1, .round = 1, .broad = J_BROAD_PARTIAL, .span_forgotten = 1, .tokens = 2000 },
		{ .history = 0, .pair = 1, .round = 2, .broad = J_BROAD_PARTIAL, .tokens = 2000 },
	};
	ev_result r = { .v = &ev_variants[0], .a = a, .n = 4, .histories = 1, .nf_sum = 12,
		        .navg_sum = 8, .tok_forget = 5000 };
	ev_metrics m;
	ev_metrics_of(&m, &r);
	assert_true(m.s_c == 25.0 && m.s_p == 75.0);
	assert_true(m.s_up == 50.0 && m.s_eq == 50.0);
	assert_true(m.s_c1 == 0.0 && m.s_p1 == 50.0 && m.s_c2 == 50.0 && m.s_p2 == 100.0);
	assert_true(m.f_1 == 100.0 && m.f_2 == 0.0);
	assert_true(m.c_qa == 2.0 && m.c_f == 5.0 && m.n_f == 12.0 && m.n_avg == 8.0);
}

static int emit(void *arg, const char *line, size_t len)
{
	h2emv_error e = { 0 };
	return qg_history_add(arg, line, len, &e);
}

/* One simulated history through four variants: every question answered
 * and judged, no forgetting without forgetting, an offline build at
 * question time costs tokens, and the tables complete. */
static void test_small_evaluation(void **state)
{
	(void)state;
	qg_history h = { 0 };
	sim_options so = SIM_OPTIONS_INIT;
	so.episodes = 5;
	so.seed = 3;
	h2emv_error err = { 0 };
	assert_int_equal(sim_generate(&so, emit, &h, &err), H2EMV_OK);
	qg_set qs;
	assert_int_equal(qg_generate(&qs, &h, 5, 1, &err), H2EMV_OK);
	assert_true(qs.n >= 2);
	char *dir = tu_tmpdir("eval");
	static const char *const ids[] = { "A", "D", "F", "J" };
	ev_result res[4];
	memset(res, 0, sizeof res);
	ev_options o;
	memset(&o, 0, sizeof o);
	o.version = EV_OPTIONS_VERSION;
	o.workdir = dir;
	for (size_t i = 0; i < 4; i++) {
		int rc = ev_run_history(&res[i], ev_variant_find(ids[i]), &h, &qs, 0, &o, &err);
		if (rc != H2EMV_OK)
			fail_msg("variant %s: %s", ids[i], err.message);
		assert_int_equal(res[i].n, qs.n);
		assert_int_equal(res[i].histories, 1);
		ev_metrics m;
		ev_metrics_of(&m, &res[i]);
		assert_true(m.n_f > 0 && m.c_qa > 0);
		for (size_t k = 0; k < res[i].n; k++) {
			assert_true(res[i].a[k].answer[0] != 0);
			assert_true(res[i].a[k].broad >= 0 && res[i].a[k].broad < J_BROAD_COUNT);
		}
	}
	ev_metrics mf, mj;
	ev_metrics_of(&mf, &res[2]);
	ev_metrics_of(&mj, &res[3]);
	assert_true(mf.f_1 == 0.0 && mf.f_2 == 0.0); /* F never forgets */
	assert_true(mj.c_qa_build > 0);              /* offline builds at question time */
	char *md = NULL, *tsv = NULL;
	size_t mdn = 0, tsvn = 0;
	FILE *f = open_memstream(&md, &mdn);
	ev_write_markdown(f, res, 4, NULL);
	fclose(f);
	f = open_memstream(&tsv, &tsvn);
	ev_write_tsv(f, res, 4);
	fclose(f);
	size_t lines = 0;
	for (const char *p = tsv; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 5);
	for (size_t i = 0; i < 4; i++)
		assert_non_null(strstr(md, ev_variant_find(ids[i])->name));
	assert_null(strstr(md, "nan"));
	free(md);
	free(tsv);
	for (size_t i = 0; i < 4; i++)
		ev_result_free(&res[i]);
	qg_set_free(&qs);
	qg_history_free(&h);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_follow_the_recipe),
		cmocka_unit_test(test_no_pair_without_a_day_between),
		cmocka_unit_test(test_history_refuses_time_going_back),
		cmocka_unit_test(test_same_seed_same_questions),
		cmocka_unit_test(test_metrics_by_hand),
		cmocka_unit_test(test_small_evaluation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
