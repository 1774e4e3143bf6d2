/*
 * cli.h — what the `h2emv` subcommands share: the command table, opening
 * the memory named on the command line, --json output; the helpers the
 * evaluation's program uses too (errors, times, progress) are in
 * tools/common/cli_helpers.h.
 */
#ifndef H2EMV_CLI_H
#define H2EMV_CLI_H

#include <stdio.h>

#include "tools/common/cli_helpers.h" /* exit codes, errors, times, numbers, progress */
#include "h2emv.h"

/* `h2emv --read-only`: every command opens the memory read-only. */
extern int cli_read_only;

/* Run a subcommand in a child process that may crash on a damaged file
 * without taking the command down (guard.c). Returns its exit status. */
int cli_guarded(const char *name, int (*run)(int, char **), int argc, char **argv);
/* The memory the guarded command opened (cli_open calls it): when the
 * command then ends on damage (a crash of the database library, or exit
 * EXIT_DAMAGED), the guard runs `h2emv check` on it, which writes the
 * DAMAGED mark that refuses every later write (docs/damaged.md). */
void cli_guard_note_dir(const char *dir);

int cmd_demo(int argc, char **argv);
int cmd_ask(int argc, char **argv);
int cmd_say(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
int cmd_snapshots(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_salvage(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_compact(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_forget(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_feedback(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_llm(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_backup(int argc, char **argv);
int cmd_upgrade(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* The edit script from rule list a to b (in cmd_rules.c): ops[k] is ' ',
 * '-' or '+'; ops has room for na + nb. Returns the count, or (size_t)-1
 * when out of memory. */
size_t cli_rules_diff(char *ops, char *const *a, size_t na, char *const *b, size_t nb);

/* The options most subcommands share: -m/--mem DIR, --json (only when
 * `json` is not NULL) and -h/--help. Returns -1 to go on (optind at the
 * first operand), else the exit status: EXIT_OK after printing `help`, or
 * EXIT_USAGE after a usage error naming `cmd`. */
int cli_basic_opts(int argc, char **argv, const char *cmd, const char *help, const char **mem,
                   int *json);

/* -1 when every argument was an option; else EXIT_USAGE after naming the
 * first stray operand (a word a command does not take is never ignored). */
int cli_no_operands(int argc, char **argv, const char *cmd);

/* The memory directory: --mem/-m, else $H2EMV_MEM, else ./h2emv-memory.
 * An empty --mem is a usage error: it exits with EXIT_USAGE. */
const char *cli_mem_dir(const char *opt);

/* Open the memory; on failure print the error and return NULL, except
 * that a damaged memory (H2EMV_ECORRUPT) exits with EXIT_DAMAGED. */
h2emv_mem *cli_open(const char *dir, unsigned flags);

/* Every --json output is built with jansson (cli_json.c), never printed by
 * hand. cli_print_json prints a value on one line (compact, members in the
 * order they were added, reals to 6 significant digits: times and
 * latencies) and releases it; NULL, from a failed json_pack, is reported.
 * EXIT_OK or EXIT_ERROR. */
struct json_t;
int cli_print_json(struct json_t *v);
/* A JSON string of `s` (NULL: null). Text that is not UTF-8 (a file name,
 * bytes out of a damaged record) gets U+FFFD for each byte that begins no
 * character, so the output stays valid JSON. NULL when out of memory. */
struct json_t *cli_json_text(const char *s);
/* v as a JSON integer; above INT64_MAX (jansson's integers are signed, and
 * only a key read out of damaged bytes gets there) as a string of its
 * decimal digits, so the value is never changed. */
struct json_t *cli_json_u64(uint64_t v);
/* A node reference as [id, version]. */
struct json_t *cli_json_ref(h2emv_ref r);

/* The JSON objects shared by the command line and `h2emv serve`
 * (cli_json.c); NULL when out of memory (or a text is not UTF-8). The
 * caller owns the result (json_decref). cli_answer_json: `ask --json` and
 * POST /v1/ask, with the trace's lines when `trace`; cli_reply_json: `say
 * --json` and POST /v1/say; cli_rules_items_json: rule sentences. */
struct json_t *cli_answer_json(const char *question, const h2emv_answer *a, int trace);
struct json_t *cli_reply_json(const h2emv_reply *r);
struct json_t *cli_rules_items_json(char *const *items, size_t n);
/* {"prompt","completion","calls"}. */
struct json_t *cli_tokens_json(const h2emv_tokens *t);
/* "question", "feedback" or "reply". */
const char *cli_route_name(h2emv_route r);

/* Parse a node reference: ID, ID.VERSION or ID:VERSION (version 1 when
 * absent). Returns 0 on success. */
int cli_ref(h2emv_ref *out, const char *s);

#endif
