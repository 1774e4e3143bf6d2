/*
 * test_hashtab.c — the one hash table of the library (engine/hashtab.h)
 * that the snapshot's node cache, the explorer's indexes, the facts merge
 * and the builtin policy's word sets share: lookups across growth, colliding hashes told apart by
 * the caller's keys, emptying by generation (and its wrap-around).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/hashtab.h"

/* Keys live in the caller's array; the table maps a key to its index. */
static int key_is(const void *ctx, uintptr_t val, const void *key)
{
	return ((const uint64_t *)ctx)[val] == *(const uint64_t *)key;
}

static size_t find(const hashtab *t, const uint64_t *keys, uint64_t k, uint32_t h)
{
	const ht_slot *s = ht_find(t, h, key_is, keys, &k);
	return s && ht_used(t, s) ? (size_t)s->val : SIZE_MAX;
}

static void add(hashtab *t, const uint64_t *keys, size_t i, uint32_t h)
{
	assert_int_equal(ht_reserve(t, 1), 0);
	ht_slot *s = ht_find(t, h, key_is, keys, &keys[i]);
	assert_non_null(s);
	assert_false(ht_used(t, s));
	ht_put(t, s, h, i);
}

static void test_empty_table_finds_nothing_and_has_no_slot(void **state)
{
	(void)state;
	hashtab t = { 0 };
	uint64_t keys[1] = { 7 };
	assert_null(ht_find(&t, 7, key_is, keys, &keys[0]));
	ht_clear(&t);
	assert_null(ht_find(&t, 7, key_is, keys, &keys[0]));
	ht_free(&t);
}

static void test_every_key_is_found_after_the_table_grew(void **state)
{
	(void)state;
	enum { N = 5000 };
	static uint64_t keys[N];
	hashtab t = { 0 };
	for (size_t i = 0; i < N; i++) {
		keys[i] = i * 0x9E3779B97F4A7C15ull + 1;
		add(&t, keys, i, (uint32_t)(keys[i] >> 7));
	}
	assert_int_equal(t.n, N);
	assert_true(t.cap >= 2 * N);
	assert_int_equal(t.cap & (t.cap - 1), 0);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(find(&t, keys, keys[i], (uint32_t)(keys[i] >> 7)), i);
	assert_int_equal(find(&t, keys, 12345, 12345 >> 7), SIZE_MAX);
	ht_free(&t);
	assert_null(t.slots);
	assert_int_equal(t.cap, 0);
}

static void test_equal_hashes_are_told_apart_by_the_keys(void **state)
{
	(void)state;
	uint64_t keys[200];
	hashtab t = { 0 };
	for (size_t i = 0; i < 200; i++) {
		keys[i] = 1000 + i;
		add(&t, keys, i, 42); /* one hash for all: one long probe run */
	}
	for (size_t i = 0; i < 200; i++)
		assert_int_equal(find(&t, keys, 1000 + i, 42), i);
	assert_int_equal(find(&t, keys, 999, 42), SIZE_MAX);
	ht_free(&t);
}

static void test_vacant_slot_takes_a_key_known_absent(void **state)
{
	(void)state;
	uint64_t keys[3] = { 1, 2, 3 };
	hashtab t = { 0 };
	assert_int_equal(ht_reserve(&t, 3), 0);
	for (size_t i = 0; i < 3; i++)
		ht_put(&t, ht_vacant(&t, 9), 9, i);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(find(&t, keys, keys[i], 9), i);
	ht_free(&t);
}

static void test_clear_empties_and_keeps_the_slots(void **state)
{
	(void)state;
	uint64_t keys[100];
	hashtab t = { 0 };
	for (size_t i = 0; i < 100; i++) {
		keys[i] = i;
		add(&t, keys, i, (uint32_t)i);
	}
	ht_slot *slots = t.slots;
	size_t cap = t.cap;
	ht_clear(&t);
	assert_int_equal(t.n, 0);
	assert_ptr_equal(t.slots, slots);
	assert_int_equal(t.cap, cap);
	for (size_t i = 0; i < 100; i++)
		assert_int_equal(find(&t, keys, i, (uint32_t)i), SIZE_MAX);
	add(&t, keys, 5, 5);
	assert_int_equal(find(&t, keys, 5, 5), 5);
	assert_int_equal(find(&t, keys, 6, 6), SIZE_MAX);
	ht_free(&t);
}

static void test_clear_after_the_generation_wraps_forgets_old_slots(void **state)
{
	(void)state;
	uint64_t keys[2] = { 10, 11 };
	hashtab t = { 0 };
	add(&t, keys, 0, 10);
	t.gen = UINT32_MAX; /* as after 2^32 - 2 clears: the slot's stamp is old */
	t.slots[10 & (t.cap - 1)].gen = UINT32_MAX;
	assert_int_equal(find(&t, keys, 10, 10), 0);
	ht_clear(&t); /* wraps: the stamps must be wiped, not matched again */
	assert_int_equal(t.gen, 1);
	assert_int_equal(find(&t, keys, 10, 10), SIZE_MAX);
	add(&t, keys, 1, 11);
	assert_int_equal(find(&t, keys, 11, 11), 1);
	ht_free(&t);
}

static void test_reserve_refuses_what_cannot_fit(void **state)
{
	(void)state;
	hashtab t = { 0 };
	assert_int_equal(ht_reserve(&t, SIZE_MAX / 2), -1);
	assert_null(t.slots);
	assert_int_equal(ht_reserve(&t, 1), 0);
	assert_non_null(t.slots);
	ht_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_table_finds_nothing_and_has_no_slot),
		cmocka_unit_test(test_every_key_is_found_after_the_table_grew),
		cmocka_unit_test(test_equal_hashes_are_told_apart_by_the_keys),
		cmocka_unit_test(test_vacant_slot_takes_a_key_known_absent),
		cmocka_unit_test(test_clear_empties_and_keeps_the_slots),
		cmocka_unit_test(test_clear_after_the_generation_wraps_forgets_old_slots),
		cmocka_unit_test(test_reserve_refuses_what_cannot_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
