/*
 * judge.c — the judge's entry points (judge.h): check the arguments, read
 * the three texts, recognise answers that give none, decide what kind of
 * question it is and hand over to that kind's grading.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/eval/judge_int.h"
#include "h2emv.h"

static const char *const fine_names[J_FINE_COUNT] = { "correct", "correct_summarized",
	"correct_tmi", "partially_correct_tmi", "partially_correct_missing", "wrong",
	"no_answer" };

const char *judge_fine_name(int fine)
{
	return fine >= 0 && fine < J_FINE_COUNT ? fine_names[fine] : "?";
}

int judge_fine_parse(const char *name)
{
	for (int i = 0; name && i < J_FINE_COUNT; i++)
		if (!strcmp(name, fine_names[i]))
			return i;
	return -1;
}

int judge_broad(int fine)
{
	switch (fine) {
	case J_CORRECT:
	case J_CORRECT_SUMMARIZED:
	case J_CORRECT_TMI:
		return J_BROAD_CORRECT;
	case J_PARTIAL_TMI:
	case J_PARTIAL_MISSING:
		return J_BROAD_PARTIAL;
	default:
		return J_BROAD_WRONG;
	}
}

const char *judge_broad_name(int broad)
{
	static const char *const names[] = { "correct", "partially_correct", "wrong" };
	return broad >= 0 && broad < J_BROAD_COUNT ? names[broad] : "?";
}

const char *judge_kind_name(int kind)
{
	static const char *const names[] = { "time", "date", "days_ago", "objects", "steps",
		"first_step", "place", "object", "person", "yesno", "free" };
	return kind >= 0 && kind < JK_COUNT ? names[kind] : "?";
}

static size_t bounded_len(const char *s)
{
	size_t n = 0;
	while (s && n < JUDGE_MAX_TEXT && s[n])
		n++;
	return n;
}

static int any_phrase(const jd_text *x, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (jd_has_phrase(x->s, x->n, list[i]))
			return 1;
	return 0;
}

/* Does the answer refuse, say it forgot or that it has no record? For
 * questions other than yes / no, "I never did" says the same. */
static int refuses(const jd_text *a, int yesno)
{
	static const char *const always[] = { "forgotten", "forgot", "don't know", "do not know",
		"dont know", "don\xe2\x80\x99t know", "don't remember", "do not remember",
		"dont remember", "don\xe2\x80\x99t remember", "can't remember", "cannot remember",
		"can not remember", "no record", "no information", "no info ", "no memory",
		"no recollection", "not in my memory", "could not find", "couldn't find",
		"cannot find", "can't find", "unable to", "not able to", "cannot answer",
		"can't answer", "cannot determine", "can't determine", "cannot tell", "can't tell",
		"no mention", "not mentioned", "not available", "no data", "not sure", "no idea",
		"i have no", "not recorded", "not detailed", "not specified", "no details",
		"sorry", "error", "n/a", NULL };
	static const char *const unless_yesno[] = { "never", "i did not", "i didn't",
		"i have not", "i haven't", "no such", "there is no", "there are no", "there was no",
		"there were no", NULL };
	return any_phrase(a, always) || (!yesno && any_phrase(a, unless_yesno));
}

static int has(const jd_text *x, const char *const *list)
{
	return any_phrase(x, list);
}

/* The first word of a text, lower-case. */
static const char *first_word(const jd_text *x)
{
	return x->nt ? x->t[0].w : "";
}

static int truth_is_yesno(const jd_text *t)
{
	static const char *const yn[] = { "yes", "no", NULL };
	return jd_in(first_word(t), yn);
}

static int classify(jd_work *w)
{
	static const char *const days_ago[] = { "how many days ago", "how long ago", NULL };
	static const char *const day[] = { "at what day", "at which day", "on what day",
		"on which day", "what day", "which day", "what date", "which date", "which days",
		"at which days", NULL };
	static const char *const first_step[] = { "first step", "first action",
		"first thing you did", NULL };
	static const char *const steps[] = { "what steps", "which steps", "what actions",
		"which actions", "steps did you", NULL };
	static const char *const objects[] = { "what objects", "which objects", "what things",
		"which things", "what items", "which items", "what did you see",
		"what else did you see", NULL };
	static const char *const when[] = { "when did", "when was", "when were", "when have",
		"when had", "at what time", "what time", "at which time", NULL };
	static const char *const where[] = { "where", "what location", "which location",
		"what place", "which place", NULL };
	static const char *const which[] = { "which object", "what object", "which item",
		"what item", "which thing", "what thing", NULL };
	static const char *const who[] = { "who ", "whom", "which person", "what person",
		"which people", NULL };
	const jd_text *q = &w->q, *t = &w->t;
	if (truth_is_yesno(t))
		return JK_YESNO;
	if (has(q, days_ago))
		return JK_DAYS_AGO;
	if (has(q, first_step))
		return JK_FIRST_STEP;
	if (has(q, day))
		return JK_DATE;
	if (has(q, steps))
		return JK_STEPS;
	if (has(q, objects))
		return JK_OBJECTS;
	jd_find_whens(&w->w1, t->s, t->n, w->c->asked_at, 0);
	int t_time = 0, t_day = 0;
	for (size_t i = 0; i < w->w1.n; i++) {
		t_time |= w->w1.v[i].has_time && w->w1.v[i].day != INT64_MIN;
		t_day |= w->w1.v[i].day != INT64_MIN;
	}
	if (has(q, when) || !strcmp(first_word(q), "when"))
		return t_day && !t_time ? JK_DATE : JK_TIME;
	if (has(q, which))
		return JK_OBJECT;
	if (has(q, where))
		return JK_PLACE;
	if (has(q, who))
		return JK_PERSON;
	/* by the shape of the truth */
	if (t_time)
		return JK_TIME;
	if (t_day)
		return JK_DATE;
	if (t->nt >= 2 && !strcmp(t->t[0].w, "at") && !strcmp(t->t[1].w, "the"))
		return JK_PLACE;
	if (t->nt >= 2 && t->nt <= 5 && !strcmp(t->t[0].w, "the"))
		return JK_OBJECT;
	return JK_FREE;
}

/* Times outside the years 0 to 9999 are taken as unknown (0): no
 * arithmetic on them can overflow. */
static int64_t sane_time(int64_t t)
{
	return t < -62167219200LL * 1000000 || t > 253402300799LL * 1000000 ? 0 : t;
}

static int empty_text(const jd_text *x)
{
	return x->nt == 0;
}

static void fill(judge_verdict *out, int fine, int kind, const char *why)
{
	out->fine = fine;
	out->broad = judge_broad(fine);
	out->kind = kind;
	size_t n = strlen(why);
	if (n >= sizeof out->why)
		n = sizeof out->why - 1;
	memcpy(out->why, why, n);
	out->why[n] = '\0';
}

static int grade(jd_work *w, int kind)
{
	switch (kind) {
	case JK_TIME:
		return jd_grade_time(w);
	case JK_DATE:
		return jd_grade_date(w);
	case JK_DAYS_AGO:
		return jd_grade_days_ago(w);
	case JK_OBJECTS:
	case JK_PERSON:
		return jd_grade_objects(w, kind);
	case JK_STEPS:
		return jd_grade_steps(w, 0);
	case JK_FIRST_STEP:
		return jd_grade_steps(w, 1);
	case JK_PLACE:
	case JK_OBJECT:
		return jd_grade_single(w, kind);
	case JK_YESNO:
		return jd_grade_yesno(w);
	default:
		return jd_grade_free(w);
	}
}

int judge_grade(judge_verdict *out, const judge_case *c, const judge_options *opt)
{
	if (!out)
		return H2EMV_EINVAL;
	fill(out, J_NO_ANSWER, JK_FREE, "not judged");
	if (!c || (opt && (opt->version != JUDGE_OPTIONS_VERSION || opt->time_tolerance_us < 0 ||
	                   opt->partial_tolerance_us < 0))) {
		fill(out, J_NO_ANSWER, JK_FREE, "bad arguments");
		return H2EMV_EINVAL;
	}
	jd_work *w = malloc(sizeof *w);
	if (!w) {
		fill(out, J_NO_ANSWER, JK_FREE, "out of memory");
		return H2EMV_ENOMEM;
	}
	judge_case cc = *c;
	cc.ref_t0 = sane_time(c->ref_t0);
	cc.ref_t1 = sane_time(c->ref_t1);
	cc.asked_at = sane_time(c->asked_at);
	w->c = &cc;
	w->tol = opt && opt->time_tolerance_us ? opt->time_tolerance_us : JUDGE_DEFAULT_TOLERANCE_US;
	w->ptol = opt && opt->partial_tolerance_us ? opt->partial_tolerance_us :
	                                             JUDGE_DEFAULT_PARTIAL_US;
	if (w->ptol < w->tol)
		w->ptol = w->tol;
	w->why[0] = '\0';
	jd_tokenize(&w->q, c->question ? c->question : "", bounded_len(c->question), w->tq);
	jd_tokenize(&w->t, c->truth ? c->truth : "", bounded_len(c->truth), w->tt);
	jd_tokenize(&w->a, c->answer ? c->answer : "", bounded_len(c->answer), w->ta);
	int kind = classify(w);
	jd_find_items(&w->asked, &w->q, NULL, 0);
	w->refusal = refuses(&w->a, kind == JK_YESNO);
	int fine;
	if (c->answer_forgotten) {
		fine = J_NO_ANSWER;
		strcpy(w->why, "the system said it has forgotten");
	} else if (empty_text(&w->a)) {
		fine = J_NO_ANSWER;
		strcpy(w->why, "no answer");
	} else {
		fine = grade(w, kind);
	}
	fill(out, fine, kind, w->why);
	free(w);
	return H2EMV_OK;
}

int judge_answer(const judge_case *c, const judge_options *opt, char **why)
{
	judge_verdict v;
	if (why)
		*why = NULL;
	int rc = judge_grade(&v, c, opt);
	if (rc < 0)
		return rc;
	if (why) {
		size_t n = strlen(v.why) + 1;
		char *s = malloc(n);
		if (s)
			memcpy(s, v.why, n);
		*why = s;
	}
	return v.fine;
}
