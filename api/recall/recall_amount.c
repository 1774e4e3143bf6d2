/*
 * recall_amount.c — answers that read more than one fact
 * (recall_internal.h): the evidence for a claim, amounts and sums a note
 * or an action tells, keys and people counted, and what was done day by
 * day (distinct things and failures: recall_lists.c).
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

/* Who did what `verb` names in a note: the words of its clause before the
 * verb ("The courier dropped two parcels ...; Mia Lund signed for them":
 * dropped, the courier; signed, Mia Lund). 0 when the clause opens with
 * the verb ("Reset the breaker") or its subject is long (not a name). */
int clause_subject(const char *text, const rq_term *verb, char *out, size_t cap)
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

int deed_subject(const rquestion *q, const fact *f, char *out, size_t cap)
{
	/* (in a note, or in someone's words: "Ember, Ortega opened the gate") */
	return (f->type == FT_NOTE || (f->type == FT_SPEECH && q->agent)) && q->agent_term >= 0 &&
	       f->s[FS_TEXT] && clause_subject(f->s[FS_TEXT], &q->term[q->agent_term], out, cap);
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
	if (is_act(f)) { /* the closest record: an action */
		eng_buf r;
		pr_str_addf(b, "The closest I remember: on %s %s, ", weekday_name(t),
		            fmt_dt(dt, sizeof dt, t));
		if (render_text(&r, f))
			pr_str_adds(b, (const char *)r.data);
		pr_str_adds(b, ".");
		eng_buf_free(&r);
	} else if (f->type == FT_NOTE)
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
			/* ("Eighty chairs": a number in words) */
			double num;
			size_t m = lex_number(&w[i], n - i, &num);
			if (!m || i + m >= n || strcmp(w[i + m].stem, u->stem) ||
			    (w[i].digit && !num_then_word(text, w[i].w, w[i + 1].w)) || num < 0 ||
			    (!w[i].digit && i && !lex_stop(w[i - 1].stem)))
				continue;
			/* "13 of 14 bags found": the first number is the count */
			double first;
			if (i >= 2 && !strcmp(w[i - 1].w, "of") && lex_number(&w[i - 2], 1, &first) == 1)
				num = first;
			*v = num;
			snprintf(key, cap, "%s", u->word);
			return 1;
		}
	}
	return 0;
}

/* No typed fact answered the question as read: answer it from the note or
 * the words that hold its words, quoted, in the form the kind asks for. */
void answer_evidence(rctx *x, pr_str *b, h2emv_answer *a)
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
	case RQ_YESNO: /* (recall.c's yes_from_record: a record with every word asked) */
		pr_str_adds(b, "Yes. ");
		break;
	case RQ_WHO: {
		/* (the robot's own words tell of someone, never of itself) */
		const char *who = f->type == FT_NOTE ? f->s[FS_WHO] : c->me ? NULL : f->s[FS_NAME];
		char subject[96];
		if (deed_subject(q, f, subject, sizeof subject))
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
		else if (q->category >= 0 && counted_amount(f->s[FS_TEXT], q, amount, sizeof amount))
			pr_str_addf(b, "%s. ", amount); /* (not for "how many times") */
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
const char *matched_thing(const rquestion *q, const fact *f, char *part, size_t cap)
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
int key_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c, size_t k)
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
int people_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
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

int sum_answer(rctx *x, pr_str *b, h2emv_answer *a, size_t k)
{
	const rquestion *q = x->q;
	char key[160], first[160] = "";
	double total = 0, v;
	size_t n = 0;
	int any_done = 0;
	for (size_t i = 0; i < k; i++)
		any_done |= is_act(x->c[i].f) && x->c[i].f->status == FST_DONE &&
		            amount_of(q, x->c[i].f, &v, key, sizeof key);
	pr_str parts = { 0 };
	for (size_t i = 0; i < k && n < 64; i++) {
		const fact *f = x->c[i].f;
		int param = is_act(f) && !(any_done && f->status != FST_DONE) &&
		            amount_of(q, f, &v, key, sizeof key);
		/* (a run's start line, when its end was seen, is not read again
		 * for the amount its parameters write: "track 24 ft" twice) */
		int start_of_done = is_act(f) && any_done && f->status == FST_ONGOING;
		if (!param && (start_of_done || !note_amount(q, f, &v, key, sizeof key)))
			continue;
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
	if (n == 1) /* "12 atlases", "24 kids" */
		pr_str_addf(b, "%s%.10g %s.%s", x->forgot || x->cut ? "At least " : "", total, first,
		            tail);
	else if (*rq_norm_unit(first)) /* "713 kg in all (365 + 348)" */
		pr_str_addf(b, "%s%.10g %s in all (%s).%s", x->forgot || x->cut ? "At least " : "",
		            total, first, parts.s ? parts.s : "", tail);
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
/* Did another run of f's skill end after the running fact g began and
 * before f: then g started that run, not f's. */
static int ended_between(const rctx *x, size_t n, const fact *f, const fact *g)
{
	for (size_t i = 0; i < n; i++) {
		const fact *h = x->c[i].f;
		if (h != f && h != g && h->status != FST_ONGOING && h->status != FST_NONE &&
		    h->s[FS_NAME] && !strcmp(h->s[FS_NAME], f->s[FS_NAME]) && h->t1 > g->t1 &&
		    h->t1 < f->t1)
			return 1;
	}
	return 0;
}

int64_t run_start(const rctx *x, const fact *f, size_t n)
{
	const int64_t MIN = 60 * 1000000LL;
	int64_t start = f->t1;
	for (size_t i = 0; f->t2 - start < 1000000 && i < n; i++) {
		const fact *g = x->c[i].f;
		if (g != f && g->status == FST_ONGOING && g->s[FS_NAME] && f->s[FS_NAME] &&
		    !strcmp(g->s[FS_NAME], f->s[FS_NAME]) && g->t2 <= f->t1 && f->t1 - g->t2 < 4 * 60 * MIN &&
		    !ended_between(x, n, f, g))
			start = f->t1 - g->t0 < 4 * 60 * MIN && f->count <= 1 ? g->t0 : g->t1;
	}
	if (f->t2 - start < 1000000 && f->count <= 1 && f->t0 < f->t1)
		start = f->t0;
	return start;
}
