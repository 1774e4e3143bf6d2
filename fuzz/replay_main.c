/*
 * replay_main.c — a fuzz target without libFuzzer: calls
 * LLVMFuzzerTestOneInput once on each file named and on each file of each
 * folder named (in name order, dot files left out), as libFuzzer does with a
 * crash file. Every fuzz/fuzz_*.c is linked with it when the fuzzers are not
 * built (a gcc build, the sanitizer build), and ctest replays the fuzzer's
 * corpus, crash files kept there included (fuzz_replay_NAME). A crash, a
 * trap or a sanitizer report fails the run, and so does finding no input.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read `path` into a buffer of its exact size (so that a read past the end
 * is one past the allocation); *len its size. NULL on failure, said. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	size_t n = (size_t)st.st_size;
	uint8_t *buf = malloc(n ? n : 1);
	size_t got = buf ? fread(buf, 1, n, f) : 0;
	if (fclose(f) != 0 || !buf || got != n) {
		fprintf(stderr, "%s: cannot read it\n", path);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static int replay_file(const char *path)
{
	size_t len = 0;
	uint8_t *data = slurp(path, &len);
	if (!data)
		return -1;
	fprintf(stderr, "replay %s (%zu bytes)\n", path, len);
	(void)LLVMFuzzerTestOneInput(data, len);
	free(data);
	return 0;
}

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Every regular file of `dir`; *count grows by how many were replayed. */
static int replay_dir(const char *dir, size_t *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, not_dot, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		int w = snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (w < 0 || (size_t)w >= sizeof path || stat(path, &st) != 0)
			rc = -1;
		else if (S_ISREG(st.st_mode) && replay_file(path) == 0)
			(*count)++;
		else if (S_ISREG(st.st_mode))
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count) != 0)
				rc = 1;
		} else if (replay_file(argv[i]) == 0) {
			count++;
		} else {
			rc = 1;
		}
	}
	if (count == 0) {
		fprintf(stderr, "usage: %s FILE|DIR...: no input replayed\n", argv[0]);
		return 1;
	}
	fprintf(stderr, "replayed %zu inputs\n", count);
	return rc;
}
