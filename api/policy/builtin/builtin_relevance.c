/*
 * builtin_relevance.c — the builtin's relevance of an expired node: keep it
 * forever (INFINITY) when a rule matches it, else forget it (0).
 *
 * The matching rule.
 *  - Rules: every rule but the default one (index 0, about forgetting)
 *    that asks to keep something ("remember", "record", "retain", "keep",
 *    "note", "track", "never forget"; not "you don't need to ...", "you may
 *    forget ..."). Without rules (req->rules NULL) everything is forgotten.
 *  - A rule is read into clauses (builtin_words.c: split at "; ",
 *    " or when ", " or if ", ", or " ...). In a clause, stop words (always,
 *    remember, exact, time, where, when, you, the, location, ...) are
 *    dropped; verbs become action families (transport, bring, carry, put,
 *    move -> Pickup, Place, Transport, PutDown, Move ...; load; open;
 *    clean; cook; cut; pour; toggle); meeting words (meet, someone,
 *    person, people, human, talk) ask for a person; general words stand for
 *    object types ("valuable" -> key, wallet, phone, ...; "medicine" ->
 *    pill, ...); the remaining words are object words.
 *  - A clause matches the node when
 *      it asks for a person: the node shows one (a "Persons:" line, a
 *        speaker other than the robot, "met ..." in a summary, or meeting
 *        words in free text); and
 *      it has families: some action of the node (an Action, each entry of
 *        Actions, the Goal, a label of a summary) is of one of them AND,
 *        when the clause has object words, that action's objects (their
 *        ids and types) include one of them;
 *      or, without families, it has object words: any word of the node
 *        (objects, types, places, persons, goal, actions, speech, and the
 *        node's content words) is one of them.
 *  - A node of level >= 4 matches through the entities its summary carries
 *    from its children (builtin_summary.c keeps them, rule-mentioned ones
 *    first). The parent is context only and never matched.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"
#include "api/tree/facts.h"
#include "api/recall/recall.h"
#include "engine/engine.h"

static int clause_matches(const bi_clause *c, const bi_digest *d)
{
	if (c->person && !d->person)
		return 0;
	if (c->fam) {
		for (size_t i = 0; i < d->n_acts; i++)
			if ((d->acts[i].fam & c->fam) &&
			    (!c->objs.n || bi_words_meet(&c->objs, &d->acts[i].args)))
				return 1;
		return 0;
	}
	if (c->objs.n)
		return bi_words_meet(&c->objs, &d->words);
	return c->person;
}

/* 1 when a rule keeps the item, 0 when none does, -1 out of memory. */
static int any_rule_keeps(const pol_rules *rules, const pol_item *item)
{
	bi_digest d;
	memset(&d, 0, sizeof d);
	bi_digest_add(&d, item->text);
	if (item->content && item->content != item->text &&
	    (!item->text || strcmp(item->content, item->text)))
		bi_words_of(&d.words, item->content, strlen(item->content));
	int keep = d.oom || d.words.oom ? -1 : 0;
	for (size_t i = 0; !keep && i < rules->n; i++) {
		if (!rules->items[i] || bi_rule_is_default(rules, i))
			continue;
		bi_rule r;
		bi_rule_parse(&r, rules->items[i]);
		if (r.oom)
			keep = -1;
		for (size_t c = 0; !keep && r.keep && c < r.n; c++)
			keep = clause_matches(&r.c[c], &d);
		/* the typed facts, in any robot's words */
		if (!keep && r.keep && item->facts)
			keep = recall_rule_keeps(rules->items[i], item->facts);
		bi_rule_free(&r);
	}
	bi_digest_free(&d);
	return keep;
}

int bi_relevance(void *ctx, const pol_relevance_req *req, double *alpha, pol_usage *u,
                 h2emv_error *err)
{
	(void)ctx;
	if (!alpha)
		return eng_fail(err, H2EMV_EINVAL, "relevance: no output");
	*alpha = 0;
	pr_prompt p;
	int rc = pr_relevance(&p, req, err);
	if (rc)
		return rc;
	int keep = req->rules ? any_rule_keeps(req->rules, req->item) : 0;
	if (keep < 0) {
		pr_prompt_free(&p);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	/* no rule keeps it: people, speech and failures still lengthen the life
	 * of a goal or an event, once (api/forget.c) */
	*alpha = keep ? INFINITY
	         : req->item->facts && req->item->level <= 3 ? facts_grade(req->item->facts)
	                                                    : 0;
	char said[32];
	snprintf(said, sizeof said, "Relevance: %s", keep ? "inf" : *alpha > 0.75 ? "1" : *alpha > 0 ? "0.5" : "0");
	bi_usage(u, &p, said);
	pr_prompt_free(&p);
	return H2EMV_OK;
}
