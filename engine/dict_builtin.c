/*
 * dict_builtin.c — the default observation dictionary compiled into every
 * codec (generated from engine/dict_obs_default.zdict by CMakeLists.txt).
 * It is stored in `dicts` under its own id, ENG_DICT_OBS_DEFAULT (also its
 * zstd id), so that any reader finds it there; dictionaries a memory
 * trains later (dict.c) get the ids after it. Every codec also holds the
 * compiled-in bytes under that id, so a damaged stored copy costs no
 * record. Apart from dict.c: opening a store needs this, and training
 * needs the store.
 */
#include "engine/engine.h"

extern const unsigned char eng_dict_obs_default[];
extern const size_t eng_dict_obs_default_len;

int eng_dict_builtin(rec_codec *c, h2emv_error *err)
{
	return rec_codec_add_dict(c, ENG_DICT_OBS_DEFAULT, eng_dict_obs_default,
	                          eng_dict_obs_default_len, err);
}
