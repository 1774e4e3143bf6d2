/*
 * test_edges_serve_upgrade.c — `serve` on a memory whose tree was built
 * before typed facts: a question is answered 409 needs_upgrade with a
 * message naming `h2emv upgrade` (the library's EFORMAT), not 500
 * internal as before, and the server keeps answering (status 200).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "api/mem/mem.h"
#include "api/tree/facts.h"
#include "api/tree/tree.h"
#include "h2emv.h"
#include "serveutil.h"
#include "tests/testutil.h"

/* Monday the knife to the countertop, Alice asking (test_upgrade's story). */
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
};

/* Every node above the scenes rewritten as a build before typed facts
 * wrote it (test_upgrade.c does the same). */
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
		assert_int_equal(facts_payload_encode(&head, open, aux, NULL), H2EMV_OK);
	}
	facts_drop(n);
	n->fx_stale = 0;
	assert_int_equal(tree_set_payload(n, head.data, head.len), H2EMV_OK);
	tree_touch(n);
	eng_buf_free(&head);
}

static void test_an_old_tree_is_answered_409_needs_upgrade(void **state)
{
	(void)state;
	char *dir = NULL;
	h2emv_mem *m = tu_mem_lines("serve-upgrade", story, sizeof story / sizeof *story, &dir);
	assert_non_null(m);
	tree t;
	h2emv_error err = { 0 };
	assert_int_equal(tree_load(&t, m->env, &err), H2EMV_OK);
	strip(&t, t.root, &err);
	assert_int_equal(tree_commit(&t, m->env, NULL, 0, NULL, &err), H2EMV_OK);
	tree_free(&t);
	h2emv_mem_close(m);

	char *extra = tu_fmt("-m '%s'", dir); /* the later -m wins over start()'s */
	server s;
	start(&s, "serve-upgrade", extra);
	char *body = NULL;
	long code = http(&body, &s, "POST", "/v1/ask",
	                 "{\"question\":\"Where did you put the knife?\"}", 43, NULL);
	json_t *v = parse(body);
	const char *ecode = json_string_value(json_object_get(json_object_get(v, "error"), "code"));
	const char *msg = json_string_value(json_object_get(json_object_get(v, "error"), "message"));
	if (code != 409 || !ecode || strcmp(ecode, "needs_upgrade") || !msg ||
	    !strstr(msg, "h2emv upgrade"))
		fail_msg("a question on an old tree: %ld %s", code, body);
	json_decref(v);
	free(body);
	/* the server is fine otherwise */
	json_decref(call(&s, 200, "GET", "/v1/status", NULL));
	assert_int_equal(stop(&s), 0);
	cleanup(&s);
	tu_rmrf(dir);
	free(dir);
	free(extra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_an_old_tree_is_answered_409_needs_upgrade, teardown),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
