/*
 * llm_schema.c — the JSON schemas of the decisions' replies, for servers
 * that constrain output to a schema (OpenAI's strict json_schema, vLLM,
 * llama.cpp). Strict mode wants every property required and no others;
 * "reasoning" comes first because a constrained model writes properties in
 * schema order, and the paper's prompts let it reason before it decides.
 */
#include "api/policy/llm/llm_parse.h"

#define OBJ(props, req) \
	"{\"type\":\"object\",\"properties\":{" props "},\"required\":[" req "]," \
	"\"additionalProperties\":false}"
#define STR "{\"type\":\"string\"}"

static const char GROUP[] = OBJ(
	"\"reasoning\":" STR ","
	"\"groups\":{\"type\":\"array\",\"items\":" OBJ(
		"\"range\":{\"type\":\"string\",\"pattern\":\"^[0-9]+(-[0-9]+)?$\"},"
		"\"summary\":" STR,
		"\"range\",\"summary\"") "}",
	"\"reasoning\",\"groups\"");

static const char SUMMARIZE[] = OBJ("\"summary\":" STR, "\"summary\"");

static const char RELEVANCE[] = OBJ(
	"\"reasoning\":" STR ","
	"\"relevance\":{\"anyOf\":[{\"type\":\"number\"},{\"type\":\"string\",\"enum\":[\"inf\"]}]}",
	"\"reasoning\",\"relevance\"");

static const char LEARN[] = OBJ("\"rules\":{\"type\":\"array\",\"items\":" STR "}", "\"rules\"");

static const char QA[] = OBJ(
	"\"reasoning\":" STR ","
	"\"action\":{\"type\":\"string\",\"enum\":[\"expand\",\"expand_range\",\"search\",\"answer\"]},"
	"\"ids\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}},"
	"\"t0\":" STR ","
	"\"t1\":" STR ","
	"\"text\":" STR,
	"\"reasoning\",\"action\",\"ids\",\"t0\",\"t1\",\"text\"");

static const char ROUTE[] = OBJ(
	"\"reasoning\":" STR ","
	"\"route\":{\"type\":\"string\",\"enum\":[\"question\",\"feedback\",\"other\"]},"
	"\"reply\":" STR,
	"\"reasoning\",\"route\",\"reply\"");

static const struct {
	const char *name, *schema;
} SCHEMAS[LP_COUNT] = {
	[LP_GROUP] = { "group", GROUP },
	[LP_SUMMARIZE] = { "summarize", SUMMARIZE },
	[LP_RELEVANCE] = { "relevance", RELEVANCE },
	[LP_LEARN] = { "learn", LEARN },
	[LP_QA] = { "qa", QA },
	[LP_ROUTE] = { "route", ROUTE },
};

const char *lp_schema(int decision)
{
	return decision >= 0 && decision < LP_COUNT ? SCHEMAS[decision].schema : NULL;
}

const char *lp_schema_name(int decision)
{
	return decision >= 0 && decision < LP_COUNT ? SCHEMAS[decision].name : NULL;
}
