/*
 * sim_internal.h — what the simulator's files share (not installed, not for
 * callers of sim.h): the PRNG, a text buffer that writes JSON, the home model
 * (rooms, furniture, movable items and their states) and the episode
 * recorder that turns the home's state into observation bodies.
 *
 * Files: sim.c (options, dates, scheduling, emit), sim_world.c (home, PRNG,
 * recorder), sim_homes.c (the two home layouts), sim_teach.c (TEACh-like
 * tasks), sim_armar.c (ARMAR-like tasks).
 */
#ifndef H2EMV_SIM_INTERNAL_H
#define H2EMV_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bench/eval/sim.h"

#define SIM_US 1000000ll
#define SIM_MS 1000ll

/* ------------------------------------------------------------- PRNG -- */

/* xoshiro256** seeded through splitmix64: the same seed gives the same
 * stream on every platform (no libc rand). */
typedef struct sim_rng {
	uint64_t s[4];
} sim_rng;

void rng_seed(sim_rng *r, uint64_t seed);
uint64_t rng_next(sim_rng *r);
/* Uniform in [0, n); 0 when n is 0. */
unsigned rng_below(sim_rng *r, unsigned n);
/* Uniform in [lo, hi] (lo <= hi). */
int64_t rng_between(sim_rng *r, int64_t lo, int64_t hi);
/* 1 with probability p. */
int rng_chance(sim_rng *r, double p);
#define RNG_PICK(r, arr) ((arr)[rng_below((r), (unsigned)(sizeof(arr) / sizeof((arr)[0])))])

/* ------------------------------------------------------------- text -- */

/* A growing string. Out of memory is sticky: `oom` is set, later writes
 * are dropped, and the owner checks it once at the end. */
typedef struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
} sbuf;

void sb_putn(sbuf *b, const char *s, size_t n);
void sb_put(sbuf *b, const char *s);
void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `s` as a JSON string literal, quotes included. */
void sb_json(sbuf *b, const char *s);
void sb_free(sbuf *b);

/* -------------------------------------------------------------- home -- */

/* Furniture flags. */
enum {
	PF_IN = 1u,     /* things go in it (else on it) */
	PF_OPEN = 2u,   /* can be opened; contents hidden while closed */
	PF_TOGGLE = 4u, /* can be switched on and off */
	PF_FILL = 8u,   /* can be watered (the house plant) */
};

/* Furniture and item state bits. */
enum {
	ST_OPEN = 1u,
	ST_ON = 2u,
	ST_DIRTY = 4u,
	ST_SLICED = 8u,
	ST_COOKED = 16u,
};

typedef struct sim_room_def {
	const char *name; /* "kitchen": the observation's location */
	int n_spots;      /* places in the room the robot can stand and look from */
} sim_room_def;

typedef struct sim_place_def {
	const char *id, *type;
	int room, spot;
	unsigned flags;
	const char *phrase; /* how the commander names it: "the drawer left of the sink" */
} sim_place_def;

typedef struct sim_item_def {
	const char *type;
	const char *place; /* where it starts: a furniture id */
} sim_item_def;

typedef struct sim_home {
	const sim_room_def *rooms;
	size_t n_rooms;
	const sim_place_def *places;
	size_t n_places;
	const sim_item_def *items;
	size_t n_items;
	const char *hand; /* the relation target of a held item: "hand" */
} sim_home;

extern const sim_home sim_home_teach;
extern const sim_home sim_home_armar;

/* A movable thing. Exactly one of: held (by the robot), holder (a person),
 * in (inside/on another item), place (on/in a piece of furniture). */
typedef struct sim_item {
	char id[48];
	char type[32];
	int alive;
	int place, in, held;
	const char *holder; /* a person's name (ARMAR hand-overs) */
	unsigned st;
	const char *fill; /* "water", "coffee" or NULL */
} sim_item;

typedef struct sim_person {
	const char *name;
	char face[16]; /* "face_3" */
	int known;     /* introduced: shown by name */
	int room;      /* where they are; -1 away */
} sim_person;

typedef struct sim_world {
	const sim_home *home;
	unsigned *pst; /* furniture state bits */
	const char **pfill;
	sim_item *items;
	size_t n_items, cap;
	struct {
		char type[32];
		unsigned next;
	} counters[64]; /* next instance number, per type */
	size_t n_counters;
	int room, spot, held;
	sim_person people[6];
	size_t n_people;
	int oom;
} sim_world;

int world_init(sim_world *w, const sim_home *home);
void world_free(sim_world *w);
/* Furniture index by id; -1 if none (a bug in a task table). */
int world_place(const sim_world *w, const char *id);
/* A new item of `type` at furniture `place` (or inside item `in`); its id is
 * "Type_k" with the next free k, or `id` when given. Returns its index or -1. */
int world_add(sim_world *w, const char *type, const char *id, int place, int in);
/* Items of `type` (exact) alive, in index order; up to `max`. */
size_t world_find(const sim_world *w, const char *type, int *out, size_t max);
/* Drop vanished items (eaten food); indices of the others change. */
void world_compact(sim_world *w);
/* The furniture an item ultimately stands in/on; -1 when held or with a person. */
int world_root(const sim_world *w, int item);
/* Move an item onto furniture / into an item / into the robot's hand. */
void world_put(sim_world *w, int item, int place, int in);
void world_hold(sim_world *w, int item);
/* The name of the room the robot is in. */
const char *world_room(const sim_world *w);
/* Whether the robot sees the item from where it stands. */
int world_visible(const sim_world *w, int item);

/* --------------------------------------------------------- recording -- */

typedef struct sim_obs {
	int64_t at; /* µs after the episode's start */
	size_t off, len;
} sim_obs;

/* One episode being recorded: observation bodies (the JSON after the time)
 * at offsets from the episode's start. */
typedef struct sim_ep {
	sim_rng *rng;
	sim_world *w;
	sbuf text;
	sim_obs *obs;
	size_t n_obs, cap;
	int64_t now;
	char goal[256];     /* JSON value: ["MakeCoffee"] or "LoadDishwasher.GraspObject" */
	const char *status; /* goal_status for the next observation (then back to running) */
	const char *note;   /* note for the next observation */
	int stop;           /* the task failed: helpers do nothing more */
	int failed;
	int fail_after;     /* interactions until the permanent failure; -1 none */
	int n_done;         /* successful interactions so far */
	int persons;        /* write the persons field (ARMAR) */
	const char *task, *title;
	int oom;
} sim_ep;

void ep_reset(sim_ep *e);
void ep_free(sim_ep *e);
/* Set the goal as an array of names (teach) or a dotted string (ARMAR). */
void ep_goal(sim_ep *e, const char *outer, const char *inner);
void ep_goal_dotted(sim_ep *e, const char *stack);
/* Record one observation `dt` µs after the previous: the action (a JSON
 * object text, or NULL), one utterance (speaker may be NULL; text NULL for
 * none), then goal, location, what is visible, persons. */
void ep_obs(sim_ep *e, int64_t dt, const char *action, const char *speaker, const char *text);
/* Action JSON: {"name":…,"args":[a1,a2],"status":…}; a1, a2, status may be NULL. */
void ep_act(sim_ep *e, int64_t dt, const char *name, const char *a1, const char *a2,
            const char *status);
/* A pause of a few seconds: for a spoken line, a motion step, an interaction. */
int64_t ep_dt_speech(sim_ep *e);
int64_t ep_dt_motion(sim_ep *e);
int64_t ep_dt_act(sim_ep *e);

/* "RemoteControl" -> "remote control"; plural adds an s. */
void sim_noun(char *out, size_t n, const char *type, int plural);

/* Tasks of one style: pick one (weighted by the history's routine) and run it. */
typedef struct sim_task {
	const char *name, *title;
	void (*run)(sim_ep *e, const struct sim_task *t);
	const char *a, *b, *c; /* parameters: item type, target furniture, relation word */
} sim_task;

extern const sim_task sim_teach_tasks[];
extern const size_t sim_n_teach_tasks;
extern const sim_task sim_armar_tasks[];
extern const size_t sim_n_armar_tasks;

/* Between episodes the household lives: dishes get used, things move. */
void teach_drift(sim_world *w, sim_rng *r);
void armar_drift(sim_world *w, sim_rng *r);
/* Who lives in the ARMAR home (drawn from the seed). */
void armar_people(sim_world *w, sim_rng *r);

#endif
