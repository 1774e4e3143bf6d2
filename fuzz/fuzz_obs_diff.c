/*
 * fuzz_obs_diff.c — differential libFuzzer target: the one-pass reader of
 * observations (obs_from_json_id, api/obs_parse.c) against the jansson
 * tree reader it replaced (fuzz/obsref). On the same bytes both must give
 * the same status, the same body bytes and id, and on error the same
 * line, column, field and message. Any disagreement traps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/observe/obs_internal.h"
#include "api/observe/observation.h"
#include "obsref/obs_ref.h"

static void differ(const char *what, const h2emv_error *a, const h2emv_error *b)
{
	fprintf(stderr, "fuzz_obs_diff: %s differ\n  new: %d %s\n  ref: %d %s\n", what,
	        a->status, a->message, b->status, b->message);
	__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	h2emv_error ea, eb;
	memset(&ea, 0, sizeof ea);
	memset(&eb, 0, sizeof eb);
	eng_buf a = { 0 }, b = { 0 };
	char ida[OBS_ID_MAX + 1], idb[OBS_ID_MAX + 1];
	size_t la = 0, lb = 0;
	const char *json = (const char *)data;
	int ra = obs_from_json_id(&a, ida, &la, json, size, 7, &ea);
	int rb = obs_ref_from_json_id(&b, idb, &lb, json, size, 7, &eb);
	if (ra != rb)
		differ("verdicts", &ea, &eb);
	if (ra == H2EMV_OK) {
		if (a.len != b.len || memcmp(a.data, b.data, a.len))
			differ("bodies", &ea, &eb);
		if (la != lb || memcmp(ida, idb, la))
			differ("ids", &ea, &eb);
	} else if (ea.status != eb.status || ea.line != eb.line || ea.column != eb.column ||
	           strcmp(ea.field, eb.field) || strcmp(ea.message, eb.message) || a.len ||
	           b.len) {
		differ("errors", &ea, &eb);
	}
	eng_buf_free(&a);
	eng_buf_free(&b);
	return 0;
}
