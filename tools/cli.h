/*
 * cli.h — what the `h2emv` subcommands share: the command table, opening
 * the memory named on the command line, error printing, progress bars and
 * time formatting.
 */
#ifndef H2EMV_CLI_H
#define H2EMV_CLI_H

#include <stdio.h>

#include "h2emv.h"

typedef struct cli_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} cli_cmd;

/* Exit codes every subcommand uses. */
enum { EXIT_OK = 0, EXIT_FOUND = 1, EXIT_ERROR = 2, EXIT_USAGE = 64 };

int cmd_init(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
int cmd_snapshots(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_compact(int argc, char **argv);

/* The memory directory: --mem/-m, else $H2EMV_MEM, else ./h2emv-memory. */
const char *cli_mem_dir(const char *opt);

/* Open the memory; on failure print the error and return NULL. */
h2emv_mem *cli_open(const char *dir, unsigned flags);

/* Print "h2emv <cmd>: <message>" for a failed call. Returns EXIT_ERROR. */
int cli_fail(const char *cmd, int status, const h2emv_error *err);

/* Print a usage error and a pointer to --help. Returns EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "2024-09-23 10:03:55" (UTC); "never" for H2EMV_TIME_NEVER. buf >= 32. */
const char *cli_time(char *buf, size_t n, h2emv_time t);

/* Parse "90s", "15m", "12h", "7d", "2w" or a plain number of seconds into
 * microseconds. Returns 0 on success. */
int cli_duration(h2emv_time *out, const char *s);

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

/* Write `s` as a JSON string literal (with quotes). */
void cli_json_str(FILE *f, const char *s);

#endif
