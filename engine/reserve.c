/*
 * reserve.c — space kept back so that a full disk can be recovered from
 * inside: DIR/reserve is a preallocated file, as large as the pages the
 * data file uses (at least 8 MiB), which is what a compaction's copy can
 * need. When gc or compaction find the disk full they unlink it and go on
 * in the space it held; after a compaction it is made again, if the disk
 * has room. An ordinary write (ingest, build) never takes it: it fails with
 * H2EMV_ENOSPC and leaves the reserve to the maintenance that frees space.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/env.h"
#include "engine/regfile.h"

#define RESERVE_MIN (8ull << 20)
#define MIB (1ull << 20)

static void reserve_path(char *buf, size_t cap, const char *dir)
{
	snprintf(buf, cap, "%s/reserve", dir);
}

uint64_t reserve_bytes(const char *dir)
{
	char path[4200];
	struct stat st;
	reserve_path(path, sizeof path, dir);
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t reserve_release(const char *dir)
{
	char path[4200];
	uint64_t n = reserve_bytes(dir);
	reserve_path(path, sizeof path, dir);
	return unlink(path) == 0 ? n : 0;
}

/* The pages in use in generation `g`, rounded up to a MiB, at least 8 MiB:
 * a compaction's copy holds the live pages, never more than these. */
static uint64_t reserve_target(eng_gen *g)
{
	MDB_envinfo info;
	MDB_stat st;
	if (mdb_env_info(g->mdb, &info) != 0 || mdb_env_stat(g->mdb, &st) != 0)
		return RESERVE_MIN;
	uint64_t used = ((uint64_t)info.me_last_pgno + 1) * st.ms_psize;
	used = (used + MIB - 1) / MIB * MIB;
	return used > RESERVE_MIN ? used : RESERVE_MIN;
}

void reserve_refresh(eng_env *env, eng_gen *g)
{
	uint64_t have = reserve_bytes(env->dir);
	uint64_t want = reserve_target(g);
	if (have >= want)
		return;
	/* The reserve comes before the data's growth: it takes what is free
	 * up to its target, less a MiB for the writes under way. A reserve
	 * smaller than its target still lets gc run. */
	struct statvfs vfs;
	if (statvfs(env->dir, &vfs) != 0)
		return;
	uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (free_bytes <= MIB)
		return;
	uint64_t size = want;
	if (size - have > free_bytes - MIB)
		size = have + (free_bytes - MIB) / MIB * MIB;
	if (size < RESERVE_MIN || size < have + MIB)
		return;
	struct rlimit rl; /* past the file size limit SIGXFSZ would kill us */
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    size > (uint64_t)rl.rlim_cur)
		return;
	char path[4200];
	reserve_path(path, sizeof path, env->dir);
	int fd = reg_open(path, O_RDWR | O_CREAT, 0644, NULL);
	if (fd < 0)
		return;
	if (posix_fallocate(fd, 0, (off_t)size) != 0) {
		/* give back what a partial allocation took */
		if (have == 0)
			unlink(path);
		else if (ftruncate(fd, (off_t)have) != 0)
			unlink(path);
	}
	close(fd);
}
