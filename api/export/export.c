/*
 * export.c — a snapshot's tree written out (h2emv_snap_export): the JSON
 * document of docs/formats.md §5, Graphviz, or the HTML viewer with that
 * document inside. The tree is walked depth-first and written node by node
 * through the caller's writer, so a tree of any size never sits in memory
 * as text; each node's JSON is built with jansson (export_json.c).
 */
#include <stdlib.h>
#include <string.h>

#include "api/export/export.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/observe/obs_internal.h"
#include "api/config/profile.h"
#include "api/base/utf8.h"

/* The viewer page (api/viewer/viewer.html, compiled in by CMakeLists.txt);
 * the JSON document replaces VIEWER_SLOT. */
extern const char export_viewer_html[];
#define VIEWER_SLOT "__H2EMV_EXPORT_JSON__"

#define XW_CHUNK (64u << 10)
#define MAX_DEPTH 64 /* levels of a real tree stay far below; deeper means a cycle */

/* ---------------------------------------------------------------- writer -- */

int xw_flush(xw *w)
{
	if (w->status == H2EMV_OK && w->buf.len) {
		if (w->fn(w->ctx, w->buf.data, w->buf.len) != 0)
			w->status = H2EMV_EIO;
	}
	w->buf.len = 0;
	return w->status;
}

int xw_put(xw *w, const void *p, size_t n)
{
	if (w->status)
		return w->status;
	if (w->buf.len + n > XW_CHUNK && xw_flush(w))
		return w->status;
	if (n >= XW_CHUNK) /* a big piece goes straight through */
		return w->fn(w->ctx, p, n) ? (w->status = H2EMV_EIO) : H2EMV_OK;
	if (eng_buf_append(&w->buf, p, n))
		w->status = H2EMV_ENOMEM;
	return w->status;
}

int xw_puts(xw *w, const char *s)
{
	return xw_put(w, s, strlen(s));
}

/* Text that sits inside a <script> element: '<', '>' and '&' escaped (they
 * only ever occur inside JSON strings, where the escapes mean the same). */
static int put_escaped(xw *w, const char *buf, size_t size)
{
	size_t from = 0;
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c > '>' || (c != '<' && c != '>' && c != '&')) /* most bytes: one test */
			continue;
		xw_put(w, buf + from, i - from);
		xw_puts(w, c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026");
		from = i + 1;
	}
	return xw_put(w, buf + from, size - from);
}

int xw_json(xw *w, const json_t *v, int html, const char *extra, size_t extra_len)
{
	/* one dump into a buffer kept across calls: a node's JSON at a time */
	size_t n = json_dumpb(v, (char *)w->dump.data, w->dump.cap, JSON_COMPACT);
	if (n > w->dump.cap) {
		w->dump.len = 0;
		if (eng_buf_reserve(&w->dump, n))
			return w->status ? w->status : (w->status = H2EMV_ENOMEM);
		n = json_dumpb(v, (char *)w->dump.data, w->dump.cap, JSON_COMPACT);
	}
	if (n < 2 || n > w->dump.cap)
		return w->status ? w->status : (w->status = H2EMV_ENOMEM);
	const char *text = (const char *)w->dump.data;
	if (extra) /* reopen the object (a compact dump ends with '}') */
		n--;
	if (html)
		put_escaped(w, text, n);
	else
		xw_put(w, text, n);
	if (!extra)
		return w->status;
	if (html)
		put_escaped(w, extra, extra_len);
	else
		xw_put(w, extra, extra_len);
	return xw_puts(w, "}");
}

/* ------------------------------------------------------------------ walk -- */

typedef struct lvref {
	uint32_t level;
	h2emv_ref ref;
} lvref;

typedef struct xp {
	h2emv_snap *snap;
	const h2emv_export_options *o;
	xw w;
	xnode_ctx nx;
	eng_buf tail; /* a node's facts, children and observation as JSON text */
	uint64_t count, trimmed_at;
	lvref *ranks; /* dot: every node with its level, for the rank groups */
	size_t n_ranks, cap_ranks;
	h2emv_error *err;
} xp;

static int fail_status(xp *x, int rc)
{
	if (rc == H2EMV_EIO)
		return eng_fail(x->err, rc, "export: writing the output failed");
	if (rc == H2EMV_ENOMEM)
		return eng_fail(x->err, rc, "export: out of memory");
	return rc;
}

/* DOT: "YYYY-MM-DD HH:MM:SS" of a time. */
static void dot_time(char out[OBS_TIME_TEXT], int64_t us)
{
	obs_time_format(out, us);
	out[10] = ' ';
	out[19] = '\0';
}

/* A DOT string body: quotes and backslashes escaped, a newline as \n. */
static int dot_str(xw *w, const char *s, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '"' && s[i] != '\\' && s[i] != '\n' && s[i] != '\r')
			continue;
		xw_put(w, s + from, i - from);
		xw_puts(w, s[i] == '"' ? "\\\"" : s[i] == '\\' ? "\\\\" : s[i] == '\n' ? "\\n" : "");
		from = i + 1;
	}
	return xw_put(w, s + from, n - from);
}

static int dot_node(xp *x, const h2emv_node *n, const h2emv_ref *parent)
{
	char ref[32], a[OBS_TIME_TEXT], b[OBS_TIME_TEXT], head[160];
	h2emv_ref r = h2emv_node_ref(n);
	int kind = h2emv_node_kind(n);
	size_t len;
	const char *s = h2emv_node_summary(n, &len);
	const char *nl = memchr(s, '\n', len);
	size_t first = nl ? (size_t)(nl - s) : len;
	if (first > 80) { /* cut at a character boundary */
		first = utf8_cut(s, 80);
	}
	dot_time(a, h2emv_node_start(n));
	dot_time(b, h2emv_node_end(n));
	snprintf(head, sizeof head, "  n%llu_%u [label=\"L%d %s %s\\n%s .. %s\\n",
	         (unsigned long long)r.id, r.version, h2emv_node_level(n), export_kind_name(kind),
	         export_ref(ref, r), a, b);
	xw_puts(&x->w, head);
	dot_str(&x->w, s, first);
	xw_puts(&x->w, first < len ? "...\"" : "\"");
	if (kind == H2EMV_KIND_FORGOTTEN)
		xw_puts(&x->w, ", style=\"dashed,rounded\", color=gray45, fontcolor=gray35");
	else if (kind == H2EMV_KIND_ROOT)
		xw_puts(&x->w, ", penwidth=2");
	xw_puts(&x->w, "];\n");
	if (parent) {
		h2emv_ref p = *parent;
		snprintf(head, sizeof head, "  n%llu_%u -> n%llu_%u%s;\n", (unsigned long long)p.id,
		         p.version, (unsigned long long)r.id, r.version,
		         kind == H2EMV_KIND_FORGOTTEN ? " [style=dashed, color=gray45]" : "");
		xw_puts(&x->w, head);
	}
	if (x->n_ranks == x->cap_ranks) {
		size_t cap = x->cap_ranks ? x->cap_ranks * 2 : 256;
		lvref *v = realloc(x->ranks, cap * sizeof *v);
		if (!v)
			return x->w.status = H2EMV_ENOMEM;
		x->ranks = v;
		x->cap_ranks = cap;
	}
	x->ranks[x->n_ranks++] = (lvref){ (uint32_t)h2emv_node_level(n), r };
	return x->w.status;
}

static int cmp_rank(const void *pa, const void *pb)
{
	const lvref *a = pa, *b = pb;
	return a->level != b->level ? (a->level < b->level ? 1 : -1) : 0;
}

/* One { rank=same; ... } group per level, highest first. */
static int dot_ranks(xp *x)
{
	qsort(x->ranks, x->n_ranks, sizeof *x->ranks, cmp_rank);
	char item[64];
	for (size_t i = 0; i < x->n_ranks; i++) {
		if (i == 0 || x->ranks[i].level != x->ranks[i - 1].level) {
			snprintf(item, sizeof item, "%s  { rank=same; /* L%u */", i ? " }\n" : "",
			         x->ranks[i].level);
			xw_puts(&x->w, item);
		}
		snprintf(item, sizeof item, " n%llu_%u;", (unsigned long long)x->ranks[i].ref.id,
		         x->ranks[i].ref.version);
		xw_puts(&x->w, item);
	}
	return xw_puts(&x->w, x->n_ranks ? " }\n" : "");
}

static int emit(xp *x, const h2emv_node *n, const h2emv_ref *parent)
{
	int rc;
	if (x->o->format == H2EMV_EXPORT_DOT) {
		rc = dot_node(x, n, parent);
	} else {
		char pref[32];
		json_t *j =
			export_node_json(&x->nx, n, parent ? export_ref(pref, *parent) : NULL, &x->tail);
		if (!j)
			return H2EMV_ENOMEM;
		if (x->count)
			xw_puts(&x->w, ",");
		rc = xw_json(&x->w, j, x->o->format == H2EMV_EXPORT_HTML, (const char *)x->tail.data,
		             x->tail.len);
		json_decref(j);
	}
	x->count++;
	if (x->o->progress && x->count % 256 == 0)
		x->o->progress(x->o->progress_ctx, "export", x->count, 0);
	return rc;
}

/* Nodes decoded between two trims of the snapshot's node cache: the walk
 * holds no node across a trim (only refs), so memory stays that of this
 * many nodes however big the tree. */
#define TRIM_EVERY 4096

/* Write the subtree of `ref` (found under `parent`, NULL for the top). */
static int walk(xp *x, h2emv_ref ref, const h2emv_ref *parent, int depth)
{
	char a[32], b[32];
	if (depth > MAX_DEPTH)
		return eng_fail(x->err, H2EMV_ECORRUPT,
		                "export: the tree under %s is deeper than %d levels: run `h2emv check`",
		                export_ref(a, ref), MAX_DEPTH);
	if (x->count - x->trimmed_at >= TRIM_EVERY) {
		snap_trim(x->snap);
		x->trimmed_at = x->count;
	}
	const h2emv_node *n;
	int rc = h2emv_snap_node(&n, x->snap, ref, x->err);
	if (rc == H2EMV_ENOTFOUND && parent)
		return eng_fail(x->err, H2EMV_ECORRUPT,
		                "export: child %s of node %s is missing: run `h2emv check`",
		                export_ref(a, ref), export_ref(b, *parent));
	if (rc)
		return rc;
	if (parent && h2emv_node_level(n) < x->o->min_level)
		return H2EMV_OK;
	if ((rc = emit(x, n, parent)) != H2EMV_OK)
		return fail_status(x, rc);
	size_t nc = h2emv_node_child_count(n);
	if (!nc || (x->o->max_depth >= 0 && depth >= x->o->max_depth))
		return H2EMV_OK;
	/* refs only from here: the node itself may be trimmed below */
	h2emv_ref *kids = malloc(nc * sizeof *kids);
	if (!kids)
		return fail_status(x, H2EMV_ENOMEM);
	for (size_t i = 0; i < nc; i++)
		kids[i] = h2emv_node_child_ref(n, i);
	for (size_t i = 0; rc == H2EMV_OK && i < nc; i++)
		rc = walk(x, kids[i], &ref, depth + 1);
	free(kids);
	return rc;
}

/* --------------------------------------------------------------- formats -- */

/* The JSON document: the head's members, then "nodes", then "node_count".
 * The head is dumped by jansson and reopened (its closing brace dropped)
 * so the nodes can stream in after it. */
static int json_doc(xp *x, const h2emv_node *start, int html)
{
	json_t *head = export_head_json(x->snap, x->o, x->err);
	if (!head)
		return x->err->status ? x->err->status : H2EMV_ENOMEM;
	char *text = json_dumps(head, JSON_COMPACT);
	json_decref(head);
	if (!text)
		return fail_status(x, H2EMV_ENOMEM);
	size_t n = strlen(text);
	/* a compact object dump ends with '}'; html escaping as in xw_json */
	if (html)
		put_escaped(&x->w, text, n - 1);
	else
		xw_put(&x->w, text, n - 1);
	free(text);
	xw_puts(&x->w, n > 2 ? ",\"nodes\":[" : "\"nodes\":[");
	int rc = start ? walk(x, h2emv_node_ref(start), NULL, 0) : H2EMV_OK;
	if (rc)
		return rc;
	char tail[64];
	snprintf(tail, sizeof tail, "],\"node_count\":%llu}", (unsigned long long)x->count);
	return fail_status(x, xw_puts(&x->w, tail));
}

static int dot_doc(xp *x, const h2emv_node *start)
{
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, x->snap);
	char t[OBS_TIME_TEXT], line[256];
	dot_time(t, info.t_now);
	snprintf(line, sizeof line,
	         "digraph h2emv {\n"
	         "  graph [rankdir=TB, labelloc=t, fontname=\"Helvetica\", "
	         "label=\"h2emv snapshot %llu, memory clock %s UTC, rules v%u\"];\n"
	         "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n",
	         (unsigned long long)info.seq, t, info.rules_version);
	xw_puts(&x->w, line);
	int rc = start ? walk(x, h2emv_node_ref(start), NULL, 0) : H2EMV_OK;
	if (rc)
		return rc;
	dot_ranks(x);
	return fail_status(x, xw_puts(&x->w, "}\n"));
}

static int html_doc(xp *x, const h2emv_node *start)
{
	const char *slot = strstr(export_viewer_html, VIEWER_SLOT);
	if (!slot)
		return eng_fail(x->err, H2EMV_EINTERNAL, "export: the viewer page has no data slot");
	xw_put(&x->w, export_viewer_html, (size_t)(slot - export_viewer_html));
	int rc = json_doc(x, start, 1);
	if (rc)
		return rc;
	return fail_status(x, xw_puts(&x->w, slot + strlen(VIEWER_SLOT)));
}

/* ---------------------------------------------------------------- public -- */

static int check_options(const h2emv_export_options *o, h2emv_error *err)
{
	if (o->version != H2EMV_EXPORT_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_export: unknown options version %u",
		                o->version);
	if (o->format < H2EMV_EXPORT_JSON || o->format > H2EMV_EXPORT_HTML)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_export: unknown format %d", o->format);
	if (o->max_depth < -1 || o->min_level < 0 || o->min_level > 255)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_export: bad max_depth or min_level");
	return H2EMV_OK;
}

int h2emv_snap_export(h2emv_snap *snap, h2emv_write_fn write, void *ctx,
                      const h2emv_export_options *opts, h2emv_error *err)
{
	h2emv_error local;
	if (!err)
		err = &local; /* the walk reads back the status it failed with */
	memset(err, 0, sizeof *err);
	if (!snap || !write)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_export: snap and write are required");
	h2emv_export_options o = H2EMV_EXPORT_OPTIONS_INIT;
	if (opts)
		o = *opts;
	if (!o.format)
		o.format = H2EMV_EXPORT_JSON;
	int rc = check_options(&o, err);
	if (rc)
		return rc;
	xp x = { 0 };
	x.snap = snap;
	x.o = &o;
	x.w.fn = write;
	x.w.ctx = ctx;
	x.err = err;
	h2emv_mem *mem = snap_mem(snap);
	robot_profile *prof = NULL;
	if ((rc = profile_load(&prof, mem->env, err)) != H2EMV_OK)
		return rc;
	x.nx.prof = prof;
	x.nx.no_facts = o.no_facts;
	pthread_mutex_lock(&mem->lock);
	x.nx.tasks = mem->cfg.profile != H2EMV_PROFILE_SKILL_STACK;
	pthread_mutex_unlock(&mem->lock);
	const h2emv_node *start = NULL;
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	if (o.start.id)
		rc = h2emv_snap_node(&start, snap, o.start, err);
	else if (info.root.id)
		rc = h2emv_snap_root(&start, snap, err);
	if (rc == H2EMV_OK && start && h2emv_node_level(start) < o.min_level)
		start = NULL;
	if (rc == H2EMV_OK) {
		if (o.format == H2EMV_EXPORT_DOT)
			rc = dot_doc(&x, start);
		else if (o.format == H2EMV_EXPORT_HTML)
			rc = html_doc(&x, start);
		else
			rc = json_doc(&x, start, 0);
	}
	if (rc == H2EMV_OK)
		rc = fail_status(&x, xw_flush(&x.w));
	if (rc == H2EMV_OK && o.progress)
		o.progress(o.progress_ctx, "export", x.count, x.count);
	eng_buf_free(&x.w.buf);
	eng_buf_free(&x.w.dump);
	eng_buf_free(&x.tail);
	free(x.ranks);
	profile_free(prof);
	return rc;
}
