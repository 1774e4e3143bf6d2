/*
 * salvage.h — copying what is intact out of a damaged store (salvage.c)
 * and making the copy consistent (salvage_settle.c). Private to engine/.
 */
#ifndef H2EMV_SALVAGE_H
#define H2EMV_SALVAGE_H

#include "engine/env.h"

typedef h2emv_salvage_result eng_salvage_result;

/* Make the new store consistent after the copy (see salvage.c). */
int salvage_settle(eng_env *env, eng_salvage_result *res, h2emv_violation_fn fn, void *ctx,
                   h2emv_error *err);

#endif
