/*
 * serve_worker.c — `h2emv serve`'s background builder and its counters:
 * the builder folds observations as they arrive (forgetting runs inside
 * each build), h2emv_maintain runs when the queue has been empty a while
 * and once a night (yielding to new observations), and every part of the
 * service counts what it did here for /v1/status and /metrics.
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

/* Upper bounds (seconds) of the question latency histogram. */
const double serve_lat_bounds[SERVE_LAT_BUCKETS] = { 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	                                             0.1,   0.25,   0.5,   1,    2.5,   10 };

double serve_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int serve_state_init(serve_state *st, h2emv_mem *mem)
{
	memset(st, 0, sizeof *st);
	st->mem = mem;
	st->state = "idle";
	st->started = serve_now();
	st->idle_after = 5;
	st->maintenance = 1;
	st->nightly_min = 3 * 60;
	st->nightly_day = -1;
	if (pthread_mutex_init(&st->mu, NULL))
		return -1;
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_cond_init(&st->cv, &ca)) {
		pthread_mutex_destroy(&st->mu);
		return -1;
	}
	pthread_condattr_destroy(&ca);
	return 0;
}

void serve_state_destroy(serve_state *st)
{
	pthread_cond_destroy(&st->cv);
	pthread_mutex_destroy(&st->mu);
	free(st->marks);
}

static void add_tokens(h2emv_tokens *sum, const h2emv_tokens *t)
{
	sum->prompt += t->prompt;
	sum->completion += t->completion;
	sum->calls += t->calls;
}

void serve_worker_notify(serve_state *st, uint64_t n_stored, uint64_t n_refused,
                         uint64_t last_seq)
{
	pthread_mutex_lock(&st->mu);
	st->obs_received += n_stored;
	st->obs_refused += n_refused;
	if (n_stored) {
		st->batches++;
		st->last_ingest = serve_now();
		/* bounded (a builder locked out by another process builds nothing):
		 * past 65536 waiting batches the oldest marks alone tell the lag */
		if (st->n_marks == st->cap_marks && st->cap_marks < 65536) {
			size_t nc = st->cap_marks ? st->cap_marks * 2 : 64;
			serve_batch_mark *p = realloc(st->marks, nc * sizeof *p);
			if (p) {
				st->marks = p;
				st->cap_marks = nc;
			}
		}
		/* out of memory: the lag in seconds misses this batch, nothing else */
		if (st->n_marks < st->cap_marks)
			st->marks[st->n_marks++] = (serve_batch_mark){ last_seq, st->last_ingest };
		st->wake = 1;
		pthread_cond_signal(&st->cv);
	}
	pthread_mutex_unlock(&st->mu);
}

void serve_count_question(serve_state *st, double seconds, serve_question_end end,
                          const h2emv_tokens *t)
{
	pthread_mutex_lock(&st->mu);
	if (end == SERVE_Q_NOT_READY) {
		st->questions_not_ready++;
	} else if (end == SERVE_Q_ANSWERED) {
		st->questions++;
		st->lat_sum += seconds;
		for (int i = 0; i < SERVE_LAT_BUCKETS; i++)
			if (seconds <= serve_lat_bounds[i]) {
				st->lat_buckets[i]++;
				break;
			}
		if (t)
			add_tokens(&st->tok_ask, t);
	} else {
		st->question_errors++;
	}
	pthread_mutex_unlock(&st->mu);
}

/* The builder's and gc's progress callback: stop at the next safe point
 * when the service stops (and, for gc, when observations wait). */
static int build_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	serve_state *st = ctx;
	pthread_mutex_lock(&st->mu);
	int stop = st->stop;
	pthread_mutex_unlock(&st->mu);
	return stop;
}

static int gc_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	serve_state *st = ctx;
	pthread_mutex_lock(&st->mu);
	int stop = st->stop || st->wake;
	pthread_mutex_unlock(&st->mu);
	return stop;
}

/* The store's build cursor: what is folded and committed. */
static uint64_t committed_cursor(h2emv_mem *mem, int *ok)
{
	h2emv_stats s;
	*ok = h2emv_mem_stats(&s, mem, NULL) == H2EMV_OK;
	return *ok ? s.build_cursor : 0;
}

/* A build that failed for want of space: wait 1, 2, 4 ... 30 s before the
 * next (new observations do not wake it: they cannot be stored either);
 * the state says so. One that succeeds ends the wait. */
static void note_disk_full(serve_state *st, int full)
{
	if (!full) {
		st->disk_full = 0;
		st->backoff = 0;
		st->full_maintained = 0;
		return;
	}
	st->disk_full = 1;
	st->disk_full_waits++;
	st->backoff = st->backoff ? st->backoff * 2 : 1;
	if (st->backoff > SERVE_DISK_FULL_MAX_WAIT)
		st->backoff = SERVE_DISK_FULL_MAX_WAIT;
	st->retry_at = serve_now() + st->backoff;
	st->state = SERVE_STATE_DISK_FULL;
}

int serve_waits_for_space(serve_state *st)
{
	pthread_mutex_lock(&st->mu);
	int full = st->disk_full;
	pthread_mutex_unlock(&st->mu);
	return full;
}

/* Called with mu held. The error of the builder (kind 1) or of maintenance
 * (kind 2) that /v1/status shows until the same work next succeeds; then it
 * moves to cleared_error, so a state that recovered (a full disk) does not
 * read as a standing fault (docs/serve.md). */
static void set_error(serve_state *st, int kind, const char *what, int rc, const char *msg)
{
	snprintf(st->last_error, sizeof st->last_error, "%s: %s", what,
	         msg && *msg ? msg : h2emv_strerror(rc));
	st->last_error_kind = kind;
	st->last_error_at = serve_now();
}

static void clear_error(serve_state *st, int kind)
{
	if (st->last_error_kind != kind)
		return;
	memcpy(st->cleared_error, st->last_error, sizeof st->cleared_error);
	st->cleared_at = serve_now();
	st->last_error[0] = 0;
	st->last_error_kind = 0;
}

/* Called with mu held; releases it around the build. */
static void build_once(serve_state *st)
{
	st->state = "building";
	pthread_mutex_unlock(&st->mu);
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	o.progress = build_progress;
	o.progress_ctx = st;
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	int ok0, ok1;
	uint64_t c0 = committed_cursor(st->mem, &ok0);
	int rc = h2emv_build(&r, st->mem, &o, &err);
	uint64_t c1 = committed_cursor(st->mem, &ok1);
	pthread_mutex_lock(&st->mu);
	st->state = "idle";
	st->builds++;
	/* what was committed, once: a build that failed folded nothing that
	 * stays, and its retry folds the same observations again */
	st->obs_built += ok0 && ok1 ? (c1 > c0 ? c1 - c0 : 0) : rc ? 0 : r.obs_folded;
	note_disk_full(st, rc == H2EMV_ENOSPC);
	st->snapshots_built += r.snapshots;
	st->nodes_forgotten += r.nodes_forgotten;
	add_tokens(&st->tok_build, &r.tokens_build);
	add_tokens(&st->tok_forget, &r.tokens_forget);
	if (rc) {
		st->build_errors++;
		set_error(st, 1, "build", rc, err.message);
		return;
	}
	clear_error(st, 1);
	size_t k = 0;
	while (k < st->n_marks && st->marks[k].last_seq <= r.build_cursor)
		k++;
	if (k) {
		memmove(st->marks, st->marks + k, (st->n_marks - k) * sizeof *st->marks);
		st->n_marks -= k;
	}
	if (r.obs_folded == 0)
		st->n_marks = 0; /* nothing waits: every mark is built (or was never ours) */
}

static int utc_day(double t)
{
	return (int)(t / 86400);
}

/* Called with mu held after a build that folded nothing (the queue empty,
 * or the disk full); releases it around the work. On a full disk the
 * maintenance is what can make room: it runs forced (gc, then compaction,
 * due or not), the first time as soon as the robot has been quiet for
 * --idle seconds, then at most once a minute, and the builder tries again
 * at once after it. */
static void maybe_maintain(serve_state *st)
{
	double now = serve_now();
	unsigned minute = (unsigned)((long long)now % 86400 / 60);
	int nightly = minute >= st->nightly_min && utc_day(now) != st->nightly_day;
	int idle = now - st->last_ingest >= st->idle_after;
	int full = st->disk_full, first_full = full && !st->full_maintained;
	if (!st->maintenance || !idle || (!nightly && !first_full && now - st->last_maintain < 60))
		return;
	st->state = "maintaining";
	pthread_mutex_unlock(&st->mu);
	h2emv_maintain_options mo = H2EMV_MAINTAIN_OPTIONS_INIT;
	mo.force = nightly || full;
	mo.gc = (h2emv_gc_options)H2EMV_GC_OPTIONS_INIT;
	mo.gc.keep_snapshots = 4; /* what h2emv_maintain keeps by default */
	mo.gc.progress = gc_progress;
	mo.gc.progress_ctx = st;
	h2emv_maintain_result r = { 0 };
	h2emv_error err = { 0 };
	/* on a full disk, what `gc && compact` beside it would do; a copy that
	 * cannot fit is no failure (compact_skipped: the builder reuses gc's
	 * pages in place), and gc's work is counted either way */
	int rc = h2emv_maintain(&r, st->mem, &mo, &err);
	pthread_mutex_lock(&st->mu);
	st->state = st->disk_full ? SERVE_STATE_DISK_FULL : "idle";
	st->last_maintain = serve_now();
	st->maintain_runs++;
	if (full) {
		st->full_maintained = 1;
		st->full_maintain_runs++;
		st->retry_at = st->last_maintain; /* the room it made, if any, is for the builder */
	}
	if (nightly)
		st->nightly_day = utc_day(now);
	if (rc)
		set_error(st, 2, "maintenance", rc, err.message);
	else
		clear_error(st, 2);
	st->compactions_skipped += r.compact_skipped;
	if (r.compact_skipped)
		snprintf(st->compact_skipped_why, sizeof st->compact_skipped_why, "%s",
		         r.compact_skipped_why);
	st->gc_runs += r.gc_ran;
	st->compactions += r.compacted;
	st->compactions_deferred += r.compact_deferred;
	st->gc_snapshots_dropped += r.gc.snapshots_dropped;
	st->gc_versions_deleted += r.gc.versions_deleted;
	st->gc_obs_reclaimed += r.gc.obs_reclaimed;
}

/* Called with mu held. Every second, let go of the store's pages that
 * requests mapped in (they stay in the page cache; a read maps them again):
 * askers and tree exports touch pages of a store that keeps growing, and
 * each counts in the resident set until released. Every 10 s, hand the
 * memory freed by requests and builds back to the system (malloc_trim:
 * the free pages of every malloc arena, not only the tops): with many
 * threads each allocating in its own arena, freed memory otherwise stays
 * with the process. Without both, RSS only grows under a mixed load
 * (issue 21). */
static void give_back(serve_state *st)
{
	double now = serve_now();
	int release = now - st->last_release >= 1, trim = now - st->last_trim >= 10;
	if (!release && !trim)
		return;
	st->last_release = now;
	if (trim)
		st->last_trim = now;
	pthread_mutex_unlock(&st->mu);
	h2emv_mem_release_pages(st->mem);
	if (trim)
		malloc_trim(0);
	pthread_mutex_lock(&st->mu);
	st->page_releases++;
	st->heap_trims += trim;
}

static void *worker_main(void *arg)
{
	serve_state *st = arg;
	pthread_mutex_lock(&st->mu);
	while (!st->stop) {
		double wait = st->disk_full ? st->retry_at - serve_now() : 1;
		if ((!st->wake || st->disk_full) && wait > 0) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			/* and poll: another process may append too */
			ts.tv_sec += (time_t)wait;
			ts.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			int rc = pthread_cond_timedwait(&st->cv, &st->mu, &ts);
			if (rc && rc != ETIMEDOUT)
				break;
		}
		if (st->stop)
			break;
		if (st->disk_full && serve_now() < st->retry_at)
			continue; /* woken early by a batch: the wait for space goes on */
		st->wake = 0;
		uint64_t before = st->obs_built;
		build_once(st);
		if (!st->stop && !st->wake && st->obs_built == before)
			maybe_maintain(st);
		give_back(st);
	}
	st->state = "stopped";
	pthread_mutex_unlock(&st->mu);
	return NULL;
}

int serve_worker_start(serve_state *st)
{
	st->stop = 0;
	st->wake = 1; /* fold what waits already */
	/* started after today's nightly time: the next one is tomorrow's */
	double now = serve_now();
	if ((unsigned)((long long)now % 86400 / 60) >= st->nightly_min)
		st->nightly_day = utc_day(now);
	if (pthread_create(&st->worker, NULL, worker_main, st))
		return -1;
	st->worker_running = 1;
	return 0;
}

void serve_worker_stop(serve_state *st)
{
	if (!st->worker_running)
		return;
	pthread_mutex_lock(&st->mu);
	st->stop = 1;
	pthread_cond_signal(&st->cv);
	pthread_mutex_unlock(&st->mu);
	pthread_join(st->worker, NULL);
	st->worker_running = 0;
}

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
	tb_printf(&b, "# HELP h2emv_question_duration_seconds Time to answer POST /v1/ask.\n"
	              "# TYPE h2emv_question_duration_seconds histogram\n");
	uint64_t cum = 0;
	for (int i = 0; i < SERVE_LAT_BUCKETS; i++) {
		cum += st->lat_buckets[i];
		tb_printf(&b, "h2emv_question_duration_seconds_bucket{le=\"%g\"} %llu\n",
		          serve_lat_bounds[i], (unsigned long long)cum);
	}
	tb_printf(&b,
	          "h2emv_question_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
	          "h2emv_question_duration_seconds_sum %.9g\n"
	          "h2emv_question_duration_seconds_count %llu\n",
	          (unsigned long long)st->questions, st->lat_sum, (unsigned long long)st->questions);
	metric(&b, "h2emv_questions_answered_total", "counter", "Questions answered.",
	       (double)st->questions);
	metric(&b, "h2emv_questions_failed_total", "counter",
	       "Questions that got an error (not counting nothing_built).",
	       (double)st->question_errors);
	metric(&b, "h2emv_questions_not_ready_total", "counter",
	       "Questions asked before anything was built (409 nothing_built).",
	       (double)st->questions_not_ready);
	tb_printf(&b, "# HELP h2emv_policy_calls_total Policy calls, by what they were for.\n"
	              "# TYPE h2emv_policy_calls_total counter\n");
	const struct {
		const char *what;
		const h2emv_tokens *t;
	} tk[] = { { "build", &st->tok_build }, { "forget", &st->tok_forget },
		   { "ask", &st->tok_ask }, { "say", &st->tok_say } };
	for (size_t i = 0; i < 4; i++)
		tb_printf(&b, "h2emv_policy_calls_total{for=\"%s\"} %llu\n", tk[i].what,
		          (unsigned long long)tk[i].t->calls);
	tb_printf(&b, "# HELP h2emv_policy_tokens_total Policy tokens, by use and kind.\n"
	              "# TYPE h2emv_policy_tokens_total counter\n");
	for (size_t i = 0; i < 4; i++)
		tb_printf(&b,
		          "h2emv_policy_tokens_total{for=\"%s\",kind=\"prompt\"} %llu\n"
		          "h2emv_policy_tokens_total{for=\"%s\",kind=\"completion\"} %llu\n",
		          tk[i].what, (unsigned long long)tk[i].t->prompt, tk[i].what,
		          (unsigned long long)tk[i].t->completion);
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
	       "Times the store's mapped pages were let go of (every second).",
	       (double)st->page_releases);
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
