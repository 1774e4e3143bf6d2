/*
 * regfile.c — only regular files (regfile.h). A FIFO in place of CURRENT,
 * a data file or h2emv.lock made every command hang in open(2); a symbolic
 * link would let the memory write wherever it points.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/regfile.h"

static const char *kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO (named pipe)";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

static int wrong_kind(h2emv_error *err, const char *path, mode_t m)
{
	eng_fail(err, H2EMV_EIO,
	         "%s is %s, not a regular file: the memory's files must be regular files "
	         "(move it away and restore the file)",
	         path, kind(m));
	errno = EINVAL;
	return H2EMV_EIO;
}

int reg_open(const char *path, int flags, mode_t mode, h2emv_error *err)
{
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
	if (fd < 0) {
		int e = errno;
		struct stat st;
		if (e == ELOOP && lstat(path, &st) == 0)
			wrong_kind(err, path, st.st_mode);
		else
			eng_fail(err, e == ENOENT ? H2EMV_ENOTFOUND : H2EMV_EIO, "%s: %s", path,
			         strerror(e));
		errno = e;
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		wrong_kind(err, path, st.st_mode);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		int e = errno;
		eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int reg_check(const char *path, h2emv_error *err)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? H2EMV_OK
		                       : eng_fail(err, H2EMV_EIO, "%s: %s", path, strerror(errno));
	return S_ISREG(st.st_mode) ? H2EMV_OK : wrong_kind(err, path, st.st_mode);
}
