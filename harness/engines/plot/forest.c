// SPDX-License-Identifier: MIT
/*
 * forest.c - the forest plots of `pcbench plot`: per table of `pcbench compare RUN` (the
 * same results, computed once by compare's own code: compare_one_run), each preset's
 * %change of ops/s against the table's base with its 95% ci, as a point and a bar, marked
 * by its verdict. pcbench writes the rows; scripts/forest.gp draws them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot.h"

/*
 * The verdict classes forest.gp tells apart (colour, point type and, for no verdict, a
 * dashed bar); 0 is a table's header row. "small" (significant, under --min-change) is
 * not a significant change; "n/a" has nothing to show.
 */
static const struct {
	const char *verdict;
	int cls;
} classes[] = {
    {"improved", 1},   {"regressed", 2}, {"n.s.", 3}, {"small", 3},
    {"no verdict", 4}, {"n/a", 4},	 {NULL, 4},
};

static int class_of(const char *verdict)
{
	int i = 0;

	while (classes[i].verdict && strcmp(classes[i].verdict, verdict))
		i++;
	return classes[i].cls;
}

static void widen(double *lo, double *hi, double v)
{
	if (!isnan(v)) {
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

/*
 * table_rows - the rows of table (block) @b: a header (its threads, placement, home, host,
 * sweep and base), then one per compared preset; returns how many rows, and widens
 * [*@lo, *@hi] to every %change and ci bound.
 */
static int table_rows(const struct compare *c, const struct block *b, int m, int y, FILE *f,
		      double *lo, double *hi)
{
	const struct group *g = &c->groups[b->group];
	char *title = cmp_group_title(c, g, " ");
	/* the title without "SCENARIO workload=WORKLOAD ", which the PNG's title has */
	const char *rest =
	    title + strlen(g->scenario) + strlen(" workload=") + strlen(g->workload) + 1;
	char *head = xasprintf("%s (base %s)", rest, b->label[0]);
	int n = 1;

	fprintf(f, "%d ", y);
	plot_quoted(f, head);
	fprintf(f, " ? ? ? 0 \"\" \"\" ");
	plot_quoted(f, title);
	fprintf(f, "\n");
	for (int col = 1; col < b->ncols; col++) {
		int ri = b->res[col * c->nmetrics + m];
		const struct result *r = ri >= 0 ? &c->res[ri] : NULL;
		char change[64], ci[128], p[64], verdict[64], *note;

		if (!r)
			continue;
		cmp_verdict_cells(r, change, ci, p, verdict, sizeof(change));
		note = xasprintf("%s %s %s", change, ci, verdict);
		fprintf(f, "%d ", y + n++);
		plot_quoted(f, b->label[col]);
		plot_num(f, r->change);
		plot_num(f, r->ci_lo);
		plot_num(f, r->ci_hi);
		fprintf(f, " %d ", class_of(r->verdict));
		plot_quoted(f, r->verdict);
		fputc(' ', f);
		plot_quoted(f, note);
		fputc(' ', f);
		plot_quoted(f, title);
		fprintf(f, "\n");
		widen(lo, hi, r->change);
		widen(lo, hi, r->ci_lo);
		widen(lo, hi, r->ci_hi);
		free(note);
	}
	free(head);
	free(title);
	return n;
}

/* has_results - block @b has a result of metric @m (a preset compared with the base). */
static int has_results(const struct compare *c, const struct block *b, int m)
{
	for (int col = 1; col < b->ncols; col++)
		if (b->res[col * c->nmetrics + m] >= 0)
			return 1;
	return 0;
}

static int draw(struct plot *p, const char *sc, const char *wl, const char *data, const char *png,
		int rows, double lo, double hi)
{
	const struct compare *c = p->cmp;
	double pad = (hi - lo) * 0.06 + 0.5;
	char *suffix = plot_title_suffix(p), nrows[16], xmin[32], xmax[32];
	char *title = xasprintf("%s, workload %s: %%change of ops/s against the base, per "
				"compare table %s",
				sc, wl, suffix);
	int drawn;
	char *xlabel = xasprintf(
	    "%%change of ops/s against the table's base: %s; bar: its 95%% ci (bootstrap)",
	    c->paired ? "median per-block ratio (block design)"
		      : "ratio of medians (independent repetitions)");

	snprintf(nrows, sizeof(nrows), "%d", rows);
	snprintf(xmin, sizeof(xmin), "%.6g", lo - pad);
	snprintf(xmax, sizeof(xmax), "%.6g", hi + pad);
	drawn = !plot_gnuplot(
	    p, "forest.gp", png,
	    (char *[]){(char *)data, (char *)png, title, nrows, xmin, xmax, xlabel, NULL});
	free(suffix);
	free(title);
	free(xlabel);
	return drawn;
}

void plot_forest(struct plot *p, const char *sc, const char *wl)
{
	const struct compare *c = p->cmp;
	char *stem = xasprintf("forest-%s-%s", sc, wl);
	char *data = plot_data_path(p, stem), *png = xasprintf("%s/%s.png", p->outdir, stem);
	int m = cmp_metric_index(c, results_cols[COL_OPS_PER_S]), rows = 0, drawn = 0;
	double lo = 0, hi = 0; /* 0 (no change) is always in range */
	FILE *f = plot_data_begin(p);

	fprintf(f,
		"# %s %s: per table of pcbench compare (ops_per_s), a header row, then per\n"
		"# preset: y \"preset\" %%change ci_lo ci_hi class \"verdict\" \"text\" "
		"\"table\"\n"
		"# class: 1 improved, 2 regressed, 3 n.s. (also small), 4 no verdict "
		"(also n/a)\n",
		sc, wl);
	for (int bi = 0; m >= 0 && bi < c->nblocks; bi++) {
		const struct block *b = &c->blocks[bi];
		const struct group *g = &c->groups[b->group];

		if (!strcmp(g->scenario, sc) && !strcmp(g->workload, wl) && has_results(c, b, m))
			rows += table_rows(c, b, m, rows + 1, f, &lo, &hi);
	}
	if (plot_data_end(p, f, data)) {
		/* said why; no plot from a cut data file */
	} else if (rows) {
		drawn = draw(p, sc, wl, data, png, rows, lo, hi);
	} else {
		print_esc(stdout,
			  "skipped %s: no preset compared with a base (one preset per table)", png);
	}
	plot_data_drop(p, data, drawn);
	free(stem);
	free(data);
	free(png);
}
