/*
 * report.c — metrics, TSV, Markdown and the SVG chart (report.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/eval/judge.h"
#include "bench/eval/report.h"

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* 2 correct, 1 partially correct, 0 wrong or no answer. */
static int score(int broad)
{
	return broad == J_BROAD_CORRECT ? 2 : broad == J_BROAD_PARTIAL ? 1 : 0;
}

void ev_metrics_of(ev_metrics *m, const ev_result *r)
{
	memset(m, 0, sizeof *m);
	size_t c = 0, p = 0, n1 = 0, c1 = 0, p1 = 0, n2 = 0, c2 = 0, p2 = 0, f1 = 0, f2 = 0;
	uint64_t tq = 0, tb = 0;
	for (size_t i = 0; i < r->n; i++) {
		const ev_answer *a = &r->a[i];
		int s = score(a->broad);
		c += s == 2;
		p += s >= 1;
		tq += a->tokens;
		tb += a->build_tokens;
		if (a->round == 1) {
			n1++, c1 += s == 2, p1 += s >= 1, f1 += a->span_forgotten;
		} else {
			n2++, c2 += s == 2, p2 += s >= 1, f2 += a->span_forgotten;
		}
	}
	size_t pairs = 0, up = 0, eq = 0;
	for (size_t i = 0; i < r->n; i++) {
		const ev_answer *a = &r->a[i];
		if (a->round != 1)
			continue;
		for (size_t j = 0; j < r->n; j++) {
			const ev_answer *b = &r->a[j];
			if (b->round == 2 && b->history == a->history && b->pair == a->pair) {
				pairs++;
				up += score(b->broad) > score(a->broad);
				eq += score(b->broad) == score(a->broad);
				break;
			}
		}
	}
	m->questions = r->n;
	m->pairs = pairs;
	m->s_c = pct(c, r->n);
	m->s_p = pct(p, r->n);
	m->s_up = pct(up, pairs);
	m->s_eq = pct(eq, pairs);
	m->s_c1 = pct(c1, n1);
	m->s_p1 = pct(p1, n1);
	m->s_c2 = pct(c2, n2);
	m->s_p2 = pct(p2, n2);
	m->f_1 = pct(f1, n1);
	m->f_2 = pct(f2, n2);
	double h = r->histories ? (double)r->histories : 1.0;
	m->n_f = r->nf_sum / h;
	m->n_avg = r->navg_sum / h;
	m->c_qa = r->n ? (double)tq / (double)r->n / 1000.0 : 0.0;
	m->c_qa_build = r->n ? (double)tb / (double)r->n / 1000.0 : 0.0;
	m->c_f = (double)r->tok_forget / h / 1000.0;
	m->c_learn = (double)r->tok_learn / h / 1000.0;
	m->seconds = r->seconds;
}

void ev_write_tsv(FILE *f, const ev_result *r, size_t n)
{
	fprintf(f, "variant\tname\tquestions\tS_c\tS_p\tS_up\tS_eq\tS_c1\tS_p1\tS_c2\tS_p2\tN_f\tN_avg"
	           "\tC_qa\tC_qa_build\tC_f\tC_learn\tF_1\tF_2\tseconds\n");
	for (size_t i = 0; i < n; i++) {
		ev_metrics m;
		ev_metrics_of(&m, &r[i]);
		fprintf(f, "%s\t%s\t%zu\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f"
		           "\t%.2f\t%.2f\t%.2f\t%.2f\t%.1f\t%.1f\t%.2f\n",
		        r[i].v->id, r[i].v->name, m.questions, m.s_c, m.s_p, m.s_up, m.s_eq, m.s_c1,
		        m.s_p1, m.s_c2, m.s_p2, m.n_f, m.n_avg, m.c_qa, m.c_qa_build, m.c_f, m.c_learn,
		        m.f_1, m.f_2, m.seconds);
	}
}

/* A field for a TSV: tabs and newlines become spaces. */
static void tsv_field(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void ev_write_answers_tsv(FILE *f, const ev_result *r, size_t n)
{
	fprintf(f, "variant\thistory\tpair\tround\tkind\tcategory\tspan_forgotten\ttokens"
	           "\tbuild_tokens\tquestion\ttruth\tanswer\n");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].n; k++) {
			const ev_answer *a = &r[i].a[k];
			fprintf(f, "%s\t%zu\t%u\t%d\t%s\t%s\t%d\t%llu\t%llu\t", r[i].v->id, a->history,
			        a->pair, a->round, a->kind, judge_fine_name(a->fine), a->span_forgotten,
			        (unsigned long long)a->tokens, (unsigned long long)a->build_tokens);
			tsv_field(f, a->question);
			fputc('\t', f);
			tsv_field(f, a->truth);
			fputc('\t', f);
			tsv_field(f, a->answer);
			fputc('\n', f);
		}
}

void ev_write_markdown(FILE *f, const ev_result *r, size_t n, const char *title)
{
	if (title)
		fprintf(f, "### %s\n\n", title);
	fprintf(f, "| variant | S_c | S_p | S_↑ | S_≡ | S_c¹ | S_p¹ | S_c² | S_p² | N_f | N_∅ "
	           "| C_qa [K] | C_f [K] | forgotten r1 / r2 [%%] |\n");
	fprintf(f, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	for (size_t i = 0; i < n; i++) {
		ev_metrics m;
		ev_metrics_of(&m, &r[i]);
		char cqa[48];
		if (r[i].v->construction == EV_OFFLINE)
			snprintf(cqa, sizeof cqa, "%.2f + %.2f", m.c_qa, m.c_qa_build);
		else
			snprintf(cqa, sizeof cqa, "%.2f", m.c_qa);
		char cf[32];
		if (r[i].v->forgetting == H2EMV_FORGET_RELEVANCE)
			snprintf(cf, sizeof cf, "%.1f", m.c_f);
		else
			snprintf(cf, sizeof cf, "--");
		fprintf(f, "| %s (%s) | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f "
		           "| %.1f | %s | %s | %.0f / %.0f |\n",
		        r[i].v->name, r[i].v->id, m.s_c, m.s_p, m.s_up, m.s_eq, m.s_c1, m.s_p1, m.s_c2,
		        m.s_p2, m.n_f, m.n_avg, cqa, cf, m.f_1, m.f_2);
	}
	fputc('\n', f);
}

/* ------------------------------------------------------------------ svg -- */

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* One panel: for each variant, `k` bars from vals[i*k + j] scaled to vmax. */
static void panel(FILE *f, double x0, double y0, double w, double h, const char *title,
                  const ev_result *r, size_t n, const double *vals, size_t k,
                  const char *const *colors, const char *const *labels, double vmax,
                  const char *unit)
{
	fprintf(f, "<text x='%.1f' y='%.1f' font-size='13' font-weight='bold'>", x0, y0 - 8);
	xml_text(f, title);
	fprintf(f, "</text>\n");
	fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#333'/>\n", x0, y0 + h,
	        x0 + w, y0 + h);
	if (vmax <= 0)
		vmax = 1;
	for (int g = 0; g <= 4; g++) {
		double y = y0 + h - h * g / 4.0;
		fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>", x0, y, x0 + w,
		        y);
		fprintf(f, "<text x='%.1f' y='%.1f' font-size='9' text-anchor='end'>%.4g%s</text>\n",
		        x0 - 3, y + 3, vmax * g / 4.0, unit);
	}
	double gw = w / (double)(n ? n : 1), bw = gw * 0.8 / (double)k;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < k; j++) {
			double v = vals[i * k + j], bh = h * (v > vmax ? 1.0 : v / vmax);
			double x = x0 + gw * (double)i + gw * 0.1 + bw * (double)j;
			fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'>"
			           "<title>%s %s: %.2f</title></rect>\n",
			        x, y0 + h - bh, bw, bh, colors[j], r[i].v->id, labels[j], v);
		}
		fprintf(f, "<text x='%.1f' y='%.1f' font-size='9' text-anchor='end' "
		           "transform='rotate(-45 %.1f %.1f)'>",
		        x0 + gw * (double)i + gw / 2, y0 + h + 12, x0 + gw * (double)i + gw / 2,
		        y0 + h + 12);
		xml_text(f, r[i].v->name);
		fprintf(f, "</text>\n");
	}
	/* the legend in a row under the variant names */
	for (size_t j = 0; j < k; j++) {
		double lx = x0 + 110.0 * (double)j, ly = y0 + h + 78;
		fprintf(f, "<rect x='%.1f' y='%.1f' width='10' height='10' fill='%s'/>", lx, ly,
		        colors[j]);
		fprintf(f, "<text x='%.1f' y='%.1f' font-size='10'>", lx + 14, ly + 9);
		xml_text(f, labels[j]);
		fprintf(f, "</text>\n");
	}
}

void ev_write_svg(FILE *f, const ev_result *r, size_t n, const char *title)
{
	double *qa = calloc(4 * n + 1, sizeof *qa), *size = calloc(n + 1, sizeof *size);
	double *tok = calloc(2 * n + 1, sizeof *tok);
	if (!qa || !size || !tok) {
		free(qa), free(size), free(tok);
		return;
	}
	double smax = 0, tmax = 0;
	for (size_t i = 0; i < n; i++) {
		ev_metrics m;
		ev_metrics_of(&m, &r[i]);
		qa[4 * i] = m.s_c1, qa[4 * i + 1] = m.s_p1, qa[4 * i + 2] = m.s_c2, qa[4 * i + 3] = m.s_p2;
		size[i] = m.n_f;
		tok[2 * i] = m.c_qa, tok[2 * i + 1] = m.c_qa_build;
		if (m.n_f > smax)
			smax = m.n_f;
		if (m.c_qa > tmax)
			tmax = m.c_qa;
		if (m.c_qa_build > tmax)
			tmax = m.c_qa_build;
	}
	const double pw = 40.0 * (double)n + 80, W = 3 * pw + 120, H = 360;
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
	           "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
	        W, H);
	if (title) {
		fprintf(f, "<text x='10' y='18' font-size='15'>");
		xml_text(f, title);
		fprintf(f, "</text>\n");
	}
	static const char *const qc[] = { "#1f77b4", "#9ecae1", "#2ca02c", "#a1d99b" };
	static const char *const ql[] = { "S_c round 1", "S_p round 1", "S_c round 2", "S_p round 2" };
	panel(f, 50, 60, pw, 180, "QA performance [%]", r, n, qa, 4, qc, ql, 100, "");
	static const char *const sc[] = { "#7f7f7f" };
	static const char *const sl[] = { "N_f" };
	panel(f, 90 + pw, 60, pw, 180, "Final tree size (L3+ nodes)", r, n, size, 1, sc, sl,
	      smax * 1.1, "");
	static const char *const tc[] = { "#d62728", "#ff9896" };
	static const char *const tl[] = { "C_qa", "C_qa build" };
	panel(f, 130 + 2 * pw, 60, pw, 180, "QA tokens per question [K]", r, n, tok, 2, tc, tl,
	      tmax * 1.1, "");
	fprintf(f, "</svg>\n");
	free(qa), free(size), free(tok);
}
