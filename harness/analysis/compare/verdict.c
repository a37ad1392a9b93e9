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
#include "num.h"

/* ---- statistics ---- */

static double parse_num(const struct run *r, int row, int col)
{
	const char *s = r->t->rows[row][col];
	double v;

	if (num_double(s, -INFINITY, INFINITY, &v))
		usage_error("RUN", r->csv_path, "line %d: column %s: \"%s\" is not a number",
			    row + 2, r->t->header[col], s);
	return v;
}

/* cell_values - the non-empty values of @metric in the ok rows of @cl; sets *mux. */
static size_t cell_values(const struct compare *c, const struct cell *cl, int metric, double *out,
			  double *mux)
{
	size_t n = 0;

	*mux = 1;
	for (int i = 0; i < cl->nrows; i++) {
		const struct run *r = &c->runs[cl->rows[i].run];
		int row = cl->rows[i].row, col = r->metric_col[metric], mc = r->mux_col[metric];

		if (col < 0 || strcmp(cmp_cell_at(r, row, r->col[C_STATUS]), "ok") ||
		    !r->t->rows[row][col][0])
			continue;
		out[n++] = parse_num(r, row, col);
		if (mc >= 0 && r->t->rows[row][mc][0]) {
			double m = parse_num(r, row, mc);

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
	s->cv = stats_cv(v, n);
	s->mux = mux;
}

int cmp_higher_is_better(const char *metric)
{
	return !strcmp(metric, "ops_per_s");
}

static void status_flags(struct sb *f, const char *who, const struct cell *cl)
{
	if (cl->nerr)
		sb_printf(f, "%s%s %d/%d error: %.60s", f->n ? "; " : "", who, cl->nerr, cl->nrows,
			  cl->err_reason);
	if (cl->nskip)
		sb_printf(f, "%s%s %d/%d skipped: %.60s", f->n ? "; " : "", who, cl->nskip,
			  cl->nrows, cl->skip_reason[0] ? cl->skip_reason : "no reason given");
}

void cmp_compare_cells(struct compare *c, int bi, int col)
{
	struct block *bl = &c->blocks[bi];
	const struct cell *cb = &c->cells[bl->cell[0]], *co = &c->cells[bl->cell[col]];
	size_t cap = (size_t)(cb->nrows > co->nrows ? cb->nrows : co->nrows) + 1;
	double *vb = xcalloc(cap, sizeof(double)), *vo = xcalloc(cap, sizeof(double));

	for (int m = 0; m < c->nmetrics; m++) {
		struct result r = {.block = bi, .col = col, .metric = m};
		double muxb, muxo;
		size_t nb = cell_values(c, cb, m, vb, &muxb), no = cell_values(c, co, m, vo, &muxo);
		struct sb flags = {0};
		int first = 1;

		for (int k = 0; k < m; k++)
			first &= bl->res[col * c->nmetrics + k] < 0;
		if (strcmp(c->metrics[m], "ops_per_s") && (!nb || !no))
			continue;
		summarize(vb, nb, muxb, &r.b);
		summarize(vo, no, muxo, &r.o);
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
		if (c->o.ci && nb && no &&
		    !stats_bootstrap_ratio_ci(vb, nb, vo, no, 1 - c->o.alpha, CI_ITERS, CI_SEED,
					      &r.ci_lo, &r.ci_hi)) {
			r.ci_lo = 100 * (r.ci_lo - 1);
			r.ci_hi = 100 * (r.ci_hi - 1);
		}
		if (isnan(r.change) || !r.have_p) {
			r.verdict = "n/a";
		} else if (r.mwu.p < c->o.alpha && fabs(r.change) >= c->o.min_change) {
			int up = r.change > 0;

			r.verdict =
			    up == cmp_higher_is_better(c->metrics[m]) ? "improved" : "regressed";
		} else if (r.mwu.p < c->o.alpha) {
			r.verdict = "small";
		} else if (r.min_p >= c->o.alpha) {
			r.verdict = "low n";
		} else {
			r.verdict = "n.s.";
		}
		if (first) {
			status_flags(&flags, "base", cb);
			status_flags(&flags, "with-patch", co);
		}
		if (r.b.mux < 1)
			sb_printf(&flags, "%sbase multiplexed (mux %.2f)", flags.n ? "; " : "",
				  r.b.mux);
		if (r.o.mux < 1)
			sb_printf(&flags, "%swith-patch multiplexed (mux %.2f)",
				  flags.n ? "; " : "", r.o.mux);
		r.flags = flags.p ? flags.p : xstrdup("");
		c->res = xrealloc(c->res, (size_t)(c->nres + 1) * sizeof(*c->res));
		bl->res[col * c->nmetrics + m] = c->nres;
		c->res[c->nres++] = r;
	}
	free(vb);
	free(vo);
}
