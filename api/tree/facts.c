/*
 * facts.c — typed facts (facts.h) on tree nodes: merged up the tree
 * lazily, written to the node payload, and one fact as a clause. A fact's
 * strings, key and slots are facts_base.c's; extraction from a scene is
 * facts_extract.c and facts_note.c, merging facts_merge.c, the payload
 * codec facts_codec.c; docs/formats.md "Typed facts" has the byte layout.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/tree/facts.h"
#include "api/tree/facts_internal.h"
#include "api/base/lex.h"
#include "api/config/profile.h"

/* ------------------------------------------------------ facts on nodes -- */

static int aggregate_now(tnode *p);

facts *facts_of(tnode *n)
{
	if (n->fx_stale) {
		n->fx_stale = 0;
		if (aggregate_now(n))
			return NULL;
	}
	if (n->fx)
		return n->fx;
	facts *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	if (n->kind != H2EMV_KIND_SCENE && n->payload_len &&
	    facts_payload_decode(f, n->payload, n->payload_len) == H2EMV_ENOMEM) {
		facts_free(f);
		free(f);
		return NULL;
	}
	/* a damaged facts list reads as none: the tree stays usable */
	n->fx = f;
	return f;
}

void facts_touch(tnode *n)
{
	n->fx_dirty = 1;
	tree_touch(n);
}

/* Encode [open, aux, facts] into the node's payload. */
static int write_payload(tnode *n, int open, uint64_t aux, const facts *f)
{
	eng_buf b = { 0 };
	int rc = facts_payload_encode(&b, open, aux, f);
	if (rc == H2EMV_OK)
		rc = tree_set_payload(n, b.data, b.len);
	eng_buf_free(&b);
	return rc;
}

int facts_set_head(tnode *n, int open, uint64_t aux)
{
	/* the facts are decoded first so that they survive; the payload gets
	 * only the head now and the facts at the next commit (facts_flush) */
	facts *f = facts_of(n);
	if (!f)
		return H2EMV_ENOMEM;
	int ext = n->payload_len >= 3 && (n->payload[0] == 0x92 || n->payload[0] == 0x93) &&
	          (n->payload[1] & 2);
	int rc = write_payload(n, (open ? 1 : 0) | (ext ? 2 : 0), aux, NULL);
	if (rc == H2EMV_OK && f->n)
		n->fx_dirty = 1;
	return rc;
}

int facts_flush(tnode *n)
{
	if (n->fx_stale && !facts_of(n))
		return H2EMV_ENOMEM;
	if (!n->fx_dirty || !n->fx)
		return H2EMV_OK;
	int open = 0;
	uint64_t aux = 0;
	if (n->payload_len && facts_payload_head(n->payload, n->payload_len, &open, &aux))
		open |= n->payload[1] & 2;
	int rc = write_payload(n, open, aux, n->fx);
	if (rc == H2EMV_OK)
		n->fx_dirty = 0;
	return rc;
}

/* Summaries are regrouped and re-summarised many times between commits:
 * their aggregate is made when it is next needed (facts_of, the commit). */
int facts_aggregate(tnode *p)
{
	p->fx_stale = 1;
	facts_touch(p);
	return H2EMV_OK;
}

static int aggregate_now(tnode *p)
{
	facts *f = facts_of(p);
	if (!f)
		return H2EMV_ENOMEM;
	facts_clear(f);
	for (uint32_t i = 0; i < p->n_kids; i++) {
		tnode *k = p->kids[i];
		if (k->kind == H2EMV_KIND_FORGOTTEN || k->kind == H2EMV_KIND_SCENE)
			continue;
		/* aggregates guide the search down; they never answer a detail on
		 * their own (the question path treats them as the gist of what was forgotten) */
		facts *kf = facts_of(k);
		if (!kf || facts_merge(f, kf, SIZE_MAX))
			return H2EMV_ENOMEM;
	}
	/* a summary keeps no notes: their words are the detail forgetting
	 * erases (a summary outlives its forgotten children) */
	size_t j = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].type == FT_NOTE)
			fact_free(&f->v[i]);
		else
			f->v[j++] = f->v[i];
	}
	f->n = j;
	facts_trim(f, FACTS_SUMMARY_MAX); /* once, not after every child */
	facts_touch(p);
	return H2EMV_OK;
}

int facts_extended(const tnode *n)
{
	return n->payload_len >= 3 && (n->payload[0] == 0x92 || n->payload[0] == 0x93) &&
	       (n->payload[1] & 2);
}

int facts_mark_extended(tnode *n)
{
	int open = 0;
	uint64_t aux = 0;
	if (n->kind == H2EMV_KIND_SCENE)
		return H2EMV_OK;
	if (!n->payload_len || !facts_payload_head(n->payload, n->payload_len, &open, &aux))
		open = 0, aux = 0;
	facts *f = facts_of(n);
	if (!f)
		return H2EMV_ENOMEM;
	int rc = write_payload(n, open | 2, aux, NULL);
	if (rc == H2EMV_OK && f->n)
		n->fx_dirty = 1;
	return rc;
}

double facts_grade(const facts *f)
{
	double people = 0, failed = 0;
	for (size_t i = 0; i < f->n; i++) {
		const fact *x = &f->v[i];
		if (x->type == FT_PERSON ||
		    (x->type == FT_SPEECH && x->s[FS_NAME] && !profile_is_self(NULL, x->s[FS_NAME])))
			people = 0.5;
		if ((x->type == FT_ACT || x->type == FT_TASK) &&
		    (x->status == FST_FAILED || x->status == FST_ABORTED))
			failed = 0.5;
	}
	return people + failed;
}

void facts_drop(tnode *n)
{
	if (n->fx) {
		facts_free(n->fx);
		free(n->fx);
		n->fx = NULL;
	}
	n->fx_dirty = 0;
}

/* ------------------------------------------------------------- display -- */

static void add(eng_buf *b, const char *s)
{
	if (s)
		eng_buf_append(b, s, strlen(s));
}

static void add_name(eng_buf *b, const char *id)
{
	if (!id)
		return;
	char d[160];
	if (lex_display(d, sizeof d, id, strlen(id)))
		add(b, d);
	else
		add(b, id);
}

int facts_render_one(eng_buf *b, const fact *f)
{
	size_t before = b->len;
	switch (f->type) {
	case FT_ACT:
		/* an event told in a note: the note says it all */
		if (f->s[FS_NAME] && f->s[FS_STATE] &&
		    !strncmp(f->s[FS_STATE], f->s[FS_NAME], strlen(f->s[FS_NAME]))) {
			add(b, f->s[FS_STATE]);
			if (f->s[FS_WHO] && !strstr(f->s[FS_STATE], f->s[FS_WHO])) {
				add(b, " (with ");
				add(b, f->s[FS_WHO]);
				add(b, ")");
			}
			if (f->status == FST_FAILED)
				add(b, " (failed)");
			break;
		}
		add(b, f->s[FS_NAME]);
		if (f->s[FS_OBJ]) {
			add(b, " ");
			add_name(b, f->s[FS_OBJ]);
		}
		if (f->s[FS_SRC]) {
			add(b, " from ");
			add_name(b, f->s[FS_SRC]);
		}
		if (f->s[FS_DST]) {
			add(b, " to ");
			add_name(b, f->s[FS_DST]);
		}
		if (f->s[FS_WHO]) {
			add(b, " with ");
			add(b, f->s[FS_WHO]);
		}
		if (f->s[FS_TEXT]) {
			add(b, " \"");
			add(b, f->s[FS_TEXT]);
			add(b, "\"");
		}
		if (f->s[FS_STATE]) {
			add(b, " (");
			add(b, f->s[FS_STATE]);
			add(b, ")");
		}
		if (f->status == FST_FAILED)
			add(b, " (failed)");
		else if (f->status == FST_ABORTED)
			add(b, " (aborted)");
		break;
	case FT_PERSON:
		add(b, "met ");
		add(b, f->s[FS_NAME]);
		break;
	case FT_SPEECH:
		if (f->s[FS_NAME]) {
			add(b, f->s[FS_NAME]);
			add(b, ": ");
		}
		add(b, "\"");
		add(b, f->s[FS_TEXT]);
		add(b, "\"");
		break;
	case FT_SEEN:
		add(b, "saw ");
		add_name(b, f->s[FS_NAME]);
		if (f->s[FS_STATE]) {
			add(b, " (");
			add(b, f->s[FS_STATE]);
			add(b, ")");
		}
		if (f->s[FS_PLACE]) {
			add(b, " at ");
			add_name(b, f->s[FS_PLACE]);
		}
		break;
	case FT_TASK:
		add(b, "the task ");
		add(b, f->s[FS_NAME]);
		if (f->status == FST_FAILED)
			add(b, " (failed)");
		break;
	case FT_PLACE:
		add(b, "at ");
		add(b, f->s[FS_PLACE]);
		break;
	case FT_NOTE:
		add(b, "noted \"");
		add(b, f->s[FS_TEXT]);
		add(b, "\"");
		break;
	}
	/* (a task's count is the scenes it ran over, not how often it ran) */
	if (f->count > 1 && f->type != FT_TASK) {
		char c[32];
		snprintf(c, sizeof c, " (%ux)", f->count);
		add(b, c);
	}
	return b->len > before ? H2EMV_OK : H2EMV_ENOMEM;
}
