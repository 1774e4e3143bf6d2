/*
 * policy.c — what every policy shares: freeing the results it returns.
 */
#include <stdlib.h>

#include "api/policy/policy.h"

void pol_groups_free(pol_group_reply *r)
{
	for (size_t i = 0; r && i < r->n; i++)
		free(r->groups[i].summary);
	if (r) {
		free(r->groups);
		r->groups = NULL;
		r->n = 0;
	}
}

void pol_rule_list_free(pol_rule_list *l)
{
	for (size_t i = 0; l && i < l->n; i++)
		free(l->items[i]);
	if (l) {
		free(l->items);
		l->items = NULL;
		l->n = 0;
	}
}

void pol_qa_action_free(pol_qa_action *a)
{
	if (!a)
		return;
	free(a->ids);
	free(a->text);
	a->ids = NULL;
	a->text = NULL;
	a->n_ids = 0;
}

void pol_free(h2emv_policy *p)
{
	if (!p)
		return;
	if (p->destroy)
		p->destroy(p->ctx);
	free(p);
}
