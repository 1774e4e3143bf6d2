/*
 * recall_q.c — reading a question (recall.h): its kind, its time scope and
 * its target words (recall_q_scope.c, recall_q_kind.c, recall_q_terms.c),
 * then the passes over the terms: abbreviations and units, the category
 * and key asked for, where from, the speaker, and the verb that chose the
 * kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/recall/recall.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_q_internal.h"

/* A term's abbreviation with the number after it ("R22") and the symbol
 * of a unit ("kg"). */
static void term_marks(rquestion *q)
{
	/* "row 22", "level 5", "column C7": a log may write the noun's first
	 * letter with the number ("R22", "L5") */
	for (size_t t = 0; t + 1 < q->n_term; t++) {
		rq_term *a = &q->term[t], *d = &q->term[t + 1];
		size_t nd = strlen(d->word);
		if (d->pos != a->pos + 1)
			continue; /* "the minibar in 204": 204 is no minibar's */
		int digits = nd > 0 && nd + 2 < LEX_WORD_MAX;
		for (size_t j = 0; j < nd && digits; j++)
			digits = d->word[j] >= '0' && d->word[j] <= '9';
		if (!digits || a->lemma || a->cap || strlen(a->word) < 3 || a->word[0] < 'a' ||
		    a->word[0] > 'z')
			continue;
		a->abbr[0] = a->word[0];
		memcpy(a->abbr + 1, d->word, nd + 1);
		memcpy(d->abbr, a->abbr, nd + 2);
		memcpy(d->pair, a->stem, LEX_WORD_MAX);
	}
	/* "kilos", "cubic metres": the symbol a log writes ("kg", "m3") */
	for (size_t t = 0; t < q->n_term; t++) {
		const char *sym = q->term[t].lemma || q->term[t].cap ? NULL : unit_symbol(q, &q->term[t]);
		if (sym)
			snprintf(q->term[t].unit, sizeof q->term[t].unit, "%s", sym);
	}
}

/* "How many packs of batteries were there": the word after "how many" is
 * a noun, though the lexicon knows it as a verb; the question's verb is
 * then another word, if any. */
static void noun_after_many(rquestion *q, const char *word)
{
	int t = q->verb;
	size_t n = strlen(word);
	/* ("how many pipetting steps did you do": a doing names the steps) */
	if (t < 0 || strcmp(q->term[t].word, word) ||
	    (n > 4 && (!strcmp(word + n - 3, "ing") || !strcmp(word + n - 2, "ed"))))
		return;
	rq_term_as_noun(&q->term[t]);
	q->verb = -1;
	for (size_t u = 0; u < q->n_term && q->verb < 0; u++)
		if ((int)u != t && q->term[u].lemma && !q->term[u].cap)
			q->verb = (int)u;
}

/* The category: the noun after "which", "what" or "how many", which a
 * fact need not repeat. */
static void read_category(rquestion *q, const lex_word *w, size_t k)
{
	/* "which tote", "what package": the noun names the kind of thing asked
	 * for, which a fact need not repeat */
	q->category = -1;
	if ((q->kind == RQ_WHICH || q->kind == RQ_COUNT) && q->n_term) {
		size_t qi2 = 0;
		while (qi2 + 1 < k && strcmp(w[qi2].w, "which") && strcmp(w[qi2].w, "what") &&
		       strcmp(w[qi2].w, "many") && strcmp(w[qi2].w, "much"))
			qi2++;
		if (!strcmp(w[qi2].w, "many") && qi2 + 1 < k)
			noun_after_many(q, w[qi2 + 1].w);
		/* "how many insulin pens did": the second noun of two before the
		 * verb's helper */
		static const char *const aux[] = { "did", "do", "does", "were", "was", "have", "had",
			                               "are", "is", "went", "came", NULL };
		int two = q->kind == RQ_COUNT && qi2 + 3 < k && !w[qi2 + 2].digit && !w[qi2 + 2].cap &&
		          !lex_stop(w[qi2 + 2].stem) && !lex_lemma(w[qi2 + 2].stem, NULL) &&
		          (!strcmp(w[qi2].w, "many") || !strcmp(w[qi2].w, "much"));
		int then_aux = 0;
		for (const char *const *p = aux; two && *p; p++)
			then_aux |= !strcmp(w[qi2 + 3].w, *p);
		if (two && then_aux)
			qi2++;
		/* "how much heparin ..., in ampoules": the unit said last */
		if (q->kind == RQ_COUNT && k > 2 && !strcmp(w[k - 2].w, "in") && !w[k - 1].digit &&
		    !lex_stop(w[k - 1].stem) && strcmp(w[k - 1].w, "total") &&
		    strcmp(w[k - 1].w, "sum") && strcmp(w[k - 1].w, "general") &&
		    strcmp(w[k - 1].w, "fact") && strcmp(w[k - 1].w, "time") && !w[k - 1].cap)
			qi2 = k - 2;
		if (qi2 + 1 < k)
			for (size_t t = 0; t < q->n_term; t++)
				/* "how many photos did you take": a noun there, though
				 * the lexicon knows the word as a verb too */
				if (!strcmp(q->term[t].word, w[qi2 + 1].w) && !q->term[t].cap &&
				    (!q->term[t].lemma || ((int)t != q->verb && q->verb >= 0))) {
					q->category = (int)t;
					break;
				}
	}
}

/* The key: the noun after the wh-word, which a parameter's key may name. */
static void read_key(rquestion *q, const lex_word *w, size_t k)
{
	/* "which floor", "what flight", for any kind: the noun after the
	 * wh-word, which a parameter's key may name */
	q->key = -1;
	for (size_t i = 0; i + 1 < k && q->key < 0; i++) {
		if (strcmp(w[i].w, "which") && strcmp(w[i].w, "what"))
			continue;
		/* "what's the serial number of the SSD", "what was the work
		 * order for": the noun after "is the" too */
		/* (not a measured value: "what was the sugar reading") */
		size_t j = i + 1;
		if (j + 2 < k && !q->value &&
		    (!strcmp(w[j].w, "s") || !strcmp(w[j].w, "is") || !strcmp(w[j].w, "was")) &&
		    !strcmp(w[j + 1].w, "the"))
			j += 2;
		for (size_t t = 0; t < q->n_term; t++)
			if (!strcmp(q->term[t].word, w[j].w) && !q->term[t].lemma && !q->term[t].cap) {
				q->key = (int)t;
				break;
			}
	}
}

/* Terms that may be met by their kinds: the category, a plural noun. */
static void term_kinds(rquestion *q)
{
	/* the category, and a plural noun ("did you chop vegetables"), may be
	 * met by its kinds */
	for (size_t t = 0; t < q->n_term; t++) {
		rq_term *m = &q->term[t];
		size_t n = strlen(m->word);
		int plural = n > 3 && m->word[n - 1] == 's' && m->word[n - 2] != 's' &&
		             m->word[n - 2] != '\'' && strcmp(m->stem, m->word);
		m->kind = m->lemma || m->cap ? 0 : (int)t == q->category ? 1 : plural ? 2 : 0;
	}
}

/* From or where: the main verb says whether "from" asks for the source. */
static void read_from(rquestion *q, const lex_word *w, size_t k)
{
	/* "where did you put the tote you picked from A7": the main verb says
	 * whether "from" asks for the source */
	if (q->verb >= 0) {
		int c = q->term[q->verb].cls;
		/* but "where did the tote come from", "where did you get it from":
		 * a "from" that closes the question or follows the verb asks it */
		int asks_from = k && !strcmp(w[k - 1].w, "from");
		for (size_t i = 0; i + 1 < k && !asks_from; i++)
			if (!strcmp(w[i].w, q->term[q->verb].word) && !strcmp(w[i + 1].w, "from"))
				asks_from = 1;
		if (q->kind == RQ_FROM && !asks_from && (c == LC_PUT || c == LC_GIVE || c == LC_GO))
			q->kind = RQ_WHERE;
		/* "where did you find the remote": where it was, not where it went */
		if (q->kind == RQ_WHERE && c == LC_SEARCH)
			q->kind = RQ_FROM;
	}
}

/* The speaker of "what did the user / the nurse / Anna say". */
static void read_speaker(rquestion *q, const lex_word *w, size_t k)
{
	/* "what did the user / the nurse / Anna say": the speaker */
	if (q->kind == RQ_SAID && !q->self_speaker) {
		for (size_t i = 0; i + 2 < k; i++) {
			if (strcmp(w[i].w, "did") && strcmp(w[i].w, "does") && strcmp(w[i].w, "has"))
				continue;
			size_t j = i + 1;
			if (j < k && (!strcmp(w[j].w, "the") || !strcmp(w[j].w, "a") ||
			              !strcmp(w[j].w, "my") || !strcmp(w[j].w, "your")))
				j++;
			for (size_t t = 0; j < k && t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[j].w) && !q->term[t].lemma)
					q->person = (int)t;
			static const char *const others[] = { "people", "someone", "somebody",
				                                  "anyone", "anybody", "they", "others",
				                                  "everyone", "everybody", "humans", NULL };
			for (const char *const *p = others; j < k && *p; p++)
				if (!strcmp(w[j].w, *p))
					q->others_speak = 1;
			break;
		}
	}
	/* "what did you answer the inspector", "what did you say to the
	 * driver": the one spoken to, by a word that names a person */
	if (q->kind == RQ_SAID && q->self_speaker && q->person < 0 && k && !strcmp(w[0].w, "what")) {
		for (size_t i = 0; i + 3 < k; i++) {
			if (strcmp(w[i].w, "did") || strcmp(w[i + 1].w, "you"))
				continue;
			size_t j = i + 3;
			while (j < k && (!strcmp(w[j].w, "to") || !strcmp(w[j].w, "the") ||
			                 !strcmp(w[j].w, "a") || !strcmp(w[j].w, "an") ||
			                 !strcmp(w[j].w, "that") || !strcmp(w[j].w, "this")))
				j++;
			for (size_t t = 0; j < k && t < q->n_term; t++)
				if (!strcmp(q->term[t].word, w[j].w) && !q->term[t].lemma &&
				    wn_is_person(w[j].w))
					q->person = (int)t;
			break;
		}
	}
}

/* "who came over", "who visited": someone met, not a place gone to. */
static void read_visitor(rquestion *q, const lex_word *w, size_t k)
{
	/* "who came over", "who visited", "who dropped by": someone the robot
	 * met, not somewhere it went */
	if (q->kind == RQ_WHO && q->verb >= 0 && q->term[q->verb].cls == LC_GO && k > 1 &&
	    (!strcmp(w[0].w, "who") || (k > 2 && !strcmp(w[0].w, "which") &&
	                                 !strcmp(w[2].w, q->term[q->verb].word))) &&
	    (!strcmp(w[1].w, q->term[q->verb].word) || !strcmp(w[2 < k ? 2 : 1].w, q->term[q->verb].word)))
		for (size_t i = 0; i < q->n_term; i++) /* "came to visit": both */
			if (q->term[i].cls == LC_GO && !q->term[i].cap)
				q->term[i].cls = LC_MEET;
}

/* The verb that chose the kind ("say", "see", "meet") is no target. */
static void drop_kind_verb(rquestion *q)
{
	/* the words "say/see/meet" that chose the kind are no targets */
	if (q->verb >= 0) {
		int c = q->term[q->verb].cls;
		if ((q->kind == RQ_SAID && c == LC_SAY) || (q->kind == RQ_SEEN && c == LC_SEE) ||
		    (q->kind == RQ_WHO && (c == LC_MEET || c == LC_SEE || c == LC_LOOK))) {
			memmove(&q->term[q->verb], &q->term[q->verb + 1],
			        (q->n_term - (size_t)q->verb - 1) * sizeof *q->term);
			q->n_term--;
			if (q->person > q->verb)
				q->person--;
			q->verb = -1;
			for (size_t i = 0; i < q->n_term; i++)
				if (q->term[i].lemma && !q->term[i].cap) {
					q->verb = (int)i;
					break;
				}
		}
	}
}

/* "Which room did you clean most often", "who did you talk to the
 * most", "what did you pick up least": a tally of every occurrence (not a
 * measured value: "the most power" is read by read_value). */
static void read_most(rquestion *q, const lex_word *w, size_t k, uint8_t *used)
{
	if (q->value || (q->kind != RQ_WHICH && q->kind != RQ_WHO && q->kind != RQ_WHERE &&
	                 q->kind != RQ_DO))
		return;
	for (size_t i = 0; i < k; i++) {
		int most = !strcmp(w[i].w, "most") ? 1 : !strcmp(w[i].w, "least") ? -1 : 0;
		if (!most || (i > 0 && !strcmp(w[i - 1].w, "at")))
			continue; /* ("at most": a bound) */
		/* "most often", "the most", "most times", at the end or before
		 * a scope; not "the most expensive tool" */
		int last = i + 1 == k;
		int often = !last && (!strcmp(w[i + 1].w, "often") || !strcmp(w[i + 1].w, "frequently") ||
		                      !strcmp(w[i + 1].w, "times") || !strcmp(w[i + 1].w, "on") ||
		                      !strcmp(w[i + 1].w, "in") || !strcmp(w[i + 1].w, "this") ||
		                      !strcmp(w[i + 1].w, "last") || !strcmp(w[i + 1].w, "yesterday") ||
		                      !strcmp(w[i + 1].w, "today") || !strcmp(w[i + 1].w, "during"));
		if (last || often) {
			q->most = most;
			q->plural = 1;
			used[i] = 1;
			if (often && (!strcmp(w[i + 1].w, "often") || !strcmp(w[i + 1].w, "frequently") ||
			              !strcmp(w[i + 1].w, "times")))
				used[i + 1] = 1;
			return;
		}
	}
}

/* "What was your busiest day", "what do you usually do in the
 * afternoon": questions over the whole history, tallied. A habit keeps
 * the part of the day asked, of every day, not of the last one. */
static void read_habit(rquestion *q, const lex_word *w, size_t k, scope *sc, uint8_t *used)
{
	q->hour0 = q->hour1 = -1;
	for (size_t i = 0; i < k; i++) {
		const char *s = w[i].w;
		if (!strcmp(s, "busiest") || (!strcmp(s, "most") && i + 1 < k &&
		                              (!strcmp(w[i + 1].w, "busy") || !strcmp(w[i + 1].w, "active"))))
			q->busiest = 1, used[i] = 1;
		if (!strcmp(s, "usually") || !strcmp(s, "typically") || !strcmp(s, "normally") ||
		    !strcmp(s, "generally") ||
		    (!strcmp(s, "tend") && i + 1 < k && !strcmp(w[i + 1].w, "to")))
			q->habit = 1, used[i] = 1;
	}
	if (q->busiest)
		q->habit = 0;
	for (size_t i = 0; q->habit && i < k; i++)
		if (!strcmp(w[i].w, "overall") || !strcmp(w[i].w, "day"))
			used[i] = 1;
	if (q->habit && sc->day == INT64_MIN && sc->hour0 >= 0) {
		q->hour0 = sc->hour0;
		q->hour1 = sc->hour1;
		sc->hour0 = sc->hour1 = -1; /* every day's, not the last one's */
	}
	if (q->habit && sc->day != INT64_MIN)
		q->habit = 0; /* "what did you usually do last week": that week */
}

void rq_parse(rquestion *q, const char *text, int64_t now)
{
	rq_parse_zone(q, text, now, 0);
}

/* "hey armar, ...", "I'm the engineer, quick one: ...", "roughly when
 * ...": words before the question proper that do nothing and name no
 * number say who asks or how, not what is asked. A clause with a verb
 * ("the last time you brought milk, where ...") is kept, and so is one
 * the question points back to ("the apple - what day was it sliced"). */
static void drop_preamble(const lex_word *w, size_t k, size_t qi, uint8_t *used)
{
	/* ("the apple - what day was it sliced": the question points back) */
	for (size_t i = qi; i < k; i++)
		if (!strcmp(w[i].w, "it") || !strcmp(w[i].w, "them") || !strcmp(w[i].w, "they") ||
		    !strcmp(w[i].w, "those") || !strcmp(w[i].w, "these"))
			return;
	for (size_t i = 0; i < qi; i++) {
		int cls = LC_NONE;
		const char *lemma = used[i] ? NULL : lex_lemma(w[i].stem, &cls);
		if (!used[i] && (w[i].digit || (lemma && cls != LC_NONE)))
			return;
	}
	for (size_t i = 0; i < qi; i++)
		used[i] = 1;
}

void rq_parse_zone(rquestion *q, const char *text, int64_t now, int zone_min)
{
	memset(q, 0, sizeof *q);
	q->verb = q->person = -1;
	lex_word w[MAXW];
	size_t k = lex_split(text, strlen(text), w, MAXW);
	if (k > MAXW)
		k = MAXW;
	uint8_t used[MAXW] = { 0 };
	read_texting(w, k);
	scope sc = { INT64_MIN, 0, -1, -1, -1, 0, 0, 0, 0, -1, -1 };
	/* days and hours are the robot's local ones: the scope is read on a
	 * clock moved by its offset, then moved back to UTC */
	int64_t zone = now ? (int64_t)zone_min * 60 * 1000000 : 0;
	q->zone = zone;
	read_scope(w, k, now + zone, &sc, used);
	read_habit(q, w, k, &sc, used);
	scope_range(&sc, now + zone, &q->t0, &q->t1, &q->t_point);
	if (q->t1) {
		q->t0 = q->t0 > zone ? q->t0 - zone : 0;
		q->t1 -= zone;
	}
	if (q->t_point)
		q->t_point -= zone;
	q->weekday = sc.weekday && sc.span == DAY_US && q->t1;
	size_t qi = question_start(w, k, used);
	drop_preamble(w, k, qi, used);
	/* "in the end", "eventually", "finally": how it turned out, no word
	 * a record holds (the newest outcome is read anyway) */
	for (size_t i = 0; i < k; i++) {
		if (!strcmp(w[i].w, "eventually") || !strcmp(w[i].w, "finally"))
			used[i] = 1;
		if (i + 2 < k && (!strcmp(w[i].w, "in") || !strcmp(w[i].w, "at")) &&
		    !strcmp(w[i + 1].w, "the") && !strcmp(w[i + 2].w, "end") &&
		    (i + 3 == k || strcmp(w[i + 3].w, "of")))
			used[i] = used[i + 1] = used[i + 2] = 1;
	}
	read_kind(q, w + qi, k - qi, used + qi);
	/* "the very first thing you said to the guests": what was said,
	 * asked without "what" */
	for (size_t i = 0; q->kind == RQ_DO && i + 2 < k; i++)
		if ((!strcmp(w[i].w, "thing") || !strcmp(w[i].w, "things")) &&
		    !strcmp(w[i + 1].w, "you") &&
		    (!strcmp(w[i + 2].w, "said") || !strcmp(w[i + 2].w, "told"))) {
			q->kind = RQ_SAID;
			q->self_speaker = 1;
			used[i + 2] = 1;
		}
	/* "last time you turned the tap on?", "first time you waved at
	 * people?": when, asked without "when" */
	size_t lt = k > 3 && !strcmp(w[0].w, "the") ? 1 : 0;
	if (q->kind == RQ_DO && k > lt + 3 &&
	    (!strcmp(w[lt].w, "last") || !strcmp(w[lt].w, "first")) &&
	    !strcmp(w[lt + 1].w, "time") &&
	    (!strcmp(w[lt + 2].w, "you") || !strcmp(w[lt + 2].w, "that") ||
	     !strcmp(w[lt + 2].w, "somebody") || !strcmp(w[lt + 2].w, "someone")))
		q->kind = RQ_WHEN;
	for (size_t i = qi; q->kind == RQ_COUNT && i < k; i++)
		if (!strcmp(w[i].w, "try") || !strcmp(w[i].w, "tried") || !strcmp(w[i].w, "attempt") ||
		    !strcmp(w[i].w, "attempts") || !strcmp(w[i].w, "attempted") ||
		    !strcmp(w[i].w, "tries"))
			q->tries = 1;
	/* "what went wrong": not a journey */
	for (size_t i = 0; i + 1 < k; i++)
		if ((!strcmp(w[i].w, "went") || !strcmp(w[i].w, "go") || !strcmp(w[i].w, "goes")) &&
		    !strcmp(w[i + 1].w, "wrong"))
			used[i] = used[i + 1] = 1;
	/* "go": kept as a verb when it is the question's only verb ("where did
	 * you go") */
	read_summary(q, w, k, used);
	/* "Name the people you met", "List ...", "Tell me ...": an imperative */
	if (k && (!strcmp(w[0].w, "name") || !strcmp(w[0].w, "list") || !strcmp(w[0].w, "tell") ||
	          !strcmp(w[0].w, "show") || !strcmp(w[0].w, "describe") ||
	          !strcmp(w[0].w, "give") || !strcmp(w[0].w, "recall")))
		used[0] = 1;
	read_most(q, w, k, used);
	/* "where did the lettuce slice end up" (a thing's, not "where did
	 * you end up"): the words before it name the thing */
	for (size_t i = 2; q->kind == RQ_WHERE && i + 1 < k; i++)
		if ((!strcmp(w[i].w, "end") || !strcmp(w[i].w, "ended")) && !strcmp(w[i + 1].w, "up") &&
		    strcmp(w[i - 1].w, "you") && strcmp(w[i - 1].w, "we") && strcmp(w[i - 1].w, "i")) {
			used[i] = used[i + 1] = 1;
			q->end_up = 1;
		}
	/* "how many cupboards did you open looking for a plate": the
	 * purpose is not what was counted ("what did you tell the man
	 * looking for pasta" keeps it: it names the man) */
	for (size_t i = qi + 3; q->kind == RQ_COUNT && i + 1 < k; i++)
		if ((!strcmp(w[i].w, "looking") || !strcmp(w[i].w, "searching") ||
		     !strcmp(w[i].w, "hunting")) && !strcmp(w[i + 1].w, "for") && k - i <= 6) {
			for (size_t j = i; j < k; j++)
				used[j] = 1;
			break;
		}
	read_terms(q, w, k, qi, used);
	read_agent(q, w, k, qi);
	main_verb(q, w, k);
	term_marks(q);
	read_category(q, w, k);
	read_key(q, w, k);
	term_kinds(q);
	read_from(q, w, k);
	read_speaker(q, w, k);
	read_visitor(q, w, k);
	drop_kind_verb(q);
	/* "what did you slice this week": everything sliced in a span of
	 * days, not the last thing */
	int noun = 0;
	for (size_t t = 0; t < q->n_term; t++)
		noun |= (int)t != q->verb && !q->term[t].cap && !q->term[t].lemma;
	if (q->kind == RQ_WHICH && !q->plural && !q->order_said && !q->value && q->verb >= 0 &&
	    !noun && q->category < 0 && q->t1 && q->t0 > 0 && q->t1 - q->t0 > 36 * 3600LL * 1000000)
		q->plural = 1;
}
