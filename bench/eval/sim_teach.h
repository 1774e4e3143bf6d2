/*
 * sim_teach.h — the TEACh-like robot's repertoire (sim_teach_act.c), used by
 * the tasks in sim_teach.c. Every call records its observations in the
 * episode and does nothing once the episode's task has failed (e->stop).
 */
#ifndef H2EMV_SIM_TEACH_H
#define H2EMV_SIM_TEACH_H

#include "bench/eval/sim_internal.h"

int tp(sim_ep *e, const char *place_id);
const char *tid(sim_ep *e, int item);

/* A spoken line: speaker "commander" or "robot". */
void tsay(sim_ep *e, const char *speaker, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Where an item is, as the commander says it. */
void tloc(sim_ep *e, int item, char *out, size_t n);
/* The commander tells where an item is. */
void thint(sim_ep *e, int item);

void topen(sim_ep *e, int place, int open);
void tpickup(sim_ep *e, int item);
/* Pick up, perhaps asking the commander where it is first. */
void tfetch(sim_ep *e, int item);
/* Put the held item on the first plain surface here. */
void tput_down(sim_ep *e);
/* Put the held item in/on furniture (opening it if needed). */
void tplace(sim_ep *e, int place, int close_after);
/* Put the held item in/on another item (a plate, a pan). */
void tplace_in(sim_ep *e, int target);
void ttoggle(sim_ep *e, int place, int on);
void tpour(sim_ep *e, int place);
/* Slice an item (a knife must be held); returns the first slice or -1. */
int tslice(sim_ep *e, int item);
/* Rinse in the kitchen sink; ends holding it, emptied unless keep_water. */
void trinse(sim_ep *e, int item, int keep_water);

/* Greeting, the commander's request, perhaps a hint about key_item (-1: none). */
void topening(sim_ep *e, const char *request, int key_item);
/* Closing dialog; the last observation carries succeeded or failed. */
void tfinish(sim_ep *e);

#endif
