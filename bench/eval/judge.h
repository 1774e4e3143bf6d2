/*
 * judge.h — the deterministic answer judge of the evaluation: it puts a
 * system's answer to a memory question into one of the upstream judge's
 * seven categories (H²-EMV paper, "Metrics"; upstream llm_emv/eval/metrics),
 * without a language model, so a run can be scored offline and the same
 * answer always gets the same grade.
 *
 * How an answer is read depends on the kind of question, found from the
 * question's wording and the shape of the ground truth (judge_kind):
 *   - a time ("When did you ...?", truth "At 2024/09/23, 10:03:55"),
 *   - a day ("At what day ...?", truth "At 2024/09/23"),
 *   - "how many days ago" (truth "6 days ago and 3 days ago"),
 *   - a list of objects ("What objects did you see ...?"),
 *   - a list of steps ("What steps / actions ...?"), or the first step,
 *   - one place ("Where / To where ...?", truth "At the countertop"),
 *   - one object ("Which object ...?", truth "The mug"),
 *   - persons ("Who ...?"), yes/no ("Was there a ...?"), and free text
 *     (anything else: task descriptions, "what did you do ...").
 *
 * The rules, the upstream judge's (IMPLEMENTATION_NOTES §6) made exact:
 *   - no_answer: the system says it forgot (judge_case.answer_forgotten),
 *     the answer is empty, or it refuses / says it has no record / does not
 *     know, and names nothing of the kind asked for.
 *   - Times. An answer's time is an interval as precise as it is written
 *     (a second, a minute; "5pm" and "around 5pm" are the hour around
 *     17:00; "in the afternoon" is 12–18 h; "between 16:59 and 17:02" is
 *     that range). The truth is the ground-truth span [ref_t0, ref_t1]
 *     together with the time written in the truth text. With d the gap
 *     between the two intervals:
 *         d <= time_tolerance (default 60 s), answer at most
 *              partial_tolerance wide                  -> correct
 *         d <= time_tolerance, answer wider            -> correct_summarized
 *         d <= partial_tolerance (default 10 min)      -> partially_correct_missing
 *         the right day, but no time given             -> partially_correct_missing
 *         the right time of day, no date given         -> partially_correct_missing
 *              (correct when asked_at falls on the truth's day)
 *         anything else (another day, further off)     -> wrong
 *     These follow the upstream H²-EMV few-shot labels (53 s off: correct;
 *     2 min 14 s off: partially correct; 19 min off: wrong; "around 5pm":
 *     correct_summarized; the date alone: partially_correct_missing) and
 *     the paper's samples (8 min off: partially correct; an hour off:
 *     wrong). A second, different time besides a right one makes it
 *     partially_correct_tmi. A day question is correct for the right day;
 *     a time on top is extra: correct_tmi when it lies in the span (±
 *     partial_tolerance) or no span is known, partially_correct_tmi when it
 *     does not. Year-less dates take the year of judge_case.asked_at (the
 *     latest such date not after it) or, without it, the truth's year;
 *     "today" and "yesterday" need asked_at.
 *   - Lists (objects, steps, several times, days ago, persons) are compared
 *     as sets after normalisation: equal -> correct; a subset ->
 *     partially_correct_missing (correct_summarized when the answer also
 *     sums the rest up — "and various utensils" — and names at least half);
 *     a superset -> partially_correct_tmi; each side with an item the other
 *     lacks -> wrong; nothing in common -> wrong.
 *   - One place / object: the right one alone -> correct; with other
 *     candidates of the same role -> partially_correct_tmi; a less specific
 *     one ("the bread" for "the bread slice") -> partially_correct_missing;
 *     another one -> wrong. Things named in the question do not count, nor
 *     do rooms and things "next to" / "near" the answer (those are extra
 *     information). The first step: named first -> correct (correct_tmi
 *     with the steps after it); named, but after another ->
 *     partially_correct_tmi; not named -> wrong. Steps are equal when verb
 *     and object are (a place compared for putting, when both name one).
 *   - Yes / no: the same answer -> correct, else wrong. Persons: a name
 *     matches when one is the beginning or the end of the other
 *     ("Leonard" = "Leonard Baermann").
 *   - Extra information that is not part of the list or answer (a time
 *     with a place or a list, the room around the place, a few words on
 *     what else happened with a time) turns correct into correct_tmi.
 *   - Normalisation: case; '_', '|', '-' and CamelCase split words
 *     ("CounterTop_1", "Mug|+00.50|..." and "counter top" are one name);
 *     instance numbers, articles, quantities and plurals go; "sliced",
 *     "slice of" and "slices" make the same "<object> slice"; synonyms of
 *     the AI2-THOR / household names (counter = countertop, table =
 *     dining table, sink basin = sink, fridge = refrigerator, ...).
 *   - Free text (task descriptions, "describe what you did", "what did you
 *     do at ...") is cut into clauses at punctuation and at "and" before a
 *     verb; repeated truth clauses count once. Two clauses match when they
 *     share a content word that is not a generic verb ("make", "prepare")
 *     and at least half of the smaller clause's words (stemmed, with
 *     synonyms such as rinse = wash = clean, mug = cup). One truth clause:
 *     matched -> correct, or correct_tmi when the answer adds clauses or
 *     details. Several: all matched -> correct (partially_correct_tmi with
 *     other clauses); some matched -> partially_correct_missing, or
 *     correct_summarized when the answer sums up ("prepared meals",
 *     "various items") and matched at least half; more unmatched than
 *     matched clauses, or none matched -> wrong. Matching is loose, so an
 *     unmatched clause may be a paraphrase: this is milder than the list
 *     rule, and agrees better with the upstream human labels.
 *
 * Limits: each text is read up to JUDGE_MAX_TEXT bytes, and at most a few
 * thousand words and a few hundred items of it; the rest is ignored. Bytes
 * >= 0x80 are letters (UTF-8 names stay whole; invalid UTF-8 is harmless).
 * Everything is deterministic and reentrant: no global state, any thread.
 */
#ifndef H2EMV_JUDGE_H
#define H2EMV_JUDGE_H

#include <stdint.h>

/* The fine categories, in the upstream judge's order. */
enum judge_fine {
	J_CORRECT,            /* "correct" */
	J_CORRECT_SUMMARIZED, /* "correct_summarized": right but coarser */
	J_CORRECT_TMI,        /* "correct_tmi": right plus plausible extra info */
	J_PARTIAL_TMI,        /* "partially_correct_tmi": right plus wrong extra info */
	J_PARTIAL_MISSING,    /* "partially_correct_missing": part of it, or less precise */
	J_WRONG,              /* "wrong" */
	J_NO_ANSWER,          /* "no_answer": refused, forgot, does not know, error */
	J_FINE_COUNT
};

/* The broad categories the paper reports (S_c, S_p). */
enum judge_broad { J_BROAD_CORRECT, J_BROAD_PARTIAL, J_BROAD_WRONG, J_BROAD_COUNT };

/* How the judge read the question (judge_verdict.kind). */
enum judge_kind {
	JK_TIME,       /* a point in time */
	JK_DATE,       /* a day */
	JK_DAYS_AGO,   /* "how many days ago" */
	JK_OBJECTS,    /* a set of objects */
	JK_STEPS,      /* a set of action steps */
	JK_FIRST_STEP, /* one action step */
	JK_PLACE,      /* one place */
	JK_OBJECT,     /* one object */
	JK_PERSON,     /* one or more persons */
	JK_YESNO,      /* yes or no */
	JK_FREE,       /* free text: tasks, descriptions */
	JK_COUNT
};

/* One judged question. Strings are borrowed for the call; NULL counts as
 * empty. Times are µs since the epoch, UTC (outside the years 0–9999 they
 * count as unknown); times written in the texts are read as UTC wall-clock
 * times (h2emv writes UTC). */
typedef struct judge_case {
	const char *question;   /* "When did you first place a tomato?" */
	const char *truth;      /* "At 2024/09/23, 10:03:55", "The mug",
	                           "At the countertop", "Pickup the knife, Slice
	                           the potato", "At 2024/03/05", "mug, sink, ..." */
	int64_t ref_t0, ref_t1; /* the ground-truth span; 0, 0 if unknown */
	const char *answer;     /* the system's answer */
	int answer_forgotten;   /* the system said it has forgotten: no_answer */
	int64_t asked_at;       /* when the question was asked; 0 if unknown */
} judge_case;

#define JUDGE_OPTIONS_VERSION 1

/* Options. Start from JUDGE_OPTIONS_INIT and set what you need; a zero
 * field takes its default. */
typedef struct judge_options {
	unsigned version;             /* JUDGE_OPTIONS_VERSION */
	int64_t time_tolerance_us;    /* correct within this of the truth span; 60 s */
	int64_t partial_tolerance_us; /* partially correct within this; 10 min
	                                 (raised to time_tolerance_us if below) */
} judge_options;

#define JUDGE_OPTIONS_INIT { JUDGE_OPTIONS_VERSION, 0, 0 }
#define JUDGE_DEFAULT_TOLERANCE_US (60LL * 1000000)
#define JUDGE_DEFAULT_PARTIAL_US (10LL * 60 * 1000000)

/* Texts are read up to this many bytes. */
#define JUDGE_MAX_TEXT (64 * 1024)

/* The judge's decision. */
typedef struct judge_verdict {
	int fine;      /* enum judge_fine */
	int broad;     /* enum judge_broad */
	int kind;      /* enum judge_kind */
	char why[240]; /* one line saying why, NUL-terminated (may be cut short) */
} judge_verdict;

/* Judge one answer into *out. `opt` NULL means the defaults.
 * Returns H2EMV_OK (0); H2EMV_EINVAL when out or c is NULL, opt->version is
 * not JUDGE_OPTIONS_VERSION or a tolerance is negative; H2EMV_ENOMEM when
 * the working memory (a few hundred KiB, freed before returning) cannot be
 * had. On error *out holds no_answer / wrong and the reason in out->why. */
int judge_grade(judge_verdict *out, const judge_case *c, const judge_options *opt);

/* Judge one answer: the fine category (enum judge_fine, >= 0), or a
 * negative H2EMV_E* code as judge_grade returns. When `why` is not NULL,
 * *why receives a malloc'd one-line explanation the caller frees (NULL if
 * that copy cannot be allocated; the category is still returned). */
int judge_answer(const judge_case *c, const judge_options *opt, char **why);

/* The broad category of a fine one (J_BROAD_WRONG for out-of-range values). */
int judge_broad(int fine);

/* Upstream names: "correct", "correct_summarized", "correct_tmi",
 * "partially_correct_tmi", "partially_correct_missing", "wrong",
 * "no_answer"; "?" for out-of-range values. Static strings. */
const char *judge_fine_name(int fine);
/* "correct", "partially_correct", "wrong"; "?" out of range. */
const char *judge_broad_name(int broad);
/* "time", "date", "days_ago", "objects", "steps", "first_step", "place",
 * "object", "person", "yesno", "free"; "?" out of range. */
const char *judge_kind_name(int kind);
/* The fine category named `name` (upstream spelling), or -1. */
int judge_fine_parse(const char *name);

#endif
