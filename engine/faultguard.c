/*
 * faultguard.c — a damaged page met through a signal. LMDB reads its file
 * through the map and trusts it: a page past the end of a file cut short,
 * or one the disk cannot read, raises SIGBUS or SIGSEGV inside the reader,
 * where no return code can say "damaged". Once h2emv_guard_faults has run,
 * the handlers installed here look up the faulting address in
 * /proc/self/maps; when it lies in the data file of a memory this process
 * has open for writing, they write that memory's DAMAGED mark (gate.c's
 * format: one line of reason) and let the signal kill the process as it
 * would have. Any other fault goes to the handler that was there before.
 *
 * Everything a handler does is async-signal-safe: the paths are made at
 * open (eng_fault_watch) into a fixed table, and the handler uses open,
 * read, write, fsync, close, rename, access and sigaction only.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/gate.h"

#define WATCH_SLOTS 64
#define WATCH_PATH 4096

/* One memory open for writing: its directory as the kernel names it (the
 * maps list shows resolved paths) and its mark's path. */
typedef struct watch_slot {
	int live; /* 0 free, 1 being filled or emptied, 2 watched (atomic) */
	const void *owner;
	char dir[WATCH_PATH];
	char mark[WATCH_PATH + 16];
} watch_slot;

static watch_slot slots[WATCH_SLOTS];
static pthread_mutex_t slots_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction prev_segv, prev_bus;
static int installed;
static void *alt_stack;

static const char guard_reason[] =
	"a read of the data file raised a fault (SIGBUS or SIGSEGV) inside the mapped store: "
	"a page past the end of the file or one the disk could not read\n";

void eng_fault_watch(const void *owner, const char *dir)
{
	char real[PATH_MAX];
	if (!realpath(dir, real) || strlen(real) >= WATCH_PATH)
		return; /* best effort: such a memory goes unwatched */
	pthread_mutex_lock(&slots_mu);
	for (int i = 0; i < WATCH_SLOTS; i++) {
		watch_slot *s = &slots[i];
		if (__atomic_load_n(&s->live, __ATOMIC_ACQUIRE))
			continue;
		__atomic_store_n(&s->live, 1, __ATOMIC_RELAXED);
		s->owner = owner;
		snprintf(s->dir, sizeof s->dir, "%s", real);
		snprintf(s->mark, sizeof s->mark, "%s/DAMAGED", real);
		__atomic_store_n(&s->live, 2, __ATOMIC_RELEASE);
		break;
	}
	pthread_mutex_unlock(&slots_mu);
}

void eng_fault_unwatch(const void *owner)
{
	pthread_mutex_lock(&slots_mu);
	for (int i = 0; i < WATCH_SLOTS; i++)
		if (__atomic_load_n(&slots[i].live, __ATOMIC_ACQUIRE) == 2 && slots[i].owner == owner)
			__atomic_store_n(&slots[i].live, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&slots_mu);
}

/* Is `path` DIR/data.mdb or DIR/data.N.mdb of a watched DIR? Its slot. */
static watch_slot *slot_of_file(const char *path)
{
	for (int i = 0; i < WATCH_SLOTS; i++) {
		watch_slot *s = &slots[i];
		if (__atomic_load_n(&s->live, __ATOMIC_ACQUIRE) != 2)
			continue;
		size_t n = strlen(s->dir);
		if (strncmp(path, s->dir, n) || strncmp(path + n, "/data.", 6))
			continue;
		const char *rest = path + n + 6;
		while (*rest >= '0' && *rest <= '9')
			rest++;
		if (*rest == '.')
			rest++;
		if (!strcmp(rest, "mdb") || !strcmp(path + n, "/data.mdb"))
			return s;
	}
	return NULL;
}

static uintptr_t parse_hex(const char **p)
{
	uintptr_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return v;
		v = v * 16 + (uintptr_t)d;
	}
}

/* One line of /proc/self/maps: the watched memory whose data file it maps
 * at `addr`, or NULL. */
static watch_slot *line_match(const char *line, uintptr_t addr)
{
	const char *p = line;
	uintptr_t lo = parse_hex(&p);
	if (*p++ != '-')
		return NULL;
	uintptr_t hi = parse_hex(&p);
	if (addr < lo || addr >= hi)
		return NULL;
	const char *path = strchr(p, '/');
	return path ? slot_of_file(path) : NULL;
}

/* The watched memory whose map holds `addr`, read from /proc/self/maps
 * with a buffer on the (alternate) stack. */
static watch_slot *slot_of_addr(uintptr_t addr)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char buf[8192];
	size_t have = 0;
	watch_slot *found = NULL;
	for (;;) {
		ssize_t k = read(fd, buf + have, sizeof buf - 1 - have);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		have += (size_t)k;
		buf[have] = 0;
		char *line = buf, *nl;
		while (!found && (nl = strchr(line, '\n'))) {
			*nl = 0;
			found = line_match(line, addr);
			line = nl + 1;
		}
		if (found)
			break;
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof buf - 1)
			have = 0; /* a line longer than the buffer: not a store's */
	}
	close(fd);
	return found;
}

/* The mark, as eng_mark_damaged writes it: a temporary file, synced, then
 * renamed over DIR/DAMAGED. A mark already there is kept (it says more). */
static void write_mark(const watch_slot *s)
{
	if (access(s->mark, F_OK) == 0)
		return;
	char tmp[sizeof s->mark + 32], digits[24];
	size_t n = strlen(s->mark), d = 0;
	memcpy(tmp, s->mark, n);
	for (long pid = (long)getpid(); d == 0 || pid; pid /= 10)
		digits[d++] = (char)('0' + pid % 10);
	tmp[n++] = '.';
	while (d)
		tmp[n++] = digits[--d];
	memcpy(tmp + n, ".fault.tmp", sizeof ".fault.tmp");
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	int ok = gate_write_all(fd, guard_reason, sizeof guard_reason - 1) && fsync(fd) == 0;
	ok &= close(fd) == 0;
	if (!ok || rename(tmp, s->mark) != 0)
		unlink(tmp);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	/* only a fault the kernel raised has an address (a sent signal none) */
	watch_slot *s = si && si->si_code > 0 ? slot_of_addr((uintptr_t)si->si_addr) : NULL;
	const struct sigaction *prev = sig == SIGBUS ? &prev_bus : &prev_segv;
	if (s)
		write_mark(s);
	errno = saved;
	if (!s && (prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction) {
		prev->sa_sigaction(sig, si, uc);
		return;
	}
	if (!s && prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
		return;
	}
	/* the default action: on return the faulting read runs again and the
	 * kernel ends the process by this signal; raise covers a sent one */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	if (si && si->si_code <= 0)
		raise(sig);
}

int eng_fault_guard_install(h2emv_error *err)
{
	pthread_mutex_lock(&slots_mu);
	int rc = H2EMV_OK;
	if (installed)
		goto out;
	/* a stack of its own: a fault on a thread whose stack is the one that
	 * overflowed still gets its handler run */
	size_t size = 64 * 1024 > SIGSTKSZ ? 64 * 1024 : (size_t)SIGSTKSZ;
	if (!alt_stack && !(alt_stack = malloc(size))) {
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory for the fault handlers' stack");
		goto out;
	}
	stack_t ss = { .ss_sp = alt_stack, .ss_size = size, .ss_flags = 0 };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGSEGV, &sa, &prev_segv) != 0 ||
	    sigaction(SIGBUS, &sa, &prev_bus) != 0) {
		rc = eng_fail(err, H2EMV_EIO, "installing the fault handlers: %s", strerror(errno));
		goto out;
	}
	installed = 1;
out:
	pthread_mutex_unlock(&slots_mu);
	return rc;
}
