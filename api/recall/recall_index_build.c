/*
 * recall_index_build.c — the postings of a node version (recall_index.h):
 * every word of every slot of every fact of a goal, by its stem and its
 * synonym group, with the times and types it was seen with; and the index
 * built when a memory has none yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "api/recall/recall_index_internal.h"

uint64_t ridx_term(const char *stem)
{
	return XXH3_64bits_withSeed(stem, strlen(stem), SEED_STEM);
}

uint64_t group_term(int g)
{
	uint32_t v = (uint32_t)g;
	return XXH3_64bits_withSeed(&v, sizeof v, SEED_GROUP);
}

/* ---------------------------------------------------------- extraction -- */

typedef struct plist {
	eng_posting *v;
	size_t n, cap;
	int oom;
	int wordy; /* a text of more than WORDS_MAX words: the goal is read, not indexed */
} plist;

static void padd(plist *l, uint64_t term, int64_t t0, int64_t t1, uint8_t type, uint16_t role)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		eng_posting *v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			l->oom = 1;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (eng_posting){ term, t0, t1, type, 1, role };
}

/* lex_same_group of a stem whose term is `term`, through a per-thread
 * memo (a build asks for every word of every goal, and the words repeat). */
static int same_group(const char *stem, uint64_t term)
{
	static _Thread_local struct {
		uint64_t term;
		int group;
		char stem[LEX_WORD_MAX];
	} memo[256];
	size_t i = term & 255;
	if (memo[i].term != term || strcmp(memo[i].stem, stem)) {
		memo[i].group = lex_same_group(stem);
		memo[i].term = term;
		snprintf(memo[i].stem, sizeof memo[i].stem, "%s", stem);
	}
	return memo[i].group;
}

static void add_words(plist *l, const char *s, int64_t t0, int64_t t1, uint8_t type,
                      uint16_t role)
{
	lex_word w[WORDS_MAX];
	size_t k = lex_split(s, strlen(s), w, WORDS_MAX);
	if (k > WORDS_MAX) {
		l->wordy = 1;
		return;
	}
	for (size_t i = 0; i < k; i++) {
		uint64_t term = ridx_term(w[i].stem);
		padd(l, term, t0, t1, type, role);
		int g = same_group(w[i].stem, term);
		if (g >= 0)
			padd(l, group_term(g), t0, t1, type, role);
	}
}

/* Postings by term (what order equal terms take does not matter: merge
 * folds them alike). A quicksort on the key: a build sorts every goal's. */
static void sort_terms(eng_posting *v, size_t n)
{
	while (n > 12) {
		uint64_t a = v[0].term, b = v[n / 2].term, c = v[n - 1].term;
		uint64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		size_t i = 0, j = n - 1;
		for (;;) {
			while (v[i].term < pivot)
				i++;
			while (v[j].term > pivot)
				j--;
			if (i >= j)
				break;
			eng_posting t = v[i];
			v[i] = v[j];
			v[j] = t;
			i++;
			j--;
		}
		/* v[0..j] <= pivot <= v[j+1..n): the smaller side first */
		size_t left = j + 1;
		if (left < n - left) {
			sort_terms(v, left);
			v += left;
			n -= left;
		} else {
			sort_terms(v + left, n - left);
			n = left;
		}
	}
	for (size_t i = 1; i < n; i++) {
		eng_posting t = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1].term > t.term; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* One posting per term: the earliest start, the latest end, the types and
 * roles OR'd, the occurrences counted. */
static size_t merge(eng_posting *v, size_t n)
{
	if (!n)
		return 0;
	sort_terms(v, n);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		eng_posting *a = &v[k], *b = &v[i];
		if (b->term != a->term) {
			v[++k] = *b;
			continue;
		}
		a->t_first = b->t_first < a->t_first ? b->t_first : a->t_first;
		a->t_last = b->t_last > a->t_last ? b->t_last : a->t_last;
		a->types |= b->types;
		a->roles |= b->roles;
		a->tf = a->tf < 255 ? a->tf + 1 : 255;
	}
	return k + 1;
}

static int goal_open(const eng_node *node)
{
	int open = 0;
	uint64_t aux;
	return facts_payload_head(node->payload, node->payload_len, &open, &aux) && (open & 1);
}

int ridx_postings(eng_posting **out, size_t *n, const eng_node *node, void *ctx)
{
	(void)ctx;
	*out = NULL;
	*n = 0;
	plist l = { 0 };
	if (node->kind == H2EMV_KIND_FORGOTTEN && node->summary) {
		const char *nl = strchr(node->summary, '\n');
		size_t len = nl ? (size_t)(nl - node->summary) : strlen(node->summary);
		char line[1024];
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, node->summary, len);
		line[len] = 0;
		add_words(&l, line, node->t_start, node->t_end, TYPE_GIST, ROLE_GIST);
		/* every placeholder under one term: the summaries above it are
		 * read (what they say of forgotten children is coarse evidence) */
		padd(&l, group_term(GROUP_FORGOTTEN), node->t_start, node->t_end, TYPE_GIST, ROLE_GIST);
	} else if (node->kind == H2EMV_KIND_GOAL && node->payload && node->payload_len &&
	           node->payload[0] == 0x93 && goal_open(node)) {
		/* a goal still growing gets a new version at every commit: its
		 * words are indexed once it is closed; until then questions read it
		 * (one posting says where it is) */
		l.wordy = 1;
	} else if (node->kind == H2EMV_KIND_GOAL && node->payload && node->payload_len &&
	           node->payload[0] == 0x93) {
		facts f = { 0 };
		int rc = facts_payload_decode(&f, node->payload, node->payload_len);
		if (rc == H2EMV_ENOMEM)
			return rc;
		for (size_t i = 0; rc == H2EMV_OK && i < f.n; i++) {
			const fact *x = &f.v[i];
			int64_t last = x->t2 > x->t1 ? x->t2 : x->t1;
			uint8_t type = x->type >= 1 && x->type <= 7 ? (uint8_t)(1u << (x->type - 1)) : 0;
			for (int s = 0; s < FS_N; s++)
				if (x->s[s] && *x->s[s])
					add_words(&l, x->s[s], x->t0, last, type, (uint16_t)(1u << s));
		}
		facts_free(&f); /* (damaged facts read as none, as the walk reads them) */
	}
	if (l.oom) {
		free(l.v);
		return H2EMV_ENOMEM;
	}
	*n = merge(l.v, l.n);
	if (*n > TERMS_MAX || l.wordy) {
		/* (long free text, a log pasted into notes: its postings would
		 * outweigh the goal's record many times over) */
		eng_posting *v = realloc(l.v, 2 * sizeof *v);
		if (!v) {
			free(l.v);
			return H2EMV_ENOMEM;
		}
		l.v = v;
		v[0] = (eng_posting){ group_term(GROUP_OPEN), node->t_start, node->t_end, 0x7f, 1, 0 };
		/* (a placeholder stays one for the summaries above it) */
		v[1] = (eng_posting){ group_term(GROUP_FORGOTTEN), node->t_start, node->t_end, TYPE_GIST,
			                  1, ROLE_GIST };
		*n = node->kind == H2EMV_KIND_FORGOTTEN ? 2 : 1;
		if (*n == 2 && v[1].term < v[0].term) { /* (terms in order, as merge leaves them) */
			eng_posting t = v[0];
			v[0] = v[1];
			v[1] = t;
		}
	}
	*out = l.v;
	return H2EMV_OK;
}

int ridx_ensure(h2emv_mem *mem, h2emv_progress_fn progress, void *pctx, h2emv_error *err)
{
	eng_read *r;
	int rc = eng_read_begin(&r, mem->env, err);
	if (rc)
		return rc;
	int ready = eng_index_ready(r);
	eng_read_end(r);
	if (ready || eng_readonly(mem->env))
		return H2EMV_OK;
	return eng_index_rebuild(mem->env, progress, pctx, err);
}
