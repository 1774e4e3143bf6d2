/*
 * builtin_talk.c — small talk as the builtin policy reads it: an utterance
 * made only of greeting, thanking, closing and how-are-you words and words
 * that address the robot ("Hello robot, how are you?", "Thanks a lot!",
 * "Good night") is small talk; one with any other word is not. A greeting
 * in front of something else ("Hi, where did you put the keys?") is cut off
 * by bi_greeting_len so the rest can be routed and answered.
 *
 * The words are listed, never whole sentences: a word of the utterance
 * that is not in these lists (a thing, an action, a question word other
 * than "how") makes it more than small talk.
 */
#include <string.h>

#include "api/policy/builtin/builtin.h"

typedef struct talk_word {
	const char *w;
	unsigned kind; /* BI_TALK_*: a word that makes small talk; 0: one that may go with it */
} talk_word;

static const talk_word talk_words[] = {
	{ "hello", BI_TALK_HELLO }, { "hi", BI_TALK_HELLO }, { "hey", BI_TALK_HELLO },
	{ "hiya", BI_TALK_HELLO }, { "howdy", BI_TALK_HELLO }, { "greetings", BI_TALK_HELLO },
	{ "morning", BI_TALK_HELLO }, { "afternoon", BI_TALK_HELLO }, { "evening", BI_TALK_HELLO },
	{ "how", BI_TALK_HOW }, { "how's", BI_TALK_HOW }, { "what's", BI_TALK_HOW },
	{ "thanks", BI_TALK_THANKS }, { "thank", BI_TALK_THANKS }, { "thx", BI_TALK_THANKS },
	{ "cheers", BI_TALK_THANKS }, { "bye", BI_TALK_BYE }, { "goodbye", BI_TALK_BYE },
	{ "farewell", BI_TALK_BYE }, { "night", BI_TALK_BYE }, { "later", BI_TALK_BYE },
	/* words that go with them */
	{ "good", 0 }, { "robot", 0 }, { "armar", 0 }, { "there", 0 }, { "everyone", 0 },
	{ "everybody", 0 }, { "all", 0 }, { "friend", 0 }, { "buddy", 0 }, { "dear", 0 },
	{ "pal", 0 }, { "you", 0 }, { "your", 0 }, { "yourself", 0 }, { "are", 0 }, { "is", 0 },
	{ "it", 0 }, { "it's", 0 }, { "things", 0 }, { "going", 0 }, { "doing", 0 }, { "do", 0 },
	{ "have", 0 }, { "been", 0 }, { "today", 0 }, { "tonight", 0 }, { "tomorrow", 0 },
	{ "again", 0 }, { "so", 0 }, { "very", 0 }, { "much", 0 }, { "lot", 0 }, { "lots", 0 },
	{ "a", 0 }, { "the", 0 }, { "to", 0 }, { "and", 0 }, { "too", 0 }, { "see", 0 },
	{ "soon", 0 }, { "take", 0 }, { "care", 0 }, { "nice", 0 }, { "great", 0 }, { "fine", 0 },
	{ "well", 0 }, { "ok", 0 }, { "okay", 0 }, { "oh", 0 }, { "i", 0 }, { "i'm", 0 },
	{ "am", 0 }, { "up", 0 }, { "for", 0 }, { "everything", 0 }, { "my", 0 }, { "me", 0 },
	{ "meet", 0 }, { "day", 0 },
};

/* Words a leading greeting is made of ("Good morning, robot!"). */
static const char *const greeting_words[] = { "hello", "hi", "hey", "hiya", "howdy",
	"greetings", "good", "morning", "afternoon", "evening", "robot", "armar", "there",
	"everyone", "everybody", "all", "friend", "buddy", "dear", "pal", NULL };

static int word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '\'' || c >= 0x80;
}

/* The word at s (length n) lower-cased into buf, the typographic
 * apostrophe straightened; "" when it does not fit. */
static const char *lowered(char *buf, size_t cap, const char *s, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
		    (unsigned char)s[i + 2] == 0x99) {
			c = '\'';
			i += 2;
		}
		if (o + 1 >= cap)
			return "";
		buf[o++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	buf[o] = '\0';
	return buf;
}

/* The talk_words entry of a word, or NULL. */
static const talk_word *talk_find(const char *w)
{
	for (size_t i = 0; i < sizeof talk_words / sizeof *talk_words; i++)
		if (!strcmp(talk_words[i].w, w))
			return &talk_words[i];
	return NULL;
}

static int is_greeting_word(const char *w)
{
	for (size_t i = 0; greeting_words[i]; i++)
		if (!strcmp(greeting_words[i], w))
			return 1;
	return 0;
}

/* The next word of *s: its start and length; 0 at the end. */
static size_t next_word(const char **s, const char **start)
{
	const char *p = *s;
	while (*p && !word_byte((unsigned char)*p))
		p++;
	const char *b = p;
	while (*p && word_byte((unsigned char)*p))
		p++;
	*start = b;
	*s = p;
	return (size_t)(p - b);
}

unsigned bi_small_talk(const char *s)
{
	unsigned kinds = 0;
	const char *p = s ? s : "", *w;
	char buf[32];
	for (size_t n; (n = next_word(&p, &w)) > 0;) {
		const talk_word *t = talk_find(lowered(buf, sizeof buf, w, n));
		if (!t)
			return 0; /* a word that names something: more than small talk */
		kinds |= t->kind;
	}
	return kinds;
}

size_t bi_greeting_len(const char *s)
{
	const char *p = s ? s : "", *w, *end = p;
	char buf[32];
	int greeted = 0;
	for (size_t n; (n = next_word(&p, &w)) > 0;) {
		const char *low = lowered(buf, sizeof buf, w, n);
		if (!is_greeting_word(low)) {
			end = w;
			break;
		}
		const talk_word *t = talk_find(low);
		greeted |= t && t->kind == BI_TALK_HELLO;
	}
	if (!greeted || end == s)
		return 0; /* no greeting, or nothing but one */
	return (size_t)(end - s);
}
