/*
 * builtin_cache.c — what the builtin policy keeps between calls so that it
 * reads each node text once, not once per call: the text's digest and the
 * token counts of the prompt pieces that carry it (keyed by the text), the
 * token counts of time ranges, and what it derived from the rules in force.
 *
 * Exactness. A digest depends on its text alone, and bi_digest_add only
 * appends to what is there, so digesting texts one by one and merging
 * (bi_digest_merge) gives, in everything a summary reads, what digesting
 * them all into one digest gives; the cache keeps just that part (a
 * lists_only digest, frozen into one block). A hit compares the whole
 * text, not only its XXH3-64, so a hash collision costs a lookup, never a
 * wrong answer. Token pieces: prompts.h says where counts add up.
 *
 * Bounds. At most BI_CACHE_ENTRIES texts, and at most BI_CACHE_BYTES bytes
 * of their copies and frozen digests (malloc's own overhead not counted);
 * a text longer than BI_CACHE_MAX_TEXT is read anew on every call and
 * never kept. Evicted by the clock (second-chance) rule. Besides: the
 * entry table (under 100 bytes a slot), its hash buckets, the range slots
 * (RANGE_SLOTS) and one copy of the rules in force: under 1 MiB in all
 * with the default bounds, whatever the history's length.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "api/policy/builtin/builtin.h"

#define RANGE_SLOTS 4096 /* a power of two */
#define HAVE_DIGEST 1u
#define HAVE_TOK(k) (2u << (k))

/* A digest's lists frozen into one block: what a summary reads. */
typedef struct frozen_ent {
	const char *s;
	bi_key k;
	size_t count;
} frozen_ent;

#define N_LISTS 5

typedef struct frozen {
	frozen_ent *e[N_LISTS]; /* labels, seen, places, persons, notes */
	size_t n[N_LISTS];
	size_t n_speech, more;
	int person, opaque;
} frozen;

typedef struct entry {
	uint64_t key;  /* XXH3-64 of the text */
	char *text;    /* a copy, compared on every hit */
	size_t len;
	uint32_t next; /* the next entry (+ 1) in the same bucket, 0 = none */
	uint8_t used, ref;
	unsigned have;
	uint64_t tok[PR_PIECE_KINDS];
	frozen *fz;   /* one malloc'd block */
	size_t bytes; /* accounted to the cache */
} entry;

typedef struct range_slot {
	int64_t t0, t1;
	int kind; /* -1: empty; else with_date * 2 + range kind */
	uint64_t tok;
} range_slot;

/* The rules last seen and what was derived from them (each on first use). */
typedef struct rules_memo {
	char **items;
	size_t n;
	int valid;
	int have_words, have_msg;
	bi_words words; /* object words of the keep rules (summaries) */
	uint64_t msg_tok;
} rules_memo;

struct bi_cache {
	entry *e;
	size_t n_e, cap_e;    /* slots in use or used once; allocated */
	uint32_t *bucket;     /* entry + 1, 0 = empty */
	size_t n_bucket;      /* a power of two */
	size_t hand;          /* the clock's hand */
	uint32_t free_head;   /* slots emptied by trim (+ 1), chained by `next` */
	size_t n_used, bytes;
	size_t max_entries, max_bytes;
	range_slot range[RANGE_SLOTS];
	rules_memo rules;
	bi_cache_stats st;
};

/* ------------------------------------------------------------- entries -- */

static const bi_list *list_at(const bi_digest *d, int i)
{
	const bi_list *l[N_LISTS] = { &d->labels, &d->seen, &d->places, &d->persons, &d->notes };
	return l[i];
}

/* The lists of `d` in one block (strings after the entries); NULL when out
 * of memory. *bytes gets its size. */
static frozen *freeze(const bi_digest *d, size_t *bytes)
{
	size_t n_ent = 0, n_chr = 0;
	for (int i = 0; i < N_LISTS; i++) {
		const bi_list *l = list_at(d, i);
		n_ent += l->n;
		for (size_t j = 0; j < l->n; j++)
			n_chr += l->k[j].len + 1;
	}
	*bytes = sizeof(frozen) + n_ent * sizeof(frozen_ent) + n_chr;
	frozen *f = malloc(*bytes);
	if (!f)
		return NULL;
	frozen_ent *e = (frozen_ent *)(f + 1);
	char *chr = (char *)(e + n_ent);
	for (int i = 0; i < N_LISTS; i++) {
		const bi_list *l = list_at(d, i);
		f->e[i] = e;
		f->n[i] = l->n;
		for (size_t j = 0; j < l->n; j++, e++) {
			memcpy(chr, l->s[j], l->k[j].len + 1);
			e->s = chr;
			e->k = l->k[j];
			e->count = l->count[j];
			chr += l->k[j].len + 1;
		}
	}
	f->n_speech = d->n_speech;
	f->more = d->more;
	f->person = d->person;
	f->opaque = d->opaque;
	return f;
}

/* bi_digest_merge from the frozen form. */
static void thaw_into(bi_digest *d, const frozen *f)
{
	bi_list *l[N_LISTS] = { &d->labels, &d->seen, &d->places, &d->persons, &d->notes };
	for (int i = 0; i < N_LISTS; i++)
		for (size_t j = 0; j < f->n[i]; j++)
			bi_list_add_h(l[i], f->e[i][j].s, f->e[i][j].k.len, f->e[i][j].k.h,
			              f->e[i][j].count);
	d->n_speech += f->n_speech;
	d->more += f->more;
	d->person |= f->person;
	d->opaque |= f->opaque;
	d->oom |= d->labels.oom | d->seen.oom | d->places.oom | d->persons.oom | d->notes.oom;
}

static void entry_clear(entry *x)
{
	free(x->text);
	free(x->fz);
	memset(x, 0, sizeof *x);
}

static void unlink_entry(bi_cache *c, size_t i)
{
	uint32_t *p = &c->bucket[c->e[i].key & (c->n_bucket - 1)];
	while (*p && *p != i + 1)
		p = &c->e[*p - 1].next;
	if (*p)
		*p = c->e[i].next;
}

static void evict(bi_cache *c, size_t i)
{
	unlink_entry(c, i);
	c->bytes -= c->e[i].bytes;
	c->n_used--;
	c->st.evictions++;
	entry_clear(&c->e[i]);
}

/* Evict `i` and keep its slot for the next text. */
static void evict_to_free(bi_cache *c, size_t i)
{
	evict(c, i);
	c->e[i].next = c->free_head;
	c->free_head = (uint32_t)(i + 1);
}

/* The clock: the first entry not used since the hand last passed it,
 * never `keep` (SIZE_MAX: none). There is one while n_used > 1. */
static size_t victim(bi_cache *c, size_t keep)
{
	for (;;) {
		size_t i = c->hand;
		c->hand = (c->hand + 1) % c->n_e;
		if (!c->e[i].used || i == keep)
			continue;
		if (c->e[i].ref)
			c->e[i].ref = 0;
		else
			return i;
	}
}

/* Evict until the bytes fit again, keeping `keep`. */
static void trim(bi_cache *c, size_t keep)
{
	while (c->bytes > c->max_bytes && c->n_used > 1)
		evict_to_free(c, victim(c, keep));
}

/* A free slot: a new one while the array may grow, else the clock's. */
static size_t take_slot(bi_cache *c)
{
	if (c->free_head) {
		size_t i = c->free_head - 1;
		c->free_head = c->e[i].next;
		c->e[i].next = 0;
		return i;
	}
	if (c->n_e < c->max_entries) {
		if (c->n_e == c->cap_e) {
			size_t cap = c->cap_e ? c->cap_e * 2 : 64;
			cap = cap < c->max_entries ? cap : c->max_entries;
			entry *v = realloc(c->e, cap * sizeof *v);
			if (!v)
				return SIZE_MAX;
			c->e = v;
			c->cap_e = cap;
		}
		memset(&c->e[c->n_e], 0, sizeof c->e[c->n_e]);
		return c->n_e++;
	}
	size_t i = victim(c, SIZE_MAX);
	evict(c, i);
	return i;
}

/* The entry of `text` (`len` bytes, at most BI_CACHE_MAX_TEXT), found or
 * made, or NULL when out of memory. Valid until the next call into the
 * cache. */
static entry *entry_of(bi_cache *c, const char *text, size_t len)
{
	uint64_t key = XXH3_64bits(text, len);
	for (uint32_t i = c->bucket[key & (c->n_bucket - 1)]; i; i = c->e[i - 1].next) {
		entry *x = &c->e[i - 1];
		if (x->key == key && x->len == len && !memcmp(x->text, text, len)) {
			x->ref = 1;
			c->st.hits++;
			return x;
		}
	}
	c->st.misses++;
	char *copy = malloc(len + 1);
	if (!copy)
		return NULL;
	size_t i = take_slot(c);
	if (i == SIZE_MAX) {
		free(copy);
		return NULL;
	}
	entry *x = &c->e[i];
	memcpy(copy, text, len + 1);
	x->text = copy;
	x->len = len;
	x->key = key;
	x->used = 1;
	x->ref = 1;
	x->bytes = len + 1;
	uint32_t *b = &c->bucket[key & (c->n_bucket - 1)];
	x->next = *b;
	*b = (uint32_t)(i + 1);
	c->n_used++;
	c->bytes += x->bytes;
	trim(c, i);
	return x;
}

/* Account `x` having grown to `bytes`. */
static void grew(bi_cache *c, entry *x, size_t bytes)
{
	c->bytes += bytes - x->bytes;
	x->bytes = bytes;
	trim(c, (size_t)(x - c->e));
}

/* ------------------------------------------------------------- the API -- */

int bi_cache_new(bi_cache **out, size_t max_entries, size_t max_bytes)
{
	*out = NULL;
	bi_cache *c = calloc(1, sizeof *c);
	if (!c)
		return -1;
	c->max_entries = max_entries ? max_entries : BI_CACHE_ENTRIES;
	if (c->max_entries > UINT32_MAX / 4)
		c->max_entries = UINT32_MAX / 4;
	c->max_bytes = max_bytes ? max_bytes : BI_CACHE_BYTES;
	c->n_bucket = 64;
	while (c->n_bucket < c->max_entries * 2)
		c->n_bucket *= 2;
	c->bucket = calloc(c->n_bucket, sizeof *c->bucket);
	if (!c->bucket) {
		free(c);
		return -1;
	}
	for (size_t i = 0; i < RANGE_SLOTS; i++)
		c->range[i].kind = -1;
	*out = c;
	return 0;
}

static void rules_forget(rules_memo *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->items[i]);
	free(m->items);
	bi_words_free(&m->words);
	memset(m, 0, sizeof *m);
}

void bi_cache_free(bi_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_e; i++)
		entry_clear(&c->e[i]);
	rules_forget(&c->rules);
	free(c->e);
	free(c->bucket);
	free(c);
}

/* The digest of `text` as a summary reads it, merged into `d`. */
static int merge_fresh(bi_digest *d, const char *text)
{
	bi_digest one;
	memset(&one, 0, sizeof one);
	one.lists_only = 1;
	bi_digest_add(&one, text);
	bi_digest_merge(d, &one);
	int oom = one.oom;
	bi_digest_free(&one);
	return oom ? -1 : 0;
}

int bi_cache_merge(bi_cache *c, bi_digest *d, const char *text)
{
	const char *t = text ? text : "";
	size_t len = strlen(t);
	if (len > BI_CACHE_MAX_TEXT) {
		c->st.misses++;
		return merge_fresh(d, t);
	}
	entry *x = entry_of(c, t, len);
	if (!x)
		return -1;
	if (!(x->have & HAVE_DIGEST)) {
		bi_digest one;
		memset(&one, 0, sizeof one);
		one.lists_only = 1;
		bi_digest_add(&one, x->text);
		size_t bytes = 0;
		x->fz = one.oom ? NULL : freeze(&one, &bytes);
		bi_digest_free(&one);
		if (!x->fz)
			return -1;
		x->have |= HAVE_DIGEST;
		grew(c, x, x->bytes + bytes);
	}
	thaw_into(d, x->fz);
	return 0;
}

uint64_t bi_cache_piece(void *cache, const char *text, int kind)
{
	bi_cache *c = cache;
	const char *t = text ? text : "";
	size_t len = strlen(t);
	entry *x = kind >= 0 && kind < PR_PIECE_KINDS && len <= BI_CACHE_MAX_TEXT
	                   ? entry_of(c, t, len)
	                   : NULL;
	if (!x)
		return pr_piece_tokens(t, kind);
	if (!(x->have & HAVE_TOK(kind))) {
		x->tok[kind] = pr_piece_tokens(x->text, kind);
		x->have |= HAVE_TOK(kind);
	}
	return x->tok[kind];
}

uint64_t bi_cache_range(void *cache, int64_t t0, int64_t t1, int with_date, int kind)
{
	bi_cache *c = cache;
	int k = (with_date != 0) * 2 + (kind != 0);
	uint64_t parts[3] = { (uint64_t)t0, (uint64_t)t1, (uint64_t)k };
	range_slot *s = &c->range[XXH3_64bits(parts, sizeof parts) & (RANGE_SLOTS - 1)];
	if (s->kind != k || s->t0 != t0 || s->t1 != t1) {
		s->t0 = t0;
		s->t1 = t1;
		s->kind = k;
		s->tok = pr_range_tokens(t0, t1, with_date, kind);
	}
	return s->tok;
}

/* Make the memo hold `rules` (copied), keeping what it derived when they
 * are the same rules. A NULL rule is held as "": both the rules message
 * and the rule words read the two alike. -1 when out of memory (the memo
 * is then empty). */
static int rules_memo_of(rules_memo *m, const pol_rules *rules)
{
	int same = m->valid && m->n == rules->n;
	for (size_t i = 0; same && i < rules->n; i++)
		same = !strcmp(m->items[i], rules->items[i] ? rules->items[i] : "");
	if (same)
		return 0;
	rules_forget(m);
	m->items = calloc(rules->n ? rules->n : 1, sizeof *m->items);
	if (!m->items)
		return -1;
	for (m->n = 0; m->n < rules->n; m->n++) {
		m->items[m->n] = strdup(rules->items[m->n] ? rules->items[m->n] : "");
		if (!m->items[m->n]) {
			rules_forget(m);
			return -1;
		}
	}
	m->valid = 1;
	return 0;
}

uint64_t bi_cache_rules_msg(void *cache, const pol_rules *rules)
{
	bi_cache *c = cache;
	if (rules_memo_of(&c->rules, rules))
		return pr_rules_msg_tokens(rules);
	if (!c->rules.have_msg) {
		c->rules.msg_tok = pr_rules_msg_tokens(rules);
		c->rules.have_msg = 1;
	}
	return c->rules.msg_tok;
}

pr_pieces bi_cache_pieces(bi_cache *c)
{
	pr_pieces pc = { c, bi_cache_piece, bi_cache_range, bi_cache_rules_msg };
	return pc;
}

const bi_words *bi_cache_rule_words(bi_cache *c, const pol_rules *rules)
{
	if (rules_memo_of(&c->rules, rules))
		return NULL;
	if (!c->rules.have_words) {
		if (bi_rule_words(&c->rules.words, rules)) {
			bi_words_free(&c->rules.words);
			return NULL;
		}
		c->rules.have_words = 1;
	}
	return &c->rules.words;
}

bi_cache_stats bi_cache_get_stats(const bi_cache *c)
{
	bi_cache_stats s = c->st;
	s.entries = c->n_used;
	s.bytes = c->bytes;
	return s;
}
