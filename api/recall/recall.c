/*
 * recall.c — answering a question from typed facts (recall.h): retrieval
 * over one snapshot, restricted to the question's time scope, ranked by how
 * well a fact's words and verb match the question's; then the answer by
 * the role the question asks for.
 *
 * Goals (L3) are where facts are read: a goal's facts gather all of its
 * scenes'. Summaries above are opened only when their aggregated facts name
 * something asked for (or were trimmed); a summary whose children were
 * partly forgotten offers its own aggregated facts as coarser evidence.
 * Cost is counted the way an agent reading these facts would pay: a few
 * tokens per node looked at, and the rendered text of every matching fact.
 *
 * The steps live in the recall_*.c files (recall_internal.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/base/timefmt.h"
#include "api/tree/facts.h"
#include "api/mem/mem.h"
#include "api/config/profile.h"
#include "api/recall/recall.h"
#include "api/recall/recall_index.h"
#include "api/base/wordnet.h"
#include "api/tree/scene.h"
#include "api/base/utf8.h"
#include "api/recall/recall_internal.h"

/* Did a typed fact match every word asked? */
static int typed_complete(const rctx *x)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->c[i].complete && !x->c[i].coarse)
			return 1;
	return 0;
}

/* Does a typed candidate name the thing asked for: for a count, the thing
 * counted ("how many workers were on site": actions that share only the
 * site count no workers); for "which prop was missing", a prop in its own
 * slots, not only in a failure's reason? 1 for any other question. */
static int typed_names_asked(const rctx *x, const rquestion *q)
{
	if (q->kind == RQ_WHICH && q->category >= 0 && !q->value) {
		for (size_t i = 0; i < x->n; i++) {
			const fact *f = x->c[i].f;
			if (x->c[i].complete && !x->c[i].coarse &&
			    ((f->status != FST_FAILED && f->status != FST_ABORTED) ||
			     slot_holds(f, &q->term[q->category])))
				return 1;
		}
		return 0;
	}
	if (q->kind != RQ_COUNT || q->category < 0)
		return 1;
	/* (the word itself: a check_temp's "temp" is a worker only to WordNet) */
	rq_term t = q->term[q->category];
	t.kind = 0;
	for (size_t i = 0; i < x->n; i++)
		if (!x->c[i].coarse && fact_holds(q, x->c[i].f, &t))
			return 1;
	return 0;
}

/* Does the best of the evidence say how many of the thing asked ("17
 * workers signed in", "I am here with 24 pupils")? */
static int states_count(const rctx *x, const rquestion *q)
{
	const cand *c = best_evidence(x);
	char n[2 * LEX_WORD_MAX + 24];
	return c && stated_count(c->f->s[FS_TEXT], q, n, sizeof n);
}

/* Does f's own text (a note, words said) hold a word of the question's
 * (a term that is not the verb)? */
static int text_holds(const fact *f, const rquestion *q)
{
	for (size_t i = 0; i < q->n_term; i++)
		if ((int)i != q->verb && word_in_text(f->s[FS_TEXT], &q->term[i]))
			return 1;
	return 0;
}

/* When no typed fact answered, or none matched every word asked, read the
 * notes and the words said for the question's words: a note or an
 * utterance that holds them all ("Belt 3 jammed at 14:10") answers
 * instead of a fact that shares only a noun with the question. */
static int weigh_evidence(rctx *x, rquestion *q)
{
	/* (a "why" is told in a note or in words, not by the action itself) */
	int counted = typed_names_asked(x, q);
	if (x->n && typed_complete(x) && !q->why && counted)
		return H2EMV_OK;
	size_t n = x->n;
	cand *kept = NULL;
	if (n && !(kept = malloc(n * sizeof *kept)))
		return eng_fail(x->err, H2EMV_ENOMEM, "out of memory");
	if (n)
		memcpy(kept, x->c, n * sizeof *kept);
	rquestion ev = *q;
	ev.evidence = 1;
	int forgot = x->forgot;
	h2emv_ref forgot_ref = x->forgot_ref;
	int rc = collect(x, &ev);
	x->q = q;
	/* over a typed fact, only the robot's own record: its note or its own
	 * words (someone else's words about an event are not the event) */
	/* (its own text holding the words asked, not only its place: "why
	 * did you stop on row 22" is not the robot's words said there) */
	int own = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < x->n && !own; i++)
		own = x->c[i].complete && !x->c[i].coarse &&
		      (x->c[i].f->type == FT_NOTE || x->c[i].me) && text_holds(x->c[i].f, q);
	int better = rc == H2EMV_OK && x->n && (!n || own || (!counted && states_count(x, &ev)));
	if (better) {
		*q = ev;
	} else if (rc == H2EMV_OK) {
		/* (what the evidence walk met forgotten is not what was asked) */
		x->forgot = forgot;
		x->forgot_ref = forgot_ref;
		if (n > x->cap) { /* (collect found fewer: the array holds n) */
			free(kept);
			return eng_fail(x->err, H2EMV_ECORRUPT, "recall: candidates lost");
		}
		if (n)
			memcpy(x->c, kept, n * sizeof *kept);
		x->n = n;
	}
	free(kept);
	return rc;
}

/* Nothing answered, not even a note or words: the action record that
 * holds most of the question's words (at least half of them, the verb
 * not needed), quoted as the closest thing remembered, rather than
 * nothing ("how much did Lucia pay": the hand-over that names her and
 * what she paid). Not for yes / no, counts or steps, where nothing is an
 * answer. */
static int closest_record(rctx *x, rquestion *q)
{
	rquestion ev = *q;
	ev.evidence = 2;
	int rc = collect(x, &ev);
	x->q = q;
	if (rc == H2EMV_OK && x->n)
		*q = ev;
	return rc;
}

/* "Is the compressor back in service?", "was the pallet in aisle 9
 * moved?": no deed of the robot's says so, but a note that holds every
 * word asked does ("... serviced by Luis: back in service"). Yes, quoted.
 * Not words said (a request, "can someone warm up my coffee?", is no
 * deed), nor a note that asks, negates ("not", "never") or plans. */
static int yes_from_record(rctx *x, rquestion *q)
{
	rquestion ev = *q;
	ev.evidence = 1;
	int forgot = x->forgot;
	h2emv_ref forgot_ref = x->forgot_ref;
	int rc = collect(x, &ev);
	x->q = q;
	size_t j = 0;
	for (size_t i = 0; rc == H2EMV_OK && i < x->n; i++) {
		const char *t = x->c[i].f->s[FS_TEXT];
		lex_word w[48];
		size_t k = t ? lex_split(t, strlen(t), w, 48) : 0;
		int neg = x->c[i].f->type != FT_NOTE || !t || strchr(t, '?');
		for (size_t m = 0; m < k && m < 48 && !neg; m++)
			neg = !strcmp(w[m].w, "not") || !strcmp(w[m].w, "t") || !strcmp(w[m].w, "never") ||
			      !strcmp(w[m].w, "no") || !strcmp(w[m].w, "without") ||
			      !strcmp(w[m].w, "will") || !strcmp(w[m].w, "tomorrow") ||
			      !strcmp(w[m].w, "planned") || !strcmp(w[m].w, "scheduled");
		if (x->c[i].complete && x->c[i].coarse != 1 && !neg) /* (a gist keeps the note whole) */
			x->c[j++] = x->c[i];
	}
	x->n = rc == H2EMV_OK ? j : x->n;
	if (rc == H2EMV_OK && x->n) {
		*q = ev;
	} else {
		x->forgot = forgot;
		x->forgot_ref = forgot_ref;
	}
	return rc;
}

static void trace_question(rctx *x)
{
	static const char *const kinds[] = { "what did you do", "when", "what day", "where",
		                                 "where from", "who", "what was said", "what was seen",
		                                 "which", "how many", "did you", "what failed",
		                                 "how long", "what steps", "whereabouts" };
	const rquestion *q = x->q;
	pr_str_addf(&x->trace, "question: kind %s%s, order %s", kinds[q->kind],
	            q->plural ? " (all of them)" : "",
	            q->order == RO_FIRST ? "first" : q->order == RO_NTH ? "n-th" : "last");
	if (q->t1) {
		char a[40], b[40];
		pr_str_addf(&x->trace, ", between %s and %s", emv_fmt_datetime(a, sizeof a, q->t0),
		            emv_fmt_datetime(b, sizeof b, q->t1));
	}
	pr_str_adds(&x->trace, ", words:");
	for (size_t i = 0; i < q->n_term; i++)
		pr_str_addf(&x->trace, " %s%s%s%s%s", q->term[i].stem,
		            (int)i == q->verb ? "(verb)" : "", (int)i == q->person ? "(name)" : "",
		            (int)i == q->category ? "(kind asked)" : "",
		            (int)i == q->key ? "(key)" : "");
	pr_str_adds(&x->trace, "\n");
}

/* The candidates for the question: what was seen or done during or
 * around a moment, the walk, then the question relaxed step by step
 * while nothing matched. */
static int retrieve(rctx *x, rquestion *q, const h2emv_node *root, int trace, h2emv_error *err)
{
	int rc = seen_during(x, q);
	if (rc == H2EMV_OK)
		rc = steps_during(x, q);
	if (rc == H2EMV_OK && q->anchor >= 0)
		rc = around_moment(x, q);
	if (rc == H2EMV_OK)
		rc = walk(x, root, 0, err);
	if (rc == H2EMV_OK && !x->forgot)
		rc = trouble_during(x, q, root, err);
	if (rc == H2EMV_OK && !x->forgot)
		rc = count_by_verb(x, q, root, err);
	if (rc == H2EMV_OK && !x->n && !x->forgot && q->weekday)
		rc = earlier_weekday(x, q, root, err);
	if (rc == H2EMV_OK && !x->n && !x->forgot)
		rc = by_kinds(x, q, root, err);
	if (rc == H2EMV_OK && !x->n && !x->forgot)
		rc = relax(x, q, root, err);
	if (rc == H2EMV_OK && !x->n && !x->forgot)
		rc = key_first(x, q, root, err);
	if (rc == H2EMV_OK && !x->n && !x->forgot)
		rc = failed_after_request(x, q, root, err);
	/* "what did the farmer say": when no speaker is called so, the
	 * farmer is someone the robot does not know by that word — anyone
	 * but the robot itself */
	if (rc == H2EMV_OK && !x->n && q->kind == RQ_SAID && q->person >= 0 &&
	    !q->term[q->person].cap && !q->self_speaker) {
		/* people say what they are ("I am the community nurse"):
		 * first the role among the words said, then anyone — only
		 * with a time or other words to narrow it: "what did the
		 * doctor say", with nothing else, is not anything anyone
		 * said */
		rquestion role = *q;
		role.person = -1;
		role.others_speak = 1;
		rc = collect(x, &role);
		x->q = q; /* (role lives in this block) */
		if (rc == H2EMV_OK && x->n) {
			*q = role;
			x->q = q;
			if (trace)
				pr_str_adds(&x->trace, "no speaker is called so: who said the word\n");
		} else if (rc == H2EMV_OK && (q->t1 || q->n_term > 1)) {
			drop_term(q, (size_t)q->person);
			q->others_speak = 1;
			if (trace)
				pr_str_adds(&x->trace, "no speaker is called so: anyone but me\n");
			rc = collect(x, q);
		}
	}
	return rc;
}

/* The offset the robot's newest scene was written in (minutes east of
 * UTC; 0 when it wrote UTC or the newest leaf is not a scene): the days
 * and hours a question names are its local ones. */
static int robot_zone(h2emv_snap *snap)
{
	h2emv_snap_info info;
	const h2emv_node *n = NULL;
	h2emv_snap_get_info(&info, snap);
	if (!info.root.id || h2emv_snap_root(&n, snap, NULL) != H2EMV_OK)
		return 0;
	for (int depth = 0; depth < 64 && h2emv_node_kind(n) != H2EMV_KIND_SCENE; depth++) {
		size_t k = h2emv_node_child_count(n);
		if (!k || h2emv_node_child(&n, snap, n, k - 1, NULL) != H2EMV_OK)
			return 0;
	}
	size_t len;
	const void *p = h2emv_node_payload(n, &len);
	scene s;
	if (h2emv_node_kind(n) != H2EMV_KIND_SCENE || !p || !len ||
	    scene_decode(&s, p, len, NULL) != H2EMV_OK)
		return 0;
	int zone = s.utc_offset;
	scene_free(&s);
	return zone;
}

int recall_answer(h2emv_answer **out, h2emv_mem *mem, h2emv_snap *snap, const char *question,
                  int64_t now, uint64_t max_tokens, int trace, h2emv_error *err)
{
	rquestion q;
	rq_parse_zone(&q, question, now, robot_zone(snap));
	robot_profile *prof = NULL;
	int rc = profile_load(&prof, mem->env, err);
	if (rc)
		return rc;
	q.prof = prof;
	rctx x = { 0 };
	x.q = &q;
	x.snap = snap;
	x.prof = prof;
	x.now = now;
	x.budget = max_tokens ? max_tokens : 20000;
	x.tokens = strlen(question) / 4 + 8;
	x.want_trace = trace;
	h2emv_config cfg;
	if (h2emv_config_get(&cfg, mem, NULL) == H2EMV_OK)
		x.tasks = cfg.profile != H2EMV_PROFILE_SKILL_STACK;
	h2emv_snap_info info;
	h2emv_snap_get_info(&info, snap);
	if (ridx_open(&x.ix, snap)) {
		profile_free(prof);
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	}
	if (trace)
		trace_question(&x);
	const h2emv_node *root = NULL;
	if (info.root.id) {
		rc = h2emv_snap_root(&root, snap, err);
		x.root = root;
		x.err = err;
		x.early = !q.most && (q.order == RO_LAST || q.order == RO_FIRST) &&
		          (q.kind == RQ_WHEN || q.kind == RQ_WHERE || q.kind == RQ_FROM ||
		           (q.kind == RQ_WHICH && !q.plural && !q.extreme) ||
		           (q.kind == RQ_DAY && !q.plural) || (q.kind == RQ_SAID && !q.t1 && q.order_said));

		if (rc == H2EMV_OK)
			rc = retrieve(&x, &q, root, trace, err);
	}
	/* (over forgotten time, only when nothing answered: a note a gist
	 * kept, "Ravi Menon asked for a reading every hour", is read then) */
	if (rc == H2EMV_OK && root && (!x.forgot || !x.n) && q.kind != RQ_YESNO && q.n_term &&
	    q.kind != RQ_STEPS)
		rc = weigh_evidence(&x, &q);
	if (rc == H2EMV_OK && root && !x.forgot && !x.n && q.kind != RQ_YESNO &&
	    q.kind != RQ_COUNT && q.kind != RQ_STEPS && q.n_term)
		rc = closest_record(&x, &q);
	if (rc == H2EMV_OK && root && !x.n && q.kind == RQ_YESNO && q.n_term)
		rc = yes_from_record(&x, &q);
	h2emv_answer *a = NULL;
	pr_str b = { 0 };
	if (rc == H2EMV_OK && !x.fact_nodes && !x.n)
		rc = RECALL_NO_FACTS; /* a tree built before typed facts */
	if (rc == H2EMV_OK && !(a = calloc(1, sizeof *a)))
		rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
	if (rc == H2EMV_OK) {
		answer_text(&x, &b, a);
		if (x.tokens > x.budget)
			x.tokens = x.budget;
		a->snapshot = info.seq;
		a->rounds = 1;
		/* the budget covers the answer too: a long list is cut short */
		if (x.tokens > x.budget / 2 && b.len / 4 + 1 > x.budget - x.tokens)
			x.tokens = x.budget / 2;
		uint64_t room = x.budget - x.tokens;
		if (b.s && b.len / 4 + 1 > room && room >= 2) {
			size_t keep = utf8_cut(b.s, (size_t)(room - 1) * 4 - 4);
			b.len = keep;
			b.s[keep] = 0;
			pr_str_adds(&b, " ...");
		}
		a->tokens.prompt = x.tokens;
		a->tokens.completion = b.len / 4 + 1;
		a->tokens.calls = 1;
		if (trace) {
			pr_str_addf(&x.trace, "read %zu matching facts%s; answer \"%s\"\n", x.n,
			            x.cut ? " (stopped at the token budget)" : "", b.s ? b.s : "");
			a->trace = pr_str_take(&x.trace);
		}
		a->text = pr_str_take(&b);
		if (!a->text || b.oom || x.trace.oom || (trace && !a->trace)) {
			h2emv_answer_free(a);
			a = NULL;
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		}
	}
	pr_str_free(&b);
	pr_str_free(&x.trace);
	for (size_t i = 0; i < x.n_sets; i++) {
		facts_free(x.sets[i]);
		free(x.sets[i]);
	}
	free(x.sets);
	free(x.c);
	ridx_close(x.ix);
	profile_free(prof);
	*out = a;
	return rc;
}
