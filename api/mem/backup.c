/*
 * backup.c — h2emv_mem_backup: a consistent hot copy of a live memory
 * (the work is the engine's: engine/backup.c).
 */
#include "api/mem/mem.h"

int h2emv_mem_backup(uint64_t *bytes_out, h2emv_mem *mem, const char *dest, h2emv_error *err)
{
	if (err)
		*err = (h2emv_error){ 0 };
	if (bytes_out)
		*bytes_out = 0;
	if (!mem || !dest)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_mem_backup: mem and dest are required");
	return eng_backup(mem->env, dest, bytes_out, err);
}
