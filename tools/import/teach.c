/*
 * teach.c — TEACh EDH episodes to one observation history: find the
 * files, sample them, and date the episodes the way the paper's generator
 * does (IMPLEMENTATION_NOTES §5; teach/incremental_data/create_seq.py):
 * a start within ±304 days of 2024-01-01 08:00, then 1–2 episodes a day,
 * each following day skipped with probability 0.6 (at most 5 in a row),
 * start times uniform in 08:00–20:00, at least 30 s after the previous
 * episode's end. Our generator is splitmix64, so a seed gives the same
 * dates on every machine but not upstream's (Python's) dates.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define HOUR (3600ll * IMP_US)
#define DAY (24 * HOUR)
#define BASE_DATE 1704096000ll /* 2024-01-01T08:00:00Z */

/* ------------------------------------------------------------- files -- */

typedef struct flist {
	char **v;
	size_t n, cap;
} flist;

static int flist_add(flist *l, const char *path)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 64;
		char **v = realloc(l->v, nc * sizeof *v);
		if (!v)
			return -1;
		l->v = v;
		l->cap = nc;
	}
	return (l->v[l->n] = strdup(path)) ? (l->n++, 0) : -1;
}

static void flist_free(flist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_edh_name(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".json") && strstr(name, ".edh");
}

/* Every *.edhN.json below `dir`, in any order. */
static int collect_dir(flist *l, const char *dir, int depth, h2emv_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return imp_fail(err, H2EMV_EIO, NULL, "%s: cannot read the directory: %s", dir, strerror(errno));
	int rc = H2EMV_OK;
	struct dirent *de;
	while (rc == H2EMV_OK && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < 8)
			rc = collect_dir(l, path, depth + 1, err);
		else if (S_ISREG(st.st_mode) && is_edh_name(de->d_name) && flist_add(l, path))
			rc = imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
	}
	closedir(d);
	return rc;
}

static int list_files(flist *l, const char *const *paths, size_t n, h2emv_error *err)
{
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!paths[i] || stat(paths[i], &st) != 0)
			return imp_fail(err, H2EMV_EIO, NULL, "%s: %s", paths[i] ? paths[i] : "(null)",
			                strerror(errno));
		if (!S_ISDIR(st.st_mode)) {
			if (flist_add(l, paths[i]))
				return imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
			continue;
		}
		size_t from = l->n;
		int rc = collect_dir(l, paths[i], 0, err);
		if (rc)
			return rc;
		if (l->n == from)
			return imp_fail(err, H2EMV_EINVAL, NULL, "%s: no TEACh EDH files (*.edhN.json) in it",
			                paths[i]);
		qsort(l->v + from, l->n - from, sizeof *l->v, cmp_str);
	}
	return H2EMV_OK;
}

/* ------------------------------------------------------------- dates -- */

typedef struct sched {
	imp_rng rng;
	size_t remaining;    /* episodes still to place */
	h2emv_time last_end; /* the previous episode's end (or the start date) */
	h2emv_time day;      /* midnight of the day being filled */
	h2emv_time at[2];    /* start times drawn for that day */
	size_t n_at, next;
} sched;

static h2emv_time midnight(h2emv_time t)
{
	h2emv_time d = t / DAY * DAY;
	return d > t ? d - DAY : d;
}

static void sched_init(sched *s, size_t episodes)
{
	s->remaining = episodes;
	double r = imp_rng_unit(&s->rng) * 2 - 1;
	h2emv_time start = BASE_DATE * IMP_US + (h2emv_time)(r * 304 * DAY);
	int hour = (int)((start - midnight(start)) / HOUR);
	if (hour > 20)
		start -= (hour - 20) * HOUR;
	if (hour < 8)
		start += (8 - hour) * HOUR;
	s->last_end = start;
	s->n_at = s->next = 0;
}

/* The next episode's start. */
static h2emv_time sched_next(sched *s)
{
	if (s->next == s->n_at) {
		size_t k = 1 + (size_t)imp_rng_below(&s->rng, 2);
		if (k > s->remaining)
			k = s->remaining;
		s->day = midnight(s->last_end) + DAY;
		for (int skipped = 0; imp_rng_unit(&s->rng) < 0.6 && skipped < 5; skipped++)
			s->day += DAY;
		for (size_t i = 0; i < k; i++)
			s->at[i] = s->day + (h2emv_time)((8 + 12 * imp_rng_unit(&s->rng)) * HOUR);
		if (k == 2 && s->at[1] < s->at[0]) {
			h2emv_time x = s->at[0];
			s->at[0] = s->at[1];
			s->at[1] = x;
		}
		s->n_at = k;
		s->next = 0;
	}
	h2emv_time t = s->at[s->next++];
	if (t < s->last_end + 30 * IMP_US)
		t = s->last_end + 30 * IMP_US;
	s->remaining--;
	return t;
}

/* ----------------------------------------------------------- history -- */

/* Which files, in history order: all, or N sampled. */
static size_t *pick(imp_rng *rng, size_t n_files, uint32_t episodes, size_t *n_out)
{
	size_t n = episodes ? episodes : n_files;
	size_t *ix = malloc((n > n_files ? n : n_files) * sizeof *ix);
	if (!ix)
		return NULL;
	for (size_t i = 0; i < n_files; i++)
		ix[i] = i;
	if (episodes && n <= n_files) { /* without replacement: a partial shuffle */
		for (size_t i = 0; i < n; i++) {
			size_t j = i + (size_t)imp_rng_below(rng, n_files - i), x = ix[i];
			ix[i] = ix[j];
			ix[j] = x;
		}
	} else if (episodes) { /* more than there are: with replacement */
		for (size_t i = 0; i < n; i++)
			ix[i] = (size_t)imp_rng_below(rng, n_files);
	}
	*n_out = n;
	return ix;
}

static int check_options(const imp_teach_options *o, imp_emit_fn emit, h2emv_error *err)
{
	if (!o || o->version != IMP_TEACH_OPTIONS_VERSION)
		return imp_fail(err, H2EMV_EINVAL, NULL, "imp_teach: options missing or of another version");
	if (!emit)
		return imp_fail(err, H2EMV_EINVAL, NULL, "imp_teach: no emit callback");
	if (!o->paths || !o->n_paths)
		return imp_fail(err, H2EMV_EINVAL, NULL, "imp_teach: no EDH file or directory given");
	if (o->starts && o->episodes)
		return imp_fail(err, H2EMV_EINVAL, NULL,
		                "imp_teach: explicit start times take the files in order (no sampling)");
	return H2EMV_OK;
}

int imp_teach(imp_stats *out, const imp_teach_options *o, imp_emit_fn emit, void *arg,
              h2emv_error *err)
{
	imp_stats st = { 0 };
	flist files = { 0 };
	size_t *order = NULL, n = 0;
	if (err)
		memset(err, 0, sizeof *err);
	int rc = check_options(o, emit, err);
	if (rc == H2EMV_OK)
		rc = list_files(&files, o->paths, o->n_paths, err);
	sched s = { .rng = { o ? o->seed : 0 } };
	if (rc == H2EMV_OK && !(order = pick(&s.rng, files.n, o->episodes, &n)))
		rc = imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
	if (rc == H2EMV_OK && o->starts && o->n_starts != n)
		rc = imp_fail(err, H2EMV_EINVAL, NULL, "imp_teach: %zu start times for %zu episodes",
		              o->n_starts, n);
	if (rc == H2EMV_OK)
		sched_init(&s, n);
	for (size_t i = 0; rc == H2EMV_OK && i < n; i++) {
		imp_teach_ep ep = { .path = files.v[order[i]] };
		json_t *edh = NULL;
		if ((rc = imp_load_json(&edh, ep.path, err)))
			break;
		ep.start = o->starts ? o->starts[i] : sched_next(&s);
		if (o->starts && i && ep.start <= s.last_end)
			rc = imp_fail(err, H2EMV_EINVAL, NULL,
			              "%s: episode %zu would start before episode %zu ends", ep.path, i, i - 1);
		if (rc == H2EMV_OK)
			rc = imp_teach_episode(&ep, edh, emit, arg, &st, err);
		json_decref(edh);
		if (rc)
			break;
		st.episodes++;
		s.last_end = ep.end;
		imp_episode info = { i, ep.path, ep.game_id, ep.instance_id, ep.start, ep.end, ep.t0,
			             ep.observations };
		if (o->on_episode && (rc = o->on_episode(o->on_episode_arg, &info)))
			imp_fail(err, rc, NULL, "stopped after episode %zu (%s)", i, ep.path);
		if (rc == H2EMV_OK && o->progress && o->progress(o->progress_ctx, "teach", i + 1, n))
			break;
	}
	free(order);
	flist_free(&files);
	if (out)
		*out = st;
	return rc;
}
