/*
 * sim.c — `h2emv sim`'s driver: checks the options, draws the history's
 * routine (the few tasks this household does most), records episodes one
 * day at a time, places them on the calendar the way the paper's generator
 * does (upstream teach/incremental_data/create_seq.py: base date 2024-01-01
 * ± 304 days, 1–2 episodes a day between 08:00 and 20:00, ≥ 30 s apart,
 * a day skipped with probability 0.6, at most 5 in a row) and emits the
 * lines with their times.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/eval/sim_internal.h"

#define DAY_US (86400ll * SIM_US)
#define HOUR_US (3600ll * SIM_US)
#define DAY_FIRST (8 * HOUR_US)
#define DAY_LAST (20 * HOUR_US)
#define EPISODE_GAP (30 * SIM_US)
#define MAX_TASKS 32

/* ------------------------------------------------------------ calendar -- */

/* Days since 1970-01-01 <-> proleptic Gregorian dates (H. Hinnant's algorithms). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* "2024-09-23T10:03:13.250Z" (times here are whole milliseconds). */
static void format_time(char *out, size_t n, h2emv_time t)
{
	int64_t day = t / DAY_US, us = t % DAY_US, y;
	unsigned m, d;
	civil_from_days(day, &y, &m, &d);
	int64_t s = us / SIM_US;
	snprintf(out, n, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", (long long)y, m, d,
	         (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60),
	         (long long)(us % SIM_US / SIM_MS));
}

/* --------------------------------------------------------------- state -- */

typedef struct gen {
	const sim_options *o;
	sim_rng rng;
	sim_world teach, armar;
	unsigned wt_teach[MAX_TASKS], wt_armar[MAX_TASKS];
	sim_ep ep[2];
	int ep_armar[2];
	const sim_task *ep_task[2];
	char notes[2][160];
	sbuf line;
	sim_emit_fn emit;
	void *arg;
} gen;

static int fail(h2emv_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(h2emv_error *err, int status, const char *fmt, ...)
{
	if (err) {
		memset(err, 0, sizeof *err);
		err->status = status;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return status;
}

/* A household's routine: `n_hot` tasks weigh `hot`, the rest 1, so a few
 * tasks recur often while the others still turn up. */
static void draw_routine(sim_rng *r, unsigned *wt, size_t n, unsigned n_hot, unsigned hot)
{
	for (size_t k = 0; k < n; k++)
		wt[k] = 1;
	for (unsigned k = 0; k < n_hot && k < n; k++) {
		unsigned j = rng_below(r, (unsigned)n);
		while (wt[j] != 1)
			j = (j + 1) % (unsigned)n;
		wt[j] = hot;
	}
}

static const sim_task *pick_task(sim_rng *r, const sim_task *tasks, const unsigned *wt, size_t n)
{
	unsigned total = 0;
	for (size_t k = 0; k < n; k++)
		total += wt[k];
	unsigned x = rng_below(r, total);
	for (size_t k = 0; k < n; k++) {
		if (x < wt[k])
			return &tasks[k];
		x -= wt[k];
	}
	return &tasks[n - 1];
}

/* Record episode `index` into slot `s`. */
static int record(gen *g, int s, unsigned index)
{
	sim_style st = g->o->style;
	int armar = st == SIM_STYLE_ARMAR || (st == SIM_STYLE_MIXED && rng_chance(&g->rng, 0.5));
	sim_world *w = armar ? &g->armar : &g->teach;
	sim_ep *e = &g->ep[s];
	for (int tries = 0; tries < 8; tries++) {
		if (armar)
			armar_drift(w, &g->rng);
		else
			teach_drift(w, &g->rng);
		const sim_task *t = armar ? pick_task(&g->rng, sim_armar_tasks, g->wt_armar, sim_n_armar_tasks)
		                          : pick_task(&g->rng, sim_teach_tasks, g->wt_teach, sim_n_teach_tasks);
		ep_reset(e);
		e->rng = &g->rng;
		e->w = w;
		e->task = t->name;
		e->title = t->title;
		e->persons = armar;
		if (!armar)
			ep_goal(e, t->name, NULL);
		/* ~8% of the tasks fail for good at some interaction (fewer happen in an
		 * ARMAR session, so its failure point comes earlier) */
		e->fail_after = !rng_chance(&g->rng, 0.08) ? -1
		                : armar                    ? (int)rng_between(&g->rng, 0, 2)
		                                           : (int)rng_between(&g->rng, 2, 10);
		snprintf(g->notes[s], sizeof g->notes[s], "episode %u: %s", index + 1, t->title);
		e->note = g->notes[s];
		t->run(e, t);
		if (e->oom || w->oom || e->text.oom)
			return H2EMV_ENOMEM;
		g->ep_armar[s] = armar;
		g->ep_task[s] = t;
		if (e->n_obs)
			return H2EMV_OK;
	}
	return H2EMV_EINTERNAL; /* tasks that never find what they need: a bug */
}

static int emit_episode(gen *g, int s, unsigned index, h2emv_time start)
{
	const sim_ep *e = &g->ep[s];
	if (g->o->on_episode) {
		sim_episode info = {
			index, g->ep_armar[s] ? SIM_STYLE_ARMAR : SIM_STYLE_TEACH, e->task, e->title,
			!e->failed, start + e->obs[0].at, start + e->obs[e->n_obs - 1].at, e->n_obs,
		};
		int rc = g->o->on_episode(g->arg, &info);
		if (rc)
			return rc;
	}
	for (size_t k = 0; k < e->n_obs; k++) {
		char t[40];
		format_time(t, sizeof t, start + e->obs[k].at);
		g->line.len = 0;
		sb_printf(&g->line, "{\"t\":\"%s\"", t);
		sb_putn(&g->line, e->text.p + e->obs[k].off, e->obs[k].len);
		if (g->line.oom)
			return H2EMV_ENOMEM;
		int rc = g->emit(g->arg, g->line.p, g->line.len);
		if (rc)
			return rc;
	}
	return H2EMV_OK;
}

/* One day: 1 or 2 episodes between 08:00 and 20:00, ≥ 30 s apart. */
static int one_day(gen *g, int64_t day, unsigned index, unsigned k)
{
	for (unsigned s = 0; s < k; s++) {
		int rc = record(g, (int)s, index + s);
		if (rc)
			return rc;
	}
	int64_t d0 = g->ep[0].now, d1 = k > 1 ? g->ep[1].now : 0;
	int64_t slack = (DAY_LAST - DAY_FIRST) - d0 - (k > 1 ? EPISODE_GAP + d1 : 0);
	if (slack < 0)
		slack = 0;
	int64_t lead = rng_between(&g->rng, 0, slack / SIM_MS) * SIM_MS;
	h2emv_time start = day * DAY_US + DAY_FIRST + lead;
	int rc = emit_episode(g, 0, index, start);
	if (rc || k < 2)
		return rc;
	start += d0 + EPISODE_GAP + rng_between(&g->rng, 0, (slack - lead) / SIM_MS) * SIM_MS;
	return emit_episode(g, 1, index + 1, start);
}

static int run(gen *g)
{
	const sim_options *o = g->o;
	int64_t day = o->start ? o->start / DAY_US
	                       : days_from_civil(2024, 1, 1) + rng_between(&g->rng, -304, 304);
	unsigned done = 0;
	while (done < o->episodes) {
		unsigned k = o->episodes - done >= 2 && rng_chance(&g->rng, 0.5) ? 2 : 1;
		int rc = one_day(g, day, done, k);
		if (rc)
			return rc;
		done += k;
		day++;
		for (int skipped = 0; skipped < 5 && rng_chance(&g->rng, 0.6); skipped++)
			day++;
	}
	return H2EMV_OK;
}

int sim_generate(const sim_options *o, sim_emit_fn emit, void *arg, h2emv_error *err)
{
	if (!o || !emit)
		return fail(err, H2EMV_EINVAL, "sim: no options or no emit callback");
	if (o->version != SIM_OPTIONS_VERSION)
		return fail(err, H2EMV_EINVAL, "sim: options version %u, expected %u", o->version,
		            SIM_OPTIONS_VERSION);
	if ((unsigned)o->style > SIM_STYLE_MIXED)
		return fail(err, H2EMV_EINVAL, "sim: unknown style %d", (int)o->style);
	if (o->episodes < 1 || o->episodes > SIM_MAX_EPISODES)
		return fail(err, H2EMV_EINVAL, "sim: %u episodes; give 1 to %u", o->episodes,
		            SIM_MAX_EPISODES);
	if (o->start && (o->start < 365 * DAY_US || o->start >= days_from_civil(9000, 1, 1) * DAY_US))
		return fail(err, H2EMV_EINVAL, "sim: the start day must lie between 1971 and 9000");
	gen g;
	memset(&g, 0, sizeof g);
	g.o = o;
	g.emit = emit;
	g.arg = arg;
	rng_seed(&g.rng, o->seed);
	draw_routine(&g.rng, g.wt_teach, sim_n_teach_tasks, 4, 4);
	draw_routine(&g.rng, g.wt_armar, sim_n_armar_tasks, 2, 3);
	int rc = world_init(&g.teach, &sim_home_teach);
	if (rc == H2EMV_OK)
		rc = world_init(&g.armar, &sim_home_armar);
	if (rc == H2EMV_OK) {
		armar_people(&g.armar, &g.rng);
		rc = run(&g);
	}
	world_free(&g.teach);
	world_free(&g.armar);
	ep_free(&g.ep[0]);
	ep_free(&g.ep[1]);
	sb_free(&g.line);
	if (rc == H2EMV_ENOMEM)
		return fail(err, rc, "sim: out of memory");
	if (rc == H2EMV_EINTERNAL)
		return fail(err, rc, "sim: a task could not be recorded (a bug, please report)");
	return rc;
}

/* -------------------------------------------------------------- lists -- */

size_t sim_tasks(sim_task_info *out, size_t max)
{
	size_t n = 0;
	for (size_t k = 0; k < sim_n_teach_tasks; k++, n++)
		if (n < max)
			out[n] = (sim_task_info){ SIM_STYLE_TEACH, sim_teach_tasks[k].name,
				                  sim_teach_tasks[k].title };
	for (size_t k = 0; k < sim_n_armar_tasks; k++, n++)
		if (n < max)
			out[n] = (sim_task_info){ SIM_STYLE_ARMAR, sim_armar_tasks[k].name,
				                  sim_armar_tasks[k].title };
	return n;
}

static const char *const style_names[] = { "teach", "armar", "mixed" };

int sim_style_parse(sim_style *out, const char *s)
{
	for (int k = 0; k < 3; k++)
		if (s && !strcmp(s, style_names[k])) {
			*out = (sim_style)k;
			return H2EMV_OK;
		}
	return H2EMV_EINVAL;
}

const char *sim_style_name(sim_style s)
{
	return (unsigned)s <= SIM_STYLE_MIXED ? style_names[s] : "unknown";
}
