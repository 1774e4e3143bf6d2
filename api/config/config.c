/*
 * config.c — the memory model's configuration, stored in `meta` as a small
 * msgpack array so every process opening the memory builds it the same way.
 */
#include <msgpack.h>
#include <stddef.h>
#include <string.h>

#include "api/mem/mem.h"

#define H 3600000000ll
#define CONFIG_KEY "config"
#define CONFIG_FIELDS 17
/* Version 1 stored the first 14 fields (no max_clock_jump), version 2 the
 * first 15 (no retention). */
#define CONFIG_FIELDS_V1 14
#define CONFIG_FIELDS_V2 15

void config_defaults(h2emv_config *c)
{
	c->version = H2EMV_CONFIG_VERSION;
	if (!c->profile)
		c->profile = H2EMV_PROFILE_TEACH;
	if (!c->forgetting)
		c->forgetting = H2EMV_FORGET_RELEVANCE;
	if (!c->life_scene)
		c->life_scene = 1 * H;
	if (!c->life_event)
		c->life_event = 3 * H;
	if (!c->life_goal)
		c->life_goal = 24 * H;
	if (!c->life_summary)
		c->life_summary = 72 * H;
	if (!c->event_gap)
		c->event_gap = 120000000ll;
	if (!c->context_window)
		c->context_window = 8;
	if (!c->qa_max_rounds)
		c->qa_max_rounds = 10;
	if (!c->qa_max_tokens)
		c->qa_max_tokens = 20000;
	if (!c->max_clock_jump)
		c->max_clock_jump = 30 * 24 * H;
}

static int buf_write(void *data, const char *p, size_t len)
{
	return eng_buf_append(data, p, len) ? -1 : 0;
}

/* An array of fixed-width uint64 (the layout every version stored, which
 * readers before msgpack-c's unpacker required). */
static int encode(eng_buf *b, const h2emv_config *c)
{
	uint64_t f[CONFIG_FIELDS] = {
		c->version, (uint64_t)c->profile, (uint64_t)c->forgetting, (uint64_t)c->life_scene,
		(uint64_t)c->life_event, (uint64_t)c->life_goal, (uint64_t)c->life_summary,
		(uint64_t)c->event_gap, (uint64_t)c->rules_in_summaries, (uint64_t)c->rules_in_relevance,
		(uint64_t)c->flat, c->context_window, c->qa_max_rounds, c->qa_max_tokens,
		(uint64_t)c->max_clock_jump, (uint64_t)c->raw_log_window, c->max_size,
	};
	msgpack_packer pk;
	msgpack_packer_init(&pk, b, buf_write);
	int bad = msgpack_pack_array(&pk, CONFIG_FIELDS);
	for (int i = 0; i < CONFIG_FIELDS; i++)
		bad |= msgpack_pack_fix_uint64(&pk, f[i]);
	return bad ? H2EMV_ENOMEM : H2EMV_OK;
}

/* The fields of a stored array: every one an unsigned integer (any msgpack
 * form; encode writes them fixed width). Returns how many, 0 when malformed,
 * -1 when out of memory. */
static int unpack_fields(uint64_t f[CONFIG_FIELDS], const uint8_t *p, size_t n)
{
	if (mp_prescan(p, n, 1, NULL))
		return 0;
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	msgpack_unpack_return ret = msgpack_unpack_next(&u, (const char *)p, n, &off);
	const msgpack_object *o = &u.data;
	int nf = 0;
	if (ret == MSGPACK_UNPACK_NOMEM_ERROR)
		nf = -1;
	else if (ret == MSGPACK_UNPACK_SUCCESS && off == n && o->type == MSGPACK_OBJECT_ARRAY &&
	         o->via.array.size <= CONFIG_FIELDS) {
		nf = (int)o->via.array.size;
		for (int i = 0; i < nf; i++) {
			if (o->via.array.ptr[i].type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
				nf = 0;
				break;
			}
			f[i] = o->via.array.ptr[i].via.u64;
		}
	}
	msgpack_unpacked_destroy(&u);
	return nf;
}

/* Any stored layout: version 1 (14 fields), 2 (15) or 3 (17). */
static int decode(h2emv_config *c, const uint8_t *p, size_t n)
{
	uint64_t f[CONFIG_FIELDS] = { 0 };
	int nf = unpack_fields(f, p, n);
	if (nf < 0)
		return H2EMV_ENOMEM;
	if (nf != CONFIG_FIELDS && nf != CONFIG_FIELDS_V1 && nf != CONFIG_FIELDS_V2)
		return H2EMV_ECORRUPT;
	unsigned want = nf == CONFIG_FIELDS ? 3u : nf == CONFIG_FIELDS_V2 ? 2u : 1u;
	if (f[0] != want || f[1] < 1 || f[1] > 2 || f[2] < 1 || f[2] > 3 || f[14] > INT64_MAX ||
	    f[15] > INT64_MAX)
		return H2EMV_ECORRUPT;
	memset(c, 0, sizeof *c);
	c->version = (unsigned)f[0];
	c->profile = (h2emv_profile)f[1];
	c->forgetting = (h2emv_forgetting)f[2];
	c->life_scene = (h2emv_time)f[3];
	c->life_event = (h2emv_time)f[4];
	c->life_goal = (h2emv_time)f[5];
	c->life_summary = (h2emv_time)f[6];
	c->event_gap = (h2emv_time)f[7];
	c->rules_in_summaries = (int)f[8];
	c->rules_in_relevance = (int)f[9];
	c->flat = (int)f[10];
	c->context_window = (unsigned)f[11];
	c->qa_max_rounds = (unsigned)f[12];
	c->qa_max_tokens = f[13];
	c->max_clock_jump = (h2emv_time)f[14]; /* 0 (version 1): the default */
	/* versions 1 and 2 had no window: the default; stored 0 is none */
	c->raw_log_window = nf == CONFIG_FIELDS ? (h2emv_time)f[15] : H2EMV_RAW_LOG_DEFAULT;
	c->max_size = f[16];
	return H2EMV_OK;
}

int config_load(h2emv_mem *mem, h2emv_error *err)
{
	h2emv_config c;
	memset(&c, 0, sizeof c);
	c.rules_in_summaries = c.rules_in_relevance = 1;
	c.raw_log_window = H2EMV_RAW_LOG_DEFAULT; /* a memory never configured */
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	eng_buf b = { 0 };
	rc = eng_kv_get(&b, r, ENG_KV_META, CONFIG_KEY, strlen(CONFIG_KEY), NULL);
	eng_read_end(r);
	if (rc == H2EMV_OK && (rc = decode(&c, b.data, b.len)) != H2EMV_OK)
		rc = rc == H2EMV_ENOMEM
		         ? eng_fail(err, H2EMV_ENOMEM, "out of memory reading the configuration")
		         : eng_fail(err, H2EMV_ECORRUPT, "the stored configuration is malformed");
	else if (rc == H2EMV_ENOTFOUND)
		rc = H2EMV_OK;
	eng_buf_free(&b);
	if (rc)
		return rc;
	config_defaults(&c);
	pthread_mutex_lock(&mem->lock);
	mem->cfg = c;
	pthread_mutex_unlock(&mem->lock);
	return H2EMV_OK;
}

int h2emv_config_get(h2emv_config *out, h2emv_mem *mem, h2emv_error *err)
{
	if (!out || !mem)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_config_get: bad arguments");
	pthread_mutex_lock(&mem->lock);
	*out = mem->cfg;
	pthread_mutex_unlock(&mem->lock);
	return H2EMV_OK;
}

int h2emv_config_set(h2emv_mem *mem, const h2emv_config *cfg, h2emv_error *err)
{
	if (!mem || !cfg || cfg->version < 1 || cfg->version > H2EMV_CONFIG_VERSION)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_config_set: bad arguments or version");
	h2emv_config c;
	/* an older caller's struct ends earlier: the stored values fill the rest */
	size_t have = cfg->version == 1   ? offsetof(h2emv_config, max_clock_jump)
	              : cfg->version == 2 ? offsetof(h2emv_config, raw_log_window)
	                                  : sizeof c;
	pthread_mutex_lock(&mem->lock);
	c = mem->cfg;
	pthread_mutex_unlock(&mem->lock);
	memcpy(&c, cfg, have);
	c.version = H2EMV_CONFIG_VERSION;
	config_defaults(&c);
	if (c.profile > H2EMV_PROFILE_SKILL_STACK || c.forgetting > H2EMV_FORGET_NONE ||
	    c.life_scene < 0 || c.life_event < 0 || c.life_goal < 0 || c.life_summary < 0 ||
	    c.max_clock_jump < 0 || c.raw_log_window < 0)
		return eng_fail(err, H2EMV_EINVAL, "h2emv_config_set: a value is out of range");
	h2emv_stats st;
	int rc = eng_stats(&st, mem->env, err);
	if (rc)
		return rc;
	if (st.snapshots && c.profile != mem->cfg.profile)
		return eng_fail(err, H2EMV_EINVAL,
		                "the memory already has a tree built with another profile");
	eng_buf b = { 0 };
	rc = encode(&b, &c);
	if (rc == H2EMV_OK)
		rc = eng_kv_put(mem->env, ENG_KV_META, CONFIG_KEY, strlen(CONFIG_KEY), b.data, b.len,
		                err);
	eng_buf_free(&b);
	if (rc == H2EMV_OK) {
		pthread_mutex_lock(&mem->lock);
		mem->cfg = c;
		pthread_mutex_unlock(&mem->lock);
	}
	return rc;
}
