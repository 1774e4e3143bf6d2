/*
 * iofail.c — I/O errors at random points. Each run starts one writer
 * (the acknowledged-ingest driver, `h2emv ingest`, build, gc or compact)
 * under `fiu-run -x` with one libfiu POSIX failure point enabled at
 * random (pwrite, writev, write, fdatasync, fsync, open, rename; errno EIO
 * or ENOSPC; a probability per call from 2 % to 100 %), all on one memory
 * that lives through every run. A run must end cleanly: exit 0, or a
 * non-zero exit with a message on stderr; never a signal, never a hang.
 * After each run, without faults: `h2emv check` passes and every
 * observation acknowledged so far reads back.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fault.h"
#include "iofail.h"

typedef struct ctx {
	const char *self;
	char mem[4200], acks[4200], input[4200], out[4200], err[4200], msgs[4200];
	uint64_t next_i; /* the next observation number to send */
	uint64_t rng;
} ctx;

typedef struct tally {
	uint64_t runs, failed, clean_ok, crashed, hung, silent, check_failed, lost, not_recovered;
	uint64_t by_point[8];
} tally;

static const char *const points[] = {
	"posix/io/rw/pwrite", "posix/io/rw/writev", "posix/io/rw/write", "posix/io/sync/fdatasync",
	"posix/io/sync/fsync", "posix/io/oc/open", "posix/io/dir/rename",
};
#define NPOINTS (sizeof points / sizeof points[0])

static const char *const commands[] = { "driver", "ingest", "build", "gc", "compact" };

static int append_ack(const ctx *c, unsigned long long seq, uint64_t first, uint64_t n)
{
	char line[96];
	int l = snprintf(line, sizeof line, "ack %llu %" PRIu64 " %" PRIu64 "\n", seq, first, n);
	int fd = open(c->acks, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	int rc = fd >= 0 && write(fd, line, (size_t)l) == l ? 0 : -1;
	if (fd >= 0)
		close(fd);
	return rc;
}

static int write_input(const ctx *c, uint64_t first, uint64_t n)
{
	FILE *f = fopen(c->input, "w");
	if (!f)
		return -1;
	for (uint64_t i = first; i < first + n; i++) {
		char line[1024];
		size_t l = fault_obs_line(line, sizeof line, i);
		fwrite(line, 1, l, f);
		fputc('\n', f);
	}
	return fclose(f);
}

/* What `h2emv ingest --json` reported stored, whatever its exit status:
 * it promises that the lines before an error are on disk. */
static int ack_cli_summary(const ctx *c, uint64_t first)
{
	char *js = fault_slurp(c->out, NULL);
	const char *s = js ? strstr(js, "\"stored\":") : NULL;
	const char *q = js ? strstr(js, "\"first_seq\":") : NULL;
	int rc = 0;
	if (s && q) {
		uint64_t stored = strtoull(s + 9, NULL, 10);
		unsigned long long seq = strtoull(q + 12, NULL, 10);
		if (stored)
			rc = append_ack(c, seq, first, stored);
	}
	free(js);
	return rc;
}

/* Run one command, under fiu-run when `fault` is given. */
static int run_cmd(ctx *c, const char *cmd, const char *fault, fault_run *run, uint64_t *sent)
{
	char a_first[32], a_count[32], a_seed[32];
	uint64_t n = 20 + fault_below(&c->rng, 200);
	char *argv[24];
	int k = 0;
	if (fault) {
		argv[k++] = "fiu-run";
		argv[k++] = "-x";
		argv[k++] = "-f";
		argv[k++] = ""; /* no remote-control pipes in /tmp */
		argv[k++] = "-c";
		argv[k++] = (char *)fault;
	}
	*sent = 0;
	if (!strcmp(cmd, "driver")) {
		snprintf(a_first, sizeof a_first, "%" PRIu64, c->next_i);
		snprintf(a_count, sizeof a_count, "%" PRIu64, n);
		snprintf(a_seed, sizeof a_seed, "%" PRIu64, fault_rand(&c->rng));
		argv[k++] = (char *)c->self;
		argv[k++] = "ingest";
		argv[k++] = c->mem;
		argv[k++] = a_first;
		argv[k++] = a_count;
		argv[k++] = "30";
		argv[k++] = a_seed;
		*sent = n;
	} else {
		argv[k++] = H2EMV_CLI;
		argv[k++] = (char *)cmd;
		argv[k++] = "-m";
		argv[k++] = c->mem;
		if (!strcmp(cmd, "ingest")) {
			if (write_input(c, c->next_i, n))
				return -1;
			argv[k++] = "-b";
			argv[k++] = "20";
			argv[k++] = "--json";
			argv[k++] = c->input;
			*sent = n;
		} else if (!strcmp(cmd, "gc")) {
			/* the log stays whole: every acknowledged observation is
			 * checked afterwards (retention would delete forgotten ones) */
			argv[k++] = "--keep";
			argv[k++] = "2";
			argv[k++] = "--keep-log";
		}
	}
	argv[k] = NULL;
	int ofd = open(!strcmp(cmd, "driver") ? c->acks : c->out,
	               O_WRONLY | O_CREAT | (!strcmp(cmd, "driver") ? O_APPEND : O_TRUNC) | O_CLOEXEC,
	               0644);
	int efd = open(c->err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (ofd < 0 || efd < 0)
		return -1;
	int rc = fault_spawn(run, argv, NULL, ofd, efd, 120);
	close(ofd);
	close(efd);
	if (rc)
		return -1;
	if (!strcmp(cmd, "ingest") && run->exited && ack_cli_summary(c, c->next_i))
		return -1;
	c->next_i += *sent; /* numbers are never reused, stored or not */
	return 0;
}

static int after_run(ctx *c, tally *t, const char *what)
{
	char *check[] = { H2EMV_CLI, "check", "-q", "-m", c->mem, NULL };
	char *verify[] = { (char *)c->self, "verify", c->mem, c->acks, NULL };
	fault_run run;
	if (fault_spawn(&run, check, NULL, -1, -1, 120))
		return -1;
	if (!run.exited || run.code) {
		t->check_failed++;
		fprintf(stderr, "iofail: after %s: h2emv check exits %d (signal %d)\n", what, run.code,
		        run.signal);
		return 1;
	}
	if (fault_spawn(&run, verify, NULL, -1, -1, 120))
		return -1;
	if (!run.exited || run.code) {
		t->lost++;
		fprintf(stderr, "iofail: after %s: acknowledged observations are lost\n", what);
		return 1;
	}
	return 0;
}

static const char usage[] =
	"usage: fault_tool iofail [--runs N] [--seed S] [--keep]\n"
	"--keep keeps the work directory: the memory, acks.txt and messages.txt\n"
	"(each failed run's command, fault and stderr).\n"
	"Runs N writers under fiu-run with a random I/O failure point (default 40;\n"
	"400 with H2EMV_FAULT_LONG=1). Exit 0: every failure was clean and lost\n"
	"nothing; 1: otherwise; 77: fiu-run is not installed.\n";

int iofail_main(int argc, char **argv, const char *self)
{
	uint64_t runs = fault_long() ? 400 : 40, seed = fault_seed();
	int keep = 0;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--keep"))
			keep = 1;
		else {
			fputs(usage, stderr);
			return 64;
		}
	}
	if (system("command -v fiu-run >/dev/null 2>&1") != 0) {
		printf("iofail: fiu-run is not installed (apt-get install fiu-utils libfiu-dev); "
		       "skipped\n");
		return 77;
	}
	double t0 = fault_now();
	printf("iofail: seed %" PRIu64 " (H2EMV_FAULT_SEED=%" PRIu64 " repeats the choices; "
	       "libfiu draws its own random numbers)\n",
	       seed, seed);
	ctx c = { .self = self, .rng = seed };
	char *work = fault_tmpdir("iofail");
	if (!work)
		return 2;
	snprintf(c.mem, sizeof c.mem, "%s/mem", work);
	snprintf(c.acks, sizeof c.acks, "%s/acks.txt", work);
	snprintf(c.input, sizeof c.input, "%s/input.jsonl", work);
	snprintf(c.out, sizeof c.out, "%s/out.txt", work);
	snprintf(c.err, sizeof c.err, "%s/err.txt", work);
	snprintf(c.msgs, sizeof c.msgs, "%s/messages.txt", work);
	tally t = { 0 };
	fault_run run;
	uint64_t sent;
	char *init[] = { H2EMV_CLI, "init", c.mem, NULL };
	if (fault_spawn(&run, init, NULL, -1, -1, 60) || !run.exited || run.code ||
	    run_cmd(&c, "driver", NULL, &run, &sent) || !run.exited || run.code ||
	    run_cmd(&c, "build", NULL, &run, &sent) || !run.exited || run.code) {
		fprintf(stderr, "iofail: setting up the memory failed; kept %s\n", work);
		return 2;
	}
	int bad = 0;
	for (uint64_t r = 0; r < runs; r++) {
		const char *cmd = commands[fault_below(&c.rng, sizeof commands / sizeof commands[0])];
		size_t p = (size_t)fault_below(&c.rng, NPOINTS);
		static const double probs[] = { 0.02, 0.08, 0.2, 0.5, 1.0 };
		double prob = probs[fault_below(&c.rng, 5)];
		int eno = fault_below(&c.rng, 2) ? EIO : ENOSPC;
		char fault[160], what[256];
		snprintf(fault, sizeof fault, "enable_random name=%s,probability=%g,failinfo=%d",
		         points[p], prob, eno);
		snprintf(what, sizeof what, "run %" PRIu64 " (%s under '%s')", r, cmd, fault);
		if (run_cmd(&c, cmd, fault, &run, &sent)) {
			fprintf(stderr, "iofail: cannot start %s\n", what);
			return 2;
		}
		t.runs++;
		size_t elen = 0;
		char *emsg = fault_slurp(c.err, &elen);
		if (run.timed_out) {
			t.hung++;
			bad = 1;
			fprintf(stderr, "iofail: %s hung (killed after 120 s)\n", what);
		} else if (run.signal) {
			t.crashed++;
			bad = 1;
			fprintf(stderr, "iofail: %s died of signal %d; stderr: %s\n", what, run.signal,
			        emsg ? emsg : "");
		} else if (run.code != 0) {
			t.failed++;
			t.by_point[p]++;
			FILE *m = fopen(c.msgs, "a"); /* every message, for a reader to judge */
			if (m) {
				fprintf(m, "%s exits %d:\n%s\n", what, run.code, emsg ? emsg : "");
				fclose(m);
			}
			if (elen == 0) {
				t.silent++;
				bad = 1;
				fprintf(stderr, "iofail: %s exits %d without a message\n", what, run.code);
			}
		} else {
			t.clean_ok++;
		}
		free(emsg);
		int ar = after_run(&c, &t, what);
		if (ar < 0)
			return 2;
		if (ar > 0) {
			bad = 1;
			break; /* the store is no longer a fair start for the next run */
		}
		/* the next writer, without faults, must work on what is left */
		if (run_cmd(&c, "driver", NULL, &run, &sent) || !run.exited || run.code) {
			t.not_recovered++;
			bad = 1;
			fprintf(stderr, "iofail: after %s, a fault-free ingest fails\n", what);
			break;
		}
	}
	printf("iofail: %" PRIu64 " runs: %" PRIu64 " ended in an injected I/O error (", t.runs,
	       t.failed);
	for (size_t p = 0; p < NPOINTS; p++)
		printf("%s%s %" PRIu64, p ? ", " : "", points[p] + 6, t.by_point[p]);
	printf("), %" PRIu64 " succeeded\n", t.clean_ok);
	printf("iofail: crashed %" PRIu64 ", hung %" PRIu64 ", failed without a message %" PRIu64
	       ", check failed %" PRIu64 ", lost %" PRIu64 ", not recovered %" PRIu64
	       "; %.1f s in all\n",
	       t.crashed, t.hung, t.silent, t.check_failed, t.lost, t.not_recovered,
	       fault_now() - t0);
	if (keep || bad)
		printf("iofail: work directory kept: %s (the failed runs' messages are in "
		       "messages.txt)\n",
		       work);
	else
		fault_rmrf(work);
	free(work);
	return bad ? 1 : 0;
}
