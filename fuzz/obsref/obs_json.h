/*
 * obs_json.h — the JSON reader's shared state and helpers, private to
 * obs_ref.c (the entry point, times, action, goal), obs_json.c (the
 * helpers) and obs_scene.c (objects, relations, persons, speech).
 */
#ifndef H2EMV_OBS_JSON_H
#define H2EMV_OBS_JSON_H

#include <jansson.h>
#include <msgpack.h>

#include "api/observe/obs_internal.h"
#include "engine/engine.h"

/* Parsing state: the input (for columns), the packer writing into the
 * caller's buffer, and where in the document we are. */
typedef struct jctx {
	h2emv_error *err;
	uint64_t line;
	const char *text;
	size_t len;
	eng_buf *out;
	msgpack_packer pk;
	int nomem;    /* a write failed: the body is incomplete */
	int64_t t;    /* the observation's `t`, to check `t_end` against */
	char *id;     /* NULL, or OBS_ID_MAX + 1 bytes for the observation's id */
	size_t *id_len;
	obs_path path;
} jctx;
/* The packer's write callback: appends to c->out, or sets c->nomem. */
int oj_write(void *data, const char *buf, size_t len);

/* Fail at the current path (see oj_fail_at in obs_json.c for the column).
 * `at_key`: point at the key of the last path component, not its value. */
int oj_fail_at(jctx *c, int status, int at_key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define oj_fail(c, status, ...) oj_fail_at(c, status, 0, __VA_ARGS__)
/* Fail at a known column with no field: errors about the text itself. */
int oj_fail_column(jctx *c, int status, uint64_t column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "a string", "an object", ... for messages. */
const char *oj_type(const json_t *v);
/* How many bytes of s[0..n) to quote in a message: at most `max`, not
 * cutting a UTF-8 sequence. */
int oj_clip(const char *s, size_t n, size_t max);

/* Member `name` if present and not null (null counts as absent). */
json_t *oj_member(const json_t *obj, const char *name);
/* Every member of `obj` must be one of names[0..n); `what` ("an object")
 * introduces the list of known names in the message. */
int oj_check_keys(jctx *c, const json_t *obj, const char *const *names, size_t n,
                  const char *what);
/* Member `name` must exist (null included); `what` explains why. */
int oj_require(jctx *c, const json_t *obj, const char *name, const char *what, json_t **out);

void oj_pack_strn(jctx *c, const char *s, size_t n);
/* The string limits: at most OBS_MAX_STRING bytes; non-empty if `ident`. */
int oj_check_strn(jctx *c, size_t n, int ident);
/* At most OBS_MAX_ITEMS items. */
int oj_check_items(jctx *c, size_t n);

/* Pack a string field: a name or id (non-empty), or free text. */
int oj_put_ident(jctx *c, const json_t *v);
int oj_put_text(jctx *c, const json_t *v);
/* Run `fn` on member `name` of `obj` with the path pointing at it. */
int oj_put_member(jctx *c, const json_t *obj, const char *name,
                  int (*fn)(jctx *, const json_t *));
/* An array whose items are each packed by `fn`; `what` names the items. */
int oj_put_array_of(jctx *c, const json_t *v, int (*fn)(jctx *, const json_t *),
                    const char *what);
/* Pack a string, number, boolean or null into *rc's status. Returns 1
 * (packing nothing) if `v` is an object or an array. */
int oj_put_scalar(jctx *c, const json_t *v, int *rc);

/* The members of an object in stored order (obs_key_cmp), so that equal
 * objects give equal bodies whatever order the producer wrote them in. */
typedef struct jmember {
	const char *key;
	size_t klen;
	json_t *val;
} jmember;

/* *out is malloc'd (NULL when empty): free() it. At most OBS_MAX_ITEMS. */
int oj_sorted_members(jctx *c, const json_t *obj, jmember **out, size_t *n);

/* obs_scene.c: the scene fields of an observation. */
int oj_put_objects(jctx *c, const json_t *v);
int oj_put_relations(jctx *c, const json_t *v);
int oj_put_persons(jctx *c, const json_t *v);
int oj_put_speech(jctx *c, const json_t *v);

#endif
