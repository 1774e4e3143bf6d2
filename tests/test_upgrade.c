/*
 * test_upgrade.c — a tree built before typed facts (its events and goals
 * carry only their [open, aux] head, its summaries nothing, as the builder
 * wrote them before typed facts; its scenes keep their observations): the
 * builtin policy refuses to answer from it and names `h2emv upgrade`;
 * h2emv_upgrade (after a backup) gives it the facts a fresh build makes,
 * byte for byte, and the answers of a fresh build; a second upgrade does
 * nothing; the CLI does the same with --json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/tree/tree.h"
#include "h2emv.h"
#include "tests/testutil.h"

/* test_emv's household story, as observations: Monday the knife to the
 * countertop (Alice asked), the cup to the sink (Bob there); Wednesday the
 * knife into the drawer. */
static const char *const story[] = {
	"{\"t\":\"2024-09-23T10:03:40Z\",\"goal\":[\"MakeBreakfast\"],\"location\":\"kitchen\","
	"\"persons\":[\"Alice\"],\"speech\":[{\"speaker\":\"Alice\",\"text\":\"Please put the "
	"knife away.\"}],\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}",
	"{\"t\":\"2024-09-23T10:03:55Z\",\"goal\":[\"MakeBreakfast\"],\"action\":{\"name\":"
	"\"Pickup\",\"args\":{\"object\":\"knife_0\"},\"status\":\"succeeded\"},\"location\":"
	"\"kitchen\",\"persons\":[\"Alice\"],\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}",
	"{\"t\":\"2024-09-23T10:04:20Z\",\"goal\":[\"MakeBreakfast\"],\"action\":{\"name\":\"Place\","
	"\"args\":{\"object\":\"knife_0\",\"target\":\"countertop_0\"},\"status\":\"succeeded\"},"
	"\"location\":\"kitchen\",\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}],"
	"\"relations\":[{\"from\":\"knife_0\",\"to\":\"countertop_0\",\"type\":\"on\"}]}",
	"{\"t\":\"2024-09-23T14:10:00Z\",\"goal\":[\"Tidy\"],\"action\":{\"name\":\"Pickup\","
	"\"args\":{\"object\":\"cup_1\"},\"status\":\"succeeded\"},\"location\":\"kitchen\","
	"\"persons\":[\"Bob\"],\"objects\":[{\"id\":\"cup_1\",\"type\":\"cup\"}]}",
	"{\"t\":\"2024-09-23T14:11:00Z\",\"goal\":[\"Tidy\"],\"action\":{\"name\":\"Place\","
	"\"args\":{\"object\":\"cup_1\",\"target\":\"sink_0\"},\"status\":\"succeeded\"},"
	"\"location\":\"kitchen\",\"persons\":[\"Bob\"],\"objects\":[{\"id\":\"cup_1\",\"type\":"
	"\"cup\"},{\"id\":\"plant_0\",\"type\":\"plant\"}]}",
	"{\"t\":\"2024-09-25T09:12:03Z\",\"goal\":[\"Tidy\"],\"action\":{\"name\":\"Pickup\","
	"\"args\":{\"object\":\"knife_0\"},\"status\":\"succeeded\"},\"location\":\"kitchen\","
	"\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}",
	"{\"t\":\"2024-09-25T09:13:00Z\",\"goal\":[\"Tidy\"],\"action\":{\"name\":\"Place\","
	"\"args\":{\"object\":\"knife_0\",\"target\":\"drawer_1\"},\"status\":\"failed\"},"
	"\"location\":\"kitchen\",\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}",
	"{\"t\":\"2024-09-25T09:14:00Z\",\"goal\":[\"Tidy\"],\"action\":{\"name\":\"Place\","
	"\"args\":{\"object\":\"knife_0\",\"target\":\"drawer_1\"},\"status\":\"succeeded\"},"
	"\"location\":\"kitchen\",\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}",
};

/* Questions test_emv asked of the text explorer, and a word of each answer. */
static const struct {
	const char *q, *want;
} asks[] = {
	{ "Where did you put the knife?", "drawer" },
	{ "When did you first put the knife down?", "2024/09/23" },
	{ "What did Alice say?", "Please put the knife away" },
	{ "Who did you meet?", "Bob" },
	{ "Where did you put the cup?", "sink" },
	{ "What did you do on September 25?", "knife" },
	{ "Where did you put the giraffe?", "could not find" },
};
#define N_ASKS (sizeof asks / sizeof *asks)

typedef struct fx {
	char *dir;
	h2emv_mem *m;
	char *fresh[N_ASKS]; /* the answers of the fresh build */
	uint64_t fresh_seq;
} fx;

static int ask(char **out, h2emv_mem *m, const char *q, h2emv_error *err)
{
	h2emv_answer *a = NULL;
	int rc = h2emv_ask(&a, m, q, NULL, err);
	*out = rc ? NULL : strdup(a->text);
	h2emv_answer_free(a);
	return rc;
}

/* Rewrite every node above the scenes as a build before typed facts wrote
 * it, through the builder's working tree and the normal commit. */
static void strip(tree *t, tnode *n, h2emv_error *err)
{
	assert_int_equal(tree_kids(t, n, err), H2EMV_OK);
	for (uint32_t i = 0; i < n->n_kids; i++)
		if (n->kids[i]->kind != H2EMV_KIND_SCENE)
			strip(t, n->kids[i], err);
	if (n->kind == H2EMV_KIND_FORGOTTEN)
		return;
	int open = 0;
	uint64_t aux = 0;
	eng_buf head = { 0 };
	int has_head = n->payload_len && facts_payload_head(n->payload, n->payload_len, &open, &aux);
	if (n->kind == H2EMV_KIND_EVENT || n->kind == H2EMV_KIND_GOAL) {
		assert_true(has_head);
		assert_int_equal(n->payload[0], 0x93); /* the fresh build has facts there */
		assert_int_equal(facts_payload_encode(&head, open, aux, NULL), H2EMV_OK);
	}
	facts_drop(n);
	n->fx_stale = 0;
	assert_int_equal(tree_set_payload(n, head.data, head.len), H2EMV_OK);
	tree_touch(n);
	eng_buf_free(&head);
}

static void make_old(h2emv_mem *m)
{
	tree t;
	h2emv_error err = { 0 };
	assert_int_equal(tree_load(&t, m->env, &err), H2EMV_OK);
	strip(&t, t.root, &err);
	assert_int_equal(tree_commit(&t, m->env, NULL, 0, NULL, &err), H2EMV_OK);
	tree_free(&t);
}

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->m = tu_mem_tmp("upgrade", &f->dir);
	h2emv_error err = { 0 };
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, f->m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(f->m, &c, &err), H2EMV_OK);
	for (size_t i = 0; i < sizeof story / sizeof *story; i++)
		assert_int_equal(h2emv_ingest(NULL, f->m, story[i], strlen(story[i]), &err), H2EMV_OK);
	if (h2emv_build(NULL, f->m, NULL, &err))
		fail_msg("build: %s", err.message);
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, f->m, &err), H2EMV_OK);
	f->fresh_seq = st.last_snapshot;
	for (size_t i = 0; i < N_ASKS; i++) {
		if (ask(&f->fresh[i], f->m, asks[i].q, &err))
			fail_msg("ask '%s': %s", asks[i].q, err.message);
		if (!strstr(f->fresh[i], asks[i].want))
			fail_msg("fresh build: '%s' -> '%s', wanted '%s'", asks[i].q, f->fresh[i],
			         asks[i].want);
	}
	make_old(f->m);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	for (size_t i = 0; i < N_ASKS; i++)
		free(f->fresh[i]);
	tu_close_rm(f->m, f->dir);
	free(f);
	return 0;
}

static int exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

static void assert_refused(h2emv_mem *m)
{
	h2emv_error err = { 0 };
	char *text = NULL;
	assert_int_equal(ask(&text, m, "Where did you put the knife?", &err), H2EMV_EFORMAT);
	assert_null(text);
	assert_non_null(strstr(err.message, "h2emv upgrade"));
}

static void test_an_old_tree_is_refused_then_upgraded_to_the_fresh_answers(void **state)
{
	fx *f = *state;
	assert_refused(f->m);
	char *backup = tu_fmt("%s-backup", f->dir);
	h2emv_upgrade_options o = H2EMV_UPGRADE_OPTIONS_INIT;
	o.backup = backup;
	h2emv_upgrade_result r;
	h2emv_error err = { 0 };
	if (h2emv_upgrade(&r, f->m, &o, &err))
		fail_msg("upgrade: %s", err.message);
	assert_true(r.events >= 6 && r.goals >= 3 && r.summaries >= 1);
	assert_true(r.snapshot > f->fresh_seq + 1);
	assert_true(r.backup_bytes > 0 && exists(backup));
	for (size_t i = 0; i < N_ASKS; i++) {
		char *now = NULL;
		if (ask(&now, f->m, asks[i].q, &err))
			fail_msg("ask '%s': %s", asks[i].q, err.message);
		assert_string_equal(now, f->fresh[i]);
		free(now);
	}
	uint64_t problems = 1;
	assert_int_equal(h2emv_check(&problems, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(problems, 0);
	/* the backup is the memory as it was: still refused */
	h2emv_mem *b = NULL;
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	assert_int_equal(h2emv_mem_open(&b, backup, &oo, &err), H2EMV_OK);
	assert_refused(b);
	h2emv_mem_close(b);
	/* a second upgrade has nothing to do, and copies nothing */
	char *again = tu_fmt("%s-again", f->dir);
	o.backup = again;
	assert_int_equal(h2emv_upgrade(&r, f->m, &o, &err), H2EMV_OK);
	assert_int_equal(r.snapshot, 0);
	assert_int_equal(r.events + r.goals, 0);
	assert_false(exists(again));
	tu_rmrf(backup);
	free(backup);
	free(again);
}

/* The payloads of the upgraded events, goals and summaries are the fresh
 * build's, byte for byte: the same extraction and merging. */
static void compare(h2emv_snap *a, h2emv_snap *b, const h2emv_node *x, const h2emv_node *y,
                    size_t *n)
{
	assert_int_equal(h2emv_node_ref(x).id, h2emv_node_ref(y).id);
	size_t lx = 0, ly = 0;
	const void *px = h2emv_node_payload(x, &lx), *py = h2emv_node_payload(y, &ly);
	if (lx != ly || (lx && memcmp(px, py, lx)))
		fail_msg("node %llu (level %d): payloads differ (%zu and %zu bytes)",
		         (unsigned long long)h2emv_node_ref(x).id, h2emv_node_level(x), lx, ly);
	(*n)++;
	size_t k = h2emv_node_child_count(x);
	assert_int_equal(k, h2emv_node_child_count(y));
	for (size_t i = 0; i < k; i++) {
		const h2emv_node *cx, *cy;
		assert_int_equal(h2emv_node_child(&cx, a, x, i, NULL), H2EMV_OK);
		assert_int_equal(h2emv_node_child(&cy, b, y, i, NULL), H2EMV_OK);
		compare(a, b, cx, cy, n);
	}
}

static void test_upgraded_facts_are_the_builders(void **state)
{
	fx *f = *state;
	h2emv_upgrade_result r;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_upgrade(&r, f->m, NULL, &err), H2EMV_OK);
	assert_int_equal(r.backup_bytes, 0);
	h2emv_snap *a, *b;
	const h2emv_node *ra, *rb;
	assert_int_equal(h2emv_snap_open(&a, f->m, f->fresh_seq, &err), H2EMV_OK);
	assert_int_equal(h2emv_snap_open(&b, f->m, r.snapshot, &err), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&ra, a, &err), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&rb, b, &err), H2EMV_OK);
	size_t n = 0;
	compare(a, b, ra, rb, &n);
	assert_true(n > 10);
	h2emv_snap_close(a);
	h2emv_snap_close(b);
}

static void test_cli_upgrade_backs_up_and_reports(void **state)
{
	fx *f = *state;
	h2emv_mem_close(f->m);
	f->m = NULL;
	char *out = NULL;
	int st = tu_run(&out, "%s ask -m %s 'Where did you put the knife?' 2>&1", H2EMV_CLI, f->dir);
	assert_int_not_equal(st, 0);
	assert_non_null(strstr(out, "h2emv upgrade"));
	free(out);
	assert_int_equal(tu_run(&out, "%s upgrade -m %s --json", H2EMV_CLI, f->dir), 0);
	assert_non_null(strstr(out, "\"upgraded\":true"));
	char *backup = tu_fmt("%s.before-upgrade", f->dir);
	assert_true(exists(backup));
	free(out);
	assert_int_equal(tu_run(&out, "%s ask -m %s 'Where did you put the cup?'", H2EMV_CLI, f->dir),
	                 0);
	assert_non_null(strstr(out, "sink"));
	free(out);
	assert_int_equal(tu_run(&out, "%s upgrade -m %s --no-backup", H2EMV_CLI, f->dir), 0);
	assert_non_null(strstr(out, "nothing to upgrade"));
	free(out);
	tu_rmrf(backup);
	free(backup);
	h2emv_error err = { 0 };
	h2emv_open_options oo = H2EMV_OPEN_OPTIONS_INIT;
	assert_int_equal(h2emv_mem_open(&f->m, f->dir, &oo, &err), H2EMV_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_an_old_tree_is_refused_then_upgraded_to_the_fresh_answers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upgraded_facts_are_the_builders, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_cli_upgrade_backs_up_and_reports, setup,
		                                teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
