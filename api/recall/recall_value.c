/*
 * recall_value.c — questions about a measured value: "what was the CO2
 * level in the hab", "how high was the pressure", "what was the sugar
 * reading on row 21". The answer is the number a matching action's
 * parameters give for the thing measured ("co2 3100 ppm"), not the
 * action, nor what was seen there.
 */
#include <stdio.h>
#include <string.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/base/lex.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

/* Formulas and short keys a log writes for what a person names in words. */
static int alias_of(const char *stem, const char *key)
{
	static const char *const pairs[][2] = { { "oxygen", "o2" }, { "carbon", "co2" },
		                                    { "humid", "rh" },  { "temperatur", "temp" },
		                                    { "temperatur", "t" }, { "nitrogen", "n2" } };
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
		if (!strcmp(stem, pairs[i][0]) && !strcmp(key, pairs[i][1]))
			return 1;
	return 0;
}

/* How well a part of an action's parameters ("co2 3100 ppm") answers:
 * 3 its key names a word of the question, 2 its key is a measure word
 * ("reading 4.1°C"), 1 any other number; 0 no number, or the number is
 * the one the question names the thing by ("row R21" for "row 21"). A
 * shorter key ranks higher among equals ("co2 3100 ppm" before "alert
 * CO2 above the 3000 ppm limit"): the rank times 16 less the key's
 * words. */
static int part_rank(const rquestion *q, const char *part)
{
	/* the value: the last token that starts with a number ("20.8" of
	 * "o2 20.8 pct"); the key: the words before it */
	const char *val = NULL;
	for (const char *p = part; *p; p++)
		if ((p == part || p[-1] == ' ') &&
		    ((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')))
			val = p;
	if (!val || val == part)
		return 0;
	size_t vlen = strcspn(val, " ");
	for (size_t t = 0; t < q->n_term; t++)
		if (q->term[t].word[0] >= '0' && q->term[t].word[0] <= '9' &&
		    strlen(q->term[t].word) == vlen && !strncmp(q->term[t].word, val, vlen))
			return 0; /* "bin 12" for "bin 12": the thing's name */
	lex_word w[8];
	size_t d = lex_split(part, (size_t)(val - part), w, 8);
	if (d > 8)
		d = 8;
	char key[64] = ""; /* the key's words run together: "o2" */
	for (size_t i = 0; i < d && strlen(key) + strlen(w[i].w) < sizeof key; i++)
		strcat(key, w[i].w);
	int rank = 1;
	for (size_t i = 0; i < d; i++) {
		if (rq_measure_word(w[i].w) && rank < 2)
			rank = 2;
		for (size_t t = 0; t < q->n_term; t++)
			if (!q->term[t].lemma && !w[i].digit && !strcmp(q->term[t].stem, w[i].stem))
				rank = 3;
	}
	for (size_t t = 0; t < q->n_term; t++)
		if (alias_of(q->term[t].stem, key))
			rank = 3;
	if (d && q->measure[0] && (alias_of(q->measure, key) || !strcmp(q->measure, w[0].stem)))
		rank = 3;
	/* "how much milk was in the tank": the volume, not the temperature */
	static const char *const held[] = { "volume", "weight", "amount", "qty", "quantity",
		                                "total", "load", "content", "contents", NULL };
	for (const char *const *h = held; q->much && d && *h; h++)
		if (!strcmp(w[0].w, *h))
			rank = 3;
	return rank * 16 - (int)(d < 15 ? d : 15);
}

/* The part of c's parameters that answers best, into best; its rank
 * (0 none, or one number of several that nothing names). */
static int best_part(const rquestion *q, const fact *f, char *best, size_t cap)
{
	char part[160];
	int best_rank = 0, numbers = 0;
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, sizeof part);) {
		int r = part_rank(q, part);
		numbers += r > 0;
		if (r > best_rank) {
			best_rank = r;
			snprintf(best, cap, "%s", part);
		}
	}
	return best_rank < 32 && numbers > 1 ? 0 : best_rank;
}

int value_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c)
{
	const rquestion *q = x->q;
	if (!q->value || !c)
		return 0;
	/* among the candidates that matched as many of the question's words
	 * as the one picked, the one whose parameters say the value best
	 * ("sample_brix {brix: 21.9}" before "harvest_row {filled: 7,
	 * weight_kg: 1630}" on the same row); the one picked among equals */
	const cand *at = NULL;
	char best[160] = "", part[160], dt[40];
	int rank = 0;
	for (size_t i = 0; i <= x->n; i++) {
		const cand *d = i < x->n ? &x->c[i] : c;
		if (!is_act(d->f) || !d->f->s[FS_STATE] || d->hits < c->hits)
			continue;
		int r = best_part(q, d->f, part, sizeof part);
		if (r > rank || (r == rank && r && (d == c || (at && at->coarse && !d->coarse)))) {
			rank = r;
			at = d;
			snprintf(best, sizeof best, "%s", part);
		}
	}
	if (!at)
		return 0;
	pr_str_addf(b, "%s (%s).", best, fmt_dt(dt, sizeof dt, when_of(x, at->f)));
	add_evidence(a, at->ref);
	return 1;
}
