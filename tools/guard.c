/*
 * guard.c — the last line of defence against a damaged file. The integrity
 * gate and the bounds on every value catch what they can cheaply; the rest
 * of a big store's leaf pages is only read by `h2emv check`, and LMDB may
 * assert or fault on one of them first. So each command runs in a child
 * process: a child killed by SIGSEGV, SIGBUS, SIGABRT (LMDB's assertions),
 * SIGILL or SIGFPE becomes the message "damaged: run h2emv check" and exit
 * status 3, like any damage found cleanly. Other signals are passed to the
 * child and its death by one is reproduced, so callers see what they sent.
 * A command that ends on damage has `h2emv check` run on its memory, whose
 * verdict (the DAMAGED mark) refuses every later write: a reader that
 * tripped on a leaf no writer reads first still stops the next `ingest`.
 * H2EMV_NO_GUARD=1 runs commands in-process (debuggers, measurements).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"

static volatile sig_atomic_t child_pid;

/* The signals the supervisor passes to its child. */
static const int passed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

/* The memory the child opened, in a page shared with it (cli_open). */
#define GUARD_DIR_MAX 4096
static char *guard_dir;

void cli_guard_note_dir(const char *dir)
{
	if (guard_dir && dir)
		snprintf(guard_dir, GUARD_DIR_MAX, "%s", dir);
}

/* After a command ended on damage: unless `dir` is marked already, `h2emv
 * check` (in a child of its own: it reads every page by hand before LMDB
 * sees one) confirms it and writes the mark. A store that checks clean
 * stays unmarked: the crash was not the file's. */
static void confirm_damage(const char *name, const char *dir)
{
	char mark[GUARD_DIR_MAX + 16];
	struct stat st;
	snprintf(mark, sizeof mark, "%s/DAMAGED", dir);
	if (lstat(mark, &st) == 0 || lstat(dir, &st) != 0)
		return;
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		/* its own signals back, and it dies with the supervisor */
		for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++)
			signal(passed[i], SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			_exit(2);
		uint64_t n = 0;
		h2emv_error err = { 0 };
		int rc = h2emv_check_store(&n, dir, NULL, &err);
		_exit(rc ? 2 : n ? 1 : 0);
	}
	child_pid = pid; /* Ctrl-C and SIGTERM now go to the check */
	int st2;
	while (waitpid(pid, &st2, 0) < 0)
		if (errno != EINTR)
			return;
	if (WIFEXITED(st2) && WEXITSTATUS(st2) == 1)
		fprintf(stderr,
		        "h2emv %s: `h2emv check` confirmed the damage and marked %s DAMAGED: writes, "
		        "gc and compaction are refused until `h2emv salvage` (docs/damaged.md)\n",
		        name, dir);
}

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static int crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGILL || sig == SIGFPE;
}

int cli_guarded(const char *name, int (*run)(int, char **), int argc, char **argv)
{
	const char *off = getenv("H2EMV_NO_GUARD");
	if (off && *off && strcmp(off, "0"))
		return run(argc, argv);
	fflush(stdout);
	fflush(stderr);
	guard_dir = mmap(NULL, GUARD_DIR_MAX, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	                 -1, 0);
	if (guard_dir == MAP_FAILED)
		guard_dir = NULL;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return run(argc, argv); /* no child to spare: run unguarded */
	if (pid == 0) {
		/* die with the parent: a supervisor killed with SIGKILL must not
		 * leave its command running behind the caller's back */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(EXIT_ERROR);
		exit(run(argc, argv));
	}
	child_pid = pid;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++)
		sigaction(passed[i], &sa, NULL);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return EXIT_ERROR;
	int sig = WIFEXITED(st) ? 0 : WTERMSIG(st);
	if (sig && crash_signal(sig))
		fprintf(stderr,
		        "h2emv %s: damaged: reading the memory crashed the database library (signal "
		        "%d, %s); run `h2emv check` on it (docs/damaged.md)\n",
		        name, sig, strsignal(sig));
	if ((!sig && WEXITSTATUS(st) == EXIT_DAMAGED) || (sig && crash_signal(sig))) {
		if (guard_dir && guard_dir[0])
			confirm_damage(name, guard_dir);
		return EXIT_DAMAGED;
	}
	if (!sig)
		return WEXITSTATUS(st);
	signal(sig, SIG_DFL);
	raise(sig);
	return 128 + sig;
}
