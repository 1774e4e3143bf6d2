/*
 * profile.h — robot profiles: a declarative mapping (one JSON file per
 * robot, docs/profiles.md) from a robot's skill names and parameter keys
 * to the roles of typed facts (facts.h), and how its stream segments into
 * goals. A memory keeps the profile it was given (meta key
 * "robot_profile"); without one, the generic mapping reads common key
 * names ("object", "to", "from", "location", "person", "text", ...).
 */
#ifndef H2EMV_PROFILE_H
#define H2EMV_PROFILE_H

#include <stddef.h>

#include "engine/engine.h"
#include "h2emv.h"

enum role {
	R_NONE = 0, R_OBJECT, R_SOURCE, R_DEST, R_PLACE, R_WHO, R_INSTR, R_TEXT, R_IGNORE, R_COUNT_
};

extern const char *const role_names[R_COUNT_];

typedef struct prof_key {
	char *key;   /* lower case, '_' '-' ' ' dropped */
	int role;
} prof_key;

typedef struct prof_skill {
	char *name;     /* as the robot names it */
	char *verb;     /* the verb it means ("bring"); NULL: from the name */
	char *object;   /* the object it handles when no parameter says ("dishwasher") */
	prof_key *keys;
	size_t n_keys;
	int ignore;     /* a motion primitive not worth a fact of its own */
} prof_skill;

typedef struct robot_profile {
	char *name;
	int segmentation;   /* h2emv_profile */
	prof_skill *skills;
	size_t n_skills;
	prof_key *keys;     /* for every skill */
	size_t n_keys;
	char **self;        /* speakers and persons that are the robot */
	size_t n_self;
	char *json;         /* the text it was read from */
} robot_profile;

/* Parse a profile (JSON text). EPARSE with a message naming the field. */
int profile_parse(robot_profile **out, const char *json, size_t len, h2emv_error *err);
void profile_free(robot_profile *p);

/* The memory's profile; *out = NULL when it has none. */
int profile_load(robot_profile **out, eng_env *env, h2emv_error *err);
/* Store a profile's text in the memory (validated first). */
int profile_store(eng_env *env, const char *json, size_t len, h2emv_error *err);

/* The skill entry for an action name, or NULL. */
const prof_skill *profile_skill(const robot_profile *p, const char *name);

/* The role of a parameter key for a skill: the profile's word, else the
 * generic guess from the key's words. `p` and `sk` may be NULL. */
int profile_role(const robot_profile *p, const prof_skill *sk, const char *key, size_t n);

/* Is this name the robot itself (the profile's "self", or "robot", "I")? */
int profile_is_self(const robot_profile *p, const char *name);

/* The profiles shipped with h2emv ("armar7", "teach"): JSON text, or NULL. */
const char *profile_builtin(const char *name);

#endif
