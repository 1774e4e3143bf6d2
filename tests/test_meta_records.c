/*
 * test_meta_records.c — every value in the meta database goes through the
 * record codec that check, backup and salvage read: a robot profile set and
 * then checked is healthy (it was once stored as raw JSON, and check marked
 * every memory with a profile damaged), a profile an older release stored as
 * JSON text still reads and checks clean, and a value that is not a record
 * is refused on the way in and reported by check when planted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/mem/mem.h" /* mem->env */
#include "engine/engine.h"
#include "h2emv.h"
#include "testutil.h"

static const char obs_line[] = "{\"t\":\"2024-07-13T16:00:00Z\",\"note\":\"parked the cart\"}";

static uint64_t problems(h2emv_mem *mem)
{
	uint64_t n = UINT64_MAX;
	h2emv_error err = { 0 };
	int rc = h2emv_check(&n, mem, NULL, &err);
	if (rc)
		fprintf(stderr, "h2emv_check: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	return n;
}

static int ingest_one(h2emv_mem *mem)
{
	h2emv_error err = { 0 };
	uint64_t seq = 0;
	int rc = h2emv_ingest(&seq, mem, obs_line, strlen(obs_line), &err);
	if (rc)
		fprintf(stderr, "h2emv_ingest: %s\n", err.message);
	return rc;
}

/* The reported bug, end to end through the command line: profile set,
 * check, a write, backup --verify and salvage all go on as on any memory. */
static void test_a_memory_with_a_profile_checks_clean_and_takes_writes(void **state)
{
	(void)state;
	char *dir = tu_tmpdir("meta-cli"), *out = NULL;
	assert_int_equal(tu_run(&out, "%s init -m %s/m 2>&1", H2EMV_CLI, dir), 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s profile -m %s/m set armar7 2>&1", H2EMV_CLI, dir), 0);
	free(out);
	int rc = tu_run(&out, "%s check -m %s/m 2>&1", H2EMV_CLI, dir);
	if (rc)
		fprintf(stderr, "%s", out);
	assert_int_equal(rc, 0);
	free(out);
	assert_int_equal(tu_run(&out, "echo '%s' | %s ingest -m %s/m 2>&1", obs_line, H2EMV_CLI, dir),
	                 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s backup -m %s/m %s/b --verify 2>&1", H2EMV_CLI, dir, dir), 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s salvage %s/m %s/s 2>&1", H2EMV_CLI, dir, dir), 0);
	free(out);
	/* salvage keeps the profile: it is a record it can read, not damage */
	assert_int_equal(tu_run(&out, "%s profile -m %s/s show", H2EMV_CLI, dir), 0);
	assert_non_null(strstr(out, "armar7"));
	free(out);
	assert_int_equal(tu_run(&out, "%s check -m %s/s 2>&1", H2EMV_CLI, dir), 0);
	free(out);
	tu_rmrf(dir);
	free(dir);
}

/* A store from before the codec holds the profile's JSON text as it was. */
static void test_a_profile_stored_as_json_text_by_an_older_release_still_reads(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *mem = tu_mem_tmp("meta-legacy", &dir);
	assert_non_null(mem);
	const char *json = h2emv_profile_builtin("armar7");
	assert_non_null(json);
	assert_int_equal(tu_kv_put_raw(mem->env, ENG_KV_META, "robot_profile", 13, json, strlen(json)),
	                 H2EMV_OK);
	assert_int_equal(problems(mem), 0);
	char *got = NULL;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_profile_get(&got, mem, &err), H2EMV_OK);
	assert_non_null(got);
	assert_string_equal(got, json);
	free(got);
	assert_int_equal(ingest_one(mem), H2EMV_OK);
	/* set again: now it is a record, and reads the same */
	assert_int_equal(h2emv_profile_set(mem, json, strlen(json), &err), H2EMV_OK);
	assert_int_equal(h2emv_profile_get(&got, mem, &err), H2EMV_OK);
	assert_string_equal(got, json);
	free(got);
	assert_int_equal(problems(mem), 0);
	h2emv_mem_close(mem);
	tu_rmrf(dir);
	free(dir);
}

/* Nothing that is not a record gets in through the codec; planted, check
 * names it. The exception for the old profile is that key's JSON only. */
static void test_a_meta_value_that_is_not_a_record_is_refused_and_reported(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *mem = tu_mem_tmp("meta-bad", &dir);
	assert_non_null(mem);
	h2emv_error err = { 0 };
	assert_int_equal(eng_kv_put(mem->env, ENG_KV_META, "robot_profile", 13, "{\"a\":1}", 7, &err),
	                 H2EMV_EINVAL);
	assert_non_null(strstr(err.message, "not a msgpack record"));
	assert_int_equal(problems(mem), 0);
	assert_int_equal(tu_kv_put_raw(mem->env, ENG_KV_META, "other_key", 9, "{\"a\":1}", 7),
	                 H2EMV_OK);
	assert_int_equal(problems(mem), 1);
	assert_int_equal(tu_kv_put_raw(mem->env, ENG_KV_META, "other_key", 9, "\xa1x", 2), H2EMV_OK);
	assert_int_equal(problems(mem), 0);
	/* a profile record whose str is cut short is damage, not a profile */
	assert_int_equal(tu_kv_put_raw(mem->env, ENG_KV_META, "robot_profile", 13, "\xa5{}", 3),
	                 H2EMV_OK);
	assert_int_equal(problems(mem), 1);
	char *got = NULL;
	assert_int_equal(h2emv_profile_get(&got, mem, &err), H2EMV_ECORRUPT);
	assert_null(got);
	h2emv_mem_close(mem);
	tu_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_memory_with_a_profile_checks_clean_and_takes_writes),
		cmocka_unit_test(test_a_profile_stored_as_json_text_by_an_older_release_still_reads),
		cmocka_unit_test(test_a_meta_value_that_is_not_a_record_is_refused_and_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
