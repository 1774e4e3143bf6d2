/*
 * test_cli_json.c — every `--json` output of the command line is valid
 * JSON with its members in the documented order, whatever the names and
 * texts in it hold: quotes, backslashes, newlines, control characters,
 * non-ASCII, and bytes that are not UTF-8 (written as U+FFFD). Each
 * command runs as a user would run it, on a small memory built with the
 * CLI (the tests run in order on it); a damaged copy gives check and
 * salvage something to report.
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

#include "fakellm.h"
#include "h2emv.h"
#include "testutil.h"

/* A name and texts no printf-built JSON survives. */
#define ODD "q\"uote \\ back\nnew\ttab \x01 caf\xc3\xa9 \xe2\x80\xa8"
#define NOT_UTF8 "bad \xff byte"
#define NOT_UTF8_JSON "bad \xef\xbf\xbd byte" /* U+FFFD in its place */

static char *dir, *mem;

/* Single-quote s for sh (a ' becomes '\''). */
static char *sq(const char *s)
{
	char *q = malloc(4 * strlen(s) + 3), *o = q;
	assert_non_null(q);
	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *s;
		}
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

/* Run `h2emv ARGS` (a printf format; the caller quotes), check its exit
 * status and return its standard output (malloc'd). */
static char *cli(int want_rc, const char *fmt, ...)
{
	char *args = NULL;
	va_list ap;
	va_start(ap, fmt);
	assert_true(vasprintf(&args, fmt, ap) >= 0);
	va_end(ap);
	char *path = tu_fmt("%s/out.txt", dir), *ignored;
	int rc = tu_run(&ignored, "%s %s > %s 2>%s/err.txt", H2EMV_CLI, args, path, dir);
	free(ignored);
	char *out = tu_read_file(path, NULL);
	assert_non_null(out);
	if (rc != want_rc) {
		char *err = tu_read_file(tu_fmt("%s/err.txt", dir), NULL); /* leaks: failing */
		fprintf(stderr, "h2emv %s: exit %d, not %d\nstdout: %s\nstderr: %s\n", args, rc,
		        want_rc, out, err ? err : "");
		fail();
	}
	free(args);
	free(path);
	return out;
}

/* The lines of a JSON Lines text, each parsed strictly; *n gets the count. */
static json_t **lines(const char *text, size_t *n)
{
	json_t **v = NULL;
	*n = 0;
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		assert_non_null(nl); /* every line ends */
		json_error_t e;
		json_t *j = json_loadb(l, (size_t)(nl - l), JSON_REJECT_DUPLICATES, &e);
		if (!j) {
			fprintf(stderr, "not JSON (%s): %.*s\n", e.text, (int)(nl - l), l);
			fail();
		}
		v = realloc(v, (*n + 1) * sizeof *v);
		assert_non_null(v);
		v[(*n)++] = j;
		l = nl + 1;
	}
	return v;
}

/* The one JSON line of a text. */
static json_t *one(char *text)
{
	size_t n;
	json_t **v = lines(text, &n);
	assert_int_equal(n, 1);
	json_t *j = v[0];
	free(v);
	free(text);
	return j;
}

static void free_lines(json_t **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_decref(v[i]);
	free(v);
}

/* o is an object whose members are exactly `keys` (space-separated), in
 * that order. */
static void keys(const json_t *o, const char *keys)
{
	assert_true(json_is_object(o));
	char *want = strdup(keys), *save = NULL;
	assert_non_null(want);
	void *it = json_object_iter((json_t *)o);
	for (char *k = strtok_r(want, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
		if (!it || strcmp(json_object_iter_key(it), k)) {
			fprintf(stderr, "expected member '%s', found '%s' in %s\n", k,
			        it ? json_object_iter_key(it) : "(end)", json_dumps(o, JSON_COMPACT));
			fail();
		}
		it = json_object_iter_next((json_t *)o, it);
	}
	if (it) {
		fprintf(stderr, "unexpected member '%s'\n", json_object_iter_key(it));
		fail();
	}
	free(want);
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	assert_non_null(s);
	return s;
}

static json_int_t num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static const char *day =
	"{\"t\":\"2024-09-23T08:30:00Z\",\"speech\":{\"speaker\":\"Alice\",\"text\":\"Good "
	"morning.\"},\"persons\":[{\"name\":\"Alice\"}],\"location\":\"kitchen\"}\n"
	"{\"t\":\"2024-09-23T08:30:20Z\",\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":"
	"\"knife_0\"},\"status\":\"succeeded\"},\"goal\":[\"Tidy\",\"Pickup\"],\"location\":"
	"\"kitchen\",\"objects\":[{\"id\":\"knife_0\",\"type\":\"knife\"}]}\n"
	"{\"t\":\"2024-09-23T08:30:40Z\",\"action\":{\"name\":\"Place\",\"args\":{\"object\":"
	"\"knife_0\",\"target\":\"drawer_0\"},\"status\":\"succeeded\"},\"goal\":[\"Tidy\","
	"\"Place\"],\"location\":\"kitchen\",\"relations\":[{\"from\":\"knife_0\",\"to\":"
	"\"drawer_0\",\"type\":\"in\"}]}\n"
	"{\"t\":\"2024-09-23T17:45:00Z\",\"action\":{\"name\":\"WaterPlant\",\"args\":{\"plant\":"
	"\"plant_0\"},\"status\":\"succeeded\"},\"goal\":[\"Garden\",\"WaterPlant\"],"
	"\"location\":\"living room\"}\n";

/* Observations with ids, in a file whose name is odd: the ack names it. */
static const char *with_ids =
	"{\"t\":\"2024-09-24T09:00:00Z\",\"id\":\"a1\",\"note\":\"" "q\\\" \\\\ \\n \\u0001 "
	"caf\\u00e9\"}\n"
	"{\"t\":\"2024-09-24T09:00:10Z\",\"id\":\"a2\",\"location\":\"hall\"}\n";

static int setup(void **state)
{
	(void)state;
	dir = tu_tmpdir("clijson");
	mem = tu_fmt("%s/mem", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmrf(dir);
	free(dir);
	free(mem);
	return 0;
}

static const char *const SUMMARY = "stored bad blank first_seq last_seq out_of_order duplicates "
                                   "dry_run";
static const char *const ACK = "file line stored first_seq last_seq duplicates dup";
static const char *const RULES = "version parent created repaired feedback tokens";

static void test_ingest_acks_name_any_file_and_count_as_before(void **state)
{
	(void)state;
	char *in = tu_fmt("%s/day.jsonl", dir);
	write_file(in, day);
	json_t *s = one(cli(0, "ingest --create -m %s --json %s", mem, in));
	keys(s, SUMMARY);
	assert_int_equal(num(s, "stored"), 4);
	assert_int_equal(num(s, "first_seq"), 1);
	assert_true(json_is_false(json_object_get(s, "dry_run")));
	json_decref(s);

	for (int round = 0; round < 2; round++) {
		char *odd = tu_fmt("%s/%s.jsonl", dir, round ? NOT_UTF8 : ODD);
		write_file(odd, with_ids);
		char *q = sq(odd);
		size_t n;
		char *text = cli(0, "ingest -m %s --ack --json %s", mem, q);
		json_t **v = lines(text, &n);
		assert_int_equal(n, 2); /* one ack, then the summary */
		keys(v[0], ACK);
		char *want = tu_fmt("%s/%s.jsonl", dir, round ? NOT_UTF8_JSON : ODD);
		assert_string_equal(str(v[0], "file"), want);
		assert_int_equal(num(v[0], "line"), 2);
		json_t *dup = json_object_get(v[0], "dup");
		if (round == 0) {
			assert_int_equal(num(v[0], "stored"), 2);
			assert_int_equal(json_array_size(dup), 0);
		} else { /* the same ids again: both are duplicates, with their seqs */
			assert_int_equal(num(v[0], "stored"), 0);
			assert_int_equal(num(v[0], "duplicates"), 2);
			assert_int_equal(json_array_size(dup), 2);
			keys(json_array_get(dup, 0), "line seq");
			assert_int_equal(num(json_array_get(dup, 1), "line"), 2);
			assert_int_equal(num(json_array_get(dup, 1), "seq"), 6);
		}
		keys(v[1], SUMMARY);
		free_lines(v, n);
		free(text);
		free(want);
		free(q);
		free(odd);
	}
	free(in);
}

static void test_build_stats_gc_and_snapshots_print_their_members(void **state)
{
	(void)state;
	json_t *b = one(cli(0, "build -m %s --json", mem));
	keys(b, "folded snapshots forgotten tree_size build_cursor build_tokens forget_tokens "
	        "skipped_damaged missing");
	assert_int_equal(num(b, "folded"), 6);
	assert_int_equal(num(b, "build_cursor"), 6);
	json_decref(b);

	char *pin = sq("pin " ODD);
	free(cli(0, "snapshots -m %s pin latest %s", mem, pin));
	free(pin);
	pin = sq(NOT_UTF8);
	free(cli(0, "snapshots -m %s pin latest %s", mem, pin));
	free(pin);
	json_t *s = one(cli(0, "snapshots -m %s --json", mem));
	keys(s, "seq created t_now build_cursor nodes rules_version root pins");
	json_t *root = json_object_get(s, "root"), *pins = json_object_get(s, "pins");
	assert_int_equal(json_array_size(root), 2);
	assert_true(json_is_integer(json_array_get(root, 0)));
	assert_int_equal(json_array_size(pins), 2);
	const char *p0 = json_string_value(json_array_get(pins, 0));
	const char *p1 = json_string_value(json_array_get(pins, 1));
	assert_true(p0 && p1);
	int bad_first = !strcmp(p0, NOT_UTF8_JSON);
	assert_string_equal(bad_first ? p0 : p1, NOT_UTF8_JSON);
	assert_string_equal(bad_first ? p1 : p0, "pin " ODD);
	json_decref(s);

	json_t *st = one(cli(0, "stats -m %s --json", mem));
	keys(st, "format obs_count obs_last_seq build_cursor node_versions dead_versions snapshots "
	         "last_snapshot pins rules_versions relcache_entries dicts obs_bytes node_bytes "
	         "file_bytes used_bytes map_bytes generation reserve_bytes relcache_bytes retention");
	assert_int_equal(num(st, "obs_count"), 6);
	keys(json_object_get(st, "retention"), "live window unbuilt unreadable reclaimable "
	                                      "reclaimable_bytes cache_entries cache_collectable");
	json_decref(st);

	json_t *g = one(cli(0, "gc -m %s --json", mem));
	keys(g, "snapshots_dropped versions_deleted batches obs_reclaimed obs_bytes_reclaimed "
	        "cache_collected");
	json_decref(g);

	char *text = cli(0, "check -m %s --json", mem);
	assert_string_equal(text, ""); /* no problems: no lines */
	free(text);

	json_t *doc = one(cli(0, "inspect -m %s --json", mem));
	assert_string_equal(str(doc, "format"), "h2emv-export/1");
	json_decref(doc);
}

static void test_rules_ask_say_and_forget_keep_odd_text_intact(void **state)
{
	(void)state;
	/* the marker is what test_check_and_salvage_... damages */
	const char *fb = "Remember where you put the knife (damage-target-" "7f3a9c), " ODD;
	char *q = sq(fb);
	free(cli(0, "feedback -m %s %s", mem, q));
	free(q);

	json_t *l = one(cli(0, "rules list -m %s --json", mem));
	keys(l, "version parent created repaired feedback tokens items");
	assert_int_equal(num(l, "version"), 1);
	assert_string_equal(str(l, "feedback"), fb);
	keys(json_object_get(l, "tokens"), "prompt completion calls");
	assert_true(json_array_size(json_object_get(l, "items")) >= 2);
	json_decref(l);

	size_t n;
	char *text = cli(0, "rules history -m %s --json", mem);
	json_t **h = lines(text, &n);
	assert_int_equal(n, 2); /* version 0 (the default rule alone) and 1 */
	char *with_rules = tu_fmt("%s rules", RULES);
	for (size_t i = 0; i < n; i++)
		keys(h[i], with_rules);
	assert_string_equal(str(h[0], "feedback"), "");
	assert_int_equal(num(h[0], "rules"), 1);
	assert_string_equal(str(h[1], "feedback"), fb);
	free(with_rules);
	free_lines(h, n);
	free(text);

	const char *question = "Where did you put the knife? " ODD;
	q = sq(question);
	json_t *a = one(cli(0, "ask -m %s --json --trace %s", mem, q));
	keys(a, "question answer evidence forgotten quoted snapshot rounds tokens trace");
	assert_string_equal(str(a, "question"), question);
	json_decref(a);
	free(q);
	q = sq("Where is the knife? " NOT_UTF8);
	a = one(cli(0, "ask -m %s --json %s", mem, q));
	keys(a, "question answer evidence forgotten quoted snapshot rounds tokens");
	assert_string_equal(str(a, "question"), "Where is the knife? " NOT_UTF8_JSON);
	json_decref(a);
	free(q);

	json_t *r = one(cli(0, "say -m %s --json 'Where is the knife?'", mem));
	keys(r, "route text answer tokens");
	assert_string_equal(str(r, "route"), "question");
	json_decref(r);

	json_t *f = one(cli(0, "forget -m %s --dry-run --json --now +60d", mem));
	keys(f, "dry_run now nodes_forgotten tree_size relevance_tokens nodes");
	json_t *nodes = json_object_get(f, "nodes");
	assert_true(json_array_size(nodes) >= 1);
	for (size_t i = 0; i < json_array_size(nodes); i++)
		keys(json_array_get(nodes, i), "id version level kind start end descendants summary");
	json_decref(f);
}

/* A summary's first line is cut to 159 bytes for forget's listing; a cut
 * inside a character made --json fail ("out of memory") and the text
 * print half a character. */
static void test_forget_cuts_a_long_summary_between_characters(void **state)
{
	(void)state;
	char *m2 = tu_fmt("%s/long", dir), *in = tu_fmt("%s/long.jsonl", dir);
	/* "é" (2 bytes) after "plant=": the cut at 159 bytes would fall inside
	 * one for one of the two offsets; try both */
	char name[2][200];
	for (int k = 0; k < 2; k++) {
		size_t o = (size_t)snprintf(name[k], sizeof name[k], "%s", k ? "p" : "");
		while (o + 2 < sizeof name[k] - 1) {
			memcpy(name[k] + o, "\xc3\xa9", 2);
			o += 2;
		}
		name[k][o] = 0;
	}
	FILE *f = fopen(in, "wb");
	assert_non_null(f);
	for (int d = 0; d < 4; d++)
		fprintf(f,
		        "{\"t\":\"2024-09-2%dT17:45:00Z\",\"action\":{\"name\":\"WaterPlant\",\"args\":"
		        "{\"plant\":\"%s\"},\"status\":\"succeeded\"},\"goal\":[\"Garden\",\"Water\"],"
		        "\"location\":\"living room\"}\n"
		        "{\"t\":\"2024-09-2%dT18:45:00Z\",\"action\":{\"name\":\"Sweep\",\"args\":"
		        "{\"room\":\"hall\"},\"status\":\"succeeded\"},\"goal\":[\"Clean\",\"Sweep\"],"
		        "\"location\":\"hall\"}\n",
		        3 + d, name[d % 2], 3 + d);
	assert_int_equal(fclose(f), 0);
	free(cli(0, "ingest --create -q -m %s %s", m2, in));
	free(cli(0, "build -q -m %s", m2));
	/* when the goals (level 3, "Goal: WaterPlant(plant=...)") have expired
	 * (a summary above them tells its outcome in a sentence instead) */
	json_t *j = one(cli(0, "forget -m %s --dry-run --json --now 2024-09-30T00:00:00Z", m2));
	json_t *nodes = json_object_get(j, "nodes");
	int cut_before = 0;
	for (size_t i = 0; i < json_array_size(nodes); i++) {
		const char *s = str(json_array_get(nodes, i), "summary");
		assert_true(strlen(s) <= 159);
		cut_before |= strstr(s, "plant=p\xc3\xa9") != NULL && strlen(s) == 158;
	}
	assert_true(cut_before); /* the test reached a summary cut before a character */
	json_decref(j);
	free(m2);
	free(in);
}

/* Flip a byte in every stored copy of "damage-target-7f3a9c" (the
 * feedback of rules version 1; a small record is stored uncompressed): its
 * checksum fails, which check reports and salvage loses. */
static void damage(const char *d)
{
	char *p = tu_fmt("%s/data.mdb", d);
	size_t n, hits = 0;
	char *file = tu_read_file(p, &n);
	assert_non_null(file);
	const char *needle = "damage-target-" "7f3a9c";
	FILE *f = fopen(p, "r+b");
	assert_non_null(f);
	for (char *at = file; (at = memmem(at, n - (size_t)(at - file), needle, strlen(needle)));
	     at++, hits++) {
		assert_int_equal(fseek(f, (long)(at - file) + 3, SEEK_SET), 0);
		assert_int_equal(fputc(at[3] ^ 0x01, f), at[3] ^ 0x01);
	}
	assert_int_equal(fclose(f), 0);
	assert_true(hits >= 1);
	free(file);
	free(p);
}

static void test_check_and_salvage_report_damage_as_json_lines(void **state)
{
	(void)state;
	char *copy = tu_fmt("%s/damaged", dir), *saved = tu_fmt("%s/saved", dir), *out;
	assert_int_equal(tu_run(&out, "cp -r %s %s", mem, copy), 0);
	free(out);
	damage(copy);
	size_t n;
	char *text = cli(1, "check -m %s --json", copy);
	json_t **v = lines(text, &n);
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++) {
		keys(v[i], "rule db snapshot node other key message");
		assert_int_equal(json_array_size(json_object_get(v[i], "node")), 2);
	}
	free_lines(v, n);
	free(text);

	text = cli(1, "salvage --json %s %s", copy, saved);
	v = lines(text, &n);
	assert_true(n >= 2); /* a loss at least, then the summary */
	for (size_t i = 0; i + 1 < n; i++)
		keys(v[i], "loss db key message");
	keys(v[n - 1], "summary");
	json_t *s = json_object_get(v[n - 1], "summary");
	keys(s, "dbs reader_crashes snapshots_kept newest_snapshot snapshots_dropped pins_dropped "
	        "versions_dropped dead_dropped losses check");
	assert_int_equal(num(s, "losses"), (json_int_t)n - 1);
	assert_string_equal(str(s, "check"), "ok");
	keys(json_object_get(json_object_get(s, "dbs"), "obs"),
	     "copied bad_records bad_pages found_cut_off unreadable");
	free_lines(v, n);
	free(text);
	free(copy);
	free(saved);
}

static void test_config_feedback_forget_compact_and_backup_print_json_too(void **state)
{
	(void)state;
	json_t *c = one(cli(0, "config -m %s --json", mem));
	keys(c, "profile forgetting life_scene_us life_event_us life_goal_us life_summary_us "
	        "event_gap_us rules_in_summaries rules_in_relevance flat qa_rounds qa_tokens "
	        "max_clock_jump_us raw_log_window_us max_size_bytes");
	assert_int_equal(num(c, "life_scene_us"), INT64_C(3600000000));
	json_decref(c);
	c = one(cli(0, "config -m %s --json --max-clock-jump off --max-size 2G", mem));
	assert_true(json_is_null(json_object_get(c, "max_clock_jump_us")));
	assert_int_equal(num(c, "max_size_bytes"), INT64_C(2) << 30);
	json_decref(c);

	json_t *f = one(cli(0, "feedback -m %s --json Always remember the cup", mem));
	keys(f, "version parent repaired items added changed removed tokens");
	assert_int_equal(num(f, "version"), 2);
	assert_int_equal(num(f, "parent"), 1);
	json_t *added = json_object_get(f, "added"), *items = json_object_get(f, "items");
	assert_int_equal(json_array_size(added), 1);
	size_t k = (size_t)json_integer_value(json_array_get(added, 0)); /* 1-based */
	assert_true(k >= 1 && k <= json_array_size(items));
	assert_non_null(strstr(json_string_value(json_array_get(items, k - 1)), "cup"));
	json_decref(f);

	json_t *g = one(cli(0, "forget -m %s --json --now +60d", mem));
	keys(g, "dry_run now nodes_forgotten tree_size relevance_tokens");
	assert_true(json_is_false(json_object_get(g, "dry_run")));
	json_decref(g);

	json_t *k2 = one(cli(0, "compact -m %s --json", mem));
	keys(k2, "before_bytes after_bytes");
	assert_true(num(k2, "after_bytes") > 0);
	json_decref(k2);

	char *dest = tu_fmt("%s/backup " ODD, dir), *q = sq(dest);
	json_t *b = one(cli(0, "backup -m %s --json --verify %s", mem, q));
	keys(b, "dest bytes seconds obs_count obs_last_seq snapshots last_snapshot problems");
	assert_string_equal(str(b, "dest"), dest);
	assert_int_equal(num(b, "problems"), 0);
	assert_true(json_is_real(json_object_get(b, "seconds")));
	json_decref(b);
	free(q);
	free(dest);
}

static void test_llm_ping_json_says_what_the_text_says(void **state)
{
	(void)state;
	fake_llm *srv;
	assert_int_equal(fake_llm_start(&srv), 0);
	char *url = fake_llm_url(srv), *cfg = tu_fmt("%s/llm.json", dir);
	for (int structured = 0; structured < 2; structured++) {
		FILE *f = fopen(cfg, "w");
		assert_non_null(f);
		fprintf(f, "{\"base_url\": \"%s\", \"model\": \"m\", \"retries\": {\"max\": 1}%s}\n",
		        url, structured ? ", \"structured_output\": \"json_schema\"" : "");
		assert_int_equal(fclose(f), 0);
		fake_llm_push(srv, &(fake_resp){ .content = "pong \"q\" \\ caf\xc3\xa9",
		                                 .prompt_tokens = 12, .completion_tokens = 2 });
		if (structured) /* prose where the schema wanted JSON: exit 1 */
			fake_llm_push(srv, &(fake_resp){ .content = "not json" });
		json_t *p = one(cli(structured, "llm ping --json --llm-config %s", cfg));
		keys(p, "base_url model latency_ms prompt_tokens completion_tokens reply structured");
		assert_string_equal(str(p, "base_url"), url);
		assert_string_equal(str(p, "reply"), "pong \"q\" \\ caf\xc3\xa9");
		json_t *st = json_object_get(p, "structured");
		if (structured) {
			keys(st, "mode ok ms error");
			assert_string_equal(str(st, "mode"), "json_schema");
			assert_true(json_is_false(json_object_get(st, "ok")));
			assert_true(strlen(str(st, "error")) > 0);
		} else {
			assert_true(json_is_null(st));
		}
		json_decref(p);
	}
	fake_llm_stop(srv);
	free(url);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ingest_acks_name_any_file_and_count_as_before),
		cmocka_unit_test(test_build_stats_gc_and_snapshots_print_their_members),
		cmocka_unit_test(test_rules_ask_say_and_forget_keep_odd_text_intact),
		cmocka_unit_test(test_forget_cuts_a_long_summary_between_characters),
		cmocka_unit_test(test_check_and_salvage_report_damage_as_json_lines),
		cmocka_unit_test(test_config_feedback_forget_compact_and_backup_print_json_too),
		cmocka_unit_test(test_llm_ping_json_says_what_the_text_says),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
