/*
 * guard.c — the last line of defence against a damaged file. The integrity
 * gate and the bounds on every value catch what they can cheaply; the rest
 * of a big store's leaf pages is only read by `h2emv check`, and LMDB may
 * assert or fault on one of them first. So each command runs in a child
 * process: a child killed by SIGSEGV, SIGBUS, SIGABRT (LMDB's assertions),
 * SIGILL or SIGFPE becomes the message "damaged: run h2emv check" and exit
 * status 3, like any damage found cleanly. Other signals are passed to the
 * child and its death by one is reproduced, so callers see what they sent.
 * H2EMV_NO_GUARD=1 runs commands in-process (debuggers, measurements).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"

static volatile sig_atomic_t child_pid;

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
	static const int passed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
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
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	int sig = WTERMSIG(st);
	if (crash_signal(sig)) {
		fprintf(stderr,
		        "h2emv %s: damaged: reading the memory crashed the database library (signal "
		        "%d, %s); run `h2emv check` on it (docs/damaged.md)\n",
		        name, sig, strsignal(sig));
		return EXIT_DAMAGED;
	}
	signal(sig, SIG_DFL);
	raise(sig);
	return 128 + sig;
}
