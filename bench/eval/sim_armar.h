/*
 * sim_armar.h — the ARMAR-7-like humanoid's repertoire (sim_armar_act.c),
 * used by the sessions in sim_armar.c. Skills record their instants under
 * the goal stack "<task>.<skill>[.<leaf>]"; calls that act do nothing once
 * the task has failed (e->stop).
 */
#ifndef H2EMV_SIM_ARMAR_H
#define H2EMV_SIM_ARMAR_H

#include "bench/eval/sim_internal.h"

/* The task skill starts (goal "<task>", status running) / ends (succeeded,
 * or failed when the task stopped). */
void astart(sim_ep *e);
void afinish(sim_ep *e);
/* The robot speaks: action Say and the utterance with speaker "robot". */
void asay(sim_ep *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A person speaks (by name, or by face id while unknown). */
void ahear(sim_ep *e, const sim_person *p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Drive to a named place; the location changes when it arrives. */
void anav(sim_ep *e, int room);
/* The room an item is in (the robot's when it holds it). */
int aroom_of(sim_ep *e, int item);
void aopen(sim_ep *e, int place, int open);
/* Go to an item and grasp it; returns 1 when it is in the hand. */
int agrasp(sim_ep *e, int item);
/* Put the held item in/on furniture; returns 1 on success. */
int aplace(sim_ep *e, int place);
/* Give the held item to a person (who keeps it) / take one from them. */
void ahandover(sim_ep *e, const sim_person *p);
void areceive(sim_ep *e, int item, const sim_person *p);
/* Look over the current place (goal "<task>[.<sub>].ScanLocation"). */
void ascan(sim_ep *e, const char *sub);
/* Any other skill: `n` running instants (arun), then succeeded (adone);
 * what the skill changes goes in between. */
void arun(sim_ep *e, const char *sub, const char *name, const char *args, int n);
void adone(sim_ep *e, const char *sub, const char *name, const char *args);
void agesture(sim_ep *e, const char *sub, const char *name, const char *args, int n);

#endif
