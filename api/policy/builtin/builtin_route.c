/*
 * builtin_route.c — the builtin policy's routing of an utterance: small
 * talk gets a reply, feedback about what to remember goes to rule
 * learning, a question goes to the question path, anything else gets a
 * short reply. Offline and deterministic; the usage counts the tokens the
 * llm policy would spend on the same utterance (prompts.h renders the
 * identical prompt).
 */
#include <stdlib.h>
#include <string.h>

#include "api/policy/builtin/builtin.h"
#include "api/policy/prompts.h"
#include "engine/engine.h"

/* --------------------------------------------------------------- routing -- */

/* Openings of feedback about what to remember or forget. */
static const char *const feedback_openings[] = {
	"you should always remember", "you should remember", "you should not forget",
	"you should never forget", "you shouldn't forget", "you should keep",
	"you should always keep", "you should forget", "always remember", "remember that",
	"remember to", "remember where", "remember what", "remember who", "remember when",
	"remember which", "remember the", "remember my", "remember everything", "don't forget",
	"dont forget", "do not forget", "never forget", "you don't need to remember",
	"you dont need to remember", "you do not need to remember", "no need to remember",
	"you need not remember", "you can forget", "you may forget", "forget about",
	"stop remembering", "keep track of", "it is important to remember",
	"it's important to remember", "make sure you remember", "make sure to remember",
	"i want you to remember", "you must remember", "you must not forget", NULL,
};

/* Words a question opens with. */
static const char *const question_openings[] = { "when", "where", "what", "which", "who",
	"whom", "whose", "how", "why", "did", "do", "does", "have", "has", "had", "can",
	"could", "were", "was", "is", "are", "tell me", NULL };

/* Lead-ins that do not change what an utterance is. */
static const char *const lead_ins[] = { "please ", "robot, ", "robot ", "hey robot, ",
	"hey, ", "ok, ", "okay, ", "ok ", "okay ", "also, ", "also ", "and ", "so ", "now, ",
	NULL };

static int opens_with(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++) {
		size_t n = strlen(list[i]);
		if (!strncmp(s, list[i], n) && !((s[n] >= 'a' && s[n] <= 'z') || s[n] == '\''))
			return 1;
	}
	return 0;
}

/* Lower case, curly apostrophes straightened, runs of space collapsed. */
static char *normalise(const char *u)
{
	size_t n = strlen(u);
	char *s = malloc(n + 1), *o = s;
	if (!s)
		return NULL;
	for (const char *p = u; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == 0xE2 && (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0x99) {
			c = '\'';
			p += 2;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (o > s && o[-1] != ' ')
				*o++ = ' ';
			continue;
		}
		*o++ = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	while (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
	return s;
}

/* Does a statement ask to keep or drop something, anywhere in it? */
static int asks_to_keep(const char *s)
{
	static const char *const phrases[] = { "remember", "keep in mind", "bear in mind",
		"note down", "take note", "make a note", "keep track", "keep a record",
		"write down", "memorize", "memorise", "don't forget", "do not forget", "never forget",
		"pay attention to", "forget about", "no need to remember", NULL };
	for (size_t i = 0; phrases[i]; i++)
		if (strstr(s, phrases[i]))
			return 1;
	return 0;
}

#define OFFER "Ask me about what I did, or tell me what to remember."

/* The reply to small talk of the given kinds (bi_small_talk). */
static const char *talk_reply(unsigned kinds)
{
	if (kinds & BI_TALK_THANKS)
		return "You're welcome.";
	if (kinds & BI_TALK_BYE)
		return "Goodbye!";
	if (kinds & BI_TALK_HOW)
		return "I am well, thank you. " OFFER;
	return "Hello! " OFFER;
}

/* The reply to an utterance that is neither small talk, a question nor
 * feedback. */
static const char *reply_to(const char *s)
{
	static const char *const hello[] = { "hello", "hi", "hey", "greetings", "good morning",
		"good afternoon", "good evening", "howdy", NULL };
	static const char *const thanks[] = { "thanks", "thank you", "thank", "cheers", NULL };
	static const char *const bye[] = { "bye", "goodbye", "good bye", "good night",
		"see you", NULL };
	if (opens_with(s, thanks))
		return "You're welcome.";
	if (opens_with(s, bye))
		return "Goodbye!";
	if (opens_with(s, hello))
		return "Hello! " OFFER;
	return "I can answer questions about what I did, saw and heard, and learn what you "
	       "want me to remember. Try: \"Where did you put the keys?\"";
}

/* Past the lead-ins that do not change what an utterance is. */
static const char *skip_lead_ins(const char *p)
{
	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; lead_ins[i]; i++)
			if (!strncmp(p, lead_ins[i], strlen(lead_ins[i]))) {
				p += strlen(lead_ins[i]);
				again = 1;
			}
	}
	return p;
}

int pol_builtin_route(void *ctx, const char *utterance, int *route, char **reply,
                      pol_usage *u, h2emv_error *err)
{
	(void)ctx;
	if (!utterance || !route || !reply)
		return eng_fail(err, H2EMV_EINVAL, "route: bad arguments");
	*reply = NULL;
	char *s = normalise(utterance);
	if (!s)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	const char *whole = skip_lead_ins(s);
	/* "Hi, where did you put the keys?": the greeting does not change what
	 * the rest is */
	const char *p = skip_lead_ins(whole + bi_greeting_len(whole));
	unsigned talk = bi_small_talk(whole);
	size_t n = strlen(p);
	const char *answer = "Route: question";
	if (talk) {
		/* "Hello robot, how are you?": a reply, not a question about the past */
		*route = POL_ROUTE_REPLY;
		*reply = strdup(talk_reply(talk));
		answer = *reply;
	} else if (opens_with(p, feedback_openings)) {
		*route = POL_ROUTE_FEEDBACK;
		answer = "Route: feedback";
	} else if ((n && p[n - 1] == '?') || opens_with(p, question_openings)) {
		*route = POL_ROUTE_QUESTION;
	} else if (asks_to_keep(p)) {
		/* "Remember every task that failed", "Keep in mind where the milk
		 * is", "Note down what the nurse says": feedback in other words */
		*route = POL_ROUTE_FEEDBACK;
		answer = "Route: feedback";
	} else {
		*route = POL_ROUTE_REPLY;
		*reply = strdup(reply_to(whole));
		answer = *reply;
	}
	free(s);
	if (*route == POL_ROUTE_REPLY && !*reply)
		return eng_fail(err, H2EMV_ENOMEM, "out of memory");
	pr_prompt pp = { 0 };
	int rc = pr_route(&pp, utterance, err);
	if (rc == H2EMV_OK && u) {
		u->prompt_tokens += tok_prompt(&pp);
		u->completion_tokens += tok_text("Reasoning: The utterance is what it says.\n") +
		                        tok_text(answer);
		u->calls++;
	}
	pr_prompt_free(&pp);
	if (rc) {
		free(*reply);
		*reply = NULL;
	}
	return rc;
}
