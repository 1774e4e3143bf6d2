/*
 * llm_parse_group.c — the reply to the grouping prompt: a map of item
 * ranges (numbered newest = 0) to summaries, checked against the request
 * and turned into the full partition the policy returns. The checks run in
 * three rounds, each reporting every fault it finds so one retry can fix
 * them all: the keys and summaries one by one, then overlaps, then the
 * previous groups cut apart and the new items left out.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/policy/llm/llm_parse.h"
#include "api/policy/prompts.h"
#include "engine/engine.h"

#define NONE SIZE_MAX

/* One range of the reply. */
typedef struct rng {
	size_t hi, lo;        /* numbers as in the prompt, hi >= lo */
	size_t first, last;   /* item indexes, oldest = 0 */
	const char *sum;      /* the summary, trimmed, borrowed from the JSON */
	size_t sum_len;
} rng;

/* Faults collected for one message: whole faults only, "; " between. */
typedef struct faults {
	char buf[440];
	size_t len;
	int n, more;
} faults;

__attribute__((format(printf, 2, 3))) static void fault(faults *f, const char *fmt, ...)
{
	char one[256];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(one, sizeof one, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	size_t need = (size_t)k + (f->n ? 2 : 0);
	if (f->len + need >= sizeof f->buf) {
		f->more = 1;
		return;
	}
	if (f->n) {
		memcpy(f->buf + f->len, "; ", 2);
		f->len += 2;
	}
	memcpy(f->buf + f->len, one, (size_t)k + 1);
	f->len += (size_t)k;
	f->n++;
}

static int faults_fail(const faults *f, h2emv_error *err)
{
	return eng_fail(err, H2EMV_EPARSE, "%s%s", f->buf, f->more ? "; and more" : "");
}

/* "hi-lo", or "k" when hi == lo. */
static void key_str(char *buf, size_t cap, size_t hi, size_t lo)
{
	if (hi == lo)
		snprintf(buf, cap, "%zu", hi);
	else
		snprintf(buf, cap, "%zu-%zu", hi, lo);
}

/* Digits at *p into *v (saturating at NONE); 0 when there are none. */
static int number(const char **p, size_t *v)
{
	const char *s = *p;
	size_t x = 0;
	while (**p >= '0' && **p <= '9') {
		size_t d = (size_t)(**p - '0');
		x = x > (NONE - 1 - d) / 10 ? NONE : x * 10 + d;
		(*p)++;
	}
	*v = x;
	return *p != s;
}

/* A key "hi-lo" or "k": spaces around the numbers and an en dash are
 * accepted. 0 when it is no range. */
static int parse_key(const char *k, size_t *hi, size_t *lo)
{
	while (*k == ' ')
		k++;
	if (!number(&k, hi))
		return 0;
	while (*k == ' ')
		k++;
	*lo = *hi;
	if (*k == '-' || strncmp(k, "\xe2\x80\x93", 3) == 0) {
		k += *k == '-' ? 1 : 3;
		while (*k == ' ')
			k++;
		if (!number(&k, lo))
			return 0;
		while (*k == ' ')
			k++;
	}
	return *k == '\0';
}

/* Check one (key, value) of the reply and add it to `rs` when it is
 * sound. */
static void take_range(rng *rs, size_t *n, const char *key, json_t *val, size_t n_items,
                       faults *f)
{
	char snip[64], ks[48];
	size_t hi, lo;
	lp_snip(snip, sizeof snip, key, strlen(key));
	if (!parse_key(key, &hi, &lo)) {
		fault(f, "key \"%s\" is not an item range like \"4-0\" or \"0\"", snip);
		return;
	}
	if (hi < lo) {
		fault(f, "range \"%s\" runs the wrong way; write \"%zu-%zu\" (oldest first)", snip, lo,
		      hi);
		return;
	}
	if (hi >= n_items) {
		if (n_items)
			fault(f, "range \"%s\" is out of bounds: the items are numbered %zu to 0", snip,
			      n_items - 1);
		else
			fault(f, "range \"%s\" names an item, but there are no items", snip);
		return;
	}
	key_str(ks, sizeof ks, hi, lo);
	if (!json_is_string(val)) {
		fault(f, "the value of \"%s\" must be a string (its summary)", ks);
		return;
	}
	const char *b = json_string_value(val), *e = b + json_string_length(val);
	lp_trim(&b, &e, 0);
	if (b == e) {
		fault(f, "the summary of \"%s\" is empty", ks);
		return;
	}
	if ((size_t)(e - b) > LP_MAX_SUMMARY) {
		fault(f, "the summary of \"%s\" is too long (%zu bytes; at most %u)", ks,
		      (size_t)(e - b), (unsigned)LP_MAX_SUMMARY);
		return;
	}
	rng *r = &rs[(*n)++];
	r->hi = hi;
	r->lo = lo;
	r->first = n_items - 1 - hi;
	r->last = n_items - 1 - lo;
	r->sum = b;
	r->sum_len = (size_t)(e - b);
}

/* Every (range, summary) of the reply's object, map or schema form. */
static int collect(rng **out, size_t *n, json_t *root, size_t n_items, h2emv_error *err)
{
	faults f = { 0 };
	json_t *groups = lp_json_get(root, "groups");
	size_t cap = groups && json_is_array(groups) ? json_array_size(groups) : json_object_size(root);
	*n = 0;
	*out = malloc((cap ? cap : 1) * sizeof **out);
	if (!*out)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (groups) {
		if (!json_is_array(groups))
			return eng_fail(err, H2EMV_EPARSE,
			                "\"groups\" must be a list of {\"range\": ..., \"summary\": ...}");
		size_t i;
		json_t *g;
		json_array_foreach (groups, i, g) {
			json_t *r = json_is_object(g) ? lp_json_get(g, "range") : NULL;
			json_t *s = json_is_object(g) ? lp_json_get(g, "summary") : NULL;
			if (!r || !json_is_string(r) || !s)
				fault(&f, "groups[%zu] must be {\"range\": \"4-0\", \"summary\": \"...\"}", i);
			else
				take_range(*out, n, json_string_value(r), s, n_items, &f);
		}
	} else {
		const char *k;
		json_t *v;
		json_object_foreach (root, k, v) {
			if (strcasecmp(k, "reasoning") == 0)
				continue; /* a model that mixes the two forms */
			take_range(*out, n, k, v, n_items, &f);
		}
	}
	return f.n ? faults_fail(&f, err) : H2EMV_OK;
}

static int by_first(const void *a, const void *b)
{
	const rng *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->last < y->last ? -1 : x->last > y->last;
}

/* Ranges sorted oldest first must not overlap. */
static int check_overlaps(rng *rs, size_t n, h2emv_error *err)
{
	faults f = { 0 };
	qsort(rs, n, sizeof *rs, by_first);
	size_t reach = 0; /* the range reaching furthest so far */
	for (size_t i = 1; i < n; i++) {
		const rng *a = &rs[reach], *b = &rs[i];
		char ka[48], kb[48];
		key_str(ka, sizeof ka, a->hi, a->lo);
		key_str(kb, sizeof kb, b->hi, b->lo);
		if (a->first == b->first && a->last == b->last)
			fault(&f, "range \"%s\" appears twice", ka);
		else if (b->first <= a->last)
			fault(&f, "range \"%s\" overlaps range \"%s\"", ka, kb);
		if (b->last > a->last)
			reach = i;
	}
	return f.n ? faults_fail(&f, err) : H2EMV_OK;
}

/* The runs of items [from, to] (indexes) whose coverage is `covered`, as
 * numbers: "6", "6-5, 2"; at most three runs, then ", ...". */
static void runs(char *buf, size_t cap, const size_t *owner, size_t from, size_t to, int covered,
                 size_t n_items)
{
	size_t len = 0, count = 0;
	buf[0] = '\0';
	for (size_t i = from; i <= to; i++) {
		if ((owner[i] != NONE) != covered)
			continue;
		size_t j = i;
		while (j < to && (owner[j + 1] != NONE) == covered)
			j++;
		char k[48];
		key_str(k, sizeof k, n_items - 1 - i, n_items - 1 - j);
		int w = snprintf(buf + len, cap - len, "%s%s", count ? ", " : "",
		                 count < 3 ? k : "...");
		if (w < 0 || (size_t)w >= cap - len)
			break;
		len += (size_t)w;
		if (count++ == 3)
			break;
		i = j;
	}
}

/* Every previous group taken whole or not at all; every new item covered. */
static int check_cover(const pol_group_req *req, const rng *rs, const size_t *owner,
                       h2emv_error *err)
{
	faults f = { 0 };
	size_t n = req->n_items;
	for (size_t g = 0; g < req->n_old; g++) {
		const pol_group *o = &req->old_groups[g];
		size_t hit = NONE, covered = 0;
		for (size_t i = o->first; i <= o->last; i++)
			if (owner[i] != NONE) {
				covered++;
				if (hit == NONE)
					hit = owner[i];
			}
		if (!covered || covered == o->last - o->first + 1)
			continue;
		char kr[48], kg[48], in[128], out[128];
		key_str(kr, sizeof kr, rs[hit].hi, rs[hit].lo);
		key_str(kg, sizeof kg, n - 1 - o->first, n - 1 - o->last);
		runs(in, sizeof in, owner, o->first, o->last, 0, n);
		runs(out, sizeof out, owner, o->first, o->last, 1, n);
		fault(&f, "range \"%s\" cuts the previous group \"%s\"; include %s or leave %s out", kr,
		      kg, in, out);
	}
	if (req->n_new) {
		size_t from = n - req->n_new, missing = 0;
		for (size_t i = from; i < n; i++)
			missing += owner[i] == NONE;
		if (missing) {
			char list[128];
			runs(list, sizeof list, owner, from, n - 1, 0, n);
			fault(&f, "the new item%s %s %s not covered", missing > 1 ? "s" : "", list,
			      missing > 1 ? "are" : "is");
		}
	}
	return f.n ? faults_fail(&f, err) : H2EMV_OK;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* The partition: the reply's ranges and the untouched previous groups. */
static int build(pol_group_reply *out, const pol_group_req *req, const rng *rs, size_t n_rs,
                 const size_t *owner, h2emv_error *err)
{
	size_t cap = n_rs + req->n_old;
	out->groups = calloc(cap ? cap : 1, sizeof *out->groups);
	if (!out->groups)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	size_t g = 0;
	for (size_t i = 0; i < req->n_items;) {
		pol_group *d = &out->groups[out->n];
		if (owner[i] != NONE) {
			const rng *r = &rs[owner[i]];
			d->first = r->first;
			d->last = r->last;
			d->summary = dup_n(r->sum, r->sum_len);
		} else {
			while (g < req->n_old && req->old_groups[g].last < i)
				g++;
			/* check_cover left only whole previous groups outside the ranges */
			if (g == req->n_old || req->old_groups[g].first != i || out->n == cap)
				return eng_fail(err, H2EMV_EINTERNAL, "group reply: item %zu has no group", i);
			const pol_group *o = &req->old_groups[g];
			d->first = o->first;
			d->last = o->last;
			d->summary = strdup(o->summary ? o->summary : "");
		}
		out->n++;
		if (!d->summary)
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		i = d->last + 1;
	}
	return H2EMV_OK;
}

/* The reply's object: the whole reply (JSON form), else the first '{'
 * after the last "JSON:" label, else the first line opening an object,
 * else the first '{' anywhere. One object is parsed, so the work stays
 * linear whatever the reply holds. */
static const char *find_object(const char *reply)
{
	const char *j = lp_json_start(reply);
	if (j)
		return j;
	const char *v = lp_label(reply, "json");
	if (v)
		return strchr(v, '{');
	j = lp_json_line(reply);
	return j ? j : strchr(reply, '{');
}

int lp_group(const char *reply, const pol_group_req *req, pol_group_reply *out,
             h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "group: no output");
	out->groups = NULL;
	out->n = 0;
	int rc = lp_check_reply(reply, err);
	if (!rc)
		rc = pr_check_group_req(req, err);
	if (rc)
		return rc;
	const char *j = find_object(reply);
	if (!j)
		return eng_fail(err, H2EMV_EPARSE,
		                "no JSON object in the reply; answer \"Reasoning: ... JSON: "
		                "{\"<range>\": \"<summary>\"}\"");
	json_t *root = NULL;
	rng *rs = NULL;
	size_t n_rs = 0, *owner = NULL;
	rc = lp_json_parse(&root, j, err);
	if (!rc)
		rc = collect(&rs, &n_rs, root, req->n_items, err);
	if (!rc)
		rc = check_overlaps(rs, n_rs, err);
	if (!rc && !(owner = malloc((req->n_items ? req->n_items : 1) * sizeof *owner)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (!rc) {
		for (size_t i = 0; i < req->n_items; i++)
			owner[i] = NONE;
		for (size_t r = 0; r < n_rs; r++)
			for (size_t i = rs[r].first; i <= rs[r].last; i++)
				owner[i] = r;
		rc = check_cover(req, rs, owner, err);
	}
	if (!rc)
		rc = build(out, req, rs, n_rs, owner, err);
	if (rc)
		pol_groups_free(out);
	free(owner);
	free(rs);
	json_decref(root);
	return rc;
}
