/*
 * mem.c — the public memory handle: open/close, observation lookup, stats
 * and maintenance. A thin layer: ingest lives in obs_ingest.c, validation
 * and encoding of observations in observation.c, storage in engine/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/builder/relcache.h"
#include "api/mem/mem.h"
#include "api/observe/observation.h"
#include "api/policy/custom/custom.h"
#include "api/policy/llm/llm.h"
#include "api/recall/recall_index.h"

int h2emv_mem_open(h2emv_mem **out, const char *dir, const h2emv_open_options *opts,
                   h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!out || !dir || !*dir)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_mem_open: out and dir are required");
	if (opts && opts->version != H2EMV_OPEN_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_mem_open: unknown options version %u",
		                opts->version);
	eng_open_opts eo = { 0 };
	if (opts) {
		eo.flags = opts->flags;
		eo.initial_map_size = opts->initial_map_size;
		eo.max_map_size = opts->max_map_size;
		eo.dict_train_after = opts->dict_train_after;
	}
	h2emv_mem *m = calloc(1, sizeof *m);
	if (!m)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	pthread_mutex_init(&m->lock, NULL);
	pthread_mutex_init(&m->spare_lock, NULL);
	pthread_mutex_init(&m->ingest_lock, NULL);
	pthread_mutex_init(&m->build_mu, NULL);
	m->build_fd = -1;
	m->clock = -1;
	int rc = eng_open(&m->env, dir, &eo, err);
	if (rc == H2EMV_OK)
		eng_index_set_fn(m->env, ridx_postings, NULL);
	if (rc == H2EMV_OK)
		rc = config_load(m, err);
	if (rc == H2EMV_OK)
		rc = pol_builtin_new(&m->policy, err);
	if (rc) {
		h2emv_mem_close(m);
		return rc;
	}
	*out = m;
	return H2EMV_OK;
}

void h2emv_mem_close(h2emv_mem *mem)
{
	if (!mem)
		return;
	pol_free(mem->policy);
	snap_spare_free(mem->spare);
	h2emv_build_release(mem);
	eng_close(mem->env);
	pthread_mutex_destroy(&mem->build_mu);
	pthread_mutex_destroy(&mem->spare_lock);
	pthread_mutex_destroy(&mem->ingest_lock);
	pthread_mutex_destroy(&mem->lock);
	free(mem);
}

int h2emv_mem_set_policy(h2emv_mem *mem, const char *name, const char *config_path,
                         h2emv_error *err)
{
	if (!mem || !name)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_mem_set_policy: mem and name are required");
	h2emv_policy *p = NULL;
	int rc;
	if (!strcmp(name, "builtin"))
		rc = pol_builtin_new(&p, err);
	else if (!strcmp(name, "llm"))
		rc = pol_llm_new(&p, config_path, err);
	else
		return eng_fail(err, H2EMV_EINVAL, "unknown policy '%s' (builtin or llm)", name);
	if (rc != H2EMV_OK)
		return rc;
	pol_free(mem->policy);
	mem->policy = p;
	return H2EMV_OK;
}

int h2emv_mem_set_custom_policy(h2emv_mem *mem, const h2emv_custom_policy *policy,
                                h2emv_error *err)
{
	if (!mem || !policy)
		return eng_fail(err, H2EMV_EINVAL,
		                "h2emv_mem_set_custom_policy: mem and policy are required");
	h2emv_policy *p = NULL;
	int rc = pol_custom_new(&p, policy, err);
	if (rc != H2EMV_OK)
		return rc;
	pol_free(mem->policy);
	mem->policy = p;
	return H2EMV_OK;
}

void h2emv_mem_policy_stats(h2emv_policy_stats *out, h2emv_mem *mem)
{
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", mem->policy->name);
	if (mem->policy->stats) {
		pol_stats st;
		mem->policy->stats(mem->policy->ctx, &st);
		out->decisions = st.decisions;
		out->bad_replies = st.bad_replies;
		out->retries = st.retries;
		out->fallbacks = st.fallbacks;
		out->transport_errors = st.transport_errors;
	}
}

const char *h2emv_mem_dir(const h2emv_mem *mem)
{
	return eng_dir(mem->env);
}

int h2emv_guard_faults(h2emv_error *err)
{
	if (err)
		err->message[0] = 0;
	return eng_fault_guard_install(err);
}

int h2emv_obs_validate(const char *json, size_t len, uint64_t line, h2emv_error *err)
{
	if (!json)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_obs_validate: json is NULL");
	eng_buf body = { 0 };
	int rc = obs_from_json(&body, json, len, line, err);
	eng_buf_free(&body);
	return rc;
}

int h2emv_obs_canonical(char **out, size_t *len_out, const char *json, size_t len,
                        uint64_t line, h2emv_error *err)
{
	if (!out || !json)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_obs_canonical: out and json are required");
	*out = NULL;
	eng_buf body = { 0 };
	size_t n = 0;
	int rc = obs_from_json(&body, json, len, line, err);
	if (rc == H2EMV_OK)
		rc = obs_to_json(out, &n, body.data, body.len, err);
	eng_buf_free(&body);
	if (rc == H2EMV_OK && len_out)
		*len_out = n;
	return rc;
}

int h2emv_obs_get_json(char **out, size_t *len_out, h2emv_mem *mem, uint64_t seq,
                       h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_obs_get_json: bad arguments");
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	eng_buf body = { 0 };
	rc = eng_obs_get(&body, r, seq, err);
	eng_read_end(r);
	size_t n = 0;
	if (rc == H2EMV_OK)
		rc = obs_to_json(out, &n, body.data, body.len, err);
	if (rc == H2EMV_OK && len_out)
		*len_out = n;
	eng_buf_free(&body);
	return rc;
}

int h2emv_mem_stats(h2emv_stats *out, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_mem_stats: bad arguments");
	return eng_stats(out, mem->env, err);
}

void h2emv_mem_release_pages(h2emv_mem *mem)
{
	if (mem)
		eng_map_release(mem->env);
}

static int cache_used(int64_t *t, const void *body, size_t len)
{
	double alpha;
	return relcache_decode(&alpha, t, body, len) ? -1 : 0;
}

/* What gc reclaims beyond node versions, from the configuration; `purge`
 * ignores the raw-log window. */
static void retain_of(eng_retain *ret, h2emv_mem *mem, int purge)
{
	h2emv_config c;
	h2emv_config_get(&c, mem, NULL);
	*ret = (eng_retain){ .obs_time = obs_body_end, .cache_used = cache_used,
		             .raw_window = purge ? 0 : c.raw_log_window,
		             .cache_window = RELCACHE_WINDOW,
		             .cache_max = RELCACHE_MAX };
}

int h2emv_gc(h2emv_gc_result *out, h2emv_mem *mem, const h2emv_gc_options *opts,
             h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_gc: mem is NULL");
	h2emv_gc_result res = { 0 };
	/* gc frees space: on a full disk it may use the reserve */
	eng_maintenance(mem->env, 1);
	int rc = eng_gc(&res, mem->env, opts, err);
	if (rc == H2EMV_OK && !(opts && opts->version >= 2 && opts->keep_log)) {
		eng_retain ret;
		eng_retain_stats st;
		retain_of(&ret, mem, opts && opts->version >= 3 && opts->purge);
		rc = eng_retain_run(&st, mem->env, &ret, opts ? opts->batch : 0, 0,
		                    opts ? opts->progress : NULL, opts ? opts->progress_ctx : NULL,
		                    err);
		if (rc == H2EMV_OK) {
			res.obs_reclaimed = st.obs_deleted;
			res.obs_bytes_reclaimed = st.obs_deleted_bytes;
			res.cache_collected = st.cache_deleted;
		}
	}
	eng_maintenance(mem->env, 0);
	if (out)
		*out = res;
	return rc;
}

int h2emv_retention_stats(h2emv_retention *out, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_retention_stats: bad arguments");
	eng_retain ret;
	eng_retain_stats st;
	retain_of(&ret, mem, 0);
	int rc = eng_retain_run(&st, mem->env, &ret, 0, 1, NULL, NULL, err);
	if (rc)
		return rc;
	memset(out, 0, sizeof *out);
	out->obs_live = st.obs_live;
	out->obs_window = st.obs_window;
	out->obs_unbuilt = st.obs_unbuilt;
	out->obs_unreadable = st.obs_unreadable;
	out->obs_reclaimable = st.obs_reclaimable;
	out->obs_reclaimable_bytes = st.obs_reclaimable_bytes;
	out->obs_total = st.obs_live + st.obs_window + st.obs_unbuilt + st.obs_unreadable +
	                 st.obs_reclaimable;
	out->cache_entries = st.cache_entries;
	out->cache_collectable = st.cache_collectable;
	return H2EMV_OK;
}

int h2emv_compact(uint64_t *bytes_before, uint64_t *bytes_after, h2emv_mem *mem,
                  h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_compact: mem is NULL");
	int rc = eng_compact(mem->env, bytes_before, bytes_after, err);
	/* a copy made on a full disk may have left the term index out: build
	 * it again where there is room (else the next build does) */
	if (rc == H2EMV_OK)
		ridx_ensure(mem, NULL, NULL, NULL);
	return rc;
}

/* Reads `opts` (NULL: none) into its four callbacks; EINVAL for a version
 * this library does not know. */
static int check_opts(h2emv_check_options *o, const h2emv_check_options *opts, const char *who,
                      h2emv_error *err)
{
	*o = (h2emv_check_options)H2EMV_CHECK_OPTIONS_INIT;
	if (!opts)
		return H2EMV_OK;
	if (opts->version != H2EMV_CHECK_OPTIONS_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "%s: unknown options version %u", who,
		                opts->version);
	*o = *opts;
	return H2EMV_OK;
}

int h2emv_check(uint64_t *n_violations, h2emv_mem *mem, const h2emv_check_options *opts,
                h2emv_error *err)
{
	if (!n_violations || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_check: bad arguments");
	h2emv_check_options o;
	int rc = check_opts(&o, opts, "h2emv_check", err);
	if (rc)
		return rc;
	return eng_check(n_violations, mem->env, obs_body_check, obs_body_id, o.violation, o.violation_ctx,
	                 o.progress, o.progress_ctx, err);
}

typedef struct first_problem {
	h2emv_violation_fn fn;
	void *ctx;
	char what[400];
} first_problem;

static void keep_first(void *ctx, const h2emv_violation *v)
{
	first_problem *p = ctx;
	if (!p->what[0])
		snprintf(p->what, sizeof p->what, "%s in %s: %s", v->rule, v->db ? v->db : "-",
		         v->message);
	if (p->fn)
		p->fn(p->ctx, v);
}

int h2emv_check_store(uint64_t *n_violations, const char *dir, const h2emv_check_options *opts,
                      h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!n_violations || !dir || !*dir)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_check_store: bad arguments");
	h2emv_check_options co;
	int rc = check_opts(&co, opts, "h2emv_check_store", err);
	if (rc)
		return rc;
	first_problem fp = { co.violation, co.violation_ctx, { 0 } };
	uint64_t n = 0;
	rc = eng_check_pages(&n, dir, keep_first, &fp, err);
	if (rc == H2EMV_OK && n == 0) {
		h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
		o.flags = H2EMV_OPEN_READONLY;
		h2emv_mem *m = NULL;
		rc = h2emv_mem_open(&m, dir, &o, err);
		if (rc == H2EMV_OK)
			rc = eng_check(&n, m->env, obs_body_check, obs_body_id, keep_first, &fp, co.progress,
			               co.progress_ctx, err);
		h2emv_mem_close(m);
	}
	if (rc)
		return rc;
	/* the verdict outlives this process; a directory we cannot write to
	 * keeps none, which the caller cannot fix here */
	if (n)
		eng_mark_damaged(dir, fp.what, NULL);
	else
		eng_mark_clean(dir, NULL);
	*n_violations = n;
	return H2EMV_OK;
}

int h2emv_salvage(h2emv_salvage_result *out, const char *src, const char *dst,
                  h2emv_violation_fn fn, void *ctx, h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!out || !src || !*src || !dst || !*dst)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_salvage: bad arguments");
	int rc = eng_salvage(out, src, dst, obs_body_check, fn, ctx, err);
	/* the copy has no term index (derived data, not copied): build it now;
	 * if that fails, answers read the tree until the next build makes it */
	h2emv_mem *m = NULL;
	if (rc == H2EMV_OK && h2emv_mem_open(&m, dst, NULL, NULL) == H2EMV_OK)
		ridx_ensure(m, NULL, NULL, NULL);
	h2emv_mem_close(m);
	return rc;
}

int h2emv_snap_pin(h2emv_mem *mem, const char *name, uint64_t seq, h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_pin: mem is NULL");
	return eng_pin(mem->env, name, seq, err);
}

int h2emv_snap_unpin(h2emv_mem *mem, const char *name, h2emv_error *err)
{
	if (!mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_snap_unpin: mem is NULL");
	return eng_unpin(mem->env, name, err);
}

int h2emv_pin_list(h2emv_pin **out, size_t *n_out, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !n_out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_pin_list: bad arguments");
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	rc = eng_pin_list(out, n_out, r, err);
	eng_read_end(r);
	return rc;
}

const char *h2emv_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = H2EMV_VERSION_MAJOR;
	if (minor)
		*minor = H2EMV_VERSION_MINOR;
	if (patch)
		*patch = H2EMV_VERSION_PATCH;
	return H2EMV_VERSION_STRING;
}
