/*
 * export_obs.c — the observations of a time range as JSON Lines
 * (h2emv_obs_export): each stored observation whose time lies in the
 * range, in its canonical JSON, in sequence order. What retention has
 * reclaimed is simply not there any more.
 */
#include <stdlib.h>
#include <string.h>

#include "api/export/export.h"
#include "api/mem/mem.h"
#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"

/* Sequence numbers read per read transaction: a long export must not keep
 * the writer's old pages pinned. */
#define OBS_BATCH 4096u

int h2emv_obs_export(uint64_t *n_out, h2emv_mem *mem, h2emv_time from, h2emv_time to,
                     h2emv_write_fn write, void *ctx, h2emv_progress_fn progress,
                     void *progress_ctx, h2emv_error *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (n_out)
		*n_out = 0;
	if (!mem || !write)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_obs_export: mem and write are required");
	if (to && to <= from)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_obs_export: the range ends before it starts");
	xw w = { write, ctx, { 0 }, { 0 }, H2EMV_OK };
	eng_buf body = { 0 };
	uint64_t last = 0, written = 0;
	int rc = H2EMV_OK;
	for (uint64_t seq = 1; rc == H2EMV_OK && (seq == 1 || seq <= last);) {
		eng_read *r;
		if ((rc = eng_read_begin(&r, mem->env, err)) != H2EMV_OK)
			break;
		if (seq == 1)
			rc = eng_obs_last(&last, r, err);
		for (uint64_t k = 0; rc == H2EMV_OK && k < OBS_BATCH && seq <= last; k++, seq++) {
			rc = eng_obs_get(&body, r, seq, err);
			if (rc == H2EMV_ENOTFOUND) { /* reclaimed by retention */
				rc = H2EMV_OK;
				continue;
			}
			int64_t t, t_end;
			if (rc || obs_body_times(&t, &t_end, body.data, body.len) || t < from ||
			    (to && t >= to))
				continue;
			char *json = NULL;
			size_t len = 0;
			if ((rc = obs_to_json(&json, &len, body.data, body.len, err)) != H2EMV_OK)
				break;
			xw_put(&w, json, len);
			rc = xw_put(&w, "\n", 1);
			free(json);
			written++;
		}
		eng_read_end(r);
		if (rc == H2EMV_OK && progress)
			progress(progress_ctx, "export", seq - 1 < last ? seq - 1 : last, last);
		if (last == 0)
			break;
	}
	if (rc == H2EMV_OK)
		rc = xw_flush(&w);
	if (rc && rc == w.status)
		eng_fail(err, rc, rc == H2EMV_EIO ? "export: writing the output failed"
		                                  : "export: out of memory");
	else if (rc == H2EMV_OK && err)
		memset(err, 0, sizeof *err); /* a skipped seq left its message */
	eng_buf_free(&w.buf);
	eng_buf_free(&body);
	if (n_out)
		*n_out = written;
	return rc;
}
