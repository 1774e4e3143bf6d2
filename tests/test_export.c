/*
 * test_export.c — export (JSON, Graphviz, HTML, JSON Lines) and inspect
 * --json, through the public API and the command line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "api/mem/mem.h" /* the engine env behind a h2emv_mem: a stored pre-fix root */
#include "h2emv.h"
#include "testutil.h"

#define US INT64_C(1000000)
#define DAY (86400 * US)
static const int64_t T0 = INT64_C(1727049600000000); /* 2024-09-23T00:00:00Z */

/* Words a page must survive: a script end tag, a comment opener, markup,
 * quotes, backslashes, non-ASCII. */
#define HOSTILE "</script><script>alert(1)</script> <!-- <b>bold</b> & \\\"q\\\" \\\\ caf\\u00e9"

/* ---------------------------------------------------------------- setup -- */

typedef struct fixture {
	char *dir;     /* the memory */
	h2emv_mem *m;
} fixture;

/* Four days of chores, a snapshot after each, a hostile utterance, a rule
 * learned, then forgetting a month later: placeholders and rules v1. */
static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	f->m = tu_mem_tmp("export", &f->dir);
	if (!f->m)
		return -1;
	h2emv_error err = { 0 };
	for (int day = 0; day < 4; day++) {
		tu_chores(f->m, T0, day);
		if (day == 1)
			tu_ingestf(f->m,
			           "{\"t\":%lld,\"location\":\"kitchen\",\"persons\":[{\"name\":\"Alice\"}],"
			           "\"speech\":[{\"speaker\":\"Alice\",\"text\":\"" HOSTILE "\"}]}",
			           (long long)(T0 + day * DAY + 10 * 3600 * US));
		if (h2emv_build(NULL, f->m, NULL, &err))
			return fprintf(stderr, "build: %s\n", err.message), -1;
		if (day == 2) {
			h2emv_rules *r = NULL;
			if (h2emv_feedback(&r, f->m, "You should always remember where you put the cup", &err))
				return fprintf(stderr, "feedback: %s\n", err.message), -1;
			h2emv_rules_free(r);
		}
	}
	if (h2emv_forget(NULL, f->m, T0 + 40 * DAY, &err))
		return fprintf(stderr, "forget: %s\n", err.message), -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	h2emv_mem_close(f->m);
	tu_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* -------------------------------------------------------------- helpers -- */

typedef struct sink {
	eng_buf b;
	size_t calls, biggest;
	int fail_after; /* fail the call after this many; 0 = never */
} sink;

static int sink_write(void *ctx, const void *data, size_t len)
{
	sink *s = ctx;
	if (s->fail_after && s->calls >= (size_t)s->fail_after)
		return -1;
	s->calls++;
	if (len > s->biggest)
		s->biggest = len;
	return eng_buf_append(&s->b, data, len) ? -1 : 0;
}

/* Export snapshot `seq` with `o` into a NUL-terminated string. */
static char *export_seq(h2emv_mem *m, uint64_t seq, const h2emv_export_options *o)
{
	h2emv_snap *snap;
	h2emv_error err = { 0 };
	assert_int_equal(h2emv_snap_open(&snap, m, seq, &err), H2EMV_OK);
	sink s = { 0 };
	int rc = h2emv_snap_export(snap, sink_write, &s, o, &err);
	if (rc)
		fprintf(stderr, "export: %s\n", err.message);
	assert_int_equal(rc, H2EMV_OK);
	h2emv_snap_close(snap);
	assert_int_equal(eng_buf_append(&s.b, "", 1), 0);
	return (char *)s.b.data;
}

static char *export_text(h2emv_mem *m, const h2emv_export_options *o)
{
	return export_seq(m, H2EMV_SNAP_LATEST, o);
}

static json_t *export_json_seq(h2emv_mem *m, uint64_t seq, const h2emv_export_options *o)
{
	char *text = export_seq(m, seq, o);
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	if (!doc)
		fprintf(stderr, "export is not JSON: %s (line %d)\n", je.text, je.line);
	assert_non_null(doc);
	free(text);
	return doc;
}

static json_t *export_json(h2emv_mem *m, const h2emv_export_options *o)
{
	return export_json_seq(m, H2EMV_SNAP_LATEST, o);
}

/* Nodes of the newest tree, every level, walked through the API. */
static size_t count_nodes(h2emv_snap *snap, const h2emv_node *n)
{
	size_t k = 1;
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		assert_int_equal(h2emv_node_child(&c, snap, n, i, NULL), H2EMV_OK);
		k += count_nodes(snap, c);
	}
	return k;
}

static json_t *node_by_ref(json_t *nodes, const char *ref)
{
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n)
		if (!strcmp(json_string_value(json_object_get(n, "ref")), ref))
			return n;
	return NULL;
}

static size_t occurrences(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		k++;
	return k;
}

/* ---------------------------------------------------------------- json -- */

static void test_json_export_holds_every_node_with_its_facts(void **state)
{
	fixture *f = *state;
	json_t *doc = export_json(f->m, NULL);
	assert_string_equal(json_string_value(json_object_get(doc, "format")), "h2emv-export/1");
	json_t *nodes = json_object_get(doc, "nodes");
	h2emv_snap *snap;
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_open(&snap, f->m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, snap, NULL), H2EMV_OK);
	size_t want = count_nodes(snap, root);
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	h2emv_snap_close(snap);
	assert_int_equal(json_array_size(nodes), want);
	assert_int_equal(json_integer_value(json_object_get(doc, "node_count")), want);
	json_t *s = json_object_get(doc, "snapshot");
	assert_int_equal(json_integer_value(json_object_get(s, "seq")), info.seq);
	assert_int_equal(json_integer_value(json_object_get(s, "t_now_us")), info.t_now);
	size_t i, scenes = 0, places = 0, forgotten = 0;
	json_t *n;
	json_array_foreach(nodes, i, n) {
		char ref[64];
		snprintf(ref, sizeof ref, "%lld:%lld", json_integer_value(json_object_get(n, "id")),
		         json_integer_value(json_object_get(n, "version")));
		assert_string_equal(json_string_value(json_object_get(n, "ref")), ref);
		assert_true(json_integer_value(json_object_get(n, "start_us")) <=
		            json_integer_value(json_object_get(n, "end_us")));
		assert_int_equal(json_is_null(json_object_get(n, "expiry")),
		                 json_is_null(json_object_get(n, "expiry_us")));
		/* every child is exported and names this node as its parent */
		size_t j;
		json_t *c;
		json_array_foreach(json_object_get(n, "children"), j, c) {
			json_t *kid = node_by_ref(nodes, json_string_value(c));
			assert_non_null(kid);
			assert_string_equal(json_string_value(json_object_get(kid, "parent")), ref);
		}
		const char *kind = json_string_value(json_object_get(n, "kind"));
		if (!strcmp(kind, "scene")) {
			scenes++;
			assert_non_null(json_object_get(json_object_get(n, "observation"), "t"));
		}
		if (json_is_true(json_object_get(n, "forgotten"))) {
			forgotten++;
			assert_string_equal(kind, "forgotten");
			assert_int_equal(json_array_size(json_object_get(n, "children")), 0);
			/* a placeholder keeps only its salient gist (forget.c) */
			assert_true(json_array_size(json_object_get(n, "facts")) <= 100);
		}
		json_array_foreach(json_object_get(n, "facts"), j, c) {
			const char *d = json_string_value(json_object_get(c, "destination"));
			if (d && !strcmp(d, "sink_0") &&
			    !strcmp(json_string_value(json_object_get(c, "type")), "action") &&
			    !strcmp(json_string_value(json_object_get(c, "status")), "succeeded"))
				places++;
		}
	}
	assert_true(scenes > 0);
	assert_true(forgotten > 0);
	assert_true(places > 0); /* "put the cup in the sink", decoded from payloads */
	json_decref(doc);
}

static void test_json_export_carries_the_rules_the_snapshot_saw(void **state)
{
	fixture *f = *state;
	json_t *doc = export_json(f->m, NULL);
	json_t *rules = json_object_get(doc, "rules");
	json_int_t v = json_integer_value(json_object_get(json_object_get(doc, "snapshot"),
	                                                  "rules_version"));
	assert_int_equal(json_integer_value(json_object_get(rules, "version")), v);
	assert_true(v >= 1);
	h2emv_rules *r;
	assert_int_equal(h2emv_rules_get(&r, f->m, (uint32_t)v, NULL), H2EMV_OK);
	json_t *items = json_object_get(rules, "items");
	assert_int_equal(json_array_size(items), r->n);
	for (size_t i = 0; i < r->n; i++)
		assert_string_equal(json_string_value(json_array_get(items, i)), r->items[i]);
	assert_string_equal(json_string_value(json_object_get(rules, "feedback")), r->feedback);
	h2emv_rules_free(r);
	json_decref(doc);
	/* snapshot 1 was built before any feedback: the default rule alone */
	h2emv_snap *snap;
	assert_int_equal(h2emv_snap_open(&snap, f->m, 1, NULL), H2EMV_OK);
	sink s = { 0 };
	assert_int_equal(h2emv_snap_export(snap, sink_write, &s, NULL, NULL), H2EMV_OK);
	h2emv_snap_close(snap);
	eng_buf_append(&s.b, "", 1);
	doc = json_loads((char *)s.b.data, 0, NULL);
	assert_non_null(doc);
	rules = json_object_get(doc, "rules");
	assert_int_equal(json_integer_value(json_object_get(rules, "version")), 0);
	assert_int_equal(json_array_size(json_object_get(rules, "items")), 1);
	json_decref(doc);
	eng_buf_free(&s.b);
}

/* The root sits right above the highest summary level: the levels an
 * export (and inspect, the viewer) shows are contiguous, no L15 above L8
 * with 9-14 never there (issue 18, item 6). */
static void test_the_levels_a_tree_shows_are_contiguous(void **state)
{
	fixture *f = *state;
	json_t *doc = export_json(f->m, NULL);
	json_t *nodes = json_object_get(doc, "nodes"), *n;
	int seen[256] = { 0 }, root_level = -1, top_kid = 0;
	size_t i;
	json_array_foreach(nodes, i, n) {
		int level = (int)json_integer_value(json_object_get(n, "level"));
		assert_true(level >= 1 && level < 256);
		seen[level] = 1;
		if (!strcmp(json_string_value(json_object_get(n, "kind")), "root"))
			root_level = level;
		else if (level > top_kid)
			top_kid = level;
	}
	json_decref(doc);
	assert_int_equal(root_level, top_kid + 1);
	for (int l = 1; l <= root_level; l++)
		if (!seen[l])
			fail_msg("level %d is missing between 1 and the root's %d", l, root_level);
}

/* A snapshot written before the fix holds its root at level 15: it is
 * shown one above the top summaries, and the next build stores it so. */
static void test_a_root_stored_at_level_15_reads_as_the_level_above_the_top(void **state)
{
	(void)state;
	char *dir;
	h2emv_mem *m = tu_mem_tmp("oldroot", &dir);
	assert_non_null(m);
	h2emv_error e = { 0 };
	tu_ingestf(m, "{\"t\":%lld,\"note\":\"x\"}", (long long)T0);
	eng_node top = { .id = 2, .version = 1, .level = 8, .kind = H2EMV_KIND_SUMMARY,
		         .t_start = T0, .t_end = T0, .expiry = H2EMV_TIME_NEVER,
		         .summary = "top", .summary_len = 3 };
	eng_ref kid = { 2, 1 };
	eng_node root = { .id = 1, .version = 1, .level = 15, .kind = H2EMV_KIND_ROOT,
		          .t_start = T0, .t_end = T0, .expiry = H2EMV_TIME_NEVER,
		          .summary = "root", .summary_len = 4, .children = &kid, .n_children = 1 };
	eng_node *list[] = { &top, &root };
	eng_commit c = { .nodes = list, .n_nodes = 2, .root = { 1, 1 }, .build_cursor = 0,
		         .next_node_id = 3, .t_now = T0 };
	assert_int_equal(eng_commit_snapshot(NULL, m->env, &c, &e), H2EMV_OK);
	h2emv_snap *snap;
	const h2emv_node *r;
	assert_int_equal(h2emv_snap_open(&snap, m, H2EMV_SNAP_LATEST, &e), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&r, snap, &e), H2EMV_OK);
	assert_int_equal(h2emv_node_level(r), 9);
	h2emv_snap_close(snap);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
}

static void test_export_stops_when_the_writer_fails(void **state)
{
	fixture *f = *state;
	h2emv_snap *snap;
	assert_int_equal(h2emv_snap_open(&snap, f->m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	sink s = { 0 };
	s.fail_after = 1;
	h2emv_error err = { 0 };
	h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
	o.format = H2EMV_EXPORT_HTML;
	assert_int_equal(h2emv_snap_export(snap, sink_write, &s, &o, &err), H2EMV_EIO);
	assert_non_null(strstr(err.message, "writing"));
	/* the writer sees pieces of bounded size, not the whole document */
	sink all = { 0 };
	assert_int_equal(h2emv_snap_export(snap, sink_write, &all, &o, &err), H2EMV_OK);
	assert_true(all.calls > 1);
	assert_true(all.biggest <= (64u << 10));
	o.format = 9;
	assert_int_equal(h2emv_snap_export(snap, sink_write, &s, &o, &err), H2EMV_EINVAL);
	h2emv_snap_close(snap);
	eng_buf_free(&s.b);
	eng_buf_free(&all.b);
}

static void test_subtree_depth_and_min_level_limit_the_export(void **state)
{
	fixture *f = *state;
	h2emv_snap *snap;
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_open(&snap, f->m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, snap, NULL), H2EMV_OK);
	h2emv_ref top = h2emv_node_child_ref(root, 0);
	const h2emv_node *tn;
	assert_int_equal(h2emv_snap_node(&tn, snap, top, NULL), H2EMV_OK);
	size_t kids = h2emv_node_child_count(tn);
	h2emv_snap_close(snap);
	h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
	o.start = top;
	o.max_depth = 1;
	json_t *doc = export_json(f->m, &o);
	assert_int_equal(json_array_size(json_object_get(doc, "nodes")), 1 + kids);
	json_decref(doc);
	o = (h2emv_export_options)H2EMV_EXPORT_OPTIONS_INIT;
	o.min_level = 2;
	doc = export_json(f->m, &o);
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(doc, "nodes"), i, n)
		assert_true(json_integer_value(json_object_get(n, "level")) >= 2);
	json_decref(doc);
	/* a light export: no facts, no observations, and it says so */
	o = (h2emv_export_options)H2EMV_EXPORT_OPTIONS_INIT;
	o.no_facts = 1;
	doc = export_json(f->m, &o);
	assert_true(json_is_false(json_object_get(json_object_get(doc, "scope"), "facts")));
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		assert_null(json_object_get(n, "facts"));
		assert_null(json_object_get(n, "observation"));
		assert_non_null(json_object_get(n, "summary"));
	}
	json_decref(doc);
	/* inspect --json prints the same document for what it shows */
	char *out;
	assert_int_equal(tu_run(&out, "%s inspect -m %s --json --depth 1", H2EMV_CLI, f->dir), 0);
	doc = json_loads(out, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "format")), "h2emv-export/1");
	assert_int_equal(json_array_size(json_object_get(doc, "nodes")),
	                 json_integer_value(json_object_get(doc, "node_count")));
	json_t *first = json_array_get(json_object_get(doc, "nodes"), 0);
	assert_int_equal(json_array_size(json_object_get(doc, "nodes")),
	                 1 + json_array_size(json_object_get(first, "children")));
	json_decref(doc);
	free(out);
}

/* The refs of the tree under `n`, depth first, as the API walks it. */
static void walk_refs(json_t *out, h2emv_snap *snap, const h2emv_node *n)
{
	h2emv_ref r = h2emv_node_ref(n);
	char ref[48];
	snprintf(ref, sizeof ref, "%llu:%u", (unsigned long long)r.id, r.version);
	json_array_append_new(out, json_string(ref));
	for (size_t i = 0; i < h2emv_node_child_count(n); i++) {
		const h2emv_node *c;
		assert_int_equal(h2emv_node_child(&c, snap, n, i, NULL), H2EMV_OK);
		walk_refs(out, snap, c);
	}
}

static void test_a_tree_bigger_than_the_node_cache_exports_whole(void **state)
{
	(void)state;
	/* over 4,096 nodes: the export empties the snapshot's node cache on
	 * the way and must still write every node once, in order */
	char *dir = tu_tmpdir("export-big"), *out;
	int rc = tu_run(&out, "%s sim -n 45 -q -s 3 -o %s/h.jsonl && %s init -m %s/m >/dev/null && "
	                      "%s config -m %s/m --forgetting none >/dev/null && %s ingest -m %s/m -q "
	                      "%s/h.jsonl && %s build -m %s/m -q",
	                H2EMV_CLI, dir, H2EMV_CLI, dir, H2EMV_CLI, dir, H2EMV_CLI, dir, dir,
	                H2EMV_CLI, dir);
	free(out);
	assert_int_equal(rc, 0);
	char *mdir = tu_fmt("%s/m", dir);
	h2emv_mem *m = NULL;
	assert_int_equal(h2emv_mem_open(&m, mdir, NULL, NULL), H2EMV_OK);
	h2emv_snap *snap;
	const h2emv_node *root;
	assert_int_equal(h2emv_snap_open(&snap, m, H2EMV_SNAP_LATEST, NULL), H2EMV_OK);
	assert_int_equal(h2emv_snap_root(&root, snap, NULL), H2EMV_OK);
	json_t *want = json_array();
	walk_refs(want, snap, root);
	h2emv_snap_close(snap);
	assert_true(json_array_size(want) > 4096);
	h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
	o.no_facts = 1;
	json_t *doc = export_json(m, &o);
	json_t *nodes = json_object_get(doc, "nodes");
	assert_int_equal(json_array_size(nodes), json_array_size(want));
	json_t *by_ref = json_object();
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) {
		const char *ref = json_string_value(json_object_get(n, "ref"));
		assert_string_equal(ref, json_string_value(json_array_get(want, i)));
		json_object_set(by_ref, ref, n);
	}
	json_array_foreach(nodes, i, n) {
		size_t j;
		json_t *c;
		json_array_foreach(json_object_get(n, "children"), j, c) {
			json_t *kid = json_object_get(by_ref, json_string_value(c));
			assert_non_null(kid);
			assert_true(json_equal(json_object_get(kid, "parent"), json_object_get(n, "ref")));
		}
	}
	json_decref(by_ref);
	json_decref(doc);
	json_decref(want);
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
	free(mdir);
}

/* ----------------------------------------------------------- dot, html -- */

static void test_dot_export_ranks_levels_and_dashes_placeholders(void **state)
{
	fixture *f = *state;
	json_t *doc = export_json(f->m, NULL);
	h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
	o.format = H2EMV_EXPORT_DOT;
	char *dot = export_text(f->m, &o);
	assert_true(!strncmp(dot, "digraph h2emv {", 15));
	assert_non_null(strstr(dot, "rank=same"));
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		char id[80];
		snprintf(id, sizeof id, "  n%lld_%lld [label=\"L",
		         json_integer_value(json_object_get(n, "id")),
		         json_integer_value(json_object_get(n, "version")));
		const char *decl = strstr(dot, id);
		assert_non_null(decl);
		const char *end = strchr(decl, '\n');
		int dashed = strstr(decl, "dashed") && strstr(decl, "dashed") < end;
		assert_int_equal(dashed, json_is_true(json_object_get(n, "forgotten")));
	}
	/* the hostile words stay inside one quoted label: no raw quote escapes */
	assert_null(strstr(dot, "\"q\""));
	free(dot);
	json_decref(doc);
}

static void test_html_export_survives_script_in_a_summary(void **state)
{
	fixture *f = *state;
	h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
	o.format = H2EMV_EXPORT_HTML;
	/* snapshot 2: day 1 built, the hostile utterance not yet forgotten */
	char *html = export_seq(f->m, 2, &o);
	assert_true(!strncmp(html, "<!DOCTYPE html>", 15));
	/* only the page's own two script elements close, its one comment opens */
	assert_int_equal(occurrences(html, "</script"), 2);
	assert_int_equal(occurrences(html, "<!--"), 1);
	assert_null(strstr(html, "<b>bold"));
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	/* the embedded document is the JSON export, hostile words included */
	const char *open = strstr(html, "id=\"h2emv-data\">");
	assert_non_null(open);
	open = strchr(open, '>') + 1;
	const char *close = strstr(open, "</script>");
	json_t *embedded = json_loadb(open, (size_t)(close - open), 0, NULL);
	assert_non_null(embedded);
	json_t *doc = export_json_seq(f->m, 2, NULL);
	assert_true(json_equal(embedded, doc));
	char *text = json_dumps(doc, 0);
	assert_non_null(strstr(text, "</script><script>alert(1)</script>"));
	free(text);
	json_decref(doc);
	json_decref(embedded);
	free(html);
}

/* --------------------------------------------------------------- jsonl -- */

static void test_jsonl_export_takes_a_time_range_and_reingests(void **state)
{
	fixture *f = *state;
	sink s = { 0 };
	uint64_t n = 0;
	h2emv_error err = { 0 };
	/* day 1: two transports (4), watering, the hostile utterance */
	assert_int_equal(h2emv_obs_export(&n, f->m, T0 + DAY, T0 + 2 * DAY, sink_write, &s, NULL,
	                                  NULL, &err),
	                 H2EMV_OK);
	assert_int_equal(n, 6);
	eng_buf_append(&s.b, "", 1);
	char *dir2;
	h2emv_mem *m2 = tu_mem_tmp("export-re", &dir2);
	assert_non_null(m2);
	size_t lines = 0;
	for (char *line = (char *)s.b.data, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		json_t *o = json_loads(line, 0, NULL);
		assert_non_null(o);
		json_decref(o);
		uint64_t seq;
		assert_int_equal(h2emv_ingest(&seq, m2, line, strlen(line), &err), H2EMV_OK);
		char *back;
		assert_int_equal(h2emv_obs_get_json(&back, NULL, m2, seq, &err), H2EMV_OK);
		assert_string_equal(back, line); /* canonical in, canonical out */
		h2emv_free(back);
		lines++;
	}
	assert_int_equal(lines, 6);
	/* no range: everything stored */
	sink all = { 0 };
	h2emv_stats st;
	assert_int_equal(h2emv_mem_stats(&st, f->m, NULL), H2EMV_OK);
	assert_int_equal(h2emv_obs_export(&n, f->m, 0, 0, sink_write, &all, NULL, NULL, &err),
	                 H2EMV_OK);
	assert_int_equal(n, st.obs_count);
	assert_int_equal(h2emv_obs_export(&n, f->m, T0 + DAY, T0, sink_write, &all, NULL, NULL,
	                                  &err),
	                 H2EMV_EINVAL);
	h2emv_mem_close(m2);
	tu_rmrf(dir2);
	free(dir2);
	eng_buf_free(&s.b);
	eng_buf_free(&all.b);
}

/* ----------------------------------------------------------------- cli -- */

static json_int_t cli_export_seq(const char *dir, const char *args)
{
	char *path = tu_fmt("%s/../export-cli.json", dir), *out;
	int rc = tu_run(&out, "%s export -m %s -q %s -o %s 2>&1", H2EMV_CLI, dir, args, path);
	if (rc)
		fprintf(stderr, "export %s: %s\n", args, out);
	free(out);
	if (rc) {
		free(path);
		return -rc;
	}
	size_t len;
	char *text = tu_read_file(path, &len);
	json_t *doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	json_int_t seq = json_integer_value(json_object_get(json_object_get(doc, "snapshot"), "seq"));
	json_decref(doc);
	free(text);
	unlink(path);
	free(path);
	return seq;
}

static void test_cli_export_picks_the_snapshot_by_number_pin_and_time(void **state)
{
	fixture *f = *state;
	h2emv_snap_info *list;
	size_t n;
	assert_int_equal(h2emv_snap_list(&list, &n, f->m, NULL), H2EMV_OK);
	assert_true(n >= 4);
	assert_int_equal(cli_export_seq(f->dir, ""), list[n - 1].seq);
	assert_int_equal(cli_export_seq(f->dir, "--snapshot 2"), 2);
	assert_int_equal(h2emv_snap_pin(f->m, "audit", 3, NULL), H2EMV_OK);
	assert_int_equal(cli_export_seq(f->dir, "--snapshot audit"), 3);
	assert_int_equal(cli_export_seq(f->dir, "--pin audit"), 3);
	/* --at: the newest snapshot whose clock is not after the time */
	uint64_t want = 0;
	int64_t at = T0 + 2 * DAY + 12 * 3600 * US; /* day 2, noon: before day 2's watering */
	for (size_t i = 0; i < n; i++)
		if (list[i].t_now <= at)
			want = list[i].seq;
	assert_true(want > 0);
	assert_int_equal(cli_export_seq(f->dir, "--at 2024-09-25T12:00:00Z"), want);
	assert_int_equal(cli_export_seq(f->dir, "--at 2020-01-01"), -2); /* none that old */
	assert_int_equal(cli_export_seq(f->dir, "--snapshot nosuchpin"), -2);
	assert_int_equal(cli_export_seq(f->dir, "--at yesterday"), -64);
	assert_int_equal(cli_export_seq(f->dir, "-f jsonl --at 2024-09-25"), -64);
	h2emv_free(list);
	assert_int_equal(h2emv_snap_unpin(f->m, "audit", NULL), H2EMV_OK);
	/* a failed export leaves no file behind */
	char *out;
	assert_int_equal(tu_run(&out, "%s export -m %s -q -s 999 -o %s/../never.json 2>&1",
	                        H2EMV_CLI, f->dir, f->dir),
	                 2);
	free(out);
	char *never = tu_fmt("%s/../never.json", f->dir);
	assert_int_equal(access(never, F_OK), -1);
	free(never);
	/* jsonl from the command line, with times as the CLI reads them */
	assert_int_equal(tu_run(&out, "%s export -m %s -f jsonl --from 2024-09-24 --to '2024-09-25 "
	                              "00:00' | wc -l",
	                        H2EMV_CLI, f->dir),
	                 0);
	assert_int_equal(atoi(out), 6);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_export_holds_every_node_with_its_facts),
		cmocka_unit_test(test_json_export_carries_the_rules_the_snapshot_saw),
		cmocka_unit_test(test_the_levels_a_tree_shows_are_contiguous),
		cmocka_unit_test(test_a_root_stored_at_level_15_reads_as_the_level_above_the_top),
		cmocka_unit_test(test_export_stops_when_the_writer_fails),
		cmocka_unit_test(test_subtree_depth_and_min_level_limit_the_export),
		cmocka_unit_test(test_a_tree_bigger_than_the_node_cache_exports_whole),
		cmocka_unit_test(test_dot_export_ranks_levels_and_dashes_placeholders),
		cmocka_unit_test(test_html_export_survives_script_in_a_summary),
		cmocka_unit_test(test_jsonl_export_takes_a_time_range_and_reingests),
		cmocka_unit_test(test_cli_export_picks_the_snapshot_by_number_pin_and_time),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
