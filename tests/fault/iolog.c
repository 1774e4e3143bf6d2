/*
 * iolog.c — an LD_PRELOAD shim that records every change a program makes to
 * the files of one directory (the memory directory), for the power-cut
 * replayer (powercut.c): each write with its file, offset and bytes, each
 * fsync/fdatasync/msync as a barrier, creates, truncations, renames,
 * unlinks and directory syncs, in the order they returned. Writes to an
 * acknowledgement descriptor are recorded too, so the replayer knows what
 * the program had confirmed at each point.
 *
 * Environment: H2EMV_IOLOG (the log file, appended), H2EMV_IOLOG_DIR (the
 * directory whose files are recorded), H2EMV_IOLOG_ACK_FD (optional: the
 * descriptor whose writes are acknowledgements, e.g. 1 for `ingest --ack`),
 * H2EMV_IOLOG_FORGET_SYNC=1 (the negative control: record syncs as if they
 * had not happened, so the replay must find losses), H2EMV_IOLOG_DIE_AT_DIRSYNC=1
 * (the process dies, as if killed, when it is about to fsync the directory
 * after renaming a file in it), H2EMV_IOLOG_FAIL_SWITCH=dirsync (that directory
 * fsync fails with EIO instead, and syncs nothing) or =rename (a rename onto
 * DIR/CURRENT happens but reports EIO, as a disk error after the change
 * reached the directory may).
 *
 * Only files directly inside the directory are recorded. Writes through
 * stdio or an inherited descriptor are not seen one by one; the content of
 * such a file is recorded whole when it is synced. Writes through a shared
 * mapping are recorded when msync'd.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "iolog.h"

/* -------------------------------------------------- the real functions -- */

static int (*r_open)(const char *, int, ...);
static int (*r_openat)(int, const char *, int, ...);
static ssize_t (*r_write)(int, const void *, size_t);
static ssize_t (*r_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*r_writev)(int, const struct iovec *, int);
static ssize_t (*r_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*r_pwritev2)(int, const struct iovec *, int, off_t, int);
static int (*r_fsync)(int);
static int (*r_fdatasync)(int);
static int (*r_msync)(void *, size_t, int);
static void *(*r_mmap)(void *, size_t, int, int, int, off_t);
static int (*r_munmap)(void *, size_t);
static int (*r_ftruncate)(int, off_t);
static int (*r_posix_fallocate)(int, off_t, off_t);
static int (*r_fallocate)(int, int, off_t, off_t);
static int (*r_truncate)(const char *, off_t);
static int (*r_rename)(const char *, const char *);
static int (*r_renameat)(int, const char *, int, const char *);
static int (*r_renameat2)(int, const char *, int, const char *, unsigned);
static int (*r_unlink)(const char *);
static int (*r_unlinkat)(int, const char *, int);
static int (*r_close)(int);
static void (*r_sync)(void);
static int (*r_syncfs)(int);

/* ------------------------------------------------------------- state -- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int logfd = -1;
static int ackfd = -1;
static char memdir[PATH_MAX]; /* realpath, resolved lazily */
static dev_t memdev;
static ino_t memino;
static int have_dir;
static int forget_sync;
static int die_at_dirsync;
static int fail_dirsync, fail_rename; /* H2EMV_IOLOG_FAIL_SWITCH */
static int renamed; /* this process renamed a file in the directory */

/* What the shim knows about a descriptor, checked against fstat on use. */
#define MAX_FD 4096
typedef struct fdinfo {
	dev_t dev;
	ino_t ino;
	unsigned char known;   /* dev/ino below are valid */
	unsigned char inmem;   /* a regular file directly in the memory directory */
	unsigned char opened;  /* opened through this shim (its writes are all seen) */
} fdinfo;
static fdinfo fds[MAX_FD];

/* Shared writable mappings of memory files, for msync. */
#define MAX_MAPS 64
typedef struct mapinfo {
	char *addr;
	size_t len;
	off_t off;
	ino_t ino;
} mapinfo;
static mapinfo maps[MAX_MAPS];

#define REAL(name) r_##name = (__typeof__(r_##name))dlsym(RTLD_NEXT, #name)

static void resolve_dir(void)
{
	const char *d = getenv("H2EMV_IOLOG_DIR");
	struct stat st;
	if (have_dir || !d || !realpath(d, memdir) || stat(memdir, &st) != 0)
		return;
	memdev = st.st_dev;
	memino = st.st_ino;
	have_dir = 1;
}

static void init(void)
{
	REAL(open);
	REAL(openat);
	REAL(write);
	REAL(pwrite);
	REAL(writev);
	REAL(pwritev);
	REAL(pwritev2);
	REAL(fsync);
	REAL(fdatasync);
	REAL(msync);
	REAL(mmap);
	REAL(munmap);
	REAL(ftruncate);
	REAL(posix_fallocate);
	REAL(fallocate);
	REAL(truncate);
	REAL(rename);
	REAL(renameat);
	REAL(renameat2);
	REAL(unlink);
	REAL(unlinkat);
	REAL(close);
	REAL(sync);
	REAL(syncfs);
	const char *path = getenv("H2EMV_IOLOG");
	if (path)
		logfd = r_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	const char *fs = getenv("H2EMV_IOLOG_FORGET_SYNC");
	forget_sync = fs && *fs && strcmp(fs, "0") != 0;
	const char *dd = getenv("H2EMV_IOLOG_DIE_AT_DIRSYNC");
	die_at_dirsync = dd && *dd && strcmp(dd, "0") != 0;
	const char *fsw = getenv("H2EMV_IOLOG_FAIL_SWITCH");
	fail_dirsync = fsw && !strcmp(fsw, "dirsync");
	fail_rename = fsw && !strcmp(fsw, "rename");
	const char *a = getenv("H2EMV_IOLOG_ACK_FD");
	if (a && *a)
		ackfd = atoi(a);
	resolve_dir();
}

static void setup(void)
{
	pthread_once(&once, init);
	if (!have_dir)
		resolve_dir();
}

/* ------------------------------------------------------------ the log -- */

static void emit(uint32_t type, uint64_t ino, uint64_t off, const char *name, size_t namelen,
                 const struct iovec *data, int ndata, uint64_t len)
{
	if (logfd < 0)
		return;
	iolog_rec h = { IOLOG_MAGIC, type, (uint32_t)getpid(), (uint32_t)namelen, ino, off, len };
	struct iovec v[66];
	int n = 0;
	v[n++] = (struct iovec){ &h, sizeof h };
	if (namelen)
		v[n++] = (struct iovec){ (void *)name, namelen };
	/* One record is one write (O_APPEND keeps it whole): the caller's
	 * pieces, cut to len bytes, or one gathered copy if there are many. */
	char *gathered = NULL;
	uint64_t left = len;
	for (int i = 0; i < ndata && left; i++) {
		size_t take = data[i].iov_len < left ? data[i].iov_len : (size_t)left;
		if (n == 66) {
			if (!(gathered = malloc(len)))
				abort(); /* a test tool: losing a record would hide a bug */
			size_t at = 0;
			for (int j = 0; j < ndata && at < len; j++) {
				size_t t = data[j].iov_len < len - at ? data[j].iov_len : (size_t)(len - at);
				memcpy(gathered + at, data[j].iov_base, t);
				at += t;
			}
			n = namelen ? 2 : 1;
			v[n++] = (struct iovec){ gathered, len };
			break;
		}
		v[n++] = (struct iovec){ data[i].iov_base, take };
		left -= take;
	}
	size_t total = sizeof h + namelen + len;
	pthread_mutex_lock(&lock);
	ssize_t w = r_writev(logfd, v, n);
	pthread_mutex_unlock(&lock);
	free(gathered);
	if (w != (ssize_t)total)
		abort();
}

static void emit_plain(uint32_t type, uint64_t ino, uint64_t off, const char *name,
                       size_t namelen)
{
	emit(type, ino, off, name, namelen, NULL, 0, 0);
}

/* ------------------------------------------- what belongs to the dir -- */

/* Is the parent directory of `path` (relative to dirfd) the memory
 * directory? On yes, *base points at the file name inside `path`. */
static int path_in_mem(int dirfd, const char *path, const char **base)
{
	if (!have_dir || !path)
		return 0;
	const char *slash = strrchr(path, '/');
	char parent[PATH_MAX];
	if (!slash) {
		strcpy(parent, ".");
		*base = path;
	} else {
		size_t n = (size_t)(slash - path);
		if (n == 0)
			n = 1; /* "/name" */
		if (n >= sizeof parent)
			return 0;
		memcpy(parent, path, n);
		parent[n] = 0;
		*base = slash + 1;
	}
	if (!**base)
		return 0;
	struct stat st;
	if (fstatat(dirfd, parent, &st, 0) != 0)
		return 0;
	return st.st_dev == memdev && st.st_ino == memino;
}

/* Refresh what we know about fd; returns its entry, or NULL when it is not
 * a regular file in the memory directory. */
static fdinfo *mem_fd(int fd)
{
	if (!have_dir || fd < 0 || fd >= MAX_FD)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != memdev) {
		fds[fd].known = 0;
		return NULL;
	}
	fdinfo *f = &fds[fd];
	if (f->known && f->dev == st.st_dev && f->ino == st.st_ino)
		return f->inmem ? f : NULL;
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return NULL;
	target[n] = 0;
	char *slash = strrchr(target, '/');
	size_t dl = strlen(memdir);
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->known = 1;
	f->opened = 0; /* a new file behind this number: opened where we did not see it */
	f->inmem = slash && (size_t)(slash - target) == dl && !memcmp(target, memdir, dl);
	return f->inmem ? f : NULL;
}

static int is_mem_dir_fd(int fd)
{
	struct stat st;
	return have_dir && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_dev == memdev &&
	       st.st_ino == memino;
}

static int fd_is_dsync(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl >= 0 && (fl & O_DSYNC);
}

/* The content of a file written behind our back, at the moment it is synced. */
static void emit_snapshot(int fd, fdinfo *f)
{
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	int rfd = r_open(target, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		return;
	struct stat st;
	if (fstat(rfd, &st) != 0) {
		r_close(rfd);
		return;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	ssize_t got = buf ? pread(rfd, buf, (size_t)st.st_size, 0) : -1;
	r_close(rfd);
	if (got >= 0) {
		const char *base = strrchr(target, '/') + 1;
		struct iovec v = { buf, (size_t)got };
		emit(IOLOG_SNAPSHOT, (uint64_t)f->ino, 0, base, strlen(base), &v, 1, (uint64_t)got);
	}
	free(buf);
}

/* ---------------------------------------------------------- recording -- */

static void after_write(int fd, off_t off, const struct iovec *v, int n, ssize_t done)
{
	if (done <= 0)
		return;
	if (fd == ackfd) {
		emit(IOLOG_ACK, 0, 0, NULL, 0, v, n, (uint64_t)done);
		return;
	}
	fdinfo *f = mem_fd(fd);
	if (!f)
		return;
	if (off < 0) { /* a write at the file position: it has moved past the data */
		off_t end = lseek(fd, 0, SEEK_CUR);
		if (end < 0)
			return;
		off = end - done;
	}
	emit(fd_is_dsync(fd) && !forget_sync ? IOLOG_DSYNCW : IOLOG_WRITE, (uint64_t)f->ino, (uint64_t)off, NULL,
	     0, v, n, (uint64_t)done);
}

static void after_open(int fd, int dirfd, const char *path, int flags, int existed)
{
	if (fd < 0 || fd >= MAX_FD)
		return;
	fds[fd].known = 0;
	fds[fd].opened = 0;
	const char *base;
	if (!path_in_mem(dirfd, path, &base))
		return;
	fdinfo *f = mem_fd(fd);
	if (!f)
		return;
	f->opened = 1;
	if (!existed)
		emit_plain(IOLOG_CREATE, (uint64_t)f->ino, 0, base, strlen(base));
	else if (flags & O_TRUNC)
		emit_plain(IOLOG_TRUNC, (uint64_t)f->ino, 0, NULL, 0);
}

static int exists_at(int dirfd, const char *path)
{
	struct stat st;
	return fstatat(dirfd, path, &st, 0) == 0;
}

static int do_open(int dirfd, const char *path, int flags, mode_t mode)
{
	setup();
	int existed = (flags & O_CREAT) ? exists_at(dirfd, path) : 1;
	int fd = dirfd == AT_FDCWD ? r_open(path, flags, mode) : r_openat(dirfd, path, flags, mode);
	if (fd >= 0) {
		int e = errno;
		after_open(fd, dirfd, path, flags, existed);
		errno = e;
	}
	return fd;
}

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = open_mode(flags, ap);
	va_end(ap);
	return do_open(AT_FDCWD, path, flags, m);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = open_mode(flags, ap);
	va_end(ap);
	return do_open(AT_FDCWD, path, flags, m);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = open_mode(flags, ap);
	va_end(ap);
	return do_open(dirfd, path, flags, m);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = open_mode(flags, ap);
	va_end(ap);
	return do_open(dirfd, path, flags, m);
}

/* _FORTIFY_SOURCE builds call these */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __open_2(const char *path, int flags) { return do_open(AT_FDCWD, path, flags, 0); }
int __open64_2(const char *path, int flags) { return do_open(AT_FDCWD, path, flags, 0); }
int __openat_2(int dirfd, const char *path, int flags) { return do_open(dirfd, path, flags, 0); }

int creat(const char *path, mode_t mode)
{
	return do_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

int close(int fd)
{
	setup();
	if (fd >= 0 && fd < MAX_FD)
		fds[fd].known = fds[fd].opened = 0;
	return r_close(fd);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	setup();
	ssize_t w = r_write(fd, buf, n);
	int e = errno;
	struct iovec v = { (void *)buf, n };
	after_write(fd, -1, &v, 1, w);
	errno = e;
	return w;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	setup();
	ssize_t w = r_pwrite(fd, buf, n, off);
	int e = errno;
	struct iovec v = { (void *)buf, n };
	after_write(fd, off, &v, 1, w);
	errno = e;
	return w;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return pwrite(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *v, int n)
{
	setup();
	ssize_t w = r_writev(fd, v, n);
	int e = errno;
	after_write(fd, -1, v, n, w);
	errno = e;
	return w;
}

ssize_t pwritev(int fd, const struct iovec *v, int n, off_t off)
{
	setup();
	ssize_t w = r_pwritev(fd, v, n, off);
	int e = errno;
	after_write(fd, off, v, n, w);
	errno = e;
	return w;
}

ssize_t pwritev64(int fd, const struct iovec *v, int n, off_t off)
{
	return pwritev(fd, v, n, off);
}

ssize_t pwritev2(int fd, const struct iovec *v, int n, off_t off, int flags)
{
	setup();
	ssize_t w = r_pwritev2(fd, v, n, off, flags);
	int e = errno;
	after_write(fd, off, v, n, w);
	if (w > 0 && (flags & (RWF_DSYNC | RWF_SYNC))) {
		fdinfo *f = mem_fd(fd);
		if (f)
			emit_plain(IOLOG_SYNC, (uint64_t)f->ino, 0, NULL, 0);
	}
	errno = e;
	return w;
}

static void after_sync(int fd)
{
	if (forget_sync)
		return;
	if (is_mem_dir_fd(fd)) {
		emit_plain(IOLOG_DIRSYNC, 0, 0, NULL, 0);
		return;
	}
	fdinfo *f = mem_fd(fd);
	if (!f)
		return;
	if (!f->opened)
		emit_snapshot(fd, f);
	emit_plain(IOLOG_SYNC, (uint64_t)f->ino, 0, NULL, 0);
}

int fsync(int fd)
{
	setup();
	if (die_at_dirsync && renamed && is_mem_dir_fd(fd))
		_exit(137);
	if (fail_dirsync && renamed && is_mem_dir_fd(fd)) {
		errno = EIO;
		return -1;
	}
	int rc = r_fsync(fd);
	int e = errno;
	if (rc == 0)
		after_sync(fd);
	errno = e;
	return rc;
}

int fdatasync(int fd)
{
	setup();
	int rc = r_fdatasync(fd);
	int e = errno;
	if (rc == 0)
		after_sync(fd);
	errno = e;
	return rc;
}

void sync(void)
{
	setup();
	r_sync();
	emit_plain(IOLOG_DIRSYNC, 0, 0, NULL, 0);
	emit_plain(IOLOG_SYNC, 0, 0, NULL, 0); /* ino 0: every file */
}

int syncfs(int fd)
{
	setup();
	int rc = r_syncfs(fd);
	int e = errno;
	if (rc == 0) {
		emit_plain(IOLOG_DIRSYNC, 0, 0, NULL, 0);
		emit_plain(IOLOG_SYNC, 0, 0, NULL, 0);
	}
	errno = e;
	return rc;
}

int ftruncate(int fd, off_t len)
{
	setup();
	int rc = r_ftruncate(fd, len);
	int e = errno;
	fdinfo *f = rc == 0 ? mem_fd(fd) : NULL;
	if (f)
		emit_plain(IOLOG_TRUNC, (uint64_t)f->ino, (uint64_t)len, NULL, 0);
	errno = e;
	return rc;
}

int ftruncate64(int fd, off_t len)
{
	return ftruncate(fd, len);
}

/* An allocation that grows a file (the memory's reserve) changes its size:
 * recorded as a truncation to the new end (the bytes are zeros). */
static void after_alloc(int fd, off_t before, off_t end)
{
	fdinfo *f = end > before ? mem_fd(fd) : NULL;
	if (f)
		emit_plain(IOLOG_TRUNC, (uint64_t)f->ino, (uint64_t)end, NULL, 0);
}

int posix_fallocate(int fd, off_t off, off_t len)
{
	setup();
	struct stat st;
	off_t before = fstat(fd, &st) == 0 ? st.st_size : -1;
	int rc = r_posix_fallocate(fd, off, len); /* returns the error, errno untouched */
	int e = errno;
	if (rc == 0 && before >= 0)
		after_alloc(fd, before, off + len);
	errno = e;
	return rc;
}

int posix_fallocate64(int fd, off_t off, off_t len)
{
	return posix_fallocate(fd, off, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	setup();
	struct stat st;
	off_t before = fstat(fd, &st) == 0 ? st.st_size : -1;
	int rc = r_fallocate(fd, mode, off, len);
	int e = errno;
	if (rc == 0 && before >= 0 && !(mode & FALLOC_FL_KEEP_SIZE))
		after_alloc(fd, before, off + len);
	errno = e;
	return rc;
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
	return fallocate(fd, mode, off, len);
}

int truncate(const char *path, off_t len)
{
	setup();
	const char *base;
	struct stat st;
	int in = path_in_mem(AT_FDCWD, path, &base) && stat(path, &st) == 0;
	int rc = r_truncate(path, len);
	int e = errno;
	if (rc == 0 && in)
		emit_plain(IOLOG_TRUNC, (uint64_t)st.st_ino, (uint64_t)len, NULL, 0);
	errno = e;
	return rc;
}

/* ------------------------------------------------- directory changes -- */

static int do_rename(int odir, const char *old, int ndir, const char *new, unsigned flags,
                     int how)
{
	setup();
	const char *ob, *nb;
	int oin = path_in_mem(odir, old, &ob), nin = path_in_mem(ndir, new, &nb);
	struct stat st;
	int have = fstatat(odir, old, &st, AT_SYMLINK_NOFOLLOW) == 0;
	int rc = how == 0 ? r_rename(old, new)
	       : how == 1 ? r_renameat(odir, old, ndir, new)
	                  : r_renameat2(odir, old, ndir, new, flags);
	int e = errno;
	if (rc == 0 && have && (oin || nin)) {
		renamed = 1;
		if (oin && nin) {
			size_t ol = strlen(ob), nl = strlen(nb);
			char *names = malloc(ol + nl + 2);
			if (!names)
				abort();
			memcpy(names, ob, ol + 1);
			memcpy(names + ol + 1, nb, nl + 1);
			emit_plain(IOLOG_RENAME, (uint64_t)st.st_ino, 0, names, ol + nl + 1);
			free(names);
		} else if (oin) {
			emit_plain(IOLOG_UNLINK, 0, 0, ob, strlen(ob));
		} else { /* moved in from elsewhere: a new file, content as it is */
			emit_plain(IOLOG_CREATE, (uint64_t)st.st_ino, 0, nb, strlen(nb));
			int fd = r_open(new, O_RDONLY | O_CLOEXEC);
			if (fd >= 0 && fd < MAX_FD) {
				fdinfo *f = mem_fd(fd);
				if (f)
					emit_snapshot(fd, f);
			}
			if (fd >= 0)
				r_close(fd);
		}
		if (fail_rename && nin && !strcmp(nb, "CURRENT")) {
			e = EIO;
			rc = -1;
		}
	}
	errno = e;
	return rc;
}

int rename(const char *old, const char *new)
{
	return do_rename(AT_FDCWD, old, AT_FDCWD, new, 0, 0);
}

int renameat(int odir, const char *old, int ndir, const char *new)
{
	return do_rename(odir, old, ndir, new, 0, 1);
}

int renameat2(int odir, const char *old, int ndir, const char *new, unsigned flags)
{
	return do_rename(odir, old, ndir, new, flags, 2);
}

static int do_unlink(int dirfd, const char *path, int flags)
{
	setup();
	const char *base;
	int in = !(flags & AT_REMOVEDIR) && path_in_mem(dirfd, path, &base);
	int rc = dirfd == AT_FDCWD && !flags ? r_unlink(path) : r_unlinkat(dirfd, path, flags);
	int e = errno;
	if (rc == 0 && in)
		emit_plain(IOLOG_UNLINK, 0, 0, base, strlen(base));
	errno = e;
	return rc;
}

int unlink(const char *path)
{
	return do_unlink(AT_FDCWD, path, 0);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	return do_unlink(dirfd, path, flags);
}

/* ------------------------------------------------------------ mappings -- */

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	setup();
	void *p = r_mmap(addr, len, prot, flags, fd, off);
	int e = errno;
	if (p != MAP_FAILED && (flags & MAP_SHARED) && (prot & PROT_WRITE)) {
		fdinfo *f = mem_fd(fd);
		pthread_mutex_lock(&lock);
		for (int i = 0; f && i < MAX_MAPS; i++)
			if (!maps[i].addr) {
				maps[i] = (mapinfo){ p, len, off, f->ino };
				break;
			}
		pthread_mutex_unlock(&lock);
	}
	errno = e;
	return p;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len)
{
	setup();
	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_MAPS; i++)
		if (maps[i].addr == addr)
			maps[i].addr = NULL;
	pthread_mutex_unlock(&lock);
	return r_munmap(addr, len);
}

int msync(void *addr, size_t len, int flags)
{
	setup();
	int rc = r_msync(addr, len, flags);
	int e = errno;
	if (rc == 0 && (flags & MS_SYNC)) {
		char *a = addr;
		for (int i = 0; i < MAX_MAPS; i++) {
			mapinfo m = maps[i];
			if (!m.addr || a + len <= m.addr || a >= m.addr + m.len)
				continue;
			char *lo = a > m.addr ? a : m.addr;
			char *hi = a + len < m.addr + m.len ? a + len : m.addr + m.len;
			struct iovec v = { lo, (size_t)(hi - lo) };
			emit(IOLOG_WRITE, (uint64_t)m.ino, (uint64_t)(m.off + (lo - m.addr)), NULL, 0, &v,
			     1, (uint64_t)(hi - lo));
			emit_plain(IOLOG_SYNC, (uint64_t)m.ino, 0, NULL, 0);
		}
	}
	errno = e;
	return rc;
}
