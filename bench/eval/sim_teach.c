/*
 * sim_teach.c — the TEACh-like tasks (after TEACh's task definitions: Coffee,
 * Toast, N Cooked Slices Of X, Boil X, Clean All X, Water Plant, Salad, Put
 * All X On Y, Breakfast) and how the household changes between episodes:
 * dishes get used, food eaten, remote controls and books wander, the plant
 * dries out. The state carries over, so the robot meets the same objects in
 * new places on later days.
 */
#include <stdio.h>
#include <string.h>

#include "bench/eval/sim_teach.h"

/* ------------------------------------------------------------ choosing -- */

static int any_of(sim_ep *e, const char *type)
{
	int ids[32];
	size_t n = world_find(e->w, type, ids, 32);
	return n ? ids[rng_below(e->rng, (unsigned)n)] : -1;
}

/* An unsliced one; bought fresh when there is none left. */
static int food(sim_ep *e, const char *type)
{
	int i = any_of(e, type);
	if (i < 0)
		i = world_add(e->w, type, NULL, tp(e, strcmp(type, "Bread") ? "Fridge" : "CounterTop_0"),
		              -1);
	return i;
}

/* The knife in hand, else the kitchen knife (a butter knife when there is none). */
static int knife(sim_ep *e)
{
	int h = e->w->held;
	if (h >= 0 && strstr(e->w->items[h].type, "Knife"))
		return h;
	int k = any_of(e, "Knife");
	return k >= 0 ? k : any_of(e, "ButterKnife");
}

/* Slice food item f (taken out of the fridge first); returns its first slice. */
static int slice_food(sim_ep *e, int f)
{
	sim_world *w = e->w;
	if (f < 0 || e->stop)
		return -1;
	int root = world_root(w, f);
	if (root >= 0 && (w->home->places[root].flags & PF_IN)) {
		tfetch(e, f);
		tplace(e, tp(e, "CounterTop_0"), 1);
	}
	int k = knife(e);
	if (k < 0)
		return -1;
	tfetch(e, k);
	return tslice(e, f);
}

/* A clean plate to serve on: rinsed if dirty, taken out of the cupboard. */
static int clean_plate(sim_ep *e)
{
	int p = any_of(e, "Plate");
	if (p < 0)
		return -1;
	int root = world_root(e->w, p);
	if (e->w->items[p].st & ST_DIRTY) {
		if (rng_chance(e->rng, 0.5))
			tsay(e, "commander", "The plate is dirty, please rinse it first.");
		trinse(e, p, 0);
		tplace(e, tp(e, "CounterTop_0"), 1);
	} else if (root >= 0 && (e->w->home->places[root].flags & PF_OPEN)) {
		tfetch(e, p);
		tplace(e, tp(e, "CounterTop_0"), 1);
	}
	return p;
}

/* -------------------------------------------------------------- tasks -- */

/* Coffee in mug m (-1: any mug). */
static int coffee(sim_ep *e, int sub, int m)
{
	static const char *const asks[] = { "Today we will make coffee.", "Please make a mug of coffee.",
		                            "Could you prepare coffee in a clean mug?",
		                            "I'd like a coffee, please." };
	if (m < 0)
		m = any_of(e, "Mug");
	if (m < 0)
		return -1;
	if (!sub)
		topening(e, RNG_PICK(e->rng, asks), m);
	tfetch(e, m);
	if (e->w->items[m].st & ST_DIRTY) {
		if (rng_chance(e->rng, 0.6))
			tsay(e, "commander", "The mug is dirty, rinse it with water first.");
		trinse(e, m, 0);
	} else if (e->w->items[m].fill) {
		tpour(e, tp(e, "Sink"));
	}
	int cm = tp(e, "CoffeeMachine");
	tplace(e, cm, 1);
	ttoggle(e, cm, 1);
	ttoggle(e, cm, 0);
	return m;
}

static void run_coffee(sim_ep *e, const sim_task *t)
{
	int m = coffee(e, 0, -1);
	if (m >= 0 && !e->stop && rng_chance(e->rng, 0.3)) {
		tsay(e, "commander", "Please bring the coffee to the dining table.");
		tpickup(e, m);
		tplace(e, tp(e, "DiningTable"), 1);
	}
	tfinish(e);
}

/* A slice of toast on a clean plate; returns the plate. */
static int toast(sim_ep *e, int sub)
{
	static const char *const asks[] = { "Let's make a slice of toast.", "Please make a slice of toast.",
		                            "We need toast today. Slice the bread and toast one slice." };
	int bread = food(e, "Bread");
	if (!sub)
		topening(e, RNG_PICK(e->rng, asks), bread);
	int plate = clean_plate(e);
	int s = slice_food(e, bread);
	tput_down(e);
	if (s < 0 || plate < 0)
		return plate;
	int toaster = tp(e, "Toaster");
	tpickup(e, s);
	tplace(e, toaster, 1);
	ttoggle(e, toaster, 1);
	ttoggle(e, toaster, 0);
	tpickup(e, s);
	tplace_in(e, plate);
	return plate;
}

static void run_toast(sim_ep *e, const sim_task *t)
{
	toast(e, 0);
	tfinish(e);
}

static void run_cook(sim_ep *e, const sim_task *t)
{
	int n = t->a[0] - '0';
	char ask[160];
	if (n == 1)
		snprintf(ask, sizeof ask, "%s", rng_chance(e->rng, 0.5) ? "Cook a slice of potato, please."
		                                                        : "We need a cooked slice of potato on a plate.");
	else
		snprintf(ask, sizeof ask, "Please cook %d slices of potato and put them on a plate.", n);
	int potato = food(e, "Potato");
	topening(e, ask, potato);
	int plate = clean_plate(e);
	int s = slice_food(e, potato);
	tput_down(e);
	if (s < 0 || plate < 0) {
		tfinish(e);
		return;
	}
	if (rng_chance(e->rng, 0.5)) {
		int pan = any_of(e, "Pan"), burner = tp(e, "StoveBurner_0"), knob = tp(e, "StoveKnob_0");
		if (world_root(e->w, pan) != burner) {
			tfetch(e, pan);
			tplace(e, burner, 1);
		}
		for (int k = 0; k < n; k++) {
			tpickup(e, s + k);
			tplace_in(e, pan);
		}
		ttoggle(e, knob, 1);
		ttoggle(e, knob, 0);
		for (int k = 0; k < n; k++) {
			tpickup(e, s + k);
			tplace_in(e, plate);
		}
	} else {
		int mw = tp(e, "Microwave");
		for (int k = 0; k < n; k++) {
			tpickup(e, s + k);
			tplace_in(e, plate);
		}
		tpickup(e, plate);
		tplace(e, mw, 1);
		ttoggle(e, mw, 1);
		ttoggle(e, mw, 0);
		tpickup(e, plate);
		tplace(e, tp(e, "CounterTop_0"), 1);
	}
	tfinish(e);
}

static void run_boil(sim_ep *e, const sim_task *t)
{
	static const char *const asks[] = { "Today we will boil a potato.", "Please boil a potato in the pot.",
		                            "Can you boil a potato for me?" };
	int pot = any_of(e, "Pot"), potato = food(e, "Potato");
	topening(e, RNG_PICK(e->rng, asks), pot);
	if (pot < 0 || potato < 0) {
		tfinish(e);
		return;
	}
	tfetch(e, pot);
	if (!e->w->items[pot].fill) {
		if (rng_chance(e->rng, 0.5))
			tsay(e, "commander", "Fill the pot with water first.");
		trinse(e, pot, 1);
	}
	tplace(e, tp(e, "StoveBurner_1"), 1);
	tfetch(e, potato);
	tplace_in(e, pot);
	int knob = tp(e, "StoveKnob_1");
	ttoggle(e, knob, 1);
	if (rng_chance(e->rng, 0.5))
		tsay(e, "robot", "The water is boiling.");
	ttoggle(e, knob, 0);
	tfinish(e);
}

static void run_clean_all(sim_ep *e, const sim_task *t)
{
	sim_world *w = e->w;
	int ids[32], dirty[3];
	size_t n = world_find(w, t->a, ids, 32), nd = 0;
	for (size_t k = 0; k < n && nd < 3; k++)
		if (w->items[ids[k]].st & ST_DIRTY)
			dirty[nd++] = ids[k];
	if (!nd && n) { /* someone used one since the last time */
		dirty[nd++] = ids[rng_below(e->rng, (unsigned)n)];
		w->items[dirty[0]].st |= ST_DIRTY;
		world_put(w, dirty[0], tp(e, "Sink"), -1);
	}
	char noun[64], ask[160];
	sim_noun(noun, sizeof noun, t->a, 1);
	static const char *const asks[] = { "Clean all the %s, please.", "Today we need to clean all the %s.",
		                            "Please rinse all the dirty %s in the sink." };
	snprintf(ask, sizeof ask, RNG_PICK(e->rng, asks), noun);
	topening(e, ask, nd ? dirty[0] : -1);
	sim_noun(noun, sizeof noun, t->a, 0);
	for (size_t k = 0; k < nd; k++) {
		if (k && rng_chance(e->rng, 0.4)) {
			char where[160];
			tloc(e, dirty[k], where, sizeof where);
			tsay(e, "commander", "There is another %s %s.", noun, where);
		}
		trinse(e, dirty[k], 0);
		tplace(e, tp(e, rng_chance(e->rng, 0.5) ? "CounterTop_1" : t->b), 1);
	}
	tfinish(e);
}

static void run_water(sim_ep *e, const sim_task *t)
{
	static const char *const asks[] = { "Please water the plant.", "The plant needs water today.",
		                            "Today we will water the plant. Use a cup or a bowl." };
	static const char *const vessels[] = { "Cup", "Mug", "Bowl", "Pot" };
	int c = any_of(e, RNG_PICK(e->rng, vessels));
	topening(e, RNG_PICK(e->rng, asks), c);
	if (c < 0) {
		tfinish(e);
		return;
	}
	tfetch(e, c);
	trinse(e, c, 1);
	tpour(e, tp(e, "HousePlant"));
	if (rng_chance(e->rng, 0.5))
		tput_down(e);
	else
		tplace(e, tp(e, "CounterTop_1"), 1);
	tfinish(e);
}

static void run_salad(sim_ep *e, const sim_task *t)
{
	static const char *const asks[] = { "Let's make a salad today.",
		                            "Make a salad: a slice of lettuce and a slice of tomato on a clean plate.",
		                            "Today we will make a salad. We need a knife to slice the lettuce and the tomato." };
	int lettuce = food(e, "Lettuce"), tomato = food(e, "Tomato");
	topening(e, RNG_PICK(e->rng, asks), rng_chance(e->rng, 0.5) ? knife(e) : lettuce);
	int plate = clean_plate(e);
	int l = slice_food(e, lettuce);
	int to = slice_food(e, tomato);
	tput_down(e);
	if (plate >= 0 && l >= 0 && to >= 0) {
		tpickup(e, l);
		tplace_in(e, plate);
		tpickup(e, to);
		tplace_in(e, plate);
	}
	tfinish(e);
}

static const char *const fork_spots[] = { "DiningTable", "Sink", "CounterTop_1", "CounterTop_0" };
static const char *const remote_spots[] = { "CoffeeTable", "ArmChair", "TVStand", "Bed", "SideTable_0",
	                                    "Desk" };
static const char *const book_spots[] = { "Desk", "Sofa", "Bed", "CoffeeTable", "SideTable_1" };

static void scatter(sim_ep *e, int i, const char *type)
{
	const char *to = !strcmp(type, "Fork")            ? RNG_PICK(e->rng, fork_spots)
	                 : !strcmp(type, "RemoteControl") ? RNG_PICK(e->rng, remote_spots)
	                                                  : RNG_PICK(e->rng, book_spots);
	world_put(e->w, i, tp(e, to), -1);
}

static void run_put_all(sim_ep *e, const sim_task *t)
{
	sim_world *w = e->w;
	int target = tp(e, t->b), ids[32], todo[4];
	size_t n = world_find(w, t->a, ids, 32), nt = 0;
	for (size_t k = 0; k < n && nt < 4; k++)
		if (world_root(w, ids[k]) != target)
			todo[nt++] = ids[k];
	/* "all" means two or more: the household has been at it again */
	for (size_t k = 0; k < n && nt < 2; k++)
		if (world_root(w, ids[k]) == target) {
			todo[nt++] = ids[k];
			scatter(e, ids[k], t->a);
		}
	char noun[64], ask[200];
	sim_noun(noun, sizeof noun, t->a, 1);
	static const char *const asks[] = { "Put all the %s %s %s.", "Please put all the %s %s %s.",
		                            "Today we will put all the %s %s %s." };
	snprintf(ask, sizeof ask, RNG_PICK(e->rng, asks), noun, t->c, w->home->places[target].phrase);
	topening(e, ask, nt ? todo[0] : -1);
	sim_noun(noun, sizeof noun, t->a, 0);
	for (size_t k = 0; k < nt; k++) {
		if (k && rng_chance(e->rng, 0.4)) {
			char where[160];
			tloc(e, todo[k], where, sizeof where);
			tsay(e, "commander", "There is another %s %s.", noun, where);
		}
		tfetch(e, todo[k]);
		tplace(e, target, 1);
	}
	tfinish(e);
}

static void run_breakfast(sim_ep *e, const sim_task *t)
{
	static const char *const asks[] = {
		"Let's prepare breakfast: a mug of coffee and a slice of toast on the dining table.",
		"Please prepare breakfast today. Coffee and toast, served on the dining table."
	};
	int m = any_of(e, "Mug");
	topening(e, RNG_PICK(e->rng, asks), m);
	ep_goal(e, t->name, "MakeCoffee");
	m = coffee(e, 1, m);
	if (!e->stop) {
		e->status = "succeeded";
		tsay(e, "robot", "The coffee is ready.");
	}
	ep_goal(e, t->name, "MakeToast");
	tsay(e, "commander", "Now make a slice of toast.");
	int plate = toast(e, 1);
	if (!e->stop) {
		e->status = "succeeded";
		tsay(e, "robot", "The toast is on the plate.");
	}
	ep_goal(e, t->name, "ServeBreakfast");
	tsay(e, "commander", "Please put the coffee and the toast on the dining table.");
	int table = tp(e, "DiningTable");
	if (m >= 0 && plate >= 0) {
		tpickup(e, m);
		tplace(e, table, 1);
		tpickup(e, plate);
		tplace(e, table, 1);
	}
	ep_goal(e, t->name, NULL);
	tfinish(e);
}

const sim_task sim_teach_tasks[] = {
	{ "MakeCoffee", "make a mug of coffee", run_coffee, NULL, NULL, NULL },
	{ "MakeToast", "make a slice of toast", run_toast, NULL, NULL, NULL },
	{ "CookPotatoSlice", "cook a slice of potato", run_cook, "1", NULL, NULL },
	{ "CookPotatoSlices", "cook 2 slices of potato", run_cook, "2", NULL, NULL },
	{ "BoilPotato", "boil a potato", run_boil, NULL, NULL, NULL },
	{ "CleanAllBowls", "clean all the bowls", run_clean_all, "Bowl", "Cabinet_1", NULL },
	{ "CleanAllPlates", "clean all the plates", run_clean_all, "Plate", "Cabinet_3", NULL },
	{ "CleanAllMugs", "clean all the mugs", run_clean_all, "Mug", "Cabinet_0", NULL },
	{ "WaterPlant", "water the plant", run_water, NULL, NULL, NULL },
	{ "MakeSalad", "make a salad", run_salad, NULL, NULL, NULL },
	{ "PutAllForksInDrawer", "put all the forks in a drawer", run_put_all, "Fork", "Drawer_0", "in" },
	{ "PutAllRemoteControlsOnSofa", "put all the remote controls on the sofa", run_put_all,
	  "RemoteControl", "Sofa", "on" },
	{ "PutAllBooksOnShelf", "put all the books on the shelf", run_put_all, "Book", "Shelf", "on" },
	{ "PrepareBreakfast", "prepare breakfast", run_breakfast, NULL, NULL, NULL },
};
const size_t sim_n_teach_tasks = sizeof sim_teach_tasks / sizeof sim_teach_tasks[0];

/* ---------------------------------------------------------- household -- */

static const char *const dish_spots[] = { "Sink", "DiningTable", "CounterTop_1", "CounterTop_0",
	                                  "CoffeeTable" };
static const char *const pillow_spots[] = { "Sofa", "ArmChair", "Bed" };
static const char *const small_spots[] = { "SideTable_0", "Desk", "CoffeeTable", "DiningTable",
	                                   "SideTable_1", "Dresser" };

static void move_to(sim_world *w, sim_rng *r, int i, const char *const *spots, unsigned n)
{
	world_put(w, i, world_place(w, spots[rng_below(r, n)]), -1);
}

#define MOVE(w, r, i, spots) move_to((w), (r), (i), (spots), sizeof(spots) / sizeof((spots)[0]))

static int is(const sim_item *it, const char *type)
{
	return !strcmp(it->type, type);
}

void teach_drift(sim_world *w, sim_rng *r)
{
	if (w->held >= 0)
		world_put(w, w->held, world_place(w, "CounterTop_0"), -1);
	for (size_t p = 0; p < w->home->n_places; p++)
		w->pst[p] = 0;
	int plant = world_place(w, "HousePlant");
	if (w->pfill[plant] && rng_chance(r, 0.7))
		w->pfill[plant] = NULL;
	for (size_t i = 0; i < w->n_items; i++) {
		sim_item *it = &w->items[i];
		if (!it->alive)
			continue;
		if (it->st & (ST_SLICED | ST_COOKED)) { /* eaten; the plate needs a wash */
			if (rng_chance(r, 0.85)) {
				it->alive = 0;
				if (it->in >= 0)
					w->items[it->in].st |= ST_DIRTY;
			}
			continue;
		}
		if (is(it, "Mug") || is(it, "Cup") || is(it, "Bowl") || is(it, "Plate")) {
			if (it->fill && !strcmp(it->fill, "coffee"))
				it->st |= ST_DIRTY;
			it->fill = NULL;
			if (rng_chance(r, 0.3)) {
				it->st |= ST_DIRTY;
				MOVE(w, r, (int)i, dish_spots);
			}
		} else if (is(it, "Pot") || is(it, "Pan")) {
			it->fill = NULL;
		} else if (is(it, "Fork") || is(it, "Spoon") || is(it, "ButterKnife")) {
			if (rng_chance(r, 0.35))
				MOVE(w, r, (int)i, fork_spots);
		} else if (is(it, "RemoteControl")) {
			if (rng_chance(r, 0.5))
				MOVE(w, r, (int)i, remote_spots);
		} else if (is(it, "Book")) {
			if (rng_chance(r, 0.35))
				MOVE(w, r, (int)i, book_spots);
		} else if (is(it, "Pillow")) {
			if (rng_chance(r, 0.3))
				MOVE(w, r, (int)i, pillow_spots);
		} else if (is(it, "KeyChain") || is(it, "CellPhone") || is(it, "Watch")) {
			if (rng_chance(r, 0.4))
				MOVE(w, r, (int)i, small_spots);
		}
	}
	world_compact(w);
	static const char *const fresh[][2] = {
		{ "Potato", "Fridge" }, { "Tomato", "Fridge" }, { "Lettuce", "Fridge" }, { "Bread", "CounterTop_0" }
	};
	for (size_t k = 0; k < sizeof fresh / sizeof fresh[0]; k++) {
		int one;
		if (!world_find(w, fresh[k][0], &one, 1))
			world_add(w, fresh[k][0], NULL, world_place(w, fresh[k][1]), -1);
	}
	if (rng_chance(r, 0.8)) {
		w->room = 0;
		w->spot = (int)rng_below(r, (unsigned)w->home->rooms[0].n_spots);
	} else {
		w->room = 1;
		w->spot = 0;
	}
}
