/*
 * internal.h — what the importer files in tools/import share: errors, a
 * seeded generator, JSON loading and emitting, and the TEACh episode
 * converter and its object table.
 */
#ifndef H2EMV_TOOLS_IMPORT_INTERNAL_H
#define H2EMV_TOOLS_IMPORT_INTERNAL_H

#include <jansson.h>

#include "import.h"

#define IMP_US 1000000ll

/* Fill err (may be NULL) with status, field (may be NULL) and a message;
 * return status. */
int imp_fail(h2emv_error *err, int status, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* splitmix64: the same sequence on every machine. */
typedef struct imp_rng {
	uint64_t s;
} imp_rng;
uint64_t imp_rng_next(imp_rng *r);
double imp_rng_unit(imp_rng *r);           /* [0, 1) */
uint64_t imp_rng_below(imp_rng *r, uint64_t n); /* [0, n), n > 0 */

/* Load a JSON file. Errors name the file (and line, column for syntax):
 * EIO when it cannot be read, EPARSE when it is not JSON. */
int imp_load_json(json_t **out, const char *path, h2emv_error *err);

/* Serialise `obs` compactly, hand it to emit and count it in st. Steals no
 * reference. */
int imp_emit_obs(json_t *obs, h2emv_time t, imp_emit_fn emit, void *arg, imp_stats *st);

/* The JSON type's name, for messages ("a string", "an array"). */
const char *imp_json_kind(const json_t *v);

/* ------------------------------------------------------ TEACh episode -- */

/* One EDH episode converted to observations. */
typedef struct imp_teach_ep {
	const char *path;
	h2emv_time start;  /* t of the first observation */
	h2emv_time end;    /* out: t of the last observation */
	double t0;         /* out: time_start mapped to `start` */
	uint64_t observations; /* out */
	char game_id[128], instance_id[160], split[64]; /* out */
} imp_teach_ep;

/* Emit the episode's observations, the first at ep->start. */
int imp_teach_episode(imp_teach_ep *ep, json_t *edh, imp_emit_fn emit, void *arg,
                      imp_stats *st, h2emv_error *err);

/* The TEACh object table: names (Class, Class_k, Class_k_Sliced_n), types
 * and the state tracked through an episode. */
typedef struct tobj {
	char *oid;    /* objectId as in the data */
	char *name;   /* the name observations use */
	char *type;   /* objectType */
	unsigned flags; /* TF_* */
	int parent;   /* index of the receptacle it is in/on, or -1 */
} tobj;

enum {
	TF_TOGGLED = 1u << 0,
	TF_BROKEN = 1u << 1,
	TF_DIRTY = 1u << 2,
	TF_COOKED = 1u << 3,
	TF_OPEN = 1u << 4,
	TF_FILLED = 1u << 5,
	TF_SLICED = 1u << 6,
	TF_NFLAGS = 7
};

typedef struct tobjs {
	tobj *v;
	size_t n, cap;
	int held; /* index of the object in the agent's hand, or -1 */
} tobjs;

/* Build the table from every objectId the EDH file mentions. */
int tobjs_build(tobjs *t, json_t *edh, const char *path, h2emv_error *err);
void tobjs_free(tobjs *t);
/* Index of an objectId, or -1. */
int tobjs_find(const tobjs *t, const char *oid);
/* Apply a state diff's {objectId: {prop: value}} to the tracked state.
 * With `visible`, append the indices of objects marked visible. */
int tobjs_apply_diff(tobjs *t, json_t *objects, int **visible, size_t *n_visible);
/* The state string ("open, toggled") or NULL when no flag is set. */
const char *tobj_state(const tobj *o, char *buf, size_t n);

#endif
