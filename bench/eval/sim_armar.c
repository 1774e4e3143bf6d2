/*
 * sim_armar.c — the ARMAR-7-like sessions (after the skills in the ARMAR-7
 * long-term memory recording: BringNamedObjectFromNamedLocationToHuman,
 * ReceiveObjectFromHuman, LoadDishwasher, Introduction, LookForObjects,
 * WhatCanYouSeeNow), the people of the flat, and how the flat changes
 * between sessions: dishes get used, people leave their keys, wallet,
 * medicine and glasses somewhere else, the dishwasher gets emptied.
 */
#include <stdio.h>
#include <string.h>

#include "bench/eval/sim_armar.h"

static const char *const valuables[] = { "keys", "wallet", "medicine", "glasses" };
static const char *const valuable_spots[] = { "shelf_0",   "table_0",      "coffee-table_0",
	                                      "nightstand_0", "counter_0", "sofa_0",
	                                      "coat-rack_0", "workbench_0" };
static const char *const dish_types[] = { "cup", "plate", "bowl" };
static const char *const dish_spots[] = { "table_0", "coffee-table_0", "counter_0", "sink_0" };
static const char *const groceries[] = { "soy-milk", "apple-tea", "vanilla-cookies", "nesquik" };

/* ------------------------------------------------------------ helpers -- */

static int is_in(const char *type, const char *const *list, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(type, list[k]))
			return 1;
	return 0;
}

#define IS_IN(type, list) is_in((type), (list), sizeof(list) / sizeof((list)[0]))

/* An instance of `type` lying somewhere (not with a person); -1 if none. */
static int lying(sim_ep *e, const char *type)
{
	int ids[16], ok[16];
	size_t n = world_find(e->w, type, ids, 16), m = 0;
	for (size_t k = 0; k < n; k++)
		if (world_root(e->w, ids[k]) >= 0)
			ok[m++] = ids[k];
	return m ? ok[rng_below(e->rng, (unsigned)m)] : -1;
}

/* A resident, here with the robot, who asks for something. */
static sim_person *resident_here(sim_ep *e)
{
	sim_person *p = &e->w->people[rng_below(e->rng, 2)];
	p->room = e->w->room;
	return p;
}

static void where(sim_ep *e, int item, char *out, size_t n)
{
	int root = world_root(e->w, item);
	if (root < 0) {
		snprintf(out, n, "here");
		return;
	}
	const sim_place_def *d = &e->w->home->places[root];
	snprintf(out, n, "%s %s", d->flags & PF_IN ? "in" : "on", d->phrase);
}

static void noun(char *out, size_t n, sim_ep *e, int item)
{
	sim_noun(out, n, e->w->items[item].type, 0);
}

/* -------------------------------------------------------------- tasks -- */

static void run_bring(sim_ep *e, const sim_task *t)
{
	static const char *const things[] = { "soy-milk", "apple-tea", "vanilla-cookies", "nesquik",
		                              "glasses",  "medicine" };
	sim_person *p = resident_here(e);
	int item = lying(e, RNG_PICK(e->rng, things));
	if (item < 0)
		item = lying(e, "cup");
	if (item < 0)
		return;
	char n[64], w[160];
	noun(n, sizeof n, e, item);
	where(e, item, w, sizeof w);
	const char *the = IS_IN(e->w->items[item].type, valuables) ? "your" : "the";
	if (*the == 'y')
		ahear(e, p, "ARMAR, could you bring me my %s? I left it %s.", n, w);
	else
		ahear(e, p, "ARMAR, please bring me the %s from the %s.", n,
		      e->w->home->rooms[aroom_of(e, item)].name);
	astart(e);
	asay(e, "Sure, I will bring you %s %s.", the, n);
	agrasp(e, item);
	ahandover(e, p);
	if (!e->stop) {
		asay(e, "Here is your %s.", n);
		ahear(e, p, "Thank you, ARMAR!");
	}
	afinish(e);
}

static void run_receive(sim_ep *e, const sim_task *t)
{
	static const char *const jobs[][2] = {
		{ "cup", "dishwasher_0" }, { "plate", "sink_0" },       { "keys", "shelf_0" },
		{ "glasses", "nightstand_0" }, { "medicine", "cabinet_0" }, { "wallet", "shelf_0" },
		{ "screwdriver", "workbench_0" }, { "cup", "counter_0" },
	};
	sim_world *wd = e->w;
	sim_person *p = resident_here(e);
	unsigned j = rng_below(e->rng, sizeof jobs / sizeof jobs[0]);
	int item = lying(e, jobs[j][0]), target = world_place(wd, jobs[j][1]);
	if (item < 0)
		return;
	world_put(wd, item, -1, -1);
	wd->items[item].holder = p->name;
	char n[64];
	noun(n, sizeof n, e, item);
	const sim_place_def *d = &wd->home->places[target];
	const char *rel = d->flags & PF_IN ? "in" : "on";
	ahear(e, p, "ARMAR, please take this %s and put it %s %s.", n, rel, d->phrase);
	astart(e);
	if (rng_chance(e->rng, 0.5))
		asay(e, "Okay, please hand me the %s.", n);
	areceive(e, item, p);
	aplace(e, target);
	if (!e->stop)
		asay(e, "I put the %s %s %s.", n, rel, d->phrase);
	afinish(e);
}

static void run_dishwasher(sim_ep *e, const sim_task *t)
{
	sim_world *w = e->w;
	int dw = world_place(w, "dishwasher_0"), dirty[3];
	size_t nd = 0;
	for (size_t i = 0; i < w->n_items && nd < 3; i++)
		if (w->items[i].alive && (w->items[i].st & ST_DIRTY) && world_root(w, (int)i) >= 0 &&
		    world_root(w, (int)i) != dw)
			dirty[nd++] = (int)i;
	if (!nd) {
		int c = lying(e, RNG_PICK(e->rng, dish_types));
		if (c < 0)
			return;
		w->items[c].st |= ST_DIRTY;
		world_put(w, c, world_place(w, "table_0"), -1);
		dirty[nd++] = c;
	}
	sim_person *p = resident_here(e);
	static const char *const asks[] = { "ARMAR, can you load the dishwasher?",
		                            "Please put the dirty dishes in the dishwasher.",
		                            "ARMAR, the dishes need to go into the dishwasher." };
	ahear(e, p, "%s", RNG_PICK(e->rng, asks));
	astart(e);
	asay(e, "I will load the dishwasher.");
	aopen(e, dw, 1);
	for (size_t k = 0; k < nd && !e->stop; k++) {
		if (agrasp(e, dirty[k]))
			aplace(e, dw);
	}
	aopen(e, dw, 0);
	if (!e->stop) {
		arun(e, "StartDishwasher", "PressButton", "{\"objectId\":\"dishwasher_0\"}", 1);
		w->pst[dw] |= ST_ON;
		adone(e, "StartDishwasher", "PressButton", "{\"objectId\":\"dishwasher_0\"}");
		asay(e, "The dishwasher is running.");
	}
	afinish(e);
}

static void run_intro(sim_ep *e, const sim_task *t)
{
	sim_world *w = e->w;
	sim_person *r = resident_here(e), *v = NULL;
	for (size_t k = 2; k < w->n_people && !v; k++)
		if (!w->people[k].known)
			v = &w->people[k];
	if (!v)
		v = &w->people[2 + rng_below(e->rng, (unsigned)(w->n_people - 2))];
	v->room = w->room;
	if (!v->known) {
		ahear(e, r, "ARMAR, this is a friend of mine. Please introduce yourself.");
		astart(e);
		ahear(e, v, "Hello robot!");
		agesture(e, "Wave", "Wave", NULL, 2);
		asay(e, "Hello! I am ARMAR-7, a humanoid robot. I help with the household here.");
		agesture(e, "MoveJointsToNamedConfiguration", "MoveJointsToNamedConfiguration",
		         "{\"configuration\":\"ShowHands\"}", 2);
		asay(e, "What is your name?");
		ahear(e, v, "I'm %s.", v->name);
		char args[96];
		snprintf(args, sizeof args, "{\"faceId\":\"%s\",\"name\":\"%s\"}", v->face, v->name);
		arun(e, "LearnCurrentPerson", "LearnCurrentPerson", args, 1);
		v->known = 1;
		adone(e, "LearnCurrentPerson", "LearnCurrentPerson", args);
		asay(e, "Nice to meet you, %s! Let me show you what I can do.", v->name);
		agesture(e, "MoveJointsToNamedConfiguration", "MoveJointsToNamedConfiguration",
		         "{\"configuration\":\"PointAtWorkspace\"}", 2);
		asay(e, "I can grasp objects, load the dishwasher and bring you things.");
	} else {
		ahear(e, r, "ARMAR, do you remember %s?", v->name);
		astart(e);
		asay(e, "Of course! Hello again, %s.", v->name);
		agesture(e, "Wave", "Wave", NULL, 2);
		ahear(e, v, "Hi ARMAR! What did you do today?");
		asay(e, "I helped %s in the household.", r->name);
		agesture(e, "MoveJointsToNamedConfiguration", "MoveJointsToNamedConfiguration",
		         "{\"configuration\":\"ShowHands\"}", 2);
	}
	agesture(e, "HomePose", "MoveJointsToNamedConfiguration", "{\"configuration\":\"Home\"}", 1);
	afinish(e);
}

static void run_find(sim_ep *e, const sim_task *t)
{
	sim_world *w = e->w;
	sim_person *p = resident_here(e);
	int item = lying(e, RNG_PICK(e->rng, valuables));
	if (item < 0)
		return;
	char n[64], at[160];
	noun(n, sizeof n, e, item);
	static const char *const asks[] = { "ARMAR, have you seen my %s?",
		                            "I can't find my %s. Can you help me?",
		                            "ARMAR, please help me find my %s." };
	ahear(e, p, RNG_PICK(e->rng, asks), n);
	astart(e);
	asay(e, "Let me look for your %s.", n);
	int target = aroom_of(e, item);
	unsigned detours = 1 + rng_below(e->rng, 2);
	for (unsigned k = 0; k < detours && !e->stop; k++) {
		int nr = (int)w->home->n_rooms;
		int room = (target + 1 + (int)rng_below(e->rng, (unsigned)nr - 1)) % nr; /* not there yet */
		anav(e, room);
		ascan(e, NULL);
	}
	anav(e, target);
	ascan(e, NULL);
	where(e, item, at, sizeof at);
	if (!e->stop)
		asay(e, "I found your %s %s.", n, at);
	if (rng_chance(e->rng, 0.6)) {
		agrasp(e, item);
		ahandover(e, p);
		if (!e->stop)
			asay(e, "Here you are.");
	}
	afinish(e);
}

static void run_see(sim_ep *e, const sim_task *t)
{
	sim_world *w = e->w;
	sim_person *p = resident_here(e);
	int home = w->room, go = rng_chance(e->rng, 0.6);
	int there = go ? (home + 1 + (int)rng_below(e->rng, (unsigned)w->home->n_rooms - 1)) %
	                     (int)w->home->n_rooms
	               : home;
	if (go)
		ahear(e, p, "ARMAR, please go to the %s and tell me what you see there.",
		      w->home->rooms[there].name);
	else
		ahear(e, p, "ARMAR, what can you see?");
	astart(e);
	if (go)
		asay(e, "I am on my way to the %s.", w->home->rooms[there].name);
	anav(e, there);
	agesture(e, "LookAround", "LookLeft", NULL, 1);
	agesture(e, "LookAround", "LookRight", NULL, 1);
	ascan(e, NULL);
	sbuf s = { 0 };
	size_t shown = 0;
	for (size_t i = 0; i < w->n_items && shown < 6; i++) {
		if (!world_visible(w, (int)i))
			continue;
		char n[64];
		noun(n, sizeof n, e, (int)i);
		const char *type = w->items[i].type;
		sb_printf(&s, "%s%s %s", shown ? ", " : "",
		          IS_IN(type, dish_types) || !strcmp(type, "sponge") ? "a" : "the", n);
		shown++;
	}
	anav(e, home);
	if (!s.oom && !e->stop)
		asay(e, "In the %s I can see %s.", w->home->rooms[there].name, shown ? s.p : "no objects");
	sb_free(&s);
	afinish(e);
}

const sim_task sim_armar_tasks[] = {
	{ "BringNamedObjectFromNamedLocationToHuman", "bring an object to a person", run_bring, NULL,
	  NULL, NULL },
	{ "ReceiveObjectFromHuman", "take an object from a person and put it away", run_receive, NULL,
	  NULL, NULL },
	{ "LoadDishwasher", "load the dishwasher", run_dishwasher, NULL, NULL, NULL },
	{ "Introduction", "introduce itself to a visitor", run_intro, NULL, NULL, NULL },
	{ "LookForObjects", "look for someone's keys, wallet, medicine or glasses", run_find, NULL, NULL,
	  NULL },
	{ "WhatCanYouSeeNow", "say what it sees", run_see, NULL, NULL, NULL },
};
const size_t sim_n_armar_tasks = sizeof sim_armar_tasks / sizeof sim_armar_tasks[0];

/* ---------------------------------------------------------- household -- */

void armar_people(sim_world *w, sim_rng *r)
{
	static const char *const names[] = { "Anna", "Ben", "Clara", "David", "Emma", "Felix" };
	const char *pool[6];
	memcpy(pool, names, sizeof pool);
	for (unsigned k = 0; k < 4; k++) { /* the first four of a shuffle */
		unsigned j = k + rng_below(r, 6 - k);
		const char *tmp = pool[k];
		pool[k] = pool[j];
		pool[j] = tmp;
		sim_person *p = &w->people[k];
		p->name = pool[k];
		snprintf(p->face, sizeof p->face, "face_%u", 2 + 3 * k + rng_below(r, 3));
		p->known = k < 2; /* residents; the others are visitors */
		p->room = -1;
	}
	w->n_people = 4;
}

static void put_at(sim_world *w, sim_rng *r, int i, const char *const *spots, unsigned n)
{
	world_put(w, i, world_place(w, spots[rng_below(r, n)]), -1);
}

#define PUT_AT(w, r, i, spots) put_at((w), (r), (i), (spots), sizeof(spots) / sizeof((spots)[0]))

void armar_drift(sim_world *w, sim_rng *r)
{
	int dw = world_place(w, "dishwasher_0"), cab = world_place(w, "cabinet_0");
	int unload = rng_chance(r, 0.7);
	if (w->held >= 0)
		world_put(w, w->held, world_place(w, "counter_0"), -1);
	for (size_t i = 0; i < w->n_items; i++) {
		sim_item *it = &w->items[i];
		int is_dish = IS_IN(it->type, dish_types);
		if (it->place == dw && (w->pst[dw] & ST_ON)) {
			it->st &= ~ST_DIRTY;
			if (unload)
				world_put(w, (int)i, cab, -1);
		} else if (it->holder) {
			if (IS_IN(it->type, valuables))
				PUT_AT(w, r, (int)i, valuable_spots);
			else
				PUT_AT(w, r, (int)i, dish_spots);
			if (is_dish)
				it->st |= ST_DIRTY;
		} else if (is_dish && it->place != dw) {
			if (rng_chance(r, 0.35)) {
				it->st |= ST_DIRTY;
				PUT_AT(w, r, (int)i, dish_spots);
			}
		} else if (IS_IN(it->type, valuables)) {
			if (rng_chance(r, 0.5))
				PUT_AT(w, r, (int)i, valuable_spots);
		} else if (IS_IN(it->type, groceries) && rng_chance(r, 0.3)) { /* put back */
			world_put(w, (int)i, strcmp(it->type, "soy-milk") ? cab : world_place(w, "fridge_0"), -1);
		}
	}
	for (size_t p = 0; p < w->home->n_places; p++)
		w->pst[p] = 0;
	for (size_t k = 0; k < w->n_people; k++)
		w->people[k].room = k < 2 && rng_chance(r, 0.85) ? (int)rng_below(r, (unsigned)w->home->n_rooms)
		                                                 : -1;
	w->room = (int)rng_below(r, 4);
	w->spot = 0;
}
