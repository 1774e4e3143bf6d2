/*
 * cmd_profile.c — `h2emv profile`: show, set or list robot profiles (how a
 * robot's skills and parameter keys map to the roles of typed facts;
 * docs/profiles.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv profile [-m DIR] [show]\n"
	"       h2emv profile [-m DIR] set FILE|armar7|teach\n"
	"       h2emv profile list\n"
	"       h2emv profile print NAME\n"
	"\n"
	"A robot profile tells h2emv what a robot's skills and their parameters mean:\n"
	"which verb a skill is ('NavigateToNamedLocation' is 'go'), which parameter\n"
	"names the object, the source, the destination, the place, the person, the\n"
	"instrument or the words said ('graspObjectName' is the object), which skills\n"
	"are motion primitives not worth remembering, and whether the stream segments\n"
	"into goals by its skill stack or by its action list. docs/profiles.md has the\n"
	"format. Without a profile the generic mapping reads common parameter names\n"
	"(object, item, to, from, destination, location, room, person, patient, text).\n"
	"\n"
	"  show          print the memory's profile (or say it has none)\n"
	"  set FILE      store FILE (JSON) as the memory's profile; a shipped profile\n"
	"                is named instead of a file (armar7, teach). Set it before the\n"
	"                first build: it also sets the segmentation\n"
	"  list          the profiles shipped with h2emv\n"
	"  print NAME    print a shipped profile (a start for your own robot's)\n"
	"\n"
	"  -m, --mem DIR the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"  -h, --help    this help\n"
	"\n"
	"exit status: 0 ok, 2 error (a bad profile: the message names the field), 64 usage.\n";

static const char *const shipped[] = { "armar7", "teach", NULL };

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "h2emv profile: cannot read %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	while (b) {
		size_t r = fread(b + n, 1, cap - n, f);
		n += r;
		if (n < cap)
			break;
		char *nb = cap > (4u << 20) ? NULL : realloc(b, cap *= 2);
		if (!nb) {
			free(b);
			b = NULL;
		} else {
			b = nb;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (!b || bad) {
		fprintf(stderr, "h2emv profile: cannot read %s%s\n", path, b ? "" : " (over 4 MiB?)");
		free(b);
		return NULL;
	}
	*len = n;
	return b;
}

int cmd_profile(int argc, char **argv)
{
	const char *mem = NULL;
	static const struct option opts[] = { { "mem", required_argument, NULL, 'm' },
		                                  { "help", no_argument, NULL, 'h' },
		                                  { NULL, 0, NULL, 0 } };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mem = optarg; break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_usage("profile", "unknown option");
		}
	}
	const char *what = optind < argc ? argv[optind++] : "show";
	if (!strcmp(what, "list")) {
		if (optind < argc)
			return cli_usage("profile", "'list' takes no argument");
		for (int i = 0; shipped[i]; i++)
			printf("%s\n", shipped[i]);
		return EXIT_OK;
	}
	if (!strcmp(what, "print")) {
		if (optind + 1 != argc)
			return cli_usage("profile", "'print' takes one NAME");
		const char *t = h2emv_profile_builtin(argv[optind]);
		if (!t) {
			fprintf(stderr, "h2emv profile: no shipped profile '%s' (see h2emv profile list)\n",
			        argv[optind]);
			return EXIT_ERROR;
		}
		fputs(t, stdout);
		return EXIT_OK;
	}
	if (strcmp(what, "show") && strcmp(what, "set"))
		return cli_usage("profile", "unknown subcommand '%s' (show, set, list, print)", what);
	int set = !strcmp(what, "set");
	if (set ? optind + 1 != argc : optind != argc)
		return cli_usage("profile", set ? "'set' takes one FILE or shipped name"
		                                : "'show' takes no argument");
	h2emv_mem *m = cli_open(cli_mem_dir(mem), set ? 0 : H2EMV_OPEN_READONLY);
	if (!m)
		return EXIT_ERROR;
	h2emv_error err = { 0 };
	int rc;
	if (set) {
		const char *arg = argv[optind];
		const char *t = h2emv_profile_builtin(arg);
		size_t len = 0;
		char *text = t ? NULL : read_file(arg, &len);
		if (!t && !text) {
			h2emv_mem_close(m);
			return EXIT_ERROR;
		}
		rc = h2emv_profile_set(m, t ? t : text, t ? strlen(t) : len, &err);
		free(text);
		if (rc == H2EMV_OK)
			printf("profile set: %s\n", arg);
	} else {
		char *text = NULL;
		rc = h2emv_profile_get(&text, m, &err);
		if (rc == H2EMV_OK)
			fputs(text ? text : "no robot profile: the generic mapping applies\n", stdout);
		h2emv_free(text);
	}
	h2emv_mem_close(m);
	return rc ? cli_fail("profile", rc, &err) : EXIT_OK;
}
