/*
 * serve_worker.c — `h2emv serve`'s background builder and its counters:
 * the builder folds observations as they arrive (forgetting runs inside
 * each build), h2emv_maintain runs when the queue has been empty a while
 * and once a night (yielding to new observations), and every part of the
 * service counts what it did here (serve_status.c says it in /v1/status
 * and /metrics).
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

/* Called with mu held. Every 10 s, hand the memory freed by requests and
 * builds back to the system (malloc_trim: the free pages of every malloc
 * arena, not only the tops): with many threads each allocating in its own
 * arena, freed memory otherwise stays with the process (issue 21). */
static void give_back(serve_state *st)
{
	double now = serve_now();
	if (now - st->last_trim < 10)
		return;
	st->last_trim = now;
	pthread_mutex_unlock(&st->mu);
	malloc_trim(0);
	pthread_mutex_lock(&st->mu);
	st->heap_trims++;
}

/* Lets go of the store's pages that requests and builds mapped in, every
 * SERVE_RELEASE_MS (they stay in the page cache; a read maps them again at
 * the cost of a minor fault). A tree export or a build reads the whole
 * store in about a second, so a release once a second (from the worker,
 * after each build) left the resident set at the size of the store, which
 * grows: x2.69 over 10 minutes of mixed load. Released this often, what
 * stays mapped is what readers touched in the last tenth of a second,
 * which does not grow with the store (issue 21, docs/reliability.md). */
#define SERVE_RELEASE_MS 100

static void *releaser_main(void *arg)
{
	serve_state *st = arg;
	struct timespec ts = { 0, SERVE_RELEASE_MS * 1000000L };
	while (!__atomic_load_n(&st->releaser_stop, __ATOMIC_ACQUIRE)) {
		nanosleep(&ts, NULL);
		h2emv_mem_release_pages(st->mem);
		__atomic_add_fetch(&st->page_releases, 1, __ATOMIC_RELAXED);
	}
	return NULL;
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
	st->releaser_stop = 0;
	if (pthread_create(&st->releaser, NULL, releaser_main, st) == 0)
		st->releaser_running = 1; /* without it, serve still serves */
	return 0;
}

void serve_worker_stop(serve_state *st)
{
	if (st->releaser_running) {
		__atomic_store_n(&st->releaser_stop, 1, __ATOMIC_RELEASE);
		pthread_join(st->releaser, NULL);
		st->releaser_running = 0;
	}
	if (!st->worker_running)
		return;
	pthread_mutex_lock(&st->mu);
	st->stop = 1;
	pthread_cond_signal(&st->cv);
	pthread_mutex_unlock(&st->mu);
	pthread_join(st->worker, NULL);
	st->worker_running = 0;
}
