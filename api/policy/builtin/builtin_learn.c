/*
 * builtin_learn.c — the builtin's rule learning: feedback becomes a rule
 * sentence and is merged into the list.
 *
 * The rule.
 *  - The default rule (items[0]) is never changed or dropped, and every
 *    rule the feedback is not about is copied unchanged, in order.
 *  - Feedback that lets go of something ("you don't need to remember X",
 *    "no need to keep X", "stop remembering X", "you can forget X",
 *    "forget X") removes every rule whose content words include all of X's
 *    (content words: builtin_words.c, bi_content_words; verbs count by
 *    family, so "put" and "place" agree). Nothing matches: no change.
 *  - Any other feedback becomes a rule: surrounding quotes and lead-ins
 *    ("please", "you should", "I want you to", "from now on", "make sure
 *    to", ...) are cut, "never forget"/"don't forget" becomes "always
 *    remember", a bare keep verb ("remember where ...") gets "always" in
 *    front, a sentence with no keep verb in front gets "Always remember: ";
 *    the first letter is capitalised and the sentence ends with one ".".
 *    A rule (past the default) with the same content words is replaced by
 *    it (modified); an identical rule means no change; otherwise it is
 *    appended.
 *  - A greeting in front ("Hi robot, remember ...") is cut like a lead-in.
 *  - Feedback that is not a rule is refused (EINVAL) before anything is
 *    learned: it must have a keep or forget word (remember, keep, note,
 *    record, track, forget, matter, important, care, ...) and a word for
 *    what it is about, and be neither small talk nor a question ("Do you
 *    remember the keys?"; "Can you remember ..." asks for a rule).
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"
#include "engine/engine.h"

static const char *const lead_ins[] = {
	"please ", "you should ", "you must ", "you need to ", "you have to ", "you ought to ",
	"i want you to ", "i would like you to ", "i'd like you to ", "could you ", "can you ",
	"would you ", "make sure to ", "make sure you ", "be sure to ", "from now on, ",
	"from now on ", "in the future, ", "in future, ", "next time, ", "hey robot, ",
	"robot, ", "also, ", "also ", "and ", "ok, ", "okay, ", "remember to ", "try to ",
	"note: ", "feedback: ", NULL,
};

static const char *const let_go[] = {
	"don't need to remember", "do not need to remember", "no need to remember",
	"don't have to remember", "do not have to remember", "don't remember", "do not remember",
	"stop remembering", "don't need to keep", "do not need to keep", "no need to keep",
	"don't keep", "do not keep", "don't need to record", "do not need to record",
	"don't record", "do not record", "no longer need", "you can forget", "you may forget",
	"forget about", NULL,
};

static const char *const keep_verbs[] = { "remember", "record", "retain", "keep", "note",
	                                      "track", "store", "log", "memorize", "memorise",
	                                      NULL };

static int starts_ci(const char *low, const char *pfx)
{
	return !strncmp(low, pfx, strlen(pfx));
}

/* ------------------------------------------------------- is it a rule? -- */

/* Words that say what to keep or drop. */
static const char *const rule_words[] = { "remember", "remembers", "remembering",
	"remembered", "forget", "forgets", "forgetting", "forgot", "forgotten", "keep", "keeps",
	"keeping", "kept", "retain", "retaining", "record", "recording", "memorize", "memorise",
	"memorizing", "memorising", "note", "track", "tracking", "store", "storing", "log",
	"logging", "care", "matter", "matters", "important", "importance", "attention", NULL };

/* Words a question opens with ("can you", "could you", "would you" and
 * "will you" ask for something: not questions here). */
static const char *const asking[] = { "do", "does", "did", "when", "where", "what", "which",
	"who", "whom", "whose", "how", "why", "is", "are", "was", "were", "have", "has", "had",
	NULL };

static int in_list(const char *const *list, const char *w, size_t n)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && !memcmp(list[i], w, n))
			return 1;
	return 0;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\'' ||
	       (unsigned char)c >= 0x80;
}

/* In lower-cased `low`: a rule word, and a word that is neither a rule
 * word, a stop word nor small talk (what the rule is about)? */
static void scan_rule(const char *low, int *keeps, int *about)
{
	char w[64];
	for (const char *p = low; *p;) {
		while (*p && !word_char(*p))
			p++;
		const char *b = p;
		while (*p && word_char(*p))
			p++;
		size_t n = (size_t)(p - b);
		if (!n)
			break;
		if (in_list(rule_words, b, n)) {
			*keeps = 1;
			continue;
		}
		if (memchr(b, '\'', n))
			continue; /* "don't", "you're": no object */
		if (n >= sizeof w) {
			*about = 1;
			continue;
		}
		memcpy(w, b, n);
		w[n] = '\0';
		/* "remember who visited", "when something could not be done": a
		 * wh-word or an indefinite names what to keep as well as a noun */
		static const char *const what[] = { "who", "whom", "whose", "what", "which", "when",
			                                "where", "why", "how", "something", "anything",
			                                "everything", "everyone", "anyone", "someone",
			                                "whatever", "whoever", "wherever", NULL };
		if (n > 1 && ((!bi_is_stop(w) && !bi_small_talk(w)) || in_list(what, b, n)))
			*about = 1;
	}
}

/* Does lower-cased `low` ask a question rather than say something? */
static int is_question(const char *low)
{
	size_t n = strlen(low);
	while (n && strchr(" \t\r\n\"'", low[n - 1]))
		n--;
	if (!n || low[n - 1] != '?')
		return 0;
	const char *p = low + bi_greeting_len(low);
	while (*p && !word_char(*p))
		p++;
	if (starts_ci(p, "please ") || starts_ci(p, "robot, ") || starts_ci(p, "robot "))
		p = strchr(p, ' ') + 1;
	size_t k = 0;
	while (word_char(p[k]))
		k++;
	return in_list(asking, p, k);
}

int bi_check_rule(const char *feedback, h2emv_error *err)
{
	char *low = bi_lower(feedback ? feedback : "");
	if (!low)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	int keeps = 0, about = 0, question = is_question(low);
	scan_rule(low, &keeps, &about);
	free(low);
	if (keeps && about && !question)
		return H2EMV_OK;
	return eng_fail(err, H2EMV_EINVAL,
	                "not a rule: %s; feedback must say what to remember or what may be "
	                "forgotten, e.g. \"You should always remember where you put the keys\" "
	                "or \"You don't need to remember the hallway\"",
	                question ? "that is a question (ask it instead)"
	                : !keeps ? "it does not say what to remember, keep or forget"
	                         : "it does not say what to remember or forget");
}

static int lets_go(const char *low)
{
	if (strstr(low, "never forget") || strstr(low, "don't forget") ||
	    strstr(low, "do not forget"))
		return 0;
	for (size_t i = 0; let_go[i]; i++)
		if (strstr(low, let_go[i]))
			return 1;
	const char *p = low + bi_greeting_len(low);
	while (*p == ' ' || *p == '"')
		p++;
	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; lead_ins[i]; i++)
			if (starts_ci(p, lead_ins[i])) {
				p += strlen(lead_ins[i]);
				again = 1;
			}
	}
	return starts_ci(p, "forget ");
}

/* The feedback as a rule sentence (malloc'd; "" when nothing is left). */
static char *rule_sentence(const char *feedback)
{
	char *low = bi_lower(feedback);
	if (!low)
		return NULL;
	size_t start = bi_greeting_len(low), end = strlen(low);
	while (start < end && (low[start] == ' ' || low[start] == '"' || low[start] == '\''))
		start++;
	for (;;) {
		while (end > start && strchr(" \t\r\n\".!?,;'", low[end - 1]))
			end--;
		if (end - start > 8 && !memcmp(low + end - 8, ", please", 8))
			end -= 8;
		else if (end - start > 7 && !memcmp(low + end - 7, " please", 7))
			end -= 7;
		else
			break;
	}
	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; lead_ins[i]; i++)
			if (end - start > strlen(lead_ins[i]) && starts_ci(low + start, lead_ins[i])) {
				start += strlen(lead_ins[i]);
				again = 1;
			}
	}
	pr_str b = { 0 };
	const char *rest = feedback + start;
	size_t rest_n = end - start;
	/* the original text keeps its case; low[] and feedback[] align except
	 * where a typographic apostrophe was folded: use low[] then. */
	int aligned = strlen(low) == strlen(feedback);
	if (!aligned)
		rest = low + start;
	static const char *const nf[] = { "never forget ", "don't forget ", "do not forget ", NULL };
	int replaced = 0;
	for (size_t i = 0; nf[i] && !replaced; i++)
		if (starts_ci(low + start, nf[i])) {
			pr_str_adds(&b, "always remember ");
			rest += strlen(nf[i]);
			rest_n -= strlen(nf[i]);
			replaced = 1;
		}
	if (!replaced && !starts_ci(low + start, "always ")) {
		int verb = 0;
		for (size_t i = 0; keep_verbs[i] && !verb; i++)
			verb = starts_ci(low + start, keep_verbs[i]);
		pr_str_adds(&b, verb ? "always " : "always remember: ");
	}
	size_t prefix = b.len;
	pr_str_add(&b, rest, rest_n);
	/* "Always remember every ..." rather than "Always Remember every ..."
	 * (a name or an acronym keeps its capital) */
	if (prefix && !b.oom && rest_n > 1 && b.s[prefix] >= 'A' && b.s[prefix] <= 'Z' &&
	    b.s[prefix + 1] >= 'a' && b.s[prefix + 1] <= 'z' && b.s[prefix] != 'I')
		b.s[prefix] = (char)(b.s[prefix] - 'A' + 'a');
	free(low);
	if (b.oom) {
		pr_str_free(&b);
		return NULL;
	}
	if (!b.s || rest_n == 0) {
		pr_str_free(&b);
		return strdup("");
	}
	if (b.s[0] >= 'a' && b.s[0] <= 'z')
		b.s[0] = (char)(b.s[0] - 'a' + 'A');
	pr_str_adds(&b, ".");
	return pr_str_take(&b);
}

static int same_set(const bi_words *a, const bi_words *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (!bi_words_has(b, a->v[i]))
			return 0;
	return 1;
}

static int subset(const bi_words *a, const bi_words *b)
{
	for (size_t i = 0; i < a->n; i++)
		if (!bi_words_has(b, a->v[i]))
			return 0;
	return 1;
}

static int push(pol_rule_list *out, const char *s)
{
	char **v = realloc(out->items, (out->n + 1) * sizeof *v);
	if (!v)
		return -1;
	out->items = v;
	if (!(v[out->n] = strdup(s)))
		return -1;
	out->n++;
	return 0;
}

/* The new list into `out` (empty on entry). */
static int merge(pol_rule_list *out, const pol_rules *old, const char *feedback, h2emv_error *err)
{
	size_t n = old ? old->n : 0;
	char *low = bi_lower(feedback);
	char *rule = NULL;
	bi_words fw = { 0 };
	int drop_mode = low && lets_go(low), rc = H2EMV_OK, placed = 0;
	if (!low)
		goto oom;
	if (drop_mode) {
		bi_content_words(&fw, feedback);
	} else {
		if (!(rule = rule_sentence(feedback)))
			goto oom;
		bi_content_words(&fw, rule);
	}
	if (fw.oom)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		const char *r = old->items[i] ? old->items[i] : "";
		if (i > 0 && (drop_mode || (rule && *rule && !placed))) {
			bi_words rw = { 0 };
			bi_content_words(&rw, r);
			int oom = rw.oom, hit;
			if (drop_mode)
				hit = fw.n && subset(&fw, &rw);
			else
				hit = !strcmp(r, rule) || (fw.n && same_set(&fw, &rw));
			bi_words_free(&rw);
			if (oom)
				goto oom;
			if (hit && drop_mode)
				continue;
			if (hit) {
				if (push(out, rule))
					goto oom;
				placed = 1;
				continue;
			}
		}
		if (push(out, r))
			goto oom;
	}
	if (!drop_mode && rule && *rule && !placed && push(out, rule))
		goto oom;
	goto done;
oom:
	rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
done:
	bi_words_free(&fw);
	free(rule);
	free(low);
	return rc;
}

int bi_learn(void *ctx, const pol_rules *old, const char *feedback, pol_rule_list *out,
             pol_usage *u, h2emv_error *err)
{
	(void)ctx;
	if (!out || !feedback || (old && old->n && !old->items))
		return eng_fail(err, H2EMV_EINVAL, "learn: bad arguments");
	memset(out, 0, sizeof *out);
	int rc = bi_check_rule(feedback, err);
	if (rc)
		return rc;
	pr_prompt p;
	rc = pr_learn(&p, old, feedback, err);
	if (rc)
		return rc;
	rc = merge(out, old, feedback, err);
	if (!rc) {
		pr_str reply = { 0 };
		for (size_t i = 0; i < out->n; i++)
			pr_str_addf(&reply, "%s%zu. %s", i ? "\n" : "", i + 1, out->items[i]);
		if (reply.oom)
			rc = eng_fail(err, H2EMV_ENOMEM, "out of memory");
		else
			bi_usage(u, &p, reply.s);
		pr_str_free(&reply);
	}
	if (rc)
		pol_rule_list_free(out);
	pr_prompt_free(&p);
	return rc;
}
