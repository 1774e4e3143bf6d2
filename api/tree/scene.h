/*
 * scene.h — one observation as the segmenter sees it (an L1 scene), and
 * its text block (docs/tree.md, "Scene block").
 */
#ifndef H2EMV_SCENE_H
#define H2EMV_SCENE_H

#include <msgpack.h>

#include "api/base/strbuf.h"
#include "engine/engine.h"

typedef struct scene_obj {
	const char *id, *type;
	char *state;            /* rendered: "clean" or "isCooked=true, isSliced=false"; may be NULL */
} scene_obj;

typedef struct scene_rel {
	const char *from, *to, *type;
} scene_rel;

typedef struct scene_utt {
	const char *speaker;    /* may be NULL (raw ASR) */
	const char *text;
} scene_utt;

typedef struct scene {
	int64_t t, t_end;       /* t_end = t when absent */
	int utc_offset;         /* minutes east of UTC that t was written in; 0: UTC */
	const char *action;     /* NULL: none */
	char *args;             /* rendered "object=knife_0, target=countertop_0" or "a, b"; may be NULL */
	const msgpack_object *args_obj; /* the arguments as stored (points into the zone and
	                                   the body: valid while both are); may be NULL */
	int action_status;      /* 0 none, 1..5 (preparing..aborted) */
	const char **goal;      /* the goal stack, outermost first */
	size_t n_goal;
	int goal_status;
	const char *location;
	scene_obj *objects;
	size_t n_objects;
	scene_rel *rels;        /* top-level relations and those under objects */
	size_t n_rels;
	const char **persons;
	const char **person_ids; /* each person's id as written ({name, id}), or NULL */
	size_t n_persons;
	scene_utt *speech;
	size_t n_speech;
	const char *note;
	/* private: storage the pointers above point into */
	msgpack_zone zone;
	eng_buf strs;
	int zone_ok;
} scene;

extern const char *const scene_status_names[6]; /* "", "preparing", ... */

/* Decode an observation body (validated with obs_body_check first).
 * Release with scene_free. Returns OK, ECORRUPT, ENOMEM. */
int scene_decode(scene *out, const void *body, size_t len, h2emv_error *err);
void scene_free(scene *s);

/* The "Action: ..." text (without the "Action: " label) into `out`. */
int scene_action_text(pr_str *out, const scene *s);
/* The scene block of docs/tree.md (no trailing newline), appended. With
 * `action_label` the first line reads "Action: ...". */
int scene_render(pr_str *out, const scene *s);

/* Is the action an object interaction (an argument names an object id
 * seen in the scene, or a key like object/target/obj) that succeeded (or
 * has no status)? The teach profile closes a goal after one. */
int scene_is_interaction(const scene *s);

/* Hash of what makes two consecutive scenes the same event: action name,
 * args, object set with states, relations. Speech is not part of it. */
uint64_t scene_event_key(const scene *s);

#endif
