/*
 * import.h — importers that turn recorded robot data into observation
 * histories (JSON Lines, docs/formats.md §1): TEACh EDH episodes
 * concatenated over simulated days, and the real ARMAR-7 history tree.
 * Product code behind `h2emv import`; the evaluation (bench/eval, `h2emv
 * eval --source teach|armar`) reads real histories through it too. Built on
 * the public header h2emv.h and jansson only.
 *
 * Every line handed to the emit callback is one observation that
 * `h2emv_ingest` accepts; lines come in time order (each `t` strictly after
 * the one before for TEACh; never before it for ARMAR). Experimental: the
 * mapping may still change with the evaluation.
 */
#ifndef H2EMV_TOOLS_IMPORT_H
#define H2EMV_TOOLS_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* The data is read where it lies, never copied into the repository. With no
 * path given, each source's default sits under the external data folder
 * named by the environment variable IMP_DATA_ENV (imp_default_path); there
 * is no built-in location. */
#define IMP_DATA_ENV "H2EMV_DATA"
#define IMP_TEACH_SUBDIR "teach-edh-emma"
#define IMP_ARMAR_SUBPATH "hierarchical-emv/armarx_lt_mem/2024-07-a7a-summary.tree.json"

/* Receives one observation: `line` is JSON text without a newline,
 * NUL-terminated, valid only during the call. Return H2EMV_OK to go on, or
 * a negative status to stop the import, which then returns that status. */
typedef int (*imp_emit_fn)(void *arg, const char *line, size_t len);

/* What an import produced. */
typedef struct imp_stats {
	uint64_t observations; /* lines emitted */
	uint64_t episodes;     /* TEACh episodes (EDH files, with repeats); ARMAR: 1 */
	uint64_t actions;      /* observations with an action */
	uint64_t utterances;   /* speech items (utterances, ASR strings) */
	uint64_t with_objects; /* observations with at least one object */
	uint64_t with_persons; /* observations with at least one person */
	uint64_t skipped;      /* source records not imported (see the importer) */
	uint64_t reordered;    /* ARMAR: records out of time order in the file */
	h2emv_time first, last; /* t of the first and last observation (0 if none) */
} imp_stats;

/* -------------------------------------------------------------- TEACh -- */

/* One imported episode, reported after its last line was emitted. The
 * strings are valid only during the callback. */
typedef struct imp_episode {
	size_t index;            /* 0-based position in the history */
	const char *path;        /* the EDH file */
	const char *game_id;     /* "0ad91909295bf186_134b" */
	const char *instance_id; /* "0ad91909295bf186_134b.edh0" */
	h2emv_time start, end;   /* t of its first and last observation */
	double t0;               /* the EDH time_start (s) that was mapped to `start`:
	                            upstream's "initial ts correction" */
	uint64_t observations;
} imp_episode;

typedef struct imp_teach_options {
	unsigned version;         /* IMP_TEACH_OPTIONS_VERSION */
	const char *const *paths; /* EDH files (*.edhN.json) or directories holding
	                             them (searched recursively, sorted by path) */
	size_t n_paths;
	uint32_t episodes;        /* 0: every file once, in path order. N: sample N
	                             files with the seed, without replacement when
	                             N <= files, with replacement otherwise */
	uint64_t seed;            /* the sampling and the dates depend only on it */
	const h2emv_time *starts; /* optional: the start of every episode (the files in
	                             order, no sampling); NULL: random dates from the
	                             seed as upstream does (IMPLEMENTATION_NOTES §5) */
	size_t n_starts;
	int (*on_episode)(void *arg, const imp_episode *ep); /* may be NULL; non-zero
	                                                         (a status) stops */
	void *on_episode_arg;
	h2emv_progress_fn progress; /* may be NULL: called after each episode;
	                               non-zero ends the history there (H2EMV_OK) */
	void *progress_ctx;
} imp_teach_options;

#define IMP_TEACH_OPTIONS_VERSION 1
#define IMP_TEACH_OPTIONS_INIT \
	{ IMP_TEACH_OPTIONS_VERSION, NULL, 0, 0, 42, NULL, 0, NULL, NULL, NULL, NULL }

/* Import TEACh EDH episodes as one history. Per episode, one observation per
 * relevant interaction (upstream's choice): every Driver action of the
 * Motion, ObjectInteraction and Keyboard types, and every Commander
 * utterance. Progress checks, Commander camera moves and Navigation
 * (MapGoal) are skipped (counted in stats->skipped).
 *
 *   t            episode start + (time_start - t0), t0 the first relevant
 *                interaction's time_start; +1 µs if not after the previous
 *   action       {"name", "args", "status"}: name CamelCase (Pan Left ->
 *                StepLeft), args the object names, Place/Pour with the held
 *                object first: Place(Tomato_0, CounterTop_1); Driver text is
 *                "Say"; status succeeded/failed from `success`
 *   speech       [{"speaker": "Commander"|"Driver", "text"}] (corrected text)
 *   persons      [{"name": "Commander", "id": "agent0"}] when the Commander speaks
 *   goal         [the episode's next successful object interaction], the step
 *                this action leads to (the paper's TEACh goal segmentation);
 *                goal_status "succeeded" on that interaction, else "running"
 *   objects      the held object, the action's objects, and (at the end of
 *                the EDH history and at the episode's end) every object the
 *                state diffs mark visible: id = name (Class, Class_k,
 *                Class_k_Sliced_n: k numbers a class's instances by sorted
 *                objectId), type = objectType, state = "open, toggled, ...",
 *                relations [held, "agent hand", "inside"], [obj, recept, "in/on"]
 *   note         on an episode's first line: "TEACh <split>/<instance_id>"
 *
 * EDH files carry no task description, so there is no task-level goal.
 * On a missing or mistyped field the error names the file and the field
 * ("interactions[3].time_start"); a JSON syntax error names file, line and
 * column. Returns H2EMV_OK, EINVAL (bad options, no EDH file found),
 * EIO (unreadable file), EPARSE, ENOMEM, or what emit / on_episode returned.
 * *out (may be NULL) is filled in either case. */
int imp_teach(imp_stats *out, const imp_teach_options *o, imp_emit_fn emit, void *arg,
              h2emv_error *err);

/* -------------------------------------------------------------- ARMAR -- */

typedef struct imp_armar_options {
	unsigned version;     /* IMP_ARMAR_OPTIONS_VERSION */
	const char *path;     /* the tree JSON; NULL = $H2EMV_DATA/IMP_ARMAR_SUBPATH */
	h2emv_time from, to;  /* keep from <= t < to; 0 = unbounded */
	uint64_t limit;       /* emit at most this many; 0 = all */
	h2emv_progress_fn progress; /* may be NULL: every 256 records; non-zero
	                               stops early (H2EMV_OK) */
	void *progress_ctx;
} imp_armar_options;

#define IMP_ARMAR_OPTIONS_VERSION 1
#define IMP_ARMAR_OPTIONS_INIT { IMP_ARMAR_OPTIONS_VERSION, NULL, 0, 0, 0, NULL, NULL }

/* Import the ARMAR-7 history tree (`_type` nodes, README of
 * hierarchical-emv): one observation per SceneGraphInstant, wherever it sits
 * in the tree, in time order (a stable sort by timestamp: records out of
 * order are counted in stats->reordered; equal times keep file order). The
 * upstream summaries above the scenes are not imported.
 *
 *   t            raw.timestamp (no zone: UTC), written as RFC 3339 with Z
 *   action       {"name": current_action, "args": current_action_parameters
 *                whole, "status": current_action_state}
 *   goal         current_goal (dotted skill stack, outermost first), as an
 *                array; goal_status = current_goal_state
 *   speech       asr_recognition as raw ASR (no speaker); and what the robot
 *                said: a Say skill's parameters.text, once per utterance (at
 *                its first Running instant), speaker "robot", enclosing quotes
 *                and SSML tags removed
 *   persons      {"id": "human_<humanTrackingId>"} while looking at a tracked
 *                human; {"name": <name>} for LearnCurrentPerson; {"name":
 *                "user"} when a skill chain triggered by "user speech command"
 *                starts
 *   objects      [{"id": instance_id, "type": obj_class, "state"}] (duplicates
 *                of an instance id in one scene dropped)
 *   relations    [from, to, type]; object indices are resolved to instance ids
 *
 * Returns H2EMV_OK, EINVAL (bad options; no path and H2EMV_DATA unset), EIO
 * (missing or unreadable file), EPARSE (with the JSON path of the bad
 * field), ENOMEM, or what emit returned. */
int imp_armar(imp_stats *out, const imp_armar_options *o, imp_emit_fn emit, void *arg,
              h2emv_error *err);

/* ------------------------------------------------------------ helpers -- */

/* The default location of a source's data: "$H2EMV_DATA/<sub>", sub being
 * IMP_TEACH_SUBDIR or IMP_ARMAR_SUBPATH, written into buf (n bytes).
 * Returns buf, or NULL when H2EMV_DATA is unset or empty or the path does
 * not fit. Does not check that the path exists: the importer's error names
 * it when it does not. */
const char *imp_default_path(char *buf, size_t n, const char *sub);

/* Parse "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS[.frac]]" or with 'T', optional
 * "Z" (always UTC) into *out. Returns 0 on success, -1 otherwise. */
int imp_parse_time(h2emv_time *out, const char *s);

/* Format t as "YYYY-MM-DDTHH:MM:SS.ffffffZ" into buf (>= 32 bytes). */
const char *imp_format_time(char *buf, size_t n, h2emv_time t);

#endif
