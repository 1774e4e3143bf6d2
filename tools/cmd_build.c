/*
 * cmd_build.c — `h2emv build`: fold the observations waiting after the
 * build cursor into the tree; with --follow, keep going as the log grows.
 */
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv build [options]\n"
	"\n"
	"Fold every observation stored after the build cursor into the memory tree:\n"
	"scenes, events and goals by rule, summaries above them through the policy\n"
	"(builtin unless configured), forgetting after every observation. Snapshots are\n"
	"committed as it goes; a build that is stopped or killed resumes where its last\n"
	"snapshot left off and reaches the same tree. Questions are answered from the\n"
	"newest snapshot meanwhile. One builder per memory at a time: while another\n"
	"runs (a build --follow holds the role until it is stopped), build says so\n"
	"and exits with status 75.\n"
	"\n"
	"  -m, --mem DIR       the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -f, --follow        keep running: fold new observations as they arrive\n"
	"                      (polls every --interval; stop with Ctrl-C, which commits)\n"
	"  -i, --interval SEC  polling interval with --follow (default 1)\n"
	"      --no-maintenance  with --follow: do not collect and compact when idle\n"
	"                      (by default, whenever no observation waits, gc runs every\n"
	"                      64 snapshots or day of the memory's clock, and compaction\n"
	"                      when a quarter of the file is free or the file passes\n"
	"                      `config --max-size`; see docs/storage.md)\n"
	"  -c, --commit N      observations per snapshot (default 1000)\n"
	"  -n, --max N         fold at most N observations, then stop\n"
	"  -q, --quiet         no progress, no summary\n"
	"      --json          the summary as JSON\n"
	"  -h, --help          this help\n"
	"\n"
	"On a full disk a build stops with exit status 4 (nothing is lost; `h2emv gc`\n"
	"and `h2emv compact` make room); build --follow says \"disk full: waiting for\n"
	"space\", counts its waits, runs gc and compaction as `serve` does there (at\n"
	"once, then at most once a minute), and goes on by itself once a write fits.\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int stop_cb(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	cli_progress_cb(ctx, what, done, total);
	return interrupted;
}

static int stop_only(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	(void)ctx, (void)what, (void)done, (void)total;
	return interrupted;
}

static int print(const h2emv_build_result *r, int json)
{
	if (json)
		return cli_print_json(json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "folded", (json_int_t)r->obs_folded,
			"snapshots", (json_int_t)r->snapshots, "forgotten", (json_int_t)r->nodes_forgotten,
			"tree_size", (json_int_t)r->tree_size, "build_cursor", (json_int_t)r->build_cursor,
			"build_tokens", (json_int_t)(r->tokens_build.prompt + r->tokens_build.completion),
			"forget_tokens",
			(json_int_t)(r->tokens_forget.prompt + r->tokens_forget.completion),
			"skipped_damaged", (json_int_t)r->obs_skipped, "missing",
			(json_int_t)r->obs_missing));
	if (r->obs_skipped || r->obs_missing)
		fprintf(stderr,
		        "h2emv build: passed over %llu damaged observations and %llu missing from "
		        "the log (a salvaged memory's gaps); `h2emv check` names damaged ones\n",
		        (unsigned long long)r->obs_skipped, (unsigned long long)r->obs_missing);
	printf("folded %llu observations (cursor %llu) in %llu snapshots; tree size %llu; "
	       "%llu nodes forgotten; tokens: build %llu, forgetting %llu\n",
	       (unsigned long long)r->obs_folded, (unsigned long long)r->build_cursor,
	       (unsigned long long)r->snapshots, (unsigned long long)r->tree_size,
	       (unsigned long long)r->nodes_forgotten,
	       (unsigned long long)(r->tokens_build.prompt + r->tokens_build.completion),
	       (unsigned long long)(r->tokens_forget.prompt + r->tokens_forget.completion));
	return EXIT_OK;
}

/* Idle: collect and compact when due (h2emv_maintain decides). On a full
 * disk (`force`): gc and compaction now, as `serve` runs them there (its
 * maintenance through the same call) and as `h2emv gc && h2emv compact`
 * would. */
static int maintenance(h2emv_mem *m, int quiet, int force, h2emv_error *err)
{
	h2emv_maintain_result r;
	/* a stop (SIGTERM) is heard between gc's batches, not after all of them */
	h2emv_maintain_options mo = H2EMV_MAINTAIN_OPTIONS_INIT;
	mo.force = force;
	mo.gc.progress = stop_only;
	int rc = h2emv_maintain(&r, m, &mo, err);
	if (quiet)
		return rc;
	if (r.gc_ran)
		fprintf(stderr,
		        "build: maintenance: gc dropped %llu snapshots, %llu node versions, %llu "
		        "observations, %llu cache entries\n",
		        (unsigned long long)r.gc.snapshots_dropped,
		        (unsigned long long)r.gc.versions_deleted,
		        (unsigned long long)r.gc.obs_reclaimed,
		        (unsigned long long)r.gc.cache_collected);
	if (r.compacted)
		fprintf(stderr, "build: maintenance: compacted %llu -> %llu bytes\n",
		        (unsigned long long)r.bytes_before, (unsigned long long)r.bytes_after);
	if (r.compact_skipped)
		fprintf(stderr, "build: maintenance: compaction skipped, no room for the copy (%s)\n",
		        r.compact_skipped_why);
	static int told;
	if (r.compact_deferred && !told)
		fprintf(stderr, "build: maintenance: compaction due, but another process has the "
		                "memory open; trying again when idle\n");
	told = r.compact_deferred;
	return rc;
}

/* What the policy did, when it was asked anything. */
static void say_policy(const h2emv_policy_stats *ps)
{
	if (ps->decisions)
		fprintf(stderr,
		        "%s policy: %llu decisions; %llu replies did not fit (%llu asked again, "
		        "%llu settled by the fallback); %llu lost to the transport\n",
		        ps->name, (unsigned long long)ps->decisions,
		        (unsigned long long)ps->bad_replies, (unsigned long long)ps->retries,
		        (unsigned long long)ps->fallbacks, (unsigned long long)ps->transport_errors);
}

/* One build's result added to the follower's totals. */
static void add_result(h2emv_build_result *total, const h2emv_build_result *r)
{
	total->obs_folded += r->obs_folded;
	total->snapshots += r->snapshots;
	total->nodes_forgotten += r->nodes_forgotten;
	total->tree_size = r->tree_size;
	total->build_cursor = r->build_cursor;
	total->tokens_build.prompt += r->tokens_build.prompt;
	total->tokens_build.completion += r->tokens_build.completion;
	total->tokens_forget.prompt += r->tokens_forget.prompt;
	total->tokens_forget.completion += r->tokens_forget.completion;
	total->obs_skipped += r->obs_skipped;
	total->obs_missing += r->obs_missing;
}

/* A full disk: is forced maintenance due (the first wait, then once a
 * minute)? */
static int full_disk_due(time_t *last, uint64_t waits)
{
	time_t now = time(NULL);
	if (waits > 1 && now - *last < 60)
		return 0;
	*last = now;
	return 1;
}

/* build --follow on a full disk: say so (the first time, then every tenth
 * wait), wait with a growing pause (1 s to 60 s, a second at a time so a
 * stop is heard) and let the caller try again. */
static void wait_for_space(const char *dir, uint64_t waits, int quiet)
{
	if (!quiet && (waits == 1 || waits % 10 == 0)) {
		struct statvfs v;
		unsigned long long avail =
			statvfs(dir, &v) == 0 ? (unsigned long long)v.f_bavail * v.f_frsize : 0;
		fprintf(stderr,
		        "h2emv build: disk full: waiting for space (wait %llu; %llu bytes free; "
		        "`h2emv gc` then `h2emv compact` make room; nothing is lost)\n",
		        (unsigned long long)waits, avail);
	}
	unsigned pause = waits < 7 ? 1u << (waits - 1) : 60;
	for (unsigned i = 0; i < pause && !interrupted; i++)
		sleep(1);
}

int cmd_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },   { "follow", no_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' }, { "commit", required_argument, NULL, 'c' },
		{ "max", required_argument, NULL, 'n' },   { "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },        { "help", no_argument, NULL, 'h' },
		{ "no-maintenance", no_argument, NULL, 'M' },
		{ 0 },
	};
	const char *mem = NULL;
	h2emv_build_options o = H2EMV_BUILD_OPTIONS_INIT;
	uint64_t interval = 1;
	int follow = 0, quiet = 0, json = 0, maintain = 1, c;
	while ((c = getopt_long(argc, argv, "m:fi:c:n:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'f': follow = 1; break;
		case 'i':
			if (cli_u64(&interval, optarg) || interval == 0 || interval > 3600)
				return cli_usage("build", "--interval takes seconds, 1 to 3600");
			break;
		case 'c':
			if (cli_u64(&o.commit_every, optarg) || o.commit_every == 0)
				return cli_usage("build", "--commit takes a positive number");
			break;
		case 'n':
			if (cli_u64(&o.max_obs, optarg) || o.max_obs == 0)
				return cli_usage("build", "--max takes a positive number");
			break;
		case 'q': quiet = 1; break;
		case 'j': json = 1; break;
		case 'M': maintain = 0; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("build", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage("build", "unexpected argument '%s'", argv[optind]);
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m)
		return EXIT_ERROR;
	h2emv_error err = { 0 };
	int rc = H2EMV_OK;
	/* --follow holds the builder role between its builds too, so a second
	 * builder is told about this one instead of slipping in while it sleeps */
	if (follow && (rc = h2emv_build_claim(m, &err)) != H2EMV_OK) {
		h2emv_mem_close(m);
		cli_fail("build", rc, &err);
		return rc == H2EMV_EBUSY ? EXIT_BUSY : EXIT_ERROR;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	cli_progress p;
	cli_progress_begin(&p, "build", quiet);
	o.progress = stop_cb;
	o.progress_ctx = &p;
	h2emv_build_result total = { 0 };
	uint64_t space_waits = 0, total_waits = 0; /* disk full: waits now, and in all */
	uint64_t full_runs = 0;                     /* ... and maintenance runs it made */
	time_t last_full = 0;
	do {
		h2emv_build_result r = { 0 };
		rc = h2emv_build(&r, m, &o, &err);
		add_result(&total, &r);
		if (follow && rc == H2EMV_OK && !interrupted && r.obs_folded == 0) {
			if (maintain)
				rc = maintenance(m, quiet || json, 0, &err);
			if (rc == H2EMV_OK)
				sleep((unsigned)interval);
		}
		if (follow && rc == H2EMV_ENOSPC && !interrupted) {
			rc = H2EMV_OK;
			space_waits++;
			if (maintain && full_disk_due(&last_full, space_waits)) {
				/* what can make room: the maintenance serve runs on a full
				 * disk, at once and then at most once a minute; the build
				 * tries again after it */
				h2emv_error merr = { 0 };
				full_runs++;
				if (maintenance(m, quiet || json, 1, &merr) == H2EMV_OK)
					continue;
				if (!json)
					fprintf(stderr, "h2emv build: maintenance on the full disk: %s\n",
					        merr.message);
			}
			wait_for_space(cli_mem_dir(mem), space_waits, json);
			continue;
		}
		if (rc == H2EMV_OK && space_waits) {
			if (!json)
				fprintf(stderr, "h2emv build: space again after %llu waits; building\n",
				        (unsigned long long)space_waits);
			total_waits += space_waits;
			space_waits = 0;
		}
	} while (follow && rc == H2EMV_OK && !interrupted);
	cli_progress_end(&p);
	h2emv_policy_stats ps;
	h2emv_mem_policy_stats(&ps, m);
	h2emv_mem_close(m);
	/* a model's replies that did not fit: said even when the build failed */
	if (!quiet && !json)
		say_policy(&ps);
	if (total_waits + space_waits && !json)
		fprintf(stderr, "h2emv build: waited %llu times for disk space (%llu maintenance "
		        "runs on the full disk)\n", (unsigned long long)(total_waits + space_waits),
		        (unsigned long long)full_runs);
	if (rc) {
		int st = cli_fail("build", rc, &err); /* EXIT_DAMAGED for damage */
		if (rc == H2EMV_ENOSPC)
			fprintf(stderr, "h2emv build: disk full: nothing is lost; make room with `h2emv "
			                "gc` then `h2emv compact` and build again (or build --follow, "
			                "which waits)\n");
		return rc == H2EMV_EBUSY ? EXIT_BUSY : rc == H2EMV_ENOSPC ? EXIT_NOSPACE : st;
	}
	return quiet ? EXIT_OK : print(&total, json);
}
