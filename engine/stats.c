/*
 * stats.c — counts and sizes of a memory, for `h2emv stats` and monitoring.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/env.h"

static uint64_t value_bytes(MDB_txn *txn, MDB_dbi dbi)
{
	MDB_cursor *cur;
	MDB_val k, v;
	uint64_t total = 0;
	mdb_cursor_open(txn, dbi, &cur);
	for (int op = MDB_FIRST; mdb_cursor_get(cur, &k, &v, op) == 0; op = MDB_NEXT)
		total += v.mv_size;
	mdb_cursor_close(cur);
	return total;
}

static uint64_t entries(MDB_txn *txn, MDB_dbi dbi)
{
	MDB_stat st;
	return mdb_stat(txn, dbi, &st) == 0 ? st.ms_entries : 0;
}

int eng_stats(h2emv_stats *out, eng_env *env, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	memset(out, 0, sizeof *out);
	MDB_txn *txn = r->txn;
	out->obs_count = entries(txn, env->dbi[DB_OBS]);
	out->node_versions = entries(txn, env->dbi[DB_NODES]);
	out->dead_versions = entries(txn, env->dbi[DB_DEAD]);
	out->snapshots = entries(txn, env->dbi[DB_SNAPSHOTS]);
	out->pins = entries(txn, env->dbi[DB_PINS]);
	out->dicts = entries(txn, env->dbi[DB_DICTS]);
	out->rules_versions = entries(txn, env->dbi[DB_RULES]);
	out->relcache_entries = entries(txn, env->dbi[DB_RELCACHE]);
	out->obs_bytes = value_bytes(txn, env->dbi[DB_OBS]);
	out->node_bytes = value_bytes(txn, env->dbi[DB_NODES]);
	out->relcache_bytes = value_bytes(txn, env->dbi[DB_RELCACHE]);
	uint64_t fmt = 0;
	if ((rc = eng_obs_last(&out->obs_last_seq, r, err)) ||
	    (rc = eng_last_key(&out->last_snapshot, txn, env->dbi[DB_SNAPSHOTS], err)) ||
	    (rc = eng_build_cursor(&out->build_cursor, r, err)) ||
	    (rc = meta_get_u64(&fmt, txn, env, "format", err))) {
		eng_read_end(r);
		return rc;
	}
	out->format = (uint32_t)fmt;
	MDB_envinfo info;
	MDB_stat st;
	mdb_env_info(r->gen->mdb, &info);
	mdb_env_stat(r->gen->mdb, &st);
	out->map_bytes = info.me_mapsize;
	out->used_bytes = (uint64_t)(info.me_last_pgno + 1) * st.ms_psize;
	out->generation = r->gen->num;
	char path[4200];
	struct stat fst;
	gen_path(path, sizeof path, env->dir, r->gen->num, 0);
	eng_read_end(r);
	if (stat(path, &fst) == 0)
		out->file_bytes = (uint64_t)fst.st_size;
	out->reserve_bytes = reserve_bytes(env->dir);
	return H2EMV_OK;
}
