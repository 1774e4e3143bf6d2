/*
 * fault.h — shared pieces of the fault tests (tests/fault): the observation
 * generator and acknowledged-ingest driver, the check that acknowledged
 * observations survived, process spawning with a time limit, and a PRNG.
 */
#ifndef H2EMV_FAULT_H
#define H2EMV_FAULT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ------------------------------------------------------------- PRNG -- */

uint64_t fault_rand(uint64_t *s);
/* uniform in [0, n) (n > 0) */
uint64_t fault_below(uint64_t *s, uint64_t n);

/* ---------------------------------------------------- observations -- */

/* Observation number i as one JSON line (no newline) into buf; its note is
 * "fault-obs-<i>", which identifies it when read back. Returns the length. */
size_t fault_obs_line(char *buf, size_t cap, uint64_t i);

/* One acknowledgement: observations first_i .. first_i+n-1 got sequence
 * numbers seq .. seq+n-1 and were reported durable. */
typedef struct fault_ack {
	uint64_t seq, first_i, n;
} fault_ack;

/* Parse "ack SEQ FIRST_I N" lines from text (other lines are ignored);
 * appends to *acks. Returns 0, or -1 when out of memory. */
int fault_parse_acks(fault_ack **acks, size_t *n, size_t *cap, const char *text, size_t len);

/* The ingest driver: opens the memory at dir, stores observations
 * first_i .. first_i+count-1 in batches of 1..max_batch (chosen with seed)
 * through h2emv_ingest_batch, and after each successful batch writes one
 * "ack SEQ FIRST_I N\n" line to ack_fd with one write(). Returns the exit
 * status: 0 all stored, 2 an error (its message is on stderr). */
int fault_ingest_main(const char *dir, uint64_t first_i, uint64_t count, unsigned max_batch,
                      uint64_t seed, int ack_fd);

/* Open the memory at dir and verify that every acknowledged observation
 * reads back with its note. With `write_after`, also store one more
 * observation (the store must accept writes again). Prints each problem to
 * stderr; returns the number of lost or wrong observations, or -1 when the
 * memory does not open or the write fails. */
long fault_verify(const char *dir, const fault_ack *acks, size_t n, int write_after);

/* Open the memory at dir and check that its newest snapshot has folded in
 * at least observation `cursor` (a build that exited 0 is acknowledged).
 * Prints the problem to stderr; returns 0 when it has, 1 when not, -1 when
 * the memory does not open or its snapshots cannot be listed. */
int fault_verify_built(const char *dir, uint64_t cursor);

/* ---------------------------------------------------------- processes -- */

typedef struct fault_run {
	int exited;    /* exited normally: code is in `code` */
	int code;
	int signal;    /* killed by this signal (0: not) */
	int timed_out; /* killed by us after the time limit */
	double seconds;
} fault_run;

/* Run argv with the extra environment entries `env` ("NAME=value", NULL
 * terminated, may be NULL), stdin from /dev/null, stdout to out_fd (-1:
 * /dev/null) and stderr to err_fd (-1: inherited); kill it after
 * timeout_s seconds. Returns 0, or -1 when it could not be started. */
int fault_spawn(fault_run *out, char *const argv[], char *const env[], int out_fd, int err_fd,
                int timeout_s);

/* Read a whole file (NUL-terminated); NULL on error. */
char *fault_slurp(const char *path, size_t *len);

/* Remove a directory tree (best effort). */
void fault_rmrf(const char *path);

/* A fresh directory under $TMPDIR (or /tmp); the caller frees the path. */
char *fault_tmpdir(const char *tag);

/* The long run is asked for: H2EMV_FAULT_LONG set to something other than 0. */
int fault_long(void);

/* A seed: H2EMV_FAULT_SEED if set, else from the clock and pid. */
uint64_t fault_seed(void);

/* Monotonic seconds. */
double fault_now(void);

#endif
