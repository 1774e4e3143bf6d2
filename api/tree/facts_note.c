/*
 * facts_note.c — typed facts from an observation's note: the action a
 * note without one tells ("Refuelled the tug at the fuel pier"), and the
 * note itself as a fact with the people it names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "api/base/lex.h"
#include "api/config/profile.h"
#include "api/tree/scene.h"
#include "api/base/utf8.h"
#include "api/base/wordnet.h"

#define NOTE_FACT_MAX 240 /* bytes of a note a note fact keeps */

/* ------------------------------------------------- events told in notes -- */

/* One word of a note, as written: where it starts and how long it is. */
typedef struct note_word {
	const char *p;
	size_t n;
	char low[LEX_WORD_MAX], stem[LEX_WORD_MAX];
} note_word;

/* Split the note's first clause (up to ':', ';', ',', a sentence's '.',
 * '(' or a dash between spaces) into words. */
static size_t note_words(const char *s, note_word *w, size_t max)
{
	size_t k = 0, i = 0;
	while (s[i] && k < max) {
		while (s[i] == ' ')
			i++;
		unsigned char c = (unsigned char)s[i];
		if (!c || c == ':' || c == ';' || c == ',' || c == '(' || c == '!' || c == '?' ||
		    (c == '.' && (!s[i + 1] || s[i + 1] == ' ')) ||
		    (c == '-' && (s[i + 1] == ' ' || !s[i + 1])))
			break;
		size_t st = i;
		while (s[i] && s[i] != ' ' && s[i] != ':' && s[i] != ';' && s[i] != ',' &&
		       s[i] != '(' && s[i] != '!' && s[i] != '?' &&
		       !(s[i] == '.' && (!s[i + 1] || s[i + 1] == ' ')))
			i++;
		size_t n = i - st;
		if (!n || n >= LEX_WORD_MAX) {
			if (!n)
				i++;
			continue;
		}
		note_word *x = &w[k++];
		x->p = s + st;
		x->n = n;
		for (size_t j = 0; j < n; j++) {
			unsigned char d = (unsigned char)s[st + j];
			x->low[j] = (char)(d >= 'A' && d <= 'Z' ? d + 32 : d);
		}
		x->low[n] = 0;
		/* "Nordlicht's": the stem of the word without its 's */
		size_t sn = n > 2 && !strcmp(x->low + n - 2, "'s") ? n - 2 : n;
		lex_stem(x->low, sn, x->stem);
	}
	return k;
}

static int word_is(const note_word *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w->low, *list))
			return 1;
	return 0;
}

/* Does the note say that what it tells went wrong? */
static int note_failed(const char *note)
{
	static const char *const bad[] = { "could not", "couldn't", "couldnt", "can't", "cannot",
		                               "unable to", "failed", "failure", "broke", "broken",
		                               "jammed", "stuck", "gave up", "did not work",
		                               "didn't work", "aborted", "had to stop", "does not",
		                               "doesn't", "won't", "fault", "error", "damaged",
		                               "tripped", "stalled", "leaking", "lost power", NULL };
	size_t n = strlen(note);
	for (const char *const *b = bad; *b; b++) {
		size_t bl = strlen(*b);
		for (size_t i = 0; i + bl <= n; i++)
			if (!strncasecmp(note + i, *b, bl) && (i == 0 || note[i - 1] == ' ') &&
			    (i + bl == n || !((note[i + bl] | 32) >= 'a' && (note[i + bl] | 32) <= 'z')))
				return 1;
	}
	return 0;
}

/* The words [a, b) of a note as one string, articles in front dropped. */
static void set_span(fact *f, int slot, const note_word *w, size_t a, size_t b)
{
	static const char *const art[] = { "the", "a", "an", "some", "my", "its", "their", NULL };
	while (a < b && word_is(&w[a], art))
		a++;
	if (a < b)
		fact_set(f, slot, w[a].p, (size_t)(w[b - 1].p + w[b - 1].n - w[a].p));
}

/*
 * An observation with no action whose note tells what the robot did
 * ("Refuelled the tug at the fuel pier: 1200 litres.", "Could not reach
 * bollard 17: the quay was blocked.") holds an action all the same: its
 * verb is the note's first word when the lexicon knows it, or when it is
 * written as a past tense or a present participle (then its stem); the
 * object is the words after it up to a preposition; "at/in/on X" is the
 * place, "to/into X" where it went, "from X" where it came from. A note
 * that says it could not, failed, broke or jammed makes it failed.
 */
int facts_note_action(facts *out, const scene *s, const robot_profile *prof)
{
	static const char *const subj[] = { "i", "we", "robot", "then", "finally", "first", NULL };
	static const char *const fail_pre[] = { "could", "couldn't", "couldnt", "cannot", "can't",
		                                    "unable", "failed", "tried", "not", "to", NULL };
	static const char *const at[] = { "at", "in", "on", "near", "by", "beside", "inside",
		                              "behind", "under", "alongside", NULL };
	static const char *const to[] = { "to", "into", "onto", "toward", "towards", NULL };
	static const char *const from[] = { "from", "out", "off", NULL };
	static const char *const stop[] = { "and", "for", "with", "ahead", "before", "after",
		                                "while", "because", "again", "then", "but", "so",
		                                "until", "as", "without", "via", "through", "during",
		                                NULL };
	note_word w[24];
	size_t k = note_words(s->note, w, 24);
	size_t v = 0;
	while (v < k && word_is(&w[v], subj))
		v++;
	size_t f0 = v;
	while (v < k && word_is(&w[v], fail_pre))
		v++;
	if (v >= k || v > 4)
		return H2EMV_OK;
	int cls = LC_NONE;
	const char *lemma = lex_lemma(w[v].stem, &cls);
	size_t vn = strlen(w[v].low);
	/* after "could not", "unable to": the verb in its plain form */
	static const char *const modal[] = { "not", "to", "cannot", "can't", "couldn't", "couldnt",
		                                 NULL };
	int infinitive = v > f0 && word_is(&w[v - 1], modal);
	/* "Cast off the ...", "Hoisted the ...": a first word an article or a
	 * verb's particle follows */
	static const char *const after_verb[] = { "the", "a", "an", "off", "up", "down", "out",
		                                      "away", "back", NULL };
	int phrase = v == 0 && k > 1 && word_is(&w[1], after_verb);
	if (!lemma && !infinitive && !phrase &&
	    !(vn > 4 && (!strcmp(w[v].low + vn - 2, "ed") || !strcmp(w[v].low + vn - 3, "ing"))))
		return H2EMV_OK;
	if (lex_stop(w[v].stem))
		return H2EMV_OK;
	if (lemma) {
		lex_word lw[24];
		size_t lk = lex_split(w[v].p, strlen(w[v].p), lw, 24);
		if (lk > 24)
			lk = 24;
		if (lk)
			lex_particle(lw, lk, 0, &lemma, &cls);
	}
	fact *f = fact_push(out);
	if (!f)
		return H2EMV_ENOMEM;
	f->type = FT_ACT;
	f->status = note_failed(s->note) ? FST_FAILED : FST_DONE;
	/* (a verb the lexicon does not know is classed as a skill name's is) */
	f->cls = (uint8_t)(lemma ? cls : LC_NONE);
	if (lemma) {
		fact_sets(f, FS_VERB, lemma);
	} else if (v + 1 < k && word_is(&w[v + 1], after_verb + 2)) {
		/* "cast off": the verb with its particle */
		char vb[2 * LEX_WORD_MAX + 1];
		snprintf(vb, sizeof vb, "%s %s", w[v].stem, w[v + 1].low);
		fact_sets(f, FS_VERB, vb);
		v++;
	} else {
		fact_sets(f, FS_VERB, w[v].stem);
	}
	/* the action as recorded: the note's first clause */
	fact_set(f, FS_NAME, w[0].p, (size_t)(w[k - 1].p + w[k - 1].n - w[0].p));
	/* the object, then the roles the prepositions give */
	size_t i = v + 1, a = i;
	int slot = FS_OBJ;
	for (;; i++) {
		int end = i >= k;
		int role = end ? -1 : word_is(&w[i], at) ? FS_PLACE : word_is(&w[i], to) ? FS_DST
		                    : word_is(&w[i], from) ? FS_SRC : word_is(&w[i], stop) ? FS_N : -1;
		if (end || role >= 0) {
			if (slot < FS_N)
				set_span(f, slot, w, a, i);
			if (end)
				break;
			/* "out of", "off of": one preposition */
			if (role == FS_SRC && i + 1 < k && !strcmp(w[i + 1].low, "of"))
				i++;
			slot = role;
			a = i + 1;
		}
	}
	/* "MoveTote": moving a thing somewhere is putting it there */
	if (f->cls == LC_GO && f->s[FS_OBJ] && (f->s[FS_DST] || f->s[FS_SRC]))
		f->cls = LC_PUT;
	if (!f->s[FS_PLACE] && s->location)
		fact_sets(f, FS_PLACE, s->location);
	for (size_t p = 0; p < s->n_persons && !f->s[FS_WHO]; p++)
		if (!profile_is_self(prof, s->persons[p]))
			fact_sets(f, FS_WHO, s->persons[p]);
	/* the whole note: what a person asks after "what went wrong", "what
	 * were the readings" */
	if (strlen(s->note) <= 110)
		fact_append_state(f, s->note);
	return H2EMV_OK;
}

/* Does the capitalised word at `p` name a role rather than a person
 * ("Technician", "Driver"; not "Olu", "John")? WordNet's first sense. */
static int opens_with_role(const char *p)
{
	char w[48];
	size_t n = 0;
	while (n + 1 < sizeof w && ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
		w[n] = p[n], n++;
	w[n] = 0;
	return wn_names_role(w);
}

/* The people a note names: runs of capitalised words that do not open
 * the note or a sentence of it, without digits ("Belt 3 jammed; Sam
 * cleared it" names Sam; "Shift handover (Ilse Moreau): ..." Ilse Moreau). */
static void note_people(fact *f, const char *note)
{
	char who[160];
	size_t n = 0, i = 0;
	int start = 1, names = 0;
	while (note[i] && names < 3) {
		unsigned char c = (unsigned char)note[i];
		if (c == '.' || c == '!' || c == '?') {
			start = 1, i++;
			continue;
		}
		if (!((c | 32) >= 'a' && (c | 32) <= 'z')) {
			i++;
			continue;
		}
		size_t a = i;
		int run = 0;
		/* a run of capitalised words, each of letters only */
		while (note[i] >= 'A' && note[i] <= 'Z') {
			size_t w = i;
			while ((note[i] >= 'a' && note[i] <= 'z') || (note[i] >= 'A' && note[i] <= 'Z') ||
			       note[i] == '-')
				i++;
			if ((note[i] >= '0' && note[i] <= '9') || i - w < 2) {
				run = -1;
				break;
			}
			run++;
			if (note[i] != ' ' || !(note[i + 1] >= 'A' && note[i + 1] <= 'Z'))
				break;
			i++;
		}
		size_t e = i;
		if (e > a && note[e - 1] == ' ')
			e--;
		/* "Technician Omar fixed ...": the words after an opening role
		 * ("Olu Bakare let ..." opens with a name) */
		if (run > 1 && start) {
			if (opens_with_role(note + a)) {
				while (a < e && note[a] != ' ')
					a++;
				a++;
			}
			start = 0;
		}
		if (run > 0 && !start && a < e && n + (e - a) + 3 < sizeof who) {
			if (n)
				memcpy(who + n, ", ", 2), n += 2;
			memcpy(who + n, note + a, e - a);
			n += e - a;
			names++;
		}
		start = 0;
		while ((note[i] >= 'a' && note[i] <= 'z') || (note[i] >= 'A' && note[i] <= 'Z') ||
		       (note[i] >= '0' && note[i] <= '9') || note[i] == '-' || note[i] == '\'')
			i++;
	}
	if (n)
		fact_set(f, FS_WHO, who, n);
}

/* Every note is a fact of its own, whatever its first word: a logbook
 * robot's history lives in them ("Pump P2 tripped at 14:10; Sam reset the
 * breaker"), and a failure's reason is the note beside the action. */
int facts_note(facts *out, size_t first, const scene *s)
{
	fact *f = fact_push(out);
	if (!f)
		return H2EMV_ENOMEM;
	/* the action it was written beside: what it was done to, its other
	 * parameters ("why did you send bag KL 118004 back") */
	const fact *act = first < out->n - 1 && out->v[first].type == FT_ACT ? &out->v[first] : NULL;
	if (act && s->action) {
		fact_sets(f, FS_OBJ, act->s[FS_OBJ]);
		fact_sets(f, FS_STATE, act->s[FS_STATE]);
	}
	f->type = FT_NOTE;
	int st = s->action ? s->action_status : 0;
	f->status = st == 4 ? FST_FAILED : st == 5 ? FST_ABORTED
	            : note_failed(s->note) ? FST_FAILED : FST_DONE;
	/* the note's opening is what a question finds and a person reads; a
	 * long note (a dump, a report) stays whole only in its observation */
	size_t n = strlen(s->note);
	if (n > NOTE_FACT_MAX)
		n = utf8_cut(s->note, NOTE_FACT_MAX);
	fact_set(f, FS_TEXT, s->note, n);
	fact_sets(f, FS_NAME, s->action);
	fact_sets(f, FS_PLACE, s->location);
	note_people(f, s->note);
	return H2EMV_OK;
}

/* The outcome a closing line gives (3 done, 4 failed, 5 aborted), 0
 * none: its goal's, or for "RigCheck" with no arguments, its own. */
static int closing_status(const scene *s)
{
	if (!s->action)
		return s->goal_status >= 3 && s->goal_status <= 5 ? s->goal_status : 0;
	return !s->args_obj && s->action_status >= 3 && s->action_status <= 5 ? s->action_status
	                                                                     : 0;
}

/* The goal's newest run with no outcome (of the same action, when the
 * line names one) that the closing line s ends; NULL none. */
static const fact *run_closed(const facts *goal, const scene *s)
{
	if (!goal || !closing_status(s))
		return NULL;
	const fact *run = NULL;
	for (size_t i = 0; i < goal->n; i++) {
		const fact *f = &goal->v[i];
		if (f->type == FT_ACT && (f->status == FST_ONGOING || f->status == FST_NONE) &&
		    (!s->action || (f->s[FS_NAME] && !strcmp(f->s[FS_NAME], s->action) &&
		                    (f->s[FS_OBJ] || f->s[FS_STATE] || f->s[FS_DST]))) &&
		    (!run || f->t1 > run->t1))
			run = f;
	}
	return run && run->t1 <= s->t ? run : NULL;
}

/* The goal's newest fact of the action a final line s names, when it is
 * a run still going ("rig_car" in progress, then done 30 min on); NULL
 * none. */
static const fact *open_run(const facts *goal, const scene *s)
{
	if (!goal || !s->action || s->action_status < 3 || s->action_status > 5)
		return NULL;
	const fact *run = NULL;
	for (size_t i = 0; i < goal->n; i++) {
		const fact *f = &goal->v[i];
		if (f->type == FT_ACT && f->s[FS_NAME] && !strcmp(f->s[FS_NAME], s->action) &&
		    f->t1 <= s->t && (!run || f->t1 > run->t1))
			run = f;
	}
	return run && (run->status == FST_ONGOING || run->status == FST_NONE) ? run : NULL;
}

/* Does the final line's fact x say more than its run's start (a result of
 * its own), rather than repeat it? */
static int adds_to(const fact *x, const fact *run)
{
	static const int all[] = { FS_OBJ, FS_SRC, FS_DST, FS_WHO, FS_STATE };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		const char *a = x->s[all[i]], *b = run->s[all[i]];
		if ((a || b) && !(a && b && !strcmp(a, b)))
			return 1;
	}
	return 0;
}

int facts_closes_run(const facts *goal, const scene *s)
{
	return run_closed(goal, s) != NULL || open_run(goal, s) != NULL;
}

int facts_close_run(facts *out, const facts *goal, const scene *s)
{
	int st = closing_status(s);
	const fact *run = run_closed(goal, s);
	if (!run)
		return H2EMV_OK;
	/* "RigCheck" failed with no arguments: that run's end, not a run of
	 * its own (a closing line has no arguments, so a thing its fact
	 * names comes from the skill's name alone: "cleanKennel" done is no
	 * second kennel cleaned) */
	for (size_t i = 0; s->action && i < out->n; i++)
		if (out->v[i].type == FT_ACT && out->v[i].s[FS_NAME] &&
		    !strcmp(out->v[i].s[FS_NAME], s->action) && !out->v[i].s[FS_STATE]) {
			fact_free(&out->v[i]);
			memmove(&out->v[i], &out->v[i + 1], (out->n - i - 1) * sizeof *out->v);
			out->n--;
			break;
		}
	fact *x = fact_push(out);
	if (!x)
		return H2EMV_ENOMEM;
	memset(x, 0, sizeof *x); /* (strings of its own: the reason is appended) */
	x->type = run->type;
	x->cls = run->cls;
	x->status = st == 3 ? FST_DONE : st == 4 ? FST_FAILED : FST_ABORTED;
	x->count = 1;
	/* the run: from its last start to the line that closed it */
	x->t0 = x->t1 = run->t1;
	x->t2 = s->t_end > s->t ? s->t_end : s->t;
	int rc = H2EMV_OK;
	for (int i = 0; i < FS_N && rc == H2EMV_OK; i++)
		rc = fact_sets(x, i, i == FS_PLACE && s->location && *s->location ? s->location
		                                                                  : run->s[i]);
	if (rc) {
		fact_free(x);
		out->n--;
		return H2EMV_ENOMEM;
	}
	if (x->status != FST_DONE && s->note && *s->note) {
		/* "FAIL: fluid low": the reason, without the word that says it failed */
		const char *r = s->note;
		static const char *const tag[] = { "FAIL:", "FAILED:", "ERROR:", "ABORT:", "reason=",
			                               "reason:", NULL };
		for (const char *const *t = tag; *t; t++)
			if (!strncasecmp(r, *t, strlen(*t)))
				r += strlen(*t);
		while (*r == ' ')
			r++;
		char buf[160];
		snprintf(buf, sizeof buf, "reason %s", r);
		fact_append_state(x, buf);
	}
	x->key = fact_key(x);
	return H2EMV_OK;
}

/* Did a run of action `name` in `goal` end in (a, b]? */
static int ended_within(const facts *goal, const char *name, int64_t a, int64_t b)
{
	for (size_t i = 0; i < goal->n; i++) {
		const fact *f = &goal->v[i];
		int64_t end = f->t2 > f->t1 ? f->t2 : f->t1;
		if (f->type == FT_ACT && f->status != FST_ONGOING && f->status != FST_NONE &&
		    f->s[FS_NAME] && !strcmp(f->s[FS_NAME], name) && end > a && end <= b)
			return 1;
	}
	return 0;
}

int facts_join_run(facts *out, const facts *goal, const scene *s)
{
	/* a final line with arguments of its own (a result: "weight_kg
	 * 31.4") after a line that started the run with its inputs
	 * ("patient Bruno"): one run, its inputs and its result */
	if (!goal || !s->action || !s->args_obj || s->action_status < 3 || s->action_status > 5)
		return H2EMV_OK;
	fact *x = NULL;
	for (size_t i = 0; i < out->n && !x; i++)
		if (out->v[i].type == FT_ACT && out->v[i].s[FS_NAME] &&
		    !strcmp(out->v[i].s[FS_NAME], s->action) && out->v[i].status != FST_ONGOING &&
		    out->v[i].status != FST_NONE)
			x = &out->v[i];
	const fact *run = x ? open_run(goal, s) : NULL;
	/* it must be a start with inputs the result line does not repeat (a
	 * line that repeats them is that run's end, read as before) */
	if (!run || !adds_to(x, run) || (!run->s[FS_OBJ] && !run->s[FS_WHO] && !run->s[FS_DST] && !run->s[FS_SRC]) ||
	    (x->s[FS_OBJ] && run->s[FS_OBJ] && strcmp(x->s[FS_OBJ], run->s[FS_OBJ])) ||
	    s->t - run->t1 > 4 * 3600LL * 1000000)
		return H2EMV_OK;
	static const int slots[] = { FS_OBJ, FS_SRC, FS_DST, FS_WHO, FS_VERB };
	for (size_t i = 0; i < sizeof slots / sizeof *slots; i++)
		if (!x->s[slots[i]] && run->s[slots[i]] && fact_sets(x, slots[i], run->s[slots[i]]))
			return H2EMV_ENOMEM;
	if (run->s[FS_STATE] && (!x->s[FS_STATE] || !strstr(x->s[FS_STATE], run->s[FS_STATE]))) {
		/* the inputs first, then the result */
		char *mine = x->s[FS_STATE];
		x->s[FS_STATE] = NULL;
		if (fact_sets(x, FS_STATE, run->s[FS_STATE])) {
			free(mine);
			return H2EMV_ENOMEM;
		}
		if (mine)
			fact_append_state(x, mine);
		free(mine);
	}
	if (!x->cls)
		x->cls = run->cls;
	/* the run: from its first report to the line that ended it; from its
	 * last when the first was more than four hours before, or when an
	 * earlier run of the skill ended between them (the same inputs started
	 * twice are one fact: "thermal-scan rows A-D" every hour) */
	int first = s->t - run->t0 < 4 * 3600LL * 1000000 &&
	            !ended_within(goal, s->action, run->t0, run->t1);
	x->t0 = x->t1 = first ? run->t0 : run->t1;
	x->t2 = s->t_end > s->t ? s->t_end : s->t;
	x->key = fact_key(x);
	return H2EMV_OK;
}
