/*
 * fuzz_llm_route.c — libFuzzer target for lp_route, the reply to the
 * routing prompt. The bytes are the reply.
 *  - A route that parses is question, feedback or reply; a reply text comes
 *    with POL_ROUTE_REPLY only, non-empty, valid UTF-8, at most
 *    LP_MAX_TEXT bytes.
 *  - A reply that does not parse fails with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message, route 0 and no text.
 * Any violation traps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/base/utf8.h"
#include "fuzz/fuzz_llm_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *reply = fz_cstr(data, size);
	if (!reply)
		return 0;
	int route = -1;
	char *text = NULL;
	h2emv_error err = { 0 };
	int rc = lp_route(reply, &route, &text, &err);
	free(reply);
	if (rc) {
		if (!fz_failure_ok(rc, &err) || route != 0 || text)
			__builtin_trap();
		return 0;
	}
	if (route != POL_ROUTE_QUESTION && route != POL_ROUTE_FEEDBACK && route != POL_ROUTE_REPLY)
		__builtin_trap();
	if ((route == POL_ROUTE_REPLY) != (text != NULL))
		__builtin_trap();
	if (text) {
		size_t n = strlen(text);
		if (!n || n > LP_MAX_TEXT || !utf8_valid(text, n))
			__builtin_trap();
	}
	free(text);
	return 0;
}
