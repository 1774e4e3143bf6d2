/*
 * cli.c — helpers shared by the subcommands (see cli.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"

int cli_read_only;

const char *cli_mem_dir(const char *opt)
{
	if (opt && *opt)
		return opt;
	if (opt) {
		/* `-m ''` or `-m "$UNSET"`: a script bug, never ./h2emv-memory */
		fprintf(stderr, "h2emv: -m/--mem needs a directory, not an empty string\n"
		                "Try 'h2emv --help'.\n");
		exit(EXIT_USAGE);
	}
	const char *env = getenv("H2EMV_MEM");
	return env && *env ? env : "h2emv-memory";
}

int cli_basic_opts(int argc, char **argv, const char *cmd, const char *help, const char **mem,
                   int *json)
{
	static const struct option opts[] = {
		{ "mem", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		if (c == 'm')
			*mem = optarg;
		else if (c == 'j' && json)
			*json = 1;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return cli_usage(cmd, "unknown option");
	}
	return -1;
}

int cli_no_operands(int argc, char **argv, const char *cmd)
{
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return -1;
}

h2emv_mem *cli_open(const char *dir, unsigned flags)
{
	if (cli_read_only && !(flags & H2EMV_OPEN_READONLY)) {
		fprintf(stderr,
		        "h2emv: this command writes to the memory, and --read-only forbids it (%s); "
		        "check, stats, ask, inspect, snapshots list, rules list and config (no "
		        "changes) only read\n",
		        dir);
		return NULL;
	}
	/* --read-only: the caller wants nothing written, the DAMAGED mark neither */
	if (!cli_read_only)
		cli_guard_note_dir(dir);
	h2emv_open_options o = H2EMV_OPEN_OPTIONS_INIT;
	o.flags = flags;
	h2emv_mem *m = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_mem_open(&m, dir, &o, &err);
	if (rc) {
		/* a damaged store ends the command with its own exit status */
		if (cli_fail("open", rc, &err) == EXIT_DAMAGED)
			exit(EXIT_DAMAGED);
		return NULL;
	}
	/* the policy: h2emv --policy NAME / $H2EMV_POLICY (builtin when unset) */
	const char *policy = getenv("H2EMV_POLICY");
	if (policy && *policy && strcmp(policy, "builtin")) {
		rc = h2emv_mem_set_policy(m, policy, getenv("H2EMV_LLM_CONFIG"), &err);
		if (rc) {
			cli_fail("policy", rc, &err);
			h2emv_mem_close(m);
			return NULL;
		}
	}
	return m;
}

int cli_ref(h2emv_ref *out, const char *s)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	h2emv_ref r = { strtoull(s, &end, 10), 1 };
	if (*end == '.' || *end == ':') {
		const char *v = end + 1;
		if (*v < '0' || *v > '9')
			return -1;
		unsigned long ver = strtoul(v, &end, 10);
		if (ver > UINT32_MAX)
			return -1;
		r.version = (uint32_t)ver;
	}
	if (errno || *end || !r.id)
		return -1;
	*out = r;
	return 0;
}
