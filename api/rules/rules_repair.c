/*
 * rules_repair.c — what a rules rewrite may not do. The policy may add,
 * modify, merge or remove the rules the feedback is about; a rule the
 * feedback does not touch must come through, because the policy (an LLM)
 * sometimes drops one silently while rewriting the list.
 *
 * An old rule is UNRELATED to the feedback when the two share no content
 * word. Content words: the text split at anything that is not a letter, a
 * digit or a non-ASCII byte; lowercased; stemmed with Snowball (so
 * "transporting", "transported" and "transports" meet at "transport");
 * then stop words (always, remember, record, retain, the, a, you, when,
 * what, where, exact, time, ... below) and one-letter words are dropped.
 * An unrelated old rule is DROPPED when the new list has neither the same
 * text nor a near-identical rule: Jaccard similarity of the content-word
 * sets >= 0.6. A dropped unrelated rule is put back right after the rule
 * that preceded it in the old list (or first, if none did), so the old
 * relative order holds, and the version is marked repaired.
 * A reply with no rules at all, not even the default (when there were
 * some), is taken as a failed rewrite: every old rule is kept. Exact
 * duplicates are dropped, and so are copies of the default rule, word for
 * word or near-identical (the caller puts the default back as items[0]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/base/lex.h"
#include "api/mem/mem.h"

#define WORD_MAX 48 /* longer words are compared by their first 47 bytes */

static const char *const stop_words[] = {
	"a", "an", "the", "you", "your", "yours", "i", "me", "my", "we", "our", "us", "it",
	"its", "they", "them", "their", "he", "she", "him", "her", "his", "always", "remember",
	"record", "retain", "keep", "kept", "store", "save", "note", "log", "track", "forget",
	"rule", "when", "what", "where", "which", "who", "whom", "whose", "why", "how",
	"whenever", "wherever", "exact", "exactly", "time", "moment", "also", "should", "must",
	"please", "can", "could", "would", "will", "shall", "may", "might", "and", "or", "but",
	"nor", "of", "to", "in", "on", "at", "for", "with", "from", "into", "onto", "by", "as",
	"about", "than", "then", "so", "if", "unless", "is", "are", "be", "been", "being", "was",
	"were", "am", "do", "does", "did", "doing", "done", "have", "has", "had", "that", "this",
	"these", "those", "there", "here", "every", "each", "any", "all", "some", "not", "no",
	"never", "item", "thing", "something", "anything", "important", "matter", "whether",
	"user", "e", "g", "eg", "etc", "like", "such", "very", "just", "only", "more", "most",
};

/* ----------------------------------------------------------- words -- */

typedef struct wset {
	char (*w)[WORD_MAX];
	size_t n, cap;
} wset;

static void ws_free(wset *s)
{
	free(s->w);
	s->w = NULL;
	s->n = s->cap = 0;
}

/* A lowercase word's Snowball stem, in place (api/lex.c: the one stemmer). */
static void stem(char *w)
{
	char out[LEX_WORD_MAX];
	lex_stem(w, strlen(w), out);
	snprintf(w, WORD_MAX, "%s", out);
}

static int is_stop(const char *stemmed)
{
	char s[WORD_MAX];
	for (size_t i = 0; i < sizeof stop_words / sizeof stop_words[0]; i++) {
		strcpy(s, stop_words[i]);
		stem(s);
		if (!strcmp(s, stemmed))
			return 1;
	}
	return 0;
}

static int ws_has(const wset *s, const char *w)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->w[i], w))
			return 1;
	return 0;
}

static int ws_add(wset *s, const char *w)
{
	if (ws_has(s, w))
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		void *p = realloc(s->w, cap * sizeof *s->w);
		if (!p)
			return -1;
		s->w = p;
		s->cap = cap;
	}
	strcpy(s->w[s->n++], w);
	return 0;
}

static int word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

/* The content words of `text`, as a set. -1 when out of memory. */
static int content_words(wset *out, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	while (*p) {
		if (!word_byte(*p)) {
			p++;
			continue;
		}
		char w[WORD_MAX];
		size_t n = 0;
		for (; word_byte(*p); p++)
			if (n < WORD_MAX - 1)
				w[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		w[n] = '\0';
		stem(w);
		if (strlen(w) > 1 && !is_stop(w) && ws_add(out, w))
			return -1;
	}
	return 0;
}

static int shares_word(const wset *a, const wset *b)
{
	for (size_t i = 0; i < a->n; i++)
		if (ws_has(b, a->w[i]))
			return 1;
	return 0;
}

/* Jaccard similarity >= 0.6, in integers. Empty sets are never near. */
static int near_identical(const wset *a, const wset *b)
{
	size_t both = 0;
	for (size_t i = 0; i < a->n; i++)
		both += ws_has(b, a->w[i]);
	size_t either = a->n + b->n - both;
	return either > 0 && 5 * both >= 3 * either;
}

/* ---------------------------------------------------------- the repair -- */

typedef struct repair {
	const char **res; /* the result, borrowed strings */
	size_t n_res;
	wset *ow, *nw, fw; /* content words: old rules, candidates, feedback */
	long *pos;         /* where each old rule is in res, -1 if nowhere */
} repair;

/* Where old rule i lives on in the candidates: the same text, else the
 * first near-identical rule; -1 if nowhere. */
static long counterpart(const repair *x, const char *const *old, size_t i, size_t n_cand)
{
	for (size_t j = 0; j < n_cand; j++)
		if (!strcmp(old[i], x->res[j]))
			return (long)j;
	for (size_t j = 0; j < n_cand; j++)
		if (near_identical(&x->ow[i], &x->nw[j]))
			return (long)j;
	return -1;
}

static void insert_at(repair *x, size_t n_old, size_t at, const char *s)
{
	memmove(x->res + at + 1, x->res + at, (x->n_res - at) * sizeof *x->res);
	x->res[at] = s;
	x->n_res++;
	for (size_t k = 0; k < n_old; k++)
		if (x->pos[k] >= (long)at)
			x->pos[k]++;
}

/* Put back each old rule that is unrelated to the feedback and has no
 * counterpart, after the nearest earlier old rule still present. */
static int restore_dropped(repair *x, const char *const *old, size_t n_old, int *repaired)
{
	size_t n_cand = x->n_res;
	for (size_t i = 0; i < n_old; i++)
		if (content_words(&x->ow[i], old[i]))
			return -1;
	for (size_t i = 0; i < n_old; i++)
		x->pos[i] = counterpart(x, old, i, n_cand);
	for (size_t i = 0; i < n_old; i++) {
		if (x->pos[i] >= 0 || shares_word(&x->ow[i], &x->fw))
			continue;
		size_t at = 0;
		for (size_t k = i; k-- > 0;)
			if (x->pos[k] >= 0) {
				at = (size_t)x->pos[k] + 1;
				break;
			}
		insert_at(x, n_old, at, old[i]);
		x->pos[i] = (long)at;
		*repaired = 1;
	}
	return 0;
}

static int listed(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

/* The proposal into x->res without copies of the default (the same text or
 * a near-identical rewording: items[0] is the default anyway) and without
 * exact duplicates; the content words of each rule kept in x->nw. */
static int take_candidates(repair *x, const pol_rule_list *proposed)
{
	wset dw = { 0 };
	int rc = content_words(&dw, RULE_DEFAULT);
	for (size_t i = 0; i < proposed->n && rc == 0; i++) {
		const char *s = proposed->items[i];
		wset *w = &x->nw[x->n_res];
		if (!strcmp(s, RULE_DEFAULT) || listed(x->res, x->n_res, s))
			continue;
		if ((rc = content_words(w, s)) == 0 && near_identical(w, &dw))
			ws_free(w);
		else if (rc == 0)
			x->res[x->n_res++] = s;
	}
	ws_free(&dw);
	return rc;
}

int rules_repair(pol_rule_list *out, int *repaired, const char *const *old, size_t n_old,
                 const pol_rule_list *proposed, const char *feedback, h2emv_error *err)
{
	repair x = { 0 };
	int rc = -1;
	*repaired = 0;
	out->items = NULL;
	out->n = 0;
	x.res = calloc(proposed->n + n_old + 1, sizeof *x.res);
	x.ow = calloc(n_old + 1, sizeof *x.ow);
	x.nw = calloc(proposed->n + 1, sizeof *x.nw);
	x.pos = calloc(n_old + 1, sizeof *x.pos);
	if (!x.res || !x.ow || !x.nw || !x.pos)
		goto done;
	if (proposed->n == 0 && n_old > 0) {
		/* nothing came back, not even the default: a broken rewrite, not
		 * "forget every rule" */
		for (size_t i = 0; i < n_old; i++)
			if (strcmp(old[i], RULE_DEFAULT) && !listed(x.res, x.n_res, old[i]))
				x.res[x.n_res++] = old[i];
		*repaired = 1;
	} else if (take_candidates(&x, proposed) || content_words(&x.fw, feedback) ||
	           restore_dropped(&x, old, n_old, repaired)) {
		goto done;
	}
	out->items = calloc(x.n_res + 1, sizeof *out->items);
	if (!out->items)
		goto done;
	for (size_t i = 0; i < x.n_res; i++) {
		if (listed(x.res, i, x.res[i]))
			continue; /* an old list's own duplicate */
		if (!(out->items[out->n] = strdup(x.res[i])))
			goto done;
		out->n++;
	}
	rc = H2EMV_OK;
done:
	for (size_t i = 0; x.ow && i < n_old; i++)
		ws_free(&x.ow[i]);
	for (size_t i = 0; x.nw && i < proposed->n; i++)
		ws_free(&x.nw[i]);
	ws_free(&x.fw);
	free(x.res);
	free(x.ow);
	free(x.nw);
	free(x.pos);
	if (rc) {
		pol_rule_list_free(out);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	return H2EMV_OK;
}
