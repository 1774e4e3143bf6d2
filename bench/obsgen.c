/*
 * obsgen.c — a small household simulation that writes observation lines:
 * the robot picks a task (a top-level goal), works through its skills
 * (moves, grasps, places, opens, wipes, hands over, speaks), each skill
 * reported while running and when it ends, sometimes failing. What it
 * sees is the room it is in: up to six objects with states and relations.
 * Deterministic from the seed; every line is valid per docs/formats.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_internal.h"
#include "bench/bench_util.h"
#include "bench/obsgen.h"
#include "engine/engine.h"

/* ------------------------------------------------------------- writer -- */

#define JW_DEPTH 16

typedef struct jw {
	eng_buf *b;
	int depth, after_key, nomem;
	unsigned count[JW_DEPTH];
} jw;

static void raw(jw *w, const char *s, size_t n)
{
	w->nomem |= eng_buf_append(w->b, s, n) != 0;
}

static void rawf(jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rawf(jw *w, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	raw(w, tmp, n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A comma before every item but the first of its container. */
static void pre(jw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth && w->count[w->depth]++)
		raw(w, ",", 1);
}

static void quoted(jw *w, const char *s)
{
	raw(w, "\"", 1);
	for (const char *p = s; *p; p++) {
		size_t run = strcspn(p, "\"\\");
		raw(w, p, run);
		p += run;
		if (!*p)
			break;
		raw(w, "\\", 1);
		raw(w, p, 1);
	}
	raw(w, "\"", 1);
}

static void open_c(jw *w, char ch)
{
	pre(w);
	raw(w, &ch, 1);
	w->count[++w->depth] = 0;
}

static void close_c(jw *w, char ch)
{
	raw(w, &ch, 1);
	w->depth--;
}

static void key(jw *w, const char *k)
{
	pre(w);
	quoted(w, k);
	raw(w, ":", 1);
	w->after_key = 1;
}

static void str(jw *w, const char *s)
{
	pre(w);
	quoted(w, s);
}

static void kstr(jw *w, const char *k, const char *s)
{
	key(w, k);
	str(w, s);
}

static void kint(jw *w, const char *k, long v)
{
	key(w, k);
	pre(w);
	rawf(w, "%ld", v);
}

static void kreal(jw *w, const char *k, double v)
{
	key(w, k);
	pre(w);
	rawf(w, "%.2f", v);
}

static void kbool(jw *w, const char *k, int v)
{
	key(w, k);
	pre(w);
	raw(w, v ? "true" : "false", v ? 4 : 5);
}

/* -------------------------------------------------------------- world -- */

enum { R_KITCHEN, R_LIVING, R_DINING, R_BEDROOM, R_HALL, R_OFFICE, N_ROOMS };

static const char *const room_names[N_ROOMS] = {
	"kitchen", "living_room", "dining_room", "bedroom", "hallway", "office",
};

static const char *const places[N_ROOMS][4] = {
	{ "counter_1", "sink_1", "fridge_1", "dishwasher_1" },
	{ "sofa_1", "coffee_table_1", "shelf_3", "tv_stand_1" },
	{ "dining_table_1", "sideboard_1", "chair_2", "window_sill_1" },
	{ "bed_1", "nightstand_2", "wardrobe_1", "desk_lamp_1" },
	{ "key_hook_1", "shoe_rack_1", "coat_rack_1", "console_table_1" },
	{ "desk_1", "bookshelf_2", "printer_1", "office_chair_1" },
};

enum kind { K_DISH, K_FOOD, K_THING, K_TOOL };

typedef struct otype {
	const char *type;
	enum kind kind;
} otype;

static const otype types[] = {
	{ "Mug", K_DISH },     { "Cup", K_DISH },      { "Plate", K_DISH },   { "Bowl", K_DISH },
	{ "Milk", K_FOOD },    { "Apple", K_FOOD },    { "Bread", K_FOOD },   { "Keys", K_THING },
	{ "Remote", K_THING }, { "Book", K_THING },    { "Phone", K_THING },  { "Glasses", K_THING },
	{ "Sponge", K_TOOL },  { "Knife", K_TOOL },    { "Spoon", K_DISH },   { "Bottle", K_FOOD },
};
#define N_TYPES (sizeof types / sizeof types[0])
#define N_OBJS 48

typedef struct obj {
	char id[24];
	const otype *t;
	int room, place, dirty, held;
	double fill;
} obj;

static const char *const people[][2] = {
	{ "Anna", "person_1" }, { "Ben", "person_2" }, { "Chiara", "person_3" }, { "David", "person_4" },
};

static const char *const human_lines[] = {
	"Could you bring me the milk from the fridge?",
	"Where did you put my keys?",
	"Thanks, that is perfect.",
	"Please load the dishwasher when you have time.",
	"Do not put the red mug in the dishwasher, it is hand wash only.",
	"Can you wipe the dining table after lunch?",
	"Good morning! Did you sleep well?",
	"Have you seen my glasses anywhere?",
	"Put the remote back on the coffee table, please.",
};

static const char *const robot_lines[] = {
	"I am bringing you the milk now.",
	"Your keys are on the key hook in the hallway.",
	"I could not open the dishwasher, the door seems stuck.",
	"Hello, I am ARMAR-7, a humanoid household robot.",
	"The dining table is clean now.",
	"I put the mug on the counter next to the sink.",
};

enum skill { S_MOVE, S_LOOK, S_GRASP, S_PLACE, S_OPEN, S_CLOSE, S_WIPE, S_HANDOVER, S_SAY, S_OBSERVE };

static const char *const skill_names[] = {
	"MoveToLocation", "LookForObject", "GraspObject", "PlaceObject", "OpenContainer",
	"CloseContainer", "WipeSurface", "HandOverObjectToHuman", "Say", "ObserveScene",
};

/* The sub-goal each skill runs under (the middle of the goal stack). */
static const char *const skill_parent[] = {
	"Navigate", "Search", "FetchObject", "PutDown", "Manipulate",
	"Manipulate", "Clean", "Deliver", "Interact", "Perceive",
};

typedef struct task {
	const char *name;
	enum skill steps[10];
	int n;
} task;

static const task tasks[] = {
	{ "BringMilkToHuman", { S_MOVE, S_OPEN, S_LOOK, S_GRASP, S_CLOSE, S_MOVE, S_HANDOVER, S_SAY }, 8 },
	{ "LoadDishwasher", { S_MOVE, S_LOOK, S_GRASP, S_OPEN, S_PLACE, S_GRASP, S_PLACE, S_CLOSE }, 8 },
	{ "WipeDiningTable", { S_MOVE, S_GRASP, S_MOVE, S_WIPE, S_MOVE, S_PLACE }, 6 },
	{ "FindKeys", { S_MOVE, S_LOOK, S_MOVE, S_LOOK, S_OBSERVE, S_SAY }, 6 },
	{ "TidyLivingRoom", { S_MOVE, S_OBSERVE, S_GRASP, S_MOVE, S_PLACE, S_GRASP, S_PLACE }, 7 },
	{ "IntroduceSelf", { S_MOVE, S_OBSERVE, S_SAY, S_SAY }, 4 },
	{ "PatrolHome", { S_MOVE, S_OBSERVE, S_MOVE, S_OBSERVE, S_MOVE, S_OBSERVE }, 6 },
};
#define N_TASKS (sizeof tasks / sizeof tasks[0])

typedef struct sim {
	bench_rng rng;
	int64_t t;
	int room;
	obj objs[N_OBJS];
	const task *task;
	int step, person, failed;
	obj *target; /* the object the task is about */
	obj *held;
	int dest_room, dest_place;
	uint64_t lines;
} sim;

static void world_init(sim *s, uint64_t seed)
{
	memset(s, 0, sizeof *s);
	s->rng.s = seed;
	s->t = INT64_C(1719386400000000); /* 2024-06-26T07:20:00Z */
	int per_type[N_TYPES] = { 0 };
	for (int i = 0; i < N_OBJS; i++) {
		obj *o = &s->objs[i];
		size_t k = bench_rng_next(&s->rng) % N_TYPES;
		o->t = &types[k];
		snprintf(o->id, sizeof o->id, "%s_%d", o->t->type, ++per_type[k]);
		for (char *p = o->id; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p + 32);
		o->room = (int)bench_rng_range(&s->rng, 0, N_ROOMS - 1);
		o->place = (int)bench_rng_range(&s->rng, 0, 3);
		o->dirty = bench_rng_unit(&s->rng) < 0.4;
		o->fill = o->t->kind == K_FOOD ? bench_rng_unit(&s->rng) : 0;
	}
}

static obj *random_obj(sim *s)
{
	return &s->objs[bench_rng_next(&s->rng) % N_OBJS];
}

static void start_task(sim *s)
{
	s->task = &tasks[bench_rng_next(&s->rng) % N_TASKS];
	s->step = 0;
	s->failed = 0;
	s->person = (int)(bench_rng_next(&s->rng) % 4);
	s->target = random_obj(s);
	s->dest_room = (int)bench_rng_range(&s->rng, 0, N_ROOMS - 1);
	s->dest_place = (int)bench_rng_range(&s->rng, 0, 3);
}

/* What a skill changes in the world when it succeeds. */
static void apply(sim *s, enum skill k)
{
	obj *o = s->target;
	switch (k) {
	case S_MOVE:
		s->room = s->step < s->task->n / 2 ? o->room : s->dest_room;
		break;
	case S_GRASP:
		o->held = 1;
		s->held = o;
		break;
	case S_PLACE:
	case S_HANDOVER:
		if (s->held) {
			s->held->held = 0;
			s->held->room = s->dest_room;
			s->held->place = s->dest_place;
			s->held = NULL;
		}
		s->target = random_obj(s);
		break;
	case S_WIPE:
		o->dirty = 0;
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------- fields -- */

static void put_time(jw *w, const char *k, int64_t us)
{
	char text[OBS_TIME_TEXT];
	obs_time_format(text, us);
	kstr(w, k, text);
}

static void put_args(jw *w, sim *s, enum skill k)
{
	bench_rng *r = &s->rng;
	obj *o = s->target;
	key(w, "args");
	open_c(w, '{');
	switch (k) {
	case S_MOVE:
		kstr(w, "target", places[s->room][bench_rng_range(r, 0, 3)]);
		kstr(w, "room", room_names[s->room]);
		key(w, "params");
		open_c(w, '{');
		kreal(w, "max_speed", 0.2 + bench_rng_unit(r) * 0.6);
		key(w, "tolerance");
		open_c(w, '{');
		kint(w, "position_mm", (long)bench_rng_range(r, 20, 80));
		kreal(w, "orientation_deg", 2.0 + bench_rng_unit(r) * 8);
		close_c(w, '}');
		close_c(w, '}');
		break;
	case S_LOOK:
		kstr(w, "type", o->t->type);
		key(w, "rooms");
		open_c(w, '[');
		str(w, room_names[s->room]);
		str(w, room_names[o->room]);
		close_c(w, ']');
		key(w, "params");
		open_c(w, '{');
		kreal(w, "min_confidence", 0.6 + bench_rng_unit(r) * 0.3);
		kint(w, "fov_deg", 60);
		close_c(w, '}');
		break;
	case S_GRASP:
	case S_PLACE:
		kstr(w, "object", o->id);
		kstr(w, "hand", bench_rng_unit(r) < 0.7 ? "right" : "left");
		if (k == S_PLACE)
			kstr(w, "target", places[s->dest_room][s->dest_place]);
		key(w, k == S_GRASP ? "grasp" : "place");
		open_c(w, '{');
		kstr(w, "type", k == S_GRASP ? (bench_rng_unit(r) < 0.5 ? "top" : "side") : "upright");
		kint(w, "approach_mm", (long)bench_rng_range(r, 40, 120));
		kreal(w, "force_n", 5 + bench_rng_unit(r) * 15);
		close_c(w, '}');
		break;
	case S_OPEN:
	case S_CLOSE:
		kstr(w, "container", s->room == R_KITCHEN ? "fridge_1" : places[s->room][2]);
		kstr(w, "hand", "left");
		key(w, "handle");
		open_c(w, '{');
		kstr(w, "type", "bar");
		kreal(w, "pull_n", 15 + bench_rng_unit(r) * 20);
		close_c(w, '}');
		break;
	case S_WIPE:
		kstr(w, "surface", places[s->room][1]);
		kstr(w, "tool", "sponge_1");
		key(w, "pattern");
		open_c(w, '{');
		kstr(w, "type", "zigzag");
		kint(w, "passes", (long)bench_rng_range(r, 2, 5));
		kreal(w, "pressure_n", 4 + bench_rng_unit(r) * 8);
		close_c(w, '}');
		break;
	case S_HANDOVER:
		kstr(w, "object", o->id);
		kstr(w, "person", people[s->person][1]);
		kint(w, "arm", 0);
		key(w, "params");
		open_c(w, '{');
		kreal(w, "wait_s", 10.0);
		kbool(w, "detect_pull", 1);
		close_c(w, '}');
		break;
	case S_SAY:
		kstr(w, "text", BENCH_PICK(r, robot_lines));
		kreal(w, "volume", 0.8);
		break;
	case S_OBSERVE:
		kreal(w, "duration_s", 1 + bench_rng_unit(r) * 4);
		key(w, "cameras");
		open_c(w, '[');
		str(w, "head_rgb");
		str(w, "head_depth");
		close_c(w, ']');
		break;
	}
	close_c(w, '}');
}

static void put_state(jw *w, sim *s, const obj *o)
{
	switch (o->t->kind) {
	case K_DISH:
		key(w, "state");
		open_c(w, '{');
		kbool(w, "isDirty", o->dirty);
		if (o->dirty)
			kstr(w, "fillLiquid", "coffee");
		close_c(w, '}');
		break;
	case K_FOOD:
		key(w, "state");
		open_c(w, '{');
		kreal(w, "fillLevel", o->fill);
		if (o->room == R_KITCHEN && o->place == 2)
			kstr(w, "temperature", "Cold");
		close_c(w, '}');
		break;
	case K_TOOL:
		kstr(w, "state", o->dirty ? "wet" : "dry");
		break;
	case K_THING:
		if (bench_rng_unit(&s->rng) < 0.5)
			kstr(w, "state", o->held ? "held" : "idle");
		break;
	}
}

/* The objects in view: those in the robot's room, at most six. */
static void put_objects(jw *w, sim *s)
{
	/* Mostly a few objects in view, now and then none or a crowded shelf. */
	static const int counts[] = { 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 5, 6 };
	int want = counts[bench_rng_next(&s->rng) % (sizeof counts / sizeof counts[0])];
	int shown = 0;
	if (want == 0)
		return;
	key(w, "objects");
	open_c(w, '[');
	int start = (int)(bench_rng_next(&s->rng) % N_OBJS);
	for (int i = 0; i < N_OBJS && shown < want; i++) {
		obj *o = &s->objs[(start + i) % N_OBJS];
		if (o->room != s->room && !o->held)
			continue;
		open_c(w, '{');
		kstr(w, "id", o->id);
		kstr(w, "type", o->t->type);
		put_state(w, s, o);
		if (o->held || bench_rng_unit(&s->rng) < 0.7) {
			key(w, "relations");
			open_c(w, '[');
			open_c(w, '{');
			kstr(w, "to", o->held ? "robot_hand_r" : places[o->room][o->place]);
			kstr(w, "type", o->held ? "in" : "on");
			close_c(w, '}');
			close_c(w, ']');
		}
		close_c(w, '}');
		shown++;
	}
	close_c(w, ']');
	/* A relation between two objects now and then, in the ARMAR array form. */
	if (shown >= 2 && bench_rng_unit(&s->rng) < 0.3) {
		key(w, "relations");
		open_c(w, '[');
		open_c(w, '[');
		str(w, s->target->id);
		str(w, places[s->room][0]);
		str(w, "next_to");
		close_c(w, ']');
		close_c(w, ']');
	}
}

static void put_people(jw *w, sim *s, int speaking)
{
	if (speaking || bench_rng_unit(&s->rng) < 0.15) {
		key(w, "persons");
		open_c(w, '[');
		open_c(w, '{');
		kstr(w, "name", people[s->person][0]);
		kstr(w, "id", people[s->person][1]);
		close_c(w, '}');
		close_c(w, ']');
	}
	if (speaking) {
		key(w, "speech");
		open_c(w, '{');
		kstr(w, "speaker", people[s->person][0]);
		kstr(w, "text", BENCH_PICK(&s->rng, human_lines));
		close_c(w, '}');
	}
}

/* One observation; advances the simulation. */
static void one_line(jw *w, sim *s)
{
	bench_rng *r = &s->rng;
	if (!s->task || s->step >= s->task->n || s->failed)
		start_task(s);
	enum skill k = s->task->steps[s->step];
	/* A skill is seen running once or twice, then ending. */
	int ending = bench_rng_unit(r) < 0.45;
	int fails = ending && bench_rng_unit(r) < 0.05;
	const char *status = !ending ? "running" : fails ? "failed" : "succeeded";

	s->t += (int64_t)bench_rng_range(r, 500000, 5000000);
	if (++s->lines % 4000 == 0)
		s->t += INT64_C(36000000000); /* a night */
	open_c(w, '{');
	put_time(w, "t", s->t);
	if (ending && bench_rng_unit(r) < 0.3)
		put_time(w, "t_end", s->t + (int64_t)bench_rng_range(r, 100000, 900000));
	key(w, "action");
	open_c(w, '{');
	kstr(w, "name", skill_names[k]);
	put_args(w, s, k);
	kstr(w, "status", status);
	close_c(w, '}');
	char goal[160];
	snprintf(goal, sizeof goal, "%s.%s.%s", s->task->name, skill_parent[k], skill_names[k]);
	kstr(w, "goal", goal);
	kstr(w, "goal_status", fails ? "failed" : "running");
	kstr(w, "location", room_names[s->room]);
	put_objects(w, s);
	put_people(w, s, bench_rng_unit(r) < 0.08);
	if (bench_rng_unit(r) < 0.02)
		kstr(w, "note", "battery below 40 percent, will recharge after this task");
	close_c(w, '}');
	if (ending) {
		if (fails)
			s->failed = 1;
		else
			apply(s, k);
		s->step++;
	}
}

int obsgen_make(obs_set *out, size_t n, uint64_t seed)
{
	memset(out, 0, sizeof *out);
	sim *s = malloc(sizeof *s);
	size_t *off = malloc((n ? n : 1) * sizeof *off);
	out->len = malloc((n ? n : 1) * sizeof *out->len);
	out->line = malloc((n ? n : 1) * sizeof *out->line);
	eng_buf b = { 0 };
	jw w = { .b = &b };
	if (!s || !off || !out->len || !out->line)
		w.nomem = 1;
	if (!w.nomem)
		world_init(s, seed);
	for (size_t i = 0; i < n && !w.nomem; i++) {
		off[i] = b.len;
		one_line(&w, s);
		out->len[i] = b.len - off[i];
		out->bytes += out->len[i];
		raw(&w, "", 1); /* NUL between lines */
	}
	free(s);
	if (w.nomem) {
		free(off);
		eng_buf_free(&b);
		obs_set_free(out);
		return -1;
	}
	out->text = (char *)b.data;
	for (size_t i = 0; i < n; i++)
		out->line[i] = out->text + off[i];
	out->n = n;
	free(off);
	return 0;
}

void obs_set_free(obs_set *s)
{
	free(s->text);
	free(s->len);
	free((void *)s->line);
	memset(s, 0, sizeof *s);
}
