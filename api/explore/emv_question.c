/*
 * emv_question.c — what a question asks (which node texts answer it is
 * emv_match.c).
 *
 * The parser is a few word lists, not a grammar: the question word gives
 * the kind (when / what day / where / which object / what objects / who /
 * what was said / which steps); "first" / "last" the order; the first verb
 * the action class; a preposition followed by a noun the place; a
 * capitalised word (or the X of "what did X say") the person; the nouns
 * left over the entity.
 */
#include <stdio.h>
#include <string.h>

#include "api/emv.h"

/* ----------------------------------------------------- the question verbs -- */

/* Question verbs, in every form a question uses. */
typedef struct verb {
	const char *word;
	int act;
} verb;

static const verb verbs[] = {
	{ "transport", ACT_TRANSPORT }, { "transported", ACT_TRANSPORT },
	{ "transporting", ACT_TRANSPORT }, { "bring", ACT_TRANSPORT }, { "brought", ACT_TRANSPORT },
	{ "carry", ACT_TRANSPORT }, { "carried", ACT_TRANSPORT }, { "move", ACT_TRANSPORT },
	{ "moved", ACT_TRANSPORT }, { "put", ACT_PUT }, { "place", ACT_PUT },
	{ "placed", ACT_PUT }, { "leave", ACT_PUT }, { "left", ACT_PUT }, { "store", ACT_PUT },
	{ "stored", ACT_PUT }, { "drop", ACT_PUT }, { "dropped", ACT_PUT }, { "keep", ACT_PUT },
	{ "kept", ACT_PUT }, { "pick", ACT_PICKUP }, { "picked", ACT_PICKUP },
	{ "grab", ACT_PICKUP }, { "grabbed", ACT_PICKUP }, { "take", ACT_PICKUP },
	{ "took", ACT_PICKUP }, { "taken", ACT_PICKUP }, { "grasp", ACT_PICKUP },
	{ "grasped", ACT_PICKUP }, { "lift", ACT_PICKUP }, { "lifted", ACT_PICKUP },
	{ "slice", ACT_SLICE }, { "sliced", ACT_SLICE }, { "cut", ACT_SLICE },
	{ "chop", ACT_SLICE }, { "chopped", ACT_SLICE }, { "cook", ACT_COOK },
	{ "cooked", ACT_COOK }, { "heat", ACT_COOK }, { "heated", ACT_COOK },
	{ "toast", ACT_COOK }, { "toasted", ACT_COOK }, { "boil", ACT_COOK },
	{ "boiled", ACT_COOK }, { "fry", ACT_COOK }, { "fried", ACT_COOK }, { "bake", ACT_COOK },
	{ "baked", ACT_COOK }, { "microwave", ACT_COOK }, { "microwaved", ACT_COOK },
	{ "clean", ACT_CLEAN }, { "cleaned", ACT_CLEAN }, { "wash", ACT_CLEAN },
	{ "washed", ACT_CLEAN }, { "rinse", ACT_CLEAN }, { "rinsed", ACT_CLEAN },
	{ "wipe", ACT_CLEAN }, { "wiped", ACT_CLEAN }, { "scrub", ACT_CLEAN },
	{ "water", ACT_WATER }, { "watered", ACT_WATER }, { "pour", ACT_POUR },
	{ "poured", ACT_POUR }, { "fill", ACT_POUR }, { "filled", ACT_POUR },
	{ "open", ACT_OPEN }, { "opened", ACT_OPEN }, { "close", ACT_CLOSE },
	{ "closed", ACT_CLOSE }, { "turn", ACT_TOGGLE }, { "turned", ACT_TOGGLE },
	{ "switch", ACT_TOGGLE }, { "switched", ACT_TOGGLE }, { "toggle", ACT_TOGGLE },
	{ "toggled", ACT_TOGGLE }, { "meet", ACT_MEET }, { "met", ACT_MEET },
	{ "greet", ACT_MEET }, { "greeted", ACT_MEET }, { "visit", ACT_MEET },
	{ "visited", ACT_MEET }, { "talk", ACT_MEET }, { "talked", ACT_MEET },
	{ "speak", ACT_MEET }, { "spoke", ACT_MEET }, { "see", ACT_SEE }, { "saw", ACT_SEE },
	{ "seen", ACT_SEE }, { "notice", ACT_SEE }, { "noticed", ACT_SEE },
	{ "observe", ACT_SEE }, { "observed", ACT_SEE }, { "find", ACT_SEE },
	{ "found", ACT_SEE }, { "spot", ACT_SEE }, { "spotted", ACT_SEE }, { "say", ACT_SAY },
	{ "said", ACT_SAY }, { "tell", ACT_SAY }, { "told", ACT_SAY }, { "ask", ACT_SAY },
	{ "asked", ACT_SAY }, { "hear", ACT_SAY }, { "heard", ACT_SAY },
	{ "mention", ACT_SAY }, { "mentioned", ACT_SAY }, { NULL, 0 },
};

/* Words of a question that are neither the thing nor the place. */
static const char *const fillers[] = { "object", "objects", "thing", "things", "item",
	"items", "step", "steps", "action", "actions", "task", "day", "date", "hour",
	"minute", "perform", "performed", "finish", "finished", "complete", "completed",
	"robot", "remember", "memory", "else", "up", "down", "away", "off", "out", "back",
	"exactly", "which", "someone", "anyone", "somebody", "anybody", "people", "person",
	"other", "go", "went", "get", "got", "again", "ago", NULL };

static const char *const time_words[] = { "today", "yesterday", "tomorrow", "morning",
	"afternoon", "evening", "night", "noon", "midnight", "week", "month", "year",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"january", "february", "march", "april", "june", "july", "august", "september",
	"october", "november", "december", "am", "pm", "earlier", "later", "now", "o", NULL };

static const char *const order_first[] = { "first", "earliest", "initially", "originally",
	NULL };
static const char *const order_last[] = { "last", "latest", "recently", "recent", "lately",
	"previously", "newest", NULL };

static const char *const preps[] = { "to", "into", "onto", "in", "inside", "on", "at",
	"from", "under", "near", "behind", NULL };
static const char *const articles[] = { "the", "a", "an", "my", "your", "our", "his", "her",
	"their", "this", "that", NULL };

static int in_list(const char *w, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

static int verb_of(const char *w)
{
	for (size_t i = 0; verbs[i].word; i++)
		if (!strcmp(w, verbs[i].word))
			return verbs[i].act;
	return ACT_NONE;
}

/* ------------------------------------------------------------ the parser -- */

#define MAX_WORDS 64

enum { U_FREE = 0, U_VERB, U_PERSON, U_PLACE };

typedef struct qword {
	const char *p;         /* in the question */
	size_t n;
	char low[EMV_WORD_MAX];
	int cap;               /* starts with a capital letter */
	int possessive;        /* "Alice's" */
	int used;              /* taken: U_VERB, U_PERSON, U_PLACE */
} qword;

static int word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c >= 0x80;
}

static size_t split_words(qword *w, const char *s)
{
	size_t n = 0, i = 0, len = strlen(s);
	while (i < len && n < MAX_WORDS) {
		while (i < len && !word_byte((unsigned char)s[i]))
			i++;
		size_t start = i;
		while (i < len && (word_byte((unsigned char)s[i]) ||
		                   (s[i] == '\'' && i + 1 < len && word_byte((unsigned char)s[i + 1]))))
			i++;
		if (i == start)
			break;
		qword *q = &w[n++];
		memset(q, 0, sizeof *q);
		q->p = s + start;
		q->n = i - start;
		q->cap = s[start] >= 'A' && s[start] <= 'Z';
		size_t k = 0;
		for (size_t j = start; j < i && k < EMV_WORD_MAX - 1; j++) {
			char c = s[j];
			q->low[k++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		}
		q->low[k] = '\0';
		/* "Alice's", "robot's": keep the owner, note the possessive */
		char *ap = strchr(q->low, '\'');
		if (ap) {
			q->possessive = !strcmp(ap, "'s");
			*ap = '\0';
			q->n = (size_t)(ap - q->low);
		}
		if (k >= 5 && !strcmp(q->low + k - 5, "\xe2\x80\x99s")) {
			q->low[k - 5] = '\0';
			q->possessive = 1;
			q->n = k - 5;
		}
	}
	return n;
}

static int has_phrase(const qword *w, size_t n, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (!strcmp(w[i].low, a) && !strcmp(w[i + 1].low, b))
			return 1;
	return 0;
}

static int kind_of(const qword *w, size_t n)
{
	if (!n)
		return QK_GENERIC;
	const char *w0 = w[0].low, *w1 = n > 1 ? w[1].low : "";
	if (has_phrase(w, n, "what", "day") || has_phrase(w, n, "which", "day") ||
	    has_phrase(w, n, "what", "date") || has_phrase(w, n, "which", "date"))
		return QK_DAY;
	if (!strcmp(w0, "when") || has_phrase(w, n, "what", "time") ||
	    has_phrase(w, n, "which", "time") || (!strcmp(w0, "at") && !strcmp(w1, "what")))
		return QK_WHEN;
	if (!strcmp(w0, "where") || (!strcmp(w1, "where") && (!strcmp(w0, "to") ||
	                                                       !strcmp(w0, "from"))))
		return QK_WHERE;
	if (!strcmp(w0, "who") || !strcmp(w0, "whom") ||
	    (!strcmp(w1, "whom") && !strcmp(w0, "to")))
		return QK_WHO;
	if (strcmp(w0, "what") && strcmp(w0, "which"))
		return QK_GENERIC;
	if (!strcmp(w1, "objects") || !strcmp(w1, "things") || !strcmp(w1, "items"))
		return QK_OBJECTS;
	if (!strcmp(w1, "object") || !strcmp(w1, "thing") || !strcmp(w1, "item"))
		return QK_WHICH;
	if (!strcmp(w1, "steps") || !strcmp(w1, "actions"))
		return QK_STEPS;
	if (has_phrase(w, n, "was", "said") || has_phrase(w, n, "you", "hear"))
		return QK_SAID;
	/* "what did Alice say", "what did you see", "what did you put in the sink" */
	if (n > 3 && (!strcmp(w1, "did") || !strcmp(w1, "have") || !strcmp(w1, "had"))) {
		int a = verb_of(w[3].low);
		if (strcmp(w[2].low, "you") && a == ACT_SAY)
			return QK_SAID;
		if (!strcmp(w[2].low, "you") && a == ACT_SEE)
			return QK_OBJECTS;
		if (!strcmp(w[2].low, "you") && a >= ACT_TRANSPORT && a <= ACT_TOGGLE)
			return QK_WHICH;
	}
	return QK_GENERIC;
}

/* "Tell me where ...", "Can you tell me when ...", "Do you remember who
 * ...": the question starts at its question word. */
static size_t lead_in(const qword *w, size_t n)
{
	static const char *const lead[] = { "tell", "me", "us", "can", "could", "would", "will",
		"you", "do", "know", "remember", "please", "robot", "hey", "ok", "okay", "so", "and",
		"now", "recall", NULL };
	static const char *const qw[] = { "when", "where", "what", "which", "who", "whom", "at",
		"to", "from", "how", NULL };
	for (size_t i = 0; i < n && i < 8; i++) {
		if (in_list(w[i].low, qw))
			return i;
		if (!in_list(w[i].low, lead))
			return 0;
	}
	return 0;
}

/* "first" / "last", preferring the one that says "... time". */
static int order_of(const qword *w, size_t n, int kind)
{
	int order = -1;
	for (size_t i = 0; i < n; i++) {
		int o = in_list(w[i].low, order_first) ? QO_FIRST
		      : in_list(w[i].low, order_last) ? QO_LAST : -1;
		if (o < 0)
			continue;
		if (i + 1 < n && !strcmp(w[i + 1].low, "time"))
			return o;
		if (order < 0)
			order = o;
	}
	if (order >= 0)
		return order;
	return kind == QK_WHO ? QO_ALL : QO_LAST;
}

static int is_digits(const char *s)
{
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int is_content(const qword *w)
{
	return !w->used && !emv_stopword(w->low) &&
	       !in_list(w->low, fillers) && !in_list(w->low, time_words) &&
	       !in_list(w->low, order_first) && !in_list(w->low, order_last) &&
	       !is_digits(w->low) && w->low[0];
}

static void add_terms(emv_term *t, size_t *k, const qword *w)
{
	if (*k < EMV_Q_TERMS)
		*k += emv_terms(t + *k, EMV_Q_TERMS - *k, w->p, w->n);
}

/* A date written in the question ("2024/09/23", "2024-09-23"). */
static int find_date(const char *s, int64_t *day)
{
	for (const char *p = s; *p; p++) {
		int y, m, d, used = 0;
		char s1, s2;
		if ((p == s || !(p[-1] >= '0' && p[-1] <= '9')) &&
		    sscanf(p, "%4d%c%2d%c%2d%n", &y, &s1, &m, &s2, &d, &used) == 5 && used >= 8 &&
		    (s1 == '/' || s1 == '-') && s2 == s1 && m >= 1 && m <= 12 && d >= 1 && d <= 31 &&
		    y >= 1970) {
			*day = emv_day_start(y, m, d);
			return 1;
		}
	}
	return 0;
}

#define DAY_US 86400000000ll

static void find_day(emv_question *q, const char *text, qword *w, size_t n, int64_t now)
{
	int64_t day = 0;
	int found = find_date(text, &day);
	for (size_t i = 0; i < n && !found; i++) {
		if (!strcmp(w[i].low, "today"))
			day = now - now % DAY_US, found = 1;
		else if (!strcmp(w[i].low, "yesterday"))
			day = now - now % DAY_US - DAY_US, found = 1;
	}
	if (found && now >= 0) {
		q->t0 = day;
		q->t1 = day + DAY_US - 1;
	}
}

static void find_person(emv_question *q, qword *w, size_t n)
{
	/* "what did Alice say": the speaker whatever the case */
	if (q->kind == QK_SAID)
		for (size_t i = 1; i + 1 < n; i++)
			if (!strcmp(w[i - 1].low, "did") && strcmp(w[i].low, "you") &&
			    verb_of(w[i + 1].low) == ACT_SAY && !emv_stopword(w[i].low)) {
				add_terms(q->person, &q->n_person, &w[i]);
				w[i].used = U_PERSON;
				return;
			}
	for (size_t i = 1; i < n; i++) {
		if (!w[i].cap || w[i].possessive || w[i].used || !strcmp(w[i].low, "i") ||
		    strchr(w[i].low, '_') || in_list(w[i].low, time_words) ||
		    in_list(w[i - 1].low, articles) || !is_content(&w[i]))
			continue;
		add_terms(q->person, &q->n_person, &w[i]);
		w[i].used = U_PERSON;
		return;
	}
}

static void find_place(emv_question *q, qword *w, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (!in_list(w[i].low, preps))
			continue;
		size_t j = i + 1;
		while (j < n && in_list(w[j].low, articles))
			j++;
		size_t k = j;
		while (k < n && k < j + 3 && is_content(&w[k]) && !w[k].cap)
			k++;
		if (k == j)
			continue;
		for (size_t m = j; m < k; m++) {
			add_terms(q->place, &q->n_place, &w[m]);
			w[m].used = U_PLACE;
		}
		return;
	}
}

static void add_query(emv_question *q, const qword *w)
{
	size_t len = strlen(q->query);
	if (len + w->n + 2 >= sizeof q->query)
		return;
	if (len)
		q->query[len++] = ' ';
	memcpy(q->query + len, w->low, w->n);
	q->query[len + w->n] = '\0';
}

void emv_question_parse(emv_question *q, const char *text, int64_t now)
{
	memset(q, 0, sizeof *q);
	qword w[MAX_WORDS];
	size_t n = split_words(w, text ? text : "");
	size_t lead = lead_in(w, n);
	q->kind = kind_of(w + lead, n - lead);
	q->order = order_of(w, n, q->kind);
	/* the action: an object action first, else meeting / speech / seeing */
	int other = ACT_NONE;
	for (size_t i = 0; i < n; i++) {
		int a = verb_of(w[i].low);
		/* "the water bottle", "Anna's water bottle": there a verb is a noun */
		if (!a || (i > 0 && (in_list(w[i - 1].low, articles) || w[i - 1].possessive)))
			continue;
		w[i].used = U_VERB;
		if (a >= ACT_TRANSPORT && a <= ACT_TOGGLE) {
			if (!q->act)
				q->act = a;
		} else if (!other && !(a == ACT_SEE && q->kind == QK_OBJECTS)) {
			other = a;
		}
		if (!strcmp(w[i].low, "pick") || !strcmp(w[i].low, "picked"))
			for (size_t j = i + 1; j < n && j < i + 4; j++)
				if (!strcmp(w[j].low, "up"))
					w[j].used = U_VERB;
	}
	if (!q->act)
		q->act = other;
	if (q->kind == QK_SAID)
		q->act = ACT_SAY;
	find_day(q, text ? text : "", w, n, now);
	find_person(q, w, n);
	find_place(q, w, n);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(w[i].low, "something") || !strcmp(w[i].low, "anything"))
			q->something = 1;
		if (!is_content(&w[i]) || w[i].possessive)
			continue;
		add_terms(q->ent, &q->n_ent, &w[i]);
		add_query(q, &w[i]);
	}
	/* nothing to name the thing: search for the person, else the place */
	for (int role = U_PERSON; role <= U_PLACE && !q->query[0]; role++)
		for (size_t i = 0; i < n; i++)
			if (w[i].used == role)
				add_query(q, &w[i]);
}
