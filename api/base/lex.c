/*
 * lex.c — word splitting, Snowball stems, stop words and the robot-verb
 * lexicon (lex.h). The tables are words as a person writes them; they are
 * stemmed once, on first use, so lookups compare stems with stems.
 */
#include <libstemmer.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/base/lex.h"

/* ------------------------------------------------------------- stemming -- */

/* One stemmer per thread (a stemmer is not thread-safe); a thread-key
 * destructor frees it when its thread ends, so a server that answers on
 * short-lived threads (h2emv serve) does not leak one per connection.
 * Beside it, a memo of the short words stemmed last: a question's walk
 * splits the same few words of every fact it reads again and again, and
 * Snowball was a fifth of a question's time (issue 20). */
#define MEMO_SLOTS 1024u /* a power of two */
#define MEMO_LEN 24      /* words and stems shorter than this are kept */

typedef struct stem_memo {
	char w[MEMO_LEN], stem[MEMO_LEN];
} stem_memo;

typedef struct stem_state {
	struct sb_stemmer *sb;
	stem_memo memo[MEMO_SLOTS];
} stem_state;

static _Thread_local stem_state *stemmer;
static pthread_key_t stemmer_key;
static pthread_once_t stemmer_once = PTHREAD_ONCE_INIT;
static int stemmer_key_ok;

static void stemmer_free(void *p)
{
	stem_state *st = p;
	sb_stemmer_delete(st->sb);
	free(st);
}

static void stemmer_key_init(void)
{
	stemmer_key_ok = pthread_key_create(&stemmer_key, stemmer_free) == 0;
}

static stem_state *stem_state_get(void)
{
	if (stemmer)
		return stemmer;
	stem_state *st = calloc(1, sizeof *st);
	if (!st)
		return NULL;
	if (!(st->sb = sb_stemmer_new("english", NULL))) {
		free(st);
		return NULL;
	}
	pthread_once(&stemmer_once, stemmer_key_init);
	if (stemmer_key_ok)
		pthread_setspecific(stemmer_key, st);
	return stemmer = st;
}

static stem_memo *memo_slot(stem_state *st, const char *w, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return &st->memo[h & (MEMO_SLOTS - 1)];
}

void lex_stem(const char *w, size_t n, char *out)
{
	if (n >= LEX_WORD_MAX)
		n = LEX_WORD_MAX - 1;
	stem_state *st = stem_state_get();
	stem_memo *m = st && n && n < MEMO_LEN ? memo_slot(st, w, n) : NULL;
	if (m && !m->w[n] && !memcmp(m->w, w, n) && m->w[0]) {
		memcpy(out, m->stem, strlen(m->stem) + 1);
		return;
	}
	const sb_symbol *s = st ? sb_stemmer_stem(st->sb, (const sb_symbol *)w, (int)n) : NULL;
	if (!s) {
		memcpy(out, w, n);
		out[n] = 0;
		return;
	}
	size_t len = (size_t)sb_stemmer_length(st->sb);
	if (len >= LEX_WORD_MAX)
		len = LEX_WORD_MAX - 1;
	memcpy(out, s, len);
	out[len] = 0;
	if (m && len < MEMO_LEN && !memchr(w, 0, n)) {
		memcpy(m->w, w, n);
		m->w[n] = 0;
		memcpy(m->stem, out, len + 1);
	}
}

/* -------------------------------------------------------------- splitting -- */

static int is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(unsigned char c) { return (c >= 'a' && c <= 'z') || c >= 0x80; }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_alnum(unsigned char c) { return is_upper(c) || is_lower(c) || is_digit(c); }

static void emit(lex_word *out, size_t max, size_t *k, const char *p, size_t n, int sent_start)
{
	if (*k < max) {
		lex_word *w = &out[*k];
		size_t m = n < LEX_WORD_MAX - 1 ? n : LEX_WORD_MAX - 1;
		int digits = 1;
		for (size_t i = 0; i < m; i++) {
			unsigned char c = (unsigned char)p[i];
			w->w[i] = is_upper(c) ? (char)(c + 32) : (char)c;
			digits &= is_digit(c);
		}
		w->w[m] = 0;
		w->digit = (uint8_t)digits;
		w->cap = (uint8_t)(is_upper((unsigned char)p[0]) && !sent_start);
		if (digits)
			memcpy(w->stem, w->w, m + 1);
		else
			lex_stem(w->w, m, w->stem);
	}
	(*k)++;
}

size_t lex_split(const char *s, size_t n, lex_word *out, size_t max)
{
	size_t k = 0, i = 0;
	int sent_start = 1;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (!is_alnum(c)) {
			if (c == '.' || c == '?' || c == '!' || c == '"' || c == ':')
				sent_start = 1;
			i++;
			continue;
		}
		size_t st = i++;
		if (is_digit(c)) {
			while (i < n && is_digit((unsigned char)s[i]))
				i++;
		} else {
			while (i < n) {
				unsigned char d = (unsigned char)s[i];
				if (is_lower(d)) {
					i++;
				} else if (is_upper(d)) {
					/* "HTTPServer": split before the last capital of a run
					 * that a lower-case letter follows; "aB": split */
					if (is_lower((unsigned char)s[i - 1]))
						break;
					if (i + 1 < n && is_lower((unsigned char)s[i + 1]) &&
					    is_upper((unsigned char)s[i - 1]))
						break;
					i++;
				} else {
					break;
				}
			}
		}
		emit(out, max, &k, s + st, i - st, sent_start);
		sent_start = 0;
	}
	return k;
}

/* ------------------------------------------------------------ the tables -- */

static const char *const stop_src[] = {
	"a", "about", "after", "again", "ago", "all", "also", "always", "am", "an", "and", "any",
	"anyone", "anybody", "anything", "are", "around", "as", "at", "be", "been", "before",
	"being", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
	"done", "during", "each", "either", "else", "ever", "every", "exactly", "for", "from",
	"had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i",
	"if", "in", "into", "is", "it", "its", "itself", "just", "me", "mine", "my", "myself",
	"near", "next", "no", "nor", "not", "now", "of", "off", "on", "once", "onto", "or",
	"other", "our", "out", "over", "please", "robot", "she", "should", "so", "some",
	"someone", "something", "than", "that", "the", "their", "them", "then", "there",
	"these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "upon",
	"us", "very", "was", "we", "were", "what", "whatever", "when", "where", "which", "while",
	"who", "whom", "whose", "why", "will", "with", "within", "would", "yes", "you", "your",
	"yours", "yourself", "time", "times", "recently", "previously", "already", "actually",
	"remember", "recall", "tell", "happen", "happened", "manage", "managed", "try", "tried",
	"attempt", "successfully", "success", "succeed", "fail", "failed", "failure",
	"problem", "problems", "many", "much", "often", "long", "last", "first", "latest",
	"earliest", "most", "recent", "final", "today", "yesterday", "tonight", "morning",
	"afternoon", "evening", "night", "noon", "midnight", "day", "days", "week", "weeks",
	"date", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"january", "february", "march", "april", "may", "june", "july", "august", "september",
	"october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
	"sep", "sept", "oct", "nov", "dec", "o'clock", "clock", "am", "pm", "oclock", "hour",
	"hours", "minute", "minutes", "second", "third", "fourth", "fifth", "n", "th", "st",
	"nd", "rd", "kind", "sort", "thing", "things", "object", "objects", "item", "items",
	"place", "location", "somewhere", "anywhere", "whereabouts", "person", "people",
	"somebody", "one", "ones", "yourself", "ourselves", "let", "get", "got", "know",
	"think", "say", "said", "tell", "told", "ask", "asked", "see", "saw", "seen", "meet",
	"met", "also", "currently", "there", "exact", "where's", "s", "t", "whether",
	/* what is left of "where'd", "you'll", "we're", "you've" */
	"d", "ll", "re", "ve",
};

typedef struct lex_ent {
	const char *word, *lemma;
	int cls;
} lex_ent;

/* Robot verbs, their lemma and class. Nouns of a skill name that mean the
 * verb ("introduction", "handover") are here too. */
static const lex_ent verb_src[] = {
	{ "go", "go", LC_GO }, { "went", "go", LC_GO }, { "gone", "go", LC_GO },
	{ "drive", "go", LC_GO }, { "drove", "go", LC_GO }, { "driven", "go", LC_GO },
	{ "navigate", "go", LC_GO }, { "navigation", "go", LC_GO }, { "move", "move", LC_GO },
	{ "walk", "go", LC_GO }, { "travel", "go", LC_GO }, { "head", "go", LC_GO },
	{ "visit", "go", LC_GO }, { "come", "go", LC_GO }, { "came", "go", LC_GO },
	{ "approach", "go", LC_GO }, { "ride", "go", LC_GO }, { "roll", "go", LC_GO },
	{ "goto", "go", LC_GO }, { "patrol", "patrol", LC_GO }, { "return", "return", LC_GO },
	{ "moveto", "go", LC_GO }, { "fly", "fly", LC_GO }, { "flew", "fly", LC_GO },
	{ "flown", "fly", LC_GO }, { "hover", "fly", LC_GO }, { "arrive", "go", LC_GO },
	{ "shuttle", "move", LC_GO }, { "relocate", "move", LC_GO },
	{ "grasp", "grasp", LC_TAKE }, { "grab", "grasp", LC_TAKE }, { "grip", "grasp", LC_TAKE },
	{ "pick", "pick", LC_TAKE }, { "pickup", "pick", LC_TAKE }, { "take", "take", LC_TAKE },
	{ "took", "take", LC_TAKE }, { "taken", "take", LC_TAKE }, { "fetch", "fetch", LC_TAKE },
	{ "lift", "pick", LC_TAKE }, { "collect", "collect", LC_TAKE },
	{ "retrieve", "fetch", LC_TAKE }, { "unload", "unload", LC_TAKE },
	{ "remove", "remove", LC_TAKE }, { "hold", "hold", LC_TAKE }, { "held", "hold", LC_TAKE },
	{ "gather", "collect", LC_TAKE }, { "get", "fetch", LC_TAKE }, { "got", "fetch", LC_TAKE },
	{ "put", "put", LC_PUT }, { "place", "put", LC_PUT }, { "set", "put", LC_PUT },
	{ "stow", "put", LC_PUT }, { "leave", "put", LC_PUT },
	{ "drop", "put", LC_PUT }, { "store", "put", LC_PUT }, { "deposit", "put", LC_PUT },
	{ "pack", "pack", LC_PUT }, { "release", "put", LC_PUT }, { "lay", "put", LC_PUT }, { "laid", "put", LC_PUT },
	{ "insert", "put", LC_PUT }, { "load", "load", LC_PUT }, { "stack", "put", LC_PUT },
	{ "shelve", "put", LC_PUT }, { "putdown", "put", LC_PUT }, { "stash", "put", LC_PUT },
	{ "keep", "put", LC_PUT }, { "restock", "put", LC_PUT }, { "replenish", "put", LC_PUT },
	{ "refill", "put", LC_PUT }, { "stock", "put", LC_PUT }, { "hang", "put", LC_PUT }, { "hung", "put", LC_PUT },
	{ "give", "give", LC_GIVE }, { "gave", "give", LC_GIVE }, { "given", "give", LC_GIVE },
	{ "hand", "give", LC_GIVE }, { "handover", "give", LC_GIVE },
	{ "deliver", "deliver", LC_GIVE }, { "delivery", "deliver", LC_GIVE },
	{ "bring", "bring", LC_GIVE }, { "brought", "bring", LC_GIVE },
	{ "pass", "give", LC_GIVE }, { "offer", "give", LC_GIVE }, { "serve", "give", LC_GIVE },
	{ "provide", "give", LC_GIVE }, { "transport", "transport", LC_GIVE },
	{ "carry", "transport", LC_GIVE }, { "carried", "transport", LC_GIVE },
	{ "transfer", "transfer", LC_GIVE }, { "ship", "ship", LC_GIVE },
	{ "dispatch", "ship", LC_GIVE }, { "dispense", "give", LC_GIVE }, { "distribute", "give", LC_GIVE },
	{ "receive", "receive", LC_RECEIVE }, { "accept", "receive", LC_RECEIVE },
	{ "say", "say", LC_SAY }, { "said", "say", LC_SAY }, { "tell", "say", LC_SAY },
	{ "told", "say", LC_SAY }, { "speak", "say", LC_SAY }, { "spoke", "say", LC_SAY },
	{ "spoken", "say", LC_SAY }, { "talk", "say", LC_SAY }, { "announce", "say", LC_SAY },
	{ "ask", "ask", LC_SAY }, { "answer", "say", LC_SAY }, { "reply", "say", LC_SAY },
	{ "respond", "say", LC_SAY }, { "explain", "say", LC_SAY }, { "mention", "say", LC_SAY },
	{ "utter", "say", LC_SAY }, { "chat", "say", LC_SAY }, { "remind", "say", LC_SAY },
	{ "inform", "say", LC_SAY }, { "hear", "say", LC_SAY }, { "heard", "say", LC_SAY }, { "request", "ask", LC_SAY },
	{ "report", "say", LC_SAY }, { "instruct", "ask", LC_SAY }, { "instruction", "ask", LC_SAY },
	{ "call", "call", LC_SAY }, { "phone", "call", LC_SAY }, { "dial", "call", LC_SAY }, { "speech", "say", LC_SAY },
	{ "see", "see", LC_SEE }, { "saw", "see", LC_SEE }, { "seen", "see", LC_SEE },
	{ "notice", "see", LC_SEE }, { "detect", "see", LC_SEE }, { "spot", "see", LC_SEE },
	{ "observe", "see", LC_SEE }, { "recognize", "see", LC_SEE },
	{ "recognise", "see", LC_SEE }, { "perceive", "see", LC_SEE }, { "view", "see", LC_SEE },
	{ "watch", "see", LC_SEE }, { "identify", "see", LC_SEE }, { "sight", "see", LC_SEE },
	{ "encounter", "meet", LC_MEET }, { "meet", "meet", LC_MEET }, { "met", "meet", LC_MEET },
	{ "greet", "greet", LC_MEET }, { "welcome", "greet", LC_MEET }, { "hello", "greet", LC_MEET },
	{ "introduce", "introduce", LC_INTRODUCE }, { "introduction", "introduce", LC_INTRODUCE },
	{ "open", "open", LC_OPEN }, { "unlock", "open", LC_OPEN },
	{ "close", "close", LC_CLOSE }, { "seal", "seal", LC_CLOSE }, { "shut", "close", LC_CLOSE }, { "lock", "close", LC_CLOSE },
	{ "clean", "clean", LC_CLEAN }, { "wash", "clean", LC_CLEAN }, { "wipe", "clean", LC_CLEAN },
	{ "rinse", "clean", LC_CLEAN }, { "scrub", "clean", LC_CLEAN }, { "tidy", "clean", LC_CLEAN },
	{ "vacuum", "clean", LC_CLEAN }, { "mop", "clean", LC_CLEAN }, { "sanitize", "clean", LC_CLEAN },
	{ "disinfect", "clean", LC_CLEAN }, { "dust", "clean", LC_CLEAN },
	{ "slice", "slice", LC_CUT }, { "cut", "slice", LC_CUT }, { "chop", "slice", LC_CUT },
	{ "dice", "slice", LC_CUT },
	{ "cook", "cook", LC_COOK }, { "boil", "cook", LC_COOK }, { "fry", "cook", LC_COOK },
	{ "bake", "cook", LC_COOK }, { "heat", "cook", LC_COOK }, { "microwave", "cook", LC_COOK },
	{ "toast", "cook", LC_COOK }, { "prepare", "prepare", LC_COOK }, { "make", "make", LC_COOK },
	{ "made", "make", LC_COOK },
	{ "pour", "pour", LC_POUR }, { "fill", "fill", LC_FILL }, { "water", "water", LC_FILL },
{ "empty", "empty", LC_POUR },
	{ "pipette", "pipette", LC_POUR }, { "pipetting", "pipette", LC_POUR },
	{ "pipetted", "pipette", LC_POUR }, { "aspirate", "pipette", LC_POUR },
	{ "spray", "spray", LC_POUR },
	{ "toggle", "toggle", LC_TURN_ON }, { "switch", "switch", LC_TURN_ON },
	{ "activate", "switch", LC_TURN_ON }, { "start", "start", LC_TURN_ON },
	{ "deactivate", "switch", LC_TURN_OFF }, { "stop", "stop", LC_TURN_OFF },
	{ "charge", "charge", LC_CHARGE }, { "dock", "charge", LC_CHARGE },
	{ "recharge", "charge", LC_CHARGE }, { "plug", "charge", LC_CHARGE },
	{ "learn", "learn", LC_LEARN }, { "learnt", "learn", LC_LEARN },
	{ "memorize", "learn", LC_LEARN }, { "memorise", "learn", LC_LEARN },
	{ "teach", "learn", LC_LEARN }, { "taught", "learn", LC_LEARN },
	{ "wait", "wait", LC_WAIT }, { "pause", "wait", LC_WAIT }, { "idle", "wait", LC_WAIT },
	{ "rest", "wait", LC_WAIT },
	{ "follow", "follow", LC_FOLLOW }, { "escort", "escort", LC_FOLLOW },
	{ "accompany", "escort", LC_FOLLOW }, { "guide", "escort", LC_FOLLOW },
	{ "show", "escort", LC_FOLLOW }, { "lead", "escort", LC_FOLLOW }, { "led", "escort", LC_FOLLOW },
	{ "look", "look", LC_LOOK }, { "gaze", "look", LC_LOOK }, { "stare", "look", LC_LOOK },
	{ "turn", "turn", LC_LOOK }, { "face", "look", LC_LOOK },
	{ "search", "search", LC_SEARCH }, { "seek", "search", LC_SEARCH },
	{ "find", "find", LC_SEARCH }, { "found", "find", LC_SEARCH }, { "locate", "find", LC_SEARCH },
	{ "check", "check", LC_CHECK }, { "inspect", "check", LC_CHECK },
	{ "monitor", "check", LC_CHECK }, { "measure", "check", LC_CHECK },
	{ "count", "count", LC_CHECK }, { "inventory", "count", LC_CHECK },
	{ "verify", "check", LC_CHECK }, { "test", "check", LC_CHECK }, { "examine", "check", LC_CHECK },
	{ "scan", "scan", LC_SCAN }, { "read", "read", LC_SCAN },
	{ "photograph", "photograph", LC_SCAN }, { "photo", "photograph", LC_SCAN },
	{ "wave", "wave", LC_WAVE }, { "point", "point", LC_WAVE }, { "nod", "wave", LC_WAVE },
	{ "gesture", "wave", LC_WAVE },
	{ "help", "help", LC_HELP }, { "assist", "help", LC_HELP }, { "support", "help", LC_HELP },
	{ "push", "push", LC_PUSH }, { "press", "push", LC_PUSH }, { "pull", "pull", LC_PULL },
	{ "drag", "pull", LC_PULL },
	{ "home", "home", LC_HOME },
	/* verbs that mean only themselves */
	{ "fix", "repair", LC_NONE }, { "repair", "repair", LC_NONE },
	{ "mend", "repair", LC_NONE },
	{ "swap", "swap", LC_OTHER }, { "replace", "swap", LC_OTHER },
	{ "exchange", "swap", LC_OTHER }, { "change", "swap", LC_OTHER },
	{ "spin", "centrifuge", LC_OTHER }, { "spun", "centrifuge", LC_OTHER },
	{ "centrifuge", "centrifuge", LC_OTHER }, { "incubate", "incubate", LC_OTHER },
	{ "incubation", "incubate", LC_OTHER }, { "host", "host", LC_OTHER },
	{ "sort", "sort", LC_OTHER }, { "land", "land", LC_OTHER },
	{ "takeoff", "take off", LC_OTHER },
	{ "weigh", "weigh", LC_OTHER },
};

typedef struct stem_ent {
	char stem[LEX_WORD_MAX];
	const char *lemma;
	int cls;
} stem_ent;

static stem_ent *verbs;
static size_t n_verbs;
static char (*stops)[LEX_WORD_MAX];
static size_t n_stops;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int cmp_stem(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static void build(void)
{
	size_t nv = sizeof verb_src / sizeof *verb_src, ns = sizeof stop_src / sizeof *stop_src;
	verbs = calloc(nv, sizeof *verbs);
	stops = calloc(ns, sizeof *stops);
	if (!verbs || !stops) {
		free(verbs);
		free(stops);
		verbs = NULL;
		stops = NULL;
		return;
	}
	for (size_t i = 0; i < nv; i++) {
		lex_stem(verb_src[i].word, strlen(verb_src[i].word), verbs[n_verbs].stem);
		verbs[n_verbs].lemma = verb_src[i].lemma;
		verbs[n_verbs].cls = verb_src[i].cls;
		n_verbs++;
	}
	qsort(verbs, n_verbs, sizeof *verbs, cmp_stem);
	for (size_t i = 0; i < ns; i++)
		lex_stem(stop_src[i], strlen(stop_src[i]), stops[n_stops++]);
	qsort(stops, n_stops, sizeof *stops, cmp_stem);
}

int lex_stop(const char *stem)
{
	pthread_once(&once, build);
	return stops && bsearch(stem, stops, n_stops, sizeof *stops, cmp_stem) != NULL;
}

const char *lex_lemma(const char *stem, int *cls)
{
	pthread_once(&once, build);
	const stem_ent *e = verbs ? bsearch(stem, verbs, n_verbs, sizeof *verbs, cmp_stem) : NULL;
	if (cls)
		*cls = e ? e->cls : LC_NONE;
	return e ? e->lemma : NULL;
}

/* "take pictures of", "TakePhoto", "took a snapshot": photographing */
static int picture_noun(const char *s)
{
	static const char *const n[] = { "picture", "pictures", "photo", "photos", "image",
		                             "images", "snapshot", "snapshots", "shot", "shots",
		                             "photograph", "photographs", "pic", "pics", NULL };
	for (const char *const *p = n; *p; p++)
		if (!strcmp(s, *p))
			return 1;
	return 0;
}

int lex_particle(const lex_word *w, size_t k, size_t i, const char **lemma, int *cls)
{
	if (!strcmp(w[i].w, "take") || !strcmp(w[i].w, "took") || !strcmp(w[i].w, "taken") ||
	    !strcmp(w[i].w, "taking") || !strcmp(w[i].w, "takes") || !strcmp(w[i].w, "capture") ||
	    !strcmp(w[i].w, "captured") || !strcmp(w[i].w, "shoot") || !strcmp(w[i].w, "shot") ||
	    !strcmp(w[i].w, "snap") || !strcmp(w[i].w, "snapped")) {
		for (size_t j = i + 1; j < k && j <= i + 3; j++)
			if (picture_noun(w[j].w)) {
				*lemma = "photograph";
				*cls = LC_SCAN;
				return 1;
			}
		return 0;
	}
	if (strcmp(w[i].w, "turn") && strcmp(w[i].w, "turned") && strcmp(w[i].w, "switch") &&
	    strcmp(w[i].w, "switched") && strcmp(w[i].w, "toggle") && strcmp(w[i].w, "toggled"))
		return 0;
	for (size_t j = i + 1; j < k && j <= i + 3; j++) {
		if (!strcmp(w[j].w, "off")) {
			*lemma = "switch off";
			*cls = LC_TURN_OFF;
			return 1;
		}
		if (!strcmp(w[j].w, "on")) {
			*lemma = "switch on";
			*cls = LC_TURN_ON;
			return 1;
		}
	}
	return 0;
}

int lex_class_near(int a, int b)
{
	if (a == LC_NONE || b == LC_NONE)
		return 0;
	if (a == b)
		return a != LC_OTHER;
	/* putting, giving and bringing all move a thing somewhere */
	int move_a = a == LC_PUT || a == LC_GIVE, move_b = b == LC_PUT || b == LC_GIVE;
	if (move_a && move_b)
		return 1;
	if ((a == LC_MEET && b == LC_INTRODUCE) || (a == LC_INTRODUCE && b == LC_MEET))
		return 1;
	if ((a == LC_SEE && (b == LC_LOOK || b == LC_SCAN || b == LC_SEARCH)) ||
	    (b == LC_SEE && (a == LC_LOOK || a == LC_SCAN || a == LC_SEARCH)))
		return 1;
	/* filling a dishwasher or a shelf is loading it */
	if ((a == LC_FILL && b == LC_PUT) || (a == LC_PUT && b == LC_FILL))
		return 1;
	/* checking on a room is scanning or inspecting it */
	if ((a == LC_CHECK && b == LC_SCAN) || (a == LC_SCAN && b == LC_CHECK))
		return 1;
	return 0;
}

/* ------------------------------------------------------------ synonyms -- */

/* Groups of nouns that name one thing; words as written (stemmed on use,
 * which is cheap next to a question). */
static const char *const same_src[][8] = {
	{ "medicine", "medication", "meds", "pill", "tablet", "drug", "capsule", NULL },
	{ "tv", "television", NULL },
	{ "sofa", "couch", "settee", NULL },
	{ "fridge", "refrigerator", NULL },
	{ "mom", "mother", "mum", "mommy", NULL },
	{ "dad", "father", "daddy", NULL },
	{ "kid", "child", "children", NULL },
	{ "photo", "picture", "photograph", "pic", NULL },
	{ "trash", "garbage", "rubbish", "waste", NULL },
	{ "bathroom", "restroom", "washroom", "toilet", NULL },
	{ "cellphone", "phone", "mobile", "smartphone", NULL },
	{ "spectacles", "glasses", "eyeglasses", NULL },
	{ "doctor", "physician", NULL },
	{ "car", "vehicle", "automobile", NULL },
};

#define SAME_GROUPS (sizeof same_src / sizeof *same_src)
static char same_stems[SAME_GROUPS][8][LEX_WORD_MAX];
static pthread_once_t same_once = PTHREAD_ONCE_INIT;

static void same_build(void)
{
	for (size_t g = 0; g < SAME_GROUPS; g++)
		for (size_t i = 0; same_src[g][i]; i++)
			lex_stem(same_src[g][i], strlen(same_src[g][i]), same_stems[g][i]);
}

int lex_same_group(const char *stem)
{
	pthread_once(&same_once, same_build);
	for (size_t g = 0; g < SAME_GROUPS; g++)
		for (size_t i = 0; same_src[g][i]; i++)
			if (same_stems[g][i][0] == stem[0] && !strcmp(same_stems[g][i], stem))
				return (int)g; /* (the first letter first: a build asks for every word) */
	return -1;
}

/* ------------------------------------------------------------ display -- */

/* The words of a name for a person to read: separators become spaces,
 * CamelCase splits ("CounterTop" -> "counter top"), but a word with digits
 * or in capitals stays as written ("shelf C7", "room 3.12", "USB"). */
static size_t display_words(char *out, size_t cap, const char *id, size_t n)
{
	size_t len = 0, i = 0;
	out[0] = 0;
	while (i < n) {
		unsigned char c = (unsigned char)id[i];
		if (!is_alnum(c)) {
			i++;
			continue;
		}
		size_t st = i++;
		while (i < n) {
			unsigned char d = (unsigned char)id[i];
			/* "3.12", "P-103", "C7-2": a dot or dash before a digit joins */
			if ((d == '.' || d == '-') && i + 1 < n && is_digit((unsigned char)id[i + 1]) &&
			    (d == '-' || is_digit((unsigned char)id[i - 1]))) {
				i++;
				continue;
			}
			if (!is_alnum(d))
				break;
			/* CamelCase: "aB" splits; "TVStand" splits before "St" */
			if (is_upper(d) && is_lower((unsigned char)id[i - 1]))
				break;
			if (is_upper(d) && i + 1 < n && is_lower((unsigned char)id[i + 1]) &&
			    is_upper((unsigned char)id[i - 1]))
				break;
			i++;
		}
		size_t wl = i - st;
		int digits = 0, uppers = 0;
		for (size_t j = st; j < i; j++) {
			digits |= is_digit((unsigned char)id[j]);
			uppers += is_upper((unsigned char)id[j]);
		}
		int keep = digits || uppers == (int)wl;
		if (len + wl + 2 > cap)
			break;
		if (len)
			out[len++] = ' ';
		for (size_t j = st; j < i; j++) {
			unsigned char d = (unsigned char)id[j];
			out[len++] = (char)(!keep && is_upper(d) ? d + 32 : d);
		}
		out[len] = 0;
	}
	return len;
}

size_t lex_display(char *out, size_t cap, const char *id, size_t n)
{
	/* TEACh ids: the type before the first '|' */
	const char *bar = memchr(id, '|', n);
	if (bar)
		n = (size_t)(bar - id);
	/* a trailing instance number: "_0", "-3", "#2" */
	size_t e = n;
	while (e > 0 && is_digit((unsigned char)id[e - 1]))
		e--;
	/* "cup_0" is a cup; "T-118", "tote_42" and "room 12" are names of their
	 * own: a perceived instance has a one-digit suffix, a name seldom does */
	int lower = 0;
	for (size_t i = 0; i + 1 < e; i++)
		lower |= id[i] >= 'a' && id[i] <= 'z';
	if (e > 3 && lower && n - e == 1 && (id[e - 1] == '_' || id[e - 1] == '#'))
		n = e - 1;
	else if (e > 3 && lower && e < n && id[e - 1] == '-' && n - e <= 2 &&
	         id[e - 2] >= 'a' && id[e - 2] <= 'z')
		n = e - 1; /* ("cup-3"; "sump pump P-3" keeps its code) */
	/* a code ("T-118", "A7-11", "P-55"): shown as written */
	int run = 0, word = 0, digit = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)id[i];
		run = (c >= 'a' && c <= 'z') || c >= 0x80 ? run + 1 : 0;
		word |= run >= 3;
		digit |= is_digit(c);
	}
	if (digit && !word) {
		size_t m = n < cap - 1 ? n : cap - 1;
		memcpy(out, id, m);
		out[m] = 0;
		return m;
	}
	return display_words(out, cap, id, n);
}

int lex_same_person(const char *listed, const char *p, size_t n)
{
	return listed && n && strlen(listed) >= n && !strncasecmp(listed, p, n) &&
	       (listed[n] == 0 || (n >= 3 && listed[n] == ' '));
}
