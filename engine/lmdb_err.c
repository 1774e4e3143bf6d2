/*
 * lmdb_err.c — LMDB's return codes as h2emv's errors, and the note that a
 * call of this thread met damage (a writer then marks the store DAMAGED).
 * Apart from env.c so that the engine's other files (the index, the
 * generations) map LMDB's codes without calling back into the store.
 */
#include <errno.h>
#include <string.h>

#include "engine/env.h"

__thread int env_damage_seen;
__thread unsigned env_pages_damaged; /* damage.c confirms them */

int env_err(h2emv_error *err, int rc, const char *what)
{
	if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND) {
		env_damage_seen = 1;
		env_pages_damaged++; /* damage.c confirms it against the store */
	}
	switch (rc) {
	case MDB_SUCCESS: return H2EMV_OK;
	case MDB_MAP_FULL: return ENG_EMAPFULL;
	case MDB_NOTFOUND: return eng_fail(err, H2EMV_ENOTFOUND, "%s: not found", what);
	case MDB_KEYEXIST: return eng_fail(err, H2EMV_EEXIST, "%s: already exists", what);
	case MDB_CORRUPTED:
	case MDB_PAGE_NOTFOUND:
		return eng_fail(err, H2EMV_ECORRUPT, "%s: the database file is damaged (%s)", what,
		                mdb_strerror(rc));
	case MDB_INVALID:
	case MDB_VERSION_MISMATCH:
		return eng_fail(err, H2EMV_EFORMAT, "%s: not a readable LMDB file (%s)", what,
		                mdb_strerror(rc));
	case ENOSPC:
	case EFBIG:
	case EDQUOT:
		return eng_fail(err, H2EMV_ENOSPC, "%s: no space left on the device (%s)", what,
		                strerror(rc));
	case ENOMEM: return eng_fail(err, H2EMV_ENOMEM, "%s: out of memory", what);
	case EACCES:
	case EROFS:
		return eng_fail(err, H2EMV_EREADONLY, "%s: %s", what, strerror(rc));
	case EAGAIN:
	case EBUSY:
		return eng_fail(err, H2EMV_EBUSY, "%s: %s", what, strerror(rc));
	default:
		return eng_fail(err, H2EMV_EIO, "%s: %s", what, mdb_strerror(rc));
	}
}
