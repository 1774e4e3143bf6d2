/*
 * powercut.h — the power-loss simulation (powercut.c), run by fault_tool.
 */
#ifndef H2EMV_FAULT_POWERCUT_H
#define H2EMV_FAULT_POWERCUT_H

/* `fault_tool powercut [options]`; returns the exit status. `self` is the
 * path of fault_tool (the workload runs its ingest driver). */
int powercut_main(int argc, char **argv, const char *self);

#endif
