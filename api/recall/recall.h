/*
 * recall.h — the builtin policy's question answering over typed facts
 * (DESIGN §6 "Builtin question answering, in one table").
 *
 * A question is read into its kind (when, where, who, what was said, what
 * was seen, which object, how many, on what day, did you, what failed,
 * what did you do), its time scope (first, last, the n-th; a date, a
 * weekday, yesterday, this morning, N days ago, at/around a clock time —
 * relative to the asking time) and its target words (Snowball stems, verbs
 * through the robot-verb lexicon, capitalised names). Retrieval walks the
 * snapshot's tree top-down, skipping subtrees outside the scope or whose
 * aggregated facts name nothing asked for, and reads goal-level facts; the
 * answer is the role the kind asks for, taken from the best facts.
 */
#ifndef H2EMV_RECALL_H
#define H2EMV_RECALL_H

#include <stdint.h>

#include "api/base/lex.h"
#include "h2emv.h"

enum rq_kind {
	RQ_DO = 0, RQ_WHEN, RQ_DAY, RQ_WHERE, RQ_FROM, RQ_WHO, RQ_SAID, RQ_SEEN, RQ_WHICH, RQ_COUNT,
	RQ_YESNO, RQ_FAILED, RQ_DURATION, RQ_STEPS,
	RQ_WHEREABOUTS /* internal: where the robot was (places, journeys) */
};
enum rq_order { RO_LAST = 0, RO_FIRST, RO_NTH, RO_ALL };
enum rq_status { RS_ANY = 0, RS_DONE, RS_FAILED };

#define RQ_TERMS 12

typedef struct rq_term {
	char stem[LEX_WORD_MAX];
	char word[LEX_WORD_MAX];
	int cls;           /* lex_class when the word is a verb */
	const char *lemma;
	uint8_t cap;       /* written with a capital: maybe a name */
	int same;          /* lex_same_group of the stem: other words for it; -1 none */
	const char *alias; /* lex_asked_alias: the log's word for it ("faucet"), or NULL */
	uint8_t owner;     /* "Lucia's suitcase": whose it is; counts when a fact
	                    * names it, never required */
	uint8_t kind;      /* a category a fact's word may be a kind of (WordNet): 1 the
	                    * category asked about (any sense), 2 another plural (what
	                    * the word first means);
	                    * "which vegetables", "how many containers", "drinks" */
	char abbr[LEX_WORD_MAX]; /* "row 22", "level 5": the short form a robot's log
	                    * writes ("r22", "l5"), on both terms; "" none */
	char unit[8];      /* "kilos", "metres": the unit's symbol ("kg", "m"); "" none */
	char pair[LEX_WORD_MAX]; /* a number's noun ("aisle" of "aisle 7"): the number
	                    * counts only beside it (not the 7 of "gaps 7"); "" none */
	uint8_t pos;       /* the word's place in the question */
	uint8_t occasion;  /* "during the demo": names an occasion, which a record
	                    * seldom calls so */
	uint8_t particle;  /* "send the bag back": part of the verb, never required */
	uint8_t soft;      /* counts when a fact names it, never required: what a
	                    * deed was done with ("cut the bread with a knife"), which
	                    * a log seldom writes on the action, and "object" after
	                    * a verb ("learn a new object": ObjectLearning) */
} rq_term;

typedef struct rquestion {
	int kind, order, nth, status;
	int plural;           /* "which days", "what objects": all of them */
	int self_speaker;     /* "what did you say" */
	int you;              /* "did you ...": the robot is the subject */
	int others_speak;     /* "what did people / someone say": not the robot */
	int step;             /* RQ_STEPS: 1 the first step, -1 the last, 0 all */
	int64_t t0, t1;       /* the time scope; t1 = 0: none */
	rq_term term[RQ_TERMS];
	size_t n_term;
	const struct robot_profile *prof; /* who the robot is (its "self" names); may be NULL */
	int64_t t_point;      /* "at about 11:32": the moment asked about; 0 none */
	int order_said;       /* the question names its order (first, last, n-th) */
	int category;         /* "which tote", "what package": the index of the noun
	                       * that names the kind of thing asked for, -1 none */
	int verb;             /* index of the main verb term, -1 none */
	int key;              /* "which floor", "what flight": the noun after the
	                       * wh-word, which may be a parameter's key ("floor
	                       * 2"); -1 none */
	int person;           /* index of a person's name, -1 none */
	int weekday;          /* the scope is a bare weekday: an earlier one may be meant */
	int anchor;           /* "what did you do after the photo": term[anchor..] name the
	                       * moment, the terms before it what is asked; -1 none */
	int anchor_after;     /* after (1) or before (0) that moment */
	int anchor_during;    /* within that moment's span ("when you introduced yourself") */
	int anchor_reply;     /* a question about words: "when she asked ...", said in
	                       * reply to the words the clause names */
	int anchor_request;   /* internal: the moment is a request in others' words */
	int why;              /* "why did ...": the reason is in a note or words */
	int value;            /* "what was the CO2 level": a measured value asked */
	int much;             /* "how much milk": an amount, not a number of things */
	int most;             /* "which room did you clean most often": the thing
	                       * tallied most (1) or least (-1) often; 0 none */
	int promise;          /* "what did you promise Tom": words of what the robot will do */
	int repeated;         /* "what did you keep saying over and over": the words
	                       * said most often */
	int says_seen;        /* "when did you tell someone what you could see": the
	                       * robot's words that tell what it sees */
	int tries;            /* "how many swaps did you try": every attempt counts, the
	                       * failed ones too */
	int extreme;          /* with value: the highest (1), lowest (-1) or average (2)
	                       * of the readings asked, not one of them; 0 one */
	char measure[48];     /* its measure word's stem ("humid"), if one was said */
	char how_adj[12];     /* "how full / deep / heavy ...": the adjective */
	char unit[12];        /* the unit asked ("in percent", "in cm"), normalised */
	int people;           /* "how many people / visitors": persons, each once */
	int agent;            /* "who opened the gate": who did it (the robot's own
	                       * action, or a person a note names), not whom it met */
	int agent_term;       /* the term of that question's verb ("opened"), -1 none */
	char agent_particle[8]; /* its particle ("handed in"), "" none */
	int by_day;           /* "what did you do each day": told day by day */
	int end_up;           /* "where did the lettuce slice end up": where a thing went */
	int64_t zone;         /* the robot's UTC offset in µs: its days are local ones */
	int busiest;          /* "what was your busiest day": the day with most done */
	int habit;            /* "what do you usually do (in the afternoon)": over every day */
	int hour0, hour1;     /* with habit: the part of each day asked, or -1 */
	int evidence;         /* internal: no typed fact answered; read notes and
	                       * words for the question's own words (an evidence
	                       * answer quotes them); 2: actions too, the closest
	                       * record when nothing else answered */
} rquestion;

/* Read a question; `now` resolves relative times. Never fails. */
void rq_parse(rquestion *q, const char *text, int64_t now);
/* The same for a robot whose clock reads `zone_min` minutes east of UTC:
 * "Tuesday morning" and "at 3 pm" are its local day and hour. */
void rq_parse_zone(rquestion *q, const char *text, int64_t now, int zone_min);

/* A unit word in one spelling ("percent" and "pct": "pct"); "" if none. */
const char *rq_norm_unit(const char *w);
/* A plural kind of person ("guests", "visitors"): a crowd spoken to, whom
 * the words said seldom name (recall_words.c). */
int crowd_word(const rq_term *t);

/* A word that names a measured value ("level", "reading", "temperature"). */
int rq_measure_word(const char *w);

/* Does relevance rule `rule` ("Always remember where you grasp the milk")
 * name one of the facts `f`? The rule is read like a question (verbs
 * through the lexicon, stems), so it keeps what it names in any robot's
 * words. */
struct facts;
int recall_rule_keeps(const char *rule, const struct facts *f);

/* recall_answer's return when the snapshot's tree holds no typed facts
 * (built by an older h2emv, or written by hand): the caller may answer by
 * reading node texts instead (emv.c). */
#define RECALL_NO_FACTS 1

/* Answer `question` from `snap` as of `now` (facts after `now` are not
 * seen). Fills *out (text, evidence, forgotten, tokens within the budget
 * `max_tokens`). Returns OK, ENOMEM, ECORRUPT, EIO. */
int recall_answer(h2emv_answer **out, h2emv_mem *mem, h2emv_snap *snap, const char *question,
                  int64_t now, uint64_t max_tokens, int trace, h2emv_error *err);

#endif
