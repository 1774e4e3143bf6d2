/*
 * facts_base.c — one typed fact and a list of them (facts.h,
 * facts_internal.h): the strings of a fact in one block, its key for
 * merging, a new fact at the end of a list, and a slot set from text
 * (cleaned of markup and stray quotes, bounded).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "api/base/lex.h"

#define FACT_STR_MAX 600

/* ---------------------------------------------------------------- basics -- */

void fact_free(fact *f)
{
	if (f->blk)
		free(f->blk);
	else
		for (int i = 0; i < FS_N; i++)
			free(f->s[i]);
	memset(f, 0, sizeof *f);
}

/* Give `f` one block holding the strings lens[i] bytes of src[i] (NULL:
 * absent). One allocation per fact keeps merging cheap. */
int fact_strings(fact *f, const char *const *src, const size_t *lens)
{
	size_t total = 0;
	for (int i = 0; i < FS_N; i++)
		total += src[i] ? lens[i] + 1 : 0;
	f->blk = NULL;
	for (int i = 0; i < FS_N; i++)
		f->s[i] = NULL;
	if (!total)
		return H2EMV_OK;
	char *b = malloc(total);
	if (!b)
		return H2EMV_ENOMEM;
	f->blk = b;
	for (int i = 0; i < FS_N; i++) {
		if (!src[i])
			continue;
		memcpy(b, src[i], lens[i]);
		b[lens[i]] = 0;
		f->s[i] = b;
		b += lens[i] + 1;
	}
	return H2EMV_OK;
}

void facts_clear(facts *f)
{
	for (size_t i = 0; i < f->n; i++)
		fact_free(&f->v[i]);
	f->n = 0;
	f->trimmed = 0;
}

void facts_free(facts *f)
{
	if (!f)
		return;
	facts_clear(f);
	free(f->v);
	memset(f, 0, sizeof *f);
}

/* What makes two facts the same: every slot, but for an action the place
 * the robot happened to be at (a run that moves through rooms is one run). */
uint64_t fact_key(const fact *f)
{
	uint64_t h = (uint64_t)f->type << 8 | f->status;
	for (int i = 0; i < FS_N; i++) {
		if (f->type == FT_ACT && i == FS_PLACE)
			continue;
		h = f->s[i] ? XXH3_64bits_withSeed(f->s[i], strlen(f->s[i]), h ^ (uint64_t)(i + 1))
		            : h * 0x9E3779B97F4A7C15ull + (uint64_t)i;
	}
	return h;
}

fact *fact_push(facts *f)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		fact *v = realloc(f->v, cap * sizeof *v);
		if (!v)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	fact *x = &f->v[f->n++];
	memset(x, 0, sizeof *x);
	return x;
}

/* A copy of s[0, n), trimmed of spaces and stray quotes, markup removed
 * ("<phoneme ...>Stark</phoneme>" -> "Stark"), at most FACT_STR_MAX bytes. */
static char *clean(const char *s, size_t n)
{
	char *o = malloc(n + 1);
	if (!o)
		return NULL;
	size_t j = 0;
	int in_tag = 0;
	for (size_t i = 0; i < n && j < FACT_STR_MAX; i++) {
		char c = s[i];
		if (c == '<') {
			in_tag = 1;
			continue;
		}
		if (in_tag) {
			in_tag = c != '>';
			continue;
		}
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c == ' ' && (j == 0 || o[j - 1] == ' '))
			continue;
		o[j++] = c;
	}
	while (j && (o[j - 1] == ' ' || o[j - 1] == '"'))
		j--;
	size_t st = 0;
	while (st < j && (o[st] == '"' || o[st] == ' '))
		st++;
	memmove(o, o + st, j - st);
	o[j - st] = 0;
	if (!o[0]) {
		free(o);
		return NULL;
	}
	return o;
}

int fact_set(fact *f, int slot, const char *s, size_t n)
{
	if (f->s[slot] || !s || !n)
		return 0;
	f->s[slot] = clean(s, n);
	return 0;
}

int fact_sets(fact *f, int slot, const char *s)
{
	return s ? fact_set(f, slot, s, strlen(s)) : 0;
}

/* Append v to an action's other parameters, FS_STATE, at most 200 bytes
 * in all. */
void fact_append_state(fact *f, const char *v)
{
	const char *old = f->s[FS_STATE];
	size_t ol = old ? strlen(old) : 0, vl = strlen(v);
	if (ol + vl + 3 <= 200) {
		char *both = malloc(ol + vl + 3);
		if (both) {
			if (old)
				memcpy(both, old, ol), memcpy(both + ol, ", ", 2), ol += 2;
			memcpy(both + ol, v, vl + 1);
			free(f->s[FS_STATE]);
			f->s[FS_STATE] = both;
		}
	}
}

/* Does the key name why a run went as it did ("error", "fail_reason",
 * "cause", "finding")? Its sentence is what "what went wrong" asks for,
 * and it is kept longer than other parameters. */
int fact_reason_key(const char *key, size_t klen)
{
	static const char *const why[] = { "error", "err", "reason", "cause", "fault", "problem",
		                               "failure", "why", "finding", "issue", "remark",
		                               "comment", "message", "msg", "explanation", NULL };
	lex_word w[6];
	size_t k = lex_split(key, klen, w, 6);
	for (size_t i = 0; i < k && i < 6; i++)
		for (const char *const *p = why; *p; p++)
			if (!strcmp(w[i].w, *p))
				return 1;
	return 0;
}

/* The unit a key ends in ("weight_kg", "depth_mm", "volume_m3"), as
 * written; NULL none. */
const char *fact_key_unit(const char *key, size_t klen)
{
	static const char *const units[] = { "kg", "g", "mg", "mm", "cm", "km", "m", "ml", "l", "m3",
		                                 "m2", "kw", "kwh", "psi", "bar", "lb", "lbs", "mph",
		                                 "kmh", "pct", "percent", "sec", "min", "hz", "mah", "ppm",
		                                 "c", "degc", "degf", "kpa", "rpm", "ms", "ft", "gal", "oz", NULL };
	const char *last = key;
	for (size_t i = 0; i + 1 < klen; i++)
		if (key[i] == '_' || key[i] == '-' || key[i] == ' ' || key[i] == '.')
			last = key + i + 1;
	size_t n = klen - (size_t)(last - key);
	if (last == key)
		return NULL;
	for (const char *const *u = units; *u; u++)
		if (strlen(*u) == n && !strncasecmp(last, *u, n))
			return *u;
	return NULL;
}

/* The child of a map that names it ("name", "label", "title", "type") as a
 * string; NULL none. */
const msgpack_object *fact_named_child(const msgpack_object *o)
{
	static const char *const names[] = { "name", "label", "title", "type", "kind", NULL };
	for (const char *const *nm = names; *nm; nm++)
		for (uint32_t i = 0; i < o->via.map.size; i++) {
			const msgpack_object_kv *kv = &o->via.map.ptr[i];
			if (kv->key.type != MSGPACK_OBJECT_STR || kv->val.type != MSGPACK_OBJECT_STR ||
			    kv->key.via.str.size != strlen(*nm) ||
			    memcmp(kv->key.via.str.ptr, *nm, kv->key.via.str.size))
				continue;
			/* a word, not a number ("1" names nobody) */
			for (uint32_t j = 0; j < kv->val.via.str.size; j++)
				if ((kv->val.via.str.ptr[j] | 32) >= 'a' && (kv->val.via.str.ptr[j] | 32) <= 'z')
					return &kv->val;
		}
	return NULL;
}

/* Does the map hold a reason ("error", "cause") as a string? */
int fact_reason_child(const msgpack_object *o)
{
	for (uint32_t i = 0; i < o->via.map.size; i++) {
		const msgpack_object_kv *kv = &o->via.map.ptr[i];
		if (kv->key.type == MSGPACK_OBJECT_STR && kv->val.type == MSGPACK_OBJECT_STR &&
		    fact_reason_key(kv->key.via.str.ptr, kv->key.via.str.size))
			return 1;
	}
	return 0;
}

/* Is the key a container of other parameters ("parameters", "args",
 * "data"), not a thing? */
int fact_container_key(const char *key, size_t klen)
{
	static const char *const box[] = { "parameters", "params", "param", "args", "arguments",
		                               "data", "payload", "options", "config", "settings",
		                               "input", "inputs", "request", "body", NULL };
	for (const char *const *b = box; *b; b++)
		if (strlen(*b) == klen && !strncasecmp(key, *b, klen))
			return 1;
	return 0;
}
