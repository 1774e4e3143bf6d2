/*
 * test_viewer.c — the HTML viewer (`h2emv export --format html`) in a real
 * browser: headless Chromium loads the demo memory's page, the DOM it
 * builds must hold one element per exported node, a search given in the
 * URL (#q=knife) must mark the nodes that mention the word, and a
 * screenshot is kept in the build directory (tests/viewer.png) for people
 * to look at. A page made from hostile text must render it as text. The
 * time axis of a history of 4 active days over 17 calendar days collapses
 * the quiet gaps and zooms (#zoom=8, the wheel's code path). The Graphviz
 * export renders with dot where Graphviz is installed (else SKIP, unless
 * H2EMV_REQUIRE_GRAPHVIZ=1).
 *
 * Without Chromium the tests are skipped, unless H2EMV_REQUIRE_CHROMIUM=1
 * (CI sets it): then they fail and say so. H2EMV_CHROMIUM names the
 * browser's program when it is not chromium on the PATH.
 */
#include <ctype.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "h2emv.h"
#include "testutil.h"

/* The browser's program, or NULL (after failing or skipping the test: tu_skip). */
static const char *browser(void)
{
	const char *env = getenv("H2EMV_CHROMIUM");
	if (env && *env)
		return env;
	static const char *const names[] = { "chromium", "chromium-browser", "google-chrome" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *out;
		int rc = tu_run(&out, "command -v %s 2>/dev/null", names[i]);
		free(out);
		if (rc == 0)
			return names[i];
	}
	tu_skip("H2EMV_REQUIRE_CHROMIUM", "no Chromium found: install Debian's chromium "
	        "(apt-get install chromium) or set H2EMV_CHROMIUM");
	return NULL;
}

/* Load `html` (an absolute path) with `fragment` in headless Chromium and
 * return the DOM it built; with `png`, also take a screenshot there. */
static char *render(const char *chrome, const char *work, const char *html, const char *fragment,
                    const char *png)
{
	char *dom = tu_fmt("%s/dom.html", work), *out;
	const char *flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run "
	                    "--disable-extensions --window-size=1400,900";
	int rc = tu_run(&out, "timeout 120 %s %s --user-data-dir=%s/profile --dump-dom "
	                      "'file://%s%s' > %s 2>%s/chrome.err",
	                chrome, flags, work, html, fragment, dom, work);
	free(out);
	if (rc) {
		tu_run(&out, "tail -n 20 %s/chrome.err", work);
		fail_msg("%s --dump-dom failed (exit %d):\n%s", chrome, rc, out);
	}
	if (png) {
		rc = tu_run(&out, "timeout 120 %s %s --user-data-dir=%s/profile --screenshot=%s "
		                  "'file://%s%s' >/dev/null 2>%s/chrome.err",
		            chrome, flags, work, png, html, fragment, work);
		free(out);
		assert_int_equal(rc, 0);
	}
	size_t len;
	char *text = tu_read_file(dom, &len);
	assert_non_null(text);
	free(dom);
	return text;
}

/* The start tag of the element with data-id="ref", or NULL. *n gets its
 * length. Each data-id must occur once. */
static const char *element(const char *dom, const char *ref, size_t *n)
{
	char attr[80];
	snprintf(attr, sizeof attr, "data-id=\"%s\"", ref);
	const char *at = strstr(dom, attr);
	if (!at)
		return NULL;
	assert_null(strstr(at + 1, attr));
	const char *open = at;
	while (open > dom && *open != '<')
		open--;
	const char *close = strchr(at, '>');
	*n = (size_t)(close - open);
	return open;
}

static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		k++;
	return k;
}

static int mentions(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = text; *p; p++)
		if (!strncasecmp(p, word, n))
			return 1;
	return 0;
}

static char *abs_tmpdir(const char *tag)
{
	char *dir = tu_tmpdir(tag), real[PATH_MAX];
	assert_non_null(realpath(dir, real));
	free(dir);
	return strdup(real);
}

static json_t *load_json(const char *path)
{
	size_t len;
	char *text = tu_read_file(path, &len);
	assert_non_null(text);
	json_t *doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	free(text);
	return doc;
}

static void test_demo_page_shows_every_node_and_finds_the_knife(void **state)
{
	(void)state;
	const char *chrome = browser();
	if (!chrome)
		return;
	char *work = abs_tmpdir("viewer"), *out;
	assert_int_equal(tu_run(&out, "%s demo -q -d %s/demo >/dev/null 2>&1", H2EMV_CLI, work), 0);
	free(out);
	assert_int_equal(tu_run(&out, "%s export -m %s/demo -q -o %s/demo.json && %s export -m %s/demo "
	                              "-q -f html -o %s/demo.html",
	                        H2EMV_CLI, work, work, H2EMV_CLI, work, work),
	                 0);
	free(out);
	char *json_path = tu_fmt("%s/demo.json", work), *html = tu_fmt("%s/demo.html", work);
	json_t *doc = load_json(json_path);
	json_t *nodes = json_object_get(doc, "nodes");
	size_t n_nodes = json_array_size(nodes);
	assert_true(n_nodes > 20);
	char *png = tu_fmt("%s/viewer.png", H2EMV_TEST_OUT);
	unlink(png);
	char *dom = render(chrome, work, html, "#q=knife", png);

	/* every node of the snapshot has its element, and nothing else has one */
	assert_int_equal(count(dom, " data-id=\""), n_nodes);
	size_t i, marked = 0, mentioning = 0, forgotten = 0;
	json_t *n;
	json_array_foreach(nodes, i, n) {
		const char *ref = json_string_value(json_object_get(n, "ref"));
		size_t len = 0;
		const char *tag = element(dom, ref, &len);
		if (!tag)
			fail_msg("node %s has no element in the page", ref);
		char *t = strndup(tag, len);
		int match = strstr(t, " match") != NULL;
		if (json_is_true(json_object_get(n, "forgotten"))) {
			forgotten++;
			assert_non_null(strstr(t, "forgotten")); /* placeholders look different */
		}
		/* the search covers summaries (and facts): a node whose summary
		 * says "knife" is marked */
		if (mentions(json_string_value(json_object_get(n, "summary")), "knife")) {
			mentioning++;
			if (!match)
				fail_msg("node %s mentions the knife but the search did not mark it", ref);
		}
		marked += match;
		free(t);
	}
	assert_true(mentioning > 0);
	assert_true(forgotten > 0);
	char expect[64];
	snprintf(expect, sizeof expect, "data-matches=\"%zu\"", marked);
	assert_non_null(strstr(dom, expect));
	/* the rules in force and a detail panel for the selected match */
	assert_non_null(strstr(dom, "Rules in force"));
	assert_non_null(strstr(dom, "Always remember the location to where you transport a knife"));
	assert_non_null(strstr(dom, "typed facts ("));
	/* the screenshot is there for people (and CI) to look at */
	struct stat st;
	assert_int_equal(stat(png, &st), 0);
	assert_true(st.st_size > 20000);
	printf("viewer screenshot: %s (%lld bytes; %zu nodes, %zu marked by #q=knife)\n", png,
	       (long long)st.st_size, n_nodes, marked);
	free(dom);
	free(png);
	free(html);
	free(json_path);
	json_decref(doc);
	tu_rmrf(work);
	free(work);
}

static void test_hostile_text_renders_as_text(void **state)
{
	(void)state;
	const char *chrome = browser();
	if (!chrome)
		return;
	char *work = abs_tmpdir("viewer-hostile"), *out;
	char *in = tu_fmt("%s/in.jsonl", work);
	FILE *f = fopen(in, "w");
	assert_non_null(f);
	fputs("{\"t\":\"2024-09-24T10:00:00Z\",\"location\":\"kitchen\",\"persons\":[{\"name\":"
	      "\"Alice\"}],\"speech\":[{\"speaker\":\"Alice\",\"text\":\"</script><script>document."
	      "title='pwned'</script><img src=x onerror=\\\"document.title='pwned'\\\"> zebra\"}]}\n"
	      "{\"t\":\"2024-09-24T10:05:00Z\",\"location\":\"kitchen\",\"note\":\"after\"}\n",
	      f);
	fclose(f);
	assert_int_equal(tu_run(&out, "%s ingest --create -m %s/m %s >/dev/null 2>&1 && %s build -m "
	                              "%s/m -q >/dev/null 2>&1 && %s export -m %s/m -q -f html -o "
	                              "%s/h.html",
	                        H2EMV_CLI, work, in, H2EMV_CLI, work, H2EMV_CLI, work, work),
	                 0);
	free(out);
	char *html = tu_fmt("%s/h.html", work);
	char *dom = render(chrome, work, html, "#q=zebra", NULL);
	assert_null(strstr(dom, "pwned</title>"));     /* no script of the data ran */
	assert_null(strstr(dom, "<img src=\"x\""));    /* no markup of the data was parsed */
	assert_non_null(strstr(dom, "&lt;/script&gt;")); /* it is shown as text */
	const char *m = strstr(dom, "data-matches=\"");
	assert_non_null(m);
	assert_true(atoi(m + strlen("data-matches=\"")) > 0); /* the search still finds it */
	free(dom);
	free(html);
	free(in);
	tu_rmrf(work);
	free(work);
}

/* The start tag of the time-axis bar of node `ref` (it may hold newlines). */
static char *bar_of(const char *dom, const char *ref)
{
	char attr[80];
	snprintf(attr, sizeof attr, "data-ref=\"%s\"", ref);
	const char *at = strstr(dom, attr);
	if (!at)
		fail_msg("no bar for node %s on the time axis", ref);
	const char *open = at;
	while (open > dom && *open != '<')
		open--;
	return strndup(open, (size_t)(strchr(at, '>') - open));
}

/* The left edge of node `ref`'s bar, in % of the axis. */
static double bar_left(const char *dom, const char *ref)
{
	char *tag = bar_of(dom, ref);
	const char *l = strstr(tag, "left: ");
	assert_non_null(l);
	double v = atof(l + 6);
	free(tag);
	return v;
}

/* Sum of the widths (%) of the collapsed gaps; *n gets their number. */
static double gap_widths(const char *dom, size_t *n)
{
	double sum = 0;
	*n = 0;
	for (const char *p = dom; (p = strstr(p, "class=\"gap\"")); p++) {
		const char *w = strstr(p, "width: ");
		assert_non_null(w);
		sum += atof(w + 7);
		(*n)++;
	}
	return sum;
}

/* The refs of the two scenes of day `day` (ISO date) in the export. */
static void day_scenes(json_t *doc, const char *day, char *a, char *b)
{
	size_t i, k = 0;
	json_t *n;
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		const char *start = json_string_value(json_object_get(n, "start"));
		if (json_integer_value(json_object_get(n, "level")) != 1 || !start ||
		    strncmp(start, day, 10))
			continue;
		strcpy(k ? b : a, json_string_value(json_object_get(n, "ref")));
		k++;
	}
	assert_int_equal(k, 2);
}

/* The lanes' level labels are the tree's levels, each once, and the top
 * one is the root's, right above the highest summary (no "L15" above L8). */
static void lane_labels_match(const char *dom, json_t *doc)
{
	json_int_t top = 0, have[32] = { 0 };
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		json_int_t l = json_integer_value(json_object_get(n, "level"));
		assert_true(l >= 1 && l < 32);
		have[l] = 1;
		top = l > top ? l : top;
	}
	const char *tag = "class=\"lane-label\">L";
	json_int_t seen = 0, labels = 0;
	for (const char *p = dom; (p = strstr(p, tag)); p++) {
		json_int_t l = strtol(p + strlen(tag), NULL, 10);
		assert_true(l >= 1 && l < 32 && have[l]);
		seen = l > seen ? l : seen;
		labels++;
	}
	assert_int_equal(seen, top);
	for (json_int_t l = 1; l <= top; l++)
		labels -= have[l];
	assert_int_equal(labels, 0);
	assert_true(have[top - 1]); /* the root sits on the level above the next */
}

static void test_time_axis_collapses_quiet_days_and_zooms(void **state)
{
	(void)state;
	const char *chrome = browser();
	if (!chrome)
		return;
	char *work = abs_tmpdir("viewer-zoom"), *out;
	char *in = tu_fmt("%s/in.jsonl", work);
	FILE *f = fopen(in, "w");
	assert_non_null(f);
	/* 4 active days over 17 calendar days (as ARMAR-7's recording), two
	 * scenes 20 minutes apart on each; the vase only on the 9th */
	static const char *const days[] = { "2024-07-01", "2024-07-02", "2024-07-09", "2024-07-17" };
	for (int d = 0; d < 4; d++)
		fprintf(f,
		        "{\"t\":\"%sT09:00:00Z\",\"location\":\"lab\",\"action\":\"Pickup(%s)\"}\n"
		        "{\"t\":\"%sT09:20:00Z\",\"location\":\"lab\",\"action\":\"Place(%s, shelf)\"}\n",
		        days[d], d == 2 ? "vase" : "cup", days[d], d == 2 ? "vase" : "cup");
	fclose(f);
	assert_int_equal(tu_run(&out, "%s init -m %s/m >/dev/null && %s config -m %s/m --forgetting none "
	                              ">/dev/null && %s ingest -q -m %s/m %s && %s build -q -m %s/m && "
	                              "%s export -q -m %s/m -o %s/m.json && %s export -q -m %s/m -f html "
	                              "-o %s/m.html",
	                        H2EMV_CLI, work, H2EMV_CLI, work, H2EMV_CLI, work, in, H2EMV_CLI, work,
	                        H2EMV_CLI, work, work, H2EMV_CLI, work, work),
	                 0);
	free(out);
	char *json_path = tu_fmt("%s/m.json", work), *html = tu_fmt("%s/m.html", work);
	json_t *doc = load_json(json_path);
	char a[64], b[64];
	day_scenes(doc, "2024-07-09", a, b);

	char *dom = render(chrome, work, html, "", NULL);
	assert_non_null(strstr(dom, "data-zoom=\"1\""));
	lane_labels_match(dom, doc);
	size_t n_gaps;
	double gaps = gap_widths(dom, &n_gaps);
	assert_int_equal(n_gaps, 3);  /* one break between active days */
	assert_true(gaps < 10.0);     /* the 16 quiet days take little room */
	double l1 = bar_left(dom, a), l2 = bar_left(dom, b);
	/* 20 minutes of 17 days would be 0.08% of a linear axis; here a
	 * quarter of the active time */
	assert_true(l2 - l1 > 10.0);

	/* zoom 2 around the search's hit: the vase's day twice as wide */
	char *zoomed = render(chrome, work, html, "#q=vase&zoom=2", NULL);
	assert_non_null(strstr(zoomed, "data-zoom=\"2\""));
	double z1 = bar_left(zoomed, a), z2 = bar_left(zoomed, b);
	assert_true(z1 >= 0 && z2 <= 100);
	double ratio = (z2 - z1) / (l2 - l1);
	if (ratio < 1.95 || ratio > 2.05)
		fail_msg("zoom 2 stretched the vase's day %.2f times (%.2f%% -> %.2f%%)", ratio,
		         l2 - l1, z2 - z1);
	char *sel = bar_of(zoomed, a);
	assert_non_null(strstr(sel, "sel")); /* the search's hit is selected and in view */
	free(sel);
	free(zoomed);
	/* zoom 8: the hit in the middle, the first day out of view */
	char c[64], d[64];
	day_scenes(doc, "2024-07-01", c, d);
	zoomed = render(chrome, work, html, "#q=vase&zoom=8", NULL);
	assert_non_null(strstr(zoomed, "data-zoom=\"8\""));
	double mid = bar_left(zoomed, a);
	assert_true(mid > 45 && mid < 55);
	char *gone = bar_of(zoomed, c);
	assert_non_null(strstr(gone, "display: none"));
	free(gone);
	printf("time axis: 3 gaps take %.1f%%; the vase's day %.1f%% wide, %.1f%% at zoom 2\n", gaps,
	       l2 - l1, z2 - z1);
	free(zoomed);
	free(dom);
	json_decref(doc);
	free(html);
	free(json_path);
	free(in);
	tu_rmrf(work);
	free(work);
}

static void test_dot_export_renders_with_graphviz(void **state)
{
	(void)state;
	char *out;
	int rc = tu_run(&out, "command -v dot 2>/dev/null");
	free(out);
	if (rc) {
		tu_skip("H2EMV_REQUIRE_GRAPHVIZ", "no Graphviz: install Debian's graphviz");
		return;
	}
	char *work = abs_tmpdir("viewer-dot");
	assert_int_equal(tu_run(&out, "%s demo -q -d %s/demo >/dev/null 2>&1 && %s export -m %s/demo -q "
	                              "-o %s/demo.json && %s export -m %s/demo -q -f dot | dot -Tsvg "
	                              "> %s/demo.svg",
	                        H2EMV_CLI, work, H2EMV_CLI, work, work, H2EMV_CLI, work, work),
	                 0);
	free(out);
	char *json_path = tu_fmt("%s/demo.json", work), *svg_path = tu_fmt("%s/demo.svg", work);
	json_t *doc = load_json(json_path);
	size_t len;
	char *svg = tu_read_file(svg_path, &len);
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<svg"));
	/* every node of the snapshot is drawn, each once */
	assert_int_equal(count(svg, "class=\"node\""), json_array_size(json_object_get(doc, "nodes")));
	assert_true(count(svg, "class=\"edge\"") > 0);
	free(svg);
	free(svg_path);
	free(json_path);
	json_decref(doc);
	tu_rmrf(work);
	free(work);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_page_shows_every_node_and_finds_the_knife),
		cmocka_unit_test(test_hostile_text_renders_as_text),
		cmocka_unit_test(test_time_axis_collapses_quiet_days_and_zooms),
		cmocka_unit_test(test_dot_export_renders_with_graphviz),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
