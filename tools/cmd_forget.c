/*
 * cmd_forget.c — `h2emv forget --now TIME`: run the forgetting pass as of
 * a given time and commit the result.
 */
#include <getopt.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv forget [options] --now TIME\n"
	"\n"
	"Run the forgetting pass with the memory's clock set to TIME (never moving it\n"
	"back): every node whose expiry has passed is shown to the policy, which may\n"
	"extend its life (\"relevance\", following the learned rules); what stays expired\n"
	"becomes a placeholder that keeps its time range and the first line of its\n"
	"summary. The build runs this after every observation; use this command to see\n"
	"what the memory would keep after a quiet week, or from a nightly timer.\n"
	"Stops early (with its progress committed) if observations arrive meanwhile.\n"
	"It is a builder: while another builder runs (a build --follow), it says so\n"
	"and exits with status 75.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -t, --now TIME  RFC 3339 (2024-09-30T08:00:00Z), \"2024-09-30 08:00\", or\n"
	"                  +DURATION from the memory's clock (+7d, +12h)\n"
	"  -h, --help      this help\n";

int cmd_forget(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "now", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *mem = NULL, *when = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "m:t:h", opts, NULL)) != -1) {
		if (c == 'm')
			mem = optarg;
		else if (c == 't')
			when = optarg;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return cli_usage("forget", "unknown option");
	}
	if (optind < argc)
		return cli_usage("forget", "unexpected argument '%s'", argv[optind]);
	if (!when)
		return cli_usage("forget", "--now TIME is required");
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m)
		return EXIT_ERROR;
	h2emv_time now;
	if (cli_when(&now, m, when)) {
		h2emv_mem_close(m);
		return cli_usage("forget", "cannot read the time '%s'", when);
	}
	h2emv_build_result r = { 0 };
	h2emv_error err = { 0 };
	int rc = h2emv_forget(&r, m, now, &err);
	h2emv_mem_close(m);
	if (rc) {
		cli_fail("forget", rc, &err);
		return rc == H2EMV_EBUSY ? EXIT_BUSY : EXIT_ERROR;
	}
	char t[32];
	printf("forgot %llu nodes as of %s; tree size %llu; relevance tokens %llu\n",
	       (unsigned long long)r.nodes_forgotten, cli_time(t, sizeof t, now),
	       (unsigned long long)r.tree_size,
	       (unsigned long long)(r.tokens_forget.prompt + r.tokens_forget.completion));
	return EXIT_OK;
}
