/*
 * sim_armar_act.c — what the ARMAR-7-like humanoid does, as its skill stack
 * records it: the task's goal with nested skills ("LoadDishwasher.
 * GraspObject.ExecuteTraj"), each skill seen running for a few instants and
 * then succeeded or failed; navigation between named places; grasping and
 * placing; opening the dishwasher; looking at people, handing over and
 * receiving; speaking (Say) and hearing people by name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/eval/sim_armar.h"

static void set_goal(sim_ep *e, const char *sub, const char *leaf)
{
	char stack[256];
	int n = snprintf(stack, sizeof stack, "%s", e->task);
	if (sub && !strcmp(sub, e->task)) /* ReceiveObjectFromHuman.ReceiveObjectFromHuman */
		sub = NULL;
	if (sub)
		n += snprintf(stack + n, sizeof stack - (size_t)n, ".%s", sub);
	if (leaf)
		snprintf(stack + n, sizeof stack - (size_t)n, ".%s", leaf);
	ep_goal_dotted(e, stack);
}

/* One instant of a skill: {"name", "args", "status"}; args is JSON text. */
static void instant(sim_ep *e, int64_t dt, const char *name, const char *args, const char *status)
{
	sbuf a = { 0 };
	sb_printf(&a, "{\"name\":\"%s\"", name);
	if (args)
		sb_printf(&a, ",\"args\":%s", args);
	sb_printf(&a, ",\"status\":\"%s\"}", status);
	if (a.oom)
		e->oom = 1;
	else
		ep_obs(e, dt, a.p, NULL, NULL);
	sb_free(&a);
}

/* A skill under goal task.sub[.leaf]: `n` running instants then the end.
 * Returns 1 if it succeeded. A failure at the episode's failure point stops
 * the task; otherwise `may_fail` gives a transient failure now and then. */
static int skill(sim_ep *e, const char *sub, const char *leaf, const char *name, const char *args,
                 int n, int may_fail)
{
	if (e->stop)
		return 0;
	set_goal(e, sub, leaf);
	for (int k = 0; k < n; k++)
		instant(e, rng_between(e->rng, 600 * SIM_MS, 2500 * SIM_MS), name, args, "running");
	int fail = may_fail && (e->n_done == e->fail_after || rng_chance(e->rng, 0.08));
	e->status = fail ? "failed" : "succeeded";
	instant(e, rng_between(e->rng, 500 * SIM_MS, 2 * SIM_US), name, args, e->status);
	if (fail && e->n_done == e->fail_after)
		e->stop = e->failed = 1;
	if (!fail && may_fail)
		e->n_done++;
	return !fail;
}

void asay(sim_ep *e, const char *fmt, ...)
{
	char text[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	sbuf a = { 0 };
	sb_put(&a, "{\"name\":\"Say\",\"args\":{\"text\":");
	sb_json(&a, text);
	sb_put(&a, "},\"status\":\"succeeded\"}");
	set_goal(e, "Say", NULL);
	if (a.oom)
		e->oom = 1;
	else
		ep_obs(e, ep_dt_speech(e), a.p, "robot", text);
	sb_free(&a);
}

void ahear(sim_ep *e, const sim_person *p, const char *fmt, ...)
{
	char text[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	set_goal(e, NULL, NULL);
	ep_obs(e, ep_dt_speech(e), NULL, p->known ? p->name : p->face, text);
}

void anav(sim_ep *e, int room)
{
	sim_world *w = e->w;
	if (e->stop || w->room == room)
		return;
	char args[96];
	snprintf(args, sizeof args, "{\"target\":\"%s\"}", w->home->rooms[room].name);
	set_goal(e, "NavigateToNamedLocation", NULL);
	int n = 2 + (int)rng_below(e->rng, 3);
	for (int k = 0; k < n; k++)
		instant(e, rng_between(e->rng, 2 * SIM_US, 6 * SIM_US), "Navigate", args, "running");
	if (rng_chance(e->rng, 0.05)) {
		e->status = "failed";
		instant(e, 2 * SIM_US, "Navigate", args, "failed");
		asay(e, "My path is blocked. Please let me pass.");
		set_goal(e, "NavigateToNamedLocation", NULL);
		instant(e, rng_between(e->rng, 3 * SIM_US, 8 * SIM_US), "Navigate", args, "running");
	}
	w->room = room;
	w->spot = 0;
	e->status = "succeeded";
	instant(e, rng_between(e->rng, 2 * SIM_US, 5 * SIM_US), "Navigate", args, "succeeded");
}

int aroom_of(sim_ep *e, int item)
{
	int root = world_root(e->w, item);
	return root >= 0 ? e->w->home->places[root].room : e->w->room;
}

void aopen(sim_ep *e, int p, int open)
{
	sim_world *w = e->w;
	if (e->stop || !(w->pst[p] & ST_OPEN) == !open)
		return;
	anav(e, w->home->places[p].room);
	char args[96];
	snprintf(args, sizeof args, "{\"objectId\":\"%s\"}", w->home->places[p].id);
	if (skill(e, open ? "OpenArticulatedObject" : "CloseArticulatedObject", NULL,
	          open ? "OpenArticulatedObject" : "CloseArticulatedObject", args, 2, 0))
		w->pst[p] ^= ST_OPEN;
}

/* Reach with the trajectory skill, retried after a transient failure. */
static int reach(sim_ep *e, const char *sub, const char *target_id)
{
	char args[256];
	snprintf(args, sizeof args,
	         "{\"parameters\":{\"hand\":\"right\",\"objectId\":\"%s\",\"speed\":0.25,"
	         "\"useCollisionAvoidance\":true},\"trigger\":\"speech->%s\"}",
	         target_id, e->task);
	for (int tries = 0; tries < 3; tries++) {
		if (skill(e, sub, "ExecuteTraj", "ExecuteTraj", args, 2 + (int)rng_below(e->rng, 2), 1))
			return 1;
		if (e->stop)
			return 0;
		asay(e, "That did not work. I will try again.");
	}
	e->stop = e->failed = 1;
	return 0;
}

int agrasp(sim_ep *e, int item)
{
	sim_world *w = e->w;
	if (e->stop)
		return 0;
	if (w->held >= 0)
		aplace(e, world_place(w, "counter_0"));
	anav(e, aroom_of(e, item));
	int root = world_root(w, item), opened = 0;
	if (root >= 0 && (w->home->places[root].flags & PF_OPEN) && !(w->pst[root] & ST_OPEN)) {
		aopen(e, root, 1);
		opened = 1;
	}
	char id[48];
	snprintf(id, sizeof id, "%s", w->items[item].id);
	if (!reach(e, "GraspObject", id)) {
		if (e->stop) {
			char noun[64];
			sim_noun(noun, sizeof noun, w->items[item].type, 0);
			asay(e, "I am sorry, I could not grasp the %s.", noun);
		}
		return 0;
	}
	world_hold(w, item);
	skill(e, "GraspObject", NULL, "CloseHand", "{\"hand\":\"right\"}", 0, 0);
	if (opened)
		aopen(e, root, 0);
	return 1;
}

int aplace(sim_ep *e, int p)
{
	sim_world *w = e->w;
	int item = w->held;
	if (e->stop || item < 0)
		return 0;
	anav(e, w->home->places[p].room);
	int opened = 0;
	if ((w->home->places[p].flags & PF_OPEN) && !(w->pst[p] & ST_OPEN)) {
		aopen(e, p, 1);
		opened = 1;
	}
	if (!reach(e, "PlaceObject", w->home->places[p].id)) {
		if (e->stop)
			asay(e, "I am sorry, I could not put it down there.");
		return 0;
	}
	world_put(w, item, p, -1);
	skill(e, "PlaceObject", NULL, "OpenHand", "{\"hand\":\"right\"}", 0, 0);
	if (opened && strcmp(w->home->places[p].type, "dishwasher"))
		aopen(e, p, 0);
	return 1;
}

static void look_at(sim_ep *e, const char *sub, const sim_person *p)
{
	char args[96];
	snprintf(args, sizeof args, "{\"person\":\"%s\"}", p->known ? p->name : p->face);
	skill(e, sub, "LookAtHumanFace", "LookAtHumanFace", args, 1, 0);
	skill(e, sub, "LookAtHumanHand", "LookAtHumanHand", args, 1, 0);
}

void ahandover(sim_ep *e, const sim_person *p)
{
	sim_world *w = e->w;
	int item = w->held;
	if (e->stop || item < 0)
		return;
	anav(e, p->room);
	look_at(e, "HandOverObjectToHuman", p);
	char args[160];
	snprintf(args, sizeof args, "{\"object\":\"%s\",\"person\":\"%s\"}", w->items[item].id, p->name);
	arun(e, "HandOverObjectToHuman", "HandOver", args, 1);
	w->items[item].holder = p->name;
	w->items[item].held = 0;
	w->held = -1;
	adone(e, "HandOverObjectToHuman", "HandOver", args);
}

void areceive(sim_ep *e, int item, const sim_person *p)
{
	sim_world *w = e->w;
	if (e->stop)
		return;
	look_at(e, "ReceiveObjectFromHuman", p);
	char args[160];
	snprintf(args, sizeof args, "{\"object\":\"%s\",\"person\":\"%s\"}", w->items[item].id, p->name);
	set_goal(e, "ReceiveObjectFromHuman", NULL);
	instant(e, rng_between(e->rng, 1 * SIM_US, 3 * SIM_US), "Receive", args, "running");
	world_hold(w, item);
	e->status = "succeeded";
	instant(e, rng_between(e->rng, 1 * SIM_US, 3 * SIM_US), "Receive", args, "succeeded");
}

void ascan(sim_ep *e, const char *sub)
{
	char args[96];
	snprintf(args, sizeof args, "{\"location\":\"%s\"}", world_room(e->w));
	skill(e, sub, "ScanLocation", "ScanLocation", args, 2, 0);
}

void arun(sim_ep *e, const char *sub, const char *name, const char *args, int n)
{
	if (e->stop)
		return;
	set_goal(e, sub, NULL);
	for (int k = 0; k < n; k++)
		instant(e, rng_between(e->rng, 600 * SIM_MS, 2500 * SIM_MS), name, args, "running");
}

void adone(sim_ep *e, const char *sub, const char *name, const char *args)
{
	if (e->stop)
		return;
	set_goal(e, sub, NULL);
	e->status = "succeeded";
	instant(e, rng_between(e->rng, 500 * SIM_MS, 2 * SIM_US), name, args, "succeeded");
}

void agesture(sim_ep *e, const char *sub, const char *name, const char *args, int n)
{
	arun(e, sub, name, args, n);
	adone(e, sub, name, args);
}

void astart(sim_ep *e)
{
	set_goal(e, NULL, NULL);
	instant(e, rng_between(e->rng, 500 * SIM_MS, 2 * SIM_US), e->task, "{\"trigger\":\"speech\"}",
	        "running");
}

void afinish(sim_ep *e)
{
	set_goal(e, NULL, NULL);
	e->status = e->stop ? "failed" : "succeeded";
	instant(e, rng_between(e->rng, 1 * SIM_US, 3 * SIM_US), e->task, NULL, e->status);
}
