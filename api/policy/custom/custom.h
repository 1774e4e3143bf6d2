/*
 * custom.h — a policy of the caller's own (include/h2emv.h,
 * h2emv_custom_policy) as an internal policy table (policy.h).
 */
#ifndef H2EMV_POLICY_CUSTOM_H
#define H2EMV_POLICY_CUSTOM_H

#include "api/policy/policy.h"

/* Wrap `user` (copied) in a policy; its destroy runs in the policy's.
 * Returns OK, EINVAL (NULL, unknown version, bad name), ENOMEM. */
int pol_custom_new(h2emv_policy **out, const h2emv_custom_policy *user, h2emv_error *err);

#endif
