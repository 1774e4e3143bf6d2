/*
 * cli.c — helpers shared by the subcommands (see cli.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"

int cli_read_only;

const char *cli_mem_dir(const char *opt)
{
	if (opt && *opt)
		return opt;
	if (opt) {
		/* `-m ''` or `-m "$UNSET"`: a script bug, never ./h2emv-memory */
		fprintf(stderr, "h2emv: -m/--mem needs a directory, not an empty string\n"
		                "Try 'h2emv --help'.\n");
		exit(EXIT_USAGE);
	}
	const char *env = getenv("H2EMV_MEM");
	return env && *env ? env : "h2emv-memory";
}

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

int cli_basic_opts(int argc, char **argv, const char *cmd, const char *help, const char **mem,
                   int *json)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		if (c == 'm')
			*mem = optarg;
		else if (c == 'j' && json)
			*json = 1;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return cli_usage(cmd, "unknown option");
	}
	return -1;
}

int cli_no_operands(int argc, char **argv, const char *cmd)
{
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return -1;
}

h2emv_mem *cli_open(const char *dir, unsigned flags)
{
	if (cli_read_only && !(flags & H2EMV_OPEN_READONLY)) {
		fprintf(stderr,
		        "h2emv: this command writes to the memory, and --read-only forbids it (%s); "
		        "check, stats, ask, inspect, snapshots list, rules list and config (no "
		        "changes) only read\n",
		        dir);
		return NULL;
	}
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = flags;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_open(&m, dir, &o, &err);
	if (rc) {
		/* a damaged store ends the command with its own exit status */
		if (cli_fail("open", rc, &err) == EXIT_DAMAGED)
			exit(EXIT_DAMAGED);
		return NULL;
	}
	/* the policy: h2emv --policy NAME / $H2EMV_POLICY (builtin when unset) */
	const char *policy = getenv("H2EMV_POLICY");
	if (policy && *policy && strcmp(policy, "builtin")) {
		rc = h2emv_mem_set_policy(m, policy, getenv("H2EMV_LLM_CONFIG"), &err);
		if (rc) {
			cli_fail("policy", rc, &err);
			h2emv_mem_close(m);
			return NULL;
		}
	}
	return m;
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

int cli_ref(h2emv_ref *out, const char *s)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	h2emv_ref r = { strtoull(s, &end, 10), 1 };
	if (*end == '.' || *end == ':') {
		const char *v = end + 1;
		if (*v < '0' || *v > '9')
			return -1;
		unsigned long ver = strtoul(v, &end, 10);
		if (ver > UINT32_MAX)
			return -1;
		r.version = (uint32_t)ver;
	}
	if (errno || *end || !r.id)
		return -1;
	*out = r;
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
