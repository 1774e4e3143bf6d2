/*
 * recall_amount_key.c — amounts under a parameter's key: which key of a
 * number is an amount ("books 31", "weight 2.5 kg") rather than a name
 * ("room 204"), and the amount of an action a "how many / how much"
 * question asks for (amount_of).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/base/lex.h"
#include "api/tree/facts.h"
#include "api/recall/recall.h"
#include "api/recall/recall_internal.h"

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

/* A key that counts the people of a group ("size", "pax"). */
static int head_count_key(const char *k)
{
	static const char *const keys[] = { "size", "headcount", "pax", "people", "persons",
		                                "guests", "members", "audience", "attendees",
		                                "participants", "turnout", "visitors", NULL };
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
	int counts = 0, heads = 0;
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, sizeof part);) {
		lex_word w[4];
		size_t k = lex_split(part, strlen(part), w, 4);
		if (k == 2 && (!strcmp(w[0].w, "unit") || !strcmp(w[0].w, "uom")))
			snprintf(unit, sizeof unit, "%s", part + strlen(w[0].w) + 1);
		char *end;
		const char *sp = strchr(part, ' ');
		/* "how many kids were in the school group": {group: {size: 24}} */
		int head = q->people && k == 2 && head_count_key(w[0].w);
		if (k >= 2 && (count_key(w[0].w) || head) && sp) {
			double x = strtod(sp + 1, &end);
			if (end != sp + 1 && !*end && x >= 0)
				num = x, counts++, heads += head;
		}
	}
	if (num < 0 || counts != 1)
		return 0;
	if (!heads && (unit[0] ? !word_in(unit, c)
	                       : !(word_in(f->s[FS_NAME], c) || word_in(f->s[FS_OBJ], c))))
		return 0;
	*v = num;
	snprintf(key, cap, "%s", unit[0] ? unit : c->word);
	return 1;
}

/* "How many props did you find": preset.check {found: 17} counts what was
 * found, a key that is the question's verb. */
static int verb_count(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	if (q->verb < 0 || !q->term[q->verb].lemma || !*q->term[q->verb].lemma ||
	    q->category < 0 || !is_act(f) || !f->s[FS_STATE])
		return 0;
	char part[160];
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, sizeof part);) {
		lex_word w[3];
		size_t k = lex_split(part, strlen(part), w, 3);
		const char *sp = strchr(part, ' ');
		const char *lemma = k == 2 && w[1].digit ? lex_lemma(w[0].stem, NULL) : NULL;
		if (!lemma || !sp || strcmp(lemma, q->term[q->verb].lemma))
			continue;
		char *end;
		*v = strtod(sp + 1, &end);
		if (*end || *v < 0)
			continue;
		snprintf(key, cap, "%s", q->term[q->category].word);
		return 1;
	}
	return 0;
}

/* "How much milk did Bella give": the one part of the action's
 * parameters that is an amount in a unit of mass or volume ("yield 9.6
 * l"), whatever its key. */
static int unit_amount(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	static const char *const units[] = { "l", "ml", "kg", "g", "t", "m3", "lb", "lbs", "gal",
		                                 NULL };
	if (!q->much || !is_act(f) || !f->s[FS_STATE])
		return 0;
	char part[160];
	int found = 0;
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, sizeof part);) {
		const char *u = strrchr(part, ' ');
		if (!u || u == part)
			continue;
		const char *n = u;
		while (n > part && n[-1] != ' ')
			n--;
		int unit = 0;
		for (const char *const *s = units; *s && !unit; s++)
			unit = !strcasecmp(u + 1, *s);
		char *end;
		double x = strtod(n, &end);
		if (!unit || end != u || x < 0)
			continue;
		if (found++)
			return 0; /* two amounts: which one is not said */
		*v = x;
		snprintf(key, cap, "%s", u + 1);
	}
	return found == 1;
}

/* "How many kilos of aluminium did you bale": the asked unit beside the
 * one measure of the parameters, written apart ({mass: {value: 365, unit:
 * kg}} is "unit kg, mass 365") or after it ("track 24 ft"). */
static int asked_unit_amount(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	if (q->category < 0 || !is_act(f) || !f->s[FS_STATE])
		return 0;
	const rq_term *c = &q->term[q->category];
	const char *sym = c->unit[0] ? c->unit : rq_norm_unit(c->word);
	if (!*sym)
		return 0;
	char part[160];
	int unit_part = 0, found = 0;
	double num = -1;
	for (const char *p = f->s[FS_STATE]; next_part(&p, part, sizeof part);) {
		lex_word w[4];
		size_t k = lex_split(part, strlen(part), w, 4);
		if (k == 2 && (!strcmp(w[0].w, "unit") || !strcmp(w[0].w, "uom") ||
		               !strcmp(w[0].w, "units"))) {
			unit_part |= !strcmp(rq_norm_unit(w[1].w), sym);
			continue;
		}
		const char *last = strrchr(part, ' ');
		int after = k == 3 && w[1].digit && last && !strcmp(rq_norm_unit(last + 1), sym);
		int bare = k == 2 && amount_key(w[0].w, 1) && !count_key(w[0].w);
		char *end;
		const char *sp = strchr(part, ' ');
		double x = sp ? strtod(sp + 1, &end) : -1;
		if (!sp || end == sp + 1 || x < 0 || (!after && !bare) || (!after && *end))
			continue;
		if (after)
			return (*v = x), snprintf(key, cap, "%s", sym), 1;
		num = x, found++;
	}
	if (!unit_part || found != 1)
		return 0;
	*v = num;
	snprintf(key, cap, "%s", sym);
	return 1;
}

/* The first term of the question that names an amount among f's other
 * parameters ("how many books": "books 31"); its value into *v; else a key that is the question's
 * verb, else the one amount in a unit (verb_count, unit_amount). */
int amount_of(const rquestion *q, const fact *f, double *v, char *key, size_t cap)
{
	if (unit_count(q, f, v, key, cap) || asked_unit_amount(q, f, v, key, cap))
		return 1;
	for (size_t i = 0; i < q->n_term; i++) {
		const rq_term *t = &q->term[i];
		if (t->cap || t->word[0] == 0 || (t->word[0] >= '0' && t->word[0] <= '9'))
			continue;
		if (named_part(f->s[FS_STATE], t, key, cap, v) && *v >= 0) {
			/* "weight 2.5 kg": said in its unit, kg; "books 31": books */
			char *sp = strchr(key, ' '), *last = strrchr(key, ' ');
			char unit[16] = "";
			if (sp && last > sp && strlen(last + 1) < sizeof unit &&
			    (last[1] | 0x20) >= 'a' && (last[1] | 0x20) <= 'z')
				snprintf(unit, sizeof unit, "%s", last + 1);
			if (sp)
				*sp = 0;
			lex_word w[1];
			if (lex_split(key, strlen(key), w, 1) >= 1 && amount_key(w[0].w, *v)) {
				if (unit[0])
					snprintf(key, cap, "%s", unit);
				return 1;
			}
		}
	}
	return verb_count(q, f, v, key, cap) || unit_amount(q, f, v, key, cap);
}
