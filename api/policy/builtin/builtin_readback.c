/*
 * builtin_readback.c — reads the builtin's own summary grammar back
 * (builtin_summary.c writes it: "I did ...; saw ...; was in the ...; met
 * ...; heard N utterances; spanning ...") so that a summary above goals
 * keeps its children's entities, and keeps a free text's first sentence as
 * a note.
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"

#define NOTE_CHARS 80 /* a free-text note is cut to this at a word boundary */

void bi_digest_note(bi_digest *d, bi_span s)
{
	s = bi_trim(s);
	if (bi_starts(s, "I "))
		s = bi_trim(bi_mk(s.p + 2, s.n - 2));
	for (size_t i = 0; i + 1 < s.n; i++) /* the first sentence only */
		if (s.p[i] == '.' && s.p[i + 1] == ' ') {
			s.n = i;
			break;
		}
	int cut = 0;
	char *tmp = malloc(s.n + 1);
	if (!tmp) {
		d->oom = 1;
		return;
	}
	memcpy(tmp, s.p, s.n);
	tmp[s.n] = '\0';
	for (size_t i = 0; i < s.n; i++)
		if (tmp[i] == ';' || tmp[i] == '\n')
			tmp[i] = ',';
	size_t keep = pr_trim(tmp, 1, NOTE_CHARS, &cut);
	while (keep && (tmp[keep - 1] == '.' || tmp[keep - 1] == ','))
		keep--;
	if (keep)
		bi_list_add(&d->notes, tmp, keep, 1);
	if (keep && !d->lists_only) {
		bi_words w = { 0 };
		bi_words_of(&w, tmp, keep);
		unsigned fam = bi_families_of(tmp, keep);
		if (fam & BI_FAM_MEET)
			d->person = 1;
		bi_digest_act(d, fam, &w);
		bi_words_free(&w);
	}
	free(tmp);
}

static size_t parse_count(bi_span s)
{
	size_t v = 0;
	for (size_t i = 0; i < s.n && s.p[i] >= '0' && s.p[i] <= '9' && v < 1000000000; i++)
		v = v * 10 + (size_t)(s.p[i] - '0');
	return v;
}

/* One label read back: "Name (obj to tgt, type id)". */
static void read_label(bi_digest *d, bi_span l)
{
	l = bi_trim(l);
	if (!l.n)
		return;
	bi_list_add(&d->labels, l.p, l.n, 1);
	if (d->lists_only)
		return;
	bi_span name = l, objs = { NULL, 0 };
	if (bi_ends(l, ")")) {
		for (size_t i = 1; i < l.n; i++)
			if (l.p[i - 1] == ' ' && l.p[i] == '(') {
				name = bi_trim(bi_mk(l.p, i - 1));
				objs = bi_mk(l.p + i + 1, l.n - i - 2);
				break;
			}
	}
	bi_words w = { 0 };
	bi_words_of(&w, objs.p, objs.n);
	bi_words_of(&w, name.p, name.n);
	bi_digest_act(d, bi_families_of(name.p, name.n), &w);
	bi_words_free(&w);
}

/* One clause of "I did ...; saw ...; was in the ...; met ...; heard ...". */
static void read_clause(bi_digest *d, bi_span c)
{
	bi_span part;
	c = bi_trim(c);
	if (bi_starts(c, "did ")) {
		bi_span v = bi_mk(c.p + 4, c.n - 4);
		while (bi_next_part(&v, ", ", &part)) {
			part = bi_trim(part);
			/* "... and 3 more" on the last label */
			for (size_t i = 0; i + 5 <= part.n; i++)
				if (!memcmp(part.p + i, " and ", 5) && bi_ends(part, " more")) {
					bi_span num = bi_mk(part.p + i + 5, part.n - i - 5);
					if (num.n && num.p[0] >= '0' && num.p[0] <= '9') {
						d->more += parse_count(num);
						part.n = i;
						break;
					}
				}
			if (!(bi_starts(part, "and ") && bi_ends(part, " more")))
				read_label(d, part);
			else
				d->more += parse_count(bi_mk(part.p + 4, part.n - 4));
		}
	} else if (bi_starts(c, "saw ")) {
		bi_span v = bi_mk(c.p + 4, c.n - 4);
		while (bi_next_part(&v, ", ", &part))
			if ((part = bi_trim(part)).n)
				bi_list_add(&d->seen, part.p, part.n, 1);
	} else if (bi_starts(c, "was in the ")) {
		bi_span v = bi_mk(c.p + 11, c.n - 11);
		while (bi_next_part(&v, ", ", &part))
			if ((part = bi_trim(part)).n)
				bi_list_add(&d->places, part.p, part.n, 1);
	} else if (bi_starts(c, "met ")) {
		bi_span v = bi_mk(c.p + 4, c.n - 4);
		while (bi_next_part(&v, ", ", &part))
			if ((part = bi_trim(part)).n) {
				bi_list_add(&d->persons, part.p, part.n, 1);
				d->person = 1;
			}
	} else if (bi_starts(c, "heard ") && c.n > 6 && c.p[6] >= '0' && c.p[6] <= '9') {
		d->n_speech += parse_count(bi_mk(c.p + 6, c.n - 6));
	} else if (bi_starts(c, "spanning ") || bi_starts(c, "was idle")) {
		/* recomputed by whoever summarises again */
	} else {
		bi_digest_note(d, c);
	}
}

void bi_digest_sentences(bi_digest *d, const char *text)
{
	bi_span rest = bi_mk(text, strlen(text)), sent;
	while (bi_next_part(&rest, ". I ", &sent)) {
		sent = bi_trim(sent);
		if (bi_starts(sent, "I "))
			sent = bi_mk(sent.p + 2, sent.n - 2);
		while (sent.n && sent.p[sent.n - 1] == '.')
			sent.n--;
		bi_span c;
		while (bi_next_part(&sent, "; ", &c))
			read_clause(d, c);
	}
}
