// SPDX-License-Identifier: MIT
/*
 * verdict.c - compare: the statistics of each comparison (medians, cv, %change, the
 * Mann-Whitney U test, the bootstrap interval) and its verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* ---- statistics ---- */

/* cell_values - the non-empty values of @metric in the ok rows of @cl; sets *mux. */
static size_t cell_values(const struct compare *c, const struct cell *cl, int metric, double *out,
			  double *mux)
{
	size_t n = 0;

	*mux = 1;
	for (int i = 0; i < cl->nrows; i++) {
		const struct cmp_run *r = &c->runs[cl->rows[i].run];
		int row = cl->rows[i].row, col = r->metric_col[metric], mc = r->mux_col[metric];

		if (col < 0 || strcmp(cmp_cell_at(r, row, r->col[C_STATUS]), "ok") ||
		    !r->t->rows[row][col][0])
			continue;
		out[n++] = cmp_parse_num(r, row, col);
		if (mc >= 0 && r->t->rows[row][mc][0]) {
			double m = cmp_parse_num(r, row, mc);

			if (m < *mux)
				*mux = m;
		}
	}
	return n;
}

static void summarize(const double *v, size_t n, double mux, struct summary *s)
{
	s->n = n;
	s->median = stats_median(v, n);
	s->mean = stats_mean(v, n);
	s->sd = n ? stats_stddev(v, n) : NAN;
	s->cv = n >= 2 ? stats_cv(v, n) : NAN; /* "-" for one value: no spread measured */
	s->mux = mux;
}

int cmp_higher_is_better(const char *metric)
{
	return !strcmp(metric, results_cols[COL_OPS_PER_S]);
}

#define REASON_MAX 60 /* a reason longer than this is shortened in the flags */

/*
 * add_reason - @s onto @f, whole when it is at most REASON_MAX bytes, else up to the last
 * space before that limit outside parentheses, then "...": never cut inside "(...)".
 */
static void add_reason(struct sb *f, const char *s)
{
	size_t n = strlen(s), cut = 0;
	int depth = 0;

	if (n <= REASON_MAX) {
		sb_add(f, s, n);
		return;
	}
	for (size_t i = 0; i < REASON_MAX; i++) {
		depth += (s[i] == '(') - (s[i] == ')');
		if (s[i] == ' ' && depth <= 0 && i > 0)
			cut = i;
	}
	if (!cut) /* one long word, or a parenthesis from the start: the whole text */
		cut = n;
	while (cut > 0 && (s[cut - 1] == ',' || s[cut - 1] == ';' || s[cut - 1] == ':'))
		cut--;
	sb_add(f, s, cut);
	if (cut < n)
		sb_add(f, "...", 3);
}

void cmp_status_flags(struct sb *f, const char *who, const struct cell *cl)
{
	const char *sp = who[0] ? " " : "";

	if (cl->nerr) {
		sb_printf(f, "%s%s%s%d/%d error: ", f->n ? "; " : "", who, sp, cl->nerr, cl->nrows);
		add_reason(f, cl->err_reason);
	}
	if (cl->nskip) {
		sb_printf(f, "%s%s%s%d/%d skipped: ", f->n ? "; " : "", who, sp, cl->nskip,
			  cl->nrows);
		add_reason(f, cl->skip_reason[0] ? cl->skip_reason : "no reason given");
	}
	if (cl->ndist) { /* status disturbed (group.c counts it apart from errors) */
		const char *why = cl->dist_reason[0] ? cl->dist_reason : "noise over the limit";

		if (!strncmp(why, "disturbed: ", 11)) /* the reason may name its status */
			why += 11;
		sb_printf(f, "%s%s%s%d/%d disturbed: ", f->n ? "; " : "", who, sp, cl->ndist,
			  cl->nrows);
		add_reason(f, why);
	}
}

/*
 * mux_flags - "base multiplexed (mux 0.50)" and the same of the with-patch side, for the
 * sides of @r whose counters were multiplexed.
 */
static void mux_flags(struct sb *f, const struct result *r)
{
	if (r->b.mux < 1)
		sb_printf(f, "%sbase multiplexed (mux %.2f)", f->n ? "; " : "", r->b.mux);
	if (r->o.mux < 1)
		sb_printf(f, "%swith-patch multiplexed (mux %.2f)", f->n ? "; " : "", r->o.mux);
}

void cmp_compare_cells(struct compare *c, int bi, int col)
{
	struct block *bl = &c->blocks[bi];
	const struct cell *cb = &c->cells[bl->cell[0]], *co = &c->cells[bl->cell[col]];
	size_t cap = (size_t)(cb->nrows > co->nrows ? cb->nrows : co->nrows) + 1;
	double *vb = xcalloc(cap, sizeof(double)), *vo = xcalloc(cap, sizeof(double));
	struct result fair;

	cmp_fairness(c, bi, col, &fair);
	for (int m = 0; m < c->nmetrics; m++) {
		struct result r = {.block = bi, .col = col, .metric = m};
		double muxb, muxo;
		size_t nb = cell_values(c, cb, m, vb, &muxb), no = cell_values(c, co, m, vo, &muxo);
		struct sb flags = {0};
		int first = 1;

		for (int k = 0; k < m; k++)
			first &= bl->res[col * c->nmetrics + k] < 0;
		int all_zero = 1;

		for (size_t k = 0; k < nb; k++)
			all_zero &= vb[k] == 0;
		for (size_t k = 0; k < no; k++)
			all_zero &= vo[k] == 0;
		/* Rows with nothing to say never appear: a counter 0 on both sides, or absent. */
		if (strcmp(c->metrics[m], results_cols[COL_OPS_PER_S]) && (!nb || !no || all_zero))
			continue;
		if (!nb && !no && !cb->nerr && !cb->nskip && !cb->ndist && !co->nerr &&
		    !co->nskip && !co->ndist)
			continue;
		summarize(vb, nb, muxb, &r.b);
		summarize(vo, no, muxo, &r.o);
		r.fair_b = fair.fair_b;
		r.fair_o = fair.fair_o;
		r.fair_p = fair.fair_p;
		r.fair_changed = fair.fair_changed;
		r.change = NAN;
		r.ci_lo = r.ci_hi = NAN;
		/* From a zero median: no change to zero, an infinite one to anything else. */
		if (nb && no)
			r.change = r.b.median != 0
				       ? 100 * (r.o.median - r.b.median) / fabs(r.b.median)
				   : r.o.median == 0 ? 0
						     : copysign(INFINITY, r.o.median);
		r.min_p = stats_mwu_min_p(nb, no);
		if (nb && no)
			r.have_p = !stats_mwu(vo, no, vb, nb, STATS_MWU_AUTO, &r.mwu);
		/* The interval: always for ops_per_s (the end tables show it), else with --ci. */
		if ((c->o.ci || !strcmp(c->metrics[m], results_cols[COL_OPS_PER_S])) && nb > 1 &&
		    no > 1 &&
		    !stats_bootstrap_ratio_ci(vb, nb, vo, no, 1 - c->o.alpha, CI_ITERS, CI_SEED,
					      &r.ci_lo, &r.ci_hi)) {
			r.ci_lo = 100 * (r.ci_lo - 1);
			r.ci_hi = 100 * (r.ci_hi - 1);
		}
		if (c->paired) { /* the blocks' reasons stand for the rows' statuses */
			cmp_pair_result(c, bi, col, &r, &flags);
		} else if (first) {
			cmp_status_flags(&flags, "base", cb);
			cmp_status_flags(&flags, "with-patch", co);
		}
		mux_flags(&flags, &r);
		if (r.fair_changed && !strcmp(c->metrics[m], results_cols[COL_OPS_PER_S]))
			sb_printf(&flags, "%sfairness %.2f -> %.2f (p %.3g)", flags.n ? "; " : "",
				  r.fair_b, r.fair_o, r.fair_p);
		r.flags = flags.p ? flags.p : xstrdup("");
		c->res = xrealloc(c->res, (size_t)(c->nres + 1) * sizeof(*c->res));
		bl->res[col * c->nmetrics + m] = c->nres;
		c->res[c->nres++] = r;
	}
	free(vb);
	free(vo);
}

/*
 * reps_left - independent repetitions: "2 of 10 repetitions disturbed (2 run delay)", the
 * rows of both sides of a comparison (@cb, @co) that are not ok, counted by their reasons
 * as blocks are; NULL when every row is ok.
 */
static char *reps_left(const struct compare *c, const struct cell *cb, const struct cell *co)
{
	const struct cell *side[2] = {cb, co};
	const char **why = xcalloc((size_t)(cb->nrows + co->nrows) + 1, sizeof(*why));
	int n = 0;
	char *s = NULL;

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < side[k]->nrows; i++) {
			const struct cmp_run *r = &c->runs[side[k]->rows[i].run];
			int row = side[k]->rows[i].row;

			if (strcmp(cmp_cell_at(r, row, r->col[C_STATUS]), "ok"))
				why[n++] = cmp_row_reason(r, row);
		}
	if (n)
		s = cmp_left_text(why, n, cb->nrows + co->nrows, "repetition");
	free(why);
	return s;
}

/*
 * no_verdict - a comparison with something measured on both sides (ok or disturbed rows)
 * but too few clean data for p < alpha after the correction: clean blocks (paired), or ok
 * repetitions (independent: the smallest p of their Mann-Whitney U). Puts why in @why when
 * the flags do not say it yet: the rows left out, counted, else how many were needed.
 */
static int no_verdict(const struct compare *c, struct result *r, struct sb *why)
{
	const struct block *b = &c->blocks[r->block];
	const struct cell *cb = &c->cells[b->cell[0]], *co = &c->cells[b->cell[r->col]];
	int mult = c->o.correction == CORR_NONE || r->family < 1 ? 1 : r->family;
	int need;
	char *left;

	/* Nothing measured on a side (skipped, failed): n/a, in either design. */
	if (!(cb->nok + cb->ndist) || !(co->nok + co->ndist))
		return 0;
	if (r->paired) {
		need = r->need = stats_signrank_blocks_needed(mult, c->o.alpha);
		if (r->have_p && r->nclean >= need)
			return 0;
		if (!cmp_blocks_left((struct compare *)c, r->block, r->col))
			sb_printf(why, "%d clean block%s: %d needed for p < %g (%d comparison%s)",
				  r->nclean, r->nclean == 1 ? "" : "s", need, c->o.alpha, mult,
				  mult == 1 ? "" : "s");
		return 1;
	}
	if (r->have_p && mult * r->min_p < c->o.alpha)
		return 0;
	r->need = stats_mwu_reps_needed(mult, c->o.alpha);
	if ((left = reps_left(c, cb, co))) {
		sb_printf(why, "%s", left);
		free(left);
	} else {
		sb_printf(
		    why, "%zu vs %zu ok repetitions: %d a side needed for p < %g (%d comparison%s)",
		    r->b.n, r->o.n, r->need, c->o.alpha, mult, mult == 1 ? "" : "s");
	}
	return 1;
}

/*
 * The verdict of @r from its corrected p. Without a verdict the flags say why: paired, the
 * blocks left out (already in them) or the blocks needed; independent, in place of the
 * sides' statuses, the repetitions left out or the repetitions needed, as blocks do.
 */
static const char *judge(const struct compare *c, struct result *r)
{
	struct sb why = {0};

	if (no_verdict(c, r, &why)) {
		char *f;

		if (r->paired) { /* after the flags, which name the blocks left out */
			f = xasprintf("%s%s%s", r->flags, r->flags[0] && why.n ? "; " : "",
				      sb_str(&why));
		} else { /* in place of the sides' statuses */
			mux_flags(&why, r);
			f = xstrdup(sb_str(&why));
		}
		free(r->flags);
		free(why.p);
		r->flags = f;
		return "no verdict";
	}
	if (isnan(r->change) || !r->have_p)
		return "n/a";
	if (r->p_adj < c->o.alpha && fabs(r->change) >= c->o.min_change)
		return (r->change > 0) == cmp_higher_is_better(c->metrics[r->metric]) ? "improved"
										      : "regressed";
	if (r->p_adj < c->o.alpha)
		return "small";
	return "n.s.";
}

/* cmp_by_p - results by p-value (qsort_r's @arg: the comparison), then by index. */
static int cmp_by_p(const void *pa, const void *pb, void *arg)
{
	const struct compare *c = arg;
	double a = c->res[*(const int *)pa].mwu.p, b = c->res[*(const int *)pb].mwu.p;

	return a < b ? -1 : a > b ? 1 : *(const int *)pa - *(const int *)pb;
}

const char *const cmp_correction_names[] = {"holm", "bh", "none", NULL};
const char *const cmp_correction_short[] = {"Holm-corrected", "Benjamini-Hochberg-corrected",
					    "uncorrected"};

/*
 * Holm (step-down): the i-th smallest of m p-values becomes max over j <= i of
 * (m - j) p_(j), capped at 1; it controls the family-wise error rate. Benjamini-Hochberg
 * (step-up): min over j >= i of m / (j + 1) p_(j), capped at 1; it controls the false
 * discovery rate. 0-based ranks.
 */
static void adjust(struct compare *c, int *idx, int m)
{
	double run = 0;

	qsort_r(idx, (size_t)m, sizeof(int), cmp_by_p, c);
	if (c->o.correction == CORR_HOLM) {
		for (int j = 0; j < m; j++) {
			double v = (m - j) * c->res[idx[j]].mwu.p;

			run = v > run ? v : run;
			c->res[idx[j]].p_adj = run < 1 ? run : 1;
		}
	} else if (c->o.correction == CORR_BH) {
		run = 1;
		for (int j = m - 1; j >= 0; j--) {
			double v = (double)m / (j + 1) * c->res[idx[j]].mwu.p;

			run = v < run ? v : run;
			c->res[idx[j]].p_adj = run;
		}
	} else {
		for (int j = 0; j < m; j++)
			c->res[idx[j]].p_adj = c->res[idx[j]].mwu.p;
	}
}

void cmp_judge(struct compare *c)
{
	int *idx = xcalloc((size_t)c->nres + 1, sizeof(int));
	char *done = xcalloc((size_t)c->nres + 1, 1);

	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		int g = c->blocks[r->block].group, m = 0;

		if (done[i])
			continue;
		/* The family: the results with a p of the same metric in the same table. */
		for (int k = i; k < c->nres; k++) {
			const struct result *q = &c->res[k];

			if (!done[k] && q->metric == r->metric && c->blocks[q->block].group == g) {
				done[k] = 1;
				if (q->have_p)
					idx[m++] = k;
			}
		}
		adjust(c, idx, m);
		for (int k = 0; k < m; k++)
			c->res[idx[k]].family = m;
	}
	for (int i = 0; i < c->nres; i++) {
		if (!c->res[i].have_p)
			c->res[i].p_adj = NAN;
		c->res[i].verdict = judge(c, &c->res[i]);
	}
	free(idx);
	free(done);
}

void cmp_cell_summary(const struct compare *c, int cell, int metric, struct summary *s)
{
	const struct cell *cl = &c->cells[cell];
	double *v = xcalloc((size_t)cl->nrows + 1, sizeof(double)), mux;
	size_t n = cell_values(c, cl, metric, v, &mux);

	summarize(v, n, mux, s);
	free(v);
}
