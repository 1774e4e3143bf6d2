/*
 * facts.h — typed facts: what a scene, event, goal or summary holds, as
 * data rather than text (DESIGN §5, docs/formats.md "Typed facts").
 *
 * One module owns this content: facts are extracted from an observation
 * through the memory's robot profile (profile.h), merged upwards as the
 * tree grows (an event's and a goal's facts gather their scenes', a
 * summary's its children's), stored in the node's payload with msgpack,
 * and rendered as text for display and prompts. Nothing parses text back.
 *
 * A fact is one of: an action (verb, as recorded, status, roles), a person
 * present, an utterance, an object seen (with its state and where it was),
 * or a place the robot was at. Equal facts merge: the count goes up and the
 * time of the first and the last occurrence are kept.
 */
#ifndef H2EMV_FACTS_H
#define H2EMV_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "api/tree/tree.h"
#include "engine/engine.h"

struct scene;
struct robot_profile;

/* FT_NOTE: a note the robot wrote, whatever its first word: FS_TEXT the
 * note, FS_WHO the people it names, FS_NAME the action it was written
 * beside (if any), FS_PLACE where. */
enum fact_type { FT_ACT = 1, FT_PERSON, FT_SPEECH, FT_SEEN, FT_PLACE, FT_TASK, FT_NOTE };

/* String slots of a fact (NULL when absent). */
enum fact_slot {
	FS_VERB,   /* ACT: the normalized verb (lemma): "go", "grasp", "put" */
	FS_NAME,   /* ACT: the action as recorded; PERSON: name; SPEECH: speaker; SEEN: object */
	FS_OBJ,    /* ACT: the object handled */
	FS_SRC,    /* ACT: where it came from */
	FS_DST,    /* ACT: where it went */
	FS_PLACE,  /* ACT, SEEN, PLACE: where */
	FS_WHO,    /* ACT: the person (recipient, the one met) */
	FS_INSTR,  /* ACT: the instrument */
	FS_TEXT,   /* ACT (a say skill), SPEECH: the words */
	FS_STATE,  /* SEEN: the object's state; ACT: its other named parameters ("order 5541") */
	FS_N
};

/* Action status classes (the observation's 1..5 folded): */
enum fact_status { FST_NONE = 0, FST_ONGOING = 1, FST_DONE = 3, FST_FAILED = 4, FST_ABORTED = 5 };

typedef struct fact {
	uint8_t type, status, cls;  /* cls: lex_class of the verb */
	uint32_t count;             /* occurrences merged */
	int64_t t0, t1, t2;         /* start of the first, start of the last, end of the last */
	uint64_t key;               /* identity for merging (type, status, slots) */
	char *s[FS_N];
	char *blk;                  /* when set, every s[i] points into this one block */
} fact;

typedef struct facts {
	fact *v;
	size_t n, cap;
	int trimmed;                /* some facts were dropped to keep the cap */
} facts;

/* Caps: facts one node keeps. */
#define FACTS_EVENT_MAX 64
#define FACTS_GOAL_MAX 256
#define FACTS_SUMMARY_MAX 256

void facts_free(facts *f);
void facts_clear(facts *f);

/* Extract the facts of one observation (decoded scene) through `prof`
 * (may be NULL: the generic mapping). With `tasks`, the outermost goal is a
 * task fact too (action-list robots: the goal names the task; skill-stack
 * robots' goals are their skills, already actions). Appends. ENOMEM. */
int facts_from_scene(facts *out, const struct scene *s, const struct robot_profile *prof,
                     int tasks);

/* A line that only closes its goal ("goal_status": "failed", a note "FAIL:
 * latch did not release", no action), or an action's final line with no
 * arguments ("RigCheck" failed, "reason=halligan missing"): the run it
 * closes, the newest action in the goal's facts `goal` with no outcome of
 * its own (of that name), ended so too; the bare action is dropped. Appends to `out` that action with the line's outcome, time
 * and place, and the note as its reason; nothing when there is none.
 * ENOMEM. */
int facts_close_run(facts *out, const facts *goal, const struct scene *s);
/* A final line of an action with arguments of its own (its result, its
 * reason) that follows a line of the same goal starting that action with
 * its inputs: the final line's fact in `out` takes the run's inputs it
 * lacks (object, from, to, with), the inputs' parameters before its own,
 * and the run's start as its time. ENOMEM. */
int facts_join_run(facts *out, const facts *goal, const struct scene *s);
/* Would facts_close_run close a run of `goal` for s? */
int facts_closes_run(const facts *goal, const struct scene *s);

/* Merge `add` into `dst`: an equal fact (same key) counts the occurrences
 * and widens the times; any other is copied. Trims to `cap`. ENOMEM. */
int facts_merge(facts *dst, const facts *add, size_t cap);

/* The same for a scene's facts: one whose key is among prev[0..n_prev)
 * (the previous scene's, when it came without a pause) continues that
 * occurrence and only extends its end. */
int facts_merge_seq(facts *dst, const facts *add, const uint64_t *prev, size_t n_prev,
                    size_t cap);

/* Keep the `cap` most telling facts (failures, people, speech, actions,
 * rare things first). */
void facts_trim(facts *f, size_t cap);

/* ------------------------------------------------------------ payloads -- */

/* Node payloads of events, goals and summaries are msgpack arrays
 * [open, aux, facts?]: `open` 0/1, `aux` the event key or the goal depth,
 * then the facts (docs/formats.md). Scenes keep their observation body. */

/* Read the head; returns 1 when the payload has this shape. */
int facts_payload_head(const void *p, size_t n, int *open, uint64_t *aux);
/* Decode the facts of a payload (none: empty). ECORRUPT, ENOMEM. */
int facts_payload_decode(facts *out, const void *p, size_t n);
/* Encode [open, aux, facts] into `out` (replaced). ENOMEM. */
int facts_payload_encode(eng_buf *out, int open, uint64_t aux, const facts *f);

/* ------------------------------------------------- facts on tree nodes -- */

/* The facts of a builder node (decoded from its payload on first use and
 * kept on the node); NULL when out of memory. */
facts *facts_of(tnode *n);
/* Write the head [open, aux] of a node's payload, keeping its facts. */
int facts_set_head(tnode *n, int open, uint64_t aux);
/* Mark the node's facts changed (written at the next commit). */
void facts_touch(tnode *n);
/* Before a commit: write changed facts into the payload. ENOMEM. */
int facts_flush(tnode *n);
/* A summary's facts: the merge of its children's. */
int facts_aggregate(tnode *p);
/* Relevance without rules: people met or heard and failures lengthen a
 * node's life (0.5 each, in lifetimes); 0 for nothing of the kind. */
double facts_grade(const facts *f);
/* A node whose life was lengthened once by a graded relevance carries a
 * mark in its payload head (bit 1 of `open`): the next expiry forgets it. */
int facts_extended(const tnode *n);
int facts_mark_extended(tnode *n);
/* Forget a node's facts (a placeholder keeps none). */
void facts_drop(tnode *n);

/* ------------------------------------------------------------- display -- */

/* One fact as a short clause: "put the cup at the sink (succeeded)",
 * "saw the milk (open) on the table", "Anna said: \"...\"". Appends to b. */
int facts_render_one(eng_buf *b, const fact *f);

/* Does a parameter's key name why a run went as it did ("error",
 * "fail_reason", "finding")? */
int fact_reason_key(const char *key, size_t klen);

#endif
