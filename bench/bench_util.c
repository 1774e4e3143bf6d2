/*
 * bench_util.c — clock, medians, the seeded generator, scratch
 * directories and the machine description shared by the benchmarks.
 */
#include <errno.h>
#include <ftw.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_util.h"

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint64_t bench_rng_next(bench_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint32_t bench_rng_range(bench_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(bench_rng_next(r) % ((uint64_t)hi - lo + 1));
}

double bench_rng_unit(bench_rng *r)
{
	return (double)(bench_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

const char *bench_rng_pick(bench_rng *r, const char *const *v, size_t n)
{
	return v[bench_rng_next(r) % n];
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int bench_rmtree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int bench_subdir(char *out, size_t cap, const char *parent, const char *name)
{
	int n = snprintf(out, cap, "%s/%s", parent, name);
	if (n < 0 || (size_t)n >= cap)
		return -1;
	if (bench_rmtree(out) != 0)
		return -1;
	return mkdir(out, 0755);
}

uint64_t bench_file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

void bench_print_machine(FILE *f)
{
	char model[256] = "unknown";
	FILE *ci = fopen("/proc/cpuinfo", "r");
	if (ci) {
		char line[512];
		while (fgets(line, sizeof line, ci)) {
			if (strncmp(line, "model name", 10) != 0)
				continue;
			const char *v = strchr(line, ':');
			if (!v)
				continue;
			v++;
			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(model, sizeof model, "%s", v);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
		fclose(ci);
	}
	/* nproc counts the CPUs this process may run on, not those online. */
	cpu_set_t set;
	long ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
	                                                        : sysconf(_SC_NPROCESSORS_ONLN);
	fprintf(f, "machine: nproc %ld, %s", ncpu, model);
	/* Other work on the machine moves the figures; say how much there was. */
	double load[3];
	if (getloadavg(load, 3) == 3)
		fprintf(f, "; load average %.2f %.2f %.2f at start", load[0], load[1], load[2]);
	fputc('\n', f);
}

void bench_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("bench_storage: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}
