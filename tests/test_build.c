/*
 * test_build.c — the online builder: segmentation, Algorithms 1 and 2,
 * determinism, and resuming after a kill, through the public API.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/builder/build.h"
#include "h2emv.h"
#include "testutil.h"

#define US 1000000ll
#define DAY (86400ll * US)
/* 2024-09-23T00:00:00Z */
#define T0 (1727049600ll * US)

static h2emv_mem *open_mem(const char *dir)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_open(&m, dir, &o, &err);
	if (rc)
		fail_msg("open %s: %s", dir, err.message);
	return m;
}

/* The structure tests look at the tree as built, with nothing forgotten. */
static h2emv_mem *open_mem_keep(const char *dir)
{
	h2emv_mem *m = open_mem(dir);
	h2emv_config c = H2EMV_CONFIG_INIT;
	c.forgetting = H2EMV_FORGET_NONE;
	h2emv_error err = { 0 };
	if (h2emv_config_set(m, &c, &err))
		fail_msg("config: %s", err.message);
	return m;
}

static void ingest(h2emv_mem *m, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	h2emv_error err = { 0 };
	if (h2emv_ingest(NULL, m, line, strlen(line), &err))
		fail_msg("ingest %s: %s", line, err.message);
}

/* One teach-style task: look, pick up `obj`, place it on `dest`; each
 * step `step` seconds apart, starting at `t` (µs). Returns the end time. */
static int64_t task(h2emv_mem *m, int64_t t, const char *obj, const char *dest, int step)
{
	ingest(m, "{\"t\":%lld,\"action\":{\"name\":\"LookAround\",\"status\":\"succeeded\"},"
	          "\"location\":\"kitchen\",\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}]}",
	       (long long)t, obj, obj);
	t += step * US;
	ingest(m, "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"%s_0\"},"
	          "\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}]}",
	       (long long)t, obj, obj, obj);
	t += step * US;
	ingest(m, "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s_0\","
	          "\"target\":\"%s_0\"},\"status\":\"succeeded\"},\"objects\":[{\"id\":\"%s_0\","
	          "\"type\":\"%s\"}],\"relations\":[{\"from\":\"%s_0\",\"to\":\"%s_0\",\"type\":\"on\"}]}",
	       (long long)t, obj, dest, obj, obj, obj, dest);
	return t;
}

/* A few days of tasks: two sessions a day, several tasks each. */
static void week(h2emv_mem *m, int days)
{
	static const char *objs[] = { "knife", "cup", "plate", "apple", "keys", "wallet" };
	static const char *dests[] = { "countertop", "sink", "table", "shelf" };
	for (int d = 0; d < days; d++)
		for (int s = 0; s < 2; s++) {
			int64_t t = T0 + d * DAY + (8 + 9 * s) * 3600 * US;
			for (int k = 0; k < 4; k++)
				t = task(m, t + 20 * US, objs[(d + s + k) % 6], dests[(d * 3 + k) % 4], 5);
		}
}

static h2emv_build_result build(h2emv_mem *m, uint64_t max_obs, uint64_t every)
{
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	o.max_obs = max_obs;
	o.commit_every = every;
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	int rc = h2emv_build(&r, m, &o, &err);
	if (rc)
		fail_msg("build: %s", err.message);
	return r;
}

/* ----------------------------------------------------------- tree dumps -- */

static void dump_node(FILE *f, h2emv_snap *s, const h2emv_node *n, int depth, int with_versions)
{
	h2emv_ref r = h2emv_node_ref(n);
	fprintf(f, "%*s%llu", depth * 2, "", (unsigned long long)r.id);
	if (with_versions)
		fprintf(f, " v%u", r.version);
	fprintf(f, " L%d k%d %lld-%lld exp %lld: %s\n", h2emv_node_level(n), h2emv_node_kind(n),
	        (long long)h2emv_node_start(n), (long long)h2emv_node_end(n),
	        (long long)h2emv_node_expiry(n), h2emv_node_summary(n, NULL));
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		assert_int_equal(h2emv_node_child(&c, s, n, i, NULL), H2EMV_OK);
		dump_node(f, s, c, depth + 1, with_versions);
	}
}

static char *dump(h2emv_mem *m, int with_versions)
{
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	dump_node(f, s, root, 0, with_versions);
	fclose(f);
	h2emv_snap_close(s);
	return buf;
}

static void assert_check_clean(h2emv_mem *m)
{
	uint64_t n = 99;
	assert_int_equal(h2emv_check(&n, m, NULL, NULL), H2EMV_OK);
	assert_int_equal(n, 0);
}

/* ---------------------------------------------------------------- tests -- */

static void test_goals_close_at_each_interaction_teach(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("build");
	h2emv_mem *m = open_mem(dir);
	int64_t t = task(m, T0 + 8 * 3600 * US, "knife", "countertop", 5);
	build(m, 0, 0);
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, m, 0, NULL), H2EMV_OK);
	const h2emv_node *root, *n;
	assert_int_equal(h2emv_snap_root(&root, s, NULL), H2EMV_OK);
	/* two goals: Pickup closes the first, Place the second; each under a
	 * chain of summaries up to the top level */
	int goals = 0;
	n = root;
	while (h2emv_node_child_count(n) && h2emv_node_level(n) > 3)
		assert_int_equal(h2emv_node_child(&n, s, n, h2emv_node_child_count(n) - 1, NULL), 0);
	assert_int_equal(h2emv_node_kind(n), H2EMV_KIND_GOAL);
	assert_non_null(strstr(h2emv_node_summary(n, NULL), "Goal: Place(object=knife_0, target=countertop_0)"));
	assert_int_equal(h2emv_node_end(n), t);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, s);
	h2emv_snap_close(s);
	char *d = dump(m, 0);
	for (char *p = d; (p = strstr(p, " k3 ")); p++)
		goals++;
	assert_int_equal(goals, 2);
	assert_int_equal(info.build_cursor, 3);
	free(d);
	assert_check_clean(m);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* The level of the lowest common ancestor of two nodes, given paths. */
typedef struct gpath {
	uint64_t ids[32];
	int levels[32];
	int n;
} gpath;

static void collect_goal_paths(h2emv_snap *s, const h2emv_node *n, gpath *cur, gpath *out, int64_t *t,
                               size_t *count)
{
	cur->ids[cur->n] = h2emv_node_ref(n).id;
	cur->levels[cur->n] = h2emv_node_level(n);
	cur->n++;
	if (h2emv_node_kind(n) == H2EMV_KIND_GOAL && h2emv_node_level(n) == 3) {
		out[*count] = *cur;
		t[*count] = h2emv_node_start(n);
		(*count)++;
	} else if (h2emv_node_level(n) > 3) {
		for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
			const h2emv_node *c;
			assert_int_equal(h2emv_node_child(&c, s, n, i, NULL), 0);
			collect_goal_paths(s, c, cur, out, t, count);
		}
	}
	cur->n--;
}

static void test_a_night_is_never_shared_below_the_day_level(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("build");
	h2emv_mem *m = open_mem_keep(dir);
	week(m, 4);
	build(m, 0, 0);
	h2emv_snap *s;
	assert_int_equal(h2emv_snap_open(&s, m, 0, NULL), 0);
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_root(&root, s, NULL), 0);
	static gpath paths[512];
	static int64_t starts[512];
	gpath cur = { 0 };
	size_t n = 0;
	collect_goal_paths(s, root, &cur, paths, starts, &n);
	assert_true(n >= 4 * 2 * 8 - 2);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int day_i = (int)((starts[i] - T0) / DAY), day_j = (int)((starts[j] - T0) / DAY);
			if (day_i == day_j)
				continue;
			int k = 0;
			while (k < paths[i].n && k < paths[j].n && paths[i].ids[k] == paths[j].ids[k])
				k++;
			int lca_level = paths[i].levels[k - 1];
			if (lca_level < DAY_LEVEL)
				fail_msg("goals of day %d and day %d share a level-%d parent", day_i, day_j,
				         lca_level);
		}
	h2emv_snap_close(s);
	assert_check_clean(m);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_policy_calls_per_goal_are_bounded_by_depth(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("build");
	h2emv_mem *m = open_mem(dir);
	week(m, 3);
	h2emv_build_result r = build(m, 0, 0);
	/* 3 days × 2 sessions × 4 tasks × 2 goals (Pickup, Place) */
	uint64_t goals = 3 * 2 * 4 * 2;
	uint64_t depth = TOP_LEVEL - 3 + 1; /* levels above a goal, root included */
	assert_true(r.tokens_build.calls > 0);
	if (r.tokens_build.calls > goals * depth * 3)
		fail_msg("%llu policy calls for %llu goals (bound %llu)",
		         (unsigned long long)r.tokens_build.calls, (unsigned long long)goals,
		         (unsigned long long)(goals * depth * 3));
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

/* The builtin sends no prompt: a build counts its decisions but estimates
 * no tokens unless asked (the evaluation asks), and asking changes nothing
 * in the tree. */
static void test_builtin_estimates_build_tokens_only_when_asked(void **state)
{
	(void)state;
	char *a = tu_tmpdir("build"), *b = tu_tmpdir("build");
	h2emv_mem *ma = open_mem(a), *mb = open_mem(b);
	week(ma, 2);
	week(mb, 2);
	h2emv_build_result ra = build(ma, 0, 0);
	assert_true(ra.tokens_build.calls > 0);
	assert_int_equal(ra.tokens_build.prompt, 0);
	assert_int_equal(ra.tokens_build.completion, 0);
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	o.estimate_tokens = 1;
	h2emv_build_result rb = { 0 };
	h2emv_error err = { 0 };
	if (h2emv_build(&rb, mb, &o, &err))
		fail_msg("build: %s", err.message);
	assert_int_equal(rb.tokens_build.calls, ra.tokens_build.calls);
	assert_true(rb.tokens_build.prompt > 0);
	assert_true(rb.tokens_build.completion > 0);
	char *da = dump(ma, 0), *db = dump(mb, 0);
	assert_string_equal(da, db);
	free(da);
	free(db);
	h2emv_mem_close(ma);
	h2emv_mem_close(mb);
	tu_rmrf(a);
	tu_rmrf(b);
	free(a);
	free(b);
}

/* Nodes born in the newest snapshot, at level >= 4, are all on the edge:
 * every older summary keeps its version. */
static void test_only_groups_from_the_first_change_are_resummarized(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("build");
	h2emv_mem *m = open_mem_keep(dir);
	week(m, 3);
	build(m, 0, 0);
	char *before = dump(m, 1);
	/* one more task the next morning */
	task(m, T0 + 3 * DAY + 8 * 3600 * US, "cup", "sink", 5);
	build(m, 0, 0);
	char *after = dump(m, 1);
	/* every L4+ line of `before` whose node ended before the last day is in
	 * `after` unchanged (same id, same version, same text) */
	int kept = 0, lines = 0;
	for (char *p = before; *p;) {
		char *nl = strchr(p, '\n');
		size_t n = (size_t)(nl - p);
		char line[8192];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
		int level = 0;
		long long t_end = 0;
		char *l = strstr(line, " L");
		if (l)
			sscanf(l, " L%d k%*d %*d-%lld", &level, &t_end);
		if (level >= 4 && level < TREE_ROOT_LEVEL && t_end < T0 + 2 * DAY) {
			lines++;
			const char *q = line;
			while (*q == ' ')
				q++;
			kept += strstr(after, q) != NULL;
		}
		p = nl + 1;
	}
	assert_true(lines > 0);
	assert_int_equal(kept, lines);
	free(before);
	free(after);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_the_same_input_gives_the_same_tree(void **state)
{
	(void)state;
	char *a = tu_tmpdir("build"), *b = tu_tmpdir("build");
	h2emv_mem *ma = open_mem(a), *mb = open_mem(b);
	week(ma, 3);
	week(mb, 3);
	build(ma, 0, 0);
	build(mb, 0, 0);
	char *da = dump(ma, 1), *db = dump(mb, 1);
	assert_string_equal(da, db);
	free(da);
	free(db);
	h2emv_mem_close(ma);
	h2emv_mem_close(mb);
	tu_rmrf(a);
	tu_rmrf(b);
	free(a);
	free(b);
}

static void test_building_in_pieces_gives_the_same_tree(void **state)
{
	(void)state;
	char *a = tu_tmpdir("build"), *b = tu_tmpdir("build");
	h2emv_mem *ma = open_mem(a), *mb = open_mem(b);
	week(ma, 3);
	week(mb, 3);
	build(ma, 0, 0);
	/* b: many small builds, reopening the memory between them */
	for (int i = 0; i < 40; i++) {
		build(mb, 7, 3);
		h2emv_mem_close(mb);
		mb = open_mem(b);
	}
	build(mb, 0, 0);
	char *da = dump(ma, 0), *db = dump(mb, 0);
	assert_string_equal(da, db);
	assert_check_clean(mb);
	free(da);
	free(db);
	h2emv_mem_close(ma);
	h2emv_mem_close(mb);
	tu_rmrf(a);
	tu_rmrf(b);
	free(a);
	free(b);
}

static void test_a_killed_build_resumes_to_the_same_tree(void **state)
{
	(void)state;
	char *a = tu_tmpdir("build"), *b = tu_tmpdir("build");
	h2emv_mem *ma = open_mem(a), *mb = open_mem(b);
	week(ma, 4);
	week(mb, 4);
	build(ma, 0, 0);
	h2emv_mem_close(mb);
	srand(7);
	for (int k = 0; k < 12; k++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			h2emv_mem *mc = open_mem(b);
			h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
			o.commit_every = 2;
			h2emv_build(NULL, mc, &o, NULL);
			_exit(0);
		}
		struct timespec ts = { 0, (rand() % 4000) * 1000L };
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	mb = open_mem(b);
	build(mb, 0, 0);
	char *da = dump(ma, 0), *db = dump(mb, 0);
	assert_string_equal(da, db);
	assert_check_clean(mb);
	free(da);
	free(db);
	h2emv_mem_close(ma);
	h2emv_mem_close(mb);
	tu_rmrf(a);
	tu_rmrf(b);
	free(a);
	free(b);
}

/* While another process holds the build lock, a build is refused with
 * EBUSY; once that process is gone, the same handle builds. The child
 * says over a pipe when it holds the lock: no sleep decides the order. */
static void test_a_second_builder_is_refused(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("build");
	h2emv_mem *m = open_mem(dir);
	char path[4200];
	snprintf(path, sizeof path, "%s/build.lock", dir);
	int held[2];
	assert_int_equal(pipe(held), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(120); /* a hang guard: never outlive the test */
		FILE *f = fopen(path, "w");
		char ok = f && flock(fileno(f), LOCK_EX) == 0 ? 'L' : 'E';
		if (write(held[1], &ok, 1) != 1)
			_exit(2);
		for (;;)
			pause(); /* until killed */
	}
	close(held[1]);
	char got = 0;
	assert_int_equal(read(held[0], &got, 1), 1);
	close(held[0]);
	assert_int_equal(got, 'L');
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_build(NULL, m, NULL, &err), H2EMV_EBUSY);
	assert_non_null(strstr(err.message, "another builder"));
	assert_int_equal(kill(pid, SIGKILL), 0);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* the lock died with its holder */
	memset(&err, 0, sizeof err);
	h2emv_build_result br;
	if (h2emv_build(&br, m, NULL, &err) != H2EMV_OK)
		fail_msg("build after the holder died: %s", err.message);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goals_close_at_each_interaction_teach),
		cmocka_unit_test(test_a_night_is_never_shared_below_the_day_level),
		cmocka_unit_test(test_policy_calls_per_goal_are_bounded_by_depth),
		cmocka_unit_test(test_builtin_estimates_build_tokens_only_when_asked),
		cmocka_unit_test(test_only_groups_from_the_first_change_are_resummarized),
		cmocka_unit_test(test_the_same_input_gives_the_same_tree),
		cmocka_unit_test(test_building_in_pieces_gives_the_same_tree),
		cmocka_unit_test(test_a_killed_build_resumes_to_the_same_tree),
		cmocka_unit_test(test_a_second_builder_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
