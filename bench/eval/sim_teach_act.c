/*
 * sim_teach_act.c — what the TEACh-like robot can do in the home, one
 * observation per step: walk (Navigate, Forward, TurnLeft, ...), interact
 * (Pickup, Place, Open, Close, ToggleOn/Off, Slice, Pour) with the effects
 * AI2-THOR has (the faucet rinses and fills what is in the sink, the coffee
 * machine fills the mug on it, the toaster, stove and microwave cook), talk
 * with the commander, and fail: now and then an interaction fails and is
 * retried, and at the episode's failure point it fails for good.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/eval/sim_teach.h"

static const char *const turns[] = { "TurnLeft", "TurnRight" };
static const char *const small_steps[] = { "StepLeft", "StepRight", "LookDown", "LookUp",
	                                   "Backward" };

int tp(sim_ep *e, const char *id)
{
	return world_place(e->w, id);
}

const char *tid(sim_ep *e, int i)
{
	return e->w->items[i].id;
}

static const char *pid(sim_ep *e, int p)
{
	return e->w->home->places[p].id;
}

/* ------------------------------------------------------------ talking -- */

void tsay(sim_ep *e, const char *speaker, const char *fmt, ...)
{
	if (e->stop && !e->status)
		return;
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	ep_obs(e, ep_dt_speech(e), NULL, speaker, text);
}

/* "in the drawer left of the sink", "on the plate on the dining table" */
void tloc(sim_ep *e, int i, char *out, size_t n)
{
	const sim_item *it = &e->w->items[i];
	int root = world_root(e->w, i);
	if (root < 0) {
		snprintf(out, n, "in my hand");
		return;
	}
	const sim_place_def *d = &e->w->home->places[root];
	const char *rel = d->flags & PF_IN ? "in" : "on";
	if (it->in >= 0) {
		char noun[64];
		const sim_item *c = &e->w->items[it->in];
		sim_noun(noun, sizeof noun, c->type, 0);
		snprintf(out, n, "%s the %s %s %s", strcmp(c->type, "Plate") ? "in" : "on", noun, rel,
		         d->phrase);
	} else {
		snprintf(out, n, "%s %s", rel, d->phrase);
	}
}

void thint(sim_ep *e, int i)
{
	char noun[64], where[160];
	sim_noun(noun, sizeof noun, e->w->items[i].type, 0);
	tloc(e, i, where, sizeof where);
	static const char *const forms[] = { "The %s is %s.", "There is a %s %s.",
		                             "You can find the %s %s." };
	tsay(e, "commander", RNG_PICK(e->rng, forms), noun, where);
}

static void maybe_ask(sim_ep *e, int i)
{
	if (e->stop || !rng_chance(e->rng, 0.3))
		return;
	char noun[64];
	sim_noun(noun, sizeof noun, e->w->items[i].type, 0);
	static const char *const asks[] = { "Where is the %s?", "where can I find the %s?",
		                            "Can you help me find the %s?" };
	tsay(e, "robot", RNG_PICK(e->rng, asks), noun);
	thint(e, i);
}

/* ------------------------------------------------------------- moving -- */

static void step(sim_ep *e, const char *name)
{
	ep_act(e, ep_dt_motion(e), name, NULL, NULL, NULL);
}

static void go_spot(sim_ep *e, int room, int spot)
{
	sim_world *w = e->w;
	if (e->stop)
		return;
	if (w->room != room) {
		char act[128];
		snprintf(act, sizeof act, "{\"name\":\"Navigate\",\"args\":{\"target\":\"%s\"}}",
		         w->home->rooms[room].name);
		ep_obs(e, ep_dt_motion(e), act, NULL, NULL);
		w->room = room;
		w->spot = spot;
		unsigned n = 2 + rng_below(e->rng, 4);
		for (unsigned k = 0; k < n; k++)
			step(e, k == 0 ? RNG_PICK(e->rng, turns) : "Forward");
	} else if (w->spot != spot) {
		w->spot = spot;
		step(e, RNG_PICK(e->rng, turns));
		unsigned n = 1 + rng_below(e->rng, 4);
		for (unsigned k = 0; k < n; k++)
			step(e, "Forward");
		if (rng_chance(e->rng, 0.3))
			step(e, RNG_PICK(e->rng, small_steps));
	} else if (rng_chance(e->rng, 0.2)) {
		step(e, RNG_PICK(e->rng, small_steps));
	}
}

static void go_place(sim_ep *e, int p)
{
	const sim_place_def *d = &e->w->home->places[p];
	go_spot(e, d->room, d->spot);
}

/* --------------------------------------------------------- interacting -- */

static const char *type_of(sim_ep *e, const char *id)
{
	for (size_t i = 0; i < e->w->n_items; i++)
		if (!strcmp(e->w->items[i].id, id))
			return e->w->items[i].type;
	int p = world_place(e->w, id);
	return p >= 0 ? e->w->home->places[p].type : id;
}

static void give_up(sim_ep *e, const char *name, const char *a1)
{
	char noun[64];
	sim_noun(noun, sizeof noun, type_of(e, a1), 0);
	const char *fmt = !strcmp(name, "Pickup")     ? "I can't pick up the %s, it won't move."
	                  : !strcmp(name, "Place")    ? "I can't put the %s down there, it keeps failing."
	                  : !strcmp(name, "ToggleOn") ? "The %s won't turn on."
	                  : !strcmp(name, "Open")     ? "The %s is stuck, I can't open it."
	                  : !strcmp(name, "Slice")    ? "I can't slice the %s."
	                  : !strcmp(name, "Pour")     ? "I can't pour from the %s."
	                                              : "The %s doesn't work.";
	tsay(e, "robot", fmt, noun);
	e->stop = e->failed = 1;
}

/* Whether the interaction will work. Transient failures are recorded and
 * retried; at the episode's failure point it fails and the task stops. */
static int attempt(sim_ep *e, const char *name, const char *a1, const char *a2)
{
	if (e->stop)
		return 0;
	if (e->n_done == e->fail_after) {
		ep_act(e, ep_dt_act(e), name, a1, a2, "failed");
		give_up(e, name, a1);
		return 0;
	}
	if (rng_chance(e->rng, 0.05)) {
		ep_act(e, ep_dt_act(e), name, a1, a2, "failed");
		step(e, RNG_PICK(e->rng, small_steps));
	}
	return 1;
}

static void done(sim_ep *e, const char *name, const char *a1, const char *a2)
{
	ep_act(e, ep_dt_act(e), name, a1, a2, "succeeded");
	e->n_done++;
}

void topen(sim_ep *e, int p, int open)
{
	if (e->stop || !(e->w->pst[p] & ST_OPEN) == !open)
		return;
	go_place(e, p);
	const char *name = open ? "Open" : "Close";
	if (!attempt(e, name, pid(e, p), NULL))
		return;
	e->w->pst[p] ^= ST_OPEN;
	done(e, name, pid(e, p), NULL);
}

/* The first plain surface at the robot's spot (a counter, a table). */
static int surface_here(sim_ep *e)
{
	const sim_home *h = e->w->home;
	for (size_t p = 0; p < h->n_places; p++) {
		const sim_place_def *d = &h->places[p];
		if (d->room == e->w->room && d->spot == e->w->spot && !d->flags)
			return (int)p;
	}
	return tp(e, "CounterTop_0");
}

void tput_down(sim_ep *e)
{
	if (e->w->held >= 0)
		tplace(e, surface_here(e), 1);
}

void tpickup(sim_ep *e, int i)
{
	sim_world *w = e->w;
	if (e->stop || w->held == i)
		return;
	tput_down(e);
	int root = world_root(w, i);
	if (root < 0)
		return;
	go_place(e, root);
	int opened = 0;
	if ((w->home->places[root].flags & PF_OPEN) && !(w->pst[root] & ST_OPEN)) {
		topen(e, root, 1);
		opened = 1;
	}
	if (!attempt(e, "Pickup", tid(e, i), NULL))
		return;
	world_hold(w, i);
	done(e, "Pickup", tid(e, i), NULL);
	if (opened)
		topen(e, root, 0);
}

void tfetch(sim_ep *e, int i)
{
	if (e->stop || e->w->held == i)
		return;
	maybe_ask(e, i);
	tpickup(e, i);
}

void tplace(sim_ep *e, int p, int close_after)
{
	sim_world *w = e->w;
	int i = w->held;
	if (e->stop || i < 0)
		return;
	go_place(e, p);
	int opened = 0;
	if ((w->home->places[p].flags & PF_OPEN) && !(w->pst[p] & ST_OPEN)) {
		topen(e, p, 1);
		opened = 1;
	}
	if (!attempt(e, "Place", tid(e, i), pid(e, p)))
		return;
	world_put(w, i, p, -1);
	done(e, "Place", tid(e, i), pid(e, p));
	if (opened && close_after)
		topen(e, p, 0);
}

void tplace_in(sim_ep *e, int target)
{
	sim_world *w = e->w;
	int i = w->held, root = world_root(w, target);
	if (e->stop || i < 0 || root < 0)
		return;
	go_place(e, root);
	int opened = 0;
	if ((w->home->places[root].flags & PF_OPEN) && !(w->pst[root] & ST_OPEN)) {
		topen(e, root, 1);
		opened = 1;
	}
	if (!attempt(e, "Place", tid(e, i), tid(e, target)))
		return;
	world_put(w, i, -1, target);
	done(e, "Place", tid(e, i), tid(e, target));
	if (opened)
		topen(e, root, 0);
}

static int is_food(const char *type)
{
	static const char *const foods[] = { "Potato", "Egg", "Bread", "Tomato", "Apple" };
	if (strstr(type, "Sliced"))
		return 1;
	for (size_t k = 0; k < sizeof foods / sizeof foods[0]; k++)
		if (!strcmp(type, foods[k]))
			return 1;
	return 0;
}

static int fillable(const char *type)
{
	return !strcmp(type, "Mug") || !strcmp(type, "Cup") || !strcmp(type, "Bowl") ||
	       !strcmp(type, "Pot");
}

/* What switching `p` on does to what is in it or on it. */
static void switched_on(sim_ep *e, int p)
{
	sim_world *w = e->w;
	const char *id = pid(e, p);
	int sink = !strcmp(id, "Faucet") ? tp(e, "Sink") : !strcmp(id, "Faucet_1") ? tp(e, "Sink_1") : -1;
	int burner = !strcmp(id, "StoveKnob_0") ? tp(e, "StoveBurner_0")
	             : !strcmp(id, "StoveKnob_1") ? tp(e, "StoveBurner_1")
	                                          : -1;
	for (size_t k = 0; k < w->n_items; k++) {
		sim_item *it = &w->items[k];
		if (!it->alive)
			continue;
		int root = world_root(w, (int)k);
		if (sink >= 0 && root == sink) {
			it->st &= ~ST_DIRTY;
			if (it->place == sink && fillable(it->type))
				it->fill = "water";
		} else if (!strcmp(id, "CoffeeMachine") && it->place == p &&
		           (!strcmp(it->type, "Mug") || !strcmp(it->type, "Cup"))) {
			it->fill = "coffee";
		} else if (!strcmp(id, "Toaster") && it->place == p && !strcmp(it->type, "BreadSliced")) {
			it->st |= ST_COOKED;
		} else if (!strcmp(id, "Microwave") && root == p && is_food(it->type)) {
			it->st |= ST_COOKED;
		} else if (burner >= 0 && root == burner && it->in >= 0 && is_food(it->type)) {
			const sim_item *pot = &w->items[it->in];
			if (!strcmp(pot->type, "Pan") || (!strcmp(pot->type, "Pot") && pot->fill))
				it->st |= ST_COOKED;
		}
	}
}

void ttoggle(sim_ep *e, int p, int on)
{
	if (e->stop || !(e->w->pst[p] & ST_ON) == !on)
		return;
	go_place(e, p);
	const char *name = on ? "ToggleOn" : "ToggleOff";
	if (!attempt(e, name, pid(e, p), NULL))
		return;
	e->w->pst[p] ^= ST_ON;
	if (on)
		switched_on(e, p);
	done(e, name, pid(e, p), NULL);
}

void tpour(sim_ep *e, int p)
{
	sim_world *w = e->w;
	int i = w->held;
	if (e->stop || i < 0 || !w->items[i].fill)
		return;
	go_place(e, p);
	if (!attempt(e, "Pour", tid(e, i), pid(e, p)))
		return;
	if (w->home->places[p].flags & PF_FILL)
		w->pfill[p] = w->items[i].fill;
	w->items[i].fill = NULL;
	done(e, "Pour", tid(e, i), pid(e, p));
}

int tslice(sim_ep *e, int i)
{
	sim_world *w = e->w;
	int root = world_root(w, i);
	if (e->stop || root < 0)
		return -1;
	go_place(e, root);
	if (!attempt(e, "Slice", tid(e, i), NULL))
		return -1;
	char base[48], type[40];
	snprintf(base, sizeof base, "%s", w->items[i].id);
	snprintf(type, sizeof type, "%sSliced", w->items[i].type);
	int place = w->items[i].place, in = w->items[i].in, first = -1;
	unsigned n = !strcmp(w->items[i].type, "Bread") ? 4 : 3;
	w->items[i].alive = 0;
	for (unsigned k = 1; k <= n; k++) {
		char id[64];
		snprintf(id, sizeof id, "%s_Slice_%u", base, k);
		int s = world_add(w, type, id, place, in);
		if (s < 0)
			return -1;
		w->items[s].st = ST_SLICED;
		if (first < 0)
			first = s;
	}
	/* world_add may move the array: speak of `base`, not of w->items[i] */
	done(e, "Slice", base, NULL);
	return first;
}

/* Rinse an item in the kitchen sink: it comes out clean, held, empty. */
void trinse(sim_ep *e, int i, int keep_water)
{
	int sink = tp(e, "Sink"), faucet = tp(e, "Faucet");
	if (e->stop)
		return;
	if (e->w->items[i].place != sink || e->w->held == i) {
		tfetch(e, i);
		tplace(e, sink, 1);
	}
	ttoggle(e, faucet, 1);
	ttoggle(e, faucet, 0);
	tpickup(e, i);
	if (!keep_water)
		tpour(e, sink);
}

/* ---------------------------------------------------------- episodes -- */

void topening(sim_ep *e, const char *request, int key_item)
{
	static const char *const hellos[] = { "hi", "Hello!", "Hi there", "hello robot" };
	static const char *const whats[] = { "Hi, what should I do today?", "What should I do today?",
		                             "hi, what's my task?", "Hello. What can I do for you?" };
	static const char *const oks[] = { "ok", "Sure.", "On it.", "okay, will do" };
	if (rng_chance(e->rng, 0.5)) {
		tsay(e, "robot", "%s", RNG_PICK(e->rng, whats));
	} else {
		tsay(e, "commander", "%s", RNG_PICK(e->rng, hellos));
		tsay(e, "robot", "%s", RNG_PICK(e->rng, whats));
	}
	tsay(e, "commander", "%s", request);
	if (key_item >= 0 && rng_chance(e->rng, 0.6))
		thint(e, key_item);
	if (rng_chance(e->rng, 0.4))
		tsay(e, "robot", "%s", RNG_PICK(e->rng, oks));
}

void tfinish(sim_ep *e)
{
	static const char *const dones[] = { "Done. Anything else?", "I'm done.", "Finished, what next?",
		                             "All done." };
	static const char *const thanks[] = { "That's all, thank you!", "Great job, we are done.",
		                              "Thanks, that was everything.", "good work, thanks" };
	static const char *const stops[] = { "Never mind, let's stop here for today.",
		                             "OK, we can't finish this today. Let's stop.",
		                             "Forget it, we'll try again another time." };
	if (e->stop) {
		e->status = "failed";
		tsay(e, "commander", "%s", RNG_PICK(e->rng, stops));
		return;
	}
	tsay(e, "robot", "%s", RNG_PICK(e->rng, dones));
	e->status = "succeeded";
	tsay(e, "commander", "%s", RNG_PICK(e->rng, thanks));
}
