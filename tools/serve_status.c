/*
 * serve_status.c — what `h2emv serve` says of itself: the /v1/status
 * document and the /metrics text (the worker's counters, the store's
 * sizes, the snapshot lag), and the small text buffer they are written in.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <malloc.h>
#include <jansson.h>
#include "tools/serve.h"

/* ------------------------------------------------------------- output -- */

typedef struct snapshot_view {
	uint64_t obs_last_seq, build_cursor, last_snapshot, file_bytes, used_bytes;
	h2emv_time t_now, created;
	uint64_t n_nodes;
	int ok;
} snapshot_view;

static void read_store(snapshot_view *v, h2emv_mem *mem)
{
	memset(v, 0, sizeof *v);
	h2emv_stats s;
	if (h2emv_mem_stats(&s, mem, NULL) == H2EMV_OK) {
		v->ok = 1;
		v->obs_last_seq = s.obs_last_seq;
		v->build_cursor = s.build_cursor;
		v->last_snapshot = s.last_snapshot;
		v->file_bytes = s.file_bytes;
		v->used_bytes = s.used_bytes;
	}
	h2emv_snap *snap;
	if (h2emv_snap_open(&snap, mem, H2EMV_SNAP_LATEST, NULL) == H2EMV_OK) {
		h2emv_snap_info info;
		h2emv_snap_get_info(&info, snap);
		v->t_now = info.t_now;
		v->created = info.created;
		v->n_nodes = info.n_nodes;
		v->last_snapshot = info.seq;
		h2emv_snap_close(snap);
	}
}

/* Lag in seconds: how long the oldest batch received and not built has waited. */
static double lag_seconds(serve_state *st, double now)
{
	return st->n_marks ? now - st->marks[0].received : 0;
}

json_t *serve_status_json(serve_state *st)
{
	snapshot_view v;
	read_store(&v, st->mem);
	double now = serve_now();
	uint64_t queue = v.obs_last_seq > v.build_cursor ? v.obs_last_seq - v.build_cursor : 0;
	pthread_mutex_lock(&st->mu);
	json_t *o = json_pack(
		"{s:f,s:{s:I,s:I,s:I,s:I,s:I},s:{s:I,s:f},s:{s:I,s:I,s:I,s:I},s:{s:I,s:I},"
		"s:{s:s,s:s,s:f,s:i,s:I,s:I,s:I,s:I,s:s},s:{s:I,s:I,s:I}}",
		"uptime_seconds", now - st->started,
		"observations", "received", (json_int_t)st->obs_received, "refused",
		(json_int_t)st->obs_refused, "built", (json_int_t)st->obs_built, "last_seq",
		(json_int_t)v.obs_last_seq, "build_cursor", (json_int_t)v.build_cursor,
		"lag", "observations", (json_int_t)queue, "seconds", lag_seconds(st, now),
		"newest_snapshot", "seq", (json_int_t)v.last_snapshot, "t_now", (json_int_t)v.t_now,
		"created", (json_int_t)v.created, "nodes", (json_int_t)v.n_nodes,
		"disk", "file_bytes", (json_int_t)v.file_bytes, "used_bytes", (json_int_t)v.used_bytes,
		"maintenance", "state", st->state, "builder", st->worker_running ? "running" : "stopped",
		"last_run_seconds_ago", st->last_maintain ? now - st->last_maintain : -1.0,
		"nightly_at_utc_minute", (int)st->nightly_min, "runs", (json_int_t)st->maintain_runs,
		"gc_runs", (json_int_t)st->gc_runs, "compactions", (json_int_t)st->compactions,
		"compactions_deferred", (json_int_t)st->compactions_deferred, "last_error",
		st->last_error,
		"questions", "answered", (json_int_t)st->questions, "failed",
		(json_int_t)st->question_errors, "not_ready", (json_int_t)st->questions_not_ready);
	json_t *mt = o ? json_object_get(o, "maintenance") : NULL;
	if (mt && (json_object_set_new(mt, "last_error_seconds_ago",
	                               json_real(st->last_error[0] ? now - st->last_error_at : -1)) ||
	           json_object_set_new(mt, "cleared_error", json_string(st->cleared_error)) ||
	           json_object_set_new(mt, "cleared_seconds_ago",
	                               json_real(st->cleared_at ? now - st->cleared_at : -1)) ||
	           json_object_set_new(mt, "compactions_skipped",
	                               json_integer((json_int_t)st->compactions_skipped)) ||
	           json_object_set_new(mt, "compaction_skipped_why",
	                               json_string(st->compact_skipped_why)))) {
		json_decref(o);
		o = NULL;
	}
	if (o && json_object_set_new(o, "queue_depth", json_integer((json_int_t)queue))) {
		json_decref(o);
		o = NULL;
	}
	pthread_mutex_unlock(&st->mu);
	return o;
}

void tb_add(textbuf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (n >= b->cap - b->len) {
		if (n > (SIZE_MAX - b->cap) / 2 - 1) {
			b->oom = 1;
			return;
		}
		size_t nc = (b->cap + n + 1) * 2;
		char *q = realloc(b->s, nc);
		if (!q) {
			b->oom = 1;
			return;
		}
		b->s = q;
		b->cap = nc;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void tb_printf(textbuf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = b->oom ? -1 : vsnprintf(b->s ? b->s + b->len : NULL, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if (b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t nc = (b->cap + (size_t)n + 1) * 2;
		char *p = realloc(b->s, nc);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap = nc;
	}
}

static void metric(textbuf *b, const char *name, const char *type, const char *help, double v)
{
	tb_printf(b, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, v);
}

/* The question latency histogram (st->mu held). */
static void question_histogram(textbuf *b, const serve_state *st)
{
	tb_printf(b, "# HELP h2emv_question_duration_seconds Time to answer POST /v1/ask.\n"
	              "# TYPE h2emv_question_duration_seconds histogram\n");
	uint64_t cum = 0;
	for (int i = 0; i < SERVE_LAT_BUCKETS; i++) {
		cum += st->lat_buckets[i];
		tb_printf(b, "h2emv_question_duration_seconds_bucket{le=\"%g\"} %llu\n",
		          serve_lat_bounds[i], (unsigned long long)cum);
	}
	tb_printf(b,
	          "h2emv_question_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
	          "h2emv_question_duration_seconds_sum %.9g\n"
	          "h2emv_question_duration_seconds_count %llu\n",
	          (unsigned long long)st->questions, st->lat_sum, (unsigned long long)st->questions);
}

/* Policy calls and tokens by use (st->mu held). */
static void policy_tokens(textbuf *b, const serve_state *st)
{
	tb_printf(b, "# HELP h2emv_policy_calls_total Policy calls, by what they were for.\n"
	              "# TYPE h2emv_policy_calls_total counter\n");
	const struct {
		const char *what;
		const h2emv_tokens *t;
	} tk[] = { { "build", &st->tok_build }, { "forget", &st->tok_forget },
		   { "ask", &st->tok_ask }, { "say", &st->tok_say } };
	for (size_t i = 0; i < 4; i++)
		tb_printf(b, "h2emv_policy_calls_total{for=\"%s\"} %llu\n", tk[i].what,
		          (unsigned long long)tk[i].t->calls);
	tb_printf(b, "# HELP h2emv_policy_tokens_total Policy tokens, by use and kind.\n"
	              "# TYPE h2emv_policy_tokens_total counter\n");
	for (size_t i = 0; i < 4; i++)
		tb_printf(b,
		          "h2emv_policy_tokens_total{for=\"%s\",kind=\"prompt\"} %llu\n"
		          "h2emv_policy_tokens_total{for=\"%s\",kind=\"completion\"} %llu\n",
		          tk[i].what, (unsigned long long)tk[i].t->prompt, tk[i].what,
		          (unsigned long long)tk[i].t->completion);
}

char *serve_metrics_text(serve_state *st, size_t *len)
{
	snapshot_view v;
	read_store(&v, st->mem);
	h2emv_policy_stats ps;
	h2emv_mem_policy_stats(&ps, st->mem);
	double now = serve_now();
	uint64_t queue = v.obs_last_seq > v.build_cursor ? v.obs_last_seq - v.build_cursor : 0;
	textbuf b = { 0 };
	pthread_mutex_lock(&st->mu);
	metric(&b, "h2emv_observations_received_total", "counter",
	       "Observations stored through POST /v1/observations.", (double)st->obs_received);
	metric(&b, "h2emv_observations_refused_total", "counter",
	       "Observations refused (bad lines).", (double)st->obs_refused);
	metric(&b, "h2emv_observations_built_total", "counter",
	       "Observations folded into the tree by this server's builder.", (double)st->obs_built);
	metric(&b, "h2emv_build_lag_observations", "gauge",
	       "Observations stored and not yet folded into the tree.", (double)queue);
	metric(&b, "h2emv_build_lag_seconds", "gauge",
	       "How long the oldest batch received and not yet built has waited.",
	       lag_seconds(st, now));
	metric(&b, "h2emv_snapshots_built_total", "counter", "Snapshots committed by the builder.",
	       (double)st->snapshots_built);
	metric(&b, "h2emv_build_errors_total", "counter", "Builds that failed.",
	       (double)st->build_errors);
	metric(&b, "h2emv_disk_full", "gauge",
	       "1 while the builder waits for space (its last build found the disk full).",
	       (double)st->disk_full);
	metric(&b, "h2emv_disk_full_waits_total", "counter",
	       "Builds that found the disk full, each followed by a wait (1 s doubling to 30 s).",
	       (double)st->disk_full_waits);
	metric(&b, "h2emv_disk_full_maintenance_runs_total", "counter",
	       "Maintenance runs (forced gc and compaction) while the disk was full.",
	       (double)st->full_maintain_runs);
	metric(&b, "h2emv_newest_snapshot", "gauge", "Sequence number of the newest snapshot.",
	       (double)v.last_snapshot);
	metric(&b, "h2emv_tree_nodes", "gauge", "Nodes of level 3 and above in the newest tree.",
	       (double)v.n_nodes);
	question_histogram(&b, st);
	metric(&b, "h2emv_questions_answered_total", "counter", "Questions answered.",
	       (double)st->questions);
	metric(&b, "h2emv_questions_failed_total", "counter",
	       "Questions that got an error (not counting nothing_built).",
	       (double)st->question_errors);
	metric(&b, "h2emv_questions_not_ready_total", "counter",
	       "Questions asked before anything was built (409 nothing_built).",
	       (double)st->questions_not_ready);
	policy_tokens(&b, st);
	metric(&b, "h2emv_policy_decisions_total", "counter",
	       "Decisions the policy was asked for (llm policy; 0 for builtin).",
	       (double)ps.decisions);
	metric(&b, "h2emv_policy_fallbacks_total", "counter",
	       "Decisions settled by the safe fallback.", (double)ps.fallbacks);
	metric(&b, "h2emv_nodes_forgotten_total", "counter",
	       "Nodes replaced by placeholders by the builder's forgetting.",
	       (double)st->nodes_forgotten);
	metric(&b, "h2emv_maintenance_runs_total", "counter", "h2emv_maintain calls.",
	       (double)st->maintain_runs);
	metric(&b, "h2emv_gc_runs_total", "counter", "Garbage collections.", (double)st->gc_runs);
	metric(&b, "h2emv_gc_snapshots_dropped_total", "counter", "Snapshots dropped by gc.",
	       (double)st->gc_snapshots_dropped);
	metric(&b, "h2emv_gc_versions_deleted_total", "counter", "Node versions deleted by gc.",
	       (double)st->gc_versions_deleted);
	metric(&b, "h2emv_gc_observations_reclaimed_total", "counter",
	       "Observations deleted from the log by gc.", (double)st->gc_obs_reclaimed);
	metric(&b, "h2emv_compactions_total", "counter", "Compactions of the data file.",
	       (double)st->compactions);
	metric(&b, "h2emv_compactions_skipped_total", "counter",
	       "Compactions due whose copy would not fit on the disk (gc's pages are reused).",
	       (double)st->compactions_skipped);
	metric(&b, "h2emv_store_pages_released_total", "counter",
	       "Times the store's mapped pages were let go of (every 0.1 s).",
	       (double)__atomic_load_n(&st->page_releases, __ATOMIC_RELAXED));
	metric(&b, "h2emv_heap_trims_total", "counter", "malloc_trim calls (every 10 s).",
	       (double)st->heap_trims);
	metric(&b, "h2emv_disk_bytes", "gauge", "Size of the data file.", (double)v.file_bytes);
	metric(&b, "h2emv_disk_used_bytes", "gauge", "Pages in use inside the data file.",
	       (double)v.used_bytes);
	tb_printf(&b, "# HELP h2emv_http_requests_total Requests answered, by status class.\n"
	              "# TYPE h2emv_http_requests_total counter\n"
	              "h2emv_http_requests_total{class=\"2xx\"} %llu\n"
	              "h2emv_http_requests_total{class=\"4xx\"} %llu\n"
	              "h2emv_http_requests_total{class=\"5xx\"} %llu\n",
	          (unsigned long long)(st->http_requests - st->http_4xx - st->http_5xx),
	          (unsigned long long)st->http_4xx, (unsigned long long)st->http_5xx);
	pthread_mutex_unlock(&st->mu);
	if (st->extra_metrics)
		st->extra_metrics(st->extra_ctx, &b);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	*len = b.len;
	return b.s;
}
