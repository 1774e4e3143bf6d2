/* testutil.c — helpers shared by the tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

int tu_buf_write(void *data, const char *buf, size_t len)
{
	return eng_buf_append(data, buf, len) ? -1 : 0;
}

void tu_pack_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str_with_body(pk, s, strlen(s));
}

void tu_obs_body(eng_buf *out, uint64_t i)
{
	static const char *const actions[] = { "Grasp", "Place", "MoveTo", "Open", "Close", "Look" };
	static const char *const objects[] = { "cup", "plate", "sponge", "door", "drawer", "apple" };
	static const char *const places[] = { "kitchen", "living room", "hallway", "office" };
	char buf[64];
	msgpack_packer pk;
	out->len = 0;
	msgpack_packer_init(&pk, out, tu_buf_write);
	msgpack_pack_map(&pk, 4);
	msgpack_pack_uint8(&pk, 1);
	msgpack_pack_int64(&pk, 1719431337000000ll + (int64_t)i * 1500000);
	msgpack_pack_uint8(&pk, 3);
	msgpack_pack_map(&pk, 3);
	msgpack_pack_uint8(&pk, 1);
	tu_pack_str(&pk, actions[i % 6]);
	msgpack_pack_uint8(&pk, 2);
	msgpack_pack_map(&pk, 1);
	tu_pack_str(&pk, "object");
	snprintf(buf, sizeof buf, "%s_%u", objects[(i / 6) % 6], (unsigned)(i % 13));
	tu_pack_str(&pk, buf);
	msgpack_pack_uint8(&pk, 3);
	msgpack_pack_uint8(&pk, (uint8_t)(1 + i % 5));
	msgpack_pack_uint8(&pk, 6);
	tu_pack_str(&pk, places[(i / 7) % 4]);
	msgpack_pack_uint8(&pk, 7);
	msgpack_pack_array(&pk, 2);
	for (unsigned k = 0; k < 2; k++) {
		msgpack_pack_map(&pk, 3);
		msgpack_pack_uint8(&pk, 1);
		snprintf(buf, sizeof buf, "%s_%u", objects[(i + k) % 6], (unsigned)((i * 7 + k) % 17));
		tu_pack_str(&pk, buf);
		msgpack_pack_uint8(&pk, 2);
		tu_pack_str(&pk, objects[(i + k) % 6]);
		msgpack_pack_uint8(&pk, 3);
		tu_pack_str(&pk, k ? "on the table" : "in the gripper");
	}
}

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
