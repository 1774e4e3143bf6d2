/*
 * damage.c — damage a read found, kept. A record whose checksum or bounds
 * fail, a page LMDB calls corrupt, a node the tree refers to that is
 * missing: a handle opened for writing writes the DAMAGED mark (gate.c) at
 * once, so that the next write of this process or any other is refused
 * until `check` and `salvage` have run (docs/damaged.md). A read-only
 * handle writes nothing, the mark included: `check` gives the verdict.
 * Where LMDB itself trips on a damaged page (an assertion, which aborts
 * the process), its assertion hook writes the mark first.
 */
#include <stdio.h>
#include <string.h>

#include "engine/env.h"
#include "engine/gate.h"

/* Append `what` to the message in err, cut to fit. */
static void append(h2emv_error *err, const char *what)
{
	if (strstr(err->message, "is marked DAMAGED"))
		return; /* said once, by an inner read (a dictionary's) */
	size_t len = strlen(err->message);
	if (len + 1 < sizeof err->message)
		snprintf(err->message + len, sizeof err->message - len, "%s", what);
}

__thread int env_damage_quiet;
static __thread unsigned pages_confirmed;

/* May a read of `env` write the mark? */
static int may_mark(const eng_env *env)
{
	/* a reader without LMDB's lock file is not registered: a writer may
	 * reuse the pages it reads, so what it sees proves nothing */
	return env && !env_damage_quiet && !(env->flags & H2EMV_OPEN_READONLY) && !env->nolock;
}

int env_damage_found(eng_env *env, h2emv_error *err)
{
	env_damage_seen = 1;
	if (!may_mark(env))
		return H2EMV_ECORRUPT;
	char reason[512], note[256];
	int had = eng_damaged_reason(reason, sizeof reason, env->dir);
	if (!had) {
		const char *msg = err && err->message[0] ? err->message : "a damaged record";
		if (!strncmp(msg, "damaged: ", 9))
			msg += 9;
		snprintf(reason, sizeof reason, "a read found %.400s", msg);
		if (eng_mark_damaged(env->dir, reason, NULL) != H2EMV_OK)
			return H2EMV_ECORRUPT; /* best effort: a directory we cannot write */
	}
	if (err) {
		snprintf(note, sizeof note,
		         "; %.120s is marked DAMAGED: writes are refused until `h2emv check` and "
		         "`h2emv salvage` (docs/damaged.md)",
		         env->dir);
		append(err, note);
	}
	return H2EMV_ECORRUPT;
}

void env_damage_confirm(eng_env *env, uint64_t gen)
{
	if (env_pages_damaged == pages_confirmed)
		return;
	pages_confirmed = env_pages_damaged;
	char path[4200], reason[600];
	if (!may_mark(env) || eng_damaged_reason(reason, sizeof reason, env->dir))
		return;
	/* the code may have come from another store this thread read: only
	 * this store's own pages, read by hand, decide */
	gen_path(path, sizeof path, env->dir, gen, 0);
	h2emv_error e = { 0 };
	if (eng_gate_every_page(path, &e) != H2EMV_ECORRUPT)
		return;
	snprintf(reason, sizeof reason, "a read found %.500s", e.message);
	(void)eng_mark_damaged(env->dir, reason, NULL); /* best effort */
}

void env_damage_assert(MDB_env *mdb, const char *msg)
{
	eng_env *env = mdb ? mdb_env_get_userctx(mdb) : NULL;
	char reason[600];
	env_damage_seen = 1;
	/* a mark already there says more (check's verdict, or the first read) */
	if (!may_mark(env) || eng_damaged_reason(reason, sizeof reason, env->dir))
		return;
	snprintf(reason, sizeof reason,
	         "a read found a page the database library could not use, and it aborted the "
	         "process (LMDB: %.400s)",
	         msg ? msg : "an assertion failed");
	(void)eng_mark_damaged(env->dir, reason, NULL); /* best effort: the abort follows */
}
