/*
 * recall_words.c — matching a fact's words against the question's
 * (recall_internal.h): words, numbers and abbreviations in a text, amounts
 * and counts a text names, who was addressed, and whether a fact's type and
 * verb are the ones asked for.
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

/* ------------------------------------------------------------- matching -- */

/* Actions and tasks (the goals an observation serves) are both things done. */
/* A number in `s` right before a word the question names ("48 reefer
 * containers" for "how many reefers", "Eighty chairs"): "48 reefer" into
 * out. Only the word of the thing counted when `counted` is set. */
static int number_before(const char *s, const rquestion *q, int counted, char *out, size_t cap)
{
	lex_word w[48];
	size_t n = lex_split(s, strlen(s), w, 48);
	if (n > 48)
		n = 48;
	for (size_t i = 0; i + 1 < n; i++) {
		double v;
		size_t m = lex_number(&w[i], n - i, &v);
		/* (a number in words names a count only where a count stands:
		 * "with twenty pupils", not "cue fourteen fog") */
		if (!m || i + m >= n || (!w[i].digit && i && !lex_stop(w[i - 1].stem)))
			continue;
		/* "13 of 14 bags found": the first number is the count */
		double first;
		if (i >= 2 && !strcmp(w[i - 1].w, "of") && lex_number(&w[i - 2], 1, &first) == 1)
			v = first;
		for (size_t j = 0; j < q->n_term; j++)
			if (!q->term[j].lemma && !strcmp(q->term[j].stem, w[i + m].stem) &&
			    (!counted || (int)j == q->category)) {
				snprintf(out, cap, "%.10g %s", v, w[i + m].w);
				return 1;
			}
	}
	return 0;
}

int counted_amount(const char *s, const rquestion *q, char *out, size_t cap)
{
	return number_before(s, q, 0, out, cap);
}

int stated_count(const char *s, const rquestion *q, char *out, size_t cap)
{
	return s && q->kind == RQ_COUNT && q->category >= 0 && number_before(s, q, 1, out, cap);
}

/* Does the word `w` (a parameter's key word) name the term: its stem, or
 * the term's stem begins it ("weigh" for a "weight")? */
int key_names(const lex_word *w, const rq_term *t)
{
	size_t n = strlen(t->stem);
	return !strcmp(w->stem, t->stem) || (n >= 4 && !strncmp(w->w, t->stem, n));
}

/* The next part of an action's other parameters ("books 31, floor 2"),
 * into out; *p moves past it. 0 when none is left. */
int next_part(const char **p, char *out, size_t cap)
{
	if (!*p || !**p)
		return 0;
	const char *e = strstr(*p, ", ");
	size_t n = e ? (size_t)(e - *p) : strlen(*p);
	snprintf(out, cap, "%.*s", (int)n, *p);
	*p = e ? e + 2 : *p + n;
	return 1;
}

/* The part of an action's other parameters ("books 31, floor 2") whose
 * key names term `t`, into out; its number into *num when it ends in one.
 * 1 when there is one. */
int named_part(const char *state, const rq_term *t, char *out, size_t cap, double *num)
{
	if (!t)
		return 0;
	for (const char *p = state; next_part(&p, out, cap);) {
		lex_word w[6];
		size_t k = lex_split(out, strlen(out), w, 6);
		/* "books 31", "weight 2.5 kg", "books returned 31": the key's
		 * words, then the number (and a unit); not a sentence ("Shelved
		 * 12 atlases on shelf 4") */
		size_t d = 0, words_after = 0;
		while (d < k && d < 6 && !w[d].digit)
			d++;
		for (size_t j = d; j < k && j < 6; j++)
			words_after += !w[j].digit;
		if (num && d < k && words_after > 1)
			continue;
		/* (an id splits into many words: "serial S6KN0R512") */
		if (k >= 2 && (k <= 6 || (!num && strlen(out) <= 48)) && !w[0].digit &&
		    key_names(&w[0], t)) {
			const char *sp = strrchr(out, ' ');
			char *end = NULL;
			double v = sp ? strtod(sp + 1, &end) : 0;
			/* "weight 2.5 kg": the number before its unit */
			if ((!end || *end) && sp && sp > out) {
				const char *s2 = sp - 1;
				while (s2 > out && *s2 != ' ')
					s2--;
				if (*s2 == ' ' && !strchr(sp + 1, ' ')) {
					v = strtod(s2 + 1, &end);
					if (end != sp)
						end = NULL;
					else
						end = (char *)sp + strlen(sp);
				}
			}
			if (num)
				*num = end && *end == 0 ? v : -1;
			return 1;
		}
	}
	return 0;
}

int is_act(const fact *f)
{
	return f->type == FT_ACT || f->type == FT_TASK;
}

/* Is the number `num` in `s` as a number of its own: not the whole part
 * or the decimals of another ("23" is not in "brix 23.4")? */
static int number_in(const char *s, const char *num)
{
	size_t n = strlen(num);
	for (const char *p = strstr(s, num); p; p = strstr(p + 1, num)) {
		char b = p > s ? p[-1] : ' ', a = p[n];
		int digit_before = p > s + 1 && p[-2] >= '0' && p[-2] <= '9';
		if ((b >= '0' && b <= '9') || ((b == '.' || b == ',') && digit_before))
			continue;
		if ((a >= '0' && a <= '9') || ((a == '.' || a == ',') && p[n + 1] >= '0' && p[n + 1] <= '9'))
			continue;
		return 1;
	}
	return 0;
}

/* Is the short form `ab` ("r22") in `s` as a word of its own ("R22",
 * "bin R22-B" but not "AR221")? */
static int abbr_in(const char *s, const char *ab)
{
	size_t n = strlen(ab);
	for (const char *p = s; *p; p++) {
		if (strncasecmp(p, ab, n))
			continue;
		char b = p > s ? p[-1] : ' ', a = p[n];
		int alnum_b = (b >= '0' && b <= '9') || ((b | 32) >= 'a' && (b | 32) <= 'z');
		if (!alnum_b && !(a >= '0' && a <= '9') && !(a == '.' && p[n + 1] >= '0' && p[n + 1] <= '9'))
			return 1;
	}
	return 0;
}

int word_in(const char *s, const rq_term *t)
{
	if (!s)
		return 0;
	lex_word w[24];
	size_t k = lex_split(s, strlen(s), w, 24);
	if (k > 24)
		k = 24;
	if (t->abbr[0] && abbr_in(s, t->abbr))
		return 1; /* "R22" for "row 22" */
	if (t->unit[0] && abbr_in(s, t->unit))
		return 1; /* "kg" for "kilos" */
	if (t->word[0] >= '0' && t->word[0] <= '9' && !t->word[strspn(t->word, "0123456789")]) {
		if (!t->pair[0])
			return number_in(s, t->word);
		/* "aisle 7": the 7 beside the aisle ("aisle 7", "Aisle07", "aisle:
		 * 07"), not the 7 of "gaps 7" */
		for (size_t i = 1; i < k; i++)
			if (w[i].digit && atol(w[i].w) == atol(t->word) &&
			    (!strcmp(w[i - 1].stem, t->pair) ||
			     (i > 1 && !strcmp(w[i - 2].stem, t->pair) && !w[i - 1].digit)) &&
			    number_in(s, w[i].w))
				return 1;
		return 0;
	}
	for (size_t i = 0; i < k; i++)
		if (!strcmp(w[i].stem, t->stem) || !strcmp(w[i].w, t->word) ||
		    (t->alias && !strcmp(w[i].stem, t->alias)))
			return 1;
	/* "the charger" at the "charging dock", a "printer" for "printing":
	 * the doer's noun and its verb share a stem */
	size_t ns = strlen(t->stem);
	for (size_t i = 0; ns > 5 && !t->lemma && (!strcmp(t->stem + ns - 2, "er") ||
	                                            !strcmp(t->stem + ns - 2, "or")) && i < k; i++)
		if (strlen(w[i].stem) == ns - 2 && !strncmp(w[i].stem, t->stem, ns - 2))
			return 1;
	/* "medicine" for the pills, "tv" for the television */
	for (size_t i = 0; t->same >= 0 && i < k; i++)
		if (lex_same_group(w[i].stem) == t->same)
			return 1;
	/* "coffeemachine" or "soymilk" written as one word */
	if (strlen(t->word) >= 5) {
		char low[256];
		size_t j = 0;
		for (const char *p = s; *p && j + 1 < sizeof low; p++)
			if (*p != ' ' && *p != '_' && *p != '-')
				low[j++] = (char)((*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
		low[j] = 0;
		if (strstr(low, t->word))
			return 1;
	}
	/* a category word: "vegetables" for the carrot, "container" for the
	 * crate (WordNet; a name or a verb is no category) */
	if (t->kind && t->cls == LC_NONE && strlen(t->word) >= 3)
		for (size_t i = 0; i < k; i++)
			if (!w[i].digit && strlen(w[i].w) >= 3 && wn_kind_of(w[i].w, t->word))
				return 1;
	return 0;
}

/* word_in over free text (a note, words said): a plural that is no
 * category asked about matches its kinds only by what a word first means
 * ("who signed for the parcels": a car deck is no parcel, though a deck of
 * cards is one); in an action's parameters any sense ("water the plants":
 * the palm). */
int word_in_text(const char *s, const rq_term *t)
{
	if (t->kind != 2)
		return word_in(s, t);
	rq_term u = *t;
	u.kind = 0;
	if (word_in(s, &u))
		return 1;
	lex_word w[24];
	size_t k = s ? lex_split(s, strlen(s), w, 24) : 0;
	if (k > 24)
		k = 24;
	for (size_t i = 0; i < k; i++) {
		int cls = LC_NONE;
		if (!w[i].digit && strlen(w[i].w) >= 3 && !lex_lemma(w[i].stem, &cls) &&
		    wn_first_kind_of(w[i].w, t->word))
			return 1;
	}
	return 0;
}

/* The person words greet by name ("Hello Minister Stark Watzinger. My
 * dream is ...", "Welcome, Dr. Chen!"): the capitalised words right after a
 * greeting at the start of `text`, into out (when out is not NULL). Returns
 * 1 when there is one. */
int addressee(const char *text, char *out, size_t cap)
{
	static const char *const greet[] = { "hello", "hi", "hey", "welcome", "dear", "goodbye",
		                                 "bye", "good morning", "good afternoon",
		                                 "good evening", "thank you", "thanks", NULL };
	if (!text)
		return 0;
	const char *p = text;
	while (*p == ' ' || *p == '"' || *p == '\'')
		p++;
	size_t g = 0;
	for (const char *const *w = greet; *w && !g; w++)
		if (!strncasecmp(p, *w, strlen(*w)) &&
		    (p[strlen(*w)] == ' ' || p[strlen(*w)] == ','))
			g = strlen(*w);
	if (!g)
		return 0;
	p += g;
	const char *st = NULL, *end = NULL;
	for (;;) {
		/* "Welcome, Dr. Chen"; but "Welcome Tom, Rosa is in": Tom */
		while (*p == ' ' || (*p == ',' && !st))
			p++;
		if (!(*p >= 'A' && *p <= 'Z'))
			break;
		const char *w = p;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '-' ||
		       (unsigned char)*p >= 0x80)
			p++;
		if (*p == '.' && p - w <= 3 && p[1] == ' ')
			p++; /* "Dr." */
		/* "Hello I am ...", "Hi My name": the robot speaking of itself */
		if (!st && ((p - w == 1 && *w == 'I') || (p - w == 2 && !strncmp(w, "My", 2))))
			return 0;
		if (!st)
			st = w;
		end = p;
	}
	if (!st)
		return 0;
	if (out && cap) {
		size_t n = (size_t)(end - st) < cap - 1 ? (size_t)(end - st) : cap - 1;
		memcpy(out, st, n);
		out[n] = 0;
	}
	return 1;
}

/* The robot's own words that tell what it sees ("I can see an apple tea,
 * and a  milk"): the words after the verb up to the sentence's end, into
 * out (when out is not NULL). 0 for any other sentence ("I don't see any
 * object known to me"). Whose words they are is the caller's question. */
int seen_said(const char *text, char *out, size_t cap)
{
	static const char *const lead[] = { "i can see ", "i could see ", "i see ", "i saw ",
		                                "i can spot ", "i spotted ", "i spot ", "i noticed ",
		                                "i notice ", "i detected ", "i detect ", NULL };
	const char *rest = NULL;
	for (const char *p = text; p && *p && !rest; p++) {
		if (p > text && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z')))
			continue;
		for (const char *const *l = lead; *l && !rest; l++)
			if (!strncasecmp(p, *l, strlen(*l)))
				rest = p + strlen(*l);
	}
	if (!rest)
		return 0;
	while (*rest == ' ')
		rest++;
	static const char *const none[] = { "no ", "nothing", "any ", "none", "anything", NULL };
	for (const char *const *n = none; *n; n++)
		if (!strncasecmp(rest, *n, strlen(*n)))
			return 0;
	size_t j = 0;
	for (const char *p = rest; *p && *p != '.' && *p != '!' && *p != '?' && *p != ';'; p++) {
		if (*p == ' ' && (!j || (out && out[j - 1] == ' ')))
			continue; /* "a  milk": one space */
		if (out && j + 1 < cap)
			out[j] = *p;
		j++;
	}
	if (out && cap)
		out[j < cap ? j : cap - 1] = 0;
	return j > 1;
}

/* Which facts a question's kind and verb look at. */
int type_ok(const rquestion *q, const fact *f)
{
	int vc = q->verb >= 0 ? q->term[q->verb].cls : LC_NONE;
	switch (q->kind) {
	case RQ_STEPS:
		return f->type == FT_ACT;
	case RQ_WHEREABOUTS:
		return f->type == FT_PLACE ||
		       /* a journey's destination; a motion's object ("relative" for a
		        * planar move) is no place */
		       (is_act(f) && f->cls == LC_GO && f->s[FS_DST] &&
		        f->status != FST_FAILED && f->status != FST_ABORTED);
	case RQ_WHO:
		/* "who opened the gate": the robot's own deed (notes name
		 * others' and answer as evidence); words only for a verb of
		 * saying ("who complained") */
		if (q->agent)
			return is_act(f) || (f->type == FT_SPEECH && q->verb >= 0 &&
			                     q->term[q->verb].cls == LC_SAY);
		return f->type == FT_PERSON || f->type == FT_SPEECH ||
		       (is_act(f) && (f->s[FS_WHO] || addressee(f->s[FS_TEXT], NULL, 0)));
	case RQ_SAID:
		return f->type == FT_SPEECH || (is_act(f) && f->s[FS_TEXT]);
	case RQ_SEEN:
		/* what the robot said it saw counts (its speaker: score_hits) */
		return f->type == FT_SEEN ||
		       (f->type == FT_SPEECH && seen_said(f->s[FS_TEXT], NULL, 0));
	default:
		/* ("did you spot any cookies": the robot's "I can see a vanilla
		 * cookies" is its seeing them, as for RQ_SEEN) */
		if (vc == LC_SEE)
			return f->type == FT_SEEN || is_act(f) ||
			       (f->type == FT_SPEECH && seen_said(f->s[FS_TEXT], NULL, 0));
		if (vc == LC_SAY)
			return f->type == FT_SPEECH || is_act(f);
		if (vc == LC_MEET)
			return f->type == FT_PERSON || is_act(f) ||
			       (f->type == FT_SPEECH && addressee(f->s[FS_TEXT], NULL, 0));
		if (q->kind == RQ_WHERE || q->kind == RQ_FROM)
			return is_act(f) || f->type == FT_SEEN;
		return is_act(f) || (vc == LC_NONE && f->type == FT_SEEN);
	}
}

/* "The guests", "visitors", "people": a crowd the robot spoke to, whom
 * its words seldom name (a plural kind of person; "the visitor" is one). */
int crowd_word(const rq_term *t)
{
	size_t n = strlen(t->word);
	return !t->lemma && !t->cap && n > 3 && t->word[n - 1] == 's' && strcmp(t->stem, t->word) &&
	       wn_is_person(t->word);
}

/* Was f's thing put into a sink (its destination or place names one)? */
static int in_sink(const fact *f)
{
	const char *d = f->s[FS_DST] ? f->s[FS_DST] : f->s[FS_PLACE];
	if (!d)
		return 0;
	for (const char *p = d; *p; p++)
		if (!strncasecmp(p, "sink", 4))
			return 1;
	return 0;
}

/* How close a question's verb term is to an action fact's verb: 3 the same
 * lemma, 2.5 the same class, 2 a near class or a word of the skill's name, 1 a loose relation
 * (fetching and delivering are both transports), 0 none. */
double verb_match(const rq_term *v, const fact *f)
{
	if (f->s[FS_VERB] && v->lemma && !strcasecmp(f->s[FS_VERB], v->lemma))
		return 3;
	/* "repair" for a fix, "purchase" for a buy: one sense in WordNet */
	if (f->s[FS_VERB] && wn_same_verb(f->s[FS_VERB], v->lemma ? v->lemma : v->word))
		return 3;
	/* the same class ("hand" for HandOver's giving) before a near one
	 * ("load the dishwasher" also moves a thing) */
	if (lex_class_near(v->cls, f->cls))
		return v->cls == f->cls ? 2.5 : 2;
	/* "what did you wash", "when did you rinse the bowl": a kitchen robot
	 * washes a thing by putting it in the sink under the tap (Place Bowl
	 * Sink_Basin, then ToggleOn Faucet) */
	if (v->cls == LC_CLEAN && f->cls == LC_PUT && in_sink(f))
		return 2.5;
	/* "cook" for a fry, "measure" for a weighing: a way of doing the verb
	 * asked (WordNet; not the reverse), but not for the verbs of moving
	 * and carrying, whose kinds are nearly every doing */
	int moving = v->cls == LC_GO || v->cls == LC_PUT || v->cls == LC_TAKE ||
	             v->cls == LC_GIVE || v->cls == LC_RECEIVE;
	if (f->s[FS_VERB] && !moving &&
	    wn_verb_kind_of(f->s[FS_VERB], v->lemma ? v->lemma : v->word))
		return 2;
	/* a word of the skill's name: "hand" in HandOver, but LookAtHumanHand
	 * is a look, not a handing over */
	if (word_in(f->s[FS_NAME], v))
		return f->cls == LC_NONE ? 2 : 1;
	if (f->s[FS_VERB] && word_in(f->s[FS_VERB], v))
		return 2;
	int take = v->cls == LC_TAKE || f->cls == LC_TAKE;
	int move = v->cls == LC_PUT || v->cls == LC_GIVE || f->cls == LC_PUT || f->cls == LC_GIVE;
	if (take && move)
		return 1;
	/* "where did the parcel go": a thing that was put or brought somewhere
	 * went there */
	if (v->cls == LC_GO && (f->cls == LC_PUT || f->cls == LC_GIVE) &&
	    (f->s[FS_DST] || f->s[FS_PLACE]))
		return 1;
	/* "where did you find the remote": fetching it was finding it */
	if (v->cls == LC_SEARCH && f->cls == LC_TAKE)
		return 1;
	/* "when did you greet the minister": saying "Hello Minister ..." */
	if (v->cls == LC_MEET && addressee(f->s[FS_TEXT], NULL, 0))
		return 2;
	/* going, taking or bringing someone somewhere is escorting them */
	int esc_v = v->cls == LC_GO || v->cls == LC_TAKE || v->cls == LC_GIVE;
	int esc_f = f->cls == LC_GO || f->cls == LC_TAKE || f->cls == LC_GIVE;
	if ((esc_v && f->cls == LC_FOLLOW) || (v->cls == LC_FOLLOW && esc_f))
		return 1;
	return 0;
}
