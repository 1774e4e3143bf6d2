/*
 * builtin_span.c — what the digest (builtin_digest.c) and its readback of
 * the builtin's own summaries (builtin_readback.c) share: a digest's
 * actions and its freeing, and spans of a text (trimmed, a prefix, a
 * suffix, the next part outside brackets and quotes). It calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"

/* ------------------------------------------------------ acts, freeing -- */

void bi_digest_act(bi_digest *d, unsigned fam, const bi_words *args)
{
	if (d->lists_only)
		return;
	if (d->n_acts == d->cap_acts) {
		size_t cap = d->cap_acts ? d->cap_acts * 2 : 8;
		bi_act *v = realloc(d->acts, cap * sizeof *v);
		if (!v) {
			d->oom = 1;
			return;
		}
		d->acts = v;
		d->cap_acts = cap;
	}
	bi_act *a = &d->acts[d->n_acts++];
	memset(a, 0, sizeof *a);
	a->fam = fam;
	for (size_t i = 0; args && i < args->n; i++)
		bi_words_add(&a->args, args->v[i], strlen(args->v[i]));
	d->oom |= a->args.oom;
}

void bi_digest_free(bi_digest *d)
{
	bi_list_free(&d->labels);
	bi_list_free(&d->seen);
	bi_list_free(&d->places);
	bi_list_free(&d->persons);
	bi_list_free(&d->notes);
	for (size_t i = 0; i < d->n_acts; i++)
		bi_words_free(&d->acts[i].args);
	free(d->acts);
	bi_words_free(&d->words);
	memset(d, 0, sizeof *d);
}

/* ---------------------------------------------------------------- spans -- */

bi_span bi_trim(bi_span s)
{
	while (s.n && (*s.p == ' ' || *s.p == '\t' || *s.p == '\r')) {
		s.p++;
		s.n--;
	}
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t' || s.p[s.n - 1] == '\r'))
		s.n--;
	return s;
}

int bi_starts(bi_span s, const char *pfx)
{
	size_t k = strlen(pfx);
	return s.n >= k && !memcmp(s.p, pfx, k);
}

int bi_ends(bi_span s, const char *sfx)
{
	size_t k = strlen(sfx);
	return s.n >= k && !memcmp(s.p + s.n - k, sfx, k);
}

/* Cut the next part off `rest` at the first `sep` outside brackets and
 * quotes. 0 when nothing is left. */
int bi_next_part(bi_span *rest, const char *sep, bi_span *part)
{
	if (!rest->n)
		return 0;
	size_t k = strlen(sep);
	int depth = 0, quote = 0;
	for (size_t i = 0; i < rest->n; i++) {
		char c = rest->p[i];
		if (c == '"')
			quote = !quote;
		else if (!quote && (c == '(' || c == '[' || c == '{'))
			depth++;
		else if (!quote && (c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (!quote && !depth && (!k || c == sep[0]) && i + k <= rest->n &&
		         !memcmp(rest->p + i, sep, k)) {
			*part = bi_mk(rest->p, i);
			rest->p += i + k;
			rest->n -= i + k;
			return 1;
		}
	}
	*part = *rest;
	rest->p += rest->n;
	rest->n = 0;
	return 1;
}
