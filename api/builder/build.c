/*
 * build.c — h2emv_build and h2emv_forget: fold the observations waiting
 * after the build cursor into the tree, one at a time (segment, group,
 * forget), committing snapshots as it goes.
 *
 * The forgetting pass runs after every observation at the memory's clock
 * (the time of the newest observation), so where commits fall never
 * changes the tree: a build killed and restarted from its last snapshot
 * ends with the same tree as one uninterrupted run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "api/builder/build.h"
#include "api/recall/recall_index.h"
#include "api/config/profile.h"
#include "api/observe/observation.h"

#define DEFAULT_COMMIT_EVERY 1000
#define READ_CHUNK 512 /* observations read per read view */
#define READ_RELEASE 4096 /* node versions read between letting go of the map's pages */

/* One builder per memory at a time, across processes: an exclusive flock
 * on build.lock, which also holds the holder's pid for the message the
 * next one gets. */
static int busy(h2emv_error *err, int fd, const char *dir)
{
	char buf[32] = { 0 };
	long pid = 0;
	if (pread(fd, buf, sizeof buf - 1, 0) > 0)
		pid = strtol(buf, NULL, 10);
	if (pid > 0 && pid != (long)getpid())
		return eng_fail(err, H2EMV_EBUSY,
		                "another builder (process %ld) is working on %s; only one may run "
		                "at a time (a `build --follow` runs until it is stopped)",
		                pid, dir);
	return eng_fail(err, H2EMV_EBUSY,
	                "another builder is working on %s; only one may run at a time (a `build "
	                "--follow` runs until it is stopped)",
	                dir);
}

static int take_build_lock(int *fd, h2emv_mem *mem, h2emv_error *err)
{
	char path[4200];
	const char *dir = eng_dir(mem->env);
	if (eng_readonly(mem->env))
		return eng_fail(err, H2EMV_EREADONLY,
		                "%s is open read-only: building writes snapshots", dir);
	snprintf(path, sizeof path, "%s/build.lock", dir);
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		return eng_fail(err, errno == EACCES || errno == EROFS || errno == EPERM
		                         ? H2EMV_EREADONLY : H2EMV_EIO,
		                "%s: %s", path, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
		int rc = busy(err, *fd, dir);
		close(*fd);
		*fd = -1;
		return rc;
	}
	/* who holds it, for the message above; a failure here costs only that */
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(*fd, 0) == 0 && pwrite(*fd, pid, (size_t)n, 0) != n)
		(void)ftruncate(*fd, 0);
	return H2EMV_OK;
}

/* The builder role for one call: the handle's (one thread at a time), and
 * build.lock unless the handle's claim already holds it. */
static int lock_builder(builder *b, h2emv_mem *mem, h2emv_error *err)
{
	if (pthread_mutex_trylock(&mem->build_mu) != 0)
		return eng_fail(err, H2EMV_EBUSY,
		                "another thread is building %s with this handle", eng_dir(mem->env));
	b->locked = 1;
	if (mem->build_fd >= 0)
		return H2EMV_OK;
	return take_build_lock(&b->lockfd, mem, err);
}

int h2emv_build_claim(h2emv_mem *mem, h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_build_claim: mem is NULL");
	if (pthread_mutex_trylock(&mem->build_mu) != 0)
		return eng_fail(err, H2EMV_EBUSY,
		                "another thread is building %s with this handle", eng_dir(mem->env));
	int rc = mem->build_fd >= 0 ? H2EMV_OK : take_build_lock(&mem->build_fd, mem, err);
	pthread_mutex_unlock(&mem->build_mu);
	return rc;
}

void h2emv_build_release(h2emv_mem *mem)
{
	if (!mem)
		return;
	pthread_mutex_lock(&mem->build_mu);
	if (mem->build_fd >= 0)
		close(mem->build_fd);
	mem->build_fd = -1;
	pthread_mutex_unlock(&mem->build_mu);
}

static int open_with(builder *b, h2emv_mem *mem, int locked, h2emv_error *err)
{
	memset(b, 0, sizeof *b);
	b->mem = mem;
	b->lockfd = -1;
	int rc = locked ? lock_builder(b, mem, err) : H2EMV_OK;
	if (rc) {
		builder_close(b);
		return rc;
	}
	rc = h2emv_config_get(&b->cfg, mem, err);
	if (rc == H2EMV_OK)
		rc = tree_load(&b->t, mem->env, err);
	if (rc == H2EMV_OK)
		rc = rules_current_list(&b->rules, &b->rules_version, mem, err);
	if (rc == H2EMV_OK)
		rc = profile_load(&b->prof, mem->env, err);
	if (rc == H2EMV_OK && !(b->relcache = calloc(RELCACHE_SLOTS, sizeof *b->relcache)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc) {
		builder_close(b);
		return rc;
	}
	b->t.rules_version = b->rules_version;
	if ((rc = seg_resume(b, err))) {
		builder_close(b);
		return rc;
	}
	return H2EMV_OK;
}

/* Let go of every committed subtree off the frontier's path: the heap keeps
 * the root, its children, the frontier and their ancestors' children. */
static void shed(builder *b, tnode *n)
{
	for (uint32_t i = 0; i < n->n_kids; i++) {
		tnode *k = n->kids[i];
		if (builder_holds(b, k))
			shed(b, k);
		else
			tree_shed(&b->t, k);
	}
}

void builder_shed(builder *b)
{
	shed(b, b->t.root);
	eng_map_release(b->mem->env);
	b->read_released = b->t.n_read;
}

/* Forgetting reads old subtrees between commits: their pages are let go
 * every READ_RELEASE nodes, so the resident set does not gather them. */
static void release_reads(builder *b)
{
	if (b->t.n_read - b->read_released >= READ_RELEASE) {
		eng_map_release(b->mem->env);
		b->read_released = b->t.n_read;
	}
}

int builder_open(builder *b, h2emv_mem *mem, h2emv_error *err)
{
	return open_with(b, mem, 1, err);
}

int builder_open_unlocked(builder *b, h2emv_mem *mem, h2emv_error *err)
{
	return open_with(b, mem, 0, err);
}

void builder_close(builder *b)
{
	tree_free(&b->t);
	pol_rule_list_free(&b->rules);
	profile_free(b->prof);
	b->prof = NULL;
	free(b->relcache);
	b->relcache = NULL;
	if (b->lockfd >= 0)
		close(b->lockfd);
	b->lockfd = -1;
	if (b->locked)
		pthread_mutex_unlock(&b->mem->build_mu);
	b->locked = 0;
}

/* Commit the tree with the relevance estimates made since the last one. */
static int commit(builder *b, uint64_t *snapshots, h2emv_error *err)
{
	eng_kv_ent *kv = calloc(b->n_pending ? b->n_pending : 1, sizeof *kv);
	uint8_t(*keys)[8] = calloc(b->n_pending ? b->n_pending : 1, 8);
	eng_buf vals = { 0 };
	int rc = H2EMV_OK;
	if (!kv || !keys)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t *at = rc ? NULL : calloc(b->n_pending + 1, sizeof *at);
	if (rc == H2EMV_OK && !at)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	for (size_t i = 0; rc == H2EMV_OK && i < b->n_pending; i++) {
		at[i] = vals.len;
		be64(keys[i], b->pending[i].key);
		if (relcache_encode(&vals, b->pending[i].alpha, b->pending[i].last))
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; rc == H2EMV_OK && i < b->n_pending; i++) {
		size_t end = i + 1 < b->n_pending ? at[i + 1] : vals.len;
		kv[i] = (eng_kv_ent){ ENG_KV_RELCACHE, keys[i], 8, vals.data + at[i], end - at[i] };
	}
	if (rc == H2EMV_OK)
		rc = tree_commit(&b->t, b->mem->env, kv, b->n_pending, NULL, err);
	if (rc == H2EMV_OK) {
		b->n_pending = 0;
		(*snapshots)++;
	}
	free(kv);
	free(keys);
	free(at);
	eng_buf_free(&vals);
	return rc;
}

/* Fold observation `seq` (its body) into the tree. A damaged body cannot
 * be folded: it is skipped (check reports it) rather than stopping the
 * memory forever. */
static int fold(builder *b, const eng_buf *body, uint64_t *skipped, h2emv_error *err)
{
	scene s;
	if (obs_body_check(body->data, body->len, NULL) != H2EMV_OK ||
	    scene_decode(&s, body->data, body->len, NULL) != H2EMV_OK) {
		(*skipped)++;
		return H2EMV_OK;
	}
	int rc = seg_add(b, &s, body->data, body->len, err);
	if (rc == H2EMV_OK) {
		int64_t t = s.t_end > s.t ? s.t_end : s.t;
		if (t > b->t.t_now)
			b->t.t_now = t;
		rc = forget_pass(b, b->t.t_now, NULL, NULL, err);
		release_reads(b);
	}
	scene_free(&s);
	return rc;
}

static void result(h2emv_build_result *out, const builder *b, uint64_t folded, uint64_t snaps)
{
	if (!out)
		return;
	out->obs_folded = folded;
	out->snapshots = snaps;
	out->nodes_forgotten = b->forgotten;
	out->tree_size = tree_size_l3(&b->t);
	out->build_cursor = b->t.cursor;
	out->tokens_build = b->tok_build;
	out->tokens_forget = b->tok_forget;
}

int h2emv_build(h2emv_build_result *out, h2emv_mem *mem, const h2emv_build_options *opts,
                h2emv_error *err)
{
	h2emv_build_options def = H2EMV_BUILD_OPTIONS_INIT;
	if (!opts)
		opts = &def;
	if (!mem || opts->version < 1 || opts->version > H2EMV_BUILD_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_build: bad arguments or options version");
	builder b;
	int rc = builder_open(&b, mem, err);
	if (rc)
		return rc;
	b.estimate = opts->version >= 3 && opts->estimate_tokens;
	/* a memory from before the term index (or salvaged) gets it now */
	rc = ridx_ensure(mem, opts->progress, opts->progress_ctx, err);
	if (rc == H2EMV_ENOSPC) /* (a full disk: fold first, index when there is room) */
		rc = H2EMV_OK;
	uint64_t every = opts->commit_every ? opts->commit_every : DEFAULT_COMMIT_EVERY;
	uint64_t folded = 0, snaps = 0, skipped = 0, missing = 0, last = 0, since = 0;
	eng_buf body = { 0 };
	int stop = 0;
	while (rc == H2EMV_OK && !stop) {
		eng_read *r;
		if ((rc = eng_read_begin(&r, mem->env, err)))
			break;
		rc = eng_obs_last(&last, r, err);
		uint64_t n = 0;
		while (rc == H2EMV_OK && b.t.cursor < last && n < READ_CHUNK &&
		       (!opts->max_obs || folded < opts->max_obs)) {
			rc = eng_obs_get(&body, r, b.t.cursor + 1, err);
			if (rc == H2EMV_ENOTFOUND) {
				/* a gap in the log (observations a salvage could not
				 * save): go on from the next stored one, counting it */
				uint64_t next = 0;
				rc = eng_obs_next(&next, r, b.t.cursor + 1, err);
				if (rc == H2EMV_OK && next <= b.t.cursor + 1)
					rc = eng_fail(err, H2EMV_EINTERNAL, "observation %llu is both "
					              "missing and there", (unsigned long long)next);
				if (rc)
					break;
				missing += next - (b.t.cursor + 1);
				b.t.cursor = next - 1;
				continue;
			}
			if (rc == H2EMV_ECORRUPT) { /* a damaged record: skip it, check reports it */
				skipped++;
				rc = H2EMV_OK;
			} else if (rc == H2EMV_OK) {
				rc = fold(&b, &body, &skipped, err);
			}
			if (rc)
				break;
			b.t.cursor++;
			folded++;
			since++;
			n++;
		}
		eng_read_end(r);
		int done = b.t.cursor >= last || (opts->max_obs && folded >= opts->max_obs);
		if (rc == H2EMV_OK && (since >= every || (done && since))) {
			rc = commit(&b, &snaps, err);
			if (rc == H2EMV_OK)
				builder_shed(&b); /* committed: the store holds it */
			since = 0;
			if (rc == H2EMV_OK && opts->progress &&
			    opts->progress(opts->progress_ctx, "observations", b.t.cursor, last))
				stop = 1;
		}
		if (done)
			break;
	}
	eng_buf_free(&body);
	result(out, &b, folded, snaps);
	if (out && opts->version >= 2) { /* a version-1 caller has the shorter struct */
		out->obs_skipped = skipped;
		out->obs_missing = missing;
	}
	builder_close(&b);
	return rc;
}

typedef struct waiting {
	h2emv_mem *mem;
	uint64_t cursor;
	unsigned polls;
} waiting;

/* Observations arrived after the cursor? Polled between nodes. */
static int obs_waiting(void *ctx)
{
	waiting *w = ctx;
	if (++w->polls % 64)
		return 0;
	eng_read *r;
	uint64_t last = 0;
	if (eng_read_begin(&r, w->mem->env, NULL) == H2EMV_OK) {
		eng_obs_last(&last, r, NULL);
		eng_read_end(r);
	}
	return last > w->cursor;
}

int h2emv_forget(h2emv_build_result *out, h2emv_mem *mem, h2emv_time now, h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_forget: mem is NULL");
	builder b;
	int rc = builder_open(&b, mem, err);
	if (rc)
		return rc;
	uint64_t snaps = 0;
	if (now > b.t.t_now)
		b.t.t_now = now;
	waiting w = { mem, b.t.cursor, 0 };
	rc = forget_pass(&b, b.t.t_now, obs_waiting, &w, err);
	if (rc == H2EMV_OK)
		rc = commit(&b, &snaps, err);
	result(out, &b, 0, snaps);
	builder_close(&b);
	return rc;
}

int h2emv_forget_preview(h2emv_build_result *out, h2emv_mem *mem, h2emv_time now,
                         h2emv_forgotten_fn fn, void *ctx, h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_forget_preview: mem is NULL");
	builder b;
	int rc = builder_open_unlocked(&b, mem, err);
	if (rc)
		return rc;
	b.on_forget = fn;
	b.on_forget_ctx = ctx;
	if (now > b.t.t_now)
		b.t.t_now = now;
	rc = forget_pass(&b, b.t.t_now, NULL, NULL, err);
	if (rc == H2EMV_OK)
		tree_fit_range(b.t.root);
	result(out, &b, 0, 0);
	builder_close(&b); /* nothing committed, no estimate stored */
	return rc;
}
