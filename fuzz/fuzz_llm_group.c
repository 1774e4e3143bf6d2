/*
 * fuzz_llm_group.c — libFuzzer target for lp_group, the reply to the
 * grouping prompt. The first four bytes make the request (how many items,
 * how many are new, where the previous groups end); the rest is the reply.
 *  - A reply that parses must give a partition of every item, in order,
 *    with non-empty summaries; a previous group kept under its summary
 *    keeps exactly its range (none is cut).
 *  - That partition, written back as a reply ({"hi-lo": summary} for every
 *    group the reply made), must parse to the identical partition
 *    (decode(encode(x)) == x).
 *  - A reply that does not parse must fail with EPARSE, ELIMIT or ENOMEM, a
 *    non-empty UTF-8 message and empty outputs.
 * Any violation traps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/policy/llm/llm_parse.h"
#include "api/policy/prompts.h"
#include "api/base/utf8.h"

#define MAX_ITEMS 16

typedef struct fix {
	pol_item items[MAX_ITEMS];
	pol_group old[MAX_ITEMS];
	char sum[MAX_ITEMS][24];
	pol_group_req req;
} fix;

static void make_req(fix *f, const uint8_t *d)
{
	memset(f, 0, sizeof *f);
	size_t n = d[0] % (MAX_ITEMS + 1);
	size_t n_new = n ? d[1] % (n + 1) : 0, n_old_items = n - n_new;
	unsigned cuts = (unsigned)d[2] | (unsigned)d[3] << 8;
	for (size_t i = 0; i < n; i++) {
		f->items[i].text = "item";
		f->items[i].t_start = (int64_t)i * 60000000;
		f->items[i].t_end = f->items[i].t_start + 1000000;
	}
	size_t first = 0;
	for (size_t i = 0; i < n_old_items; i++)
		if (i + 1 == n_old_items || (cuts >> i & 1)) {
			pol_group *g = &f->old[f->req.n_old];
			snprintf(f->sum[f->req.n_old], sizeof f->sum[0], "old group %zu ", f->req.n_old);
			g->first = first;
			g->last = i;
			g->summary = f->sum[f->req.n_old];
			f->req.n_old++;
			first = i + 1;
		}
	f->req.items = f->items;
	f->req.n_items = n;
	f->req.n_new = n_new;
	f->req.old_groups = f->old;
	f->req.level = 2;
}

static void check_error(int rc, const h2emv_error *err, const pol_group_reply *out)
{
	if (rc != H2EMV_EPARSE && rc != H2EMV_ELIMIT && rc != H2EMV_ENOMEM)
		__builtin_trap();
	size_t n = strlen(err->message);
	if (err->status != rc || !n || n >= sizeof err->message || !utf8_valid(err->message, n))
		__builtin_trap();
	if (out->groups || out->n)
		__builtin_trap();
}

static void check_partition(const fix *f, const pol_group_reply *r)
{
	size_t next = 0;
	for (size_t i = 0; i < r->n; i++) {
		const pol_group *g = &r->groups[i];
		if (g->first != next || g->last < g->first || !g->summary || !*g->summary)
			__builtin_trap();
		size_t len = strlen(g->summary);
		if (len > LP_MAX_SUMMARY || !utf8_valid(g->summary, len))
			__builtin_trap();
		next = g->last + 1;
	}
	if (next != f->req.n_items)
		__builtin_trap();
	/* A previous group's summary ends in a space, which no summary read
	 * from a reply does (they are trimmed): a group with such a summary is
	 * a copy and must have exactly its previous group's range. */
	for (size_t i = 0; i < r->n; i++) {
		const pol_group *g = &r->groups[i];
		size_t len = strlen(g->summary);
		if (g->summary[len - 1] != ' ')
			continue;
		size_t k = 0;
		while (k < f->req.n_old && strcmp(f->old[k].summary, g->summary) != 0)
			k++;
		if (k == f->req.n_old || f->old[k].first != g->first || f->old[k].last != g->last)
			__builtin_trap();
	}
}

static int is_copy(const pol_group *g)
{
	return g->summary[strlen(g->summary) - 1] == ' ';
}

/* The partition written back as a reply: every group the reply made (the
 * copies stay untouched, so they are copied again). */
static char *render(const pol_group_reply *r, size_t n)
{
	pr_str b = { 0 };
	int any = 0;
	pr_str_adds(&b, "Reasoning: again.\nJSON: {");
	for (size_t i = 0; i < r->n; i++) {
		char key[48];
		if (is_copy(&r->groups[i]))
			continue;
		pr_range_key(key, sizeof key, r->groups[i].first, r->groups[i].last, n);
		pr_str_addf(&b, "%s\"%s\": \"", any++ ? ", " : "", key);
		pr_str_add_json(&b, r->groups[i].summary);
		pr_str_adds(&b, "\"");
	}
	pr_str_adds(&b, "}");
	return pr_str_take(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	fix f;
	make_req(&f, data);
	char *reply = malloc(size - 4 + 1);
	if (!reply)
		return 0;
	memcpy(reply, data + 4, size - 4);
	reply[size - 4] = '\0';
	pol_group_reply r;
	h2emv_error err = { 0 };
	int rc = lp_group(reply, &f.req, &r, &err);
	free(reply);
	if (rc) {
		check_error(rc, &err, &r);
		return 0;
	}
	check_partition(&f, &r);
	char *again = render(&r, f.req.n_items);
	if (!again)
		__builtin_trap();
	pol_group_reply r2;
	if (lp_group(again, &f.req, &r2, &err) != H2EMV_OK || r2.n != r.n)
		__builtin_trap();
	for (size_t i = 0; i < r.n; i++)
		if (r2.groups[i].first != r.groups[i].first || r2.groups[i].last != r.groups[i].last ||
		    strcmp(r2.groups[i].summary, r.groups[i].summary) != 0)
			__builtin_trap();
	free(again);
	pol_groups_free(&r);
	pol_groups_free(&r2);
	return 0;
}
