/*
 * stats.c — counts and sizes of a memory, for `h2emv stats` and monitoring.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/env.h"
#include "engine/gate.h"

static int value_bytes(uint64_t *total, MDB_txn *txn, MDB_dbi dbi, h2emv_error *err)
{
	MDB_cursor *cur;
	MDB_val k, v;
	*total = 0;
	int rc = mdb_cursor_open(txn, dbi, &cur);
	if (rc)
		return env_err(err, rc, "stats");
	for (int op = MDB_FIRST; (rc = mdb_cursor_get(cur, &k, &v, op)) == 0; op = MDB_NEXT)
		*total += v.mv_size;
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? H2EMV_OK : env_err(err, rc, "stats");
}

static int entries(uint64_t *out, MDB_txn *txn, MDB_dbi dbi, h2emv_error *err)
{
	MDB_stat st;
	int rc = mdb_stat(txn, dbi, &st);
	*out = rc ? 0 : st.ms_entries;
	return rc ? env_err(err, rc, "stats") : H2EMV_OK;
}

int eng_stats(h2emv_stats *out, eng_env *env, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, env, err);
	if (rc)
		return rc;
	memset(out, 0, sizeof *out);
	MDB_txn *txn = r->txn;
	uint64_t fmt = 0;
	if ((rc = entries(&out->obs_count, txn, env->dbi[DB_OBS], err)) ||
	    (rc = entries(&out->node_versions, txn, env->dbi[DB_NODES], err)) ||
	    (rc = entries(&out->dead_versions, txn, env->dbi[DB_DEAD], err)) ||
	    (rc = entries(&out->snapshots, txn, env->dbi[DB_SNAPSHOTS], err)) ||
	    (rc = entries(&out->pins, txn, env->dbi[DB_PINS], err)) ||
	    (rc = entries(&out->dicts, txn, env->dbi[DB_DICTS], err)) ||
	    (rc = entries(&out->rules_versions, txn, env->dbi[DB_RULES], err)) ||
	    (rc = entries(&out->relcache_entries, txn, env->dbi[DB_RELCACHE], err)) ||
	    (rc = value_bytes(&out->obs_bytes, txn, env->dbi[DB_OBS], err)) ||
	    (rc = value_bytes(&out->node_bytes, txn, env->dbi[DB_NODES], err)) ||
	    (rc = eng_obs_last(&out->obs_last_seq, r, err)) ||
	    (rc = eng_last_key(&out->last_snapshot, txn, env->dbi[DB_SNAPSHOTS], err)) ||
	    (rc = eng_build_cursor(&out->build_cursor, r, err)) ||
	    (rc = meta_get_u64(&fmt, txn, env, "format", err))) {
		eng_read_end(r);
		return rc;
	}
	out->format = (uint32_t)fmt;
	MDB_envinfo info;
	MDB_stat st;
	if ((rc = mdb_env_info(r->gen->mdb, &info)) || (rc = mdb_env_stat(r->gen->mdb, &st))) {
		eng_read_end(r);
		return env_err(err, rc, "stats");
	}
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
