/* testutil.h — helpers shared by the tests: temporary directories. */
#ifndef H2EMV_TESTUTIL_H
#define H2EMV_TESTUTIL_H
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "engine/engine.h"

/* Make a fresh empty directory under $TMPDIR (or /tmp); returns a malloc'd
 * path. Aborts the test program if it cannot. */
char *tu_tmpdir(const char *tag);
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

#endif
