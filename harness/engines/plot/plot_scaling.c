// SPDX-License-Identifier: MIT
/*
 * plot_scaling.c - the scaling and transfer plots of `pcbench plot` (plot.h): per scenario
 * and workload, the median and stddev over the ok repetitions against threads, one line
 * per series: ops/s (scaling-*.png), or for c2c ns per one-way transfer (transfer-*.png).
 * pcbench writes the rows; scripts/scaling.gp draws them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "plot.h"
#include "stats.h"
#include "strbuf.h"
#include "util.h"

/*
 * How the workloads of a scenario are drawn against threads: ops/s (scaling-*.png); or, for
 * the c2c probe, whose operation is one transfer of a line between threads (a ring above
 * two), ns per transfer from 2 threads on (transfer-*.png): its ops/s against threads, with
 * a line of linear scaling, says nothing.
 */
struct axis {
	const char *stem, *what, *ylabel, *yformat;
	long min_threads;
	int per_transfer; /* y = 1e9 / ops_per_s: ns per transfer */
};

static const struct axis axes[] = {
    {"scaling", "throughput against threads",
     "throughput [operations/s], median of the repetitions, bars: ±1 stddev", "%.1s%c", 1, 0},
    {"transfer", "ns per one-way transfer against threads",
     "ns per one-way cache-line transfer (1e9 / ops/s), median, bars: ±1 stddev", "%g", 2, 1},
};

static const struct axis *axis_of(const char *scenario)
{
	return &axes[!strcmp(scenario, "c2c")];
}

const char *plot_scaling_stem(const char *scenario)
{
	return axis_of(scenario)->stem;
}

/*
 * series_styles - per series of @ls with points (@has), its colour (one per preset, the
 * same on every host) in @colours and its host (dash and point type) in @hosts, as the
 * space-separated numbers scaling.gp takes.
 */
static void series_styles(const struct plot *p, const int *ls, const int *has, int nls,
			  struct sb *colours, struct sb *hosts)
{
	const char **bases = xcalloc((size_t)nls + 1, sizeof(char *));
	int nb = 0;

	for (int i = 0; i < nls; i++) {
		const struct line *ln = &p->lines[ls[i]];
		int c = 0;

		if (!has[i])
			continue;
		while (c < nb && strcmp(bases[c], ln->base))
			c++;
		if (c == nb)
			bases[nb++] = ln->base;
		sb_printf(colours, "%s%d", colours->n ? " " : "", c + 1);
		sb_printf(hosts, "%s%d", hosts->n ? " " : "", plot_host_index(p, ln->host) + 1);
	}
	free(bases);
}

void plot_scaling(struct plot *p, const char *sc, const char *wl, const int *ls, int nls)
{
	const struct axis *ax = axis_of(sc);
	char *stem = xasprintf("%s-%s-%s", ax->stem, sc, wl);
	char *data = plot_data_path(p, stem), *png = xasprintf("%s/%s.png", p->outdir, stem);
	long th[1024];
	int nth = plot_thread_counts(p, sc, wl, th), blocks = 0,
	    *has = xcalloc((size_t)nls + 1, sizeof(int));
	double *v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double)), ref = NAN;
	const char *ref_label = "";
	FILE *f = plot_data_begin(p);
	int drawn = 0;

	fprintf(f, "# %s %s: per line, threads, median %s, stddev\n", sc, wl,
		ax->per_transfer ? "ns per transfer" : "ops/s");
	for (int i = 0; i < nls; i++) {
		for (int k = 0; k < nth; k++) {
			size_t n = th[k] < ax->min_threads
				       ? 0
				       : plot_values(p, ls[i], wl, th[k], p->c_ops_per_s, v);

			if (!n)
				continue;
			for (size_t j = 0; ax->per_transfer && j < n; j++)
				v[j] = v[j] > 0 ? 1e9 / v[j] : NAN;
			if (!has[i]++) {
				fprintf(f, "%s", blocks++ ? "\n\n" : "");
				plot_quoted(f, p->lines[ls[i]].label);
				fprintf(f, "\n");
			}
			fprintf(f, "%ld", th[k]);
			plot_num(f, stats_median(v, n));
			plot_num(f, stats_stddev(v, n));
			fprintf(f, "\n");
			if (blocks == 1 && th[k] == 1 && !ax->per_transfer) {
				ref = stats_median(v, n);
				ref_label = p->lines[ls[i]].label;
			}
		}
	}
	if (plot_data_end(p, f, data)) {
		/* said why; no plot from a cut data file */
	} else if (blocks) {
		char *suffix = plot_title_suffix(p);
		char *title = xasprintf("%s, workload %s: %s %s", sc, wl, ax->what, suffix);
		char refs[64] = "";
		char *reflab = xasprintf("linear scaling of %s at 1 thread", ref_label);
		struct sb colours = {0}, hosts = {0};
		char *args[] = {
		    data, png,	title, (char *)ax->ylabel, (char *)ax->yformat, refs, reflab,
		    NULL, NULL, NULL};

		series_styles(p, ls, has, nls, &colours, &hosts);
		args[7] = (char *)sb_str(&colours);
		args[8] = (char *)sb_str(&hosts);
		if (!isnan(ref))
			snprintf(refs, sizeof(refs), "%.10g", ref);
		drawn = !plot_gnuplot(p, "scaling.gp", png, args);
		free(suffix);
		free(title);
		free(reflab);
		free(colours.p);
		free(hosts.p);
	} else {
		print_esc(stdout, "skipped %s: no ok measurement%s", png,
			  ax->min_threads > 1 ? " at 2 or more threads (not --matrix)" : "");
	}
	plot_data_drop(p, data, drawn);
	free(stem);
	free(data);
	free(png);
	free(has);
	free(v);
}
