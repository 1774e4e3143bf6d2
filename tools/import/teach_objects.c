/*
 * teach_objects.c — the objects of one TEACh episode: names as the
 * paper's loader writes them (Class when the class is unique in the scene,
 * Class_k otherwise, Class_k_Sliced_n for pieces) and their state, tracked
 * from the actions and the EDH state diffs.
 *
 * Upstream numbers a class's instances in the order of the game's initial
 * state, which EDH files do not carry; here k follows the sorted objectIds
 * of every object the file mentions, so names are stable per file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Upstream's relevant properties (em/teach.py), plus isSliced. */
static const struct {
	const char *prop;
	unsigned flag;
} props[] = {
	{ "isToggled", TF_TOGGLED },
	{ "isBroken", TF_BROKEN },
	{ "isDirty", TF_DIRTY },
	{ "isCooked", TF_COOKED },
	{ "simbotIsCooked", TF_COOKED },
	{ "isOpen", TF_OPEN },
	{ "simbotIsFilledWithWater", TF_FILLED },
	{ "isFilledWithLiquid", TF_FILLED },
	{ "isSliced", TF_SLICED },
};
static const char *const flag_names[TF_NFLAGS] = { "toggled", "broken", "dirty", "cooked",
	                                           "open",    "filled", "sliced" };

int tobjs_find(const tobjs *t, const char *oid)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].oid, oid))
			return (int)i;
	return -1;
}

static int add_oid(tobjs *t, const char *oid)
{
	if (!oid || !*oid || tobjs_find(t, oid) >= 0)
		return 0;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 64;
		tobj *v = realloc(t->v, nc * sizeof *v);
		if (!v)
			return -1;
		t->v = v;
		t->cap = nc;
	}
	tobj *o = &t->v[t->n];
	memset(o, 0, sizeof *o);
	o->parent = -1;
	if (!(o->oid = strdup(oid)))
		return -1;
	t->n++;
	return 0;
}

/* The ids a state diff mentions: its keys and the receptacles they name. */
static int add_diff_ids(tobjs *t, json_t *diff)
{
	json_t *objs = json_is_object(diff) ? json_object_get(diff, "objects") : NULL;
	const char *oid;
	json_t *st;
	json_object_foreach(objs, oid, st) {
		if (add_oid(t, oid))
			return -1;
		json_t *v = json_object_get(st, "simbotLastParentReceptacle");
		if (json_is_string(v) && add_oid(t, json_string_value(v)))
			return -1;
		static const char *const lists[] = { "receptacleObjectIds", "simbotIsReceptacleOf",
			                             "parentReceptacles" };
		for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
			size_t i;
			json_t *x;
			json_array_foreach(json_object_get(st, lists[k]), i, x)
				if (json_is_string(x) && add_oid(t, json_string_value(x)))
					return -1;
		}
	}
	return 0;
}

/* Length of the first `parts` '|'-separated parts of oid. */
static size_t prefix_len(const char *oid, int parts)
{
	const char *p = oid;
	for (int i = 0; i < parts; i++) {
		const char *bar = strchr(p, '|');
		if (!bar)
			return strlen(oid);
		p = bar + 1;
	}
	return (size_t)(p - oid - 1);
}

static int cmp_oid(const void *a, const void *b)
{
	return strcmp(((const tobj *)a)->oid, ((const tobj *)b)->oid);
}

/* "PotatoSliced_3" minus the class "Potato" -> "Sliced_3"; type
 * "PotatoSliced". */
static int name_piece(tobj *o, const tobj *base, size_t clen)
{
	const char *sub = o->oid + prefix_len(o->oid, 4) + 1;
	char rest[256];
	size_t n = 0;
	for (const char *p = sub; *p && n < sizeof rest - 1;) {
		if (!strncmp(p, o->oid, clen) && clen) {
			p += clen;
			continue;
		}
		rest[n++] = *p++;
	}
	rest[n] = 0;
	const char *r = rest;
	while (*r == '_' || *r == '|')
		r++;
	size_t len = strlen(base->name) + strlen(r) + 8;
	if (!(o->name = malloc(len)))
		return -1;
	snprintf(o->name, len, "%s_%s", base->name, *r ? r : "part");
	for (char *c = o->name; *c; c++)
		if (*c == '|')
			*c = '_';
	size_t tl = strcspn(sub, "|");
	while (tl > 1 && sub[tl - 1] >= '0' && sub[tl - 1] <= '9')
		tl--;
	if (tl > 1 && sub[tl - 1] == '_')
		tl--;
	o->type = tl ? strndup(sub, tl) : strdup(base->type);
	return o->type ? 0 : -1;
}

/* Name the whole-object ids (<= 4 parts), then the pieces. */
static int name_all(tobjs *t)
{
	qsort(t->v, t->n, sizeof *t->v, cmp_oid);
	for (size_t i = 0; i < t->n; i++) {
		tobj *o = &t->v[i];
		size_t full = strlen(o->oid);
		if (prefix_len(o->oid, 4) < full)
			continue;
		size_t clen = strcspn(o->oid, "|");
		size_t k = 0, count = 0;
		for (size_t j = 0; j < t->n; j++) {
			const tobj *q = &t->v[j];
			if (prefix_len(q->oid, 4) == strlen(q->oid) && strcspn(q->oid, "|") == clen &&
			    !strncmp(q->oid, o->oid, clen)) {
				if (j < i)
					k++;
				count++;
			}
		}
		if (!(o->type = strndup(o->oid, clen)) || !(o->name = malloc(clen + 24)))
			return -1;
		if (count == 1)
			snprintf(o->name, clen + 24, "%s", o->type);
		else
			snprintf(o->name, clen + 24, "%s_%zu", o->type, k);
	}
	for (size_t i = 0; i < t->n; i++) {
		tobj *o = &t->v[i];
		if (o->name)
			continue;
		char base[512];
		size_t bl = prefix_len(o->oid, 4);
		snprintf(base, sizeof base, "%.*s", (int)bl, o->oid);
		int b = tobjs_find(t, base);
		if (b < 0 || name_piece(o, &t->v[b], strcspn(o->oid, "|")))
			return -1;
	}
	return 0;
}

int tobjs_build(tobjs *t, json_t *edh, const char *path, h2emv_error *err)
{
	memset(t, 0, sizeof *t);
	t->held = -1;
	static const char *const diffs[] = { "init_state_diff", "final_state_diff", "state_changes" };
	for (size_t k = 0; k < sizeof diffs / sizeof diffs[0]; k++) {
		json_t *d = json_object_get(edh, diffs[k]);
		if (d && !json_is_object(d))
			return imp_fail(err, H2EMV_EPARSE, diffs[k], "%s: field '%s': expected an object, got %s",
			                path, diffs[k], imp_json_kind(d));
		if (add_diff_ids(t, d))
			return imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
	}
	size_t i;
	json_t *it;
	json_array_foreach(json_object_get(edh, "interactions"), i, it) {
		json_t *oid = json_object_get(it, "oid");
		if (json_is_string(oid) && add_oid(t, json_string_value(oid)))
			return imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
	}
	/* every piece needs its whole object to be named after */
	for (size_t j = 0, n = t->n; j < n; j++) {
		size_t bl = prefix_len(t->v[j].oid, 4);
		if (bl < strlen(t->v[j].oid)) {
			char base[512];
			snprintf(base, sizeof base, "%.*s", (int)bl, t->v[j].oid);
			if (add_oid(t, base))
				return imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
		}
	}
	if (name_all(t))
		return imp_fail(err, H2EMV_ENOMEM, NULL, "out of memory");
	return H2EMV_OK;
}

void tobjs_free(tobjs *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].oid);
		free(t->v[i].name);
		free(t->v[i].type);
	}
	free(t->v);
	memset(t, 0, sizeof *t);
}

static int push_idx(int **v, size_t *n, int idx)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == idx)
			return 0;
	int *nv = realloc(*v, (*n + 1) * sizeof *nv);
	if (!nv)
		return -1;
	nv[(*n)++] = idx;
	*v = nv;
	return 0;
}

int tobjs_apply_diff(tobjs *t, json_t *objects, int **visible, size_t *n_visible)
{
	const char *oid;
	json_t *st;
	json_object_foreach(objects, oid, st) {
		int i = tobjs_find(t, oid);
		if (i < 0 || !json_is_object(st))
			continue;
		tobj *o = &t->v[i];
		for (size_t k = 0; k < sizeof props / sizeof props[0]; k++) {
			json_t *v = json_object_get(st, props[k].prop);
			if (json_is_boolean(v))
				o->flags = json_is_true(v) ? o->flags | props[k].flag
				                           : o->flags & ~props[k].flag;
		}
		json_t *v = json_object_get(st, "isPickedUp");
		if (json_is_true(v))
			t->held = i;
		else if (json_is_false(v) && t->held == i)
			t->held = -1;
		v = json_object_get(st, "simbotLastParentReceptacle");
		if (json_is_string(v))
			o->parent = tobjs_find(t, json_string_value(v));
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(st, "receptacleObjectIds"), j, x) {
			int c = json_is_string(x) ? tobjs_find(t, json_string_value(x)) : -1;
			if (c >= 0 && c != i && c != t->held)
				t->v[c].parent = i;
		}
		if (visible && json_is_true(json_object_get(st, "visible")) &&
		    push_idx(visible, n_visible, i))
			return -1;
	}
	if (t->held >= 0)
		t->v[t->held].parent = -1;
	return 0;
}

const char *tobj_state(const tobj *o, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int k = 0; k < TF_NFLAGS; k++)
		if (o->flags & (1u << k))
			len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? ", " : "",
			                        flag_names[k]);
	return len ? buf : NULL;
}
