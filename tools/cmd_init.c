/*
 * cmd_init.c — `h2emv init`: create a new, empty memory directory.
 */
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv init [-m DIR | DIR]\n"
	"\n"
	"Create an empty memory in DIR (made if missing). Running it on an existing\n"
	"memory changes nothing and says so.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -h, --help      this help\n";

int cmd_init(int argc, char **argv)
{
	const char *mem = NULL;
	int done = cli_basic_opts(argc, argv, "init", help, &mem, NULL);
	if (done >= 0)
		return done;
	if (optind < argc)
		mem = argv[optind++];
	if (optind < argc)
		return cli_usage("init", "one directory at most");
	const char *dir = cli_mem_dir(mem);
	/* a store opens without CREATE (data.mdb, or data.N.mdb after compaction) */
	h2emv_mem *m = NULL;
	int existed = h2emv_mem_open(&m, dir, NULL, NULL) == H2EMV_OK;
	if (!existed)
		m = cli_open(dir, H2EMV_OPEN_CREATE);
	if (!m)
		return EXIT_ERROR;
	h2emv_mem_close(m);
	printf(existed ? "%s already holds an h2emv memory; nothing changed\n"
	               : "created an empty h2emv memory in %s\n",
	       dir);
	return EXIT_OK;
}
