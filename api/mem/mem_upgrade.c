/*
 * mem_upgrade.c — h2emv_upgrade: a tree built before typed facts gets them
 * (api/builder/upgrade.c derives them in memory), with the backup taken
 * after deriving and before anything is written, so a failed copy leaves
 * the memory as it was and a tree that needs nothing gets no copy. The
 * term index, when missing or of an older format, is rebuilt after.
 */
#include <string.h>

#include "api/mem/mem.h"
#include "api/builder/upgrade.h"
#include "api/recall/recall_index.h"

int h2emv_upgrade(h2emv_upgrade_result *out, h2emv_mem *mem, const h2emv_upgrade_options *opts,
                  h2emv_error *err)
{
	if (out)
		memset(out, 0, sizeof *out);
	if (!mem || (opts && opts->version != H2EMV_UPGRADE_OPTIONS_VERSION))
		return eng_fail(err, H2EMV_EINVAL, "h2emv_upgrade: bad arguments or options version");
	up *u = NULL;
	int rc = upgrade_derive(&u, mem, opts, err);
	if (rc)
		return rc;
	h2emv_upgrade_result *r = upgrade_result(u);
	if ((r->events || r->goals) && opts && opts->backup)
		rc = h2emv_mem_backup(&r->backup_bytes, mem, opts->backup, err);
	if (rc == H2EMV_OK)
		rc = upgrade_commit(u, err);
	/* a term index missing or of an older format (docs/index.md) is
	 * built now; without the room, answers read the tree until a build */
	if (rc == H2EMV_OK)
		ridx_ensure(mem, NULL, NULL, NULL);
	if (out)
		*out = *r;
	upgrade_free(u);
	return rc;
}
