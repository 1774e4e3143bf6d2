/*
 * cmd_say.c — `h2emv say`: talk to the memory. The dialog manager routes
 * the utterance to question answering, to learning what to remember, or
 * answers it directly.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

static const char help[] =
	"usage: h2emv say [-m DIR] [--json] UTTERANCE...\n"
	"\n"
	"Say something to the robot's memory. The dialog manager decides what it is:\n"
	"  question  answered from the newest snapshot, as 'h2emv ask' does\n"
	"  feedback  what to remember or may be forgotten: the relevance rules are\n"
	"            rewritten (a new rules version; see 'h2emv rules')\n"
	"  reply     anything else (a greeting, thanks, \"how are you\"): answered\n"
	"            directly, never as a question about the past\n"
	"A greeting in front of a question or feedback (\"Hi, where ...?\") is left\n"
	"out of it. It prints the route, then the reply.\n"
	"\n"
	"  -m, --mem DIR   the memory directory (default $H2EMV_MEM, else ./h2emv-memory)\n"
	"      --json      print one JSON object instead\n"
	"  -h, --help      this help\n"
	"\n"
	"Examples:\n"
	"  h2emv say \"Where did you put my keys?\"\n"
	"      route: question\n"
	"      At the drawer.\n"
	"  h2emv say \"You should always remember where you put the keys.\"\n"
	"      route: feedback\n"
	"      Understood. I will remember that: ...\n"
	"  h2emv say \"You don't need to remember what you saw in the hallway.\"\n"
	"  h2emv say \"Good morning!\"\n"
	"      route: reply\n"
	"      Hello! Ask me about what I did, or tell me what to remember.\n"
	"\n"
	"exit status: 0 ok, 2 error, 64 usage error.\n";

static void print_text(const h2emv_reply *r)
{
	printf("route: %s\n%s\n", cli_route_name(r->route), r->text);
	if (r->rules) {
		printf("rules, version %u%s:\n", r->rules->version,
		       r->rules->repaired ? " (a dropped rule was restored)" : "");
		for (size_t i = 0; i < r->rules->n; i++)
			printf("  %zu. %s\n", i + 1, r->rules->items[i]);
	}
}

int cmd_say(int argc, char **argv)
{
	const char *mem = NULL;
	int json = 0;
	optind = 1;
	int st = cli_basic_opts(argc, argv, "say", help, &mem, &json);
	if (st >= 0)
		return st;
	if (optind >= argc)
		return cli_usage("say", "what do you want to say?");
	size_t n = 1;
	for (int i = optind; i < argc; i++)
		n += strlen(argv[i]) + 1;
	char *u = malloc(n);
	if (!u)
		return cli_fail("say", H2EMV_ENOMEM, NULL);
	u[0] = '\0';
	for (int i = optind; i < argc; i++) {
		if (i > optind)
			strcat(u, " ");
		strcat(u, argv[i]);
	}
	h2emv_mem *m = cli_open(cli_mem_dir(mem), 0);
	if (!m) {
		free(u);
		return EXIT_ERROR;
	}
	h2emv_reply *r = NULL;
	h2emv_error err = { 0 };
	int rc = h2emv_say(&r, m, u, &err), status = EXIT_OK;
	if (rc)
		status = cli_fail("say", rc, &err);
	else if (json)
		status = cli_print_json(cli_reply_json(r));
	else
		print_text(r);
	h2emv_reply_free(r);
	h2emv_mem_close(m);
	free(u);
	return status;
}
