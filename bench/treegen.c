/*
 * treegen.c — the synthetic tree of treegen.h. Scenes come every 0.5-5 s;
 * parents are made bottom-up from runs of 8-12 consecutive children, so
 * every parent spans exactly its children's time range, as the builder's
 * trees do. The number of scenes is chosen so the whole tree has as many
 * nodes as asked, or a few fewer.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "bench/bench_util.h"
#include "bench/treegen.h"

#define TOP_LEVEL 5 /* levels 1..5, then the root */
#define ROOT_LEVEL 6
#define MIN_FAN 8
#define MAX_FAN 12
#define DAY_US INT64_C(86400000000)

/* Group sizes at each level come from their own stream, so the counts
 * for a given number of scenes are the same whatever else is drawn. */
static uint32_t fan(bench_rng *levels, int level)
{
	return bench_rng_range(&levels[level], MIN_FAN, MAX_FAN);
}

static void seed_levels(bench_rng *levels, uint64_t seed)
{
	for (int l = 0; l <= ROOT_LEVEL; l++)
		levels[l].s = seed * 31 + (uint64_t)l * 0x1234567ull;
}

static size_t count_for(size_t scenes, uint64_t seed)
{
	bench_rng levels[ROOT_LEVEL + 1];
	seed_levels(levels, seed);
	size_t total = scenes, n = scenes;
	for (int l = 1; l < TOP_LEVEL; l++) {
		size_t groups = 0;
		for (size_t done = 0; done < n; groups++)
			done += fan(levels, l);
		total += groups;
		n = groups;
	}
	return total + 1;
}

/* --------------------------------------------------------------- text -- */

static const char *const verbs_ing[] = {
	"grasping", "carrying", "placing", "looking for", "handing over", "wiping", "opening",
};
static const char *const verbs_past[] = {
	"grasped", "carried", "placed", "found", "handed over", "wiped", "opened", "put away",
};
static const char *const things[] = {
	"the red mug", "the milk carton", "Anna's keys", "a dirty plate", "the TV remote",
	"the blue bowl", "the sponge", "Ben's glasses", "a water bottle", "the bread knife",
};
static const char *const where[] = {
	"kitchen counter", "sink", "fridge", "dishwasher", "coffee table", "dining table",
	"key hook in the hallway", "nightstand", "bookshelf in the office", "sofa",
};
static const char *const tasks[] = {
	"bringing milk to Anna", "loading the dishwasher", "wiping the dining table",
	"finding Ben's keys", "tidying the living room", "introducing myself to a visitor",
	"patrolling the flat",
};
static const char *const when[] = {
	"On Monday morning", "On Tuesday afternoon", "On June 26", "In the evening",
	"After lunch", "Early on Thursday", "Over the weekend",
};

typedef struct text {
	char s[256];
	size_t n;
} text;

static void add(text *t, const char *p)
{
	size_t k = strlen(p);
	if (t->n + k >= sizeof t->s)
		k = sizeof t->s - 1 - t->n;
	memcpy(t->s + t->n, p, k);
	t->n += k;
	t->s[t->n] = '\0';
}

static void sentence(text *t, bench_rng *r, int level)
{
	if (t->n)
		add(t, " ");
	if (level == 1) {
		add(t, "I am ");
		add(t, BENCH_PICK(r, verbs_ing));
		add(t, " ");
		add(t, BENCH_PICK(r, things));
		add(t, " at the ");
		add(t, BENCH_PICK(r, where));
	} else if (level == 2) {
		add(t, "I ");
		add(t, BENCH_PICK(r, verbs_past));
		add(t, " ");
		add(t, BENCH_PICK(r, things));
		add(t, bench_rng_unit(r) < 0.5 ? " from the " : " next to the ");
		add(t, BENCH_PICK(r, where));
		if (bench_rng_unit(r) < 0.2)
			add(t, ", but the first grasp failed");
	} else if (level == 3) {
		add(t, bench_rng_unit(r) < 0.85 ? "I succeeded in " : "I gave up ");
		add(t, BENCH_PICK(r, tasks));
		add(t, " after I ");
		add(t, BENCH_PICK(r, verbs_past));
		add(t, " ");
		add(t, BENCH_PICK(r, things));
	} else {
		add(t, BENCH_PICK(r, when));
		add(t, ", I was mostly ");
		add(t, BENCH_PICK(r, tasks));
		add(t, " and ");
		add(t, BENCH_PICK(r, tasks));
	}
	add(t, ".");
}

/* 40..200 bytes: whole sentences, the last one cut at a word if needed. */
static void summary(text *t, bench_rng *r, int level)
{
	size_t want = bench_rng_range(r, 40, 200);
	t->n = 0;
	t->s[0] = '\0';
	while (t->n < want)
		sentence(t, r, level);
	if (t->n > 200) {
		size_t cut = 199;
		while (cut > 40 && t->s[cut] != ' ')
			cut--;
		t->s[cut] = '.';
		t->n = cut + 1;
		t->s[t->n] = '\0';
	}
}

/* A small msgpack map for scenes and events, shaped like part of an
 * observation body: {3: {1: action}, 6: location}. */
static size_t payload(uint8_t *out, bench_rng *r)
{
	static const char *const acts[] = { "GraspObject", "PlaceObject", "MoveToLocation",
		                            "WipeSurface", "HandOverObjectToHuman" };
	static const char *const rooms[] = { "kitchen", "living_room", "hallway", "office" };
	const char *a = BENCH_PICK(r, acts), *room = BENCH_PICK(r, rooms);
	size_t an = strlen(a), rn = strlen(room), n = 0;
	out[n++] = 0x82;
	out[n++] = 0x03;
	out[n++] = 0x81;
	out[n++] = 0x01;
	out[n++] = (uint8_t)(0xa0 | an);
	memcpy(out + n, a, an);
	n += an;
	out[n++] = 0x06;
	out[n++] = (uint8_t)(0xa0 | rn);
	memcpy(out + n, room, rn);
	return n + rn;
}

/* --------------------------------------------------------------- nodes -- */

static eng_node *new_node(const text *sum, const uint8_t *pay, size_t plen, uint32_t nc)
{
	eng_node *n = calloc(1, sizeof *n + nc * sizeof(eng_ref) + plen + sum->n + 1);
	if (!n)
		return NULL;
	uint8_t *p = (uint8_t *)(n + 1);
	n->children = (eng_ref *)p;
	n->n_children = nc;
	p += nc * sizeof(eng_ref);
	n->payload = plen ? p : NULL;
	n->payload_len = plen;
	memcpy(p, pay, plen);
	p += plen;
	n->summary = (char *)p;
	n->summary_len = sum->n;
	memcpy(n->summary, sum->s, sum->n + 1);
	n->version = 1;
	n->content_hash = XXH3_64bits(sum->s, sum->n);
	return n;
}

/* Lifetimes per level before forgetting looks at a node (DESIGN.md §6:
 * tau = t_end + dt * gamma, gamma doubling above level 3). */
static int64_t expiry_for(int level, int64_t t_end)
{
	static const int64_t dt_days[] = { 0, 1, 3, 7, 7, 7 };
	if (level >= ROOT_LEVEL)
		return H2EMV_TIME_NEVER;
	int64_t gamma = level <= 3 ? 1 : (int64_t)1 << (level - 3);
	return t_end + dt_days[level] * DAY_US * gamma;
}

static const uint8_t kinds[] = { 0, H2EMV_KIND_SCENE, H2EMV_KIND_EVENT, H2EMV_KIND_GOAL,
	                         H2EMV_KIND_SUMMARY, H2EMV_KIND_SUMMARY, H2EMV_KIND_ROOT };

static void stamp(bench_tree *t, eng_node *n, int level)
{
	n->id = t->next_id++;
	n->level = (uint8_t)level;
	n->kind = kinds[level];
	n->expiry = expiry_for(level, n->t_end);
	t->nodes[t->n++] = n;
	t->per_level[level]++;
	if (level >= 3)
		t->n_l3plus++;
}

/* Parents of nodes [from, to) in groups; returns the index after them. */
static int group(bench_tree *t, bench_rng *r, bench_rng *levels, size_t from, size_t to,
                 int level, size_t ngroups_max)
{
	uint8_t pay[64];
	text sum;
	for (size_t i = from; i < to;) {
		size_t k = level == ROOT_LEVEL ? to - i : fan(levels, level - 1);
		if (k > to - i)
			k = to - i;
		if (t->n == ngroups_max)
			return -1;
		summary(&sum, r, level);
		size_t plen = level == 2 ? payload(pay, r) : 0;
		eng_node *p = new_node(&sum, pay, plen, (uint32_t)k);
		if (!p)
			return -1;
		for (size_t j = 0; j < k; j++) {
			p->children[j].id = t->nodes[i + j]->id;
			p->children[j].version = t->nodes[i + j]->version;
		}
		p->t_start = t->nodes[i]->t_start;
		p->t_end = t->nodes[i + k - 1]->t_end;
		stamp(t, p, level);
		i += k;
	}
	return 0;
}

int treegen_make(bench_tree *t, size_t target, uint64_t seed)
{
	memset(t, 0, sizeof *t);
	if (target < 3)
		target = 3;
	size_t lo = 1, hi = target;
	while (lo < hi) { /* the most scenes whose tree fits in `target` */
		size_t mid = lo + (hi - lo + 1) / 2;
		if (count_for(mid, seed) <= target)
			lo = mid;
		else
			hi = mid - 1;
	}
	size_t scenes = lo, total = count_for(scenes, seed);
	t->nodes = calloc(total, sizeof *t->nodes);
	if (!t->nodes)
		return -1;
	t->next_id = 1;
	bench_rng r = { seed }, levels[ROOT_LEVEL + 1];
	seed_levels(levels, seed);
	uint8_t pay[64];
	text sum;
	int64_t now = INT64_C(1719386400000000);
	for (size_t i = 0; i < scenes; i++) {
		now += (int64_t)bench_rng_range(&r, 500000, 5000000);
		summary(&sum, &r, 1);
		eng_node *n = new_node(&sum, pay, payload(pay, &r), 0);
		if (!n)
			return -1;
		n->t_start = now;
		n->t_end = now + (int64_t)bench_rng_range(&r, 100000, 400000);
		stamp(t, n, 1);
	}
	t->t_now = now;
	size_t from = 0, to = t->n;
	for (int level = 2; level <= ROOT_LEVEL; level++) {
		if (group(t, &r, levels, from, to, level, total))
			return -1;
		from = to;
		to = t->n;
	}
	eng_node *root = t->nodes[t->n - 1];
	t->root.id = root->id;
	t->root.version = root->version;
	return 0;
}

void treegen_free(bench_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->nodes[i]);
	free(t->nodes);
	memset(t, 0, sizeof *t);
}
