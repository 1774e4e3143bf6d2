/*
 * sim_world.c — the simulator's machinery: a portable PRNG, a JSON text
 * buffer, the home's state (furniture, movable items, people, where the
 * robot stands) and the recorder that writes what the robot perceives at
 * each step as an observation body.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/eval/sim_internal.h"

/* ------------------------------------------------------------- PRNG -- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(sim_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

unsigned rng_below(sim_rng *r, unsigned n)
{
	/* the top 32 bits times n: no division, a bias below 2^-32 */
	return n ? (unsigned)(((rng_next(r) >> 32) * (uint64_t)n) >> 32) : 0;
}

int64_t rng_between(sim_rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1;
	return span ? lo + (int64_t)(rng_next(r) % span) : (int64_t)rng_next(r);
}

int rng_chance(sim_rng *r, double p)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53 < p;
}

/* ------------------------------------------------------------- text -- */

static int sb_grow(sbuf *b, size_t add)
{
	if (b->oom)
		return -1;
	if (b->len + add + 1 <= b->cap)
		return 0;
	size_t nc = b->cap ? b->cap : 256;
	while (nc < b->len + add + 1)
		nc *= 2;
	char *p = realloc(b->p, nc);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = nc;
	return 0;
}

void sb_putn(sbuf *b, const char *s, size_t n)
{
	if (sb_grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void sb_put(sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		sb_putn(b, tmp, (size_t)n);
		return;
	}
	if (sb_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_json(sbuf *b, const char *s)
{
	sb_putn(b, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			char esc[2] = { '\\', (char)*p };
			sb_putn(b, esc, 2);
		} else if (*p < 0x20) {
			sb_printf(b, "\\u%04x", *p);
		} else {
			sb_putn(b, (const char *)p, 1);
		}
	}
	sb_putn(b, "\"", 1);
}

void sb_free(sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* -------------------------------------------------------------- home -- */

int world_init(sim_world *w, const sim_home *home)
{
	memset(w, 0, sizeof *w);
	w->home = home;
	w->held = -1;
	w->pst = calloc(home->n_places, sizeof *w->pst);
	w->pfill = calloc(home->n_places, sizeof *w->pfill);
	if (!w->pst || !w->pfill)
		return w->oom = 1, H2EMV_ENOMEM;
	for (size_t i = 0; i < home->n_items; i++) {
		int p = world_place(w, home->items[i].place);
		if (p < 0 || world_add(w, home->items[i].type, NULL, p, -1) < 0)
			return p < 0 ? H2EMV_EINTERNAL : H2EMV_ENOMEM;
	}
	return H2EMV_OK;
}

void world_free(sim_world *w)
{
	free(w->pst);
	free(w->pfill);
	free(w->items);
	memset(w, 0, sizeof *w);
}

int world_place(const sim_world *w, const char *id)
{
	for (size_t i = 0; i < w->home->n_places; i++)
		if (!strcmp(w->home->places[i].id, id))
			return (int)i;
	return -1;
}

static unsigned next_number(sim_world *w, const char *type)
{
	size_t i = 0;
	while (i < w->n_counters && strcmp(w->counters[i].type, type))
		i++;
	if (i == w->n_counters) {
		if (i == sizeof w->counters / sizeof w->counters[0])
			return (unsigned)w->n_items; /* still unique: item numbers never repeat */
		snprintf(w->counters[i].type, sizeof w->counters[i].type, "%s", type);
		w->counters[i].next = 0;
		w->n_counters++;
	}
	return w->counters[i].next++;
}

int world_add(sim_world *w, const char *type, const char *id, int place, int in)
{
	if (w->n_items == w->cap) {
		size_t nc = w->cap ? w->cap * 2 : 64;
		sim_item *p = realloc(w->items, nc * sizeof *p);
		if (!p)
			return w->oom = 1, -1;
		w->items = p;
		w->cap = nc;
	}
	sim_item *it = &w->items[w->n_items];
	memset(it, 0, sizeof *it);
	snprintf(it->type, sizeof it->type, "%s", type);
	if (id)
		snprintf(it->id, sizeof it->id, "%s", id);
	else
		snprintf(it->id, sizeof it->id, "%s_%u", type, next_number(w, type));
	it->alive = 1;
	it->place = place;
	it->in = in;
	it->held = 0;
	return (int)w->n_items++;
}

size_t world_find(const sim_world *w, const char *type, int *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < w->n_items && n < max; i++)
		if (w->items[i].alive && !strcmp(w->items[i].type, type))
			out[n++] = (int)i;
	return n;
}

void world_compact(sim_world *w)
{
	size_t n = 0;
	int *map = malloc((w->n_items ? w->n_items : 1) * sizeof *map);
	if (!map) {
		w->oom = 1;
		return;
	}
	/* what stood on a vanished item now stands where that item stood */
	for (size_t i = 0; i < w->n_items; i++) {
		sim_item *it = &w->items[i];
		while (it->alive && it->in >= 0 && !w->items[it->in].alive) {
			const sim_item *gone = &w->items[it->in];
			it->place = gone->place;
			it->in = gone->in;
		}
	}
	for (size_t i = 0; i < w->n_items; i++) {
		map[i] = w->items[i].alive ? (int)n : -1;
		if (w->items[i].alive)
			w->items[n++] = w->items[i];
	}
	for (size_t i = 0; i < n; i++)
		if (w->items[i].in >= 0)
			w->items[i].in = map[w->items[i].in];
	if (w->held >= 0)
		w->held = map[w->held];
	w->n_items = n;
	free(map);
}

int world_root(const sim_world *w, int item)
{
	for (int depth = 0; item >= 0 && depth < 8; depth++) {
		const sim_item *it = &w->items[item];
		if (it->held || it->holder)
			return -1;
		if (it->in < 0)
			return it->place;
		item = it->in;
	}
	return -1;
}

void world_put(sim_world *w, int item, int place, int in)
{
	sim_item *it = &w->items[item];
	if (w->held == item)
		w->held = -1;
	it->held = 0;
	it->holder = NULL;
	it->place = in >= 0 ? -1 : place;
	it->in = in;
}

void world_hold(sim_world *w, int item)
{
	sim_item *it = &w->items[item];
	it->held = 1;
	it->holder = NULL;
	it->place = -1;
	it->in = -1;
	w->held = item;
}

const char *world_room(const sim_world *w)
{
	return w->home->rooms[w->room].name;
}

/* ---------------------------------------------------------- perceive -- */

static int place_visible(const sim_world *w, int p)
{
	const sim_place_def *d = &w->home->places[p];
	return d->room == w->room && d->spot == w->spot;
}

static const sim_person *person_named(const sim_world *w, const char *name)
{
	for (size_t i = 0; i < w->n_people; i++)
		if (!strcmp(w->people[i].name, name))
			return &w->people[i];
	return NULL;
}

int world_visible(const sim_world *w, int i)
{
	const sim_item *it = &w->items[i];
	if (!it->alive)
		return 0;
	if (it->held)
		return 1;
	if (it->holder) {
		const sim_person *p = person_named(w, it->holder);
		return p && p->room == w->room;
	}
	int root = world_root(w, i);
	if (root < 0 || !place_visible(w, root))
		return 0;
	/* inside a closed cabinet, fridge, microwave: not seen */
	return !(w->home->places[root].flags & PF_OPEN) || (w->pst[root] & ST_OPEN);
}

static void write_place_state(sbuf *b, const sim_world *w, int p)
{
	unsigned st = w->pst[p];
	if (!st && !w->pfill[p])
		return;
	const char *sep = "";
	sb_put(b, ",\"state\":{");
	if (st & ST_OPEN)
		sb_put(b, "\"open\":true"), sep = ",";
	if (st & ST_ON)
		sb_printf(b, "%s\"toggled\":true", sep), sep = ",";
	if (w->pfill[p])
		sb_printf(b, "%s\"filled\":\"%s\"", sep, w->pfill[p]);
	sb_put(b, "}");
}

static void write_item_state(sbuf *b, const sim_item *it)
{
	static const struct {
		unsigned bit;
		const char *name;
	} bits[] = { { ST_DIRTY, "dirty" }, { ST_SLICED, "sliced" }, { ST_COOKED, "cooked" } };
	if (!it->st && !it->fill && !it->held)
		return;
	const char *sep = "";
	sb_put(b, ",\"state\":{");
	for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++)
		if (it->st & bits[k].bit)
			sb_printf(b, "%s\"%s\":true", sep, bits[k].name), sep = ",";
	if (it->fill)
		sb_printf(b, "%s\"filled\":\"%s\"", sep, it->fill), sep = ",";
	if (it->held)
		sb_printf(b, "%s\"pickedUp\":true", sep);
	sb_put(b, "}");
}

static void write_objects(sbuf *b, const sim_world *w)
{
	const char *sep = "";
	sb_put(b, ",\"objects\":[");
	for (size_t p = 0; p < w->home->n_places; p++) {
		if (!place_visible(w, (int)p))
			continue;
		const sim_place_def *d = &w->home->places[p];
		sb_printf(b, "%s{\"id\":\"%s\",\"type\":\"%s\"", sep, d->id, d->type);
		write_place_state(b, w, (int)p);
		sb_put(b, "}");
		sep = ",";
	}
	for (size_t i = 0; i < w->n_items; i++) {
		if (!world_visible(w, (int)i))
			continue;
		const sim_item *it = &w->items[i];
		sb_printf(b, "%s{\"id\":\"%s\",\"type\":\"%s\"", sep, it->id, it->type);
		write_item_state(b, it);
		sb_put(b, "}");
		sep = ",";
	}
	sb_put(b, "]");
}

static void write_relations(sbuf *b, const sim_world *w)
{
	const char *sep = "";
	for (size_t i = 0; i < w->n_items; i++) {
		if (!world_visible(w, (int)i))
			continue;
		const sim_item *it = &w->items[i];
		const char *to, *type;
		if (it->held) {
			to = w->home->hand;
			type = "in";
		} else if (it->holder) {
			to = it->holder;
			type = "held by";
		} else if (it->in >= 0) {
			const sim_item *c = &w->items[it->in];
			to = c->id;
			type = strcasecmp(c->type, "plate") ? "in" : "on";
		} else {
			const sim_place_def *d = &w->home->places[it->place];
			to = d->id;
			type = d->flags & PF_IN ? "in" : "on";
		}
		if (!*sep)
			sb_put(b, ",\"relations\":[");
		sb_printf(b, "%s[\"%s\",\"%s\",\"%s\"]", sep, it->id, to, type);
		sep = ",";
	}
	if (*sep)
		sb_put(b, "]");
}

static void write_persons(sbuf *b, const sim_world *w)
{
	const char *sep = "";
	for (size_t i = 0; i < w->n_people; i++) {
		const sim_person *p = &w->people[i];
		if (p->room != w->room)
			continue;
		sb_put(b, *sep ? sep : ",\"persons\":[");
		if (p->known)
			sb_printf(b, "\"%s\"", p->name);
		else
			sb_printf(b, "{\"id\":\"%s\"}", p->face);
		sep = ",";
	}
	if (*sep)
		sb_put(b, "]");
}

/* --------------------------------------------------------- recording -- */

void ep_reset(sim_ep *e)
{
	e->text.len = 0;
	e->n_obs = 0;
	e->now = 0;
	e->goal[0] = 0;
	e->status = e->note = NULL;
	e->stop = e->failed = e->n_done = e->persons = 0;
	e->fail_after = -1;
	e->task = e->title = NULL;
}

void ep_free(sim_ep *e)
{
	sb_free(&e->text);
	free(e->obs);
	e->obs = NULL;
	e->n_obs = e->cap = 0;
}

void ep_goal(sim_ep *e, const char *outer, const char *inner)
{
	if (inner)
		snprintf(e->goal, sizeof e->goal, "[\"%s\",\"%s\"]", outer, inner);
	else
		snprintf(e->goal, sizeof e->goal, "[\"%s\"]", outer);
}

void ep_goal_dotted(sim_ep *e, const char *stack)
{
	snprintf(e->goal, sizeof e->goal, "\"%s\"", stack);
}

void ep_obs(sim_ep *e, int64_t dt, const char *action, const char *speaker, const char *text)
{
	if (e->n_obs == e->cap) {
		size_t nc = e->cap ? e->cap * 2 : 128;
		sim_obs *p = realloc(e->obs, nc * sizeof *p);
		if (!p) {
			e->oom = 1;
			return;
		}
		e->obs = p;
		e->cap = nc;
	}
	dt = dt / SIM_MS * SIM_MS;
	e->now += dt < SIM_MS ? SIM_MS : dt;
	sbuf *b = &e->text;
	size_t off = b->len;
	if (action)
		sb_printf(b, ",\"action\":%s", action);
	if (e->goal[0])
		sb_printf(b, ",\"goal\":%s,\"goal_status\":\"%s\"", e->goal,
		          e->status ? e->status : "running");
	sb_put(b, ",\"location\":");
	sb_json(b, world_room(e->w));
	write_objects(b, e->w);
	write_relations(b, e->w);
	if (e->persons)
		write_persons(b, e->w);
	if (text) {
		sb_put(b, ",\"speech\":{");
		if (speaker) {
			sb_put(b, "\"speaker\":");
			sb_json(b, speaker);
			sb_put(b, ",");
		}
		sb_put(b, "\"text\":");
		sb_json(b, text);
		sb_put(b, "}");
	}
	if (e->note) {
		sb_put(b, ",\"note\":");
		sb_json(b, e->note);
	}
	sb_put(b, "}");
	e->status = e->note = NULL;
	if (b->oom || e->w->oom) {
		e->oom = 1;
		return;
	}
	e->obs[e->n_obs++] = (sim_obs){ e->now, off, b->len - off };
}

void ep_act(sim_ep *e, int64_t dt, const char *name, const char *a1, const char *a2,
            const char *status)
{
	char buf[256];
	int n = snprintf(buf, sizeof buf, "{\"name\":\"%s\"", name);
	if (a1)
		n += snprintf(buf + n, sizeof buf - (size_t)n, a2 ? ",\"args\":[\"%s\",\"%s\"]" : ",\"args\":[\"%s\"]",
		              a1, a2);
	if (status)
		n += snprintf(buf + n, sizeof buf - (size_t)n, ",\"status\":\"%s\"", status);
	snprintf(buf + n, sizeof buf - (size_t)n, "}");
	ep_obs(e, dt, buf, NULL, NULL);
}

int64_t ep_dt_speech(sim_ep *e)
{
	return rng_between(e->rng, 3 * SIM_US, 14 * SIM_US);
}

int64_t ep_dt_motion(sim_ep *e)
{
	return rng_between(e->rng, 700 * SIM_MS, 2800 * SIM_MS);
}

int64_t ep_dt_act(sim_ep *e)
{
	return rng_between(e->rng, 2 * SIM_US, 7 * SIM_US);
}

/* ------------------------------------------------------------- words -- */

void sim_noun(char *out, size_t n, const char *type, int plural)
{
	size_t k = 0;
	const char *end = type + strlen(type);
	int sliced = end - type > 6 && !strcmp(end - 6, "Sliced");
	if (sliced)
		end -= 6;
	for (const char *p = type; p < end && k + 8 < n; p++) {
		char c = *p;
		if (c >= 'A' && c <= 'Z') {
			if (p != type)
				out[k++] = ' ';
			c = (char)(c - 'A' + 'a');
		} else if (c == '-' || c == '_') {
			c = ' ';
		}
		out[k++] = c;
	}
	out[k] = 0;
	if (sliced)
		snprintf(out + k, n - k, plural ? " slices" : " slice");
	else if (plural && k >= 3 && !strcmp(out + k - 3, "ife"))
		snprintf(out + k - 2, n - k + 2, "ves");
	else if (plural && k && out[k - 1] != 's')
		snprintf(out + k, n - k, "s");
}
