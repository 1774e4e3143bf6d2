/*
 * test_sim.c — the household simulator (bench/eval/sim.h): deterministic
 * output, every line a valid observation that a memory ingests, times that
 * increase, the paper's calendar (≤ 2 episodes a day, 08:00–20:00, nights
 * and gaps), the repetitions the evaluation's questions need, the ARMAR
 * style's people, valuables and nested skill stacks, and bad options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/eval/sim.h"
#include "h2emv.h"
#include "testutil.h"

#define DAY_US (86400ll * 1000000)
#define HOUR_US (3600ll * 1000000)

typedef struct ep_rec {
	char task[64];
	sim_style style;
	int succeeded;
	h2emv_time start, end;
	size_t n_obs, first_line;
} ep_rec;

/* A whole history in memory: the text, where each line starts, the episodes. */
typedef struct hist {
	char *text;
	size_t len, cap;
	size_t *line_off, *line_len;
	size_t n_lines, lcap;
	ep_rec eps[400];
	size_t n_eps;
	size_t stop_after; /* emit fails after this many lines (0: never) */
} hist;

static int on_line(void *arg, const char *line, size_t len)
{
	hist *h = arg;
	if (h->stop_after && h->n_lines == h->stop_after)
		return -99;
	assert_int_equal(strlen(line), len);
	if (h->len + len + 1 > h->cap) {
		h->cap = (h->len + len + 1) * 2;
		h->text = realloc(h->text, h->cap);
	}
	if (h->n_lines == h->lcap) {
		h->lcap = h->lcap ? h->lcap * 2 : 1024;
		h->line_off = realloc(h->line_off, h->lcap * sizeof *h->line_off);
		h->line_len = realloc(h->line_len, h->lcap * sizeof *h->line_len);
	}
	assert_non_null(h->text);
	assert_non_null(h->line_off);
	assert_non_null(h->line_len);
	h->line_off[h->n_lines] = h->len;
	h->line_len[h->n_lines++] = len;
	memcpy(h->text + h->len, line, len);
	h->len += len;
	h->text[h->len++] = '\n';
	return 0;
}

static int on_episode(void *arg, const sim_episode *ep)
{
	hist *h = arg;
	assert_true(h->n_eps < sizeof h->eps / sizeof h->eps[0]);
	assert_int_equal(ep->index, h->n_eps);
	ep_rec *r = &h->eps[h->n_eps++];
	snprintf(r->task, sizeof r->task, "%s", ep->task);
	r->style = ep->style;
	r->succeeded = ep->succeeded;
	r->start = ep->start;
	r->end = ep->end;
	r->n_obs = ep->n_obs;
	r->first_line = h->n_lines;
	return 0;
}

static hist *generate(sim_style style, unsigned episodes, uint64_t seed)
{
	hist *h = calloc(1, sizeof *h);
	assert_non_null(h);
	sim_options o = SIM_OPTIONS_INIT;
	o.style = style;
	o.episodes = episodes;
	o.seed = seed;
	o.on_episode = on_episode;
	h2emv_error err = { 0 };
	int rc = sim_generate(&o, on_line, h, &err);
	if (rc)
		fail_msg("sim_generate: %s", err.message);
	assert_int_equal(h->n_eps, episodes);
	return h;
}

static void hist_free(hist *h)
{
	free(h->text);
	free(h->line_off);
	free(h->line_len);
	free(h);
}

/* Line k as a NUL-terminated copy. */
static char *line(const hist *h, size_t k)
{
	char *s = malloc(h->line_len[k] + 1);
	assert_non_null(s);
	memcpy(s, h->text + h->line_off[k], h->line_len[k]);
	s[h->line_len[k]] = 0;
	return s;
}

/* ------------------------------------------------------------- tests -- */

static void test_same_seed_gives_same_bytes(void **state)
{
	for (int style = 0; style <= SIM_STYLE_MIXED; style++) {
		hist *a = generate((sim_style)style, 6, 7), *b = generate((sim_style)style, 6, 7);
		assert_int_equal(a->len, b->len);
		assert_memory_equal(a->text, b->text, a->len);
		hist_free(a);
		hist_free(b);
	}
}

static void test_different_seed_gives_different_history(void **state)
{
	hist *a = generate(SIM_STYLE_TEACH, 5, 7), *b = generate(SIM_STYLE_TEACH, 5, 8);
	assert_false(a->len == b->len && !memcmp(a->text, b->text, a->len));
	hist_free(a);
	hist_free(b);
}

static void test_every_line_validates(void **state)
{
	for (int style = 0; style <= SIM_STYLE_MIXED; style++) {
		hist *h = generate((sim_style)style, 25, 11 + (uint64_t)style);
		for (size_t k = 0; k < h->n_lines; k++) {
			h2emv_error err = { 0 };
			int rc = h2emv_obs_validate(h->text + h->line_off[k], h->line_len[k], k + 1, &err);
			if (rc)
				fail_msg("style %d: %s", style, err.message);
		}
		hist_free(h);
	}
}

static void test_memory_ingests_a_history(void **state)
{
	hist *h = generate(SIM_STYLE_MIXED, 5, 3);
	char *dir;
	h2emv_mem *mem = tu_mem_tmp("sim", &dir);
	assert_non_null(mem);
	h2emv_error err = { 0 };
	const char **lines = malloc(h->n_lines * sizeof *lines);
	assert_non_null(lines);
	for (size_t k = 0; k < h->n_lines; k++)
		lines[k] = h->text + h->line_off[k];
	uint64_t first = 0;
	int rc = h2emv_ingest_batch(&first, mem, lines, h->line_len, h->n_lines, &err);
	if (rc)
		fail_msg("ingest: %s", err.message);
	assert_int_equal(first, 1);
	free(lines);
	h2emv_mem_close(mem);
	tu_rmrf(dir);
	free(dir);
	hist_free(h);
}

static void test_times_strictly_increase(void **state)
{
	for (int style = 0; style <= SIM_STYLE_MIXED; style++) {
		hist *h = generate((sim_style)style, 25, 5);
		char prev[40] = "";
		for (size_t k = 0; k < h->n_lines; k++) {
			/* {"t":"YYYY-MM-DDTHH:MM:SS.mmmZ" — fixed width, so text order is time order */
			const char *p = h->text + h->line_off[k];
			assert_memory_equal(p, "{\"t\":\"", 6);
			char t[40];
			memcpy(t, p + 6, 24);
			t[24] = 0;
			assert_int_equal(t[23], 'Z');
			assert_true(strcmp(t, prev) > 0);
			memcpy(prev, t, sizeof t);
		}
		hist_free(h);
	}
}

static void test_days_have_one_or_two_episodes_in_working_hours(void **state)
{
	hist *h = generate(SIM_STYLE_MIXED, 60, 9);
	int gaps = 0;
	for (size_t k = 0; k < h->n_eps; k++) {
		const ep_rec *e = &h->eps[k];
		int64_t day = e->start / DAY_US;
		assert_int_equal(e->end / DAY_US, day);
		assert_true(e->start % DAY_US >= 8 * HOUR_US);
		assert_true(e->end % DAY_US <= 20 * HOUR_US);
		assert_true(e->n_obs >= 5 && e->n_obs <= 250);
		if (k >= 2)
			assert_true(h->eps[k - 2].start / DAY_US < day); /* at most 2 a day */
		if (k >= 1) {
			assert_true(e->start - h->eps[k - 1].end >= 30 * 1000000ll);
			int64_t skipped = day - h->eps[k - 1].start / DAY_US - 1;
			assert_true(skipped <= 5);
			gaps += skipped > 0;
		}
	}
	assert_true(gaps > 0); /* days without episodes happen */
	/* every line too, not only the episode bounds */
	for (size_t k = 0; k < h->n_lines; k++) {
		const char *t = h->text + h->line_off[k] + 6;
		int hour = (t[11] - '0') * 10 + (t[12] - '0');
		assert_true(hour >= 8 && (hour < 20 || !memcmp(t + 11, "20:00:00.000", 12)));
	}
	hist_free(h);
}

static void test_episode_bounds_match_lines(void **state)
{
	hist *h = generate(SIM_STYLE_MIXED, 25, 21);
	for (size_t k = 0; k < h->n_eps; k++) {
		const ep_rec *e = &h->eps[k];
		size_t end = k + 1 < h->n_eps ? h->eps[k + 1].first_line : h->n_lines;
		assert_int_equal(end - e->first_line, e->n_obs);
		char *first = line(h, e->first_line), *last = line(h, end - 1), note[64];
		snprintf(note, sizeof note, "\"note\":\"episode %zu: ", k + 1);
		assert_non_null(strstr(first, note));
		assert_non_null(strstr(last, e->succeeded ? "\"goal_status\":\"succeeded\""
		                                          : "\"goal_status\":\"failed\""));
		assert_non_null(strstr(last, e->task));
		free(first);
		free(last);
	}
	hist_free(h);
}

static void test_teach_history_repeats_tasks_and_actions_on_different_days(void **state)
{
	hist *h = generate(SIM_STYLE_TEACH, 25, 7);
	int task_repeat = 0;
	for (size_t a = 0; a < h->n_eps && !task_repeat; a++)
		for (size_t b = a + 1; b < h->n_eps; b++)
			if (!strcmp(h->eps[a].task, h->eps[b].task) &&
			    h->eps[b].start / DAY_US > h->eps[a].start / DAY_US) {
				task_repeat = 1;
				break;
			}
	assert_true(task_repeat);
	/* a Pickup of the same kind of object on two different days */
	const char *kinds[] = { "Knife", "Mug", "Plate", "Bowl", "Potato", "Fork" };
	int action_repeat = 0;
	for (size_t c = 0; c < sizeof kinds / sizeof kinds[0]; c++) {
		char pat[64];
		snprintf(pat, sizeof pat, "{\"name\":\"Pickup\",\"args\":[\"%s_", kinds[c]);
		char first_day[11] = "";
		for (size_t k = 0; k < h->n_lines; k++) {
			char *l = line(h, k);
			if (strstr(l, pat) && strstr(l, "\"succeeded\"")) {
				if (!first_day[0])
					memcpy(first_day, l + 6, 10); /* YYYY-MM-DD */
				else if (memcmp(first_day, l + 6, 10))
					action_repeat = 1;
			}
			free(l);
		}
	}
	assert_true(action_repeat);
	int failed = 0;
	for (size_t k = 0; k < h->n_eps; k++)
		failed += !h->eps[k].succeeded;
	assert_true(failed < 8);
	hist_free(h);
}

static void test_armar_history_has_people_valuables_and_skill_stacks(void **state)
{
	hist *h = generate(SIM_STYLE_ARMAR, 25, 7);
	int persons = 0, valuable = 0, nested = 0, navigate = 0, handover = 0, running = 0;
	for (size_t k = 0; k < h->n_lines; k++) {
		char *l = line(h, k);
		persons |= strstr(l, "\"persons\":[\"") != NULL;
		valuable |= strstr(l, "[\"keys_0\",\"") || strstr(l, "[\"wallet_0\",\"") ||
		            strstr(l, "[\"medicine_0\",\"") || strstr(l, "[\"glasses_0\",\"");
		nested |= strstr(l, ".GraspObject.ExecuteTraj\"") != NULL;
		navigate |= strstr(l, "{\"name\":\"Navigate\",\"args\":{\"target\":\"") != NULL;
		handover |= strstr(l, "{\"name\":\"HandOver\"") || strstr(l, "{\"name\":\"Receive\"");
		running |= strstr(l, "\"status\":\"running\"") != NULL;
		free(l);
	}
	assert_true(persons);
	assert_true(valuable);
	assert_true(nested);
	assert_true(navigate);
	assert_true(handover);
	assert_true(running);
	for (size_t k = 0; k < h->n_eps; k++)
		assert_int_equal(h->eps[k].style, SIM_STYLE_ARMAR);
	hist_free(h);
}

static void test_mixed_history_has_both_styles(void **state)
{
	hist *h = generate(SIM_STYLE_MIXED, 25, 7);
	int teach = 0, armar = 0;
	for (size_t k = 0; k < h->n_eps; k++) {
		teach += h->eps[k].style == SIM_STYLE_TEACH;
		armar += h->eps[k].style == SIM_STYLE_ARMAR;
	}
	assert_true(teach > 0 && armar > 0);
	hist_free(h);
}

static void test_start_day_is_kept(void **state)
{
	hist *h = calloc(1, sizeof *h);
	assert_non_null(h);
	sim_options o = SIM_OPTIONS_INIT;
	o.start = 1727049600ll * 1000000 + 5 * HOUR_US; /* 2024-09-23 05:00: the day counts */
	assert_int_equal(sim_generate(&o, on_line, h, NULL), H2EMV_OK);
	assert_memory_equal(h->text, "{\"t\":\"2024-09-23T", 17);
	hist_free(h);
}

static void test_callback_error_stops_generation(void **state)
{
	hist *h = calloc(1, sizeof *h);
	assert_non_null(h);
	h->stop_after = 10;
	sim_options o = SIM_OPTIONS_INIT;
	assert_int_equal(sim_generate(&o, on_line, h, NULL), -99);
	assert_int_equal(h->n_lines, 10);
	hist_free(h);
}

static void test_bad_options_are_refused(void **state)
{
	hist h = { 0 };
	h2emv_error err = { 0 };
	sim_options o = SIM_OPTIONS_INIT;
	o.episodes = 0;
	assert_int_equal(sim_generate(&o, on_line, &h, &err), H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "episodes"));
	o = (sim_options)SIM_OPTIONS_INIT;
	o.version = 99;
	assert_int_equal(sim_generate(&o, on_line, &h, &err), H2EMV_EINVAL);
	o = (sim_options)SIM_OPTIONS_INIT;
	o.style = (sim_style)7;
	assert_int_equal(sim_generate(&o, on_line, &h, &err), H2EMV_EINVAL);
	o = (sim_options)SIM_OPTIONS_INIT;
	o.start = -5;
	assert_int_equal(sim_generate(&o, on_line, &h, &err), H2EMV_EINVAL);
	o = (sim_options)SIM_OPTIONS_INIT;
	assert_int_equal(sim_generate(&o, NULL, &h, &err), H2EMV_EINVAL);
	assert_int_equal(h.n_lines, 0);
	sim_style s;
	assert_int_equal(sim_style_parse(&s, "armar"), H2EMV_OK);
	assert_int_equal(s, SIM_STYLE_ARMAR);
	assert_int_equal(sim_style_parse(&s, "Teach"), H2EMV_EINVAL);
	assert_string_equal(sim_style_name(SIM_STYLE_MIXED), "mixed");
	sim_task_info t[64];
	size_t n = sim_tasks(t, 64);
	assert_true(n > 10 && n <= 64);
	assert_int_equal(sim_tasks(NULL, 0), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_gives_same_bytes),
		cmocka_unit_test(test_different_seed_gives_different_history),
		cmocka_unit_test(test_every_line_validates),
		cmocka_unit_test(test_memory_ingests_a_history),
		cmocka_unit_test(test_times_strictly_increase),
		cmocka_unit_test(test_days_have_one_or_two_episodes_in_working_hours),
		cmocka_unit_test(test_episode_bounds_match_lines),
		cmocka_unit_test(test_teach_history_repeats_tasks_and_actions_on_different_days),
		cmocka_unit_test(test_armar_history_has_people_valuables_and_skill_stacks),
		cmocka_unit_test(test_mixed_history_has_both_styles),
		cmocka_unit_test(test_start_day_is_kept),
		cmocka_unit_test(test_callback_error_stops_generation),
		cmocka_unit_test(test_bad_options_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
