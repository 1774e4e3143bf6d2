/*
 * env_dir.c — the memory directory before LMDB opens it: the lock file
 * (shared while open, exclusive while created), and whether the store can
 * be written at all or opens read-only.
 */
#include <errno.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine/env.h"
#include "engine/gate.h"
#include "engine/pages.h"
#include "engine/regfile.h"
#include "engine/env_internal.h"

static void nap_100ms(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	nanosleep(&ts, NULL);
}

/* The lock on DIR/h2emv.lock is shared while a memory is open, and
 * exclusive while one is created: an open that finds a half-created
 * memory (an importer and an ingest on both ends of a pipe) waits for its
 * creator. *creating is set when this process holds it exclusively to
 * create the store (eng_open makes it shared once the store is whole). */
static int lock_dir(eng_env *env, int create, int *creating, h2emv_error *err)
{
	*creating = 0;
	for (int waited = 0;; waited++) {
		if (create && !gen_store_exists(env->dir)) {
			if (flock(env->lockfd, LOCK_EX | LOCK_NB) == 0) {
				if (!gen_store_exists(env->dir)) {
					*creating = 1;
					return H2EMV_OK;
				}
				/* another process created it meanwhile */
				if (flock(env->lockfd, LOCK_SH | LOCK_NB) == 0)
					return H2EMV_OK;
			}
		} else if (flock(env->lockfd, LOCK_SH | LOCK_NB) == 0) {
			return H2EMV_OK;
		}
		/* Held exclusively: a creator, or an h2emv older than
		 * generations compacting; shared (by a creator's rival, or
		 * an opener about to find no store): wait, a bounded time. */
		if (waited >= 600)
			return eng_fail(err, H2EMV_EBUSY,
			                "%s has been locked exclusively for a minute (another process "
			                "creating the memory, or an older h2emv compacting it?); retry",
			                env->dir);
		nap_100ms();
	}
}

int env_take_dir_lock(eng_env *env, int create, int *creating, h2emv_error *err)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/h2emv.lock", env->dir);
	int ro = env->flags & H2EMV_OPEN_READONLY;
	*creating = 0;
	h2emv_error e2 = { 0 };
	env->lockfd = reg_open(path, ro ? O_RDONLY : O_RDWR | (create ? O_CREAT : 0), 0644, &e2);
	if (env->lockfd < 0 && errno == ENOENT && !create)
		env->lockfd = reg_open(path, O_RDWR | O_CREAT, 0644, &e2); /* older layout */
	if (env->lockfd < 0 && ro && (errno == EACCES || errno == EROFS || errno == EPERM))
		/* a read-only copy without the lock file (nobody can compact it):
		 * the directory stands in, for register_store's identity */
		env->lockfd = open(env->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (env->lockfd < 0 && errno == EINVAL) { /* not a regular file: e2 names it */
		if (err)
			*err = e2;
		return e2.status ? e2.status : H2EMV_EIO;
	}
	if (env->lockfd < 0)
		return eng_fail(err, errno == EACCES ? H2EMV_EREADONLY : H2EMV_EIO, "%s: %s", path,
		                strerror(errno));
	int rc = lock_dir(env, create, creating, err);
	/* an open that waited for a creator: was a store made? */
	if (rc == H2EMV_OK && !create && !gen_store_exists(env->dir))
		rc = eng_fail(err, H2EMV_ENOTFOUND,
		              "no h2emv memory in %s (create one with `h2emv init %s`)", env->dir,
		              env->dir);
	return rc;
}

/* ------------------------------------------------ read-only stores -- */

/* Can this process write `path` (ENOENT counts as yes: it may be created
 * when the directory is writable)? access(2) asks the kernel, which says no
 * even to root on a read-only mount or an immutable (chattr +i) file. */
static int writable(const char *path, int may_be_missing, int *why)
{
	if (access(path, W_OK) == 0 || (errno == ENOENT && may_be_missing))
		return 1;
	*why = errno;
	return 0;
}

/* The current generation's data file and LMDB lock file (docs/formats.md
 * §4): data.mdb + lock.mdb, or data.N.mdb + data.N.mdb-lock. */
static void store_files(const char *dir, char *data, char *lock, size_t cap)
{
	if (eng_data_file(data, cap, dir, NULL) != H2EMV_OK)
		snprintf(data, cap, "%s/data.mdb", dir);
	size_t n = strlen(data);
	if (n >= 9 && !strcmp(data + n - 9, "/data.mdb"))
		snprintf(lock, cap, "%s/lock.mdb", dir);
	else
		snprintf(lock, cap, "%s-lock", data);
}

/* A writer needs the directory (lock files, compaction's copy), the data
 * file and LMDB's lock file. */
int env_store_writable(const char *dir, int *why)
{
	char data[4200], lock[4300];
	store_files(dir, data, lock, sizeof data);
	return writable(dir, 0, why) && writable(data, 1, why) && writable(lock, 1, why);
}

/* Can a reader use LMDB's lock file? LMDB opens it for writing even for
 * read-only transactions (it registers readers there) and gives up when it
 * cannot, except on a read-only file system. Without it (MDB_NOLOCK) a
 * reader is not seen by writers, which is safe only because this process
 * cannot write the store: docs/formats.md, "Read-only memories". */
int env_lock_file_usable(const char *dir)
{
	char data[4200], lock[4300];
	int why;
	store_files(dir, data, lock, sizeof data);
	if (access(lock, F_OK) != 0)
		return writable(dir, 0, &why);
	return writable(lock, 0, &why);
}

static int lock_file_exists(const char *dir)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/h2emv.lock", dir);
	return stat(path, &st) == 0;
}

int env_prepare_dir(const char *dir, int create, h2emv_error *err)
{
	struct stat st;
	if (strlen(dir) > 4000)
		return eng_fail(err, H2EMV_EINVAL, "directory path is too long");
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT || !create)
			return eng_fail(err, errno == ENOENT ? H2EMV_ENOTFOUND : H2EMV_EIO,
			                "%s: %s%s", dir, strerror(errno),
			                errno == ENOENT ? " (create it with `h2emv init`)" : "");
		/* another process may be creating it at the same moment (an
		 * importer and an ingest on both ends of a pipe) */
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			return eng_fail(err, H2EMV_EIO, "cannot create %s: %s", dir, strerror(errno));
	} else if (!S_ISDIR(st.st_mode)) {
		return eng_fail(err, H2EMV_EINVAL, "%s is not a directory", dir);
	}
	/* no store but a lock file: it may be being created (take_dir_lock
	 * waits for its creator and looks again) */
	if (!create && !gen_store_exists(dir) && !lock_file_exists(dir))
		return eng_fail(err, H2EMV_ENOTFOUND,
		                "no h2emv memory in %s (create one with `h2emv init %s`)", dir, dir);
	return H2EMV_OK;
}
