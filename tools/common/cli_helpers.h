/*
 * cli_helpers.h — the command-line helpers shared by `h2emv` (tools/) and
 * the evaluation's own program `h2emv-eval` (bench/eval): the command table
 * entry, exit codes, error and usage messages, times, numbers, durations and
 * progress bars. Built on the public header h2emv.h only (CMakeLists.txt
 * gives it no other project include path), so the evaluation can use it
 * without reaching into the command line's internals.
 */
#ifndef H2EMV_CLI_HELPERS_H
#define H2EMV_CLI_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* One entry of a program's subcommand table. */
typedef struct cli_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} cli_cmd;

/* Exit codes every subcommand uses. EXIT_BUSY (sysexits' EX_TEMPFAIL):
 * another builder is running (build, forget); try again later.
 * EXIT_DAMAGED: the memory is damaged (run h2emv check; docs/damaged.md).
 * EXIT_NOSPACE: `build` stopped on a full disk (H2EMV_ENOSPC): nothing is
 * lost, `h2emv gc` and `h2emv compact` make room (build --follow waits). */
enum { EXIT_OK = 0, EXIT_FOUND = 1, EXIT_ERROR = 2, EXIT_DAMAGED = 3, EXIT_NOSPACE = 4,
       EXIT_USAGE = 64, EXIT_BUSY = 75 };

/* Print "h2emv <cmd>: <message>" for a failed call. Returns EXIT_ERROR, or
 * EXIT_DAMAGED for H2EMV_ECORRUPT (stored bytes are damaged). */
int cli_fail(const char *cmd, int status, const h2emv_error *err);
/* Print a usage error and a pointer to --help. Returns EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "2024-09-23 10:03:55" (UTC); "never" for H2EMV_TIME_NEVER. buf >= 32. */
const char *cli_time(char *buf, size_t n, h2emv_time t);

/* Parse "90s", "15m", "12h", "7d", "2w" or a plain number of seconds into
 * microseconds. Returns 0 on success. */
int cli_duration(h2emv_time *out, const char *s);
/* A size: bytes, or a number with K, M, G or T (binary: 512M, 2G). */
int cli_size(uint64_t *out, const char *s);

/* Parse a time: RFC 3339, "YYYY-MM-DD HH:MM[:SS]" (UTC), or +DURATION
 * after the memory's clock (the newest snapshot's; now if none). */
int cli_when(h2emv_time *out, h2emv_mem *mem, const char *s);

/* Parse an unsigned decimal; returns 0 on success. */
int cli_u64(uint64_t *out, const char *s);

/* A progress bar on stderr when it is a terminal (no-op otherwise). */
typedef struct cli_progress {
	int on;
	double start, last;
	const char *label;
} cli_progress;
void cli_progress_begin(cli_progress *p, const char *label, int quiet);
void cli_progress_show(cli_progress *p, uint64_t done, uint64_t total, const char *unit);
void cli_progress_end(cli_progress *p);
/* An h2emv_progress_fn that drives a cli_progress. */
int cli_progress_cb(void *ctx, const char *what, uint64_t done, uint64_t total);

#endif
