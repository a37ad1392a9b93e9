// SPDX-License-Identifier: MIT
/*
 * plot_matrix.c - the c2c matrix plot of `pcbench plot` (plot.h): c2c-matrix.png, the
 * median ns per one-way transfer of every CPU pair of a c2c --matrix run, as a heatmap.
 * pcbench writes the cells; scripts/c2c-matrix.gp draws them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "plot.h"
#include "results.h"
#include "stats.h"
#include "util.h"

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

void plot_matrix(struct plot *p)
{
	int ca = results_var_col(p->t, VCOL_CPU_A), cb = results_var_col(p->t, VCOL_CPU_B);
	int cn = results_var_col(p->t, VCOL_NS_PER_TRANSFER), cpus[1024], n = 0;
	char *data, *png, *title, *title_end, ncpus[16];
	double *v;
	FILE *f;

	if (ca < 0 || cb < 0 || cn < 0) {
		print_esc(stdout, "skipped %s/c2c-matrix.png: no c2c --matrix data in this run",
			  p->outdir);
		return;
	}
	for (int r = 0; r < p->t->nrows; r++)
		for (int k = 0; k < 2; k++) {
			int cpu = atoi(p->t->rows[r][k ? cb : ca]), dup = 0;

			for (int i = 0; i < n; i++)
				dup |= cpus[i] == cpu;
			if (!dup && n < 1024)
				cpus[n++] = cpu;
		}
	qsort(cpus, (size_t)n, sizeof(int), cmp_int);
	data = plot_data_path(p, "c2c-matrix");
	png = xasprintf("%s/c2c-matrix.png", p->outdir);
	v = xrealloc(NULL, (size_t)(p->t->nrows + 1) * sizeof(double));
	f = plot_data_begin(p);
	fprintf(f, "# column row median-ns cpu-of-column cpu-of-row\n");
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			size_t k = 0;

			for (int r = 0; r < p->t->nrows; r++) {
				int a = atoi(p->t->rows[r][ca]), b = atoi(p->t->rows[r][cb]);

				if (strcmp(plot_cell(p, r, p->c_status), "ok") ||
				    !((a == cpus[i] && b == cpus[j]) ||
				      (a == cpus[j] && b == cpus[i])))
					continue;
				v[k++] = atof(p->t->rows[r][cn]);
			}
			fprintf(f, "%d %d", i, j);
			plot_num(f, k ? stats_median(v, k) : NAN);
			fprintf(f, " %d %d\n", cpus[i], cpus[j]);
		}
		fprintf(f, "\n");
	}
	title_end = plot_title_suffix(p);
	title = xasprintf("c2c %s: ns per one-way transfer %s",
			  p->t->nrows ? plot_cell(p, 0, p->c_workload) : "", title_end);
	snprintf(ncpus, sizeof(ncpus), "%d", n);
	plot_data_drop(
	    p, data,
	    !plot_data_end(p, f, data) &&
		!plot_gnuplot(p, "c2c-matrix.gp", png, (char *[]){data, png, title, ncpus, NULL}));
	free(title_end);
	free(title);
	free(data);
	free(png);
	free(v);
}
