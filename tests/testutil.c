/* testutil.c — helpers shared by the tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

char *tu_tmpdir(const char *tag)
{
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	size_t n = strlen(base) + strlen(tag) + 32;
	char *p = malloc(n);
	if (!p)
		abort();
	snprintf(p, n, "%s/h2emv-%s-XXXXXX", base, tag);
	if (!mkdtemp(p)) {
		perror("mkdtemp");
		abort();
	}
	return p;
}

void tu_rmrf(const char *path)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", path);
}

char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)n + 1);
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	if (p) {
		p[n] = 0;
		if (len)
			*len = (size_t)n;
	}
	return p;
}
