/*
 * recall_speaker.c — who said what to whom (recall_internal.h): whether a
 * speaker is the robot itself, whom its words answered, a speaker called
 * by a role, and the speaker a question about words asks for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/tree/facts.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_internal.h"

/* Was a person named by `t` listed as present while action f ran (within
 * a minute of it)? */
int present_at(const facts *set, const fact *f, const rq_term *t)
{
	const int64_t NEAR = 60 * 1000000LL;
	for (size_t i = 0; set && i < set->n; i++) {
		const fact *p = &set->v[i];
		if (p->type == FT_PERSON && p->s[FS_NAME] && p->s[FS_PLACE] && p->t0 <= f->t1 + NEAR &&
		    p->t1 + NEAR >= f->t0 && word_in(p->s[FS_NAME], t))
			return 1;
	}
	return 0;
}

/* Is `name`, a speaker, the robot itself? Its profile says so, or, when
 * nobody wrote one, the log shows it: the people present at that time
 * (set) are listed and the speaker is not among them — a robot does not
 * list itself among the people it sees. */
/* Does someone else's speech in `set` call `name` by name, as the first
 * word or after a greeting ("Juno, keep it at the desk", "Morning Ferrybot,
 * can you ...")? */
static int addressed(const facts *set, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < set->n; i++) {
		const fact *g = &set->v[i];
		const char *t = g->s[FS_TEXT];
		if (g->type != FT_SPEECH || !t || !g->s[FS_NAME] || !strcasecmp(g->s[FS_NAME], name))
			continue;
		for (int w = 0; w < 3 && *t; w++) {
			if (!strncasecmp(t, name, n) && (t[n] == ',' || t[n] == '!'))
				return 1;
			while (*t && *t != ' ' && *t != ',')
				t++;
			if (*t == ',')
				break;
			while (*t == ' ')
				t++;
		}
	}
	return 0;
}

/* A speaker named by a title or a job ("Captain", "Nurse", "Dispatch"),
 * or the channel they speak through ("radio"): someone the robot meets,
 * never the robot (not WordNet's persons: a
 * robot called Kiwi or Page is one). */
static int role_title(const char *name)
{
	static const char *const t[] = { "captain", "capt", "lieutenant", "sergeant", "officer",
		                             "doctor", "nurse", "driver", "chef", "cook", "manager",
		                             "supervisor", "teacher", "guard", "director", "engineer",
		                             "mechanic", "pilot", "ranger", "coach", "inspector",
		                             "dispatch", "dispatcher", "caretaker", "porter", "clerk",
		                             "foreman", "vet", "commander", "operator", "courier",
		                             "receptionist", "pharmacist", "technician",
		                             /* a channel others speak through */
		                             "radio", "intercom", "pa", "tannoy", "phone", "speaker",
		                             "loudspeaker", "base", "control", "hq", NULL };
	for (const char *const *p = t; *p; p++)
		if (!strcasecmp(name, *p))
			return 1;
	return 0;
}

int is_me(const rquestion *q, const facts *set, const char *name)
{
	if (!name)
		return 0;
	if (profile_is_self(q->prof, name))
		return 1;
	if (!set)
		return 0;
	int people = 0;
	for (size_t i = 0; i < set->n; i++) {
		const fact *p = &set->v[i];
		/* (the people listed as present carry the place; a speaker
		 * counted as a person met does not) */
		if (p->type != FT_PERSON || !p->s[FS_NAME] || !p->s[FS_PLACE])
			continue;
		people = 1;
		if (lex_same_person(p->s[FS_NAME], name, strlen(name)))
			return 0;
	}
	if (!people)
		return 0;
	/* a role ("courier", "the driver", "Captain") is someone the robot
	 * met; a name in lower case that names no person ("drift", a robot's
	 * call sign) may still be the robot's */
	if (role_title(name) || (name[0] >= 'a' && name[0] <= 'z' && wn_is_person(name)))
		return 0;
	/* ("shift lead", "shift boss": a job in words; a robot's call sign
	 * is one word) */
	if (name[0] >= 'a' && name[0] <= 'z' && strchr(name, ' '))
		return 0;
	/* others call the robot by its name ("Juno, my appointment ...") */
	if (addressed(set, name))
		return 1;
	/* one robot: a second unlisted speaker with a name (a voice from the
	 * corridor) makes it a guess, and no guess is made */
	for (size_t i = 0; i < set->n; i++) {
		const fact *s = &set->v[i];
		if (s->type != FT_SPEECH || !s->s[FS_NAME] || !strcasecmp(s->s[FS_NAME], name) ||
		    (s->s[FS_NAME][0] >= 'a' && s->s[FS_NAME][0] <= 'z'))
			continue;
		int listed = 0;
		for (size_t j = 0; j < set->n && !listed; j++)
			listed = set->v[j].type == FT_PERSON && set->v[j].s[FS_NAME] &&
			         set->v[j].s[FS_PLACE] && lex_same_person(set->v[j].s[FS_NAME], s->s[FS_NAME], strlen(s->s[FS_NAME]));
		if (!listed && !profile_is_self(q->prof, s->s[FS_NAME]))
			return 0;
	}
	return 1;
}

/* The words `f` answered: the last words someone else said before them,
 * within two minutes, in the same set of facts (a question and its answer
 * are two observations, often two scenes of one event). */
static const fact *replied_to(const facts *set, const fact *f)
{
	const int64_t SPAN = 120 * 1000000LL;
	const fact *best = NULL;
	for (size_t i = 0; set && f->s[FS_NAME] && i < set->n; i++) {
		const fact *g = &set->v[i];
		if (g == f || g->type != FT_SPEECH || !g->s[FS_NAME] ||
		    !strcasecmp(g->s[FS_NAME], f->s[FS_NAME]) || g->t0 > f->t0 || f->t0 - g->t0 > SPAN)
			continue;
		if (!best || g->t0 > best->t0)
			best = g;
	}
	return best;
}

/* Is the speaker `who` a person listed with the role asked ("Ken",
 * listed as "Ken Whitfield (mines inspector)", for "the inspector")? */
static int listed_with_role(const facts *set, const char *who, const rq_term *p)
{
	for (size_t i = 0; set && who && *who && i < set->n; i++) {
		const fact *g = &set->v[i];
		if (g->type == FT_PERSON && g->s[FS_NAME] && strcmp(g->s[FS_NAME], who) &&
		    lex_same_person(g->s[FS_NAME], who, strlen(who)) && word_in(g->s[FS_NAME], p))
			return 1;
	}
	return 0;
}

/* In a question about words, who said them: *s weighed; 0 when the
 * speaker rules the fact out, else 1. */
int match_speaker(const rquestion *q, const fact *f, const facts *set, double *s)
{
	/* "what did people ask you": never the robot's own words */
	if (q->others_speak && (is_act(f) || is_me(q, set, f->s[FS_NAME])))
		return 0;
	if (q->self_speaker) {
		if (f->type == FT_SPEECH && !is_me(q, set, f->s[FS_NAME]))
			return 0;
		*s += 0.5; /* the robot's own words: what is asked */
		/* "what did you tell Sam": words that name Sam, or that
		 * answered what Sam had just said */
		if (q->person >= 0 && f->type == FT_SPEECH) {
			const rq_term *p = &q->term[q->person];
			const fact *g = replied_to(set, f);
			if (word_in(f->s[FS_TEXT], p) || (g && word_in(g->s[FS_NAME], p)) ||
			    word_in(f->s[FS_WHO], p) ||
			    (g && listed_with_role(set, g->s[FS_NAME], p)))
				*s += 2;
		}
		/* "what did you promise Marta": "I will look at it after lunch" */
		const char *tx = f->s[FS_TEXT];
		if (q->promise && tx &&
		    (strstr(tx, " will ") ||
		     strstr(tx, "'ll ") || strstr(tx, "promise") || strstr(tx, "going to ")))
			*s += 1;
	} else if (q->person >= 0) {
		const char *who = f->s[f->type == FT_SPEECH ? FS_NAME : FS_WHO];
		const rq_term *p = &q->term[q->person];
		/* speech without a speaker is what the robot heard someone say */
		int anyone = !strcmp(p->word, "user") || !strcmp(p->word, "human") ||
		             !strcmp(p->word, "someone") || !strcmp(p->word, "somebody") ||
		             !strcmp(p->word, "person") || !strcmp(p->word, "people");
		int ok = who ? word_in(who, p) : (anyone && f->type == FT_SPEECH);
		/* "Nurse Okafor", "Dr. Chen", "the doctor": a name word or a title */
		for (size_t i = 0; who && !ok && i < q->n_term; i++)
			ok = (q->term[i].cap || !q->term[i].lemma) && word_in(who, &q->term[i]);
		if (who && !ok && (!strcmp(p->word, "doctor") || !strcmp(p->word, "dr")))
			ok = strstr(who, "Dr") != NULL || strstr(who, "dr.") != NULL;
		if (!ok && f->type == FT_SPEECH)
			ok = listed_with_role(set, who, p);
		/* "what did Gloria complain about": a speaker logged by role
		 * ("customer") while she was there, with others (less than her
		 * name) */
		int by_role = !ok && f->type == FT_SPEECH && who && p->cap && !f->s[FS_STATE] &&
		              who[0] >= 'a' && who[0] <= 'z' && wn_names_role(who) &&
		              !is_me(q, set, who) && present_at(set, f, p);
		if (!ok && !by_role)
			return 0;
		*s += by_role ? 1 : 2;
	} else if (is_act(f) || is_me(q, set, f->s[FS_NAME])) {
		*s *= 0.5; /* "what was said": others' words first */
	}
	return 1;
}
