/* testutil.h — helpers shared by the tests: temporary directories. */
#ifndef H2EMV_TESTUTIL_H
#define H2EMV_TESTUTIL_H
#include <stddef.h>

/* Make a fresh empty directory under $TMPDIR (or /tmp); returns a malloc'd
 * path. Aborts the test program if it cannot. */
char *tu_tmpdir(const char *tag);
/* Remove a directory tree (best effort). */
void tu_rmrf(const char *path);
/* Read a whole file; malloc'd, NUL-terminated; NULL on failure. */
char *tu_read_file(const char *path, size_t *len);
#endif
