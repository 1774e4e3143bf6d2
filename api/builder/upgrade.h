/*
 * upgrade.h — trees built before typed facts (upgrade.c): their facts
 * derived again from the scenes, for h2emv_upgrade (api/mem/upgrade.c),
 * and whether a snapshot still waits for that, for h2emv_ask.
 */
#ifndef H2EMV_API_UPGRADE_H
#define H2EMV_API_UPGRADE_H

#include "h2emv.h"

typedef struct up up;

/* Take the builder role (EBUSY while a builder runs), load the newest tree
 * and derive the facts of every event and goal that has none from its
 * scenes, and the summaries' above them, in memory: nothing is written.
 * *out (upgrade_free) holds the tree and the role until freed. Returns OK,
 * EBUSY, EREADONLY, ECORRUPT, EIO, ENOMEM. */
int upgrade_derive(up **out, h2emv_mem *mem, const h2emv_upgrade_options *opts,
                   h2emv_error *err);
/* What was derived (events, goals, summaries, nodes_read); snapshot after
 * upgrade_commit. Owned by `u`. */
h2emv_upgrade_result *upgrade_result(up *u);
/* Commit what was derived as one new snapshot (nothing when nothing was). */
int upgrade_commit(up *u, h2emv_error *err);
void upgrade_free(up *u);

/* Is `snap`'s tree one built before typed facts, which h2emv_upgrade would
 * give facts? *out 1 when the first scene that gives facts has an event or
 * goal above it without any (the root holding facts settles it at once:
 * the builder aggregates the tree's facts there). A tree with no scenes
 * (written by hand through the engine) is not: there is nothing to derive.
 * Reads a few nodes. Returns OK or the snapshot's error. */
int upgrade_pending(int *out, h2emv_mem *mem, h2emv_snap *snap, h2emv_error *err);

#endif
