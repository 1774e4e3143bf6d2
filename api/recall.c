/*
 * recall.c — answering a question from typed facts (recall.h): retrieval
 * over one snapshot, restricted to the question's time scope, ranked by how
 * well a fact's words and verb match the question's; then the answer by
 * the role the question asks for.
 *
 * Goals (L3) are where facts are read: a goal's facts gather all of its
 * scenes'. Summaries above are opened only when their aggregated facts name
 * something asked for (or were trimmed); a summary whose children were
 * partly forgotten offers its own aggregated facts as coarser evidence.
 * Cost is counted the way an agent reading these facts would pay: a few
 * tokens per node looked at, and the rendered text of every matching fact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/emv.h"
#include "api/facts.h"
#include "api/mem.h"
#include "api/profile.h"
#include "api/recall.h"
#include "api/recall_index.h"
#include "api/wordnet.h"
#include "api/scene.h"
#include "api/utf8.h"

#define NOT_FOUND "I could not find that in my memory."
#define FORGOTTEN "I have forgotten that."
#define NODE_TOKENS 3
#define MAX_DEPTH 64
#define LIST_MAX 10

typedef struct cand {
	const fact *f;
	h2emv_ref ref;
	double score;
	int coarse;
	int hits;               /* question words it matched */
	int me;                 /* said by the robot itself (is_me) */
	int complete;           /* it matched every word of the question */
} cand;

typedef struct rctx {
	const rquestion *q;
	h2emv_snap *snap;
	const robot_profile *prof;
	int64_t now;
	facts **sets;           /* decoded fact sets, owned */
	size_t n_sets, cap_sets;
	cand *c;
	size_t n, cap;
	uint64_t tokens, budget;
	int cut;                /* the budget stopped the walk */
	int forgot;             /* a forgotten placeholder in scope matched */
	uint64_t fact_nodes;    /* nodes read that carry typed facts */
	h2emv_ref forgot_ref;
	pr_str trace;
	int want_trace;
	int oom;
	const h2emv_node *root;
	h2emv_error *err;
	int nth_second;         /* the n-th occurrence is the second of a pair */
	int early;              /* one answer by order: walk newest (or oldest) first... */
	int settled;            /* ...and stop once a finished fact matches every word */
	int tasks;              /* scenes read here yield task facts (not skill-stack) */
	ridx *ix;               /* the term index (recall_index.h); NULL: none */
} rctx;

/* ------------------------------------------------------------- matching -- */

/* Actions and tasks (the goals an observation serves) are both things done. */
/* A number in `s` right before a word the question names ("48 reefer
 * containers" for "how many reefers"): "48 reefer" into out. */
static int counted_amount(const char *s, const rquestion *q, char *out, size_t cap)
{
	lex_word w[32];
	size_t n = lex_split(s, strlen(s), w, 32);
	if (n > 32)
		n = 32;
	for (size_t i = 0; i + 1 < n; i++) {
		if (!w[i].digit)
			continue;
		for (size_t j = 0; j < q->n_term; j++)
			if (!q->term[j].lemma && !strcmp(q->term[j].stem, w[i + 1].stem)) {
				snprintf(out, cap, "%s %s", w[i].w, w[i + 1].w);
				return 1;
			}
	}
	return 0;
}

/* Does the word `w` (a parameter's key word) name the term: its stem, or
 * the term's stem begins it ("weigh" for a "weight")? */
static int key_names(const lex_word *w, const rq_term *t)
{
	size_t n = strlen(t->stem);
	return !strcmp(w->stem, t->stem) || (n >= 4 && !strncmp(w->w, t->stem, n));
}

/* The next part of an action's other parameters ("books 31, floor 2"),
 * into out; *p moves past it. 0 when none is left. */
static int next_part(const char **p, char *out, size_t cap)
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
static int named_part(const char *state, const rq_term *t, char *out, size_t cap, double *num)
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
		if (k >= 2 && k <= 6 && !w[0].digit && key_names(&w[0], t)) {
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

/* Is the key word `k` of a number an amount ("books" 31, "weight" 18.5,
 * "expired" 5) rather than a name ("order" 5531, "room" 204, "floor" 2)?
 * A plural, a past participle, a measure, or a fraction. */
static int amount_key(const char *k, double v)
{
	static const char *const measure[] = { "qty", "quantity", "count", "number", "amount",
		                                   "total", "weight", "mass", "volume", "litres",
		                                   "liters", "kg", "grams", "ml", "meters", "metres",
		                                   "km", "pieces", "pcs", "units", "distance",
		                                   "duration", "minutes", "seconds", "price", "cost",
		                                   "load", "size", "length", "height", NULL };
	size_t n = strlen(k);
	if (v != (double)(long long)v)
		return 1;
	if (n > 3 && k[n - 1] == 's' && k[n - 2] != 's')
		return 1;
	if (n > 4 && !strcmp(k + n - 2, "ed"))
		return 1;
	for (const char *const *m = measure; *m; m++)
		if (!strcmp(k, *m))
			return 1;
	return 0;
}

static int is_act(const fact *f);
static int word_in(const char *s, const rq_term *t);

/* A measure key whose number counts something ("qty 40", "copies 12"),
 * not a name ("order 5531") nor a reading. */
static int count_key(const char *k)
{
	static const char *const keys[] = { "qty", "quantity", "count", "copies", "pieces", "pcs",
		                                "units", "number", "amount", "items", "n", NULL };
	for (const char *const *m = keys; *m; m++)
		if (!strcmp(k, *m))
			return 1;
	return 0;
}

/* "How many insulin pens": {qty: 40, unit: "pens"}; "how many labels did
 * you print": PrintLabel {copies: 12}, the one count the action has, of
 * the thing its name says (but not FillOrder {qty: 28, unit: tablets}:
 * the tablets, not the orders). The count into *v, the thing into key. */
static int unit_count(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	if (q->category < 0 || !is_act(f) || !f->s[FS_STATE])
		return 0;
	const rq_term *c = &q->term[q->category];
	char part[160], unit[160] = "";
	double num = -1;
	int counts = 0;
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, sizeof part);) {
		lex_word w[4];
		size_t k = lex_split(part, strlen(part), w, 4);
		if (k == 2 && (!strcmp(w[0].w, "unit") || !strcmp(w[0].w, "uom")))
			snprintf(unit, sizeof unit, "%s", part + strlen(w[0].w) + 1);
		char *end;
		const char *sp = strchr(part, ' ');
		if (k >= 2 && count_key(w[0].w) && sp) {
			double x = strtod(sp + 1, &end);
			if (end != sp + 1 && !*end && x >= 0)
				num = x, counts++;
		}
	}
	if (num < 0 || counts != 1)
		return 0;
	if (unit[0] ? !word_in(unit, c)
	            : !(word_in(f->s[FS_NAME], c) || word_in(f->s[FS_OBJ], c)))
		return 0;
	*v = num;
	snprintf(key, cap, "%s", unit[0] ? unit : c->word);
	return 1;
}

/* The first term of the question that names an amount among f's other
 * parameters ("how many books": "books 31"); its value into *v. */
static int amount_of(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	if (unit_count(q, f, v, key, cap))
		return 1;
	for (size_t i = 0; i < q->n_term; i++) {
		const rq_term *t = &q->term[i];
		if (t->cap || t->word[0] == 0 || (t->word[0] >= '0' && t->word[0] <= '9'))
			continue;
		if (named_part(f->s[FS_STATE], t, key, cap, v) && *v >= 0) {
			char *sp = strchr(key, ' '); /* "weight 2.5 kg": weight */
			if (sp)
				*sp = 0;
			lex_word w[1];
			if (lex_split(key, strlen(key), w, 1) >= 1 && amount_key(w[0].w, *v))
				return 1;
		}
	}
	return 0;
}

static int is_act(const fact *f)
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

static int word_in(const char *s, const rq_term *t)
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
		if (!strcmp(w[i].stem, t->stem) || !strcmp(w[i].w, t->word))
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
static int word_in_text(const char *s, const rq_term *t)
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
static int addressee(const char *text, char *out, size_t cap)
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
static int seen_said(const char *text, char *out, size_t cap)
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
static int type_ok(const rquestion *q, const fact *f)
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
		if (vc == LC_SEE)
			return f->type == FT_SEEN || is_act(f);
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

/* How close a question's verb term is to an action fact's verb: 3 the same
 * lemma, 2 a near class or a word of the skill's name, 1 a loose relation
 * (fetching and delivering are both transports), 0 none. */
static double verb_match(const rq_term *v, const fact *f)
{
	if (f->s[FS_VERB] && v->lemma && !strcasecmp(f->s[FS_VERB], v->lemma))
		return 3;
	/* "repair" for a fix, "purchase" for a buy: one sense in WordNet */
	if (f->s[FS_VERB] && wn_same_verb(f->s[FS_VERB], v->lemma ? v->lemma : v->word))
		return 3;
	if (lex_class_near(v->cls, f->cls))
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

/* Was a person named by `t` listed as present while action f ran (within
 * a minute of it)? */
static int present_at(const facts *set, const fact *f, const rq_term *t)
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

/* How well fact f answers q; 0 = not at all. *hits_out: the question's
 * words it matched. */
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
			if (!strncmp(t, name, n) && (t[n] == ',' || t[n] == '!'))
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

static int is_me(const rquestion *q, const facts *set, const char *name)
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
		if (!strcasecmp(p->s[FS_NAME], name))
			return 0;
	}
	if (!people)
		return 0;
	/* a role ("courier", "the driver") is someone the robot met */
	if (name[0] >= 'a' && name[0] <= 'z')
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
			         set->v[j].s[FS_PLACE] && !strcasecmp(set->v[j].s[FS_NAME], s->s[FS_NAME]);
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
	if (f->type != FT_NOTE && f->type != FT_SPEECH)
		return 0;
	size_t content = 0, hits = 0;
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
		int h = word_in_text(f->s[FS_TEXT], t) || word_in(f->s[FS_WHO], t) ||
		        word_in(f->s[FS_PLACE], t) || word_in(f->s[FS_OBJ], t) ||
		        word_in(f->s[FS_STATE], t) ||
		        (f->type == FT_SPEECH && word_in(f->s[FS_NAME], t));
		/* "the expired holds": a verb the note writes in another form */
		if (!h && (int)i == q->verb && t->lemma) {
			rq_term l = *t;
			snprintf(l.word, sizeof l.word, "%s", t->lemma);
			lex_stem(l.word, strlen(l.word), l.stem);
			h = word_in(f->s[FS_TEXT], &l);
		}
		hits += h != 0;
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
	if (q->person >= 0) {
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
	       (trouble ? 1.0 : 0);
}

static double score_hits(const rquestion *q, const fact *f, const facts *set, int *hits_out)
{
	*hits_out = 0;
	if (q->evidence)
		return score_evidence(q, f, hits_out);
	if (!type_ok(q, f))
		return 0;
	if (q->kind == RQ_SEEN && f->type == FT_SPEECH && !is_me(q, set, f->s[FS_NAME]))
		return 0; /* "I saw your keys" said by someone else */
	int failed = is_act(f) && (f->status == FST_FAILED || f->status == FST_ABORTED);
	int tally = q->kind == RQ_COUNT || q->kind == RQ_YESNO;
	if (q->status == RS_FAILED && !tally && is_act(f) && !failed)
		return 0;
	if (q->status == RS_FAILED && !is_act(f))
		return 0;
	if (q->status == RS_DONE && !tally && failed)
		return 0;
	double s = 0;
	size_t content = 0, hits = 0, verb_nouns = 0;
	double vs = 0;
	int verbs = 0, prev_hit = 0, prev_any = 0, person_hit = 0;
	for (size_t i = 0; i < q->n_term; i++) {
		const rq_term *t = &q->term[i];
		if (t->lemma && !t->cap && is_act(f)) {
			double m = verb_match(t, f);
			/* ("give the scarf back": the particle after the object) */
			for (size_t j = i + 1; m == 0 && (int)i == q->verb && j < q->n_term; j++)
				m = phrasal_match(t, &q->term[j], f);
			verbs++;
			/* the main verb decides; another verb of the question ("after
			 * greeting her") only when the main one says nothing */
			double w = (int)i == q->verb || q->verb < 0 ? m : m * 0.3;
			if (w > vs)
				vs = w;
			if ((int)i == q->verb)
				continue;
			if (m >= 2) { /* "after the introduction": a verb named as a noun */
				content++;
				hits++;
				verb_nouns++;
				s += 0.5;
				continue;
			}
		} else if ((int)i == q->verb &&
		           !(q->kind == RQ_SAID && f->type == FT_SPEECH && t->cls != LC_SAY)) {
			/* (in a question about words, "when the centrifuge
			 * complained", a verb that is not one of saying is a word to
			 * look for in them) */
			verbs++;
			continue;
		}
		/* the speaker of "what did Anna say" is matched below; in "what did
		 * you say to Anna" a name is the one spoken to */
		if (q->kind == RQ_SAID && (int)i == q->person)
			continue;
		/* in "what did you say to Anna" a name may be the one spoken to: it
		 * counts when the words name it, and is not required */
		int optional = (q->kind == RQ_SAID && q->self_speaker && t->cap) ||
		               (q->kind == RQ_WHICH && (int)i == q->category) || t->owner ||
		               (q->people && (int)i == q->category);
		if (!optional)
			content++;
		double h = 0;
		/* in a question about words, the words said weigh most: "when the
		 * centrifuge complained" is in what was said, not where */
		int words_said = q->kind == RQ_SAID && f->type == FT_SPEECH;
		if (words_said && word_in_text(f->s[FS_TEXT], t))
			h = 2;
		static const int strong[] = { FS_OBJ, FS_DST, FS_SRC, FS_PLACE, FS_WHO };
		int in_key = 0; /* in a slot that tells one action from another */
		for (size_t j = 0; j < sizeof strong / sizeof *strong && h == 0; j++)
			if (word_in(f->s[strong[j]], t)) {
				h = words_said ? 1 : 2;
				/* numbered there: "pad 2" */
				/* (a place counts when the action's own words name
				 * it: an event told in a note, "... at berth 6") */
				in_key = is_act(f) &&
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
		if (h > 0) {
			hits++;
			content += optional;
			person_hit |= (int)i == q->person;
		}
		/* "pad 1" is not "pad 2": the number of a thing whose noun
		 * matched must match too (where the action's identity keeps it:
		 * a merged action keeps only one of its places) */
		if (h == 0 && i > 0 && q->term[i].word[0] >= '0' && q->term[i].word[0] <= '9' &&
		    (prev_hit || (t->pair[0] && prev_any)) && !optional)
			return 0; /* ("rack 45" is not the rack R4 of moisture 4.5) */
		prev_hit = h > 0 && in_key;
		prev_any = h > 0;
		s += h;
	}
	/* "which floor is Raj on": a person the question names must be the
	 * action's (or, for what was seen, be present) — a half match of the
	 * other words is not about Raj */
	/* (and "how many times did Alice ask you to tidy up": Alice's words,
	 * or words that name her, not Bob's) */
	if (q->person >= 0 && q->kind != RQ_SAID && q->kind != RQ_WHO &&
	    (is_act(f) || f->type == FT_SPEECH) && !person_hit)
		return 0;
	if (q->agent && is_act(f) && !own_deed(q, f))
		return 0;
	/* "which object did you grasp": the object is what is asked; "which
	 * package went to reception" still needs the reception */
	int open_object = q->kind == RQ_WHICH && vs >= 2 && (q->category < 0 || !content);
	if (content && hits * 2 < content && !open_object)
		return 0;
	if (content && !hits && !open_object)
		return 0;
	if (q->verb >= 0) {
		const rq_term *v = &q->term[q->verb];
		/* a verb that means only itself ("swap", "centrifuge", or one the
		 * lexicon does not know) must be the action's own */
		if (v->cls == LC_OTHER && is_act(f) && verb_match(v, f) == 0)
			return 0;
		if (!is_act(f)) {
			if ((v->cls == LC_SEE && f->type == FT_SEEN) ||
			    (v->cls == LC_SAY && f->type == FT_SPEECH) ||
			    (v->cls == LC_MEET && f->type == FT_PERSON) ||
			    /* "Hello Dr. Chen": greeting someone by name */
			    (v->cls == LC_MEET && f->type == FT_SPEECH &&
			     addressee(f->s[FS_TEXT], NULL, 0)))
				vs = q->kind == RQ_WHO ? 3 : 2; /* "who did you talk to": the speakers */
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
		           (v->lemma && (!strcmp(v->lemma, "make") || !strcmp(v->lemma, "prepare")));
		/* "who refilled the printer": the robot did it only when its
		 * action is that deed, not one that merely names the printer */
		/* "why couldn't you get hold of Farah": the attempt that failed
		 * with her, whatever verb the question uses for it */
		int why_failed = q->why && failed && q->status == RS_FAILED && person_hit;
		/* "how many gaps did you find": ScanShelf {gaps: 2} counts them,
		 * whatever the question calls the doing */
		char part[160];
		double num = -1;
		int counted = q->kind == RQ_COUNT && q->category >= 0 && is_act(f) &&
		              named_part(f->s[FS_STATE], &q->term[q->category], part, sizeof part,
		                         &num) && num >= 0;
		if (vs == 0 && is_act(f) && !why_failed && !counted && q->kind != RQ_WHO &&
		    q->kind != RQ_SAID && !(content && hits == content && weak))
			return 0;
		s += vs;
	} else if (verbs && is_act(f)) {
		s += vs;
	}
	if (q->kind == RQ_SAID) {
		/* "what did people ask you": never the robot's own words */
		if (q->others_speak && (is_act(f) || is_me(q, set, f->s[FS_NAME])))
			return 0;
		if (q->self_speaker) {
			if (f->type == FT_SPEECH && !is_me(q, set, f->s[FS_NAME]))
				return 0;
			s += 0.5; /* the robot's own words: what is asked */
			/* "what did you tell Sam": words that name Sam, or that
			 * answered what Sam had just said */
			if (q->person >= 0 && f->type == FT_SPEECH) {
				const rq_term *p = &q->term[q->person];
				const fact *g = replied_to(set, f);
				if (word_in(f->s[FS_TEXT], p) || (g && word_in(g->s[FS_NAME], p)))
					s += 2;
			}
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
			if (!ok)
				return 0;
			s += 2;
		} else if (is_act(f) || is_me(q, set, f->s[FS_NAME])) {
			s *= 0.5; /* "what was said": others' words first */
		}
	}
	if (failed && q->status != RS_FAILED && !tally && q->kind != RQ_FAILED)
		s *= 0.5; /* a failed attempt is not where a thing went, nor when it was done */
	if (is_act(f) && f->status == FST_ONGOING && !tally && q->order != RO_NTH)
		s *= q->status == RS_DONE ? 0.3 : 0.8; /* a run that was seen to finish first */
	/* the action itself before the task it served, when both match */
	if (f->type == FT_TASK && q->kind != RQ_STEPS)
		s *= 0.8;
	/* ranking counts the things named, not a side clause's verb */
	*hits_out = (int)(hits - verb_nouns);
	if (hits == content)
		*hits_out |= 0x10000; /* every word matched (see add_cand) */
	return s + 0.1; /* something of the right kind in scope */
}

static double score_in(const rquestion *q, const fact *f, const facts *set)
{
	int h;
	return score_hits(q, f, set, &h);
}

static double score(const rquestion *q, const fact *f)
{
	int h;
	return score_hits(q, f, NULL, &h);
}

static int rule_part_keeps(const char *rule, const facts *f);
static int content_terms(const rquestion *q);

/* "Remember what you said to people and who you met" is two rules: each
 * part, split at "and" and commas, keeps what it names on its own (read as
 * one, "met" would be a word to find in what was said). */
int recall_rule_keeps(const char *rule, const facts *f)
{
	if (!rule || !f || !f->n)
		return 0;
	if (rule_part_keeps(rule, f))
		return 1;
	if (!strstr(rule, " and ") && !strchr(rule, ','))
		return 0;
	char part[512];
	const char *p = rule;
	while (*p) {
		const char *e = p, *next = NULL;
		for (; *e; e++) {
			if (*e == ',') {
				next = e + 1;
				break;
			}
			if (!strncmp(e, " and ", 5)) {
				next = e + 5;
				break;
			}
		}
		size_t n = (size_t)(e - p);
		if (n && n < sizeof part) {
			memcpy(part, p, n);
			part[n] = 0;
			if (rule_part_keeps(part, f))
				return 1;
		}
		if (!next)
			break;
		p = next;
	}
	return 0;
}

static int rule_part_keeps(const char *rule, const facts *f)
{
	rquestion q;
	rq_parse(&q, rule, 0);
	/* "remember what you said to people", "remember who you met": every
	 * utterance, every person met */
	if (q.verb < 0 && !content_terms(&q) &&
	    (q.kind == RQ_SAID || q.kind == RQ_WHO || q.kind == RQ_SEEN)) {
		for (size_t i = 0; i < f->n; i++) {
			const fact *v = &f->v[i];
			if ((q.kind == RQ_SAID && (v->type == FT_SPEECH || (is_act(v) && v->s[FS_TEXT]))) ||
			    (q.kind == RQ_WHO && (v->type == FT_PERSON || (is_act(v) && v->s[FS_WHO]))) ||
			    (q.kind == RQ_SEEN && v->type == FT_SEEN))
				return 1;
		}
		return 0;
	}
	if (!q.n_term)
		return 0;
	q.kind = q.kind == RQ_WHO || q.kind == RQ_SAID || q.kind == RQ_SEEN ? q.kind : RQ_DO;
	for (size_t i = 0; i < f->n; i++)
		if (score(&q, &f->v[i]) > 0.1)
			return 1;
	return 0;
}

/* ------------------------------------------------------------ the walk -- */

static int in_scope(const rctx *x, int64_t t0, int64_t t1)
{
	if (t0 > x->now)
		return 0;
	if (!x->q->t1)
		return 1;
	return t0 < x->q->t1 && t1 >= x->q->t0;
}

static int add_cand(rctx *x, const fact *f, h2emv_ref ref, double sc, int coarse, int hits)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 64;
		cand *c = realloc(x->c, cap * sizeof *c);
		if (!c)
			return H2EMV_ENOMEM;
		x->c = c;
		x->cap = cap;
	}
	x->c[x->n++] = (cand){ f, ref, sc, coarse, hits, 0, 0 };
	eng_buf b = { 0 };
	facts_render_one(&b, f);
	x->tokens += b.len / 4 + 4;
	eng_buf_free(&b);
	return H2EMV_OK;
}

static facts *keep_set(rctx *x, facts *f)
{
	if (x->n_sets == x->cap_sets) {
		size_t cap = x->cap_sets ? x->cap_sets * 2 : 32;
		facts **v = realloc(x->sets, cap * sizeof *v);
		if (!v)
			return NULL;
		x->sets = v;
		x->cap_sets = cap;
	}
	x->sets[x->n_sets++] = f;
	return f;
}

/* The facts of a snapshot node (a scene's from its observation). */
static facts *node_facts(rctx *x, const h2emv_node *n)
{
	facts *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	size_t len;
	const void *p = h2emv_node_payload(n, &len);
	int rc = H2EMV_OK;
	if (h2emv_node_kind(n) == H2EMV_KIND_SCENE) {
		scene s;
		if (p && len && scene_decode(&s, p, len, NULL) == H2EMV_OK) {
			rc = facts_from_scene(f, &s, x->prof, x->tasks);
			scene_free(&s);
		}
	} else if (p && len) {
		rc = facts_payload_decode(f, p, len);
		if (rc == H2EMV_ECORRUPT)
			rc = H2EMV_OK; /* damaged facts read as none */
	}
	if (rc || !keep_set(x, f)) {
		facts_free(f);
		free(f);
		return NULL;
	}
	return f;
}

/* Does any fact of `f` in scope match the question? */
static int content_terms(const rquestion *q);

static int wanted(const rctx *x, double s)
{
	return s > 0.1 || (s > 0 && content_terms(x->q) == 0 && x->q->verb < 0);
}

static int any_match(rctx *x, const facts *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (in_scope(x, f->v[i].t0, f->v[i].t2) && wanted(x, score_in(x->q, &f->v[i], f)))
			return 1;
	return 0;
}

static int content_terms(const rquestion *q)
{
	size_t n = 0;
	for (size_t i = 0; i < q->n_term; i++)
		n += (int)i != q->verb;
	return (int)n;
}

static int gist_matches(rctx *x, const h2emv_node *n)
{
	const char *s = h2emv_node_summary(n, NULL);
	if (!s || !*s)
		return 0;
	int any = 0;
	for (size_t i = 0; i < x->q->n_term; i++)
		if ((int)i != x->q->verb && word_in(s, &x->q->term[i]))
			any = 1;
	return any || content_terms(x->q) == 0;
}

static int walk(rctx *x, const h2emv_node *n, int depth, h2emv_error *err);

/* Does the question's main verb name something done (not seeing,
 * saying or meeting, which other kinds of fact answer)? */
static int acts_asked(const rquestion *q)
{
	if (q->verb < 0)
		return 0;
	int c = q->term[q->verb].cls;
	return c != LC_SEE && c != LC_SAY && c != LC_MEET && c != LC_LOOK;
}

static int take_facts(rctx *x, const h2emv_node *n, int coarse)
{
	facts *f = node_facts(x, n);
	if (!f)
		return H2EMV_ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		const fact *v = &f->v[i];
		if (!in_scope(x, v->t0, v->t2))
			continue;
		int hits;
		double s = score_hits(x->q, v, f, &hits);
		int complete = (hits & 0x10000) != 0;
		hits &= 0xffff;
		if (wanted(x, s)) {
			if (add_cand(x, v, h2emv_node_ref(n), s, coarse, hits))
				return H2EMV_ENOMEM;
			x->c[x->n - 1].complete = complete;
			/* (a speaker is also counted as a person met, without a place) */
			x->c[x->n - 1].me = (v->type == FT_SPEECH ||
			                     (v->type == FT_PERSON && !v->s[FS_PLACE])) &&
			                    is_me(x->q, f, v->s[FS_NAME]);
			/* a finished occurrence naming everything asked settles it; a
			 * failed or unfinished one may have a better one beside it */
			int final = !is_act(v) || v->status == FST_DONE ||
			            v->status == FST_NONE ||
			            (x->q->status == RS_FAILED && v->status != FST_ONGOING);
			/* (an object seen does not settle "where did you grab the
			 * milk": the grasp is asked for) */
			if (!coarse && final && complete && s >= 2 && (is_act(v) || !acts_asked(x->q)))
				x->settled = 1;
		}
	}
	return H2EMV_OK;
}

/* A placeholder's gist (forget.c), less what a summary's aggregate
 * already offered (the same fact, merged there). */
static int take_gist(rctx *x, const h2emv_node *n)
{
	size_t before = x->n;
	if (take_facts(x, n, 2))
		return H2EMV_ENOMEM;
	size_t j = before;
	for (size_t i = before; i < x->n; i++) {
		int dup = 0;
		for (size_t k = 0; k < before && !dup; k++)
			dup = x->c[k].coarse && x->c[k].f->key == x->c[i].f->key;
		if (!dup)
			x->c[j++] = x->c[i];
	}
	x->n = j;
	return H2EMV_OK;
}

static int walk_kids(rctx *x, const h2emv_node *n, int depth, h2emv_error *err)
{
	size_t k = h2emv_node_child_count(n);
	int back = x->early && x->q->order == RO_LAST;
	for (size_t j = 0; j < k && !(x->early && x->settled); j++) {
		size_t i = back ? k - 1 - j : j;
		const h2emv_node *c;
		if (ridx_passes_child(x->ix, n, i))
			continue; /* a goal the index does not name: not even fetched */
		int rc = ridx_child(&c, x->ix, x->snap, n, i, err);
		if (rc == H2EMV_ENOTFOUND)
			continue;
		if (rc || (rc = walk(x, c, depth + 1, err)))
			return rc;
	}
	return H2EMV_OK;
}

/* One goal the index names (ridx_each_goal). */
static int walk_goal(void *ctx, const h2emv_node *g, h2emv_error *err)
{
	return walk(ctx, g, 1, err);
}

static int walk(rctx *x, const h2emv_node *n, int depth, h2emv_error *err)
{
	if (depth > MAX_DEPTH)
		return H2EMV_OK;
	/* the index names the goals the question can be about: read only those */
	if (depth == 0 && ridx_prepare(x->ix, x->q, x->now))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int kind = h2emv_node_kind(n);
	int64_t t0 = h2emv_node_start(n), t1 = h2emv_node_end(n);
	size_t plen = 0;
	const uint8_t *pay = h2emv_node_payload(n, &plen);
	if (kind != H2EMV_KIND_SCENE && pay && plen && pay[0] == 0x93)
		x->fact_nodes++; /* the tree has typed facts (even out of scope) */
	if (kind != H2EMV_KIND_ROOT && !in_scope(x, t0, t1))
		return H2EMV_OK;
	if (kind != H2EMV_KIND_ROOT && ridx_skips(x->ix, n))
		return H2EMV_OK;
	if (x->tokens >= x->budget && !ridx_active(x->ix)) {
		x->cut = 1;
		return H2EMV_OK;
	}
	x->tokens += NODE_TOKENS;
	if (kind == H2EMV_KIND_FORGOTTEN) {
		/* the salient gist a placeholder keeps (forget.c): coarse facts */
		size_t before = x->n;
		if (pay && plen && pay[0] == 0x93 && take_gist(x, n))
			return eng_fail(err, H2EMV_ENOMEM, "out of memory");
		if (!x->forgot && (x->n > before || gist_matches(x, n))) {
			x->forgot = 1;
			x->forgot_ref = h2emv_node_ref(n);
		}
		return H2EMV_OK;
	}
	if (kind == H2EMV_KIND_ROOT) {
		/* the goals the index names, without the summaries above them
		 * (an early stop reads few goals: the tree finds them first; a
		 * skill stack nests goals, read in their parents' facts) */
		int rc = x->early || !x->tasks ? 1 : ridx_each_goal(x->ix, x->snap, walk_goal, x, err);
		return rc == 1 ? walk_kids(x, n, depth, err) : rc;
	}
	if (kind == H2EMV_KIND_GOAL || kind == H2EMV_KIND_EVENT || kind == H2EMV_KIND_SCENE) {
		size_t len = 0;
		h2emv_node_payload(n, &len);
		const uint8_t *p = h2emv_node_payload(n, &len);
		int has_facts = kind == H2EMV_KIND_SCENE || (p && len > 0 && p[0] == 0x93);
		x->fact_nodes += kind == H2EMV_KIND_SCENE;
		if (has_facts)
			return take_facts(x, n, 0) ? eng_fail(err, H2EMV_ENOMEM, "out of memory") : 0;
		/* a tree built before typed facts: read the scenes below */
		return walk_kids(x, n, depth, err);
	}
	/* a summary: open it when its aggregated facts name what is asked (the
	 * index has said so already, unless forgotten children are below: what
	 * the summary says of them is read as before) */
	int ixd = ridx_active(x->ix) && !ridx_forgotten_within(x->ix, t0, t1);
	facts *f = ixd ? NULL : node_facts(x, n);
	if (!ixd && !f)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	/* (summaries keep no notes: evidence reads every goal in scope) */
	int open = ixd || !f->n || f->trimmed || x->q->evidence || any_match(x, f);
	size_t k = h2emv_node_child_count(n);
	int forgotten_kid = 0;
	for (size_t i = 0; i < k && !ixd; i++) {
		const h2emv_node *c;
		int rc = h2emv_node_child(&c, x->snap, n, i, err);
		if (rc == H2EMV_ENOTFOUND)
			continue;
		if (rc)
			return rc;
		if (h2emv_node_kind(c) == H2EMV_KIND_FORGOTTEN) {
			forgotten_kid = 1;
			if (!open && (rc = walk(x, c, depth + 1, err)))
				return rc;
		}
	}
	if (!open)
		return H2EMV_OK;
	/* what a summary says of children now forgotten: coarse evidence */
	size_t before = x->n;
	if (forgotten_kid && f->n && take_facts(x, n, 1))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (x->n > before && !x->forgot) {
		x->forgot = 1;
		x->forgot_ref = h2emv_node_ref(n);
	}
	return walk_kids(x, n, depth, err);
}

/* Walk the tree again for another question (the candidates so far are
 * dropped; the fact sets they point into are kept). */
static int collect(rctx *x, const rquestion *q)
{
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	int early = x->early;
	x->early = 0; /* side walks read their whole scope */
	int rc = x->root ? walk(x, x->root, 0, x->err) : H2EMV_OK;
	x->early = early;
	x->settled = 0;
	return rc;
}

/* Where the robot was at time t: the latest place or journey before it. */
static const char *whereabouts_ref(rctx *x, const rquestion *q, int64_t t, h2emv_ref *ref);

static const char *whereabouts(rctx *x, const rquestion *q, int64_t t)
{
	return whereabouts_ref(x, q, t, NULL);
}

static const char *whereabouts_ref(rctx *x, const rquestion *q, int64_t t, h2emv_ref *ref)
{
	rquestion w = *q;
	w.kind = RQ_WHEREABOUTS;
	w.n_term = 0;
	w.verb = w.person = -1;
	w.status = RS_ANY;
	w.t0 = t - 3 * 3600LL * 1000000;
	w.t1 = t + 1;
	if (collect(x, &w))
		return NULL;
	const fact *best = NULL;
	for (size_t i = 0; i < x->n; i++) {
		const fact *f = x->c[i].f;
		int64_t when = f->t1 <= t ? f->t1 : f->t0;
		if (when > t)
			continue;
		if (!best || when >= (best->t1 <= t ? best->t1 : best->t0)) {
			best = f;
			if (ref)
				*ref = x->c[i].ref;
		}
	}
	x->q = q;
	if (!best)
		return NULL;
	return best->type == FT_PLACE ? best->s[FS_PLACE]
	       : best->s[FS_DST]      ? best->s[FS_DST]
	                              : best->s[FS_OBJ];
}

/* ------------------------------------------------------------ answering -- */

static char *fmt_dt(char *buf, size_t cap, int64_t t)
{
	return emv_fmt_datetime(buf, cap, t);
}

static const char *weekday_name(int64_t t)
{
	static const char *const d[] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
		                             "Friday", "Saturday" };
	time_t s = (time_t)(t / 1000000);
	struct tm tm;
	gmtime_r(&s, &tm);
	return d[tm.tm_wday];
}

static void add_display(pr_str *b, const char *id)
{
	char d[200];
	if (lex_display(d, sizeof d, id, strlen(id)))
		pr_str_adds(b, d);
	else
		pr_str_adds(b, id);
}

/* "Which tote did you bring?" — "The tote" says nothing: when the short
 * form of a name is only a word the question used, the name is shown whole
 * ("tote 5"). */
static void add_display_for(pr_str *b, const rquestion *q, const char *id)
{
	char d[200];
	if (!lex_display(d, sizeof d, id, strlen(id))) {
		pr_str_adds(b, id);
		return;
	}
	int asked = !strchr(d, ' ');
	if (asked) {
		lex_word w[1];
		asked = lex_split(d, strlen(d), w, 1) == 1;
		int named = 0;
		for (size_t i = 0; asked && i < q->n_term && !named; i++)
			named = !strcmp(q->term[i].stem, w[0].stem);
		asked = named;
	}
	if (!asked || !strcmp(d, id)) {
		pr_str_adds(b, d);
		return;
	}
	for (const char *p = id; *p; p++) {
		char ch = *p == '_' ? ' ' : *p;
		pr_str_add(b, &ch, 1);
	}
}

static int cmp_time_asc(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->f->t0 != y->f->t0)
		return (x->f->t0 > y->f->t0) - (x->f->t0 < y->f->t0);
	return x->coarse - y->coarse; /* at the same time, the finer first */
}

/* The candidates worth answering from: the best score (fine evidence
 * before coarse), and all within 75% of it; sorted by time. Returns how
 * many, moved to the front. */
static size_t shortlist(rctx *x, int mix)
{
	double best = 0;
	int fine = 0, most = 0;
	for (size_t i = 0; i < x->n; i++)
		fine |= !x->c[i].coarse;
	/* lists take a summary's gist only when nothing finer is left (its
	 * counts include its live children's); one answer may come from it */
	int only_fine = fine && !mix;
	for (size_t i = 0; i < x->n; i++)
		if ((!only_fine || !x->c[i].coarse) && x->c[i].hits > most)
			most = x->c[i].hits;
	for (size_t i = 0; i < x->n; i++)
		if ((!only_fine || !x->c[i].coarse) && x->c[i].hits == most && x->c[i].score > best)
			best = x->c[i].score;
	size_t k = 0;
	for (size_t i = 0; i < x->n; i++)
		if ((!only_fine || !x->c[i].coarse) && x->c[i].hits == most &&
		    x->c[i].score >= best * 0.85) {
			cand t = x->c[k];
			x->c[k++] = x->c[i];
			x->c[i] = t;
		}
	if (k)
		qsort(x->c, k, sizeof *x->c, cmp_time_asc);
	return k;
}

/* The one candidate the order asks for among the first k. */
static const cand *pick(rctx *x, size_t k)
{
	if (!k)
		return NULL;
	if (x->q->order == RO_FIRST) {
		/* the first in the scope: a summary's merged fact whose first
		 * occurrence lies before the scope ("the first time on Saturday",
		 * and it began on Friday) is no first time there */
		for (size_t i = 0; x->q->t1 && i < k; i++)
			if (x->c[i].f->t0 >= x->q->t0)
				return &x->c[i];
		return &x->c[0];
	}
	if (x->q->order == RO_NTH) {
		/* the n-th occurrence: the n-th goal that holds one (a goal is one
		 * run of a skill, or one interaction) */
		/* count starts: the runs seen starting when there are any, each
		 * start once */
		int starts = 0;
		for (size_t i = 0; i < k; i++)
			starts |= x->c[i].f->status == FST_ONGOING;
		size_t seen = 0;
		int64_t last = 0;
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			if (starts && f->status != FST_ONGOING && f->status != FST_NONE)
				continue;
			if (seen && f->t0 - last < 60 * 1000000LL)
				continue; /* nested skills of one run start together */
			last = f->t0;
			seen += f->count >= 2 && f->t1 - f->t0 >= 60 * 1000000LL ? 2 : 1;
			if (seen >= (size_t)x->q->nth) {
				x->nth_second = f->count >= 2 && seen == (size_t)x->q->nth;
				return &x->c[i];
			}
			if (f->count >= 2)
				last = f->t1;
		}
		return NULL;
	}
	const cand *b = &x->c[0];
	for (size_t i = 1; i < k; i++)
		if (x->c[i].f->t1 > b->f->t1 ||
		    (x->c[i].f->t1 == b->f->t1 && (b->coarse || !x->c[i].coarse) &&
		     !(x->c[i].f->type == FT_TASK && b->f->type != FT_TASK)))
			b = &x->c[i];
	return b;
}

/* The best candidate for the question `a` asked in place of `q` (an
 * anchor moment, a stand-in question): candidates collected for `a`, the
 * context's question set back to `q`; *out NULL when none. */
static int pick_for(const cand **out, rctx *x, const rquestion *a, const rquestion *q)
{
	*out = NULL;
	int rc = collect(x, a);
	x->q = q;
	if (rc)
		return rc;
	size_t k = shortlist(x, 1);
	rctx tmp = *x;
	tmp.q = a;
	*out = pick(&tmp, k);
	return H2EMV_OK;
}

/* The time of the occurrence the order asks for. */
static int64_t when_of(const rctx *x, const fact *f)
{
	if (x->q->order == RO_NTH)
		return x->nth_second ? f->t1 : f->t0;
	return x->q->order == RO_FIRST ? f->t0 : f->t1;
}

static int add_evidence(h2emv_answer *a, h2emv_ref r)
{
	for (size_t i = 0; i < a->n_evidence; i++)
		if (a->evidence[i].id == r.id)
			return 0;
	h2emv_ref *e = realloc(a->evidence, (a->n_evidence + 1) * sizeof *e);
	if (!e)
		return -1;
	a->evidence = e;
	a->evidence[a->n_evidence++] = r;
	return 0;
}

static void say_where(pr_str *b, const rctx *x, const fact *f)
{
	const char *w = NULL;
	if (is_act(f)) {
		if (x->q->kind == RQ_FROM)
			w = f->s[FS_SRC] ? f->s[FS_SRC] : f->s[FS_PLACE];
		else
			w = f->s[FS_DST] ? f->s[FS_DST] : f->s[FS_PLACE];
		if (!w && f->cls == LC_GO)
			w = f->s[FS_OBJ];
		if (!w)
			w = f->s[FS_SRC];
	} else {
		w = f->s[FS_PLACE];
	}
	if (!w)
		return;
	pr_str_adds(b, x->q->kind == RQ_FROM ? "From the " : "At the ");
	add_display(b, w);
	if (f->s[FS_WHO] && is_act(f) && x->q->kind != RQ_FROM) {
		pr_str_adds(b, ", to ");
		pr_str_adds(b, f->s[FS_WHO]);
	}
	char dt[40];
	pr_str_adds(b, " (");
	pr_str_adds(b, fmt_dt(dt, sizeof dt, when_of(x, f)));
	pr_str_adds(b, ").");
}

static void list_add(pr_str *b, size_t *n, const char *s)
{
	if (*n)
		pr_str_adds(b, ", ");
	pr_str_adds(b, s);
	(*n)++;
}

/* Names already listed: NUL-separated. */
static int listed(const pr_str *seen, const char *s)
{
	for (const char *p = seen->s; p && p < seen->s + seen->len; p += strlen(p) + 1)
		if (!strcasecmp(p, s))
			return 1;
	return 0;
}

static void remember(pr_str *seen, const char *s)
{
	pr_str_add(seen, s, strlen(s) + 1);
}

/* The things the robot said it saw ("I can see an apple tea, a nesquik,
 * and a  milk"), each once, without their articles: "apple tea, nesquik,
 * milk". */
static void seen_items(pr_str *b, pr_str *seen, size_t *n, const fact *f)
{
	char said[400];
	if (!seen_said(f->s[FS_TEXT], said, sizeof said))
		return;
	for (char *p = said; p && *p && *n < LIST_MAX;) {
		char *e = strchr(p, ',');
		if (e)
			*e = 0;
		while (*p == ' ')
			p++;
		static const char *const skip[] = { "and ", "a ", "an ", "the ", "some ", NULL };
		for (int again = 1; again;) {
			again = 0;
			for (const char *const *w = skip; *w; w++)
				if (!strncasecmp(p, *w, strlen(*w))) {
					p += strlen(*w);
					again = 1;
				}
		}
		char *and = strstr(p, " and "); /* "a cup and a plate" */
		if (and && !e) {
			*and = 0;
			e = and + 4;
		}
		size_t len = strlen(p);
		while (len && p[len - 1] == ' ')
			p[--len] = 0;
		if (len && !listed(seen, p)) {
			remember(seen, p);
			list_add(b, n, p);
		}
		p = e ? e + 1 : NULL;
	}
}

/* Is `full` a longer name that begins with the words of `part` ("Tom
 * Becker" for "Tom")? */
static int longer_name(const char *full, const char *part)
{
	size_t n = strlen(part);
	return strlen(full) > n && !strncasecmp(full, part, n) && full[n] == ' ';
}

/* A speaker or person name that names nobody in particular. */
static int generic_name(const char *who)
{
	static const char *const g[] = { "user", "human", "unknown", "someone", "person",
		                         "speaker", "somebody", NULL };
	for (const char *const *p = g; *p; p++)
		if (!strcasecmp(who, *p))
			return 1;
	return 0;
}

/* The best evidence: the highest score, by the order asked among equals. */
static const cand *best_evidence(const rctx *x)
{
	const cand *c = NULL;
	for (size_t i = 0; i < x->n; i++) {
		const cand *d = &x->c[i];
		if (!c || d->score > c->score + 1e-9)
			c = d;
		else if (d->score > c->score - 1e-9 &&
		         (x->q->order == RO_FIRST ? d->f->t0 < c->f->t0 : d->f->t1 > c->f->t1))
			c = d;
	}
	return c;
}

/* Who did what `verb` names in a note: the words of its clause before the
 * verb ("The courier dropped two parcels ...; Mia Lund signed for them":
 * dropped, the courier; signed, Mia Lund). 0 when the clause opens with
 * the verb ("Reset the breaker") or its subject is long (not a name). */
static int clause_subject(const char *text, const rq_term *verb, char *out, size_t cap)
{
	size_t start = 0, i = 0, words = 0;
	while (text[i]) {
		unsigned char c = (unsigned char)text[i];
		if (c == ';' || c == '.' || c == ':' || c == ',' || c == '(' || c == ')') {
			i++;
			while (text[i] == ' ')
				i++;
			start = i, words = 0;
			continue;
		}
		if (!((c | 32) >= 'a' && (c | 32) <= 'z')) {
			i++;
			continue;
		}
		size_t a = i;
		char low[LEX_WORD_MAX], stem[LEX_WORD_MAX];
		size_t n = 0;
		while (((text[i] | 32) >= 'a' && (text[i] | 32) <= 'z') || text[i] == '-') {
			if (n + 1 < sizeof low)
				low[n++] = (char)(text[i] | 32);
			i++;
		}
		low[n] = 0;
		lex_stem(low, n, stem);
		if (!strcmp(stem, verb->stem) || !strcmp(low, verb->word)) {
			size_t e = a;
			while (e > start && text[e - 1] == ' ')
				e--;
			if (e == start || words > 4 || e - start >= cap)
				return 0;
			memcpy(out, text + start, e - start);
			out[e - start] = 0;
			out[0] = (char)((out[0] >= 'a' && out[0] <= 'z') ? out[0] - 32 : out[0]);
			return 1;
		}
		/* a subject holds no verb ("Ana Pohl left without signing
		 * out": not who signed) */
		int cls = LC_NONE;
		if (lex_lemma(stem, &cls) && cls != LC_NONE && a > start)
			words = 99;
		/* "and", "then", "but" open a clause of their own */
		if (!strcmp(low, "and") || !strcmp(low, "then") || !strcmp(low, "but") ||
		    !strcmp(low, "while") || !strcmp(low, "after") || !strcmp(low, "before") ||
		    !strcmp(low, "when") || !strcmp(low, "because")) {
			while (text[i] == ' ')
				i++;
			start = i, words = 0;
			continue;
		}
		words++;
	}
	return 0;
}

/* The robot's answer to utterance f: the robot's next words, within two
 * minutes, in the fact set that holds f. */
static const fact *reply_of(const rctx *x, const fact *f)
{
	const int64_t SPAN = 120 * 1000000LL;
	for (size_t i = 0; i < x->n_sets; i++) {
		const facts *set = x->sets[i];
		if (!set || f < set->v || f >= set->v + set->n)
			continue;
		const fact *best = NULL;
		for (size_t j = 0; j < set->n; j++) {
			const fact *g = &set->v[j];
			if (g->type != FT_SPEECH || !g->s[FS_TEXT] || g->t0 < f->t0 ||
			    g->t0 - f->t0 > SPAN || g == f || !is_me(x->q, set, g->s[FS_NAME]))
				continue;
			if (!best || g->t0 < best->t0)
				best = g;
		}
		return best;
	}
	return NULL;
}

/* Quote a note or an utterance, with its time: "On Tuesday 2026/03/10 at
 * 14:02 I noted: "..."". */
static void quote(pr_str *b, const fact *f, int64_t t)
{
	char dt[40];
	if (f->type == FT_NOTE)
		pr_str_addf(b, "On %s %s I noted: \"%s\"", weekday_name(t), fmt_dt(dt, sizeof dt, t),
		            f->s[FS_TEXT]);
	else
		pr_str_addf(b, "On %s %s %s said: \"%s\"", weekday_name(t), fmt_dt(dt, sizeof dt, t),
		            f->s[FS_NAME] ? f->s[FS_NAME] : "someone", f->s[FS_TEXT]);
}

/* The number right before the unit symbol `sym` in `text` ("38 m3",
 * "4mm"), into *v. */
static int amount_before(const char *text, const char *sym, double *v)
{
	size_t n = strlen(sym);
	for (const char *p = text; (p = strstr(p, sym)) != NULL; p++) {
		char a = p[n];
		if ((a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9'))
			continue;
		const char *e = p;
		if (e > text && e[-1] == ' ')
			e--;
		const char *b = e;
		while (b > text && ((b[-1] >= '0' && b[-1] <= '9') || b[-1] == '.'))
			b--;
		if (b == e || (b > text && ((b[-1] | 32) >= 'a' && (b[-1] | 32) <= 'z')))
			continue;
		char num[32];
		snprintf(num, sizeof num, "%.*s", (int)(e - b), b);
		char *end;
		*v = strtod(num, &end);
		if (*end == 0 && *v >= 0)
			return 1;
	}
	return 0;
}

/* Is "NUM WORD" written in `text` as such ("12 atlases"), the number on
 * its own (not the end of "bin_C7_2" or "H3")? */
static int num_then_word(const char *text, const char *num, const char *word)
{
	size_t n = strlen(num), m = strlen(word);
	for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
		char b = p > text ? p[-1] : ' ';
		if ((b >= '0' && b <= '9') || ((b | 32) >= 'a' && (b | 32) <= 'z') || b == '_' ||
		    b == '.' || b == '-')
			continue;
		if (p[n] == ' ' && !strncasecmp(p + n + 1, word, m))
			return 1;
	}
	return 0;
}

static int note_amount(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	if (q->category < 0 || f->type == FT_SPEECH)
		return 0;
	const rq_term *u = &q->term[q->category];
	const char *sym = u->unit[0] ? u->unit : NULL;
	static const int slots[] = { FS_TEXT, FS_OBJ, FS_NAME, FS_STATE };
	for (size_t s = 0; sym && s < sizeof slots / sizeof *slots; s++)
		if (f->s[slots[s]] && amount_before(f->s[slots[s]], sym, v)) {
			snprintf(key, cap, "%s", sym);
			return 1;
		}
	for (size_t s = 0; s < sizeof slots / sizeof *slots; s++) {
		const char *text = f->s[slots[s]];
		if (!text)
			continue;
		lex_word w[32];
		size_t n = lex_split(text, strlen(text), w, 32);
		if (n > 32)
			n = 32;
		for (size_t i = 0; i + 1 < n; i++) {
			char *end;
			if (!w[i].digit || strcmp(w[i + 1].stem, u->stem) ||
			    !num_then_word(text, w[i].w, w[i + 1].w))
				continue;
			*v = strtod(w[i].w, &end);
			if (*end || *v < 0)
				continue;
			snprintf(key, cap, "%s", u->word);
			return 1;
		}
	}
	return 0;
}

/* No typed fact answered the question as read: answer it from the note or
 * the words that hold its words, quoted, in the form the kind asks for. */
static void answer_evidence(rctx *x, pr_str *b, h2emv_answer *a)
{
	const rquestion *q = x->q;
	const cand *c = best_evidence(x);
	if (!c) {
		pr_str_adds(b, NOT_FOUND);
		return;
	}
	const fact *f = c->f;
	int64_t t = q->order == RO_FIRST ? f->t0 : f->t1;
	char dt[40], amount[2 * LEX_WORD_MAX + 2];
	a->quoted = 1;
	add_evidence(a, c->ref);
	/* "where did you send Luis for his passport": Luis's words found it;
	 * what the robot answered him is the answer */
	const fact *reply = q->you && f->type == FT_SPEECH && !c->me ? reply_of(x, f) : NULL;
	if (reply) {
		quote(b, f, t);
		pr_str_addf(b, " I answered: \"%s\"", reply->s[FS_TEXT]);
		return;
	}
	if (x->want_trace)
		pr_str_addf(&x->trace, "no typed fact answers it: the best-matching record (score %.1f)\n",
		            c->score);
	switch (q->kind) {
	case RQ_WHEN:
		pr_str_addf(b, "At %s, a %s. ", fmt_dt(dt, sizeof dt, t), weekday_name(t));
		break;
	case RQ_DAY:
		pr_str_addf(b, "On %s (%s). ", emv_fmt_date(dt, sizeof dt, t), weekday_name(t));
		break;
	case RQ_WHO: {
		/* (the robot's own words tell of someone, never of itself) */
		const char *who = f->type == FT_NOTE ? f->s[FS_WHO] : c->me ? NULL : f->s[FS_NAME];
		char subject[96];
		if (f->type == FT_NOTE && q->agent_term >= 0 &&
		    clause_subject(f->s[FS_TEXT], &q->term[q->agent_term], subject, sizeof subject))
			who = strcmp(subject, "I") && strcasecmp(subject, "we") ? subject : "I did";
		if (who)
			pr_str_addf(b, "%s. ", who);
		break;
	}
	case RQ_COUNT: {
		double v;
		char key[32];
		/* "how many cubic metres": "38 m3" in a note */
		if (note_amount(q, f, &v, key, sizeof key))
			pr_str_addf(b, "%.10g %s. ", v, key);
		else if (counted_amount(f->s[FS_TEXT], q, amount, sizeof amount))
			pr_str_addf(b, "%s. ", amount);
		break;
	}
	default:
		break;
	}
	quote(b, f, t);
}

/* What a which-question's category names in an action: its object, or
 * the parameter the category word matched ("which vegetables did you
 * load": LoadVan {produce: carrots} is the produce carrots, not the van). */
static const char *matched_thing(const rquestion *q, const fact *f, char *part, size_t cap)
{
	if (q->category < 0 || word_in(f->s[FS_OBJ], &q->term[q->category]))
		return f->s[FS_OBJ];
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, cap);)
		if (word_in(part, &q->term[q->category]))
			return part;
	/* "which columns did you measure": measureCrack(L1, column C7) went
	 * to the column; "which levels did you walk": walkRoute(L3), the
	 * level's short form (its first letter and a number) */
	static const int slots[] = { FS_DST, FS_SRC, FS_PLACE, FS_OBJ };
	for (size_t i = 0; i < sizeof slots / sizeof *slots; i++)
		if (slots[i] != FS_OBJ && word_in(f->s[slots[i]], &q->term[q->category]))
			return f->s[slots[i]];
	const rq_term *c = &q->term[q->category];
	for (size_t i = 0; i < sizeof slots / sizeof *slots; i++) {
		const char *v = f->s[slots[i]];
		if (v && (v[0] | 32) == c->word[0] && v[1] >= '0' && v[1] <= '9' &&
		    strspn(v + 1, "0123456789") == strlen(v + 1))
			return v;
	}
	return f->s[FS_OBJ];
}

/* "Which floor is Sapiens on", "which flight did the bag come in on": the
 * parameter the question's noun names, of the chosen action. */
static int key_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
{
	const rquestion *q = x->q;
	if (q->key < 0 || q->plural || (q->kind != RQ_WHICH && q->kind != RQ_WHERE) ||
	    !is_act(c->f))
		return 0;
	char part[160], dt[40];
	const rq_term *t = &q->term[q->key];
	/* an object or a place that is named by the noun answers as it is */
	static const int slots[] = { FS_OBJ, FS_DST, FS_SRC, FS_PLACE };
	for (size_t i = 0; i < sizeof slots / sizeof *slots; i++) {
		const char *v = c->f->s[slots[i]];
		lex_word w[2];
		if (v && lex_split(v, strlen(v), w, 2) >= 1 && key_names(&w[0], t))
			return 0; /* today's answer says it */
	}
	if (!named_part(c->f->s[FS_STATE], t, part, sizeof part, NULL))
		return 0;
	(void)k;
	pr_str_addf(b, "The %s (%s).", part, fmt_dt(dt, sizeof dt, when_of(x, c->f)));
	add_evidence(a, c->ref);
	return 1;
}

/* "How many people did you meet on Friday": the people, each once (a
 * person met ten times is one person), named. */
static int people_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	if (!x->q->people)
		return 0;
	pr_str seen = { 0 }, names = { 0 };
	size_t n = 0;
	/* the people seen present (a person fact with its place); a speaker
	 * never seen present may be the robot itself, counted only when no
	 * one was seen */
	int present = 0;
	for (size_t i = 0; i < k && !present; i++)
		present = x->c[i].f->type == FT_PERSON && x->c[i].f->s[FS_PLACE];
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		const char *who = f->type == FT_PERSON ? f->s[FS_NAME]
		                  : is_act(f)          ? f->s[FS_WHO] : NULL;
		if (!who || x->c[i].me || listed(&seen, who) ||
		    (present && f->type == FT_PERSON && !f->s[FS_PLACE]))
			continue;
		remember(&seen, who);
		if (n < LIST_MAX)
			pr_str_addf(&names, "%s%s", n ? ", " : "", who);
		n++;
		add_evidence(a, x->c[i].ref);
	}
	if (n)
		pr_str_addf(b, "%s%zu %s: %s%s.%s", x->forgot || x->cut ? "At least " : "", n,
		            n == 1 ? "person" : "people", names.s ? names.s : "",
		            n > LIST_MAX ? ", ..." : "", x->forgot ? " Older ones are forgotten." : "");
	pr_str_free(&seen);
	pr_str_free(&names);
	return n > 0;
}

/* "How many books did you collect", "how much did the bags weigh": the
 * sum of the number the question's noun names among the matching actions'
 * parameters ("books 31", "books 9": 40), over the runs that finished (the
 * others when none did). */
/* A note's amount of what "how many litres / kg" names: the number right
 * before the word ("Delivery of 800 litres of hypochlorite": 800), in the
 * note or the action read from it. */

static int sum_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const rquestion *q = x->q;
	char key[160], first[160] = "";
	double total = 0, v;
	size_t n = 0;
	int any_done = 0, said_before = 0;
	for (size_t i = 0; i < k; i++)
		any_done |= is_act(x->c[i].f) && x->c[i].f->status == FST_DONE &&
		            amount_of(q, x->c[i].f, &v, key, sizeof key);
	pr_str parts = { 0 };
	for (size_t i = 0; i < k && n < 64; i++) {
		const fact *f = x->c[i].f;
		int param = is_act(f) && !(any_done && f->status != FST_DONE) &&
		            amount_of(q, f, &v, key, sizeof key);
		if (!param && !note_amount(q, f, &v, key, sizeof key))
			continue;
		said_before |= !param; /* "12 atlases": the number before its word */
		if (!n)
			snprintf(first, sizeof first, "%s", key);
		else if (strcmp(first, key))
			continue; /* one quantity: the first one the question names */
		for (uint32_t r = 0; r < f->count && r < 1000; r++)
			pr_str_addf(&parts, "%s%.10g", n++ ? " + " : "", v);
		total += v * f->count;
		add_evidence(a, x->c[i].ref);
	}
	if (!n) {
		pr_str_free(&parts);
		return 0;
	}
	const char *tail = x->forgot ? " Older ones are forgotten."
	                   : x->cut  ? " I stopped reading at my token budget." : "";
	if (n == 1 && said_before) /* "12 atlases" */
		pr_str_addf(b, "%s%.10g %s.%s", x->forgot || x->cut ? "At least " : "", total, first,
		            tail);
	else
		pr_str_addf(b, "%s%.10g in all (%s: %s).%s", x->forgot || x->cut ? "At least " : "",
		            total, first, parts.s ? parts.s : "", tail);
	pr_str_free(&parts);
	return 1;
}

/* Where the run a finished fact `f` ends began: a run whose end was
 * recorded apart from its start (a "running" fact, then a "succeeded" one
 * at the end) began at the running fact among the first n candidates —
 * its first report when that was the same run, its last when the facts
 * merged several runs (two introductions in an afternoon). */
static int64_t run_start(const rctx *x, const fact *f, size_t n)
{
	const int64_t MIN = 60 * 1000000LL;
	int64_t start = f->t1;
	for (size_t i = 0; f->t2 - start < 1000000 && i < n; i++) {
		const fact *g = x->c[i].f;
		if (g != f && g->status == FST_ONGOING && g->s[FS_NAME] && f->s[FS_NAME] &&
		    !strcmp(g->s[FS_NAME], f->s[FS_NAME]) && g->t2 <= f->t1 && f->t1 - g->t2 < 30 * MIN)
			start = f->t1 - g->t0 < 4 * 60 * MIN && f->count <= 1 ? g->t0 : g->t1;
	}
	if (f->t2 - start < 1000000 && f->count <= 1 && f->t0 < f->t1)
		start = f->t0;
	return start;
}

/* "How many aisles did you scan on Wednesday", "how many rows did you
 * finish": the things the question counts, each once (aisle 7 scanned
 * twice is one aisle), when every run counted names one. 0 otherwise. */
static int distinct_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const rquestion *q = x->q;
	if (q->category < 0 || q->people)
		return 0;
	const rq_term *c = &q->term[q->category];
	int any_done = 0;
	for (size_t i = 0; i < k; i++)
		any_done |= is_act(x->c[i].f) && x->c[i].f->status == FST_DONE;
	pr_str seen = { 0 }, names = { 0 };
	size_t n = 0, runs = 0, named = 0;
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		if (!is_act(f) || x->c[i].coarse || (any_done && f->status != FST_DONE) ||
		    (q->status == RS_FAILED) != (f->status == FST_FAILED || f->status == FST_ABORTED))
			continue;
		runs++;
		char part[160];
		const char *v = matched_thing(q, f, part, sizeof part);
		int abbr = v && (v[0] | 32) == c->word[0] && v[1] >= '0' && v[1] <= '9';
		lex_word vw[3];
		size_t vk = v ? lex_split(v, strlen(v), vw, 3) : 0;
		if (!v || (!word_in(v, c) && !abbr) || vk < (abbr ? 1u : 2u) ||
		    !strpbrk(v, "0123456789"))
			continue; /* "order" alone, or "room service", tells none from another */
		named++;
		if (listed(&seen, v))
			continue;
		remember(&seen, v);
		if (n < LIST_MAX)
			pr_str_addf(&names, "%s%s", n ? ", " : "", v);
		n++;
		add_evidence(a, x->c[i].ref);
	}
	int ok = n && named == runs;
	if (ok)
		pr_str_addf(b, "%s%zu %s: %s%s.%s", x->forgot || x->cut ? "At least " : "", n,
		            n == 1 ? c->stem : c->word, names.s ? names.s : "",
		            n > LIST_MAX ? ", ..." : "", x->forgot ? " Older ones are forgotten." : "");
	pr_str_free(&seen);
	pr_str_free(&names);
	return ok;
}

/* "What went wrong yesterday", "did you have any problems on Friday":
 * the failed runs in order, a cluster of failures within a minute
 * told by its last (the step that failed and the task it aborted are one
 * trouble: the task says it), with the reason when one was written.
 * Returns how many were listed; 0 when none failed. */
static size_t failures_list(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const int64_t GAP = 60 * 1000000LL;
	size_t idx[LIST_MAX * 8], n = 0;
	for (size_t i = 0; i < k && n < sizeof idx / sizeof *idx; i++) {
		const fact *f = x->c[i].f;
		if (is_act(f) && (f->status == FST_FAILED || f->status == FST_ABORTED))
			idx[n++] = i;
	}
	/* by time (insertion: a few dozen at most) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && x->c[idx[j]].f->t1 < x->c[idx[j - 1]].f->t1; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	size_t shown = 0, more = 0;
	char dt[40];
	pr_str seen = { 0 };
	for (size_t i = 0; i < n; i++) {
		const fact *f = x->c[idx[i]].f;
		/* a later failure of the same trouble follows within minutes */
		if (i + 1 < n && x->c[idx[i + 1]].f->t1 - f->t1 <= GAP &&
		    x->c[idx[i + 1]].f->t1 >= f->t1)
			continue;
		eng_buf r = { 0 };
		facts_render_one(&r, f);
		if (!r.data) {
			eng_buf_free(&r);
			continue;
		}
		eng_buf_append(&r, "", 1);
		char key[600];
		snprintf(key, sizeof key, "%s %s", (const char *)r.data, fmt_dt(dt, sizeof dt, f->t1));
		if (!listed(&seen, key)) {
			remember(&seen, key);
			if (shown < LIST_MAX) {
				pr_str_addf(b, "%s%s at %s", shown ? "; " : "", (const char *)r.data, dt);
				add_evidence(a, x->c[idx[i]].ref);
				shown++;
			} else {
				more++;
			}
		}
		eng_buf_free(&r);
	}
	if (shown)
		pr_str_addf(b, more ? "; and %zu more." : ".", more);
	pr_str_free(&seen);
	return shown;
}

/* "What did you do last week", "describe what you did each day": a span
 * of several days told day by day, a few things each (its tasks when the
 * span holds more kinds of action than a list shows). 0 when the
 * candidates fall on one day and no day by day was asked. */
static int do_by_day(rctx *x, pr_str *b, h2emv_answer *a, size_t k, int by_task, int acts)
{
	enum { DAYS = 8, PER_DAY = 5 };
	char day[40], last[40] = "";
	size_t nd = 0;
	for (size_t i = 0; i < k; i++) {
		emv_fmt_date(day, sizeof day, x->c[i].f->t0);
		if (strcmp(day, last))
			nd++, snprintf(last, sizeof last, "%s", day);
	}
	if (nd < 2 && !x->q->by_day)
		return 0;
	/* the newest days when there are more than a list shows */
	size_t skip = nd > DAYS ? nd - DAYS : 0, di = 0, n = 0, more = 0;
	pr_str seen = { 0 };
	last[0] = 0;
	if (skip)
		pr_str_addf(b, "(%zu earlier days not listed) ", skip);
	for (size_t i = 0; i < k; i++) {
		const fact *f = x->c[i].f;
		emv_fmt_date(day, sizeof day, f->t0);
		if (strcmp(day, last)) {
			if (di++ >= skip && last[0] && n)
				pr_str_addf(b, "%s; ", more ? " and more" : "");
			snprintf(last, sizeof last, "%s", day);
			n = more = 0;
			pr_str_free(&seen);
			memset(&seen, 0, sizeof seen);
		}
		if (di <= skip)
			continue;
		if (by_task ? f->type != FT_TASK : f->type != FT_ACT && !(f->type == FT_TASK && !acts))
			continue;
		eng_buf r = { 0 };
		facts_render_one(&r, f);
		if (!r.data) {
			eng_buf_free(&r);
			continue;
		}
		eng_buf_append(&r, "", 1);
		const char *t = (const char *)r.data;
		if (!strncmp(t, "the task ", 9))
			t += 9;
		if (!listed(&seen, t)) {
			remember(&seen, t);
			if (n < PER_DAY) {
				if (!n)
					pr_str_addf(b, "On %s (%s): ", day, weekday_name(f->t0));
				pr_str_addf(b, "%s%s", n ? ", " : "", t);
				add_evidence(a, x->c[i].ref);
				n++;
			} else {
				more = 1;
			}
		}
		eng_buf_free(&r);
	}
	if (n)
		pr_str_addf(b, "%s.", more ? " and more" : "");
	pr_str_free(&seen);
	return 1;
}

static void answer_text(rctx *x, pr_str *b, h2emv_answer *a)
{
	const rquestion *q = x->q;
	if (q->evidence) {
		answer_evidence(x, b, a);
		return;
	}
	int single = q->kind == RQ_WHEN || q->kind == RQ_WHERE || q->kind == RQ_FROM ||
	             (q->kind == RQ_WHICH && !q->plural) || q->kind == RQ_SAID ||
	             q->kind == RQ_YESNO || q->kind == RQ_DURATION || (q->kind == RQ_DAY && !q->plural) ||
	             (q->kind == RQ_WHO && !q->plural);
	size_t k = shortlist(x, single);
	char dt[40], dd[40];
	for (size_t i = 0; x->want_trace && i < k && i < 8; i++) {
		eng_buf r = { 0 };
		facts_render_one(&r, x->c[i].f);
		pr_str_addf(&x->trace, "  candidate %s%s: %.*s (score %.1f, %d words)\n",
		            fmt_dt(dt, sizeof dt, x->c[i].f->t0), x->c[i].coarse ? " (summary)" : "",
		            (int)r.len, r.data ? (const char *)r.data : "", x->c[i].score, x->c[i].hits);
		eng_buf_free(&r);
	}
	/* answered from a gist of forgotten children (a summary's facts, a
	 * placeholder's salient ones)? It keeps what happened, with whom,
	 * when and where carried things went; never the words said or what
	 * was seen */
	int gist = k > 0;
	for (size_t i = 0; i < k; i++)
		gist &= x->c[i].coarse != 0;
	if (single && k) {
		const cand *c = pick(x, k);
		gist = c && c->coarse;
	}
	if (gist) {
		const cand *c = pick(x, k);
		if (!c)
			c = &x->c[0];
		/* an answer the gist gives is an answer: forgotten stays 0 */
		if (q->kind == RQ_SAID || q->kind == RQ_SEEN ||
		    (q->kind == RQ_WHERE && !c->f->s[FS_DST] && !c->f->s[FS_PLACE]) ||
		    (q->kind == RQ_FROM && !c->f->s[FS_SRC])) {
			a->forgotten = 1;
			pr_str_addf(b, "I have forgotten that (it was on %s).",
			            emv_fmt_date(dt, sizeof dt, when_of(x, c->f)));
			add_evidence(a, c->ref);
			return;
		}
	}
	/* "where were you at about 11:32": the place at that moment, not the
	 * newest of the hour around it */
	if (q->kind == RQ_WHERE && q->t_point && !content_terms(q) && q->verb < 0 && !gist) {
		h2emv_ref ref = { 0 };
		const char *w = whereabouts_ref(x, q, q->t_point, &ref);
		if (w) {
			pr_str_adds(b, "At the ");
			add_display(b, w);
			pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, q->t_point));
			add_evidence(a, ref);
		} else {
			pr_str_adds(b, NOT_FOUND);
		}
		return;
	}
	if (!k && q->kind == RQ_YESNO && !x->forgot && !x->cut) {
		pr_str_adds(b, "No, I have no memory of that.");
		return;
	}
	if (!k) {
		pr_str_adds(b, x->forgot ? FORGOTTEN : NOT_FOUND);
		a->forgotten = x->forgot;
		if (x->forgot)
			add_evidence(a, x->forgot_ref);
		return;
	}
	const cand *c = pick(x, k);
	if (c && key_answer(x, b, a, c, k))
		return;
	/* "how many workers were on site": a note that says "17 workers"
	 * answers before the people the robot met */
	if (q->kind == RQ_COUNT && (sum_answer(x, b, a, k) || people_answer(x, b, a, k)))
		return;
	switch (q->kind) {
	case RQ_WHEN:
	case RQ_DURATION:
		if (!c)
			break;
		if (q->kind == RQ_DURATION) {
			/* a run whose end was recorded apart from its start (a
			 * "running" fact, then a "succeeded" one at the end): the
			 * run is the running fact's start to the end */
			int64_t start = run_start(x, c->f, x->n);
			int64_t d = (c->f->t2 - start) / 1000000;
			pr_str_addf(b, "About %lld minutes and %lld seconds (%s).", (long long)(d / 60),
			            (long long)(d % 60), fmt_dt(dt, sizeof dt, c->f->t1));
		} else {
			/* a run recorded as running, then finished: its start, and its
			 * end when it lasted over a minute */
			int64_t t = when_of(x, c->f), end = c->f->t2 > c->f->t1 ? c->f->t2 : 0;
			if (q->order == RO_LAST && c->f->status == FST_DONE && c->f->t2 <= c->f->t1) {
				int64_t s0 = run_start(x, c->f, x->n);
				if (s0 < t && t - s0 > 60000000 && t - s0 < 4 * 3600LL * 1000000)
					end = t, t = s0;
			}
			pr_str_addf(b, "At %s", fmt_dt(dt, sizeof dt, t));
			if (q->order != RO_FIRST && end > t + 60000000)
				pr_str_addf(b, " (until %s)", fmt_dt(dd, sizeof dd, end) + 12);
			pr_str_addf(b, ", a %s.", weekday_name(t));
		}
		add_evidence(a, c->ref);
		break;
	case RQ_DAY: {
		if (!q->plural && c) {
			pr_str_addf(b, "On %s (%s).", emv_fmt_date(dt, sizeof dt, when_of(x, c->f)),
			            weekday_name(when_of(x, c->f)));
			add_evidence(a, c->ref);
			break;
		}
		pr_str seen = { 0 };
		size_t n = 0;
		pr_str_adds(b, "On ");
		for (size_t i = 0; i < k && n < LIST_MAX; i++) {
			int64_t ts[2] = { x->c[i].f->t0, x->c[i].f->t1 };
			for (int j = 0; j < 2; j++) {
				emv_fmt_date(dt, sizeof dt, ts[j]);
				if (listed(&seen, dt))
					continue;
				remember(&seen, dt);
				list_add(b, &n, dt);
				add_evidence(a, x->c[i].ref);
			}
		}
		pr_str_adds(b, ".");
		pr_str_free(&seen);
		break;
	}
	case RQ_WHERE:
	case RQ_FROM: {
		/* the newest (or first) candidate that names a place; one that
		 * says where the thing went beats one that says where it was */
		const cand *best = NULL;
		int best_rank = 0;
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			int rank = !is_act(f) ? (f->s[FS_PLACE] ? 1 : 0)
			           : q->kind == RQ_FROM ? (f->s[FS_SRC] ? 3 : f->s[FS_PLACE] ? 1 : 0)
			           : f->s[FS_DST] || (f->cls == LC_GO && f->s[FS_OBJ]) ? 3
			           : f->s[FS_PLACE] ? 2 : f->s[FS_SRC] ? 1 : 0;
			if (!rank)
				continue;
			if (!best || rank > best_rank ||
			    (rank == best_rank &&
			     (q->order == RO_FIRST ? f->t0 < best->f->t0 : f->t1 >= best->f->t1))) {
				best = &x->c[i];
				best_rank = rank;
			}
		}
		if (best) {
			say_where(b, x, best->f);
			add_evidence(a, best->ref);
		} else if (c) {
			/* the action names no place: where the robot had gone to */
			int64_t t = when_of(x, c->f);
			h2emv_ref ref = c->ref;
			const char *w = whereabouts(x, q, t);
			if (w) {
				pr_str_adds(b, "At the ");
				add_display(b, w);
				pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, t));
				add_evidence(a, ref);
			}
		}
		break;
	}
	case RQ_WHO: {
		if (q->agent && c && is_act(c->f)) {
			/* the robot's own deed */
			eng_buf r = { 0 };
			facts_render_one(&r, c->f);
			pr_str_addf(b, "I did (%.*s, %s).", (int)r.len,
			            r.data ? (const char *)r.data : "", fmt_dt(dt, sizeof dt, c->f->t1));
			eng_buf_free(&r);
			add_evidence(a, c->ref);
			break;
		}
		pr_str seen = { 0 };
		size_t n = 0;
		/* each person once, by the fullest name given ("Tom" and "Tom
		 * Becker" are one) */
		const char *names[LIST_MAX];
		char keep[LIST_MAX][96];
		size_t nn = 0;
		for (size_t i = 0; i < k && q->plural; i++) {
			const fact *f = x->c[i].f;
			const char *who = f->type == FT_PERSON || f->type == FT_SPEECH ? f->s[FS_NAME]
			                                                              : f->s[FS_WHO];
			if ((!who || x->c[i].me) && f->type != FT_PERSON &&
			    addressee(f->s[FS_TEXT], keep[nn < LIST_MAX ? nn : 0], sizeof *keep))
				who = keep[nn < LIST_MAX ? nn : 0];
			if (who && nn < LIST_MAX)
				names[nn++] = who;
		}
		for (size_t i = 0; i < k; i++) {
			const cand *ci = q->plural ? &x->c[i] : c;
			const fact *f = ci->f;
			const char *who = f->type == FT_PERSON ? f->s[FS_NAME]
			                  : f->type == FT_SPEECH ? f->s[FS_NAME] : f->s[FS_WHO];
			/* the robot's own words that greet someone by name */
			char named[96];
			int me = who && (profile_is_self(x->prof, who) || ci->me);
			if ((!who || me) && f->type != FT_PERSON &&
			    addressee(f->s[FS_TEXT], named, sizeof named))
				who = named, me = 0;
			/* "who visited Rosa": not Rosa */
			if (who && !me && q->person >= 0 && word_in(who, &q->term[q->person]))
				me = 1;
			for (size_t j = 0; who && !me && j < nn; j++)
				me = longer_name(names[j], who);
			/* "user", "human": nobody in particular, beside the named */
			for (size_t j = 0; who && !me && q->plural && generic_name(who) && j < nn; j++)
				me = !generic_name(names[j]); /* someone named is there too */
			if (!who || me || listed(&seen, who))
				continue;
			remember(&seen, who);
			if (n < LIST_MAX)
				list_add(b, &n, who);
			add_evidence(a, ci->ref);
			if (!q->plural)
				break;
		}
		if (n)
			pr_str_adds(b, ".");
		pr_str_free(&seen);
		break;
	}
	case RQ_SAID: {
		if (!c)
			break;
		/* within a day or part of one, what was said there (up to three
		 * utterances, in order); else the one the order picks */
		size_t first = 0, n = 1;
		/* and with no order asked, all that match as well (up to three):
		 * "what did Marta say about order 5541" may be two things */
		if (((q->t1 && q->order == RO_LAST) || !q->order_said) && k > 1 && !q->self_speaker) {
			n = k < 3 ? k : 3;
			first = k - n;
		} else {
			first = (size_t)(c - x->c);
		}
		for (size_t i = first; i < first + n; i++) {
			const fact *f = x->c[i].f;
			int again = 0; /* the same words said again: once */
			for (size_t j = first; j < i && !again; j++)
				again = x->c[j].f->s[FS_TEXT] && f->s[FS_TEXT] &&
				        !strcmp(x->c[j].f->s[FS_TEXT], f->s[FS_TEXT]);
			if (again)
				continue;
			if (i > first)
				pr_str_adds(b, " ");
			if (f->type == FT_SPEECH && f->s[FS_NAME] && !profile_is_self(x->prof, f->s[FS_NAME]) &&
			    !x->c[i].me)
				pr_str_addf(b, "%s said: \"%s\"", f->s[FS_NAME], f->s[FS_TEXT]);
			else if (f->type == FT_SPEECH && !f->s[FS_NAME])
				pr_str_addf(b, "I heard: \"%s\"", f->s[FS_TEXT]);
			else
				pr_str_addf(b, "I said: \"%s\"", f->s[FS_TEXT]);
			pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, n > 1 ? f->t1 : when_of(x, f)));
			add_evidence(a, x->c[i].ref);
		}
		break;
	}
	case RQ_SEEN: {
		pr_str seen = { 0 };
		size_t n = 0;
		pr_str_adds(b, "I saw ");
		for (size_t i = k; i-- > 0 && n < LIST_MAX;) {
			const fact *f = x->c[i].f;
			if (f->type == FT_SPEECH) {
				seen_items(b, &seen, &n, f);
				add_evidence(a, x->c[i].ref);
				continue;
			}
			char d[200];
			lex_display(d, sizeof d, f->s[FS_NAME], strlen(f->s[FS_NAME]));
			if (!*d || listed(&seen, d))
				continue;
			remember(&seen, d);
			list_add(b, &n, d);
			add_evidence(a, x->c[i].ref);
		}
		pr_str_adds(b, ".");
		pr_str_free(&seen);
		break;
	}
	case RQ_WHICH:
		if (!c)
			break;
		if (q->plural) {
			/* every object the matching actions handled, once each */
			pr_str seen = { 0 };
			size_t n = 0;
			double top = 0;
			for (size_t i = 0; i < x->n; i++)
				if (!x->c[i].coarse && x->c[i].score > top)
					top = x->c[i].score;
			/* the runs seen going on count as well as the ones seen ending */
			for (size_t i = 0; i < x->n && n < LIST_MAX; i++) {
				const fact *f = x->c[i].f;
				if (x->c[i].coarse || x->c[i].score < top * 0.6 || !is_act(f) ||
				    !f->s[FS_OBJ] || listed(&seen, f->s[FS_OBJ]) ||
				    f->status == FST_FAILED || f->status == FST_ABORTED)
					continue;
				char part[160];
				const char *thing = matched_thing(q, f, part, sizeof part);
				if (listed(&seen, thing))
					continue;
				remember(&seen, thing);
				pr_str_adds(b, n++ ? "; the " : "The ");
				add_display_for(b, q, thing);
				pr_str_addf(b, " (%s)", fmt_dt(dt, sizeof dt, when_of(x, f)));
				add_evidence(a, x->c[i].ref);
			}
			pr_str_free(&seen);
			if (n) {
				pr_str_adds(b, ".");
				break;
			}
		}
		/* the object is the answer: an action that names one, by order */
		if (!(is_act(c->f) && c->f->s[FS_OBJ]) && c->f->type != FT_SEEN) {
			/* (an action of the same verb: "what did you hand over" is
			 * not answered by the dishwasher a loading handled) */
			const cand *o = NULL;
			const char *verb = c->f->s[FS_VERB];
			for (size_t i = 0; i < k; i++)
				if (x->c[i].f->type == FT_ACT && x->c[i].f->s[FS_OBJ] &&
				    (!verb || !x->c[i].f->s[FS_VERB] ||
				     !strcmp(verb, x->c[i].f->s[FS_VERB])) &&
				    (!o || (q->order == RO_FIRST ? x->c[i].f->t0 < o->f->t0
				                                 : x->c[i].f->t1 >= o->f->t1)))
					o = &x->c[i];
			if (o)
				c = o;
		}
		if (is_act(c->f) && c->f->s[FS_OBJ]) {
			pr_str_adds(b, "The ");
			add_display_for(b, q, c->f->s[FS_OBJ]);
		} else if (c->f->type == FT_SEEN) {
			pr_str_adds(b, "The ");
			add_display(b, c->f->s[FS_NAME]);
		} else {
			eng_buf r = { 0 };
			facts_render_one(&r, c->f);
			pr_str_add(b, (const char *)r.data, r.len);
			eng_buf_free(&r);
		}
		pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, when_of(x, c->f)));
		add_evidence(a, c->ref);
		break;
	case RQ_COUNT: {
		/* "how many litres went into the tug": one occurrence whose own
		 * words count the thing asked ("... 1200 litres of diesel") */
		if (k == 1 && is_act(x->c[0].f) && x->c[0].f->s[FS_STATE]) {
			char amount[2 * LEX_WORD_MAX + 2];
			if (counted_amount(x->c[0].f->s[FS_STATE], q, amount, sizeof amount)) {
				pr_str_addf(b, "%s (", amount);
				eng_buf r = { 0 };
				facts_render_one(&r, x->c[0].f);
				pr_str_add(b, (const char *)r.data, r.len);
				eng_buf_free(&r);
				pr_str_addf(b, ", %s).", fmt_dt(dt, sizeof dt, x->c[0].f->t0));
				add_evidence(a, x->c[0].ref);
				break;
			}
		}
		if (distinct_answer(x, b, a, k))
			break;
		/* occurrences: final outcomes when there are any, else starts */
		uint64_t done = 0, failed = 0, other = 0;
		int64_t last_at[6] = { 0 };
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			/* nested skills of one run (NavigateToNamedLocation and its
			 * NavigateToLocation) start together: one occurrence */
			if (f->count == 1 && last_at[f->status % 6] &&
			    f->t0 - last_at[f->status % 6] < 5 * 1000000LL)
				continue;
			last_at[f->status % 6] = f->t0;
			if (f->status == FST_DONE)
				done += f->count;
			else if (f->status == FST_FAILED || f->status == FST_ABORTED)
				failed += f->count;
			else
				other += f->count;
			add_evidence(a, x->c[i].ref);
		}
		/* "how many times did you X": the times it was done; failed
		 * attempts are said apart */
		uint64_t total = q->status == RS_FAILED ? failed
		                 : done                  ? done
		                 : q->status == RS_DONE  ? (failed ? 0 : other)
		                 : failed                ? failed
		                                         : other;
		/* runs seen starting but never seen ending still happened — but a
		 * long run that reported "running" more than once is one run: a
		 * running fact whose reports all end shortly before an end of the
		 * same action is that run's, not another */
		uint64_t explained = 0;
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			if (f->status != FST_ONGOING || f->count < 2 || !f->s[FS_NAME])
				continue;
			for (size_t j = 0; j < k; j++) {
				const fact *g = x->c[j].f;
				if (g->status == FST_DONE && g->s[FS_NAME] && !strcmp(g->s[FS_NAME], f->s[FS_NAME]) &&
				    g->count == 1 && f->t0 <= g->t1 && g->t1 >= f->t2 &&
				    g->t1 - f->t0 < 4 * 3600 * 1000000LL) {
					explained += f->count - 1;
					break;
				}
			}
		}
		if (q->status == RS_ANY && done && other > failed + explained &&
		    other - failed - explained > done)
			total = other - failed - explained;
		/* a count over a scope partly forgotten, or read only up to the
		 * token budget, is a lower bound, and says so */
		int partial = x->forgot || x->cut;
		pr_str_addf(b, "%s%llu time%s", partial ? "At least " : "", (unsigned long long)total,
		            total == 1 ? "" : "s");
		if (q->status != RS_FAILED && failed && done)
			pr_str_addf(b, " (and %llu failed attempt%s)", (unsigned long long)failed,
			            failed == 1 ? "" : "s");
		else if (q->status != RS_FAILED && failed && !done && total == failed)
			pr_str_adds(b, ", all of them failed");
		size_t n = 0;
		for (size_t i = 0; i < k && n < LIST_MAX; i++) {
			const fact *f = x->c[i].f;
			if (q->status != RS_FAILED && done && f->status != FST_DONE)
				continue;
			if (q->status == RS_FAILED && f->status != FST_FAILED && f->status != FST_ABORTED)
				continue;
			if (q->status != RS_FAILED && !done && failed && f->status != FST_FAILED &&
			    f->status != FST_ABORTED)
				continue;
			pr_str_adds(b, n++ ? ", " : ": at ");
			pr_str_adds(b, fmt_dt(dt, sizeof dt, f->t0));
		}
		pr_str_adds(b, ".");
		if (x->forgot)
			pr_str_adds(b, " Older ones are forgotten.");
		else if (x->cut)
			pr_str_adds(b, " I stopped reading at my token budget.");
		break;
	}
	case RQ_YESNO: {
		/* "did anything go wrong on Friday": yes, and what */
		if (q->status == RS_FAILED && q->t1 && !q->order_said) {
			pr_str_adds(b, "Yes: ");
			size_t at = b->len;
			if (failures_list(x, b, a, k))
				break;
			b->len = at - 5;
			if (b->s)
				b->s[b->len] = 0;
		}
		/* yes needs an occurrence that did not fail, unless the question
		 * asks about a failure */
		const cand *hit = NULL, *tried = NULL;
		int any_done = 0, any_failed = 0;
		/* "did the first run of X succeed": that run, whatever came after */
		if (q->order_said && q->order == RO_FIRST && q->status != RS_FAILED) {
			const cand *first = NULL;
			for (size_t i = 0; i < k; i++) {
				const fact *f = x->c[i].f;
				if (is_act(f) && f->status != FST_ONGOING && f->status != FST_NONE &&
				    (!first || f->t0 < first->f->t0))
					first = &x->c[i];
			}
			if (first && (first->f->status == FST_FAILED ||
			              first->f->status == FST_ABORTED)) {
				eng_buf r = { 0 };
				facts_render_one(&r, first->f);
				pr_str_adds(b, "No: the first time (");
				pr_str_add(b, (const char *)r.data, r.len);
				pr_str_addf(b, " at %s) it did not succeed.",
				            fmt_dt(dt, sizeof dt, first->f->t1));
				eng_buf_free(&r);
				add_evidence(a, first->ref);
				break;
			}
		}
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			any_done |= !is_act(f) || f->status == FST_DONE || f->status == FST_NONE;
			any_failed |= is_act(f) &&
			              (f->status == FST_FAILED || f->status == FST_ABORTED);
		}
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			int bad = is_act(f) && (f->status == FST_FAILED || f->status == FST_ABORTED);
			if (q->status == RS_DONE && !is_act(f))
				continue; /* "did you finish row 22": not what was seen there */
			if (q->status == RS_FAILED ? !bad && is_act(f) : bad) {
				if (!tried || f->t1 >= tried->f->t1)
					tried = &x->c[i];
				continue;
			}
			/* a run seen starting counts unless runs were seen failing and
			 * none succeeding */
			if (is_act(f) && f->status == FST_ONGOING &&
			    (q->status == RS_DONE || (any_failed && !any_done)))
				continue;
			if (!hit || f->t1 > hit->f->t1 ||
			    (f->t1 == hit->f->t1 && !(f->type == FT_TASK && hit->f->type != FT_TASK)))
				hit = &x->c[i];
		}
		eng_buf r = { 0 };
		if (!hit) {
			if (tried && q->status != RS_FAILED) {
				facts_render_one(&r, tried->f);
				pr_str_adds(b, "No: I tried (");
				pr_str_add(b, (const char *)r.data, r.len);
				pr_str_addf(b, " at %s) but it did not succeed.",
				            fmt_dt(dt, sizeof dt, tried->f->t1));
				add_evidence(a, tried->ref);
			} else {
				pr_str_adds(b, "No.");
			}
			eng_buf_free(&r);
			break;
		}
		facts_render_one(&r, hit->f);
		pr_str_adds(b, "Yes: ");
		pr_str_add(b, (const char *)r.data, r.len);
		eng_buf_free(&r);
		pr_str_addf(b, " at %s.", fmt_dt(dt, sizeof dt, hit->f->t1));
		add_evidence(a, hit->ref);
		break;
	}
	case RQ_STEPS: {
		/* the actions of the span in order; the first or the last alone */
		size_t n = 0;
		int64_t t_first = 0;
		for (size_t i = 0; i < k && n < LIST_MAX; i++) {
			size_t at = q->step < 0 ? k - 1 - i : i;
			const fact *f = x->c[at].f;
			if (f->status == FST_FAILED || f->status == FST_ABORTED)
				continue;
			eng_buf r = { 0 };
			facts_render_one(&r, f);
			if (!n)
				t_first = q->step < 0 ? f->t1 : f->t0;
			pr_str_adds(b, n++ ? "; " : "");
			pr_str_add(b, (const char *)r.data, r.len);
			eng_buf_free(&r);
			add_evidence(a, x->c[at].ref);
			if (q->step)
				break;
		}
		if (n)
			pr_str_addf(b, " (%s).", fmt_dt(dt, sizeof dt, t_first));
		break;
	}
	case RQ_FAILED:
	case RQ_DO:
	default: {
		if (q->kind == RQ_FAILED && failures_list(x, b, a, k))
			break;
		pr_str seen = { 0 }, skills = { 0 };
		size_t n = 0;
		/* tasks are listed only when no action is, or when the span holds
		 * more kinds of action than a list shows: a day of a skill-stack
		 * robot is its tasks (bring the milk, load the dishwasher), not its
		 * first ten motions */
		int acts = 0, tasks = 0;
		pr_str kinds = { 0 };
		size_t n_kinds = 0;
		for (size_t i = 0; i < k; i++) {
			const fact *f = x->c[i].f;
			acts |= f->type == FT_ACT;
			tasks |= f->type == FT_TASK;
			if (f->type == FT_ACT && f->s[FS_NAME] && !listed(&kinds, f->s[FS_NAME])) {
				remember(&kinds, f->s[FS_NAME]);
				n_kinds++;
			}
		}
		pr_str_free(&kinds);
		int by_task = q->kind == RQ_DO && tasks && n_kinds > LIST_MAX;
		if (q->kind == RQ_DO && !q->t_point && do_by_day(x, b, a, k, by_task, acts)) {
			pr_str_free(&seen);
			pr_str_free(&skills);
			break;
		}
		for (size_t i = 0; i < k && n < LIST_MAX; i++) {
			const fact *f = x->c[i].f;
			if (q->kind == RQ_DO &&
			    (by_task ? f->type != FT_TASK
			             : f->type != FT_ACT && !(f->type == FT_TASK && !acts)))
				continue;
			/* one line per skill: its first occurrence in the span */
			if (q->kind == RQ_DO && f->s[FS_NAME]) {
				if (listed(&skills, f->s[FS_NAME]))
					continue;
				remember(&skills, f->s[FS_NAME]);
			}
			eng_buf r = { 0 };
			facts_render_one(&r, f);
			if (!r.data) {
				eng_buf_free(&r);
				continue;
			}
			eng_buf_append(&r, "", 1);
			if (!listed(&seen, (const char *)r.data)) {
				remember(&seen, (const char *)r.data);
				pr_str_adds(b, n++ ? "; " : "");
				pr_str_addf(b, "%s at %s", (const char *)r.data, fmt_dt(dt, sizeof dt, f->t0));
				add_evidence(a, x->c[i].ref);
			}
			eng_buf_free(&r);
		}
		if (n)
			pr_str_adds(b, ".");
		pr_str_free(&seen);
		pr_str_free(&skills);
		break;
	}
	}
	if (!b->len) {
		pr_str_adds(b, x->forgot ? FORGOTTEN : NOT_FOUND);
		a->forgotten = x->forgot;
	} else if (gist) {
		pr_str_adds(b, " (From my summaries; I no longer remember the details.)");
	}
}

/* "What did you see when you scanned room 7": find the scan, then ask
 * what was seen during it (q's scope becomes the scan's span). */
static int seen_during(rctx *x, rquestion *q)
{
	if (q->kind != RQ_SEEN)
		return H2EMV_OK;
	int anchor = -1;
	for (size_t i = 0; i < q->n_term && anchor < 0; i++)
		if (q->term[i].lemma && !q->term[i].cap && q->term[i].cls != LC_SEE)
			anchor = (int)i;
	if (anchor < 0)
		return H2EMV_OK;
	rquestion a = *q;
	a.kind = RQ_WHEN;
	a.verb = anchor;
	const cand *c;
	int rc = pick_for(&c, x, &a, q);
	if (rc)
		return rc;
	if (!c)
		return H2EMV_OK;
	rctx tmp = *x; /* times as the stand-in question reads them */
	tmp.q = &a;
	int64_t t0 = when_of(&tmp, c->f), t1 = c->f->t2 > t0 ? c->f->t2 : t0;
	/* the run the order picks saw nothing (a glance at an empty wall): the
	 * one before it (or after, for "the first time") that did */
	enum { TRY = 24 };
	int64_t w0[TRY], w1[TRY];
	size_t nw = 0;
	/* every run that matched as many words as the best, by time */
	int most = 0;
	for (size_t j = 0; j < x->n; j++)
		if (x->c[j].hits > most)
			most = x->c[j].hits;
	size_t m = 0;
	for (size_t j = 0; j < x->n; j++)
		if (x->c[j].hits == most && !x->c[j].coarse) {
			cand t = x->c[m];
			x->c[m++] = x->c[j];
			x->c[j] = t;
		}
	qsort(x->c, m, sizeof *x->c, cmp_time_asc);
	for (size_t j = 0; j < m && nw < TRY; j++) {
		const cand *cj = &x->c[a.order == RO_FIRST ? j : m - 1 - j];
		int again = 0; /* the same run, read from two nodes */
		for (size_t i = 0; i < nw; i++)
			again |= w0[i] == when_of(&tmp, cj->f);
		if (again)
			continue;
		w0[nw] = when_of(&tmp, cj->f);
		w1[nw] = cj->f->t2 > w0[nw] ? cj->f->t2 : w0[nw];
		nw++;
		/* a fact that merged several runs: all of them */
		if (cj->f->count > 1 && nw < TRY && cj->f->t0 < w0[nw - 1]) {
			w0[nw] = cj->f->t0;
			w1[nw] = w1[nw - 1];
			nw++;
		}
	}
	rquestion look = *q;
	look.n_term = 0;
	look.verb = look.person = -1;
	for (size_t j = 0; j < nw && a.order != RO_NTH; j++) {
		look.t0 = w0[j] - 5 * 1000000LL;
		look.t1 = w1[j] + 60 * 1000000LL;
		if ((rc = collect(x, &look)))
			return rc;
		if (x->want_trace) {
			char d0[40], d1[40];
			pr_str_addf(&x->trace, "  seen between %s and %s: %zu\n",
			            emv_fmt_datetime(d0, sizeof d0, look.t0),
			            emv_fmt_datetime(d1, sizeof d1, look.t1), x->n);
		}
		if (x->n) {
			t0 = w0[j], t1 = w1[j];
			break;
		}
	}
	x->q = q;
	if (x->want_trace) {
		char d[40];
		pr_str_addf(&x->trace, "what was seen during the matching action at %s\n",
		            emv_fmt_datetime(d, sizeof d, t0));
	}
	q->t0 = t0 - 5 * 1000000LL;
	q->t1 = t1 + 60 * 1000000LL;
	q->n_term = 0;
	q->verb = q->person = -1;
	x->n = 0;
	return H2EMV_OK;
}

/* "What was the first step of the task X": find the task's occurrence,
 * then read the actions inside its span. */
static int steps_during(rctx *x, rquestion *q)
{
	if (q->kind != RQ_STEPS || !q->n_term)
		return H2EMV_OK;
	rquestion a = *q;
	a.kind = RQ_WHEN;
	int rc = collect(x, &a);
	x->q = q;
	if (rc)
		return rc;
	/* a task that names the words beats an action that does */
	int tasks = 0;
	for (size_t i = 0; i < x->n; i++)
		tasks |= x->c[i].f->type == FT_TASK;
	size_t j = 0;
	for (size_t i = 0; i < x->n; i++)
		if (!tasks || x->c[i].f->type == FT_TASK)
			x->c[j++] = x->c[i];
	x->n = j;
	size_t k = shortlist(x, 1);
	rctx tmp = *x;
	tmp.q = &a;
	const cand *c = pick(&tmp, k);
	if (!c) {
		x->n = 0;
		return H2EMV_OK;
	}
	/* the occurrence: from its start to the next start, or its end */
	int64_t t0 = when_of(&tmp, c->f);
	int64_t t1 = a.order == RO_FIRST && c->f->count > 1 && c->f->t1 > t0 ? c->f->t1 : c->f->t2;
	if (t1 <= t0)
		t1 = t0 + 1;
	q->t0 = t0;
	q->t1 = t1;
	q->n_term = 0;
	q->verb = q->person = -1;
	x->n = 0;
	return H2EMV_OK;
}

/* --------------------------------------------------------------- entry -- */

/* Remove term i from q, keeping the indices of its verb, person and
 * category right. */
static void drop_term(rquestion *q, size_t i)
{
	memmove(&q->term[i], &q->term[i + 1], (q->n_term - i - 1) * sizeof *q->term);
	q->n_term--;
	int *idx[] = { &q->verb, &q->person, &q->category, &q->key };
	for (size_t j = 0; j < sizeof idx / sizeof *idx; j++) {
		if (*idx[j] == (int)i)
			*idx[j] = -1;
		else if (*idx[j] > (int)i)
			(*idx[j])--;
	}
}

/* Could term i be a word the robot's records never use for what is asked
 * ("whose FACE did you learn", "your WHOLE introduction")? Only a word
 * before the main verb, which says what kind of answer is wanted; the
 * words after it are what the verb was done to ("where did you put the
 * giraffe": no giraffe, no answer). Never a name, a number or the noun a
 * number follows ("room 12"), nor the thing a which-question asks for. */
static int droppable(const rquestion *q, size_t i)
{
	const rq_term *t = &q->term[i];
	if (q->verb < 0 || (int)i >= q->verb || (int)i == q->person || (int)i == q->category ||
	    t->cap)
		return 0;
	if ((t->word[0] >= '0' && t->word[0] <= '9') ||
	    (i + 1 < q->n_term && q->term[i + 1].word[0] >= '0' && q->term[i + 1].word[0] <= '9'))
		return 0;
	return 1;
}

/* "What did you do after the photo": find the moment the words after
 * "after" (or "before") name, as a when-question would, then ask the rest
 * within the three hours after (before) it, the earliest (latest) first. */
static int around_moment(rctx *x, rquestion *q)
{
	const int64_t SPAN = 3 * 3600LL * 1000000;
	const int64_t REPLY_SPAN = 5 * 60LL * 1000000;
	rquestion a = *q;
	a.kind = RQ_WHEN;
	a.anchor = -1;
	a.n_term = 0;
	a.verb = a.person = a.category = a.key = -1;
	for (size_t i = (size_t)q->anchor; i < q->n_term; i++) {
		/* "when she asked where ...": the asking is the words themselves */
		if (q->anchor_reply && q->term[i].cls == LC_SAY)
			continue;
		a.term[a.n_term] = q->term[i];
		if (a.verb < 0 && q->term[i].lemma && !q->term[i].cap)
			a.verb = (int)a.n_term;
		if (a.person < 0 && q->term[i].cap && !q->term[i].lemma)
			a.person = (int)a.n_term;
		a.n_term++;
	}
	if (q->anchor_request) {
		/* the words someone asked the robot with */
		a.kind = RQ_SAID;
		a.self_speaker = 0;
		a.others_speak = 1;
		a.status = RS_ANY;
	}
	if (q->anchor_reply) {
		/* words someone else said; "what did you tell Lena when she
		 * asked": Lena said them */
		a.kind = RQ_SAID;
		a.self_speaker = 0;
		a.others_speak = 1;
		a.order = RO_LAST;
		if (a.person < 0 && q->person >= 0 && q->person < q->anchor &&
		    a.n_term < RQ_TERMS) {
			a.term[a.n_term] = q->term[q->person];
			a.person = (int)a.n_term++;
		}
	}
	if (!a.n_term)
		return H2EMV_OK;
	const cand *c;
	int rc = pick_for(&c, x, &a, q);
	if (rc)
		return rc;
	size_t had = x->n;
	x->n = 0;
	if (!c)
		return H2EMV_OK; /* no such moment: the question as it was */
	int64_t t = q->anchor_after ? (c->f->t2 > c->f->t1 ? c->f->t2 : c->f->t1) : c->f->t1;
	if (q->anchor_during) {
		/* the run's span (a fact that merged runs: its last run) */
		int64_t end = c->f->t2 > c->f->t1 ? c->f->t2 : c->f->t1;
		int64_t start = run_start(x, c->f, had);
		if (x->want_trace) {
			char d[40];
			pr_str_addf(&x->trace, "during the moment at %s\n",
			            emv_fmt_datetime(d, sizeof d, start));
		}
		q->n_term = (size_t)q->anchor;
		if (q->verb >= q->anchor)
			q->verb = -1;
		if (q->person >= q->anchor)
			q->person = -1;
		if (q->category >= q->anchor)
			q->category = -1;
		q->anchor = -1;
		q->anchor_during = 0;
		q->t0 = start;
		q->t1 = end + 1000000;
		q->order = RO_FIRST;
		if (q->kind == RQ_DO && !q->n_term)
			q->kind = RQ_STEPS; /* its steps, in order */
		return H2EMV_OK;
	}
	if (x->want_trace) {
		char d[40];
		pr_str_addf(&x->trace, "%s the moment at %s\n", q->anchor_after ? "after" : "before",
		            emv_fmt_datetime(d, sizeof d, t));
	}
	q->n_term = (size_t)q->anchor;
	if (q->verb >= q->anchor)
		q->verb = -1;
	if (q->person >= q->anchor)
		q->person = -1;
	if (q->category >= q->anchor)
		q->category = -1;
	q->anchor = -1;
	/* a reply comes within minutes; the robot's next words after that
	 * are about something else */
	int64_t span = q->anchor_reply ? REPLY_SPAN : SPAN;
	q->t0 = q->anchor_after ? t + 1 : t - span;
	q->t1 = q->anchor_after ? t + span : t;
	q->anchor_reply = 0;
	q->anchor_request = 0;
	q->order = q->anchor_after ? RO_FIRST : RO_LAST;
	return H2EMV_OK;
}

/* "What did you see on Thursday", and last Thursday holds nothing: the
 * Thursday before that, back up to eight weeks. */
static int earlier_weekday(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	const int64_t WEEK = 7 * 86400LL * 1000000;
	rquestion orig = *q;
	for (int i = 1; i <= 8 && root; i++) {
		q->t0 = orig.t0 - i * WEEK;
		q->t1 = orig.t1 - i * WEEK;
		if (q->t_point)
			q->t_point = orig.t_point - i * WEEK;
		x->q = q;
		x->n = 0;
		x->cut = 0;
		x->settled = 0;
		int rc = seen_during(x, q);
		if (rc == H2EMV_OK)
			rc = walk(x, root, 0, err);
		if (rc)
			return rc;
		if (x->n || x->forgot) {
			if (x->want_trace)
				pr_str_addf(&x->trace, "nothing that day; %d week(s) earlier\n", i);
			return H2EMV_OK;
		}
	}
	*q = orig;
	x->q = q;
	return H2EMV_OK;
}

/* Nothing matched every word asked for: try again without one word that
 * the memory may simply never have written down, the last such word first,
 * and keep the first reading that finds something. Not for "did you" and
 * "how many": there "no" and "none" are answers, and a looser match would
 * turn them into a wrong yes. */
static int relax(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
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
		if ((!q->n_term || (q->verb < 0 && !content_terms(q))) && !trouble)
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

/* "What went wrong while you were making coffee": no task of the robot's
 * is called so, but someone asked for it ("can you make coffee?"); what
 * failed is what failed in the hours after the request. */
static int failed_after_request(rctx *x, rquestion *q, const h2emv_node *root, h2emv_error *err)
{
	if (q->kind != RQ_FAILED || !content_terms(q) || q->anchor >= 0 || !root)
		return H2EMV_OK;
	rquestion orig = *q;
	q->anchor = 0;
	q->anchor_after = 1;
	q->anchor_request = 1;
	int rc = around_moment(x, q);
	if (rc || q->n_term) { /* no such request: the question as it was */
		*q = orig;
		x->q = q;
		return rc;
	}
	if (orig.t1 && q->t1 > orig.t1)
		q->t1 = orig.t1;
	q->order = orig.order;
	x->q = q;
	x->n = 0;
	x->cut = 0;
	x->settled = 0;
	rc = walk(x, root, 0, err);
	if (rc == H2EMV_OK && !x->n) {
		*q = orig;
		x->q = q;
	}
	return rc;
}

/* Did a typed fact match every word asked? */
static int typed_complete(const rctx *x)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->c[i].complete && !x->c[i].coarse)
			return 1;
	return 0;
}

/* When no typed fact answered, or none matched every word asked, read the
 * notes and the words said for the question's words: a note or an
 * utterance that holds them all ("Belt 3 jammed at 14:10") answers
 * instead of a fact that shares only a noun with the question. */
static int weigh_evidence(rctx *x, rquestion *q)
{
	/* (a "why" is told in a note or in words, not by the action itself) */
	if (x->n && typed_complete(x) && !q->why)
		return H2EMV_OK;
	size_t n = x->n;
	cand *kept = NULL;
	if (n && !(kept = malloc(n * sizeof *kept)))
		return eng_fail(x->err, H2EMV_ENOMEM, "out of memory");
	if (n)
		memcpy(kept, x->c, n * sizeof *kept);
	rquestion ev = *q;
	ev.evidence = 1;
	int rc = collect(x, &ev);
	x->q = q;
	/* over a typed fact, only the robot's own record: its note or its own
	 * words (someone else's words about an event are not the event) */
	int own = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < x->n && !own; i++)
		own = x->c[i].complete && !x->c[i].coarse &&
		      (x->c[i].f->type == FT_NOTE || x->c[i].me);
	int better = rc == H2EMV_OK && x->n && (!n || own);
	if (better) {
		*q = ev;
	} else if (rc == H2EMV_OK) {
		if (n > x->cap) { /* (collect found fewer: the array holds n) */
			free(kept);
			return eng_fail(x->err, H2EMV_ECORRUPT, "recall: candidates lost");
		}
		if (n)
			memcpy(x->c, kept, n * sizeof *kept);
		x->n = n;
	}
	free(kept);
	return rc;
}

static void trace_question(rctx *x)
{
	static const char *const kinds[] = { "what did you do", "when", "what day", "where",
		                                 "where from", "who", "what was said", "what was seen",
		                                 "which", "how many", "did you", "what failed",
		                                 "how long", "what steps", "whereabouts" };
	const rquestion *q = x->q;
	pr_str_addf(&x->trace, "question: kind %s%s, order %s", kinds[q->kind],
	            q->plural ? " (all of them)" : "",
	            q->order == RO_FIRST ? "first" : q->order == RO_NTH ? "n-th" : "last");
	if (q->t1) {
		char a[40], b[40];
		pr_str_addf(&x->trace, ", between %s and %s", emv_fmt_datetime(a, sizeof a, q->t0),
		            emv_fmt_datetime(b, sizeof b, q->t1));
	}
	pr_str_adds(&x->trace, ", words:");
	for (size_t i = 0; i < q->n_term; i++)
		pr_str_addf(&x->trace, " %s%s%s%s%s", q->term[i].stem,
		            (int)i == q->verb ? "(verb)" : "", (int)i == q->person ? "(name)" : "",
		            (int)i == q->category ? "(kind asked)" : "",
		            (int)i == q->key ? "(key)" : "");
	pr_str_adds(&x->trace, "\n");
}

int recall_answer(h2emv_answer **out, h2emv_mem *mem, h2emv_snap *snap, const char *question,
                  int64_t now, uint64_t max_tokens, int trace, h2emv_error *err)
{
	rquestion q;
	rq_parse(&q, question, now);
	robot_profile *prof = NULL;
	int rc = profile_load(&prof, mem->env, err);
	if (rc)
		return rc;
	q.prof = prof;
	rctx x = { 0 };
	x.q = &q;
	x.snap = snap;
	x.prof = prof;
	x.now = now;
	x.budget = max_tokens ? max_tokens : 20000;
	x.tokens = strlen(question) / 4 + 8;
	x.want_trace = trace;
	h2emv_config cfg;
	if (h2emv_config_get(&cfg, mem, NULL) == H2EMV_OK)
		x.tasks = cfg.profile != H2EMV_PROFILE_SKILL_STACK;
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	if (ridx_open(&x.ix, snap)) {
		profile_free(prof);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	if (trace)
		trace_question(&x);
	const h2emv_node *root = NULL;
	if (info.root.id) {
		rc = h2emv_snap_root(&root, snap, err);
		x.root = root;
		x.err = err;
		x.early = (q.order == RO_LAST || q.order == RO_FIRST) &&
		          (q.kind == RQ_WHEN || q.kind == RQ_WHERE || q.kind == RQ_FROM ||
		           (q.kind == RQ_WHICH && !q.plural) ||
		           (q.kind == RQ_DAY && !q.plural) || (q.kind == RQ_SAID && !q.t1 && q.order_said));

		if (rc == H2EMV_OK)
			rc = seen_during(&x, &q);
		if (rc == H2EMV_OK)
			rc = steps_during(&x, &q);
		if (rc == H2EMV_OK && q.anchor >= 0)
			rc = around_moment(&x, &q);
		if (rc == H2EMV_OK)
			rc = walk(&x, root, 0, err);
		if (rc == H2EMV_OK && !x.n && !x.forgot && q.weekday)
			rc = earlier_weekday(&x, &q, root, err);
		if (rc == H2EMV_OK && !x.n && !x.forgot)
			rc = relax(&x, &q, root, err);
		if (rc == H2EMV_OK && !x.n && !x.forgot)
			rc = failed_after_request(&x, &q, root, err);
		/* "what did the farmer say": when no speaker is called so, the
		 * farmer is someone the robot does not know by that word — anyone
		 * but the robot itself */
		if (rc == H2EMV_OK && !x.n && q.kind == RQ_SAID && q.person >= 0 &&
		    !q.term[q.person].cap && !q.self_speaker) {
			/* people say what they are ("I am the community nurse"):
			 * first the role among the words said, then anyone — only
			 * with a time or other words to narrow it: "what did the
			 * doctor say", with nothing else, is not anything anyone
			 * said */
			rquestion role = q;
			role.person = -1;
			role.others_speak = 1;
			rc = collect(&x, &role);
			x.q = &q; /* (role lives in this block) */
			if (rc == H2EMV_OK && x.n) {
				q = role;
				x.q = &q;
				if (trace)
					pr_str_adds(&x.trace, "no speaker is called so: who said the word\n");
			} else if (rc == H2EMV_OK && (q.t1 || q.n_term > 1)) {
				drop_term(&q, (size_t)q.person);
				q.others_speak = 1;
				if (trace)
					pr_str_adds(&x.trace, "no speaker is called so: anyone but me\n");
				rc = collect(&x, &q);
			}
		}
	}
	if (rc == H2EMV_OK && root && !x.forgot && q.kind != RQ_YESNO && q.n_term &&
	    q.kind != RQ_STEPS)
		rc = weigh_evidence(&x, &q);
	h2emv_answer *a = NULL;
	pr_str b = { 0 };
	if (rc == H2EMV_OK && !x.fact_nodes && !x.n)
		rc = RECALL_NO_FACTS; /* a tree built before typed facts */
	if (rc == H2EMV_OK && !(a = calloc(1, sizeof *a)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc == H2EMV_OK) {
		answer_text(&x, &b, a);
		if (x.tokens > x.budget)
			x.tokens = x.budget;
		a->snapshot = info.seq;
		a->rounds = 1;
		/* the budget covers the answer too: a long list is cut short */
		if (x.tokens > x.budget / 2 && b.len / 4 + 1 > x.budget - x.tokens)
			x.tokens = x.budget / 2;
		uint64_t room = x.budget - x.tokens;
		if (b.s && b.len / 4 + 1 > room && room >= 2) {
			size_t keep = utf8_cut(b.s, (size_t)(room - 1) * 4 - 4);
			b.len = keep;
			b.s[keep] = 0;
			pr_str_adds(&b, " ...");
		}
		a->tokens.prompt = x.tokens;
		a->tokens.completion = b.len / 4 + 1;
		a->tokens.calls = 1;
		if (trace) {
			pr_str_addf(&x.trace, "read %zu matching facts%s; answer \"%s\"\n", x.n,
			            x.cut ? " (stopped at the token budget)" : "", b.s ? b.s : "");
			a->trace = pr_str_take(&x.trace);
		}
		a->text = pr_str_take(&b);
		if (!a->text || b.oom || x.trace.oom || (trace && !a->trace)) {
			h2emv_answer_free(a);
			a = NULL;
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
	}
	pr_str_free(&b);
	pr_str_free(&x.trace);
	for (size_t i = 0; i < x.n_sets; i++) {
		facts_free(x.sets[i]);
		free(x.sets[i]);
	}
	free(x.sets);
	free(x.c);
	ridx_close(x.ix);
	profile_free(prof);
	*out = a;
	return rc;
}
