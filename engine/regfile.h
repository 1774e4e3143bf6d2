/*
 * regfile.h — the memory's own files are regular files, and nothing else is
 * opened in their place (regfile.c). Private to engine/.
 */
#ifndef H2EMV_REGFILE_H
#define H2EMV_REGFILE_H

#include <sys/types.h>

#include "engine/engine.h"

/* open(2) of one of the memory's files, refusing anything but a regular
 * file: a symbolic link is not followed (O_NOFOLLOW), and the open does not
 * block (O_NONBLOCK, cleared again once fstat has said "regular"), so a
 * FIFO, a device or a socket in the file's place is an error naming the
 * file, never a hang. Returns the descriptor, or -1 with `err` filled
 * (H2EMV_EIO for a file of another kind; errno is kept, ENOENT included,
 * so callers can tell a missing file). */
int reg_open(const char *path, int flags, mode_t mode, h2emv_error *err);

/* H2EMV_OK if `path` is missing or a regular file (lstat, no link
 * followed); else H2EMV_EIO naming it. For the files LMDB opens itself. */
int reg_check(const char *path, h2emv_error *err);

#endif
