/*
 * test_import.c — the importers (tools/import/import.h): TEACh EDH episodes
 * and the ARMAR-7 history tree become observations that `h2emv_ingest`
 * accepts, in time order, with dates fixed by the seed; damaged input is a
 * clear error naming the file and the field; with no path, the data comes
 * from $H2EMV_DATA or the import says what to set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "h2emv.h"
#include "testutil.h"
#include "tools/import/import.h"

#define TEACH_DIR H2EMV_TEST_DATA "/teach"
#define EP_SEEN TEACH_DIR "/valid_seen/0ad40b7b0e0cc45d_3a73.edh2.json"
#define EP_UNSEEN TEACH_DIR "/valid_unseen/0ad91909295bf186_134b.edh0.json"
#define US 1000000ll
#define HOUR (3600ll * US)
#define DAY (24 * HOUR)

/* The external data folder: $H2EMV_DATA, else ../shared/data/external
 * beside the source tree (tests/CMakeLists.txt). */
#ifndef H2EMV_EXTERNAL_DATA
#define H2EMV_EXTERNAL_DATA "../shared/data/external"
#endif
static const char *external_data(void)
{
	const char *d = getenv("H2EMV_DATA");
	return d && *d ? d : H2EMV_EXTERNAL_DATA;
}

/* Missing external data: a skip ctest reports, or a failure when the run
 * requires the data (H2EMV_REQUIRE_DATA=1, as CI sets it). */
#define MISSING_DATA(what, path) \
	tu_skip("H2EMV_REQUIRE_DATA", "%s not found at %s (set H2EMV_DATA)", what, path)

/* ------------------------------------------------------------- helpers -- */

/* Collected lines; optionally fails after `fail_after` lines. */
typedef struct lines {
	char **v;
	size_t n, cap;
	size_t fail_after;
} lines;

static int collect(void *arg, const char *line, size_t len)
{
	lines *l = arg;
	assert_int_equal(strlen(line), len);
	if (l->fail_after && l->n == l->fail_after)
		return H2EMV_EIO;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		assert_non_null(l->v);
	}
	l->v[l->n++] = strdup(line);
	return H2EMV_OK;
}

static void lines_free(lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static json_t *parse(const char *line)
{
	json_error_t je;
	json_t *j = json_loads(line, 0, &je);
	if (!j)
		fail_msg("not JSON: %s: %s", je.text, line);
	return j;
}

static h2emv_time line_time(const char *line)
{
	json_t *j = parse(line);
	h2emv_time t = 0;
	assert_int_equal(imp_parse_time(&t, json_string_value(json_object_get(j, "t"))), 0);
	json_decref(j);
	return t;
}

/* Every line goes into a fresh memory; all must be accepted. */
static void ingest_all(const lines *l)
{
	char *dir;
	h2emv_mem *m = tu_mem_tmp("import", &dir);
	assert_non_null(m);
	h2emv_error err = { 0 };
	for (size_t i = 0; i < l->n; i += 500) {
		size_t k = l->n - i < 500 ? l->n - i : 500;
		size_t *lens = calloc(k, sizeof *lens);
		for (size_t j = 0; j < k; j++)
			lens[j] = strlen(l->v[i + j]);
		int rc = h2emv_ingest_batch(NULL, m, (const char *const *)l->v + i, lens, k, &err);
		if (rc)
			fail_msg("line %zu refused: %s\n%s", i + (size_t)err.line, err.message,
			         l->v[i + (err.line ? err.line - 1 : 0)]);
		free(lens);
	}
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

typedef struct eps {
	imp_episode v[64];
	char game[64][128]; /* the strings live only during the callback */
	size_t n;
} eps;

static int on_episode(void *arg, const imp_episode *ep)
{
	eps *e = arg;
	if (e->n < 64) {
		e->v[e->n] = *ep;
		snprintf(e->game[e->n], sizeof e->game[0], "%s", ep->game_id);
		e->v[e->n].game_id = e->game[e->n];
		e->v[e->n].path = e->v[e->n].instance_id = NULL;
		e->n++;
	}
	return 0;
}

static int teach(lines *out, imp_stats *st, eps *e, const char *path, uint32_t episodes,
                 uint64_t seed, h2emv_error *err)
{
	const char *paths[] = { path };
	imp_teach_options o = IMP_TEACH_OPTIONS_INIT;
	o.paths = paths;
	o.n_paths = 1;
	o.episodes = episodes;
	o.seed = seed;
	o.on_episode = e ? on_episode : NULL;
	o.on_episode_arg = e;
	return imp_teach(st, &o, collect, out, err);
}

static int count_action(const lines *l, const char *name)
{
	int n = 0;
	for (size_t i = 0; i < l->n; i++) {
		json_t *j = parse(l->v[i]);
		const char *a = json_string_value(json_object_get(json_object_get(j, "action"), "name"));
		n += a && !strcmp(a, name);
		json_decref(j);
	}
	return n;
}

/* --------------------------------------------------------------- TEACh -- */

static void test_teach_fixture_ingests_with_expected_counts(void **state)
{
	(void)state;
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	eps e = { 0 };
	int rc = teach(&l, &st, &e, TEACH_DIR, 0, 42, &err);
	if (rc)
		fail_msg("%s", err.message);
	/* counted independently from the files: Driver Motion/ObjectInteraction/
	 * Text actions (17 + 103), non-empty utterances (10 + 2) */
	assert_int_equal(st.episodes, 2);
	assert_int_equal(st.observations, 23 + 104);
	assert_int_equal(l.n, 23 + 104);
	assert_int_equal(st.actions, 17 + 103);
	assert_int_equal(st.utterances, 10 + 2);
	assert_int_equal(e.n, 2);
	assert_string_equal(e.v[0].game_id, "0ad40b7b0e0cc45d_3a73");
	assert_int_equal(e.v[0].observations, 23);
	assert_int_equal(e.v[1].observations, 104);
	assert_int_equal(count_action(&l, "Pickup"), 1 + 5);
	assert_true(strstr(l.v[0], "\"note\":\"TEACh valid_seen/0ad40b7b0e0cc45d_3a73.edh2\""));

	for (size_t i = 1; i < l.n; i++)
		assert_true(line_time(l.v[i]) > line_time(l.v[i - 1]));
	/* the episode's duration is kept: last - first relevant time_start */
	h2emv_time dur = e.v[1].end - e.v[1].start;
	assert_true(dur > 329 * US && dur < 331 * US);
	assert_true(e.v[1].start >= e.v[0].end + 30 * US);

	/* the last step places the held potato into the pot, which sits on the
	 * burner, and the episode's final state diff shows what is visible */
	json_t *last = parse(l.v[l.n - 1]);
	json_t *a = json_object_get(last, "action");
	assert_string_equal(json_string_value(json_object_get(a, "name")), "Place");
	assert_int_equal(json_array_size(json_object_get(a, "args")), 2);
	const char *potato = json_string_value(json_array_get(json_object_get(a, "args"), 0));
	assert_true(!strncmp(potato, "Potato", 6));
	assert_string_equal(json_string_value(json_array_get(json_object_get(a, "args"), 1)), "Pot");
	assert_string_equal(json_string_value(json_object_get(a, "status")), "succeeded");
	assert_true(json_array_size(json_object_get(last, "objects")) > 10);
	char *rels = json_dumps(json_object_get(last, "relations"), JSON_COMPACT);
	char want[128];
	snprintf(want, sizeof want, "[\"%s\",\"Pot\",\"in/on\"]", potato);
	assert_non_null(strstr(rels, want));
	assert_non_null(strstr(rels, "[\"Pot\",\"StoveBurner_0\",\"in/on\"]"));
	free(rels);
	json_decref(last);

	ingest_all(&l);
	lines_free(&l);
}

static void test_teach_held_object_and_goal_follow_the_actions(void **state)
{
	(void)state;
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	if (teach(&l, &st, NULL, EP_UNSEEN, 0, 1, &err))
		fail_msg("%s", err.message);
	/* after the first Pickup every step until the next Place holds it */
	size_t pick = 0;
	while (pick < l.n && !strstr(l.v[pick], "\"name\":\"Pickup\""))
		pick++;
	assert_true(pick + 1 < l.n);
	json_t *j = parse(l.v[pick]);
	const char *obj = json_string_value(json_array_get(json_object_get(json_object_get(j, "action"), "args"), 0));
	char held[128], goal[128];
	snprintf(held, sizeof held, "[\"%s\",\"agent hand\",\"inside\"]", obj);
	snprintf(goal, sizeof goal, "\"goal\":[\"Pickup(%s)\"],\"goal_status\":\"succeeded\"", obj);
	assert_non_null(strstr(l.v[pick], goal));
	size_t k = pick, failed = 0;
	for (; k < l.n && !(strstr(l.v[k], "\"Place\"") && strstr(l.v[k], "\"succeeded\"")); k++) {
		assert_non_null(strstr(l.v[k], held));
		if (!failed && strstr(l.v[k], "\"Place\""))
			failed = k;
	}
	assert_true(k < l.n);
	assert_null(strstr(l.v[k], held)); /* placed: no longer in the hand */
	/* a failed Place with no target names only the held object */
	assert_true(failed > pick);
	char want[160];
	snprintf(want, sizeof want, "{\"name\":\"Place\",\"args\":[\"%s\"],\"status\":\"failed\"}", obj);
	assert_non_null(strstr(l.v[failed], want));
	/* the steps before the first Pickup lead to it */
	snprintf(goal, sizeof goal, "\"goal\":[\"Pickup(%s)\"],\"goal_status\":\"running\"", obj);
	if (!strstr(l.v[0], goal))
		fail_msg("%s not in %s", goal, l.v[0]);
	json_decref(j);
	/* the Commander's words carry the speaker and the person */
	int found = 0;
	for (size_t i = 0; i < l.n; i++)
		found |= strstr(l.v[i], "{\"speaker\":\"Commander\",\"text\":\"hello please boil a potato\"}") &&
		         strstr(l.v[i], "\"persons\":[{\"name\":\"Commander\",\"id\":\"agent0\"}]");
	assert_true(found);
	lines_free(&l);
}

static void test_teach_dates_are_deterministic_by_seed(void **state)
{
	(void)state;
	lines a = { 0 }, b = { 0 }, c = { 0 };
	imp_stats st;
	h2emv_error err;
	eps e = { 0 };
	/* 12 episodes from 2 files: sampled with replacement */
	assert_int_equal(teach(&a, &st, &e, TEACH_DIR, 12, 42, &err), H2EMV_OK);
	assert_int_equal(teach(&b, &st, NULL, TEACH_DIR, 12, 42, &err), H2EMV_OK);
	assert_int_equal(teach(&c, &st, NULL, TEACH_DIR, 12, 43, &err), H2EMV_OK);
	assert_int_equal(st.episodes, 12);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.v[i], b.v[i]);
	assert_true(strcmp(a.v[0], c.v[0]) != 0);

	/* upstream's calendar: 2024-01-01 +-304 days, starts 08:00-20:00, at
	 * most 2 episodes a day, days in between skipped, >= 30 s apart */
	const h2emv_time base = 1704096000ll * US;
	assert_int_equal(e.n, 12);
	assert_true(e.v[0].start > base - 305 * DAY && e.v[0].start < base + 306 * DAY);
	int per_day = 0;
	for (size_t i = 0; i < e.n; i++) {
		h2emv_time tod = e.v[i].start % DAY;
		assert_true(tod >= 8 * HOUR && tod < 20 * HOUR + HOUR);
		if (i == 0)
			continue;
		assert_true(e.v[i].start >= e.v[i - 1].end + 30 * US);
		per_day = e.v[i].start / DAY == e.v[i - 1].start / DAY ? per_day + 1 : 0;
		assert_true(per_day <= 1);
		assert_true(e.v[i].start / DAY - e.v[i - 1].start / DAY <= 6);
	}
	for (size_t i = 1; i < a.n; i++)
		assert_true(line_time(a.v[i]) > line_time(a.v[i - 1]));
	lines_free(&a);
	lines_free(&b);
	lines_free(&c);
}

static void test_teach_explicit_starts_place_each_episode(void **state)
{
	(void)state;
	const char *paths[] = { EP_UNSEEN, EP_SEEN };
	h2emv_time starts[2];
	assert_int_equal(imp_parse_time(&starts[0], "2024-03-05 09:00:00"), 0);
	assert_int_equal(imp_parse_time(&starts[1], "2024-03-07T14:30:00.5Z"), 0);
	imp_teach_options o = IMP_TEACH_OPTIONS_INIT;
	o.paths = paths;
	o.n_paths = 2;
	o.starts = starts;
	o.n_starts = 2;
	eps e = { 0 };
	o.on_episode = on_episode;
	o.on_episode_arg = &e;
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	assert_int_equal(imp_teach(&st, &o, collect, &l, &err), H2EMV_OK);
	assert_int_equal(e.n, 2);
	assert_true(e.v[0].start == starts[0] && e.v[1].start == starts[1]);
	assert_true(strstr(l.v[0], "\"t\":\"2024-03-05T09:00:00.000000Z\""));
	assert_true(e.v[0].t0 > 31.5 && e.v[0].t0 < 31.6); /* the Driver's first words */
	lines_free(&l);

	/* overlapping starts are refused */
	starts[1] = starts[0] + 60 * US;
	assert_int_equal(imp_teach(&st, &o, collect, &l, &err), H2EMV_EINVAL);
	lines_free(&l);
	o.n_starts = 1;
	assert_int_equal(imp_teach(&st, &o, collect, &l, &err), H2EMV_EINVAL);
	lines_free(&l);
}

/* Write `j` (or `text`) to a temporary EDH file; returns its path. */
static char *write_tmp(const char *dir, const char *name, json_t *j, const char *text)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);
	sprintf(path, "%s/%s", dir, name);
	if (j)
		assert_int_equal(json_dump_file(j, path, JSON_COMPACT), 0);
	else {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void expect_teach_error(const char *path, int status, const char *field, const char *words)
{
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	int rc = teach(&l, &st, NULL, path, 0, 1, &err);
	if (rc != status)
		fail_msg("%s: got %d (%s), want %d", path, rc, err.message, status);
	assert_int_equal(err.status, status);
	assert_non_null(strstr(err.message, path));
	if (field) {
		assert_string_equal(err.field, field);
		assert_non_null(strstr(err.message, field));
	}
	if (words && !strstr(err.message, words))
		fail_msg("'%s' not in: %s", words, err.message);
	assert_int_equal(l.n, 0); /* nothing of a bad episode is emitted */
	lines_free(&l);
}

static void test_damaged_edh_names_the_file_and_field(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("import-bad");
	json_error_t je;
	json_t *good = json_load_file(EP_SEEN, 0, &je);
	assert_non_null(good);
	json_t *its = json_object_get(good, "interactions");

	json_t *j = json_deep_copy(good);
	json_object_set_new(json_array_get(json_object_get(j, "interactions"), 3), "time_start",
	                    json_string("soon"));
	char *p = write_tmp(dir, "time.edh0.json", j, NULL);
	expect_teach_error(p, H2EMV_EPARSE, "interactions[3].time_start", "got a string");
	json_decref(j);
	free(p);

	/* find an utterance and break it */
	size_t u = 0;
	while (json_integer_value(json_object_get(json_array_get(its, u), "action_id")) != 100)
		u++;
	j = json_deep_copy(good);
	json_object_set_new(json_array_get(json_object_get(j, "interactions"), u), "utterance",
	                    json_integer(7));
	json_object_del(json_array_get(json_object_get(j, "interactions"), u), "corrected_utterance");
	p = write_tmp(dir, "utt.edh0.json", j, NULL);
	char field[64];
	snprintf(field, sizeof field, "interactions[%zu].utterance", u);
	expect_teach_error(p, H2EMV_EPARSE, field, "expected a string, got an integer");
	json_decref(j);
	free(p);

	j = json_deep_copy(good);
	json_object_set_new(j, "interactions", json_object());
	p = write_tmp(dir, "its.edh0.json", j, NULL);
	expect_teach_error(p, H2EMV_EPARSE, "interactions", "expected an array");
	json_decref(j);
	free(p);

	/* cut in the middle: a syntax error with its line and column */
	size_t len = 0;
	char *text = tu_read_file(EP_SEEN, &len);
	text[len / 2] = 0;
	p = write_tmp(dir, "cut.edh0.json", NULL, text);
	expect_teach_error(p, H2EMV_EPARSE, NULL, "not valid JSON");
	free(text);
	free(p);

	p = write_tmp(dir, "list.edh0.json", NULL, "[1, 2]");
	expect_teach_error(p, H2EMV_EPARSE, NULL, "expected a JSON object");
	free(p);

	p = write_tmp(dir, "missing.edh0.json", NULL, "");
	unlink(p);
	expect_teach_error(p, H2EMV_EIO, NULL, NULL);
	free(p);

	/* a directory without EDH files */
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	char *empty = tu_tmpdir("import-empty");
	assert_int_equal(teach(&l, &st, NULL, empty, 0, 1, &err), H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "no TEACh EDH files"));
	tu_rmrf(empty);
	free(empty);

	json_decref(good);
	tu_rmrf(dir);
	free(dir);
}

static void test_emit_error_stops_the_import(void **state)
{
	(void)state;
	lines l = { .fail_after = 5 };
	imp_stats st;
	h2emv_error err;
	assert_int_equal(teach(&l, &st, NULL, TEACH_DIR, 0, 1, &err), H2EMV_EIO);
	assert_int_equal(st.observations, 5);
	assert_int_equal(l.n, 5);
	lines_free(&l);
}

/* --------------------------------------------------------------- ARMAR -- */

static int armar(lines *out, imp_stats *st, const char *path, h2emv_error *err)
{
	imp_armar_options o = IMP_ARMAR_OPTIONS_INIT;
	o.path = path;
	return imp_armar(st, &o, collect, out, err);
}

#define RAW(ts, act, st, goal, params) \
	"{\"_type\":\"RawDataInstant\",\"timestamp\":\"" ts "\",\"image\":null,\"sound\":null," \
	"\"asr_recognition\":null,\"current_action\":\"" act "\",\"current_action_state\":\"" st "\"," \
	"\"current_action_parameters\":" params ",\"current_goal\":\"" goal "\"," \
	"\"current_goal_state\":\"" st "\"}"
#define SCENE(objs, rels, raw) \
	"{\"_type\":\"SceneGraphInstant\",\"objects\":" objs ",\"relations\":" rels ",\"raw\":" raw "}"

static void test_armar_tree_maps_fields_in_time_order(void **state)
{
	(void)state;
	static const char tree[] =
		"{\"_type\":\"HigherLevelSummary\",\"nl_summary\":\"x\",\"children\":["
		"{\"_type\":\"GoalBasedSummary\",\"events\":[{\"_type\":\"EventBasedSummary\",\"scenes\":["
		SCENE("[]", "[]", RAW("2024-07-12T10:00:02.5", "Say", "Running", "Intro.Say",
		                      "{\"parameters\":{\"text\":\"\\\"Hello <b>you</b>\\\"\"},\"trigger\":\"user speech command->Intro\"}"))
		"," SCENE("[]", "[]", RAW("2024-07-12T10:00:02.6", "Say", "Running", "Intro.Say",
		                         "{\"parameters\":{\"text\":\"\\\"Hello <b>you</b>\\\"\"},\"trigger\":\"user speech command->Intro\"}"))
		"," SCENE("[{\"_type\":\"ObjectNode\",\"obj_class\":\"cup\",\"instance_id\":\"cup_0\",\"state\":null},"
		          "{\"_type\":\"ObjectNode\",\"obj_class\":\"cup\",\"instance_id\":\"cup_0\",\"state\":null},"
		          "{\"_type\":\"ObjectNode\",\"obj_class\":\"table\",\"instance_id\":\"table_0\",\"state\":\"clean\"}]",
		          "[[0, 2, \"on\"]]",
		          RAW("2024-07-12T10:00:01", "LookAtHumanFace", "Succeeded", "Receive.LookAtHumanFace",
		              "{\"parameters\":{\"humanTrackingId\":\"152\"},\"trigger\":\"GUI\"}"))
		"]}]}]}";
	char *dir = tu_tmpdir("import-armar");
	char *p = write_tmp(dir, "tree.json", NULL, tree);
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	if (armar(&l, &st, p, &err))
		fail_msg("%s", err.message);
	assert_int_equal(l.n, 3);
	assert_int_equal(st.reordered, 1);
	/* sorted: the 10:00:01 scene first */
	assert_string_equal(
		l.v[0],
		"{\"t\":\"2024-07-12T10:00:01.000000Z\",\"action\":{\"name\":\"LookAtHumanFace\","
		"\"args\":{\"parameters\":{\"humanTrackingId\":\"152\"},\"trigger\":\"GUI\"},\"status\":\"Succeeded\"},"
		"\"goal\":[\"Receive\",\"LookAtHumanFace\"],\"goal_status\":\"Succeeded\","
		"\"objects\":[{\"id\":\"cup_0\",\"type\":\"cup\"},{\"id\":\"table_0\",\"type\":\"table\",\"state\":\"clean\"}],"
		"\"relations\":[[\"cup_0\",\"table_0\",\"on\"]],\"persons\":[{\"id\":\"human_152\"}]}");
	/* the robot's words once, cleaned; the user who commanded it */
	assert_non_null(strstr(l.v[1], "\"speech\":[{\"speaker\":\"robot\",\"text\":\"Hello you\"}]"));
	assert_non_null(strstr(l.v[1], "\"persons\":[{\"name\":\"user\"}]"));
	assert_null(strstr(l.v[2], "\"speech\""));
	assert_null(strstr(l.v[2], "\"persons\""));
	assert_int_equal(st.utterances, 1);
	ingest_all(&l);
	lines_free(&l);
	free(p);

	/* a bad timestamp names its path in the tree */
	p = write_tmp(dir, "bad.json", NULL,
	              "{\"_type\":\"HigherLevelSummary\",\"children\":[{\"_type\":\"GoalBasedSummary\",\"events\":["
	              SCENE("[]", "[]", RAW("yesterday", "Wave", "Running", "Wave", "{}")) "]}]}");
	assert_int_equal(armar(&l, &st, p, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "children[0].events[0].raw.timestamp");
	assert_non_null(strstr(err.message, p));
	assert_int_equal(l.n, 0);
	free(p);
	p = write_tmp(dir, "status.json", NULL, SCENE("[]", "[]", RAW("2024-07-12T10:00:01", "Wave", "Dancing", "Wave", "{}")));
	assert_int_equal(armar(&l, &st, p, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "raw.current_action_state");
	free(p);
	p = write_tmp(dir, "rel.json", NULL, SCENE("[]", "[[0, 1, \"on\"]]", RAW("2024-07-12T10:00:01", "Wave", "Running", "Wave", "{}")));
	assert_int_equal(armar(&l, &st, p, &err), H2EMV_EPARSE);
	assert_string_equal(err.field, "relations[0]");
	free(p);
	assert_int_equal(armar(&l, &st, H2EMV_TEST_DATA "/no-such-tree.json", &err), H2EMV_EIO);
	tu_rmrf(dir);
	free(dir);
}

static void test_armar_recording_imports_and_ingests(void **state)
{
	(void)state;
	char def[4096];
	snprintf(def, sizeof def, "%s/%s", external_data(), IMP_ARMAR_SUBPATH);
	const char *path = getenv("H2EMV_ARMAR_TREE") ? getenv("H2EMV_ARMAR_TREE") : def;
	if (access(path, R_OK) != 0)
		MISSING_DATA("the ARMAR-7 recording", path);
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;
	if (armar(&l, &st, path, &err))
		fail_msg("%s", err.message);
	assert_true(st.observations >= 4000);
	assert_int_equal(l.n, st.observations);
	assert_true(st.with_persons > 0 && st.utterances > 0 && st.with_objects > 0);
	assert_true(st.actions >= st.observations - st.observations / 10);
	for (size_t i = 1; i < l.n; i++)
		assert_true(line_time(l.v[i]) >= line_time(l.v[i - 1]));
	ingest_all(&l);

	/* a day's window and a limit */
	h2emv_time day = 0;
	assert_int_equal(imp_parse_time(&day, "2024-06-27"), 0);
	imp_armar_options o = IMP_ARMAR_OPTIONS_INIT;
	o.path = path;
	o.from = day;
	o.to = day + DAY;
	lines w = { 0 };
	imp_stats ws;
	assert_int_equal(imp_armar(&ws, &o, collect, &w, &err), H2EMV_OK);
	assert_true(w.n > 0 && w.n < l.n);
	assert_int_equal(ws.skipped, l.n - w.n);
	assert_true(ws.first >= day && ws.last < day + DAY);
	lines_free(&w);
	o.from = o.to = 0;
	o.limit = 10;
	assert_int_equal(imp_armar(&ws, &o, collect, &w, &err), H2EMV_OK);
	assert_int_equal(w.n, 10);
	assert_string_equal(w.v[9], l.v[9]);
	lines_free(&w);
	lines_free(&l);
}

static void test_default_path_comes_from_h2emv_data(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("import-default");
	char *old = getenv("H2EMV_DATA") ? strdup(getenv("H2EMV_DATA")) : NULL;
	char buf[4096];
	lines l = { 0 };
	imp_stats st;
	h2emv_error err;

	/* unset: no built-in default; the error names the variable */
	unsetenv("H2EMV_DATA");
	assert_null(imp_default_path(buf, sizeof buf, IMP_TEACH_SUBDIR));
	assert_int_equal(armar(&l, &st, NULL, &err), H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "H2EMV_DATA"));
	setenv("H2EMV_DATA", "", 1);
	assert_null(imp_default_path(buf, sizeof buf, IMP_TEACH_SUBDIR));

	/* set: the tree is found under it */
	setenv("H2EMV_DATA", dir, 1);
	assert_non_null(imp_default_path(buf, sizeof buf, IMP_ARMAR_SUBPATH));
	assert_non_null(strstr(buf, dir));
	assert_null(imp_default_path(buf, 8, IMP_ARMAR_SUBPATH)); /* does not fit */
	char *sub = tu_fmt("%s/hierarchical-emv", dir);
	assert_int_equal(mkdir(sub, 0777), 0);
	free(sub);
	sub = tu_fmt("%s/hierarchical-emv/armarx_lt_mem", dir);
	assert_int_equal(mkdir(sub, 0777), 0);
	char *p = write_tmp(sub, "2024-07-a7a-summary.tree.json", NULL,
	                    SCENE("[]", "[]", RAW("2024-07-12T10:00:01", "Wave", "Running", "Wave", "{}")));
	if (armar(&l, &st, NULL, &err))
		fail_msg("%s", err.message);
	assert_int_equal(l.n, 1);
	lines_free(&l);
	free(p);
	free(sub);

	/* the command line: no PATH and no H2EMV_DATA is a usage error naming both */
	char *cmd = tu_fmt("env -u H2EMV_DATA %s import teach -q >/dev/null 2>%s/err", H2EMV_CLI, dir);
	int rc = system(cmd);
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 64); /* EXIT_USAGE */
	free(cmd);
	char *errf = tu_fmt("%s/err", dir);
	char *msg = tu_read_file(errf, NULL);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "H2EMV_DATA"));
	assert_non_null(strstr(msg, "pass PATH"));
	free(msg);
	free(errf);

	if (old)
		setenv("H2EMV_DATA", old, 1);
	else
		unsetenv("H2EMV_DATA");
	free(old);
	tu_rmrf(dir);
	free(dir);
}

static void test_parse_time_accepts_the_documented_forms(void **state)
{
	(void)state;
	h2emv_time t;
	char buf[40];
	assert_int_equal(imp_parse_time(&t, "2024-06-26T18:38:20.300034"), 0);
	assert_string_equal(imp_format_time(buf, sizeof buf, t), "2024-06-26T18:38:20.300034Z");
	assert_int_equal(imp_parse_time(&t, "2024-06-26 18:38"), 0);
	assert_string_equal(imp_format_time(buf, sizeof buf, t), "2024-06-26T18:38:00.000000Z");
	assert_int_equal(imp_parse_time(&t, "2024-02-29"), 0);
	assert_int_equal(imp_parse_time(&t, "2023-02-29"), -1);
	assert_int_equal(imp_parse_time(&t, "2024-06-26T25:00"), -1);
	/* one reader for every time (h2emv_time_parse): offsets are converted */
	assert_int_equal(imp_parse_time(&t, "2024-06-26T10:00:00+02:00"), 0);
	assert_string_equal(imp_format_time(buf, sizeof buf, t), "2024-06-26T08:00:00.000000Z");
	assert_int_equal(imp_parse_time(&t, "yesterday"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_teach_fixture_ingests_with_expected_counts),
		cmocka_unit_test(test_teach_held_object_and_goal_follow_the_actions),
		cmocka_unit_test(test_teach_dates_are_deterministic_by_seed),
		cmocka_unit_test(test_teach_explicit_starts_place_each_episode),
		cmocka_unit_test(test_damaged_edh_names_the_file_and_field),
		cmocka_unit_test(test_emit_error_stops_the_import),
		cmocka_unit_test(test_armar_tree_maps_fields_in_time_order),
		cmocka_unit_test(test_armar_recording_imports_and_ingests),
		cmocka_unit_test(test_default_path_comes_from_h2emv_data),
		cmocka_unit_test(test_parse_time_accepts_the_documented_forms),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
