/*
 * powercut.c — power-loss simulation. A workload (acknowledged ingest
 * batches, `h2emv ingest`, build, gc, compact) runs under the I/O recorder
 * (iolog.c), which logs every write, sync and directory change in the
 * memory directory and every acknowledgement. Then, at random points of the
 * log, the directory is rebuilt as a disk could hold it after losing power
 * there (replay.c), and: `h2emv check` passes, every observation
 * acknowledged before the cut reads back, the newest snapshot reaches the
 * build cursor of every build finished before the cut, and the memory takes
 * a new observation.
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
#include <unistd.h>

#include "h2emv.h"
#include "fault.h"
#include "iolog.h"
#include "powercut.h"
#include "replay.h"

/* ---------------------------------------------------- the recording -- */

typedef struct rec_ctx {
	const char *self, *work;
	char mem[4200], log[4200], acks[4200];
	char env_preload[4300], env_log[4300], env_dir[4300];
	int control, kill_compact;
	const char *fail_switch; /* NULL, "dirsync" or "rename" */
	uint64_t seed;
	int failed;
	fault_run last; /* the last step's end */
} rec_ctx;

static int append_record(const char *log, uint32_t type, uint64_t ino, const char *name,
                         const void *data, size_t len)
{
	int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	size_t nl = name ? strlen(name) : 0;
	iolog_rec h = { IOLOG_MAGIC, type, (uint32_t)getpid(), (uint32_t)nl, ino, 0, len };
	size_t total = sizeof h + nl + len;
	char *buf = malloc(total);
	int rc = -1;
	if (buf) {
		memcpy(buf, &h, sizeof h);
		if (nl)
			memcpy(buf + sizeof h, name, nl);
		if (len)
			memcpy(buf + sizeof h + nl, data, len);
		rc = write(fd, buf, total) == (ssize_t)total ? 0 : -1;
	}
	free(buf);
	return close(fd) == 0 ? rc : -1;
}

/* Every file of the freshly made memory, synced, as the recording's start. */
static int record_base(rec_ctx *c)
{
	sync();
	DIR *d = opendir(c->mem);
	if (!d)
		return -1;
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		char path[4500];
		snprintf(path, sizeof path, "%s/%s", c->mem, de->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		size_t len;
		char *data = fault_slurp(path, &len);
		if (!data || append_record(c->log, IOLOG_BASE, st.st_ino, de->d_name, data, len))
			rc = -1;
		free(data);
	}
	closedir(d);
	return rc;
}

/* Run one workload step under the recorder. `extra` is one more environment
 * entry or NULL; with `may_die` the step is meant to be killed midway. */
static int run_step(rec_ctx *c, char *const argv[], int with_ack, int out_fd, char *extra,
                    int may_die)
{
	char ackenv[] = "H2EMV_IOLOG_ACK_FD=1", forget[] = "H2EMV_IOLOG_FORGET_SYNC=1";
	char *env[7] = { c->env_preload, c->env_log, c->env_dir };
	int n = 3;
	if (with_ack)
		env[n++] = ackenv;
	if (c->control)
		env[n++] = forget;
	if (extra)
		env[n++] = extra;
	env[n] = NULL;
	fault_run run = { 0 };
	int rc = fault_spawn(&run, argv, env, out_fd, -1, 600);
	c->last = run;
	if (rc != 0 || (!may_die && (!run.exited || run.code != 0))) {
		fprintf(stderr, "powercut: the workload step '%s %s' failed (exit %d, signal %d)\n",
		        argv[0], argv[1], run.code, run.signal);
		return -1;
	}
	return 0;
}

static int step_driver(rec_ctx *c, uint64_t first, uint64_t count)
{
	char a_first[32], a_count[32], a_seed[32];
	snprintf(a_first, sizeof a_first, "%" PRIu64, first);
	snprintf(a_count, sizeof a_count, "%" PRIu64, count);
	snprintf(a_seed, sizeof a_seed, "%" PRIu64, fault_rand(&c->seed));
	char *argv[] = { (char *)c->self, "ingest", c->mem, a_first, a_count, "40", a_seed, NULL };
	int fd = open(c->acks, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = run_step(c, argv, 1, fd, NULL, 0);
	close(fd);
	return rc;
}

/* `h2emv ingest` of a file: acknowledged as a whole when it exits 0. */
static int step_cli_ingest(rec_ctx *c, uint64_t first, uint64_t count)
{
	char input[4300], summary[4300];
	snprintf(input, sizeof input, "%s/input.jsonl", c->work);
	snprintf(summary, sizeof summary, "%s/summary.json", c->work);
	FILE *f = fopen(input, "w");
	if (!f)
		return -1;
	for (uint64_t i = first; i < first + count; i++) {
		char line[1024];
		size_t n = fault_obs_line(line, sizeof line, i);
		fwrite(line, 1, n, f);
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		return -1;
	int fd = open(summary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	char *argv[] = { H2EMV_CLI, "ingest", "-m", c->mem, "-b", "25", "--json", input, NULL };
	int rc = run_step(c, argv, 0, fd, NULL, 0);
	close(fd);
	if (rc)
		return rc;
	char *js = fault_slurp(summary, NULL);
	const char *p = js ? strstr(js, "\"first_seq\":") : NULL;
	if (!p) {
		free(js);
		return -1;
	}
	unsigned long long seq = strtoull(p + 12, NULL, 10);
	free(js);
	char ack[96];
	int al = snprintf(ack, sizeof ack, "ack %llu %" PRIu64 " %" PRIu64 "\n", seq, first, count);
	if (append_record(c->log, IOLOG_ACK, 0, NULL, ack, (size_t)al))
		return -1;
	fd = open(c->acks, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	rc = fd >= 0 && write(fd, ack, (size_t)al) == al ? 0 : -1;
	if (fd >= 0)
		close(fd);
	return rc;
}

/* `h2emv build`: acknowledged when it exits 0 with its build cursor. */
static int step_build(rec_ctx *c)
{
	char summary[4300];
	snprintf(summary, sizeof summary, "%s/build.json", c->work);
	int fd = open(summary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	char *argv[] = { H2EMV_CLI, "build", "-m", c->mem, "--json", NULL };
	int rc = run_step(c, argv, 0, fd, NULL, 0);
	close(fd);
	if (rc)
		return rc;
	char *js = fault_slurp(summary, NULL);
	const char *p = js ? strstr(js, "\"build_cursor\":") : NULL;
	if (!p) {
		free(js);
		return -1;
	}
	char ack[64];
	int al = snprintf(ack, sizeof ack, "built %llu\n", strtoull(p + 15, NULL, 10));
	free(js);
	return append_record(c->log, IOLOG_ACK, 0, NULL, ack, (size_t)al);
}

static int step_cli(rec_ctx *c, const char *cmd, const char *arg1, const char *arg2)
{
	char *argv[] = { H2EMV_CLI, (char *)cmd, "-m", c->mem, "-q", (char *)arg1, (char *)arg2,
		         NULL };
	if (!strcmp(cmd, "compact")) /* compact takes no -q */
		argv[4] = NULL;
	if (c->kill_compact && !strcmp(cmd, "compact")) {
		/* killed between its rename and the directory's fsync */
		char die[] = "H2EMV_IOLOG_DIE_AT_DIRSYNC=1";
		return run_step(c, argv, 0, -1, die, 1);
	}
	if (c->fail_switch && !strcmp(cmd, "compact")) {
		/* the switch reports an I/O error: compact must fail cleanly and
		 * leave a store the next writers use safely */
		char failenv[64];
		snprintf(failenv, sizeof failenv, "H2EMV_IOLOG_FAIL_SWITCH=%s", c->fail_switch);
		if (run_step(c, argv, 0, -1, failenv, 1))
			return -1;
		/* a rename that happened is a finished switch, whatever it
		 * reported; a failed directory sync leaves it unconfirmed: an error */
		int want_error = !strcmp(c->fail_switch, "dirsync");
		if (!c->last.exited || (want_error && c->last.code == 0)) {
			fprintf(stderr, "powercut: compact under a failed switch (%s) %s\n",
			        c->fail_switch,
			        c->last.exited ? "exits 0" : "did not exit cleanly");
			return -1;
		}
		char *check[] = { H2EMV_CLI, "check", "-q", "-m", c->mem, NULL };
		return run_step(c, check, 0, -1, NULL, 0);
	}
	return run_step(c, argv, 0, -1, NULL, 0);
}

/* The workload: about n observations in all, each kind of writer twice. */
static int record(rec_ctx *c, uint64_t n)
{
	char *init[] = { H2EMV_CLI, "init", c->mem, NULL };
	fault_run run;
	if (fault_spawn(&run, init, NULL, -1, -1, 60) || !run.exited || run.code) {
		fprintf(stderr, "powercut: h2emv init failed\n");
		return -1;
	}
	if (record_base(c))
		return -1;
	uint64_t q = n / 8, at = 0;
	int rc = 0;
	rc = rc ? rc : step_driver(c, at, 3 * q);
	at += 3 * q;
	rc = rc ? rc : step_cli_ingest(c, at, q);
	at += q;
	rc = rc ? rc : step_build(c);
	rc = rc ? rc : step_driver(c, at, 2 * q);
	at += 2 * q;
	rc = rc ? rc : step_build(c);
	rc = rc ? rc : step_cli(c, "gc", "--keep=1", "--keep-log");
	rc = rc ? rc : step_cli(c, "compact", NULL, NULL);
	rc = rc ? rc : step_driver(c, at, 2 * q);
	at += 2 * q;
	rc = rc ? rc : step_build(c);
	rc = rc ? rc : step_cli(c, "gc", "--keep=2", "--keep-log");
	return rc;
}

/* ------------------------------------------------------------- cuts -- */

typedef struct figures {
	uint64_t cuts, check_failed, lost, open_failed, crashed, hung;
} figures;

static void clear_dir(const char *dir)
{
	fault_rmrf(dir);
	mkdir(dir, 0755);
}


static int one_cut(replay *r, const char *cutdir, uint64_t *rng, figures *fg, size_t cut_no)
{
	clear_dir(cutdir);
	if (replay_materialize(r, cutdir, rng))
		return -1;
	fg->cuts++;
	size_t nreq = 0;
	while (nreq < r->nacks && r->ack_at[nreq] < r->pos)
		nreq++;
	int ok = 1;
	char *check[] = { H2EMV_CLI, "check", "-q", "-m", (char *)cutdir, NULL };
	fault_run run;
	if (fault_spawn(&run, check, NULL, -1, -1, 120))
		return -1;
	if (run.timed_out) {
		fg->hung++;
		ok = 0;
		fprintf(stderr, "cut %zu (event %zu): h2emv check hung\n", cut_no, r->pos);
	} else if (run.signal) {
		fg->crashed++;
		ok = 0;
		fprintf(stderr, "cut %zu (event %zu): h2emv check died of signal %d\n", cut_no, r->pos,
		        run.signal);
	} else if (run.code != 0) {
		fg->check_failed++;
		ok = 0;
		fprintf(stderr, "cut %zu (event %zu): h2emv check exits %d\n", cut_no, r->pos,
		        run.code);
	}
	if (ok) {
		uint64_t built = 0; /* the newest finished build before the cut */
		for (size_t i = 0; i < r->nbuilt && r->built_at[i] < r->pos; i++)
			built = r->built[i] > built ? r->built[i] : built;
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0) {
			alarm(120);
			int b = fault_verify_built(cutdir, built);
			long bad = b < 0 ? -1 : fault_verify(cutdir, r->acks, nreq, 1);
			_exit(bad < 0 ? 3 : bad > 0 || b > 0 ? 4 : 0);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid)
			return -1;
		if (WIFSIGNALED(st)) {
			fg->crashed++;
			ok = 0;
			fprintf(stderr, "cut %zu (event %zu): verification died of signal %d\n", cut_no,
			        r->pos, WTERMSIG(st));
		} else if (WEXITSTATUS(st) == 3) {
			fg->open_failed++;
			ok = 0;
			fprintf(stderr, "cut %zu (event %zu): the memory does not open or take writes\n",
			        cut_no, r->pos);
		} else if (WEXITSTATUS(st) != 0) {
			fg->lost++;
			ok = 0;
			fprintf(stderr, "cut %zu (event %zu): acknowledged observations or a finished "
			                "build lost\n",
			        cut_no, r->pos);
		}
	}
	if (!ok) { /* keep the directory for a look */
		char keep[4400];
		snprintf(keep, sizeof keep, "%s.fail-%zu", cutdir, cut_no);
		fault_rmrf(keep);
		rename(cutdir, keep);
		fprintf(stderr, "  kept in %s\n", keep);
	}
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static const char usage[] =
	"usage: fault_tool powercut [--cuts N] [--obs N] [--seed S] [--keep] [--replay WORKDIR]\n"
	"                           [--control] [--kill-compact] [--fail-switch dirsync|rename]\n"
	"Records a workload under the I/O recorder and checks N simulated power cuts\n"
	"(default 100; 1200 with H2EMV_FAULT_LONG=1). --replay reuses the log of a kept\n"
	"work directory. Exit 0: every cut recovered; 1: a cut lost data or failed check.\n"
	"--control is the negative control: syncs are recorded as if they had not\n"
	"happened, so cuts must lose acknowledged data; exit 0 when they do.\n"
	"--kill-compact kills the compaction between its rename and its directory\n"
	"sync (a crash there, then later writers, then a power cut).\n"
	"--fail-switch dirsync makes that directory sync fail with EIO; --fail-switch\n"
	"rename makes the rename onto CURRENT happen but report EIO.\n";

int powercut_main(int argc, char **argv, const char *self)
{
	int long_run = fault_long();
	uint64_t cuts = long_run ? 1200 : 100, nobs = long_run ? 4000 : 1600;
	uint64_t seed = fault_seed();
	int keep = 0, control = 0, kill_compact = 0;
	const char *reuse = NULL, *fail_switch = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--cuts") && i + 1 < argc)
			cuts = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--obs") && i + 1 < argc)
			nobs = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--keep"))
			keep = 1;
		else if (!strcmp(argv[i], "--control"))
			control = 1;
		else if (!strcmp(argv[i], "--kill-compact"))
			kill_compact = 1;
		else if (!strcmp(argv[i], "--fail-switch") && i + 1 < argc &&
		         (!strcmp(argv[i + 1], "dirsync") || !strcmp(argv[i + 1], "rename")))
			fail_switch = argv[++i];
		else if (!strcmp(argv[i], "--replay") && i + 1 < argc)
			reuse = argv[++i];
		else {
			fputs(usage, stderr);
			return 64;
		}
	}
	double t0 = fault_now();
	printf("powercut: seed %" PRIu64 " (H2EMV_FAULT_SEED=%" PRIu64 " repeats the choices)\n",
	       seed, seed);
	rec_ctx c = { .self = self, .seed = seed, .control = control,
		       .kill_compact = kill_compact, .fail_switch = fail_switch };
	char *work = reuse ? strdup(reuse) : fault_tmpdir("powercut");
	if (!work)
		return 2;
	c.work = work;
	snprintf(c.mem, sizeof c.mem, "%s/mem", work);
	snprintf(c.log, sizeof c.log, "%s/io.log", work);
	snprintf(c.acks, sizeof c.acks, "%s/acks.txt", work);
	if (!reuse) {
		char *so = realpath(H2EMV_IOLOG_SO, NULL), *mem;
		mkdir(c.mem, 0755);
		mem = realpath(c.mem, NULL);
		rmdir(c.mem);
		if (!so || !mem) {
			fprintf(stderr, "powercut: cannot find %s\n", H2EMV_IOLOG_SO);
			return 2;
		}
		snprintf(c.env_preload, sizeof c.env_preload, "LD_PRELOAD=%s", so);
		snprintf(c.env_log, sizeof c.env_log, "H2EMV_IOLOG=%s", c.log);
		snprintf(c.env_dir, sizeof c.env_dir, "H2EMV_IOLOG_DIR=%s", mem);
		free(so);
		free(mem);
		if (record(&c, nobs)) {
			fprintf(stderr, "powercut: recording the workload failed; kept %s\n", work);
			return 2;
		}
	}
	double t_rec = fault_now() - t0;
	replay r;
	if (replay_load(&r, c.log))
		return 2;
	/* every acknowledgement must be true of the finished store first */
	long bad = fault_verify(c.mem, r.acks, r.nacks, 0);
	if (bad) {
		fprintf(stderr, "powercut: the live memory lacks acknowledged observations\n");
		return 1;
	}
	uint64_t nwrites = 0, nsyncs = 0, ndir = 0;
	for (size_t i = 0; i < r.nev; i++) {
		uint32_t t = r.ev[i].h.type;
		nwrites += replay_is_data_op(t);
		nsyncs += t == IOLOG_SYNC || t == IOLOG_DIRSYNC || t == IOLOG_DSYNCW;
		ndir += replay_is_dir_op(&r.ev[i]);
	}
	uint64_t acked = 0;
	for (size_t i = 0; i < r.nacks; i++)
		acked += r.acks[i].n;
	printf("powercut: recorded %zu events (%" PRIu64 " writes, %" PRIu64 " syncs, %" PRIu64
	       " directory changes, %zu acknowledgements of %" PRIu64 " observations, %zu "
	       "finished builds) in %.1f s\n",
	       r.nev, nwrites, nsyncs, ndir, r.nacks, acked, r.nbuilt, t_rec);
	size_t *at = malloc((size_t)(cuts + 1) * sizeof *at);
	if (!at)
		return 2;
	uint64_t rng = seed ^ 0x5bd1e995u;
	size_t nbase = 0; /* the starting files: a cut comes after all of them */
	while (nbase < r.nev && r.ev[nbase].h.type == IOLOG_BASE)
		nbase++;
	for (uint64_t i = 0; i < cuts; i++)
		at[i] = nbase + (size_t)fault_below(&rng, r.nev - nbase + 1);
	qsort(at, (size_t)cuts, sizeof *at, cmp_size);
	char cutdir[4300];
	snprintf(cutdir, sizeof cutdir, "%s/cut", work);
	figures fg = { 0 };
	for (uint64_t i = 0; i < cuts; i++) {
		if (replay_advance(&r, at[i]) || one_cut(&r, cutdir, &rng, &fg, (size_t)i)) {
			fprintf(stderr, "powercut: the replay failed at cut %" PRIu64 "\n", i);
			return 2;
		}
	}
	/* (without syncs in the log, a rename never becomes durable: no self-test) */
	int self_ok = control || replay_self_test(&r, c.mem) == 0;
	uint64_t failures = fg.check_failed + fg.lost + fg.open_failed + fg.crashed + fg.hung;
	printf("powercut: %" PRIu64 " cuts: %" PRIu64 " writes kept, %" PRIu64 " torn, %" PRIu64
	       " dropped, %" PRIu64 " in-flight torn, %" PRIu64 " directory changes dropped\n",
	       fg.cuts, r.writes_kept, r.writes_torn, r.writes_dropped, r.inflight_torn,
	       r.dirops_dropped);
	printf("powercut: check failed %" PRIu64 ", lost %" PRIu64 ", did not open %" PRIu64
	       ", crashed %" PRIu64 ", hung %" PRIu64 "; self-test %s; %.1f s in all\n",
	       fg.check_failed, fg.lost, fg.open_failed, fg.crashed, fg.hung,
	       self_ok ? "ok" : "FAILED", fault_now() - t0);
	int fail = failures || !self_ok;
	if (control) { /* the simulator must see what a missing sync costs */
		printf("powercut: negative control: %s\n",
		       failures ? "the cuts found the losses, as they must"
		                : "NO LOSS FOUND: the simulator cannot see missing syncs");
		fail = !failures;
	}
	if (keep || fail)
		printf("powercut: work directory kept: %s\n", work);
	else
		fault_rmrf(work);
	free(work);
	free(at);
	return fail ? 1 : 0;
}
