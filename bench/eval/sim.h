/*
 * sim.h — the household simulator behind `h2emv sim` (DESIGN §9): writes
 * deterministic robot histories as observation JSON Lines (docs/formats.md
 * §1), for the evaluation. Not part of the installed library.
 *
 * A history is a run of episodes. A TEACh-like episode is one household task
 * ("make a mug of coffee", "clean all the bowls", "put all forks in a
 * drawer") done by a robot with a remote commander: dialog, motion steps
 * (Navigate, Forward, TurnLeft, ...), object interactions (Pickup(Mug_1),
 * Place(Mug_1, CoffeeMachine), ToggleOn(Faucet), Slice(Potato_0),
 * Pour(Mug_1, Sink)), and at every step what the robot sees: objects with
 * states and relations. An ARMAR-like episode is a humanoid's session: named
 * places, people by name, hand-overs, valuables (keys, wallet, medicine,
 * glasses), the dishwasher, nested skill stacks with statuses.
 *
 * Everything a question could be about is in the observations themselves:
 * the task is the goal field, the first observation of an episode has the
 * note "episode N: <task title>", the last one carries the task's outcome
 * (goal_status succeeded or failed) and what was said about a failure is in
 * the speech.
 *
 * Episodes are spread over plausible dates as the paper's generator does
 * (upstream create_seq.py): a base date, 1–2 episodes a day between 08:00
 * and 20:00 (UTC), days skipped with probability 0.6 (at most 5 in a row).
 * The household keeps its state from one episode to the next, and a small
 * routine of tasks, places, objects and people recurs, so the same action
 * on the same kind of object, the same task, place and person come back on
 * different days — what the evaluation's questions are made from.
 *
 * The same options give byte-identical output on every platform.
 */
#ifndef H2EMV_SIM_H
#define H2EMV_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

typedef enum sim_style {
	SIM_STYLE_TEACH = 0, /* TEACh-like household tasks with a commander */
	SIM_STYLE_ARMAR = 1, /* ARMAR-7-like humanoid sessions */
	SIM_STYLE_MIXED = 2  /* each episode one of the two, drawn from the seed */
} sim_style;

/* What an episode was, for callers that want the ground truth without
 * parsing the lines (the evaluation runner, tests). */
typedef struct sim_episode {
	unsigned index;        /* 0-based, in time order */
	sim_style style;       /* SIM_STYLE_TEACH or SIM_STYLE_ARMAR */
	const char *task;      /* the goal name: "MakeCoffee", "LoadDishwasher" */
	const char *title;     /* "make a mug of coffee" */
	int succeeded;         /* 1; 0 when the task failed */
	h2emv_time start, end; /* times of its first and last observation */
	size_t n_obs;
} sim_episode;

/* Receives one observation: `json_line` is one JSON object, NUL-terminated,
 * without a newline, `len` bytes; valid until the call returns. Return 0 to
 * go on; anything else stops sim_generate, which returns that value. */
typedef int (*sim_emit_fn)(void *arg, const char *json_line, size_t len);

/* Called once per episode, before its observations are emitted; same
 * return convention as sim_emit_fn. `ep` and its strings are valid during
 * the call. */
typedef int (*sim_episode_fn)(void *arg, const sim_episode *ep);

typedef struct sim_options {
	unsigned version;          /* SIM_OPTIONS_VERSION */
	sim_style style;           /* default SIM_STYLE_TEACH */
	unsigned episodes;         /* 1 … SIM_MAX_EPISODES; default 5 */
	uint64_t seed;             /* default 1 */
	h2emv_time start;          /* the first day (its time of day is ignored);
	                              0 = drawn from the seed: 2024-01-01 ± 304 days */
	sim_episode_fn on_episode; /* optional; called with the emit `arg` */
} sim_options;

#define SIM_OPTIONS_VERSION 1
#define SIM_OPTIONS_INIT { SIM_OPTIONS_VERSION, SIM_STYLE_TEACH, 5, 1, 0, NULL }
#define SIM_MAX_EPISODES 100000u

/* Generate a history and hand it to `emit` line by line, in time order;
 * times strictly increase. Deterministic in the options. `err` may be NULL.
 * Returns H2EMV_OK; H2EMV_EINVAL for bad options (unknown version or style,
 * episodes 0 or over the maximum, a start before 1971 or after 9000);
 * H2EMV_ENOMEM; or the non-zero value a callback returned.
 * Thread-safe: no global state. */
int sim_generate(const sim_options *o, sim_emit_fn emit, void *arg, h2emv_error *err);

/* The tasks the simulator knows, for --list-tasks. */
typedef struct sim_task_info {
	sim_style style;
	const char *name;  /* the goal name */
	const char *title; /* what the commander asks for */
} sim_task_info;

/* Fill `out` with up to `max` tasks (teach first, then armar); returns the
 * total number there are (call with max 0 to count). */
size_t sim_tasks(sim_task_info *out, size_t max);

/* "teach", "armar", "mixed" <-> sim_style. Parse returns H2EMV_OK or
 * H2EMV_EINVAL; the name of an unknown style is "unknown". */
int sim_style_parse(sim_style *out, const char *s);
const char *sim_style_name(sim_style s);

#endif
