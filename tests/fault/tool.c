/*
 * tool.c — fault_tool, the fault tests' one program:
 *   fault_tool powercut [...]   power-loss simulation (powercut.c)
 *   fault_tool iofail [...]     I/O errors injected with libfiu (iofail.c)
 *   fault_tool ingest DIR FIRST COUNT MAXBATCH SEED
 *                               the acknowledged-ingest driver: acks on stdout
 *   fault_tool verify DIR ACKFILE [CURSOR]
 *                               every acknowledged observation reads back
 *                               (and a snapshot reaches build cursor CURSOR)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "iofail.h"
#include "powercut.h"

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	if (!strcmp(cmd, "powercut"))
		return powercut_main(argc, argv, argv[0]);
	if (!strcmp(cmd, "iofail"))
		return iofail_main(argc, argv, argv[0]);
	if (!strcmp(cmd, "ingest") && argc == 7)
		return fault_ingest_main(argv[2], strtoull(argv[3], NULL, 10),
		                         strtoull(argv[4], NULL, 10), (unsigned)atoi(argv[5]),
		                         strtoull(argv[6], NULL, 10), 1);
	if (!strcmp(cmd, "verify") && (argc == 4 || argc == 5)) {
		size_t len, n = 0, cap = 0;
		fault_ack *acks = NULL;
		char *text = fault_slurp(argv[3], &len);
		if (!text || fault_parse_acks(&acks, &n, &cap, text, len)) {
			fprintf(stderr, "verify: cannot read %s\n", argv[3]);
			return 2;
		}
		long bad = fault_verify(argv[2], acks, n, 0);
		if (argc == 5 && fault_verify_built(argv[2], strtoull(argv[4], NULL, 10)))
			bad = bad ? bad : 1;
		free(text);
		free(acks);
		return bad ? 1 : 0;
	}
	fprintf(stderr, "usage: fault_tool powercut|iofail [options] (--help)\n"
	                "       fault_tool ingest DIR FIRST COUNT MAXBATCH SEED\n"
	                "       fault_tool verify DIR ACKFILE [CURSOR]\n");
	return 64;
}
