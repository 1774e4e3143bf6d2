/*
 * builtin_summary.c — the builtin's extractive summary of a group of items.
 *
 * The rule. The items' texts are read into one digest (builtin_digest.c)
 * and written out as one first-person sentence of clauses, in this order,
 * each left out when empty:
 *
 *   I did L1, L2 and N more; <note>; saw O1, O2; was in the P1, P2;
 *     met A, B; heard N utterances; spanning <time range>.
 *
 *   - did: one label per goal (or per action for events and scenes):
 *     "MakeBreakfast.Transport (knife_0 to countertop_0)", the name then
 *     up to 4 objects of its actions, each with where it went; a failed
 *     goal says "failed". Labels repeated across items are said once.
 *   - note: a free-text item's first sentence (an llm summary, a
 *     placeholder of one), up to 80 characters, "I" dropped.
 *   - saw: up to 5 objects seen that no label names already.
 *   - was in the: up to 4 places; met: up to 6 persons; heard: the number
 *     of utterances.
 *   - spanning: for items of level >= 4 when two consecutive items are
 *     more than an hour apart, the whole time range.
 *   - nothing at all: "I was idle."
 *
 * Higher levels read their children's summaries back clause by clause (the
 * grammar above is what the digest parses), so the entities travel up the
 * tree. Within a cap of SUMMARY_CAP bytes, entries are chosen by rank:
 * first those a rule mentions (an object word of a rule that asks to keep
 * something, the default rule aside: a rule about knives keeps "knife_0"
 * in every summary above it), then the most frequent, then the earliest;
 * what does not fit is dropped lowest
 * rank first (objects seen, then notes, then labels — counted in "and N
 * more" — then persons, then places; the last label stays). Entries a rule
 * mentions are never dropped, so the cap is soft for them. Entries are
 * always written in order of first appearance.
 *
 * Two ways to the same bytes: bi_summary_text reads every item afresh and
 * renders the sentence after each drop (the rule as written, kept as the
 * reference the tests compare against); bi_summary_cached merges the
 * items' cached digests, and measures the sentence instead of rendering it
 * until it fits (builder calls re-summarise parents whose children grow
 * one by one, so the fresh way is quadratic over a parent's life).
 */
#include <stdlib.h>
#include <string.h>

#include "api/tree/facts.h"
#include "api/tree/gist.h"
#include "api/policy/builtin/builtin.h"
#include "engine/engine.h"

#define SUMMARY_CAP 300
#define OUTCOME_CAP 200 /* bytes of the outcome clauses (gist.h) */
#define SEEN_MAX 5
#define PLACES_MAX 4
#define PERSONS_MAX 6
#define BIG_GAP (3600ll * 1000000) /* µs: "large gaps" for the timing clause */

/* Which entries of one list are written, and which a rule mentions. */
typedef struct pick {
	const bi_list *l;
	int *keep, *prio;
} pick;

static int pick_init(pick *p, const bi_list *l, const bi_words *rw)
{
	p->l = l;
	p->keep = calloc(l->n ? l->n : 1, sizeof *p->keep);
	p->prio = calloc(l->n ? l->n : 1, sizeof *p->prio);
	if (!p->keep || !p->prio)
		return -1;
	for (size_t i = 0; rw->n && i < l->n; i++) { /* nothing meets an empty set */
		bi_words w = { 0 };
		bi_words_of(&w, l->s[i], l->k[i].len);
		p->prio[i] = bi_words_meet(&w, rw);
		int oom = w.oom;
		bi_words_free(&w);
		if (oom)
			return -1;
	}
	return 0;
}

static void pick_free(pick *p)
{
	free(p->keep);
	free(p->prio);
}

/* Is entry a ranked before entry b? Rule-mentioned, more frequent, earlier. */
static int before(const pick *p, size_t a, size_t b)
{
	if (p->prio[a] != p->prio[b])
		return p->prio[a] > p->prio[b];
	if (p->l->count[a] != p->l->count[b])
		return p->l->count[a] > p->l->count[b];
	return a < b;
}

/* Keep the best `max` entries (all rule-mentioned ones too) that pass
 * `skip` (may be NULL). */
static void keep_best(pick *p, size_t max, const pick *labels)
{
	size_t kept = 0;
	for (;;) {
		size_t best = SIZE_MAX;
		for (size_t i = 0; i < p->l->n; i++) {
			if (p->keep[i] || p->keep[i] < 0)
				continue;
			if (labels) { /* an object a kept label already names */
				int named = 0;
				for (size_t j = 0; j < labels->l->n && !named; j++)
					named = labels->keep[j] && strstr(labels->l->s[j], p->l->s[i]);
				if (named) {
					p->keep[i] = -1;
					continue;
				}
			}
			if (best == SIZE_MAX || before(p, i, best))
				best = i;
		}
		if (best == SIZE_MAX || (kept >= max && !p->prio[best]))
			break;
		p->keep[best] = 1;
		kept++;
	}
	for (size_t i = 0; i < p->l->n; i++)
		if (p->keep[i] < 0)
			p->keep[i] = 0;
}

/* keep_best, choosing the same entries with less work: with no limit and
 * no labels every entry is kept; whether a kept label names an object
 * cannot change while the objects are chosen, so it is asked once. */
static void keep_best_fast(pick *p, size_t max, const pick *labels)
{
	if (max == SIZE_MAX && !labels) {
		for (size_t i = 0; i < p->l->n; i++)
			p->keep[i] = 1;
		return;
	}
	for (size_t i = 0; labels && i < p->l->n; i++)
		for (size_t j = 0; j < labels->l->n; j++)
			if (labels->keep[j] && strstr(labels->l->s[j], p->l->s[i])) {
				p->keep[i] = -1;
				break;
			}
	size_t kept = 0;
	for (;;) {
		size_t best = SIZE_MAX;
		for (size_t i = 0; i < p->l->n; i++)
			if (!p->keep[i] && (best == SIZE_MAX || before(p, i, best)))
				best = i;
		if (best == SIZE_MAX || (kept >= max && !p->prio[best]))
			break;
		p->keep[best] = 1;
		kept++;
	}
	for (size_t i = 0; i < p->l->n; i++)
		if (p->keep[i] < 0)
			p->keep[i] = 0;
}

/* Drop the lowest-ranked kept entry that no rule mentions, keeping at
 * least `min`. 1 if one was dropped. */
static int drop_worst(pick *p, size_t min)
{
	size_t worst = SIZE_MAX, kept = 0;
	for (size_t i = 0; i < p->l->n; i++) {
		if (!p->keep[i])
			continue;
		kept++;
		if (!p->prio[i] && (worst == SIZE_MAX || before(p, worst, i)))
			worst = i;
	}
	if (worst == SIZE_MAX || kept <= min)
		return 0;
	p->keep[worst] = 0;
	return 1;
}

static void add_list(pr_str *b, const pick *p, const char *lead, int *first)
{
	int any = 0;
	for (size_t i = 0; i < p->l->n; i++) {
		if (!p->keep[i])
			continue;
		if (!any) {
			pr_str_adds(b, *first ? "I " : "; ");
			pr_str_adds(b, lead);
			*first = 0;
		} else {
			pr_str_adds(b, ", ");
		}
		pr_str_adds(b, p->l->s[i]);
		any = 1;
	}
}

typedef struct parts {
	pick labels, notes, seen, places, persons;
	size_t more, n_speech;
	const char *timing;
	const char *outcome; /* the goals' outcomes in a sentence, in place of labels */
} parts;

static void render(pr_str *b, const parts *x)
{
	int first = 1;
	size_t dropped = x->more;
	for (size_t i = 0; i < x->labels.l->n; i++)
		dropped += !x->labels.keep[i];
	if (x->outcome) {
		pr_str_adds(b, "I ");
		pr_str_adds(b, x->outcome);
		first = 0;
	} else {
		add_list(b, &x->labels, "did ", &first);
		if (dropped && !first)
			pr_str_addf(b, " and %zu more", dropped);
	}
	for (size_t i = 0; i < x->notes.l->n; i++)
		if (x->notes.keep[i]) {
			pr_str_adds(b, first ? "I " : "; ");
			pr_str_adds(b, x->notes.l->s[i]);
			first = 0;
		}
	add_list(b, &x->seen, "saw ", &first);
	add_list(b, &x->places, "was in the ", &first);
	add_list(b, &x->persons, "met ", &first);
	if (x->n_speech) {
		pr_str_adds(b, first ? "I " : "; ");
		pr_str_addf(b, "heard %zu utterance%s", x->n_speech, x->n_speech == 1 ? "" : "s");
		first = 0;
	}
	if (x->timing) {
		pr_str_adds(b, first ? "I " : "; ");
		pr_str_addf(b, "spanning %s", x->timing);
		first = 0;
	}
	pr_str_adds(b, first ? "I was idle." : ".");
}

static size_t digits(size_t v)
{
	size_t d = 1;
	for (; v >= 10; v /= 10)
		d++;
	return d;
}

/* The length add_list adds. */
static size_t list_len(const pick *p, size_t lead, int *first)
{
	size_t len = 0;
	for (size_t i = 0; i < p->l->n; i++)
		if (p->keep[i]) {
			len += (len ? 2 : 2 + lead) + p->l->k[i].len; /* "I "/"; " + lead, or ", " */
			*first = 0;
		}
	return len;
}

/* The length of what render writes, clause by clause as render does. */
static size_t render_len(const parts *x)
{
	int first = 1;
	size_t dropped = x->more, len = 0;
	for (size_t i = 0; i < x->labels.l->n; i++)
		dropped += !x->labels.keep[i];
	if (x->outcome) {
		len += 2 + strlen(x->outcome);
		first = 0;
	} else {
		len += list_len(&x->labels, strlen("did "), &first);
		if (dropped && !first)
			len += strlen(" and ") + digits(dropped) + strlen(" more");
	}
	for (size_t i = 0; i < x->notes.l->n; i++)
		if (x->notes.keep[i]) {
			len += 2 + x->notes.l->k[i].len;
			first = 0;
		}
	len += list_len(&x->seen, strlen("saw "), &first);
	len += list_len(&x->places, strlen("was in the "), &first);
	len += list_len(&x->persons, strlen("met "), &first);
	if (x->n_speech) {
		len += 2 + strlen("heard ") + digits(x->n_speech) + strlen(" utterance") +
		       (x->n_speech != 1);
		first = 0;
	}
	if (x->timing) {
		len += 2 + strlen("spanning ") + strlen(x->timing);
		first = 0;
	}
	return len + (first ? strlen("I was idle.") : strlen("."));
}

/* What the goals among the items achieved, in one sentence of clauses
 * (gist.h), when every goal's facts are at hand; *out NULL otherwise (the
 * labels say what was done). -1 when out of memory. */
static int outcomes(char **out, const pol_item *items, size_t n)
{
	*out = NULL;
	size_t k = 0, goals = 0;
	for (size_t i = 0; i < n; i++) {
		if (items[i].forgotten || items[i].level != 3)
			continue;
		if (!items[i].facts)
			return 0;
		goals++;
		k += items[i].facts->n;
	}
	if (!goals || !k)
		return 0;
	const fact **v = malloc(k * sizeof *v);
	if (!v)
		return -1;
	k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; !items[i].forgotten && items[i].facts && j < items[i].facts->n; j++)
			v[k++] = &items[i].facts->v[j];
	eng_buf b = { 0 };
	int said = gist_sentence(&b, v, k, OUTCOME_CAP);
	free(v);
	if (said > 0 && !eng_buf_append(&b, "", 1)) {
		*out = (char *)b.data;
		return 0;
	}
	eng_buf_free(&b);
	return said < 0 ? -1 : 0;
}

/* The sentence from the digest `d` of the items and the rules' object
 * words `rw`. `fast`: choose and measure the fast way (same bytes). */
static int compose(char **out, const bi_digest *d, const bi_words *rw, const pol_item *items,
                   size_t n, int level, int fast, h2emv_error *err)
{
	parts x;
	memset(&x, 0, sizeof x);
	char *outcome = NULL;
	if (outcomes(&outcome, items, n))
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	x.outcome = outcome;
	char range[PR_TIME_MAX];
	pr_str b = { 0 };
	int rc = H2EMV_OK;
	int64_t gap = 0;
	for (size_t i = 1; i < n; i++)
		if (items[i].t_start - items[i - 1].t_end > gap)
			gap = items[i].t_start - items[i - 1].t_end;
	if (pick_init(&x.labels, &d->labels, rw) || pick_init(&x.notes, &d->notes, rw) ||
	    pick_init(&x.seen, &d->seen, rw) || pick_init(&x.places, &d->places, rw) ||
	    pick_init(&x.persons, &d->persons, rw)) {
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		goto done;
	}
	x.more = d->more;
	x.n_speech = d->n_speech;
	if (level >= 4 && n > 1 && gap > BIG_GAP)
		x.timing = pr_time_range(range, sizeof range, items[0].t_start, items[n - 1].t_end, 1);
	void (*keep)(pick *, size_t, const pick *) = fast ? keep_best_fast : keep_best;
	keep(&x.labels, SIZE_MAX, NULL);
	keep(&x.notes, SIZE_MAX, NULL);
	keep(&x.seen, SEEN_MAX, &x.labels);
	keep(&x.places, PLACES_MAX, NULL);
	keep(&x.persons, PERSONS_MAX, NULL);
	for (;;) {
		size_t len;
		if (fast) {
			len = render_len(&x);
		} else {
			render(&b, &x);
			if (b.oom) {
				rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
				goto done;
			}
			len = b.len;
		}
		if (len <= SUMMARY_CAP ||
		    !(drop_worst(&x.seen, 0) || drop_worst(&x.notes, 0) || drop_worst(&x.labels, 1) ||
		      drop_worst(&x.persons, 1) || drop_worst(&x.places, 1)))
			break;
		pr_str_free(&b);
	}
	if (fast)
		render(&b, &x);
	*out = pr_str_take(&b);
	if (!*out)
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
done:
	pr_str_free(&b);
	pick_free(&x.labels);
	pick_free(&x.notes);
	pick_free(&x.seen);
	pick_free(&x.places);
	pick_free(&x.persons);
	free(outcome);
	return rc;
}

int bi_summary_text(char **out, const pol_item *items, size_t n, int level,
                    const pol_rules *rules, h2emv_error *err)
{
	*out = NULL;
	if (n && !items)
		return eng_fail(err, H2EMV_EINVAL, "summarize: no items");
	bi_digest d;
	memset(&d, 0, sizeof d);
	bi_words rw = { 0 };
	int rc;
	for (size_t i = 0; i < n; i++)
		bi_digest_add(&d, items[i].text);
	if (d.oom || bi_rule_words(&rw, rules))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	else
		rc = compose(out, &d, &rw, items, n, level, 0, err);
	bi_words_free(&rw);
	bi_digest_free(&d);
	return rc;
}

int bi_summary_cached(bi_cache *c, char **out, const pol_item *items, size_t n, int level,
                      const pol_rules *rules, h2emv_error *err)
{
	if (!c)
		return bi_summary_text(out, items, n, level, rules, err);
	*out = NULL;
	if (n && !items)
		return eng_fail(err, H2EMV_EINVAL, "summarize: no items");
	bi_digest d;
	memset(&d, 0, sizeof d);
	static const bi_words none = { 0 };
	for (size_t i = 0; i < n && !d.oom; i++) {
		if (!items[i].text || !*items[i].text)
			continue; /* bi_digest_add reads nothing from them */
		if (bi_cache_merge(c, &d, items[i].text))
			d.oom = 1;
	}
	const bi_words *rw = rules ? bi_cache_rule_words(c, rules) : &none;
	int rc = d.oom || !rw ? eng_fail(err, H2EMV_ENOMEM, "out of memory")
	                      : compose(out, &d, rw, items, n, level, 1, err);
	bi_digest_free(&d);
	return rc;
}

static int summarize(bi_cache *c, const pol_item *items, size_t n, int level,
                     const pol_rules *rules, char **out, pol_usage *u, h2emv_error *err)
{
	uint64_t prompt = 0;
	int rc;
	if (u && u->no_estimate) { /* nobody reports the figure: the summary alone */
		rc = bi_summary_cached(c, out, items, n, level, rules, err);
		u->calls += !rc;
		return rc;
	}
	if (c) {
		pr_pieces pc = bi_cache_pieces(c);
		rc = pr_summarize_tokens(&prompt, items, n, level, rules, &pc, err);
	} else {
		pr_prompt p;
		rc = pr_summarize(&p, items, n, level, rules, err);
		prompt = rc ? 0 : tok_prompt(&p);
		pr_prompt_free(&p);
	}
	if (rc)
		return rc;
	rc = bi_summary_cached(c, out, items, n, level, rules, err);
	if (!rc) {
		pr_str reply = { 0 };
		pr_str_adds(&reply, "Summary: ");
		pr_str_adds(&reply, *out);
		bi_usage_tokens(u, prompt, reply.s);
		pr_str_free(&reply);
	}
	return rc;
}

int bi_summarize(void *ctx, const pol_item *items, size_t n, int level, const pol_rules *rules,
                 char **out, pol_usage *u, h2emv_error *err)
{
	if (!out)
		return eng_fail(err, H2EMV_EINVAL, "summarize: no output");
	*out = NULL;
	bi_cache *c = bi_ctx_lock(ctx);
	int rc = summarize(c, items, n, level, rules, out, u, err);
	bi_ctx_unlock(ctx);
	return rc;
}
