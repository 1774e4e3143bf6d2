/* testutil.c — helpers shared by the tests. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* unshare, vasprintf */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/env.h"
#include "testutil.h"

static int tu_skipped;

void tu_skip(const char *need, const char *fmt, ...)
{
	char why[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	const char *req = getenv(need);
	if (req && !strcmp(req, "1"))
		fail_msg("%s=1, but: %s", need, why);
	fprintf(stderr, "SKIPPED: %s (%s=1 makes this a failure)\n", why, need);
	tu_skipped++;
	skip();
}

int tu_exit(int failed)
{
	if (failed)
		return failed;
	return tu_skipped ? 77 : 0;
}

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

h2emv_mem *tu_mem_tmp(const char *tag, char **dir_out)
{
	*dir_out = tu_tmpdir(tag);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE | H2EMV_OPEN_NOSYNC;
	h2emv_error e = { 0 };
	h2emv_mem *m = NULL;
	if (h2emv_mem_open(&m, *dir_out, &o, &e) != H2EMV_OK) {
		fprintf(stderr, "open %s: %s\n", *dir_out, e.message);
		return NULL;
	}
	return m;
}

h2emv_mem *tu_mem_lines(const char *tag, const char *const *lines, size_t n, char **dir_out)
{
	h2emv_mem *m = tu_mem_tmp(tag, dir_out);
	assert_non_null(m);
	h2emv_error err = { 0 };
	h2emv_config c;
	assert_int_equal(h2emv_config_get(&c, m, &err), H2EMV_OK);
	c.forgetting = H2EMV_FORGET_NONE;
	assert_int_equal(h2emv_config_set(m, &c, &err), H2EMV_OK);
	for (size_t i = 0; i < n; i++)
		if (h2emv_ingest(NULL, m, lines[i], strlen(lines[i]), &err))
			fail_msg("ingest %zu: %s", i, err.message);
	if (h2emv_build(NULL, m, NULL, &err))
		fail_msg("build: %s", err.message);
	return m;
}

h2emv_answer *tu_ask_at(h2emv_mem *m, int64_t at, const char *q)
{
	h2emv_ask_options o = H2EMV_ASK_OPTIONS_INIT;
	h2emv_error err = { 0 };
	o.at = at;
	h2emv_answer *a = NULL;
	if (h2emv_ask(&a, m, q, &o, &err))
		fail_msg("ask '%s': %s", q, err.message);
	return a;
}

void tu_expect_at(h2emv_mem *m, int64_t at, const char *q, const char *want,
                  const char *not_want)
{
	h2emv_answer *a = tu_ask_at(m, at, q);
	if (!strstr(a->text, want) || (not_want && strstr(a->text, not_want)))
		fail_msg("'%s' answered '%s', expected '%s'%s%s", q, a->text, want,
		         not_want ? " and not " : "", not_want ? not_want : "");
	h2emv_answer_free(a);
}

void tu_close_rm(h2emv_mem *m, char *dir)
{
	h2emv_mem_close(m);
	tu_rmrf(dir);
	free(dir);
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

int tu_run(char **out, const char *fmt, ...)
{
	char *cmd = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		cmd = NULL;
	va_end(ap);
	FILE *p = cmd ? popen(cmd, "r") : NULL;
	free(cmd);
	if (!p)
		abort();
	size_t cap = 1 << 16, n = 0, got;
	char *buf = calloc(1, cap);
	if (!buf)
		abort();
	while (n + 1 < cap && (got = fread(buf + n, 1, cap - n - 1, p)) > 0)
		n += got;
	int st = pclose(p);
	*out = buf;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

pid_t tu_cli_spawn(const char *const *args, const char *errlog, int flags, unsigned alarm_s)
{
	const char *argv[32];
	size_t n = 0;
	argv[n++] = H2EMV_CLI;
	while (args[n - 1] && n < 31) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		int errfd = open(errlog, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (null < 0 || errfd < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
		    dup2(errfd, 2) < 0)
			_exit(126);
		if ((flags & TU_CLI_NO_GUARD) && setenv("H2EMV_NO_GUARD", "1", 1))
			_exit(126);
		if (alarm_s)
			alarm(alarm_s);
		execv(H2EMV_CLI, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

int tu_wait(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

char *tu_fmt(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		abort();
	return s;
}

void tu_ingestf(h2emv_mem *m, const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	h2emv_error err = { 0 };
	if (h2emv_ingest(NULL, m, line, strlen(line), &err)) {
		fprintf(stderr, "ingest refused %s: %s\n", line, err.message);
		abort();
	}
}

void tu_transport(h2emv_mem *m, int64_t t, const char *obj, const char *dest)
{
	tu_ingestf(m,
	           "{\"t\":%lld,\"action\":{\"name\":\"Pickup\",\"args\":{\"object\":\"%s_0\"},"
	           "\"status\":\"succeeded\"},\"location\":\"kitchen\",\"objects\":[{\"id\":\"%s_0\","
	           "\"type\":\"%s\"}]}",
	           (long long)t, obj, obj, obj);
	tu_ingestf(m,
	           "{\"t\":%lld,\"action\":{\"name\":\"Place\",\"args\":{\"object\":\"%s_0\","
	           "\"target\":\"%s_0\"},\"status\":\"succeeded\"},\"location\":\"kitchen\","
	           "\"objects\":[{\"id\":\"%s_0\",\"type\":\"%s\"}],\"relations\":[{\"from\":"
	           "\"%s_0\",\"to\":\"%s_0\",\"type\":\"on\"}]}",
	           (long long)(t + 10000000), obj, dest, obj, obj, obj, dest);
}

void tu_chores(h2emv_mem *m, int64_t t0, int day)
{
	const int64_t us = 1000000;
	int64_t t = t0 + day * 86400 * us + 9 * 3600 * us;
	tu_transport(m, t, "cup", day % 2 ? "sink" : "table");
	tu_transport(m, t + 60 * us, "plate", "shelf");
	tu_ingestf(m,
	           "{\"t\":%lld,\"action\":{\"name\":\"WaterPlant\",\"args\":{\"plant\":"
	           "\"plant_0\"},\"status\":\"succeeded\"},\"location\":\"living room\"}",
	           (long long)(t + 9 * 3600 * us));
}

h2emv_reply *tu_say(h2emv_mem *m, const char *text)
{
	h2emv_reply *r = NULL;
	h2emv_error err = { 0 };
	if (h2emv_say(&r, m, text, &err)) {
		fprintf(stderr, "say '%s': %s\n", text, err.message);
		abort();
	}
	return r;
}

int tu_marked_damaged(const char *dir)
{
	char *p = tu_fmt("%s/DAMAGED", dir);
	struct stat st;
	int r = stat(p, &st) == 0;
	free(p);
	return r;
}

int tu_data_files(const char *dir)
{
	int n = 0;
	DIR *d = opendir(dir);
	if (!d)
		abort();
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		if (!strncmp(de->d_name, "data.", 5) && len > 4 && !strcmp(de->d_name + len - 4, ".mdb"))
			n++;
	}
	closedir(d);
	return n;
}

void tu_child_default_signals(void)
{
	static const int sigs[] = { SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGSYS, SIGABRT };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], SIG_DFL);
}

typedef struct raw_put {
	int db;
	const void *key, *body;
	size_t klen, blen;
} raw_put;

static int raw_put_fn(MDB_txn *txn, eng_env *env, void *ctx, h2emv_error *err)
{
	raw_put *p = ctx;
	return env_put_record(txn, env, p->db, p->key, p->klen, p->body, p->blen, 0, 0, err);
}

int tu_kv_put_raw(eng_env *env, int kv, const void *key, size_t klen, const void *body,
                  size_t blen)
{
	raw_put p = { env_kv_db(kv), key, body, klen, blen };
	return p.db < 0 ? H2EMV_EINVAL : env_write(env, raw_put_fn, &p, NULL);
}

/* ------------------------------------------------ full-disk helpers -- */

const char *tu_mount_tmpfs(char **mountpoint, const char *tag, const char *size)
{
	static char why[512];
	*mountpoint = tu_tmpdir(tag);
	if (unshare(CLONE_NEWNS) != 0) {
		snprintf(why, sizeof why, "unshare(CLONE_NEWNS): %s", strerror(errno));
		return why;
	}
	char *opts = tu_fmt("size=%s,mode=0755", size);
	char *source = tu_fmt("h2emv-%s", tag);
	int rc = mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	         mount(source, *mountpoint, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0;
	if (rc)
		snprintf(why, sizeof why, "mount tmpfs on %s: %s", *mountpoint, strerror(errno));
	free(opts);
	free(source);
	return rc ? why : NULL;
}

void tu_umount_tmpfs(char *mountpoint, int mounted)
{
	if (mounted)
		umount2(mountpoint, MNT_DETACH);
	tu_rmrf(mountpoint);
	free(mountpoint);
}

int tu_cli_log(const char *errlog, char **out, const char *fmt, ...)
{
	char *args = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&args, fmt, ap) < 0)
		abort();
	va_end(ap);
	char *o = NULL;
	int rc = tu_run(&o, "'%s' %s 2>>'%s'", H2EMV_CLI, args, errlog);
	free(args);
	if (out)
		*out = o;
	else
		free(o);
	return rc;
}

void tu_write_batch(const char *path, uint64_t first, size_t n)
{
	static const char alphabet[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .";
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	for (uint64_t i = first; i < first + n; i++) {
		char note[3001];
		uint64_t x = i * 0x9E3779B97F4A7C15ull + 1;
		for (int k = 0; k < 3000; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			note[k] = alphabet[x % 64];
		}
		note[3000] = 0;
		time_t t = (time_t)(1719431337 + i * 5);
		struct tm tm;
		gmtime_r(&t, &tm);
		char ts[32];
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
		fprintf(f,
		        "{\"t\":\"%s\",\"action\":{\"name\":\"Grasp\",\"args\":{\"object\":\"cup\"},"
		        "\"status\":\"succeeded\"},\"location\":\"room-%" PRIu64 "\","
		        "\"note\":\"obs-%08" PRIu64 " %s\"}\n",
		        ts, i % 5, i, note);
	}
	if (fclose(f) != 0)
		abort();
}

uint64_t tu_free_bytes(const char *path)
{
	struct statvfs v;
	assert_int_equal(statvfs(path, &v), 0);
	return (uint64_t)v.f_bavail * v.f_frsize;
}

uint64_t tu_json_u64(const char *json, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = json ? strstr(json, pat) : NULL;
	if (!p)
		fail_msg("no \"%s\" in %s", key, json ? json : "(no output)");
	return strtoull(p + strlen(pat), NULL, 10);
}

uint64_t tu_file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}
