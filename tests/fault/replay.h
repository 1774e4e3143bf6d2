/*
 * replay.h — the disk model of the power-loss simulation: replays the I/O
 * recorder's log (iolog.h) and writes out a directory as a disk could hold
 * it after losing power at a given point (see replay.c).
 */
#ifndef H2EMV_FAULT_REPLAY_H
#define H2EMV_FAULT_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "iolog.h"

typedef struct fobj {
	uint8_t *d;
	size_t len, cap;
	size_t *pend; /* events not yet made durable by a sync */
	size_t npend, cappend;
	uint64_t ino;
} fobj;

typedef struct nsent {
	char name[256];
	fobj *f;
} nsent;

typedef struct names {
	nsent e[64];
	size_t n;
} names;

typedef struct event {
	iolog_rec h;         /* copied out: records in the log are not aligned */
	const char *name;    /* NUL-terminated copy for CREATE/UNLINK/SNAPSHOT; "old\0new" */
	const uint8_t *data;
	fobj *f;             /* the file a data op or create acts on */
	int implicit_create; /* a SNAPSHOT of a file never seen created */
} event;

typedef struct replay {
	char *log;
	size_t loglen;
	event *ev;
	size_t nev;
	fobj *files[256];
	size_t nfiles;
	/* state after events [0, pos) */
	size_t pos;
	names durable;
	size_t *dirpend;
	size_t ndirpend, capdirpend;
	/* acknowledgements: at event index, observations */
	fault_ack *acks;
	size_t nacks, capacks;
	size_t *ack_at; /* event index of each ack */
	/* finished builds ("built CURSOR" in an ack record): at event index */
	uint64_t *built;
	size_t *built_at;
	size_t nbuilt;
	/* figures */
	uint64_t writes_kept, writes_dropped, writes_torn, inflight_torn, dirops_dropped;
} replay;

/* Read the log at path and split it into events. Returns 0 or -1 (with a
 * message on stderr). */
int replay_load(replay *r, const char *path);

/* Move the durable state forward to just before event `to` (never back). */
int replay_advance(replay *r, size_t to);

/* Write into dir (existing, empty) the files as they could be found after
 * losing power just before event r->pos, the random choices drawn from rng.
 * Adds to the write counts in r. Returns 0 or -1. */
int replay_materialize(replay *r, const char *dir, uint64_t *rng);

/* After the whole log with every write applied, compare the files with the
 * live directory mem (lock files aside). Returns 0 when equal. */
int replay_self_test(replay *r, const char *mem);

int replay_is_data_op(uint32_t type);
int replay_is_dir_op(const event *e);

#endif
