// SPDX-License-Identifier: MIT
/*
 * fmt_summary.c - the `summary` report format, the default on the terminal and the
 * end-of-run tables of a measurement: per table (scenario, workload, placement, threads),
 * one row per preset (or per run): the median of the metric (ops/s, with its ns/op), cv,
 * %change against the base, the interval of the change, the corrected p and the verdict.
 * Then one list of the significant changes across all tables. It shows ops_per_s unless
 * --metric names other metrics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "table.h"

enum {
	S_CASE,
	S_VALUE,
	S_NS,
	S_CV,
	S_FAIR,
	S_CHANGE,
	S_CI,
	S_P,
	S_VERDICT,
	S_TARGET,
	S_FLAGS,
	S_N
};

/* shown - metric @m is on the terminal: ops_per_s, or every metric --metric names. */
static int shown(const struct compare *c, int m)
{
	return c->o.metrics || !strcmp(c->metrics[m], results_cols[COL_OPS_PER_S]);
}

int cmp_metric_index(const struct compare *c, const char *name)
{
	for (int m = 0; m < c->nmetrics; m++)
		if (!strcmp(c->metrics[m], name))
			return m;
	return -1;
}

/* The row label of column @col of block @b: the preset (one run) or entry (run). */
static void row_label(const struct compare *c, const struct block *b, int col, char *buf,
		      size_t len)
{
	if (c->one_run)
		snprintf(buf, len, "%s", b->label[col]);
	else
		snprintf(buf, len, "%s (%s)", c->entries[b->entry].label, b->label[col]);
}

static const struct result *result_at(const struct compare *c, const struct block *b, int col,
				      int m)
{
	int i = m >= 0 && col > 0 && col < b->ncols ? b->res[col * c->nmetrics + m] : -1;

	return i >= 0 ? &c->res[i] : NULL;
}

void cmp_verdict_cells(const struct result *r, char *change, char *ci, char *p, char *verdict,
		       size_t len)
{
	if (isnan(r->change))
		snprintf(change, len, "-");
	else
		snprintf(change, len, "%+.1f%%", r->change);
	if (isnan(r->ci_lo))
		snprintf(ci, len, "-");
	else
		snprintf(ci, len, "[%+.1f%%, %+.1f%%]", r->ci_lo, r->ci_hi);
	cmp_fmt_p(p, len, r);
	snprintf(verdict, len, "%s", r->verdict);
}

/* One row: column @col of block @b (0: the base), metric @m. Returns 1 if it has flags. */
static int add_row(struct table *t, const struct compare *c, const struct block *b, int col, int m)
{
	const struct result *r = result_at(c, b, col, m);
	int ns = cmp_metric_index(c, results_cols[COL_NS_PER_OP]);
	char cell[S_N][160];
	const char *cp[S_N];
	struct summary s;
	struct sb flags = {0};

	cmp_cell_summary(c, b->cell[col], m, &s);
	row_label(c, b, col, cell[S_CASE], sizeof(cell[S_CASE]));
	if (s.n)
		cmp_fmt_val(cell[S_VALUE], 160, s.median);
	else
		snprintf(cell[S_VALUE], 160, "-");
	snprintf(cell[S_NS], 160, "-");
	if (ns >= 0) {
		struct summary sn;

		cmp_cell_summary(c, b->cell[col], ns, &sn);
		if (sn.n)
			snprintf(cell[S_NS], 160, "%.1f", sn.median);
	}
	cmp_fmt_pct(cell[S_CV], 160, s.cv);
	cmp_fmt_fair(cell[S_FAIR], 160, NAN);
	for (int k = 1; !col && k < b->ncols; k++) /* the base's: from any of its comparisons */
		if (result_at(c, b, k, m)) {
			cmp_fmt_fair(cell[S_FAIR], 160, result_at(c, b, k, m)->fair_b);
			break;
		}
	if (col && r)
		cmp_fmt_fair(cell[S_FAIR], 160, r->fair_o);
	cell[S_CI][0] = cell[S_P][0] = cell[S_VERDICT][0] = cell[S_TARGET][0] = '\0';
	/* flags of this row's own repetitions (not ok, counters multiplexed), never cut; in
	 * blocks, or without a verdict, a comparison's flags say which blocks or repetitions
	 * were left out and why */
	if (col && r && (r->paired || !strcmp(r->verdict, "no verdict")))
		sb_printf(&flags, "%s", r->flags);
	else
		cmp_status_flags(&flags, "", &c->cells[b->cell[col]]);
	if (s.n && s.mux < 1)
		sb_printf(&flags, "%smultiplexed (mux %.2f)", flags.n ? "; " : "", s.mux);
	if (!col) {
		snprintf(cell[S_CHANGE], 160, "base");
	} else {
		cmp_verdict_cells(r, cell[S_CHANGE], cell[S_CI], cell[S_P], cell[S_VERDICT], 160);
		if (r->paired && !isnan(r->ci_lo))
			snprintf(cell[S_TARGET], 160, "%s (±%.1f%%)",
				 cmp_half_width(r) <= c->runs[0].precision ? "met" : "not met",
				 cmp_half_width(r));
	}
	for (int k = 0; k < S_N; k++)
		cp[k] = cell[k];
	cp[S_FLAGS] = sb_str(&flags);
	table_add(t, cp);
	free(flags.p);
	return flags.n > 0;
}

/* The tables of metric @m: one section per group, the base row first. */
static int print_metric(const struct compare *c, int m, FILE *out)
{
	int ops = !strcmp(c->metrics[m], results_cols[COL_OPS_PER_S]), rows = 0, last_group = -1;
	const struct table_col cols[S_N] = {
	    {c->one_run ? "preset" : "testcase", 0},
	    {ops ? "ops/s" : c->metrics[m], 1},
	    {"ns/op", 1},
	    {"cv", 1},
	    {"fairness", 1},
	    {"%change", 1},
	    {"ci", 0},
	    {"p", 1},
	    {"verdict", 0},
	    {"target", 0},
	    {"flags", 0},
	};
	struct table *t = table_new(S_N, cols);
	int flagged = 0, fair = 0;

	if (!ops || cmp_metric_index(c, results_cols[COL_NS_PER_OP]) < 0)
		table_hide(t, S_NS);
	if (!ops || !c->paired || isnan(c->runs[0].precision))
		table_hide(t, S_TARGET);
	for (int i = 0; i < c->nres; i++) /* fairness: ops/s tables with several threads */
		fair |=
		    c->res[i].metric == m && !(isnan(c->res[i].fair_b) && isnan(c->res[i].fair_o));
	if (!ops || !fair)
		table_hide(t, S_FAIR);
	for (int bi = 0; bi < c->nblocks; bi++) {
		const struct block *b = &c->blocks[bi];
		int nres = 0;

		for (int col = 1; col < b->ncols; col++)
			nres += result_at(c, b, col, m) != NULL;
		/* A base alone (a scenario with one preset) only in the ops/s tables. */
		if (!nres && !(ops && b->ncols == 1))
			continue;
		if (b->group != last_group) {
			char *title = cmp_group_title(c, &c->groups[b->group], "  ");

			table_section(t, title);
			free(title);
			last_group = b->group;
		}
		flagged |= add_row(t, c, b, 0, m);
		for (int col = 1; col < b->ncols; col++)
			if (result_at(c, b, col, m))
				flagged |= add_row(t, c, b, col, m);
		rows++;
	}
	if (!flagged)
		table_hide(t, S_FLAGS);
	if (rows)
		table_print(t, out, TABLE_TEXT);
	table_free(t);
	return rows;
}

/* tested - @r is a shown metric with a p; significant - and improved or regressed. */
static int tested(const struct compare *c, const struct result *r)
{
	return shown(c, r->metric) && (r->have_p || !strcmp(r->verdict, "no verdict"));
}

static int no_verdict(const struct compare *c, const struct result *r)
{
	return shown(c, r->metric) && !strcmp(r->verdict, "no verdict");
}

static int significant(const struct compare *c, const struct result *r)
{
	return shown(c, r->metric) && r->have_p &&
	       (!strcmp(r->verdict, "improved") || !strcmp(r->verdict, "regressed"));
}

/* The significant changes of the shown metrics, across all tables. */
static void print_significant(const struct compare *c, FILE *out)
{
	enum { G_WHERE, G_CASE, G_METRIC, G_CHANGE, G_CI, G_P, G_VERDICT, G_N };
	static const struct table_col cols[G_N] = {
	    {"table", 0}, {"change", 0}, {"metric", 0},	 {"%change", 1},
	    {"ci", 0},	  {"p", 1},	 {"verdict", 0},
	};
	struct table *t = table_new(G_N, cols);
	int nshown = 0, total = cmp_count_comparisons(c, tested),
	    nsig = cmp_count_comparisons(c, significant),
	    nnv = cmp_count_comparisons(c, no_verdict), pairs = 0;

	for (int bi = 0; bi < c->nblocks; bi++)
		pairs += c->blocks[bi].ncols > 1;
	for (int m = 0; m < c->nmetrics; m++)
		nshown += shown(c, m);
	if (nshown < 2)
		table_hide(t, G_METRIC);
	for (int i = 0; i < c->nres; i++) {
		const struct result *r = &c->res[i];
		const struct block *b = &c->blocks[r->block];
		const struct group *g = &c->groups[b->group];
		char cell[G_N][1024], base[256], with[256];
		const char *cp[G_N];

		if (!significant(c, r))
			continue;
		snprintf(cell[G_WHERE], 1024, "%s %s %s threads=%s%s%s", g->scenario, g->workload,
			 g->placement, g->threads, g->sweep[0] ? " " : "", g->sweep);
		row_label(c, b, 0, base, sizeof(base));
		row_label(c, b, r->col, with, sizeof(with));
		if (c->one_run)
			snprintf(cell[G_CASE], 1024, "%s vs %s", with, base);
		else
			snprintf(cell[G_CASE], 1024, "%s: %s vs %s", c->entries[b->entry].label,
				 b->label[r->col], b->label[0]);
		snprintf(cell[G_METRIC], 1024, "%s", c->metrics[r->metric]);
		cmp_verdict_cells(r, cell[G_CHANGE], cell[G_CI], cell[G_P], cell[G_VERDICT], 1024);
		for (int k = 0; k < G_N; k++)
			cp[k] = cell[k];
		table_add(t, cp);
	}
	fprintf(out, "\nsignificant changes: %d of %d comparison%s", nsig, total,
		total == 1 ? "" : "s");
	if (nnv)
		fprintf(out, " (%d without a verdict)", nnv);
	if (table_rows(t)) {
		fprintf(out, "\n");
		table_print(t, out, TABLE_TEXT);
	} else if (total) {
		fprintf(out, " (none: see the p and verdict columns)\n");
	} else if (!pairs) {
		fprintf(out, " (nothing to compare: one preset or side per table)\n");
	} else {
		fprintf(out, " (no comparison has ok repetitions on both sides: see the flags)\n");
	}
	table_free(t);
}

/*
 * The change of each comparison within each host mapping (c->mc), when there are several.
 * A cluster of fewer blocks than the exact signed-rank test needs to reach p < alpha at all
 * (6 at 0.05: its smallest p is 2/2^n) is too small to test: its p says so, not 0.500.
 */
static void print_mappings(const struct compare *c, FILE *out)
{
	enum { M_WHERE, M_CASE, M_MAP, M_N, M_CHANGE, M_CI, M_P, M_NCOLS };
	static const struct table_col cols[M_NCOLS] = {
	    {"table", 0},   {"change", 0}, {"transfer cost", 1}, {"blocks", 1},
	    {"%change", 1}, {"ci", 0},	   {"p (raw)", 1},
	};
	struct table *t;
	int need = stats_signrank_blocks_needed(1, c->o.alpha), small = 0;

	if (!c->nmc)
		return;
	t = table_new(M_NCOLS, cols);
	for (int i = 0; i < c->nmc; i++) {
		const struct mchange *mc = &c->mc[i];
		const struct result *r = &c->res[mc->res];
		const struct block *b = &c->blocks[r->block];
		char cell[M_NCOLS][640], base[256], with[256];
		const char *cp[M_NCOLS];
		char *title = cmp_group_title(c, &c->groups[b->group], " ");

		snprintf(cell[M_WHERE], 640, "%s", title);
		free(title);
		row_label(c, b, 0, base, sizeof(base));
		row_label(c, b, r->col, with, sizeof(with));
		snprintf(cell[M_CASE], 640, "%s vs %s", with, base);
		snprintf(cell[M_MAP], 256, "%.0f–%.0f ns", c->map_lo[mc->mapping],
			 c->map_hi[mc->mapping]);
		snprintf(cell[M_N], 256, "%d", mc->bc.n);
		snprintf(cell[M_CHANGE], 256, "%+.1f%%", mc->bc.pct);
		snprintf(cell[M_CI], 256, "[%+.1f%%, %+.1f%%]", mc->bc.lo, mc->bc.hi);
		if (mc->bc.n < need)
			snprintf(cell[M_P], 256, "too small"), small++;
		else
			snprintf(cell[M_P], 256, mc->bc.p >= 0.001 ? "%.3f" : "%.1e", mc->bc.p);
		for (int k = 0; k < M_NCOLS; k++)
			cp[k] = cell[k];
		table_add(t, cp);
	}
	fprintf(out, "\nper host mapping: %%change within the blocks of each transfer-cost cluster "
		     "(the tables above pool them)\n");
	table_print(t, out, TABLE_TEXT);
	if (small)
		fprintf(
		    out,
		    "too small: a cluster of fewer than %d blocks, whose signed-rank test cannot "
		    "reach p < %g (its smallest p with %d is %.3f)\n",
		    need, c->o.alpha, need - 1, stats_signrank_min_p((size_t)need - 1));
	table_free(t);
}

/* The lines of header @h whose key is one of @keys. */
static void print_header(const struct header *h, const char *const *keys, FILE *out)
{
	for (int i = 0; i < h->n; i++)
		for (int k = 0; keys[k]; k++)
			if (!strcmp(h->key[i], keys[k]))
				fprintf(out, "%-10s%s\n", h->key[i], h->val[i]);
}

void cmp_fmt_summary(const struct compare *c, const struct header *h, FILE *out)
{
	static const char *const first[] = {"compare", "machine", "run",     "warning",
					    "base",    "design",  "mapping", NULL};
	static const char *const last[] = {"note", "target", "flagged", "unmatched", NULL};
	const char *corr = cmp_correction_short[c->o.correction];
	int any = 0;

	print_header(h, first, out);
	if (c->paired) {
		fprintf(out,
			"%-10smedians of the ok repetitions; cv = stddev / mean (- for one); "
			"%%change: median per-block ratio to the base, its 95%% ci (bootstrap over "
			"blocks)\n",
			"values");
		fprintf(
		    out,
		    "%-10sexact Wilcoxon signed-rank on the per-block log ratios, %s per table; "
		    "improved/regressed: p < %g and |%%change| >= %g%%\n",
		    "p", corr, c->o.alpha, c->o.min_change);
	} else {
		fprintf(out,
			"%-10smedians of the ok repetitions; cv = stddev / mean (- for one); "
			"%%change against the base, its %g%% ci (bootstrap)\n",
			"values", 100 * (1 - c->o.alpha));
		fprintf(out,
			"%-10stwo-sided Mann-Whitney U, %s per table; improved/regressed: p < %g "
			"and |%%change| >= %g%%\n",
			"p", corr, c->o.alpha, c->o.min_change);
	}
	print_header(h, last, out);
	for (int m = 0; m < c->nmetrics; m++)
		if (shown(c, m))
			any += print_metric(c, m, out);
	if (!any)
		fprintf(out, "\nnothing to compare%s\n",
			c->one_run ? ": no group has a base and another preset" : "");
	print_mappings(c, out);
	cmp_fmt_real_vs_emulated(c, out);
	print_significant(c, out);
	cmp_fmt_unmatched(c, out, 0);
}
