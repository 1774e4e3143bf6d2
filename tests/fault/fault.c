/*
 * fault.c — shared pieces of the fault tests: the observation generator,
 * the acknowledged-ingest driver, the survival check and process spawning
 * with a time limit (see fault.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h2emv.h"
#include "fault.h"

uint64_t fault_rand(uint64_t *s)
{
	/* splitmix64: any seed, including 0, gives a good sequence */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fault_below(uint64_t *s, uint64_t n)
{
	return fault_rand(s) % n;
}

double fault_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int fault_long(void)
{
	const char *v = getenv("H2EMV_FAULT_LONG");
	return v && *v && strcmp(v, "0") != 0;
}

uint64_t fault_seed(void)
{
	const char *v = getenv("H2EMV_FAULT_SEED");
	if (v && *v)
		return strtoull(v, NULL, 0);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
}

/* ------------------------------------------------------ observations -- */

size_t fault_obs_line(char *buf, size_t cap, uint64_t i)
{
	static const char *const places[] = { "kitchen", "hallway", "living room", "bedroom" };
	static const char *const objs[] = { "cup", "plate", "keys", "book", "apple", "sponge" };
	static const char *const goals[] = { "Tidy", "ServeDrink", "Clean", "FetchKeys" };
	static const char *const verbs[] = { "MoveTo", "Pick", "Place", "Wipe" };
	/* 15 s apart, with a night (8 h) every 500 observations, from 2024-03-01 */
	time_t t = (time_t)(1709280000 + i * 15 + (i / 500) * 8 * 3600);
	struct tm tm;
	gmtime_r(&t, &tm);
	char ts[32];
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	const char *place = places[(i / 40) % 4];
	const char *obj = objs[(i / 3) % 6];
	const char *goal = goals[(i / 20) % 4];
	const char *verb = verbs[i % 4];
	int n;
	if (i % 11 == 5)
		n = snprintf(buf, cap,
		             "{\"t\":\"%s\",\"speech\":{\"speaker\":\"Alice\",\"text\":\"Please "
		             "bring the %s to the %s.\"},\"persons\":[{\"name\":\"Alice\"}],"
		             "\"location\":\"%s\",\"note\":\"fault-obs-%" PRIu64 "\"}",
		             ts, obj, place, place, i);
	else
		n = snprintf(buf, cap,
		             "{\"t\":\"%s\",\"action\":{\"name\":\"%s\",\"args\":{\"target\":\"%s_%u\"},"
		             "\"status\":\"%s\"},\"goal\":[\"%s\",\"%s\"],\"location\":\"%s\","
		             "\"objects\":[{\"id\":\"%s_%u\",\"type\":\"%s\",\"state\":\"%s\"}],"
		             "\"note\":\"fault-obs-%" PRIu64 "\"}",
		             ts, verb, obj, (unsigned)(i % 5), i % 13 == 7 ? "failed" : "succeeded", goal,
		             verb, place, obj, (unsigned)(i % 5), obj, i % 2 ? "clean" : "dirty", i);
	return n < 0 || (size_t)n >= cap ? 0 : (size_t)n;
}

int fault_parse_acks(fault_ack **acks, size_t *n, size_t *cap, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) /* a line cut short was never acknowledged */
			break;
		fault_ack a;
		if (sscanf(p, "ack %" SCNu64 " %" SCNu64 " %" SCNu64, &a.seq, &a.first_i, &a.n) == 3) {
			if (*n == *cap) {
				size_t nc = *cap ? *cap * 2 : 256;
				fault_ack *q = realloc(*acks, nc * sizeof *q);
				if (!q)
					return -1;
				*acks = q;
				*cap = nc;
			}
			(*acks)[(*n)++] = a;
		}
		p = nl + 1;
	}
	return 0;
}

/* ------------------------------------------------------------ driver -- */

int fault_ingest_main(const char *dir, uint64_t first_i, uint64_t count, unsigned max_batch,
                      uint64_t seed, int ack_fd)
{
	h2emv_error err = { 0 };
	h2emv_mem *mem;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.dict_train_after = 300; /* so the dictionary is trained and used mid-run */
	if (h2emv_mem_open(&mem, dir, &o, &err) != H2EMV_OK) {
		fprintf(stderr, "fault ingest: %s\n", err.message);
		return 2;
	}
	enum { MAXB = 64 };
	static char lines[MAXB][1024];
	const char *ptr[MAXB];
	size_t len[MAXB];
	if (max_batch < 1 || max_batch > MAXB)
		max_batch = MAXB;
	uint64_t i = first_i, end = first_i + count;
	int status = 0;
	while (i < end) {
		size_t n = 1 + (size_t)fault_below(&seed, max_batch);
		if (n > end - i)
			n = (size_t)(end - i);
		for (size_t k = 0; k < n; k++) {
			len[k] = fault_obs_line(lines[k], sizeof lines[k], i + k);
			ptr[k] = lines[k];
		}
		uint64_t seq = 0;
		int rc = h2emv_ingest_batch(&seq, mem, ptr, len, n, &err);
		if (rc != H2EMV_OK) {
			fprintf(stderr, "fault ingest: observations %" PRIu64 "..%" PRIu64 ": %s (%s)\n", i,
			        i + n - 1, err.message, h2emv_strerror(rc));
			status = 2;
			break;
		}
		char ack[96];
		int al = snprintf(ack, sizeof ack, "ack %" PRIu64 " %" PRIu64 " %zu\n", seq, i, n);
		if (write(ack_fd, ack, (size_t)al) != al) {
			/* stored but not acknowledged: allowed, and nothing more is */
			fprintf(stderr, "fault ingest: writing the acknowledgement: %s\n", strerror(errno));
			status = 2;
			break;
		}
		i += n;
	}
	h2emv_mem_close(mem);
	return status;
}

long fault_verify(const char *dir, const fault_ack *acks, size_t n, int write_after)
{
	h2emv_error err = { 0 };
	h2emv_mem *mem;
	if (h2emv_mem_open(&mem, dir, NULL, &err) != H2EMV_OK) {
		fprintf(stderr, "verify: the memory does not open: %s\n", err.message);
		return -1;
	}
	long bad = 0;
	for (size_t a = 0; a < n; a++) {
		for (uint64_t k = 0; k < acks[a].n; k++) {
			uint64_t seq = acks[a].seq + k, i = acks[a].first_i + k;
			char *json = NULL;
			size_t jl;
			int rc = h2emv_obs_get_json(&json, &jl, mem, seq, &err);
			char want[64];
			snprintf(want, sizeof want, "\"fault-obs-%" PRIu64 "\"", i);
			if (rc != H2EMV_OK) {
				fprintf(stderr, "verify: acknowledged observation %" PRIu64 " (seq %" PRIu64
				                ") is lost: %s\n",
				        i, seq, err.message);
				bad++;
			} else if (!strstr(json, want)) {
				fprintf(stderr, "verify: seq %" PRIu64 " should be observation %" PRIu64
				                " but reads %.200s\n",
				        seq, i, json);
				bad++;
			}
			h2emv_free(json);
		}
	}
	if (write_after) {
		char line[1024];
		/* the first observation's time: earlier than the clock, so stored
		 * (out of order) whatever the cut left */
		size_t l = fault_obs_line(line, sizeof line, 0);
		uint64_t seq;
		if (h2emv_ingest(&seq, mem, line, l, &err) != H2EMV_OK) {
			fprintf(stderr, "verify: the recovered memory refuses a new observation: %s\n",
			        err.message);
			bad = bad ? bad : -1;
		}
	}
	h2emv_mem_close(mem);
	return bad;
}

int fault_verify_built(const char *dir, uint64_t cursor)
{
	h2emv_error err = { 0 };
	h2emv_mem *mem;
	if (h2emv_mem_open(&mem, dir, NULL, &err) != H2EMV_OK) {
		fprintf(stderr, "verify: the memory does not open: %s\n", err.message);
		return -1;
	}
	h2emv_snap_info *list = NULL;
	size_t n = 0;
	int rc = h2emv_snap_list(&list, &n, mem, &err);
	uint64_t best = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < n; i++)
		if (list[i].build_cursor > best)
			best = list[i].build_cursor;
	h2emv_free(list);
	h2emv_mem_close(mem);
	if (rc != H2EMV_OK) {
		fprintf(stderr, "verify: listing snapshots: %s\n", err.message);
		return -1;
	}
	if (best < cursor) {
		fprintf(stderr, "verify: a finished build folded observations up to %" PRIu64
		                " but the newest snapshot only reaches %" PRIu64 "\n",
		        cursor, best);
		return 1;
	}
	return 0;
}

/* --------------------------------------------------------- processes -- */

int fault_spawn(fault_run *out, char *const argv[], char *const env[], int out_fd, int err_fd,
                int timeout_s)
{
	memset(out, 0, sizeof *out);
	double t0 = fault_now();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		int nul = open("/dev/null", O_RDWR);
		dup2(nul, 0);
		dup2(out_fd >= 0 ? out_fd : nul, 1);
		if (err_fd >= 0)
			dup2(err_fd, 2);
		for (int i = 0; env && env[i]; i++)
			putenv(env[i]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int st;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (fault_now() - t0 > timeout_s && !out->timed_out) {
			out->timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	out->seconds = fault_now() - t0;
	if (WIFEXITED(st)) {
		out->exited = 1;
		out->code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		out->signal = WTERMSIG(st);
	}
	return 0;
}

char *fault_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		char *nb = realloc(buf, cap * 2 + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

void fault_rmrf(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			struct stat st;
			if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
				fault_rmrf(sub);
			else
				unlink(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

char *fault_tmpdir(const char *tag)
{
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	size_t n = strlen(base) + strlen(tag) + 32;
	char *p = malloc(n);
	if (!p)
		return NULL;
	snprintf(p, n, "%s/h2emv-%s-XXXXXX", base, tag);
	if (!mkdtemp(p)) {
		free(p);
		return NULL;
	}
	return p;
}
