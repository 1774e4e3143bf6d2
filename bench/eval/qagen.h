/*
 * qagen.h — question generation by the paper's recipe, from any
 * observation history (simulated, imported TEACh, the ARMAR-7 stream).
 *
 * The recipe (paper §IV-A, upstream create_seq.py, in our own code):
 *   1. Read the history and list occurrences of "kinds" of events: an
 *      action on a class of object (Pickup Mug), placing a class of object
 *      (where), transporting something to a place (which object), a task
 *      (the outermost goal of an episode), going to a named place, meeting
 *      a person by name, seeing a valuable (keys, wallet, medicine, ...).
 *   2. Keep the kinds that occur at least twice, the first and the last
 *      occurrence at least a day apart (two days for whole tasks).
 *   3. For each kept kind, a pair: the round-1 question ("... the first
 *      time ...") at an observation time at least QG_DELAY after the first
 *      occurrence and before the last one; the round-2 question ("... the
 *      last time ...") at an observation time at least QG_DELAY after the
 *      last occurrence, or at the history's last observation when nothing
 *      comes that late (the pair is then marked `late2 = 0`).
 *   4. Pick `pairs` of them with a seeded generator, round-robin over the
 *      question templates so one kind does not crowd out the others.
 * Each question carries its ground-truth answer, the ground-truth time span
 * and the feedback sentence ("You should always remember ...").
 *
 * Times are µs since the epoch, UTC. Everything is deterministic.
 */
#ifndef H2EMV_QAGEN_H
#define H2EMV_QAGEN_H

#include <stddef.h>
#include <stdint.h>

#include "h2emv.h"

/* How long after an occurrence its question comes at the earliest: a day,
 * longer than every low-level lifetime (scenes 1 h, events 3 h, goals 24 h). */
#define QG_DELAY (24LL * 3600 * 1000000)

/* One observation of a history: its time and its line (owned by the history). */
typedef struct qg_history {
	char **lines;      /* JSON Lines, time order, canonical or not */
	size_t *lens;
	int64_t *t;        /* time of each line */
	size_t n, cap;
} qg_history;

/* Append a line (copied); its time is parsed from it. EPARSE for a line
 * that is not a valid observation, ENOMEM. Lines must come in time order
 * (EINVAL otherwise). */
int qg_history_add(qg_history *h, const char *line, size_t len, h2emv_error *err);
void qg_history_free(qg_history *h);
/* Load a JSON Lines file into `h`. */
int qg_history_load(qg_history *h, const char *path, h2emv_error *err);

typedef struct qg_question {
	int round;              /* 1 (first time) or 2 (last time) */
	unsigned pair;          /* pair number in the history, from 0 */
	int64_t at;             /* when it is asked (an observation's time) */
	char *question;
	char *truth;            /* e.g. "At 2024/03/05, 10:03:55", "At the countertop" */
	char *feedback;         /* "You should always remember ..." */
	int64_t ref_t0, ref_t1; /* the ground-truth span */
	char *kind;             /* template name: "act-when", "place-where", ... */
	int late;               /* 1: asked at an observation's time; 0: after the
	                           history's last observation (the evaluation moves
	                           the memory's clock on to it) */
} qg_question;

typedef struct qg_set {
	qg_question *q;         /* sorted by `at`, round 1 before round 2 on ties */
	size_t n;
} qg_set;

/* Generate up to `pairs` question pairs (2 × pairs questions) from `h`.
 * Fewer when the history has fewer qualifying kinds (possibly none).
 * Returns OK or ENOMEM. Free with qg_set_free. */
int qg_generate(qg_set *out, const qg_history *h, unsigned pairs, uint64_t seed,
                h2emv_error *err);
void qg_set_free(qg_set *s);

/* The set as JSON Lines, one question per line:
 * {"pair","round","at","question","truth","feedback","ref":[t0,t1],"kind"}
 * with times in RFC 3339. Returns a malloc'd text or NULL (out of memory). */
char *qg_set_jsonl(const qg_set *s);

/* "YYYY/MM/DD, HH:MM:SS" / "YYYY/MM/DD" of t (UTC), as h2emv answers. */
void qg_fmt_time(char *buf, size_t cap, int64_t t);
void qg_fmt_day(char *buf, size_t cap, int64_t t);

#endif
