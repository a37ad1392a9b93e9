// SPDX-License-Identifier: MIT
/*
 * plot_counters.c - the counter plots of `pcbench plot` (plot.h): per scenario, HITM,
 * c2c-fill and LLC-miss per operation, a cluster per workload and threads, a bar per series
 * (counters-*.png). pcbench writes the rows; scripts/counters.gp draws them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "plot.h"
#include "stats.h"
#include "util.h"

/* Counter columns plotted in counters-<scenario>.png: <stem>..._per_op. */
static const char *const counter_stems[] = {"hitm", "rfo_hitm", "c2c_fill", "llc_miss"};

static int is_counter(const char *h)
{
	if (!ends_with(h, "_per_op") || ends_with(h, "_min_thread_per_op") ||
	    ends_with(h, "_max_thread_per_op"))
		return 0;
	for (size_t i = 0; i < sizeof(counter_stems) / sizeof(counter_stems[0]); i++)
		if (!strncmp(h, counter_stems[i], strlen(counter_stems[i])))
			return 1;
	return 0;
}

void plot_counters(struct plot *p, const char *sc, const int *ls, int nls)
{
	char *stem = xasprintf("counters-%s", sc);
	char *data = plot_data_path(p, stem), *png = xasprintf("%s/%s.png", p->outdir, stem);
	char **wls = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(char *));
	int nwl = plot_distinct(p, sc, p->c_workload, wls), nev = 0;
	double *v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double));
	long th[1024];
	struct {
		char *name;
		int col;
	} ev[64];
	FILE *f;

	/* The counter columns with at least one value in this scenario. */
	for (int k = 0; k < p->t->ncols && nev < 64; k++) {
		int any = 0;

		if (!is_counter(p->t->header[k]))
			continue;
		for (int r = 0; r < p->t->nrows && !any; r++)
			any = !strcmp(plot_cell(p, r, p->c_scenario), sc) &&
			      !strcmp(plot_cell(p, r, p->c_status), "ok") && p->t->rows[r][k][0];
		if (any) {
			ev[nev].name = p->t->header[k];
			ev[nev++].col = k;
		}
	}
	if (!nev) {
		print_esc(stdout,
			  "skipped %s: no HITM, c2c-fill or LLC-miss counter values in this run",
			  png);
		goto out;
	}
	f = plot_data_begin(p);
	for (int e = 0; e < nev; e++) {
		fprintf(f, "%s\"%s\"", e ? "\n\n" : "", ev[e].name);
		for (int i = 0; i < nls; i++) {
			fputc(' ', f);
			plot_quoted(f, p->lines[ls[i]].label);
			fprintf(f, " \"stddev\"");
		}
		fprintf(f, "\n");
		for (int w = 0; w < nwl; w++) {
			int nth = plot_thread_counts(p, sc, wls[w], th);

			for (int k = 0; k < nth; k++) {
				int any = 0;

				for (int i = 0; i < nls && !any; i++)
					any =
					    plot_values(p, ls[i], wls[w], th[k], ev[e].col, v) > 0;
				if (!any)
					continue; /* nothing measured here: no empty cluster */
				fprintf(f, "\"%s t=%ld\"", wls[w], th[k]);
				for (int i = 0; i < nls; i++) {
					size_t n =
					    plot_values(p, ls[i], wls[w], th[k], ev[e].col, v);

					plot_num(f, n ? stats_median(v, n) : NAN);
					plot_num(f, n ? stats_stddev(v, n) : NAN);
				}
				fprintf(f, "\n");
			}
		}
	}
	if (!plot_data_end(p, f, data)) {
		char *suffix = plot_title_suffix(p);
		char *title = xasprintf("%s: counters per operation by preset %s", sc, suffix);
		char nseries[16], *events = NULL;
		char *args[] = {data, png, title, NULL, nseries, NULL};

		for (int e = 0; e < nev; e++) {
			char *more =
			    events ? xasprintf("%s %s", events, ev[e].name) : xstrdup(ev[e].name);

			free(events);
			events = more;
		}
		args[3] = events;
		snprintf(nseries, sizeof(nseries), "%d", nls);
		plot_data_drop(p, data, !plot_gnuplot(p, "counters.gp", png, args));
		free(suffix);
		free(title);
		free(events);
	} else {
		plot_data_drop(p, data, 0);
	}
out:
	free(stem);
	free(data);
	free(png);
	free(wls);
	free(v);
}
