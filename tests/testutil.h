/* testutil.h — helpers shared by the tests: temporary directories, skips. */
#ifndef H2EMV_TESTUTIL_H
#define H2EMV_TESTUTIL_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>

#include "engine/engine.h"

/* Make a fresh empty directory under $TMPDIR (or /tmp); returns a malloc'd
 * path. Aborts the test program if it cannot. */
char *tu_tmpdir(const char *tag);
/* A fresh memory in a new temporary directory (*dir_out, malloc'd),
 * opened with CREATE | NOSYNC; NULL (after saying why) if it cannot be. */
h2emv_mem *tu_mem_tmp(const char *tag, char **dir_out);
/* tu_mem_tmp with forgetting off, the JSON lines ingested and built (fails
 * the test on any error). */
h2emv_mem *tu_mem_lines(const char *tag, const char *const *lines, size_t n, char **dir_out);
/* h2emv_ask as of `at` (fails the test on an error); free the answer. */
h2emv_answer *tu_ask_at(h2emv_mem *m, int64_t at, const char *q);
/* Ask q at `at`: the answer must hold `want` and not `not_want` (NULL:
 * anything), else the test fails with both. */
void tu_expect_at(h2emv_mem *m, int64_t at, const char *q, const char *want,
                  const char *not_want);
/* Close m, remove its folder dir and free dir (tu_mem_lines' out). */
void tu_close_rm(h2emv_mem *m, char *dir);
/* Write `body` under `key` in a key/value database (ENG_KV_*) as it is,
 * past the record codec eng_kv_put holds values to: how a test plants a
 * record an older release (or damage) left. Returns a status. */
int tu_kv_put_raw(eng_env *env, int kv, const void *key, size_t klen, const void *body,
                  size_t blen);
/* Remove a directory tree (best effort). */
void tu_rmrf(const char *path);
/* Read a whole file; malloc'd, NUL-terminated; NULL on failure. */
char *tu_read_file(const char *path, size_t *len);
/* msgpack-c packer callback appending to an eng_buf. */
int tu_buf_write(void *data, const char *buf, size_t len);
void tu_pack_str(msgpack_packer *pk, const char *s);

/* An observation-like msgpack body, number i of a deterministic series:
 * many alike, as a robot's log is (what a dictionary learns from). */
void tu_obs_body(eng_buf *out, uint64_t i);

/* printf into a malloc'd string; aborts when out of memory. */
char *tu_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run a shell command (printf's format): *out gets its standard output
 * (malloc'd, NUL-terminated, at most 64 KiB); returns its exit status, -1
 * if it did not exit. Aborts when the command cannot be started. */
int tu_run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* tu_cli_spawn flags: run without the crash guard (H2EMV_NO_GUARD=1). */
#define TU_CLI_NO_GUARD 1
/* Start the CLI (H2EMV_CLI) with `args` (NULL-terminated, without the
 * program name; at most 30), standard input and output on /dev/null,
 * standard error appended to `errlog`; `alarm_s` > 0 kills it with SIGALRM
 * after that many seconds. Returns its pid (tu_wait it); aborts when it
 * cannot fork. For commands run beside others, or judged by how they die;
 * tu_run captures output. */
pid_t tu_cli_spawn(const char *const *args, const char *errlog, int flags, unsigned alarm_s);
/* Wait for `pid`, retrying on EINTR; its raw wait status, -1 on error. */
int tu_wait(pid_t pid);
/* Ingest one observation written with printf's format; aborts the test
 * program (naming the line and the error) if it is refused. */
void tu_ingestf(h2emv_mem *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The paper's Figure 2(b) material: picking up `obj`_0 at t and placing it
 * on `dest`_0 ten seconds later, in the kitchen. */
void tu_transport(h2emv_mem *m, int64_t t, const char *obj, const char *dest);
/* A day of unrelated chores from 09:00 (cup, plate, the plant at 18:00) on
 * day `day` after t0 (midnight UTC), to keep the clock moving. */
void tu_chores(h2emv_mem *m, int64_t t0, int day);
/* h2emv_say; aborts if it fails. Free the reply with h2emv_reply_free. */
h2emv_reply *tu_say(h2emv_mem *m, const char *text);

/* Does `dir` carry the DAMAGED mark (docs/damaged.md)? */
int tu_marked_damaged(const char *dir);
/* How many data files (data.mdb, data.N.mdb: generations) `dir` holds. */
int tu_data_files(const char *dir);
/* In a forked child: die of a fault instead of longjmp-ing back into the
 * test runner's copy that cmocka's signal handlers would resume. */
void tu_child_default_signals(void);

/* The full-disk tests' tools (test_fulldisk.c, test_edges_fulldisk.c). */
/* Mount a tmpfs of `size` (mount's size=, e.g. "30m") on a fresh temporary
 * directory (*mountpoint, malloc'd), in a private mount namespace of this
 * process: nobody else sees it and it goes with the process. NULL when
 * mounted, else why not (needs root or CAP_SYS_ADMIN; a static string). */
const char *tu_mount_tmpfs(char **mountpoint, const char *tag, const char *size);
/* Detach the tmpfs (when `mounted`), remove and free `mountpoint`. */
void tu_umount_tmpfs(char *mountpoint, int mounted);
/* Run the CLI (H2EMV_CLI, printf's format for its arguments): its output
 * to *out (malloc'd; out may be NULL), its errors appended to `errlog`.
 * Returns its exit status. */
int tu_cli_log(const char *errlog, char **out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write observations first .. first + n - 1 to `path` as JSON lines, each
 * with ~3 KB of note that zstd cannot squeeze much, 5 s apart from
 * 2024-06-26T19:48:57Z. Aborts when the file cannot be written. */
void tu_write_batch(const char *path, uint64_t first, size_t n);
/* Bytes an unprivileged writer may still use on the file system of `path`. */
uint64_t tu_free_bytes(const char *path);
/* The unsigned number after "key": in `json` (a flat search, enough for
 * the CLI's --json output); the test fails when the key is missing. */
uint64_t tu_json_u64(const char *json, const char *key);
/* The size of the file at `path`, 0 when there is none. */
uint64_t tu_file_size(const char *path);

/* A test that cannot run here (missing data, tool or privilege): says why
 * on standard error and skips it with cmocka's skip(); tu_exit then reports
 * the whole program as skipped to ctest (exit 77, SKIP_RETURN_CODE) instead
 * of passed. When the environment variable `need` (a switch such as
 * H2EMV_REQUIRE_DATA) is 1, as CI sets it, the test fails instead. */
void tu_skip(const char *need, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* main's exit status after cmocka_run_group_tests returned `failed`: that
 * when a test failed, else 77 when a test was skipped, else 0. */
int tu_exit(int failed);

#endif
