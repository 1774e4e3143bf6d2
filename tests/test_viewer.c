/*
 * test_viewer.c — the HTML viewer (`h2emv export --format html`) in a real
 * browser: headless Chromium loads the demo memory's page, the DOM it
 * builds must hold one element per exported node, a search given in the
 * URL (#q=knife) must mark the nodes that mention the word, and a
 * screenshot is kept in the build directory (tests/viewer.png) for people
 * to look at. A page made from hostile text must render it as text.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_page_shows_every_node_and_finds_the_knife),
		cmocka_unit_test(test_hostile_text_renders_as_text),
	};
	return tu_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
