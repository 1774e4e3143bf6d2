/*
 * env_dbs.c — the named LMDB databases of a store: their names and opening
 * their handles (env_open_dbis), for the environment and for a generation
 * opened beside it (gen.c). Apart from env.c so that the gate and the
 * generations need nothing of the environment's opening.
 */
#include <errno.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine/env.h"
#include "engine/gate.h"
#include "engine/pages.h"
#include "engine/regfile.h"

const char *const eng_db_names[DB_COUNT] = {
	"meta", "obs", "nodes", "snapshots", "rules", "relcache", "dead", "pins", "dicts", "obsids",
};

/* ----------------------------------------------------------- opening -- */

int env_open_dbis(MDB_env *mdb, MDB_dbi *dbi, int create, int readonly, const char *dir,
                  int *no_obsids, h2emv_error *err)
{
	/* A read transaction when every database exists: opening the store
	 * then writes nothing, so it needs neither the write lock nor space.
	 * obsids came later: a writer creates it in an older store; read-only,
	 * its absence means no id was ever stored. */
	*no_obsids = 0;
	for (int pass = 0; pass < 2; pass++) {
		int writing = pass == 1;
		if (writing && (!create || readonly))
			break;
		*no_obsids = 0;
		MDB_txn *txn;
		int rc = mdb_txn_begin(mdb, NULL, writing ? 0 : MDB_RDONLY, &txn);
		if (rc)
			return env_err(err, rc, "opening the databases");
		int missing = 0;
		for (int i = 0; i < DB_COUNT && !missing; i++) {
			rc = mdb_dbi_open(txn, eng_db_names[i], writing ? MDB_CREATE : 0, &dbi[i]);
			if (rc == MDB_NOTFOUND && i == DB_OBSIDS) {
				*no_obsids = 1;
				dbi[i] = 0;
				if (readonly)
					continue;
			}
			if (rc == MDB_NOTFOUND) {
				missing = 1;
				if (create && !readonly && !writing)
					break;
				mdb_txn_abort(txn);
				return eng_fail(err, H2EMV_EFORMAT,
				                "%s is not an h2emv memory: database '%s' is missing", dir,
				                eng_db_names[i]);
			}
			if (rc) {
				mdb_txn_abort(txn);
				return env_err(err, rc, "opening the databases");
			}
		}
		if (missing) {
			mdb_txn_abort(txn);
			continue;
		}
		/* the term index's databases, when present: opened here, in a
		 * transaction that commits, their handles stay in the environment
		 * (a handle first opened in a reader's view closes when it ends) */
		MDB_dbi ixp, ixn;
		rc = ix_dbis(&ixp, &ixn, txn, 0, err);
		if (rc && rc != H2EMV_ENOTFOUND) {
			mdb_txn_abort(txn);
			return rc;
		}
		rc = mdb_txn_commit(txn);
		return rc ? env_err(err, rc, "opening the databases") : H2EMV_OK;
	}
	return eng_fail(err, H2EMV_EFORMAT, "%s: the databases cannot be opened", dir);
}
