/*
 * recall_retry.c — asking again when the question as read finds nothing
 * or the wrong things (recall_internal.h): without a word the records may
 * never use (relax), for a coded key with the names given (key_first),
 * and "how many X did you VERB" over every action of the verb when the log
 * never calls its things X (count_by_verb); a noun met by its kinds
 * (by_kinds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/base/lex.h"
#include "api/tree/facts.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

/* Could term i be a word the robot's records never use for what is asked
 * ("whose FACE did you learn", "your WHOLE introduction")? Only a word
 * before the main verb, which says what kind of answer is wanted; the
 * words after it are what the verb was done to ("where did you put the
 * giraffe": no giraffe, no answer). Never a name, a number or the noun a
 * number follows ("room 12"), nor the thing a which-question asks for. */
static int droppable(const rquestion *q, size_t i)
{
	const rq_term *t = &q->term[i];
	/* "what did Lucía say was wrong with her bike": the speaker is the
	 * question, its topic words a guess at what was said */
	int topic = q->kind == RQ_SAID && (q->person >= 0 || q->self_speaker) &&
	            (int)i != q->person && q->n_term > 1;
	if ((!topic && (q->verb < 0 || (int)i >= q->verb)) || (int)i == q->person ||
	    (int)i == q->category || t->cap)
		return 0;
	if ((t->word[0] >= '0' && t->word[0] <= '9') ||
	    (i + 1 < q->n_term && q->term[i + 1].word[0] >= '0' && q->term[i + 1].word[0] <= '9'))
		return 0;
	return 1;
}

/* Nothing matched every word asked for: try again without one word that
 * the memory may simply never have written down, the last such word first,
 * and keep the first reading that finds something. Not for "did you" and
 * "how many": there "no" and "none" are answers, and a looser match would
 * turn them into a wrong yes. */
int relax(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	/* (a yes or no may not drop words, but "did you have any problems
	 * during the demo on Friday" asks about Friday's failures) */
	int trouble = q->kind == RQ_YESNO && q->status == RS_FAILED && q->t1;
	if ((q->kind == RQ_YESNO && !trouble) || q->kind == RQ_COUNT || content_terms(q) < 1 ||
	    !root)
		return H2EMV_OK;
	rquestion orig = *q;
	for (size_t i = orig.n_term; i-- > 0;) {
		if (trouble ? !orig.term[i].occasion : !droppable(&orig, i))
			continue;
		*q = orig;
		drop_term(q, i);
		/* (words asked of a speaker named: the speaker is enough) */
		int speaker = q->kind == RQ_SAID && q->person >= 0;
		if ((!q->n_term || (q->verb < 0 && !content_terms(q))) && !trouble && !speaker)
			continue;
		x->q = q;
		x->n = 0;
		x->cut = 0;
		x->settled = 0;
		int rc = walk(x, root, 0, err);
		if (rc)
			return rc;
		if (x->n) {
			if (x->want_trace)
				pr_str_addf(&x->trace, "nothing matched every word; without \"%s\"\n",
				            orig.term[i].word);
			return H2EMV_OK;
		}
	}
	*q = orig;
	x->q = q;
	return H2EMV_OK;
}

/* "Where did you put the fruit", "any furniture": a singular noun the
 * records never write, met by its kinds (the apple; WordNet, by what a
 * word of the records first means). Only when the words as asked found
 * nothing: "the cup" is the cup before it is a teacup. */
int by_kinds(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	/* only the thing a deed was done to: the words after a verb of
	 * doing ("when was the power cut" names no thing) */
	int vc = q->verb >= 0 ? q->term[q->verb].cls : LC_NONE;
	if (vc == LC_NONE || vc == LC_SAY || q->kind == RQ_SAID || q->kind == RQ_WHO)
		return H2EMV_OK;
	rquestion orig = *q;
	int any = 0;
	for (size_t i = (size_t)q->verb + 1; i < q->n_term; i++) {
		rq_term *t = &q->term[i];
		if (t->lemma || t->cap || t->kind || (int)i == q->person || strlen(t->word) < 3 ||
		    (t->word[0] >= '0' && t->word[0] <= '9') || t->particle || t->occasion)
			continue;
		t->kind = 2;
		any = 1;
	}
	if (!any || !root)
		return H2EMV_OK;
	(void)err; /* (collect reports through x->err) */
	int rc = collect(x, q);
	if (rc)
		return rc;
	if (x->n) {
		if (x->want_trace)
			pr_str_adds(&x->trace, "nothing matched the words asked; by their kinds\n");
		return H2EMV_OK;
	}
	*q = orig;
	x->q = q;
	return H2EMV_OK;
}

/* Does a part of an action's parameters hold the word other than in a
 * free text ("6 photos", "unit pens", not "note spare gearbox unit" nor
 * "error the spare is a SAS drive")? */
static int amount_of_word(const char *state, const rq_term *t)
{
	static const char *const text[] = { "note", "notes", "complaint", "description", "text",
		                                "summary", "comment", NULL };
	char part[160];
	for (const char *p = state; next_part(&p, part, sizeof part);) {
		if (!word_in(part, t))
			continue;
		size_t kl = strcspn(part, " ");
		int free_text = fact_reason_key(part, kl) || strpbrk(part, ";:") != NULL;
		for (const char *const *w = text; *w && !free_text; w++)
			free_text = strlen(*w) == kl && !strncmp(part, *w, kl);
		/* (a reason set in a failed run's parameters has no key of its own) */
		if (!free_text && (strpbrk(part, "0123456789") || kl == strlen(part) ||
		                   strchr(part + kl + 1, ' ') == NULL))
			return 1;
	}
	return 0;
}

/* Is f an action called by the word stem itself, not by a near one (the
 * lexicon's lemma of "brake test" is "check" too)? */
static int same_verb(const fact *f, const char *stem)
{
	lex_word w[8];
	const char *v = f->s[FS_NAME];
	size_t k = is_act(f) && v ? lex_split(v, strlen(v), w, 8) : 0;
	for (size_t i = 0; i < k && i < 8; i++)
		if (!strcmp(w[i].stem, stem))
			return 1;
	return 0;
}

/* "How many drive swaps did you try", "how many bikes were checked in
 * this week": the thing counted is the asker's word for what the action
 * handles, and the log names the SSD, the Trek. When the word is only in a
 * reason or a complaint of the actions the walk found, never in their own
 * slots, every action of the verb counts. (When nothing of the verb
 * mentions the word at all, nothing is counted: "how many apples did you
 * pick" among pears is none.) */
int count_by_verb(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	if (q->kind != RQ_COUNT || q->category < 0 || !x->n || !root || q->people || q->much ||
	    q->value || q->term[q->category].unit[0]) /* ("how many kilos": an amount) */
		return H2EMV_OK;
	/* the verb: the lexicon's, or a word of the skill's name that no
	 * lexicon knows as one ("booked" of "book in") */
	int vi = q->verb;
	for (size_t i = 0; vi < 0 && i < q->n_term; i++)
		for (size_t j = 0; vi < 0 && j < x->n; j++)
			if ((int)i != q->category && !q->term[i].cap && !q->term[i].lemma &&
			    same_verb(x->c[j].f, q->term[i].stem))
				vi = (int)i;
	if (vi < 0)
		return H2EMV_OK;
	const rq_term *v = &q->term[vi], *t = &q->term[q->category];
	if ((q->verb >= 0 && (v->cls == LC_NONE || v->cls == LC_GO || v->cls == LC_SAY ||
	                      v->cls == LC_SEE || v->cls == LC_MEET || v->cls == LC_LOOK ||
	                      v->cls == LC_SEARCH)) ||
	    !strcmp(v->stem, "use") || !strcmp(v->stem, "handl") ||
	    !strcmp(v->stem, "count")) /* ("how many did you count": what the count said) */
		return H2EMV_OK;
	char vstem[LEX_WORD_MAX];
	snprintf(vstem, sizeof vstem, "%s", v->stem);
	int named = 0; /* (the actions called by the verb, when any is) */
	for (size_t i = 0; i < x->n && !named; i++)
		named = same_verb(x->c[i].f, vstem);
	for (size_t i = 0; i < x->n; i++)
		if ((!named || same_verb(x->c[i].f, vstem)) &&
		    (slot_holds(x->c[i].f, t) || amount_of_word(x->c[i].f->s[FS_STATE], t)))
			return H2EMV_OK;
	size_t n = x->n;
	cand *kept = malloc(n * sizeof *kept);
	if (!kept)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	memcpy(kept, x->c, n * sizeof *kept);
	rquestion orig = *q;
	char word[LEX_WORD_MAX];
	snprintf(word, sizeof word, "%s", t->word);
	drop_term(q, (size_t)q->category);
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	int rc = walk(x, root, 0, err);
	/* the verb itself, not its near ones ("checked in" is not a brake
	 * test), when some action is called by it */
	size_t same = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < x->n; i++)
		same += same_verb(x->c[i].f, vstem);
	if (same) {
		size_t m = 0;
		for (size_t i = 0; i < x->n; i++)
			if (same_verb(x->c[i].f, vstem))
				x->c[m++] = x->c[i];
		x->n = m;
	}
	/* the word asked is no filter of these actions (no action of the verb
	 * holds it in its own slots): every action of the verb is counted,
	 * the ones the first reading scored low for lacking it too */
	if (rc == H2EMV_OK && x->n) {
		if (x->want_trace)
			pr_str_addf(&x->trace, "no action names \"%s\" itself: every one of the verb\n",
			            word);
		free(kept);
		return H2EMV_OK;
	}
	*q = orig;
	x->q = q;
	if (rc == H2EMV_OK && n > x->cap)
		rc = eng_fail(err, H2EMV_ECORRUPT, "recall: candidates lost");
	if (rc == H2EMV_OK) {
		memcpy(x->c, kept, n * sizeof *kept); /* (the array only grows: it holds n) */
		x->n = n;
	}
	free(kept);
	return rc;
}

/* "What asset tag did the new server get", "what's the serial number of
 * the SSD you put in C07": nothing matched, and the question names a
 * parameter's key. Ask again for that key with the names and numbers the
 * question gives (the verb and the other words are the asker's, the key
 * and the names the log's). */
int key_first(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	if (q->key < 0 || x->n || !root ||
	    (q->kind != RQ_WHICH && q->kind != RQ_DO && q->kind != RQ_WHERE))
		return H2EMV_OK;
	/* only for a key that names a code ("serial number", "asset tag"):
	 * "which rows are we supposed to skip" asks for the skipping, which a
	 * note says */
	static const char *const code[] = { "number", "no", "tag", "id", "code", "serial",
		                                "size", "label", "ref", "reference", NULL };
	int coded = 0;
	for (const char *const *c = code; *c && !coded && q->key + 1 < (int)q->n_term; c++)
		coded = !strcmp(q->term[q->key + 1].word, *c);
	for (const char *const *c = code; *c && !coded; c++)
		coded = !strcmp(q->term[q->key].word, *c);
	if (!coded)
		return H2EMV_OK;
	rquestion orig = *q;
	for (size_t i = q->n_term; i-- > 0;) {
		const rq_term *t = &q->term[i];
		int number = t->word[0] >= '0' && t->word[0] <= '9';
		int numbered = i + 1 < q->n_term && q->term[i + 1].word[0] >= '0' &&
		               q->term[i + 1].word[0] <= '9';
		if ((int)i != q->key && !t->cap && !number && !numbered)
			drop_term(q, i);
	}
	q->kind = RQ_WHICH;
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	int rc = walk(x, root, 0, err);
	/* the actions that name the key among their parameters */
	char part[160];
	size_t m = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < x->n; i++)
		if (is_act(x->c[i].f) &&
		    named_part(x->c[i].f->s[FS_STATE], &q->term[q->key], part, sizeof part, NULL))
			x->c[m++] = x->c[i];
	x->n = m;
	if (rc == H2EMV_OK && x->n) {
		if (x->want_trace)
			pr_str_addf(&x->trace, "nothing matched; by the key \"%s\" and the names\n",
			            q->term[q->key].word);
		return H2EMV_OK;
	}
	*q = orig;
	x->q = q;
	x->n = 0;
	return rc;
}
