/*
 * lex_alias.c — the word a robot's log writes for a thing people call
 * otherwise ("the tap" for the log's Faucet). Read only when a question is
 * (lex.h, lex_asked_alias): it is in no index, so the list may grow
 * without touching a stored memory.
 */
#include <pthread.h>
#include <string.h>

#include "api/base/lex.h"

static const char *const alias_src[][2] = {
	{ "tap", "faucet" },   { "cupboard", "cabinet" }, { "hob", "stove" },
	{ "cooker", "stove" }, { "worktop", "counter" },  { "bin", "garbage" },
	{ "dustbin", "garbage" }, { "telly", "television" }, { "loo", "toilet" },
};
#define ALIASES (sizeof alias_src / sizeof *alias_src)
static char alias_stems[ALIASES][2][LEX_WORD_MAX];
static pthread_once_t alias_once = PTHREAD_ONCE_INIT;

static void alias_build(void)
{
	for (size_t i = 0; i < ALIASES; i++)
		for (int j = 0; j < 2; j++)
			lex_stem(alias_src[i][j], strlen(alias_src[i][j]), alias_stems[i][j]);
}

const char *lex_asked_alias(const char *stem)
{
	pthread_once(&alias_once, alias_build);
	for (size_t i = 0; i < ALIASES; i++)
		if (!strcmp(stem, alias_stems[i][0]))
			return alias_stems[i][1];
	return NULL;
}
