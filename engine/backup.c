/*
 * backup.c — a hot copy of a live store into a new directory. LMDB copies
 * the environment from one read transaction (mdb_env_copyfd2 with
 * MDB_CP_COMPACT: live pages only), so writers go on meanwhile and the copy
 * is the store as committed when it began. It is written into a temporary
 * directory beside the destination, synced and renamed, so the destination
 * appears complete or not at all. The copy is taken from the open
 * environment, never from the files by name, so it holds whatever data
 * file the environment has open now.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/env.h"

/* The name of the data file inside a memory directory, as eng_open
 * expects it. */
#define BACKUP_DATA "data.mdb"
#define BACKUP_LOCK "h2emv.lock"
#define GROW_WAIT 10

static int sync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

/* Remove the temporary directory and what we put in it. */
static void drop_tmp(const char *tmp)
{
	char p[4200];
	snprintf(p, sizeof p, "%s/" BACKUP_DATA, tmp);
	unlink(p);
	snprintf(p, sizeof p, "%s/" BACKUP_LOCK, tmp);
	unlink(p);
	snprintf(p, sizeof p, "%s/lock.mdb", tmp);
	unlink(p);
	rmdir(tmp);
}

/* Copy the environment into `fd` from a read transaction of this process.
 * The gate keeps this process from remapping meanwhile; when another
 * process grew the map first, adopt its size and start over. */
static int copy_env(eng_env *env, int fd, h2emv_error *err)
{
	for (int tries = 0;; tries++) {
		/* the current generation, held while copying (a compaction may
		 * switch to a new one meanwhile: this copy finishes on the old) */
		eng_gen *g;
		int arc = gen_acquire(&g, env, err);
		if (arc)
			return arc;
		gate_read_enter(&env->gate);
		int rc = mdb_env_copyfd2(g->mdb, fd, MDB_CP_COMPACT);
		gate_read_exit(&env->gate);
		MDB_env *mdb = g->mdb;
		if (rc != MDB_MAP_RESIZED || tries >= 3) {
			gen_release(env, g);
			return rc ? env_err(err, rc, "backup: copying the store") : H2EMV_OK;
		}
		if (gate_remap_begin(&env->gate, GROW_WAIT) != H2EMV_OK) {
			gen_release(env, g);
			return eng_fail(err, H2EMV_EBUSY, "backup: the memory grew; close the "
			                "snapshots open in this process and retry");
		}
		rc = mdb_env_set_mapsize(mdb, 0);
		gate_remap_end(&env->gate);
		gen_release(env, g);
		if (rc)
			return env_err(err, rc, "backup: adopting the map another process grew");
		if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
			return eng_fail(err, H2EMV_EIO, "backup: %s", strerror(errno));
	}
}

/* The directory `dest` will be in must exist; `dest` must not. */
static int check_dest(const char *dest, h2emv_error *err)
{
	struct stat st;
	if (!*dest || strlen(dest) > 4000)
		return eng_fail(err, H2EMV_EINVAL, "backup: the destination path is empty or too long");
	if (lstat(dest, &st) == 0)
		return eng_fail(err, H2EMV_EEXIST, "%s already exists: a backup goes to a new directory",
		                dest);
	if (errno != ENOENT)
		return eng_fail(err, H2EMV_EIO, "backup: %s: %s", dest, strerror(errno));
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", dest);
	const char *parent = dirname(copy);
	if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
		return eng_fail(err, H2EMV_ENOTFOUND,
		                "the directory %s (where the backup would go) does not exist", parent);
	return H2EMV_OK;
}

/* rename(2) that refuses to replace an (empty) directory created at `to`
 * meanwhile, where the filesystem can say so. */
static int rename_new(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	return rename(from, to);
}

static int write_copy(eng_env *env, const char *tmp, uint64_t *bytes, h2emv_error *err)
{
	char path[4200];
	if (snprintf(path, sizeof path, "%s/" BACKUP_LOCK, tmp) >= (int)sizeof path)
		return eng_fail(err, H2EMV_EINVAL, "backup: the destination path is too long");
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || close(fd) != 0)
		return eng_fail(err, errno == ENOSPC ? H2EMV_ENOSPC : H2EMV_EIO, "backup: %s: %s",
		                path, strerror(errno));
	if (snprintf(path, sizeof path, "%s/" BACKUP_DATA, tmp) >= (int)sizeof path)
		return eng_fail(err, H2EMV_EINVAL, "backup: the destination path is too long");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return eng_fail(err, H2EMV_EIO, "backup: %s: %s", path, strerror(errno));
	int rc = copy_env(env, fd, err);
	struct stat st;
	if (rc == H2EMV_OK && (fsync(fd) != 0 || fstat(fd, &st) != 0))
		rc = eng_fail(err, errno == ENOSPC ? H2EMV_ENOSPC : H2EMV_EIO, "backup: syncing %s: %s",
		              path, strerror(errno));
	if (close(fd) != 0 && rc == H2EMV_OK)
		rc = eng_fail(err, errno == ENOSPC ? H2EMV_ENOSPC : H2EMV_EIO, "backup: closing %s: %s",
		              path, strerror(errno));
	if (rc == H2EMV_OK && sync_path(tmp) != 0)
		rc = eng_fail(err, H2EMV_EIO, "backup: syncing %s: %s", tmp, strerror(errno));
	if (rc == H2EMV_OK && bytes)
		*bytes = (uint64_t)st.st_size;
	return rc;
}

int eng_backup(eng_env *env, const char *dest, uint64_t *bytes, h2emv_error *err)
{
	int rc = check_dest(dest, err);
	if (rc)
		return rc;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.partial-XXXXXX", dest);
	if (!mkdtemp(tmp))
		return eng_fail(err, errno == ENOSPC ? H2EMV_ENOSPC : H2EMV_EIO,
		                "backup: creating a directory beside %s: %s", dest, strerror(errno));
	if (chmod(tmp, 0755) != 0) { /* mkdtemp makes it private; a memory directory is not */
		rc = eng_fail(err, H2EMV_EIO, "backup: %s: %s", tmp, strerror(errno));
		drop_tmp(tmp);
		return rc;
	}
	rc = write_copy(env, tmp, bytes, err);
	if (rc == H2EMV_OK && rename_new(tmp, dest) != 0)
		rc = eng_fail(err, errno == EEXIST || errno == ENOTEMPTY ? H2EMV_EEXIST : H2EMV_EIO,
		              "backup: renaming the copy to %s: %s", dest, strerror(errno));
	if (rc) {
		drop_tmp(tmp);
		return rc;
	}
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", dest);
	if (sync_path(dirname(copy)) != 0)
		return eng_fail(err, H2EMV_EIO, "backup: syncing the directory of %s: %s", dest,
		                strerror(errno));
	return H2EMV_OK;
}
