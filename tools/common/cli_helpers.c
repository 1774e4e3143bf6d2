/*
 * cli_helpers.c — the command-line helpers that `h2emv` (tools/) and the
 * evaluation's `h2emv-eval` (bench/eval) share (see cli_helpers.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_helpers.h" /* this folder: the public header is its one include path */

int cli_fail(const char *cmd, int status, const h2emv_error *err)
{
	const char *msg = err && err->message[0] ? err->message : h2emv_strerror(status);
	fprintf(stderr, "h2emv %s: %s (%s)\n", cmd, msg, h2emv_strerror(status));
	if (status != H2EMV_ECORRUPT)
		return EXIT_ERROR;
	if (strncmp(msg, "damaged:", 8) != 0)
		fprintf(stderr, "h2emv %s: damaged: run `h2emv check` (docs/damaged.md)\n", cmd);
	return EXIT_DAMAGED;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "h2emv %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'h2emv %s --help'.\n", cmd);
	return EXIT_USAGE;
}

const char *cli_time(char *buf, size_t n, h2emv_time t)
{
	char text[H2EMV_TIME_TEXT];
	snprintf(buf, n, "%s", h2emv_time_format(text, t, H2EMV_TIME_HUMAN));
	return buf;
}

int cli_u64(uint64_t *out, const char *s)
{
	if (!s || !*s || *s == '-')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* A non-negative number with an optional one-letter unit from `units`
 * (then nothing but `tail`, if given, may follow it): the value times the
 * unit's factor. */
typedef struct unit_def {
	char c;
	double factor;
} unit_def;

static int with_unit(double *out, const char *s, const unit_def *units, const char *const *tails)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	double f = 1;
	if (*end) {
		const unit_def *u = units;
		while (u->c && u->c != *end)
			u++;
		if (!u->c)
			return -1;
		f = u->factor;
		int ok = !end[1];
		for (const char *const *t = tails; !ok && t && *t; t++)
			ok = !strcmp(end + 1, *t);
		if (!ok)
			return -1;
	}
	*out = v * f;
	return 0;
}

int cli_duration(h2emv_time *out, const char *s)
{
	static const unit_def units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
		                      { 'w', 7 * 86400 }, { 0, 0 } };
	double v;
	if (with_unit(&v, s, units, NULL) || v * 1e6 > 9.2e18)
		return -1;
	*out = (h2emv_time)(v * 1e6);
	return 0;
}

int cli_size(uint64_t *out, const char *s)
{
	static const unit_def units[] = { { 'k', 1024.0 }, { 'K', 1024.0 },
		                      { 'm', 1048576.0 }, { 'M', 1048576.0 },
		                      { 'g', 1073741824.0 }, { 'G', 1073741824.0 },
		                      { 't', 1099511627776.0 }, { 'T', 1099511627776.0 },
		                      { 0, 0 } };
	static const char *const tails[] = { "B", "iB", NULL };
	double v;
	if (with_unit(&v, s, units, tails) || v > 1.8e19)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress_begin(cli_progress *p, const char *label, int quiet)
{
	p->on = !quiet && isatty(STDERR_FILENO);
	p->start = p->last = now_s();
	p->label = label;
}

void cli_progress_show(cli_progress *p, uint64_t done, uint64_t total, const char *unit)
{
	if (!p->on)
		return;
	double t = now_s();
	if (t - p->last < 0.1 && (!total || done < total))
		return;
	p->last = t;
	double rate = done / (t - p->start > 1e-6 ? t - p->start : 1e-6);
	if (total) {
		int width = 30, fill = (int)(width * (double)done / (double)total);
		if (fill > width)
			fill = width;
		fprintf(stderr, "\r%s [%.*s%*s] %3d%%  %.0f %s/s ", p->label, fill,
		        "##############################", width - fill, "",
		        (int)(100.0 * (double)done / (double)total), rate, unit);
	} else {
		fprintf(stderr, "\r%s %llu %s  %.0f %s/s ", p->label, (unsigned long long)done, unit,
		        rate, unit);
	}
}

void cli_progress_end(cli_progress *p)
{
	if (p->on)
		fprintf(stderr, "\r\033[K");
}

int cli_progress_cb(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	cli_progress *p = ctx;
	p->label = what;
	cli_progress_show(p, done, total, "");
	return 0;
}

int cli_when(h2emv_time *out, h2emv_mem *mem, const char *s)
{
	if (s[0] == '+') {
		h2emv_time d, base = 0;
		if (cli_duration(&d, s + 1))
			return -1;
		h2emv_snap *snap;
		if (mem && h2emv_snap_open(&snap, mem, H2EMV_SNAP_LATEST, NULL) == H2EMV_OK) {
			h2emv_snap_info info;
			h2emv_snap_get_info(&info, snap);
			base = info.t_now;
			h2emv_snap_close(snap);
		} else {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			base = (h2emv_time)ts.tv_sec * 1000000;
		}
		*out = base + d;
		return 0;
	}
	return h2emv_time_parse(out, s, NULL) == H2EMV_OK ? 0 : -1;
}
