/*
 * bench_util.h — what the benchmark programs share: a monotonic clock,
 * medians, a seeded random generator, scratch directories and a
 * description of the machine the figures were measured on.
 */
#ifndef H2EMV_BENCH_UTIL_H
#define H2EMV_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Monotonic time in seconds. */
double bench_now(void);

/* The median of v[0..n) (sorts v in place); 0 for n == 0. */
double bench_median(double *v, size_t n);

/* splitmix64: small, fast, and the same sequence on every machine. */
typedef struct bench_rng {
	uint64_t s;
} bench_rng;

uint64_t bench_rng_next(bench_rng *r);
/* Uniform in [lo, hi] (inclusive). */
uint32_t bench_rng_range(bench_rng *r, uint32_t lo, uint32_t hi);
/* Uniform in [0, 1). */
double bench_rng_unit(bench_rng *r);
/* A random element of a NULL-free array of n strings. */
const char *bench_rng_pick(bench_rng *r, const char *const *v, size_t n);
#define BENCH_PICK(r, arr) bench_rng_pick((r), (arr), sizeof(arr) / sizeof((arr)[0]))

/* Remove a directory tree we created (files and subdirectories). */
int bench_rmtree(const char *path);

/* Create `parent`/`name` (a fresh, empty directory) and write its path
 * into out[cap]. An existing one is removed first. */
int bench_subdir(char *out, size_t cap, const char *parent, const char *name);

/* Size in bytes of a file, 0 if missing. */
uint64_t bench_file_size(const char *path);

/* Print "machine: nproc N, <model from /proc/cpuinfo>; load average ...". */
void bench_print_machine(FILE *f);

/* Abort the benchmark with a message: a failure here is a broken setup,
 * not a figure to report. */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
