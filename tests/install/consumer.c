/* A tiny program built against the INSTALLED h2emv (headers, library,
 * pkg-config file, CMake package): creates a memory, stores one
 * observation, reads it back. */
#include <h2emv.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = H2EMV_OPEN_CREATE;
	h2emv_mem *m;
	h2emv_error err = { 0 };
	if (h2emv_mem_open(&m, argv[1], &o, &err)) {
		fprintf(stderr, "open: %s\n", err.message);
		return 1;
	}
	const char *line = "{\"t\":\"2024-09-23T10:03:55Z\",\"note\":\"installed copy works\"}";
	uint64_t seq = 0;
	char *json = NULL;
	int rc = h2emv_ingest(&seq, m, line, strlen(line), &err);
	if (rc == H2EMV_OK)
		rc = h2emv_obs_get_json(&json, NULL, m, seq, &err);
	if (rc == H2EMV_OK && !strstr(json, "installed copy works"))
		rc = H2EMV_EINTERNAL;
	if (rc)
		fprintf(stderr, "failed: %s (%s)\n", err.message, h2emv_strerror(rc));
	else
		printf("ok: %s\n", json);
	h2emv_free(json);
	h2emv_mem_close(m);
	return rc ? 1 : 0;
}
