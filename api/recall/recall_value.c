/*
 * recall_value.c — questions about a measured value: "what was the CO2
 * level in the hab", "how high was the pressure", "what was the sugar
 * reading on row 21". The answer is the number a matching action's
 * parameters give for the thing measured ("co2 3100 ppm"), not the
 * action, nor what was seen there.
 */
#include <stdio.h>
#include <stdlib.h>
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

/* Does a key word (stemmed) name what "how <adj>" asks: "level" or
 * "pct" for full, "depth" for deep, "weight" or "kg" for heavy? */
static int adj_key(const char *adj, const char *kw)
{
	static const char *const fam[][6] = {
		{ "full", "level", "pct", "fill", "percent", "full" },
		{ "empty", "level", "pct", "fill", "percent", "empti" },
		{ "deep", "depth", "deep", "level", NULL, NULL },
		{ "high", "height", "high", "level", "elev", NULL },
		{ "tall", "height", "tall", "high", NULL, NULL },
		{ "low", "height", "level", "low", NULL, NULL },
		{ "hot", "temp", "temperatur", "c", "degc", "t" },
		{ "cold", "temp", "temperatur", "c", "degc", "t" },
		{ "warm", "temp", "temperatur", "c", "degc", "t" },
		{ "cool", "temp", "temperatur", "c", "degc", "t" },
		{ "heavi", "weight", "kg", "mass", "wt", "lb" },
		{ "fast", "speed", "rpm", "kmh", "mph", "veloc" },
		{ "loud", "db", "nois", "loud", "volum", NULL },
		{ "humid", "rh", "humid", NULL, NULL, NULL },
		{ "strong", "strength", "torqu", "forc", "nm", NULL },
		{ "far", "distanc", "dist", "m", "km", NULL },
		{ "long", "length", "len", "m", "cm", "ft" },
		{ "wide", "width", "wide", "m", "cm", NULL },
		{ "thick", "thick", "mm", "cm", NULL, NULL },
		{ "big", "size", "diamet", "cm", "m", NULL },
	};
	for (size_t i = 0; i < sizeof fam / sizeof *fam; i++) {
		if (strncmp(adj, fam[i][0], strlen(fam[i][0])))
			continue;
		for (int j = 1; j < 6 && fam[i][j]; j++)
			if (!strcmp(kw, fam[i][j]))
				return 1;
	}
	return 0;
}

/* What "how <adj>" and "in <unit>" say of a part's key and unit: 0, 1 or
 * 2 (both). `kw` are the key's words, `val` the value's text. */
static int asked_fit(const rquestion *q, const lex_word *kw, size_t d, const char *val)
{
	int adj = 0, unit = 0;
	for (size_t i = 0; i < d; i++) {
		adj |= q->how_adj[0] && adj_key(q->how_adj, kw[i].stem);
		unit |= q->unit[0] && !strcmp(rq_norm_unit(kw[i].w), q->unit);
	}
	/* the unit after the value: "18 pct", "15 cm" */
	lex_word u[4];
	size_t n = lex_split(val, strlen(val), u, 4);
	if (q->unit[0] && n > 1 && n <= 4 && !strcmp(rq_norm_unit(u[1].w), q->unit))
		unit = 1;
	return adj + unit;
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
				rank = 4;
	}
	for (size_t t = 0; t < q->n_term; t++) {
		if (alias_of(q->term[t].stem, key))
			rank = 4;
		char first[16]; /* "o2_pct": o2 */
		size_t fl = strcspn(part, " _-.");
		if (fl < sizeof first) {
			for (size_t i = 0; i < fl; i++)
				first[i] = (char)((part[i] >= 'A' && part[i] <= 'Z') ? part[i] + 32 : part[i]);
			first[fl] = 0;
			if (alias_of(q->term[t].stem, first))
				rank = 4;
		}
	}
	/* the measure word ("level") names the key less than the thing
	 * measured does ("the oxygen level": o2 before level) */
	if (d && q->measure[0] && rank < 3 &&
	    (alias_of(q->measure, key) || !strcmp(q->measure, w[0].stem)))
		rank = 3;
	/* "how full was the tank, in percent": "level 18 pct" */
	int fit = asked_fit(q, w, d, val);
	if (fit && rank < 2 + fit)
		rank = 2 + fit;
	/* "how much milk was in the tank": the volume, not the temperature */
	static const char *const held[] = { "volume", "weight", "amount", "qty", "quantity",
		                                "total", "load", "content", "contents", NULL };
	for (const char *const *h = held; q->much && d && *h; h++)
		if (!strcmp(w[0].w, *h))
			rank = rank < 3 ? 3 : rank;
	return rank * 16 - (int)(d < 15 ? d : 15);
}

/* The part of c's parameters that answers best, into best; its rank
 * (0 none, or one number of several that nothing names). */
static int best_part(const rquestion *q, const fact *f, char *best, size_t cap)
{
	char part[160];
	int best_rank = 0, numbers = 0;
	/* a thing seen keeps its readings as "o2_pct=20.9": read as "o2_pct 20.9"
	 * (an action's parameters are read as stored) */
	char state[512];
	const char *text = f->s[FS_STATE];
	if (f->type == FT_SEEN) {
		snprintf(state, sizeof state, "%s", text);
		for (char *e = state; *e; e++)
			if (*e == '=')
				*e = ' ';
		text = state;
	}
	for (const char *p = text; next_part(&p, part, sizeof part);) {
		int r = part_rank(q, part);
		numbers += r > 0;
		if (r > best_rank) {
			best_rank = r;
			snprintf(best, cap, "%s", part);
		}
	}
	return best_rank < 32 && numbers > 1 ? 0 : best_rank;
}

/* The number a part says ("3.9" of "temp 3.9 C"); 0 when none. */
static int part_number(const char *part, double *v, const char **unit)
{
	const char *val = NULL;
	for (const char *p = part; *p; p++)
		if ((p == part || p[-1] == ' ') &&
		    ((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')))
			val = p;
	if (!val)
		return 0;
	char *end;
	*v = strtod(val, &end);
	if (end == val)
		return 0;
	*unit = end + strspn(end, " ");
	return 1;
}

/* "What was the highest / lowest / average temperature": every matching
 * reading that says the value asked (the best rank any of them has),
 * not the one picked. */
static int extreme_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c)
{
	const rquestion *q = x->q;
	char part[160], best[160] = "", unit[24] = "", dt[40], dt2[40];
	int rank = 0;
	for (size_t i = 0; i <= x->n; i++) {
		const cand *d = i < x->n ? &x->c[i] : c;
		if (is_act(d->f) && d->f->s[FS_STATE] && d->hits >= c->hits) {
			int r = best_part(q, d->f, part, sizeof part);
			rank = r > rank ? r : rank;
		}
	}
	if (!rank)
		return 0;
	const cand *at = NULL;
	double top = 0, sum = 0;
	size_t n = 0;
	int64_t t_lo = 0, t_hi = 0;
	for (size_t i = 0; i < x->n; i++) {
		const cand *d = &x->c[i];
		double v;
		const char *u;
		if (!is_act(d->f) || !d->f->s[FS_STATE] || d->hits < c->hits ||
		    best_part(q, d->f, part, sizeof part) != rank || !part_number(part, &v, &u))
			continue;
		int64_t t = when_of(x, d->f);
		if (!n || (q->extreme > 0 ? v > top : v < top) || (v == top && t > when_of(x, at->f))) {
			top = v;
			at = d;
			snprintf(best, sizeof best, "%s", part);
			snprintf(unit, sizeof unit, "%s", u);
		}
		t_lo = !n || t < t_lo ? t : t_lo;
		t_hi = !n || t > t_hi ? t : t_hi;
		sum += v;
		n++;
		add_evidence(a, d->ref);
	}
	if (!n)
		return 0;
	if (q->extreme == 2)
		pr_str_addf(b, "On average %.4g%s%s over %zu reading%s, from %s to %s.", sum / (double)n,
		            unit[0] ? " " : "", unit, n, n == 1 ? "" : "s",
		            fmt_dt(dt, sizeof dt, t_lo), fmt_dt(dt2, sizeof dt2, t_hi));
	else {
		/* what it was of ("weight 18 kg, the bin B4"): which one, too */
		pr_str_adds(b, best);
		if (at->f->s[FS_OBJ]) {
			pr_str_adds(b, ", the ");
			add_display(b, at->f->s[FS_OBJ]);
		}
		pr_str_addf(b, " (%s), the %s of %zu reading%s.",
		            fmt_dt(dt, sizeof dt, when_of(x, at->f)),
		            q->extreme > 0 ? "highest" : "lowest", n, n == 1 ? "" : "s");
	}
	return 1;
}

int value_answer(rctx *x, pr_str *b, h2emv_answer *a, const cand *c)
{
	const rquestion *q = x->q;
	if (!q->value || !c)
		return 0;
	if (q->extreme)
		return extreme_answer(x, b, a, c);
	/* among the candidates that matched as many of the question's words
	 * as the one picked, the one whose parameters say the value best
	 * ("sample_brix {brix: 21.9}" before "harvest_row {filled: 7,
	 * weight_kg: 1630}" on the same row); the one picked among equals */
	const cand *at = NULL;
	char best[160] = "", part[160], dt[40];
	int rank = 0;
	for (size_t i = 0; i <= x->n; i++) {
		const cand *d = i < x->n ? &x->c[i] : c;
		if ((!is_act(d->f) && d->f->type != FT_SEEN) || !d->f->s[FS_STATE] ||
		    d->hits < c->hits)
			continue;
		int r = best_part(q, d->f, part, sizeof part);
		if (r > rank || (r == rank && r && (d == c || (at && at->coarse && !d->coarse)))) {
			rank = r;
			at = d;
			snprintf(best, sizeof best, "%s", part);
		}
	}
	/* "what was your battery level when you last docked": a reading kept
	 * on a thing seen on the line of the action picked (the robot's own
	 * {battery_pct: 27}) */
	const fact *seen = NULL;
	int64_t end = c->f->t2 > c->f->t1 ? c->f->t2 : c->f->t1;
	for (size_t s = 0; (q->measure[0] || q->how_adj[0]) && is_act(c->f) && s < x->n_sets; s++)
		for (size_t i = 0; x->sets[s] && i < x->sets[s]->n; i++) {
			const fact *g = &x->sets[s]->v[i];
			if (g->type != FT_SEEN || !g->s[FS_STATE] || g->t0 < c->f->t1 || g->t0 > end)
				continue;
			int r = best_part(q, g, part, sizeof part);
			if (r > rank) {
				rank = r;
				seen = g;
				snprintf(best, sizeof best, "%s", part);
			}
		}
	if (seen) {
		pr_str_addf(b, "%s (%s).", best, fmt_dt(dt, sizeof dt, seen->t0));
		add_evidence(a, c->ref);
		return 1;
	}
	if (!at)
		return 0;
	pr_str_addf(b, "%s (%s).", best, fmt_dt(dt, sizeof dt, when_of(x, at->f)));
	add_evidence(a, at->ref);
	return 1;
}
