// SPDX-License-Identifier: MIT
/*
 * explain.c - compare: explained numbers, predicted ns/op from the model's transfers per
 * operation and the c2c probe's latency per pair class.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "csv.h"

static double median_where(const struct cmp_run *r, int col,
			   int (*match)(const struct cmp_run *, int, const void *), const void *arg)
{
	double *v = xcalloc((size_t)r->t->nrows + 1, sizeof(double)), m;
	size_t n = 0;

	for (int i = 0; col >= 0 && i < r->t->nrows; i++)
		if (!strcmp(cmp_cell_at(r, i, r->col[C_STATUS]), "ok") &&
		    cmp_cell_at(r, i, col)[0] && match(r, i, arg))
			v[n++] = atof(cmp_cell_at(r, i, col));
	m = stats_median(v, n);
	free(v);
	return m;
}

static const char *const explain_classes[] = {"same-l3", "cross-l3", "same-package",
					      "cross-socket"};

/* a c2c ping-pong row between two PUs of pair class @arg */
static int is_c2c_class(const struct cmp_run *r, int i, const void *arg)
{
	int c = results_col(r->t, COL_PAIR_CLASS);

	return c >= 0 && !strcmp(cmp_cell_at(r, i, r->col[C_SCENARIO]), "c2c") &&
	       !strcmp(cmp_cell_at(r, i, r->col[C_WORKLOAD]), "pingpong") &&
	       !strcmp(cmp_cell_at(r, i, r->col[C_THREADS]), "2") &&
	       !strcmp(cmp_cell_at(r, i, c), arg);
}

/* a row of the same scenario, workload, threads and preset as row *(int *)arg */
static int same_family(const struct cmp_run *r, int i, const void *arg)
{
	int j = *(const int *)arg;
	static const int keys[] = {C_SCENARIO, C_PRESET, C_WORKLOAD, C_THREADS, C_PLACEMENT};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strcmp(cmp_cell_at(r, i, r->col[keys[k]]), cmp_cell_at(r, j, r->col[keys[k]])))
			return 0;
	return 1;
}

/*
 * cmp_explain - explained numbers: when a run holds both c2c ping-pong rows (ns per one-way
 * transfer, per pair class) and the model's transfers per operation per class (--with-model),
 * print predicted ns/op = sum over classes of transfers/op x ns/transfer next to the
 * measured ns/op. An estimate: only line transfers, each at the probe's latency, none
 * overlapped (real cores overlap some, and do other work too).
 */
void cmp_explain(const struct compare *c, FILE *out)
{
	for (int ri = 0; ri < c->nruns; ri++) {
		const struct cmp_run *r = &c->runs[ri];
		double ns[4];
		int have = 0, cols[4], printed = 0;

		for (int k = 0; k < 4; k++) {
			char name[64];

			snprintf(name, sizeof(name), "model_transfers_%s_per_op",
				 explain_classes[k]);
			for (char *p = name; *p; p++)
				*p = *p == '-' ? '_' : *p;
			cols[k] = csv_col(r->t, name);
			/* ns per one-way transfer: the probe's ns_per_op over its 2 threads */
			ns[k] =
			    median_where(r, r->col[C_NS_PER_OP], is_c2c_class, explain_classes[k]) /
			    2;
			have += !isnan(ns[k]);
		}
		if (!have || cols[0] < 0)
			continue;
		for (int i = 0; i < r->t->nrows; i++) {
			double pred = 0, transfers = 0;
			int first = 1, missing = -1;

			if (!strcmp(cmp_cell_at(r, i, r->col[C_SCENARIO]), "c2c"))
				continue;
			for (int j = 0; j < i && first; j++)
				first = !same_family(r, j, &i);
			if (!first)
				continue;
			for (int k = 0; k < 4; k++) {
				double t = median_where(r, cols[k], same_family, &i);

				if (isnan(t) || t == 0)
					continue;
				transfers += t;
				if (isnan(ns[k]))
					missing = k;
				else
					pred += t * ns[k];
			}
			if (!printed++) {
				fprintf(
				    out,
				    "\nexplained numbers, %s: predicted ns/op = model transfers/op "
				    "x c2c ns per transfer (",
				    r->label);
				for (int k = 0, n = 0; k < 4; k++)
					if (!isnan(ns[k]))
						fprintf(out, "%s%s %.1f ns", n++ ? ", " : "",
							explain_classes[k], ns[k]);
				fprintf(out, "); an estimate: transfers only, each at the probe's "
					     "latency, none overlapped\n");
				fprintf(out, "%-14s %-10s %-8s %-18s %10s %13s %15s\n",
					results_cols[COL_SCENARIO], results_cols[COL_WORKLOAD],
					results_cols[COL_THREADS], results_cols[COL_PRESET],
					"measured", "transfers/op", "predicted ns/op");
			}
			fprintf(out, "%-14s %-10s %-8s %-18s %10.1f %13.3f ",
				cmp_cell_at(r, i, r->col[C_SCENARIO]),
				cmp_cell_at(r, i, r->col[C_WORKLOAD]),
				cmp_cell_at(r, i, r->col[C_THREADS]),
				cmp_cell_at(r, i, r->col[C_PRESET]),
				median_where(r, r->col[C_NS_PER_OP], same_family, &i), transfers);
			if (missing >= 0)
				fprintf(out, "%15s\n", "n/a");
			else
				fprintf(out, "%15.1f\n", pred);
		}
	}
}
