/*
 * test_rules.c — the versioned relevance rules: version 0 is the default
 * alone, feedback makes kept versions 1, 2, ..., revert makes a new version
 * equal to an old one, a rewrite that drops an unrelated rule is repaired
 * in place while changes to related rules are accepted, hostile stored
 * bytes are ECORRUPT, bad feedback is EINVAL, and two processes giving
 * feedback at once both get their own version. Fake policies stand in for
 * the model so each rewrite is exactly the one under test.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/mem/mem.h" /* mem->policy, to put a fake policy in; RULE_DEFAULT */
#include "api/rules/rules_codec.h"
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

/* --------------------------------------------------------- fake policy -- */

enum fake_mode {
	FAKE_APPEND = 1, /* old rules + the feedback as a new rule */
	FAKE_SET,        /* exactly `set` */
	FAKE_FAIL,       /* H2EMV_EPARSE */
};

typedef struct fake {
	int mode;
	const char *const *set;
	size_t n_set;
	unsigned sleep_ms;
	size_t calls;
	size_t seen_n; /* old rules given on the last call */
} fake;

static char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		abort();
	return p;
}

static int fake_learn(void *ctx, const pol_rules *old, const char *feedback, pol_rule_list *out,
                      pol_usage *u, h2emv_error *err)
{
	fake *f = ctx;
	f->calls++;
	f->seen_n = old->n;
	if (f->sleep_ms)
		usleep(f->sleep_ms * 1000u);
	if (f->mode == FAKE_FAIL)
		return eng_fail(err, H2EMV_EPARSE, "the fake model said nothing useful");
	size_t n = f->mode == FAKE_APPEND ? old->n + 1 : f->n_set;
	out->items = calloc(n + 1, sizeof *out->items);
	out->n = n;
	for (size_t i = 0; i < n; i++)
		out->items[i] = xstrdup(f->mode == FAKE_SET ? f->set[i]
		                        : i < old->n      ? old->items[i]
		                                          : feedback);
	u->prompt_tokens += 100;
	u->completion_tokens += 20;
	u->calls += 1;
	return H2EMV_OK;
}

typedef struct fx {
	char *dir;
	h2emv_mem *mem;
	h2emv_policy *real; /* the memory's own policy, put back before closing */
	h2emv_policy table;
	fake f;
} fx;

static void fx_open_flags(fx *x, unsigned flags)
{
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | flags;
	h2emv_error e = { 0 };
	int rc = h2emv_mem_open(&x->mem, x->dir, &o, &e);
	if (rc)
		fail_msg("open %s: %d %s", x->dir, rc, e.message);
	x->real = x->mem->policy;
	x->table = (h2emv_policy){ .name = "fake", .ctx = &x->f, .learn = fake_learn };
	x->mem->policy = &x->table;
}

static void fx_open(fx *x)
{
	fx_open_flags(x, 0);
}

static void fx_close(fx *x)
{
	if (!x->mem)
		return;
	x->mem->policy = x->real;
	h2emv_mem_close(x->mem);
	x->mem = NULL;
}

static int fx_setup(void **state)
{
	fx *x = calloc(1, sizeof *x);
	x->dir = tu_tmpdir("rules");
	x->f.mode = FAKE_APPEND;
	fx_open(x);
	*state = x;
	return 0;
}

static int fx_teardown(void **state)
{
	fx *x = *state;
	fx_close(x);
	tu_rmrf(x->dir);
	free(x->dir);
	free(x);
	return 0;
}

/* ------------------------------------------------------------- helpers -- */

static h2emv_rules *feedback_ok(fx *x, const char *text)
{
	h2emv_rules *r = NULL;
	h2emv_error e = { 0 };
	int rc = h2emv_feedback(&r, x->mem, text, &e);
	if (rc)
		fail_msg("feedback '%s': %d %s", text, rc, e.message);
	return r;
}

static h2emv_rules *get_ok(fx *x, uint32_t v)
{
	h2emv_rules *r = NULL;
	h2emv_error e = { 0 };
	int rc = h2emv_rules_get(&r, x->mem, v, &e);
	if (rc)
		fail_msg("get version %u: %d %s", v, rc, e.message);
	return r;
}

static uint32_t current(fx *x)
{
	uint32_t v = 99999;
	assert_int_equal(h2emv_rules_current(&v, x->mem, NULL), H2EMV_OK);
	return v;
}

/* r's items are the default followed by exactly `want`. */
static void assert_rules(const h2emv_rules *r, const char *const *want, size_t n)
{
	if (r->n != n + 1) {
		for (size_t i = 0; i < r->n; i++)
			fprintf(stderr, "  got %zu: %s\n", i, r->items[i]);
		fail_msg("version %u has %zu rules, expected %zu", r->version, r->n, n + 1);
	}
	assert_string_equal(r->items[0], RULE_DEFAULT);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(r->items[i + 1], want[i]);
}

/* Make version 1 hold exactly `rules` (from version 0 nothing can be dropped). */
static void seed(fx *x, const char *const *rules, size_t n)
{
	assert_int_equal(current(x), 0);
	x->f.mode = FAKE_SET;
	x->f.set = rules;
	x->f.n_set = n;
	h2emv_rules *r = feedback_ok(x, "seed the rules");
	assert_rules(r, rules, n);
	assert_int_equal(r->repaired, 0);
	h2emv_rules_free(r);
}

/* Run the CLI; its stdout in *out (malloc'd). Returns the exit status, or
 * -1 when this build's CLI has no `rules`/`feedback` command yet. */
static int run_cli(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int run_cli(char **out, const char *fmt, ...)
{
	char args[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	return tu_run(out, "'%s' %s 2>&1", H2EMV_CLI, args);
}

/* --------------------------------------------------------------- tests -- */

static void test_version_zero_is_the_default_rule_alone(void **state)
{
	fx *x = *state;
	assert_int_equal(current(x), 0);
	h2emv_rules *r = get_ok(x, 0);
	assert_int_equal(r->version, 0);
	assert_int_equal(r->parent, 0);
	assert_int_equal(r->repaired, 0);
	assert_string_equal(r->feedback, "");
	assert_rules(r, NULL, 0);
	h2emv_rules_free(r);

	pol_rule_list l = { 0 };
	uint32_t v = 7;
	assert_int_equal(rules_current_list(&l, &v, x->mem, NULL), H2EMV_OK);
	assert_int_equal(v, 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0], RULE_DEFAULT);
	pol_rule_list_free(&l);

	h2emv_error e = { 0 };
	assert_int_equal(h2emv_rules_get(&r, x->mem, 1, &e), H2EMV_ENOTFOUND);
	assert_non_null(strstr(e.message, "1"));
}

static void test_feedback_makes_versions_that_are_all_kept(void **state)
{
	fx *x = *state;
	const char *fb[] = { "Remember where you put the keys.",
		                 "Remember who rang the doorbell.",
		                 "Remember which plants you watered." };
	int64_t last = 0;
	for (uint32_t k = 0; k < 3; k++) {
		h2emv_rules *r = feedback_ok(x, fb[k]);
		assert_int_equal(r->version, k + 1);
		assert_int_equal(r->parent, k);
		assert_int_equal(x->f.seen_n, k + 1); /* the rules in force, the default first */
		assert_rules(r, fb, k + 1);
		assert_true(r->created >= last && r->created > 0);
		last = r->created;
		assert_int_equal(r->tokens.prompt, 100);
		assert_int_equal(r->tokens.completion, 20);
		assert_int_equal(r->tokens.calls, 1);
		h2emv_rules_free(r);
		assert_int_equal(current(x), k + 1);
	}
	/* every version is still there, as it was made, also after reopening */
	fx_close(x);
	fx_open(x);
	for (uint32_t v = 1; v <= 3; v++) {
		h2emv_rules *r = get_ok(x, v);
		assert_int_equal(r->version, v);
		assert_int_equal(r->parent, v - 1);
		assert_string_equal(r->feedback, fb[v - 1]);
		assert_rules(r, fb, v);
		assert_int_equal(r->tokens.calls, 1);
		h2emv_rules_free(r);
	}
	h2emv_rules *r = get_ok(x, 0);
	assert_int_equal(r->version, 3);
	h2emv_rules_free(r);

	pol_rule_list l = { 0 };
	uint32_t v = 0;
	assert_int_equal(rules_current_list(&l, &v, x->mem, NULL), H2EMV_OK);
	assert_int_equal(v, 3);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.items[0], RULE_DEFAULT);
	assert_string_equal(l.items[3], fb[2]);
	pol_rule_list_free(&l);

	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, x->mem, NULL), H2EMV_OK);
	assert_int_equal(st.rules_versions, 3);
}

static void test_history_lists_every_version(void **state)
{
	fx *x = *state;
	h2emv_rules_free(feedback_ok(x, "Remember where you put the keys."));
	h2emv_rules_free(feedback_ok(x, "Remember who rang the doorbell."));
	fx_close(x); /* the CLI opens the memory itself */
	char *out;
	int rc = run_cli(&out, "rules history -m '%s'", x->dir);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "(the default rule alone)"));
	assert_non_null(strstr(out, "Remember where you put the keys."));
	assert_non_null(strstr(out, "Remember who rang the doorbell."));
	free(out);

	assert_int_equal(run_cli(&out, "rules history --json -m '%s'", x->dir), 0);
	const char *lines[] = {
		"{\"version\":0,\"parent\":0,",
		"{\"version\":1,\"parent\":0,",
		"{\"version\":2,\"parent\":1,",
	};
	char *p = out;
	for (size_t i = 0; i < 3; i++) {
		assert_memory_equal(p, lines[i], strlen(lines[i]));
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	assert_string_equal(p, "");
	assert_non_null(strstr(out, "\"rules\":3}"));
	free(out);

	assert_int_equal(run_cli(&out, "rules list --json -m '%s'", x->dir), 0);
	assert_non_null(strstr(out, "\"version\":2"));
	assert_non_null(strstr(out, "\"items\":["));
	free(out);
	fx_open(x);
}

static void test_diff_shows_removed_added_and_kept_rules(void **state)
{
	fx *x = *state;
	static const char *const v1[] = { "Keep the keys.", "Keep the wallet.", "Keep the phone." };
	seed(x, v1, 3);
	/* version 2: the wallet rule changed (related to the feedback), a new one added */
	static const char *const v2[] = { "Keep the keys.", "Keep the wallet and the purse.",
		                              "Keep the phone.", "Keep the glasses." };
	x->f.set = v2;
	x->f.n_set = 4;
	h2emv_rules_free(feedback_ok(x, "The wallet and purse matter, and glasses."));
	fx_close(x);
	char *out;
	int rc = run_cli(&out, "rules diff 1 -m '%s'", x->dir);
	assert_int_equal(rc, 0);
	char want[2048];
	snprintf(want, sizeof want,
	         "--- version 1\n+++ version 2\n"
	         "  %s\n"
	         "  Keep the keys.\n"
	         "- Keep the wallet.\n"
	         "+ Keep the wallet and the purse.\n"
	         "  Keep the phone.\n"
	         "+ Keep the glasses.\n",
	         RULE_DEFAULT);
	assert_string_equal(out, want);
	free(out);

	assert_int_equal(run_cli(&out, "rules diff 0 1 -m '%s'", x->dir), 0);
	snprintf(want, sizeof want,
	         "--- version 0\n+++ version 1\n  %s\n+ Keep the keys.\n+ Keep the wallet.\n"
	         "+ Keep the phone.\n",
	         RULE_DEFAULT);
	assert_string_equal(out, want);
	free(out);

	assert_int_equal(run_cli(&out, "rules diff 9 -m '%s'", x->dir), 2);
	free(out);
	assert_int_equal(run_cli(&out, "rules diff x -m '%s'", x->dir), 64);
	free(out);
	fx_open(x);
}

static void test_revert_makes_a_new_version_equal_to_the_old(void **state)
{
	fx *x = *state;
	const char *fb[] = { "Remember the keys.", "Remember the doorbell.", "Remember the plants." };
	for (int k = 0; k < 3; k++)
		h2emv_rules_free(feedback_ok(x, fb[k]));
	h2emv_rules *r = NULL;
	h2emv_error e = { 0 };
	assert_int_equal(h2emv_rules_revert(&r, x->mem, 1, &e), H2EMV_OK);
	assert_int_equal(r->version, 4);
	assert_int_equal(r->parent, 3);
	assert_string_equal(r->feedback, "revert to version 1");
	assert_int_equal(r->tokens.calls, 0);
	assert_rules(r, fb, 1);
	h2emv_rules_free(r);
	assert_int_equal(current(x), 4);
	r = get_ok(x, 3); /* the reverted-from version is still there */
	assert_rules(r, fb, 3);
	h2emv_rules_free(r);

	/* reverting to 0 forgets every learned rule; a revert can be reverted */
	assert_int_equal(h2emv_rules_revert(&r, x->mem, 0, &e), H2EMV_OK);
	assert_int_equal(r->version, 5);
	assert_rules(r, NULL, 0);
	h2emv_rules_free(r);
	assert_int_equal(h2emv_rules_revert(&r, x->mem, 3, &e), H2EMV_OK);
	assert_int_equal(r->version, 6);
	assert_rules(r, fb, 3);
	h2emv_rules_free(r);

	assert_int_equal(h2emv_rules_revert(&r, x->mem, 7, &e), H2EMV_ENOTFOUND);
	assert_int_equal(current(x), 6);

	fx_close(x);
	char *out;
	int rc = run_cli(&out, "rules revert 2 -m '%s'", x->dir);
	if (rc != -1) {
		assert_int_equal(rc, 0);
		assert_non_null(strstr(out, "rules version 7"));
	}
	free(out);
	fx_open(x);
	if (rc != -1) {
		r = get_ok(x, 0);
		assert_int_equal(r->version, 7);
		assert_rules(r, fb, 2);
		h2emv_rules_free(r);
	}
}

/* The paper's example rules (appendix "Relevance Learning"), shortened. */
static const char *const R_LAUNDRY = "Always record and retain the exact time when you visit "
                                     "the laundry area.";
static const char *const R_MEDICINE = "Always record and retain the exact time when you see "
                                      "the medicine.";
static const char *const R_ARM = "Always record and retain which arm you use when you unload "
                                 "the dishwasher.";
static const char *const R_DISHWASHER = "For dishwasher tasks: when loading, always record which "
                                        "objects you load; when unloading, which arm you use.";
static const char *const FB_DISHWASHER = "You should always remember which object you load into "
                                         "the dishwasher when you do the task";

static void test_rewrite_dropping_an_unrelated_rule_is_repaired_in_place(void **state)
{
	fx *x = *state;
	const char *const v1[] = { R_LAUNDRY, R_MEDICINE, R_ARM };
	seed(x, v1, 3);
	/* the rewrite merges the dishwasher rule correctly but loses the medicine rule */
	const char *const reply[] = { R_LAUNDRY, R_DISHWASHER };
	x->f.set = reply;
	x->f.n_set = 2;
	h2emv_rules *r = feedback_ok(x, FB_DISHWASHER);
	const char *const want[] = { R_LAUNDRY, R_MEDICINE, R_DISHWASHER };
	assert_rules(r, want, 3);
	assert_int_equal(r->repaired, 1);
	assert_int_equal(r->parent, 1);
	h2emv_rules_free(r);
	r = get_ok(x, 2); /* stored as repaired */
	assert_rules(r, want, 3);
	assert_int_equal(r->repaired, 1);
	h2emv_rules_free(r);

	/* dropping the first rule puts it back first */
	const char *const reply2[] = { R_MEDICINE, R_DISHWASHER };
	x->f.set = reply2;
	r = feedback_ok(x, "Also remember which object you load into the dishwasher.");
	assert_rules(r, want, 3);
	assert_int_equal(r->repaired, 1);
	h2emv_rules_free(r);
}

static void test_rewrite_changing_or_removing_a_related_rule_is_accepted(void **state)
{
	fx *x = *state;
	const char *const v1[] = { R_LAUNDRY, R_MEDICINE, R_ARM };
	seed(x, v1, 3);
	const char *const reply[] = { R_LAUNDRY, R_MEDICINE, R_DISHWASHER };
	x->f.set = reply;
	x->f.n_set = 3;
	h2emv_rules *r = feedback_ok(x, FB_DISHWASHER);
	assert_rules(r, reply, 3);
	assert_int_equal(r->repaired, 0);
	h2emv_rules_free(r);

	/* the feedback is about the medicine: the policy may remove that rule */
	const char *const reply2[] = { R_LAUNDRY, R_DISHWASHER };
	x->f.set = reply2;
	x->f.n_set = 2;
	r = feedback_ok(x, "You no longer need to note when you see the medicine.");
	assert_rules(r, reply2, 2);
	assert_int_equal(r->repaired, 0);
	h2emv_rules_free(r);

	/* a rewording of an unrelated rule is its counterpart, not a drop */
	const char *const reply3[] = { "Record the exact time when you visit the laundry room "
		                           "area.",
		                           R_DISHWASHER };
	x->f.set = reply3;
	r = feedback_ok(x, "Remember which arm you use for the dishwasher.");
	assert_rules(r, reply3, 2);
	assert_int_equal(r->repaired, 0);
	h2emv_rules_free(r);
}

static void test_empty_rewrite_keeps_the_default_and_every_old_rule(void **state)
{
	fx *x = *state;
	const char *const v1[] = { R_LAUNDRY, R_MEDICINE, R_ARM };
	seed(x, v1, 3);
	x->f.n_set = 0;
	h2emv_rules *r = feedback_ok(x, FB_DISHWASHER);
	assert_rules(r, v1, 3);
	assert_int_equal(r->repaired, 1);
	assert_int_equal(r->version, 2);
	h2emv_rules_free(r);

	/* blank rules are no rules */
	const char *const blank[] = { "   ", "\n\t" };
	x->f.set = blank;
	x->f.n_set = 2;
	r = feedback_ok(x, FB_DISHWASHER);
	assert_rules(r, v1, 3);
	h2emv_rules_free(r);

	/* the default alone is a real answer: the rules the feedback is about go,
	 * the others come back */
	const char *const only_default[] = { RULE_DEFAULT };
	x->f.set = only_default;
	x->f.n_set = 1;
	r = feedback_ok(x, "You can forget when you visit the laundry area.");
	const char *const want[] = { R_MEDICINE, R_ARM };
	assert_rules(r, want, 2);
	assert_int_equal(r->repaired, 1);
	h2emv_rules_free(r);
}

static void test_duplicates_and_copies_of_the_default_are_dropped(void **state)
{
	fx *x = *state;
	char reworded[512]; /* the default, lightly reworded by a model */
	snprintf(reworded, sizeof reworded, "%s", RULE_DEFAULT);
	char *comma = strchr(reworded, ',');
	assert_non_null(comma);
	memcpy(comma, ";", 1);
	const char *const reply[] = { RULE_DEFAULT, "Keep the keys.", "  Keep   the keys. ",
		                          reworded, "Keep the\nwallet.", "Keep the keys." };
	x->f.mode = FAKE_SET;
	x->f.set = reply;
	x->f.n_set = 6;
	h2emv_rules *r = feedback_ok(x, "Keys and wallet matter.");
	const char *const want[] = { "Keep the keys.", "Keep the wallet." };
	assert_rules(r, want, 2);
	assert_int_equal(r->repaired, 0);
	h2emv_rules_free(r);
}

static void test_policy_failure_or_bad_reply_stores_nothing(void **state)
{
	fx *x = *state;
	h2emv_rules *r = NULL;
	h2emv_error e = { 0 };
	x->f.mode = FAKE_FAIL;
	assert_int_equal(h2emv_feedback(&r, x->mem, "Remember the keys.", &e), H2EMV_EPARSE);
	assert_null(r);
	const char *const bad[] = { "Keep the \xff keys." };
	x->f.mode = FAKE_SET;
	x->f.set = bad;
	x->f.n_set = 1;
	assert_int_equal(h2emv_feedback(&r, x->mem, "Remember the keys.", &e), H2EMV_EPARSE);
	assert_int_equal(current(x), 0);

	x->table.learn = NULL;
	assert_int_equal(h2emv_feedback(&r, x->mem, "Remember the keys.", &e), H2EMV_EINTERNAL);
	assert_int_equal(current(x), 0);
}

static void test_bad_feedback_is_einval(void **state)
{
	fx *x = *state;
	char big[4098];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	const char *bad[] = { "", "  \n\t ", big, "keys \xff", "over\xc0\xaflong", "cut \xe2\x82",
		                  "surrogate \xed\xa0\x80" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		h2emv_rules *r = NULL;
		h2emv_error e = { 0 };
		assert_int_equal(h2emv_feedback(&r, x->mem, bad[i], &e), H2EMV_EINVAL);
		assert_null(r);
		assert_true(e.message[0] != '\0');
	}
	assert_int_equal(x->f.calls, 0);
	assert_int_equal(current(x), 0);
	h2emv_rules *r = NULL;
	assert_int_equal(h2emv_feedback(&r, x->mem, NULL, NULL), H2EMV_EINVAL);
	big[4096] = '\0'; /* exactly 4 KiB is fine, and UTF-8 beyond ASCII too */
	h2emv_rules_free(feedback_ok(x, big));
	h2emv_rules_free(feedback_ok(x, "Merk dir, wo die Schlüssel liegen \xe2\x9c\x93"));
	assert_int_equal(current(x), 2);
}

static void put_rules_record(fx *x, uint32_t v, const void *body, size_t n)
{
	uint8_t key[4];
	be32(key, v);
	assert_int_equal(tu_kv_put_raw(x->mem->env, ENG_KV_RULES, key, 4, body, n), H2EMV_OK);
}

static void test_hostile_rules_records_are_corrupt_not_a_crash(void **state)
{
	fx *x = *state;
	fx_close(x);
	fx_open_flags(x, H2EMV_OPEN_NOSYNC); /* thousands of small writes follow */
	h2emv_rules_free(feedback_ok(x, "Remember the keys."));
	/* a valid body to mutate: version 1 as stored */
	uint8_t key[4];
	be32(key, 1);
	eng_read *rd;
	eng_buf good = { 0 };
	assert_int_equal(eng_read_begin(&rd, x->mem->env, NULL), H2EMV_OK);
	assert_int_equal(eng_kv_get(&good, rd, ENG_KV_RULES, key, 4, NULL), H2EMV_OK);
	eng_read_end(rd);

	static const struct {
		const char *what;
		const char *bytes;
		size_t n;
	} cases[] = {
		{ "not msgpack", "\xc1\xc1\xc1", 3 },
		{ "empty", "", 0 },
		{ "a map", "\x80", 1 },
		{ "too few fields", "\x93\x02\x01\x00", 4 },
		{ "version differs from key", "\x97\x05\x01\x00\xc2\xa0\x90\x93\x00\x00\x00", 11 },
		{ "parent not below version", "\x97\x02\x02\x00\xc2\xa0\x90\x93\x00\x00\x00", 11 },
		{ "a string where a uint goes", "\x97\xa1x\x01\x00\xc2\xa0\x90\x93\x00\x00\x00", 12 },
		{ "int where bool goes", "\x97\x02\x01\x00\x01\xa0\x90\x93\x00\x00\x00", 11 },
		{ "rule not a string", "\x97\x02\x01\x00\xc2\xa0\x91\x05\x93\x00\x00\x00", 12 },
		{ "rule not UTF-8", "\x97\x02\x01\x00\xc2\xa0\x91\xa2\xff\xfe\x93\x00\x00\x00", 14 },
		{ "rule with NUL", "\x97\x02\x01\x00\xc2\xa0\x91\xa2k\x00\x93\x00\x00\x00", 14 },
		{ "tokens too short", "\x97\x02\x01\x00\xc2\xa0\x90\x92\x00\x00", 10 },
		{ "trailing bytes", "\x97\x02\x01\x00\xc2\xa0\x90\x93\x00\x00\x00\x00", 12 },
		{ "huge array", "\x97\x02\x01\x00\xc2\xa0\xdd\xff\xff\xff\xff\x93\x00\x00\x00", 15 },
		{ "huge string", "\x97\x02\x01\x00\xc2\xdb\x7f\xff\xff\xff\x90\x93\x00\x00\x00", 15 },
	};
	/* the well-formed skeleton used above is accepted, so the cases test what they say */
	put_rules_record(x, 2, "\x97\x02\x01\x00\xc2\xa0\x90\x93\x00\x00\x00", 11);
	h2emv_rules *r = get_ok(x, 2);
	assert_rules(r, NULL, 0);
	h2emv_rules_free(r);

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		put_rules_record(x, 2, cases[i].bytes, cases[i].n);
		h2emv_error e = { 0 };
		r = NULL;
		int rc = h2emv_rules_get(&r, x->mem, 2, &e);
		if (rc != H2EMV_ECORRUPT)
			fail_msg("%s: got %d, expected ECORRUPT", cases[i].what, rc);
		assert_null(r);
		/* the current version is that record too: everything reading it says so */
		assert_int_equal(h2emv_rules_get(&r, x->mem, 0, NULL), H2EMV_ECORRUPT);
		pol_rule_list l = { 0 };
		assert_int_equal(rules_current_list(&l, NULL, x->mem, NULL), H2EMV_ECORRUPT);
		assert_int_equal(h2emv_feedback(&r, x->mem, "Remember the phone.", NULL),
		                 H2EMV_ECORRUPT);
	}

	/* random damage to a real body: ECORRUPT or a valid decode, never a crash */
	uint64_t s = 0x9E3779B97F4A7C15ull;
	uint8_t *buf = malloc(good.len + 8);
	for (int round = 0; round < 3000; round++) {
		memcpy(buf, good.data, good.len);
		size_t n = good.len;
		for (int k = 0; k < 1 + round % 4; k++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			buf[s % n] = (uint8_t)(s >> 24);
		}
		if (round % 5 == 0)
			n = (size_t)(s >> 40) % n;
		put_rules_record(x, 2, buf, n);
		r = NULL;
		int rc = h2emv_rules_get(&r, x->mem, 2, NULL);
		assert_true(rc == H2EMV_OK || rc == H2EMV_ECORRUPT);
		if (rc == H2EMV_OK) {
			assert_int_equal(r->version, 2);
			assert_string_equal(r->items[0], RULE_DEFAULT);
		}
		h2emv_rules_free(r);
	}
	free(buf);
	eng_buf_free(&good);

	/* a damaged pointer in meta */
	assert_int_equal(eng_kv_put(x->mem->env, ENG_KV_META, "rules_current", 13, "\x91\x01", 2,
	                            NULL),
	                 H2EMV_OK);
	uint32_t v;
	assert_int_equal(h2emv_rules_current(&v, x->mem, NULL), H2EMV_ECORRUPT);
}

/* A version written by the hand-made encoder used before msgpack-c's packer
 * (str32, array32, uint32 and int64 where msgpack-c now picks shorter forms)
 * still reads the same, and its re-encoding reads back to the same version. */
static void test_rules_record_from_old_encoder_reads_the_same(void **state)
{
	fx *x = *state;
	static const char old[] =
		"\x97\x02\x01"
		"\xd3\xff\xff\xff\xff\xff\xff\xff\xfb"                  /* created -5 */
		"\xc3"                                                  /* repaired */
		"\xdb\x00\x00\x00\x21" "Remember where the keys are kept."  /* 33 bytes */
		"\xdd\x00\x00\x00\x01"
		"\xdb\x00\x00\x00\x22" "Keys matter: keep where they lie.."
		"\x93\xce\x00\x00\x01\x2c\xcf\x00\x00\x00\x01\x00\x00\x00\x00\x07";
	put_rules_record(x, 2, old, sizeof old - 1);
	h2emv_rules *r = get_ok(x, 2);
	const char *const want[] = { "Keys matter: keep where they lie.." };
	assert_rules(r, want, 1);
	assert_int_equal(r->version, 2);
	assert_int_equal(r->parent, 1);
	assert_int_equal(r->created, -5);
	assert_int_equal(r->repaired, 1);
	assert_string_equal(r->feedback, "Remember where the keys are kept.");
	assert_int_equal(r->tokens.prompt, 300);
	assert_int_equal(r->tokens.completion, 1ull << 32);
	assert_int_equal(r->tokens.calls, 7);

	eng_buf b = { 0 };
	assert_int_equal(rules_encode(&b, r, NULL), H2EMV_OK);
	assert_true(b.len < sizeof old - 1); /* msgpack-c's shorter forms */
	h2emv_rules *again = NULL;
	assert_int_equal(rules_decode(&again, b.data, b.len, 2, NULL), H2EMV_OK);
	assert_rules(again, want, 1);
	assert_int_equal(again->created, -5);
	assert_int_equal(again->repaired, 1);
	assert_string_equal(again->feedback, r->feedback);
	assert_memory_equal(&again->tokens, &r->tokens, sizeof r->tokens);
	h2emv_rules_free(again);
	h2emv_rules_free(r);
	eng_buf_free(&b);
}

static void test_lost_pointer_move_loses_no_version(void **state)
{
	fx *x = *state;
	h2emv_rules_free(feedback_ok(x, "Remember the keys."));
	h2emv_rules_free(feedback_ok(x, "Remember the phone."));
	/* as if the process died after writing version 2 but before moving the pointer */
	uint8_t ptr[10] = { 0x91, 0xcf };
	be64(ptr + 2, 1);
	assert_int_equal(eng_kv_put(x->mem->env, ENG_KV_META, "rules_current", 13, ptr, 10, NULL),
	                 H2EMV_OK);
	assert_int_equal(current(x), 2);
	h2emv_rules *r = feedback_ok(x, "Remember the wallet.");
	assert_int_equal(r->version, 3);
	assert_int_equal(r->parent, 2);
	const char *const want[] = { "Remember the keys.", "Remember the phone.",
		                         "Remember the wallet." };
	assert_rules(r, want, 3);
	h2emv_rules_free(r);
	r = get_ok(x, 2);
	assert_string_equal(r->feedback, "Remember the phone.");
	h2emv_rules_free(r);
}

static void test_read_only_memory_refuses_feedback_before_asking_the_policy(void **state)
{
	fx *x = *state;
	h2emv_rules_free(feedback_ok(x, "Remember the keys."));
	fx_close(x);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_READONLY;
	assert_int_equal(h2emv_mem_open(&x->mem, x->dir, &o, NULL), H2EMV_OK);
	x->real = x->mem->policy;
	x->mem->policy = &x->table;
	x->f.calls = 0;
	h2emv_rules *r = NULL;
	assert_int_equal(h2emv_feedback(&r, x->mem, "Remember the phone.", NULL),
	                 H2EMV_EREADONLY);
	assert_int_equal(h2emv_rules_revert(&r, x->mem, 0, NULL), H2EMV_EREADONLY);
	assert_int_equal(x->f.calls, 0);
	r = get_ok(x, 0); /* reading works */
	assert_int_equal(r->version, 1);
	h2emv_rules_free(r);
}

static void child_default_signals(void)
{
	static const int sigs[] = { SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGSYS, SIGABRT };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], SIG_DFL);
}

/* A child process: wait for the go byte, give one feedback, exit 0 on OK. */
static void child_feedback(const char *dir, int go, const char *text)
{
	child_default_signals();
	char c;
	if (read(go, &c, 1) != 1)
		_exit(3);
	fx x = { 0 };
	x.dir = (char *)dir;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	if (h2emv_mem_open(&x.mem, dir, &o, NULL))
		_exit(4);
	x.real = x.mem->policy;
	x.f.mode = FAKE_APPEND;
	x.f.sleep_ms = 150; /* a slow model: the two learn calls would overlap */
	x.table = (h2emv_policy){ .name = "fake", .ctx = &x.f, .learn = fake_learn };
	x.mem->policy = &x.table;
	h2emv_rules *r = NULL;
	int rc = h2emv_feedback(&r, x.mem, text, NULL);
	h2emv_rules_free(r);
	x.mem->policy = x.real;
	h2emv_mem_close(x.mem);
	_exit(rc == H2EMV_OK ? 0 : 5);
}

static void test_two_processes_giving_feedback_at_once_get_versions_1_and_2(void **state)
{
	fx *x = *state;
	for (int round = 0; round < 3; round++) {
		char texts[2][64];
		snprintf(texts[0], sizeof texts[0], "Remember where the keys are (%d).", round);
		snprintf(texts[1], sizeof texts[1], "Remember who rang the doorbell (%d).", round);
		fx_close(x); /* no LMDB handle across fork */
		int go[2];
		assert_int_equal(pipe(go), 0);
		fflush(NULL);
		pid_t pid[2];
		for (int k = 0; k < 2; k++) {
			pid[k] = fork();
			assert_true(pid[k] >= 0);
			if (pid[k] == 0) {
				close(go[1]);
				child_feedback(x->dir, go[0], texts[k]);
			}
		}
		close(go[0]);
		assert_int_equal(write(go[1], "gg", 2), 2);
		close(go[1]);
		for (int k = 0; k < 2; k++) {
			int st = 0;
			assert_int_equal(waitpid(pid[k], &st, 0), pid[k]);
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
				fail_msg("child %d failed: status %d", k, st);
		}
		fx_open(x);
		uint32_t base = (uint32_t)round * 2;
		assert_int_equal(current(x), base + 2);
		h2emv_rules *a = get_ok(x, base + 1), *b = get_ok(x, base + 2);
		assert_int_equal(a->parent, base);
		assert_int_equal(b->parent, base + 1);
		/* the second learned from the first: both feedbacks are in force */
		assert_int_equal(b->n, a->n + 1);
		int seen[2] = { 0, 0 };
		for (size_t i = 1; i < b->n; i++)
			for (int k = 0; k < 2; k++)
				seen[k] += !strcmp(b->items[i], texts[k]);
		assert_int_equal(seen[0], 1); /* duplicates are dropped, so once each */
		assert_int_equal(seen[1], 1);
		h2emv_rules_free(a);
		h2emv_rules_free(b);
	}
}

static void test_builtin_policy_learns_a_rule_from_feedback(void **state)
{
	fx *x = *state;
	x->mem->policy = x->real;
	assert_non_null(x->real->learn);
	h2emv_rules *r = feedback_ok(x, "You should always remember the location to where you "
	                                "transport a knife");
	assert_int_equal(r->version, 1);
	assert_string_equal(r->items[0], RULE_DEFAULT);
	int found = 0;
	for (size_t i = 1; i < r->n; i++) {
		char *low = xstrdup(r->items[i]);
		for (char *p = low; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		found |= strstr(low, "knife") && strstr(low, "transport");
		free(low);
	}
	if (!found)
		fail_msg("no rule mentions knife and transport (%zu rules)", r->n);
	assert_true(r->tokens.calls >= 1);
	h2emv_rules_free(r);

	/* a second, unrelated feedback keeps the knife rule */
	r = feedback_ok(x, "Remember which arm you use when you unload the dishwasher");
	found = 0;
	for (size_t i = 1; i < r->n; i++)
		found |= strstr(r->items[i], "knife") != NULL;
	assert_true(found);
	h2emv_rules_free(r);
	x->mem->policy = &x->table;
}

/* Small talk is refused whatever the policy, before the policy is asked;
 * the builtin policy refuses every text that says nothing to remember or
 * forget. No version is made either way; a real rule still is. */
static void test_feedback_that_is_not_a_rule_is_refused(void **state)
{
	fx *x = *state;
	static const char *const talk[] = { "hello there", "Hello robot, how are you?",
		                                 "Thanks a lot!", "Good night" };
	for (size_t i = 0; i < sizeof talk / sizeof *talk; i++) {
		h2emv_rules *r = NULL;
		h2emv_error e = { 0 };
		assert_int_equal(h2emv_feedback(&r, x->mem, talk[i], &e), H2EMV_EINVAL);
		assert_null(r);
		assert_non_null(strstr(e.message, "not a rule"));
		assert_non_null(strstr(e.message, "You should always remember"));
	}
	assert_int_equal(x->f.calls, 0);
	x->mem->policy = x->real;
	static const char *const not_rules[] = { "hello there", "The weather is nice today.",
		                                     "Always remember.", "Do you remember the keys?",
		                                     "Where did you put the keys?" };
	for (size_t i = 0; i < sizeof not_rules / sizeof *not_rules; i++) {
		h2emv_rules *r = NULL;
		h2emv_error e = { 0 };
		int rc = h2emv_feedback(&r, x->mem, not_rules[i], &e);
		if (rc != H2EMV_EINVAL)
			fail_msg("'%s' gave %d, not EINVAL", not_rules[i], rc);
		assert_null(r);
		assert_non_null(strstr(e.message, "not a rule"));
	}
	assert_int_equal(current(x), 0);
	static const char *const rules[] = {
		"You should always remember the location to where you transport a knife",
		"always remember where you put the keys", "Hi robot, remember who you met.",
		"Can you remember which cup you fill?", "The wallet and purse matter.",
		"Forget about the hallway", "Don't remember what you saw outside",
		/* (what to keep named by a wh-word or "something" alone) */
		"You should always remember who visited and what they said.",
		"Please always remember when something could not be done.",
	};
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
		h2emv_rules_free(feedback_ok(x, rules[i]));
	assert_int_equal(current(x), sizeof rules / sizeof *rules);
	h2emv_rules *r = get_ok(x, 3);
	assert_string_equal(r->items[r->n - 1], "Always remember who you met.");
	h2emv_rules_free(r);
	x->mem->policy = &x->table;
}

static void test_feedback_cli_prints_the_new_version_and_marks(void **state)
{
	fx *x = *state;
	const char *const v1[] = { R_LAUNDRY, R_MEDICINE, R_ARM };
	seed(x, v1, 3);
	fx_close(x);
	char *out;
	/* the CLI runs the builtin policy: only check what is policy-independent */
	int rc = run_cli(&out, "feedback -m '%s' Remember where you put the keys", x->dir);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "rules version 2 (from version 1):"));
	assert_non_null(strstr(out, R_LAUNDRY));
	assert_non_null(strstr(out, R_MEDICINE));
	free(out);
	assert_int_equal(run_cli(&out, "feedback -m '%s'", x->dir), 64);
	free(out);
	assert_int_equal(run_cli(&out, "feedback -m '%s' ''", x->dir), 2);
	free(out);
	/* not a rule: exit 2, a message saying so, no new version */
	assert_int_equal(run_cli(&out, "feedback -m '%s' hello there", x->dir), 2);
	assert_non_null(strstr(out, "not a rule"));
	free(out);
	fx_open(x);
	assert_int_equal(current(x), 2);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_version_zero_is_the_default_rule_alone),
		T(test_feedback_makes_versions_that_are_all_kept),
		T(test_history_lists_every_version),
		T(test_diff_shows_removed_added_and_kept_rules),
		T(test_revert_makes_a_new_version_equal_to_the_old),
		T(test_rewrite_dropping_an_unrelated_rule_is_repaired_in_place),
		T(test_rewrite_changing_or_removing_a_related_rule_is_accepted),
		T(test_empty_rewrite_keeps_the_default_and_every_old_rule),
		T(test_duplicates_and_copies_of_the_default_are_dropped),
		T(test_policy_failure_or_bad_reply_stores_nothing),
		T(test_bad_feedback_is_einval),
		T(test_hostile_rules_records_are_corrupt_not_a_crash),
		T(test_rules_record_from_old_encoder_reads_the_same),
		T(test_lost_pointer_move_loses_no_version),
		T(test_read_only_memory_refuses_feedback_before_asking_the_policy),
		T(test_two_processes_giving_feedback_at_once_get_versions_1_and_2),
		T(test_builtin_policy_learns_a_rule_from_feedback),
		T(test_feedback_that_is_not_a_rule_is_refused),
		T(test_feedback_cli_prints_the_new_version_and_marks),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
