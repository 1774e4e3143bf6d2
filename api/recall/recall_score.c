/*
 * recall_score.c — how well a fact answers the question
 * (recall_internal.h): the robot's own deeds, verbs and particles, and the
 * score of a fact from the question words it matches (who said what to
 * whom: recall_speaker.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "api/tree/scene.h"
#include "api/base/utf8.h"
#include "api/recall/recall_internal.h"

/* How well fact f answers q; 0 = not at all. *hits_out: the question's
 * words it matched. */
/* The person an action was done with or for; words' audience (who was
 * present when they were said) is no match for a word asked, only for
 * whom "you told" (match_speaker). */
static const char *doer_of(const fact *f)
{
	return f->type == FT_SPEECH ? NULL : f->s[FS_WHO];
}

/* "give back" is to return, "pick up" to collect: a verb and the particle
 * after it as one verb of WordNet's, against the action's verb. */
static double phrasal_match(const rq_term *v, const rq_term *next, const fact *f)
{
	static const char *const particles[] = { "back", "up", "out", "off", "in", "away",
		                                     "down", "over", NULL };
	int particle = 0;
	for (const char *const *p = particles; *p && !particle; p++)
		particle = !strcmp(next->word, *p);
	if (!particle || !f->s[FS_VERB])
		return 0;
	char phrase[2 * LEX_WORD_MAX + 2];
	snprintf(phrase, sizeof phrase, "%s %s", v->lemma ? v->lemma : v->word, next->word);
	return wn_same_verb(phrase, f->s[FS_VERB]) ? 3 : 0;
}

/* Is action f the deed an agent question asks about ("who opened the
 * gate")? Not an attempt that failed (someone else then did it), nor a
 * deed with another particle ("handed in" is not HandOver). */
static int own_deed(const rquestion *q, const fact *f)
{
	if (f->status == FST_FAILED || f->status == FST_ABORTED || q->agent_term < 0)
		return 0;
	const rq_term *v = &q->term[q->agent_term];
	if (!q->agent_particle[0])
		return verb_match(v, f) >= 2;
	/* with its particle: the skill's name says it, or WordNet has the
	 * phrasal verb as the action's verb */
	rq_term p = { 0 };
	snprintf(p.word, sizeof p.word, "%s", q->agent_particle);
	snprintf(p.stem, sizeof p.stem, "%s", q->agent_particle);
	p.same = -1;
	return (verb_match(v, f) >= 2 && word_in(f->s[FS_NAME], &p)) || phrasal_match(v, &p, f) > 0;
}

/* Evidence: a note or an utterance whose own words hold at least half of
 * the question's words, the verb among them ("when did belt 3 jam": "Belt 3
 * jammed at 14:10; Sam cleared it"). */
static double score_evidence(const rquestion *q, const fact *f, int *hits_out)
{
	/* (the closest record of any kind, when nothing else answered) */
	int act = q->evidence == 2 && is_act(f) && f->type == FT_ACT;
	if (f->type != FT_NOTE && f->type != FT_SPEECH && !act)
		return 0;
	size_t content = 0, hits = 0, names = 0;
	int verb_hit = 0, person_hit = 0;
	for (size_t i = 0; i < q->n_term; i++) {
		const rq_term *t = &q->term[i];
		/* the kind of thing asked for ("which guest") and a verb of
		 * asking or wanting ("wanted to know about") frame the question:
		 * they count when the record says them */
		/* (and a role, "the journalist", said by someone with a name) */
		int frame = (int)i == q->key || ((int)i == q->verb && t->cls == LC_SAY) || t->owner ||
		            (f->type == FT_SPEECH && !t->cap && !t->lemma && wn_names_role(t->word)) ||
		            !strcmp(t->stem, "want") || !strcmp(t->stem, "know") ||
		            !strcmp(t->stem, "need") || !strcmp(t->stem, "wonder");
		content += !frame;
		int h = word_in_text(f->s[FS_TEXT], t) || word_in(doer_of(f), t) ||
		        word_in(f->s[FS_PLACE], t) || word_in(f->s[FS_OBJ], t) ||
		        word_in(f->s[FS_STATE], t) ||
		        ((f->type == FT_SPEECH || act) && word_in(f->s[FS_NAME], t)) ||
		        (act && (word_in(f->s[FS_DST], t) || word_in(f->s[FS_SRC], t)));
		/* "the expired holds": a verb the note writes in another form */
		if (!h && (int)i == q->verb && t->lemma) {
			rq_term l = *t;
			snprintf(l.word, sizeof l.word, "%s", t->lemma);
			lex_stem(l.word, strlen(l.word), l.stem);
			h = word_in(f->s[FS_TEXT], &l);
		}
		hits += h != 0;
		names += act && h && t->cap; /* (the closest record: a name asked weighs) */
		content += frame && h;
		verb_hit |= h && (int)i == q->verb;
		person_hit |= h && (int)i == q->person;
	}
	/* one word besides a speaker the question names within a time it
	 * names is enough ("what did Marta ask you to look out for on Friday") */
	int narrow = person_hit && q->t1;
	if (!hits || hits * 2 < content || (content >= 2 && hits < 2 && !narrow))
		return 0;
	/* "what did Ana say": a person the question names is the speaker (or,
	 * of a note or for other questions, named in it) */
	/* (an action's slots were counted among the hits above) */
	if (q->person >= 0 && !act) {
		const rq_term *p = &q->term[q->person];
		int speaker = word_in(f->s[f->type == FT_SPEECH ? FS_NAME : FS_WHO], p);
		if (!speaker && (q->kind == RQ_SAID && f->type == FT_SPEECH))
			return 0;
		if (!speaker && !word_in(f->s[FS_TEXT], p))
			return 0;
	}
	/* "why did the grasp fail": only a record of a failure tells why; but
	 * "which lift was broken" is told in anyone's words */
	if (q->status == RS_FAILED && (q->you || q->why) &&
	    !(f->type == FT_NOTE && (f->status == FST_FAILED || f->status == FST_ABORTED)))
		return 0;
	*hits_out = (int)hits | (hits == content ? 0x10000 : 0);
	/* "why", "what went wrong": the note of what failed */
	int trouble = (q->status == RS_FAILED || q->kind == RQ_FAILED || q->why) &&
	              (f->status == FST_FAILED || f->status == FST_ABORTED);
	return 1.0 + (double)hits + (verb_hit ? 0.5 : 0) + (double)hits / (double)content +
	       (trouble ? 1.0 : 0) + 0.5 * (double)names;
}

/* What one word of the question weighs in a fact: 2 in the words said or
 * a slot that tells one action from another (in_key: numbered there),
 * less in its name, text or verb; 0 when it is not there. */
static double term_hit(const rquestion *q, const fact *f, const facts *set, const rq_term *t,
                       int failed, int *in_key)
{
	double h = 0;
	*in_key = 0; /* in a slot that tells one action from another */
	/* in a question about words, the words said weigh most: "when the
	 * centrifuge complained" is in what was said, not where */
	int words_said = q->kind == RQ_SAID && f->type == FT_SPEECH;
	if (words_said && word_in_text(f->s[FS_TEXT], t))
		h = 2;
	/* ("did you spot any cookies": the robot's "I can see ... a vanilla
	 * cookies" names them as a sight names its thing) */
	if (h == 0 && f->type == FT_SPEECH && q->verb >= 0 && q->term[q->verb].cls == LC_SEE &&
	    !t->lemma && word_in_text(f->s[FS_TEXT], t) && seen_said(f->s[FS_TEXT], NULL, 0))
		h = 2;
	static const int strong[] = { FS_OBJ, FS_DST, FS_SRC, FS_PLACE, FS_WHO };
	for (size_t j = 0; j < sizeof strong / sizeof *strong && h == 0; j++)
		if (word_in(strong[j] == FS_WHO ? doer_of(f) : f->s[strong[j]], t)) {
			h = words_said ? 1 : 2;
			/* numbered there: "pad 2" */
			/* (a place counts when the action's own words name
			 * it: an event told in a note, "... at berth 6") */
			*in_key = is_act(f) &&
			          (strong[j] != FS_PLACE || word_in(f->s[FS_NAME], t)) &&
			          strpbrk(f->s[strong[j]], "0123456789") != NULL;
		}
	if (h == 0 && word_in(f->s[FS_NAME], t))
		h = is_act(f) ? 1.5 : 2;
	if (h == 0 && (word_in_text(f->s[FS_TEXT], t) || word_in(f->s[FS_STATE], t)))
		h = 1;
	if (h == 0 && word_in(f->s[FS_VERB], t))
		h = 1;
	/* "why couldn't you print Amira's ticket": she was there when it
	 * failed, though the action's parameters do not name her (only
	 * for a failure asked about: being there is not being served) */
	if (h == 0 && t->cap && failed && q->status == RS_FAILED && present_at(set, f, t))
		h = 1;
	return h;
}

/* What the words of the question matched in a fact (score_hits). */
typedef struct hitsum {
	double s, vs;
	size_t content, hits, verb_nouns;
	int verbs, person_hit;
} hitsum;

/* Each word of the question against a fact, summed into sum; 0 when a
 * number rules the fact out ("pad 1" is not "pad 2"), else 1. */
static int match_terms(const rquestion *q, const fact *f, const facts *set, int failed, hitsum *sum)
{
	int prev_hit = 0, prev_any = 0;
	for (size_t i = 0; i < q->n_term; i++) {
		const rq_term *t = &q->term[i];
		if (t->lemma && !t->cap && is_act(f)) {
			double m = verb_match(t, f);
			/* ("give the scarf back": the particle after the object) */
			for (size_t j = i + 1; m == 0 && (int)i == q->verb && j < q->n_term; j++)
				m = phrasal_match(t, &q->term[j], f);
			sum->verbs++;
			/* the main verb decides; another verb of the question ("after
			 * greeting her") only when the main one says nothing */
			double w = (int)i == q->verb || q->verb < 0 ? m : m * 0.3;
			if (w > sum->vs)
				sum->vs = w;
			if ((int)i == q->verb)
				continue;
			if (m >= 2) { /* "after the introduction": a verb named as a noun */
				sum->content++;
				sum->hits++;
				sum->verb_nouns++;
				sum->s += 0.5;
				continue;
			}
		} else if ((int)i == q->verb &&
		           !(q->kind == RQ_SAID && f->type == FT_SPEECH && t->cls != LC_SAY)) {
			/* (in a question about words, "when the centrifuge
			 * complained", a verb that is not one of saying is a word to
			 * look for in them) */
			sum->verbs++;
			continue;
		}
		/* the speaker of "what did Anna say" is matched below; in "what did
		 * you say to Anna" a name is the one spoken to */
		if (q->kind == RQ_SAID && (int)i == q->person)
			continue;
		/* in "what did you say to Anna" a name may be the one spoken to: it
		 * counts when the words name it, and is not required */
		/* (and "what did you say to the guests": a kind of person, whom
		 * the words seldom name) */
		int optional = (q->kind == RQ_SAID && q->self_speaker &&
		                (t->cap || crowd_word(t))) ||
		               (q->kind == RQ_WHICH && (int)i == q->category) || t->owner || t->soft || t->particle ||
		               (q->people && (int)i == q->category);
		if (!optional)
			sum->content++;
		int in_key;
		double h = term_hit(q, f, set, t, failed, &in_key);
		if (h > 0) {
			sum->hits++;
			sum->content += optional;
			sum->person_hit |= (int)i == q->person;
		}
		/* "pad 1" is not "pad 2": the number of a thing whose noun
		 * matched must match too (where the action's identity keeps it:
		 * a merged action keeps only one of its places) */
		if (h == 0 && i > 0 && q->term[i].word[0] >= '0' && q->term[i].word[0] <= '9' &&
		    (prev_hit || (t->pair[0] && prev_any)) && !optional)
			return 0; /* ("rack 45" is not the rack R4 of moisture 4.5) */
		prev_hit = h > 0 && in_key;
		prev_any = h > 0;
		sum->s += h;
	}
	return 1;
}

/* The main verb against a fact: its weight added to sum->s; 0 when the
 * verb rules the fact out, else 1. */
static int match_verb(const rquestion *q, const fact *f, int failed, hitsum *sum)
{
	if (q->verb >= 0) {
		const rq_term *v = &q->term[q->verb];
		/* a verb that means only itself ("swap", "centrifuge", or one the
		 * lexicon does not know) must be the action's own */
		/* ("why did you send bag KL 118004 back", "why couldn't you
		 * inspect level 5": a failure of the thing named, whatever the
		 * verb, when every other word matched) */
		int why_failed = q->why && failed &&
		                 ((q->status == RS_FAILED && sum->person_hit) ||
		                  (sum->content && sum->hits == sum->content));
		/* ("how many bales of straw did you use": a verb that says nothing
		 * of the doing, when every other word matched) */
		/* ("how much did the LH2074 bags weigh": LoadBag {weight_kg: 18.5}
		 * weighs them; "what did the parts cost": {price: 12}) */
		const char *st = f->s[FS_STATE];
		int measured = st && ((!strcmp(v->stem, "weigh") && strstr(st, "weight")) ||
		                      (!strcmp(v->stem, "cost") &&
		                       (strstr(st, "cost") || strstr(st, "price"))));
		int bland = !strcmp(v->stem, "use") || !strcmp(v->stem, "handl") || measured;
		int generic = bland && sum->content && sum->hits == sum->content;
		if (v->cls == LC_OTHER && is_act(f) && verb_match(v, f) == 0 && !why_failed && !generic)
			return 0;
		if (!is_act(f)) {
			if ((v->cls == LC_SEE && f->type == FT_SEEN) ||
			    /* (the robot's "I can see a vanilla cookies") */
			    (v->cls == LC_SEE && f->type == FT_SPEECH &&
			     seen_said(f->s[FS_TEXT], NULL, 0)) ||
			    (v->cls == LC_SAY && f->type == FT_SPEECH) ||
			    (v->cls == LC_MEET && f->type == FT_PERSON) ||
			    /* "Hello Dr. Chen": greeting someone by name */
			    (v->cls == LC_MEET && f->type == FT_SPEECH &&
			     addressee(f->s[FS_TEXT], NULL, 0)))
				sum->vs = q->kind == RQ_WHO ? 3 : 2; /* "who did you talk to": the speakers */
		}
		/* another verb: only for a weak one ("go to the charger" for
		 * DockCharger) when every other word matches */
		/* ("make" and "prepare" are as weak: "what did you make for
		 * lunch" is a meal served, "make the bed" a bed tidied) */
		/* ("find" and "see": what was found is often reported by a skill
		 * of its own, ReportSpill {what: broken jar}) */
		int weak = v->cls == LC_GO || v->cls == LC_NONE || f->cls == LC_NONE ||
		           ((v->cls == LC_SEARCH || v->cls == LC_SEE) &&
		            (q->kind == RQ_WHEN || q->kind == RQ_DAY || q->kind == RQ_YESNO)) ||
		           (v->lemma && (!strcmp(v->lemma, "make") || !strcmp(v->lemma, "prepare") ||
		                         /* "when was INC-7790 fixed": by a swap */
		                         !strcmp(v->lemma, "repair"))) ||
		           bland;
		/* "who refilled the printer": the robot did it only when its
		 * action is that deed, not one that merely names the printer */
		/* "why couldn't you get hold of Farah": the attempt that failed
		 * with her, whatever verb the question uses for it (why_failed) */
		/* "how many gaps did you find": ScanShelf {gaps: 2} counts them,
		 * whatever the question calls the doing */
		char part[160];
		double num = -1;
		int counted = q->kind == RQ_COUNT && q->category >= 0 && is_act(f) &&
		              named_part(f->s[FS_STATE], &q->term[q->category], part, sizeof part,
		                         &num) && num >= 0;
		if (sum->vs == 0 && is_act(f) && !why_failed && !counted && q->kind != RQ_WHO &&
		    q->kind != RQ_SAID && !(sum->content && sum->hits == sum->content && weak))
			return 0;
		sum->s += sum->vs;
	} else if (sum->verbs && is_act(f)) {
		sum->s += sum->vs;
	}
	return 1;
}

double score_hits(const rquestion *q, const fact *f, const facts *set, int *hits_out)
{
	*hits_out = 0;
	if (q->evidence)
		return score_evidence(q, f, hits_out);
	if (!type_ok(q, f))
		return 0;
	/* ("when did you tell someone what you could see": "I can see a milk"
	 * said, not the introduction said after it) */
	if (q->says_seen && !(f->s[FS_TEXT] && seen_said(f->s[FS_TEXT], NULL, 0) &&
	                      (is_act(f) || is_me(q, set, f->s[FS_NAME]))))
		return 0;
	if ((q->kind == RQ_SEEN || (q->verb >= 0 && q->term[q->verb].cls == LC_SEE &&
	                            q->kind != RQ_SAID && q->kind != RQ_WHO)) &&
	    f->type == FT_SPEECH && !is_me(q, set, f->s[FS_NAME]))
		return 0; /* "I saw your keys" said by someone else */
	int failed = is_act(f) && (f->status == FST_FAILED || f->status == FST_ABORTED);
	int tally = q->kind == RQ_COUNT || q->kind == RQ_YESNO;
	if (q->status == RS_FAILED && !tally && is_act(f) && !failed)
		return 0;
	if (q->status == RS_FAILED && !is_act(f))
		return 0;
	if (q->status == RS_DONE && !tally && failed)
		return 0;
	hitsum sum0 = { 0 }, *sum = &sum0;
	if (!match_terms(q, f, set, failed, sum))
		return 0;
	/* "which floor is Raj on": a person the question names must be the
	 * action's (or, for what was seen, be present) — a half match of the
	 * other words is not about Raj */
	/* (and "how many times did Alice ask you to tidy up": Alice's words,
	 * or words that name her, not Bob's) */
	if (q->person >= 0 && q->kind != RQ_SAID && q->kind != RQ_WHO &&
	    (is_act(f) || f->type == FT_SPEECH) && !sum->person_hit)
		return 0;
	if (q->agent && is_act(f) && !own_deed(q, f))
		return 0;
	/* "which object did you grasp": the object is what is asked; "which
	 * package went to reception" still needs the reception */
	int open_object = q->kind == RQ_WHICH && sum->vs >= 2 && (q->category < 0 || !sum->content);
	if (sum->content && sum->hits * 2 < sum->content && !open_object)
		return 0;
	if (sum->content && !sum->hits && !open_object)
		return 0;
	if (!match_verb(q, f, failed, sum))
		return 0;
	if (q->kind == RQ_SAID && !match_speaker(q, f, set, &sum->s))
		return 0;
	if (failed && q->status != RS_FAILED && !tally && q->kind != RQ_FAILED)
		sum->s *= 0.5; /* a failed attempt is not where a thing went, nor when it was done */
	if (is_act(f) && f->status == FST_ONGOING && !tally && q->order != RO_NTH)
		sum->s *= q->status == RS_DONE ? 0.3 : 0.8; /* a run that was seen to finish first */
	/* the action itself before the task it served, when both match */
	if (f->type == FT_TASK && q->kind != RQ_STEPS)
		sum->s *= 0.8;
	/* ranking counts the things named, not a side clause's verb */
	*hits_out = (int)(sum->hits - sum->verb_nouns);
	if (sum->hits == sum->content)
		*hits_out |= 0x10000; /* every word matched (see add_cand) */
	/* a near verb ("put" for "pick up"): no stop at it (take_facts) */
	/* (but the robot's "I can see a vanilla cookie" is its seeing) */
	/* (nor a verb of another class near it: "load the dishwasher" for
	 * "hand over", though both move a thing) */
	if (q->verb >= 0 && q->term[q->verb].lemma && is_act(f) &&
	    (sum->vs < 2 || (sum->vs < 3 && f->cls != q->term[q->verb].cls)) &&
	    !(q->term[q->verb].cls == LC_SEE && f->s[FS_TEXT] && seen_said(f->s[FS_TEXT], NULL, 0)))
		*hits_out |= 0x20000;
	return sum->s + 0.1; /* something of the right kind in scope */
}

int slot_holds(const fact *f, const rq_term *t)
{
	static const int slots[] = { FS_OBJ, FS_DST, FS_SRC, FS_PLACE, FS_WHO, FS_NAME };
	for (size_t j = 0; j < sizeof slots / sizeof *slots; j++)
		if (word_in(slots[j] == FS_WHO ? doer_of(f) : f->s[slots[j]], t))
			return 1;
	return 0;
}

int fact_holds(const rquestion *q, const fact *f, const rq_term *t)
{
	int in_key;
	return term_hit(q, f, NULL, t, 0, &in_key) > 0;
}

double score_in(const rquestion *q, const fact *f, const facts *set)
{
	int h;
	return score_hits(q, f, set, &h);
}

double score(const rquestion *q, const fact *f)
{
	int h;
	return score_hits(q, f, NULL, &h);
}
