/*
 * fuzz_pages.c — the hand-written reader of LMDB's file format (the
 * integrity gate, check's page pass, salvage) against hostile files: any
 * bytes as a data file must give OK or an error from pg_open, pg_named,
 * pg_walk and pg_scan_orphans, never a crash, a hang or a huge allocation.
 * The seed is a fresh memory's data file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/pages.h"

static const char *const names[] = { "meta", "obs", "nodes", "snapshots", "rules",
	                             "relcache", "dead", "pins", "dicts" };

static int count(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
	uint64_t *n = ctx;
	/* touch every byte handed out: out-of-bounds reads must show here */
	for (size_t i = 0; i < kn; i++)
		*n += k[i];
	for (size_t i = 0; i < vn; i++)
		*n += v[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("pages", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	for (int mode = 0; mode < 3; mode++) {
		pg_file f;
		if (pg_open_meta(&f, path, mode, NULL) != H2EMV_OK)
			continue;
		uint64_t sum = 0;
		pg_walker w = { .mode = PG_RECORDS, .ctx = &sum, .on_record = count };
		pg_walk(&f, &f.free_db, 1, &w);
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			pg_db d;
			if (pg_named(&d, &f, names[i], NULL) != H2EMV_OK)
				continue;
			pg_walk(&f, &d, 0, &w);
			pg_range all = { .lon = 0 };
			pg_scan_orphans(&f, 8, &all, 1, &w);
		}
		pg_close(&f);
	}
	close(fd);
	return 0;
}
