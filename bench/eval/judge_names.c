/*
 * judge_names.c — names of things and action steps as the judge compares
 * them: one compact canonical key per thing ("pepper shaker", "PepperShaker_1"
 * and "peppershakers" are "peppershaker"; "counter" is "countertop"), found
 * in ground-truth lists, in plain answer lists and in free sentences.
 */
#include <string.h>

#include "bench/eval/judge_int.h"

/* AI2-THOR object types (lower-case, joined) and common household things. */
static const char *const known_names[] = { "alarmclock", "aluminumfoil", "apple", "armchair",
	"baseballbat", "basketball", "bathtub", "bed", "blinds", "book", "boots", "bottle", "bowl",
	"box", "bread", "butterknife", "cabinet", "candle", "cd", "cellphone", "chair", "cloth",
	"coffeemachine", "coffeetable", "countertop", "creditcard", "cup", "curtains", "desk",
	"desklamp", "desktop", "diningtable", "dishsponge", "dogbed", "drawer", "dresser",
	"dumbbell", "egg", "faucet", "floor", "floorlamp", "footstool", "fork", "fridge",
	"garbagebag", "garbagecan", "handtowel", "handtowelholder", "houseplant", "kettle",
	"keychain", "knife", "ladle", "laptop", "laundryhamper", "lettuce", "lightswitch",
	"microwave", "mirror", "mug", "newspaper", "ottoman", "painting", "pan", "papertowelroll",
	"pen", "pencil", "peppershaker", "pillow", "plate", "plunger", "poster", "pot", "potato",
	"remotecontrol", "safe", "saltshaker", "scrubbrush", "shelf", "shelvingunit",
	"showercurtain", "showerdoor", "showerhead", "sidetable", "sink", "soapbar", "soapbottle",
	"sofa", "spatula", "spoon", "spraybottle", "statue", "stool", "stoveburner", "stoveknob",
	"teddybear", "television", "tennisracket", "tissuebox", "toaster", "toilet",
	"toiletpaper", "toiletpaperhanger", "tomato", "towel", "towelholder", "tvstand",
	"vacuumcleaner", "vase", "watch", "wateringcan", "window", "winebottle", "door",
	"dishwasher", "oven", "milk", "soymilk", "juice", "orangejuice", "cereal", "cookie", "tea",
	"coffee", "wallet", "glass", "medicine", "tray", "basket", "bag", "backpack", "umbrella",
	"jacket", "hat", "shoe", "banana", "orange", "lemon", "cheese", "butter", "jar",
	"carton", "lid", "rack", "dish", "napkin", NULL };

/* Another way of writing a name -> its canonical key. */
static const char *const synonyms[][2] = { { "counter", "countertop" },
	{ "kitchencounter", "countertop" }, { "worktop", "countertop" },
	{ "mobilekitchencounter", "countertop" }, { "table", "diningtable" },
	{ "kitchentable", "diningtable" }, { "dinnertable", "diningtable" },
	{ "sinkbasin", "sink" }, { "basin", "sink" }, { "kitchensink", "sink" },
	{ "bathtubbasin", "bathtub" }, { "refrigerator", "fridge" }, { "trashcan", "garbagecan" },
	{ "trash", "garbagecan" }, { "garbage", "garbagecan" }, { "bin", "garbagecan" },
	{ "wastebin", "garbagecan" }, { "dustbin", "garbagecan" }, { "trashbin", "garbagecan" },
	{ "garbagebin", "garbagecan" }, { "gargabecan", "garbagecan" },
	{ "coffeemaker", "coffeemachine" }, { "plant", "houseplant" },
	{ "pottedplant", "houseplant" }, { "stove", "stoveburner" }, { "burner", "stoveburner" },
	{ "stovetop", "stoveburner" }, { "cooktop", "stoveburner" }, { "hob", "stoveburner" },
	{ "remote", "remotecontrol" }, { "tvremote", "remotecontrol" }, { "phone", "cellphone" },
	{ "mobilephone", "cellphone" }, { "smartphone", "cellphone" }, { "sponge", "dishsponge" },
	{ "papertowel", "papertowelroll" }, { "kitchenroll", "papertowelroll" },
	{ "endtable", "sidetable" }, { "couch", "sofa" }, { "tv", "television" },
	{ "soap", "soapbottle" }, { "dishsoap", "soapbottle" }, { "liquidsoap", "soapbottle" },
	{ "pepper", "peppershaker" }, { "peppermill", "peppershaker" },
	{ "peppergrinder", "peppershaker" }, { "salt", "saltshaker" }, { "tissue", "tissuebox" },
	{ "card", "creditcard" }, { "key", "keychain" }, { "keyring", "keychain" },
	{ "cushion", "pillow" }, { "fryingpan", "pan" }, { "skillet", "pan" },
	{ "saucepan", "pot" }, { "cookingpot", "pot" }, { "teddy", "teddybear" },
	{ "rag", "cloth" }, { "dishrag", "cloth" }, { "dishcloth", "cloth" },
	{ "wateringpot", "wateringcan" }, { "trashbag", "garbagebag" },
	{ "spraycan", "spraybottle" }, { "cabinetdoor", "cabinet" }, { "cupboard", "cabinet" },
	{ "faucethandle", "faucet" }, { "tap", "faucet" }, { "microwaveoven", "microwave" },
	{ "winebottl", "winebottle" }, { "sofachair", "armchair" }, { "carafe", "coffeemachine" },
	{ NULL, NULL } };

static const char *const rooms[] = { "kitchen", "livingroom", "bathroom", "bedroom", "hallway",
	"corridor", "diningroom", "office", "lab", "laboratory", "workshop", "garage", "garden",
	"room", "area", "home", "homelocation", "homeposition", "laundryarea", "laundry",
	"mobilekitchen", "apartment", "house", NULL };

static int ends(const char *w, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && !memcmp(w + n - k, suf, k);
}

static void copy_key(char *out, const char *s, size_t n)
{
	if (n >= JD_KEY)
		n = JD_KEY - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

size_t jd_canon(char *out, const char *compact)
{
	char base[JD_KEY];
	size_t n = strlen(compact);
	copy_key(base, compact, n);
	n = strlen(base);
	int sliced = 0;
	for (;;) { /* "breadslicedslice" -> "bread" + slice */
		if (n > 6 && ends(base, n, "sliced"))
			n -= 6, sliced = 1;
		else if (n > 5 && ends(base, n, "slice"))
			n -= 5, sliced = 1;
		else if (n > 5 && ends(base, n, "piece"))
			n -= 5, sliced = 1;
		else
			break;
		base[n] = '\0';
	}
	const char *name = base;
	for (size_t i = 0; synonyms[i][0]; i++)
		if (!strcmp(base, synonyms[i][0])) {
			name = synonyms[i][1];
			break;
		}
	size_t len = strlen(name);
	if (len + (sliced ? 5 : 0) >= JD_KEY)
		len = JD_KEY - 1 - (sliced ? 5 : 0);
	memmove(out, name, len);
	if (sliced)
		memcpy(out + len, "slice", 5), len += 5;
	out[len] = '\0';
	return len;
}

int jd_room(const char *key)
{
	size_t n = strlen(key);
	return jd_in(key, rooms) || (n > 4 && (ends(key, n, "room") || ends(key, n, "kitchen") ||
	                                         ends(key, n, "area")));
}

int jd_known(const char *key)
{
	char base[JD_KEY];
	size_t n = strlen(key);
	copy_key(base, key, n);
	if (n > 5 && ends(base, n, "slice"))
		base[n - 5] = '\0';
	return jd_in(base, known_names) || jd_room(base);
}

int jd_items_find(const jd_items *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return (int)i;
	return -1;
}

int jd_items_add(jd_items *l, const char *key)
{
	int i = jd_items_find(l, key);
	if (i >= 0)
		return i;
	if (l->n >= JD_MAX_ITEMS || !key[0])
		return -1;
	jd_item *it = &l->v[l->n];
	memset(it, 0, sizeof *it);
	copy_key(it->key, key, strlen(key));
	it->room = (uint8_t)jd_room(key);
	return (int)l->n++;
}

/* Tokens [b, e) joined, each singular, then canonical. */
static void span_key(char *out, const jd_text *x, size_t b, size_t e, int skip_fillers)
{
	char joined[JD_KEY * 2];
	size_t len = 0;
	for (size_t k = b; k < e; k++) {
		char w[JD_WORD];
		memcpy(w, x->t[k].w, JD_WORD);
		if (skip_fillers && (jd_filler(w) || x->t[k].num))
			continue;
		jd_singular(w);
		size_t wl = strlen(w);
		if (len + wl >= sizeof joined)
			break;
		memcpy(joined + len, w, wl);
		len += wl;
	}
	joined[len] = '\0';
	jd_canon(out, joined);
}

/* Where the chunk containing token i ends: the next punctuation or joining
 * word. */
static size_t chunk_end(const jd_text *x, size_t i)
{
	size_t e = i + 1;
	while (e < x->nt && !x->t[e].brk && !jd_conj(x->t[e].w))
		e++;
	return e;
}

void jd_truth_items(jd_items *out, const jd_text *x)
{
	out->n = 0;
	for (size_t b = 0; b < x->nt;) {
		size_t e = chunk_end(x, b);
		char key[JD_KEY];
		span_key(key, x, b, e, 1);
		int i = jd_items_add(out, key);
		if (i >= 0) {
			out->v[i].known = 1;
			out->v[i].pos = x->t[b].pos;
		}
		b = e;
	}
}

static int is_slice_word(const char *w)
{
	static const char *const list[] = { "slice", "slices", "sliced", "piece", "pieces",
		"chopped", "diced", NULL };
	return jd_in(w, list);
}

/* The preposition in front of token i within the chunk [b, i). */
static int ctx_before(const jd_text *x, size_t b, size_t i)
{
	static const char *const at[] = { "on", "in", "at", "to", "into", "onto", "inside",
		"under", "atop", "upon", "within", "toward", "towards", NULL };
	static const char *const near[] = { "near", "next", "beside", "besides", "behind", "by",
		"close", "nearby", "around", "from", "with", NULL };
	for (size_t k = i, seen = 0; k > b && seen < 4; k--, seen++) {
		const char *w = x->t[k - 1].w;
		if (jd_in(w, near) || (k >= b + 2 && !strcmp(w, "to") && jd_in(x->t[k - 2].w, near)))
			return JD_CTX_NEAR; /* "next to", "close to" */
		if (jd_in(w, at))
			return JD_CTX_AT;
	}
	return JD_CTX_NONE;
}

/* The longest known name starting at token i (up to 4 words, inside the
 * chunk); its length in tokens, 0 if none. */
static size_t match_at(const jd_text *x, size_t i, size_t e, const jd_items *vocab, char *key)
{
	for (size_t len = e - i < 4 ? e - i : 4; len >= 1; len--) {
		int filler = 0;
		for (size_t k = i; k < i + len; k++)
			filler |= jd_filler(x->t[k].w) || x->t[k].num;
		if (filler)
			continue;
		span_key(key, x, i, i + len, 0);
		if ((vocab && jd_items_find(vocab, key) >= 0) || jd_known(key))
			return len;
	}
	return 0;
}

static void add_found(jd_items *out, const jd_text *x, size_t i, const char *key, int ctx,
                      int known)
{
	size_t before = out->n;
	int k = jd_items_add(out, key);
	if (k < 0)
		return;
	jd_item *it = &out->v[k];
	if ((size_t)k == before) { /* the first mention says where it stands */
		it->pos = x->t[i].pos;
		it->ctx = (uint8_t)ctx;
	}
	it->known |= (uint8_t)known;
}

void jd_find_items(jd_items *out, const jd_text *x, const jd_items *vocab, int guess)
{
	out->n = 0;
	for (size_t b = 0; b < x->nt;) {
		size_t e = chunk_end(x, b), unknown[4], n_unknown = 0;
		int matched = 0;
		for (size_t i = b; i < e;) {
			char key[JD_KEY];
			size_t len;
			if (jd_filler(x->t[i].w) || x->t[i].num || is_slice_word(x->t[i].w) ||
			    !(len = match_at(x, i, e, vocab, key))) {
				if (!jd_filler(x->t[i].w) && !x->t[i].num && n_unknown < 4)
					unknown[n_unknown] = i;
				n_unknown += !jd_filler(x->t[i].w) && !x->t[i].num;
				i++;
				continue;
			}
			size_t kl = strlen(key);
			int slice = (i + len < e && is_slice_word(x->t[i + len].w)) ||
			            (i > b && is_slice_word(x->t[i - 1].w)) ||
			            (i > b + 1 && !strcmp(x->t[i - 1].w, "of") &&
			             is_slice_word(x->t[i - 2].w));
			if (slice && !(kl > 5 && ends(key, kl, "slice")) && kl + 5 < JD_KEY) {
				char sliced[JD_KEY];
				memcpy(sliced, key, kl);
				memcpy(sliced + kl, "slice", 6);
				if (!vocab || jd_items_find(vocab, key) < 0 || jd_items_find(vocab, sliced) >= 0)
					memcpy(key, sliced, kl + 6);
			}
			add_found(out, x, i, key, ctx_before(x, b, i), 1);
			matched = 1;
			i += len + (i + len < e && is_slice_word(x->t[i + len].w));
		}
		if (guess && !matched && n_unknown >= 1 && n_unknown <= 3) {
			char key[JD_KEY], joined[JD_KEY] = "";
			size_t len = 0;
			for (size_t k = 0; k < n_unknown; k++) {
				char w[JD_WORD];
				memcpy(w, x->t[unknown[k]].w, JD_WORD);
				jd_singular(w);
				size_t wl = strlen(w);
				if (len + wl >= JD_KEY)
					break;
				memcpy(joined + len, w, wl + 1);
				len += wl;
			}
			jd_canon(key, joined);
			add_found(out, x, unknown[0], key, ctx_before(x, b, unknown[0]), 0);
		}
		b = e;
	}
}

/* ---------------------------------------------------------------- steps -- */

enum { V_NONE, V_STEP, V_NAV };

typedef struct verb {
	const char *w1, *w2; /* w2: a second word that must follow, or NULL */
	const char *verb;    /* canonical; NULL for moving around */
} verb;

static const verb verbs[] = { { "pick", "up", "pickup" }, { "picked", "up", "pickup" },
	{ "picks", "up", "pickup" }, { "picking", "up", "pickup" }, { "pickup", NULL, "pickup" },
	{ "pick", NULL, "pickup" }, { "picked", NULL, "pickup" }, { "grab", NULL, "pickup" },
	{ "grabbed", NULL, "pickup" }, { "take", NULL, "pickup" }, { "took", NULL, "pickup" },
	{ "lift", NULL, "pickup" }, { "lifted", NULL, "pickup" }, { "put", "down", "place" },
	{ "place", NULL, "place" }, { "placed", NULL, "place" }, { "put", NULL, "place" },
	{ "puts", NULL, "place" }, { "set", NULL, "place" }, { "drop", NULL, "place" },
	{ "dropped", NULL, "place" }, { "lay", NULL, "place" }, { "laid", NULL, "place" },
	{ "slice", NULL, "slice" }, { "sliced", NULL, "slice" }, { "cut", NULL, "slice" },
	{ "chop", NULL, "slice" }, { "chopped", NULL, "slice" }, { "pour", NULL, "pour" },
	{ "poured", NULL, "pour" }, { "empty", NULL, "pour" }, { "emptied", NULL, "pour" },
	{ "open", NULL, "open" }, { "opened", NULL, "open" }, { "close", NULL, "close" },
	{ "closed", NULL, "close" }, { "shut", NULL, "close" }, { "toggle", "on", "toggleon" },
	{ "toggled", "on", "toggleon" }, { "turn", "on", "toggleon" },
	{ "turned", "on", "toggleon" }, { "switch", "on", "toggleon" },
	{ "switched", "on", "toggleon" }, { "toggle", "off", "toggleoff" },
	{ "toggled", "off", "toggleoff" }, { "turn", "off", "toggleoff" },
	{ "turned", "off", "toggleoff" }, { "switch", "off", "toggleoff" },
	{ "switched", "off", "toggleoff" }, { "toggle", NULL, "toggle" },
	{ "toggled", NULL, "toggle" }, { "clean", NULL, "clean" }, { "cleaned", NULL, "clean" },
	{ "rinse", NULL, "clean" }, { "rinsed", NULL, "clean" }, { "wash", NULL, "clean" },
	{ "washed", NULL, "clean" }, { "fill", NULL, "fill" }, { "filled", NULL, "fill" },
	{ "cook", NULL, "cook" }, { "cooked", NULL, "cook" }, { "break", NULL, "break" },
	{ "grasp", NULL, "pickup" }, { "grasped", NULL, "pickup" }, { "hand", "over", "handover" },
	{ "handed", "over", "handover" }, { "handover", NULL, "handover" },
	{ "give", NULL, "handover" }, { "gave", NULL, "handover" }, { "receive", NULL, "receive" },
	{ "received", NULL, "receive" }, { "bring", NULL, "bring" }, { "brought", NULL, "bring" },
	{ "wipe", NULL, "clean" }, { "wiped", NULL, "clean" }, { "push", NULL, "push" },
	{ "pushed", NULL, "push" }, { "pull", NULL, "pull" }, { "pulled", NULL, "pull" },
	{ "stir", NULL, "stir" }, { "stirred", NULL, "stir" }, { "load", NULL, "load" },
	{ "loaded", NULL, "load" }, { "unload", NULL, "unload" }, { "unloaded", NULL, "unload" },
	{ "broke", NULL, "break" }, { "go", NULL, NULL }, { "went", NULL, NULL },
	{ "move", NULL, NULL }, { "moved", NULL, NULL }, { "navigate", NULL, NULL },
	{ "navigated", NULL, NULL }, { "walk", NULL, NULL }, { "walked", NULL, NULL },
	{ "turn", NULL, NULL }, { "turned", NULL, NULL }, { "rotate", NULL, NULL },
	{ "rotated", NULL, NULL }, { "look", NULL, NULL }, { "looked", NULL, NULL },
	{ "locate", NULL, NULL }, { "located", NULL, NULL }, { "search", NULL, NULL },
	{ "searched", NULL, NULL }, { NULL, NULL, NULL } };

/* The verb at token i: V_STEP (canonical in *out, words used in *len),
 * V_NAV, or V_NONE. */
static int verb_at(const jd_text *x, size_t i, const char **out, size_t *len)
{
	for (size_t v = 0; verbs[v].w1; v++) {
		if (strcmp(x->t[i].w, verbs[v].w1))
			continue;
		if (verbs[v].w2 && (i + 1 >= x->nt || strcmp(x->t[i + 1].w, verbs[v].w2)))
			continue;
		*out = verbs[v].verb;
		*len = verbs[v].w2 ? 2 : 1;
		return verbs[v].verb ? V_STEP : V_NAV;
	}
	return V_NONE;
}

static void set_step_text(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void jd_find_steps(jd_steps *out, const jd_text *x, const jd_items *vocab)
{
	static const char *const pronouns[] = { "it", "them", "this", "that", NULL };
	static const char *const at[] = { "on", "in", "at", "to", "into", "onto", "inside",
		"under", "atop", "upon", "within", NULL };
	out->n = 0;
	char last_obj[JD_KEY] = "";
	jd_step *cur = NULL;
	int after_prep = 0;
	for (size_t i = 0; i < x->nt;) {
		const char *v;
		size_t len;
		int kind = verb_at(x, i, &v, &len);
		if (x->t[i].brk)
			after_prep = 0;
		if (kind != V_NONE) {
			cur = NULL;
			if (kind == V_STEP && out->n < JD_MAX_ITEMS) {
				cur = &out->v[out->n++];
				memset(cur, 0, sizeof *cur);
				set_step_text(cur->verb, sizeof cur->verb, v);
			}
			after_prep = 0;
			i += len;
			continue;
		}
		if (!cur) {
			i++;
			continue;
		}
		if (jd_in(x->t[i].w, at)) {
			after_prep = 1;
			i++;
			continue;
		}
		if (!cur->obj[0] && jd_in(x->t[i].w, pronouns) && last_obj[0]) {
			memcpy(cur->obj, last_obj, JD_KEY);
			i++;
			continue;
		}
		char key[JD_KEY];
		size_t e = i + 1;
		while (e < x->nt && e < i + 4 && !x->t[e].brk)
			e++;
		size_t m = jd_filler(x->t[i].w) || x->t[i].num ? 0 : match_at(x, i, e, vocab, key);
		if (!m && !vocab && !jd_filler(x->t[i].w) && !x->t[i].num) {
			/* the truth's own names need not be known: "Pickup the widget" */
			char joined[JD_KEY] = "";
			size_t vl;
			while (i + m < x->nt && m < 3 && (!m || !x->t[i + m].brk) &&
			       !jd_filler(x->t[i + m].w) && !x->t[i + m].num &&
			       verb_at(x, i + m, &v, &vl) == V_NONE) {
				char wd[JD_WORD];
				memcpy(wd, x->t[i + m].w, JD_WORD);
				jd_singular(wd);
				if (strlen(joined) + strlen(wd) < JD_KEY)
					strcat(joined, wd);
				m++;
			}
			jd_canon(key, joined);
		}
		if (!m) {
			i++;
			continue;
		}
		if (i + m < x->nt && !x->t[i + m].brk && is_slice_word(x->t[i + m].w) &&
		    !ends(key, strlen(key), "slice") && strlen(key) + 5 < JD_KEY)
			strcat(key, "slice"), m++;
		if (!cur->obj[0] && !after_prep) {
			memcpy(cur->obj, key, JD_KEY);
			memcpy(last_obj, key, JD_KEY);
		} else if (!cur->place[0] && (after_prep || cur->obj[0])) {
			memcpy(cur->place, key, JD_KEY);
		}
		i += m;
	}
	/* a step on nothing named ("I opened and closed again") cannot be compared */
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].obj[0])
			out->v[k++] = out->v[i];
	out->n = k;
}

int jd_step_eq(const jd_step *a, const jd_step *b)
{
	if (strcmp(a->verb, b->verb) || strcmp(a->obj, b->obj))
		return 0;
	if (!strcmp(a->verb, "place") && a->place[0] && b->place[0])
		return !strcmp(a->place, b->place);
	return 1;
}
