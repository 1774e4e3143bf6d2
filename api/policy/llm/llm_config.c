/*
 * llm_config.c — the llm transport's configuration: defaults, the JSON
 * file, the H2EMV_LLM_* environment overrides and the range checks, plus
 * the names of decisions, structured-output modes and transports.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/policy/llm/llm_impl.h"

static const char *const DECISIONS[LLM_D_COUNT] = {
	"group", "summarize", "relevance", "learn", "qa", "route", "judge"
};
static const char *const STRUCTURED[] = { "none", "json_schema", "vllm", "ollama" };
static const char *const TRANSPORTS[] = { "http", "record", "replay" };

#define N_STRUCTURED (int)(sizeof STRUCTURED / sizeof *STRUCTURED)
#define N_TRANSPORTS (int)(sizeof TRANSPORTS / sizeof *TRANSPORTS)

static int find_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

const char *llm_decision_name(int d)
{
	return d >= 0 && d < LLM_D_COUNT ? DECISIONS[d] : "?";
}

int llm_decision_parse(const char *name)
{
	return find_name(DECISIONS, LLM_D_COUNT, name);
}

const char *llm_structured_name(int s)
{
	return s >= 0 && s < N_STRUCTURED ? STRUCTURED[s] : "?";
}

const char *llm_transport_name(int t)
{
	return t >= 0 && t < N_TRANSPORTS ? TRANSPORTS[t] : "?";
}

void llm_config_defaults(llm_config *c)
{
	memset(c, 0, sizeof *c);
	c->temperature = 0.0;
	c->max_tokens = 2048;
	c->connect_timeout_ms = 10000;
	c->low_speed_bytes = 1;
	c->low_speed_secs = 0;
	c->decision_timeout_ms = 120000;
	c->max_retries = 3;
	c->backoff_base_ms = 500;
	c->backoff_max_ms = 8000;
	c->structured = LLM_SO_NONE;
	c->transport = LLM_T_HTTP;
	c->verify_tls = 1;
	c->max_reply_bytes = (size_t)4 << 20;
}

void llm_config_free(llm_config *c)
{
	if (!c)
		return;
	free(c->base_url);
	free(c->model);
	for (int i = 0; i < LLM_D_COUNT; i++)
		free(c->model_for[i]);
	free(c->api_key_env);
	free(c->cassette);
	llm_config_defaults(c);
}

/* [A-Za-z_][A-Za-z0-9_]*, at most 128 bytes. */
static int env_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 128 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			return 0;
	}
	return 1;
}

int llm_config_check(const llm_config *c, h2emv_error *err)
{
	const char *bad = NULL;
	if (!(c->temperature >= 0.0 && c->temperature <= 2.0))
		bad = "temperature must be between 0 and 2";
	else if (c->max_tokens < 1)
		bad = "max_tokens must be at least 1";
	else if (c->connect_timeout_ms < 1)
		bad = "timeouts.connect_ms must be at least 1";
	else if (c->low_speed_bytes < 0 || c->low_speed_secs < 0)
		bad = "timeouts.low_speed_bytes and low_speed_secs must not be negative";
	else if (c->decision_timeout_ms < 1)
		bad = "timeouts.decision_ms must be at least 1";
	else if (c->max_retries < 0 || c->max_retries > 20)
		bad = "retries.max must be between 0 and 20";
	else if (c->backoff_base_ms < 0 || c->backoff_max_ms < c->backoff_base_ms)
		bad = "retries.base_ms must be >= 0 and retries.max_ms >= retries.base_ms";
	else if (c->structured < 0 || c->structured >= N_STRUCTURED)
		bad = "structured_output must be none, json_schema, vllm or ollama";
	else if (c->transport < 0 || c->transport >= N_TRANSPORTS)
		bad = "transport must be http, record or replay";
	else if (c->transport != LLM_T_HTTP && (!c->cassette || !*c->cassette))
		bad = "the record and replay transports need a cassette path";
	else if (c->max_reply_bytes < 1024)
		bad = "max_reply_bytes must be at least 1024";
	else if (c->api_key_env && !env_name_ok(c->api_key_env))
		/* not echoed: a key pasted here by mistake must not reach a log */
		bad = "api_key_env must be the NAME of an environment variable holding the key "
		      "(letters, digits, _), not the key itself";
	if (bad)
		return llm_fail(NULL, err, H2EMV_EINVAL, "bad configuration: %s", bad);
	return H2EMV_OK;
}

/* ------------------------------------------------------------ the file -- */

/* Replace *dst by a copy of s (NULL = unset). */
static int set_str(char **dst, const char *s, h2emv_error *err)
{
	char *copy = NULL;
	if (s && !(copy = strdup(s)))
		return llm_fail(NULL, err, H2EMV_ENOMEM, "out of memory loading the configuration");
	free(*dst);
	*dst = copy;
	return H2EMV_OK;
}

static int bad_key(h2emv_error *err, const char *path, const char *key, const char *why)
{
	return llm_fail(NULL, err, H2EMV_EINVAL, "config file %s: key \"%s\" %s", path, key, why);
}

static int take_str(char **dst, json_t *v, const char *path, const char *key, h2emv_error *err)
{
	if (json_is_null(v))
		return set_str(dst, NULL, err);
	if (!json_is_string(v))
		return bad_key(err, path, key, "must be a string or null");
	return set_str(dst, json_string_value(v), err);
}

static int take_long(long *dst, json_t *v, long lo, long hi, const char *path, const char *key,
                     h2emv_error *err)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		char why[96];
		snprintf(why, sizeof why, "must be an integer from %ld to %ld", lo, hi);
		return bad_key(err, path, key, why);
	}
	*dst = (long)json_integer_value(v);
	return H2EMV_OK;
}

static int take_int(int *dst, json_t *v, long lo, long hi, const char *path, const char *key,
                    h2emv_error *err)
{
	long x;
	int rc = take_long(&x, v, lo, hi, path, key, err);
	if (!rc)
		*dst = (int)x;
	return rc;
}

static int take_enum(int *dst, json_t *v, const char *const *names, int n, const char *path,
                     const char *key, h2emv_error *err)
{
	int i = json_is_string(v) ? find_name(names, n, json_string_value(v)) : -1;
	if (i < 0)
		return bad_key(err, path, key, "has an unknown value");
	*dst = i;
	return H2EMV_OK;
}

#define MAX_MS 86400000L /* a day: any longer is a mistake */

static int load_timeouts(llm_config *c, json_t *o, const char *path, h2emv_error *err)
{
	const char *k;
	json_t *v;
	if (!json_is_object(o))
		return bad_key(err, path, "timeouts", "must be an object");
	json_object_foreach (o, k, v) {
		int rc;
		if (!strcmp(k, "connect_ms"))
			rc = take_long(&c->connect_timeout_ms, v, 1, MAX_MS, path, "timeouts.connect_ms", err);
		else if (!strcmp(k, "low_speed_bytes"))
			rc = take_long(&c->low_speed_bytes, v, 0, 1L << 30, path, "timeouts.low_speed_bytes",
			               err);
		else if (!strcmp(k, "low_speed_secs"))
			rc = take_long(&c->low_speed_secs, v, 0, 86400, path, "timeouts.low_speed_secs", err);
		else if (!strcmp(k, "decision_ms"))
			rc = take_long(&c->decision_timeout_ms, v, 1, MAX_MS, path, "timeouts.decision_ms",
			               err);
		else
			rc = llm_fail(NULL, err, H2EMV_EINVAL, "config file %s: unknown key \"timeouts.%s\"",
			              path, k);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int load_retries(llm_config *c, json_t *o, const char *path, h2emv_error *err)
{
	const char *k;
	json_t *v;
	if (!json_is_object(o))
		return bad_key(err, path, "retries", "must be an object");
	json_object_foreach (o, k, v) {
		int rc;
		if (!strcmp(k, "max"))
			rc = take_int(&c->max_retries, v, 0, 20, path, "retries.max", err);
		else if (!strcmp(k, "base_ms"))
			rc = take_long(&c->backoff_base_ms, v, 0, MAX_MS, path, "retries.base_ms", err);
		else if (!strcmp(k, "max_ms"))
			rc = take_long(&c->backoff_max_ms, v, 0, MAX_MS, path, "retries.max_ms", err);
		else
			rc = llm_fail(NULL, err, H2EMV_EINVAL, "config file %s: unknown key \"retries.%s\"",
			              path, k);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int load_models(llm_config *c, json_t *o, const char *path, h2emv_error *err)
{
	const char *k;
	json_t *v;
	if (!json_is_object(o))
		return bad_key(err, path, "models", "must be an object");
	json_object_foreach (o, k, v) {
		int d = llm_decision_parse(k);
		if (d < 0)
			return llm_fail(NULL, err, H2EMV_EINVAL,
			                "config file %s: unknown key \"models.%s\" (decisions are group, "
			                "summarize, relevance, learn, qa, route, judge)",
			                path, k);
		int rc = take_str(&c->model_for[d], v, path, k, err);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

static int load_key(llm_config *c, const char *k, json_t *v, const char *path, h2emv_error *err)
{
	long n;
	int rc;
	if (!strcmp(k, "base_url"))
		return take_str(&c->base_url, v, path, k, err);
	if (!strcmp(k, "model"))
		return take_str(&c->model, v, path, k, err);
	if (!strcmp(k, "models"))
		return load_models(c, v, path, err);
	if (!strcmp(k, "api_key_env"))
		return take_str(&c->api_key_env, v, path, k, err);
	if (!strcmp(k, "temperature")) {
		if (!json_is_number(v))
			return bad_key(err, path, k, "must be a number");
		c->temperature = json_number_value(v);
		return H2EMV_OK;
	}
	if (!strcmp(k, "max_tokens"))
		return take_int(&c->max_tokens, v, 1, 1L << 24, path, k, err);
	if (!strcmp(k, "timeouts"))
		return load_timeouts(c, v, path, err);
	if (!strcmp(k, "retries"))
		return load_retries(c, v, path, err);
	if (!strcmp(k, "structured_output"))
		return take_enum(&c->structured, v, STRUCTURED, N_STRUCTURED, path, k, err);
	if (!strcmp(k, "transport"))
		return take_enum(&c->transport, v, TRANSPORTS, N_TRANSPORTS, path, k, err);
	if (!strcmp(k, "cassette"))
		return take_str(&c->cassette, v, path, k, err);
	if (!strcmp(k, "verify_tls")) {
		if (!json_is_boolean(v))
			return bad_key(err, path, k, "must be true or false");
		c->verify_tls = json_is_true(v);
		return H2EMV_OK;
	}
	if (!strcmp(k, "max_reply_bytes")) {
		if ((rc = take_long(&n, v, 1024, 1L << 30, path, k, err)))
			return rc;
		c->max_reply_bytes = (size_t)n;
		return H2EMV_OK;
	}
	return llm_fail(NULL, err, H2EMV_EINVAL, "config file %s: unknown key \"%s\"", path, k);
}

static int load_file(llm_config *c, const char *path, h2emv_error *err)
{
	json_error_t je;
	FILE *f = fopen(path, "rb");
	if (!f)
		return llm_fail(NULL, err, H2EMV_EIO, "cannot open config file %s: %s", path,
		                strerror(errno));
	json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!root) {
		int rc = llm_fail(NULL, err, H2EMV_EPARSE, "config file %s, line %d: %s", path, je.line,
		                  je.text);
		if (err) {
			err->line = je.line > 0 ? (uint64_t)je.line : 0;
			err->column = je.column > 0 ? (uint64_t)je.column : 0;
		}
		return rc;
	}
	int rc = H2EMV_OK;
	if (!json_is_object(root)) {
		rc = llm_fail(NULL, err, H2EMV_EINVAL, "config file %s must hold one JSON object", path);
	} else {
		const char *k;
		json_t *v;
		json_object_foreach (root, k, v) {
			if ((rc = load_key(c, k, v, path, err)))
				break;
		}
	}
	json_decref(root);
	return rc;
}

/* -------------------------------------------------------- environment -- */

static int env_fail(h2emv_error *err, const char *var, const char *val, const char *want)
{
	char shown[64];
	llm_sanitize(shown, sizeof shown, val, strlen(val), 48);
	return llm_fail(NULL, err, H2EMV_EINVAL, "environment variable %s=\"%s\": %s", var, shown,
	                want);
}

static int env_long(long *dst, const char *var, long lo, long hi, h2emv_error *err)
{
	const char *s = getenv(var);
	if (!s)
		return H2EMV_OK;
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (!*s || *end || errno || x < lo || x > hi) {
		char want[96];
		snprintf(want, sizeof want, "expected an integer from %ld to %ld", lo, hi);
		return env_fail(err, var, s, want);
	}
	*dst = x;
	return H2EMV_OK;
}

static int env_str(char **dst, const char *var, int empty_is_null, h2emv_error *err)
{
	const char *s = getenv(var);
	if (!s)
		return H2EMV_OK;
	if (!*s && !empty_is_null)
		return env_fail(err, var, s, "must not be empty");
	return set_str(dst, *s ? s : NULL, err);
}

static int env_enum(int *dst, const char *var, const char *const *names, int n,
                    const char *want, h2emv_error *err)
{
	const char *s = getenv(var);
	if (!s)
		return H2EMV_OK;
	int i = find_name(names, n, s);
	if (i < 0)
		return env_fail(err, var, s, want);
	*dst = i;
	return H2EMV_OK;
}

static int load_env(llm_config *c, h2emv_error *err)
{
	int rc;
	long n;
	const char *s;
	if ((rc = env_str(&c->base_url, "H2EMV_LLM_BASE_URL", 0, err)) ||
	    (rc = env_str(&c->model, "H2EMV_LLM_MODEL", 0, err)) ||
	    (rc = env_str(&c->api_key_env, "H2EMV_LLM_KEY_ENV", 1, err)) ||
	    (rc = env_str(&c->cassette, "H2EMV_LLM_CASSETTE", 0, err)))
		return rc;
	if ((s = getenv("H2EMV_LLM_TEMPERATURE"))) {
		char *end;
		errno = 0;
		double t = strtod(s, &end);
		if (!*s || *end || errno || !isfinite(t) || t < 0 || t > 2)
			return env_fail(err, "H2EMV_LLM_TEMPERATURE", s, "expected a number from 0 to 2");
		c->temperature = t;
	}
	n = c->max_tokens;
	if ((rc = env_long(&n, "H2EMV_LLM_MAX_TOKENS", 1, 1L << 24, err)))
		return rc;
	c->max_tokens = (int)n;
	if ((rc = env_long(&c->decision_timeout_ms, "H2EMV_LLM_TIMEOUT_MS", 1, MAX_MS, err)))
		return rc;
	n = c->max_retries;
	if ((rc = env_long(&n, "H2EMV_LLM_RETRIES", 0, 20, err)))
		return rc;
	c->max_retries = (int)n;
	if ((rc = env_enum(&c->structured, "H2EMV_LLM_STRUCTURED", STRUCTURED, N_STRUCTURED,
	                   "expected none, json_schema, vllm or ollama", err)) ||
	    (rc = env_enum(&c->transport, "H2EMV_LLM_TRANSPORT", TRANSPORTS, N_TRANSPORTS,
	                   "expected http, record or replay", err)))
		return rc;
	return H2EMV_OK;
}

int llm_config_load(llm_config *c, const char *path, h2emv_error *err)
{
	llm_config_defaults(c);
	int rc = H2EMV_OK;
	if (path)
		rc = load_file(c, path, err);
	if (!rc)
		rc = load_env(c, err);
	if (!rc)
		rc = llm_config_check(c, err);
	if (rc)
		llm_config_free(c);
	return rc;
}
