/*
 * compact.c — give freed space back to the disk. LMDB reuses freed pages
 * but never shrinks its file, and the bytes of deleted records linger in
 * free pages. Compaction copies the live pages into a new file
 * (mdb_env_copyfd2 with MDB_CP_COMPACT), syncs it, and renames it over the
 * old one, so a crash leaves either file whole. It needs the memory to
 * itself: the directory lock goes exclusive for the duration.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/env.h"

static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

/* Copy, sync and swap. Called with every lock held exclusively. */
static int copy_and_swap(eng_env *env, uint64_t *after, h2emv_error *err)
{
	char tmp[4200], data[4200];
	snprintf(tmp, sizeof tmp, "%s/data.mdb.compact", env->dir);
	snprintf(data, sizeof data, "%s/data.mdb", env->dir);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return env_err(err, errno, "compact: creating the copy");
	int rc = mdb_env_copyfd2(env->mdb, fd, MDB_CP_COMPACT);
	if (rc == 0 && fsync(fd) != 0)
		rc = errno;
	if (close(fd) != 0 && rc == 0)
		rc = errno;
	if (rc) {
		unlink(tmp);
		return env_err(err, rc, "compact: writing the copy");
	}
	*after = file_size(tmp);
	mdb_env_close(env->mdb);
	env->mdb = NULL;
	if (rename(tmp, data) != 0) {
		rc = errno;
		unlink(tmp);
		int rrc = env_reopen(env, err);
		return rrc ? rrc : env_err(err, rc, "compact: swapping the files");
	}
	rc = sync_dir(env->dir) && errno == EIO ? EIO : 0; /* else the swap may not last */
	int rrc = env_reopen(env, err);
	return rrc ? rrc : rc ? env_err(err, rc, "compact: syncing the directory") : H2EMV_OK;
}

int eng_compact(eng_env *env, uint64_t *before, uint64_t *after, h2emv_error *err)
{
	if (env->flags & H2EMV_OPEN_READONLY)
		return eng_fail(err, H2EMV_EREADONLY, "the memory at %s is open read-only", env->dir);
	char data[4200];
	snprintf(data, sizeof data, "%s/data.mdb", env->dir);
	uint64_t b = file_size(data), a = b;
	pthread_mutex_lock(&env->wlock);
	int rc = H2EMV_OK;
	if (before)
		*before = b;
	if (after)
		*after = b;
	if (gate_remap_begin(&env->gate, 0) != H2EMV_OK) {
		pthread_mutex_unlock(&env->wlock);
		return eng_fail(err, H2EMV_EBUSY, "compact: close the snapshots open in this process first");
	}
	if (flock(env->lockfd, LOCK_EX | LOCK_NB) != 0) {
		/* Linux may have dropped our shared lock trying to convert it */
		flock(env->lockfd, LOCK_SH);
		rc = eng_fail(err, H2EMV_EBUSY,
		              "compact: another process has %s open; compaction needs it alone",
		              env->dir);
	} else {
		rc = copy_and_swap(env, &a, err);
		flock(env->lockfd, LOCK_SH);
		if (rc == H2EMV_OK)
			env->broken = 0;
		else if (!env->mdb)
			env->broken = 1;
	}
	gate_remap_end(&env->gate);
	pthread_mutex_unlock(&env->wlock);
	if (after)
		*after = rc == H2EMV_OK ? a : b;
	return rc;
}
